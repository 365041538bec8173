/*
 * declare.c: declaring substructures. A substructure is a finite-element
 * model (generated: beam2d, beam3d, plate2d, chain; or imported: fe) with boundary
 * conditions, damping and a reduction basis Phi (kinds/substructure/basis.c), reduced
 * at compile time: its states are the generalized coordinates q (and
 * velocities) of
 *   Mr q'' + Cr q' + Kr q = Phi^T f,   Mr = Phi^T M Phi, ...   (seed 000 eq. 4)
 * which the runtime integrates as a linear block (jnt_abi_block). Here: the
 * type's arguments, the settings (angle, fix, damping, reduce, frames,
 * placement), the reduced matrices and the states; the numbers come from
 * the setup library (fe_*, red_*). Its points are kinds/substructure/gather.c's.
 *
 * The type arguments must be compile-time constants (literals or consts):
 * the mesh and its reduction are fixed when the model is compiled.
 */
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/setup.h"
#include "substructure.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_KG = {{6, 0, 0, 0, 0}};
static const jnt_dim DIM_PA = {{6, -6, -12, 0, 0}};
static const jnt_dim DIM_NM = {{6, 0, -12, 0, 0}};
static const jnt_dim DIM_KGM3 = {{6, -18, 0, 0, 0}};
static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};
static const jnt_dim DIM_1S = {{0, 0, -6, 0, 0}};
static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};
static const jnt_dim DIM_NM2 = {{6, 18, -12, 0, 0}};
static const jnt_dim DIM_KGPM = {{6, -6, 0, 0, 0}};
static const jnt_dim DIM_KGM = {{6, 6, 0, 0, 0}};

static const arg_spec beam2d_args[] = {
    {"length", &DIM_M, NAN, NULL, 0},    {"height", &DIM_M, NAN, NULL, 0},
    {"width", &DIM_M, NAN, NULL, 0},     {"E", &DIM_PA, NAN, NULL, 0},
    {"nu", &units_none, 0.3, NULL, 0},   {"rho", &DIM_KGM3, NAN, NULL, 0},
    {"elements", &units_none, 20, NULL, 0},
};
/* the section's data (fe_section3d); ip, i22, i33 < 0: not given; kappa = 0:
 * no shear deformation, else the shear stiffness kappa G A with G A = EA /
 * (2 (1 + nu)) (G = E / (2 (1 + nu))) in both bending planes */
