/*
 * eval.c: expressions: names, members, units and dimensions, built-in
 * functions. Every value is converted to SI here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"

const sval sval_err = {V_ERR, -1, {{0}}, -1, 0, 0};

/* A number value. */
sval sval_num(ex_id e, jnt_dim dim)
{
    return (sval){V_NUM, e, dim, -1, 0, 0};
}

static const char *dimstr(jnt_dim d, char *buf)
{
    return units_format(d, buf, 64);
}

/* A short description of what a value is, for messages. */
const char *sema_kind_name(sema *S, sval v)
{
    switch (v.k) {
    case V_NUM: return "a number";
    case V_DOF: return "a degree of freedom";
    case V_BODY: return "a body";
    case V_ELEM: return S->elems[v.id].kind == ELEM_FORCEDEF ? "a force" : "an element";
    case V_GROUND: return "the ground";
    case V_ARRAY: return "an array";
    case V_LAW: return "a law";
    case V_SUB: return "a substructure";
    case V_SUBSET: return "a node set";
    case V_SUBNODE: return "a node";
    case V_CHAIN: return "a chain";
    case V_IFACE: return "an interface";
    case V_MARKER: return "a marker";
    case V_JOINT: return "a joint";
    default: return "an invalid value";
    }
}

/* Does e depend on no state (y, d)? Time and parameters are allowed. */
int sema_is_time_only(sema *S, ex_id e)
{
    static const ex_kind states[] = {EX_Y, EX_D, EX_UP, EX_UV};
    for (int k = 0; k < 4; k++)
        if (ex_depends(S->pool, e, states[k], -1))
            return 0;
    return 1;
}

/* Does e depend on states (y, d) or time? */
int sema_is_dynamic(sema *S, ex_id e)
{
    return ex_depends(S->pool, e, EX_T, 0) || !sema_is_time_only(S, e);
}

/* 1 and the value of e in *x when e depends on no variable, parameter or
 * time (a constant whose fold was kept because it is not finite: log(0),
 * 0/0); else 0. */
int sema_fixed_value(sema *S, ex_id e, double *x)
{
    static const ex_kind vars[] = {EX_T, EX_Y, EX_D, EX_P, EX_UP, EX_UV};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (ex_depends(S->pool, e, vars[i], -1))
            return 0;
    *x = ex_eval(S->pool, e, 0.0, NULL, NULL, NULL);
    return 1;
}

/* ---- helpers ------------------------------------------------------------------ */

/* A dof's dimension: m, or its state's (a rigid body's angle has none). */
static jnt_dim dof_dim(sema *S, int di)
{
    const dof *f = &S->dofs[di];
    return f->body >= 0 ? S->m->y.v[f->y].dim : (jnt_dim){{0, 6, 0, 0, 0}};
}

/* A dof used as a number reads as its position. */
static sval as_num(sema *S, sval v)
{
    if (v.k == V_DOF)
        return sval_num(S->dofs[v.id].pos, dof_dim(S, v.id));
    return v;
}

/* Evaluate to a number; reports an error naming `what` otherwise. */
sval sema_num(sema *S, const scope *sc, const ast *n, const char *what)
{
    sval v = as_num(S, sema_eval(S, sc, n));
    if (v.k == V_ERR || v.k == V_NUM)
        return v;
    diag_error(S->dc, n->loc, "%s must be a number, but this is %s", what, sema_kind_name(S, v));
    return sval_err;
}

/* Evaluate and require a dimension. */
sval sema_num_dim(sema *S, const scope *sc, const ast *n, jnt_dim want, const char *what)
{
    sval v = sema_num(S, sc, n, what);
    if (v.k != V_NUM)
        return v;
    if (!units_equal(v.dim, want) && !v.zero_lit) {
        char a[64], b[64];
        diag_error(S->dc, n->loc, "%s must be in %s, but this is in %s", what, dimstr(want, a),
                   dimstr(v.dim, b));
        return sval_err;
    }
    v.dim = want;
    return v;
}

