/*
 * jnt/abi.h: the interface between generated model code and the runtime.
 *
 * Generated C includes only this header. It defines one constant object of
 * type jnt_abi_model, named jnt_generated_model, holding sizes, names,
 * parameter defaults and the model's kernels. The runtime never includes the
 * compiler's headers; the compiler knows the runtime only through this file.
 *
 * Conventions for every kernel:
 *   t  time (s), y  continuous states (ny), d  discrete states (nd),
 *   p  parameters in SI units (np), u  the gathered quantities (2 nu): the
 *   positions u[0 .. nu) and velocities u[nu .. 2 nu) of the substructure
 *   points the model's elements act on. The runtime gathers u from y through
 *   the rows of each block's reduction basis (jnt_abi_block.rows, model data)
 *   before every kernel call; kernels never see a basis. Model data (the
 *   blocks' matrices and rows, the interfaces' node tables, the tables the
 *   kernels' loops over instances read: bind below) is one array of
 *   ndata doubles handed to the runtime beside this table
 *   (jnt_model_wrap, jnt.h): tables hold offsets into it, never literals, so
 *   generated C grows with the number of elements, not with a basis size.
 *   Return 0 for success, >0 for a recoverable failure (the integrator may
 *   retry with a smaller step), <0 for a fatal one.
 */
#ifndef JNT_ABI_H
#define JNT_ABI_H

#define JNT_ABI_VERSION 18

/* The largest linear block (reduced substructure) the runtime handles. */
#define JNT_MAX_BLOCK 1024

/* The discrete state of this name, when a model has one, is the step its
 * elements propose for the next step (the contact and friction step control
 * of seed 001 eqs. 19-20 and 33, updated at each step end); the multibody
 * integrators take no larger step. */
#define JNT_STEP_STATE "step.h"

/* The kind of a quantity (jnt_abi_model.out_kinds), from sema: its
 * dimension (out_dims) does not tell an angle (1) from a ratio, an angular
 * velocity (1/s) from a rate, an energy (kg m^2/s^2) from a torque, a power
 * from a torque's rate. */
enum { JNT_KIND_NONE = 0, JNT_KIND_ANGLE, JNT_KIND_ANGVEL, JNT_KIND_ANGACC, JNT_KIND_ENERGY,
       JNT_KIND_POWER };

/* Number of base dimensions: kg, m, s, A, K (in that order). Exponents are
 * stored as multiples of 1/JNT_DIM_DEN so that N/m^1.5 is representable. */
#define JNT_NDIM 5
#define JNT_DIM_DEN 6

/* Run settings, computed from the parameters at run time. */
typedef struct jnt_settings {
    double t0;        /* start time (s) */
    double t_end;     /* end time (s) */
    double h;         /* fixed step (s), or initial step for adaptive methods (0: choose) */
    double rtol;      /* relative tolerance (adaptive methods) */
    double atol;      /* absolute tolerance (adaptive methods) */
    double out_every; /* output interval (s); 0: every accepted step */
    double h_min;     /* smallest step before giving up (s); 0: default */
    double h_max;     /* largest step (s); 0: unlimited */
    double alpha;     /* hht: alpha in [-1/3, 0] */
    double rho_inf;   /* generalized_alpha: spectral radius at infinite frequency, [0, 1] */
    double assemble_tol; /* multibody: the joints' residual (m or rad) the assembly at the
                            start reaches; 0: 1e-12 times the model's length scale */
    double max_order; /* bdf: the largest order CVODE may take, 1 to 5; 0: 5 */
} jnt_settings;

/* The right-hand side: ydot (ny) in out[0 .. ny), then the forces on the
 * gathered points (nu) in out[ny .. ny + nu); the runtime scatters those
 * through the basis rows into each block's generalized forces. */
typedef int (*jnt_rhs_fn)(double t, const double *y, const double *u, const double *d,
                          const double *p, double *out);
