/*
 * scene.c: what a model looks like (jnt/scene.h), from its semantic
 * analysis: the multibody bodies and their markers, the joints and their
 * multipliers, each substructure's finite-element mesh with its basis at the
 * nodes, and the contact and friction elements between mesh nodes (those
 * between markers: sema/scene_contacts.c). Built at the end of sema_lower
 * when the IR asks for it (ir_model.want_scene); the runtime's VTK writer
 * (runtime/io/vtk.c) draws it at every output row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "front/alloc.h"
#include "lower/expr.h"
#include "lower/expr_int.h"
#include "jnt/scene.h"
#include "passes.h"
#include "scene_int.h"


/* The parameters' default values (each default may read the earlier ones). */
static double *param_defaults(const sema *S)
{
    const ir_vars *p = &S->m->p;
    double *v = xcalloc((size_t)p->n + 1, sizeof *v);
    for (int i = 0; i < p->n; i++)
        v[i] = p->v[i].rhs >= 0 ? ex_eval(S->pool, p->v[i].rhs, 0, NULL, NULL, v) : 0;
    return v;
}

/* e at the state where every body is at the origin, unturned (directors
 * the unit vectors); 0 where it reads what only the run knows (NaN). */
/* See scene_int.h. */
double scene_at_rest(const sema *S, ex_id e, const double *y, const double *d, const double *p)
{
    if (e < 0)
        return 0;
    double v = ex_eval(S->pool, e, 0, y, d, p);
    return isfinite(v) ? v : 0;
}


static void par_init(sema *S, par_list *pl, const double *y, int ny)
{
    *pl = (par_list){.ny = ny, .nu = S->ngather};
    pl->yrep = xmalloc(((size_t)ny + 1) * sizeof *pl->yrep);
    pl->urep = xmalloc(((size_t)S->ngather + 1) * sizeof *pl->urep);
    for (int i = 0; i < ny; i++)
        pl->yrep[i] = ex_const(S->pool, y[i]);
    for (int i = 0; i < S->ngather; i++)
        pl->urep[i] = ex_const(S->pool, 0);
}

/* Does e read variable kind k past index n (n < 0: at all)? */
static int reads(sema *S, ex_id e, ex_kind k, int n)
{
    if (n < 0)
        return ex_depends(S->pool, e, k, -1);
    probe_prog *g = scene_prog_build(S, 1, &e, 0);
    int past = 0;
    for (int i = 0; i < g->n && !past; i++)
        past = g->node[i].kind == k && g->node[i].a >= n;
    scene_prog_free(g);
    return past;
}

/* The n (up to 6) expressions e (-1: 0) at rest as the scene's parameter values, the
 * index of the first (the others follow); -1 when none reads a parameter
 * (their values at the defaults are the run's) or one reads what only the
 * run knows (discrete states, time, rates): at_rest's values then stay. */
/* See scene_int.h. */
int scene_par_vals(sema *S, par_list *pl, int n, const ex_id *e)
{
    ex_id r[6];
    int any = 0;
    for (int k = 0; k < n; k++) {
        r[k] = e[k] >= 0 ? e[k] : ex_const(S->pool, 0);
        if (reads(S, r[k], EX_D, -1) || reads(S, r[k], EX_T, -1) ||
            reads(S, r[k], EX_UV, -1) || reads(S, r[k], EX_Y, pl->ny) ||
            reads(S, r[k], EX_UP, pl->nu))
            return -1;
        r[k] = ex_subst(S->pool, ex_subst(S->pool, r[k], EX_Y, pl->yrep), EX_UP, pl->urep);
        any |= ex_depends(S->pool, r[k], EX_P, -1);
    }
    if (!any)
        return -1;
    if (pl->n + n > pl->cap)
        pl->e = xrealloc(pl->e, (size_t)(pl->cap = 2 * pl->cap + n + 8) * sizeof *pl->e);
    memcpy(pl->e + pl->n, r, (size_t)n * sizeof *r);
    pl->n += n;
    return pl->n - n;
}

