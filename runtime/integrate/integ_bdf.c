/*
 * integ_bdf.c: variable-order BDF by SUNDIALS CVODE (6.x) with the model's
 * analytic Jacobian and a dense direct linear solver of our own on LAPACK
 * (OpenBLAS's blocked dgetrf; Debian builds SUNDIALS without its LAPACK
 * module, and its own unblocked LU is 20 to 30 times slower at 800 states),
 * or, for a matrix of at most DENSE_SMALL_N unknowns, on the plain loops of
 * linalg/dense.h, so that a small model loads no BLAS (the jnt command
 * loads OpenBLAS on first use: 2.2 ms of a FrDyn2 run, docs/performance.md).
 * Models whose Jacobian pattern is known in y (point bodies) and large
 * enough for the crossover of linalg/sparse.h solve I - gamma J sparse
 * instead (KLU through integ_linsys.c: pattern analysed once per run,
 * refactorised when CVODE asks for a new J or gamma).
 * CVODE advances one internal step per call (CV_ONE_STEP) up to the stop
 * time t_end; rows inside a step come from its interpolating polynomial
 * (CVodeGetDky). A change of the discrete state does not restart CVODE: the
 * state y stays continuous, only the right-hand side changes, and the error
 * test adapts the step where it matters. (Restarting at order 1 after every
 * change made return-mapping laws crawl at ~10 ns steps; without restarts
 * the multimass reference of seed 000 runs in 2 s and agrees with RK4 at
 * 0.1 ms to 1.5e-5.)
 */
#include <cblas.h>
#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <lapacke.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "core/data.h"
#include "integ.h"
#include "linalg/dense.h"

_Static_assert(sizeof(lapack_int) == sizeof(int), "LAPACKE with 32-bit integers expected");

/* CVODE objects of one run (allocated at run start, freed at its end). */
typedef struct bdf_mem {
    SUNContext ctx;
    N_Vector y, yi;
    SUNMatrix A;
    SUNLinearSolver ls;
    integ_linsys *sp; /* the sparse path's matrices, or NULL (dense) */
    double gamma;     /* the sparse path's last gamma */
    void *cv;
    integ_run *r;
    /* the last step's interpolating polynomial in Taylor form about CVODE's
     * current time tn: y(t) = sum_k tay[k] (t - tn)^k, k <= tay_q */
    double *tay, tay_tn;
    int tay_q;
    int inited;    /* CVodeInit succeeded: counters are valid */
    int fatal;     /* status of a fatal failure inside a callback */
    char msg[256]; /* CVODE's last error message */
} bdf_mem;

/* The linear systems of the Newton iterations, A = I - gamma J, by LAPACK.
 * bdf_linsys forms them from J, which it keeps (SUNDIALS' own copy and
 * scaling of an n x n matrix at every setup cost more than the LU at 800
 * states). The position rows of a linear block (q' = qd) are e_qd in J, so
 * the position unknowns follow from the others, x_q = b_q + gamma x_qd, and
 * only the other m = n - (block coordinates) unknowns are solved for:
 *   R = I - gamma J_SS - gamma^2 J_SQ E,   R x_S = b_S + gamma J_SQ b_Q
 * (S: the other states, Q: the positions, E: qd of each q), 8 times cheaper
 * for an unreduced substructure. A J without that structure (finite
 * differences) gives the whole A. The SUNMatrix CVODE passes is not used. */
typedef struct lu_solver {
    lapack_int n, m; /* the states, and the unknowns of the condensed system */
    int npos;        /* block positions: the states q with q' = qd */
    int *pos, *vel;  /* [npos] a position state and its velocity state */
    int *sidx;       /* [m] the states solved for */
    int *smap;       /* [n] the index of a state in sidx, or -1 (a position) */
    double *J;       /* n x n, the last Jacobian */
    double *JSQ;     /* m x npos, J's rows S and columns Q (condensed) */
    double *R;       /* the matrix factorised: m x m (condensed) or n x n; then n */
    lapack_int *ipiv;
    double gamma;
    int condensed; /* J has the block structure: R is the condensed matrix */
    long last;     /* 0, or the 1-based zero pivot of the last factorisation */
} lu_solver;

