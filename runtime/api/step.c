/*
 * step.c: the stepping API (jnt.h): advance a data object's state to a time
 * or by one output interval, read and set its states between steps. Each
 * advance is a run resumed from the data's state (jnt_run_opts.resume): the
 * integrator starts again at the step's start, as after a discontinuity,
 * so states and parameters may change between steps. A multibody model's
 * positions and velocities set between steps are marked (d->yset) and the
 * next advance, or jnt_assemble, assembles the state again with them pinned
 * (integrate/integ_dae_set.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/model.h"
#include "integrate/integ.h"

/* Mark state i of a multibody model as set (its position or velocity). */
static int mark_set(const jnt_model *m, jnt_data *d, int i)
{
    if (m->kind != MODEL_DAE || i >= 2 * m->abi->nq)
        return JNT_OK;
    if (!d->yset && !(d->yset = calloc((size_t)m->abi->ny + 1, sizeof *d->yset)))
        return data_error(d, JNT_ERR_NOMEM, "out of memory marking the states set");
    int last = 0;
    for (int k = 0; k < 2 * m->abi->nq; k++)
        last = d->yset[k] > last ? d->yset[k] : last;
    d->yset[i] = last + 1;
    return JNT_OK;
}

/* Are values set since the last step waiting for the assembly? */
static int marked(const jnt_model *m, const jnt_data *d)
{
    for (int i = 0; m->kind == MODEL_DAE && d->yset && i < 2 * m->abi->nq; i++)
        if (d->yset[i])
            return 1;
    return 0;
}

/* See jnt.h. */
int jnt_assemble(const jnt_model *m, jnt_data *d)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!d->started && (rc = jnt_init_state(m, d)) != JNT_OK)
        return rc;
    if (m->kind != MODEL_DAE)
        return JNT_OK;
    d->err[0] = '\0';
    int moved = 0;
    rc = integ_dae_reassemble(m, d, &moved);
    if (rc != JNT_OK)
        return rc;
    d->row_at_t = 0; /* the state at t changed: the next step writes its row again */
    return moved > 0 ? JNT_PROJECTED : JNT_OK;
}

/* See jnt.h. */
int jnt_get_settings(const jnt_model *m, jnt_data *d, jnt_settings *s)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!s)
        return data_null(d, __func__, "s");
    rc = params_defaults(m, d);
    if (rc != JNT_OK)
        return rc;
    memset(s, 0, sizeof *s);
    if (!m->abi->settings || m->abi->settings(d->p, s) < 0)
        return data_error(d, JNT_ERR_KERNEL, "the settings kernel failed");
    return JNT_OK;
}

/* See jnt.h. */
int jnt_advance(const jnt_model *m, jnt_data *d, double t, const jnt_run_opts *opts)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!d->started) {
        rc = jnt_init_state(m, d);
        if (rc != JNT_OK)
            return rc;
    }
    if (!isfinite(t) || !(t > d->t))
        return data_error(d, JNT_ERR_USAGE, "advance to t = %.9g s: not after the state's time "
                          "%.9g s", t, d->t);
    jnt_run_opts o;
    memset(&o, 0, sizeof o);
    if (opts)
        o = *opts;
    if (!o.csv_path)
        o.csv_path = "";
    o.t_end = t;
    o.resume = 1;
    /* values set since the last step: the state assembled with them pinned
     * (what moved is counted in stats.projected), the run starting from it */
    int own = marked(m, d), moved = 0;
    if (own && (rc = integ_dae_reassemble(m, d, &moved)) != JNT_OK)
        return rc;
    if (own) {
        d->row_at_t = 0;
        memset(d->yset, 0, (size_t)m->abi->ny * sizeof *d->yset);
    }
    d->skip_pins = own;
    rc = jnt_run(m, d, &o);
    d->skip_pins = 0;
    return rc;
}

/* See jnt.h. */
int jnt_step(const jnt_model *m, jnt_data *d, const jnt_run_opts *opts)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    jnt_settings s;
    if ((rc = jnt_get_settings(m, d, &s)) != JNT_OK)
        return rc;
    if (!(s.out_every > 0))
        return data_error(d, JNT_ERR_USAGE, "the model writes a row every step (no 'every' "
                          "interval): advance to a time with jnt_advance");
    if (!d->started && (rc = jnt_init_state(m, d)) != JNT_OK)
        return rc;
    /* the next point of the output grid t0 + k every, not drifting */
    double k = floor((d->t - s.t0) / s.out_every + 0.5) + 1;
    return jnt_advance(m, d, s.t0 + k * s.out_every, opts);
}

/* See jnt.h. */
int jnt_set_state(const jnt_model *m, jnt_data *d, int index, double value)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (index < 0 || index >= m->abi->ny + m->abi->nd)
        return data_error(d, JNT_ERR_USAGE, "%s: no state %d (the model has %d)", __func__, index,
                          m->abi->ny + m->abi->nd);
    if (!d->started) {
        rc = jnt_init_state(m, d);
        if (rc != JNT_OK)
            return rc;
    }
    if ((rc = mark_set(m, d, index)) != JNT_OK)
        return rc;
    if (index < m->abi->ny)
        d->y[index] = value;
    else
        d->d[index - m->abi->ny] = value;
    return JNT_OK;
}

/* See jnt.h. */
int jnt_set_full_state(const jnt_model *m, jnt_data *d, double t, const double *buf)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!buf)
        return data_null(d, __func__, "buf");
    if (!isfinite(t))
        return data_error(d, JNT_ERR_USAGE, "%s: the time is not finite", __func__);
    const jnt_abi_model *a = m->abi;
    if (!d->started) {
        rc = jnt_init_state(m, d);
        if (rc != JNT_OK)
            return rc;
    }
    for (int i = 0; i < a->ny; i++)
        if (buf[i] != d->y[i] && (rc = mark_set(m, d, i)) != JNT_OK)
            return rc;
    memcpy(d->y, buf, (size_t)a->ny * sizeof *buf);
    memcpy(d->d, buf + a->ny, (size_t)a->nd * sizeof *buf);
    d->row_at_t = d->row_at_t && t == d->t;
    d->t = t;
    return JNT_OK;
}
