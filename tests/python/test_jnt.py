"""The Python package (python/jnt) against libjnt: compile, parameters, runs
with changed parameters, errors as exceptions with file:line, threads,
analyses, and step-by-step runs against whole runs (docs/python.md).
Run by tests/run.sh with PYTHONPATH=python and JNT_LIB=$B/libjnt.so."""
import os
import threading

import numpy as np
import pytest

import jnt

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
BENCH = os.path.join(ROOT, "examples", "frdyn2_bench.jnt")
SERVO = os.path.join(ROOT, "tests", "python", "servo.jnt")
# the bench's stick force: F_E = ratio * 0.6 m g; in stick u = F_E / sigma0
# (seed 002, Sect. 5)
SIGMA0 = 5e6


@pytest.fixture(scope="module")
def bench():
    return jnt.compile(BENCH)


def test_compile_declares(bench):
    assert bench.name == "frdyn2_bench"
    assert bench.outputs == ["t", "u", "v", "F", "F_R"]
    p = {q.name: q for q in bench.params}
    assert p["g"].unit == "m/s^2" and p["g"].default == 9.81
    assert p["tE"].unit == "s" and p["tE"].default == 1e-3
    assert p["ratio"].unit == ""
    assert jnt.version().count(".") == 2


def test_run_changed_parameter(bench):
    # a slow step: the block sticks at u = F_E / sigma0; half the force, half u
    r1 = bench.run(tE="100 ms")
    r2 = bench.run(tE=0.1, ratio=0.475)
    fe = 0.95 * 0.6 * 9.81
    assert r1["u"][-1] == pytest.approx(fe / SIGMA0, rel=0.02)
    assert r2["u"][-1] / r1["u"][-1] == pytest.approx(0.5, rel=0.02)
    assert r1.t[-1] == pytest.approx(0.1 * 1.75 + 0.01)
    assert r1.stats["steps"] > 0 and r1.stats["rejected"] >= 0


def test_rows_equal_csv(bench, tmp_path):
    out = tmp_path / "bench.csv"
    r = bench.run(csv=str(out))
    f = jnt.read_csv(str(out))
    assert f.columns == r.columns
    assert np.array_equal(f.data, r.data)  # the CSV's shortest round-trip text
    assert r.units == f.units == {"t": "s", "u": "m", "v": "m/s", "F": "N", "F_R": "N"}


def test_csv_self_describing(bench, tmp_path):
    # the lines after the header (docs/cli.md, "Output files") and the one
    # numpy call the docs give for reading the file with its names
    out = tmp_path / "bench.csv"
    r = bench.run(csv=str(out), ratio=0.5)
    lines = out.read_text().splitlines()
    assert lines[0] == "t,u,v,F,F_R"
    assert lines[1] == "# units: s,m,m/s,N,N"
    assert lines[2].startswith("# jnt %s: model frdyn2_bench from " % jnt.version())
    assert "; integrator bdf; parameters m = 1 kg, g = 9.81 m/s^2, ratio = 0.5, " in lines[2]
    assert lines[-1].startswith("# jnt: complete at t = ")
    a = np.genfromtxt(str(out), delimiter=",", names=True)
    assert a.dtype.names == tuple(r.columns)
    assert np.array_equal(a["u"], r["u"]) and len(a) == len(r)


def test_compile_error_has_location(tmp_path):
    bad = tmp_path / "bad.jnt"
    bad.write_text("model bad\nbody b : point(mass = 1 kg) { dof x }\n"
                   "force f on b.x = 1 m\n")
    with pytest.raises(jnt.CompileError) as e:
        jnt.compile(str(bad))
    assert "bad.jnt:3:18: error: a force must be in N, but this is in m" in str(e.value)
    assert e.value.name == "JNT_ERR_MODEL"


def test_unknown_parameter(bench):
    with pytest.raises(jnt.Error) as e:
        bench.run(ratoi=0.5)
    assert "unknown parameter 'ratoi'; did you mean 'ratio'?" in str(e.value)


def test_run_error_keeps_rows():
    m = jnt.compile(os.path.join(ROOT, "tests", "cli", "diverge.jnt"))
    with pytest.raises(jnt.RunError) as e:
        m.run()
    assert "became not finite" in e.value.message and e.value.name == "JNT_ERR_NONFINITE"
    assert len(e.value.result) > 100 and np.isfinite(e.value.result["x"]).all()


