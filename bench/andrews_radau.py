#!/usr/bin/python3
# bench/andrews_radau.py: Andrews' squeezing mechanism with SciPy's Radau on the
# index-1 form of the test set's minimal formulation (section 11 of `make bench`,
# bench/andrews.sh).
#
# The Test Set for IVP Solvers (Mazzia and Magherini, problem "andrews";
# Hairer and Wanner, Solving ODEs II, Sect. VII.7) writes the mechanism in seven
# relative angles q = (beta, Theta, gamma, Phi, delta, Omega, epsilon) and six
# multipliers:
#     M(q) q'' = f(q, q') - G(q)^T lambda,    g(q) = 0,    G = dg/dq,
# an index-3 DAE. Differentiating g twice gives G q'' + c(q, q') = 0 with
#     c_i = q'^T (d^2 g_i / dq^2) q'
# (below, analytically: every term of g is r cos(a) or r sin(a) of a sum a of
# angles, whose second derivative without the a'' part is -r cos(a) a'^2 or
# -r sin(a) a'^2), so that at every right-hand side evaluation
#     [M  G^T] [q''   ]   [f ]
#     [G  0  ] [lambda] = [-c]
# is solved for q'': an ODE in y = (q, q') of 14 states (index 1). It keeps g'' =
# 0, not g = 0: g drifts, and its value at t_end is reported.
#
# From the test set's consistent initial angles at rest to t_end = 0.03 s,
# solve_ivp(method='Radau') with SciPy's finite-difference Jacobian, for each
# rtol of --rtols in turn (atol = rtol * --atol-factor). With --target ERR the
# first rtol whose error is at most ERR is picked and timed --repeat times, and
# the tighter ones are not run; without it every rtol is timed. One line per
# tolerance run:
#   peer=scipy case=andrews method=Radau rtol=.. atol=.. pick=0|1 cpu_s_min=..
#   cpu_s_med=.. n=.. steps=.. nfev=.. rhs_calls=.. njev=.. nlu=.. err=.. drift_g=..
#   drift_gd=.. status=.. final=beta,Theta,...
# cpu: time.process_time around the solve_ivp call only, over n runs; steps:
# accepted steps (len(sol.t) - 1); nfev: SciPy's count; rhs_calls: every call
# of the right-hand side, finite-difference Jacobians included; err: the largest
# |angle - reference| (rad) at t_end against the test set's andsoln (PSIDE at
# rtol = atol = 1e-14); drift_g = max |g(q)| (m), drift_gd = max |G(q) q'| (m/s)
# at t_end. --check compares c with a second difference of g along q' (for
# testing this file).
# Run with /usr/bin/python3 (Debian's python3-scipy).
import argparse
import statistics
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

# the test set's data (andrews.f, subroutine andpar)
M1, M2, M3, M4, M5, M6, M7 = .04325, .00365, .02373, .00706, .07050, .00706, .05498
XA, YA, XB, YB, XC, YC = -.06934, -.00227, -.03635, .03273, .014, .072
C0 = 4530.0
I1, I2, I3, I4, I5, I6, I7 = 2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5
D, DA, E, EA = 28e-3, 115e-4, 2e-2, 1421e-5
RR, RA, L0 = 7e-3, 92e-5, 7785e-5
SS, SA, SB, SC, SD = 35e-3, 1874e-5, 1043e-5, 18e-3, 2e-2
TA, TB, U, UA, UB = 2308e-5, 916e-5, 4e-2, 1228e-5, 449e-5
ZF, ZT, FA, MOM = 2e-2, 4e-2, 1421e-5, 33e-3

# the test set's consistent initial angles (andrews.f, yini), at rest
Q0 = np.array([-0.0617138900142764496358948458001, 0.0,
               0.455279819163070380255912382449, 0.222668390165885884674473185609,
               0.487364979543842550225598953530, -0.222668390165885884674473185609,
               1.23054744454982119249735015568])
# the reference at t = 0.03 s (andrews.f, andsoln: the angles)
QREF = np.array([15.81077119629904, -15.75637105984298, 0.04082224013073101,
                 -0.5347301163226948, 0.5244099658805304, 0.5347301163226948,
                 1.048080741042263])
T_END = 0.03

EE = E - EA
ZFA = ZF - FA


