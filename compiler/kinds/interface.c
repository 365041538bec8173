/*
 * interface.c: `interface NAME between A.NODES and B.SURFACE : sliding {
 * friction = coulomb(mu = ..) | LAW(..)  coupling = dual(assumption = ..) | film }`,
 * a 2D node-to-segment sliding interface between two substructures (seed
 * 003), integrated by the runtime (runtime/couple/iface_slide.c on slide.h).
 * Here: the nodes' reference coordinates in the plane of the interface
 * (each substructure placed by its x0, y0, angle settings) and the rows of
 * their displacements in the substructures' generalized coordinates; and,
 * once the model is built, what a model with interfaces may hold (its
 * integrator, its states).
 */
#include <stdlib.h>
#include <string.h>

#include "jnt/setup.h"
#include "sema/core.h"
#include "front/alloc.h"

/* Per slave node: the discrete states the runtime writes after each step. */
static const char *const contact_names[] = {"normal", "friction", "x", "y", "v_slip", "state"};
static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};
static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_MS = {{0, 6, -6, 0, 0}};

/* The linear block of substructure si: its index among the reduced ones. */
static int block_of(const sema *S, int si)
{
    int k = 0;
    for (int s = 0; s < si; s++)
        k += sema_sub(S, s)->phi != NULL;
    return k;
}

/* The nodes of one side: a node set or a single node of a substructure.
 * Writes their count, substructure and node indices; 0 or -1. */
static int side_nodes(sema *S, const ast *e, const char *what, int *si, const int **nodes, int *n,
                      int *one)
{
    sval v = sema_eval(S, sema_global(S), e);
    if (v.k == V_ERR)
        return -1;
    if (v.k == V_SUBSET) {
        const fe_set *set = &sema_sub(S, v.id)->fe->set[v.aux];
        *si = v.id, *nodes = set->node, *n = set->n;
        return 0;
    }
    if (v.k == V_SUBNODE) {
        *one = v.aux;
        *si = v.id, *nodes = one, *n = 1;
        return 0;
    }
    diag_error(sema_dc(S), e->loc,
               "the %s of an interface is a node set of a substructure (like "
               "'beam.top'), but this is %s",
               what, sema_kind_name(S, v));
    return -1;
}

/* Coordinates and rows of nodes[0..n) of substructure si, appended. */
static int add_nodes(sema *S, const ast *at, int si, const int *nodes, int n, double *x,
                     double **rows, size_t *nrows)
{
    const subst *b = sema_sub(S, si);
    red_basis basis = {b->ndof, b->r, b->phi};
    double origin[2] = {b->place[0], b->place[1]};
    char err[256];
    for (int k = 0; k < n; k++) {
        *rows = xrealloc(*rows, (*nrows + 2 * (size_t)b->r) * sizeof **rows);
        if (red_node_rows(b->fe, &basis, nodes[k], 0, origin, x + 2 * k, *rows + *nrows, err,
                          sizeof err) != 0) {
            diag_error(sema_dc(S), at->loc, "%s", err);
            return -1;
        }
        *nrows += 2 * (size_t)b->r;
    }
    return 0;
}

/* friction = coulomb(mu = expr), expr of parameters and time, or any
 * stateless friction law LAW(...) of the slip velocity: the coefficient as an
 * expression of p, t and the speed in d[vslot] (the first slave's v_slip,
 * which the runtime sets to the speed asked for, docs/interfaces.md). */
static ex_id friction_mu(sema *S, const ast *e, const char *name, int vslot)
{
    sval v = sval_err;
    if (e->kind == AST_CALL && !strcmp(e->name, "coulomb") && !sema_find(S, "coulomb")) {
        const ast *mu = e->nkids != 1 ? NULL
                      : e->kids[0]->kind != AST_ARG ? e->kids[0]
                      : !strcmp(e->kids[0]->name, "mu") ? e->kids[0]->kids[0] : NULL;
        if (!mu) {
            diag_error(sema_dc(S), e->loc, "expected friction = coulomb(mu = ...)");
            return -1;
        }
        v = sema_num_dim(S, sema_global(S), mu, units_none, "the friction coefficient");
    } else if (e->kind == AST_CALL || e->kind == AST_NAME) {
        v = sema_friction_coef(S, sema_global(S), name, e,
                               sval_num(ex_var(sema_pool(S), EX_D, vslot), DIM_MS));
    } else {
        diag_error(sema_dc(S), e->loc, "expected friction = coulomb(mu = ...) or a friction law");
        return -1;
    }
    if (v.k != V_NUM)
        return -1;
    int bad = ex_depends(sema_pool(S), v.e, EX_Y, -1) || ex_depends(sema_pool(S), v.e, EX_UP, -1) ||
              ex_depends(sema_pool(S), v.e, EX_UV, -1);
    for (int i = 0; i < sema_ir(S)->d.n && !bad; i++)
        bad = i != vslot && ex_depends(sema_pool(S), v.e, EX_D, i);
    if (bad) {
        diag_error(sema_dc(S), e->loc,
                   "the friction coefficient of an interface may use parameters, "
                   "time and the slip velocity only, not states");
        return -1;
    }
    return v.e;
}

