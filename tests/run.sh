#!/bin/sh
# The whole test suite: unit tests, golden diagnostics, examples.
# Each part prints "PASS: ..." / "FAIL: ..." lines; the last line counts them.
# Run from the repository root with B set to the build directory.
B=${B:-build}
log=$B/tests/results.txt
mkdir -p "$B/tests"
# compiles cache under $B, never in ~/.cache (docs/cli.md, "Compile cache")
XDG_CACHE_HOME=$(cd "$B/tests" && pwd)/xdg-cache && export XDG_CACHE_HOME
JNT_TEST_OUT=$B/tests
export JNT_TEST_OUT
: > "$log"
# the figures the docs quote, measured by the tests (tests/docs/numbers.py)
measures=$B/tests/measures.list
: > "$measures"
# what the suite must leave as it found it (tests/machine.sh)
B=$B sh tests/machine.sh start
# progress: one line per section on stderr (the counts so far, the time)
start=$(date +%s)
section() {
    printf '%-34s %5d passed, %d failed  (%ds)\n' "$1" "$(grep -c '^PASS' "$log")" \
        "$(grep -c '^FAIL' "$log")" $(( $(date +%s) - start )) >&2
}

# unit and example test programs (each prints PASS/FAIL lines); the two
# longest (the lap joint, about 105 s here, and the car pendulum, 55 s: their
# files have their own names) run on the second core beside the others
report() { # NAME RC OUT: its PASS/FAIL lines to the log, its failures shown
    printf '%s\n' "$3" | grep -E '^(PASS|FAIL)' >> "$log"
    printf '%s\n' "$3" | grep '^MEASURE:' >> "$measures"
    printf '%s\n' "$3" | grep -E '^FAIL' | sed "s|^|$1: |"
    if [ "$2" -ne 0 ] && ! printf '%s\n' "$3" | grep -q '^FAIL'; then
        echo "FAIL: $1 exited with status $2" | tee -a "$log"
        printf '%s\n' "$3" | tail -5
    fi
}
heavy="test_lap_joint test_car_pendulum"
(for h in $heavy; do
    [ -x "$B/tests/$h" ] || continue
    "$B/tests/$h" > "$B/tests/$h.out" 2>&1
    echo $? > "$B/tests/$h.rc"
done) &
heavy_pid=$!
for t in "$B"/tests/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    case " $heavy " in *" $name "*) continue ;; esac
    out=$("$t" 2>&1)
    report "$name" $? "$out"
    [ -t 2 ] && printf '\r  %-40s' "$name" >&2
done
wait $heavy_pid
for h in $heavy; do
    [ -f "$B/tests/$h.rc" ] && report "$h" "$(cat "$B/tests/$h.rc")" "$(cat "$B/tests/$h.out")"
    rm -f "$B/tests/$h.rc"
done
[ -t 2 ] && printf '\r%50s\r' '' >&2
section "unit and example programs"

