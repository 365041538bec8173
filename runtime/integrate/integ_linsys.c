/*
 * integ_linsys.c: the Newton matrices of the implicit methods,
 * M = I - h (A (x) J) for an s-stage tableau A (s = 1, A = 1: the BDF
 * matrix I - gamma J), their Jacobian and their factorisation.
 *
 * M is factorised by linalg/sparse.h: sparse (KLU) when the kernel's
 * Jacobian pattern is the one in y (point-body models) and the crossover
 * says so, M's pattern then being A's nonzero blocks of J's pattern plus
 * the diagonal; dense (LAPACK, M written straight into the factorisation's
 * array) otherwise. KLU analyses M's pattern once per run.
 */
#include <math.h>
#include <stdlib.h>

#include "core/eval.h"
#include "integ.h"
#include "linalg/sparse.h"

#define JAC_KEEP_THETA 0.05 /* keep J for the next step when Newton contracted this fast */

struct integ_linsys {
    sparse_lu lu;
    int sparse;         /* J in the kernel's pattern; M sparse */
    double *J;          /* sparse: jac_nnz values; dense: n x n */
    /* sparse M: pattern (N + 1, nnz), and per entry its J entry (or -1),
     * its block a_ij (index i s + j) and whether it is on the diagonal */
    int *colptr, *rowind, *src, *blk;
    unsigned char *diag;
    double *val;
    int have_j, j_fresh; /* J valid; J evaluated at the current step start */
    double fact_h;       /* h of the factorisation of M; 0: none */
};

/* The sparse M's pattern from J's (the kernel's CSC, rows sorted or not). */
static int linsys_pattern(integ_linsys *w, const integ_irk *k, const jnt_abi_model *a)
{
    int n = a->ny, s = k->s, N = s * n;
    const int *jc = a->jac_colptr, *jr = a->jac_rowind;
    size_t cap = 0;
    for (int bj = 0; bj < s; bj++)
        for (int bi = 0; bi < s; bi++)
            if (k->a[bi * s + bj] != 0.0 || bi == bj)
                cap += (size_t)jc[n] + (bi == bj ? (size_t)n : 0);
    w->colptr = malloc(((size_t)N + 1) * sizeof *w->colptr);
    w->rowind = malloc(cap * sizeof *w->rowind + 1);
    w->src = malloc(cap * sizeof *w->src + 1);
    w->blk = malloc(cap * sizeof *w->blk + 1);
    w->diag = malloc(cap + 1);
    w->val = malloc(cap * sizeof *w->val + 1);
    w->J = malloc((size_t)jc[n] * sizeof *w->J + 1);
    if (!w->colptr || !w->rowind || !w->src || !w->blk || !w->diag || !w->val || !w->J)
        return -1;
    int e = 0;
    for (int bj = 0; bj < s; bj++) {
        for (int c = 0; c < n; c++) {
            w->colptr[bj * n + c] = e;
            for (int bi = 0; bi < s; bi++) {
                int on = k->a[bi * s + bj] != 0.0, has_diag = 0;
                if (!on && bi != bj)
                    continue;
                for (int q = jc[c]; q < jc[c + 1] && on; q++) {
                    int d = bi == bj && jr[q] == c;
                    has_diag |= d;
                    w->rowind[e] = bi * n + jr[q], w->src[e] = q, w->blk[e] = bi * s + bj;
                    w->diag[e++] = (unsigned char)d;
                }
                if (bi == bj && !has_diag) {
                    w->rowind[e] = bi * n + c, w->src[e] = -1, w->blk[e] = bi * s + bj;
                    w->diag[e++] = 1;
                }
            }
        }
    }
    w->colptr[N] = e;
    return 0;
}

/* See integ.h. */
int integ_linsys_sparse_pays(const jnt_abi_model *a, const integ_irk *k)
{
    if (!eval_jac_is_y(a))
        return 0;
    int n = a->ny;
    long nnz = 0;
    for (int bj = 0; bj < k->s; bj++)
        for (int bi = 0; bi < k->s; bi++)
            if (k->a[bi * k->s + bj] != 0.0 || bi == bj)
                nnz += a->jac_nnz + (bi == bj ? n : 0);
    return sparse_choose(k->s * n, nnz, SPARSE_AUTO) == SPARSE_KLU;
}

