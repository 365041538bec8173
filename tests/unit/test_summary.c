/*
 * test_summary.c: the summary accumulator (runtime/sweep/summary.c) on rows
 * whose results are known in closed form, its edge cases, and
 * jnt_summarize on a run's .npy and CSV (the same doubles from both).
 */
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "jnt/jnt.h"
#include "sweep/summary.h"

int main(void)
{
    /* x = t^2 on t = 0, 0.01, ..., 2, window [0.5, 1.5]: the trapezoidal
     * rule of t^2 on a uniform grid is exactly
     * int t^2 + h^2/12 [2t]_a^b = (b^3 - a^3)/3 + h^2 (b - a)/6 */
    summary_acc s;
    summary_start(&s, 0.5, 1.5);
    double h = 0.01;
    for (int k = 0; k <= 200; k++) {
        double t = k * h;
        summary_add(&s, t, t * t);
    }
    double I = (1.5 * 1.5 * 1.5 - 0.125) / 3 + h * h * (1.5 - 0.5) / 6;
    CHECK_REL(summary_value(&s, JNT_SUMMARY_INTEGRAL), I, 1e-12, "integral of t^2 over [0.5, 1.5]");
    CHECK_REL(summary_value(&s, JNT_SUMMARY_MEAN), I / 1.0, 1e-12, "mean = integral / span");
    CHECK(summary_value(&s, JNT_SUMMARY_MAX) == 1.5 * 1.5 && summary_value(&s, JNT_SUMMARY_MIN) == 0.25,
          "max and min are the window's end rows (%g, %g)", summary_value(&s, JNT_SUMMARY_MAX),
          summary_value(&s, JNT_SUMMARY_MIN));
    CHECK(summary_value(&s, JNT_SUMMARY_FINAL) == 2.25, "final is the last row in the window");
    CHECK(s.n == 101, "101 rows in [0.5, 1.5] (grid times rounded: %ld)", s.n);

    /* rms of sin over whole periods: 1/sqrt(2) */
    summary_start(&s, -INFINITY, INFINITY);
    for (int k = 0; k <= 1000; k++) {
        double t = k * 1e-3;
        summary_add(&s, t, sin(2 * 3.14159265358979323846 * 5 * t));
    }
    CHECK_NEAR(summary_value(&s, JNT_SUMMARY_RMS), 1 / sqrt(2.0), 1e-12, "rms of sin over 5 periods");

    /* last: the time of the last non-zero row; NaN when none */
    summary_start(&s, -INFINITY, 0.35);
    for (int k = 0; k <= 10; k++)
        summary_add(&s, 0.1 * k, k % 3 == 0 ? 1 : 0);
    CHECK_NEAR(summary_value(&s, JNT_SUMMARY_LAST), 0.3, 1e-15, "last non-zero row at 0.3 (to = 0.35)");
    summary_start(&s, 0, 1);
    summary_add(&s, 0.5, 0);
    CHECK(isnan(summary_value(&s, JNT_SUMMARY_LAST)), "last without a non-zero row is nan");
    CHECK(summary_value(&s, JNT_SUMMARY_RMS) == 0 && summary_value(&s, JNT_SUMMARY_MEAN) == 0,
          "one row: mean and rms are its value and magnitude");
    summary_start(&s, 5, 6);
    summary_add(&s, 1, 1);
    CHECK(isnan(summary_value(&s, JNT_SUMMARY_MAX)) && isnan(summary_value(&s, JNT_SUMMARY_INTEGRAL)),
          "no row in the window: nan");

    /* jnt_summarize: the same results from a run's .npy and its CSV */
    static const char src[] =
        "model sm\n"
        "param w = 3 rad/s\n"
        "ground g\n"
        "body b : point(mass = 1 kg) { dof x }\n"
        "spring s between b.x and g { stiffness = 9 N/m }\n"
        "init b.x = 1 m\n"
        "simulate { integrator = rk4(h = 1 ms) until = 2 s }\n"
        "output \"sm.csv\" every 10 ms { t, x = b.x }\n"
        "summary { a = max(x, from = pi / w) b = rms(x) c = integral(x, to = 2 * pi / w) d = last(x) }\n";
    jnt_model *m;
    int rc = jnt_compile_string("sm.jnt", src, NULL, &m);
    CHECK(rc == JNT_OK && jnt_summary_count(m) == 4 && !strcmp(jnt_summary_name(m, 2), "c"),
          "a model with a summary block compiles (4 results)");
    if (rc != JNT_OK)
        return 1;
    double vn[4], vc[4];
    const char *paths[2] = {test_out("summary.npy"), test_out("summary.csv")};
    for (int f = 0; f < 2; f++) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o = {.csv_path = paths[f]};
        rc = jnt_run(m, d, &o);
        if (rc == JNT_OK)
            rc = jnt_summarize(m, d, paths[f], f ? vc : vn);
        CHECK(rc == JNT_OK, "run and summarize through %s (%s)", paths[f], jnt_data_error(d));
        jnt_data_free(d);
    }
    CHECK(!memcmp(vn, vc, sizeof vn), "the .npy and the CSV give the same doubles");
    /* x = cos(3 t) on 0..2 s: over [pi/3, 2] it rises from -1 to cos(6) at
     * the end; the window to 2 pi/3 ends after the run, so the integral is
     * sin(6)/3 (trapezoidal error h^2/12 [x'] = 7e-6 at 10 ms rows) */
    CHECK_NEAR(vn[0], cos(6.0), 1e-9, "max of cos(3t) from pi/3: its last row");
    CHECK_NEAR(vn[2], sin(6.0) / 3, 2e-5, "integral of cos(3t) over the run");
    CHECK_NEAR(vn[1], sqrt(0.5 + sin(12.0) / 24), 1e-4, "rms of cos(3t) over 2 s");
    CHECK_NEAR(vn[3], 2, 1e-12, "last non-zero row: the end");
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = {.csv_path = ""};
    jnt_run(m, d, &o);
    CHECK(jnt_summarize(m, d, test_out("no_such_file.npy"), vn) == JNT_ERR_IO &&
          strstr(jnt_data_error(d), "cannot read"), "a missing file: JNT_ERR_IO (%s)",
          jnt_data_error(d));
    /* issue 27, finding 7: /dev/zero (1.67 GB read before) and a FIFO (it
     * hung) are refused at once, as not regular files */
    alarm(20);
    CHECK(jnt_summarize(m, d, "/dev/zero", vn) == JNT_ERR_IO &&
          strstr(jnt_data_error(d), "character device, not a regular file"),
          "/dev/zero: refused at once (%s)", jnt_data_error(d));
    const char *fifo = test_out("summary.fifo");
    unlink(fifo);
    CHECK(mkfifo(fifo, 0600) == 0 && jnt_summarize(m, d, fifo, vn) == JNT_ERR_IO &&
          strstr(jnt_data_error(d), "a FIFO, not a regular file"),
          "a FIFO: refused, not waited on (%s)", jnt_data_error(d));
    unlink(fifo);
    /* a file larger than a run could write (the output limit) */
    jnt_set_max_output(d, 1000);
    CHECK(jnt_summarize(m, d, paths[1], vn) == JNT_ERR_IO &&
          strstr(jnt_data_error(d), "more than the limit"),
          "a file over the output limit: refused (%s)", jnt_data_error(d));
    alarm(0);
    jnt_data_free(d);
    jnt_model_free(m);
    return check_failures != 0;
}
