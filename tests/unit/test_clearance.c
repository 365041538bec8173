/*
 * test_clearance.c: the clearance-joint library (core/clearance.c) against
 * the claims of seed 001 (digest section 4; equation numbers of part C of
 * the report), on random states from a fixed seed:
 *   - claim 1: the discrete normal work equals f_m (q_f - q_i): planar
 *     (eq. 4) to round-off; spatial (eq. 15) to round-off when the contact
 *     angle is the same at both ends and the rotation increments are Cayley
 *     vectors, O(step^3) otherwise (measured);
 *   - claim 3: the discrete friction work is -f Dt V^t <= 0 (eqs. 7, 18);
 *   - claim 4: the spatial gap is the minimum of qbar over phi (against
 *     dense sampling and golden-section search), eq. 12 holds there and
 *     h1 = d1k . d1l;
 *   - claim 2: f_m (q_f - q_i) = V(q_f) - V(q_i) for the linear and Hertz
 *     potentials, and f_m -> dV/dq as q_f -> q_i;
 *   - claim 8: the contact and friction step rules (eqs. 19, 20, 33);
 *   - claims 5-7: the LuGre TDG update (eq. 29): steady states, eq. 30 and
 *     its numerical dissipation, the bound on |z|, eq. 32;
 *   - every analytic derivative (eqs. 3, 12, 14, df_m/dq_f) against
 *     central differences.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/clearance.h"

#define PI 3.14159265358979323846

/* ---- random numbers: xorshift64*, fixed seed -------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double urand(double a, double b)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    uint64_t v = rng_state * 0x2545F4914F6CDD1Dull;
    return a + (b - a) * ((double)(v >> 11) * (1.0 / 9007199254740992.0));
}

static void rand3(double s, double v[3])
{
    for (int i = 0; i < 3; i++)
        v[i] = s * urand(-1, 1);
}

/* ---- small linear algebra --------------------------------------------- */