/* The Jacobian of the rhs kernel's outputs (ny + nu rows: ydot, then the
 * point forces) with respect to its inputs (ny + 2 nu columns: y, the point
 * positions, the point velocities), in compressed sparse column form: values
 * only, in the order of the pattern jac_colptr/jac_rowind of the model. The
 * runtime forms the Jacobian in y (Phi^T K Phi for the points of a block). */
typedef int (*jnt_jac_fn)(double t, const double *y, const double *u, const double *d,
                          const double *p, double *jv);
/* Discrete update, applied once per accepted step: reads the old d, writes d. */
typedef int (*jnt_update_fn)(double t, const double *y, const double *u, double *d,
                             const double *p);
typedef int (*jnt_output_fn)(double t, const double *y, const double *u, const double *d,
                             const double *p, double *out);
typedef int (*jnt_params_fn)(double *p, const unsigned char *set);
typedef int (*jnt_init_fn)(const double *p, double *y, double *d);
typedef int (*jnt_settings_fn)(const double *p, jnt_settings *s);

struct jnt_abi_model;

/* Analyses a model declares (`analysis NAME : KIND(...)`), run after its
 * simulation by jnt_run_analyses. */
enum { JNT_ANALYSIS_LINEAR = 1, JNT_ANALYSIS_HYSTERESIS = 2, JNT_ANALYSIS_TABLE = 3,
       JNT_ANALYSIS_LOCUS = 4, JNT_ANALYSIS_KINEMATIC = 5 };

typedef struct jnt_abi_analysis {
    const char *name;                  /* writes NAME.csv (hysteresis: also NAME_cycles.csv) */
    int kind;                          /* JNT_ANALYSIS_* */
    const struct jnt_abi_model *model; /* hysteresis: the model it runs (same parameters as
                                          the main model, in the same order); linear: NULL */
    /* v[0] = the time of the linearisation (linear) or the period (hysteresis)
     * or the first position (locus); v[1] = the number of cycles (hysteresis)
     * or the last position (locus); v[2], v[3] = the time and the slip speed
     * of the friction coefficients and the damping (locus); v[0], v[1], v[2] =
     * the first and last time and the interval (kinematic: a multibody model
     * with nc == nq, runtime/analyse/kinematic.c); v has 4 entries */
    int (*values)(const double *p, double *v);
    /* JNT_ANALYSIS_TABLE: a table the compiler computed (modes of a
     * substructure), written as NAME.csv: nrow x ncol values, row-major.
     * JNT_ANALYSIS_LOCUS (complex modes along a sliding interface, seed 003
     * Fig. 4): ncol = the interface, nrow = the number of steps */
    int ncol, nrow;
    const char *const *cols;
    const double *table;
} jnt_abi_analysis;

/* Per-run results a model declares (`summary { NAME = OP(column, from = T1,
 * to = T2) }`), computed by the runtime from the rows of its output
 * (jnt_summarize, jnt.h): over the rows with T1 <= t <= T2, the value at the
 * last row (FINAL), the largest and smallest value, the mean and the root
 * mean square over time and the integral (trapezoidal rule on the rows), the
 * time of the last row where the column is not 0 (LAST). */
enum { JNT_SUMMARY_FINAL = 1, JNT_SUMMARY_MAX, JNT_SUMMARY_MIN, JNT_SUMMARY_MEAN,
       JNT_SUMMARY_RMS, JNT_SUMMARY_INTEGRAL, JNT_SUMMARY_LAST };
/* jnt_abi_summary.flags: the window's bounds that are given (else the run's
 * first and last rows) */
enum { JNT_SUMMARY_FROM = 1, JNT_SUMMARY_TO = 2 };

typedef struct jnt_abi_summary {
    const char *name;
    int op;    /* JNT_SUMMARY_* */
    int col;   /* the output column it reads */
    int flags; /* JNT_SUMMARY_FROM, JNT_SUMMARY_TO */
} jnt_abi_summary;

