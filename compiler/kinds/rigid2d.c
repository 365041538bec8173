/*
 * rigid2d.c: planar multibody. A rigid2d body has the coordinates x, y of
 * its centre of mass and its angle; a marker is a point fixed in it (or in
 * the ground), whose coordinates are `points` made of the body's coordinates
 * (kinds/point.c hands their forces on by virtual work, with coefficients
 * that turn with the body). A joint between two markers adds constraint rows
 * C(q, t) = 0 and their multipliers lambda (states); the model becomes the
 * index-3 DAE of jnt/abi.h:
 *   M q'' = Q - C_q^T lambda,   C(q, t) = 0,
 * with the states ordered y = [q, v, z, lambda] by sema_mb_finish, which also
 * gives the mass matrix (diagonal: m, m, J per rigid body, m per point-body
 * dof) and the rates C_t, gamma the integrators' initial conditions need.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sema/sema_int.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_MS = {{0, 6, -6, 0, 0}};
static const jnt_dim DIM_PS = {{0, 0, -6, 0, 0}};
static const jnt_dim DIM_KG = {{6, 0, 0, 0, 0}};
static const jnt_dim DIM_KGM2 = {{6, 12, 0, 0, 0}};
static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};
static const jnt_dim DIM_NM = {{6, 12, -12, 0, 0}};
static const jnt_dim DIM_ACC = {{0, 6, -12, 0, 0}};

#define ADD(a, b) ex_op2(P, EX_ADD, (a), (b))
#define SUB(a, b) ex_op2(P, EX_SUB, (a), (b))
#define MUL(a, b) ex_op2(P, EX_MUL, (a), (b))
#define Y(i) ex_var(P, EX_Y, (i))

/* See sema_int.h. */
int sema_mb_pair(sema *S, const scope *sc, const ast *e, jnt_dim dim, const char *what,
                     ex_id out[2])
{
    if (e->kind != AST_TUPLE || e->nkids != 2) {
        diag_error(S->dc, e->loc, "%s is a pair (x, y)", what);
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        sval v = sema_num_dim(S, sc, e->kids[k], dim, what);
        if (v.k != V_NUM)
            return -1;
        out[k] = v.e;
    }
    return 0;
}

/* See sema_int.h. */
int sema_mb_add_dof(sema *S, body *b, const char *short_name, jnt_dim dim, jnt_loc loc)
{
    XGROW(S->dofs, S->capdof, S->ndof);
    dof *f = &S->dofs[S->ndof];
    *f = (dof){.name = xasprintf("%s.%s", b->name, short_name), .short_name = short_name,
               .body = (int)(b - S->bodies), .sub = -1, .g = -1,
               .force = ex_const(S->pool, 0), .acc = -1, .motion = -1};
    f->y = ir_add(&S->m->y, xstrdup(f->name), -1, ex_const(S->pool, 0), dim, loc);
    ir_add(&S->m->y, xasprintf("%s.v", f->name), -1, ex_const(S->pool, 0),
           units_div(dim, (jnt_dim){{0, 0, 6, 0, 0}}), loc);
    f->pos = ex_var(S->pool, EX_Y, f->y);
    f->vel = ex_var(S->pool, EX_Y, f->y + 1);
    return S->ndof++;
}

/* A point dof whose position is pos, an expression of the bodies'
 * coordinates q (a marker's coordinate, the length between two markers, a
 * joint's coordinate) and of the gathered positions u_g of substructure
 * points (a flexible body's node): its force goes to each q_j as
 * d(pos)/d(q_j) F and to each u_g as d(pos)/d(u_g) F. */
static int expr_dof(sema *S, char *name, const char *short_name, ex_id pos)
{
    ex_pool *P = S->pool;
    dof f = {.name = name, .short_name = short_name, .body = -1, .y = -1, .sub = -1,
             .g = -1, .point = 1, .force = ex_const(P, 0), .acc = -1, .motion = -1,
             .pos = pos, .vel = ex_diff(P, pos, EX_T, 0)};
    sema_mb_lin(S, &f, pos, 0, NULL, NULL);
    return sema_mb_push_dof(S, &f);
}