static double dot(const double *a, const double *b, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

static double nrm(const double *a, int n)
{
    return sqrt(dot(a, a, n));
}

static void cross(const double a[3], const double b[3], double c[3])
{
    double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(c, t, sizeof t);
}

static void matmul(const double A[9], const double B[9], double C[9])
{
    double T[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            T[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    memcpy(C, T, sizeof T);
}

static void matvec(const double A[9], const double v[3], double w[3])
{
    double t[3];
    for (int i = 0; i < 3; i++)
        t[i] = A[3 * i] * v[0] + A[3 * i + 1] * v[1] + A[3 * i + 2] * v[2];
    memcpy(w, t, sizeof t);
}

static void col(const double R[9], int j, double e[3])
{
    e[0] = R[j], e[1] = R[3 + j], e[2] = R[6 + j];
}

/* exp(v~): the rotation by |v| about v (Rodrigues' formula) */
static void expmap(const double v[3], double R[9])
{
    double t = nrm(v, 3), a = t > 0 ? sin(t) / t : 1, b = t > 1e-4 ? (1 - cos(t)) / (t * t) : 0.5;
    double S[9] = {0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0}, S2[9];
    matmul(S, S, S2);
    for (int i = 0; i < 9; i++)
        R[i] = (i % 4 == 0 ? 1.0 : 0.0) + a * S[i] + b * S2[i];
}

/* a uniformly random rotation (unit quaternion by rejection) */
static void rand_rot(double R[9])
{
    double q[4], n;
    do {
        for (int i = 0; i < 4; i++)
            q[i] = urand(-1, 1);
        n = nrm(q, 4);
    } while (n > 1 || n < 0.1);
    double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    double T[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                   2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    memcpy(R, T, sizeof T);
}

static double wrap(double a)
{
    a = remainder(a, 2 * PI);
    return a;
}

/* ---- rotations: the Cayley increments ---------------------------------- */

static void test_cayley(void)
{
    double orth = 0, back = 0, mid = 0, midexp = 0;
    for (int n = 0; n < 10000; n++) {
        double r[3], R[9], Ri[9], Rf[9], r2[3];
        rand3(urand(0, 2), r);
        clr_cayley(r, R);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double s = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j];
                orth = fmax(orth, fabs(s - (i == j)));
            }
        rand_rot(Ri);
        matmul(R, Ri, Rf);
        clr_cayley_of(Ri, Rf, r2);
        for (int i = 0; i < 3; i++)
            back = fmax(back, fabs(r2[i] - r[i]) / (1 + nrm(r, 3)));
        /* e_f - e_i = r x (e_f + e_i)/2 for every director */
        for (int j = 0; j < 3; j++) {
            double ei[3], ef[3], s[3], c[3], E[9], eexp[3];
            col(Ri, j, ei);
            col(Rf, j, ef);
            for (int i = 0; i < 3; i++)
                s[i] = 0.5 * (ef[i] + ei[i]);
            cross(r, s, c);
            for (int i = 0; i < 3; i++)
                mid = fmax(mid, fabs(ef[i] - ei[i] - c[i]));
            /* the same with exp(r~) in place of cay(r): not exact */
            expmap(r, E);
            matvec(E, ei, eexp);
            for (int i = 0; i < 3; i++)
                s[i] = 0.5 * (eexp[i] + ei[i]);
            cross(r, s, c);
            for (int i = 0; i < 3; i++)
                midexp = fmax(midexp, fabs(eexp[i] - ei[i] - c[i]));
        }
    }
    CHECK(orth < 1e-14, "cay(r) is a rotation: |R^T R - I| %.2e (1e-14)", orth);
    CHECK(back < 1e-13, "clr_cayley_of inverts clr_cayley: %.2e (1e-13)", back);
    CHECK(mid < 1e-14 && midexp > 1e-3,
          "Cayley increments: e_f - e_i = r x (e_f + e_i)/2 to %.2e; with exp(r~) instead the "
          "identity misses by %.2e (the reading of 'incremental rotation' the mid-point forms need)",
          mid, midexp);
    MEASURE("clr.cayley_mid", mid);
    MEASURE("clr.exp_mid", midexp);
}

/* ---- planar / spherical clearance joint ------------------------------- */

static void test_planar(void)
{
    int N = 10000;
    double worst = 0, naive = 0, fdw = 0;
    double fr_pos = -HUGE_VAL, fr_id = 0, pr_pos = -HUGE_VAL, pr_id = 0, pr_gap = 0;
    for (int n = 0; n < N; n++) {
        double rk = urand(0.01, 0.1), c = rk * urand(1e-3, 0.05), rl = rk - c;
        double h = pow(10, urand(-3, -1)); /* step relative to the clearance */
        double xi[3], dx[3], xf[3], duk[3], dul[3], rkv[3], rlv[3];
        rand3(1.3 * c, xi);
        rand3(h * c, dx);
        rand3(h * c, duk);
        rand3(h, rkv);
        rand3(h, rlv);
        for (int i = 0; i < 3; i++)
            xf[i] = xi[i] + dx[i], dul[i] = duk[i] + dx[i];
        double f = urand(-1e4, 0);
        double qi = clr_planar_gap(rk, rl, xi, NULL), qf = clr_planar_gap(rk, rl, xf, NULL);
        /* claim 1, eq. 4: f_m [n_m; -n_m] . (du^k, du^l) = f_m (q_f - q_i) */
        double nm[3], g[12], D[12];
        clr_planar_nm(xi, xf, nm);
        clr_planar_dir(nm, g);
        for (int i = 0; i < 3; i++)
            D[i] = duk[i], D[3 + i] = rkv[i], D[6 + i] = dul[i], D[9 + i] = rlv[i];
        double dW = f * dot(g, D, 12), ref = fabs(f) * nrm(dx, 3);
        worst = fmax(worst, fabs(dW - f * (qf - qi)) / ref);
        /* the unit normal at the mid-point instead: not exact */
        double xm[3], nn[3];
        for (int i = 0; i < 3; i++)
            xm[i] = 0.5 * (xi[i] + xf[i]);
        clr_planar_gap(rk, rl, xm, nn);
        naive = fmax(naive, fabs(-f * dot(nn, dx, 3) - f * (qf - qi)) / ref);
        /* claim 3, eq. 7: friction with the arms rho n_m */
        double ak[3], al[3], vr[3], vt[3], e[3], F[12];
        clr_planar_arms(rk, rl, nm, ak, al);
        double vtn = clr_slip(ak, al, nm, duk, rkv, dul, rlv, vr, vt, e);
        clr_friction_dir(ak, al, e, F);
        double ft = urand(0, 1e3), dWt = ft * dot(F, D, 12);
        fr_pos = fmax(fr_pos, dWt);
        fr_id = fmax(fr_id, fabs(dWt + ft * vtn) / (ft * vtn + 1e-300));
        /* the printed projector U - n_m n_m^T (n_m not a unit vector) */
        double P[3], nv = dot(nm, vr, 3), pn, ep[3];
        for (int i = 0; i < 3; i++)
            P[i] = vr[i] - nm[i] * nv;
        pn = nrm(P, 3);
        for (int i = 0; i < 3; i++)
            ep[i] = P[i] / pn;
        clr_friction_dir(ak, al, ep, F);
        double dWp = ft * dot(F, D, 12), nm2 = dot(nm, nm, 3);
        /* dW = -f (|V_p| + (1 - |n_m|^2)(n_m . V^r)^2/|V_p|) <= -f |V_p| */
        double pred = -ft * (pn + (1 - nm2) * nv * nv / pn);
        pr_pos = fmax(pr_pos, dWp);
        pr_id = fmax(pr_id, fabs(dWp - pred) / (ft * pn));
        pr_gap = fmax(pr_gap, (-dWp - ft * pn) / (ft * pn));
        /* eq. 3 against central differences of eq. 2 in u^k and u^l */
        double n0[3], g0[12];
        clr_planar_gap(rk, rl, xi, n0);
        clr_planar_dir(n0, g0);
        for (int j = 0; j < 6; j++) {
            double xp[3], xmn[3], eps = 1e-6 * c;
            memcpy(xp, xi, sizeof xp), memcpy(xmn, xi, sizeof xmn);
            double s = j < 3 ? -1 : 1; /* x = u^l - u^k + ... */
            xp[j % 3] += s * eps, xmn[j % 3] -= s * eps;
            double d = (clr_planar_gap(rk, rl, xp, NULL) - clr_planar_gap(rk, rl, xmn, NULL)) / (2 * eps);
            fdw = fmax(fdw, fabs(d - g0[j < 3 ? j : j + 3]));
        }
    }
    CHECK(worst < 1e-12,
          "claim 1 (planar, eq. 4): f_m n_m . du = f_m (q_f - q_i) on %d states: max |diff|/(|f| "
          "|dx|) %.2e (1e-12); a unit mid-point normal would miss by %.2e",
          N, worst, naive);
    MEASURE("clr.planar.claim1", worst);
    MEASURE("clr.planar.claim1_unit_normal", naive);
    CHECK(fr_pos <= 0 && fr_id < 1e-12,
          "claim 3 (planar, eq. 7): friction work <= 0 (max %.3g) and = -f Dt V^t (rel %.2e, 1e-12) "
          "with the projector on n_m/|n_m|",
          fr_pos, fr_id);
    MEASURE("clr.planar.friction_id", fr_id);
    CHECK(pr_pos <= 0 && pr_id < 1e-10,
          "claim 3 (planar, eq. 7, printed U - n_m n_m^T): work <= 0 (max %.3g) but not -f Dt V^t: "
          "-dW = f (|V^t| + (1 - |n_m|^2)(n_m.V^r)^2/|V^t|) (rel %.2e), exceeding f |V^t| by up to "
          "%.2e of it",
          pr_pos, pr_id, pr_gap);
    MEASURE("clr.planar.printed_projector_excess", pr_gap);
    CHECK(fdw < 1e-8, "eq. 3: dq/du^k = n, dq/du^l = -n against central differences: %.2e (1e-8)",
          fdw);
}

/* ---- spatial clearance joint ------------------------------------------ */

typedef struct sp_state {
    double rk, rl, c, Rk[9], Rl[9], x[3];
} sp_state;

/* A cylinder of random orientation, a disk tilted by up to maxtilt, its
 * centre off the axis by up to 1.5 clearances and anywhere along it. */
static void sp_random(sp_state *S, double maxtilt, double maxoff)
{
    S->rk = urand(0.05, 0.1);
    S->c = S->rk * pow(10, urand(-3, -1.3));
    S->rl = S->rk - S->c;
    rand_rot(S->Rk);
    double b = urand(0, 2 * PI), t = urand(0, maxtilt), sp = urand(0, 2 * PI);
    double v[3] = {t * cos(b), t * sin(b), 0}, z[3] = {0, 0, sp}, T[9], Z[9];
    expmap(v, T);
    expmap(z, Z);
    matmul(T, Z, T);
    matmul(S->Rk, T, S->Rl);
    double a = urand(0, 2 * PI), r = S->c * urand(0, maxoff);
    double xb[3] = {r * cos(a), r * sin(a), urand(-0.2, 0.2) * S->rk};
    matvec(S->Rk, xb, S->x);
}

static double sp_q(const sp_state *S, clr_spatial *s)
{
    clr_spatial tmp;
    if (!s)
        s = &tmp;
    clr_spatial_gap(S->rk, S->rl, S->Rk, S->Rl, S->x, s);
    return s->q;
}

/* brute force: qbar on 2000 angles, golden section around the best three */
static double brute(const sp_state *S, int *nloc)
{
    enum { M = 2000 };
    double e3l[3], q[M], best = HUGE_VAL;
    col(S->Rl, 2, e3l);
    for (int k = 0; k < M; k++)
        q[k] = clr_spatial_qbar(S->rk, S->rl, S->Rk, e3l, S->x, 2 * PI * k / M, NULL);
    *nloc = 0;
    for (int k = 0; k < M; k++) {
        double a = q[(k + M - 1) % M], b = q[k], c = q[(k + 1) % M];
        if (!(b <= a && b < c))
            continue;
        (*nloc)++;
        double lo = 2 * PI * (k - 1) / M, hi = 2 * PI * (k + 1) / M, gr = (sqrt(5) - 1) / 2;
        double x1 = hi - gr * (hi - lo), x2 = lo + gr * (hi - lo);
        double f1 = clr_spatial_qbar(S->rk, S->rl, S->Rk, e3l, S->x, x1, NULL);
        double f2 = clr_spatial_qbar(S->rk, S->rl, S->Rk, e3l, S->x, x2, NULL);
        for (int it = 0; it < 80; it++) {
            if (f1 < f2)
                hi = x2, x2 = x1, f2 = f1, x1 = hi - gr * (hi - lo),
                f1 = clr_spatial_qbar(S->rk, S->rl, S->Rk, e3l, S->x, x1, NULL);
            else
                lo = x1, x1 = x2, f1 = f2, x2 = lo + gr * (hi - lo),
                f2 = clr_spatial_qbar(S->rk, S->rl, S->Rk, e3l, S->x, x2, NULL);
        }
        best = fmin(best, fmin(fmin(f1, f2), b));
    }
    return best;
}

static void test_spatial_gap(void)
{
    int N = 10000, multi = 0, fail = 0, notconv = 0, maxit = 0;
    double dmin = 0, dmax = 0, res = 0, h1e = 0, h1c = 0, unit = 0;
    for (int n = 0; n < N; n++) {
        sp_state S;
        /* a quarter with large tilts and centred disks: several minima */
        if (n % 4 == 0)
            sp_random(&S, 1.4, 0.3);
        else
            sp_random(&S, 0.3, 1.5);
        clr_spatial s;
        int rc = clr_spatial_gap(S.rk, S.rl, S.Rk, S.Rl, S.x, &s);
        if (rc < 0) {
            fail++;
            continue;
        }
        notconv += rc > 0;
        maxit = s.iters > maxit ? s.iters : maxit;
        int nloc;
        double qb = brute(&S, &nloc);
        multi += nloc > 1;
        /* claim 4: q is the minimum of qbar */
        double d = (s.q - qb) / S.rk;
        dmin = fmin(dmin, d), dmax = fmax(dmax, d);
        /* eq. 12 at the optimum, in the report's form */
        double a[3], w[3];
        for (int i = 0; i < 3; i++)
            a[i] = S.rl * s.g1 / s.h1 * s.e3l[i] - S.x[i];
        res = fmax(res, fabs(dot(s.d2k, a, 3)) / (S.rl + nrm(S.x, 3)));
        /* h1 = |d1k x e3l| = d1k . d1l (eq. 13) */
        cross(s.d1k, s.e3l, w);
        h1e = fmax(h1e, fabs(s.h1 - dot(s.d1k, s.d1l, 3)));
        h1c = fmax(h1c, fabs(s.h1 - nrm(w, 3)));
        unit = fmax(unit, fmax(fabs(nrm(s.d1l, 3) - 1), fabs(dot(s.d1l, s.e3l, 3))));
    }
    CHECK(fail == 0 && notconv == 0,
          "clr_spatial_gap on %d states: %d on edge, %d starts not converged, at most %d Newton "
          "iterations in all",
          N, fail, notconv, maxit);
    MEASURE("clr.spatial.newton_max", maxit);
    CHECK(dmin > -1e-13 && dmax < 1e-13,
          "claim 4 (eq. 12-13): the gap equals the brute-force minimum of qbar (2000 angles + "
          "golden section) within [%.2e, %.2e] of rho_k (1e-13); %d states had several local "
          "minima",
          dmin, dmax, multi);
    MEASURE("clr.spatial.gap_vs_brute", fmax(-dmin, dmax));
    MEASURE("clr.spatial.multi_minima", multi);
    CHECK(res < 1e-13, "claim 4 (eq. 12): d2k . (rho_l g1/h1 e3l - (u0 + u)) = %.2e at the optimum "
          "(relative to rho_l + |u0 + u|, 1e-13)", res);
    MEASURE("clr.spatial.eq12_residual", res);
    CHECK(h1e < 1e-15 && h1c < 1e-15 && unit < 1e-15,
          "claim 4 (eqs. 9, 13): h1 = d1k . d1l (%.2e) = |d1k x e3l| (%.2e), d1l a unit vector in "
          "the disk's plane (%.2e): eq. 9's products read as cross products",
          h1e, h1c, unit);
    MEASURE("clr.spatial.h1_identity", h1e);
}

/* eq. 12 and qbar'' against central differences of eq. 11; eq. 14 against
 * central differences of the gap (phi re-optimised: the envelope theorem) */
static void test_spatial_derivs(void)
{
    double w1 = 0, w2 = 0, w14 = 0;
    int N = 2000, kinks = 0;
    for (int n = 0; n < N; n++) {
        sp_state S;
        sp_random(&S, 0.4, 1.5);
        double e3l[3], dq[2], dp[2], dm[2], phi = urand(-PI, PI), eps = 1e-5;
        col(S.Rl, 2, e3l);
        clr_spatial_qbar(S.rk, S.rl, S.Rk, e3l, S.x, phi, dq);
        double qp = clr_spatial_qbar(S.rk, S.rl, S.Rk, e3l, S.x, phi + eps, dp);
        double qm = clr_spatial_qbar(S.rk, S.rl, S.Rk, e3l, S.x, phi - eps, dm);
        double sc = S.rl + nrm(S.x, 3);
        w1 = fmax(w1, fabs((qp - qm) / (2 * eps) - dq[0]) / sc);
        w2 = fmax(w2, fabs((dp[0] - dm[0]) / (2 * eps) - dq[1]) / sc);
        clr_spatial s;
        double g[12], cv[2];
        sp_q(&S, &s);
        clr_spatial_dq(S.rl, &s, g);
        /* steps below the curvature radius of the optimum in phi (a centred,
         * untilted disk has a flat qbar and a gap curved on that scale);
         * fourth-order central differences */
        clr_spatial_qbar(S.rk, S.rl, S.Rk, e3l, S.x, s.phi, cv);
        double len = 1e-3 * fmin(S.c, cv[1]), gmax = 0;
        for (int j = 0; j < 12; j++)
            gmax = fmax(gmax, fabs(g[j]));
        for (int j = 0; j < 12; j++) {
            double qv[4], st[4] = {2, 1, -1, -2}, h = j % 6 < 3 ? len : len / S.rk;
            int jump = 0; /* the optimum moved to another local minimum: a kink */
            for (int m = 0; m < 4; m++) {
                sp_state P = S;
                double t = st[m] * h;
                if (j % 6 < 3) { /* u^k, u^l: x = u^l - u^k + ... */
                    P.x[j % 3] += j < 3 ? -t : t;
                } else { /* psi^k, psi^l: R -> exp(t e~) R */
                    double v[3] = {0, 0, 0}, E[9], *R = j < 6 ? P.Rk : P.Rl;
                    v[j % 3] = t;
                    expmap(v, E);
                    matmul(E, R, R);
                }
                clr_spatial sp;
                qv[m] = sp_q(&P, &sp);
                jump |= fabs(wrap(sp.phi - s.phi)) > 1e-2;
            }
            double d = (8 * (qv[1] - qv[2]) - (qv[0] - qv[3])) / (12 * h);
            if (!jump)
                w14 = fmax(w14, fabs(d - g[j]) / gmax);
            else
                kinks++;
        }
    }
    CHECK(w1 < 1e-9, "eq. 12: dqbar/dphi against central differences of eq. 11: %.2e (1e-9)", w1);
    CHECK(w2 < 1e-9, "d2qbar/dphi2 (Newton's slope) against central differences: %.2e (1e-9)", w2);
    CHECK(w14 < 1e-7,
          "eq. 14: dq/d(u^k, psi^k, u^l, psi^l) against central differences of the gap on %d "
          "states: %.2e of the largest entry (1e-7; %d of %d differences skipped: the optimum "
          "jumped to another local minimum, where the gap has a kink)",
          N, w14, kinks, 12 * N);
}

/* Move F's disk centre along d2k so that eq. 12 holds at the angle phi
 * (F's rotations kept): the contact angle of S carried over to F. */
static void fix_phi(const sp_state *S, double phi, sp_state *F)
{
    double d1[3], d2[3], e1[3], e2[3], e3l[3], c = cos(phi), s = sin(phi);
    col(F->Rk, 0, e1), col(F->Rk, 1, e2), col(F->Rl, 2, e3l);
    for (int i = 0; i < 3; i++)
        d1[i] = c * e1[i] + s * e2[i], d2[i] = -s * e1[i] + c * e2[i];
    double g1 = dot(e3l, d1, 3), hv[3], a[3];
    cross(d1, e3l, hv);
    for (int i = 0; i < 3; i++)
        a[i] = S->rl * g1 / nrm(hv, 3) * e3l[i] - F->x[i];
    double t = dot(d2, a, 3);
    for (int i = 0; i < 3; i++)
        F->x[i] += t * d2[i];
}

/* One step of the spatial joint: the discrete normal work (eq. 15) against
 * f_m (q_f - q_i), relative to |f| h c (the size of the step's relative
 * motion: h clearances).
 * fixphi: move x_f so that the contact angle stays that of the start;
 * expinc: the rotations advance by exp(r~) rather than cay(r).
 * Returns -1 if the fixed angle did not stay the optimum; *ulps (if not
 * NULL) gets the mismatch in units of q's round-off, |f| eps rho_k, and
 * *dphi (if not NULL) the change of the contact angle, *edirs (if not
 * NULL) the mismatch of clr_spatial_dq_dirs_m on the same step. */
static double sp_step(const sp_state *S, double h, int fixphi, int expinc, double *ft_pos,
                      double *ft_id, double *ulps, double *dphi, double *edirs)
{
    sp_state F = *S;
    /* the relative motion is h clearances: tilts of h c/rho_k, spins of h rad
     * about each body's axis (they move no point of the other body) */
    double rkv[3], rlv[3], dx[3], duk[3], dul[3], A[9], e3[3];
    double sk = urand(-h, h), sl = urand(-h, h);
    rand3(h * S->c / S->rk, rkv);
    rand3(h * S->c / S->rk, rlv);
    col(S->Rk, 2, e3);
    for (int i = 0; i < 3; i++)
        rkv[i] += sk * e3[i];
    col(S->Rl, 2, e3);
    for (int i = 0; i < 3; i++)
        rlv[i] += sl * e3[i];
    rand3(h * S->c, dx);
    rand3(h * S->c, duk);
    if (expinc)
        expmap(rkv, A);
    else
        clr_cayley(rkv, A);
    matmul(A, S->Rk, F.Rk);
    if (expinc)
        expmap(rlv, A);
    else
        clr_cayley(rlv, A);
    matmul(A, S->Rl, F.Rl);
    clr_spatial si, sf;
    sp_q(S, &si);
    for (int i = 0; i < 3; i++)
        F.x[i] = S->x[i] + dx[i];
    if (fixphi)
        fix_phi(S, si.phi, &F);
    sp_q(&F, &sf);
    if (fixphi && fabs(wrap(sf.phi - si.phi)) > 1e-9)
        return -1;
    for (int i = 0; i < 3; i++)
        dx[i] = F.x[i] - S->x[i], dul[i] = duk[i] + dx[i];
    double g[12], D[12];
    for (int i = 0; i < 3; i++)
        D[i] = duk[i], D[3 + i] = rkv[i], D[6 + i] = dul[i], D[9 + i] = rlv[i];
    clr_spatial_dq_m(S->rl, &si, &sf, g);
    double f = -1e4, dW = f * dot(g, D, 12), ref = fabs(f) * h * S->c;
    if (ft_pos) { /* claim 3, eq. 18 */
        double ak[3], al[3], nn[3], e[3], Ft[12], ft = 1e3;
        clr_spatial_arms_m(S->rl, &si, &sf, ak, al, nn);
        double vtn = clr_slip(ak, al, nn, duk, rkv, dul, rlv, NULL, NULL, e);
        clr_friction_dir(ak, al, e, Ft);
        double dWt = ft * dot(Ft, D, 12);
        *ft_pos = fmax(*ft_pos, dWt);
        *ft_id = fmax(*ft_id, fabs(dWt + ft * vtn) / (ft * vtn + 1e-300));
    }
    if (dphi)
        *dphi = fabs(wrap(sf.phi - si.phi));
    if (edirs) { /* the same step in director coordinates */
        double g24[24], D24[24];
        for (int j = 0; j < 3; j++) {
            double a[3], b[3];
            col(S->Rk, j, a), col(F.Rk, j, b);
            for (int i = 0; i < 3; i++)
                D24[3 + 3 * j + i] = b[i] - a[i];
            col(S->Rl, j, a), col(F.Rl, j, b);
            for (int i = 0; i < 3; i++)
                D24[15 + 3 * j + i] = b[i] - a[i];
        }
        for (int i = 0; i < 3; i++)
            D24[i] = duk[i], D24[12 + i] = dul[i];
        clr_spatial_dq_dirs_m(S->rl, &si, &sf, g24);
        *edirs = fabs(f * dot(g24, D24, 24) - f * (sf.q - si.q)) / ref;
    }
    if (ulps)
        *ulps = fabs(dW - f * (sf.q - si.q)) / (fabs(f) * 2.220446049250313e-16 * S->rk);
    return fabs(dW - f * (sf.q - si.q)) / ref;
}

static double median(double *v, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort: n is small */
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1], v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void test_spatial_work(void)
{
    int N = 10000, skipped = 0;
    double fixed = 0, fixu = 0, fixexp = 0, ftpos = -HUGE_VAL, ftid = 0, u;
    for (int n = 0; n < N; n++) {
        sp_state S;
        sp_random(&S, 0.3, 1.5);
        uint64_t keep = rng_state;
        double e = sp_step(&S, pow(10, urand(-3, -1)), 1, 0, &ftpos, &ftid, &u, NULL, NULL);
        if (e < 0) {
            skipped++;
            continue;
        }
        fixed = fmax(fixed, e), fixu = fmax(fixu, u);
        rng_state = keep; /* the same step with exp(r~) rotations */
        double e2 = sp_step(&S, pow(10, urand(-3, -1)), 1, 1, NULL, NULL, NULL, NULL, NULL);
        if (e2 >= 0)
            fixexp = fmax(fixexp, e2);
    }
    CHECK(fixu < 64 && skipped < N / 10,
          "claim 1 (spatial, eq. 15): with the contact angle unchanged and Cayley increments, "
          "f_m g_m . (du, r) = f_m (q_f - q_i) to round-off on %d states: %.1f units of |f| eps "
          "rho_k (64), %.2e of |f| h c at steps of h = 1e-3..1e-1 clearances (%d skipped: the "
          "angle jumped to another minimum)",
          N - skipped, fixu, fixed, skipped);
    MEASURE("clr.spatial.fixed_phi_units", fixu);
    CHECK(fixexp > 1e3 * fixed,
          "claim 1 (spatial, eq. 15): the same steps with exp(r~) rotations miss by %.2e "
          "(the increments must be Cayley vectors)",
          fixexp);
    MEASURE("clr.spatial.fixed_phi_exp", fixexp);
    /* general steps: the angle moves; the mismatch is O(step^3). Steps
     * where the optimum jumps to another local minimum (the contact point
     * changes side: q is continuous there, not smooth) are counted apart. */
    enum { M = 1000 };
    double worst[3] = {0, 0, 0}, med[3][M], dmed[3][M], r1[M], r2[M], jw = 0;
    double hs[3] = {1e-2, 5e-3, 2.5e-3};
    int m = 0, jumps = 0;
    for (int n = 0; n < M; n++) {
        sp_state S;
        sp_random(&S, 0.3, 1.5);
        double e[3], ed[3], dp, jump = 0;
        for (int k = 0; k < 3; k++) {
            uint64_t keep = rng_state;
            e[k] = sp_step(&S, hs[k], 0, 0, k == 0 ? &ftpos : NULL, &ftid, NULL, &dp, &ed[k]);
            jump = fmax(jump, dp);
            if (k < 2)
                rng_state = keep; /* the same direction, half the size */
        }
        if (jump > 0.5) {
            jumps++, jw = fmax(jw, e[0]);
            continue;
        }
        for (int k = 0; k < 3; k++)
            worst[k] = fmax(worst[k], e[k]), med[k][m] = e[k], dmed[k][m] = ed[k];
        r1[m] = e[0] / e[1], r2[m] = e[1] / e[2], m++;
    }
    double m1 = median(r1, m), m2 = median(r2, m);
    double e0 = median(med[0], m), e1 = median(med[1], m), e2 = median(med[2], m);
    CHECK(worst[0] < 0.1 && m1 > 3 && m1 < 5 && m2 > 3 && m2 < 5,
          "claim 1 (spatial, eq. 15) with the contact angle moving: NOT exact; |dW - f_m (q_f - "
          "q_i)|/(|f| h c) median %.2e, %.2e, %.2e, worst %.2e, %.2e, %.2e at steps of h = 1e-2, "
          "5e-3, 2.5e-3 clearances; median ratio per halving %.2f, %.2f (4: the energy error is "
          "O(h^3) per step); %d of %d steps where the contact jumps to the other side miss by up "
          "to %.2e",
          e0, e1, e2, worst[0], worst[1], worst[2], m1, m2, jumps, M, jw);
    MEASURE("clr.spatial.moving.median1", e0);
    MEASURE("clr.spatial.moving.median2", e1);
    MEASURE("clr.spatial.moving.median3", e2);
    MEASURE("clr.spatial.moving.worst1", worst[0]);
    MEASURE("clr.spatial.moving.worst2", worst[1]);
    MEASURE("clr.spatial.moving.worst3", worst[2]);
    MEASURE("clr.spatial.moving.ratio1", m1);
    MEASURE("clr.spatial.moving.ratio2", m2);
    MEASURE("clr.spatial.moving.jumps", jumps);
    MEASURE("clr.spatial.moving.jump_worst", jw);
    double d0 = median(dmed[0], m), d1 = median(dmed[1], m), d2 = median(dmed[2], m);
    CHECK(d0 / d1 > 3 && d0 / d1 < 5 && d1 / d2 > 3 && d1 / d2 < 5,
          "the director form (clr_spatial_dq_dirs_m) on the same steps: median %.2e, %.2e, %.2e "
          "of |f| h c (O(h^3) per step, like eq. 15)",
          d0, d1, d2);
    MEASURE("clr.dirs.moving.median1", d0);
    CHECK(ftpos <= 0 && ftid < 1e-12,
          "claim 3 (spatial, eq. 18): friction work <= 0 (max %.3g) and = -f Dt V^t (rel %.2e, "
          "1e-12) with lambda_m, d1m^l, d1m^k averages",
          ftpos, ftid);
    MEASURE("clr.spatial.friction_id", ftid);
}

/* ---- the spatial joint in director coordinates ------------------------ */

/* qbar(phi) = rho_k - rho_l |d1k x e3l| - d1k . x for any directors */
static double qbar_dirs(const sp_state *S, const double e1[3], const double e2[3],
                        const double e3l[3], const double x[3], double phi)
{
    double d1[3], h[3];
    for (int i = 0; i < 3; i++)
        d1[i] = cos(phi) * e1[i] + sin(phi) * e2[i];
    cross(d1, e3l, h);
    return S->rk - S->rl * nrm(h, 3) - dot(d1, x, 3);
}

/* The geometry clr_spatial_dq_dirs_m reads, at a given phi */
static void fill_dirs(const sp_state *S, const double e1[3], const double e2[3],
                      const double e3l[3], const double x[3], double phi, clr_spatial *s)
{
    double h[3];
    s->phi = phi;
    for (int i = 0; i < 3; i++)
        s->d1k[i] = cos(phi) * e1[i] + sin(phi) * e2[i], s->e3l[i] = e3l[i], s->x[i] = x[i];
    cross(s->d1k, e3l, h);
    s->h1 = nrm(h, 3);
    s->q = qbar_dirs(S, e1, e2, e3l, x, phi);
}

static void test_spatial_dirs(void)
{
    int N = 10000, skipped = 0;
    double fd = 0, psi = 0, alg = 0, exact = 0, ftpos = -HUGE_VAL, ftid = 0;
    for (int n = 0; n < N; n++) {
        sp_state S;
        sp_random(&S, 0.3, 1.5);
        clr_spatial s;
        double g[24], g14[12], e1[3], e2[3], e3l[3], R[9];
        sp_q(&S, &s);
        clr_spatial_dq_dirs(S.rl, &s, g);
        col(S.Rk, 0, e1), col(S.Rk, 1, e2), col(S.Rl, 2, e3l);
        clr_rot_from_dirs(e1, e2, s.d3k, R);
        if (memcmp(R, S.Rk, sizeof R) != 0)
            psi = HUGE_VAL;
        /* against central differences of qbar at the optimal phi (the
         * entries of e3k, e1l, e2l are zero: qbar does not read them) */
        double gmax = 0;
        for (int j = 0; j < 24; j++)
            gmax = fmax(gmax, fabs(g[j]));
        for (int j = 0; j < 24; j++) {
            double v[2];
            for (int m = 0; m < 2; m++) {
                double a1[3], a2[3], a3[3], x[3], t = (m ? -1 : 1) * 1e-4 * S.c;
                memcpy(a1, e1, sizeof a1), memcpy(a2, e2, sizeof a2), memcpy(a3, e3l, sizeof a3);
                memcpy(x, S.x, sizeof x);
                int b = j / 3, k = j % 3;
                if (b == 0)
                    x[k] -= t;
                else if (b == 1)
                    a1[k] += t / S.rk;
                else if (b == 2)
                    a2[k] += t / S.rk;
                else if (b == 4)
                    x[k] += t;
                else if (b == 7)
                    a3[k] += t / S.rk;
                v[m] = qbar_dirs(&S, a1, a2, a3, x, s.phi);
            }
            double h = j / 3 == 0 || j / 3 == 4 ? 1e-4 * S.c : 1e-4 * S.c / S.rk;
            fd = fmax(fd, fabs((v[0] - v[1]) / (2 * h) - g[j]) / gmax);
        }
        /* rigid variations dd_j = dpsi x d_j give eq. 14's moments */
        clr_spatial_dq(S.rl, &s, g14);
        for (int k = 0; k < 3; k++) {
            double w[3] = {0, 0, 0}, t[3], mk = 0, ml = 0;
            w[k] = 1;
            for (int j = 0; j < 3; j++) {
                double dk[3], dl[3];
                col(S.Rk, j, dk), col(S.Rl, j, dl);
                cross(w, dk, t);
                mk += dot(g + 3 + 3 * j, t, 3);
                cross(w, dl, t);
                ml += dot(g + 15 + 3 * j, t, 3);
            }
            psi = fmax(psi, fmax(fabs(mk - g14[3 + k]), fabs(ml - g14[9 + k])) / gmax);
        }
        /* the discrete gradient: any increments of x and the directors
         * (not a rotation) at one phi, exact against qbar_f - qbar_i */
        double f1[3], f2[3], f3[3], xf[3], D[24] = {0}, h = pow(10, urand(-3, -1));
        rand3(h * S.c / S.rk, f1), rand3(h * S.c / S.rk, f2), rand3(h * S.c / S.rk, f3);
        rand3(h * S.c, xf);
        for (int i = 0; i < 3; i++) {
            D[3 + i] = f1[i], D[6 + i] = f2[i], D[21 + i] = f3[i];
            D[i] = urand(-1, 1) * h * S.c, D[12 + i] = D[i] + xf[i];
            f1[i] += e1[i], f2[i] += e2[i], f3[i] += e3l[i], xf[i] += S.x[i];
        }
        clr_spatial si, sf;
        fill_dirs(&S, e1, e2, e3l, S.x, s.phi, &si);
        fill_dirs(&S, f1, f2, f3, xf, s.phi, &sf);
        clr_spatial_dq_dirs_m(S.rl, &si, &sf, g);
        alg = fmax(alg, fabs(dot(g, D, 24) - (sf.q - si.q)) / (2.220446049250313e-16 * S.rk));
        /* a rotation step by exp(r~) (not Cayley) with the angle kept: exact */
        sp_state F = S;
        double rk[3], rl[3], A[9];
        rand3(h * S.c / S.rk, rk), rand3(h * S.c / S.rk, rl);
        double sk = urand(-h, h), sl = urand(-h, h); /* spins about the axes */
        for (int i = 0; i < 3; i++)
            rk[i] += sk * s.d3k[i], rl[i] += sl * e3l[i];
        expmap(rk, A), matmul(A, S.Rk, F.Rk);
        expmap(rl, A), matmul(A, S.Rl, F.Rl);
        rand3(h * S.c, xf);
        for (int i = 0; i < 3; i++)
            F.x[i] += xf[i];
        fix_phi(&S, s.phi, &F);
        sp_q(&S, &si), sp_q(&F, &sf);
        if (fabs(wrap(sf.phi - si.phi)) > 1e-9) {
            skipped++;
            continue;
        }
        double Dk[12], Dl[12];
        for (int j = 0; j < 3; j++) {
            double a[3], b[3];
            col(S.Rk, j, a), col(F.Rk, j, b);
            for (int i = 0; i < 3; i++)
                D[3 + 3 * j + i] = b[i] - a[i];
            col(S.Rl, j, a), col(F.Rl, j, b);
            for (int i = 0; i < 3; i++)
                D[15 + 3 * j + i] = b[i] - a[i];
        }
        for (int i = 0; i < 3; i++)
            D[i] = urand(-1, 1) * h * S.c, D[12 + i] = D[i] + F.x[i] - S.x[i];
        clr_spatial_dq_dirs_m(S.rl, &si, &sf, g);
        exact = fmax(exact, fabs(dot(g, D, 24) - (sf.q - si.q)) / (2.220446049250313e-16 * S.rk));
        /* friction in director coordinates: random body-frame arms */
        double ak[3], al[3], zk[3], zl[3], dz[3], e[3], n3[3];
        rand3(S.rk, ak), rand3(S.rk, al), rand3(1, n3);
        memcpy(Dk, D, sizeof Dk), memcpy(Dl, D + 12, sizeof Dl);
        for (int i = 0; i < 3; i++) {
            zk[i] = Dk[i] + ak[0] * Dk[3 + i] + ak[1] * Dk[6 + i] + ak[2] * Dk[9 + i];
            zl[i] = Dl[i] + al[0] * Dl[3 + i] + al[1] * Dl[6 + i] + al[2] * Dl[9 + i];
            dz[i] = zl[i] - zk[i];
        }
        double vt = clr_tangent(n3, dz, NULL, e), Fk[12], Fl[12], ft = 1e3;
        clr_point_dirs(ak, e, Fk);
        clr_point_dirs(al, e, Fl);
        double dW = ft * (dot(Fk, Dk, 12) - dot(Fl, Dl, 12));
        ftpos = fmax(ftpos, dW);
        ftid = fmax(ftid, fabs(dW + ft * vt) / (ft * (nrm(zk, 3) + nrm(zl, 3))));
    }
    CHECK(fd < 1e-7 && psi < 1e-14,
          "eq. 14 in director coordinates: dq/d(x, d1, d2, d3) against central differences %.2e "
          "(1e-7); on rigid variations dd = dpsi x d it gives eq. 14's moments (%.2e)",
          fd, psi);
    MEASURE("clr.dirs.rigid_moments", psi);
    CHECK(alg < 64 && exact < 64 && skipped < N / 10,
          "claim 1 in director coordinates (clr_spatial_dq_dirs_m): g_m . (dx, dd) = qbar_f - "
          "qbar_i at one phi for any director increments (%.1f units of eps rho_k, 64) and "
          "f_m (q_f - q_i) for exp(r~) rotation steps with the angle kept (%.1f units; %d "
          "skipped): no Cayley reading needed",
          alg, exact, skipped);
    MEASURE("clr.dirs.fixed_phi_units", alg);
    CHECK(ftpos <= 0 && ftid < 1e-12,
          "claim 3 in director coordinates: f [e; a_j e] on K, -f [e; a_j e] on L do the work "
          "-f |Dt V^t| <= 0 (max %.3g; %.2e of f (|dZ^k| + |dZ^l|), 1e-12)",
          ftpos, ftid);
}

/* ---- contact potentials (claim 2) -------------------------------------- */

static double dpot(int hertz, double K, double q)
{
    return q >= 0 ? 0 : hertz ? -K * pow(-q, 1.5) : K * q;
}

static void test_potentials(void)
{
    for (int hertz = 0; hertz < 2; hertz++) {
        const char *law = hertz ? "Hertz V = 2/5 K p^(5/2)" : "linear V = k/2 p^2";
        double K = hertz ? 1e10 : 1.5e7, tele = 0, fdw = 0, lim = 0, naive = 0, edge = 0, close = 0;
        for (int n = 0; n < 20000; n++) {
            double scale = 1e-5, qi = urand(-1, 0.5) * scale, qf;
            int kind = n % 4;
            if (kind == 0)
                qf = urand(-1, 0.5) * scale;
            else if (kind == 1)
                qf = qi * (1 + pow(10, urand(-12, -1)) * (urand(0, 1) < 0.5 ? -1 : 1));
            else if (kind == 2)
                qf = -qi * urand(0, 2); /* opposite sides */
            else
                qf = qi + urand(-1, 1) * 1e-3 * scale;
            double (*fm)(double, double, double, double *) = hertz ? clr_fm_hertz : clr_fm_linear;
            double (*pot)(double, double) = hertz ? clr_pot_hertz : clr_pot_linear;
            double d, f = fm(K, qi, qf, &d);
            double Vi = pot(K, qi), Vf = pot(K, qf);
            if (qf != qi)
                tele = fmax(tele, fabs(f * (qf - qi) - (Vf - Vi)) / (fabs(Vf) + fabs(Vi) + 1e-300));
            /* df_m/dq_f against central differences */
            double h = 1e-6 * (fabs(qf) + fabs(qi));
            if ((qf > 0) == (qf + h > 0) && (qf > 0) == (qf - h > 0)) {
                double fd = (fm(K, qi, qf + h, NULL) - fm(K, qi, qf - h, NULL)) / (2 * h);
                fdw = fmax(fdw, fabs(fd - d) / (K * pow(scale, hertz ? 0.5 : 0)));
            }
            if (kind == 1 && qi < 0) {
                /* close ends: f_m = V'(q_m) + O(dq^2) (exact for the spring);
                 * the quotient evaluated as printed loses digits to cancellation */
                double fmid = dpot(hertz, K, 0.5 * (qi + qf)), r = (qf - qi) / (qi + qf);
                lim = fmax(lim, fabs(f - fmid) / (fabs(fmid) * (r * r + 1e-13)));
                if (fabs(r) < 1e-9) {
                    double nv = (Vf - Vi) / (qf - qi);
                    naive = fmax(naive, fabs(nv - fmid) / fabs(fmid));
                    close = fmax(close, fabs(f - fmid) / fabs(fmid));
                }
            }
        }
        /* at q_f = q_i exactly, and across the contact edge */
        double q = -3e-6, f0 = (hertz ? clr_fm_hertz : clr_fm_linear)(K, q, q, NULL);
        for (int s = -1; s <= 1; s += 2) {
            double fa = (hertz ? clr_fm_hertz : clr_fm_linear)(K, q, s * 1e-300, NULL);
            double fb = (hertz ? clr_fm_hertz : clr_fm_linear)(K, q, 0.0, NULL);
            edge = fmax(edge, fabs(fa - fb) / fabs(fb));
        }
        CHECK(tele < 1e-14,
              "claim 2 (%s): f_m (q_f - q_i) = V(q_f) - V(q_i) to %.2e of |V_f| + |V_i| on 20000 "
              "pairs in and out of contact (1e-14)",
              law, tele);
        if (hertz) { /* docs/contact.md quotes the Hertz law's */
            MEASURE("clr.hertz.telescoping", tele);
        }
        CHECK(lim < 0.2 && close < 1e-14 && naive > 1e3 * close && f0 == dpot(hertz, K, q) &&
                  edge < 1e-15,
              "claim 2 (%s): continuity as q_f -> q_i: |f_m - V'(q_m)| <= %.3g |V'| (dq/2q_m)^2 (Hertz: "
              "1/8, V''' dq^2/24); "
              "at |dq/2q_m| < 1e-9 f_m is within %.2e of V'(q_m), the quotient evaluated as "
              "printed %.2e; f_m(q, q) = V'(q) exactly; continuous across q_f = 0 (%.2e)",
              law, lim, close, naive, edge);
        if (hertz) { /* docs/contact.md quotes the Hertz law's */
            MEASURE("clr.hertz.close", close);
            MEASURE("clr.hertz.printed_quotient", naive);
        }
        CHECK(fdw < 1e-6, "df_m/dq_f (%s) against central differences: %.2e (1e-6)", law, fdw);
        if (hertz) { /* docs/contact.md quotes the Hertz law's */
            MEASURE("clr.hertz.dfdq", fdw);
        }
    }
}

/* ---- step rules (claim 8) --------------------------------------------- */

static void test_steps(void)
{
    /* a hand value: eps_p = 3e-6 m (seed 001 Sect. 6), q1 = 3e-5, q0 = 3.2e-5,
     * Dt0 = Dt1 = 1e-4: kappa = 2, Dq = 3e-6 2^1.2, v_m = -0.02 m/s */
    double dt = clr_step_contact(3.2e-5, 3e-5, 1e-4, 1e-4, 3e-6, CLR_QBAR_MIN, CLR_CONTACT_ALPHA);
    CHECK(fabs(dt - 3e-6 * pow(2, 1.2) / 0.02) < 1e-18,
          "claim 8 (eqs. 19-20): kappa = 2 gives Dt = eps_p 2^1.2/|v_m| = %.6e s", dt);
    MEASURE("clr.step.contact_dt", dt);
    /* a scripted gap history: approach, contact, separation */
    double worst = 0, t = 0, dt0 = 1e-4, dt1 = 1e-4, q0 = 2e-4, eps_p = 3e-6;
    int n = 0, in = 0;
    for (; n < 2000; n++) {
        double q1 = 2e-4 * cos(40 * (t + dt1)) - 5e-5;
        double got = clr_step_contact(q0, q1, dt0, dt1, eps_p, 5, 1.2);
        double kap = q1 / eps_p / 5, dq = kap > 1 ? eps_p * pow(kap, 1.2) : eps_p;
        double vm = fabs(2 * (q1 - q0) / (dt0 + dt1)), want = dq / vm;
        worst = fmax(worst, fabs(got - want) / want);
        in += q1 < 0;
        t += dt1, dt0 = dt1, q0 = q1;
        dt1 = fmin(fmax(got, 1e-7), 1e-3);
    }
    CHECK(worst == 0 && in > 0,
          "claim 8 (eqs. 19-20): the contact step on a scripted gap history of %d steps (%d in "
          "contact) equals Dq/|v_m| from the formulas: max rel diff %.2e",
          n, in, worst);
    MEASURE("clr.step.in_contact", in);
    /* friction: seed 001 Sect. 6.1's parameters, V_r = 0.05 m/s: nu = 10 */
    double om = clr_lugre_omega(1e5, 1e-3, 0.3);
    double df = clr_step_friction(0.05, 1e-3, om, 5e-4, 5, 1.5);
    CHECK(fabs(om - 1e5 * 1e-3 / 0.3) < 1e-12 && fabs(df - 5e-4 * pow(10, 1.5) / om) < 1e-18,
          "claim 8 (eqs. 27, 33): Omega = %.4f /s; V_r = 50 v_s, vhat_min = 5, alpha = 1.5: "
          "Omega Dt = 5e-4 10^1.5, Dt = %.6e s", om, df);
    MEASURE("clr.step.omega", om);
    MEASURE("clr.step.friction_dt", df);
    worst = 0;
    int slow = 0;
    for (n = 0; n < 2000; n++) {
        double V = 0.08 * sin(0.01 * n) * sin(0.0037 * n * n); /* m/s, crossing zero */
        double got = clr_step_friction(V, 1e-3, om, CLR_DTAU_MIN, CLR_VHAT_MIN, CLR_FRICTION_ALPHA);
        double nu = fabs(V) / 1e-3 / 5;
        double want = (nu > 1 ? 0.02 * pow(nu, 1.2) : 0.02) / om;
        worst = fmax(worst, fabs(got - want) / want);
        slow += nu <= 1;
    }
    CHECK(worst == 0 && slow > 0,
          "claim 8 (eq. 33): the friction step on a scripted speed history of 2000 values (%d "
          "below vhat_min) equals the formula: max rel diff %.2e",
          slow, worst);
}

/* ---- LuGre TDG (claims 5-7) ------------------------------------------- */

static void lugre_random(clr_lugre_par *p)
{
    p->ratio = urand(1, 2);
    p->gamma = urand(0, 1) < 0.5 ? 2 : urand(0.5, 3);
    p->sigma1 = urand(0, 1) < 0.3 ? 0 : urand(0, 2);
    p->sigma2 = urand(0, 0.5);
}

static double vrand(void)
{
    double v = pow(10, urand(-3, 2));
    return urand(0, 1) < 0.5 ? -v : v;
}

static void test_lugre(void)
{
    int N = 100000;
    double r29 = 0, stick = 0, slide = 0, e30 = 0, e30p = 0, e32 = 0, pos = -HUGE_VAL;
    double e30abs = 0, zgb = 0, vdec = -HUGE_VAL, mu25 = 0;
    for (int n = 0; n < N; n++) {
        clr_lugre_par p;
        lugre_random(&p);
        double v = vrand(), dtau = pow(10, urand(-4, 1)), zi = urand(-1.3, 1.3) * p.ratio;
        clr_lugre_step st;
        clr_lugre_tdg(&p, zi, v, fabs(v), dtau, &st);
        /* eq. 29's two residuals */
        double ra = (st.zf - zi) / dtau + st.beta * (st.zf + st.zj) / 2 - v;
        double rb = (st.zj - zi) / dtau - st.beta * (st.zf - st.zj) / 6;
        double sc = fabs(v) + st.beta * (fabs(st.zf) + fabs(st.zj)) + (fabs(st.zf) + fabs(zi)) / dtau;
        r29 = fmax(r29, fmax(fabs(ra), fabs(rb)) / sc);
        /* claim 5: sticking and sliding steady states */
        clr_lugre_step s0;
        clr_lugre_tdg(&p, zi, 0, 0, dtau, &s0);
        stick = fmax(stick, fmax(fabs(s0.zf - zi), fabs(s0.zj - zi)));
        double zs = (v > 0 ? 1 : -1) * clr_lugre_g(&p, v);
        clr_lugre_tdg(&p, zs, v, fabs(v), dtau, &s0);
        slide = fmax(slide, fmax(fabs(s0.zf - zs), fabs(s0.zj - zs)) / fabs(zs));
        mu25 = fmax(mu25, fabs(s0.mu - (zs + p.sigma2 * v)) /
                              (fabs(zs) + (p.sigma1 + p.sigma2) * fabs(v)));
        /* eq. 30 with |v|_g = |v_g|; its printed numerical term */
        double az = fabs(st.zg), s30 = az * fabs(v) * (az / st.g + 1) + fabs(st.diss) + fabs(st.dV);
        e30 = fmax(e30, fabs(st.dV - st.slide - st.diss) / (s30 + 1e-300));
        /* (where z_j - z_i is not lost to cancellation in the test's subtraction) */
        if (st.beta > 0 && fabs(st.zj - zi) > 1e-4 * (fabs(zi) + fabs(st.zj))) {
            double pr = -(1 / (2 * dtau)) * (1 + 6 / (st.beta * dtau)) * (st.zj - zi) * (st.zj - zi);
            e30p = fmax(e30p, fabs(pr - st.diss) / (fabs(st.diss) + 1e-300));
        }
        pos = fmax(pos, fmax(st.diss, fmax(st.w[0], st.w[1])));
        /* claim 6: V decreases when |z|_g > g(v_g); |z_g| <= max(|z_i|, g) */
        if (fabs(st.zg) > st.g)
            vdec = fmax(vdec, st.dV);
        zgb = fmax(zgb, fabs(st.zg) - fmax(fabs(zi), st.g));
        /* claim 7, eq. 32: the five terms add up to eq. 31 */
        double s32 = fabs(st.work);
        for (int k = 0; k < 5; k++)
            s32 += fabs(st.w[k]);
        e32 = fmax(e32, fabs(st.w[0] + st.w[1] + st.w[2] + st.w[3] + st.w[4] - st.work) / s32);
        /* |v|_g = (|v_f| + |v_j|)/2 when v changes sign within the step */
        double vf = v + urand(0, 1) * 2 * fabs(v), vj = 2 * v - vf;
        clr_lugre_tdg(&p, zi, v, 0.5 * (fabs(vf) + fabs(vj)), dtau, &s0);
        az = fabs(s0.zg);
        s30 = az * fabs(v) * (az / s0.g + 1) + fabs(s0.diss) + fabs(s0.dV);
        e30abs = fmax(e30abs, fabs(s0.dV - s0.slide - s0.diss) / (s30 + 1e-300));
    }
    CHECK(r29 < 1e-14, "eq. 29: both residuals at the solution %.2e (1e-14), %d random steps", r29, N);
    MEASURE("clr.lugre.eq29_residual", r29);
    CHECK(stick == 0 && slide < 1e-15,
          "claim 5: sticking (v = 0) leaves z unchanged (%.2e); sliding z = sign(v) g(v) is "
          "steady (%.2e, 1e-15)",
          stick, slide);
    MEASURE("clr.lugre.steady_slide", slide);
    CHECK(mu25 < 1e-14, "eq. 25 at steady sliding: mu = sign(v) g(v) + sigma2 v (%.2e)", mu25);
    CHECK(e30 < 1e-12 && e30p < 1e-10,
          "claim 6 (eq. 30): (V_f - V_i)/Dtau = first term + numerical term to %.2e with "
          "beta_g = |v_g|/g(v_g) (1e-12); the printed numerical term equals the library's to %.2e "
          "(1e-10, where z_j - z_i > 1e-4 |z|)",
          e30, e30p);
    MEASURE("clr.lugre.eq30", e30);
    CHECK(e30abs > 1e-3,
          "eq. 30 with |v|_g read as (|v_f| + |v_j|)/2 fails when v changes sign in the step "
          "(mismatch up to %.2e of its terms): |v|_g = |v_g| is the reading",
          e30abs);
    MEASURE("clr.lugre.eq30_mean_abs", e30abs);
    CHECK(pos <= 0,
          "claim 7 (eq. 32): terms 1, 2 and 5 (and eq. 30's numerical term) never positive "
          "(max %.3g)",
          pos);
    CHECK(e32 < 1e-12, "claim 7 (eq. 32): the five terms add up to eq. 31's work to %.2e (1e-12)",
          e32);
    MEASURE("clr.lugre.eq32", e32);
    CHECK(vdec <= 0 && zgb <= 1e-15,
          "claim 6: V_f <= V_i whenever |z|_g > g(v_g) (max dV %.3g); per step |z_g| <= "
          "max(|z_i|, g(v_g)) (excess %.2e)",
          vdec, zgb);
    /* the numerical term vanishes as Dtau -> 0: O(Dtau^2) */
    double rmin = HUGE_VAL, rmax = 0;
    for (int n = 0; n < 1000; n++) {
        clr_lugre_par p;
        lugre_random(&p);
        double v = vrand(), zi = urand(-1, 1), d1 = 1e-3 / (1 + fabs(v)), a, b;
        clr_lugre_step s1, s2;
        clr_lugre_tdg(&p, zi, v, fabs(v), d1, &s1);
        clr_lugre_tdg(&p, zi, v, fabs(v), d1 / 2, &s2);
        a = s1.diss, b = s2.diss;
        if (a < -1e-300) {
            rmin = fmin(rmin, b / a), rmax = fmax(rmax, b / a);
        }
    }
    CHECK(rmin > 0.2 && rmax < 0.3,
          "claim 6: the numerical dissipation -> 0 as Dtau -> 0: halving Dtau scales it by "
          "[%.4f, %.4f] (1/4: O(Dtau^2))",
          rmin, rmax);
    MEASURE("clr.lugre.dtau_halving_min", rmin);
    MEASURE("clr.lugre.dtau_halving_max", rmax);
    /* convergence to steady sliding at constant v */
    double conv = 0;
    for (int n = 0; n < 1000; n++) {
        clr_lugre_par p;
        lugre_random(&p);
        double v = vrand(), z = urand(-1, 1) * p.ratio, dtau = 0.5 * clr_lugre_g(&p, v) / fabs(v);
        clr_lugre_step st;
        for (int k = 0; k < 200; k++) { /* beta_g Dtau = 0.5 */
            clr_lugre_tdg(&p, z, v, fabs(v), dtau, &st);
            z = st.zf;
        }
        conv = fmax(conv, fabs(z - (v > 0 ? 1 : -1) * clr_lugre_g(&p, v)));
    }
    CHECK(conv < 1e-14, "claim 5: constant v drives z to sign(v) g(v) (%.2e after 200 steps of "
          "beta_g Dtau = 0.5)", conv);
    /* claim 6 over long random velocity histories */
    double bsmall = 0, brule = 0, bany = 0;
    for (int h = 0; h < 30; h++) {
        clr_lugre_par p;
        lugre_random(&p);
        double G = p.ratio;
        for (int mode = 0; mode < 3; mode++) {
            double z = urand(-1, 1) * G, v = 0, worst = 0;
            for (int k = 0; k < 20000; k++) {
                v = urand(0, 1) < 0.05 ? vrand() * 3 : v + urand(-1, 1) * (0.2 + 0.1 * fabs(v));
                double g = clr_lugre_g(&p, v), dtau;
                if (mode == 0) /* beta_g Dtau <= 3 */
                    dtau = urand(0, 3) * g / (fabs(v) + 1e-12);
                else if (mode == 1) /* eq. 33's step, defaults */
                    dtau = clr_step_friction(v, 1, 1, CLR_DTAU_MIN, CLR_VHAT_MIN, CLR_FRICTION_ALPHA);
                else
                    dtau = pow(10, urand(-3, 2));
                clr_lugre_step st;
                clr_lugre_tdg(&p, z, v, fabs(v), dtau, &st);
                worst = fmax(worst, fmax(fabs(st.zg), fabs(st.zf)) / G);
                z = st.zf;
            }
            if (mode == 0)
                bsmall = fmax(bsmall, worst);
            else if (mode == 1)
                brule = fmax(brule, worst);
            else
                bany = fmax(bany, worst);
        }
    }
    /* the bound: c = (1 - b/3)/(1 + 2b/3 + b^2/6) >= -c* (b = 3 + sqrt 27),
     * |z| <= G (1 + c*)/(1 - c*) */
    double bs = 3 + sqrt(27.0), cs = (bs / 3 - 1) / (1 + 2 * bs / 3 + bs * bs / 6);
    double bound = (1 + cs) / (1 - cs);
    CHECK(bsmall <= 1 + 1e-15 && brule <= bound && bany <= bound,
          "claim 6: over 30 x 20000-step random velocity histories from |z_0| <= mu_s/mu_k, "
          "max(|z_g|, |z_f|)/(mu_s/mu_k) = %.6f with beta_g Dtau <= 3, %.6f with eq. 33's steps, "
          "%.6f with any steps (analytic bound %.6f)",
          bsmall, brule, bany, bound);
    MEASURE("clr.lugre.bound_small", bsmall);
    MEASURE("clr.lugre.bound_rule", brule);
    MEASURE("clr.lugre.bound_any", bany);
    MEASURE("clr.lugre.bound", bound);
    MEASURE("clr.lugre.cmin", -cs);
    /* a velocity reversal in one long step: |z| > mu_s/mu_k */
    clr_lugre_par p1 = {1, 2, 0, 0};
    clr_lugre_step st;
    clr_lugre_tdg(&p1, -1, 50, 50, bs / 50, &st);
    double z1 = st.zf;
    clr_lugre_tdg(&p1, z1, -50, 50, bs / 50, &st);
    double z2 = st.zf;
    clr_lugre_tdg(&p1, z2, -1e-3, 1e-3, 1e-3, &st);
    CHECK(z1 > 1.19 && fabs(st.zg) > 1.2,
          "claim 6 does NOT hold as printed for beta_g Dtau > 3: mu_s = mu_k, z_i = -1, v_g = 50 "
          "with beta_g Dtau = 3 + sqrt(27) gives z_f = %.6f, a reversal then %.6f and |z|_g = %.6f "
          "> mu_s/mu_k = 1 (bounded by %.6f)",
          z1, z2, fabs(st.zg), bound);
    MEASURE("clr.lugre.overshoot_zf", z1);
    MEASURE("clr.lugre.overshoot_zg", fabs(st.zg));
}

int main(void)
{
    test_cayley();
    test_planar();
    test_spatial_gap();
    test_spatial_derivs();
    test_spatial_work();
    test_spatial_dirs();
    test_potentials();
    test_steps();
    test_lugre();
    return check_done();
}
