/*
 * assemble.c: the equations of motion. Point bodies and their dofs
 * (pass 2); the masses, prescribed motions and every element's forces summed
 * per dof into m a = sum of forces (pass 3), with the equivalent force of a
 * sticking element; then, once everything is built, the prescribed dofs
 * replaced by their motion and the other states renumbered.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"


/* ---- bodies ------------------------------------------------------------------------ */

/* See passes.h. */
void sema_declare_body(sema *S, sym *s)
{
    const ast *d = s->decl;
    const sema_kind *kind = sema_body_kind(S, d->str, d->loc);
    if (!kind)
        return;
    long *vals;
    int n = sema_instances(S, s, &vals);
    for (int k = 0; k < n; k++) {
        XGROW(S->bodies, S->capbody, S->nbody);
        body *b = &S->bodies[S->nbody];
        *b = (body){.decl = d, .kind = kind, .dof0 = S->ndof, .mass = sval_err};
        b->name = d->iter ? xasprintf("%s[%ld]", d->name, vals[k]) : xstrdup(d->name);
        b->iname = d->iter ? d->iter->name : NULL;
        b->ival = d->iter ? vals[k] : 0;
        kind->declare_body(S, b);
        s->inst[k] = S->nbody++;
    }
}

/* See core.h: the one rule for masses, inertias and Euler moments. */
int sema_mass_ok(int kind, double x)
{
    return isfinite(x) && (kind == POS_EULER ? x >= 0 : x > 0);
}

/* A body's mass that uses parameters: the params kernel checks it (lower/gen_kernel.c prints
 * sema_mass_ok's comparison for its kind). */
static void add_mass_check(ir_model *m, ex_id mass, int y, int kind)
{
    m->pos_kind = xrealloc(m->pos_kind, ((size_t)m->npos + 1) * sizeof *m->pos_kind);
    m->pos_kind[m->npos] = kind;
    m->pos_mass = xrealloc(m->pos_mass, ((size_t)m->npos + 1) * sizeof *m->pos_mass);
    m->pos_y = xrealloc(m->pos_y, ((size_t)m->npos + 1) * sizeof *m->pos_y);
    m->pos_mass[m->npos] = mass;
    m->pos_y[m->npos++] = y;
}

/* ---- assembly ------------------------------------------------------------------------ */

/* The force an evaluated element applies to dof di (signed), or -1 when it
 * applies none (or failed). */
static ex_id contribution(sema *S, const elem *el, int di)
{
    if (el->force.k != V_NUM || el->kind == ELEM_MOTION)
        return -1;
    if (el->kind == ELEM_FORCEDEF)
        return el->a == di ? el->force.e : -1;
    if (el->a == di)
        return ex_op1(S->pool, EX_NEG, el->force.e);
    return el->b == di ? el->force.e : -1;
}

/* The sum of the forces on dof di from every element but `skip`. */
ex_id sema_other_forces(sema *S, int di, int skip)
{
    ex_id sum = ex_const(S->pool, 0);
    for (int i = 0; i < S->nelem; i++) {
        elem *el = &S->elems[i];
        if (i == skip || (el->a != di && el->b != di))
            continue;
        sema_eval_elem(S, i);
        ex_id c = contribution(S, el, di);
        if (c >= 0)
            sum = ex_op2(S->pool, EX_ADD, sum, c);
    }
    /* and its share of the forces on the points made of it */
    for (int p = 0; p < S->ndof && S->dofs[di].body >= 0; p++)
        for (int k = 0; k < S->dofs[p].nlin; k++)
            if (S->dofs[p].lin_y[k] == S->dofs[di].y)
                sum = ex_op2(S->pool, EX_ADD, sum, ex_op2(S->pool, EX_MUL, S->dofs[p].lin_c[k],
                                                          sema_other_forces(S, p, skip)));
    return sum;
}

/* F_eq of element ei: the force it must exert so that its two dofs have the
 * same acceleration under all the other forces (the equivalent sticking force
 * of the switching stick algorithm, seed 001 Sect. 2.9). Each side's
 * acceleration is affine in the element's force F (-F on a, +F on b):
 *   a_a = a0_a - alpha_a F,   a_b = a0_b + alpha_b F
 * (point mass: a0 = other forces / m, alpha = 1/m; ground or motion: alpha = 0;
 * substructure point: a0 = c^T Mr^-1 (g_o - Kr q - Cr qd), alpha = c^T Mr^-1 c),
 * so F_eq = (a0_a - a0_b) / (alpha_a + alpha_b). */
