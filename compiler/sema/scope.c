/*
 * scope.c: names. The symbol table (one entry per declaration of the
 * model and its imports, open addressing), the lazy evaluation of consts,
 * params, lets and integrals, name lookup in the global scope and in the
 * constants-only scope that laws and compile-time arguments see, "did you
 * mean" suggestions, and the index domains of array declarations.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sema.h"
#include "passes.h"
#include "front/alloc.h"

static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};

/* ---- symbols ------------------------------------------------------------------------ */

static unsigned hash_str(const char *s)
{
    unsigned h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

/* The symbol called name, or NULL. */
sym *sema_find(sema *S, const char *name)
{
    if (!S->hcap)
        return NULL;
    for (unsigned i = hash_str(name) & (unsigned)(S->hcap - 1);; i = (i + 1) & (unsigned)(S->hcap - 1)) {
        int k = S->hash[i];
        if (k < 0)
            return NULL;
        if (strcmp(S->syms[k].name, name) == 0)
            return &S->syms[k];
    }
}

static void rehash(sema *S)
{
    free(S->hash);
    S->hcap = S->hcap ? 2 * S->hcap : 64;
    S->hash = xmalloc((size_t)S->hcap * sizeof *S->hash);
    for (int i = 0; i < S->hcap; i++)
        S->hash[i] = -1;
    for (int k = 0; k < S->nsym; k++) {
        unsigned i = hash_str(S->syms[k].name) & (unsigned)(S->hcap - 1);
        while (S->hash[i] >= 0)
            i = (i + 1) & (unsigned)(S->hcap - 1);
        S->hash[i] = k;
    }
}

static const char *const reserved[] = {"t", "pi", "ground"};

/* See passes.h. */
sym *sema_declare(sema *S, enum sym_kind kind, const ast *decl)
{
    const char *name = decl->name;
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (strcmp(name, reserved[i]) == 0 && !(kind == SYM_GROUND && i == 2)) {
            diag_error(S->dc, decl->aux.file >= 0 ? decl->aux : decl->loc,
                       "'%s' is a built-in name and cannot be redefined", name);
            return NULL;
        }
    sym *old = sema_find(S, name);
    if (old) {
        diag_error(S->dc, decl->aux.file >= 0 ? decl->aux : decl->loc, "redefinition of '%s'", name);
        diag_note(S->dc, old->decl->aux.file >= 0 ? old->decl->aux : old->decl->loc,
                  "'%s' was first defined here", name);
        return NULL;
    }
    XGROW(S->syms, S->capsym, S->nsym);
    sym *s = &S->syms[S->nsym++];
    *s = (sym){.kind = kind, .name = name, .decl = decl, .pidx = -1};
    if (2 * S->nsym > S->hcap)
        rehash(S);
    else {
        unsigned i = hash_str(name) & (unsigned)(S->hcap - 1);
        while (S->hash[i] >= 0)
            i = (i + 1) & (unsigned)(S->hcap - 1);
        S->hash[i] = S->nsym - 1;
    }
    return s;
}

/* See passes.h: what a value that is not finite is, for a message. */
const char *sema_nonfinite_why(double x)
{
    if (isnan(x))
        return "nan, not a number (such as sqrt(-1), 0/0 or inf - inf)";
    return x > 0 ? "+inf (it overflows the largest double, 1.8e308, or divides by zero)"
                 : "-inf (it overflows the largest double, -1.8e308, or is a pole such as log(0))";
}

/* See passes.h: the parameters' default values, in declaration order (each uses only
 * earlier ones); a value that is not finite is an error at its parameter, unless it comes
 * from an earlier parameter that is not finite either (reported there). */
void sema_check_params(sema *S)
{
    const ir_vars *p = &S->m->p;
    if (p->n == 0)
        return;
    double *val = xmalloc((size_t)p->n * sizeof *val);
    unsigned char *bad = xcalloc((size_t)p->n, 1);
    for (int j = 0; j < p->n; j++) {
        val[j] = p->v[j].rhs >= 0 ? ex_eval(S->pool, p->v[j].rhs, 0.0, NULL, NULL, val) : 0.0;
        if (isfinite(val[j]))
            continue;
        bad[j] = 1;
        int inherited = 0;
        for (int k = 0; k < j && !inherited; k++)
            inherited = bad[k] && ex_depends(S->pool, p->v[j].rhs, EX_P, k);
        const sym *s = sema_find(S, p->v[j].name);
        jnt_loc at = s && s->kind == SYM_PARAM && s->pidx == j ? s->decl->kids[0]->loc
                                                                : p->v[j].loc;
        if (!inherited)
            diag_error(S->dc, at, "param '%s' is not finite: its value evaluates to %s",
                       p->v[j].name, sema_nonfinite_why(val[j]));
    }
    free(val);
    free(bad);
}

/* See passes.h: a constant, parameter, let or integral, lazily, once. */
void sema_eval_sym(sema *S, sym *s, jnt_loc use)
{
    if (s->done)
        return;
    if (s->busy) {
        diag_error(S->dc, use, "'%s' is defined in terms of itself", s->name);
        s->val = sval_err;
        return;
    }
    s->busy = 1;
    const ast *e = s->decl->kids[0];
    if (s->kind == SYM_CONST) {
        sval v = sema_num(S, &S->global, e, "a constant");
        double x;
        if (v.k == V_NUM && !ex_is_const(S->pool, v.e, &x) && sema_fixed_value(S, v.e, &x)) {
            /* the folder keeps what is not finite unfolded: log(0), 1e308 * 10, 0/0 */
            diag_error(S->dc, e->loc, "const '%s' is not finite: it evaluates to %s",
                       s->name, sema_nonfinite_why(x));
            v = sval_err;
        } else if (v.k == V_NUM && !ex_is_const(S->pool, v.e, &x)) {
            diag_error(S->dc, e->loc, "const '%s' must be a compile-time constant "
                                      "(use 'param' for values that may change at run time)", s->name);
            v = sval_err;
        }
        s->val = v;
    } else if (s->kind == SYM_PARAM) {
        sval v = sema_num(S, &S->global, e, "a parameter");
        if (v.k == V_NUM && sema_is_dynamic(S, v.e)) {
            diag_error(S->dc, e->loc, "the value of param '%s' may use constants and earlier "
                                      "parameters only, not time or states", s->name);
            v = sval_err;
        }
        for (int j = s->pidx; v.k == V_NUM && j < S->m->p.n; j++)
            if (ex_depends(S->pool, v.e, EX_P, j)) {
                diag_error(S->dc, e->loc, "param '%s' may only use parameters declared before it "
                                          "('%s' is not)", s->name, S->m->p.v[j].name);
                v = sval_err;
            }
        ir_var *p = &S->m->p.v[s->pidx];
        p->rhs = v.k == V_NUM ? v.e : ex_const(S->pool, 0);
        p->dim = v.dim;
        s->val = v.k == V_NUM ? sval_num(ex_var(S->pool, EX_P, s->pidx), v.dim) : v;
    } else if (s->kind == SYM_INTEGRAL) {
        /* integral W = f: W' = f, W(t0) = 0; W is in the unit of f times s */
        sval f = sema_num(S, &S->global, e, "an integrand");
        ir_var *y = &S->m->y.v[s->pidx];
        y->rhs = f.k == V_NUM ? f.e : ex_const(S->pool, 0);
        y->dim = units_mul(f.dim, DIM_S);
        s->val = f.k == V_NUM ? sval_num(ex_var(S->pool, EX_Y, s->pidx), y->dim) : f;
    } else {
        s->val = sema_num(S, &S->global, e, "a 'let'");
    }
    s->busy = 0;
    s->done = 1;
}

/* ---- name lookup ---------------------------------------------------------------------- */

static int builtin_name(sema *S, const char *name, sval *out)
{
    if (strcmp(name, "t") == 0) {
        *out = sval_num(ex_var(S->pool, EX_T, 0), DIM_S);
        return 1;
    }
    if (strcmp(name, "pi") == 0) {
        *out = sval_num(ex_const(S->pool, JNT_PI), units_none);
        return 1;
    }
    if (strcmp(name, "ground") == 0) {
        *out = (sval){V_GROUND, -1, units_none, -1, 0, 0};
        return 1;
    }
    return 0;
}

static int global_lookup(sema *S, const scope *sc, const char *name, jnt_loc loc, sval *out)
{
    (void)sc;
    sym *s = sema_find(S, name);
    if (!s)
        return builtin_name(S, name, out);
    int si = (int)(s - S->syms);
    switch (s->kind) {
    case SYM_CONST:
    case SYM_PARAM:
    case SYM_LET:
    case SYM_INTEGRAL:
        sema_eval_sym(S, s, loc);
        *out = s->val;
        return 1;
    case SYM_GROUND:
        *out = (sval){V_GROUND, -1, units_none, -1, 0, 0};
        return 1;
    case SYM_LAW:
        *out = (sval){V_LAW, -1, units_none, si, 0, 0};
        return 1;
    case SYM_SUB:
        *out = (sval){V_SUB, -1, units_none, s->inst[0], 0, 0};
        return 1;
    case SYM_CHAIN:
        *out = s->ninst == 1 ? (sval){V_CHAIN, -1, units_none, s->inst[0], 0, 0} : sval_err;
        return 1;
    case SYM_IFACE:
        *out = s->ninst == 1 ? (sval){V_IFACE, -1, units_none, s->inst[0], 0, 0} : sval_err;
        return 1;
    case SYM_JOINT:
        *out = s->ninst == 1 ? (sval){V_JOINT, -1, units_none, s->inst[0], 0, 0} : sval_err;
        return 1;
    case SYM_POINT:
        if (!s->done) {
            diag_error(S->dc, loc, "point '%s' is used before its declaration", name);
            *out = sval_err;
        } else if (s->decl->iter) {
            *out = (sval){V_ARRAY, -1, units_none, si, 0, 0};
        } else {
            *out = s->inst[0] >= 0 ? (sval){V_DOF, -1, units_none, s->inst[0], 0, 0} : sval_err;
        }
        return 1;
    case SYM_BODY:
    case SYM_ELEM:
        if (s->decl->iter) {
            *out = (sval){V_ARRAY, -1, units_none, si, 0, 0};
        } else if (s->ninst != 1) {
            *out = sval_err; /* its declaration failed */
        } else if (s->kind == SYM_BODY) {
            *out = (sval){V_BODY, -1, units_none, s->inst[0], 0, 0};
        } else if (S->elems[s->inst[0]].kind >= ELEM_FORCEDEF) {
            sema_eval_elem(S, s->inst[0]);
            *out = S->elems[s->inst[0]].force;
        } else {
            *out = (sval){V_ELEM, -1, units_none, s->inst[0], 0, 0};
        }
        return 1;
    }
    return 0;
}

/* Laws see constants and the built-in names only. */
static int const_lookup(sema *S, const scope *sc, const char *name, jnt_loc loc, sval *out)
{
    sym *s = sema_find(S, name);
    if (s && s->kind == SYM_CONST)
        return global_lookup(S, sc, name, loc, out);
    if (s) { /* a model name where only constants are visible */
        diag_error(S->dc, loc, "'%s' is not a constant: only consts, t and pi can be used here "
                               "(in a law, or as a compile-time argument)", name);
        *out = sval_err;
        return 1;
    }
    return strcmp(name, "ground") != 0 && builtin_name(S, name, out);
}

static void global_names(sema *S, const scope *sc, const char ***list, int *n, int *cap)
{
    for (int i = 0; i < S->nsym; i++)
        if (sc->lookup == global_lookup || S->syms[i].kind == SYM_CONST) {
            XGROW(*list, *cap, *n);
            (*list)[(*n)++] = S->syms[i].name;
        }
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) {
        XGROW(*list, *cap, *n);
        (*list)[(*n)++] = reserved[i];
    }
}

