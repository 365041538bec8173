/*
 * test_dae_rk4.c: "rk4" on multibody models (runtime/integrate/integ_dae_rk4.c:
 * the classic RK4 on the index-1 form, the step end projected onto both
 * constraint levels) on the hand-written pendulum of rods.h and on a planar
 * chain of ten rods written in .jnt (the N-link pendulum of bench/peers.sh).
 *
 * References: the pendulum's exact period by the complete elliptic integral;
 * the chain's energy (kept by the exact flow); the order: four for RK4, so
 * halving h divides the errors by about 16.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#include "rods.h"

/* ---- the pendulum: period, order, both constraint levels at every step ---- */
static void test_pendulum(void)
{
    system_t s = pendulum(0);
    jnt_abi_model a = sys_abi(&s, "pendulum");
    double T = 4 * sqrt(I_O / (G * L_ROD / 2)) * ellip_k(sin(TH0 / 2));
    /* measured: period errors 5.4e-5, 1.5e-6, 3.4e-8 */
    double hs[3] = {0.04, 0.02, 0.01}, lim[3] = {1e-4, 3e-6, 1e-7};
    static const char *const key[3] = {"rk4.pendulum.period.40ms", "rk4.pendulum.period.20ms",
                                       "rk4.pendulum.period.10ms"};
    for (int k = 0; k < 3; k++) {
        jnt_stats st;
        char msg[512];
        int rc = run(&s, &a, "rk4", &st, msg, sizeof msg, "t_end", 1.05 * T, "h", hs[k],
                     (const char *)NULL);
        CHECK(rc == JNT_OK, "pendulum rk4 h = %g runs: %s", hs[k], msg);
        if (rc != JNT_OK)
            continue;
        double Tn = first_max_time();
        double drift = fabs(energy(tr_y(trn - 1)) / energy(tr_y(0)) - 1);
        printf("  pendulum rk4 h %g: period rel error %.3g, steps %ld, lu %ld, projections %ld, "
               "|C| %.3g, |C_q v| %.3g, energy drift %.3g\n", hs[k], fabs(Tn - T) / T, st.steps,
               st.lu_decomps, st.newton_iters, st.cons_max, st.vcons_max, drift);
        CHECK_REL(Tn, T, lim[k], "pendulum period (exact: elliptic integral)");
        MEASURE(key[k], fabs(Tn - T) / T);
        CHECK(st.cons_max < 1e-11, "pendulum rk4: |C| after every step %.3g < 1e-11",
              st.cons_max);
        CHECK(st.vcons_max < 1e-12, "pendulum rk4: |C_q v + C_t| after every step %.3g < 1e-12",
              st.vcons_max);
        CHECK(drift < lim[k], "pendulum rk4: energy drift over a period %.3g < %g", drift, lim[k]);
        /* four factorisations a step (three stages and the step end) and the
         * projection's own when its matrix is too far off */
        CHECK(st.lu_decomps >= 4 * st.steps && st.lu_decomps <= 5 * st.steps + 1,
              "pendulum rk4: %ld factorisations for %ld steps", st.lu_decomps, st.steps);
    }
    /* order 4: the angle at t = 1 s (mid-swing) against h = 2.5 ms */
    double th[4] = {NAN, NAN, NAN, NAN}, ho[4] = {0.04, 0.02, 0.01, 0.0025};
    for (int k = 0; k < 4; k++) {
        int rc = run(&s, &a, "rk4", NULL, NULL, 0, "t_end", 1.0, "h", ho[k], (const char *)NULL);
        if (rc == JNT_OK && fabs(tr_t(trn - 1) - 1.0) < 1e-12)
            th[k] = tr_y(trn - 1)[2];
    }
    for (int k = 0; k + 1 < 3; k++) {
        double r = fabs(th[k] - th[3]) / fabs(th[k + 1] - th[3]);
        printf("  pendulum rk4: angle at 1 s, error %.3g at h = %g, %.3g at %g\n",
               fabs(th[k] - th[3]), ho[k], fabs(th[k + 1] - th[3]), ho[k + 1]);
        if (k == 0)
            MEASURE("rk4.pendulum.order", r);
        CHECK(r > 12 && r < 20, "pendulum rk4: order 4: the angle's error at 1 s falls %.3g "
              "times from h = %g to %g (16 expected)", r, ho[k], ho[k + 1]);
    }
    sys_free(&s);
    /* the same pin twice: the assembly drops the 2 redundant rows; the motion
     * is the single pin's */
    jnt_stats st;
    char msg[512];
    system_t s1 = pendulum(0), s2 = pendulum(1);
    jnt_abi_model a1 = sys_abi(&s1, "pendulum"), a2 = sys_abi(&s2, "pendulum2");
    int rc = run(&s1, &a1, "rk4", &st, msg, sizeof msg, "t_end", 1.0, "h", 1e-3,
                 (const char *)NULL);
    double th1 = rc == JNT_OK ? tr_y(trn - 1)[2] : NAN;
    rc = run(&s2, &a2, "rk4", &st, msg, sizeof msg, "t_end", 1.0, "h", 1e-3, (const char *)NULL);
    double th2 = rc == JNT_OK ? tr_y(trn - 1)[2] : NAN;
    CHECK(rc == JNT_OK && fabs(th2 - th1) <= 1e-12, "rk4: the same pin twice runs, 2 rows "
          "dropped: the angle at 1 s %.15g rad, with one pin %.15g %s", th2, th1,
          rc == JNT_OK ? "" : msg);
    sys_free(&s1);
    sys_free(&s2);
    /* the saddle-point path (M not diagonal or singular) against the Schur
     * complement's (M diagonal: the default here) */
    system_t s3 = pendulum(0);
    jnt_abi_model a3 = sys_abi(&s3, "pendulum");
    rc = run(&s3, &a3, "rk4", NULL, NULL, 0, "t_end", 1.0, "h", 1e-2, (const char *)NULL);
    double th_s = rc == JNT_OK ? tr_y(trn - 1)[2] : NAN;
    setenv("JNT_RK4_SADDLE", "1", 1);
    rc = run(&s3, &a3, "rk4", NULL, NULL, 0, "t_end", 1.0, "h", 1e-2, (const char *)NULL);
    unsetenv("JNT_RK4_SADDLE");
    double th_f = rc == JNT_OK ? tr_y(trn - 1)[2] : NAN;
    CHECK(fabs(th_s - th_f) <= 1e-12, "rk4: the saddle-point path and the Schur complement's "
          "agree: the angle at 1 s %.15g and %.15g rad", th_f, th_s);
    sys_free(&s3);
}

