/*
 * integ_ida.c: "ida", SUNDIALS IDA (variable-order, variable-step BDF,
 * Brenan, Campbell and Petzold's DASSL method; Hindmarsh et al., ACM TOMS 31
 * (2005)) on the multibody DAE of abi.h in the stabilised index-2 form of
 * Gear, Gupta and Leimkuhler (GGL; Hairer and Wanner, Solving ODEs II, Sect.
 * VII.1, eq. 1.23): with y = [q, v, z, lambda] and one more multiplier mu_k
 * per constraint row, IDA solves F(t, Y, Y') = 0 for Y = [y, mu]:
 *   q rows:       q' - v + C_q^T mu
 *   v rows:       M(q) v' - (Q - C_q^T lambda)
 *   z rows:       z' - f_z
 *   lambda rows:  -C(q, t)
 *   mu rows:      C_q v + C_t
 * (the rhs kernel gives v, Q - C_q^T lambda, f_z and C in y's rows, so the
 * first four blocks are B(y) y' - f(t, y) with B = diag(I, M, I, 0); the
 * cons_rates kernel gives C_q v + C_t). Both C = 0 and C_q v + C_t = 0 hold
 * at every step; mu is O(h^(k+1)), zero in the exact solution. lambda and
 * mu are algebraic (index 2): out of the error test (IDASetSuppressAlg),
 * and in Newton's convergence test with their weights times h (ida_ewt),
 * RADAU5's index scaling (HNW II, Sect. VII.5 and VI.6: NIND2): their
 * corrections grow as 1/h. (With plain weights the corrector fails from
 * the first step on Andrews' squeezer, as in bench/peer_andrews_ida.c; with
 * none, Andrews with IDA's own first step took 60,098 steps and 27,243
 * rejections to 0.03 s at rtol 1e-10 against 4,530 and 87, its error 3.1e-6
 * rad against 4.8e-9.)
 *
 * C_q^T mu is formed with C_q(q_n) at the step's start, fixed for the step
 * as Arnold, Bruls and Cardona (Numer. Math. 129 (2015)) fix that direction
 * (integ_dae.c): mu only has to move q across the constraints, and the
 * residual costs no Jacobian. (C_q from IDA's last Jacobian, kept over many
 * steps, changed the residual within a step whenever IDA formed a new
 * matrix: 45 times the Newton failures on examples/double_pendulum.jnt.)
 *
 * Newton matrix dF/dY + cj dF/dY' (IDA's modified Newton keeps it across
 * steps while it converges): -J + cj B on y's columns (J the model's
 * Jacobian in its sparse pattern, M's values in the v rows), C_q^T in the
 * mu columns of the q rows, C_q in the v columns of the mu rows. Left out:
 * (M v')_q, (C_q^T mu)_q and (C_q v)_q (IDA converges with an approximate
 * matrix). It is factorised by linalg/sparse.h (KLU from 8 unknowns on
 * sparse matrices, LAPACK otherwise) through a SUNLinearSolver of our own:
 * no SUNDIALS matrix is formed or copied.
 *
 * A redundant constraint row the assembly dropped (data.h's cons_off) has
 * lambda_k = mu_k = 0 as its equations.
 *
 * Start and reset: consistent q, v, lambda and q'' (integ_dae_consistent),
 * Y' = [v, q'', f_z, 0, 0], mu = 0. Output between step ends: IDA's
 * interpolating polynomial (IDAGetDky).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <ida/ida_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "integ.h"

/* Newton's convergence coefficient (IDASetNonlinConvCoef; ida_start says why) */
#define IDA_NL_COEF 0.02