/* See sema_int.h. */
void sema_mb_lin(sema *S, dof *f, ex_id e, int rate, ex_id (*coef)(sema *, ex_kind, int, void *),
                 void *ctx)
{
    ex_pool *P = S->pool;
    int nkind = S->ngather > 0 ? 2 : 1;
    for (int pass = 0; pass < nkind; pass++) {
        int n = pass ? S->ngather : S->ndof;
        for (int i = 0; i < n; i++) {
            int y = pass ? -1 : S->dofs[i].y;
            if (!pass && (S->dofs[i].body < 0 || y < 0))
                continue;
            /* the coordinate (a body's state y, or gathered point i) and its rate */
            ex_kind kx = pass ? EX_UP : EX_Y, kv = pass ? EX_UV : EX_Y;
            int ix = pass ? i : y, iv = pass ? i : y + 1;
            ex_id cf;
            if (coef) {
                cf = coef(S, kx, ix, ctx);
            } else {
                if (!ex_depends(P, e, rate ? kv : kx, rate ? iv : ix))
                    continue;
                cf = ex_diff(P, e, rate ? kv : kx, rate ? iv : ix);
            }
            if (cf < 0)
                continue;
            XGROW(f->lin_y, f->caplin, f->nlin);
            f->lin_c = xrealloc(f->lin_c, (size_t)f->caplin * sizeof *f->lin_c);
            f->lin_y[f->nlin] = pass ? -1 - i : y;
            f->lin_c[f->nlin++] = cf;
            if (!rate)
                f->vel = ADD(f->vel, MUL(cf, ex_var(P, kv, iv)));
        }
    }
}

/* See sema_int.h. */
int sema_mb_push_dof(sema *S, const dof *f)
{
    XGROW(S->dofs, S->capdof, S->ndof);
    S->dofs[S->ndof] = *f;
    return S->ndof++;
}

/* See sema_int.h: the marker m, its coordinates as point dofs. */
int sema_mb_add_marker(sema *S, marker m)
{
    m.dx = expr_dof(S, xasprintf("%s.x", m.name), "x", m.px);
    m.dy = expr_dof(S, xasprintf("%s.y", m.name), "y", m.py);
    m.dz = m.d3 ? expr_dof(S, xasprintf("%s.z", m.name), "z", m.pz) : -1;
    XGROW(S->markers, S->capmarker, S->nmarker);
    S->markers[S->nmarker] = m;
    return S->nmarker++;
}

/* The ground's marker m (no coordinates as dofs). */
static int add_ground_marker(sema *S, marker m)
{
    XGROW(S->markers, S->capmarker, S->nmarker);
    S->markers[S->nmarker] = m;
    return S->nmarker++;
}

