/*
 * bench/e4_stick_study.c: issue 30 item 1, the sensitivity study of the time
 * at which mass 2 of Bauchau et al. 2006 E4 (Do and Ferri, thesis Ch. 3)
 * sticks for good in the free response of Fig. 3.6 (N = 40 N, r = 1, v1(0) =
 * 2 m/s; the thesis: "completely stuck at a time of about 20 s").
 *
 * A program written from the thesis' equations (3.1)-(3.11), no jnt code:
 * the chain ground-k1-m1-k2-m2-k3-m3-k4-ground with a damper beside each
 * spring (eq. 3.3), the Stribeck law (3.1)-(3.2) on mass 2, the switching
 * stick algorithm of eqs. (3.5)-(3.7) and Fig. 3.3 (stick band |v2| <= v_s,
 * F = F_eq while |F_eq| <= mu* N), fixed-step RK4 (Sect. 3.2). Its baseline
 * is examples/stribeck_3dof.jnt's reading (tests/examples/test_stribeck3.c
 * holds the same program as direct_last_slip and checks it against jnt);
 * each row of the study changes one input or one reading the thesis leaves
 * open:
 *   - the damping reading of eq. 3.9 (c3, c4), docs/sweeps.md;
 *   - the break-away force (Fig. 3.3 says "the dynamic friction force given
 *     by (3.1) and (3.2)", i.e. mu(v2) N sgn(v2); ours mu* N sign(F_eq));
 *   - where the friction force is evaluated (every RK4 stage, or once per
 *     step and held over it);
 *   - the stuck state (v2 kept at its value inside the band, as F_eq keeps
 *     v2' = 0, or set to 0: the "sticking equations" of an event scheme);
 *   - the stated inputs N, v_s, r (k4 by eq. 3.11 or Table 3.1's 1000 N/m),
 *     v1(0), and the step h.
 * Measured per row and step (1 ms, the thesis', and 20 us): the end of the
 * last slip phase (the last 1 ms sample with |v2| > v_s; 30 s runs) and the
 * number of slip phases; and the last sample with |v2| > 50 mm/s (a slip
 * visible on Fig. 3.6(b)'s scale of some 2 m/s).
 * Build and run: bench/e4_stick_study.sh (gcc -O2; a second of CPU).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BRK_FEQ, BRK_V, BRK_V_FEQ0 };

typedef struct {
    const char *name;
    double r, N, v_s, v10, k4;  /* k4 <= 0: eq. 3.11 */
    double m3;                  /* 0: Table 3.1's 50 kg */
    int c3, c4;                 /* c3: 0 = 2 z3 w2 m2, 1 = 2 z3 w3 m3 (printed); c4: 0 = 2 z4 w3 m3, 1 = 2 z4 sqrt(k4 m3), 2 = 0 */
    int brk, hold, zero;
} variant;

typedef struct {
    double last, visible;
    int phases;
} result;

static double sgn(double x)
{
    return (x > 0) - (x < 0);
}

