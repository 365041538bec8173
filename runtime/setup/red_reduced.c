/*
 * red_reduced.c: what is computed on the reduced model of a substructure,
 *   Mr q'' + Cr q' + Kr q = g,   Mr = Phi^T M Phi, ...   (seed 000 eq. 4)
 * once its basis Phi is known: modal damping in the reduced space, Mr^-1 and
 * its products with Kr and Cr (the blocks' matrices), the row of Phi at a
 * point, the loads of an accelerating frame, the acceleration of a point in
 * terms of the forces on the others (sticking elements), and the comparison
 * of the reduced model's modes with the full model's. The compiler calls
 * these while it lowers a substructure (compiler/sema_sub*.c); matrices are
 * r x r, column-major, and the arithmetic is done in the order the generated
 * model data has always been computed in (the golden files pin it).
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"
#include "red_impl.h"

/* Y and lambda of Kr Y = Mr Y diag(lambda), Y^T Mr Y = I (LAPACK dsygv, lower
 * triangles): Y in y (r x r), lambda ascending in lam (r). 0 or a status. */
static int reduced_eig(int r, const double *Mr, const double *Kr, double *y, double *lam,
                       char *err, size_t errn)
{
    double *b = malloc((size_t)r * (size_t)r * sizeof *b);
    if (!b)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for a %d x %d eigenproblem", r,
                        r);
    memcpy(y, Kr, (size_t)r * (size_t)r * sizeof *y);
    memcpy(b, Mr, (size_t)r * (size_t)r * sizeof *b);
    lapack_int info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'L', r, y, r, b, r, lam);
    free(b);
    if (info > r)
        return jnt_errf(err, errn, JNT_ERR_MODEL, "the reduced mass matrix is not positive "
                        "definite (leading minor %d)", (int)(info - r));
    if (info != 0)
        return jnt_errf(err, errn, JNT_ERR_SOLVER, "the eigensolver (dsygv) failed on the "
                        "reduced matrices (info %d)", (int)info);
    return JNT_OK;
}

/* See setup.h. With T = Mr Y, Cr += T diag(2 zeta w) T^T; since Y^-1 = Y^T Mr,
 * T = Y^-T and Y^T Cr Y gains diag(2 zeta w_i). Rigid-body modes (round-off
 * eigenvalues of either sign) get w = 0. */
int red_modal_damping(int r, const double *Mr, const double *Kr, double zeta, double *Cr,
                      char *err, size_t errn)
{
    if (r < 1 || !Mr || !Kr || !Cr)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_modal_damping: bad arguments");
    double *y = malloc((size_t)r * (size_t)r * sizeof *y), *lam = malloc((size_t)r * sizeof *lam);
    double *t = calloc((size_t)r * (size_t)r, sizeof *t);
    int rc = y && lam && t ? reduced_eig(r, Mr, Kr, y, lam, err, errn)
                           : jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for modal damping "
                                      "of %d coordinates", r);
    if (rc == JNT_OK) {
        /* T = Mr Y, each column m scaled by sqrt(2 zeta w_m); then Cr += T T^T */
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, r, r, r, 1.0, Mr, r, y, r, 0.0,
                    t, r);
        for (int m = 0; m < r; m++)
            cblas_dscal(r, sqrt(2 * zeta * sqrt(fmax(lam[m], 0))), t + (size_t)m * r, 1);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, r, r, r, 1.0, t, r, t, r, 1.0, Cr,
                    r);
    }
    free(y);
    free(lam);
    free(t);
    return rc;
}

/* See setup.h. Cholesky (dpotrf, dpotri) on the lower triangle of a copy of
 * Mr, then the upper triangle mirrored, then the two products (BLAS dsymm). */
int red_mass_inverse(int r, const double *Mr, const double *Kr, const double *Cr, double *Minv,
                     double *MinvK, double *MinvC, char *err, size_t errn)
{
    if (r < 1 || !Mr || !Kr || !Cr || !Minv || !MinvK || !MinvC)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_mass_inverse: bad arguments");
    size_t rr = (size_t)r * (size_t)r;
    memcpy(Minv, Mr, rr * sizeof *Minv);
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', r, Minv, r);
    if (info == 0)
        info = LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', r, Minv, r);
    if (info != 0)
        return jnt_errf(err, errn, JNT_ERR_MODEL, "the reduced mass matrix is singular (basis "
                        "vectors are dependent?)");
    for (int j = 0; j < r; j++) /* complete the upper triangle */
        for (int i = 0; i < j; i++)
            Minv[(size_t)j * r + i] = Minv[(size_t)i * r + j];
    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, r, r, 1.0, Minv, r, Kr, r, 0.0, MinvK, r);
    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, r, r, 1.0, Minv, r, Cr, r, 0.0, MinvC, r);
    return JNT_OK;
}

