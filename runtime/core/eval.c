/*
 * eval.c: gather, kernels, scatter, completion (eval.h).
 *
 * With R_b the rows of block b's basis at its ng_b gathered points (model
 * data), u_b = R_b q_b and uv_b = R_b qd_b; the kernel's point forces F_b
 * add R_b^T F_b to the block's generalized forces; the kernel's Jacobian
 * (rows ydot and F, columns y, u and uv) becomes the Jacobian in y by the
 * chain rule:
 *   d ydot / dy  = J_yy + J_yu R
 *   d g_b / dy   = R_b^T (J_Fy + J_Fu R)
 * The F-u part between two dense blocks is R_b^T (K R_c), one dgemm per
 * block pair after K R_c is accumulated row by row; every other part goes
 * through the compressed rows, so unit rows (unreduced or boundary points)
 * cost one multiply per kernel entry.
 */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "data.h"
#include "err.h"
#include "eval.h"
#include "flex.h"
#include "model.h"

/* Largest block size of a (the width of the K R scratch); an unreduced
 * flexible2d body's unit rows never take that path. */
static int r_max(const jnt_abi_model *a)
{
    int r = 0;
    for (int b = 0; b < a->nblocks; b++)
        if (!(a->blocks[b].flags & JNT_BLOCK_FFRF_SPARSE))
            r = a->blocks[b].r > r ? a->blocks[b].r : r;
    return r;
}

/* The first y row of block k's velocities (and of its generalized
 * forces): q0 + r, or in a multibody model nq + q0 (y = [q, v, z, lambda]). */
static int vel0(const jnt_abi_model *a, const jnt_abi_block *k)
{
    return a->nq ? a->nq + k->q0 : k->q0 + k->r;
}

/* A multibody model with blocks (flexible2d bodies) evaluates its
 * Jacobian and mass matrix densely in y, then takes the pattern's values;
 * one with an unreduced body (flex_sparse_model) adds into the pattern's
 * values directly (dae_sparse). */
static int dae_dense(const jnt_abi_model *a)
{
    return a->nq > 0 && a->nblocks > 0 && !flex_sparse_model(a);
}

static int dae_sparse(const jnt_abi_model *a)
{
    return flex_sparse_model(a);
}

/* The doubles of the dense J and M (dae_dense), else 0. */
static size_t dense_size(const jnt_abi_model *a)
{
    return dae_dense(a) ? (size_t)a->ny * a->ny + (size_t)a->nq * a->nq : 0;
}

/* See eval.h. Layout of d->ew: u (2 nu), kernel outputs (ny + nu), Jacobian
 * values (nnz), K R (nu x r_max), block_jac's work; dae_dense models then
 * the dense J (ny x ny), M (nq x nq) and block_in's values (6 per block);
 * d->iew: block_jac's. */
void eval_work_size(const jnt_abi_model *a, size_t *nw, size_t *ni)
{
    size_t bw, bi;
    block_jac_work(a, &bw, &bi);
    size_t nu = (size_t)a->nu, ny = (size_t)a->ny, nq = (size_t)a->nq;
    *nw = 2 * nu + ny + nu + (size_t)a->jac_nnz + nu * (size_t)r_max(a) + bw;
    if (nq && a->nblocks) /* dense J, M; block_in's values; flex.c's scratch */
        *nw += dense_size(a) + 6 * (size_t)a->nblocks + flex_work_size(a);
    *nw += ny + 1; /* eval_gather's last y and its flag (eval_last_y) */
    *ni = bi;
}

static double *ew_out(const jnt_abi_model *a, jnt_data *d)
{
    return d->ew + 2 * (size_t)a->nu;
}

static double *ew_jv(const jnt_abi_model *a, jnt_data *d)
{
    return ew_out(a, d) + (size_t)a->ny + (size_t)a->nu;
}

static double *ew_kr(const jnt_abi_model *a, jnt_data *d)
{
    return ew_jv(a, d) + (size_t)a->jac_nnz;
}

static double *ew_block(const jnt_abi_model *a, jnt_data *d)
{
    return ew_kr(a, d) + (size_t)a->nu * (size_t)r_max(a);
}

