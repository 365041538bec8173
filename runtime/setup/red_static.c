/*
 * red_static.c: static reductions. Static deformation shapes K^-1 e_j
 * (Guyan's static modes, seed 000 eq. 5's Phi_S) and Craig-Bampton's
 * basis: constraint modes of the boundary DOFs followed by fixed-interface
 * normal modes. The solves go through CHOLMOD (red_solve.c); the
 * fixed-interface eigenproblem through red_eig_fact (dense or ARPACK),
 * which shares Craig-Bampton's one factorisation of K_ii.
 */
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"
#include "fe_priv.h"
#include "red_impl.h"

/* Check a DOF list: in range, no repeats. mark (n ints) is scratch, left 0. */
static int check_dofs(const char *what, int n, const int *dofs, int ndofs, int *mark, char *err,
                      size_t errn)
{
    int rc = JNT_OK;
    if (ndofs < 1 || !dofs)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "%s: no DOFs given", what);
    for (int i = 0; i < ndofs && rc == JNT_OK; i++) {
        if (dofs[i] < 0 || dofs[i] >= n)
            rc = jnt_errf(err, errn, JNT_ERR_PARAM, "%s: DOF %d is out of range (0..%d)", what,
                          dofs[i], n - 1);
        else if (mark[dofs[i]]++)
            rc = jnt_errf(err, errn, JNT_ERR_PARAM, "%s: DOF %d is given twice", what, dofs[i]);
    }
    for (int i = 0; i < ndofs; i++)
        if (dofs[i] >= 0 && dofs[i] < n)
            mark[dofs[i]] = 0;
    return rc;
}

/* The message for a K_ii (boundary DOFs fixed) that does not factorise. */
static int singular(const char *what, char *err, size_t errn)
{
    return jnt_errf(err, errn, JNT_ERR_MODEL,
                    "%s: the stiffness matrix with the given DOFs fixed is singular or not "
                    "positive definite (they do not hold the structure: fix a set, or give "
                    "DOFs that stop its rigid-body motion)", what);
}

static int cb_basis(const char *what, const fe_model *m, const int *keep, int nkeep, int modes,
                    red_basis *out, char *err, size_t errn);

/* See red.h. Column j is the static deflection under a unit load at dofs[j];
 * for a singular K, the Guyan constraint modes of dofs (red_craig_bampton
 * without normal modes): when K is regular both span the static responses
 * to loads at dofs (interior unloaded, so in static equilibrium). */
int red_static(const fe_model *m, const int *dofs, int ndofs, red_basis *out, char *err,
               size_t errn)
{
    if (!m || !out)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_static: bad arguments");
    memset(out, 0, sizeof *out);
    int n = m->ndof;
    int *mark = calloc((size_t)n + 1, sizeof *mark);
    if (!mark)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
    int rc = check_dofs("static", n, dofs, ndofs, mark, err, errn);
    free(mark);
    if (rc != JNT_OK)
        return rc;
    double *phi = calloc((size_t)n * (size_t)ndofs, sizeof *phi);
    if (!phi)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for %d static shapes of %d DOFs",
                        ndofs, n);
    for (int j = 0; j < ndofs; j++)
        phi[(size_t)n * (size_t)j + (size_t)dofs[j]] = 1.0;
    red_fact *f = NULL;
    rc = red_fact_new(&m->K, NULL, 0, &f, err, errn);
    if (rc == 1) {
        free(phi);
        return cb_basis("static", m, dofs, ndofs, 0, out, err, errn);
    }
    if (rc == JNT_OK)
        rc = red_fact_solve(f, phi, ndofs, err, errn);
    red_fact_free(f);
    if (rc != JNT_OK) {
        free(phi);
        return rc;
    }
    out->n = n;
    out->r = ndofs;
    out->phi = phi;
    return JNT_OK;
}

/*
 * See red.h. With the interior DOFs i and the boundary DOFs b (= keep):
 * constraint mode j has u_b = e_j and u_i = -K_ii^-1 K_ib e_j (interior in
 * static equilibrium, no interior load), so K psi_j is zero on the interior;
 * fixed-interface mode k is the k-th eigenvector of (K_ii, M_ii),
 * M_ii-normalised, zero on the boundary.
 */
int red_craig_bampton(const fe_model *m, const int *keep, int nkeep, int modes, red_basis *out,
                      char *err, size_t errn)
{
    if (!m || !out)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_craig_bampton: bad arguments");
    return cb_basis("craig_bampton", m, keep, nkeep, modes, out, err, errn);
}

/* In place, nc interior vectors (ni rows each, packed at v) become nc
 * vectors of n rows (the same memory, n x nc): interior DOF i (map[i] >= 0)
 * takes row map[i] of its column, the others are zero. Going from the last
 * entry to the first, each entry is written at an index at or above the one
 * it is read from (map[i] <= i, ni <= n) and above every entry still to be
 * read, so no entry is overwritten before it is read. */
