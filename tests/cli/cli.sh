#!/bin/sh
# Command-line behaviour: deterministic generated C (golden files) that
# compiles warning-free with gcc and tcc, standalone builds that reproduce
# the JIT's CSV, a diverging run, usage errors. Prints PASS/FAIL lines.
# Run from the repository root with B set to the build directory.
B=${B:-build}
J=$B/jnt
T=$B/tests/cli
mkdir -p "$T"
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }

for ex in examples/frdyn2_bench.jnt examples/lugre_stickslip.jnt; do
    name=$(basename "$ex" .jnt)
    # golden generated C (set JNT_UPDATE_GOLDEN=1 to rewrite)
    "$J" emit "$ex" -o "$T/$name.c" || fail "emit $ex"
    [ -n "$JNT_UPDATE_GOLDEN" ] && cp "$T/$name.c" "tests/golden/$name.c"
    if cmp -s "$T/$name.c" "tests/golden/$name.c"; then pass "generated C of $ex matches tests/golden/$name.c"
    else fail "generated C of $ex differs from tests/golden/$name.c"; diff "tests/golden/$name.c" "$T/$name.c" | head -5; fi
    "$J" emit "$ex" > "$T/$name.again.c"
    cmp -s "$T/$name.c" "$T/$name.again.c" && pass "generated C of $ex is deterministic" || fail "generated C of $ex is not deterministic"
    # warning-free with gcc and with tcc
    if gcc -std=c11 -Wall -Wextra -Werror -O2 -Iruntime/include -c "$T/$name.c" -o "$T/$name.o" 2> "$T/$name.gcc.txt"
    then pass "generated C of $ex compiles with gcc -std=c11 -Wall -Wextra -Werror"
    else fail "generated C of $ex: gcc warnings"; head -5 "$T/$name.gcc.txt"; fi
    if tcc -Wall -Werror -Iruntime/include -c "$T/$name.c" -o "$T/$name.tcc.o" 2> "$T/$name.tcc.txt"
    then pass "generated C of $ex compiles with tcc -Wall -Werror"
    else fail "generated C of $ex: tcc warnings"; head -5 "$T/$name.tcc.txt"; fi
done

# jnt build: the standalone simulator gives the JIT's CSV (relative difference < 1e-9)
"$J" build examples/frdyn2_bench.jnt -o "$T/frdyn2_sim" || fail "jnt build"
for tE in 0.1 1ms; do
    "$J" run examples/frdyn2_bench.jnt -D tE=$tE -o "$T/jit.csv" &&
    "$T/frdyn2_sim" -D tE=$tE -o "$T/gcc.csv" || fail "run with -D tE=$tE"
    if awk -F, 'NR == FNR { a[FNR] = $0; n = FNR; next }
                { if (FNR > n) exit 1; split(a[FNR], x, ",");
                  for (i = 1; i <= NF; i++) if (FNR > 1) {
                      d = x[i] - $i; if (d < 0) d = -d; s = (x[i] < 0 ? -x[i] : x[i]) + 1e-300;
                      if (d > 1e-9 * s && d > 1e-300) bad++ } }
                END { exit (bad > 0 || FNR != n) }' "$T/jit.csv" "$T/gcc.csv"
    then pass "jnt build: ./sim -D tE=$tE gives the JIT's CSV (rel. diff < 1e-9)"
    else fail "jnt build: ./sim -D tE=$tE differs from jnt run"; fi
done

# a standalone build of a model with a reduced substructure (linear block) gives the JIT's CSV
"$J" build examples/beam_mass_friction.jnt -o "$T/bmf_sim" &&
"$J" run examples/beam_mass_friction.jnt -D t_end=0.2 -o "$T/bmf_jit.csv" &&
"$T/bmf_sim" -D t_end=0.2 -o "$T/bmf_gcc.csv" &&
cmp -s "$T/bmf_jit.csv" "$T/bmf_gcc.csv" && pass "jnt build: a substructure model's simulator gives the JIT's CSV" ||
fail "jnt build: a substructure model's simulator differs from jnt run"