static const arg_spec beam3d_args[] = {
    {"length", &DIM_M, NAN, NULL, 0},  {"elements", &units_none, 20, NULL, 0},
    {"EA", &DIM_N, NAN, NULL, 0},      {"GJ", &DIM_NM2, NAN, NULL, 0},
    {"EI22", &DIM_NM2, NAN, NULL, 0},  {"EI33", &DIM_NM2, NAN, NULL, 0},
    {"mass", &DIM_KGPM, NAN, NULL, 0}, {"ip", &DIM_KGM, -1, NULL, 0},
    {"i22", &DIM_KGM, -1, NULL, 0},    {"i33", &DIM_KGM, -1, NULL, 0},
    {"e2", &DIM_M, 0, NULL, 0},        {"e3", &DIM_M, 0, NULL, 0},
    {"kappa", &units_none, 0, NULL, 0}, {"nu", &units_none, 0.3, NULL, 0},
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
    char *dir = xstrdup(sema_dc(S)->srcs[at->loc.file].path);
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
        if (sema_bind_args(S, d, 0, nargs, beam2d_args, 7, what, v, NULL) == 0)
            rc = fe_beam2d(fe, v[0], v[1], v[2], v[3], v[4], v[5], (int)v[6], err, sizeof err);
    } else if (!strcmp(d->str, "beam3d")) {
        if (sema_bind_args(S, d, 0, nargs, beam3d_args, 14, what, v, NULL) == 0) {
            const double kappa = v[12], nu = v[13];
            if (!(kappa >= 0) || !isfinite(kappa)) {
                diag_error(sema_dc(S), d->loc,
                           "beam3d: the shear coefficient kappa = %g must be 0 "
                           "(no shear deformation) or positive",
                           kappa);
                return -1;
            }
            if (!(nu > -1) || !(nu <= 0.5)) {
                diag_error(sema_dc(S), d->loc,
                           "beam3d: Poisson's ratio nu = %g must be in (-1, 0.5]", nu);
                return -1;
            }
            const double gas = kappa * v[2] / (2 * (1 + nu)); /* kappa G A, G = E/(2(1+nu)) */
            fe_section3d sec = {.EA = v[2], .GJ = v[3], .EI22 = v[4], .EI33 = v[5],
                                .mass = v[6], .ip = v[7], .i22 = v[8], .i33 = v[9],
                                .e2 = v[10], .e3 = v[11], .GA2 = gas, .GA3 = gas};
            rc = fe_beam3d(fe, v[0], (int)v[1], &sec, err, sizeof err);
        }
    } else if (!strcmp(d->str, "plate2d")) {
        if (sema_bind_args(S, d, 0, nargs, plate2d_args, 9, what, v, NULL) == 0)
            rc = fe_plate2d(fe, v[0], v[1], v[2], v[3], v[4], v[5], (int)v[6], (int)v[7],
                            (fe_element)v[8], err, sizeof err);
    } else if (!strcmp(d->str, "chain")) {
        if (sema_bind_args(S, d, 0, nargs, chain_args, 3, what, v, NULL) == 0)
            rc = fe_chain(fe, (int)v[0], v[1], v[2], err, sizeof err);
    } else if (!strcmp(d->str, "fe")) {
        if (sema_bind_args(S, d, 0, nargs, fe_args, 4, what, v, str) == 0) {
            if (!str[0] || !str[1] || !str[3]) {
                diag_error(sema_dc(S), d->loc,
                           "'fe' needs mass = \"M.mtx\", stiffness = \"K.mtx\" and "
                           "nodes = \"nodes.csv\"");
                return -1;
            }
            char *p[4], *dir = xstrdup(sema_dc(S)->srcs[d->loc.file].path);
            int bad = 0;
            for (int i = 0; i < 4; i++) {
                p[i] = rel_path(S, d, str[i]);
                bad |= p[i] && sema_path_ok(S, d->loc, str[i], p[i], dirname(dir), "data file");
                strcpy(dir, sema_dc(S)->srcs[d->loc.file].path); /* dirname may write into it */
            }
            free(dir);
            if (bad) {
                for (int i = 0; i < 4; i++)
                    free(p[i]);
                return -1;
            }
            for (int i = 0; i < 4; i++)
                sema_data_file(S, p[i]);
            rc = fe_import(fe, p[0], p[1], p[2], p[3], err, sizeof err);
            for (int i = 0; i < 4; i++)
                free(p[i]);
        }
    } else {
        diag_error(sema_dc(S), d->loc,
                   "unknown substructure type '%s' (there are beam2d, beam3d, "
                   "plate2d, chain and fe)",
                   d->str);
        return -1;
    }
    if (rc != 0 && err[0])
        diag_error(sema_dc(S), d->loc, "%s", err);
    return rc == 0 ? 0 : -1;
}

/* The reduced matrices and their products with Mr^-1 (r x r, column-major):
 * red_project, modal damping (red_modal_damping) when the substructure has
 * damping = modal(zeta), red_mass_inverse. */