/* The y index of the first state named "PREFIX.lambda..." and how many
 * follow it with that prefix: a joint's multipliers. */
static int lambdas(const sema *S, const char *joint, int *n)
{
    const ir_vars *y = &S->m->y;
    size_t l = strlen(joint);
    int l0 = -1;
    *n = 0;
    for (int i = 0; i < y->n; i++) {
        const char *nm = y->v[i].name;
        if (!strncmp(nm, joint, l) && !strncmp(nm + l, ".lambda", 7)) {
            if (l0 < 0)
                l0 = i;
            ++*n;
        }
    }
    return l0;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Order quadrilateral c's corners around their centre (in the plane of
 * the two largest extents of the mesh: x-y for planar meshes). */
static void quad_order(const double *x, int *c)
{
    double cx = 0, cy = 0, ang[4];
    for (int k = 0; k < 4; k++)
        cx += 0.25 * x[3 * c[k]], cy += 0.25 * x[3 * c[k] + 1];
    for (int k = 0; k < 4; k++)
        ang[k] = atan2(x[3 * c[k] + 1] - cy, x[3 * c[k]] - cx);
    for (int a = 1; a < 4; a++) /* insertion sort by angle */
        for (int b = a; b > 0 && ang[b] < ang[b - 1]; b--) {
            double t = ang[b];
            ang[b] = ang[b - 1], ang[b - 1] = t;
            int u = c[b];
            c[b] = c[b - 1], c[b - 1] = u;
        }
}

/* Cells of a mesh from which nodes its matrices couple: every four nodes
 * coupled pairwise (the four-node elements of plate2d and of imported
 * plane meshes: nodes of different elements are not all coupled), else a
 * line for every coupled pair (beam elements), else points. adj: the
 * nnode sorted neighbour lists (CSR). */
static void mesh_cells(jnt_scene_mesh *ms, const int *aptr, const int *adj)
{
    int cap = 16, nc = 0;
    int *conn = xmalloc((size_t)cap * 4 * sizeof *conn);
#define COUPLED(i, j) (bsearch(&(j), adj + aptr[i], (size_t)(aptr[(i) + 1] - aptr[i]), \
                               sizeof(int), cmp_int) != NULL)
    for (int i = 0; i < ms->nnode; i++)
        for (int a = aptr[i]; a < aptr[i + 1]; a++) {
            int j = adj[a];
            if (j <= i)
                continue;
            for (int b = a + 1; b < aptr[i + 1]; b++) {
                int k = adj[b];
                if (k <= j || !COUPLED(j, k))
                    continue;
                for (int c = b + 1; c < aptr[i + 1]; c++) {
                    int l = adj[c];
                    if (l <= k || !COUPLED(j, l) || !COUPLED(k, l))
                        continue;
                    if (nc == cap)
                        conn = xrealloc(conn, (size_t)(cap *= 2) * 4 * sizeof *conn);
                    int *q = conn + 4 * nc++;
                    q[0] = i, q[1] = j, q[2] = k, q[3] = l;
                    quad_order(ms->x, q);
                }
            }
        }
#undef COUPLED
    if (nc > 0) {
        ms->nen = 4;
    } else { /* lines between coupled nodes */
        for (int i = 0; i < ms->nnode; i++)
            for (int k = aptr[i]; k < aptr[i + 1]; k++) {
                if (adj[k] <= i)
                    continue;
                if (nc == cap)
                    conn = xrealloc(conn, (size_t)(cap *= 2) * 4 * sizeof *conn);
                conn[2 * nc] = i, conn[2 * nc + 1] = adj[k];
                nc++;
            }
        ms->nen = 2;
    }
    if (nc == 0) { /* points */
        conn = xrealloc(conn, ((size_t)ms->nnode + 1) * sizeof *conn);
        for (int i = 0; i < ms->nnode; i++)
            conn[i] = i;
        nc = ms->nnode, ms->nen = 1;
    }
    ms->ncell = nc;
    ms->conn = conn;
}

