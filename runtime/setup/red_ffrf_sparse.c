/*
 * red_ffrf_sparse.c: the inertia invariants of an unreduced flexible2d
 * body (jnt/abi.h, JNT_FFRF_SP_*): the floating frame of red_ffrf.c with
 * the basis Phi the identity on the substructure's free DOFs, so that its
 * elastic coordinates are the free nodal displacements and
 *   Mr = Phi^T M Phi = M,  Kr = K,  Cr = C (the free DOFs' matrices),
 *   E = Phi^T M P Phi = M P,
 * all as sparse as the mesh (seed 000 eqs. 12-15 with Phi = I; Shabana,
 * Dynamics of Multibody Systems, 4th ed., Ch. 5). Nothing here is r x r
 * dense: the vectors S1, j1, e0 come from sparse products with the mass
 * matrix before the fixes (M0, so that the fixed nodes count, as in
 * red_ffrf.c), M, K and C are stored once on the union of their patterns,
 * and E is applied at run time as M times the rotation P (rot).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"
#include "red_impl.h"

/* Union pattern of the n x n a, b, c (c may be empty) into colptr (n + 1,
 * given) and a new rowind; returns nnz, or -1 when out of memory. */
static long union_pattern(const fe_sparse *a, const fe_sparse *b, const fe_sparse *c, int n,
                          int *colptr, int **rowind)
{
    const fe_sparse *m[3] = {a, b, c};
    size_t cap = (size_t)a->nnz + (size_t)b->nnz + (size_t)(c->n ? c->nnz : 0) + 1;
    int *ri = malloc(cap * sizeof *ri), *mark = malloc(((size_t)n + 1) * sizeof *mark);
    if (!ri || !mark) {
        free(ri), free(mark);
        return -1;
    }
    for (int i = 0; i < n; i++)
        mark[i] = -1;
    long e = 0;
    for (int j = 0; j < n; j++) {
        colptr[j] = (int)e;
        long e0 = e;
        for (int k = 0; k < 3; k++) {
            if (m[k]->n != n)
                continue;
            for (int p = m[k]->colptr[j]; p < m[k]->colptr[j + 1]; p++) {
                int i = m[k]->rowind[p];
                if (mark[i] != j)
                    mark[i] = j, ri[e++] = i;
            }
        }
        /* rows ascending within a column (insertion: a column holds ~20) */
        for (long p = e0 + 1; p < e; p++)
            for (long q = p; q > e0 && ri[q - 1] > ri[q]; q--) {
                int t = ri[q];
                ri[q] = ri[q - 1], ri[q - 1] = t;
            }
    }
    colptr[n] = (int)e;
    free(mark);
    *rowind = ri;
    return e;
}

/* Scatter the values of a (pattern within the union's) into val. */
static void scatter_values(const fe_sparse *a, const int *colptr, const int *rowind, double *val)
{
    if (a->n <= 0)
        return;
    for (int j = 0; j < a->n; j++)
        for (int p = a->colptr[j]; p < a->colptr[j + 1]; p++) {
            int lo = colptr[j], hi = colptr[j + 1] - 1, i = a->rowind[p];
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (rowind[mid] < i)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            val[lo] += a->val[p];
        }
}

/* See setup.h. */
long red_ffrf_sparse_size(const fe_model *fe)
{
    if (!fe || fe->ndof < 1)
        return -1;
    int n = fe->ndof, *cp = malloc(((size_t)n + 1) * sizeof *cp), *ri = NULL;
    if (!cp)
        return -1;
    long nnz = union_pattern(&fe->M, &fe->K, &fe->C, n, cp, &ri);
    free(cp), free(ri);
    return nnz < 0 ? -1 : JNT_FFRF_SP_SIZE(n, nnz);
}

