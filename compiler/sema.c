/*
 * sema.c: semantic analysis. Registers the declarations of the model and its
 * imports, expands arrays, evaluates parameters, bodies, elements and laws,
 * assembles the equations of motion and lowers everything to the flat IR.
 *
 * Passes: (1) register names, following imports; (2) create array instances
 * and degrees of freedom; (3) evaluate elements lazily (they may refer to
 * each other) and assemble m a = sum of forces per dof; (4) initial values,
 * simulate settings and outputs. Errors are reported and counted; evaluation
 * goes on with V_ERR values so that one run reports every independent error.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "sema.h"
#include "sema_int.h"
#include "util.h"

static const jnt_dim DIM_KG = {{6, 0, 0, 0, 0}};
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

static sym *declare(sema *S, enum sym_kind kind, const ast *decl)
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

/* Evaluate a constant, parameter or let (lazily, once). */
static void eval_sym(sema *S, sym *s, jnt_loc use)
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
        if (v.k == V_NUM && !ex_is_const(S->pool, v.e, &x)) {
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
        eval_sym(S, s, loc);
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

/* "; did you mean 'X'?" for an unknown name, or "". */
void sema_suggest(sema *S, const scope *sc, const char *name, char *buf, size_t n)
{
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
    const char *best = diag_closest(name, list, cnt);
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
        if (hi < lo || hi - lo > 10000000) {
            diag_error(S->dc, dom->loc, "empty or too large index range %ld..%ld", lo, hi);
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

/* ---- files and imports ------------------------------------------------------------- */

/* Directory of the standard library. */
const char *sema_stdlib_dir(void)
{
    const char *env = getenv("JNT_STDLIB");
    return env && *env ? env : JNT_SOURCE_DIR "/stdlib";
}

static int in_list(char **list, int n, const char *path)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], path) == 0)
            return i;
    return -1;
}

static void register_decls(sema *S, const ast *model, int file);

static void push_file(sema *S, const char *real, int file)
{
    int cap = S->capstack;
    XGROW(S->stack, S->capstack, S->nstack);
    if (cap != S->capstack)
        S->stack_file = xrealloc(S->stack_file, (size_t)S->capstack * sizeof *S->stack_file);
    S->stack_file[S->nstack] = file;
    S->stack[S->nstack++] = xstrdup(real);
}

static void do_import(sema *S, const ast *imp, int from_file)
{
    char *path;
    if (imp->str) {
        char *dir = xstrdup(S->dc->srcs[from_file].path);
        path = imp->str[0] == '/' ? xstrdup(imp->str) : xasprintf("%s/%s", dirname(dir), imp->str);
        free(dir);
    } else {
        path = xasprintf("%s/%s.jnt", sema_stdlib_dir(), imp->name);
    }
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        if (imp->str)
            diag_error(S->dc, imp->loc, "cannot open imported file '%s'", path);
        else
            diag_error(S->dc, imp->loc, "unknown module '%s' (no %s)", imp->name, path);
        free(path);
        return;
    }
    int k = in_list(S->stack, S->nstack, real);
    if (k >= 0) {
        char chain[1024] = "";
        for (int i = k; i < S->nstack; i++)
            snprintf(chain + strlen(chain), sizeof chain - strlen(chain), "%s -> ",
                     S->dc->srcs[S->stack_file[i]].path);
        diag_error(S->dc, imp->loc, "import cycle: %s%s", chain, S->dc->srcs[S->stack_file[k]].path);
        free(path);
        return;
    }
    if (in_list(S->imported, S->nimported, real) >= 0) {
        free(path);
        return;
    }
    int f = diag_load_file(S->dc, path);
    if (f < 0) {
        diag_error(S->dc, imp->loc, "cannot read '%s'", path);
        free(path);
        return;
    }
    free(path);
    if (!imp->str) { /* messages name stdlib files independently of where it lives */
        free(S->dc->srcs[f].path);
        S->dc->srcs[f].path = xasprintf("<stdlib>/%s.jnt", imp->name);
    }
    XGROW(S->imported, S->capimported, S->nimported);
    S->imported[S->nimported++] = xstrdup(real);
    const ast *m = parse_source(S->dc, S->arena, f);
    if (m) {
        push_file(S, real, f);
        register_decls(S, m, f);
        free(S->stack[--S->nstack]);
    }
}

/* Pass 1: names of every declaration, following imports. */
static void register_decls(sema *S, const ast *model, int file)
{
    for (int i = 0; i < model->nkids; i++) {
        const ast *d = model->kids[i];
        sym *s;
        switch (d->kind) {
        case AST_IMPORT: do_import(S, d, file); break;
        case AST_CONST: declare(S, SYM_CONST, d); break;
        case AST_LET: declare(S, SYM_LET, d); break;
        case AST_INTEGRAL:
            if ((s = declare(S, SYM_INTEGRAL, d)))
                s->pidx = ir_add(&S->m->y, xstrdup(d->name), -1, ex_const(S->pool, 0),
                                 units_none, d->loc);
            break;
        case AST_GROUND: declare(S, SYM_GROUND, d); break;
        case AST_LAW: declare(S, SYM_LAW, d); break;
        case AST_BODY: declare(S, SYM_BODY, d); break;
        case AST_ELEMENT:
        case AST_FORCE:
        case AST_MOTION: declare(S, SYM_ELEM, d); break;
        case AST_SUBSTRUCTURE:
            declare(S, strcmp(d->str, "iwan_chain") ? SYM_SUB : SYM_CHAIN, d);
            break;
        case AST_POINT: declare(S, SYM_POINT, d); break;
        case AST_INTERFACE: declare(S, SYM_IFACE, d); break;
        case AST_PARAM:
            if ((s = declare(S, SYM_PARAM, d)))
                s->pidx = ir_add(&S->m->p, xstrdup(d->name), -1, -1, units_none, d->loc);
            break;
        default: break;
        }
    }
}

/* ---- bodies ------------------------------------------------------------------------ */