/* A linear block (a reduced substructure): generalized coordinates
 * q = y[q0 .. q0 + r) and their velocities qd = y[q0 + r .. q0 + 2r) with
 *   Mr qd' + Cr qd + Kr q = g(t, y) + R^T F,
 * R (ng x r) the rows of the basis at the block's gathered points
 * u[g0 .. g0 + ng) = R q, u[nu + g0 ..] = R qd, and F their forces. The
 * generated rhs returns g in ydot[q0 + r ..] (and 0 in ydot[q0 ..]), and the
 * Jacobian kernel dg/dy in those rows; the runtime adds R^T F and completes
 * both with the matrices below (r x r, column-major, offsets into the model
 * data): Minv = Mr^-1, Minv Kr, Minv Cr. */
typedef struct jnt_abi_block {
    const char *name;
    int q0, r;
    long minv, minv_k, minv_c; /* offsets into the model data */
    int g0, ng;                /* its gathered points */
    long rows;                 /* offset of R, ng x r column-major */
    int qdd0; /* a model with interfaces: the runtime writes the accelerations
                 qd' to d[qdd0 .. qdd0 + r) after every step; -1: not needed */
    int flags; /* a model with interfaces: JNT_BLOCK_FRAME, the block's frame moves
                  (the model's block_in kernel gives x, y, vx, vy at in[6 b ..]);
                  JNT_BLOCK_RAYLEIGH, extra damping alpha(t) M + beta(t) K (in[6 b + 4],
                  in[6 b + 5]); a multibody model: JNT_BLOCK_FFRF, below */
    /* JNT_BLOCK_FFRF: the elastic coordinates q_f of a flexible2d body in a
     * multibody model (q_f = q[q0 .. q0 + r), their velocities at
     * y[nq + q0 ..]); its frame's x, y, angle are q[frame .. frame + 3);
     * ffrf the offset of its invariants (JNT_FFRF_*) in the model data;
     * block_in gives the gravity (gx, gy) at in[6 b], in[6 b + 1]. The
     * runtime adds its mass matrix, quadratic-velocity, elastic, damping
     * and gravity forces (core/flex.c); the kernels give the rest.
     * JNT_BLOCK_FFRF3: the same for a flexible3d body, its frame's x, y, z
     * and directors d1, d2, d3 at q[frame .. frame + 12), its invariants
     * JNT_FFRF3_*, gravity (gx, gy, gz) at in[6 b .. 6 b + 2] (core/flex3d.c). */
    int frame;
    long ffrf;
    /* A model with interfaces: what its output kernel reads of the block,
     * so that an output row computes only that of the physical state
     * (runtime/couple/iface_slide.c). NULL: all of it. Else out_reads[0] = n,
     * then n entries e in [0, 3r): e < r the displacement of coordinate e
     * (y[q0 + e]), r <= e < 2r the velocity of coordinate e - r
     * (y[q0 + e]), 2r <= e the acceleration of coordinate e - 2r
     * (d[qdd0 + e - 2r]). ABI 17. */
    const int *out_reads;
} jnt_abi_block;

/* JNT_BLOCK_STATE_FORCES (a model with interfaces, on every block): the rhs kernel's forces
 * read the state (a coordinate, a velocity or a gathered point, also where only a condition
 * reads it, which the Jacobian cannot show), so the runtime writes the blocks' state into y
 * before calling it. No block_in values. */
enum { JNT_BLOCK_FRAME = 1, JNT_BLOCK_RAYLEIGH = 2, JNT_BLOCK_FFRF = 4, JNT_BLOCK_FFRF3 = 8,
       JNT_BLOCK_FFRF_SPARSE = 16, JNT_BLOCK_STATE_FORCES = 32 };

/* JNT_BLOCK_FFRF | JNT_BLOCK_FFRF_SPARSE: a flexible2d body left unreduced
 * (its basis the identity on the substructure's free DOFs, r up to
 * JNT_MAX_SPARSE): no minv, minv_k, minv_c (offsets 0, size 0); rows holds
 * ng doubles, the coordinate each gathered point is (a unit row); ffrf the
 * sparse invariants below (core/flex.c, setup/red_ffrf_sparse.c). */