/* A compile-time integer. */
int sema_int_const(sema *S, const scope *sc, const ast *n, long *out)
{
    sval v = sema_num(S, sc, n, "an index");
    if (v.k != V_NUM)
        return -1;
    double x;
    if (!ex_is_const(S->pool, v.e, &x)) {
        diag_error(S->dc, n->loc, "expected a constant integer (a 'const', not a 'param' or a state)");
        return -1;
    }
    if (!units_is_none(v.dim) || x != floor(x) || fabs(x) > 1e9) {
        diag_error(S->dc, n->loc, "expected a dimensionless integer, got %g", x);
        return -1;
    }
    *out = (long)x;
    return 0;
}

/* Make two operands' dimensions agree (a literal 0 adopts the other's). */
static int same_dim(sema *S, const ast *n, sval *a, sval *b, const char *opname)
{
    if (a->zero_lit)
        a->dim = b->dim;
    else if (b->zero_lit)
        b->dim = a->dim;
    if (units_equal(a->dim, b->dim))
        return 0;
    char x[64], y[64];
    diag_error(S->dc, n->loc, "%s needs operands of the same dimension, but they are %s and %s",
               opname, dimstr(a->dim, x), dimstr(b->dim, y));
    return -1;
}

static int need_none(sema *S, const ast *n, sval v, const char *fn)
{
    if (units_is_none(v.dim) || v.zero_lit)
        return 0;
    char x[64];
    diag_error(S->dc, n->loc, "the argument of '%s' must be dimensionless, but it is in %s", fn,
               dimstr(v.dim, x));
    return -1;
}

/* Raise to a power; the exponent must be a constant when the base has a dimension. */
static sval eval_pow(sema *S, const ast *n, sval a, sval b)
{
    if (!units_is_none(b.dim) && !b.zero_lit) {
        char x[64];
        diag_error(S->dc, n->kids[1]->loc, "an exponent must be dimensionless, but this is in %s",
                   dimstr(b.dim, x));
        return sval_err;
    }
    jnt_dim d = units_none;
    if (!units_is_none(a.dim)) {
        double x;
        if (!ex_is_const(S->pool, b.e, &x)) {
            diag_error(S->dc, n->kids[1]->loc,
                       "the exponent of a quantity with a unit must be a constant");
            return sval_err;
        }
        int num = (int)lround(x * JNT_DIM_DEN);
        if (fabs(x * JNT_DIM_DEN - num) > 1e-9 || units_pow(a.dim, num, JNT_DIM_DEN, &d) != 0) {
            char s[64];
            diag_error(S->dc, n->kids[1]->loc, "cannot raise %s to the power %g", dimstr(a.dim, s), x);
            return sval_err;
        }
    }
    return sval_num(ex_op2(S->pool, EX_POW, a.e, b.e), d);
}

/* ---- built-in functions ---------------------------------------------------- */

typedef struct builtin {
    const char *name;
    int nargs;
    const char *sig;
    ex_kind kind; /* for the plain functions */
} builtin;

static const builtin builtins[] = {
    {"sin", 1, "x", EX_SIN},     {"cos", 1, "x", EX_COS},     {"tan", 1, "x", EX_TAN},
    {"asin", 1, "x", EX_ASIN},   {"acos", 1, "x", EX_ACOS},   {"atan", 1, "x", EX_ATAN},
    {"sinh", 1, "x", EX_SINH},   {"cosh", 1, "x", EX_COSH},   {"tanh", 1, "x", EX_TANH},
    {"exp", 1, "x", EX_EXP},     {"log", 1, "x", EX_LOG},     {"sqrt", 1, "x", EX_SQRT},
    {"abs", 1, "x", EX_ABS},     {"sign", 1, "x", EX_SIGN},   {"floor", 1, "x", EX_FLOOR},
    {"atan2", 2, "y, x", EX_ATAN2}, {"min", 2, "a, b", EX_MIN}, {"max", 2, "a, b", EX_MAX},
    {"pow", 2, "x, y", EX_POW},  {"clamp", 3, "x, lo, hi", EX_NKINDS},
    {"step3", 5, "x, x0, x1, f0, f1", EX_NKINDS},
    {"smoothstep", 3, "x, x0, x1", EX_NKINDS},
    {"half_cosine", 3, "t, t0, T", EX_NKINDS},
};

