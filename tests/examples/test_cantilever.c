/*
 * test_cantilever.c: examples/cantilever_modes.jnt against seed 001 E5
 * (digest E5: 13.71, 85.93, 240.6 rad/s) and Euler-Bernoulli theory
 * ((beta L)^2 sqrt(EI / (rho A L^4)), beta L = 1.8751, 4.6941, 7.8548): the
 * beam2d substructure unreduced, reduced to modes, and the same beam read
 * back from Matrix Market files.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/setup.h"
#include "jnt/jnt.h"

static const double paper[3] = {13.71, 85.93, 240.6};

/* The three lowest positive imaginary parts of the model's eigenvalues. */
static int frequencies(const char *name, const char *text, double w[3])
{
    jnt_model *m;
    int ok = text ? jnt_compile_string(name, text, NULL, &m) == JNT_OK
                  : jnt_compile_file(name, NULL, &m) == JNT_OK;
    if (!ok)
        return -1;
    const jnt_abi_model *a = jnt_model_abi(m);
    double *re = malloc((size_t)a->ny * sizeof *re), *im = malloc((size_t)a->ny * sizeof *im);
    jnt_data *d = jnt_data_new(m);
    int rc = jnt_init_state(m, d) == JNT_OK && jnt_eigenvalues(m, d, re, im) == JNT_OK ? 0 : -1;
    for (int k = 0; k < 3; k++) {
        double best = INFINITY;
        for (int i = 0; i < a->ny; i++)
            if (im[i] > 1e-9 && im[i] < best && (k == 0 || im[i] > w[k - 1] * (1 + 1e-9)))
                best = im[i];
        w[k] = best;
    }
    free(re);
    free(im);
    jnt_data_free(d);
    jnt_model_free(m);
    return rc;
}

/* the largest relative difference from Euler-Bernoulli over the cases run */
static double eb_dev;

static void check(const char *what, const double w[3])
{
    static const double bl[3] = {1.87510407, 4.69409113, 7.85475744};
    double EI = 7.3e10 * 1.325e-10, rhoA = 0.636;
    for (int k = 0; k < 3; k++) {
        double eb = bl[k] * bl[k] * sqrt(EI / rhoA);
        eb_dev = fmax(eb_dev, fabs(w[k] - eb) / eb);
        CHECK(fabs(w[k] - paper[k]) <= 5e-3 * paper[k],
              "%s: mode %d = %.4f rad/s vs seed 001 E5 %.2f (0.5 %%)", what, k + 1, w[k], paper[k]);
        CHECK(fabs(w[k] - eb) <= 1e-3 * eb, "%s: mode %d = %.4f rad/s vs Euler-Bernoulli %.4f "
                                            "(0.1 %%)", what, k + 1, w[k], eb);
    }
}

int main(void)
{
    double w[3];
    CHECK(frequencies("examples/cantilever_modes.jnt", NULL, w) == 0, "the example runs");
    check("beam2d, 8 modes", w);
    /* the example's (8 modes) frequencies: its header and docs/substructures.md */
    MEASURE("cantilever.w1", w[0]);
    MEASURE("cantilever.w2", w[1]);
    MEASURE("cantilever.w3", w[2]);

    const char *full = "const w = 20 mm\nconst h = (12 * 1.325e-10 m^4 / w)^(1/3)\n"
                       "substructure beam : beam2d(length = 1 m, height = h, width = w,\n"
                       "  E = 7.3e10 Pa, rho = 0.636 kg/m / (w * h), elements = 24) { fix = left }\n"
                       "analysis modes : linear(at = 0 s)\n";
    CHECK(frequencies("full", full, w) == 0, "the unreduced beam runs");
    check("beam2d, unreduced", w);
    MEASURE("cantilever.full.w1", w[0]);
    MEASURE("cantilever.full.w2", w[1]);
    MEASURE("cantilever.full.w3", w[2]);

    /* analysis modes: a Craig-Bampton reduction of the clamped beam keeping the
     * tip, against the full model: frequencies from above (Rayleigh-Ritz), within
     * 1 % for the lowest three, and MAC near 1 */
    {
        const char *cb = "const w = 20 mm\nconst h = (12 * 1.325e-10 m^4 / w)^(1/3)\n"
                         "substructure beam : beam2d(length = 1 m, height = h, width = w,\n"
                         "  E = 7.3e10 Pa, rho = 0.636 kg/m / (w * h), elements = 24) {\n"
                         "  fix = left\n  reduce = craig_bampton(modes = 3, keep = tip) }\n"
                         "analysis cbm : modes(of = beam, count = 3)\n";
        jnt_model *m;
        csv_table t;
        int ok = jnt_compile_string("cb", cb, NULL, &m) == JNT_OK;
        if (ok) {
            jnt_data *d = jnt_data_new(m);
            char dir[512];
            snprintf(dir, sizeof dir, "%s", test_out(""));
            dir[strlen(dir) - 1] = 0;
            ok = jnt_run_analyses(m, d, dir) == JNT_OK && csv_load(test_out("cbm.csv"), &t) == 0;
            jnt_data_free(d);
            jnt_model_free(m);
        }
        CHECK(ok && t.nrow == 3, "analysis modes of a Craig-Bampton beam writes 3 rows");
        if (ok) {
            double *e = csv_col(&t, "rel_error"), *mac = csv_col(&t, "MAC");
            for (int k = 0; k < 3; k++) {
                CHECK(e[k] >= -1e-9 && e[k] < 0.01, "Craig-Bampton mode %d: frequency error %.2g "
                                                     "(from above, < 1 %%)", k + 1, e[k]);
                CHECK(mac[k] > 0.999, "Craig-Bampton mode %d: MAC %.6f with the full mode", k + 1,
                      mac[k]);
                char key[64];
                snprintf(key, sizeof key, "cantilever.cb.err%d", k + 1);
                MEASURE(key, e[k]);
            }
            csv_free(&t);
        }
    }

    /* the same beam exported to Matrix Market and imported with 'fe' */
    fe_model fe;
    char err[256];
    double wd = 0.02, h = cbrt(12 * 1.325e-10 / wd);
    int rc = fe_beam2d(&fe, 1, h, wd, 7.3e10, 0.3, 0.636 / (wd * h), 24, err, sizeof err);
    if (rc == 0)
        rc = fe_write_model(&fe, test_out("cant_M.mtx"), test_out("cant_K.mtx"), NULL,
                            test_out("cant_nodes.csv"), err, sizeof err);
    CHECK(rc == 0, "export the beam to Matrix Market: %s", rc ? err : "ok");
    fe_free(&fe);
    char text[1024];
    snprintf(text, sizeof text,
             "substructure beam : fe(mass = \"%s\", stiffness = \"%s\", nodes = \"%s\") {\n"
             "  fix = left\n  reduce = modal(modes = 8)\n}\n"
             "analysis modes : linear(at = 0 s)\n",
             test_out("cant_M.mtx"), test_out("cant_K.mtx"), test_out("cant_nodes.csv"));
    CHECK(frequencies("imported", text, w) == 0, "the imported beam runs");
    check("fe import, 8 modes", w);
    MEASURE("cantilever.eb_dev", eb_dev);
    return check_done();
}
