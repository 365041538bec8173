/*
 * red_util.c: bases of trial vectors and what is done with any basis:
 * appending, the reduced matrices Phi^T A Phi, the modal assurance
 * criterion, mode-shape orthogonalisation (seed 000 eqs. 10-11), and the
 * small helpers of the other red_ files (sub-matrices, signs).
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"
#include "red_impl.h"

/* See red.h. */
void red_basis_free(red_basis *b)
{
    if (!b)
        return;
    free(b->phi);
    b->phi = NULL;
    b->r = 0;
}

/* See red.h. An empty a (r == 0) takes b's n. */
int red_basis_append(red_basis *a, const red_basis *b, char *err, size_t errn)
{
    if (!a || !b || b->r < 0 || (b->r > 0 && !b->phi))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_basis_append: bad arguments");
    if (b->r == 0)
        return JNT_OK;
    if (a->r == 0)
        a->n = b->n;
    if (a->n != b->n)
        return jnt_errf(err, errn, JNT_ERR_USAGE,
                        "cannot append a basis of %d DOFs to one of %d DOFs", b->n, a->n);
    size_t n = (size_t)a->n;
    double *phi = realloc(a->phi, n * (size_t)(a->r + b->r) * sizeof *phi);
    if (!phi)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for a basis of %d vectors",
                        a->r + b->r);
    memcpy(phi + n * (size_t)a->r, b->phi, n * (size_t)b->r * sizeof *phi);
    a->phi = phi;
    a->r += b->r;
    return JNT_OK;
}

/* P = Phi^T A Phi (r x r) for a symmetric A; ap is n x RED_SOLVE_BLOCK
 * scratch. Column block [j0, j0 + nb) of A Phi gives the rows [0, j0 + nb)
 * of those columns of P: the upper block triangle, half the products of
 * the full Phi^T (A Phi); the diagonal blocks are symmetrised, the rest of
 * the lower triangle mirrored. */
static void project_one(const fe_sparse *a, const red_basis *b, double *ap, double *p)
{
    size_t n = (size_t)b->n, r = (size_t)b->r;
    for (int j0 = 0; j0 < b->r; j0 += RED_SOLVE_BLOCK) {
        int nb = b->r - j0 < RED_SOLVE_BLOCK ? b->r - j0 : RED_SOLVE_BLOCK;
        for (int j = 0; j < nb; j++)
            fe_sparse_mul(a, b->phi + n * (size_t)(j0 + j), ap + n * (size_t)j);
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, j0 + nb, nb, b->n, 1.0, b->phi,
                    b->n, ap, b->n, 0.0, p + r * (size_t)j0, b->r);
    }
    for (size_t j = 0; j < r; j++) {
        size_t j0 = j - j % RED_SOLVE_BLOCK;
        for (size_t i = 0; i < j0; i++)
            p[j + i * r] = p[i + j * r];
        for (size_t i = j0; i < j; i++)
            p[i + j * r] = p[j + i * r] = 0.5 * (p[i + j * r] + p[j + i * r]);
    }
}

/* See red_impl.h. Rows [i0, i0 + m) of phi are copied to tmp (m x r) and
 * their product with Y written back over the first rn columns: each row of
 * the result depends only on the same row of phi. */
void red_mul_inplace(int n, int r, double *phi, const double *y, int ldy, int rn, double *tmp)
{
    for (int i0 = 0; i0 < n; i0 += RED_ROW_BLOCK) {
        int m = n - i0 < RED_ROW_BLOCK ? n - i0 : RED_ROW_BLOCK;
        for (int j = 0; j < r; j++)
            memcpy(tmp + (size_t)m * (size_t)j, phi + (size_t)n * (size_t)j + (size_t)i0,
                   (size_t)m * sizeof *tmp);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, rn, r, 1.0, tmp, m, y, ldy,
                    0.0, phi + i0, n);
    }
}

