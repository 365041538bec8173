#!/bin/sh
# bench/run.sh: the side-by-side benchmarks of `make bench`.
#
#   B=build sh bench/run.sh          (from the repository root, after `make`)
#
# Measures, in one run on this machine:
#   1. compile latency of each example: `jnt check`, model file to runnable
#      JIT code in-process (jnt_compile_file), model file to first result,
#      `jnt run` to t_end = 1e-9 s as a process, and `jnt build` (emit + gcc -O2);
#   2. run time of the four frdyn2 step cases and of lugre_stickslip: JIT vs
#      the gcc -O2 build, in-process (bench/bench_jnt.c, same code for both)
#      and as processes (`jnt run`, `./sim`, with --stats CPU time), the
#      variants taking turns round by round;
#   3. the same cases against SciPy solve_ivp (Radau, BDF) and Octave ode15s
#      at the same tolerances and output grid (bench/peer_*.py, bench/peer_*.m;
#      their timers cover the solver call only, not interpreter start-up);
#   4. Craig-Bampton reduction of 5k, 20k and 50k-DOF imported plates;
#   5. seed 004's interface, full vs reduced, n = 10 to 100;
#   6. seed 003's beam on beam, each coupling against FiLm;
#   7. seed 000's lap joint, unreduced vs joint trial vectors;
#   8. JIT vs `jnt build` on four models: generation time and memory, C and
#      model-data size, gcc time, and the run phase of each (--stats CPU);
#   9. the implicit integrators on multimass chains of 100 to 6,400 masses:
#      cost per step, log-log slope, CPU against wall (bench/scaling.sh);
#  10. what output costs: FrDyn2 with 10,001 rows, no file, .npy, .mat, CSV
#      (bench/output.sh).
#  11. Andrews' squeezer: steps and CPU time of generalized-alpha and HHT (fixed
#      step and adaptive) at the same accuracy, beside SciPy's Radau on the
#      test set's index-1 formulation (bench/andrews.sh, bench/andrews_radau.py).
#  12. seed 000's car pendulum: CPU of the flexible sheet's bases, 20 more
#      normal modes, the example's JTVs, the largest basis (bench/car_pendulum.sh).
#  13. spatial rotors: a rigid run-up against MuJoCo 2.2.2 (cost per step), the
#      clearance rotor with and without step control (bench/rotor.sh).
#  14. sweeps: seed 001 E5's energy map as a shell loop of `jnt run`, `jnt sweep`
#      on 1 and 2 threads and on 2 MPI ranks (bench/sweep.sh).
#  15. seed 001 E1's spatial mechanism: case 1 and case 2, steps and CPU with
#      and without step control (bench/mechanism.sh).
#  16. Python threads: section 14's 30 runs from one jnt.compile(), serial
#      against a ThreadPoolExecutor of 2 threads (bench/python_threads.sh).
#  17. compile latency of libjnt.so against libjnt.a (the jnt executable's
#      library), both JIT in memory with libtcc (bench/jit_so.sh).
#  18. the compile cache: a miss against a hit on car_pendulum and lap_joint,
#      jnt_compile_file and jnt emit in new processes (bench/cache.sh).
#  19. peers: FrDyn2 against C + CVODE, Andrews' squeezer against IDA in C at
#      matched error, the planar N-link pendulum against MuJoCo at comparable
#      energy error, the chain scaling slope (bench/peers.sh; the peers are
#      built by `make peers`).
#  20. start-up: a small model's whole process (FrDyn2, jnt run with the compile
#      cache warm and with JNT_CACHE=0) against the C + CVODE program of section
#      19, CPU time, and what lazy loading of the libraries saves (bench/startup.sh).
#  21. VTK output: the car pendulum with the CSV alone and with --vtk, the same
#      rows, run CPU and process wall time as ratios (bench/vtk.sh).
# BENCH_SECTIONS (default: all) picks sections by number, e.g. BENCH_SECTIONS="4 7";
# sections 1 to 3 share their measurements and run together.
# Every time is the median (BENCH_STAT=med, the default) or the minimum
# (BENCH_STAT=min) of N repetitions (BENCH_N, default 7), wall clock.
# The tables go to standard output and to $B/bench/results.md; raw lines of
# every tool to $B/bench/raw.txt, per-case files (CSV, timings, --stats) to
# $B/bench/runs/.
#
# Environment: B (build directory), BENCH_N (repetitions), LDLIBS (libraries
# of libjnt.a; default: the Makefile's list). OpenBLAS and OpenMP are limited
# to one thread for every tool, so that no tool competes with itself on the
# two cores.
set -u
B=${B:-build}
# whole compiles everywhere and nothing in ~/.cache: section 18 turns the
# compile cache on in a scratch folder of its own (docs/cli.md, "Compile cache")
export JNT_CACHE=0
# benchmark models written under $B name the examples' data files by absolute
# path: allow that directory (docs/cli.md, "Model files stay in their place")
export JNT_ALLOW_PATH="$PWD/examples"
N=${BENCH_N:-7}
STAT=${BENCH_STAT:-med}
case $STAT in
    med) STAT_NAME=median ;;
    min) STAT_NAME=minimum ;;
    *) printf 'bench: error: BENCH_STAT must be med or min (got %s)\n' "$STAT" >&2; exit 2 ;;