static SUNLinearSolver_Type lu_type(SUNLinearSolver S)
{
    (void)S;
    return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID lu_id(SUNLinearSolver S)
{
    (void)S;
    return SUNLINEARSOLVER_CUSTOM;
}

static int lu_init(SUNLinearSolver S)
{
    ((lu_solver *)S->content)->last = 0;
    return SUNLS_SUCCESS;
}

/* Are the position rows of J exactly e_qd? If so, pack J_SQ. */
static int lu_has_structure(lu_solver *c)
{
    size_t n = (size_t)c->n, m = (size_t)c->m;
    if (c->npos == 0)
        return 0;
    for (size_t j = 0; j < n; j++)
        for (int k = 0; k < c->npos; k++)
            if (c->J[j * n + c->pos[k]] != ((int)j == c->vel[k] ? 1.0 : 0.0))
                return 0;
    for (int k = 0; k < c->npos; k++)
        for (size_t i = 0; i < m; i++)
            c->JSQ[k * m + i] = c->J[(size_t)c->pos[k] * n + c->sidx[i]];
    return 1;
}

/* Form the matrix to factorise from J and gamma. */
static void lu_form(lu_solver *c, double gamma)
{
    size_t n = (size_t)c->n, m = (size_t)c->m;
    const double *J = c->J;
    c->gamma = gamma;
    if (!c->condensed) {
        for (size_t k = 0; k < n * n; k++)
            c->R[k] = -gamma * J[k];
        for (size_t i = 0; i < n; i++)
            c->R[i * n + i] += 1.0;
        return;
    }
    for (size_t j = 0; j < m; j++) {
        const double *jc = J + (size_t)c->sidx[j] * n;
        double *rc = c->R + j * m;
        for (size_t i = 0; i < m; i++)
            rc[i] = -gamma * jc[c->sidx[i]];
        rc[j] += 1.0;
    }
    for (int k = 0; k < c->npos; k++) {
        const double *jq = c->JSQ + (size_t)k * m;
        double *rv = c->R + (size_t)c->smap[c->vel[k]] * m;
        for (size_t i = 0; i < m; i++)
            rv[i] -= gamma * gamma * jq[i];
    }
}

/* A zero pivot is recoverable: CVODE retries with a smaller step. */
static int lu_setup(SUNLinearSolver S, SUNMatrix A)
{
    (void)A;
    lu_solver *c = S->content;
    lapack_int k = c->condensed ? c->m : c->n;
    lapack_int info = k <= DENSE_SMALL_N
                          ? dense_lu_factor(k, c->R, k, c->ipiv)
                          : LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, k, k, c->R, k, c->ipiv);
    c->last = info;
    return info == 0 ? SUNLS_SUCCESS : info > 0 ? SUNLS_LUFACT_FAIL : SUNLS_ILL_INPUT;
}

static int lu_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol)
{
    (void)A, (void)tol;
    lu_solver *c = S->content;
    const double *bv = N_VGetArrayPointer(b);
    double *xv = N_VGetArrayPointer(x);
    size_t n = (size_t)c->n;
    if (!c->condensed) {
        if (x != b)
            memcpy(xv, bv, n * sizeof *xv);
        if (c->n <= DENSE_SMALL_N) {
            dense_lu_solve(c->n, c->R, c->n, c->ipiv, xv);
            return SUNLS_SUCCESS;
        }
        return LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', c->n, 1, c->R, c->n, c->ipiv, xv,
                                   c->n) == 0 ? SUNLS_SUCCESS : SUNLS_ILL_INPUT;
    }
    /* the condensed right-hand side (x may be b: the positions are read first) */
    double *y = c->R + (size_t)c->m * c->m, *bq = y + c->m;
    for (int i = 0; i < c->m; i++)
        y[i] = bv[c->sidx[i]];
    for (int k = 0; k < c->npos; k++)
        bq[k] = bv[c->pos[k]];
    if (c->m <= DENSE_SMALL_N) {
        dense_gemv_add(c->m, c->npos, c->gamma, c->JSQ, c->m, bq, y);
        dense_lu_solve(c->m, c->R, c->m, c->ipiv, y);
    } else {
        cblas_dgemv(CblasColMajor, CblasNoTrans, c->m, c->npos, c->gamma, c->JSQ, c->m, bq, 1,
                    1.0, y, 1);
        if (LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', c->m, 1, c->R, c->m, c->ipiv, y, c->m) != 0)
            return SUNLS_ILL_INPUT;
    }
    for (int k = 0; k < c->npos; k++)
        xv[c->pos[k]] = bv[c->pos[k]] + c->gamma * y[c->smap[c->vel[k]]];
    for (int i = 0; i < c->m; i++)
        xv[c->sidx[i]] = y[i];
    return SUNLS_SUCCESS;
}

