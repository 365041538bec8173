/*
 * test_car_pendulum.c: examples/car_pendulum.jnt, the 2D car pendulum of
 * seed 000 Sect. 6 (issue 13, check 6): the car on its spring carrying the
 * three-layer sheet as a flexible2d body, the point mass at its end.
 *   - the committed mesh (examples/car_pendulum/) is the generator's output
 *     (lap3.h at 1.25 mm; regenerate with
 *     build/tests/test_car_pendulum --generate examples/car_pendulum);
 *   - Sect. 6.1, Fig. 17 (FORCE0, linear penalty (A), no friction): the
 *     contact force norm |f_c| of bases with 0, 10 and all (18) JTVs and
 *     with 20 more normal modes instead, against the largest basis (40 more
 *     normal modes and the JTVs): it converges with the JTVs, and the JTVs
 *     beat as many normal modes;
 *   - Sect. 6.2, Fig. 18: every law of Table 7 in each case (FORCE0,
 *     FORCE1, GRAVITY; adaptive HHT): CPU time, steps and Jacobian updates,
 *     a table written to car_pendulum_fig18.md beside the test's output,
 *     with the paper's ranking beside ours (reported, not tuned);
 *   - Sect. 6.3, Fig. 20: with coulomb3 friction (mu = 0.15) and the
 *     joint-adapted exponential law, FORCE1: the eq. 42 error of
 *     y_c - y_pm with 20 more normal modes and with the JTVs against the
 *     largest basis.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"
#include "lap3.h"

static const char *model_path = "examples/car_pendulum.jnt";

#define BASE "reduce = modal(modes = %d) + static(at = {load, pin1, pin2})"
#define JTV " + jtv(count = %d, pairs = {joint_a, joint_b}, comp = uy, " \
            "dkdg = 2 * eps_N * lam_N * A)"

/* One run: basis `reduce` (NULL: the file's), contact law `law` (NULL:
 * the file's), friction or not, the -D assignments defs (NULL-terminated);
 * the file's adaptive HHT (rtol 1e-5). Loads the CSV into *t and the
 * statistics into *st. JNT_OK or an error status (a message printed). */
static int run(const char *tag, const char *reduce, const char *law, int friction,
               const char *const *defs, csv_table *t, jnt_stats *st)
{
    char *text = lap3_text(model_path, "car_pendulum/", "examples/car_pendulum", reduce, law,
                           friction);
    jnt_model *m = NULL;
    int rc = text ? jnt_compile_string(tag, text, NULL, &m) : JNT_ERR_IO;
    free(text);
    memset(t, 0, sizeof *t);
    if (rc != JNT_OK) {
        printf("INFO: %s does not compile (%d)\n", tag, rc);
        return rc;
    }
    char csv[512];
    snprintf(csv, sizeof csv, "%s.csv", test_out(tag));
    jnt_data *d = jnt_data_new(m);
    for (int i = 0; defs && defs[i] && rc == JNT_OK; i++)
        rc = jnt_set_param_text(m, d, defs[i]);
    jnt_run_opts o = {0};
    o.csv_path = csv;
    if (rc == JNT_OK)
        rc = jnt_run(m, d, &o);
    if (rc != JNT_OK)
        printf("INFO: run %s: %s\n", tag, jnt_data_error(d));
    if (st)
        *st = *jnt_data_stats(d);
    jnt_data_free(d);
    jnt_model_free(m);
    if (rc == JNT_OK && csv_load(csv, t) != 0)
        rc = JNT_ERR_IO;
    return rc;
}

/* RMS of a - b over the rows, relative to the RMS of b. */
static double rms_rel(const csv_table *ta, const csv_table *tb, const char *col)
{
    const double *a = csv_col(ta, col), *b = csv_col(tb, col);
    if (!a || !b || ta->nrow != tb->nrow)
        return INFINITY;
    double e = 0, r = 0;
    for (int k = 0; k < tb->nrow; k++)
        e += (a[k] - b[k]) * (a[k] - b[k]), r += b[k] * b[k];
    return sqrt(e / r);
}

