#!/bin/sh
# bench/e4_stick_study.sh: issue 30 item 1, when mass 2 of Bauchau et al. 2006
# E4 sticks for good in Fig. 3.6's free response (N = 40 N, r = 1; the thesis
# and part D: "completely stuck at a time of about 20 s"), and which input or
# reading decides it. docs/sweeps.md ("Fig. 3.6: when mass 2 sticks for
# good") shows the tables.
# Re-run (from the repository root, after `make B=build/<you> -j1 build`):
#   B=build/<you> sh bench/e4_stick_study.sh
# 1. bench/e4_stick_study.c (gcc -O2, no jnt code; a few seconds): the
#    thesis' equations with fixed-step RK4 at 1 ms (the thesis') and 20 us,
#    one input or reading changed per row; its header lists them.
# 2. The cross-check through jnt: examples/stribeck_3dof.jnt, RK4 at 1 ms and
#    20 us, with Table 3.1's m3 = 50 kg (k4 = 450 N/m by eq. 3.11 at r = 1,
#    the example's default) and with m3 = 100 kg (k4 = 1000 N/m, Table 3.1's):
#    the last 1 ms output row with |v2| > v_s = 1 mm/s.
# Output: markdown tables on stdout; the program and CSVs in $OUT (default
# /tmp/e4_stick_study).
B=${B:-build}
OUT=${OUT:-/tmp/e4_stick_study}
mkdir -p "$OUT"
gcc -O2 -std=c11 -Wall -Wextra -Werror -o "$OUT/e4_stick_study" bench/e4_stick_study.c -lm || exit 1
"$OUT/e4_stick_study" || exit 1
echo
echo "| jnt, examples/stribeck_3dof.jnt | h = 1 ms: stuck from (s) | h = 20 us: stuck from (s) |"
echo "|---|---:|---:|"
for m in 50 100; do
    row="| m3 = $m kg (k4 by eq. 3.11 at r = 1)"
    for h in 1ms 20us; do
        "$B/jnt" run examples/stribeck_3dof.jnt -D m3="$m" --h "$h" -o "$OUT/j_${m}_$h.csv" > /dev/null 2>&1 || exit 1
        t=$(awk -F, '/^#/ { next } $1 == "t" { for (i = 1; i <= NF; i++) c[$i] = i; next }
                     { v = $(c["v2"]); if (v > 1e-3 || v < -1e-3) last = $1 } END { printf "%.3f", last }' \
                "$OUT/j_${m}_$h.csv")
        row="$row | $t"
    done
    echo "$row |"
done
