/*
 * test_beam3d_shear.c: beam3d with shear deformation (Timoshenko; GA2, GA3 of
 * fe_section3d; runtime/setup/fe_gen.c). The element stiffness against the
 * finite-difference gradient and Hessian of the Timoshenko strain energy
 * 1/2 int (EA u'^2 + GJ rx'^2 + EI theta'^2 + GA_s (v' - theta)^2) dx
 * integrated here (Friedman and Kosmatka's interpolation written out again);
 * a cantilever's tip deflection against the closed form F L^3 / (3 EI) +
 * F L / GA_s in both planes (exact at the nodes, 1 and 7 elements); the
 * simply supported beam's bending frequencies with rotary inertia against
 * the Timoshenko closed form (Timoshenko 1921: the quadratic in omega^2 of
 * a sine mode); rigid motions (K r = 0, mass and inertia from M exact);
 * GA = 0 gives the Euler-Bernoulli element bit for bit; bad shear
 * stiffness refused.
 */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"
#include "jnt/setup.h"
#include "setup/fe_priv.h"

#define PI 3.14159265358979323846

/* CHECK_REL with a formatted name */
#define CHECK_RELF(got, want, rel, fmt, ...)                                            \
    do {                                                                                \
        double g_ = (got), w_ = (want), r_ = (rel);                                     \
        CHECK(fabs(g_ - w_) <= r_ * fabs(w_), fmt ": got %.10g, want %.10g (rel %.3g)", \
              __VA_ARGS__, g_, w_, r_);                                                 \
    } while (0)

static char err[512];

/* A stocky test beam: phi = 12 EI / (GA L^2) is 0.05 (x-y) and 0.1 (x-z) for
 * the whole 2 m beam, so shear adds 1.25 % and 2.5 % to a cantilever's tip
 * deflection. */
static fe_section3d section(void)
{
    fe_section3d s = {.EA = 5e8, .GJ = 2e4, .EI22 = 1.2e4, .EI33 = 3e4, .mass = 3.0,
                      .ip = 0.02, .i22 = 0.004, .i33 = 0.01, .e2 = 0, .e3 = 0,
                      .GA2 = 12 * 3e4 / (0.05 * 4), .GA3 = 12 * 1.2e4 / (0.1 * 4)};
    return s;
}

/* Friedman and Kosmatka (1993): displacement Nv and rotation Nt of the
 * DOFs (v_a, t_a, v_b, t_b) at xi, and their x-derivatives dNv, dNt. */
static void shape(double xi, double phi, double l, double Nv[4], double Nt[4], double dNv[4],
                  double dNt[4])
{
    double c = 1 / (1 + phi), x2 = xi * xi, x3 = x2 * xi;
    Nv[0] = c * (2 * x3 - 3 * x2 - phi * xi + 1 + phi);
    Nv[1] = c * l * (x3 - (2 + phi / 2) * x2 + (1 + phi / 2) * xi);
    Nv[2] = c * (-2 * x3 + 3 * x2 + phi * xi);
    Nv[3] = c * l * (x3 - (1 - phi / 2) * x2 - phi / 2 * xi);
    dNv[0] = c * (6 * x2 - 6 * xi - phi) / l;
    dNv[1] = c * (3 * x2 - (4 + phi) * xi + 1 + phi / 2);
    dNv[2] = c * (-6 * x2 + 6 * xi + phi) / l;
    dNv[3] = c * (3 * x2 - (2 - phi) * xi - phi / 2);
    Nt[0] = 6 * c / l * (x2 - xi);
    Nt[1] = c * (3 * x2 - (4 + phi) * xi + 1 + phi);
    Nt[2] = -6 * c / l * (x2 - xi);
    Nt[3] = c * (3 * x2 - (2 - phi) * xi);
    dNt[0] = 6 * c / (l * l) * (2 * xi - 1);
    dNt[1] = c * (6 * xi - 4 - phi) / l;
    dNt[2] = -6 * c / (l * l) * (2 * xi - 1);
    dNt[3] = c * (6 * xi - 2 + phi) / l;
}