#define JNT_MAX_SPARSE 16384

/* The sparse invariants of an unreduced flexible2d body with r elastic
 * coordinates and nnz entries in the union pattern of its M, K, C: m, s0x,
 * s0y, J0, nnz, three zeros, then S1 (2 x r), j1 (r), e0 (r), rot (r: the
 * rotation P of seed 000's E = Phi^T M P Phi on the coordinates, (P q)_j =
 * sign(rot_j) q_{|rot_j| - 1}), the CSC pattern colptr (r + 1) and rowind
 * (nnz) as doubles, then the values of M, K and C (nnz each) in it. E is
 * M P, never stored. */
#define JNT_FFRF_SP_S1 8
#define JNT_FFRF_SP_SIZE(r, nnz) (9 + 6 * (long)(r) + 4 * (long)(nnz))

/* The invariants of a flexible2d body with r elastic coordinates, in the
 * model data from jnt_abi_block.ffrf (runtime/setup/red_ffrf.c): m, s0x,
 * s0y, J0, then S1 (2 x r, column-major), j1 (r), e0 (r), E, Mr, Kr, Cr
 * (r x r each, column-major). */
#define JNT_FFRF_S1 4
#define JNT_FFRF_SIZE(r) (4 + 4 * (long)(r) + 4 * (long)(r) * (long)(r))

/* The invariants of a flexible3d body with r elastic coordinates, one array
 * of doubles (all matrices column-major). The integrals are
 * those of point masses; red_ffrf3d.c forms them from the FE mass matrix
 * (rotary inertia included) and says what they are for other matrices.
 *   m                      mass
 *   s0 (3)                 first moment int X dm
 *   E0 (3 x 3)             Euler tensor int X X^T dm = tr(J0)/2 I - J0
 *   S1 (3 x r)             int Phi_P dm
 *   E1 (9 x r)             column m: the 3 x 3 dE/dq_m at q = 0
 *   C0 (3 x r, 3 times)    C0_i[k, n] = int X_i Phi_{P,k,n} dm, C0_i at + 3 r i
 *   E2 (r x r, 6 times)    E2_ij[m, n] = 1/2 d2E_ij/dq_m dq_n (symmetric),
 *                          pairs ij = 00 11 22 01 02 12
 *   C1 (r x r, 9 times)    C1_ik[m, n] = int Phi_{P,i,m} Phi_{P,k,n} dm,
 *                          C1_ik at + (i + 3 k) r^2
 *   Mr, Kr, Cr (r x r)     reduced mass, stiffness, damping (the caller
 *                          appends Kr and Cr, as for flexible2d) */
#define JNT_FLEX3_MAX_R 128 /* a flexible3d body's elastic coordinates at most */
#define JNT_FFRF3_M 0
#define JNT_FFRF3_S0 1
#define JNT_FFRF3_E0 4
#define JNT_FFRF3_S1 13
#define JNT_FFRF3_E1(r) (13 + 3 * (long)(r))
#define JNT_FFRF3_C0(r) (13 + 12 * (long)(r))
#define JNT_FFRF3_E2(r) (13 + 21 * (long)(r))
#define JNT_FFRF3_C1(r) (JNT_FFRF3_E2(r) + 6 * (long)(r) * (long)(r))
#define JNT_FFRF3_MR(r) (JNT_FFRF3_C1(r) + 9 * (long)(r) * (long)(r))
#define JNT_FFRF3_KR(r) (JNT_FFRF3_MR(r) + (long)(r) * (long)(r))
#define JNT_FFRF3_CR(r) (JNT_FFRF3_KR(r) + (long)(r) * (long)(r))
#define JNT_FFRF3_SIZE(r) (JNT_FFRF3_CR(r) + (long)(r) * (long)(r))

/* A massless series-series Iwan chain solved quasi-statically after every
 * accepted step (runtime/couple/chain.c, seed 004 Sect. 3): n slider displacements
 * in d[d0 .. d0 + n), then the dissipated energy, the number of slipping
 * sliders and the loads of the last solution (left, right): JNT_CHAIN_*
 * past d0 + n. The model's
 * chain_in kernel writes the chain's inputs at in[in0 ..]: the stiffness k,
 * the left and right loads, then the n slip strengths. */
