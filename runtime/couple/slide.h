/*
 * slide.h: substructures coupled by 2D node-to-segment sliding interfaces
 * with Coulomb friction (seed 003): time integration by the dual
 * substructuring method with time-variant coupling B_C(t), B_E(t)
 * (eqs. 9-21, assumptions a/b/c) or by the forward-increment Lagrange
 * multiplier method FiLm (Carpenter et al., seed 003 Sect. 2.1), and the
 * complex modes of the friction-coupled system at frozen slave positions.
 *
 * A slide_def describes the system (it is read once, by slide_model_new,
 * and copied: the caller may free it afterwards; callbacks and their user
 * pointer are called, never copied). A slide_model is immutable; a
 * slide_data holds the state of one run and all its work memory (no malloc
 * in slide_step); many data objects may share one model.
 *
 *   slide_model *m;  char err[256];
 *   if (slide_model_new(&def, &m, err, sizeof err) < 0) ... err ...;
 *   slide_data *d = slide_data_new(m, user);
 *   slide_init(m, d, 0.0, NULL, NULL);            // u0 = v0 = 0
 *   while (d->t < t_end) if (slide_step(m, d) < 0) ... slide_error(d) ...;
 *
 * Sign conventions (docs/interfaces.md): a master surface is a chain of
 * nodes T_0, T_1, ... whose body lies on the RIGHT of each segment
 * T_k -> T_k+1 (the top edge of a body runs in +x): the outward normal is
 * n = (-sin gamma, cos gamma), the tangent t = (cos gamma, sin gamma). The
 * normal force lambda >= 0 is compressive; the friction force on the slave
 * is -chi mu lambda t, chi = sign of the slave's velocity relative to the
 * master along t (eq. 19).
 *
 * Status codes: 0, > 0 informational (SLIDE_OFF_MASTER, SLIDE_NOT_CONVERGED:
 * the step was completed), < 0 the jnt errors of jnt.h (JNT_ERR_USAGE,
 * JNT_ERR_NOMEM, JNT_ERR_SOLVER, JNT_ERR_NONFINITE, JNT_ERR_KERNEL, JNT_ERR_IO)
 * with a message (slide_error, or err[errn] at model setup).
 */
#ifndef JNT_SLIDE_H
#define JNT_SLIDE_H

#include <stddef.h>

#include "jnt/setup.h"

/* Informational statuses of slide_step (> 0: the step was completed). */
enum {
    SLIDE_OFF_MASTER = 1,    /* a slave that was in contact left the master surface: it is free */
    SLIDE_NOT_CONVERGED = 2  /* the active-set or Gauss-Seidel iteration hit its limit */
};

/* Coupling method of the interfaces (one per system). */
typedef enum slide_method {
    SLIDE_DUAL = 0, /* substructuring, eqs. 13-15 with B_C, B_E of eqs. 18-21 */
    SLIDE_FILM = 1  /* forward-increment Lagrange multipliers, stick first (Sect. 2.1) */
} slide_method;

/* Contact assumption of a dual interface (seed 003 Sect. 2.2). */
typedef enum slide_assumption {
    SLIDE_BASIC = 0,     /* (a) positions from the prescribed rigid motion (eq. 16) */
    SLIDE_REALISTIC = 1, /* (b) predictor positions incl. deformation, deformed normal (eq. 17) */
    SLIDE_SIMPLIFIED = 2 /* (c) predictor positions, normal of the undeformed segment */
} slide_assumption;

/* Contact states (slide_contact.state). */
enum {
    SLIDE_FREE = 0,  /* not in contact (gap open, or released: no tension) */
    SLIDE_SLIP = 1,  /* in contact, sliding (friction -chi mu lambda) */
    SLIDE_STICK = 2, /* in contact, sticking (FiLm only) */
    SLIDE_OFF = 3    /* the slave does not project onto the master surface */
};

/* A linear substructure: M q'' + C(t) q' + K q = f(t) + g, n coordinates
 * (physical or reduced, e.g. Craig-Bampton), dense column-major n x n
 * matrices. M symmetric positive definite, K symmetric. */
