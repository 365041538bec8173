# Shared helpers of issue 27's tests (tests/trust/*.sh) and tests/cli/hard.sh:
# sourced, not run.
# Each script sets NAME before sourcing; $T is its own scratch folder.
B=${B:-build}
J=$(pwd)/$B/jnt
ROOT=$(pwd)
T=$ROOT/$B/tests/trust-$NAME
rm -rf "$T"
mkdir -p "$T"
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
# expect STATUS NAME CMD...: the command's exit status; stdout in $T/out, stderr in $T/err
expect() { want=$1; name=$2; shift 2
    "$@" > "$T/out" 2> "$T/err"; rc=$?
    if [ "$rc" -eq "$want" ]; then pass "$name"; else fail "$name (exit $rc, want $want)"; head -3 "$T/err"; fi; }
# has NAME TEXT: stderr of the last expect holds TEXT
has() { if grep -q -- "$2" "$T/err"; then pass "$1"; else fail "$1: no '$2' in"; head -3 "$T/err"; fi; }
# a small model that writes m.csv
small_model() {
    cat > "$1" <<'JNT'
model m
param t_end = 2 ms
param dt_out = 1 ms
param mass = 1 kg
body b : point(mass = mass) { dof x }
init b.x = 1 m
spring s between b.x and ground { stiffness = 1 N/m }
simulate { integrator = rk4(h = 10 us)  until = t_end }
output "m.csv" every dt_out { t, x = b.x }
JNT
}

# cpu_ns CMD...: the least CPU time (user + system of the child) of three runs of CMD, in ns:
# CPU time rather than wall clock, and the least of three, so that other load on a shared
# machine does not count (wall clock failed the linearity checks at 24x under a load of 20).
# The compile cache is off, so that every run does the same work.
cpu_ns() {
    JNT_CACHE=0 /usr/bin/python3 -c '
import resource, subprocess, sys
best = None
for r in range(3):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    best = t if best is None else min(best, t)
print(int(best * 1e9))' "$@"
}