/* dae_dense: the dense J, M and block_in's values after block_jac's work. */
static double *ew_dense(const jnt_abi_model *a, jnt_data *d)
{
    size_t bw, bi;
    block_jac_work(a, &bw, &bi);
    return ew_block(a, d) + bw;
}

/* Multibody models with blocks: flex.c's scratch after block_in's values. */
static double *ew_flex(const jnt_abi_model *a, jnt_data *d)
{
    return ew_dense(a, d) + dense_size(a) + 6 * (size_t)a->nblocks;
}

/* eval_gather's last y (ny) and, after it, the halves of u that hold its
 * gather (1 the positions, 2 the velocities, 3 both; 0 before any): the
 * arena's last ny + 1 doubles (eval_work_size). */
static double *ew_ylast(const jnt_model *m, jnt_data *d)
{
    size_t nw, ni;
    eval_work_size(m->abi, &nw, &ni);
    return d->ew + nw - (size_t)m->abi->ny - 1;
}

/* x = R v for block b's rows (ng values from r). */
static void rows_mul(const model_block *mb, int ng, int r, const double *v, double *x)
{
    if (mb->dense) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, ng, r, 1.0, mb->rows, ng, v, 1, 0.0, x, 1);
        return;
    }
    for (int i = 0; i < ng; i++) {
        double s = 0.0;
        for (int k = mb->rowptr[i]; k < mb->rowptr[i + 1]; k++)
            s += mb->val[k] * v[mb->col[k]];
        x[i] = s;
    }
}

/* The halves (1 u, 2 uv) that kernel group `group` (EVAL_*) reads of
 * model a: the compiler's gather_skip (jnt_abi_model) says which it never
 * reads. */
static int gather_need(const jnt_abi_model *a, int group)
{
    static const int skip_u[] = {0, JNT_SKIP_RHS_U, JNT_SKIP_UPDATE_U, JNT_SKIP_OUTPUT_U};
    static const int skip_uv[] = {0, JNT_SKIP_RHS_UV, JNT_SKIP_UPDATE_UV, JNT_SKIP_OUTPUT_UV};
    if (group <= EVAL_ALL || group > EVAL_OUTPUT)
        return 3;
    return (a->gather_skip & skip_u[group] ? 0 : 1) | (a->gather_skip & skip_uv[group] ? 0 : 2);
}

/* See eval.h. */
const double *eval_gather_for(const jnt_model *m, jnt_data *d, const double *y, int group)
{
    const jnt_abi_model *a = m->abi;
    double *ylast = ew_ylast(m, d);
    size_t ny = (size_t)a->ny;
    if (a->nu == 0) { /* nothing to gather: y kept for eval_last_y only */
        memcpy(ylast, y, ny * sizeof *y);
        ylast[ny] = 3.0;
        return NULL;
    }
    /* the same y again (the Newton loop's rhs, constraint rates and
     * output at one state): u still holds the halves it gathered, and only
     * those a kernel reads that it does not hold are gathered */
    double *u = d->ew;
    int need = gather_need(a, group), have = 0;
    if (ylast[ny] != 0.0 && memcmp(ylast, y, ny * sizeof *y) == 0)
        have = (int)ylast[ny] & 3;
    need &= ~have;
    if (need == 0)
        return u;
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        if (k->ng == 0)
            continue;
        if (need & 1)
            rows_mul(&m->blk[b], k->ng, k->r, y + k->q0, u + k->g0);
        if (need & 2)
            rows_mul(&m->blk[b], k->ng, k->r, y + vel0(a, k), u + a->nu + k->g0);
    }
    if (have == 0)
        memcpy(ylast, y, ny * sizeof *y);
    ylast[ny] = (double)(have | need);
    return u;
}

/* See eval.h. */
const double *eval_gather(const jnt_model *m, jnt_data *d, const double *y)
{
    return eval_gather_for(m, d, y, EVAL_ALL);
}

/* See eval.h. */
const double *eval_last_y(const jnt_model *m, jnt_data *d)
{
    const double *ylast = ew_ylast(m, d);
    return ylast[m->abi->ny] != 0.0 ? ylast : NULL;
}

/* See eval.h. */
const double *eval_point_forces(const jnt_model *m, jnt_data *d)
{
    return m->abi->nu ? ew_out(m->abi, d) + m->abi->ny : NULL;
}

