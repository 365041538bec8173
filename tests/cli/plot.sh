#!/bin/sh
# jnt plot and jnt run --plot (compiler/cli/plot.c), per-command help,
# simulators' --version. Run from the repository root with B set.
B=${B:-build}
J=$PWD/$B/jnt
ROOT=$PWD
pass() { echo "PASS: plot: $*"; }
fail() { echo "FAIL: plot: $*"; }
W=$(mktemp -d "${TMPDIR:-/tmp}/jnt-plot.XXXXXX")
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
png() { [ "$(od -An -c -N4 "$1" 2>/dev/null | tr -d ' ')" = "211PNG" ] && [ "$(wc -c < "$1")" -gt 10000 ]; }

# jnt run --plot: the model's CSV, then its picture beside it
if "$J" run "$ROOT/examples/frdyn2_bench.jnt" --plot 2> err.txt && png frdyn2_bench.png &&
        grep -q "wrote 'frdyn2_bench.png'" err.txt; then
    pass "jnt run --plot writes frdyn2_bench.png ($(wc -c < frdyn2_bench.png) bytes) and says so"
else
    fail "jnt run --plot: $(cat err.txt)"
fi
# every column a panel against t, with its name and unit (the CSV's '# units:' line) on the axis
JNT_PLOT_SCRIPT=1 "$J" plot frdyn2_bench.csv -o all.svg 2> script.txt
n=$(grep -c '^plot "frdyn2_bench.csv" skip 1 using 1:' script.txt)
if [ "$n" = 4 ] && grep -q "multiplot layout 4,1" script.txt && grep -q '>F_R \[N\]<' all.svg &&
        grep -q '^set xlabel "t \[s\]"' script.txt && grep -q '^set ylabel "v \[m/s\]"' script.txt; then
    pass "4 panels over t (u, v, F, F_R), names and units on the axes of the SVG (F_R [N], v [m/s])"
else
    fail "panels: $n plot commands; $(head -3 script.txt)"
fi
JNT_PLOT_SCRIPT=1 "$J" plot frdyn2_bench.csv -x u -y F,F_R --overlay -o o.png 2> script.txt
if png o.png && grep -q 'using 2:4 with lines lw 1.5 title "F \[N\]", "frdyn2_bench.csv" skip 1 using 2:5' \
        script.txt; then
    pass "--overlay: F and F_R against u in one panel with a key"
else
    fail "--overlay: $(grep '^plot' script.txt)"
fi
# a sweep table: a curve against its parameter, a heat map over two
"$J" sweep "$ROOT/examples/frdyn2_bench.jnt" --grid ratio=0.8:1:0.1 --grid tE=1ms:2ms:0.5ms \
    -o table.csv -j 1 2> /dev/null
JNT_PLOT_SCRIPT=1 "$J" plot table.csv -x ratio -y tE -z u -o heat.png 2> script.txt
if png heat.png && grep -q "using 2:3:5 with image" script.txt; then
    pass "a heat map of u over the sweep's (ratio, tE) grid"
else
    fail "heat map: $(cat script.txt | tail -3)"
fi
"$J" sweep "$ROOT/examples/frdyn2_bench.jnt" --grid ratio=0.8:1:0.1 -o t1.csv -j 1 2> /dev/null
JNT_PLOT_SCRIPT=1 "$J" plot t1.csv -y u 2> script.txt
if png t1.png && grep -q "using 2:4 with linespoints" script.txt; then
    pass "a sweep table's result against its parameter (x defaults to it)"
else
    fail "sweep curve: $(grep '^plot' script.txt)"
fi
# errors: a column that is not there, a missing file, a bad picture name,
# a NumPy file, no gnuplot
"$J" plot frdyn2_bench.csv -y F_r 2> err.txt; rc=$?
if [ $rc = 1 ] && grep -q "no column 'F_r' (columns: t, u, v, F, F_R)" err.txt; then
    pass "an unknown column is named with the columns (exit 1)"
else
    fail "unknown column: exit $rc, $(cat err.txt)"
fi
"$J" plot nothere.csv 2> err.txt; rc=$?
[ $rc = 1 ] && grep -q "cannot read 'nothere.csv'" err.txt && pass "a missing file (exit 1)" \
    || fail "missing file: exit $rc, $(cat err.txt)"
"$J" plot frdyn2_bench.csv -o x.jpg 2> err.txt; rc=$?
[ $rc = 2 ] && grep -q "must end in .png or .svg" err.txt && pass "a picture not .png/.svg (exit 2)" \
    || fail "bad picture: exit $rc, $(cat err.txt)"