/* IDA's objects and the Newton matrix of one run. */
typedef struct ida_mem {
    SUNContext ctx;
    N_Vector yy, yp, id, dky;
    SUNMatrix A;        /* 1 x 1 placeholder: the matrix is ours (lu) */
    SUNLinearSolver ls;
    void *ida;
    integ_run *r;
    int nq, nz, nc, ny, N, c0; /* c0: the first lambda row, 2 nq + nz */
    double *jv;         /* the Jacobian's values (model pattern) */
    double *jq;         /* the same at the step's start: C_q(q_n) for C_q^T mu */
    double *mv;         /* M's values */
    int have_m;         /* mv current (kept when mass_const) */
    double *f, *cr;     /* rhs (ny), constraint rates (3 nc) */
    double *cqt;        /* C_q^T mu (nq) */
    /* C_q by rows: row k's entries are jv[cq_e[cq_ptr[k] .. cq_ptr[k + 1])] at q_{cq_col} */
    int *cq_ptr, *cq_e, *cq_col;
    /* the Newton matrix: pattern, values, and where each source lands */
    int *colptr, *rowind, nnz;
    double *val;
    int *pj;            /* jnnz: J entry e's position (-J) */
    int *pm;            /* mnnz: M entry k's position in the v rows (cj M) */
    int *pd;            /* N: the diagonal's position in the q, z, lambda and mu rows, else -1 */
    int *pmu, *pvm;     /* jnnz: C_q entry e's position in mu's column / mu's row, else -1 */
    sparse_lu lu;
    int fatal;          /* status of a fatal failure inside a callback */
    char msg[256];      /* IDA's last error message */
} ida_mem;

static int ida_fatal(ida_mem *m, int rc)
{
    m->fatal = rc;
    return -1;
}

/* ---- the Newton matrix's pattern ------------------------------------------ */

/* Sort a[0 .. n) ascending (short columns: insertion sort). */
static void sort_ints(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        for (; j >= 0 && a[j] > v; j--)
            a[j + 1] = a[j];
        a[j + 1] = v;
    }
}

/* Visit the rows of column c of the Newton matrix (every source, duplicates
 * included): fn(ctx, row, slot), slot the int that records the position. */
typedef void (*visit_fn)(void *ctx, int row, int *slot);
static void visit_column(ida_mem *m, int c, visit_fn fn, void *ctx)
{
    const jnt_model *md = m->r->data->m;
    int nq = m->nq, ny = m->ny;
    if (c < ny) {
        for (int e = md->jcolptr[c]; e < md->jcolptr[c + 1]; e++)
            fn(ctx, md->jrowind[e], &m->pj[e]);
    }
    /* the diagonal of q and z (cj), of lambda and mu (1 for a redundant row) */
    if (c < nq || (c >= 2 * nq && c < m->c0) || c >= m->c0)
        fn(ctx, c, &m->pd[c]);
    if (c >= nq && c < 2 * nq) {
        int j = c - nq;
        for (int k = md->mcolptr[j]; k < md->mcolptr[j + 1]; k++)
            fn(ctx, nq + md->mrowind[k], &m->pm[k]);
        /* C_q(k, j) in the mu rows */
        for (int e = md->jcolptr[j]; e < md->jcolptr[j + 1]; e++)
            if (md->jrowind[e] >= m->c0)
                fn(ctx, ny + md->jrowind[e] - m->c0, &m->pvm[e]);
    }
    if (c >= ny) {
        int k = c - ny;
        for (int p = m->cq_ptr[k]; p < m->cq_ptr[k + 1]; p++)
            fn(ctx, m->cq_col[p], &m->pmu[m->cq_e[p]]);
    }
}

typedef struct collect_ctx {
    int *mark, *buf, n, col;
    const int *where;
} collect_ctx;

static void collect_row(void *p, int row, int *slot)
{
    collect_ctx *c = p;
    (void)slot;
    if (c->mark[row] != c->col) {
        c->mark[row] = c->col;
        if (c->buf)
            c->buf[c->n] = row;
        c->n++;
    }
}

static void place_row(void *p, int row, int *slot)
{
    const collect_ctx *c = p;
    *slot = c->where[row];
}