/* Add the node couplings of matrix a (its DOFs dof_node[] -> node, -1: none)
 * to the pair list. */
static void couple(const fe_sparse *a, const int *dof_node, int **pr, int *np, int *cap)
{
    for (int c = 0; c < a->n; c++)
        for (int k = a->colptr[c]; k < a->colptr[c + 1]; k++) {
            int i = dof_node[a->rowind[k]], j = dof_node[c];
            if (i < 0 || j < 0 || i == j || a->val[k] == 0)
                continue;
            if (*np == *cap)
                *pr = xrealloc(*pr, (size_t)(*cap = *cap ? 2 * *cap : 1024) * 2 * sizeof **pr);
            (*pr)[2 * *np] = i, (*pr)[2 * *np + 1] = j;
            ++*np;
        }
}

static int cmp_pair(const void *a, const void *b)
{
    const int *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Substructure si as a mesh: reference coordinates, the basis at every
 * node's ux, uy, uz (fe_point_dofs: surface points through their master),
 * cells from the couplings of its matrices (before the fixes too). */
static void scene_mesh(const sema *S, int si, const ir_block *k, jnt_scene_mesh *ms)
{
    const subst *b = &S->subs[si];
    const fe_model *fe = b->fe;
    int n = fe->nnode, r = b->r;
    ms->name = xstrdup(b->name);
    ms->q0 = k->q0;
    ms->qv0 = S->m->nq > 0 ? S->m->nq + k->q0 : k->q0 + r;
    ms->r = r;
    ms->nnode = n;
    if (b->mr && b->kr) {
        ms->mr = xmalloc((size_t)r * r * sizeof *ms->mr + 1);
        ms->kr = xmalloc((size_t)r * r * sizeof *ms->kr + 1);
        memcpy(ms->mr, b->mr, (size_t)r * r * sizeof *ms->mr);
        memcpy(ms->kr, b->kr, (size_t)r * r * sizeof *ms->kr);
    }
    ms->x = xcalloc(3 * (size_t)n + 1, sizeof *ms->x);
    ms->phi = xcalloc(3 * (size_t)n * (size_t)r + 1, sizeof *ms->phi);
    size_t ld = 3 * (size_t)n;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            ms->x[3 * i + c] = fe->node[i].x[c];
            int dof[4];
            double cf[4];
            int nd = fe_point_dofs(fe, i, c, dof, cf);
            for (int t = 0; t < nd; t++)
                for (int q = 0; q < r; q++)
                    ms->phi[(size_t)q * ld + 3 * (size_t)i + c] +=
                        cf[t] * b->phi[(size_t)q * b->ndof + dof[t]];
        }
    /* node couplings: of K and M now, and of M before the fixes */
    int *pr = NULL, np = 0, cap = 0;
    int nd0 = fe->ndof > (b->dof0 ? b->m0.n : 0) ? fe->ndof : b->m0.n;
    int *dn = xmalloc(((size_t)nd0 + 1) * sizeof *dn);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !b->dof0)
            break;
        for (int i = 0; i < nd0; i++)
            dn[i] = -1;
        for (int i = 0; i < n; i++)
            for (int c = 0; c < FE_NDOF_NODE; c++) {
                int d = pass ? b->dof0[FE_NDOF_NODE * i + c] : fe->node[i].dof[c];
                if (d >= 0 && d < nd0)
                    dn[d] = i;
            }
        if (pass == 0) {
            couple(&fe->K, dn, &pr, &np, &cap);
            couple(&fe->M, dn, &pr, &np, &cap);
        } else {
            couple(&b->m0, dn, &pr, &np, &cap);
        }
    }
    free(dn);
    if (np > 0)
        qsort(pr, (size_t)np, 2 * sizeof *pr, cmp_pair);
    int *aptr = xcalloc((size_t)n + 2, sizeof *aptr);
    int *adj = xmalloc(((size_t)np + 1) * sizeof *adj);
    int na = 0;
    for (int t = 0; t < np; t++) {
        if (t > 0 && pr[2 * t] == pr[2 * t - 2] && pr[2 * t + 1] == pr[2 * t - 1])
            continue;
        adj[na++] = pr[2 * t + 1];
        aptr[pr[2 * t] + 1]++;
    }
    for (int i = 0; i < n; i++)
        aptr[i + 1] += aptr[i];
    free(pr);
    mesh_cells(ms, aptr, adj);
    free(aptr);
    free(adj);
}

