/*
 * rigid2d.c: planar multibody. A rigid2d body has the coordinates x, y of
 * its centre of mass and its angle; a marker is a point fixed in it (or in
 * the ground), whose coordinates are `points` made of the body's coordinates
 * (kinds/point.c hands their forces on by virtual work, with coefficients
 * that turn with the body). Its mass and inertia are read in pass 3. A model
 * with one is a multibody model: joints (kinds/joint2d.c) add constraint rows
 * and the core forms the index-3 DAE of jnt/abi.h (sema/multibody.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sema/core.h"
#include "sema/dims.h"
#include "front/alloc.h"


#define ADD(a, b) ex_op2(P, EX_ADD, (a), (b))
#define SUB(a, b) ex_op2(P, EX_SUB, (a), (b))
#define MUL(a, b) ex_op2(P, EX_MUL, (a), (b))
#define Y(i) ex_var(P, EX_Y, (i))

/* Pass 2: the dofs x, y, angle and the markers of rigid2d body b. */
static void sema_declare_rigid2d(sema *S, body *b)
{
    ex_pool *P = sema_pool(S);
    const ast *d = b->decl;
    sema_set_multibody(S, 0);
    b->rigid = 1;
    int ix = sema_mb_add_dof(S, b, "x", DIM_M, d->loc);
    sema_mb_add_dof(S, b, "y", DIM_M, d->loc);
    sema_mb_add_dof(S, b, "angle", units_none, d->loc);
    b->ndof = 3;
    ex_id x = sema_dof(S, ix)->pos, y = sema_dof(S, ix + 1)->pos, th = sema_dof(S, ix + 2)->pos;
    ex_id c = ex_op1(P, EX_COS, th), s = ex_op1(P, EX_SIN, th);
    scope isc = {.up = sema_global(S), .iname = b->iname, .ival = b->ival};
    for (int j = 0; j < d->nkids; j++) {
        const ast *q = d->kids[j];
        if (q->kind == AST_DOF) {
            diag_error(sema_dc(S), q->loc,
                       "a rigid2d body has the coordinates x, y and angle; "
                       "declare points fixed in it with 'marker NAME = (x, y)'");
            continue;
        }
        if (q->kind != AST_MARKER)
            continue;
        for (int i = 0; i < sema_nmarker(S); i++)
            if (sema_marker(S, i)->body == sema_body_id(S, b) &&
                strcmp(sema_marker(S, i)->short_name, q->name) == 0) {
                diag_error(sema_dc(S), q->loc, "marker '%s' is declared twice", q->name);
                goto next;
            }
        ex_id sxy[2];
        if (sema_mb_pair(S, b->iname ? &isc : sema_global(S), q->kids[0], DIM_M,
                         "a marker's position in its body", sxy) != 0)
            continue;
        if (sema_is_dynamic(S, sxy[0]) || sema_is_dynamic(S, sxy[1])) {
            diag_error(sema_dc(S), q->kids[0]->loc,
                       "a marker's position in its body may use "
                       "parameters only");
            continue;
        }
        ex_set_loc(P, q->loc);
        marker m = {.name = xasprintf("%s.%s", b->name, q->name),
                    .short_name = q->name,
                    .body = sema_body_id(S, b),
                    .angle = th,
                    .px = ADD(x, SUB(MUL(c, sxy[0]), MUL(s, sxy[1]))),
                    .py = ADD(y, ADD(MUL(s, sxy[0]), MUL(c, sxy[1])))};
        sema_mb_add_marker(S, m);
    next:;
    }
}

/* Pass 3: mass and inertia of rigid2d body b; gravity on every body. */
static void sema_rigid2d_mass(sema *S, body *b)
{
    static const char *const names[2] = {"mass", "inertia"};
    const jnt_dim dims[2] = {DIM_KG, DIM_KGM2};
    const ast *d = b->decl, *given[2] = {0};
    int pos = 0;
    for (int j = 0; j < d->nkids; j++) {
        const ast *a = d->kids[j];
        if (a->kind == AST_DOF || a->kind == AST_MARKER)
            continue;
        if (a->kind == AST_ARG && !strcmp(a->name, "shape") && !b->flex) {
            sema_body_shape(S, b, a->kids[0]);
            continue;
        }
        int k = a->kind != AST_ARG ? pos++ : !strcmp(a->name, "mass") ? 0
              : !strcmp(a->name, "inertia") ? 1 : -1;
        if (k < 0 || k > 1) {
            diag_error(sema_dc(S), a->loc,
                       "'rigid2d' takes 'mass', 'inertia' (about its centre "
                       "of mass) and 'shape'");
            return;
        }
        given[k] = a->kind == AST_ARG ? a->kids[0] : a;
    }
    scope isc = {.up = sema_global(S), .iname = b->iname, .ival = b->ival};
    sval v[2];
    for (int k = 0; k < 2; k++) {
        if (!given[k]) {
            diag_error(sema_dc(S), d->loc,
                       "'rigid2d' needs its %s: rigid2d(mass = 1 kg, "
                       "inertia = 0.01 kg*m^2)",
                       names[k]);
            return;
        }
        v[k] = sema_num_dim(S, b->iname ? &isc : sema_global(S), given[k], dims[k], names[k]);
        if (v[k].k != V_NUM)
            return;
        double x;
        if (sema_is_dynamic(S, v[k].e) ||
            (sema_fixed_value(S, v[k].e, &x) && !sema_mass_ok(k ? POS_INERTIA : POS_MASS, x))) {
            diag_error(sema_dc(S), given[k]->loc, "the %s must be positive and use parameters only",
                       names[k]);
            return;
        }
    }
    b->mass = v[0];
    b->inertia = v[1];
}


const sema_kind sema_kind_rigid2d = {
    .name = "rigid2d",
    .declare_body = sema_declare_rigid2d,
    .body_mass = sema_rigid2d_mass,
    .weighs = 1,
};
