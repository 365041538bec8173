/*
 * integ_radau5.c: "radau5", the three-stage Radau IIA method (order 5,
 * L-stable, stiffly accurate) with adaptive steps, as the RADAU5 code of
 * Hairer & Wanner (Solving ODEs II, Sect. IV.8 and VI.6) runs it, on
 *   B(y) y' = f(t, y)
 * with B = I for ordinary models and, for multibody models (abi.h),
 * B = diag(I, M(q), I, 0) on y = [q, v, z, lambda]: the index-3 DAE
 * q' = v, M v' = Q - C_q^T lambda, z' = f_z, 0 = C(q, t).
 *
 * Stages Z_i = Y_i - y_n solve the collocation equations (HNW II, eq. IV.8.2
 * multiplied by A^-1 / h):
 *   f(t_n + c_i h, y_n + Z_i) - B(Y_i) (1/h) sum_j (A^-1)_ij Z_j = 0,
 * by simplified Newton with J = f_y and B = B(y_n) fixed for the step. With
 * A^-1 = T Lambda T^-1 (Lambda: the real eigenvalue gamma and the 2 x 2
 * block of the complex pair; eq. IV.8.16) the increments dW = T^-1 dZ
 * decouple into (gamma/h B - J) dW_1 = G_1, an n x n real system, and the
 * complex one as a 2n x 2n real system (RADAU5's E1 and E2), both dense
 * (LAPACK through linalg/sparse.h) and kept across iterations and steps
 * while h and J are unchanged. Newton stops and steps are rejected on the
 * contraction rate theta as RADAU5 does (eq. IV.8.10-8.11, NIT = 7,
 * FNEWT = max(10 eps / rtol, min(0.03, sqrt(rtol)))); J is kept for the
 * next step when theta <= THET = 0.001 and the factorisation too when the
 * new h is within [1, 1.2] of the old.
 *
 * Error estimate (eq. IV.8.19-8.20 with B): err = (gamma/h B - J)^-1
 * (f(t_n, y_n) + B (e1 Z_1 + e2 Z_2 + e3 Z_3) / h), done a second time from
 * f(t_n, y_n + err) after a rejected or first step; its norm weights the
 * index-2 states (v) by h and the index-3 ones (lambda) by h^2 (RADAU5's
 * NIND2, NIND3: the scale divided by h, h^2). Tolerances of ordinary
 * models are taken as RADAU5 transforms them (rtol' = 0.1 rtol^(2/3),
 * atol' = atol rtol'/rtol); those of multibody models as given (r5_start).
 * Step: h / max(1/8, min(5, err^(1/4) / fac)), fac = 0.9 (2 NIT + 1) /
 * (newt + 2 NIT), and Gustafsson's predictive controller after accepted
 * steps. Between step ends: the collocation polynomial (RADAU5's CONTR5).
 * Multibody models start from consistent conditions (integ_dae_consistent).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "integ.h"

#define NIT 7        /* Newton iterations per step at most */
#define THET 0.001   /* keep J when Newton contracted faster than this */
#define QUOT1 1.0    /* keep the factorisation when h_new / h is in [QUOT1, QUOT2] */
#define QUOT2 1.2
#define SAFE 0.9
#define FACL 5.0     /* h shrinks at most 5 times ... */
#define FACR 0.125   /* ... and grows at most 8 times a step */
#define MAX_FAILS 40 /* Newton failures in a row before giving up */

/* Radau IIA, s = 3 (HNW II, Table IV.5.6). */
#define SQ6 2.449489742783178098197284
static const double r5_c[3] = {(4.0 - SQ6) / 10.0, (4.0 + SQ6) / 10.0, 1.0};
static const double r5_a[9] = {
    (88.0 - 7.0 * SQ6) / 360.0,  (296.0 - 169.0 * SQ6) / 1800.0, (-2.0 + 3.0 * SQ6) / 225.0,
    (296.0 + 169.0 * SQ6) / 1800.0, (88.0 + 7.0 * SQ6) / 360.0,  (-2.0 - 3.0 * SQ6) / 225.0,
    (16.0 - SQ6) / 36.0,         (16.0 + SQ6) / 36.0,           1.0 / 9.0};
