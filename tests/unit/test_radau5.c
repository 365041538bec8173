/*
 * test_radau5.c: the adaptive Radau IIA integrator of order 5 ("radau5",
 * runtime/integrate/integ_radau5.c) on hand-written ABI models: its
 * transformation constants, an ordinary model with an exact solution (the
 * harmonic oscillator: error against cos t, and the order seen as the
 * tolerance shrinks), and the multibody pendulum of test_dae.c (the same
 * planar rods in absolute coordinates, index 3).
 *
 * References: the exact period of the pendulum by the complete elliptic
 * integral (arithmetic-geometric mean), the oscillator's cos t, and the
 * eigenvalues of the Radau IIA matrix's inverse (HNW II, Sect. IV.8:
 * gamma = 3.6378342527444957, alpha +- i beta = 2.6810828736277521 +-
 * 3.0504301992474105 i); for examples/andrews_squeezer.jnt with radau5 in
 * place of generalized-alpha, the seven angles of the Test Set for IVP
 * Solvers (Mazzia and Magherini, problem "andrews", andsoln) at t = 0.03 s,
 * as tests/examples/test_andrews.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "andsoln.h"
#include "integrate/integ.h"
#include "jnt/jnt.h"

#include "rods.h"

/* ---- the transformation: T^-1 A^-1 T block-diagonal with A^-1's
 * eigenvalues (a check of the constants copied from RADAU5) ---- */
static void test_constants(void)
{
    double l[9];
    integ_radau5_lambda(l);
    double off = fmax(fmax(fabs(l[1]), fabs(l[2])), fmax(fabs(l[3]), fabs(l[6])));
    printf("  Lambda: %.17g | %.17g %.17g; %.17g %.17g (off-block %.3g)\n", l[0], l[4], l[5],
           l[7], l[8], off);
    CHECK(off < 1e-13, "T^-1 A^-1 T is block diagonal (off-block %.3g)", off);
    CHECK_REL(l[0], 3.6378342527444957, 1e-13, "the real eigenvalue gamma");
    CHECK_REL(l[4], 2.6810828736277521, 1e-13, "alpha");
    CHECK_REL(l[8], 2.6810828736277521, 1e-13, "alpha");
    CHECK_REL(-l[4 + 1] * l[7], 3.0504301992474105 * 3.0504301992474105, 1e-13, "beta^2");
}

/* ---- an ordinary model: y'' = -y, y(0) = 1, y'(0) = 0: y = cos t ---- */
static int osc_init(const double *p, double *y, double *d)
{
    (void)p, (void)d;
    y[0] = 1.0, y[1] = 0.0;
    return 0;
}

static int osc_rhs(double t, const double *y, const double *u, const double *d, const double *p,
                   double *f)
{
    (void)t, (void)u, (void)d, (void)p;
    f[0] = y[1], f[1] = -y[0];
    return 0;
}

static int osc_jac(double t, const double *y, const double *u, const double *d, const double *p,
                   double *jv)
{
    (void)t, (void)y, (void)u, (void)d, (void)p;
    jv[0] = -1.0, jv[1] = 1.0;
    return 0;
}

