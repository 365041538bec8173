/*
 * test_lugre.c: examples/lugre_stickslip.jnt against seed 001 (Bauchau,
 * Ferri et al.), example E3 and the integrator comparison of parts E/F
 * (digest Sect. 2.8 and E3, Table "Integrator comparison").
 */
#include <math.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

static const char *model_path = "examples/lugre_stickslip.jnt";

/* Run with overrides (integrator, step, tolerances, one -D assignment or
 * NULL); returns the status and fills *t. */
static int run(jnt_model *mod, const char *csv, jnt_run_opts o, const char *def, csv_table *t,
               char *err, size_t nerr)
{
    jnt_data *d = jnt_data_new(mod);
    o.csv_path = csv;
    int rc = def ? jnt_set_param_text(mod, d, def) : JNT_OK;
    if (rc == JNT_OK)
        rc = jnt_run(mod, d, &o);
    snprintf(err, nerr, "%s", jnt_data_error(d));
    jnt_data_free(d);
    if (rc == JNT_OK && csv_load(csv, t) != 0)
        rc = JNT_ERR_IO;
    return rc;
}

int main(void)
{
    jnt_model *mod;
    CHECK(jnt_compile_file(model_path, NULL, &mod) == JNT_OK, "compile %s", model_path);
    if (!mod)
        return check_done();
    char err[512];
    csv_table ref, rk, ra;

    /* the model's own setting, BDF (CVODE) with rtol 1e-10, and a tighter
     * reference: at rtol 1e-10 the friction force is only good to ~1e-5 N
     * near the slip-to-stick transitions, the size of the rk4 bound below */
    jnt_run_opts bdf12 = {.rtol = 1e-12, .atol = 1e-14};
    int ok = run(mod, test_out("lugre_bdf10.csv"), (jnt_run_opts){0}, NULL, &rk, err, sizeof err)
             == JNT_OK;
    CHECK(ok, "the example as written (bdf, rtol 1e-10) runs %s", err);
    ok = run(mod, test_out("lugre_ref.csv"), bdf12, NULL, &ref, err, sizeof err) == JNT_OK;
    CHECK(ok, "reference run (bdf, rtol 1e-12) %s", err);
    if (!ok)
        return check_done();
    double *tr = ref.col[0], *vr = csv_col(&ref, "v"), *Fr = csv_col(&ref, "F_L");
    int n = ref.nrow;
    {
        double *Fb = csv_col(&rk, "F_L"), e = 0;
        for (int i = 0; i < n && i < rk.nrow; i++)
            e = fmax(e, fabs(Fb[i] - Fr[i]));
        printf("INFO: bdf rtol 1e-10 vs rtol 1e-12: max |dF_L| = %.3g N\n", e);
        MEASURE("lugre.bdf10_vs_ref", e);
        csv_free(&rk);
    }

    /* peak slip velocity about 0.37 m/s (digest E3: lambda_max = 2.62e4 nondimensional
     * implies max |y2| ~ 370, i.e. 0.37 m/s); 5 % */
    double vmax = 0;
    for (int i = 0; i < n; i++)
        vmax = fmax(vmax, fabs(vr[i]));
    MEASURE("lugre.v_peak", vmax);
    CHECK_REL(vmax, 0.37, 0.05, "peak slip velocity (seed 001 E3, lambda_max = V sigma0 / F_C)");

    /* periodic stick-slip: over 60 s the slip onsets (v rising through 1 cm/s)
     * after the first are evenly spaced */
    csv_table lg;
    if (run(mod, test_out("lugre_60s.csv"), (jnt_run_opts){0}, "t_end=60", &lg, err, sizeof err)
        == JNT_OK) {
        double onset[64], *tl = lg.col[0], *vl = csv_col(&lg, "v");
        int no = 0;
        for (int i = 1; i < lg.nrow && no < 64; i++)
            if (vl[i - 1] < 0.01 && vl[i] >= 0.01)
                onset[no++] = tl[i];
        CHECK(no >= 5, "stick-slip: %d slip phases in 60 s", no);
        MEASURE("lugre.slip_phases", no);
        if (no >= 5) {
            double p0 = onset[2] - onset[1], dev = 0;
            for (int k = 2; k + 1 < no; k++)
                dev = fmax(dev, fabs((onset[k + 1] - onset[k]) - p0));
            CHECK(dev < 0.01 * p0, "stick-slip is periodic: period %.4f s, spread %.2g s", p0, dev);
            MEASURE("lugre.period", p0);
            MEASURE("lugre.period_spread", dev);
        }
        csv_free(&lg);
    } else {
        CHECK(0, "60 s run: %s", err);
    }

    /* RK4 with h = 1e-4 s stays within 1e-5 N of the reference friction force
     * (the bound; seed 001 Table: RK4 at nondimensional 1e-3 gives 3.98e-4 N) */
    jnt_run_opts rk4 = {.integrator = "rk4", .h = 1e-4};
    if (run(mod, test_out("lugre_rk4.csv"), rk4, NULL, &rk, err, sizeof err) == JNT_OK) {
        double *Fk = csv_col(&rk, "F_L"), e = 0;
        for (int i = 0; i < n && i < rk.nrow; i++)
            e = fmax(e, fabs(Fk[i] - Fr[i]));
        CHECK(rk.nrow == n && e < 1e-5, "rk4 h = 1e-4 s: max |F_L - F_ref| = %.3g N < 1e-5 N", e);
        MEASURE("lugre.rk4_err", e);
        csv_free(&rk);
    } else {
        CHECK(0, "rk4 h = 1e-4 s runs: %s", err);
    }

    /* Radau IIA with h = 7.07e-3 s (nondimensional 1e-2) is stable and its
     * max error is of the order of seed 001's 9.33e-2 N (between 1/10 and 10 times) */
    jnt_run_opts radau = {.integrator = "radau", .h = 7.07e-3};
    if (run(mod, test_out("lugre_radau.csv"), radau, NULL, &ra, err, sizeof err) == JNT_OK) {
        double *Fa = csv_col(&ra, "F_L"), *ta = ra.col[0], e = 0;
        int j = 0;
        for (int i = 0; i < ra.nrow; i++) {
            while (j + 1 < n && tr[j + 1] <= ta[i])
                j++;
            if (fabs(tr[j] - ta[i]) < 1e-9)
                e = fmax(e, fabs(Fa[i] - Fr[j]));
        }
        printf("INFO: radau h = 7.07e-3 s: max |F_L - F_ref| = %.3g N (seed 001: 9.33e-2 N)\n", e);
        MEASURE("lugre.radau_err", e);
        CHECK(e > 9.33e-3 && e < 0.933, "radau h = 7.07e-3 s: max error %.3g N is of the order "
                                        "of seed 001's 9.33e-2 N", e);
        csv_free(&ra);
    } else {
        CHECK(0, "radau h = 7.07e-3 s runs: %s", err);
    }

    /* RK4 at nondimensional h = 1e-3 (7.07e-4 s): seed 001 reports a max error
     * of 3.98e-4 N; in slip the bristle mode has lambda = -|V| sigma0 / F_C, about
     * -3.7e4 1/s, so h lambda ~ -26, far outside RK4's real stability interval
     * (-2.785, 0): the step is unstable. The nonlinearity keeps the states
     * bounded, but the friction force is wrong by more than the friction level
     * itself (docs/laws.md discusses this). */
    jnt_run_opts rkbig = {.integrator = "rk4", .h = 7.07e-4};
    int rc = run(mod, test_out("lugre_rk4_big.csv"), rkbig, NULL, &rk, err, sizeof err);
    if (rc == JNT_OK) {
        double *Fk = csv_col(&rk, "F_L"), e = 0;
        for (int i = 0; i < n && i < rk.nrow; i++)
            e = fmax(e, fabs(Fk[i] - Fr[i]));
        CHECK(e > 1.0, "rk4 h = 7.07e-4 s is unstable in slip: max |F_L - F_ref| = %.3g N > 1 N", e);
        MEASURE("lugre.rk4_big_err", e);
        csv_free(&rk);
    } else {
        CHECK(rc == JNT_ERR_NONFINITE, "rk4 h = 7.07e-4 s diverges in slip (%s)", err);
    }
    /* docs/laws.md's table of RK4 steps around the stability bound
     * h < 2.785 F_C / (sigma0 |V|max) = 7.5e-5 s: the max error at each
     * (MEASURE lines, no bound: 1e-4 s above and 7.07e-4 s are the checks) */
    static const double hs[] = {5e-5, 7.5e-5, 1.2e-4, 1.5e-4, 2e-4, 3e-4};
    static const char *const hkey[] = {"lugre.rk4_table.5e-5", "lugre.rk4_table.7.5e-5",
                                       "lugre.rk4_table.1.2e-4", "lugre.rk4_table.1.5e-4",
                                       "lugre.rk4_table.2e-4", "lugre.rk4_table.3e-4"};
    for (int k = 0; k < 6; k++) {
        jnt_run_opts rkh = {.integrator = "rk4", .h = hs[k]};
        if (run(mod, test_out("lugre_rk4_h.csv"), rkh, NULL, &rk, err, sizeof err) != JNT_OK)
            continue;
        double *Fk = csv_col(&rk, "F_L"), e = 0;
        for (int i = 0; i < n && i < rk.nrow; i++)
            e = fmax(e, fabs(Fk[i] - Fr[i]));
        MEASURE(hkey[k], e);
        csv_free(&rk);
    }
    /* the implicit trapezoidal rule at seed 001's h = 5e-3 (3.535e-3 s), and
     * how long the reference is beyond RK4's bound at h = 1e-4 s */
    jnt_run_opts trap = {.integrator = "trapezoidal", .h = 3.535e-3};
    if (run(mod, test_out("lugre_trap.csv"), trap, NULL, &ra, err, sizeof err) == JNT_OK) {
        double *Fa = csv_col(&ra, "F_L"), *ta = ra.col[0], e = 0;
        int j = 0;
        for (int i = 0; i < ra.nrow; i++) {
            while (j + 1 < n && tr[j + 1] <= ta[i])
                j++;
            if (fabs(tr[j] - ta[i]) < 1e-9)
                e = fmax(e, fabs(Fa[i] - Fr[j]));
        }
        MEASURE("lugre.trap_err", e);
        csv_free(&ra);
    }
    double fast = 0;
    for (int i = 1; i < n; i++)
        if (fabs(vr[i]) > 0.2785)
            fast += tr[i] - tr[i - 1];
    MEASURE("lugre.time_beyond_rk4_bound", fast);
    /* stick eigenvalues at rest (digest E3, claim 10): 0 and -111.94 +/- 193.57i
     * in time nondimensionalised by omega_n = sqrt(K/M); our time is in s */
    jnt_data *d = jnt_data_new(mod);
    double re[3], im[3], wn = sqrt(2.0);
    if (jnt_init_state(mod, d) == JNT_OK && jnt_eigenvalues(mod, d, re, im) == JNT_OK) {
        int iz = 0, ic = 0;
        for (int i = 0; i < 3; i++) {
            if (fabs(re[i]) + fabs(im[i]) < fabs(re[iz]) + fabs(im[iz]))
                iz = i;
            if (im[i] > 0)
                ic = i;
        }
        CHECK_NEAR(re[iz] / wn + fabs(im[iz]) / wn, 0, 1e-9, "stick eigenvalue 0 (seed 001 E3)");
        CHECK_REL(re[ic] / wn, -111.94, 5e-4, "stick eigenvalue real part (seed 001 E3)");
        CHECK_REL(im[ic] / wn, 193.57, 5e-4, "stick eigenvalue imaginary part (seed 001 E3)");
    } else {
        CHECK(0, "eigenvalues at rest: %s", jnt_data_error(d));
    }
    jnt_data_free(d);
    csv_free(&ref);
    jnt_model_free(mod);
    return check_done();
}
