"""Issue 27, finding 10: the Python package accepts only what the command
line accepts, with the same meaning (docs/python.md, "Options, limits and
errors"). One test per case of the finding, then a property test of hostile
option values against `jnt run` ($JNT_BIN). Run by tests/run.sh with
PYTHONPATH=python, JNT_LIB=$B/libjnt.so and JNT_BIN=$B/jnt."""
import math
import os
import random
import subprocess
import threading

import numpy as np
import pytest

import jnt

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
BENCH = os.path.join(ROOT, "examples", "frdyn2_bench.jnt")
JNT_BIN = os.environ.get("JNT_BIN", os.path.join(ROOT, "build", "jnt"))

# a spring and mass with a row every step (every 0 s) under rk4, 1 ms
EVERY_STEP = """model ev
body b : point(mass = 1 kg) { dof x }
spring s between b.x and ground { stiffness = 100 N/m }
simulate { integrator = rk4(h = 1 ms)  until = 0.1 s }
output "ev.csv" every 0 s { t, x = b.x }
"""
EVERY_MS = EVERY_STEP.replace("every 0 s", "every 1 ms")

# a damped oscillator, quick to run under every option: the property test's
# model (params scale its run: tE the end, dt the output interval, F0 the load)
OSC = """model osc
param k  = 1e4 N/m
param F0 = 1 N
param tE = 20 ms
param dt = 1 ms
body b : point(mass = 1 kg) { dof x }
spring s between b.x and ground { stiffness = k }
damper c between b.x and ground { damping = 2 N*s/m }
force f on b.x = F0
simulate { integrator = bdf(rtol = 1e-6, atol = 1e-9)  until = tE }
output "osc.csv" every dt { t, x = b.x, v = b.x.v }
"""


@pytest.fixture(scope="module")
def bench():
    return jnt.compile(BENCH)


def test_options_out_of_range_refused(bench):
    # h = -1, h = nan, rtol = -1 were ignored (the model's own values ran);
    # jnt run refuses them: "option '--h' needs a positive time", exit 2
    bad = [dict(h=-1), dict(h=float("nan")), dict(h=0), dict(h=math.inf), dict(h="-1 ms"),
           dict(h="1 kg"), dict(rtol=-1), dict(rtol=float("nan")), dict(atol=0),
           dict(atol="1 ms"), dict(t_end=float("nan")), dict(t_end=-1), dict(t_end=0),
           dict(integrator="")]
    for kw in bad:
        name = next(iter(kw))
        with pytest.raises(ValueError, match="option '%s'" % name):
            bench.run(**kw)
    for kw in [dict(h=[1e-4]), dict(h=True), dict(rtol=b"1e-6"), dict(integrator=4)]:
        with pytest.raises(TypeError, match="option '%s'" % next(iter(kw))):
            bench.run(**kw)
    sim = bench.simulation()
    with pytest.raises(ValueError, match="option 'h'"):
        sim.configure(h=-1)
    # the CLI's forms are accepted with its meaning: a time with a unit, a
    # bare number in seconds (0.5 * 1e-3 is 5e-4 exactly)
    a = bench.run(integrator="rk4", h="0.5 ms")
    b = bench.run(integrator="rk4", h=5e-4)
    c = bench.run(integrator="rk4", h="5e-4")
    assert np.array_equal(a.data, b.data) and np.array_equal(a.data, c.data)
    assert not np.array_equal(a.data, bench.run(integrator="rk4", h=1e-4).data)


def test_nul_refused(bench, tmp_path):
    # tE="1\0ms" ran with tE = 1 s: C read the text up to the NUL
    with pytest.raises(ValueError, match="null character"):
        bench.run(tE="1\x00ms")
    with pytest.raises(ValueError, match="null character"):
        bench.run(params={"tE\x00x": 1e-3})
    with pytest.raises(ValueError, match="null character"):
        bench.run(integrator="rk4\x00x")
    with pytest.raises(ValueError, match="null character"):
        bench.run(csv=str(tmp_path / "a.csv\x00b"))
    with pytest.raises(ValueError, match="null character"):
        jnt.compile(BENCH + "\x00.x")
    with pytest.raises(ValueError, match="null character"):
        jnt.compile_string(EVERY_STEP + "\x00garbage")
    with pytest.raises(ValueError, match="null character"):
        bench.simulation().set(tE="2\x00ms")
    assert not list(tmp_path.iterdir())


