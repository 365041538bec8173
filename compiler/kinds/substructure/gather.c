/*
 * gather.c: the points of a substructure. A point (NAME.SET.ux,
 * NAME.SET[k].uy) is a dof whose motion is a row of Phi times q
 * (red_point_row), read by the kernels as a gathered position u[g] and
 * velocity uv[g]; forces on it reach the generalized forces at run time as
 * Phi_row^T F. Here: members of a substructure (node sets, nodes,
 * components, energies), a point's acceleration for sticking elements
 * (red_point_accel), the blocks handed to the IR and, last, the gathered
 * points put in block order.
 */
#include <stdlib.h>
#include <string.h>

#include "jnt/setup.h"
#include "substructure.h"
#include "front/alloc.h"

/* x^T A z / 2 over the coordinates at y[ya ..] and y[za ..] (A r x r). */
static ex_id quad_form(sema *S, const subst *b, const double *A, int xa, int za, double scale)
{
    ex_pool *P = sema_pool(S);
    ex_id sum = ex_const(P, 0);
    int r = b->r;
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++) {
            double a = scale * A[(size_t)j * r + i];
            if (a != 0)
                sum = ex_op2(P, EX_ADD, sum,
                             ex_op2(P, EX_MUL, ex_const(P, a),
                                    ex_op2(P, EX_MUL, ex_var(P, EX_Y, xa + i),
                                           ex_var(P, EX_Y, za + j))));
        }
    return sum;
}

/* NAME.kinetic, .strain, .energy (J) and .damping_power (W) of a substructure. */
static int energy_member(sema *S, const subst *b, const char *name, sval *out)
{
    static const jnt_dim J = {{6, 12, -12, 0, 0}}, W = {{6, 12, -18, 0, 0}};
    int q = b->q0, qd = b->q0 + b->r;
    if (!strcmp(name, "kinetic"))
        *out = sval_num(quad_form(S, b, b->mr, qd, qd, 0.5), J);
    else if (!strcmp(name, "strain"))
        *out = sval_num(quad_form(S, b, b->kr, q, q, 0.5), J);
    else if (!strcmp(name, "energy"))
        *out = sval_num(ex_op2(sema_pool(S), EX_ADD, quad_form(S, b, b->mr, qd, qd, 0.5),
                               quad_form(S, b, b->kr, q, q, 0.5)),
                        J);
    else if (!strcmp(name, "damping_power"))
        *out = sval_num(quad_form(S, b, b->cr, qd, qd, 1.0), W);
    else
        return 0;
    return 1;
}