/* ---- a director body (its M has a zero diagonal entry): the saddle-point path ---- */
static void test_heavy_top(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_file("examples/heavy_top.jnt", NULL, &m);
    CHECK(rc == JNT_OK, "examples/heavy_top.jnt compiles");
    if (rc != JNT_OK)
        return;
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o;
    memset(&o, 0, sizeof o);
    o.csv_path = "";
    o.integrator = "rk4";
    rc = jnt_run(m, d, &o);
    const jnt_stats *st = jnt_data_stats(d);
    CHECK(rc == JNT_OK && st->cons_max < 1e-10 && st->vcons_max < 1e-10, "the heavy top runs "
          "with rk4 (%s): |C| %.3g, |C_q v + C_t| %.3g after every step", jnt_data_error(d),
          st->cons_max, st->vcons_max);
    jnt_data_free(d);
    jnt_model_free(m);
}

/* ---- a force that depends on lambda (as joint friction does) is refused ---- */
static jnt_rhs_fn base_rhs;
static jnt_jac_fn base_jac;
static int lam_entry = -1; /* the Jacobian entry (theta's v row, lambda_x) */

/* rods.h's rhs plus 0.1 lambda_x on the rod's angle */
static int rhs_lam(double t, const double *y, const double *u, const double *d, const double *p,
                   double *f)
{
    int rc = base_rhs(t, y, u, d, p, f);
    f[cur->nq + 2] += 0.1 * y[2 * cur->nq];
    return rc;
}

static int jac_lam(double t, const double *y, const double *u, const double *d, const double *p,
                   double *jv)
{
    int rc = base_jac(t, y, u, d, p, jv);
    jv[lam_entry] += 0.1;
    return rc;
}

