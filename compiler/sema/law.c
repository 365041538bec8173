/*
 * law.c: the instantiation of laws written in the language for an
 * element (sema/element.c): a law's parameters bound from its call, its lets,
 * its continuous states (der) and discrete states (update) added to the
 * model, its result read in the element's units; the inputs it sees are the
 * element's quantities (s, v, N, area, p; gap, gapv).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"

static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};
static const jnt_dim DIM_PA = {{6, -6, -12, 0, 0}};
static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};
static const jnt_dim DIM_MS = {{0, 6, -6, 0, 0}};

typedef struct local {
    const char *name;
    const ast *stmt;   /* AST_LET or AST_STATE */
    const ast *der;    /* AST_DEREQ for a continuous state */
    const ast *upd;    /* AST_UPDATE for a discrete state */
    int busy, done, derbusy, derdone;
    sval val;          /* the let's value, or the state's variable */
    sval derval;
    int var;           /* state index in y or d */
} local;

/* Inputs an element hands its law: s, v, N, area, p (friction); gap, gapv
 * (contact). */
#define LAW_MAX_INPUTS 8

typedef struct lawctx {
    const ast *law;
    elem *el;
    int np, nbound; /* parameters, and how many are bound so far */
    const ast **pdecl;
    sval *pval;
    const char *in_name[LAW_MAX_INPUTS];
    sval in_val[LAW_MAX_INPUTS];
    int nin;
    local *loc;
    int nloc;
    sval feq; /* F_eq, computed on first use */
    int have_feq;
    scope frame;
} lawctx;

static local *find_local(lawctx *L, const char *name)
{
    for (int i = 0; i < L->nloc; i++)
        if (strcmp(L->loc[i].name, name) == 0)
            return &L->loc[i];
    return NULL;
}

static sval eval_local(sema *S, lawctx *L, local *lc)
{
    if (lc->done)
        return lc->val;
    if (lc->busy) {
        diag_error(S->dc, lc->stmt->loc, "'%s' is defined in terms of itself", lc->name);
        lc->val = sval_err;
        lc->done = 1;
        return sval_err;
    }
    lc->busy = 1;
    lc->val = sema_num(S, &L->frame, lc->stmt->kids[0], "a 'let'");
    lc->busy = 0;
    lc->done = 1;
    return lc->val;
}

static int law_lookup(sema *S, const scope *sc, const char *name, jnt_loc loc, sval *out)
{
    lawctx *L = sc->ctx;
    local *lc = find_local(L, name);
    if (lc) {
        *out = lc->stmt->kind == AST_LET ? eval_local(S, L, lc) : lc->val;
        return 1;
    }
    for (int i = 0; i < L->np; i++)
        if (strcmp(L->pdecl[i]->name, name) == 0) {
            if (i >= L->nbound) {
                diag_error(S->dc, loc, "'%s' is used before it is bound: a default may use only "
                                       "the parameters declared before it", name);
                *out = sval_err;
            } else {
                *out = L->pval[i];
            }
            return 1;
        }
    for (int i = 0; i < L->nin; i++)
        if (strcmp(L->in_name[i], name) == 0) {
            *out = L->in_val[i];
            return 1;
        }
    /* computed on demand: it needs every other force on the element's dofs */
    if (L->law->op == LAW_FRICTION && strcmp(name, "F_eq") == 0) {
        if (!L->have_feq) {
            L->have_feq = 1;
            if (sema_equiv_force(S, (int)(L->el - S->elems), loc, &L->feq) != 0)
                L->feq = sval_err;
            else
                sema_elem_add_qty(L->el, "F_eq", L->feq);
        }
        *out = L->feq;
        return 1;
    }
    return 0;
}

static void law_names(sema *S, const scope *sc, const char ***list, int *n, int *cap)
{
    (void)S;
    lawctx *L = sc->ctx;
    for (int i = 0; i < L->nloc; i++) {
        XGROW(*list, *cap, *n);
        (*list)[(*n)++] = L->loc[i].name;
    }
    for (int i = 0; i < L->np + L->nin; i++) {
        XGROW(*list, *cap, *n);
        (*list)[(*n)++] = i < L->np ? L->pdecl[i]->name : L->in_name[i - L->np];
    }
}

