"""Bauchau et al. 2006 E4 (thesis Sect. 3.5, Table 3.3): the frictionless row in
closed form, and which reading of the dampers (eq. 3.9) it confirms.

With N = 0 the 3-DOF system is linear, y' = A y, y(0) = (0, 0, 0, v10, 0, 0).
The energy damper j dissipates by t_f is D_j = int_0^t_f c_j (l_j . v)^2 dt =
y0^T X_j y0, X_j = int_0^t_f exp(A^T t) Q_j exp(A t) dt, Q_j = c_j l_j l_j^T on
the velocities; with A = V diag(lam) V^-1 the integral is a sum over pairs of
eigenvalues: D_j = c_j sum_ik u_i u_k (exp((lam_i + lam_k) t_f) - 1) /
(lam_i + lam_k), u = l_j . (velocity rows of V) * (V^-1 y0). No integrator.

Called by tests/cli/seed001.sh with the sweep table of examples/energy_map.jnt
at N = 0 (columns N, r, D_34, D_tot); prints PASS/FAIL/INFO lines. Each check
names its source and tolerance. docs/sweeps.md ("Which damping the paper ran")
is the derivation in words.
"""
import csv
import sys

import numpy as np

# Table 3.1 and eqs. 3.8, 3.11; t_f = 15.1 s (Sect. 3.5)
m1, m2, m3 = 100.0, 0.25, 50.0
k1, k2, k3 = 1000.0, 100.0, 100.0
z1 = z2 = z4 = 0.01
z3 = 0.05
T_F, V10 = 15.1, 2.0
W1 = np.sqrt((k1 + k2) / m1)
W2 = np.sqrt((k2 + k3) / m2)
LS = np.array([[1, 0, 0], [-1, 1, 0], [0, -1, 1], [0, 0, 1]], float)  # eq. 3.16


def k4_of(r):
    """eq. 3.11"""
    return (m3 / m1) * r * r * (k1 + k2) - k3


def w3_of(r):
    """eq. 3.8c"""
    return np.sqrt((k3 + k4_of(r)) / m3)


def dissipated(c, r):
    """the energies D_1..D_4 the four dampers dissipate by T_F (closed form)"""
    k4 = k4_of(r)
    mass = np.array([m1, m2, m3])
    K = np.array([[k1 + k2, -k2, 0], [-k2, k2 + k3, -k3], [0, -k3, k3 + k4]])
    C = sum(cj * np.outer(l, l) for cj, l in zip(c, LS))
    A = np.block([[np.zeros((3, 3)), np.eye(3)],
                  [-K / mass[:, None], -C / mass[:, None]]])
    lam, V = np.linalg.eig(A)
    a = np.linalg.solve(V, np.array([0, 0, 0, V10, 0, 0], complex))
    vel = V[3:, :] * a
    S = lam[:, None] + lam[None, :]
    G = (np.exp(S * T_F) - 1) / S
    return np.array([cj * np.real((l @ vel) @ G @ (l @ vel)) for cj, l in zip(c, LS)])


def share(c, r):
    """100 D_34 / D_tot and D_tot"""
    d = dissipated(c, r)
    return 100 * (d[2] + d[3]) / d.sum(), d.sum()


