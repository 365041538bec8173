/*
 * test_red.c: the reduction library (runtime/red_*.c) on spring-mass
 * chains and a 2D spring grid built here from triplets, against analytic
 * eigenvalues, exact static solutions (dense Cholesky) and the equations of
 * seed 000 Sect. 3 evaluated by brute force.
 */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"
#include "setup/red_impl.h"

#define PI 3.14159265358979323846

enum { FIXED_FIXED, FIXED_FREE, FREE_FREE };

/* n masses `mass` joined by springs k; FIXED_FIXED adds a spring to the
 * ground at both ends, FIXED_FREE at the first mass only. */
static void chain(fe_model *m, int n, double k, double mass, int bc)
{
    int nt = 0, cap = 4 * n + 4;
    int *row = malloc((size_t)cap * sizeof *row), *col = malloc((size_t)cap * sizeof *col);
    double *val = malloc((size_t)cap * sizeof *val);
    for (int i = 0; i + 1 < n; i++) {
        int a = i, b = i + 1;
        row[nt] = a, col[nt] = a, val[nt++] = k;
        row[nt] = b, col[nt] = b, val[nt++] = k;
        row[nt] = a, col[nt] = b, val[nt++] = -k;
        row[nt] = b, col[nt] = a, val[nt++] = -k;
    }
    if (bc != FREE_FREE)
        row[nt] = 0, col[nt] = 0, val[nt++] = k;
    if (bc == FIXED_FIXED)
        row[nt] = n - 1, col[nt] = n - 1, val[nt++] = k;
    memset(m, 0, sizeof *m);
    m->ndof = n;
    fe_sparse_from_triplets(n, nt, row, col, val, &m->K);
    for (int i = 0; i < n; i++)
        row[i] = col[i] = i, val[i] = mass;
    fe_sparse_from_triplets(n, n, row, col, val, &m->M);
    free(row);
    free(col);
    free(val);
}

/* nx x ny unit masses, unit springs to the 4 neighbours, the border held by
 * springs to the ground (the 5-point Laplacian with Dirichlet boundary). */
static void grid(fe_model *m, int nx, int ny)
{
    int n = nx * ny, nt = 0;
    int *row = malloc(5 * (size_t)n * sizeof *row), *col = malloc(5 * (size_t)n * sizeof *col);
    double *val = malloc(5 * (size_t)n * sizeof *val);
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            int i = x + nx * y;
            row[nt] = i, col[nt] = i, val[nt++] = 4.0;
            if (x > 0)
                row[nt] = i, col[nt] = i - 1, val[nt++] = -1.0;
            if (x + 1 < nx)
                row[nt] = i, col[nt] = i + 1, val[nt++] = -1.0;
            if (y > 0)
                row[nt] = i, col[nt] = i - nx, val[nt++] = -1.0;
            if (y + 1 < ny)
                row[nt] = i, col[nt] = i + nx, val[nt++] = -1.0;
        }
    memset(m, 0, sizeof *m);
    m->ndof = n;
    fe_sparse_from_triplets(n, nt, row, col, val, &m->K);
    for (int i = 0; i < n; i++)
        row[i] = col[i] = i, val[i] = 1.0;
    fe_sparse_from_triplets(n, n, row, col, val, &m->M);
    free(row);
    free(col);
    free(val);
}

/* x = K^-1 f by a dense Cholesky (the reference for static checks). */
static void dense_solve(const fe_model *m, const double *f, double *x)
{
    int n = m->ndof;
    double *k = fe_sparse_dense(&m->K);
    memcpy(x, f, (size_t)n * sizeof *x);
    LAPACKE_dposv(LAPACK_COL_MAJOR, 'U', n, 1, k, n, x, n);
    free(k);
}

/* Eigenvalues (ascending) of the reduced (Kr, Mr), r x r. */
static void reduced_eig(int r, const double *kr, const double *mr, double *w)
{
    double *a = malloc((size_t)r * r * sizeof *a), *b = malloc((size_t)r * r * sizeof *b);
    memcpy(a, kr, (size_t)r * r * sizeof *a);
    memcpy(b, mr, (size_t)r * r * sizeof *b);
    LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'N', 'U', r, a, r, b, r, w);
    free(a);
    free(b);
}

/* Reduced static solution Phi (Phi^T K Phi)^-1 Phi^T f vs the exact K^-1 f:
 * max |x_r - x| / max |x|. */
static double reduced_static_error(const fe_model *m, const red_basis *b, const double *f)
{
    int n = m->ndof, r = b->r;
    double *kr = malloc((size_t)r * r * sizeof *kr), *q = calloc((size_t)r, sizeof *q);
    double *x = malloc((size_t)n * sizeof *x);
    red_project(m, b, NULL, kr, NULL, NULL, 0);
    for (int j = 0; j < r; j++)
        for (int i = 0; i < n; i++)
            q[j] += b->phi[i + (size_t)n * j] * f[i];
    LAPACKE_dposv(LAPACK_COL_MAJOR, 'U', r, 1, kr, r, q, r);
    dense_solve(m, f, x);
    double e = 0, s = 0;
    for (int i = 0; i < n; i++) {
        double xr = 0;
        for (int j = 0; j < r; j++)
            xr += b->phi[i + (size_t)n * j] * q[j];
        e = fmax(e, fabs(xr - x[i]));
        s = fmax(s, fabs(x[i]));
    }
    free(kr);
    free(q);
    free(x);
    return e / s;
}

/* Modal frequencies of a fixed-fixed chain vs the analytic
 * omega_j = 2 sqrt(k/m) sin(j pi / (2 (n + 1))); mass-normalisation and
 * K-orthogonality; dense and sparse paths. */
