/*
 * integ_dae.c: the DAE methods of multibody models, HHT-alpha ("hht") and
 * generalized-alpha ("generalized_alpha"), on
 *   M(q) q'' = F = Q(t, q, v, z, lambda) - C_q^T lambda,  C(q, t) = 0,  z' = f_z
 * (abi.h; the Newton matrix and the initial conditions: integ_dae_init.c),
 * in the stabilised index-2 form of Gear, Gupta and Leimkuhler.
 *
 * Both are Newmark formulas in an acceleration-like a (HHT: a = q''):
 *   q_{n+1} = q_n + h v_n + h^2 ((1/2 - beta) a_n + beta a_{n+1}) + beta h^2 c_a C_q(q_n)^T mu
 *   v_{n+1} = v_n + h ((1 - gamma) a_n + gamma a_{n+1})
 * and z by z_{n+1} = z_n + h ((1 - gamma) z'_n + gamma z'_{n+1}).
 *   HHT (Negrut, Rampalli, Ottarsson, Sajdak 2007, eqs. 3, 17), alpha in
 *   [-1/3, 0], gamma = (1 - 2 alpha)/2, beta = (1 - alpha)^2/4:
 *     (1/(1 + alpha)) M q''_{n+1} - F_{n+1} + (alpha/(1 + alpha)) F_n = 0.
 *   Generalized-alpha (Arnold & Bruls 2007, eqs. 9-11), rho_inf in [0, 1]:
 *     alpha_m = (2 rho - 1)/(rho + 1), alpha_f = rho/(rho + 1),
 *     gamma = 1/2 + alpha_f - alpha_m, beta = (gamma + 1/2)^2/4,
 *     (1 - alpha_m) a_{n+1} + alpha_m a_n = (1 - alpha_f) q''_{n+1} + alpha_f q''_n,
 *     M q''_{n+1} - F_{n+1} = 0.
 * The step solves, besides these, both C(q_{n+1}, t_{n+1}) = 0 and
 *   C_q(q_{n+1}) v_{n+1} + C_t(q_{n+1}, t_{n+1}) = 0
 * with the extra multipliers mu (one per constraint row) that move q
 * normal to the constraints: the stabilised index-2 formulation of Arnold,
 * Bruls and Cardona (Numer. Math. 129 (2015), the multiplier nu of their
 * Delta q_n, here scaled by beta h^2 c_a so that mu has the units of q'').
 * In index 3 the multipliers' and the velocities' errors are not damped
 * when rho_inf = 1 or alpha = 0 (Newton diverged on the double pendulum);
 * here the velocities satisfy the velocity constraints and the multipliers
 * are determined at velocity level, for every rho_inf in [0, 1]. mu moves q
 * along C_q(q_n)^T, as in that paper: q_{n+1} is linear in mu with a matrix
 * fixed for the step, so mu's columns of the Newton matrix are exact, and
 * C_q(q_n) costs nothing (the Jacobian of the previous step's last
 * iterate). mu is O(h) (the Newmark positions' O(h^3) distance from the
 * constraints over beta h^2); its predictor is extrapolated as below.
 *
 * Newton works on q''_{n+1}, z_{n+1}, lambda_{n+1} and mu; the position
 * constraint rows are divided by beta h^2 c_a (c_a = d a_{n+1}/d q''_{n+1})
 * as Negrut et al. (Sect. 4.1) scale them, the velocity rows by gamma h c_a,
 * so that as h -> 0 the matrix tends to
 *   [wm M, C_q^T, 0;  C_q, 0, C_q C_q^T;  C_q, 0, 0]
 * (nonsingular for C_q of full rank) and stays well conditioned. Left out
 * of the matrix (modified Newton): (M(q) q'')_q, and the velocity rows'
 * (C_q v + C_t)_q beta h / gamma (O(h); no kernel gives it). The matrix is
 * kept across iterations and steps and formed again at the current iterate
 * when Newton contracts slowly. Each iterate evaluates the Jacobian (for
 * C_q at q_{n+1}) and the constraint rates (C_t). The predictor of q'',
 * lambda and mu extrapolates the last two steps linearly (one step: keeps
 * them); z's is z_n + h z'_n. JNT_DAE_INDEX=3 in the environment selects the
 * index-3 formulation (no mu, no velocity rows) for comparisons.
 *
 * Step: settings.h when rtol = 0; else adaptive on the local error of the
 * positions, err_coef h^2 (a_{n+1} - a_n) (Negrut et al. Sect. 4.3 for HHT:
 * (beta - 1/6); for generalized-alpha a = q''(t + (alpha_m - alpha_f) h),
 * which adds (alpha_m - alpha_f)/2), h scaled by 0.9 err^(-1/3) in
 * [0.2, 2], and by at most 1 after a rejection within the step (the car
 * pendulum's contact and friction: 35 % of the steps were rejected with
 * growth up to 5, 25 % now, 0.4x the CPU time with friction). Between step ends: q by the cubic Hermite on (q, v), v on
 * (v, q''), z and lambda linearly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "integ.h"

#define NEWTON_MAXIT 10
#define NEWTON_HALVINGS 10
#define THETA_SLOW 0.25   /* a contraction slower than this: form the matrix again */
#define NEWTON_KAPPA 1e-2 /* adaptive: corrections below KAPPA times the tolerances */
#define FIXED_TOL 1e-10   /* fixed step: corrections below this (1 + |y|) */
#define ACC_TOL 1e-8      /* q'' and lambda corrections below this (1 + their
                             largest; or KAPPA rtol if larger), unless rounding
                             stalls them */