static void declare_body(sema *S, sym *s)
{
    const ast *d = s->decl;
    if (strcmp(d->str, "point") != 0) {
        diag_error(S->dc, d->loc, "unknown body type '%s' (this version has 'point')", d->str);
        return;
    }
    long *vals;
    int n = sema_instances(S, s, &vals);
    for (int k = 0; k < n; k++) {
        XGROW(S->bodies, S->capbody, S->nbody);
        body *b = &S->bodies[S->nbody];
        *b = (body){.decl = d, .dof0 = S->ndof, .mass = sval_err};
        b->name = d->iter ? xasprintf("%s[%ld]", d->name, vals[k]) : xstrdup(d->name);
        b->iname = d->iter ? d->iter->name : NULL;
        b->ival = d->iter ? vals[k] : 0;
        for (int j = 0; j < d->nkids; j++) {
            const ast *q = d->kids[j];
            if (q->kind != AST_DOF)
                continue;
            for (int i = b->dof0; i < S->ndof; i++)
                if (strcmp(S->dofs[i].short_name, q->name) == 0) {
                    diag_error(S->dc, q->loc, "degree of freedom '%s' is declared twice", q->name);
                    goto next;
                }
            XGROW(S->dofs, S->capdof, S->ndof);
            dof *f = &S->dofs[S->ndof++];
            *f = (dof){.name = xasprintf("%s.%s", b->name, q->name), .short_name = q->name,
                       .body = S->nbody, .sub = -1, .g = -1, .force = ex_const(S->pool, 0),
                       .acc = -1, .motion = -1};
            f->y = ir_add(&S->m->y, xstrdup(f->name), -1, ex_const(S->pool, 0),
                          (jnt_dim){{0, 6, 0, 0, 0}}, q->loc);
            f->pos = ex_var(S->pool, EX_Y, f->y);
            f->vel = ex_var(S->pool, EX_Y, f->y + 1);
            f->sub = -1;
            ir_add(&S->m->y, xasprintf("%s.v", f->name), -1, ex_const(S->pool, 0),
                   (jnt_dim){{0, 6, -6, 0, 0}}, q->loc);
        next:;
        }
        b->ndof = S->ndof - b->dof0;
        if (b->ndof == 0)
            diag_error(S->dc, d->loc, "body '%s' has no degrees of freedom (add 'dof x')", b->name);
        s->inst[k] = S->nbody++;
    }
}

static void eval_body_mass(sema *S, body *b)
{
    const ast *d = b->decl;
    const ast *m = NULL;
    int pos = 0;
    for (int j = 0; j < d->nkids; j++) {
        const ast *a = d->kids[j];
        if (a->kind == AST_DOF)
            continue;
        if (a->kind == AST_ARG && strcmp(a->name, "mass") != 0) {
            diag_error(S->dc, a->loc, "unknown argument '%s' of 'point' (it takes 'mass')", a->name);
            return;
        }
        if (a->kind != AST_ARG && pos++ > 0) {
            diag_error(S->dc, a->loc, "too many arguments: 'point' takes 'mass'");
            return;
        }
        m = a->kind == AST_ARG ? a->kids[0] : a;
    }
    if (!m) {
        diag_error(S->dc, d->loc, "'point' needs a mass: point(mass = 1 kg)");
        return;
    }
    scope isc = {.up = &S->global, .iname = b->iname, .ival = b->ival};
    sval v = sema_num_dim(S, b->iname ? &isc : &S->global, m, DIM_KG, "the mass");
    if (v.k == V_NUM && sema_is_dynamic(S, v.e)) {
        diag_error(S->dc, m->loc, "the mass may use parameters only, not time or states");
        return;
    }
    double x;
    if (v.k == V_NUM && ex_is_const(S->pool, v.e, &x) && !(x > 0)) {
        diag_error(S->dc, m->loc, "the mass must be positive, got %g kg", x);
        return;
    }
    b->mass = v;
}

/* ---- assembly ------------------------------------------------------------------------ */

/* The force an evaluated element applies to dof di (signed), or -1 when it
 * applies none (or failed). */
static ex_id contribution(sema *S, const elem *el, int di)
{
    if (el->force.k != V_NUM || el->kind == ELEM_MOTION)
        return -1;
    if (el->kind == ELEM_FORCEDEF)
        return el->a == di ? el->force.e : -1;
    if (el->a == di)
        return ex_op1(S->pool, EX_NEG, el->force.e);
    return el->b == di ? el->force.e : -1;
}

/* The sum of the forces on dof di from every element but `skip`. */
ex_id sema_other_forces(sema *S, int di, int skip)
{
    ex_id sum = ex_const(S->pool, 0);
    for (int i = 0; i < S->nelem; i++) {
        elem *el = &S->elems[i];
        if (i == skip || (el->a != di && el->b != di))
            continue;
        sema_eval_elem(S, i);
        ex_id c = contribution(S, el, di);
        if (c >= 0)
            sum = ex_op2(S->pool, EX_ADD, sum, c);
    }
    /* and its share of the forces on the points made of it */
    for (int p = 0; p < S->ndof && S->dofs[di].body >= 0; p++)
        for (int k = 0; k < S->dofs[p].nlin; k++)
            if (S->dofs[p].lin_y[k] == S->dofs[di].y)
                sum = ex_op2(S->pool, EX_ADD, sum, ex_op2(S->pool, EX_MUL, S->dofs[p].lin_c[k],
                                                          sema_other_forces(S, p, skip)));
    return sum;
}

/* F_eq of element ei: the force it must exert so that its two dofs have the
 * same acceleration under all the other forces (the equivalent sticking force
 * of the switching stick algorithm, seed 001 Sect. 2.9). Each side's
 * acceleration is affine in the element's force F (-F on a, +F on b):
 *   a_a = a0_a - alpha_a F,   a_b = a0_b + alpha_b F
 * (point mass: a0 = other forces / m, alpha = 1/m; ground or motion: alpha = 0;
 * substructure point: a0 = c^T Mr^-1 (g_o - Kr q - Cr qd), alpha = c^T Mr^-1 c),
 * so F_eq = (a0_a - a0_b) / (alpha_a + alpha_b). */