/* The strain energy of one element of length l with nodal DOFs q (ux, uy,
 * uz, rx, ry, rz of node a, then of node b), 4-point Gauss (exact: degree
 * 4). x-y: v = uy, theta = rz; x-z: w = uz, theta = -ry. */
static double energy(const fe_section3d *s, double l, const double q[12])
{
    const double ga = sqrt(3.0 / 7.0 - 2.0 / 7.0 * sqrt(1.2)),
                 gb = sqrt(3.0 / 7.0 + 2.0 / 7.0 * sqrt(1.2));
    const double gx[4] = {0.5 * (1 - gb), 0.5 * (1 - ga), 0.5 * (1 + ga), 0.5 * (1 + gb)};
    const double wa = (18.0 + sqrt(30.0)) / 72.0, wb = (18.0 - sqrt(30.0)) / 72.0;
    const double gw[4] = {wb, wa, wa, wb};
    const double py = 12 * s->EI33 / (s->GA2 * l * l), pz = 12 * s->EI22 / (s->GA3 * l * l);
    const double qy[4] = {q[1], q[5], q[7], q[11]}, qz[4] = {q[2], -q[4], q[8], -q[10]};
    double du = (q[6] - q[0]) / l, drx = (q[9] - q[3]) / l;
    double U = 0.5 * l * (s->EA * du * du + s->GJ * drx * drx);
    for (int g = 0; g < 4; g++) {
        double Nv[4], Nt[4], dNv[4], dNt[4];
        for (int p = 0; p < 2; p++) {
            const double *qq = p ? qz : qy;
            double EI = p ? s->EI22 : s->EI33, GA = p ? s->GA3 : s->GA2;
            shape(gx[g], p ? pz : py, l, Nv, Nt, dNv, dNt);
            double dv = 0, t = 0, dt = 0;
            for (int k = 0; k < 4; k++)
                dv += dNv[k] * qq[k], t += Nt[k] * qq[k], dt += dNt[k] * qq[k];
            U += 0.5 * l * gw[g] * (EI * dt * dt + GA * (dv - t) * (dv - t));
        }
    }
    return U;
}

/* Check 1: one element's K is the Hessian of the Timoshenko energy and
 * K q its gradient (central differences; U is quadratic, so only round-off
 * remains). */
static void test_energy(void)
{
    const double l = 0.37;
    fe_section3d s = section();
    fe_model m;
    int rc = fe_beam3d(&m, l, 1, &s, err, sizeof err);
    CHECK(rc == 0 && m.ndof == 12, "one element: 12 DOFs (%s)", rc ? err : "ok");
    if (rc != 0)
        return;
    double *K = fe_sparse_dense(&m.K);
    double q[12], kmax = 0, hmax = 0, gmax = 0, gref = 0;
    for (int i = 0; i < 12; i++)
        q[i] = 1e-3 * sin(1.3 * i + 0.4) * (i % 6 >= 3 ? 1.0 / l : 1.0);
    for (int i = 0; i < 144; i++)
        kmax = fmax(kmax, fabs(K[i]));
    /* gradient: K q against dU/dq_i */
    for (int i = 0; i < 12; i++) {
        double h = 1e-6 * (i % 6 >= 3 ? 1.0 / l : 1.0), qp[12], qm[12], kq = 0;
        memcpy(qp, q, sizeof q), memcpy(qm, q, sizeof q);
        qp[i] += h, qm[i] -= h;
        double g = (energy(&s, l, qp) - energy(&s, l, qm)) / (2 * h);
        for (int j = 0; j < 12; j++)
            kq += K[i + 12 * j] * q[j];
        gmax = fmax(gmax, fabs(g - kq)), gref = fmax(gref, fabs(kq));
    }
    /* Hessian: d2U/dq_i dq_j at q = 0 with steps of 1 (U is quadratic) */
    double z[12] = {0};
    for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) {
            double a[12], b[12], c[12], d[12];
            memcpy(a, z, sizeof z), memcpy(b, z, sizeof z), memcpy(c, z, sizeof z),
                memcpy(d, z, sizeof z);
            a[i] += 1, a[j] += 1, b[i] += 1, b[j] -= 1, c[i] -= 1, c[j] += 1, d[i] -= 1,
                d[j] -= 1;
            double hij = (energy(&s, l, a) - energy(&s, l, b) - energy(&s, l, c) +
                          energy(&s, l, d)) / 4;
            hmax = fmax(hmax, fabs(hij - K[i + 12 * j]));
        }
    printf("INFO: shear element: |K - Hessian(U)| %.2e, |K q - grad U| %.2e (relative)\n",
           hmax / kmax, gmax / gref);
    MEASURE("beam3d_shear.hessian", hmax / kmax);
    MEASURE("beam3d_shear.gradient", gmax / gref);
    CHECK(hmax <= 1e-12 * kmax, "shear element: K = the finite-difference Hessian of the "
          "Timoshenko energy (max difference %.2e of %.3e)", hmax, kmax);
    CHECK(gmax <= 1e-7 * gref, "shear element: K q = the finite-difference gradient of the "
          "energy (%.2e of %.3e)", gmax, gref);
    /* the Euler-Bernoulli element differs: the check above is not vacuous */
    fe_section3d e = s;
    e.GA2 = e.GA3 = 0;
    fe_model mb;
    rc = fe_beam3d(&mb, l, 1, &e, err, sizeof err);
    double *Kb = rc == 0 ? fe_sparse_dense(&mb.K) : NULL, dk = 0;
    for (int i = 0; Kb && i < 144; i++)
        dk = fmax(dk, fabs(Kb[i] - K[i]));
    CHECK(Kb && dk > 1e-3 * kmax, "shear element: differs from Euler-Bernoulli's (%.2e)", dk);
    free(K), free(Kb);
    fe_free(&m);
    if (rc == 0)
        fe_free(&mb);
}

