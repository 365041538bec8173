/*
 * deriv.c: the derivatives pass (deriv.h).
 *
 * Forward mode over one topological order of all the rhs roots, in two
 * layers, as an element kernel is differentiated by hand:
 *
 *   - a node that is linear in the variables y, u, uv with constant
 *     coefficients (a leaf, a gap u[a] - u[b], a slip, a scaled sum) has a
 *     constant gradient over the Jacobian's columns;
 *   - every other node carries its gradient with respect to the linear
 *     nodes it reads directly (the element's physical quantities), as
 *     expressions, built by ex_diff_node's chain rule once per quantity.
 *
 * A root's entry in column j is then sum over its quantities q of
 * d root/d q * d q/d u_j: a law is differentiated once per quantity
 * (the gap, the slip, their rates), not once per coordinate it touches, and
 * the entries of the two sides of a contact share one expression. Entries
 * that simplify to 0 are dropped, so the pattern is the structural one
 * minus exact zeros.
 *
 * Cuts. A body in director coordinates places its points by products of
 * coordinates (r + d_i u_i: a polynomial, not a linear node), and a law
 * read there (a clearance joint's gap, solved by Newton steps) would carry
 * that point's dozen or more columns through every one of its nodes. A
 * polynomial node of CUT_MIN columns or more that a non-polynomial node
 * reads is made a quantity of its own, a cut: its column gradient b is
 * computed once, the nodes above carry one entry for it, and a root's entry
 * in column j is its direct part plus sum over cuts k of a_k b_kj, the
 * chain rule at the cut, which the Jacobian kernel applies in one loop over
 * a table of (entry, a, b) (gen.c). The law is then differentiated against
 * the point's few quantities (its position, velocity, frame), whatever the
 * number of coordinates that move it. JNT_CUTS=0: no cuts (the Jacobian of
 * before, for comparisons).
 */
#include <stdlib.h>
#include <string.h>

#include "deriv.h"
#include "expr_int.h"
#include "front/alloc.h"

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

static void push_tmp(grads *g, int col, double c)
{
    if (g->ntmp == g->captmp) {
        g->captmp = g->captmp ? 2 * g->captmp : 64;
        g->tmp = xrealloc(g->tmp, g->captmp * sizeof *g->tmp);
    }
    g->tmp[g->ntmp++] = (lin_entry){col, c};
}

static void push_q(grads *g, int q, ex_id val)
{
    if (g->nqe == g->capqe) {
        g->capqe = g->capqe ? 2 * g->capqe : 1024;
        g->qe = xrealloc(g->qe, g->capqe * sizeof *g->qe);
    }
    g->qe[g->nqe++] = (q_entry){q, val};
}

/* The quantity of the combination in g->tmp (nonempty) and its scale. */
/* Whether a[0..n) and b[0..n) hold the same columns and coefficients, field
 * by field (a memcmp also compared the padding after col, which a compound
 * literal leaves undefined: valgrind's uninitialised read). */
static int same_entries(const lin_entry *a, const lin_entry *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].col != b[i].col || memcmp(&a[i].c, &b[i].c, sizeof a[i].c) != 0)
            return 0;
    return 1;
}

static int intern_quantity(grads *g, double *scale)
{
    double c0 = g->tmp[0].c;
    unsigned h = 2166136261u;
    for (size_t i = 0; i < g->ntmp; i++) {
        g->tmp[i].c /= c0;
        unsigned char b[sizeof(int) + sizeof(double)];
        memcpy(b, &g->tmp[i].col, sizeof(int));
        memcpy(b + sizeof(int), &g->tmp[i].c, sizeof(double));
        for (size_t k = 0; k < sizeof b; k++)
            h = (h ^ b[k]) * 16777619u;
    }
    int key = (int)(h & 0x3fffffff);
    *scale = c0;
    for (int q = ex_map_get(&g->qhash, key); q >= 0; q = g->qnext[q])
        if ((size_t)g->qlen[q] == g->ntmp && same_entries(g->lin + g->qstart[q], g->tmp, g->ntmp))
            return q;
    if (g->nq == g->capq) {
        g->capq = g->capq ? 2 * g->capq : 256;
        g->qstart = xrealloc(g->qstart, (size_t)g->capq * sizeof *g->qstart);
        g->qlen = xrealloc(g->qlen, (size_t)g->capq * sizeof *g->qlen);
        g->qnext = xrealloc(g->qnext, (size_t)g->capq * sizeof *g->qnext);
    }
    while (g->nlin + g->ntmp > g->caplin) {
        g->caplin = g->caplin ? 2 * g->caplin : 1024;
        g->lin = xrealloc(g->lin, g->caplin * sizeof *g->lin);
    }
    int q = g->nq++;
    g->qstart[q] = (int)g->nlin;
    g->qlen[q] = (int)g->ntmp;
    memcpy(g->lin + g->nlin, g->tmp, g->ntmp * sizeof *g->tmp);
    g->nlin += g->ntmp;
    g->qnext[q] = ex_map_get(&g->qhash, key);
    ex_map_put(&g->qhash, key, q);
    return q;
}