static const builtin *find_builtin(const char *name)
{
    for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++)
        if (strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}

/* The cubic step of seed 002, Listing A3: f0 below x0, f1 above x1, and
 * f0 + (f1 - f0) xi^2 (3 - 2 xi) with xi = (x - x0)/(x1 - x0) between. */
static ex_id make_step3(ex_pool *P, ex_id x, ex_id x0, ex_id x1, ex_id f0, ex_id f1)
{
    ex_id xi = ex_op2(P, EX_DIV, ex_op2(P, EX_SUB, x, x0), ex_op2(P, EX_SUB, x1, x0));
    ex_id poly = ex_op2(P, EX_MUL, ex_op2(P, EX_MUL, xi, xi),
                        ex_op2(P, EX_SUB, ex_const(P, 3), ex_op2(P, EX_MUL, ex_const(P, 2), xi)));
    ex_id mid = ex_op2(P, EX_ADD, f0, ex_op2(P, EX_MUL, ex_op2(P, EX_SUB, f1, f0), poly));
    return ex_if(P, ex_op2(P, EX_LE, x, x0), f0, ex_if(P, ex_op2(P, EX_GE, x, x1), f1, mid));
}

/* sum / min / max (i in domain, x): x for each index, folded. */
static sval eval_reduce(sema *S, const scope *sc, const ast *n)
{
    ex_kind k = !strcmp(n->name, "sum") ? EX_ADD : !strcmp(n->name, "min") ? EX_MIN
              : !strcmp(n->name, "max") ? EX_MAX : EX_NKINDS;
    if (k == EX_NKINDS) {
        diag_error(S->dc, n->loc, "'%s(i in ..., x)' is not a reduction (there are sum, min, max)",
                   n->name);
        return sval_err;
    }
    long *vals = NULL;
    int cnt = sema_domain_in(S, sc, n->iter, &vals);
    if (cnt <= 0) {
        free(vals);
        return sval_err;
    }
    sval acc = sval_err;
    for (int i = 0; i < cnt; i++) {
        scope frame = {.up = sc, .iname = n->iter->name, .ival = vals[i]};
        sval v = sema_num(S, &frame, n->kids[0], "a term");
        if (v.k == V_ERR) {
            acc = sval_err;
            break;
        }
        if (i == 0) {
            acc = v;
        } else if (!units_equal(acc.dim, v.dim)) {
            char a[64], b[64];
            diag_error(S->dc, n->kids[0]->loc, "the terms of '%s' differ in dimension: %s and %s",
                       n->name, dimstr(acc.dim, a), dimstr(v.dim, b));
            acc = sval_err;
            break;
        } else {
            acc = sval_num(ex_op2(S->pool, k, acc.e, v.e), acc.dim);
        }
    }
    free(vals);
    return acc;
}

