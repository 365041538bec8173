/*
 * test_dense.c: the small dense LU of runtime/linalg/dense.c against LAPACK
 * (OpenBLAS's dgetrf, dgetrs, dgemv): random matrices of every order up to
 * DENSE_SMALL_N (the same pivots, factors and solutions to rounding), badly
 * conditioned ones (Hilbert matrices to order 12, nearly dependent columns:
 * backward errors at rounding level, solutions as close as the condition
 * number allows), exactly singular ones (the same zero pivot reported), a
 * leading dimension above the order; and the times of both at orders 4 to
 * 32, printed (INFO) to show where OpenBLAS's blocked LU starts to win.
 * The QR with column pivoting (dense_qp3, dense_qr_apply) against dgeqp3
 * and dormqr: random m x n matrices to DENSE_QR_MAX, full rank and of rank
 * r < min(m, n) (the same pivots, to the rank; R's diagonal and Q y to
 * rounding, y zero past the rank), graded columns, rank r plus small noise
 * (where the norms' recomputation decides the pivots), a zero matrix, Q R = A P
 * to rounding; and both times at orders 4 to 64, printed.
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
    double r[NMAX] = {0}; /* = {0}: gcc -O1 with the sanitizers cannot see n <= NMAX */
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

enum { QMAX = DENSE_QR_MAX, QLD = QMAX + 2 };

/* The worst results of the QR comparisons. */
typedef struct qworst {
    int cases, piv_diff;
    double diag, qy, recon;
} qworst;

/* Factor the m x n matrix a (lda) both ways, rank r (r = min(m, n): full),
 * and fold into w: pivots (the first r), R's diagonal relative to |R_11|,
 * Q y (y random in its first r entries, zero after) relative to |y|, and
 * ||Q R - A P||_max / ||A||_max of dense_qp3's factors. */
static void qr_compare(int m, int n, int lda, const double *a, int r, qworst *w)
{
    static double d[QMAX * QLD], l[QMAX * QLD];
    double td[QMAX], tl[QMAX], yd[QLD], yl[QLD];
    int pd[QMAX], pl[QMAX];
    memcpy(d, a, sizeof(double) * (size_t)(n * lda));
    memcpy(l, a, sizeof(double) * (size_t)(n * lda));
    for (int j = 0; j < n; j++)
        pl[j] = 0;
    int k = m < n ? m : n;
    CHECK(dense_qp3(m, n, d, lda, pd, td) == 0, "dense_qp3 %d x %d", m, n);
    LAPACKE_dgeqp3(LAPACK_COL_MAJOR, m, n, l, lda, pl, tl);
    w->cases++;
    w->piv_diff += memcmp(pd, pl, sizeof(int) * (size_t)r) != 0;
    double r11 = fabs(l[0]), amx = 0.0;
    for (int i = 0; i < k; i++)
        w->diag = fmax(w->diag, fabs(d[i + i * lda] - l[i + i * lda]) / fmax(r11, DBL_MIN));
    for (int i = 0; i < m; i++) {
        yd[i] = yl[i] = i < r ? urand() : 0.0;
    }
    double ymax = amax(m, yd);
    dense_qr_apply(m, k, d, lda, td, yd);
    if (k > 0)
        LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'N', m, 1, k, l, lda, tl, yl, m);
    for (int i = 0; i < m; i++)
        w->qy = fmax(w->qy, fabs(yd[i] - yl[i]) / fmax(ymax, DBL_MIN));
    /* Q R(:, j) against A(:, jpvt[j]), column by column */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            amx = fmax(amx, fabs(a[i + j * lda]));
    for (int j = 0; j < n; j++) {
        double c[QLD];
        for (int i = 0; i < m; i++)
            c[i] = i <= j && i < k ? d[i + j * lda] : 0.0;
        dense_qr_apply(m, k, d, lda, td, c);
        for (int i = 0; i < m; i++)
            w->recon = fmax(w->recon, fabs(c[i] - a[i + (pd[j] - 1) * lda]) / fmax(amx, DBL_MIN));
    }
}

static void qr_report(const char *what, const qworst *w, double tol, double qy_tol)
{
    CHECK(w->piv_diff == 0, "%s: the same pivots as dgeqp3, to the rank (%d of %d differ)", what,
          w->piv_diff, w->cases);
    CHECK(w->diag <= tol, "%s: R's diagonal as dgeqp3's to %.3g |R_11| (at most %.3g)", what,
          w->diag, tol);
    CHECK(w->qy <= qy_tol, "%s: Q y as dormqr's to %.3g |y| (at most %.3g)", what, w->qy,
          qy_tol);
    CHECK(w->recon <= tol, "%s: Q R = A P to %.3g max|A| (at most %.3g)", what, w->recon, tol);
}

/* CPU seconds per QR with column pivoting and one product by Q of an n x n
 * random matrix. */