def constraints(q):
    """g(q): the six loop-closure rows (m)."""
    be, th, ga, ph, de, om, ep = q
    x1 = RR * np.cos(be) - D * np.cos(be + th)
    y1 = RR * np.sin(be) - D * np.sin(be + th)
    return np.array([x1 - SS * np.sin(ga) - XB,
                     y1 + SS * np.cos(ga) - YB,
                     x1 - E * np.sin(ph + de) - ZT * np.cos(de) - XA,
                     y1 + E * np.cos(ph + de) - ZT * np.sin(de) - YA,
                     x1 - ZF * np.cos(om + ep) - U * np.sin(ep) - XA,
                     y1 - ZF * np.sin(om + ep) + U * np.cos(ep) - YA])


def parts(q, v):
    """M(q), f(q, q'), G(q) and c(q, q') = q'^T g_qq q' of the minimal formulation."""
    be, th, ga, ph, de, om, ep = q
    bp, tp, gp, pp, dp, op, epp = v
    sibe, cobe = np.sin(be), np.cos(be)
    sibt, cobt = np.sin(be + th), np.cos(be + th)
    siga, coga = np.sin(ga), np.cos(ga)
    sipd, copd = np.sin(ph + de), np.cos(ph + de)
    side, code = np.sin(de), np.cos(de)
    sioe, cooe = np.sin(om + ep), np.cos(om + ep)
    siep, coep = np.sin(ep), np.cos(ep)
    sith, coth = np.sin(th), np.cos(th)
    siph, coph = np.sin(ph), np.cos(ph)
    siom, coom = np.sin(om), np.cos(om)

    m = np.zeros((7, 7))
    m[0, 0] = M1 * RA**2 + M2 * (RR**2 - 2 * DA * RR * coth + DA**2) + I1 + I2
    m[1, 0] = m[0, 1] = M2 * (DA**2 - DA * RR * coth) + I2
    m[1, 1] = M2 * DA**2 + I2
    m[2, 2] = M3 * (SA**2 + SB**2) + I3
    m[3, 3] = M4 * EE**2 + I4
    m[4, 3] = m[3, 4] = M4 * (EE**2 + ZT * EE * siph) + I4
    m[4, 4] = M4 * (ZT**2 + 2 * ZT * EE * siph + EE**2) + M5 * (TA**2 + TB**2) + I4 + I5
    m[5, 5] = M6 * ZFA**2 + I6
    m[6, 5] = m[5, 6] = M6 * (ZFA**2 - U * ZFA * siom) + I6
    m[6, 6] = M6 * (ZFA**2 - 2 * U * ZFA * siom + U**2) + M7 * (UA**2 + UB**2) + I6 + I7

    # the spring from D on body 3 to C, and the velocity-dependent terms
    xd = SD * coga + SC * siga + XB
    yd = SD * siga - SC * coga + YB
    lang = np.hypot(xd - XC, yd - YC)
    force = -C0 * (lang - L0) / lang
    fx, fy = force * (xd - XC), force * (yd - YC)
    f = np.array([MOM - M2 * DA * RR * tp * (tp + 2 * bp) * sith,
                  M2 * DA * RR * bp**2 * sith,
                  fx * (SC * coga - SD * siga) + fy * (SD * coga + SC * siga),
                  M4 * ZT * EE * dp**2 * coph,
                  -M4 * ZT * EE * pp * (pp + 2 * dp) * coph,
                  -M6 * U * ZFA * epp**2 * coom,
                  M6 * U * ZFA * op * (op + 2 * epp) * coom])

    G = np.zeros((6, 7))
    G[0::2, 0] = -RR * sibe + D * sibt
    G[0::2, 1] = D * sibt
    G[1::2, 0] = RR * cobe - D * cobt
    G[1::2, 1] = -D * cobt
    G[0, 2], G[1, 2] = -SS * coga, -SS * siga
    G[2, 3], G[2, 4] = -E * copd, -E * copd + ZT * side
    G[3, 3], G[3, 4] = -E * sipd, -E * sipd - ZT * code
    G[4, 5], G[4, 6] = ZF * sioe, ZF * sioe - U * coep
    G[5, 5], G[5, 6] = -ZF * cooe, -ZF * cooe - U * siep

    # c = d^2 g / dt^2 with q'' = 0: r cos(a) -> -r cos(a) a'^2, r sin(a) -> -r sin(a) a'^2
    w1, w2, w3, w4, w5 = bp**2, (bp + tp)**2, gp**2, (pp + dp)**2, dp**2
    w6, w7 = (op + epp)**2, epp**2
    cx = -RR * cobe * w1 + D * cobt * w2
    cy = -RR * sibe * w1 + D * sibt * w2
    c = np.array([cx + SS * siga * w3,
                  cy - SS * coga * w3,
                  cx + E * sipd * w4 + ZT * code * w5,
                  cy - E * copd * w4 + ZT * side * w5,
                  cx + ZF * cooe * w6 + U * siep * w7,
                  cy + ZF * sioe * w6 - U * coep * w7])
    return m, f, G, c


