/*
 * test_multibody.c: the planar multibody examples (issue 13, checks 1-3)
 * against closed forms: examples/pendulum.jnt (the period of a 170 deg
 * swing, an elliptic integral; the pin force at the bottom from energy
 * conservation), examples/slider_crank.jnt (the slider's position, a
 * closed form of the crank angle; the joints' residuals) and
 * examples/double_pendulum.jnt (energy with generalized-alpha, rho_inf =
 * 1 and 0.6). The undamped cases (HHT alpha = 0, rho_inf = 1) run in the
 * stabilised index-2 formulation (docs/multibody.md, "Integrators").
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

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

/* One run of examples/pendulum.jnt with the parameter def (or none). */
static void pendulum_run(jnt_model *m, const char *def)
{
    const char *defs[] = {def, NULL};
    const char *al = def ? "alpha 0" : "alpha -0.05";
    csv_table t;
    int rc = run_csv(m, test_out(def ? "pendulum_0.csv" : "pendulum.csv"), (jnt_run_opts){0},
                     def ? defs : NULL, &t);
    CHECK(rc == JNT_OK, "pendulum runs (HHT %s)", al);
    if (rc == JNT_OK) {
        /* exact period: T = 4 sqrt(I_O / (m g L/2)) K(sin(th0/2)), I_O = m L^2/3 */
        const double mass = 1, L = 1, g = 9.81, th0 = 170 * PI / 180, io = mass * L * L / 3;
        double T = 4 * sqrt(io / (mass * g * L / 2)) * ellip_k(sin(th0 / 2));
        /* the angle crosses 0 at the bottom, where it is linear in t (angle'' = 0) */
        double z[4];
        const double *th = csv_col(&t, "angle");
        int nz = crossings(&t, th, z, 4);
        CHECK(nz >= 3 && fabs((z[2] - z[0]) - T) <= 1e-6 * T,
              "pendulum from 170 deg (HHT %s): period %.9f s, elliptic integral %.9f s (rel 1e-6)",
              al, nz >= 3 ? z[2] - z[0] : NAN, T);
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
              "pin force at the bottom %.8g N (HHT %s), from energy conservation %.8g N (rel 1e-5)",
              got, al, want);
        const double *E = csv_col(&t, "E");
        double dE = 0;
        for (int i = 0; i < t.nrow; i++)
            dE = fmax(dE, fabs(E[i] - E[0]));
        CHECK(dE <= 1e-6 * mass * g * L, "energy kept within %.3g J over 10 s (HHT %s, h 0.2 ms; "
              "1e-6 m g L)", dE, al);
    }
    csv_free(&t);
}

