/*
 * flexible.c: flexible2d bodies. `body NAME : flexible2d(substructure = S)`
 * is a floating frame of reference (seed 000 eqs. 12-15) with the
 * coordinates x, y, angle of its frame and the elastic coordinates q_f of
 * the reduced substructure S: a node at u0 in the frame moves to
 *   r = (x, y) + A(angle) (u0 + Phi_node q_f).
 * The frame is where S's mesh has its origin; a basis computed with a
 * node set fixed (`fix = clamp`) attaches the frame to that set. Its
 * markers are frame points (`marker A = (x, y)`) or nodes (`marker P = SET`,
 * a set of one node), whose position uses the node's gathered elastic
 * displacement. The inertia invariants come from the setup library
 * (red_ffrf) at compile time; the runtime adds the mass matrix, the
 * quadratic-velocity, elastic, damping and gravity forces (core/flex.c).
 * Elements between points of S act on q_f in the frame, as they do on a
 * substructure today.
 */
#include <stdlib.h>
#include <string.h>

#include "jnt/setup.h"
#include "sema/core.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};

/* Pass 2: the frame's dofs x, y, angle of flexible2d body b. */
static void sema_declare_flexible2d(sema *S, body *b)
{
    const ast *d = b->decl;
    sema_set_multibody(S, 0);
    b->rigid = 1;
    b->flex = 1;
    b->sub = -1;
    sema_mb_add_dof(S, b, "x", DIM_M, d->loc);
    sema_mb_add_dof(S, b, "y", DIM_M, d->loc);
    sema_mb_add_dof(S, b, "angle", units_none, d->loc);
    b->ndof = 3;
    for (int j = 0; j < d->nkids; j++)
        if (d->kids[j]->kind == AST_DOF)
            diag_error(sema_dc(S), d->kids[j]->loc,
                       "a flexible2d body has the coordinates x, y and "
                       "angle of its frame; declare points of it with "
                       "'marker NAME = (x, y)' or 'marker NAME = SET'");
}

/* The substructure named by b's argument: its index, or -1 after an error. */
static int flex_sub(sema *S, const body *b)
{
    const ast *d = b->decl, *e = NULL;
    for (int j = 0; j < d->nkids; j++) {
        const ast *a = d->kids[j];
        if (a->kind == AST_DOF || a->kind == AST_MARKER)
            continue;
        if (b->rigid3 && a->kind == AST_ARG && strcmp(a->name, "substructure") != 0)
            continue; /* rotation, omega: kinds/rigid3d.c's */
        if ((a->kind == AST_ARG && strcmp(a->name, "substructure") != 0) || e) {
            diag_error(sema_dc(S), a->loc, "'flexible2d' takes one argument, 'substructure'");
            return -1;
        }
        e = a->kind == AST_ARG ? a->kids[0] : a;
    }
    if (!e) {
        diag_error(sema_dc(S), d->loc, "'%s' needs its substructure: %s(substructure = NAME)",
                   d->str, d->str);
        return -1;
    }
    sym *s = e->kind == AST_NAME ? sema_find(S, e->name) : NULL;
    if (!s || s->kind != SYM_SUB || s->ninst < 1) {
        diag_error(sema_dc(S), e->loc, "'substructure' of a %s body names a substructure", d->str);
        return -1;
    }
    int si = s->inst[0];
    subst *sb = sema_sub(S, si);
    if (!sb->phi)
        return -1; /* its declaration said why */
    int other = sema_flex_of_sub(S, si);
    if (other >= 0) {
        diag_error(sema_dc(S), e->loc, "substructure '%s' is already the body '%s'", sb->name,
                   sema_body(S, other)->name);
        return -1;
    }
    if (sb->frame[0] >= 0 || sb->frame[1] >= 0 || sb->ray[0] >= 0) {
        diag_error(sema_dc(S), e->loc,
                   "substructure '%s' of a flexible2d body moves with the body: "
                   "it takes no frame_x, frame_y or time-varying damping",
                   sb->name);
        return -1;
    }
    return si;
}

/* An unreduced sb beyond JNT_MAX_BLOCK: the sparse invariants of a
 * flexible2d body (red_ffrf_sparse; M, K, C included, a fix required so
 * that the identity basis holds no rigid-body motion). 0, or -1 after an
 * error. */
