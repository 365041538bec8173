/*
 * fe_import.c: a finite-element model from files (fe.h): M, K, C in Matrix
 * Market, the node table in CSV, and the checks that the matrices fit
 * together: sizes, DOF indices of the nodes, symmetry of M and K, and a
 * positive definite M (a banded Cholesky factorisation, LAPACKE dpbtrf).
 */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#include "fe_priv.h"

_Static_assert(sizeof(lapack_int) == sizeof(int), "LAPACKE with 32-bit integers expected");

/* Band storage of the Cholesky check at most this many doubles (200 MB, a
 * dense 5000 x 5000); larger matrices are left to the sparse factorisation
 * of the reduction routines (red.h), which fails on an indefinite M too. */
#define IMPORT_BAND_MAX 25000000.0

/* Whether a (symmetric) is positive definite: 0 yes, else the 1-based
 * order of the first leading minor that is not (the DOF where Cholesky
 * fails); -1 when too large to check here; JNT_ERR_NOMEM. */
static int import_chol(const fe_sparse *a)
{
    int n = a->n, kd = 0;
    for (int j = 0; j < n; j++)
        for (int p = a->colptr[j]; p < a->colptr[j + 1]; p++)
            if (a->rowind[p] - j > kd)
                kd = a->rowind[p] - j;
    if ((double)(kd + 1) * n > IMPORT_BAND_MAX)
        return -1;
    /* lower band storage: ab[(i - j) + j (kd + 1)] = a[i, j], j <= i <= j + kd */
    size_t ld = (size_t)kd + 1;
    double *ab = calloc(ld * (size_t)n, sizeof *ab);
    if (!ab)
        return JNT_ERR_NOMEM;
    for (int j = 0; j < n; j++)
        for (int p = a->colptr[j]; p < a->colptr[j + 1]; p++)
            if (a->rowind[p] >= j)
                ab[(size_t)(a->rowind[p] - j) + (size_t)j * ld] = a->val[p];
    lapack_int info = LAPACKE_dpbtrf(LAPACK_COL_MAJOR, 'L', n, kd, ab, (lapack_int)ld);
    free(ab);
    return info > 0 ? (int)info : 0;
}

/* Read one matrix; its size must be n (when n > 0). */
static int import_matrix(const char *path, fe_sparse *a, int n, const char *npath, char *err,
                         size_t errn)
{
    int rc = fe_read_mtx(path, a, err, errn);
    if (rc != JNT_OK)
        return rc;
    if (n > 0 && a->n != n)
        return jnt_errf(err, errn, JNT_ERR_MODEL, "%s has %d DOFs but %s has %d", npath, n, path,
                        a->n);
    return JNT_OK;
}

/* The symmetry check of matrix `name` read from path. */
static int import_symmetric(const fe_sparse *a, const char *name, const char *path, char *err,
                            size_t errn)
{
    int i, j;
    double aij, aji;
    if (fe_sparse_asym(a, &i, &j, &aij, &aji))
        return jnt_errf(err, errn, JNT_ERR_MODEL,
                        "%s is not symmetric (%s[%d,%d] = %g, %s[%d,%d] = %g)", path, name, i + 1,
                        j + 1, aij, name, j + 1, i + 1, aji);
    return JNT_OK;
}

/* The DOF indices of the nodes: within 0..ndof-1 and each DOF at most once. */
static int import_node_dofs(const fe_model *m, const char *nodes, const char *mass, char *err,
                            size_t errn)
{
    int *owner = malloc(((size_t)m->ndof + 1) * sizeof *owner);
    if (!owner)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "%s: out of memory", nodes);
    for (int i = 0; i < m->ndof; i++)
        owner[i] = -1;
    int rc = JNT_OK;
    for (int k = 0; k < m->nnode && rc == JNT_OK; k++)
        for (int c = 0; c < FE_NDOF_NODE && rc == JNT_OK; c++) {
            int d = m->node[k].dof[c];
            if (d < 0)
                continue;
            if (d >= m->ndof)
                rc = jnt_errf(err, errn, JNT_ERR_MODEL,
                              "%s: node %d has DOF index %d but %s has %d DOFs (0 to %d)", nodes,
                              m->node[k].id, d, mass, m->ndof, m->ndof - 1);
            else if (owner[d] >= 0)
                rc = jnt_errf(err, errn, JNT_ERR_MODEL, "%s: DOF %d belongs to nodes %d and %d",
                              nodes, d, m->node[owner[d]].id, m->node[k].id);
            else
                owner[d] = k;
        }
    free(owner);
    return rc;
}

/* Import a model: M, K, C (when damping is not NULL) and the node table
 * (when nodes is not NULL). m is overwritten (not freed first); on failure
 * it is left empty. Messages: "cannot open 'K.mtx': ...", "K.mtx:17: ...",
 * "M.mtx has 120 DOFs but K.mtx has 126", "M.mtx is not symmetric
 * (M[3,7] = 1.2, M[7,3] = 1.1)", "M.mtx is not positive definite (Cholesky
 * fails at DOF 12)"; matrix indices and the DOF are 1-based as in the file.
 * M is checked for definiteness here up to IMPORT_BAND_MAX band storage
 * (any n x n with n <= 5000, or a banded matrix: a 50,000-DOF plate
 * numbered along its short side), beyond that by the reduction routines.
 * Returns 0, JNT_ERR_IO (files), JNT_ERR_MODEL (the checks) or
 * JNT_ERR_NOMEM. */
int fe_import(fe_model *m, const char *mass, const char *stiffness, const char *damping,
              const char *nodes, char *err, size_t errn)
{
    memset(m, 0, sizeof *m);
    int rc = import_matrix(mass, &m->M, 0, mass, err, errn);
    if (rc == JNT_OK)
        rc = import_matrix(stiffness, &m->K, m->M.n, mass, err, errn);
    if (rc == JNT_OK && damping)
        rc = import_matrix(damping, &m->C, m->M.n, mass, err, errn);
    m->ndof = m->M.n;
    if (rc == JNT_OK && nodes) {
        rc = fe_read_nodes(nodes, m, err, errn);
        if (rc == JNT_OK)
            rc = import_node_dofs(m, nodes, mass, err, errn);
    }
    if (rc == JNT_OK)
        rc = import_symmetric(&m->M, "M", mass, err, errn);
    if (rc == JNT_OK)
        rc = import_symmetric(&m->K, "K", stiffness, err, errn);
    if (rc == JNT_OK) {
        int info = import_chol(&m->M);
        if (info == JNT_ERR_NOMEM)
            rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "%s: out of memory in the Cholesky check",
                          mass);
        else if (info > 0)
            rc = jnt_errf(err, errn, JNT_ERR_MODEL,
                          "%s is not positive definite (Cholesky fails at DOF %d)", mass, info);
    }
    if (rc != JNT_OK)
        fe_free(m);
    return rc;
}
