/*
 * expr.c: the expression pool. Nodes live in one growable array and are
 * hash-consed through an open-addressing table keyed on (kind, a, b, c, bit
 * pattern of v), so building a node that exists returns its id. The
 * constructors fold constants and apply the identities that are exact (or
 * that the header promises: x*0 -> 0, x-x -> 0); the result of a fold that is
 * not finite is never made a constant, the node is kept instead.
 *
 * Also here: evaluation, dependency tests and substitution, all linear walks
 * over the sub-DAG (ex_topo), and the small shared helpers of expr_int.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_int.h"
#include "front/alloc.h"

struct ex_pool {
    ex_node *nodes;
    int n, cap;
    int *table; /* node ids, -1: empty; tcap a power of two */
    int tcap;
    jnt_loc loc; /* recorded on nodes created from now on */
};

/* A misuse of the API (bad kind or id) is a bug in the caller: an internal error. */
static _Noreturn void misuse(const char *what)
{
    alloc_fatal("expression pool misuse: %s", what);
}

/* ---- the id map ---------------------------------------------------------- */

static unsigned hash_int(int key, int cap)
{
    return ((unsigned)key * 2654435761u) & (unsigned)(cap - 1);
}

/* See expr_int.h. */
void ex_map_init(ex_map *m, int hint)
{
    int cap = 16;
    while (cap < 2 * hint)
        cap *= 2;
    m->cap = cap;
    m->n = 0;
    m->keys = xmalloc((size_t)cap * sizeof *m->keys);
    m->vals = xmalloc((size_t)cap * sizeof *m->vals);
    memset(m->keys, 0xff, (size_t)cap * sizeof *m->keys);
}

/* See expr_int.h. */
void ex_map_free(ex_map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = m->vals = NULL;
    m->cap = m->n = 0;
}

/* See expr_int.h. */
int ex_map_get(const ex_map *m, int key)
{
    unsigned mask = (unsigned)m->cap - 1;
    for (unsigned h = hash_int(key, m->cap);; h = (h + 1) & mask) {
        if (m->keys[h] == key)
            return m->vals[h];
        if (m->keys[h] < 0)
            return -1;
    }
}

/* See expr_int.h. */
void ex_map_put(ex_map *m, int key, int val)
{
    if (2 * (m->n + 1) > m->cap) {
        ex_map old = *m;
        ex_map_init(m, old.cap);
        for (int i = 0; i < old.cap; i++)
            if (old.keys[i] >= 0)
                ex_map_put(m, old.keys[i], old.vals[i]);
        ex_map_free(&old);
    }
    unsigned mask = (unsigned)m->cap - 1;
    unsigned h = hash_int(key, m->cap);
    while (m->keys[h] >= 0 && m->keys[h] != key)
        h = (h + 1) & mask;
    if (m->keys[h] < 0)
        m->n++;
    m->keys[h] = key;
    m->vals[h] = val;
}

/* ---- kinds and their meaning -------------------------------------------- */

/* See expr_int.h. */
int ex_nargs(ex_kind k)
{
    switch (k) {
    case EX_CONST: case EX_T: case EX_Y: case EX_D: case EX_P: case EX_UP: case EX_UV:
        return 0;
    case EX_NEG: case EX_SIN: case EX_COS: case EX_TAN: case EX_ASIN: case EX_ACOS:
    case EX_ATAN: case EX_SINH: case EX_COSH: case EX_TANH: case EX_EXP: case EX_LOG:
    case EX_SQRT: case EX_ABS: case EX_SIGN: case EX_FLOOR: case EX_NOT:
        return 1;
    case EX_IF:
        return 3;
    case EX_NKINDS:
        return -1;
    default:
        return 2;
    }
}

static int is_commutative(ex_kind k)
{
    return k == EX_ADD || k == EX_MUL || k == EX_MIN || k == EX_MAX || k == EX_EQ ||
           k == EX_NE || k == EX_AND || k == EX_OR;
}

/* See expr_int.h. EX_POW here is the meaning of a power with a constant
 * exponent, as gen_expr.c emits it: x^2 = x*x, x^3 = x*x*x, x^-1 = 1/x,
 * x^0.5 = sqrt(x), otherwise pow(). (ex_eval calls pow() directly when the
 * exponent is not a constant node, as the emitted code does.) min/max pick
 * the second operand on ties and NaN, like the emitted jnt_min/jnt_max; any
 * nonzero value (NaN included) is true. */