/* One 30 s run of variant v at step h; output sampled every 1 ms. */
static result run(const variant *v, double h)
{
    const double m1 = 100, m2 = 0.25, m3 = v->m3 > 0 ? v->m3 : 50, k1 = 1000, k2 = 100, k3 = 100;
    const double mu_s = 0.5, gam = 0.3, beta = 20, t_end = 30;
    double k4 = v->k4 > 0 ? v->k4 : (m3 / m1) * v->r * v->r * (k1 + k2) - k3;
    double w1 = sqrt((k1 + k2) / m1), w2 = sqrt((k2 + k3) / m2), w3 = sqrt((k3 + k4) / m3);
    double c1 = 2 * 0.01 * w1 * m1, c2 = 2 * 0.01 * w2 * m2;
    double c3 = v->c3 ? 2 * 0.05 * w3 * m3 : 2 * 0.05 * w2 * m2;
    double c4 = v->c4 == 0 ? 2 * 0.01 * w3 * m3 : v->c4 == 1 ? 2 * 0.01 * sqrt(k4 * m3) : 0;
    double N = v->N, vs = v->v_s;
    double y[6] = {0, 0, 0, v->v10, 0, 0}, k[4][6], yt[6], Fh = 0;
    long nstep = lround(t_end / h), every = lround(1e-3 / h);
    result res = {-1, -1, 0};
    int slip = 0;
    for (long i = 0; i < nstep; i++) {
        for (int s = 0; s < 4; s++) {
            static const double a[4] = {0, 0.5, 0.5, 1};
            for (int j = 0; j < 6; j++)
                yt[j] = y[j] + (s ? a[s] * h * k[s - 1][j] : 0);
            double x1 = yt[0], x2 = yt[1], x3 = yt[2], v1 = yt[3], v2 = yt[4], v3 = yt[5];
            /* eq. 3.7: F_eq = m2 [T][A]{y}, every force on mass 2 but friction */
            double Feq = k2 * (x1 - x2) + k3 * (x3 - x2) + c2 * (v1 - v2) + c3 * (v3 - v2), F;
            if (v->hold && s > 0) {
                F = Fh;
            } else {
                double mu = mu_s + gam * (exp(-beta * fabs(v2)) - 1);  /* eq. 3.2, alpha = 0 */
                if (fabs(v2) > vs)
                    F = mu * N * sgn(v2);                              /* eq. 3.1 */
                else if (fabs(Feq) <= mu_s * N)
                    F = Feq;                                           /* stick, eq. 3.7 */
                else if (v->brk == BRK_FEQ)
                    F = mu_s * N * sgn(Feq);
                else if (v->brk == BRK_V || v2 != 0)
                    F = mu * N * sgn(v2);                              /* Fig. 3.3 as printed */
                else
                    F = mu * N * sgn(Feq);
                Fh = F;
            }
            k[s][0] = v1;
            k[s][1] = v2;
            k[s][2] = v3;
            k[s][3] = (-k1 * x1 - k2 * (x1 - x2) - c1 * v1 - c2 * (v1 - v2)) / m1;
            k[s][4] = (Feq - F) / m2;
            k[s][5] = (-k3 * (x3 - x2) - k4 * x3 - c3 * (v3 - v2) - c4 * v3) / m3;
        }
        for (int j = 0; j < 6; j++)
            y[j] += h / 6 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
        if (v->zero && fabs(y[4]) <= vs) {
            double Feq = k2 * (y[0] - y[1]) + k3 * (y[2] - y[1]) + c2 * (y[3] - y[4]) + c3 * (y[5] - y[4]);
            if (fabs(Feq) <= mu_s * N)
                y[4] = 0;
        }
        if ((i + 1) % every == 0) {
            double t = (i + 1) * h;
            int sl = fabs(y[4]) > vs;
            if (sl && !slip)
                res.phases++;
            if (sl)
                res.last = t;
            if (fabs(y[4]) > 0.05)
                res.visible = t;
            slip = sl;
        }
    }
    return res;
}

