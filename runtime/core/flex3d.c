/*
 * flex3d.c: the floating frame of reference of spatial flexible bodies in
 * director coordinates (flex3d.h).
 *
 * Coordinates x, d1, d2, d3 (R = [d1 d2 d3]) and q; rates v = x',
 * dd_i = d_i', u = q'. With the invariants of setup/red_ffrf3d.c the kinetic
 * energy is
 *   T = m/2 v.v + sum_i a_i v.dd_i + v.R S1 u + 1/2 sum_ij E_ij dd_i.dd_j
 *       + sum_i dd_i.R C_i u + 1/2 u^T Mr u,
 * a = s0 + S1 q, E(q) = E0 + sum_m q_m E1_m + sum_mn q_m q_n E2_mn,
 * C_i(q)[k, n] = C0_i[k, n] + sum_m q_m C1_ik[m, n]. Its M_qq is
 * int Phi_P^T R^T R Phi_P dm with R^T R = I put in: T and the T of R^T R
 * kept agree wherever the directors are orthonormal and their rates keep
 * them so (the constraint manifold and its tangent bundle), and two
 * Lagrangians that agree there give constrained equations that differ only
 * by terms in the span of the constraint gradients C_q^T, which the
 * multipliers of the six director rows take up: the motion is the same.
 *
 * Lagrange's equations d/dt dT/dw - dT/d(coords) = Q give M w' = Q_v + Q
 * with Q_v = -M' w + dT/d(coords) (M' the time derivative of M at fixed
 * w). With sigma = S1 u, beta_i[k] = d_k.dd_i, Delta_ik = dd_i.dd_k,
 * E'_n = dE/dq_n = E1_n + 2 sum_m q_m E2_nm, Edot = sum_n u_n E'_n,
 * (Cu)_ik = (C_i u)_k, g_i[k] = u^T C1_ik u and
 * H_ij = Edot_ij + (Cu)_ij - (Cu)_ji:
 *   (Q_v)_x   = -2 sum_i sigma_i dd_i
 *   (Q_v)_di  = -sum_j H_ij dd_j - R g_i
 *   (Q_v)_q,m = sum_ik beta_i[k] ((C1_ik - C1_ik^T) u)_m
 *               - sum_ik C_i[k, m] Delta_ik + 1/2 sum_ij Delta_ij E'_m,ij
 * (derivation: dT/dx = 0, dT/dd_i = sigma_i v + sum_j (Cu)_ji dd_j,
 * dT/dq_m = sum_i S1[i, m] v.dd_i + 1/2 sum_ij E'_m,ij Delta_ij
 * + sum_ik beta_i[k] (C1_ik u)_m, and M' w from a' = sigma, R' = [dd_i],
 * C_i' = sum_n u_n C1_i.[n, .]). There is no centrifugal term in (Q_v)_q:
 * in director coordinates the centripetal accelerations of the directors
 * are unknowns, and M_q,di = C_i^T R^T carries them to q. Gravity is
 * -dV/d(coords) of V = -g . int r_P dm = -g . (m x + R a): m g on x, a_i g
 * on d_i, S1^T R^T g on q. The elastic and damping forces are -Kr q - Cr u.
 */
#include <cblas.h>
#include <string.h>

#include "flex3d.h"

/* The index of the pair (i, k) in E2's storage, and the pairs. */
static const int PAIR[3][3] = {{0, 3, 4}, {3, 1, 5}, {4, 5, 2}};
static const int PI_[6] = {0, 1, 2, 0, 0, 1}, PK_[6] = {0, 1, 2, 1, 2, 2};

/* One body's invariants, state and the terms built from them. */
typedef struct f3 {
    int r, fr, q0;
    double m, s0[3], E0[9];
    const double *S1, *E1, *C0, *E2, *C1, *Mr, *Kr, *Cr;
    const double *x, *d[3], *q;  /* coordinates */
    const double *v, *dd[3], *u; /* rates (NULL without) */
    double a[3], E[9];           /* s0 + S1 q, E(q) (3 x 3) */
    /* r-vectors in the caller's work */
    double *Cq;   /* 9 r: at (i + 3 k) r, C_i(q)[k, .] */
    double *E2q;  /* 6 r: E2_p q */
    double *Ep;   /* 6 r: at p r, E'_n for pair p over n */
    double *C1u;  /* 9 r: C1_ik u (mass_jac: C1_ik a_q) */
    double *C1tu; /* 9 r: C1_ik^T u */
    double *E2u;  /* 6 r: E2_p u */
    double *tmp;  /* r */
    /* with rates, all at [i + 3 k] */
    double sig[3], Cu[9], Ed[9], g[9], beta[9], Dl[9];
} f3;