double ex_apply(ex_kind k, double a, double b, double c)
{
    switch (k) {
    case EX_ADD: return a + b;
    case EX_SUB: return a - b;
    case EX_MUL: return a * b;
    case EX_DIV: return a / b;
    case EX_POW:
        if (b == 2.0)
            return a * a;
        if (b == 3.0)
            return a * a * a;
        if (b == -1.0)
            return 1.0 / a;
        if (b == 0.5)
            return sqrt(a);
        return pow(a, b);
    case EX_NEG: return -a;
    case EX_SIN: return sin(a);
    case EX_COS: return cos(a);
    case EX_TAN: return tan(a);
    case EX_ASIN: return asin(a);
    case EX_ACOS: return acos(a);
    case EX_ATAN: return atan(a);
    case EX_SINH: return sinh(a);
    case EX_COSH: return cosh(a);
    case EX_TANH: return tanh(a);
    case EX_EXP: return exp(a);
    case EX_LOG: return log(a);
    case EX_SQRT: return sqrt(a);
    case EX_ABS: return fabs(a);
    case EX_SIGN: return a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0);
    case EX_FLOOR: return floor(a);
    case EX_ATAN2: return atan2(a, b);
    case EX_MIN: return a < b ? a : b;
    case EX_MAX: return a > b ? a : b;
    case EX_LT: return a < b ? 1.0 : 0.0;
    case EX_LE: return a <= b ? 1.0 : 0.0;
    case EX_GT: return a > b ? 1.0 : 0.0;
    case EX_GE: return a >= b ? 1.0 : 0.0;
    case EX_EQ: return a == b ? 1.0 : 0.0;
    case EX_NE: return a != b ? 1.0 : 0.0;
    case EX_AND: return (a != 0.0 && b != 0.0) ? 1.0 : 0.0;
    case EX_OR: return (a != 0.0 || b != 0.0) ? 1.0 : 0.0;
    case EX_NOT: return a == 0.0 ? 1.0 : 0.0;
    case EX_IF: return a != 0.0 ? b : c;
    default:
        misuse("ex_apply on a leaf kind");
        return 0.0;
    }
}

/* ---- the pool -------------------------------------------------------------- */

/* Creates an empty pool (owned by the caller, freed with ex_pool_free). The
 * current location starts as loc_none. */
ex_pool *ex_pool_new(void)
{
    ex_pool *p = xmalloc(sizeof *p);
    p->cap = 256;
    p->n = 0;
    p->nodes = xmalloc((size_t)p->cap * sizeof *p->nodes);
    p->tcap = 512;
    p->table = xmalloc((size_t)p->tcap * sizeof *p->table);
    memset(p->table, 0xff, (size_t)p->tcap * sizeof *p->table);
    p->loc = loc_none;
    return p;
}

/* Frees the pool and every node in it (NULL is fine). */
void ex_pool_free(ex_pool *p)
{
    if (!p)
        return;
    free(p->nodes);
    free(p->table);
    free(p);
}

/* The node with id e, or NULL when e is not a valid id. The pointer is valid
 * until the next node is created (the array grows): copy what you need
 * before calling a constructor. */
const ex_node *ex_get(const ex_pool *p, ex_id e)
{
    if (e < 0 || e >= p->n)
        return NULL;
    return &p->nodes[e];
}

/* Number of nodes in the pool (ids are 0 .. count-1). */
int ex_count(const ex_pool *p)
{
    return p->n;
}

/* Sets the location recorded on nodes created from now on. */
void ex_set_loc(ex_pool *p, jnt_loc loc)
{
    p->loc = loc;
}

/* See expr_int.h. */
jnt_loc ex_cur_loc(const ex_pool *p)
{
    return p->loc;
}

static uint64_t dbits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static unsigned node_hash(ex_kind k, int a, int b, int c, double v)
{
    uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)a + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h ^= (uint64_t)(uint32_t)b + 0x85157AF5ull + (h << 6) + (h >> 2);
    h ^= (uint64_t)(uint32_t)c + 0x1B873593ull + (h << 6) + (h >> 2);
    h ^= dbits(v) + (h << 6) + (h >> 2);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    return (unsigned)h;
}

