# bench/vtk.sh: section 21 of `make bench`, sourced by bench/run.sh (uses its
# B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build BENCH_SECTIONS=21 sh bench/run.sh
#
# What VTK output costs (docs/seeing.md): seed 000's car pendulum
# (examples/car_pendulum.jnt, its output every 1 ms) to BENCH21_T (default
# 0.5 s: 501 rows), with the CSV only and with the CSV and `--vtk DIR` (the
# same rows: a frame per row, the sheet's 1,606 nodes expanded from its
# reduced coordinates, 480 contacts, 2 joints), the STAT of N runs each, taking
# turns: the run's CPU time (--stats: integration and every write, system
# time included) and the whole process's wall time (jnt run: compile, with
# --vtk also the model's description from its semantic analysis, then the
# run). Each --vtk run writes into a new folder (a first run); then N runs
# into the same folder again, which replace every file (more costly on this
# machine's ext4 without a journal: allocating an inode skips every one freed
# in the last 30 s, reading its inode table block, so each new file of a run
# that replaces 2,505 pays for those freed before it; the same holds for
# the first runs after a deletion of many files: the previous invocation's
# folder is deleted at its end, so back-to-back invocations 30 s apart at
# least). The same --vtk runs into a folder on tmpfs (BENCH21_SHM, default
# /dev/shm; skipped when it is not a writable folder) measure the writer
# without the file system's part. Goal: the run with VTK at most 2x the run
# with the CSV alone.
# shellcheck disable=SC2154
{
T21=${BENCH21_T:-0.5}
cp21=$OUT/vtk21
rm -rf "$cp21"
mkdir -p "$cp21"
c_cpu="" v_cpu="" c_wall="" v_wall="" r_cpu="" r_wall="" sv_cpu="" sr_cpu=""
fd21=$cp21 # where the frames go
# one run: mode (csv, vtk: a new folder, again: the last folder again); sets cpu, wall
run21() {
    case $1 in
        csv) set -- ;;
        vtk) set -- --vtk "$fd21/frames_$i" ;;
        again) set -- --vtk "$fd21/frames_0" ;;
    esac
    t0=$(date +%s.%N)
    st=$("$B/jnt" run examples/car_pendulum.jnt -D "t_end=$T21 s" -o "$cp21/out.csv" --stats \
         "$@" 2>&1 | tail -n 1)
    t1=$(date +%s.%N)
    cpu=$(printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p')
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
}
i=0
while [ $i -lt "$N" ]; do
    run21 csv; c_cpu="$c_cpu $cpu" c_wall="$c_wall $wall"
    run21 vtk; v_cpu="$v_cpu $cpu" v_wall="$v_wall $wall"
    i=$((i + 1))
done
i=0
while [ $i -lt "$N" ]; do
    run21 again; r_cpu="$r_cpu $cpu" r_wall="$r_wall $wall"
    i=$((i + 1))
done
frames=$(grep -c '<DataSet' "$cp21/frames_0/car_pendulum.pvd" 2>/dev/null || echo n/a)
mb=$(du -sm "$cp21/frames_0" 2>/dev/null | cut -f1)
rows=$(grep -vc '^#' "$cp21/out.csv" 2>/dev/null || echo n/a)
log "vtk21 csv cpu:$c_cpu wall:$c_wall"
log "vtk21 vtk cpu:$v_cpu wall:$v_wall frames $frames MB $mb"
log "vtk21 again cpu:$r_cpu wall:$r_wall"
shm=${BENCH21_SHM:-/dev/shm}
if [ -d "$shm" ] && [ -w "$shm" ]; then
    fd21=$shm/jnt-vtk21-$$
    mkdir -p "$fd21"
    i=0
    while [ $i -lt "$N" ]; do run21 vtk; sv_cpu="$sv_cpu $cpu"; i=$((i + 1)); done
    i=0
    while [ $i -lt "$N" ]; do run21 again; sr_cpu="$sr_cpu $cpu"; i=$((i + 1)); done
    log "vtk21 tmpfs vtk cpu:$sv_cpu again cpu:$sr_cpu"
    rm -rf "$fd21"
fi
rm -rf "$cp21"
svc=$(printf '%s\n' $sv_cpu | agg) src=$(printf '%s\n' $sr_cpu | agg)
cc=$(printf '%s\n' $c_cpu | agg) vc=$(printf '%s\n' $v_cpu | agg)
cw=$(printf '%s\n' $c_wall | agg) vw=$(printf '%s\n' $v_wall | agg)
ra=$(printf '%s\n' $r_cpu | agg) rw=$(printf '%s\n' $r_wall | agg)
rc=$(ratio "$vc" "$cc")
echo
echo "## 21. VTK output: the car pendulum to $T21 s, every 1 ms"
echo
echo "| output | run CPU (s) | ratio | process wall (s) | ratio |"
echo "|---|---:|---:|---:|---:|"
echo "| CSV ($((rows - 1)) rows) | $cc | 1 | $cw | 1 |"
echo "| CSV + --vtk into a new folder ($frames frames, $mb MB) | $vc | $rc | $vw | $(ratio "$vw" "$cw") |"
echo "| CSV + --vtk into the same folder again | $ra | $(ratio "$ra" "$cc") | $rw | $(ratio "$rw" "$cw") |"
echo "| CSV + --vtk into a new folder on tmpfs | $svc | $(ratio "$svc" "$cc") | | |"
echo "| CSV + --vtk into the same folder again on tmpfs | $src | $(ratio "$src" "$cc") | | |"
echo
echo "Goal: the run with VTK (a new folder) at most 2x the CSV's: $(awk -v r="$rc" 'BEGIN { print (r != "n/a" && r <= 2) ? "met" : "not met" }')" \
     "($STAT_NAME of $N runs each, taking turns; the process's wall time includes the model's"
echo "description for --vtk, a second semantic analysis with the sheet's reductions, once a run)."
} | tee -a "$RES"
