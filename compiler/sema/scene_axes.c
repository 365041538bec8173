/*
 * scene_axes.c: the axes and radii of the scene's joints and clearance
 * joints (sema/scene_int.h), for sema/scene.c: a joint's axes from its
 * declaration as kinds/joint3d.c reads it, a clearance joint's radii and
 * axis as kinds/clearance.c recorded them on its elements.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "front/alloc.h"
#include "sema_v3.h"
#include "scene_int.h"

/* World vector w0 (numbers, at t = 0; we0 their expressions) in the frame
 * of marker m's body at t = 0 into x (xe: its expressions): R0^T w0 with
 * R0's columns the initial directors (their states' initial values, found
 * by name: the states are renumbered after sema, so mb3_director0's indices
 * no longer hold), as mb3_fixed_in fixes it; w0 itself for the ground or a
 * body without directors. */
static void fixed_in0(sema *S, const marker *m, const double w0[3], const ex_id we0[3],
                      const double *y, const double *d, const double *p, double x[3],
                      ex_id xe[3])
{
    memcpy(x, w0, 3 * sizeof *x);
    memcpy(xe, we0, 3 * sizeof *xe);
    if (!m || m->body < 0 || !S->bodies[m->body].rigid3)
        return;
    const body *b = &S->bodies[m->body];
    for (int i = 0; i < 3; i++) {
        ex_id e[3];
        for (int k = 0; k < 3; k++) {
            const char *nm = S->dofs[b->dof0 + 3 + 3 * i + k].name;
            e[k] = ex_const(S->pool, i == k);
            for (int v = 0; v < S->m->y.n; v++)
                if (!strcmp(S->m->y.v[v].name, nm) && S->m->y.v[v].init >= 0)
                    e[k] = S->m->y.v[v].init;
        }
        double di[3];
        scene_rest_vec(S, e, y, d, p, di);
        x[i] = di[0] * w0[0] + di[1] * w0[1] + di[2] * w0[2];
        xe[i] = v_dot(S->pool, (v3){{e[0], e[1], e[2]}}, (v3){{we0[0], we0[1], we0[2]}});
    }
}

/* A spatial joint's axis as kinds/joint3d.c makes it from `axis` (z when
 * absent), fixed in b's frame, into sj->axis; a universal joint's `axis_b`
 * there and its `axis`, fixed in a's frame, into sj->axis_a; their
 * expressions into axe[0 .. 3) and axe[3 .. 6) (-1: none). */
void scene_joint_axes(sema *S, const joint *j, const double *y, const double *d,
                       const double *p, jnt_scene_joint *sj, ex_id axe[6])
{
    const ast *ax[2] = {NULL, NULL}; /* axis, axis_b */
    for (int i = 0; j->decl && i < j->decl->nkids; i++) {
        const ast *a = j->decl->kids[i];
        for (int k = 0; k < 2 && a->kind == AST_ARG && a->nkids > 0; k++)
            if (!strcmp(a->name, k ? "axis_b" : "axis"))
                ax[k] = a->kids[0];
    }
    if (j->kind == JOINT_FIXED || j->kind == JOINT_SPHERICAL ||
        (j->kind == JOINT_UNIVERSAL && (!ax[0] || !ax[1])))
        return;
    for (int k = j->kind == JOINT_UNIVERSAL ? 1 : 0; k >= 0; k--) {
        v3 a0, p0, s0;
        if (mb3_axis_triple(S, ax[k ? 1 : 0], &a0, &p0, &s0) != 0)
            return;
        int a_side = j->kind == JOINT_UNIVERSAL && k == 0;
        double w0[3];
        scene_rest_vec(S, a0.c, y, d, p, w0);
        fixed_in0(S, &S->markers[a_side ? j->a : j->b], w0, a0.c, y, d, p,
                  a_side ? sj->axis_a : sj->axis, axe + (a_side ? 3 : 0));
    }
}

/* e at rest (rest_vec's rules); 0 for no expression. */
static double rest1(sema *S, ex_id e, const double *y, const double *d, const double *p)
{
    ex_id v[3] = {e, e, e};
    double x[3] = {0, 0, 0};
    if (e >= 0)
        scene_rest_vec(S, v, y, d, p, x);
    return x[0];
}

/* A clearance joint's races of marker contact ct (element el between
 * markers ma, mb; -2 a ground point): the radii and the bearing axis its
 * geometry recorded when it placed el (kinds/clearance.c: a contact's
 * cylinder, rho_l and rho_k, or a friction's `radii`; its `axis`, z between
 * planar markers), the axis fixed in mb's body as the races' slip and the
 * cylinder gap fix it; the radii's expressions into rho, the axis's into
 * axe (-1: none found). Kept when already found (the contact's before its
 * friction's). */
void scene_races(sema *S, const elem *el, int ma, int mb, const int *bmap, const double *y,
                 const double *d, const double *p, jnt_scene_mcontact *ct, ex_id rho[2],
                 ex_id axe[3])
{
    int cyl = el->races == 2, radii = el->races == 1;
    const ast *axis = el->race_axis;
    for (int k = 0; el->races && k < 2; k++) {
        *(k ? &ct->rho_b : &ct->rho_a) = rest1(S, el->race_rho[k], y, d, p);
        rho[k] = el->race_rho[k];
    }
    const marker *m = mb >= 0 ? &S->markers[mb] : NULL;
    int d3 = ma >= 0 ? S->markers[ma].d3 : !m || m->d3;
    if ((!cyl && !axis && !(radii && !d3)) || ct->axis_body >= 0 || ct->axis[0] != 0 ||
        ct->axis[1] != 0 || ct->axis[2] != 0)
        return;
    v3 a0, p0, s0;
    if (mb3_axis_triple(S, d3 ? axis : NULL, &a0, &p0, &s0) != 0)
        return;
    double w0[3];
    scene_rest_vec(S, a0.c, y, d, p, w0);
    fixed_in0(S, m, w0, a0.c, y, d, p, ct->axis, axe);
    ct->axis_body = m && m->body >= 0 ? bmap[m->body] : -1;
}

