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
 *
 * An unreduced body (JNT_BLOCK_FFRF_SPARSE) has Phi = I on the free DOFs:
 * the same equations with Mr = M, Kr = K, Cr = C and E = M P sparse (P the
 * nodes' rotation by +90 degrees, setup/red_ffrf_sparse.c), so that every
 * r x r product is one pass over the mesh's pattern and the Jacobian's
 * q_f block has the pattern of M, K, C (and M P): the frame's three rows
 * and columns are the only dense ones.
 */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flex.h"
#include "flex3d.h"

/* flexible3d bodies (core/flex3d.c): the scratch of one body, on the stack
 * (its r is at most JNT_FLEX3_MAX_R, kinds/flexible.c) */
#define FLEX3_WORK (46 * JNT_FLEX3_MAX_R + 1)

/* See flex.h. */
void flex_acc_add(flex_acc *A, int row, int col, double v)
{
    if (A->ld) {
        A->a[(size_t)col * A->ld + (size_t)row] += v;
        return;
    }
    if (A->cp) { /* rows ascending within a column: bisection */
        int lo = A->cp[col], hi = A->cp[col + 1] - 1;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (A->ri[mid] < row)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo <= hi && A->ri[lo] == row)
            A->a[lo] += v;
        else
            A->miss++;
        return;
    }
    if (A->nkeys == A->cap) {
        size_t cap = A->cap ? 2 * A->cap : 4096;
        unsigned long long *k = realloc(A->keys, cap * sizeof *k);
        if (!k) {
            A->nomem = 1;
            return;
        }
        A->keys = k, A->cap = cap;
    }
    A->keys[A->nkeys++] = (unsigned long long)col * A->n + (unsigned long long)row;
}

/* See flex.h. */
int flex_sparse_model(const jnt_abi_model *a)
{
    for (int b = 0; a->nq && b < a->nblocks; b++)
        if (a->blocks[b].flags & JNT_BLOCK_FFRF_SPARSE)
            return 1;
    return 0;
}

/* An unreduced body's products at its last state (sp_products): a flag
 * (1.0 when valid), q_f and q_fd they were formed at, h = j1 + M q_f,
 * M q_fd, M P q_fd and e = e0 + M P q_f; r each. */
#define SP_CACHE(r) (6 * (size_t)(r) + 1)

/* See flex.h. */
size_t flex_work_size(const jnt_abi_model *a)
{
    size_t n = FLEX3_WORK, c = 0;
    for (int b = 0; b < a->nblocks; b++) {
        if (!(a->blocks[b].flags & JNT_BLOCK_FFRF_SPARSE))
            continue;
        if ((size_t)a->blocks[b].r > n)
            n = (size_t)a->blocks[b].r;
        c += SP_CACHE(a->blocks[b].r);
    }
    return n + c;
}

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
    if (!(k->flags & JNT_BLOCK_FFRF) || (k->flags & JNT_BLOCK_FFRF_SPARSE))
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

/* A[row, col] += v, at its known place pp[i] in the model's pattern when
 * pp is given (flex_positions) */
#define ADD_AT(pp, i, row, col, v)                                                       \
    do {                                                                                 \
        if (pp)                                                                          \
            A->a[(pp)[i]] += (v);                                                        \
        else                                                                             \
            flex_acc_add(A, (row), (col), (v));                                          \
    } while (0)

/* An unreduced body's data and state at y (JNT_BLOCK_FFRF_SPARSE). */
typedef struct ffrf_sp {
    int fr, q0, r, nq, nnz;
    double *cache; /* SP_CACHE(r) doubles in the scratch (flex_work_size) */
    const int *cp, *ri, *rot, *pos;
    const double *S1, *j1, *e0, *vm, *vk, *vc;
    double m, s0[2], J0;
    const double *qf, *qfd;
    double c, s, thd;
} ffrf_sp;