/* The error estimate's e_i / gamma (RADAU5's DD1..DD3). */
static const double r5_dd[3] = {-(13.0 + 7.0 * SQ6) / 3.0, (-13.0 + 7.0 * SQ6) / 3.0,
                                -1.0 / 3.0};
/* T of A^-1 = T Lambda T^-1 (RADAU5's T11 .. T31, row-major). */
static const double r5_t[9] = {9.1232394870892942792e-02, -0.14125529502095420843,
                               -3.0029194105147424492e-02, 0.24171793270710701896,
                               0.20412935229379993199,     0.38294211275726193779,
                               0.96604818261509293619,     1.0,
                               0.0};

typedef struct r5 {
    int n, nq, nz, nc, dae;
    double ainv[9], ti[9], lam[9]; /* A^-1, T^-1, Lambda = T^-1 A^-1 T */
    double rtol, atol, fnewt;      /* transformed tolerances, Newton's */
    double *J;                     /* n x n, column-major */
    double *mv, *ms;               /* M at the step start; at a stage (mass_nnz) */
    sparse_lu e1, e2;              /* gamma/h B - J; the complex pair's 2n x 2n */
    double *Z, *F, *G;             /* stages, their rhs, the residuals (3n each) */
    double *ys, *scal, *err, *tmp; /* n each */
    double *cont;                  /* the collocation polynomial (3n), last step */
    double *cr;                    /* multibody: the constraint rates (3 nc) */
    double h, hold, hacc, erracc, faccon, theta;
    double fact_h;                 /* h of the factorisation; 0: none */
    int have_j, first, startn;
    long naccpt;
} r5;

/* The inverse of the 3 x 3 row-major matrix a into b (cofactors). */
static void inv3(const double *a, double *b)
{
    double det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
                 a[2] * (a[3] * a[7] - a[4] * a[6]);
    b[0] = (a[4] * a[8] - a[5] * a[7]) / det;
    b[1] = (a[2] * a[7] - a[1] * a[8]) / det;
    b[2] = (a[1] * a[5] - a[2] * a[4]) / det;
    b[3] = (a[5] * a[6] - a[3] * a[8]) / det;
    b[4] = (a[0] * a[8] - a[2] * a[6]) / det;
    b[5] = (a[2] * a[3] - a[0] * a[5]) / det;
    b[6] = (a[3] * a[7] - a[4] * a[6]) / det;
    b[7] = (a[1] * a[6] - a[0] * a[7]) / det;
    b[8] = (a[0] * a[4] - a[1] * a[3]) / det;
}

static void mul3(const double *a, const double *b, double *c)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            c[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

/* See integ.h. */
void integ_radau5_lambda(double lam[9])
{
    double ainv[9], ti[9], x[9];
    inv3(r5_a, ainv);
    inv3(r5_t, ti);
    mul3(ti, ainv, x);
    mul3(x, r5_t, lam);
}

static void r5_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)ny, (void)nnz;
    *nw = 0;
    *ni = 0;
}

static int r5_check(jnt_data *d, const jnt_settings *s)
{
    if (!(s->rtol > 0 && isfinite(s->rtol)))
        return data_error(d, JNT_ERR_PARAM, "integrator 'radau5' needs rtol > 0 (got %g)",
                          s->rtol);
    if (!(s->atol > 0 && isfinite(s->atol)))
        return data_error(d, JNT_ERR_PARAM, "integrator 'radau5' needs atol > 0 (got %g)",
                          s->atol);
    if (!(s->h >= 0 && isfinite(s->h)))
        return data_error(d, JNT_ERR_PARAM, "the initial step must be >= 0 (got %g s)", s->h);
    return JNT_OK;
}

static void r5_stop(integ_run *r)
{
    r5 *w = r->mem;
    if (!w)
        return;
    sparse_lu_free(&w->e1);
    sparse_lu_free(&w->e2);
    free(w->J), free(w->mv), free(w->ms), free(w->Z), free(w->cr);
    free(w);
    r->mem = NULL;
}

/* The mass matrix at (t, y) into mv. 0 or JNT_ERR_KERNEL. */
static int r5_mass(integ_run *r, double t, const double *y, double *mv)
{
    int rc = eval_mass(r->data->m, r->data, t, y, mv);
    if (rc != 0)
        return integ_fail(r, JNT_ERR_KERNEL, t, "the mass kernel failed (status %d)", rc);
    return 0;
}

