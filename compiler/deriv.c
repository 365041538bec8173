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
 */
#include <stdlib.h>
#include <string.h>

#include "deriv.h"
#include "expr_int.h"
#include "alloc.h"

/* A constant coefficient in column col. */
typedef struct lin_entry {
    int col;
    double c;
} lin_entry;

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
static int linear_node(ex_pool *P, grads *g, const ex_map *pos, const ex_node *x, int i, int ny,
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
    int op[3] = {ex_map_get(pos, x->a), na >= 2 ? ex_map_get(pos, x->b) : -1,
                 na >= 3 ? ex_map_get(pos, x->c) : -1};
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
static void node_grad(ex_pool *P, grads *g, const ex_map *pos, ex_id id)
{
    ex_node x = *ex_get(P, id);
    int na = ex_nargs(x.kind);
    int op[3] = {-1, -1, -1}, at[3] = {0, 0, 0};
    ex_id kid[3] = {x.a, x.b, x.c};
    for (int k = 0; k < na; k++)
        op[k] = ex_map_get(pos, kid[k]);
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

/* One column entry of a root: (col, expression). */
typedef struct col_entry {
    int col;
    ex_id val;
} col_entry;

static int by_col(const void *a, const void *b)
{
    const col_entry *x = a, *y = b;
    return (x->col > y->col) - (x->col < y->col);
}

/* The entries of root at position k in column order (caller frees): n. */
static int root_entries(ex_pool *P, const grads *g, int k, col_entry **out)
{
    size_t n = 0;
    int nq = g->linear[k] ? g->qid[k] >= 0 : g->len[k];
    for (int j = 0; j < nq; j++)
        n += (size_t)g->qlen[operand_entry(P, g, k, j).q];
    col_entry *t = xmalloc((n + 1) * sizeof *t);
    n = 0;
    for (int j = 0; j < nq; j++) {
        q_entry e = operand_entry(P, g, k, j);
        for (int l = 0; l < g->qlen[e.q]; l++) {
            const lin_entry *le = &g->lin[g->qstart[e.q] + l];
            t[n++] = (col_entry){le->col, ex_op2(P, EX_MUL, e.val, ex_const(P, le->c))};
        }
    }
    qsort(t, n, sizeof *t, by_col);
    int m = 0;
    for (size_t j = 0; j < n; j++) {
        if (m > 0 && t[m - 1].col == t[j].col)
            t[m - 1].val = ex_op2(P, EX_ADD, t[m - 1].val, t[j].val);
        else
            t[m++] = t[j];
    }
    int w = 0;
    for (int j = 0; j < m; j++) {
        double cv;
        if (!ex_is_const(P, t[j].val, &cv) || cv != 0)
            t[w++] = t[j];
    }
    *out = t;
    return w;
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
    grads g = {0};
    ex_map_init(&g.qhash, 256);
    g.start = xcalloc((size_t)cnt + 1, sizeof *g.start);
    g.len = xcalloc((size_t)cnt + 1, sizeof *g.len);
    g.linear = xmalloc((size_t)cnt + 1);
    g.qid = xmalloc(((size_t)cnt + 1) * sizeof *g.qid);
    g.scale = xmalloc(((size_t)cnt + 1) * sizeof *g.scale);
    jnt_loc saved = ex_cur_loc(P);
    for (int i = 0; i < cnt; i++) {
        const ex_node *x = ex_get(P, order[i]);
        ex_set_loc(P, x->loc.file >= 0 ? x->loc : saved);
        g.linear[i] = (unsigned char)linear_node(P, &g, &pos, x, i, ny, nu);
        if (!g.linear[i]) {
            g.start[i] = g.nqe;
            node_grad(P, &g, &pos, order[i]);
            g.len[i] = (int)(g.nqe - g.start[i]);
        }
    }
    /* CSC: each root's entries, then counted per column */
    col_entry **ent = xmalloc(((size_t)nrow + 1) * sizeof *ent);
    int *nent = xmalloc(((size_t)nrow + 1) * sizeof *nent);
    ir_jac *J = &m->jac;
    J->nrow = nrow;
    J->ncol = ncol;
    J->colptr = xcalloc((size_t)ncol + 2, sizeof *J->colptr);
    for (int r = 0; r < nrow; r++) {
        nent[r] = root_entries(P, &g, ex_map_get(&pos, roots[r]), &ent[r]);
        for (int j = 0; j < nent[r]; j++)
            J->colptr[ent[r][j].col + 1]++;
    }
    ex_set_loc(P, saved);
    for (int c = 0; c < ncol; c++)
        J->colptr[c + 1] += J->colptr[c];
    J->nnz = J->colptr[ncol];
    J->rowind = xmalloc(((size_t)J->nnz + 1) * sizeof *J->rowind);
    J->val = xmalloc(((size_t)J->nnz + 1) * sizeof *J->val);
    int *fill = xmalloc(((size_t)ncol + 1) * sizeof *fill);
    for (int c = 0; c < ncol; c++)
        fill[c] = J->colptr[c];
    for (int r = 0; r < nrow; r++) {
        for (int j = 0; j < nent[r]; j++) {
            J->rowind[fill[ent[r][j].col]] = r;
            J->val[fill[ent[r][j].col]++] = ent[r][j].val;
        }
        free(ent[r]);
    }
    free(ent);
    free(nent);
    free(fill);
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
    ex_map_free(&pos);
    free(roots);
}
