/*
 * test_beam_on_beam.c: examples/beam_on_beam.jnt, seed 003's beam-on-beam
 * system (Sect. 3.1, Tables 1-2) on meshes of the paper's size (100 x 2 and
 * 75 x 2 incompatible-mode plate2d elements; 202 kept DOFs on the
 * cantilever's edge), the contact from s0 = 46 mm, 0.18 s, with the
 * realistic (b), simplified (c) and basic (a) assumptions and FiLm:
 *
 *   1. FiLm and Subs-b agree (seed 003 Sect. 3.3, Fig. 7);
 *   2. with (b) the normal force decreases with the cantilever's deflection,
 *      with (c) it does not (Sects. 3.3-3.4, Fig. 8b): in static sliding
 *      lambda = -F_y / (cos gamma - mu sin gamma), gamma the slope of the
 *      deflected edge under C, which (c) ignores;
 *   3. the contact slides throughout: v_C keeps its sign and reaches v_x,
 *      the contact never opens (Sect. 3.3);
 *   4. the complex-eigenvalue locus (Fig. 4) at mu = 0.3 finds the
 *      cantilever's second axial mode (10.57 kHz) unstable for C in a window
 *      near 48.1-48.8 mm; crossing it, the 10.57 kHz band of a_T bursts and
 *      decays after (Sects. 3.2-3.4, Fig. 6) at the rate the locus predicts,
 *      larger with (c), weaker with (a).
 * What is not reproduced (the paper's 7 kHz branch; (a) missing the bursts
 * entirely) is discussed in docs/interfaces.md.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

/* The example with its coupling replaced. */
static char *with_coupling(const char *src, const char *coupling)
{
    char rep[128];
    snprintf(rep, sizeof rep, "coupling = %s", coupling);
    return text_sub(src, "coupling = dual(assumption = realistic)", rep);
}

#define S0 0.046 /* the example's s0 (m) */

/* Spectrogram of a_T (seed 003 Fig. 6), as a user makes it: examples/
 * beam_on_beam_spec.py (numpy's STFT, the CSV beam_on_beam.gp reads, the
 * picture) on the CSV the run wrote, with Debian's python3 (numpy) as
 * tests/run.sh uses. Returns 0 when the spectrogram CSV and PNG were written. */
static int spectrogram(const csv_table *t, const char *csv, const char *title)
{
    if (!csv_col(t, "a_T"))
        return -1;
    char spec[600], png[600], cmd[2048];
    snprintf(spec, sizeof spec, "%s", test_out(csv));
    char *dot = strrchr(spec, '.');
    if (dot)
        snprintf(dot, sizeof spec - (size_t)(dot - spec), "_spec.csv");
    snprintf(png, sizeof png, "%.*s.png", (int)(strlen(spec) - 4), spec);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 examples/beam_on_beam_spec.py '%s' -o '%s' "
             "--png '%s' --title '%s' 2> /dev/null", test_out(csv), spec, png, title);
    if (system(cmd) != 0)
        return -1;
    /* its rows (t,f,mag): 1025 bins a frame, frames apart by blank lines */
    FILE *sf = fopen(spec, "r");
    long rows = 0;
    for (char line[128]; sf && fgets(line, sizeof line, sf);)
        rows += line[0] >= '0' && line[0] <= '9';
    if (sf)
        fclose(sf);
    int frames = rows % 1025 == 0 ? (int)(rows / 1025) : -1;
    FILE *p = fopen(png, "rb");
    long n = -1;
    if (p && fseek(p, 0, SEEK_END) == 0)
        n = ftell(p);
    if (p)
        fclose(p);
    printf("INFO: spectrogram %s (%ld bytes, %d frames of 1025 bins)\n", png, n, frames);
    return n > 1000 && frames > 10 ? 0 : -1;
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

/* The amplitude of a_T near f0 (the largest over f0 +- 300 Hz in 50 Hz
 * steps) in frames of FW samples (2.5 ms at the 10 us output), Hann
 * window: amp[k] for the frame that starts at row k FW; returns the count. */
#define FW 250
/* the cantilever's second axial mode, 3 c / 4 L (Hz); seed 003 Fig. 4 finds an
 * unstable branch "around 10.5 kHz": the locus rows within 500 Hz of it count */
