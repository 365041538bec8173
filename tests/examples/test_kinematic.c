/*
 * test_kinematic.c: the kinematic analysis (issue 28 item 4;
 * docs/multibody.md, "Kinematic analysis") against closed forms.
 *   examples/slider_crank_kinematic.jnt: the crank driven as
 *     theta = omega t + alpha t^2 / 2; every body's position, velocity and
 *     acceleration against the slider-crank's closed form, and the drive's
 *     torque against inverse dynamics by hand (the power balance).
 *   examples/fourbar_kinematic.jnt: a crank-rocker driven at constant
 *     speed; the coupler's and rocker's angles against Freudenstein's
 *     equation, their rates from the loop closure, the drive's torque by
 *     the power balance.
 *   examples/spatial_slider_crank.jnt (rigid3d) with the analysis appended:
 *     the slider against the example's closed form.
 *   A slider-crank driven at its slider, started at top dead centre, where
 *     C_q is singular: the analysis stops with a message naming the time.
 * The references are exact up to rounding (no integration): positions,
 * velocities and accelerations are checked to 1e-10 in SI units (the
 * issue's acceptance), the torques to 1e-9 N m (values near 1 N m: the
 * hand computation divides by the crank speed and sums a dozen terms).
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846
#define G 9.81 /* the examples' gravity, (0, -G) */

/* A CSV table of at most KCOL columns (csvread.h's holds 32; the
 * analysis writes 1 + 3 nq + nc + outputs). */
#define KCOL 256
typedef struct ktable {
    int ncol, nrow;
    char names[KCOL][40];
    double *col[KCOL];
} ktable;

static int kload(const char *path, ktable *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    static char line[1 << 16];
    int cap = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char *s = line;
        if (t->ncol == 0) { /* the header */
            for (char *tok = strtok(s, ",\r\n"); tok && t->ncol < KCOL; tok = strtok(NULL, ",\r\n"))
                snprintf(t->names[t->ncol++], sizeof t->names[0], "%s", tok);
            continue;
        }
        if (t->nrow == cap) {
            cap = cap ? 2 * cap : 256;
            for (int c = 0; c < t->ncol; c++)
                t->col[c] = realloc(t->col[c], (size_t)cap * sizeof *t->col[c]);
        }
        for (int c = 0; c < t->ncol; c++) {
            char *end;
            t->col[c][t->nrow] = strtod(s, &end);
            s = *end == ',' ? end + 1 : end;
        }
        t->nrow++;
    }
    fclose(f);
    return t->ncol > 0 ? 0 : -1;
}

static const double *kcol(const ktable *t, const char *name)
{
    for (int c = 0; c < t->ncol; c++)
        if (strcmp(t->names[c], name) == 0)
            return t->col[c];
    CHECK(0, "column '%s' in the analysis's table", name);
    static double zero[1 << 16];
    return zero;
}

static void kfree(ktable *t)
{
    for (int c = 0; c < t->ncol; c++)
        free(t->col[c]);
}

static const char *out_dir(void)
{
    const char *dir = getenv("JNT_TEST_OUT");
    return dir && *dir ? dir : "build/tests";
}

/* Compile path and run its analyses into out_dir(); the status, and the
 * message in msg. */
static int run_analyses(const char *path, const char *text, char *msg, size_t n)
{
    jnt_model *m = NULL;
    int rc = text ? jnt_compile_string(path, text, NULL, &m) : jnt_compile_file(path, NULL, &m);
    CHECK(rc == JNT_OK && m, "%s compiles", path);
    if (!m)
        return rc;
    jnt_data *d = jnt_data_new(m);
    rc = jnt_run_analyses(m, d, out_dir());
    snprintf(msg, n, "%s", jnt_data_error(d));
    jnt_data_free(d);
    jnt_model_free(m);
    return rc;
}

/* A point r e^(i theta) of a link turning with theta', theta'': its
 * position, velocity r theta' i e^(i theta) and acceleration
 * r (theta'' i - theta'^2) e^(i theta). */
typedef struct kpt {
    double complex p, v, a;
} kpt;

static kpt arm(double r, double th, double w, double al)
{
    double complex e = cexp(I * th);
    return (kpt){r * e, r * w * I * e, r * (al * I - w * w) * e};
}

