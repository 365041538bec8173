/*
 * test_iwan.c: examples/iwan_interface.jnt, seed 004's two-sided frictional
 * interface (K_eq = M_eq = 1, edge loads F0 sin(omega t), omega = pi/15):
 * model (a), the full differential model with masses
 * (examples/iwan_interface/full.jnt, dopri5), against model (b), the
 * reduced-order model: 10 modes of the elastic chain plus the massless
 * dissipative chain solved by the complementarity iteration
 * (examples/iwan_interface/rom.jnt, runtime/couple/chain.c).
 *
 *   1. The example itself (a and b side by side, n = 40, F0 = 0.3).
 *   2. n = 40, F0 in [0.05, 0.5]: D per cycle from (a) and (b) within 2 %
 *      (seed 004 Fig. 5), and (b) against the exact dissipation of the
 *      discrete massless chain (Masing, derived below).
 *   3. D proportional to F0^3 in microslip (log-log slope 3 +/- 0.05).
 *   4. n = 10, 20, 40, 100 (Figs. 8-9): the differences in D and in the
 *      dissipative part of Delta_1 between (a) and (b) decrease with n, and
 *      so does the whole Delta_1 once the 10 modes of the elastic chain get
 *      the static shapes of its two loaded ends (without them the modal
 *      truncation error grows with n towards its continuum value).
 *
 * D per cycle is taken over the third cycle (t from 60 s to 90 s), once the
 * start-up has passed; the slip strength of a slider is F_mac / n with
 * F_mac = 1 N (macroslip at F0 = 1 N).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define T_A 60.0 /* start and end of the third cycle, 2 pi / omega = 30 s */
#define T_B 90.0

/* Value of column `name` at the row nearest time tt. */
static double at(const csv_table *t, const char *name, double tt)
{
    const double *tc = csv_col(t, "t"), *c = csv_col(t, name);
    if (!tc || !c || t->nrow == 0)
        return NAN;
    int best = 0;
    for (int i = 1; i < t->nrow; i++)
        if (fabs(tc[i] - tt) < fabs(tc[best] - tt))
            best = i;
    return c[best];
}

/* Largest |a - b| of column `name` over [T_A, T_B] (same output grid). */
static double max_diff(const csv_table *a, const csv_table *b, const char *name)
{
    const double *t = csv_col(a, "t"), *x = csv_col(a, name), *y = csv_col(b, name);
    double m = 0;
    for (int i = 0; x && y && i < a->nrow && i < b->nrow; i++)
        if (t[i] >= T_A - 1e-9)
            m = fmax(m, fabs(x[i] - y[i]));
    return m;
}

/* The exact dissipation per cycle of the massless chain (n sliders of
 * strength fs, springs k/2 between neighbours) under the edge loads
 * A sin(omega t) at both ends, derived independently of runtime/couple/chain.c:
 * loading from rest to A, slider j of each end slips while the force
 * reaching it, A - (j - 1) fs, exceeds fs; the spring beyond slipping
 * slider i carries T_i = A - i fs, so q_j = sum_{i >= j} 2 T_i / k and each
 * end dissipates E = fs sum_j q_j. Masing: every load reversal of 2A
 * dissipates 2 E per end, a cycle has two reversals and there are two ends:
 * D = 8 E (while the slip zones of the two ends stay apart). */
static double exact_chain_d(int n, double k, double fs, double A)
{
    int m = (int)ceil(A / fs - 1e-12) - 1;
    if (2 * m >= n)
        return NAN;
    double e = 0;
    for (int j = 1; j <= m; j++)
        for (int i = j; i <= m; i++)
            e += fs * 2 * (A - i * fs) / k;
    return 8 * e;
}

static jnt_model *compile(const char *path)
{
    jnt_model *m = NULL;
    if (jnt_compile_file(path, NULL, &m) != JNT_OK)
        return NULL;
    return m;
}

/* D per cycle of a run: W (the sliders' work) for (a), D for (b). */
static double cycle_d(const csv_table *t, const char *col)
{
    return at(t, col, T_B) - at(t, col, T_A);
}

