"""The Python API a scientist expects (issue 29 item 3): CompileError's
.diagnostics against a golden .err, RunError's partial .result, Result's
to_pandas() with units in df.attrs, the notebooks' _repr_html_ of a Result
and a Model, runs of one model on two threads equal to serial ones, and
the ctypes mirrors of libjnt's structures no larger than C writes.
Run by tests/run.sh with PYTHONPATH=python and JNT_LIB=$B/libjnt.so."""
import os
import subprocess
import sys

import jnt

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
BENCH = os.path.join(ROOT, "examples", "frdyn2_bench.jnt")


def test_settings_struct_not_overrun():
    # jnt_settings grew assemble_tol (abi.h) and _lib.Settings did not: every
    # run's jnt_get_settings wrote 8 bytes past the 80 of the Python object
    # (a crash at exit after two threads' runs); the debug allocator checks
    # the guard bytes after each block
    code = ("import jnt; m = jnt.compile(%r); m.run(t_end=0.005); "
            "m.simulation().advance(0.001); print('ok')" % BENCH)
    env = dict(os.environ, PYTHONMALLOC="debug")
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr[-2000:]
