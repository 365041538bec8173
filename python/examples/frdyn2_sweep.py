"""Sweep the step duration tE of the FrDyn2 friction test bench (Rill and
Schuderer 2023, seed 002, Sect. 5: step responses near the adhesion limit)
and plot the block's displacement for each, from one compiled model.

    PYTHONPATH=python python3 python/examples/frdyn2_sweep.py [OUT.png]

Run it as a script or paste it cell by cell into a notebook.
"""
import os
import sys

import matplotlib
if "DISPLAY" not in os.environ:
    matplotlib.use("Agg")
import matplotlib.pyplot as plt

import jnt

here = os.path.dirname(os.path.abspath(__file__))
model = jnt.compile(os.path.join(here, "..", "..", "examples", "frdyn2_bench.jnt"))
print(model)

# one compile, many runs: tE from 0.3 ms to 3 ms (each run is a few ms)
fig, (ax_u, ax_f) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
for tE in [0.3e-3, 0.5e-3, 1e-3, 2e-3, 3e-3]:
    r = model.run(tE=tE)
    label = "tE = %.1f ms (%d steps)" % (tE * 1e3, r.stats["steps"])
    ax_u.plot(r.t * 1e3, r["u"] * 1e6, label=label)
    ax_f.plot(r.t * 1e3, r["F_R"], label=label)
ax_u.set_ylabel("u (um)")
ax_f.set_ylabel("F_R (N)")
ax_f.set_xlabel("t (ms)")
ax_u.legend(fontsize=8)
ax_u.set_title("FrDyn2 bench: push of 0.95 F_s over tE (seed 002, Sect. 5)")
for ax in (ax_u, ax_f):
    ax.grid(True)
out = sys.argv[1] if len(sys.argv) > 1 else "frdyn2_sweep.png"
fig.tight_layout()
fig.savefig(out, dpi=100)
print("wrote", out)