static void table_grow(ex_pool *p)
{
    /* the new table first: if it cannot be had, the pool stays whole for ex_pool_free */
    int *table = xmalloc((size_t)p->tcap * 2 * sizeof *p->table);
    free(p->table);
    p->table = table;
    p->tcap *= 2;
    memset(p->table, 0xff, (size_t)p->tcap * sizeof *p->table);
    unsigned mask = (unsigned)p->tcap - 1;
    for (int i = 0; i < p->n; i++) {
        const ex_node *x = &p->nodes[i];
        unsigned h = node_hash(x->kind, x->a, x->b, x->c, x->v) & mask;
        while (p->table[h] >= 0)
            h = (h + 1) & mask;
        p->table[h] = i;
    }
}

/* The node (k, a, b, c, v) as it is (no simplification): found or created. */
static ex_id intern(ex_pool *p, ex_kind k, int a, int b, int c, double v)
{
    unsigned mask = (unsigned)p->tcap - 1;
    unsigned h = node_hash(k, a, b, c, v) & mask;
    uint64_t vb = dbits(v);
    for (; p->table[h] >= 0; h = (h + 1) & mask) {
        const ex_node *x = &p->nodes[p->table[h]];
        if (x->kind == k && x->a == a && x->b == b && x->c == c && dbits(x->v) == vb)
            return p->table[h];
    }
    if (p->n == p->cap) {
        p->nodes = xrealloc(p->nodes, (size_t)p->cap * 2 * sizeof *p->nodes);
        p->cap *= 2;
    }
    ex_id id = p->n++;
    p->nodes[id] = (ex_node){.kind = k, .a = a, .b = b, .c = c, .v = v, .loc = p->loc};
    p->table[h] = id;
    if (2 * p->n > p->tcap)
        table_grow(p);
    return id;
}

static void check_id(const ex_pool *p, ex_id e)
{
    if (e < 0 || e >= p->n)
        misuse("invalid node id");
}

/* ---- constructors ------------------------------------------------------ */

/* The constant v (any double; constants that are not finite print as
 * (1.0/0.0) and the like). */
ex_id ex_const(ex_pool *p, double v)
{
    return intern(p, EX_CONST, -1, -1, -1, v);
}

/* The leaf t (kind EX_T, index ignored), y[index], d[index] or p[index]. */
ex_id ex_var(ex_pool *p, ex_kind kind, int index)
{
    if (kind == EX_T)
        return intern(p, EX_T, 0, -1, -1, 0.0);
    if ((kind != EX_Y && kind != EX_D && kind != EX_P && kind != EX_UP && kind != EX_UV) ||
        index < 0)
        misuse("ex_var: bad kind or index");
    return intern(p, kind, index, -1, -1, 0.0);
}

/* 1 and the value when e is a constant, else 0. */
int ex_is_const(const ex_pool *p, ex_id e, double *v)
{
    check_id(p, e);
    if (p->nodes[e].kind != EX_CONST)
        return 0;
    if (v)
        *v = p->nodes[e].v;
    return 1;
}

static int is_val(const ex_pool *p, ex_id e, double want)
{
    return p->nodes[e].kind == EX_CONST && p->nodes[e].v == want;
}

/* The fold of an operation on constants when finite: its id, else -1. */
static ex_id fold(ex_pool *p, ex_kind k, double a, double b, double c)
{
    double r = ex_apply(k, a, b, c);
    return isfinite(r) ? ex_const(p, r) : -1;
}

/* If e is (c ? x : 0) or (c ? 0 : x) (a selection with a constant-zero
 * branch), sets *zero_then and returns 1. */
static int zero_branch_if(const ex_pool *p, ex_id e, int *zero_then)
{
    const ex_node *x = &p->nodes[e];
    if (x->kind != EX_IF)
        return 0;
    if (is_val(p, x->c, 0.0)) {
        *zero_then = 0;
        return 1;
    }
    if (is_val(p, x->b, 0.0)) {
        *zero_then = 1;
        return 1;
    }
    return 0;
}

/* The unary operation `kind` applied to a, simplified: constants fold (when
 * the result is finite), --x -> x, |-x| -> |x|, ||x|| -> |x|, and the
 * negation of a zero-branch selection goes into its other branch. */
