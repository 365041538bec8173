/*
 * usage.c: the entry checks of the public functions that take (m, d)
 * (data.h: data_check, data_null). Apart from data.c, which calls eval.c,
 * so that eval.c's public functions may use them without a circle of calls
 * (tests/layout/layout.sh).
 */
#include "data.h"
#include "err.h"
#include "model.h"

/* See data.h. */
int data_check(const jnt_model *m, jnt_data *d, const char *fn)
{
    if (!d)
        return JNT_ERR_USAGE;
    if (!m)
        return jnt_errf(d->err, sizeof d->err, JNT_ERR_USAGE, "%s: the model is NULL", fn);
    if (d->m != m)
        return jnt_errf(d->err, sizeof d->err, JNT_ERR_USAGE, "%s: the data object belongs to "
                        "another model (jnt_data_new(m) makes one for m)", fn);
    return JNT_OK;
}

/* See data.h. */
int data_null(jnt_data *d, const char *fn, const char *what)
{
    return d ? jnt_errf(d->err, sizeof d->err, JNT_ERR_USAGE, "%s: '%s' is NULL", fn, what)
             : JNT_ERR_USAGE;
}
