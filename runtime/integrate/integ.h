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
#include "linalg/sparse.h"
#include "assemble.h"

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
    /* The method's own checks of the step, tolerances and parameters
     * (run.c), replacing the generic ones of fixed_step; JNT_OK or a status
     * with the message in the data. May be NULL. */
    int (*check)(jnt_data *d, const jnt_settings *s);
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
    int step_d;              /* the discrete state JNT_STEP_STATE (abi.h), or -1 */
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
/* A run's context on d at time t with settings s: the model, the data's
 * parameters, discrete states and statistics, no step-size state (step_d
 * -1); the vectors and the arena are the caller's to set. */
void integ_run_init(integ_run *r, const jnt_model *m, jnt_data *d, const jnt_settings *s,
                    double t);
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
/* The constraint rates (abi.h's cons_rates: C_t, gamma, C_q v + C_t; 3 nc)
 * at (t, y) into cr, the rows the assembly dropped as 0 (data.h's
 * cons_off). The kernel's status. */
int integ_cons_rates(integ_run *r, double t, const double *y, double *cr);
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
/* A Newton matrix's factorisation status info != 0 (sparse_lu_factor) of a
 * system of n unknowns per block: out of memory is an error (its status);
 * singular at unknown info - 1 is recorded as the cause, returning 1 (the
 * step is retried smaller). */
int integ_factor_failed(integ_run *r, int info, int n);
/* Cubic Hermite interpolation between (t, y, f) and (t_new, y_new, f_new). */
int integ_hermite(integ_run *r, double t, double *yout);
/* One step's cubic Hermite over n values: out[i] = h00 y0[i] + h10 f0[i] +
 * h01 y1[i] + h11 f1[i] with the basis at theta = (t - r->t) / h, f0 and f1
 * the rates at the step's ends (the multibody integrators' (q, v) and
 * (v, q'') and integ_hermite's (y, f)). */
void integ_hermite_rows(const integ_run *r, double t, int n, const double *y0, const double *f0,
                        const double *y1, const double *f1, double *out);
/* End of the next fixed step of size h from r->t: snapped to the grid
 * t0 + k h to avoid drift, and to t_end for the last step. */
double integ_fixed_end(const integ_run *r, double h);
/* The step the model proposes for the next step (its discrete state
 * JNT_STEP_STATE: seed 001's contact and friction step control), or
 * INFINITY when it has none. */
double integ_step_proposal(const integ_run *r);
/* The end of the next fixed step of hs from r->t (integ_fixed_end), or of
 * the model's proposed step when that is shorter (not below the smallest
 * step, not past t_end). */
double integ_capped_end(const integ_run *r, double hs);
/* Record a Newton failure at state `state` (r->cause*) and return 1 (the
 * step is retried smaller). */
int integ_newton_failed(integ_run *r, int state);
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
/* The DAE methods of multibody models (integ_dae.c): HHT-alpha and
 * generalized-alpha, stabilised index 2. */
extern const integ_type integ_hht, integ_galpha;
/* The implicit midpoint rule on multibody models in the energy-momentum
 * form (integ_dae_mid.c): fixed step, one multiplier per step, C(q) = 0 at
 * the step ends; named "midpoint" like the ODE method (run.c picks it for
 * multibody models, integ_find does not return it). */
extern const integ_type integ_dae_midpoint;
/* The classic RK4 on multibody models in the index-1 form, the step end
 * projected onto both constraint levels (integ_dae_rk4.c): fixed step;
 * named "rk4" like the ODE method (run.c picks it for multibody models). */
extern const integ_type integ_dae_rk4;
/* Radau IIA of order 5 with adaptive steps (integ_radau5.c), on ordinary
 * and multibody models alike. */
extern const integ_type integ_radau5;
/* SUNDIALS IDA (variable-order BDF) on the stabilised index-2 form of
 * multibody models (integ_ida.c). */
extern const integ_type integ_ida;
/* Lambda = T^-1 A^-1 T (row-major) of radau5's tableau and transformation:
 * the real eigenvalue in [0], the complex pair's 2 x 2 block in [4, 5, 7,
 * 8], zeros elsewhere (a check of the constants). */