static kpt kadd(kpt x, kpt y)
{
    return (kpt){x.p + y.p, x.v + y.v, x.a + y.a};
}

/* Largest differences of a body's x, y, angle columns (positions,
 * velocities, accelerations: e[0], e[1], e[2]) from the centre c and the
 * angle (th, w, al) at row i; angles compared modulo 2 pi. */
static void body_err(const ktable *t, const char *body, int i, kpt c, double th, double w,
                     double al, double e[3])
{
    static const char *const suf[3] = {"", ".v", ".a"};
    for (int k = 0; k < 3; k++) {
        char nx[64], ny[64], na[64];
        snprintf(nx, sizeof nx, "%s.x%s", body, suf[k]);
        snprintf(ny, sizeof ny, "%s.y%s", body, suf[k]);
        snprintf(na, sizeof na, "%s.angle%s", body, suf[k]);
        double complex want = k == 0 ? c.p : k == 1 ? c.v : c.a;
        double wa = k == 0 ? th : k == 1 ? w : al;
        double da = kcol(t, na)[i] - wa;
        if (k == 0)
            da = remainder(da, 2 * PI);
        e[k] = fmax(e[k], fmax(fabs(kcol(t, nx)[i] - creal(want)),
                               fmax(fabs(kcol(t, ny)[i] - cimag(want)), fabs(da))));
    }
}

/* The power of a body's inertia and weight: m v.a + J w al + m G v_y
 * (the power balance tau theta' = sum of these: no other force works). */
static double power(double m, double J, kpt c, double w, double al)
{
    return m * (creal(c.v) * creal(c.a) + cimag(c.v) * cimag(c.a)) + J * w * al +
           m * G * cimag(c.v);
}

/* examples/slider_crank_kinematic.jnt. Closed form (crank r from the
 * origin at theta, rod l to the slider on the x axis, phi the rod's angle):
 *   sin phi = -k sin theta, k = r / l;
 *   phi' = -k theta' cos theta / cos phi;
 *   phi'' = (k theta'^2 sin theta - k theta'' cos theta + phi'^2 sin phi) / cos phi
 * (the first differentiated twice); the crank's centre (r/2) e^(i theta),
 * the wrist B = r e^(i theta), the rod's centre B + (l/2) e^(i phi), the
 * slider B + l e^(i phi). The drive's torque on the crank by the power
 * balance: tau theta' = sum over bodies of m v.a + J w al + m G v_y. */
static void test_slider_crank(void)
{
    char msg[1024] = "";
    int rc = run_analyses("examples/slider_crank_kinematic.jnt", NULL, msg, sizeof msg);
    CHECK(rc == JNT_OK, "slider-crank kinematic analysis runs (%s)", msg);
    ktable t;
    char path[600];
    snprintf(path, sizeof path, "%s/crank_kin.csv", out_dir());
    if (rc != JNT_OK || kload(path, &t) != 0) {
        CHECK(0, "slider-crank: %s is read", path);
        return;
    }
    const double r = 0.1, l = 0.3, omega = 2 * PI, alpha = 2, m1 = 0.5, m2 = 0.8, m3 = 1.2;
    const double J1 = m1 * r * r / 12, J2 = m2 * l * l / 12, k = r / l;
    double e[3] = {0, 0, 0}, etau = 0, elam = 0, tmax = 0;
    const double *tt = kcol(&t, "t"), *tau = kcol(&t, "torque");
    const double *lam = kcol(&t, "axle.lambda_drive");
    for (int i = 0; i < t.nrow; i++) {
        double ts = tt[i];
        double th = omega * ts + alpha * ts * ts / 2, w = omega + alpha * ts, al = alpha;
        double ph = asin(-k * sin(th));
        double wp = -k * w * cos(th) / cos(ph);
        double ap = (k * w * w * sin(th) - k * al * cos(th) + wp * wp * sin(ph)) / cos(ph);
        kpt c1 = arm(r / 2, th, w, al), B = arm(r, th, w, al);
        kpt c2 = kadd(B, arm(l / 2, ph, wp, ap)), c3 = kadd(B, arm(l, ph, wp, ap));
        body_err(&t, "crank", i, c1, th, w, al, e);
        body_err(&t, "rod", i, c2, ph, wp, ap, e);
        body_err(&t, "slider", i, c3, 0, 0, 0, e);
        double want = (power(m1, J1, c1, w, al) + power(m2, J2, c2, wp, ap) +
                       power(m3, 1e-3, c3, 0, 0)) / w;
        etau = fmax(etau, fabs(tau[i] - want));
        elam = fmax(elam, fabs(lam[i] + tau[i])); /* torque = -lambda_drive */
        tmax = fmax(tmax, fabs(want));
    }
    CHECK(t.nrow == 101 && tt[t.nrow - 1] == 1.0,
          "slider-crank: 101 rows over [0, 1] s (the simulation's end, the output's every): "
          "%d rows, last t = %g", t.nrow, t.nrow ? tt[t.nrow - 1] : NAN);
    CHECK(e[0] <= 1e-10, "slider-crank positions (x, y, angle of 3 bodies) against the closed "
          "form: largest error %.3g (m, rad; 1e-10)", e[0]);
    CHECK(e[1] <= 1e-10, "slider-crank velocities against the closed form: largest error %.3g "
          "(m/s, rad/s; 1e-10)", e[1]);
    CHECK(e[2] <= 1e-10, "slider-crank accelerations against the closed form: largest error "
          "%.3g (m/s^2, rad/s^2; 1e-10)", e[2]);
    CHECK(etau <= 1e-9 && tmax > 0.1, "slider-crank drive torque (axle.torque) against inverse "
          "dynamics by hand (power balance): largest error %.3g N m, torques up to %.3g N m "
          "(1e-9)", etau, tmax);
    CHECK(elam == 0, "slider-crank: axle.torque = -axle.lambda_drive (the sign convention): "
          "largest |torque + lambda| %.3g", elam);
    kfree(&t);
}