static void test_oscillator(void)
{
    static const int colptr[3] = {0, 1, 2}, rowind[2] = {1, 0};
    static const char *const yn[2] = {"x", "x.v"};
    system_t s;
    memset(&s, 0, sizeof s);
    s.ny = 2;
    jnt_abi_model a = {
        .abi_version = JNT_ABI_VERSION, .name = "osc", .source = "test", .integrator = "rk4",
        .ny = 2, .np = NP, .nout = 2, .y_names = yn, .p_names = p_names,
        .out_names = out_names, .p_dims = p_dims, .jac_nnz = 2, .jac_colptr = colptr,
        .jac_rowind = rowind, .params = params, .settings = settings, .init = osc_init,
        .rhs = osc_rhs, .jac = osc_jac, .output = output,
    };
    const double tend = 20.0;
    double err[4], tol[4] = {1e-5, 1e-7, 1e-9, 1e-11};
    long steps[4];
    for (int k = 0; k < 4; k++) {
        jnt_stats st;
        char msg[512];
        int rc = run(&s, &a, "radau5", &st, msg, sizeof msg, "t_end", tend, "h", 0.0, "rtol",
                     tol[k], "atol", tol[k], (const char *)NULL);
        CHECK(rc == JNT_OK, "oscillator radau5 rtol %g runs: %s", tol[k], msg);
        const double *y = tr_y(trn - 1);
        err[k] = hypot(y[0] - cos(tend), y[1] + sin(tend));
        steps[k] = st.steps;
        printf("  oscillator rtol %g: error %.3g, steps %ld, rejected %ld, newton %ld, "
               "jac %ld, lu %ld\n", tol[k], err[k], st.steps, st.rejected, st.newton_iters,
               st.jac_evals, st.lu_decomps);
        CHECK_NEAR(tr_t(trn - 1), tend, 1e-12, "the last row at t_end");
        CHECK(err[k] < 100 * tol[k], "oscillator error %.3g < 100 rtol", err[k]);
    }
    /* order: error ~ steps^-p with p = 5 (adaptive steps: 4 .. 6.5) */
    for (int k = 0; k + 1 < 4; k++) {
        double p = log(err[k] / err[k + 1]) / log((double)steps[k + 1] / steps[k]);
        printf("  observed order %g (rtol %g -> %g)\n", p, tol[k], tol[k + 1]);
        CHECK(p > 4.0 && p < 6.5, "radau5's observed order %g near 5", p);
    }
}

/* ---- the pendulum as a DAE: its period, |C| at every step ---- */
#define VCONS_LIM 1e4 /* measured: 118, 337, 1040 times rtol 1e-6, 1e-8, 1e-10 */
static void test_pendulum(void)
{
    system_t s = pendulum(0);
    jnt_abi_model a = sys_abi(&s, "pendulum");
    double T = 4 * sqrt(I_O / (G * L_ROD / 2)) * ellip_k(sin(TH0 / 2));
    double tol[3] = {1e-6, 1e-8, 1e-10}, lim[3] = {1e-4, 1e-6, 1e-8};
    for (int k = 0; k < 3; k++) {
        jnt_stats st;
        char err[512];
        int rc = run(&s, &a, "radau5", &st, err, sizeof err, "t_end", 1.05 * T, "h", 0.0,
                     "rtol", tol[k], "atol", tol[k], (const char *)NULL);
        CHECK(rc == JNT_OK, "pendulum radau5 rtol %g runs: %s", tol[k], err);
        double Tn = first_max_time();
        printf("  pendulum radau5 rtol %g: period rel error %.3g, steps %ld, rejected %ld, "
               "newton %ld, jac %ld, lu %ld, |C| %.3g, energy drift %.3g\n", tol[k],
               (Tn - T) / T, st.steps, st.rejected, st.newton_iters, st.jac_evals,
               st.lu_decomps, st.cons_max, fabs(energy(tr_y(trn - 1)) / energy(tr_y(0)) - 1));
        /* docs/multibody.md's radau5 table: radau5.pendulum.RTOL.FIELD */
        const char *f[5] = {"error", "steps", "rejected", "newton", "jac"};
        double v[5] = {fabs(Tn - T) / T, st.steps, st.rejected, st.newton_iters, st.jac_evals};
        for (int i = 0; i < 5; i++) {
            char key[64];
            snprintf(key, sizeof key, "radau5.pendulum.%g.%s", tol[k], f[i]);
            MEASURE(key, v[i]);
        }
        CHECK_REL(Tn, T, lim[k], "pendulum period (exact: elliptic integral)");
        CHECK(st.cons_max < 1e-2 * tol[k], "pendulum: |C| after every step %.3g < rtol / 100",
              st.cons_max);
        /* C_q v + C_t is not imposed; the statistic measures it (0, not
         * measured, before issue 30) */
        CHECK(st.vcons_max > 0 && st.vcons_max < VCONS_LIM * tol[k], "pendulum: |C_q v + C_t| "
              "after every step %.3g, measured and below %g rtol", st.vcons_max, VCONS_LIM);
    }
    sys_free(&s);
}

