/*
 * test_dense.c: the small dense LU of runtime/linalg/dense.c against LAPACK
 * (OpenBLAS's dgetrf, dgetrs, dgemv): random matrices of every order up to
 * DENSE_SMALL_N (the same pivots, factors and solutions to rounding), badly
 * conditioned ones (Hilbert matrices to order 12, nearly dependent columns:
 * backward errors at rounding level, solutions as close as the condition
 * number allows), exactly singular ones (the same zero pivot reported), a
 * leading dimension above the order; and the times of both at orders 4 to
 * 32, printed (INFO) to show where OpenBLAS's blocked LU starts to win.
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "linalg/dense.h"

enum { NMAX = 32, LDMAX = NMAX + 3 };

static double urand(void)
{
    return (double)rand() / RAND_MAX - 0.5;
}

/* max |x_i| over n entries */
static double amax(int n, const double *x)
{
    double m = 0.0;
    for (int i = 0; i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m;
}

/* The infinity norm of the n x n matrix a (lda). */
static double norm_inf(int n, const double *a, int lda)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += fabs(a[i + j * lda]);
        m = fmax(m, s);
    }
    return m;
}

/* The normwise backward error ||b - A x|| / (||A|| ||x|| + ||b||), infinity norms. */
static double backward(int n, const double *a, int lda, const double *x, const double *b)
{
    double r[NMAX];
    for (int i = 0; i < n; i++) {
        long double s = b[i];
        for (int j = 0; j < n; j++)
            s -= (long double)a[i + j * lda] * x[j];
        r[i] = (double)s;
    }
    return amax(n, r) / (norm_inf(n, a, lda) * amax(n, x) + amax(n, b));
}

/* The worst results of one family of matrices. */
typedef struct worst {
    int cases, info_diff, piv_diff;
    double fac, sol, sol_bound, bwd_dense, bwd_lapack;
} worst;

/* Factor and solve the n x n matrix a (lda) both ways and fold the
 * differences into w: info, pivots, factors (relative to their largest),
 * solutions (relative, against eps n / rcond), backward errors. */
static void compare(int n, int lda, const double *a, worst *w)
{
    double d[NMAX * LDMAX], l[NMAX * LDMAX], b[NMAX], xd[NMAX], xl[NMAX];
    int pd[NMAX], pl[NMAX];
    memcpy(d, a, sizeof(double) * (size_t)(n * lda));
    memcpy(l, a, sizeof(double) * (size_t)(n * lda));
    for (int i = 0; i < n; i++)
        b[i] = urand() + 1.0;
    double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, a, lda);
    int id = dense_lu_factor(n, d, lda, pd);
    int il = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, l, lda, pl);
    w->cases++;
    w->info_diff += id != il;
    w->piv_diff += memcmp(pd, pl, sizeof(int) * (size_t)n) != 0;
    double fmax_ = 0.0, fdiff = 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            fmax_ = fmax(fmax_, fabs(l[i + j * lda]));
            fdiff = fmax(fdiff, fabs(d[i + j * lda] - l[i + j * lda]));
        }
    w->fac = fmax(w->fac, fdiff / fmax_);
    if (id || il)
        return;
    memcpy(xd, b, sizeof(double) * (size_t)n);
    memcpy(xl, b, sizeof(double) * (size_t)n);
    dense_lu_solve(n, d, lda, pd, xd);
    LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, l, lda, pl, xl, n);
    double rcond = 0.0;
    LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', n, l, lda, anorm, &rcond);
    double dx[NMAX];
    for (int i = 0; i < n; i++)
        dx[i] = xd[i] - xl[i];
    double rel = amax(n, dx) / amax(n, xl);
    /* both solutions are within about n eps cond of the true one */
    double bound = 10.0 * n * DBL_EPSILON / fmax(rcond, DBL_EPSILON);
    if (rel / bound > w->sol / w->sol_bound || w->sol_bound == 0.0)
        w->sol = rel, w->sol_bound = bound;
    w->bwd_dense = fmax(w->bwd_dense, backward(n, a, lda, xd, b));
    w->bwd_lapack = fmax(w->bwd_lapack, backward(n, a, lda, xl, b));
}

static void report(const char *what, const worst *w, int same_pivots, double fac_tol)
{
    CHECK(w->info_diff == 0, "%s: the same info as dgetrf in %d cases", what, w->cases);
    if (same_pivots)
        CHECK(w->piv_diff == 0, "%s: the same pivots as dgetrf (%d of %d differ)", what,
              w->piv_diff, w->cases);
    if (fac_tol > 0)
        CHECK(w->fac <= fac_tol, "%s: factors within %.3g of dgetrf's relative (%.3g)", what,
              fac_tol, w->fac);
    CHECK(w->sol <= w->sol_bound, "%s: solutions within 10 n eps / rcond of dgetrs's (%.3g, bound %.3g)",
          what, w->sol, w->sol_bound);
    /* partial pivoting is backward stable: a few eps, growth allowing */
    CHECK(w->bwd_dense <= 64 * DBL_EPSILON,
          "%s: backward error %.3g eps (dgetrs: %.3g eps), at most 64 eps", what,
          w->bwd_dense / DBL_EPSILON, w->bwd_lapack / DBL_EPSILON);
}