/* The mesh node whose component row of the basis is dof f's coefficients:
 * *node, *comp; -1 when none is. */
static int find_node(const jnt_scene_mesh *ms, const dof *f, int *node, int *comp)
{
    size_t ld = 3 * (size_t)ms->nnode;
    double big = 0;
    for (int q = 0; q < ms->r; q++)
        big = fmax(big, fabs(f->coef[q]));
    double tol = 1e-12 * (big > 0 ? big : 1);
    for (int i = 0; i < ms->nnode; i++)
        for (int c = 0; c < 3; c++) {
            int q = 0;
            const double *row = ms->phi + 3 * (size_t)i + c;
            while (q < ms->r && fabs(row[(size_t)q * ld] - f->coef[q]) <= tol)
                q++;
            if (q == ms->r && big > 0) {
                *node = i, *comp = c;
                return 0;
            }
        }
    return -1;
}

/* A flexible body's node marker m: its place at rest with the gathered
 * points at 0 into x, and the mesh node whose displacement it reads
 * (*mesh, *node; -1 when none). smap: substructure -> scene mesh. */
static void node_marker(sema *S, const jnt_scene *sc, const int *smap, const marker *m,
                        const double *y, const double *d, const double *p, double x[3],
                        int *mesh, int *node)
{
    ex_id roots[3] = {m->px, m->py, m->d3 ? m->pz : ex_const(S->pool, 0)};
    scene_rest_vec(S, roots, y, d, p, x);
    probe_prog *g = scene_prog_build(S, 3, roots, S->ngather);
    *mesh = *node = -1;
    for (int i = 0; i < g->n && *mesh < 0; i++) { /* the node of a gathered point it reads */
        if (g->node[i].kind != EX_UP)
            continue;
        for (int k = 0; k < S->ndof; k++) {
            const dof *f = &S->dofs[k];
            int comp;
            if (f->sub < 0 || f->g != g->node[i].a || smap[f->sub] < 0 || !f->coef)
                continue;
            if (find_node(&sc->mesh[smap[f->sub]], f, node, &comp) == 0)
                *mesh = smap[f->sub];
            break;
        }
    }
    scene_prog_free(g);
}

/* See core.h. */
void sema_body_shape(sema *S, body *b, const ast *e)
{
    static const char *const kinds[3] = {"box", "cylinder", "sphere"};
    static const int nargs[3] = {3, 2, 1};
    static const char *const forms[3] = {"box(lx, ly, lz)", "cylinder(radius, length)",
                                         "sphere(radius)"};
    static const jnt_dim DIM_LEN = {{0, 6, 0, 0, 0}};
    int k = -1;
    for (int i = 0; e->kind == AST_CALL && e->name && i < 3; i++)
        if (!strcmp(e->name, kinds[i]))
            k = i;
    if (k < 0) {
        diag_error(S->dc, e->loc, "a shape is box(lx, ly, lz), cylinder(radius, length) or "
                                  "sphere(radius), in lengths");
        return;
    }
    if (e->nkids != nargs[k]) {
        diag_error(S->dc, e->loc, "'%s' takes %d length%s: %s", kinds[k], nargs[k],
                   nargs[k] > 1 ? "s" : "", forms[k]);
        return;
    }
    ex_id v[3] = {-1, -1, -1};
    for (int i = 0; i < nargs[k]; i++) {
        const ast *a = e->kids[i]->kind == AST_ARG ? e->kids[i]->kids[0] : e->kids[i];
        sval x = sema_num_dim(S, &S->global, a, DIM_LEN, "a shape's size");
        if (x.k != V_NUM)
            return;
        if (sema_is_dynamic(S, x.e)) {
            diag_error(S->dc, a->loc, "a shape's size may use parameters only");
            return;
        }
        v[i] = x.e;
    }
    b->shape = JNT_SHAPE_BOX + k;
    memcpy(b->shape_size, v, sizeof v);
}