/* See flex3d.h. */
size_t flex3_work_size(int r)
{
    return 46 * (size_t)(r > 0 ? r : 0) + 1;
}

/* See flex3d.h. */
int flex3_coords(const flex3_body *b, int *idx)
{
    for (int k = 0; k < 12; k++)
        idx[k] = b->frame + k;
    for (int k = 0; k < b->r; k++)
        idx[12 + k] = b->q0 + k;
    return 12 + b->r;
}

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double dotn(int n, const double *a, const double *b)
{
    return n > 0 ? cblas_ddot(n, a, 1, b, 1) : 0.0;
}

/* The body at (q, v) (v may be NULL: no rate terms); rates: also the
 * r-vectors of u. */
static void f3_at(const flex3_body *b, const double *q, const double *v, double *work, f3 *F)
{
    const double *inv = b->inv;
    int r = b->r;
    size_t rr = (size_t)r * r;
    F->r = r, F->fr = b->frame, F->q0 = b->q0;
    F->m = inv[JNT_FFRF3_M];
    memcpy(F->s0, inv + JNT_FFRF3_S0, sizeof F->s0);
    memcpy(F->E0, inv + JNT_FFRF3_E0, sizeof F->E0);
    F->S1 = inv + JNT_FFRF3_S1;
    F->E1 = inv + JNT_FFRF3_E1(r);
    F->C0 = inv + JNT_FFRF3_C0(r);
    F->E2 = inv + JNT_FFRF3_E2(r);
    F->C1 = inv + JNT_FFRF3_C1(r);
    F->Mr = inv + JNT_FFRF3_MR(r);
    F->Kr = inv + JNT_FFRF3_KR(r);
    F->Cr = inv + JNT_FFRF3_CR(r);
    F->x = q + b->frame;
    for (int i = 0; i < 3; i++)
        F->d[i] = q + b->frame + 3 + 3 * i;
    F->q = q + b->q0;
    F->Cq = work;
    F->E2q = F->Cq + 9 * (size_t)r;
    F->Ep = F->E2q + 6 * (size_t)r;
    F->C1u = F->Ep + 6 * (size_t)r;
    F->C1tu = F->C1u + 9 * (size_t)r;
    F->E2u = F->C1tu + 9 * (size_t)r;
    F->tmp = F->E2u + 6 * (size_t)r;
    /* a = s0 + S1 q */
    for (int k = 0; k < 3; k++) {
        F->a[k] = F->s0[k];
        for (int n = 0; n < r; n++)
            F->a[k] += F->S1[k + 3 * n] * F->q[n];
    }
    /* C_i(q)[k, .] = C0_i[k, .] + C1_ik^T q */
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            double *c = F->Cq + (size_t)(i + 3 * k) * r;
            const double *c0 = F->C0 + 3 * (size_t)r * i;
            for (int n = 0; n < r; n++)
                c[n] = c0[k + 3 * n];
            if (r > 0)
                cblas_dgemv(CblasColMajor, CblasTrans, r, r, 1.0, F->C1 + (i + 3 * k) * rr, r,
                            F->q, 1, 1.0, c, 1);
        }
    /* E2_p q; E(q); E'_n = E1_n + 2 E2_n. q */
    for (int p = 0; p < 6; p++) {
        double *e = F->E2q + (size_t)p * r;
        if (r > 0)
            cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F->E2 + p * rr, r, F->q, 1,
                        0.0, e, 1);
        int i = PI_[p], k = PK_[p];
        double s = F->E0[i + 3 * k] + dotn(r, F->q, e);
        for (int n = 0; n < r; n++) {
            double e1 = F->E1[9 * (size_t)n + i + 3 * k];
            s += F->q[n] * e1;
            F->Ep[(size_t)p * r + n] = e1 + 2.0 * e[n];
        }
        F->E[i + 3 * k] = F->E[k + 3 * i] = s;
    }
    F->v = v ? v + b->frame : NULL;
    if (!v)
        return;
    for (int i = 0; i < 3; i++)
        F->dd[i] = v + b->frame + 3 + 3 * i;
    F->u = v + b->q0;
    const double *u = F->u;
    for (int k = 0; k < 3; k++) {
        F->sig[k] = 0.0;
        for (int n = 0; n < r; n++)
            F->sig[k] += F->S1[k + 3 * n] * u[n];
    }
    for (int ik = 0; ik < 9; ik++) {
        int i = ik % 3, k = ik / 3;
        const double *c1 = F->C1 + ik * rr;
        double *cu = F->C1u + (size_t)ik * r, *ctu = F->C1tu + (size_t)ik * r;
        if (r > 0) {
            cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, c1, r, u, 1, 0.0, cu, 1);
            cblas_dgemv(CblasColMajor, CblasTrans, r, r, 1.0, c1, r, u, 1, 0.0, ctu, 1);
        }
        F->Cu[ik] = dotn(r, F->Cq + (size_t)ik * r, u);
        F->g[ik] = dotn(r, u, cu);
        F->Ed[ik] = dotn(r, F->Ep + (size_t)PAIR[i][k] * r, u);
        F->beta[ik] = dot3(F->d[k], F->dd[i]);
        F->Dl[ik] = dot3(F->dd[i], F->dd[k]);
    }
    for (int p = 0; p < 6 && r > 0; p++)
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F->E2 + p * rr, r, u, 1, 0.0,
                    F->E2u + (size_t)p * r, 1);
}