# golden diagnostics: tests/errors/X.jnt must print exactly X.err and exit 1
for src in tests/errors/*.jnt; do
    [ -f "$src" ] || continue
    exp="${src%.jnt}.err"
    got=$("$B/jnt" check "$src" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 1 ] && [ "$got" = "$(cat "$exp")" ]; then
        echo "PASS: diagnostics of $src" >> "$log"
    else
        echo "FAIL: diagnostics of $src (exit $rc)" | tee -a "$log"
        printf '%s\n' "$got" | diff "$exp" - | head -10
    fi
done
section "golden diagnostics"

# the architecture: include paths, no circles across folders
B=$B sh tests/layout/layout.sh > "$B/tests/layout.txt" 2>&1
B=$B sh tests/layout/selftest.sh >> "$B/tests/layout.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/layout.txt" >> "$log"
grep '^FAIL' "$B/tests/layout.txt"
section "layout"

# command-line behaviour, generated C, standalone builds
B=$B sh tests/cli/cli.sh > "$B/tests/cli.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/cli.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/cli.txt"
# issue 31: one kernel per element kind (the C does not grow with the instances)
B=$B sh tests/cli/kernels.sh > "$B/tests/kernels.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/kernels.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/kernels.txt"
# issue 31: the jnt executable loads the numerical libraries a model calls, no more
B=$B sh tests/cli/startup.sh > "$B/tests/startup.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/startup.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/startup.txt"
# a sliding interface's force that reads the state only through a condition
B=$B sh tests/cli/iface_state.sh > "$B/tests/iface_state.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/iface_state.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/iface_state.txt"
section "command line"

# issue 17's defects: inputs, limits, outputs under signals and full disks
{ B=$B sh tests/cli/hard.sh; B=$B sh fuzz/replay.sh; } > "$B/tests/hard.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/hard.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/hard.txt"
section "hardening"

# issue 27's findings: names escaped, outputs that replace nothing not
# theirs, sweep tables, bounds, the C API and Python contracts, numbers
for t in tests/trust/*.sh; do
    [ "$(basename "$t")" = lib.sh ] && continue
    B=$B sh "$t"
done > "$B/tests/trust.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/trust.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/trust.txt"
section "trust (issue 27)"

# the valid-model generator (tests/gen/): JNT_GEN_MODELS seeded models (200),
# each compiled by tcc and by gcc -O2 -Wall -Werror, the two runs compared
ngen=${JNT_GEN_MODELS:-200}
B=$B sh tests/gen/run.sh "$ngen" > "$B/tests/gen.txt" 2>/dev/null
grep -E '^(PASS|FAIL)' "$B/tests/gen.txt" >> "$log"
grep '^FAIL' "$B/tests/gen.txt"
section "generated models"

# jnt plot, jnt run --plot, per-command help, simulators' --version
B=$B sh tests/cli/plot.sh > "$B/tests/plot.txt" 2>&1
# jnt animate: films of VTK frames, read back by ffprobe
B=$B sh tests/cli/animate.sh >> "$B/tests/plot.txt" 2>&1
# angle columns in rad, energy columns in J (the columns' kinds, ABI 16)
B=$B sh tests/cli/units_kind.sh >> "$B/tests/plot.txt" 2>&1
# the body kind point3d (compiler/kinds/point3d.c): a conical pendulum, a free fall
B=$B sh tests/kinds/point3d.sh >> "$B/tests/plot.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/plot.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/plot.txt"
# docs/tutorial.md: its model, commands and printed numbers against the code
B=$B sh tests/cli/tutorial.sh > "$B/tests/tutorial.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/tutorial.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/tutorial.txt"
# editors/: the Vim and VS Code grammars, and docs/language.md's keyword
# lists, against the lexer's keywords and sema's built-in functions
sh tests/cli/editors.sh > "$B/tests/editors.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/editors.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/editors.txt"
section "jnt plot, tutorial, editors"

# jnt run --vtk: ParaView's files of every multibody and substructure
# example, read back by VTK's readers (python3-paraview), a frame rendered by pvpython
B=$B sh tests/vtk/vtk.sh > "$B/tests/vtk.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/vtk.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/vtk.txt"
section "VTK output"

# jnt sweep: tables, threads, MPI, failures, resume, continuation, samples
B=$B sh tests/cli/sweep.sh > "$B/tests/sweep.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/sweep.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/sweep.txt"

# seed 001's sweeps: E4's energy map and forced response, E5's frequency
# response and energy map, on coarse grids (INFO lines: docs/sweeps.md)
B=$B sh tests/cli/seed001.sh > "$B/tests/seed001.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/seed001.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/seed001.txt"

# issue 28: assembly at the start of each run of a sweep (tests/assembly/)
B=$B sh tests/assembly/fourbar.sh > "$B/tests/assembly.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/assembly.txt" >> "$log"
grep -A5 '^FAIL' "$B/tests/assembly.txt"
section "jnt sweep"

# the Python package (python/jnt) over $B/libjnt.so, with pytest
py=/usr/bin/python3
if [ -n "$JNT_SKIP_PYTHON" ]; then
    : # the sanitizer build's libjnt.so cannot be loaded into python
elif PYTHONPATH=python JNT_LIB=$B/libjnt.so JNT_BIN=$B/jnt $py -m pytest -q -rA -p no:cacheprovider \
        tests/python > "$B/tests/python.txt" 2>&1 || grep -q '^FAILED' "$B/tests/python.txt"; then
    sed -n 's/^PASSED \(.*\)/PASS: python: \1/p; s/^FAILED \([^ ]*\).*/FAIL: python: \1/p' \
        "$B/tests/python.txt" >> "$log"
    grep -B2 -A20 '^____' "$B/tests/python.txt" | head -60
