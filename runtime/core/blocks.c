/*
 * blocks.c: the linear blocks of a model (reduced substructures, abi.h):
 * the generated kernels give the generalized forces g and their Jacobian;
 * these routines complete the right-hand side and the Jacobian with the
 * block's reduced matrices (dense matrix-vector products, never generated).
 */
#include <cblas.h>
#include <string.h>

#include "blocks.h"

/* See blocks.h. */
void block_rhs(const jnt_model *m, const double *y, double *ydot)
{
    const jnt_abi_model *a = m->abi;
    double g[JNT_MAX_BLOCK];
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *ab = &a->blocks[b];
        const model_block *k = &m->blk[b];
        int r = ab->r;
        const double *q = y + ab->q0, *qd = y + ab->q0 + r;
        double *dq = ydot + ab->q0, *dqd = ydot + ab->q0 + r;
        memcpy(g, dqd, (size_t)r * sizeof *g);
        for (int i = 0; i < r; i++)
            dq[i] += qd[i];
        /* qd' = Minv g - Minv K q - Minv C qd: BLAS for large blocks, one
         * fused loop for small ones (where a call costs more than the work) */
        if (r >= 64) {
            cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, k->minv, r, g, 1, 0.0, dqd, 1);
            cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, -1.0, k->minv_k, r, q, 1, 1.0, dqd, 1);
            cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, -1.0, k->minv_c, r, qd, 1, 1.0, dqd, 1);
            continue;
        }
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
void block_jac_work(const jnt_abi_model *a, size_t *nw, size_t *ni)
{
    size_t rmax = 0;
    if (a->nq) { /* multibody: flexible bodies (core/flex.c), never block_jac */
        *nw = *ni = 0;
        return;
    }
    for (int b = 0; b < a->nblocks; b++)
        rmax = (size_t)a->blocks[b].r > rmax ? (size_t)a->blocks[b].r : rmax;
    *nw = 2 * rmax * (size_t)a->ny;
    *ni = a->nblocks ? (size_t)a->ny : 0;
}

/* See blocks.h. Minv (dg/dy) as one matrix product over the columns where
 * dg/dy is not zero (all of them for a reduced basis; the few coupled DOFs
 * of an unreduced substructure): G packs them, P = Minv G, cols their index. */
void block_jac(const jnt_model *m, double *J, double *work, int *iwork)
{
    const jnt_abi_model *a = m->abi;
    int n = a->ny, *cols = iwork;
    size_t nw, ni;
    block_jac_work(a, &nw, &ni);
    double *G = work, *P = work + nw / 2;
    for (int b = 0; b < a->nblocks; b++) {
        const model_block *k = &m->blk[b];
        int r = a->blocks[b].r, q0 = a->blocks[b].q0, v0 = q0 + r, nc = 0;
        for (int c = 0; c < n; c++) {
            double *col = J + (size_t)c * n + v0;
            int i = 0;
            while (i < r && col[i] == 0.0)
                i++;
            if (i == r)
                continue;
            memcpy(G + (size_t)nc * r, col, (size_t)r * sizeof *G);
            cols[nc++] = c;
        }
        if (nc > 0) {
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, r, nc, r, 1.0, k->minv, r, G, r,
                        0.0, P, r);
            for (int j = 0; j < nc; j++)
                memcpy(J + (size_t)cols[j] * n + v0, P + (size_t)j * r, (size_t)r * sizeof *P);
        }
        for (int c = 0; c < r; c++) {
            double *dk = J + (size_t)(q0 + c) * n + v0, *dc = J + (size_t)(v0 + c) * n + v0;
            const double *mk = k->minv_k + (size_t)c * r, *mc = k->minv_c + (size_t)c * r;
            for (int i = 0; i < r; i++) {
                dk[i] -= mk[i];
                dc[i] -= mc[i];
            }
            J[(size_t)(v0 + c) * n + q0 + c] += 1;
        }
    }
}