int sema_equiv_force(sema *S, int ei, jnt_loc loc, sval *out)
{
    ex_pool *P = S->pool;
    const elem *el = &S->elems[ei];
    if (el->joint >= 0)
        return sema_mb_equiv_force(S, ei, el->joint, loc, out);
    int side[2] = {el->a, el->b};
    ex_id a0[2], alpha[2];
    for (int k = 0; k < 2; k++) {
        int di = side[k];
        if (di < 0) {
            a0[k] = alpha[k] = ex_const(P, 0);
        } else if (S->dofs[di].motion >= 0) {
            a0[k] = S->dofs[di].acc;
            alpha[k] = ex_const(P, 0);
        } else if (S->dofs[di].point) {
            diag_error(S->dc, loc, "F_eq of '%s' is not available: '%s' is a point", el->name,
                       S->dofs[di].name);
            return -1;
        } else if (S->dofs[di].sub >= 0) {
            if (sema_kinds_dof_accel(S, di, ei, &a0[k], &alpha[k]) != 0)
                return -1;
        } else {
            body *b = &S->bodies[S->dofs[di].body];
            if (b->mass.k != V_NUM)
                return -1;
            a0[k] = ex_op2(P, EX_DIV, sema_other_forces(S, di, ei), b->mass.e);
            alpha[k] = ex_op2(P, EX_DIV, ex_const(P, 1), b->mass.e);
        }
    }
    ex_id den = ex_op2(P, EX_ADD, alpha[0], alpha[1]);
    double c;
    if (ex_is_const(P, den, &c) && c == 0) {
        diag_error(S->dc, loc, "F_eq of '%s' is undefined: neither of its dofs is free", el->name);
        return -1;
    }
    *out = sval_num(ex_op2(P, EX_DIV, ex_op2(P, EX_SUB, a0[0], a0[1]), den),
                    (jnt_dim){{6, 6, -12, 0, 0}});
    return 0;
}

/* See passes.h: masses, prescribed motions, then every element; m a = sum of
 * forces per dof. */
void sema_assemble(sema *S)
{
    ex_pool *P = S->pool;
    for (int i = 0; i < S->nbody; i++) /* by its kind (a flexible body's: its substructure's) */
        if (S->bodies[i].kind->body_mass)
            S->bodies[i].kind->body_mass(S, &S->bodies[i]);
    sema_mb_gravity(S);
    for (int i = 0; i < S->nelem; i++) {
        elem *el = &S->elems[i];
        if (el->kind != ELEM_MOTION)
            continue;
        sema_eval_elem(S, i);
        if (el->force.k != V_NUM)
            continue;
        dof *f = &S->dofs[el->a];
        if (f->body < 0) {
            diag_error(S->dc, el->decl->loc, "a motion prescribes a body's dof, but '%s' is a %s",
                       f->name, f->point ? "point" : "substructure point");
            continue;
        }
        if (f->motion >= 0) {
            diag_error(S->dc, el->decl->loc, "'%s' already has a prescribed motion", f->name);
            diag_note(S->dc, f->motion_loc, "the first one is here");
            continue;
        }
        ex_set_loc(P, el->decl->loc);
        f->motion = el->force.e;
        f->motion_loc = el->decl->loc;
        /* its acceleration is the motion's second derivative */
        f->acc = ex_diff(P, ex_diff(P, f->motion, EX_T, 0), EX_T, 0);
    }
    for (int i = 0; i < S->nbody; i++)
        if (S->bodies[i].kind->body_check)
            S->bodies[i].kind->body_check(S, &S->bodies[i]);
    for (int i = 0; i < S->nelem; i++) {
        sema_eval_elem(S, i);
        elem *el = &S->elems[i];
        ex_set_loc(P, el->decl->loc);
        for (int k = 0; k < 2; k++) {
            int di = k ? el->b : el->a;
            ex_id c = di >= 0 ? contribution(S, el, di) : -1;
            if (c >= 0)
                S->dofs[di].force = ex_op2(P, EX_ADD, S->dofs[di].force, c);
        }
    }
    sema_kinds_run(S, offsetof(sema_kind, assemble)); /* forces on points, substructures */
    for (int i = 0; i < S->ndof; i++) {
        dof *f = &S->dofs[i];
        if (f->body < 0)
            continue;
        body *b = &S->bodies[f->body];
        ex_set_loc(P, b->decl->loc);
        S->m->y.v[f->y].rhs = ex_var(P, EX_Y, f->y + 1);
        if (S->multibody) { /* M q'' = Q - C_q^T lambda: the forces, M apart (sema/multibody.c) */
            S->m->y.v[f->y + 1].rhs = f->force;
            /* the mass at the first dof; a rigid body's inertia at its angle (rigid2d) or
             * its directors' Euler moments E_i (rigid3d: dofs 3, 6, 9; zero for a lamina) */
            int k = i - b->dof0;
            int kind = k == 0 ? POS_MASS : b->rigid3 && k % 3 == 0 ? POS_EULER
                       : b->rigid && !b->rigid3 && k == 2 ? POS_INERTIA : -1;
            ex_id mv = sema_mb_dof_mass(S, f);
            if (b->mass.k == V_NUM && kind >= 0 && ex_depends(P, mv, EX_P, -1))
                add_mass_check(S->m, mv, f->y, kind);
            continue;
        }
        if (f->motion < 0)
            f->acc = b->mass.k == V_NUM ? ex_op2(P, EX_DIV, f->force, b->mass.e) : ex_const(P, 0);
        if (b->mass.k == V_NUM && f == &S->dofs[b->dof0] && ex_depends(P, b->mass.e, EX_P, -1))
            add_mass_check(S->m, b->mass.e, f->y, POS_MASS);
        S->m->y.v[f->y + 1].rhs = f->acc;
    }
    S->assembled = 1;
}

