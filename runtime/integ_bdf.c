/*
 * integ_bdf.c: variable-order BDF by SUNDIALS CVODE (6.x) with a dense
 * direct linear solver and the model's analytic Jacobian. CVODE advances
 * one internal step per call (CV_ONE_STEP) up to the stop time t_end; rows
 * inside a step come from its interpolating polynomial (CVodeGetDky).
 * A change of the discrete state does not restart CVODE: the state y stays
 * continuous, only the right-hand side changes, and the error test adapts
 * the step where it matters. (Restarting at order 1 after every change made
 * return-mapping laws crawl at ~10 ns steps; without restarts the multimass
 * reference of seed 000 runs in 2 s and agrees with RK4 at 0.1 ms to 1.5e-5.)
 */
#include <cvode/cvode.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "data.h"
#include "integ.h"

/* CVODE objects of one run (allocated at run start, freed at its end). */
typedef struct bdf_mem {
    SUNContext ctx;
    N_Vector y, yi;
    SUNMatrix A;
    SUNLinearSolver ls;
    void *cv;
    integ_run *r;
    int inited;    /* CVodeInit succeeded: counters are valid */
    int fatal;     /* status of a fatal failure inside a callback */
    char msg[256]; /* CVODE's last error message */
} bdf_mem;

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

/* CVODE Jacobian: the model's CSC values scattered into the dense matrix. */
static int bdf_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
                   N_Vector t2, N_Vector t3)
{
    (void)t1, (void)t2, (void)t3;
    bdf_mem *m = ud;
    int rc = integ_jac_dense(m->r, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy),
                             SUNDenseMatrix_Data(J), m->r->w);
    if (rc < 0) {
        m->fatal = rc;
        return -1;
    }
    return rc;
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
    if (SUNContext_Create(NULL, &m->ctx) != 0)
        return bdf_setup_failed(r, m, "SUNContext_Create");
    m->y = N_VNew_Serial(n, m->ctx);
    m->yi = N_VNew_Serial(n, m->ctx);
    m->cv = CVodeCreate(CV_BDF, m->ctx);
    if (!m->y || !m->yi || !m->cv)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting CVODE");
    memcpy(N_VGetArrayPointer(m->y), r->y, (size_t)n * sizeof *r->y);
    CVodeSetErrHandlerFn(m->cv, bdf_error_handler, m);
    if (CVodeInit(m->cv, bdf_rhs, s->t0, m->y) != CV_SUCCESS)
        return bdf_setup_failed(r, m, "CVodeInit");
    m->inited = 1;
    CVodeSetUserData(m->cv, m);
    if (CVodeSStolerances(m->cv, s->rtol, s->atol) != CV_SUCCESS)
        return bdf_setup_failed(r, m, "CVodeSStolerances");
    m->A = SUNDenseMatrix(n, n, m->ctx);
    m->ls = m->A ? SUNLinSol_Dense(m->y, m->A, m->ctx) : NULL;
    if (!m->A || !m->ls)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting CVODE");
    if (CVodeSetLinearSolver(m->cv, m->ls, m->A) != CV_SUCCESS)
        return bdf_setup_failed(r, m, "CVodeSetLinearSolver");
    CVodeSetJacFn(m->cv, bdf_jac);
    CVodeSetMaxNumSteps(m->cv, 1000000000L);
    CVodeSetStopTime(m->cv, s->t_end);
    CVodeSetMinStep(m->cv, s->h_min > 0 ? s->h_min
                                        : 1e-14 * fmax(1.0, fmax(fabs(s->t0), fabs(s->t_end))));
    if (s->h_max > 0)
        CVodeSetMaxStep(m->cv, s->h_max);
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

/* y(t) inside the last step from CVODE's interpolating polynomial. */
static int bdf_interp(integ_run *r, double t, double *yout)
{
    bdf_mem *m = r->mem;
    int n = r->abi->ny;
    if (n == 0)
        return 0;
    int flag = CVodeGetDky(m->cv, t, 0, m->yi);
    if (flag != CV_SUCCESS)
        return bdf_fail(r, m, flag);
    memcpy(yout, N_VGetArrayPointer(m->yi), (size_t)n * sizeof *yout);
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
    if (m->y)
        N_VDestroy(m->y);
    if (m->yi)
        N_VDestroy(m->yi);
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
