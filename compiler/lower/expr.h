/*
 * expr.h: the model's expressions as a hash-consed DAG, their symbolic
 * derivatives, and their translation to C.
 *
 * Every expression of the flat model (right-hand sides, updates, outputs,
 * defaults) lives in one ex_pool. Nodes are immutable and structurally
 * shared: building the same node twice returns the same id, so common
 * subexpressions are found for free and emitted once. The constructors fold
 * constants and apply algebraic identities (x+0, x*1, x*0, --x, ...).
 *
 * Leaves: constants, time t, continuous states y[i], discrete states d[i],
 * parameters p[i], and the gathered positions u[i] and velocities uv[i] of
 * substructure points. Comparisons and logic yield 1.0 or 0.0. EX_IF selects.
 */
#ifndef JNT_EXPR_H
#define JNT_EXPR_H

#include <stdio.h>
#include "front/diag.h"

typedef int ex_id; /* index into the pool; always >= 0 for a valid node */

typedef enum ex_kind {
    /* leaves */
    EX_CONST, EX_T, EX_Y, EX_D, EX_P,
    /* gathered quantities: the position (EX_UP) and the velocity (EX_UV) of
     * substructure point a, which the runtime gathers from the coordinates
     * through the rows of the reduction basis (abi.h, jnt_abi_block) */
    EX_UP, EX_UV,
    /* arithmetic */
    EX_ADD, EX_SUB, EX_MUL, EX_DIV, EX_POW, EX_NEG,
    /* functions of one argument */
    EX_SIN, EX_COS, EX_TAN, EX_ASIN, EX_ACOS, EX_ATAN, EX_SINH, EX_COSH, EX_TANH,
    EX_EXP, EX_LOG, EX_SQRT, EX_ABS, EX_SIGN, EX_FLOOR,
    /* functions of two arguments */
    EX_ATAN2, EX_MIN, EX_MAX,
    /* comparisons and logic (values 0.0 / 1.0) */
    EX_LT, EX_LE, EX_GT, EX_GE, EX_EQ, EX_NE, EX_AND, EX_OR, EX_NOT,
    /* selection: a ? b : c (a is any expression; nonzero is true) */
    EX_IF,
    EX_NKINDS
} ex_kind;

typedef struct ex_node {
    ex_kind kind;
    int a, b, c;  /* operands (ex_id), or for EX_Y/EX_D/EX_P the variable index in a */
    double v;     /* EX_CONST value */
    jnt_loc loc;  /* where the node was first built (for #line), may be loc_none */
} ex_node;

typedef struct ex_pool ex_pool;

ex_pool *ex_pool_new(void);
void ex_pool_free(ex_pool *p);
const ex_node *ex_get(const ex_pool *p, ex_id e);
int ex_count(const ex_pool *p);

/* Location recorded on nodes created from now on (until changed). */
void ex_set_loc(ex_pool *p, jnt_loc loc);

/* Constructors (simplifying, hash-consed). */
ex_id ex_const(ex_pool *p, double v);
ex_id ex_var(ex_pool *p, ex_kind kind, int index); /* EX_T (index ignored), EX_Y, EX_D, EX_P,
                                                      EX_UP, EX_UV */
ex_id ex_op1(ex_pool *p, ex_kind kind, ex_id a);
ex_id ex_op2(ex_pool *p, ex_kind kind, ex_id a, ex_id b);
ex_id ex_if(ex_pool *p, ex_id cond, ex_id then_, ex_id else_);

/* 1 and the value when e is a constant, else 0. */
int ex_is_const(const ex_pool *p, ex_id e, double *v);

/* Evaluate numerically (tests and constant folding of parameter defaults). */
double ex_eval(const ex_pool *p, ex_id e, double t, const double *y, const double *d,
               const double *par);

/* Does e depend on the variable (kind, index)? Kind EX_Y / EX_D / EX_P / EX_T /
 * EX_UP / EX_UV; index -1: on any variable of that kind. */
int ex_depends(ex_pool *p, ex_id e, ex_kind kind, int index);

/* Substitute: every leaf (kind, index) is replaced by repl[index]. Used to
 * rewrite parameter references, for instance. */
ex_id ex_subst(ex_pool *p, ex_id e, ex_kind kind, const ex_id *repl);

/* Symbolic derivative of e with respect to the variable (kind, index):
 * kind EX_Y, EX_UP, EX_UV, EX_P or EX_T. Piecewise functions differentiate piecewise
 * (abs -> sign, min/max/if -> if), comparisons and sign have derivative 0.
 * A product with a branch-zero selection is pushed into the branch
 * (x * (c ? a : 0) -> c ? x*a : 0) so that a derivative that is infinite or
 * NaN where it is not selected never poisons the result. */
ex_id ex_diff(ex_pool *p, ex_id e, ex_kind kind, int index);

/* C emission.
 *
 * Writes statements that compute n roots and store root i in the C lvalue
 * lhs[i] (for example "ydot[3]"). Shared subexpressions become temporaries
 * `const double wK = ...;` declared in dependency order. Variables are read
 * as `t`, `y[i]`, `d[i]`, `p[i]`. When `dc` is non-NULL, a `#line L "file"`
 * directive precedes each statement whose node location differs from the
 * previous one, so compile errors and debuggers point at the .jnt source.
 * `indent` prefixes each line. Deterministic: the same input gives the same
 * text. `prefix` names the temporaries (so several blocks can share a
 * function): "w" gives w0, w1, ... */
void ex_emit(ex_pool *p, FILE *out, int n, const ex_id *roots, const char *const *lhs,
             const diag_ctx *dc, const char *indent, const char *prefix);

/* Write one expression as a single C expression (no temporaries). */
void ex_print_c(ex_pool *p, FILE *out, ex_id e);

/* Write s as a C string literal, quotes included, escaped so that no byte
 * of s can end the literal, a comment around it or the line (the one escaper
 * of every name, path and unit that enters generated C). */
void ex_put_cstr(FILE *out, const char *s);

/* The C prototypes and helpers emitted code needs (sin, pow, jnt_sign, ...),
 * without including any system header. */
void ex_emit_prelude(FILE *out);

#endif