static int sparse_at(const jnt_model *m, int b, const double *y, double *work, ffrf_sp *F)
{
    const jnt_abi_model *a = m->abi;
    const jnt_abi_block *k = &a->blocks[b];
    if (!(k->flags & JNT_BLOCK_FFRF_SPARSE))
        return 0;
    /* the scratch: r_max (at least FLEX3_WORK), then each body's cache */
    size_t off = FLEX3_WORK;
    for (int i = 0; i < a->nblocks; i++)
        if ((a->blocks[i].flags & JNT_BLOCK_FFRF_SPARSE) && (size_t)a->blocks[i].r > off)
            off = (size_t)a->blocks[i].r;
    for (int i = 0; i < b; i++)
        if (a->blocks[i].flags & JNT_BLOCK_FFRF_SPARSE)
            off += SP_CACHE(a->blocks[i].r);
    F->cache = work + off;
    int r = k->r;
    const double *inv = m->data + k->ffrf;
    size_t nnz = (size_t)inv[4];
    F->fr = k->frame, F->q0 = k->q0, F->r = r, F->nq = a->nq;
    F->m = inv[0], F->s0[0] = inv[1], F->s0[1] = inv[2], F->J0 = inv[3];
    F->S1 = inv + JNT_FFRF_SP_S1;
    F->j1 = F->S1 + 2 * (size_t)r;
    F->e0 = F->j1 + r;
    F->vm = F->e0 + 3 * (size_t)r + 1 + nnz; /* after rot, colptr, rowind */
    F->vk = F->vm + nnz;
    F->vc = F->vk + nnz;
    F->cp = m->blk[b].fcp, F->ri = m->blk[b].fri, F->rot = m->blk[b].frot;
    F->pos = m->blk[b].fpos, F->nnz = (int)nnz;
    F->qf = y + k->q0;
    F->qfd = y + a->nq + k->q0;
    double th = y[k->frame + 2];
    F->c = cos(th), F->s = sin(th);
    F->thd = y[a->nq + k->frame + 2];
    return 1;
}

/* s = s0 + S1 q_f and S1 q_fd (sv, sd). */
static void sp_svec(const ffrf_sp *F, double sv[2], double sd[2])
{
    double x = F->s0[0], y = F->s0[1], vx = 0.0, vy = 0.0;
    const double *S1 = F->S1, *qf = F->qf, *qfd = F->qfd;
    for (int j = 0; j < F->r; j++) {
        x += S1[2 * j] * qf[j], y += S1[2 * j + 1] * qf[j];
        vx += S1[2 * j] * qfd[j], vy += S1[2 * j + 1] * qfd[j];
    }
    sv[0] = x, sv[1] = y, sd[0] = vx, sd[1] = vy;
}

/* The products of an unreduced body's M with its state, in F->cache
 * (SP_CACHE), formed in one pass over M's pattern unless the cache holds
 * them for this q_f and q_fd: the forces, the mass matrix and the
 * Jacobian are evaluated at the same state in turn (a Newton iterate's
 * rhs and mass, the Newton matrix, the step's closing Jacobian), and the
 * pass's cost is reading the pattern, not the multiplications. Each
 * product is summed column by column in the pattern's order. pw: r of
 * scratch. Returns h = j1 + M q_f, then M q_fd, M P q_fd and e0 + M P q_f
 * at r apart. */
static const double *sp_products(const ffrf_sp *F, double *pw)
{
    int r = F->r;
    size_t bytes = (size_t)r * sizeof(double);
    double *c = F->cache, *qf = c + 1, *qfd = qf + r, *h = qfd + r, *mq = h + r;
    double *eq = mq + r, *e = eq + r;
    if (c[0] == 1.0 && memcmp(qf, F->qf, bytes) == 0 && memcmp(qfd, F->qfd, bytes) == 0)
        return h;
    memcpy(h, F->j1, bytes);
    memset(mq, 0, bytes);
    memset(eq, 0, bytes);
    memcpy(e, F->e0, bytes);
    const int *cp = F->cp, *ri = F->ri, *rot = F->rot;
    const double *vm = F->vm, *x = F->qf, *v = F->qfd;
    for (int j = 0; j < r; j++) { /* P q_f into pw; P q_fd's entry as needed */
        int p = rot[j];
        pw[j] = p < 0 ? -x[-p - 1] : x[p - 1];
    }
    for (int j = 0; j < r; j++) {
        int p = rot[j];
        double xj = x[j], vj = v[j], pvj = p < 0 ? -v[-p - 1] : v[p - 1], pxj = pw[j];
        for (int k = cp[j]; k < cp[j + 1]; k++) {
            int i = ri[k];
            double a = vm[k];
            h[i] += a * xj;
            mq[i] += a * vj;
            eq[i] += a * pvj;
            e[i] += a * pxj;
        }
    }
    memcpy(qf, F->qf, bytes);
    memcpy(qfd, F->qfd, bytes);
    c[0] = 1.0;
    return h;
}

