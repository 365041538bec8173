/*
 * flex.c: the floating frame of reference of flexible2d bodies (flex.h).
 *
 * A body's coordinates are its frame's R = (x, y), its angle theta and the
 * elastic coordinates q_f (seed 000 eq. 15). With A the frame's rotation,
 * Itilde = [0 -1; 1 0] and the invariants of setup/red_ffrf.c
 * (s = s0 + S1 q_f, h = j1 + Mr q_f), the equations
 *   M(q) q'' = Q_v + Q_e - C_q^T lambda
 * have the mass matrix of red_ffrf.c and the quadratic-velocity forces
 * (Shabana, Dynamics of Multibody Systems, 4th ed., Sect. 5.5, in planar
 * form)
 *   (Q_v)_R     = A (thetad^2 s - 2 thetad Itilde S1 q_fd)
 *   (Q_v)_theta = -2 thetad h^T q_fd
 *   (Q_v)_f     = thetad^2 h - 2 thetad E q_fd
 * to which the elastic and damping forces -Kr q_f - Cr q_fd and gravity,
 * the first two columns of M(q) times g, are added here. The element forces
 * between points of the body (contact, friction) act on q_f only (seed 000
 * Sect. 4: self-equilibrated, "no contribution to the rigid body motion");
 * forces on its markers come from the kernels by virtual work.
 */
#include <cblas.h>
#include <math.h>
#include <string.h>

#include "flex.h"
#include "flex3d.h"

/* flexible3d bodies (core/flex3d.c): the scratch of one body, on the stack
 * (its r is at most JNT_FLEX3_MAX_R, sema_flex.c) */
#define FLEX3_WORK (46 * JNT_FLEX3_MAX_R + 1)

/* Block b as a flexible3d body into *B; 0 when it is not one. */
static int flex3_at(const jnt_model *m, int b, flex3_body *B)
{
    const jnt_abi_block *k = &m->abi->blocks[b];
    if (!(k->flags & JNT_BLOCK_FFRF3))
        return 0;
    *B = (flex3_body){m->data + k->ffrf, k->r, k->frame, k->q0};
    return 1;
}

/* One body's data and state at y. */
typedef struct ffrf {
    int fr, q0, r, nq;
    const double *S1, *j1, *e0, *E, *Mr, *Kr, *Cr;
    double m, s0[2], J0;
    const double *qf, *qfd;
    double c, s, thd;
} ffrf;

static int ffrf_at(const jnt_model *m, int b, const double *y, ffrf *F)
{
    const jnt_abi_model *a = m->abi;
    const jnt_abi_block *k = &a->blocks[b];
    if (!(k->flags & JNT_BLOCK_FFRF))
        return 0;
    int r = k->r;
    const double *inv = m->data + k->ffrf;
    F->fr = k->frame, F->q0 = k->q0, F->r = r, F->nq = a->nq;
    F->m = inv[0], F->s0[0] = inv[1], F->s0[1] = inv[2], F->J0 = inv[3];
    F->S1 = inv + JNT_FFRF_S1;
    F->j1 = F->S1 + 2 * (size_t)r;
    F->e0 = F->j1 + r;
    F->E = F->e0 + r;
    F->Mr = F->E + (size_t)r * r;
    F->Kr = F->Mr + (size_t)r * r;
    F->Cr = F->Kr + (size_t)r * r;
    F->qf = y + k->q0;
    F->qfd = y + a->nq + k->q0;
    double th = y[k->frame + 2];
    F->c = cos(th), F->s = sin(th);
    F->thd = y[a->nq + k->frame + 2];
    return 1;
}

/* s = s0 + S1 q_f, S1 q_fd, h = j1 + Mr q_f, and when asked (non-NULL) E q_fd
 * and Mr q_fd (h, eq, mq: r each). */
static void ffrf_terms(const ffrf *F, double sv[2], double sd[2], double *h, double *eq,
                       double *mq)
{
    int r = F->r;
    sv[0] = F->s0[0], sv[1] = F->s0[1], sd[0] = sd[1] = 0.0;
    for (int j = 0; j < r; j++) {
        sv[0] += F->S1[2 * j] * F->qf[j], sv[1] += F->S1[2 * j + 1] * F->qf[j];
        sd[0] += F->S1[2 * j] * F->qfd[j], sd[1] += F->S1[2 * j + 1] * F->qfd[j];
    }
    memcpy(h, F->j1, (size_t)r * sizeof *h);
    cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F->Mr, r, F->qf, 1, 1.0, h, 1);
    if (mq)
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F->Mr, r, F->qfd, 1, 0.0, mq, 1);
    if (eq)
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F->E, r, F->qfd, 1, 0.0, eq, 1);
}