#define F_AXIAL 10570.0
static int band(const csv_table *t, double f0, double *amp, int cap)
{
    const double *tc = csv_col(t, "t"), *a = csv_col(t, "a_T");
    int n = 0;
    for (int i0 = 0; tc && a && i0 + FW <= t->nrow && n < cap; i0 += FW, n++) {
        amp[n] = 0;
        for (double f = f0 - 300; f <= f0 + 300; f += 50) {
            double re = 0, im = 0;
            for (int k = 0; k < FW; k++) {
                double h = 0.5 - 0.5 * cos(2 * M_PI * k / (FW - 1));
                re += h * a[i0 + k] * cos(2 * M_PI * f * tc[i0 + k]);
                im += h * a[i0 + k] * sin(2 * M_PI * f * tc[i0 + k]);
            }
            amp[n] = fmax(amp[n], 4 * hypot(re, im) / FW);
        }
    }
    return n;
}

/* A burst while C crosses [x0, x1]: the band amplitude of the first frame
 * that starts at x_C >= x0 (entry), the largest up to x1 + 0.5 mm (peak,
 * with its time) and the first at x_C >= x1 + 1 mm (after). */
typedef struct burst {
    double entry, peak, after, t_entry, t_peak;
} burst;

static burst find_burst(const csv_table *t, double x0, double x1)
{
    static double amp[4096];
    int n = band(t, F_AXIAL, amp, 4096);
    const double *tc = csv_col(t, "t"), *x = csv_col(t, "x_C");
    burst b = {NAN, 0, NAN, NAN, NAN};
    for (int k = 0; tc && x && k < n; k++) {
        double xk = x[k * FW], tk = tc[k * FW];
        if (xk >= x0 && isnan(b.entry))
            b.entry = amp[k], b.t_entry = tk;
        if (xk >= x0 && xk <= x1 + 5e-4 && amp[k] > b.peak)
            b.peak = amp[k], b.t_peak = tk;
        if (xk >= x1 + 1e-3 && isnan(b.after))
            b.after = amp[k];
    }
    return b;
}

/* The locus at mu = 0.3 for C from 47.6 to 49.6 mm (0.05 mm steps): its
 * unstable rows near F_AXIAL, their positions of C (m) and largest real part. */
