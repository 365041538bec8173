/*
 * point_mass.c: the body kind `point`: a point mass whose coordinates are
 * the degrees of freedom it declares (`dof x`), each a position state and
 * its velocity, and its mass; a body without a mass is a driven support,
 * allowed when every one of its dofs has a prescribed motion.
 */
#include <stdlib.h>
#include <string.h>

#include "sema/core.h"
#include "sema/dims.h"
#include "front/alloc.h"

/* A point body's mass (b->mass). Without one, b->mass stays an error value
 * and the body is allowed only when every dof has a motion (a driven support:
 * checked by check_massless after the motions). */
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
            diag_error(sema_dc(S), a->loc, "unknown argument '%s' of 'point' (it takes 'mass')",
                       a->name);
            return;
        }
        if (a->kind != AST_ARG && pos++ > 0) {
            diag_error(sema_dc(S), a->loc, "too many arguments: 'point' takes 'mass'");
            return;
        }
        m = a->kind == AST_ARG ? a->kids[0] : a;
    }
    if (!m)
        return; /* a driven support, if every dof has a motion (check_massless) */
    scope isc = {.up = sema_global(S), .iname = b->iname, .ival = b->ival};
    sval v = sema_num_dim(S, b->iname ? &isc : sema_global(S), m, DIM_KG, "the mass");
    if (v.k == V_NUM && sema_is_dynamic(S, v.e)) {
        diag_error(sema_dc(S), m->loc, "the mass may use parameters only, not time or states");
        return;
    }
    double x;
    if (v.k == V_NUM && sema_fixed_value(S, v.e, &x) && !sema_mass_ok(POS_MASS, x)) {
        diag_error(sema_dc(S), m->loc, "the mass must be positive and finite, got %g kg", x);
        return;
    }
    b->mass = v;
}

/* A point body without a mass must have a motion on every dof (a support
 * driven by motions: a moving belt, a shaken base); otherwise its dofs have
 * no equation. */
static void check_massless(sema *S, const body *b)
{
    for (int j = 0; j < b->decl->nkids; j++)
        if (b->decl->kids[j]->kind != AST_DOF)
            return; /* a mass was given, and its error reported */
    for (int k = 0; k < b->ndof; k++) {
        const dof *f = sema_dof(S, b->dof0 + k);
        if (f->motion < 0) {
            diag_error(sema_dc(S), b->decl->loc,
                       "'point' needs a mass: point(mass = 1 kg), unless "
                       "a motion drives each of its dofs ('%s' has none)",
                       f->name);
            return;
        }
    }
}

/* Pass 2: the dofs body b declares, each a position state and its velocity. */
static void declare_point_body(sema *S, body *b)
{
    const ast *d = b->decl;
    for (int j = 0; j < d->nkids; j++) {
        const ast *q = d->kids[j];
        if (q->kind == AST_MARKER) {
            diag_error(sema_dc(S), q->loc, "markers belong to rigid2d bodies, not to points");
            continue;
        }
        if (q->kind != AST_DOF)
            continue;
        for (int i = b->dof0; i < sema_ndof(S); i++)
            if (strcmp(sema_dof(S, i)->short_name, q->name) == 0) {
                diag_error(sema_dc(S), q->loc, "degree of freedom '%s' is declared twice", q->name);
                goto next;
            }
        dof *f =
            sema_dof(S, sema_mb_push_dof(S, &(dof){.name = xasprintf("%s.%s", b->name, q->name),
                                                   .short_name = q->name,
                                                   .body = sema_body_id(S, b),
                                                   .sub = -1,
                                                   .g = -1,
                                                   .force = ex_const(sema_pool(S), 0),
                                                   .acc = -1,
                                                   .motion = -1}));
        f->y = ir_add(&sema_ir(S)->y, xstrdup(f->name), -1, ex_const(sema_pool(S), 0),
                      (jnt_dim){{0, 6, 0, 0, 0}}, q->loc);
        f->pos = ex_var(sema_pool(S), EX_Y, f->y);
        f->vel = ex_var(sema_pool(S), EX_Y, f->y + 1);
        f->sub = -1;
        ir_add(&sema_ir(S)->y, xasprintf("%s.v", f->name), -1, ex_const(sema_pool(S), 0),
               (jnt_dim){{0, 6, -6, 0, 0}}, q->loc);
    next:;
    }
    b->ndof = sema_ndof(S) - b->dof0;
    if (b->ndof == 0)
        diag_error(sema_dc(S), d->loc, "body '%s' has no degrees of freedom (add 'dof x')",
                   b->name);
}

/* After the motions: a body without a mass must be driven (check_massless). */
static void check_point_body(sema *S, const body *b)
{
    if (b->mass.k == V_ERR)
        check_massless(S, b);
}

const sema_kind sema_kind_point_mass = {
    .name = "point",
    .declare_body = declare_point_body,
    .body_mass = eval_body_mass,
    .body_check = check_point_body,
};