static void test_modal_chain(void)
{
    fe_model m;
    int n = 50, nm = 6;
    double k = 1000, mass = 0.5, om[6];
    char err[256];
    chain(&m, n, k, mass, FIXED_FIXED);
    for (int path = 0; path < 2; path++) {
        red_basis b;
        const char *what = path ? "sparse" : "dense";
        int rc = red_modal(&m, nm, path ? 1 : 0, &b, om, err, sizeof err);
        CHECK(rc == 0 && b.r == nm && b.n == n, "modal %s: %d modes (%s)", what, nm,
              rc ? err : "ok");
        if (rc)
            continue;
        for (int j = 0; j < nm; j++) {
            double want = 2 * sqrt(k / mass) * sin((j + 1) * PI / (2.0 * (n + 1)));
            char name[96];
            snprintf(name, sizeof name, "modal %s: omega_%d vs 2 sqrt(k/m) sin(j pi/(2(n+1)))",
                     what, j + 1);
            CHECK_REL(om[j], want, 1e-10, name);
        }
        double mr[36], kr[36], merr = 0, kerr = 0;
        red_project(&m, &b, mr, kr, NULL, err, sizeof err);
        for (int j = 0; j < nm; j++)
            for (int i = 0; i < nm; i++) {
                merr = fmax(merr, fabs(mr[i + nm * j] - (i == j)));
                kerr = fmax(kerr, fabs(kr[i + nm * j] - (i == j ? om[i] * om[i] : 0)) /
                                      (om[nm - 1] * om[nm - 1]));
            }
        CHECK(merr < 1e-12, "modal %s: Phi^T M Phi = I (max error %.2g)", what, merr);
        CHECK(kerr < 1e-12, "modal %s: Phi^T K Phi = diag(omega^2) (max rel. error %.2g)", what,
              kerr);
        /* Mode shape 2 vs the analytic sin(2 pi i / (n + 1)), by MAC. */
        double *u = malloc((size_t)n * sizeof *u);
        for (int i = 0; i < n; i++)
            u[i] = sin(2 * PI * (i + 1) / (n + 1.0));
        double mac = red_mac(b.phi + n, u, n);
        CHECK_NEAR(mac, 1.0, 1e-12, "modal: MAC of mode 2 with sin(2 pi i/(n+1))");
        free(u);
        red_basis_free(&b);
    }
    fe_free(&m);
}

/* Sparse path (CHOLMOD + ARPACK) vs dense (dsygvd) on a 2000-DOF grid, both
 * vs the analytic 4 sin^2(p pi/(2(nx+1))) + 4 sin^2(q pi/(2(ny+1))); and a
 * 2000-DOF chain on the sparse path vs analytic. */
static void test_sparse_vs_dense(void)
{
    fe_model m;
    int nx = 50, ny = 40, n = nx * ny, nm = 10;
    double od[10], os[10];
    char err[256];
    grid(&m, nx, ny);
    red_basis bd, bs;
    int rcd = red_modal(&m, nm, 1000000, &bd, od, err, sizeof err);
    CHECK(rcd == 0, "grid 50x40 dense modal (%s)", rcd ? err : "ok");
    int rcs = red_modal(&m, nm, 100, &bs, os, err, sizeof err);
    CHECK(rcs == 0, "grid 50x40 sparse modal (%s)", rcs ? err : "ok");
    if (rcd == 0 && rcs == 0) {
        /* The analytic eigenvalues, the nm lowest. */
        double lam[64];
        int nl = 0;
        for (int p = 1; p <= 8; p++)
            for (int q = 1; q <= 8; q++)
                lam[nl++] = 4 * pow(sin(p * PI / (2.0 * (nx + 1))), 2) +
                            4 * pow(sin(q * PI / (2.0 * (ny + 1))), 2);
        for (int i = 1; i < nl; i++)
            for (int j = i; j > 0 && lam[j] < lam[j - 1]; j--) {
                double t = lam[j];
                lam[j] = lam[j - 1];
                lam[j - 1] = t;
            }
        double e_sd = 0, e_a = 0, mac_min = 1;
        for (int j = 0; j < nm; j++) {
            e_sd = fmax(e_sd, fabs(os[j] - od[j]) / od[j]);
            e_a = fmax(e_a, fabs(os[j] - sqrt(lam[j])) / sqrt(lam[j]));
            int sep = (j == 0 || od[j] - od[j - 1] > 1e-3 * od[j]) &&
                      (j == nm - 1 || od[j + 1] - od[j] > 1e-3 * od[j]);
            if (sep)
                mac_min = fmin(mac_min, red_mac(bs.phi + (size_t)n * j, bd.phi + (size_t)n * j, n));
        }
        CHECK(e_sd < 1e-8, "grid 50x40: sparse vs dense frequencies, max rel. diff %.2g < 1e-8",
              e_sd);
        CHECK(e_a < 1e-10, "grid 50x40: sparse vs analytic frequencies, max rel. err %.2g", e_a);
        CHECK(mac_min > 1 - 1e-8, "grid 50x40: MAC sparse vs dense of separated modes %.12f",
              mac_min);
    }
    red_basis_free(&bd);
    red_basis_free(&bs);
    fe_free(&m);

    /* A 2000-mass fixed-fixed chain, sparse: close low eigenvalues, cond(K) ~ 1e6. */
    n = 2000;
    chain(&m, n, 1.0, 1.0, FIXED_FIXED);
    int rc = red_modal(&m, 5, 0, &bs, os, err, sizeof err);
    CHECK(rc == 0, "chain 2000 sparse modal (%s)", rc ? err : "ok");
    if (rc == 0) {
        double e = 0;
        for (int j = 0; j < 5; j++) {
            double want = 2 * sin((j + 1) * PI / (2.0 * (n + 1)));
            e = fmax(e, fabs(os[j] - want) / want);
        }
        CHECK(e < 1e-8, "chain 2000 sparse: frequencies vs analytic, max rel. err %.2g", e);
    }
    red_basis_free(&bs);
    fe_free(&m);
}