static sval eval_call(sema *S, const scope *sc, const ast *n)
{
    if (n->iter)
        return eval_reduce(S, sc, n);
    const builtin *b = find_builtin(n->name);
    if (!b) {
        sym *s = sema_find(S, n->name);
        if (s && s->kind == SYM_LAW) {
            diag_error(S->dc, n->loc, "law '%s' can only be used as 'law = %s(...)' in an element",
                       n->name, n->name);
            return sval_err;
        }
        diag_error(S->dc, n->loc, "unknown function '%s'", n->name);
        return sval_err;
    }
    if (n->nkids != b->nargs) {
        diag_error(S->dc, n->loc, "'%s' takes %d argument%s (%s), got %d", b->name, b->nargs,
                   b->nargs == 1 ? "" : "s", b->sig, n->nkids);
        return sval_err;
    }
    sval a[5];
    for (int i = 0; i < n->nkids; i++) {
        if (n->kids[i]->kind == AST_ARG) {
            diag_error(S->dc, n->kids[i]->loc, "'%s' takes positional arguments (%s)", b->name,
                       b->sig);
            return sval_err;
        }
        a[i] = sema_num(S, sc, n->kids[i], "a function argument");
        if (a[i].k == V_ERR)
            return sval_err;
    }
    ex_pool *P = S->pool;
    ex_kind k = b->kind;
    jnt_dim none = units_none;
    if (k == EX_POW) /* the call's kids are the base and the exponent, as for '^' */
        return eval_pow(S, n, a[0], a[1]);
    if (k == EX_SQRT) {
        jnt_dim d;
        if (units_pow(a[0].dim, 1, 2, &d) != 0) {
            diag_error(S->dc, n->loc, "cannot take the square root of this unit");
            return sval_err;
        }
        return sval_num(ex_op1(P, k, a[0].e), d);
    }
    if (k == EX_ABS || k == EX_FLOOR)
        return sval_num(ex_op1(P, k, a[0].e), a[0].dim);
    if (k == EX_SIGN)
        return sval_num(ex_op1(P, k, a[0].e), none);
    if (b->nargs == 1) {
        if (need_none(S, n->kids[0], a[0], b->name))
            return sval_err;
        return sval_num(ex_op1(P, k, a[0].e), none);
    }
    if (k == EX_MIN || k == EX_MAX || k == EX_ATAN2) {
        if (same_dim(S, n, &a[0], &a[1], b->name))
            return sval_err;
        return sval_num(ex_op2(P, k, a[0].e, a[1].e), k == EX_ATAN2 ? none : a[0].dim);
    }
    if (strcmp(b->name, "clamp") == 0) {
        if (same_dim(S, n, &a[0], &a[1], "clamp") || same_dim(S, n, &a[0], &a[2], "clamp"))
            return sval_err;
        return sval_num(ex_op2(P, EX_MIN, ex_op2(P, EX_MAX, a[0].e, a[1].e), a[2].e), a[0].dim);
    }
    if (same_dim(S, n, &a[0], &a[1], b->name) || same_dim(S, n, &a[0], &a[2], b->name))
        return sval_err;
    if (strcmp(b->name, "step3") == 0) {
        if (same_dim(S, n, &a[3], &a[4], "step3"))
            return sval_err;
        return sval_num(make_step3(P, a[0].e, a[1].e, a[2].e, a[3].e, a[4].e), a[3].dim);
    }
    if (strcmp(b->name, "smoothstep") == 0) {
        /* quintic smoothstep 6 xi^5 - 15 xi^4 + 10 xi^3, 0 below x0, 1 above x1 */
        ex_id xi = ex_op2(P, EX_DIV, ex_op2(P, EX_SUB, a[0].e, a[1].e),
                          ex_op2(P, EX_SUB, a[2].e, a[1].e));
        ex_id inner = ex_op2(P, EX_ADD,
                             ex_op2(P, EX_MUL, xi, ex_op2(P, EX_SUB, ex_op2(P, EX_MUL, ex_const(P, 6), xi),
                                                          ex_const(P, 15))),
                             ex_const(P, 10));
        ex_id poly = ex_op2(P, EX_MUL, ex_op2(P, EX_POW, xi, ex_const(P, 3)), inner);
        ex_id e = ex_if(P, ex_op2(P, EX_LE, a[0].e, a[1].e), ex_const(P, 0),
                        ex_if(P, ex_op2(P, EX_GE, a[0].e, a[2].e), ex_const(P, 1), poly));
        return sval_num(e, none);
    }
    /* half_cosine(t, t0, T): 0.5 (1 - cos(2 pi (t - t0)/T)) on [t0, t0 + T], else 0 */
    ex_id ph = ex_op2(P, EX_DIV, ex_op2(P, EX_SUB, a[0].e, a[1].e), a[2].e);
    ex_id pulse = ex_op2(P, EX_MUL, ex_const(P, 0.5),
                         ex_op2(P, EX_SUB, ex_const(P, 1),
                                ex_op1(P, EX_COS, ex_op2(P, EX_MUL, ex_const(P, 2 * JNT_PI), ph))));
    ex_id inside = ex_op2(P, EX_AND, ex_op2(P, EX_GE, ph, ex_const(P, 0)),
                          ex_op2(P, EX_LE, ph, ex_const(P, 1)));
    return sval_num(ex_if(P, inside, pulse, ex_const(P, 0)), none);
}

