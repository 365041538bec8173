/*
 * frames.c: spatial geometry of markers and bodies in director coordinates
 * (kinds/rigid3d.c): a body's directors now and at t = 0, a marker's
 * position, a vector fixed in a marker's body, an axis as a right-handed
 * triple. Shared by the spatial kinds (bodies, joints) and the gaps.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "sema_v3.h"

/* See sema/sema_v3.h. */
v3 mb3_director(const sema *S, const body *b, int i)
{
    v3 d;
    for (int k = 0; k < 3; k++)
        d.c[k] = S->dofs[b->dof0 + 3 + 3 * i + k].pos;
    return d;
}

/* See sema/sema_v3.h. */
v3 mb3_director0(const sema *S, const body *b, int i)
{
    v3 d;
    for (int k = 0; k < 3; k++)
        d.c[k] = S->m->y.v[S->dofs[b->dof0 + 3 + 3 * i + k].y].init;
    return d;
}

/* See sema/sema_v3.h. */
v3 mb3_mpos(const marker *m)
{
    return (v3){{m->px, m->py, m->pz}};
}

/* See sema/sema_v3.h. */
v3 mb3_fixed_in(sema *S, const marker *m, v3 w0)
{
    ex_pool *P = S->pool;
    if (m->body < 0 || !S->bodies[m->body].rigid3)
        return w0; /* the ground, or a body without directors (a point: no orientation) */
    const body *b = &S->bodies[m->body];
    v3 c;
    for (int i = 0; i < 3; i++)
        c.c[i] = v_dot(P, mb3_director0(S, b, i), w0);
    if (m->rot_on)
        c = v_add(P, c, v_cross(P, (v3){{m->rot[0], m->rot[1], m->rot[2]}}, c));
    v3 v = {{C(0), C(0), C(0)}};
    for (int i = 0; i < 3; i++)
        v = v_add(P, v, v_scale(P, c.c[i], mb3_director(S, b, i)));
    return v;
}

/* See sema/sema_v3.h. */
int mb3_axis_triple(sema *S, const ast *e, v3 *a, v3 *p, v3 *s)
{
    ex_pool *P = S->pool;
    ex_id c[3] = {C(0), C(0), C(1)};
    if (e && sema_mb_triple(S, &S->global, e, units_none, "an axis", c) != 0)
        return -1;
    double x;
    v3 raw = {{c[0], c[1], c[2]}};
    if (ex_is_const(P, v_dot(P, raw, raw), &x) && !(x > 0)) {
        diag_error(S->dc, e->loc, "an axis must not be zero");
        return -1;
    }
    *a = v_unit(P, raw);
    /* p: normal to a, from e_x unless a is near it (then e_y) */
    ex_id nearx = ex_op2(P, EX_GT, ex_op1(P, EX_ABS, a->c[0]), C(0.9));
    v3 t = {{ex_if(P, nearx, C(0), C(1)), ex_if(P, nearx, C(1), C(0)), C(0)}};
    *p = v_unit(P, v_cross(P, *a, t));
    *s = v_cross(P, *a, *p);
    return 0;
}