ex_id ex_op1(ex_pool *p, ex_kind kind, ex_id a)
{
    check_id(p, a);
    if (ex_nargs(kind) != 1)
        misuse("ex_op1: not a unary kind");
    ex_node x = p->nodes[a];
    if (x.kind == EX_CONST) {
        ex_id f = fold(p, kind, x.v, 0.0, 0.0);
        if (f >= 0)
            return f;
    }
    if (kind == EX_NEG && x.kind == EX_NEG)
        return x.a;
    /* -(c ? a : 0) -> c ? -a : 0, so that the NaN guard still sees the zero */
    int zt;
    if (kind == EX_NEG && zero_branch_if(p, a, &zt)) {
        ex_id live = ex_op1(p, EX_NEG, zt ? x.c : x.b);
        return zt ? ex_if(p, x.a, x.b, live) : ex_if(p, x.a, live, x.c);
    }
    if (kind == EX_ABS && (x.kind == EX_NEG || x.kind == EX_ABS))
        return ex_op1(p, EX_ABS, x.a);
    return intern(p, kind, a, -1, -1, 0.0);
}

/* op(sel, other) or op(other, sel) pushed into the nonzero branch of sel:
 * x * (c ? a : 0) -> c ? x*a : 0. The zero branch stays the same node. */
static ex_id push_into_if(ex_pool *p, ex_kind kind, ex_id sel, ex_id other, int sel_first,
                          int zero_then)
{
    ex_node s = p->nodes[sel];
    ex_id live = zero_then ? s.c : s.b;
    ex_id r = sel_first ? ex_op2(p, kind, live, other) : ex_op2(p, kind, other, live);
    return zero_then ? ex_if(p, s.a, s.b, r) : ex_if(p, s.a, r, s.c);
}

/* The binary operation `kind` on (a, b), simplified: constants fold (when
 * finite); x+0, 0+x, x-0, x*1, 1*x, x/1, x^1 -> x; 0-x, x*-1, x/-1 -> -x;
 * x-x, x*0, 0*x, 0/x -> 0; x^0, 1^x -> 1; a+-b -> a-b, a--b -> a+b,
 * -a*-b -> a*b; min(x,x), max(x,x) -> x. A product (or a quotient's
 * numerator) that is a selection with a zero branch takes the operation
 * into the other branch (the NaN guard of expr.h). Commutative operations
 * put the operand with the smaller id first. */
ex_id ex_op2(ex_pool *p, ex_kind kind, ex_id a, ex_id b)
{
    check_id(p, a);
    check_id(p, b);
    if (ex_nargs(kind) != 2)
        misuse("ex_op2: not a binary kind");
    ex_node x = p->nodes[a], y = p->nodes[b];
    if (x.kind == EX_CONST && y.kind == EX_CONST) {
        ex_id f = fold(p, kind, x.v, y.v, 0.0);
        if (f >= 0)
            return f;
    }
    int zt;
    switch (kind) {
    case EX_ADD:
        if (is_val(p, b, 0.0))
            return a;
        if (is_val(p, a, 0.0))
            return b;
        if (y.kind == EX_NEG)
            return ex_op2(p, EX_SUB, a, y.a);
        if (x.kind == EX_NEG)
            return ex_op2(p, EX_SUB, b, x.a);
        break;
    case EX_SUB:
        if (is_val(p, b, 0.0))
            return a;
        if (is_val(p, a, 0.0))
            return ex_op1(p, EX_NEG, b);
        if (a == b)
            return ex_const(p, 0.0);
        if (y.kind == EX_NEG)
            return ex_op2(p, EX_ADD, a, y.a);
        break;
    case EX_MUL:
        if (is_val(p, a, 0.0) || is_val(p, b, 0.0))
            return ex_const(p, 0.0);
        if (is_val(p, b, 1.0))
            return a;
        if (is_val(p, a, 1.0))
            return b;
        if (is_val(p, b, -1.0))
            return ex_op1(p, EX_NEG, a);
        if (is_val(p, a, -1.0))
            return ex_op1(p, EX_NEG, b);
        if (x.kind == EX_NEG && y.kind == EX_NEG)
            return ex_op2(p, EX_MUL, x.a, y.a);
        if (zero_branch_if(p, a, &zt))
            return push_into_if(p, kind, a, b, 1, zt);
        if (zero_branch_if(p, b, &zt))
            return push_into_if(p, kind, b, a, 0, zt);
        break;
    case EX_DIV:
        if (is_val(p, a, 0.0) && !is_val(p, b, 0.0)) /* 0/0 stays: NaN, not 0 */
            return ex_const(p, 0.0);
        if (is_val(p, b, 1.0))
            return a;
        if (is_val(p, b, -1.0))
            return ex_op1(p, EX_NEG, a);
        /* (c x) / c = x for a constant c: a law's force per area times the
         * area (within an ulp of the two roundings it saves) */
        if (p->nodes[a].kind == EX_MUL && p->nodes[b].kind == EX_CONST) {
            const ex_node *m = &p->nodes[a];
            if (m->a == b)
                return m->b;
            if (m->b == b)
                return m->a;
        }
        if (zero_branch_if(p, a, &zt))
            return push_into_if(p, kind, a, b, 1, zt);
        break;
    case EX_POW:
        if (is_val(p, b, 1.0))
            return a;
        if (is_val(p, b, 0.0) || is_val(p, a, 1.0))
            return ex_const(p, 1.0);
        break;
    case EX_MIN:
    case EX_MAX:
        if (a == b)
            return a;
        break;
    default:
        break;
    }
    if (is_commutative(kind) && a > b) {
        ex_id s = a;
        a = b;
        b = s;
    }
    return intern(p, kind, a, b, -1, 0.0);
}

