/*
 * test_frdyn2.c: examples/frdyn2_bench.jnt against seed 002 (Rill and
 * Schuderer 2023): long-term stick (Sect. 3, Fig. 3), break-away (Sect. 4,
 * eq. 8), step responses (Sect. 5, Figs. 6-8). Each check names its source.
 */
#include <math.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

static const char *model_path = "examples/frdyn2_bench.jnt";

/* bench parameters of seed 002, Fig. 2c */
static const double m = 1, g = 9.81, mu_s = 0.6, mu_d = 0.3, sigma0 = 5e6;

/* Run with -D assignments into csv (atol > 0 overrides the model's);
 * returns the jnt_run status. */
static int run_tol(jnt_model *mod, const char *csv, const char *const *defs, int ndefs, double atol)
{
    jnt_data *d = jnt_data_new(mod);
    for (int i = 0; i < ndefs; i++)
        if (jnt_set_param_text(mod, d, defs[i]) != JNT_OK) {
            printf("FAIL: -D %s: %s\n", defs[i], jnt_data_error(d));
            jnt_data_free(d);
            return -1;
        }
    jnt_run_opts o = {.csv_path = csv, .atol = atol};
    int rc = jnt_run(mod, d, &o);
    if (rc != JNT_OK)
        printf("FAIL: run %s: %s\n", csv, jnt_data_error(d));
    jnt_data_free(d);
    return rc;
}

static int run(jnt_model *mod, const char *csv, const char *const *defs, int ndefs)
{
    return run_tol(mod, csv, defs, ndefs, 0);
}

