/*
 * integ_drive.c: the integrator table and the driver shared by all methods:
 * output grid, interpolation between step ends, discrete updates, counters,
 * failure messages and the progress line (io/progress.c).
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io/csv.h"
#include "io/progress.h"
#include "core/data.h"
#include "core/err.h"
#include "couple/chain.h"
#include "core/eval.h"
#include "integ.h"
#include "core/model.h"

static const integ_type *const integ_table[] = {
    &integ_rk4, &integ_dopri5, &integ_bdf, &integ_radau, &integ_trap, &integ_midpoint,
    &integ_hht, &integ_galpha, &integ_radau5, &integ_ida,
};

/* See integ.h. */
const integ_type *integ_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof integ_table / sizeof integ_table[0]; i++)
        if (strcmp(integ_table[i]->name, name) == 0)
            return integ_table[i];
    return NULL;
}

/* Doubles the driver itself needs: y, y_new, f, f_new, interpolated y (ny
 * each), the old discrete state (nd) and the chains' scratch (the kernels'
 * scratch is the data's, eval.h). */
static size_t driver_work(const jnt_abi_model *a)
{
    return 5 * (size_t)a->ny + (size_t)a->nd + chain_work_size(a);
}

/* Bring the model's quasi-static chains to the loads at (t, y). */
static int update_chains(integ_run *r, double t, const double *y, int reset, double *cw)
{
    const char *why = "";
    const double *u = eval_gather(r->data->m, r->data, y);
    int c = chain_update(r->abi, t, y, u, r->d, r->p, reset, cw, r->st, &why);
    if (c != 0)
        return integ_fail(r, JNT_ERR_CHAIN, t, "chain '%s': %s", r->abi->chains[c - 1].name,
                          why);
    return 0;
}

/* See integ.h. */
void integ_arena_size(const integ_type *t, const jnt_abi_model *a, size_t *nw, size_t *ni)
{
    *nw = 0;
    *ni = 0;
    if (!t)
        return;
    t->work(a->ny, a->jac_nnz, nw, ni);
    *nw += driver_work(a);
}

/* See integ.h. */
int integ_fail(integ_run *r, int status, double t, const char *fmt, ...)
{
    char *e = r->data->err;
    size_t n = sizeof r->data->err;
    int k = snprintf(e, n, "t = %.9g s: ", t);
    if (k < 0 || (size_t)k >= n)
        return status;
    va_list ap;
    va_start(ap, fmt);
    jnt_verrf(e + k, n - (size_t)k, status, fmt, ap);
    va_end(ap);
    return status;
}

/* Name of state i for messages. */
static const char *state_name(const integ_run *r, int i)
{
    if (i >= 0 && i < r->abi->ny && r->abi->y_names[i])
        return r->abi->y_names[i];
    return "?";
}

/* "nan", "inf" or "-inf" (glibc prints NaNs with a sign). */
static const char *nonfinite_text(double v)
{
    return isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
}

/* See integ.h. */
int integ_fail_cause(integ_run *r, int fallback, double t, const char *what)
{
    switch (r->cause) {
    case INTEG_CAUSE_NONFINITE:
        return integ_fail(r, JNT_ERR_NONFINITE, r->cause_t,
                          "derivative of state '%s' became not finite (%s)",
                          state_name(r, r->cause_index), nonfinite_text(r->cause_value));
    case INTEG_CAUSE_NEWTON:
        return integ_fail(r, JNT_ERR_NEWTON, r->cause_t,
                          "newton iteration diverged (largest residual in state '%s')",
                          state_name(r, r->cause_index));
    case INTEG_CAUSE_SINGULAR:
        return integ_fail(r, JNT_ERR_NEWTON, r->cause_t,
                          "newton iteration matrix is singular (pivot of state '%s')",
                          state_name(r, r->cause_index));
    case INTEG_CAUSE_RHS:
        return integ_fail(r, fallback, t, "%s (the rhs kernel kept asking for a smaller step)",
                          what);
    default:
        return integ_fail(r, fallback, t, "%s", what);
    }
}

/* The first state row of the constraints (the rows of lambda). */
static int cons_first(const jnt_abi_model *a)
{
    return a->ny - a->nc;
}