/* Indices: x_l, component l of d_i, q_n. */
#define IX(l) (F.fr + (l))
#define ID(i, l) (F.fr + 3 + 3 * (i) + (l))
#define IQ(n) (F.q0 + (n))

/* See flex3d.h. */
void flex3_mass(const flex3_body *b, const double *q, double *M, int ld, double *work)
{
    f3 F;
    f3_at(b, q, NULL, work, &F);
    int r = F.r;
#define MA(row, col) M[(size_t)(col) * (size_t)ld + (size_t)(row)]
    /* M_xx = m I, M_x,di = a_i I, M_di,dj = E_ij I */
    for (int l = 0; l < 3; l++) {
        MA(IX(l), IX(l)) += F.m;
        for (int i = 0; i < 3; i++) {
            MA(IX(l), ID(i, l)) += F.a[i];
            MA(ID(i, l), IX(l)) += F.a[i];
            for (int j = 0; j < 3; j++)
                MA(ID(i, l), ID(j, l)) += F.E[i + 3 * j];
        }
    }
    /* M_x,q = R S1, M_di,q = R C_i, M_qq = Mr */
    for (int n = 0; n < r; n++) {
        for (int l = 0; l < 3; l++) {
            double rs = 0.0;
            for (int k = 0; k < 3; k++)
                rs += F.d[k][l] * F.S1[k + 3 * n];
            MA(IX(l), IQ(n)) += rs;
            MA(IQ(n), IX(l)) += rs;
            for (int i = 0; i < 3; i++) {
                double rc = 0.0;
                for (int k = 0; k < 3; k++)
                    rc += F.d[k][l] * F.Cq[(size_t)(i + 3 * k) * r + n];
                MA(ID(i, l), IQ(n)) += rc;
                MA(IQ(n), ID(i, l)) += rc;
            }
        }
        cblas_daxpy(r, 1.0, F.Mr + (size_t)n * r, 1, &MA(IQ(0), IQ(n)), 1);
    }
#undef MA
}

