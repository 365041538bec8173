/*
 * test_flex3d.c: the spatial floating frame in director coordinates
 * (setup/red_ffrf3d.c, core/flex3d.c) on two bodies built with the setup
 * library:
 *   - a lattice of 10 point masses (3 DOFs each, a diagonal mass matrix,
 *     axial springs between every pair), framed at three of its nodes
 *     (fixed: they move with the frame), 5 modes;
 *   - a beam3d cantilever (8 elements, 6 DOFs a node, consistent mass with
 *     rotary inertia and a centre-of-mass offset), framed at its left end,
 *     6 modes.
 * Checks (issue 14):
 *   1. the lattice's invariants against the point-mass sums (m, s, the Euler
 *      tensor exactly; S1, the mixed and the elastic terms);
 *   2. the mass matrix against the kinetic energy of the nodes, on random
 *      states (the lattice: any rates; the beam: rigid rotations of the frame,
 *      with the nodes' rotations and the consistent mass; the term the
 *      beam's frame velocity adds is reported);
 * and red_ffrf3d's refusals (their messages).
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/flex3d.h"
#include "jnt/jnt.h"
#include "jnt/setup.h"

/* ---- random numbers, rotations ---------------------------------------------- */

static unsigned long long rng = 0x9E3779B97F4A7C15ull;

static double urand(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static double srand1(void)
{
    return 2.0 * urand() - 1.0;
}

/* A rotation (columns: the directors) from a random unit quaternion. */
static void rand_rot(double R[9])
{
    double w = srand1(), x = srand1(), y = srand1(), z = srand1();
    double s = sqrt(w * w + x * x + y * y + z * z);
    w /= s, x /= s, y /= s, z /= s;
    double m[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y),
                   2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x),
                   2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
    memcpy(R, m, sizeof m);
}

