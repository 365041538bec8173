#!/bin/sh
# Issue 31 item 3, start-up: the jnt executable loads OpenBLAS, LAPACKE,
# CHOLMOD, KLU and ARPACK only when a model calls them (compiler/cli/lazy.c,
# the Makefile's CLI_LIBS), starts no BLAS thread, and says which library it
# could not load. Seen from outside with strace (tests/unit/test_lazy.c looks
# from inside). Prints PASS/FAIL lines. Run from the repository root with B set.
NAME=startup
. tests/trust/lib.sh

# what the executable asks the loader for before main
if readelf -dW "$J" | grep -q 'NEEDED.*\(openblas\|lapacke\|cholmod\|klu\|arpack\)'; then
    fail "jnt is linked to a numerical library: $(readelf -dW "$J" | grep -o 'lib\(openblas\|lapacke\|cholmod\|klu\|arpack\)[^]]*' | tr '\n' ' ')"
else
    pass "jnt needs no OpenBLAS, LAPACKE, CHOLMOD, KLU or ARPACK to start"
fi

# the sanitizer build (make check-asan): LeakSanitizer refuses to run under
# ptrace and starts a thread of its own, so what strace sees is not jnt's
if readelf -dW "$J" | grep -q 'NEEDED.*libasan'; then
    echo "INFO: startup: the strace checks need a build without the sanitizers"
    exit 0
fi

# a small model with BDF: OpenBLAS's LU only, no thread
trace() { # FILE CMD...: run CMD under strace, the files it opened and its clones in FILE
    f=$1; shift
    strace -f -qq -e trace=openat,clone,clone3 -o "$f" "$@" > "$T/out" 2> "$T/err"
}
if trace "$T/frdyn2.st" env -u OPENBLAS_NUM_THREADS "$J" run examples/frdyn2_bench.jnt \
        -o "$T/frdyn2.csv"; then
    pass "frdyn2_bench runs under strace"
else
    fail "frdyn2_bench under strace (exit $?)"; head -3 "$T/err"
fi
loaded=$(grep -v ENOENT "$T/frdyn2.st" | grep -o 'lib\(openblas\|lapacke\|cholmod\|klu\|arpack\|metis\|lapack\)\.so[^"]*' | sort -u | tr '\n' ' ')
if [ "$loaded" = "libopenblas.so.0 " ]; then
    pass "frdyn2_bench loads OpenBLAS (its BDF LU) and no other numerical library"
else
    fail "frdyn2_bench loads: $loaded(want libopenblas.so.0 only)"
fi
if grep -q 'clone' "$T/frdyn2.st"; then
    fail "frdyn2_bench starts a thread: $(grep clone "$T/frdyn2.st" | head -1)"
else
    pass "frdyn2_bench starts no thread (OpenBLAS without a pool)"
fi
rows=$(grep -c '^[0-9]' "$T/frdyn2.csv")
if [ "$rows" -eq 1176 ]; then pass "frdyn2_bench: 1176 rows"; else fail "frdyn2_bench: $rows rows, want 1176"; fi

# an explicit integrator: nothing numerical at all
small_model "$T/m.jnt"
trace "$T/m.st" "$J" run "$T/m.jnt" -o "$T/m.csv"
if grep -v ENOENT "$T/m.st" | grep -q 'lib\(openblas\|lapacke\|cholmod\|klu\|arpack\)'; then
    fail "an rk4 model loads a numerical library"
else
    pass "an rk4 model loads no numerical library"
fi

# a count asked for in OPENBLAS_NUM_THREADS is OpenBLAS's (the pool starts)
trace "$T/two.st" env OPENBLAS_NUM_THREADS=2 "$J" run examples/frdyn2_bench.jnt -o "$T/two.csv"
if grep -q 'clone' "$T/two.st" && cmp -s "$T/frdyn2.csv" "$T/two.csv"; then
    pass "OPENBLAS_NUM_THREADS=2 kept: OpenBLAS starts its pool, the same rows"
else
    fail "OPENBLAS_NUM_THREADS=2: no pool thread, or other rows"
fi

# a library that cannot be loaded: the command says which, exit 1
mkdir -p "$T/badlib"
: > "$T/badlib/libklu.so.1"
expect 1 "a broken libklu.so.1: exit 1" env LD_LIBRARY_PATH="$T/badlib" "$J" run \
    examples/multimass.jnt -o "$T/mm.csv"
has "a broken libklu.so.1: named" "jnt: error: cannot load libklu.so.1"
