/*
 * deriv_cols.c: the derivatives pass's columns (deriv.c runs the pass): the
 * quantities (linear combinations of the Jacobian's columns, interned once),
 * the cuts (pseudo-columns, with their slots and the chain rule's steps),
 * and the roots' quantity gradients expanded over the columns into the
 * compressed sparse column pattern and values of ir_jac. deriv.c calls this
 * file, never the other way.
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
 * a table of (entry, a, b) (gen_kernel.c). The law is then differentiated
 * against the point's few quantities (its position, velocity, frame),
 * whatever the number of coordinates that move it. JNT_CUTS=0: no cuts
 * (the Jacobian of before, for comparisons).
 */
#include <stdlib.h>
#include <string.h>

#include "deriv_int.h"
#include "front/alloc.h"

/* ---- quantities: linear combinations of the columns, interned ---- */

/* See deriv_int.h. */
void deriv_push_tmp(grads *g, int col, double c)
{
    if (g->ntmp == g->captmp) {
        g->captmp = g->captmp ? 2 * g->captmp : 64;
        g->tmp = xrealloc(g->tmp, g->captmp * sizeof *g->tmp);
    }
    g->tmp[g->ntmp++] = (lin_entry){col, c};
}

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

/* See deriv_int.h. */
int deriv_intern_quantity(grads *g, double *scale)
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

/* See deriv_int.h. */
q_entry deriv_operand_entry(ex_pool *P, const grads *g, int o, int k)
{
    if (g->linear[o])
        return (q_entry){g->qid[o], ex_const(P, g->scale[o])};
    return g->qe[g->start[o] + (size_t)k];
}

/* ---- the columns of the entries, the cuts ---- */

/* qsort: column entries by column. */
static int by_col(const void *a, const void *b)
{
    const col_entry *x = a, *y = b;
    return (x->col > y->col) - (x->col < y->col);
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
void deriv_make_cut(ex_pool *P, grads *g, int i)
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
    deriv_push_tmp(g, g->ncol + k, 1.0);
    g->qid[i] = deriv_intern_quantity(g, &g->scale[i]);
}

/* The entries of root at position k in column order (caller frees): n. */
static int root_entries(ex_pool *P, grads *g, int k, col_entry **out)
{
    size_t n = 0, cap = 0;
    col_entry *t = NULL;
    int nq = g->linear[k] ? g->qid[k] >= 0 : g->len[k];
    for (int j = 0; j < nq; j++) {
        q_entry e = deriv_operand_entry(P, g, k, j);
        expand_entry(P, g, e.q, e.val, &t, &n, &cap);
    }
    if (!t)
        t = xmalloc(sizeof *t);
    *out = t;
    return (int)merge_cols(P, t, n);
}

/* See deriv_int.h. */
void deriv_jacobian(ex_pool *P, grads *g, const int *posd, const ex_id *roots, int nrow,
                    ir_jac *J)
{
    int ncol = g->ncol;
    /* CSC: each root's entries (direct, then over the cuts), its pattern
     * counted per column */
    col_entry **ent = xmalloc(((size_t)nrow + 1) * sizeof *ent);
    int *nent = xmalloc(((size_t)nrow + 1) * sizeof *nent);
    int **pc = xmalloc(((size_t)nrow + 1) * sizeof *pc), *npc = xmalloc(((size_t)nrow + 1) * sizeof *npc);
    J->nrow = nrow;
    J->ncol = ncol;
    J->colptr = xcalloc((size_t)ncol + 2, sizeof *J->colptr);
    for (int r = 0; r < nrow; r++) {
        nent[r] = root_entries(P, g, POS(posd, roots[r]), &ent[r]);
        size_t nd = split_direct(g, ent[r], (size_t)nent[r]);
        npc[r] = pattern(g, ent[r], nd, (size_t)nent[r]);
        pc[r] = xmalloc(((size_t)npc[r] + 1) * sizeof *pc[r]);
        if (npc[r] > 0) /* g->cols is NULL until a root has a pattern */
            memcpy(pc[r], g->cols, (size_t)npc[r] * sizeof *pc[r]);
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
            g->cpos[c] = fill[c];
            J->rowind[fill[c]] = r;
            J->val[fill[c]++] = zero;
        }
        for (int j = 0; j < nent[r]; j++) {
            int c = ent[r][j].col;
            if (c < ncol) {
                J->val[g->cpos[c]] = ent[r][j].val;
                continue;
            }
            /* entry (r, col) += d root/d cut * the cut's slot of col */
            int k = c - ncol, ai = push_a(g, ent[r][j].val);
            for (int t = 0; t < g->blen[k]; t++) {
                size_t src = g->bstart[k] + (size_t)t;
                push_tri(g, g->cpos[g->b[src].col], ai, (int)src);
            }
        }
        free(ent[r]);
        free(pc[r]);
    }
    J->na = (int)g->na, J->nb = (int)g->nb, J->nchain = (int)g->ntri;
    J->a = g->av;
    J->chain = g->tri;
    J->b = xmalloc((g->nb + 1) * sizeof *J->b);
    for (size_t j = 0; j < g->nb; j++)
        J->b[j] = g->b[j].val;
    free(ent);
    free(nent);
    free(pc);
    free(npc);
    free(fill);
}