else
    echo "FAIL: python: pytest did not run (see $B/tests/python.txt)" | tee -a "$log"
    tail -5 "$B/tests/python.txt"
fi
[ -z "$JNT_SKIP_PYTHON" ] && section "python"

# install: make install into a temporary prefix, the embed example built
# out of the tree with pkg-config, the installed jnt and Python package
if [ -z "$JNT_SKIP_INSTALL" ]; then
    B=$B sh tests/install/install.sh > "$B/tests/install.txt" 2>&1
    grep -E '^(PASS|FAIL)' "$B/tests/install.txt" >> "$log"
    grep -A5 '^FAIL' "$B/tests/install.txt"
    section "install"
fi

# the Python package: make python-package, pip install offline into a fresh
# venv, a model run there with no JNT_* variable; pip install ./python, a wheel
if [ -z "$JNT_SKIP_INSTALL" ] && [ -z "$JNT_SKIP_PYTHON" ]; then
    B=$B sh tests/install/venv.sh > "$B/tests/venv.txt" 2>&1
    grep -E '^(PASS|FAIL)' "$B/tests/venv.txt" >> "$log"
    grep -A5 '^FAIL' "$B/tests/venv.txt"
    section "python package (venv)"
fi

# the embedding example: two runs sharing one model; in stick the final
# displacement is F_E / sigma0 (seed 002 Sect. 5), so it halves with the force
if [ -x "$B/embed" ]; then
    out=$("$B/embed" examples/frdyn2_bench.jnt 2>&1)
    rc=$?
    u1=$(printf '%s\n' "$out" | sed -n '1s/.*= \([^ ]*\) m$/\1/p')
    u2=$(printf '%s\n' "$out" | sed -n '2s/.*= \([^ ]*\) m$/\1/p')
    if [ $rc -eq 0 ] && awk -v a="$u1" -v b="$u2" 'BEGIN {
            fe = 0.95 * 0.6 * 9.81; r = a / (fe / 5e6);
            exit !(r > 0.98 && r < 1.02 && b / a > 0.49 && b / a < 0.51) }'; then
        echo "PASS: embed: u = $u1 m, $u2 m (F_E/sigma0 and half of it)" >> "$log"
    else
        echo "FAIL: embed (exit $rc): $out" | tee -a "$log"
    fi
fi
section "embed"

# numbers in the docs: each figure marked <!--m:KEY--> in docs/ and the
# examples' headers against what the tests above measured (docs/testing.md)
cat "$B"/tests/*.txt 2>/dev/null | grep '^MEASURE:' >> "$measures"
# how many figures are marked, per file (docs/testing.md quotes the counts)
/usr/bin/python3 tests/docs/numbers.py count docs/*.md examples/*.jnt >> "$measures"
# (the sanitizer build runs no Python: its figures are not checked there)
/usr/bin/python3 tests/docs/numbers.py check "$measures" ${JNT_SKIP_PYTHON:+--skip python.} \
    docs/*.md examples/*.jnt \
    > "$B/tests/numbers.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/numbers.txt" >> "$log"
grep '^FAIL' "$B/tests/numbers.txt"
section "numbers in the docs"

# the machine as the suite found it: /dev/null, the repository, $HOME, /etc
B=$B sh tests/machine.sh end > "$B/tests/machine.txt" 2>&1
grep -E '^(PASS|FAIL)' "$B/tests/machine.txt" >> "$log"
grep -A10 '^FAIL' "$B/tests/machine.txt"
section "machine"

passed=$(grep -c '^PASS' "$log")
failed=$(grep -c '^FAIL' "$log")
ngpass=$(grep -c '^PASS: generated model' "$log")
nfuzz=$(sed -n 's/^PASS: fuzz regressions: \([0-9]*\) inputs.*/\1/p' "$log")
echo "$passed passed, $failed failed ($ngpass generated models agree under tcc and gcc;" \
     "${nfuzz:-0} fuzz regressions replayed)"
[ "$failed" -eq 0 ]
