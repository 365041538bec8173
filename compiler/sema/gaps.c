/*
 * gaps.c: the quantities elements between markers act on, as point dofs:
 * the length between two markers (and its energy-consistent form, seed 001
 * eq. 4), a joint's coordinate, and the clearance joint's races (seed 001
 * eqs. 5-13: the slip of the races, the gap of a cylinder and a disk); the
 * ground points markers may name.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "dims.h"
#include "front/alloc.h"


#define ADD(a, b) ex_op2(P, EX_ADD, (a), (b))
#define SUB(a, b) ex_op2(P, EX_SUB, (a), (b))
#define MUL(a, b) ex_op2(P, EX_MUL, (a), (b))
#define Y(i) ex_var(P, EX_Y, (i))

/* The energy-consistent length's virtual displacement: n_m . du/dx for
 * coordinate (kind, index), n_m = 2 u / (|u_i| + |u_f|) held; -1 where u does
 * not depend on it. */
typedef struct ec_ctx {
    const ex_id *u;
    int n;
    ex_id sum;
} ec_ctx;

/* See passes.h: |r_a - r_b| as a point dof. */
int sema_mb_length(sema *S, int ma, int mb, const char *ename)
{
    ex_pool *P = S->pool;
    const marker *a = &S->markers[ma], *b = &S->markers[mb];
    ex_id dx = SUB(a->px, b->px), dy = SUB(a->py, b->py);
    ex_id l2 = ADD(MUL(dx, dx), MUL(dy, dy));
    if (a->d3 && b->d3)
        l2 = ADD(l2, MUL(SUB(a->pz, b->pz), SUB(a->pz, b->pz)));
    return sema_expr_dof(S, xasprintf("%s.length", ename), "length", ex_op1(P, EX_SQRT, l2));
}

static ex_id ec_coef(sema *S, ex_kind kind, int index, void *ctx)
{
    ex_pool *P = S->pool;
    const ec_ctx *c = ctx;
    ex_id cf = -1;
    for (int k = 0; k < c->n; k++)
        if (ex_depends(P, c->u[k], kind, index)) {
            ex_id t = MUL(c->u[k], ex_diff(P, c->u[k], kind, index));
            cf = cf < 0 ? t : ADD(cf, t);
        }
    if (cf < 0)
        return -1;
    return ex_op2(P, EX_DIV, MUL(ex_const(P, 2), cf),
                  ex_op2(P, EX_MAX, c->sum, ex_const(P, 1e-300)));
}

/* See passes.h. */
int sema_mb_ec_length(sema *S, int ma, int mb, const char *ename, ex_id *li, ex_id *lf)
{
    ex_pool *P = S->pool;
    const marker *a = &S->markers[ma], *b = &S->markers[mb];
    int n = a->d3 && b->d3 ? 3 : 2;
    ex_id u[3] = {SUB(a->px, b->px), SUB(a->py, b->py), n == 3 ? SUB(a->pz, b->pz) : -1};
    ex_id ui[3], uf[3], fresh = -1;
    ex_id si = ex_const(P, 0), sf = ex_const(P, 0);
    for (int k = 0; k < n; k++) {
        /* u at the last step end: at first the initial u (sema_init_finish),
         * or unset (-1e30 m: the first step then takes the law at its
         * midpoint) when a flexible body's node makes it unknown at compile
         * time */
        int d = ir_add(&S->m->d, xasprintf("%s.u%c", ename, "xyz"[k]), -1,
                       ex_const(P, k ? 0 : -1e30), DIM_M, loc_none);
        sema_defer_init(S, d, u[k]);
        S->m->d.v[d].rhs = u[k];
        ex_id dv = ex_var(P, EX_D, d);
        if (k == 0)
            fresh = ex_op2(P, EX_LT, dv, ex_const(P, -1e29));
        ui[k] = ex_if(P, fresh, u[k], dv);
        uf[k] = ex_if(P, fresh, u[k], SUB(MUL(ex_const(P, 2), u[k]), dv));
        si = ADD(si, MUL(ui[k], ui[k]));
        sf = ADD(sf, MUL(uf[k], uf[k]));
    }
    /* |u| regularised by 1e-12 m (its derivative u / |u| stays finite where
     * the markers coincide, a journal at its bearing's centre); n_m . (u_f -
     * u_i) = l_f - l_i holds exactly still, the squares' difference being
     * unchanged */
    ex_id eps2 = ex_const(P, 1e-24);
    *li = ex_op1(P, EX_SQRT, ADD(si, eps2));
    *lf = ex_op1(P, EX_SQRT, ADD(sf, eps2));
    ex_id sum = ADD(*li, *lf);
    /* the dof: by virtual work along n_m; a point dof's coefficients are
     * d(n_m . u)/dq with n_m held, n_m . du/dq */
    ex_id pos = ex_op2(P, EX_MUL, ex_const(P, 0.5), sum);
    dof f = {.name = xasprintf("%s.length", ename), .short_name = "length", .body = -1, .y = -1,
             .sub = -1, .g = -1, .point = 1, .force = ex_const(P, 0), .acc = -1, .motion = -1,
             .pos = pos, .vel = ex_const(P, 0)};
    ec_ctx c = {u, n, sum};
    sema_mb_lin(S, &f, pos, 0, ec_coef, &c);
    return sema_mb_push_dof(S, &f);
}

