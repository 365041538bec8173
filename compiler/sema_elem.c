/*
 * sema_elem.c: elements (spring, damper, friction, contact, force) and the
 * instantiation of laws written in the language.
 *
 * Sign convention: an element between dofs a and b has the relative
 * displacement s = x_a - x_b and velocity v = v_a - v_b; its force F acts as
 * -F on a and +F on b (F > 0 resists s growing). A contact element's gap is
 * gap0 - s, and its force is pressure * area.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sema_int.h"
#include "alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_MS = {{0, 6, -6, 0, 0}};
static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};
static const jnt_dim DIM_PA = {{6, -6, -12, 0, 0}};
static const jnt_dim DIM_M2 = {{0, 12, 0, 0, 0}};
static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};
static const jnt_dim DIM_PS = {{0, 0, -6, 0, 0}};

static void add_qty(elem *el, const char *name, sval v)
{
    XGROW(el->q, el->capq, el->nq);
    el->q[el->nq++] = (qty){name, v};
}

/* Set the element's first quantity `name` (a law's input) to v. */
static void set_qty(elem *el, const char *name, sval v)
{
    for (int i = 0; i < el->nq; i++)
        if (strcmp(el->q[i].name, name) == 0) {
            el->q[i].val = v;
            return;
        }
    add_qty(el, name, v);
}

/* ---- law instantiation -------------------------------------------------------------- */

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
                add_qty(L->el, "F_eq", L->feq);
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
        add_qty(el, L->pdecl[i]->name, L->pval[i]);
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
            add_qty(el, ast_strdup(S->arena, dn, strlen(dn)), dv);
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
        add_qty(el, lc->name, lc->stmt->kind == AST_LET ? eval_local(S, L, lc) : lc->val);
    }
    jnt_dim rdim = strcmp(result->name, "pressure") == 0 ? DIM_PA : DIM_N;
    res = sema_num_dim(S, &L->frame, result->kids[0], rdim, kind == LAW_CONTACT
                                                                ? "the result of a contact law"
                                                                : "the force of a law");
    if (err)
        res = sval_err;
    if (res.k != V_ERR)
        add_qty(el, result->name, res);
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

