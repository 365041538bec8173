/*
 * point.c: `point NAME[i in D] = expr`, a point whose position is a
 * linear combination of dof positions (of bodies and substructure points)
 * with coefficients that may use parameters, plus an offset that may use
 * time. Elements and forces act on it like on a dof; by virtual work its
 * force F goes to each position x_j it is made of (a position state, or a
 * substructure point's gathered position) as c_j F, where
 * c_j = d(position)/d(x_j).
 */
#include <stdlib.h>
#include <string.h>

#include "sema/core.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};

/* The velocity state of position state y, or -1 when y is not a position
 * (a velocity, a law state, an integral). */
static int velocity_of(const sema *S, int y)
{
    for (int i = 0; i < sema_ndof(S); i++)
        if (sema_dof(S, i)->body >= 0 && sema_dof(S, i)->y == y)
            return y + 1;
    for (int s = 0; s < sema_nsub(S); s++) {
        const subst *b = sema_sub(S, s);
        if (b->phi && y >= b->q0 && y < b->q0 + b->r)
            return y + b->r;
    }
    return -1;
}

/* One instance: position, coefficients, velocity. 0, or -1 after an error. */
static int make_point(sema *S, const ast *d, const scope *sc, dof *f)
{
    ex_pool *P = sema_pool(S);
    sval v = sema_num_dim(S, sc, d->kids[0], DIM_M, "a point's position");
    if (v.k != V_NUM)
        return -1;
    for (int j = 0; j < sema_ir(S)->d.n; j++)
        if (ex_depends(P, v.e, EX_D, j)) {
            diag_error(sema_dc(S), d->kids[0]->loc,
                       "a point's position may not use a discrete state "
                       "('%s')",
                       sema_ir(S)->d.v[j].name);
            return -1;
        }
    ex_id vel = ex_diff(P, v.e, EX_T, 0);
    for (int j = 0; j < sema_ir(S)->y.n; j++) {
        if (!ex_depends(P, v.e, EX_Y, j))
            continue;
        ex_id c = ex_diff(P, v.e, EX_Y, j);
        int vj = velocity_of(S, j);
        if (vj < 0 || sema_is_dynamic(S, c)) {
            diag_error(sema_dc(S), d->kids[0]->loc,
                       vj < 0 ? "a point's position is made of dof positions, not of '%s'"
                              : "a point's position must be linear in the dof positions (the "
                                "coefficient of '%s' may use parameters, not time or states)",
                       sema_ir(S)->y.v[j].name);
            return -1;
        }
        XGROW(f->lin_y, f->caplin, f->nlin);
        f->lin_c = xrealloc(f->lin_c, (size_t)f->caplin * sizeof *f->lin_c);
        f->lin_y[f->nlin] = j;
        f->lin_c[f->nlin++] = c;
        vel = ex_op2(P, EX_ADD, vel, ex_op2(P, EX_MUL, c, ex_var(P, EX_Y, vj)));
    }
    /* substructure points (lin_y = -1 - g for gathered position g) */
    for (int j = 0; j < sema_ngather(S); j++) {
        if (!ex_depends(P, v.e, EX_UP, j))
            continue;
        ex_id c = ex_diff(P, v.e, EX_UP, j);
        if (sema_is_dynamic(S, c)) {
            diag_error(sema_dc(S), d->kids[0]->loc,
                       "a point's position must be linear in the dof "
                       "positions (a coefficient may use parameters, "
                       "not time or states)");
            return -1;
        }
        XGROW(f->lin_y, f->caplin, f->nlin);
        f->lin_c = xrealloc(f->lin_c, (size_t)f->caplin * sizeof *f->lin_c);
        f->lin_y[f->nlin] = -1 - j;
        f->lin_c[f->nlin++] = c;
        vel = ex_op2(P, EX_ADD, vel, ex_op2(P, EX_MUL, c, ex_var(P, EX_UV, j)));
    }
    if (f->nlin == 0) {
        diag_error(sema_dc(S), d->kids[0]->loc, "a point's position must use at least one dof");
        return -1;
    }
    f->pos = v.e;
    f->vel = vel;
    return 0;
}

/* Pass 2: `point NAME = linear combination of dof positions`. */
static void sema_declare_point(sema *S, sym *s)
{
    const ast *d = s->decl;
    long *vals;
    int n = sema_instances(S, s, &vals);
    for (int k = 0; k < n; k++) {
        scope isc = {.up = sema_global(S),
                     .iname = d->iter ? d->iter->name : NULL,
                     .ival = d->iter ? vals[k] : 0};
        dof f = {.name = d->iter ? xasprintf("%s[%ld]", d->name, vals[k]) : xstrdup(d->name),
                 .short_name = d->name,
                 .body = -1,
                 .y = -1,
                 .sub = -1,
                 .g = -1,
                 .point = 1,
                 .force = ex_const(sema_pool(S), 0),
                 .acc = -1,
                 .motion = -1};
        if (make_point(S, d, d->iter ? &isc : sema_global(S), &f) != 0) {
            free(f.name);
            free(f.lin_y);
            free(f.lin_c);
            s->inst[k] = -1;
            continue;
        }
        s->inst[k] = sema_mb_push_dof(S, &f);
    }
    s->done = 1;
}

/* Hand the forces on points to the dofs and generalized coordinates they
 * are made of (before sema_sub_assemble). */
static void sema_point_assemble(sema *S)
{
    ex_pool *P = sema_pool(S);
    for (int i = 0; i < sema_ndof(S); i++) {
        const dof *f = sema_dof(S, i);
        if (!f->point)
            continue;
        for (int k = 0; k < f->nlin; k++) {
            int y = f->lin_y[k];
            ex_id cf = ex_op2(P, EX_MUL, f->lin_c[k], f->force);
            for (int j = 0; j < sema_ndof(S); j++)
                if ((sema_dof(S, j)->body >= 0 && sema_dof(S, j)->y == y) ||
                    (sema_dof(S, j)->sub >= 0 && sema_dof(S, j)->g == -1 - y))
                    sema_dof(S, j)->force = ex_op2(P, EX_ADD, sema_dof(S, j)->force, cf);
            for (int s = 0; s < sema_nsub(S); s++) {
                subst *b = sema_sub(S, s);
                if (b->phi && y >= b->q0 && y < b->q0 + b->r)
                    b->g[y - b->q0] = ex_op2(P, EX_ADD, b->g[y - b->q0], cf);
            }
        }
    }
}

const sema_kind sema_kind_point = {
    .name = "point",
    .sym = SYM_POINT,
    .pass = 2,
    .declare = sema_declare_point,
    .assemble = sema_point_assemble,
};
