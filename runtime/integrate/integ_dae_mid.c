/*
 * integ_dae_mid.c: "midpoint" on multibody models, the implicit midpoint
 * rule in the energy-momentum form of Gonzalez (Physica D 132 (1999)) and
 * Betsch & Steinmann (Comput. Methods Appl. Mech. Engrg. 191 (2001)): their
 * schemes where the constraints are at most quadratic (their discrete
 * gradient of C is then C_q at the midpoint), on the index-3 DAE
 *   M(q) q'' = F = Q(t, q, v, z, lambda) - C_q^T lambda,  C(q, t) = 0,  z' = f_z
 * of abi.h, with a fixed step h (settings.h). A step from (q0, v0, z0) solves
 * for v1, z1 and one multiplier lambda held over the step:
 *   q1 = q0 + h (v0 + v1)/2,   y_m = [(q0 + q1)/2, (v0 + v1)/2, (z0 + z1)/2, lambda],
 *   M(q_m) (v1 - v0)/h = F_v(t0 + h/2, y_m)                         (1)
 *   (z1 - z0)/h       = F_z(t0 + h/2, y_m)                           (2)
 *   (2/h) C(q1, t0 + h) = 0                                          (3)
 * and stores [q1, v1, z1, lambda] at t0 + h. Order 2 in q and v; lambda is
 * the multiplier of the step (its value near t0 + h/2, O(h) from
 * lambda(t0 + h)), C holds at every step end, C_q v + C_t is not imposed
 * (O(h^2), reported as vcons_max).
 *
 * Why this form: with M constant, Q = -grad V for V at most quadratic in q
 * and C at most quadratic in q (and independent of t), grad V(q_m) . (q1 -
 * q0) = V(q1) - V(q0) and C_q(q_m) (q1 - q0) = C(q1) - C(q0) = 0 exactly, so
 * (1) times (v0 + v1)/2 gives T(v1) + V(q1) = T(v0) + V(q0): the
 * constraint forces do no work and the energy is kept to rounding (and
 * Newton's tolerance). The midpoint rule keeps every quadratic invariant,
 * so the angular momentum too when the forces and constraints are
 * invariant under rotations. Contact laws in the energy-consistent form
 * (stdlib/contact.jnt, penalty_ec) do exact work over a step.
 *
 * Newton on x = [v1 (nq), z1 (nz), lambda (nc)], the unknowns and rows of
 * integ.h's index-3 layout (integ_dae_alloc with stab = 0): with
 * dq_m/dv1 = h/4, dv_m/dv1 = 1/2, dz_m/dz1 = 1/2 and dq1/dv1 = h/2, the
 * Newton matrix is (J the rhs Jacobian at (t0 + h/2, y_m))
 *   [M/h - h/4 J_vq - 1/2 J_vv,   -1/2 J_vz,         -J_vl]
 *   [     -h/4 J_zq - 1/2 J_zv,   I/h - 1/2 J_zz,    -J_zl]
 *   [C_q(q_m)                 ,   0,                 0    ]
 * (J_vl = -C_q^T + Q_lambda). Row (3) is scaled by 2/h so that the matrix
 * tends to [M/h, C_q^T; C_q, 0] = D [M, C_q^T; C_q, 0] D, D = diag(h^-1/2,
 * h^1/2), as h -> 0: regular for C_q of full rank, and well scaled for the
 * pivoting LU. Left out (modified Newton): (M(q) (v1 - v0)/h)_q h/4 (zero
 * for constant M) and C_q(q1) - C_q(q_m) in the rows of (3) (O(h)). The
 * matrix is kept across iterations and steps while Newton contracts by
 * THETA_SLOW or faster, formed again at the current iterate when slower,
 * and once more before a failed step is halved (at most NEWTON_HALVINGS
 * times, each counted as rejected). Each iterate evaluates the rhs twice:
 * at y_m for (1), (2), and at the step end for C(q1). Newton stops when
 * the error left in v1 and z1, theta/(1 - theta) times the last
 * correction, is below VZ_TOL (plus the rounding of C(q1) over h/2) or
 * stalls near it, C(q1) is below CONS_TOL, and lambda's corrections are
 * below LAM_TOL or stall at the rounding of C over h^2; the residual of
 * that last evaluation gives one more correction (a solve). The energy
 * identity holds to what Newton leaves, so the tolerances are near
 * rounding. The predictor is the quadratic through the last
 * three steps' unknowns (the first: v0 + h q''_0, z0 + h z'_0, lambda_0 from
 * the consistent initial conditions, integ_dae_consistent).
 *
 * Between step ends: q by the cubic Hermite on (q, v), v, z and lambda
 * linearly.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "integ.h"

#define NEWTON_MAXIT 10
#define NEWTON_HALVINGS 10
#define THETA_SLOW 0.05 /* a contraction slower than this: form the matrix again */
#define VZ_TOL 1e-14    /* v1 and z1 corrections below this (1 + |x_i|) ... */
#define VZ_STALL 100.0  /* ... or below VZ_STALL times that and no longer
                           contracting (theta > 1/2: rounding) */
