#!/bin/sh
# jnt sweep (issue 15): the table against closed forms, the summary block
# against the kept outputs, -j 1 = -j 2 = mpirun -n 2 byte for byte but for
# the CPU column, failed runs as rows, resume after a cut and after SIGINT,
# continued chains, samples, usage errors. Prints PASS/FAIL lines.
# Run from the repository root with B set to the build directory.
B=${B:-build}
J=$B/jnt
T=$B/tests/sweep
rm -rf "$T"
mkdir -p "$T"
pass() { echo "PASS: sweep: $*"; }
fail() { echo "FAIL: sweep: $*"; }
# nocpu FILE: the table without its last column (cpu_s)
nocpu() { sed 's/,[^,]*$//' "$1"; }

# A driven damped oscillator: X = F0 / sqrt((k - m w^2)^2 + (c w)^2) once the
# transient (rate c/2m = 1/s) has died out; over the last 5 periods the
# RMS is X/sqrt(2), the largest value X, the mean power c X^2 w^2 / 2.
cat > "$T/osc.jnt" <<'EOF'
model osc
param k = 100 N/m
param c = 2 N*s/m
param F0 = 1 N
param omega = 8 rad/s
param T_end = 25 s
param t_win = T_end - 10 * pi / omega
ground g
body mass : point(mass = 1 kg) { dof x }
spring s between mass.x and g { stiffness = k }
damper d between mass.x and g { damping = c }
force drive on mass.x = F0 * sin(omega * t)
simulate {
  integrator = dopri5(rtol = 1e-9, atol = 1e-12)
  until = T_end
}
output "osc.csv" every 1 ms { t, x = mass.x, v = mass.x.v, P = c * mass.x.v^2 }
summary {
  x_end = final(x)
  x_max = max(x, from = t_win)
  x_min = min(x, from = t_win)
  x_rms = rms(x, from = t_win)
  P_mean = mean(P, from = t_win)
  E_win = integral(P, from = t_win)
  t_pos = last(x, to = 1 s)
}
EOF
"$J" sweep "$T/osc.jnt" --grid omega=2:14:3 --list c=2,4 -o "$T/osc.csv" -j 2 2> "$T/osc.err"
rc=$?
if [ $rc -eq 0 ] && awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } /^#/ { next }
    { w = $col["omega"]; c = $col["c"]; X = 1 / sqrt((100 - w * w)^2 + (c * w)^2); n++
      e1 = $col["x_rms"] / (X / sqrt(2)) - 1; e2 = $col["x_max"] / X - 1; e3 = -$col["x_min"] / X - 1
      e4 = $col["P_mean"] / (c * X * X * w * w / 2) - 1
      e5 = $col["E_win"] / (10 * 3.141592653589793 / w) / $col["P_mean"] - 1
      for (k = 1; k <= 5; k++) { e = (k == 1 ? e1 : k == 2 ? e2 : k == 3 ? e3 : k == 4 ? e4 : e5)
          if (e < 0) e = -e; if (e > worst) worst = e }
      if ($col["status"] != "ok" || $col["t_pos"] != 1) bad++ }
    END { printf "%d runs, worst relative error %.2g\n", n, worst > "/dev/stderr";
          exit !(n == 10 && bad == 0 && worst < 2e-3) }' "$T/osc.csv" 2> "$T/osc.check"
then pass "10 runs of a grid x list: rms, max, min, mean power, integral against the closed form ($(cat "$T/osc.check"))"
else fail "grid x list (exit $rc): $(cat "$T/osc.err" "$T/osc.check")"; fi
head -1 "$T/osc.csv" | grep -qx 'run,omega,c,x_end,x_max,x_min,x_rms,P_mean,E_win,t_pos,status,error,cpu_s' &&
pass "table header: run, parameters, results, status, error, cpu_s" || fail "table header: $(head -1 "$T/osc.csv")"