def test_output_memory_bounded(bench):
    # t_end = 100 s with a row every 1 us: 1e8 rows of 5 columns, 4 GB; the
    # buffer was allocated and filled with no limit. Now the CLI's limit
    # (1 GiB) applies before anything is allocated, and the message says
    # how many rows and how to raise it
    with pytest.raises(jnt.RunError) as e:
        bench.run(t_end=100, dt_out=1e-6)
    msg = str(e.value)
    assert "100000001 rows of 5 columns" in msg and "max_output" in msg, msg
    assert e.value.name == "JNT_ERR_PARAM" and len(e.value.result) == 0
    # the limit is an option, as --max-output is: K, M, G suffixes, 'none'
    with pytest.raises(jnt.RunError, match="limit of 1.02e-06 GB"):
        bench.run(max_output="1K")
    assert len(bench.run(max_output="none")) == len(bench.run()) == 1176
    assert len(bench.run(max_output=1176 * 5 * 8)) == 1176
    with pytest.raises(ValueError, match="option 'max_output'"):
        bench.run(max_output=-5)
    # a model writing a row every step: the rows counted as they come
    ev = jnt.compile_string(EVERY_STEP, "ev.jnt")
    with pytest.raises(jnt.RunError, match="101 rows of 2 columns"):
        ev.run(max_output=1000)
    sim = ev.simulation()
    sim.configure(max_output=1000)
    with pytest.raises(jnt.RunError, match="rows of 2 columns.*max_output"):
        sim.advance(0.1)
    # a simulation's history counts too: the CLI's run of that length is refused
    sim = bench.simulation()
    sim.configure(max_output="4K")
    with pytest.raises(jnt.RunError, match="max_output"):
        for _ in range(200):
            sim.step()
    assert len(sim.history) * 5 * 8 <= 4096


def test_use_after_close():
    # a model or simulation used after del (its __del__ called, or close())
    # gave MemoryError or stale numbers; now a clear error, and a
    # simulation keeps its model alive until it is closed
    m = jnt.compile_string(EVERY_MS, "ev.jnt")
    sim = m.simulation()
    sim.advance(0.01)
    sim.__del__()
    for use in (lambda: sim.t, lambda: sim.state, lambda: sim["b.x"], lambda: sim.advance(1),
                lambda: sim.set(), lambda: sim.configure(h=1e-3), lambda: sim.stats):
        with pytest.raises(jnt.UsageError, match="simulation of model 'ev' is closed"):
            use()
    assert len(sim.history) == 11  # the rows already written stay
    m.__del__()
    for use in (m.run, m.simulation, m.analyses):
        with pytest.raises(jnt.UsageError, match="model 'ev' is closed"):
            use()
    # closing a model a simulation still uses: the simulation goes on
    m = jnt.compile_string(EVERY_MS, "ev.jnt")
    sim = m.simulation()
    m.close()
    assert len(sim.advance(0.02)) == 21
    sim.close()
    sim.close()  # twice is harmless, like a file's
    with jnt.compile_string(EVERY_MS, "ev.jnt") as m2:
        with m2.simulation() as s2:
            s2.advance(0.001)
    with pytest.raises(jnt.UsageError):
        s2.t
    with pytest.raises(jnt.UsageError):
        m2.run()


def test_row_callback_every_step():
    # a model writing every step (every 0 s): advance() failed with
    # "stopped by the row callback" (its callback returned None, a
    # TypeError that ctypes ignored); its rows are the whole run's
    m = jnt.compile_string(EVERY_STEP, "ev.jnt")
    whole = m.run()
    sim = m.simulation()
    rows = sim.advance(0.05)
    assert rows.shape == (51, 2)
    rows2 = sim.advance(0.1)
    assert np.abs(sim.history.data - whole.data).max() < 1e-15
    assert len(rows) + len(rows2) == len(whole) == 101


def test_simulation_one_thread_at_a_time():
    # one Simulation stepped from two threads: the second got a wrong error
    # (or raced on the state); now it gets a clear one and the first runs on
    m = jnt.compile_string(EVERY_MS.replace("rk4(h = 1 ms)", "rk4(h = 1 us)")
                           .replace("0.1 s", "100 s"),
                           "slow.jnt")
    for attempt in range(5):
        sim = m.simulation()
        started, errors = threading.Event(), []

        def long_run():
            started.set()
            try:
                sim.advance(2.0)
            except jnt.BusyError as e:  # the main thread came first
                errors.append(str(e))

        t = threading.Thread(target=long_run)
        t.start()
        started.wait()
        for _ in range(2000):
            try:
                sim.step()
            except jnt.BusyError as e:
                errors.append(str(e))
                break
        t.join()
        if errors:
            break
    assert errors, "no overlap in 5 attempts"
    assert "not thread-safe" in errors[0] and "another thread" in errors[0], errors[0]
    assert issubclass(jnt.BusyError, RuntimeError) and issubclass(jnt.UsageError, ValueError)
    # the one that held it ran on undisturbed: its rows are the grid's
    h = sim.history
    assert len(h) >= 1 and np.allclose(np.diff(h.t), 1e-3, rtol=0, atol=1e-12)


# ---- the property test: hostile option values, Python against jnt run ----