int sema_equiv_force(sema *S, int ei, jnt_loc loc, sval *out)
{
    ex_pool *P = S->pool;
    const elem *el = &S->elems[ei];
    int side[2] = {el->a, el->b};
    ex_id a0[2], alpha[2];
    for (int k = 0; k < 2; k++) {
        int di = side[k];
        if (di < 0) {
            a0[k] = alpha[k] = ex_const(P, 0);
        } else if (S->dofs[di].motion >= 0) {
            a0[k] = S->dofs[di].acc;
            alpha[k] = ex_const(P, 0);
        } else if (S->dofs[di].point) {
            diag_error(S->dc, loc, "F_eq of '%s' is not available: '%s' is a point", el->name,
                       S->dofs[di].name);
            return -1;
        } else if (S->dofs[di].sub >= 0) {
            if (sema_sub_accel(S, di, ei, &a0[k], &alpha[k]) != 0)
                return -1;
        } else {
            body *b = &S->bodies[S->dofs[di].body];
            if (b->mass.k != V_NUM)
                return -1;
            a0[k] = ex_op2(P, EX_DIV, sema_other_forces(S, di, ei), b->mass.e);
            alpha[k] = ex_op2(P, EX_DIV, ex_const(P, 1), b->mass.e);
        }
    }
    ex_id den = ex_op2(P, EX_ADD, alpha[0], alpha[1]);
    double c;
    if (ex_is_const(P, den, &c) && c == 0) {
        diag_error(S->dc, loc, "F_eq of '%s' is undefined: neither of its dofs is free", el->name);
        return -1;
    }
    *out = sval_num(ex_op2(P, EX_DIV, ex_op2(P, EX_SUB, a0[0], a0[1]), den),
                    (jnt_dim){{6, 6, -12, 0, 0}});
    return 0;
}

/* Masses, prescribed motions, then every element; m a = sum of forces per dof. */
static void assemble(sema *S)
{
    ex_pool *P = S->pool;
    for (int i = 0; i < S->nbody; i++)
        eval_body_mass(S, &S->bodies[i]);
    for (int i = 0; i < S->nelem; i++) {
        elem *el = &S->elems[i];
        if (el->kind != ELEM_MOTION)
            continue;
        sema_eval_elem(S, i);
        if (el->force.k != V_NUM)
            continue;
        dof *f = &S->dofs[el->a];
        if (f->body < 0) {
            diag_error(S->dc, el->decl->loc, "a motion prescribes a body's dof, but '%s' is a %s",
                       f->name, f->point ? "point" : "substructure point");
            continue;
        }
        if (f->motion >= 0) {
            diag_error(S->dc, el->decl->loc, "'%s' already has a prescribed motion", f->name);
            diag_note(S->dc, f->motion_loc, "the first one is here");
            continue;
        }
        ex_set_loc(P, el->decl->loc);
        f->motion = el->force.e;
        f->motion_loc = el->decl->loc;
        /* its acceleration is the motion's second derivative */
        f->acc = ex_diff(P, ex_diff(P, f->motion, EX_T, 0), EX_T, 0);
    }
    for (int i = 0; i < S->nelem; i++) {
        sema_eval_elem(S, i);
        elem *el = &S->elems[i];
        ex_set_loc(P, el->decl->loc);
        for (int k = 0; k < 2; k++) {
            int di = k ? el->b : el->a;
            ex_id c = di >= 0 ? contribution(S, el, di) : -1;
            if (c >= 0)
                S->dofs[di].force = ex_op2(P, EX_ADD, S->dofs[di].force, c);
        }
    }
    sema_point_assemble(S);
    sema_sub_assemble(S);
    for (int i = 0; i < S->ndof; i++) {
        dof *f = &S->dofs[i];
        if (f->body < 0)
            continue;
        body *b = &S->bodies[f->body];
        ex_set_loc(P, b->decl->loc);
        S->m->y.v[f->y].rhs = ex_var(P, EX_Y, f->y + 1);
        if (f->motion < 0)
            f->acc = b->mass.k == V_NUM ? ex_op2(P, EX_DIV, f->force, b->mass.e) : ex_const(P, 0);
        S->m->y.v[f->y + 1].rhs = f->acc;
    }
    S->assembled = 1;
}

/* A dof's acceleration (outputs only). */
int sema_dof_accel(sema *S, int di, jnt_loc loc, sval *out)
{
    if (!S->in_output || !S->assembled) {
        diag_error(S->dc, loc, "an acceleration can only be used in an output column");
        return -1;
    }
    *out = sval_num(S->dofs[di].acc, (jnt_dim){{0, 6, -12, 0, 0}});
    return 0;
}

/* ---- init, simulate, output --------------------------------------------------------- */

static void eval_init(sema *S, const ast *d, unsigned char *seen)
{
    sval tgt = sema_eval(S, &S->global, d->kids[0]);
    int yi = -1, di = -1;
    if (tgt.k == V_DOF && S->dofs[tgt.id].point) {
        diag_error(S->dc, d->kids[0]->loc, "a point cannot be initialised: initialise the dofs it "
                                           "is made of");
        return;
    }
    if (tgt.k == V_DOF && S->dofs[tgt.id].sub >= 0) {
        diag_error(S->dc, d->kids[0]->loc, "a point of a substructure cannot be initialised (its "
                                           "generalized coordinates start at rest)");
        return;
    }
    if (tgt.k == V_DOF) {
        yi = S->dofs[tgt.id].y;
    } else if (tgt.k == V_NUM) {
        const ex_node *n = ex_get(S->pool, tgt.e);
        if (n->kind == EX_Y)
            yi = n->a;
        else if (n->kind == EX_D)
            di = n->a;
    }
    if (tgt.k == V_ERR)
        return;
    for (int i = 0; yi >= 0 && i < S->ndof; i++)
        if (S->dofs[i].motion >= 0 && (S->dofs[i].y == yi || S->dofs[i].y + 1 == yi)) {
            diag_error(S->dc, d->loc, "'%s' has a prescribed motion and cannot be initialised",
                       S->dofs[i].name);
            return;
        }
    if (yi < 0 && di < 0) {
        diag_error(S->dc, d->kids[0]->loc, "'init' needs a state: a degree of freedom, its "
                                           "velocity (block.x.v) or a law state (slide.z)");
        return;
    }
    ir_var *var = yi >= 0 ? &S->m->y.v[yi] : &S->m->d.v[di];
    int key = yi >= 0 ? yi : S->m->y.n + di;
    if (seen[key]) {
        diag_error(S->dc, d->loc, "'%s' is initialised twice", var->name);
        return;
    }
    seen[key] = 1;
    sval v = sema_num_dim(S, &S->global, d->kids[1], var->dim, "the initial value");
    if (v.k != V_NUM)
        return;
    if (sema_is_dynamic(S, v.e)) {
        diag_error(S->dc, d->kids[1]->loc, "an initial value may use parameters only");
        return;
    }
    var->init = v.e;
}

