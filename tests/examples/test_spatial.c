/*
 * test_spatial.c: spatial rigid bodies and joints (issue 14, check 3 and
 * the joints) against closed forms computed here:
 *   examples/heavy_top.jnt       the nutation limits and period (Goldstein,
 *                                Classical Mechanics, Sect. 5.7: a cubic in
 *                                cos(theta), an elliptic integral) and the
 *                                precession per nutation; energy and the
 *                                vertical angular momentum with the midpoint
 *                                rule over 100 spin revolutions
 *   examples/tumbling_body.jnt   the flip period of a spin about the
 *                                intermediate axis (Landau and Lifshitz,
 *                                Mechanics, Sect. 37); energy and angular
 *                                momentum over 100 revolutions
 *   examples/spatial_slider_crank.jnt  the slider's position (closed form)
 *   models written here: a pendulum on a revolute joint with a tilted axis
 *   (period: elliptic integral with the gravity normal to the axis), a body
 *   on a cylindrical joint (free fall along the axis, constant spin), on a
 *   planar joint (free fall in the plane, the normal reaction m g) and on a
 *   fixed joint (the reaction moment of gravity's); a rigid rotor bouncing
 *   in a spherical clearance joint (seed 001 eq. 2, a linear contact
 *   spring): the energy through some 500 impacts with the energy-consistent
 *   form (Sect. 2.5, eq. 4) and with the plain law (issue 14, check 4).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

static jnt_model *compile_file(const char *path)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_file(path, NULL, &m);
    CHECK(rc == JNT_OK && m, "compile %s", path);
    return rc == JNT_OK ? m : NULL;
}

static jnt_model *compile_text(const char *name, const char *text)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string(name, text, NULL, &m);
    CHECK(rc == JNT_OK && m, "compile %s", name);
    return rc == JNT_OK ? m : NULL;
}

/* The largest |c[i] - c[0]| / |c[0]| over the rows. */
static double drift(const csv_table *t, const double *c)
{
    double d = 0;
    for (int i = 1; i < t->nrow; i++)
        d = fmax(d, fabs(c[i] - c[0]) / fabs(c[0]));
    return d;
}

/* The times where c crosses zero (linear interpolation), at most n; an
 * angle's jump of 2 pi is not a crossing. */
static int crossings(const csv_table *t, const double *c, double *at, int n)
{
    int k = 0;
    for (int i = 1; i < t->nrow && k < n; i++)
        if ((c[i - 1] < 0) != (c[i] < 0) && fabs(c[i] - c[i - 1]) < 3)
            at[k++] = t->col[0][i - 1] - c[i - 1] * (t->col[0][i] - t->col[0][i - 1]) /
                                             (c[i] - c[i - 1]);
    return k;
}

/* A body with products of inertia: the tumbling body's principal moments
 * (2, 3, 4) declared in a body frame turned by Q0 (0.7 rad about (1, 2, 2)/3)
 * against them, J = Q0 diag(2, 3, 4) Q0^T, its rotation Q0^T and a marker
 * at Q0 X: the same motion as the principal-axes body with its marker at X
 * (world-frame positions, angular velocity and energy over 2 s, to the
 * Newton tolerance), whatever order and signs the compiler's principal axes
 * take. */
static void products(void)
{
    double n[3] = {1 / 3.0, 2 / 3.0, 2 / 3.0}, th = 0.7, c = cos(th), s = sin(th), Q[9];
    for (int i = 0; i < 3; i++) /* Rodrigues: Q = c I + s [n]x + (1 - c) n n^T */
        for (int k = 0; k < 3; k++)
            Q[3 * i + k] = (i == k ? c : 0) + (1 - c) * n[i] * n[k];
    Q[1] -= s * n[2], Q[3] += s * n[2], Q[2] += s * n[1], Q[6] -= s * n[1];
    Q[5] -= s * n[0], Q[7] += s * n[0];
    double lam[3] = {2, 3, 4}, J[9], X[3] = {0.1, 0.2, 0.3}, XU[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            J[3 * i + k] = 0;
            for (int j = 0; j < 3; j++)
                J[3 * i + k] += Q[3 * i + j] * lam[j] * Q[3 * k + j];
            XU[i] += Q[3 * i + k] * X[k];
        }
    const char *fmt =
        "model products\n"
        "body B : rigid3d(mass = 1 kg, inertia = (%.17g kg*m^2, %.17g kg*m^2, %.17g kg*m^2),\n"
        "                 %s omega = (0.3 / 1 s, 6 / 1 s, 0.2 / 1 s)) {\n"
        "  marker p = (%.17g m, %.17g m, %.17g m)\n}\n"
        "simulate { integrator = midpoint(h = 1 ms)  until = 2 s }\n"
        "output \"%s\" every 10 ms { t, x = B.p.x, y = B.p.y, z = B.p.z, wx = B.wx, wy = B.wy,\n"
        "  wz = B.wz, E = B.kinetic }\n";
    char prod[256], text[2][1024];
    snprintf(prod, sizeof prod, "products = (%.17g kg*m^2, %.17g kg*m^2, %.17g kg*m^2), "
             "rotation = (%.17g, %.17g, %.17g),", J[1], J[5], J[2], -th * n[0], -th * n[1],
             -th * n[2]);
    snprintf(text[0], sizeof text[0], fmt, 2.0, 3.0, 4.0, "", X[0], X[1], X[2], "pa.csv");
    snprintf(text[1], sizeof text[1], fmt, J[0], J[4], J[8], prod, XU[0], XU[1], XU[2],
             "pu.csv");
    csv_table t[2] = {0};
    int ok = 1;
    for (int v = 0; v < 2; v++) {
        jnt_model *m = compile_text(v ? "products" : "principal", text[v]);
        int rc = m ? run_csv(m, test_out(v ? "pu.csv" : "pa.csv"), (jnt_run_opts){0}, NULL,
                             &t[v]) : JNT_ERR_MODEL;
        ok &= rc == JNT_OK;
        jnt_model_free(m);
    }
    CHECK(ok, "products of inertia: both bodies run");
    if (ok && t[0].nrow == t[1].nrow) {
        double d = 0;
        for (int c2 = 1; c2 < t[0].ncol; c2++)
            for (int i = 0; i < t[0].nrow; i++)
                d = fmax(d, fabs(t[0].col[c2][i] - t[1].col[c2][i]) /
                                (1 + fabs(t[0].col[c2][i])));
        MEASURE("spatial.products_of_inertia", d);
        CHECK(d <= 1e-9, "products of inertia: the body declared with its tensor in a turned "
              "frame moves as the principal-axes body (largest difference %.2g, tol 1e-9)", d);
    }
    csv_free(&t[0]);
    csv_free(&t[1]);
}

/* ---- the heavy top -------------------------------------------------------- */