static int reduce(sema *S, const ast *d, subst *b, const red_basis *basis)
{
    int r = basis->r;
    size_t rr = (size_t)r * r;
    char err[512] = "";
    double *Mr = xcalloc(rr, sizeof *Mr), *Kr = xcalloc(rr, sizeof *Kr);
    double *Cr = xcalloc(rr, sizeof *Cr);
    if (red_project(b->fe, basis, Mr, Kr, Cr, err, sizeof err)) {
        diag_error(sema_dc(S), d->loc, "%s", err);
        free(Mr), free(Kr), free(Cr);
        return -1;
    }
    if (b->zeta >= 0 && red_modal_damping(r, Mr, Kr, b->zeta, Cr, err, sizeof err) != 0) {
        diag_error(sema_dc(S), d->loc, "the modes of the reduced '%s' could not be computed",
                   b->name);
        free(Mr), free(Kr), free(Cr);
        return -1;
    }
    double *minv = xmalloc(rr * sizeof *minv), *minv_k = xmalloc(rr * sizeof *minv_k);
    double *minv_c = xmalloc(rr * sizeof *minv_c);
    if (red_mass_inverse(r, Mr, Kr, Cr, minv, minv_k, minv_c, err, sizeof err) != 0) {
        diag_error(sema_dc(S), d->loc,
                   "the reduced mass matrix of '%s' is singular (basis vectors are "
                   "dependent?)",
                   b->name);
        free(Mr), free(Kr), free(Cr), free(minv), free(minv_k), free(minv_c);
        return -1;
    }
    b->mr = Mr;
    b->kr = Kr;
    b->cr = Cr;
    b->minv = minv;
    b->minv_k = minv_k;
    b->minv_c = minv_c;
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
            return 0; /* sema_bind_args reports it */
        arg[k] = a->kind == AST_ARG ? a->kids[0] : a;
    }
    ex_id e[2];
    for (int k = 0; k < 2; k++) {
        e[k] = ex_const(sema_pool(S), 0);
        if (!arg[k])
            continue;
        char what[64];
        snprintf(what, sizeof what, "'%s' of 'rayleigh'", names[k]);
        sval v = sema_num_dim(S, sema_global(S), arg[k], *dims[k], what);
        if (v.k != V_NUM)
            return 1;
        if (sema_is_dynamic(S, v.e) && !sema_is_time_only(S, v.e)) {
            diag_error(sema_dc(S), arg[k]->loc, "%s may use time and parameters, not states", what);
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

/* A frame that accelerates (a_x, a_y) loads every mass point with -m a:
 * the generalized forces -(Phi^T M t_x) a_x - (Phi^T M t_y) a_y, t_x, t_y
 * the unit translations (red_frame_load; the mesh's DOFs are global:
 * `angle` rotated it). */
static void frame_inertia(sema *S, subst *b)
{
    ex_pool *P = sema_pool(S);
    red_basis basis = {b->ndof, b->r, b->phi};
    double *gt = xmalloc((size_t)b->r * sizeof *gt);
    char err[512] = "";
    for (int c = 0; c < 2; c++) {
        if (b->frame[c] < 0)
            continue;
        if (red_frame_load(b->fe, &basis, c == 0 ? FE_UX : FE_UY, gt, err, sizeof err)) {
            diag_error(sema_dc(S), b->decl->loc, "%s", err);
            break;
        }
        ex_id acc = ex_diff(P, ex_diff(P, b->frame[c], EX_T, 0), EX_T, 0);
        for (int k = 0; k < b->r; k++)
            if (gt[k] != 0)
                b->g[k] = ex_op2(P, EX_SUB, b->g[k], ex_op2(P, EX_MUL, ex_const(P, gt[k]), acc));
    }
    free(gt);
}

/* The mass matrix and the nodes' ux, uy DOFs before the fixes: a flexible
 * body's fixed nodes move with its frame and count in its inertia. */
static void keep_unfixed(subst *b)
{
    const fe_sparse *M = &b->fe->M;
    b->m0 = (fe_sparse){.n = M->n, .nnz = M->nnz};
    b->m0.colptr = xmalloc(((size_t)M->n + 1) * sizeof *M->colptr);
    b->m0.rowind = xmalloc(((size_t)M->nnz + 1) * sizeof *M->rowind);
    b->m0.val = xmalloc(((size_t)M->nnz + 1) * sizeof *M->val);
    memcpy(b->m0.colptr, M->colptr, ((size_t)M->n + 1) * sizeof *M->colptr);
    memcpy(b->m0.rowind, M->rowind, (size_t)M->nnz * sizeof *M->rowind);
    memcpy(b->m0.val, M->val, (size_t)M->nnz * sizeof *M->val);
    b->dof0 = xmalloc(FE_NDOF_NODE * ((size_t)b->fe->nnode + 1) * sizeof *b->dof0);
    for (int p = 0; p < b->fe->nnode; p++)
        for (int c = 0; c < FE_NDOF_NODE; c++)
            b->dof0[FE_NDOF_NODE * p + c] = b->fe->node[p].dof[c];
}

/* Declare substructure s: build, constrain, damp, reduce; create its states. */
void sema_declare_sub(sema *S, sym *s)
{
    const ast *d = s->decl;
    int nargs = 0;
    while (nargs < d->nkids && d->kids[nargs]->kind != AST_SETTING)
        nargs++;
    s->inst = xcalloc(1, sizeof *s->inst);
    s->inst[0] = sema_add_sub(S, &(subst){.name = xstrdup(d->name),
                                          .decl = d,
                                          .q0 = -1,
                                          .zeta = -1,
                                          .frame = {-1, -1},
                                          .ray = {-1, -1}});
    subst *b = sema_sub(S, s->inst[0]);
    b->fe = xcalloc(1, sizeof *b->fe);
    s->ninst = 1;
    if (build_fe(S, d, nargs, b->fe) != 0)
        return;
    const ast *reduce_e = NULL, *mean_axes = NULL;
    char err[512] = "";
    /* angle = ..: the mesh is rotated first, so that fix = SET.ux is global */
    for (int i = nargs; i < d->nkids; i++) {
        const ast *st = d->kids[i];
        if (strcmp(st->name, "angle") != 0)
            continue;
        if (!strcmp(d->str, "beam3d")) {
            diag_error(sema_dc(S), st->loc, "'angle' turns planar meshes; a beam3d lies along x");
            return;
        }
        double ang;
        sval v =
            sema_num_dim(S, sema_consts(S), st->kids[0], units_none, "'angle' of a substructure");
        if (v.k != V_NUM || !ex_is_const(sema_pool(S), v.e, &ang)) {
            if (v.k == V_NUM)
                diag_error(sema_dc(S), st->kids[0]->loc,
                           "'angle' of a substructure must be a "
                           "compile-time constant");
            return;
        }
        if (fe_rotate(b->fe, ang, err, sizeof err)) {
            diag_error(sema_dc(S), st->loc, "%s", err);
            return;
        }
    }
    /* point_mass = (SET, m): before damping and the reduction, which use M */
    for (int i = nargs; i < d->nkids; i++) {
        const ast *st = d->kids[i], *e = st->kids[0];
        if (strcmp(st->name, "point_mass") != 0)
            continue;
        int set = e->kind == AST_TUPLE && e->nkids == 2 && e->kids[0]->kind == AST_NAME
                  ? fe_find_set(b->fe, e->kids[0]->name) : -2;
        if (set < 0) {
            diag_error(sema_dc(S), e->loc,
                       set == -2 ? "expected point_mass = (SET, mass), a mass at "
                                   "every node of a node set"
                                 : "'%s' has no node set '%s'",
                       b->name, set == -2 ? "" : e->kids[0]->name);
            return;
        }
        double mass;
        sval v =
            sema_num_dim(S, sema_consts(S), e->kids[1], (jnt_dim){{6, 0, 0, 0, 0}}, "a point mass");
        if (v.k != V_NUM || !ex_is_const(sema_pool(S), v.e, &mass)) {
            if (v.k == V_NUM)
                diag_error(sema_dc(S), e->kids[1]->loc,
                           "a point mass must be a compile-time "
                           "constant");
            return;
        }
        if (fe_add_point_mass(b->fe, set, mass, err, sizeof err)) {
            diag_error(sema_dc(S), st->loc, "%s", err);
            return;
        }
    }
    for (int i = nargs; i < d->nkids && !b->dof0; i++)
        if (!strcmp(d->kids[i]->name, "fix"))
            keep_unfixed(b);
    for (int i = nargs; i < d->nkids; i++) {
        const ast *st = d->kids[i];
        if (!strcmp(st->name, "fix") && st->kids[0]->kind == AST_MEMBER &&
            st->kids[0]->kids[0]->kind == AST_NAME) {
            /* fix = SET.ux: one component of the nodes of a set */
            const ast *e = st->kids[0];
            int set = fe_find_set(b->fe, e->kids[0]->name), comp = sema_sub_comp(e->name);
            if (set < 0 || comp < 0) {
                diag_error(sema_dc(S), e->loc,
                           set < 0 ? "'%s' has no node set '%s'"
                                   : "a node has components ux, uy, uz, rx, ry, rz, "
                                     "not '%s'",
                           set < 0 ? b->name : e->name, e->kids[0]->name);
                return;
            }
            if (fe_fix_comps(b->fe, set, 1u << comp, err, sizeof err)) {
                diag_error(sema_dc(S), st->loc, "%s", err);
                return;
            }
        } else if (!strcmp(st->name, "fix")) {
            int sets[32], n = sema_sub_sets(S, st->kids[0], b->fe, sets, 32);
            for (int k = 0; k < n; k++)
                if (fe_fix(b->fe, sets[k], err, sizeof err)) {
                    diag_error(sema_dc(S), st->loc, "%s", err);
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
                if (sema_bind_args(S, c, 0, c->nkids, modal, 1, "'modal'", v, NULL))
                    return;
                b->zeta = v[0];
                continue;
            }
            if (c->kind == AST_CALL && !strcmp(c->name, "rayleigh") && time_rayleigh(S, c, b))
                continue;
            if (c->kind != AST_CALL || strcmp(c->name, "rayleigh")) {
                diag_error(sema_dc(S), c->loc,
                           "expected damping = rayleigh(alpha = .. /s, beta = .. s) "
                           "or modal(zeta = ..)");
                return;
            }
            if (sema_bind_args(S, c, 0, c->nkids, rayleigh, 2, "'rayleigh'", v, NULL) ||
                fe_rayleigh(b->fe, v[0], v[1], err, sizeof err)) {
                if (err[0])
                    diag_error(sema_dc(S), st->loc, "%s", err);
                return;
            }
        } else if (!strcmp(st->name, "reduce")) {
            reduce_e = st->kids[0];
        } else if (!strcmp(st->name, "frame_x") || !strcmp(st->name, "frame_y")) {
            int k = st->name[6] == 'y';
            sval v = sema_num_dim(S, sema_global(S), st->kids[0], DIM_M, "a frame position");
            if (v.k != V_NUM)
                return;
            if (!sema_is_time_only(S, v.e)) {
                diag_error(sema_dc(S), st->kids[0]->loc,
                           "a frame position may use time and "
                           "parameters only, not states");
                return;
            }
            b->frame[k] = v.e;
        } else if (!strcmp(st->name, "frame")) {
            /* frame = mean_axes: the basis without rigid-body motion in the
             * mass inner product (a flexible2d body on the mean axes) */
            const ast *v = st->kids[0];
            if (v->kind != AST_NAME || strcmp(v->name, "mean_axes") != 0) {
                diag_error(sema_dc(S), v->loc,
                           "expected frame = mean_axes (a flexible2d body's frame "
                           "on the mean axes; fix a node set to attach it there)");
                return;
            }
            mean_axes = st;
        } else if (!strcmp(st->name, "angle") || !strcmp(st->name, "point_mass")) {
            continue; /* applied first, above */
        } else if (!strcmp(st->name, "x0") || !strcmp(st->name, "y0")) {
            int k = st->name[0] == 'x' ? 0 : 1;
            char what[64];
            snprintf(what, sizeof what, "'%s' of a substructure", st->name);
            sval v = sema_num_dim(S, sema_consts(S), st->kids[0], DIM_M, what);
            if (v.k != V_NUM || !ex_is_const(sema_pool(S), v.e, &b->place[k])) {
                if (v.k == V_NUM)
                    diag_error(sema_dc(S), st->kids[0]->loc, "%s must be a compile-time constant",
                               what);
                return;
            }
        } else {
            static const char *const known[] = {"fix", "damping", "reduce", "x0", "y0", "angle",
                                                "frame_x", "frame_y", "frame", "point_mass"};
            const char *best = jnt_closest_name(st->name, known, 10);
            diag_error(sema_dc(S), st->loc, "unknown setting '%s' of a substructure%s%s%s",
                       st->name,
                       best ? "; did you mean '"
                            : " (it has fix, damping, reduce, x0, y0, angle, frame_x, frame_y, "
                              "frame, point_mass)",
                       best ? best : "", best ? "'?" : "");
            return;
        }
    }
    /* the basis: the reduction, or every DOF (no reduction) */
    red_basis basis = {0};
    int n = b->fe->ndof;
    /* reduce = none: unreduced and kept sparse at any size (a flexible2d
     * body's, kinds/flexible.c), as every substructure beyond JNT_MAX_BLOCK */
    int none = reduce_e && reduce_e->kind == AST_NAME && !strcmp(reduce_e->name, "none");
    if (reduce_e && !none) {
        if (sema_sub_basis(S, reduce_e, b->fe, &basis)) {
            red_basis_free(&basis);
            return;
        }
        /* a sum with joint trial vectors or static shapes: mode-shape
         * orthogonalisation (seed 000 eqs. 10-11) removes rigid-body content
         * and dependent columns */
        if (reduce_e->kind == AST_BINARY && red_orthogonalize(b->fe, &basis, 1e-10, err, sizeof err)) {
            diag_error(sema_dc(S), reduce_e->loc, "%s", err);
            red_basis_free(&basis);
            return;
        }
    } else if (n > JNT_MAX_SPARSE) { /* before the n x n identity */
        diag_error(sema_dc(S), d->loc,
                   "'%s' has %d DOFs unreduced; at most %d generalized "
                   "coordinates are supported (give it 'reduce = ...')",
                   b->name, n, JNT_MAX_SPARSE);
        return;
    } else {
        /* beyond JNT_MAX_BLOCK only a flexible2d body's, kept sparse
         * (kinds/flexible.c): the identity is read by rows only (calloc's pages
         * stay unmapped but for its diagonal) */
        b->sparse = none || n > JNT_MAX_BLOCK;
        basis.n = basis.r = n;
        basis.phi = xcalloc((size_t)n * n + 1, sizeof(double));
        for (int i = 0; i < n; i++)
            basis.phi[(size_t)i * n + i] = 1;
    }
    if (b->sparse && (mean_axes || b->zeta >= 0)) {
        diag_error(sema_dc(S), d->loc,
                   "'%s' has %d DOFs unreduced: %s needs a reduced basis "
                   "(give it 'reduce = ...')",
                   b->name, n, mean_axes ? "frame = mean_axes" : "damping = modal(...)");
        red_basis_free(&basis);
        return;
    }
    if (mean_axes && (b->dof0 || red_mean_axes(b->fe, &basis, err, sizeof err))) {
        diag_error(sema_dc(S), mean_axes->loc, "%s",
                   b->dof0 ? "frame = mean_axes needs a free "
                             "substructure (no 'fix')"
                           : err);
        red_basis_free(&basis);
        return;
    }
    if (basis.r < 1 || basis.r > (b->sparse ? JNT_MAX_SPARSE : JNT_MAX_BLOCK)) {
        diag_error(sema_dc(S), d->loc,
                   "'%s' has %d generalized coordinates; between 1 and %d are "
                   "supported (reduce it)",
                   b->name, basis.r, JNT_MAX_BLOCK);
        red_basis_free(&basis);
        return;
    }
    if (!b->sparse && reduce(S, d, b, &basis)) {
        red_basis_free(&basis);
        return;
    }
    b->ndof = n;
    b->r = basis.r;
    b->phi = basis.phi;
    /* states: q_k then their velocities */
    for (int k = 0; k < b->r; k++) {
        int yi = ir_add(&sema_ir(S)->y, xasprintf("%s.q%d", b->name, k + 1),
                        ex_const(sema_pool(S), 0), ex_const(sema_pool(S), 0), units_none, d->loc);
        if (k == 0)
            b->q0 = yi;
    }
    for (int k = 0; k < b->r; k++)
        ir_add(&sema_ir(S)->y, xasprintf("%s.qd%d", b->name, k + 1), -1, ex_const(sema_pool(S), 0),
               units_none, d->loc);
    b->g = xmalloc((size_t)b->r * sizeof *b->g);
    for (int k = 0; k < b->r; k++)
        b->g[k] = ex_const(sema_pool(S), 0);
    if (b->frame[0] >= 0 || b->frame[1] >= 0)
        frame_inertia(S, b);
}

/* See substructure.h. */
void sema_sub_free(sema *S)
{
    for (int s = 0; s < sema_nsub(S); s++) {
        subst *b = sema_sub(S, s);
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
        free(b->ffrf);
        fe_sparse_free(&b->m0);
        free(b->dof0);
    }
}

/* sema_kind.dof_accel: a substructure point's (sema_sub_accel). */
static int sub_dof_accel(sema *S, int di, int skip, ex_id *a0, ex_id *alpha)
{
    return sema_dof(S, di)->sub < 0 ? 1 : sema_sub_accel(S, di, skip, a0, alpha);
}

/* sema_kind.point_accel: a substructure point's (sema_sub_point_accel). */
static int sub_point_accel(sema *S, int di, sval *out)
{
    if (sema_dof(S, di)->sub < 0)
        return 1;
    *out = sema_sub_point_accel(S, di);
    return 0;
}

const sema_kind sema_kind_substructure = {
    .name = "substructure",
    .sym = SYM_SUB,
    .pass = 1,
    .declare = sema_declare_sub,
    .vk = {V_SUB, V_SUBSET, V_SUBNODE},
    .nvk = 3,
    .member = sema_sub_member,
    .index = sema_sub_index,
    .assemble = sema_sub_assemble,
    .dof_accel = sub_dof_accel,
    .point_accel = sub_point_accel,
    .gather = sema_sub_gather,
    .release = sema_sub_free,
};