static double time_qr(int n, int lapack)
{
    static double a[QMAX * QMAX], f[QMAX * QMAX];
    double tau[QMAX], y[QMAX];
    int p[QMAX];
    for (int k = 0; k < n * n; k++)
        a[k] = urand();
    int reps = 400000 / (n * n) + 10;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (int r = 0; r < reps; r++) {
        memcpy(f, a, sizeof(double) * (size_t)(n * n));
        for (int i = 0; i < n; i++)
            y[i] = 1.0, p[i] = 0;
        if (lapack) {
            LAPACKE_dgeqp3(LAPACK_COL_MAJOR, n, n, f, n, p, tau);
            LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'N', n, 1, n, f, n, tau, y, n);
        } else {
            dense_qp3(n, n, f, n, p, tau);
            dense_qr_apply(n, n, f, n, tau, y);
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    return ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec)) / reps;
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

    /* QR with column pivoting: random m x n, every shape to 12 and some to the bound */
    {
        static double q[QMAX * QLD], u[QMAX * QMAX], v[QMAX * QMAX];
        qworst wq = {0}, wr = {0}, wg = {0};
        for (int m = 1; m <= QMAX; m += m < 12 ? 1 : 13)
            for (int n = 1; n <= QMAX; n += n < 12 ? 1 : 13)
                for (int t = 0; t < 5; t++) {
                    int lda = t == 4 ? m + 2 : m;
                    for (int e = 0; e < n * lda; e++)
                        q[e] = urand();
                    qr_compare(m, n, lda, q, m < n ? m : n, &wq);
                }
        qr_report("QR, random m x n to 64", &wq, 1e-13, 1e-13);
        /* rank r: A = U V, U m x r, V r x n */
        for (int m = 2; m <= QMAX; m += m < 12 ? 1 : 13)
            for (int n = 2; n <= QMAX; n += n < 12 ? 1 : 13) {
                int k = m < n ? m : n;
                for (int r = 1; r < k; r += 1 + k / 5) {
                    for (int e = 0; e < m * r; e++)
                        u[e] = urand();
                    for (int e = 0; e < r * n; e++)
                        v[e] = urand();
                    for (int j = 0; j < n; j++)
                        for (int i = 0; i < m; i++) {
                            double s = 0.0;
                            for (int h = 0; h < r; h++)
                                s += u[i + h * m] * v[h + j * r];
                            q[i + j * m] = s;
                        }
                    qr_compare(m, n, m, q, r, &wr);
                }
            }
        qr_report("QR, rank-deficient m x n to 64", &wr, 1e-13, 1e-13);
        /* graded columns (scales 1 to 1e-12: the downdated norms recomputed) */
        for (int n = 2; n <= 30; n += 4)
            for (int t = 0; t < 5; t++) {
                int m = n + t;
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < m; i++)
                        q[i + j * m] = urand() * pow(10.0, -12.0 * ((j * 7) % n) / n);
                qr_compare(m, n, m, q, n, &wg);
            }
        qr_report("QR, graded columns", &wg, 1e-13, 1e-13);
        /* rank r plus 1e-7 noise: past the rank, the partial norms fall from 1 to 1e-7,
         * where a downdate alone keeps only noise (the recomputation decides the pivots) */
        qworst wn = {0};
        for (int n = 6; n <= 40; n += 2) {
            int m = n + 3, r = n / 3;
            for (int e = 0; e < m * r; e++)
                u[e] = urand();
            for (int e = 0; e < r * n; e++)
                v[e] = urand();
            for (int j = 0; j < n; j++)
                for (int i = 0; i < m; i++) {
                    double s = 1e-7 * urand();
                    for (int h = 0; h < r; h++)
                        s += u[i + h * m] * v[h + j * r];
                    q[i + j * m] = s;
                }
            qr_compare(m, n, m, q, n, &wn);
        }
        /* Q's columns past the rank are those of the 1e-7 part: known to about
         * eps / 1e-7, 2e-9 (8.7e-9 seen) */
        qr_report("QR, rank n / 3 plus 1e-7 noise", &wn, 1e-13, 1e-7);
        double z[6] = {0}, tz[2];
        int pz[3];
        CHECK(dense_qp3(2, 3, z, 2, pz, tz) == 0 && pz[0] == 1 && pz[1] == 2 && pz[2] == 3 &&
                  tz[0] == 0.0 && tz[1] == 0.0 && z[0] == 0.0,
              "QR of a zero 2 x 3: no swap, tau 0, R 0");
        CHECK(dense_qp3(2, QMAX + 1, q, 2, pz, tz) == -1, "QR of %d columns refused", QMAX + 1);
    }

    /* the times (not asserted: they vary with the machine's load) */
    for (int n = 4; n <= NMAX; n *= 2)
        printf("INFO: dense: LU + solve of order %d: plain loops %.3g us, OpenBLAS %.3g us\n", n,
               1e6 * time_lu(n, 0), 1e6 * time_lu(n, 1));
    for (int n = 4; n <= QMAX; n *= 2)
        printf("INFO: dense: QR with column pivoting + Q y of order %d: plain loops %.3g us, "
               "OpenBLAS %.3g us\n",
               n, 1e6 * time_qr(n, 0), 1e6 * time_qr(n, 1));
    return check_failures > 100 ? 100 : check_failures;
}
