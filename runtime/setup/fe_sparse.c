/*
 * fe_sparse.c: square sparse matrices in compressed sparse column form
 * (fe.h): assembly from triplets by two counting passes (O(n + nnz), no
 * per-column sorting and no dense n x n anything), products, dense copies,
 * submatrices, linear combinations and the symmetry test.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fe_priv.h"

/* Free the arrays of a and zero it (n = 0). */
void fe_sparse_free(fe_sparse *a)
{
    if (!a)
        return;
    free(a->colptr);
    free(a->rowind);
    free(a->val);
    memset(a, 0, sizeof *a);
}

/* y = A x. */
void fe_sparse_mul(const fe_sparse *a, const double *x, double *y)
{
    for (int i = 0; i < a->n; i++)
        y[i] = 0.0;
    for (int j = 0; j < a->n; j++) {
        double xj = x[j];
        for (int p = a->colptr[j]; p < a->colptr[j + 1]; p++)
            y[a->rowind[p]] += a->val[p] * xj;
    }
}

/* Dense n x n column-major copy (calloc'd; the caller frees), NULL when out
 * of memory or n == 0. */
double *fe_sparse_dense(const fe_sparse *a)
{
    size_t n = (size_t)a->n;
    if (n == 0)
        return NULL;
    double *d = calloc(n * n, sizeof *d);
    if (!d)
        return NULL;
    for (size_t j = 0; j < n; j++)
        for (int p = a->colptr[j]; p < a->colptr[j + 1]; p++)
            d[(size_t)a->rowind[p] + j * n] = a->val[p];
    return d;
}

/* CSC from nt triplets (row[k], col[k], val[k]), 0-based, duplicates summed.
 * Pass 1 buckets the triplets by row, pass 2 (stable) by column, so the rows
 * come out sorted within each column; duplicates are then adjacent. Returns
 * 0, JNT_ERR_USAGE (an index outside 0..n-1, named in no message: callers
 * check their indices) or JNT_ERR_NOMEM. out is overwritten. */
int fe_sparse_from_triplets(int n, int nt, const int *row, const int *col, const double *val,
                            fe_sparse *out)
{
    memset(out, 0, sizeof *out);
    if (n < 0 || nt < 0)
        return JNT_ERR_USAGE;
    for (int k = 0; k < nt; k++)
        if (row[k] < 0 || row[k] >= n || col[k] < 0 || col[k] >= n)
            return JNT_ERR_USAGE;
    int *cnt = calloc((size_t)n + 1, sizeof *cnt);
    int *byrow = malloc(((size_t)nt + 1) * sizeof *byrow);
    int *colptr = calloc((size_t)n + 1, sizeof *colptr);
    int *rowind = malloc(((size_t)nt + 1) * sizeof *rowind);
    double *v = malloc(((size_t)nt + 1) * sizeof *v);
    if (!cnt || !byrow || !colptr || !rowind || !v) {
        free(cnt), free(byrow), free(colptr), free(rowind), free(v);
        return JNT_ERR_NOMEM;
    }
    /* pass 1: triplet numbers ordered by row */
    for (int k = 0; k < nt; k++)
        cnt[row[k] + 1]++;
    for (int i = 0; i < n; i++)
        cnt[i + 1] += cnt[i];
    for (int k = 0; k < nt; k++)
        byrow[cnt[row[k]]++] = k;
    /* pass 2: stable by column */
    for (int k = 0; k < nt; k++)
        colptr[col[k] + 1]++;
    for (int j = 0; j < n; j++)
        colptr[j + 1] += colptr[j];
    memcpy(cnt, colptr, (size_t)n * sizeof *cnt);
    for (int q = 0; q < nt; q++) {
        int k = byrow[q];
        int p = cnt[col[k]]++;
        rowind[p] = row[k];
        v[p] = val[k];
    }
    free(byrow);
    free(cnt);
    /* sum duplicates in place */
    int w = 0;
    for (int j = 0; j < n; j++) {
        int start = w, p0 = colptr[j], p1 = colptr[j + 1];
        for (int p = p0; p < p1; p++) {
            if (w > start && rowind[w - 1] == rowind[p]) {
                v[w - 1] += v[p];
            } else {
                rowind[w] = rowind[p];
                v[w] = v[p];
                w++;
            }
        }
        colptr[j] = start;
    }
    colptr[n] = w;
    out->n = n;
    out->nnz = w;
    out->colptr = colptr;
    int *r2 = realloc(rowind, ((size_t)w + 1) * sizeof *r2);
    double *v2 = realloc(v, ((size_t)w + 1) * sizeof *v2);
    out->rowind = r2 ? r2 : rowind;
    out->val = v2 ? v2 : v;
    return JNT_OK;
}

