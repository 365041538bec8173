/*
 * sema_sub.c: substructures. A substructure is a finite-element model
 * (generated: beam2d, plate2d, chain; or imported: fe) with boundary
 * conditions, damping and a reduction basis Phi, reduced at compile time:
 * its states are the generalized coordinates q (and velocities) of
 *   Mr q'' + Cr q' + Kr q = Phi^T f,   Mr = Phi^T M Phi, ...   (seed 000 eq. 4)
 * which the runtime integrates as a linear block (jnt_abi_block). A point of
 * the substructure (NAME.SET.ux, NAME.SET[k].uy) is a dof whose motion is a
 * row of Phi times q; forces on it add Phi_row^T F to the generalized forces.
 *
 * The type arguments must be compile-time constants (literals or consts):
 * the mesh and its reduction are fixed when the model is compiled.
 */
#include <lapacke.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"
#include "red.h"
#include "sema_int.h"
#include "util.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_KG = {{6, 0, 0, 0, 0}};
static const jnt_dim DIM_PA = {{6, -6, -12, 0, 0}};
static const jnt_dim DIM_NM = {{6, 0, -12, 0, 0}};
static const jnt_dim DIM_KGM3 = {{6, -18, 0, 0, 0}};
static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};
static const jnt_dim DIM_1S = {{0, 0, -6, 0, 0}};

/* One argument of a substructure type or reduction: name, dimension,
 * default (NAN: required); or (dim NULL) a file name in quotes, or, when
 * choice is set, a keyword: one of choice[0..nchoice-1], written as a name
 * or in quotes, whose index is the value (def: the default index). */
typedef struct arg_spec {
    const char *name;
    const jnt_dim *dim;
    double def;
    const char *const *choice;
    int nchoice;
} arg_spec;

/* The index of a keyword argument among spec->choice, or -1 (reported). */
static int bind_choice(sema *S, const ast *e, const arg_spec *spec, const char *what)
{
    const char *w = e->kind == AST_STRING ? e->str : e->kind == AST_NAME ? e->name : NULL;
    for (int j = 0; w && j < spec->nchoice; j++)
        if (!strcmp(spec->choice[j], w))
            return j;
    char list[256] = "";
    for (int j = 0; j < spec->nchoice; j++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 j == 0 ? "" : j + 1 < spec->nchoice ? ", " : " and ", spec->choice[j]);
    if (w)
        diag_error(S->dc, e->loc, "unknown %s '%s' of %s (there are %s)", spec->name, w, what,
                   list);
    else
        diag_error(S->dc, e->loc, "'%s' of %s is a name (there are %s)", spec->name, what, list);
    return -1;
}

/* Bind named/positional arguments to specs; values in v[] (a keyword: its
 * index), strings in str[]. Every value must be a compile-time constant. */
