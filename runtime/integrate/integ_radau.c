/*
 * integ_radau.c: the two-stage Radau IIA method (order 3, L-stable; HNW II,
 * Table IV.5.5) with a fixed step, solved by the shared simplified Newton
 * (integ_irk.c). Between step ends: cubic Hermite.
 */
#include "integ.h"

static const double radau_a[4] = {5.0 / 12, -1.0 / 12, 3.0 / 4, 1.0 / 4};
static const double radau_c[2] = {1.0 / 3, 1.0};
static const double radau_e[2] = {0.0, 0.0};
static const integ_irk radau_irk = {2, radau_a, radau_c, radau_e};

static void radau_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)nnz;
    integ_irk_work(&radau_irk, ny, nw, ni);
}

static int radau_step(integ_run *r)
{
    return integ_irk_step(r, &radau_irk);
}

const integ_type integ_radau = {
    .name = "radau",
    .fixed_step = 1,
    .keeps_f = 1,
    .work = radau_work,
    .start = NULL,
    .step = radau_step,
    .interp = integ_hermite,
    .reset = NULL,
    .stop = integ_irk_stop,
};