esac
OUT=$B/bench
PY=/usr/bin/python3
OCT="octave-cli --no-gui -q --no-history"
LDLIBS=${LDLIBS:--ltcc -lklu -lcholmod -larpack -lsundials_cvode -lsundials_ida -lsundials_nvecserial \
-lsundials_sunmatrixdense -llapacke -lopenblas -lm -ldl -lpthread}
OPENBLAS_NUM_THREADS=1
OMP_NUM_THREADS=1
export OPENBLAS_NUM_THREADS OMP_NUM_THREADS

FRDYN2=examples/frdyn2_bench.jnt
LUGRE=examples/lugre_stickslip.jnt
TES="0.1 0.01 0.001 0.0001"

mkdir -p "$OUT/runs"
RAW=$OUT/raw.txt
RES=$OUT/results.md
: > "$RAW"
: > "$OUT/stderr.txt"

# ---- helpers ----------------------------------------------------------------
# kv KEY LINE: the value of KEY=value in LINE (empty when missing)
kv() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1; }
# ms SECONDS: milliseconds with 3 significant digits, or n/a
ms() { case "$1" in ''|n/a) printf 'n/a' ;; *) awk -v s="$1" 'BEGIN { printf "%.3g", s * 1e3 }' ;; esac; }
# ratio A B: A/B with 3 significant digits, or n/a
ratio() {
    case "$1$2" in *n/a*) printf 'n/a'; return ;; esac
    if [ -z "$1" ] || [ -z "$2" ]; then printf 'n/a'; return; fi
    awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3g", a / b; else printf "n/a" }'
}
# the median (or minimum, BENCH_STAT=min) of the numbers on standard input
agg() { if [ "$STAT" = min ]; then sort -g | awk 'NR == 1 { v = $1 } END { print NR ? v : "n/a" }'; else median; fi; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a";
    else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# reldiff REF V...: max |v - ref| / |ref| over the values that are numbers
reldiff() {
    ref=$1; shift
    printf '%s\n' "$@" | awk -v r="$ref" '
        r ~ /^[-+0-9.eE]+$/ && $1 ~ /^[-+0-9.eE]+$/ && r + 0 != 0 {
            d = ($1 - r) / r; if (d < 0) d = -d; if (d > m) m = d; n++ }
        END { if (n) printf "%.1e", m; else printf "n/a" }'
}
# want N: is section N selected (BENCH_SECTIONS)?
want() { case " ${BENCH_SECTIONS:-1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21} " in *" $1 "*) return 0 ;; esac; return 1; }
log() { printf '%s\n' "$*" >> "$RAW"; }
say() { printf '%s\n' "$*" >&2; }

# ---- prerequisites ------------------------------------------------------------
for f in "$B/jnt" "$B/libjnt.a"; do
    if [ ! -f "$f" ]; then
        say "bench: error: $f is missing (run 'make' first)"
        exit 1
    fi
done
have_scipy=1 why_scipy=""
if ! "$PY" -c 'import scipy.integrate' 2>/dev/null; then
    have_scipy=0 why_scipy="$PY has no scipy (install python3-scipy)"
fi
have_octave=1 why_octave=""
if ! command -v octave-cli >/dev/null 2>&1; then
    have_octave=0 why_octave="octave-cli not found (install octave)"
fi

# ---- bench tools ------------------------------------------------------------
say "bench: building the timing tools in $OUT"
CCB="gcc -std=c11 -O2 -Wall -Wextra -Iruntime/include"
$CCB -o "$OUT/timeit" bench/timeit.c || exit 1
# shellcheck disable=SC2086
$CCB -o "$OUT/bench_jit" bench/bench_jnt.c "$B/libjnt.a" $LDLIBS || exit 1
# shellcheck disable=SC2086
$CCB -o "$OUT/slide_ratio" bench/slide_ratio.c "$B/libjnt.a" $LDLIBS || exit 1

# Per model: can it be compiled at all? (the reason is kept for the table)
ok_model() {
    name=$1 src=$2
    if "$B/jnt" check "$src" 2> "$OUT/$name.check.err"; then
        # the gcc build of the in-process driver (the flags of `jnt build`:
        # -O2 and $JNT_CFLAGS), and the standalone simulator
        # shellcheck disable=SC2086
        if "$B/jnt" emit "$src" -o "$OUT/$name.c" 2>> "$OUT/$name.check.err" &&
           $CCB ${JNT_CFLAGS:-} -DBENCH_AOT -o "$OUT/bench_aot_$name" "$OUT/$name.c" bench/bench_jnt.c \
               "$B/libjnt.a" $LDLIBS 2>> "$OUT/$name.check.err" &&
           "$B/jnt" build "$src" -o "$OUT/${name}_sim" 2>> "$OUT/$name.check.err"; then
            return 0
        fi
    fi
    return 1
}
why_model() { grep -m 1 'error' "$OUT/$1.check.err" 2>/dev/null || head -n 1 "$OUT/$1.check.err"; }

if want 1 || want 2 || want 3; then
frdyn2_ok=1 lugre_ok=1
ok_model frdyn2 "$FRDYN2" || { frdyn2_ok=0; say "bench: $FRDYN2 does not compile: $(why_model frdyn2)"; }
ok_model lugre "$LUGRE" || { lugre_ok=0; say "bench: $LUGRE does not compile: $(why_model lugre)"; }