/* See sema_int.h. */
void sema_declare_rigid2d(sema *S, body *b)
{
    ex_pool *P = S->pool;
    const ast *d = b->decl;
    S->multibody = 1;
    b->rigid = 1;
    int ix = sema_mb_add_dof(S, b, "x", DIM_M, d->loc);
    sema_mb_add_dof(S, b, "y", DIM_M, d->loc);
    sema_mb_add_dof(S, b, "angle", units_none, d->loc);
    b->ndof = 3;
    ex_id x = S->dofs[ix].pos, y = S->dofs[ix + 1].pos, th = S->dofs[ix + 2].pos;
    ex_id c = ex_op1(P, EX_COS, th), s = ex_op1(P, EX_SIN, th);
    scope isc = {.up = &S->global, .iname = b->iname, .ival = b->ival};
    for (int j = 0; j < d->nkids; j++) {
        const ast *q = d->kids[j];
        if (q->kind == AST_DOF) {
            diag_error(S->dc, q->loc, "a rigid2d body has the coordinates x, y and angle; "
                                      "declare points fixed in it with 'marker NAME = (x, y)'");
            continue;
        }
        if (q->kind != AST_MARKER)
            continue;
        for (int i = 0; i < S->nmarker; i++)
            if (S->markers[i].body == (int)(b - S->bodies) &&
                strcmp(S->markers[i].short_name, q->name) == 0) {
                diag_error(S->dc, q->loc, "marker '%s' is declared twice", q->name);
                goto next;
            }
        ex_id sxy[2];
        if (sema_mb_pair(S, b->iname ? &isc : &S->global, q->kids[0], DIM_M,
                      "a marker's position in its body", sxy) != 0)
            continue;
        if (sema_is_dynamic(S, sxy[0]) || sema_is_dynamic(S, sxy[1])) {
            diag_error(S->dc, q->kids[0]->loc, "a marker's position in its body may use "
                                               "parameters only");
            continue;
        }
        ex_set_loc(P, q->loc);
        marker m = {.name = xasprintf("%s.%s", b->name, q->name), .short_name = q->name,
                    .body = (int)(b - S->bodies), .angle = th,
                    .px = ADD(x, SUB(MUL(c, sxy[0]), MUL(s, sxy[1]))),
                    .py = ADD(y, ADD(MUL(s, sxy[0]), MUL(c, sxy[1])))};
        sema_mb_add_marker(S, m);
    next:;
    }
}

/* See sema_int.h. */
void sema_rigid2d_mass(sema *S, body *b)
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
            diag_error(S->dc, a->loc, "'rigid2d' takes 'mass', 'inertia' (about its centre "
                                      "of mass) and 'shape'");
            return;
        }
        given[k] = a->kind == AST_ARG ? a->kids[0] : a;
    }
    scope isc = {.up = &S->global, .iname = b->iname, .ival = b->ival};
    sval v[2];
    for (int k = 0; k < 2; k++) {
        if (!given[k]) {
            diag_error(S->dc, d->loc, "'rigid2d' needs its %s: rigid2d(mass = 1 kg, "
                                      "inertia = 0.01 kg*m^2)", names[k]);
            return;
        }
        v[k] = sema_num_dim(S, b->iname ? &isc : &S->global, given[k], dims[k], names[k]);
        if (v[k].k != V_NUM)
            return;
        double x;
        if (sema_is_dynamic(S, v[k].e) ||
            (sema_fixed_value(S, v[k].e, &x) && !sema_mass_ok(k ? POS_INERTIA : POS_MASS, x))) {
            diag_error(S->dc, given[k]->loc, "the %s must be positive and use parameters only",
                       names[k]);
            return;
        }
    }
    b->mass = v[0];
    b->inertia = v[1];
}

/* See sema_int.h: m g on the centre of mass of every rigid body. */
void sema_mb_gravity(sema *S)
{
    const ast *g = NULL;
    for (int i = 0; S->model && i < S->model->nkids; i++) {
        const ast *d = S->model->kids[i];
        for (int j = 0; d->kind == AST_SIMULATE && j < d->nkids; j++)
            if (strcmp(d->kids[j]->name, "gravity") == 0)
                g = d->kids[j]->kids[0];
    }
    ex_id gxy[3];
    int nd = S->spatial ? 3 : 2;
    if (!g || (S->spatial ? sema_mb_triple(S, &S->global, g, DIM_ACC, "gravity", gxy)
                          : sema_mb_pair(S, &S->global, g, DIM_ACC, "gravity", gxy)) != 0)
        return;
    if (!S->multibody)
        diag_error(S->dc, g->loc, "gravity acts on rigid bodies: this model has none");
    ex_pool *P = S->pool;
    ex_set_loc(P, g->loc);
    for (int k = 0; k < nd; k++)
        S->gravity[k] = gxy[k];
    for (int i = 0; i < S->nbody; i++) {
        body *b = &S->bodies[i];
        if (!(b->rigid || b->rigid3) || b->mass.k != V_NUM)
            continue;
        for (int k = 0; k < nd; k++) {
            dof *f = &S->dofs[b->dof0 + k];
            f->force = ADD(f->force, MUL(b->mass.e, gxy[k]));
        }
    }
}

