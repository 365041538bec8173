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
 *   3. Q_v against Lagrange's equations by differences of T = 1/2 w^T M w,
 *      gravity against differences of its potential, and every Jacobian
 *      against central differences;
 *   4. a free flexible body under the implicit midpoint rule written here
 *      (in momentum form, Newton with flex3's mass, forces and Jacobians and
 *      the six director rows): linear and angular momentum kept, the energy
 *      error O(h^2); with r = 0 the rigid body of the mesh: energy and
 *      angular momentum kept, and the flip period of a spin about the
 *      intermediate axis against Euler's equations' closed form (Landau and
 *      Lifshitz, Mechanics, Sect. 37);
 *   5. the frame held: the elastic coordinates' frequencies are the
 *      substructure's modal frequencies;
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

#define PI 3.14159265358979323846

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
/* the same with shear deformation (Timoshenko; phi = 12 EI / (GA l^2) = 7.7
 * and 6.4 on the 1/8 m elements) */
static const fe_section3d SHEAR_SECTION = {.EA = 1e4, .GJ = 40, .EI22 = 50, .EI33 = 80,
                                           .mass = 1.0, .ip = -1, .i22 = 0.002,
                                           .i33 = 0.001, .e2 = 0.01, .e3 = -0.005,
                                           .GA2 = 8e3, .GA3 = 6e3};

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

/* ---- 3. Lagrange's equations and the Jacobians --------------------------------- */