/* Free-free chain (singular K): sparse path with the negative shift, dense
 * path; omega_j = 2 sqrt(k/m) sin((j - 1) pi / (2 n)), omega_1 = 0. */
static void test_modal_free(void)
{
    fe_model m;
    int n = 200;
    double om[4];
    char err[256];
    chain(&m, n, 4.0, 1.0, FREE_FREE);
    for (int path = 0; path < 2; path++) {
        red_basis b;
        int rc = red_modal(&m, 4, path ? 10 : 0, &b, om, err, sizeof err);
        const char *what = path ? "sparse" : "dense";
        CHECK(rc == 0, "free-free chain %s modal (%s)", what, rc ? err : "ok");
        if (rc)
            continue;
        CHECK(om[0] < 1e-5 * om[1], "free-free %s: rigid-body omega_1 = %.3g ~ 0", what, om[0]);
        double e = 0;
        for (int j = 1; j < 4; j++) {
            double want = 4 * sin(j * PI / (2.0 * n));
            e = fmax(e, fabs(om[j] - want) / want);
        }
        CHECK(e < 1e-9, "free-free %s: omega_2..4 vs 2 sqrt(k/m) sin((j-1) pi/(2n)), err %.2g",
              what, e);
        red_basis_free(&b);
    }
    fe_free(&m);
}

/* Static shapes are K^-1 e_j; a modal + static basis is exact for loads at
 * those DOFs (reference: dense Cholesky of the full K). */
static void test_static(void)
{
    fe_model m;
    int n = 40, dofs[3] = {10, 25, 39};
    char err[256];
    chain(&m, n, 500.0, 0.2, FIXED_FREE);
    red_basis bs, b;
    int rc = red_static(&m, dofs, 3, &bs, err, sizeof err);
    CHECK(rc == 0 && bs.r == 3, "static: 3 shapes (%s)", rc ? err : "ok");
    if (rc == 0) {
        double *f = calloc((size_t)n, sizeof *f), *x = malloc((size_t)n * sizeof *x);
        double e = 0;
        for (int j = 0; j < 3; j++) {
            memset(f, 0, (size_t)n * sizeof *f);
            f[dofs[j]] = 1;
            dense_solve(&m, f, x);
            for (int i = 0; i < n; i++)
                e = fmax(e, fabs(bs.phi[i + (size_t)n * j] - x[i]) / fabs(x[n - 1]));
        }
        CHECK(e < 1e-12, "static: shapes = K^-1 e_j (dense Cholesky), max rel. err %.2g", e);
        rc = red_modal(&m, 4, 0, &b, NULL, err, sizeof err);
        red_basis_append(&b, &bs, err, sizeof err);
        CHECK(b.r == 7, "modal(4) + static(3): 7 vectors");
        memset(f, 0, (size_t)n * sizeof *f);
        f[10] = 3, f[25] = 1, f[39] = -2;
        double es = reduced_static_error(&m, &b, f);
        CHECK(es < 1e-10, "modal + static: exact static response to loads at the static DOFs "
              "(rel. err %.2g)", es);
        /* Without the static shapes the modal basis alone is not exact. */
        b.r = 4;
        double em = reduced_static_error(&m, &b, f);
        CHECK(em > 1e-4, "modal(4) alone is not exact for that load (rel. err %.2g)", em);
        b.r = 7;
        free(f);
        free(x);
        red_basis_free(&b);
    }
    red_basis_free(&bs);
    /* Errors: a DOF out of range, a repeated DOF, a singular K. */
    int bad[2] = {3, 3};
    rc = red_static(&m, bad, 2, &bs, err, sizeof err);
    CHECK(rc == JNT_ERR_PARAM && strstr(err, "twice"), "static: repeated DOF rejected (%s)", err);
    bad[1] = n;
    rc = red_static(&m, bad, 2, &bs, err, sizeof err);
    CHECK(rc == JNT_ERR_PARAM && strstr(err, "out of range"), "static: DOF out of range (%s)",
          err);
    fe_free(&m);
    /* A free-free chain: Guyan constraint modes instead of K^-1 e_j. */
    int g[2] = {5, 20};
    chain(&m, n, 500.0, 0.2, FREE_FREE);
    rc = red_static(&m, g, 2, &bs, err, sizeof err);
    CHECK(rc == 0 && bs.r == 2, "static on a free-free chain: 2 Guyan constraint modes (%s)",
          rc ? err : "ok");
    if (rc == 0) {
        double *kp = malloc((size_t)n * sizeof *kp), ri = 0, rig = 0;
        for (int j = 0; j < 2; j++) {
            fe_sparse_mul(&m.K, bs.phi + (size_t)n * j, kp);
            for (int i = 0; i < n; i++)
                if (i != g[0] && i != g[1])
                    ri = fmax(ri, fabs(kp[i]) / 500.0);
        }
        for (int i = 0; i < n; i++)
            rig = fmax(rig, fabs(bs.phi[i] + bs.phi[i + n] - 1));
        CHECK(ri < 1e-12 && bs.phi[g[0]] == 1 && bs.phi[g[1]] == 0,
              "static (free-free): unit at its DOF, no interior force (%.2g)", ri);
        CHECK(rig < 1e-12, "static (free-free): psi_1 + psi_2 is the rigid-body mode (%.2g)", rig);
        free(kp);
    }
    red_basis_free(&bs);
    fe_free(&m);
    /* Two unconnected pieces held at one DOF: still singular, an error. */
    chain(&m, 10, 500.0, 0.2, FREE_FREE);
    for (int p = 0; p < m.K.nnz; p++) {
        int j = 0;
        while (m.K.colptr[j + 1] <= p)
            j++;
        int i = m.K.rowind[p];
        if ((i == 4 && j == 5) || (i == 5 && j == 4))
            m.K.val[p] = 0;
        if ((i == 4 && j == 4) || (i == 5 && j == 5))
            m.K.val[p] -= 500.0;
    }
    rc = red_static(&m, g, 1, &bs, err, sizeof err);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "singular"),
          "static: DOFs that do not hold the structure (%s)", err);
    fe_free(&m);
}

