#!/bin/sh
# make install into a temporary prefix, then use it as a user outside the
# source tree would: jnt --version, the soname and links, the installed
# stdlib (a law added to the installed copy only must be found), the embed
# example built with pkg-config and run, the installed Python package
# where the prefix's python3 imports it (a venv, ~/.local) or with the one
# PYTHONPATH line make install prints (any other prefix), no JNT_* variable.
# (pip and a fresh venv: tests/install/venv.sh.)
# Run from the repository root with B set to the build directory.
B=${B:-build}
ROOT=$(pwd)
pass() { echo "PASS: install: $*"; }
fail() { echo "FAIL: install: $*"; }
P=$(mktemp -d "${TMPDIR:-/tmp}/jnt-prefix.XXXXXX")
trap 'rm -rf "$P"' EXIT

py=/usr/bin/python3 # Debian's, with numpy (PATH's python3 may be another)
if make --no-print-directory B="$B" PREFIX="$P/usr" PYTHON=$py install > "$P/make.log" 2>&1; then
    pass "make install PREFIX=... ($(grep '^installed jnt' "$P/make.log"))"
else
    fail "make install failed: $(tail -3 "$P/make.log")"
    exit 0
fi
U=$P/usr
V=$(sed -n 's/^#define JNT_VERSION "\(.*\)"/\1/p' runtime/include/jnt/jnt.h)
missing=""
for f in bin/jnt lib/libjnt.so.$V lib/libjnt.so.0 lib/libjnt.so lib/libjnt.a include/jnt/jnt.h \
         include/jnt/abi.h include/jnt/setup.h lib/pkgconfig/jnt.pc share/jnt/stdlib/friction.jnt \
         share/man/man1/jnt.1; do
    [ -e "$U/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && pass "every file in place" || fail "missing:$missing"
so=$(readelf -d "$U/lib/libjnt.so.$V" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$so" = "libjnt.so.0" ] && pass "soname $so" || fail "soname '$so'"
got=$("$U/bin/jnt" --version)
case $got in "jnt $V (ABI "*) pass "jnt --version: $got" ;; *) fail "jnt --version: '$got'" ;; esac
if grep -q '^\.TH JNT 1' "$U/share/man/man1/jnt.1" && grep -q '^\.SH ' "$U/share/man/man1/jnt.1" &&
        grep -q 'jnt sweep' "$U/share/man/man1/jnt.1"; then
    pass "man page jnt.1 (from docs/cli.md)"
else
    fail "man page jnt.1"
fi

# the installed stdlib, not the source tree's: a law only the installed copy has
W=$P/work
mkdir -p "$W"
cat >> "$U/share/jnt/stdlib/friction.jnt" <<'JNT'

law friction install_probe(mu) {
  force = mu * N * v / (abs(v) + 1 mm/s)
}
JNT
cat > "$W/probe.jnt" <<'JNT'
model probe
import friction
body b : point(mass = 1 kg) { dof x }
init b.x.v = 1 m/s
friction f between b.x and ground { law = install_probe(mu = 0.5)  normal = 9.81 N }
simulate { integrator = rk4(h = 1 ms)  until = 0.1 s }
output "probe.csv" every 10 ms { t, v = b.x.v }
JNT
if (cd "$W" && "$U/bin/jnt" run probe.jnt -o probe.csv) && [ -s "$W/probe.csv" ]; then
    pass "the installed jnt imports its installed stdlib"
else
    fail "the installed jnt did not find PREFIX/share/jnt/stdlib"
fi

# examples/embed built out of the tree with pkg-config, on libjnt.so
cp examples/embed/embed.c "$W/"
if (cd "$W" && PKG_CONFIG_PATH="$U/lib/pkgconfig" \
        cc -std=c11 -o embed embed.c $(PKG_CONFIG_PATH="$U/lib/pkgconfig" pkg-config --cflags --libs jnt)) \
        > "$P/cc.log" 2>&1; then
    pass "cc embed.c \$(pkg-config --cflags --libs jnt)"
    out=$(cd "$W" && ./embed "$ROOT/examples/frdyn2_bench.jnt" 2>&1)
    u1=$(printf '%s\n' "$out" | sed -n '1s/.*= \([^ ]*\) m$/\1/p')
    if ldd "$W/embed" | grep -q "$U/lib/libjnt.so.0" && awk -v a="$u1" 'BEGIN {
            r = a / (0.95 * 0.6 * 9.81 / 5e6); exit !(r > 0.98 && r < 1.02) }'; then
        pass "the out-of-tree embed runs on the installed libjnt.so: u = $u1 m (F_E/sigma0)"
    else
        fail "the out-of-tree embed: $out"
    fi
else
    fail "building embed with pkg-config: $(tail -3 "$P/cc.log")"