/* HHT with alpha = -0.05 (the model's) and alpha = 0 (undamped) */
static void pendulum(void)
{
    jnt_model *m = compile("examples/pendulum.jnt");
    if (!m)
        return;
    for (int k = 0; k < 2; k++)
        pendulum_run(m, k ? "alpha=0" : NULL);
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

/* The energy column of one run of examples/double_pendulum.jnt: its largest
 * |E - E0| and its last value (*e0, *end), row by row its largest rise
 * (*rise), how many rows rise (*ups) and the highest E - E0 after the first
 * row (*above). Returns the run's status. */
static double dp_tmax; /* the time of the largest |E - E0| of the last run */

static int dp_energy(jnt_model *m, const char *const *defs, const char *out, double *e0,
                     double *dev, double *end, double *rise, int *ups, double *above)
{
    csv_table t;
    int rc = run_csv(m, test_out(out), (jnt_run_opts){0}, defs, &t);
    if (rc == JNT_OK) {
        const double *E = csv_col(&t, "E");
        *e0 = E[0], *dev = 0, *rise = 0, *ups = 0, *above = -INFINITY;
        for (int i = 1; i < t.nrow; i++) {
            if (fabs(E[i] - E[0]) > *dev)
                dp_tmax = t.col[0][i];
            *dev = fmax(*dev, fabs(E[i] - E[0]));
            *rise = fmax(*rise, E[i] - E[i - 1]);
            *ups += E[i] > E[i - 1];
            *above = fmax(*above, E[i] - E[0]);
        }
        *end = E[t.nrow - 1];
    }
    csv_free(&t);
    return rc;
}

/* Energy of the chaotic double pendulum: kept with rho_inf = 1 (h 0.1 ms and
 * 0.05 ms), dissipated with rho_inf = 0.6 (h 10 ms). */
static void double_pendulum(void)
{
    jnt_model *m = compile("examples/double_pendulum.jnt");
    if (!m)
        return;
    static const char *const d1[] = {"rho=1", NULL}, *const d2[] = {"rho=1", "h=0.05 ms", NULL},
                             *const d6[] = {"rho=0.6", "h=10 ms", NULL};
    double e0 = NAN, dev[2] = {NAN, NAN}, end[2] = {NAN, NAN}, rise, above;
    int ups;
    for (int k = 0; k < 2; k++) {
        int rc = dp_energy(m, k ? d2 : d1, k ? "double_pendulum_h2.csv" : "double_pendulum_1.csv",
                           &e0, &dev[k], &end[k], &rise, &ups, &above);
        CHECK(rc == JNT_OK, "double pendulum runs with rho_inf = 1, h = %s ms", k ? "0.05" : "0.1");
        if (k == 0)
            MEASURE("double_pendulum.energy_dev.t", dp_tmax);
    }
    /* the undamped scheme keeps the energy up to its O(h^2) error, largest
     * when the lower rod whips round near t = 1.9 s (measured 3.26e-6 and
     * 8.2e-7 relative at h = 0.1 and 0.05 ms: 1e-6 needs h = 0.05 ms), and
     * does not drift (1.2e-8 at the end) */
    MEASURE("double_pendulum.energy_dev.h0.1ms", dev[0] / fabs(e0));
    MEASURE("double_pendulum.energy_dev.h0.05ms", dev[1] / fabs(e0));
    MEASURE("double_pendulum.energy_end.h0.1ms", (end[0] - e0) / fabs(e0));
    CHECK(dev[0] <= 4e-6 * fabs(e0) && dev[1] <= 1e-6 * fabs(e0),
          "rho_inf = 1 keeps the energy within %.3g (h = 0.1 ms) and %.3g (h = 0.05 ms) relative "
          "over 10 s (4e-6, 1e-6)", dev[0] / fabs(e0), dev[1] / fabs(e0));
    CHECK(dev[0] / dev[1] > 3.5 && dev[0] / dev[1] < 4.5,
          "and that error is O(h^2): %.3g times smaller at half the step (4)", dev[0] / dev[1]);
    CHECK(fabs(end[0] - e0) <= 1e-7 * fabs(e0) && fabs(end[1] - e0) <= 1e-7 * fabs(e0),
          "no drift: E(10 s) - E(0) = %.3g J (h = 0.1 ms), %.3g J (h = 0.05 ms) (1e-7 relative)",
          end[0] - e0, end[1] - e0);
    /* rho_inf = 0.6: the energy falls over the run and never rises above
     * its start (to rounding), but not at every row: the scheme's O(h^2)
     * energy error of the motion (3.3e-6 relative at 0.1 ms, 0.045 at 10 ms)
     * is larger than its numerical damping (measured: 525 of 1000 rows rise,
     * by up to 0.054 J, against 0.033 J lost in all) */
    double dev6, end6;
    int rc = dp_energy(m, d6, "double_pendulum_6.csv", &e0, &dev6, &end6, &rise, &ups, &above);
    CHECK(rc == JNT_OK, "double pendulum runs with rho_inf = 0.6, h = 10 ms");
    MEASURE("double_pendulum.rho0.6.h10ms.loss", e0 - end6);
    MEASURE("double_pendulum.rho0.6.h10ms.ups", ups);
    MEASURE("double_pendulum.rho0.6.h10ms.rise", rise);
    MEASURE("double_pendulum.rho0.6.h10ms.loss_pct", 100 * (e0 - end6) / fabs(e0));
    CHECK(rc == JNT_OK && end6 < e0 - 10 * fabs(end[0] - e0) && above <= 1e-12 * fabs(e0),
          "rho_inf = 0.6 (h = 10 ms) dissipates: %.6g J -> %.6g J (rho_inf = 1: -> %.6g J), never "
          "above the start (%d of 1000 rows rise, by up to %.3g J)", e0, end6, end[0], ups, rise);
    jnt_model_free(m);
}

int main(void)
{
    pendulum();
    slider_crank();
    double_pendulum();
    return check_done();
}
