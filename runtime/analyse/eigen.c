/*
 * eigen.c: linear analysis of a model at a state: the eigenvalues of the
 * Jacobian d(ydot)/dy (LAPACKE dgeev), and setting a data object to the
 * initial state without integrating. An analysis allocates its own scratch:
 * it is not part of the step loop.
 */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/model.h"

/* See jnt.h. */
int jnt_init_state(const jnt_model *m, jnt_data *d)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    rc = params_defaults(m, d);
    if (rc != JNT_OK)
        return rc;
    jnt_settings s;
    memset(&s, 0, sizeof s);
    if (m->abi->settings(d->p, &s) < 0 || m->abi->init(d->p, d->y, d->d) < 0)
        return data_error(d, JNT_ERR_KERNEL, "the settings or initial-value kernel failed");
    d->t = s.t0;
    d->started = 1;
    d->row_at_t = 0;
    return JNT_OK;
}

/* See jnt.h. */
int jnt_eigenvalues(const jnt_model *m, jnt_data *d, double *re, double *im)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!re || !im)
        return data_null(d, __func__, re ? "im" : "re");
    const jnt_abi_model *a = m->abi;
    int n = a->ny;
    if (n == 0)
        return JNT_OK;
    double *J = calloc((size_t)n * (size_t)n, sizeof *J);
    if (!J)
        return data_error(d, JNT_ERR_NOMEM, "out of memory for a %d x %d Jacobian", n, n);
    rc = jnt_eval_jacobian(m, d, d->t, d->y, J);
    if (rc != JNT_OK) {
        free(J);
        return rc;
    }
    lapack_int info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, J, n, re, im, NULL, 1, NULL, 1);
    free(J);
    if (info != 0)
        return data_error(d, JNT_ERR_SOLVER, "the eigenvalue solver (dgeev) failed (info %d)",
                          (int)info);
    return JNT_OK;
}
