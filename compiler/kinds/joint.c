/*
 * joint.c: the joint kind, `joint NAME : KIND(A, B, ...)` between two
 * markers: planar joints (revolute, prismatic, fixed: their rows built by
 * sema/multibody.c when the initial angles are known) and spatial joints
 * (spherical, revolute, universal, cylindrical, prismatic, planar, fixed:
 * their rows here, from axes given in the world frame at t = 0; the table
 * of rows is in kinds/rigid3d.c's header); their multipliers, drives and
 * members (reactions, relative coordinate).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "front/alloc.h"
#include "sema/core.h"
#include "sema/dims.h"
#include "sema/sema_v3.h"


#define ADD(a, b) ex_op2(P, EX_ADD, (a), (b))
#define SUB(a, b) ex_op2(P, EX_SUB, (a), (b))
#define MUL(a, b) ex_op2(P, EX_MUL, (a), (b))
#define Y(i) ex_var(P, EX_Y, (i))

static int sema_joint3d(sema *S, joint *j, const ast *axis, const ast *axis_b, const ast *drive);
static int sema_joint3d_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out);

/* A joint's endpoint: a marker, or a point (x, y) of the ground. */
static int endpoint(sema *S, const ast *e, const char *jname)
{
    if (e->kind == AST_TUPLE)
        return sema_mb_ground_point(S, e, jname);
    sval v = sema_eval(S, sema_global(S), e);
    if (v.k == V_MARKER)
        return v.id;
    if (v.k != V_ERR)
        diag_error(sema_dc(S), e->loc,
                   "a joint connects markers (body.marker) or a point (x, y) of "
                   "the ground, not %s",
                   sema_kind_name(S, v));
    return -1;
}

/* A multiplier state of joint j: its name and dimension. */
static void add_lambda(sema *S, joint *j, const char *what, jnt_dim dim)
{
    int i = ir_add(&sema_ir(S)->y, xasprintf("%s.%s", j->name, what), -1, ex_const(sema_pool(S), 0),
                   dim, j->decl->loc);
    if (j->nl++ == 0)
        j->l0 = i;
}