static int bind_args(sema *S, const ast *call, int first, int last, const arg_spec *spec, int n,
                     const char *what, double *v, const char **str)
{
    const ast *given[16] = {0};
    int pos = 0, err = 0;
    for (int i = first; i < last; i++) {
        const ast *a = call->kids[i];
        int k = -1;
        if (a->kind == AST_ARG) {
            for (int j = 0; j < n; j++)
                if (!strcmp(spec[j].name, a->name))
                    k = j;
            if (k < 0) {
                const char *c[16];
                for (int j = 0; j < n; j++)
                    c[j] = spec[j].name;
                const char *best = diag_closest(a->name, c, n);
                diag_error(S->dc, a->loc, "unknown argument '%s' of %s%s%s%s", a->name, what,
                           best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
                err = 1;
                continue;
            }
        } else {
            k = pos < n ? pos++ : -1;
            if (k < 0) {
                diag_error(S->dc, a->loc, "too many arguments for %s", what);
                err = 1;
                continue;
            }
        }
        given[k] = a->kind == AST_ARG ? a->kids[0] : a;
    }
    for (int k = 0; k < n; k++) {
        if (str)
            str[k] = NULL;
        if (!given[k]) {
            if (isnan(spec[k].def) && spec[k].dim) {
                diag_error(S->dc, call->loc, "%s needs '%s'", what, spec[k].name);
                err = 1;
            }
            v[k] = spec[k].def;
            continue;
        }
        if (spec[k].choice) { /* a keyword */
            int j = bind_choice(S, given[k], &spec[k], what);
            err |= j < 0;
            v[k] = j;
            continue;
        }
        if (!spec[k].dim) { /* a string (a file) */
            if (given[k]->kind != AST_STRING) {
                diag_error(S->dc, given[k]->loc, "'%s' of %s is a file name in quotes",
                           spec[k].name, what);
                err = 1;
            } else {
                str[k] = given[k]->str;
            }
            continue;
        }
        char w[128];
        snprintf(w, sizeof w, "'%s' of %s", spec[k].name, what);
        sval x = sema_num_dim(S, &S->consts, given[k], *spec[k].dim, w);
        if (x.k != V_NUM) {
            err = 1;
            continue;
        }
        if (!ex_is_const(S->pool, x.e, &v[k])) {
            diag_error(S->dc, given[k]->loc, "%s must be a compile-time constant (the mesh and its "
                                             "reduction are built when the model is compiled)", w);
            err = 1;
        }
    }
    return err ? -1 : 0;
}

static const arg_spec beam2d_args[] = {
    {"length", &DIM_M, NAN, NULL, 0},    {"height", &DIM_M, NAN, NULL, 0},
    {"width", &DIM_M, NAN, NULL, 0},     {"E", &DIM_PA, NAN, NULL, 0},
    {"nu", &units_none, 0.3, NULL, 0},   {"rho", &DIM_KGM3, NAN, NULL, 0},
    {"elements", &units_none, 20, NULL, 0},
};
static const arg_spec plate2d_args[] = {
    {"lx", &DIM_M, NAN, NULL, 0},        {"ly", &DIM_M, NAN, NULL, 0},
    {"thickness", &DIM_M, NAN, NULL, 0}, {"E", &DIM_PA, NAN, NULL, 0},
    {"nu", &units_none, 0.3, NULL, 0},   {"rho", &DIM_KGM3, NAN, NULL, 0},
    {"nx", &units_none, 20, NULL, 0},    {"ny", &units_none, 4, NULL, 0},
    {"element", NULL, FE_QM6, fe_element_names, FE_NELEMENT},
};
static const arg_spec chain_args[] = {
    {"n", &units_none, NAN, NULL, 0}, {"k", &DIM_NM, NAN, NULL, 0}, {"mass", &DIM_KG, NAN, NULL, 0},
};
static const arg_spec fe_args[] = {
    {"mass", NULL, NAN, NULL, 0},    {"stiffness", NULL, NAN, NULL, 0},
    {"damping", NULL, NAN, NULL, 0}, {"nodes", NULL, NAN, NULL, 0},
};

/* A path relative to the file that declares the substructure. */
static char *rel_path(sema *S, const ast *at, const char *p)
{
    if (!p || p[0] == '/')
        return p ? xstrdup(p) : NULL;
    char *dir = xstrdup(S->dc->srcs[at->loc.file].path);
    char *r = xasprintf("%s/%s", dirname(dir), p);
    free(dir);
    return r;
}

/* Build the FE model of declaration d; 0 or -1 (errors reported). */
static int build_fe(sema *S, const ast *d, int nargs, fe_model *fe)
{
    char err[512] = "";
    double v[16];
    const char *str[16];
    int rc = -1;
    char what[128];
    snprintf(what, sizeof what, "'%s'", d->str);
    if (!strcmp(d->str, "beam2d")) {
        if (bind_args(S, d, 0, nargs, beam2d_args, 7, what, v, NULL) == 0)
            rc = fe_beam2d(fe, v[0], v[1], v[2], v[3], v[4], v[5], (int)v[6], err, sizeof err);
    } else if (!strcmp(d->str, "plate2d")) {
        if (bind_args(S, d, 0, nargs, plate2d_args, 9, what, v, NULL) == 0)
            rc = fe_plate2d(fe, v[0], v[1], v[2], v[3], v[4], v[5], (int)v[6], (int)v[7],
                            (fe_element)v[8], err, sizeof err);
    } else if (!strcmp(d->str, "chain")) {
        if (bind_args(S, d, 0, nargs, chain_args, 3, what, v, NULL) == 0)
            rc = fe_chain(fe, (int)v[0], v[1], v[2], err, sizeof err);
    } else if (!strcmp(d->str, "fe")) {
        if (bind_args(S, d, 0, nargs, fe_args, 4, what, v, str) == 0) {
            if (!str[0] || !str[1] || !str[3]) {
                diag_error(S->dc, d->loc, "'fe' needs mass = \"M.mtx\", stiffness = \"K.mtx\" and "
                                          "nodes = \"nodes.csv\"");
                return -1;
            }
            char *p[4];
            for (int i = 0; i < 4; i++)
                p[i] = rel_path(S, d, str[i]);
            rc = fe_import(fe, p[0], p[1], p[2], p[3], err, sizeof err);
            for (int i = 0; i < 4; i++)
                free(p[i]);
        }
    } else {
        diag_error(S->dc, d->loc, "unknown substructure type '%s' (there are beam2d, plate2d, "
                                  "chain and fe)", d->str);
        return -1;
    }
    if (rc != 0 && err[0])
        diag_error(S->dc, d->loc, "%s", err);
    return rc == 0 ? 0 : -1;
}

/* The names in a setting value: NAME or {NAME, ...}. */
static int set_names(sema *S, const ast *e, const fe_model *fe, int *sets, int max)
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
            diag_error(S->dc, x->loc, "expected the name of a node set");
            return -1;
        }
        sets[i] = fe_find_set(fe, x->name);
        if (sets[i] < 0) {
            const char *c[64];
            int nc = 0;
            for (int j = 0; j < fe->nset && nc < 64; j++)
                c[nc++] = fe->set[j].name;
            const char *best = diag_closest(x->name, c, nc);
            diag_error(S->dc, x->loc, "no node set '%s'%s%s%s", x->name,
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

/* The basis from `reduce = modal(...) + static(...) + craig_bampton(...)`. */
static int comp_index(const char *name)
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

/* jtv(count = t, pairs = {SET_A, SET_B}, comp = uy, dkdg = ...): joint
 * trial vectors (seed 000 Sect. 3) of the basis built so far, for contact
 * pairs between the i-th nodes of two node sets along one component that
 * touch without load, with the slope of the pair's contact stiffness on the
 * closing side (dk/dg, N/m^2, area * d2p/dg2 of the contact law at g0): the
 * one-sided trial vector derivatives of runtime/red_jtv.c. */
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
            sval v = sema_num_dim(S, &S->consts, a->kids[0], is_count ? units_none : DIM_NM2,
                                  is_count ? "'count' of jtv" : "'dkdg' of jtv");
            double x;
            if (v.k != V_NUM || !ex_is_const(S->pool, v.e, &x)) {
                if (v.k == V_NUM)
                    diag_error(S->dc, a->loc, "jtv's arguments must be compile-time constants");
                return -1;
            }
            *(is_count ? &count : &dkdg) = x;
        } else {
            diag_error(S->dc, a->loc, "jtv takes count = t, pairs = {SET_A, SET_B}, comp = uy "
                                      "and dkdg = .. N/m^2");
            return -1;
        }
    }
    int sets[2], c = comp && comp->kind == AST_NAME ? comp_index(comp->name) : -1;
    if (!between || between->kind != AST_SET || between->nkids != 2 || c < 0 || count < 1 ||
        isnan(dkdg)) {
        diag_error(S->dc, e->loc, "jtv needs count = t, pairs = {SET_A, SET_B}, comp = ux|uy|.. "
                                  "and dkdg = .. N/m^2");
        return -1;
    }
    if (set_names(S, between, fe, sets, 2) != 2)
        return -1;
    const fe_set *A = &fe->set[sets[0]], *B = &fe->set[sets[1]];
    if (A->n != B->n) {
        diag_error(S->dc, between->loc, "jtv pairs the nodes of '%s' (%d) and '%s' (%d) in order: "
                                        "they must have as many nodes", A->name, A->n, B->name, B->n);
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
            diag_error(S->dc, between->loc, "jtv needs plain DOFs at the joint's nodes (not points "
                                            "attached to other nodes)");
            goto done;
        }
        da[np] = ra[0], db[np] = rb[0], dk[np++] = dkdg;
    }
    red_joint joint = {np, da, db, dk};
    char err[512] = "";
    rc = red_jtv_onesided(fe, base, &joint, (int)count, out, err, sizeof err);
    if (rc)
        diag_error(S->dc, e->loc, "%s", err);
    else if (out->r < (int)count)
        diag_warning(S->dc, e->loc, "jtv gives %d vectors, not %d: the trial vector derivatives "
                                    "span no more directions", out->r, (int)count);