/* C_q by rows, the pattern and the position maps. 0 or -1 (no memory). */
static int ida_pattern(ida_mem *m)
{
    const jnt_model *md = m->r->data->m;
    int nq = m->nq, nc = m->nc, N = m->N, jnnz = md->jnnz, rc = -1;
    m->cq_ptr = calloc((size_t)nc + 2, sizeof *m->cq_ptr);
    int ncq = 0;
    for (int j = 0; j < nq; j++)
        for (int e = md->jcolptr[j]; e < md->jcolptr[j + 1]; e++)
            ncq += md->jrowind[e] >= m->c0;
    m->cq_e = malloc(((size_t)ncq + 1) * sizeof *m->cq_e);
    m->cq_col = malloc(((size_t)ncq + 1) * sizeof *m->cq_col);
    m->pj = malloc(((size_t)jnnz + 1) * sizeof *m->pj);
    m->pmu = malloc(((size_t)jnnz + 1) * sizeof *m->pmu);
    m->pvm = malloc(((size_t)jnnz + 1) * sizeof *m->pvm);
    m->pm = malloc(((size_t)md->mnnz + 1) * sizeof *m->pm);
    m->pd = malloc(((size_t)N + 1) * sizeof *m->pd);
    m->colptr = malloc(((size_t)N + 1) * sizeof *m->colptr);
    int *mark = malloc((size_t)N * sizeof *mark), *where = malloc((size_t)N * sizeof *where);
    if (!m->cq_ptr || !m->cq_e || !m->cq_col || !m->pj || !m->pmu || !m->pvm || !m->pm ||
        !m->pd || !m->colptr || !mark || !where)
        goto out;
    for (int j = 0; j < nq; j++)
        for (int e = md->jcolptr[j]; e < md->jcolptr[j + 1]; e++)
            if (md->jrowind[e] >= m->c0)
                m->cq_ptr[md->jrowind[e] - m->c0 + 2]++;
    for (int k = 0; k < nc; k++)
        m->cq_ptr[k + 2] += m->cq_ptr[k + 1];
    for (int j = 0; j < nq; j++)
        for (int e = md->jcolptr[j]; e < md->jcolptr[j + 1]; e++)
            if (md->jrowind[e] >= m->c0) {
                int at = m->cq_ptr[md->jrowind[e] - m->c0 + 1]++;
                m->cq_e[at] = e, m->cq_col[at] = j;
            }
    for (int i = 0; i < jnnz; i++)
        m->pj[i] = m->pmu[i] = m->pvm[i] = -1;
    for (int i = 0; i < N; i++)
        m->pd[i] = -1;
    /* count, then fill each column's sorted rows and the positions */
    for (int i = 0; i < N; i++)
        mark[i] = -1;
    collect_ctx cc = {mark, NULL, 0, 0, where};
    m->colptr[0] = 0;
    for (int c = 0; c < N; c++) {
        cc.col = c, cc.n = 0;
        visit_column(m, c, collect_row, &cc);
        m->colptr[c + 1] = m->colptr[c] + cc.n;
    }
    m->nnz = m->colptr[N];
    m->rowind = malloc(((size_t)m->nnz + 1) * sizeof *m->rowind);
    m->val = malloc(((size_t)m->nnz + 1) * sizeof *m->val);
    if (!m->rowind || !m->val)
        goto out;
    for (int i = 0; i < N; i++)
        mark[i] = -1;
    for (int c = 0; c < N; c++) {
        int *rows = m->rowind + m->colptr[c];
        cc.col = c, cc.n = 0, cc.buf = rows;
        visit_column(m, c, collect_row, &cc);
        sort_ints(rows, cc.n);
        for (int p = 0; p < cc.n; p++)
            where[rows[p]] = m->colptr[c] + p;
        visit_column(m, c, place_row, &cc);
    }
    rc = 0;
out:
    free(mark);
    free(where);
    return rc;
}

