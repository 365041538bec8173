#!/bin/sh
# The Python package installed by pip, offline, as a user would: make
# python-package stages B/python (the modules with libjnt.so, the headers
# and the stdlib inside); pip installs it into a fresh virtual environment
# (Debian's python3 -m venv --system-site-packages: numpy from Debian), and a
# model runs there with no JNT_* variable and no PYTHONPATH, from a folder
# outside the source tree, on the package's own library, headers and stdlib.
# Then pip install ./python from the source tree (setup.py bundles the same
# files from the build directory), a wheel, and the refusal without a build.
# Run from the repository root with B set to the build directory.
B=${B:-build}
ROOT=$(pwd)
pass() { echo "PASS: venv: $*"; }
fail() { echo "FAIL: venv: $*"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/jnt-venv.XXXXXX")
trap 'rm -rf "$T"' EXIT
py=/usr/bin/python3 # Debian's, with numpy (PATH's python3 may be another)
pip_offline="--no-build-isolation --no-index --no-cache-dir --disable-pip-version-check"
V=$(sed -n 's/^#define JNT_VERSION "\(.*\)"/\1/p' runtime/include/jnt/jnt.h)
# a clean environment: no JNT_*, no PYTHONPATH, PATH with tcc and cc
clean() { env -i PATH=/usr/bin:/bin HOME="$T/home" LANG=C.UTF-8 "$@"; }
mkdir -p "$T/home" "$T/work"

if ! $py -c 'import venv, ensurepip' 2>/dev/null; then
    fail "$py has no venv/ensurepip (Debian package python3-venv)"
    exit 0
fi
if make --no-print-directory B="$B" python-package > "$T/stage.log" 2>&1 &&
        [ -f "$B/python/jnt/lib/libjnt.so" ] && [ -f "$B/python/jnt/share/jnt/stdlib/friction.jnt" ] &&
        [ -f "$B/python/jnt/include/jnt/abi.h" ] && [ -f "$B/python/pyproject.toml" ]; then
    pass "make python-package: $B/python"
else
    fail "make python-package: $(tail -3 "$T/stage.log")"
    exit 0
fi

# a fresh virtual environment, the staged package installed offline
E=$T/venv
t0=$(date +%s.%N)
if $py -m venv --system-site-packages "$E" > "$T/venv.log" 2>&1 &&
        clean "$E/bin/python" -m pip install $pip_offline "$ROOT/$B/python" > "$T/pip.log" 2>&1; then
    pass "python3 -m venv + pip install $B/python offline ($(awk -v a="$t0" -v b="$(date +%s.%N)" \
        'BEGIN { printf "%.1f s", b - a }'))"
else
    fail "venv + pip install: $(tail -3 "$T/venv.log" "$T/pip.log")"
    exit 0
fi
S=$(clean "$E/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
missing=""
for f in __init__.py _lib.py model.py lib/libjnt.so include/jnt/jnt.h include/jnt/abi.h \
         share/jnt/stdlib/friction.jnt share/jnt/stdlib/contact.jnt; do
    [ -e "$S/jnt/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass "the package carries libjnt.so, the headers and the stdlib" ||
    fail "missing in $S/jnt:$missing"

# a model runs in the venv with no JNT_* variable, outside the source tree:
# in stick the bench's final displacement is F_E / sigma0 (as install.sh)
cp examples/frdyn2_bench.jnt "$T/work/"
r=$(cd "$T/work" && clean "$E/bin/python" -c '
import ctypes, jnt, jnt._lib as L
m = jnt.compile("frdyn2_bench.jnt")
r = m.run(tE="100 ms")
d = ctypes.CDLL(L.loaded_from); d.jnt_include_dir.restype = ctypes.c_char_p
print(jnt.version(), len(r), r["u"][-1], L.loaded_from, d.jnt_include_dir().decode())' 2>&1)
set -- $r
if [ "$1" = "$V" ] && [ "$2" -gt 1000 ] 2>/dev/null && awk -v a="$3" 'BEGIN {
        r = a / (0.95 * 0.6 * 9.81 / 5e6); exit !(r > 0.98 && r < 1.02) }'; then
    pass "a model runs in the venv with no JNT_* variable: jnt $1, $2 rows, u = $3 m (F_E/sigma0)"
else
    fail "the model in the venv: $r"
fi
[ "$4" = "$S/jnt/lib/libjnt.so" ] && pass "the library is the package's own: $4" ||
    fail "the library loaded is '$4', not $S/jnt/lib/libjnt.so"
[ "$5" = "$S/jnt/include" ] && pass "the JIT's headers are the package's: $5" ||
    fail "jnt_include_dir() is '$5', not $S/jnt/include"

# the stdlib is the package's, not the source tree's: a law only the
# venv's copy has must be found
cat >> "$S/jnt/share/jnt/stdlib/friction.jnt" <<'JNT'

law friction venv_probe(mu) {
  force = mu * N * v / (abs(v) + 1 mm/s)
}
JNT
cat > "$T/work/probe.jnt" <<'JNT'
model probe
import friction
body b : point(mass = 1 kg) { dof x }
init b.x.v = 1 m/s
friction f between b.x and ground { law = venv_probe(mu = 0.5)  normal = 9.81 N }
simulate { integrator = rk4(h = 1 ms)  until = 0.1 s }
output "probe.csv" every 10 ms { t, v = b.x.v }
JNT
r=$(cd "$T/work" && clean "$E/bin/python" -c '
import jnt
r = jnt.compile("probe.jnt").run()
print(len(r), r["v"][-1])' 2>&1)
case $r in
    "11 "*) pass "the package's own stdlib (a law only its copy has): v(0.1 s) = ${r#* } m/s" ;;
    *) fail "the package's stdlib: $r" ;;
esac

# pip install ./python from the source tree: setup.py bundles the build
# directory's libjnt.so ($JNT_BUILD_DIR, default build/), headers, stdlib;
# setuptools' scratch folders go to $JNT_BUILD_DIR/pybuild, not into python/
if JNT_BUILD_DIR="$B" $py -m pip install $pip_offline --no-deps --target "$T/tgt" ./python \
        > "$T/pip2.log" 2>&1 && [ -f "$T/tgt/jnt/lib/libjnt.so" ] &&
        [ -f "$T/tgt/jnt/share/jnt/stdlib/friction.jnt" ]; then
    r=$(cd "$T/work" && clean PYTHONPATH="$T/tgt" $py -c '
import jnt
print(len(jnt.compile("frdyn2_bench.jnt").run(tE="100 ms")))' 2>&1)
    [ "$r" -gt 1000 ] 2>/dev/null && pass "pip install ./python (JNT_BUILD_DIR=$B) bundles the library: $r rows, no JNT_*" ||
        fail "pip install ./python, then a run: $r"
else
    fail "pip install ./python: $(tail -3 "$T/pip2.log")"
fi
left=$(ls -d python/build python/*.egg-info 2>/dev/null)
[ -z "$left" ] && pass "pip install ./python leaves python/ as it was" ||
    { fail "pip install ./python left $left in the source tree"; rm -rf $left; }
# without a built library: refused at install time, naming it
out=$(JNT_BUILD_DIR="$T/nowhere" $py -m pip install $pip_offline --no-deps --target "$T/tgt2" ./python 2>&1)
case $out in *"jnt: error: $T/nowhere/libjnt.so not found: run 'make'"*)
    pass "pip install ./python without a built libjnt.so is refused, naming it" ;;
    *) fail "pip install ./python without libjnt.so: $(printf '%s\n' "$out" | tail -3)" ;; esac

# a wheel: a platform wheel (it carries a compiled library), not py3-none-any
if $py -m pip wheel $pip_offline --no-deps -w "$T/wheel" "$ROOT/$B/python" > "$T/wheel.log" 2>&1; then
    w=$(ls "$T/wheel"/jnt-*.whl 2>/dev/null)
    n=$($py -c 'import sys, zipfile; print(sum(1 for n in zipfile.ZipFile(sys.argv[1]).namelist()
        if n in ("jnt/lib/libjnt.so", "jnt/include/jnt/abi.h", "jnt/share/jnt/stdlib/friction.jnt")))' "$w")
    case $w in *-linux_*.whl) [ "$n" = 3 ] && pass "pip wheel: $(basename "$w") with libjnt.so, headers, stdlib" ||
        fail "the wheel $(basename "$w") lacks the library, headers or stdlib" ;;
        *) fail "pip wheel: '$w' is not a platform wheel" ;; esac
else
    fail "pip wheel: $(tail -3 "$T/wheel.log")"
fi
