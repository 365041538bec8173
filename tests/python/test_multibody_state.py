"""States of a multibody model set between steps (issue 28 item 7;
docs/multibody.md, "States set between steps"): a value set is pinned and
the state assembled onto the joints at once, so what reads back is what the
next step starts from; a value the joints do not allow is projected with a
StateProjectedWarning naming the value before, the value set and the value
now; sim.set_states sets several values for one assembly; sim.consistent()
assembles on demand. examples/fourbar.jnt is a one-degree-of-freedom loop:
one velocity fixes all the others. Run with PYTHONPATH=python
JNT_LIB=$B/libjnt.so."""
import math
import os
import warnings

import numpy as np
import pytest

import jnt
from jnt import StateProjectedWarning

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FOURBAR = os.path.join(ROOT, "examples", "fourbar.jnt")
ORIGIN = os.path.join(ROOT, "examples", "fourbar_origin.jnt")
SERVO = os.path.join(ROOT, "tests", "python", "servo.jnt")


@pytest.fixture(scope="module")
def fourbar():
    return jnt.compile(FOURBAR)


def pin_a_speed(sim):
    """Speed of the crank's ground marker A (held by pinA): A = (x, y) -
    L1/2 (cos th, sin th), L1 = 0.1 m."""
    th, w = sim["crank.angle"], sim["crank.angle.v"]
    return math.hypot(sim["crank.x.v"] + 0.05 * math.sin(th) * w,
                      sim["crank.y.v"] - 0.05 * math.cos(th) * w)


def test_velocity_set_is_kept(fourbar):
    """The issue's case: sim['crank.angle.v'] = 5.0 was silently projected."""
    with fourbar.simulation() as sim:
        sim.step()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            sim["crank.angle.v"] = 5.0
        assert abs(sim["crank.angle.v"] - 5.0) < 1e-12
        assert pin_a_speed(sim) < 1e-12  # the other velocities moved with it
        sim.step()
        assert sim["crank.angle.v"] > 4.0  # before: -0.73 (started from the projection)
        assert sim.stats["projected"] == 0


def test_contradicting_values_warn(fourbar):
    with fourbar.simulation() as sim:
        sim.step()
        sim["crank.angle.v"] = 5.0
        with pytest.warns(StateProjectedWarning, match=r"'crank.angle.v' was -?[0-9.e-]+, set "
                          r"to 5, is [0-9.]+") as rec:
            sim["rocker.angle.v"] = 5.0
        moved = rec[0].message.moved
        assert list(moved) == ["crank.angle.v"]
        before, value, now = moved["crank.angle.v"]
        assert value == 5.0 and abs(now - sim["crank.angle.v"]) == 0 and abs(now - 5) > 1
        assert abs(sim["rocker.angle.v"] - 5.0) < 1e-12  # the value set last is kept
        assert pin_a_speed(sim) < 1e-12
        assert sim.stats["projected"] == 1
        # said once: the projected value now stands
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert sim.consistent() == {}


def test_position_set_and_far_value(fourbar):
    with fourbar.simulation() as sim:
        sim.step()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            sim["crank.angle"] = 1.2
        assert abs(sim["crank.angle"] - 1.2) < 1e-12
        rows = sim.step()
        assert abs(rows[-1][fourbar.outputs.index("r_C")]) < 1e-9  # the loop stays closed
        with pytest.warns(StateProjectedWarning, match="'crank.x'"):
            sim["crank.x"] = 1.0  # the crank's centre is 5 cm from its pivot
        assert abs(sim["crank.x"]) <= 0.05 + 1e-12


def test_set_states_together(fourbar):
    """A pose and a rate set in one call: one assembly, all kept."""
    with fourbar.simulation() as sim:
        sim.step()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            moved = sim.set_states({"crank.angle": 1.3, "crank.angle.v": -2.0})
        assert moved == {}
        assert abs(sim["crank.angle"] - 1.3) < 1e-12
        assert abs(sim["crank.angle.v"] + 2.0) < 1e-12
        assert pin_a_speed(sim) < 1e-12


def test_consistent_after_parameter_change(fourbar):
    with fourbar.simulation() as sim:
        sim.step()
        before = sim.state
        sim.set(L2="0.23 m")  # the coupler longer: the loop no longer closes
        assert sim.consistent() == {}
        after = sim.state
        assert np.max(np.abs(after - before)) > 1e-3
        rows = sim.step()
        assert abs(rows[-1][fourbar.outputs.index("r_C")]) < 1e-9


def test_saved_state_set_back(fourbar):
    """A state saved and set back whole is already on the joints: no
    warning, positions and velocities as saved (the multipliers, which the
    assembly computes, to 1e-6)."""
    with fourbar.simulation() as sim:
        sim.step()
        saved = sim.state
        sim.step(3)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            sim.state = saved
        now = sim.state
        nqv = sum(1 for n in fourbar.states if not n.rsplit(".", 1)[-1].startswith("lambda"))
        assert np.max(np.abs(now[:nqv] - saved[:nqv])) < 1e-12
        assert np.max(np.abs(now - saved)) < 1e-6
        assert sim.stats["projected"] == 0


def test_model_pins_at_start_only():
    """init pinA.angle = th1 holds at t0: steps resumed later went back to
    60 deg (2.7e-3 rad off at 30 ms); stepped = run now."""
    m = jnt.compile(ORIGIN)
    r = m.run(t_end=0.3)
    with m.simulation() as sim:
        rows = sim.step(30)
    whole = np.column_stack([r[c] for c in r.columns])
    assert rows.shape == whole.shape
    assert np.max(np.abs(rows - whole)) < 1e-6


def test_value_set_at_start_beats_model_pin():
    m = jnt.compile(ORIGIN)
    with m.simulation() as sim:
        sim["crank.angle"] = 1.2
        assert abs(sim["crank.angle"] - 1.2) < 1e-12
        sim.step()
        assert abs(sim["crank.angle"] - 1.2) < 0.01


def test_model_without_joints():
    m = jnt.compile(SERVO)
    with m.simulation() as sim:
        name = m.states[0]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            sim[name] = 0.125
            assert sim.consistent() == {}
        assert sim[name] == 0.125