static sunindextype lu_lastflag(SUNLinearSolver S)
{
    return ((lu_solver *)S->content)->last;
}

static int lu_free(SUNLinearSolver S)
{
    if (!S)
        return SUNLS_SUCCESS;
    lu_solver *c = S->content;
    if (c) {
        free(c->pos);
        free(c->J);
        free(c->ipiv);
        free(c);
        S->content = NULL;
    }
    SUNLinSolFreeEmpty(S);
    return SUNLS_SUCCESS;
}

/* The LAPACK solver for the n x n systems of model a; NULL when out of
 * memory. */
static SUNLinearSolver lu_new(const jnt_abi_model *a, SUNContext ctx)
{
    SUNLinearSolver S = SUNLinSolNewEmpty(ctx);
    if (!S)
        return NULL;
    S->ops->gettype = lu_type;
    S->ops->getid = lu_id;
    S->ops->initialize = lu_init;
    S->ops->setup = lu_setup;
    S->ops->solve = lu_solve;
    S->ops->lastflag = lu_lastflag;
    S->ops->free = lu_free;
    lu_solver *c = calloc(1, sizeof *c);
    S->content = c;
    size_t n = (size_t)a->ny;
    int npos = 0;
    for (int b = 0; b < a->nblocks; b++)
        npos += a->blocks[b].r;
    if (c) {
        c->n = (lapack_int)n;
        c->npos = npos;
        c->m = (lapack_int)n - npos;
        c->pos = malloc((2 * (size_t)npos + 2 * n) * sizeof *c->pos);
        /* J, then R (up to n x n) and two vectors; J_SQ */
        c->J = malloc((2 * n * n + 2 * n + (size_t)c->m * npos) * sizeof *c->J);
        c->ipiv = malloc(n * sizeof *c->ipiv);
    }
    if (!c || !c->pos || !c->J || !c->ipiv) {
        lu_free(S);
        return NULL;
    }
    c->R = c->J + n * n;
    c->JSQ = c->R + n * n + 2 * n;
    c->vel = c->pos + npos;
    c->sidx = c->vel + npos;
    c->smap = c->sidx + n;
    for (size_t i = 0; i < n; i++)
        c->smap[i] = 0;
    for (int b = 0, k = 0; b < a->nblocks; b++)
        for (int i = 0; i < a->blocks[b].r; i++, k++) {
            c->pos[k] = a->blocks[b].q0 + i;
            c->vel[k] = a->blocks[b].q0 + a->blocks[b].r + i;
            c->smap[c->pos[k]] = -1;
        }
    for (int i = 0, j = 0; i < (int)n; i++)
        if (c->smap[i] == 0) {
            c->smap[i] = j;
            c->sidx[j++] = i;
        }
    return S;
}

/* The sparse path: I - gamma J by integ_linsys (a one-stage tableau with
 * a = 1, so that h = gamma). The matrix arguments are not used. */
static const double bdf_one[1] = {1.0}, bdf_zero[1] = {0.0};
static const integ_irk bdf_tableau = {1, bdf_one, bdf_one, bdf_zero};

static int sp_setup(SUNLinearSolver S, SUNMatrix A)
{
    (void)A;
    bdf_mem *m = S->content;
    int rc = integ_linsys_factor(m->r, m->sp, &bdf_tableau, m->gamma);
    if (rc < 0)
        m->fatal = rc;
    return rc == 0 ? SUNLS_SUCCESS : rc > 0 ? SUNLS_LUFACT_FAIL : SUNLS_ILL_INPUT;
}

static int sp_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol)
{
    (void)A, (void)tol;
    bdf_mem *m = S->content;
    if (x != b)
        N_VScale(1.0, b, x);
    return integ_linsys_solve(m->sp, N_VGetArrayPointer(x)) == 0 ? SUNLS_SUCCESS
                                                                : SUNLS_ILL_INPUT;
}

static int sp_free(SUNLinearSolver S)
{
    if (S) {
        S->content = NULL;
        SUNLinSolFreeEmpty(S);
    }
    return SUNLS_SUCCESS;
}

