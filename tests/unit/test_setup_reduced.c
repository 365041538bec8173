/*
 * test_setup_reduced.c: the reduced-model functions of the setup library
 * (runtime/setup/red_reduced.c) against hand-solved two-DOF systems and
 * spring-mass chains: modal damping checked by its defining property
 * Y^T Cr Y = diag(2 zeta w_i) (Y mass-normalised), the inverse mass and its
 * products, point rows, frame loads and point accelerations by hand algebra
 * (values in the comments), and the mode comparison against the closed-form
 * eigenvalues of a fixed-free chain.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"
#include "jnt/setup.h"

#define PI 3.14159265358979323846

/* The two-DOF system of most checks:
 *   M = [2 1; 1 2],  K = [2 -1; -1 2]
 * det(K - lambda M) = (2 - 2 lambda)^2 - (1 + lambda)^2 = 0 gives
 * lambda = 1/3 with y = (1, 1)/sqrt(6) and lambda = 3 with y = (1, -1)/sqrt(2)
 * (y^T M y = 1). Column-major, symmetric. */
static const double M2[4] = {2, 1, 1, 2}, K2[4] = {2, -1, -1, 2};
static const double Y2[4] = {0.40824829046386301637, 0.40824829046386301637,   /* 1/sqrt(6) */
                             0.70710678118654752440, -0.70710678118654752440}; /* 1/sqrt(2) */

/* Y^T C Y for the 2 x 2 C and Y (column-major). */
static void modal_2x2(const double *y, const double *c, double *out)
{
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            double s = 0;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++)
                    s += y[a * 2 + i] * c[j * 2 + i] * y[b * 2 + j];
            out[b * 2 + a] = s;
        }
}

static void test_modal_damping(void)
{
    char err[256] = "";
    double zeta = 0.05, d1 = 2 * zeta * sqrt(1.0 / 3), d2 = 2 * zeta * sqrt(3.0), m[4];

    /* from zero: Y^T Cr Y = diag(2 zeta w_i), i.e. Cr = Y^-T diag(2 zeta w) Y^-1 */
    double cr[4] = {0};
    int rc = red_modal_damping(2, M2, K2, zeta, cr, err, sizeof err);
    CHECK(rc == JNT_OK, "red_modal_damping: 2 DOFs (rc %d %s)", rc, err);
    modal_2x2(Y2, cr, m);
    CHECK_NEAR(m[0], d1, 1e-14, "modal damping: y1^T Cr y1 = 2 zeta w1 = 2 zeta / sqrt(3)");
    CHECK_NEAR(m[3], d2, 1e-14, "modal damping: y2^T Cr y2 = 2 zeta w2 = 2 zeta sqrt(3)");
    CHECK_NEAR(m[1], 0, 1e-14, "modal damping: y1^T Cr y2 = 0");
    CHECK_NEAR(m[2], 0, 1e-14, "modal damping: y2^T Cr y1 = 0");
    /* by hand: Cr = (M y1)(M y1)^T d1 + (M y2)(M y2)^T d2, M y1 = (3, 3)/sqrt(6),
     * M y2 = (1, -1)/sqrt(2): Cr = [1.5 d1 + 0.5 d2, 1.5 d1 - 0.5 d2; sym]
     * = [2 zeta sqrt(3), 0; 0, 2 zeta sqrt(3)] here */
    CHECK_NEAR(cr[0], 1.5 * d1 + 0.5 * d2, 1e-14, "modal damping: Cr(1,1) by hand");
    CHECK_NEAR(cr[2], 1.5 * d1 - 0.5 * d2, 1e-14, "modal damping: Cr(1,2) by hand");
    CHECK(fabs(cr[1] - cr[2]) < 1e-15 && fabs(cr[0] - cr[3]) < 1e-15,
          "modal damping: Cr symmetric, Cr(1,1) = Cr(2,2) (to round-off)");

    /* on top of a Rayleigh damping 0.1 M: Y^T Cr Y = 0.1 I + diag(2 zeta w) */
    double cr2[4];
    for (int i = 0; i < 4; i++)
        cr2[i] = 0.1 * M2[i];
    rc = red_modal_damping(2, M2, K2, zeta, cr2, err, sizeof err);
    modal_2x2(Y2, cr2, m);
    CHECK(rc == JNT_OK && fabs(m[0] - (0.1 + d1)) < 1e-14 && fabs(m[3] - (0.1 + d2)) < 1e-14 &&
          fabs(m[1]) < 1e-14, "modal damping adds to Cr: diag %.15g %.15g, off %.3g", m[0], m[3],
          m[1]);

    /* a free pair, M = I, K = [1 -1; -1 1]: the rigid mode (lambda = 0, to
     * round-off) gets no damping, the other (w = sqrt(2), y = (1, -1)/sqrt(2))
     * 2 zeta sqrt(2): Cr = zeta sqrt(2) [1 -1; -1 1]. The rigid mode's
     * round-off eigenvalue (about 1e-16) enters as its square root: 1e-7. */
    const double mi[4] = {1, 0, 0, 1}, kf[4] = {1, -1, -1, 1};
    double cf[4] = {0}, want = zeta * sqrt(2.0);
    rc = red_modal_damping(2, mi, kf, zeta, cf, err, sizeof err);
    CHECK(rc == JNT_OK && fabs(cf[0] - want) < 1e-7 && fabs(cf[2] + want) < 1e-7 &&
          fabs(cf[3] - want) < 1e-7, "modal damping of a free pair: Cr = zeta sqrt(2) [1 -1; "
          "-1 1] (got %.10g %.10g)", cf[0], cf[2]);

    /* an indefinite mass: an error with a message, Cr unchanged */
    const double bad[4] = {1, 2, 2, 1};
    double cb[4] = {7, 7, 7, 7};
    err[0] = 0;
    rc = red_modal_damping(2, bad, K2, zeta, cb, err, sizeof err);
    CHECK(rc < 0 && err[0] && cb[0] == 7 && cb[3] == 7,
          "modal damping with an indefinite Mr: rc %d, '%s', Cr unchanged", rc, err);
    CHECK(red_modal_damping(0, M2, K2, zeta, cb, err, sizeof err) == JNT_ERR_USAGE,
          "modal damping of 0 coordinates: JNT_ERR_USAGE");
}