/* ---- names and members --------------------------------------------------------- */

static sval eval_name(sema *S, const scope *sc, const ast *n)
{
    for (const scope *f = sc; f; f = f->up) {
        sval v;
        if (f->iname) {
            if (strcmp(f->iname, n->name) == 0)
                return sval_num(ex_const(S->pool, (double)f->ival), units_none);
        } else if (f->lookup && f->lookup(S, f, n->name, n->loc, &v)) {
            return v;
        }
    }
    char hint[128];
    sema_suggest(S, sc, n->name, hint, sizeof hint);
    diag_error(S->dc, n->loc, "unknown name '%s'%s", n->name, hint);
    return sval_err;
}

static sval dof_member(sema *S, int di, const ast *n)
{
    dof *d = &S->dofs[di];
    if (strcmp(n->name, "v") == 0)
        return sval_num(d->vel, units_div(dof_dim(S, di), (jnt_dim){{0, 0, 6, 0, 0}}));
    sval pa;
    if (strcmp(n->name, "a") == 0 && d->sub >= 0 && S->m->nifaces > 0 && S->in_output &&
        sema_kinds_point_accel(S, di, &pa) == 0)
        return pa;
    if (strcmp(n->name, "a") == 0 && d->body < 0) {
        diag_error(S->dc, n->loc, "the acceleration of a %s is not available%s",
                   d->point ? "point" : "substructure point",
                   d->point ? "" : " (except in the outputs of a model with sliding interfaces)");
        return sval_err;
    }
    if (strcmp(n->name, "a") == 0) {
        sval v;
        if (sema_dof_accel(S, di, n->loc, &v) != 0)
            return sval_err;
        return v;
    }
    diag_error(S->dc, n->loc, "'%s' has no member '%s' (a degree of freedom has 'v' and 'a')",
               d->name, n->name);
    return sval_err;
}

