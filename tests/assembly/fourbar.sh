#!/bin/sh
# Assembly at the start of every run of a sweep (issue 28 item 1): the
# four-bar of examples/fourbar_guess.jnt, sketched 5 cm off its loop, swept
# over 10 crank lengths, each run assembled to its own pose (the summary's
# th1_0, th3_0 at t = 0) with pinC closed; a crank that cannot close gives a
# failed row naming the joints. The C side is tests/examples/test_fourbar.c.
# Prints PASS/FAIL lines. Run from the repository root with B set.
B=${B:-build}
J=${J:-$B/jnt}
T=$B/tests/assembly
rm -rf "$T"
mkdir -p "$T"
pass() { echo "PASS: assembly: $*"; }
fail() { echo "FAIL: assembly: $*"; }

"$J" sweep examples/fourbar_guess.jnt --grid L1=5cm:14cm:1cm -o "$T/grid.csv" \
    > "$T/out" 2> "$T/err"
rc=$?
ok=$(grep -c ',ok,' "$T/grid.csv" 2>/dev/null)
if [ "$rc" -eq 0 ] && [ "$ok" = 10 ]; then pass "10 crank lengths 5..14 cm: every row ran"
else fail "10 crank lengths: exit $rc, $ok rows ok"; head -3 "$T/err"; fi
# each row its own pose: 10 different rocker angles, pinC closed to 1e-12 m
awk -F, 'NR > 2 && $6 == "ok" { n++; th[$4] = 1; if ($5 + 0 > g) g = $5 + 0 }
         END { d = 0; for (k in th) d++
               printf "%d rows, %d different rocker angles at t = 0, pinC at most %.3g m apart\n", n, d, g
               printf "MEASURE: fourbar.grid.rows %d\nMEASURE: fourbar.grid.angles %d\nMEASURE: fourbar.grid.pinC %.6g\n", n, d, g > "/dev/stderr"
               exit !(n == 10 && d == 10 && g < 1e-12) }' "$T/grid.csv" > "$T/poses" 2> "$T/poses_measures"
if [ $? -eq 0 ]; then pass "$(cat "$T/poses")"
else fail "poses: $(cat "$T/poses")"; fi
cat "$T/poses_measures" # docs/multibody.md's table (MEASURE lines)

# a crank longer than the three other links together: a failed row
"$J" sweep examples/fourbar_guess.jnt --list L1=0.1,0.7 -o "$T/fail.csv" > "$T/out" 2> "$T/err"
rc=$?
if [ "$rc" -eq 1 ] && grep -q '^0,0.1,.*,ok,' "$T/fail.csv" &&
   grep -q "^1,0.7,.*,failed,\"JNT_ERR_MODEL: t = 0 s: the joints cannot be assembled: the constraints of joints 'pinA' (.*'pinD' (.* remain at the closest pose" "$T/fail.csv"
then pass "L1 = 0.7 m cannot close: its row failed naming the joints, the other ran"
else fail "L1 = 0.7 m: exit $rc"; cat "$T/fail.csv" | head -4; fi

# a body guessed far from the loop: assembled, with a warning naming it
sed 's/^init rocker.x      = 0.25 m/init rocker.x      = 0.6 m/' examples/fourbar_guess.jnt > "$T/far.jnt"
"$J" run "$T/far.jnt" -o "$T/far.csv" > "$T/out" 2> "$T/err"
rc=$?
if [ "$rc" -eq 0 ] && grep -q "^jnt: warning: assembling the joints moved body 'rocker' by 0.363 m, more than the size of the largest body (0.22 m)" "$T/err"
then pass "the rocker guessed 0.36 m off: assembled, with a warning naming it and the distance"
else fail "far guess: exit $rc"; head -3 "$T/err"; fi
