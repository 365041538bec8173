/*
 * ir.h: the flat model that sema produces and codegen consumes.
 *
 * Everything is in SI units. Continuous states y have derivative
 * expressions; discrete states d have update expressions (applied once per
 * accepted step); parameters p have default expressions that may read earlier
 * parameters. Initial values, run settings and the output interval are
 * expressions of the parameters only, evaluated at run time so that -D needs
 * no recompilation.
 */
#ifndef JNT_IR_H
#define JNT_IR_H

#include "expr.h"
#include "jnt/setup.h"

/* what a checked mass is (ir_model.pos_kind) */
enum { POS_MASS, POS_INERTIA, POS_EULER /* a director's Euler moment: may be 0 */ };

typedef struct ir_var {
    char *name;    /* "block.x", "block.x.v", "slide.z" (owned) */
    ex_id rhs;     /* y: derivative; d: update expression; p: default; out: value */
    ex_id init;    /* y, d: initial value (parameters only); unused otherwise */
    jnt_dim dim;   /* its dimension */
    jnt_loc loc;   /* where it was declared */
    int kind;      /* out: JNT_KIND_* (an angle, an energy: sema_out_kind); else 0 */
} ir_var;

typedef struct ir_vars {
    ir_var *v;
    int n, cap;
} ir_vars;

struct ir_model;

typedef struct ir_analysis {
    char *name;            /* owned */
    int kind;              /* JNT_ANALYSIS_* */
    struct ir_model *sub;  /* hysteresis: its own model (owned); NULL otherwise */
    ex_id v[4];            /* expressions of p: at; period and cycles; from, to, time, speed */
    int ncol, nrow;        /* JNT_ANALYSIS_TABLE: column names and values (owned);
                              JNT_ANALYSIS_LOCUS: the interface and the steps */
    char **cols;
    double *table;
} ir_analysis;

/* A per-run result (jnt_abi_summary): op (JNT_SUMMARY_*) of output column
 * col over the rows with from <= t <= to (expressions of p; flags
 * JNT_SUMMARY_FROM / JNT_SUMMARY_TO say which are given). */
typedef struct ir_summary {
    char *name;            /* owned */
    int op, col, flags;
    ex_id from, to;
} ir_summary;

/* A linear block: a reduced substructure's coordinates y[q0 .. q0 + 2r) and
 * its matrices (r x r, column-major, owned): see jnt_abi_block. */
typedef struct ir_block {
    char *name;
    int q0, r;
    double *minv, *minv_k, *minv_c;
    int g0, ng;    /* its gathered points (ir_model.f from g0 on) */
    double *rows;  /* ng x r rows of its basis at those points, column-major (owned) */
    long off[5];   /* offsets of minv, minv_k, minv_c, rows, ffrf in the model data */
    int qdd0; /* discrete states of the accelerations (interface models), or -1 */
    int flags; /* JNT_BLOCK_FRAME, JNT_BLOCK_RAYLEIGH */
    ex_id in[6]; /* frame x, y, vx, vy; Rayleigh alpha, beta (functions of t and p);
                    JNT_BLOCK_FFRF: gravity gx, gy */
    int frame;     /* JNT_BLOCK_FFRF: y index of its body frame's x */
    double *ffrf;  /* JNT_BLOCK_FFRF(3): the invariants, JNT_FFRF_SIZE(r) or
                      JNT_FFRF3_SIZE(r) (owned), else NULL */
    long nffrf;    /* JNT_BLOCK_FFRF_SPARSE: the doubles of ffrf (JNT_FFRF_SP_SIZE);
                      such a block has no minv* and one row entry per point */
} ir_block;

/* A quasi-static Iwan chain (jnt_abi_chain): its discrete states from d0
 * on and its inputs, 3 + n expressions (owned): k, the left and right loads,
 * the n slip strengths. */
typedef struct ir_chain {
    char *name;
    int d0, n;
    ex_id *in;
} ir_chain;

/* A sliding interface (jnt_abi_iface); x and rows owned. */
typedef struct ir_iface {
    char *name;
    int slave, master, nslave, nmaster, method, d0;
    double *x, *rows;
    ex_id mu;
    long off[2];   /* offsets of x and rows in the model data */
} ir_iface;

/* The Jacobian of the rhs kernel (jnt_jac_fn): rows ydot then the point
 * forces, columns y, then the point positions and velocities; CSC with the
 * derivative expressions of its entries (owned). Built by the derivatives
 * pass (deriv.h). */