enum { JNT_CHAIN_D, JNT_CHAIN_NSLIP, JNT_CHAIN_LOAD_L, JNT_CHAIN_LOAD_R, JNT_CHAIN_NEXTRA };
typedef struct jnt_abi_chain {
    const char *name;
    int d0, n, in0;
} jnt_abi_chain;

/* A sliding interface (seed 003, runtime/slide.h): slave nodes of block
 * `slave` against the master chain of block `master`, coupled by the dual
 * method under an assumption, or by FiLm. x holds the reference coordinates
 * (2 per node: the slaves, then the master nodes), rows their displacement
 * rows (per node ux then uy, each as long as its block's r); both are
 * offsets into the model data. The runtime
 * writes JNT_IFACE_NCONTACT discrete states per slave from d0 on: normal
 * force, friction force, contact point x, y, slip velocity, state. A model
 * with interfaces is integrated by the explicit central difference of
 * seed 003 (integrator "central"). */
enum { JNT_IFACE_BASIC = 0, JNT_IFACE_REALISTIC, JNT_IFACE_SIMPLIFIED, JNT_IFACE_FILM };
#define JNT_IFACE_NCONTACT 6

typedef struct jnt_abi_iface {
    const char *name;
    int slave, master, nslave, nmaster, method, d0;
    int mu_varies; /* 1: iface_mu depends on t or on the slip speed, which it reads from
                      d[d0 + 4] (the first slave's v_slip slot) */
    long x, rows;
} jnt_abi_iface;

/* A multibody model (nq > 0) is an index-3 DAE
 *   M(q) q'' = Q(t, q, v, z, lambda) - C_q(q, t)^T lambda,   C(q, t) = 0,   z' = f_z(...)
 * with its states in the order y = [q (nq), v (nq), z (nz), lambda (nc)],
 * nz = ny - 2 nq - nc (first-order states of laws). The rhs kernel returns,
 * row by row: v (q' = v); Q - C_q^T lambda (forces, not accelerations);
 * z'; and C(q, t) in the rows of lambda. The jac kernel differentiates
 * those rows as for any model (so it holds C_q in the rows of lambda and
 * -(C_q^T lambda)_q + Q_q in the rows of v). The mass kernel writes the
 * values of M (nq x nq, pattern mass_colptr/mass_rowind) into its out
 * array; cons_rates writes C_t (nc), gamma (nc) and C_q v + C_t (nc), with
 *   gamma = d/dt (C_q v + C_t) at q'' = 0,
 * so that the constraints hold at velocity and acceleration level when
 * C_q v + C_t = 0 and C_q q'' + gamma = 0 (the third block lets the
 * integrators check the velocity constraints without the Jacobian). Integrated by "hht" and
 * "generalized_alpha" (integrate/integ_dae.c). */

