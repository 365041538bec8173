/*
 * joint3d.c: the spatial joint family (`joint NAME : TYPE(A, B, ...)` with a
 * spatial marker): spherical, revolute, universal, cylindrical, prismatic,
 * planar and fixed joints between markers of rigid3d bodies (or points (x, y,
 * z) of the ground). Their rows are built here from axes given in the world
 * frame at t = 0 (the table of rows is in kinds/rigid3d.c's header), with
 * their multipliers, drive and members (forces, moments, reaction, relative
 * coordinate). The declaration is the core's (sema/joints.c).
 */
#include <math.h>
#include <string.h>

#include "front/alloc.h"
#include "sema/core.h"
#include "sema/dims.h"
#include "sema/sema_v3.h"

/* A row c of joint j and its multiplier `what` of dimension dim. */
static void add_row(sema *S, joint *j, ex_id c, const char *what, jnt_dim dim)
{
    j->rows[j->nl] = c;
    int i = ir_add(&sema_ir(S)->y, xasprintf("%s.%s", j->name, what), -1, ex_const(sema_pool(S), 0),
                   dim, j->decl->loc);
    if (j->nl++ == 0)
        j->l0 = i;
}

/* An orientation row u . w, u fixed in a and w in b. */
static void add_ori(sema *S, joint *j, v3 u, v3 w, const char *what)
{
    j->ou[j->nori][0] = u.c[0], j->ou[j->nori][1] = u.c[1], j->ou[j->nori][2] = u.c[2];
    j->ow[j->nori][0] = w.c[0], j->ow[j->nori][1] = w.c[1], j->ow[j->nori][2] = w.c[2];
    j->nori++;
    add_row(S, j, v_dot(sema_pool(S), u, w), what, DIM_NM);
}

/* Joint j (kind, name, decl, markers a and b set; one of them spatial): its
 * rows, relative coordinate and multipliers from `axis`, `axis_b` and
 * `drive` (each may be NULL). 0 or -1 after an error. */