/* See integ.h. */
int integ_rhs(integ_run *r, double t, const double *y, double *ydot)
{
    r->st->rhs_evals++;
    int rc = eval_rhs(r->data->m, r->data, t, y, ydot);
    if (rc < 0)
        return integ_fail(r, JNT_ERR_KERNEL, t, "the rhs kernel failed (status %d)", rc);
    if (rc > 0) {
        r->cause = INTEG_CAUSE_RHS;
        r->cause_t = t;
        return 1;
    }
    for (int i = 0; i < r->abi->ny; i++) {
        if (!isfinite(ydot[i])) {
            r->cause = INTEG_CAUSE_NONFINITE;
            r->cause_index = i;
            r->cause_value = ydot[i];
            r->cause_t = t;
            return 1;
        }
    }
    /* the redundant rows the assembly dropped: 0 = 0 */
    const unsigned char *off = r->data->cons_off;
    for (int k = 0, c0 = cons_first(r->abi); r->data->ncons_off && k < r->abi->nc; k++)
        if (off[k])
            ydot[c0 + k] = 0.0;
    return 0;
}

/* An evaluation of the Jacobian kernel (eval_jac's status rc) as integ_jac_*
 * return it: 0, 1 with the cause recorded, or JNT_ERR_KERNEL. */
static int jac_status(integ_run *r, double t, int rc, int bad, double badv)
{
    if (rc < 0)
        return integ_fail(r, JNT_ERR_KERNEL, t, "the jacobian kernel failed (status %d)", rc);
    if (rc == EVAL_NONFINITE) {
        r->cause = INTEG_CAUSE_NONFINITE;
        r->cause_index = bad;
        r->cause_value = badv;
        r->cause_t = t;
        return 1;
    }
    if (rc > 0) {
        r->cause = INTEG_CAUSE_RHS;
        r->cause_t = t;
        return 1;
    }
    return 0;
}

/* See integ.h. */
int integ_jac_dense(integ_run *r, double t, const double *y, const double *fy, double *J,
                    double *tmp)
{
    const jnt_abi_model *a = r->abi;
    int n = a->ny;
    r->st->jac_evals++;
    if (!a->jac) {
        /* forward differences, one column per state */
        memcpy(tmp, y, (size_t)n * sizeof *tmp);
        for (int j = 0; j < n; j++) {
            double del = 1.4901161193847656e-08 * fmax(fabs(y[j]), 1.0);
            tmp[j] = y[j] + del;
            int rc = integ_rhs(r, t, tmp, J + (size_t)j * n);
            tmp[j] = y[j];
            if (rc != 0)
                return rc;
            for (int i = 0; i < n; i++)
                J[(size_t)j * n + i] = (J[(size_t)j * n + i] - fy[i]) / del;
        }
        return 0;
    }
    int bad = -1;
    double badv = 0;
    int rc = jac_status(r, t, eval_jac(r->data->m, r->data, t, y, J, &bad, &badv), bad, badv);
    const unsigned char *off = r->data->cons_off;
    for (int k = 0, c0 = cons_first(a); rc == 0 && r->data->ncons_off && k < a->nc; k++)
        for (int j = 0; off[k] && j < n; j++)
            J[(size_t)j * n + c0 + k] = 0.0;
    return rc;
}

/* See integ.h. */
int integ_jac_sparse(integ_run *r, double t, const double *y, double *jv)
{
    r->st->jac_evals++;
    int bad = -1;
    double badv = 0;
    int rc = jac_status(r, t, eval_jac_values(r->data->m, r->data, t, y, jv, &bad, &badv), bad,
                        badv);
    const jnt_model *m = r->data->m;
    const unsigned char *off = r->data->cons_off;
    int c0 = cons_first(r->abi);
    for (int j = 0; rc == 0 && r->data->ncons_off && j < r->abi->ny; j++)
        for (int e = m->jcolptr[j]; e < m->jcolptr[j + 1]; e++)
            if (m->jrowind[e] >= c0 && off[m->jrowind[e] - c0])
                jv[e] = 0.0;
    return rc;
}

/* See integ.h. */
int integ_cons_rates(integ_run *r, double t, const double *y, double *cr)
{
    int rc = eval_cons_rates(r->data->m, r->data, t, y, cr);
    int nc = r->abi->nc;
    for (int k = 0; rc == 0 && r->data->ncons_off && k < nc; k++)
        if (r->data->cons_off[k])
            cr[k] = cr[nc + k] = cr[2 * nc + k] = 0.0;
    return rc;
}

/* See integ.h. */
int integ_factor_failed(integ_run *r, int info, int n)
{
    if (info < 0)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory factorising the Newton matrix");
    r->cause = INTEG_CAUSE_SINGULAR;
    r->cause_index = (info - 1) % n;
    r->cause_t = r->t;
    return 1;
}