"$J" run "$ROOT/examples/frdyn2_bench.jnt" -o b.npy > /dev/null 2>&1
"$J" plot b.npy 2> err.txt; rc=$?
[ $rc = 1 ] && grep -q "NumPy file" err.txt && pass "a .npy file is refused with a hint" \
    || fail ".npy: exit $rc, $(cat err.txt)"
"$J" run "$ROOT/examples/frdyn2_bench.jnt" -o - --plot > /dev/null 2> err.txt; rc=$?
[ $rc = 2 ] && grep -q "'--plot' needs the output in a CSV file" err.txt && pass "--plot with -o -" \
    || fail "--plot -o -: exit $rc, $(cat err.txt)"
mkdir -p nobin
PATH="$W/nobin" "$J" plot frdyn2_bench.csv 2> err.txt; rc=$?
[ $rc = 1 ] && grep -q "needs gnuplot (Debian package gnuplot-nox)" err.txt && pass "no gnuplot: named" \
    || fail "no gnuplot: exit $rc, $(cat err.txt)"

# per-command help
"$J" run --help > h.txt; rc=$?
if [ $rc = 0 ] && grep -q '^usage: jnt run MODEL.jnt' h.txt && grep -q -- '--plot' h.txt &&
        ! grep -q '^commands:' h.txt; then
    pass "jnt run --help is run's own"
else
    fail "jnt run --help: $(head -2 h.txt)"
fi
for c in check emit build plot animate; do
    "$J" $c --help | head -1 | grep -q "^usage: jnt $c" && pass "jnt $c --help" || fail "jnt $c --help"
done
# a built simulator's --version
if "$J" build "$ROOT/examples/frdyn2_bench.jnt" -o sim 2> /dev/null &&
        ./sim --version | grep -q "model 'frdyn2_bench' (.*frdyn2_bench.jnt), jnt [0-9.]* (ABI"; then
    pass "simulator --version: $(./sim --version)"
else
    fail "simulator --version"
fi

# hints where the cause is likely
note() { echo "PASS: hints: $*"; }
"$J" run "$ROOT/tests/cli/diverge.jnt" -o d.csv 2> err.txt
grep -q "note: under the explicit integrator 'rk4' this is often a step too large" err.txt &&
    note "a non-finite state under rk4 suggests a smaller step or an implicit integrator" ||
    fail "no hint after a diverging rk4 run: $(cat err.txt)"
"$J" run "$ROOT/tests/cli/diverge.jnt" -o d.csv --integrator bdf 2> err.txt
! grep -q "note: under the explicit" err.txt && note "no such hint under bdf" ||
    fail "the explicit-integrator hint under bdf: $(cat err.txt)"
"$J" run "$ROOT/examples/cantilever_modes.jnt" 2> err.txt
grep -q "analysis 'modes' wrote 'modes.csv'" err.txt && [ -s modes.csv ] &&
    note "every file an analysis writes is announced" || fail "analysis files: $(cat err.txt)"

# the integrators the help texts and docs/cli.md list are the runtime's (its
# message for an unknown one names them all)
"$J" run "$ROOT/examples/frdyn2_bench.jnt" -o x.csv --integrator nope 2> err.txt
known=$(sed -n 's/.*(known: \(.*\))$/\1/p' err.txt | tr -c 'a-z0-9_\n' ' ')
"$J" run --help > h1.txt; "$J" --help > h2.txt
"$J" build "$ROOT/examples/frdyn2_bench.jnt" -o sim2 2> /dev/null && ./sim2 --help > h3.txt
miss=""
for k in $known; do
    case $k in for|multibody|models) continue ;; esac
    for f in h1.txt h2.txt h3.txt "$ROOT/docs/cli.md"; do
        grep -q "\b$k\b" "$f" || miss="$miss $k($(basename "$f"))"
    done
done
[ -n "$known" ] && [ -z "$miss" ] && note "every integrator ($(echo $known | tr -s ' ')) in the help texts and docs/cli.md" ||
    fail "integrators missing from help/docs:$miss (known: $known)"