#define CONS_TOL 1e-12    /* converged when |C| < CONS_TOL (1 + |q|) */
#define VCONS_TOL 1e-12   /* stab: and |C_q v + C_t| < VCONS_TOL (1 + |v|) */

/* fmax without the libm call (its NaN rule: the other operand), for the
 * Newton loops: about 8 % of a small model's run went to calls of fmax. */
static inline double dmax(double a, double b)
{
    return a >= b || b != b ? a : b;
}

static void dae_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)ny, (void)nnz;
    *nw = 0;
    *ni = 0;
}

/* Checks shared by both methods (run.c calls them instead of the generic
 * ones): a fixed step needs h > 0, an adaptive run atol > 0. */
static int dae_check_step(jnt_data *d, const jnt_settings *s, const char *name)
{
    if (!(s->rtol >= 0 && isfinite(s->rtol)))
        return data_error(d, JNT_ERR_PARAM, "integrator '%s' needs rtol >= 0 (got %g)", name,
                          s->rtol);
    if (s->rtol == 0 && !(s->h > 0 && isfinite(s->h)))
        return data_error(d, JNT_ERR_PARAM, "integrator '%s' with rtol = 0 takes fixed steps: "
                          "it needs a step h > 0 (got %g s)", name, s->h);
    if (s->rtol > 0 && !(s->atol > 0 && isfinite(s->atol)))
        return data_error(d, JNT_ERR_PARAM, "integrator '%s' needs atol > 0 (got %g)", name,
                          s->atol);
    if (!(s->h >= 0 && isfinite(s->h)))
        return data_error(d, JNT_ERR_PARAM, "the initial step must be >= 0 (got %g s)", s->h);
    return JNT_OK;
}

static int hht_check(jnt_data *d, const jnt_settings *s)
{
    if (!(s->alpha >= -1.0 / 3.0 && s->alpha <= 0.0))
        return data_error(d, JNT_ERR_PARAM, "integrator 'hht' needs alpha in [-1/3, 0] (got %g)",
                          s->alpha);
    return dae_check_step(d, s, "hht");
}

static int galpha_check(jnt_data *d, const jnt_settings *s)
{
    if (!(s->rho_inf >= 0.0 && s->rho_inf <= 1.0))
        return data_error(d, JNT_ERR_PARAM, "integrator 'generalized_alpha' needs rho_inf in "
                          "[0, 1] (got %g)", s->rho_inf);
    return dae_check_step(d, s, "generalized_alpha");
}

/* The method's constants (see the top of the file). */
static void dae_params(integ_dae *w, const jnt_settings *s, int hht)
{
    w->hht = hht;
    if (hht) {
        double al = s->alpha;
        w->alpha_m = 0.0, w->alpha_f = -al;
        w->gamma = (1.0 - 2.0 * al) / 2.0;
        w->beta = (1.0 - al) * (1.0 - al) / 4.0;
        w->ca = 1.0;
        w->wm = 1.0 / (1.0 + al), w->wf = al / (1.0 + al);
        w->err_coef = w->beta - 1.0 / 6.0;
    } else {
        double rho = s->rho_inf;
        w->alpha_m = (2.0 * rho - 1.0) / (rho + 1.0);
        w->alpha_f = rho / (rho + 1.0);
        w->gamma = 0.5 + w->alpha_f - w->alpha_m;
        w->beta = (w->gamma + 0.5) * (w->gamma + 0.5) / 4.0;
        w->ca = (1.0 - w->alpha_f) / (1.0 - w->alpha_m);
        w->wm = 1.0, w->wf = 0.0;
        w->err_coef = w->beta - 1.0 / 6.0 + (w->alpha_m - w->alpha_f) / 2.0;
    }
}