/* See integ.h. Cubic Hermite basis on theta = (t - t_n) / h. */
void integ_hermite_rows(const integ_run *r, double t, int n, const double *y0, const double *f0,
                        const double *y1, const double *f1, double *out)
{
    double h = r->t_new - r->t;
    double th = (t - r->t) / h, u = 1.0 - th;
    double h00 = (1.0 + 2.0 * th) * u * u, h10 = th * u * u * h;
    double h01 = th * th * (3.0 - 2.0 * th), h11 = -th * th * u * h;
    for (int i = 0; i < n; i++)
        out[i] = h00 * y0[i] + h10 * f0[i] + h01 * y1[i] + h11 * f1[i];
}

/* See integ.h. */
int integ_hermite(integ_run *r, double t, double *yout)
{
    integ_hermite_rows(r, t, r->abi->ny, r->y, r->f, r->y_new, r->f_new, yout);
    return 0;
}

/* See integ.h. */
double integ_fixed_end(const integ_run *r, double h)
{
    double tn = r->t + h;
    double tg = r->s.t0 + nearbyint((tn - r->s.t0) / h) * h;
    if (fabs(tn - tg) <= 1e-9 * h)
        tn = tg;
    if (tn >= r->s.t_end - 1e-9 * h)
        tn = r->s.t_end;
    return tn;
}

/* See integ.h. */
int integ_newton_failed(integ_run *r, int state)
{
    r->cause = INTEG_CAUSE_NEWTON;
    r->cause_index = state;
    r->cause_t = r->t;
    return 1;
}

/* See integ.h. */
double integ_step_proposal(const integ_run *r)
{
    return r->step_d >= 0 && r->d[r->step_d] > 0 ? r->d[r->step_d] : INFINITY;
}

/* See integ.h. */
double integ_capped_end(const integ_run *r, double hs)
{
    double p = integ_step_proposal(r);
    if (!(p < hs))
        return integ_fixed_end(r, hs);
    double t = r->t + fmax(p, integ_h_min(r, r->t));
    return t < r->s.t_end ? t : r->s.t_end;
}

/* See integ.h. */
double integ_h_min(const integ_run *r, double t)
{
    return r->s.h_min > 0 ? r->s.h_min : 1e-14 * fmax(1.0, fabs(t));
}

/* See integ.h. */
double integ_wrms(int n, const double *v, const double *y, double rtol, double atol)
{
    if (n == 0)
        return 0.0;
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double q = v[i] / (atol + rtol * fabs(y[i]));
        s += q * q;
    }
    return sqrt(s / n);
}

/* Outputs at (t, y) with the current d: into data->out and one CSV row. */
static int emit(integ_run *r, csv_writer *csv, double t, const double *y)
{
    jnt_data *dt = r->data;
    const double *u = eval_gather_for(dt->m, dt, y, EVAL_OUTPUT);
    int rc = r->abi->output(t, y, u, r->d, r->p, dt->out);
    if (rc < 0)
        return integ_fail(r, JNT_ERR_KERNEL, t, "the output kernel failed (status %d)", rc);
    if (csv) {
        rc = csv_row(csv, dt->out, r->abi->nout, dt->err, sizeof dt->err);
        if (rc != JNT_OK)
            return rc;
    }
    r->st->out_rows++;
    return JNT_OK;
}

/* Rows of the output grid in (t, t_new] of the step just accepted, then
 * the final row at t_end, or one row per step when out_every is 0. */
static int emit_step(integ_run *r, csv_writer *csv, long *k_next, double *yi)
{
    const jnt_settings *s = &r->s;
    double oe = s->out_every;
    int rc;
    if (oe > 0) {
        double tol = fmax(1e-9 * oe, 4 * DBL_EPSILON * fmax(fabs(s->t0), fabs(s->t_end)));
        for (;;) {
            double tg = s->t0 + (double)*k_next * oe;
            if (tg >= s->t_end - tol || tg > r->t_new + tol)
                break;
            if (fabs(tg - r->t_new) <= tol) {
                rc = emit(r, csv, tg, r->y_new);
            } else {
                rc = r->data->integ->interp(r, tg, yi);
                if (rc == 0)
                    rc = emit(r, csv, tg, yi);
            }
            if (rc != 0)
                return rc;
            (*k_next)++;
        }
    }
    if (oe <= 0 || r->t_new >= s->t_end)
        return emit(r, csv, r->t_new, r->y_new);
    return 0;
}

/* See integ.h. */
void integ_run_init(integ_run *r, const jnt_model *m, jnt_data *d, const jnt_settings *s,
                    double t)
{
    memset(r, 0, sizeof *r);
    r->abi = m->abi;
    r->data = d;
    r->p = d->p;
    r->d = d->d;
    if (s)
        r->s = *s;
    r->st = &d->stats;
    r->t = t;
    r->step_d = -1;
}