/* A dof's acceleration (outputs only). */
int sema_dof_accel(sema *S, int di, jnt_loc loc, sval *out)
{
    if (!S->in_output || !S->assembled) {
        diag_error(S->dc, loc, "an acceleration can only be used in an output column");
        return -1;
    }
    const dof *f = &S->dofs[di];
    if (S->bodies[f->body].flex) {
        diag_error(S->dc, loc, "the accelerations of a flexible2d body's frame are not "
                               "available as outputs");
        return -1;
    }
    *out = sval_num(S->multibody ? sema_mb_accel(S, di) : f->acc,
                    units_div(S->m->y.v[f->y].dim, (jnt_dim){{0, 0, 12, 0, 0}}));
    return 0;
}

/* See core.h: the state equations, updates, outputs, point forces,
 * chain inputs and the constraints' rates (the other expressions read
 * parameters and time only). */
void sema_subst_all(sema *S, ex_kind kind, const ex_id *repl)
{
    ir_model *m = S->m;
    ex_pool *P = S->pool;
    /* C_t, gamma, C_q v + C_t (sema_mb_finish): made before sema_sub_gather
     * numbers the gathered points block by block; left out, they read other
     * points' u and uv (E1's guide and ball: |C_q v + C_t| 1.7 m/s where
     * central differences of C give 2e-3) */
    for (int k = 0; m->crate && k < 3 * m->nc; k++)
        m->crate[k] = ex_subst(P, m->crate[k], kind, repl);
    for (int c = 0; c < m->nchains; c++)
        for (int i = 0; i < 3 + m->chains[c].n; i++)
            m->chains[c].in[i] = ex_subst(P, m->chains[c].in[i], kind, repl);
    ir_vars *lists[4] = {&m->y, &m->d, &m->out, &m->f};
    for (int l = 0; l < 4; l++)
        for (int i = 0; i < lists[l]->n; i++)
            if (lists[l]->v[i].rhs >= 0)
                lists[l]->v[i].rhs = ex_subst(P, lists[l]->v[i].rhs, kind, repl);
}

/* See passes.h: the states of prescribed dofs replaced by their motion
 * (position) and its time derivative (velocity) everywhere, the other states
 * renumbered. */
void sema_eliminate_prescribed(sema *S)
{
    ir_model *m = S->m;
    ex_pool *P = S->pool;
    int ny = m->y.n, k = 0;
    ex_id *repl = xmalloc(((size_t)ny + 1) * sizeof *repl);
    unsigned char *gone = xcalloc((size_t)ny + 1, 1);
    for (int i = 0; i < S->ndof; i++) {
        dof *f = &S->dofs[i];
        if (f->motion < 0)
            continue;
        ex_set_loc(P, f->motion_loc);
        repl[f->y] = f->motion;
        repl[f->y + 1] = ex_diff(P, f->motion, EX_T, 0);
        gone[f->y] = gone[f->y + 1] = 1;
    }
    for (int i = 0; i < ny; i++)
        if (!gone[i])
            repl[i] = ex_var(P, EX_Y, k++);
    if (k < ny) {
        for (int b = 0; b < m->nblocks; b++) /* blocks are kept whole: map their first state */
            m->blocks[b].q0 = ex_get(P, repl[m->blocks[b].q0])->a;
        sema_subst_all(S, EX_Y, repl);
        k = 0;
        for (int i = 0; i < ny; i++) {
            if (gone[i])
                free(m->y.v[i].name);
            else
                m->y.v[k++] = m->y.v[i];
        }
        m->y.n = k;
    }
    free(repl);
    free(gone);
}