# the summaries computed again from the kept outputs (awk, trapezoidal rule)
"$J" sweep "$T/osc.jnt" --grid omega=2:14:3 --list c=2,4 -o "$T/osck.csv" -j 2 --keep-outputs "$T/out" 2> /dev/null
n=$(ls "$T/out" | grep -c '^run_.*\.csv$')
if [ "$n" -eq 10 ] && [ "$(nocpu "$T/osc.csv")" = "$(nocpu "$T/osck.csv")" ]
then pass "--keep-outputs: 10 CSVs, the same table as from the scratch .npy files"
else fail "--keep-outputs: $n files, or another table"; fi
r3=$(awk -F, 'NR == 6' "$T/osck.csv")
if awk -F, -v row="$r3" 'BEGIN { split(row, R, ","); tw = 25 - 10 * 3.141592653589793 / R[2] }
    NR > 1 && !/^#/ { t = $1; x = $2; P = $4
      if (t >= tw - 1e-9 * tw) { if (n++ == 0) { mx = x; t0 = t } else { I += (t - tp) * (x * x + xp * xp) / 2; E += (t - tp) * (P + Pp) / 2 }
        if (x > mx) mx = x }
      tp = t; xp = x; Pp = P; last = x }
    END { rms = sqrt(I / (tp - t0)); d1 = rms / R[7] - 1; d2 = mx / R[5] - 1; d3 = E / R[9] - 1; d4 = last / R[4] - 1
      if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2; if (d3 < 0) d3 = -d3; if (d4 < 0) d4 = -d4
      printf "%.1g %.1g %.1g %.1g", d1, d2, d3, d4 > "/dev/stderr"
      exit !(d1 < 1e-12 && d2 == 0 && d3 < 1e-12 && d4 == 0) }' "$T/out/run_000003.csv" 2> "$T/awk.txt"
then pass "summaries of run 3 = awk's from its kept CSV (rms, max, integral, final: $(cat "$T/awk.txt"))"
else fail "summaries of run 3 differ from its kept CSV ($(cat "$T/awk.txt"))"; fi

# determinism: 64 runs, -j 1 and -j 2 (and mpirun -n 2 below) give one table
"$J" sweep "$T/osc.jnt" -D T_end=5 --grid omega=2:16:2 --grid c=0.5:4:0.5 -o "$T/j1.csv" -j 1 2> /dev/null &&
"$J" sweep "$T/osc.jnt" -D T_end=5 --grid omega=2:16:2 --grid c=0.5:4:0.5 -o "$T/j2.csv" -j 2 2> /dev/null
echo "MEASURE: sweep.determinism.runs $(grep -c '^[0-9]' "$T/j1.csv")"
if [ "$(grep -c '^[0-9]' "$T/j1.csv")" -eq 64 ] && [ "$(nocpu "$T/j1.csv")" = "$(nocpu "$T/j2.csv")" ]
then pass "64 runs: -j 1 and -j 2 give the same table byte for byte (but cpu_s)"
else fail "64 runs: -j 1 and -j 2 differ"; fi
if [ -x "$B/jnt-mpi" ] && command -v mpirun > /dev/null 2>&1; then
    MPIFLAGS="--oversubscribe"
    [ "$(id -u)" = 0 ] && MPIFLAGS="$MPIFLAGS --allow-run-as-root"
    # shellcheck disable=SC2086
    mpirun -n 2 $MPIFLAGS "$B/jnt-mpi" sweep "$T/osc.jnt" -D T_end=5 --grid omega=2:16:2 \
        --grid c=0.5:4:0.5 -o "$T/mpi.csv" -j 1 > "$T/mpi.out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && [ "$(nocpu "$T/j1.csv")" = "$(nocpu "$T/mpi.csv")" ]
    then pass "64 runs: mpirun -n 2 jnt-mpi gives the table of -j 1"
    else fail "mpirun -n 2 (exit $rc): $(tail -3 "$T/mpi.out")"; fi
else
    # make test builds jnt-mpi; make check-asan does not (Open MPI's own
    # allocations would be reported as leaks)
    echo "SKIP: sweep: no $B/jnt-mpi or mpirun: the MPI sweep is not tested (make mpi)"
fi