typedef struct slide_sub {
    int n;
    const double *M, *C, *K; /* C may be NULL (no constant damping) */
    /* External generalized forces at t into f[n] (zeroed before the call);
     * 0, or a status < 0 that stops the step. NULL: no force. */
    int (*force)(double t, double *f, void *user);
    /* Extra Rayleigh damping at t: C(t) = C + alpha M + beta K (seed 003's
     * damping blend). NULL: none. */
    void (*rayleigh)(double t, double *alpha, double *beta, void *user);
    /* Prescribed rigid translation of the substructure's reference frame:
     * position x[2] (m) and velocity v[2] (m/s) at t. Node positions are
     * X + x_rig(t) + u. The frame's inertia (-M r a_rig) is not added: put
     * it in force() when the frame accelerates. NULL: fixed frame. */
    void (*rigid)(double t, double x[2], double v[2], void *user);
} slide_sub;

/* A node of an interface: reference coordinates X (m, global frame) and
 * how its displacement (ux, uy) follows the coordinates q of its
 * substructure: phi[c] a row of length n (u_c = phi[c] . q), else dof[c]
 * an index of q (u_c = q[dof]), else (NULL and -1) fixed. */
typedef struct slide_node {
    double X[2];
    const double *phi[2];
    int dof[2];
} slide_node;

/* A sliding interface: the slave nodes of substructure `slave_sub` against
 * the master chain of `master_sub` (-1: the ground, nodes fixed). */
typedef struct slide_iface {
    int slave_sub, master_sub;
    int nslave, nmaster; /* nmaster >= 2 (nmaster - 1 segments) */
    const slide_node *slave, *master;
    slide_assumption assumption; /* dual method only */
    double mu;                   /* constant friction coefficient (slide_iface_init: 0.3) */
    /* Friction coefficient of interface `iface` at time t (s, the start of
     * the step) and slip speed |v_r| (m/s); NULL: the constant mu. */
    double (*mu_fn)(double t, int iface, double v_slip, void *user);
} slide_iface;

/* The coordinates the step runs on (slide_def.coords). A substructure whose
 * damping is classical (C = NULL, or Phi^T C Phi diagonal to round-off for
 * its modes Phi of (K, M)) can be stepped on its modal coordinates: the
 * predictor is then diagonal (O(n) instead of three n x n products) and the
 * interface ports are rows of R Phi evaluated when a contact needs them.
 * The scheme is the same (central differences are invariant under a
 * constant change of coordinates): results agree to round-off. */
typedef enum slide_coords {
    SLIDE_COORDS_AUTO = 0,     /* modal for classical substructures of at least
                                  SLIDE_MODAL_MIN coordinates when def.lazy, else physical */
    SLIDE_COORDS_PHYSICAL = 1, /* the substructures' own coordinates, dense products */
    SLIDE_COORDS_MODAL = 2     /* modal wherever the damping is classical */
} slide_coords;

#define SLIDE_MODAL_MIN 8

/* The system. */
typedef struct slide_def {
    int nsub;
    const slide_sub *sub;
    int niface;
    const slide_iface *iface;
    slide_method method;
    double h;           /* time step (s); must be below 2 / omega_max of every substructure */
    int energy;         /* 1: keep the energy accounts (slide_energy; 3 extra products a step) */
    int max_iter;       /* active-set and Gauss-Seidel sweeps: 0 = 100 */
    double gs_tol;      /* Gauss-Seidel relative tolerance on lambda: 0 = 1e-12 */
    int coords;         /* slide_coords */
    /* 1: after slide_step, d->u, d->v, d->a of the substructures stepped on
     * modal coordinates are those of the last slide_sync (or slide_init):
     * call slide_sync when they are needed (a substructure on physical
     * coordinates is always current). 0: all are current after every step. */
    int lazy;
    /* 1: a force callback reads d->u or d->v (through its user pointer):
     * with lazy, they are brought up to date before the callbacks run. */
    int force_state;
} slide_def;

/* Defaults: a zero interface with mu = 0.3, the realistic assumption. */
void slide_iface_init(slide_iface *f);

