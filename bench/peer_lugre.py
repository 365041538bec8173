#!/usr/bin/python3
# bench/peer_lugre.py: peer for examples/lugre_stickslip.jnt with SciPy.
#
# The LuGre stick-slip system of seed 001, E3 (digest Sect. 2.7; Canudas de
# Wit et al. 1995): x' = v, v' = (K (R t - x) - F_L) / M,
#   z' = v - |v| z / G(v),  G(v) = (F_C + (F_S - F_C) exp(-(v/V_S)^2)) / sigma0,
#   F_L = sigma0 z + sigma1 z' + sigma2 v,
# from rest over 0..t_end, solved by scipy.integrate.solve_ivp (Radau, BDF)
# with the analytic Jacobian (--fd: SciPy's finite differences instead) and
# the output grid t_eval = 0, dt_out, ..., t_end (as the jnt model's CSV).
#
# Only the solve_ivp call is timed (time.perf_counter), repeated --repeat
# times; one line per method:
#   peer=scipy case=lugre rtol=.. atol=.. method=Radau time_s_min=.. time_s_med=.. nfev=..
#   njev=.. nlu=.. x_end=.. FL_max=.. status=..
# Run with /usr/bin/python3 (Debian's python3-scipy).
import argparse
import statistics
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

M, K, R = 1.0, 2.0, 0.1
S0, S1, S2 = 1e5, np.sqrt(1e5), 0.4
FC, FS, VS = 1.0, 1.5, 1e-3


def rhs(t, y):
    x, v, z = y
    G = (FC + (FS - FC) * np.exp(-(v / VS) ** 2)) / S0
    zd = v - abs(v) * z / G
    FL = S0 * z + S1 * zd + S2 * v
    return np.array([v, (K * (R * t - x) - FL) / M, zd])


def jac(t, y):
    x, v, z = y
    e = np.exp(-(v / VS) ** 2)
    G = (FC + (FS - FC) * e) / S0
    dG = (FS - FC) * e * (-2.0 * v / VS ** 2) / S0
    # h = |v| z / G: partial derivatives in v and z
    hv = np.sign(v) * z / G - abs(v) * z * dG / G ** 2
    hz = abs(v) / G
    zd_v, zd_z = 1.0 - hv, -hz
    F_v, F_z = S1 * zd_v + S2, S0 + S1 * zd_z
    return np.array([[0.0, 1.0, 0.0],
                     [-K / M, -F_v / M, -F_z / M],
                     [0.0, zd_v, zd_z]])


def friction(t, y):
    x, v, z = y
    G = (FC + (FS - FC) * np.exp(-(v / VS) ** 2)) / S0
    return S0 * z + S1 * (v - np.abs(v) * z / G) + S2 * v


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--methods", default="Radau,BDF")
    ap.add_argument("--rtol", type=float, default=1e-10)
    ap.add_argument("--atol", type=float, default=1e-12)
    ap.add_argument("--t-end", type=float, default=20.0)
    ap.add_argument("--dt-out", type=float, default=1e-3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fd", action="store_true", help="finite-difference Jacobian")
    a = ap.parse_args()
    n = int(round(a.t_end / a.dt_out))
    t_eval = np.minimum(np.arange(n + 1) * a.dt_out, a.t_end)
    y0 = np.zeros(3)
    for method in a.methods.split(","):
        times = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            sol = solve_ivp(rhs, (0.0, a.t_end), y0, method=method, rtol=a.rtol, atol=a.atol,
                            t_eval=t_eval, jac=None if a.fd else jac)
            times.append(time.perf_counter() - t0)
        FL = friction(sol.t, sol.y)
        print("peer=scipy case=lugre rtol=%g atol=%g method=%s jac=%s time_s_min=%.6g "
              "time_s_med=%.6g nfev=%d njev=%d nlu=%d x_end=%.12g FL_max=%.12g status=%d"
              % (a.rtol, a.atol, method, "fd" if a.fd else "analytic", min(times),
                 statistics.median(times),
                 sol.nfev, sol.njev, sol.nlu, sol.y[0, -1], FL.max(), sol.status))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
