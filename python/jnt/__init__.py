"""jnt: the dynamics of jointed structures from Python.

    import jnt
    m = jnt.compile("examples/frdyn2_bench.jnt")   # compiled once
    r = m.run(tE="0.3 ms")                          # a Result of numpy columns
    r.t, r["F_R"], r.units["F_R"], r.stats["steps"]
    df = r.to_pandas()                              # units in df.attrs["units"]
    sim = m.simulation()                            # step by step
    sim.step(); sim["block.x.v"] = 0.0; sim.set(ratio=0.5); sim.history

A thin layer over libjnt's C API (ctypes, numpy); options are checked as
`jnt run` checks them; a model's errors raise CompileError, whose
.diagnostics list file, line, column, message and hint; in a notebook a
Model and a Result show as tables. See docs/python.md.
"""
from .diagnostics import Diagnostic
from .model import (BusyError, CompileError, CompileWarning, Error, Model, Param, RunError,
                    Simulation, StateProjectedWarning, UsageError, compile, compile_string,
                    read_csv, version)
from .result import Result

__all__ = ["BusyError", "CompileError", "CompileWarning", "Diagnostic", "Error", "Model", "Param",
           "Result", "RunError", "Simulation", "StateProjectedWarning", "UsageError", "compile",
           "compile_string", "read_csv", "version"]