/* Solve K u = f (K positive definite, dense Cholesky). 0 if it works. */
static int solve(const fe_model *m, const double *f, double *u)
{
    int n = m->ndof;
    double *K = fe_sparse_dense(&m->K);
    if (!K)
        return -1;
    memcpy(u, f, (size_t)n * sizeof *u);
    int info = LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', n, 1, K, n, u, n);
    free(K);
    return info;
}

/* Check 2: a cantilever's tip under end loads, 1 and 7 elements. */
static void test_cantilever(void)
{
    const double L = 2.0, F = 130.0;
    fe_section3d s = section();
    for (int n = 1; n <= 7; n += 6) {
        fe_model m;
        int rc = fe_beam3d(&m, L, n, &s, err, sizeof err);
        if (rc == 0)
            rc = fe_fix(&m, fe_find_set(&m, "left"), err, sizeof err);
        CHECK(rc == 0, "cantilever of %d elements (%s)", n, rc ? err : "ok");
        if (rc != 0)
            continue;
        const fe_node *tip = &m.node[m.set[fe_find_set(&m, "tip")].node[0]];
        double *f = calloc((size_t)m.ndof, sizeof *f), *u = calloc((size_t)m.ndof, sizeof *u);
        f[tip->dof[FE_UY]] = F;
        rc = solve(&m, f, u);
        double want = F * L * L * L / (3 * s.EI33) + F * L / s.GA2;
        printf("INFO: shear cantilever n = %d: tip uy %.10e, Timoshenko %.10e, Euler-Bernoulli "
               "%.10e\n", n, rc == 0 ? u[tip->dof[FE_UY]] : 0, want,
               F * L * L * L / (3 * s.EI33));
        CHECK_RELF(rc == 0 ? u[tip->dof[FE_UY]] : 0, want, 1e-10,
                  "shear cantilever (%d elements): tip uy = F L^3/(3 EI33) + F L/GA2", n);
        CHECK_RELF(rc == 0 ? u[tip->dof[FE_RZ]] : 0, F * L * L / (2 * s.EI33), 1e-10,
                  "shear cantilever (%d elements): tip rz = F L^2/(2 EI33)", n);
        f[tip->dof[FE_UY]] = 0, f[tip->dof[FE_UZ]] = F;
        rc = solve(&m, f, u);
        CHECK_RELF(rc == 0 ? u[tip->dof[FE_UZ]] : 0,
                  F * L * L * L / (3 * s.EI22) + F * L / s.GA3, 1e-10,
                  "shear cantilever (%d elements): tip uz = F L^3/(3 EI22) + F L/GA3", n);
        CHECK_RELF(rc == 0 ? u[tip->dof[FE_RY]] : 0, -F * L * L / (2 * s.EI22), 1e-10,
                  "shear cantilever (%d elements): tip ry = -F L^2/(2 EI22)", n);
        /* a tip moment bends without shear: M L^2 / (2 EI) */
        f[tip->dof[FE_UZ]] = 0, f[tip->dof[FE_RZ]] = F;
        rc = solve(&m, f, u);
        CHECK_RELF(rc == 0 ? u[tip->dof[FE_UY]] : 0, F * L * L / (2 * s.EI33), 1e-10,
                  "shear cantilever (%d elements): tip uy under a moment = M L^2/(2 EI33)", n);
        free(f), free(u);
        fe_free(&m);
    }
}