# the plot commands in the examples' headers ("//   jnt run ...", "//   jnt plot ..."), run
# from a clean directory as a user would: every picture they name is written
for ex in car_pendulum lap_joint iwan_interface iwan_interface/full iwan_interface/rom; do
    mkdir -p "ex_$$" && rm -f ex_$$/* && cd "ex_$$" || exit 1
    ok=1 n=0
    grep '^//   jnt \(run\|plot\) ' "$ROOT/examples/$ex.jnt" | sed 's|^//   jnt ||; s|  *#.*||' > cmds.txt
    while read -r cmd; do
        set -- $cmd
        sub=$1; shift
        if [ "$sub" = run ]; then model=$ROOT/$1; shift; "$J" run "$model" "$@" > /dev/null 2>&1 || ok=0
        else "$J" plot "$@" > /dev/null 2>&1 || ok=0; fi
        n=$((n + 1))
    done < cmds.txt
    pics=$(ls *.png 2> /dev/null | wc -l)
    cd ..
    [ "$ok" = 1 ] && [ "$n" -ge 2 ] && [ "$pics" -ge 1 ] &&
        pass "examples/$ex.jnt: its $n plot commands run, $pics picture(s)" ||
        fail "examples/$ex.jnt: plot commands ($n, $pics pictures): $(cat ex_$$/cmds.txt)"
done

# --spectrogram: the STFT of two tones (3 and 8 kHz, amplitudes 1 and 0.5) against numpy's
# (examples/beam_on_beam_spec.py, an independent transform) and against the tones
awk 'BEGIN { print "t,a_T"; pi = 3.141592653589793
             for (i = 0; i <= 10000; i++) { t = i * 1e-5
                 printf "%.10g,%.17g\n", t, sin(2 * pi * 3000 * t) + 0.5 * sin(2 * pi * 8000 * t) }
             print "# jnt: complete at t = 0.1 s" }' > tones.csv
if "$J" plot tones.csv --spectrogram a_T 2> spec.err && png tones_spec.png &&
   grep -q "16 frames of 1025 bins" spec.err; then
    pass "--spectrogram: tones_spec.png and its data tones_spec_stft.csv (16 frames of 1025 bins)"
else fail "--spectrogram: $(cat spec.err)"; fi
if /usr/bin/python3 "$ROOT/examples/beam_on_beam_spec.py" tones.csv -o py.csv --no-png 2> /dev/null &&
   awk -F, 'FNR <= 2 || NF < 3 { next } FILENAME == "py.csv" { m[FNR] = $3; next }
        { if (m[FNR] > -150) { d = $3 - m[FNR]; if (d < 0) d = -d; if (d > w) w = d } }
        END { printf "%.1g dB", w > "/dev/stderr"; exit !(w < 1e-4) }' py.csv tones_spec_stft.csv 2> d.txt
then pass "--spectrogram: numpy's STFT of the same column to $(cat d.txt) (its 4 printed decimals)"
    echo "MEASURE: plot.stft_vs_numpy $(sed 's/ dB//' d.txt)"
else fail "--spectrogram differs from numpy's: $(cat d.txt)"; fi
# the first frame's two largest bins: 48.8 Hz apart, the tones' next bins, about 0 and -6 dB
if awk -F, 'FNR <= 2 || NF < 3 { next } $1 != t0 && t0 != "" { exit } { t0 = $1
        if ($2 > 2900 && $2 < 3050 && $3 > a) a = $3; if ($2 > 7950 && $2 < 8050 && $3 > b) b = $3 }
        END { printf "%.2f and %.2f dB", a, b > "/dev/stderr"; exit !(a > -1.5 && a < 0 && b > -7.5 && b < -6) }' \
        a=-999 b=-999 tones_spec_stft.csv 2> pk.txt
then pass "--spectrogram: the tones at 3 and 8 kHz, $(cat pk.txt) (1 and 0.5: 0 and -6 dB less the Hann window's scalloping)"
else fail "--spectrogram: the tones' bins $(cat pk.txt)"; fi
"$J" plot tones.csv --spectrogram a_T --window 1000 2> /dev/null; rc1=$?
"$J" plot tones.csv --spectrogram nope 2> nope.err; rc2=$?
"$J" plot tones.csv --spectrogram a_T -o bad.txt 2> /dev/null; rc3=$?
[ $rc1 = 2 ] && [ $rc2 = 1 ] && [ $rc3 = 2 ] && [ ! -e bad_stft.csv ] &&
    grep -q "no column 'nope'" nope.err &&
    pass "--spectrogram: a window not a power of two (2), an unknown column (1), a picture not .png or .svg (2, no data written)" ||
    fail "--spectrogram errors: exit $rc1, $rc2, $rc3: $(cat nope.err)"
# a CSV with only its header (a run stopped before its first row): an error, and no empty picture
printf 't,x\n# units: s,m\n' > header_only.csv
"$J" plot header_only.csv -o header_only.png 2> ho.err; rc=$?
[ $rc = 1 ] && [ ! -e header_only.png ] && grep -q "has no rows, only its header" ho.err &&
    pass "a CSV without rows: exit 1, said so, no picture left" ||
    fail "a CSV without rows: exit $rc, $(cat ho.err), picture: $(ls header_only.png 2>&1)"

# issue 32: plots that do not mislead. The heavy top's energy varies by about 1e-10 J on
# 20.94 J: the axis shows E - OFFSET (matplotlib's offset text), not every tick "20.9372"
"$J" run "$ROOT/examples/heavy_top.jnt" -o top.csv > /dev/null 2>&1
# docs/cli.md's figures: the energy and how far it varies (docs/testing.md)
awk -F, '/^#/ || NR == 1 { next } { if (!n || $5 < lo) lo = $5; if (!n || $5 > hi) hi = $5; n++ }
    END { printf "MEASURE: plot.top.energy %.17g\nMEASURE: plot.top.energy_range %.17g\n",
          (lo + hi) / 2, hi - lo }' top.csv
JNT_PLOT_SCRIPT=1 "$J" plot top.csv -y E -o top.svg 2> script.txt
ticks=$(sed -n 's/.*>[ ]*\(-\{0,1\}[0-9][0-9.e+-]*\)<.*/\1/p' top.svg | sort -u | tr '\n' ' ')
if grep -q '^set ylabel "E - 20\.937185096 \[' script.txt &&
        grep -q 'using 1:(\$5 - 20\.937185096) with' script.txt &&
        ! grep -q '>[ ]*20\.937' top.svg && [ "$(echo $ticks | tr ' ' '\n' | grep -c 'e-1[01]$')" -ge 3 ]; then
    pass "a tiny range: the heavy top's energy axis reads E - $(sed -n 's/^set ylabel "E - \([0-9.]*\).*/\1/p' script.txt), ticks $ticks"