static void cross(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* ---- the two bodies ----------------------------------------------------------- */

/* A substructure reduced with its frame at a fixed node set: the model after
 * the fixes, its mass matrix before them (M0, dof0: 6 per node), the modal
 * basis, its frequencies and the invariants with Kr (Cr zero). */
typedef struct body3 {
    const char *name;
    fe_model fe;
    fe_sparse M0;
    int *dof0;
    red_basis b;
    double *omega;
    double *inv;
    double *phi0; /* the basis in M0's numbering, n0 x r */
    int r, n0;
} body3;

static void sparse_copy(const fe_sparse *a, fe_sparse *o)
{
    *o = (fe_sparse){.n = a->n, .nnz = a->nnz};
    o->colptr = malloc(((size_t)a->n + 1) * sizeof *o->colptr);
    o->rowind = malloc(((size_t)a->nnz + 1) * sizeof *o->rowind);
    o->val = malloc(((size_t)a->nnz + 1) * sizeof *o->val);
    memcpy(o->colptr, a->colptr, ((size_t)a->n + 1) * sizeof *a->colptr);
    memcpy(o->rowind, a->rowind, (size_t)a->nnz * sizeof *a->rowind);
    memcpy(o->val, a->val, (size_t)a->nnz * sizeof *a->val);
}

/* Keep M0 and dof0, fix `set`, reduce to r modes, the invariants. 0 or -1. */
static int reduce(body3 *B, const char *set, int r)
{
    char err[512] = "";
    B->r = r;
    sparse_copy(&B->fe.M, &B->M0);
    B->n0 = B->M0.n;
    B->dof0 = malloc((size_t)FE_NDOF_NODE * B->fe.nnode * sizeof *B->dof0);
    for (int p = 0; p < B->fe.nnode; p++)
        for (int c = 0; c < FE_NDOF_NODE; c++)
            B->dof0[FE_NDOF_NODE * p + c] = B->fe.node[p].dof[c];
    int rc = fe_fix(&B->fe, fe_find_set(&B->fe, set), err, sizeof err);
    B->omega = calloc((size_t)r + 1, sizeof *B->omega);
    if (rc == 0)
        rc = red_modal(&B->fe, r, 0, &B->b, B->omega, err, sizeof err);
    B->inv = calloc((size_t)JNT_FFRF3_SIZE(r), sizeof *B->inv);
    if (rc == 0)
        rc = red_ffrf3d(&B->fe, &B->b, &B->M0, B->dof0, B->inv, err, sizeof err);
    /* Kr from red_project (its Mr to scratch), Cr zero */
    double *mr = malloc(sizeof *mr * ((size_t)r * r + 1));
    if (rc == 0)
        rc = red_project(&B->fe, &B->b, mr, B->inv + JNT_FFRF3_KR(r), NULL, err, sizeof err);
    free(mr);
    CHECK(rc == 0, "%s: built, fixed at '%s', %d modes, invariants (%s)", B->name, set, r,
          rc ? err : "ok");
    if (rc)
        return -1;
    B->phi0 = calloc((size_t)B->n0 * r + 1, sizeof *B->phi0);
    for (int p = 0; p < B->fe.nnode; p++)
        for (int c = 0; c < FE_NDOF_NODE; c++) {
            int to = B->dof0[FE_NDOF_NODE * p + c], from = B->fe.node[p].dof[c];
            for (int k = 0; to >= 0 && from >= 0 && k < r; k++)
                B->phi0[(size_t)k * B->n0 + to] = B->b.phi[(size_t)k * B->b.n + from];
        }
    return 0;
}

static void body_free(body3 *B)
{
    fe_free(&B->fe);
    fe_sparse_free(&B->M0);
    red_basis_free(&B->b);
    free(B->dof0), free(B->omega), free(B->inv), free(B->phi0);
}

/* The lattice: NL point masses at irregular places, an axial spring
 * between every pair, set "base" = nodes 0, 1, 2. */
#define NL 10
static int lattice_fe(fe_model *fe, double zscale)
{
    int n = 3 * NL, nt = 0, nk = 0;
    int *ri = malloc(sizeof *ri * 36 * NL * NL), *ci = malloc(sizeof *ci * 36 * NL * NL);
    double *va = malloc(sizeof *va * 36 * NL * NL);
    int mr[3 * NL], mc[3 * NL];
    double mv[3 * NL];
    memset(fe, 0, sizeof *fe);
    fe->ndof = n;
    fe->nnode = NL;
    fe->node = calloc(NL, sizeof *fe->node);
    for (int a = 0; a < NL; a++) {
        fe_node *p = &fe->node[a];
        p->id = a + 1, p->master = -1;
        for (int c = 0; c < FE_NDOF_NODE; c++)
            p->dof[c] = c < 3 ? 3 * a + c : -1;
        p->x[0] = 0.1 + 0.9 * urand(), p->x[1] = -0.3 + 0.7 * urand(),
        p->x[2] = -0.2 + 0.5 * urand();
        double ma = 0.5 + urand();
        for (int c = 0; c < 3; c++)
            mr[nt] = mc[nt] = 3 * a + c, mv[nt++] = ma * (c == 2 ? zscale : 1.0);
    }
    for (int a = 0; a < NL; a++)
        for (int b = a + 1; b < NL; b++) {
            double e[3], l = 0, k = 1000.0 * (1.0 + urand());
            for (int c = 0; c < 3; c++)
                e[c] = fe->node[b].x[c] - fe->node[a].x[c], l += e[c] * e[c];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    double kk = k * e[i] * e[j] / l;
                    int ia[4] = {3 * a + i, 3 * b + i, 3 * a + i, 3 * b + i};
                    int ja[4] = {3 * a + j, 3 * b + j, 3 * b + j, 3 * a + j};
                    for (int t = 0; t < 4; t++)
                        ri[nk] = ia[t], ci[nk] = ja[t], va[nk++] = t < 2 ? kk : -kk;
                }
        }
    int rc = fe_sparse_from_triplets(n, nt, mr, mc, mv, &fe->M);
    if (rc == 0)
        rc = fe_sparse_from_triplets(n, nk, ri, ci, va, &fe->K);
    free(ri), free(ci), free(va);
    fe->nset = 1;
    fe->set = calloc(1, sizeof *fe->set);
    strcpy(fe->set[0].name, "base");
    fe->set[0].n = 3;
    fe->set[0].node = malloc(3 * sizeof *fe->set[0].node);
    for (int i = 0; i < 3; i++)
        fe->set[0].node[i] = i;
    return rc;
}