static int sparse_invariants(sema *S, const body *b, subst *sb)
{
    if (b->rigid3 || !sb->dof0) {
        diag_error(sema_dc(S), b->decl->loc,
                   "%s body '%s': substructure '%s' is unreduced and "
                   "sparse (%d DOFs: 'reduce = none', or beyond %d); only "
                   "a flexible2d body whose substructure has 'fix' may "
                   "take it (else reduce it)",
                   b->decl->str, b->name, sb->name, sb->r, JNT_MAX_BLOCK);
        return -1;
    }
    long size = red_ffrf_sparse_size(sb->fe);
    if (size < 0) {
        diag_error(sema_dc(S), b->decl->loc, "flexible2d body '%s': out of memory", b->name);
        return -1;
    }
    double *inv = xcalloc((size_t)size + 1, sizeof *inv);
    char err[512] = "";
    if (red_ffrf_sparse(sb->fe, &sb->m0, sb->dof0, inv, err, sizeof err) != 0) {
        diag_error(sema_dc(S), b->decl->loc, "%s body '%s': %s", b->decl->str, b->name, err);
        free(inv);
        return -1;
    }
    sb->ffrf = inv;
    sb->nffrf = size;
    return 0;
}

/* The invariants of sb (red_ffrf, red_ffrf3d for a flexible3d), then Kr
 * and Cr: 0, or -1 after an error. */
static int invariants(sema *S, const body *b, subst *sb)
{
    int r = sb->r, d3 = b->rigid3;
    size_t rr = (size_t)r * r;
    if (d3 && r > JNT_FLEX3_MAX_R) {
        diag_error(sema_dc(S), b->decl->loc,
                   "flexible3d body '%s': %d elastic coordinates, more than "
                   "the runtime's %d; reduce '%s' further",
                   b->name, r, JNT_FLEX3_MAX_R, sb->name);
        return -1;
    }
    if (sb->sparse) /* unreduced beyond JNT_MAX_BLOCK: sparse invariants */
        return sparse_invariants(S, b, sb);
    long size = d3 ? JNT_FFRF3_SIZE(r) : JNT_FFRF_SIZE(r);
    red_basis basis = {sb->ndof, r, sb->phi};
    double *inv = xcalloc((size_t)size + 1, sizeof *inv);
    char err[512] = "";
    const fe_sparse *m0 = sb->dof0 ? &sb->m0 : NULL;
    if ((d3 ? red_ffrf3d(sb->fe, &basis, m0, sb->dof0, inv, err, sizeof err)
            : red_ffrf(sb->fe, &basis, m0, sb->dof0, inv, err, sizeof err)) != 0) {
        diag_error(sema_dc(S), b->decl->loc, "%s body '%s': %s", b->decl->str, b->name, err);
        free(inv);
        return -1;
    }
    double *kr = inv + size - 2 * (long)rr;
    memcpy(kr, sb->kr, rr * sizeof *kr);
    if (sb->cr)
        memcpy(kr + rr, sb->cr, rr * sizeof *kr);
    sb->ffrf = inv;
    return 0;
}

/* A marker's name that is neither a node set of sb nor anything else: the
 * sets to choose from. 1 when so (reported), else 0. */