# Generated C holds element kernels, the runtime the linear algebra (issue 11): the
# lap joint's C is small (it was 7.6 MB with the basis as literals), its matrices and
# basis rows are the model data beside it, and it compiles warning-free
"$J" emit examples/lap_joint.jnt -o "$T/lap.c" 2> /dev/null || fail "emit lap_joint"
sz=$(wc -c < "$T/lap.c")
dsz=$(wc -c < "$T/lap.c.data" 2> /dev/null || echo 0)
[ "$sz" -lt 200000 ] && pass "lap_joint: $sz bytes of C (< 200 KB)" || fail "lap_joint: $sz bytes of C (>= 200 KB)"
[ "$dsz" -gt 0 ] && [ $((dsz % 8)) -eq 0 ] && pass "lap_joint: $dsz bytes of model data beside the C (lap.c.data)" ||
fail "lap_joint: model data missing ($dsz bytes)"
if gcc -std=c11 -Wall -Wextra -Werror -O2 -Iruntime/include -c "$T/lap.c" -o "$T/lap.o" 2> "$T/lap.gcc.txt" &&
   tcc -Wall -Werror -Iruntime/include -c "$T/lap.c" -o "$T/lap.tcc.o" 2>> "$T/lap.gcc.txt"
then pass "lap_joint's C compiles warning-free with gcc and tcc"
else fail "lap_joint's C: warnings"; head -5 "$T/lap.gcc.txt"; fi

# the same joint on modal(40) + static + jtv(60) (78 coordinates instead of 27): the same
# C but for the basis's states (their names and initial values: under 120 bytes a
# coordinate; the C of the elements is loops, compiler/lower/gen_loop.c), three times the data
sed -e 's|^  reduce .*// REDUCE$|  reduce = modal(modes = 40) + static(at = load) + jtv(count = 60, pairs = {joint_a, joint_b}, comp = uy, dkdg = 2 * eps_N * lam_N * A)|' \
    -e "s|\"lap_joint/|\"$PWD/examples/lap_joint/|g" examples/lap_joint.jnt > "$T/lap60.jnt"
JNT_ALLOW_PATH="$PWD/examples" "$J" emit "$T/lap60.jnt" -o "$T/lap60.c" 2> /dev/null || fail "emit lap_joint on 78 coordinates"
sz60=$(wc -c < "$T/lap60.c")
if awk -v a="$sz" -v b="$sz60" 'BEGIN { exit !(b - a < 120 * (78 - 27)) }'
then pass "lap_joint on 78 coordinates: $sz60 bytes of C (27 coordinates: $sz)"
else fail "lap_joint on 78 coordinates: $sz60 bytes of C (27 coordinates: $sz)"; fi

# The C of N contact pairs on a reduced chain grows neither with N (one loop over the
# pairs, compiler/lower/gen_loop.c) nor with the basis: 60 modes instead of 10 add the same
# bytes (the 100 more states' names) to 500 pairs as to 1000
pairs_model() { # N MODES
    printf 'model pairs\nimport contact\nconst n = %d\n' "$1"
    printf 'substructure s : chain(n = 1001, k = 1e5 N/m, mass = 1 kg) { fix = first\n'
    printf '  reduce = modal(modes = %d) }\n' "$2"
    printf 'contact c[i in 1..n] between s.all[i + 1].ux and ground {\n'
    printf '  law = penalty_jointexp(eps_N = 617 N/mm^3, lambda_N = 200 /mm)  area = 1 mm^2 }\n'
    printf 'simulate { integrator = bdf  until = 1 ms }\n'
}
for nm in 500_10 500_60 1000_10 1000_60; do
    pairs_model "${nm%%_*}" "${nm#*_}" > "$T/pairs_$nm.jnt"
    "$J" emit "$T/pairs_$nm.jnt" -o "$T/pairs_$nm.c" 2> "$T/pairs_$nm.err" || fail "emit pairs $nm"
    eval "s$nm=\$(wc -c < \"\$T/pairs_\$nm.c\")"
