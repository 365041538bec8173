# bench/car_pendulum.sh: section 12 of `make bench`, sourced by bench/run.sh
# (uses its B, OUT, RAW, RES, N, STAT and helpers). Alone:
#   B=build sh bench/car_pendulum.sh      (runs bench/run.sh with BENCH_SECTIONS=12)
#
# Seed 000's car pendulum (examples/car_pendulum.jnt, issue 13): FORCE0 with
# friction over 2.5 s, the sheet reduced with 20 more normal modes, with the
# example's JTVs, and with the largest basis (40 more normal modes and the
# JTVs); CPU time (--stats) of each, the STAT of N runs taking turns, and as
# ratios to the largest basis. The unreduced model of that mesh (3212 DOFs)
# is beyond the runtime's blocks (JNT_MAX_BLOCK = 1024 coordinates, dense
# r x r matrices), so the second table runs the same model on the lap
# joint's 10 mm mesh (examples/lap_joint/: 400 DOFs, 60 contact pairs)
# unreduced (388 elastic coordinates, every contact pair physical) against
# its reductions, over the first 0.1 s, BENCH12_N rounds (default 3): seed
# 000 reports 0.2 % of the unreduced CPU time with 60 JTVs. Longer is not
# practical: to 0.3 s the unreduced model took 79 s and 731 s in two runs
# (6,527 and 54,631 steps, a third of them rejected: its contact pairs
# chatter once the load is on, and the step control follows rounding)
# against 0.062 s with the JTVs.
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
echo "The same model on the lap joint's 10 mm mesh (400 DOFs, 60 contact pairs), FORCE0 with friction," \
     "0.1 s:"
echo
echo "| basis | coordinates | CPU (s) | steps | rejected | Jacobians | CPU relative to unreduced |"
echo "|---|---:|---:|---:|---:|---:|---:|"
N12=${BENCH12_N:-3}
cl_label() { case $1 in 1) echo "unreduced (every contact pair physical)" ;; 2) echo "20 more normal modes" ;;
                        3) echo "5 NM + 2 static + JTVs" ;; 4) echo "45 NM + 2 static + JTVs" ;; esac; }
cl_basis() { case $1 in 1) echo "" ;; 2) echo "reduce  = modal(modes = 25) + static(at = load)" ;;
                        3) echo "reduce  = modal(modes = 5) + static(at = load) + $CPJ" ;;
                        4) echo "reduce  = modal(modes = 45) + static(at = load) + $CPJ" ;; esac; }
for k in 1 2 3 4; do
    sed -e "s|^  reduce .*// REDUCE\$|  $(cl_basis $k)|" \
        -e "s|\"car_pendulum/|\"$PWD/examples/lap_joint/|g" \
        -e 's/^const dx    = 1.25 mm/const dx    = 10 mm/' -e 's/^const n     = 480 /const n     = 60  /' \
        examples/car_pendulum.jnt > "$OUT/cl_$k.jnt"
done
cp_runs cl "$N12" "1 2 3 4" -D "t_end=0.1 s"
ref=$(agg < "$OUT/cl_1.cpu")
for k in 1 2 3 4; do cp_row cl $k "$(cl_label $k)" "$ref"; done
echo
echo "The $STAT_NAME of $N12 runs each. The 3212-DOF mesh unreduced exceeds JNT_MAX_BLOCK (1024)."
} | tee -a "$RES"