/* Sect. 6.1, Fig. 17. */
static void fig17(void)
{
    static const char *const defs[] = {"t_end = 0.3 s", NULL};
    static const char *const law = "penalty(eps_N = 400 N/mm^3)"; /* Table 7 (A) */
    char red[5][512];
    snprintf(red[0], sizeof red[0], BASE, 5);
    snprintf(red[1], sizeof red[1], BASE JTV, 5, 10);
    snprintf(red[2], sizeof red[2], BASE JTV, 5, 20);
    snprintf(red[3], sizeof red[3], BASE, 25);
    snprintf(red[4], sizeof red[4], BASE JTV, 45, 20);
    static const char *const tags[5] = {"cp_jtv0", "cp_jtv10", "cp_jtv20", "cp_nm20", "cp_ref"};
    csv_table t[5];
    int ok = 1;
    for (int c = 0; c < 5; c++) {
        jnt_stats st = {0};
        int rc = run(tags[c], red[c], law, 0, defs, &t[c], &st);
        CHECK(rc == JNT_OK, "Fig. 17: %s runs (%ld steps, %ld Jacobians, %.2f s CPU)", tags[c],
              st.steps, st.jac_evals, st.cpu_seconds);
        ok &= rc == JNT_OK;
    }
    if (ok) {
        double e[4];
        for (int c = 0; c < 4; c++)
            e[c] = rms_rel(&t[c], &t[4], "fc");
        printf("INFO: Fig. 17 (FORCE0, law A, to 0.3 s): RMS error of |f_c| against 5 NM + 6 "
               "static + 40 NM + JTVs: 0 JTV %.3g, 10 JTV %.3g, all JTVs (18) %.3g, 20 NM %.3g\n",
               e[0], e[1], e[2], e[3]);
        CHECK(e[0] > e[1] && e[1] > e[2], "|f_c| converges with the JTVs: %.3g > %.3g > %.3g",
              e[0], e[1], e[2]);
        CHECK(e[2] < e[3], "the JTVs beat 20 more normal modes: %.3g < %.3g", e[2], e[3]);
    }
    for (int c = 0; c < 5; c++)
        csv_free(&t[c]);
}

/* Table 7's laws (the //@law lines of examples/contact_laws.jnt). */
static const struct {
    const char *tag, *law, *name;
} laws[] = {
    {"A", "penalty(eps_N = 400 N/mm^3)", "linear"},
    {"B", "penalty2(eps_N0 = 133 N/mm^3, eps_N1 = 667 N/mm^3, g0 = 0 um, g1 = -1.25 um)",
     "two-stage linear"},
    {"C1", "penalty_power(eps_N = 0.16 N/mm^2, m = 2, g_ref = 1 um)", "power, m = 2"},
    {"C2", "penalty_power(eps_N = 4.86e-2 N/mm^2, m = 3.3, g_ref = 1 um)", "power, m = 3.3"},
    {"D", "penalty_exp(p0 = 1.23e-4 N/mm^2, g0 = 0.4 um)", "exponential"},
    {"E", "penalty_quadlin(eps_N = 0.57 N/mm^2/um, g0 = 0 um, g1 = -1.5 um)",
     "quadratic-linear"},
    {"F", "penalty_jointexp(eps_N = 617 N/mm^3, lambda_N = 200 /mm, g0 = 0 um)",
     "joint-adapted exponential"},
};
enum { NLAW = sizeof laws / sizeof laws[0], NCASE = 3 };
static const char *const case_names[NCASE] = {"FORCE0", "FORCE1", "GRAVITY"};
static const char *const case_defs[NCASE][3] = {
    {"f0 = 5 N", NULL}, {"force1 = 1", NULL}, {"f0 = 0 N", "g = 9.81 m/s^2", NULL}};

/* Sect. 6.2, Fig. 18: every law in every case, 2.5 s, no friction, the
 * example's basis, adaptive HHT (rtol 1e-5): the effort per law and case. */
static void fig18(void)
{
    static jnt_stats st[NLAW][NCASE];
    static int ok[NLAW][NCASE];
    char red[512];
    snprintf(red, sizeof red, BASE JTV, 5, 20);
    for (int l = 0; l < NLAW; l++)
        for (int c = 0; c < NCASE; c++) {
            char tag[64];
            snprintf(tag, sizeof tag, "cp_%s_%d", laws[l].tag, c);
            csv_table t;
            ok[l][c] = run(tag, red, laws[l].law, 0, case_defs[c], &t, &st[l][c]) == JNT_OK;
            CHECK(ok[l][c], "Fig. 18: law %s (%s), %s runs 2.5 s (%ld steps, %ld Jacobians, "
                  "%.2f s CPU)", laws[l].tag, laws[l].name, case_names[c], st[l][c].steps,
                  st[l][c].jac_evals, st[l][c].cpu_seconds);
            csv_free(&t);
        }
    /* the table, with the average over the cases (Fig. 18a) relative to law F */
    FILE *f = fopen(test_out("car_pendulum_fig18.md"), "w");
    FILE *outs[2] = {stdout, f};
    for (int o = 0; o < 2; o++) {
        FILE *w = outs[o];
        if (!w)
            continue;
        const char *px = o == 0 ? "INFO: " : "";
        fprintf(w, "%s| law | case | CPU (s) | steps | rejected | Jacobians | LU |\n", px);
        fprintf(w, "%s|---|---|---:|---:|---:|---:|---:|\n", px);
        for (int l = 0; l < NLAW; l++)
            for (int c = 0; c < NCASE; c++)
                fprintf(w, "%s| %s %s | %s | %.2f | %ld | %ld | %ld | %ld |\n", px, laws[l].tag,
                        laws[l].name, case_names[c], st[l][c].cpu_seconds, st[l][c].steps,
                        st[l][c].rejected, st[l][c].jac_evals, st[l][c].lu_decomps);
        fprintf(w, "%s\n%s| law | CPU averaged over the cases, relative to F |\n%s|---|---:|\n",
                px, px, px);
        double avgF = 0;
        for (int c = 0; c < NCASE; c++)
            avgF += st[NLAW - 1][c].cpu_seconds / NCASE;
        for (int l = 0; l < NLAW; l++) {
            double avg = 0;
            for (int c = 0; c < NCASE; c++)
                avg += st[l][c].cpu_seconds / NCASE;
            fprintf(w, "%s| %s %s | %.2f |\n", px, laws[l].tag, laws[l].name, avg / avgF);
        }
        /* the paper's ranking beside ours: the dearest law per case */
        fprintf(w, "%s\n%s| case | dearest law here | cheapest law here | the paper (Fig. 18) |"
                   "\n%s|---|---|---|---|\n", px, px, px);
        static const char *const paper[NCASE] = {
            "A (linear) cheapest, steps and Jacobians at one level",
            "A (linear) clearly dearest", "A (linear) clearly dearest"};
        for (int c = 0; c < NCASE; c++) {
            int hi = 0, lo = 0;
            for (int l = 1; l < NLAW; l++) {
                hi = st[l][c].cpu_seconds > st[hi][c].cpu_seconds ? l : hi;
                lo = st[l][c].cpu_seconds < st[lo][c].cpu_seconds ? l : lo;
            }
            fprintf(w, "%s| %s | %s | %s | %s |\n", px, case_names[c], laws[hi].tag,
                    laws[lo].tag, paper[c]);
        }
    }
    if (f)
        fclose(f);
    CHECK(f != NULL, "Fig. 18's table written to %s", test_out("car_pendulum_fig18.md"));
}

