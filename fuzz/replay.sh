#!/bin/sh
# Replay the fuzzers' findings (tests/fuzz-regressions/{compile,data,sweepspec,table}/) and the
# seed corpus through the jnt command line: every input must end with a status
# (0, 1 or 2) within 10 s, never a signal. Run by make test (tests/run.sh).
B=${B:-build}
J=$(pwd)/$B/jnt
T=$B/tests/fuzz
mkdir -p "$T"
n=0; bad=0
for f in tests/fuzz-regressions/compile/* tests/fuzz-regressions/data/*; do
    [ -f "$f" ] || continue
    case "$f" in */data/*) cp "$f" "$T/M.mtx"
        printf 'model f\nsubstructure d : fe(mass = "M.mtx", stiffness = "M.mtx", nodes = "M.mtx") { }\n' > "$T/f.jnt"
        in=$T/f.jnt ;;
    *) in=$f ;; esac
    timeout 10 "$J" check "$in" > /dev/null 2>&1
    rc=$?
    n=$((n + 1))
    if [ $rc -gt 2 ]; then bad=$((bad + 1)); echo "FAIL: fuzz regression $f: exit $rc"; fi
done
# jnt sweep's parameter texts (fuzz_sweepspec: the first byte picks --grid, --list, --dist or
# --samples) and tables read back by --resume (fuzz_table: bit 0 of the first byte puts the
# sweep's header first, bit 1 its comment line), on fuzz_table's sweep: a, b swept, results x, y
printf 'model s\nparam a = 1\nparam b = 1\nparam k = 1\nbody p : point(mass = 1 kg) { dof u }\nsimulate { integrator = rk4(h = 1 ms) until = 2 ms }\noutput "s.csv" every 1 ms { t, u = p.u }\nsummary { x = final(u)  y = max(u) }\n' > "$T/s.jnt"
SW="--list a=1,2,3.5 --list b=10,20 -D k=1"
# shellcheck disable=SC2086
timeout 10 "$J" sweep "$T/s.jnt" $SW -o "$T/t0.csv" > /dev/null 2>&1
for f in tests/fuzz-regressions/sweepspec/* tests/fuzz-regressions/table/*; do
    [ -f "$f" ] || continue
    k=$(od -An -tu1 -N1 "$f" | tr -d ' ')
    case "$f" in */sweepspec/*)
        opt=$(echo "--grid --list --dist --samples" | cut -d' ' -f$((k % 4 + 1)))
        arg=$(tail -c +2 "$f" | tr -d '\000')
        timeout 10 "$J" sweep "$T/s.jnt" "$opt" "$arg" -o "$T/t.csv" > /dev/null 2>&1 ;;
    *)  : > "$T/t.csv"
        [ $((k & 1)) -eq 1 ] && head -1 "$T/t0.csv" >> "$T/t.csv"
        [ $((k & 2)) -eq 2 ] && sed -n 2p "$T/t0.csv" >> "$T/t.csv"
        tail -c +2 "$f" >> "$T/t.csv"
        # shellcheck disable=SC2086
        timeout 10 "$J" sweep "$T/s.jnt" $SW -o "$T/t.csv" --resume > /dev/null 2>&1 ;;
    esac
    rc=$?
    n=$((n + 1))
    if [ $rc -gt 2 ]; then bad=$((bad + 1)); echo "FAIL: fuzz regression $f: exit $rc"; fi
done
# jnt plot's CSV readers (fuzz_plotcsv): a plot with gnuplot (plot_read_csv, the escaper), then
# a spectrogram of t with a window too long for any input (spectrogram_read reads every row)
for f in tests/fuzz-regressions/plotcsv/*; do
    [ -f "$f" ] || continue
    for w in 0 1073741824; do
        if [ $w = 0 ]; then timeout 10 "$J" plot "$f" -o "$T/p.svg" > /dev/null 2>&1
        else timeout 10 "$J" plot "$f" --spectrogram t --window $w -o "$T/p.png" > /dev/null 2>&1; fi
        rc=$?
        n=$((n + 1))
        if [ $rc -gt 2 ]; then bad=$((bad + 1)); echo "FAIL: fuzz regression $f: exit $rc"; fi
    done
done
[ $bad -eq 0 ] && echo "PASS: fuzz regressions: $n inputs replayed, each a status, no crash or hang"
