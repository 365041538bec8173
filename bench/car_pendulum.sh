# bench/car_pendulum.sh: section 12 of `make bench`, sourced by bench/run.sh
# (uses its B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build sh bench/car_pendulum.sh      (runs bench/run.sh with BENCH_SECTIONS=12)
#
# Seed 000's car pendulum (examples/car_pendulum.jnt, issue 13): FORCE0 with
# friction over 2.5 s, the sheet reduced with 20 more normal modes, with the
# example's JTVs, and with the largest basis (40 more normal modes and the
# JTVs); CPU time (--stats) of each, the STAT of N runs taking turns, and as
# ratios to the largest basis. The unreduced model (all 3212 DOFs of the
# sheet in the floating frame) cannot run here: the runtime forms a flexible
# body's Jacobian densely in y (some 6,500 states: 340 MB a copy) and its
# invariants as dense r x r blocks (E, Mr, Kr, Cr: 330 MB); section 7 compares the clamped lap joint
# reduced and unreduced instead, and seed 000's 0.2 % (60 JTVs against all
# 903 contact pairs) is set against that.
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=12 exec sh bench/run.sh
fi
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
    : > "$OUT/cp_$k.cpu"
done
# the runs take turns, N rounds
i=0
while [ $i -lt "$N" ]; do
    for k in 1 2 3; do
        st=$("$B/jnt" run "$OUT/cp_$k.jnt" -o "" --stats 2>&1 | tail -n 1)
        printf '%s\n' "car_pendulum cp_$k: $st" >> "$RAW"
        printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p' >> "$OUT/cp_$k.cpu"
        printf '%s\n' "$st" > "$OUT/cp_$k.stats"
    done
    i=$((i + 1))
done
ref=$(agg < "$OUT/cp_3.cpu")
for k in 1 2 3; do
    st=$(cat "$OUT/cp_$k.stats")
    cpu=$(agg < "$OUT/cp_$k.cpu")
    nq=$("$B/jnt" emit "$OUT/cp_$k.jnt" 2>/dev/null | grep -o '"sheet\.q[0-9]*"' | wc -l)
    echo "| $(cp_label $k) | $nq | $cpu | $(printf '%s' "$st" | sed -n 's/^steps \([0-9]*\),.*/\1/p') |" \
         "$(printf '%s' "$st" | sed -n 's/.*rejected \([0-9]*\),.*/\1/p') |" \
         "$(printf '%s' "$st" | sed -n 's/.* jac \([0-9]*\),.*/\1/p') | $(ratio "$cpu" "$ref") |"
done
echo
echo "The $STAT_NAME of $N runs each (CPU of the integration, --stats). The unreduced model cannot run" \
     "in the floating frame here (the Newton matrix of a flexible body is formed densely in y);" \
     "section 7 measures reduced against unreduced on the clamped lap joint."
} | tee -a "$RES"