/* The selection cond ? then_ : else_, simplified: a constant condition
 * picks its branch (nonzero, NaN included, is true) and equal branches give
 * that branch. (c ? 1 : 0 is kept as it is, not turned into c: the NaN guard
 * needs to see the zero branch of a derivative.) */
ex_id ex_if(ex_pool *p, ex_id cond, ex_id then_, ex_id else_)
{
    check_id(p, cond);
    check_id(p, then_);
    check_id(p, else_);
    if (p->nodes[cond].kind == EX_CONST)
        return p->nodes[cond].v != 0.0 ? then_ : else_;
    if (then_ == else_)
        return then_;
    return intern(p, EX_IF, cond, then_, else_, 0.0);
}

/* The node of kind k with operands (a, b, c) built through the simplifying
 * constructors. */
static ex_id rebuild(ex_pool *p, ex_kind k, ex_id a, ex_id b, ex_id c)
{
    switch (ex_nargs(k)) {
    case 1: return ex_op1(p, k, a);
    case 2: return ex_op2(p, k, a, b);
    default: return ex_if(p, a, b, c);
    }
}

/* ---- walks ----------------------------------------------------------------- */

static ex_id operand(const ex_node *x, int i)
{
    return i == 0 ? x->a : (i == 1 ? x->b : x->c);
}

/* See expr_int.h. */
int ex_topo(const ex_pool *p, int n, const ex_id *roots, ex_id **order, ex_map *pos)
{
    int cap = 64, cnt = 0, scap = 64, sp = 0;
    ex_id *out = xmalloc((size_t)cap * sizeof *out);
    struct frame { ex_id id; int next; } *st = xmalloc((size_t)scap * sizeof *st);
    for (int r = 0; r < n; r++) {
        check_id(p, roots[r]);
        if (ex_map_get(pos, roots[r]) >= 0)
            continue;
        st[sp++] = (struct frame){roots[r], 0};
        while (sp > 0) {
            struct frame *f = &st[sp - 1];
            const ex_node *x = &p->nodes[f->id];
            if (f->next < ex_nargs(x->kind)) {
                ex_id ch = operand(x, f->next++);
                if (ex_map_get(pos, ch) < 0) {
                    if (sp == scap) {
                        scap *= 2;
                        st = xrealloc(st, (size_t)scap * sizeof *st);
                    }
                    st[sp++] = (struct frame){ch, 0};
                }
                continue;
            }
            if (cnt == cap) {
                cap *= 2;
                out = xrealloc(out, (size_t)cap * sizeof *out);
            }
            ex_map_put(pos, f->id, cnt);
            out[cnt++] = f->id;
            sp--;
        }
    }
    free(st);
    *order = out;
    return cnt;
}

/* Evaluates e at (t, y, d, par); y, d, par may be NULL when e does not read
 * them. Linear in the size of e's DAG; computes what the emitted C computes. */
