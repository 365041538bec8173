/*
 * fe_bc.c: the model side of a finite-element model (fe.h): freeing it,
 * named node sets, the DOFs of a point, boundary conditions (fix: the DOFs
 * are removed and the rest renumbered) and Rayleigh damping.
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fe_priv.h"

/* Free everything m owns and zero it. */
void fe_free(fe_model *m)
{
    if (!m)
        return;
    fe_sparse_free(&m->M);
    fe_sparse_free(&m->K);
    fe_sparse_free(&m->C);
    free(m->node);
    for (int s = 0; s < m->nset; s++)
        free(m->set[s].node);
    free(m->set);
    memset(m, 0, sizeof *m);
}

/* Index of the set `name` of m, or -1. */
int fe_find_set(const fe_model *m, const char *name)
{
    for (int s = 0; s < m->nset; s++)
        if (strcmp(m->set[s].name, name) == 0)
            return s;
    return -1;
}

/* See fe_priv.h. The capacity is the next power of two of n. */
int fe_set_push(fe_set *s, int node)
{
    if ((s->n & (s->n - 1)) == 0) {
        int *p = realloc(s->node, (size_t)(s->n ? 2 * s->n : 1) * sizeof *p);
        if (!p)
            return JNT_ERR_NOMEM;
        s->node = p;
    }
    s->node[s->n++] = node;
    return JNT_OK;
}

/* See fe_priv.h. */
int fe_set_get(fe_model *m, const char *name)
{
    int s = fe_find_set(m, name);
    if (s >= 0)
        return s;
    fe_set *p = realloc(m->set, (size_t)(m->nset + 1) * sizeof *p);
    if (!p)
        return JNT_ERR_NOMEM;
    m->set = p;
    memset(&p[m->nset], 0, sizeof p[m->nset]);
    snprintf(p[m->nset].name, sizeof p[m->nset].name, "%s", name);
    return m->nset++;
}

/* The (dof, coefficient) pairs of component comp of node `node`: see fe.h.
 * An attached point moves with its master: u = u_m + theta_m x off, so
 * ux = ux_m + ry_m oz - rz_m oy, uy = uy_m + rz_m ox - rx_m oz,
 * uz = uz_m + rx_m oy - ry_m ox, and its rotations are the master's. Pairs
 * whose DOF is absent (fixed) or whose coefficient is 0 are left out. */
int fe_point_dofs(const fe_model *m, int node, int comp, int dof[4], double c[4])
{
    if (node < 0 || node >= m->nnode || comp < 0 || comp >= FE_NDOF_NODE)
        return 0;
    const fe_node *p = &m->node[node];
    int k = 0;
    if (p->master < 0 || p->master >= m->nnode) {
        if (p->dof[comp] >= 0)
            dof[k] = p->dof[comp], c[k++] = 1.0;
        return k;
    }
    const fe_node *q = &m->node[p->master];
    const double *o = p->off;
    /* terms[comp]: (component of the master, coefficient) */
    int rc[3] = {-1, -1, -1};
    double cc[3] = {0, 0, 0};
    switch (comp) {
    case FE_UX:
        rc[0] = FE_RY, cc[0] = o[2], rc[1] = FE_RZ, cc[1] = -o[1];
        break;
    case FE_UY:
        rc[0] = FE_RZ, cc[0] = o[0], rc[1] = FE_RX, cc[1] = -o[2];
        break;
    case FE_UZ:
        rc[0] = FE_RX, cc[0] = o[1], rc[1] = FE_RY, cc[1] = -o[0];
        break;
    default:
        break;
    }
    if (q->dof[comp] >= 0)
        dof[k] = q->dof[comp], c[k++] = 1.0;
    for (int t = 0; t < 3; t++)
        if (rc[t] >= 0 && cc[t] != 0.0 && q->dof[rc[t]] >= 0)
            dof[k] = q->dof[rc[t]], c[k++] = cc[t];
    return k;
}

/* Remove the DOFs of the nodes of set `set` (of an attached point: those of
 * its master). M, K and C shrink to the remaining DOFs, renumbered in their
 * old order; the removed node DOFs become -1. Returns 0, JNT_ERR_USAGE (no
 * such set) or JNT_ERR_NOMEM (m unchanged). */
