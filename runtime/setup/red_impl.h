/*
 * red_impl.h: internals shared by the reduction files (red_*.c) and their
 * unit test: sparse sub-matrices, the factorisation of A + beta B
 * (CHOLMOD), the dense and sparse generalised eigensolvers, and the raw
 * trial vector derivatives of red_jtv. Errors go through jnt_errf (err.h).
 * Not part of the public interface (red.h).
 */
#ifndef JNT_RED_IMPL_H
#define JNT_RED_IMPL_H

#include <stddef.h>

#include "core/err.h"
#include "jnt/setup.h"

/* DOF count from which eigenproblems go the sparse (ARPACK) way when the
 * caller does not say (red_modal's sparse_from = 0, Craig-Bampton). */
#define RED_SPARSE_DEFAULT 500

/* Columns handled at a time where a basis is built or projected column by
 * column (solves, constraint modes, projections): the work arrays are
 * n x RED_SOLVE_BLOCK, so that a reduction's memory is the basis (n x r),
 * the sparse matrices and the factor, never a second n x r copy. */
#define RED_SOLVE_BLOCK 32

/* Rows handled at a time where a basis is multiplied in place by a small
 * matrix (red_mul_inplace): the copy is RED_ROW_BLOCK x r. */
#define RED_ROW_BLOCK 256

/* phi := phi Y in place: phi is n x r (column-major, leading dimension n),
 * Y is r x rn (leading dimension ldy, rn <= r); the result takes the first
 * rn columns of phi. tmp is RED_ROW_BLOCK x r scratch. So that a change of
 * basis (orthogonalisation) needs no second n x r array. */
void red_mul_inplace(int n, int r, double *phi, const double *y, int ldy, int rn, double *tmp);

/* Flip the sign of each column of the n x r phi so that its entry of
 * largest magnitude is positive (a deterministic sign for mode shapes). */
void red_fix_signs(int n, int r, double *phi);

/* A Cholesky factorisation of the symmetric positive definite A + beta B
 * (B may be NULL), CHOLMOD supernodal, fill-reducing ordering. */
typedef struct red_fact red_fact;

/* Factorise; 0, 1 when A + beta B is not (numerically) positive definite
 * (a pivot fails, or the reciprocal condition estimate is below 1e-14),
 * or a negative status with a message. *out is NULL unless 0 is returned. */
int red_fact_new(const fe_sparse *a, const fe_sparse *b, double beta, red_fact **out, char *err,
                 size_t errn);
/* Overwrite the n x nrhs column-major x with (A + beta B)^-1 x, in blocks of
 * RED_SOLVE_BLOCK columns; 0 or a negative status. */
int red_fact_solve(red_fact *f, double *x, int nrhs, char *err, size_t errn);
void red_fact_free(red_fact *f);

/* min_j K_jj / M_jj over the DOFs where both are positive (1 if none): of
 * the order of the largest eigenvalues of (K, M); shifts for a singular K
 * are small multiples of it. */
double red_shift_scale(const fe_sparse *k, const fe_sparse *m);

/* The `nev` lowest eigenpairs of K phi = lambda M phi: lambda ascending,
 * phi (n x nev) M-orthonormal with red_fix_signs. Dense (dsygvx/dsygvd)
 * when n < sparse_from, else CHOLMOD shift-invert + ARPACK Lanczos. */
int red_eig(const fe_sparse *k, const fe_sparse *m, int nev, int sparse_from, double *phi,
            double *lambda, char *err, size_t errn);
/* The same with kf, the caller's factorisation of K (red_fact_new(k, NULL,
 * 0, ...)), for the sparse path to use (shift 0) instead of factorising K
 * again; NULL: as red_eig. kf stays the caller's. */
int red_eig_fact(const fe_sparse *k, const fe_sparse *m, int nev, int sparse_from, red_fact *kf,
                 double *phi, double *lambda, char *err, size_t errn);

/* The trial vector derivatives of eq. 7 (seed 000) of the columns of base
 * as given: d_ij = K^-1 (dK/dq_j) phi_i for 0 <= i <= j < r (d_ij = d_ji),
 * column i + j (j + 1) / 2 of out, with dK/dq_j = sum_c dk_c/dg
 * (b_c^T phi_j) b_c b_c^T, b_c = e_a - e_b. For tests and diagnostics. */
int red_tvd(const fe_model *m, const red_basis *base, const red_joint *joint, red_basis *out,
            char *err, size_t errn);
/* The one-sided TVDs (red_jtv.c's header): 2 r^2 columns, d^+_ij at
 * 2 (i + r j) and d^-_ij at 2 (i + r j) + 1, unweighted. */
int red_tvd_onesided(const fe_model *m, const red_basis *base, const red_joint *joint,
                     red_basis *out, char *err, size_t errn);

/* The DOF of component c of node p in M's numbering (dof0: the full mesh's
 * numbering with fixed DOFs kept, else the model's free DOFs; red_ffrf.c). */
int red_dof_of(const fe_model *fe, const int *dof0, int p, int c);
/* A flexible2d body's mesh: every node a plane node with ux and uy only, both
 * numbered below n. JNT_OK, or JNT_ERR_MODEL with the node named in err. */
int red_plane_mesh(const fe_model *fe, const int *dof0, int n, char *err, size_t errn);

#endif
