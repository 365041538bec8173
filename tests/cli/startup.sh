#!/bin/sh
# Issue 31 item 3, start-up: the jnt executable loads OpenBLAS, LAPACKE,
# CHOLMOD, KLU and ARPACK only when a model calls them (compiler/cli/lazy.c,
# the Makefile's CLI_LIBS), none for a small BDF model (its LU is
# runtime/linalg/dense.c's plain loops), starts no BLAS thread, and says which
# library it could not load. Seen from outside with strace (tests/unit/test_lazy.c looks
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

# a small model with BDF (a 3 x 3 Newton matrix): no numerical library, no thread
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
if [ -z "$loaded" ]; then
    pass "frdyn2_bench loads no numerical library (no OpenBLAS for its 3 x 3 LU)"
else
    fail "frdyn2_bench loads: $loaded(want none: its LU is linalg/dense.c's)"
fi
if grep -q 'clone' "$T/frdyn2.st"; then
    fail "frdyn2_bench starts a thread: $(grep clone "$T/frdyn2.st" | head -1)"
else
    pass "frdyn2_bench starts no thread"
fi
rows=$(grep -c '^[0-9]' "$T/frdyn2.csv")
if [ "$rows" -eq 1176 ]; then pass "frdyn2_bench: 1176 rows"; else fail "frdyn2_bench: $rows rows, want 1176"; fi

# a multibody model (double pendulum, generalized-alpha): its assembly's QR
# with column pivoting is linalg/dense.c's dense_qp3, so no OpenBLAS or
# LAPACKE; its Newton matrix is KLU's
trace "$T/dp.st" "$J" run examples/double_pendulum.jnt -o "$T/dp.csv"
loaded=$(grep -v ENOENT "$T/dp.st" | grep -o 'lib\(openblas\|lapacke\|cholmod\|klu\|arpack\|metis\|lapack\)\.so[^"]*' | sort -u | tr '\n' ' ')
if [ "$loaded" = "libklu.so.1 " ]; then
    pass "double_pendulum loads KLU only (no OpenBLAS for its assembly)"
else
    fail "double_pendulum loads: ${loaded:-nothing}(want libklu.so.1 only)"
fi

# an explicit integrator: nothing numerical at all
small_model "$T/m.jnt"
trace "$T/m.st" "$J" run "$T/m.jnt" -o "$T/m.csv"
if grep -v ENOENT "$T/m.st" | grep -q 'lib\(openblas\|lapacke\|cholmod\|klu\|arpack\)'; then
    fail "an rk4 model loads a numerical library"
else
    pass "an rk4 model loads no numerical library"
fi

# a modal analysis (LAPACKE on OpenBLAS): OpenBLAS loaded, one thread by
# default; a count asked for in OPENBLAS_NUM_THREADS is OpenBLAS's (the pool
# starts), with the same results
modes() { # FILE [VAR=VALUE]...: the analyses of cantilever_modes in $T/FILE.d
    f=$1; shift
    mkdir -p "$T/$f.d"
    (cd "$T/$f.d" && trace "$T/$f.st" env -u OPENBLAS_NUM_THREADS "$@" "$J" run \
        "$ROOT/examples/cantilever_modes.jnt" -o m.csv)
}
modes one
modes two OPENBLAS_NUM_THREADS=2
if grep -v ENOENT "$T/one.st" | grep -q 'libopenblas' && ! grep -q 'clone' "$T/one.st"; then
    pass "cantilever_modes loads OpenBLAS and starts no thread"
else
    fail "cantilever_modes: OpenBLAS not loaded, or a thread started"
fi
if grep -q 'clone' "$T/two.st" && cmp -s "$T/one.d/modes.csv" "$T/two.d/modes.csv"; then
    pass "OPENBLAS_NUM_THREADS=2 kept: OpenBLAS starts its pool, the same modes"
else
    fail "OPENBLAS_NUM_THREADS=2: no pool thread, or other modes"
fi

# a library that cannot be loaded: the command says which, exit 1
mkdir -p "$T/badlib"
: > "$T/badlib/libklu.so.1"
expect 1 "a broken libklu.so.1: exit 1" env LD_LIBRARY_PATH="$T/badlib" "$J" run \
    examples/multimass.jnt -o "$T/mm.csv"
has "a broken libklu.so.1: named" "jnt: error: cannot load libklu.so.1"
