/*
 * test_ida.c: the SUNDIALS IDA integrator of multibody models ("ida",
 * runtime/integrate/integ_ida.c: variable-order BDF on the GGL stabilised
 * index-2 form) on the hand-written pendulum of rods.h (the same rod as
 * test_dae.c and test_radau5.c, in absolute coordinates) and on
 * examples/andrews_squeezer.jnt.
 *
 * References: the pendulum's exact period by the complete elliptic integral
 * (arithmetic-geometric mean), its energy; the Test Set for IVP Solvers'
 * andsoln (Mazzia and Magherini, problem "andrews") at t = 0.03 s, as
 * tests/examples/test_andrews.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "andsoln.h"
#include "jnt/jnt.h"

#include "rods.h"

/* ---- the pendulum: period, energy, both constraint levels at every step ---- */
static void test_pendulum(void)
{
    system_t s = pendulum(0);
    jnt_abi_model a = sys_abi(&s, "pendulum");
    double T = 4 * sqrt(I_O / (G * L_ROD / 2)) * ellip_k(sin(TH0 / 2));
    /* measured: period 2.2e-4, 7.2e-6, 1.0e-7; |C| 0.11, 0.28, 0.13 rtol; |C_q v| 7.5,
     * 3.6, 5.4 rtol; energy 24, 175, 254 rtol (IDA controls the local error) */
    double tol[3] = {1e-6, 1e-8, 1e-10}, lim[3] = {1e-3, 3e-5, 1e-6};
    long steps_prev = 0;
    for (int k = 0; k < 3; k++) {
        jnt_stats st;
        char err[512];
        int rc = run(&s, &a, "ida", &st, err, sizeof err, "t_end", 1.05 * T, "h", 0.0, "rtol",
                     tol[k], "atol", tol[k], (const char *)NULL);
        CHECK(rc == JNT_OK, "pendulum ida rtol %g runs: %s", tol[k], err);
        if (rc != JNT_OK)
            continue;
        double Tn = first_max_time();
        double drift = fabs(energy(tr_y(trn - 1)) / energy(tr_y(0)) - 1);
        printf("  pendulum ida rtol %g: period rel error %.3g, steps %ld, rejected %ld, "
               "newton %ld, jac %ld, lu %ld, |C| %.3g, |C_q v| %.3g, energy drift %.3g\n",
               tol[k], (Tn - T) / T, st.steps, st.rejected, st.newton_iters, st.jac_evals,
               st.lu_decomps, st.cons_max, st.vcons_max, drift);
        CHECK_REL(Tn, T, lim[k], "pendulum period (exact: elliptic integral)");
        static const char *const key[3][3] = {
            {"ida.pendulum.period.1e-6", "ida.pendulum.steps.1e-6", "ida.pendulum.lu.1e-6"},
            {"ida.pendulum.period.1e-8", "ida.pendulum.steps.1e-8", "ida.pendulum.lu.1e-8"},
            {"ida.pendulum.period.1e-10", "ida.pendulum.steps.1e-10", "ida.pendulum.lu.1e-10"}};
        MEASURE(key[k][0], fabs(Tn - T) / T);
        MEASURE(key[k][1], st.steps);
        MEASURE(key[k][2], st.lu_decomps);
        /* GGL: both C = 0 and C_q v + C_t = 0 are equations of every step */
        CHECK(st.cons_max < tol[k], "pendulum: |C| after every step %.3g < rtol", st.cons_max);
        CHECK(st.vcons_max < 20 * tol[k], "pendulum: |C_q v + C_t| after every step %.3g < "
              "20 rtol", st.vcons_max);
        CHECK(drift < 1000 * tol[k], "pendulum: energy drift over a period %.3g < 1000 rtol",
              drift);
        /* modified Newton: a factorisation every several steps */
        CHECK(st.lu_decomps < st.steps / 3, "pendulum: %ld LU for %ld steps (kept across steps)",
              st.lu_decomps, st.steps);
        CHECK(st.steps > steps_prev, "pendulum: tighter rtol, more steps (%ld)", st.steps);
        steps_prev = st.steps;
    }
    sys_free(&s);
    /* the same pin twice: the assembly drops the 2 redundant rows, whose
     * multipliers ida holds at 0; the motion is the single pin's */
    jnt_stats st;
    char err[512];
    system_t s1 = pendulum(0), s2 = pendulum(1);
    jnt_abi_model a1 = sys_abi(&s1, "pendulum"), a2 = sys_abi(&s2, "pendulum2");
    int rc = run(&s1, &a1, "ida", &st, err, sizeof err, "t_end", 1.0, "rtol", 1e-8, "atol", 1e-8,
                 (const char *)NULL);
    double th1 = rc == JNT_OK ? tr_y(trn - 1)[2] : NAN;
    rc = run(&s2, &a2, "ida", &st, err, sizeof err, "t_end", 1.0, "rtol", 1e-8, "atol", 1e-8,
             (const char *)NULL);
    double th2 = rc == JNT_OK ? tr_y(trn - 1)[2] : NAN;
    CHECK(rc == JNT_OK && fabs(th2 - th1) <= 1e-5, "ida: the same pin twice runs, 2 rows "
          "dropped: the angle at 1 s %.15g rad, with one pin %.15g (1e-5; rtol 1e-8, the steps "
          "differ) %s", th2, th1,
          rc == JNT_OK ? "" : err);
    sys_free(&s1);
    sys_free(&s2);
}