static int joint3d_build(sema *S, joint *j, const ast *axis, const ast *axis_b,
                         const ast *drive)
{
    ex_pool *P = sema_pool(S);
    const marker *ma = sema_marker(S, j->a), *mb = sema_marker(S, j->b);
    const ast *d = j->decl;
    if (!ma->d3 || !mb->d3) {
        diag_error(sema_dc(S), d->loc, "joint '%s' connects a spatial marker to a planar one%s",
                   j->name,
                   (ma->body < 0 || mb->body < 0)
                       ? ": a point of the ground is (x, y, z) in a spatial model"
                       : "");
        return -1;
    }
    int kind = j->kind;
    for (int e = 0; e < 2 && kind != JOINT_SPHERICAL; e++) {
        const marker *m = e ? mb : ma;
        if (m->body >= 0 && !sema_body(S, m->body)->rigid3) {
            diag_error(sema_dc(S), d->loc,
                       "a %s joint holds the orientation of its bodies, but '%s' "
                       "is on a body that has none (a spherical joint holds a point)",
                       d->str, m->name);
            return -1;
        }
    }
    int has_axis = kind == JOINT_REVOLUTE || kind == JOINT_PRISMATIC ||
                   kind == JOINT_CYLINDRICAL || kind == JOINT_PLANAR;
    if ((axis && !has_axis && kind != JOINT_UNIVERSAL) || (axis_b && kind != JOINT_UNIVERSAL)) {
        diag_error(sema_dc(S), (axis_b ? axis_b : axis)->loc, "a %s joint takes no %s", d->str,
                   axis_b ? "'axis_b'" : "'axis'");
        return -1;
    }
    if (drive && kind != JOINT_REVOLUTE && kind != JOINT_PRISMATIC) {
        diag_error(sema_dc(S), drive->loc,
                   "a drive prescribes the angle of a revolute joint or the "
                   "slide of a prismatic one");
        return -1;
    }
    j->d3 = 1;
    ex_set_loc(P, d->loc);
    v3 a0, p0, s0;
    if (mb3_axis_triple(S, kind == JOINT_FIXED ? NULL : axis, &a0, &p0, &s0) != 0)
        return -1;
    v3 aa = mb3_fixed_in(S, ma, a0), pa = mb3_fixed_in(S, ma, p0), sa = mb3_fixed_in(S, ma, s0);
    v3 ab = mb3_fixed_in(S, mb, a0), pb = mb3_fixed_in(S, mb, p0), sb = mb3_fixed_in(S, mb, s0);
    v3 dr = v_sub(P, mb3_mpos(ma), mb3_mpos(mb));
    static const char *const fn[3] = {"lambda_x", "lambda_y", "lambda_z"};
    if (kind == JOINT_SPHERICAL || kind == JOINT_REVOLUTE || kind == JOINT_UNIVERSAL ||
        kind == JOINT_FIXED) {
        for (int k = 0; k < 3; k++)
            add_row(S, j, dr.c[k], fn[k], DIM_N);
        j->npos = 3;
    } else if (kind == JOINT_PLANAR) {
        add_row(S, j, v_dot(P, dr, ab), "lambda_n", DIM_N);
    } else {
        add_row(S, j, v_dot(P, dr, pb), "lambda_p", DIM_N);
        add_row(S, j, v_dot(P, dr, sb), "lambda_s", DIM_N);
    }
    switch (kind) {
    case JOINT_UNIVERSAL: {
        if (!axis || !axis_b) {
            diag_error(sema_dc(S), d->loc,
                       "a universal joint needs its two axes, normal to each "
                       "other: universal(A, B, axis = (1, 0, 0), axis_b = "
                       "(0, 1, 0))");
            return -1;
        }
        v3 u0, w0, t1, t2;
        if (mb3_axis_triple(S, axis_b, &w0, &t1, &t2) != 0)
            return -1;
        u0 = a0;
        double x;
        if (ex_is_const(P, v_dot(P, u0, w0), &x) && fabs(x) > 1e-9) {
            diag_error(sema_dc(S), axis_b->loc,
                       "the axes of universal joint '%s' are not normal to "
                       "each other (cosine %g)",
                       j->name, x);
            return -1;
        }
        add_ori(S, j, mb3_fixed_in(S, ma, u0), mb3_fixed_in(S, mb, w0), "lambda_uw");
        break;
    }
    case JOINT_REVOLUTE:
    case JOINT_CYLINDRICAL:
        add_ori(S, j, aa, pb, "lambda_ap");
        add_ori(S, j, aa, sb, "lambda_as");
        break;
    case JOINT_PRISMATIC:
    case JOINT_FIXED:
        add_ori(S, j, aa, pb, "lambda_ap");
        add_ori(S, j, aa, sb, "lambda_as");
        add_ori(S, j, pa, sb, "lambda_ps");
        break;
    case JOINT_PLANAR:
        add_ori(S, j, pa, ab, "lambda_pa");
        add_ori(S, j, sa, ab, "lambda_sa");
        break;
    default:
        break;
    }
    /* the relative coordinate: a's angle about the axis, or the slide */
    int slide = kind == JOINT_PRISMATIC;
    if (kind == JOINT_REVOLUTE || kind == JOINT_CYLINDRICAL)
        j->rel = ex_op2(P, EX_ATAN2, v_dot(P, pa, sb), v_dot(P, pa, pb));
    else if (slide)
        j->rel = v_dot(P, dr, ab);
    else
        j->rel = ex_const(P, 0);
    if (sema_joint_rate_drive(S, j, drive, slide) != 0)
        return -1;
    if (drive) {
        ex_id v = j->drive;
        ex_id row = slide ? SUB(j->rel, v)
                          : SUB(MUL(ex_op1(P, EX_COS, v), v_dot(P, pa, sb)),
                                MUL(ex_op1(P, EX_SIN, v), v_dot(P, pa, pb)));
        add_row(S, j, row, "lambda_drive", slide ? DIM_N : DIM_NM);
    }
    return 0;
}

