# bench/sweep.sh: section 14 of `make bench`, sourced by bench/run.sh (uses
# its B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build sh bench/sweep.sh      (runs bench/run.sh with BENCH_SECTIONS=14)
#
# Sweeps (issue 15): seed 001 E5's free-response energy map
# (examples/beam_mass_friction.jnt, 10 s with RK4 at 0.5 ms: the energy E
# left at the end over omega_n2 = 10..100 rad/s x N = 1, 5, 10 N, 30 runs):
#   1. a shell loop of `jnt run` (the model compiled and its beam reduced
#      for every run),
#   2. `jnt sweep -j 1` (compiled once),
#   3. `jnt sweep -j 2` (two threads on the shared model),
#   4. `mpirun -n 2 jnt-mpi sweep -j 1` (two ranks; rank 0 also runs a thread),
# wall clock, the STAT of N rounds taking turns; runs per second, the
# compile-once saving (1 / 2), the threaded speedup (2 / 3) and its
# parallel efficiency (speedup / 2), and MPI's (2 / 4). The tables of 2, 3
# and 4 are checked equal but for the CPU column.
# Then seed 001 E4's energy map, the paper's 825 runs (examples/energy_map.jnt,
# N = 0..100 N x r = 0.6..8.0): the same four ways, the shell loop once (825
# compiles), the others the STAT of N rounds.
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=14 exec sh bench/run.sh
fi
SW_DIR=$OUT/sweep
mkdir -p "$SW_DIR"
SW_MODEL=examples/beam_mass_friction.jnt
SW_ARGS="--grid omega_n2=10:100:10 --list N=1,5,10"
SW_NRUN=30
MPIRUN=""
if [ -x "$B/jnt-mpi" ] && command -v mpirun >/dev/null 2>&1; then
    MPIRUN="mpirun -n 2 --oversubscribe"
    [ "$(id -u)" = 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
fi
sw_wall() { # OUTFILE COMMAND...: append the wall time of COMMAND to OUTFILE
    f=$1; shift
    t0=$(date +%s.%N)
    "$@" >> "$RAW" 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }' >> "$f"
}
sw_loop() {
    for w in 10 20 30 40 50 60 70 80 90 100; do
        for n in 1 5 10; do
            "$B/jnt" run "$SW_MODEL" -D omega_n2="$w" -D N="$n" -o '' || return 1
        done
    done
}
# sw_sweeps PREFIX MODEL ARGS: one round of the three sweeps, their walls
# into PREFIXj1.wall etc. and their tables into PREFIXj1.csv etc.
sw_sweeps() {
    # shellcheck disable=SC2086
    sw_wall "$SW_DIR/${1}j1.wall" "$B/jnt" sweep "$2" $3 -o "$SW_DIR/${1}j1.csv" -j 1
    # shellcheck disable=SC2086
    sw_wall "$SW_DIR/${1}j2.wall" "$B/jnt" sweep "$2" $3 -o "$SW_DIR/${1}j2.csv" -j 2
    if [ -n "$MPIRUN" ]; then
        # shellcheck disable=SC2086
        sw_wall "$SW_DIR/${1}mpi.wall" $MPIRUN "$B/jnt-mpi" sweep "$2" $3 \
            -o "$SW_DIR/${1}mpi.csv" -j 1
    fi
}
# E4's 825-run map
EM_MODEL=examples/energy_map.jnt
EM_ARGS="-D h_step=1ms --grid N=0:100:10 --grid r=0.6:8:0.1"   # the paper's step
em_loop() {
    for n in 0 10 20 30 40 50 60 70 80 90 100; do
        for r in $(awk 'BEGIN { for (k = 6; k <= 80; k++) printf "%.1f ", k / 10 }'); do
            "$B/jnt" run "$EM_MODEL" -D h_step=1ms -D N="$n" -D r="$r" -o '' || return 1
        done
    done
}
for f in loop j1 j2 mpi em_loop em_j1 em_j2 em_mpi; do : > "$SW_DIR/$f.wall"; done
sw_wall "$SW_DIR/em_loop.wall" em_loop
i=0
while [ $i -lt "$N" ]; do
    sw_wall "$SW_DIR/loop.wall" sw_loop
    sw_sweeps "" "$SW_MODEL" "$SW_ARGS"
    sw_sweeps em_ "$EM_MODEL" "$EM_ARGS"
    i=$((i + 1))