/* See flex.h. */
void flex_forces(const jnt_model *m, const double *y, const double *in, double *f)
{
    ffrf F;
    double h[JNT_MAX_BLOCK], eq[JNT_MAX_BLOCK];
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!ffrf_at(m, b, y, &F))
            continue;
        int r = F.r, nq = F.nq;
        double sv[2], sd[2], c = F.c, s = F.s, thd = F.thd;
        double gx = in[6 * b], gy = in[6 * b + 1];
        ffrf_terms(&F, sv, sd, h, eq, NULL);
        /* w = thetad^2 s - 2 thetad Itilde S1 q_fd; Q_R = A w + m g */
        double wx = thd * thd * sv[0] + 2.0 * thd * sd[1];
        double wy = thd * thd * sv[1] - 2.0 * thd * sd[0];
        f[nq + F.fr] += c * wx - s * wy + F.m * gx;
        f[nq + F.fr + 1] += s * wx + c * wy + F.m * gy;
        /* Q_theta = -2 thetad h^T q_fd + (A Itilde s) . g */
        double hq = 0.0;
        for (int j = 0; j < r; j++)
            hq += h[j] * F.qfd[j];
        double ais_x = -s * sv[0] - c * sv[1], ais_y = c * sv[0] - s * sv[1];
        f[nq + F.fr + 2] += -2.0 * thd * hq + ais_x * gx + ais_y * gy;
        /* Q_f = thetad^2 h - 2 thetad E q_fd - Kr q_f - Cr q_fd + S1^T A^T g */
        double lgx = c * gx + s * gy, lgy = -s * gx + c * gy;
        double *ff = f + nq + F.q0;
        for (int i = 0; i < r; i++)
            ff[i] += thd * thd * h[i] - 2.0 * thd * eq[i] + F.S1[2 * i] * lgx +
                     F.S1[2 * i + 1] * lgy;
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, -1.0, F.Kr, r, F.qf, 1, 1.0, ff, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, -1.0, F.Cr, r, F.qfd, 1, 1.0, ff, 1);
    }
    double work[FLEX3_WORK];
    flex3_body B;
    for (int b = 0; b < m->abi->nblocks; b++)
        if (flex3_at(m, b, &B))
            flex3_forces(&B, y, y + m->abi->nq, in + 6 * b, f + m->abi->nq, work);
}

/* See flex.h. */
void flex_jac(const jnt_model *m, const double *y, const double *in, double *J)
{
    ffrf F;
    double h[JNT_MAX_BLOCK], eq[JNT_MAX_BLOCK], mq[JNT_MAX_BLOCK];
    size_t n = (size_t)m->abi->ny;
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!ffrf_at(m, b, y, &F))
            continue;
        int r = F.r, nq = F.nq, fr = F.fr, q0 = F.q0;
        double sv[2], sd[2], c = F.c, s = F.s, thd = F.thd;
        double gx = in[6 * b], gy = in[6 * b + 1];
        ffrf_terms(&F, sv, sd, h, eq, mq);
        /* J[row, col]: rows of forces nq + coordinate */
#define JA(row, col) J[(size_t)(col) * n + (size_t)(nq + (row))]
        int th = fr + 2, thv = nq + fr + 2;
        /* R rows: d(A w)/dtheta = A Itilde w; d/dq_f = A thd^2 S1;
         * d/dthetad = A (2 thd s - 2 Itilde S1 q_fd); d/dq_fd = -2 thd A Itilde S1 */
        double wx = thd * thd * sv[0] + 2.0 * thd * sd[1];
        double wy = thd * thd * sv[1] - 2.0 * thd * sd[0];
        JA(fr, th) += -s * wx - c * wy;
        JA(fr + 1, th) += c * wx - s * wy;
        double dx = 2.0 * thd * sv[0] + 2.0 * sd[1], dy = 2.0 * thd * sv[1] - 2.0 * sd[0];
        JA(fr, thv) += c * dx - s * dy;
        JA(fr + 1, thv) += s * dx + c * dy;
        for (int j = 0; j < r; j++) {
            double ax = F.S1[2 * j], ay = F.S1[2 * j + 1];
            JA(fr, q0 + j) += thd * thd * (c * ax - s * ay);
            JA(fr + 1, q0 + j) += thd * thd * (s * ax + c * ay);
            /* -2 thd A Itilde S1_j = -2 thd A (-ay, ax) */
            JA(fr, nq + q0 + j) += -2.0 * thd * (-c * ay - s * ax);
            JA(fr + 1, nq + q0 + j) += -2.0 * thd * (-s * ay + c * ax);
        }
        /* theta row */
        double hq = 0.0;
        for (int j = 0; j < r; j++)
            hq += h[j] * F.qfd[j];
        JA(th, thv) += -2.0 * hq;
        JA(th, th) += -(c * sv[0] - s * sv[1]) * gx - (s * sv[0] + c * sv[1]) * gy;
        for (int j = 0; j < r; j++) {
            double ax = F.S1[2 * j], ay = F.S1[2 * j + 1];
            JA(th, q0 + j) += -2.0 * thd * mq[j] + (-s * ax - c * ay) * gx + (c * ax - s * ay) * gy;
            JA(th, nq + q0 + j) += -2.0 * thd * h[j];
        }
        /* q_f rows */
        double lgx = -s * gx + c * gy, lgy = -c * gx - s * gy; /* d(A^T g)/dtheta */
        for (int i = 0; i < r; i++) {
            JA(q0 + i, thv) += 2.0 * thd * h[i] - 2.0 * eq[i];
            JA(q0 + i, th) += F.S1[2 * i] * lgx + F.S1[2 * i + 1] * lgy;
        }
        for (int j = 0; j < r; j++) {
            const double *Mj = F.Mr + (size_t)j * r, *Ej = F.E + (size_t)j * r;
            const double *Kj = F.Kr + (size_t)j * r, *Cj = F.Cr + (size_t)j * r;
            for (int i = 0; i < r; i++) {
                JA(q0 + i, q0 + j) += thd * thd * Mj[i] - Kj[i];
                JA(q0 + i, nq + q0 + j) += -2.0 * thd * Ej[i] - Cj[i];
            }
        }