static sval eval_member(sema *S, const scope *sc, const ast *n)
{
    sval base = sema_eval(S, sc, n->kids[0]);
    switch (base.k) {
    case V_ERR:
        return base;
    case V_DOF:
        return dof_member(S, base.id, n);
    case V_BODY: {
        body *b = &S->bodies[base.id];
        for (int i = 0; i < b->ndof; i++)
            if (strcmp(S->dofs[b->dof0 + i].short_name, n->name) == 0)
                return (sval){V_DOF, -1, units_none, b->dof0 + i, 0, 0};
        for (int i = 0; i < S->nmarker; i++)
            if (S->markers[i].body == base.id && !strcmp(S->markers[i].short_name, n->name))
                return (sval){V_MARKER, -1, units_none, i, 0, 0};
        sval w;
        int r3 = b->kind && b->kind->member ? b->kind->member(S, base, n->name, n->loc, &w) : 1;
        if (r3 == 0)
            return w;
        if (r3 < 0) /* the body's declaration failed and said why: not again at each use */
            return sval_err;
        /* a body with one degree of freedom: body.v, body.a */
        if (b->ndof == 1 && (strcmp(n->name, "v") == 0 || strcmp(n->name, "a") == 0))
            return dof_member(S, b->dof0, n);
        const char *cands[64];
        int nc = 0;
        for (int i = 0; i < b->ndof && nc < 64; i++)
            cands[nc++] = S->dofs[b->dof0 + i].short_name;
        for (int i = 0; i < S->nmarker && nc < 64; i++)
            if (S->markers[i].body == base.id)
                cands[nc++] = S->markers[i].short_name;
        const char *best = jnt_closest_name(n->name, cands, nc);
        diag_error(S->dc, n->loc, "body '%s' has no %s '%s'%s%s%s", b->name,
                   b->rigid || b->rigid3 ? "coordinate or marker" : "degree of freedom", n->name,
                   best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        return sval_err;
    }
    case V_ELEM: {
        sval v;
        if (sema_elem_member(S, base.id, n->name, n->loc, &v) != 0)
            return sval_err;
        return v;
    }
    case V_MARKER: {
        sval v;
        return sema_marker_member(S, base.id, n->name, n->loc, &v) == 0 ? v : sval_err;
    }
    case V_JOINT: {
        sval v;
        return sema_joint_member(S, base.id, n->name, n->loc, &v) == 0 ? v : sval_err;
    }
    default: {
        sval v; /* a kind's value (kind.h) */
        return sema_kind_member(S, base, n->name, n->loc, &v) == 0 ? v : sval_err;
    }
    }
}

static sval eval_index(sema *S, const scope *sc, const ast *n)
{
    sval base = sema_eval(S, sc, n->kids[0]);
    if (base.k == V_ERR)
        return base;
    if (sema_kind_of_value(S, base.k)) { /* a kind's value (kind.h) */
        long i;
        sval v;
        if (sema_int_const(S, sc, n->kids[1], &i) != 0 ||
            sema_kind_index(S, base, i, n->kids[1]->loc, n->loc, &v) != 0)
            return sval_err;
        return v;
    }
    if (base.k != V_ARRAY) {
        diag_error(S->dc, n->loc, "only arrays can be indexed, but this is %s",
                   sema_kind_name(S, base));
        return sval_err;
    }
    long i;
    if (sema_int_const(S, sc, n->kids[1], &i) != 0)
        return sval_err;
    sym *s = &S->syms[base.id];
    /* an array over a range holds index idx[0] + k at k: there first, so
     * that n lookups cost n, not n^2 (a set, {1, 10, 15}: scanned) */
    long k0 = s->ninst > 0 ? i - s->idx[0] : -1;
    int guess = k0 >= 0 && k0 < s->ninst && s->idx[k0] == i;
    for (int k = guess ? (int)k0 : 0; k < s->ninst; k++) {
        if (s->idx[k] != i)
            continue;
        if (s->kind == SYM_BODY)
            return (sval){V_BODY, -1, units_none, s->inst[k], 0, 0};
        if (s->kind == SYM_POINT)
            return s->inst[k] >= 0 ? (sval){V_DOF, -1, units_none, s->inst[k], 0, 0} : sval_err;
        elem *el = &S->elems[s->inst[k]];
        if (el->kind >= ELEM_FORCEDEF) {
            sema_eval_elem(S, s->inst[k]);
            return el->force;
        }
        return (sval){V_ELEM, -1, units_none, s->inst[k], 0, 0};
    }
    diag_error(S->dc, n->kids[1]->loc, "index %ld is not an index of '%s'", i, s->name);
    return sval_err;
}

/* ---- operators ---------------------------------------------------------------- */

static sval eval_binary(sema *S, const scope *sc, const ast *n)
{
    sval a = sema_num(S, sc, n->kids[0], "an operand");
    sval b = sema_num(S, sc, n->kids[1], "an operand");
    if (a.k == V_ERR || b.k == V_ERR)
        return sval_err;
    ex_pool *P = S->pool;
    jnt_dim none = units_none;
    switch (n->op) {
    case OP_ADD:
    case OP_SUB:
        if (same_dim(S, n, &a, &b, n->op == OP_ADD ? "'+'" : "'-'"))
            return sval_err;
        return sval_num(ex_op2(P, n->op == OP_ADD ? EX_ADD : EX_SUB, a.e, b.e), a.dim);
    case OP_MUL:
        return sval_num(ex_op2(P, EX_MUL, a.e, b.e), units_mul(a.dim, b.dim));
    case OP_DIV:
        return sval_num(ex_op2(P, EX_DIV, a.e, b.e), units_div(a.dim, b.dim));
    case OP_POW:
        return eval_pow(S, n, a, b);
    case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE: {
        if (same_dim(S, n, &a, &b, "a comparison"))
            return sval_err;
        ex_kind k = n->op == OP_LT ? EX_LT : n->op == OP_GT ? EX_GT : n->op == OP_LE ? EX_LE
                  : n->op == OP_GE ? EX_GE : n->op == OP_EQ ? EX_EQ : EX_NE;
        return sval_num(ex_op2(P, k, a.e, b.e), none);
    }
    case OP_AND:
    case OP_OR:
        if (need_none(S, n->kids[0], a, n->op == OP_AND ? "and" : "or") ||
            need_none(S, n->kids[1], b, n->op == OP_AND ? "and" : "or"))
            return sval_err;
        return sval_num(ex_op2(P, n->op == OP_AND ? EX_AND : EX_OR, a.e, b.e), none);
    default:
        diag_error(S->dc, n->loc, "unsupported operator");
        return sval_err;
    }
}

/* Evaluate an expression node (sema_eval without the depth count). */
static sval eval_node(sema *S, const scope *sc, const ast *n)
{
    ex_set_loc(S->pool, n->loc);
    switch (n->kind) {
    case AST_NUM:
        return sema_numlit(S, n);
    case AST_NAME:
        return eval_name(S, sc, n);
    case AST_MEMBER:
        return eval_member(S, sc, n);
    case AST_INDEX:
        return eval_index(S, sc, n);
    case AST_CALL:
        return eval_call(S, sc, n);
    case AST_BINARY:
        return eval_binary(S, sc, n);
    case AST_UNARY: {
        sval a = sema_num(S, sc, n->kids[0], "an operand");
        if (a.k == V_ERR || n->op == '+')
            return a;
        if (n->op == OP_NOT) {
            if (need_none(S, n->kids[0], a, "not"))
                return sval_err;
            return sval_num(ex_op1(S->pool, EX_NOT, a.e), units_none);
        }
        sval r = sval_num(ex_op1(S->pool, EX_NEG, a.e), a.dim);
        r.zero_lit = a.zero_lit;
        return r;
    }
    case AST_IF: {
        sval c = sema_num(S, sc, n->kids[0], "a condition");
        sval a = sema_num(S, sc, n->kids[1], "a branch");
        sval b = sema_num(S, sc, n->kids[2], "a branch");
        if (c.k == V_ERR || a.k == V_ERR || b.k == V_ERR)
            return sval_err;
        if (need_none(S, n->kids[0], c, "if") || same_dim(S, n, &a, &b, "'if' (its branches)"))
            return sval_err;
        return sval_num(ex_if(S->pool, c.e, a.e, b.e), a.dim);
    }
    case AST_DER:
        for (const scope *f = sc; f; f = f->up) {
            sval v;
            if (f->der)
                return f->der(S, f, n, &v) == 0 ? v : sval_err;
        }
        diag_error(S->dc, n->loc, "der() can only be used inside a law, on one of its states");
        return sval_err;
    case AST_STRING:
        diag_error(S->dc, n->loc, "a string is not a value here");
        return sval_err;
    default:
        diag_error(S->dc, n->loc, "expected an expression");
        return sval_err;
    }
}

/* Evaluate an expression in a scope. Recursion (operands, arguments, the
 * 'let's it names) is counted: past SEMA_MAX_DEPTH levels one located error,
 * then V_ERR, so no chain can overflow the stack. */
sval sema_eval(sema *S, const scope *sc, const ast *n)
{
    if (S->eval_depth >= SEMA_MAX_DEPTH) {
        if (!S->depth_said)
            diag_error(S->dc, n->loc, "expression nested too deeply: more than %d levels of "
                       "operators, calls or 'let's naming 'let's (split a long sum into "
                       "partial sums)", SEMA_MAX_DEPTH);
        S->depth_said = 1;
        return sval_err;
    }
    S->eval_depth++;
    sval v = eval_node(S, sc, n);
    S->eval_depth--;
    return v;
}