/* Sect. 6.3, Fig. 20: friction (coulomb3, mu = 0.15) with law F, FORCE1;
 * eq. 42's error of y_c - y_pm with 20 more normal modes and with the JTVs
 * against the largest basis. */
static void sect63(void)
{
    static const char *const defs[] = {"force1 = 1", NULL};
    char red[3][512];
    snprintf(red[0], sizeof red[0], BASE, 25);
    snprintf(red[1], sizeof red[1], BASE JTV, 5, 20);
    snprintf(red[2], sizeof red[2], BASE JTV, 45, 20);
    static const char *const tags[3] = {"cp63_nm20", "cp63_jtv", "cp63_ref"};
    csv_table t[3];
    int ok = 1;
    for (int c = 0; c < 3; c++) {
        jnt_stats st = {0};
        int rc = run(tags[c], red[c], NULL, 1, defs, &t[c], &st);
        CHECK(rc == JNT_OK, "Sect. 6.3: %s runs with friction (%ld steps, %.2f s CPU)", tags[c],
              st.steps, st.cpu_seconds);
        ok &= rc == JNT_OK;
    }
    if (ok && t[0].nrow == t[2].nrow && t[1].nrow == t[2].nrow) {
        /* eq. 42: eps = ((y_c - y_pm)_ref - (y_c - y_pm)_x) / mean((y_c - y_pm)_ref) */
        const double *ref = csv_col(&t[2], "rel");
        double mean = 0, e[2] = {0, 0};
        for (int k = 0; k < t[2].nrow; k++)
            mean += ref[k] / t[2].nrow;
        for (int c = 0; c < 2; c++) {
            const double *x = csv_col(&t[c], "rel");
            for (int k = 0; k < t[2].nrow; k++)
                e[c] = fmax(e[c], fabs((ref[k] - x[k]) / mean));
        }
        printf("INFO: Sect. 6.3 (coulomb3 mu 0.15, law F, FORCE1, 2.5 s): max |eq. 42 error| "
               "20 NM %.3g, JTVs %.3g, ratio %.2f (the paper: up to about 3)\n", e[0], e[1],
               e[0] / e[1]);
        CHECK(e[0] > e[1], "eq. 42: the normal modes' error exceeds the JTVs' (%.3g > %.3g)",
              e[0], e[1]);
    }
    for (int c = 0; c < 3; c++)
        csv_free(&t[c]);
}

int main(int argc, char **argv)
{
    /* the committed mesh is the generator's output */
    char dir[512];
    int rc;
    if (lap3_data(argc, argv, "car_pendulum", "examples/car_pendulum", 0.00125, 1, dir,
                  sizeof dir, &rc))
        return rc;
    /* the example as it is: FORCE0 with friction, its basis */
    csv_table t;
    jnt_stats st = {0};
    rc = run("car_pendulum", NULL, NULL, 1, NULL, &t, &st);
    CHECK(rc == JNT_OK && t.nrow == 2501, "examples/car_pendulum.jnt runs 2.5 s (%ld steps, "
          "%ld rejected, %.2f s CPU; constraint violation %.3g m)", st.steps, st.rejected,
          st.cpu_seconds, st.cons_max);
    if (rc == JNT_OK) {
        /* at rest under f0 the spring carries it: y_c -> f0 / k = 5 mm */
        const double *yc = csv_col(&t, "y_c");
        printf("INFO: car_pendulum.jnt: y_c at 2.5 s %.4g m (f0 / k = 5 mm), y_c - y_pm %.4g m\n",
               yc[t.nrow - 1], csv_col(&t, "rel")[t.nrow - 1]);
    }
    csv_free(&t);
    fig17();
    fig18();
    sect63();
    return check_done();
}