/* Craig-Bampton of a fixed-fixed chain with two boundary DOFs: the lowest
 * frequencies converge to the analytic ones as modes are added (and stay
 * above them: Rayleigh-Ritz); constraint modes are exact statically. */
static void test_craig_bampton(void)
{
    fe_model m;
    int n = 120, keep[2] = {80, 40}, nmodes[4] = {2, 6, 12, 30};
    double k = 1e4, mass = 0.1, prev = HUGE_VAL;
    char err[256];
    chain(&m, n, k, mass, FIXED_FIXED);
    for (int t = 0; t < 4; t++) {
        red_basis b;
        int rc = red_craig_bampton(&m, keep, 2, nmodes[t], &b, err, sizeof err);
        CHECK(rc == 0 && b.r == 2 + nmodes[t], "craig_bampton(modes = %d, 2 kept) (%s)", nmodes[t],
              rc ? err : "ok");
        if (rc)
            continue;
        int r = b.r;
        double *mr = malloc((size_t)r * r * sizeof *mr), *kr = malloc((size_t)r * r * sizeof *kr);
        double *w = malloc((size_t)r * sizeof *w);
        red_project(&m, &b, mr, kr, NULL, err, sizeof err);
        reduced_eig(r, kr, mr, w);
        double e = 0;
        int above = 1;
        for (int j = 0; j < 4; j++) {
            double want = 2 * sqrt(k / mass) * sin((j + 1) * PI / (2.0 * (n + 1)));
            e = fmax(e, fabs(sqrt(w[j]) - want) / want);
            above &= sqrt(w[j]) >= want * (1 - 1e-12);
        }
        CHECK(e < prev, "craig_bampton(modes = %d): lowest 4 frequencies, max rel. err %.3g "
              "(improves on %.3g)", nmodes[t], e, prev);
        CHECK(above, "craig_bampton(modes = %d): reduced frequencies >= exact (Rayleigh-Ritz)",
              nmodes[t]);
        prev = e;
        if (t == 3)
            CHECK(e < 1e-4, "craig_bampton(modes = 30): max rel. err %.2g < 1e-4", e);
        /* Boundary rows: constraint modes e_j, normal modes 0. */
        int bok = 1;
        for (int j = 0; j < r; j++)
            for (int i = 0; i < 2; i++)
                bok &= b.phi[keep[i] + (size_t)n * j] == (j == i ? 1.0 : 0.0);
        CHECK(bok, "craig_bampton: boundary rows are the identity / zero");
        /* K psi_j = 0 on interior rows; exact static response to boundary loads. */
        double *kp = malloc((size_t)n * sizeof *kp), ri = 0;
        for (int j = 0; j < 2; j++) {
            fe_sparse_mul(&m.K, b.phi + (size_t)n * j, kp);
            for (int i = 0; i < n; i++)
                if (i != keep[0] && i != keep[1])
                    ri = fmax(ri, fabs(kp[i]) / k);
        }
        CHECK(ri < 1e-12, "craig_bampton: constraint modes have no interior force (%.2g)", ri);
        double *f = calloc((size_t)n, sizeof *f);
        f[40] = 2.0, f[80] = -1.0;
        double es = reduced_static_error(&m, &b, f);
        CHECK(es < 1e-10, "craig_bampton: exact static response to boundary loads (%.2g)", es);
        free(f);
        free(kp);
        free(mr);
        free(kr);
        free(w);
        red_basis_free(&b);
    }
    red_basis b;
    int rc = red_craig_bampton(&m, keep, 2, n, &b, err, sizeof err);
    CHECK(rc == JNT_ERR_PARAM, "craig_bampton: more modes than interior DOFs rejected (%s)", err);
    fe_free(&m);
}

/* Orthogonalisation (seed 000 eqs. 10-11) of a basis mixing the rigid-body
 * mode of a free-free chain into its exact elastic modes
 * u_j(i) = cos((j - 1) pi (i + 1/2) / n): the rigid content goes, the
 * elastic span stays (the exact modes come back, MAC 1). */
