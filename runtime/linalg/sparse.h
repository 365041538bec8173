/*
 * sparse.h: LU factorisation of the Newton matrices of the implicit
 * integrators (internal): one type for the sparse path (KLU, SuiteSparse)
 * and the dense one (LAPACK dgetrf/dgetrs), chosen once per run.
 *
 * The matrix is given as a compressed-column pattern (not owned; it must
 * outlive the object) and, at each factorisation, its values in pattern
 * order. KLU analyses the pattern once (sparse_lu_init), factorises with
 * partial pivoting at the first call and after a pivot went bad, and
 * otherwise refactorises with the previous pivot order (klu_refactor), which
 * skips the search. The dense path scatters the values into an n x n array.
 *
 * The crossover (measured on multimass chains, docs/language.md
 * "Integrators"): KLU from SPARSE_MIN_N unknowns on when the matrix has at
 * most SPARSE_COL_NNZ entries per column or at most SPARSE_MAX_DENSITY of
 * it is nonzero; LAPACK otherwise. On chains KLU is faster from 6 unknowns
 * on (1.3x at 6, 3x at 100, 7x for radau's 400); LAPACK's blocked LU wins
 * on matrices that are mostly full.
 */
#ifndef JNT_SPARSE_H
#define JNT_SPARSE_H

#include <stddef.h>

#define SPARSE_MIN_N 8
#define SPARSE_COL_NNZ 8
#define SPARSE_MAX_DENSITY 0.1

/* How to factorise: the measured crossover, or forced (tests, JNT_LINSOLVE).
 * SPARSE_LOOPS: dense, by dense.h's plain loops at any order, for a few
 * factorisations of a small matrix (a multibody model's consistent start
 * before an integrator that needs no LU library): it loads no library, where
 * KLU's first call under `jnt run` loads five (compiler/cli/lazy.c, about
 * 0.3 ms) and LAPACK's OpenBLAS (about 2 ms). */
enum { SPARSE_AUTO, SPARSE_DENSE, SPARSE_KLU, SPARSE_LOOPS };

typedef struct sparse_lu {
    int n, nnz;
    const int *colptr, *rowind; /* the pattern (not owned) */
    int klu;                    /* 1: KLU, 0: LAPACK on a dense copy */
    int loops;                  /* dense by dense.h's loops instead of LAPACK (SPARSE_LOOPS) */
    int factored;               /* KLU: a numeric factorisation exists */
    double *a;                  /* dense: n x n, column-major, the LU factors */
    int *ipiv;                  /* dense: n pivots */
    void *sym, *num, *common;   /* KLU's objects */
} sparse_lu;

/* The path a matrix of n unknowns and nnz entries takes in mode `mode`
 * (SPARSE_AUTO picks by the crossover; JNT_LINSOLVE=dense|sparse in the
 * environment overrides AUTO). Returns SPARSE_DENSE or SPARSE_KLU. */
int sparse_choose(int n, long nnz, int mode);

/* Prepare for matrices of pattern (colptr, rowind), n x n, taking path
 * `path` (SPARSE_DENSE, SPARSE_LOOPS or SPARSE_KLU): allocates, and for KLU analyses the
 * pattern. The dense path may go without a pattern (NULL, NULL): the caller
 * then fills s->a and factorises with val NULL. Returns 0, or -1 when out of memory or the pattern is invalid
 * (s is then safe to free). */
int sparse_lu_init(sparse_lu *s, int n, const int *colptr, const int *rowind, int path);

/* Factorise the matrix with values val (nnz, pattern order), or on the
 * dense path with val NULL the n x n array s->a as the caller filled it
 * (column-major). Returns 0;
 * 1 + j when the matrix is singular (j: a column whose pivot is zero);
 * -1 on an internal failure (out of memory). */
int sparse_lu_factor(sparse_lu *s, const double *val);

/* Solve A x = b in place (b: n values) with the last factorisation.
 * Returns 0 or -1. */
int sparse_lu_solve(sparse_lu *s, double *b);

/* Bytes held by the factors (KLU: L, U and the rest; dense: n^2 doubles). */
size_t sparse_lu_bytes(const sparse_lu *s);

void sparse_lu_free(sparse_lu *s);

#endif
