/*
 * point3d.c: the body kind `point3d`, a point mass in space:
 *   body NAME : point3d(mass = m)
 * Its coordinates are x, y, z (m), the position of the point; it has a
 * marker `centre` there, so that spherical joints, contacts and springs
 * between markers hold it, and gravity pulls it: it makes the model a
 * spatial multibody one (the bob of a spherical pendulum, a particle on a
 * string). It has no orientation: a joint that holds one (revolute,
 * universal, ...) on its marker is an error (kinds/joint3d.c). Members beyond
 * its coordinates and marker: `kinetic` (J), m |v|^2 / 2.
 */
#include <string.h>

#include "sema/core.h"
#include "sema/dims.h"
#include "front/alloc.h"

/* Pass 2: the dofs x, y, z and the marker `centre` of point3d body b. */
static void declare_point3d(sema *S, body *b)
{
    static const char *const xyz[3] = {"x", "y", "z"};
    const ast *d = b->decl;
    sema_set_multibody(S, 1);
    for (int k = 0; k < 3; k++)
        sema_mb_add_dof(S, b, xyz[k], DIM_M, d->loc);
    b->ndof = 3;
    for (int j = 0; j < d->nkids; j++) {
        const ast *q = d->kids[j];
        if (q->kind == AST_DOF || q->kind == AST_MARKER)
            diag_error(sema_dc(S), q->loc,
                       "a point3d body has the coordinates x, y, z and the "
                       "marker 'centre'; it declares no %s",
                       q->kind == AST_DOF ? "dof" : "marker");
    }
    marker m = {.name = xasprintf("%s.centre", b->name),
                .short_name = "centre",
                .body = sema_body_id(S, b),
                .d3 = 1,
                .angle = ex_const(sema_pool(S), 0)};
    m.px = sema_dof(S, b->dof0)->pos;
    m.py = sema_dof(S, b->dof0 + 1)->pos;
    m.pz = sema_dof(S, b->dof0 + 2)->pos;
    sema_mb_add_marker(S, m);
}

/* Pass 3: its mass, `mass = m` (parameters only, positive and finite). */
static void point3d_mass(sema *S, body *b)
{
    const ast *d = b->decl, *m = NULL;
    int pos = 0;
    for (int j = 0; j < d->nkids; j++) {
        const ast *a = d->kids[j];
        if (a->kind == AST_DOF || a->kind == AST_MARKER)
            continue;
        if ((a->kind == AST_ARG && strcmp(a->name, "mass") != 0) ||
            (a->kind != AST_ARG && pos++ > 0)) {
            diag_error(sema_dc(S), a->loc, "'point3d' takes one argument, 'mass'");
            return;
        }
        m = a->kind == AST_ARG ? a->kids[0] : a;
    }
    if (!m) {
        diag_error(sema_dc(S), d->loc, "point3d body '%s' needs its mass: point3d(mass = ...)",
                   b->name);
        return;
    }
    scope isc = {.up = sema_global(S), .iname = b->iname, .ival = b->ival};
    sval v = sema_num_dim(S, b->iname ? &isc : sema_global(S), m, DIM_KG, "the mass");
    double x;
    if (v.k == V_NUM && sema_is_dynamic(S, v.e)) {
        diag_error(sema_dc(S), m->loc, "the mass may use parameters only, not time or states");
        return;
    }
    if (v.k == V_NUM && sema_fixed_value(S, v.e, &x) && !sema_mass_ok(POS_MASS, x)) {
        diag_error(sema_dc(S), m->loc, "the mass must be positive and finite, got %g kg", x);
        return;
    }
    b->mass = v;
}

/* Its member `kinetic`: m |v|^2 / 2, in J. 1 for any other name. */
static int point3d_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out)
{
    (void)loc;
    const body *b = sema_body(S, base.id);
    if (strcmp(name, "kinetic") != 0)
        return 1;
    if (b->mass.k != V_NUM)
        return -1; /* its declaration said why */
    ex_pool *P = sema_pool(S);
    ex_id v2 = ex_const(P, 0);
    for (int k = 0; k < 3; k++) {
        ex_id v = sema_dof(S, b->dof0 + k)->vel;
        v2 = ex_op2(P, EX_ADD, v2, ex_op2(P, EX_MUL, v, v));
    }
    *out = sval_num(ex_op2(P, EX_MUL, ex_op2(P, EX_MUL, ex_const(P, 0.5), b->mass.e), v2),
                    (jnt_dim){{6, 12, -12, 0, 0}});
    return 0;
}

const sema_kind sema_kind_point3d = {
    .name = "point3d",
    .declare_body = declare_point3d,
    .body_mass = point3d_mass,
    .member = point3d_member,
    .weighs = 1,
};