#undef JA
    }
    double work[FLEX3_WORK];
    flex3_body B;
    int nq = m->abi->nq;
    for (int b = 0; b < m->abi->nblocks; b++)
        if (flex3_at(m, b, &B))
            flex3_jac(&B, y, y + nq, in + 6 * b, J + nq, J + (size_t)nq * n + nq, (int)n, work);
}

/* See flex.h. */
void flex_mass(const jnt_model *m, const double *y, double *M)
{
    ffrf F;
    double h[JNT_MAX_BLOCK], e[JNT_MAX_BLOCK];
    size_t n = (size_t)m->abi->nq;
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!ffrf_at(m, b, y, &F))
            continue;
        int r = F.r, fr = F.fr, q0 = F.q0;
        double sv[2], sd[2], c = F.c, s = F.s;
        ffrf_terms(&F, sv, sd, h, NULL, NULL);
#define MA(row, col) M[(size_t)(col) * n + (size_t)(row)]
        MA(fr, fr) += F.m;
        MA(fr + 1, fr + 1) += F.m;
        /* M_Rtheta = A Itilde s */
        double ax = -s * sv[0] - c * sv[1], ay = c * sv[0] - s * sv[1];
        MA(fr, fr + 2) += ax, MA(fr + 2, fr) += ax;
        MA(fr + 1, fr + 2) += ay, MA(fr + 2, fr + 1) += ay;
        /* M_thetatheta = J0 + 2 j1^T q_f + q_f^T Mr q_f = J0 + (j1 + h)^T q_f */
        double J = F.J0;
        for (int j = 0; j < r; j++)
            J += (F.j1[j] + h[j]) * F.qf[j];
        MA(fr + 2, fr + 2) += J;
        /* M_thetaf = (e0 + E q_f)^T, M_Rf = A S1, M_ff = Mr */
        memcpy(e, F.e0, (size_t)r * sizeof *e);
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F.E, r, F.qf, 1, 1.0, e, 1);
        for (int j = 0; j < r; j++) {
            double bx = F.S1[2 * j], by = F.S1[2 * j + 1];
            double rx = c * bx - s * by, ry = s * bx + c * by;
            MA(fr, q0 + j) += rx, MA(q0 + j, fr) += rx;
            MA(fr + 1, q0 + j) += ry, MA(q0 + j, fr + 1) += ry;
            MA(fr + 2, q0 + j) += e[j], MA(q0 + j, fr + 2) += e[j];
            double *Mcol = M + (size_t)(q0 + j) * n + q0;
            const double *Mrj = F.Mr + (size_t)j * r;
            for (int i = 0; i < r; i++)
                Mcol[i] += Mrj[i];
        }
#undef MA
    }
    double work[FLEX3_WORK];
    flex3_body B;
    for (int b = 0; b < m->abi->nblocks; b++)
        if (flex3_at(m, b, &B))
            flex3_mass(&B, y, M, (int)n, work);
}

/* See flex.h: per body its coordinates' rows and columns, all of them. */
void flex_pattern(const jnt_model *m, unsigned char *J, unsigned char *M)
{
    const jnt_abi_model *a = m->abi;
    size_t n = (size_t)a->ny, nq = (size_t)a->nq;
    int idx[JNT_MAX_BLOCK + 12];
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        flex3_body B;
        int ni = 0;
        if (flex3_at(m, b, &B)) {
            ni = flex3_coords(&B, idx);
        } else if (k->flags & JNT_BLOCK_FFRF) {
            for (int i = 0; i < 3; i++)
                idx[ni++] = k->frame + i;
            for (int i = 0; i < k->r; i++)
                idx[ni++] = k->q0 + i;
        }
        for (int p = 0; p < ni; p++)
            for (int q = 0; q < ni; q++) {
                size_t i = (size_t)idx[p], j = (size_t)idx[q];
                M[j * nq + i] = 1;
                J[j * n + nq + i] = 1;
                J[(nq + j) * n + nq + i] = 1;
            }
    }
}