/* The floating frame's forces a reduced and an unreduced body share (the
 * reduced body's equations, flex_forces): into f's rows of v (f + nq),
 *   w = thetad^2 s - 2 thetad Itilde S1 q_fd;  Q_R = A w + m g,
 *   Q_theta = -2 thetad h^T q_fd + (A Itilde s) . g,
 *   Q_f = thetad^2 h - 2 thetad E q_fd + S1^T A^T g   (the caller adds - K q_f - C q_fd),
 * with s = sv, S1 q_fd = sd, h and E q_fd = eq from the body's terms. */
static void frame_forces(int nq, int fr, int q0, int r, double mass, const double *S1,
                         const double *qfd, double c, double s, double thd, const double sv[2],
                         const double sd[2], const double *h, const double *eq, double gx,
                         double gy, double *f)
{
    double wx = thd * thd * sv[0] + 2.0 * thd * sd[1];
    double wy = thd * thd * sv[1] - 2.0 * thd * sd[0];
    f[nq + fr] += c * wx - s * wy + mass * gx;
    f[nq + fr + 1] += s * wx + c * wy + mass * gy;
    double hq = 0.0;
    for (int j = 0; j < r; j++)
        hq += h[j] * qfd[j];
    double ais_x = -s * sv[0] - c * sv[1], ais_y = c * sv[0] - s * sv[1];
    f[nq + fr + 2] += -2.0 * thd * hq + ais_x * gx + ais_y * gy;
    double lgx = c * gx + s * gy, lgy = -s * gx + c * gy;
    double *ff = f + nq + q0;
    for (int i = 0; i < r; i++)
        ff[i] += thd * thd * h[i] - 2.0 * thd * eq[i] + S1[2 * i] * lgx + S1[2 * i + 1] * lgy;
}

/* flex_forces for the unreduced bodies: the same equations as the reduced
 * one's below, the r x r products over the pattern (sp_products, then
 * K q_f + C q_fd in a second pass). work: flex_work_size's. */
static void sparse_forces(const jnt_model *m, const double *y, const double *in, double *f,
                          double *work)
{
    ffrf_sp F;
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!sparse_at(m, b, y, work, &F))
            continue;
        int r = F.r;
        double sv[2], sd[2];
        sp_svec(&F, sv, sd);
        const double *h = sp_products(&F, work), *eq = h + 2 * (size_t)r;
        frame_forces(F.nq, F.fr, F.q0, r, F.m, F.S1, F.qfd, F.c, F.s, F.thd, sv, sd, h, eq,
                     in[6 * b], in[6 * b + 1], f);
        /* Q_f's - K q_f - C q_fd */
        double *ff = f + F.nq + F.q0;
        const int *cp = F.cp, *ri = F.ri;
        const double *vk = F.vk, *vc = F.vc;
        for (int j = 0; j < r; j++) {
            double qj = F.qf[j], vj = F.qfd[j];
            for (int k = cp[j]; k < cp[j + 1]; k++)
                ff[ri[k]] -= vk[k] * qj + vc[k] * vj;
        }
    }
}