/* Pass 2: the dofs x, y, angle and the markers of rigid2d body b. */
/* Pass 2: `joint NAME : KIND(A, B, ...)`. */
static void sema_declare_joint(sema *S, sym *s)
{
    static const char *const kinds[7] = {"revolute", "prismatic", "fixed", "spherical",
                                         "universal", "cylindrical", "planar"};
    const ast *d = s->decl;
    ex_pool *P = sema_pool(S);
    sema_set_multibody(S, 0);
    s->done = 1;
    int kind = -1;
    for (int k = 0; k < 7; k++)
        if (strcmp(d->str, kinds[k]) == 0)
            kind = k;
    if (kind < 0) {
        const char *best = jnt_closest_name(d->str, kinds, 7);
        diag_error(sema_dc(S), d->loc,
                   "unknown joint '%s'%s%s%s (known: revolute, prismatic, fixed; "
                   "spatial: spherical, universal, cylindrical, planar)",
                   d->str, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        return;
    }
    joint j = {.name = xstrdup(d->name), .decl = d, .kind = kind, .a = -1, .b = -1,
               .drive = -1};
    const ast *ends[2] = {0}, *axis = NULL, *axis_b = NULL, *drive = NULL;
    int pos = 0, spatial_args = 0;
    for (int i = 0; i < d->nkids; i++) {
        const ast *a = d->kids[i];
        if (a->kind != AST_ARG && pos < 2) {
            ends[pos++] = a;
        } else if (a->kind == AST_ARG && !strcmp(a->name, "axis")) {
            axis = a->kids[0];
        } else if (a->kind == AST_ARG && !strcmp(a->name, "axis_b")) {
            axis_b = a->kids[0];
        } else if (a->kind == AST_ARG && !strcmp(a->name, "drive")) {
            drive = a->kids[0];
        } else {
            diag_error(sema_dc(S), a->loc, "'%s' takes two markers%s", kinds[kind],
                       kind == JOINT_PRISMATIC  ? ", 'axis' and 'drive'"
                       : kind == JOINT_REVOLUTE ? " and 'drive'"
                                                : "");
            goto fail;
        }
    }
    if (!ends[1]) {
        diag_error(sema_dc(S), d->loc, "a joint connects two markers: %s(body1.A, body2.B)",
                   kinds[kind]);
        goto fail;
    }
    j.a = endpoint(S, ends[0], j.name);
    j.b = endpoint(S, ends[1], j.name);
    if (j.a < 0 || j.b < 0)
        goto fail;
    const marker *ma = sema_marker(S, j.a), *mb = sema_marker(S, j.b);
    if (ma->body >= 0 && ma->body == mb->body) {
        diag_error(sema_dc(S), d->loc, "joint '%s' connects two markers of the same body", j.name);
        goto fail;
    }
    if (ma->d3 || mb->d3) {
        if (sema_joint3d(S, &j, axis, axis_b, drive) != 0)
            goto fail;
        goto done;
    }
    spatial_args = kind >= JOINT_SPHERICAL ? 1 : axis_b ? 2 : axis && kind != JOINT_PRISMATIC
                   ? 3 : drive && kind == JOINT_FIXED ? 4 : 0;
    if (spatial_args) {
        diag_error(sema_dc(S), d->loc,
                   spatial_args == 1   ? "a %s joint is spatial: it connects "
                                         "markers of rigid3d bodies or points (x, y, z) of the ground"
                   : spatial_args == 4 ? "a %s joint takes no drive"
                                       : "a planar %s joint takes no '%s'",
                   d->str, spatial_args == 2 ? "axis_b" : "axis");
        goto fail;
    }
    ex_set_loc(P, d->loc);
    ex_id th = SUB(ma->angle, mb->angle);
    if (kind == JOINT_PRISMATIC) {
        ex_id a[2] = {ex_const(P, 1), ex_const(P, 0)};
        if (axis && sema_mb_pair(S, sema_global(S), axis, units_none, "the axis", a) != 0)
            goto fail;
        ex_id len = ex_op1(P, EX_SQRT, ADD(MUL(a[0], a[0]), MUL(a[1], a[1])));
        ex_id ax = ex_op2(P, EX_DIV, a[0], len), ay = ex_op2(P, EX_DIV, a[1], len);
        ex_id c = ex_op1(P, EX_COS, mb->angle), sn = ex_op1(P, EX_SIN, mb->angle);
        j.ex = SUB(MUL(c, ax), MUL(sn, ay)); /* the axis turns with b's frame */
        j.ey = ADD(MUL(sn, ax), MUL(c, ay));
        j.rel = ADD(MUL(j.ex, SUB(ma->px, mb->px)), MUL(j.ey, SUB(ma->py, mb->py)));
    } else {
        j.rel = th;
    }
    j.rel_v = ex_diff(P, j.rel, EX_T, 0);
    for (int i = 0; i < sema_ir(S)->y.n; i++)
        if (ex_depends(P, j.rel, EX_Y, i))
            j.rel_v = ADD(j.rel_v, MUL(ex_diff(P, j.rel, EX_Y, i), Y(i + 1)));
    if (drive) {
        sval v = sema_num_dim(S, sema_global(S), drive,
                              kind == JOINT_PRISMATIC ? DIM_M : units_none, "the drive");
        if (v.k != V_NUM)
            goto fail;
        if (!sema_is_time_only(S, v.e)) {
            diag_error(sema_dc(S), drive->loc, "a drive is a function of time and parameters");
            goto fail;
        }
        j.drive = v.e;
    }
    /* the multipliers, one per constraint row (built by sema_mb_finish) */
    if (kind == JOINT_PRISMATIC) {
        add_lambda(S, &j, "lambda_n", DIM_N);
        add_lambda(S, &j, "lambda_angle", DIM_NM);
    } else {
        add_lambda(S, &j, "lambda_x", DIM_N);
        add_lambda(S, &j, "lambda_y", DIM_N);
        if (kind == JOINT_FIXED)
            add_lambda(S, &j, "lambda_angle", DIM_NM);
    }
    if (j.drive >= 0)
        add_lambda(S, &j, "lambda_drive", kind == JOINT_PRISMATIC ? DIM_N : DIM_NM);
done:
    s->inst = xmalloc(sizeof *s->inst);
    s->inst[0] = sema_add_joint(S, &j);
    s->ninst = 1;
    return;
fail:
    free(j.name);
}

/* The multiplier of joint j's row k, negated: the reaction on its first body. */
static sval reaction(sema *S, const joint *j, int k, jnt_dim dim)
{
    return sval_num(ex_op1(sema_pool(S), EX_NEG, ex_var(sema_pool(S), EX_Y, j->l0 + k)), dim);
}

/* Pass 3: mass and inertia of rigid2d body b; gravity on every body. */
/* A point (x, y) of the ground as a marker of its own (owner names it);
 * -1 after an error. */
/* Elements between markers and on joints act on a point dof made for them:
 * the length |r_a - r_b| between markers ma and mb (`ename.length`), or a
 * joint's coordinate, its slide s (prismatic) or radius times its angle
 * (revolute; radius in m), `ename.slip`. Return the dof. */
/* The length of the energy-consistent form for the midpoint rule (seed 001
 * eq. 4): with u = r_a - r_b, its value at the step's start u_i kept in
 * discrete states (updated at each step end) and u_f = 2 u - u_i (u is
 * evaluated at the midpoint), the dof's position is (|u_i| + |u_f|)/2 and
 * its virtual displacement n_m . du, n_m = 2 u / (|u_i| + |u_f|), so that a
 * force F on it does the work F (|u_f| - |u_i|) over a step. *li, *lf: the
 * two lengths. At a step end (outputs) the position is |u|. */
/* F_eq of element ei on joint ji (see sema_equiv_force): a prismatic joint
 * to the ground whose body has no other joint. 0 or -1 (error reported). */
/* Members: marker.x, .y, .vx, .vy; joint.fx, .fy, .torque, ... */
static int sema_joint_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out)
{
    int ji = base.id;
    const joint *j = sema_joint(S, ji);
    ex_pool *P = sema_pool(S);
    if (j->d3)
        return sema_joint3d_member(S, ji, name, loc, out);
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

/* kinds/rigid3d.c: spatial multibody (rigid3d bodies in director coordinates,
 * spatial markers and joints) */
/* Pass 2: the dofs x, y, z, d1, d2, d3, the mass and the markers of rigid3d
 * body b. */
/* Pass 2: a flexible3d body's frame (rigid3d's coordinates and rows); its
 * substructure, invariants and markers come with sema_flex_bind. */
/* A marker of spatial body b at body-frame place X (expressions; a node's
 * may hold its gathered elastic displacement): x + sum_i X_i d_i. rot: a
 * node's elastic rotation and its rate (6 expressions), or NULL. */
/* Joint j (kind, name, decl, markers a and b set; one of them spatial): its
 * rows, relative coordinate and multipliers from `axis`, `axis_b` and
 * `drive` (each may be NULL). 0 or -1 after an error. */
static int sema_joint3d(sema *S, joint *j, const ast *axis, const ast *axis_b, const ast *drive)
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
    j->rel_v = ex_diff(P, j->rel, EX_T, 0);
    for (int i = 0; i < sema_ir(S)->y.n; i++)
        if (ex_depends(P, j->rel, EX_Y, i))
            j->rel_v = ADD(j->rel_v, MUL(ex_diff(P, j->rel, EX_Y, i), ex_var(P, EX_Y, i + 1)));
    if (drive) {
        sval v = sema_num_dim(S, sema_global(S), drive, slide ? DIM_M : units_none, "the drive");
        if (v.k != V_NUM)
            return -1;
        if (!sema_is_time_only(S, v.e)) {
            diag_error(sema_dc(S), drive->loc, "a drive is a function of time and parameters");
            return -1;
        }
        j->drive = v.e;
        ex_id row = slide ? SUB(j->rel, v.e)
                          : SUB(MUL(ex_op1(P, EX_COS, v.e), v_dot(P, pa, sb)),
                                MUL(ex_op1(P, EX_SIN, v.e), v_dot(P, pa, pb)));
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
static int sema_joint3d_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out)
{
    ex_pool *P = sema_pool(S);
    const joint *j = sema_joint(S, ji);
    if (!j->d3)
        return 1;
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

const sema_kind sema_kind_joint = {
    .name = "joint",
    .sym = SYM_JOINT,
    .pass = 2,
    .declare = sema_declare_joint,
    .vk = {V_JOINT},
    .nvk = 1,
    .member = sema_joint_member,
};