void integ_radau5_lambda(double lam[9]);

/* ---- the multibody DAE methods (integ_dae.c, integ_dae_init.c) ---------
 * y = [q (nq), v (nq), z (nz), lambda (nc)] (abi.h). Newton works on
 * x = [q'' (nq), z (nz), lambda (nc), mu (nc when stab)], N unknowns: unknown
 * i < nx = ny - nq stands for the states q_i and v_i (i < nq) or for state
 * i + nq, and its residual row i is rhs row i + nq; unknown nx + k is the
 * multiplier mu_k of the stabilised index-2 formulation, which moves q along
 * C_q(q_n)^T, and its row nx + k is the velocity constraint k
 * (C_q v + C_t). The matrix has one pattern: the Jacobian's columns of q_i
 * and v_i (or of state i + nq) in its rows from nq on, M's pattern in the
 * first nq rows, the diagonal, C_q's rows again in the velocity rows (columns
 * of q''), and in the column of mu_k the union of the Jacobian's q-columns
 * that C_q's row k touches; each use fills it with its own coefficients
 * (integ_dae_coef). */
typedef struct integ_dae {
    int nq, nz, nc, nx, N;
    int stab;                /* 1: stabilised index 2 (mu and the velocity rows) */
    int once;                /* 1: the consistent start only (rk4): at most
                                DAE_ONCE_LOOPS unknowns, dense plain loops */
    int hht;                 /* 1: HHT-alpha; 0: generalized-alpha */
    double alpha_m, alpha_f; /* generalized-alpha's; HHT: 0 and -alpha */
    double gamma, beta;      /* Newmark's */
    double ca;               /* d a_{n+1} / d q''_{n+1} */
    double wm, wf;           /* equilibrium wm M q'' - F_{n+1} + wf F_n = 0 */
    double err_coef;         /* local error in q: err_coef h^2 (a_{n+1} - a_n) */
    sparse_lu lu;            /* the Newton matrix's factorisation */
    int *colptr, *rowind;    /* its pattern (N + 1, nnz) */
    int *pos;                /* N ints of scratch, -1 between uses */
    double *val;             /* its values (nnz) */
    double *jv, *mv;         /* the Jacobian's values (jac_nnz), M's (mass_nnz) */
    double *jn;              /* stab: the Jacobian's values at t_n (C_q(q_n)) */
    int *cq_ptr, *cq_e;      /* C_q by rows: row k's entries are the Jacobian's
                                values cq_e[cq_ptr[k] .. cq_ptr[k + 1]) */
    int *cq_col;             /* and their columns (q_i) */
    int have_m;              /* mv holds M (kept when mass_const) */
    double fact_h;           /* h of the step matrix factorised; 0: none */
    int fresh;               /* the factorisation is from the current step */
    double *vec;             /* the block holding the vectors below */
    double *qdd, *a, *fn;    /* at t_n: q'', the auxiliary acceleration, the rhs (ny) */
    double *qdd1, *a1, *f1;  /* at t_{n+1} */
    int swap;                /* a step was accepted: its end becomes the next start */
    double *x, *dx, *yt;     /* unknowns, residual and correction (N), a trial state (ny) */
    double *cr;              /* C_t then gamma (2 nc) */
    double *gv;              /* stab: C_q v + C_t at the trial state (nc) */
    double *xa, *xb;         /* the unknowns of the last two accepted steps (N) */
    double ha;               /* the last accepted step */
    int nhist;               /* how many of xa, xb hold a step (0, 1, 2) */
    double *dq;              /* stab: scratch, C_q(q_n)^T mu (nq) */
    double h;                /* adaptive: the next step */
    /* extra rows of the assembly (pins, initial joint coordinates: assemble.h),
       set before integ_dae_consistent; NULL: none */
    const assemble_rows *extra;
    assemble_info asm_info;  /* what the assembly at the start did */
} integ_dae;

