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

/* Run with an integrator override; returns the status and fills *t. */
static int run(jnt_model *mod, const char *csv, const char *integ, double h, csv_table *t,
               char *err, size_t nerr)
{
    jnt_data *d = jnt_data_new(mod);
    jnt_run_opts o = {.csv_path = csv, .integrator = integ, .h = h};
    int rc = jnt_run(mod, d, &o);
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

    /* reference: BDF (CVODE) with rtol 1e-10, the model's own setting */
    int ok = run(mod, test_out("lugre_ref.csv"), NULL, 0, &ref, err, sizeof err) == JNT_OK;
    CHECK(ok, "reference run (bdf, rtol 1e-10) %s", err);
    if (!ok)
        return check_done();
    double *tr = ref.col[0], *vr = csv_col(&ref, "v"), *Fr = csv_col(&ref, "F_L");
    int n = ref.nrow;

    /* peak slip velocity about 0.37 m/s (digest E3: lambda_max = 2.62e4 nondimensional
     * implies max |y2| ~ 370, i.e. 0.37 m/s); 5 % */
    double vmax = 0;
    for (int i = 0; i < n; i++)
        vmax = fmax(vmax, fabs(vr[i]));
    CHECK_REL(vmax, 0.37, 0.05, "peak slip velocity (seed 001 E3, lambda_max = V sigma0 / F_C)");

    /* periodic stick-slip: slip onsets (v rising through 1 cm/s) are evenly spaced */
    double onset[64];
    int no = 0;
    for (int i = 1; i < n && no < 64; i++)
        if (vr[i - 1] < 0.01 && vr[i] >= 0.01)
            onset[no++] = tr[i];
    CHECK(no >= 4, "stick-slip: %d slip phases in 20 s", no);
    if (no >= 4) {
        double p0 = onset[2] - onset[1], dev = 0;
        for (int k = 2; k + 1 < no; k++)
            dev = fmax(dev, fabs((onset[k + 1] - onset[k]) - p0));
        CHECK(dev < 0.01 * p0, "stick-slip is periodic: period %.4f s, spread %.2g s", p0, dev);
    }

    /* RK4 with h = 1e-4 s stays within 1e-5 N of the reference friction force
     * (the bound; seed 001 Table: RK4 at nondimensional 1e-3 gives 3.98e-4 N) */
    if (run(mod, test_out("lugre_rk4.csv"), "rk4", 1e-4, &rk, err, sizeof err) == JNT_OK) {
        double *Fk = csv_col(&rk, "F_L"), e = 0;
        for (int i = 0; i < n && i < rk.nrow; i++)
            e = fmax(e, fabs(Fk[i] - Fr[i]));
        CHECK(rk.nrow == n && e < 1e-5, "rk4 h = 1e-4 s: max |F_L - F_ref| = %.3g N < 1e-5 N", e);
        csv_free(&rk);
    } else {
        CHECK(0, "rk4 h = 1e-4 s runs: %s", err);
    }

    /* Radau IIA with h = 7.07e-3 s (nondimensional 1e-2) is stable and its
     * max error is of the order of seed 001's 9.33e-2 N (between 1/10 and 10 times) */
    if (run(mod, test_out("lugre_radau.csv"), "radau", 7.07e-3, &ra, err, sizeof err) == JNT_OK) {
        double *Fa = csv_col(&ra, "F_L"), *ta = ra.col[0], e = 0;
        int j = 0;
        for (int i = 0; i < ra.nrow; i++) {
            while (j + 1 < n && tr[j + 1] <= ta[i])
                j++;
            if (fabs(tr[j] - ta[i]) < 1e-9)
                e = fmax(e, fabs(Fa[i] - Fr[j]));
        }
        printf("INFO: radau h = 7.07e-3 s: max |F_L - F_ref| = %.3g N (seed 001: 9.33e-2 N)\n", e);
        CHECK(e > 9.33e-3 && e < 0.933, "radau h = 7.07e-3 s: max error %.3g N is of the order "
                                        "of seed 001's 9.33e-2 N", e);
        csv_free(&ra);
    } else {
        CHECK(0, "radau h = 7.07e-3 s runs: %s", err);
    }

    /* RK4 at nondimensional h = 1e-3 (7.07e-4 s): seed 001 reports it stable;
     * in slip the bristle mode has lambda = -|V| sigma0 / F_C ~ -3.7e4 1/s, so
     * h lambda ~ -26, far outside RK4's real stability interval (-2.785, 0):
     * it must diverge (docs/laws.md discusses this). */
    int rc = run(mod, test_out("lugre_rk4_big.csv"), "rk4", 7.07e-4, &rk, err, sizeof err);
    CHECK(rc == JNT_ERR_NONFINITE, "rk4 h = 7.07e-4 s diverges in slip (%s)", err);
    if (rc == JNT_OK)
        csv_free(&rk);
    csv_free(&ref);
    jnt_model_free(mod);
    return check_done();
}