/* See eval.h. */
int eval_forces(const jnt_model *m, jnt_data *d, double t, const double *y, double *ydot)
{
    const jnt_abi_model *a = m->abi;
    if (a->nu == 0)
        return a->rhs(t, y, NULL, d->d, d->p, ydot);
    const double *u = eval_gather_for(m, d, y, EVAL_RHS);
    double *o = ew_out(a, d);
    int rc = a->rhs(t, y, u, d->d, d->p, o);
    if (rc != 0)
        return rc;
    memcpy(ydot, o, (size_t)a->ny * sizeof *ydot);
    const double *F = o + a->ny;
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        const model_block *mb = &m->blk[b];
        double *g = ydot + vel0(a, k);
        if (k->ng == 0)
            continue;
        if (mb->dense) {
            cblas_dgemv(CblasColMajor, CblasTrans, k->ng, k->r, 1.0, mb->rows, k->ng, F + k->g0,
                        1, 1.0, g, 1);
            continue;
        }
        for (int i = 0; i < k->ng; i++)
            for (int j = mb->rowptr[i]; j < mb->rowptr[i + 1]; j++)
                g[mb->col[j]] += mb->val[j] * F[k->g0 + i];
    }
    return 0;
}

/* dae_dense: block_in's values at (t, y) (the flexible bodies' gravity),
 * or NULL when no block has flags. Its values are functions of t and the
 * parameters (ir.h): no gathered points. */
static const double *block_inputs(const jnt_model *m, jnt_data *d, double t, const double *y,
                                  int *rc)
{
    const jnt_abi_model *a = m->abi;
    *rc = 0;
    if (!a->block_in)
        return NULL;
    double *in = ew_dense(a, d) + dense_size(a);
    *rc = a->block_in(t, y, NULL, d->d, d->p, in);
    return in;
}

/* See eval.h. */
int eval_rhs(const jnt_model *m, jnt_data *d, double t, const double *y, double *ydot)
{
    int rc = eval_forces(m, d, t, y, ydot);
    if (rc != 0 || !m->abi->nblocks)
        return rc;
    if (!m->abi->nq) {
        block_rhs(m, y, ydot);
        return 0;
    }
    const double *in = block_inputs(m, d, t, y, &rc);
    if (rc == 0)
        flex_forces(m, y, in, ydot, ew_flex(m->abi, d));
    return rc;
}

/* Where kernel column c acts in y: its block (or -1 for a state column),
 * the point's local row and the first y column of the coordinates it
 * gathers from (q for a position, qd for a velocity). */
static int column_target(const jnt_model *m, int c, int *l, int *base)
{
    const jnt_abi_model *a = m->abi;
    if (c < a->ny)
        return -1;
    int g = c - a->ny, vel = g >= a->nu;
    g -= vel ? a->nu : 0;
    int b = m->gblock[g];
    const jnt_abi_block *k = &a->blocks[b];
    *l = g - k->g0;
    *base = vel ? vel0(a, k) : k->q0;
    return b;
}

/* A[rows r0 + R_b row l, column jc] += v R_b[l, :]^T (a force row). */
static void add_force_row(flex_acc *A, const model_block *mb, int l, double v, int r0, int jc)
{
    for (int k = mb->rowptr[l]; k < mb->rowptr[l + 1]; k++)
        flex_acc_add(A, r0 + mb->col[k], jc, v * mb->val[k]);
}

/* eval_jac into an accumulator (flex.h): dense (the n x n J) or the values
 * of the model's pattern (dae_sparse); zeroed first. */
