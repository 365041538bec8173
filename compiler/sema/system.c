/*
 * system.c: the coordinates every kind builds on: degrees of freedom (a
 * body's coordinates, expression points, substructure nodes), markers (points
 * fixed in a body or the ground, planar or spatial), pairs and triples of a
 * dimension, virtual displacements, gravity, the mass of a coordinate and
 * the accelerations outputs read. Kinds call these; they name no kind.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "dims.h"
#include "sema_v3.h"
#include "front/alloc.h"


#define ADD(a, b) ex_op2(P, EX_ADD, (a), (b))
#define SUB(a, b) ex_op2(P, EX_SUB, (a), (b))
#define MUL(a, b) ex_op2(P, EX_MUL, (a), (b))
#define Y(i) ex_var(P, EX_Y, (i))

/* See core.h. */
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

/* A point dof whose position is pos, an expression of the bodies'
 * coordinates q (a marker's coordinate, the length between two markers, a
 * joint's coordinate) and of the gathered positions u_g of substructure
 * points (a flexible body's node): its force goes to each q_j as
 * d(pos)/d(q_j) F and to each u_g as d(pos)/d(u_g) F. */
int sema_expr_dof(sema *S, char *name, const char *short_name, ex_id pos)
{
    ex_pool *P = S->pool;
    dof f = {.name = name, .short_name = short_name, .body = -1, .y = -1, .sub = -1,
             .g = -1, .point = 1, .force = ex_const(P, 0), .acc = -1, .motion = -1,
             .pos = pos, .vel = ex_diff(P, pos, EX_T, 0)};
    sema_mb_lin(S, &f, pos, 0, NULL, NULL);
    return sema_mb_push_dof(S, &f);
}

/* See core.h. */
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

/* See core.h. */
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

/* See core.h. */
int sema_mb_push_dof(sema *S, const dof *f)
{
    XGROW(S->dofs, S->capdof, S->ndof);
    S->dofs[S->ndof] = *f;
    return S->ndof++;
}

/* The ground's marker m (no coordinates as dofs). */
static int add_ground_marker(sema *S, marker m)
{
    XGROW(S->markers, S->capmarker, S->nmarker);
    S->markers[S->nmarker] = m;
    return S->nmarker++;
}

/* See core.h: the marker m, its coordinates as point dofs. */
int sema_mb_add_marker(sema *S, marker m)
{
    m.dx = sema_expr_dof(S, xasprintf("%s.x", m.name), "x", m.px);
    m.dy = sema_expr_dof(S, xasprintf("%s.y", m.name), "y", m.py);
    m.dz = m.d3 ? sema_expr_dof(S, xasprintf("%s.z", m.name), "z", m.pz) : -1;
    XGROW(S->markers, S->capmarker, S->nmarker);
    S->markers[S->nmarker] = m;
    return S->nmarker++;
}

/* See passes.h: m g on the centre of mass of every rigid body. */
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
        if (!b->kind->weighs || b->mass.k != V_NUM)
            continue;
        for (int k = 0; k < nd; k++) {
            dof *f = &S->dofs[b->dof0 + k];
            f->force = ADD(f->force, MUL(b->mass.e, gxy[k]));
        }
    }
}

/* See passes.h. */
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

/* See core.h. */
int sema_mb_triple(sema *S, const scope *sc, const ast *e, jnt_dim dim, const char *what,
                   ex_id out[3])
{
    if (e->kind != AST_TUPLE || e->nkids != 3) {
        diag_error(S->dc, e->loc, "%s is a triple (x, y, z) in a spatial model", what);
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        sval v = sema_num_dim(S, sc, e->kids[k], dim, what);
        if (v.k != V_NUM)
            return -1;
        if (sema_is_dynamic(S, v.e)) {
            diag_error(S->dc, e->kids[k]->loc, "%s may use parameters only", what);
            return -1;
        }
        out[k] = v.e;
    }
    return 0;
}

/* See passes.h. */
ex_id sema_mb_dof_mass(sema *S, const dof *f)
{
    const body *b = &S->bodies[f->body];
    int k = (int)(f - S->dofs) - b->dof0;
    sval mv = b->mass;
    if (b->rigid3 && k >= 3)
        return b->mass.k == V_NUM ? b->euler[(k - 3) / 3] : ex_const(S->pool, 1);
    if (b->rigid && !strcmp(f->short_name, "angle"))
        mv = b->inertia;
    return mv.k == V_NUM ? mv.e : ex_const(S->pool, 1);
}