static void lagrange(const body3 *B)
{
    int r = B->r, n = 12 + r;
    size_t rr = (size_t)r * r, nn = (size_t)n * n;
    double *inv0 = malloc(sizeof *inv0 * JNT_FFRF3_SIZE(r));
    double *inv = malloc(sizeof *inv * JNT_FFRF3_SIZE(r));
    memcpy(inv0, B->inv, sizeof *inv0 * JNT_FFRF3_SIZE(r));
    memset(inv0 + JNT_FFRF3_KR(r), 0, 2 * rr * sizeof *inv0);
    /* with damping Cr = 0.02 Kr + 0.3 Mr for the Jacobians */
    memcpy(inv, B->inv, sizeof *inv * JNT_FFRF3_SIZE(r));
    for (size_t t = 0; t < rr; t++)
        inv[JNT_FFRF3_CR(r) + t] = 0.02 * inv[JNT_FFRF3_KR(r) + t] + 0.3 * inv[JNT_FFRF3_MR(r) + t];
    flex3_body b0 = body_of(B, inv0), bd = body_of(B, inv);
    double *q = malloc(sizeof *q * n), *v = malloc(sizeof *v * n), *qq = malloc(sizeof *qq * n);
    double *M = malloc(sizeof *M * nn), *Mp = malloc(sizeof *Mp * nn), *Mm = malloc(sizeof *Mm * nn);
    double *fp = malloc(sizeof *fp * n), *fm = malloc(sizeof *fm * n), *f = malloc(sizeof *f * n);
    double *Jq = malloc(sizeof *Jq * nn), *Jv = malloc(sizeof *Jv * nn), *Ja = malloc(sizeof *Ja * nn);
    double *Fq = malloc(sizeof *Fq * nn), *Fv = malloc(sizeof *Fv * nn), *Fa = malloc(sizeof *Fa * nn);
    double *a = malloc(sizeof *a * n), *work = malloc(sizeof *work * flex3_work_size(r));
    const double g[3] = {0.3, -9.81, 0.5};
    double eq = 0, ejq = 0, ejv = 0, eja = 0, qmax = 0;
    for (int t = 0; t < 5; t++) {
        /* directors off the rotation group by 1e-2: nothing here assumes them
         * orthonormal; q of the order of the mesh's first-mode amplitude */
        rand_state(r, q, v, t ? 1e-2 : 0.0, 0.05);
        for (int k = 0; k < n; k++)
            a[k] = srand1();
        /* Q_v = -M' w + dT/dp: M' w along p + s w, dT/dp by differences */
        double h = 1e-5;
        for (int k = 0; k < n; k++)
            qq[k] = q[k] + h * v[k];
        mass_dense(&b0, qq, Mp, work);
        for (int k = 0; k < n; k++)
            qq[k] = q[k] - h * v[k];
        mass_dense(&b0, qq, Mm, work);
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++)
                s += (Mp[(size_t)j * n + i] - Mm[(size_t)j * n + i]) * v[j];
            fp[i] = -s / (2 * h);
        }
        for (int k = 0; k < n; k++) {
            memcpy(qq, q, sizeof *qq * n);
            qq[k] = q[k] + h;
            double tp = kinetic(&b0, qq, v, M, work);
            qq[k] = q[k] - h;
            double tm = kinetic(&b0, qq, v, M, work);
            fp[k] += (tp - tm) / (2 * h);
        }
        memset(f, 0, sizeof *f * n);
        flex3_forces(&b0, q, v, NULL, f, work);
        double e = 0, s = 0;
        for (int i = 0; i < n; i++)
            e = fmax(e, fabs(f[i] - fp[i])), s = fmax(s, fabs(fp[i]));
        eq = fmax(eq, e / s);
        qmax = fmax(qmax, s);
        /* the Jacobians: analytic */
        memset(Jq, 0, sizeof *Jq * nn), memset(Jv, 0, sizeof *Jv * nn);
        memset(Ja, 0, sizeof *Ja * nn);
        flex3_jac(&bd, q, v, g, Jq, Jv, n, work);
        flex3_mass_jac(&bd, q, a, Ja, n, work);
        /* and by central differences */
        h = 1e-6;
        for (int k = 0; k < n; k++) {
            for (int w = 0; w < 3; w++) {
                double *x = w == 1 ? v : q, x0 = x[k];
                x[k] = x0 + h;
                memset(fp, 0, sizeof *fp * n);
                if (w < 2)
                    flex3_forces(&bd, q, v, g, fp, work);
                else {
                    mass_dense(&bd, q, Mp, work);
                    for (int i = 0; i < n; i++)
                        fp[i] = cblas_ddot(n, Mp + i, n, a, 1);
                }
                x[k] = x0 - h;
                memset(fm, 0, sizeof *fm * n);
                if (w < 2)
                    flex3_forces(&bd, q, v, g, fm, work);
                else {
                    mass_dense(&bd, q, Mm, work);
                    for (int i = 0; i < n; i++)
                        fm[i] = cblas_ddot(n, Mm + i, n, a, 1);
                }
                x[k] = x0;
                double *F = w == 0 ? Fq : w == 1 ? Fv : Fa;
                for (int i = 0; i < n; i++)
                    F[(size_t)k * n + i] = (fp[i] - fm[i]) / (2 * h);
            }
        }
        /* each entry against its row's largest (rows mix inertia and stiffness) */
        for (int w = 0; w < 3; w++) {
            const double *A = w == 0 ? Jq : w == 1 ? Jv : Ja, *F = w == 0 ? Fq : w == 1 ? Fv : Fa;
            double worst = 0;
            for (int i = 0; i < n; i++) {
                double row = 0, err = 0;
                for (int k = 0; k < n; k++) {
                    row = fmax(row, fabs(F[(size_t)k * n + i]));
                    err = fmax(err, fabs(F[(size_t)k * n + i] - A[(size_t)k * n + i]));
                }
                worst = fmax(worst, row > 0 ? err / row : err);
            }
            double *o = w == 0 ? &ejq : w == 1 ? &ejv : &eja;
            *o = fmax(*o, worst);
        }
    }
    /* gravity: -dV/d(coords) of V = -g . (m x + R (s0 + S1 q)), from the invariants */
    double eg = 0, gs = 0;
    {
        rand_state(r, q, v, 1e-2, 0.05);
        memset(v, 0, sizeof *v * n);
        memset(f, 0, sizeof *f * n), memset(fm, 0, sizeof *fm * n);
        flex3_forces(&b0, q, v, g, f, work);
        flex3_forces(&b0, q, v, NULL, fm, work);
        for (int k = 0; k < n; k++) {
            double vv[2];
            for (int sg = 0; sg < 2; sg++) {
                memcpy(qq, q, sizeof *qq * n);
                qq[k] += sg ? -1e-6 : 1e-6;
                double V = 0;
                for (int l = 0; l < 3; l++) {
                    double rl = inv0[JNT_FFRF3_M] * qq[l];
                    for (int i = 0; i < 3; i++) {
                        double ai = inv0[JNT_FFRF3_S0 + i];
                        for (int j = 0; j < r; j++)
                            ai += inv0[JNT_FFRF3_S1 + i + 3 * j] * qq[12 + j];
                        rl += qq[3 + 3 * i + l] * ai;
                    }
                    V -= g[l] * rl;
                }
                vv[sg] = V;
            }
            double want = -(vv[0] - vv[1]) / 2e-6;
            eg = fmax(eg, fabs(f[k] - fm[k] - want)), gs = fmax(gs, fabs(want));
        }
    }
    CHECK(eg <= 1e-7 * gs, "3. %s: gravity = -dV/d(coords), V = -g . (m x + R (s0 + S1 q)), by "
          "differences: %.2g of %.3g (1e-7)", B->name, eg, gs);
    CHECK(eq <= 1e-7, "3. %s: Q_v = -M' w + dT/d(coords) by differences of 1/2 w^T M w "
          "(5 states, directors off by 1e-2 in 4): %.2g of |Q_v| = %.3g (1e-7)", B->name, eq,
          qmax);
    CHECK(ejq <= 1e-7, "3. %s: d f/d q (Q_v, -Kr q - Cr q', gravity) against central "
          "differences: %.2g of each row's largest (1e-7)", B->name, ejq);
    CHECK(ejv <= 1e-7, "3. %s: d f/d q' against central differences: %.2g (1e-7)", B->name,
          ejv);
    CHECK(eja <= 1e-7, "3. %s: d (M a)/d q against central differences: %.2g (1e-7)", B->name,
          eja);
    free(inv0), free(inv), free(q), free(v), free(qq), free(M), free(Mp), free(Mm), free(fp);
    free(fm), free(f), free(Jq), free(Jv), free(Ja), free(Fq), free(Fv), free(Fa), free(a);
    free(work);
}

