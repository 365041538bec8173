#!/bin/sh
# Issue 29, item 1: libjnt.so (Python and every C/C++ host that links the
# shared library) compiles in memory through libtcc, as the jnt executable
# does. Before, it wrote the C to /tmp and ran the `tcc` program (else
# `cc -O1`), and with PATH emptied every compile failed ("libjnt.so compiles
# models with the 'tcc' program ... or else 'cc', and neither is on PATH").
# Checked here, each with PATH emptied and under strace -f: a C program on
# libjnt.so and a Python compile execute no program but themselves, start
# no process (no fork, vfork or clone without CLONE_VM, which is how
# fork, posix_spawn and system start one) and create no .c or .so file;
# four Python threads compiling at once (libtcc's compiles take jit.c's
# lock) agree with one another. Also: libjnt.so has no text relocations
# and exports none of libtcc's symbols.
NAME=jitso
. tests/trust/lib.sh
so=$B/libjnt.so

if readelf -d "$so" | grep -q TEXTREL; then fail "$so has text relocations"
else pass "$so: no text relocations"; fi
n=$(nm -D --defined-only "$so" | awk '$3 ~ /^tcc/' | wc -l)
[ "$n" -eq 0 ] && pass "$so exports none of libtcc's symbols" || fail "$so exports $n tcc* symbols"
if nm -D --defined-only "$so" | grep -q ' jnt_compile_string$'; then pass "$so exports jnt_compile_string"
else fail "$so does not export jnt_compile_string"; fi

# strace usable here (ptrace may be denied in a container)? Else PATH is
# emptied all the same and the children are not checked.
RUN="env PATH=" why=" (strace cannot trace here: children not checked)"
if strace -f -qq -o /dev/null true 2> /dev/null; then
    RUN="strace -f -qq -E PATH= -e trace=execve,fork,vfork,clone,clone3,open,openat,creat -o strace.txt"
    why=""
fi
# spawned PROGRAM: what in strace.txt started a process (fork, vfork, a clone
# without CLONE_VM or with CLONE_VFORK: fork, posix_spawn, system), ran a
# program other than PROGRAM, or created a .c or .so file (empty: nothing)
spawned() {
    [ -f "$T/strace.txt" ] || return 0
    { grep -E '[0-9] v?fork\(' "$T/strace.txt"
      grep -E 'clone3?\(' "$T/strace.txt" | grep -E -v 'CLONE_VM' 
      grep -E 'clone3?\(.*CLONE_VFORK' "$T/strace.txt"
      grep 'execve(' "$T/strace.txt" | grep -v "execve(\"$1\""
      grep 'O_CREAT' "$T/strace.txt" | grep -E '\.(c|so)"' | grep -v '= -1'; } | head -3; }

# a C program on libjnt.so (the sanitizer build: JNT_CFLAGS); LSan's stop
# of the world at exit is a clone of its own: leak checks off here
# shellcheck disable=SC2086
if gcc -std=c11 ${JNT_CFLAGS:-} -Iruntime/include examples/embed/embed.c -L"$B" -ljnt \
        -Wl,-rpath,"$ROOT/$B" -o "$T/embed" 2> "$T/err"; then
    expect 0 "a C program on libjnt.so compiles and runs a model with PATH emptied$why" \
        sh -c "cd '$T' && ASAN_OPTIONS=detect_leaks=0 $RUN ./embed '$ROOT/examples/frdyn2_bench.jnt'"
    grep -q '^ratio = 0.950: u(0.185 s) = 1.117729e-06 m' "$T/out" &&
        pass "its result: u = 1.117729e-06 m" || fail "the C program's output: $(head -2 "$T/out")"
    s=$(spawned ./embed)
    [ -z "$s" ] && pass "the C program starts no process, runs no program, writes no C file" ||
        fail "the C program: $s"
else
    fail "building embed.c on libjnt.so: $(head -3 "$T/err")"
fi
rm -f "$T/strace.txt"

# Python (ctypes on libjnt.so); the sanitizer build cannot be loaded by python3
if [ -z "${JNT_SKIP_PYTHON:-}" ]; then
    PY=/usr/bin/python3
    cat > "$T/one.py" <<'PY'
import sys, time, jnt
t = time.perf_counter()
m = jnt.compile(sys.argv[1])
c = time.perf_counter() - t
r = m.run(tE="100 ms")
print("u %.6e compile %.1f ms" % (r["u"][-1], c * 1e3))
PY
    expect 0 "Python's jnt.compile and run on libjnt.so with PATH emptied$why" \
        sh -c "cd '$T' && PYTHONPATH='$ROOT/python' JNT_LIB='$ROOT/$so' PYTHONDONTWRITEBYTECODE=1 \
               $RUN $PY one.py '$ROOT/examples/frdyn2_bench.jnt'"
    grep -q '^u 1.117729e-06 ' "$T/out" && pass "Python's result: $(cat "$T/out")" ||
        fail "Python's output: $(cat "$T/out")"
    s=$(spawned "$PY")
    [ -z "$s" ] && pass "Python's compile starts no process, runs no program, writes no C file" ||
        fail "Python: $s"
    # four threads at once (ctypes lets go of the GIL in C): one lock serialises libtcc
    cat > "$T/threads.py" <<'PY'
import sys, threading, jnt
res, err = {}, []
def work(k):
    try:
        for _ in range(3):
            m = jnt.compile(sys.argv[1])
            res.setdefault(k, []).append(float(m.run(tE="50 ms")["u"][-1]))
    except Exception as e:
        err.append(repr(e))
ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in ts: t.start()
for t in ts: t.join()
vals = sorted({v for r in res.values() for v in r})
print(len(err), sum(len(r) for r in res.values()), vals, err[:1])
PY
    expect 0 "four Python threads compile and run on libjnt.so at once" \
        env PATH= PYTHONPATH="$ROOT/python" JNT_LIB="$ROOT/$so" PYTHONDONTWRITEBYTECODE=1 \
        $PY "$T/threads.py" "$ROOT/examples/frdyn2_bench.jnt"
    case $(cat "$T/out") in "0 12 ["*[0-9]"] []") pass "12 compiles, one result: $(cat "$T/out")" ;;
        *) fail "threads: $(cat "$T/out")" ;; esac
fi