/* The column of a variable leaf, or -1. */
static int leaf_col(const ex_node *x, int ny, int nu)
{
    switch (x->kind) {
    case EX_Y: return x->a;
    case EX_UP: return ny + x->a;
    case EX_UV: return ny + nu + x->a;
    default: return -1;
    }
}

/* Linear node i = sa a + sb b (positions ia, ib, -1 for none), merged by
 * column into g->tmp, then interned. */
static void lin_combine(grads *g, int i, int ia, double sa, int ib, double sb)
{
    g->ntmp = 0;
    int qa = ia >= 0 ? g->qid[ia] : -1, qb = ib >= 0 ? g->qid[ib] : -1;
    int na = qa >= 0 ? g->qlen[qa] : 0, nb = qb >= 0 ? g->qlen[qb] : 0, k = 0, j = 0;
    if (qa >= 0)
        sa *= g->scale[ia];
    if (qb >= 0)
        sb *= g->scale[ib];
    while (k < na || j < nb) {
        const lin_entry *ea = k < na ? &g->lin[g->qstart[qa] + k] : NULL;
        const lin_entry *eb = j < nb ? &g->lin[g->qstart[qb] + j] : NULL;
        if (ea && (!eb || ea->col < eb->col)) {
            push_tmp(g, ea->col, sa * ea->c);
            k++;
        } else if (eb && (!ea || eb->col < ea->col)) {
            push_tmp(g, eb->col, sb * eb->c);
            j++;
        } else {
            double c = sa * ea->c + sb * eb->c;
            if (c != 0.0)
                push_tmp(g, ea->col, c);
            k++, j++;
        }
    }
    g->qid[i] = g->ntmp ? intern_quantity(g, &g->scale[i]) : -1;
}

/* Node x at position i as a linear node: 1 (qid and scale set), or 0. */
static int linear_node(ex_pool *P, grads *g, const int *pos, const ex_node *x, int i, int ny,
                       int nu)
{
    int na = ex_nargs(x->kind);
    if (na == 0) {
        int c = leaf_col(x, ny, nu);
        g->ntmp = 0;
        if (c >= 0)
            push_tmp(g, c, 1.0);
        g->qid[i] = c >= 0 ? intern_quantity(g, &g->scale[i]) : -1;
        return 1;
    }
    int op[3] = {POS(pos, x->a), na >= 2 ? POS(pos, x->b) : -1,
                 na >= 3 ? POS(pos, x->c) : -1};
    int lin[3], free_[3];
    for (int k = 0; k < 3; k++) {
        lin[k] = op[k] < 0 || g->linear[op[k]];
        free_[k] = op[k] < 0 || (lin[k] && g->qid[op[k]] < 0);
    }
    double cv;
    switch (x->kind) {
    case EX_ADD: if (!lin[0] || !lin[1]) break; lin_combine(g, i, op[0], 1, op[1], 1); return 1;
    case EX_SUB: if (!lin[0] || !lin[1]) break; lin_combine(g, i, op[0], 1, op[1], -1); return 1;
    case EX_NEG: if (!lin[0]) break; lin_combine(g, i, op[0], -1, -1, 0); return 1;
    case EX_MUL:
        if (lin[0] && ex_is_const(P, x->b, &cv)) {
            lin_combine(g, i, op[0], cv, -1, 0);
            return 1;
        }
        if (lin[1] && ex_is_const(P, x->a, &cv)) {
            lin_combine(g, i, op[1], cv, -1, 0);
            return 1;
        }
        break;
    case EX_DIV:
        if (lin[0] && ex_is_const(P, x->b, &cv) && cv != 0.0) {
            lin_combine(g, i, op[0], 1.0 / cv, -1, 0);
            return 1;
        }
        break;
    default:
        break;
    }
    /* a node that reads no column at all is a constant here */
    g->qid[i] = -1;
    return free_[0] && free_[1] && free_[2];
}

