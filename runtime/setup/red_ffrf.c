/*
 * red_ffrf.c: the inertia invariants of a flexible body in a floating frame
 * of reference (planar), computed once from the substructure's mass matrix,
 * its node coordinates and its reduction basis (setup.h).
 *
 * A node's position is r = R + A(theta) (u0 + Phi_k q_f): the frame's
 * origin R, its angle theta, the node's place u0 in the frame and its
 * elastic displacement (seed 000 eqs. 3, 12-15; Shabana, Dynamics of
 * Multibody Systems, 4th ed., Ch. 5). With T_x, T_y the unit translations
 * of every node, P the rotation of every node's vector by +90 degrees and
 * M the FE mass matrix (all nodes, fixed ones included: they move with the
 * frame), the kinetic energy 1/2 rdot^T M rdot gives the mass matrix
 *   M_RR = m I,  M_Rtheta = A Itilde s,  M_Rf = A S1,
 *   M_thetatheta = J0 + 2 j1^T q_f + q_f^T Mr q_f,
 *   M_thetaf = (e0 + E q_f)^T,  M_ff = Mr,
 * with s = s0 + S1 q_f, Itilde = [0 -1; 1 0] and the invariants
 *   m = T_x^T M T_x,  s0 = [T_x T_y]^T M u0,  S1 = [T_x T_y]^T M Phi,
 *   J0 = u0^T M u0,  j1 = Phi^T M u0,  e0 = Phi^T M P u0,  E = Phi^T M P Phi,
 *   Mr = Phi^T M Phi.
 * These forms hold when M acts alike on x and y at every node and couples
 * no x with a y (M commutes with P: consistent or lumped masses of plane
 * elements); red_ffrf checks it. The nodes a substructure fixes (the
 * frame's attachment) move with the frame: they count with the mass matrix
 * of the model before its fixes (M0, the DOFs numbered by dof0).
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"
#include "red_impl.h"

/* See red_impl.h. */
int red_dof_of(const fe_model *fe, const int *dof0, int p, int c)
{
    return dof0 ? dof0[FE_NDOF_NODE * p + c] : fe->node[p].dof[c];
}

/* See red_impl.h. */
int red_plane_mesh(const fe_model *fe, const int *dof0, int n, char *err, size_t errn)
{
    for (int p = 0; p < fe->nnode; p++) {
        const fe_node *nd = &fe->node[p];
        if (nd->master >= 0 || nd->dof[FE_UZ] >= 0 || nd->dof[FE_RX] >= 0 ||
            nd->dof[FE_RY] >= 0 || nd->dof[FE_RZ] >= 0)
            return jnt_errf(err, errn, JNT_ERR_MODEL, "a flexible2d body needs a plane mesh "
                            "with the DOFs ux and uy only (node %d has others)", nd->id);
        int ix = red_dof_of(fe, dof0, p, FE_UX), iy = red_dof_of(fe, dof0, p, FE_UY);
        if (ix < 0 || iy < 0 || ix >= n || iy >= n)
            return jnt_errf(err, errn, JNT_ERR_MODEL, "a flexible2d body needs a plane mesh "
                            "with the DOFs ux and uy at every node (node %d lacks one)", nd->id);
    }
    return JNT_OK;
}

/* The nodes' vectors of v (n) rotated by +90 degrees: (vx, vy) -> (-vy, vx). */
static void rotate90(const fe_model *fe, const int *dof0, int n, const double *v, double *out)
{
    memset(out, 0, (size_t)n * sizeof *out);
    for (int p = 0; p < fe->nnode; p++) {
        int ix = red_dof_of(fe, dof0, p, FE_UX), iy = red_dof_of(fe, dof0, p, FE_UY);
        out[ix] = -v[iy];
        out[iy] = v[ix];
    }
}