done:
    free(da), free(db), free(dk);
    return rc ? -1 : 0;
}

static int build_basis(sema *S, const ast *e, const fe_model *fe, red_basis *out)
{
    char err[512] = "";
    if (e->kind == AST_BINARY && e->op == OP_ADD) {
        red_basis b = {0};
        /* jtv extends the basis on its left */
        if (build_basis(S, e->kids[0], fe, out) ||
            (is_call(e->kids[1], "jtv") ? build_jtv(S, e->kids[1], fe, out, &b)
                                        : build_basis(S, e->kids[1], fe, &b))) {
            red_basis_free(&b);
            return -1;
        }
        int rc = red_basis_append(out, &b, err, sizeof err);
        red_basis_free(&b);
        if (rc)
            diag_error(S->dc, e->loc, "%s", err);
        return rc ? -1 : 0;
    }
    if (e->kind != AST_CALL || is_call(e, "jtv")) {
        diag_error(S->dc, e->loc, is_call(e, "jtv")
                                      ? "jtv extends a basis: write it after one, as modal(...) + jtv(...)"
                                      : "expected a reduction: modal(modes = n), static(at = SET), "
                                        "craig_bampton(modes = n, keep = SET), jtv(...), or their sum");
        return -1;
    }
    static const arg_spec modal_args[] = {{"modes", &units_none, NAN, NULL, 0}};
    double v[2];
    int rc = -1;
    if (!strcmp(e->name, "modal")) {
        if (bind_args(S, e, 0, e->nkids, modal_args, 1, "'modal'", v, NULL))
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
                sval x = sema_num(S, &S->consts, a->kids[0], "'modes'");
                double m;
                if (x.k != V_NUM || !ex_is_const(S->pool, x.e, &m))
                    return -1;
                modes = (int)m;
            } else {
                diag_error(S->dc, a->loc, cb ? "'craig_bampton' takes modes = n and keep = SET"
                                             : "'static' takes at = SET");
                return -1;
            }
        }
        int sets[32], nset = set ? set_names(S, set, fe, sets, 32) : -1;
        if (nset <= 0) {
            if (!set)
                diag_error(S->dc, e->loc, "'%s' needs %s = SET", e->name, cb ? "keep" : "at");
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
        rc = cb ? red_craig_bampton(fe, dofs, nd, modes, out, err, sizeof err)
                : red_static(fe, dofs, nd, out, err, sizeof err);
        free(dofs);
    } else {
        diag_error(S->dc, e->loc, "unknown reduction '%s' (there are modal, static and "
                                  "craig_bampton)", e->name);
        return -1;
    }
    if (rc)
        diag_error(S->dc, e->loc, "%s", err[0] ? err : "the reduction failed");
    return rc ? -1 : 0;
}

/* Modal damping in the reduced space: with Kr Y = Mr Y diag(w^2), Y^T Mr Y = I,
 * add Cr += (Mr Y) diag(2 zeta w) (Mr Y)^T, which gives every mode of the
 * reduced model the damping ratio zeta. */
static int modal_damping(int r, const double *Mr, const double *Kr, double zeta, double *Cr)
{
    double *A = xmalloc((size_t)r * r * sizeof *A), *B = xmalloc((size_t)r * r * sizeof *B);
    double *lam = xmalloc((size_t)r * sizeof *lam), *T = xcalloc((size_t)r * r, sizeof *T);
    memcpy(A, Kr, (size_t)r * r * sizeof *A);
    memcpy(B, Mr, (size_t)r * r * sizeof *B);
    lapack_int info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'L', r, A, r, B, r, lam);
    if (info == 0) {
        for (int j = 0; j < r; j++) /* T = Mr Y */
            for (int k = 0; k < r; k++)
                for (int i = 0; i < r; i++)
                    T[(size_t)j * r + i] += Mr[(size_t)k * r + i] * A[(size_t)j * r + k];
        for (int m = 0; m < r; m++) {
            double dm = 2 * zeta * sqrt(fmax(lam[m], 0));
            for (int j = 0; j < r; j++)
                for (int i = 0; i < r; i++)
                    Cr[(size_t)j * r + i] += dm * T[(size_t)m * r + i] * T[(size_t)m * r + j];
        }
    }
    free(A), free(B), free(lam), free(T);
    return info == 0 ? 0 : -1;
}

