"""jnt: the dynamics of jointed structures from Python.

    import jnt
    m = jnt.compile("examples/frdyn2_bench.jnt")   # compiled once
    r = m.run(tE="0.3 ms")                          # a Result of numpy columns
    r.t, r["F_R"], r.stats["steps"]
    sim = m.simulation()                            # step by step
    sim.step(); sim["block.x.v"] = 0.0; sim.set(ratio=0.5); sim.history

A thin layer over libjnt's C API (ctypes, numpy); options are checked as
`jnt run` checks them; see docs/python.md.
"""
from .model import (BusyError, CompileError, Error, Model, Param, Result, RunError, Simulation,
                    UsageError, compile, compile_string, read_csv, version)

__all__ = ["BusyError", "CompileError", "Error", "Model", "Param", "Result", "RunError",
           "Simulation", "UsageError", "compile", "compile_string", "read_csv", "version"]