/* out += c B x (B = diag(I, M, I, 0) with M's values mv; I for ODEs). */
static void r5_addbx(const integ_run *r, const r5 *w, const double *mv, double c,
                     const double *x, double *out)
{
    const jnt_model *m = r->data->m;
    if (!w->dae) {
        for (int i = 0; i < w->n; i++)
            out[i] += c * x[i];
        return;
    }
    int nq = w->nq;
    for (int i = 0; i < nq; i++)
        out[i] += c * x[i];
    for (int j = 0; j < nq; j++)
        for (int k = m->mcolptr[j]; k < m->mcolptr[j + 1]; k++)
            out[nq + m->mrowind[k]] += c * mv[k] * x[nq + j];
    for (int i = 2 * nq; i < 2 * nq + w->nz; i++)
        out[i] += c * x[i];
}

/* Add c B into the column-major ld x ld array E at block offset (o, o). */
static void r5_addb(const integ_run *r, const r5 *w, double c, double *E, int ld, int oi,
                    int oj)
{
    const jnt_model *m = r->data->m;
    int nq = w->nq, nb = w->dae ? 2 * nq + w->nz : w->n;
    for (int i = 0; i < nb; i++)
        if (!w->dae || i < nq || i >= 2 * nq)
            E[(size_t)(oj + i) * ld + oi + i] += c;
    for (int j = 0; w->dae && j < nq; j++)
        for (int k = m->mcolptr[j]; k < m->mcolptr[j + 1]; k++)
            E[(size_t)(oj + nq + j) * ld + oi + nq + m->mrowind[k]] += c * w->mv[k];
}

/* Add -J into E at block offset (o, o). */
static void r5_subj(const r5 *w, double *E, int ld, int o)
{
    int n = w->n;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            E[(size_t)(o + j) * ld + o + i] -= w->J[(size_t)j * n + i];
}

/* Form and factorise E1 = l00/h B - J and E2 = [l11/h B - J, l12/h B;
 * l21/h B, l22/h B - J] for step h. 0, 1 (singular: cause recorded) or a
 * fatal status. */
static int r5_factor(integ_run *r, r5 *w, double h)
{
    int n = w->n, n2 = 2 * n;
    double *E1 = w->e1.a, *E2 = w->e2.a;
    memset(E1, 0, (size_t)n * n * sizeof *E1);
    memset(E2, 0, (size_t)n2 * n2 * sizeof *E2);
    r5_addb(r, w, w->lam[0] / h, E1, n, 0, 0);
    r5_subj(w, E1, n, 0);
    r5_addb(r, w, w->lam[4] / h, E2, n2, 0, 0);
    r5_addb(r, w, w->lam[5] / h, E2, n2, 0, n);
    r5_addb(r, w, w->lam[7] / h, E2, n2, n, 0);
    r5_addb(r, w, w->lam[8] / h, E2, n2, n, n);
    r5_subj(w, E2, n2, 0);
    r5_subj(w, E2, n2, n);
    /* a redundant row the assembly dropped (its rows of J are 0): lambda_k = 0 */
    for (int k = 0, c0 = n - w->nc; w->dae && r->data->ncons_off && k < w->nc; k++)
        if (r->data->cons_off[k]) {
            int i = c0 + k;
            E1[(size_t)i * n + i] = 1.0;
            E2[(size_t)i * n2 + i] = E2[(size_t)(n + i) * n2 + n + i] = 1.0;
        }
    r->st->lu_decomps++;
    int info = sparse_lu_factor(&w->e1, NULL);
    if (info == 0)
        info = sparse_lu_factor(&w->e2, NULL);
    if (info != 0)
        return integ_factor_failed(r, info, n);
    w->fact_h = h;
    return 0;
}

/* The error weights at the step start for step h: atol + rtol |y|, divided
 * by h for the velocities and by h^2 for the multipliers (RADAU5's index
 * scaling). */
static void r5_scale(const integ_run *r, r5 *w, double h)
{
    for (int i = 0; i < w->n; i++)
        w->scal[i] = w->atol + w->rtol * fabs(r->y[i]);
    for (int i = 0; w->dae && i < w->nq; i++)
        w->scal[w->nq + i] /= h;
    for (int k = 0; w->dae && k < w->nc; k++)
        w->scal[2 * w->nq + w->nz + k] /= h * h;
}