#define LAM_TOL 1e-8    /* lambda's below this (1 + its largest), unless rounding
                           stalls them (their floor: eps (1 + |q|)/h^2 through the
                           matrix, the rounding of C in the rows of (3)) */
#define CONS_TOL 1e-12  /* converged when |C(q1)| < CONS_TOL (1 + |q1|) */
#define V_FLOOR 16.0    /* v1's corrections stall at the rounding of C(q1) (eps |q|)
                           over h/2: V_FLOOR eps (1 + |q|) / h added to its tolerance */

/* fmax without the libm call (its NaN rule: the other operand). */
static inline double dmax(double a, double b)
{
    return a >= b || b != b ? a : b;
}

/* The method's state: the index-3 Newton matrix and vectors of integ.h
 * (x, dx, yt = y_m, f1 = f(y_m), fn = f(y1), cr; xa, xb, ha: the last two
 * steps' unknowns and the last step), and the step before for the
 * predictor. */
typedef struct mid {
    integ_dae *w;
    double *xc;  /* the unknowns of the step before xb's (N) */
    double hb;   /* the step from xc's to xb's */
    double *own; /* the block xc came from (xa, xb and xc rotate) */
} mid;

static void mid_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)ny, (void)nnz;
    *nw = 0;
    *ni = 0;
}

/* Allocate the index-3 Newton matrix and start from consistent initial
 * conditions. The history makes the first predictor v0 + h q''_0, z0 +
 * h z'_0, lambda_0: xa the unknowns at t0, xb = xa - rates (1 s back), xc
 * = xb - rates. */
static int mid_start(integ_run *r)
{
    mid *md = calloc(1, sizeof *md);
    integ_dae *w = calloc(1, sizeof *w);
    if (!md || !w) {
        free(md), free(w);
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting the DAE integrator");
    }
    r->mem = md;
    md->w = w;
    w->stab = 0;
    int rc = integ_dae_alloc(r, w);
    if (rc == 0)
        rc = integ_dae_consistent(r, w);
    if (rc != 0)
        return rc;
    int nq = w->nq, nz = w->nz, N = w->N;
    md->xc = md->own = malloc((size_t)N * sizeof *md->xc + 1);
    if (!md->xc)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting the DAE integrator");
    memcpy(w->xa, r->y + nq, (size_t)N * sizeof *w->xa);
    memcpy(w->xb, w->xa, (size_t)N * sizeof *w->xb);
    for (int i = 0; i < nq; i++)
        w->xb[i] -= w->qdd[i];
    for (int j = 0; j < nz; j++)
        w->xb[nq + j] -= w->fn[2 * nq + j];
    for (int i = 0; i < N; i++)
        md->xc[i] = 2.0 * w->xb[i] - w->xa[i];
    w->ha = md->hb = 1.0;
    return 0;
}

