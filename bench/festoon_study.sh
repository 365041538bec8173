#!/bin/sh
# bench/festoon_study.sh: the sensitivity study of examples/festoon.jnt
# (issue 30, item 4; docs/multibody.md, "The festoon cable system"). Each
# input the paper withholds (Rill and Schuderer 2023, Fig. 10 is not in its
# text) is varied alone about the example's values, one `jnt sweep` per
# input; the example's summary block gives, per run, trolley 1 at the
# reversal of Fig. 12a (t = 6.45-6.48 s) and trolley 2's sticking (Fig. 12b).
#   B=build sh bench/festoon_study.sh [--c] [OUT]
# writes OUT/festoon_<input>.csv (the sweeps' tables; OUT defaults to
# $B/festoon_study) and prints the table of the docs (markdown) on stdout.
# 71 runs of about 0.06 s each. tests/examples/test_festoon.c runs the same
# cases (its `study` list) and asserts the numbers the docs quote.
set -eu
B=${B:-build}
J=$B/jnt
MODE=md
if [ "${1:-}" = --c ]; then
    MODE=c
    shift
fi
OUT=${1:-$B/festoon_study}
MODEL=examples/festoon.jnt
mkdir -p "$OUT"

# input, then the sweep's options
sweep() {
    name=$1
    shift
    nice -n 10 "$J" sweep "$MODEL" "$@" -j 1 -o "$OUT/festoon_$name.csv"
}
sweep base --list h=1e-3                          # the example
sweep m_C --list m_C=0.5,1.5                     # kg, m_T = m_TC - m_C, c = w_c m_C (and the grid)
sweep m_TC --list m_TC=2.1,2.18                  # kg (F_N1 = 21.2 N: 2.16 kg static)
sweep d_c --list d_c=0,0.5,1,5,10,20              # N s/m
sweep T_r --list T_r=0.5,1.5,2                   # s, smoothstep ramps (and the grid)
sweep ramp --list ramp=0 --list T_r=0.5,1,1.5,2  # linear ramps
sweep v_s --list v_s=0.1e-3,0.5e-3,2e-3           # m/s
sweep v_d --list v_d=5e-3,20e-3,50e-3             # m/s
sweep sigma0 --list sigma0=1e6,1e8                # N/m, sigma1 = 2 sqrt(1 N / g sigma0)
sweep h --list h=0.5e-3,0.25e-3                   # s, the step (numerics, not an input)
# the two inputs that move the reversal, together
sweep grid --list m_C=0.8,0.9,1,1.1,1.2 --list T_r=0.5,0.75,1,1.25,1.5
# m_C finer through T1's change from sliding forwards to sliding back
sweep fine --list m_C=0.91,0.92,0.93,0.94,0.95,0.96,0.97,0.98,0.99,1.01,1.02,1.03,1.04,1.05,1.06,1.07,1.08,1.09

# The table: the inputs varied (SI units) and the outcome. T1's motion at
# 6.45 s and at 6.48 s: + forwards, - back, 0 stuck (|v| < 0.1 mm/s); the
# paper's is "+ to -" without sticking. With --c, the same rows as the C
# initialisers of tests/examples/test_festoon.c's `study` table.
if [ "$MODE" = md ]; then
    printf '| inputs | T1 at 6.45 s, 6.48 s | T1 stuck in 6.44-6.6 s | F_R1 at 6.45 s, 6.48 s (N) | F_N1 in 6.45-6.48 s (N) | T2 sticks |\n'
    printf '|---|---|---|---|---|---|\n'
fi
for f in base m_C m_TC d_c T_r ramp v_s v_d sigma0 h grid fine; do
    awk -F, -v mode="$MODE" -v f="$f" '
    function dir(v) { return v > 1e-4 ? "+" : v < -1e-4 ? "-" : "0" }
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; for (i = 1; i <= NF; i++) h[i] = $i; next }
    /^#/ { next }
    {
        val = ""; defs = ""
        for (i = 2; i < c["v1_645"]; i++) {
            val = val (val == "" ? "" : ", ") h[i] " = " $i
            defs = defs "\"" h[i] "=" $i "\", "
        }
        if (f == "base")
            val = "the example"
        if (mode == "c") {
            printf "    {{%s}, \"%s%s\", %.0f, %.3f, %.3f, %.2f, %.2f, %.2f, %.2f},\n", defs, \
                dir($c["v1_645"]), dir($c["v1_648"]), 1000 * $c["stick1"], $c["FR1_645"], \
                $c["FR1_648"], $c["FN1"], $c["t2_from"], $c["t2_to"], $c["stick2"]
            next
        }
        if ($c["t2_to"] <= $c["t2_from"])
            t2 = sprintf("moving at 7.5 s (stuck %.2f s in 7.2-7.8 s)", $c["stick2"])
        else if ($c["t2_to"] >= 10)
            t2 = sprintf("%.2f s to the end", $c["t2_from"])
        else
            t2 = sprintf("%.2f-%.2f s", $c["t2_from"], $c["t2_to"])
        printf "| %s | %s to %s | %.0f ms | %+.3f, %+.3f | %.2f | %s |\n", val, \
            dir($c["v1_645"]), dir($c["v1_648"]), 1000 * $c["stick1"], \
            $c["FR1_645"], $c["FR1_648"], $c["FN1"], t2
    }' "$OUT/festoon_$f.csv"
done