static void test_orthogonalize(void)
{
    fe_model m;
    int n = 30;
    double k = 100, mass = 2;
    char err[256];
    chain(&m, n, k, mass, FREE_FREE);
    red_basis b = {n, 5, calloc((size_t)n * 5, sizeof(double))};
    double *u[4];
    for (int j = 0; j < 4; j++) {
        u[j] = malloc((size_t)n * sizeof *u[j]);
        for (int i = 0; i < n; i++)
            u[j][i] = cos(j * PI * (i + 0.5) / n);
    }
    for (int i = 0; i < n; i++) {
        b.phi[i] = u[0][i] + u[1][i];
        b.phi[i + n] = 2 * u[0][i] - u[2][i];
        b.phi[i + 2 * n] = u[3][i] + 0.5 * u[0][i];
        b.phi[i + 3 * n] = u[0][i];
        b.phi[i + 4 * n] = b.phi[i] + b.phi[i + n]; /* dependent */
    }
    int rc = red_orthogonalize(&m, &b, 1e-8, err, sizeof err);
    CHECK(rc == 0 && b.r == 3, "orthogonalize: 5 vectors (1 rigid, 1 dependent) -> %d elastic (%s)",
          b.r, rc ? err : "ok");
    if (rc == 0 && b.r == 3) {
        double rig = 0, mac = 1;
        for (int j = 0; j < 3; j++) {
            double s = 0, nn = 0;
            for (int i = 0; i < n; i++)
                s += mass * b.phi[i + n * j], nn += b.phi[i + n * j] * b.phi[i + n * j];
            rig = fmax(rig, fabs(s) / sqrt(nn * n) / mass);
            mac = fmin(mac, red_mac(b.phi + n * j, u[j + 1], n));
        }
        CHECK(rig < 1e-10, "orthogonalize: no rigid-body content (1^T M phi, rel. %.2g)", rig);
        CHECK(mac > 1 - 1e-10, "orthogonalize: the exact elastic modes are kept (min MAC %.12f)",
              mac);
        double mr[9], kr[9], e = 0;
        red_project(&m, &b, mr, kr, NULL, err, sizeof err);
        for (int j = 0; j < 3; j++) {
            double want = 2 * sqrt(k / mass) * sin((j + 1) * PI / (2.0 * n));
            e = fmax(e, fabs(sqrt(kr[j + 3 * j]) - want) / want + fabs(mr[j + 3 * j] - 1));
        }
        CHECK(e < 1e-10, "orthogonalize: M-normalised, frequencies of the free-free chain (%.2g)",
              e);
    }
    red_basis_free(&b);
    /* Only rigid-body content: an error. */
    red_basis r1 = {n, 1, malloc((size_t)n * sizeof(double))};
    memcpy(r1.phi, u[0], (size_t)n * sizeof(double));
    rc = red_orthogonalize(&m, &r1, 1e-8, err, sizeof err);
    CHECK(rc == JNT_ERR_MODEL, "orthogonalize: a rigid-body-only basis is an error (%s)", err);
    red_basis_free(&r1);
    for (int j = 0; j < 4; j++)
        free(u[j]);
    fe_free(&m);
}

/* MAC, basis append, and the reduced damping matrix. */
static void test_mac_append_project(void)
{
    fe_model m;
    int n = 20;
    char err[256];
    chain(&m, n, 10.0, 1.0, FIXED_FIXED);
    red_basis b, b2;
    red_modal(&m, 3, 0, &b, NULL, err, sizeof err);
    double *neg = malloc((size_t)n * sizeof *neg);
    for (int i = 0; i < n; i++)
        neg[i] = -3 * b.phi[i];
    CHECK_NEAR(red_mac(b.phi, b.phi, n), 1.0, 1e-15, "MAC of a mode with itself");
    CHECK_NEAR(red_mac(b.phi, neg, n), 1.0, 1e-15, "MAC is scale and sign invariant");
    CHECK_NEAR(red_mac(b.phi, b.phi + n, n), 0.0, 1e-20,
               "MAC of two modes (orthogonal, uniform mass) ~ 0");
    free(neg);
    red_modal(&m, 2, 0, &b2, NULL, err, sizeof err);
    int rc = red_basis_append(&b, &b2, err, sizeof err);
    CHECK(rc == 0 && b.r == 5 && memcmp(b.phi + 3 * n, b2.phi, (size_t)n * 2 * sizeof(double)) == 0,
          "append: 3 + 2 vectors, copied");
    red_basis other = {n + 1, 1, calloc((size_t)n + 1, sizeof(double))};
    rc = red_basis_append(&b, &other, err, sizeof err);
    CHECK(rc == JNT_ERR_USAGE, "append: size mismatch rejected (%s)", err);
    red_basis_free(&other);
    /* C = 0 when absent; C = 2 K gives Cr = 2 Kr. */
    double kr[25], cr[25], e = 0;
    red_project(&m, &b, NULL, kr, cr, err, sizeof err);
    for (int i = 0; i < 25; i++)
        e = fmax(e, fabs(cr[i]));
    CHECK(e == 0, "project: Cr = 0 without C");
    m.C.n = n, m.C.nnz = m.K.nnz;
    m.C.colptr = malloc(((size_t)n + 1) * sizeof(int));
    m.C.rowind = malloc((size_t)m.K.nnz * sizeof(int));
    m.C.val = malloc((size_t)m.K.nnz * sizeof(double));
    memcpy(m.C.colptr, m.K.colptr, ((size_t)n + 1) * sizeof(int));
    memcpy(m.C.rowind, m.K.rowind, (size_t)m.K.nnz * sizeof(int));
    for (int p = 0; p < m.K.nnz; p++)
        m.C.val[p] = 2 * m.K.val[p];
    red_project(&m, &b, NULL, kr, cr, err, sizeof err);
    e = 0;
    for (int i = 0; i < 25; i++)
        e = fmax(e, fabs(cr[i] - 2 * kr[i]));
    CHECK(e < 1e-12, "project: Cr = 2 Kr for C = 2 K (%.2g)", e);
    red_basis_free(&b);
    red_basis_free(&b2);
    fe_free(&m);
}

/* K-inner product a^T K b. */
static double k_dot(const fe_model *m, const double *a, const double *b)
{
    int n = m->ndof;
    double *kb = malloc((size_t)n * sizeof *kb), s = 0;
    fe_sparse_mul(&m->K, b, kb);
    for (int i = 0; i < n; i++)
        s += a[i] * kb[i];
    free(kb);
    return s;
}