/* See fe_priv.h. A direct copy column by column (the map keeps the order,
 * so the kept rows stay sorted): no triplets, no sort. */
int fe_sparse_sub(const fe_sparse *a, const int *map, int nnew, fe_sparse *out)
{
    memset(out, 0, sizeof *out);
    int nnz = 0;
    for (int j = 0; j < a->n; j++)
        if (map[j] >= 0)
            for (int k = a->colptr[j]; k < a->colptr[j + 1]; k++)
                nnz += map[a->rowind[k]] >= 0;
    out->colptr = malloc(((size_t)nnew + 1) * sizeof *out->colptr);
    out->rowind = malloc(((size_t)nnz + 1) * sizeof *out->rowind);
    out->val = malloc(((size_t)nnz + 1) * sizeof *out->val);
    if (!out->colptr || !out->rowind || !out->val) {
        fe_sparse_free(out);
        return JNT_ERR_NOMEM;
    }
    out->n = nnew;
    out->nnz = nnz;
    int p = 0;
    out->colptr[0] = 0;
    for (int j = 0; j < a->n; j++) {
        if (map[j] < 0)
            continue;
        for (int k = a->colptr[j]; k < a->colptr[j + 1]; k++)
            if (map[a->rowind[k]] >= 0) {
                out->rowind[p] = map[a->rowind[k]];
                out->val[p++] = a->val[k];
            }
        out->colptr[map[j] + 1] = p;
    }
    return JNT_OK;
}

/* See fe_priv.h. */
int fe_sparse_axpby(double alpha, const fe_sparse *a, double beta, const fe_sparse *b,
                    fe_sparse *out)
{
    memset(out, 0, sizeof *out);
    if (b->n != 0 && b->n != a->n)
        return JNT_ERR_USAGE;
    int nb = b->n ? b->nnz : 0, nt = a->nnz + nb;
    int *r = malloc(((size_t)nt + 1) * sizeof *r);
    int *c = malloc(((size_t)nt + 1) * sizeof *c);
    double *v = malloc(((size_t)nt + 1) * sizeof *v);
    int rc = JNT_ERR_NOMEM;
    if (r && c && v) {
        int k = 0;
        for (int j = 0; j < a->n; j++)
            for (int p = a->colptr[j]; p < a->colptr[j + 1]; p++)
                r[k] = a->rowind[p], c[k] = j, v[k++] = alpha * a->val[p];
        for (int j = 0; j < b->n; j++)
            for (int p = b->colptr[j]; p < b->colptr[j + 1]; p++)
                r[k] = b->rowind[p], c[k] = j, v[k++] = beta * b->val[p];
        rc = fe_sparse_from_triplets(a->n, nt, r, c, v, out);
    }
    free(r), free(c), free(v);
    return rc;
}

/* See fe_priv.h: binary search in column j. */
double fe_sparse_get(const fe_sparse *a, int i, int j)
{
    int lo = a->colptr[j], hi = a->colptr[j + 1] - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (a->rowind[mid] == i)
            return a->val[mid];
        if (a->rowind[mid] < i)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0.0;
}

/* See fe_priv.h. Every stored off-diagonal entry is compared with its
 * transpose (found by binary search, 0 when absent). */
int fe_sparse_asym(const fe_sparse *a, int *i, int *j, double *aij, double *aji)
{
    double amax = 0.0;
    for (int p = 0; p < a->nnz; p++)
        amax = fmax(amax, fabs(a->val[p]));
    for (int c = 0; c < a->n; c++) {
        for (int p = a->colptr[c]; p < a->colptr[c + 1]; p++) {
            int r = a->rowind[p];
            if (r == c)
                continue;
            double x = a->val[p], y = fe_sparse_get(a, c, r);
            if (fabs(x - y) > 1e-8 * fmax(fabs(x), fabs(y)) + 1e-12 * amax) {
                /* report the pair upper triangle first */
                *i = r < c ? r : c;
                *j = r < c ? c : r;
                *aij = r < c ? x : y;
                *aji = r < c ? y : x;
                return 1;
            }
        }
    }
    return 0;
}