/* A linear solver object on m->sp (owned by m). */
static SUNLinearSolver sp_new(bdf_mem *m)
{
    SUNLinearSolver S = SUNLinSolNewEmpty(m->ctx);
    if (!S)
        return NULL;
    S->ops->gettype = lu_type;
    S->ops->getid = lu_id;
    S->ops->setup = sp_setup;
    S->ops->solve = sp_solve;
    S->ops->free = sp_free;
    S->content = m;
    return S;
}

/* A scratch vector for finite-difference Jacobians. */
static void bdf_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)nnz;
    *nw = (size_t)ny;
    *ni = 0;
}

/* CVODE right-hand side: 0 ok, 1 recoverable (smaller step), -1 fatal. */
static int bdf_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *ud)
{
    bdf_mem *m = ud;
    int rc = integ_rhs(m->r, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
    if (rc < 0) {
        m->fatal = rc;
        return -1;
    }
    return rc;
}

/* CVODE linear system: A = I - gamma J, J re-evaluated unless jok (see
 * lu_solver); 0 ok, 1 recoverable, -1 fatal. */
static int bdf_linsys(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix A, sunbooleantype jok,
                      sunbooleantype *jcur, sunrealtype gamma, void *ud, N_Vector t1,
                      N_Vector t2, N_Vector t3)
{
    (void)A, (void)t1, (void)t2, (void)t3;
    bdf_mem *m = ud;
    *jcur = !jok;
    if (m->sp) {
        int rc = jok ? 0
                     : integ_linsys_update(m->r, m->sp, t, N_VGetArrayPointer(y),
                                           N_VGetArrayPointer(fy), m->r->w, 1);
        if (rc < 0)
            m->fatal = rc;
        if (rc != 0)
            return rc < 0 ? -1 : rc;
        m->gamma = gamma;
        return 0;
    }
    lu_solver *c = m->ls->content;
    if (!jok) {
        int rc = integ_jac_dense(m->r, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy), c->J,
                                 m->r->w);
        if (rc < 0)
            m->fatal = rc;
        if (rc != 0)
            return rc < 0 ? -1 : rc;
        c->condensed = lu_has_structure(c);
    }
    lu_form(c, gamma);
    return 0;
}

/* CVODE error handler: keep the message instead of printing it. */
static void bdf_error_handler(int code, const char *module, const char *function, char *msg,
                              void *ud)
{
    (void)module;
    bdf_mem *m = ud;
    if (code != CV_WARNING)
        snprintf(m->msg, sizeof m->msg, "%s: %s", function, msg);
}

/* Add CVODE's counters (reset by CVodeReInit) to the run's statistics. */
static void bdf_collect(integ_run *r, bdf_mem *m)
{
    long netf = 0, ncfn = 0, nsetups = 0, nni = 0;
    CVodeGetNumErrTestFails(m->cv, &netf);
    CVodeGetNumNonlinSolvConvFails(m->cv, &ncfn);
    CVodeGetNumLinSolvSetups(m->cv, &nsetups);
    CVodeGetNumNonlinSolvIters(m->cv, &nni);
    r->st->rejected += netf + ncfn;
    r->st->lu_decomps += nsetups;
    r->st->newton_iters += nni;
}

/* The state with the largest weighted local error estimate. */
static int bdf_worst_state(bdf_mem *m, int n)
{
    int worst = 0;
    if (CVodeGetEstLocalErrors(m->cv, m->yi) != CV_SUCCESS)
        return -1;
    double *ele = N_VGetArrayPointer(m->yi), big = -1.0;
    double *wt = m->r->w; /* copy of the error weights */
    N_Vector w = N_VMake_Serial(n, wt, m->ctx);
    if (!w)
        return -1;
    int ok = CVodeGetErrWeights(m->cv, w) == CV_SUCCESS;
    N_VDestroy(w);
    if (!ok)
        return -1;
    for (int i = 0; i < n; i++) {
        double q = fabs(ele[i] * wt[i]);
        if (q > big) {
            big = q;
            worst = i;
        }
    }
    return worst;
}

/* Map a CVODE failure flag to a status and a message naming the time, the
 * state when known, and CVODE's flag name. */