static int dae_start(integ_run *r, int hht)
{
    integ_dae *w = calloc(1, sizeof *w);
    r->mem = w;
    if (!w)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting the DAE integrator");
    dae_params(w, &r->s, hht);
    const char *env = getenv("JNT_DAE_INDEX");
    w->stab = !(env && strcmp(env, "3") == 0);
    int rc = integ_dae_alloc(r, w);
    if (rc == 0)
        rc = integ_dae_consistent(r, w);
    /* the first step's predictor: q''_0, lambda_0, mu = 0 */
    if (rc == 0) {
        memcpy(w->xa, w->qdd, (size_t)w->nq * sizeof *w->xa);
        memcpy(w->xa + w->nq + w->nz, r->y + 2 * w->nq + w->nz, (size_t)w->nc * sizeof *w->xa);
        w->nhist = 1;
    }
    double span = r->s.t_end - r->s.t0;
    w->h = r->s.h > 0 ? r->s.h : 1e-4 * span;
    if (r->s.h_max > 0)
        w->h = fmin(w->h, r->s.h_max);
    return rc;
}

static int hht_start(integ_run *r)
{
    return dae_start(r, 1);
}

static int galpha_start(integ_run *r)
{
    return dae_start(r, 0);
}

static void dae_stop(integ_run *r)
{
    integ_dae_free(r->mem);
    r->mem = NULL;
}

/* The last accepted step's end becomes the next step's start (with the
 * Jacobian of its last iterate, C_q(q_{n+1}) for the next mu). */
static void dae_advance(integ_dae *w)
{
    if (!w->swap)
        return;
    double *t;
    t = w->qdd, w->qdd = w->qdd1, w->qdd1 = t;
    t = w->a, w->a = w->a1, w->a1 = t;
    t = w->fn, w->fn = w->f1, w->f1 = t;
    if (w->stab)
        t = w->jn, w->jn = w->jv, w->jv = t;
    w->swap = 0;
}

/* The trial state yt at t + h from the unknowns x (and a1 from q''); stab:
 * q moved by beta h^2 c_a C_q(q_n)^T mu. */
static void dae_state(const integ_run *r, integ_dae *w, double h)
{
    int nq = w->nq;
    const double *y = r->y, *x = w->x;
    double b = w->beta, g = w->gamma, bh2 = b * h * h * w->ca;
    if (w->stab)
        integ_dae_cqt(w, w->jn, x + w->nx, w->dq);
    for (int i = 0; i < nq; i++) {
        double an = w->a[i], a1 = x[i];
        if (!w->hht)
            a1 = ((1.0 - w->alpha_f) * x[i] + w->alpha_f * w->qdd[i] - w->alpha_m * an) /
                 (1.0 - w->alpha_m);
        w->a1[i] = a1;
        w->qdd1[i] = x[i];
        w->yt[i] = y[i] + h * y[nq + i] + h * h * ((0.5 - b) * an + b * a1);
        if (w->stab)
            w->yt[i] += bh2 * w->dq[i];
        w->yt[nq + i] = y[nq + i] + h * ((1.0 - g) * an + g * a1);
    }
    memcpy(w->yt + 2 * nq, x + nq, (size_t)(w->nx - nq) * sizeof *x);
}

/* stab: the velocity constraints C_q v + C_t at (t, yt) into w->gv (from
 * cons_rates, without the Jacobian); *gmax their largest. Returns 0 or a
 * fatal status. */
static int dae_vcons(integ_run *r, integ_dae *w, double t, double *gmax)
{
    int rc = integ_cons_rates(r, t, w->yt, w->cr);
    if (rc != 0)
        return integ_fail(r, JNT_ERR_KERNEL, t, "the constraint-rates kernel failed "
                          "(status %d)", rc);
    *gmax = 0.0;
    for (int k = 0; k < w->nc; k++) {
        w->gv[k] = w->cr[2 * w->nc + k];
        *gmax = dmax(*gmax, fabs(w->gv[k]));
    }
    return 0;
}

