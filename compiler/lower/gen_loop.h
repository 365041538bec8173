/*
 * gen_loop.h: one kernel per element kind, looped over its instances.
 *
 * The roots of a kernel (ydot, the point forces, the Jacobian's entries, the
 * discrete updates, the outputs) fall into instances: the roots that share
 * an element's own subexpressions (a contact pair's law, both its forces,
 * their derivatives). Instances whose expression DAGs have the same shape,
 * differing only in the states, points, parameters and constants they read
 * and in the entries they write, are one kind: its arithmetic is emitted
 * once, as the body of a loop that reads each instance's indices and
 * constants from a table in the model data. Subexpressions shared by many
 * instances (a body's rotation, a time function) are computed once before
 * the loops. The text then grows with the number of element kinds, not of
 * instances; the values are the unrolled code's, bit for bit (the same
 * operations on the same operands in the same order).
 */
#ifndef JNT_GEN_LOOP_H
#define JNT_GEN_LOOP_H

#include <stdio.h>
#include "expr_int.h"

/* The tables the loops read, appended to the model data (owned): the
 * constants v[0 .. n), then the indices ix[0 .. ni) (stored as doubles in
 * the model data, which is one array of doubles, and copied once into an
 * int array by the bind function, so that a loop reads its indices as int:
 * tcc converted each one from double at every use). */
typedef struct gl_tables {
    double *v;
    long n, cap;
    int *ix;
    long ni, capi;
} gl_tables;

/* Write C computing roots[0..n) into `name`[index[i]] (index NULL: i),
 * rolled where instances repeat (see above). Tables go to tabs; the loop
 * reads the constants through the C pointer `kd` (tabs->v[0] is kd[0]) and
 * the indices through the int pointer `ki` (tabs->ix[0] is ki[0]); indent
 * is four spaces. tabs NULL: the unrolled code of ex_emit. */
void gen_loop_emit(ex_pool *P, FILE *out, const diag_ctx *dc, int n, const ex_id *roots,
                   const char *name, const int *index, const char *prefix, gl_tables *tabs,
                   const char *kd, const char *ki);

/* Append n indices to tabs->ix; returns the offset of the first. */
long gl_tab_ints(gl_tables *tabs, const int *v, long n);

/* ex_emit with the nodes of `slot` (node id -> index into slot_text)
 * written as slot_text[k] and never looked into (gen_expr.c). */
void ex_emit_slots(ex_pool *p, FILE *out, int n, const ex_id *roots, const char *const *lhs,
                   const diag_ctx *dc, const char *indent, const char *prefix,
                   const ex_map *slot, const char *const *slot_text);

#endif