/* Reduced matrices and their products with Mr^-1 (r x r, column-major). */
static int reduce(sema *S, const ast *d, subst *b, const red_basis *basis)
{
    int r = basis->r;
    char err[512] = "";
    double *Mr = xcalloc((size_t)r * r, sizeof *Mr), *Kr = xcalloc((size_t)r * r, sizeof *Kr);
    double *Cr = xcalloc((size_t)r * r, sizeof *Cr);
    if (red_project(b->fe, basis, Mr, Kr, Cr, err, sizeof err)) {
        diag_error(S->dc, d->loc, "%s", err);
        free(Mr), free(Kr), free(Cr);
        return -1;
    }
    if (b->zeta >= 0 && modal_damping(r, Mr, Kr, b->zeta, Cr) != 0) {
        diag_error(S->dc, d->loc, "the modes of the reduced '%s' could not be computed", b->name);
        free(Mr), free(Kr), free(Cr);
        return -1;
    }
    double *Mr0 = xmalloc((size_t)r * r * sizeof *Mr0);
    memcpy(Mr0, Mr, (size_t)r * r * sizeof *Mr0);
    /* Minv by Cholesky of Mr (symmetric positive definite) */
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', r, Mr, r);
    if (info == 0)
        info = LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', r, Mr, r);
    if (info != 0) {
        diag_error(S->dc, d->loc, "the reduced mass matrix of '%s' is singular (basis vectors are "
                                  "dependent?)", b->name);
        free(Mr), free(Kr), free(Cr), free(Mr0);
        return -1;
    }
    for (int j = 0; j < r; j++) /* complete the upper triangle */
        for (int i = 0; i < j; i++)
            Mr[(size_t)j * r + i] = Mr[(size_t)i * r + j];
    b->mr = xmalloc((size_t)r * r * sizeof *b->mr);
    b->kr = Kr;
    b->cr = Cr;
    memcpy(b->mr, Mr0, (size_t)r * r * sizeof *b->mr);
    b->minv = Mr;
    b->minv_k = xcalloc((size_t)r * r, sizeof(double));
    b->minv_c = xcalloc((size_t)r * r, sizeof(double));
    for (int j = 0; j < r; j++)
        for (int k = 0; k < r; k++) {
            double kk = Kr[(size_t)j * r + k], cc = Cr[(size_t)j * r + k];
            for (int i = 0; i < r; i++) {
                b->minv_k[(size_t)j * r + i] += Mr[(size_t)k * r + i] * kk;
                b->minv_c[(size_t)j * r + i] += Mr[(size_t)k * r + i] * cc;
            }
        }
    free(Mr0);
    return 0;
}

/* damping = rayleigh(alpha, beta) with an argument that varies in time (seed
 * 003's damping blend): kept as expressions for the runtime of interface
 * models (C(t) = alpha(t) M + beta(t) K). 1 when it was (or failed as) such
 * a call, 0 when both arguments are constants (the usual path). */
static int time_rayleigh(sema *S, const ast *c, subst *b)
{
    static const char *const names[] = {"alpha", "beta"};
    const jnt_dim *dims[] = {&DIM_1S, &DIM_S};
    const ast *arg[2] = {0};
    int pos = 0, timed = 0;
    for (int i = 0; i < c->nkids; i++) {
        const ast *a = c->kids[i];
        int k = a->kind == AST_ARG ? (!strcmp(a->name, "alpha") ? 0 : !strcmp(a->name, "beta") ? 1
                                                                                              : -1)
                                   : pos++;
        if (k < 0 || k > 1)
            return 0; /* bind_args reports it */
        arg[k] = a->kind == AST_ARG ? a->kids[0] : a;
    }
    ex_id e[2];
    for (int k = 0; k < 2; k++) {
        e[k] = ex_const(S->pool, 0);
        if (!arg[k])
            continue;
        char what[64];
        snprintf(what, sizeof what, "'%s' of 'rayleigh'", names[k]);
        sval v = sema_num_dim(S, &S->global, arg[k], *dims[k], what);
        if (v.k != V_NUM)
            return 1;
        if (sema_is_dynamic(S, v.e) && !sema_is_time_only(S, v.e)) {
            diag_error(S->dc, arg[k]->loc, "%s may use time and parameters, not states", what);
            return 1;
        }
        timed |= sema_is_dynamic(S, v.e);
        e[k] = v.e;
    }
    if (!timed)
        return 0;
    b->ray[0] = e[0];
    b->ray[1] = e[1];
    return 1;
}

/* A frame that accelerates (a_x, a_y) loads every mass point with
 * -m a: the generalized forces -Phi^T M t_x a_x - Phi^T M t_y a_y, where
 * t_x, t_y are the unit translations (the mesh's DOFs are global: `angle`
 * rotated it). */
static void frame_inertia(sema *S, subst *b)
{
    ex_pool *P = S->pool;
    const fe_model *fe = b->fe;
    double *t = xcalloc(2 * (size_t)fe->ndof + 1, sizeof *t), *mt = xcalloc((size_t)fe->ndof + 1,
                                                                              sizeof *mt);
    for (int c = 0; c < 2; c++) {
        if (b->frame[c] < 0)
            continue;
        memset(t, 0, (size_t)fe->ndof * sizeof *t);
        for (int n = 0; n < fe->nnode; n++) {
            int dof = fe->node[n].dof[c == 0 ? FE_UX : FE_UY];
            if (dof >= 0)
                t[dof] = 1;
        }
        fe_sparse_mul(&fe->M, t, mt);
        ex_id acc = ex_diff(P, ex_diff(P, b->frame[c], EX_T, 0), EX_T, 0);
        for (int k = 0; k < b->r; k++) {
            double g = 0;
            for (int i = 0; i < fe->ndof; i++)
                g += b->phi[(size_t)k * fe->ndof + i] * mt[i];
            if (g != 0)
                b->g[k] = ex_op2(P, EX_SUB, b->g[k], ex_op2(P, EX_MUL, ex_const(P, g), acc));
        }
    }
    free(t);
    free(mt);
}