# ---- 1. compile latency -------------------------------------------------------
# prints: name check compile first run0 build (seconds, or n/a)
compile_latency() {
    name=$1 src=$2 ok=$3
    if [ "$ok" -ne 1 ]; then
        echo "$name n/a n/a n/a n/a n/a"
        return
    fi
    l=$("$OUT/timeit" "$N" "$OUT/stderr.txt" "$B/jnt" check "$src"); log "check $name $l"
    chk=$(kv "wall_s_$STAT" "$l")
    l=$("$OUT/bench_jit" compile "$src" $((N * 4))); log "compile $name $l"
    cmp=$(kv "compile_s_$STAT" "$l") first=$(kv "first_s_$STAT" "$l")
    l=$("$OUT/timeit" "$N" "$OUT/stderr.txt" "$B/jnt" run "$src" -D t_end=1e-9 -o "")
    log "run0 $name $l"
    run0=$(kv "wall_s_$STAT" "$l")
    l=$("$OUT/timeit" "$N" "$OUT/stderr.txt" "$B/jnt" build "$src" -o "$OUT/latency_sim")
    log "build $name $l"
    rm -f "$OUT/latency_sim"
    bld=$(kv "wall_s_$STAT" "$l")
    echo "$name $chk $cmp $first $run0 $bld"
}
say "bench: compile latency ($STAT_NAME of $N; in-process compile: of $((N * 4)))"
CL_F=$(compile_latency frdyn2_bench "$FRDYN2" $frdyn2_ok)
CL_L=$(compile_latency lugre_stickslip "$LUGRE" $lugre_ok)

# ---- 2. jnt run times ---------------------------------------------------------
# jnt_case ID NAME SRC FINAL ARGS...: prints
#   id jit_mem gcc_mem jit_csv gcc_csv jit_wall gcc_wall jit_cpu gcc_cpu final_jit final_gcc
#   steps rows jit_int
# (jit_int: JIT in-process with dt_out = 1000 s, i.e. no output grid: the
# integration alone, for information)
jnt_case() {
    id=$1 name=$2 src=$3 final=$4
    shift 4
    csv=$OUT/runs/$id.csv
    t=$OUT/runs/$id
    for v in jit-mem gcc-mem jit-csv gcc-csv jit-nogrid jnt-run sim jit.err gcc.err; do
        : > "$t.$v"
    done
    # the variants take turns, one timed run each per round, so that a burst
    # of load on this shared machine hits all of them alike
    k=0
    while [ $k -lt "$N" ]; do
        "$OUT/bench_jit" run "$src" 1 "$@" --final "$final" >> "$t.jit-mem"
        "$OUT/bench_aot_$name" run "$src" 1 "$@" --final "$final" >> "$t.gcc-mem"
        "$OUT/bench_jit" run "$src" 1 "$@" -o "$csv" --final "$final" >> "$t.jit-csv"
        "$OUT/bench_aot_$name" run "$src" 1 "$@" -o "$csv" --final "$final" >> "$t.gcc-csv"
        "$OUT/bench_jit" run "$src" 1 "$@" -D dt_out=1000 --final "$final" >> "$t.jit-nogrid"
        "$OUT/timeit" 1 "$t.jit.err" "$B/jnt" run "$src" "$@" -o "$csv" --stats >> "$t.jnt-run"
        "$OUT/timeit" 1 "$t.gcc.err" "$OUT/${name}_sim" "$@" -o "$csv" --stats >> "$t.sim"
        k=$((k + 1))
    done
    for v in jit-mem gcc-mem jit-csv gcc-csv jit-nogrid jnt-run sim jit.err gcc.err; do
        sed "s|^|$v $id |" "$t.$v" >> "$RAW"
    done
    # the statistic of KEY over the lines of a variant's file
    col() { sed -n "s/.*$2=\([^ ]*\).*/\1/p" "$t.$1" | agg; }
    cj=$(sed -n 's/.*cpu \([^ ]*\) s$/\1/p' "$t.jit.err" | agg)
    cg=$(sed -n 's/.*cpu \([^ ]*\) s$/\1/p' "$t.gcc.err" | agg)
    last=$(tail -n 1 "$t.jit-mem")
    echo "$id $(col jit-mem run_s_min) $(col gcc-mem run_s_min) $(col jit-csv run_s_min)" \
         "$(col gcc-csv run_s_min) $(col jnt-run wall_s_min) $(col sim wall_s_min) $cj $cg" \
         "$(kv final "$last") $(kv final "$(tail -n 1 "$t.gcc-mem")") $(kv steps "$last")" \
         "$(kv rows "$last") $(col jit-nogrid run_s_min)"
}
na_case() { echo "$1 n/a n/a n/a n/a n/a n/a n/a n/a n/a n/a n/a n/a n/a"; }

say "bench: jnt run times ($STAT_NAME of $N)"
RUNS=""
for tE in $TES; do
    if [ $frdyn2_ok -eq 1 ]; then
        r=$(jnt_case "frdyn2_tE=$tE" frdyn2 "$FRDYN2" u -D "tE=$tE")
    else
        r=$(na_case "frdyn2_tE=$tE")
    fi
    RUNS="$RUNS$r
"
done
# lugre at the model's own tolerances (rtol 1e-10, atol 1e-12), then at the
# looser rtol 1e-6, atol 1e-9 of the frdyn2 cases
if [ $lugre_ok -eq 1 ]; then
    r=$(jnt_case "lugre_rtol=1e-10" lugre "$LUGRE" x)
    r2=$(jnt_case "lugre_rtol=1e-06" lugre "$LUGRE" x --rtol 1e-6 --atol 1e-9)
else
    r=$(na_case "lugre_rtol=1e-10")
    r2=$(na_case "lugre_rtol=1e-06")
fi
RUNS="$RUNS$r
$r2"