static int jac_acc(const jnt_model *m, jnt_data *d, double t, const double *y, flex_acc *A,
                   int *bad, double *badv)
{
    const jnt_abi_model *a = m->abi;
    size_t n = (size_t)a->ny;
    int nu = a->nu, ny = a->ny;
    double *jv = ew_jv(a, d);
    int rc = a->jac(t, y, eval_gather_for(m, d, y, EVAL_RHS), d->d, d->p, jv);
    if (rc != 0)
        return rc;
    for (int c = 0; c < ny + 2 * nu; c++)
        for (int k = a->jac_colptr[c]; k < a->jac_colptr[c + 1]; k++)
            if (!isfinite(jv[k])) {
                int i = a->jac_rowind[k];
                *bad = i < ny ? i : vel0(a, &a->blocks[m->gblock[i - ny]]);
                *badv = jv[k];
                return EVAL_NONFINITE;
            }
    memset(A->a, 0, (A->ld ? n * n : (size_t)m->jnnz) * sizeof *A->a);
    for (int c = 0; c < ny; c++)
        for (int k = a->jac_colptr[c]; k < a->jac_colptr[c + 1]; k++) {
            int i = a->jac_rowind[k];
            if (i < ny) {
                flex_acc_add(A, i, c, jv[k]);
            } else {
                /* a point force on a state: R_b^T column */
                const jnt_abi_block *kb = &a->blocks[m->gblock[i - ny]];
                add_force_row(A, &m->blk[m->gblock[i - ny]], i - ny - kb->g0, jv[k],
                              vel0(a, kb), c);
            }
        }
    double *KR = ew_kr(a, d);
    /* the point columns, one gathering block (and half) at a time */
    for (int cb = 0; cb < a->nblocks && nu; cb++) {
        const jnt_abi_block *kc = &a->blocks[cb];
        const model_block *mc = &m->blk[cb];
        for (int half = 0; half < 2 && kc->ng; half++) {
            int c0 = ny + half * nu + kc->g0, l, base;
            int any_kr = 0;
            for (int c = c0; c < c0 + kc->ng; c++) {
                column_target(m, c, &l, &base);
                for (int k = a->jac_colptr[c]; k < a->jac_colptr[c + 1]; k++) {
                    int i = a->jac_rowind[k];
                    double v = jv[k];
                    if (i < ny) { /* a state row: J[i, base + R row l] */
                        for (int j = mc->rowptr[l]; j < mc->rowptr[l + 1]; j++)
                            flex_acc_add(A, i, base + mc->col[j], v * mc->val[j]);
                        continue;
                    }
                    int rb = m->gblock[i - ny];
                    const jnt_abi_block *kr = &a->blocks[rb];
                    const model_block *mr = &m->blk[rb];
                    int li = i - ny - kr->g0;
                    if (A->ld && mr->dense && mc->dense) { /* (K R_c)[i, :] += v R_c[l, :] */
                        if (!any_kr)
                            memset(KR, 0, (size_t)nu * (size_t)kc->r * sizeof *KR);
                        any_kr = 1;
                        for (int j = mc->rowptr[l]; j < mc->rowptr[l + 1]; j++)
                            KR[(size_t)mc->col[j] * (size_t)nu + (size_t)(i - ny)] +=
                                v * mc->val[j];
                        continue;
                    }
                    /* R_b^T v R_c through the compressed rows */
                    for (int j = mc->rowptr[l]; j < mc->rowptr[l + 1]; j++)
                        add_force_row(A, mr, li, v * mc->val[j], vel0(a, kr), base + mc->col[j]);
                }
            }
            if (!any_kr)
                continue;
            /* J[g rows of b, base ..] += R_b^T (K R_c)_b for every dense b */
            column_target(m, c0, &l, &base);
            for (int rb = 0; rb < a->nblocks; rb++) {
                const jnt_abi_block *kr = &a->blocks[rb];
                if (!m->blk[rb].dense || !kr->ng)
                    continue;
                cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, kr->r, kc->r, kr->ng, 1.0,
                            m->blk[rb].rows, kr->ng, KR + kr->g0, nu, 1.0,
                            A->a + (size_t)base * n + vel0(a, kr), (int)n);
            }
        }
    }
    if (a->nblocks && !a->nq)
        block_jac(m, A->a, ew_block(a, d), d->iew);
    if (a->nblocks && a->nq) {
        const double *in = block_inputs(m, d, t, y, &rc);
        if (rc != 0)
            return rc;
        flex_jac(m, y, in, A, ew_flex(a, d));
    }
    return 0;
}

/* See eval.h. */
int eval_jac(const jnt_model *m, jnt_data *d, double t, const double *y, double *J, int *bad,
             double *badv)
{
    flex_acc A = {.a = J, .ld = (size_t)m->abi->ny};
    return jac_acc(m, d, t, y, &A, bad, badv);
}

