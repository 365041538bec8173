#!/bin/sh
# docs/tutorial.md against what its model gives: the model and the gnuplot
# script are taken from the page's code blocks, run, and every number the
# page prints is compared with the run (so the page cannot drift from the
# code). Run from the repository root with B set.
B=${B:-build}
J=$PWD/$B/jnt
DOC=$PWD/docs/tutorial.md
pass() { echo "PASS: tutorial: $*"; }
fail() { echo "FAIL: tutorial: $*"; }
W=$(mktemp -d "${TMPDIR:-/tmp}/jnt-tutorial.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
# the page as rendered: its figures' markers (<!--m:KEY-->) taken out
sed 's/<!--m:[^>]*-->//g' "$DOC" > page.md
DOC=$W/page.md
# the page's code block of a language (```jnt, ```gnuplot)
block() { awk -v lang="$1" '$0 == "```" lang { f = 1; next } /^```/ { f = 0 } f' "$DOC"; }
block jnt > slider.jnt
block gnuplot > slider.gp

# 1. jnt check is silent; the mistake the page shows gives the page's message
if "$J" check slider.jnt > out.txt 2>&1 && [ ! -s out.txt ]; then pass "jnt check slider.jnt: silent, exit 0"
else fail "jnt check: $(cat out.txt)"; fi
sed 's|stiffness = k }|stiffness = 100 N }|' slider.jnt > bad.jnt
want=$(grep '^slider.jnt:[0-9]*:[0-9]*: error: ' "$DOC" | sed 's/^slider.jnt/bad.jnt/')
got=$("$J" check bad.jnt 2>&1 | head -1)
[ -n "$want" ] && [ "$got" = "$want" ] && pass "the stiffness mistake: $got" ||
    fail "the stiffness mistake: got '$got', page '$want'"

# 2. the counters of --stats (all but the CPU time)
"$J" run slider.jnt --stats 2> stats.txt
nocpu() { sed 's/, cpu .*//'; }
want=$(grep '^steps [0-9]*, rejected' "$DOC" | nocpu)
got=$(grep '^steps ' stats.txt | nocpu)
[ -n "$want" ] && [ "$got" = "$want" ] && pass "--stats: $got" ||
    fail "--stats: the run gives '$got', the page prints '$want'"

# 3. the CSV lines the page shows are lines of the file (the '...' aside)
awk '/^## 3\./ { s = 1 } /^## 4\./ { s = 0 } s && /^```$/ { f = !f; next } s && f && $0 != "..."' \
    "$DOC" > shown.txt
missing=$(grep -vxFf slider.csv shown.txt)
[ "$(wc -l < shown.txt)" -ge 6 ] && [ -z "$missing" ] &&
    pass "the $(wc -l < shown.txt) CSV lines shown (header, units, provenance, rows, end) are in slider.csv" ||
    fail "CSV lines on the page but not in the file: $missing"
# the turning points and where the block sticks: x = -0.1411 m at t = 0.315 s, 0.0823 m,
# -0.0234 m; a loss of 2 mu_d m g / k = 5.89 cm a swing
turns=$(awk -F, '/^#/ || NR == 1 { next } { if (n && ((pv < 0 && $3 >= 0) || (pv > 0 && $3 <= 0))) { k++; if (k <= 3) printf "%s%.4f@%.3f", (k > 1 ? " " : ""), $2, $1 } pv = $3; n++ }' slider.csv)
[ "$turns" = "-0.1411@0.315 0.0823@0.629 -0.0234@0.943" ] &&
    grep -q 'turns at x = -0.1411 m (t = 0.315 s), 0.0823 m and -0.0234 m' "$DOC" &&
    pass "turning points $turns (x@t), as the page says" || fail "turning points: $turns"
# the page's figures (docs/testing.md, "Numbers in the docs"): the turns, the
# loss a swing, the sliding friction force, the spring force where it sticks
awk -F, '/^#/ || NR == 1 { next }
    NR == 5 { printf "MEASURE: tutorial.slide_force %.17g\n", ($5 < 0 ? -$5 : $5) }
    { if (n && ((pv < 0 && $3 >= 0) || (pv > 0 && $3 <= 0))) { k++
          if (k <= 3) printf "MEASURE: tutorial.turn%d.x %.17g\n", k, $2
          if (k == 1) printf "MEASURE: tutorial.turn1.t %.17g\n", $1
          if (k == 3) printf "MEASURE: tutorial.loss %.17g\n", (x0 - ($2 < 0 ? -$2 : $2)) / 3 }
      if (!n) x0 = $2; pv = $3; n++; xl = $2; fl = $4 }
    END { printf "MEASURE: tutorial.stick_spring_force %.17g\n", (fl < 0 ? -fl : fl) }' slider.csv

# 4. the gnuplot script: noenhanced after the terminal, a picture written
if [ "$(grep -n 'set terminal' slider.gp | cut -d: -f1)" -lt "$(grep -n 'set termoption noenhanced' slider.gp | cut -d: -f1)" ] &&
   gnuplot slider.gp 2> gp.txt && [ "$(wc -c < slider.png)" -gt 10000 ] && [ ! -s gp.txt ]; then
    pass "slider.gp: 'set termoption noenhanced' after 'set terminal', slider.png written, no warning"
else fail "slider.gp: $(cat gp.txt)"; fi
if "$J" plot slider.csv 2> /dev/null && [ -s slider.png ]; then pass "jnt plot slider.csv"
else fail "jnt plot slider.csv"; fi

# 5. x0 = 5 cm: the block only deflects the bristle, x = 0.049999 m at the end
"$J" run slider.jnt -D x0=5cm -o small.csv 2> /dev/null
last=$(tail -2 small.csv | head -1 | cut -d, -f2)
if tail -1 small.csv | grep -q '^# jnt: complete at t = 3 s$' &&
   awk -v x="$last" 'BEGIN { exit !(x > 0.049998 && x < 0.05) }' &&
   grep -q 'shows the last row, x =' "$DOC"; then
    pass "x0 = 5 cm: last row x = $last (page: 0.049999 m), then the end line"
    echo "MEASURE: tutorial.small.x $last"
    awk -v x="$last" 'BEGIN { printf "MEASURE: tutorial.small.deflection %.17g\n", 0.05 - x }'
else fail "x0 = 5 cm: tail -2 gives $(tail -2 small.csv)"; fi
