/*
 * integ_dopri5.c: the Dormand-Prince 5(4) pair with FSAL, error control on
 * rtol/atol and the step-size controller with PI stabilisation of Hairer,
 * Norsett, Wanner (Solving ODE I, Sec. II.4 and II.5, code DOPRI5), and its
 * fourth-order continuous extension for the output grid (Sec. II.6).
 */
#include <math.h>
#include <string.h>

#include "integ.h"

/* Butcher tableau (Dormand & Prince 1980; HNW I, Table II.5.2). */
static const double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
static const double a21 = 1.0 / 5;
static const double a31 = 3.0 / 40, a32 = 9.0 / 40;
static const double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                    a54 = -212.0 / 729;
static const double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247,
                    a64 = 49.0 / 176, a65 = -5103.0 / 18656;
static const double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192,
                    a75 = -2187.0 / 6784, a76 = 11.0 / 84;
/* error estimate: b (5th order) - bhat (4th order) */
static const double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920,
                    e5 = -17253.0 / 339200, e6 = 22.0 / 525, e7 = -1.0 / 40;
/* dense output (Shampine 1986 / HNW I, eq. II.6.12 as in DOPRI5's CONTD5) */
static const double d1 = -12715105075.0 / 11282082432, d3 = 87487479700.0 / 32700410799,
                    d4 = -10690763975.0 / 1880347072, d5 = 701980252875.0 / 199316789632,
                    d6 = -1453857185.0 / 822651844, d7 = 69997945.0 / 29380423;

/* Controller constants of DOPRI5: safety, step ratio bounds, PI beta. */
#define SAFE 0.9
#define FAC_MIN 0.2
#define FAC_MAX 10.0
#define BETA 0.04

/* Stages k2..k6, a stage state, and the error vector. */
static void dp_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)nnz;
    *nw = 7 * (size_t)ny + 1; /* last element: the previous error norm */
    *ni = 0;
}

/* Initial step (HNW I, Sec. II.4, "starting step size"): from ||y0||, ||f0||
 * and a second-derivative estimate; uses k2, k3 as scratch. */
static int dp_initial_step(integ_run *r, double hmax, double *h)
{
    int n = r->abi->ny;
    double rt = r->s.rtol, at = r->s.atol;
    double *y1 = r->w, *f1 = y1 + n;
    double dn0 = integ_wrms(n, r->y, r->y, rt, at);
    double dn1 = integ_wrms(n, r->f, r->y, rt, at);
    double h0 = (dn0 < 1e-10 || dn1 < 1e-10) ? 1e-6 : 0.01 * dn0 / dn1;
    h0 = fmin(h0, hmax);
    for (int i = 0; i < n; i++)
        y1[i] = r->y[i] + h0 * r->f[i];
    int rc = integ_rhs(r, r->t + h0, y1, f1);
    if (rc < 0)
        return rc;
    if (rc > 0) {
        /* cannot probe: start small */
        *h = fmin(h0 * 1e-3, hmax);
        return 0;
    }
    for (int i = 0; i < n; i++)
        f1[i] -= r->f[i];
    double dn2 = integ_wrms(n, f1, r->y, rt, at) / h0;
    double m = fmax(dn1, dn2);
    double h1 = m <= 1e-15 ? fmax(1e-6, h0 * 1e-3) : pow(0.01 / m, 0.2);
    *h = fmin(fmin(100 * h0, h1), hmax);
    return 0;
}

static double dp_hmax(const integ_run *r)
{
    double span = r->s.t_end - r->s.t0;
    return r->s.h_max > 0 ? fmin(r->s.h_max, span) : span;
}

/* Start: the first step size. */
static int dp_start(integ_run *r)
{
    double *errold = r->w + 7 * (size_t)r->abi->ny;
    *errold = 1e-4;
    if (r->s.h > 0) {
        r->h = fmin(r->s.h, dp_hmax(r));
        return 0;
    }
    return dp_initial_step(r, dp_hmax(r), &r->h);
}

