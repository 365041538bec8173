/*
 * dense.c: LU with partial pivoting of small dense matrices in plain loops
 * (dense.h), so that a small model's implicit integrator loads no BLAS.
 */
#include "dense.h"

#include <float.h>
#include <math.h>

/* Crout-order LU (OpenBLAS's getf2): for each column j, the earlier row
 * swaps, the unit lower solve of its top j entries, the update of the rest
 * by the columns left of it, then the pivot search and scaling. */
int dense_lu_factor(int n, double *a, int lda, int *ipiv)
{
    int info = 0;
    for (int j = 0; j < n; j++) {
        double *b = a + (long)j * lda;
        for (int i = 0; i < j; i++) {
            int ip = ipiv[i] - 1;
            if (ip != i) {
                double t = b[i];
                b[i] = b[ip];
                b[ip] = t;
            }
        }
        /* U's column: b[i] -= L(i, 0:i) b(0:i) */
        for (int i = 1; i < j; i++) {
            double s = 0.0;
            for (int k = 0; k < i; k++)
                s += a[i + (long)k * lda] * b[k];
            b[i] -= s;
        }
        /* the rest of the column: b(j:n) -= A(j:n, 0:j) b(0:j) */
        for (int i = j; i < n; i++) {
            double s = 0.0;
            for (int k = 0; k < j; k++)
                s += a[i + (long)k * lda] * b[k];
            b[i] -= s;
        }
        /* the pivot: the first entry of largest magnitude */
        int p = j;
        double big = fabs(b[j]);
        for (int i = j + 1; i < n; i++)
            if (fabs(b[i]) > big) {
                big = fabs(b[i]);
                p = i;
            }
        ipiv[j] = p + 1;
        double piv = b[p];
        if (piv == 0.0) {
            if (!info)
                info = j + 1;
            continue;
        }
        if (p != j)
            for (int k = 0; k <= j; k++) {
                double t = a[j + (long)k * lda];
                a[j + (long)k * lda] = a[p + (long)k * lda];
                a[p + (long)k * lda] = t;
            }
        if (fabs(piv) >= DBL_MIN) {
            double r = 1.0 / piv;
            for (int i = j + 1; i < n; i++)
                b[i] *= r;
        } else {
            for (int i = j + 1; i < n; i++)
                b[i] /= piv;
        }
    }
    return info;
}

/* P^T, then L y = P b forward and U x = y backward, by columns (axpy). */
void dense_lu_solve(int n, const double *lu, int lda, const int *ipiv, double *b)
{
    for (int i = 0; i < n; i++) {
        int ip = ipiv[i] - 1;
        if (ip != i) {
            double t = b[i];
            b[i] = b[ip];
            b[ip] = t;
        }
    }
    for (int k = 0; k < n; k++) {
        const double *c = lu + (long)k * lda;
        for (int i = k + 1; i < n; i++)
            b[i] -= b[k] * c[i];
    }
    for (int k = n - 1; k >= 0; k--) {
        const double *c = lu + (long)k * lda;
        b[k] /= c[k];
        for (int i = 0; i < k; i++)
            b[i] -= b[k] * c[i];
    }
}

/* y += alpha (A x), the product summed over the columns in order. */
void dense_gemv_add(int m, int n, double alpha, const double *a, int lda, const double *x,
                    double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)
            s += a[i + (long)k * lda] * x[k];
        y[i] += alpha * s;
    }
}
