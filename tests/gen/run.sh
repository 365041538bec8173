#!/bin/sh
# The valid-model generator's check (issue 17): for each seed, the model of
# tests/gen/gen.py SEED is compiled by tcc (jnt run, the JIT) and by
# gcc -O2 -Wall -Werror (jnt build, JNT_CFLAGS), both run, and their outputs
# agree within 1e-9 relative (absolute floor 1e-15). Also replays the models
# kept in tests/gen/regressions/. Prints PASS/FAIL lines.
#   sh tests/gen/run.sh COUNT [FIRST]   seeds FIRST .. FIRST+COUNT-1 (FIRST 1)
# Two models at a time (each gcc build takes about a second).
B=${B:-build}
ROOT=$(pwd)
J=$ROOT/$B/jnt
T=$ROOT/$B/tests/gen
if [ "$1" = one ]; then   # one model: $2 a seed or a .jnt file
    case "$2" in *.jnt) name=$(basename "$2" .jnt); src=$ROOT/$2 ;; *) name=s$2; src= ;; esac
    d=$T/$name; rm -rf "$d"; mkdir -p "$d"; cd "$d" || exit 1
    if [ -n "$src" ]; then cp "$src" g.jnt; else python3 "$ROOT/tests/gen/gen.py" "$2" > g.jnt; fi
    if ! "$J" run g.jnt -o jit.csv > log 2>&1; then
        echo "FAIL: generated model $name: jnt run: $(head -3 log)"; exit 0; fi
    if ! JNT_CFLAGS="$JNT_CFLAGS -Wall -Werror" "$J" build g.jnt -o sim > log 2>&1; then
        echo "FAIL: generated model $name: gcc -O2 -Wall -Werror: $(head -3 log)"; exit 0; fi
    if ! ./sim -o gcc.csv > log 2>&1; then
        echo "FAIL: generated model $name: the gcc-built run: $(head -3 log)"; exit 0; fi
    # the data rows (comment lines apart) must match within 1e-9 relative
    grep -v '^#' jit.csv > a; grep -v '^#' gcc.csv > b
    r=$(paste -d, a b | awk -F, 'NR > 1 { n = NF / 2
        for (i = 1; i <= n; i++) { x = $i + 0; y = $(i + n) + 0; e = x - y; e = e < 0 ? -e : e
            s = (x < 0 ? -x : x) > (y < 0 ? -y : y) ? (x < 0 ? -x : x) : (y < 0 ? -y : y)
            if (e > 1e-9 * s && e > 1e-15) { print "row " NR " column " i ": " x " vs " y; exit } } }
        END { if (NR < 2) print "no rows" }')
    [ "$(wc -l < a)" = "$(wc -l < b)" ] || r="$(wc -l < a) rows against $(wc -l < b)"
    if [ -n "$r" ]; then echo "FAIL: generated model $name: JIT and gcc differ: $r"
    else echo "PASS: generated model $name: tcc and gcc -O2 -Wall -Werror agree"; fi
    exit 0
fi
n=${1:-200}; first=${2:-1}
mkdir -p "$T"
{ ls tests/gen/regressions/*.jnt 2>/dev/null; seq "$first" $((first + n - 1)); } |
    xargs -r -P 2 -n 1 sh tests/gen/run.sh one > "$T/results.txt"
sort -V "$T/results.txt"
pass=$(grep -c '^PASS' "$T/results.txt"); fail=$(grep -c '^FAIL' "$T/results.txt")
echo "generated models: $pass passed, $fail failed (seeds $first..$((first + n - 1)))" >&2