# ---- 3. peers -------------------------------------------------------------------
say "bench: SciPy and Octave peers ($STAT_NAME of $N inside one interpreter each)"
PEERS=""
if [ $have_scipy -eq 1 ]; then
    PEERS="$PEERS$("$PY" bench/peer_frdyn2.py --repeat "$N" 2>> "$OUT/stderr.txt")
$("$PY" bench/peer_lugre.py --repeat "$N" 2>> "$OUT/stderr.txt")
$("$PY" bench/peer_lugre.py --repeat "$N" --rtol 1e-6 --atol 1e-9 2>> "$OUT/stderr.txt")
"
fi
if [ $have_octave -eq 1 ]; then
    # Octave 7 prints a harmless "error: ignoring const execution_exception&
    # while preparing to exit" on exit (upstream bug #62515): it goes to stderr.txt
    PEERS="$PEERS$($OCT bench/peer_frdyn2.m "$N" 2>> "$OUT/stderr.txt")
$($OCT bench/peer_lugre.m 1e-10 1e-12 "$N" 2>> "$OUT/stderr.txt")
$($OCT bench/peer_lugre.m 1e-6 1e-9 "$N" 2>> "$OUT/stderr.txt")
"
fi
printf '%s\n' "$PEERS" | sed '/^$/d' >> "$RAW"
# peer ID TOOL METHOD KEY: KEY of the peer's line for case ID
peer() {
    case $1 in
        frdyn2_tE=*) sel="case=frdyn2 tE=${1#frdyn2_tE=} " ;;
        lugre_rtol=*) sel="case=lugre rtol=${1#lugre_rtol=} " ;;
        *) sel="case=$1 " ;;
    esac
    l=$(printf '%s\n' "$PEERS" | grep "peer=$2 " | grep -- "$sel" | grep "method=$3 " | head -n 1)
    v=$(kv "$4" "$l")
    [ -n "$v" ] && printf '%s' "$v" || printf 'n/a'
}

# ---- tables ---------------------------------------------------------------------
met() { # met VALUE OP LIMIT -> yes/no/n/a
    case "$1" in n/a|'') printf 'n/a'; return ;; esac
    if awk -v v="$1" -v l="$3" "BEGIN { exit !(v $2 l) }"; then printf 'yes'; else printf 'NO'; fi
}
{
echo "# jnt benchmarks"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(getconf _NPROCESSORS_ONLN) cores," \
     "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1); jnt $("$B/jnt" --version 2>/dev/null | cut -d' ' -f2-)," \
     "SciPy $("$PY" -c 'import scipy; print(scipy.__version__)' 2>/dev/null || echo n/a)," \
     "Octave $(octave-cli --version 2>/dev/null | sed -n '1s/.*version //p')."
echo "Every time is the $STAT_NAME of $N runs (wall clock, milliseconds; in-process JIT compile: of $((N * 4)));" \
     "ratios are of these ${STAT_NAME}s, measured side by side in this run (BENCH_N, BENCH_STAT=med|min)." \
     "OPENBLAS_NUM_THREADS=1 for every tool."
echo
echo "## 1. Compile latency (model file to runnable code)"
echo
echo "| model | jnt check (process) | JIT compile, in-process | model file to first result, in-process | jnt run to t=1e-9 s (process) | jnt build (emit + gcc -O2) | build / JIT compile | model-to-running < 20 ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for l in "$CL_F" "$CL_L"; do
    # shellcheck disable=SC2086 # the fields of one line
    set -- $l
    echo "| $1 | $(ms "$2") | $(ms "$3") | $(ms "$4") | $(ms "$5") | $(ms "$6") | $(ratio "$6" "$3") | $(met "$4" '<' 0.020) (in-process); $(met "$5" '<' 0.020) (process) |"
done
echo
echo "In-process: bench/bench_jnt.c times jnt_compile_file (parse, check, generate C, libtcc) and, separately," \
     "jnt_compile_file + jnt_data_new + jnt_run to t_end = 1e-9 s. The process time adds exec, dynamic loading and exit."
echo
echo "## 2. Run time: JIT (libtcc) vs gcc -O2 build"
echo
echo "| case | steps | rows | JIT, no output grid (info) | JIT, grid in memory | gcc, grid in memory | JIT / gcc | JIT, CSV to file | gcc, CSV to file | JIT / gcc | jnt run (process) | ./sim (process) | jnt run / ./sim | cpu --stats JIT | cpu --stats gcc | JIT within 2x of gcc |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "$RUNS" | while read -r id jm gm jc gc jw gw cj cg fj fg st rw ji; do
    r1=$(ratio "$jm" "$gm")
    echo "| $id | $st | $rw | $(ms "$ji") | $(ms "$jm") | $(ms "$gm") | $r1 | $(ms "$jc") | $(ms "$gc") | $(ratio "$jc" "$gc") | $(ms "$jw") | $(ms "$gw") | $(ratio "$jw" "$gw") | $(ms "$cj") | $(ms "$cg") | $(met "$r1" '<=' 2) |"
done
echo
echo "In-process (bench/bench_jnt.c, one binary per mode): one timed jnt_run per process after an untimed warm-up run;" \
     "the variants of a case (and jnt run, ./sim) take turns for $N rounds, so that load bursts hit them alike." \
     "\"Grid in memory\" evaluates" \
     "the output kernel on the model's output grid without writing the CSV (what the peers' t_eval does); \"no output grid\"" \
     "runs the same case with -D dt_out=1000 (rows at t0 and t_end only), to show what the grid costs; \"CSV to file\"" \
     "is what jnt run writes. Process times include start-up and, for jnt run, the JIT compile. cpu --stats is the" \
     "runtime's clock() around jnt_run (CSV included), 3 significant digits."