static void mid_stop(integ_run *r)
{
    mid *md = r->mem;
    if (md) {
        integ_dae_free(md->w);
        free(md->own);
        free(md);
    }
    r->mem = NULL;
}

/* From the unknowns x: the step end y1 = [q1, v1, z1, lambda] into
 * r->y_new and the midpoint state y_m into w->yt. */
static void mid_state(integ_run *r, integ_dae *w, double h)
{
    int nq = w->nq, nz = w->nz, nc = w->nc;
    const double *y0 = r->y, *x = w->x;
    double *y1 = r->y_new, *ym = w->yt;
    for (int i = 0; i < nq; i++) {
        double q1 = y0[i] + 0.5 * h * (y0[nq + i] + x[i]);
        y1[i] = q1;
        y1[nq + i] = x[i];
        ym[i] = 0.5 * (y0[i] + q1);
        ym[nq + i] = 0.5 * (y0[nq + i] + x[i]);
    }
    for (int j = 0; j < nz; j++) {
        y1[2 * nq + j] = x[nq + j];
        ym[2 * nq + j] = 0.5 * (y0[2 * nq + j] + x[nq + j]);
    }
    memcpy(y1 + 2 * nq + nz, x + nq + nz, (size_t)nc * sizeof *x);
    memcpy(ym + 2 * nq + nz, x + nq + nz, (size_t)nc * sizeof *x);
}

/* The predictor: the quadratic through the last three steps' unknowns
 * (Newton's divided differences), at h past the last. */
static void mid_predict(const mid *md, double h)
{
    const integ_dae *w = md->w;
    double ha = w->ha, hb = md->hb;
    for (int i = 0; i < w->N; i++) {
        double d1 = (w->xa[i] - w->xb[i]) / ha, d0 = (w->xb[i] - md->xc[i]) / hb;
        w->x[i] = w->xa[i] + h * d1 + h * (h + ha) * (d1 - d0) / (ha + hb);
    }
}

/* The state of Newton unknown j: v, z or lambda. */
static int mid_state_of(const integ_dae *w, int j)
{
    return j + w->nq;
}

/* Newton for the step r->t -> t1 from the predictor. Returns 0 (r->y_new
 * holds y1, w->fn the rhs there, *cmax its |C|), 1 (no convergence, or a
 * recoverable kernel failure: cause recorded) or a fatal status. */
