/*
 * gen_loop_shape.c: the passes that find the loops of a kernel (gen_loop.h,
 * gen_loop.c prints them).
 *
 * Four passes over the kernel's DAG (ex_topo order, every walk iterative),
 * after a pass 0 that finds the sums of many terms:
 *
 *   1. for every node, how many roots read it (a walk from each root);
 *   2. instances: roots joined by the interior nodes they share, except
 *      nodes read by more than GL_TMAX roots (a body's kinematics, a time
 *      function): those are hoisted, computed once before the loops;
 *   3. each instance's shape: its DAG in pre-order (first visits, then
 *      references to them), leaves and constants as slots, the entries it
 *      writes as slots; an exponent stays in the shape (x^2 is x*x);
 *   4. instances of one shape, GL_MIN or more, are a group: one loop over a
 *      table of their non-constant slots (gen_loop.c); every other root is
 *      emitted by ex_emit with the hoisted nodes, before the loops.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_loop_int.h"
#include "front/alloc.h"

/* The position of node id in g's order (ids of the DAG only). */
#define GPOS(g, id) ((g)->posd[id])

/* Push v on g's walk stack. */
static void push(gl *g, int v)
{
    if (g->sp == g->scap) {
        g->scap = g->scap ? 2 * g->scap : 256;
        g->stack = xrealloc(g->stack, g->scap * sizeof *g->stack);
    }
    g->stack[g->sp++] = v;
}

static void put_tok(gl *g, int t)
{
    if (g->ntok == g->captok) {
        g->captok = g->captok ? 2 * g->captok : 1024;
        g->tok = xrealloc(g->tok, g->captok * sizeof *g->tok);
    }
    g->tok[g->ntok++] = t;
}

static void put_slot(gl *g, int kind, double v, ex_id node)
{
    if (g->nsl == g->capsl) {
        g->capsl = g->capsl ? 2 * g->capsl : 1024;
        g->sv = xrealloc(g->sv, g->capsl * sizeof *g->sv);
        g->sk = xrealloc(g->sk, g->capsl);
        g->sn = xrealloc(g->sn, g->capsl * sizeof *g->sn);
    }
    g->sv[g->nsl] = v;
    g->sk[g->nsl] = (unsigned char)kind;
    g->sn[g->nsl++] = node;
}

/* A double's bits as two tokens (a constant that stays in the shape). */
static void put_bits(gl *g, double v)
{
    unsigned u[2];
    memcpy(u, &v, sizeof u);
    put_tok(g, (int)(u[0] & 0x7fffffff));
    put_tok(g, (int)(u[0] >> 31 | (u[1] << 1)));
    put_tok(g, (int)(u[1] >> 30));
}

static ex_id operand(const ex_node *x, int i)
{
    return i == 0 ? x->a : (i == 1 ? x->b : x->c);
}

/* Walk 1 from root r: count the roots reading each node. 1 when the root
 * reads more than GL_LIMIT nodes (it stays unrolled). */
static int count_reads(gl *g, ex_id root)
{
    int e = ++g->epoch, seen = 0, big = 0;
    g->sp = 0;
    push(g, GPOS(g, root));
    while (g->sp) {
        int i = g->stack[--g->sp];
        if (g->stamp[i] == e)
            continue;
        g->stamp[i] = e;
        if (++seen > GL_LIMIT)
            return 1;
        if (g->red[i] >= 0) {
            big = 1; /* a root that reads a sum stays unrolled */
            continue;
        }
        const ex_node *x = ex_get(g->P, g->order[i]);
        int na = ex_nargs(x->kind);
        if (na)
            g->rc[i]++;
        for (int k = 0; k < na; k++)
            push(g, GPOS(g, operand(x, k)));
    }
    return big;
}

static int uf_find(int *par, int a)
{
    while (par[a] != a)
        a = par[a] = par[par[a]];
    return a;
}

/* Walk 2 from root r: join it with the roots that share its own nodes. */
static void join(gl *g, int r, int *owner, int *par)
{
    int e = ++g->epoch;
    g->sp = 0;
    push(g, GPOS(g, g->roots[r]));
    while (g->sp) {
        int i = g->stack[--g->sp];
        if (g->stamp[i] == e)
            continue;
        g->stamp[i] = e;
        const ex_node *x = ex_get(g->P, g->order[i]);
        int na = ex_nargs(x->kind);
        if (na == 0 || g->rc[i] > GL_TMAX)
            continue;
        if (owner[i] < 0)
            owner[i] = r;
        else {
            int a = uf_find(par, owner[i]), b = uf_find(par, r);
            if (a != b)
                par[a > b ? a : b] = a > b ? b : a;
        }
        for (int k = 0; k < na; k++)
            push(g, GPOS(g, operand(x, k)));
    }
}