done
# shellcheck disable=SC2154
if awk -v a="$s500_10" -v b="$s500_60" -v c="$s1000_10" -v d="$s1000_60" \
       'BEGIN { x = b - a; y = d - c; e = x - y; exit !((e < 0 ? -e : e) < 0.002 * c && y < 120 * 2 * 50) }'
then pass "pairs: 60 modes instead of 10 add $((s500_60 - s500_10)) bytes of C to 500 pairs, $((s1000_60 - s1000_10)) to 1000 ($s1000_10 bytes)"
else fail "pairs: the C depends on the basis size (500 pairs: $s500_10 / $s500_60 bytes, 1000: $s1000_10 / $s1000_60)"; fi
if awk -v a="$s500_60" -v b="$s1000_60" 'BEGIN { r = b / a; exit !(r > 0.97 && r < 1.03) }'
then pass "pairs: the C does not grow with the pairs (500: $s500_60 bytes, 1000: $s1000_60)"
else fail "pairs: the C grows with the pairs (500: $s500_60 bytes, 1000: $s1000_60)"; fi

# a diverging run: exit 1, time and state named, the CSV written so far valid
( cd "$T" && "$OLDPWD/$J" run "$OLDPWD/tests/cli/diverge.jnt" > out.txt 2> err.txt ); rc=$?
msg=$(cat "$T/err.txt")
if [ $rc -eq 1 ] && printf '%s' "$msg" | grep -q "t = .*'b.x" ; then pass "diverging run: exit 1 and '$msg'"
else fail "diverging run: exit $rc, message '$msg'"; fi
if [ -f "$T/diverge.csv" ] && [ ! -f "$T/diverge.csv.part" ] &&
   awk -F, 'NR == 1 { n = NF } /^# units: |^# jnt [0-9]|^# jnt: failed at t = / { next } NF != n || $0 !~ /^[-0-9.e+,]*$|^t,x$/ { bad = 1 } END { exit bad || NR < 10 }' "$T/diverge.csv"
then pass "diverging run: $(wc -l < "$T/diverge.csv") complete CSV lines kept"
else fail "diverging run: the CSV is missing or has a broken line"; fi
# the same run to a MAT-file: exit 1, a valid file of the same rows; t and x
# (names of 1 to 4 characters: 56 bytes of element header each) hold
# exactly the doubles the CSV's shortest round-trip text reads back to
( cd "$T" && "$OLDPWD/$J" run "$OLDPWD/tests/cli/diverge.jnt" -o diverge.mat > out.txt 2> err.txt ); rc=$?
if [ $rc -eq 1 ] && [ ! -f "$T/diverge.mat.part" ] && ! ls "$T" | grep -q 'diverge\.mat\.rows' &&
   /usr/bin/python3 -c "
import sys, numpy as np
c = np.loadtxt('$T/diverge.csv', delimiter=',', skiprows=1, ndmin=2); n = len(c)
b = open('$T/diverge.mat', 'rb').read()
col = lambda j: np.frombuffer(b, '=f8', n, 128 + 56 * (j + 1) + 8 * n * j)
sys.exit(not (len(b) == 128 + 2 * (56 + 8 * n) and b[:19] == b'MATLAB 5.0 MAT-file' and
              np.array_equal(col(0), c[:, 0]) and np.array_equal(col(1), c[:, 1])))"
then pass "diverging run to .mat: exit 1, a MAT-file of the CSV's $(($(wc -l < "$T/diverge.csv") - 1)) rows, the same doubles"
else fail "diverging run to .mat: exit $rc, or the file is not the CSV's rows"; fi

# an Iwan chain pushed past macroslip (seed 004: F0 above F_mac = 1 N): exit 1, the chain
# and the reason named, the CSV so far valid
( cd "$T" && "$OLDPWD/$J" run "$OLDPWD/examples/iwan_interface/rom.jnt" -D F0=1.2N -o macro.csv \
    > out.txt 2> err.txt ); rc=$?