def test_threads_equal_sequential(bench):
    ratios = [0.5, 0.7, 0.9, 0.95]
    seq = [bench.run(ratio=q).data for q in ratios]
    par = [None] * len(ratios)

    def work(i):
        par[i] = bench.run(ratio=ratios[i]).data
    ts = [threading.Thread(target=work, args=(i,)) for i in range(len(ratios))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for a, b in zip(seq, par):
        assert np.array_equal(a, b)


def test_analyses():
    m = jnt.compile(os.path.join(ROOT, "examples", "cantilever_modes.jnt"))
    tables = m.analyses()
    assert tables, "the example declares analyses"
    for name, t in tables.items():
        assert len(t) > 0 and len(t.columns) == t.data.shape[1], name


def test_steps_equal_whole_run(bench):
    # no intervention: rk4 over the output grid is the whole run exactly
    whole = bench.run(integrator="rk4", h=1e-6)
    sim = bench.simulation()
    sim.configure(integrator="rk4", h=1e-6)
    while sim.t < whole.t[-1] - 1e-12:
        sim.step()
    h = sim.history
    assert h.data.shape == whole.data.shape
    assert np.abs(h.data - whole.data).max() < 1e-12


def test_servo_closed_loop(tmp_path):
    # the whole run's in-model controller, stepped: BDF restarts each step,
    # so the pieces match the whole run to its tolerance
    m = jnt.compile(SERVO)
    csv = tmp_path / "servo.csv"
    m.run(Kp=50, csv=str(csv))
    whole = jnt.read_csv(str(csv))
    sim = m.simulation(Kp=50)
    sim.step(2000)
    assert np.abs(sim.history["x"] - whole["x"]).max() < 1e-6
    print("MEASURE: python.servo.stepped_vs_whole %.17g"
          % np.abs(sim.history["x"] - whole["x"]).max())
    # a proportional controller in Python, its force held over each 1 ms
    # step: the continuous loop's trajectory to O(step), the block stops
    # within the stiction band F_S / Kp of the reference
    sim = m.simulation()
    for _ in range(2000):
        sim.set(u=50 * (0.1 - sim["block.x"]))
        sim.step()
    x = sim.history["x"]
    assert len(x) == len(whole) and sim.t == pytest.approx(2.0)
    assert np.abs(x - whole["x"]).max() < 1e-3
    print("MEASURE: python.servo.python_loop_vs_model %.17g" % np.abs(x - whole["x"]).max())
    assert abs(x[-1] - 0.1) < 1.5 / 50
    assert abs(sim["block.x.v"]) < 1e-3


def test_state_set_mid_run():
    m = jnt.compile(SERVO)
    sim = m.simulation()
    sim.step(10)
    with pytest.raises(KeyError):
        sim["nope"]
    sim["block.x.v"] = 0.2  # a kick: the block slides, friction stops it
    sim.step(200)
    assert sim["block.x"] > 0.005
    assert len(sim.history) == 211


def test_example_script(tmp_path):
    # python/examples/frdyn2_sweep.py: five runs of one model, a matplotlib figure
    import subprocess
    import sys
    out = tmp_path / "sweep.png"
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=os.path.join(ROOT, "python"))
    env.pop("DISPLAY", None)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "python", "examples", "frdyn2_sweep.py"),
                        str(out)], env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:4] == b"\x89PNG" and out.stat().st_size > 20000


BELT = """model belt
import friction
param v0 = 0.1 m/s
ground wall
body belt : point() { dof x }             // no mass: a support driven by its motion
body block : point(mass = 1 kg) { dof x }
spring s between block.x and wall { stiffness = 100 N/m }
motion drive on belt.x = v0 * t
friction f between block.x and belt.x { normal = 9.81 N  law = coulomb_tanh(mu = 0.3) }
simulate { integrator = bdf(rtol = 1e-9, atol = 1e-12)  until = 0.03 s }
output "belt.csv" every 1 ms { t, x = block.x, v = block.v, xb = belt.x, vb = belt.v }
"""


def test_massless_driven_support():
    # a belt moving at v0 as a massless point with a motion (issue 16: no
    # dummy mass): it follows v0 t exactly, and the block slips on it at
    # mu N = 2.943 N until its speed (mu N / k) w sin(w t) reaches v0:
    # x = (mu N / k)(1 - cos w t), w = sqrt(k / m) = 10 rad/s, for t < 34.7 ms
    # (coulomb_tanh's v_reg = 1 mm/s is far below the slip speed there)
    r = jnt.compile_string(BELT, "belt.jnt").run()
    t = r.t
    assert np.array_equal(r["xb"], 0.1 * t) and np.all(r["vb"] == 0.1)
    F, k, w = 0.3 * 9.81, 100.0, 10.0
    slip = t < 0.03
    assert np.allclose(r["x"][slip], F / k * (1 - np.cos(w * t[slip])), rtol=0, atol=2e-8)
    assert np.all(r["v"][slip] < 0.1)