static int locus(const char *src, double *cmin, double *cmax, double *remax, double *fmean)
{
    jnt_model *m = NULL;
    int n = -1;
    *cmin = INFINITY, *cmax = -INFINITY, *remax = 0, *fmean = 0;
    if (jnt_compile_string("beam_on_beam", src, NULL, &m) != JNT_OK)
        return -1;
    jnt_data *d = jnt_data_new(m);
    const char *dir = getenv("JNT_TEST_OUT");
    if (jnt_set_param_text(m, d, "C_from=47.6 mm") == JNT_OK &&
        jnt_set_param_text(m, d, "C_to=49.6 mm") == JNT_OK &&
        jnt_run_analyses(m, d, dir && *dir ? dir : "build/tests") == JNT_OK) {
        csv_table l;
        if (csv_load(test_out("locus.csv"), &l) == 0) {
            const double *p = csv_col(&l, "position"), *u = csv_col(&l, "unstable");
            const double *f = csv_col(&l, "frequency"), *re = csv_col(&l, "real");
            n = 0;
            for (int i = 0; p && u && f && re && i < l.nrow; i++)
                if (u[i] > 0.5 && fabs(f[i] - F_AXIAL) < 500) {
                    n++;
                    *cmin = fmin(*cmin, p[i] + S0);
                    *cmax = fmax(*cmax, p[i] + S0);
                    *remax = fmax(*remax, re[i]);
                    *fmean += f[i];
                }
            if (n > 0)
                *fmean /= n;
            csv_free(&l);
        }
    } else {
        printf("INFO: locus: %s\n", jnt_data_error(d));
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
    csv_table tb, tc, tf, ta;
    int ok = run_case(src, "dual(assumption = realistic)", "bob_b.csv", &tb) == 0;
    ok &= run_case(src, "dual(assumption = simplified)", "bob_c.csv", &tc) == 0;
    ok &= run_case(src, "film", "bob_film.csv", &tf) == 0;
    ok &= run_case(src, "dual(assumption = basic)", "bob_a.csv", &ta) == 0;
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
        MEASURE("bob.film.da_rel", da / apk);
        MEASURE("bob.film.dn", dn);
        /* 2. the normal force after the ramp (0.12 s to the end) */
        double Nb = csv_mean_after(&tb, "N", 0.12), Nc = csv_mean_after(&tc, "N", 0.12);
        printf("INFO: normal force from 0.12 s on: Subs-b %.6f N, Subs-c %.6f N, "
               "F_y = 0.2 N\n", Nb, Nc);
        MEASURE("bob.N.b", Nb);
        MEASURE("bob.N.c", Nc);
        CHECK(Nb < Nc * (1 - 1e-3), "Subs-b: the normal force falls below F_y with the "
                                    "cantilever's deflection (seed 003 Fig. 8b)");
        /* 1e-3: what is left of the load ramp's transient */
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

        /* 4. the burst (seed 003 Sects. 3.2-3.4, Fig. 6): the locus finds the
         * second axial mode unstable for C in about 48.10..48.75 mm; the band
         * of a_T around it grows while C crosses and decays after */
        double cmin, cmax, remax, fmean;
        int nu = locus(src, &cmin, &cmax, &remax, &fmean);
        MEASURE("bob.locus.cmin", cmin);
        MEASURE("bob.locus.cmax", cmax);
        MEASURE("bob.locus.remax", remax);
        MEASURE("bob.locus.freq", fmean);
        printf("INFO: locus, mu = 0.3: %d unstable rows near %.0f Hz, C from %.2f to %.2f mm, "
               "largest Re %.1f /s\n", nu, F_AXIAL, 1e3 * cmin, 1e3 * cmax, remax);
        CHECK(nu > 0 && cmin > 0.0479 && cmax < 0.0490, "locus, mu = 0.3 (Fig. 4): the 10.5 kHz "
              "branch is unstable for C inside 47.9..49.0 mm (%d rows)", nu);
        burst bb = find_burst(&tb, 0.04805, 0.0488), bf = find_burst(&tf, 0.04805, 0.0488);
        burst bc = find_burst(&tc, 0.04805, 0.0488), ba = find_burst(&ta, 0.04805, 0.0488);
        const burst *all[4] = {&bb, &bc, &bf, &ba};
        static const char *const tag[4] = {"Subs-b", "Subs-c", "FiLm", "Subs-a"};
        for (int k = 0; k < 4; k++)
            printf("INFO: %s: 10.57 kHz band of a_T: %.3g m/s^2 entering (t = %.4f s), peak "
                   "%.3g (t = %.4f s), %.3g after\n", tag[k], all[k]->entry, all[k]->t_entry,
                   all[k]->peak, all[k]->t_peak, all[k]->after);
        double rate = log(bb.peak / bb.entry) / (bb.t_peak - bb.t_entry);
        MEASURE("bob.burst.b.entry", bb.entry);
        MEASURE("bob.burst.b.peak", bb.peak);
        MEASURE("bob.burst.b.after", bb.after);
        MEASURE("bob.burst.b.growth", bb.peak / bb.entry);
        MEASURE("bob.burst.b.rate", rate);
        MEASURE("bob.burst.c.peak", bc.peak);
        MEASURE("bob.burst.c.rel", bc.peak / bb.peak - 1);
        MEASURE("bob.burst.a.entry", ba.entry);
        MEASURE("bob.burst.a.peak", ba.peak);
        MEASURE("bob.burst.a.growth", ba.peak / ba.entry);
        CHECK(bb.peak > 3 * bb.entry && bb.after < 0.1 * bb.peak, "Subs-b: a burst at 10.57 kHz "
              "while C crosses the unstable positions (x %.2f), decaying after them", 
              bb.peak / bb.entry);
        CHECK(rate > 0.5 * remax && rate < 2 * remax, "Subs-b: the burst grows at %.1f /s, "
              "the locus's largest real part is %.1f /s (within a factor 2)", rate, remax);
        CHECK(fabs(bf.peak - bb.peak) < 1e-3 * bb.peak, "FiLm: the same burst (peak %.4g)",
              bf.peak);
        CHECK(bc.peak > 1.05 * bb.peak, "Subs-c: the burst is larger (%.4g against %.4g; seed "
              "003 Sect. 3.4)", bc.peak, bb.peak);
        /* seed 003 Sect. 3.2: the basic assumption "misses" the bursts; ours
         * has a weaker one (measured: x 2.5 and half the peak of Subs-b's) */
        CHECK(ba.peak < 0.6 * bb.peak && ba.peak / ba.entry < bb.peak / bb.entry,
              "Subs-a: a weaker burst (peak %.4g, x %.2f) than Subs-b's (%.4g, x %.2f)",
              ba.peak, ba.peak / ba.entry, bb.peak, bb.peak / bb.entry);
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
    csv_free(&ta);
    free(src);
    return check_done();
}