/* The state of Newton unknown j: q'' stands for q, mu_k for constraint k's
 * multiplier. */
static int dae_state_of(const integ_dae *w, int j)
{
    return j < w->nq ? j : j < w->nx ? j + w->nq : j - w->nx + 2 * w->nq + w->nz;
}

/* Newton for the step t -> t + h from the predictor. Returns 0 (w->yt,
 * w->f1, q'' and a at t + h set; *cmax the final |C|, *gmax the final
 * |C_q v + C_t| when stab), 1 (no convergence: cause recorded) or a fatal
 * status. */
static int dae_newton(integ_run *r, integ_dae *w, double h, double *cmax, double *gmax)
{
    const jnt_abi_model *a = r->abi;
    const jnt_model *mp = r->data->m;
    int nq = w->nq, nz = w->nz, nx = w->nx, N = w->N, c0 = nq + nz;
    double t1 = r->t + h, g = w->gamma;
    double bh2 = w->beta * h * h * w->ca, gh = g * h * w->ca, sc = 1.0 / bh2, hg = h * g;
    /* stab: the velocity rows divided by gamma h c_a hold C_q on the
     * columns of q'' (their (C_q v + C_t)_q beta h / gamma is left out) */
    const integ_dae_coef cf = {.m = w->wm, .iz = 1.0, .kq = {-bh2, -hg * bh2, 1.0},
                               .kv = {-gh, -hg * gh, gh * sc}, .kz = {-1.0, -hg, sc},
                               .kl = {-1.0, -hg, sc}, .cv = 1.0, .ku = 1.0};
    double rt = FIXED_TOL, at = FIXED_TOL;
    if (r->s.rtol > 0)
        rt = NEWTON_KAPPA * r->s.rtol, at = NEWTON_KAPPA * r->s.atol;
    /* predictor: q'', lambda and mu extrapolated linearly from the last two
     * steps (constant from one), z_n + h z'_n */
    double *x = w->x, *d = w->dx, ex = w->nhist == 2 ? h / w->ha : 0.0;
    for (int i = 0; i < N; i++)
        x[i] = w->xa[i] + ex * (w->xa[i] - w->xb[i]);
    for (int j = 0; j < nz; j++)
        x[nq + j] = r->y[2 * nq + j] + h * w->fn[2 * nq + j];
    double ra = dmax(ACC_TOL, NEWTON_KAPPA * r->s.rtol);
    double corr = INFINITY, prev = 0.0, acc = INFINITY, acc_rate = 0.0;
    int refresh = 0, worst = 0, rc;
    for (int it = 0; it <= NEWTON_MAXIT; it++) {
        dae_state(r, w, h);
        if ((rc = integ_rhs(r, t1, w->yt, w->f1)) != 0)
            return rc;
        if (w->stab && (rc = dae_vcons(r, w, t1, gmax)) != 0)
            return rc;
        if (!a->mass_const && (rc = integ_dae_mass(r, w, t1, w->yt)) != 0)
            return rc;
        double qmax = 0.0, vmax = 0.0;
        for (int i = 0; i < nq; i++)
            qmax = dmax(qmax, fabs(w->yt[i])), vmax = dmax(vmax, fabs(w->yt[nq + i]));
        *cmax = integ_dae_cmax(w, w->f1);
        /* converged: q, v, z, C and C_q v + C_t, and q'', lambda and mu
         * unless their corrections stall at the rounding of C / (beta h^2) */
        if (corr <= 1.0 && *cmax <= CONS_TOL * (1.0 + qmax) &&
            (!w->stab || *gmax <= VCONS_TOL * (1.0 + vmax)) && (acc <= 1.0 || acc_rate > 0.5))
            return 0;
        if (it == NEWTON_MAXIT)
            break;
        /* residual: wm M q'' - F_{n+1} + wf F_n; z's Newmark rule;
         * C / (beta h^2 c_a); stab: (C_q v + C_t) / (gamma h c_a) */
        memset(d, 0, (size_t)nq * sizeof *d);
        for (int j = 0; j < nq; j++)
            for (int k = mp->mcolptr[j]; k < mp->mcolptr[j + 1]; k++)
                d[mp->mrowind[k]] += w->wm * w->mv[k] * x[j];
        for (int i = 0; i < nq; i++)
            d[i] += -w->f1[nq + i] + w->wf * w->fn[nq + i];
        for (int j = 0; j < nz; j++) {
            int s = 2 * nq + j;
            d[nq + j] = x[nq + j] - r->y[s] - h * ((1.0 - g) * w->fn[s] + g * w->f1[s]);
        }
        for (int k = 0; k < w->nc; k++)
            d[c0 + k] = sc * w->f1[nq + c0 + k];
        for (int k = 0; k < N - nx; k++)
            d[nx + k] = w->gv[k] / gh;
        /* the matrix: for this h, formed again at this iterate when slow */
        if (refresh || w->fact_h == 0.0 || fabs(h - w->fact_h) > 1e-9 * h) {
            if ((rc = integ_dae_refactor(r, w, &cf, t1, h, dae_state_of)) != 0)
                return rc;
            refresh = 0;
            prev = 0.0;
        }
        r->st->newton_iters++;
        if (sparse_lu_solve(&w->lu, d) != 0)
            return integ_fail(r, JNT_ERR_SOLVER, r->t, "the Newton solve failed");
        /* the correction as it moves q (q'' and mu), v and z, against the
         * tolerances; that of q'' and mu, and of lambda, against their size */
        double xq = 0.0, xl = 0.0, dq = 0.0, dl = 0.0;
        for (int i = 0; i < nq; i++)
            xq = dmax(xq, fabs(x[i])), dq = dmax(dq, fabs(d[i]));
        for (int i = nx; i < N; i++)
            xq = dmax(xq, fabs(x[i])), dq = dmax(dq, fabs(d[i]));
        for (int i = c0; i < nx; i++)
            xl = dmax(xl, fabs(x[i])), dl = dmax(dl, fabs(d[i]));
        double acc1 = dmax(dq / (ra * (1.0 + xq)), dl / (ra * (1.0 + xl)));
        acc_rate = acc1 / acc, acc = acc1;
        if (w->stab)
            integ_dae_cqt(w, w->jn, d + nx, w->dq);
        corr = 0.0;
        for (int i = 0; i < N; i++) {
            x[i] -= d[i];
            int s = i < nq ? i : i + nq;
            double e = 0.0;
            if (i < nq)
                e = dmax(bh2 * fabs(d[i] + (w->stab ? w->dq[i] : 0.0)) /
                             (at + rt * fabs(w->yt[i])),
                         gh * fabs(d[i]) / (at + rt * fabs(w->yt[nq + i])));
            else if (i < c0)
                e = fabs(d[i]) / (at + rt * fabs(w->yt[s]));
            if (!(e <= corr))
                corr = e, worst = s;
        }
        if (!isfinite(corr))
            return integ_newton_failed(r, worst);
        if (prev > 0.0) {
            double theta = corr / prev;
            if (theta >= 1.0 && w->fresh && corr > 1.0)
                return integ_newton_failed(r, worst);
            if (theta > THETA_SLOW && !w->fresh)
                refresh = 1;
        }
        prev = corr;
    }
    return integ_newton_failed(r, worst);
}

