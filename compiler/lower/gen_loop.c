/*
 * gen_loop.c: instances of one shape emitted as one loop (gen_loop.h).
 *
 * Four passes over the kernel's DAG (ex_topo order, every walk iterative):
 *
 *   1. for every node, how many roots read it (a walk from each root);
 *   2. instances: roots joined by the interior nodes they share, except
 *      nodes read by more than GL_TMAX roots (a body's kinematics, a time
 *      function): those are hoisted, computed once before the loops;
 *   3. each instance's shape: its DAG in pre-order (first visits, then
 *      references to them), leaves and constants as slots, the entries it
 *      writes as slots; an exponent stays in the shape (x^2 is x*x);
 *   4. instances of one shape, GL_MIN or more, are one loop over a table of
 *      their non-constant slots; every other root is emitted by ex_emit
 *      with the hoisted nodes, before the loops.
 *
 * Bit for bit: the loop body is the first instance's DAG, printed by the
 * same printer, with each slot read from the table instead of written as a
 * literal index or constant; a constant read from the table is the same
 * double.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_loop.h"
#include "front/alloc.h"

#define GL_TMAX 32    /* the most roots one instance holds; nodes read by more are hoisted */
#define GL_LIMIT 4000 /* the most nodes one instance reads */
#define GL_MIN 4      /* the fewest instances worth a loop */
#define GL_MINSUM 8   /* the fewest terms worth a summing loop */
#define GL_DEPTH 3    /* levels of hoisted nodes rolled in turn (their own instances) */

enum { TK_NODE = 0x100, TK_LEAF = 0x200, TK_CONST = 0x300, TK_FIXC = 0x400, TK_HOIST = 0x500,
       TK_REF = 0x600, TK_ROOT = 0x700 };
enum { SL_VAR, SL_CONST, SL_HOIST, SL_LHS };

/* One instance: its roots, tokens and slots (slices of the pass's arrays). */
typedef struct gl_inst {
    int r0, nr;   /* roots: rs[r0 .. r0 + nr) */
    size_t t0, nt;
    size_t s0, ns;
    unsigned h;
    int split;    /* 1: a root of a chain of instances (a spring between two masses is
                     read by both): every node another root reads is hoisted */
} gl_inst;

typedef struct gl {
    ex_pool *P;
    const ex_id *roots;
    ex_map pos;
    int *posd;     /* node id -> position, for the nodes of the DAG (a map's
                      lookups missed the cache: half the time of 40,000 bodies) */
    ex_id *order;
    int cnt;
    int *rc;       /* per position: roots that read it */
    int *stamp;    /* per position: the walk that saw it last */
    int *ord;      /* per position: its ordinal in the instance being read */
    int epoch;
    int *stack;
    size_t sp, scap;
    int *tok;
    size_t ntok, captok;
    int *red;      /* per position: the reduction it is the sum of, or -1 */
    double *sv;    /* slot values: index, constant, hoisted position, entry */
    unsigned char *sk; /* slot kinds SL_*, or for SL_VAR: SL_VAR + 16 * ex_kind */
    ex_id *sn;     /* slot nodes */
    size_t nsl, capsl;
} gl;

#define GPOS(g, id) ((g)->posd[id])

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
typedef struct gl_sum {
    int top, t0, nt;
} gl_sum;

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

/* A run of instances of one shape: members[m0 .. m0 + nm). */
typedef struct gl_group {
    int m0, nm, first;
} gl_group;

static int by_first(const void *pa, const void *pb)
{
    const gl_group *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

static void tab_push(gl_tables *t, double v)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->v = xrealloc(t->v, (size_t)t->cap * sizeof *t->v);
    }
    t->v[t->n++] = v;
}

static const char *var_array(int kind)
{
    switch (kind) {
    case EX_Y: return "y";
    case EX_D: return "d";
    case EX_P: return "p";
    case EX_UP: return "u";
    default: return "uv";
    }
}