static void expand_interior(int n, const int *map, int ni, int nc, double *v)
{
    for (int j = nc - 1; j >= 0; j--)
        for (int i = n - 1; i >= 0; i--)
            v[(size_t)n * (size_t)j + (size_t)i] =
                map[i] >= 0 ? v[(size_t)ni * (size_t)j + (size_t)map[i]] : 0.0;
}

/* Craig-Bampton's basis; `what` names the caller in messages. Each block of
 * vectors is computed on the interior, packed in the basis's own columns,
 * and expanded in place: no n x r work array beside the basis. */
static int cb_basis(const char *what, const fe_model *m, const int *keep, int nkeep, int modes,
                    red_basis *out, char *err, size_t errn)
{
    memset(out, 0, sizeof *out);
    int n = m->ndof, rc;
    int *map = calloc((size_t)n + 1, sizeof *map);
    if (!map)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
    if ((rc = check_dofs(what, n, keep, nkeep, map, err, errn)) != JNT_OK) {
        free(map);
        return rc;
    }
    int ni = n - nkeep;
    if (modes < 0 || modes > ni) {
        free(map);
        return jnt_errf(err, errn, JNT_ERR_PARAM,
                        "%s: modes = %d, the interior has %d DOFs", what, modes, ni);
    }
    /* map: interior DOF -> its interior index, boundary DOF -> -1. */
    for (int j = 0; j < nkeep; j++)
        map[keep[j]] = -1;
    for (int i = 0, k = 0; i < n; i++)
        if (map[i] == 0)
            map[i] = k++;
    int r = nkeep + modes;
    double *phi = calloc((size_t)n * (size_t)r, sizeof *phi);
    double *lambda = malloc((size_t)(modes > 0 ? modes : 1) * sizeof *lambda);
    fe_sparse kii = {0}, mii = {0};
    red_fact *f = NULL;
    if (!phi || !lambda) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for a Craig-Bampton basis of %d "
                      "vectors of %d DOFs", r, n);
        goto done;
    }
    if (ni == 0) { /* everything kept: the identity */
        for (int j = 0; j < nkeep; j++)
            phi[(size_t)n * (size_t)j + (size_t)keep[j]] = 1.0;
        goto finish;
    }
    if (fe_sparse_sub(&m->K, map, ni, &kii) != JNT_OK) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the interior matrices");
        goto done;
    }
    rc = red_fact_new(&kii, NULL, 0, &f, err, errn);
    if (rc == 1)
        rc = singular(what, err, errn);
    if (rc != JNT_OK)
        goto done;
    /* Fixed-interface modes, zero on the boundary, in the last columns; the
     * sparse eigensolver's shift is 0 (K_ii is regular), so it uses this
     * factor of K_ii. Before the constraint modes: their columns are not
     * yet written (not resident) while the eigensolver's work is. */
    if (modes > 0) {
        double *v = phi + (size_t)n * (size_t)nkeep;
        if (fe_sparse_sub(&m->M, map, ni, &mii) != JNT_OK) {
            rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the interior matrices");
            goto done;
        }
        if ((rc = red_eig_fact(&kii, &mii, modes, RED_SPARSE_DEFAULT, f, v, lambda, err,
                               errn)) != JNT_OK)
            goto done;
        expand_interior(n, map, ni, modes, v);
    }
    /* the constraint modes need only the factor and K's boundary columns */
    fe_sparse_free(&kii);
    fe_sparse_free(&mii);
    /* Constraint modes, a block at a time in their own columns: rhs_j =
     * -K_ib e_j (column keep[j] of K, interior rows), solved, expanded, and
     * u_b = e_j. */
    for (int j0 = 0; j0 < nkeep; j0 += RED_SOLVE_BLOCK) {
        int nb = nkeep - j0 < RED_SOLVE_BLOCK ? nkeep - j0 : RED_SOLVE_BLOCK;
        double *rhs = phi + (size_t)n * (size_t)j0;
        memset(rhs, 0, (size_t)ni * (size_t)nb * sizeof *rhs);
        for (int j = 0; j < nb; j++) {
            int c = keep[j0 + j];
            for (int p = m->K.colptr[c]; p < m->K.colptr[c + 1]; p++)
                if (map[m->K.rowind[p]] >= 0)
                    rhs[(size_t)ni * (size_t)j + (size_t)map[m->K.rowind[p]]] = -m->K.val[p];
        }
        if ((rc = red_fact_solve(f, rhs, nb, err, errn)) != JNT_OK)
            goto done;
        expand_interior(n, map, ni, nb, rhs);
        for (int j = 0; j < nb; j++)
            phi[(size_t)n * (size_t)(j0 + j) + (size_t)keep[j0 + j]] = 1.0;
    }
finish:
    out->n = n;
    out->r = r;
    out->phi = phi;
    phi = NULL;
    rc = JNT_OK;
done:
    red_fact_free(f);
    fe_sparse_free(&kii);
    fe_sparse_free(&mii);
    free(map);
    free(phi);
    free(lambda);
    return rc;
}
