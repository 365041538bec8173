/*
 * multibody.c: the index-3 DAE of a model with rigid bodies or joints
 * (jnt/abi.h): M q'' = Q - C_q^T lambda, C(q, t) = 0, with the states ordered
 * y = [q, v, z, lambda]; the joints' rows (from their families: kinds/joint2d.c
 * builds planar rows here, when the initial angles are known), the
 * mass matrix and the rates C_t, gamma the integrators' start needs.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "dims.h"
#include "front/alloc.h"


#define ADD(a, b) ex_op2(P, EX_ADD, (a), (b))
#define SUB(a, b) ex_op2(P, EX_SUB, (a), (b))
#define MUL(a, b) ex_op2(P, EX_MUL, (a), (b))
#define Y(i) ex_var(P, EX_Y, (i))

/* The rows of constraint group g into c[] (at most 8) and their first
 * multiplier's state into *l0: joint g, or for g >= njoint the orthonormality
 * of rigid3d body g - njoint. Returns how many. */
static int group_rows(sema *S, int g, ex_id *c, int *l0)
{
    if (g < S->njoint) {
        sema_joint_rows(S, &S->joints[g], c);
        *l0 = S->joints[g].l0;
        return S->joints[g].nl;
    }
    const body *b = &S->bodies[g - S->njoint];
    memcpy(c, b->rows, (size_t)b->nrows * sizeof *c);
    *l0 = b->l0;
    return b->nrows;
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

/* See passes.h. */
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
    sema_kinds_run(S, offsetof(sema_kind, mb_check)); /* flexible bodies: their elements */
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

/* See passes.h. */
void sema_mb_free(sema *S)
{
    for (int i = 0; i < S->nmarker; i++)
        free(S->markers[i].name);
    for (int i = 0; i < S->njoint; i++)
        free(S->joints[i].name);
    free(S->markers);
    free(S->joints);
}

/* See passes.h: (Q - C_q^T lambda) / m for coordinate di (its rows of C
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