done
sw_same() { [ "$(sed 's/,[^,]*$//' "$SW_DIR/$1.csv")" = "$(sed 's/,[^,]*$//' "$SW_DIR/$2.csv")" ] &&
    echo "yes" || echo "NO"; }
sw_rate() { awk -v t="$1" -v n="$2" 'BEGIN { if (t > 0) printf "%.3g", n / t; else printf "n/a" }'; }
# sw_table PREFIX NRUN LOOPWALL: the four ways' table of one map
sw_table() {
    j1=$(agg < "$SW_DIR/${1}j1.wall")
    j2=$(agg < "$SW_DIR/${1}j2.wall")
    sp=$(ratio "$j1" "$j2")
    echo "| how | wall (s) | runs/s | ratio | same table as -j 1 |"
    echo "|---|---:|---:|---|---|"
    echo "| shell loop of \`jnt run\` | $3 | $(sw_rate "$3" "$2") | 1 | - |"
    echo "| \`jnt sweep -j 1\` | $j1 | $(sw_rate "$j1" "$2") | compile-once saving $(ratio "$3" "$j1") | yes |"
    echo "| \`jnt sweep -j 2\` | $j2 | $(sw_rate "$j2" "$2") | threaded speedup $sp, efficiency $(ratio "$sp" 2) | $(sw_same "${1}j2" "${1}j1") |"
    if [ -n "$MPIRUN" ]; then
        mpi=$(agg < "$SW_DIR/${1}mpi.wall")
        echo "| \`mpirun -n 2 jnt-mpi sweep -j 1\` | $mpi | $(sw_rate "$mpi" "$2") | MPI speedup $(ratio "$j1" "$mpi") | $(sw_same "${1}mpi" "${1}j1") |"
    else
        echo "| \`mpirun -n 2 jnt-mpi sweep\` | n/a: no $B/jnt-mpi or mpirun (make mpi) | | | |"
    fi
}
# the minimum per-run CPU (the table's cpu_s) over the -j 1 sweep: the work
cpu=$(awk -F, 'NR > 1 { s += $NF } END { printf "%.3g", s }' "$SW_DIR/j1.csv")
emin=$(awk -F, 'NR > 1 && $(NF - 2) == "ok" { n = $3; e = $(NF - 8) + 0
           if (!(n in b) || e < b[n]) { b[n] = e; w[n] = $2 } }
           END { for (n in b) printf "N = %s N: %s rad/s; ", n, w[n] }' "$SW_DIR/j1.csv")
{
echo
echo "## 14. Sweeps: seed 001 E5's energy map, $SW_NRUN runs (bench/sweep.sh)"
echo
echo "examples/beam_mass_friction.jnt (10 s, RK4 at 0.5 ms) over omega_n2 = 10..100 rad/s x"
echo "N = 1, 5, 10 N; wall clock, the $STAT_NAME of $N rounds taking turns; the runs' own CPU"
echo "(the table's cpu_s, -j 1) adds up to $cpu s."
echo
sw_table "" "$SW_NRUN" "$(agg < "$SW_DIR/loop.wall")"
echo
echo "The smallest energy left at 10 s: $emin (seed 001 E5: near 60 rad/s)."
echo "On a machine whose other core is busy, the threaded speedup is near 1."
echo
echo "Seed 001 E4's energy map, 825 runs (examples/energy_map.jnt, 15.1 s with RK4 at 1 ms,"
echo "N = 0..100 N x r = 0.6..8.0); the shell loop once, the sweeps the $STAT_NAME of $N rounds:"
echo
sw_table em_ 825 "$(cat "$SW_DIR/em_loop.wall")"
} >> "$RES"