/* flex_jac for the unreduced bodies (the reduced one's entries, the q_f
 * block by the pattern: thd^2 M - K in q_f, -2 thd M P - C in q_fd, where
 * (M P)[:, j] = sign(rot_p) M[:, p], p = |rot_j| - 1). in NULL: no gravity.
 * Into the model's own pattern the entries' places are known
 * (flex_positions): one pass adds M, K and C, a second M P. */
static void sparse_jac(const jnt_model *m, const double *y, const double *in, flex_acc *A,
                       double *work)
{
    ffrf_sp F;
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!sparse_at(m, b, y, work, &F))
            continue;
        int r = F.r, nq = F.nq, fr = F.fr, q0 = F.q0, th = fr + 2, thv = nq + fr + 2;
        double sv[2], sd[2], c = F.c, s = F.s, thd = F.thd, t2 = thd * thd;
        double gx = in ? in[6 * b] : 0.0, gy = in ? in[6 * b + 1] : 0.0;
        const int *pq = A->cp == m->jcolptr && !A->ld ? F.pos : NULL;
        const int *pv = pq ? pq + F.nnz : NULL, *pe = pq ? pq + 2 * F.nnz : NULL;
        const int *pf = pq ? pq + 4 * (size_t)F.nnz + 6 * (size_t)r : NULL;
        const int *cp = F.cp, *ri = F.ri;
        const double *vm = F.vm, *vk = F.vk, *vc = F.vc;
        double *av = A->a;
        sp_svec(&F, sv, sd);
        const double *h = sp_products(&F, work), *mq = h + r, *eq = mq + r;
        for (int j = 0; pq && j < r; j++)
            for (int k = cp[j]; k < cp[j + 1]; k++) {
                av[pq[k]] += t2 * vm[k] - vk[k];
                av[pv[k]] -= vc[k];
            }
        double wx = thd * thd * sv[0] + 2.0 * thd * sd[1];
        double wy = thd * thd * sv[1] - 2.0 * thd * sd[0];
        flex_acc_add(A, nq + fr, th, -s * wx - c * wy);
        flex_acc_add(A, nq + fr + 1, th, c * wx - s * wy);
        double dx = 2.0 * thd * sv[0] + 2.0 * sd[1], dy = 2.0 * thd * sv[1] - 2.0 * sd[0];
        flex_acc_add(A, nq + fr, thv, c * dx - s * dy);
        flex_acc_add(A, nq + fr + 1, thv, s * dx + c * dy);
        for (int j = 0; j < r; j++) {
            double ax = F.S1[2 * j], ay = F.S1[2 * j + 1];
            ADD_AT(pf, 8 * j, nq + fr, q0 + j, thd * thd * (c * ax - s * ay));
            ADD_AT(pf, 8 * j + 1, nq + fr + 1, q0 + j, thd * thd * (s * ax + c * ay));
            ADD_AT(pf, 8 * j + 2, nq + fr, nq + q0 + j, -2.0 * thd * (-c * ay - s * ax));
            ADD_AT(pf, 8 * j + 3, nq + fr + 1, nq + q0 + j, -2.0 * thd * (-s * ay + c * ax));
        }
        double hq = 0.0;
        for (int j = 0; j < r; j++)
            hq += h[j] * F.qfd[j];
        flex_acc_add(A, nq + th, thv, -2.0 * hq);
        flex_acc_add(A, nq + th, th, -(c * sv[0] - s * sv[1]) * gx - (s * sv[0] + c * sv[1]) * gy);
        for (int j = 0; j < r; j++) {
            double ax = F.S1[2 * j], ay = F.S1[2 * j + 1];
            ADD_AT(pf, 8 * j + 4, nq + th, q0 + j,
                   -2.0 * thd * mq[j] + (-s * ax - c * ay) * gx + (c * ax - s * ay) * gy);
            ADD_AT(pf, 8 * j + 5, nq + th, nq + q0 + j, -2.0 * thd * h[j]);
        }
        double lgx = -s * gx + c * gy, lgy = -c * gx - s * gy;
        for (int i = 0; i < r; i++) {
            ADD_AT(pf, 8 * i + 6, nq + q0 + i, thv, 2.0 * thd * h[i] - 2.0 * eq[i]);
            ADD_AT(pf, 8 * i + 7, nq + q0 + i, th, F.S1[2 * i] * lgx + F.S1[2 * i + 1] * lgy);
        }
        for (int j = 0, e = 0; j < r; j++) {
            for (int k = cp[j]; !pq && k < cp[j + 1]; k++) {
                flex_acc_add(A, nq + q0 + ri[k], q0 + j, t2 * vm[k] - vk[k]);
                flex_acc_add(A, nq + q0 + ri[k], nq + q0 + j, -vc[k]);
            }
            int p = F.rot[j] < 0 ? -F.rot[j] - 1 : F.rot[j] - 1;
            double w = -2.0 * thd * (F.rot[p] < 0 ? -1.0 : 1.0);
            for (int k = cp[p]; k < cp[p + 1]; k++, e++)
                if (pe)
                    av[pe[e]] += w * vm[k];
                else
                    flex_acc_add(A, nq + q0 + ri[k], nq + q0 + j, w * vm[k]);
        }
    }
}

