# bench/mechanism.sh: section 15 of `make bench`, sourced by bench/run.sh (uses
# its B, OUT, RAW, RES and helpers). Alone:
#   B=build sh bench/mechanism.sh      (runs bench/run.sh with BENCH_SECTIONS=15)
#
# Seed 001 E1, the spatial mechanism (examples/mechanism_ideal.jnt, case 1;
# examples/mechanism_clearance.jnt, case 2) over its first two crank
# revolutions (0.628 s; the whole six cost some 75 s of CPU with step
# control): steps, rejected steps and CPU of
# 1. case 1, the ideal spherical joint, fixed h = 1 ms (the report's);
# 2. case 2, the clearance joint with seed 001's contact and friction step
#    control (eqs. 19-20, 33), h <= 1 ms;
# 3. case 2 without step control, at the fixed step dtau_min / Omega = 1.5 us
#    (the least step the controlled run takes, where the races stick);
# 4. case 2 without step control at h = 1 ms (Newton halves a failed step,
#    at most 10 times; the run may fail: then the table says where).
# One run each (MECH_N, default 1: the fixed 1.5 us run alone takes minutes);
# CPU from --stats.
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=15 exec sh bench/run.sh
fi
MC_DIR=$OUT/mechanism
mkdir -p "$MC_DIR"
MC_N=${MECH_N:-1}
MC_T=0.6283185307179586 # two revolutions at 20 rad/s
# case 2 without the `steps = ...` settings, importing the mechanism by its
# absolute path (the file is written elsewhere)
sed -e '/steps *= *\(contact\|friction\)_steps/d' \
    -e "s|import \"mechanism/common.jnt\"|import \"$PWD/examples/mechanism/common.jnt\"|" \
    -e 's/hc = race.step, hf = rub.step, hf2 = rub2.step/hc = race.gap/' \
    examples/mechanism_clearance.jnt > "$MC_DIR/fixed.jnt"
mc_run() { # tag src args...: one line of --stats (or the error) into $MC_DIR/tag.stats
    tag=$1 src=$2
    shift 2
    : > "$MC_DIR/$tag.cpu"
    i=0
    while [ $i -lt "$MC_N" ]; do
        st=$("$B/jnt" run "$src" -D t_end=$MC_T -o "" --stats "$@" 2>&1 | tail -n 1)
        log "mechanism $tag: $st"
        printf '%s\n' "$st" > "$MC_DIR/$tag.stats"
        printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p' >> "$MC_DIR/$tag.cpu"
        i=$((i + 1))
    done
}
say "bench: mechanism (seed 001 E1), two revolutions, $MC_N run(s) each"
mc_run ideal examples/mechanism_ideal.jnt
mc_run adaptive examples/mechanism_clearance.jnt
# the copy imports the mechanism by its absolute path: allowed explicitly
# (refused otherwise: 'is an absolute path')
mc_run fixed_min "$MC_DIR/fixed.jnt" --allow-path "$PWD/examples" --h 1.5us
mc_run fixed_1ms "$MC_DIR/fixed.jnt" --allow-path "$PWD/examples"
mc_field() { sed -n "s/.*$2 \([0-9.e+-]*\).*/\1/p" "$MC_DIR/$1.stats" | head -n 1; }
mc_steps() { sed -n 's/^steps \([0-9]*\).*/\1/p' "$MC_DIR/$1.stats"; }
{
echo
echo "## 15. Seed 001 E1, the spatial mechanism: case 2 with and without step control"
echo
echo "| two revolutions (0.628 s), midpoint | steps | rejected | CPU (s) | CPU relative to step control | note |"
echo "|---|---:|---:|---:|---:|---|"
ca=$(agg < "$MC_DIR/adaptive.cpu")
for tag in ideal adaptive fixed_min fixed_1ms; do
    case $tag in
        ideal) lab="case 1, ideal spherical joint, h = 1 ms" ;;
        adaptive) lab="case 2, contact and friction step control, h <= 1 ms" ;;
        fixed_min) lab="case 2, no step control, h = dtau_min / Omega = 1.5 us" ;;
        fixed_1ms) lab="case 2, no step control, h = 1 ms (halved on Newton failure)" ;;
    esac
    s=$(mc_steps $tag)
    if [ -n "$s" ]; then
        c=$(agg < "$MC_DIR/$tag.cpu")
        echo "| $lab | $s | $(mc_field $tag rejected) | $c | $(ratio "$c" "$ca") | |"
    else
        echo "| $lab | | | | | failed: $(sed 's/|/\\|/g' "$MC_DIR/$tag.stats") |"
    fi
done
echo
echo "The $STAT_NAME of $MC_N run(s) each (--stats CPU of the run, no CSV)."
} >> "$RES"