/* See eval.h. */
int eval_jac_is_y(const jnt_abi_model *a)
{
    return a->jac && a->nu == 0 && a->nblocks == 0;
}

/* See eval.h. */
int eval_jac_values(const jnt_model *m, jnt_data *d, double t, const double *y, double *jv,
                    int *bad, double *badv)
{
    const jnt_abi_model *a = m->abi;
    if (dae_sparse(a)) {
        flex_acc A = {.a = jv, .cp = m->jcolptr, .ri = m->jrowind};
        return jac_acc(m, d, t, y, &A, bad, badv);
    }
    if (dae_dense(a)) {
        double *J = ew_dense(a, d);
        int rc = eval_jac(m, d, t, y, J, bad, badv);
        if (rc != 0)
            return rc;
        size_t n = (size_t)a->ny;
        for (int c = 0; c < a->ny; c++)
            for (int k = m->jcolptr[c]; k < m->jcolptr[c + 1]; k++)
                jv[k] = J[(size_t)c * n + (size_t)m->jrowind[k]];
        return 0;
    }
    int rc = a->jac(t, y, NULL, d->d, d->p, jv);
    if (rc != 0)
        return rc;
    for (int k = 0; k < a->jac_nnz; k++)
        if (!isfinite(jv[k])) {
            *bad = a->jac_rowind[k];
            *badv = jv[k];
            return EVAL_NONFINITE;
        }
    return 0;
}

/* Name of state i for messages. */
static const char *state_name(const jnt_abi_model *a, int i)
{
    return i >= 0 && i < a->ny && a->y_names && a->y_names[i] ? a->y_names[i] : "?";
}

/* See jnt.h. */
int jnt_eval_rhs(const jnt_model *m, jnt_data *d, double t, const double *y, double *ydot)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!y && m->abi->ny)
        return data_null(d, __func__, "y");
    if (!ydot && m->abi->ny)
        return data_null(d, __func__, "ydot");
    rc = eval_rhs(m, d, t, y, ydot);
    if (rc != 0)
        return jnt_errf(d->err, sizeof d->err, JNT_ERR_KERNEL,
                        "t = %.9g s: the rhs kernel failed (status %d)", t, rc);
    for (int i = 0; i < m->abi->ny; i++)
        if (!isfinite(ydot[i]))
            return jnt_errf(d->err, sizeof d->err, JNT_ERR_NONFINITE,
                            "t = %.9g s: derivative of state '%s' is not finite", t,
                            state_name(m->abi, i));
    return JNT_OK;
}

/* See jnt.h. */
int jnt_eval_jacobian(const jnt_model *m, jnt_data *d, double t, const double *y, double *J)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!y && m->abi->ny)
        return data_null(d, __func__, "y");
    if (!J && m->abi->ny)
        return data_null(d, __func__, "J");
    int bad = -1;
    double badv = 0;
    rc = eval_jac(m, d, t, y, J, &bad, &badv);
    if (rc == EVAL_NONFINITE)
        return jnt_errf(d->err, sizeof d->err, JNT_ERR_NONFINITE,
                        "t = %.9g s: the Jacobian of state '%s' is not finite", t,
                        state_name(m->abi, bad));
    if (rc != 0)
        return jnt_errf(d->err, sizeof d->err, JNT_ERR_KERNEL,
                        "t = %.9g s: the Jacobian kernel failed (status %d)", t, rc);
    return JNT_OK;
}