# failed runs: a row with the error, exit 1 after the others; 0 with --allow-failures
cat > "$T/blow.jnt" <<'EOF'
model blow
param h = 1 ms
ground g
body mass : point(mass = 1 kg) { dof x }
spring s between mass.x and g { stiffness = 10000 N/m }
force f on mass.x = 1 N
simulate { integrator = rk4(h = h) until = 20 s }
output "blow.csv" every 10 ms { t, x = mass.x }
summary { x_max = max(x) }
EOF
"$J" sweep "$T/blow.jnt" --list h=1ms,50ms,10ms -o "$T/blow.csv" -j 2 2> "$T/blow.err"
rc=$?
"$J" sweep "$T/blow.jnt" --list h=1ms,50ms,10ms -o "$T/blow2.csv" --allow-failures 2> /dev/null
rc2=$?
if [ $rc -eq 1 ] && [ $rc2 -eq 0 ] && grep -q '^1,0.05,,failed,"JNT_ERR_NONFINITE: t = .*not finite' "$T/blow.csv" &&
   [ "$(grep -c ',ok,,' "$T/blow.csv")" -eq 2 ] && grep -q '1 of 3 runs failed' "$T/blow.err"
then pass "a diverging run is a row with its error; exit 1 (0 with --allow-failures)"
else fail "failed runs (exit $rc, $rc2): $(cat "$T/blow.csv" "$T/blow.err")"; fi

# resume: a table cut after 20 rows and in the middle of a row gives the whole table
head -c "$(head -22 "$T/j1.csv" | wc -c)" "$T/j1.csv" > "$T/cut.csv"
head -23 "$T/j1.csv" | tail -1 | head -c 15 >> "$T/cut.csv"
"$J" sweep "$T/osc.jnt" -D T_end=5 --grid omega=2:16:2 --grid c=0.5:4:0.5 -o "$T/cut.csv" -j 2 --resume 2> "$T/cut.err"
rc=$?
if [ $rc -eq 0 ] && [ "$(nocpu "$T/cut.csv")" = "$(nocpu "$T/j1.csv")" ] &&
   [ "$(head -22 "$T/cut.csv")" = "$(head -22 "$T/j1.csv")" ]
then pass "--resume after a cut (20 rows and part of one): the whole table, the old rows kept"
else fail "--resume after a cut (exit $rc): $(cat "$T/cut.err")"; fi
"$J" sweep "$T/osc.jnt" -D T_end=5 --grid omega=2:16:2 --grid c=1:4:1 -o "$T/cut.csv" --resume 2> "$T/other.err"
rc=$?
[ $rc -eq 1 ] && grep -q 'not a run of this sweep' "$T/other.err" &&
pass "--resume refuses a table of another sweep" || fail "--resume of another sweep (exit $rc): $(cat "$T/other.err")"

# continuation: each run of a chain starts at the previous one's final state, so
# three 1 s runs of a free decay end where one 3 s run does (fixed steps, autonomous)
cat > "$T/decay.jnt" <<'EOF'
model decay
param c = 0.4 N*s/m
param T = 1 s
param leg = 0
ground g
body mass : point(mass = 1 kg) { dof x }
spring s between mass.x and g { stiffness = 100 N/m }
damper d between mass.x and g { damping = c }
init mass.x = 0.01 m
param h = 1 ms
simulate { integrator = rk4(h = h) until = T }
EOF
"$J" sweep "$T/decay.jnt" --list c=0.4,0.8 --list leg=1,2,3 --continue leg -o "$T/cont.csv" -j 2 2> "$T/cont.err"
rc=$?
ok=1
for cc in 0.4 0.8; do
    one=$("$J" run "$T/decay.jnt" -D T=3 -D c=$cc -o - | tail -1)
    leg3=$(awk -F, -v c=$cc '$2 == c && $3 == 3 { print $5 "," $6 }' "$T/cont.csv")
    awk -v a="$one" -v b="$leg3" 'BEGIN { split(a, A, ","); split(b, B, ",")
        for (i = 1; i <= 2; i++) { d = A[i + 1] - B[i]; if (d < 0) d = -d; s = A[i + 1] < 0 ? -A[i + 1] : A[i + 1]
            if (!(d <= 1e-12 * s)) exit 1 } }' || ok=0
