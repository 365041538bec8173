# bench/output.sh: section 10 of `make bench`, sourced by bench/run.sh (uses
# its B, OUT, RAW, RES, N and helpers).
#
# What output costs: FrDyn2 (examples/frdyn2_bench.jnt) to t = 0.1 s with its
# 10 us grid (10,001 rows), the run's CPU time (--stats: integration, the
# grid's interpolation and output kernel, and writing) without a file, to
# .npy, to .mat (MAT-file: rows to a scratch, columns written at close) and
# to CSV (shortest round-trip numbers), the STAT of N runs each; the output
# share is (with file - without) / with file. Goal: at most 25 %.
{
echo
echo "## 10. Output cost: FrDyn2 to 0.1 s, 10,001 rows"
echo
echo "| output | run CPU (ms) | output share | share <= 25 % |"
echo "|---|---:|---:|---|"
t_none=""
for o in none npy mat csv; do
    case $o in
        none) path="" ;; npy) path="$OUT/out10.npy" ;; mat) path="$OUT/out10.mat" ;;
        csv) path="$OUT/out10.csv" ;;
    esac
    v="" i=0
    while [ $i -lt "$N" ]; do
        v="$v $("$B/jnt" run examples/frdyn2_bench.jnt -o "$path" -D "t_end=0.1 s" --stats 2>&1 |
                sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p')"
        i=$((i + 1))
    done
    t=$(printf '%s\n' $v | agg)
    printf '%s\n' "output $o:$v" >> "$RAW"
    [ $o = none ] && t_none=$t
    share=$(awk -v a="$t" -v b="$t_none" 'BEGIN { if (a > 0) printf "%.0f %%", (a - b) / a * 100; else printf "n/a" }')
    ok=$(awk -v a="$t" -v b="$t_none" 'BEGIN { print (a > 0 && (a - b) / a <= 0.25) ? "yes" : "no" }')
    [ $o = none ] && share="-" ok="-"
    echo "| $o | $(ms "$t") | $share | $ok |"
done
echo
echo "The $STAT_NAME of $N runs. Without a file the grid is still interpolated and the output kernel run."
} | tee -a "$RES"