static void test_errors(void)
{
    system_t s = pendulum(0);
    jnt_abi_model a = sys_abi(&s, "pendulum");
    char msg[512];
    int rc = run(&s, &a, "rk4", NULL, msg, sizeof msg, "h", 0.0, (const char *)NULL);
    CHECK(rc == JNT_ERR_PARAM && strstr(msg, "'rk4' needs a step h > 0"),
          "rk4 on a multibody model with h = 0: %d %s", rc, msg);
    base_rhs = a.rhs, base_jac = a.jac;
    int nq = s.nq, col = 2 * nq;
    for (int e = s.colptr[col]; e < s.colptr[col + 1]; e++)
        if (s.rowind[e] == nq + 2)
            lam_entry = e;
    CHECK(lam_entry >= 0, "the pendulum's Jacobian has the entry (theta's v row, lambda_x)");
    if (lam_entry >= 0) {
        a.rhs = rhs_lam, a.jac = jac_lam;
        rc = run(&s, &a, "rk4", NULL, msg, sizeof msg, "h", 1e-3, (const char *)NULL);
        CHECK(rc == JNT_ERR_MODEL && strstr(msg, "needs forces that do not depend on the joint "
                                                 "reactions"),
              "rk4 refuses a force that depends on lambda: %d %s", rc, msg);
        /* generalized_alpha runs it */
        rc = run(&s, &a, "generalized_alpha", NULL, msg, sizeof msg, "h", 1e-3,
                 (const char *)NULL);
        CHECK(rc == JNT_OK, "generalized_alpha runs the same model: %s", msg);
    }
    sys_free(&s);
}

/* ---- the chain of ten rods (bench/peers.sh's N-link pendulum) ---- */
static const char *const CHAIN_HEAD =
    "model nlink10\nparam n = 10\nparam m = 1 kg / n\nparam L = 1 m / n\n"
    "param J = m * L^2 / 12\nparam g = 9.81 m/s^2\nparam h = 1 ms\n";

/* The chain's source with integrator `integ` (the N-link model of bench/peers.sh);
 * `damped`: a damper from the pivot to the last rod's end (a force that reads v). */
static char *chain_source(const char *integ, int damped)
{
    size_t cap = 16384, n = 0;
    char *s = malloc(cap);
    if (!s)
        abort();
    n += (size_t)snprintf(s + n, cap - n, "%s", CHAIN_HEAD);
    for (int i = 1; i <= 10; i++)
        n += (size_t)snprintf(s + n, cap - n, "body b%d : rigid2d(mass = m, inertia = J) {\n"
                              "  marker a = (-L / 2, 0 m)\n  marker b = (L / 2, 0 m)\n}\n", i);
    n += (size_t)snprintf(s + n, cap - n, "joint j1 : revolute(b1.a, (0 m, 0 m))\n");
    for (int i = 2; i <= 10; i++)
        n += (size_t)snprintf(s + n, cap - n, "joint j%d : revolute(b%d.b, b%d.a)\n", i, i - 1, i);
    for (int i = 1; i <= 10; i++)
        n += (size_t)snprintf(s + n, cap - n, "init b%d.x = (%d - 0.5) * L\n", i, i);
    if (damped)
        n += (size_t)snprintf(s + n, cap - n, "damper dd between (0 m, 0 m) and b10.b "
                              "{ damping = 0.05 N*s/m }\n");
    n += (size_t)snprintf(s + n, cap - n, "simulate {\n  integrator = %s\n  until = 1 s\n"
                          "  gravity = (0 m/s^2, -g)\n}\noutput \"nlink.csv\" every 10 ms {\n"
                          "  t, E = 0 J", integ);
    for (int i = 1; i <= 10; i++)
        n += (size_t)snprintf(s + n, cap - n, " + m / 2 * (b%d.x.v^2 + b%d.y.v^2) + J / 2 * "
                              "b%d.angle.v^2 + m * g * b%d.y", i, i, i, i);
    snprintf(s + n, cap - n, "\n}\n");
    return s;
}