int fe_fix(fe_model *m, int set, char *err, size_t errn)
{
    return fe_fix_comps(m, set, (1u << FE_NDOF_NODE) - 1, err, errn);
}

/* See fe.h. */
int fe_fix_comps(fe_model *m, int set, unsigned comps, char *err, size_t errn)
{
    if (set < 0 || set >= m->nset)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "fix: no node set number %d", set);
    int *map = malloc(((size_t)m->ndof + 1) * sizeof *map);
    if (!map)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "fix: out of memory");
    for (int i = 0; i < m->ndof; i++)
        map[i] = 0;
    const fe_set *s = &m->set[set];
    for (int k = 0; k < s->n; k++) {
        const fe_node *p = &m->node[s->node[k]];
        if (p->master >= 0)
            p = &m->node[p->master];
        for (int c = 0; c < FE_NDOF_NODE; c++)
            if ((comps >> c & 1) && p->dof[c] >= 0 && p->dof[c] < m->ndof)
                map[p->dof[c]] = -1;
    }
    int nnew = 0;
    for (int i = 0; i < m->ndof; i++)
        if (map[i] == 0)
            map[i] = nnew++;
    fe_sparse M, K, C;
    memset(&C, 0, sizeof C);
    int rc = fe_sparse_sub(&m->M, map, nnew, &M);
    if (rc == JNT_OK) {
        rc = fe_sparse_sub(&m->K, map, nnew, &K);
        if (rc != JNT_OK)
            fe_sparse_free(&M);
    }
    if (rc == JNT_OK && m->C.n > 0) {
        rc = fe_sparse_sub(&m->C, map, nnew, &C);
        if (rc != JNT_OK)
            fe_sparse_free(&M), fe_sparse_free(&K);
    }
    if (rc != JNT_OK) {
        free(map);
        return jnt_errf(err, errn, rc, "fix: out of memory");
    }
    fe_sparse_free(&m->M), fe_sparse_free(&m->K), fe_sparse_free(&m->C);
    m->M = M, m->K = K, m->C = C;
    for (int n = 0; n < m->nnode; n++)
        for (int c = 0; c < FE_NDOF_NODE; c++) {
            int d = m->node[n].dof[c];
            if (d >= 0)
                m->node[n].dof[c] = d < m->ndof ? map[d] : -1;
        }
    m->ndof = nnew;
    free(map);
    return JNT_OK;
}

/* C = alpha M + beta K, replacing C (Rayleigh damping: the modal damping
 * ratio of a mode of circular frequency w is alpha / (2 w) + beta w / 2).
 * Returns 0, JNT_ERR_PARAM (a negative coefficient) or JNT_ERR_NOMEM. */
int fe_rayleigh(fe_model *m, double alpha, double beta, char *err, size_t errn)
{
    if (!(alpha >= 0.0) || !(beta >= 0.0))
        return jnt_errf(err, errn, JNT_ERR_PARAM,
                        "rayleigh damping: alpha = %g and beta = %g must not be negative", alpha,
                        beta);
    fe_sparse C;
    int rc = fe_sparse_axpby(alpha, &m->M, beta, &m->K, &C);
    if (rc != JNT_OK)
        return jnt_errf(err, errn, rc, "rayleigh damping: %s",
                        rc == JNT_ERR_NOMEM ? "out of memory" : "M and K differ in size");
    fe_sparse_free(&m->C);
    m->C = C;
    return JNT_OK;
}

/* See jnt/setup.h: M + mass e_i e_i^T for each translational DOF i of the
 * set's nodes, by adding a diagonal matrix of the same size. */