/* ---- bad settings and models ---- */
static void test_errors(void)
{
    system_t s = pendulum(0);
    jnt_abi_model a = sys_abi(&s, "pendulum");
    char err[512];
    int rc = run(&s, &a, "ida", NULL, err, sizeof err, "rtol", 0.0, (const char *)NULL);
    CHECK(rc == JNT_ERR_PARAM && strstr(err, "'ida' needs rtol > 0"), "ida with rtol 0: %d %s",
          rc, err);
    rc = run(&s, &a, "ida", NULL, err, sizeof err, "rtol", 1e-6, "atol", -1.0,
             (const char *)NULL);
    CHECK(rc == JNT_ERR_PARAM && strstr(err, "'ida' needs atol > 0"), "ida with atol -1: %d %s",
          rc, err);
    sys_free(&s);
    /* an ordinary model: ida is for multibody models (the command line's error) */
    jnt_model *m = NULL;
    rc = jnt_compile_file("examples/forced_3dof.jnt", NULL, &m);
    CHECK(rc == JNT_OK, "examples/forced_3dof.jnt compiles");
    if (rc == JNT_OK) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o;
        memset(&o, 0, sizeof o);
        o.csv_path = "";
        o.integrator = "ida";
        rc = jnt_run(m, d, &o);
        CHECK(rc == JNT_ERR_USAGE && strstr(jnt_data_error(d), "needs a multibody model"),
              "ida on an ordinary model: %d %s", rc, jnt_data_error(d));
        jnt_data_free(d);
        jnt_model_free(m);
    }
}

/* ---- Andrews' squeezer (seven bodies, ten pins, 82 unknowns) ---- */
static void test_andrews(void)
{
    char *text = read_text("examples/andrews_squeezer.jnt");
    const char *ga = "generalized_alpha(h = h, rho_inf = 0.9)", *at = text ? strstr(text, ga) : 0;
    const char *integ = "ida(rtol = 1e-10, atol = 1e-10)";
    CHECK(at != NULL, "examples/andrews_squeezer.jnt calls %s", ga);
    if (!at) {
        free(text);
        return;
    }
    char *src = malloc(strlen(text) + strlen(integ) + 1);
    if (!src)
        abort();
    sprintf(src, "%.*s%s%s", (int)(at - text), text, integ, at + strlen(ga));
    jnt_model *m = NULL;
    int rc = jnt_compile_string("andrews_ida", src, NULL, &m);
    CHECK(rc == JNT_OK, "andrews_squeezer.jnt compiles with %s", integ);
    free(src), free(text);
    if (rc != JNT_OK)
        return;
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o;
    memset(&o, 0, sizeof o);
    o.csv_path = test_out("andrews_ida.csv");
    rc = jnt_run(m, d, &o);
    CHECK(rc == JNT_OK, "Andrews' squeezer runs with %s: %s", integ, jnt_data_error(d));
    jnt_stats st = *jnt_data_stats(d);
    jnt_data_free(d);
    jnt_model_free(m);
    csv_table t;
    double e = NAN;
    if (rc == JNT_OK && csv_load(test_out("andrews_ida.csv"), &t) == 0) {
        e = andsoln_error(&t, NULL);
        csv_free(&t);
    }
    printf("  andrews %s: error %.3g rad, steps %ld, rejected %ld, newton %ld, jac %ld, lu %ld, "
           "|C| %.3g, |C_q v| %.3g, cpu %.3g s\n", integ, e, st.steps, st.rejected,
           st.newton_iters, st.jac_evals, st.lu_decomps, st.cons_max, st.vcons_max,
           st.cpu_seconds);
    MEASURE("ida.andrews.error", e);
    MEASURE("ida.andrews.steps", st.steps);
    MEASURE("ida.andrews.rejected", st.rejected);
    MEASURE("ida.andrews.lu", st.lu_decomps);
    CHECK(e <= 1e-7, "Andrews' squeezer with ida: the seven angles at t = 0.03 s within 1e-7 rad "
          "of the test set's andsoln (%.3g)", e);
    CHECK(st.cons_max < 1e-9 && st.vcons_max < 1e-6, "Andrews' squeezer with ida: |C| %.3g m, "
          "|C_q v + C_t| %.3g m/s after every step", st.cons_max, st.vcons_max);
}

int main(void)
{
    test_pendulum();
    test_errors();
    test_andrews();
    free(tr);
    return check_done();
}