echo
echo "## 3. Run time against SciPy solve_ivp and Octave ode15s"
echo
echo "Same equations, tolerances and output grid; analytic Jacobian for every tool; the peers time only the solver call." \
     "frdyn2: rtol 1e-6, atol 1e-9 (the paper's ode15s settings), output every 10 us." \
     "lugre: rtol 1e-10, atol 1e-12 (the model's reference settings; feasible for every peer) and, as a second case," \
     "rtol 1e-6, atol 1e-9 (jnt run --rtol 1e-6 --atol 1e-9), output every 1 ms." \
     "The relative differences of the final displacement between tools are of the order of the tolerances."
echo
echo "| case | jnt JIT, grid in memory | jnt JIT, CSV to file | SciPy Radau | SciPy BDF | Octave ode15s | SciPy Radau / JIT | SciPy BDF / JIT | Octave / JIT | best SciPy / JIT with CSV | max rel. diff of final u (x) vs JIT | >= 50x faster than SciPy |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "$RUNS" | while read -r id jm gm jc gc jw gw cj cg fj fg st rw ji; do
    key=u_end
    case $id in lugre*) key=x_end ;; esac
    sr=$(peer "$id" scipy Radau "time_s_$STAT") sb=$(peer "$id" scipy BDF "time_s_$STAT")
    oc=$(peer "$id" octave ode15s "time_s_$STAT")
    best=$(awk -v a="$sr" -v b="$sb" 'BEGIN { if (a == "n/a") print b; else if (b == "n/a" || a + 0 < b + 0) print a; else print b }')
    rb=$(ratio "$best" "$jm")
    rd=$(reldiff "$fj" "$fg" "$(peer "$id" scipy Radau $key)" "$(peer "$id" scipy BDF $key)" \
                 "$(peer "$id" octave ode15s $key)")
    echo "| $id | $(ms "$jm") | $(ms "$jc") | $(ms "$sr") | $(ms "$sb") | $(ms "$oc") | $(ratio "$sr" "$jm") | $(ratio "$sb" "$jm") | $(ratio "$oc" "$jm") | $(ratio "$best" "$jc") | $rd | $(met "$rb" '>=' 50)$([ "$rb" = n/a ] || printf ' (%sx)' "$rb") |"
done
echo
echo "The 50x target is judged on the faster SciPy method against jnt with the output grid in memory, which is the" \
     "comparable work (solve_ivp's t_eval interpolates into arrays and writes no file); the column before it shows the" \
     "ratio when jnt also formats and writes the CSV."
notes=""
[ $frdyn2_ok -eq 1 ] || notes="$notes
- $FRDYN2 was not measured: $(why_model frdyn2)"
[ $lugre_ok -eq 1 ] || notes="$notes
- $LUGRE was not measured: $(why_model lugre)"
[ $have_scipy -eq 1 ] || notes="$notes
- SciPy was not measured: $why_scipy"
[ $have_octave -eq 1 ] || notes="$notes
- Octave was not measured: $why_octave"
if [ -n "$notes" ]; then
    echo
    echo "## Not measured"
    printf '%s\n' "$notes" | sed '/^$/d'
fi
echo
echo "Raw lines of every tool: $RAW."
} > "$RES"
cat "$RES"
fi

# ---- 4. Craig-Bampton reduction of imported plates (issue 4) ----------------------
# bench/bench_reduce.c: a plate2d of about N DOFs written to Matrix Market, imported
# (with its checks), clamped on the left edge and reduced keeping the top edge plus 20
# fixed-interface modes (CHOLMOD + ARPACK sparse path); peak resident memory of the process.
if want 4; then
gcc -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Iruntime/include -Iruntime \
    -o "$OUT/bench_reduce" bench/bench_reduce.c "$B/libjnt.a" $LDLIBS || exit 1
{
echo
echo "## 4. Craig-Bampton reduction of an imported plate"
echo
echo "| DOFs (after clamping) | import (s) | reduction (s) | projection (s) | reduced size | basis n x r (MB) | peak after import (MB) | peak memory (MB) | under 400 MB |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for n in 5000 20000 50000; do
    line=$("$OUT/bench_reduce" $n "$OUT" 2>&1) || { echo "| $n | failed: $line | | | | | | | |"; continue; }
    echo "$line" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", v["ndof"], v["import_s"], v["reduce_s"], v["project_s"], v["r"],
            v["basis_mb"], v["import_mb"], v["maxrss_mb"], v["maxrss_mb"] < 400 ? "yes" : "no" }'
    rm -f "$OUT"/plate_"$n"_*
done
echo
echo "Peak resident memory of the process (getrusage). The reduction holds the basis (n x r), the sparse" \
     "matrices and one factor at a time; solves and projections work 32 columns at a time (docs/reduction.md)."
} | tee -a "$RES"
fi

