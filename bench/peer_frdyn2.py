#!/usr/bin/python3
# bench/peer_frdyn2.py: peer for examples/frdyn2_bench.jnt with SciPy.
#
# The virtual friction test bench of seed 002 (Rill & Schuderer 2023,
# Listings A1-A4): a block m on a plate pushed by F = step3(t, 0, tE, 0,
# ratio Fs), FrDyn2 friction with states z, zd:
#   F0 = sigma0 z + sigma1 v,  dv = sign(F0) v_s (1 - sqrt(max(1 - |F0|/(mu_s N), 0)))
#   vr = v - zd + dv,  F_R = sign(vr) mu(|vr|) N    (parabola, cubic, mu_d)
#   z' = zd,  zd' = (F_R - sigma0 z - sigma1 zd) 4 sigma0 / sigma1^2
#   u' = v,   v'  = (F - F_R) / m
# over 0..1.75 tE + 10 ms (the model's t_end), rtol 1e-6, atol 1e-9 (the
# paper's ode15s settings), solved by scipy.integrate.solve_ivp (Radau, BDF)
# with the analytic Jacobian (--fd: SciPy's finite differences) and the
# output grid t_eval = 0, dt_out, ..., t_end (as the jnt model's CSV).
#
# Only the solve_ivp call is timed (time.perf_counter), repeated --repeat
# times; one line per (tE, method):
#   peer=scipy case=frdyn2 tE=.. method=Radau time_s_min=.. time_s_med=..
#   nfev=.. njev=.. nlu=.. u_end=.. FR_end=.. status=..
# Run with /usr/bin/python3 (Debian's python3-scipy).
import argparse
import math
import statistics
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

m, g = 1.0, 9.81
mu_s, v_s, mu_d, v_d = 0.6, 1e-3, 0.3, 1e-2
s0, s1 = 5e6, 3192.75
N = m * g
Fs = mu_s * N
kb = 4.0 * s0 / s1 ** 2          # 1 / m_b, eq. 3


def sgn(x):
    return 1.0 if x > 0 else (-1.0 if x < 0 else 0.0)


def step3(x, x0, x1, f0, f1):
    """Listing A3: cubic step from f0 at x0 to f1 at x1, constant outside."""
    if x <= x0:
        return f0
    if x >= x1:
        return f1
    xi = (x - x0) / (x1 - x0)
    return f0 + (f1 - f0) * xi * xi * (3.0 - 2.0 * xi)


def friction(v, z, zd):
    """FrDyn2 (Listing A4): F_R, dF_R/dvr, dvr/dF0 pieces."""
    F0 = s0 * z + s1 * v
    dis = max(1.0 - abs(F0) / Fs, 0.0)
    sq = math.sqrt(dis)
    dv = sgn(F0) * v_s * (1.0 - sq)
    vr = v - zd + dv
    va = abs(vr)
    if va <= v_s:
        x1 = va / v_s
        mu = x1 * (2.0 - x1) * mu_s
        dmu = (2.0 - 2.0 * x1) * mu_s / v_s
    elif va < v_d:
        x2 = (va - v_s) / (v_d - v_s)
        mu = mu_d + (mu_s - mu_d) * (1.0 - x2 * x2 * (3.0 - 2.0 * x2))
        dmu = (mu_s - mu_d) * (-6.0 * x2 + 6.0 * x2 * x2) / (v_d - v_s)
    else:
        mu = mu_d
        dmu = 0.0
    # d(dv)/dF0 = v_s / (2 Fs sqrt(dis)) inside the stick limit, 0 beyond
    ddv = v_s / (2.0 * Fs * sq) if dis > 0.0 else 0.0
    return sgn(vr) * mu * N, N * dmu, ddv


def make(ratio, tE):
    Fa = ratio * Fs

    def rhs(t, y):
        u, v, z, zd = y.tolist()
        FR = friction(v, z, zd)[0]
        F = step3(t, 0.0, tE, 0.0, Fa)
        return np.array([v, (F - FR) / m, zd, (FR - s0 * z - s1 * zd) * kb])

    def jac(t, y):
        u, v, z, zd = y.tolist()
        FR, dFR, ddv = friction(v, z, zd)
        # vr = v - zd + dv(F0): partials in (v, z, zd)
        r_v, r_z, r_zd = dFR * (1.0 + ddv * s1), dFR * ddv * s0, -dFR
        return np.array([[0.0, 1.0, 0.0, 0.0],
                         [0.0, -r_v / m, -r_z / m, -r_zd / m],
                         [0.0, 0.0, 0.0, 1.0],
                         [0.0, kb * r_v, kb * (r_z - s0), kb * (r_zd - s1)]])

    return rhs, jac


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tE", default="0.1,0.01,0.001,0.0001")
    ap.add_argument("--ratio", type=float, default=0.95)
    ap.add_argument("--methods", default="Radau,BDF")
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-9)
    ap.add_argument("--dt-out", type=float, default=1e-5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fd", action="store_true", help="finite-difference Jacobian")
    a = ap.parse_args()
    for tE in [float(s) for s in a.tE.split(",")]:
        t_end = 1.75 * tE + 10e-3
        n = int(math.floor(t_end / a.dt_out + 1e-9))
        t_eval = np.minimum(np.arange(n + 1) * a.dt_out, t_end)
        if t_eval[-1] < t_end * (1 - 1e-12):
            t_eval = np.append(t_eval, t_end)
        rhs, jac = make(a.ratio, tE)
        for method in a.methods.split(","):
            times = []
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                sol = solve_ivp(rhs, (0.0, t_end), np.zeros(4), method=method, rtol=a.rtol,
                                atol=a.atol, t_eval=t_eval, jac=None if a.fd else jac)
                times.append(time.perf_counter() - t0)
            y = sol.y[:, -1]
            print("peer=scipy case=frdyn2 tE=%g method=%s jac=%s time_s_min=%.6g time_s_med=%.6g "
                  "nfev=%d njev=%d nlu=%d rows=%d u_end=%.12g FR_end=%.12g status=%d"
                  % (tE, method, "fd" if a.fd else "analytic", min(times),
                     statistics.median(times), sol.nfev, sol.njev, sol.nlu, sol.t.size,
                     y[0], friction(y[1], y[2], y[3])[0], sol.status))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