static double r5_norm(const r5 *w, int m, const double *x)
{
    double s = 0.0;
    for (int b = 0; b < m; b++)
        for (int i = 0; i < w->n; i++) {
            double q = x[(size_t)b * w->n + i] / w->scal[i];
            s += q * q;
        }
    return sqrt(s / ((double)m * w->n));
}

static int r5_start(integ_run *r)
{
    const jnt_abi_model *a = r->abi;
    r5 *w = calloc(1, sizeof *w);
    r->mem = w;
    if (!w)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting radau5");
    int n = a->ny, rc = 0;
    w->n = n;
    w->dae = a->nq > 0;
    w->nq = a->nq, w->nc = a->nc, w->nz = n - 2 * a->nq - a->nc;
    inv3(r5_a, w->ainv);
    inv3(r5_t, w->ti);
    integ_radau5_lambda(w->lam);
    w->J = malloc((size_t)n * n * sizeof *w->J + 1);
    w->mv = malloc((size_t)(w->dae ? r->data->m->mnnz : 0) * sizeof *w->mv + 1);
    w->ms = malloc((size_t)(w->dae ? r->data->m->mnnz : 0) * sizeof *w->ms + 1);
    w->Z = malloc((size_t)(16 * n) * sizeof *w->Z + 1);
    w->cr = malloc((size_t)(3 * w->nc) * sizeof *w->cr + 1);
    if (!w->J || !w->mv || !w->ms || !w->Z || !w->cr ||
        sparse_lu_init(&w->e1, n, NULL, NULL, SPARSE_DENSE) != 0 ||
        sparse_lu_init(&w->e2, 2 * n, NULL, NULL, SPARSE_DENSE) != 0)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting radau5");
    w->F = w->Z + 3 * n, w->G = w->F + 3 * n, w->cont = w->G + 3 * n;
    w->ys = w->cont + 3 * n, w->scal = w->ys + n, w->err = w->scal + n, w->tmp = w->err + n;
    /* RADAU5's tolerances for ordinary models (global errors near rtol);
     * multibody models take rtol as given: with the index scaling the
     * transformed one left Andrews' squeezer 100-1000 times off (4e-5 rad
     * at rtol 1e-8; 1.3e-6 untransformed) */
    w->rtol = w->dae ? r->s.rtol : 0.1 * pow(r->s.rtol, 2.0 / 3.0);
    w->atol = w->rtol * r->s.atol / r->s.rtol;
    w->fnewt = fmax(10.0 * DBL_EPSILON / w->rtol, fmin(0.03, sqrt(w->rtol)));
    /* multibody: consistent q, v, lambda (the DAE methods' projection) */
    if (w->dae) {
        integ_dae *dw = calloc(1, sizeof *dw);
        if (!dw)
            return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting radau5");
        rc = integ_dae_alloc(r, dw);
        if (rc == 0)
            rc = integ_dae_consistent(r, dw);
        integ_dae_free(dw);
        if (rc == 0)
            rc = integ_rhs(r, r->t, r->y, r->f);
        if (rc == 1)
            rc = integ_fail_cause(r, JNT_ERR_KERNEL, r->t, "the rhs kernel failed at the start");
        if (rc != 0)
            return rc;
    }
    double span = r->s.t_end - r->s.t0;
    w->h = r->s.h > 0 ? r->s.h : fmin(1e-6, span);
    if (r->s.h_max > 0)
        w->h = fmin(w->h, r->s.h_max);
    w->faccon = 1.0;
    w->theta = 1.0;
    w->first = w->startn = 1;
    return 0;
}

/* The step from t: w->h within h_max, the last one landing on t_end. */
static double r5_next_h(const integ_run *r, const r5 *w)
{
    double h = w->h, left = r->s.t_end - r->t;
    if (r->s.h_max > 0)
        h = fmin(h, r->s.h_max);
    return h >= left * (1.0 - 1e-9) ? left : h;
}

/* Newton on the stages for step h (J and the factorisation current).
 * Returns 0 (converged; *newt its iterations), 1 (failed: h halves), 2
 * (too slow: *hfac the factor for h), or a fatal status. */