int fe_add_point_mass(fe_model *m, int set, double mass, char *err, size_t errn)
{
    if (set < 0 || set >= m->nset)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "point mass: no such node set");
    if (!(mass > 0) || !isfinite(mass))
        return jnt_errf(err, errn, JNT_ERR_PARAM, "point mass: the mass must be positive (got %g "
                        "kg)", mass);
    int n = m->M.n, nt = 0;
    int *idx = malloc((size_t)(3 * m->set[set].n + 1) * sizeof *idx);
    double *val = malloc((size_t)(3 * m->set[set].n + 1) * sizeof *val);
    if (!idx || !val) {
        free(idx);
        free(val);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "point mass: out of memory");
    }
    for (int k = 0; k < m->set[set].n; k++)
        for (int c = FE_UX; c <= FE_UZ; c++) {
            int i = m->node[m->set[set].node[k]].dof[c];
            if (i >= 0 && i < n) {
                idx[nt] = i;
                val[nt++] = mass;
            }
        }
    fe_sparse D, S;
    int rc = fe_sparse_from_triplets(n, nt, idx, idx, val, &D);
    free(idx);
    free(val);
    if (rc != JNT_OK)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "point mass: out of memory");
    rc = fe_sparse_axpby(1.0, &m->M, 1.0, &D, &S);
    fe_sparse_free(&D);
    if (rc != JNT_OK)
        return jnt_errf(err, errn, rc, "point mass: out of memory");
    fe_sparse_free(&m->M);
    m->M = S;
    return JNT_OK;
}

/* One matrix A -> T A T^T in place, T the rotation of every node's (ux, uy)
 * pair (dense work: small models). */
static int rotate_matrix(const fe_model *m, fe_sparse *a, double co, double si)
{
    if (a->n == 0)
        return JNT_OK;
    int n = a->n;
    double *A = fe_sparse_dense(a);
    if (!A)
        return JNT_ERR_NOMEM;
    /* u_local = T^T u_global per node: rows then columns */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < m->nnode; k++) {
            int x = m->node[k].dof[FE_UX], y = m->node[k].dof[FE_UY];
            if (x < 0 || y < 0)
                continue;
            for (int j = 0; j < n; j++) {
                double *ax = pass ? &A[(size_t)x * n + j] : &A[(size_t)j * n + x];
                double *ay = pass ? &A[(size_t)y * n + j] : &A[(size_t)j * n + y];
                double vx = *ax, vy = *ay;
                *ax = co * vx - si * vy;
                *ay = si * vx + co * vy;
            }
        }
    size_t nt = 0;
    for (size_t i = 0; i < (size_t)n * n; i++)
        nt += A[i] != 0;
    int *row = malloc((nt + 1) * sizeof *row), *col = malloc((nt + 1) * sizeof *col);
    double *val = malloc((nt + 1) * sizeof *val);
    int rc = row && col && val ? JNT_OK : JNT_ERR_NOMEM;
    nt = 0;
    for (int j = 0; rc == JNT_OK && j < n; j++)
        for (int i = 0; i < n; i++)
            if (A[(size_t)j * n + i] != 0) {
                row[nt] = i, col[nt] = j, val[nt] = A[(size_t)j * n + i];
                nt++;
            }
    fe_sparse b;
    if (rc == JNT_OK)
        rc = fe_sparse_from_triplets(n, (int)nt, row, col, val, &b);
    if (rc == JNT_OK) {
        fe_sparse_free(a);
        *a = b;
    }
    free(A), free(row), free(col), free(val);
    return rc;
}

/* See fe.h. */
int fe_rotate(fe_model *m, double angle, char *err, size_t errn)
{
    if (m->ndof > FE_ROTATE_MAX)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "rotate: %d DOFs, at most %d are supported",
                        m->ndof, FE_ROTATE_MAX);
    double co = cos(angle), si = sin(angle);
    fe_sparse *mats[3] = {&m->M, &m->K, &m->C};
    for (int i = 0; i < 3; i++) {
        int rc = rotate_matrix(m, mats[i], co, si);
        if (rc != JNT_OK)
            return jnt_errf(err, errn, rc, "rotate: out of memory");
    }
    for (int k = 0; k < m->nnode; k++) {
        double *p = m->node[k].x, x = p[0], *o = m->node[k].off, ox = o[0];
        p[0] = co * x - si * p[1];
        p[1] = si * x + co * p[1];
        o[0] = co * ox - si * o[1];
        o[1] = si * ox + co * o[1];
    }
    return JNT_OK;
}