/* The Newton matrix's values for cj from m->jv and m->mv. */
static void ida_fill(ida_mem *m, double cj)
{
    const jnt_model *md = m->r->data->m;
    memset(m->val, 0, (size_t)m->nnz * sizeof *m->val);
    for (int e = 0; e < md->jnnz; e++) {
        m->val[m->pj[e]] -= m->jv[e];
        if (m->pmu[e] >= 0) {
            m->val[m->pmu[e]] += m->jv[e];
            m->val[m->pvm[e]] += m->jv[e];
        }
    }
    for (int i = 0; i < m->c0; i++)
        if (m->pd[i] >= 0)
            m->val[m->pd[i]] += cj;
    /* a redundant row the assembly dropped (data.h's cons_off; its rows of J
     * are 0): lambda_k = mu_k = 0 */
    const unsigned char *off = m->r->data->cons_off;
    for (int k = 0; m->r->data->ncons_off && k < m->nc; k++)
        if (off[k])
            m->val[m->pd[m->c0 + k]] = m->val[m->pd[m->ny + k]] = 1.0;
    for (int k = 0; k < md->mnnz; k++)
        m->val[m->pm[k]] += cj * m->mv[k];
}

/* ---- IDA's callbacks ---------------------------------------------------- */

/* M at (t, y) into m->mv unless kept. 0, or 1 / -1 (IDA's recoverable, fatal). */
static int ida_mass(ida_mem *m, double t, const double *y)
{
    if (m->have_m && m->r->abi->mass_const)
        return 0;
    int rc = eval_mass(m->r->data->m, m->r->data, t, y, m->mv);
    if (rc != 0)
        return ida_fatal(m, integ_fail(m->r, JNT_ERR_KERNEL, t, "the mass kernel failed "
                                       "(status %d)", rc));
    m->have_m = 1;
    return 0;
}

/* F(t, Y, Y') of the top. 0, 1 (recoverable: IDA retries smaller) or -1. */
static int ida_res(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ud)
{
    ida_mem *m = ud;
    integ_run *r = m->r;
    const double *y = N_VGetArrayPointer(yy), *yd = N_VGetArrayPointer(yp);
    const double *mu = y + m->ny;
    double *res = N_VGetArrayPointer(rr);
    const jnt_model *md = r->data->m;
    int nq = m->nq, rc = integ_rhs(r, t, y, m->f);
    if (rc < 0)
        return ida_fatal(m, rc);
    if (rc > 0)
        return 1;
    if ((rc = ida_mass(m, t, y)) != 0)
        return rc;
    if ((rc = integ_cons_rates(r, t, y, m->cr)) != 0)
        return ida_fatal(m, integ_fail(r, JNT_ERR_KERNEL, t, "the constraint-rates kernel "
                                       "failed (status %d)", rc));
    memset(m->cqt, 0, (size_t)nq * sizeof *m->cqt);
    for (int k = 0; k < m->nc; k++)
        for (int p = m->cq_ptr[k]; p < m->cq_ptr[k + 1]; p++)
            m->cqt[m->cq_col[p]] += m->jq[m->cq_e[p]] * mu[k];
    for (int i = 0; i < nq; i++)
        res[i] = yd[i] - m->f[i] + m->cqt[i];
    for (int i = nq; i < m->ny; i++)
        res[i] = (i < m->c0 ? yd[i] : 0.0) - m->f[i];
    for (int i = 0; i < nq; i++)
        res[nq + i] -= yd[nq + i];
    for (int j = 0; j < nq; j++)
        for (int k = md->mcolptr[j]; k < md->mcolptr[j + 1]; k++)
            res[nq + md->mrowind[k]] += m->mv[k] * yd[nq + j];
    for (int k = 0; k < m->nc; k++)
        res[m->ny + k] = m->cr[2 * m->nc + k];
    for (int k = 0; r->data->ncons_off && k < m->nc; k++)
        if (r->data->cons_off[k])
            res[m->c0 + k] = y[m->c0 + k], res[m->ny + k] = mu[k];
    return 0;
}

/* IDA's Jacobian: the model's at Y, then the Newton matrix for cj (its
 * factorisation follows in ls_setup). */