static int r5_newton(integ_run *r, r5 *w, double h, int *newt, double *hfac)
{
    const jnt_abi_model *a = r->abi;
    int n = w->n, rc;
    double *Z = w->Z, *F = w->F, *G = w->G, dynold = 0.0, thqold = 0.0;
    double t = r->t;
    /* starting values: the last step's collocation polynomial, or 0 */
    if (w->first || w->startn) {
        memset(Z, 0, (size_t)3 * n * sizeof *Z);
    } else {
        double c3q = h / w->hold, c1m1 = r5_c[0] - 1.0, c2m1 = r5_c[1] - 1.0;
        const double *k1 = w->cont, *k2 = k1 + n, *k3 = k2 + n;
        for (int s = 0; s < 3; s++) {
            double cq = r5_c[s] * c3q;
            for (int i = 0; i < n; i++)
                Z[s * n + i] = cq * (k1[i] + (cq - c2m1) * (k2[i] + (cq - c1m1) * k3[i]));
        }
    }
    w->faccon = pow(fmax(w->faccon, DBL_EPSILON), 0.8);
    w->theta = fabs(THET);
    for (*newt = 0;;) {
        if (*newt >= NIT)
            return 1;
        /* residuals R_s = F_s - B(Y_s) (A^-1 Z)_s / h */
        for (int s = 0; s < 3; s++) {
            double *Fs = F + (size_t)s * n;
            for (int i = 0; i < n; i++)
                w->ys[i] = r->y[i] + Z[s * n + i];
            if ((rc = integ_rhs(r, t + r5_c[s] * h, w->ys, Fs)) != 0)
                return rc;
            const double *mv = w->mv;
            if (w->dae && !a->mass_const) {
                if ((rc = r5_mass(r, t + r5_c[s] * h, w->ys, w->ms)) != 0)
                    return rc;
                mv = w->ms;
            }
            for (int j = 0; j < 3; j++)
                r5_addbx(r, w, mv, -w->ainv[3 * s + j] / h, Z + (size_t)j * n, Fs);
        }
        /* G = (T^-1 (x) I) R, then E1 G_1 and E2 [G_2; G_3] */
        for (int i = 0; i < n; i++) {
            double f1 = F[i], f2 = F[n + i], f3 = F[2 * n + i];
            for (int s = 0; s < 3; s++)
                G[s * n + i] = w->ti[3 * s] * f1 + w->ti[3 * s + 1] * f2 + w->ti[3 * s + 2] * f3;
        }
        if (sparse_lu_solve(&w->e1, G) != 0 || sparse_lu_solve(&w->e2, G + n) != 0)
            return integ_fail(r, JNT_ERR_SOLVER, t, "the Newton solve failed");
        ++*newt;
        r->st->newton_iters++;
        double dyno = r5_norm(w, 3, G);
        if (!isfinite(dyno)) {
            r->cause = INTEG_CAUSE_NEWTON, r->cause_index = 0, r->cause_t = t;
            return 1;
        }
        if (*newt > 1 && *newt < NIT) {
            double thq = dyno / dynold;
            w->theta = *newt == 2 ? thq : sqrt(thq * thqold);
            thqold = thq;
            if (w->theta >= 0.99)
                return 1;
            w->faccon = w->theta / (1.0 - w->theta);
            double dyth = w->faccon * dyno * pow(w->theta, NIT - 1 - *newt) / w->fnewt;
            if (dyth >= 1.0) {
                double qnewt = fmax(1e-4, fmin(20.0, dyth));
                *hfac = 0.8 * pow(qnewt, -1.0 / (4.0 + NIT - 1 - *newt));
                return 2;
            }
        }
        dynold = fmax(dyno, DBL_EPSILON);
        /* Z += (T (x) I) dW */
        for (int i = 0; i < n; i++) {
            double g1 = G[i], g2 = G[n + i], g3 = G[2 * n + i];
            for (int s = 0; s < 3; s++)
                Z[s * n + i] += r5_t[3 * s] * g1 + r5_t[3 * s + 1] * g2 + r5_t[3 * s + 2] * g3;
        }
        if (w->faccon * dyno <= w->fnewt)
            return 0;
    }
}

/* The error estimate (see the top) for step h. Returns 0 (*err set) or a
 * fatal status; 1 when the rhs failed. */
