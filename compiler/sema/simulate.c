/*
 * simulate.c: what the main file says about a run (pass 4): `init`
 * values of states, the `simulate` block (integrator and its options, start,
 * until) and the `output` block (file, interval, columns). Their settings
 * may use parameters, not time or states.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"

static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};

/* The name of an init's target as written (crank.B.vx), for pins. */
static char *target_name(const ast *e)
{
    if (e->kind == AST_NAME)
        return xstrdup(e->name);
    if (e->kind != AST_MEMBER && e->kind != AST_INDEX)
        return xstrdup("?");
    char *base = target_name(e->kids[0]), *s;
    if (e->kind == AST_MEMBER)
        s = xasprintf("%s.%s", base, e->name);
    else if (e->kids[1]->kind == AST_NUM)
        s = xasprintf("%s[%g]", base, e->kids[1]->num);
    else
        s = xasprintf("%s[?]", base);
    free(base);
    return s;
}

/* See passes.h. */
void sema_eval_init(sema *S, const ast *d, unsigned char *seen)
{
    /* a pin (fixed(value), a joint's coordinate: docs/multibody.md) */
    const ast *value = d->kids[1];
    int fixed = sema_init_fixed(S, &value);
    if (fixed < 0 || (S->multibody && sema_mb_init_joint(S, d->kids[0], value) == 0))
        return;
    sval tgt = sema_eval(S, &S->global, d->kids[0]);
    int yi = -1, di = -1;
    if (fixed && S->multibody && tgt.k != V_ERR &&
        ((tgt.k == V_DOF && S->dofs[tgt.id].point && S->dofs[tgt.id].sub < 0) ||
         (tgt.k == V_NUM && ex_get(S->pool, tgt.e)->kind != EX_Y))) {
        /* a marker's position or velocity: pinned, its bodies' coordinates kept */
        ex_id q = tgt.k == V_DOF ? S->dofs[tgt.id].pos : tgt.e;
        jnt_dim dim = tgt.k == V_DOF ? (jnt_dim){{0, 6, 0, 0, 0}} : tgt.dim;
        sval v = sema_num_dim(S, &S->global, value, dim, "the initial value");
        if (v.k != V_NUM)
            return;
        if (sema_is_dynamic(S, v.e)) {
            diag_error(S->dc, value->loc, "an initial value may use parameters only");
            return;
        }
        char *name = target_name(d->kids[0]);
        sema_mb_pin(S, name, q, v.e, 0, d->kids[0]->loc);
        free(name);
        return;
    }
    if (tgt.k == V_DOF && S->dofs[tgt.id].point && S->multibody && S->dofs[tgt.id].sub < 0) {
        diag_error(S->dc, d->kids[0]->loc, "a marker's position is no state: pin it with "
                                           "'init %s = fixed(value)', or initialise its body's "
                                           "coordinates", S->dofs[tgt.id].name);
        return;
    }
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
    sval v = sema_num_dim(S, &S->global, value, var->dim, "the initial value");
    if (v.k != V_NUM)
        return;
    if (sema_is_dynamic(S, v.e)) {
        diag_error(S->dc, value->loc, "an initial value may use parameters only");
        return;
    }
    var->init = v.e;
    if (fixed && S->multibody) /* a body's coordinate or velocity, pinned */
        sema_mb_pin(S, var->name, ex_var(S->pool, EX_Y, yi), v.e, 0, d->kids[0]->loc);
}

typedef struct integ_spec {
    const char *name;
    const char *opt[5];
    double def[5]; /* NAN: required */
} integ_spec;