/* See sema_int.h. */
int sema_mb_ground_point(sema *S, const ast *e, const char *owner)
{
    ex_id xy[3];
    if (e->kind == AST_TUPLE && e->nkids == 3) {
        if (sema_mb_triple(S, &S->global, e, DIM_M, "a point of the ground", xy) != 0)
            return -1;
        marker m = {.name = xasprintf("%s.ground", owner), .short_name = "ground", .body = -1,
                    .px = xy[0], .py = xy[1], .pz = xy[2], .angle = -1, .dx = -1, .dy = -1,
                    .dz = -1, .d3 = 1};
        return add_ground_marker(S, m);
    }
    if (sema_mb_pair(S, &S->global, e, DIM_M, "a point of the ground", xy) != 0)
        return -1;
    if (sema_is_dynamic(S, xy[0]) || sema_is_dynamic(S, xy[1])) {
        diag_error(S->dc, e->loc, "a point of the ground may use parameters only");
        return -1;
    }
    marker m = {.name = xasprintf("%s.ground", owner), .short_name = "ground", .body = -1,
                .px = xy[0], .py = xy[1], .angle = ex_const(S->pool, 0), .dx = -1, .dy = -1,
                .dz = -1};
    return add_ground_marker(S, m);
}

/* A joint's endpoint: a marker, or a point (x, y) of the ground. */
static int endpoint(sema *S, const ast *e, const char *jname)
{
    if (e->kind == AST_TUPLE)
        return sema_mb_ground_point(S, e, jname);
    sval v = sema_eval(S, &S->global, e);
    if (v.k == V_MARKER)
        return v.id;
    if (v.k != V_ERR)
        diag_error(S->dc, e->loc, "a joint connects markers (body.marker) or a point (x, y) of "
                                  "the ground, not %s", sema_kind_name(S, v));
    return -1;
}

/* See sema_int.h: |r_a - r_b| as a point dof. */
int sema_mb_length(sema *S, int ma, int mb, const char *ename)
{
    ex_pool *P = S->pool;
    const marker *a = &S->markers[ma], *b = &S->markers[mb];
    ex_id dx = SUB(a->px, b->px), dy = SUB(a->py, b->py);
    ex_id l2 = ADD(MUL(dx, dx), MUL(dy, dy));
    if (a->d3 && b->d3)
        l2 = ADD(l2, MUL(SUB(a->pz, b->pz), SUB(a->pz, b->pz)));
    return expr_dof(S, xasprintf("%s.length", ename), "length", ex_op1(P, EX_SQRT, l2));
}

/* The energy-consistent length's virtual displacement: n_m . du/dx for
 * coordinate (kind, index), n_m = 2 u / (|u_i| + |u_f|) held; -1 where u does
 * not depend on it. */
typedef struct ec_ctx {
    const ex_id *u;
    int n;
    ex_id sum;
} ec_ctx;

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

/* See sema_int.h. */
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

/* See sema_int.h: the joint's slide s, or radius times its angle. A spatial
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
    return expr_dof(S, xasprintf("%s.slip", ename), "slip", pos);
}

/* See sema_int.h. The body A on the rail has no other joint, so its
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

/* A multiplier state of joint j: its name and dimension. */
static void add_lambda(sema *S, joint *j, const char *what, jnt_dim dim)
{
    int i = ir_add(&S->m->y, xasprintf("%s.%s", j->name, what), -1, ex_const(S->pool, 0), dim,
                   j->decl->loc);
    if (j->nl++ == 0)
        j->l0 = i;
}

