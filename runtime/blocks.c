/*
 * blocks.c: the linear blocks of a model (reduced substructures, abi.h):
 * the generated kernels give the generalized forces g and their Jacobian;
 * these routines complete the right-hand side and the Jacobian with the
 * block's reduced matrices (dense matrix-vector products, never generated).
 */
#include <string.h>

#include "blocks.h"

/* See blocks.h. */
void block_rhs(const jnt_abi_model *a, const double *y, double *ydot)
{
    double g[JNT_MAX_BLOCK];
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        int r = k->r;
        const double *q = y + k->q0, *qd = y + k->q0 + r;
        double *dq = ydot + k->q0, *dqd = ydot + k->q0 + r;
        memcpy(g, dqd, (size_t)r * sizeof *g);
        for (int i = 0; i < r; i++)
            dq[i] += qd[i];
        /* qd' = Minv g - Minv K q - Minv C qd */
        for (int i = 0; i < r; i++)
            dqd[i] = 0;
        for (int j = 0; j < r; j++) {
            const double *mi = k->minv + (size_t)j * r, *mk = k->minv_k + (size_t)j * r;
            const double *mc = k->minv_c + (size_t)j * r;
            double gj = g[j], qj = q[j], qdj = qd[j];
            for (int i = 0; i < r; i++)
                dqd[i] += mi[i] * gj - mk[i] * qj - mc[i] * qdj;
        }
    }
}

/* See blocks.h. */
void block_jac(const jnt_abi_model *a, double *J)
{
    int n = a->ny;
    double g[JNT_MAX_BLOCK];
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        int r = k->r, q0 = k->q0, v0 = k->q0 + r;
        for (int c = 0; c < n; c++) {
            double *col = J + (size_t)c * n;
            /* qd rows: Minv (dg/dy_c) */
            memcpy(g, col + v0, (size_t)r * sizeof *g);
            for (int i = 0; i < r; i++)
                col[v0 + i] = 0;
            for (int j = 0; j < r; j++)
                for (int i = 0; i < r; i++)
                    col[v0 + i] += k->minv[(size_t)j * r + i] * g[j];
            if (c >= q0 && c < v0) /* - Minv K */
                for (int i = 0; i < r; i++)
                    col[v0 + i] -= k->minv_k[(size_t)(c - q0) * r + i];
            if (c >= v0 && c < v0 + r) { /* - Minv C, and q' = qd */
                for (int i = 0; i < r; i++)
                    col[v0 + i] -= k->minv_c[(size_t)(c - v0) * r + i];
                col[q0 + (c - v0)] += 1;
            }
        }
    }
}
