/*
 * integ.h: the integrator type table and the driver shared by all methods
 * (internal).
 *
 * Each method is an integ_type (as in SUNDIALS and GSL odeiv2): a name, the
 * work it needs, and start/step/interp/reset/stop functions over one
 * integ_run. The driver (integ_drive.c) owns the output grid, the discrete
 * updates, statistics and failure messages; a method only advances the state
 * by one accepted step and interpolates inside it.
 */
#ifndef JNT_INTEG_H
#define JNT_INTEG_H

#include <stddef.h>
#include "jnt/jnt.h"

typedef struct integ_run integ_run;

typedef struct integ_type {
    const char *name;  /* the ABI's integrator string */
    int fixed_step;    /* 1: settings.h is the step and must be > 0 */
    int keeps_f;       /* 1: r->f must hold f(t, y, d) at each step start */
    /* Work the method needs for ny states and a Jacobian with nnz entries:
     * *nw doubles and *ni ints, carved from the data's arena. */
    void (*work)(int ny, int nnz, size_t *nw, size_t *ni);
    /* Before the first step (r->t, r->y, r->f set). May be NULL. */
    int (*start)(integ_run *r);
    /* One accepted step from (r->t, r->y): sets r->t_new, r->y_new and, when
     * keeps_f, r->f_new = f(t_new, y_new). Returns 0 or a JNT_ERR_* status
     * with the message already in the data (integ_fail). */
    int (*step)(integ_run *r);
    /* y(t) for r->t <= t <= r->t_new, inside the last accepted step. */
    int (*interp)(integ_run *r, double t, double *yout);
    /* After the discrete state changed at r->t (r->f already recomputed). May
     * be NULL. */
    int (*reset)(integ_run *r);
    /* After the last step, on success and failure alike. May be NULL. */
    void (*stop)(integ_run *r);
} integ_type;

/* Why the last rhs evaluation failed (recoverable failures only). */
enum { INTEG_CAUSE_NONE, INTEG_CAUSE_RHS, INTEG_CAUSE_NONFINITE, INTEG_CAUSE_NEWTON,
       INTEG_CAUSE_SINGULAR };

struct integ_run {
    const jnt_abi_model *abi;
    jnt_data *data;
    const double *p;         /* parameters */
    double *d;               /* discrete states, updated by the driver */
    jnt_settings s;          /* validated settings */
    jnt_stats *st;           /* counters (data->stats) */
    double t, t_new;         /* start and end of the current step */
    double *y, *y_new;       /* states at t and t_new */
    double *f, *f_new;       /* f(t, y) and f(t_new, y_new) when keeps_f */
    double h;                /* method's current step size */
    double *w;               /* method work (nw doubles) */
    int *iw;                 /* method work (ni ints) */
    void *mem;               /* method-private objects (solver library) */
    /* last recoverable failure: cause, time, state index, value */
    int cause, cause_index;
    double cause_t, cause_value;
};

/* The integrator named `name`, or NULL. */
const integ_type *integ_find(const char *name);
/* Doubles and ints of arena a run of model `abi` with integrator `t`
 * needs (driver and method); 0 when t is NULL. */
void integ_arena_size(const integ_type *t, const jnt_abi_model *abi, size_t *nw, size_t *ni);

/* Run the driver with the data's integrator (d->integ, arena reserved):
 * integrate from s->t0 (state d->y, d->d) to s->t_end, writing rows to csv
 * (may be NULL). progress: 0 none, 1 always, 2 when the run lasts > 0.5 s.
 * Leaves the last accepted state in d->y, d->t. Used by jnt_run. */
struct csv_writer;
int integ_drive(const jnt_model *m, jnt_data *d, const jnt_settings *s,
                struct csv_writer *csv, int progress);

/* Evaluate f(t, y) into ydot, counting it. Returns 0; 1 for a recoverable
 * failure (kernel >0 or a non-finite value, noted in r->cause*); or
 * JNT_ERR_KERNEL with the message set. */
int integ_rhs(integ_run *r, double t, const double *y, double *ydot);
/* Evaluate the Jacobian at (t, y) into the dense column-major ny x ny
 * matrix J (scattered from the model's CSC pattern; forward differences
 * when the model has no jac kernel, using `tmp` of ny doubles and fy =
 * f(t, y)). Returns 0, 1 (recoverable) or JNT_ERR_KERNEL. */
int integ_jac_dense(integ_run *r, double t, const double *y, const double *fy, double *J,
                    double *tmp);