/* The multiplier of row k, negated: the reaction on the first body. */
static ex_id neg_lambda(sema *S, const joint *j, int k)
{
    return ex_op1(sema_pool(S), EX_NEG, ex_var(sema_pool(S), EX_Y, j->l0 + k));
}

/* The force rows r_a - r_b come first; the torque of the
 * orientation rows on a is -sum_k lambda_k u_k x w_k (d(u . w) = dtheta_a .
 * (u x w) for a rotation dtheta_a of a). */
static int joint3d_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out)
{
    ex_pool *P = sema_pool(S);
    const joint *j = sema_joint(S, ji);
    int c = name[0] && name[1] == 0 ? -1 : name[1] - 'x';
    if ((name[0] == 'f' || name[0] == 'm') && name[1] && !name[2] && c >= 0 && c < 3) {
        if (name[0] == 'f' && j->npos != 3) {
            diag_error(sema_dc(S), loc,
                       "joint '%s' carries no force along all three axes: its "
                       "reaction is 'reaction'",
                       j->name);
            return -1;
        }
        ex_id v = ex_const(P, 0);
        if (name[0] == 'f')
            v = neg_lambda(S, j, c);
        for (int k = 0; name[0] == 'm' && k < j->nori; k++) {
            v3 u = {{j->ou[k][0], j->ou[k][1], j->ou[k][2]}};
            v3 w = {{j->ow[k][0], j->ow[k][1], j->ow[k][2]}};
            v = ADD(v, MUL(neg_lambda(S, j, j->nl - j->nori - (j->drive >= 0) + k),
                           v_cross(P, u, w).c[c]));
        }
        *out = sval_num(v, name[0] == 'f' ? DIM_N : DIM_NM);
        return 0;
    }
    int nforce = j->kind == JOINT_PLANAR ? 1 : j->npos ? 3 : 2;
    if (!strcmp(name, "reaction")) {
        ex_id r2 = ex_const(P, 0);
        for (int k = 0; k < nforce; k++)
            r2 = ADD(r2, MUL(neg_lambda(S, j, k), neg_lambda(S, j, k)));
        *out = sval_num(ex_if(P, ex_op2(P, EX_GT, r2, ex_const(P, 0)), ex_op1(P, EX_SQRT, r2),
                              ex_const(P, 0)), DIM_N);
        return 0;
    }
    int slide = j->kind == JOINT_PRISMATIC, turn = j->kind == JOINT_REVOLUTE ||
                                                   j->kind == JOINT_CYLINDRICAL;
    if ((slide && !strcmp(name, "s")) || (turn && !strcmp(name, "angle"))) {
        *out = sval_num(j->rel, slide ? DIM_M : units_none);
        return 0;
    }
    if ((slide || turn) && !strcmp(name, "speed")) {
        *out = sval_num(j->rel_v, slide ? DIM_MS : DIM_PS);
        return 0;
    }
    if (j->drive >= 0 && !strcmp(name, slide ? "force" : "torque")) {
        *out = sval_num(neg_lambda(S, j, j->nl - 1), slide ? DIM_N : DIM_NM);
        return 0;
    }
    diag_error(sema_dc(S), loc, "joint '%s' has no member '%s' (it has %s%s%s%s)", j->name, name,
               j->npos == 3 ? "fx, fy, fz, " : "", j->nori ? "mx, my, mz, " : "",
               slide  ? "s, speed, "
               : turn ? "angle, speed, "
                      : "",
               j->drive >= 0 ? (slide ? "force, reaction" : "torque, reaction") : "reaction");
    return -1;
}

/* The rows are those joint3d_build wrote. */
static void joint3d_rows(sema *S, const joint *j, ex_id *c)
{
    (void)S;
    memcpy(c, j->rows, (size_t)j->nl * sizeof *c);
}

const sema_kind sema_kind_joint3d = {
    .name = "spatial joint",
    .joint_dim = 3,
    .joint_build = joint3d_build,
    .joint_rows = joint3d_rows,
    .joint_member = joint3d_member,
};
