/*
 * friction.c: the friction element family (`friction NAME between A and B {
 * law = ..., normal = ..., area = ..., steps = ... }`, or on a joint, or
 * between the races of a clearance joint: kinds/clearance.c places it): its
 * force is its law's (seed 000's laws, sema/law.c) at its slip s, v, the
 * normal force N (`normal`, else a joint's reaction) and the pressure N /
 * area.
 */
#include "sema/core.h"
#include "sema/dims.h"

static const jnt_dim DIM_PA = {{6, -6, -12, 0, 0}};
static const jnt_dim DIM_M2 = {{0, 12, 0, 0, 0}};

static const elem_setting friction_set[] = {{"normal", 0}, {"law", 0}, {"area", 0}, {"steps", 0},
                                           {0, 0}};

static void friction_force(sema *S, const scope *sc, elem *el, elem_site *site)
{
    const ast *law = sema_elem_setting(site, "law"), *normal = sema_elem_setting(site, "normal");
    const ast *area = sema_elem_setting(site, "area"), *steps = sema_elem_setting(site, "steps");
    if (!law) {
        diag_error(sema_dc(S), el->decl->loc, "friction '%s' needs 'law = ...'", el->name);
        return;
    }
    sema_elem_add_qty(el, "s", site->s);
    sema_elem_add_qty(el, "v", site->v);
    sema_friction_v2(S, el, site->v2);
    /* without 'normal', a law that uses N fails with an unknown name; with an
     * 'area' too, a law may use the contact pressure p = N / area */
    if (normal || site->normal.k == V_NUM) {
        sval N = normal ? sema_num_dim(S, sc, normal->kids[0], DIM_N, "the normal force")
                        : site->normal;
        if (N.k == V_ERR)
            return;
        sema_elem_add_qty(el, "N", N);
        if (area) {
            sval A = sema_num_dim(S, sc, area->kids[0], DIM_M2, "the area");
            if (A.k == V_ERR)
                return;
            sema_elem_add_qty(el, "area", A);
            sema_elem_add_qty(el, "p", sval_num(ex_op2(sema_pool(S), EX_DIV, N.e, A.e), DIM_PA));
        }
    } else if (area) {
        diag_error(sema_dc(S), area->loc, "'area' needs 'normal' (p = normal / area)");
        return;
    }
    /* a friction law's result is its force (and its member `force`) already */
    sval f = sema_law_force(S, sc, el, law, LAW_FRICTION);
    if (f.k == V_ERR)
        return;
    el->force = f;
    if (steps)
        sema_step_control(S, el, steps, 0);
}

const sema_kind sema_kind_friction = {
    .name = "friction",
    .elem = ELEM_FRICTION,
    .settings = friction_set,
    .draw = SEMA_DRAW_SLIP,
    .elem_force = friction_force,
};