done
legs1=$("$J" sweep "$T/decay.jnt" --list c=0.4,0.8 --list leg=1,2,3 -o "$T/nocont.csv" 2> /dev/null; awk -F, '$3 == 3 { print $5 }' "$T/nocont.csv" | head -1)
first=$(awk -F, '$3 == 1 { print $5 }' "$T/cont.csv" | head -1)
if [ $rc -eq 0 ] && [ $ok -eq 1 ] && [ "$legs1" = "$first" ]
then pass "--continue: the third 1 s leg of each chain ends where one 3 s run does (1e-12)"
else fail "--continue (exit $rc): $(cat "$T/cont.err")"; cat "$T/cont.csv"; fi
# a continued sweep resumed after a cut reruns its chains but writes only the missing rows
head -4 "$T/cont.csv" > "$T/cont2.csv"
"$J" sweep "$T/decay.jnt" --list c=0.4,0.8 --list leg=1,2,3 --continue leg -o "$T/cont2.csv" --resume 2> /dev/null
[ "$(nocpu "$T/cont2.csv")" = "$(nocpu "$T/cont.csv")" ] &&
pass "--continue --resume: the same table as uninterrupted" || fail "--continue --resume differs"

# interrupted by SIGINT (runs of about 40 ms), then resumed: the uninterrupted table
SLOW="$T/decay.jnt -D h=2us --grid c=0.1:2.4:0.1"
# shellcheck disable=SC2086
"$J" sweep $SLOW -o "$T/int.csv" -j 1 2> "$T/int.err" &
pid=$!
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
rows=$(grep -c '^[0-9]' "$T/int.csv")
# shellcheck disable=SC2086
"$J" sweep $SLOW -o "$T/int.csv" -j 2 --resume 2> /dev/null &&
"$J" sweep $SLOW -o "$T/full.csv" -j 2 2> /dev/null
if [ $rc -eq 130 ] && [ "$rows" -gt 0 ] && [ "$rows" -lt 24 ] && grep -q 'continue with --resume' "$T/int.err" &&
   [ "$(nocpu "$T/int.csv")" = "$(nocpu "$T/full.csv")" ]
then pass "SIGINT after $rows of 24 runs: exit 130, a valid table; --resume gives the uninterrupted table"
else fail "SIGINT (exit $rc, $rows rows): $(cat "$T/int.err")"; fi

# a rank killed mid-sweep (a node lost): Open MPI ends the job, the table keeps whole rows,
# and --resume (here by threads) finishes it as the uninterrupted table
if [ -x "$B/jnt-mpi" ] && command -v mpirun > /dev/null 2>&1; then
    MPIFLAGS="--oversubscribe"
    [ "$(id -u)" = 0 ] && MPIFLAGS="$MPIFLAGS --allow-run-as-root"
    LOST="$T/decay.jnt -D h=2us --grid c=0.1:4.8:0.1"
    rm -f "$T/lost.csv"
    # shellcheck disable=SC2086
    mpirun -n 2 $MPIFLAGS "$B/jnt-mpi" sweep $LOST -o "$T/lost.csv" -j 1 > "$T/lost.out" 2>&1 &
    mpid=$!
    victim=""
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        sleep 0.1
        for p in $(pgrep -f "jnt-mpi sweep"); do # rank 1's process, by Open MPI's environment
            tr '\0' '\n' < "/proc/$p/environ" 2> /dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' &&
                victim=$p
        done
        [ -n "$victim" ] && [ -f "$T/lost.csv" ] && [ "$(wc -l < "$T/lost.csv")" -gt 2 ] && break
    done
    [ -n "$victim" ] && kill -KILL "$victim"
    wait $mpid
    mrc=$?
    lrows=$(grep -c '^[0-9]' "$T/lost.csv")
    # shellcheck disable=SC2086
    "$J" sweep $LOST -o "$T/lost.csv" -j 2 --resume 2> /dev/null &&
    "$J" sweep $LOST -o "$T/lostfull.csv" -j 2 2> /dev/null
    if [ -n "$victim" ] && [ $mrc -ne 0 ] && [ "$lrows" -lt 48 ] &&
       [ "$(nocpu "$T/lost.csv")" = "$(nocpu "$T/lostfull.csv")" ]
    then pass "rank 1 killed after $lrows of 48 rows: mpirun fails (exit $mrc), the rows stay whole; --resume gives the uninterrupted table"
    else fail "killed rank (pid '$victim', exit $mrc, $lrows rows): $(tail -3 "$T/lost.out")"; fi