static int ida_jac(sunrealtype t, sunrealtype cj, N_Vector yy, N_Vector yp, N_Vector rr,
                   SUNMatrix J, void *ud, N_Vector t1, N_Vector t2, N_Vector t3)
{
    (void)yp, (void)rr, (void)J, (void)t1, (void)t2, (void)t3;
    ida_mem *m = ud;
    const double *y = N_VGetArrayPointer(yy);
    int rc = integ_jac_sparse(m->r, t, y, m->jv);
    if (rc < 0)
        return ida_fatal(m, rc);
    if (rc > 0)
        return 1;
    if ((rc = ida_mass(m, t, y)) != 0)
        return rc;
    ida_fill(m, cj);
    return 0;
}

static SUNLinearSolver_Type ls_type(SUNLinearSolver S)
{
    (void)S;
    return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID ls_id(SUNLinearSolver S)
{
    (void)S;
    return SUNLINEARSOLVER_CUSTOM;
}

/* A zero pivot is recoverable: IDA retries with a smaller step. */
static int ls_setup(SUNLinearSolver S, SUNMatrix A)
{
    (void)A;
    ida_mem *m = S->content;
    m->r->st->lu_decomps++;
    int info = sparse_lu_factor(&m->lu, m->val);
    if (info < 0) {
        m->fatal = integ_fail(m->r, JNT_ERR_NOMEM, m->r->t, "out of memory factorising "
                              "the Newton matrix");
        return SUNLS_ILL_INPUT;
    }
    return info == 0 ? SUNLS_SUCCESS : SUNLS_LUFACT_FAIL;
}

static int ls_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol)
{
    (void)A, (void)tol;
    ida_mem *m = S->content;
    if (x != b)
        N_VScale(1.0, b, x);
    return sparse_lu_solve(&m->lu, N_VGetArrayPointer(x)) == 0 ? SUNLS_SUCCESS
                                                              : SUNLS_ILL_INPUT;
}

static int ls_free(SUNLinearSolver S)
{
    if (S) {
        S->content = NULL;
        SUNLinSolFreeEmpty(S);
    }
    return SUNLS_SUCCESS;
}

/* IDA's error weights: 1 / (rtol |y_i| + atol) for q, v and z; for the
 * multipliers (index 2) the same times the current step h, RADAU5's index
 * scaling (HNW II, Sect. VII.5), or 0 before the first step. */
static int ida_ewt(N_Vector yy, N_Vector ewt, void *ud)
{
    ida_mem *m = ud;
    const double *y = N_VGetArrayPointer(yy);
    double *w = N_VGetArrayPointer(ewt), rt = m->r->s.rtol, at = m->r->s.atol;
    sunrealtype h = 0;
    IDAGetCurrentStep(m->ida, &h);
    for (int i = 0; i < m->N; i++) {
        w[i] = 1.0 / (rt * fabs(y[i]) + at);
        if (i >= m->c0)
            w[i] *= fabs(h);
    }
    return 0;
}

static void ida_error_handler(int code, const char *module, const char *function, char *msg,
                              void *ud)
{
    (void)module;
    ida_mem *m = ud;
    if (code != IDA_WARNING)
        snprintf(m->msg, sizeof m->msg, "%s: %s", function, msg);
}

/* ---- the method ------------------------------------------------------------ */

static void ida_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)ny, (void)nnz;
    *nw = 0;
    *ni = 0;
}

static int ida_check(jnt_data *d, const jnt_settings *s)
{
    if (!(s->rtol > 0 && isfinite(s->rtol)))
        return data_error(d, JNT_ERR_PARAM, "integrator 'ida' needs rtol > 0 (got %g)", s->rtol);
    if (!(s->atol > 0 && isfinite(s->atol)))
        return data_error(d, JNT_ERR_PARAM, "integrator 'ida' needs atol > 0 (got %g)", s->atol);
    if (!(s->h >= 0 && isfinite(s->h)))
        return data_error(d, JNT_ERR_PARAM, "the initial step must be >= 0 (got %g s)", s->h);
    if (!(s->h_max >= 0 && isfinite(s->h_max)))
        return data_error(d, JNT_ERR_PARAM, "h_max must be >= 0 (got %g s)", s->h_max);
    return JNT_OK;
}