/* See passes.h. */
void sema_scope_init(sema *S)
{
    S->global = (scope){.lookup = global_lookup, .names = global_names};
    S->consts = (scope){.lookup = const_lookup, .names = global_names};
    rehash(S);
}

/* "; did you mean 'X'?" for an unknown name, or "". */
/* The standard-library file (its import name, into lib) that declares a law
 * called `name`: 1 when one does. Reads the stdlib files for "law KIND NAME(". */
static int stdlib_law(const char *name, char *lib, size_t n)
{
    static const char *const files[] = {"friction", "contact", "hysteresis"};
    size_t ln = strlen(name);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *path = xasprintf("%s/%s.jnt", sema_stdlib_dir(), files[i]);
        FILE *f = fopen(path, "r");
        free(path);
        if (!f)
            continue;
        char line[512];
        int found = 0;
        while (!found && fgets(line, sizeof line, f)) {
            char *p = line;
            if (strncmp(p, "law ", 4) != 0)
                continue;
            p += 4;
            p += strcspn(p, " "); /* the law's kind */
            p += strspn(p, " ");
            found = strncmp(p, name, ln) == 0 && (p[ln] == '(' || p[ln] == ' ');
        }
        fclose(f);
        if (found) {
            snprintf(lib, n, "%s", files[i]);
            return 1;
        }
    }
    return 0;
}