static int r5_error(integ_run *r, r5 *w, double h, int again, double *err)
{
    int n = w->n, rc;
    double *e = w->err, *bz = w->tmp, *zd = w->ys;
    for (int i = 0; i < n; i++)
        zd[i] = (r5_dd[0] * w->Z[i] + r5_dd[1] * w->Z[n + i] + r5_dd[2] * w->Z[2 * n + i]) / h;
    memset(bz, 0, (size_t)n * sizeof *bz);
    r5_addbx(r, w, w->mv, 1.0, zd, bz);
    for (int i = 0; i < n; i++)
        e[i] = r->f[i] + bz[i];
    if (sparse_lu_solve(&w->e1, e) != 0)
        return integ_fail(r, JNT_ERR_SOLVER, r->t, "the error estimate's solve failed");
    *err = fmax(r5_norm(w, 1, e), 1e-10);
    if (*err < 1.0 || !again)
        return 0;
    /* a first or rejected step: once more from f(t, y + err) */
    for (int i = 0; i < n; i++)
        zd[i] = r->y[i] + e[i];
    if ((rc = integ_rhs(r, r->t, zd, e)) != 0)
        return rc;
    for (int i = 0; i < n; i++)
        e[i] += bz[i];
    if (sparse_lu_solve(&w->e1, e) != 0)
        return integ_fail(r, JNT_ERR_SOLVER, r->t, "the error estimate's solve failed");
    *err = fmax(r5_norm(w, 1, e), 1e-10);
    return 0;
}

/* After an accepted step: y_new, f_new, the collocation polynomial. */
static int r5_accept(integ_run *r, r5 *w, double h)
{
    int n = w->n;
    const double *Z1 = w->Z, *Z2 = Z1 + n, *Z3 = Z2 + n;
    double c1 = r5_c[0], c2 = r5_c[1], c1m1 = c1 - 1.0, c2m1 = c2 - 1.0, c1mc2 = c1 - c2;
    double *k1 = w->cont, *k2 = k1 + n, *k3 = k2 + n;
    for (int i = 0; i < n; i++) {
        r->y_new[i] = r->y[i] + Z3[i];
        k1[i] = (Z2[i] - Z3[i]) / c2m1;
        double ak = (Z1[i] - Z2[i]) / c1mc2, ac3 = (ak - Z1[i] / c1) / c2;
        k2[i] = (ak - k1[i]) / c1m1;
        k3[i] = k2[i] - ac3;
    }
    r->t_new = r->t + h;
    if (fabs(r->t_new - r->s.t_end) <= 1e-12 * fabs(h))
        r->t_new = r->s.t_end;
    int rc = integ_rhs(r, r->t_new, r->y_new, r->f_new);
    if (rc == 1)
        return integ_fail_cause(r, JNT_ERR_KERNEL, r->t_new,
                                "the rhs kernel failed at the end of a step");
    if (rc != 0)
        return rc;
    if (w->dae) {
        double c = r->st->cons_max;
        for (int k = 0; k < w->nc; k++)
            c = fmax(c, fabs(r->f_new[2 * w->nq + w->nz + k]));
        r->st->cons_max = c;
        /* the statistic: C_q v + C_t at the step end (not imposed; the
         * method meets it to its order) */
        if ((rc = integ_cons_rates(r, r->t_new, r->y_new, w->cr)) != 0)
            return integ_fail(r, JNT_ERR_KERNEL, r->t_new, "the constraint-rates kernel "
                              "failed (status %d)", rc);
        double g = r->st->vcons_max;
        for (int k = 0; k < w->nc; k++)
            g = fmax(g, fabs(w->cr[2 * w->nc + k]));
        r->st->vcons_max = g;
    }
    return 0;
}