/* See integ.h. */
int integ_linsys_new(integ_run *r, const integ_irk *k, integ_linsys **out)
{
    const jnt_abi_model *a = r->abi;
    int n = a->ny, N = k->s * n;
    integ_linsys *w = calloc(1, sizeof *w);
    *out = w;
    if (!w)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting Newton");
    int path = integ_linsys_sparse_pays(a, k) ? SPARSE_KLU : SPARSE_DENSE;
    int rc;
    if (path == SPARSE_KLU) {
        w->sparse = 1;
        rc = linsys_pattern(w, k, a) ? -1 : sparse_lu_init(&w->lu, N, w->colptr, w->rowind, path);
    } else {
        /* the dense M is written into the factorisation's own array */
        w->J = malloc((size_t)n * (size_t)n * sizeof *w->J + 1);
        rc = !w->J ? -1 : sparse_lu_init(&w->lu, N, NULL, NULL, SPARSE_DENSE);
    }
    if (rc != 0)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory for the %d x %d Newton matrix",
                          N, N);
    return 0;
}

/* See integ.h. */
void integ_linsys_free(integ_linsys *w)
{
    if (!w)
        return;
    sparse_lu_free(&w->lu);
    free(w->J), free(w->colptr), free(w->rowind), free(w->src), free(w->blk), free(w->diag);
    free(w->val);
    free(w);
}

/* See integ.h. */
int integ_linsys_update(integ_run *r, integ_linsys *w, double t, const double *y,
                        const double *fy, double *tmp, int force)
{
    if (w->have_j && !force)
        return 0;
    int rc = w->sparse ? integ_jac_sparse(r, t, y, w->J) : integ_jac_dense(r, t, y, fy, w->J, tmp);
    if (rc != 0)
        return rc;
    w->have_j = w->j_fresh = 1;
    w->fact_h = 0.0;
    return 0;
}

/* See integ.h. */
int integ_linsys_fresh(const integ_linsys *w)
{
    return w->j_fresh;
}

/* See integ.h. */
void integ_linsys_step_done(integ_linsys *w, double theta)
{
    w->have_j = theta <= JAC_KEEP_THETA;
    w->j_fresh = 0;
}

/* See integ.h. */
int integ_linsys_factor(integ_run *r, integ_linsys *w, const integ_irk *k, double h)
{
    /* the grid's rounding changes h in its last bits: M only steers Newton,
     * whose residual uses the exact h */
    if (w->fact_h != 0.0 && fabs(h - w->fact_h) <= 1e-9 * fabs(h))
        return 0;
    int n = r->abi->ny, s = k->s, N = s * n;
    const double *J = w->J;
    if (w->sparse) {
        for (int e = 0; e < w->colptr[N]; e++) {
            double v = w->diag[e] ? 1.0 : 0.0;
            if (w->src[e] >= 0)
                v -= h * k->a[w->blk[e]] * J[w->src[e]];
            w->val[e] = v;
        }
    } else {
        double *M = w->lu.a;
        for (int bj = 0; bj < s; bj++) {
            for (int c = 0; c < n; c++) {
                double *col = M + (size_t)(bj * n + c) * N;
                for (int bi = 0; bi < s; bi++) {
                    double ha = h * k->a[bi * s + bj];
                    for (int i = 0; i < n; i++)
                        col[bi * n + i] = -ha * J[(size_t)c * n + i];
                }
                col[bj * n + c] += 1.0;
            }
        }
    }
    r->st->lu_decomps++;
    int info = sparse_lu_factor(&w->lu, w->sparse ? w->val : NULL);
    if (info != 0)
        return integ_factor_failed(r, info, n);
    w->fact_h = h;
    return 0;
}

/* See integ.h. */
int integ_linsys_solve(integ_linsys *w, double *b)
{
    return sparse_lu_solve(&w->lu, b);
}