/* The node `node` of an fe model as an interface node: red_node_rows
 * (setup.h) writes its coordinates to out->X and its rows to rows[2 * r]
 * (r = b->r or fe->ndof; ux then uy), and out->phi points into them. 0 or
 * JNT_ERR_USAGE (message). */
int slide_node_fe(const fe_model *fe, const red_basis *b, int node, double angle,
                  const double *origin, double *rows, slide_node *out, char *err, size_t errn);

typedef struct slide_model slide_model;

/* Build the model: copies the matrices and rows, Cholesky-inverts each M,
 * computes the stability limit and the interface flexibilities
 * R M^-1 R^T. 0, or JNT_ERR_USAGE / JNT_ERR_NOMEM / JNT_ERR_SOLVER with a
 * message in err. *out is NULL unless 0 is returned. */
int slide_model_new(const slide_def *def, slide_model **out, char *err, size_t errn);
void slide_model_free(slide_model *m);

/* Total number of coordinates (sum of n), the offset of substructure s in
 * the global vectors, the stability limit 2 / omega_max (s) of the free
 * substructures, and the number of contacts (slave nodes over all
 * interfaces; contact k of interface i slave j in definition order). */
int slide_model_ndof(const slide_model *m);
int slide_model_offset(const slide_model *m, int s);
double slide_model_hcrit(const slide_model *m);
int slide_model_ncontact(const slide_model *m);

/* Information on one contact after a step (forces at t_n = t - h,
 * geometry at t_n+1 = t), all in SI units. */
typedef struct slide_contact {
    int iface, slave;  /* interface and slave index */
    int state;         /* SLIDE_FREE, SLIDE_SLIP, SLIDE_STICK, SLIDE_OFF */
    int seg;           /* master segment k (nodes k, k+1), -1 when off */
    double alpha;      /* eq. 18: position of the slave on the segment, 0..1 */
    double gamma;      /* the segment angle used (rad) */
    double chi;        /* eq. 19: -1, 0, +1 */
    double mu;         /* friction coefficient used */
    double gap;        /* predicted gap at t_n+1 before the correction (m; < 0 penetrates) */
    double gap_after;  /* gap with the same geometry after the correction (0 when in contact) */
    double normal;     /* normal force lambda_n (N, >= 0) */
    double friction;   /* tangential force on the slave along t (N) */
    double v_slip;     /* relative velocity of the slave along t (m/s) */
    double x[2];       /* contact point: slave position used for the geometry (m) */
    /* Rows of eqs. 20 and 21 on (u_Cx, u_Cy, u_T1x, u_T1y, u_T2x, u_T2y) in
     * the paper's convention, B_C u = -gap change; with our chi,
     * B_E = eq. 21 with chi replaced by -chi (docs/interfaces.md). */
    double bc[6], be[6];
} slide_contact;

/* Run counters. */
typedef struct slide_stats {
    long steps;
    long active_iter;  /* active-set solves */
    long gs_sweeps;    /* Gauss-Seidel sweeps (FiLm) */
    long releases;     /* contacts released because lambda < 0 (no tension) */
    long chi_flips;    /* reversals of the sliding direction (chi) of a closed contact */
    long off_master;   /* contacts that left the master surface */
    long not_converged;
} slide_stats;

/* Energy accounts since slide_init (slide_def.energy = 1), discrete and
 * exact for the central difference scheme: with E = kinetic + strain,
 *   E - E0 = work_ext + work_drive - damping - friction + work_normal
 * to round-off (slide_energy_residual). kinetic = v' M v / 2 with
 * v = (u_n+1 - u_n) / h, strain = u_n' K u_n+1 / 2. */
typedef struct slide_energy {
    double kinetic, strain, initial;
    double work_ext;    /* work of f(t) */
    double work_drive;  /* work of the prescribed rigid motions on the contact forces */
    double damping;     /* dissipated by C(t) */
    double friction;    /* dissipated by friction (>= 0) */
    double work_normal; /* work of the normal forces (0 for a persistent contact) */
} slide_energy;

