/*
 * expr_int.h: what expr.c, diff.c and gen_expr.c share, for compiler passes
 * only (other passes may walk expressions with it too): an int -> int hash
 * map, the post-order walk of a sub-DAG, the operand count of each kind and
 * the numeric meaning of each operation.
 *
 * Every walk over expressions goes through ex_topo, which is iterative (no
 * recursion, whatever the depth of the DAG) and visits each node once, so
 * evaluation, dependency tests, substitution, differentiation and emission
 * are all linear in the size of the sub-DAG they touch.
 */
#ifndef JNT_EXPR_INT_H
#define JNT_EXPR_INT_H

#include "expr.h"

/* Open-addressing map from non-negative ints (node ids) to ints. */
typedef struct ex_map {
    int *keys; /* -1: empty slot */
    int *vals;
    int cap;   /* power of two */
    int n;
} ex_map;

void ex_map_init(ex_map *m, int hint);
void ex_map_free(ex_map *m);
int ex_map_get(const ex_map *m, int key); /* the value, or -1 when absent */
void ex_map_put(ex_map *m, int key, int val);

/* Post-order (operands before the node, operands a, b, c in that order,
 * roots in the given order) of the nodes reachable from roots[0..n-1]. The
 * array is malloc'd and returned in *order (caller frees); pos, initialised
 * by the caller, receives node id -> position in *order. Returns the count. */
int ex_topo(const ex_pool *p, int n, const ex_id *roots, ex_id **order, ex_map *pos);

/* Number of operands (ex_id children) of a kind: 0 for leaves, 1, 2 or 3. */
int ex_nargs(ex_kind k);

/* Value of one operation on operand values (c only for EX_IF). This is the
 * single definition of the semantics: constant folding and ex_eval use it,
 * and gen_expr.c emits C that computes the same thing. */
double ex_apply(ex_kind k, double a, double b, double c);

/* The derivative of node e = x with respect to one variable (kind, index),
 * given the derivatives da, db, dc of its operands (-1 for missing ones);
 * leaves give 1 for the variable and 0 otherwise. The one chain rule of
 * ex_diff and of the derivatives pass (deriv.c). */
ex_id ex_diff_node(ex_pool *p, ex_id e, ex_node x, ex_id da, ex_id db, ex_id dc, ex_kind kind,
                   int index);

/* The location ex_set_loc last recorded (diff and subst give the nodes they
 * build the location of the node they come from, then restore this one). */
jnt_loc ex_cur_loc(const ex_pool *p);

#endif