int main(void)
{
    jnt_model *mod;
    CHECK(jnt_compile_file(model_path, NULL, &mod) == JNT_OK, "compile %s", model_path);
    if (!mod)
        return check_done();
    const double Fs = mu_s * m * g; /* 5.886 N, seed 002 Sect. 3 */
    csv_table t;

    /* Long-term stick (seed 002 Sect. 3, Fig. 3): ramp to 0.99 Fs over 30 s,
     * hold to 300 s; u -> F_E / sigma0 = 1.1654e-6 m from below, no creep.
     * With the paper's atol = 1e-9, CVODE accepts velocity errors of ~6e-10
     * m/s for tens of seconds after the ramp, and u creeps 0.6 % below F_E /
     * sigma0 (printed below): the tolerance, not the model, allows it, as a
     * run with atol = 1e-12 shows (u within 1e-5 of F_E / sigma0). The
     * check uses atol = 1e-12 m (states are ~1e-6 m: 1e-9 is 0.1 % of u). */
    const char *stick[] = {"ratio=0.99", "tE=30", "t_end=300", "dt_out=0.05"};
    if (run(mod, test_out("frdyn2_stick9.csv"), stick, 4) == JNT_OK &&
        csv_load(test_out("frdyn2_stick9.csv"), &t) == 0) {
        MEASURE("frdyn2.stick9.u_end", csv_col(&t, "u")[t.nrow - 1]);
        /* docs/laws.md's finding: how far below F_E/sigma0, and the velocity
         * errors CVODE accepts after the ramp (from 35 s to 60 s) */
        double *u9 = csv_col(&t, "u"), *v9 = csv_col(&t, "v"), vmax9 = 0;
        for (int i = 0; i < t.nrow; i++)
            if (t.col[0][i] >= 35 && t.col[0][i] <= 60)
                vmax9 = fmax(vmax9, fabs(v9[i]));
        MEASURE("frdyn2.stick9.below_pct", 100 * (1 - u9[t.nrow - 1] / (0.99 * Fs / sigma0)));
        MEASURE("frdyn2.stick9.v_max_after_ramp", vmax9);
        printf("INFO: long-term stick at atol 1e-9: u(300 s) = %.6g m (F_E/sigma0 = %.6g m)\n",
               csv_col(&t, "u")[t.nrow - 1], 0.99 * Fs / sigma0);
        csv_free(&t);
    }
    if (run_tol(mod, test_out("frdyn2_stick.csv"), stick, 4, 1e-12) == JNT_OK &&
        csv_load(test_out("frdyn2_stick.csv"), &t) == 0) {
        double *u = csv_col(&t, "u"), *v = csv_col(&t, "v");
        int n = t.nrow;
        double ust = 0.99 * Fs / sigma0, umax = 0;
        for (int i = 0; i < n; i++)
            umax = fmax(umax, u[i]);
        MEASURE("frdyn2.stick.u_end", u[n - 1]);
        MEASURE("frdyn2.stick.u_max", umax);
        MEASURE("frdyn2.stick.v_end", fabs(v[n - 1]));
        double dev = 0;
        for (int i = 0; i < n; i++)
            if (t.col[0][i] >= 30)
                dev = fmax(dev, fabs(u[i] / ust - 1));
        MEASURE("frdyn2.stick.u_dev_after_ramp", dev);
        CHECK_REL(u[n - 1], ust, 1e-3, "long-term stick: u(300 s) = F_E/sigma0 (seed 002 Sect. 3)");
        CHECK(fabs(v[n - 1]) < 1e-10, "long-term stick: |v(300 s)| = %.3g < 1e-10 m/s", fabs(v[n - 1]));
        CHECK(umax <= ust * 1.001, "long-term stick: max u = %.6g <= 1.001 F_E/sigma0 (no creep)", umax);
        CHECK(fabs(t.col[0][n - 1] - 300) < 1e-9, "long-term stick: last row at t = 300 s");
        csv_free(&t);
    }

    /* Break-away (seed 002 Sect. 4, eq. 8): ramp to 1.05 Fs over 10 s; the
     * acceleration m a = F - F_R (eq. 7) reaches (F_E - F_d)/m = 3.237 m/s^2. */
    const char *brk[] = {"ratio=1.05", "tE=10", "t_end=11", "dt_out=1ms"};
    if (run(mod, test_out("frdyn2_break.csv"), brk, 4) == JNT_OK &&
        csv_load(test_out("frdyn2_break.csv"), &t) == 0) {
        double *F = csv_col(&t, "F"), *FR = csv_col(&t, "F_R"), amax = 0;
        for (int i = 0; i < t.nrow; i++)
            amax = fmax(amax, (F[i] - FR[i]) / m);
        MEASURE("frdyn2.break.a_max", amax);
        CHECK_REL(amax, (1.05 * Fs - mu_d * m * g) / m, 5e-3,
                  "break-away: max acceleration = (F_E - F_d)/m (seed 002 eq. 8)");
        csv_free(&t);
    }

    /* Steps of 0.95 Fs (seed 002 Sect. 5, Fig. 6): |F_R| <= Fs throughout;
     * final u = 1.12e-6 m for tE = 0.1 s (Fig. 7c) and 2.27e-6 m for
     * tE = 1 ms (Fig. 8c, the dynamic break-away), within 2 %. */
    const struct {
        const char *tE;
        double u_end; /* seed 002, NAN: not given */
    } steps[] = {{"tE=0.1", 1.12e-6}, {"tE=0.01", NAN}, {"tE=0.001", 2.27e-6}, {"tE=0.0001", NAN}};
    for (int k = 0; k < 4; k++) {
        const char *defs[] = {"ratio=0.95", steps[k].tE};
        char name[64];
        snprintf(name, sizeof name, "frdyn2_step%d.csv", k);
        const char *csv = test_out(name);
        if (run(mod, csv, defs, 2) != JNT_OK || csv_load(csv, &t) != 0) {
            CHECK(0, "step %s ran and wrote a valid CSV", steps[k].tE);
            continue;
        }
        double *FR = csv_col(&t, "F_R"), *u = csv_col(&t, "u"), frmax = 0;
        for (int i = 0; i < t.nrow; i++)
            frmax = fmax(frmax, fabs(FR[i]));
        char key[64];
        snprintf(key, sizeof key, "frdyn2.step%d.fr_max", k);
        MEASURE(key, frmax);
        snprintf(key, sizeof key, "frdyn2.step%d.u_end", k);
        MEASURE(key, u[t.nrow - 1]);
        CHECK(frmax <= Fs * (1 + 1e-12), "step %s: max |F_R| = %.6g <= Fs = %.6g (seed 002 Sect. 5)",
              steps[k].tE, frmax, Fs);
        if (!isnan(steps[k].u_end))
            CHECK_REL(u[t.nrow - 1], steps[k].u_end, 0.02, "step final u (seed 002 Figs. 7c, 8c)");
        else
            printf("INFO: step %s: final u = %.4g m\n", steps[k].tE, u[t.nrow - 1]);
        csv_free(&t);
    }
    jnt_model_free(mod);
    return check_done();
}
