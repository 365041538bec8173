/*
 * integ_midpoint.c: the implicit midpoint rule (order 2, A-stable,
 * symplectic), y_{n+1} = y_n + h f(t_n + h/2, (y_n + y_{n+1})/2), with a fixed
 * step. Written as two stages so that the shared simplified Newton
 * (integ_irk.c) solves it: Z1 = h/2 f(t + h/2, y + Z1) is the half step to
 * the midpoint, Z2 = h f(t + h/2, y + Z1) = y_{n+1} - y_n. With contact laws
 * in the energy-consistent form of seed 001 Sect. 2.5 (penalty_ec), the
 * contact work over a step is exactly V(q_{n+1}) - V(q_n). Between step
 * ends: cubic Hermite.
 */
#include "integ.h"

static const double mid_a[4] = {0.5, 0.0, 1.0, 0.0};
static const double mid_c[2] = {0.5, 0.5};
static const double mid_e[2] = {0.0, 0.0};
static const integ_irk mid_irk = {2, mid_a, mid_c, mid_e};

static void mid_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)nnz;
    integ_irk_work(&mid_irk, ny, nw, ni);
}

static int mid_step(integ_run *r)
{
    return integ_irk_step(r, &mid_irk);
}

const integ_type integ_midpoint = {
    .name = "midpoint",
    .fixed_step = 1,
    .keeps_f = 1,
    .work = mid_work,
    .start = NULL,
    .step = mid_step,
    .interp = integ_hermite,
    .reset = NULL,
    .stop = integ_irk_stop,
};
