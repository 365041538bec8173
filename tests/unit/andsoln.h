/*
 * andsoln.h: the reference solution of Andrews' squeezing mechanism at
 * t = 0.03 s (Test Set for IVP Solvers, Mazzia and Magherini, problem
 * "andrews", subroutine andsoln: PSIDE with rtol = atol = 1e-14 on a Cray
 * C90), for the tests that run examples/andrews_squeezer.jnt (test_andrews.c,
 * test_radau5.c). Static functions of a test program's own: include it once,
 * after csvread.h.
 */
#ifndef JNT_TEST_ANDSOLN_H
#define JNT_TEST_ANDSOLN_H

#include <math.h>

/* the seven (relative) angles, y(1..7), as the example's output columns */
static const char *const andsoln_names[7] = {"beta", "Theta", "gamma", "Phi", "delta", "Omega",
                                             "epsilon"};
static const double andsoln[7] = {0.1581077119629904e+2, -0.1575637105984298e+2,
                                  0.4082224013073101e-1, -0.5347301163226948e+0,
                                  0.5244099658805304e+0, 0.5347301163226948e+0,
                                  0.1048080741042263e+1};

/* The largest error of the seven angles at t's last row (which must be
 * t = 0.03 s), or NAN; the angle's index in *worst (may be NULL). */
__attribute__((unused)) static double andsoln_error(const csv_table *t, int *worst)
{
    double e = NAN;
    if (t->nrow < 1 || fabs(t->col[0][t->nrow - 1] - 0.03) > 1e-12)
        return e;
    e = 0;
    for (int k = 0; k < 7; k++) {
        const double *c = csv_col(t, andsoln_names[k]);
        double d = c ? fabs(c[t->nrow - 1] - andsoln[k]) : INFINITY;
        if (d > e) {
            e = d;
            if (worst)
                *worst = k;
        }
    }
    return e;
}

#endif