fi

# samples: reproducible for a seed, inside the bounds, mean and spread as drawn
"$J" sweep "$T/decay.jnt" --samples 2000 --dist c=uniform:0.1:0.5 --dist "T=normal:2ms:0.1ms" \
    --seed 7 -o "$T/s1.csv" 2> /dev/null &&
"$J" sweep "$T/decay.jnt" --samples 2000 --dist c=uniform:0.1:0.5 --dist "T=normal:2ms:0.1ms" \
    --seed 7 -o "$T/s2.csv" -j 1 2> /dev/null &&
"$J" sweep "$T/decay.jnt" --samples 5 --dist c=uniform:0.1:0.5 --seed 8 -o "$T/s3.csv" 2> /dev/null
if [ "$(nocpu "$T/s1.csv")" = "$(nocpu "$T/s2.csv")" ] && [ "$(sed -n 3p "$T/s1.csv" | cut -d, -f2)" != "$(sed -n 3p "$T/s3.csv" | cut -d, -f2)" ] &&
   awk -F, 'NR > 1 && !/^#/ { n++; c = $2; T = $3; if (c < 0.1 || c > 0.5) bad++; sc += c; sT += T; qT += T * T }
       END { mc = sc / n; mT = sT / n; sd = sqrt(qT / n - mT * mT)
             printf "mean c %.4f, T %.5f ms, sd %.5f ms\n", mc, mT * 1e3, sd * 1e3 > "/dev/stderr"
             exit !(n == 2000 && !bad && mc > 0.29 && mc < 0.31 && mT > 1.995e-3 && mT < 2.005e-3 && sd > 0.095e-3 && sd < 0.105e-3) }' "$T/s1.csv" 2> "$T/samp.txt"
then pass "--samples 2000: the same for a seed and any -j, uniform and normal as asked ($(cat "$T/samp.txt"))"
else fail "--samples ($(cat "$T/samp.txt"))"; fi

# usage errors: exit 2 with a message
chk_usage() { # EXPECTED-TEXT ARGS...
    want=$1; shift
    "$J" sweep "$@" > /dev/null 2> "$T/usage.err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$want" "$T/usage.err"; then pass "usage: $want"
    else fail "usage '$*' (exit $rc): $(cat "$T/usage.err")"; fi
}
chk_usage "unknown parameter 'omegaa'" "$T/osc.jnt" --grid omegaa=1:2:1 -o "$T/u.csv"
chk_usage "parameter 'omega' is in 1/s, but '1kg' is in kg" "$T/osc.jnt" --list omega=1kg -o "$T/u.csv"
chk_usage "three values" "$T/osc.jnt" --grid omega=1:2 -o "$T/u.csv"
chk_usage "the step must be non-zero" "$T/osc.jnt" --grid omega=1:2:0 -o "$T/u.csv"
chk_usage "nothing to sweep" "$T/osc.jnt" -o "$T/u.csv"
chk_usage "not a --grid or --list parameter" "$T/osc.jnt" --list c=1,2 --continue omega
chk_usage "swept twice" "$T/osc.jnt" --list c=1,2 --grid c=1:2:1
chk_usage "--dist needs --samples" "$T/osc.jnt" --dist c=uniform:1:2
chk_usage "unknown distribution 'gauss'" "$T/osc.jnt" --samples 3 --dist c=gauss:1:2
chk_usage "'sweep' needs a model file" --grid c=1:2:1
"$J" sweep "$T/nosuch.jnt" --list c=1,2 -o "$T/u.csv" 2> "$T/u.err"
[ $? -eq 1 ] && pass "a missing model file: exit 1" || fail "a missing model file: $(cat "$T/u.err")"