/* Consistent y at r->t (integ_dae_consistent: q, v, lambda into r->y) and
 * Y, Y' in IDA's vectors: Y' = [v, q'', f_z, 0, 0], mu = 0. */
static int ida_consistent(integ_run *r, ida_mem *m)
{
    integ_dae *dw = calloc(1, sizeof *dw);
    if (!dw)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting ida");
    int rc = integ_dae_alloc(r, dw);
    if (rc == 0)
        rc = integ_dae_consistent(r, dw);
    if (rc == 0) {
        double *y = N_VGetArrayPointer(m->yy), *yd = N_VGetArrayPointer(m->yp);
        int nq = m->nq;
        memcpy(y, r->y, (size_t)m->ny * sizeof *y);
        memset(y + m->ny, 0, (size_t)m->nc * sizeof *y);
        memset(yd, 0, (size_t)m->N * sizeof *yd);
        memcpy(yd, r->y + nq, (size_t)nq * sizeof *yd);
        memcpy(yd + nq, dw->qdd, (size_t)nq * sizeof *yd);
        memcpy(yd + 2 * nq, dw->fn + 2 * nq, (size_t)m->nz * sizeof *yd);
    }
    integ_dae_free(dw);
    if (rc != 0)
        return rc;
    /* C_q(q_0) for the residual's C_q^T mu; IDA's first Jacobian is its own */
    rc = integ_jac_sparse(r, r->t, r->y, m->jq);
    if (rc == 1)
        rc = integ_fail_cause(r, JNT_ERR_KERNEL, r->t, "the Jacobian kernel failed at the start");
    return rc;
}

static int ida_setup_failed(integ_run *r, const char *what)
{
    return integ_fail(r, JNT_ERR_SOLVER, r->t, "ida: %s failed", what);
}