/* See setup.h. */
int red_point_row(const fe_model *fe, const red_basis *b, int node, int comp, double *row,
                  char *err, size_t errn)
{
    if (!fe || !b || !row || b->n != fe->ndof || node < 0 || node >= fe->nnode || comp < 0 ||
        comp >= FE_NDOF_NODE)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_point_row: no component %d of node %d "
                        "in this model and basis", comp, node);
    int dof[4];
    double c[4];
    int nt = fe_point_dofs(fe, node, comp, dof, c);
    memset(row, 0, (size_t)b->r * sizeof *row);
    for (int t = 0; t < nt; t++)
        for (int k = 0; k < b->r; k++)
            row[k] += c[t] * b->phi[(size_t)k * b->n + dof[t]];
    return nt;
}

/* See setup.h. */
int red_frame_load(const fe_model *fe, const red_basis *b, int comp, double *gt, char *err,
                   size_t errn)
{
    if (!fe || !b || !gt || b->n != fe->ndof || (comp != FE_UX && comp != FE_UY))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_frame_load: the basis does not match the "
                        "model, or the component is not ux or uy");
    int n = fe->ndof;
    double *t = calloc((size_t)n + 1, sizeof *t), *mt = calloc((size_t)n + 1, sizeof *mt);
    if (!t || !mt) {
        free(t);
        free(mt);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the frame loads of %d DOFs",
                        n);
    }
    for (int p = 0; p < fe->nnode; p++) {
        int dof = fe->node[p].dof[comp];
        if (dof >= 0)
            t[dof] = 1;
    }
    fe_sparse_mul(&fe->M, t, mt);
    for (int k = 0; k < b->r; k++) {
        double g = 0;
        for (int i = 0; i < n; i++)
            g += b->phi[(size_t)k * n + i] * mt[i];
        gt[k] = g;
    }
    free(t);
    free(mt);
    return JNT_OK;
}

/* See setup.h. w = Minv c (Minv symmetric: c^T Minv = w^T). */
int red_point_accel(int r, const double *Minv, const double *MinvK, const double *MinvC,
                    const double *c, int npt, const double *const *rows, double *wp,
                    double *ck, double *cc, double *alpha, char *err, size_t errn)
{
    if (r < 1 || !Minv || !MinvK || !MinvC || !c || npt < 0 || (npt > 0 && (!rows || !wp)) ||
        !ck || !cc || !alpha)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_point_accel: bad arguments");
    double *w = calloc((size_t)r, sizeof *w), al = 0;
    if (!w)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for %d coordinates", r);
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++)
            w[i] += Minv[(size_t)j * r + i] * c[j];
    for (int i = 0; i < r; i++)
        al += c[i] * w[i];
    *alpha = al;
    for (int p = 0; p < npt; p++) {
        double s = 0;
        for (int k = 0; k < r; k++)
            s += w[k] * rows[p][k];
        wp[p] = s;
    }
    for (int k = 0; k < r; k++) {
        double sk = 0, sc = 0;
        for (int i = 0; i < r; i++) {
            sk += c[i] * MinvK[(size_t)k * r + i];
            sc += c[i] * MinvC[(size_t)k * r + i];
        }
        ck[k] = sk;
        cc[k] = sc;
    }
    free(w);
    return JNT_OK;
}

/* See setup.h. The expanded shapes x_k = Phi y_k carry the sign that makes
 * x_k . phi_k >= 0 (the eigensolvers' signs are arbitrary); MAC does not
 * depend on it. */
int red_compare_modes(const red_basis *b, const double *Mr, const double *Kr,
                      const red_basis *full, double *w_red, double *mac, double *shapes,
                      char *err, size_t errn)
{
    if (!b || !Mr || !Kr || !full || !w_red || !mac || !shapes || full->n != b->n ||
        full->r < 1 || full->r > b->r)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_compare_modes: %d modes of %d DOFs "
                        "against a basis of %d vectors of %d DOFs", full ? full->r : 0,
                        full ? full->n : 0, b ? b->r : 0, b ? b->n : 0);
    int n = b->n, r = b->r, count = full->r;
    double *y = malloc((size_t)r * (size_t)r * sizeof *y), *lam = malloc((size_t)r * sizeof *lam);
    int rc = y && lam ? reduced_eig(r, Mr, Kr, y, lam, err, errn)
                      : jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the modes of %d "
                                 "coordinates", r);
    if (rc == JNT_OK) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, count, r, 1.0, b->phi, n, y,
                    r, 0.0, shapes, n); /* Phi y_k */
        for (int k = 0; k < count; k++) {
            double *x = shapes + (size_t)k * n;
            const double *f = full->phi + (size_t)k * n;
            w_red[k] = sqrt(fmax(lam[k], 0));
            mac[k] = red_mac(f, x, n);
            double dot = 0;
            for (int i = 0; i < n; i++)
                dot += f[i] * x[i];
            if (dot < 0)
                for (int i = 0; i < n; i++)
                    x[i] = -x[i];
        }
    }
    free(y);
    free(lam);
    return rc;
}