/* See flex3d.h. */
void flex3_forces(const flex3_body *b, const double *q, const double *v, const double *g,
                  double *f, double *work)
{
    f3 F;
    f3_at(b, q, v, work, &F);
    int r = F.r;
    static const double g0[3] = {0, 0, 0};
    if (!g)
        g = g0;
    /* (Q_v)_x + m g */
    for (int l = 0; l < 3; l++) {
        double s = F.m * g[l];
        for (int i = 0; i < 3; i++)
            s -= 2.0 * F.sig[i] * F.dd[i][l];
        f[IX(l)] += s;
    }
    /* (Q_v)_di + a_i g */
    for (int i = 0; i < 3; i++)
        for (int l = 0; l < 3; l++) {
            double s = F.a[i] * g[l];
            for (int j = 0; j < 3; j++) {
                double h = F.Ed[i + 3 * j] + F.Cu[i + 3 * j] - F.Cu[j + 3 * i];
                s -= h * F.dd[j][l] + F.g[i + 3 * j] * F.d[j][l];
            }
            f[ID(i, l)] += s;
        }
    /* (Q_v)_q + S1^T R^T g - Kr q - Cr u */
    double rg[3];
    for (int k = 0; k < 3; k++)
        rg[k] = dot3(F.d[k], g);
    for (int m = 0; m < r; m++) {
        double s = 0.0;
        for (int ik = 0; ik < 9; ik++) {
            size_t o = (size_t)ik * r + m;
            int i = ik % 3, k = ik / 3;
            s += F.beta[ik] * (F.C1u[o] - F.C1tu[o]) - F.Cq[o] * F.Dl[ik] +
                 0.5 * F.Dl[ik] * F.Ep[(size_t)PAIR[i][k] * r + m];
        }
        for (int k = 0; k < 3; k++)
            s += F.S1[k + 3 * m] * rg[k];
        f[IQ(m)] += s;
    }
    if (r > 0) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, -1.0, F.Kr, r, F.q, 1, 1.0, f + IQ(0), 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, -1.0, F.Cr, r, F.u, 1, 1.0, f + IQ(0), 1);
    }
}