/* coupling = dual(assumption = basic|realistic|simplified) | dual | film. */
static int coupling(sema *S, const ast *e)
{
    static const char *const as[] = {"basic", "realistic", "simplified"};
    if (e->kind == AST_NAME && !strcmp(e->name, "film"))
        return JNT_IFACE_FILM;
    if (e->kind == AST_NAME && !strcmp(e->name, "dual"))
        return JNT_IFACE_REALISTIC;
    if (e->kind == AST_CALL && !strcmp(e->name, "dual") && e->nkids == 1) {
        const ast *a = e->kids[0]->kind == AST_ARG && !strcmp(e->kids[0]->name, "assumption")
                           ? e->kids[0]->kids[0] : e->kids[0];
        for (int k = 0; a->kind == AST_NAME && k < 3; k++)
            if (!strcmp(a->name, as[k]))
                return JNT_IFACE_BASIC + k;
        diag_error(sema_dc(S), a->loc,
                   "the assumption of a dual coupling is basic, realistic or "
                   "simplified");
        return -1;
    }
    diag_error(sema_dc(S), e->loc,
               "expected coupling = dual(assumption = basic|realistic|simplified) "
               "or film");
    return -1;
}

/* Pass 2: `interface NAME between A and B : sliding { ... }`. */
static void sema_declare_iface(sema *S, sym *s)
{
    const ast *d = s->decl;
    s->done = 1;
    if (strcmp(d->str, "sliding") != 0) {
        diag_error(sema_dc(S), d->loc, "unknown interface type '%s' (this version has 'sliding')",
                   d->str);
        return;
    }
    const ast *fr = NULL, *cp = NULL;
    int err = 0;
    for (int i = 2; i < d->nkids; i++) {
        const ast *st = d->kids[i];
        if (!strcmp(st->name, "friction") && !fr) {
            fr = st->kids[0];
        } else if (!strcmp(st->name, "coupling") && !cp) {
            cp = st->kids[0];
        } else {
            static const char *const known[] = {"friction", "coupling"};
            const char *best = jnt_closest_name(st->name, known, 2);
            diag_error(sema_dc(S), st->loc,
                       fr && !strcmp(st->name, "friction") ? "'%s' is set twice%s%s%s"
                       : cp && !strcmp(st->name, "coupling")
                           ? "'%s' is set twice%s%s%s"
                           : "unknown setting '%s' of an interface%s%s%s",
                       st->name, best && strcmp(best, st->name) ? "; did you mean '" : "",
                       best && strcmp(best, st->name) ? best : "",
                       best && strcmp(best, st->name) ? "'?" : "");
            err = 1;
        }
    }
    if (!fr) {
        diag_error(sema_dc(S), d->loc,
                   "an interface needs friction = coulomb(mu = ...) or a "
                   "friction law");
        err = 1;
    }
    int sa, sb, one_a, one_b, na, nb;
    const int *nodes_a, *nodes_b;
    if (side_nodes(S, d->kids[0], "slave side", &sa, &nodes_a, &na, &one_a) ||
        side_nodes(S, d->kids[1], "master surface", &sb, &nodes_b, &nb, &one_b) || err)
        return;
    if (sa == sb) {
        diag_error(sema_dc(S), d->loc,
                   "an interface joins two substructures, but both sides are in "
                   "'%s'",
                   sema_sub(S, sa)->name);
        return;
    }
    if (nb < 2) {
        diag_error(sema_dc(S), d->kids[1]->loc,
                   "the master surface needs 2 nodes or more (one "
                   "segment), not %d",
                   nb);
        return;
    }
    if (!sema_sub(S, sa)->phi || !sema_sub(S, sb)->phi)
        return; /* the substructure's errors were reported */
    int method = cp ? coupling(S, cp) : JNT_IFACE_REALISTIC;
    if (method < 0)
        return;
    ir_iface f = {.name = xstrdup(d->name),
                  .slave = block_of(S, sa),
                  .master = block_of(S, sb),
                  .nslave = na,
                  .nmaster = nb,
                  .method = method,
                  .d0 = sema_ir(S)->d.n};
    f.x = xmalloc(2 * ((size_t)na + nb) * sizeof *f.x);
    size_t nrows = 0;
    if (add_nodes(S, d->kids[0], sa, nodes_a, na, f.x, &f.rows, &nrows) ||
        add_nodes(S, d->kids[1], sb, nodes_b, nb, f.x + 2 * na, &f.rows, &nrows)) {
        free(f.name);
        free(f.x);
        free(f.rows);
        return;
    }
    static const jnt_dim *const dims[] = {&DIM_N, &DIM_N, &DIM_M, &DIM_M, &DIM_MS, &units_none};
    for (int k = 0; k < na; k++)
        for (int j = 0; j < JNT_IFACE_NCONTACT; j++) {
            int i = ir_add(&sema_ir(S)->d,
                           na == 1 ? xasprintf("%s.%s", d->name, contact_names[j])
                                   : xasprintf("%s[%d].%s", d->name, k + 1, contact_names[j]),
                           -1, ex_const(sema_pool(S), 0), *dims[j], d->loc);
            sema_ir(S)->d.v[i].rhs = ex_var(sema_pool(S), EX_D, i); /* the runtime writes it */
        }
    f.mu = friction_mu(S, fr, d->name, f.d0 + 4);
    if (f.mu < 0) {
        free(f.name);
        free(f.x);
        free(f.rows);
        return;
    }
    ir_model *m = sema_ir(S);
    m->ifaces = xrealloc(m->ifaces, (size_t)(m->nifaces + 1) * sizeof *m->ifaces);
    m->ifaces[m->nifaces] = f;
    s->inst = xcalloc(1, sizeof *s->inst);
    s->inst[0] = m->nifaces++;
    s->ninst = 1;
}