static const fe_section3d BEAM_SECTION = {.EA = 1e4, .GJ = 40, .EI22 = 50, .EI33 = 80,
                                          .mass = 1.0, .ip = -1, .i22 = 0.002,
                                          .i33 = 0.001, .e2 = 0.01, .e3 = -0.005};

/* ---- shared evaluations ------------------------------------------------------- */

/* 12 + r coordinates, the body at frame = 0, q0 = 12. */
static flex3_body body_of(const body3 *B, const double *inv)
{
    return (flex3_body){inv ? inv : B->inv, B->r, 0, 12};
}

/* The dense mass matrix (n x n, n = 12 + r). */
static void mass_dense(const flex3_body *b, const double *q, double *M, double *work)
{
    int n = 12 + b->r;
    memset(M, 0, (size_t)n * n * sizeof *M);
    flex3_mass(b, q, M, n, work);
}

static double kinetic(const flex3_body *b, const double *q, const double *v, double *M,
                      double *work)
{
    int n = 12 + b->r;
    mass_dense(b, q, M, work);
    double t = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            t += 0.5 * v[i] * M[(size_t)j * n + i] * v[j];
    return t;
}

/* A random state: R a rotation (or near one: perturb > 0), x, q, rates. */
static void rand_state(int r, double *q, double *v, double perturb, double qs)
{
    double R[9];
    rand_rot(R);
    for (int k = 0; k < 3; k++)
        q[k] = srand1();
    for (int k = 0; k < 9; k++)
        q[3 + k] = R[k] + perturb * srand1();
    for (int k = 0; k < r; k++)
        q[12 + k] = qs * srand1();
    for (int k = 0; k < 12 + r; k++)
        v[k] = srand1();
}

/* ---- 1. invariants of point masses --------------------------------------------- */

static double rel_err(int n, const double *got, const double *want)
{
    double e = 0, s = 0;
    for (int i = 0; i < n; i++) {
        e = fmax(e, fabs(got[i] - want[i]));
        s = fmax(s, fabs(want[i]));
    }
    return s > 0 ? e / s : e;
}

