/*
 * clearance.c: the clearance joints of seed 001 (clearance.h,
 * docs/contact.md). Equation numbers are those of part C of the report
 * (Bauchau and Ju, "Modeling friction phenomena in flexible multibody
 * dynamics"). Readings the report leaves open are marked [INFERRED] and
 * checked in tests/unit/test_clearance.c.
 */
#include <math.h>
#include <stddef.h>

#include "clearance.h"

static const double PI = 3.14159265358979323846;

/* ---- 3-vectors -------------------------------------------------------- */

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double c[3])
{
    double c0 = a[1] * b[2] - a[2] * b[1];
    double c1 = a[2] * b[0] - a[0] * b[2];
    double c2 = a[0] * b[1] - a[1] * b[0];
    c[0] = c0, c[1] = c1, c[2] = c2;
}

static double norm3(const double a[3])
{
    return sqrt(dot3(a, a));
}

/* Column j of a row-major 3x3 matrix: body director e_(j+1). */
static void column(const double R[9], int j, double e[3])
{
    e[0] = R[j], e[1] = R[3 + j], e[2] = R[6 + j];
}

static void mid3(const double a[3], const double b[3], double m[3])
{
    for (int i = 0; i < 3; i++)
        m[i] = 0.5 * (a[i] + b[i]);
}

/* ---- rotations -------------------------------------------------------- */

void clr_cayley(const double r[3], double R[9])
{
    /* R = I + c (r~ + r~ r~ / 2), c = 4/(4 + r.r); r~ r~ = r r^T - (r.r) I */
    double rr = dot3(r, r), c = 4.0 / (4.0 + rr);
    double S[9] = {0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s2 = r[i] * r[j] - (i == j ? rr : 0.0);
            R[3 * i + j] = (i == j ? 1.0 : 0.0) + c * (S[3 * i + j] + 0.5 * s2);
        }
}