C1 = 2 * z1 * W1 * m1
C2 = 2 * z2 * W2 * m2
# readings of eq. 3.9's c3 and c4 (c1, c2 as printed); the first is ours
READINGS = [
    ("c3 = 2 zeta3 omega2 m2, c4 = 2 zeta4 omega3 m3 (ours)",
     lambda r: (2 * z3 * W2 * m2, 2 * z4 * w3_of(r) * m3)),
    ("c3 = 2 zeta3 omega3 m3 as printed, c4 = 2 zeta4 omega3 m3",
     lambda r: (2 * z3 * w3_of(r) * m3, 2 * z4 * w3_of(r) * m3)),
    ("c3 = 2 zeta3 omega3 m3 as printed, c4 = 0",
     lambda r: (2 * z3 * w3_of(r) * m3, 0.0)),
    ("c3 = 2 zeta3 sqrt(k3 m2), c4 = 2 zeta4 omega3 m3",
     lambda r: (2 * z3 * np.sqrt(k3 * m2), 2 * z4 * w3_of(r) * m3)),
    ("c3 = 2 zeta3 sqrt(k3 m3), c4 = 2 zeta4 sqrt(k4 m3)",
     lambda r: (2 * z3 * np.sqrt(k3 * m3), 2 * z4 * np.sqrt(k4_of(r) * m3))),
    ("c3 = 2 zeta3 omega2 m2, c4 = 2 zeta4 sqrt(k4 m3)",
     lambda r: (2 * z3 * W2 * m2, 2 * z4 * np.sqrt(k4_of(r) * m3))),
    ("c3 = 2 zeta3 omega2 m2, c4 = 0",
     lambda r: (2 * z3 * W2 * m2, 0.0)),
]
R_HIGH = (2.0, 2.9, 3.9, 4.7, 5.7)


def fits(rd):
    """Table 3.3's frictionless row: 2.7 % at every r >= 2 (to its rounding,
    2.65..2.75), 42 % (41.5..42.5) and 130.4 J (1 %) at the absorber peak r = 1.0"""
    hi = [share((C1, C2) + rd(r), r)[0] for r in R_HIGH]
    s1, e1 = share((C1, C2) + rd(1.0), 1.0)
    ok = all(2.65 <= s < 2.75 for s in hi) and 41.5 <= s1 < 42.5 and abs(e1 / 130.4 - 1) < 0.01
    return ok, hi, s1, e1