/* flex_mass for the unreduced bodies: M_ff = M by the pattern, the frame's
 * rows and columns dense (h and e = e0 + E q_f = e0 + M P q_f from
 * sp_products). */
static void sparse_mass(const jnt_model *m, const double *y, flex_acc *A, double *work)
{
    ffrf_sp F;
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!sparse_at(m, b, y, work, &F))
            continue;
        int r = F.r, fr = F.fr, q0 = F.q0;
        double sv[2], sd[2], c = F.c, s = F.s;
        const int *pm = A->cp == m->mcolptr && !A->ld && F.pos ? F.pos + 3 * F.nnz : NULL;
        const int *cp = F.cp, *ri = F.ri;
        const double *vm = F.vm;
        sp_svec(&F, sv, sd);
        const double *h = sp_products(&F, work), *e = h + 3 * (size_t)r;
        for (int j = 0; j < r; j++)
            for (int k = cp[j]; k < cp[j + 1]; k++)
                if (pm)
                    A->a[pm[k]] += vm[k];
                else
                    flex_acc_add(A, q0 + ri[k], q0 + j, vm[k]);
        flex_acc_add(A, fr, fr, F.m);
        flex_acc_add(A, fr + 1, fr + 1, F.m);
        double ax = -s * sv[0] - c * sv[1], ay = c * sv[0] - s * sv[1];
        flex_acc_add(A, fr, fr + 2, ax), flex_acc_add(A, fr + 2, fr, ax);
        flex_acc_add(A, fr + 1, fr + 2, ay), flex_acc_add(A, fr + 2, fr + 1, ay);
        double J = F.J0;
        for (int j = 0; j < r; j++)
            J += (F.j1[j] + h[j]) * F.qf[j];
        flex_acc_add(A, fr + 2, fr + 2, J);
        const int *pf = pm ? pm + F.nnz : NULL;
        for (int j = 0; j < r; j++) {
            double bx = F.S1[2 * j], by = F.S1[2 * j + 1];
            double rx = c * bx - s * by, ry = s * bx + c * by;
            ADD_AT(pf, 6 * j, fr, q0 + j, rx);
            ADD_AT(pf, 6 * j + 1, q0 + j, fr, rx);
            ADD_AT(pf, 6 * j + 2, fr + 1, q0 + j, ry);
            ADD_AT(pf, 6 * j + 3, q0 + j, fr + 1, ry);
            ADD_AT(pf, 6 * j + 4, fr + 2, q0 + j, e[j]);
            ADD_AT(pf, 6 * j + 5, q0 + j, fr + 2, e[j]);
        }
    }
}