/* ---- 4. the free body under the midpoint rule -------------------------------------- */

/* The midpoint rule in momentum form (Hamilton's equations, p = M(q) w):
 *   q1 - q0 = h wb,  p1 - p0 = h (dL/dq(qb, wb) - C_q(qb)^T lambda),  C(q1) = 0,
 * qb = (q0 + q1)/2, wb the w with M(qb) wb = (p0 + p1)/2; so with F = 2 M(qb) wb
 * - 2 p0 - h dL/dq + h C_q^T lambda the unknowns are q1 and lambda. dL/dq =
 * f + (d(M a)/dq at a = wb) wb (f = Q_v - Kr q from flex3_forces: Q_v =
 * -M' w + dT/dq). The momentum maps of the translations and rotations,
 * P = p_x and L = x x p_x + sum_i d_i x p_di, are bilinear in (q, p): the rule
 * keeps them exactly (to Newton's tolerance), since L is invariant and the
 * director rows' forces at qb have no moment about anything. Newton's matrix:
 * 2 M/h + A - A^T - h/2 (d f/dq) + h/2 (C_q^T lambda)_q, A = d(M a)/dq at
 * a = wb (A^T = d(dT/dq)/dw), leaving out d(M' w)/dq h/2. */
typedef struct mid {
    flex3_body bd;
    int n;
    double h;
    double *M, *A, *Jq, *K, *F, *f, *work, *qb, *wb;
    int *piv;
    int iters, steps;
} mid;

/* The six director rows at q and their gradient rows (6 x n). */
static void dir_rows(int n, const double *q, double *C, double *G)
{
    static const int pi[6] = {0, 1, 2, 0, 0, 1}, pk[6] = {0, 1, 2, 1, 2, 2};
    if (G)
        memset(G, 0, sizeof *G * 6 * n);
    for (int p = 0; p < 6; p++) {
        const double *di = q + 3 + 3 * pi[p], *dk = q + 3 + 3 * pk[p];
        if (C)
            C[p] = di[0] * dk[0] + di[1] * dk[1] + di[2] * dk[2] - (pi[p] == pk[p]);
        for (int l = 0; G && l < 3; l++) {
            G[p + 6 * (3 + 3 * pi[p] + l)] += dk[l];
            G[p + 6 * (3 + 3 * pk[p] + l)] += di[l];
        }
    }
}

/* The residual F (n + 6, its negative in S->F) for the increment d = q1 -
 * q (Newton works on d, which keeps its own relative precision: on q1 the
 * residual could not fall below (2 M / h) ulp(q)) and Newton's matrix S->K;
 * returns max |F| of the first n rows. */