static void test_mass_inverse(void)
{
    char err[256] = "";
    /* M^-1 = [2 -1; -1 2] / 3; M^-1 K = [5 -4; -4 5] / 3;
     * C = diag(1, 3): M^-1 C = [2 -3; -1 6] / 3 (not symmetric) */
    const double c[4] = {1, 0, 0, 3};
    double minv[4], mk[4], mc[4];
    int rc = red_mass_inverse(2, M2, K2, c, minv, mk, mc, err, sizeof err);
    CHECK(rc == JNT_OK, "red_mass_inverse: 2 DOFs (rc %d %s)", rc, err);
    const double w_minv[4] = {2.0 / 3, -1.0 / 3, -1.0 / 3, 2.0 / 3};
    const double w_mk[4] = {5.0 / 3, -4.0 / 3, -4.0 / 3, 5.0 / 3};
    const double w_mc[4] = {2.0 / 3, -1.0 / 3, -1.0, 2.0}; /* column-major */
    double e1 = 0, e2 = 0, e3 = 0;
    for (int i = 0; i < 4; i++) {
        e1 = fmax(e1, fabs(minv[i] - w_minv[i]));
        e2 = fmax(e2, fabs(mk[i] - w_mk[i]));
        e3 = fmax(e3, fabs(mc[i] - w_mc[i]));
    }
    CHECK(e1 < 1e-15, "Minv = [2 -1; -1 2] / 3 (max error %.3g)", e1);
    CHECK(minv[1] == minv[2], "Minv: both triangles");
    CHECK(e2 < 1e-15, "Minv K = [5 -4; -4 5] / 3 (max error %.3g)", e2);
    CHECK(e3 < 1e-15, "Minv C = [2 -3; -1 6] / 3 (max error %.3g)", e3);

    const double sing[4] = {1, 1, 1, 1};
    err[0] = 0;
    rc = red_mass_inverse(2, sing, K2, c, minv, mk, mc, err, sizeof err);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "singular"),
          "a singular Mr: JNT_ERR_MODEL, '%s'", err);
}

/* Phi(i, k) of a deterministic n x r test basis. */
static double basis_entry(int i, int k)
{
    return sin(1.0 + i + 7.0 * k);
}

