/*
 * step.c: the stepping API (jnt.h): advance a data object's state to a time
 * or by one output interval, read and set its states between steps. Each
 * advance is a run resumed from the data's state (jnt_run_opts.resume): the
 * integrator starts again at the step's start, as after a discontinuity,
 * so states and parameters may change between steps.
 */
#include <math.h>
#include <string.h>

#include "core/data.h"
#include "core/model.h"

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
    return jnt_run(m, d, &o);
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
    memcpy(d->y, buf, (size_t)a->ny * sizeof *buf);
    memcpy(d->d, buf + a->ny, (size_t)a->nd * sizeof *buf);
    d->row_at_t = d->row_at_t && t == d->t;
    d->t = t;
    return JNT_OK;
}