/* Eq. 7 of seed 000: K d_ij = dK/dq_j phi_i with dK/dq_j = sum_c dk_c/dg
 * (b_c^T phi_j) b_c b_c^T, for every TVD of red_tvd; max relative residual. */
static double eq7_residual(const fe_model *m, const red_basis *base, const red_joint *jt,
                           const red_basis *d)
{
    int n = m->ndof, r = base->r;
    double *kd = malloc((size_t)n * sizeof *kd), *f = malloc((size_t)n * sizeof *f), e = 0;
    for (int j = 0; j < r; j++)
        for (int i = 0; i <= j; i++) {
            const double *pi = base->phi + (size_t)n * i, *pj = base->phi + (size_t)n * j;
            memset(f, 0, (size_t)n * sizeof *f);
            for (int c = 0; c < jt->npair; c++) {
                int a = jt->dof_a[c], b = jt->dof_b[c];
                double s = jt->dkdg[c] * (pj[a] - pj[b]) * (pi[a] - pi[b]);
                f[a] += s;
                f[b] -= s;
            }
            fe_sparse_mul(&m->K, d->phi + (size_t)n * (i + j * (j + 1) / 2), kd);
            double num = 0, den = 0;
            for (int k = 0; k < n; k++)
                num = fmax(num, fabs(kd[k] - f[k])), den = fmax(den, fabs(f[k]));
            e = fmax(e, den > 0 ? num / den : num);
        }
    free(kd);
    free(f);
    return e;
}

/* Eq. 9 of seed 000 by brute force: the full set of weighted TVDs
 * w_ij d_ij over all (i, j) (both orders), w_ij = omega_1^2/(omega_i omega_j)
 * of the M-normalised base, the eigenproblem of Phi_TVD^T K Phi_TVD, the t
 * largest, scaled 1/sqrt(lambda); compared with red_jtv by |v^T K o| = 1.
 * Returns the worst deviation, or 1 when red_jtv fails. */
static double eq9_deviation(const fe_model *m, const red_basis *base0, const red_joint *jt, int t)
{
    int n = m->ndof, r = base0->r, nf = r * r;
    char err[256];
    red_basis base = {n, r, malloc((size_t)n * r * sizeof(double))}, d, out;
    double *om = malloc((size_t)r * sizeof *om), *mv = malloc((size_t)n * sizeof *mv);
    double ommin = 1e300;
    for (int i = 0; i < r; i++) {
        const double *p = base0->phi + (size_t)n * i;
        double mm = 0;
        fe_sparse_mul(&m->M, p, mv);
        for (int k = 0; k < n; k++)
            mm += p[k] * mv[k];
        for (int k = 0; k < n; k++)
            base.phi[k + (size_t)n * i] = p[k] / sqrt(mm);
        om[i] = sqrt(k_dot(m, base.phi + (size_t)n * i, base.phi + (size_t)n * i));
        ommin = fmin(ommin, om[i]);
    }
    double dev = 1;
    if (red_tvd(m, &base, jt, &d, err, sizeof err) != 0 ||
        red_jtv(m, base0, jt, t, &out, err, sizeof err) != 0 || out.r != t) {
        printf("# eq9: %s\n", err);
        goto done0;
    }
    double *phi = malloc((size_t)n * nf * sizeof *phi), *s = malloc((size_t)nf * nf * sizeof *s);
    double *kphi = malloc((size_t)n * nf * sizeof *kphi), *w = malloc((size_t)nf * sizeof *w);
    for (int i = 0; i < r; i++)
        for (int j = 0; j < r; j++) {
            int lo = i < j ? i : j, hi = i < j ? j : i;
            double wij = ommin * ommin / (om[i] * om[j]);
            for (int k = 0; k < n; k++)
                phi[k + (size_t)n * (i + r * j)] =
                    wij * d.phi[k + (size_t)n * (lo + hi * (hi + 1) / 2)];
        }
    for (int c = 0; c < nf; c++)
        fe_sparse_mul(&m->K, phi + (size_t)n * c, kphi + (size_t)n * c);
    for (int a = 0; a < nf; a++)
        for (int b = 0; b < nf; b++) {
            double v = 0;
            for (int k = 0; k < n; k++)
                v += phi[k + (size_t)n * a] * kphi[k + (size_t)n * b];
            s[a + (size_t)nf * b] = v;
        }
    LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', nf, s, nf, w);
    dev = 0;
    double *v = malloc((size_t)n * sizeof *v);
    for (int q = 0; q < t; q++) {
        int e = nf - 1 - q;
        for (int k = 0; k < n; k++) {
            v[k] = 0;
            for (int c = 0; c < nf; c++)
                v[k] += phi[k + (size_t)n * c] * s[c + (size_t)nf * e];
            v[k] /= sqrt(w[e]);
        }
        dev = fmax(dev, fabs(fabs(k_dot(m, v, out.phi + (size_t)n * q)) - 1));
        dev = fmax(dev, fabs(k_dot(m, out.phi + (size_t)n * q, out.phi + (size_t)n * q) - 1));
    }
    free(v);
    free(phi);
    free(s);
    free(kphi);
    free(w);
done0:
    red_basis_free(&base);
    red_basis_free(&d);
    red_basis_free(&out);
    free(om);
    free(mv);
    return dev;
}

/* Joint trial vectors on a fixed-fixed chain with contact pairs between
 * neighbouring masses. */