/* See integ.h. */
int integ_drive(const jnt_model *m, jnt_data *dt, const jnt_settings *s, csv_writer *csv,
                int progress_mode)
{
    const jnt_abi_model *a = m->abi;
    const integ_type *ty = dt->integ;
    int ny = a->ny, nd = a->nd;
    integ_run r;
    integ_run_init(&r, m, dt, s, s->t0);
    /* carve the arena: driver vectors first, then the method's */
    double *w = dt->work;
    r.y = w, w += ny;
    r.y_new = w, w += ny;
    r.f = w, w += ny;
    r.f_new = w, w += ny;
    double *yi = w;
    w += ny;
    double *d_old = w;
    w += nd;
    double *cw = w;
    w += chain_work_size(a);
    r.w = w;
    r.iw = dt->iwork;
    for (int i = 0; i < nd; i++)
        if (strcmp(a->d_names[i], JNT_STEP_STATE) == 0)
            r.step_d = i;
    memcpy(r.y, dt->y, (size_t)ny * sizeof *r.y);
    progress pg;
    progress_start(&pg, progress_mode, s->t0, s->t_end);

    long k_next = 1;
    int rc = a->nchains ? update_chains(&r, r.t, r.y, 1, cw) : 0;
    if (rc == 0 && ty->keeps_f) {
        rc = integ_rhs(&r, r.t, r.y, r.f);
        if (rc == 1)
            rc = integ_fail_cause(&r, JNT_ERR_KERNEL, r.t,
                                  "the rhs kernel failed at the initial state");
    }
    /* stop runs whenever start was reached, also after a failing start;
     * the first row after start, which may make the state consistent
     * (the multibody methods project it onto the constraints) */
    int started = rc == 0;
    if (rc == 0 && ty->start)
        rc = ty->start(&r);
    if (rc == 0)
        rc = emit(&r, csv, r.t, r.y);
    while (rc == 0 && r.t < s->t_end) {
        r.cause = INTEG_CAUSE_NONE;
        rc = ty->step(&r);
        if (rc != 0)
            break;
        r.st->steps++;
        for (int i = 0; i < ny; i++) {
            if (!isfinite(r.y_new[i])) {
                rc = integ_fail(&r, JNT_ERR_NONFINITE, r.t_new, "state '%s' became not finite (%s)",
                                state_name(&r, i), nonfinite_text(r.y_new[i]));
                break;
            }
        }
        if (rc != 0)
            break;
        rc = emit_step(&r, csv, &k_next, yi);
        if (rc == 0 && dt->steps) {
            double th[2] = {r.t_new, r.t_new - r.t};
            rc = csv_row(dt->steps, th, 2, dt->err, sizeof dt->err);
        }
        if (rc != 0)
            break;
        /* discrete update, once per accepted step, after the rows it covers */
        int changed = 0;
        if (nd > 0) {
            memcpy(d_old, r.d, (size_t)nd * sizeof *d_old);
            int urc = a->update(r.t_new, r.y_new, eval_gather_for(m, dt, r.y_new, EVAL_UPDATE),
                                r.d, r.p);
            if (urc < 0) {
                rc = integ_fail(&r, JNT_ERR_KERNEL, r.t_new, "the update kernel failed (status %d)",
                                urc);
                break;
            }
            if (a->nchains && (rc = update_chains(&r, r.t_new, r.y_new, 0, cw)) != 0)
                break;
            changed = memcmp(d_old, r.d, (size_t)nd * sizeof *d_old) != 0;
        }
        /* the step end becomes the next step start */
        double *tmp = r.y;
        r.y = r.y_new, r.y_new = tmp;
        tmp = r.f;
        r.f = r.f_new, r.f_new = tmp;
        r.t = r.t_new;
        if (changed && r.t < s->t_end) {
            if (ty->keeps_f) {
                rc = integ_rhs(&r, r.t, r.y, r.f);
                if (rc == 1)
                    rc = integ_fail_cause(&r, JNT_ERR_KERNEL, r.t,
                                          "the rhs kernel failed after a discrete update");
            }
            if (rc == 0 && ty->reset)
                rc = ty->reset(&r);
        }
        progress_update(&pg, r.t);
        if (rc == 0 && dt->stop && *dt->stop) /* jnt_set_stop_flag: within one step */
            rc = data_error(dt, JNT_STOPPED, "stopped at t = %.9g s", r.t);
    }
    if (started && ty->stop)
        ty->stop(&r);
    progress_clear(&pg);
    memcpy(dt->y, r.y, (size_t)ny * sizeof *r.y);
    dt->t = r.t;
    return rc;
}
