/*
 * integ_trap.c: the implicit trapezoidal rule (order 2, A-stable),
 * y_{n+1} = y_n + h/2 (f(t_n, y_n) + f(t_{n+1}, y_{n+1})), with a fixed step,
 * solved by the shared simplified Newton (integ_irk.c) as a one-stage
 * method with an explicit part. Between step ends: cubic Hermite.
 */
#include "integ.h"

static const double trap_a[1] = {0.5};
static const double trap_c[1] = {1.0};
static const double trap_e[1] = {0.5};
static const integ_irk trap_irk = {1, trap_a, trap_c, trap_e};

static void trap_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)nnz;
    integ_irk_work(&trap_irk, ny, nw, ni);
}

static int trap_step(integ_run *r)
{
    return integ_irk_step(r, &trap_irk);
}

const integ_type integ_trap = {
    .name = "trapezoidal",
    .fixed_step = 1,
    .keeps_f = 1,
    .work = trap_work,
    .start = NULL,
    .step = trap_step,
    .interp = integ_hermite,
    .reset = NULL,
    .stop = integ_irk_stop,
};
