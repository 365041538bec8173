# bench/python_threads.sh: section 16 of `make bench`, sourced by bench/run.sh
# (uses its B, OUT, RAW, RES, N, STAT, PY and helpers). Alone:
#   B=build sh bench/python_threads.sh   (runs bench/run.sh with BENCH_SECTIONS=16)
#
# Python threads on one compiled model (issue 29 item 3): the 30 runs of
# section 14's energy map (examples/beam_mass_friction.jnt, 10 s with RK4 at
# 0.5 ms, omega_n2 = 10..100 rad/s x N = 1, 5, 10 N) from one jnt.compile(),
#   1. one after the other (m.run in a loop),
#   2. on a concurrent.futures.ThreadPoolExecutor of 2 threads,
# taking turns round by round; wall clock, the STAT of N rounds. Reports runs
# per second, the throughput ratio (1 / 2; ctypes releases the GIL in every
# C call, so 2 threads on 2 free cores should give at least 1.7x), and the
# process's CPU over wall time for each (near 1 and near 2 when both cores
# are free). Every threaded run's rows and counters are checked equal to the
# serial run's. A control measures the machine: the same two ways over 30
# tasks of numpy (8 inverses of a 200 x 200 matrix; numpy releases the GIL
# too, OpenBLAS on one thread): when the machine gives this process less than
# two cores, the control's ratio drops with jnt's, and jnt / control is what
# the package adds or loses. Each task's own thread CPU time (the mean, in the
# loop and on the pool) shows whether the threads slow each other down, which
# the machine's load does not change.
# shellcheck disable=SC2154
if ! command -v agg >/dev/null 2>&1; then
    BENCH_SECTIONS=16 exec sh bench/run.sh
fi
PT_DIR=$OUT/python_threads
mkdir -p "$PT_DIR"
for f in jnt_serial jnt_pool ctl_serial ctl_pool; do
    : > "$PT_DIR/$f.wall"
    : > "$PT_DIR/$f.cpu"
    : > "$PT_DIR/$f.task"
done
PYTHONPATH=python JNT_LIB=$B/libjnt.so "$PY" - "$N" "$PT_DIR" > "$PT_DIR/log.txt" 2>&1 <<'PYEOF'
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import jnt

rounds, out = int(sys.argv[1]), sys.argv[2]
m = jnt.compile("examples/beam_mass_friction.jnt")
cases = [(w, n) for w in range(10, 101, 10) for n in (1, 5, 10)]
a = np.random.default_rng(1).random((200, 200)) + 200 * np.eye(200)


cpu = []  # each task's own CPU time (its thread's), appended by the task


def one(case):
    c = time.thread_time()
    r = m.run(omega_n2=case[0], N=case[1])
    cpu.append(time.thread_time() - c)
    return r


def ctl(_):
    c = time.thread_time()
    for _ in range(8):
        b = np.linalg.inv(a)
    cpu.append(time.thread_time() - c)
    return b


def same(x, y):
    drop = ("cpu_seconds",)
    return np.array_equal(x.data, y.data) and \
        {k: v for k, v in x.stats.items() if k not in drop} == \
        {k: v for k, v in y.stats.items() if k not in drop}


def timed(name, f):
    del cpu[:]
    w, c = time.perf_counter(), time.process_time()
    res = f()
    w, c = time.perf_counter() - w, time.process_time() - c
    for ext, v in (("wall", w), ("cpu", c / w), ("task", 1e3 * sum(cpu) / len(cpu))):
        with open("%s/%s.%s" % (out, name, ext), "a") as fh:
            fh.write("%.4f\n" % v)
    print("%s: %.4f s, CPU/wall %.2f, CPU per task %.2f ms" % (name, w, c / w,
                                                                1e3 * sum(cpu) / len(cpu)))
    return res