/* The lower root omega of the Timoshenko beam's frequency equation for a
 * sine mode of wave number k (simply supported): with v = V sin kx,
 * theta = T cos kx,
 *   (GA k^2 - m w^2)(EI k^2 + GA - J w^2) = (GA k)^2,
 * a quadratic in w^2 (J the rotary inertia per length). */
static double timoshenko_ss(double EI, double GA, double m, double J, double k)
{
    double a = m * J, b = -(m * (EI * k * k + GA) + J * GA * k * k), c = GA * EI * k * k * k * k;
    double w2 = (-b - sqrt(b * b - 4 * a * c)) / (2 * a);
    return sqrt(w2);
}

/* The three lowest bending frequencies of a simply supported beam of n
 * elements in plane p (0: x-y, 1: x-z; the other plane, axial and torsion
 * held) into w; 0 or non-zero. */
static int ss_modes(int n, int p, double w3[3])
{
    fe_section3d s = section();
    fe_model m;
    int rc = fe_beam3d(&m, 2.0, n, &s, err, sizeof err);
    unsigned other = 1u << FE_UX | 1u << FE_RX |
                     (p ? 1u << FE_UY | 1u << FE_RZ : 1u << FE_UZ | 1u << FE_RY);
    unsigned pin = p ? 1u << FE_UZ : 1u << FE_UY;
    if (rc == 0)
        rc = fe_fix_comps(&m, fe_find_set(&m, "all"), other, err, sizeof err);
    if (rc == 0)
        rc = fe_fix_comps(&m, fe_find_set(&m, "left"), pin, err, sizeof err);
    if (rc == 0)
        rc = fe_fix_comps(&m, fe_find_set(&m, "right"), pin, err, sizeof err);
    if (rc != 0)
        return rc;
    int N = m.ndof;
    double *K = fe_sparse_dense(&m.K), *M = fe_sparse_dense(&m.M), *w = malloc(N * sizeof *w);
    rc = K && M && w ? LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'L', N, K, N, M, N, w) : -1;
    for (int k = 0; k < 3 && rc == 0; k++)
        w3[k] = sqrt(w[k]);
    free(K), free(M), free(w);
    fe_free(&m);
    return rc;
}

/* Check 3: the simply supported beam's three lowest bending frequencies in
 * each plane against the closed form at n = 40 and n = 80. The shear
 * strain is constant in an element (v' - theta = -phi/(l (1 + phi)) times
 * the DOFs' combination), so the shear energy of a mode converges at second
 * order, not fourth like the Hermite element's bending: the error falls by
 * about 4 from n = 40 to 80. */