typedef struct integ_spec {
    const char *name;
    const char *opt[4];
    double def[4]; /* NAN: required */
} integ_spec;

static const integ_spec integ_specs[] = {
    {"rk4", {"h"}, {NAN}},
    {"trapezoidal", {"h"}, {NAN}},
    {"midpoint", {"h"}, {NAN}},
    {"radau", {"h"}, {NAN}},
    {"dopri5", {"rtol", "atol", "h0", "h_max"}, {1e-6, 1e-9, 0, 0}},
    {"bdf", {"rtol", "atol", "h0", "h_max"}, {1e-6, 1e-9, 0, 0}},
    {"central", {"h"}, {NAN}},
};

/* A settings expression: parameters only, with a dimension. */
static ex_id setting_expr(sema *S, const ast *e, jnt_dim dim, const char *what)
{
    sval v = sema_num_dim(S, &S->global, e, dim, what);
    if (v.k != V_NUM)
        return -1;
    if (sema_is_dynamic(S, v.e)) {
        diag_error(S->dc, e->loc, "%s may use parameters only, not time or states", what);
        return -1;
    }
    return v.e;
}

static void eval_integrator(sema *S, const ast *e)
{
    ir_model *m = S->m;
    const char *name = e->kind == AST_CALL || e->kind == AST_NAME ? e->name : NULL;
    const integ_spec *sp = NULL;
    const char *names[8];
    int nspec = (int)(sizeof integ_specs / sizeof *integ_specs);
    for (int i = 0; i < nspec; i++) {
        names[i] = integ_specs[i].name;
        if (name && strcmp(name, integ_specs[i].name) == 0)
            sp = &integ_specs[i];
    }
    if (!sp) {
        const char *best = name ? diag_closest(name, names, nspec) : NULL;
        if (best)
            diag_error(S->dc, e->loc, "unknown integrator '%s'; did you mean '%s'?", name, best);
        else
            diag_error(S->dc, e->loc, "expected an integrator: rk4(h), dopri5(rtol, atol), "
                                      "bdf(rtol, atol), radau(h), trapezoidal(h), midpoint(h) "
                                      "or central(h)");
        return;
    }
    m->integrator = sp->name;
    int nopt = 0;
    while (nopt < 4 && sp->opt[nopt])
        nopt++;
    const ast *given[4] = {0};
    int pos = 0;
    for (int i = 0; e->kind == AST_CALL && i < e->nkids; i++) {
        const ast *a = e->kids[i];
        int k = -1;
        if (a->kind == AST_ARG) {
            for (int j = 0; j < nopt; j++)
                if (strcmp(sp->opt[j], a->name) == 0)
                    k = j;
        } else {
            k = pos < nopt ? pos++ : -1;
        }
        if (k < 0 && a->kind == AST_ARG) {
            const char *best = diag_closest(a->name, sp->opt, nopt);
            diag_error(S->dc, a->loc, "unknown option '%s' of '%s'%s%s%s", a->name, sp->name,
                       best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
            continue;
        }
        if (k < 0 || given[k]) {
            diag_error(S->dc, a->loc, k < 0 ? "too many options for '%s'"
                                            : "an option of '%s' is given twice", sp->name);
            continue;
        }
        given[k] = a->kind == AST_ARG ? a->kids[0] : a;
    }
    ex_id *slot[4];
    jnt_dim dims[4];
    for (int j = 0; j < nopt; j++) {
        const char *o = sp->opt[j];
        int is_tol = o[1] == 't'; /* rtol, atol */
        slot[j] = strcmp(o, "h") == 0 || strcmp(o, "h0") == 0 ? &m->h
                : strcmp(o, "h_max") == 0 ? &m->h_max : o[0] == 'r' ? &m->rtol : &m->atol;
        dims[j] = is_tol ? units_none : DIM_S;
        if (given[j]) {
            char what[64];
            snprintf(what, sizeof what, "option '%s' of '%s'", o, sp->name);
            *slot[j] = setting_expr(S, given[j], dims[j], what);
        } else if (isnan(sp->def[j])) {
            diag_error(S->dc, e->loc, "'%s' needs the step size: %s(h = ...)", sp->name, sp->name);
        } else {
            *slot[j] = ex_const(S->pool, sp->def[j]);
        }
    }
}

static void eval_simulate(sema *S, const ast *d)
{
    if (S->have_sim++) {
        diag_error(S->dc, d->loc, "a model has one 'simulate' block");
        return;
    }
    const char *known[] = {"integrator", "until", "start"};
    int have_until = 0;
    for (int i = 0; i < d->nkids; i++) {
        const ast *st = d->kids[i];
        if (strcmp(st->name, "integrator") == 0) {
            eval_integrator(S, st->kids[0]);
        } else if (strcmp(st->name, "until") == 0) {
            have_until = 1;
            S->m->t_end = setting_expr(S, st->kids[0], DIM_S, "'until'");
        } else if (strcmp(st->name, "start") == 0) {
            S->m->t0 = setting_expr(S, st->kids[0], DIM_S, "'start'");
        } else {
            const char *best = diag_closest(st->name, known, 3);
            diag_error(S->dc, st->loc, "unknown setting '%s' in 'simulate'%s%s%s", st->name,
                       best ? "; did you mean '" : " (it has 'integrator', 'until', 'start')",
                       best ? best : "", best ? "'?" : "");
        }
    }
    if (!have_until)
        diag_error(S->dc, d->loc, "'simulate' needs 'until = <end time>'");
}

static void eval_output(sema *S, const ast *d)
{
    ir_model *m = S->m;
    if (S->have_out++) {
        diag_error(S->dc, d->loc, "a model has one 'output' block in this version");
        return;
    }
    m->output_file = xstrdup(d->str);
    m->out_every = setting_expr(S, d->kids[0], DIM_S, "the output interval");
    S->in_output = 1;
    for (int i = 1; i < d->nkids; i++) {
        const ast *c = d->kids[i];
        const char *name = c->name ? c->name : c->str;
        for (int j = 0; j < m->out.n; j++)
            if (strcmp(m->out.v[j].name, name) == 0) {
                diag_error(S->dc, c->loc, "column '%s' appears twice", name);
                goto next;
            }
        if (strcmp(name, "t") == 0 && i != 1) {
            diag_error(S->dc, c->loc, "'t' must be the first column");
            goto next;
        }
        sval v = sema_num(S, &S->global, c->kids[0], "an output column");
        if (v.k == V_NUM)
            ir_add(&m->out, xstrdup(name), v.e, -1, v.dim, c->loc);
    next:;
    }
    S->in_output = 0;
    if (m->out.n == 0 || strcmp(m->out.v[0].name, "t") != 0) {
        ir_add(&m->out, xstrdup("t"), ex_var(S->pool, EX_T, 0), -1, DIM_S, d->loc);
        ir_var tv = m->out.v[m->out.n - 1];
        memmove(&m->out.v[1], &m->out.v[0], (size_t)(m->out.n - 1) * sizeof *m->out.v);
        m->out.v[0] = tv;
    }
}

/* See sema_int.h: the state equations, updates, outputs, point forces and
 * chain inputs (the other expressions read parameters and time only). */
void sema_subst_all(sema *S, ex_kind kind, const ex_id *repl)
{
    ir_model *m = S->m;
    ex_pool *P = S->pool;
    for (int c = 0; c < m->nchains; c++)
        for (int i = 0; i < 3 + m->chains[c].n; i++)
            m->chains[c].in[i] = ex_subst(P, m->chains[c].in[i], kind, repl);
    ir_vars *lists[4] = {&m->y, &m->d, &m->out, &m->f};
    for (int l = 0; l < 4; l++)
        for (int i = 0; i < lists[l]->n; i++)
            if (lists[l]->v[i].rhs >= 0)
                lists[l]->v[i].rhs = ex_subst(P, lists[l]->v[i].rhs, kind, repl);
}

/* Replace the states of prescribed dofs by their motion (position) and its
 * time derivative (velocity) everywhere, and renumber the other states. */
static void eliminate_prescribed(sema *S)
{
    ir_model *m = S->m;
    ex_pool *P = S->pool;
    int ny = m->y.n, k = 0;
    ex_id *repl = xmalloc(((size_t)ny + 1) * sizeof *repl);
    unsigned char *gone = xcalloc((size_t)ny + 1, 1);
    for (int i = 0; i < S->ndof; i++) {
        dof *f = &S->dofs[i];
        if (f->motion < 0)
            continue;
        ex_set_loc(P, f->motion_loc);
        repl[f->y] = f->motion;
        repl[f->y + 1] = ex_diff(P, f->motion, EX_T, 0);
        gone[f->y] = gone[f->y + 1] = 1;
    }
    for (int i = 0; i < ny; i++)
        if (!gone[i])
            repl[i] = ex_var(P, EX_Y, k++);
    if (k < ny) {
        for (int b = 0; b < m->nblocks; b++) /* blocks are kept whole: map their first state */
            m->blocks[b].q0 = ex_get(P, repl[m->blocks[b].q0])->a;
        sema_subst_all(S, EX_Y, repl);
        k = 0;
        for (int i = 0; i < ny; i++) {
            if (gone[i])
                free(m->y.v[i].name);
            else
                m->y.v[k++] = m->y.v[i];
        }
        m->y.n = k;
    }
    free(repl);
    free(gone);
}

/* A model with sliding interfaces runs on seed 003's central difference
 * (runtime/iface_run.c): its states must all be substructure coordinates. */
static void check_ifaces(sema *S)
{
    ir_model *m = S->m;
    int central = m->integrator && !strcmp(m->integrator, "central");
    const ast *first = NULL;
    for (int i = 0; i < S->nsym && !first; i++)
        if (S->syms[i].kind == SYM_IFACE)
            first = S->syms[i].decl;
    for (int i = 0; i < S->nsub && !first && !diag_errors(S->dc); i++)
        if (S->subs[i].ray[0] >= 0) {
            diag_error(S->dc, S->subs[i].decl->loc, "'%s': a damping that varies in time needs a "
                                                    "model with sliding interfaces (the central "
                                                    "difference applies it)", S->subs[i].name);
            return;
        }
    if (central && !first && !diag_errors(S->dc)) {
        diag_error(S->dc, m->y.n ? m->y.v[0].loc : loc_none,
                   "integrator 'central' integrates models with sliding interfaces, and this "
                   "model has none");
        return;
    }
    if (!first || diag_errors(S->dc))
        return;
    if (S->have_sim && !central) {
        diag_error(S->dc, first->loc, "a model with a sliding interface is integrated by "
                                      "central(h = ...), the explicit central difference of "
                                      "seed 003, not '%s'", m->integrator);
        return;
    }
    for (int i = 0; i < m->y.n; i++) {
        int in_block = 0;
        for (int b = 0; b < m->nblocks; b++)
            in_block |= i >= m->blocks[b].q0 && i < m->blocks[b].q0 + 2 * m->blocks[b].r;
        if (!in_block) {
            diag_error(S->dc, m->y.v[i].loc, "a model with a sliding interface may only have "
                                             "substructures as states, not '%s'", m->y.v[i].name);
            diag_note(S->dc, first->loc, "the interface is here");
            return;
        }
    }
}

/* ---- analyses ------------------------------------------------------------------------- */

/* Synthetic nodes of an analysis's own model, located at the analysis. */
static ast *syn(sema *S, ast_kind k, const ast *at, const char *name)
{
    ast *n = ast_new(S->arena, k, at->loc);
    n->end = at->end;
    n->aux = at->loc;
    n->name = name ? ast_strdup(S->arena, name, strlen(name)) : NULL;
    return n;
}

static ast *syn_num(sema *S, const ast *at, double v, const char *unit)
{
    ast *n = syn(S, AST_NUM, at, NULL);
    n->num = v;
    n->str = unit ? ast_strdup(S->arena, unit, strlen(unit)) : NULL;
    return n;
}

static ast *syn_bin(sema *S, const ast *at, int op, ast *a, ast *b)
{
    ast *n = syn(S, AST_BINARY, at, NULL);
    n->op = op;
    ast_add(S->arena, n, a);
    ast_add(S->arena, n, b);
    return n;
}

static ast *syn_member(sema *S, const ast *at, const char *base, const char *member)
{
    ast *n = syn(S, AST_MEMBER, at, member);
    ast_add(S->arena, n, syn(S, AST_NAME, at, base));
    return n;
}

static ast *syn_setting(sema *S, const ast *at, const char *name, ast *value)
{
    ast *n = syn(S, AST_SETTING, at, name);
    ast_add(S->arena, n, value);
    return n;
}

/* The named arguments of an analysis; unknown, repeated and positional ones
 * are errors. */
static int analysis_args(sema *S, const ast *d, const char *const *names, int n, const ast **found)
{
    int err = 0;
    for (int i = 0; i < d->nkids; i++) {
        const ast *a = d->kids[i];
        int k = -1;
        for (int j = 0; a->kind == AST_ARG && j < n; j++)
            if (strcmp(names[j], a->name) == 0)
                k = j;
        if (a->kind != AST_ARG) {
            diag_error(S->dc, a->loc, "analysis '%s' takes named arguments (%s = ...)", d->str,
                       names[0]);
            err = 1;
        } else if (k < 0) {
            const char *best = diag_closest(a->name, names, n);
            diag_error(S->dc, a->loc, "unknown argument '%s' of analysis '%s'%s%s%s", a->name,
                       d->str, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
            err = 1;
        } else if (found[k]) {
            diag_error(S->dc, a->loc, "argument '%s' is given twice", a->name);
            err = 1;
        } else {
            found[k] = a->kids[0];
        }
    }
    return err ? -1 : 0;
}

/* hysteresis(law = L(...), slip = s(t), normal, area, period, cycles, points):
 * its own model, with the main model's imports, constants, parameters and
 * laws: a slider whose position follows the slip, a friction element with
 * the law, and the work done on it. */
static ir_model *hysteresis_model(sema *S, const ast *d, const ast *model, int file,
                                  const ast **arg)
{
    enum { LAW, SLIP, NORMAL, AREA, PERIOD, CYCLES, POINTS };
    ast *m = syn(S, AST_MODEL, d, d->name);
    for (int i = 0; i < model->nkids; i++) {
        ast_kind k = model->kids[i]->kind;
        if (k == AST_IMPORT || k == AST_CONST || k == AST_PARAM || k == AST_LAW)
            ast_add(S->arena, m, model->kids[i]);
    }
    /* body _slider : point(mass = 1 kg) { dof x } */
    ast *b = syn(S, AST_BODY, d, "_slider");
    b->str = "point";
    ast *mass = syn(S, AST_ARG, d, "mass");
    ast_add(S->arena, mass, syn_num(S, d, 1, "kg"));
    ast_add(S->arena, b, mass);
    ast_add(S->arena, b, syn(S, AST_DOF, d, "x"));
    ast_add(S->arena, m, b);
    /* motion _drive on _slider.x = slip */
    ast *mo = syn(S, AST_MOTION, d, "_drive");
    ast_add(S->arena, mo, syn_member(S, d, "_slider", "x"));
    ast_add(S->arena, mo, (ast *)arg[SLIP]);
    ast_add(S->arena, m, mo);
    /* friction NAME between _slider.x and ground { law, normal, area } */
    ast *el = syn(S, AST_ELEMENT, d, d->name);
    el->op = ELEM_FRICTION;
    ast_add(S->arena, el, syn_member(S, d, "_slider", "x"));
    ast_add(S->arena, el, syn(S, AST_NAME, d, "ground"));
    ast_add(S->arena, el, syn_setting(S, d, "law", (ast *)arg[LAW]));
    if (arg[NORMAL])
        ast_add(S->arena, el, syn_setting(S, d, "normal", (ast *)arg[NORMAL]));
    if (arg[AREA])
        ast_add(S->arena, el, syn_setting(S, d, "area", (ast *)arg[AREA]));
    ast_add(S->arena, m, el);
    /* integral _work = NAME.force * NAME.v */
    ast *w = syn(S, AST_INTEGRAL, d, "_work");
    ast_add(S->arena, w, syn_bin(S, d, OP_MUL, syn_member(S, d, d->name, "force"),
                                 syn_member(S, d, d->name, "v")));
    ast_add(S->arena, m, w);
    /* simulate { integrator = rk4(h = period / points)  until = cycles * period } */
    ast *points = arg[POINTS] ? (ast *)arg[POINTS] : syn_num(S, d, 1000, NULL);
    ast *cycles = arg[CYCLES] ? (ast *)arg[CYCLES] : syn_num(S, d, 3, NULL);
    ast *h = syn_bin(S, d, OP_DIV, (ast *)arg[PERIOD], points);
    ast *integ = syn(S, AST_CALL, d, "rk4");
    ast *harg = syn(S, AST_ARG, d, "h");
    ast_add(S->arena, harg, h);
    ast_add(S->arena, integ, harg);
    ast *sim = syn(S, AST_SIMULATE, d, NULL);
    ast_add(S->arena, sim, syn_setting(S, d, "integrator", integ));
    ast_add(S->arena, sim, syn_setting(S, d, "until", syn_bin(S, d, OP_MUL, cycles,
                                                              (ast *)arg[PERIOD])));
    ast_add(S->arena, m, sim);
    /* output "NAME.csv" every h { t, s, v, F, W } */
    ast *out = syn(S, AST_OUTPUT, d, NULL);
    char *file_name = xasprintf("%s.csv", d->name);
    out->str = ast_strdup(S->arena, file_name, strlen(file_name));
    free(file_name);
    ast_add(S->arena, out, h);
    static const char *const cols[][2] = {{"s", "s"}, {"v", "v"}, {"F", "force"}};
    ast *tc = syn(S, AST_OUTCOL, d, "t");
    ast_add(S->arena, tc, syn(S, AST_NAME, d, "t"));
    ast_add(S->arena, out, tc);
    for (int i = 0; i < 3; i++) {
        ast *c = syn(S, AST_OUTCOL, d, cols[i][0]);
        ast_add(S->arena, c, syn_member(S, d, d->name, cols[i][1]));
        ast_add(S->arena, out, c);
    }
    ast *wc = syn(S, AST_OUTCOL, d, "W");
    ast_add(S->arena, wc, syn(S, AST_NAME, d, "_work"));
    ast_add(S->arena, out, wc);
    ast_add(S->arena, m, out);

    ir_model *sub = xcalloc(1, sizeof *sub);
    if (sema_lower(S->dc, S->arena, m, file, sub) != 0) {
        ir_free(sub);
        free(sub);
        return NULL;
    }
    return sub;
}

static void eval_analysis(sema *S, const ast *d, const ast *model, int file)
{
    ir_model *m = S->m;
    ir_analysis an = {.name = NULL, .v = {-1, -1, -1, -1}};
    S->have_an++;
    if (strcmp(d->str, "linear") == 0) {
        static const char *const names[] = {"at"};
        const ast *arg[1] = {0};
        if (analysis_args(S, d, names, 1, arg) != 0)
            return;
        an.kind = JNT_ANALYSIS_LINEAR;
        an.v[0] = arg[0] ? setting_expr(S, arg[0], DIM_S, "'at'") : m->t0;
        if (an.v[0] < 0)
            return;
    } else if (strcmp(d->str, "hysteresis") == 0) {
        static const char *const names[] = {"law", "slip", "normal", "area", "period",
                                            "cycles", "points"};
        const ast *arg[7] = {0};
        if (analysis_args(S, d, names, 7, arg) != 0)
            return;
        if (!arg[0] || !arg[1] || !arg[4]) {
            diag_error(S->dc, d->loc, "analysis 'hysteresis' needs law = ..., slip = ... and "
                                      "period = ...");
            return;
        }
        an.kind = JNT_ANALYSIS_HYSTERESIS;
        an.v[0] = setting_expr(S, arg[4], DIM_S, "'period'");
        an.v[1] = arg[5] ? setting_expr(S, arg[5], units_none, "'cycles'") : ex_const(S->pool, 3);
        if (an.v[0] < 0 || an.v[1] < 0 || !(an.sub = hysteresis_model(S, d, model, file, arg)))
            return;
    } else if (strcmp(d->str, "modes") == 0) {
        static const char *const names[] = {"of", "count"};
        const ast *arg[2] = {0};
        long count = 6;
        if (analysis_args(S, d, names, 2, arg) != 0 ||
            (arg[1] && sema_int_const(S, &S->consts, arg[1], &count) != 0))
            return;
        sym *s = arg[0] && arg[0]->kind == AST_NAME ? sema_find(S, arg[0]->name) : NULL;
        if (!s || s->kind != SYM_SUB) {
            diag_error(S->dc, arg[0] ? arg[0]->loc : d->loc,
                       "analysis 'modes' needs of = <a substructure>");
            return;
        }
        ir_analysis tabs[2];
        if (count < 1 || sema_sub_modes(S, d, s->inst[0], (int)count, &tabs[0], &tabs[1]) != 0) {
            if (count < 1)
                diag_error(S->dc, arg[1]->loc, "'count' must be at least 1");
            return;
        }
        tabs[0].name = xstrdup(d->name);
        tabs[1].name = xasprintf("%s_shapes", d->name);
        m->an = xrealloc(m->an, (size_t)(m->nan + 2) * sizeof *m->an);
        m->an[m->nan++] = tabs[0];
        m->an[m->nan++] = tabs[1];
        return;
    } else if (strcmp(d->str, "complex_modes") == 0) {
        static const char *const names[] = {"along", "from", "to", "steps", "time", "speed"};
        const ast *arg[6] = {0};
        long steps = 50;
        if (analysis_args(S, d, names, 6, arg) != 0 ||
            (arg[3] && sema_int_const(S, &S->consts, arg[3], &steps) != 0))
            return;
        sym *s = arg[0] && arg[0]->kind == AST_NAME ? sema_find(S, arg[0]->name) : NULL;
        if (!s || s->kind != SYM_IFACE || !arg[1] || !arg[2]) {
            diag_error(S->dc, s && s->kind == SYM_IFACE ? d->loc : arg[0] ? arg[0]->loc : d->loc,
                       "analysis 'complex_modes' needs along = <a sliding interface>, "
                       "from = ... and to = ...");
            return;
        }
        if (s->ninst != 1)
            return; /* the interface's errors were reported */
        if (steps < 1 || steps > 100000) {
            diag_error(S->dc, arg[3]->loc, "'steps' must be 1 to 100000, not %ld", steps);
            return;
        }
        an.kind = JNT_ANALYSIS_LOCUS;
        const jnt_dim dim_m = {{0, 6, 0, 0, 0}};
        an.v[0] = setting_expr(S, arg[1], dim_m, "'from'");
        an.v[1] = setting_expr(S, arg[2], dim_m, "'to'");
        /* the friction coefficient and the damping at `time` (default: the end
         * of the simulation, ramps done) and slip speed `speed` (default 0) */
        an.v[2] = arg[4] ? setting_expr(S, arg[4], DIM_S, "'time'") : -1; /* gen.c: until */
        an.v[3] = arg[5] ? setting_expr(S, arg[5], units_div(dim_m, DIM_S), "'speed'")
                         : ex_const(S->pool, 0);
        an.ncol = s->inst[0];
        an.nrow = (int)steps;
        if (an.v[0] < 0 || an.v[1] < 0 || (arg[4] && an.v[2] < 0) || an.v[3] < 0)
            return;
    } else {
        static const char *const kinds[] = {"linear", "hysteresis", "modes", "complex_modes"};
        const char *best = diag_closest(d->str, kinds, 4);
        diag_error(S->dc, d->loc, "unknown analysis '%s'%s%s%s (there are 'linear', "
                                  "'hysteresis', 'modes' and 'complex_modes')", d->str,
                   best ? "; did you mean '" : "",
                   best ? best : "", best ? "'?" : "");
        return;
    }
    for (int i = 0; i < m->nan; i++)
        if (strcmp(m->an[i].name, d->name) == 0) {
            diag_error(S->dc, d->aux, "there is already an analysis '%s'", d->name);
            return;
        }
    an.name = xstrdup(d->name);
    m->an = xrealloc(m->an, (size_t)(m->nan + 1) * sizeof *m->an);
    m->an[m->nan++] = an;
}

/* ---- driver ----------------------------------------------------------------------------- */

static char *model_name(const ast *model, const char *path)
{
    if (model->name)
        return xstrdup(model->name);
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".jnt") == 0)
        n -= 4;
    char *s = xmalloc(n + 1);
    memcpy(s, b, n);
    s[n] = 0;
    return s;
}