/* max |E - E0| (J) of a run of the chain with `integ` (damped or not), NAN on failure. */
static double chain_energy(const char *integ, int damped, jnt_stats *st)
{
    char *src = chain_source(integ, damped);
    jnt_model *m = NULL;
    int rc = jnt_compile_string("nlink10", src, NULL, &m);
    free(src);
    CHECK(rc == JNT_OK, "the ten-rod chain compiles with %s", integ);
    if (rc != JNT_OK)
        return NAN;
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o;
    memset(&o, 0, sizeof o);
    o.csv_path = test_out("nlink10_rk4.csv");
    rc = jnt_run(m, d, &o);
    CHECK(rc == JNT_OK, "the chain runs with %s: %s", integ, jnt_data_error(d));
    *st = *jnt_data_stats(d);
    jnt_data_free(d);
    jnt_model_free(m);
    csv_table t;
    double de = NAN;
    if (rc == JNT_OK && csv_load(test_out("nlink10_rk4.csv"), &t) == 0) {
        const double *e = csv_col(&t, "E");
        de = 0.0;
        for (int i = 0; e && i < t.nrow; i++)
            de = fmax(de, fabs(e[i] - e[0]));
        if (!e || t.nrow < 100)
            de = NAN;
        csv_free(&t);
    }
    return de;
}

static void test_chain(void)
{
    jnt_stats st;
    /* measured: 2.6e-4 J at 4 ms, 1.0e-5 at 2 ms; generalized-alpha (rho_inf = 1) 1.1e-3 at 1 ms */
    double e4 = chain_energy("rk4(h = 4 ms)", 0, &st);
    printf("  chain rk4 h 4 ms: energy error %.3g J, steps %ld, lu %ld, |C| %.3g, |C_q v| %.3g\n",
           e4, st.steps, st.lu_decomps, st.cons_max, st.vcons_max);
    /* the forces read no velocity: the projection's last rhs (at the projected
     * q) serves the next step's first stage, one rhs fewer a step (6.4 before) */
    double per = st.steps > 0 ? (double)st.rhs_evals / (double)st.steps : NAN;
    MEASURE("rk4.nlink10.rhs_per_step", per);
    CHECK(per < 5.6, "the chain with rk4: %.3g rhs evaluations a step (the step end's reused)",
          per);
    jnt_stats sd;
    double ed = chain_energy("rk4(h = 4 ms)", 1, &sd);
    double perd = sd.steps > 0 ? (double)sd.rhs_evals / (double)sd.steps : NAN;
    CHECK(perd > per + 0.9 && ed > 1e-3, "the damped chain (a force of v): %.3g rhs evaluations "
          "a step, none reused, energy lost %.3g J", perd, ed);
    double e2 = chain_energy("rk4(h = 2 ms)", 0, &st);
    printf("  chain rk4 h 2 ms: energy error %.3g J, steps %ld, lu %ld, |C| %.3g, |C_q v| %.3g\n",
           e2, st.steps, st.lu_decomps, st.cons_max, st.vcons_max);
    CHECK(st.cons_max < 1e-11 && st.vcons_max < 1e-12, "the chain with rk4: |C| %.3g m, "
          "|C_q v + C_t| %.3g m/s after every step", st.cons_max, st.vcons_max);
    double ga = chain_energy("generalized_alpha(h = 1 ms, rho_inf = 1)", 0, &st);
    printf("  chain generalized_alpha h 1 ms: energy error %.3g J\n", ga);
    MEASURE("rk4.nlink10.energy.4ms", e4);
    MEASURE("rk4.nlink10.energy.2ms", e2);
    MEASURE("galpha.nlink10.energy.1ms", ga);
    CHECK(e2 < 3e-5, "the chain with rk4 at h = 2 ms keeps its energy to %.3g J (< 3e-5)", e2);
    CHECK(e4 < ga, "the chain with rk4 at h = 4 ms (%.3g J) keeps its energy better than "
          "generalized-alpha at 1 ms (%.3g J)", e4, ga);
    CHECK(e4 / e2 > 8, "the chain: halving rk4's step divides the energy error by %.3g (order 4)",
          e4 / e2);
}

int main(void)
{
    test_pendulum();
    test_errors();
    test_heavy_top();
    test_chain();
    free(tr);
    return check_done();
}
