/*
 * basis.c: the reduction basis of a substructure from its
 * `reduce = ...` setting: modal(modes = n), static(at = SET),
 * craig_bampton(modes = n, keep = SET), their sum, and jtv(...) extending
 * the basis on its left with joint trial vectors. Here the arguments are
 * read and checked (node sets, components, constants); the setup library
 * builds the vectors (red_modal, red_static, red_craig_bampton,
 * red_jtv_onesided, red_basis_append).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/setup.h"
#include "substructure.h"
#include "front/alloc.h"

/* See substructure.h. */
int sema_sub_sets(sema *S, const ast *e, const fe_model *fe, int *sets, int max)
{
    const ast *const *items = &e;
    int n = 1;
    if (e->kind == AST_SET) {
        items = (const ast *const *)e->kids;
        n = e->nkids;
    }
    for (int i = 0; i < n && i < max; i++) {
        const ast *x = items[i];
        if (x->kind != AST_NAME) {
            diag_error(sema_dc(S), x->loc, "expected the name of a node set");
            return -1;
        }
        sets[i] = fe_find_set(fe, x->name);
        if (sets[i] < 0) {
            const char *c[64];
            int nc = 0;
            for (int j = 0; j < fe->nset && nc < 64; j++)
                c[nc++] = fe->set[j].name;
            const char *best = jnt_closest_name(x->name, c, nc);
            diag_error(sema_dc(S), x->loc, "no node set '%s'%s%s%s", x->name,
                       best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
            return -1;
        }
    }
    return n;
}

/* Every DOF of the nodes of a set. */
static int set_dofs(const fe_model *fe, int set, int **out)
{
    int n = 0, cap = 0, *d = NULL;
    const fe_set *s = &fe->set[set];
    for (int i = 0; i < s->n; i++)
        for (int c = 0; c < FE_NDOF_NODE; c++) {
            int k = fe->node[s->node[i]].dof[c];
            if (k >= 0) {
                XGROW(d, cap, n);
                d[n++] = k;
            }
        }
    *out = d;
    return n;
}

/* See substructure.h. */
int sema_sub_comp(const char *name)
{
    static const char *const comps[] = {"ux", "uy", "uz", "rx", "ry", "rz"};
    for (int c = 0; c < FE_NDOF_NODE; c++)
        if (!strcmp(comps[c], name))
            return c;
    return -1;
}

static int is_call(const ast *e, const char *name)
{
    return e->kind == AST_CALL && !strcmp(e->name, name);
}

/* Whether a count asked of a reduction is negative or beyond the generalized
 * coordinates a body may have (JNT_MAX_BLOCK): a located error before any
 * work, and before the count is converted to int. */
static int too_many(sema *S, const ast *at, const char *what, double n)
{
    if (n >= 0 && n <= JNT_MAX_BLOCK)
        return 0;
    diag_error(sema_dc(S), at->loc,
               "%s = %g: must be between 0 and %d (the generalized coordinates a "
               "substructure may have)",
               what, n, JNT_MAX_BLOCK);
    return 1;
}

/* jtv(count = t, pairs = {SET_A, SET_B}, comp = uy, dkdg = ...): joint
 * trial vectors (seed 000 Sect. 3) of the basis built so far, for contact
 * pairs between the i-th nodes of two node sets along one component that
 * touch without load, with the slope of the pair's contact stiffness on the
 * closing side (dk/dg, N/m^2, area * d2p/dg2 of the contact law at g0): the
 * one-sided trial vector derivatives of runtime/setup/red_jtv.c. */
static int build_jtv(sema *S, const ast *e, const fe_model *fe, const red_basis *base,
                     red_basis *out)
{
    static const jnt_dim DIM_NM2 = {{6, -6, -12, 0, 0}};
    const ast *between = NULL, *comp = NULL;
    double count = -1, dkdg = NAN;
    for (int i = 0; i < e->nkids; i++) {
        const ast *a = e->kids[i];
        const char *nm = a->kind == AST_ARG ? a->name : "";
        if (!strcmp(nm, "pairs")) {
            between = a->kids[0];
        } else if (!strcmp(nm, "comp")) {
            comp = a->kids[0];
        } else if (!strcmp(nm, "count") || !strcmp(nm, "dkdg")) {
            int is_count = nm[0] == 'c';
            sval v = sema_num_dim(S, sema_consts(S), a->kids[0], is_count ? units_none : DIM_NM2,
                                  is_count ? "'count' of jtv" : "'dkdg' of jtv");
            double x;
            if (v.k != V_NUM || !ex_is_const(sema_pool(S), v.e, &x)) {
                if (v.k == V_NUM)
                    diag_error(sema_dc(S), a->loc,
                               "jtv's arguments must be compile-time constants");
                return -1;
            }
            *(is_count ? &count : &dkdg) = x;
        } else {
            diag_error(sema_dc(S), a->loc,
                       "jtv takes count = t, pairs = {SET_A, SET_B}, comp = uy "
                       "and dkdg = .. N/m^2");
            return -1;
        }
    }
    int sets[2], c = comp && comp->kind == AST_NAME ? sema_sub_comp(comp->name) : -1;
    if (!between || between->kind != AST_SET || between->nkids != 2 || c < 0 || count < 1 ||
        isnan(dkdg)) {
        diag_error(sema_dc(S), e->loc,
                   "jtv needs count = t, pairs = {SET_A, SET_B}, comp = ux|uy|.. "
                   "and dkdg = .. N/m^2");
        return -1;
    }
    if (too_many(S, e, "count", count) || sema_sub_sets(S, between, fe, sets, 2) != 2)
        return -1;
    const fe_set *A = &fe->set[sets[0]], *B = &fe->set[sets[1]];
    if (A->n != B->n) {
        diag_error(sema_dc(S), between->loc,
                   "jtv pairs the nodes of '%s' (%d) and '%s' (%d) in order: "
                   "they must have as many nodes",
                   A->name, A->n, B->name, B->n);
        return -1;
    }
    int *da = xmalloc((size_t)A->n * sizeof *da), *db = xmalloc((size_t)A->n * sizeof *db);
    double *dk = xmalloc((size_t)A->n * sizeof *dk);
    int np = 0, rc = -1;
    for (int i = 0; i < A->n; i++) {
        int ra[4], rb[4];
        double ca[4], cb[4];
        int na = fe_point_dofs(fe, A->node[i], c, ra, ca), nb = fe_point_dofs(fe, B->node[i], c, rb, cb);
        if (na == 0 || nb == 0) /* a fixed node: the pair cannot open */
            continue;
        if (na != 1 || nb != 1 || ca[0] != 1 || cb[0] != 1) {
            diag_error(sema_dc(S), between->loc,
                       "jtv needs plain DOFs at the joint's nodes (not points "
                       "attached to other nodes)");
            goto done;
        }
        da[np] = ra[0], db[np] = rb[0], dk[np++] = dkdg;
    }
    red_joint joint = {np, da, db, dk};
    char err[512] = "";
    rc = red_jtv_onesided(fe, base, &joint, (int)count, out, err, sizeof err);
    if (rc)
        diag_error(sema_dc(S), e->loc, "%s", err);
    else if (out->r < (int)count)
        diag_warning(sema_dc(S), e->loc,
                     "jtv gives %d vectors, not %d: the trial vector derivatives "
                     "of this basis span only %d directions (expected when the "
                     "count is larger; 'count = %d' gives the same basis and no "
                     "warning)",
                     out->r, (int)count, out->r, out->r);
done:
    free(da), free(db), free(dk);
    return rc ? -1 : 0;
}

/* See substructure.h: the basis from `reduce = modal(...) + static(...) +
 * craig_bampton(...) + jtv(...)`. */
int sema_sub_basis(sema *S, const ast *e, const fe_model *fe, red_basis *out)
{
    char err[512] = "";
    if (e->kind == AST_BINARY && e->op == OP_ADD) {
        red_basis b = {0};
        /* jtv extends the basis on its left */
        if (sema_sub_basis(S, e->kids[0], fe, out) ||
            (is_call(e->kids[1], "jtv") ? build_jtv(S, e->kids[1], fe, out, &b)
                                        : sema_sub_basis(S, e->kids[1], fe, &b))) {
            red_basis_free(&b);
            return -1;
        }
        int rc = red_basis_append(out, &b, err, sizeof err);
        red_basis_free(&b);
        if (rc)
            diag_error(sema_dc(S), e->loc, "%s", err);
        return rc ? -1 : 0;
    }
    if (e->kind != AST_CALL || is_call(e, "jtv")) {
        diag_error(sema_dc(S), e->loc,
                   is_call(e, "jtv")
                       ? "jtv extends a basis: write it after one, as modal(...) + jtv(...)"
                       : "expected a reduction: modal(modes = n), static(at = SET), "
                         "craig_bampton(modes = n, keep = SET), jtv(...), or their sum");
        return -1;
    }
    static const arg_spec modal_args[] = {{"modes", &units_none, NAN, NULL, 0}};
    double v[2];
    int rc = -1;
    if (!strcmp(e->name, "modal")) {
        if (sema_bind_args(S, e, 0, e->nkids, modal_args, 1, "'modal'", v, NULL) ||
            too_many(S, e, "modes", v[0]))
            return -1;
        rc = red_modal(fe, (int)v[0], 0, out, NULL, err, sizeof err);
    } else if (!strcmp(e->name, "static") || !strcmp(e->name, "craig_bampton")) {
        int cb = e->name[0] == 'c';
        const ast *set = NULL;
        int modes = 0;
        for (int i = 0; i < e->nkids; i++) {
            const ast *a = e->kids[i];
            if (a->kind == AST_ARG && !strcmp(a->name, cb ? "keep" : "at")) {
                set = a->kids[0];
            } else if (cb && a->kind == AST_ARG && !strcmp(a->name, "modes")) {
                sval x = sema_num(S, sema_consts(S), a->kids[0], "'modes'");
                double m;
                if (x.k != V_NUM || !ex_is_const(sema_pool(S), x.e, &m) ||
                    too_many(S, a, "modes", m))
                    return -1;
                modes = (int)m;
            } else {
                diag_error(sema_dc(S), a->loc,
                           cb ? "'craig_bampton' takes modes = n and keep = SET"
                              : "'static' takes at = SET");
                return -1;
            }
        }
        int sets[32], nset = set ? sema_sub_sets(S, set, fe, sets, 32) : -1;
        if (nset <= 0) {
            if (!set)
                diag_error(sema_dc(S), e->loc, "'%s' needs %s = SET", e->name, cb ? "keep" : "at");
            return -1;
        }
        int *dofs = NULL, nd = 0;
        for (int i = 0; i < nset; i++) {
            int *d, n = set_dofs(fe, sets[i], &d);
            dofs = xrealloc(dofs, (size_t)(nd + n + 1) * sizeof *dofs);
            memcpy(dofs + nd, d, (size_t)n * sizeof *d);
            nd += n;
            free(d);
        }
        if (too_many(S, e, cb ? "kept DOFs" : "static shapes", nd)) {
            free(dofs);
            return -1;
        }
        rc = cb ? red_craig_bampton(fe, dofs, nd, modes, out, err, sizeof err)
                : red_static(fe, dofs, nd, out, err, sizeof err);
        free(dofs);
    } else {
        diag_error(sema_dc(S), e->loc,
                   "unknown reduction '%s' (there are modal, static and "
                   "craig_bampton)",
                   e->name);
        return -1;
    }
    if (rc)
        diag_error(sema_dc(S), e->loc, "%s", err[0] ? err : "the reduction failed");
    return rc ? -1 : 0;
}