def main():
    fails = 0

    def check(ok, text):
        nonlocal fails
        print(("PASS" if ok else "FAIL") + ": seed001: " + text)
        fails += not ok

    for i, (name, rd) in enumerate(READINGS):
        ok, hi, s1, e1 = fits(rd)
        # the figures docs/sweeps.md quotes (its table of readings)
        for r, sh in zip(R_HIGH, hi):
            print("MEASURE: e4lin.rd%d.share.r%s %.6g" % (i, r, sh))
        print("MEASURE: e4lin.rd%d.share.r1.0 %.6g" % (i, s1))
        print("MEASURE: e4lin.rd%d.dtot.r1.0 %.6g" % (i, e1))
        print("INFO: seed001: E4 N = 0 closed form, %s: %s %% at r = 2.0..5.7; %.1f %%, %.1f J "
              "at r = 1.0 (paper 2.7, 42 %%, 130.4 J)" % (name, " ".join("%.2f" % s for s in hi),
                                                        s1, e1))
        if i == 0:
            check(ok, "E4 N = 0 closed form, %s: 100 D_34 / D_tot = %s %% at r = 2.0, 2.9, 3.9, "
                  "4.7, 5.7 (Table 3.3: 2.7, 2.65..2.75), %.2f %% and %.2f J at the peak r = 1.0 "
                  "(Table 3.3: 42 %% and 130.4 J, 0.5 points and 1 %%)"
                  % (name, " ".join("%.2f" % s for s in hi), s1, e1))
        else:
            check(not ok, "E4 N = 0 closed form, %s: fails Table 3.3's row" % name)

    # the row pins c3 (r-independent, through 2.7 %) and c4 (through 42 % and
    # 130.4 J at r = 1): the values that fit, scanned
    c3_fit = [c3 for c3 in np.arange(0.60, 0.8001, 0.005)
              if all(2.65 <= share((C1, C2, c3, 2 * z4 * w3_of(r) * m3), r)[0] < 2.75
                     for r in R_HIGH)]
    c4_fit = [c4 for c4 in np.arange(2.5, 4.5001, 0.01)
              if 41.5 <= share((C1, C2, 2 * z3 * W2 * m2, c4), 1.0)[0] < 42.5
              and abs(share((C1, C2, 2 * z3 * W2 * m2, c4), 1.0)[1] / 130.4 - 1) < 0.005]
    print("MEASURE: e4lin.c3_fit.min %.6g" % min(c3_fit or [0]))
    print("MEASURE: e4lin.c3_fit.max %.6g" % max(c3_fit or [0]))
    print("MEASURE: e4lin.c3 %.6g" % (2 * z3 * W2 * m2))
    print("MEASURE: e4lin.c3_printed_per_r %.6g" % (2 * z3 * W1 * m3))
    print("MEASURE: e4lin.c4_fit.min %.6g" % min(c4_fit or [0]))
    print("MEASURE: e4lin.c4_fit.max %.6g" % max(c4_fit or [0]))
    print("MEASURE: e4lin.c4.r1.0 %.6g" % (2 * z4 * w3_of(1.0) * m3))
    check(c3_fit and min(c3_fit) <= 2 * z3 * W2 * m2 <= max(c3_fit) and max(c3_fit) - min(c3_fit) < 0.04,
          "E4 N = 0 closed form: the c3 giving 2.7 %% at every r >= 2 lie in %.3f..%.3f N s/m; "
          "2 zeta3 omega2 m2 = %.4f (2 zeta3 omega3 m3 = %.1f r)"
          % (min(c3_fit or [0]), max(c3_fit or [0]), 2 * z3 * W2 * m2, 2 * z3 * W1 * m3))
    check(c4_fit and min(c4_fit) <= 2 * z4 * w3_of(1.0) * m3 <= max(c4_fit),
          "E4 N = 0 closed form: the c4 giving 42 %% and 130.4 J (0.5 %%) at r = 1.0 lie in "
          "%.2f..%.2f N s/m; 2 zeta4 omega3 m3 = %.4f"
          % (min(c4_fit or [0]), max(c4_fit or [0]), 2 * z4 * w3_of(1.0) * m3))
    # no reading gives 42 % at r = 1.1 itself: the c4 that maximises the share there
    best = max(share((C1, C2, 2 * z3 * W2 * m2, c4), 1.1)[0] for c4 in np.arange(0, 60.01, 0.5))
    s11, e11 = share((C1, C2) + READINGS[0][1](1.1), 1.1)
    print("MEASURE: e4lin.best_share.r1.1 %.6g" % best)
    print("MEASURE: e4lin.rd0.share.r1.1 %.6g" % s11)
    print("MEASURE: e4lin.rd0.dtot.r1.1 %.6g" % e11)
    check(best < 40, "E4 N = 0 closed form: at r = 1.1 no c4 (0..60 N s/m) reaches 42 %% (at most "
          "%.1f %%): the row's first entry is its peak at r = 1.0" % best)

    # the example (examples/energy_map.jnt, RK4) against the closed form
    if len(sys.argv) > 1:
        rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
        worst = 0.0
        got = []
        for row in rows:
            if float(row["N"]) != 0:
                continue
            r = float(row["r"])
            d = dissipated((C1, C2) + READINGS[0][1](r), r)
            worst = max(worst, abs(float(row["D_34"]) / (d[2] + d[3]) - 1),
                        abs(float(row["D_tot"]) / d.sum() - 1))
            print("MEASURE: e4lin.rk4.share.r%s %.6g" % (r, 100 * float(row["D_34"]) / float(row["D_tot"])))
            got.append("%g: %.2f %%" % (r, 100 * float(row["D_34"]) / float(row["D_tot"])))
        print("MEASURE: e4lin.rk4.worst %.3g" % worst)
        check(got and worst < 1e-4, "E4 N = 0: examples/energy_map.jnt (RK4) = the closed form, "
              "D_34 and D_tot to %.1e (1e-4); its shares %s" % (worst, ", ".join(got)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