/* The derivative expression of a continuous state (lazily, once). */
static int local_der(sema *S, lawctx *L, local *lc, jnt_loc use, sval *out)
{
    if (!lc->der) {
        diag_error(S->dc, use, "state '%s' has no 'der(%s) = ...'", lc->name, lc->name);
        return -1;
    }
    if (!lc->derdone) {
        if (lc->derbusy) {
            diag_error(S->dc, use, "der(%s) is defined in terms of itself", lc->name);
            return -1;
        }
        lc->derbusy = 1;
        lc->derval = sema_num_dim(S, &L->frame, lc->der->kids[0], units_div(lc->val.dim, DIM_S),
                                  "the derivative of a state");
        lc->derbusy = 0;
        lc->derdone = 1;
    }
    *out = lc->derval;
    return out->k == V_ERR ? -1 : 0;
}

/* der(z) in a law expression. */
static int law_der(sema *S, const scope *sc, const ast *n, sval *out)
{
    lawctx *L = sc->ctx;
    const ast *arg = n->kids[0];
    local *lc = arg->kind == AST_NAME ? find_local(L, arg->name) : NULL;
    if (!lc || lc->stmt->kind != AST_STATE || lc->stmt->op) {
        diag_error(S->dc, arg->loc, "der() takes a continuous state of this law");
        return -1;
    }
    return local_der(S, L, lc, arg->loc, out);
}

static const char *law_kind_name(int k)
{
    return k == LAW_FRICTION ? "friction" : k == LAW_CONTACT ? "contact" : "force";
}

/* Bind the call's arguments to the law's parameters (named or positional),
 * checking units; defaults fill the rest. */
static int bind_params(sema *S, const scope *sc, lawctx *L, const ast *call)
{
    const ast *law = L->law;
    int np = 0;
    while (np < law->nkids && law->kids[np]->kind == AST_LPARAM)
        np++;
    L->np = np;
    L->pdecl = xcalloc((size_t)np + 1, sizeof *L->pdecl);
    L->pval = xcalloc((size_t)np + 1, sizeof *L->pval);
    const ast **given = xcalloc((size_t)np + 1, sizeof *given);
    int err = 0, pos = 0;
    for (int i = 0; i < np; i++)
        L->pdecl[i] = law->kids[i];
    for (int i = 0; i < call->nkids; i++) {
        const ast *a = call->kids[i];
        int k = -1;
        if (a->kind == AST_ARG) {
            for (int j = 0; j < np; j++)
                if (strcmp(L->pdecl[j]->name, a->name) == 0)
                    k = j;
            if (k < 0) {
                const char **c = xmalloc(((size_t)np + 1) * sizeof *c);
                for (int j = 0; j < np; j++)
                    c[j] = L->pdecl[j]->name;
                const char *best = jnt_closest_name(a->name, c, np);
                free(c);
                diag_error(S->dc, a->loc, "law '%s' has no parameter '%s'%s%s%s", law->name,
                           a->name, best ? "; did you mean '" : "", best ? best : "",
                           best ? "'?" : "");
                err = 1;
                continue;
            }
        } else {
            if (pos >= np) {
                diag_error(S->dc, a->loc, "too many arguments: law '%s' takes %d", law->name, np);
                err = 1;
                continue;
            }
            k = pos++;
        }
        if (given[k]) {
            diag_error(S->dc, a->loc, "parameter '%s' of law '%s' is given twice", L->pdecl[k]->name,
                       law->name);
            err = 1;
            continue;
        }
        given[k] = a->kind == AST_ARG ? a->kids[0] : a;
    }
    for (int k = 0; k < np; k++) {
        const ast *d = L->pdecl[k];
        jnt_dim want = units_none;
        if (d->kids[0] && sema_unit(S, d->kids[0], &want) != 0) {
            err = 1;
            continue;
        }
        char what[160];
        snprintf(what, sizeof what, "parameter '%s' of law '%s'", d->name, law->name);
        if (given[k]) {
            L->pval[k] = sema_num_dim(S, sc, given[k], want, what);
        } else if (d->nkids > 1 && d->kids[1]) {
            L->pval[k] = sema_num_dim(S, &L->frame, d->kids[1], want, what);
        } else {
            diag_error(S->dc, call->loc, "missing argument '%s' of law '%s'", d->name, law->name);
            diag_note(S->dc, d->loc, "'%s' is declared here", d->name);
            L->pval[k] = sval_err;
        }
        if (L->pval[k].k == V_ERR)
            err = 1;
        L->nbound = k + 1;
    }
    free(given);
    return err ? -1 : 0;
}

