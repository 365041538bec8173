/*
 * integ_rk4.c: the classic fourth-order Runge-Kutta method with a fixed step
 * (Hairer, Norsett, Wanner, Solving ODE I, Table II.1.2); the last step is
 * shortened to land on t_end. Between step ends: cubic Hermite.
 */
#include <string.h>

#include "integ.h"

/* k2, k3, k4 and a stage state. */
static void rk4_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)nnz;
    *nw = 4 * (size_t)ny;
    *ni = 0;
}

/* Map a recoverable rhs failure to an error: a fixed step cannot retry. */
static int rk4_failed(integ_run *r, int rc, double t)
{
    if (rc != 1)
        return rc;
    return integ_fail_cause(r, JNT_ERR_KERNEL, t,
                            "the rhs kernel asked for a smaller step, but rk4 has a fixed step");
}

/* y_{n+1} = y_n + h/6 (k1 + 2 k2 + 2 k3 + k4), k1 = r->f; also f_new. */
static int rk4_step(integ_run *r)
{
    int n = r->abi->ny, rc;
    double *k2 = r->w, *k3 = k2 + n, *k4 = k3 + n, *ys = k4 + n;
    const double *y = r->y, *k1 = r->f;
    double t = r->t;
    r->t_new = integ_fixed_end(r, r->s.h);
    double h = r->t_new - t;
    for (int i = 0; i < n; i++)
        ys[i] = y[i] + 0.5 * h * k1[i];
    if ((rc = integ_rhs(r, t + 0.5 * h, ys, k2)) != 0)
        return rk4_failed(r, rc, t + 0.5 * h);
    for (int i = 0; i < n; i++)
        ys[i] = y[i] + 0.5 * h * k2[i];
    if ((rc = integ_rhs(r, t + 0.5 * h, ys, k3)) != 0)
        return rk4_failed(r, rc, t + 0.5 * h);
    for (int i = 0; i < n; i++)
        ys[i] = y[i] + h * k3[i];
    if ((rc = integ_rhs(r, r->t_new, ys, k4)) != 0)
        return rk4_failed(r, rc, r->t_new);
    for (int i = 0; i < n; i++)
        r->y_new[i] = y[i] + h / 6.0 * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);
    if ((rc = integ_rhs(r, r->t_new, r->y_new, r->f_new)) != 0)
        return rk4_failed(r, rc, r->t_new);
    return 0;
}

const integ_type integ_rk4 = {
    .name = "rk4",
    .fixed_step = 1,
    .keeps_f = 1,
    .work = rk4_work,
    .start = NULL,
    .step = rk4_step,
    .interp = integ_hermite,
    .reset = NULL,
    .stop = NULL,
};
