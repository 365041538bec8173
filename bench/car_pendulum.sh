# bench/car_pendulum.sh: section 12 of `make bench`, sourced by bench/run.sh
# (uses its B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build sh bench/car_pendulum.sh      (runs bench/run.sh with BENCH_SECTIONS=12)
#
# Seed 000's car pendulum (examples/car_pendulum.jnt, issue 13): FORCE0 with
# friction over 2.5 s, the sheet reduced with 20 more normal modes, with the
# example's JTVs, and with the largest basis (40 more normal modes and the
# JTVs); CPU time (--stats) of each, the STAT of N runs taking turns, and as
# ratios to the largest basis. Then the same model with the sheet unreduced
# (issue 30 item 5: its 3212 DOFs, 3200 elastic coordinates, kept sparse,
# docs/reduction.md; every one of the 480 contact pairs physical) over
# BENCH12_T, BENCH12_N runs (default 1), and each reduced basis's CPU as a
# share of it, against seed 000's 0.2 % (its 3009-DOF model, 60 JTVs against
# all 903 pairs). BENCH12_T defaults to the first 0.3 s (the load ramp and
# the first burst of contact chatter: about 30 s of CPU unreduced);
# BENCH_LONG=1 makes it the paper's whole T_sim, 2.5 s (about 14 minutes of
# CPU unreduced; docs/reduction.md has one such run). When BENCH12_T is not
# 2.5 s the reduced bases are run over it too.
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=12 exec sh bench/run.sh
fi
# cp_runs PREFIX ROUNDS "K..." [-D ...]: the models $OUT/PREFIX_K.jnt, taking
# turns for ROUNDS rounds; per model its CPU times (PREFIX_K.cpu) and the
# last run's --stats (PREFIX_K.stats)
cp_runs() {
    pre=$1 rounds=$2 ks=$3
    shift 3
    for k in $ks; do : > "$OUT/${pre}_$k.cpu"; done
    i=0
    while [ $i -lt "$rounds" ]; do
        for k in $ks; do
            st=$("$B/jnt" run "$OUT/${pre}_$k.jnt" -o "" "$@" --stats 2>&1 | tail -n 1)
            printf '%s\n' "car_pendulum ${pre}_$k: $st" >> "$RAW"
            printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p' >> "$OUT/${pre}_$k.cpu"
            printf '%s\n' "$st" > "$OUT/${pre}_$k.stats"
        done
        i=$((i + 1))
    done
}
# cp_row PREFIX K LABEL REF: one table row, CPU relative to REF
cp_row() {
    st=$(cat "$OUT/$1_$2.stats")
    cpu=$(agg < "$OUT/$1_$2.cpu")
    nq=$("$B/jnt" emit "$OUT/$1_$2.jnt" 2>/dev/null | grep -o '"sheet\.q[0-9]*"' | wc -l)
    echo "| $3 | $nq | $cpu | $(printf '%s' "$st" | sed -n 's/^steps \([0-9]*\),.*/\1/p') |" \
         "$(printf '%s' "$st" | sed -n 's/.*rejected \([0-9]*\),.*/\1/p') |" \
         "$(printf '%s' "$st" | sed -n 's/.* jac \([0-9]*\),.*/\1/p') | $(ratio "$cpu" "$4") |"
}
{
echo
echo "## 12. Seed 000's car pendulum: bases of the flexible sheet"
echo
echo "| basis | coordinates | CPU (s) | steps | rejected | Jacobians | CPU relative to the largest basis |"
echo "|---|---:|---:|---:|---:|---:|---:|"
CPB="static(at = {load, pin1, pin2})"
CPJ="jtv(count = 20, pairs = {joint_a, joint_b}, comp = uy, dkdg = 2 * eps_N * lam_N * A)"
# case k: its label and basis
cp_label() { case $1 in 1) echo "20 more normal modes" ;; 2) echo "the example's: 5 NM + 6 static + JTVs" ;;
                        3) echo "largest: 45 NM + 6 static + JTVs" ;; esac; }
cp_basis() { case $1 in 1) echo "modal(modes = 25) + $CPB" ;; 2) echo "modal(modes = 5) + $CPB + $CPJ" ;;
                        3) echo "modal(modes = 45) + $CPB + $CPJ" ;; esac; }
for k in 1 2 3; do
    sed -e "s|^  reduce .*// REDUCE\$|  reduce  = $(cp_basis $k)|" \
        -e "s|\"car_pendulum/|\"$PWD/examples/car_pendulum/|g" examples/car_pendulum.jnt > "$OUT/cp_$k.jnt"
done
cp_runs cp "$N" "1 2 3"
ref=$(agg < "$OUT/cp_3.cpu")
for k in 1 2 3; do cp_row cp $k "$(cp_label $k)" "$ref"; done
echo
echo "The $STAT_NAME of $N runs each (CPU of the integration, --stats)."
echo
T12="0.3 s"
[ "${BENCH_LONG:-0}" = 1 ] && T12="2.5 s"
T12=${BENCH12_T:-$T12}
N12=${BENCH12_N:-1}
echo "The same model with the sheet unreduced (3212 DOFs, 3200 elastic coordinates, sparse; every" \
     "contact pair physical), FORCE0 with friction, $T12:"
echo
echo "| basis | coordinates | CPU (s) | steps | rejected | Jacobians | CPU relative to unreduced | seed 000 |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
sed -e "s|^  reduce .*// REDUCE\$||" \
    -e "s|\"car_pendulum/|\"$PWD/examples/car_pendulum/|g" examples/car_pendulum.jnt > "$OUT/cp_0.jnt"
if [ "$T12" = "2.5 s" ]; then
    cp_runs cp "$N12" "0" -D "t_end=$T12"
    pre=cp
else
    for k in 1 2 3; do cp "$OUT/cp_$k.jnt" "$OUT/cu_$k.jnt"; done
    cp "$OUT/cp_0.jnt" "$OUT/cu_0.jnt"
    cp_runs cu "$N12" "0 1 2 3" -D "t_end=$T12"
    pre=cu
fi
ref=$(agg < "$OUT/${pre}_0.cpu")
cp_label0() { case $1 in 0) echo "unreduced (every contact pair physical)" ;; *) cp_label "$1" ;; esac; }
for k in 0 1 2 3; do
    row=$(cp_row "$pre" $k "$(cp_label0 $k)" "$ref")
    paper="-"
    [ $k = 3 ] && paper="0.002 (0.2 %, 60 JTVs)"
    echo "$row $paper |"
done
echo
echo "The $STAT_NAME of $N12 run(s) of the unreduced model; the reduced rows as above."
} | tee -a "$RES"