/* The state of one run. Read-only for the caller. */
typedef struct slide_data {
    double t;          /* time of u */
    long step;
    /* u, v, a: physical coordinates (each substructure's own, at its offset);
     * with slide_def.lazy see slide_sync */
    double *u;         /* coordinates at t (all substructures, offsets per substructure) */
    double *v;         /* backward velocity (u - u_prev) / h (eq. 13's damping velocity) */
    double *a;         /* acceleration at t - h: (u - 2 u_prev + u_prev2) / h^2; after
                          slide_init the contact-free a0 */
    slide_contact *contact;
    slide_stats stats;
    slide_energy energy;
    void *user;        /* passed to every callback */
    struct slide_work *w; /* internal */
} slide_data;

/* A data object (all memory for slide_step) or NULL when out of memory. */
slide_data *slide_data_new(const slide_model *m, void *user);
void slide_data_free(slide_data *d);

/* Start at t0 with u0, v0 (NULL: zero): u_-1 = u0 - h v0 + h^2/2 a0 with
 * the contact-free acceleration a0; the contacts' segments are found on
 * the geometry at t0. 0, JNT_ERR_USAGE (h above the stability limit) or a
 * callback's status (message). */
int slide_init(const slide_model *m, slide_data *d, double t0, const double *u0,
               const double *v0);

/* One step t_n -> t_n+1: predictor (eq. 13), geometry and B_C, B_E at
 * t_n+1 (eqs. 16-21), multipliers (eq. 15, no tension) or FiLm, corrector
 * (eq. 14). 0, SLIDE_OFF_MASTER, SLIDE_NOT_CONVERGED, or < 0 (message; t,
 * u, v, a are still those of t_n, the contact report is partial). */
int slide_step(const slide_model *m, slide_data *d);

/* Bring d->u, d->v, d->a of every substructure up to date (slide_def.lazy:
 * u = Phi q for those on modal coordinates, n^2 operations each). */
void slide_sync(const slide_model *m, slide_data *d);

/* Part of a substructure's physical state (slide_sync_rows): what an output
 * row reads of it, when that is a few of its coordinates. */
typedef struct slide_rows slide_rows;
enum { SLIDE_ROW_U = 1, SLIDE_ROW_V = 2, SLIDE_ROW_A = 4 };

/* The part of substructure s made of its coordinates i < n (its size) with
 * what[i] != 0, a sum of SLIDE_ROW_U, SLIDE_ROW_V, SLIDE_ROW_A (u, v, a);
 * what NULL: all of them. Keeps a copy of those rows of the modal basis
 * (one row each, contiguous). NULL when out of memory or s is no
 * substructure. */
slide_rows *slide_rows_new(const slide_model *m, int s, const unsigned char *what);
void slide_rows_free(slide_rows *r);

/* Bring the part r of d->u, d->v, d->a up to date (slide_def.lazy): the
 * values slide_sync gives them, bit for bit (the same products summed in
 * the same order), at n operations per value instead of n^2 for the
 * substructure; the rest of d->u, d->v, d->a is left as it was. */
void slide_sync_rows(const slide_model *m, slide_data *d, const slide_rows *r);

/* 1 when substructure s is stepped on its modal coordinates (slide_coords). */
int slide_model_modal(const slide_model *m, int s);

/* Steps until t >= t_end - h/2, calling out(m, d, user) after every
 * `every`-th step (and once at the start); out returns non-zero to stop.
 * The first status < 0 is returned; informational ones are counted. */
int slide_run(const slide_model *m, slide_data *d, double t_end, int every,
              int (*out)(const slide_model *m, const slide_data *d, void *user), void *user);

/* Largest |gap_after| over the contacts in contact at the last step: the
 * compatibility residual B_C u_n+1 - gap of the corrector (m). */
double slide_compat_residual(const slide_model *m, const slide_data *d);

/* (E - E0) - (work_ext + work_drive - damping - friction + work_normal). */
double slide_energy_residual(const slide_data *d);

/* The physical (ux, uy) of a node of substructure s (a slide_node: its
 * rows or DOFs) from a global vector x: d->u (displacement, without the
 * rigid motion), d->v or d->a. Zero for s = -1 (the ground). */
void slide_node_value(const slide_model *m, int s, const slide_node *node, const double *x,
                      double out[2]);