/* Create the law's states and collect its lets, ders and updates. */
static int collect_locals(sema *S, lawctx *L, const ast **result, const char *want_result,
                          const char *alt_result)
{
    const ast *law = L->law;
    elem *el = L->el;
    int err = 0;
    L->loc = xcalloc((size_t)law->nkids + 1, sizeof *L->loc);
    for (int i = L->np; i < law->nkids; i++) {
        const ast *st = law->kids[i];
        if (st->kind != AST_LET && st->kind != AST_STATE)
            continue;
        if (find_local(L, st->name)) {
            diag_error(S->dc, st->loc, "'%s' is defined twice in law '%s'", st->name, law->name);
            err = 1;
            continue;
        }
        local *lc = &L->loc[L->nloc++];
        lc->name = st->name;
        lc->stmt = st;
        if (st->kind != AST_STATE)
            continue;
        jnt_dim dim = units_none;
        if (st->kids[0] && sema_unit(S, st->kids[0], &dim) != 0)
            err = 1;
        ex_id init = ex_const(S->pool, 0);
        if (st->nkids > 1 && st->kids[1]) {
            sval v = sema_num_dim(S, &L->frame, st->kids[1], dim, "the initial value of a state");
            if (v.k == V_ERR)
                err = 1;
            else if (sema_is_dynamic(S, v.e))
                diag_error(S->dc, st->kids[1]->loc, "an initial value may use parameters only");
            else
                init = v.e;
        }
        char *name = xasprintf("%s.%s", el->name, st->name);
        if (st->op) {
            lc->var = ir_add(&S->m->d, name, -1, init, dim, st->loc);
            lc->val = sval_num(ex_var(S->pool, EX_D, lc->var), dim);
        } else {
            lc->var = ir_add(&S->m->y, name, -1, init, dim, st->loc);
            lc->val = sval_num(ex_var(S->pool, EX_Y, lc->var), dim);
        }
    }
    for (int i = L->np; i < law->nkids; i++) {
        const ast *st = law->kids[i];
        if (st->kind == AST_DEREQ || st->kind == AST_UPDATE) {
            local *lc = find_local(L, st->name);
            int is_der = st->kind == AST_DEREQ;
            if (!lc || lc->stmt->kind != AST_STATE || lc->stmt->op == is_der) {
                diag_error(S->dc, st->loc, is_der ? "der(%s): '%s' is not a continuous state of this law"
                                                  : "update %s: '%s' is not a discrete state of this law",
                           st->name, st->name);
                err = 1;
            } else if (is_der ? lc->der != NULL : lc->upd != NULL) {
                diag_error(S->dc, st->loc, "'%s' has two %s equations", st->name,
                           is_der ? "der()" : "update");
                err = 1;
            } else if (is_der) {
                lc->der = st;
            } else {
                lc->upd = st;
            }
        } else if (st->kind == AST_RESULT) {
            if (strcmp(st->name, want_result) != 0 && (!alt_result || strcmp(st->name, alt_result) != 0)) {
                diag_error(S->dc, st->loc, "a %s law defines '%s'%s%s%s, not '%s'",
                           law_kind_name(law->op), want_result, alt_result ? " or '" : "",
                           alt_result ? alt_result : "", alt_result ? "'" : "", st->name);
                err = 1;
            } else if (*result) {
                diag_error(S->dc, st->loc, "law '%s' defines its result twice", law->name);
                err = 1;
            } else {
                *result = st;
            }
        }
    }
    if (!*result) {
        diag_error(S->dc, law->loc, "law '%s' never defines '%s'", law->name, want_result);
        err = 1;
    }
    return err ? -1 : 0;
}

