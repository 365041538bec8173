# bench/scaling.sh: section 9 of `make bench`, sourced by bench/run.sh (uses
# its B, OUT, RAW, RES and helpers).
#
# The implicit integrators on multimass chains (examples/multimass.jnt with
# n masses, the reference law, case 2) of n = 100, 400, 1,600 and 6,400
# masses (2n states): the run's CPU time per step (--stats) over 0.2 s
# (h = 1 ms for the fixed-step methods; bdf at rtol 1e-6, atol 1e-9), the
# log-log slope of the cost per step against n fitted over the four sizes
# (goal: at most 1.2), and the process's CPU (user + sys) against its wall
# time (one BLAS thread: equal within 10 %). The dense path
# (JNT_LINSOLVE=dense) runs beside the sparse one up to n = 400.
SC_SIZES="100 400 1600 6400"
SC_INTEG="bdf radau trapezoidal midpoint"
{
echo
echo "## 9. Scaling of the implicit integrators (multimass chains)"
echo
echo "| integrator | path | n = 100 (us/step) | n = 400 | n = 1600 | n = 6400 | log-log slope | slope <= 1.2 | worst CPU / wall |"
echo "|---|---|---:|---:|---:|---:|---:|---|---:|"
for n in $SC_SIZES; do
    sed -e "s/^const n     = 100$/const n     = $n/" examples/multimass.jnt > "$OUT/mm_$n.jnt"
done
for ig in $SC_INTEG; do
    for path in sparse dense; do
        cells="" pts="" worst=0
        for n in $SC_SIZES; do
            if [ "$path" = dense ] && [ "$n" -gt 400 ]; then cells="$cells | -"; continue; fi
            st=$(JNT_LINSOLVE=$path /usr/bin/time -f "time %e %U %S" "$B/jnt" run "$OUT/mm_$n.jnt" \
                 -o "" --integrator "$ig" -D "t_end=0.2 s" --stats 2>&1)
            printf '%s\n' "scaling $ig $path n=$n: $(printf '%s' "$st" | tr '\n' ' ')" >> "$RAW"
            cpu=$(printf '%s\n' "$st" | sed -n 's/.*cpu \([0-9.e+-]*\) s.*/\1/p')
            steps=$(printf '%s\n' "$st" | sed -n 's/^steps \([0-9]*\),.*/\1/p')
            us=$(awk -v c="$cpu" -v s="$steps" 'BEGIN { if (s > 0 && c != "") printf "%.3g", c / s * 1e6; else printf "n/a" }')
            cells="$cells | $us"
            [ "$us" != n/a ] && pts="$pts $n $us"
            worst=$(printf '%s\n' "$st" | awk -v w="$worst" '/^time / { r = ($3 + $4) / ($2 > 0 ? $2 : 1);
                if (r > w) w = r } END { printf "%.2f", w }')
        done
        slope=$(printf '%s\n' $pts | paste - - | awk '{ x = log($1); y = log($2); n++; sx += x; sy += y;
            sxx += x * x; sxy += x * y } END { if (n >= 2) printf "%.2f", (n * sxy - sx * sy) / (n * sxx - sx * sx); else printf "n/a" }')
        ok=n/a
        [ "$path" = sparse ] && ok=$(awk -v s="$slope" 'BEGIN { print (s != "n/a" && s <= 1.2) ? "yes" : "no" }')
        echo "| $ig | $path$cells | $slope | $ok | $worst |"
    done
done
echo
echo "CPU per step of the integration (--stats), one run each; the slope is fitted over the sizes run." \
     "CPU / wall: the whole process (user + sys over elapsed, /usr/bin/time), which includes compiling the model."
echo "The sparse path (KLU) is the default for these models; the dense path (LAPACK, JNT_LINSOLVE=dense, the same" \
     "modified Newton) is what they took before, with a Jacobian and an LU at every step for the fixed-step methods."
} | tee -a "$RES"
