/*
 * spring.c: the spring and damper element families (`spring NAME between A
 * and B { stiffness = ..., length = ... }`, `damper ... { damping = ... }`,
 * or either with `law = ...`): a force k (s - L) or c v, or a law's. The
 * element machinery they share (ends, settings, the dof they act on) is the
 * core's (sema/element.c).
 */
#include "sema/core.h"
#include "sema/dims.h"

static const elem_setting spring_set[] = {{"stiffness", 0}, {"length", 0}, {"law", 0}, {0, 0}};
static const elem_setting damper_set[] = {{"damping", 0}, {"law", 0}, {0, 0}};

/* A spring's or damper's force: its coefficient's (`stiffness`, `damping`) or its
 * law's, exactly one of them; s and v are its members. */
static void linear_force(sema *S, const scope *sc, elem *el, elem_site *site, int spring)
{
    const char *cname = spring ? "stiffness" : "damping";
    const ast *coef = sema_elem_setting(site, cname), *law = sema_elem_setting(site, "law");
    ex_pool *P = sema_pool(S);
    sema_elem_add_qty(el, "s", site->s);
    sema_elem_add_qty(el, "v", site->v);
    if (!!coef == !!law) {
        diag_error(sema_dc(S), el->decl->loc, "%s '%s' needs either '%s = ...' or 'law = ...'",
                   spring ? "spring" : "damper", el->name, cname);
        return;
    }
    sval f;
    if (law) {
        f = sema_law_force(S, sc, el, law, LAW_FORCE);
    } else if (spring) {
        const ast *len = sema_elem_setting(site, "length");
        sval k = sema_num_dim(S, sc, coef->kids[0], units_div(DIM_N, DIM_M), "the stiffness");
        sval L = len ? sema_num_dim(S, sc, len->kids[0], DIM_M, "the length")
                     : sval_num(ex_const(P, 0), DIM_M);
        if (k.k == V_ERR || L.k == V_ERR)
            return;
        f = sval_num(ex_op2(P, EX_MUL, k.e, ex_op2(P, EX_SUB, site->s.e, L.e)), DIM_N);
    } else {
        sval c = sema_num_dim(S, sc, coef->kids[0], units_div(DIM_N, DIM_MS), "the damping");
        if (c.k == V_ERR)
            return;
        f = sval_num(ex_op2(P, EX_MUL, c.e, site->v.e), DIM_N);
    }
    if (f.k == V_ERR)
        return;
    el->force = f;
    sema_elem_add_qty(el, "force", f);
}

static void spring_force(sema *S, const scope *sc, elem *el, elem_site *site)
{
    linear_force(S, sc, el, site, 1);
}

static void damper_force(sema *S, const scope *sc, elem *el, elem_site *site)
{
    linear_force(S, sc, el, site, 0);
}

const sema_kind sema_kind_spring = {
    .name = "spring",
    .elem = ELEM_SPRING,
    .settings = spring_set,
    .on_line = 1,
    .elem_force = spring_force,
};

const sema_kind sema_kind_damper = {
    .name = "damper",
    .elem = ELEM_DAMPER,
    .settings = damper_set,
    .on_line = 1,
    .elem_force = damper_force,
};