# ---- 5. seed 004's two-sided interface: full vs reduced (issue 4) ------------------
# examples/iwan_interface/{full,rom}.jnt with n sliders (copies with `const n`
# replaced), F0 = 0.3 N, three load cycles, no CSV; in-process runs (bench_jit:
# compile once, then BENCH_N timed runs). The full model (dopri5) at the example's
# tolerances (rtol 1e-8, atol 1e-12) and at rtol 1e-6, atol 1e-9 (D per cycle within
# 4e-6 of the tighter run at n = 100); the reduced model (10 modes + the
# complementarity chain, RK4) at the example's 20 ms and at 50 ms (the same D; Delta_1
# within 7e-4 of the 20 ms run at n = 100). Seed 004 Fig. 10: the reduced model should
# be at least 100x faster at n = 100.
if want 5; then
{
echo
echo "## 5. Seed 004's interface: full differential model vs reduced model"
echo
echo "| n | full, rtol 1e-8 (ms) | full, rtol 1e-6 (ms) | reduced, h 20 ms (ms) | reduced, h 50 ms (ms) | full 1e-8 / reduced 20 ms | full 1e-6 / reduced 50 ms | D over 3 cycles full / reduced (J) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in 10 20 40 100; do
    dir="$OUT/iwan_n$n"
    mkdir -p "$dir"
    sed "s/^const n    = 40 /const n    = $n /" examples/iwan_interface/common.jnt > "$dir/common.jnt"
    cp examples/iwan_interface/full.jnt examples/iwan_interface/rom.jnt "$dir/"
    a=$("$OUT/bench_jit" run "$dir/full.jnt" "$N" --final W 2>&1 | tail -n 1)
    a6=$("$OUT/bench_jit" run "$dir/full.jnt" "$N" --rtol 1e-6 --atol 1e-9 --final W 2>&1 | tail -n 1)
    b=$("$OUT/bench_jit" run "$dir/rom.jnt" "$N" --final D 2>&1 | tail -n 1)
    b5=$("$OUT/bench_jit" run "$dir/rom.jnt" "$N" --h 0.05 --final D 2>&1 | tail -n 1)
    printf '%s\n' "iwan n=$n full: $a" "iwan n=$n full 1e-6: $a6" "iwan n=$n rom: $b" \
        "iwan n=$n rom 50 ms: $b5" >> "$RAW"
    ta=$(kv run_s_$STAT "$a") ta6=$(kv run_s_$STAT "$a6") tb=$(kv run_s_$STAT "$b")
    tb5=$(kv run_s_$STAT "$b5")
    echo "| $n | $(ms "$ta") | $(ms "$ta6") | $(ms "$tb") | $(ms "$tb5") | $(ratio "$ta" "$tb") | $(ratio "$ta6" "$tb5") | $(kv final "$a" | cut -c1-8) / $(kv final "$b" | cut -c1-8) |"
done
echo
echo "Times are the $STAT_NAME of $N runs."
} | tee -a "$RES"
fi

# ---- 6. seed 003's beam on beam: the couplings side by side (issue 5) --------------
# examples/beam_on_beam.jnt (paper-size qm6 meshes, mu ramped to 0.3) with each coupling,
# 0.3 s (C crosses both unstable windows of the locus, 48.1-48.8 and 50.9-51.5 mm; 857k
# central-difference steps), no CSV (the output kernel still runs at every row), and the
# time of the example's locus (issue 12). bench/slide_ratio.c compiles the four models
# once in one process, runs each once untimed, then NB6 rounds (default 5) of one run of
# each in turn (FiLm, a, b, c, FiLm, a, ...), so that a change of the machine's load
# falls on all of them; a run's time is its thread's CPU time. The table gives each
# coupling's median CPU time and the median (and range) over the rounds of its ratio to
# FiLm's time in the same round (issue 30 item 7).
# Seed 003: Subs-a, -b, -c take 68, 74, 69 % of FiLm's time.
if want 6; then
NB=${NB6:-5}
{
echo
echo "## 6. Seed 003's beam on beam: CPU time of each coupling relative to FiLm"
echo
echo "| coupling | CPU time (s) | relative to FiLm (median of the rounds' ratios) | range | seed 003 (paper) | steps | steps per CPU second |"
echo "|---|---:|---:|---:|---:|---:|---:|"
bobs=""
for cp in film "dual(assumption = basic)" "dual(assumption = realistic)" "dual(assumption = simplified)"; do
    f="$OUT/bob_$(printf '%s' "$cp" | tr -cd 'a-z').jnt"
    sed "s/coupling = dual(assumption = realistic)/coupling = $cp/" examples/beam_on_beam.jnt > "$f"
    bobs="$bobs $f"
done
# shellcheck disable=SC2086
"$OUT/slide_ratio" "$NB" $bobs -D "t_end=0.3 s" > "$OUT/bob_times.txt" 2>&1
sed 's/^/beam_on_beam: /' "$OUT/bob_times.txt" >> "$RAW"
for cp in film "dual(assumption = basic)" "dual(assumption = realistic)" "dual(assumption = simplified)"; do
    case $cp in film) paper=1 ;; *basic*) paper=0.68 ;; *realistic*) paper=0.74 ;; *) paper=0.69 ;; esac
    f="$OUT/bob_$(printf '%s' "$cp" | tr -cd 'a-z').jnt"
    line=$(grep "^model=$f " "$OUT/bob_times.txt")
    awk -v cp="$cp" -v paper="$paper" -v c="$(kv cpu_med "$line")" -v q="$(kv ratio_med "$line")" \
        -v lo="$(kv ratio_min "$line")" -v hi="$(kv ratio_max "$line")" -v st="$(kv steps "$line")" \
        'BEGIN { if (c == "") { printf "| %s | n/a | | | %s | | |\n", cp, paper; exit }
                 printf "| %s | %.3f | %.3f | %.3f-%.3f | %s | %s | %.0f |\n", cp, c, q, lo, hi, paper, st, st / c }'
