/*
 * csr.c: compressed sparse row matrices (csr.h): construction from dense
 * rows and the products the sliding interfaces use. Plain loops: the
 * matrices are small and sparse (a few entries a row), where a BLAS call
 * costs more than the arithmetic.
 */
#include <stdlib.h>
#include <string.h>

#include "csr.h"

/* See csr.h. */
void csr_free(csr_mat *a)
{
    if (!a)
        return;
    free(a->rowptr);
    free(a->col);
    free(a->val);
    memset(a, 0, sizeof *a);
}

/* See csr.h. */
int csr_from_rows(csr_mat *a, int nrow, int ncol, const double *rows, size_t ld)
{
    memset(a, 0, sizeof *a);
    if (nrow < 0 || ncol < 0)
        return -1;
    /* Count, then fill: the entries that are not exactly zero. */
    size_t nnz = 0;
    for (int i = 0; i < nrow; i++)
        for (int j = 0; j < ncol; j++)
            nnz += rows[(size_t)i * ld + (size_t)j] != 0;
    a->rowptr = malloc(((size_t)nrow + 1) * sizeof *a->rowptr);
    a->col = malloc((nnz + 1) * sizeof *a->col);
    a->val = malloc((nnz + 1) * sizeof *a->val);
    if (!a->rowptr || !a->col || !a->val) {
        csr_free(a);
        return -1;
    }
    a->nrow = nrow;
    a->ncol = ncol;
    int k = 0;
    a->rowptr[0] = 0;
    for (int i = 0; i < nrow; i++) {
        const double *r = rows + (size_t)i * ld;
        for (int j = 0; j < ncol; j++)
            if (r[j] != 0) {
                a->col[k] = j;
                a->val[k++] = r[j];
            }
        a->rowptr[i + 1] = k;
    }
    a->nnz = k;
    return 0;
}

/* See csr.h. */
double csr_row_dot(const csr_mat *a, int i, const double *x)
{
    double s = 0;
    for (int k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
        s += a->val[k] * x[a->col[k]];
    return s;
}

/* See csr.h. */
void csr_row_axpy(const csr_mat *a, int i, double alpha, double *y)
{
    for (int k = a->rowptr[i]; k < a->rowptr[i + 1]; k++)
        y[a->col[k]] += alpha * a->val[k];
}

/* See csr.h. */
void csr_mv(const csr_mat *a, double alpha, const double *x, double beta, double *y)
{
    for (int i = 0; i < a->nrow; i++) {
        double s = alpha * csr_row_dot(a, i, x);
        y[i] = beta == 0 ? s : s + beta * y[i];
    }
}

/* See csr.h. */
void csr_mtv(const csr_mat *a, double alpha, const double *x, double *y)
{
    for (int i = 0; i < a->nrow; i++)
        if (x[i] != 0)
            csr_row_axpy(a, i, alpha * x[i], y);
}

/* See csr.h. */
void csr_mul_rows(const csr_mat *a, const double *B, size_t ldb, int m, double *C, size_t ldc)
{
    for (int i = 0; i < a->nrow; i++) {
        double *c = C + (size_t)i * ldc;
        memset(c, 0, (size_t)m * sizeof *c);
        for (int k = a->rowptr[i]; k < a->rowptr[i + 1]; k++) {
            const double *b = B + (size_t)a->col[k] * ldb;
            double v = a->val[k];
            for (int j = 0; j < m; j++)
                c[j] += v * b[j];
        }
    }
}