/* Walk 3: the shape of instance in (its roots rs[in->r0 ..]) into tokens
 * and slots. 0, or -1 when it reads more than GL_LIMIT nodes. */
static int shape(gl *g, gl_inst *in, const int *rs, const int *index)
{
    int e = ++g->epoch, nvisit = 0;
    in->t0 = g->ntok, in->s0 = g->nsl;
    for (int k = 0; k < in->nr; k++) {
        int r = rs[in->r0 + k];
        put_tok(g, TK_ROOT);
        ex_id top = r >= 0 ? g->roots[r] : g->order[-1 - r]; /* -1 - r: a sum's term */
        if (r >= 0)
            put_slot(g, SL_LHS, index ? index[r] : r, -1);
        g->sp = 0;
        push(g, 2 * GPOS(g, top));
        while (g->sp) {
            int v = g->stack[--g->sp], i = v >> 1, fixed = v & 1;
            ex_id id = g->order[i];
            const ex_node *x = ex_get(g->P, id);
            if (g->stamp[i] == e) {
                put_tok(g, TK_REF);
                put_tok(g, g->ord[i]);
                if (fixed)
                    put_bits(g, x->v);
                continue;
            }
            g->stamp[i] = e;
            g->ord[i] = nvisit;
            if (++nvisit > GL_LIMIT)
                return -1;
            int na = ex_nargs(x->kind);
            if (na && g->rc[i] > (in->split ? 1 : GL_TMAX)) {
                put_tok(g, TK_HOIST);
                put_slot(g, SL_HOIST, i, id);
                continue;
            }
            switch (x->kind) {
            case EX_CONST:
                if (fixed) {
                    put_tok(g, TK_FIXC);
                    put_bits(g, x->v);
                } else {
                    put_tok(g, TK_CONST);
                    put_slot(g, SL_CONST, x->v, id);
                }
                continue;
            case EX_Y: case EX_D: case EX_P: case EX_UP: case EX_UV:
                put_tok(g, TK_LEAF | x->kind);
                put_slot(g, SL_VAR + 16 * x->kind, x->a, id);
                continue;
            default:
                put_tok(g, TK_NODE | x->kind);
                break;
            }
            /* a + b and a * b in the order of their operands' kinds, not of
             * their ids (the pool orders them by id: c * u in one instance is
             * u * c in the next); IEEE addition and multiplication commute */
            int swap = (x->kind == EX_ADD || x->kind == EX_MUL) &&
                       ex_get(g->P, x->b)->kind < ex_get(g->P, x->a)->kind;
            for (int k = na - 1; k >= 0; k--) {
                int o = swap ? 1 - k : k;
                push(g, 2 * GPOS(g, operand(x, o)) + (x->kind == EX_POW && o == 1));
            }
        }
    }
    in->nt = g->ntok - in->t0, in->ns = g->nsl - in->s0;
    unsigned h = 2166136261u;
    for (size_t k = 0; k < in->nt; k++)
        h = (h ^ (unsigned)g->tok[in->t0 + k]) * 16777619u;
    in->h = h;
    return 0;
}

/* The sums of many terms (a reduction: sum(i in 1..n, ...)): chains of
 * additions whose inner nodes nothing else reads, found from the top down;
 * the chain follows the larger operand (the partial sum), the other is a
 * term. Sets g->red[top] and appends the terms, bottom first, to *ts as
 * -1 - position (sums[k]: its top, first term and count). Returns the count. */