/* Declare substructure s: build, constrain, damp, reduce; create its states. */
void sema_declare_sub(sema *S, sym *s)
{
    const ast *d = s->decl;
    int nargs = 0;
    while (nargs < d->nkids && d->kids[nargs]->kind != AST_SETTING)
        nargs++;
    XGROW(S->subs, S->capsub, S->nsub);
    subst *b = &S->subs[S->nsub];
    *b = (subst){.name = xstrdup(d->name), .decl = d, .q0 = -1, .zeta = -1, .frame = {-1, -1},
                 .ray = {-1, -1}};
    b->fe = xcalloc(1, sizeof *b->fe);
    s->inst = xcalloc(1, sizeof *s->inst);
    s->inst[0] = S->nsub++;
    s->ninst = 1;
    if (build_fe(S, d, nargs, b->fe) != 0)
        return;
    const ast *reduce_e = NULL;
    char err[512] = "";
    /* angle = ..: the mesh is rotated first, so that fix = SET.ux is global */
    for (int i = nargs; i < d->nkids; i++) {
        const ast *st = d->kids[i];
        if (strcmp(st->name, "angle") != 0)
            continue;
        double ang;
        sval v = sema_num_dim(S, &S->consts, st->kids[0], units_none, "'angle' of a substructure");
        if (v.k != V_NUM || !ex_is_const(S->pool, v.e, &ang)) {
            if (v.k == V_NUM)
                diag_error(S->dc, st->kids[0]->loc, "'angle' of a substructure must be a "
                                                    "compile-time constant");
            return;
        }
        if (fe_rotate(b->fe, ang, err, sizeof err)) {
            diag_error(S->dc, st->loc, "%s", err);
            return;
        }
    }
    for (int i = nargs; i < d->nkids; i++) {
        const ast *st = d->kids[i];
        if (!strcmp(st->name, "fix") && st->kids[0]->kind == AST_MEMBER &&
            st->kids[0]->kids[0]->kind == AST_NAME) {
            /* fix = SET.ux: one component of the nodes of a set */
            const ast *e = st->kids[0];
            int set = fe_find_set(b->fe, e->kids[0]->name), comp = comp_index(e->name);
            if (set < 0 || comp < 0) {
                diag_error(S->dc, e->loc, set < 0 ? "'%s' has no node set '%s'"
                                                  : "a node has components ux, uy, uz, rx, ry, rz, "
                                                    "not '%s'",
                           set < 0 ? b->name : e->name, e->kids[0]->name);
                return;
            }
            if (fe_fix_comps(b->fe, set, 1u << comp, err, sizeof err)) {
                diag_error(S->dc, st->loc, "%s", err);
                return;
            }
        } else if (!strcmp(st->name, "fix")) {
            int sets[32], n = set_names(S, st->kids[0], b->fe, sets, 32);
            for (int k = 0; k < n; k++)
                if (fe_fix(b->fe, sets[k], err, sizeof err)) {
                    diag_error(S->dc, st->loc, "%s", err);
                    return;
                }
            if (n < 0)
                return;
        } else if (!strcmp(st->name, "damping")) {
            const ast *c = st->kids[0];
            static const arg_spec rayleigh[] = {{"alpha", &DIM_1S, 0, NULL, 0},
                                                {"beta", &DIM_S, 0, NULL, 0}};
            static const arg_spec modal[] = {{"zeta", &units_none, NAN, NULL, 0}};
            double v[2];
            if (c->kind == AST_CALL && !strcmp(c->name, "modal")) {
                if (bind_args(S, c, 0, c->nkids, modal, 1, "'modal'", v, NULL))
                    return;
                b->zeta = v[0];
                continue;
            }
            if (c->kind == AST_CALL && !strcmp(c->name, "rayleigh") && time_rayleigh(S, c, b))
                continue;
            if (c->kind != AST_CALL || strcmp(c->name, "rayleigh")) {
                diag_error(S->dc, c->loc, "expected damping = rayleigh(alpha = .. /s, beta = .. s) "
                                          "or modal(zeta = ..)");
                return;
            }
            if (bind_args(S, c, 0, c->nkids, rayleigh, 2, "'rayleigh'", v, NULL) ||
                fe_rayleigh(b->fe, v[0], v[1], err, sizeof err)) {
                if (err[0])
                    diag_error(S->dc, st->loc, "%s", err);
                return;
            }
        } else if (!strcmp(st->name, "reduce")) {
            reduce_e = st->kids[0];
        } else if (!strcmp(st->name, "frame_x") || !strcmp(st->name, "frame_y")) {
            int k = st->name[6] == 'y';
            sval v = sema_num_dim(S, &S->global, st->kids[0], DIM_M, "a frame position");
            if (v.k != V_NUM)
                return;
            if (!sema_is_time_only(S, v.e)) {
                diag_error(S->dc, st->kids[0]->loc, "a frame position may use time and "
                                                    "parameters only, not states");
                return;
            }
            b->frame[k] = v.e;
        } else if (!strcmp(st->name, "angle")) {
            continue; /* applied first, below */
        } else if (!strcmp(st->name, "x0") || !strcmp(st->name, "y0")) {
            int k = st->name[0] == 'x' ? 0 : 1;
            char what[64];
            snprintf(what, sizeof what, "'%s' of a substructure", st->name);
            sval v = sema_num_dim(S, &S->consts, st->kids[0], DIM_M, what);
            if (v.k != V_NUM || !ex_is_const(S->pool, v.e, &b->place[k])) {
                if (v.k == V_NUM)
                    diag_error(S->dc, st->kids[0]->loc, "%s must be a compile-time constant", what);
                return;
            }
        } else {
            static const char *const known[] = {"fix", "damping", "reduce", "x0", "y0", "angle",
                                                "frame_x", "frame_y"};
            const char *best = diag_closest(st->name, known, 8);
            diag_error(S->dc, st->loc, "unknown setting '%s' of a substructure%s%s%s", st->name,
                       best ? "; did you mean '"
                            : " (it has fix, damping, reduce, x0, y0, angle, frame_x, frame_y)",
                       best ? best : "", best ? "'?" : "");
            return;
        }
    }
    /* the basis: the reduction, or every DOF (no reduction) */
    red_basis basis = {0};
    int n = b->fe->ndof;
    if (reduce_e) {
        if (build_basis(S, reduce_e, b->fe, &basis)) {
            red_basis_free(&basis);
            return;
        }
        /* a sum with joint trial vectors or static shapes: mode-shape
         * orthogonalisation (seed 000 eqs. 10-11) removes rigid-body content
         * and dependent columns */
        if (reduce_e->kind == AST_BINARY && red_orthogonalize(b->fe, &basis, 1e-10, err, sizeof err)) {
            diag_error(S->dc, reduce_e->loc, "%s", err);
            red_basis_free(&basis);
            return;
        }
    } else {
        basis.n = basis.r = n;
        basis.phi = xcalloc((size_t)n * n + 1, sizeof(double));
        for (int i = 0; i < n; i++)
            basis.phi[(size_t)i * n + i] = 1;
    }
    if (basis.r < 1 || basis.r > JNT_MAX_BLOCK) {
        diag_error(S->dc, d->loc, "'%s' has %d generalized coordinates; between 1 and %d are "
                                  "supported (reduce it)", b->name, basis.r, JNT_MAX_BLOCK);
        red_basis_free(&basis);
        return;
    }
    if (reduce(S, d, b, &basis)) {
        red_basis_free(&basis);
        return;
    }
    b->ndof = n;
    b->r = basis.r;
    b->phi = basis.phi;
    /* states: q_k then their velocities */
    for (int k = 0; k < b->r; k++) {
        int yi = ir_add(&S->m->y, xasprintf("%s.q%d", b->name, k + 1), ex_const(S->pool, 0),
                        ex_const(S->pool, 0), units_none, d->loc);
        if (k == 0)
            b->q0 = yi;
    }
    for (int k = 0; k < b->r; k++)
        ir_add(&S->m->y, xasprintf("%s.qd%d", b->name, k + 1), -1, ex_const(S->pool, 0),
               units_none, d->loc);
    b->g = xmalloc((size_t)b->r * sizeof *b->g);
    for (int k = 0; k < b->r; k++)
        b->g[k] = ex_const(S->pool, 0);
    if (b->frame[0] >= 0 || b->frame[1] >= 0)
        frame_inertia(S, b);
}