static const integ_spec integ_specs[] = {
    {"rk4", {"h"}, {NAN}},
    {"trapezoidal", {"h"}, {NAN}},
    {"midpoint", {"h"}, {NAN}},
    {"radau", {"h"}, {NAN}},
    {"dopri5", {"rtol", "atol", "h0", "h_max"}, {1e-6, 1e-9, 0, 0}},
    /* max_order: CVODE's orders 3 to 5 are not A-stable; 2 keeps lightly damped stiff
       modes (penalty contacts, stick springs) from limiting the step */
    {"bdf", {"rtol", "atol", "h0", "h_max", "max_order"}, {1e-6, 1e-9, 0, 0, 0}},
    /* 3-stage Radau IIA, order 5, adaptive: ordinary and multibody models */
    {"radau5", {"rtol", "atol", "h0", "h_max"}, {1e-6, 1e-9, 0, 0}},
    /* SUNDIALS IDA, variable-order BDF: multibody models (integ_ida.c) */
    {"ida", {"rtol", "atol", "h0", "h_max"}, {1e-6, 1e-9, 0, 0}},
    {"central", {"h"}, {NAN}},
    /* index-3 DAEs (multibody): a fixed step h, or adaptive from h when rtol > 0 */
    {"hht", {"h", "alpha", "rtol", "atol"}, {NAN, -0.05, 0, 0}},
    {"generalized_alpha", {"h", "rho_inf", "rtol", "atol"}, {NAN, 0.9, 0, 0}},
};

/* See passes.h: parameters only, with a dimension. */
ex_id sema_setting_expr(sema *S, const ast *e, jnt_dim dim, const char *what)
{
    sval v = sema_num_dim(S, &S->global, e, dim, what);
    if (v.k != V_NUM)
        return -1;
    if (sema_is_dynamic(S, v.e)) {
        diag_error(S->dc, e->loc, "%s may use parameters only, not time or states", what);
        return -1;
    }
    double x;
    if (sema_fixed_value(S, v.e, &x) && !isfinite(x)) {
        diag_error(S->dc, e->loc, "%s must be finite, got %g", what, isnan(x) ? fabs(x) : x);
        return -1;
    }
    return v.e;
}

static void eval_integrator(sema *S, const ast *e)
{
    ir_model *m = S->m;
    const char *name = e->kind == AST_CALL || e->kind == AST_NAME ? e->name : NULL;
    const integ_spec *sp = NULL;
    const char *names[sizeof integ_specs / sizeof *integ_specs];
    int nspec = (int)(sizeof integ_specs / sizeof *integ_specs);
    for (int i = 0; i < nspec; i++) {
        names[i] = integ_specs[i].name;
        if (name && strcmp(name, integ_specs[i].name) == 0)
            sp = &integ_specs[i];
    }
    if (!sp) {
        const char *best = name ? jnt_closest_name(name, names, nspec) : NULL;
        if (best)
            diag_error(S->dc, e->loc, "unknown integrator '%s'; did you mean '%s'?", name, best);
        else
            diag_error(S->dc, e->loc, "expected an integrator: rk4(h), dopri5(rtol, atol), "
                                      "bdf(rtol, atol), radau5(rtol, atol), ida(rtol, atol), radau(h), "
                                      "trapezoidal(h), midpoint(h), "
                                      "central(h), hht(h, alpha) or generalized_alpha(h, rho_inf)");
        return;
    }
    m->integrator = sp->name;
    int nopt = 0;
    while (nopt < 5 && sp->opt[nopt])
        nopt++;
    const ast *given[5] = {0};
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
            const char *best = jnt_closest_name(a->name, sp->opt, nopt);
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
    ex_id *slot[5];
    jnt_dim dims[5];
    for (int j = 0; j < nopt; j++) {
        const char *o = sp->opt[j];
        int is_h = o[0] == 'h';
        slot[j] = strcmp(o, "h") == 0 || strcmp(o, "h0") == 0 ? &m->h
                : strcmp(o, "h_max") == 0 ? &m->h_max : strcmp(o, "alpha") == 0 ? &m->alpha
                : strcmp(o, "rho_inf") == 0 ? &m->rho_inf
                : strcmp(o, "max_order") == 0 ? &m->max_order : o[0] == 'r' ? &m->rtol : &m->atol;
        dims[j] = is_h ? DIM_S : units_none;
        if (given[j]) {
            char what[64];
            snprintf(what, sizeof what, "option '%s' of '%s'", o, sp->name);
            *slot[j] = sema_setting_expr(S, given[j], dims[j], what);
            double v;
            if (slot[j] == &m->max_order && *slot[j] >= 0 &&
                sema_fixed_value(S, *slot[j], &v) && !(v == floor(v) && v >= 1 && v <= 5))
                diag_error(S->dc, given[j]->loc, "option 'max_order' of 'bdf' must be an order "
                           "from 1 to 5 (got %g)", v);
        } else if (isnan(sp->def[j])) {
            diag_error(S->dc, e->loc, "'%s' needs the step size: %s(h = ...)", sp->name, sp->name);
        } else {
            *slot[j] = ex_const(S->pool, sp->def[j]);
        }
    }
}