/* The message of the last error or warning of d ("" when none). */
const char *slide_error(const slide_data *d);
/* Name of a status: "SLIDE_OFF_MASTER", ... or jnt_status_name. */
const char *slide_status_name(int status);

/* ---- complex modes (slide_modes.c) ------------------------------------ */

/* The eigensolvers of the complex mode analysis (slide_modes_opts.solver,
 * and which one slide_modes_at used). The first three work on the
 * substructures' modes Phi (slide_eig.c) and need classical damping in
 * every substructure (C = NULL or Phi^T C Phi diagonal; Rayleigh callbacks
 * always are); QZ takes anything. Automatic choice: the first that applies. */
enum {
    SLIDE_EIG_AUTO = 0,    /* choose */
    SLIDE_EIG_FREE = 1,    /* no slave in contact: each mode's s^2 + d s + w^2 = 0 */
    SLIDE_EIG_SYM = 2,     /* no friction coupling (mu chi = 0) and proportional damping
                              C = a M + b K: LAPACKE dsyevd on the symmetric constrained
                              stiffness in modal coordinates (dsygvd gave the modes) */
    SLIDE_EIG_SECULAR = 3, /* one slave in rigid contact (with friction, or damping that is
                              not proportional): the roots of the modal secular equation
                              (Aberth iteration, O(n^2) per sweep; QZ if it fails its checks) */
    SLIDE_EIG_QZ = 4       /* LAPACKE dggev on the first-order pencil of the primal assembly */
};

/* "free", "symmetric", "secular", "qz" ("auto" for 0). */
const char *slide_eig_name(int solver);

/* Options of the complex mode analysis. Zero-initialise. */
typedef struct slide_modes_opts {
    int moved;          /* 1 + the index of the moved substructure; 0: the slave
                           substructure of interface 0 */
    double dir[2];      /* direction of the motion (0, 0: +x) */
    double speed;       /* sliding speed given to mu_fn (m/s) */
    double kc;          /* contact stiffness (N/m): 0 = rigid contact (constraint eliminated) */
    double gap_tol;     /* a slave is in contact when its gap <= gap_tol (0: 1e-6 x the
                           mean master segment length) */
    int no_damping;     /* 1: leave C out */
    double t;           /* time at which the Rayleigh callbacks give C(t) */
    double unstable_tol;/* unstable when Re > unstable_tol |lambda| (0: 1e-9) */
    int count;          /* keep the `count` lowest frequencies (0: all) */
    int solver;         /* SLIDE_EIG_*: 0 chooses; another is used when it applies (else
                           JNT_ERR_USAGE) */
} slide_modes_opts;

/* One eigenvalue s = re + i 2 pi freq of the first-order system (freq >= 0). */
typedef struct slide_mode {
    double freq;   /* Hz */
    double re;     /* 1/s */
    int unstable;  /* re > unstable_tol |s| */
} slide_mode;

/* Complex modes with the moved substructure translated by p dir (all other
 * frames at rest, deformation zero: the basic geometry), the slaves in
 * contact coupled by primal assembly with the friction-coupled,
 * non-symmetric stiffness. Writes up to `cap` modes (ascending frequency,
 * each conjugate pair once, real eigenvalues each) to out and their count
 * to *nout, the number of slaves in contact to *ncontact and the solver
 * used (SLIDE_EIG_*) to *solver (both may be NULL). Allocates its own work
 * memory. 0 or < 0 (message in err). */
int slide_modes_at(const slide_model *m, void *user, double p, const slide_modes_opts *o,
                   slide_mode *out, int cap, int *nout, int *ncontact, int *solver, char *err,
                   size_t errn);

/* The locus: slide_modes_at at p = a + (b - a) k / steps, k = 0..steps,
 * written to a CSV "position,frequency,real,unstable,solver" (m, Hz, 1/s,
 * 0/1, SLIDE_EIG_*), one row per mode and position. Returns the number of
 * unstable rows in *nunstable (may be NULL). 0 or < 0 (message). */
int slide_modes_locus(const slide_model *m, void *user, double a, double b, int steps,
                      const slide_modes_opts *o, const char *path, int *nunstable, char *err,
                      size_t errn);

#endif