msg=$(cat "$T/err.txt")
if [ $rc -eq 1 ] && printf '%s' "$msg" | grep -q "t = .* s: chain 'zr': macroslip: the net load" &&
   [ ! -f "$T/macro.csv.part" ] &&
   awk -F, 'NR == 1 { n = NF } /^# units: |^# jnt [0-9]|^# jnt: failed at t = / { next } NF != n { bad = 1 } END { exit bad || NR < 10 }' "$T/macro.csv"
then pass "iwan_chain past macroslip: exit 1, '$msg', the CSV kept"
else fail "iwan_chain past macroslip: exit $rc, message '$msg'"; fi

# usage errors exit 2, model errors 1, help 0
"$J" > /dev/null 2>&1; [ $? -eq 2 ] && pass "jnt without arguments exits 2" || fail "jnt without arguments"
"$J" frobnicate x.jnt > /dev/null 2>&1; [ $? -eq 2 ] && pass "unknown command exits 2" || fail "unknown command"
"$J" run examples/frdyn2_bench.jnt --bogus > /dev/null 2>&1; [ $? -eq 2 ] && pass "unknown run option exits 2" || fail "unknown run option"
"$J" run examples/frdyn2_bench.jnt -D nope=1 > /dev/null 2>&1; [ $? -eq 2 ] && pass "unknown -D parameter exits 2" || fail "unknown -D parameter"
"$J" run examples/frdyn2_bench.jnt -D tE=2kg > /dev/null 2>&1; [ $? -eq 2 ] && pass "-D with a wrong unit exits 2" || fail "-D with a wrong unit"
"$J" check does/not/exist.jnt > /dev/null 2>&1; [ $? -eq 1 ] && pass "missing model file exits 1" || fail "missing model file"
# --steps: the accepted steps as a CSV, one row a step; without a file name a usage error
msg=$("$J" run examples/frdyn2_bench.jnt -o "$T/steps_run.csv" --steps 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && printf '%s' "$msg" | grep -q "option '--steps' needs a file name" &&
    pass "--steps without a file exits 2 and says so" || fail "--steps without a file: exit $rc, '$msg'"
"$J" run examples/frdyn2_bench.jnt -o "$T/steps_run.csv" --steps "$T/steps.csv" --stats 2> "$T/steps_stats.txt"
ns=$(sed -n 's/^steps \([0-9]*\),.*/\1/p' "$T/steps_stats.txt")
if [ "$(head -n 1 "$T/steps.csv")" = "t,h" ] && [ -n "$ns" ] &&
   [ "$(awk 'END { print NR - 1 }' "$T/steps.csv")" = "$ns" ]; then
    pass "--steps writes t,h and one row for each of the $ns steps --stats counts"
else fail "--steps: header '$(head -n 1 "$T/steps.csv")', $(wc -l < "$T/steps.csv") lines, $ns steps"; fi
rm -f "$T/steps_nofile.csv"
msg=$("$J" run examples/frdyn2_bench.jnt -o "$T/steps_nofile.csv" --steps /does/not/exist/steps.csv 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s' "$msg" | grep -q "cannot write '/does/not/exist/steps.csv'" &&
    [ ! -e "$T/steps_nofile.csv" ] && pass "--steps to a path that cannot be written exits 1, says which, starts no CSV" ||
    fail "--steps to a bad path: exit $rc, '$msg'"
"$J" --help > /dev/null 2>&1; [ $? -eq 0 ] && pass "jnt --help exits 0" || fail "jnt --help"
for c in run check emit build; do
    "$J" $c --help > /dev/null 2>&1; [ $? -eq 0 ] && pass "jnt $c --help exits 0" || fail "jnt $c --help"
done
"$J" check examples/frdyn2_bench.jnt > "$T/check.txt" 2>&1
[ $? -eq 0 ] && [ ! -s "$T/check.txt" ] && pass "jnt check prints nothing on success" || fail "jnt check on a good model"