/* Solve [b cos t3, -c cos t4; b sin t3, -c sin t4] [x3; x4] = [re; im]
 * (the loop closure's rates) by Cramer's rule; det = b c sin(t3 - t4). */
static void loop_solve(double b, double c, double t3, double t4, double complex rhs, double *x3,
                       double *x4)
{
    double det = b * c * sin(t3 - t4);
    *x3 = (creal(rhs) * (-c * sin(t4)) + c * cos(t4) * cimag(rhs)) / det;
    *x4 = (b * cos(t3) * cimag(rhs) - b * sin(t3) * creal(rhs)) / det;
}

/* examples/fourbar_kinematic.jnt. Loop closure (Norton, Design of
 * Machinery, Sect. 4.5; Freudenstein 1955):
 *   a e^(i t2) + b e^(i t3) - c e^(i t4) - d = 0.
 * t3 eliminated (|b e^(i t3)|^2 = b^2) gives Freudenstein's equation
 *   K1 cos t4 - K2 cos t2 + K3 = cos(t2 - t4),
 *   K1 = d / a, K2 = d / c, K3 = (a^2 - b^2 + c^2 + d^2) / (2 a c),
 * and with u = tan(t4 / 2): A u^2 + B u + C = 0,
 *   A = cos t2 - K1 - K2 cos t2 + K3, B = -2 sin t2, C = K1 - (K2 + 1) cos t2 + K3,
 * the open branch t4 = 2 atan2(-B - sqrt(B^2 - 4 A C), 2 A) (the example's
 * assembly: t4(0) = pi - acos(1/16)); then b e^(i t3) = d + c e^(i t4) -
 * a e^(i t2) gives t3. Differentiated once (divided by i) and twice:
 *   b w3 e^(i t3) - c w4 e^(i t4) = -a w2 e^(i t2),
 *   b al3 e^(i t3) - c al4 e^(i t4) = -a al2 e^(i t2)
 *       - i (a w2^2 e^(i t2) + b w3^2 e^(i t3) - c w4^2 e^(i t4)),
 * real and imaginary parts solved by loop_solve (Norton eqs. 6.18, 7.12). */