static int bdf_fail(integ_run *r, bdf_mem *m, int flag)
{
    if (m->fatal)
        return m->fatal;
    sunrealtype tcur = r->t;
    CVodeGetCurrentTime(m->cv, &tcur);
    char *name = CVodeGetReturnFlagName(flag);
    char what[400];
    int status = JNT_ERR_SOLVER, n = r->abi->ny;
    const char *flagname = name ? name : "CV_UNKNOWN";
    if (r->cause == INTEG_CAUSE_NONFINITE || (r->cause == INTEG_CAUSE_RHS &&
                                              (flag == CV_REPTD_RHSFUNC_ERR ||
                                               flag == CV_FIRST_RHSFUNC_ERR ||
                                               flag == CV_UNREC_RHSFUNC_ERR))) {
        status = integ_fail_cause(r, JNT_ERR_KERNEL, tcur, "the rhs kernel failed");
        size_t k = strlen(r->data->err);
        snprintf(r->data->err + k, sizeof r->data->err - k, " [%s]", flagname);
        free(name);
        return status;
    }
    if (flag == CV_ERR_FAILURE) {
        int w = bdf_worst_state(m, n);
        status = JNT_ERR_HMIN;
        snprintf(what, sizeof what,
                 "error test failed repeatedly or the step size reached its minimum "
                 "(largest local error in state '%s') [%s]",
                 w >= 0 ? r->abi->y_names[w] : "?", flagname);
    } else if (flag == CV_CONV_FAILURE) {
        status = JNT_ERR_NEWTON;
        snprintf(what, sizeof what, "newton iteration diverged repeatedly [%s]", flagname);
    } else {
        snprintf(what, sizeof what, "%s [%s]", m->msg[0] ? m->msg : "CVODE failed", flagname);
    }
    free(name);
    return integ_fail(r, status, tcur, "%s", what);
}

/* Report a CVODE setup failure. */
static int bdf_setup_failed(integ_run *r, bdf_mem *m, const char *call)
{
    return integ_fail(r, m->fatal ? m->fatal : JNT_ERR_SOLVER, r->t, "CVODE setup failed in %s%s%s",
                      call, m->msg[0] ? ": " : "", m->msg);
}

/* Create and configure CVODE for this run. */
static int bdf_start(integ_run *r)
{
    int n = r->abi->ny;
    const jnt_settings *s = &r->s;
    bdf_mem *m = calloc(1, sizeof *m);
    if (!m)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting CVODE");
    r->mem = m;
    m->r = r;
    if (n == 0)
        return 0;
    double mo = s->max_order;
    if (!(mo == 0 || (mo >= 1 && mo <= 5 && mo == floor(mo))))
        return integ_fail(r, JNT_ERR_PARAM, r->t, "bdf's max_order must be an order from 1 to 5 "
                          "(got %g)", mo);
    if (SUNContext_Create(NULL, &m->ctx) != 0)
        return bdf_setup_failed(r, m, "SUNContext_Create");
    m->y = N_VNew_Serial(n, m->ctx);
    m->yi = N_VNew_Serial(n, m->ctx);
    m->cv = CVodeCreate(CV_BDF, m->ctx);
    m->tay = malloc((size_t)6 * n * sizeof *m->tay); /* BDF orders up to 5 */
    m->tay_q = -1;
    if (!m->y || !m->yi || !m->cv || !m->tay)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting CVODE");
    memcpy(N_VGetArrayPointer(m->y), r->y, (size_t)n * sizeof *r->y);
    CVodeSetErrHandlerFn(m->cv, bdf_error_handler, m);
    if (CVodeInit(m->cv, bdf_rhs, s->t0, m->y) != CV_SUCCESS)
        return bdf_setup_failed(r, m, "CVodeInit");
    m->inited = 1;
    CVodeSetUserData(m->cv, m);
    if (CVodeSStolerances(m->cv, s->rtol, s->atol) != CV_SUCCESS)
        return bdf_setup_failed(r, m, "CVodeSStolerances");
    /* CVODE wants a matrix for a direct solver; ours keep their own */
    m->A = SUNDenseMatrix(1, 1, m->ctx);
    if (integ_linsys_sparse_pays(r->abi, &bdf_tableau)) {
        int rc = integ_linsys_new(r, &bdf_tableau, &m->sp);
        if (rc != 0)
            return rc;
        m->ls = sp_new(m);
    } else {
        m->ls = lu_new(r->abi, m->ctx);
    }
    if (!m->A || !m->ls)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting CVODE");
    if (CVodeSetLinearSolver(m->cv, m->ls, m->A) != CV_SUCCESS)
        return bdf_setup_failed(r, m, "CVodeSetLinearSolver");
    CVodeSetLinSysFn(m->cv, bdf_linsys);
    CVodeSetMaxNumSteps(m->cv, 1000000000L);
    CVodeSetStopTime(m->cv, s->t_end);
    CVodeSetMinStep(m->cv, s->h_min > 0 ? s->h_min
                                        : 1e-14 * fmax(1.0, fmax(fabs(s->t0), fabs(s->t_end))));
    if (s->h_max > 0)
        CVodeSetMaxStep(m->cv, s->h_max);
    if (s->max_order > 0 && CVodeSetMaxOrd(m->cv, (int)s->max_order) != CV_SUCCESS)
        return bdf_setup_failed(r, m, "CVodeSetMaxOrd");
    if (s->h > 0)
        CVodeSetInitStep(m->cv, s->h);
    return 0;
}