int main(int argc, char **argv)
{
    /* name, r, N, v_s, v10, k4, m3, c3, c4, brk, hold, zero */
    static const variant vs[] = {
        {"baseline: examples/stribeck_3dof.jnt's reading", 1, 40, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"c3 as printed, 2 zeta3 omega3 m3", 1, 40, 1e-3, 2, 0, 0, 1, 0, BRK_FEQ, 0, 0},
        {"c4 = 2 zeta4 sqrt(k4 m3)", 1, 40, 1e-3, 2, 0, 0, 0, 1, BRK_FEQ, 0, 0},
        {"c4 = 0", 1, 40, 1e-3, 2, 0, 0, 0, 2, BRK_FEQ, 0, 0},
        {"break-away mu(v2) N sgn(v2), sgn(0) = 0 (Fig. 3.3 as printed)", 1, 40, 1e-3, 2, 0, 0, 0, 0, BRK_V, 0, 0},
        {"break-away mu(v2) N sgn(v2), sign(F_eq) at v2 = 0", 1, 40, 1e-3, 2, 0, 0, 0, 0, BRK_V_FEQ0, 0, 0},
        {"friction once per step, held over the RK4 stages", 1, 40, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 1, 0},
        {"stuck: v2 set to 0 after the step", 1, 40, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 1},
        {"Fig. 3.3 as printed, once per step, v2 set to 0", 1, 40, 1e-3, 2, 0, 0, 0, 0, BRK_V, 1, 1},
        {"v_s = 0.1 mm/s", 1, 40, 1e-4, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"v_s = 0.5 mm/s", 1, 40, 5e-4, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"v_s = 2 mm/s", 1, 40, 2e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"v_s = 10 mm/s", 1, 40, 1e-2, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"N = 35 N", 1, 35, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"N = 38 N", 1, 38, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"N = 39 N", 1, 39, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"N = 41 N", 1, 41, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"N = 42 N", 1, 42, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"N = 45 N", 1, 45, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"N = 30 N", 1, 30, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"v1(0) = 1.9 m/s", 1, 40, 1e-3, 1.9, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"v1(0) = 2.1 m/s", 1, 40, 1e-3, 2.1, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"v1(0) = 2.5 m/s", 1, 40, 1e-3, 2.5, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"r = 0.99", 0.99, 40, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"r = 1.01", 1.01, 40, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"r = 1.02", 1.02, 40, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"r = 1.03", 1.03, 40, 1e-3, 2, 0, 0, 0, 0, BRK_FEQ, 0, 0},
        {"k4 = 1000 N/m (Table 3.1; r = 1.41)", 1, 40, 1e-3, 2, 1000, 0, 0, 0, BRK_FEQ, 0, 0},
        {"m3 = 100 kg (mass ratio 1), k4 = 1000 N/m: eq. 3.11 at r = 1 is Table 3.1's k4", 1, 40, 1e-3, 2, 0, 100, 0, 0, BRK_FEQ, 0, 0},
        {"m3 = 100 kg, r = 0.99", 0.99, 40, 1e-3, 2, 0, 100, 0, 0, BRK_FEQ, 0, 0},
        {"m3 = 100 kg, r = 1.01", 1.01, 40, 1e-3, 2, 0, 100, 0, 0, BRK_FEQ, 0, 0},
        {"m3 = 100 kg, N = 38 N", 1, 38, 1e-3, 2, 0, 100, 0, 0, BRK_FEQ, 0, 0},
        {"m3 = 100 kg, N = 42 N", 1, 42, 1e-3, 2, 0, 100, 0, 0, BRK_FEQ, 0, 0},
        {"m3 = 100 kg, c3 as printed", 1, 40, 1e-3, 2, 0, 100, 1, 0, BRK_FEQ, 0, 0},
        {"m3 = 100 kg, c4 = 2 zeta4 sqrt(k4 m3)", 1, 40, 1e-3, 2, 0, 100, 0, 1, BRK_FEQ, 0, 0},
        {"m3 = 100 kg, Fig. 3.3 as printed, once per step, v2 set to 0", 1, 40, 1e-3, 2, 0, 100, 0, 0, BRK_V, 1, 1},
        {"m3 = 25 kg (mass ratio 0.25)", 1, 40, 1e-3, 2, 0, 25, 0, 0, BRK_FEQ, 0, 0},
    };
    int only = argc > 1 ? atoi(argv[1]) : -1;
    printf("| row | reading or input | h = 1 ms: stuck from (s) | slip phases | last slip > 50 mm/s (s) "
           "| h = 20 us: stuck from (s) | slip phases | last slip > 50 mm/s (s) |\n");
    printf("|---:|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < (int)(sizeof vs / sizeof vs[0]); i++) {
        if (only >= 0 && i != only)
            continue;
        result a = run(&vs[i], 1e-3), b = run(&vs[i], 2e-5);
        printf("| %d | %s | %.3f | %d | %.3f | %.3f | %d | %.3f |\n", i, vs[i].name, a.last, a.phases,
               a.visible, b.last, b.phases, b.visible);
    }
    return 0;
}