/* See substructure.h. */
int sema_sub_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out)
{
    subst *b = sema_sub(S, base.id);
    if (!b->phi) /* its errors were reported */
        return -1;
    if (base.k == V_SUB && b->sparse &&
        (!strcmp(name, "kinetic") || !strcmp(name, "strain") || !strcmp(name, "energy") ||
         !strcmp(name, "damping_power"))) {
        diag_error(sema_dc(S), loc,
                   "'%s.%s': '%s' is unreduced beyond %d DOFs, its energies are "
                   "not formed (reduce it)",
                   b->name, name, b->name, JNT_MAX_BLOCK);
        return -1;
    }
    if (base.k == V_SUB && energy_member(S, b, name, out))
        return 0;
    if (base.k == V_SUB) {
        int set = fe_find_set(b->fe, name);
        if (set < 0) {
            const char *c[64];
            int nc = 0;
            for (int j = 0; j < b->fe->nset && nc < 64; j++)
                c[nc++] = b->fe->set[j].name;
            const char *best = jnt_closest_name(name, c, nc);
            diag_error(sema_dc(S), loc, "substructure '%s' has no node set '%s'%s%s%s", b->name,
                       name, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
            return -1;
        }
        *out = (sval){V_SUBSET, -1, units_none, base.id, 0, set};
        return 0;
    }
    int comp = sema_sub_comp(name), node;
    if (comp < 0) {
        diag_error(sema_dc(S), loc, "a node has components ux, uy, uz, rx, ry, rz, not '%s'", name);
        return -1;
    }
    if (base.k == V_SUBSET) {
        const fe_set *set = &b->fe->set[base.aux];
        if (set->n != 1) {
            diag_error(sema_dc(S), loc, "node set '%s' has %d nodes: pick one, as %s.%s[1].%s",
                       set->name, set->n, b->name, set->name, name);
            return -1;
        }
        node = set->node[0];
    } else {
        node = base.aux;
    }
    int di = sema_sub_node_dof(S, base.id, node, comp, loc);
    if (di < 0)
        return -1;
    *out = (sval){V_DOF, -1, units_none, di, 0, 0};
    return 0;
}

/* See substructure.h: SET[i], 1-based. */
int sema_sub_index(sema *S, sval base, long i, jnt_loc loc, sval *out)
{
    if (base.k != V_SUBSET)
        return 1;
    const fe_set *set = &sema_sub(S, base.id)->fe->set[base.aux];
    if (i < 1 || i > set->n) {
        diag_error(sema_dc(S), loc, "index %ld is outside node set '%s' (1..%d)", i, set->name,
                   set->n);
        return -1;
    }
    *out = (sval){V_SUBNODE, -1, units_none, base.id, 0, set->node[i - 1]};
    return 0;
}

/* See substructure.h. With the point u = c^T q, its acceleration
 * u'' = c^T Mr^-1 (g - Kr q - Cr qd), g = g_o + c F: a0 is the part of the
 * other forces g_o and of the coordinates, alpha = c^T Mr^-1 c
 * (red_point_accel gives the coefficients). */
int sema_sub_accel(sema *S, int di, int skip, ex_id *a0, ex_id *alpha)
{
    ex_pool *P = sema_pool(S);
    /* g_o: the other forces on every point of the substructure (first make
     * sure every element has created the points it uses) */
    for (int i = 0; i < sema_nelem(S); i++)
        if (i != skip)
            sema_eval_elem(S, i);
    const dof *f = sema_dof(S, di); /* the dof table may have grown */
    subst *b = sema_sub(S, f->sub);
    int r = b->r, np = 0;
    const double **rows = xmalloc(((size_t)sema_ndof(S) + 1) * sizeof *rows);
    for (int p = 0; p < sema_ndof(S); p++)
        if (sema_dof(S, p)->sub == f->sub)
            rows[np++] = sema_dof(S, p)->coef;
    double *wp = xmalloc(((size_t)np + 1) * sizeof *wp), al;
    double *ck = xmalloc((size_t)r * sizeof *ck), *cc = xmalloc((size_t)r * sizeof *cc);
    char err[512] = "";
    if (red_point_accel(r, b->minv, b->minv_k, b->minv_c, f->coef, np, rows, wp, ck, cc, &al,
                        err, sizeof err)) {
        diag_error(sema_dc(S), b->decl->loc, "%s", err);
        free(rows), free(wp), free(ck), free(cc);
        return -1;
    }
    ex_id acc = ex_const(P, 0);
    for (int p = 0, j = 0; p < sema_ndof(S) && j < np; p++) {
        if (sema_dof(S, p)->sub != f->sub)
            continue;
        double wc = wp[j++];
        if (wc != 0)
            acc = ex_op2(P, EX_ADD, acc,
                         ex_op2(P, EX_MUL, ex_const(P, wc), sema_other_forces(S, p, skip)));
    }
    /* - (c^T Minv K) q - (c^T Minv C) qd */
    for (int k = 0; k < r; k++) {
        if (ck[k] != 0)
            acc = ex_op2(P, EX_SUB, acc, ex_op2(P, EX_MUL, ex_const(P, ck[k]),
                                                ex_var(P, EX_Y, b->q0 + k)));
        if (cc[k] != 0)
            acc = ex_op2(P, EX_SUB, acc, ex_op2(P, EX_MUL, ex_const(P, cc[k]),
                                                ex_var(P, EX_Y, b->q0 + r + k)));
    }
    free(rows), free(wp), free(ck), free(cc);
    *a0 = acc;
    *alpha = ex_const(P, al);
    return 0;
}

/* See substructure.h: the forces on the substructure's points reach g at run
 * time (g += R^T F, abi.h); here only what acts on the coordinates directly. */
void sema_sub_assemble(sema *S)
{
    ex_pool *P = sema_pool(S);
    for (int s = 0; s < sema_nsub(S); s++) {
        subst *b = sema_sub(S, s);
        if (!b->phi)
            continue;
        int fb = sema_flex_of_sub(S, s);
        for (int k = 0; k < b->r; k++) {
            sema_ir(S)->y.v[b->q0 + b->r + k].rhs = b->g[k];
            /* a flexible body's q_f are coordinates of the DAE: q_f' = v_f */
            if (fb >= 0)
                sema_ir(S)->y.v[b->q0 + k].rhs = ex_var(P, EX_Y, b->q0 + b->r + k);
        }
        /* hand the matrices to the IR */
        ir_model *m = sema_ir(S);
        m->blocks = xrealloc(m->blocks, (size_t)(m->nblocks + 1) * sizeof *m->blocks);
        ir_block *k = &m->blocks[m->nblocks++];
        *k = (ir_block){.name = xstrdup(b->name), .q0 = b->q0, .r = b->r, .minv = b->minv,
                        .minv_k = b->minv_k, .minv_c = b->minv_c, .qdd0 = -1};
        for (int c = 0; c < 2; c++) {
            ex_id x = b->frame[c] >= 0 ? b->frame[c] : ex_const(P, 0);
            k->in[c] = x;
            k->in[2 + c] = ex_diff(P, x, EX_T, 0);
            k->in[4 + c] = b->ray[c] >= 0 ? b->ray[c] : ex_const(P, 0);
        }
        k->flags = (b->frame[0] >= 0 || b->frame[1] >= 0 ? JNT_BLOCK_FRAME : 0) |
                   (b->ray[0] >= 0 ? JNT_BLOCK_RAYLEIGH : 0);
        if (fb >= 0) { /* gravity in in[0], in[1] (, in[2]); the runtime does the rest (abi.h) */
            int d3 = sema_body(S, fb)->rigid3;
            k->flags = d3 ? JNT_BLOCK_FFRF3 : JNT_BLOCK_FFRF;
            if (b->sparse)
                k->flags |= JNT_BLOCK_FFRF_SPARSE, k->nffrf = b->nffrf;
            k->frame = sema_dof(S, sema_body(S, fb)->dof0)->y;
            k->ffrf = b->ffrf;
            b->ffrf = NULL;
            for (int c = 0; c < 2 + d3; c++)
                k->in[c] = sema_gravity(S, c) >= 0 ? sema_gravity(S, c) : ex_const(P, 0);
        }
        b->minv = b->minv_k = b->minv_c = NULL;
    }
}

/* See substructure.h. The points of each block get consecutive indices (in the
 * order they were made), their forces become the model's f, their
 * coefficients the rows of the block's R. */
void sema_sub_gather(sema *S)
{
    ir_model *m = sema_ir(S);
    ex_pool *P = sema_pool(S);
    int n = sema_ngather(S), moved = 0, bi = 0;
    ex_id *rp = xmalloc(((size_t)n + 1) * sizeof *rp), *rv = xmalloc(((size_t)n + 1) * sizeof *rv);
    for (int s = 0; s < sema_nsub(S); s++) {
        const subst *b = sema_sub(S, s);
        if (!b->phi)
            continue;
        ir_block *k = &m->blocks[bi++];
        k->g0 = m->f.n;
        for (int i = 0; i < sema_ndof(S); i++)
            k->ng += sema_dof(S, i)->sub == s;
        /* an unreduced sparse block: per point the coordinate it is (abi.h) */
        k->rows = xcalloc((size_t)k->ng * (b->sparse ? 1 : k->r) + 1, sizeof *k->rows);
        for (int i = 0; i < sema_ndof(S); i++) {
            const dof *f = sema_dof(S, i);
            if (f->sub != s)
                continue;
            int g = m->f.n, l = g - k->g0;
            moved |= g != f->g;
            rp[f->g] = ex_var(P, EX_UP, g);
            rv[f->g] = ex_var(P, EX_UV, g);
            for (int c = 0; c < k->r; c++)
                if (!b->sparse)
                    k->rows[(size_t)c * k->ng + l] = f->coef[c];
                else if (f->coef[c] != 0)
                    k->rows[l] = c;
            ir_add(&m->f, xstrdup(f->name), f->force, -1, (jnt_dim){{6, 6, -12, 0, 0}},
                   b->decl->loc);
        }
    }
    if (moved) {
        sema_subst_all(S, EX_UP, rp);
        sema_subst_all(S, EX_UV, rv);
    }
    free(rp);
    free(rv);
}

/* See substructure.h. */
sval sema_sub_point_accel(sema *S, int di)
{
    ex_pool *P = sema_pool(S);
    const dof *f = sema_dof(S, di);
    int bi = 0;
    for (int s = 0; s < f->sub; s++)
        bi += sema_sub(S, s)->phi != NULL;
    ir_block *blk = &sema_ir(S)->blocks[bi];
    if (blk->qdd0 < 0) {
        blk->qdd0 = sema_ir(S)->d.n;
        for (int k = 0; k < blk->r; k++) {
            int i = ir_add(&sema_ir(S)->d, xasprintf("%s.qdd%d", blk->name, k + 1), -1,
                           ex_const(P, 0), units_none, sema_sub(S, f->sub)->decl->loc);
            sema_ir(S)->d.v[i].rhs = ex_var(P, EX_D, i); /* the runtime writes it */
        }
    }
    ex_id a = ex_const(P, 0);
    for (int k = 0; k < blk->r; k++)
        if (f->coef[k] != 0)
            a = ex_op2(P, EX_ADD, a, ex_op2(P, EX_MUL, ex_const(P, f->coef[k]),
                                            ex_var(P, EX_D, blk->qdd0 + k)));
    return sval_num(a, (jnt_dim){{0, 6, -12, 0, 0}});
}