static double mid_residual(mid *S, const double *q, const double *p, const double *d,
                           const double *lam)
{
    static const int pi[6] = {0, 1, 2, 0, 0, 1}, pk[6] = {0, 1, 2, 1, 2, 2};
    int n = S->n, N = n + 6;
    double h = S->h, Gb[6 * 64], G1[6 * 64], C1[6], q1[64], res = 0;
    for (int k = 0; k < n; k++)
        S->qb[k] = q[k] + 0.5 * d[k], S->wb[k] = d[k] / h, q1[k] = q[k] + d[k];
    mass_dense(&S->bd, S->qb, S->M, S->work);
    memset(S->f, 0, sizeof *S->f * n);
    flex3_forces(&S->bd, S->qb, S->wb, NULL, S->f, S->work);
    memset(S->A, 0, sizeof *S->A * n * n);
    flex3_mass_jac(&S->bd, S->qb, S->wb, S->A, n, S->work);
    memset(S->Jq, 0, sizeof *S->Jq * n * n);
    flex3_jac(&S->bd, S->qb, S->wb, NULL, S->Jq, NULL, n, S->work);
    dir_rows(n, S->qb, NULL, Gb);
    dir_rows(n, q1, C1, G1);
    /* F = 2 M wb - 2 p0 - h (f + A wb) + h Gb^T lambda; C(q1) */
    for (int i = 0; i < n; i++) {
        double s = -2 * p[i] - h * S->f[i];
        for (int j = 0; j < n; j++)
            s += (2 * S->M[(size_t)j * n + i] - h * S->A[(size_t)j * n + i]) * S->wb[j];
        for (int c = 0; c < 6; c++)
            s += h * Gb[c + 6 * i] * lam[c];
        S->F[i] = -s;
        res = fmax(res, fabs(s));
    }
    for (int c = 0; c < 6; c++)
        S->F[n + c] = -C1[c];
    /* Newton's matrix; (C_q^T lambda)_q: lambda I on (d_i, d_k) and (d_k, d_i) */
    memset(S->K, 0, sizeof *S->K * N * N);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            S->K[(size_t)j * N + i] = 2 * S->M[(size_t)j * n + i] / h + S->A[(size_t)j * n + i] -
                                      S->A[(size_t)i * n + j] - 0.5 * h * S->Jq[(size_t)j * n + i];
    for (int c = 0; c < 6; c++)
        for (int l = 0; l < 3; l++) {
            int a = 3 + 3 * pi[c] + l, b = 3 + 3 * pk[c] + l;
            S->K[(size_t)b * N + a] += 0.5 * h * lam[c];
            S->K[(size_t)a * N + b] += 0.5 * h * lam[c];
        }
    for (int j = 0; j < n; j++)
        for (int c = 0; c < 6; c++) {
            S->K[(size_t)(n + c) * N + j] = h * Gb[c + 6 * j];
            S->K[(size_t)j * N + n + c] = G1[c + 6 * j];
        }
    return res;
}

/* One step from (q, p) with multipliers lam (6, in: a guess), q1 guessed
 * as q + h wguess; Newton until its residual stops falling (rounding).
 * 0 or -1. */
static int mid_step(mid *S, double *q, double *p, double *lam, const double *wguess)
{
    int n = S->n, N = n + 6;
    double h = S->h, *d = S->qb + n, resp = INFINITY;
    for (int k = 0; k < n; k++)
        d[k] = h * wguess[k];
    for (int it = 0;; it++) {
        double res = mid_residual(S, q, p, d, lam);
        if (it > 1 && res >= 0.5 * resp) {
            double ps = 1;
            for (int k = 0; k < n; k++)
                ps = fmax(ps, fabs(p[k]));
            if (res > 1e-9 * ps)
                return -1; /* stalled short of a solution */
            break;
        }
        if (it == 80)
            return -1;
        resp = res;
        if (LAPACKE_dgesv(LAPACK_COL_MAJOR, N, 1, S->K, N, S->piv, S->F, N) != 0)
            return -1;
        for (int k = 0; k < n; k++)
            d[k] += S->F[k];
        for (int c = 0; c < 6; c++)
            lam[c] += S->F[n + c];
        S->iters++;
    }
    /* p1 = 2 M(qb) wb - p0 at the last d (mid_residual left M, qb, wb there) */
    for (int i = 0; i < n; i++)
        p[i] = 2 * cblas_ddot(n, S->M + i, n, S->wb, 1) - p[i];
    for (int k = 0; k < n; k++)
        q[k] += d[k];
    S->steps++;
    return 0;
}

static void mid_init(mid *S, const flex3_body *bd, double h)
{
    int n = 12 + bd->r, N = n + 6;
    *S = (mid){.bd = *bd, .n = n, .h = h};
    S->M = malloc(sizeof *S->M * n * n), S->A = malloc(sizeof *S->A * n * n);
    S->Jq = malloc(sizeof *S->Jq * n * n), S->K = malloc(sizeof *S->K * N * N);
    S->F = malloc(sizeof *S->F * N), S->f = malloc(sizeof *S->f * n);
    S->work = malloc(sizeof *S->work * flex3_work_size(bd->r));
    S->qb = malloc(sizeof *S->qb * 2 * n), S->wb = malloc(sizeof *S->wb * n);
    S->piv = malloc(sizeof *S->piv * N);
}