int clr_cayley_of(const double Ri[9], const double Rf[9], double r[3])
{
    /* A = Rf Ri^T; r = 2 axial(A - A^T)/(1 + tr A) */
    double A[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            A[3 * i + j] = Rf[3 * i] * Ri[3 * j] + Rf[3 * i + 1] * Ri[3 * j + 1] +
                           Rf[3 * i + 2] * Ri[3 * j + 2];
    double den = 1.0 + A[0] + A[4] + A[8];
    r[0] = r[1] = r[2] = 0.0;
    if (den <= 1e-12)
        return 1;
    r[0] = 2.0 * (A[7] - A[5]) / den;
    r[1] = 2.0 * (A[2] - A[6]) / den;
    r[2] = 2.0 * (A[3] - A[1]) / den;
    return 0;
}

/* ---- planar / spherical clearance joint ------------------------------- */

double clr_planar_gap(double rho_k, double rho_l, const double x[3], double n[3])
{
    /* eq. 2: q = n^T (Z^k - Z^l) = rho_k - rho_l - |u0 + u| */
    double d = norm3(x);
    if (n)
        for (int i = 0; i < 3; i++)
            n[i] = d > 0 ? x[i] / d : 0.0;
    return rho_k - rho_l - d;
}

void clr_planar_dir(const double n[3], double g[12])
{
    /* eq. 3 (eq. 4 with n_m): F^n = f^n [n; -n] on (u^k, u^l) */
    for (int i = 0; i < 3; i++)
        g[i] = n[i], g[3 + i] = 0.0, g[6 + i] = -n[i], g[9 + i] = 0.0;
}

void clr_planar_nm(const double xi[3], const double xf[3], double nm[3])
{
    /* eq. 4: n_m = 2 (u0 + u_m)/(|u0 + u_f| + |u0 + u_i|); then
     * n_m . (x_f - x_i) = (|x_f|^2 - |x_i|^2)/(|x_f| + |x_i|) = |x_f| - |x_i| */
    double den = norm3(xi) + norm3(xf);
    for (int i = 0; i < 3; i++)
        nm[i] = den > 0 ? (xi[i] + xf[i]) / den : 0.0;
}

void clr_planar_arms(double rho_k, double rho_l, const double n[3], double ak[3], double al[3])
{
    /* Z^k = u0^k + u^k + rho_k n, Z^l = u0^l + u^l + rho_l n */
    for (int i = 0; i < 3; i++)
        ak[i] = rho_k * n[i], al[i] = rho_l * n[i];
}

/* ---- friction at a contact point -------------------------------------- */

double clr_slip(const double ak[3], const double al[3], const double n[3], const double vk[3],
                const double wk[3], const double vl[3], const double wl[3], double vr[3],
                double vt[3], double e[3])
{
    /* eqs. 5, 16: V^r = Zdot^l - Zdot^k; eqs. 7, 18 with increments */
    double a[3], b[3], r[3];
    cross3(wl, al, a);
    cross3(wk, ak, b);
    for (int i = 0; i < 3; i++)
        r[i] = (vl[i] + a[i]) - (vk[i] + b[i]);
    if (vr)
        for (int i = 0; i < 3; i++)
            vr[i] = r[i];
    return clr_tangent(n, r, vt, e);
}

double clr_tangent(const double n[3], const double vr[3], double vt[3], double e[3])
{
    /* V^t = (I - nu nu^T) V^r, nu = n/|n| (the reading that makes the
     * discrete work exactly -f Dt V^t; the printed U - n_m n_m^T with a
     * non-unit n_m gives a larger dissipation, docs/contact.md) */
    double nn = dot3(n, n), c = nn > 0 ? dot3(n, vr) / nn : 0.0, t[3];
    for (int i = 0; i < 3; i++)
        t[i] = vr[i] - c * n[i];
    double vtn = norm3(t);
    for (int i = 0; i < 3; i++) {
        if (vt)
            vt[i] = t[i];
        e[i] = vtn > 0 ? t[i] / vtn : 0.0;
    }
    return vtn;
}

void clr_friction_dir(const double ak[3], const double al[3], const double e[3], double F[12])
{
    /* eqs. 6, 17: [e; rho_k n~ e | lambda~ e; -e; -rho_l n~ e | -rho_l d1l~ e] */
    double a[3], b[3];
    cross3(ak, e, a);
    cross3(al, e, b);
    for (int i = 0; i < 3; i++)
        F[i] = e[i], F[3 + i] = a[i], F[6 + i] = -e[i], F[9 + i] = -b[i];
}

/* ---- spatial clearance joint ------------------------------------------ */

/* qbar in the cylinder's frame: A, B = x . e1k, x . e2k; C, D, E =
 * e3l . e1k, e2k, e3k. With c, s = cos, sin phi: d1k . x = A c + B s,
 * d2k . x = -A s + B c, g1 = C c + D s, a = d2k . e3l = -C s + D c and
 * h1 = |d1k x e3l| = sqrt(a^2 + E^2) (no cancellation near g1 = 1). */
typedef struct frame_k {
    double rk, rl, A, B, C, D, E;
} frame_k;

static void frame_at(double rho_k, double rho_l, const double Rk[9], const double e3l[3],
                     const double x[3], frame_k *F)
{
    double e[3];
    F->rk = rho_k, F->rl = rho_l;
    column(Rk, 0, e);
    F->A = dot3(x, e), F->C = dot3(e3l, e);
    column(Rk, 1, e);
    F->B = dot3(x, e), F->D = dot3(e3l, e);
    column(Rk, 2, e);
    F->E = dot3(e3l, e);
}

/* eq. 11 and its first two derivatives in phi (eq. 12's left-hand side and
 * Newton's slope); h1 = 0 returns HUGE_VAL slopes */
static double qbar_at(const frame_k *F, double phi, double *d1, double *d2)
{
    double c = cos(phi), s = sin(phi);
    double g1 = F->C * c + F->D * s, a = -F->C * s + F->D * c;
    double h1 = sqrt(a * a + F->E * F->E);
    double x1 = F->A * c + F->B * s, x2 = -F->A * s + F->B * c;
    if (d1 || d2) {
        double q1 = HUGE_VAL, q2 = HUGE_VAL;
        if (h1 > 0) {
            /* eq. 12: dqbar/dphi = d2k . (rho_l (g1/h1) e3l - x) */
            q1 = F->rl * g1 * a / h1 - x2;
            q2 = F->rl * ((a * a - g1 * g1) / h1 + g1 * g1 * a * a / (h1 * h1 * h1)) + x1;
        }
        if (d1)
            *d1 = q1;
        if (d2)
            *d2 = q2;
    }
    return F->rk - F->rl * h1 - x1;
}

double clr_spatial_qbar(double rho_k, double rho_l, const double Rk[9], const double e3l[3],
                        const double x[3], double phi, double dq[2])
{
    frame_k F;
    frame_at(rho_k, rho_l, Rk, e3l, x, &F);
    return dq ? qbar_at(&F, phi, &dq[0], &dq[1]) : qbar_at(&F, phi, NULL, NULL);
}

static double wrap(double phi)
{
    phi = remainder(phi, 2 * PI);
    return phi <= -PI ? phi + 2 * PI : phi;
}

/* Newton on dqbar/dphi = 0 from phi, guarded: a step of at most 0.5 rad,
 * a gradient step where qbar is not convex, halved until qbar decreases
 * (short convex steps are taken whole: qbar's round-off hides their gain).
 * Returns the angle; *ok = 0 if 60 iterations did not converge. */
static double descend(const frame_k *F, double phi, int *iters, int *ok)
{
    *ok = 0;
    for (int it = 0; it < 60; it++) {
        double d1, d2, q = qbar_at(F, phi, &d1, &d2), step;
        (*iters)++;
        if (!(d1 < HUGE_VAL))
            return phi;
        if (d2 > 0)
            step = -d1 / d2;
        else
            step = d1 > 0 ? -0.5 : 0.5;
        if (fabs(step) > 0.5)
            step = copysign(0.5, step);
        if (!(d2 > 0 && fabs(step) < 1e-3)) {
            int k;
            for (k = 0; k < 60 && !(qbar_at(F, phi + step, NULL, NULL) < q); k++)
                step *= 0.5;
            if (k == 60) { /* no decrease: a minimum to round-off */
                *ok = 1;
                return phi;
            }
        }
        phi += step;
        if (fabs(step) < 1e-12) {
            *ok = 1;
            return phi;
        }
    }
    return phi;
}

int clr_spatial_gap(double rho_k, double rho_l, const double Rk[9], const double Rl[9],
                    const double x[3], clr_spatial *s)
{
    frame_k F;
    double e3l[3];
    column(Rl, 2, e3l);
    frame_at(rho_k, rho_l, Rk, e3l, x, &F);
    /* starts: x projected on the cross-section plane; the two angles where
     * d1k is normal to e3l (h1 = 1, the disk's support widest) */
    double start[3];
    int ns = 0;
    start[ns++] = (F.A != 0 || F.B != 0) ? atan2(F.B, F.A) : 0.0;
    if (F.C != 0 || F.D != 0) {
        double psi = atan2(F.D, F.C);
        start[ns++] = psi + PI / 2;
        start[ns++] = psi - PI / 2;
    }
    int iters = 0, allok = 1;
    double best = 0, qbest = HUGE_VAL;
    for (int k = 0; k < ns; k++) {
        int ok;
        double phi = descend(&F, start[k], &iters, &ok);
        double q = qbar_at(&F, phi, NULL, NULL);
        allok &= ok;
        if (q < qbest)
            qbest = q, best = phi;
    }
    /* the geometry at the optimum (eqs. 8, 9, 13, 16) */
    double e1[3], e2[3], h[3];
    column(Rk, 0, e1);
    column(Rk, 1, e2);
    column(Rk, 2, s->d3k);
    s->phi = wrap(best);
    double c = cos(s->phi), sn = sin(s->phi);
    for (int i = 0; i < 3; i++) {
        s->d1k[i] = c * e1[i] + sn * e2[i];
        s->d2k[i] = -sn * e1[i] + c * e2[i];
        s->e3l[i] = e3l[i];
        s->x[i] = x[i];
    }
    cross3(s->d1k, e3l, h);
    s->g1 = dot3(e3l, s->d1k);
    s->h1 = norm3(h);
    double d1, d2;
    qbar_at(&F, s->phi, &d1, &d2);
    s->res = d1;
    s->iters = iters;
    if (s->h1 < 1e-9) {
        s->q = HUGE_VAL;
        for (int i = 0; i < 3; i++)
            s->d1l[i] = s->d2l[i] = s->lambda[i] = 0.0;
        return -1;
    }
    /* eq. 9: d2l = -(d1k x e3l)/h1, d1l = d2l x e3l = (d1k - g1 e3l)/h1 */
    for (int i = 0; i < 3; i++)
        s->d2l[i] = -h[i] / s->h1;
    cross3(s->d2l, e3l, s->d1l);
    /* eq. 13 */
    s->q = rho_k - rho_l * s->h1 - dot3(s->d1k, x);
    /* eq. 16: lambda = (u0 + u) + rho_l d1l + q d1k */
    for (int i = 0; i < 3; i++)
        s->lambda[i] = x[i] + rho_l * s->d1l[i] + s->q * s->d1k[i];
    return allok ? 0 : 1;
}

void clr_spatial_dir(double rho_l, const double d1k[3], const double e3l[3], double g1, double h1,
                     const double x[3], double g[12])
{
    /* eqs. 14, 15: [d1k; c h - d1k x x; -d1k; -c h], h = d1k x e3l,
     * c = rho_l g1/h1 (the printed "d1k e3l" and "d1k (u0 + u)" read as
     * cross products, [INFERRED]) */
    double h[3], m[3], c = rho_l * g1 / h1;
    cross3(d1k, e3l, h);
    cross3(d1k, x, m);
    for (int i = 0; i < 3; i++) {
        g[i] = d1k[i];
        g[3 + i] = c * h[i] - m[i];
        g[6 + i] = -d1k[i];
        g[9 + i] = -c * h[i];
    }
}

void clr_spatial_dq(double rho_l, const clr_spatial *s, double g[12])
{
    clr_spatial_dir(rho_l, s->d1k, s->e3l, s->g1, s->h1, s->x, g);
}

void clr_spatial_dq_m(double rho_l, const clr_spatial *si, const clr_spatial *sf, double g[12])
{
    /* eq. 15: d1m = (d1f + d1i)/2, e3m = (e3f + e3i)/2, h_1m = d1m x e3m,
     * h1m = (h1f + h1i)/2, g1m = (g1f + g1i)/2, u_m = (u_f + u_i)/2 */
    double d1m[3], e3m[3], xm[3];
    mid3(si->d1k, sf->d1k, d1m);
    mid3(si->e3l, sf->e3l, e3m);
    mid3(si->x, sf->x, xm);
    clr_spatial_dir(rho_l, d1m, e3m, 0.5 * (si->g1 + sf->g1), 0.5 * (si->h1 + sf->h1), xm, g);
}

void clr_spatial_arms(double rho_l, const clr_spatial *s, double ak[3], double al[3], double n[3])
{
    /* eq. 16: Zdot^k = udot^k + omega^k x lambda, Zdot^l = udot^l +
     * rho_l omega^l x d1l, P = U - d1k d1k^T */
    for (int i = 0; i < 3; i++)
        ak[i] = s->lambda[i], al[i] = rho_l * s->d1l[i], n[i] = s->d1k[i];
}

void clr_spatial_arms_m(double rho_l, const clr_spatial *si, const clr_spatial *sf, double ak[3],
                        double al[3], double n[3])
{
    /* eq. 18: lambda_m, d1m^l and d1m^k as averages of the ends [INFERRED] */
    for (int i = 0; i < 3; i++) {
        ak[i] = 0.5 * (si->lambda[i] + sf->lambda[i]);
        al[i] = 0.5 * rho_l * (si->d1l[i] + sf->d1l[i]);
        n[i] = 0.5 * (si->d1k[i] + sf->d1k[i]);
    }
}

/* ---- director coordinates --------------------------------------------- */

void clr_rot_from_dirs(const double d1[3], const double d2[3], const double d3[3], double R[9])
{
    for (int i = 0; i < 3; i++)
        R[3 * i] = d1[i], R[3 * i + 1] = d2[i], R[3 * i + 2] = d3[i];
}

/* [d1k; c G; s G; 0; -d1k; 0; 0; -rho_l (h x d1k)/h1],
 * G = -rho_l (e3l x h)/h1 - x: dq with d1k = c e1k + s e2k, h = d1k x e3l,
 * dh1 = h . dh/h1 */
static void dirs_grad(double rho_l, const double d1k[3], const double e3l[3], const double h[3],
                      double h1, double c, double s, const double x[3], double g[24])
{
    double G[3], t[3];
    cross3(e3l, h, G);
    cross3(h, d1k, t);
    for (int i = 0; i < 3; i++) {
        G[i] = -rho_l * G[i] / h1 - x[i];
        g[i] = d1k[i], g[3 + i] = c * G[i], g[6 + i] = s * G[i], g[9 + i] = 0.0;
        g[12 + i] = -d1k[i], g[15 + i] = 0.0, g[18 + i] = 0.0, g[21 + i] = -rho_l * t[i] / h1;
    }
}

void clr_spatial_dq_dirs(double rho_l, const clr_spatial *s, double g[24])
{
    double h[3];
    cross3(s->d1k, s->e3l, h);
    dirs_grad(rho_l, s->d1k, s->e3l, h, s->h1, cos(s->phi), sin(s->phi), s->x, g);
}

void clr_spatial_dq_dirs_m(double rho_l, const clr_spatial *si, const clr_spatial *sf, double g[24])
{
    /* with one phi: d1k . x and h = d1k x e3l are bilinear, so
     * D(d1k . x) = d1m . Dx + Dd1k . x_m, Dh = Dd1k x e3m + d1m x De3l and
     * Dh1 = (|h_f|^2 - |h_i|^2)/(h1f + h1i) = h_m . Dh/h1m, exactly */
    double d1m[3], e3m[3], xm[3], hi[3], hf[3], hm[3];
    mid3(si->d1k, sf->d1k, d1m);
    mid3(si->e3l, sf->e3l, e3m);
    mid3(si->x, sf->x, xm);
    cross3(si->d1k, si->e3l, hi);
    cross3(sf->d1k, sf->e3l, hf);
    mid3(hi, hf, hm);
    dirs_grad(rho_l, d1m, e3m, hm, 0.5 * (si->h1 + sf->h1), 0.5 * (cos(si->phi) + cos(sf->phi)),
              0.5 * (sin(si->phi) + sin(sf->phi)), xm, g);
}

void clr_point_dirs(const double a[3], const double e[3], double g[12])
{
    /* Z = x + sum a_j d_j: dZ = dx + sum a_j dd_j */
    for (int i = 0; i < 3; i++)
        g[i] = e[i], g[3 + i] = a[0] * e[i], g[6 + i] = a[1] * e[i], g[9 + i] = a[2] * e[i];
}

/* ---- contact potentials ----------------------------------------------- */

double clr_pot_linear(double k, double q)
{
    return q < 0 ? 0.5 * k * q * q : 0.0;
}

double clr_pot_hertz(double K, double q)
{
    return q < 0 ? 0.4 * K * (-q) * (-q) * sqrt(-q) : 0.0;
}

double clr_fm_linear(double k, double qi, double qf, double *dfdqf)
{
    /* f_m = (V(q_f) - V(q_i))/(q_f - q_i), V = k/2 max(-q, 0)^2 */
    double f, d;
    if (qi >= 0 && qf >= 0) {
        f = 0, d = 0;
    } else if (qi < 0 && qf < 0) { /* mean value: k (q_f + q_i)/2 */
        f = 0.5 * k * (qi + qf), d = 0.5 * k;
    } else if (qf < 0) { /* q_i >= 0: f = -k/2 p^2/(p + q_i), p = -q_f */
        double p = -qf, s = p + qi;
        f = -0.5 * k * p * p / s, d = 0.5 * k * p * (p + 2 * qi) / (s * s);
    } else { /* q_f >= 0 > q_i: f = -k/2 p^2/(q_f + p), p = -q_i */
        double p = -qi, s = qf + p;
        f = -0.5 * k * p * p / s, d = 0.5 * k * p * p / (s * s);
    }
    if (dfdqf)
        *dfdqf = d;
    return f;
}

double clr_fm_hertz(double K, double qi, double qf, double *dfdqf)
{
    /* f_m = (V(q_f) - V(q_i))/(q_f - q_i), V = 2/5 K max(-q, 0)^(5/2) */
    double f, d;
    if (qi >= 0 && qf >= 0) {
        f = 0, d = 0;
    } else if (qi < 0 && qf < 0) {
        /* s, t = sqrt(p_f), sqrt(p_i): (s^5 - t^5)/(s^2 - t^2)
         * = (s^4 + s^3 t + s^2 t^2 + s t^3 + t^4)/(s + t) */
        double s = sqrt(-qf), t = sqrt(-qi), u = s + t;
        double N = (((s + t) * s + t * t) * s + t * t * t) * s + t * t * t * t;
        f = -0.4 * K * N / u;
        d = 0.2 * K * (((3 * s + 6 * t) * s + 4 * t * t) * s + 2 * t * t * t) / (u * u);
    } else if (qf < 0) {
        double p = -qf, s = p + qi, p32 = p * sqrt(p);
        f = -0.4 * K * p32 * p / s, d = 0.2 * K * p32 * (3 * p + 5 * qi) / (s * s);
    } else {
        double p = -qi, s = qf + p, p52 = p * p * sqrt(p);
        f = -0.4 * K * p52 / s, d = 0.4 * K * p52 / (s * s);
    }
    if (dfdqf)
        *dfdqf = d;
    return f;
}

/* ---- step-size rules -------------------------------------------------- */

double clr_step_contact(double q0, double q1, double dt0, double dt1, double eps_p,
                        double qbar_min, double alpha)
{
    /* eq. 19: kappa = (q1/eps_p)/qbar_min; Dq = eps_p {1, kappa^alpha} */
    double kappa = (q1 / eps_p) / qbar_min;
    double dq = kappa <= 1 ? eps_p : eps_p * pow(kappa, alpha);
    /* eq. 20: Dt_new = Dq/v_m, v_m = 2 (q1 - q0)/(Dt0 + Dt1), |v_m| read */
    double vm = fabs(2.0 * (q1 - q0) / (dt0 + dt1));
    return vm > 0 ? dq / vm : HUGE_VAL;
}

double clr_lugre_omega(double sigma0, double v_s, double mu_k)
{
    return sigma0 * v_s / mu_k; /* eq. 27 */
}

double clr_step_friction(double V_r, double v_s, double omega, double dtau_min, double vhat_min,
                         double alpha)
{
    /* eq. 33: nu = (V_r/v_s)/vhat_min; Omega Dt = Dtau_min {1, nu^alpha} */
    double nu = (fabs(V_r) / v_s) / vhat_min;
    double dtau = nu <= 1 ? dtau_min : dtau_min * pow(nu, alpha);
    return dtau / omega;
}

/* ---- LuGre ------------------------------------------------------------ */

double clr_lugre_g(const clr_lugre_par *p, double v)
{
    return 1.0 + (p->ratio - 1.0) * exp(-pow(fabs(v), p->gamma)); /* eq. 28 */
}

static double sgn(double a)
{
    return a > 0 ? 1.0 : a < 0 ? -1.0 : 0.0;
}

void clr_lugre_tdg(const clr_lugre_par *p, double zi, double vg, double absvg, double dtau,
                   clr_lugre_step *st)
{
    /* eq. 29 with b = beta_g Dtau, w = v_g Dtau:
     *   (1 + b/2) z_f + (b/2) z_j = w + z_i,  -(b/6) z_f + (1 + b/6) z_j = z_i;
     * with r = (w - b z_i)/det: z_f = z_i + (1 + b/6) r, z_j = z_i + (b/6) r,
     * so the increments carry no cancellation */
    double g = clr_lugre_g(p, vg), beta = absvg / g;
    double b = beta * dtau, w = vg * dtau;
    double det = 1.0 + b * (2.0 / 3.0 + b / 6.0);
    double r = (w - b * zi) / det;
    double dzf = (1.0 + b / 6.0) * r, dzj = (b / 6.0) * r;
    double zf = zi + dzf, zj = zi + dzj, zg = 0.5 * (zf + zj);
    st->zj = zj, st->zf = zf, st->g = g, st->beta = beta, st->zg = zg;
    /* eq. 25 at g (eq. 31's bracket) */
    st->mu = (1.0 - beta * p->sigma1) * zg + (p->sigma1 + p->sigma2) * vg;
    /* eq. 30: (V_f - V_i)/Dtau = slide + diss; the numerical term
     * (1/(2 Dtau)) (1 + 6/(beta Dtau)) (z_j - z_i)^2 written with eq. 29b as
     * (z_j - z_i)^2/(2 Dtau) + beta (z_f - z_j)^2/12, finite at beta = 0 */
    double sv = sgn(vg), sz = sgn(zg), az = fabs(zg);
    st->dV = 0.5 * dzf * (zf + zi) / dtau;
    st->slide = -az * absvg * (az / g - sv * sz);
    st->diss = -(dzj * dzj / (2.0 * dtau) + beta * r * r / 12.0);
    /* eqs. 31, 32 */
    st->work = -st->mu * vg;
    st->w[0] = -p->sigma2 * vg * vg;
    st->w[1] = -(zg * zg / g) * absvg;
    st->w[2] = -st->dV;
    st->w[3] = -p->sigma1 * (1.0 - (az / g) * sv * sz) * vg * vg;
    st->w[4] = st->diss;
}