/* See sema_int.h. */
sval sema_friction_coef(sema *S, const scope *sc, const char *name, const ast *call, sval v)
{
    if (call->kind == AST_NAME) { /* a law with all defaults */
        ast *c = ast_new(S->arena, AST_CALL, call->loc);
        c->name = call->name;
        call = c;
    }
    elem el = {.name = (char *)name};
    add_qty(&el, "v", v);
    add_qty(&el, "N", sval_num(ex_const(S->pool, 1), DIM_N));
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

/* ---- elements ---------------------------------------------------------------------- */

static const char *elem_kind_name(int k)
{
    switch (k) {
    case ELEM_SPRING: return "spring";
    case ELEM_DAMPER: return "damper";
    case ELEM_FRICTION: return "friction";
    case ELEM_CONTACT: return "contact";
    default: return "force";
    }
}

/* An element's endpoint: a dof, the ground, a marker (of a rigid body, or a
 * point (x, y) of the ground) or a joint. */
enum { END_ERR, END_DOF, END_GROUND, END_MARKER, END_JOINT };
typedef struct end {
    int kind, id;
} end;

static end endpoint(sema *S, const scope *sc, const ast *n, const char *owner)
{
    if (n->kind == AST_GROUND) /* KIND NAME on X: the other end is the ground */
        return (end){END_GROUND, -1};
    if (n->kind == AST_TUPLE) {
        int m = sema_mb_ground_point(S, n, owner);
        return (end){m >= 0 ? END_MARKER : END_ERR, m};
    }
    sval v = sema_eval(S, sc, n);
    if (v.k == V_DOF)
        return (end){END_DOF, v.id};
    if (v.k == V_GROUND)
        return (end){END_GROUND, -1};
    if (v.k == V_MARKER)
        return (end){END_MARKER, v.id};
    if (v.k == V_JOINT)
        return (end){END_JOINT, v.id};
    if (v.k == V_BODY && S->bodies[v.id].ndof == 1)
        return (end){END_DOF, S->bodies[v.id].dof0};
    if (v.k != V_ERR)
        diag_error(S->dc, n->loc, "expected a degree of freedom (like 'block.x'), a marker or a "
                                  "ground, but this is %s", sema_kind_name(S, v));
    return (end){END_ERR, -1};
}

/* The settings an element kind accepts, with their dimensions. */
typedef struct setting_spec {
    const char *name;
    const jnt_dim *dim; /* NULL: a law call */
} setting_spec;

/* "radius", last of each kind, is for elements on revolute joints */
static const setting_spec spring_set[] = {{"stiffness", NULL}, {"length", &DIM_M}, {"law", NULL},
                                         {"radius", &DIM_M}, {0, 0}};
static const setting_spec damper_set[] = {{"damping", NULL}, {"law", NULL}, {"radius", &DIM_M},
                                         {0, 0}};
static const setting_spec friction_set[] = {{"normal", &DIM_N}, {"law", NULL}, {"area", &DIM_M2},
                                           {"steps", NULL}, {"radii", NULL}, {"radius", &DIM_M},
                                           {0, 0}};
static const setting_spec contact_set[] = {{"law", NULL}, {"area", &DIM_M2}, {"gap0", &DIM_M},
                                          {"form", NULL}, {"steps", NULL}, {"clearance", NULL},
                                          {"radius", &DIM_M}, {0, 0}};

/* Collect an element's settings by name; unknown and repeated ones are errors. */
static int gather_settings(sema *S, const ast *decl, int first, const setting_spec *spec,
                           const ast **found)
{
    int err = 0, nspec = 0;
    while (spec[nspec].name)
        nspec++;
    for (int i = first; i < decl->nkids; i++) {
        const ast *st = decl->kids[i];
        int k = -1;
        for (int j = 0; j < nspec; j++)
            if (strcmp(spec[j].name, st->name) == 0)
                k = j;
        if (k < 0) {
            const char *c[8];
            for (int j = 0; j < nspec; j++)
                c[j] = spec[j].name;
            const char *best = jnt_closest_name(st->name, c, nspec);
            char list[160] = "";
            for (int j = 0; j < nspec; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s'%s'", j ? ", " : "", c[j]);
            if (best)
                diag_error(S->dc, st->loc, "unknown setting '%s' of a %s; did you mean '%s'?", st->name,
                           elem_kind_name(decl->op), best);
            else
                diag_error(S->dc, st->loc, "unknown setting '%s' of a %s (it has %s)", st->name,
                           elem_kind_name(decl->op), list);
            err = 1;
        } else if (found[k]) {
            diag_error(S->dc, st->loc, "setting '%s' is given twice", st->name);
            err = 1;
        } else {
            found[k] = st;
        }
    }
    return err ? -1 : 0;
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

static sval law_force(sema *S, const scope *sc, elem *el, const ast *setting, int kind)
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

/* The dof an element between two markers, or on a joint, acts on (see
 * sema_mb_length, sema_mb_joint_coord); -2 after an error. *normal: a
 * friction element's default normal force, the joint's reaction. */
static int planar_dof(sema *S, const scope *sc, elem *el, end ea, end eb, const ast *radius,
                      const ast *radii, sval *normal)
{
    const ast *decl = el->decl;
    const char *kname = elem_kind_name(decl->op);
    if (ea.kind == END_JOINT || eb.kind == END_JOINT) {
        if (ea.kind != END_JOINT || eb.kind != END_GROUND || decl->kids[1]->kind != AST_GROUND) {
            diag_error(S->dc, decl->loc, "an element acts on a joint's motion as '%s %s on JOINT "
                                         "{ ... }'", kname, el->name);
            return -2;
        }
        const joint *j = &S->joints[ea.id];
        if (j->d3 && j->kind != JOINT_PRISMATIC && j->kind != JOINT_REVOLUTE) {
            diag_error(S->dc, decl->kids[0]->loc, "elements act on spatial revolute and prismatic "
                                                  "joints (not on '%s', a %s joint)", j->name,
                       j->decl->str);
            return -2;
        }
        if (j->d3 && j->kind == JOINT_REVOLUTE && decl->op == ELEM_SPRING) {
            diag_error(S->dc, decl->loc, "a spring on the spatial revolute joint '%s' would see "
                                         "its angle wrap at +-pi; dampers and friction act on its "
                                         "speed", j->name);
            return -2;
        }
        if (j->kind == JOINT_FIXED) {
            diag_error(S->dc, decl->kids[0]->loc, "joint '%s' is fixed: nothing moves in it",
                       j->name);
            return -2;
        }
        ex_id r = -1;
        if (j->kind == JOINT_REVOLUTE) {
            if (!radius) {
                diag_error(S->dc, decl->loc, "%s '%s' on the revolute joint '%s' needs its "
                                             "'radius' (the slip is radius * angle)", kname,
                           el->name, j->name);
                return -2;
            }
            sval rv = sema_num_dim(S, sc, radius->kids[0], DIM_M, "the radius");
            if (rv.k == V_ERR)
                return -2;
            r = rv.e;
        } else if (radius) {
            diag_error(S->dc, radius->loc, "'radius' is for revolute joints: a prismatic joint "
                                           "slides by its coordinate s");
            return -2;
        }
        if (sema_joint_member(S, ea.id, "reaction", decl->loc, normal) != 0)
            return -2;
        el->joint = ea.id;
        return sema_mb_joint_coord(S, ea.id, r, el->name);
    }
    if (decl->kids[1]->kind == AST_GROUND) {
        diag_error(S->dc, decl->kids[0]->loc, "'%s %s on X' acts on the motion of a joint X; "
                                              "elsewhere write '%s %s between A and B'", kname,
                   el->name, kname, el->name);
        return -2;
    }
    if (ea.kind != END_MARKER || eb.kind != END_MARKER) {
        diag_error(S->dc, decl->loc, "%s '%s' between a marker and %s: an element between markers "
                                     "acts along the line between them; its other end is a "
                                     "marker or a point (x, y) of the ground", kname, el->name,
                   (ea.kind == END_MARKER ? eb : ea).kind == END_GROUND ? "the ground"
                                                                       : "a degree of freedom");
        return -2;
    }
    if (radii) {
        /* friction in a clearance joint: the races' slip (seed 001 eqs. 5-6) */
        ex_id r[2];
        if (ea.kind != END_MARKER || eb.kind != END_MARKER ||
            S->markers[ea.id].d3 != S->markers[eb.id].d3) {
            diag_error(S->dc, radii->loc, "'radii' is for friction between two markers (both "
                                          "planar or both spatial), the centres of a clearance "
                                          "joint's races");
            return -2;
        }
        if (sema_mb_pair(S, sc, radii->kids[0], DIM_M, "'radii' (the first marker's race, the "
                         "second's)", r) != 0)
            return -2;
        return sema_mb_clearance_slip(S, ea.id, eb.id, r[0], r[1], el->name);
    }
    if (decl->op != ELEM_SPRING && decl->op != ELEM_DAMPER && decl->op != ELEM_CONTACT) {
        diag_error(S->dc, decl->loc, "between markers, springs, dampers and contacts act along "
                                     "the line between them; a %s needs a direction: put it on a "
                                     "joint ('%s %s on JOINT') or between coordinates", kname,
                   kname, el->name);
        return -2;
    }
    if (radius) {
        diag_error(S->dc, radius->loc, "'radius' is for elements on revolute joints");
        return -2;
    }
    /* two markers of one rigid body never move apart (a flexible body's do) */
    if (S->markers[ea.id].d3 != S->markers[eb.id].d3) {
        diag_error(S->dc, decl->loc, "%s '%s' connects a spatial marker to a planar one (a point "
                                     "of the ground is (x, y, z) in a spatial model)", kname,
                   el->name);
        return -2;
    }
    int ba = S->markers[ea.id].body;
    if (ea.id == eb.id || (ba >= 0 && ba == S->markers[eb.id].body && !S->bodies[ba].flex)) {
        diag_error(S->dc, decl->loc, "%s '%s' connects two points of the same body", kname,
                   el->name);
        return -2;
    }
    if (el->ec)
        return sema_mb_ec_length(S, ea.id, eb.id, el->name, &el->qi, &el->qf);
    return sema_mb_length(S, ea.id, eb.id, el->name);
}

/* The energy-consistent contact force of seed 001 Sect. 2.5 between the
 * gaps qi and qf of a step: f_m = (V(q_f) - V(q_i)) / (q_f - q_i), V' = -f
 * for the law's force f(q), as the mean of f over [q_i, q_f]: three-point
 * Gauss-Legendre on each side of q = 0 (where contact laws kink), exact for
 * piecewise polynomials of degree 5 (the linear and the quadratic-linear
 * penalties), to the quadrature's error otherwise. The law is instantiated
 * at each node (with its gap set there); it must have no states. */
static sval ec_force(sema *S, const scope *sc, elem *el, const ast *law, ex_id g0)
{
    static const double x[3] = {-0.7745966692414834, 0, 0.7745966692414834};
    static const double w[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    ex_pool *P = S->pool;
    ex_id qi = ex_op2(P, EX_SUB, g0, el->qi), qf = ex_op2(P, EX_SUB, g0, el->qf);
    ex_id a = ex_op2(P, EX_MIN, qi, qf), b = ex_op2(P, EX_MAX, qi, qf);
    ex_id c = ex_op2(P, EX_MAX, ex_op2(P, EX_MIN, ex_const(P, 0), b), a);
    ex_id ends[3] = {a, c, b}, sum = ex_const(P, 0), mid = -1;
    jnt_dim dim = DIM_N;
    int ny = S->m->y.n, nd = S->m->d.n;
    for (int k = 0; k < 7; k++) { /* 6 nodes, then the midpoint */
        ex_id lo = k < 6 ? ends[k / 3] : qi, hi = k < 6 ? ends[k / 3 + 1] : qf;
        ex_id g = ex_op2(P, EX_MUL, ex_const(P, 0.5), ex_op2(P, EX_ADD, lo, hi));
        if (k < 6)
            g = ex_op2(P, EX_ADD, g, ex_op2(P, EX_MUL, ex_const(P, 0.5 * x[k % 3]),
                                            ex_op2(P, EX_SUB, hi, lo)));
        set_qty(el, "gap", sval_num(g, DIM_M));
        sval r = law_force(S, sc, el, law, LAW_CONTACT);
        if (r.k == V_ERR)
            return r;
        if (S->m->y.n != ny || S->m->d.n != nd) {
            diag_error(S->dc, law->loc, "the energy-consistent form takes a contact law without "
                                        "states (a force of the gap), like penalty or hertz");
            return sval_err;
        }
        dim = r.dim;
        if (k < 6)
            sum = ex_op2(P, EX_ADD, sum, ex_op2(P, EX_MUL, ex_op2(P, EX_MUL, ex_const(P, w[k % 3] / 2),
                                                                ex_op2(P, EX_SUB, hi, lo)), r.e));
        else
            mid = r.e;
    }
    /* the mean; the law at the midpoint when the step hardly moves */
    ex_id len = ex_op2(P, EX_SUB, b, a);
    ex_id tiny = ex_op2(P, EX_MUL, ex_const(P, 1e-13),
                        ex_op2(P, EX_ADD, ex_op1(P, EX_ABS, a), ex_op1(P, EX_ABS, b)));
    ex_id fm = ex_if(P, ex_op2(P, EX_GT, len, tiny),
                     ex_op2(P, EX_DIV, sum, ex_op2(P, EX_MAX, len, ex_const(P, 1e-300))), mid);
    set_qty(el, "gap", sval_num(ex_op2(P, EX_MUL, ex_const(P, 0.5), ex_op2(P, EX_ADD, qi, qf)),
                                DIM_M));
    return sval_num(fm, dim);
}

/* ---- step control (seed 001 eqs. 19-20 and 33) --------------------------------------- */

static const arg_spec contact_steps_args[] = {
    {"eps_p", &DIM_M, NAN, NULL, 0}, {"qbar_min", &units_none, 5, NULL, 0},
    {"alpha", &units_none, 1.2, NULL, 0},
};
static const arg_spec friction_steps_args[] = {
    {"dtau_min", &units_none, 0.02, NULL, 0}, {"vhat_min", &units_none, 5, NULL, 0},
    {"alpha", &units_none, 1.2, NULL, 0}, {"omega", &DIM_PS, 0, NULL, 0},
};

/* The element's quantity `name` (a law parameter), or -1. */
static ex_id qty_expr(const elem *el, const char *name)
{
    for (int i = el->nq - 1; i >= 0; i--)
        if (strcmp(el->q[i].name, name) == 0 && el->q[i].val.k == V_NUM)
            return el->q[i].val.e;
    return -1;
}

/* See sema_int.h. */
ex_id sema_at_init(sema *S, ex_id e)
{
    ex_pool *P = S->pool;
    if (ex_depends(P, e, EX_UP, -1) || ex_depends(P, e, EX_UV, -1) || ex_depends(P, e, EX_D, -1))
        return -1;
    ex_id *repl = xmalloc(((size_t)S->m->y.n + 1) * sizeof *repl);
    for (int i = 0; i < S->m->y.n; i++)
        repl[i] = S->m->y.v[i].init;
    ex_id r = ex_subst(P, e, EX_Y, repl);
    free(repl);
    return r;
}

/* See sema_int.h. */
void sema_defer_init(sema *S, int d, ex_id e)
{
    XGROW(S->dinit_d, S->capdinit, S->ndinit);
    S->dinit_e = xrealloc(S->dinit_e, (size_t)S->capdinit * sizeof *S->dinit_e);
    S->dinit_d[S->ndinit] = d;
    S->dinit_e[S->ndinit++] = e;
}

/* See sema_int.h. */
void sema_init_finish(sema *S)
{
    for (int i = 0; i < S->ndinit; i++) {
        ex_id v = sema_at_init(S, S->dinit_e[i]);
        if (v >= 0)
            S->m->d.v[S->dinit_d[i]].init = v;
    }
}

/* A discrete state of element el for step control, updated to upd and
 * starting at init (-1: the run's start time, set by sema_steps_finish). */
static ex_id step_state(sema *S, elem *el, const char *what, jnt_dim dim, ex_id upd, ex_id init)
{
    int d = ir_add(&S->m->d, xasprintf("%s.%s", el->name, what), -1, ex_const(S->pool, 0), dim,
                   el->decl->loc);
    S->m->d.v[d].rhs = upd;
    if (init >= 0) {
        sema_defer_init(S, d, init);
    } else {
        XGROW(S->step_t, S->capstep_t, S->nstep_t);
        S->step_t[S->nstep_t++] = d;
    }
    return ex_var(S->pool, EX_D, d);
}

/* `steps = contact_steps(eps_p, qbar_min, alpha)` on a contact, or
 * `steps = friction_steps(dtau_min, vhat_min, alpha, omega)` on a friction
 * element: the step the element proposes after each step, the member
 * `step`; the model's next step is the least proposal (sema_steps_finish).
 * Contact (eqs. 19-20): with q1 the gap at this step end, q0 at the one
 * before, Dt1 and Dt0 the last two steps,
 *   kappa = (q1 / eps_p) / qbar_min,  Dq = eps_p (kappa <= 1 ? 1 : kappa^alpha),
 *   Dt = Dq / |v_m|,  v_m = 2 (q1 - q0) / (Dt0 + Dt1)
 * (q1 with its sign: in contact kappa < 0 and Dq = eps_p). Friction (eq.
 * 33): nu = (|v| / v_s) / vhat_min, Omega Dt = dtau_min (nu <= 1 ? 1 :
 * nu^alpha), Omega = sigma0 v_s / mu_k of the element's LuGre law unless
 * given. Before the run has two step ends its start stands for the missing
 * one (q0 the initial gap, t0 = t1 = the start: v_m twice the first step's
 * mean rate), and the first step is the rule's at the initial state with
 * v_m the initial gap rate (parameters only when the element's gap is). */
static void step_control(sema *S, elem *el, const ast *st, int contact)
{
    ex_pool *P = S->pool;
    const ast *call = st->kids[0];
    const char *want = contact ? "contact_steps" : "friction_steps";
    if (call->kind != AST_CALL || strcmp(call->name, want) != 0) {
        diag_error(S->dc, st->loc, "'steps' of a %s is %s", contact ? "contact" : "friction",
                   contact ? "contact_steps(eps_p = 3 um, qbar_min = 5, alpha = 1.2)"
                           : "friction_steps(dtau_min = 0.02, vhat_min = 5, alpha = 1.2)");
        return;
    }
    double v[4];
    if (sema_bind_args(S, call, 0, call->nkids, contact ? contact_steps_args : friction_steps_args,
                       contact ? 3 : 4, want, v, NULL) != 0)
        return;
    ex_set_loc(P, st->loc);
    ex_id t = ex_var(P, EX_T, 0), big = ex_const(P, 1e30), prop, prop0;
    if (contact) {
        ex_id q = qty_expr(el, "gap");
        if (!(v[0] > 0) || q < 0) {
            diag_error(S->dc, call->loc, "contact_steps needs eps_p > 0 (a characteristic "
                                         "penetration, seed 001 eq. 19)");
            return;
        }
        ex_id gv = qty_expr(el, "gapv");
        ex_id t1 = step_state(S, el, "steps_t1", DIM_S, t, -1);
        ex_id t0 = step_state(S, el, "steps_t0", DIM_S, t1, -1);
        ex_id q0 = step_state(S, el, "steps_q", DIM_M, q, q);
        ex_id vm = ex_op2(P, EX_DIV, ex_op2(P, EX_MUL, ex_const(P, 2), ex_op2(P, EX_SUB, q, q0)),
                          ex_op2(P, EX_MAX, ex_op2(P, EX_SUB, t, t0), ex_const(P, 1e-300)));
        ex_id dq = ex_op2(P, EX_MUL, ex_const(P, v[0]),
                          ex_op2(P, EX_MAX, ex_const(P, 1),
                                 ex_op2(P, EX_POW, ex_op2(P, EX_MAX, ex_op2(P, EX_DIV, q, ex_const(P, v[0] * v[1])),
                                                          ex_const(P, 1)), ex_const(P, v[2]))));
        prop = ex_op2(P, EX_DIV, dq, ex_op2(P, EX_MAX, ex_op1(P, EX_ABS, vm),
                                          ex_op2(P, EX_DIV, dq, big)));
        prop0 = gv >= 0 ? ex_op2(P, EX_DIV, dq, ex_op2(P, EX_MAX, ex_op1(P, EX_ABS, gv),
                                                     ex_op2(P, EX_DIV, dq, big)))
                        : big;
    } else {
        ex_id vv = qty_expr(el, "v"), om = ex_const(P, v[3]);
        ex_id s0 = qty_expr(el, "sigma0"), vs = qty_expr(el, "v_s"), mk = qty_expr(el, "mu_k");
        if (!(v[3] > 0)) {
            if (s0 < 0 || vs < 0 || mk < 0) {
                diag_error(S->dc, call->loc, "friction_steps needs 'omega' (1/s), the inverse "
                                             "time constant, unless the law has sigma0, v_s and "
                                             "mu_k (LuGre: omega = sigma0 v_s / mu_k)");
                return;
            }
            om = ex_op2(P, EX_DIV, ex_op2(P, EX_MUL, s0, vs), mk);
        }
        if (vs < 0) {
            diag_error(S->dc, call->loc, "friction_steps needs a law with the Stribeck velocity "
                                         "v_s (nu = (|v| / v_s) / vhat_min, seed 001 eq. 33)");
            return;
        }
        ex_id nu = ex_op2(P, EX_DIV, ex_op1(P, EX_ABS, vv), ex_op2(P, EX_MUL, vs, ex_const(P, v[1])));
        ex_id f = ex_if(P, ex_op2(P, EX_LE, nu, ex_const(P, 1)), ex_const(P, 1),
                        ex_op2(P, EX_POW, nu, ex_const(P, v[2])));
        prop = ex_op2(P, EX_DIV, ex_op2(P, EX_MUL, ex_const(P, v[0]), f), om);
        prop0 = prop;
    }
    add_qty(el, "step", sval_num(prop, DIM_S));
    if (S->nsteps == 0)
        S->steps_loc = st->loc;
    XGROW(S->steps, S->capsteps, S->nsteps);
    S->steps0 = xrealloc(S->steps0, (size_t)S->capsteps * sizeof *S->steps0);
    S->steps0[S->nsteps] = prop0; /* evaluated at the initial state by sema_steps_finish */
    S->steps[S->nsteps++] = prop;
}

/* See sema_int.h. */
void sema_steps_finish(sema *S)
{
    if (!S->nsteps)
        return;
    if (!S->multibody) {
        diag_error(S->dc, S->steps_loc, "step control ('steps' of a contact or a friction) is "
                                         "for multibody models (their integrators midpoint, "
                                         "hht, generalized_alpha)");
        return;
    }
    if (S->m->integrator && !strcmp(S->m->integrator, "radau5")) {
        diag_error(S->dc, S->steps_loc, "step control is taken by the integrators midpoint, hht "
                                        "and generalized_alpha, not by radau5 (whose steps follow "
                                        "its error estimate)");
        return;
    }
    ex_pool *P = S->pool;
    ex_id h = ex_const(P, 1e30), h0 = h;
    for (int i = 0; i < S->nsteps; i++) {
        h = ex_op2(P, EX_MIN, h, S->steps[i]);
        ex_id p0 = sema_at_init(S, S->steps0[i]);
        h0 = ex_op2(P, EX_MIN, h0, p0 >= 0 ? p0 : ex_const(P, 1e30));
    }
    int d = ir_add(&S->m->d, xstrdup(JNT_STEP_STATE), -1, h0, DIM_S, loc_none);
    S->m->d.v[d].rhs = h;
    for (int i = 0; i < S->nstep_t; i++) /* the time states start at the run's start */
        S->m->d.v[S->step_t[i]].init = S->m->t0;
}

/* `clearance = cylinder(rho_k, rho_l, axis)` of a contact between spatial
 * markers A (the disk's centre) and B (the cylinder's): the dof of
 * sema_mb_cylinder_gap, or -2 after an error. */
static int cylinder_dof(sema *S, const scope *sc, elem *el, end ea, end eb, const ast *st,
                        const ast *gap0, const ast *form)
{
    const ast *call = st->kids[0], *axis = NULL;
    if (call->kind != AST_CALL || strcmp(call->name, "cylinder") != 0) {
        diag_error(S->dc, st->loc, "'clearance' is cylinder(rho_k = ..., rho_l = ..., axis = "
                                   "(x, y, z)): seed 001's spatial clearance joint");
        return -2;
    }
    if (ea.kind != END_MARKER || eb.kind != END_MARKER || !S->markers[ea.id].d3 ||
        !S->markers[eb.id].d3) {
        diag_error(S->dc, st->loc, "a cylinder clearance is between two spatial markers: the "
                                   "disk's centre and the cylinder's");
        return -2;
    }
    if (gap0 || (form && el->ec)) {
        diag_error(S->dc, (gap0 ? gap0 : form)->loc, gap0
                   ? "a cylinder clearance's gap comes from its radii: no 'gap0'"
                   : "the energy-consistent form is for the spherical clearance joint; seed 001's "
                     "eq. 15 is exact for the cylinder only at an unchanged contact angle "
                     "(docs/contact.md)");
        return -2;
    }
    ex_id rho[2] = {-1, -1};
    for (int i = 0; i < call->nkids; i++) {
        const ast *a = call->kids[i];
        int k = a->kind != AST_ARG ? -1 : !strcmp(a->name, "rho_k") ? 0
              : !strcmp(a->name, "rho_l") ? 1 : !strcmp(a->name, "axis") ? 2 : -1;
        if (k < 0) {
            diag_error(S->dc, a->loc, "cylinder takes rho_k, rho_l and axis, by name");
            return -2;
        }
        if (k == 2) {
            axis = a->kids[0];
            continue;
        }
        sval v = sema_num_dim(S, sc, a->kids[0], DIM_M, k ? "rho_l" : "rho_k");
        if (v.k != V_NUM)
            return -2;
        rho[k] = v.e;
    }
    if (rho[0] < 0 || rho[1] < 0) {
        diag_error(S->dc, call->loc, "cylinder needs rho_k (the cylinder's radius) and rho_l "
                                     "(the disk's)");
        return -2;
    }
    int d = sema_mb_cylinder_gap(S, ea.id, eb.id, rho[0], rho[1], axis, el->name);
    return d < 0 ? -2 : d;
}

static void eval_element(sema *S, const scope *sc, elem *el)
{
    const ast *decl = el->decl;
    int kind = decl->op;
    end ea = endpoint(S, sc, decl->kids[0], el->name);
    end eb = endpoint(S, sc, decl->kids[1], el->name);
    if (ea.kind == END_ERR || eb.kind == END_ERR)
        return;
    const setting_spec *spec = kind == ELEM_SPRING ? spring_set : kind == ELEM_DAMPER ? damper_set
                             : kind == ELEM_FRICTION ? friction_set : contact_set;
    const ast *found[8] = {0};
    if (gather_settings(S, decl, 2, spec, found) != 0)
        return;
    int nspec = 0;
    while (spec[nspec].name)
        nspec++;
    const ast *radius = found[nspec - 1]; /* the last setting of each kind */
    sval jnormal = sval_err;
    if (kind == ELEM_CONTACT && found[3]) {
        const ast *fm = found[3]->kids[0];
        el->ec = fm->kind == AST_NAME && !strcmp(fm->name, "energy_consistent");
        if (!el->ec && !(fm->kind == AST_NAME && !strcmp(fm->name, "plain"))) {
            diag_error(S->dc, fm->loc, "'form' is 'plain' (the law at the state) or "
                                       "'energy_consistent' (seed 001 Sect. 2.5, for the midpoint "
                                       "rule)");
            return;
        }
        if (el->ec && (ea.kind != END_MARKER || eb.kind != END_MARKER)) {
            diag_error(S->dc, fm->loc, "the energy-consistent form is for contacts between two "
                                       "markers (a clearance joint)");
            return;
        }
    }
    el->a = ea.kind == END_DOF ? ea.id : -1;
    el->b = eb.kind == END_DOF ? eb.id : -1;
    if (kind == ELEM_CONTACT && found[5]) {
        el->a = cylinder_dof(S, sc, el, ea, eb, found[5], found[2], found[3]);
        el->b = -1;
        if (el->a == -2)
            return;
    } else if (ea.kind >= END_MARKER || eb.kind >= END_MARKER ||
               decl->kids[1]->kind == AST_GROUND) {
        el->a = planar_dof(S, sc, el, ea, eb, radius, kind == ELEM_FRICTION ? found[4] : NULL,
                           &jnormal);
        el->b = -1;
        if (el->a == -2)
            return;
    } else if (radius || (kind == ELEM_FRICTION && found[4])) {
        diag_error(S->dc, (radius ? radius : found[4])->loc, radius
                   ? "'radius' is for elements on revolute joints"
                   : "'radii' is for friction between two markers, the centres of a "
                     "clearance joint's races");
        return;
    }
    if (el->a == -1 && el->b == -1) {
        diag_error(S->dc, decl->loc, "%s '%s' connects the ground to itself", elem_kind_name(kind),
                   el->name);
        return;
    }
    if (el->a >= 0 && el->a == el->b) {
        diag_error(S->dc, decl->kids[1]->loc, "%s '%s' connects '%s' to itself", elem_kind_name(kind),
                   el->name, S->dofs[el->a].name);
        return;
    }
    ex_pool *P = S->pool;
    ex_id xa = el->a >= 0 ? S->dofs[el->a].pos : ex_const(P, 0);
    ex_id xb = el->b >= 0 ? S->dofs[el->b].pos : ex_const(P, 0);
    ex_id va = el->a >= 0 ? S->dofs[el->a].vel : ex_const(P, 0);
    ex_id vb = el->b >= 0 ? S->dofs[el->b].vel : ex_const(P, 0);
    ex_set_loc(P, decl->loc);
    sval s = sval_num(ex_op2(P, EX_SUB, xa, xb), DIM_M);
    sval v = sval_num(ex_op2(P, EX_SUB, va, vb), DIM_MS);
    sval f = sval_err;
    const jnt_dim k_dim = units_div(DIM_N, DIM_M), c_dim = units_div(DIM_N, DIM_MS);
    if (kind == ELEM_SPRING || kind == ELEM_DAMPER) {
        const ast *coef = found[0], *law = kind == ELEM_SPRING ? found[2] : found[1];
        add_qty(el, "s", s);
        add_qty(el, "v", v);
        if (!!coef == !!law) {
            diag_error(S->dc, decl->loc, "%s '%s' needs either '%s = ...' or 'law = ...'",
                       elem_kind_name(kind), el->name, spec[0].name);
            return;
        }
        if (law) {
            f = law_force(S, sc, el, law, LAW_FORCE);
        } else if (kind == ELEM_SPRING) {
            sval k = sema_num_dim(S, sc, coef->kids[0], k_dim, "the stiffness");
            sval L = found[1] ? sema_num_dim(S, sc, found[1]->kids[0], DIM_M, "the length")
                              : sval_num(ex_const(P, 0), DIM_M);
            if (k.k == V_ERR || L.k == V_ERR)
                return;
            f = sval_num(ex_op2(P, EX_MUL, k.e, ex_op2(P, EX_SUB, s.e, L.e)), DIM_N);
        } else {
            sval c = sema_num_dim(S, sc, coef->kids[0], c_dim, "the damping");
            if (c.k == V_ERR)
                return;
            f = sval_num(ex_op2(P, EX_MUL, c.e, v.e), DIM_N);
        }
    } else if (kind == ELEM_FRICTION) {
        if (!found[1]) {
            diag_error(S->dc, decl->loc, "friction '%s' needs 'law = ...'", el->name);
            return;
        }
        add_qty(el, "s", s);
        add_qty(el, "v", v);
        /* without 'normal', a law that uses N fails with an unknown name; with an
         * 'area' too, a law may use the contact pressure p = N / area */
        if (found[0] || jnormal.k == V_NUM) {
            sval N = found[0] ? sema_num_dim(S, sc, found[0]->kids[0], DIM_N, "the normal force")
                              : jnormal;
            if (N.k == V_ERR)
                return;
            add_qty(el, "N", N);
            if (found[2]) {
                sval A = sema_num_dim(S, sc, found[2]->kids[0], DIM_M2, "the area");
                if (A.k == V_ERR)
                    return;
                add_qty(el, "area", A);
                add_qty(el, "p", sval_num(ex_op2(P, EX_DIV, N.e, A.e), DIM_PA));
            }
        } else if (found[2]) {
            diag_error(S->dc, found[2]->loc, "'area' needs 'normal' (p = normal / area)");
            return;
        }
        f = law_force(S, sc, el, found[1], LAW_FRICTION);
    } else {
        if (!found[0]) {
            diag_error(S->dc, decl->loc, "contact '%s' needs 'law = ...'", el->name);
            return;
        }
        sval g0 = found[2] ? sema_num_dim(S, sc, found[2]->kids[0], DIM_M, "the initial gap")
                           : sval_num(ex_const(P, 0), DIM_M);
        sval area = found[1] ? sema_num_dim(S, sc, found[1]->kids[0], DIM_M2, "the area") : sval_err;
        if (g0.k == V_ERR || (found[1] && area.k == V_ERR))
            return;
        add_qty(el, "gap", sval_num(ex_op2(P, EX_SUB, g0.e, s.e), DIM_M));
        add_qty(el, "gapv", sval_num(ex_op1(P, EX_NEG, v.e), DIM_MS));
        sval r = el->ec ? ec_force(S, sc, el, found[0], g0.e)
                        : law_force(S, sc, el, found[0], LAW_CONTACT);
        if (r.k == V_ERR)
            return;
        if (units_equal(r.dim, DIM_PA)) {
            if (!found[1]) {
                diag_error(S->dc, decl->loc, "contact '%s' has a pressure law and needs 'area = ...'",
                           el->name);
                return;
            }
            f = sval_num(ex_op2(P, EX_MUL, r.e, area.e), DIM_N);
        } else {
            f = r;
        }
    }
    if (f.k == V_ERR)
        return;
    el->force = f;
    if (kind != ELEM_FRICTION) /* a friction law's result is its force already */
        add_qty(el, "force", f);
    const ast *steps = found[kind == ELEM_FRICTION ? 3 : 4];
    if (steps && (kind == ELEM_FRICTION || kind == ELEM_CONTACT))
        step_control(S, el, steps, kind == ELEM_CONTACT);
}

/* Evaluate an element once (lazily: elements may refer to each other). */
void sema_eval_elem(sema *S, int ei)
{
    elem *el = &S->elems[ei];
    if (el->done)
        return;
    if (el->busy) {
        diag_error(S->dc, el->decl->loc, "'%s' depends on itself", el->name);
        return;
    }
    el->busy = 1;
    el->force = sval_err;
    scope isc = {.up = &S->global, .iname = el->iname, .ival = el->ival};
    const scope *sc = el->iname ? &isc : &S->global;
    if (el->kind == ELEM_FORCEDEF || el->kind == ELEM_MOTION) {
        int motion = el->kind == ELEM_MOTION;
        const char *what = motion ? "a motion" : "a force";
        sval tgt = sema_eval(S, sc, el->decl->kids[0]);
        if (tgt.k == V_BODY && S->bodies[tgt.id].ndof == 1)
            tgt = (sval){V_DOF, -1, units_none, S->bodies[tgt.id].dof0, 0, 0};
        if (tgt.k == V_JOINT && !motion) {
            /* a torque about a revolute joint's axis, a force along a prismatic one's */
            const joint *j = &S->joints[tgt.id];
            if (j->kind != JOINT_REVOLUTE && j->kind != JOINT_PRISMATIC) {
                diag_error(S->dc, el->decl->kids[0]->loc, "a force acts on a revolute joint (a "
                           "torque) or a prismatic one, not on '%s', a %s joint", j->name,
                           j->decl->str);
            } else {
                int pr = j->kind == JOINT_PRISMATIC;
                el->a = sema_mb_joint_coord(S, tgt.id, ex_const(S->pool, 1), el->name);
                el->joint = tgt.id;
                el->force = sema_num_dim(S, sc, el->decl->kids[1], pr ? DIM_N
                                         : units_mul(DIM_N, DIM_M), pr ? "a force" : "a torque");
                if (el->force.k != V_ERR)
                    add_qty(el, "force", el->force);
            }
            el->busy = 0;
            el->done = 1;
            return;
        }
        if (tgt.k == V_DOF) {
            el->a = tgt.id;
            const dof *f = &S->dofs[tgt.id];
            int angle = f->body >= 0 && S->bodies[f->body].rigid &&
                        strcmp(f->short_name, "angle") == 0; /* a torque, in N m */
            if (f->body >= 0 && S->bodies[f->body].rigid3 && f->short_name[0] == 'd')
                diag_error(S->dc, el->decl->kids[0]->loc, "%s on a director of a rigid3d body: "
                           "act on its markers or its centre (x, y, z)", what);
            else
                el->force = sema_num_dim(S, sc, el->decl->kids[1], motion ? DIM_M
                                     : angle ? units_mul(DIM_N, DIM_M) : DIM_N, what);
            if (motion && el->force.k == V_NUM && sema_is_dynamic(S, el->force.e) &&
                !sema_is_time_only(S, el->force.e)) {
                diag_error(S->dc, el->decl->kids[1]->loc,
                           "a motion may use time and parameters only, not states");
                el->force = sval_err;
            }
            if (el->force.k != V_ERR)
                add_qty(el, motion ? "x" : "force", el->force);
        } else if (tgt.k != V_ERR) {
            diag_error(S->dc, el->decl->kids[0]->loc,
                       "%s acts on a degree of freedom (like 'block.x'), but this is %s", what,
                       sema_kind_name(S, tgt));
        }
    } else {
        eval_element(S, sc, el);
    }
    el->busy = 0;
    el->done = 1;
}

/* NAME.q of an element. */
int sema_elem_member(sema *S, int ei, const char *name, jnt_loc loc, sval *out)
{
    sema_eval_elem(S, ei);
    elem *el = &S->elems[ei];
    if (el->force.k == V_ERR && !el->done) {
        *out = sval_err;
        return -1;
    }
    for (int i = el->nq - 1; i >= 0; i--)
        if (strcmp(el->q[i].name, name) == 0) {
            *out = el->q[i].val;
            return out->k == V_ERR ? -1 : 0;
        }
    if (el->force.k == V_ERR) /* its errors were reported already */
        return -1;
    const char **c = xmalloc(((size_t)el->nq + 1) * sizeof *c);
    for (int i = 0; i < el->nq; i++)
        c[i] = el->q[i].name;
    const char *best = jnt_closest_name(name, c, el->nq);
    diag_error(S->dc, loc, "'%s' has no member '%s'%s%s%s", el->name, name,
               best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    free(c);
    return -1;
}

/* Create the instances of an element or force declaration (one per index of
 * an array declaration). */
void sema_declare_elem(sema *S, sym *s)
{
    const ast *d = s->decl;
    long *vals;
    int n = sema_instances(S, s, &vals);
    for (int k = 0; k < n; k++) {
        XGROW(S->elems, S->capelem, S->nelem);
        elem *el = &S->elems[S->nelem];
        *el = (elem){0};
        el->decl = d;
        el->kind = d->kind == AST_FORCE ? ELEM_FORCEDEF : d->kind == AST_MOTION ? ELEM_MOTION : d->op;
        el->name = d->iter ? xasprintf("%s[%ld]", d->name, vals[k]) : xstrdup(d->name);
        el->iname = d->iter ? d->iter->name : NULL;
        el->ival = d->iter ? vals[k] : 0;
        el->a = el->b = el->joint = -1;
        s->inst[k] = S->nelem++;
    }
}