/* simulate { assemble_tol = L }: the residual (m, or rad for an angle's row)
 * the assembly at the start of a multibody run reaches; a constant must be
 * positive (parameters are checked by the runtime). */
static void eval_assemble_tol(sema *S, const ast *e)
{
    static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
    if (!S->multibody) {
        diag_error(S->dc, e->loc, "'assemble_tol' applies to multibody models (a model with "
                   "joints or rigid bodies)");
        return;
    }
    ex_id v = sema_setting_expr(S, e, DIM_M, "'assemble_tol'");
    const ex_node *n = v >= 0 ? ex_get(S->pool, v) : NULL;
    if (n && n->kind == EX_CONST && !(n->v > 0.0 && n->v < INFINITY)) {
        diag_error(S->dc, e->loc, "'assemble_tol' must be a positive length (got %g m)", n->v);
        return;
    }
    S->m->assemble_tol = v;
}

/* See passes.h. */
void sema_eval_simulate(sema *S, const ast *d)
{
    if (S->have_sim++) {
        diag_error(S->dc, d->loc, "a model has one 'simulate' block");
        return;
    }
    const char *known[] = {"integrator", "until", "start", "gravity", "assemble_tol"};
    int have_until = 0;
    for (int i = 0; i < d->nkids; i++) {
        const ast *st = d->kids[i];
        if (strcmp(st->name, "integrator") == 0) {
            eval_integrator(S, st->kids[0]);
        } else if (strcmp(st->name, "until") == 0) {
            have_until = 1;
            S->m->t_end = sema_setting_expr(S, st->kids[0], DIM_S, "'until'");
        } else if (strcmp(st->name, "start") == 0) {
            S->m->t0 = sema_setting_expr(S, st->kids[0], DIM_S, "'start'");
        } else if (strcmp(st->name, "gravity") == 0) {
            /* applied with the forces (sema_mb_gravity) */
        } else if (strcmp(st->name, "assemble_tol") == 0) {
            eval_assemble_tol(S, st->kids[0]);
        } else {
            const char *best = jnt_closest_name(st->name, known, 5);
            diag_error(S->dc, st->loc, "unknown setting '%s' in 'simulate'%s%s%s", st->name,
                       best ? "; did you mean '" : " (it has 'integrator', 'until', 'start')",
                       best ? best : "", best ? "'?" : "");
        }
    }
    if (!have_until)
        diag_error(S->dc, d->loc, "'simulate' needs 'until = <end time>'");
}

/* See passes.h. */
void sema_eval_output(sema *S, const ast *d)
{
    ir_model *m = S->m;
    if (S->have_out++) {
        diag_error(S->dc, d->loc, "a model has one 'output' block in this version");
        return;
    }
    if (sema_output_ok(S, d->loc, d->str) != 0)
        return;
    m->output_file = xstrdup(d->str);
    m->out_every = sema_setting_expr(S, d->kids[0], DIM_S, "the output interval");
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
        if (v.k == V_NUM) { /* with its kind: an angle, an energy (sema/units_kind.c) */
            int k = ir_add(&m->out, xstrdup(name), v.e, -1, v.dim, c->loc);
            m->out.v[k].kind = sema_out_kind(S, c->kids[0], v.dim);
        }
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