/* See flex3d.h. */
void flex3_jac(const flex3_body *b, const double *q, const double *v, const double *g,
               double *Jq, double *Jv, int ld, double *work)
{
    f3 F;
    f3_at(b, q, v, work, &F);
    int r = F.r;
    size_t rr = (size_t)r * r;
    static const double g0[3] = {0, 0, 0};
    if (!g)
        g = g0;
#define JQ(row, col) Jq[(size_t)(col) * (size_t)ld + (size_t)(row)]
#define JV(row, col) Jv[(size_t)(col) * (size_t)ld + (size_t)(row)]
    if (Jv) {
        /* x rows: d/ddd_j = -2 sigma_j I, d/du = -2 [dd_1 dd_2 dd_3] S1 */
        for (int l = 0; l < 3; l++) {
            for (int j = 0; j < 3; j++)
                JV(IX(l), ID(j, l)) += -2.0 * F.sig[j];
            for (int n = 0; n < r; n++) {
                double s = 0.0;
                for (int i = 0; i < 3; i++)
                    s += F.dd[i][l] * F.S1[i + 3 * n];
                JV(IX(l), IQ(n)) += -2.0 * s;
            }
        }
        /* d_i rows: d/ddd_j = -H_ij I; d/du_n = -sum_j dd_j dH_ij/du_n - R dg_i/du_n */
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++) {
                for (int j = 0; j < 3; j++)
                    JV(ID(i, l), ID(j, l)) +=
                        -(F.Ed[i + 3 * j] + F.Cu[i + 3 * j] - F.Cu[j + 3 * i]);
                for (int n = 0; n < r; n++) {
                    double s = 0.0;
                    for (int j = 0; j < 3; j++) {
                        double dh = F.Ep[(size_t)PAIR[i][j] * r + n] +
                                    F.Cq[(size_t)(i + 3 * j) * r + n] -
                                    F.Cq[(size_t)(j + 3 * i) * r + n];
                        size_t o = (size_t)(i + 3 * j) * r + n;
                        s += F.dd[j][l] * dh + F.d[j][l] * (F.C1u[o] + F.C1tu[o]);
                    }
                    JV(ID(i, l), IQ(n)) -= s;
                }
            }
        /* q rows: d/ddd_j and d/du */
        for (int m = 0; m < r; m++)
            for (int j = 0; j < 3; j++)
                for (int c = 0; c < 3; c++) {
                    double s = 0.0;
                    for (int k = 0; k < 3; k++) {
                        size_t o = (size_t)(j + 3 * k) * r + m;
                        s += (F.C1u[o] - F.C1tu[o]) * F.d[k][c] +
                             (F.Ep[(size_t)PAIR[j][k] * r + m] - F.Cq[o] -
                              F.Cq[(size_t)(k + 3 * j) * r + m]) * F.dd[k][c];
                    }
                    JV(IQ(m), ID(j, c)) += s;
                }
        for (int n = 0; n < r; n++) {
            double *col = &JV(IQ(0), IQ(n));
            for (int ik = 0; ik < 9; ik++) {
                const double *c1 = F.C1 + ik * rr;
                cblas_daxpy(r, F.beta[ik], c1 + (size_t)n * r, 1, col, 1);
                cblas_daxpy(r, -F.beta[ik], c1 + n, r, col, 1);
            }
            cblas_daxpy(r, -1.0, F.Cr + (size_t)n * r, 1, col, 1);
        }
    }
    if (Jq) {
        /* d_i rows: d(-R g_i)/dd_k = -g_i[k] I; d/dq_n */
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++) {
                for (int k = 0; k < 3; k++)
                    JQ(ID(i, l), ID(k, l)) += -F.g[i + 3 * k];
                for (int n = 0; n < r; n++) {
                    double s = F.S1[i + 3 * n] * g[l];
                    for (int j = 0; j < 3; j++)
                        s -= F.dd[j][l] * (2.0 * F.E2u[(size_t)PAIR[i][j] * r + n] +
                                           F.C1u[(size_t)(i + 3 * j) * r + n] -
                                           F.C1u[(size_t)(j + 3 * i) * r + n]);
                    JQ(ID(i, l), IQ(n)) += s;
                }
            }
        /* q rows: d/dd_l (beta and gravity), d/dq */
        for (int m = 0; m < r; m++)
            for (int l = 0; l < 3; l++)
                for (int c = 0; c < 3; c++) {
                    double s = F.S1[l + 3 * m] * g[c];
                    for (int i = 0; i < 3; i++) {
                        size_t o = (size_t)(i + 3 * l) * r + m;
                        s += (F.C1u[o] - F.C1tu[o]) * F.dd[i][c];
                    }
                    JQ(IQ(m), ID(l, c)) += s;
                }
        for (int n = 0; n < r; n++) {
            double *col = &JQ(IQ(0), IQ(n));
            for (int ik = 0; ik < 9; ik++)
                cblas_daxpy(r, -F.Dl[ik], F.C1 + ik * rr + n, r, col, 1);
            for (int p = 0; p < 6; p++) {
                int i = PI_[p], k = PK_[p];
                double c = (i == k ? 1.0 : 2.0) * F.Dl[i + 3 * k];
                cblas_daxpy(r, c, F.E2 + p * rr + (size_t)n * r, 1, col, 1);
            }
            cblas_daxpy(r, -1.0, F.Kr + (size_t)n * r, 1, col, 1);
        }
    }
#undef JQ
#undef JV
}

/* See flex3d.h. */
void flex3_mass_jac(const flex3_body *b, const double *q, const double *a, double *J, int ld,
                    double *work)
{
    f3 F;
    f3_at(b, q, NULL, work, &F);
    int r = F.r;
    size_t rr = (size_t)r * r;
    const double *ax = a + b->frame, *ad[3], *au = a + b->q0;
    for (int i = 0; i < 3; i++)
        ad[i] = a + b->frame + 3 + 3 * i;
    /* C1_ik a_q, C_i a_q, S1 a_q, rho_ik = d_k . a_di */
    double ca[9], sa[3], rho[9];
    for (int ik = 0; ik < 9; ik++) {
        if (r > 0)
            cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F.C1 + ik * rr, r, au, 1, 0.0,
                        F.C1u + (size_t)ik * r, 1);
        ca[ik] = dotn(r, F.Cq + (size_t)ik * r, au);
        rho[ik] = dot3(F.d[ik / 3], ad[ik % 3]);
    }
    for (int k = 0; k < 3; k++) {
        sa[k] = 0.0;
        for (int n = 0; n < r; n++)
            sa[k] += F.S1[k + 3 * n] * au[n];
    }
