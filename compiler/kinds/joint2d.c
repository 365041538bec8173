/*
 * joint2d.c: the planar joint family (`joint NAME : TYPE(A, B, ...)` between
 * planar markers): revolute, prismatic (along `axis`, fixed in B's frame) and
 * fixed joints, each with an optional `drive` of its relative coordinate; its
 * multipliers, its rows (built last, when the initial angles are known) and
 * its members (reactions, relative coordinate). The declaration is the
 * core's (sema/joints.c).
 */
#include <string.h>

#include "front/alloc.h"
#include "sema/core.h"
#include "sema/dims.h"
#include "sema/sema_v3.h"

/* A multiplier state of joint j: its name and dimension. */
static void add_lambda(sema *S, joint *j, const char *what, jnt_dim dim)
{
    int i = ir_add(&sema_ir(S)->y, xasprintf("%s.%s", j->name, what), -1, ex_const(sema_pool(S), 0),
                   dim, j->decl->loc);
    if (j->nl++ == 0)
        j->l0 = i;
}

/* The multiplier of joint j's row k, negated: the reaction on its first body. */
static sval reaction(sema *S, const joint *j, int k, jnt_dim dim)
{
    return sval_num(ex_op1(sema_pool(S), EX_NEG, ex_var(sema_pool(S), EX_Y, j->l0 + k)), dim);
}

/* Joint j (type, name, decl, markers a and b set, both planar): its relative
 * coordinate (the angle between the frames, or the slide along the axis),
 * drive and multipliers. 0 or -1 after an error. */
static int joint2d_build(sema *S, joint *j, const ast *axis, const ast *axis_b, const ast *drive)
{
    const ast *d = j->decl;
    const marker *ma = sema_marker(S, j->a), *mb = sema_marker(S, j->b);
    ex_pool *P = sema_pool(S);
    int kind = j->kind, spatial_args;
    spatial_args = kind >= JOINT_SPHERICAL ? 1 : axis_b ? 2 : axis && kind != JOINT_PRISMATIC
                   ? 3 : drive && kind == JOINT_FIXED ? 4 : 0;
    if (spatial_args) {
        diag_error(sema_dc(S), d->loc,
                   spatial_args == 1   ? "a %s joint is spatial: it connects "
                                         "markers of rigid3d bodies or points (x, y, z) of the ground"
                   : spatial_args == 4 ? "a %s joint takes no drive"
                                       : "a planar %s joint takes no '%s'",
                   d->str, spatial_args == 2 ? "axis_b" : "axis");
        return -1;
    }
    ex_set_loc(P, d->loc);
    ex_id th = SUB(ma->angle, mb->angle);
    if (kind == JOINT_PRISMATIC) {
        ex_id a[2] = {ex_const(P, 1), ex_const(P, 0)};
        if (axis && sema_mb_pair(S, sema_global(S), axis, units_none, "the axis", a) != 0)
            return -1;
        ex_id len = ex_op1(P, EX_SQRT, ADD(MUL(a[0], a[0]), MUL(a[1], a[1])));
        ex_id ax = ex_op2(P, EX_DIV, a[0], len), ay = ex_op2(P, EX_DIV, a[1], len);
        ex_id c = ex_op1(P, EX_COS, mb->angle), sn = ex_op1(P, EX_SIN, mb->angle);
        j->ex = SUB(MUL(c, ax), MUL(sn, ay)); /* the axis turns with b's frame */
        j->ey = ADD(MUL(sn, ax), MUL(c, ay));
        j->rel = ADD(MUL(j->ex, SUB(ma->px, mb->px)), MUL(j->ey, SUB(ma->py, mb->py)));
    } else {
        j->rel = th;
    }
    if (sema_joint_rate_drive(S, j, drive, kind == JOINT_PRISMATIC) != 0)
        return -1;
    /* the multipliers, one per constraint row (built by sema_mb_finish) */
    if (kind == JOINT_PRISMATIC) {
        add_lambda(S, j, "lambda_n", DIM_N);
        add_lambda(S, j, "lambda_angle", DIM_NM);
    } else {
        add_lambda(S, j, "lambda_x", DIM_N);
        add_lambda(S, j, "lambda_y", DIM_N);
        if (kind == JOINT_FIXED)
            add_lambda(S, j, "lambda_angle", DIM_NM);
    }
    if (j->drive >= 0)
        add_lambda(S, j, "lambda_drive", kind == JOINT_PRISMATIC ? DIM_N : DIM_NM);
    return 0;
}