static double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* See setup.h. */
int red_ffrf(const fe_model *fe, const red_basis *b, const fe_sparse *M0, const int *dof0,
             double *inv, char *err, size_t errn)
{
    if (!fe || !b || !inv || b->n != fe->ndof || b->r < 1 || (dof0 && !M0))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_ffrf: the basis does not match the model");
    const fe_sparse *M = dof0 ? M0 : &fe->M;
    int n = M->n, r = b->r;
    int rc = red_plane_mesh(fe, dof0, n, err, errn);
    if (rc != JNT_OK)
        return rc;
    /* columns: T_x, T_y, u0, P u0, then Phi's; and M times each */
    int nc = 4 + r;
    double *v = calloc((size_t)n * nc * 2 + 1, sizeof *v);
    if (!v)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    double *mv = v + (size_t)n * nc;
    double *tx = v, *ty = v + n, *u0 = v + 2 * (size_t)n, *pu0 = v + 3 * (size_t)n;
    for (int p = 0; p < fe->nnode; p++) {
        const fe_node *nd = &fe->node[p];
        int ix = red_dof_of(fe, dof0, p, FE_UX), iy = red_dof_of(fe, dof0, p, FE_UY);
        tx[ix] = 1.0;
        ty[iy] = 1.0;
        u0[ix] = nd->x[0];
        u0[iy] = nd->x[1];
        /* the trial vectors in the unfixed numbering: 0 at fixed nodes */
        for (int c = 0; c < 2; c++) {
            int to = c ? iy : ix, from = nd->dof[c];
            for (int k = 0; from >= 0 && k < r; k++)
                v[(size_t)(4 + k) * n + to] = b->phi[(size_t)k * b->n + from];
        }
    }
    rotate90(fe, dof0, n, u0, pu0);
    for (int c = 0; c < nc; c++)
        fe_sparse_mul(M, v + (size_t)c * n, mv + (size_t)c * n);
    /* M must commute with P: M P x = P M x for x = u0 and every trial vector */
    double *px = malloc(2 * (size_t)n * sizeof *px + 1);
    int bad = !px;
    for (int c = 2; !bad && c < nc; c++) {
        if (c == 3)
            continue;
        const double *x = v + (size_t)c * n;
        rotate90(fe, dof0, n, x, px);
        fe_sparse_mul(M, px, px + n);                  /* M P x */
        rotate90(fe, dof0, n, mv + (size_t)c * n, px); /* P M x */
        double dn = 0.0, sn = 0.0;
        for (int i = 0; i < n; i++) {
            dn = fmax(dn, fabs(px[n + i] - px[i]));
            sn = fmax(sn, fabs(px[i]));
        }
        bad = dn > 1e-9 * sn;
    }
    free(px);
    if (bad) {
        free(v);
        return jnt_errf(err, errn, JNT_ERR_MODEL, "a flexible2d body needs a mass matrix that "
                        "acts alike on ux and uy at every node and couples no ux with a uy "
                        "(the consistent or lumped mass of plane elements)");
    }
    const double *mtx = mv, *mty = mv + n, *mu0 = mv + 2 * (size_t)n, *mpu0 = mv + 3 * (size_t)n;
    const double *phi = v + 4 * (size_t)n;
    double *o = inv;
    o[0] = dot(n, tx, mtx);
    o[1] = dot(n, mtx, u0);
    o[2] = dot(n, mty, u0);
    o[3] = dot(n, u0, mu0);
    double *S1 = inv + JNT_FFRF_S1, *j1 = inv + JNT_FFRF_S1 + 2 * (size_t)r;
    double *e0 = j1 + r, *E = e0 + r, *Mr = E + (size_t)r * r;
    for (int k = 0; k < r; k++) {
        const double *pk = phi + (size_t)k * n;
        S1[2 * k] = dot(n, mtx, pk);
        S1[2 * k + 1] = dot(n, mty, pk);
        j1[k] = dot(n, pk, mu0);
        e0[k] = dot(n, pk, mpu0);
    }
    /* E = Phi^T M P Phi = (M Phi)^T (P Phi) (M symmetric), RED_SOLVE_BLOCK
     * columns of P Phi at a time; Mr = (M Phi)^T Phi */
    const double *mphi = mv + 4 * (size_t)n;
    double *pphi = malloc((size_t)n * RED_SOLVE_BLOCK * sizeof *pphi + 1);
    if (!pphi) {
        free(v);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    }
    for (int j0 = 0; j0 < r; j0 += RED_SOLVE_BLOCK) {
        int nb = r - j0 < RED_SOLVE_BLOCK ? r - j0 : RED_SOLVE_BLOCK;
        for (int j = 0; j < nb; j++)
            rotate90(fe, dof0, n, phi + (size_t)(j0 + j) * n, pphi + (size_t)j * n);
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, r, nb, n, 1.0, mphi, n, pphi, n,
                    0.0, E + (size_t)j0 * r, r);
    }
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, r, r, n, 1.0, mphi, n, phi, n, 0.0, Mr,
                r);
    free(pphi);
    free(v);
    /* the body's mass matrix at q_f = 0, theta = 0 must be positive definite:
     * a basis with rigid-body motion in it makes it singular */
    int nm = 3 + r;
    double *mm = calloc((size_t)nm * nm + 1, sizeof *mm);
    if (!mm)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    mm[0] = mm[nm + 1] = inv[0];
    mm[2] = mm[2 * nm] = -inv[2];
    mm[nm + 2] = mm[2 * nm + 1] = inv[1];
    mm[2 * nm + 2] = inv[3];
    for (int j = 0; j < r; j++) {
        size_t c = (size_t)(3 + j) * nm;
        mm[c] = mm[3 + j] = S1[2 * j];
        mm[c + 1] = mm[nm + 3 + j] = S1[2 * j + 1];
        mm[c + 2] = mm[2 * nm + 3 + j] = e0[j];
        for (int i = 0; i < r; i++)
            mm[c + 3 + i] = Mr[(size_t)j * r + i];
    }
    /* singular to rounding: a pivot below 1e-10 of its diagonal entry */
    double *dg = malloc((size_t)nm * sizeof *dg);
    if (!dg) {
        free(mm);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    }
    for (int i = 0; i < nm; i++)
        dg[i] = mm[(size_t)i * nm + i];
    int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', nm, mm, nm);
    for (int i = 0; info == 0 && i < nm; i++) {
        double l = mm[(size_t)i * nm + i];
        if (!(l * l > 1e-10 * dg[i]))
            info = 1 + i;
    }
    free(dg);
    free(mm);
    if (info != 0)
        return jnt_errf(err, errn, JNT_ERR_MODEL, "the flexible body's mass matrix is singular: "
                        "its basis holds rigid-body motion (fix the node set the frame is "
                        "attached to, or reduce with static shapes or joint trial vectors, "
                        "which are orthogonalised)");
    return JNT_OK;
}