/* See flex.h. */
void flex_forces(const jnt_model *m, const double *y, const double *in, double *f,
                 double *work)
{
    sparse_forces(m, y, in, f, work);
    ffrf F;
    double h[JNT_MAX_BLOCK], eq[JNT_MAX_BLOCK];
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!ffrf_at(m, b, y, &F))
            continue;
        int r = F.r;
        double sv[2], sd[2];
        ffrf_terms(&F, sv, sd, h, eq, NULL);
        frame_forces(F.nq, F.fr, F.q0, r, F.m, F.S1, F.qfd, F.c, F.s, F.thd, sv, sd, h, eq,
                     in[6 * b], in[6 * b + 1], f);
        /* Q_f's - Kr q_f - Cr q_fd */
        double *ff = f + F.nq + F.q0;
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, -1.0, F.Kr, r, F.qf, 1, 1.0, ff, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, -1.0, F.Cr, r, F.qfd, 1, 1.0, ff, 1);
    }
    flex3_body B;
    for (int b = 0; b < m->abi->nblocks; b++)
        if (flex3_at(m, b, &B))
            flex3_forces(&B, y, y + m->abi->nq, in + 6 * b, f + m->abi->nq, work);
}

/* See flex.h. */
void flex_jac(const jnt_model *m, const double *y, const double *in, flex_acc *A, double *work)
{
    ffrf F;
    double h[JNT_MAX_BLOCK], eq[JNT_MAX_BLOCK], mq[JNT_MAX_BLOCK];
    sparse_jac(m, y, in, A, work);
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!ffrf_at(m, b, y, &F))
            continue;
        int r = F.r, nq = F.nq, fr = F.fr, q0 = F.q0;
        double sv[2], sd[2], c = F.c, s = F.s, thd = F.thd;
        double gx = in ? in[6 * b] : 0.0, gy = in ? in[6 * b + 1] : 0.0;
        ffrf_terms(&F, sv, sd, h, eq, mq);
        /* J[row, col]: rows of forces nq + coordinate */
        int th = fr + 2, thv = nq + fr + 2;
        /* R rows: d(A w)/dtheta = A Itilde w; d/dq_f = A thd^2 S1;
         * d/dthetad = A (2 thd s - 2 Itilde S1 q_fd); d/dq_fd = -2 thd A Itilde S1 */
        double wx = thd * thd * sv[0] + 2.0 * thd * sd[1];
        double wy = thd * thd * sv[1] - 2.0 * thd * sd[0];
        flex_acc_add(A, nq + (fr), th, -s * wx - c * wy);
        flex_acc_add(A, nq + (fr + 1), th, c * wx - s * wy);
        double dx = 2.0 * thd * sv[0] + 2.0 * sd[1], dy = 2.0 * thd * sv[1] - 2.0 * sd[0];
        flex_acc_add(A, nq + (fr), thv, c * dx - s * dy);
        flex_acc_add(A, nq + (fr + 1), thv, s * dx + c * dy);
        for (int j = 0; j < r; j++) {
            double ax = F.S1[2 * j], ay = F.S1[2 * j + 1];
            flex_acc_add(A, nq + (fr), q0 + j, thd * thd * (c * ax - s * ay));
            flex_acc_add(A, nq + (fr + 1), q0 + j, thd * thd * (s * ax + c * ay));
            /* -2 thd A Itilde S1_j = -2 thd A (-ay, ax) */
            flex_acc_add(A, nq + (fr), nq + q0 + j, -2.0 * thd * (-c * ay - s * ax));
            flex_acc_add(A, nq + (fr + 1), nq + q0 + j, -2.0 * thd * (-s * ay + c * ax));
        }
        /* theta row */
        double hq = 0.0;
        for (int j = 0; j < r; j++)
            hq += h[j] * F.qfd[j];
        flex_acc_add(A, nq + (th), thv, -2.0 * hq);
        flex_acc_add(A, nq + (th), th, -(c * sv[0] - s * sv[1]) * gx - (s * sv[0] + c * sv[1]) * gy);
        for (int j = 0; j < r; j++) {
            double ax = F.S1[2 * j], ay = F.S1[2 * j + 1];
            flex_acc_add(A, nq + (th), q0 + j, -2.0 * thd * mq[j] + (-s * ax - c * ay) * gx + (c * ax - s * ay) * gy);
            flex_acc_add(A, nq + (th), nq + q0 + j, -2.0 * thd * h[j]);
        }
        /* q_f rows */
        double lgx = -s * gx + c * gy, lgy = -c * gx - s * gy; /* d(A^T g)/dtheta */
        for (int i = 0; i < r; i++) {
            flex_acc_add(A, nq + (q0 + i), thv, 2.0 * thd * h[i] - 2.0 * eq[i]);
            flex_acc_add(A, nq + (q0 + i), th, F.S1[2 * i] * lgx + F.S1[2 * i + 1] * lgy);
        }
        for (int j = 0; j < r; j++) {
            const double *Mj = F.Mr + (size_t)j * r, *Ej = F.E + (size_t)j * r;
            const double *Kj = F.Kr + (size_t)j * r, *Cj = F.Cr + (size_t)j * r;
            for (int i = 0; i < r; i++) {
                flex_acc_add(A, nq + (q0 + i), q0 + j, thd * thd * Mj[i] - Kj[i]);
                flex_acc_add(A, nq + (q0 + i), nq + q0 + j, -2.0 * thd * Ej[i] - Cj[i]);
            }
        }
    }
    flex3_body B;
    int nq = m->abi->nq;
    size_t n = A->ld;
    for (int b = 0; n && b < m->abi->nblocks; b++) /* dense only (flex_sparse_model's) */
        if (flex3_at(m, b, &B))
            flex3_jac(&B, y, y + nq, in + 6 * b, A->a + nq, A->a + (size_t)nq * n + nq, (int)n,
                      work);
}