static void mid_free(mid *S)
{
    free(S->M), free(S->A), free(S->Jq), free(S->K), free(S->F), free(S->f), free(S->work);
    free(S->qb), free(S->wb), free(S->piv);
}

/* P and L from (q, p). */
static void momenta(const double *q, const double *p, double P[3], double L[3])
{
    double c[3];
    memcpy(P, p, 3 * sizeof *P);
    cross(q, p, L);
    for (int i = 0; i < 3; i++) {
        cross(q + 3 + 3 * i, p + 3 + 3 * i, c);
        for (int l = 0; l < 3; l++)
            L[l] += c[l];
    }
}

/* The energy at (q, p): 1/2 v^T M v + 1/2 q^T Kr q with v the rates on
 * the tangent space of the director rows that p stands for,
 * [M G^T; G 0] [v; mu] = [p; 0] (M may be indefinite off that space). */
static double energy(mid *S, const double *q, const double *p)
{
    int n = S->n, N = n + 6, r = S->bd.r;
    double G[6 * 64];
    mass_dense(&S->bd, q, S->M, S->work);
    dir_rows(n, q, NULL, G);
    memset(S->K, 0, sizeof *S->K * N * N);
    for (int j = 0; j < n; j++) {
        memcpy(S->K + (size_t)j * N, S->M + (size_t)j * n, sizeof *S->K * n);
        for (int c = 0; c < 6; c++)
            S->K[(size_t)j * N + n + c] = S->K[(size_t)(n + c) * N + j] = G[c + 6 * j];
    }
    memset(S->F, 0, sizeof *S->F * N);
    memcpy(S->F, p, sizeof *p * n);
    LAPACKE_dgesv(LAPACK_COL_MAJOR, N, 1, S->K, N, S->piv, S->F, N);
    double e = 0;
    for (int i = 0; i < n; i++)
        e += 0.5 * S->F[i] * cblas_ddot(n, S->M + i, n, S->F, 1);
    const double *Kr = S->bd.inv + JNT_FFRF3_KR(r);
    for (int i = 0; i < r; i++)
        for (int j = 0; j < r; j++)
            e += 0.5 * q[12 + i] * Kr[i + (size_t)r * j] * q[12 + j];
    return e;
}

/* The largest circular frequency of the free body linearised at q (rates
 * zero): (Kr, M) on the tangent space of the director rows (x', omega, q'). */
static double omega_max(const flex3_body *bd, const double *q, double *M, double *work)
{
    int r = bd->r, n = 12 + r, nt = 6 + r;
    double *Z = calloc((size_t)n * nt, sizeof *Z), *MZ = calloc((size_t)n * nt, sizeof *MZ);
    double *T = calloc((size_t)nt * nt, sizeof *T), *K = calloc((size_t)nt * nt, sizeof *K);
    double *ev = calloc(nt, sizeof *ev);
    for (int k = 0; k < 3; k++)
        Z[k + (size_t)n * k] = 1;
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < 3; i++) {
            double el[3] = {l == 0, l == 1, l == 2}, e[3];
            cross(el, q + 3 + 3 * i, e);
            for (int c = 0; c < 3; c++)
                Z[3 + 3 * i + c + (size_t)n * (3 + l)] = e[c];
        }
    for (int k = 0; k < r; k++)
        Z[12 + k + (size_t)n * (6 + k)] = 1;
    mass_dense(bd, q, M, work);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nt, n, 1, M, n, Z, n, 0, MZ, n);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, nt, nt, n, 1, Z, n, MZ, n, 0, T, nt);
    for (int i = 0; i < r; i++)
        for (int j = 0; j < r; j++)
            K[6 + i + (size_t)nt * (6 + j)] = bd->inv[JNT_FFRF3_KR(r) + i + (size_t)r * j];
    int info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', nt, K, nt, T, nt, ev);
    double w = info == 0 ? sqrt(fabs(ev[nt - 1])) : NAN;
    free(Z), free(MZ), free(T), free(K), free(ev);
    return w;
}

/* A frame turned and moving, spinning about no principal axis, its elastic
 * coordinates displaced and moving: `steps` steps of h. Returns the largest
 * relative energy error (sampled every `every` steps), NAN on failure: the
 * midpoint rule keeps the energy of this nonlinear system to O(h^2), with
 * the body's highest free-free frequency in the constant (the frame at the
 * beam's root swings with the free-free modes); *wmax_out gets that
 * frequency. */
