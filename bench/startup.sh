# bench/startup.sh: section 20 of `make bench`, sourced by bench/run.sh (uses its
# B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build sh bench/startup.sh      (runs bench/run.sh with BENCH_SECTIONS=20)
#
# Start-up (issue 31 item 3; docs/performance.md, "Start-up"): the whole
# process of a small model, examples/frdyn2_bench.jnt writing its 1,176-row CSV,
# against the hand-written C + CVODE program of section 19
# (bench/peer_frdyn2_cvode.c, tE = 1 ms, the same CSV), as CPU time (user + sys
# of the process, bench/cpuit.c). N rounds, each variant once a round; the
# ratios are the median over the rounds of the ratio within a round:
#   - jnt run with the compile cache warm (a scratch XDG_CACHE_HOME, primed):
#     what a second run of a model costs;
#   - jnt run with JNT_CACHE=0: the whole translation every time (stdlib
#     parse, sema, C generation; what a first run costs);
#   - the same jnt linked to OpenBLAS, LAPACKE, CHOLMOD, KLU and ARPACK as
#     before lazy loading (compiler/cli/lazy.c), cache warm: what the lazy
#     loading saves;
#   - jnt --version: the executable's own start (exec, dynamic loader), no model.
# OPENBLAS_NUM_THREADS is unset for the jnt processes, as a user runs them.
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=20 exec sh bench/run.sh
fi
SU_DIR=$OUT/startup
mkdir -p "$SU_DIR"
SU_CV=$B/bench/peer_frdyn2_cvode
SU_CPU=$B/bench/cpuit
if [ ! -x "$SU_CV" ] || [ ! -x "$SU_CPU" ]; then
    say "bench: $SU_CV or $SU_CPU is missing (make B=$B peers): section 20 skipped"
else
say "bench: start-up, jnt run against C + CVODE as processes ($STAT_NAME of $N rounds)"
# the jnt executable as it was linked before lazy loading: the same objects, every library
# shellcheck disable=SC2086
gcc -o "$SU_DIR/jnt_eager" $(ls "$B"/obj/compiler/cli/*.o | grep -v -e '/lazy\.o$' -e '/sweep_mpi\.o$') \
    "$B/libjnt.a" $LDLIBS 2>> "$OUT/stderr.txt" || say "bench: the eagerly linked jnt did not link"
SU_XDG=$PWD/$SU_DIR/xdg
rm -rf "$SU_XDG"
SU_M=examples/frdyn2_bench.jnt
# su_jnt JNT [VAR=VALUE]...: the CPU seconds of one jnt run of the model, its own CSV
su_jnt() {
    j=$1; shift
    env -u OPENBLAS_NUM_THREADS XDG_CACHE_HOME="$SU_XDG" "$@" "$SU_CPU" "$j" run "$SU_M" \
        -o "$SU_DIR/jnt.csv" 2>> "$OUT/stderr.txt"
}
# prime the cache (a miss writes the entry)
su_jnt "$B/jnt" JNT_CACHE=1 > /dev/null
for v in cv warm cold eager ver; do : > "$SU_DIR/$v.cpu"; done
k=0
while [ $k -lt "$N" ]; do
    "$SU_CPU" "$SU_CV" 0.001 "$SU_DIR/cv.csv" >> "$SU_DIR/cv.cpu" 2>> "$OUT/stderr.txt"
    su_jnt "$B/jnt" JNT_CACHE=1 >> "$SU_DIR/warm.cpu"
    su_jnt "$B/jnt" JNT_CACHE=0 >> "$SU_DIR/cold.cpu"
    if [ -x "$SU_DIR/jnt_eager" ]; then su_jnt "$SU_DIR/jnt_eager" JNT_CACHE=1 >> "$SU_DIR/eager.cpu"; fi
    env -u OPENBLAS_NUM_THREADS "$SU_CPU" "$B/jnt" --version >> "$SU_DIR/ver.cpu" 2>> "$OUT/stderr.txt"
    k=$((k + 1))
done
for v in cv warm cold eager ver; do log "startup $v cpu: $(tr '\n' ' ' < "$SU_DIR/$v.cpu")"; done
rows=$(grep -c '^[0-9]' "$SU_DIR/jnt.csv") crows=$(grep -c '^[0-9]' "$SU_DIR/cv.csv")
# su_row NAME FILE: a table row, the STAT in ms and the ratio to the C program
su_row() {
    echo "| $1 | $(ms "$(grep -v '^$' "$2" | agg)") | $(su_ratio "$2" "$SU_DIR/cv.cpu") |"
}
# su_ratio A B: the median over the rounds of A/B (files of one number per round)
su_ratio() {
    paste -d' ' "$1" "$2" | awk '$1 + 0 > 0 && $2 + 0 > 0 { print $1 / $2 }' | median |
        awk '{ if ($1 == "n/a") print "n/a"; else printf "%.3g", $1 }'
}
{
echo
echo "## 20. Start-up: a small model's whole process against C + CVODE"
echo
echo "| process (examples/frdyn2_bench.jnt, tE = 1 ms) | CPU (ms) | : C + CVODE |"
echo "|---|---:|---:|"
su_row "C + CVODE (bench/peer_frdyn2_cvode.c), $crows rows" "$SU_DIR/cv.cpu"
su_row "jnt run, compile cache warm, $rows rows" "$SU_DIR/warm.cpu"
su_row "jnt run, JNT_CACHE=0 (whole translation)" "$SU_DIR/cold.cpu"
su_row "jnt run linked to every library (before lazy loading), cache warm" "$SU_DIR/eager.cpu"
su_row "jnt --version (the executable's start alone)" "$SU_DIR/ver.cpu"
echo
echo "CPU: user + sys of the process (bench/cpuit.c), $STAT_NAME of $N interleaved rounds; ratio: the median" \
     "over the rounds of the ratio within a round. OPENBLAS_NUM_THREADS unset for jnt. Goal (issue 31): at" \
     "most 1.5 for jnt run."
} | tee -a "$RES"
fi
