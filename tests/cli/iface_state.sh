#!/bin/sh
# A model with a sliding interface whose force reads the state only through a condition
# (`if upper.left[1].uy < -2e-8 m then 0 N else ...`): its Jacobian has no state entry, so
# the runtime knows it reads the state only from the compiler (JNT_BLOCK_STATE_FORCES).
# Without it the force kernel read a stale state and switched late. The same model with a
# term of no size that the Jacobian does see (1e-30 N/m * uy, force_state from the
# Jacobian) must give the same rows, byte for byte.
# Run from the repository root with B set to the build directory.
B=${B:-build}
J=$B/jnt
pass() { echo "PASS: iface_state: $*"; }
fail() { echo "FAIL: iface_state: $*"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/jnt-ifs.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
# examples/beam_on_beam.jnt: the load at A switches off once A has moved 20 nm down; no locus
mk() {
    sed -e "s|^force fy.*|force fy[i in 1..3] on upper.left[i].uy = (if upper.left[1].uy < -2e-8 m then 0 N else Fy / 3) * smoothstep(t, 0 s, T_r)$1|" \
        -e 's|^analysis locus.*||' \
        -e 's|^  t, a_T = |  t, uA = upper.left[1].uy, a_T = |' examples/beam_on_beam.jnt
}
mk '' > "$T/cond.jnt"
mk ' + 1e-30 N/m * upper.left[1].uy' > "$T/lin.jnt"
# flags NAME FILE: the flags of block NAME in the generated C (jnt_abi_block's 11th field)
flags() { awk -F', ' -v n="    {\"$1\"" '$1 == n { print $11 }' "$2"; }
JNT_CACHE=0 "$J" emit "$T/cond.jnt" 2> /dev/null > "$T/cond.c"
if [ "$(flags lower "$T/cond.c")" = 32 ] && [ "$(flags upper "$T/cond.c")" = 35 ]; then
    pass "a force read by a condition only: the blocks carry JNT_BLOCK_STATE_FORCES (32)"
else
    fail "the blocks of a condition-only force do not carry JNT_BLOCK_STATE_FORCES"
    grep -A3 '_blocks\[\] = {' "$T/cond.c"
fi
JNT_CACHE=0 "$J" emit examples/beam_on_beam.jnt 2> /dev/null > "$T/bob.c"
if [ "$(flags lower "$T/bob.c")" = 0 ] && [ "$(flags upper "$T/bob.c")" = 3 ]; then
    pass "examples/beam_on_beam.jnt's forces of time only: no flag (the state is not copied)"
else
    fail "examples/beam_on_beam.jnt's blocks changed"; grep -A3 '_blocks\[\] = {' "$T/bob.c"
fi
for m in cond lin; do
    JNT_CACHE=0 "$J" run "$T/$m.jnt" -D t_end=0.005 -o "$T/$m.csv" > /dev/null 2>&1 ||
        fail "$m.jnt did not run"
done
# the condition switches within the run (A passes -20 nm), so the comparison means something
n=$(awk -F, 'NR > 3 && $2 < -2e-8 { n++ } END { print n + 0 }' "$T/lin.csv")
if [ "$n" -gt 10 ]; then pass "A passes -20 nm in $n rows of 5 ms"
else fail "A passes -20 nm in $n rows only: the test does not switch"; fi
if tail -n +4 "$T/cond.csv" | cmp -s - "$(tail -n +4 "$T/lin.csv" > "$T/lin.rows"; echo "$T/lin.rows")"; then
    pass "the condition-only force gives the rows of the one the Jacobian sees, byte for byte"
else
    fail "the condition-only force switched on a stale state"
fi