/* One accepted step: stages, error norm, accept or reject and retry. */
static int dp_step(integ_run *r)
{
    int n = r->abi->ny, rc;
    double *k2 = r->w, *k3 = k2 + n, *k4 = k3 + n, *k5 = k4 + n, *k6 = k5 + n, *ys = k6 + n,
           *err = ys + n, *errold = err + n;
    const double *y = r->y, *k1 = r->f;
    double *k7 = r->f_new, *yn = r->y_new;
    double t = r->t, hmax = dp_hmax(r);
    double rt = r->s.rtol, at = r->s.atol;
    int rejected = 0, nonfinite = 0;
    for (;;) {
        double h = fmin(r->h, hmax);
        int last = 0;
        /* land exactly on t_end, avoiding a tiny last step */
        if (t + 1.01 * h >= r->s.t_end) {
            h = r->s.t_end - t;
            last = 1;
        }
        double hmin = integ_h_min(r, t);
        if (h < hmin && !last) {
            if (nonfinite)
                r->cause = INTEG_CAUSE_NONFINITE;
            char what[96];
            snprintf(what, sizeof what, "step size %.3g s fell below the minimum %.3g s", h, hmin);
            return integ_fail_cause(r, JNT_ERR_HMIN, t, what);
        }
        /* the six new stages; k7 = f(t + h, y_new) is the next step's k1 */
        for (int i = 0; i < n; i++)
            ys[i] = y[i] + h * a21 * k1[i];
        rc = integ_rhs(r, t + c2 * h, ys, k2);
        for (int i = 0; rc == 0 && i < n; i++)
            ys[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
        if (rc == 0)
            rc = integ_rhs(r, t + c3 * h, ys, k3);
        for (int i = 0; rc == 0 && i < n; i++)
            ys[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
        if (rc == 0)
            rc = integ_rhs(r, t + c4 * h, ys, k4);
        for (int i = 0; rc == 0 && i < n; i++)
            ys[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
        if (rc == 0)
            rc = integ_rhs(r, t + c5 * h, ys, k5);
        for (int i = 0; rc == 0 && i < n; i++)
            ys[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] +
                                a65 * k5[i]);
        double tn = last ? r->s.t_end : t + h;
        if (rc == 0)
            rc = integ_rhs(r, tn, ys, k6);
        for (int i = 0; rc == 0 && i < n; i++)
            yn[i] = y[i] + h * (a71 * k1[i] + a73 * k3[i] + a74 * k4[i] + a75 * k5[i] +
                                a76 * k6[i]);
        if (rc == 0)
            rc = integ_rhs(r, tn, yn, k7);
        if (rc < 0)
            return rc;
        double en = INFINITY;
        if (rc == 0) {
            for (int i = 0; i < n; i++) {
                err[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] +
                              e7 * k7[i]);
                /* scale with max(|y_n|, |y_{n+1}|) as DOPRI5 does */
                ys[i] = fmax(fabs(y[i]), fabs(yn[i]));
            }
            en = integ_wrms(n, err, ys, rt, at);
            if (!isfinite(en))
                en = INFINITY;
        } else if (r->cause == INTEG_CAUSE_NONFINITE) {
            nonfinite = 1;
        }
        if (en <= 1.0) {
            /* accepted: PI controller, fac = en^(0.2 - 0.75 beta) / errold^beta */
            double fac11 = pow(en, 0.2 - BETA * 0.75);
            double fac = fac11 / pow(*errold, BETA) / SAFE;
            fac = fmax(1.0 / FAC_MAX, fmin(1.0 / FAC_MIN, fac));
            double hnew = h / fac;
            if (rejected)
                hnew = fmin(hnew, h);
            *errold = fmax(en, 1e-4);
            r->t_new = tn;
            r->h = fmin(hnew, hmax);
            return 0;
        }
        /* rejected: shrink (hard when the error is not finite) and retry */
        r->st->rejected++;
        rejected = 1;
        if (isfinite(en))
            r->h = h / fmin(1.0 / FAC_MIN, pow(en, 0.2 - BETA * 0.75) / SAFE);
        else
            r->h = 0.25 * h;
    }
}

/* Fourth-order continuous extension on theta = (t - t_n) / h. */
static int dp_interp(integ_run *r, double t, double *yout)
{
    int n = r->abi->ny;
    const double *k1 = r->f, *k3 = r->w + n, *k4 = k3 + n, *k5 = k4 + n, *k6 = k5 + n,
                 *k7 = r->f_new;
    double h = r->t_new - r->t;
    double th = (t - r->t) / h, th1 = 1.0 - th;
    for (int i = 0; i < n; i++) {
        double y0 = r->y[i], dy = r->y_new[i] - y0;
        double bspl = h * k1[i] - dy;
        double c4v = dy - h * k7[i] - bspl;
        double c5v = h * (d1 * k1[i] + d3 * k3[i] + d4 * k4[i] + d5 * k5[i] + d6 * k6[i] +
                          d7 * k7[i]);
        yout[i] = y0 + th * (dy + th1 * (bspl + th * (c4v + th1 * c5v)));
    }
    return 0;
}

const integ_type integ_dopri5 = {
    .name = "dopri5",
    .fixed_step = 0,
    .keeps_f = 1,
    .work = dp_work,
    .start = dp_start,
    .step = dp_step,
    .interp = dp_interp,
    .reset = NULL,
    .stop = NULL,
};