static void test_jtv(void)
{
    fe_model m;
    int n = 30;
    char err[256];
    chain(&m, n, 1e3, 0.05, FIXED_FIXED);
    /* One pair: eq. 7 for every TVD of modal(4) + static(at 5). */
    int a1[1] = {14}, b1[1] = {15}, sdof[1] = {5};
    double k1[1] = {-4e4};
    red_joint j1 = {1, a1, b1, k1};
    red_basis base, st, d, out;
    red_modal(&m, 4, 0, &base, NULL, err, sizeof err);
    red_static(&m, sdof, 1, &st, err, sizeof err);
    red_basis_append(&base, &st, err, sizeof err);
    int rc = red_tvd(&m, &base, &j1, &d, err, sizeof err);
    CHECK(rc == 0 && d.r == 15, "jtv: 15 TVDs d_ij (i <= j) of 5 base vectors (%s)",
          rc ? err : "ok");
    if (rc == 0) {
        double e = eq7_residual(&m, &base, &j1, &d);
        CHECK(e < 1e-10, "jtv: K d_ij = dK/dq_j phi_i (seed 000 eq. 7), max rel. residual %.2g",
              e);
    }
    red_basis_free(&d);
    /* One pair spans one direction: K^-1 b, K-normalised. */
    rc = red_jtv(&m, &base, &j1, 3, &out, err, sizeof err);
    CHECK(rc == 0 && out.r == 1, "jtv(count = 3) with one contact pair gives 1 vector (%s)",
          rc ? err : "ok");
    if (rc == 0) {
        double *f = calloc((size_t)n, sizeof *f), *x = malloc((size_t)n * sizeof *x);
        f[14] = 1, f[15] = -1;
        dense_solve(&m, f, x);
        CHECK_NEAR(red_mac(out.phi, x, n), 1.0, 1e-12, "jtv: one pair -> the direction K^-1 b");
        CHECK_NEAR(k_dot(&m, out.phi, out.phi), 1.0, 1e-12, "jtv: phi_T^T K phi_T = 1 (eq. 9)");
        free(f);
        free(x);
    }
    /* Pipeline: modal + static(at the pair) + jtv, orthogonalised: the JTV lies in the
     * span of the static shapes at its DOFs and is dropped as dependent. */
    int sp[2] = {14, 15};
    red_basis full, s2;
    red_modal(&m, 4, 0, &full, NULL, err, sizeof err);
    red_static(&m, sp, 2, &s2, err, sizeof err);
    red_basis_append(&full, &s2, err, sizeof err);
    red_basis_append(&full, &out, err, sizeof err);
    rc = red_orthogonalize(&m, &full, 1e-10, err, sizeof err);
    CHECK(rc == 0 && full.r == 6, "modal(4) + static(2) + jtv(1) orthogonalised: %d vectors "
          "(the dependent JTV dropped) (%s)", full.r, rc ? err : "ok");
    red_basis_free(&full);
    red_basis_free(&s2);
    red_basis_free(&out);
    red_basis_free(&st);
    red_basis_free(&base);

    /* Three pairs, modal(4): 10 TVDs >= 3 pairs (the pair-space POD). */
    int a3[4] = {5, 14, 22, 9}, b3[4] = {6, 15, 23, 10};
    double k3[4] = {-2e4, -5e4, -1e4, -3e4};
    red_joint j3 = {3, a3, b3, k3};
    red_modal(&m, 4, 0, &base, NULL, err, sizeof err);
    double dev = eq9_deviation(&m, &base, &j3, 2);
    CHECK(dev < 1e-8, "jtv (3 pairs, modal 4): the weighted POD of eq. 9 by brute force, "
          "K-orthonormal (dev %.2g)", dev);
    red_basis_free(&base);
    /* Four pairs, modal(2): 3 TVDs < 4 pairs (the TVD-space POD). */
    j3.npair = 4;
    red_modal(&m, 2, 0, &base, NULL, err, sizeof err);
    dev = eq9_deviation(&m, &base, &j3, 2);
    CHECK(dev < 1e-8, "jtv (4 pairs, modal 2): the weighted POD of eq. 9 by brute force, "
          "K-orthonormal (dev %.2g)", dev);
    /* A mixed base (modal + static: different scalings): still eq. 9 with M-normalised vectors. */
    red_static(&m, sdof, 1, &st, err, sizeof err);
    red_basis_append(&base, &st, err, sizeof err);
    dev = eq9_deviation(&m, &base, &j3, 3);
    CHECK(dev < 1e-8, "jtv (4 pairs, modal 2 + static 1): eq. 9 by brute force (dev %.2g)", dev);
    rc = red_jtv(&m, &base, &j3, 3, &out, err, sizeof err);
    if (rc == 0) {
        double o = 0;
        for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++)
                o = fmax(o, fabs(k_dot(&m, out.phi + (size_t)n * p, out.phi + (size_t)n * q) -
                                 (p == q)));
        CHECK(o < 1e-10, "jtv: the POD vectors are K-orthonormal (max error %.2g)", o);
    }
    red_basis_free(&out);
    red_basis_free(&st);
    /* Errors: dk/dg = 0 everywhere; a free-free K. */
    double k0[4] = {0, 0, 0, 0};
    red_joint j0 = {4, a3, b3, k0};
    rc = red_jtv(&m, &base, &j0, 2, &out, err, sizeof err);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "zero"), "jtv: zero dk/dg is an error (%s)", err);
    red_basis_free(&base);
    fe_free(&m);
    /* A free-free chain (K singular): the pair loads are self-equilibrated, eq. 7
     * still holds; modal + static + jtv orthogonalised has no rigid-body content. */
    chain(&m, n, 1e3, 0.05, FREE_FREE);
    j3.npair = 3;
    red_modal(&m, 4, 0, &base, NULL, err, sizeof err);
    rc = red_tvd(&m, &base, &j3, &d, err, sizeof err);
    CHECK(rc == 0, "jtv: TVDs of a free-free chain (%s)", rc ? err : "ok");
    if (rc == 0) {
        double e = eq7_residual(&m, &base, &j3, &d);
        CHECK(e < 1e-10, "jtv (free-free): K d_ij = dK/dq_j phi_i (eq. 7), max rel. residual %.2g",
              e);
    }
    red_basis_free(&d);
    int g[2] = {5, 20};
    rc = red_jtv(&m, &base, &j3, 2, &out, err, sizeof err);
    CHECK(rc == 0 && out.r == 2, "jtv (free-free, base with a rigid mode): 2 vectors (%s)",
          rc ? err : "ok");
    red_static(&m, g, 2, &st, err, sizeof err);
    red_basis_append(&base, &st, err, sizeof err);
    red_basis_append(&base, &out, err, sizeof err);
    rc = red_orthogonalize(&m, &base, 1e-10, err, sizeof err);
    CHECK(rc == 0 && base.r == 6, "free-free modal(4) + static(2) + jtv(2) orthogonalised: %d "
          "vectors (rigid mode and its duplicate dropped) (%s)", base.r, rc ? err : "ok");
    double rig = 0;
    for (int j = 0; rc == 0 && j < base.r; j++) {
        double s = 0, nn = 0;
        for (int i = 0; i < n; i++) {
            double x = base.phi[i + (size_t)n * j];
            s += x, nn += x * x;
        }
        rig = fmax(rig, fabs(s) / sqrt(nn * n));
    }
    CHECK(rc == 0 && rig < 1e-9, "free-free: no rigid-body content left (%.2g)", rig);
    red_basis_free(&out);
    red_basis_free(&st);
    red_basis_free(&base);
    fe_free(&m);
}

