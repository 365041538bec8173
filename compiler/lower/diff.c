/*
 * diff.c: symbolic differentiation of pool expressions.
 *
 * One pass over the post-order of e's DAG computes the derivative of every
 * node once (the memo is the array indexed like the walk), so the cost is
 * linear in the size of the DAG whatever its sharing. The derivatives are
 * built with the simplifying constructors, which drop the zero terms of
 * nodes that do not depend on the variable and push products into
 * zero-branch selections (the NaN guard of expr.h).
 *
 * Piecewise functions differentiate piecewise with the tie rules of
 * ex_apply: min(a,b) = a < b ? a : b has derivative a < b ? a' : b', and
 * max(a,b) = a > b ? a : b has a > b ? a' : b'.
 */
#include <stdlib.h>

#include "expr.h"
#include "expr_int.h"
#include "front/alloc.h"

/* Shorthands over the pool. */
#define K(v) ex_const(p, (v))
#define ADD(x, y) ex_op2(p, EX_ADD, (x), (y))
#define SUB(x, y) ex_op2(p, EX_SUB, (x), (y))
#define MUL(x, y) ex_op2(p, EX_MUL, (x), (y))
#define DIV(x, y) ex_op2(p, EX_DIV, (x), (y))
#define POW(x, y) ex_op2(p, EX_POW, (x), (y))
#define NEG(x) ex_op1(p, EX_NEG, (x))
#define F1(k, x) ex_op1(p, (k), (x))

/* See expr_int.h. */
ex_id ex_diff_node(ex_pool *p, ex_id e, ex_node x, ex_id da, ex_id db, ex_id dc,
                       ex_kind kind, int index)
{
    ex_id zero = K(0.0);
    ex_id a = x.a, b = x.b;
    double cv;
    switch (x.kind) {
    case EX_CONST:
        return zero;
    case EX_T:
    case EX_Y:
    case EX_D:
    case EX_P:
    case EX_UP:
    case EX_UV:
        return (x.kind == kind && (kind == EX_T || x.a == index)) ? K(1.0) : zero;
    case EX_ADD: return ADD(da, db);
    case EX_SUB: return SUB(da, db);
    case EX_NEG: return NEG(da);
    /* (ab)' = a'b + ab' */
    case EX_MUL: return ADD(MUL(da, b), MUL(a, db));
    /* (a/b)' = (a' - (a/b) b') / b */
    case EX_DIV: return DIV(SUB(da, MUL(e, db)), b);
    case EX_POW:
        if (ex_is_const(p, b, &cv) || db == zero) {
            /* (a^c)' = c a^(c-1) a' */
            ex_id c1 = SUB(b, K(1.0));
            return MUL(MUL(b, POW(a, c1)), da);
        }
        /* (a^b)' = a^b (b' log a + b a'/a) */
        if (da == zero)
            return MUL(MUL(e, F1(EX_LOG, a)), db);
        return MUL(e, ADD(MUL(db, F1(EX_LOG, a)), DIV(MUL(b, da), a)));
    case EX_SIN: return MUL(F1(EX_COS, a), da);
    case EX_COS: return MUL(NEG(F1(EX_SIN, a)), da);
    /* tan' = 1 + tan^2 */
    case EX_TAN: return MUL(ADD(K(1.0), POW(e, K(2.0))), da);
    /* asin' = 1/sqrt(1 - a^2), acos' = -asin' */
    case EX_ASIN: return DIV(da, F1(EX_SQRT, SUB(K(1.0), POW(a, K(2.0)))));
    case EX_ACOS: return NEG(DIV(da, F1(EX_SQRT, SUB(K(1.0), POW(a, K(2.0))))));
    case EX_ATAN: return DIV(da, ADD(K(1.0), POW(a, K(2.0))));
    case EX_SINH: return MUL(F1(EX_COSH, a), da);
    case EX_COSH: return MUL(F1(EX_SINH, a), da);
    /* tanh' = 1 - tanh^2 */
    case EX_TANH: return MUL(SUB(K(1.0), POW(e, K(2.0))), da);
    case EX_EXP: return MUL(e, da);
    case EX_LOG: return DIV(da, a);
    /* sqrt' = a' / (2 sqrt a); a' first so a zero-branch a' guards 1/0 */
    case EX_SQRT: return DIV(da, MUL(K(2.0), e));
    case EX_ABS: return MUL(F1(EX_SIGN, a), da);
    /* atan2(a, b)' = (b a' - a b') / (a^2 + b^2) */
    case EX_ATAN2:
        return DIV(SUB(MUL(b, da), MUL(a, db)), ADD(POW(a, K(2.0)), POW(b, K(2.0))));
    case EX_MIN: return ex_if(p, ex_op2(p, EX_LT, a, b), da, db);
    case EX_MAX: return ex_if(p, ex_op2(p, EX_GT, a, b), da, db);
    case EX_IF: return ex_if(p, a, db, dc);
    default:
        /* sign, floor, comparisons and logic are piecewise constant */
        return zero;
    }
}

/* Symbolic derivative of e with respect to (kind, index), kind EX_Y, EX_D,
 * EX_P or EX_T (index ignored). Each node of e's DAG is differentiated once;
 * a node built here carries the location of the node it derives from (when
 * that one has a location), so #line in Jacobian code points at the
 * source. Returns a node of the same pool. */
ex_id ex_diff(ex_pool *p, ex_id e, ex_kind kind, int index)
{
    ex_map pos;
    ex_id *order;
    ex_map_init(&pos, 64);
    int n = ex_topo(p, 1, &e, &order, &pos);
    ex_id *der = xmalloc((size_t)n * sizeof *der);
    jnt_loc saved = ex_cur_loc(p);
    for (int i = 0; i < n; i++) {
        ex_node x = *ex_get(p, order[i]);
        int na = ex_nargs(x.kind);
        ex_id da = na >= 1 ? der[ex_map_get(&pos, x.a)] : -1;
        ex_id db = na >= 2 ? der[ex_map_get(&pos, x.b)] : -1;
        ex_id dc = na >= 3 ? der[ex_map_get(&pos, x.c)] : -1;
        ex_set_loc(p, x.loc.file >= 0 ? x.loc : saved);
        der[i] = ex_diff_node(p, order[i], x, da, db, dc, kind, index);
    }
    ex_set_loc(p, saved);
    ex_id r = der[n - 1];
    free(der);
    free(order);
    ex_map_free(&pos);
    return r;
}