static void test_point_row(void)
{
    char err[256] = "";
    fe_model fe;
    double h = 0.1;
    int rc = fe_beam2d(&fe, 1.0, h, 0.05, 70e9, 0.3, 2700, 4, err, sizeof err);
    CHECK(rc == JNT_OK, "beam2d for the point rows (%s)", err);
    if (rc != JNT_OK)
        return;
    int n = fe.ndof, r = 3;
    red_basis b = {n, r, malloc((size_t)n * r * sizeof(double))};
    for (int k = 0; k < r; k++)
        for (int i = 0; i < n; i++)
            b.phi[(size_t)k * n + i] = basis_entry(i, k);
    double row[3];

    /* a node on the axis: its own DOF, coefficient 1 */
    const fe_set *tip = &fe.set[fe_find_set(&fe, "tip")];
    int node = tip->node[0], d = fe.node[node].dof[FE_UY];
    rc = red_point_row(&fe, &b, node, FE_UY, row, err, sizeof err);
    CHECK(rc == 1 && row[0] == basis_entry(d, 0) && row[2] == basis_entry(d, 2),
          "point row of the tip's uy: its row of Phi (rc %d)", rc);

    /* a surface point (y = +h/2) moves with its axis node:
     * ux = ux_m - rz_m h/2 */
    const fe_set *top = &fe.set[fe_find_set(&fe, "top")];
    int p = top->node[top->n - 1], q = fe.node[p].master;
    rc = red_point_row(&fe, &b, p, FE_UX, row, err, sizeof err);
    double e = 0;
    for (int k = 0; k < r; k++)
        e = fmax(e, fabs(row[k] - (basis_entry(fe.node[q].dof[FE_UX], k) -
                                   h / 2 * basis_entry(fe.node[q].dof[FE_RZ], k))));
    CHECK(q >= 0 && rc == 2 && e < 1e-15,
          "point row of a top surface point's ux = ux_m - rz_m h/2 (rc %d, error %.3g)", rc, e);

    /* no DOF: uz of a plane beam, and a clamped node */
    row[0] = 1;
    rc = red_point_row(&fe, &b, node, FE_UZ, row, err, sizeof err);
    CHECK(rc == 0 && row[0] == 0 && row[1] == 0, "point row of uz in 2D: 0, row zero");
    rc = red_point_row(&fe, &b, fe.nnode, FE_UX, row, err, sizeof err);
    CHECK(rc == JNT_ERR_USAGE && err[0], "point row of a node out of range: JNT_ERR_USAGE");
    free(b.phi);
    fe_free(&fe);
}

static void test_frame_load(void)
{
    char err[256] = "";
    fe_model fe;
    int n = 4;
    double mass = 2;
    int rc = fe_chain(&fe, n, 1000, mass, err, sizeof err);
    CHECK(rc == JNT_OK, "chain for the frame loads (%s)", err);
    if (rc != JNT_OK)
        return;
    /* Phi = identity: Phi^T M t = the masses */
    red_basis id = {n, n, calloc((size_t)n * n, sizeof(double))};
    for (int i = 0; i < n; i++)
        id.phi[(size_t)i * n + i] = 1;
    double g[4];
    rc = red_frame_load(&fe, &id, FE_UX, g, err, sizeof err);
    CHECK(rc == JNT_OK && g[0] == mass && g[3] == mass, "frame load, identity basis: the masses");
    /* the rigid mode (1, 1, 1, 1)/sqrt(n m) takes sqrt(n m); (1, -1, 1, -1) nothing */
    red_basis b = {n, 2, malloc(2 * (size_t)n * sizeof(double))};
    for (int i = 0; i < n; i++) {
        b.phi[i] = 1 / sqrt(n * mass);
        b.phi[n + i] = i % 2 ? -1 : 1;
    }
    rc = red_frame_load(&fe, &b, FE_UX, g, err, sizeof err);
    CHECK(rc == JNT_OK && fabs(g[0] - sqrt(n * mass)) < 1e-14 && g[1] == 0,
          "frame load: rigid mode sqrt(n m) = %g (got %.15g), alternating 0 (got %g)",
          sqrt(n * mass), g[0], g[1]);
    /* the chain has no uy */
    rc = red_frame_load(&fe, &b, FE_UY, g, err, sizeof err);
    CHECK(rc == JNT_OK && g[0] == 0 && g[1] == 0, "frame load along y of a chain along x: 0");
    CHECK(red_frame_load(&fe, &b, FE_RZ, g, err, sizeof err) == JNT_ERR_USAGE,
          "frame load of a rotation: JNT_ERR_USAGE");
    free(id.phi);
    free(b.phi);
    fe_free(&fe);
}