fi

# the installed Python package finds the installed library by itself. A
# prefix no interpreter searches: make install's last line is the one to add
run_py='
import jnt, sys
m = jnt.compile(sys.argv[1])
r = m.run(tE="100 ms")
print(jnt.version(), len(r), r["u"][-1])'
clean() { env -i PATH=/usr/bin:/bin HOME="$P/home" LANG=C.UTF-8 "$@"; }
if [ -z "$JNT_SKIP_PYTHON" ]; then
    line=$(tail -1 "$P/make.log")
    case $line in
    "export PYTHONPATH=$U/lib/python3"*/site-packages)
        r=$(cd "$W" && clean sh -c "$line && exec $py -c '$run_py' '$ROOT/examples/frdyn2_bench.jnt'" 2>&1)
        case $r in "$V "*) pass "a custom prefix: make install prints '$line'; with it: $r" ;;
            *) fail "the installed Python package with '$line': $r" ;; esac ;;
    *) fail "make install PREFIX=$U: the last line is '$line', not the PYTHONPATH to add" ;;
    esac
    # a virtual environment as the prefix: its python3 imports the package
    if $py -m venv --system-site-packages "$P/venv" > "$P/venv.log" 2>&1 &&
            make --no-print-directory B="$B" PREFIX="$P/venv" install > "$P/make2.log" 2>&1; then
        r=$(cd "$W" && clean "$P/venv/bin/python3" -c "$run_py" "$ROOT/examples/frdyn2_bench.jnt" 2>&1)
        case $r in "$V "*) pass "make install PREFIX=a venv: its python3 imports jnt, no variable: $r" ;;
            *) fail "make install PREFIX=a venv, then its python3: $r ($(tail -1 "$P/make2.log"))" ;; esac
    else
        fail "make install PREFIX=a venv: $(tail -3 "$P/venv.log" "$P/make2.log")"
    fi
    # ~/.local (the user's site folder, as HOME says): Debian's python3 imports it
    mkdir -p "$P/home"
    if HOME="$P/home" make --no-print-directory B="$B" PREFIX="$P/home/.local" PYTHON=$py install \
            > "$P/make3.log" 2>&1; then
        r=$(cd "$W" && clean $py -c "$run_py" "$ROOT/examples/frdyn2_bench.jnt" 2>&1)
        case $r in "$V "*) pass "make install PREFIX=~/.local: $py imports jnt, no variable: $r" ;;
            *) fail "make install PREFIX=~/.local, then $py: $r ($(tail -1 "$P/make3.log"))" ;; esac
    else
        fail "make install PREFIX=~/.local: $(tail -3 "$P/make3.log")"
    fi
fi

# the installed libjnt.so compiles in memory: no tcc or cc on PATH needed
# (before: it ran the tcc program, else cc, and failed with neither)
if [ -x "$W/embed" ]; then
    out=$(cd "$W" && PATH="$P/empty" ./embed "$ROOT/examples/frdyn2_bench.jnt" 2>&1)
    u2=$(printf '%s\n' "$out" | sed -n '1s/.*= \([^ ]*\) m$/\1/p')
    [ -n "$u2" ] && [ "$u2" = "$u1" ] && pass "the installed libjnt.so with PATH emptied: u = $u2 m" \
        || fail "the installed libjnt.so with PATH emptied: $out"
fi

# libjnt.a through pkg-config --static (docs/embedding.md): -ltcc and the
# runtime's libraries; the program needs no libjnt.so and JITs in memory
if (cd "$W" && PKG_CONFIG_PATH="$U/lib/pkgconfig" && export PKG_CONFIG_PATH &&
        cc -std=c11 embed.c $(pkg-config --cflags jnt) -Wl,-Bstatic -ljnt -Wl,-Bdynamic \
        -Wl,--as-needed $(pkg-config --static --libs jnt) -o embed_static) > "$P/cc.log" 2>&1; then
    out=$(cd "$W" && PATH="$P/empty" ./embed_static "$ROOT/examples/frdyn2_bench.jnt" 2>&1)
    u3=$(printf '%s\n' "$out" | sed -n '1s/.*= \([^ ]*\) m$/\1/p')
    if readelf -d "$W/embed_static" | grep -q 'NEEDED.*libjnt'; then
        fail "the static embed needs $(readelf -d "$W/embed_static" | sed -n 's/.*NEEDED.*\[\(libjnt[^]]*\)\]/\1/p')"
    elif [ -n "$u3" ] && [ "$u3" = "$u1" ]; then
        pass "embed.c on libjnt.a with pkg-config --static (no libjnt.so needed): u = $u3 m"
    else
        fail "the static embed: $out"
    fi
else
    fail "building embed with pkg-config --static: $(tail -3 "$P/cc.log")"
fi