static int find_sums(gl *g, int n, gl_sum **sums, int **ts)
{
    int cnt = g->cnt, ns = 0, nts = 0, capts = 0, caps = 0;
    int *uses = xcalloc((size_t)cnt + 1, sizeof *uses);
    double *size = xmalloc(((size_t)cnt + 1) * sizeof *size);
    unsigned char *tried = xcalloc((size_t)cnt + 1, 1);
    for (int i = 0; i < cnt; i++) {
        const ex_node *x = ex_get(g->P, g->order[i]);
        size[i] = 1;
        for (int k = 0; k < ex_nargs(x->kind); k++) {
            int j = GPOS(g, operand(x, k));
            uses[j]++;
            size[i] += size[j];
        }
        if (size[i] > 1e15)
            size[i] = 1e15;
    }
    for (int r = 0; r < n; r++)
        uses[GPOS(g, g->roots[r])]++;
    int *chain = xmalloc(((size_t)cnt + 1) * sizeof *chain);
    for (int i = cnt - 1; i >= 0; i--) {
        if (tried[i] || ex_get(g->P, g->order[i])->kind != EX_ADD)
            continue;
        int nc = 0, cur = i, t0 = nts;
        for (;;) {
            const ex_node *x = ex_get(g->P, g->order[cur]);
            if (x->kind != EX_ADD || (cur != i && uses[cur] != 1)) {
                chain[nc++] = cur;
                break;
            }
            tried[cur] = 1;
            int a = GPOS(g, x->a), b = GPOS(g, x->b);
            if (size[a] != size[b]) {
                chain[nc++] = size[a] > size[b] ? b : a;
                cur = size[a] > size[b] ? a : b;
                continue;
            }
            chain[nc++] = b;
            chain[nc++] = a;
            break;
        }
        if (nc < GL_MINSUM)
            continue;
        if (nts + nc > capts) {
            capts = 2 * (nts + nc);
            *ts = xrealloc(*ts, (size_t)capts * sizeof **ts);
        }
        for (int k = nc - 1; k >= 0; k--) /* the bottom first */
            (*ts)[nts++] = -1 - chain[k];
        if (ns == caps) {
            caps = caps ? 2 * caps : 16;
            *sums = xrealloc(*sums, (size_t)caps * sizeof **sums);
        }
        g->red[i] = ns;
        (*sums)[ns++] = (gl_sum){i, t0, nc};
    }
    free(chain);
    free(tried);
    free(size);
    free(uses);
    return ns;
}

/* qsort context: instances by shape, then by their first root. */
static const gl *sort_g;
static const gl_inst *sort_in;

static int same_shape_g(const gl *g, const gl_inst *a, const gl_inst *b)
{
    return a->h == b->h && a->nt == b->nt &&
           memcmp(g->tok + a->t0, g->tok + b->t0, a->nt * sizeof(int)) == 0;
}

static int same_shape(const gl_inst *a, const gl_inst *b)
{
    return a->h == b->h && a->nt == b->nt &&
           memcmp(sort_g->tok + a->t0, sort_g->tok + b->t0, a->nt * sizeof(int)) == 0;
}

static int by_shape(const void *pa, const void *pb)
{
    const gl_inst *a = &sort_in[*(const int *)pa], *b = &sort_in[*(const int *)pb];
    if (a->h != b->h)
        return a->h < b->h ? -1 : 1;
    if (a->nt != b->nt)
        return a->nt < b->nt ? -1 : 1;
    int c = memcmp(sort_g->tok + a->t0, sort_g->tok + b->t0, a->nt * sizeof(int));
    if (c)
        return c;
    return (a->r0 > b->r0) - (a->r0 < b->r0);
}

