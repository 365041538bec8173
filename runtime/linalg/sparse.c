/*
 * sparse.c: the Newton matrices' LU, sparse (KLU) or dense (LAPACK, or
 * dense.h's plain loops) (sparse.h).
 *
 * LAPACK is called directly (dgetrf_, dgetrs_): the LAPACKE wrappers scan
 * the matrix for NaN at every call, which cost 20 % of a dense solve.
 */
#include <suitesparse/klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"
#include "sparse.h"

void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info, size_t trans_len);

/* Below this reciprocal pivot growth a refactorisation with the old pivot
 * order is not trusted: factorise again with pivoting. */
#define REFACTOR_MIN_RGROWTH 1e-8

/* See sparse.h. */
int sparse_choose(int n, long nnz, int mode)
{
    if (mode == SPARSE_AUTO) {
        const char *env = getenv("JNT_LINSOLVE");
        if (env && strcmp(env, "dense") == 0)
            mode = SPARSE_DENSE;
        else if (env && strcmp(env, "sparse") == 0)
            mode = SPARSE_KLU;
    }
    if (mode != SPARSE_AUTO)
        return mode;
    double cap = fmax((double)SPARSE_COL_NNZ * n, SPARSE_MAX_DENSITY * (double)n * n);
    return n >= SPARSE_MIN_N && (double)nnz <= cap ? SPARSE_KLU : SPARSE_DENSE;
}

/* Is (colptr, rowind) a valid n x n pattern? */
static int pattern_ok(int n, const int *colptr, const int *rowind)
{
    if (n < 0 || !colptr || colptr[0] != 0)
        return 0;
    for (int j = 0; j < n; j++) {
        if (colptr[j + 1] < colptr[j])
            return 0;
        for (int k = colptr[j]; k < colptr[j + 1]; k++)
            if (rowind[k] < 0 || rowind[k] >= n)
                return 0;
    }
    return 1;
}

/* See sparse.h. */
int sparse_lu_init(sparse_lu *s, int n, const int *colptr, const int *rowind, int path)
{
    memset(s, 0, sizeof *s);
    int bare = path == SPARSE_DENSE && !colptr && !rowind;
    if (!bare && !pattern_ok(n, colptr, rowind))
        return -1;
    s->n = n;
    s->nnz = bare ? 0 : colptr[n];
    s->colptr = colptr;
    s->rowind = rowind;
    s->klu = path == SPARSE_KLU;
    s->loops = path == SPARSE_LOOPS;
    if (!s->klu) {
        s->a = malloc((size_t)n * (size_t)n * sizeof *s->a + 1);
        s->ipiv = malloc((size_t)n * sizeof *s->ipiv + 1);
        return s->a && s->ipiv ? 0 : -1;
    }
    klu_common *c = malloc(sizeof *c);
    s->common = c;
    if (!c || !klu_defaults(c))
        return -1;
    c->halt_if_singular = 1;
    /* KLU's prototypes take non-const patterns but do not write them */
    s->sym = klu_analyze(n, (int *)colptr, (int *)rowind, c);
    return s->sym ? 0 : -1;
}

/* KLU's verdict on a failed (re)factorisation. */
static int klu_failed(sparse_lu *s)
{
    klu_common *c = s->common;
    if (c->status == KLU_SINGULAR) {
        int j = c->singular_col;
        return 1 + (j >= 0 && j < s->n ? j : 0);
    }
    return -1;
}

/* See sparse.h. */
int sparse_lu_factor(sparse_lu *s, const double *val)
{
    int n = s->n;
    if (!s->klu) {
        if (val)
            memset(s->a, 0, (size_t)n * (size_t)n * sizeof *s->a);
        for (int j = 0; j < n && val; j++)
            for (int k = s->colptr[j]; k < s->colptr[j + 1]; k++)
                s->a[(size_t)j * n + s->rowind[k]] += val[k];
        int info = 0;
        if (n > 0 && s->loops)
            info = dense_lu_factor(n, s->a, n, s->ipiv);
        else if (n > 0)
            dgetrf_(&n, &n, s->a, &n, s->ipiv, &info);
        return info > 0 ? info : info < 0 ? -1 : 0;
    }
    klu_common *c = s->common;
    klu_symbolic *sym = s->sym;
    if (s->factored) {
        klu_numeric *num = s->num;
        if (klu_refactor((int *)s->colptr, (int *)s->rowind, (double *)val, sym, num, c) &&
            klu_rgrowth((int *)s->colptr, (int *)s->rowind, (double *)val, sym, num, c) &&
            c->rgrowth >= REFACTOR_MIN_RGROWTH)
            return 0;
        klu_free_numeric(&num, c);
        s->num = NULL;
        s->factored = 0;
    }
    s->num = klu_factor((int *)s->colptr, (int *)s->rowind, (double *)val, sym, c);
    if (!s->num)
        return klu_failed(s);
    s->factored = 1;
    return 0;
}

/* See sparse.h. */
int sparse_lu_solve(sparse_lu *s, double *b)
{
    int n = s->n;
    if (n == 0)
        return 0;
    if (s->loops) {
        dense_lu_solve(n, s->a, n, s->ipiv, b);
        return 0;
    }
    if (!s->klu) {
        int one = 1, info = 0;
        dgetrs_("N", &n, &one, s->a, &n, s->ipiv, b, &n, &info, 1);
        return info == 0 ? 0 : -1;
    }
    if (!s->factored)
        return -1;
    return klu_solve(s->sym, s->num, n, 1, b, s->common) ? 0 : -1;
}

/* See sparse.h. */
size_t sparse_lu_bytes(const sparse_lu *s)
{
    if (!s->klu)
        return (size_t)s->n * (size_t)s->n * sizeof(double);
    return s->common ? ((klu_common *)s->common)->memusage : 0;
}

/* See sparse.h. */
void sparse_lu_free(sparse_lu *s)
{
    klu_common *c = s->common;
    if (c) {
        klu_numeric *num = s->num;
        klu_symbolic *sym = s->sym;
        if (num)
            klu_free_numeric(&num, c);
        if (sym)
            klu_free_symbolic(&sym, c);
        free(c);
    }
    free(s->a);
    free(s->ipiv);
    memset(s, 0, sizeof *s);
}