done
echo
echo "CPU times are the medians of $NB interleaved rounds (one timed run each, bench/slide_ratio.c)."
# The locus (seed 003 Fig. 4, the example's analysis: 41 positions, mu = 0.3 at until =
# 0.18 s): jnt run of the example with its analysis and without it, the simulation cut
# to 1 ns; the difference is the analysis. Its CSV names the eigensolver of each row.
sed 's/steps = 40)/steps = 40, time = 0.18 s)/' examples/beam_on_beam.jnt > "$OUT/bob_locus.jnt"
grep -v '^analysis locus' examples/beam_on_beam.jnt > "$OUT/bob_nolocus.jnt"
jb=$(cd "$B" && pwd)/jnt
rm -f "$OUT/locus.csv"
lw=$(cd "$OUT" && ./timeit "$N" stderr.txt "$jb" run bob_locus.jnt -D "t_end=1e-9 s" -o "")
lo=$(cd "$OUT" && ./timeit "$N" stderr.txt "$jb" run bob_nolocus.jnt -D "t_end=1e-9 s" -o "")
log "beam_on_beam locus: with $lw; without $lo"
tl=$(awk -v a="$(kv wall_s_$STAT "$lw")" -v b="$(kv wall_s_$STAT "$lo")" \
     'BEGIN { if (a != "" && b != "") printf "%.3f", a - b; else printf "n/a" }')
sv=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "solver") c = i; next }
     c { split("free symmetric secular qz", nm, " "); s[nm[$c]] = 1 }
     END { for (k in s) printf "%s ", k }' "$OUT/locus.csv" 2>/dev/null)
echo
echo "| analysis | time (s) | positions | eigensolver |"
echo "|---|---:|---:|---|"
echo "| locus (complex modes along c, 10 to 90 mm) | $tl | 41 | ${sv:-n/a}|"
echo
echo "The locus time is the $STAT_NAME of $N runs of each model, with minus without the analysis."
} | tee -a "$RES"
fi

# ---- 7. seed 000's lap joint: unreduced vs joint trial vectors (issue 4) ----------
# examples/lap_joint.jnt as it is (friction, 0.4 s, bdf rtol 1e-6) with the line marked
# REDUCE replaced: none (all 400 DOFs and every contact pair physical: 800 states, a
# dense Jacobian), the example's modal(5) + static + jtv(count = 20), and modal(40) +
# static + jtv(count = 60); one run each (`jnt run --stats`: the integration's CPU
# time). The |f_c| error is the RMS over the record relative to the unreduced run's.
# Seed 000 Sect. 6.1: 60 JTVs take 0.2 % of the CPU time of its 903-pair model.
if want 7; then
{
echo
echo "## 7. Seed 000's lap joint: unreduced model vs joint trial vectors"
echo
echo "| basis | coordinates | CPU (s) | steps | LU | CPU relative to unreduced | RMS error of \|f_c\| |"
echo "|---|---:|---:|---:|---:|---:|---:|"
ref=""
tu=""
JT="pairs = {joint_a, joint_b}, comp = uy, dkdg = 2 * eps_N * lam_N * A"
for case in "none (unreduced)|" \
    "modal(5) + static + jtv(20)|reduce = modal(modes = 5) + static(at = load) + jtv(count = 20, $JT)" \
    "modal(40) + static + jtv(60)|reduce = modal(modes = 40) + static(at = load) + jtv(count = 60, $JT)"; do
    label=${case%%|*} red=${case#*|}
    tag=lap_$(printf '%s' "$red" | tr -cd '0-9' | cut -c1-6)
    f="$OUT/$tag.jnt"
    sed -e "s|^  reduce .*// REDUCE\$|  $red|" -e "s|\"lap_joint/|\"$PWD/examples/lap_joint/|g" \
        examples/lap_joint.jnt > "$f"
    st=$(JNT_ALLOW_PATH="$PWD/examples" "$B/jnt" run "$f" -o "$OUT/$tag.csv" --stats 2>&1 | tail -n 1)
    printf '%s\n' "lap_joint $tag: $st" >> "$RAW"
    cpu=$(printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p')
    steps=$(printf '%s\n' "$st" | sed -n 's/^steps \([0-9]*\),.*/\1/p')
    lu=$(printf '%s\n' "$st" | sed -n 's/.* lu \([0-9]*\),.*/\1/p')
    nq=$(JNT_ALLOW_PATH="$PWD/examples" "$B/jnt" emit "$f" 2>/dev/null | grep -o '"sheet\.q[0-9]*"' | wc -l)
    [ -z "$red" ] && ref="$OUT/$tag.csv" && tu=$cpu
    err=$(awk -F, '/^#/ { next }  # the units, provenance and end lines
                   NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) if ($i == "fc") c = i }
                              else r[FNR] = $c; next }
                   FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "fc") c = i; next }
                   FNR in r { e += ($c - r[FNR])^2; s += r[FNR]^2 }
                   END { if (s > 0) printf "%.3g", sqrt(e / s); else printf "n/a" }' "$ref" "$OUT/$tag.csv")
    echo "| $label | $nq | $cpu | $steps | $lu | $(ratio "$cpu" "$tu") | $err |"
done
echo
echo "jtv(count = 60) gives 17 vectors here: the trial vector derivatives of this 60-pair joint span 17" \
     "directions above round-off (docs/reduction.md); seed 000's mesh has 903 pairs."
} | tee -a "$RES"
fi