static void test_fourbar(void)
{
    char msg[1024] = "";
    int rc = run_analyses("examples/fourbar_kinematic.jnt", NULL, msg, sizeof msg);
    CHECK(rc == JNT_OK, "four-bar kinematic analysis runs (%s)", msg);
    ktable t;
    char path[600];
    snprintf(path, sizeof path, "%s/fourbar_kin.csv", out_dir());
    if (rc != JNT_OK || kload(path, &t) != 0) {
        CHECK(0, "four-bar: %s is read", path);
        return;
    }
    const double a = 0.1, b = 0.35, c = 0.3, d = 0.3, omega = 2 * PI;
    const double m2 = 0.2, m3 = 0.7, m4 = 0.6;
    const double K1 = d / a, K2 = d / c, K3 = (a * a - b * b + c * c + d * d) / (2 * a * c);
    double e[3] = {0, 0, 0}, etau = 0, tmax = 0;
    const double *tt = kcol(&t, "t"), *tau = kcol(&t, "torque");
    for (int i = 0; i < t.nrow; i++) {
        double t2 = omega * tt[i], w2 = omega, al2 = 0;
        double A = cos(t2) - K1 - K2 * cos(t2) + K3, B = -2 * sin(t2);
        double C = K1 - (K2 + 1) * cos(t2) + K3;
        double t4 = 2 * atan2(-B - sqrt(B * B - 4 * A * C), 2 * A);
        double complex bz = d + c * cexp(I * t4) - a * cexp(I * t2);
        double t3 = carg(bz), w3, w4, al3, al4;
        loop_solve(b, c, t3, t4, -a * w2 * cexp(I * t2), &w3, &w4);
        double complex acc = -a * al2 * cexp(I * t2) -
                             I * (a * w2 * w2 * cexp(I * t2) + b * w3 * w3 * cexp(I * t3) -
                                  c * w4 * w4 * cexp(I * t4));
        loop_solve(b, c, t3, t4, acc, &al3, &al4);
        kpt c2 = arm(a / 2, t2, w2, al2);
        kpt c3 = kadd(arm(a, t2, w2, al2), arm(b / 2, t3, w3, al3));
        kpt c4 = kadd((kpt){d, 0, 0}, arm(c / 2, t4, w4, al4));
        body_err(&t, "crank", i, c2, t2, w2, al2, e);
        body_err(&t, "coupler", i, c3, t3, w3, al3, e);
        body_err(&t, "rocker", i, c4, t4, w4, al4, e);
        double want = (power(m2, m2 * a * a / 12, c2, w2, al2) +
                       power(m3, m3 * b * b / 12, c3, w3, al3) +
                       power(m4, m4 * c * c / 12, c4, w4, al4)) / w2;
        etau = fmax(etau, fabs(tau[i] - want));
        tmax = fmax(tmax, fabs(want));
    }
    CHECK(t.nrow == 201, "four-bar: 201 rows (from 0 to 1 s every 5 ms): %d", t.nrow);
    CHECK(e[0] <= 1e-10, "four-bar positions (3 links' x, y, angle) against Freudenstein's "
          "closed form: largest error %.3g (m, rad; 1e-10)", e[0]);
    CHECK(e[1] <= 1e-10, "four-bar velocities against the loop closure's: largest error %.3g "
          "(1e-10)", e[1]);
    CHECK(e[2] <= 1e-10, "four-bar accelerations against the loop closure's: largest error "
          "%.3g (1e-10)", e[2]);
    CHECK(etau <= 1e-9 && tmax > 0.1, "four-bar drive torque against the power balance: "
          "largest error %.3g N m, torques up to %.3g N m (1e-9)", etau, tmax);
    kfree(&t);
}

/* examples/spatial_slider_crank.jnt (rigid3d bodies in director
 * coordinates: 36 coordinates, 36 rows with the bodies' own) with a
 * kinematic analysis appended. Its closed form (the example's comment, Haug
 * 1989 Sect. 9.5): with dy = r cos th - yS, dz = r sin th - zS, th = w t,
 *   x^2 = L^2 - dy^2 - dz^2,
 * differentiated: x x' = r w (zS cos th - yS sin th),
 *   x'^2 + x x'' = -r w^2 (zS sin th + yS cos th). */