/* See eval.h. */
int eval_mass(const jnt_model *m, jnt_data *d, double t, const double *y, double *mv)
{
    const jnt_abi_model *a = m->abi;
    if (dae_sparse(a)) { /* the kernel's diagonal and the bodies into the pattern */
        double *o = ew_out(a, d);
        int rc = a->mass(t, y, NULL, d->d, d->p, o);
        if (rc != 0)
            return rc;
        flex_acc A = {.a = mv, .cp = m->mcolptr, .ri = m->mrowind};
        memset(mv, 0, (size_t)m->mnnz * sizeof *mv);
        for (int j = 0; j < a->nq; j++)
            for (int k = a->mass_colptr[j]; k < a->mass_colptr[j + 1]; k++)
                flex_acc_add(&A, a->mass_rowind[k], j, o[k]);
        flex_mass(m, y, &A, ew_flex(a, d));
        return 0;
    }
    if (!dae_dense(a))
        return a->mass(t, y, NULL, d->d, d->p, mv);
    /* the kernel's diagonal pattern into the dense M, the bodies added (the
     * kernel's masses use parameters only: no gathered points) */
    size_t nq = (size_t)a->nq;
    double *M = ew_dense(a, d) + (size_t)a->ny * a->ny, *o = ew_out(a, d);
    int rc = a->mass(t, y, NULL, d->d, d->p, o);
    if (rc != 0)
        return rc;
    memset(M, 0, nq * nq * sizeof *M);
    for (int j = 0; j < a->nq; j++)
        for (int k = a->mass_colptr[j]; k < a->mass_colptr[j + 1]; k++)
            M[(size_t)j * nq + (size_t)a->mass_rowind[k]] += o[k];
    flex_acc A = {.a = M, .ld = nq};
    flex_mass(m, y, &A, ew_flex(a, d));
    for (int j = 0; j < a->nq; j++)
        for (int k = m->mcolptr[j]; k < m->mcolptr[j + 1]; k++)
            mv[k] = M[(size_t)j * nq + (size_t)m->mrowind[k]];
    return 0;
}

/* See eval.h. */
int eval_cons_rates(const jnt_model *m, jnt_data *d, double t, const double *y, double *out)
{
    return m->abi->cons_rates(t, y, eval_gather(m, d, y), d->d, d->p, out);
}

/* Mark J[i, c] for every entry eval_jac can fill from the kernel's
 * pattern (as eval_jac expands it through the rows): in the ny x ny bytes
 * J (column-major), or when J is NULL in the marking accumulator A. */
static void kernel_pattern(const jnt_model *m, unsigned char *J, flex_acc *A)
{
    const jnt_abi_model *a = m->abi;
    size_t n = (size_t)a->ny;
    int ny = a->ny;
    for (int c = 0; c < ny + 2 * a->nu; c++)
        for (int k = a->jac_colptr[c]; k < a->jac_colptr[c + 1]; k++) {
            int i = a->jac_rowind[k], l = 0, base = 0, li = 0, r0 = i;
            int cb = column_target(m, c, &l, &base);
            const model_block *mc = cb >= 0 ? &m->blk[cb] : NULL, *mr = NULL;
            if (i >= ny) {
                const jnt_abi_block *kr = &a->blocks[m->gblock[i - ny]];
                mr = &m->blk[m->gblock[i - ny]];
                li = i - ny - kr->g0;
                r0 = vel0(a, kr);
            }
            int nca = mc ? mc->rowptr[l + 1] - mc->rowptr[l] : 1;
            int nra = mr ? mr->rowptr[li + 1] - mr->rowptr[li] : 1;
            for (int p = 0; p < nca; p++) {
                int col = mc ? base + mc->col[mc->rowptr[l] + p] : c;
                for (int q = 0; q < nra; q++) {
                    int row = mr ? r0 + mr->col[mr->rowptr[li] + q] : i;
                    if (J)
                        J[(size_t)col * n + (size_t)row] = 1;
                    else
                        flex_acc_add(A, row, col, 1.0);
                }
            }
        }
}

/* A CSC pattern (n x n) of the marks in B: 0, or -1 when out of memory. */
static int marks_csc(int n, const unsigned char *B, int **colptr, int **rowind, int *nnz)
{
    size_t nn = 0;
    for (size_t k = 0; k < (size_t)n * n; k++)
        nn += B[k];
    *colptr = malloc(((size_t)n + 1) * sizeof **colptr);
    *rowind = malloc((nn + 1) * sizeof **rowind);
    if (!*colptr || !*rowind)
        return -1;
    int e = 0;
    for (int c = 0; c < n; c++) {
        (*colptr)[c] = e;
        for (int i = 0; i < n; i++)
            if (B[(size_t)c * n + (size_t)i])
                (*rowind)[e++] = i;
    }
    (*colptr)[n] = e;
    *nnz = e;
    return 0;
}

static int cmp_key(const void *x, const void *y)
{
    unsigned long long u = *(const unsigned long long *)x, v = *(const unsigned long long *)y;
    return (u > v) - (u < v);
}