static int ida_start(integ_run *r)
{
    const jnt_abi_model *a = r->abi;
    ida_mem *m = calloc(1, sizeof *m);
    r->mem = m;
    if (!m)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting ida");
    if (a->nq <= 0)
        return integ_fail(r, JNT_ERR_MODEL, r->t, "integrator 'ida' needs a multibody model");
    const jnt_model *md = r->data->m;
    m->r = r;
    m->nq = a->nq, m->nc = a->nc, m->ny = a->ny, m->nz = a->ny - 2 * a->nq - a->nc;
    m->c0 = 2 * m->nq + m->nz, m->N = m->ny + m->nc;
    m->jv = malloc((2 * (size_t)md->jnnz + 1) * sizeof *m->jv);
    m->jq = m->jv + md->jnnz;
    m->mv = malloc(((size_t)md->mnnz + 1) * sizeof *m->mv);
    m->f = malloc(((size_t)m->ny + 3 * (size_t)m->nc + (size_t)m->nq + 1) * sizeof *m->f);
    if (!m->jv || !m->mv || !m->f || ida_pattern(m) != 0)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting ida");
    m->cr = m->f + m->ny, m->cqt = m->cr + 3 * m->nc;
    int path = sparse_choose(m->N, m->nnz, SPARSE_AUTO);
    if (sparse_lu_init(&m->lu, m->N, m->colptr, m->rowind, path) != 0)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting ida");
    if (SUNContext_Create(NULL, &m->ctx) != 0)
        return ida_setup_failed(r, "SUNContext_Create");
    m->yy = N_VNew_Serial(m->N, m->ctx), m->yp = N_VNew_Serial(m->N, m->ctx);
    m->id = N_VNew_Serial(m->N, m->ctx);
    m->dky = N_VNew_Serial(m->N, m->ctx);
    m->A = SUNDenseMatrix(1, 1, m->ctx);
    m->ls = SUNLinSolNewEmpty(m->ctx);
    if (!m->yy || !m->yp || !m->id || !m->dky || !m->A || !m->ls)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting ida");
    m->ls->ops->gettype = ls_type;
    m->ls->ops->getid = ls_id;
    m->ls->ops->setup = ls_setup;
    m->ls->ops->solve = ls_solve;
    m->ls->ops->free = ls_free;
    m->ls->content = m;
    double *idv = N_VGetArrayPointer(m->id);
    for (int i = 0; i < m->N; i++)
        idv[i] = i < m->c0 ? 1.0 : 0.0;
    int rc = ida_consistent(r, m);
    if (rc != 0)
        return rc;
    if (!(m->ida = IDACreate(m->ctx)))
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting ida");
    IDASetErrHandlerFn(m->ida, ida_error_handler, m);
    if (IDAInit(m->ida, ida_res, r->t, m->yy, m->yp) != IDA_SUCCESS)
        return ida_setup_failed(r, "IDAInit");
    if (IDAWFtolerances(m->ida, ida_ewt) != IDA_SUCCESS ||
        IDASetUserData(m->ida, m) != IDA_SUCCESS ||
        IDASetLinearSolver(m->ida, m->ls, m->A) != IDA_SUCCESS ||
        IDASetJacFn(m->ida, ida_jac) != IDA_SUCCESS || IDASetId(m->ida, m->id) != IDA_SUCCESS ||
        IDASetSuppressAlg(m->ida, SUNTRUE) != IDA_SUCCESS ||
        IDASetMaxNumSteps(m->ida, 1000000000L) != IDA_SUCCESS ||
        IDASetStopTime(m->ida, r->s.t_end) != IDA_SUCCESS)
        return ida_setup_failed(r, "IDA's settings");
    /* Newton's convergence test, ||correction|| rate / (1 - rate) < IDA_NL_COEF in
     * the error weights (IDA's default 0.33): the corrector's error enters the
     * local error estimate, and at 0.33 it does on the GGL form. Andrews'
     * squeezer at rtol = atol = 1e-10: 4,474 steps (84 rejected) with 0.33,
     * 1,960 (68) with 0.02, for the same error (8.8e-8 rad); the peer of bench
     * section 19 gains the same way (docs/performance.md) */
    if (IDASetNonlinConvCoef(m->ida, IDA_NL_COEF) != IDA_SUCCESS)
        return ida_setup_failed(r, "IDASetNonlinConvCoef");
    if (r->s.h_max > 0)
        IDASetMaxStep(m->ida, r->s.h_max);
    if (r->s.h > 0)
        IDASetInitStep(m->ida, r->s.h);
    return 0;
}

/* The failure of IDASolve (flag < 0) as a run error. */
static int ida_fail(integ_run *r, ida_mem *m, int flag)
{
    if (m->fatal)
        return m->fatal;
    sunrealtype tcur = r->t;
    IDAGetCurrentTime(m->ida, &tcur);
    char *name = IDAGetReturnFlagName(flag);
    const char *flagname = name ? name : "IDA_UNKNOWN";
    int status = flag == IDA_CONV_FAIL || flag == IDA_ERR_FAIL ? JNT_ERR_NEWTON : JNT_ERR_SOLVER;
    if (r->cause == INTEG_CAUSE_NONFINITE || r->cause == INTEG_CAUSE_RHS)
        status = integ_fail_cause(r, JNT_ERR_KERNEL, tcur, "the rhs kernel failed");
    else
        status = integ_fail(r, status, tcur, "ida: %s [%s]", m->msg[0] ? m->msg : "failed",
                            flagname);
    free(name);
    return status;
}

/* One internal IDA step (IDA_ONE_STEP), stopping exactly at t_end; the
 * constraint statistics at its end. */