/* Run model m at F0 into a CSV named name; 0 on success. */
static int run_f0(const jnt_model *m, const char *name, double f0, csv_table *t)
{
    char def[64];
    snprintf(def, sizeof def, "F0=%.17g N", f0);
    const char *defs[] = {def, NULL};
    jnt_run_opts o = {0};
    return run_csv(m, test_out(name), o, defs, t);
}

/* 1. The example: (a) and (b) in one model. */
static void check_example(void)
{
    jnt_model *m = compile("examples/iwan_interface.jnt");
    CHECK(m != NULL, "examples/iwan_interface.jnt compiles");
    if (!m)
        return;
    csv_table t;
    int rc = run_f0(m, "iwan_interface.csv", 0.3, &t);
    CHECK(rc == JNT_OK, "the example runs");
    if (rc == JNT_OK) {
        double da = cycle_d(&t, "W_a"), db = cycle_d(&t, "D_b");
        double ex = exact_chain_d(40, 39, 1.0 / 40, 0.15);
        printf("INFO: example, F0 = 0.3 N: D_a = %.6g J, D_b = %.6g J, exact chain %.6g J, "
               "continuum F0^3/3 = %.6g J, paper's 8/3 F0^3 = %.6g J\n", da, db, ex, 0.009,
               8.0 / 3 * 0.027);
        /* seed 004 Fig. 5: (a) and (b) almost coincide; the issue asks 2 % */
        CHECK_REL(db, da, 0.02, "example: D of (b) against (a)");
        /* (b) against the exact massless-chain dissipation (derived above); the
         * chain's load increments are this model's dopri5 steps (h_max 20 ms) */
        CHECK_REL(db, ex, 1e-3, "example: D of (b) against the exact chain");
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* 2 and 3. n = 40 over F0. */
static void check_load_range(void)
{
    static const double f0[] = {0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5};
    enum { NF = sizeof f0 / sizeof f0[0] };
    jnt_model *ma = compile("examples/iwan_interface/full.jnt");
    jnt_model *mb = compile("examples/iwan_interface/rom.jnt");
    CHECK(ma && mb, "full.jnt and rom.jnt compile on their own");
    double db[NF];
    int ok = ma && mb;
    printf("INFO: n = 40: F0, D_a, D_b, exact chain, continuum F0^3/3 (J)\n");
    double worst_ab = 0, worst_ex = 0;
    for (int i = 0; i < NF && ok; i++) {
        csv_table ta, tb;
        int ra = run_f0(ma, "iwan_full.csv", f0[i], &ta);
        int rb = run_f0(mb, "iwan_rom.csv", f0[i], &tb);
        CHECK(ra == JNT_OK && rb == JNT_OK, "n = 40, F0 = %g: both models run", f0[i]);
        ok = ra == JNT_OK && rb == JNT_OK;
        if (ok) {
            double da = cycle_d(&ta, "W"), ex = exact_chain_d(40, 39, 1.0 / 40, f0[i] / 2);
            db[i] = cycle_d(&tb, "D");
            printf("INFO:   %.3f  %.6e  %.6e  %.6e  %.6e\n", f0[i], da, db[i], ex,
                   pow(f0[i], 3) / 3);
            /* docs/substructures.md's table: iwan.F<F0>.{Da,Db,ab_pct,exact,cont} */
            char key[64];
            snprintf(key, sizeof key, "iwan.F%g.Da", f0[i]);
            MEASURE(key, da);
            snprintf(key, sizeof key, "iwan.F%g.Db", f0[i]);
            MEASURE(key, db[i]);
            snprintf(key, sizeof key, "iwan.F%g.exact", f0[i]);
            MEASURE(key, ex);
            snprintf(key, sizeof key, "iwan.F%g.cont", f0[i]);
            MEASURE(key, pow(f0[i], 3) / 3);
            if (ex != 0) {
                snprintf(key, sizeof key, "iwan.F%g.ab_pct", f0[i]);
                MEASURE(key, 100 * (db[i] - da) / da);
                worst_ab = fmax(worst_ab, 100 * fabs(db[i] - da) / da);
                worst_ex = fmax(worst_ex, fabs(db[i] - ex) / ex);
            }
            if (ex == 0) {
                /* F0 = 0.05: the edge load F0/2 equals one slider's strength, so
                 * no slider slips in either model */
                CHECK(fabs(da) < 1e-9 && fabs(db[i]) < 1e-12,
                      "F0 = %g: no slip, no dissipation (got %g, %g)", f0[i], da, db[i]);
            } else {
                CHECK_REL(db[i], da, 0.02, "n = 40: D of (b) against (a) (seed 004 Fig. 5)");
                /* load increments of 20 ms: the peak load is met to F0 (omega h)^2 / 8 */
                CHECK_REL(db[i], ex, 1e-3, "n = 40: D of (b) against the exact chain");
            }
        }
        csv_free(&ta);
        csv_free(&tb);
    }
    if (ok) {
        /* least-squares log-log slope over the microslip loads F0 >= 0.3 */
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        int np = 0;
        for (int i = 0; i < NF; i++)
            if (f0[i] >= 0.3 - 1e-12) {
                double x = log(f0[i]), y = log(db[i]);
                sx += x, sy += y, sxx += x * x, sxy += x * y, np++;
            }
        double slope = (np * sxy - sx * sy) / (np * sxx - sx * sx);
        double lo = log(db[5] / db[2]) / log(f0[5] / f0[2]);
        printf("INFO: log-log slope of D: %.4f over F0 in [0.3, 0.5], %.4f from 0.1 to 0.3 "
               "(the discrete chain: 3 + 2 (2 F_s)^2 / (F0^2 - (2 F_s)^2))\n", slope, lo);
        CHECK_NEAR(slope, 3.0, 0.05, "D proportional to F0^3 in microslip (seed 004 Sect. 3)");
        MEASURE("iwan.slope", slope);
        MEASURE("iwan.slope_lo", lo);
        MEASURE("iwan.worst_ab_pct", worst_ab);
        MEASURE("iwan.worst_exact", worst_ex);
    }
    jnt_model_free(ma);
    jnt_model_free(mb);
}

/* Write examples/iwan_interface/{common,full,rom}.jnt with n sliders to dir,
 * and rom_static.jnt: the reduced model with the static shapes of the two
 * loaded ends added to the elastic chain's modes (modal truncation's static
 * correction). */
static const char *const REDUCE = "reduce = modal(modes = NM)";

static int copy_with_n(const char *dir, int n)
{
    static const char *const files[] = {"common.jnt", "full.jnt", "rom.jnt", "rom.jnt"};
    static const char *const names[] = {"common.jnt", "full.jnt", "rom.jnt", "rom_static.jnt"};
    mkdir(dir, 0777);
    for (int i = 0; i < 4; i++) {
        char src[256], dst[1024];
        snprintf(src, sizeof src, "examples/iwan_interface/%s", files[i]);
        snprintf(dst, sizeof dst, "%s/%s", dir, names[i]);
        char *text = read_text(src);
        if (!text)
            return -1;
        FILE *f = fopen(dst, "w");
        const char *mark = i == 0 ? "const n    = 40 " : i == 3 ? REDUCE : NULL;
        char *c = mark ? strstr(text, mark) : NULL;
        if (!f || (mark && !c)) {
            free(text);
            if (f)
                fclose(f);
            return -1;
        }
        if (c) {
            fwrite(text, 1, (size_t)(c - text), f);
            if (i == 0)
                fprintf(f, "const n    = %-3d ", n);
            else
                fprintf(f, "%s + static(at = {first, last})", REDUCE);
            fputs(c + strlen(mark), f);
        } else {
            fputs(text, f);
        }
        free(text);
        if (fclose(f) != 0)
            return -1;
    }
    return 0;
}

/* 4. Convergence with n (Figs. 8-9). */
static void check_n(void)
{
    static const int ns[] = {10, 20, 40, 100};
    double dd[4], dq[4], ds[4];
    int ok = 1;
    printf("INFO: F0 = 0.3 N: n, D_a, D_b, |D_a - D_b| / D_a, max |Delta_a - Delta_b|, "
           "its elastic part, its dissipative part, max |Delta_a - Delta_b| with the static "
           "shapes of the loaded ends (last cycle)\n");
    for (int i = 0; i < 4 && ok; i++) {
        char dir[512], fa[600], fb[600], fs[600];
        snprintf(dir, sizeof dir, "%s", test_out(""));
        snprintf(dir + strlen(dir), sizeof dir - strlen(dir), "iwan_n%d", ns[i]);
        snprintf(fa, sizeof fa, "%s/full.jnt", dir);
        snprintf(fb, sizeof fb, "%s/rom.jnt", dir);
        snprintf(fs, sizeof fs, "%s/rom_static.jnt", dir);
        ok = copy_with_n(dir, ns[i]) == 0;
        jnt_model *ma = ok ? compile(fa) : NULL, *mb = ok ? compile(fb) : NULL;
        jnt_model *ms = ok ? compile(fs) : NULL;
        CHECK(ma && mb && ms, "n = %d: the models compile", ns[i]);
        ok = ma && mb && ms;
        csv_table ta = {0}, tb = {0}, tsc = {0};
        if (ok) {
            char ca[64], cb[64], cs[64];
            snprintf(ca, sizeof ca, "iwan_full_n%d.csv", ns[i]);
            snprintf(cb, sizeof cb, "iwan_rom_n%d.csv", ns[i]);
            snprintf(cs, sizeof cs, "iwan_rom_static_n%d.csv", ns[i]);
            ok = run_f0(ma, ca, 0.3, &ta) == JNT_OK && run_f0(mb, cb, 0.3, &tb) == JNT_OK &&
                 run_f0(ms, cs, 0.3, &tsc) == JNT_OK;
            CHECK(ok, "n = %d: the models run", ns[i]);
        }
        if (ok) {
            double da = cycle_d(&ta, "W"), db = cycle_d(&tb, "D");
            dd[i] = fabs(da - db) / da;
            dq[i] = max_diff(&ta, &tb, "q_sum");
            ds[i] = max_diff(&ta, &tsc, "Delta");
            printf("INFO:   %3d  %.6e  %.6e  %.3e  %.3e  %.3e  %.3e  %.3e\n", ns[i], da, db, dd[i],
                   max_diff(&ta, &tb, "Delta"), max_diff(&ta, &tb, "w_span"), dq[i], ds[i]);
            /* docs/substructures.md's convergence table: iwan.n<n>.FIELD */
            const char *fld[7] = {"Da", "Db", "dD", "dDelta", "elastic", "dissip", "static"};
            double val[7] = {da, db, dd[i], max_diff(&ta, &tb, "Delta"),
                             max_diff(&ta, &tb, "w_span"), dq[i], ds[i]};
            for (int k = 0; k < 7; k++) {
                char key[64];
                snprintf(key, sizeof key, "iwan.n%d.%s", ns[i], fld[k]);
                MEASURE(key, val[k]);
            }
        }
        csv_free(&ta);
        csv_free(&tb);
        csv_free(&tsc);
        jnt_model_free(ma);
        jnt_model_free(mb);
        jnt_model_free(ms);
    }
    if (!ok)
        return;
    /* Figs. 8-9: as n grows, (b) approaches (a). This holds for D and for the
     * part of Delta_1 the complementarity formulation computes (q_n + q_1);
     * the elastic part's error is the truncation to 10 modes, which grows
     * towards its continuum limit with n (docs/substructures.md). */
    for (int i = 1; i < 4; i++) {
        CHECK(dd[i] < dd[i - 1], "|D_a - D_b| / D_a decreases from n = %d to n = %d (%.3g -> %.3g)",
              ns[i - 1], ns[i], dd[i - 1], dd[i]);
        CHECK(dq[i] < dq[i - 1], "the dissipative part of Delta_1: (b) nears (a) from n = %d to "
              "n = %d (%.3g -> %.3g)", ns[i - 1], ns[i], dq[i - 1], dq[i]);
        CHECK(ds[i] < ds[i - 1], "Delta_1 with 10 modes + the static shapes of the loaded ends: "
              "(b) nears (a) from n = %d to n = %d (%.3g -> %.3g)", ns[i - 1], ns[i], ds[i - 1],
              ds[i]);
    }
}

int main(void)
{
    check_example();
    check_load_range();
    check_n();
    return check_done();
}
