/*
 * red_solve.c: the linear solves of the reduction routines: a sparse
 * Cholesky factorisation of A + beta B (SuiteSparse CHOLMOD, supernodal,
 * with its fill-reducing ordering) and solves with many right-hand sides.
 * Used for the static shapes, Craig-Bampton constraint modes, the trial
 * vector derivatives and the shift-invert Lanczos of red_modal.c, at every
 * model size: CHOLMOD is as exact as a dense Cholesky on small matrices.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <suitesparse/cholmod.h>

#include "jnt/jnt.h"
#include "red_impl.h"

/* Below this reciprocal condition estimate (CHOLMOD's min/max pivot ratio,
 * an optimistic estimate) the matrix is taken as singular: a free-free
 * structure's K passes the Cholesky with round-off pivots. */
#define RED_RCOND_MIN 1e-12

struct red_fact {
    int n;
    cholmod_common c;
    cholmod_factor *l;
    cholmod_dense *x, *y, *e; /* solve2 workspace, reused */
};

/* A CHOLMOD view (no copy) of the upper triangle of a symmetric fe_sparse. */
static cholmod_sparse view(const fe_sparse *a)
{
    cholmod_sparse s;
    memset(&s, 0, sizeof s);
    s.nrow = s.ncol = (size_t)a->n;
    s.nzmax = (size_t)a->nnz;
    s.p = a->colptr;
    s.i = a->rowind;
    s.x = a->val;
    s.stype = 1; /* symmetric, entries below the diagonal ignored */
    s.itype = CHOLMOD_INT;
    s.xtype = CHOLMOD_REAL;
    s.dtype = CHOLMOD_DOUBLE;
    s.sorted = 1;
    s.packed = 1;
    return s;
}

/* See red_impl.h. */
int red_fact_new(const fe_sparse *a, const fe_sparse *b, double beta, red_fact **out, char *err,
                 size_t errn)
{
    *out = NULL;
    if (!a || a->n <= 0 || (b && b->n != a->n))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_fact_new: bad matrix sizes");
    red_fact *f = calloc(1, sizeof *f);
    if (!f)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for a factorisation");
    f->n = a->n;
    cholmod_start(&f->c);
    f->c.print = 0; /* failures come back as statuses with our messages */
    cholmod_sparse av = view(a), bv, *sum = NULL, *use = &av;
    if (b && beta != 0) {
        bv = view(b);
        double one[2] = {1, 0}, bb[2] = {beta, 0};
        sum = cholmod_add(&av, &bv, one, bb, 1, 1, &f->c);
        if (!sum) {
            red_fact_free(f);
            return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory adding two %d x %d matrices",
                            a->n, a->n);
        }
        use = sum;
    }
    f->l = cholmod_analyze(use, &f->c);
    int ok = f->l && cholmod_factorize(use, f->l, &f->c);
    int status = f->c.status;
    cholmod_free_sparse(&sum, &f->c);
    if (!ok || status < 0) {
        int nomem = status == CHOLMOD_OUT_OF_MEMORY || status == CHOLMOD_TOO_LARGE;
        red_fact_free(f);
        return jnt_errf(err, errn, nomem ? JNT_ERR_NOMEM : JNT_ERR_SOLVER,
                        "the sparse Cholesky factorisation (CHOLMOD) of a %d x %d matrix failed "
                        "(status %d)", a->n, a->n, status);
    }
    if (status == CHOLMOD_NOT_POSDEF || f->l->minor < f->l->n ||
        !(cholmod_rcond(f->l, &f->c) >= RED_RCOND_MIN)) {
        red_fact_free(f);
        return 1;
    }
    *out = f;
    return JNT_OK;
}

/* See red_impl.h. */
int red_fact_solve(red_fact *f, double *x, int nrhs, char *err, size_t errn)
{
    /* RED_SOLVE_BLOCK columns at a time: CHOLMOD's solution and work arrays
     * stay n x RED_SOLVE_BLOCK however many right-hand sides there are */
    for (int j0 = 0; j0 < nrhs; j0 += RED_SOLVE_BLOCK) {
        int nb = nrhs - j0 < RED_SOLVE_BLOCK ? nrhs - j0 : RED_SOLVE_BLOCK;
        double *xb = x + (size_t)f->n * (size_t)j0;
        cholmod_dense bd;
        memset(&bd, 0, sizeof bd);
        bd.nrow = (size_t)f->n;
        bd.ncol = (size_t)nb;
        bd.nzmax = bd.d = (size_t)f->n;
        bd.nzmax *= (size_t)nb;
        bd.x = xb;
        bd.xtype = CHOLMOD_REAL;
        bd.dtype = CHOLMOD_DOUBLE;
        if (!cholmod_solve2(CHOLMOD_A, f->l, &bd, NULL, &f->x, NULL, &f->y, &f->e, &f->c))
            return jnt_errf(err, errn,
                            f->c.status == CHOLMOD_OUT_OF_MEMORY ? JNT_ERR_NOMEM : JNT_ERR_SOLVER,
                            "the sparse triangular solves (CHOLMOD) failed (status %d)",
                            f->c.status);
        memcpy(xb, f->x->x, (size_t)f->n * (size_t)nb * sizeof *x);
    }
    return JNT_OK;
}

/* See red_impl.h. */
double red_shift_scale(const fe_sparse *k, const fe_sparse *m)
{
    double s = HUGE_VAL;
    for (int j = 0; j < k->n; j++) {
        double kj = 0, mj = 0;
        for (int p = k->colptr[j]; p < k->colptr[j + 1]; p++)
            if (k->rowind[p] == j)
                kj = k->val[p];
        for (int p = m->colptr[j]; p < m->colptr[j + 1]; p++)
            if (m->rowind[p] == j)
                mj = m->val[p];
        if (kj > 0 && mj > 0 && kj / mj < s)
            s = kj / mj;
    }
    return s < HUGE_VAL ? s : 1.0;
}

/* See red_impl.h. */
void red_fact_free(red_fact *f)
{
    if (!f)
        return;
    cholmod_free_dense(&f->x, &f->c);
    cholmod_free_dense(&f->y, &f->c);
    cholmod_free_dense(&f->e, &f->c);
    cholmod_free_factor(&f->l, &f->c);
    cholmod_finish(&f->c);
    free(f);
}