/* Emit group gr as one loop over its members' table. */
static void emit_group(gl *g, FILE *out, const diag_ctx *dc, const gl_inst *ins,
                       const int *members, const gl_group *gr, const int *rs, const char *name,
                       const ex_map *hoist, const char *hname, gl_tables *tabs, const char *kd,
                       int gno, const char *sum)
{
    const gl_inst *t = &ins[members[gr->m0]];
    size_t ns = t->ns;
    int *col = xmalloc((ns + 1) * sizeof *col);
    int ncol = 0;
    for (size_t s = 0; s < ns; s++) {
        double v0 = g->sv[t->s0 + s];
        col[s] = -1;
        for (int m = 1; m < gr->nm; m++) {
            double v = g->sv[ins[members[gr->m0 + m]].s0 + s];
            if (memcmp(&v, &v0, sizeof v) != 0) {
                col[s] = ncol++;
                break;
            }
        }
    }
    /* the table: one row per member, its varying slots */
    long off = tabs->n;
    for (int m = 0; m < gr->nm; m++) {
        const gl_inst *in = &ins[members[gr->m0 + m]];
        for (size_t s = 0; s < ns; s++) {
            if (col[s] < 0)
                continue;
            double v = g->sv[in->s0 + s];
            if (g->sk[in->s0 + s] == SL_HOIST)
                v = ex_map_get(hoist, (int)v);
            tab_push(tabs, v);
        }
    }
    /* the texts of the template's slots and entries */
    char **text = xmalloc((ns + 1) * sizeof *text);
    char **lhs = xmalloc(((size_t)t->nr + 1) * sizeof *lhs);
    ex_map slot;
    ex_map_init(&slot, 64);
    int ntext = 0, nl = 0;
    for (size_t s = 0; s < ns; s++) {
        int kind = g->sk[t->s0 + s];
        double v = g->sv[t->s0 + s];
        int c = col[s];
        if (kind == SL_LHS) {
            lhs[nl++] = c < 0 ? xasprintf("%s[%d]", name, (int)v)
                              : xasprintf("%s[(int)K[%d]]", name, c);
            continue;
        }
        if (kind == SL_HOIST) {
            text[ntext] = c < 0 ? xasprintf("%s[%d]", hname, ex_map_get(hoist, (int)v))
                                : xasprintf("%s[(int)K[%d]]", hname, c);
        } else if (c < 0) {
            continue; /* the same in every member: written as it is */
        } else if (kind == SL_CONST) {
            text[ntext] = xasprintf("K[%d]", c);
        } else {
            text[ntext] = xasprintf("%s[(int)K[%d]]", var_array(kind / 16), c);
        }
        ex_map_put(&slot, g->sn[t->s0 + s], ntext++);
    }
    ex_id *troots = xmalloc(((size_t)t->nr + 1) * sizeof *troots);
    for (int k = 0; k < t->nr; k++) {
        int r = rs[t->r0 + k];
        troots[k] = r >= 0 ? g->roots[r] : g->order[-1 - r];
    }
    if (sum)
        lhs[nl++] = xstrdup("const double rt"); /* a term, added to the sum */
    fprintf(out, "#line 1 \"<jnt>\"\n    {\n        const double *K = %s + %ld; /* %d %s */\n"
                 "        for (int i = 0; i < %d; i++, K += %d) {\n",
            kd, off, gr->nm, sum ? "terms" : "instances", gr->nm, ncol);
    char px[32];
    snprintf(px, sizeof px, "k%d_", gno);
    ex_emit_slots(g->P, out, t->nr, troots, (const char *const *)lhs, dc, "            ", px,
                  &slot, (const char *const *)text);
    if (sum)
        fprintf(out, "            %s += rt;\n", sum);
    fputs("#line 1 \"<jnt>\"\n        }\n    }\n", out);
    for (int k = 0; k < ntext; k++)
        free(text[k]);
    for (int k = 0; k < nl; k++)
        free(lhs[k]);
    free(text);
    free(lhs);
    free(troots);
    free(col);
    ex_map_free(&slot);
}

/* gen_loop_emit at depth `depth`: the hoisted nodes are the roots of the
 * next level, into gh<depth + 1>[k]. */