/* The JTVs when pairs and TVDs outnumber RED_SOLVE_BLOCK, so that the
 * pair loads are solved in several blocks (red_jtv.c: neither K^-1 B nor
 * the TVDs are held whole): a 20 x 20 grid with 70 pairs, 9 modes (45
 * smooth TVDs < 70 pairs: the primal POD, TVDs in two blocks) and 12 modes
 * (78 >= 70: the dual one, pairs in three blocks), against eq. 7 and the
 * brute-force eq. 9; then a free-free chain with 40 pairs (the refinement
 * of the singular solves in blocks). */
static void test_jtv_blocks(void)
{
    fe_model m;
    char err[256];
    int a[70], b[70];
    double k[70];
    grid(&m, 20, 20);
    for (int c = 0; c < 70; c++) { /* horizontal neighbours spread over the grid */
        int x = (3 * c) % 19, y = (7 * c) % 20;
        a[c] = x + 20 * y, b[c] = x + 1 + 20 * y, k[c] = -1e3 * (1 + 0.01 * c);
    }
    red_joint jt = {70, a, b, k};
    for (int pass = 0; pass < 2; pass++) {
        int r = pass ? 12 : 9, ntvd = r * (r + 1) / 2;
        const char *what = ntvd < jt.npair ? "primal" : "dual";
        red_basis base, d;
        red_modal(&m, r, 0, &base, NULL, err, sizeof err);
        int rc = red_tvd(&m, &base, &jt, &d, err, sizeof err);
        CHECK(rc == 0 && d.r == ntvd, "jtv blocks: %d TVDs of %d modes, 70 pairs (%s)", ntvd, r,
              rc ? err : "ok");
        if (rc == 0) {
            double e = eq7_residual(&m, &base, &jt, &d);
            CHECK(e < 1e-10, "jtv blocks (%d modes): eq. 7, max rel. residual %.2g", r, e);
        }
        red_basis_free(&d);
        double dev = eq9_deviation(&m, &base, &jt, 6);
        CHECK(dev < 1e-8, "jtv blocks (%d modes, 70 pairs, %s POD): eq. 9 by brute force, "
              "K-orthonormal (dev %.2g)", r, what, dev);
        red_basis_free(&base);
    }
    fe_free(&m);
    /* free-free: 40 pairs, 9 modes (one rigid): 45 TVDs >= 40 pairs */
    int n = 81;
    chain(&m, n, 1e3, 0.05, FREE_FREE);
    for (int c = 0; c < 40; c++)
        a[c] = 2 * c, b[c] = 2 * c + 1, k[c] = -2e4 * (1 + 0.02 * c);
    jt.npair = 40;
    red_basis base, d, out;
    red_modal(&m, 9, 0, &base, NULL, err, sizeof err);
    int rc = red_tvd(&m, &base, &jt, &d, err, sizeof err);
    if (rc == 0) {
        double e = eq7_residual(&m, &base, &jt, &d);
        CHECK(e < 1e-10, "jtv blocks (free-free, 40 pairs): eq. 7, max rel. residual %.2g", e);
    } else {
        CHECK(0, "jtv blocks (free-free): TVDs (%s)", err);
    }
    rc = red_jtv(&m, &base, &jt, 5, &out, err, sizeof err);
    double o = 0;
    for (int p = 0; rc == 0 && p < out.r; p++)
        for (int q = 0; q < out.r; q++)
            o = fmax(o, fabs(k_dot(&m, out.phi + (size_t)n * p, out.phi + (size_t)n * q) -
                             (p == q)));
    CHECK(rc == 0 && out.r == 5 && o < 1e-10, "jtv blocks (free-free, 40 pairs): 5 "
          "K-orthonormal vectors (%.2g) (%s)", o, rc ? err : "ok");
    red_basis_free(&d);
    red_basis_free(&out);
    red_basis_free(&base);
    fe_free(&m);
}

int main(void)
{
    test_modal_chain();
    test_sparse_vs_dense();
    test_modal_free();
    test_static();
    test_craig_bampton();
    test_orthogonalize();
    test_mac_append_project();
    test_jtv();
    test_jtv_blocks();
    return check_done();
}