/* See passes.h. */
jnt_scene *sema_scene(sema *S)
{
    jnt_scene *sc = xcalloc(1, sizeof *sc);
    sc->model = xstrdup(S->m->name ? S->m->name : "model");
    double *p = param_defaults(S);
    int ny = S->m->y.n; /* the dofs' state indices are sema's (the states renumbered since) */
    for (int i = 0; i < S->ndof; i++)
        ny = S->dofs[i].y >= ny ? S->dofs[i].y + 1 : ny;
    double *y = xcalloc((size_t)ny + 1, sizeof *y);
    double *dd = xcalloc((size_t)S->m->d.n + 1, sizeof *dd);
    /* bodies with frames */
    int *bmap = xmalloc(((size_t)S->nbody + 1) * sizeof *bmap);
    sc->body = xcalloc((size_t)S->nbody + 1, sizeof *sc->body);
    for (int i = 0; i < S->nbody; i++) {
        const body *b = &S->bodies[i];
        bmap[i] = -1;
        if (!b->rigid && !b->rigid3)
            continue;
        jnt_scene_body *sb = &sc->body[sc->nbody];
        sb->name = xstrdup(b->name);
        sb->kind = b->rigid3 ? (b->flex ? JNT_BODY_FLEX3D : JNT_BODY_RIGID3D)
                             : (b->flex ? JNT_BODY_FLEX2D : JNT_BODY_RIGID2D);
        sb->q = S->dofs[b->dof0].y;
        sb->shape = b->shape;
        if (b->rigid3) /* directors d1, d2, d3 the unit vectors */
            for (int c = 0; c < 3; c++)
                y[S->dofs[b->dof0 + 3 + 4 * c].y] = 1;
        bmap[i] = sc->nbody++;
    }
    par_list pl;
    par_init(S, &pl, y, ny);
    for (int i = 0; i < S->nbody; i++) { /* the shapes' sizes (parameters' defaults) */
        if (bmap[i] < 0)
            continue;
        sc->body[bmap[i]].sizep = -1;
        for (int c = 0; S->bodies[i].shape && c < 3; c++)
            sc->body[bmap[i]].size[c] = scene_at_rest(S, S->bodies[i].shape_size[c], y, dd, p);
        if (S->bodies[i].shape)
            sc->body[bmap[i]].sizep = scene_par_vals(S, &pl, 3, S->bodies[i].shape_size);
    }
    /* markers, in their bodies' frames */
    sc->marker = xcalloc((size_t)S->nmarker + 1, sizeof *sc->marker);
    for (int i = 0; i < S->nmarker; i++) {
        const marker *m = &S->markers[i];
        jnt_scene_marker *sm = &sc->marker[sc->nmarker++];
        sm->name = xstrdup(m->name);
        sm->body = m->body >= 0 ? bmap[m->body] : -1;
        sm->x[0] = scene_at_rest(S, m->px, y, dd, p);
        sm->x[1] = scene_at_rest(S, m->py, y, dd, p);
        sm->x[2] = m->d3 ? scene_at_rest(S, m->pz, y, dd, p) : 0;
        sm->mesh = sm->node = -1;
        ex_id e[3] = {m->px, m->py, m->d3 ? m->pz : -1};
        sm->xp = scene_par_vals(S, &pl, 3, e);
    }
    /* joints and their multipliers */
    static const char *const kinds[7] = {"revolute", "prismatic", "fixed", "spherical",
                                         "universal", "cylindrical", "planar"};
    sc->joint = xcalloc((size_t)S->njoint + 1, sizeof *sc->joint);
    for (int i = 0; i < S->njoint; i++) {
        const joint *j = &S->joints[i];
        jnt_scene_joint *sj = &sc->joint[sc->njoint++];
        sj->name = xstrdup(j->name);
        sj->kind = j->kind >= 0 && j->kind < 7 ? kinds[j->kind] : "joint";
        sj->a = j->a, sj->b = j->b;
        sj->l0 = lambdas(S, j->name, &sj->nl);
        sj->npos = j->d3 ? j->npos : j->kind == JOINT_PRISMATIC ? 0 : 2;
        ex_id axe[6] = {-1, -1, -1, -1, -1, -1};
        if (!j->d3 && j->kind == JOINT_PRISMATIC) {
            sj->axis[0] = scene_at_rest(S, j->ex, y, dd, p);
            sj->axis[1] = scene_at_rest(S, j->ey, y, dd, p);
            axe[0] = j->ex, axe[1] = j->ey;
        } else if (!j->d3) {
            sj->axis[2] = 1; /* planar joints turn about z */
        } else {
            scene_joint_axes(S, j, y, dd, p, sj, axe);
        }
        sj->axisp = axe[0] >= 0 || axe[3] >= 0 ? scene_par_vals(S, &pl, 6, axe) : -1;
    }
    /* meshes: the substructures with a basis, in block order */
    sc->mesh = xcalloc((size_t)S->nsub + 1, sizeof *sc->mesh);
    int *smap = xmalloc(((size_t)S->nsub + 1) * sizeof *smap);
    int bi = 0;
    for (int s = 0; s < S->nsub; s++) {
        smap[s] = -1;
        if (!S->subs[s].phi || !S->subs[s].fe || bi >= S->m->nblocks)
            continue;
        /* the basis at every node, 3 nnode x r: not for an unreduced (sparse)
         * or huge mesh */
        if (S->subs[s].sparse || 3.0 * S->subs[s].fe->nnode * S->subs[s].r > 5e7) {
            bi++;
            continue;
        }
        jnt_scene_mesh *ms = &sc->mesh[sc->nmesh];
        scene_mesh(S, s, &S->m->blocks[bi++], ms);
        int fb = sema_flex_of_sub(S, s);
        ms->body = fb >= 0 ? bmap[fb] : -1;
        smap[s] = sc->nmesh++;
    }
    /* a flexible body's node markers: their nodes, their places undeformed */
    for (int i = 0; i < S->nmarker; i++)
        if (S->markers[i].rot_on && S->markers[i].body >= 0 && S->bodies[S->markers[i].body].flex)
            node_marker(S, sc, smap, &S->markers[i], y, dd, p, sc->marker[i].x,
                        &sc->marker[i].mesh, &sc->marker[i].node);
    /* each substructure point's gathered index (sema_sub_gather's order) */
    int *gfin = xmalloc(((size_t)S->ndof + 1) * sizeof *gfin);
    bi = 0;
    for (int s = 0; s < S->nsub; s++) {
        if (!S->subs[s].phi)
            continue;
        int g = bi < S->m->nblocks ? S->m->blocks[bi++].g0 : 0;
        for (int i = 0; i < S->ndof; i++)
            if (S->dofs[i].sub == s)
                gfin[i] = g++;
    }
    /* contact and friction elements between mesh nodes */
    sc->contact = xcalloc((size_t)S->nelem + 1, sizeof *sc->contact);
    sc->fric = xcalloc((size_t)S->nelem + 1, sizeof *sc->fric);
    int *fnode = xcalloc(4 * ((size_t)S->nelem + 1), sizeof *fnode);
    for (int e = 0; e < S->nelem; e++) {
        const elem *el = &S->elems[e];
        if (!scene_drawn(S, el))
            continue;
        int msh[2] = {-1, -1}, nod[2] = {-1, -1}, cmp[2] = {-1, -1}, g[2] = {-1, -1};
        int ok = 1;
        for (int s = 0; s < 2; s++) {
            int di = s ? el->b : el->a;
            if (di < 0)
                continue; /* the ground */
            const dof *f = &S->dofs[di];
            if (f->sub < 0 || smap[f->sub] < 0 || !f->coef) {
                ok = 0;
                break;
            }
            msh[s] = smap[f->sub];
            g[s] = gfin[di];
            if (find_node(&sc->mesh[msh[s]], f, &nod[s], &cmp[s]) != 0)
                ok = 0;
        }
        if (!ok || (msh[0] < 0 && msh[1] < 0))
            continue;
        int comp = cmp[1] >= 0 ? cmp[1] : cmp[0];
        if (scene_drawn(S, el) == SEMA_DRAW_SLIP) {
            int k = sc->nfric++;
            sc->fric[k] = (jnt_scene_friction){.name = xstrdup(el->name), .comp = comp,
                                               .ga = g[0], .gb = g[1]};
            int *fn = fnode + 4 * k;
            fn[0] = msh[0] >= 0 ? msh[0] * 1000000 + nod[0] : -1;
            fn[1] = msh[1] >= 0 ? msh[1] * 1000000 + nod[1] : -1;
            continue;
        }
        sc->contact[sc->ncontact++] = (jnt_scene_contact){
            .name = xstrdup(el->name), .mesh_a = msh[0], .node_a = nod[0], .mesh_b = msh[1],
            .node_b = nod[1], .comp = comp, .ga = g[0], .gb = g[1], .friction = -1};
    }
    /* pair each contact with the friction element between the same nodes */
    for (int c = 0; c < sc->ncontact; c++) {
        jnt_scene_contact *ct = &sc->contact[c];
        int ka = ct->mesh_a >= 0 ? ct->mesh_a * 1000000 + ct->node_a : -1;
        int kb = ct->mesh_b >= 0 ? ct->mesh_b * 1000000 + ct->node_b : -1;
        for (int f = 0; f < sc->nfric; f++)
            if (fnode[4 * f] == ka && fnode[4 * f + 1] == kb) {
                ct->friction = f;
                break;
            }
    }
    /* the modes analyses of the main file: analysis NAME : modes(of = SUB, count = N) */
    sc->modes = xcalloc((size_t)S->model->nkids + 1, sizeof *sc->modes);
    for (int i = 0; i < S->model->nkids; i++) {
        const ast *d = S->model->kids[i];
        if (d->kind != AST_ANALYSIS || !d->str || strcmp(d->str, "modes") != 0)
            continue;
        long count = 6;
        int mesh = -1;
        for (int k = 0; k < d->nkids; k++) {
            const ast *a = d->kids[k];
            if (a->kind != AST_ARG || a->nkids < 1)
                continue;
            if (!strcmp(a->name, "of") && a->kids[0]->kind == AST_NAME) {
                sym *sy = sema_find(S, a->kids[0]->name);
                if (sy && sy->kind == SYM_SUB && sy->ninst > 0 && smap[sy->inst[0]] >= 0)
                    mesh = smap[sy->inst[0]];
            } else if (!strcmp(a->name, "count")) {
                sema_int_const(S, &S->consts, a->kids[0], &count);
            }
        }
        if (mesh < 0 || !sc->mesh[mesh].mr)
            continue;
        if (count > sc->mesh[mesh].r)
            count = sc->mesh[mesh].r;
        sc->modes[sc->nmodes++] = (jnt_scene_modes){.name = xstrdup(d->name), .mesh = mesh,
                                                    .count = (int)count};
    }
    scene_mcontacts(S, sc, &pl, bmap, y, dd, p);
    /* the parameter values' program (of p alone) */
    sc->probe = scene_prog_eval;
    sc->probe_free = scene_prog_free;
    sc->par_np = S->m->p.n;
    if (pl.n > 0) {
        sc->par_prog = scene_prog_build(S, pl.n, pl.e, 0);
        sc->npar = pl.n;
    }
    free(pl.e);
    free(pl.yrep);
    free(pl.urep);
    free(fnode);
    free(gfin);
    free(smap);
    free(bmap);
    free(y);
    free(dd);
    free(p);
    return sc;
}