class Rhs:
    """The index-1 right-hand side y' = (q', q''), counting its calls."""

    def __init__(self):
        self.calls = 0
        self.A = np.zeros((13, 13))
        self.b = np.zeros(13)

    def __call__(self, t, y):
        self.calls += 1
        q, v = y[:7], y[7:]
        m, f, G, c = parts(q, v)
        A, b = self.A, self.b
        A[:7, :7] = m
        A[:7, 7:] = G.T
        A[7:, :7] = G
        A[7:, 7:] = 0.0
        b[:7] = f
        b[7:] = -c
        a = np.linalg.solve(A, b)
        return np.concatenate((v, a[:7]))


def check():
    """c against a central second difference of g along q' (h = 1e-4 / |q'|)."""
    rng = np.random.default_rng(1)
    worst = 0.0
    for _ in range(5):
        q = Q0 + rng.uniform(-1, 1, 7)
        v = rng.uniform(-1, 1, 7) * 1e3
        _, _, G, c = parts(q, v)
        s = 1e-4 / np.linalg.norm(v)
        c2 = (constraints(q + s * v) - 2 * constraints(q) + constraints(q - s * v)) / s**2
        g1 = (constraints(q + s * v) - constraints(q - s * v)) / (2 * s)
        worst = max(worst, np.max(np.abs(c2 - c)) / np.max(np.abs(c)),
                    np.max(np.abs(g1 - G @ v)) / np.max(np.abs(G @ v)))
    print("check: largest relative difference of G q' and c from differences of g: %.1e" % worst)
    print("check: |g(q0)| = %.1e m" % np.max(np.abs(constraints(Q0))))
    return 0 if worst < 1e-5 else 1


def solve(rt, at):
    """One solve_ivp run: (solution, CPU seconds, right-hand side calls)."""
    fun = Rhs()
    y0 = np.concatenate((Q0, np.zeros(7)))
    t0 = time.process_time()
    sol = solve_ivp(fun, (0.0, T_END), y0, method="Radau", rtol=rt, atol=at)
    return sol, time.process_time() - t0, fun.calls


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rtols", default="1e-6,1e-7,1e-8,1e-9,1e-10")
    ap.add_argument("--atol-factor", type=float, default=1.0)
    ap.add_argument("--target", type=float, default=0.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if a.check:
        return check()
    for rt in [float(s) for s in a.rtols.split(",")]:
        at = rt * a.atol_factor
        sol, c, calls = solve(rt, at)
        q, v = sol.y[:7, -1], sol.y[7:, -1]
        ok = sol.status == 0 and abs(sol.t[-1] - T_END) < 1e-12
        err = np.max(np.abs(q - QREF)) if ok else float("nan")
        pick = a.target > 0 and err <= a.target
        cpu = [c]
        if pick or a.target <= 0:
            cpu = [solve(rt, at)[1] for _ in range(a.repeat)]
        _, _, G, _ = parts(q, v)
        print("peer=scipy case=andrews method=Radau rtol=%g atol=%g pick=%d cpu_s_min=%.6g "
              "cpu_s_med=%.6g n=%d steps=%d nfev=%d rhs_calls=%d njev=%d nlu=%d err=%.3g "
              "drift_g=%.3g drift_gd=%.3g status=%d final=%s"
              % (rt, at, pick, min(cpu), statistics.median(cpu), len(cpu), len(sol.t) - 1,
                 sol.nfev, calls, sol.njev, sol.nlu, err, np.max(np.abs(constraints(q))),
                 np.max(np.abs(G @ v)), sol.status, ",".join("%.12g" % x for x in q)))
        sys.stdout.flush()
        if pick:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