/* See flex.h. */
void flex_mass(const jnt_model *m, const double *y, flex_acc *A, double *work)
{
    ffrf F;
    double h[JNT_MAX_BLOCK], e[JNT_MAX_BLOCK];
    sparse_mass(m, y, A, work);
    for (int b = 0; b < m->abi->nblocks; b++) {
        if (!ffrf_at(m, b, y, &F))
            continue;
        int r = F.r, fr = F.fr, q0 = F.q0;
        double sv[2], sd[2], c = F.c, s = F.s;
        ffrf_terms(&F, sv, sd, h, NULL, NULL);
        flex_acc_add(A, fr, fr, F.m);
        flex_acc_add(A, fr + 1, fr + 1, F.m);
        /* M_Rtheta = A Itilde s */
        double ax = -s * sv[0] - c * sv[1], ay = c * sv[0] - s * sv[1];
        flex_acc_add(A, fr, fr + 2, ax), flex_acc_add(A, fr + 2, fr, ax);
        flex_acc_add(A, fr + 1, fr + 2, ay), flex_acc_add(A, fr + 2, fr + 1, ay);
        /* M_thetatheta = J0 + 2 j1^T q_f + q_f^T Mr q_f = J0 + (j1 + h)^T q_f */
        double J = F.J0;
        for (int j = 0; j < r; j++)
            J += (F.j1[j] + h[j]) * F.qf[j];
        flex_acc_add(A, fr + 2, fr + 2, J);
        /* M_thetaf = (e0 + E q_f)^T, M_Rf = A S1, M_ff = Mr */
        memcpy(e, F.e0, (size_t)r * sizeof *e);
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F.E, r, F.qf, 1, 1.0, e, 1);
        for (int j = 0; j < r; j++) {
            double bx = F.S1[2 * j], by = F.S1[2 * j + 1];
            double rx = c * bx - s * by, ry = s * bx + c * by;
            flex_acc_add(A, fr, q0 + j, rx), flex_acc_add(A, q0 + j, fr, rx);
            flex_acc_add(A, fr + 1, q0 + j, ry), flex_acc_add(A, q0 + j, fr + 1, ry);
            flex_acc_add(A, fr + 2, q0 + j, e[j]), flex_acc_add(A, q0 + j, fr + 2, e[j]);
            const double *Mrj = F.Mr + (size_t)j * r;
            for (int i = 0; i < r; i++)
                flex_acc_add(A, q0 + i, q0 + j, Mrj[i]);
        }
    }
    flex3_body B;
    for (int b = 0; A->ld && b < m->abi->nblocks; b++)
        if (flex3_at(m, b, &B))
            flex3_mass(&B, y, A->a, (int)A->ld, work);
}