/* A CSC pattern (n x n) of the keys (col n + row) marked in A, which it
 * frees: 0, or -1 when out of memory. */
static int keys_csc(int n, flex_acc *A, int **colptr, int **rowind, int *nnz)
{
    qsort(A->keys, A->nkeys, sizeof *A->keys, cmp_key);
    *colptr = calloc((size_t)n + 1, sizeof **colptr);
    *rowind = malloc((A->nkeys + 1) * sizeof **rowind);
    int rc = -1;
    if (*colptr && *rowind && !A->nomem) {
        size_t e = 0;
        for (size_t k = 0; k < A->nkeys; k++) {
            if (k > 0 && A->keys[k] == A->keys[k - 1])
                continue;
            int c = (int)(A->keys[k] / (unsigned long long)n);
            (*rowind)[e++] = (int)(A->keys[k] % (unsigned long long)n);
            (*colptr)[c + 1]++;
        }
        for (int c = 0; c < n; c++)
            (*colptr)[c + 1] += (*colptr)[c];
        *nnz = (int)e;
        rc = 0;
    }
    free(A->keys);
    *A = (flex_acc){0};
    return rc;
}

/* eval_dae_patterns for dae_sparse models: the entries the kernel, its
 * masses and flex.c write (flex_jac and flex_mass marking at y = 0), as
 * lists of keys, sorted. 0, or -1 when out of memory. */
static int sparse_patterns(jnt_model *m)
{
    const jnt_abi_model *a = m->abi;
    size_t ny = (size_t)a->ny;
    double *y = calloc(ny + flex_work_size(a) + 1, sizeof *y);
    flex_acc J = {.n = ny}, M = {.n = (unsigned long long)a->nq};
    if (!y)
        return -1;
    kernel_pattern(m, NULL, &J);
    flex_jac(m, y, NULL, &J, y + ny);
    for (int j = 0; j < a->nq; j++)
        for (int k = a->mass_colptr[j]; k < a->mass_colptr[j + 1]; k++)
            flex_acc_add(&M, a->mass_rowind[k], j, 1.0);
    flex_mass(m, y, &M, y + ny);
    free(y);
    int rc = keys_csc(a->ny, &J, &m->own_j[0], &m->own_j[1], &m->jnnz);
    int rm = keys_csc(a->nq, &M, &m->own_m[0], &m->own_m[1], &m->mnnz);
    m->jcolptr = m->own_j[0], m->jrowind = m->own_j[1];
    m->mcolptr = m->own_m[0], m->mrowind = m->own_m[1];
    return rc || rm || flex_positions(m) ? -1 : 0;
}

/* See eval.h. */
int eval_dae_patterns(jnt_model *m)
{
    const jnt_abi_model *a = m->abi;
    m->jcolptr = a->jac_colptr, m->jrowind = a->jac_rowind, m->jnnz = a->jac_nnz;
    m->mcolptr = a->mass_colptr, m->mrowind = a->mass_rowind, m->mnnz = a->mass_nnz;
    if (dae_sparse(a))
        return sparse_patterns(m);
    if (!dae_dense(a))
        return 0;
    size_t ny = (size_t)a->ny, nq = (size_t)a->nq;
    unsigned char *J = calloc(ny * ny + 1, 1), *M = calloc(nq * nq + 1, 1);
    int rc = -1;
    if (J && M) {
        kernel_pattern(m, J, NULL);
        for (int j = 0; j < a->nq; j++)
            for (int k = a->mass_colptr[j]; k < a->mass_colptr[j + 1]; k++)
                M[(size_t)j * nq + (size_t)a->mass_rowind[k]] = 1;
        flex_pattern(m, J, M);
        rc = marks_csc(a->ny, J, &m->own_j[0], &m->own_j[1], &m->jnnz);
        if (rc == 0)
            rc = marks_csc(a->nq, M, &m->own_m[0], &m->own_m[1], &m->mnnz);
        m->jcolptr = m->own_j[0], m->jrowind = m->own_j[1];
        m->mcolptr = m->own_m[0], m->mrowind = m->own_m[1];
    }
    free(J);
    free(M);
    return rc;
}