/* integ_dae.once: the consistent start's few factorisations take the
 * plain-loop dense LU up to this order, which loads no library */
#define DAE_ONCE_LOOPS 64

/* Coefficients of the Newton matrix: on the columns of q''_i, m M + iq I,
 * kq[b] J(:, q_i) + kv[b] J(:, v_i) and cv C_q(:, i) in the velocity rows;
 * on z_j's, iz I + kz[b] J(:, z_j); on lambda_k's, kl[b] J(:, lambda_k); on
 * mu_k's, iu I + ku sum_i C_q(q_n)(k, i) kq[b] J(:, q_i); b the block of
 * the row (0: the rows of v, 1: of z, 2: of lambda; the velocity rows take
 * only cv and iu). */
typedef struct integ_dae_coef {
    double m, iq, iz, kq[3], kv[3], kz[3], kl[3];
    double cv, ku, iu;
} integ_dae_coef;

/* Allocate w's arrays and the Newton matrix's pattern and factorisation
 * (its path by linalg/sparse.h's crossover; with w->once and at most
 * DAE_ONCE_LOOPS unknowns dense.h's plain loops, SPARSE_LOOPS); w->stab
 * chooses the formulation. 0 or JNT_ERR_NOMEM (message set). */
int integ_dae_alloc(integ_run *r, integ_dae *w);
void integ_dae_free(integ_dae *w);
/* M at (t, y) into w->mv unless kept (mass_const). 0 or JNT_ERR_KERNEL. */
int integ_dae_mass(integ_run *r, integ_dae *w, double t, const double *y);
/* Fill the Newton matrix from w->jv, w->jn and w->mv with c and factorise
 * it. Returns 0, 1 + j when singular at unknown j (a pivot below tiny times
 * the largest when `strict`, dense path), or JNT_ERR_NOMEM (message set). */
int integ_dae_factor(integ_run *r, integ_dae *w, const integ_dae_coef *c, int strict);
/* The Newton matrix of step h formed again at (t, w->yt): the Jacobian
 * there, then integ_dae_factor with c. Returns 0 (w->fact_h = h, w->fresh
 * set), 1 when singular (the cause recorded at the state state_of(w, j) of
 * the failing unknown j), or a fatal status. */
int integ_dae_refactor(integ_run *r, integ_dae *w, const integ_dae_coef *c, double t, double h,
                       int (*state_of)(const integ_dae *w, int j));
/* Consistent initial conditions at r->t (integ_dae_init.c): q assembled
 * onto C(q, t) = 0 and w->extra's position rows (assemble.c: the model's
 * positions are guesses, moved by least weighted change; to
 * settings.assemble_tol, 0: 1e-12 times the model's length scale), v onto
 * C_q v + C_t = 0 (and w->extra's velocity rows), then q'' and lambda from
 * [M C_q^T; C_q 0] [q''; lambda] = [Q; -gamma]; writes q, v, lambda into
 * r->y and q'', a and the rhs into w (and C_q(q_0) into w->jn when stab).
 * 0 or an error status (JNT_ERR_MODEL for an unassembled or redundant
 * model). */
int integ_dae_consistent(integ_run *r, integ_dae *w);
/* Assemble d's state at d->t now, the values set since the last step
 * (d->yset) pinned where the joints allow it, else projected
 * (integ_dae_set.c): writes d->y, counts the set values moved in *moved and
 * d->stats.projected and names them in d->err. JNT_OK or an error status
 * (the message in d; d->y unchanged). */
int integ_dae_reassemble(const jnt_model *m, jnt_data *d, int *moved);
/* The largest |C_k| of an rhs f (ny) of the run's model. */
double integ_dae_cmax(const integ_dae *w, const double *f);
/* out (nc) = C_q u, C_q from the Jacobian's values jv. */
void integ_dae_cq(const integ_dae *w, const double *jv, const double *u, double *out);
/* out (nq) = C_q^T m, C_q from the Jacobian's values jv. */
void integ_dae_cqt(const integ_dae *w, const double *jv, const double *m, double *out);

#endif