/* The place of (row, col) in the CSC pattern cp, ri, or -1. */
static int find_entry(const int *cp, const int *ri, int row, int col)
{
    int lo = cp[col], hi = cp[col + 1] - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (ri[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo <= hi && ri[lo] == row ? lo : -1;
}

/* See flex.h. */
int flex_positions(jnt_model *m)
{
    const jnt_abi_model *a = m->abi;
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        model_block *mb = &m->blk[b];
        if (!(k->flags & JNT_BLOCK_FFRF_SPARSE))
            continue;
        int r = k->r, nq = a->nq, q0 = k->q0, bad = 0, fr = k->frame, th = fr + 2;
        size_t nnz = (size_t)mb->fcp[r];
        int *pos = malloc((4 * nnz + 14 * (size_t)r) * sizeof *pos + 1);
        if (!pos)
            return -1;
        for (int j = 0, e = 0; j < r; j++) {
            for (int c = mb->fcp[j]; c < mb->fcp[j + 1]; c++) {
                int i = mb->fri[c];
                pos[c] = find_entry(m->jcolptr, m->jrowind, nq + q0 + i, q0 + j);
                pos[nnz + c] = find_entry(m->jcolptr, m->jrowind, nq + q0 + i, nq + q0 + j);
                pos[3 * nnz + c] = find_entry(m->mcolptr, m->mrowind, q0 + i, q0 + j);
                bad |= pos[c] < 0 || pos[nnz + c] < 0 || pos[3 * nnz + c] < 0;
            }
            int p = mb->frot[j] < 0 ? -mb->frot[j] - 1 : mb->frot[j] - 1;
            for (int c = mb->fcp[p]; c < mb->fcp[p + 1]; c++, e++) {
                pos[2 * nnz + e] =
                    find_entry(m->jcolptr, m->jrowind, nq + q0 + mb->fri[c], nq + q0 + j);
                bad |= pos[2 * nnz + e] < 0;
            }
        }
        /* the frame's rows and columns: mass (6 a coordinate), Jacobian (8) */
        int *pm = pos + 4 * nnz, *pj = pm + 6 * (size_t)r;
        const int *jc = m->jcolptr, *jr = m->jrowind, *mc = m->mcolptr, *mr = m->mrowind;
        for (int j = 0; j < r; j++) {
            for (int c = 0; c < 3; c++) {
                pm[6 * j + 2 * c] = find_entry(mc, mr, fr + c, q0 + j);
                pm[6 * j + 2 * c + 1] = find_entry(mc, mr, q0 + j, fr + c);
            }
            pj[8 * j] = find_entry(jc, jr, nq + fr, q0 + j);
            pj[8 * j + 1] = find_entry(jc, jr, nq + fr + 1, q0 + j);
            pj[8 * j + 2] = find_entry(jc, jr, nq + fr, nq + q0 + j);
            pj[8 * j + 3] = find_entry(jc, jr, nq + fr + 1, nq + q0 + j);
            pj[8 * j + 4] = find_entry(jc, jr, nq + th, q0 + j);
            pj[8 * j + 5] = find_entry(jc, jr, nq + th, nq + q0 + j);
            pj[8 * j + 6] = find_entry(jc, jr, nq + q0 + j, nq + th);
            pj[8 * j + 7] = find_entry(jc, jr, nq + q0 + j, th);
            for (int c = 0; c < 6; c++)
                bad |= pm[6 * j + c] < 0;
            for (int c = 0; c < 8; c++)
                bad |= pj[8 * j + c] < 0;
        }
        if (bad) {
            free(pos);
            return -1;
        }
        mb->fpos = pos;
    }
    return 0;
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
        } else if ((k->flags & JNT_BLOCK_FFRF) && !(k->flags & JNT_BLOCK_FFRF_SPARSE)) {
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
