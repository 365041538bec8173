/*
 * dense.h: LU factorisation with partial pivoting and QR with column
 * pivoting of small dense matrices in plain loops (internal), for the Newton
 * matrices and the assembly of small models.
 *
 * A model of a few states (seed 002's FrDyn2 bench: a 3 x 3 condensed BDF
 * matrix) called OpenBLAS only for its LU, and loading OpenBLAS cost 2.2 ms
 * of a 5.6 ms process (docs/performance.md, "Start-up"). Below DENSE_SMALL_N
 * unknowns these routines replace dgetrf/dgetrs, so that such a model loads
 * no numerical library. They follow OpenBLAS's unblocked getf2 (left-looking,
 * Crout order: column j gets the earlier pivots, the unit lower solve and
 * the update by the columns left of it, then its pivot, the first entry of
 * largest magnitude, and the scaling by the pivot's reciprocal) and its
 * column-oriented triangular solves, with the same pivots and the same zero
 * pivot report; results agree with LAPACK's to rounding (its kernels sum in
 * other orders and with FMA), checked by tests/unit/test_dense.c on random
 * and ill-conditioned matrices.
 */
#ifndef JNT_DENSE_H
#define JNT_DENSE_H

/* The largest order the plain loops take (below it OpenBLAS's blocked LU is
 * no faster: tests/unit/test_dense.c prints the times). */
#define DENSE_SMALL_N 16

/* LU with partial pivoting of the n x n column-major matrix a (leading
 * dimension lda), in place as dgetrf: P a = L U, L unit lower, ipiv[j] the
 * 1-based row swapped with row j + 1. Returns 0, or the 1-based index of
 * the first zero pivot (the factorisation is then completed, as LAPACK's,
 * and must not be used to solve). */
int dense_lu_factor(int n, double *a, int lda, int *ipiv);

/* Solve a x = b with the factors of dense_lu_factor, in place in b (one
 * right-hand side, as dgetrs with trans 'N'). */
void dense_lu_solve(int n, const double *lu, int lda, const int *ipiv, double *b);

/* The most columns dense_qp3 takes (its norms live on the stack). Assembly
 * (runtime/integrate/assemble.c) factors with it when both dimensions are
 * at most this; LAPACK's dgeqp3 is then its unblocked dlaqp2 on level-2
 * OpenBLAS kernels, and the plain loops cost at most about what loading
 * OpenBLAS does (tests/unit/test_dense.c prints both times). */
#define DENSE_QR_MAX 64

/* QR with column pivoting of the m x n column-major a (lda), in place as
 * LAPACK's dgeqp3 with every column free (jpvt all zero on entry): A P =
 * Q R, R on and above the diagonal, Q = H(1) ... H(min(m, n)) with H(i) =
 * I - tau[i] v v^T, v = (0 .. 0, 1, a(i+1:m, i)); jpvt[j] the 1-based
 * column of A at position j. The same algorithm (dlaqp2: largest remaining
 * partial norm, downdated and recomputed when cancellation took half its
 * digits), so the same pivots and R to rounding. Returns 0, or -1 when n >
 * DENSE_QR_MAX or a dimension is negative (a untouched). */
int dense_qp3(int m, int n, double *a, int lda, int *jpvt, double *tau);

/* c = Q c for one column of m entries, Q = H(1) ... H(k) from dense_qp3's a
 * (lda) and tau, as LAPACK's dormqr with side 'L' and trans 'N'. */
void dense_qr_apply(int m, int k, const double *a, int lda, const double *tau, double *c);

/* y += alpha A x for the m x n column-major A (leading dimension lda), as
 * dgemv with beta 1: the sum A x first, then scaled and added. */
void dense_gemv_add(int m, int n, double alpha, const double *a, int lda, const double *x,
                    double *y);

#endif
