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
 * Cuts: a node spanning CUT_MIN columns or more, polynomial and read by a
 * non-polynomial node or read by several (want_cut), becomes a quantity of
 * its own. The quantities' interning, the cuts, and the expansion of the
 * roots' entries over the columns into the compressed sparse column
 * Jacobian are in deriv_cols.c; this file classifies the nodes, finds the
 * linear ones and the gradients of the others, and runs the pass.
 */
#include <stdlib.h>
#include <string.h>

#include "deriv.h"
#include "deriv_int.h"
#include "expr_int.h"
#include "front/alloc.h"

/* Append (q, val) to the gradients' entries. */
static void push_q(grads *g, int q, ex_id val)
{
    if (g->nqe == g->capqe) {
        g->capqe = g->capqe ? 2 * g->capqe : 1024;
        g->qe = xrealloc(g->qe, g->capqe * sizeof *g->qe);
    }
    g->qe[g->nqe++] = (q_entry){q, val};
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
            deriv_push_tmp(g, ea->col, sa * ea->c);
            k++;
        } else if (eb && (!ea || eb->col < ea->col)) {
            deriv_push_tmp(g, eb->col, sb * eb->c);
            j++;
        } else {
            double c = sa * ea->c + sb * eb->c;
            if (c != 0.0)
                deriv_push_tmp(g, ea->col, c);
            k++, j++;
        }
    }
    g->qid[i] = g->ntmp ? deriv_intern_quantity(g, &g->scale[i]) : -1;
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
            deriv_push_tmp(g, c, 1.0);
        g->qid[i] = c >= 0 ? deriv_intern_quantity(g, &g->scale[i]) : -1;
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
                int c = deriv_operand_entry(P, g, op[k], at[k]).q;
                if (q < 0 || c < q)
                    q = c;
            }
        if (q < 0)
            break;
        ex_id d[3] = {-1, -1, -1};
        for (int k = 0; k < na; k++) {
            d[k] = zero;
            if (at[k] < operand_len(g, op[k])) {
                q_entry e = deriv_operand_entry(P, g, op[k], at[k]);
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
                deriv_make_cut(P, &g, i);
        }
    }
    deriv_jacobian(P, &g, posd, roots, nrow, &m->jac);
    ex_set_loc(P, saved);
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