static double free_body(const body3 *B, double h, int steps, int every, double *wmax_out)
{
    int r = B->r, n = 12 + r;
    flex3_body bd = body_of(B, NULL);
    mid S;
    mid_init(&S, &bd, h);
    double *q = calloc(n, sizeof *q), *w = calloc(n, sizeof *w), *p = calloc(n, sizeof *p);
    double R[9], om[3] = {1.3, -2.1, 2.7}, lam[6] = {0};
    rand_rot(R);
    q[0] = 0.2, q[1] = -0.1, q[2] = 0.3;
    memcpy(q + 3, R, sizeof R);
    w[0] = 0.5, w[1] = 0.2, w[2] = -0.4;
    for (int i = 0; i < 3; i++)
        cross(om, q + 3 + 3 * i, w + 3 + 3 * i);
    for (int k = 0; k < r; k++)
        q[12 + k] = 0.02 * srand1(), w[12 + k] = 0.5 * srand1();
    double wmax = omega_max(&bd, q, S.M, S.work);
    mass_dense(&bd, q, S.M, S.work);
    for (int i = 0; i < n; i++)
        p[i] = cblas_ddot(n, S.M + i, n, w, 1);
    double P0[3], L0[3], P[3], L[3], E0 = energy(&S, q, p), dP = 0, dL = 0, dE = 0;
    momenta(q, p, P0, L0);
    double Ps = sqrt(P0[0] * P0[0] + P0[1] * P0[1] + P0[2] * P0[2]);
    double Ls = sqrt(L0[0] * L0[0] + L0[1] * L0[1] + L0[2] * L0[2]), qmax = 0;
    int rc = 0;
    for (int s = 0; s < steps && rc == 0; s++) {
        rc = mid_step(&S, q, p, lam, s ? S.wb : w);
        momenta(q, p, P, L);
        for (int l = 0; l < 3 && s < 3000; l++) {
            dP = fmax(dP, fabs(P[l] - P0[l]) / Ps);
            dL = fmax(dL, fabs(L[l] - L0[l]) / Ls);
        }
        for (int k = 0; k < r; k++)
            qmax = fmax(qmax, fabs(q[12 + k]));
        if (s % every == every - 1)
            dE = fmax(dE, fabs(energy(&S, q, p) - E0) / E0);
    }
    double C[6], cmax = 0;
    dir_rows(n, q, C, NULL);
    for (int c = 0; c < 6; c++)
        cmax = fmax(cmax, fabs(C[c]));
    CHECK(rc == 0, "4. %s free: %d midpoint steps of %g s (%.1f Newton iterations a step)",
          B->name, S.steps, h, (double)S.iters / (S.steps ? S.steps : 1));
    CHECK(rc == 0 && dP <= 1e-11 && dL <= 1e-11, "4. %s free: linear momentum within %.2g, "
          "angular momentum within %.2g over %d steps (relative, 1e-11); |q| up to %.3g, the "
          "director rows %.2g at the end", B->name, dP, dL, steps < 3000 ? steps : 3000, qmax,
          cmax);
    free(q), free(w), free(p);
    mid_free(&S);
    *wmax_out = wmax;
    return rc == 0 ? dE : NAN;
}

/* The free body at h and h/2 over the same time: momenta kept at both, the
 * energy error falls as h^2. */
static void free_body_order(const body3 *B, double h, int steps)
{
    unsigned long long seed = rng; /* one initial state for both */
    double wmax, e1 = free_body(B, h, steps, 50, &wmax);
    rng = seed;
    double e2 = free_body(B, h / 2, 2 * steps, 100, &wmax);
    double order = log2(e1 / e2);
    CHECK(fabs(order - 2) <= 0.3, "4. %s free: energy within %.2g at h = %g s, %.2g at h/2: "
          "order %.2f (2 +- 0.3; the highest free-free frequency %.4g rad/s, h omega = %.2g)",
          B->name, e1, h, e2, order, wmax, h * wmax);
}

/* r = 0: the lattice as a rigid body (all its nodes, nothing fixed), spun
 * about its intermediate principal axis about the centre of mass with a
 * disturbance of 5 %; the centre at rest. */