/* A dof for component comp of node `node`: created once, then reused. */
static int sub_dof(sema *S, int si, int node, int comp, jnt_loc loc)
{
    subst *b = &S->subs[si];
    static const char *const comps[] = {"ux", "uy", "uz", "rx", "ry", "rz"};
    char *name = xasprintf("%s.node%d.%s", b->name, b->fe->node[node].id, comps[comp]);
    for (int i = 0; i < S->ndof; i++)
        if (S->dofs[i].sub == si && !strcmp(S->dofs[i].name, name)) {
            free(name);
            return i;
        }
    int rows[4];
    double c[4];
    int nt = fe_point_dofs(b->fe, node, comp, rows, c);
    if (nt <= 0) {
        diag_error(S->dc, loc, "%s has no degree of freedom here (fixed, or not a component of "
                               "this element type)", name);
        free(name);
        return -1;
    }
    XGROW(S->dofs, S->capdof, S->ndof);
    dof *f = &S->dofs[S->ndof];
    *f = (dof){.name = name, .short_name = comps[comp], .body = -1, .y = -1, .sub = si,
               .force = ex_const(S->pool, 0), .acc = -1, .motion = -1, .g = S->ngather++};
    f->coef = xcalloc((size_t)b->r, sizeof *f->coef);
    for (int t = 0; t < nt; t++)
        for (int k = 0; k < b->r; k++)
            f->coef[k] += c[t] * b->phi[(size_t)k * b->ndof + rows[t]];
    /* u = sum_k coef_k q_k and v = sum_k coef_k qd_k: gathered by the runtime
     * (the coefficients become a row of the block's R, sema_sub_gather) */
    f->pos = ex_var(S->pool, EX_UP, f->g);
    f->vel = ex_var(S->pool, EX_UV, f->g);
    return S->ndof++;
}


/* x^T A z / 2 over the coordinates at y[ya ..] and y[za ..] (A r x r). */
static ex_id quad_form(sema *S, const subst *b, const double *A, int xa, int za, double scale)
{
    ex_pool *P = S->pool;
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
        *out = sval_num(ex_op2(S->pool, EX_ADD, quad_form(S, b, b->mr, qd, qd, 0.5),
                               quad_form(S, b, b->kr, q, q, 0.5)), J);
    else if (!strcmp(name, "damping_power"))
        *out = sval_num(quad_form(S, b, b->cr, qd, qd, 1.0), W);
    else
        return 0;
    return 1;
}