static void test_point_accel(void)
{
    char err[256] = "";
    const double c[4] = {1, 0, 0, 3};
    double minv[4], mk[4], mc[4];
    red_mass_inverse(2, M2, K2, c, minv, mk, mc, err, sizeof err);
    /* the point u = q1, c = (1, 0): w = Minv c = (2, -1)/3, alpha = 2/3;
     * points (1, 0), (0, 1), (1, 1): wp = 2/3, -1/3, 1/3;
     * ck = K w = (5, -4)/3, cc = C w = (2/3, -1) */
    const double pc[2] = {1, 0}, p1[2] = {0, 1}, p2[2] = {1, 1};
    const double *rows[3] = {pc, p1, p2};
    double wp[3], ck[2], cc[2], alpha;
    int rc = red_point_accel(2, minv, mk, mc, pc, 3, rows, wp, ck, cc, &alpha, err, sizeof err);
    CHECK(rc == JNT_OK, "red_point_accel (rc %d %s)", rc, err);
    CHECK_NEAR(alpha, 2.0 / 3, 1e-15, "point accel: alpha = c^T Minv c = 2/3 1/kg");
    CHECK(fabs(wp[0] - 2.0 / 3) < 1e-15 && fabs(wp[1] + 1.0 / 3) < 1e-15 &&
          fabs(wp[2] - 1.0 / 3) < 1e-15, "point accel: wp = 2/3, -1/3, 1/3 (got %g %g %g)",
          wp[0], wp[1], wp[2]);
    CHECK(fabs(ck[0] - 5.0 / 3) < 1e-15 && fabs(ck[1] + 4.0 / 3) < 1e-15,
          "point accel: ck = K Minv c = (5, -4)/3 (got %g %g)", ck[0], ck[1]);
    CHECK(fabs(cc[0] - 2.0 / 3) < 1e-15 && fabs(cc[1] + 1.0) < 1e-15,
          "point accel: cc = C Minv c = (2/3, -1) (got %g %g)", cc[0], cc[1]);
    /* the same as c^T q'' with q'' = Minv (sum_p c_p F_p - K q - C q') */
    const double F[3] = {0.3, -1.2, 2.0}, qv[2] = {0.01, -0.02}, qd[2] = {0.5, 0.25};
    double g[2], qdd[2] = {0, 0}, u1 = 0, u2;
    for (int i = 0; i < 2; i++) {
        g[i] = F[0] * pc[i] + F[1] * p1[i] + F[2] * p2[i];
        for (int j = 0; j < 2; j++)
            g[i] -= K2[j * 2 + i] * qv[j] + c[j * 2 + i] * qd[j];
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            qdd[i] += minv[j * 2 + i] * g[j];
    u1 = qdd[0];
    u2 = wp[0] * F[0] + wp[1] * F[1] + wp[2] * F[2] - ck[0] * qv[0] - ck[1] * qv[1] -
         cc[0] * qd[0] - cc[1] * qd[1];
    CHECK_NEAR(u2, u1, 1e-14, "point accel: the coefficients give c^T q''");
    CHECK(red_point_accel(2, minv, mk, mc, pc, 3, NULL, wp, ck, cc, &alpha, err, sizeof err) ==
          JNT_ERR_USAGE, "point accel without rows: JNT_ERR_USAGE");
}

static void test_compare_modes(void)
{
    char err[256] = "";
    fe_model fe;
    int rc = fe_chain(&fe, 6, 1000, 2, err, sizeof err);
    if (rc == JNT_OK)
        rc = fe_fix(&fe, fe_find_set(&fe, "first"), err, sizeof err);
    CHECK(rc == JNT_OK, "fixed-free chain for the mode comparison (%s)", err);
    if (rc != JNT_OK)
        return;
    /* N = 5 masses m on springs k, the first tied to the wall:
     * w_j = 2 sqrt(k/m) sin((2j - 1) pi / (2 (2N + 1))) */
    int n = fe.ndof, count = 3;
    double wexact[5];
    for (int j = 1; j <= n; j++)
        wexact[j - 1] = 2 * sqrt(1000 / 2.0) * sin((2 * j - 1) * PI / (2 * (2 * n + 1)));
    red_basis full = {0};
    double wf[3];
    rc = red_modal(&fe, count, 0, &full, wf, err, sizeof err);
    CHECK(rc == JNT_OK, "red_modal of the chain (%s)", err);

    /* no reduction (Phi = I): the same modes */
    red_basis id = {n, n, calloc((size_t)n * n, sizeof(double))};
    for (int i = 0; i < n; i++)
        id.phi[(size_t)i * n + i] = 1;
    double mr[25], kr[25], wr[3], mac[3], sh[15];
    red_project(&fe, &id, mr, kr, NULL, err, sizeof err);
    rc = red_compare_modes(&id, mr, kr, &full, wr, mac, sh, err, sizeof err);
    double ew = 0, em = 0, es = 0;
    for (int k = 0; k < count; k++) {
        ew = fmax(ew, fabs(wr[k] - wexact[k]) / wexact[k]);
        em = fmax(em, fabs(mac[k] - 1));
        for (int i = 0; i < n; i++)
            es = fmax(es, fabs(sh[k * n + i] - full.phi[k * n + i]));
    }
    CHECK(rc == JNT_OK && ew < 1e-12, "compare modes, Phi = I: w_red = the closed form "
          "(rel error %.3g)", ew);
    CHECK(em < 1e-12 && es < 1e-10, "compare modes, Phi = I: MAC 1 (%.3g), shapes = full "
          "(%.3g)", em, es);

    /* Phi = minus the first 3 full modes: exact, and the shapes signed back */
    red_basis neg = {n, count, malloc((size_t)n * count * sizeof(double))};
    for (int i = 0; i < n * count; i++)
        neg.phi[i] = -full.phi[i];
    red_project(&fe, &neg, mr, kr, NULL, err, sizeof err);
    rc = red_compare_modes(&neg, mr, kr, &full, wr, mac, sh, err, sizeof err);
    es = 0;
    for (int i = 0; i < n * count; i++)
        es = fmax(es, fabs(sh[i] - full.phi[i]));
    CHECK(rc == JNT_OK && fabs(wr[2] - wexact[2]) < 1e-10 * wexact[2] && es < 1e-10,
          "compare modes, Phi = -modes: w exact, shapes signed like the full ones (%.3g)", es);

    /* Phi = the first 2 modes and the last mass's unit displacement: the
     * first two exact, the third an upper bound (Rayleigh-Ritz) */
    red_basis rb = {n, 3, calloc((size_t)n * 3, sizeof(double))};
    memcpy(rb.phi, full.phi, 2 * (size_t)n * sizeof(double));
    rb.phi[2 * n + n - 1] = 1;
    red_project(&fe, &rb, mr, kr, NULL, err, sizeof err);
    rc = red_compare_modes(&rb, mr, kr, &full, wr, mac, sh, err, sizeof err);
    CHECK(rc == JNT_OK && fabs(wr[0] - wexact[0]) < 1e-10 * wexact[0] &&
          fabs(wr[1] - wexact[1]) < 1e-10 * wexact[1] && wr[2] > wexact[2] && mac[2] < 1 &&
          mac[2] > 0.5, "compare modes, 2 modes + a unit vector: w3 = %.6g > %.6g, MAC %.4f",
          wr[2], wexact[2], mac[2]);

    red_basis small = {n, 2, rb.phi};
    CHECK(red_compare_modes(&small, mr, kr, &full, wr, mac, sh, err, sizeof err) ==
          JNT_ERR_USAGE, "compare 3 modes on 2 vectors: JNT_ERR_USAGE");
    free(id.phi);
    free(neg.phi);
    free(rb.phi);
    red_basis_free(&full);
    fe_free(&fe);
}

int main(void)
{
    test_modal_damping();
    test_mass_inverse();
    test_point_row();
    test_frame_load();
    test_point_accel();
    test_compare_modes();
    return check_done();
}