/* See passes.h: the joint's slide s, or radius times its angle. A spatial
 * joint's angle, atan2 of its axes, wraps at +-pi: the element's is the one
 * nearest its value at the last step end (a discrete state, 0 at the start),
 * rel + 2 pi floor((last - rel) / (2 pi) + 1/2), which goes on turning. */
int sema_mb_joint_coord(sema *S, int ji, ex_id radius, const char *ename)
{
    ex_pool *P = S->pool;
    const joint *j = &S->joints[ji];
    ex_id ang = j->rel;
    if (j->d3 && (j->kind == JOINT_REVOLUTE || j->kind == JOINT_CYLINDRICAL)) {
        int d = ir_add(&S->m->d, xasprintf("%s.angle", ename), -1, ex_const(P, 0), units_none,
                       loc_none);
        ex_id turn = ex_const(P, 2 * 3.14159265358979323846);
        ex_id k = ex_op1(P, EX_FLOOR, ADD(ex_op2(P, EX_DIV, SUB(ex_var(P, EX_D, d), j->rel), turn),
                                          ex_const(P, 0.5)));
        ang = ADD(j->rel, MUL(turn, k));
        S->m->d.v[d].rhs = ang;
    }
    ex_id pos = j->kind == JOINT_PRISMATIC ? j->rel : MUL(radius, ang);
    return sema_expr_dof(S, xasprintf("%s.slip", ename), "slip", pos);
}

/* See passes.h. The body A on the rail has no other joint, so its
 * angle is locked and the constraint forces are normal to the axis e: its
 * slide obeys m s'' = e . F_other - F, and F_eq = e . F_other (F_other:
 * every other force on A's centre, gravity included). */
int sema_mb_equiv_force(sema *S, int ei, int ji, jnt_loc loc, sval *out)
{
    ex_pool *P = S->pool;
    const joint *j = &S->joints[ji];
    const marker *a = &S->markers[j->a], *b = &S->markers[j->b];
    int other = 0;
    for (int k = 0; k < S->njoint; k++)
        other += k != ji && a->body >= 0 && (S->markers[S->joints[k].a].body == a->body ||
                                             S->markers[S->joints[k].b].body == a->body);
    if (j->kind != JOINT_PRISMATIC || j->d3 || j->drive >= 0 || b->body >= 0 || a->body < 0 ||
        other) {
        diag_error(S->dc, loc, "F_eq of '%s' on joint '%s' is available on a prismatic joint "
                               "without a drive between a body and the ground, the body in no "
                               "other joint", S->elems[ei].name, j->name);
        return -1;
    }
    const body *bd = &S->bodies[a->body];
    ex_id f[2];
    for (int k = 0; k < 2; k++) {
        f[k] = sema_other_forces(S, bd->dof0 + k, ei);
        if (S->gravity[k] >= 0 && bd->mass.k == V_NUM)
            f[k] = ADD(f[k], MUL(bd->mass.e, S->gravity[k]));
    }
    *out = sval_num(ADD(MUL(j->ex, f[0]), MUL(j->ey, f[1])), (jnt_dim){{6, 6, -12, 0, 0}});
    return 0;
}