/* Check and lower a parsed model. */
int sema_lower(diag_ctx *dc, ast_arena *arena, const ast *model, int file, ir_model *out)
{
    *out = (ir_model){0};
    out->pool = ex_pool_new();
    out->source = xstrdup(dc->srcs[file].path);
    out->name = model_name(model, dc->srcs[file].path);
    out->t0 = ex_const(out->pool, 0);
    out->t_end = out->h = out->rtol = out->atol = out->out_every = out->h_max = -1;
    out->integrator = "bdf";

    sema S = {.dc = dc, .arena = arena, .m = out, .pool = out->pool};
    S.global = (scope){.lookup = global_lookup, .names = global_names};
    S.consts = (scope){.lookup = const_lookup, .names = global_names};
    rehash(&S);
    char real[PATH_MAX];
    if (realpath(dc->srcs[file].path, real)) {
        push_file(&S, real, file);
        XGROW(S.imported, S.capimported, S.nimported);
        S.imported[S.nimported++] = xstrdup(real);
    }
    register_decls(&S, model, file);

    /* pass 2: arrays, bodies and dofs, element instances, parameters */
    for (int i = 0; i < S.nsym; i++) {
        sym *s = &S.syms[i];
        if (s->kind == SYM_BODY)
            declare_body(&S, s);
    }
    for (int i = 0; i < S.nsym; i++) {
        sym *s = &S.syms[i];
        if (s->kind == SYM_SUB)
            sema_declare_sub(&S, s);
        else if (s->kind == SYM_CHAIN)
            sema_declare_chain(&S, s);
    }
    for (int i = 0; i < S.nsym; i++) {
        sym *s = &S.syms[i];
        if (s->kind == SYM_POINT)
            sema_declare_point(&S, s);
        else if (s->kind == SYM_IFACE)
            sema_declare_iface(&S, s);
    }
    for (int i = 0; i < S.nsym; i++) {
        sym *s = &S.syms[i];
        if (s->kind == SYM_ELEM)
            sema_declare_elem(&S, s);
    }
    for (int i = 0; i < S.nsym; i++) {
        sym *s = &S.syms[i];
        if (s->kind == SYM_CONST || s->kind == SYM_PARAM)
            eval_sym(&S, s, s->decl->loc);
    }
    /* pass 3: elements and the equations of motion */
    assemble(&S);

    /* pass 4: initial values, simulate, output (main file only) */
    unsigned char *seen = xcalloc((size_t)(out->y.n + out->d.n) + 1, 1);
    for (int i = 0; i < model->nkids; i++) {
        const ast *d = model->kids[i];
        if (d->kind == AST_INIT)
            eval_init(&S, d, seen);
        else if (d->kind == AST_SIMULATE)
            eval_simulate(&S, d);
        else if (d->kind == AST_OUTPUT)
            eval_output(&S, d);
        else if (d->kind == AST_ANALYSIS)
            eval_analysis(&S, d, model, file);
        else if (d->kind == AST_LET || d->kind == AST_INTEGRAL) {
            sym *s = sema_find(&S, d->name);
            if (s && s->decl == d)
                eval_sym(&S, s, d->loc);
        }
    }
    free(seen);
    for (int i = 0; i < S.nsym; i++) /* every file's chains */
        if (S.syms[i].kind == SYM_CHAIN)
            sema_eval_chain(&S, &S.syms[i]);
    if (!diag_errors(dc)) {
        eliminate_prescribed(&S);
        sema_sub_gather(&S);
    }
    /* every value that failed must have said why: never drop a force silently */
    for (int i = 0; i < S.nelem && !diag_errors(dc); i++)
        if (S.elems[i].force.k != V_NUM && S.elems[i].kind != ELEM_MOTION)
            diag_error(dc, S.elems[i].decl->loc, "internal error: '%s' has no force and no "
                                                 "diagnostic said why (please report)", S.elems[i].name);
    for (int i = 0; i < out->y.n && !diag_errors(dc); i++)
        if (out->y.v[i].rhs < 0)
            diag_error(dc, out->y.v[i].loc, "internal error: state '%s' has no equation "
                                            "(please report)", out->y.v[i].name);
    if (!S.have_sim && !S.have_an)
        diag_error(dc, (jnt_loc){file, 0}, "the model has no 'simulate { ... }' block");
    check_ifaces(&S);
    if (!S.have_sim)
        out->integrator = NULL; /* analyses only */
    if (!S.have_out) {
        /* default output: t and every state */
        out->output_file = xasprintf("%s.csv", out->name);
        out->out_every = ex_const(out->pool, 0);
        ir_add(&out->out, xstrdup("t"), ex_var(out->pool, EX_T, 0), -1, DIM_S, loc_none);
        for (int i = 0; i < out->y.n; i++)
            ir_add(&out->out, xstrdup(out->y.v[i].name), ex_var(out->pool, EX_Y, i), -1,
                   out->y.v[i].dim, loc_none);
    }
    if (out->h < 0)
        out->h = ex_const(out->pool, 0);
    if (out->h_max < 0)
        out->h_max = ex_const(out->pool, 0);
    if (out->rtol < 0)
        out->rtol = ex_const(out->pool, 1e-6);
    if (out->atol < 0)
        out->atol = ex_const(out->pool, 1e-9);
    if (out->t_end < 0)
        out->t_end = ex_const(out->pool, 0);

    /* release sema's own memory */
    for (int i = 0; i < S.nsym; i++) {
        free(S.syms[i].inst);
        free(S.syms[i].idx);
    }
    for (int i = 0; i < S.nbody; i++)
        free(S.bodies[i].name);
    for (int i = 0; i < S.ndof; i++) {
        free(S.dofs[i].name);
        free(S.dofs[i].coef);
        free(S.dofs[i].lin_y);
        free(S.dofs[i].lin_c);
    }
    sema_sub_free(&S);
    for (int i = 0; i < S.nelem; i++) {
        free(S.elems[i].name);
        free(S.elems[i].q);
    }
    for (int i = 0; i < S.nstack; i++)
        free(S.stack[i]);
    for (int i = 0; i < S.nimported; i++)
        free(S.imported[i]);
    free(S.stack);
    free(S.stack_file);
    free(S.imported);
    free(S.syms);
    free(S.hash);
    free(S.bodies);
    free(S.dofs);
    free(S.elems);
    return diag_errors(dc) ? -1 : 0;
}