#define JA(row, col) J[(size_t)(col) * (size_t)ld + (size_t)(row)]
    /* x rows: (M a)_x = m a_x + sum_i a_i a_di + R S1 a_q */
    for (int l = 0; l < 3; l++) {
        for (int k = 0; k < 3; k++)
            JA(IX(l), ID(k, l)) += sa[k];
        for (int n = 0; n < r; n++) {
            double s = 0.0;
            for (int i = 0; i < 3; i++)
                s += F.S1[i + 3 * n] * ad[i][l];
            JA(IX(l), IQ(n)) += s;
        }
    }
    /* d_i rows: (M a)_di = a_i a_x + sum_j E_ij a_dj + R C_i a_q */
    for (int i = 0; i < 3; i++)
        for (int l = 0; l < 3; l++) {
            for (int k = 0; k < 3; k++)
                JA(ID(i, l), ID(k, l)) += ca[i + 3 * k];
            for (int n = 0; n < r; n++) {
                double s = F.S1[i + 3 * n] * ax[l];
                for (int j = 0; j < 3; j++)
                    s += F.Ep[(size_t)PAIR[i][j] * r + n] * ad[j][l] +
                         F.d[j][l] * F.C1u[(size_t)(i + 3 * j) * r + n];
                JA(ID(i, l), IQ(n)) += s;
            }
        }
    /* q rows: (M a)_q = S1^T R^T a_x + sum_i C_i^T R^T a_di + Mr a_q */
    for (int m = 0; m < r; m++)
        for (int k = 0; k < 3; k++)
            for (int c = 0; c < 3; c++) {
                double s = F.S1[k + 3 * m] * ax[c];
                for (int i = 0; i < 3; i++)
                    s += F.Cq[(size_t)(i + 3 * k) * r + m] * ad[i][c];
                JA(IQ(m), ID(k, c)) += s;
            }
    for (int n = 0; n < r; n++)
        for (int ik = 0; ik < 9; ik++)
            cblas_daxpy(r, rho[ik], F.C1 + ik * rr + n, r, &JA(IQ(0), IQ(n)), 1);
#undef JA
}

/* See flex3d.h. */
void flex3_momentum(const flex3_body *b, const double *q, const double *v, double *T,
                    double P[3], double L[3], double *work)
{
    f3 F;
    f3_at(b, q, v, work, &F);
    int r = F.r;
    /* p_x = m v + sum_i a_i dd_i + R sigma; p_di = a_i v + sum_j E_ij dd_j + R C_i u */
    double px[3], pd[3][3];
    for (int l = 0; l < 3; l++) {
        px[l] = F.m * F.v[l];
        for (int i = 0; i < 3; i++) {
            px[l] += F.a[i] * F.dd[i][l] + F.d[i][l] * F.sig[i];
            pd[i][l] = F.a[i] * F.v[l];
            for (int j = 0; j < 3; j++)
                pd[i][l] += F.E[i + 3 * j] * F.dd[j][l] + F.d[j][l] * F.Cu[i + 3 * j];
        }
    }
    if (T) {
        /* 2 T = w . M w; u . p_u = sigma . R^T v + sum_ik (C_i u)_k beta_i[k] + u^T Mr u */
        double s = dot3(F.v, px), su = 0.0;
        for (int i = 0; i < 3; i++)
            s += dot3(F.dd[i], pd[i]);
        for (int k = 0; k < 3; k++)
            su += F.sig[k] * dot3(F.d[k], F.v);
        for (int ik = 0; ik < 9; ik++)
            su += F.Cu[ik] * F.beta[ik];
        if (r > 0) {
            cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, 1.0, F.Mr, r, F.u, 1, 0.0, F.tmp, 1);
            su += dotn(r, F.u, F.tmp);
        }
        *T = 0.5 * (s + su);
    }
    if (P)
        memcpy(P, px, sizeof px);
    if (L) {
        const double *x = F.x;
        L[0] = x[1] * px[2] - x[2] * px[1];
        L[1] = x[2] * px[0] - x[0] * px[2];
        L[2] = x[0] * px[1] - x[1] * px[0];
        for (int i = 0; i < 3; i++) {
            const double *d = F.d[i], *p = pd[i];
            L[0] += d[1] * p[2] - d[2] * p[1];
            L[1] += d[2] * p[0] - d[0] * p[2];
            L[2] += d[0] * p[1] - d[1] * p[0];
        }
    }
}