static void invariants_point_masses(const body3 *B)
{
    int r = B->r, n0 = B->n0;
    size_t rr = (size_t)r * r;
    const double *inv = B->inv;
    double m = 0, s[3] = {0}, E0[9] = {0};
    double *S1 = calloc(3 * (size_t)r, sizeof *S1), *C0 = calloc(9 * (size_t)r, sizeof *C0);
    double *C1 = calloc(9 * rr, sizeof *C1), *E1 = calloc(9 * (size_t)r, sizeof *E1);
    double *E2 = calloc(6 * rr, sizeof *E2), *Mr = calloc(rr, sizeof *Mr);
    for (int a = 0; a < B->fe.nnode; a++) {
        const int *d = B->dof0 + FE_NDOF_NODE * a;
        const double *X = B->fe.node[a].x;
        double ma = 0; /* the diagonal entry of M0 at ux */
        for (int k = B->M0.colptr[d[0]]; k < B->M0.colptr[d[0] + 1]; k++)
            if (B->M0.rowind[k] == d[0])
                ma = B->M0.val[k];
        double ph[3][64];
        for (int c = 0; c < 3; c++)
            for (int j = 0; j < r; j++)
                ph[c][j] = B->phi0[(size_t)j * n0 + d[c]];
        m += ma;
        for (int i = 0; i < 3; i++) {
            s[i] += ma * X[i];
            for (int k = 0; k < 3; k++)
                E0[i + 3 * k] += ma * X[i] * X[k];
        }
        for (int j = 0; j < r; j++)
            for (int k = 0; k < 3; k++) {
                S1[k + 3 * j] += ma * ph[k][j];
                for (int i = 0; i < 3; i++)
                    C0[3 * (size_t)r * i + k + 3 * j] += ma * X[i] * ph[k][j];
            }
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                for (int nn = 0; nn < r; nn++)
                    for (int mm = 0; mm < r; mm++) {
                        double p = ma * ph[i][mm] * ph[k][nn];
                        C1[(i + 3 * k) * rr + mm + (size_t)r * nn] += p;
                        if (i == k)
                            Mr[mm + (size_t)r * nn] += p;
                    }
    }
    /* E1_m = C0_i[k, m] + C0_k[i, m]; E2_ik = (C1_ik + C1_ki) / 2 */
    static const int pi[6] = {0, 1, 2, 0, 0, 1}, pk[6] = {0, 1, 2, 1, 2, 2};
    for (int j = 0; j < r; j++)
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                E1[9 * j + i + 3 * k] =
                    C0[3 * (size_t)r * i + k + 3 * j] + C0[3 * (size_t)r * k + i + 3 * j];
    for (int p = 0; p < 6; p++)
        for (size_t t = 0; t < rr; t++)
            E2[p * rr + t] = 0.5 * (C1[(pi[p] + 3 * pk[p]) * rr + t] +
                                    C1[(pk[p] + 3 * pi[p]) * rr + t]);
    double e;
    CHECK(fabs(inv[JNT_FFRF3_M] - m) <= 1e-14 * m, "1. lattice: m = sum m_a (%.17g, %.17g)",
          inv[JNT_FFRF3_M], m);
    e = rel_err(3, inv + JNT_FFRF3_S0, s);
    CHECK(e <= 1e-14, "1. lattice: s = sum m_a X_a: %.2g (1e-14)", e);
    e = rel_err(9, inv + JNT_FFRF3_E0, E0);
    CHECK(e <= 1e-14, "1. lattice: E0 = sum m_a X_a X_a^T: %.2g (1e-14)", e);
    e = rel_err(3 * r, inv + JNT_FFRF3_S1, S1);
    CHECK(e <= 1e-13, "1. lattice: S1 = sum m_a Phi_a: %.2g (1e-13)", e);
    e = rel_err(9 * r, inv + JNT_FFRF3_C0(r), C0);
    CHECK(e <= 1e-13, "1. lattice: C0_i = sum m_a X_ai Phi_a (mixed): %.2g (1e-13)", e);
    e = rel_err(9 * r, inv + JNT_FFRF3_E1(r), E1);
    CHECK(e <= 1e-13, "1. lattice: E1 = dE/dq = C0 + C0^T: %.2g (1e-13)", e);
    e = rel_err(9 * (int)rr, inv + JNT_FFRF3_C1(r), C1);
    CHECK(e <= 1e-13, "1. lattice: C1_ik = sum m_a Phi_ai^T Phi_ak (elastic): %.2g (1e-13)", e);
    e = rel_err(6 * (int)rr, inv + JNT_FFRF3_E2(r), E2);
    CHECK(e <= 1e-13, "1. lattice: E2 = (C1_ik + C1_ki)/2: %.2g (1e-13)", e);
    e = rel_err((int)rr, inv + JNT_FFRF3_MR(r), Mr);
    CHECK(e <= 1e-13, "1. lattice: Mr = sum m_a Phi_a^T Phi_a: %.2g (1e-13)", e);
    free(S1), free(C0), free(C1), free(E1), free(E2), free(Mr);
}

/* ---- 2. the mass matrix against the nodes' kinetic energy ------------------------ */

/* The lattice: T = 1/2 sum_a m_a |x' + sum_i c_ai d_i' + R Phi_a q'|^2 for
 * any rates, R a rotation. */