/* Operand o's quantity gradient: a linear operand that reads columns is
 * its quantity with derivative `scale`; a free one has none. */
static int operand_len(const grads *g, int o)
{
    return g->linear[o] ? g->qid[o] >= 0 : g->len[o];
}

static q_entry operand_entry(ex_pool *P, const grads *g, int o, int k)
{
    if (g->linear[o])
        return (q_entry){g->qid[o], ex_const(P, g->scale[o])};
    return g->qe[g->start[o] + (size_t)k];
}

/* The quantity gradient of nonlinear node id (appended), merged by
 * quantity over its operands. */
static void node_grad(ex_pool *P, grads *g, const int *pos, ex_id id)
{
    ex_node x = *ex_get(P, id);
    int na = ex_nargs(x.kind);
    int op[3] = {-1, -1, -1}, at[3] = {0, 0, 0};
    ex_id kid[3] = {x.a, x.b, x.c};
    for (int k = 0; k < na; k++)
        op[k] = POS(pos, kid[k]);
    ex_id zero = ex_const(P, 0.0);
    for (;;) {
        int q = -1;
        for (int k = 0; k < na; k++)
            if (at[k] < operand_len(g, op[k])) {
                int c = operand_entry(P, g, op[k], at[k]).q;
                if (q < 0 || c < q)
                    q = c;
            }
        if (q < 0)
            break;
        ex_id d[3] = {-1, -1, -1};
        for (int k = 0; k < na; k++) {
            d[k] = zero;
            if (at[k] < operand_len(g, op[k])) {
                q_entry e = operand_entry(P, g, op[k], at[k]);
                if (e.q == q) {
                    d[k] = e.val;
                    at[k]++;
                }
            }
        }
        ex_id v = ex_diff_node(P, id, x, d[0], d[1], d[2], EX_NKINDS, -1);
        double cv;
        if (!ex_is_const(P, v, &cv) || cv != 0)
            push_q(g, q, v);
    }
}

static int by_col(const void *a, const void *b)
{
    const col_entry *x = a, *y = b;
    return (x->col > y->col) - (x->col < y->col);
}

/* What a node is in the columns: free of them, structurally linear (a
 * scale may be a parameter), polynomial (sums and products), or other. */
enum { CL_FREE, CL_LIN, CL_POLY, CL_OTHER };

/* The fewest columns a polynomial node spans to be cut. */
#define CUT_MIN 2

/* The fewest nodes of an rhs with cuts: a smaller one (a few elements)
 * has nothing to gain from them. */
#define CUT_NODES 400

static int classify(const ex_pool *P, const grads *g, const int *pos, const ex_node *x,
                    int ny, int nu)
{
    int na = ex_nargs(x->kind);
    if (na == 0)
        return leaf_col(x, ny, nu) >= 0 ? CL_LIN : CL_FREE;
    int c[3] = {CL_FREE, CL_FREE, CL_FREE}, mx = CL_FREE;
    ex_id kid[3] = {x->a, x->b, x->c};
    for (int k = 0; k < na; k++) {
        c[k] = g->cls[POS(pos, kid[k])];
        if (c[k] > mx)
            mx = c[k];
    }
    if (mx == CL_FREE)
        return CL_FREE;
    if (mx == CL_OTHER)
        return CL_OTHER;
    double v;
    switch (x->kind) {
    case EX_ADD:
    case EX_SUB:
    case EX_NEG:
        return mx;
    case EX_MUL:
        return c[0] == CL_FREE || c[1] == CL_FREE ? mx : CL_POLY;
    case EX_DIV:
        return c[1] == CL_FREE ? c[0] : CL_OTHER;
    case EX_POW:
        if (c[1] == CL_FREE && ex_is_const(P, x->b, &v) && (v == 1 || v == 2 || v == 3))
            return v == 1 ? c[0] : CL_POLY;
        return CL_OTHER;
    default:
        return CL_OTHER;
    }
}