static void rigid_tumble(void)
{
    fe_model fe;
    char err[512] = "";
    lattice_fe(&fe, 1.0);
    double inv[JNT_FFRF3_SIZE(0)];
    red_basis b0 = {fe.ndof, 0, NULL};
    int rc = red_ffrf3d(&fe, &b0, NULL, NULL, inv, err, sizeof err);
    CHECK(rc == 0, "4. rigid lattice (r = 0): invariants (%s)", rc ? err : "ok");
    if (rc) {
        fe_free(&fe);
        return;
    }
    flex3_body bd = {inv, 0, 0, 12};
    /* inertia about the centre c: J0 = tr(E0) I - E0, Jc = J0 - m (|c|^2 I - c c^T) */
    double m = inv[0], c[3], Jc[9], ev[3], tr = 0;
    for (int k = 0; k < 3; k++)
        c[k] = inv[JNT_FFRF3_S0 + k] / m, tr += inv[JNT_FFRF3_E0 + 4 * k];
    double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++)
            Jc[k + 3 * l] = (k == l ? tr - m * cc : 0) - inv[JNT_FFRF3_E0 + k + 3 * l] +
                            m * c[k] * c[l];
    LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'L', 3, Jc, 3, ev); /* Jc: the principal axes */
    double w = 2 * PI, dw = 0.05, omp[3] = {dw * w, w, dw * w}, R[9], wb[3] = {0}, om[3] = {0};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            wb[k] += Jc[k + 3 * i] * omp[i];
    rand_rot(R);
    for (int i = 0; i < 3; i++)
        for (int l = 0; l < 3; l++)
            om[l] += R[3 * i + l] * wb[i];
    double q[12], v[12], p[12], lam[6] = {0}, M[144];
    memcpy(q + 3, R, sizeof R);
    for (int i = 0; i < 3; i++)
        cross(om, q + 3 + 3 * i, v + 3 + 3 * i);
    /* the centre x + R c at rest: x' = -sum_i c_i d_i' */
    for (int l = 0; l < 3; l++) {
        q[l] = 0.0, v[l] = 0.0;
        for (int i = 0; i < 3; i++)
            v[l] -= c[i] * v[3 + 3 * i + l];
    }
    double work[1];
    mass_dense(&bd, q, M, work);
    for (int i = 0; i < 12; i++)
        p[i] = cblas_ddot(12, M + i, 12, v, 1);
    mid S;
    mid_init(&S, &bd, 1e-3);
    double E = 0, M2 = 0, P0[3], L0[3], P[3], L[3], dL = 0, dE = 0, E0 = energy(&S, q, p);
    for (int i = 0; i < 3; i++)
        E += ev[i] * omp[i] * omp[i] / 2, M2 += ev[i] * ev[i] * omp[i] * omp[i];
    momenta(q, p, P0, L0);
    double z[64], w2p = 0;
    int nz = 0;
    for (int s = 0; s < 20000 && rc == 0; s++) {
        rc = mid_step(&S, q, p, lam, s ? S.wb : v);
        momenta(q, p, P, L);
        for (int l = 0; l < 3; l++)
            dL = fmax(dL, fabs(L[l] - L0[l]) / sqrt(M2));
        if (s % 50 == 49)
            dE = fmax(dE, fabs(energy(&S, q, p) - E0) / E0);
        /* the spin about the intermediate axis at the step's middle */
        double wv[3] = {0}, t[3], w2 = 0;
        for (int i = 0; i < 3; i++) {
            cross(S.qb + 3 + 3 * i, S.wb + 3 + 3 * i, t);
            for (int l = 0; l < 3; l++)
                wv[l] += 0.5 * t[l];
        }
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++)
                w2 += Jc[i + 3] * S.qb[3 + 3 * i + l] * wv[l];
        double tm = (s + 0.5) * S.h;
        if (s > 0 && (w2 > 0) != (w2p > 0) && nz < 64)
            z[nz++] = tm - S.h * w2 / (w2 - w2p);
        w2p = w2;
    }
    double I1 = ev[0], I2 = ev[1], I3 = ev[2];
    if (M2 < 2 * E * I2) /* the other branch: I1 and I3 trade places */
        I1 = ev[2], I3 = ev[0];
    double k2 = (I2 - I1) * (2 * E * I3 - M2) / ((I3 - I2) * (M2 - 2 * E * I1));
    double T = 4 * ellip_k(sqrt(k2)) * sqrt(I1 * I2 * I3 / ((I3 - I2) * (M2 - 2 * E * I1)));
    double Tm = nz >= 3 ? 2 * (z[nz - 1] - z[0]) / (nz - 1) : NAN;
    CHECK(rc == 0 && fabs(E0 - E) <= 1e-12 * E && fabs(sqrt(L0[0] * L0[0] + L0[1] * L0[1] +
          L0[2] * L0[2]) - sqrt(M2)) <= 1e-12 * sqrt(M2), "4. rigid lattice: the initial "
          "energy and |L| are those of omega about the centre (principal moments %.4g, %.4g, "
          "%.4g kg m^2)", ev[0], ev[1], ev[2]);
    CHECK(dE <= 1e-11 && dL <= 1e-11, "4. rigid lattice, 20000 midpoint steps of 1 ms: energy "
          "within %.2g, angular momentum within %.2g (relative, 1e-11; a constant mass matrix "
          "and quadratic rows: exact but for rounding)", dE, dL);
    CHECK(nz >= 4 && fabs(Tm - T) <= 1e-4 * T, "4. rigid lattice: flip period %.8f s over %d "
          "half-periods, Euler's equations' closed form %.8f s (rel %.2g, 1e-4)", Tm, nz - 1, T,
          fabs(Tm - T) / T);
    mid_free(&S);
    fe_free(&fe);
}