/* See sema_int.h. */
int sema_sub_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out)
{
    subst *b = &S->subs[base.id];
    if (!b->phi) /* its errors were reported */
        return -1;
    if (base.k == V_SUB && energy_member(S, b, name, out))
        return 0;
    if (base.k == V_SUB) {
        int set = fe_find_set(b->fe, name);
        if (set < 0) {
            const char *c[64];
            int nc = 0;
            for (int j = 0; j < b->fe->nset && nc < 64; j++)
                c[nc++] = b->fe->set[j].name;
            const char *best = diag_closest(name, c, nc);
            diag_error(S->dc, loc, "substructure '%s' has no node set '%s'%s%s%s", b->name, name,
                       best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
            return -1;
        }
        *out = (sval){V_SUBSET, -1, units_none, base.id, 0, set};
        return 0;
    }
    int comp = comp_index(name), node;
    if (comp < 0) {
        diag_error(S->dc, loc, "a node has components ux, uy, uz, rx, ry, rz, not '%s'", name);
        return -1;
    }
    if (base.k == V_SUBSET) {
        const fe_set *set = &b->fe->set[base.aux];
        if (set->n != 1) {
            diag_error(S->dc, loc, "node set '%s' has %d nodes: pick one, as %s.%s[1].%s",
                       set->name, set->n, b->name, set->name, name);
            return -1;
        }
        node = set->node[0];
    } else {
        node = base.aux;
    }
    int di = sub_dof(S, base.id, node, comp, loc);
    if (di < 0)
        return -1;
    *out = (sval){V_DOF, -1, units_none, di, 0, 0};
    return 0;
}

/* See sema_int.h: SET[i], 1-based. */
int sema_sub_index(sema *S, sval base, long i, jnt_loc loc, sval *out)
{
    const fe_set *set = &S->subs[base.id].fe->set[base.aux];
    if (i < 1 || i > set->n) {
        diag_error(S->dc, loc, "index %ld is outside node set '%s' (1..%d)", i, set->name, set->n);
        return -1;
    }
    *out = (sval){V_SUBNODE, -1, units_none, base.id, 0, set->node[i - 1]};
    return 0;
}

/* See sema_int.h. With w = Mr^-1 c (Mr^-1 symmetric), the point's
 * acceleration c^T q'' = w . (g - Kr q - Cr qd) and g = g_o + c F. */
int sema_sub_accel(sema *S, int di, int skip, ex_id *a0, ex_id *alpha)
{
    ex_pool *P = S->pool;
    const dof *f = &S->dofs[di];
    subst *b = &S->subs[f->sub];
    int r = b->r;
    double *w = xcalloc((size_t)r, sizeof *w), al = 0;
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++)
            w[i] += b->minv[(size_t)j * r + i] * f->coef[j];
    for (int i = 0; i < r; i++)
        al += f->coef[i] * w[i];
    /* g_o: the other forces on every point of the substructure (first make
     * sure every element has created the points it uses) */
    for (int i = 0; i < S->nelem; i++)
        if (i != skip)
            sema_eval_elem(S, i);
    f = &S->dofs[di]; /* the dof table may have grown */
    ex_id acc = ex_const(P, 0);
    for (int p = 0; p < S->ndof; p++) {
        if (S->dofs[p].sub != f->sub)
            continue;
        double wc = 0;
        for (int k = 0; k < r; k++)
            wc += w[k] * S->dofs[p].coef[k];
        if (wc != 0)
            acc = ex_op2(P, EX_ADD, acc,
                         ex_op2(P, EX_MUL, ex_const(P, wc), sema_other_forces(S, p, skip)));
    }
    /* - w . (Minv K q + Minv C qd) written as - (c^T Minv K) q - (c^T Minv C) qd */
    for (int k = 0; k < r; k++) {
        double ck = 0, cc = 0;
        for (int i = 0; i < r; i++) {
            ck += f->coef[i] * b->minv_k[(size_t)k * r + i];
            cc += f->coef[i] * b->minv_c[(size_t)k * r + i];
        }
        if (ck != 0)
            acc = ex_op2(P, EX_SUB, acc, ex_op2(P, EX_MUL, ex_const(P, ck),
                                                ex_var(P, EX_Y, b->q0 + k)));
        if (cc != 0)
            acc = ex_op2(P, EX_SUB, acc, ex_op2(P, EX_MUL, ex_const(P, cc),
                                                ex_var(P, EX_Y, b->q0 + r + k)));
    }
    free(w);
    *a0 = acc;
    *alpha = ex_const(P, al);
    return 0;
}

/* See sema_int.h: the forces on the substructure's points reach g at run
 * time (g += R^T F, abi.h); here only what acts on the coordinates directly. */
void sema_sub_assemble(sema *S)
{
    ex_pool *P = S->pool;
    for (int s = 0; s < S->nsub; s++) {
        subst *b = &S->subs[s];
        if (!b->phi)
            continue;
        for (int k = 0; k < b->r; k++)
            S->m->y.v[b->q0 + b->r + k].rhs = b->g[k];
        /* hand the matrices to the IR */
        ir_model *m = S->m;
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
        b->minv = b->minv_k = b->minv_c = NULL;
    }
}

/* See sema_int.h. The points of each block get consecutive indices (in the
 * order they were made), their forces become the model's f, their
 * coefficients the rows of the block's R. */
