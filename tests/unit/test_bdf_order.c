/*
 * test_bdf_order.c: bdf(max_order = K), the largest order CVODE may take
 * (integ_bdf.c, CVodeSetMaxOrd; issue 31 item 4). On a smooth oscillator
 * order 1 needs many more steps than CVODE's default (up to 5), and every
 * order stays near the closed form; an order outside 1..5
 * is a located error at compile time and a run error when it comes from a
 * parameter.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"

/* A 1 kg mass on a 100 N/m spring, x(0) = 1 m: x(t) = cos(10 t); %s is bdf's
 * option list. */
static const char *const src_fmt =
    "model osc\n"
    "param k = 2\n"
    "body b : point(mass = 1 kg) { dof x }\n"
    "init b.x = 1 m\n"
    "spring s between b.x and ground { stiffness = 100 N/m }\n"
    "simulate { integrator = bdf(rtol = 1e-6, atol = 1e-8%s)  until = 2 s }\n"
    "output \"osc.csv\" every 0.5 s { t, x = b.x }\n";

/* Compile with bdf's extra options `opt`; NULL on failure (its message in err). */
static jnt_model *osc(const char *opt, char *err, size_t n)
{
    char src[1024];
    snprintf(src, sizeof src, src_fmt, opt);
    jnt_model *m = NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *diag = open_memstream(&buf, &len);
    jnt_compile_opts o = {.diag = diag};
    jnt_compile_string("osc.jnt", src, &o, &m);
    fclose(diag);
    snprintf(err, n, "%s", buf ? buf : "");
    free(buf);
    return m;
}

/* Run m (with -D `def` when not NULL): status, steps, x(2 s). */
static int run(const jnt_model *m, const char *def, long *steps, double *x_end, char *err,
               size_t n)
{
    jnt_data *d = jnt_data_new(m);
    if (def)
        jnt_set_param_text(m, d, def);
    jnt_run_opts o = {.csv_path = ""};
    int rc = jnt_run(m, d, &o);
    *steps = jnt_data_stats(d)->steps;
    *x_end = jnt_output(m, d, jnt_output_index(m, "x"));
    snprintf(err, n, "%s", jnt_data_error(d));
    jnt_data_free(d);
    return rc;
}

int main(void)
{
    char err[1024];
    const double exact = cos(10.0 * 2.0);
    long steps[3] = {0, 0, 0};
    static const char *const opts[3] = {"", ", max_order = 2", ", max_order = 1"};
    for (int i = 0; i < 3; i++) {
        jnt_model *m = osc(opts[i], err, sizeof err);
        CHECK(m != NULL, "bdf(rtol = 1e-6, atol = 1e-8%s) compiles %s", opts[i], err);
        if (!m)
            continue;
        double x;
        int rc = run(m, NULL, &steps[i], &x, err, sizeof err);
        /* the global error of the local error control grows as the order falls
           (measured 7.2e-6, 3.0e-4, 2.8e-3 at rtol 1e-6) */
        static const double tol[3] = {1e-5, 1e-3, 1e-2};
        CHECK(rc == JNT_OK && fabs(x - exact) < tol[i], "bdf%s: x(2 s) = %.10f, cos(20) = "
              "%.10f (%.0e) in %ld steps %s", opts[i], x, exact, tol[i], steps[i], err);
        jnt_model_free(m);
    }
    /* a smooth solution: the higher orders take longer steps */
    CHECK(steps[2] > 3 * steps[0] && steps[1] > steps[0],
          "order 1 takes %ld steps, order 2 %ld, CVODE's default (up to 5) %ld", steps[2],
          steps[1], steps[0]);

    jnt_model *bad = osc(", max_order = 6", err, sizeof err);
    CHECK(!bad && strstr(err, "option 'max_order' of 'bdf' must be an order from 1 to 5 (got 6)"),
          "max_order = 6 is a located error: %s", err);
    jnt_model_free(bad);
    jnt_model *m = osc(", max_order = k", err, sizeof err);
    if (m) {
        long st;
        double x;
        int rc = run(m, "k=2.5", &st, &x, err, sizeof err);
        CHECK(rc == JNT_ERR_PARAM && strstr(err, "bdf's max_order must be an order from 1 to 5 "
                                                 "(got 2.5)"),
              "max_order from a parameter set to 2.5: refused at the run: %s", err);
        rc = run(m, NULL, &st, &x, err, sizeof err);
        CHECK(rc == JNT_OK && st == steps[1], "max_order = k with k = 2: %ld steps, as "
              "max_order = 2 (%ld)", st, steps[1]);
        jnt_model_free(m);
    }
    return check_done();
}