ok = True
with ThreadPoolExecutor(2) as ex:
    list(ex.map(one, cases[:2]))  # the pool's threads started, the code warm
    list(ex.map(ctl, cases[:2]))
    for _ in range(rounds):
        ser = timed("jnt_serial", lambda: [one(c) for c in cases])
        par = timed("jnt_pool", lambda: list(ex.map(one, cases)))
        ok = ok and all(same(x, y) for x, y in zip(ser, par))
        timed("ctl_serial", lambda: [ctl(c) for c in cases])
        timed("ctl_pool", lambda: list(ex.map(ctl, cases)))
print("same rows and counters: %s" % ("yes" if ok else "NO"))
print("runs: %d" % len(cases))
PYEOF
pt_rc=$?
cat "$PT_DIR/log.txt" >> "$RAW"
pt_same=$(sed -n 's/^same rows and counters: //p' "$PT_DIR/log.txt")
pt_runs=$(sed -n 's/^runs: //p' "$PT_DIR/log.txt")
# pt_row NAME WHAT RATIO SAME: one row of the table
pt_row() {
    w=$(agg < "$PT_DIR/$1.wall")
    echo "| $2 | $w | $(awk -v t="$w" -v n="$pt_runs" 'BEGIN { if (t > 0) printf "%.3g", n / t; else printf "n/a" }') |" \
         "$(agg < "$PT_DIR/$1.cpu") | $(agg < "$PT_DIR/$1.task") | $3 | $4 |"
}
{
echo
echo "## 16. Python threads on one compiled model (bench/python_threads.sh)"
echo
if [ "$pt_rc" != 0 ] || [ -z "$pt_runs" ]; then
    echo "n/a: the Python run failed (exit $pt_rc; $PT_DIR/log.txt):"
    echo
    tail -5 "$PT_DIR/log.txt" | sed 's/^/    /'
else
    sp=$(ratio "$(agg < "$PT_DIR/jnt_serial.wall")" "$(agg < "$PT_DIR/jnt_pool.wall")")
    sc=$(ratio "$(agg < "$PT_DIR/ctl_serial.wall")" "$(agg < "$PT_DIR/ctl_pool.wall")")
    echo "Section 14's $pt_runs runs (examples/beam_mass_friction.jnt) from one \`jnt.compile()\`,"
    echo "\`m.run(omega_n2=..., N=...)\`, and a control of $pt_runs numpy tasks (8 inverses of"
    echo "200 x 200) the same two ways: wall clock, the $STAT_NAME of $N rounds taking turns;"
    echo "CPU/wall is the process's CPU time over the wall time (near 2 for 2 threads on 2 free cores);"
    echo "CPU a task is each run's (or numpy task's) own thread CPU time, the mean: the same on the"
    echo "pool as in the loop when the threads do not slow each other down, whatever the machine's load."
    echo
    echo "| how | wall (s) | runs/s | CPU/wall | CPU a task (ms) | ratio | same rows as serial |"
    echo "|---|---:|---:|---:|---:|---|---|"
    pt_row jnt_serial "\`m.run\` in a loop" 1 -
    pt_row jnt_pool "\`ThreadPoolExecutor(2).map(m.run, ...)\`" \
        "throughput $sp (target >= 1.7), efficiency $(ratio "$sp" 2)" "$pt_same"
    pt_row ctl_serial "control: numpy in a loop" 1 -
    pt_row ctl_pool "control: numpy on the pool" "throughput $sc" -
    echo
    echo "A run's own CPU on the pool over in the loop: $(ratio "$(agg < "$PT_DIR/jnt_pool.task")" \
        "$(agg < "$PT_DIR/jnt_serial.task")") (the control's: $(ratio "$(agg < "$PT_DIR/ctl_pool.task")" \
        "$(agg < "$PT_DIR/ctl_serial.task")"))."
    echo "jnt's ratio over the control's: $(ratio "$sp" "$sc") (1: the package scales as numpy's"
    echo "GIL-free code does on this machine; a control near 1 means the machine gave this process"
    echo "one core's worth, and no ratio above it can be measured here)."
fi
} | tee -a "$RES"