/* See red.h. */
int red_project(const fe_model *m, const red_basis *b, double *Mr, double *Kr, double *Cr,
                char *err, size_t errn)
{
    if (!m || !b || (b->r > 0 && !b->phi) || b->n != m->ndof)
        return jnt_errf(err, errn, JNT_ERR_USAGE,
                        "red_project: the basis does not match the model's %d DOFs",
                        m ? m->ndof : 0);
    if (b->r == 0)
        return JNT_OK;
    int nb = b->r < RED_SOLVE_BLOCK ? b->r : RED_SOLVE_BLOCK;
    double *ap = malloc((size_t)b->n * (size_t)nb * sizeof *ap);
    if (!ap)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory projecting %d vectors", b->r);
    if (Mr)
        project_one(&m->M, b, ap, Mr);
    if (Kr)
        project_one(&m->K, b, ap, Kr);
    if (Cr) {
        if (m->C.n > 0)
            project_one(&m->C, b, ap, Cr);
        else
            memset(Cr, 0, (size_t)b->r * (size_t)b->r * sizeof *Cr);
    }
    free(ap);
    return JNT_OK;
}

/* See red.h. 0 when either vector is zero. */
double red_mac(const double *a, const double *b, int n)
{
    double ab = 0, aa = 0, bb = 0;
    for (int i = 0; i < n; i++) {
        ab += a[i] * b[i];
        aa += a[i] * a[i];
        bb += b[i] * b[i];
    }
    return aa > 0 && bb > 0 ? ab * ab / (aa * bb) : 0.0;
}

/* See red_impl.h. */
void red_fix_signs(int n, int r, double *phi)
{
    for (int j = 0; j < r; j++) {
        double *v = phi + (size_t)n * (size_t)j;
        int imax = 0;
        for (int i = 1; i < n; i++)
            if (fabs(v[i]) > fabs(v[imax]))
                imax = i;
        if (n > 0 && v[imax] < 0)
            for (int i = 0; i < n; i++)
                v[i] = -v[i];
    }
}

/*
 * See red.h. Seed 000 eqs. 10-11: with the reduced matrices M~, K~ of the
 * basis, solve (K~ - w M~) y = 0, Phi_free = Phi Y, and reject the columns
 * of (near) zero eigenvalue. The columns are first scaled to unit M-norm and
 * M~ is diagonalised: directions with eigenvalue below 1e-10 (columns that
 * are linear combinations of others, e.g. JTVs inside the span of static
 * shapes at the same DOFs) are dropped too, so M~ may be singular. The new
 * columns are M-orthonormal and K-orthogonal, by ascending eigenvalue.
 */