void sema_suggest(sema *S, const scope *sc, const char *name, char *buf, size_t n)
{
    /* past the printed errors no hint is read: each costs a pass over every name, and a
     * model of N unknown names would take N^2 (20,000: two minutes) */
    buf[0] = 0;
    if (S->dc->max_errors > 0 && S->dc->nerr >= S->dc->max_errors)
        return;
    /* a law of the standard library that the model does not import */
    char lib[32];
    if (stdlib_law(name, lib, sizeof lib)) {
        snprintf(buf, n, "; it is in the standard library: add 'import %s'", lib);
        return;
    }
    const char **list = NULL;
    int cnt = 0, cap = 0;
    for (const scope *f = sc; f; f = f->up) {
        if (f->iname) {
            XGROW(list, cap, cnt);
            list[cnt++] = f->iname;
        } else if (f->names) {
            f->names(S, f, &list, &cnt, &cap);
        }
    }
    const char *best = jnt_closest_name(name, list, cnt);
    if (best)
        snprintf(buf, n, "; did you mean '%s'?", best);
    else
        buf[0] = 0;
    free(list);
}

/* ---- index domains ----------------------------------------------------------------- */

/* The values of an index domain: their count, or -1 on error. */
int sema_domain(sema *S, const ast *iter, long **vals)
{
    return sema_domain_in(S, &S->global, iter, vals);
}