void sema_sub_gather(sema *S)
{
    ir_model *m = S->m;
    ex_pool *P = S->pool;
    int n = S->ngather, moved = 0, bi = 0;
    ex_id *rp = xmalloc(((size_t)n + 1) * sizeof *rp), *rv = xmalloc(((size_t)n + 1) * sizeof *rv);
    for (int s = 0; s < S->nsub; s++) {
        const subst *b = &S->subs[s];
        if (!b->phi)
            continue;
        ir_block *k = &m->blocks[bi++];
        k->g0 = m->f.n;
        for (int i = 0; i < S->ndof; i++)
            k->ng += S->dofs[i].sub == s;
        k->rows = xcalloc((size_t)k->ng * k->r + 1, sizeof *k->rows);
        for (int i = 0; i < S->ndof; i++) {
            const dof *f = &S->dofs[i];
            if (f->sub != s)
                continue;
            int g = m->f.n, l = g - k->g0;
            moved |= g != f->g;
            rp[f->g] = ex_var(P, EX_UP, g);
            rv[f->g] = ex_var(P, EX_UV, g);
            for (int c = 0; c < k->r; c++)
                k->rows[(size_t)c * k->ng + l] = f->coef[c];
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

/* See sema_int.h. */
sval sema_sub_point_accel(sema *S, int di)
{
    ex_pool *P = S->pool;
    const dof *f = &S->dofs[di];
    int bi = 0;
    for (int s = 0; s < f->sub; s++)
        bi += S->subs[s].phi != NULL;
    ir_block *blk = &S->m->blocks[bi];
    if (blk->qdd0 < 0) {
        blk->qdd0 = S->m->d.n;
        for (int k = 0; k < blk->r; k++) {
            int i = ir_add(&S->m->d, xasprintf("%s.qdd%d", blk->name, k + 1), -1, ex_const(P, 0),
                           units_none, S->subs[f->sub].decl->loc);
            S->m->d.v[i].rhs = ex_var(P, EX_D, i); /* the runtime writes it */
        }
    }
    ex_id a = ex_const(P, 0);
    for (int k = 0; k < blk->r; k++)
        if (f->coef[k] != 0)
            a = ex_op2(P, EX_ADD, a, ex_op2(P, EX_MUL, ex_const(P, f->coef[k]),
                                            ex_var(P, EX_D, blk->qdd0 + k)));
    return sval_num(a, (jnt_dim){{0, 6, -12, 0, 0}});
}

/* See sema_int.h. */
void sema_sub_free(sema *S)
{
    for (int s = 0; s < S->nsub; s++) {
        subst *b = &S->subs[s];
        fe_free(b->fe);
        free(b->fe);
        free(b->name);
        free(b->phi);
        free(b->minv);
        free(b->minv_k);
        free(b->minv_c);
        free(b->mr);
        free(b->kr);
        free(b->cr);
        free(b->g);
    }
    free(S->subs);
}

/* See sema_int.h: the `count` lowest modes of the full and of the reduced
 * substructure: a frequency table (k, w and f of both, relative error, MAC of
 * the full mode with the reduced one expanded by Phi) and a shape table (per
 * DOF: node id, component, the full and the expanded reduced shapes). */
int sema_sub_modes(sema *S, const ast *at, int si, int count, ir_analysis *freq,
                   ir_analysis *shapes)
{
    subst *b = &S->subs[si];
    if (!b->phi)
        return -1;
    int n = b->ndof, r = b->r;
    if (count > r)
        count = r;
    if (count > n)
        count = n;
    char err[512] = "";
    red_basis full = {0};
    double *wf = xmalloc((size_t)count * sizeof *wf);
    if (red_modal(b->fe, count, 0, &full, wf, err, sizeof err)) {
        diag_error(S->dc, at->loc, "%s", err);
        free(wf);
        return -1;
    }
    /* reduced: Kr y = w^2 Mr y */
    double *A = xmalloc((size_t)r * r * sizeof *A), *B = xmalloc((size_t)r * r * sizeof *B);
    double *lam = xmalloc((size_t)r * sizeof *lam);
    memcpy(A, b->kr, (size_t)r * r * sizeof *A);
    memcpy(B, b->mr, (size_t)r * r * sizeof *B);
    lapack_int info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'L', r, A, r, B, r, lam);
    if (info != 0) {
        diag_error(S->dc, at->loc, "the modes of the reduced '%s' could not be computed", b->name);
        free(A), free(B), free(lam), free(wf);
        red_basis_free(&full);
        return -1;
    }
    double *ex = xcalloc((size_t)n * count, sizeof *ex); /* Phi y_k */
    for (int k = 0; k < count; k++)
        for (int j = 0; j < r; j++)
            for (int i = 0; i < n; i++)
                ex[(size_t)k * n + i] += b->phi[(size_t)j * n + i] * A[(size_t)k * r + j];
    static const char *const fcols[] = {"k", "w_full", "f_full_Hz", "w_reduced", "f_reduced_Hz",
                                        "rel_error", "MAC"};
    *freq = (ir_analysis){.kind = JNT_ANALYSIS_TABLE, .v = {-1, -1}, .ncol = 7, .nrow = count};
    freq->cols = xmalloc(7 * sizeof *freq->cols);
    for (int c = 0; c < 7; c++)
        freq->cols[c] = xstrdup(fcols[c]);
    freq->table = xmalloc((size_t)count * 7 * sizeof *freq->table);
    for (int k = 0; k < count; k++) {
        double wr = sqrt(fmax(lam[k], 0)), *row = freq->table + (size_t)k * 7;
        row[0] = k + 1;
        row[1] = wf[k];
        row[2] = wf[k] / (2 * JNT_PI);
        row[3] = wr;
        row[4] = wr / (2 * JNT_PI);
        row[5] = wf[k] > 0 ? (wr - wf[k]) / wf[k] : 0;
        row[6] = red_mac(full.phi + (size_t)k * n, ex + (size_t)k * n, n);
    }
    /* shapes: one row per DOF */
    int nc = 3 + 2 * count;
    *shapes = (ir_analysis){.kind = JNT_ANALYSIS_TABLE, .v = {-1, -1}, .ncol = nc, .nrow = n};
    shapes->cols = xmalloc((size_t)nc * sizeof *shapes->cols);
    shapes->cols[0] = xstrdup("dof");
    shapes->cols[1] = xstrdup("node");
    shapes->cols[2] = xstrdup("component");
    for (int k = 0; k < count; k++) {
        shapes->cols[3 + k] = xasprintf("full%d", k + 1);
        shapes->cols[3 + count + k] = xasprintf("reduced%d", k + 1);
    }
    shapes->table = xcalloc((size_t)n * nc, sizeof *shapes->table);
    for (int i = 0; i < n; i++) {
        double *row = shapes->table + (size_t)i * nc;
        row[0] = i;
        row[1] = row[2] = -1;
        for (int k = 0; k < count; k++) {
            row[3 + k] = full.phi[(size_t)k * n + i];
            /* the same sign as the full mode */
            double dot = 0;
            for (int j = 0; j < n; j++)
                dot += full.phi[(size_t)k * n + j] * ex[(size_t)k * n + j];
            row[3 + count + k] = (dot < 0 ? -1 : 1) * ex[(size_t)k * n + i];
        }
    }
    for (int p = 0; p < b->fe->nnode; p++)
        for (int c = 0; c < FE_NDOF_NODE; c++) {
            int k = b->fe->node[p].dof[c];
            if (k >= 0) {
                shapes->table[(size_t)k * nc + 1] = b->fe->node[p].id;
                shapes->table[(size_t)k * nc + 2] = c;
            }
        }
    free(A), free(B), free(lam), free(wf), free(ex);
    red_basis_free(&full);
    return 0;
}