/* Whether position i, not linear, becomes a cut: a polynomial node that
 * a non-polynomial one reads, or any node read by several, spanning
 * CUT_MIN columns or cuts or more. */
static int want_cut(const grads *g, int i)
{
    if (g->cls[i] == CL_FREE)
        return 0;
    int poly = g->cls[i] != CL_OTHER && g->cutok[i];
    if (!poly && g->nread[i] < 2)
        return 0;
    int n = 0;
    for (int k = 0; k < g->len[i]; k++)
        n += g->qlen[g->qe[g->start[i] + (size_t)k].q];
    return n >= CUT_MIN;
}

/* Sort entries by col, add those of one col, drop exact zeros: n left. */
static size_t merge_cols(ex_pool *P, col_entry *t, size_t n)
{
    size_t m = 0, w = 0;
    qsort(t, n, sizeof *t, by_col);
    for (size_t j = 0; j < n; j++) {
        if (m > 0 && t[m - 1].col == t[j].col)
            t[m - 1].val = ex_op2(P, EX_ADD, t[m - 1].val, t[j].val);
        else
            t[m++] = t[j];
    }
    for (size_t j = 0; j < m; j++) {
        double cv;
        if (!ex_is_const(P, t[j].val, &cv) || cv != 0)
            t[w++] = t[j];
    }
    return w;
}

static void push_ce(col_entry **v, size_t *n, size_t *cap, int col, ex_id val)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        *v = xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = (col_entry){col, val};
}

/* A value a[i] of the chain rule (d node/d cut): i. */
static int push_a(grads *g, ex_id val)
{
    if (g->na == g->capa) {
        g->capa = g->capa ? 2 * g->capa : 256;
        g->av = xrealloc(g->av, g->capa * sizeof *g->av);
    }
    g->av[g->na] = val;
    return (int)g->na++;
}

/* A step of the chain rule: slot dst (a Jacobian entry e >= 0, or -1 - s
 * for cut slot s) += a[ai] * slot src. */
static void push_tri(grads *g, int dst, int ai, int src)
{
    if (g->ntri == g->captri) {
        g->captri = g->captri ? 2 * g->captri : 1024;
        g->tri = xrealloc(g->tri, g->captri * 3 * sizeof *g->tri);
    }
    int *t = g->tri + 3 * g->ntri++;
    t[0] = dst, t[1] = ai, t[2] = src;
}

/* Split entries e[0..n) (merged, in column order) into the direct ones
 * (real columns, first, returned count) and those over cuts (after). */
static size_t split_direct(const grads *g, const col_entry *e, size_t n)
{
    size_t d = 0;
    while (d < n && e[d].col < g->ncol)
        d++;
    return d;
}

/* Gather the columns of direct entries e[0..nd) and of the slots of the
 * cuts in e[nd..n) into g->cols, in order (the pattern of a cut or root):
 * its length. */
static int pattern(grads *g, const col_entry *e, size_t nd, size_t n)
{
    int c = 0, stamp = ++g->cstamp;
    for (size_t j = 0; j < n; j++) {
        int k = j < nd ? -1 : e[j].col - g->ncol;
        int cnt = k < 0 ? 1 : g->blen[k];
        for (int t = 0; t < cnt; t++) {
            int col = k < 0 ? e[j].col : g->b[g->bstart[k] + (size_t)t].col;
            if (g->cmark[col] != stamp) {
                g->cmark[col] = stamp;
                if (c == g->capcols) {
                    g->capcols = g->capcols ? 2 * g->capcols : 256;
                    g->cols = xrealloc(g->cols, (size_t)g->capcols * sizeof *g->cols);
                }
                g->cols[c++] = col;
            }
        }
    }
    for (int j = 1; j < c; j++) { /* insertion sort: short, nearly in order */
        int v = g->cols[j], l = j;
        for (; l > 0 && g->cols[l - 1] > v; l--)
            g->cols[l] = g->cols[l - 1];
        g->cols[l] = v;
    }
    return c;
}