static int mid_newton(integ_run *r, mid *md, double t1, double *cmax)
{
    integ_dae *w = md->w;
    const jnt_abi_model *a = r->abi;
    const jnt_model *mp = r->data->m;
    int nq = w->nq, nz = w->nz, N = w->N, c0 = nq + nz;
    double h = t1 - r->t, tm = r->t + 0.5 * h;
    /* the matrix of the top of the file: v1's columns M/h, -h/4 J(:, q) -
     * 1/2 J(:, v) in the rows of v and z, C_q in the rows of (3); z1's I/h -
     * 1/2 J(:, z); lambda's -J(:, lambda) */
    const integ_dae_coef cf = {.m = 1.0 / h, .iz = 1.0 / h, .kq = {-0.25 * h, -0.25 * h, 1.0},
                               .kv = {-0.5, -0.5, 0.0}, .kz = {-0.5, -0.5, 0.0},
                               .kl = {-1.0, -1.0, 0.0}};
    const double *y0 = r->y;
    double *x = w->x, *d = w->dx, *fm = w->f1, *f1 = w->fn, *y1 = r->y_new;
    mid_predict(md, h);
    /* est: the error left in v1 and z1 after the last correction, in units
     * of VZ_TOL (1 + |x|): theta/(1 - theta) times that correction once
     * theta is known (Hairer & Wanner II, eq. IV.8.10), else the correction
     * itself; lam and lam_est the same for lambda */
    double corr = INFINITY, est = INFINITY, lam = INFINITY, lam_est = INFINITY, lam_rate = 0.0;
    double prev = 0.0;
    int refresh = 0, worst = nq, rc;
    for (int it = 0; it <= NEWTON_MAXIT; it++) {
        mid_state(r, w, h);
        if ((rc = integ_rhs(r, tm, w->yt, fm)) != 0)
            return rc;
        if ((rc = integ_rhs(r, t1, y1, f1)) != 0)
            return rc;
        if (!a->mass_const && (rc = integ_dae_mass(r, w, tm, w->yt)) != 0)
            return rc;
        double qmax = 0.0;
        for (int i = 0; i < nq; i++)
            qmax = dmax(qmax, fabs(y1[i]));
        double vfloor = V_FLOOR * DBL_EPSILON * (1.0 + qmax) / h;
        *cmax = integ_dae_cmax(w, f1);
        /* residual: M(q_m) (v1 - v0)/h - F_v(y_m) (1); (z1 - z0)/h - F_z(y_m)
         * (2); (2/h) C(q1, t1) (3) */
        memset(d, 0, (size_t)nq * sizeof *d);
        for (int j = 0; j < nq; j++) {
            double dv = (x[j] - y0[nq + j]) / h;
            for (int k = mp->mcolptr[j]; k < mp->mcolptr[j + 1]; k++)
                d[mp->mrowind[k]] += w->mv[k] * dv;
        }
        for (int i = 0; i < nq; i++)
            d[i] -= fm[nq + i];
        for (int j = 0; j < nz; j++)
            d[nq + j] = (x[nq + j] - y0[2 * nq + j]) / h - fm[2 * nq + j];
        for (int k = c0; k < N; k++)
            d[k] = 2.0 / h * f1[nq + k];
        /* converged: v1, z1 and C(q1), and lambda unless its corrections
         * stall at rounding; then one more correction from this residual
         * (a solve, no evaluation) leaves theta times less error. The
         * error left keeps its sign from step to step and so drifts the
         * energy (heavy top, 100 spin revolutions: 5e-10 with VZ_TOL 1e-12
         * and no last correction, 1.2e-11 with both) */
        if (est <= 1.0 && *cmax <= CONS_TOL * (1.0 + qmax) && (lam_est <= 1.0 || lam_rate > 0.5)) {
            r->st->newton_iters++;
            if (sparse_lu_solve(&w->lu, d) != 0)
                return integ_fail(r, JNT_ERR_SOLVER, r->t, "the Newton solve failed");
            for (int i = 0; i < N; i++)
                x[i] -= d[i];
            mid_state(r, w, h);
            return 0;
        }
        if (it == NEWTON_MAXIT)
            break;
        /* the matrix: for this h, formed again at this iterate when slow */
        if (refresh || w->fact_h == 0.0 || fabs(h - w->fact_h) > 1e-9 * h) {
            if ((rc = integ_dae_refactor(r, w, &cf, tm, h, mid_state_of)) != 0)
                return rc;
            refresh = 0;
            prev = 0.0;
        }
        r->st->newton_iters++;
        if (sparse_lu_solve(&w->lu, d) != 0)
            return integ_fail(r, JNT_ERR_SOLVER, r->t, "the Newton solve failed");
        /* the corrections of v1 and z1 against the tolerance, lambda's
         * against its size */
        double xl = 0.0, dl = 0.0;
        for (int i = c0; i < N; i++)
            xl = dmax(xl, fabs(x[i])), dl = dmax(dl, fabs(d[i]));
        double lam1 = dl / (LAM_TOL * (1.0 + xl));
        lam_rate = lam1 / lam, lam = lam1;
        lam_est = lam_rate < 1.0 ? lam * lam_rate / (1.0 - lam_rate) : lam;
        corr = 0.0;
        for (int i = 0; i < N; i++) {
            x[i] -= d[i];
            if (i < c0) {
                double e = fabs(d[i]) / (VZ_TOL * (1.0 + fabs(x[i])) + (i < nq ? vfloor : 0.0));
                if (!(e <= corr))
                    corr = e, worst = i + nq;
            }
        }
        if (!isfinite(corr) || !isfinite(lam))
            return integ_newton_failed(r, worst);
        /* the contraction theta, unless the correction is at the tolerance
         * already (there theta measures rounding) */
        est = corr;
        if (prev > 0.0 && corr > 1.0) {
            double theta = corr / prev;
            if (theta > 0.5 && corr <= VZ_STALL) {
                est = 1.0;
            } else {
                if (theta >= 1.0 && w->fresh)
                    return integ_newton_failed(r, worst);
                if (theta > THETA_SLOW && !w->fresh)
                    refresh = 1;
                if (theta < 1.0)
                    est = theta / (1.0 - theta) * corr;
            }
        }
        prev = corr;
    }
    return integ_newton_failed(r, worst);
}