/* See setup.h. */
int red_ffrf_sparse(const fe_model *fe, const fe_sparse *M0, const int *dof0, double *inv,
                    char *err, size_t errn)
{
    if (!fe || !inv || fe->ndof < 1 || (dof0 && !M0) || fe->M.n != fe->ndof ||
        fe->K.n != fe->ndof)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_ffrf_sparse: the model is incomplete");
    int r = fe->ndof;
    const fe_sparse *Mall = dof0 ? M0 : &fe->M;
    int n = Mall->n;
    /* every node: ux, uy only; free in both or fixed in both (E = M P needs
     * the partner of every coordinate among the coordinates) */
    int rc0 = red_plane_mesh(fe, dof0, n, err, errn);
    if (rc0 != JNT_OK)
        return rc0;
    for (int p = 0; p < fe->nnode; p++) {
        const fe_node *nd = &fe->node[p];
        if ((nd->dof[FE_UX] < 0) != (nd->dof[FE_UY] < 0))
            return jnt_errf(err, errn, JNT_ERR_MODEL, "an unreduced flexible2d body needs each "
                            "node free in both ux and uy or fixed in both (node %d is fixed in "
                            "one only); reduce it", nd->id);
    }
    /* T_x, T_y, u0, P u0 (unfixed numbering, n each) and M0 times each */
    double *v = calloc(8 * (size_t)n + 2 * (size_t)r + 1, sizeof *v);
    if (!v)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    double *tx = v, *ty = v + n, *u0 = v + 2 * (size_t)n, *pu0 = v + 3 * (size_t)n;
    double *mv = v + 4 * (size_t)n, *x = v + 8 * (size_t)n, *y = x + r;
    for (int p = 0; p < fe->nnode; p++) {
        const fe_node *nd = &fe->node[p];
        int ix = red_dof_of(fe, dof0, p, FE_UX), iy = red_dof_of(fe, dof0, p, FE_UY);
        tx[ix] = 1.0, ty[iy] = 1.0;
        u0[ix] = nd->x[0], u0[iy] = nd->x[1];
        pu0[ix] = -nd->x[1], pu0[iy] = nd->x[0];
    }
    for (int c = 0; c < 4; c++)
        fe_sparse_mul(Mall, v + (size_t)c * n, mv + (size_t)c * n);
    const double *mtx = mv, *mty = mv + n, *mu0 = mv + 2 * (size_t)n, *mpu0 = mv + 3 * (size_t)n;
    double m = 0, s0x = 0, s0y = 0, J0 = 0;
    for (int i = 0; i < n; i++)
        m += tx[i] * mtx[i], s0x += mtx[i] * u0[i], s0y += mty[i] * u0[i], J0 += u0[i] * mu0[i];
    /* the CSC pattern of M, K, C over the coordinates */
    int *cp = malloc(((size_t)r + 1) * sizeof *cp), *ri = NULL;
    long nnz = cp ? union_pattern(&fe->M, &fe->K, &fe->C, r, cp, &ri) : -1;
    if (nnz < 0) {
        free(v), free(cp), free(ri);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    }
    memset(inv, 0, (size_t)JNT_FFRF_SP_SIZE(r, nnz) * sizeof *inv);
    inv[0] = m, inv[1] = s0x, inv[2] = s0y, inv[3] = J0, inv[4] = (double)nnz;
    double *S1 = inv + JNT_FFRF_SP_S1, *j1 = S1 + 2 * (size_t)r, *e0 = j1 + r, *rot = e0 + r;
    double *dcp = rot + r, *dri = dcp + r + 1, *vm = dri + nnz, *vk = vm + nnz, *vc = vk + nnz;
    /* S1 = [T_x T_y]^T M0 Phi, j1 = Phi^T M0 u0, e0 = Phi^T M0 P u0: Phi's
     * column j is the unit vector at coordinate j's unfixed DOF */
    for (int p = 0; p < fe->nnode; p++)
        for (int c = 0; c < 2; c++) {
            int j = fe->node[p].dof[c], u = red_dof_of(fe, dof0, p, c);
            if (j < 0)
                continue;
            S1[2 * j] = mtx[u], S1[2 * j + 1] = mty[u];
            j1[j] = mu0[u], e0[j] = mpu0[u];
            /* (P q)_ux = -q_uy, (P q)_uy = q_ux (red_ffrf.c's rotate90) */
            int partner = fe->node[p].dof[1 - c];
            rot[j] = c == 0 ? -(double)(partner + 1) : (double)(partner + 1);
        }
    for (int j = 0; j <= r; j++)
        dcp[j] = cp[j];
    for (long k = 0; k < nnz; k++)
        dri[k] = ri[k];
    scatter_values(&fe->M, cp, ri, vm);
    scatter_values(&fe->K, cp, ri, vk);
    scatter_values(&fe->C, cp, ri, vc);
    /* M must commute with P (red_ffrf.c's condition): M P x = P M x for a
     * fixed pseudo-random x, which an M that does not commute fails */
    unsigned s = 12345u;
    for (int i = 0; i < r; i++) {
        s = s * 1103515245u + 12345u;
        x[i] = (double)(s >> 8) / (double)(1u << 24) - 0.5;
    }
    double dn = 0, sn = 0;
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: y = M P x; pass 1: y -= P M x */
        for (int j = 0; j < r; j++) {
            int pj = (int)fabs(rot[j]) - 1;
            double px = pass == 0 ? (rot[j] < 0 ? -x[pj] : x[pj]) : x[j];
            for (int k = cp[j]; k < cp[j + 1]; k++) {
                int i = ri[k];
                if (pass == 0) {
                    y[i] += vm[k] * px;
                } else { /* (M x)_i contributes to (P M x) at i's partner row */
                    int qi = (int)fabs(rot[i]) - 1;
                    /* (P w)_t = sign(rot_t) w_{|rot_t|-1}: w_i goes to t = partner(i),
                     * with the sign of rot_t */
                    y[qi] -= (rot[qi] < 0 ? -1.0 : 1.0) * vm[k] * px;
                }
            }
        }
    }
    for (int i = 0; i < r; i++)
        dn = fmax(dn, fabs(y[i]));
    for (long k = 0; k < nnz; k++)
        sn = fmax(sn, fabs(vm[k]));
    free(v), free(cp), free(ri);
    if (!(dn <= 1e-9 * sn))
        return jnt_errf(err, errn, JNT_ERR_MODEL, "a flexible2d body needs a mass matrix that "
                        "acts alike on ux and uy at every node and couples no ux with a uy "
                        "(the consistent or lumped mass of plane elements)");
    return JNT_OK;
}
