#!/bin/sh
# Replay the fuzzers' findings (tests/fuzz-regressions/{compile,data}/) and the
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
[ $bad -eq 0 ] && echo "PASS: fuzz regressions: $n inputs replayed, each a status, no crash or hang"
