/*
 * test_beam_on_beam.c: examples/beam_on_beam.jnt, seed 003's beam-on-beam
 * system (Sect. 3.1, Tables 1-2) on a coarse mesh (50 x 2 and 38 x 2 plate2d
 * elements), the contact from s0 = 60 mm, 0.15 s, with the realistic (b)
 * and simplified (c) assumptions and FiLm:
 *
 *   1. FiLm and Subs-b agree (seed 003 Sect. 3.3, Fig. 7);
 *   2. with (b) the normal force decreases with the cantilever's deflection,
 *      with (c) it does not (Sects. 3.3-3.4, Fig. 8b): in static sliding
 *      lambda = -F_y / (cos gamma - mu sin gamma), gamma the slope of the
 *      deflected edge under C, which (c) ignores;
 *   3. the contact slides throughout: v_C keeps its sign and reaches v_x,
 *      the contact never opens (Sect. 3.3);
 *   4. the complex-eigenvalue locus (Fig. 4) along C from 10 to 90 mm: no
 *      unstable mode at mu = 0.3, unstable modes at mu = 0.5 near 10 mm.
 * What this mesh does not reproduce (the paper's instability at mu = 0.3,
 * near 7 and 10.5 kHz) is discussed in docs/interfaces.md.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

/* The example with its coupling line replaced. */
static char *with_coupling(const char *src, const char *coupling)
{
    const char *c = strstr(src, "coupling = dual(assumption = realistic)");
    if (!c)
        return NULL;
    const char *e = strchr(c, '\n');
    size_t n = strlen(src) + strlen(coupling) + 32;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%.*scoupling = %s%s", (int)(c - src), src, coupling, e);
    return s;
}

/* Spectrogram of a_T (seed 003 Fig. 6): short-time Fourier transform, Hann
 * window of NW samples (20.5 ms at the 10 us output), hop NW / 4, amplitude
 * 20 log10(2 |X_k| / sum w) in dB re 1 m/s^2, written as examples/
 * beam_on_beam.gp reads it (t,f,mag; frames separated by a blank line) and
 * drawn beside the CSV. Returns 0 when the PNG was written. */
#define NW 2048
static int spectrogram(const csv_table *t, const char *csv, const char *title)
{
    const double *tc = csv_col(t, "t"), *a = csv_col(t, "a_T");
    if (!tc || !a || t->nrow < NW + 1)
        return -1;
    double dt = tc[2] - tc[1], w[NW], sw = 0;
    for (int i = 0; i < NW; i++)
        sw += w[i] = 0.5 - 0.5 * cos(2 * M_PI * i / (NW - 1));
    char spec[600], png[600], cmd[2048];
    snprintf(spec, sizeof spec, "%s", test_out(csv));
    char *dot = strrchr(spec, '.');
    if (dot)
        snprintf(dot, sizeof spec - (size_t)(dot - spec), "_spec.csv");
    snprintf(png, sizeof png, "%.*s.png", (int)(strlen(spec) - 4), spec);
    FILE *f = fopen(spec, "w");
    if (!f)
        return -1;
    fprintf(f, "# STFT of a_T: Hann window %d samples, hop %d, dt %g s\nt,f,mag\n", NW, NW / 4,
            dt);
    for (int s0 = 1; s0 + NW <= t->nrow; s0 += NW / 4) {
        for (int k = 0; k <= NW / 2; k++) {
            double re = 0, im = 0;
            for (int i = 0; i < NW; i++) {
                double ph = -2 * M_PI * (double)k * i / NW, x = w[i] * a[s0 + i];
                re += x * cos(ph);
                im += x * sin(ph);
            }
            double mag = 2 * sqrt(re * re + im * im) / sw;
            fprintf(f, "%.6g,%.6g,%.4f\n", tc[s0 + NW / 2], k / (NW * dt),
                    20 * log10(fmax(mag, 1e-12)));
        }
        fputs("\n", f);
    }
    if (fclose(f) != 0)
        return -1;
    snprintf(cmd, sizeof cmd, "gnuplot -e \"spec='%s'; png='%s'; csv='%s'; title='%s'\" "
             "examples/beam_on_beam.gp", spec, png, test_out(csv), title);
    if (system(cmd) != 0)
        return -1;
    FILE *p = fopen(png, "rb");
    long n = -1;
    if (p && fseek(p, 0, SEEK_END) == 0)
        n = ftell(p);
    if (p)
        fclose(p);
    printf("INFO: spectrogram %s (%ld bytes)\n", png, n);
    return n > 1000 ? 0 : -1;
}

static int run_case(const char *src, const char *coupling, const char *csv, csv_table *t)
{
    char *text = with_coupling(src, coupling);
    jnt_model *m = NULL;
    int ok = text && jnt_compile_string("beam_on_beam", text, NULL, &m) == JNT_OK;
    free(text);
    CHECK(ok, "%s: compiles", coupling);
    if (!ok)
        return -1;
    jnt_run_opts o = {0};
    int rc = run_csv(m, test_out(csv), o, NULL, t);
    CHECK(rc == JNT_OK, "%s: runs", coupling);
    jnt_model_free(m);
    return rc == JNT_OK ? 0 : -1;
}

