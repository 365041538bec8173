/*
 * integ_irk.c: the implicit Runge-Kutta core: one fixed step of an
 * implicit Runge-Kutta method by simplified Newton (shared by radau,
 * trapezoidal and midpoint).
 *
 * Stages Z_i = Y_i - y_n solve (HNW II, Sec. IV.8, eq. 8.2, with an explicit
 * term for methods whose first stage is y_n itself)
 *     Z_i = h (e_i f(t_n, y_n) + sum_j a_ij f(t_n + c_j h, y_n + Z_j)),
 * iterated with the matrix M = I - h (A (x) J), J = df/dy. Convergence is
 * judged on the rate theta as in HNW II, eq. IV.8.10. On failure the step
 * is halved (at most 10 times); y_{n+1} = y_n + Z_s (stiffly accurate
 * methods).
 *
 * Modified Newton across steps (as radau5 and CVODE do): J and the
 * factorisation of M are kept from step to step while Newton contracts
 * fast (theta <= JAC_KEEP_THETA); a slow or failed iteration with an old J
 * evaluates J again at the step start before the step is halved.
 * M, J and their factorisation: integ_linsys.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "integ.h"

#define NEWTON_MAXIT 10
#define NEWTON_HALVINGS 10
#define NEWTON_KAPPA 1e-3 /* converged when the estimated error < KAPPA * tolerance */

/* See integ.h: Z, F, R (sn each), a stage state (n). */
void integ_irk_work(const integ_irk *k, int ny, size_t *nw, size_t *ni)
{
    size_t N = (size_t)k->s * ny;
    *nw = 3 * N + (size_t)ny;
    *ni = 0;
}

/* Tolerances of the Newton test: the run's, or defaults for fixed-step
 * runs that set none. */
static void newton_tols(const integ_run *r, double *rt, double *at)
{
    *rt = r->s.rtol > 0 ? r->s.rtol : 1e-6;
    *at = r->s.atol > 0 ? r->s.atol : 1e-9;
}

/* Scaled RMS norm of the stage correction R (s blocks of n) and the state
 * with the largest scaled entry. */
static double newton_norm(const integ_run *r, int s, const double *R, int *worst)
{
    int n = r->abi->ny;
    double rt, at, sum = 0.0, big = -1.0;
    newton_tols(r, &rt, &at);
    for (int b = 0; b < s; b++) {
        for (int i = 0; i < n; i++) {
            double q = fabs(R[(size_t)b * n + i]) / (at + rt * fabs(r->y[i]));
            if (!(q <= big)) {
                big = q;
                *worst = i;
            }
            sum += q * q;
        }
    }
    return n > 0 ? sqrt(sum / ((double)s * n)) : 0.0;
}

/* Record a Newton failure at the step start, naming the worst state. */
static int newton_diverged(integ_run *r, int worst)
{
    r->cause = INTEG_CAUSE_NEWTON;
    r->cause_index = worst;
    r->cause_t = r->t;
    return 1;
}

/* Newton iteration for the stages with step h and the factorised M.
 * Returns 0 (converged, Z set, *theta_max the slowest contraction seen),
 * 1 (not converged: cause recorded), or a fatal status. */
static int newton_solve(integ_run *r, integ_linsys *w, const integ_irk *k, double h, double *Z,
                        double *F, double *R, double *ys, double *theta_max)
{
    int n = r->abi->ny, s = k->s, N = s * n;
    double t = r->t;
    memset(Z, 0, (size_t)N * sizeof *Z);
    double prev = 0.0;
    int worst = 0;
    *theta_max = 0.0;
    for (int it = 0; it < NEWTON_MAXIT; it++) {
        r->st->newton_iters++;
        for (int j = 0; j < s; j++) {
            for (int i = 0; i < n; i++)
                ys[i] = r->y[i] + Z[j * n + i];
            int rc = integ_rhs(r, t + k->c[j] * h, ys, F + (size_t)j * n);
            if (rc != 0)
                return rc;
        }
        /* residual R_i = h (e_i f0 + sum_j a_ij F_j) - Z_i, then M dZ = R */
        for (int bi = 0; bi < s; bi++) {
            for (int i = 0; i < n; i++) {
                double acc = k->e[bi] * r->f[i];
                for (int j = 0; j < s; j++)
                    acc += k->a[bi * s + j] * F[j * n + i];
                R[bi * n + i] = h * acc - Z[bi * n + i];
            }
        }
        if (integ_linsys_solve(w, R) != 0)
            return integ_fail(r, JNT_ERR_SOLVER, t, "the Newton solve failed");
        for (int i = 0; i < N; i++)
            Z[i] += R[i];
        double nrm = newton_norm(r, s, R, &worst);
        if (!isfinite(nrm))
            return newton_diverged(r, worst);
        if (it == 0 && nrm <= 1e-5 * NEWTON_KAPPA)
            return 0;
        if (it > 0) {
            double theta = nrm / prev;
            *theta_max = fmax(*theta_max, theta);
            /* no contraction: diverged, unless already stalled in rounding */
            if (theta >= 1.0)
                return nrm <= NEWTON_KAPPA ? 0 : newton_diverged(r, worst);
            if (theta / (1.0 - theta) * nrm <= NEWTON_KAPPA)
                return 0;
        }
        prev = nrm;
    }
    return newton_diverged(r, worst);
}

/* See integ.h. */
void integ_irk_stop(integ_run *r)
{
    integ_linsys_free(r->mem);
    r->mem = NULL;
}

/* See integ.h. */
int integ_irk_step(integ_run *r, const integ_irk *k)
{
    int n = r->abi->ny, s = k->s;
    size_t N = (size_t)s * n;
    double *Z = r->w, *F = Z + N, *R = F + N, *ys = R + N;
    double t = r->t, t_full = integ_fixed_end(r, r->s.h), h = t_full - t, theta = 0.0;
    int rc;
    if (!r->mem && (rc = integ_linsys_new(r, k, (integ_linsys **)&r->mem)) != 0)
        return rc;
    integ_linsys *w = r->mem;
    for (int halvings = 0, fresh = 0;;) {
        /* J at the step start unless kept, then M for this h */
        rc = integ_linsys_update(r, w, r->t, r->y, r->f, ys, fresh);
        if (rc == 1)
            return integ_fail_cause(r, JNT_ERR_KERNEL, t, "the jacobian kernel failed");
        if (rc == 0)
            rc = integ_linsys_factor(r, w, k, h);
        if (rc == 0)
            rc = newton_solve(r, w, k, h, Z, F, R, ys, &theta);
        if (rc == 0)
            break;
        if (rc < 0)
            return rc;
        /* an old J first: evaluate it again here and retry the same step */
        if (!integ_linsys_fresh(w)) {
            fresh = 1;
            continue;
        }
        r->st->rejected++;
        if (halvings++ == NEWTON_HALVINGS)
            return integ_fail_cause(r, JNT_ERR_NEWTON, t,
                                    "newton iteration did not converge after 10 step halvings");
        h *= 0.5;
    }
    integ_linsys_step_done(w, theta);
    r->t_new = h == t_full - t ? t_full : t + h;
    for (int i = 0; i < n; i++)
        r->y_new[i] = r->y[i] + Z[(size_t)(s - 1) * n + i];
    rc = integ_rhs(r, r->t_new, r->y_new, r->f_new);
    if (rc == 1)
        return integ_fail_cause(r, JNT_ERR_KERNEL, r->t_new,
                                "the rhs kernel failed at the end of a step");
    return rc;
}