/* Whether the tree n names `name` (a law body's use of an input). */
static int names_input(const ast *n, const char *name)
{
    if (!n)
        return 0;
    if (n->kind == AST_NAME && n->name && !strcmp(n->name, name))
        return 1;
    for (int i = 0; i < n->nkids; i++)
        if (names_input(n->kids[i], name))
            return 1;
    return 0;
}

/* A plane bristle (v2 an expression, not 0) needs a law that takes v2. */
static int plane_law_ok(sema *S, const elem *el, const ast *law, const ast *call)
{
    double zero;
    for (int i = 0; i < el->nq; i++)
        if (!strcmp(el->q[i].name, "v2") && el->q[i].val.k == V_NUM &&
            !(ex_is_const(S->pool, el->q[i].val.e, &zero) && zero == 0) &&
            !names_input(law, "v2")) {
            diag_error(S->dc, call->loc, "law '%s' does not take the other tangent's slip v2: "
                       "with 'bristle = plane' it would act as two line bristles (a square "
                       "sticking limit); coulomb_tanh, coulomb_exp, stribeck_rill, lugre and lugre_tdg take it (docs/laws.md)", law->name);
            return -1;
        }
    return 0;
}

/* Instantiate law `call` (AST_CALL) for element el; returns its result. */
static sval instantiate(sema *S, const scope *sc, elem *el, const ast *call, int kind)
{
    sym *s = sema_find(S, call->name);
    if (!s || s->kind != SYM_LAW) {
        char hint[128];
        sema_suggest(S, sc, call->name, hint, sizeof hint);
        diag_error(S->dc, call->loc, "unknown law '%s'%s", call->name, hint);
        return sval_err;
    }
    const ast *law = s->decl;
    if (law->op != kind) {
        diag_error(S->dc, call->loc, "'%s' is a %s law, but this element needs a %s law", law->name,
                   law_kind_name(law->op), law_kind_name(kind));
        return sval_err;
    }
    if (kind == LAW_FRICTION && plane_law_ok(S, el, law, call) != 0)
        return sval_err;
    lawctx *L = xcalloc(1, sizeof *L);
    L->law = law;
    L->el = el;
    /* laws see their own names, their inputs and the global constants */
    L->frame = (scope){.up = &S->consts, .lookup = law_lookup, .names = law_names,
                       .der = law_der, .ctx = L};
    for (int i = 0; i < el->nq && L->nin < LAW_MAX_INPUTS; i++) {
        L->in_name[L->nin] = el->q[i].name;
        L->in_val[L->nin++] = el->q[i].val;
    }
    sval res = sval_err;
    const ast *result = NULL;
    int errs0 = INT_MAX; /* errors in the law's body get a note at the call site */
    if (bind_params(S, sc, L, call) != 0)
        goto done;
    errs0 = diag_errors(S->dc);
    for (int i = 0; i < L->np; i++)
        sema_elem_add_qty(el, L->pdecl[i]->name, L->pval[i]);
    const char *want = kind == LAW_CONTACT ? "pressure" : "force";
    if (collect_locals(S, L, &result, want, kind == LAW_CONTACT ? "force" : NULL) != 0)
        goto done;
    int err = 0;
    for (int i = 0; i < L->nloc; i++) {
        local *lc = &L->loc[i];
        if (lc->stmt->kind == AST_LET) {
            eval_local(S, L, lc);
        } else if (!lc->stmt->op) {
            sval dv;
            if (local_der(S, L, lc, lc->stmt->loc, &dv) != 0) {
                err = 1;
                continue;
            }
            S->m->y.v[lc->var].rhs = dv.e;
            char *dn = xasprintf("der_%s", lc->name);
            sema_elem_add_qty(el, ast_strdup(S->arena, dn, strlen(dn)), dv);
            free(dn);
        } else if (!lc->upd) {
            diag_error(S->dc, lc->stmt->loc, "discrete state '%s' has no 'update %s = ...'", lc->name,
                       lc->name);
            err = 1;
        } else {
            sval uv = sema_num_dim(S, &L->frame, lc->upd->kids[0], lc->val.dim, "an update");
            if (uv.k == V_ERR)
                err = 1;
            else
                S->m->d.v[lc->var].rhs = uv.e;
        }
        sema_elem_add_qty(el, lc->name, lc->stmt->kind == AST_LET ? eval_local(S, L, lc) : lc->val);
    }
    jnt_dim rdim = strcmp(result->name, "pressure") == 0 ? DIM_PA : DIM_N;
    res = sema_num_dim(S, &L->frame, result->kids[0], rdim, kind == LAW_CONTACT
                                                                ? "the result of a contact law"
                                                                : "the force of a law");
    if (err)
        res = sval_err;
    if (res.k != V_ERR)
        sema_elem_add_qty(el, result->name, res);
done:
    if (diag_errors(S->dc) > errs0 && law->loc.file != call->loc.file)
        diag_note(S->dc, call->loc, "in law '%s', used by %s '%s' here", law->name,
                  law_kind_name(law->op), el->name);
    free(L->pdecl);
    free(L->pval);
    free(L->loc);
    free(L);
    return res;
}

