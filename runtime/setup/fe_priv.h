/*
 * fe_priv.h: helpers shared by the fe_*.c files (internal to the
 * finite-element data layer; other modules use fe.h).
 */
#ifndef JNT_FE_PRIV_H
#define JNT_FE_PRIV_H

#include <stddef.h>

#include "core/err.h"
#include "jnt/setup.h"
#include "jnt/jnt.h"

/* out = the rows and columns i of a with map[i] >= 0, renumbered to map[i]
 * (0 <= map[i] < nnew, increasing with i: the order is kept). 0 or
 * JNT_ERR_NOMEM. */
int fe_sparse_sub(const fe_sparse *a, const int *map, int nnew, fe_sparse *out);

/* out = alpha a + beta b (same n; b may have n == 0: out = alpha a).
 * 0, JNT_ERR_USAGE (sizes) or JNT_ERR_NOMEM. */
int fe_sparse_axpby(double alpha, const fe_sparse *a, double beta, const fe_sparse *b,
                    fe_sparse *out);

/* a[i, j] (0 when not stored). */
double fe_sparse_get(const fe_sparse *a, int i, int j);

/* 0 when a is symmetric to a relative 1e-8 (plus 1e-12 of its largest
 * entry); else 1 with the first offending pair, i < j, in column order of j. */
int fe_sparse_asym(const fe_sparse *a, int *i, int *j, double *aij, double *aji);

/* Append node index `node` to set s (grows by doubling). 0 or JNT_ERR_NOMEM. */
int fe_set_push(fe_set *s, int node);

/* The set `name` of m, created empty when missing: its index or JNT_ERR_NOMEM. */
int fe_set_get(fe_model *m, const char *name);

#endif