typedef struct jnt_abi_model {
    int abi_version;            /* JNT_ABI_VERSION */
    const char *name;           /* model name */
    const char *source;         /* the .jnt file it came from */
    const char *integrator;     /* "rk4", "dopri5", "bdf", "radau", "trapezoidal"; NULL: the
                                   model has no simulation (analyses only) */
    const char *output_file;    /* default CSV path, or NULL */
    int ny, nd, np, nout;
    int nu;                     /* gathered points (jnt_abi_block) */
    long ndata;                 /* doubles of model data the tables' offsets refer to */
    const char *const *y_names;
    const char *const *d_names;
    const char *const *p_names;
    const char *const *out_names;
    const signed char *p_dims;  /* np * JNT_NDIM exponents, in 1/JNT_DIM_DEN */
    const signed char *out_dims; /* nout * JNT_NDIM exponents of the output columns (the
                                    units a CSV's '# units:' line gives); NULL: unknown */
    int jac_nnz;
    const int *jac_colptr;      /* ny + 2 nu + 1 entries */
    const int *jac_rowind;      /* jac_nnz entries, each < ny + nu */
    jnt_params_fn params;
    jnt_settings_fn settings;
    jnt_init_fn init;
    jnt_rhs_fn rhs;
    jnt_jac_fn jac;
    jnt_update_fn update;       /* NULL when nd == 0 */
    jnt_output_fn output;
    int nanalyses;
    const jnt_abi_analysis *analyses;
    int nblocks;
    const jnt_abi_block *blocks;
    int nchains;
    const jnt_abi_chain *chains;
    jnt_output_fn chain_in;     /* NULL when nchains == 0 */
    int nifaces;
    const jnt_abi_iface *ifaces;
    jnt_output_fn iface_mu;     /* the interfaces' friction coefficients (from t, p and the
                                   slip speed in d, jnt_abi_iface.mu_varies) into the output
                                   array; NULL when nifaces == 0 */
    jnt_output_fn block_in;     /* per block 6 values (see jnt_abi_block.flags); NULL when
                                   no block has flags */
    /* multibody (see above); all 0 / NULL for other models */
    int nq, nc;
    int mass_const;             /* 1: M depends on the parameters only */
    int mass_nnz;
    const int *mass_colptr;     /* nq + 1 entries */
    const int *mass_rowind;     /* mass_nnz entries, each < nq */
    jnt_output_fn mass;
    jnt_output_fn cons_rates;
    /* per-run results (see jnt_abi_summary); 0 / NULL when none: the window
     * of summary i is (v[2 i], v[2 i + 1]) after summary_window(p, v) */
    int nsummaries;
    const jnt_abi_summary *summaries;
    int (*summary_window)(const double *p, double *v);
    /* assembly pins (multibody; 0 / NULL when none): what the model fixes at
     * the start, `init Q = fixed(value)` and the joints' coordinates
     * (`init crank.angle = 30 deg`, docs/multibody.md). The pins kernel
     * writes pin k's residual r[k] (the quantity minus its value, SI units)
     * and its gradient row g[k nq .. k nq + nq) (npins x nq, row-major):
     * over q for a position pin (pin_rate[k] = 0: r = g(q, t) - value),
     * over v for a rate pin (pin_rate[k] = 1: r = G(q) v - value, its row
     * G(q) = the gradient of the position quantity it is the rate of). The
     * start-of-run assembly makes them hold with the constraints. */
    int npins;
    const char *const *pin_names;
    const signed char *pin_rate;
    int (*pins)(double t, const double *y, const double *p, double *r, double *g);
    /* where the model data is, called by jnt_model_wrap before anything else
     * reads the table: generated kernels loop over an element kind's
     * instances reading their indices and constants from tables in the model
     * data (compiler/lower/gen_loop.h), and a long jac_colptr / jac_rowind is copied
     * from it. NULL: the kernels read no model data. */
    void (*bind)(const double *data);
    /* what each output column is beyond its dimension (JNT_KIND_*, nout
     * entries; NULL: none known), which its dimension cannot tell: an angle
     * from a pure number, an energy from a torque. The units line of a CSV
     * names them (rad, rad/s, rad/s^2, J, W: units_column). ABI 16. */
    const signed char *out_kinds;
    /* the halves of the gather u = R q, uv = R qd (jnt_abi_block) that no
     * kernel of a group reads, so that the runtime skips them (JNT_SKIP_*:
     * the rhs and jac kernels; update; output); 0: compute both for all.
     * Every other kernel that takes u gets both halves. ABI 18. */
    int gather_skip;
} jnt_abi_model;

/* jnt_abi_model.gather_skip: U the positions, UV the velocities. */
enum { JNT_SKIP_RHS_U = 1, JNT_SKIP_RHS_UV = 2, JNT_SKIP_UPDATE_U = 4, JNT_SKIP_UPDATE_UV = 8,
       JNT_SKIP_OUTPUT_U = 16, JNT_SKIP_OUTPUT_UV = 32 };

#endif