double ex_eval(const ex_pool *p, ex_id e, double t, const double *y, const double *d,
               const double *par)
{
    ex_map pos;
    ex_id *order;
    ex_map_init(&pos, 64);
    int n = ex_topo(p, 1, &e, &order, &pos);
    double *val = xmalloc((size_t)n * sizeof *val);
    for (int i = 0; i < n; i++) {
        const ex_node *x = &p->nodes[order[i]];
        double va = 0.0, vb = 0.0, vc = 0.0;
        int na = ex_nargs(x->kind);
        if (na >= 1)
            va = val[ex_map_get(&pos, x->a)];
        if (na >= 2)
            vb = val[ex_map_get(&pos, x->b)];
        if (na >= 3)
            vc = val[ex_map_get(&pos, x->c)];
        switch (x->kind) {
        case EX_CONST: val[i] = x->v; break;
        case EX_T: val[i] = t; break;
        case EX_Y: val[i] = y[x->a]; break;
        case EX_D: val[i] = d[x->a]; break;
        case EX_P: val[i] = par[x->a]; break;
        case EX_UP: case EX_UV: val[i] = NAN; break; /* gathered by the runtime */
        case EX_POW:
            /* a non-constant exponent is emitted as pow() */
            val[i] = p->nodes[x->b].kind == EX_CONST ? ex_apply(EX_POW, va, vb, 0.0)
                                                      : pow(va, vb);
            break;
        default: val[i] = ex_apply(x->kind, va, vb, vc); break;
        }
    }
    double r = val[n - 1];
    free(val);
    free(order);
    ex_map_free(&pos);
    return r;
}

/* Does leaf x stand for the variable (kind, index)? */
static int leaf_is(const ex_node *x, ex_kind kind, int index)
{
    if (x->kind != kind)
        return 0;
    return kind == EX_T || index < 0 || x->a == index;
}

/* 1 when e reads the variable (kind, index) (EX_T: index ignored), else 0.
 * Linear in the size of e's DAG. */
int ex_depends(ex_pool *p, ex_id e, ex_kind kind, int index)
{
    ex_map pos;
    ex_id *order;
    ex_map_init(&pos, 64);
    int n = ex_topo(p, 1, &e, &order, &pos);
    char *dep = xmalloc((size_t)n);
    for (int i = 0; i < n; i++) {
        const ex_node *x = &p->nodes[order[i]];
        int na = ex_nargs(x->kind);
        dep[i] = (char)leaf_is(x, kind, index);
        for (int k = 0; k < na && !dep[i]; k++)
            dep[i] = dep[ex_map_get(&pos, operand(x, k))];
    }
    int r = dep[n - 1];
    free(dep);
    free(order);
    ex_map_free(&pos);
    return r;
}

/* e with every leaf (kind, index) replaced by repl[index] (EX_T: repl[0]),
 * rebuilt through the simplifying constructors. Nodes it builds carry the
 * location of the node they replace when that one has one. */
ex_id ex_subst(ex_pool *p, ex_id e, ex_kind kind, const ex_id *repl)
{
    ex_map pos;
    ex_id *order;
    ex_map_init(&pos, 64);
    int n = ex_topo(p, 1, &e, &order, &pos);
    ex_id *out = xmalloc((size_t)n * sizeof *out);
    jnt_loc saved = p->loc;
    for (int i = 0; i < n; i++) {
        ex_node x = p->nodes[order[i]];
        int na = ex_nargs(x.kind);
        if (na == 0) {
            out[i] = x.kind == kind ? repl[kind == EX_T ? 0 : x.a] : order[i];
            continue;
        }
        ex_id ch[3] = {-1, -1, -1};
        int same = 1;
        for (int k = 0; k < na; k++) {
            ex_id old = operand(&x, k);
            ch[k] = out[ex_map_get(&pos, old)];
            same &= ch[k] == old;
        }
        if (same) {
            out[i] = order[i];
            continue;
        }
        p->loc = x.loc.file >= 0 ? x.loc : saved;
        out[i] = rebuild(p, x.kind, ch[0], ch[1], ch[2]);
    }
    p->loc = saved;
    ex_id r = out[n - 1];
    free(out);
    free(order);
    ex_map_free(&pos);
    return r;
}