/* The local error of the positions (weighted RMS; accept when <= 1). */
static double dae_error(const integ_run *r, const integ_dae *w, double h)
{
    double s = 0.0;
    for (int i = 0; i < w->nq; i++) {
        double e = w->err_coef * h * h * (w->a1[i] - w->a[i]);
        double sc = r->s.atol + r->s.rtol * dmax(fabs(r->y[i]), fabs(w->yt[i]));
        s += (e / sc) * (e / sc);
    }
    return w->nq > 0 ? sqrt(s / w->nq) : 0.0;
}

/* The adaptive step from t: w->h within [h_min, h_max], not past t_end and
 * without leaving a sliver before it. */
static double dae_next_h(const integ_run *r, const integ_dae *w)
{
    double h = fmin(w->h, fmax(integ_step_proposal(r), integ_h_min(r, r->t)));
    double left = r->s.t_end - r->t;
    if (r->s.h_max > 0)
        h = fmin(h, r->s.h_max);
    if (h >= left * (1.0 - 1e-9))
        return left;
    if (2.0 * h > left)
        return 0.5 * left;
    return h;
}

static int dae_step(integ_run *r)
{
    integ_dae *w = r->mem;
    dae_advance(w);
    int adaptive = r->s.rtol > 0, rc;
    double t = r->t, hs = r->s.h_max > 0 ? fmin(r->s.h, r->s.h_max) : r->s.h;
    double t_full = adaptive ? 0.0 : integ_capped_end(r, hs);
    double h = adaptive ? dae_next_h(r, w) : t_full - t, cmax = 0.0, gmax = 0.0;
    for (int halvings = 0, retried = 0, failed = 0;;) {
        w->fresh = 0;
        rc = dae_newton(r, w, h, &cmax, &gmax);
        if (rc < 0)
            return rc;
        if (rc == 0 && !adaptive)
            break;
        if (rc == 0) {
            /* growth at most 2, none right after a rejection within this
             * step (Hairer, Norsett, Wanner I, Sect. II.4) */
            double err = dae_error(r, w, h);
            double fac = err > 0 ? 0.9 * pow(err, -1.0 / 3.0) : 5.0;
            w->h = h * fmin(failed ? 1.0 : 2.0, dmax(0.2, fac));
            if (err <= 1.0)
                break;
            r->st->rejected++;
            failed = 1;
            h = dae_next_h(r, w);
        } else if (!w->fresh && !retried) {
            /* an old matrix first: form it again here and retry this h */
            w->fact_h = 0.0;
            retried = 1;
            continue;
        } else {
            r->st->rejected++;
            if (halvings++ == NEWTON_HALVINGS)
                return integ_fail_cause(r, JNT_ERR_NEWTON, t, "newton iteration did not "
                                        "converge after 10 step halvings");
            h *= adaptive ? 0.25 : 0.5;
            w->h = h;
            failed = 1;
        }
        retried = 0;
        if (h < integ_h_min(r, t))
            return integ_fail(r, JNT_ERR_HMIN, t, "the step fell below h_min = %g s",
                              integ_h_min(r, t));
    }
    r->t_new = !adaptive && h == t_full - t ? t_full : t + h;
    /* stab: C_q(q_{n+1}) for the next step's mu (dae_advance swaps it in) */
    if (w->stab && (rc = integ_jac_sparse(r, t + h, w->yt, w->jv)) != 0)
        return rc < 0 ? rc : integ_fail_cause(r, JNT_ERR_KERNEL, t + h, "the Jacobian kernel "
                                              "failed at the end of a step");
    memcpy(r->y_new, w->yt, (size_t)r->abi->ny * sizeof *r->y_new);
    r->st->cons_max = dmax(r->st->cons_max, cmax);
    r->st->vcons_max = dmax(r->st->vcons_max, gmax);
    double *t2 = w->xb;
    w->xb = w->xa, w->xa = t2;
    memcpy(w->xa, w->x, (size_t)w->N * sizeof *w->x);
    w->ha = h;
    w->nhist = w->nhist < 2 ? w->nhist + 1 : 2;
    w->swap = 1;
    return 0;
}

