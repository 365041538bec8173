/*
 * test_multibody.c: the planar multibody examples (issue 13, checks 1-3)
 * against closed forms: examples/pendulum.jnt (the period of a 170 deg
 * swing, an elliptic integral; the pin force at the bottom from energy
 * conservation), examples/slider_crank.jnt (the slider's position, a
 * closed form of the crank angle; the joints' residuals) and
 * examples/double_pendulum.jnt (energy with generalized-alpha, rho_inf =
 * 0.99 and 0.6).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

/* K(k), the complete elliptic integral of the first kind, by the
 * arithmetic-geometric mean: K = pi / (2 AGM(1, sqrt(1 - k^2))). */
static double ellip_k(double k)
{
    double a = 1, b = sqrt(1 - k * k);
    for (int i = 0; i < 40 && fabs(a - b) > 1e-16 * a; i++) {
        double an = (a + b) / 2;
        b = sqrt(a * b);
        a = an;
    }
    return PI / (2 * a);
}

static jnt_model *compile(const char *path)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_file(path, NULL, &m);
    CHECK(rc == JNT_OK && m, "compile %s", path);
    return rc == JNT_OK ? m : NULL;
}

/* The times where column c crosses zero (linear interpolation), at most n. */
static int crossings(const csv_table *t, const double *c, double *at, int n)
{
    int k = 0;
    for (int i = 1; i < t->nrow && k < n; i++)
        if ((c[i - 1] < 0) != (c[i] < 0))
            at[k++] = t->col[0][i - 1] - c[i - 1] * (t->col[0][i] - t->col[0][i - 1]) /
                                             (c[i] - c[i - 1]);
    return k;
}

static void pendulum(void)
{
    jnt_model *m = compile("examples/pendulum.jnt");
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("pendulum.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "pendulum runs");
    if (rc == JNT_OK) {
        /* exact period: T = 4 sqrt(I_O / (m g L/2)) K(sin(th0/2)), I_O = m L^2/3 */
        const double mass = 1, L = 1, g = 9.81, th0 = 170 * PI / 180, io = mass * L * L / 3;
        double T = 4 * sqrt(io / (mass * g * L / 2)) * ellip_k(sin(th0 / 2));
        /* the angle crosses 0 at the bottom, where it is linear in t (angle'' = 0) */
        double z[4];
        const double *th = csv_col(&t, "angle");
        int nz = crossings(&t, th, z, 4);
        CHECK(nz >= 3 && fabs((z[2] - z[0]) - T) <= 1e-6 * T,
              "pendulum from 170 deg: period %.9f s, elliptic integral %.9f s (rel 1e-6)",
              nz >= 3 ? z[2] - z[0] : NAN, T);
        /* at the bottom the pin holds m g + m (L/2) w^2, w^2 = m g L (1 - cos th0) / I_O */
        double w2 = mass * g * L * (1 - cos(th0)) / io, want = mass * g + mass * L / 2 * w2;
        const double *fy = csv_col(&t, "fy");
        double got = NAN;
        for (int i = 1; i < t.nrow && nz > 0; i++)
            if (t.col[0][i] >= z[0]) {
                double s = (z[0] - t.col[0][i - 1]) / (t.col[0][i] - t.col[0][i - 1]);
                got = fy[i - 1] + s * (fy[i] - fy[i - 1]);
                break;
            }
        CHECK(fabs(got - want) <= 1e-5 * want,
              "pin force at the bottom %.8g N, from energy conservation %.8g N (rel 1e-5)", got,
              want);
        const double *E = csv_col(&t, "E");
        double dE = 0;
        for (int i = 0; i < t.nrow; i++)
            dE = fmax(dE, fabs(E[i] - E[0]));
        CHECK(dE <= 1e-6 * mass * g * L, "energy kept within %.3g J over 10 s (HHT alpha -0.05, "
              "h 0.2 ms; 1e-6 m g L)", dE);
    }
    csv_free(&t);
    jnt_model_free(m);
}

static void slider_crank(void)
{
    jnt_model *m = compile("examples/slider_crank.jnt");
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("slider_crank.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "slider-crank runs");
    if (rc == JNT_OK) {
        const double r = 0.1, l = 0.3, w = 2 * PI;
        const double *x = csv_col(&t, "x");
        double ex = 0, res = 0;
        static const char *const rcols[] = {"r_wrist_x", "r_wrist_y", "r_pin_x", "r_pin_y",
                                            "r_rail"};
        for (int i = 0; i < t.nrow; i++) {
            double th = w * t.col[0][i], s = sin(th);
            ex = fmax(ex, fabs(x[i] - (r * cos(th) + sqrt(l * l - r * r * s * s))));
            for (int c = 0; c < 5; c++)
                res = fmax(res, fabs(csv_col(&t, rcols[c])[i]));
        }
        CHECK(ex <= 1e-9, "slider position against r cos(wt) + sqrt(l^2 - r^2 sin^2(wt)): "
              "max error %.3g m (1e-9)", ex);
        CHECK(res <= 1e-10, "joint residuals at every output row: max %.3g m (1e-10)", res);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* rho_inf = 1 (the trapezoidal rule) is not checked: on this chaotic
 * motion its undamped parasitic mode of the multipliers makes Newton
 * diverge near t = 6 s (index 3; Arnold and Bruls need rho_inf < 1), see
 * docs/multibody.md. rho_inf = 0.99 stands for it. */
static void double_pendulum(void)
{
    jnt_model *m = compile("examples/double_pendulum.jnt");
    if (!m)
        return;
    double end[2] = {NAN, NAN}, e0 = NAN;
    for (int k = 0; k < 2; k++) {
        const char *defs[] = {k ? "rho=0.6" : "rho=0.99", k ? "h=10 ms" : NULL, NULL};
        csv_table t;
        char out[64];
        snprintf(out, sizeof out, "double_pendulum_%d.csv", k);
        int rc = run_csv(m, test_out(out), (jnt_run_opts){0}, defs, &t);
        CHECK(rc == JNT_OK, "double pendulum runs with %s", defs[0]);
        if (rc == JNT_OK) {
            const double *E = csv_col(&t, "E");
            double drift = 0;
            for (int i = 1; i < t.nrow; i++)
                drift = fmax(drift, fabs(E[i] - E[0]));
            e0 = E[0];
            end[k] = E[t.nrow - 1];
            if (k == 0) /* measured 2.1e-5 J, 4.3e-6 relative (h = 0.1 ms) */
                CHECK(drift <= 1e-5 * fabs(E[0]), "rho_inf = 0.99 keeps the energy: drift "
                      "%.3g J over 10 s (1e-5 relative)", drift);
        }
        csv_free(&t);
    }
    /* the energy oscillates with the velocities' O(h^2) error, so it is not
     * monotone row by row; over 10 s the numerical damping shows */
    CHECK(end[1] < e0 - 10 * fabs(end[0] - e0), "rho_inf = 0.6 (h = 10 ms) dissipates: "
          "%.6g J -> %.6g J (rho_inf = 0.99: -> %.6g J)", e0, end[1], end[0]);
    jnt_model_free(m);
}

int main(void)
{
    pendulum();
    slider_crank();
    double_pendulum();
    return check_done();
}