/* See setup.h. With T = [T_x, T_y, P u0] the rigid-body fields, each trial
 * vector loses its rigid part in the mass inner product,
 *   phi := phi - T (T^T M T)^-1 T^T M phi,
 * so that T^T M Phi = 0: m-weighted, the elastic displacements have no
 * mean translation (S1 = 0) and no mean rotation (e0 = 0) about the mesh
 * origin, the mean-axis conditions; then red_orthogonalize drops what is
 * left of the rigid-body vectors and dependent columns. */
int red_mean_axes(const fe_model *fe, red_basis *b, char *err, size_t errn)
{
    if (!fe || !b || b->n != fe->ndof || b->r < 1)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_mean_axes: the basis does not match "
                        "the model");
    int n = fe->ndof, r = b->r;
    for (int p = 0; p < fe->nnode; p++) {
        const fe_node *nd = &fe->node[p];
        if (nd->master >= 0 || nd->dof[FE_UX] < 0 || nd->dof[FE_UY] < 0 ||
            nd->dof[FE_UZ] >= 0 || nd->dof[FE_RX] >= 0 || nd->dof[FE_RY] >= 0 ||
            nd->dof[FE_RZ] >= 0)
            return jnt_errf(err, errn, JNT_ERR_MODEL, "mean axes need a free plane mesh with "
                            "the DOFs ux and uy at every node (node %d: fixed, or others)",
                            nd->id);
    }
    double *t = calloc(6 * (size_t)n + 1, sizeof *t), *mt = t + 3 * (size_t)n;
    double *c = malloc(3 * (size_t)r * sizeof *c + 1);
    if (!t || !c) {
        free(t), free(c);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the mean axes");
    }
    for (int p = 0; p < fe->nnode; p++) {
        const fe_node *nd = &fe->node[p];
        int ix = nd->dof[FE_UX], iy = nd->dof[FE_UY];
        t[ix] = 1.0, t[n + iy] = 1.0;
        t[2 * (size_t)n + ix] = -nd->x[1], t[2 * (size_t)n + iy] = nd->x[0];
    }
    for (int k = 0; k < 3; k++)
        fe_sparse_mul(&fe->M, t + (size_t)k * n, mt + (size_t)k * n);
    /* each column's M-norm^2 before: a column that loses all but 1e-12 of it
     * was rigid-body motion (its remainder is round-off) */
    double *nrm = malloc((size_t)r * sizeof *nrm + 1), *mp = malloc((size_t)n * sizeof *mp + 1);
    if (!nrm || !mp) {
        free(t), free(c), free(nrm), free(mp);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the mean axes");
    }
    for (int j = 0; j < r; j++) {
        fe_sparse_mul(&fe->M, b->phi + (size_t)j * n, mp);
        nrm[j] = cblas_ddot(n, mp, 1, b->phi + (size_t)j * n, 1);
    }
    /* G = T^T M T (3 x 3), C = G^-1 (T M)^T Phi (3 x r), Phi -= T C */
    double g[9];
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, 3, 3, n, 1.0, t, n, mt, n, 0.0, g, 3);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, 3, r, n, 1.0, mt, n, b->phi, n, 0.0, c,
                3);
    int info = LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', 3, r, g, 3, c, 3);
    if (info == 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, r, 3, -1.0, t, n, c, 3, 1.0,
                    b->phi, n);
    free(t), free(c);
    int k = 0;
    for (int j = 0; info == 0 && j < r; j++) {
        fe_sparse_mul(&fe->M, b->phi + (size_t)j * n, mp);
        if (!(cblas_ddot(n, mp, 1, b->phi + (size_t)j * n, 1) > 1e-12 * nrm[j]))
            continue;
        if (k != j)
            memcpy(b->phi + (size_t)k * n, b->phi + (size_t)j * n, (size_t)n * sizeof *b->phi);
        k++;
    }
    free(nrm), free(mp);
    if (info != 0)
        return jnt_errf(err, errn, JNT_ERR_MODEL, "mean axes: the mesh has no mass to define "
                        "them");
    if (k == 0)
        return jnt_errf(err, errn, JNT_ERR_MODEL, "mean axes: the basis holds rigid-body "
                        "motion only");
    b->r = k;
    return red_orthogonalize(fe, b, 1e-10, err, errn);
}