/* See sema_int.h. */
void sema_declare_joint(sema *S, sym *s)
{
    static const char *const kinds[7] = {"revolute", "prismatic", "fixed", "spherical",
                                         "universal", "cylindrical", "planar"};
    const ast *d = s->decl;
    ex_pool *P = S->pool;
    S->multibody = 1;
    s->done = 1;
    int kind = -1;
    for (int k = 0; k < 7; k++)
        if (strcmp(d->str, kinds[k]) == 0)
            kind = k;
    if (kind < 0) {
        const char *best = jnt_closest_name(d->str, kinds, 7);
        diag_error(S->dc, d->loc, "unknown joint '%s'%s%s%s (known: revolute, prismatic, fixed; "
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
            diag_error(S->dc, a->loc, "'%s' takes two markers%s", kinds[kind],
                       kind == JOINT_PRISMATIC ? ", 'axis' and 'drive'"
                       : kind == JOINT_REVOLUTE ? " and 'drive'" : "");
            goto fail;
        }
    }
    if (!ends[1]) {
        diag_error(S->dc, d->loc, "a joint connects two markers: %s(body1.A, body2.B)",
                   kinds[kind]);
        goto fail;
    }
    j.a = endpoint(S, ends[0], j.name);
    j.b = endpoint(S, ends[1], j.name);
    if (j.a < 0 || j.b < 0)
        goto fail;
    const marker *ma = &S->markers[j.a], *mb = &S->markers[j.b];
    if (ma->body >= 0 && ma->body == mb->body) {
        diag_error(S->dc, d->loc, "joint '%s' connects two markers of the same body", j.name);
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
        diag_error(S->dc, d->loc, spatial_args == 1 ? "a %s joint is spatial: it connects "
                   "markers of rigid3d bodies or points (x, y, z) of the ground"
                   : spatial_args == 4 ? "a %s joint takes no drive"
                   : "a planar %s joint takes no '%s'", d->str,
                   spatial_args == 2 ? "axis_b" : "axis");
        goto fail;
    }
    ex_set_loc(P, d->loc);
    ex_id th = SUB(ma->angle, mb->angle);
    if (kind == JOINT_PRISMATIC) {
        ex_id a[2] = {ex_const(P, 1), ex_const(P, 0)};
        if (axis && sema_mb_pair(S, &S->global, axis, units_none, "the axis", a) != 0)
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
    for (int i = 0; i < S->m->y.n; i++)
        if (ex_depends(P, j.rel, EX_Y, i))
            j.rel_v = ADD(j.rel_v, MUL(ex_diff(P, j.rel, EX_Y, i), Y(i + 1)));
    if (drive) {
        sval v = sema_num_dim(S, &S->global, drive, kind == JOINT_PRISMATIC ? DIM_M : units_none,
                              "the drive");
        if (v.k != V_NUM)
            goto fail;
        if (!sema_is_time_only(S, v.e)) {
            diag_error(S->dc, drive->loc, "a drive is a function of time and parameters");
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
    XGROW(S->joints, S->capjoint, S->njoint);
    S->joints[S->njoint] = j;
    s->inst = xmalloc(sizeof *s->inst);
    s->inst[0] = S->njoint++;
    s->ninst = 1;
    return;
fail:
    free(j.name);
}

/* See sema_int.h. */
int sema_marker_member(sema *S, int mi, const char *name, jnt_loc loc, sval *out)
{
    const marker *m = &S->markers[mi];
    int v = name[0] == 'v';
    const char *c = name + v;
    if ((c[0] != 'x' && c[0] != 'y' && (c[0] != 'z' || !m->d3)) || c[1] || m->dx < 0) {
        diag_error(S->dc, loc, "marker '%s' has the members %s", m->name,
                   m->d3 ? "x, y, z, vx, vy and vz" : "x, y, vx and vy");
        return -1;
    }
    int di = c[0] == 'x' ? m->dx : c[0] == 'y' ? m->dy : m->dz;
    *out = v ? sval_num(S->dofs[di].vel, DIM_MS) : (sval){V_DOF, -1, units_none, di, 0, 0};
    return 0;
}

/* The multiplier of joint j's row k, negated: the reaction on its first body. */
static sval reaction(sema *S, const joint *j, int k, jnt_dim dim)
{
    return sval_num(ex_op1(S->pool, EX_NEG, ex_var(S->pool, EX_Y, j->l0 + k)), dim);
}

/* See sema_int.h. */
int sema_joint_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out)
{
    const joint *j = &S->joints[ji];
    ex_pool *P = S->pool;
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
        diag_error(S->dc, loc, "joint '%s' has no member '%s' (it has %s)", j->name, name,
                   pr ? "s, speed, fn, reaction, torque and, with a drive, force"
                   : j->kind == JOINT_FIXED ? "angle, speed, fx, fy, reaction, torque"
                   : "angle, speed, fx, fy, reaction and, with a drive, torque");
        return -1;
    }
    return 0;
}

/* The initial value of the angle of marker m's frame (0 for the ground). */
static ex_id initial_angle(sema *S, const marker *m)
{
    if (m->body < 0)
        return ex_const(S->pool, 0);
    return S->m->y.v[S->dofs[S->bodies[m->body].dof0 + 2].y].init;
}

/* The constraint rows of joint j into c[] (j->nl of them). */
static void joint_rows(sema *S, const joint *j, ex_id *c)
{
    ex_pool *P = S->pool;
    if (j->d3) {
        memcpy(c, j->rows, (size_t)j->nl * sizeof *c);
        return;
    }
    const marker *a = &S->markers[j->a], *b = &S->markers[j->b];
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

/* The rows of constraint group g into c[] (at most 8) and their first
 * multiplier's state into *l0: joint g, or for g >= njoint the orthonormality
 * of rigid3d body g - njoint. Returns how many. */
static int group_rows(sema *S, int g, ex_id *c, int *l0)
{
    if (g < S->njoint) {
        joint_rows(S, &S->joints[g], c);
        *l0 = S->joints[g].l0;
        return S->joints[g].nl;
    }
    const body *b = &S->bodies[g - S->njoint];
    memcpy(c, b->rows, (size_t)b->nrows * sizeof *c);
    *l0 = b->l0;
    return b->nrows;
}

/* See sema_int.h: (Q - C_q^T lambda) / m for coordinate di (its rows of C
 * built as sema_mb_finish builds them). */
ex_id sema_mb_accel(sema *S, int di)
{
    ex_pool *P = S->pool;
    const dof *f = &S->dofs[di];
    ex_id force = f->force;
    for (int g = 0; g < S->njoint + S->nbody; g++) {
        ex_id c[8];
        int l0, nl = group_rows(S, g, c, &l0);
        for (int k = 0; k < nl; k++)
            if (ex_depends(P, c[k], EX_Y, f->y))
                force = SUB(force, MUL(ex_diff(P, c[k], EX_Y, f->y), Y(l0 + k)));
    }
    return ex_op2(P, EX_DIV, force, sema_mb_dof_mass(S, f));
}

/* The velocity state of coordinate q (a body's dof or a flexible body's
 * elastic coordinate), before the states are ordered. */
static int vel_of(const sema *S, int q)
{
    for (int s = 0; s < S->nsub; s++)
        if (S->subs[s].phi && q >= S->subs[s].q0 && q < S->subs[s].q0 + S->subs[s].r)
            return q + S->subs[s].r;
    return q + 1;
}

/* See sema_int.h. */
void sema_mb_finish(sema *S)
{
    ir_model *m = S->m;
    ex_pool *P = S->pool;
    if (!S->multibody)
        return;
    if (m->nchains || m->nifaces) {
        diag_error(S->dc, S->model->loc, "a multibody model (rigid2d bodies, joints) cannot hold "
                                         "chains or interfaces yet");
        return;
    }
    sema_flex_check_elems(S);
    for (int s = 0; s < S->nsub; s++)
        if (S->subs[s].phi && sema_flex_of_sub(S, s) < 0) {
            diag_error(S->dc, S->subs[s].decl->loc, "in a multibody model a substructure is the "
                                                    "body of a flexible2d or flexible3d: body "
                                                    "B : flexible2d(substructure = %s)",
                       S->subs[s].name);
            return;
        }
    for (int i = 0; i < S->ndof; i++)
        if (S->dofs[i].motion >= 0) {
            diag_error(S->dc, S->dofs[i].motion_loc, "in a multibody model, prescribe a motion "
                                                     "with a joint's drive");
            return;
        }
    /* the constraint rows and their forces -C_q^T lambda on the coordinates */
    int ny = m->y.n;
    unsigned char *kind = xcalloc((size_t)ny + 1, 1); /* 1 q, 2 v, 3 lambda, 0 z */
    for (int i = 0; i < S->ndof; i++)
        if (S->dofs[i].body >= 0) {
            kind[S->dofs[i].y] = 1;
            kind[S->dofs[i].y + 1] = 2;
        }
    for (int s = 0; s < S->nsub; s++) /* flexible bodies' elastic coordinates */
        for (int k = 0; S->subs[s].phi && k < S->subs[s].r; k++) {
            kind[S->subs[s].q0 + k] = 1;
            kind[S->subs[s].q0 + S->subs[s].r + k] = 2;
        }
    for (int g = 0; g < S->njoint + S->nbody; g++) {
        ex_id c[8];
        ex_set_loc(P, g < S->njoint ? S->joints[g].decl->loc : S->bodies[g - S->njoint].decl->loc);
        int l0, nl = group_rows(S, g, c, &l0);
        for (int k = 0; k < nl; k++) {
            int l = l0 + k;
            kind[l] = 3;
            m->y.v[l].rhs = c[k];
            for (int q = 0; q < ny; q++)
                if (kind[q] == 1 && ex_depends(P, c[k], EX_Y, q))
                    m->y.v[vel_of(S, q)].rhs = SUB(m->y.v[vel_of(S, q)].rhs,
                                                   MUL(ex_diff(P, c[k], EX_Y, q), Y(l)));
            /* on a flexible body's node: a force on the gathered point */
            for (int i = 0; i < S->ndof; i++) {
                dof *f = &S->dofs[i];
                if (f->g >= 0 && ex_depends(P, c[k], EX_UP, f->g))
                    f->force = SUB(f->force, MUL(ex_diff(P, c[k], EX_UP, f->g), Y(l)));
            }
        }
    }
    /* y = [q, v, z, lambda] */
    int *order = xmalloc(((size_t)ny + 1) * sizeof *order), n = 0;
    static const int pass[4] = {1, 2, 0, 3};
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < ny; i++)
            if (kind[i] == pass[p])
                order[n++] = i;
    ex_id *repl = xmalloc(((size_t)ny + 1) * sizeof *repl);
    ir_var *vars = xmalloc(((size_t)ny + 1) * sizeof *vars);
    for (int k = 0; k < ny; k++) {
        repl[order[k]] = Y(k);
        vars[k] = m->y.v[order[k]];
    }
    memcpy(m->y.v, vars, (size_t)ny * sizeof *vars);
    sema_subst_all(S, EX_Y, repl);
    for (int k = 0; k < m->pin.n; k++)
        m->pin.v[k].rhs = ex_subst(P, m->pin.v[k].rhs, EX_Y, repl);
    for (int i = 0; i < S->ndof; i++) /* forces on gathered points (m->f comes later) */
        if (S->dofs[i].g >= 0)
            S->dofs[i].force = ex_subst(P, S->dofs[i].force, EX_Y, repl);
    for (int b = 0; b < m->nblocks; b++) {
        m->blocks[b].q0 = ex_get(P, repl[m->blocks[b].q0])->a;
        if (m->blocks[b].flags & (JNT_BLOCK_FFRF | JNT_BLOCK_FFRF3))
            m->blocks[b].frame = ex_get(P, repl[m->blocks[b].frame])->a;
    }
    for (int s = 0; s < S->nsub; s++)
        if (S->subs[s].phi)
            S->subs[s].q0 = ex_get(P, repl[S->subs[s].q0])->a;
    for (int k = 0; k < m->npos; k++) /* the checked masses' dofs (ir.h) */
        m->pos_y[k] = ex_get(P, repl[m->pos_y[k]])->a;
    m->nq = m->nc = 0;
    for (int i = 0; i < ny; i++) {
        m->nq += kind[i] == 1;
        m->nc += kind[i] == 3;
    }
    /* the pins' gradient rows (ir.h): over q, over v for a rate pin */
    int capg = 0;
    for (int k = 0; k < m->pin.n; k++)
        for (int j = 0; j < m->nq; j++) {
            int yj = m->pin_rate[k] ? m->nq + j : j;
            if (!ex_depends(P, m->pin.v[k].rhs, EX_Y, yj))
                continue;
            XGROW(m->pin_gi, capg, m->npin_g);
            m->pin_g = xrealloc(m->pin_g, (size_t)capg * sizeof *m->pin_g);
            m->pin_gi[m->npin_g] = k * m->nq + j;
            m->pin_g[m->npin_g++] = ex_diff(P, m->pin.v[k].rhs, EX_Y, yj);
        }
    /* the mass matrix's diagonal, in the order of q (flexible bodies': 0, the
     * runtime adds their mass matrices) */
    m->mass = xmalloc(((size_t)m->nq + 1) * sizeof *m->mass);
    for (int k = 0; k < m->nq; k++) {
        m->mass[k] = ex_const(P, 0);
        for (int i = 0; i < S->ndof; i++) {
            const dof *f = &S->dofs[i];
            if (f->body < 0 || f->y != order[k] || S->bodies[f->body].flex)
                continue;
            m->mass[k] = sema_mb_dof_mass(S, f);
        }
    }
    /* C_t, gamma = d/dt (C_q v + C_t) at q'' = 0, and C_q v + C_t */
    m->crate = xmalloc(((size_t)3 * m->nc + 1) * sizeof *m->crate);
    for (int k = 0; k < m->nc; k++) {
        ex_id c = m->y.v[ny - m->nc + k].rhs, ct = ex_diff(P, c, EX_T, 0), cd = ct;
        for (int q = 0; q < m->nq; q++)
            cd = ADD(cd, MUL(ex_diff(P, c, EX_Y, q), Y(m->nq + q)));
        for (int g = 0; g < S->ngather; g++) /* flexible bodies' nodes */
            if (ex_depends(P, c, EX_UP, g))
                cd = ADD(cd, MUL(ex_diff(P, c, EX_UP, g), ex_var(P, EX_UV, g)));
        ex_id g = ex_diff(P, cd, EX_T, 0);
        for (int q = 0; q < m->nq; q++)
            g = ADD(g, MUL(ex_diff(P, cd, EX_Y, q), Y(m->nq + q)));
        for (int u = 0; u < S->ngather; u++)
            if (ex_depends(P, cd, EX_UP, u))
                g = ADD(g, MUL(ex_diff(P, cd, EX_UP, u), ex_var(P, EX_UV, u)));
        m->crate[k] = ct;
        m->crate[m->nc + k] = g;
        m->crate[2 * m->nc + k] = cd;
    }
    /* the integrators of index-3 DAEs, and only those */
    if (m->integrator && strcmp(m->integrator, "hht") && strcmp(m->integrator, "generalized_alpha") &&
        strcmp(m->integrator, "radau5") && strcmp(m->integrator, "midpoint") &&
        strcmp(m->integrator, "ida") && strcmp(m->integrator, "rk4"))
        diag_error(S->dc, S->model->loc, "a multibody model runs with 'rk4', 'hht', "
                                         "'generalized_alpha', 'radau5', 'ida' or 'midpoint', "
                                         "not '%s'",
                   m->integrator);
    free(order);
    free(repl);
    free(vars);
    free(kind);
}

/* See sema_int.h. */
void sema_mb_free(sema *S)
{
    for (int i = 0; i < S->nmarker; i++)
        free(S->markers[i].name);
    for (int i = 0; i < S->njoint; i++)
        free(S->joints[i].name);
    free(S->markers);
    free(S->joints);
}