static void heavy_top(void)
{
    jnt_model *m = compile_file("examples/heavy_top.jnt");
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("heavy_top.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "heavy top runs (midpoint, h = 0.2 ms)");
    if (rc == JNT_OK) {
        /* the model's parameters */
        const double mass = 1, l = 0.1, A = 0.002, Cs = 0.004, g = 9.81, th0 = 0.3, spin = 100;
        double I1 = A + mass * l * l, p = Cs * spin, mgl = mass * g * l;
        double u0 = cos(th0), a = p * p / (2 * I1 * mgl);
        double disc = sqrt(a * a - 4 * (a * u0 - 1));
        double u1 = (a - disc) / 2, u3 = (a + disc) / 2;
        double k2 = (u0 - u1) / (u3 - u1);
        double T = 4 * sqrt(I1 / (2 * mgl)) * ellip_k(sqrt(k2)) / sqrt(u3 - u1);
        /* precession over one nutation: 2 int phi' du / |u'|, with u = u1 +
         * (u0 - u1) sin^2 s, du / sqrt(f) = 2 ds / sqrt(2 mgl/I1 (u3 - u)) */
        double dphi = 0;
        const int n = 2000;
        for (int i = 0; i <= n; i++) {
            double s = PI / 2 * i / n, u = u1 + (u0 - u1) * sin(s) * sin(s);
            double fv = p / I1 * (u0 - u) / (1 - u * u) * 2 / sqrt(2 * mgl / I1 * (u3 - u));
            dphi += (i == 0 || i == n ? 1 : i % 2 ? 4 : 2) * fv;
        }
        dphi *= 2 * (PI / 2 / n) / 3;
        const double *x = csv_col(&t, "x"), *y = csv_col(&t, "y"), *z = csv_col(&t, "z");
        /* u = z / l: its least value, and the times of its maxima (u0) */
        double umin = 2, tmax[64];
        int nmax = 0;
        for (int i = 1; i + 1 < t.nrow; i++) {
            umin = fmin(umin, z[i] / l);
            if (z[i] > z[i - 1] && z[i] >= z[i + 1] && nmax < 64) {
                /* the parabola through the three rows */
                double dt = t.col[0][i + 1] - t.col[0][i];
                double c = (z[i + 1] - z[i - 1]) / (2 * (2 * z[i] - z[i - 1] - z[i + 1]));
                tmax[nmax++] = t.col[0][i] + c * dt;
            }
        }
        MEASURE("heavy_top.umin", fabs(umin - u1));
        CHECK(fabs(umin - u1) <= 1e-6, "heavy top: least cos(theta) %.9f, the cubic's root "
              "%.9f (1e-6)", umin, u1);
        double Tm = nmax >= 2 ? (tmax[nmax - 1] - tmax[0]) / (nmax - 1) : NAN;
        /* rel 1e-4: the midpoint rule's phase error is (w h)^2/12 = 3e-5 at the
         * spin w = 100 rad/s and h = 0.2 ms */
        MEASURE("heavy_top.period_rel", fabs(Tm - T) / T);
        CHECK(nmax >= 10 && fabs(Tm - T) <= 1e-4 * T, "heavy top: nutation period %.9f s over "
              "%d nutations, elliptic integral %.9f s (rel 1e-4)", Tm, nmax - 1, T);
        /* the azimuth of the centre, unwrapped, from the first maximum to the last */
        double az = 0, prev = atan2(y[0], x[0]), a0 = NAN, a1 = NAN;
        for (int i = 0, k = 0; i < t.nrow && nmax >= 2; i++) {
            double cur = atan2(y[i], x[i]), d = cur - prev;
            az += d - 2 * PI * round(d / (2 * PI));
            prev = cur;
            if (k < nmax && t.col[0][i] >= tmax[k]) {
                if (k == 0)
                    a0 = az;
                a1 = az;
                k++;
            }
        }
        double per = (a1 - a0) / (nmax - 1);
        MEASURE("heavy_top.precession_rel", fabs(per - dphi) / dphi);
        CHECK(fabs(per - dphi) <= 1e-4 * dphi, "heavy top: precession per nutation %.9f rad, "
              "quadrature %.9f rad (rel 1e-4)", per, dphi);
        double dE = drift(&t, csv_col(&t, "E")), dL = drift(&t, csv_col(&t, "Lz"));
        /* the issue asks 1e-6; the midpoint rule keeps them to Newton's tolerance */
        MEASURE("heavy_top.energy", dE);
        MEASURE("heavy_top.Lz", dL);
        CHECK(dE <= 1e-9 && dL <= 1e-9, "heavy top, midpoint rule over 100 spin revolutions: "
              "energy within %.2g, vertical angular momentum within %.2g (relative, 1e-9)", dE,
              dL);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* ---- the tennis-racket flip ------------------------------------------------- */

static void tumbling(void)
{
    jnt_model *m = compile_file("examples/tumbling_body.jnt");
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("tumbling_body.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "tumbling body runs (midpoint, h = 1 ms)");
    if (rc == JNT_OK) {
        double I[3] = {2, 3, 4}, w = 2 * PI, dw = 0.05, om[3] = {dw * w, w, dw * w};
        double E = 0, M2 = 0;
        for (int i = 0; i < 3; i++) {
            E += I[i] * om[i] * om[i] / 2;
            M2 += I[i] * I[i] * om[i] * om[i];
        }
        double I1 = I[0], I2 = I[1], I3 = I[2];
        if (M2 < 2 * E * I2) { /* the other branch: I1 and I3 trade places */
            I1 = I[2];
            I3 = I[0];
        }
        double k2 = (I2 - I1) * (2 * E * I3 - M2) / ((I3 - I2) * (M2 - 2 * E * I1));
        double T = 4 * ellip_k(sqrt(k2)) * sqrt(I1 * I2 * I3 / ((I3 - I2) * (M2 - 2 * E * I1)));
        double z[64];
        int nz = crossings(&t, csv_col(&t, "w2"), z, 64);
        double Tm = nz >= 3 ? 2 * (z[nz - 1] - z[0]) / (nz - 1) : NAN;
        MEASURE("tumbling.period_rel", fabs(Tm - T) / T);
        CHECK(nz >= 10 && fabs(Tm - T) <= 1e-4 * T, "tumbling body: flip period %.8f s over %d "
              "flips, Euler's equations' closed form %.8f s (rel 1e-4)", Tm, nz, T);
        const double *Lx = csv_col(&t, "Lx"), *Ly = csv_col(&t, "Ly"), *Lz = csv_col(&t, "Lz");
        double L0 = sqrt(M2), dL = 0;
        for (int i = 0; i < t.nrow; i++)
            dL = fmax(dL, sqrt(pow(Lx[i] - Lx[0], 2) + pow(Ly[i] - Ly[0], 2) +
                               pow(Lz[i] - Lz[0], 2)) / L0);
        double dE = drift(&t, csv_col(&t, "E"));
        MEASURE("tumbling.energy", dE);
        MEASURE("tumbling.L", dL);
        CHECK(dE <= 1e-9 && dL <= 1e-9, "tumbling body, midpoint rule over 100 revolutions: "
              "energy within %.2g, angular momentum vector within %.2g (relative, 1e-9)", dE, dL);
        CHECK(fabs(csv_col(&t, "E")[0] - E) <= 1e-12 * E && fabs(Ly[0] - I2 * w) <= 1e-12 * I2 * w,
              "tumbling body: initial energy and angular momentum are those of omega");
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* ---- joints ---------------------------------------------------------------- */

static void slider_crank(void)
{
    jnt_model *m = compile_file("examples/spatial_slider_crank.jnt");
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("spatial_slider_crank.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "spatial slider-crank runs");
    if (rc == JNT_OK) {
        const double r = 0.08, L = 0.3, yS = 0.1, zS = 0.12, w = 2 * PI;
        double x0 = sqrt(L * L - (r - yS) * (r - yS) - zS * zS), ex = 0, es = 0, ea = 0;
        const double *xs = csv_col(&t, "xs"), *s = csv_col(&t, "s"), *th = csv_col(&t, "th");
        for (int i = 0; i < t.nrow; i++) {
            double a = w * t.col[0][i];
            double want = sqrt(L * L - pow(r * cos(a) - yS, 2) - pow(r * sin(a) - zS, 2));
            ex = fmax(ex, fabs(xs[i] - want));
            es = fmax(es, fabs(s[i] - (want - x0)));
            ea = fmax(ea, fabs(remainder(th[i] - a, 2 * PI)));
        }
        MEASURE("spatial_slider_crank.x", ex);
        CHECK(ex <= 1e-9 && es <= 1e-9, "spatial slider-crank: slider against the closed form "
              "to %.2g m, the guide's slide to %.2g m (1e-9)", ex, es);
        CHECK(ea <= 1e-9, "spatial slider-crank: the drive's angle is w t (mod 2 pi) to %.2g", ea);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* A pendulum on a revolute joint whose axis (1, 0, 1)/sqrt(2) is tilted 45
 * deg from the vertical: it swings in the plane normal to the axis under
 * the gravity's part in that plane, g / sqrt(2), released 170 deg from the
 * bottom. The body is a ball (isotropic inertia J) at distance d. */
static const char *const tilted_text =
    "model tilted\n"
    "param m = 1 kg\nparam J = 0.004 kg*m^2\nparam d = 0.5 m\nparam th0 = 170 * 3.141592653589793 / 180\n"
    "param cx = d * cos(th0) / sqrt(2)\nparam cy = d * sin(th0)\nparam cz = -d * cos(th0) / sqrt(2)\n"
    "body ball : rigid3d(mass = m, inertia = (J, J, J)) { marker pin = (-cx, -cy, -cz) }\n"
    "joint hinge : revolute(ball.pin, (0 m, 0 m, 0 m), axis = (1, 0, 1))\n"
    "init ball.x = cx\ninit ball.y = cy\ninit ball.z = cz\n"
    "simulate {\n  integrator = hht(h = 0.1 ms, alpha = 0)\n  until = 6 s\n"
    "  gravity = (0 m/s^2, 0 m/s^2, -9.81 m/s^2)\n}\n"
    "output \"tilted.csv\" every 1 ms { t, x = ball.x, y = ball.y, z = ball.z, "
    "angle = hinge.angle }\n";

static void tilted_pendulum(void)
{
    jnt_model *m = compile_text("tilted", tilted_text);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("tilted.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "pendulum on a tilted revolute joint runs (HHT alpha 0)");
    if (rc == JNT_OK) {
        const double mass = 1, J = 0.004, d = 0.5, th0 = 170 * PI / 180, g = 9.81 / sqrt(2);
        double io = J + mass * d * d;
        double T = 4 * sqrt(io / (mass * g * d)) * ellip_k(sin(th0 / 2));
        /* the angle in the swing's plane from the bottom (e_d = (1, 0, -1)/sqrt(2)) */
        double *ph = malloc((size_t)t.nrow * sizeof *ph), z[4], ea = 0, off = 0;
        const double *x = csv_col(&t, "x"), *y = csv_col(&t, "y"), *zc = csv_col(&t, "z");
        const double *an = csv_col(&t, "angle");
        for (int i = 0; i < t.nrow; i++) {
            ph[i] = atan2(y[i], (x[i] - zc[i]) / sqrt(2));
            ea = fmax(ea, fabs(remainder(an[i] - (ph[i] - th0), 2 * PI)));
            off = fmax(off, fabs(x[i] + zc[i])); /* stays in the plane normal to the axis */
        }
        int nz = crossings(&t, ph, z, 4);
        if (nz >= 3)
            MEASURE("tilted_revolute.period_rel", fabs((z[2] - z[0]) - T) / T);
        CHECK(nz >= 3 && fabs((z[2] - z[0]) - T) <= 1e-6 * T, "tilted revolute: period %.9f s, "
              "elliptic integral with g / sqrt(2) %.9f s (rel 1e-6)", nz >= 3 ? z[2] - z[0] : NAN,
              T);
        CHECK(ea <= 1e-9 && off <= 1e-12, "tilted revolute: the joint's angle is the swing's "
              "(to %.2g rad); the ball stays in the plane normal to the axis (%.2g m)", ea, off);
        free(ph);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* A body on a cylindrical joint along z, spinning at 5 rad/s about it,
 * falling from rest; one on a planar joint (normal z) sliding at 1 m/s in
 * its plane; one held by a fixed joint at a marker 0.2 m from its centre;
 * gravity along -z. */
static const char *const joints_text =
    "model joints3d\n"
    "param m = 2 kg\nparam g = 9.81 m/s^2\n"
    "body cyl : rigid3d(mass = m, inertia = (0.02 kg*m^2, 0.03 kg*m^2, 0.04 kg*m^2), "
    "omega = (0 / 1 s, 0 / 1 s, 5 / 1 s)) { marker c = (0 m, 0 m, 0 m) }\n"
    "body pl : rigid3d(mass = m, inertia = (0.02 kg*m^2, 0.03 kg*m^2, 0.04 kg*m^2)) "
    "{ marker c = (0 m, 0 m, 0 m) }\n"
    "body fx : rigid3d(mass = m, inertia = (0.02 kg*m^2, 0.03 kg*m^2, 0.04 kg*m^2)) "
    "{ marker c = (-0.2 m, 0 m, 0 m) }\n"
    "body sl : rigid3d(mass = m, inertia = (0.02 kg*m^2, 0.03 kg*m^2, 0.04 kg*m^2)) "
    "{ marker c = (0 m, 0 m, 0 m) }\n"
    "joint j1 : cylindrical(cyl.c, (0 m, 0 m, 0 m), axis = (0, 0, 1))\n"
    "joint j2 : planar(pl.c, (1 m, 0 m, 0 m), axis = (0, 0, 1))\n"
    "joint j3 : fixed(fx.c, (2 m, 0 m, 0 m))\n"
    "joint j4 : prismatic(sl.c, (3 m, 0 m, 0 m), axis = (1, 0, 0))\n"
    "force pull on j4 = 4 N\n"
    "init pl.x = 1 m\ninit pl.y.v = 1 m/s\ninit fx.x = 2.2 m\ninit sl.x = 3 m\n"
    "simulate {\n  integrator = generalized_alpha(h = 1 ms, rho_inf = 0.8)\n  until = 1 s\n"
    "  gravity = (0 m/s^2, 0 m/s^2, -g)\n}\n"
    "output \"joints3d.csv\" every 10 ms { t, z1 = cyl.z, a1 = j1.angle, r1 = j1.reaction, "
    "m1 = sqrt(j1.mx^2 + j1.my^2 + j1.mz^2), y2 = pl.y, z2 = pl.z, n2 = j2.reaction, "
    "f3 = j3.fz, m3x = j3.mx, m3y = j3.my, m3z = j3.mz, s4 = j4.s }\n";

static void joints(void)
{
    jnt_model *m = compile_text("joints3d", joints_text);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("joints3d.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "cylindrical, planar and fixed joints run");
    if (rc == JNT_OK) {
        const double mass = 2, g = 9.81;
        double e1 = 0, ea = 0, er = 0, e2 = 0, en = 0, e3 = 0;
        const double *z1 = csv_col(&t, "z1"), *a1 = csv_col(&t, "a1"), *r1 = csv_col(&t, "r1");
        const double *m1 = csv_col(&t, "m1"), *z2 = csv_col(&t, "z2"), *n2 = csv_col(&t, "n2");
        const double *f3 = csv_col(&t, "f3"), *m3x = csv_col(&t, "m3x");
        const double *m3y = csv_col(&t, "m3y"), *m3z = csv_col(&t, "m3z");
        for (int i = 0; i < t.nrow; i++) {
            double tt = t.col[0][i];
            e1 = fmax(e1, fabs(z1[i] + g * tt * tt / 2));
            ea = fmax(ea, fabs(remainder(a1[i] - 5 * tt, 2 * PI)));
            er = fmax(er, fmax(r1[i], m1[i]));
            e2 = fmax(e2, fabs(z2[i]));
            en = fmax(en, fabs(n2[i] - mass * g));
            e3 = fmax(e3, fmax(fabs(f3[i] - mass * g), fmax(fabs(m3y[i] + 0.2 * mass * g),
                                                          fmax(fabs(m3x[i]), fabs(m3z[i])))));
        }
        /* the spin's phase error is generalized-alpha's O(h^2), about 5 rad (w h)^2/12 */
        MEASURE("cylindrical.fall", e1);
        MEASURE("cylindrical.spin", ea);
        CHECK(e1 <= 1e-9 && ea <= 3e-5 && er <= 1e-9, "cylindrical joint: free fall along the "
              "axis to %.2g m, spin 5 t to %.2g rad (3e-5), no reaction (%.2g)", e1, ea, er);
        const double *y2 = csv_col(&t, "y2");
        double ey = 0;
        for (int i = 0; i < t.nrow; i++)
            ey = fmax(ey, fabs(y2[i] - t.col[0][i]));
        CHECK(e2 <= 1e-12 && ey <= 1e-12 && en <= 1e-9, "planar joint: stays in its plane "
              "(%.2g m), slides at 1 m/s (%.2g m), normal reaction m g to %.2g N", e2, ey, en);
        CHECK(e3 <= 1e-9, "fixed joint: force m g and moment (0, -0.2 m g, 0) holding the body "
              "against gravity, to %.2g", e3);
        /* a force on a prismatic joint: the slide s = F t^2 / (2 m) */
        const double *s4 = csv_col(&t, "s4");
        double e4 = 0;
        for (int i = 0; i < t.nrow; i++)
            e4 = fmax(e4, fabs(s4[i] - 4.0 * t.col[0][i] * t.col[0][i] / (2 * mass)));
        CHECK(e4 <= 1e-9, "force on a spatial prismatic joint: slide F t^2 / (2 m) to %.2g m", e4);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* A rigid shaft on a spherical joint at the origin whose far end, the
 * journal, moves in a bearing of 0.5 mm radial clearance (a spherical
 * clearance joint: gap = 0.5 mm - |r_journal - r_bearing|) with a linear
 * contact spring of 15 MN/m, whirling from a lateral push. */
static const char *const rotor_text =
    "model rotor_clearance\nimport contact\n"
    "param m = 10 kg\nparam k = 15 MN/m\n"
    "body shaft : rigid3d(mass = m, inertia = (0.05 kg*m^2, 1 kg*m^2, 1 kg*m^2),\n"
    "                     omega = (5 / 1 s, 0 / 1 s, 2 / 1 s)) {\n"
    "  marker root = (-0.5 m, 0 m, 0 m)\n  marker journal = (0.5 m, 0 m, 0 m)\n}\n"
    "joint pivot : spherical(shaft.root, (0 m, 0 m, 0 m))\n"
    "contact bearing between shaft.journal and (1 m, 0 m, 0 m) {\n"
    "  law = linear_spring(k = k)\n  gap0 = 0.5 mm\n  form = FORM\n}\n"
    "init shaft.x = 0.5 m\ninit shaft.y.v = 1 m/s\n"
    "simulate {\n  integrator = midpoint(h = 20 us)\n  until = 1 s\n"
    "  gravity = (0 m/s^2, 0 m/s^2, -9.81 m/s^2)\n}\n"
    "output \"rotor_FORM.csv\" every 0.1 ms {\n  t,\n"
    "  gap = 0.5 mm - sqrt((shaft.journal.x - 1 m)^2 + shaft.journal.y^2 + shaft.journal.z^2),\n"
    "  E = shaft.kinetic + m * 9.81 m/s^2 * shaft.z\n"
    "      + 0.5 * k * min(0.5 mm - sqrt((shaft.journal.x - 1 m)^2 + shaft.journal.y^2\n"
    "                                    + shaft.journal.z^2), 0 m)^2\n}\n";

/* The largest energy error of the rotor with contact form `form`, and the
 * number of contact episodes (through *episodes); NAN when it fails. With
 * `steps`, seed 001's contact step control (h at most 1 ms) and a row at
 * every step end (rows between them are interpolated: their energy is not
 * the scheme's). */
static double rotor_drift(const char *form, int steps, int *episodes)
{
    char *text = text_sub(rotor_text, "FORM", form), *text2 = text_sub(text, "FORM", form);
    if (steps) {
        char *a = text_sub(text2, "form = energy_consistent",
                           "form = energy_consistent  steps = contact_steps(eps_p = 3 um)");
        char *b = text_sub(a, "midpoint(h = 20 us)", "midpoint(h = 1 ms)");
        free(text2);
        text2 = text_sub(b, "every 0.1 ms", "every 0 s");
        free(a);
        free(b);
    }
    char name[64], csv[80];
    snprintf(name, sizeof name, "rotor_%s%s", form, steps ? "_steps" : "");
    snprintf(csv, sizeof csv, "%s.csv", name);
    jnt_model *m = compile_text(name, text2);
    free(text);
    free(text2);
    *episodes = 0;
    if (!m)
        return NAN;
    csv_table t;
    int rc = run_csv(m, test_out(csv), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "rigid rotor in a clearance joint runs (%s)", form);
    double d = NAN;
    if (rc == JNT_OK) {
        const double *gap = csv_col(&t, "gap"), *E = csv_col(&t, "E");
        d = 0;
        for (int i = 0; i < t.nrow; i++) {
            d = fmax(d, fabs(E[i] - E[0]) / E[0]);
            *episodes += i > 0 && gap[i] < 0 && gap[i - 1] >= 0;
        }
    }
    csv_free(&t);
    jnt_model_free(m);
    return d;
}

/* The same rotor in seed 001's cylinder-disk clearance joint (radii 20.5
 * and 20 mm, axis x): the energy between impacts (rows with the journal off
 * the wall) with the energy-consistent form (a discrete gradient of the gap
 * in its four arguments) and with the plain law. */
static double cylinder_drift(const char *form, int *episodes)
{
    char *a = text_sub(rotor_text, "gap0 = 0.5 mm",
                       "clearance = cylinder(rho_k = 20.5 mm, rho_l = 20 mm, axis = (1, 0, 0))");
    char *b = text_sub(a, "FORM", form), *c = text_sub(b, "rotor_FORM", "rotor_cyl");
    char *d = text_sub(c, "sqrt((shaft.journal.x - 1 m)^2 + shaft.journal.y^2 + "
                       "shaft.journal.z^2)", "sqrt(shaft.journal.y^2 + shaft.journal.z^2)");
    char *text = text_sub(d, "sqrt((shaft.journal.x - 1 m)^2 + shaft.journal.y^2\n"
                          "                                    + shaft.journal.z^2)",
                          "sqrt(shaft.journal.y^2 + shaft.journal.z^2)");
    free(a);
    free(b);
    free(c);
    free(d);
    jnt_model *m = text ? compile_text(form, text) : NULL;
    free(text);
    *episodes = 0;
    if (!m)
        return NAN;
    csv_table t;
    int rc = run_csv(m, test_out("rotor_cyl.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "rigid rotor in a cylinder clearance joint runs (%s)", form);
    double dr = NAN;
    if (rc == JNT_OK) {
        const double *gap = csv_col(&t, "gap"), *E = csv_col(&t, "E");
        dr = 0;
        for (int i = 0; i < t.nrow; i++) {
            if (gap[i] > 0)
                dr = fmax(dr, fabs(E[i] - E[0]) / E[0]);
            *episodes += i > 0 && gap[i] < 0 && gap[i - 1] >= 0;
        }
    }
    csv_free(&t);
    jnt_model_free(m);
    return dr;
}

static void rotor_clearance(void)
{
    int nec, npl, nst;
    double ec = rotor_drift("energy_consistent", 0, &nec), pl = rotor_drift("plain", 0, &npl);
    double st = rotor_drift("energy_consistent", 1, &nst);
    MEASURE("clearance.sphere.ec", ec);
    MEASURE("clearance.sphere.plain", pl);
    MEASURE("clearance.sphere.steps", st);
    CHECK(nec >= 100 && ec <= 5e-9, "rigid rotor, spherical clearance joint, midpoint rule: "
          "energy within %.2g (relative, 5e-9) through %d impacts with the energy-consistent "
          "contact force (seed 001 eq. 4 and Sect. 2.5)", ec, nec);
    CHECK(npl >= 100 && pl >= 1000 * ec, "the plain law at the midpoint state errs by %.2g over "
          "its %d impacts (>= 1000 times the energy-consistent form's)", pl, npl);
    CHECK(nst >= 100 && st <= 5e-9, "the same with contact step control (steps from 1 ms down "
          "to microseconds): energy at the step ends within %.2g (5e-9) through %d impacts", st,
          nst);
    int cec, cpl;
    double yec = cylinder_drift("energy_consistent", &cec), ypl = cylinder_drift("plain", &cpl);
    MEASURE("clearance.cylinder.ec", yec);
    MEASURE("clearance.cylinder.plain", ypl);
    CHECK(cec >= 100 && yec <= 5e-9 && ypl >= 1000 * yec, "rigid rotor, cylinder clearance "
          "joint: energy between impacts within %.2g (5e-9) through %d impacts with the "
          "energy-consistent form, %.2g with the plain law", yec, cec, ypl);
}

/* A shaft on a revolute joint along its own axis: spun up by seed 001 E2's
 * torque Q(t) = Q0 (1 - cos 2 pi t) on the joint (`force Q on hinge`),
 * J w' = Q, so w = Q0 / J (t - sin(2 pi t) / (2 pi)); and spun down from
 * 50 rad/s by a damper on the joint (damping c at radius r): w = 50 exp(-c r^2
 * t / J). */
static const char *const spin_text =
    "model spin\n"
    "param J = 0.02 kg*m^2\nparam Q0 = 0.825 N*m\nparam w0 = 0 / 1 s\nparam c = 0 N*s/m\n"
    "body shaft : rigid3d(mass = 5 kg, inertia = (J, 1 kg*m^2, 1 kg*m^2),\n"
    "                     omega = (w0, 0 / 1 s, 0 / 1 s)) { marker c = (0 m, 0 m, 0 m) }\n"
    "joint hinge : revolute(shaft.c, (0 m, 0 m, 0 m), axis = (1, 0, 0))\n"
    "force Q on hinge = Q0 * (1 - cos(2 * pi * t / 1 s))\n"
    "damper d on hinge { damping = c  radius = 0.1 m }\n"
    "simulate {\n  integrator = midpoint(h = 0.1 ms)\n  until = 0.9 s\n}\n"
    "output \"spin.csv\" every 1 ms { t, w = hinge.speed, wx = shaft.wx }\n";

static void spin(void)
{
    jnt_model *m = compile_text("spin", spin_text);
    if (!m)
        return;
    const double J = 0.02, Q0 = 0.825, r = 0.1, c = 2;
    csv_table t;
    const char *down[] = {"Q0=0", "w0=50", "c=2", NULL};
    int rc = run_csv(m, test_out("spin_up.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "shaft spun up by a torque on its revolute joint runs");
    if (rc == JNT_OK) {
        double e = 0, ex = 0;
        const double *w = csv_col(&t, "w"), *wx = csv_col(&t, "wx");
        for (int i = 0; i < t.nrow; i++) {
            double tt = t.col[0][i], want = Q0 / J * (tt - sin(2 * PI * tt) / (2 * PI));
            e = fmax(e, fabs(w[i] - want));
            ex = fmax(ex, fabs(wx[i] - want));
        }
        /* the midpoint rule's error on w' = Q(t): h^2/12 of Q''/J, about 1e-6 rad/s */
        MEASURE("spatial.torque.speed", e);
        CHECK(e <= 1e-5 && ex <= 1e-5, "torque on a spatial revolute joint: speed against Q0/J "
              "(t - sin(2 pi t)/(2 pi)) to %.2g rad/s, the body's wx to %.2g (1e-5)", e, ex);
    }
    csv_free(&t);
    rc = run_csv(m, test_out("spin_down.csv"), (jnt_run_opts){0}, down, &t);
    CHECK(rc == JNT_OK, "shaft spun down by a damper on its revolute joint runs");
    if (rc == JNT_OK) {
        double e = 0;
        const double *w = csv_col(&t, "w");
        for (int i = 0; i < t.nrow; i++)
            e = fmax(e, fabs(w[i] - 50 * exp(-c * r * r * t.col[0][i] / J)) / 50);
        MEASURE("spatial.damper.speed_rel", e);
        CHECK(e <= 1e-6, "damper on a spatial revolute joint: speed against 50 exp(-c r^2 t / J) "
              "to %.2g relative (1e-6)", e);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* The rotor spinning at 50 rad/s in its clearance joint with LuGre friction
 * between the races (seed 001 eqs. 5-6: radii 20 and 20.5 mm, mu = 0.3,
 * the contact's force as normal force), sliding for 25 ms: with the
 * midpoint rule the friction's discrete work is -f |V^t| h <= 0, so the
 * energy never rises from one step end to the next (claim 3 in a model);
 * in steady sliding the friction is mu N. */
static const char *const rub_text =
    "model rotor_rub\nimport contact\nimport friction\n"
    "param m = 10 kg\nparam k = 15 MN/m\n"
    "body shaft : rigid3d(mass = m, inertia = (0.05 kg*m^2, 1 kg*m^2, 1 kg*m^2),\n"
    "                     omega = (50 / 1 s, 0 / 1 s, 2 / 1 s)) {\n"
    "  marker root = (-0.5 m, 0 m, 0 m)\n  marker journal = (0.5 m, 0 m, 0 m)\n}\n"
    "joint pivot : spherical(shaft.root, (0 m, 0 m, 0 m))\n"
    "contact bearing between shaft.journal and (1 m, 0 m, 0 m) {\n"
    "  law = linear_spring(k = k)\n  gap0 = 0.5 mm\n  form = energy_consistent\n}\n"
    "friction rub between shaft.journal and (1 m, 0 m, 0 m) {\n"
    "  law    = lugre(sigma0 = 1e5 /m, sigma1 = 0 s/m, mu_s = 0.3, mu_k = 0.3, v_s = 1 mm/s)\n"
    "  normal = bearing.force\n  radii  = (20 mm, 20.5 mm)\n}\n"
    "init shaft.x = 0.5 m\ninit shaft.y.v = 1 m/s\n"
    "simulate {\n  integrator = midpoint(h = 20 us)\n  until = 25 ms\n"
    "  gravity = (0 m/s^2, 0 m/s^2, -9.81 m/s^2)\n}\n"
    "output \"rub.csv\" every 0 s {\n  t, wx = shaft.wx, v = rub.v, f = rub.force, N = bearing.force,\n"
    "  E = shaft.kinetic + m * 9.81 m/s^2 * shaft.z\n"
    "      + 0.5 * k * min(0.5 mm - sqrt((shaft.journal.x - 1 m)^2 + shaft.journal.y^2\n"
    "                                    + shaft.journal.z^2), 0 m)^2\n}\n";

static void rub(void)
{
    jnt_model *m = compile_text("rub", rub_text);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("rub.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "rotor with friction in its clearance joint runs");
    if (rc == JNT_OK) {
        const double *E = csv_col(&t, "E"), *f = csv_col(&t, "f"), *N = csv_col(&t, "N");
        int rises = 0, at_mu = 0;
        double worst = 0;
        for (int i = 1; i < t.nrow; i++) {
            rises += E[i] > E[i - 1] * (1 + 1e-12);
            worst = fmax(worst, (E[i] - E[i - 1]) / E[0]);
            at_mu += N[i] > 1 && fabs(f[i] / N[i] - 0.3) <= 1e-3;
        }
        MEASURE("clearance.rub.steps", t.nrow - 1);
        MEASURE("clearance.rub.fall_pct", 100 * (1 - E[t.nrow - 1] / E[0]));
        MEASURE("clearance.rub.at_mu", at_mu);
        CHECK(rises == 0 && E[t.nrow - 1] < 0.99 * E[0], "clearance-joint friction, midpoint "
              "rule: the energy falls at every one of %d steps (largest rise %.2g of E0; it "
              "falls %.1f %% in all)", t.nrow - 1, worst, 100 * (1 - E[t.nrow - 1] / E[0]));
        CHECK(at_mu >= 500, "clearance-joint friction: f = mu N to 1e-3 at %d step ends of "
              "sliding", at_mu);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* The same rotor with the races' slip taken about the bearing's axis
 * (`axis`: a signed circumferential slip), for 200 ms: friction lifts the
 * journal up the wall until it rolls (dry whip), where the direction of
 * |V^t| would turn through zero (without `axis` Newton fails near 30 ms).
 * From 50 ms on: the races stick (|f| < mu N) and the journal's centre
 * whirls at the rate of rolling without slip, -w_x rho_l / r (r its distance
 * from the bearing's centre), and the energy stays (LuGre with sigma1 = 0
 * stores, rolling does no work). */
static void rolling(void)
{
    char *a = text_sub(rub_text, "radii  = (20 mm, 20.5 mm)\n",
                       "radii  = (20 mm, 20.5 mm)\n  axis   = (1, 0, 0)\n");
    char *b = text_sub(a, "until = 25 ms", "until = 200 ms");
    char *c = text_sub(b, "N = bearing.force,", "N = bearing.force, ty = shaft.journal.y, "
                       "tz = shaft.journal.z, vy = shaft.journal.vy, vz = shaft.journal.vz,");
    free(a);
    free(b);
    jnt_model *m = c ? compile_text("rolling", c) : NULL;
    free(c);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("rolling.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "rotor rolling in its clearance joint (friction about the axis) runs");
    if (rc == JNT_OK) {
        const double *tc = t.col[0], *wx = csv_col(&t, "wx"), *f = csv_col(&t, "f"),
                     *N = csv_col(&t, "N"), *ty = csv_col(&t, "ty"), *tz = csv_col(&t, "tz"),
                     *vy = csv_col(&t, "vy"), *vz = csv_col(&t, "vz"), *E = csv_col(&t, "E");
        int n = 0, stick = 0;
        double roll = 0, e50 = 0, drift = 0;
        for (int i = 0; i < t.nrow; i++) {
            if (tc[i] < 0.05)
                continue;
            /* the bearing's centre is on the x axis */
            double r2 = ty[i] * ty[i] + tz[i] * tz[i];
            double whirl = (ty[i] * vz[i] - tz[i] * vy[i]) / r2, want = -wx[i] * 0.020 / sqrt(r2);
            roll = fmax(roll, fabs(whirl - want) / fabs(want));
            stick += fabs(f[i]) < 0.3 * N[i];
            if (!n)
                e50 = E[i];
            drift = fmax(drift, fabs(E[i] - e50) / fabs(e50));
            n++;
        }
        CHECK(n > 1000 && stick == n, "rolling: the races stick from 50 ms on (%d of %d steps)",
              stick, n);
        MEASURE("clearance.roll.whirl_pct", 100 * roll);
        MEASURE("clearance.roll.energy", drift);
        CHECK(roll < 0.02, "rolling: the journal whirls at -w rho_l / r (largest relative "
              "difference %.2g, tol 2e-2)", roll);
        CHECK(drift < 1e-3, "rolling: the energy stays (largest change %.2g of its value at "
              "50 ms, tol 1e-3)", drift);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* A journal resting in a cylinder clearance joint under gravity, pushed
 * along the bearing's axis at 0.1 m/s: the races' axial slip (`slip =
 * axial`) carries mu N while it slides, so the journal stops after v0^2 / (2
 * mu g) and then sticks; the circumferential slip's friction stays zero. */
static const char *const axial_text =
    "model axial_slide\nimport contact\nimport friction\nparam g = 9.81 m/s^2\n"
    "param k = 1 MN/m\n"
    "body b : rigid3d(mass = 1 kg, inertia = (1000 kg*m^2, 1000 kg*m^2, 1000 kg*m^2)) {\n"
    "  marker c = (0 m, 0 m, 0 m)\n}\n"
    "contact bearing between b.c and (0 m, 0 m, 0 m) {\n  law = linear_spring(k = k)\n"
    "  clearance = cylinder(rho_k = 20.5 mm, rho_l = 20 mm, axis = (1, 0, 0))\n}\n"
    "friction turn between b.c and (0 m, 0 m, 0 m) {\n"
    "  law = lugre(sigma0 = 1e5 /m, sigma1 = 0 s/m, mu_s = 0.3, mu_k = 0.3, v_s = 1 mm/s)\n"
    "  normal = bearing.force  radii = (20 mm, 20.5 mm)  axis = (1, 0, 0)\n}\n"
    "friction slide between b.c and (0 m, 0 m, 0 m) {\n"
    "  law = lugre(sigma0 = 1e5 /m, sigma1 = 0 s/m, mu_s = 0.3, mu_k = 0.3, v_s = 1 mm/s)\n"
    "  normal = bearing.force  radii = (20 mm, 20.5 mm)  axis = (1, 0, 0)  slip = axial\n}\n"
    "init b.z = -0.5 mm - 1 kg * g / k\ninit b.x.v = 0.1 m/s\n"
    "simulate { integrator = midpoint(h = 50 us)  until = 60 ms  gravity = (0 m/s^2, 0 m/s^2, -g) }\n"
    "output \"axial.csv\" every 0.5 ms { t, x = b.x, vx = b.x.v, N = bearing.force, f = slide.force,\n"
    "  ft = turn.force }\n";

/* The journal sliding along the axis and spinning (0.1 m/s each way: 45 degrees) with one
 * plane bristle (the laws take |(v, v2)|): friction mu N against the slip, with LuGre and the
 * memoryless laws; two line bristles (a square sticking limit) start at sqrt(2) mu N. */
static void plane_bristle(void)
{
    char *a = text_sub(axial_text, "(1000 kg*m^2, 1000 kg*m^2, 1000 kg*m^2)) {",
                       "(1000 kg*m^2, 1000 kg*m^2, 1000 kg*m^2),\n"
                       "                 omega = (5 / 1 s, 0 / 1 s, 0 / 1 s)) {");
    char *line = text_sub(a, "N = bearing.force, f = slide.force,",
                          "N = bearing.force, f = slide.force, va = slide.v, vc = turn.v,");
    char *b = text_sub(line, "axis = (1, 0, 0)\n}", "axis = (1, 0, 0)  bristle = plane\n}");
    char *plane = text_sub(b, "slip = axial\n", "slip = axial  bristle = plane\n");
    static const char lugre[] = "lugre(sigma0 = 1e5 /m, sigma1 = 0 s/m, mu_s = 0.3, mu_k = 0.3, "
                                "v_s = 1 mm/s)";
    const char *law[5] = {"", "", "coulomb_tanh(mu = 0.3)", "coulomb_exp(mu_k = 0.3)",
                          "stribeck_rill(mu_s = 0.4, v_s = 1 mm/s, mu_d = 0.3, v_d = 2 mm/s)"};
    char *texts[5] = {plane, line, NULL, NULL, NULL}, *c;
    for (int j = 2; j < 5; j++) { /* both elements' laws */
        c = text_sub(plane, lugre, law[j]);
        texts[j] = text_sub(c, lugre, law[j]), free(c);
    }
    free(a), free(b);
    double first[5] = {NAN, NAN, NAN, NAN, NAN};
    for (int k = 0; k < 5; k++) {
        jnt_model *m = texts[k] ? compile_text(k == 1 ? "line_bristles" : "plane_bristle", texts[k])
                                : NULL;
        csv_table t = {0};
        int rc = m ? run_csv(m, test_out("bristle.csv"), (jnt_run_opts){0}, NULL, &t)
                   : JNT_ERR_MODEL;
        CHECK(rc == JNT_OK, "journal sliding and spinning, %s, runs", k == 0 ? "a plane bristle"
              : k == 1 ? "line bristles" : law[k]);
        if (rc == JNT_OK) {
            const double *N = csv_col(&t, "N"), *fa = csv_col(&t, "f"), *fc = csv_col(&t, "ft"),
                         *va = csv_col(&t, "va"), *vc = csv_col(&t, "vc");
            double mag = 0, dir = 0;
            int n = 0;
            for (int i = 1; i < t.nrow; i++) {
                double v = hypot(va[i], vc[i]);
                if (v < 10e-3 || N[i] < 1) /* sliding: |v| >> v_s */
                    continue;
                if (isnan(first[k]))
                    first[k] = hypot(fa[i], fc[i]) / N[i];
                mag = fmax(mag, fabs(hypot(fa[i], fc[i]) / N[i] - 0.3));
                dir = fmax(dir, fabs((fa[i] * vc[i] - fc[i] * va[i]) / (hypot(fa[i], fc[i]) * v)));
                n++;
            }
            if (k == 0) {
                MEASURE("clearance.plane_bristle.mag", mag);
                MEASURE("clearance.plane_bristle.dir", dir);
            }
            if (k == 0)
                CHECK(n > 50 && mag < 1e-3 && dir < 2e-2, "plane bristle: |f| = mu N to %.2g "
                      "and f against the slip to %.2g (sin of the angle) over %d sliding rows",
                      mag, dir, n);
            if (k >= 2) /* each law's mu(|V|) is mu at these speeds (|V| >> 1 mm/s) */
                CHECK(n > 50 && mag < 1e-12 && dir < 1e-12, "%s in the plane: |f| = mu N to %.2g "
                      "and f against the slip to %.2g over %d sliding rows", law[k], mag, dir, n);
            if (k == 2) { /* docs/laws.md, coulomb_tanh */
                MEASURE("spatial.plane.coulomb_tanh.mag", mag);
                MEASURE("spatial.plane.coulomb_tanh.dir", dir);
            }
        }
        csv_free(&t);
        jnt_model_free(m);
    }
    MEASURE("clearance.line_bristles.first", first[1]);
    CHECK(fabs(first[1] - 0.3 * sqrt(2)) < 0.01 && fabs(first[0] - 0.3) < 1e-3, "at 45 degrees "
          "two line bristles carry %.4f N per N (sqrt(2) mu), the plane bristle %.4f (mu)",
          first[1], first[0]);
    for (int k = 0; k < 5; k++)
        free(texts[k]);
}

static void axial_slide(void)
{
    jnt_model *m = compile_text("axial_slide", axial_text);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("axial.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "journal sliding along its bearing runs");
    if (rc == JNT_OK) {
        const double *tc = t.col[0], *x = csv_col(&t, "x"), *vx = csv_col(&t, "vx"),
                     *N = csv_col(&t, "N"), *f = csv_col(&t, "f"), *ft = csv_col(&t, "ft");
        double mu = 0.3, g = 9.81, stop = 0.1 * 0.1 / (2 * mu * g), slid = 0, turn = 0;
        for (int i = 0; i < t.nrow; i++) {
            if (tc[i] > 0 && vx[i] > 0.01)
                slid = fmax(slid, fabs(f[i] / N[i] - mu));
            turn = fmax(turn, fabs(ft[i]));
        }
        MEASURE("clearance.axial.slid", slid);
        MEASURE("clearance.axial.stop", x[t.nrow - 1]);
        MEASURE("clearance.axial.stop_exact", stop);
        CHECK(slid < 1e-6 && turn < 1e-9, "axial slip: f = mu N while sliding (%.2g), the "
              "circumferential friction %.2g N", slid, turn);
        CHECK(fabs(x[t.nrow - 1] - stop) <= 2e-3 * stop, "axial slip: the journal stops at "
              "%.6f mm, v0^2 / (2 mu g) = %.6f mm (rel 2e-3: the bristle)", 1e3 * x[t.nrow - 1],
              1e3 * stop);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* A torsional spring on a spatial revolute joint (stiffness k at radius r:
 * k r^2 about the axis), the disk released at the middle with w0 = 150
 * rad/s: it swings to +-4.74 rad, past the +-pi where the joint's angle
 * (atan2) wraps; the spring's extension s = r theta follows r (w0 / W)
 * sin(W t), W = sqrt(k r^2 / J), and the energy 1/2 J w^2 + 1/2 k s^2
 * stays with the midpoint rule to O(h^2) (the angle, an atan2 of the
 * directors, is not quadratic in them: 9.4e-6 at h = 0.1 ms). */
static const char *const twist_text =
    "model torsion_wrap\nparam J = 0.02 kg*m^2\nparam k = 2000 N/m\nparam r = 0.1 m\n"
    "body disk : rigid3d(mass = 1 kg, inertia = (0.01 kg*m^2, 0.01 kg*m^2, J),\n"
    "                    omega = (0 / 1 s, 0 / 1 s, 150 / 1 s)) {\n  marker c = (0 m, 0 m, 0 m)\n}\n"
    "joint hinge : revolute(disk.c, (0 m, 0 m, 0 m), axis = (0, 0, 1))\n"
    "spring twist on hinge { stiffness = k  radius = r }\n"
    "simulate { integrator = midpoint(h = 0.1 ms)  until = 1 s }\n"
    "output \"twist.csv\" every 1 ms { t, s = twist.s, a = hinge.angle,\n"
    "  E = 0.5 * J * hinge.speed^2 + 0.5 * k * twist.s^2 }\n";

static void twist(void)
{
    jnt_model *m = compile_text("twist", twist_text);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("twist.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "torsional spring on a spatial revolute joint runs");
    if (rc == JNT_OK) {
        const double *s = csv_col(&t, "s"), *a = csv_col(&t, "a");
        double W = sqrt(2000 * 0.01 / 0.02), amp = 0.1 * 150 / W, err = 0, amax = 0;
        for (int i = 0; i < t.nrow; i++) {
            err = fmax(err, fabs(s[i] - amp * sin(W * t.col[0][i])));
            amax = fmax(amax, fabs(a[i]));
        }
        double dE = drift(&t, csv_col(&t, "E"));
        MEASURE("spatial.twist.err_rel", err / amp);
        MEASURE("spatial.twist.energy", dE);
        CHECK(amax <= PI && err <= 1e-3 * amp && dE <= 1e-4, "torsional spring on a spatial "
              "revolute joint past +-pi (the joint's angle wraps, |angle| <= %.4f): extension "
              "against r (w0/W) sin(W t) to %.2g of its amplitude %.3f m (1e-3), energy within "
              "%.2g (1e-4)", amax, err / amp, amp, dE);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* The planar clearance joint with friction (seed 001 Sect. 2.1): a rigid2d
 * disk spinning at 100 rad/s dropped on its bearing's wall under gravity;
 * the midpoint rule, the energy-consistent contact and the races' friction:
 * the energy falls at every step and the spin slows. */
static const char *const planar_rub_text =
    "model planar_rub\nimport contact\nimport friction\nparam k = 10 MN/m\n"
    "body disk : rigid2d(mass = 1 kg, inertia = 1e-3 kg*m^2) { marker c = (0 m, 0 m) }\n"
    "contact bearing between disk.c and (0 m, 0 m) {\n"
    "  law = linear_spring(k = k)  gap0 = 0.5 mm  form = energy_consistent\n}\n"
    "friction rub between disk.c and (0 m, 0 m) {\n"
    "  law    = lugre(sigma0 = 1e5 /m, sigma1 = 0 s/m, mu_s = 0.3, mu_k = 0.3, v_s = 1 mm/s)\n"
    "  normal = bearing.force\n  radii  = (20 mm, 20.5 mm)\n}\n"
    "init disk.y = -0.5 mm\ninit disk.angle.v = 100 / 1 s\n"
    "simulate { integrator = midpoint(h = 20 us)  until = 20 ms  gravity = (0 m/s^2, -9.81 m/s^2) }\n"
    "output \"planar_rub.csv\" every 0 s {\n  t, w = disk.angle.v,\n"
    "  E = 0.5 * 1 kg * (disk.x.v^2 + disk.y.v^2) + 0.5 * 1e-3 kg*m^2 * disk.angle.v^2\n"
    "      + 1 kg * 9.81 m/s^2 * disk.y + 0.5 * k * min(0.5 mm - sqrt(disk.x^2 + disk.y^2), 0 m)^2\n}\n";

static void planar_rub(void)
{
    jnt_model *m = compile_text("planar_rub", planar_rub_text);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("planar_rub.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "planar clearance joint with friction runs");
    if (rc == JNT_OK) {
        const double *E = csv_col(&t, "E"), *w = csv_col(&t, "w");
        int rises = 0;
        for (int i = 1; i < t.nrow; i++)
            rises += E[i] > E[i - 1] + 1e-12 * fabs(E[0]);
        CHECK(rises == 0 && w[t.nrow - 1] < 0.995 * w[0], "planar clearance joint, friction "
              "between the races: the energy falls at every one of %d steps, the spin from %.2f "
              "to %.2f rad/s", t.nrow - 1, w[0], w[t.nrow - 1]);
    }
    csv_free(&t);
    jnt_model_free(m);
}

int main(void)
{
    slider_crank();
    tilted_pendulum();
    joints();
    heavy_top();
    tumbling();
    products();
    rotor_clearance();
    spin();
    rub();
    rolling();
    axial_slide();
    plane_bristle();
    twist();
    planar_rub();
    return check_done();
}