static void energy_lattice(const body3 *B)
{
    int r = B->r, n = 12 + r, n0 = B->n0;
    flex3_body bd = body_of(B, NULL);
    double *q = malloc(sizeof *q * n), *v = malloc(sizeof *v * n);
    double *M = malloc(sizeof *M * n * n), *work = malloc(sizeof *work * flex3_work_size(r));
    double worst = 0, worstm = 0;
    for (int t = 0; t < 20; t++) {
        rand_state(r, q, v, 0.0, 0.05);
        double T = kinetic(&bd, q, v, M, work), Tm, Td = 0;
        flex3_momentum(&bd, q, v, &Tm, NULL, NULL, work);
        for (int a = 0; a < B->fe.nnode; a++) {
            const int *d = B->dof0 + FE_NDOF_NODE * a;
            double ma = 0;
            for (int k = B->M0.colptr[d[0]]; k < B->M0.colptr[d[0] + 1]; k++)
                if (B->M0.rowind[k] == d[0])
                    ma = B->M0.val[k];
            double vel[3];
            for (int l = 0; l < 3; l++)
                vel[l] = v[l];
            for (int i = 0; i < 3; i++) {
                double c = B->fe.node[a].x[i], pu = 0;
                for (int j = 0; j < r; j++) {
                    c += B->phi0[(size_t)j * n0 + d[i]] * q[12 + j];
                    pu += B->phi0[(size_t)j * n0 + d[i]] * v[12 + j];
                }
                for (int l = 0; l < 3; l++)
                    vel[l] += c * v[3 + 3 * i + l] + q[3 + 3 * i + l] * pu;
            }
            Td += 0.5 * ma * (vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]);
        }
        worst = fmax(worst, fabs(T - Td) / Td);
        worstm = fmax(worstm, fabs(Tm - Td) / Td);
    }
    CHECK(worst <= 1e-12 && worstm <= 1e-12, "2. lattice: 1/2 w^T M w = the point masses' "
          "kinetic energy on 20 random states: %.2g, flex3_momentum's T %.2g (1e-12)", worst,
          worstm);
    free(q), free(v), free(M), free(work);
}

/* The beam on rigid rotations of the frame (d_i' = omega x d_i): the nodes
 * move with (body components) translations R^T x' + omega x (X + u) + u',
 * rotations omega + omega x theta + theta', and T = 1/2 V^T M0 V. Exact
 * with x' = 0; with x' the first moment s0 + S1 q of the mass matrix and the
 * nodal field's T^T M L Phi q differ (red_ffrf3d.c): measured, 7.3e-4 of T
 * here (8.0e-4, 8.2e-4 with 16, 32 elements: the section's offset; without
 * it 1.3e-4, 3.3e-5, 8.2e-6, the end moments' O(le^2)). */
static void energy_beam(const body3 *B)
{
    int r = B->r, n = 12 + r, n0 = B->n0;
    flex3_body bd = body_of(B, NULL);
    double *q = malloc(sizeof *q * n), *v = malloc(sizeof *v * n);
    double *M = malloc(sizeof *M * n * n), *work = malloc(sizeof *work * flex3_work_size(r));
    double *V = malloc(sizeof *V * n0), *MV = malloc(sizeof *MV * n0);
    double worst = 0, frame = 0;
    for (int t = 0; t < 40; t++) {
        rand_state(r, q, v, 0.0, 0.02);
        double wb[3] = {srand1(), srand1(), srand1()}, w[3] = {0}, vb[3] = {0};
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++)
                w[l] += q[3 + 3 * i + l] * wb[i];
        for (int i = 0; i < 3; i++)
            cross(w, q + 3 + 3 * i, v + 3 + 3 * i);
        if (t < 20)
            v[0] = v[1] = v[2] = 0.0;
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++)
                vb[i] += q[3 + 3 * i + l] * v[l];
        memset(V, 0, sizeof *V * n0);
        for (int a = 0; a < B->fe.nnode; a++) {
            const int *d = B->dof0 + FE_NDOF_NODE * a;
            double u[6] = {0}, ud[6] = {0}, c[3], wc[3], wt[3];
            for (int k = 0; k < 6; k++)
                for (int j = 0; j < r; j++) {
                    u[k] += B->phi0[(size_t)j * n0 + d[k]] * q[12 + j];
                    ud[k] += B->phi0[(size_t)j * n0 + d[k]] * v[12 + j];
                }
            for (int k = 0; k < 3; k++)
                c[k] = B->fe.node[a].x[k] + u[k];
            cross(wb, c, wc);
            cross(wb, u + 3, wt);
            for (int k = 0; k < 3; k++) {
                V[d[k]] = vb[k] + wc[k] + ud[k];
                V[d[3 + k]] = wb[k] + wt[k] + ud[3 + k];
            }
        }
        fe_sparse_mul(&B->M0, V, MV);
        double Td = 0.5 * cblas_ddot(n0, V, 1, MV, 1), T = kinetic(&bd, q, v, M, work);
        if (t < 20)
            worst = fmax(worst, fabs(T - Td) / Td);
        else
            frame = fmax(frame, fabs(T - Td) / Td);
    }
    CHECK(worst <= 1e-12, "2. beam3d: 1/2 w^T M w = 1/2 V^T M V of the nodes (translations "
          "and rotations, consistent mass) on 20 random rigid rotations of the frame, deformed "
          "and deforming: %.2g (1e-12)", worst);
    CHECK(frame <= 2e-3, "2. beam3d: with a frame velocity too, the first moment s0 + S1 q "
          "against the nodal field's: %.2g of T (measured; 2e-3)", frame);
    free(q), free(v), free(M), free(work), free(V), free(MV);
}