static int unknown_set(sema *S, const subst *sb, const ast *e)
{
    if (e->kind != AST_NAME || sema_find(S, e->name))
        return 0;
    const char **names = xmalloc(((size_t)sb->fe->nset + 1) * sizeof *names);
    for (int k = 0; k < sb->fe->nset; k++)
        names[k] = sb->fe->set[k].name;
    const char *best = jnt_closest_name(e->name, names, sb->fe->nset);
    diag_error(sema_dc(S), e->loc, "'%s' has no node set '%s'%s%s%s", sb->name, e->name,
               best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    free(names);
    return 1;
}

/* The place of the single node of set `set` of substructure si in the frame
 * plus its elastic displacement (gathered), n components, into X, and its
 * elastic rotation and rate into rot[0..5] (0 where the element type has
 * none): 1, or -1 after an error (a set of several nodes). */
static int node_place(sema *S, int si, int set, const ast *e, int n, ex_id *X, ex_id *rot)
{
    ex_pool *P = sema_pool(S);
    const subst *sb = sema_sub(S, si);
    const fe_set *st = &sb->fe->set[set];
    if (st->n != 1) {
        diag_error(sema_dc(S), e->loc,
                   "a marker on a node needs a set of one node; '%s' of '%s' has "
                   "%d",
                   e->name, sb->name, st->n);
        return -1;
    }
    const fe_node *nd = &sb->fe->node[st->node[0]];
    for (int k = 0; k < n; k++) {
        X[k] = ex_const(P, nd->x[k]);
        if (nd->dof[FE_UX + k] < 0) /* fixed: it moves with the frame */
            continue;
        int di = sema_sub_node_dof(S, si, st->node[0], FE_UX + k, e->loc);
        if (di < 0)
            return -1;
        X[k] = ex_op2(P, EX_ADD, X[k], sema_dof(S, di)->pos);
    }
    /* its rotation: rx, ry, rz in space, rz in the plane, where the element
     * type has them (0 where fixed) */
    for (int k = n == 3 ? 0 : 2; k < 3; k++) {
        rot[k] = rot[3 + k] = ex_const(P, 0);
        if (nd->dof[FE_RX + k] < 0)
            continue;
        int di = sema_sub_node_dof(S, si, st->node[0], FE_RX + k, e->loc);
        if (di < 0)
            return -1;
        rot[k] = sema_dof(S, di)->pos;
        rot[3 + k] = sema_dof(S, di)->vel;
    }
    return 1;
}

/* The place in its body's frame of a marker `e` of flexible body b on
 * substructure si, n components into X: a node (a set of one node; its
 * elastic displacement gathered, and its rotation and rate into rot[0..5])
 * or a frame point, a pair or a triple of parameters. 1 for a node, 0 for a
 * frame point, -1 after an error. */
static int marker_place(sema *S, const body *b, int si, const ast *e, int n, ex_id *X,
                        ex_id *rot)
{
    const subst *sb = sema_sub(S, si);
    int set = e->kind == AST_NAME ? fe_find_set(sb->fe, e->name) : -1;
    if (set >= 0)
        return node_place(S, si, set, e, n, X, rot);
    if (unknown_set(S, sb, e))
        return -1;
    static const char what[] = "a marker's position in its body's frame (or a node set of one "
                               "node)";
    scope isc = {.up = sema_global(S), .iname = b->iname, .ival = b->ival};
    const scope *sc = b->iname ? &isc : sema_global(S);
    if (n == 3)
        return sema_mb_triple(S, sc, e, DIM_M, what, X);
    if (sema_mb_pair(S, sc, e, DIM_M, what, X) != 0)
        return -1;
    if (sema_is_dynamic(S, X[0]) || sema_is_dynamic(S, X[1])) {
        diag_error(sema_dc(S), e->loc, "a marker's position in its body may use parameters only");
        return -1;
    }
    return 0;
}

/* Marker q of flexible body b on substructure si: (x, y) + A(angle) place,
 * or for a flexible3d x + sum_i c_i d_i with c the place. */
static void flex_marker(sema *S, body *b, int si, const ast *q)
{
    ex_pool *P = sema_pool(S);
    ex_id lxy[3], rot[6];
    int node = marker_place(S, b, si, q->kids[0], b->rigid3 ? 3 : 2, lxy, rot);
    if (node < 0)
        return;
    ex_set_loc(P, q->loc);
    if (b->rigid3) {
        sema_mb3d_marker(S, b, q->name, lxy, node ? rot : NULL);
        return;
    }
    const dof *fr = sema_dof(S, b->dof0);
    ex_id x = fr[0].pos, y = fr[1].pos, th = fr[2].pos;
    ex_id c = ex_op1(P, EX_COS, th), s = ex_op1(P, EX_SIN, th);
    marker m = {
        .name = xasprintf("%s.%s", b->name, q->name),
        .short_name = q->name,
        .body = sema_body_id(S, b),
        .angle = th,
        .px = ex_op2(P, EX_ADD, x,
                     ex_op2(P, EX_SUB, ex_op2(P, EX_MUL, c, lxy[0]), ex_op2(P, EX_MUL, s, lxy[1]))),
        .py = ex_op2(P, EX_ADD, y,
                     ex_op2(P, EX_ADD, ex_op2(P, EX_MUL, s, lxy[0]), ex_op2(P, EX_MUL, c, lxy[1]))),
        .rot_on = node};
    if (node) { /* it turns with its node */
        m.angle = ex_op2(P, EX_ADD, th, rot[2]);
        m.rot[2] = rot[2], m.rotv[2] = rot[5];
    }
    sema_mb_add_marker(S, m);
}

/* A substructure left sparse (unreduced beyond JNT_MAX_BLOCK) that no
 * flexible2d body took: the located error of the dense limit; one that a
 * flexible2d body took in a model with flexible3d bodies (the runtime's
 * sparse path, core/flex.c, forms 2D bodies only). */
static void sparse_unbound(sema *S)
{
    int b3 = -1;
    for (int i = 0; i < sema_nbody(S); i++)
        b3 = sema_body(S, i)->flex && sema_body(S, i)->rigid3 ? i : b3;
    for (int s = 0; s < sema_nsub(S); s++) {
        const subst *sb = sema_sub(S, s);
        if (sb->phi && sb->sparse && b3 >= 0 && sema_flex_of_sub(S, s) >= 0)
            diag_error(sema_dc(S), sb->decl->loc,
                       "'%s' is unreduced and sparse (%d DOFs): a model "
                       "with flexible3d bodies ('%s') takes reduced "
                       "flexible2d bodies only (give it 'reduce = ...')",
                       sb->name, sb->r, sema_body(S, b3)->name);
        if (sb->phi && sb->sparse && sema_flex_of_sub(S, s) < 0)
            diag_error(sema_dc(S), sb->decl->loc,
                       "'%s' is unreduced and sparse (%d DOFs: 'reduce "
                       "= none', or beyond %d): only a flexible2d body may "
                       "take it (else give it 'reduce = ...')",
                       sb->name, sb->r, JNT_MAX_BLOCK);
    }
}

/* Pass 2: the frame's dofs x, y, angle of flexible2d body b. */
/* After the substructures: each flexible body's substructure, its
 * invariants and its markers. */
static void sema_flex_bind(sema *S)
{
    for (int i = 0; i < sema_nbody(S); i++) {
        body *b = sema_body(S, i);
        if (!b->flex)
            continue;
        int si = flex_sub(S, b);
        if (si < 0 || invariants(S, b, sema_sub(S, si)) != 0)
            continue;
        b->sub = si;
        const ast *d = b->decl;
        for (int j = 0; j < d->nkids; j++) {
            const ast *q = d->kids[j];
            if (q->kind != AST_MARKER)
                continue;
            int dup = 0;
            for (int k = 0; k < sema_nmarker(S); k++)
                dup |=
                    sema_marker(S, k)->body == i && !strcmp(sema_marker(S, k)->short_name, q->name);
            if (dup)
                diag_error(sema_dc(S), q->loc, "marker '%s' is declared twice", q->name);
            else
                flex_marker(S, b, si, q);
        }
    }
    sparse_unbound(S);
}

/* An element on a point of a flexible body's substructure
 * acts in the body's frame on its elastic coordinates only, which is right
 * for a pair of points of the same body (self-equilibrated: contact and
 * friction between its layers), not for a force from outside. */
static void sema_flex_check_elems(sema *S)
{
    for (int i = 0; i < sema_nelem(S); i++) {
        const elem *el = sema_elem(S, i);
        int a = el->a >= 0 ? sema_dof(S, el->a)->sub : -1;
        int b = el->kind == ELEM_FORCEDEF || el->b < 0 ? -1 : sema_dof(S, el->b)->sub;
        int fa = a >= 0 ? sema_flex_of_sub(S, a) : -1, fb = b >= 0 ? sema_flex_of_sub(S, b) : -1;
        if ((fa >= 0 || fb >= 0) && (a != b || el->kind == ELEM_FORCEDEF))
            diag_error(sema_dc(S), el->decl->loc,
                       "'%s' acts on a point of flexible body '%s' from "
                       "outside it: attach it to a marker of the body "
                       "(marker NAME = SET); points of its substructure "
                       "take forces between two of them only",
                       el->name, sema_body(S, fa >= 0 ? fa : fb)->name);
    }
}

const sema_kind sema_kind_flexible2d = {
    .name = "flexible2d",
    .declare_body = sema_declare_flexible2d,
    .bind = sema_flex_bind,
    .mb_check = sema_flex_check_elems,
    .weighs = 1,
};