/* The Jacobian's values at (t, y) in the kernel's pattern (models for which
 * eval_jac_is_y holds) into jv. Returns as integ_jac_dense. */
int integ_jac_sparse(integ_run *r, double t, const double *y, double *jv);
/* Format the failure message "t = T s: ..." into the data and return status. */
int integ_fail(integ_run *r, int status, double t, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Report the recorded recoverable failure cause (non-finite value or
 * Newton trouble) as an error after retries are exhausted; `fallback` is used
 * with `what` when no cause is recorded. Returns the status. */
int integ_fail_cause(integ_run *r, int fallback, double t, const char *what);
/* Cubic Hermite interpolation between (t, y, f) and (t_new, y_new, f_new). */
int integ_hermite(integ_run *r, double t, double *yout);
/* End of the next fixed step of size h from r->t: snapped to the grid
 * t0 + k h to avoid drift, and to t_end for the last step. */
double integ_fixed_end(const integ_run *r, double h);
/* Default smallest step at time t when settings.h_min is 0. */
double integ_h_min(const integ_run *r, double t);
/* Weighted RMS norm of v with weights 1/(atol + rtol |y|). */
double integ_wrms(int n, const double *v, const double *y, double rtol, double atol);

/* Implicit Runge-Kutta tableau solved by simplified Newton (integ_irk.c):
 * stages Z_i = h (e_i f(t, y) + sum_j a_ij f(t + c_j h, y + Z_j)), and
 * y_new = y + Z_s (stiffly accurate methods). */
typedef struct integ_irk {
    int s;                /* stages */
    const double *a;      /* s x s, row-major */
    const double *c;      /* s */
    const double *e;      /* s explicit weights of f(t, y) */
} integ_irk;
/* The Newton matrices M = I - h (A (x) J) of the implicit methods
 * (integ_linsys.c), sparse or dense, with J kept across steps. */
typedef struct integ_linsys integ_linsys;
/* Does the sparse path pay for tableau k on model a (J's pattern known in
 * y, the crossover of linalg/sparse.h, JNT_LINSOLVE)? */
int integ_linsys_sparse_pays(const jnt_abi_model *a, const integ_irk *k);
/* For tableau k (A only) on the run's model: picks the path (sparse when the
 * kernel's pattern is J's and the crossover says so), allocates. Returns 0
 * or JNT_ERR_NOMEM with the message set; *out is set either way (free it). */
int integ_linsys_new(integ_run *r, const integ_irk *k, integ_linsys **out);
/* Make J current: evaluated at (t, y) (fy = f(t, y) and tmp, n doubles, for
 * finite differences) unless kept from an earlier step and !force. A new J
 * invalidates the factorisation. Returns as integ_jac_dense. */
int integ_linsys_update(integ_run *r, integ_linsys *w, double t, const double *y,
                        const double *fy, double *tmp, int force);
/* Form and factorise M for step h (nothing when already done for this h
 * and J). Returns 0, 1 (singular: cause recorded) or a fatal status. */
int integ_linsys_factor(integ_run *r, integ_linsys *w, const integ_irk *k, double h);
/* Solve M x = b in place. Returns 0 or -1. */
int integ_linsys_solve(integ_linsys *w, double *b);
/* Was J evaluated for the current step (not kept from an earlier one)? */
int integ_linsys_fresh(const integ_linsys *w);
/* After an accepted step whose Newton contracted at worst by theta: keep J
 * for the next step only if that was fast. */
void integ_linsys_step_done(integ_linsys *w, double theta);
void integ_linsys_free(integ_linsys *w);
/* Arena need of integ_irk_step for ny states (vectors; the Jacobian and
 * the Newton matrix are allocated at the first step, freed by
 * integ_irk_stop). */
void integ_irk_work(const integ_irk *k, int ny, size_t *nw, size_t *ni);
/* One accepted fixed step of an implicit method: Newton on the stages with
 * a Jacobian kept from earlier steps while Newton contracts fast, evaluated
 * again at the step start otherwise, halving the step on failure (at most
 * 10 times, each counted as rejected). Sets t_new, y_new, f_new. */
int integ_irk_step(integ_run *r, const integ_irk *k);
/* Free what integ_irk_step allocated (the methods' stop). */
void integ_irk_stop(integ_run *r);

extern const integ_type integ_rk4;
extern const integ_type integ_dopri5;
extern const integ_type integ_bdf;
extern const integ_type integ_radau;
extern const integ_type integ_trap;
extern const integ_type integ_midpoint;

#endif