int red_orthogonalize(const fe_model *m, red_basis *b, double zero_tol, char *err, size_t errn)
{
    if (!m || !b || b->n != m->ndof || b->r <= 0 || !b->phi)
        return jnt_errf(err, errn, JNT_ERR_USAGE,
                        "red_orthogonalize: the basis is empty or does not match the model");
    int r = b->r, rc = JNT_OK;
    size_t rr = (size_t)r * (size_t)r;
    double *mr = malloc(rr * sizeof *mr), *kr = malloc(rr * sizeof *kr);
    double *t = malloc(rr * sizeof *t), *kt = malloc(rr * sizeof *kt);
    double *s = malloc((size_t)r * sizeof *s), *d = malloc((size_t)r * sizeof *d);
    double *tmp = NULL;
    if (!mr || !kr || !t || !kt || !s || !d) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory orthogonalising %d vectors", r);
        goto done;
    }
    if ((rc = red_project(m, b, mr, kr, NULL, err, errn)) != JNT_OK)
        goto done;
    /* Scale to unit M-norm: M~ := S M~ S, S = diag(1 / sqrt(M~_jj)). */
    for (int j = 0; j < r; j++)
        s[j] = mr[j + (size_t)j * r] > 0 ? 1.0 / sqrt(mr[j + (size_t)j * r]) : 0.0;
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++)
            mr[i + (size_t)j * r] *= s[i] * s[j];
    /* M~ = V D V^T; T = S V_k D_k^-1/2 over the kept directions. */
    if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', r, mr, r, d) != 0) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "the eigensolver (dsyevd) failed on M~");
        goto done;
    }
    int k = 0;
    for (int j = 0; j < r; j++) {
        if (!(d[j] > 1e-10 * d[r - 1]))
            continue;
        for (int i = 0; i < r; i++)
            t[i + (size_t)k * r] = s[i] * mr[i + (size_t)j * r] / sqrt(d[j]);
        k++;
    }
    if (k == 0) {
        rc = jnt_errf(err, errn, JNT_ERR_MODEL, "the basis has no vector of nonzero mass");
        goto done;
    }
    /* Kt = T^T K~ T (k x k), its eigenvectors W: Y = T W (eq. 10). */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, r, k, r, 1.0, kr, r, t, r, 0.0, mr, r);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, k, k, r, 1.0, t, r, mr, r, 0.0, kt, k);
    if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', k, kt, k, d) != 0) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "the eigensolver (dsyevd) failed on K~");
        goto done;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, r, k, k, 1.0, t, r, kt, k, 0.0, mr, r);
    /* Keep the columns above the rigid-body threshold; Phi_free = Phi Y (eq. 11). */
    int first = 0;
    while (first < k && !(d[first] >= zero_tol * d[k - 1] && d[first] > 0))
        first++;
    int rn = k - first;
    if (rn == 0) {
        rc = jnt_errf(err, errn, JNT_ERR_MODEL,
                      "the basis has only rigid-body content (no eigenvalue above %g times the "
                      "largest)", zero_tol);
        goto done;
    }
    /* in place, a block of rows at a time: no second n x r array */
    tmp = malloc((size_t)RED_ROW_BLOCK * (size_t)r * sizeof *tmp);
    if (!tmp) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory orthogonalising %d vectors", r);
        goto done;
    }
    red_mul_inplace(b->n, r, b->phi, mr + (size_t)first * r, r, rn, tmp);
    red_fix_signs(b->n, rn, b->phi);
    b->r = rn;
    /* the columns past rn are no longer used: give them back if realloc can */
    double *shrunk = rn < r ? realloc(b->phi, (size_t)b->n * (size_t)rn * sizeof *shrunk) : NULL;
    if (shrunk)
        b->phi = shrunk;
done:
    free(mr);
    free(kr);
    free(t);
    free(kt);
    free(s);
    free(d);
    free(tmp);
    return rc;
}

/* See setup.h. */
int red_node_rows(const fe_model *fe, const red_basis *b, int node, double angle,
                  const double *origin, double X[2], double *rows, char *err, size_t errn)
{
    if (!fe || !rows || node < 0 || node >= fe->nnode)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_node_rows: no node %d", node);
    if (b && b->n != fe->ndof)
        return jnt_errf(err, errn, JNT_ERR_USAGE,
                        "red_node_rows: the basis has %d rows, the model %d DOFs", b->n,
                        fe->ndof);
    int r = b ? b->r : fe->ndof;
    double co = cos(angle), si = sin(angle);
    memset(rows, 0, 2 * (size_t)r * sizeof *rows);
    /* Local rows of ux and uy (fe_point_dofs: up to 4 DOFs each). */
    for (int c = 0; c < 2; c++) {
        int dof[4];
        double cf[4];
        int nd = fe_point_dofs(fe, node, c == 0 ? FE_UX : FE_UY, dof, cf);
        for (int k = 0; k < nd; k++) {
            /* rotate: u_global = R u_local */
            double gx = c == 0 ? co : -si, gy = c == 0 ? si : co;
            if (b) {
                for (int j = 0; j < r; j++) {
                    double v = cf[k] * b->phi[dof[k] + (size_t)b->n * j];
                    rows[j] += gx * v;
                    rows[r + j] += gy * v;
                }
            } else {
                rows[dof[k]] += gx * cf[k];
                rows[r + dof[k]] += gy * cf[k];
            }
        }
    }
    const double *x = fe->node[node].x;
    X[0] = co * x[0] - si * x[1] + (origin ? origin[0] : 0);
    X[1] = si * x[0] + co * x[1] + (origin ? origin[1] : 0);
    return JNT_OK;
}