typedef struct ir_jac {
    int nrow, ncol, nnz;
    int *colptr, *rowind;
    ex_id *val;
    /* the chain rule at the cuts (deriv_cols.c): val[e] holds entry e's direct
     * part, b[s] the direct part of cut slot s (a cut's derivative over one
     * column), a[i] a node's derivative with respect to a cut; the nchain
     * triples (dst, i, s), in order, add a[i] * slot s to dst: entry dst,
     * or slot -1 - dst (all owned; na = 0: no cuts) */
    int na, nb, nchain;
    ex_id *a, *b;
    int *chain;
} ir_jac;

typedef struct ir_model {
    char *name;            /* model name (owned) */
    char *source;          /* the .jnt path (owned) */
    /* the scene of the model's pictures (jnt/scene.h): built by sema_lower
     * when want_scene is set (jnt_scene_file), owned until taken */
    int want_scene;
    struct jnt_scene *scene;
    char **inputs;         /* real paths of every file read: sources, imports, data
                              files; NULL-terminated (owned; jnt_model keeps them) */
    ex_pool *pool;         /* every expression (owned) */
    ir_vars y, d, p, out;
    ir_vars f;             /* forces on the gathered points: f.n = nu, rhs = the force (N) */
    ir_jac jac;            /* filled by deriv_model */
    long ndata;            /* doubles of model data (ir_data_layout, then gen_model's tables) */
    double *kdata;         /* the kernels' loop tables (gen_loop.h), the last nkdata doubles
                              of the model data (owned; set by gen_model) */
    long nkdata;
    const char *integrator;/* "rk4", "dopri5", "bdf", "radau", "trapezoidal"; NULL: none */
    ex_id t0, t_end, h, rtol, atol, out_every, h_max; /* expressions of p */
    char *output_file;     /* default CSV path (owned), or NULL */
    ir_analysis *an;       /* analyses (owned) */
    int nan;
    ir_block *blocks;      /* linear blocks (owned) */
    int nblocks;
    ir_chain *chains;      /* quasi-static chains (owned) */
    int nchains;
    ir_iface *ifaces;      /* sliding interfaces (owned) */
    int nifaces;
    /* multibody (jnt_abi_model.nq > 0): y = [q, v, z, lambda], the diagonal
     * of the mass matrix (nq, owned), the constraints' C_t, gamma and
     * C_q v + C_t (3 nc, owned); the DAE integrators' options (expressions
     * of p) */
    int nq, nc;
    ex_id *mass, *crate;
    ex_id alpha, rho_inf;
    ex_id assemble_tol;    /* simulate { assemble_tol }: m or rad, 0: the default */
    ex_id max_order;       /* bdf(max_order): 1 to 5, 0: CVODE's 5 */
    /* masses and rigid bodies' inertias that use parameters: checked finite
     * and positive by the params kernel (a -D value); pos_y: the y index of
     * the dof it moves (a mass: the body's first); pos_kind: POS_* */
    ex_id *pos_mass;       /* owned */
    int *pos_y, *pos_kind; /* owned */
    int npos;
    ir_summary *sum;       /* the summary block's results (owned) */
    int nsum;
    /* assembly pins (multibody; jnt_abi_model.pins): pin.v[k].rhs the residual,
     * the pinned quantity minus its value (an expression of t, y and p: of q,
     * or of q and v when pin_rate[k]); its gradient over q (over v when
     * pin_rate[k]), the npin_g entries pin_g[e] at row-major position pin_gi[e]
     * of the npin x nq matrix (all owned; built by sema_mb_finish) */
    ir_vars pin;
    signed char *pin_rate;
    ex_id *pin_g;
    int *pin_gi, npin_g;
} ir_model;

/* Append a variable; returns its index. Takes ownership of name. */
int ir_add(ir_vars *vs, char *name, ex_id rhs, ex_id init, jnt_dim dim, jnt_loc loc);
void ir_free(ir_model *m);

/* Place the model data (the blocks' matrices and rows, the interfaces'
 * tables) in one array: sets the offsets of every block and interface and
 * m->ndata. ir_data_fill copies them into dst (m->ndata doubles). */
void ir_data_layout(ir_model *m);
void ir_data_fill(const ir_model *m, double *dst);

#endif