/* See core.h. */
void sema_friction_v2(sema *S, elem *el, ex_id v2)
{
    ex_pool *P = S->pool;
    ex_id at_end = ex_const(P, 0);
    if (v2 >= 0) { /* its value at the last step end, kept in a discrete state */
        int d = ir_add(&S->m->d, xasprintf("%s.v2_i", el->name), -1, ex_const(P, 0), DIM_MS,
                       loc_none);
        S->m->d.v[d].rhs = v2;
        at_end = ex_var(P, EX_D, d);
    }
    sema_elem_add_qty(el, "v2", sval_num(v2 >= 0 ? v2 : ex_const(P, 0), DIM_MS));
    sema_elem_add_qty(el, "v2_i", sval_num(at_end, DIM_MS));
}

/* See core.h. */
sval sema_friction_coef(sema *S, const scope *sc, const char *name, const ast *call, sval v)
{
    if (call->kind == AST_NAME) { /* a law with all defaults */
        ast *c = ast_new(S->arena, AST_CALL, call->loc);
        c->name = call->name;
        call = c;
    }
    elem el = {.name = (char *)name};
    sema_elem_add_qty(&el, "v", v);
    sema_friction_v2(S, &el, -1);
    sema_elem_add_qty(&el, "N", sval_num(ex_const(S->pool, 1), DIM_N));
    int ny = S->m->y.n, nd = S->m->d.n;
    sval f = instantiate(S, sc, &el, call, LAW_FRICTION);
    free(el.q);
    if (f.k != V_ERR && (S->m->y.n != ny || S->m->d.n != nd)) {
        diag_error(S->dc, call->loc, "friction law '%s' has states; an interface takes a law of "
                                     "the slip velocity (and time) only, like coulomb_tanh or "
                                     "stribeck_rill", call->name);
        return sval_err;
    }
    return f.k == V_ERR ? f : sval_num(f.e, units_none); /* force / (1 N) */
}

static const ast *law_call(sema *S, const ast *setting)
{
    const ast *v = setting->kids[0];
    if (v->kind == AST_CALL)
        return v;
    if (v->kind == AST_NAME) /* a law with all defaults, written without parentheses */
        return v;
    diag_error(S->dc, v->loc, "expected a law, like 'law = lugre(...)'");
    return NULL;
}

/* See core.h. */
sval sema_law_force(sema *S, const scope *sc, elem *el, const ast *setting, int kind)
{
    const ast *call = law_call(S, setting);
    if (!call)
        return sval_err;
    if (call->kind == AST_NAME) {
        ast *c = ast_new(S->arena, AST_CALL, call->loc);
        c->name = call->name;
        call = c;
    }
    return instantiate(S, sc, el, call, kind);
}