def _hostile(rng):
    """A random hostile value: numbers out of range or not finite, text
    with and without units, NULs, wrong types."""
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice([-1, 0, -0.0, 1e-300, 1e300, float("nan"), math.inf, -math.inf, 5,
                           1e-5, 3e-4, 1e-3, 2e-2, 0.5, -2e-3, 2**63, 1.5])
    if kind == 1:
        return rng.choice(["1e-4", "0.1 ms", "0.1ms", " 2e-3 ", "10 us", "1 kg", "abc", "",
                           " ", "nan", "inf", "-1", "1e999", "0x10", "1,5", "1 ms\x00", "\x00",
                           "1\x00e-3", "1 ms ms", "1e-3 m/s", "2 min", "1e-5 s"])
    if kind == 2:
        return rng.choice([None, True, False, [1e-3], b"1e-3", object(), 1j, {}])
    # a number written as text, as the CLI gets it
    return repr(rng.choice([1e-3, 2e-3, 5e-4, 1e-6, 1e-7, 0.1]))


def _cli_text(v):
    if isinstance(v, str):
        return v
    return repr(float(v)) if isinstance(v, float) else str(v)


def _python(model, opt, v):
    """('ok', rows), ('usage', message) or ('run', message)."""
    try:
        if opt == "max_output":
            r = model.run(max_output=v)
        elif opt.startswith("D:"):
            r = model.run(params={opt[2:]: v})
        else:
            r = model.run(**{opt: v})
        return "ok", r.data
    except (ValueError, TypeError) as e:
        assert str(e), "an error without a message"
        return "usage", str(e)
    except jnt.RunError as e:
        return "run", str(e)


def _cli(path, opt, v, out):
    if opt.startswith("D:"):
        args = ["-D", "%s=%s" % (opt[2:], v)]
    else:
        args = ["--" + opt.replace("_", "-"), v]
    p = subprocess.run([JNT_BIN, "run", path] + args + ["-o", out], capture_output=True,
                       text=True, timeout=60)
    if p.returncode == 0:  # a structured array, a field a column
        a = np.load(out)
        return "ok", np.column_stack([a[f] for f in a.dtype.names])
    return {1: "run", 2: "usage"}[p.returncode], p.stderr


@pytest.mark.skipif(not os.access(JNT_BIN, os.X_OK), reason="no jnt binary ($JNT_BIN)")
def test_property_hostile_options(tmp_path):
    """Each hostile value of an option or parameter is accepted by Python
    exactly when jnt run accepts it, with the same rows (bit for bit, the
    CLI writing .npy), or refused as a usage error (ValueError, TypeError)
    where the CLI exits 2, or fails the run (RunError) where it exits 1.
    Values the command line cannot carry (a NUL, a list, None as a value)
    must raise ValueError or TypeError. Seeded: the same 200 cases a run
    ($JNT_PY_SEED, $JNT_PY_CASES choose others, for a longer campaign)."""
    path = str(tmp_path / "osc.jnt")
    with open(path, "w") as f:
        f.write(OSC)
    model = jnt.compile(path)
    rng = random.Random(int(os.environ.get("JNT_PY_SEED", "27")))
    opts = ["h", "rtol", "atol", "integrator", "max_output", "D:tE", "D:dt", "D:F0", "t_end"]
    seen = {"ok": 0, "usage": 0, "run": 0}
    for case in range(int(os.environ.get("JNT_PY_CASES", "200"))):
        opt = rng.choice(opts)
        v = _hostile(rng) if opt != "integrator" else rng.choice(
            ["rk4", "bdf", "dopri5", "radau5", "hht", "central", "", "BDF", "rk4 ", "bdf\x00",
             None, 3, "x" * 300])
        got = _python(model, opt, v)
        seen[got[0]] += 1
        what = "case %d: %s = %r: python %s" % (case, opt, v, got[0])
        if v is None and not opt.startswith("D:"):
            assert got[0] == "ok", what  # None: the option is not given
            continue
        if opt == "t_end":  # Python's own option: a run to exactly that time, or an error
            if got[0] == "ok":
                end = float(v) if not isinstance(v, str) else None
                assert end is None or got[1][-1, 0] == end, what
            else:
                assert got[1], what  # refused, or the run's own error (CVode's tstop)
            continue
        carried = (isinstance(v, str) and "\x00" not in v) or (
            isinstance(v, (int, float)) and not isinstance(v, bool))
        if not carried:
            assert got[0] == "usage", what + ": " + str(got[1])
            continue
        out = str(tmp_path / ("c%d.npy" % case))
        want = _cli(path, opt, _cli_text(v), out)
        assert got[0] == want[0], "%s, jnt run %s (%s)" % (what, want[0], str(want[1])[:200])
        if got[0] == "ok":
            assert np.array_equal(got[1], want[1], equal_nan=True), what
    assert min(seen.values()) > 0, seen