/* Normal and friction (summed over the slave nodes),
 * x, y, v_slip and state (of the first slave node). */
static int sema_iface_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out)
{
    int fi = base.id;
    const ir_iface *f = &sema_ir(S)->ifaces[fi];
    for (int j = 0; j < JNT_IFACE_NCONTACT; j++) {
        if (strcmp(name, contact_names[j]) != 0)
            continue;
        ex_id e = ex_var(sema_pool(S), EX_D, f->d0 + j);
        for (int k = 1; j < 2 && k < f->nslave; k++)
            e = ex_op2(sema_pool(S), EX_ADD, e,
                       ex_var(sema_pool(S), EX_D, f->d0 + k * JNT_IFACE_NCONTACT + j));
        *out = sval_num(e, sema_ir(S)->d.v[f->d0 + j].dim);
        return 0;
    }
    const char *best = jnt_closest_name(name, contact_names, JNT_IFACE_NCONTACT);
    diag_error(sema_dc(S), loc, "interface '%s' has no member '%s'%s%s%s", f->name, name,
               best ? "; did you mean '" : " (it has normal, friction, x, y, v_slip, state)",
               best ? best : "", best ? "'?" : "");
    return -1;
}

/* A model with sliding interfaces runs on seed 003's central
 * difference (runtime/couple/iface_slide.c): its states must all be
 * substructure coordinates. */
static void sema_iface_check(sema *S)
{
    ir_model *m = sema_ir(S);
    int central = m->integrator && !strcmp(m->integrator, "central");
    const ast *first = NULL;
    for (int i = 0; i < sema_nsym(S) && !first; i++)
        if (sema_sym(S, i)->kind == SYM_IFACE)
            first = sema_sym(S, i)->decl;
    for (int i = 0; i < sema_nsub(S) && !first && !diag_errors(sema_dc(S)); i++)
        if (sema_sub(S, i)->ray[0] >= 0) {
            diag_error(sema_dc(S), sema_sub(S, i)->decl->loc,
                       "'%s': a damping that varies in time needs a "
                       "model with sliding interfaces (the central "
                       "difference applies it)",
                       sema_sub(S, i)->name);
            return;
        }
    if (central && !first && !diag_errors(sema_dc(S))) {
        diag_error(sema_dc(S), m->y.n ? m->y.v[0].loc : loc_none,
                   "integrator 'central' integrates models with sliding interfaces, and this "
                   "model has none");
        return;
    }
    if (!first || diag_errors(sema_dc(S)))
        return;
    if (sema_have_sim(S) && !central) {
        diag_error(sema_dc(S), first->loc,
                   "a model with a sliding interface is integrated by "
                   "central(h = ...), the explicit central difference of "
                   "seed 003, not '%s'",
                   m->integrator);
        return;
    }
    for (int i = 0; i < m->y.n; i++) {
        int in_block = 0;
        for (int b = 0; b < m->nblocks; b++)
            in_block |= i >= m->blocks[b].q0 && i < m->blocks[b].q0 + 2 * m->blocks[b].r;
        if (!in_block) {
            diag_error(sema_dc(S), m->y.v[i].loc,
                       "a model with a sliding interface may only have "
                       "substructures as states, not '%s'",
                       m->y.v[i].name);
            diag_note(sema_dc(S), first->loc, "the interface is here");
            return;
        }
    }
}

const sema_kind sema_kind_interface = {
    .name = "interface",
    .sym = SYM_IFACE,
    .pass = 2,
    .declare = sema_declare_iface,
    .vk = {V_IFACE},
    .nvk = 1,
    .member = sema_iface_member,
    .check = sema_iface_check,
};