/* See the top: Hermite on (q, v) and (v, q''), z and lambda linear. */
static int dae_interp(integ_run *r, double t, double *yout)
{
    const integ_dae *w = r->mem;
    int nq = w->nq, ny = r->abi->ny;
    double th = (t - r->t) / (r->t_new - r->t), u = 1.0 - th;
    const double *y0 = r->y, *y1 = r->y_new;
    integ_hermite_rows(r, t, nq, y0, y0 + nq, y1, y1 + nq, yout);
    integ_hermite_rows(r, t, nq, y0 + nq, w->qdd, y1 + nq, w->qdd1, yout + nq);
    for (int i = 2 * nq; i < ny; i++)
        yout[i] = u * y0[i] + th * y1[i];
    return 0;
}

/* The discrete state changed at r->t: F_n and z'_n again. */
static int dae_reset(integ_run *r)
{
    integ_dae *w = r->mem;
    dae_advance(w);
    w->nhist = w->nhist > 0 ? 1 : 0;
    int rc = integ_rhs(r, r->t, r->y, w->fn);
    if (rc == 1)
        return integ_fail_cause(r, JNT_ERR_KERNEL, r->t,
                                "the rhs kernel failed after a discrete update");
    return rc;
}

const integ_type integ_hht = {
    .name = "hht",
    .fixed_step = 0,
    .keeps_f = 0,
    .work = dae_work,
    .start = hht_start,
    .step = dae_step,
    .interp = dae_interp,
    .reset = dae_reset,
    .stop = dae_stop,
    .check = hht_check,
};

const integ_type integ_galpha = {
    .name = "generalized_alpha",
    .fixed_step = 0,
    .keeps_f = 0,
    .work = dae_work,
    .start = galpha_start,
    .step = dae_step,
    .interp = dae_interp,
    .reset = dae_reset,
    .stop = dae_stop,
    .check = galpha_check,
};