static void emit_level(ex_pool *P, FILE *out, const diag_ctx *dc, int n, const ex_id *roots,
                       const char *name, const int *index, const char *prefix, gl_tables *tabs,
                       const char *kd, int depth)
{
    if (n == 0)
        return;
    gl g = {.P = P, .roots = roots};
    ex_map_init(&g.pos, 1024);
    g.cnt = ex_topo(P, n, roots, &g.order, &g.pos);
    g.posd = xmalloc(((size_t)ex_count(P) + 1) * sizeof *g.posd);
    for (int i = 0; i < g.cnt; i++)
        g.posd[g.order[i]] = i;
    g.rc = xcalloc((size_t)g.cnt + 1, sizeof *g.rc);
    g.stamp = xcalloc((size_t)g.cnt + 1, sizeof *g.stamp);
    g.ord = xcalloc((size_t)g.cnt + 1, sizeof *g.ord);
    int *big = xcalloc((size_t)n + 1, sizeof *big);
    int *par = xmalloc(((size_t)n + 1) * sizeof *par);
    int *owner = xmalloc(((size_t)g.cnt + 1) * sizeof *owner);
    int *rs = xmalloc(((size_t)n + 1) * sizeof *rs);
    gl_inst *ins = xmalloc(((size_t)n + 1) * sizeof *ins);
    int *members = xmalloc(((size_t)n + 1) * sizeof *members);
    gl_group *grp = xmalloc(((size_t)n + 1) * sizeof *grp);
    unsigned char *rolled = xcalloc((size_t)n + 1, 1);
    int nins = 0, ngrp = 0, nsum = 0;
    g.red = xmalloc(((size_t)g.cnt + 1) * sizeof *g.red);
    for (int i = 0; i < g.cnt; i++)
        g.red[i] = -1;
    gl_sum *sums = NULL;
    int *ts = NULL;
    gl_inst *tin = NULL;
    int *tmem = NULL;

    if (tabs) {
        /* 0: sums of many terms */
        nsum = find_sums(&g, n, &sums, &ts);
        /* 1-2: reads per node, instances */
        for (int r = 0; r < n; r++)
            big[r] = count_reads(&g, roots[r]);
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
                ok = shape(&g, in, ts, NULL) == 0 && (k == 0 || same_shape_g(&g, in, &tin[sm->t0]));
                for (size_t j = 0; ok && j < in->nt; j++)
                    ok = g.tok[in->t0 + j] != TK_HOIST;
            }
            if (!ok)
                g.red[sm->top] = -1, sm->nt = 0;
        }
        for (int i = 0; i < g.cnt; i++)
            owner[i] = -1;
        for (int r = 0; r < n; r++)
            par[r] = r;
        for (int r = 0; r < n; r++)
            if (!big[r])
                join(&g, r, owner, par);
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
            size_t t0 = g.ntok, s0 = g.nsl;
            if (shape(&g, &ins[k], rs, index) == 0)
                ins[w++] = ins[k];
            else
                g.ntok = t0, g.nsl = s0;
        }
        nins = w;
        /* 4: runs of one shape */
        for (int k = 0; k < nins; k++)
            members[k] = k;
        sort_g = &g, sort_in = ins;
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

    /* the hoisted nodes the loops read, in the order first read */
    ex_map hoist;
    ex_map_init(&hoist, 64);
    ex_id *hn = NULL;
    int nh = 0, caph = 0;
    for (int q = 0; q < ngrp; q++)
        for (int m = 0; m < grp[q].nm; m++) {
            const gl_inst *in = &ins[members[grp[q].m0 + m]];
            for (size_t s = 0; s < in->ns; s++) {
                int i = (int)g.sv[in->s0 + s];
                if (g.sk[in->s0 + s] != SL_HOIST || ex_map_get(&hoist, i) >= 0)
                    continue;
                if (nh == caph) {
                    caph = caph ? 2 * caph : 64;
                    hn = xrealloc(hn, (size_t)caph * sizeof *hn);
                }
                ex_map_put(&hoist, i, nh);
                hn[nh++] = g.order[i];
            }
        }

    /* the unrolled roots and the hoisted nodes, then the loops */
    int np = 0;
    for (int r = 0; r < n; r++)
        np += !rolled[r];
    ex_id *pr = xmalloc(((size_t)np + nh + 1) * sizeof *pr);
    char **pl = xmalloc(((size_t)np + nh + 1) * sizeof *pl);
    int k = 0;
    for (int r = 0; r < n; r++)
        if (!rolled[r]) {
            pr[k] = roots[r];
            pl[k++] = xasprintf("%s[%d]", name, index ? index[r] : r);
        }
    char hname[16], sumpx[16], hpx[16];
    snprintf(hname, sizeof hname, "gh%d", depth + 1);
    snprintf(sumpx, sizeof sumpx, "rd%d_", depth);
    snprintf(hpx, sizeof hpx, "h%d_", depth + 1);
    int deeper = nh && depth + 1 < GL_DEPTH;
    for (int h = 0; h < nh && !deeper; h++) {
        pr[k] = hn[h];
        pl[k++] = xasprintf("%s[%d]", hname, h);
    }
    /* the sums, then what reads them */
    ex_map sumslot;
    ex_map_init(&sumslot, 16);
    char **sumtext = xmalloc(((size_t)nsum + nh + 1) * sizeof *sumtext);
    int nst = 0;
    for (int q = 0; q < nsum; q++) {
        if (!sums[q].nt)
            continue;
        sumtext[nst] = xasprintf("%s%d", sumpx, q);
        fprintf(out, "    double %s = -0.0; /* -0.0 + x is x: the sum as written */\n",
                sumtext[nst]);
        gl_group sg = {sums[q].t0, sums[q].nt, 0};
        emit_group(&g, out, dc, tin, tmem, &sg, ts, name, &hoist, hname, tabs, kd, 0,
                   sumtext[nst]);
        ex_map_put(&sumslot, g.order[sums[q].top], nst++);
    }
    if (nh)
        fprintf(out, "    double %s[%d];\n", hname, nh);
    if (deeper) { /* the hoisted nodes: instances of their own, read (not
                     computed again) by the unrolled roots */
        emit_level(P, out, dc, nh, hn, hname, NULL, hpx, tabs, kd, depth + 1);
        for (int h = 0; h < nh; h++)
            if (ex_map_get(&sumslot, hn[h]) < 0) {
                sumtext[nst] = xasprintf("%s[%d]", hname, h);
                ex_map_put(&sumslot, hn[h], nst++);
            }
    }
    if (k)
        ex_emit_slots(P, out, k, pr, (const char *const *)pl, dc, "    ", prefix,
                      nst ? &sumslot : NULL, (const char *const *)sumtext);
    for (int q = 0; q < nst; q++)
        free(sumtext[q]);
    free(sumtext);
    ex_map_free(&sumslot);
    for (int q = 0; q < ngrp; q++)
        emit_group(&g, out, dc, ins, members, &grp[q], rs, name, &hoist, hname, tabs, kd, q,
                   NULL);
    for (int j = 0; j < k; j++)
        free(pl[j]);
    free(pl);
    free(pr);
    free(hn);
    ex_map_free(&hoist);
    free(rolled);
    free(grp);
    free(members);
    free(ins);
    free(rs);
    free(owner);
    free(par);
    free(big);
    free(sums);
    free(ts);
    free(tin);
    free(tmem);
    free(g.red);
    free(g.rc);
    free(g.stamp);
    free(g.ord);
    free(g.stack);
    free(g.tok);
    free(g.sv);
    free(g.sk);
    free(g.sn);
    free(g.order);
    free(g.posd);
    ex_map_free(&g.pos);
}

/* See gen_loop.h. */
void gen_loop_emit(ex_pool *P, FILE *out, const diag_ctx *dc, int n, const ex_id *roots,
                   const char *name, const int *index, const char *prefix, gl_tables *tabs,
                   const char *kd)
{
    emit_level(P, out, dc, n, roots, name, index, prefix, tabs, kd, 0);
}