static int r5_step(integ_run *r)
{
    const jnt_abi_model *a = r->abi;
    r5 *w = r->mem;
    double t = r->t, h = r5_next_h(r, w), hfac = 1.0, err = 0.0;
    int reject = 0, caljac = 0, fails = 0, rc, newt = 0;
    for (;;) {
        if (h < integ_h_min(r, t))
            return integ_fail(r, JNT_ERR_HMIN, t, "the step fell below h_min = %g s",
                              integ_h_min(r, t));
        /* J (and M) at the step start unless kept, then E1, E2 for h */
        if (!w->have_j) {
            rc = integ_jac_dense(r, t, r->y, r->f, w->J, w->tmp);
            if (rc == 1)
                return integ_fail_cause(r, JNT_ERR_KERNEL, t, "the jacobian kernel failed");
            if (rc != 0)
                return rc;
            if (w->dae && (rc = r5_mass(r, t, r->y, w->mv)) != 0)
                return rc;
            w->have_j = caljac = 1;
            w->fact_h = 0.0;
        }
        if (w->fact_h != h) {
            rc = r5_factor(r, w, h);
            if (rc < 0)
                return rc;
        } else {
            rc = 0;
        }
        r5_scale(r, w, h);
        if (rc == 0)
            rc = r5_newton(r, w, h, &newt, &hfac);
        if (rc < 0)
            return rc;
        if (rc > 0) {
            /* Newton failed (1) or too slow (2): a smaller h, a new J if old */
            r->st->rejected++;
            if (++fails > MAX_FAILS)
                return integ_fail_cause(r, JNT_ERR_NEWTON, t, "newton iteration did not "
                                        "converge after 40 step reductions");
            h *= rc == 2 ? hfac : 0.5;
            reject = 1, w->startn = 1;
            if (!caljac)
                w->have_j = 0;
            continue;
        }
        if ((rc = r5_error(r, w, h, w->first || reject, &err)) < 0)
            return rc;
        if (rc > 0) {
            r->st->rejected++;
            h *= 0.5, reject = 1, w->startn = 1;
            continue;
        }
        double fac = fmin(SAFE, SAFE * (1 + 2 * NIT) / (newt + 2 * NIT));
        double quot = fmax(FACR, fmin(FACL, pow(err, 0.25) / fac)), hnew = h / quot;
        if (err < 1.0)
            break;
        /* rejected: the error's step (a tenth at the first step) */
        r->st->rejected++;
        reject = 1;
        if (w->first)
            h *= 0.1;
        else
            h = hnew;
        if (!caljac)
            w->have_j = 0;
    }
    /* accepted: Gustafsson's predictive controller for the next h */
    double fac = fmin(SAFE, SAFE * (1 + 2 * NIT) / (newt + 2 * NIT));
    double quot = fmax(FACR, fmin(FACL, pow(err, 0.25) / fac));
    if (w->naccpt > 0) {
        double facgus = (w->hacc / h) * pow(err * err / w->erracc, 0.25) / SAFE;
        quot = fmax(quot, fmax(FACR, fmin(FACL, facgus)));
    }
    w->naccpt++;
    w->hacc = h, w->erracc = fmax(1e-2, err);
    double hnew = h / quot;
    if (r->s.h_max > 0)
        hnew = fmin(hnew, r->s.h_max);
    if (reject)
        hnew = fmin(hnew, h);
    if ((rc = r5_accept(r, w, h)) != 0)
        return rc;
    w->first = w->startn = 0;
    w->hold = h;
    /* keep the factorisation when h would grow only a little and Newton
     * was fast; keep J when Newton was fast */
    double qt = hnew / h;
    w->h = w->theta <= THET && qt >= QUOT1 && qt <= QUOT2 ? h : hnew;
    w->have_j = w->theta <= THET;
    (void)a;
    return 0;
}

/* The collocation polynomial of the last step (RADAU5's CONTR5). */
static int r5_interp(integ_run *r, double t, double *yout)
{
    const r5 *w = r->mem;
    int n = w->n;
    double s = (t - r->t_new) / (r->t_new - r->t), c1m1 = r5_c[0] - 1.0, c2m1 = r5_c[1] - 1.0;
    const double *k1 = w->cont, *k2 = k1 + n, *k3 = k2 + n;
    for (int i = 0; i < n; i++)
        yout[i] = r->y_new[i] + s * (k1[i] + (s - c2m1) * (k2[i] + (s - c1m1) * k3[i]));
    return 0;
}

/* The discrete state changed at r->t (r->f recomputed): start Newton from
 * zero and evaluate J again. */
static int r5_reset(integ_run *r)
{
    r5 *w = r->mem;
    w->startn = 1;
    w->have_j = 0;
    return 0;
}

const integ_type integ_radau5 = {
    .name = "radau5",
    .fixed_step = 0,
    .keeps_f = 1,
    .work = r5_work,
    .start = r5_start,
    .step = r5_step,
    .interp = r5_interp,
    .reset = r5_reset,
    .stop = r5_stop,
    .check = r5_check,
};