# ---- 8. JIT vs jnt build: generated size, build time, run phase (issue 11) -------------
# Per model: `jnt emit` (wall time and peak memory, /usr/bin/time), the C and model-data
# sizes, `jnt build` (emit + gcc -O2, wall), and the run's CPU time (--stats) of
# `jnt run` (tcc) and of the simulator (gcc -O2), alternating, the STAT of BENCH8_N runs.
# The lap joint with modal(40) + static + jtv(60) is section 7's file.
if want 8; then
N8=${BENCH8_N:-3}
{
echo
echo "## 8. Generated code, build time and run phase: JIT (tcc) vs jnt build (gcc -O2)"
echo
echo "| model | emit (s) | emit peak memory (MB) | C (KB) | model data (KB) | jnt build (s) | run, JIT (s) | run, gcc (s) | JIT / gcc |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
lap60="$OUT/lap_40602.jnt"
for m in examples/frdyn2_bench.jnt examples/multimass.jnt examples/lap_joint.jnt \
         examples/beam_mass_friction.jnt "$lap60"; do
    [ -f "$m" ] || continue
    name=$(basename "$m" .jnt)
    [ "$m" = "$lap60" ] && name="lap_joint, modal(40) + static + jtv(60)"
    tag=b8_$(basename "$m" .jnt)
    rm -f "$OUT/$tag.c.data"
    /usr/bin/time -f "%e %M" -o "$OUT/$tag.time" "$B/jnt" emit "$m" -o "$OUT/$tag.c" 2> /dev/null
    tl=$(tail -n 1 "$OUT/$tag.time")
    csz=$(wc -c < "$OUT/$tag.c") dsz=0
    [ -f "$OUT/$tag.c.data" ] && dsz=$(wc -c < "$OUT/$tag.c.data")
    t0=$(date +%s.%N)
    "$B/jnt" build "$m" -o "$OUT/$tag.sim" 2> /dev/null
    t1=$(date +%s.%N)
    jit="" gcc=""
    i=0
    while [ $i -lt "$N8" ]; do
        jit="$jit $("$B/jnt" run "$m" -o "" --stats 2>&1 | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p')"
        gcc="$gcc $("$OUT/$tag.sim" -o "" --stats 2>&1 | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p')"
        i=$((i + 1))
    done
    tj=$(printf '%s\n' $jit | agg) tg=$(printf '%s\n' $gcc | agg)
    printf '%s\n' "bench8 $name: emit ${tl% *} s ${tl#* } KB, C $csz, data $dsz, jit$jit, gcc$gcc" >> "$RAW"
    echo "| $name | ${tl% *} | $(awk -v k="${tl#* }" 'BEGIN { printf "%.0f", k / 1024 }') |" \
         "$((csz / 1024)) | $((dsz / 1024)) | $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') |" \
         "$tj | $tg | $(ratio "$tj" "$tg") |"
done
echo
echo "Run times are the $STAT_NAME of $N8 runs of the integration's CPU time (--stats), no CSV."
# the two clearance examples (one joint's Jacobian: the derivatives pass's cuts, issue 31) and
# the multimass chain at n = 2,000 and 20,000 (the emit's growth): emit and (the two clearance
# ones) build, CPU time of jnt and its gcc (user + system, /usr/bin/time); their runs are other
# sections'. gcc -O2 on the 20,000-mass chain's 4 MB of C takes minutes: not built.
echo
echo "| model | emit CPU (s) | C (KB) | jnt build CPU (s) | jnt build wall (s) |"
echo "|---|---:|---:|---:|---:|"
for n in 2000 20000; do
    sed "s/^const n     = 100\$/const n     = $n/" examples/multimass.jnt > "$OUT/multimass_$n.jnt"
done
for m in examples/rotor_clearance.jnt examples/mechanism_clearance.jnt "$OUT/multimass_2000.jnt" \
         "$OUT/multimass_20000.jnt"; do
    tag=b8c_$(basename "$m" .jnt)
    /usr/bin/time -f "%U %S" -o "$OUT/$tag.etime" "$B/jnt" emit "$m" -o "$OUT/$tag.c" 2> /dev/null
    csz=$(wc -c < "$OUT/$tag.c")
    bc="" bw=""
    case $m in examples/*)
        t0=$(date +%s.%N)
        /usr/bin/time -f "%U %S" -o "$OUT/$tag.btime" "$B/jnt" build "$m" -o "$OUT/$tag.sim" 2> /dev/null
        t1=$(date +%s.%N)
        bc=$(tail -n 1 "$OUT/$tag.btime" | awk '{ printf "%.2f", $1 + $2 }')
        bw=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') ;;
    esac
    printf '%s\n' "bench8 build $tag: emit $(tail -n 1 "$OUT/$tag.etime"), C $csz, build $bc" >> "$RAW"
    echo "| $(basename "$m" .jnt) | $(tail -n 1 "$OUT/$tag.etime" | awk '{ printf "%.2f", $1 + $2 }') |" \
         "$((csz / 1024)) | $bc | $bw |"
done
} | tee -a "$RES"
fi

if want 9; then . bench/scaling.sh; fi
if want 10; then . bench/output.sh; fi
if want 11; then . bench/andrews.sh; fi
if want 12; then . bench/car_pendulum.sh; fi
if want 13; then . bench/rotor.sh; fi
if want 14; then . bench/sweep.sh; fi
if want 15; then . bench/mechanism.sh; fi
if want 16; then . bench/python_threads.sh; fi
if want 17; then . bench/jit_so.sh; fi
if want 18; then . bench/cache.sh; fi
if want 19; then . bench/peers.sh; fi
if want 20; then . bench/startup.sh; fi
if want 21; then . bench/vtk.sh; fi