static int ida_step(integ_run *r)
{
    ida_mem *m = r->mem;
    sunrealtype tret = r->t;
    m->fatal = 0;
    m->msg[0] = '\0';
    /* m->jq holds C_q(q_n) for this step's C_q^T mu: evaluated at the last
     * step's end (below) or by ida_consistent at the start and resets */
    int flag = IDASolve(m->ida, r->s.t_end, &tret, m->yy, m->yp, IDA_ONE_STEP);
    if (flag < 0)
        return ida_fail(r, m, flag);
    r->t_new = flag == IDA_TSTOP_RETURN ? r->s.t_end : tret;
    const double *y = N_VGetArrayPointer(m->yy);
    int rc = integ_jac_sparse(r, r->t_new, y, m->jq);
    if (rc != 0)
        return rc < 0 ? rc : integ_fail_cause(r, JNT_ERR_KERNEL, r->t_new, "the Jacobian kernel "
                                              "failed at the end of a step");
    memcpy(r->y_new, y, (size_t)m->ny * sizeof *r->y_new);
    /* the residual's last values hold C and C_q v + C_t near the step end;
     * measure them at it (the kernels directly: not the method's work) */
    const jnt_model *md = r->data->m;
    if (eval_rhs(md, r->data, r->t_new, y, m->f) == 0 &&
        integ_cons_rates(r, r->t_new, y, m->cr) == 0) {
        for (int k = 0; k < m->nc; k++) {
            if (r->data->ncons_off && r->data->cons_off[k])
                continue;
            r->st->cons_max = fmax(r->st->cons_max, fabs(m->f[m->c0 + k]));
            r->st->vcons_max = fmax(r->st->vcons_max, fabs(m->cr[2 * m->nc + k]));
        }
    }
    return 0;
}

static int ida_interp(integ_run *r, double t, double *yout)
{
    ida_mem *m = r->mem;
    int flag = IDAGetDky(m->ida, t, 0, m->dky);
    if (flag != IDA_SUCCESS)
        return ida_fail(r, m, flag);
    memcpy(yout, N_VGetArrayPointer(m->dky), (size_t)m->ny * sizeof *yout);
    return 0;
}

/* Add IDA's counters (reset by IDAReInit) to the run's statistics. */
static void ida_collect(integ_run *r, ida_mem *m)
{
    long netf = 0, ncfn = 0, nni = 0;
    IDAGetNumErrTestFails(m->ida, &netf);
    IDAGetNumNonlinSolvConvFails(m->ida, &ncfn);
    IDAGetNumNonlinSolvIters(m->ida, &nni);
    r->st->rejected += netf + ncfn;
    r->st->newton_iters += nni;
}

/* The discrete state changed at r->t: consistent values again, IDA restarted. */
static int ida_reset(integ_run *r)
{
    ida_mem *m = r->mem;
    ida_collect(r, m);
    m->have_m = 0;
    int rc = ida_consistent(r, m);
    if (rc != 0)
        return rc;
    if (IDAReInit(m->ida, r->t, m->yy, m->yp) != IDA_SUCCESS)
        return ida_setup_failed(r, "IDAReInit");
    return 0;
}

static void ida_stop(integ_run *r)
{
    ida_mem *m = r->mem;
    if (!m)
        return;
    if (m->ida) {
        ida_collect(r, m);
        IDAFree(&m->ida);
    }
    if (m->ls)
        SUNLinSolFree(m->ls);
    if (m->A)
        SUNMatDestroy(m->A);
    N_Vector v[4] = {m->yy, m->yp, m->id, m->dky};
    for (int i = 0; i < 4; i++)
        if (v[i])
            N_VDestroy(v[i]);
    if (m->ctx)
        SUNContext_Free(&m->ctx);
    sparse_lu_free(&m->lu);
    free(m->jv), free(m->mv), free(m->f);
    free(m->cq_ptr), free(m->cq_e), free(m->cq_col);
    free(m->colptr), free(m->rowind), free(m->val);
    free(m->pj), free(m->pm), free(m->pd), free(m->pmu), free(m->pvm);
    free(m);
    r->mem = NULL;
}

const integ_type integ_ida = {
    .name = "ida",
    .fixed_step = 0,
    .keeps_f = 0,
    .work = ida_work,
    .start = ida_start,
    .step = ida_step,
    .interp = ida_interp,
    .reset = ida_reset,
    .stop = ida_stop,
    .check = ida_check,
};