/* One internal CVODE step (CV_ONE_STEP), stopping exactly at t_end. */
static int bdf_step(integ_run *r)
{
    bdf_mem *m = r->mem;
    int n = r->abi->ny;
    if (n == 0) {
        r->t_new = r->s.t_end;
        return 0;
    }
    sunrealtype tret = r->t;
    m->fatal = 0;
    m->msg[0] = '\0';
    int flag = CVode(m->cv, r->s.t_end, m->y, &tret, CV_ONE_STEP);
    if (flag < 0)
        return bdf_fail(r, m, flag);
    r->t_new = flag == CV_TSTOP_RETURN ? r->s.t_end : tret;
    memcpy(r->y_new, N_VGetArrayPointer(m->y), (size_t)n * sizeof *r->y_new);
    return 0;
}

/* y(t) inside the last step from CVODE's interpolating polynomial: its
 * Taylor coefficients once a step (order + 1 calls of CVodeGetDky), then
 * Horner per row, 4x cheaper than CVodeGetDky per row on a dense grid. */
static int bdf_interp(integ_run *r, double t, double *yout)
{
    bdf_mem *m = r->mem;
    int n = r->abi->ny, flag = CV_SUCCESS;
    if (n == 0)
        return 0;
    sunrealtype tn = 0;
    CVodeGetCurrentTime(m->cv, &tn);
    if (tn != m->tay_tn || m->tay_q < 0) {
        int q = 0;
        CVodeGetLastOrder(m->cv, &q);
        double fact = 1;
        for (int k = 0; k <= q && flag == CV_SUCCESS; k++) {
            flag = CVodeGetDky(m->cv, tn, k, m->yi);
            fact *= k > 0 ? k : 1;
            const double *dk = N_VGetArrayPointer(m->yi);
            for (int i = 0; i < n; i++)
                m->tay[(size_t)k * n + i] = dk[i] / fact;
        }
        if (flag != CV_SUCCESS)
            return bdf_fail(r, m, flag);
        m->tay_tn = tn;
        m->tay_q = q;
    }
    double dt = t - tn;
    for (int i = 0; i < n; i++) {
        double v = m->tay[(size_t)m->tay_q * n + i];
        for (int k = m->tay_q - 1; k >= 0; k--)
            v = v * dt + m->tay[(size_t)k * n + i];
        yout[i] = v;
    }
    return 0;
}

/* Collect the counters and free CVODE's objects. */
static void bdf_stop(integ_run *r)
{
    bdf_mem *m = r->mem;
    if (!m)
        return;
    if (m->inited)
        bdf_collect(r, m);
    if (m->cv)
        CVodeFree(&m->cv);
    if (m->ls)
        SUNLinSolFree(m->ls);
    if (m->A)
        SUNMatDestroy(m->A);
    integ_linsys_free(m->sp);
    if (m->y)
        N_VDestroy(m->y);
    if (m->yi)
        N_VDestroy(m->yi);
    free(m->tay);
    if (m->ctx)
        SUNContext_Free(&m->ctx);
    free(m);
    r->mem = NULL;
}

const integ_type integ_bdf = {
    .name = "bdf",
    .fixed_step = 0,
    .keeps_f = 0,
    .work = bdf_work,
    .start = bdf_start,
    .step = bdf_step,
    .interp = bdf_interp,
    .reset = NULL,
    .stop = bdf_stop,
};