/* CPU seconds per factorisation and solve of an n x n random matrix. */
static double time_lu(int n, int lapack)
{
    double a[NMAX * NMAX], f[NMAX * NMAX], x[NMAX];
    int p[NMAX];
    for (int k = 0; k < n * n; k++)
        a[k] = urand();
    int reps = 200000 / (n * n) + 10;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (int r = 0; r < reps; r++) {
        memcpy(f, a, sizeof(double) * (size_t)(n * n));
        for (int i = 0; i < n; i++)
            x[i] = 1.0;
        if (lapack) {
            LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, f, n, p);
            LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, f, n, p, x, n);
        } else {
            dense_lu_factor(n, f, n, p);
            dense_lu_solve(n, f, n, p, x);
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    return ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec)) / reps;
}

int main(void)
{
    double a[NMAX * LDMAX];
    srand(31);

    /* random matrices, every order to the bound, 50 of each */
    worst w = {0};
    for (int n = 1; n <= DENSE_SMALL_N; n++)
        for (int k = 0; k < 50; k++) {
            for (int e = 0; e < n * n; e++)
                a[e] = urand();
            compare(n, n, a, &w);
        }
    report("random, n = 1..16", &w, 1, 1e-13);

    /* a leading dimension above the order, rows past n left alone */
    worst wl = {0};
    for (int n = 2; n <= DENSE_SMALL_N; n += 7)
        for (int k = 0; k < 20; k++) {
            for (int e = 0; e < n * LDMAX; e++)
                a[e] = urand();
            compare(n, LDMAX, a, &wl);
        }
    report("random, lda = 35", &wl, 1, 1e-13);
    {
        double f[3 * 5], keep[3 * 5];
        int p[3];
        for (int e = 0; e < 15; e++)
            f[e] = keep[e] = urand();
        dense_lu_factor(3, f, 5, p);
        int same = 1;
        for (int j = 0; j < 3; j++)
            same &= f[3 + 5 * j] == keep[3 + 5 * j] && f[4 + 5 * j] == keep[4 + 5 * j];
        CHECK(same, "lda 5, n 3: rows 3 and 4 untouched");
    }

    /* Hilbert matrices, condition to 1.7e16 at n = 12: the pivots may part
     * where the computed candidates tie to rounding, the backward error may not */
    worst wh = {0};
    for (int n = 2; n <= 12; n++) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                a[i + j * n] = 1.0 / (i + j + 1);
        compare(n, n, a, &wh);
    }
    report("Hilbert, n = 2..12", &wh, 0, 0);

    /* nearly dependent columns: column 1 = column 0 (1 + 1e-12 noise), rcond ~ 1e-12 */
    worst wd = {0};
    for (int n = 2; n <= DENSE_SMALL_N; n++)
        for (int k = 0; k < 10; k++) {
            for (int e = 0; e < n * n; e++)
                a[e] = urand();
            for (int i = 0; i < n; i++)
                a[n + i] = a[i] * (1.0 + 1e-12 * urand());
            compare(n, n, a, &wd);
        }
    report("nearly dependent columns, n = 2..16", &wd, 0, 0);

    /* exactly singular: a zero column j, or row 1 twice row 0 (exact in binary) */
    int zero_ok = 1, dup_ok = 1;
    for (int n = 1; n <= DENSE_SMALL_N; n++)
        for (int j = 0; j < n; j++) {
            double d[NMAX * NMAX], l[NMAX * NMAX];
            int pd[NMAX], pl[NMAX];
            for (int e = 0; e < n * n; e++)
                d[e] = urand();
            for (int i = 0; i < n; i++)
                d[i + j * n] = 0.0;
            memcpy(l, d, sizeof(double) * (size_t)(n * n));
            int id = dense_lu_factor(n, d, n, pd);
            int il = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, l, n, pl);
            zero_ok &= id == il && id == j + 1;
        }
    CHECK(zero_ok, "a zero column j: info j + 1, as dgetrf's, at every order and column");
    {
        double d[4] = {1.0, 2.0, 2.0, 4.0}, l[4] = {1.0, 2.0, 2.0, 4.0};
        int pd[2], pl[2];
        int id = dense_lu_factor(2, d, 2, pd), il = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, 2, 2, l, 2, pl);
        dup_ok = id == 2 && il == 2 && pd[0] == pl[0];
        CHECK(dup_ok, "[1 2; 2 4]: info 2 (dgetrf %d), pivot row %d (dgetrf %d)", il, pd[0], pl[0]);
    }

    /* the condensed right-hand side: y += alpha A x against dgemv */
    {
        double A[16 * 5], x[5], y0[16], yd[16], yl[16];
        for (int e = 0; e < 80; e++)
            A[e] = urand();
        for (int i = 0; i < 5; i++)
            x[i] = urand();
        for (int i = 0; i < 16; i++)
            y0[i] = yd[i] = yl[i] = urand();
        dense_gemv_add(16, 5, 1e-3, A, 16, x, yd);
        cblas_dgemv(CblasColMajor, CblasNoTrans, 16, 5, 1e-3, A, 16, x, 1, 1.0, yl, 1);
        double diff = 0.0;
        for (int i = 0; i < 16; i++)
            diff = fmax(diff, fabs(yd[i] - yl[i]) / fabs(y0[i] + 1e-300));
        CHECK(diff <= 4 * DBL_EPSILON, "y += 1e-3 A x, 16 x 5: as dgemv's to %.3g (relative)", diff);
    }

    /* the times (not asserted: they vary with the machine's load) */
    for (int n = 4; n <= NMAX; n *= 2)
        printf("INFO: dense: LU + solve of order %d: plain loops %.3g us, OpenBLAS %.3g us\n", n,
               1e6 * time_lu(n, 0), 1e6 * time_lu(n, 1));
    return check_failures > 100 ? 100 : check_failures;
}
