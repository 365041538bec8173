/*
 * deriv_int.h: what deriv.c (the nodes' classes, linear nodes and
 * gradients, the pass) and deriv_cols.c (the quantities, the cuts, the
 * Jacobian's columns) share, internal to compiler/lower: the pass's state
 * and the steps deriv_cols.c lends (deriv.c calls it, never the other way).
 */
#ifndef JNT_DERIV_INT_H
#define JNT_DERIV_INT_H

#include <stddef.h>
#include "expr_int.h"
#include "ir.h"

/* The position of node id in the pass's order (ids of the DAG only). */
#define POS(posd, id) ((posd)[id])

/* A constant coefficient in column col. */
typedef struct lin_entry {
    int col;
    double c;
} lin_entry;

/* One column entry of a root: (col, expression). */
typedef struct col_entry {
    int col;
    ex_id val;
} col_entry;

/* A derivative with respect to quantity q. */
typedef struct q_entry {
    int q;
    ex_id val;
} q_entry;

/* The pass's state. Quantities are linear combinations of columns up to a
 * scale, stored once with their first coefficient 1 (so c * gap and gap
 * are one quantity); a linear node is (qid, scale), qid -1 when it reads
 * no column. Other nodes own a slice of qe. */
typedef struct grads {
    lin_entry *lin; /* the quantities' coefficients */
    size_t nlin, caplin;
    int *qstart, *qlen, nq, capq;
    ex_map qhash;   /* hash of a quantity -> its first id; chains in qnext */
    int *qnext;
    lin_entry *tmp; /* one combination being built */
    size_t ntmp, captmp;
    q_entry *qe;
    size_t nqe, capqe;
    unsigned char *linear;
    unsigned char *cls; /* per position: CL_* */
    unsigned char *cutok; /* per position: a non-polynomial node reads it */
    int ncol;       /* columns; cut k is pseudo-column ncol + k */
    int cuts;       /* cuts made (JNT_CUTS=0 and small models: none) */
    int ncut, capcut;
    int *nread;     /* per position: the nodes that read it */
    size_t *bstart; /* cut k: its slots, b[bstart[k] .. + blen[k]) (column, initial value) */
    int *blen;
    struct col_entry *b;
    size_t nb, capb;
    ex_id *av;      /* the chain rule's factors (d node/d cut) */
    size_t na, capa;
    int *tri;       /* its steps (push_tri), in order */
    size_t ntri, captri;
    int *cmark, cstamp, *cpos, *cols, capcols; /* per column: scratch of pattern() */
    struct col_entry *ent;
    size_t nent, capent;
    int *qcut, capqcut; /* per quantity: the cut of its coefficients, or -1 */
    int *qid;       /* linear nodes */
    double *scale;
    size_t *start;  /* other nodes: their slice of qe */
    int *len;
} grads;

/* Append (col, c) to the combination being built in g->tmp. */
void deriv_push_tmp(grads *g, int col, double c);

/* The quantity of the combination in g->tmp (nonempty) and its scale: the
 * combination divided by its first coefficient (*scale), interned once. */
int deriv_intern_quantity(grads *g, double *scale);

/* Entry k of the quantity gradient of the node at position o: a linear
 * node that reads columns is its quantity with derivative `scale`. */
q_entry deriv_operand_entry(ex_pool *P, const grads *g, int o, int k);

/* Make position i, not linear and its gradient computed, the next cut: its
 * slots (one per column it depends on) and the chain rule's steps into
 * them; it becomes the linear quantity of its pseudo-column (deriv_cols.c). */
void deriv_make_cut(ex_pool *P, grads *g, int i);

/* Fill J (ir_jac) from the gradients: the entries of roots[0..nrow) (node
 * ids; posd maps them to positions) expanded over g->ncol columns, its
 * compressed sparse column pattern and values, and the cuts' chain rule
 * (a, b, chain). J owns what it is given (g->av, g->tri). */
void deriv_jacobian(ex_pool *P, grads *g, const int *posd, const ex_id *roots, int nrow,
                    ir_jac *J);

#endif
