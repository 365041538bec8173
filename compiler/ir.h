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
#include "units.h"

typedef struct ir_var {
    char *name;    /* "block.x", "block.x.v", "slide.z" (owned) */
    ex_id rhs;     /* y: derivative; d: update expression; p: default; out: value */
    ex_id init;    /* y, d: initial value (parameters only); unused otherwise */
    jnt_dim dim;   /* its dimension */
    jnt_loc loc;   /* where it was declared */
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

/* A linear block: a reduced substructure's coordinates y[q0 .. q0 + 2r) and
 * its matrices (r x r, column-major, owned): see jnt_abi_block. */
typedef struct ir_block {
    char *name;
    int q0, r;
    double *minv, *minv_k, *minv_c;
    int qdd0; /* discrete states of the accelerations (interface models), or -1 */
    int flags; /* JNT_BLOCK_FRAME, JNT_BLOCK_RAYLEIGH */
    ex_id in[6]; /* frame x, y, vx, vy; Rayleigh alpha, beta (functions of t and p) */
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
} ir_iface;

typedef struct ir_model {
    char *name;            /* model name (owned) */
    char *source;          /* the .jnt path (owned) */
    ex_pool *pool;         /* every expression (owned) */
    ir_vars y, d, p, out;
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
} ir_model;

/* Append a variable; returns its index. Takes ownership of name. */
int ir_add(ir_vars *vs, char *name, ex_id rhs, ex_id init, jnt_dim dim, jnt_loc loc);
void ir_free(ir_model *m);

#endif