/* One step of settings.h (the last one to t_end), halved on failure. */
static int mid_step(integ_run *r)
{
    mid *md = r->mem;
    integ_dae *w = md->w;
    double t = r->t, hs = r->s.h_max > 0 ? fmin(r->s.h, r->s.h_max) : r->s.h;
    double t_full = integ_capped_end(r, hs), t1 = t_full, cmax = 0.0;
    int rc;
    for (int halvings = 0, retried = 0;;) {
        w->fresh = 0;
        rc = mid_newton(r, md, t1, &cmax);
        if (rc < 0)
            return rc;
        if (rc == 0)
            break;
        if (!w->fresh && !retried) {
            /* an old matrix first: form it again here and retry this step */
            w->fact_h = 0.0;
            retried = 1;
            continue;
        }
        r->st->rejected++;
        if (halvings++ == NEWTON_HALVINGS)
            return integ_fail_cause(r, JNT_ERR_NEWTON, t, "newton iteration did not converge "
                                    "after 10 step halvings");
        t1 = t + 0.5 * (t1 - t);
        retried = 0;
        if (t1 - t < integ_h_min(r, t))
            return integ_fail(r, JNT_ERR_HMIN, t, "the step fell below h_min = %g s",
                              integ_h_min(r, t));
    }
    r->t_new = t1;
    /* the statistics: |C| and the velocities' distance from C_q v + C_t = 0
     * (not imposed: O(h^2)) at the step end */
    if ((rc = integ_cons_rates(r, t1, r->y_new, w->cr)) != 0)
        return integ_fail(r, JNT_ERR_KERNEL, t1, "the constraint-rates kernel failed "
                          "(status %d)", rc);
    double g = 0.0;
    for (int k = 0; k < w->nc; k++)
        g = dmax(g, fabs(w->cr[2 * w->nc + k]));
    r->st->cons_max = dmax(r->st->cons_max, cmax);
    r->st->vcons_max = dmax(r->st->vcons_max, g);
    /* the predictor's history moves back by one step */
    double *tmp = md->xc;
    md->xc = w->xb, w->xb = w->xa, w->xa = tmp;
    memcpy(w->xa, w->x, (size_t)w->N * sizeof *w->x);
    md->hb = w->ha;
    w->ha = t1 - t;
    return 0;
}

/* See the top: Hermite on (q, v), the rest linear. */
static int mid_interp(integ_run *r, double t, double *yout)
{
    const integ_dae *w = ((const mid *)r->mem)->w;
    int nq = w->nq, ny = r->abi->ny;
    double th = (t - r->t) / (r->t_new - r->t), u = 1.0 - th;
    const double *y0 = r->y, *y1 = r->y_new;
    integ_hermite_rows(r, t, nq, y0, y0 + nq, y1, y1 + nq, yout);
    for (int i = nq; i < ny; i++)
        yout[i] = u * y0[i] + th * y1[i];
    return 0;
}

const integ_type integ_dae_midpoint = {
    .name = "midpoint",
    .fixed_step = 1,
    .keeps_f = 0,
    .work = mid_work,
    .start = mid_start,
    .step = mid_step,
    .interp = mid_interp,
    .reset = NULL,
    .stop = mid_stop,
    .check = NULL,
};