/* ---- 5. the frame held -------------------------------------------------------------- */

static void frame_held(const body3 *B)
{
    int r = B->r, n = 12 + r;
    flex3_body bd = body_of(B, NULL);
    double *q = calloc(n, sizeof *q), *v = calloc(n, sizeof *v);
    double *M = calloc((size_t)n * n, sizeof *M), *J = calloc((size_t)n * n, sizeof *J);
    double *Mq = calloc((size_t)r * r, sizeof *Mq), *Kq = calloc((size_t)r * r, sizeof *Kq);
    double *ev = calloc(r, sizeof *ev), *work = malloc(sizeof *work * flex3_work_size(r));
    double R[9];
    rand_rot(R);
    q[0] = 0.4, q[1] = 0.1, q[2] = -0.7;
    memcpy(q + 3, R, sizeof R);
    for (int k = 0; k < r; k++)
        q[12 + k] = 0.01 * srand1();
    /* frame held: its rates and accelerations zero; M_qq q'' = f_q(q, q' = 0) */
    flex3_mass(&bd, q, M, n, work);
    flex3_jac(&bd, q, v, NULL, J, NULL, n, work);
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++) {
            Mq[i + (size_t)r * j] = M[(size_t)(12 + j) * n + 12 + i];
            Kq[i + (size_t)r * j] = -J[(size_t)(12 + j) * n + 12 + i];
        }
    int info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', r, Kq, r, Mq, r, ev);
    double e = 0;
    for (int k = 0; k < r; k++)
        e = fmax(e, fabs(sqrt(ev[k]) - B->omega[k]) / B->omega[k]);
    CHECK(info == 0 && e <= 1e-10, "5. %s, frame held turned: the elastic coordinates' "
          "frequencies %.6g .. %.6g rad/s = the substructure's modes to %.2g (1e-10)", B->name,
          sqrt(ev[0]), sqrt(ev[r - 1]), e);
    free(q), free(v), free(M), free(J), free(Mq), free(Kq), free(ev), free(work);
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
    body3 shear = {.name = "beam3d with shear"};
    int ok = lattice_fe(&lat.fe, 1.0) == 0 && reduce(&lat, "base", 5) == 0;
    int rc = fe_beam3d(&beam.fe, 1.0, 8, &BEAM_SECTION, err, sizeof err);
    CHECK(rc == 0, "beam3d: 8 elements (%s)", rc ? err : "ok");
    ok = ok && rc == 0 && reduce(&beam, "left", 6) == 0;
    rc = fe_beam3d(&shear.fe, 1.0, 8, &SHEAR_SECTION, err, sizeof err);
    CHECK(rc == 0, "beam3d with shear: 8 elements (%s)", rc ? err : "ok");
    ok = ok && rc == 0 && reduce(&shear, "left", 6) == 0;
    if (ok) {
        /* the floating frame on a Timoshenko beam: energy, Jacobians against
         * differences, elastic frequencies */
        energy_beam(&shear);
        lagrange(&shear);
        frame_held(&shear);
        invariants_point_masses(&lat);
        energy_lattice(&lat);
        energy_beam(&beam);
        lagrange(&lat);
        lagrange(&beam);
        free_body_order(&lat, 1e-3, 3000);
        free_body_order(&beam, 3e-5, 3000);
        rigid_tumble();
        frame_held(&lat);
        frame_held(&beam);
    }
    refusals();
    body_free(&lat);
    body_free(&beam);
    body_free(&shear);
    return check_done();
}