/* ---- Andrews' squeezer (index 3, seven bodies) ---- */
/* The example with `integ` in place of its integrator call, run into a CSV:
 * the largest angle error at t = 0.03 s (NAN on failure), the stats. */
static double andrews(const char *integ, const char *csv, jnt_stats *st)
{
    char *text = read_text("examples/andrews_squeezer.jnt");
    const char *ga = "generalized_alpha(h = h, rho_inf = 0.9)", *at = text ? strstr(text, ga) : 0;
    double e = NAN;
    jnt_model *m = NULL;
    CHECK(at != NULL, "examples/andrews_squeezer.jnt calls %s", ga);
    if (!at) {
        free(text);
        return e;
    }
    char *src = malloc(strlen(text) + strlen(integ) + 1);
    if (!src)
        abort();
    sprintf(src, "%.*s%s%s", (int)(at - text), text, integ, at + strlen(ga));
    int rc = jnt_compile_string("andrews_radau5", src, NULL, &m);
    CHECK(rc == JNT_OK, "andrews_squeezer.jnt compiles with %s", integ);
    free(src), free(text);
    if (rc != JNT_OK)
        return e;
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o;
    memset(&o, 0, sizeof o);
    o.csv_path = test_out(csv);
    rc = jnt_run(m, d, &o);
    CHECK(rc == JNT_OK, "Andrews' squeezer runs with %s: %s", integ, jnt_data_error(d));
    *st = *jnt_data_stats(d);
    jnt_data_free(d);
    jnt_model_free(m);
    csv_table t;
    if (rc == JNT_OK && csv_load(test_out(csv), &t) == 0) {
        e = andsoln_error(&t, NULL);
        csv_free(&t);
    }
    return e;
}

static void test_andrews(void)
{
    jnt_stats r5, ga;
    const char *r5call = "radau5(rtol = 1e-10, atol = 1e-10)";
    double e = andrews(r5call, "andrews_radau5.csv", &r5);
    printf("  andrews %s: error %.3g rad, steps %ld, rejected %ld, newton %ld, jac %ld, "
           "lu %ld, cons %.3g, cpu %.3g s\n", r5call, e, r5.steps, r5.rejected, r5.newton_iters,
           r5.jac_evals, r5.lu_decomps, r5.cons_max, r5.cpu_seconds);
    MEASURE("radau5.andrews.error", e);
    MEASURE("radau5.andrews.steps", r5.steps);
    MEASURE("radau5.andrews.rejected", r5.rejected);
    MEASURE("radau5.andrews.newton", r5.newton_iters);
    MEASURE("radau5.andrews.jac", r5.jac_evals);
    CHECK(e <= 1e-7, "Andrews' squeezer with radau5: the seven angles at t = 0.03 s within "
          "1e-7 rad of the test set's andsoln (%.3g)", e);
    /* beside generalized-alpha at the step that reaches 1e-7 (bench section 11) */
    const char *gacall = "generalized_alpha(h = 0.4 us, rho_inf = 0.9)";
    double eg = andrews(gacall, "andrews_ga.csv", &ga);
    MEASURE("radau5.andrews_ga.error", eg);
    MEASURE("radau5.andrews_ga.steps", ga.steps);
    MEASURE("radau5.andrews_ga.newton", ga.newton_iters);
    printf("  andrews %s: error %.3g rad, steps %ld, newton %ld, cpu %.3g s (radau5: %.3g x)\n",
           gacall, eg, ga.steps, ga.newton_iters, ga.cpu_seconds,
           r5.cpu_seconds / ga.cpu_seconds);
}

int main(void)
{
    test_constants();
    test_oscillator();
    test_pendulum();
    test_andrews();
    free(tr);
    return check_done();
}
