/*
 * scene_axes.c: the axes of the scene's spatial joints (sema/scene_int.h),
 * from their declarations as kinds/joint.c reads them, for sema/scene.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "front/alloc.h"
#include "sema_v3.h"
#include "scene_int.h"

/* World vector w0 (numbers, at t = 0) in the frame of marker m's body at
 * t = 0 into x: R0^T w0 with R0's columns the initial directors (their
 * states' initial values, found by name: the states are renumbered after
 * sema, so mb3_director0's indices no longer hold), as mb3_fixed_in fixes
 * it; w0 itself for the ground or a body without directors. */
static void fixed_in0(sema *S, const marker *m, const double w0[3], const double *y,
                      const double *d, const double *p, double x[3])
{
    memcpy(x, w0, 3 * sizeof *x);
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
        rest_vec(S, e, y, d, p, di);
        x[i] = di[0] * w0[0] + di[1] * w0[1] + di[2] * w0[2];
    }
}

/* A spatial joint's axis as kinds/joint.c makes it from `axis` (z when
 * absent), fixed in b's frame, into sj->axis; a universal joint's `axis_b`
 * there and its `axis`, fixed in a's frame, into sj->axis_a. */
void joint_axes(sema *S, const joint *j, const double *y, const double *d,
                       const double *p, jnt_scene_joint *sj)
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
        rest_vec(S, a0.c, y, d, p, w0);
        fixed_in0(S, &S->markers[a_side ? j->a : j->b], w0, y, d, p,
                  a_side ? sj->axis_a : sj->axis);
    }
}