/* ---- refusals ------------------------------------------------------------------------- */

static void refusals(void)
{
    char err[512] = "";
    double inv[JNT_FFRF3_SIZE(6)];
    /* a plane mesh: no uz */
    fe_model fe;
    int rc = fe_plate2d(&fe, 0.1, 0.02, 0.01, 2.1e11, 0.3, 7850, 4, 1, FE_Q4, err, sizeof err);
    red_basis b0 = {fe.ndof, 0, NULL};
    rc = rc ? rc : red_ffrf3d(&fe, &b0, NULL, NULL, inv, err, sizeof err);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "needs the DOFs ux, uy and uz at every node"),
          "red_ffrf3d refuses a plane mesh: %s", err);
    fe_free(&fe);
    /* a translation's mass that differs in z */
    lattice_fe(&fe, 2.0);
    b0.n = fe.ndof;
    rc = red_ffrf3d(&fe, &b0, NULL, NULL, inv, err, sizeof err);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "one mass in x, y and z"),
          "red_ffrf3d refuses a mass that differs in z: %s", err);
    fe_free(&fe);
    /* a free lattice's lowest modes: rigid-body motion */
    lattice_fe(&fe, 1.0);
    red_basis b = {0};
    rc = red_modal(&fe, 6, 0, &b, NULL, err, sizeof err);
    rc = rc ? rc : red_ffrf3d(&fe, &b, NULL, NULL, inv, err, sizeof err);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "basis holds rigid-body motion"),
          "red_ffrf3d refuses a basis of rigid-body modes: %s", err);
    red_basis_free(&b);
    /* point masses on a line: no inertia about it */
    for (int a = 0; a < fe.nnode; a++)
        fe.node[a].x[1] = fe.node[a].x[2] = 0;
    b0.n = fe.ndof;
    rc = red_ffrf3d(&fe, &b0, NULL, NULL, inv, err, sizeof err);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "rigid mass matrix is singular"),
          "red_ffrf3d refuses point masses on a line: %s", err);
    fe_free(&fe);
}

int main(void)
{
    char err[512] = "";
    body3 lat = {.name = "lattice"}, beam = {.name = "beam3d"};
    int ok = lattice_fe(&lat.fe, 1.0) == 0 && reduce(&lat, "base", 5) == 0;
    int rc = fe_beam3d(&beam.fe, 1.0, 8, &BEAM_SECTION, err, sizeof err);
    CHECK(rc == 0, "beam3d: 8 elements (%s)", rc ? err : "ok");
    ok = ok && rc == 0 && reduce(&beam, "left", 6) == 0;
    if (ok) {
        invariants_point_masses(&lat);
        energy_lattice(&lat);
        energy_beam(&beam);
    }
    refusals();
    body_free(&lat);
    body_free(&beam);
    return check_done();
}