/* Unstable rows of the locus at mu, and the smallest position among them. */
static int locus(const char *src, const char *mu, double *first)
{
    jnt_model *m = NULL;
    int n = -1;
    *first = NAN;
    if (jnt_compile_string("beam_on_beam", src, NULL, &m) != JNT_OK)
        return -1;
    jnt_data *d = jnt_data_new(m);
    const char *dir = getenv("JNT_TEST_OUT");
    if (jnt_set_param_text(m, d, mu) == JNT_OK &&
        jnt_run_analyses(m, d, dir && *dir ? dir : "build/tests") == JNT_OK) {
        csv_table l;
        if (csv_load(test_out("locus.csv"), &l) == 0) {
            const double *p = csv_col(&l, "position"), *u = csv_col(&l, "unstable");
            n = 0;
            for (int i = 0; p && u && i < l.nrow; i++)
                if (u[i] > 0.5) {
                    n++;
                    if (!(p[i] >= *first))
                        *first = p[i];
                }
        }
        csv_free(&l);
    } else {
        printf("INFO: locus at %s: %s\n", mu, jnt_data_error(d));
    }
    jnt_data_free(d);
    jnt_model_free(m);
    return n;
}

int main(void)
{
    char *src = read_text("examples/beam_on_beam.jnt");
    CHECK(src != NULL, "examples/beam_on_beam.jnt is readable");
    if (!src)
        return check_done();
    csv_table tb, tc, tf;
    int ok = run_case(src, "dual(assumption = realistic)", "bob_b.csv", &tb) == 0;
    ok &= run_case(src, "dual(assumption = simplified)", "bob_c.csv", &tc) == 0;
    ok &= run_case(src, "film", "bob_film.csv", &tf) == 0;
    if (ok) {
        /* 1. FiLm against Subs-b: the accelerations of T and the normal forces */
        const double *ab = csv_col(&tb, "a_T"), *af = csv_col(&tf, "a_T");
        const double *nb = csv_col(&tb, "N"), *nf = csv_col(&tf, "N");
        double da = 0, apk = 0, dn = 0;
        for (int i = 0; ab && af && nb && nf && i < tb.nrow && i < tf.nrow; i++) {
            da = fmax(da, fabs(ab[i] - af[i]));
            apk = fmax(apk, fabs(af[i]));
            dn = fmax(dn, fabs(nb[i] - nf[i]));
        }
        printf("INFO: FiLm vs Subs-b: max |a_T difference| %.3g of a peak %.3g m/s^2, max |N "
               "difference| %.3g N\n", da, apk, dn);
        CHECK(da <= 1e-3 * apk, "Subs-b = FiLm: acceleration of T (seed 003 Fig. 7; 1e-3 of "
                                "the peak)");
        CHECK(dn <= 1e-6, "Subs-b = FiLm: normal force (1e-6 N)");
        /* 2. the normal force over the last 30 ms */
        double Nb = csv_mean_after(&tb, "N", 0.12), Nc = csv_mean_after(&tc, "N", 0.12);
        printf("INFO: normal force over the last 30 ms: Subs-b %.6f N, Subs-c %.6f N, "
               "F_y = 0.2 N\n", Nb, Nc);
        CHECK(Nb < Nc * (1 - 1e-3), "Subs-b: the normal force falls below F_y with the "
                                    "cantilever's deflection (seed 003 Fig. 8b)");
        /* 1e-3: what is left of the load ramp's transient at 0.12-0.15 s */
        CHECK_REL(Nc, 0.2, 1e-3, "Subs-c: the normal force stays at |F_y| (seed 003 Sect. 3.4)");
        /* 3. sliding throughout */
        const double *t = csv_col(&tb, "t"), *v = csv_col(&tb, "v_C"), *st = csv_col(&tb, "state");
        int reversed = 0, open = 0;
        double vmin = INFINITY, vmax = -INFINITY;
        for (int i = 1; t && v && st && i < tb.nrow; i++) {
            if (t[i] < 1e-3) /* until F_y has built up the slave only touches */
                continue;
            reversed |= v[i] < 0;
            open |= st[i] != 1;
            if (t[i] >= 0.1) {
                vmin = fmin(vmin, v[i]);
                vmax = fmax(vmax, v[i]);
            }
        }
        CHECK(!reversed && !open, "Subs-b: the contact slides throughout from 1 ms on (v_C >= "
                                  "0, never open) (seed 003 Sect. 3.3)");
        CHECK(fabs(vmin - 0.03) <= 3e-3 && fabs(vmax - 0.03) <= 3e-3,
              "Subs-b: after 0.1 s the contact slides at v_x = 30 mm/s (%.5f to %.5f m/s; 10 %%)",
              vmin, vmax);
    }
    if (ok) {
        /* Fig. 6: a spectrogram of a_T beside each CSV */
        CHECK(spectrogram(&tb, "bob_b.csv", "Subs-b") == 0 &&
                  spectrogram(&tc, "bob_c.csv", "Subs-c") == 0 &&
                  spectrogram(&tf, "bob_film.csv", "FiLm") == 0,
              "spectrograms of a_T written (PNG, gnuplot)");
    }
    csv_free(&tb);
    csv_free(&tc);
    csv_free(&tf);

    /* 4. the locus (Fig. 4): positions of the moved beam from s0 */
    double first;
    int n3 = locus(src, "mu=0.3", &first);
    CHECK(n3 == 0, "locus, mu = 0.3: no unstable mode with C from 10 to 90 mm (%d rows)", n3);
    int n5 = locus(src, "mu=0.5", &first);
    printf("INFO: locus, mu = 0.5: %d unstable rows, the first at C = %.1f mm\n", n5,
           1e3 * (first + 0.06));
    CHECK(n5 > 0 && fabs(first + 0.05) < 1e-9, "locus, mu = 0.5: unstable modes, from C = 10 mm "
                                               "on (%d rows)", n5);
    free(src);
    return check_done();
}