else
    fail "offset axis: $(grep -E 'ylabel|^plot' script.txt), ticks $ticks"
fi
# an axis of ordinary range keeps its values (z of the top: 0.0936 to 0.0956 m)
JNT_PLOT_SCRIPT=1 "$J" plot top.csv -y z -o z.svg 2> script.txt
grep -q '^set ylabel "z \[m\]"' script.txt && grep -q 'using 1:4 with' script.txt &&
    pass "an ordinary range has no offset (z [m])" || fail "no offset expected: $(grep -E 'ylabel|^plot' script.txt)"
# a two-parameter sweep as lines: one line per value of the other parameter, with a key
JNT_PLOT_SCRIPT=1 "$J" plot table.csv -x ratio -y u -o lines.svg 2> script.txt
keys=$(grep -o 'title "tE = [0-9.e-]* s"' script.txt | tr '\n' ';')
# each line of the SVG: the points of its path's last segment (the first is the key's sample)
npts=$(awk '/<g id="gnuplot_plot_[0-9]+"/ { g = 1; next } g && /<path/ {
           n = split($0, seg, "M"); k = gsub(/ L/, "&", seg[n]); printf "%d ", k + 1; g = 0 }' lines.svg)
if [ "$(grep -c 'using 2:((\$3 == ' script.txt)" = 1 ] && [ "$(echo "$keys" | tr ';' '\n' | grep -c tE)" = 3 ] &&
        grep -q 'set datafile missing NaN' script.txt && [ "$npts" = "3 3 3 " ]; then
    pass "a two-parameter sweep as lines: 3 lines of 3 points, one per tE ($keys)"
else
    fail "sweep lines: keys '$keys', points per line '$npts'; $(grep '^plot' script.txt | cut -c1-300)"
fi
# too many lines: refused with a hint (exit 2)
"$J" sweep "$ROOT/examples/frdyn2_bench.jnt" --grid ratio=0.8:1:0.1 --grid tE=1ms:2.6ms:0.1ms \
    -o many.csv -j 1 2> /dev/null
"$J" plot many.csv -x ratio -y u -o many.png 2> err.txt; rc=$?
[ $rc = 2 ] && [ ! -e many.png ] && grep -q "more than 16 values.*heat map (-y tE -z u)" err.txt &&
    pass "17 values of the other parameter: refused with a hint (exit 2)" ||
    fail "too many lines: exit $rc, $(cat err.txt)"
# units from the sweep table's comment line: the heat map's axes and colour bar
JNT_PLOT_SCRIPT=1 "$J" plot table.csv -x ratio -y tE -z u -o heat2.png 2> script.txt
grep -q '^set ylabel "tE \[s\]"' script.txt && grep -q '^set cblabel "u \[m\]"' script.txt &&
    grep -q '^set xlabel "ratio"' script.txt && sed -n 2p table.csv | grep -q '; swept: ratio,tE; units: ,,s,s,m,m/s,N,N,,,s$' &&
    pass "a sweep table's units (its comment line) on the heat map: tE [s], u [m]" ||
    fail "heat-map units: $(grep label script.txt); $(sed -n 2p table.csv)"