/* A new cut's index (its slots set by the caller). */
static int new_cut(grads *g)
{
    if (g->ncut == g->capcut) {
        g->capcut = g->capcut ? 2 * g->capcut : 64;
        g->bstart = xrealloc(g->bstart, (size_t)g->capcut * sizeof *g->bstart);
        g->blen = xrealloc(g->blen, (size_t)g->capcut * sizeof *g->blen);
    }
    return g->ncut++;
}

/* The cut of quantity q's constant coefficients, for an entry over q to
 * be one factor of the chain rule instead of a product per column: q over
 * two or more columns with a coefficient other than +-1 (a director's
 * combination: an axis fixed in a body), else -1. */
static int qcut(ex_pool *P, grads *g, int q)
{
    if (q >= g->capqcut) {
        int cap = g->capqcut;
        g->capqcut = q + 256;
        g->qcut = xrealloc(g->qcut, (size_t)g->capqcut * sizeof *g->qcut);
        for (int j = cap; j < g->capqcut; j++)
            g->qcut[j] = -2;
    }
    if (g->qcut[q] > -2)
        return g->qcut[q];
    const lin_entry *le = &g->lin[g->qstart[q]];
    int ok = g->qlen[q] >= 2, unit = 1;
    for (int l = 0; ok && l < g->qlen[q]; l++) {
        ok = le[l].col < g->ncol;
        unit &= le[l].c == 1 || le[l].c == -1;
    }
    if (!ok || unit)
        return g->qcut[q] = -1;
    int k = new_cut(g);
    g->bstart[k] = g->nb;
    g->blen[k] = g->qlen[q];
    for (int l = 0; l < g->qlen[q]; l++)
        push_ce(&g->b, &g->nb, &g->capb, le[l].col, ex_const(P, le[l].c));
    return g->qcut[q] = k;
}

/* An entry over quantity q with value val, as column entries: the cut of
 * its coefficients, or one per column. */
static void expand_entry(ex_pool *P, grads *g, int q, ex_id val, col_entry **v, size_t *n,
                         size_t *cap)
{
    int k = g->cuts ? qcut(P, g, q) : -1;
    if (k >= 0) {
        push_ce(v, n, cap, g->ncol + k, val);
        return;
    }
    for (int l = 0; l < g->qlen[q]; l++) {
        const lin_entry *le = &g->lin[g->qstart[q] + l];
        push_ce(v, n, cap, le->col, ex_op2(P, EX_MUL, val, ex_const(P, le->c)));
    }
}

/* Make position i (its gradient computed) cut k: its slots, one per column
 * its value depends on, start at its direct derivatives (0 where none),
 * then take a * (the slots of each earlier cut it reads) by the chain
 * rule's triples; the node becomes the linear quantity of pseudo-column
 * ncol + k. */
static void make_cut(ex_pool *P, grads *g, int i)
{
    g->nent = 0;
    for (int e = 0; e < g->len[i]; e++) {
        q_entry qe = g->qe[g->start[i] + (size_t)e];
        expand_entry(P, g, qe.q, qe.val, &g->ent, &g->nent, &g->capent);
    }
    int k = new_cut(g);
    size_t n = merge_cols(P, g->ent, g->nent), nd = split_direct(g, g->ent, n);
    int np = pattern(g, g->ent, nd, n);
    size_t b0 = g->nb;
    ex_id zero = ex_const(P, 0.0);
    for (int j = 0; j < np; j++) {
        g->cpos[g->cols[j]] = (int)(b0 + (size_t)j);
        push_ce(&g->b, &g->nb, &g->capb, g->cols[j], zero);
    }
    for (size_t j = 0; j < nd; j++)
        g->b[g->cpos[g->ent[j].col]].val = g->ent[j].val;
    for (size_t j = nd; j < n; j++) {
        int c = g->ent[j].col - g->ncol, ai = push_a(g, g->ent[j].val);
        for (int t = 0; t < g->blen[c]; t++) {
            size_t src = g->bstart[c] + (size_t)t;
            push_tri(g, -1 - g->cpos[g->b[src].col], ai, (int)src);
        }
    }
    g->bstart[k] = b0;
    g->blen[k] = np;
    g->linear[i] = 1;
    g->ntmp = 0;
    push_tmp(g, g->ncol + k, 1.0);
    g->qid[i] = intern_quantity(g, &g->scale[i]);
}