static int by_first(const void *pa, const void *pb)
{
    const gl_group *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

/* See gen_loop_int.h. */
void gl_open(gl *g, ex_pool *P, int n, const ex_id *roots)
{
    *g = (gl){.P = P, .roots = roots};
    ex_map_init(&g->pos, 1024);
    g->cnt = ex_topo(P, n, roots, &g->order, &g->pos);
    g->posd = xmalloc(((size_t)ex_count(P) + 1) * sizeof *g->posd);
    for (int i = 0; i < g->cnt; i++)
        g->posd[g->order[i]] = i;
    g->rc = xcalloc((size_t)g->cnt + 1, sizeof *g->rc);
    g->stamp = xcalloc((size_t)g->cnt + 1, sizeof *g->stamp);
    g->ord = xcalloc((size_t)g->cnt + 1, sizeof *g->ord);
    g->red = xmalloc(((size_t)g->cnt + 1) * sizeof *g->red);
    for (int i = 0; i < g->cnt; i++)
        g->red[i] = -1;
}

/* See gen_loop_int.h. */
void gl_close(gl *g)
{
    free(g->red);
    free(g->rc);
    free(g->stamp);
    free(g->ord);
    free(g->stack);
    free(g->tok);
    free(g->sv);
    free(g->sk);
    free(g->sn);
    free(g->order);
    free(g->posd);
    ex_map_free(&g->pos);
}

/* See gen_loop_int.h. */
void gl_plan_make(gl *g, int n, const int *index, int find, gl_plan *pl)
{
    int *big = xcalloc((size_t)n + 1, sizeof *big);
    int *par = xmalloc(((size_t)n + 1) * sizeof *par);
    int *owner = xmalloc(((size_t)g->cnt + 1) * sizeof *owner);
    int *rs = xmalloc(((size_t)n + 1) * sizeof *rs);
    gl_inst *ins = xmalloc(((size_t)n + 1) * sizeof *ins);
    int *members = xmalloc(((size_t)n + 1) * sizeof *members);
    gl_group *grp = xmalloc(((size_t)n + 1) * sizeof *grp);
    unsigned char *rolled = xcalloc((size_t)n + 1, 1);
    int nins = 0, ngrp = 0, nsum = 0;
    gl_sum *sums = NULL;
    int *ts = NULL;
    gl_inst *tin = NULL;
    int *tmem = NULL;

    if (find) {
        /* 0: sums of many terms */
        nsum = find_sums(g, n, &sums, &ts);
        /* 1-2: reads per node, instances */
        for (int r = 0; r < n; r++)
            big[r] = count_reads(g, g->roots[r]);
        /* the sums' terms: one shape, nothing hoisted, or the sum is written out */
        int nt = nsum ? sums[nsum - 1].t0 + sums[nsum - 1].nt : 0;
        tin = xmalloc(((size_t)nt + 1) * sizeof *tin);
        tmem = xmalloc(((size_t)nt + 1) * sizeof *tmem);
        for (int q = 0; q < nsum; q++) {
            gl_sum *sm = &sums[q];
            int ok = 1;
            for (int k = 0; k < sm->nt && ok; k++) {
                gl_inst *in = &tin[sm->t0 + k];
                *in = (gl_inst){.r0 = sm->t0 + k, .nr = 1};
                tmem[sm->t0 + k] = sm->t0 + k;
                ok = shape(g, in, ts, NULL) == 0 && (k == 0 || same_shape_g(g, in, &tin[sm->t0]));
                for (size_t j = 0; ok && j < in->nt; j++)
                    ok = g->tok[in->t0 + j] != TK_HOIST;
            }
            if (!ok)
                g->red[sm->top] = -1, sm->nt = 0;
        }
        for (int i = 0; i < g->cnt; i++)
            owner[i] = -1;
        for (int r = 0; r < n; r++)
            par[r] = r;
        for (int r = 0; r < n; r++)
            if (!big[r])
                join(g, r, owner, par);
        /* the instances' roots, in root order: counting sort by representative */
        int *cntr = xcalloc((size_t)n + 1, sizeof *cntr);
        for (int r = 0; r < n; r++)
            if (!big[r])
                cntr[uf_find(par, r)]++;
        int *start = xmalloc(((size_t)n + 1) * sizeof *start), nr = 0;
        for (int r = 0; r < n; r++) {
            start[r] = -1;
            if (cntr[r] > 0 && cntr[r] <= GL_TMAX) {
                ins[nins] = (gl_inst){.r0 = nr, .nr = 0};
                start[r] = nins++;
                nr += cntr[r];
            }
        }
        for (int r = 0; r < n; r++) {
            int rep = big[r] ? -1 : uf_find(par, r);
            if (rep >= 0 && start[rep] >= 0) {
                gl_inst *in = &ins[start[rep]];
                rs[in->r0 + in->nr++] = r;
            } else if (rep >= 0) {
                /* a chain too long for one instance: each root alone */
                ins[nins++] = (gl_inst){.r0 = nr, .nr = 1, .split = 1};
                rs[nr++] = r;
            }
        }
        free(cntr);
        free(start);
        /* 3: shapes */
        int w = 0;
        for (int k = 0; k < nins; k++) {
            size_t t0 = g->ntok, s0 = g->nsl;
            if (shape(g, &ins[k], rs, index) == 0)
                ins[w++] = ins[k];
            else
                g->ntok = t0, g->nsl = s0;
        }
        nins = w;
        /* 4: runs of one shape */
        for (int k = 0; k < nins; k++)
            members[k] = k;
        sort_g = g, sort_in = ins;
        qsort(members, (size_t)nins, sizeof *members, by_shape);
        for (int k = 0; k < nins;) {
            int e = k + 1;
            while (e < nins && same_shape(&ins[members[k]], &ins[members[e]]))
                e++;
            if (e - k >= GL_MIN) {
                grp[ngrp++] = (gl_group){k, e - k, ins[members[k]].r0};
                for (int m = k; m < e; m++) {
                    const gl_inst *in = &ins[members[m]];
                    for (int j = 0; j < in->nr; j++)
                        rolled[rs[in->r0 + j]] = 1;
                }
            }
            k = e;
        }
        sort_g = NULL, sort_in = NULL;
        qsort(grp, (size_t)ngrp, sizeof *grp, by_first);
    }
    *pl = (gl_plan){ins, nins, rs, members, grp, ngrp, rolled, sums, nsum, ts, tin, tmem};
    free(owner);
    free(par);
    free(big);
}

/* See gen_loop_int.h. */
void gl_plan_free(gl_plan *pl)
{
    free(pl->rolled);
    free(pl->grp);
    free(pl->members);
    free(pl->ins);
    free(pl->rs);
    free(pl->sums);
    free(pl->ts);
    free(pl->tin);
    free(pl->tmem);
}
