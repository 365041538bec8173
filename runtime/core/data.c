/*
 * data.c: data object lifecycle, the arena, and access to run results.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "err.h"
#include "eval.h"
#include "model.h"

/* A new data object for model m with default parameters and the kernels'
 * scratch; the integrator's arena is reserved at run start (data_reserve).
 * NULL when out of memory. */
jnt_data *jnt_data_new(const jnt_model *m)
{
    if (!m)
        return NULL;
    const jnt_abi_model *a = m->abi;
    jnt_data *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->m = m;
    /* one extra element each so that zero sizes still give valid pointers */
    d->p = calloc((size_t)a->np + 1, sizeof *d->p);
    d->set = calloc((size_t)a->np + 1, 1);
    d->y = calloc((size_t)a->ny + 1, sizeof *d->y);
    d->d = calloc((size_t)a->nd + 1, sizeof *d->d);
    d->out = calloc((size_t)a->nout + 1, sizeof *d->out);
    d->work = calloc(d->nwork + 1, sizeof *d->work);
    d->iwork = calloc(d->niwork + 1, sizeof *d->iwork);
    size_t new, niew;
    eval_work_size(a, &new, &niew);
    d->ew = calloc(new + 1, sizeof *d->ew);
    d->iew = calloc(niew + 1, sizeof *d->iew);
    if (!d->p || !d->set || !d->y || !d->d || !d->out || !d->work || !d->iwork || !d->ew ||
        !d->iew) {
        jnt_data_free(d);
        return NULL;
    }
    for (int i = 0; i < a->nout; i++)
        d->out[i] = NAN;
    d->t = NAN;
    params_defaults(m, d);
    d->err[0] = '\0';
    return d;
}

/* Free a data object; NULL is allowed. */
void jnt_data_free(jnt_data *d)
{
    if (!d)
        return;
    free(d->p);
    free(d->set);
    free(d->yset);
    free(d->cons_off);
    free(d->y);
    free(d->d);
    free(d->out);
    free(d->work);
    free(d->iwork);
    free(d->ew);
    free(d->iew);
    free(d);
}

/* See data.h. */
int data_reserve(jnt_data *d, size_t nw, size_t ni)
{
    if (nw > d->nwork) {
        double *w = realloc(d->work, (nw + 1) * sizeof *w);
        if (!w)
            return data_error(d, JNT_ERR_NOMEM, "out of memory for the integrator's work");
        d->work = w;
        d->nwork = nw;
    }
    if (ni > d->niwork) {
        int *w = realloc(d->iwork, (ni + 1) * sizeof *w);
        if (!w)
            return data_error(d, JNT_ERR_NOMEM, "out of memory for the integrator's work");
        d->iwork = w;
        d->niwork = ni;
    }
    return JNT_OK;
}

/* See data.h. */
int data_error(jnt_data *d, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jnt_verrf(d->err, sizeof d->err, status, fmt, ap);
    va_end(ap);
    return status;
}

/* See data.h. */
int params_defaults(const jnt_model *m, jnt_data *d)
{
    const jnt_abi_model *a = m->abi;
    if (a->np == 0)
        return JNT_OK;
    int rc = a->params(d->p, d->set);
    if (rc <= -1000 && -1000 - rc < a->ny)
        return data_error(d, JNT_ERR_PARAM, "the mass of the body of '%s' is not positive and "
                          "finite with these parameter values", a->y_names[-1000 - rc]);
    if (rc <= -1000 && -1000 - rc < 2 * a->ny) /* compiler/lower/gen_kernel.c: an inertia, after the masses */
        return data_error(d, JNT_ERR_PARAM, "the inertia of the body of '%s' is not positive "
                          "and finite with these parameter values (for rigid3d, no principal "
                          "moment may exceed the sum of the other two)",
                          a->y_names[-1000 - a->ny - rc]);
    if (rc < 0)
        return data_error(d, JNT_ERR_KERNEL, "the parameter kernel failed (status %d)", rc);
    /* a value computed from a -D one (param q = log(a), -D a=0) is checked here; sema
     * checks the defaults */
    for (int i = 0; i < a->np; i++)
        if (!isfinite(d->p[i]))
            return data_error(d, JNT_ERR_PARAM, "parameter '%s' is %s with these parameter "
                              "values (a value set with -D, or one it is computed from)",
                              a->p_names[i],
                              isnan(d->p[i]) ? "nan" : d->p[i] > 0 ? "+inf" : "-inf");
    return JNT_OK;
}

/* Time of the last state (NaN before any run). */
double jnt_time(const jnt_data *d)
{
    return d ? d->t : NAN;
}

/* Last value of state `index`, NaN when out of range or for a NULL m or d, or d of another
 * model. */
double jnt_state(const jnt_model *m, const jnt_data *d, int index)
{
    if (!m || !d || d->m != m || index < 0 || index >= m->abi->ny)
        return NAN;
    return d->y[index];
}

/* Last value of output `index` (the last row written), NaN when out of
 * range, before any run, or for a NULL m or d, or d of another model. */
double jnt_output(const jnt_model *m, const jnt_data *d, int index)
{
    if (!m || !d || d->m != m || index < 0 || index >= m->abi->nout)
        return NAN;
    return d->out[index];
}

/* Counters of the last run (owned by d). */
const jnt_stats *jnt_data_stats(const jnt_data *d)
{
    return d ? &d->stats : NULL;
}

/* Message of the last error on d, "" when none (owned by d). */
const char *jnt_data_error(const jnt_data *d)
{
    return d ? d->err : "";
}

/* See jnt.h. */
void jnt_set_stop_flag(jnt_data *d, const volatile int *flag)
{
    if (d)
        d->stop = flag;
}

/* See jnt.h. */
void jnt_set_max_output(jnt_data *d, double bytes)
{
    if (d)
        d->max_output = bytes;
}
