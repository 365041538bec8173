# bench/jit_so.sh: section 17 of `make bench`, sourced by bench/run.sh (uses
# its B, OUT, RAW, RES, N, STAT, PY and helpers). Alone:
#   B=build sh bench/jit_so.sh      (runs bench/run.sh with BENCH_SECTIONS=17)
#
# Compile latency of libjnt.so against libjnt.a, the library of the jnt
# executable (issue 29 item 1): bench/bench_jnt.c's `compile` (model file to
# runnable JIT code, jnt_compile_file) built twice, on $B/libjnt.a and on
# $B/libjnt.so, the two taking turns round by round, the best of 10 compiles
# a round (a compile takes a millisecond or so: one busy moment of a shared
# machine would outweigh it); and
# Python's jnt.compile on libjnt.so (ctypes, the same call), for information.
# Both libraries JIT in memory with the same libtcc, so the ratio
# libjnt.so / libjnt.a should be within 1.2 (before, libjnt.so ran the tcc
# program: 3.0 ms against 1.0 on frdyn2_bench, best of 10; 84 ms with cc
# when tcc was missing).
# JNT_CACHE=0: every compile is whole (no compile cache hit).
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=17 exec sh bench/run.sh
fi
JS_DIR=$OUT/jit_so
mkdir -p "$JS_DIR"
# shellcheck disable=SC2086
gcc -std=c11 -O2 -Wall -Wextra -Iruntime/include -o "$JS_DIR/bench_jit_so" bench/bench_jnt.c \
    -L"$B" -ljnt -Wl,-rpath,"$PWD/$B" || say "bench: cannot build bench_jnt.c on $B/libjnt.so"
say "bench: compile latency, libjnt.so against libjnt.a ($STAT_NAME of $N rounds)"
js_model() { # name src: one line "name static_s shared_s python_s"
    name=$1 src=$2
    for v in a so py; do : > "$JS_DIR/$name.$v"; done
    k=0
    while [ $k -lt "$N" ]; do
        l=$(JNT_CACHE=0 "$OUT/bench_jit" compile "$src" 10)
        log "jit_so $name libjnt.a $l"
        kv compile_s_min "$l" >> "$JS_DIR/$name.a"
        l=$(JNT_CACHE=0 "$JS_DIR/bench_jit_so" compile "$src" 10)
        log "jit_so $name libjnt.so $l"
        kv compile_s_min "$l" >> "$JS_DIR/$name.so"
        if [ "$have_python_jnt" -eq 1 ]; then
            l=$(JNT_CACHE=0 PYTHONPATH=python JNT_LIB="$B/libjnt.so" "$PY" -c '
import sys, time, jnt
ts = []
for _ in range(10):
    t = time.perf_counter(); jnt.compile(sys.argv[1]); ts.append(time.perf_counter() - t)
print("compile_s_min=%.6g" % min(ts))' "$src" 2>> "$OUT/stderr.txt")
            log "jit_so $name python $l"
            kv compile_s_min "$l" >> "$JS_DIR/$name.py"
        fi
        k=$((k + 1))
    done
    echo "$name $(agg < "$JS_DIR/$name.a") $(agg < "$JS_DIR/$name.so") $(agg < "$JS_DIR/$name.py")"
}
have_python_jnt=0
PYTHONPATH=python JNT_LIB="$B/libjnt.so" "$PY" -c 'import jnt, numpy' 2> /dev/null && have_python_jnt=1
JS_F=$(js_model frdyn2_bench examples/frdyn2_bench.jnt)
JS_L=$(js_model lugre_stickslip examples/lugre_stickslip.jnt)
{
echo
echo "## 17. Compile latency: libjnt.so against libjnt.a (the jnt executable's library)"
echo
echo "| model | libjnt.a (ms) | libjnt.so (ms) | libjnt.so / libjnt.a | Python jnt.compile on libjnt.so (ms) | within 1.2 |"
echo "|---|---:|---:|---:|---:|---|"
for l in "$JS_F" "$JS_L"; do
    # shellcheck disable=SC2086 # the fields of one line
    set -- $l
    r=$(ratio "$3" "$2")
    ok=n/a
    case $r in n/a) ;; *) ok=$(awk -v r="$r" 'BEGIN { print (r <= 1.2) ? "yes" : "NO" }') ;; esac
    echo "| $1 | $(ms "$2") | $(ms "$3") | $r | $(ms "${4:-n/a}") | $ok |"
done
echo
echo "In-process jnt_compile_file, model file to runnable code, without the compile cache" \
     "(JNT_CACHE=0): the $STAT_NAME over $N rounds of each round's best of 10 compiles, the two" \
     "libraries taking turns. Both JIT in memory with the same libtcc (libjnt.so holds it: docs/cli.md)."
} | tee -a "$RES"