static void test_spatial(void)
{
    char *src = NULL;
    FILE *f = fopen("examples/spatial_slider_crank.jnt", "rb");
    long n = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
        static const char extra[] = "\nanalysis spatial_kin : kinematic(to = 1 s, every = 5 ms)\n";
        src = calloc((size_t)n + sizeof extra, 1);
        if (src && fread(src, 1, (size_t)n, f) == (size_t)n)
            memcpy(src + n, extra, sizeof extra);
    }
    if (f)
        fclose(f);
    CHECK(src != NULL, "examples/spatial_slider_crank.jnt is read");
    if (!src)
        return;
    char msg[1024] = "";
    int rc = run_analyses("spatial_slider_crank.jnt", src, msg, sizeof msg);
    free(src);
    CHECK(rc == JNT_OK, "spatial slider-crank kinematic analysis runs (%s)", msg);
    ktable t;
    char path[600];
    snprintf(path, sizeof path, "%s/spatial_kin.csv", out_dir());
    if (rc != JNT_OK || kload(path, &t) != 0) {
        CHECK(0, "spatial slider-crank: %s is read", path);
        return;
    }
    const double r = 0.08, L = 0.3, yS = 0.1, zS = 0.12, w = 6.283185307179586;
    const double *tt = kcol(&t, "t"), *x = kcol(&t, "slider.x"), *xv = kcol(&t, "slider.x.v");
    const double *xa = kcol(&t, "slider.x.a");
    double e[3] = {0, 0, 0};
    for (int i = 0; i < t.nrow; i++) {
        double th = w * tt[i], dy = r * cos(th) - yS, dz = r * sin(th) - zS;
        double X = sqrt(L * L - dy * dy - dz * dz);
        double V = r * w * (zS * cos(th) - yS * sin(th)) / X;
        double A = (-r * w * w * (zS * sin(th) + yS * cos(th)) - V * V) / X;
        e[0] = fmax(e[0], fabs(x[i] - X));
        e[1] = fmax(e[1], fabs(xv[i] - V));
        e[2] = fmax(e[2], fabs(xa[i] - A));
    }
    CHECK(t.nrow == 201 && e[0] <= 1e-10 && e[1] <= 1e-10 && e[2] <= 1e-10,
          "spatial slider-crank (rigid3d): the slider's position, velocity, acceleration against "
          "the closed form over %d rows: largest errors %.3g m, %.3g m/s, %.3g m/s^2 (1e-10)",
          t.nrow, e[0], e[1], e[2]);
    kfree(&t);
}

/* A slider-crank driven at its slider from top dead centre x = r + l:
 * there C_q is singular (the crank's angle is not determined to first
 * order), so the analysis stops at t = 0 and says why. */
static void test_singular(void)
{
    static const char text[] =
        "model dead_centre\n"
        "param r = 0.1 m\nparam l = 0.3 m\n"
        "body crank : rigid2d(mass = 1 kg, inertia = 1e-3 kg*m^2) {\n"
        "  marker O = (-r / 2, 0 m)\n  marker B = (r / 2, 0 m)\n}\n"
        "body rod : rigid2d(mass = 1 kg, inertia = 1e-2 kg*m^2) {\n"
        "  marker A = (-l / 2, 0 m)\n  marker C = (l / 2, 0 m)\n}\n"
        "body slider : rigid2d(mass = 1 kg, inertia = 1e-3 kg*m^2) { marker P = (0 m, 0 m) }\n"
        "joint axle : revolute(crank.O, (0 m, 0 m))\n"
        "joint wrist : revolute(crank.B, rod.A)\n"
        "joint pin : revolute(rod.C, slider.P)\n"
        "joint rail : prismatic(slider.P, (0 m, 0 m), axis = (1, 0),\n"
        "                       drive = (r + l) * (1 - 0.1 * (1 - cos(2 * pi * t / 1 s))))\n"
        "init crank.x = r / 2\ninit rod.x = r + l / 2\ninit slider.x = r + l\n"
        "analysis dead_kin : kinematic(from = 0 s, to = 1 s, every = 10 ms)\n";
    char msg[1024] = "";
    int rc = run_analyses("dead_centre.jnt", text, msg, sizeof msg);
    CHECK(rc == JNT_ERR_MODEL && strstr(msg, "analysis 'dead_kin' (kinematic): at t = 0 s") &&
              strstr(msg, "C_q is singular") && strstr(msg, "dead point"),
          "a slider-crank driven at its slider from top dead centre: the analysis stops at "
          "t = 0 saying C_q is singular (status %d: %s)", rc, msg);
}

int main(void)
{
    test_slider_crank();
    test_fourbar();
    test_spatial();
    test_singular();
    return check_done();
}