/* The initial value of the angle of marker m's frame (0 for the ground). */
static ex_id initial_angle(sema *S, const marker *m)
{
    if (m->body < 0)
        return ex_const(sema_pool(S), 0);
    return sema_ir(S)->y.v[sema_dof(S, sema_body(S, m->body)->dof0 + 2)->y].init;
}

/* The constraint rows of joint j into c[] (j->nl of them), built last, when the
 * initial angles are known. */
static void joint2d_rows(sema *S, const joint *j, ex_id *c)
{
    ex_pool *P = sema_pool(S);
    const marker *a = sema_marker(S, j->a), *b = sema_marker(S, j->b);
    ex_id dx = SUB(a->px, b->px), dy = SUB(a->py, b->py);
    ex_id locked = SUB(SUB(a->angle, b->angle), SUB(initial_angle(S, a), initial_angle(S, b)));
    int k = 0;
    if (j->kind == JOINT_PRISMATIC) {
        c[k++] = SUB(MUL(j->ex, dy), MUL(j->ey, dx)); /* no motion across the axis */
        c[k++] = locked;
    } else {
        c[k++] = dx;
        c[k++] = dy;
        if (j->kind == JOINT_FIXED)
            c[k++] = locked;
    }
    if (j->drive >= 0)
        c[k++] = SUB(j->rel, j->drive);
}

/* Members: joint.angle (s), .speed, .fx, .fy (fn), .reaction, .torque, .force. */
static int joint2d_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out)
{
    const joint *j = sema_joint(S, ji);
    ex_pool *P = sema_pool(S);
    int pr = j->kind == JOINT_PRISMATIC, nbase = j->kind == JOINT_FIXED ? 3 : 2;
    if (!strcmp(name, pr ? "s" : "angle")) {
        *out = sval_num(j->rel, pr ? DIM_M : units_none);
    } else if (!strcmp(name, "speed")) {
        *out = sval_num(j->rel_v, pr ? DIM_MS : DIM_PS);
    } else if (!pr && (!strcmp(name, "fx") || !strcmp(name, "fy"))) {
        *out = reaction(S, j, name[1] == 'y', DIM_N);
    } else if (pr && !strcmp(name, "fn")) {
        *out = reaction(S, j, 0, DIM_N);
    } else if (!strcmp(name, "reaction")) { /* the magnitude of the reaction force */
        ex_id fx = ex_var(P, EX_Y, j->l0), fy = ex_var(P, EX_Y, j->l0 + 1);
        ex_id r2 = ADD(MUL(fx, fx), MUL(fy, fy)); /* 0 with a derivative 0 at rest */
        *out = sval_num(pr ? ex_op1(P, EX_ABS, fx)
                           : ex_if(P, ex_op2(P, EX_GT, r2, ex_const(P, 0)),
                                   ex_op1(P, EX_SQRT, r2), ex_const(P, 0)), DIM_N);
    } else if (!strcmp(name, "torque") && (pr || j->kind == JOINT_FIXED)) {
        *out = reaction(S, j, pr ? 1 : 2, DIM_NM);
    } else if (!strcmp(name, pr ? "force" : "torque") && j->drive >= 0) {
        *out = reaction(S, j, nbase, pr ? DIM_N : DIM_NM);
    } else {
        diag_error(sema_dc(S), loc, "joint '%s' has no member '%s' (it has %s)", j->name, name,
                   pr ? "s, speed, fn, reaction, torque and, with a drive, force"
                   : j->kind == JOINT_FIXED
                       ? "angle, speed, fx, fy, reaction, torque"
                       : "angle, speed, fx, fy, reaction and, with a drive, torque");
        return -1;
    }
    return 0;
}

const sema_kind sema_kind_joint2d = {
    .name = "planar joint",
    .joint_dim = 2,
    .joint_build = joint2d_build,
    .joint_rows = joint2d_rows,
    .joint_member = joint2d_member,
};