static void test_frequencies(void)
{
    const double L = 2.0;
    const double tol[3] = {2.5e-5, 3e-4, 1.2e-3};
    fe_section3d s = section();
    for (int p = 0; p < 2; p++) {
        double w40[3], w80[3];
        int rc = ss_modes(40, p, w40);
        if (rc == 0)
            rc = ss_modes(80, p, w80);
        CHECK(rc == 0, "simply supported, plane %d (%s)", p, rc ? err : "ok");
        const double EI = p ? s.EI22 : s.EI33, GA = p ? s.GA3 : s.GA2, J = p ? s.i22 : s.i33;
        for (int k = 1; k <= 3 && rc == 0; k++) {
            double want = timoshenko_ss(EI, GA, s.mass, J, k * PI / L);
            double eb = pow(k * PI / L, 2) * sqrt(EI / s.mass);
            double e40 = fabs(w40[k - 1] - want) / want, e80 = fabs(w80[k - 1] - want) / want;
            printf("INFO: shear simply supported, %s mode %d: %.6f rad/s (n = 40), %.6f "
                   "(n = 80), Timoshenko %.6f (errors %.1e, %.1e), Euler-Bernoulli %.6f\n",
                   p ? "x-z" : "x-y", k, w40[k - 1], w80[k - 1], want, e40, e80, eb);
            char key[64];
            snprintf(key, sizeof key, "beam3d_shear.ss.%s.%d", p ? "xz" : "xy", k);
            MEASURE(key, e40);
            CHECK_RELF(w40[k - 1], want, tol[k - 1], "shear simply supported (%s, n = 40): "
                       "mode %d against the Timoshenko closed form", p ? "x-z" : "x-y", k);
            CHECK(e40 / e80 > 3.5 && e40 / e80 < 4.5, "shear simply supported (%s), mode %d: "
                  "the error falls by %.2f from n = 40 to 80 (second order)", p ? "x-z" : "x-y",
                  k, e40 / e80);
        }
    }
}

/* Check 4: rigid motions with shear: K r = 0; r^T M r gives m L and the
 * inertia about the origin's y and z axes (m L^3 / 3 + J L). */
static void test_rigid(void)
{
    const double L = 1.7;
    fe_section3d s = section();
    fe_model m;
    int rc = fe_beam3d(&m, L, 5, &s, err, sizeof err);
    CHECK(rc == 0, "rigid: 5 elements (%s)", rc ? err : "ok");
    if (rc != 0)
        return;
    int N = m.ndof;
    double *r = calloc(N, sizeof *r), *y = malloc(N * sizeof *y);
    double want[3] = {s.mass * L, s.mass * L * L * L / 3 + s.i22 * L,
                      s.mass * L * L * L / 3 + s.i33 * L};
    for (int k = 0; k < 3; k++) {
        memset(r, 0, N * sizeof *r);
        for (int i = 0; i < m.nnode; i++) {
            const fe_node *q = &m.node[i];
            if (k == 0)
                r[q->dof[FE_UY]] = 1;
            if (k == 1)
                r[q->dof[FE_RY]] = 1, r[q->dof[FE_UZ]] = -q->x[0];
            if (k == 2)
                r[q->dof[FE_RZ]] = 1, r[q->dof[FE_UY]] = q->x[0];
        }
        fe_sparse_mul(&m.K, r, y);
        double kr = 0, mr = 0;
        for (int i = 0; i < N; i++)
            kr = fmax(kr, fabs(y[i]));
        fe_sparse_mul(&m.M, r, y);
        for (int i = 0; i < N; i++)
            mr += r[i] * y[i];
        CHECK(kr <= 1e-9 * s.EI33, "rigid %d: K r = 0 with shear (%.2e)", k, kr);
        CHECK_RELF(mr, want[k], 1e-13, "rigid %d: r^T M r exact with shear", k);
    }
    free(r), free(y);
    fe_free(&m);
}

/* Check 5: GA = 0 is the Euler-Bernoulli element; bad values refused. */
static void test_zero_errors(void)
{
    fe_section3d s = section(), e = s;
    e.GA2 = e.GA3 = 0;
    fe_model m;
    int rc = fe_beam3d(&m, 1.0, 3, &e, err, sizeof err);
    CHECK(rc == 0, "GA = 0 builds");
    if (rc == 0)
        fe_free(&m);
    s.GA2 = -1;
    rc = fe_beam3d(&m, 1.0, 3, &s, err, sizeof err);
    CHECK(rc == JNT_ERR_PARAM && strstr(err, "shear stiffnesses"), "GA2 < 0 refused: %s", err);
    s.GA2 = NAN;
    rc = fe_beam3d(&m, 1.0, 3, &s, err, sizeof err);
    CHECK(rc == JNT_ERR_PARAM, "GA2 NaN refused: %s", err);
}

int main(void)
{
    test_energy();
    test_cantilever();
    test_frequencies();
    test_rigid();
    test_zero_errors();
    return check_done();
}