/* See sema.h. */
long sema_limit(const char *env, long fallback)
{
    const char *v = getenv(env);
    char *end;
    long n = v ? strtol(v, &end, 10) : 0;
    return v && end != v && *end == 0 && n > 0 ? n : fallback;
}

/* The same, with the bounds evaluated in scope sc. */
int sema_domain_in(sema *S, const scope *sc, const ast *iter, long **vals)
{
    const ast *dom = iter->kids[0];
    long *v = NULL;
    int n = 0, cap = 0;
    if (dom->kind == AST_RANGE) {
        long lo, hi;
        if (sema_int_const(S, sc, dom->kids[0], &lo) ||
            sema_int_const(S, sc, dom->kids[1], &hi))
            return -1;
        long max = sema_limit("JNT_MAX_ARRAY", 1000000);
        if (hi < lo) {
            diag_error(S->dc, dom->loc, "empty index range %ld..%ld", lo, hi);
            return -1;
        }
        if ((double)hi - (double)lo >= (double)max) { /* in double: no overflow */
            diag_error(S->dc, dom->loc, "index range %ld..%ld has %.17g indices, more than the "
                       "limit of %ld (set JNT_MAX_ARRAY to raise it)", lo, hi,
                       (double)hi - (double)lo + 1, max);
            return -1;
        }
        for (long i = lo; i <= hi; i++) {
            XGROW(v, cap, n);
            v[n++] = i;
        }
    } else {
        for (int k = 0; k < dom->nkids; k++) {
            long x;
            if (sema_int_const(S, sc, dom->kids[k], &x)) {
                free(v);
                return -1;
            }
            for (int j = 0; j < n; j++)
                if (v[j] == x) {
                    diag_error(S->dc, dom->kids[k]->loc, "index %ld appears twice in the set", x);
                    free(v);
                    return -1;
                }
            XGROW(v, cap, n);
            v[n++] = x;
        }
    }
    *vals = v;
    return n;
}

/* Size a declaration's instance table: one instance per index of an array
 * declaration, or one. Returns the count (0 on error); *vals = the indices. */
int sema_instances(sema *S, sym *s, long **vals)
{
    const ast *d = s->decl;
    *vals = NULL;
    int n = d->iter ? sema_domain(S, d->iter, vals) : 1;
    if (n < 0)
        return 0;
    s->inst = xcalloc((size_t)n, sizeof *s->inst);
    s->idx = *vals;
    s->ninst = n;
    return n;
}
