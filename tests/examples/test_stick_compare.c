/*
 * test_stick_compare.c: docs/laws.md's "Stick under a constant load,
 * compared": examples/frdyn2_bench.jnt (a 1 kg block, N = 9.81 N, pushed by
 * step3 to 0.99 F_s = 0.99 * 5.886 N over 30 s and held to 300 s, BDF rtol
 * 1e-8, atol 1e-12) with its FrDyn2 law replaced by lugre, lugre_force,
 * stribeck_rill and coulomb_tanh at the bench's friction parameters (the
 * LuGre laws also at rtol 1e-11, atol 1e-15). For each: u(30 s),
 * u(300 s) - u(30 s) and |v(300 s)|, printed as MEASURE lines; checked: the
 * dynamic laws stop (FrDyn2 at F_E / sigma0, the LuGre laws after sliding
 * further during the ramp), the static ones creep at the speed where their
 * friction force equals the load (stribeck_rill: v_s (1 - sqrt(0.01)),
 * coulomb_tanh: v_reg atanh(0.99)). About a second of CPU.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

static const char *const frdyn2 =
    "frdyn2(mu_s = 0.6, v_s = 1 mm/s, mu_d = 0.3, v_d = 10 mm/s,\n"
    "                  sigma0 = 5e6 N/m, sigma1 = 3192.75 N*s/m)";

typedef struct {
    const char *key, *law;
    double rtol, atol; /* 0: the run's 1e-8, 1e-12 */
} case_t;

static const case_t cases[] = {
    {"frdyn2", NULL, 0, 0},
    {"lugre", "lugre(sigma0 = 5e6 N/m / (9.81 N), sigma1 = 3192.75 N*s/m / (9.81 N), mu_s = 0.6, "
              "mu_k = 0.3, v_s = 1 mm/s)", 0, 0},
    {"lugre_force", "lugre_force(sigma0 = 5e6 N/m, sigma1 = 3192.75 N*s/m, sigma2 = 0 N*s/m, "
                    "F_C = 0.3 * 9.81 N, F_S = 0.6 * 9.81 N, V_S = 1 mm/s)", 0, 0},
    {"lugre.tight", "lugre(sigma0 = 5e6 N/m / (9.81 N), sigma1 = 3192.75 N*s/m / (9.81 N), mu_s = 0.6, "
                    "mu_k = 0.3, v_s = 1 mm/s)", 1e-11, 1e-15},
    {"lugre_force.tight", "lugre_force(sigma0 = 5e6 N/m, sigma1 = 3192.75 N*s/m, "
                          "sigma2 = 0 N*s/m, F_C = 0.3 * 9.81 N, F_S = 0.6 * 9.81 N, "
                          "V_S = 1 mm/s)", 1e-11, 1e-15},
    {"stribeck_rill", "stribeck_rill(mu_s = 0.6, v_s = 1 mm/s, mu_d = 0.3, v_d = 10 mm/s)", 0, 0},
    {"coulomb_tanh", "coulomb_tanh(mu = 0.6, v_reg = 1 mm/s)", 0, 0},
};

/* the value of column col at the row nearest to time tt */
static double at(const csv_table *t, const char *col, double tt)
{
    const double *c = csv_col(t, col);
    int best = 0;
    for (int i = 1; i < t->nrow; i++)
        if (fabs(t->col[0][i] - tt) < fabs(t->col[0][best] - tt))
            best = i;
    return c ? c[best] : NAN;
}

int main(void)
{
    char *src = read_text("examples/frdyn2_bench.jnt");
    CHECK(src != NULL && strstr(src, frdyn2), "examples/frdyn2_bench.jnt has its frdyn2 law");
    if (!src || !strstr(src, frdyn2))
        return check_done();
    const double Fs = 0.6 * 9.81, FE = 0.99 * Fs;
    const char *defs[] = {"ratio=0.99", "tE=30", "t_end=300", "dt_out=0.5", NULL};
    double u30[7] = {0}, creep[7] = {0}, vend[7] = {0};
    int n = (int)(sizeof cases / sizeof cases[0]);
    for (int k = 0; k < n; k++) {
        const case_t *c = &cases[k];
        char *text = c->law ? text_sub(src, frdyn2, c->law) : strdup(src);
        jnt_model *m = NULL;
        int ok = text && jnt_compile_string(c->key, text, NULL, &m) == JNT_OK;
        free(text);
        CHECK(ok, "%s: compiles", c->key);
        if (!ok)
            continue;
        jnt_run_opts o = {.integrator = "bdf", .rtol = c->rtol ? c->rtol : 1e-8,
                          .atol = c->atol ? c->atol : 1e-12};
        char csv[96];
        snprintf(csv, sizeof csv, "stick_%s.csv", c->key);
        csv_table t;
        int rc = run_csv(m, test_out(csv), o, defs, &t);
        CHECK(rc == JNT_OK && t.nrow > 0, "%s: runs 300 s", c->key);
        if (rc == JNT_OK && t.nrow > 0) {
            u30[k] = at(&t, "u", 30);
            creep[k] = at(&t, "u", 300) - u30[k];
            vend[k] = fabs(at(&t, "v", 300));
            char key[64];
            snprintf(key, sizeof key, "stick.%s.u30", c->key);
            MEASURE(key, u30[k]);
            snprintf(key, sizeof key, "stick.%s.creep", c->key);
            MEASURE(key, creep[k]);
            snprintf(key, sizeof key, "stick.%s.creep_abs", c->key);
            MEASURE(key, fabs(creep[k]));
            snprintf(key, sizeof key, "stick.%s.v300", c->key);
            MEASURE(key, vend[k]);
            printf("INFO: %s: u(30 s) = %.6g m, u(300 s) - u(30 s) = %.3g m, |v(300 s)| = %.3g "
                   "m/s\n", c->key, u30[k], creep[k], vend[k]);
        }
        csv_free(&t);
        jnt_model_free(m);
    }
    /* FrDyn2 sticks at F_E / sigma0 */
    CHECK(fabs(u30[0] / (FE / 5e6) - 1) < 1e-3 && fabs(creep[0]) < 1e-12 && vend[0] < 1e-12,
          "frdyn2: u(30 s) = %.5g m = F_E / sigma0 (%.5g), no creep (%.2g m)", u30[0], FE / 5e6,
          creep[0]);
    /* the LuGre laws stop, after a pre-sliding larger than FrDyn2's */
    for (int k = 1; k <= 4; k++)
        CHECK(u30[k] > 2 * u30[0] && fabs(creep[k]) < (k <= 2 ? 1e-9 : 1e-12) &&
                  vend[k] < 1e-12,
              "%s: stops: u(30 s) = %.5g m, %.3g times FrDyn2's; creep %.2g m, |v| %.2g m/s",
              cases[k].key, u30[k], u30[k] / u30[0], creep[k], vend[k]);
    MEASURE("stick.lugre.ratio", u30[3] / u30[0]);
    /* the static laws creep where their force equals the load */
    CHECK(fabs(vend[5] / (1e-3 * (1 - sqrt(0.01))) - 1) < 1e-3, "stribeck_rill creeps at %.5g "
          "m/s = v_s (1 - sqrt(0.01))", vend[5]);
    CHECK(fabs(vend[6] / (1e-3 * atanh(0.99)) - 1) < 1e-3, "coulomb_tanh creeps at %.5g m/s = "
          "v_reg atanh(0.99)", vend[6]);
    free(src);
    return check_done();
}