/* See core.h. */
void sema_mb3d_marker(sema *S, body *b, const char *name, const ex_id X[3], const ex_id *rot)
{
    ex_pool *P = S->pool;
    v3 r = {{S->dofs[b->dof0].pos, S->dofs[b->dof0 + 1].pos, S->dofs[b->dof0 + 2].pos}};
    for (int i = 0; i < 3; i++) {
        ex_id xi = X[i]; /* along director i: with principal axes, (pq^T X)_i */
        if (b->paxes)
            xi = ADD(ADD(MUL(C(b->pq[i]), X[0]), MUL(C(b->pq[3 + i]), X[1])),
                     MUL(C(b->pq[6 + i]), X[2]));
        r = v_add(P, r, v_scale(P, xi, mb3_director(S, b, i)));
    }
    marker m = {.name = xasprintf("%s.%s", b->name, name), .short_name = name,
                .body = (int)(b - S->bodies), .angle = -1, .px = r.c[0], .py = r.c[1],
                .pz = r.c[2], .d3 = 1, .rot_on = rot != NULL};
    for (int k = 0; rot && k < 3; k++)
        m.rot[k] = rot[k], m.rotv[k] = rot[3 + k];
    sema_mb_add_marker(S, m);
}

/* See core.h. */
int sema_flex_of_sub(const sema *S, int si)
{
    for (int i = 0; i < S->nbody; i++)
        if (S->bodies[i].flex && S->bodies[i].sub == si)
            return i;
    return -1;
}

/* See core.h. */
int sema_sub_node_dof(sema *S, int si, int node, int comp, jnt_loc loc)
{
    subst *b = &S->subs[si];
    static const char *const comps[] = {"ux", "uy", "uz", "rx", "ry", "rz"};
    char *name = xasprintf("%s.node%d.%s", b->name, b->fe->node[node].id, comps[comp]);
    for (int i = 0; i < S->ndof; i++)
        if (S->dofs[i].sub == si && !strcmp(S->dofs[i].name, name)) {
            free(name);
            return i;
        }
    red_basis basis = {b->ndof, b->r, b->phi};
    double *coef = xmalloc((size_t)b->r * sizeof *coef);
    char err[512] = "";
    if (red_point_row(b->fe, &basis, node, comp, coef, err, sizeof err) <= 0) {
        diag_error(S->dc, loc, "%s has no degree of freedom here (fixed, or not a component of "
                               "this element type)", name);
        free(name);
        free(coef);
        return -1;
    }
    XGROW(S->dofs, S->capdof, S->ndof);
    dof *f = &S->dofs[S->ndof];
    *f = (dof){.name = name, .short_name = comps[comp], .body = -1, .y = -1, .sub = si,
               .force = ex_const(S->pool, 0), .acc = -1, .motion = -1, .g = S->ngather++};
    f->coef = coef;
    /* u = sum_k coef_k q_k and v = sum_k coef_k qd_k: gathered by the runtime
     * (the coefficients become a row of the block's R, sema_sub_gather) */
    f->pos = ex_var(S->pool, EX_UP, f->g);
    f->vel = ex_var(S->pool, EX_UV, f->g);
    return S->ndof++;
}

/* See core.h. */
int sema_mb_ground_point(sema *S, const scope *sc, const ast *e, const char *owner)
{
    ex_id xy[3];
    if (e->kind == AST_TUPLE && e->nkids == 3) {
        if (sema_mb_triple(S, sc, e, DIM_M, "a point of the ground", xy) != 0)
            return -1;
        marker m = {.name = xasprintf("%s.ground", owner), .short_name = "ground", .body = -1,
                    .px = xy[0], .py = xy[1], .pz = xy[2], .angle = -1, .dx = -1, .dy = -1,
                    .dz = -1, .d3 = 1};
        return add_ground_marker(S, m);
    }
    if (sema_mb_pair(S, sc, e, DIM_M, "a point of the ground", xy) != 0)
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