/* The entries of root at position k in column order (caller frees): n. */
static int root_entries(ex_pool *P, grads *g, int k, col_entry **out)
{
    size_t n = 0, cap = 0;
    col_entry *t = NULL;
    int nq = g->linear[k] ? g->qid[k] >= 0 : g->len[k];
    for (int j = 0; j < nq; j++) {
        q_entry e = operand_entry(P, g, k, j);
        expand_entry(P, g, e.q, e.val, &t, &n, &cap);
    }
    if (!t)
        t = xmalloc(sizeof *t);
    *out = t;
    return (int)merge_cols(P, t, n);
}

/* See deriv.h. */
void deriv_model(ir_model *m)
{
    for (int i = 0; i < m->nan; i++)
        if (m->an[i].sub)
            deriv_model(m->an[i].sub);
    ex_pool *P = m->pool;
    int ny = m->y.n, nu = m->f.n, nrow = ny + nu, ncol = ny + 2 * nu;
    ex_id *roots = xmalloc(((size_t)nrow + 1) * sizeof *roots);
    for (int i = 0; i < ny; i++)
        roots[i] = m->y.v[i].rhs;
    for (int i = 0; i < nu; i++)
        roots[ny + i] = m->f.v[i].rhs;
    ex_map pos;
    ex_map_init(&pos, 1024);
    ex_id *order = NULL;
    int cnt = nrow ? ex_topo(P, nrow, roots, &order, &pos) : 0;
    /* node id -> position as an array (the map's lookups missed the cache) */
    int *posd = xmalloc(((size_t)ex_count(P) + 1) * sizeof *posd);
    for (int i = 0; i < cnt; i++)
        posd[order[i]] = i;
    grads g = {0};
    ex_map_init(&g.qhash, 256);
    g.start = xcalloc((size_t)cnt + 1, sizeof *g.start);
    g.len = xcalloc((size_t)cnt + 1, sizeof *g.len);
    g.linear = xmalloc((size_t)cnt + 1);
    g.qid = xmalloc(((size_t)cnt + 1) * sizeof *g.qid);
    g.scale = xmalloc(((size_t)cnt + 1) * sizeof *g.scale);
    g.cls = xmalloc((size_t)cnt + 1);
    g.cutok = xcalloc((size_t)cnt + 1, 1);
    g.nread = xcalloc((size_t)cnt + 1, sizeof *g.nread);
    g.ncol = ncol;
    g.cmark = xmalloc(((size_t)ncol + 1) * sizeof *g.cmark);
    g.cpos = xmalloc(((size_t)ncol + 1) * sizeof *g.cpos);
    for (int c = 0; c < ncol; c++)
        g.cmark[c] = 0;
    const char *cv = getenv("JNT_CUTS");
    int cuts = !(cv && !strcmp(cv, "0")) && cnt >= CUT_NODES;
    g.cuts = cuts;
    /* the nodes' classes, their readers, and the polynomial ones a
     * non-polynomial node reads */
    for (int i = 0; i < cnt; i++) {
        const ex_node *x = ex_get(P, order[i]);
        g.cls[i] = (unsigned char)classify(P, &g, posd, x, ny, nu);
        ex_id kid[3] = {x->a, x->b, x->c};
        for (int k = 0; k < ex_nargs(x->kind); k++) {
            int o = POS(posd, kid[k]);
            if (k == 0 || kid[k] != kid[k - 1])
                g.nread[o]++;
            if (g.cls[i] == CL_OTHER)
                g.cutok[o] = 1;
        }
    }
    jnt_loc saved = ex_cur_loc(P);
    for (int i = 0; i < cnt; i++) {
        const ex_node *x = ex_get(P, order[i]);
        ex_set_loc(P, x->loc.file >= 0 ? x->loc : saved);
        g.linear[i] = (unsigned char)linear_node(P, &g, posd, x, i, ny, nu);
        if (!g.linear[i]) {
            g.start[i] = g.nqe;
            node_grad(P, &g, posd, order[i]);
            g.len[i] = (int)(g.nqe - g.start[i]);
            if (cuts && want_cut(&g, i))
                make_cut(P, &g, i);
        }
    }
    /* CSC: each root's entries (direct, then over the cuts), its pattern
     * counted per column */
    col_entry **ent = xmalloc(((size_t)nrow + 1) * sizeof *ent);
    int *nent = xmalloc(((size_t)nrow + 1) * sizeof *nent);
    int **pc = xmalloc(((size_t)nrow + 1) * sizeof *pc), *npc = xmalloc(((size_t)nrow + 1) * sizeof *npc);
    ir_jac *J = &m->jac;
    J->nrow = nrow;
    J->ncol = ncol;
    J->colptr = xcalloc((size_t)ncol + 2, sizeof *J->colptr);
    for (int r = 0; r < nrow; r++) {
        nent[r] = root_entries(P, &g, POS(posd, roots[r]), &ent[r]);
        size_t nd = split_direct(&g, ent[r], (size_t)nent[r]);
        npc[r] = pattern(&g, ent[r], nd, (size_t)nent[r]);
        pc[r] = xmalloc(((size_t)npc[r] + 1) * sizeof *pc[r]);
        if (npc[r] > 0) /* g.cols is NULL until a root has a pattern */
            memcpy(pc[r], g.cols, (size_t)npc[r] * sizeof *pc[r]);
        for (int j = 0; j < npc[r]; j++)
            J->colptr[pc[r][j] + 1]++;
    }
    for (int c = 0; c < ncol; c++)
        J->colptr[c + 1] += J->colptr[c];
    J->nnz = J->colptr[ncol];
    J->rowind = xmalloc(((size_t)J->nnz + 1) * sizeof *J->rowind);
    J->val = xmalloc(((size_t)J->nnz + 1) * sizeof *J->val);
    int *fill = xmalloc(((size_t)ncol + 1) * sizeof *fill);
    for (int c = 0; c < ncol; c++)
        fill[c] = J->colptr[c];
    ex_id zero = ex_const(P, 0.0);
    for (int r = 0; r < nrow; r++) {
        for (int j = 0; j < npc[r]; j++) {
            int c = pc[r][j];
            g.cpos[c] = fill[c];
            J->rowind[fill[c]] = r;
            J->val[fill[c]++] = zero;
        }
        for (int j = 0; j < nent[r]; j++) {
            int c = ent[r][j].col;
            if (c < ncol) {
                J->val[g.cpos[c]] = ent[r][j].val;
                continue;
            }
            /* entry (r, col) += d root/d cut * the cut's slot of col */
            int k = c - ncol, ai = push_a(&g, ent[r][j].val);
            for (int t = 0; t < g.blen[k]; t++) {
                size_t src = g.bstart[k] + (size_t)t;
                push_tri(&g, g.cpos[g.b[src].col], ai, (int)src);
            }
        }
        free(ent[r]);
        free(pc[r]);
    }
    ex_set_loc(P, saved);
    J->na = (int)g.na, J->nb = (int)g.nb, J->nchain = (int)g.ntri;
    J->a = g.av;
    J->chain = g.tri;
    J->b = xmalloc((g.nb + 1) * sizeof *J->b);
    for (size_t j = 0; j < g.nb; j++)
        J->b[j] = g.b[j].val;
    free(ent);
    free(nent);
    free(pc);
    free(npc);
    free(fill);
    free(g.cls);
    free(g.cutok);
    free(g.nread);
    free(g.bstart);
    free(g.blen);
    free(g.b);
    free(g.cmark);
    free(g.cpos);
    free(g.cols);
    free(g.ent);
    free(g.qcut);
    free(g.lin);
    free(g.qstart);
    free(g.qlen);
    free(g.qnext);
    ex_map_free(&g.qhash);
    free(g.tmp);
    free(g.qe);
    free(g.start);
    free(g.len);
    free(g.linear);
    free(g.qid);
    free(g.scale);
    free(order);
    free(posd);
    ex_map_free(&pos);
    free(roots);
}
