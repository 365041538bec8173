/*
 * csr.h: compressed sparse row matrices and their products (internal).
 *
 * A csr_mat owns its three arrays; it is built once from dense rows
 * (exact zeros dropped) and then only read: the products allocate nothing
 * and call no BLAS, so they may run inside a step loop. The sliding
 * interfaces (couple/slide*.c) keep the rows of their interface ports in
 * one csr_mat per substructure (a Craig-Bampton kept DOF is a unit row).
 *
 *   csr_mat R;
 *   if (csr_from_rows(&R, nrow, ncol, rows, ncol) != 0) ... out of memory ...;
 *   double v = csr_row_dot(&R, i, x);          // row i of R times x
 *   csr_mv(&R, 1.0, x, 0.0, y);                // y = R x
 *   csr_mtv(&R, h, f, g);                      // g += h R^T f
 *   csr_free(&R);
 */
#ifndef JNT_CSR_H
#define JNT_CSR_H

#include <stddef.h>

typedef struct csr_mat {
    int nrow, ncol, nnz;
    int *rowptr;  /* nrow + 1 offsets into col and val */
    int *col;     /* nnz column indices, ascending within a row */
    double *val;  /* nnz values */
} csr_mat;

/* Build a from nrow dense rows of ncol values, row i at rows + i ld (rows
 * may be NULL when nrow is 0), keeping the entries that are not exactly
 * zero. 0, or -1 when out of memory (a is then empty). Free with csr_free. */
int csr_from_rows(csr_mat *a, int nrow, int ncol, const double *rows, size_t ld);

/* Release the arrays of a and empty it (a zeroed csr_mat may be freed). */
void csr_free(csr_mat *a);

/* Row i of a times x (x has a->ncol entries). */
double csr_row_dot(const csr_mat *a, int i, const double *x);

/* y[col] += alpha a[i, col] for the entries of row i (scatter one row). */
void csr_row_axpy(const csr_mat *a, int i, double alpha, double *y);

/* y = alpha a x + beta y (y has a->nrow entries; beta = 0 ignores y's values). */
void csr_mv(const csr_mat *a, double alpha, const double *x, double beta, double *y);

/* y += alpha a^T x (x has a->nrow entries, y a->ncol). */
void csr_mtv(const csr_mat *a, double alpha, const double *x, double *y);

/* C = a B for a dense B of a->ncol rows and m columns stored by rows
 * (row j of B at B + j ldb, m values), written by rows to C (row i at
 * C + i ldc). With B = Phi^T stored column-major this is a Phi by rows. */
void csr_mul_rows(const csr_mat *a, const double *B, size_t ldb, int m, double *C, size_t ldc);

#endif
