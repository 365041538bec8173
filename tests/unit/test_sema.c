/*
 * test_sema.c: semantics that need a running model to observe: prescribed
 * motions (position, and its symbolic first and second time derivatives),
 * the contact pressure input p = N / area of friction laws, parameter
 * defaults that follow the parameters they use, array elements with their
 * iterator, and the force balance of springs and dampers (analytic).
 */
#include <math.h>

#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

static jnt_model *compile(const char *name, const char *text)
{
    jnt_model *m = NULL;
    CHECK(jnt_compile_string(name, text, NULL, &m) == JNT_OK, "compile %s", name);
    return m;
}

static double out(jnt_model *m, jnt_data *d, const char *col)
{
    return jnt_output(m, d, jnt_output_index(m, col));
}

int main(void)
{
    jnt_run_opts none = {.csv_path = ""};

    /* motion: s = A sin(w t), v = A w cos(w t), a = -A w^2 sin(w t), exactly */
    jnt_model *m = compile("motion", "param A = 2 mm\n"
                                     "param T = 0.8 s\n"
                                     "body b : point(mass = 1 kg) { dof x }\n"
                                     "motion drive on b.x = A * sin(2 * pi * t / T)\n"
                                     "simulate { integrator = rk4(h = 1 ms)  until = 0.3 s }\n"
                                     "output \"-\" every 1 ms { t, s = b.x, v = b.x.v, a = b.x.a, "
                                     "d = drive }\n");
    if (m) {
        jnt_data *d = jnt_data_new(m);
        CHECK(jnt_run(m, d, &none) == JNT_OK, "motion: runs without continuous states");
        double w = 2 * 3.14159265358979323846 / 0.8, t = jnt_time(d);
        CHECK_NEAR(out(m, d, "s"), 2e-3 * sin(w * t), 1e-15, "motion: position");
        CHECK_NEAR(out(m, d, "v"), 2e-3 * w * cos(w * t), 1e-14, "motion: velocity = d/dt");
        CHECK_NEAR(out(m, d, "a"), -2e-3 * w * w * sin(w * t), 1e-13, "motion: acceleration");
        CHECK_NEAR(out(m, d, "d"), out(m, d, "s"), 0, "motion: its name reads the position");
        jnt_data_free(d);
        jnt_model_free(m);
    }

    /* a spring-mass pulled by a prescribed support: x'' = k (u - x) / m with
     * u = U t; the analytic solution x = U (t - sin(w t) / w), w = sqrt(k/m) */
    m = compile("support", "body s : point(mass = 1 kg) { dof x }\n"
                           "body b : point(mass = 2 kg) { dof x }\n"
                           "motion pull on s.x = 0.1 m/s * t\n"
                           "spring k between b.x and s.x { stiffness = 8 N/m }\n"
                           "simulate { integrator = dopri5(rtol = 1e-10, atol = 1e-12)  until = 3 s }\n"
                           "output \"-\" every 0 s { t, x = b.x }\n");
    if (m) {
        jnt_data *d = jnt_data_new(m);
        CHECK(jnt_run(m, d, &none) == JNT_OK, "support: runs");
        CHECK(jnt_model_abi(m)->ny == 2, "support: the prescribed dof has no states (ny = %d)",
              jnt_model_abi(m)->ny);
        double w = 2, t = 3;
        CHECK_NEAR(out(m, d, "x"), 0.1 * (t - sin(w * t) / w), 1e-9,
                   "support: x = U (t - sin(w t)/w) (analytic)");
        jnt_data_free(d);
        jnt_model_free(m);
    }

    /* friction with normal and area: the law sees p = N / area and area */
    m = compile("pressure", "law friction stress(tau_max: Pa) {\n"
                            "  force = min(tau_max, p) * area\n"
                            "}\n"
                            "body b : point(mass = 1 kg) { dof x }\n"
                            "motion go on b.x = 1 mm/s * t\n"
                            "friction f between b.x and ground { normal = 30 N  area = 2 cm^2\n"
                            "  law = stress(tau_max = 1e6 Pa) }\n"
                            "simulate { integrator = rk4(h = 1 ms)  until = 1 ms }\n"
                            "output \"-\" every 1 ms { t, F = f.force, p = f.p }\n");
    if (m) {
        jnt_data *d = jnt_data_new(m);
        CHECK(jnt_run(m, d, &none) == JNT_OK, "pressure: runs");
        CHECK_NEAR(out(m, d, "p"), 30 / 2e-4, 1e-6, "pressure: p = N / area");
        CHECK_NEAR(out(m, d, "F"), 30, 1e-12, "pressure: p * area = N");
        jnt_data_free(d);
        jnt_model_free(m);
    }

    /* parameter defaults follow -D of the parameters they use; arrays of
     * elements with their iterator: n springs k_i = i * 10 N/m in parallel */
    m = compile("params", "const n = 4\n"
                          "param k0 = 10 N/m\n"
                          "param F = 2 * k0 * 1 mm\n"
                          "body b : point(mass = 1 kg) { dof x }\n"
                          "spring k[i in 1..n] between b.x and ground { stiffness = i * k0 }\n"
                          "damper c between b.x and ground { damping = 5 N*s/m }\n"
                          "force push on b.x = F\n"
                          "simulate { integrator = bdf(rtol = 1e-10, atol = 1e-14)  until = 20 s }\n"
                          "output \"-\" every 0 s { t, x = b.x }\n");
    if (m) {
        jnt_data *d = jnt_data_new(m);
        CHECK(jnt_set_param_text(m, d, "k0=20") == JNT_OK, "params: -D k0=20");
        CHECK(jnt_run(m, d, &none) == JNT_OK, "params: runs");
        /* static equilibrium: F / sum(k_i) = 2 k0 1 mm / (10 k0) = 0.2 mm, whatever k0 */
        CHECK_NEAR(out(m, d, "x"), 2e-4, 1e-9, "params: x = F / sum(i k0) with F following k0");
        CHECK_NEAR(jnt_get_param(m, d, jnt_param_index(m, "F")), 2 * 20 * 1e-3, 1e-15,
                   "params: the default of F is recomputed from k0");
        jnt_data_free(d);
        jnt_model_free(m);
    }
    /* exact Coulomb with mu_s != mu_k (switching stick algorithm): a block at
     * rest pushed by F = 10 N/s t sticks (v = 0 exactly) until F = mu_s N =
     * 5 N at t = 0.5 s, then slides against mu_k N = 3 N: a = 10 t - 3, so
     * v(1 s) = 5 (1 - 0.25) - 3 (1 - 0.5) = 2.25 m/s (analytic) */
    m = compile("coulomb_switch", "import friction\n"
                                  "body b : point(mass = 1 kg) { dof x }\n"
                                  "force push on b.x = 10 N/s * t\n"
                                  "friction f between b.x and ground { normal = 10 N\n"
                                  "  law = coulomb_switch(mu_s = 0.5, mu_k = 0.3) }\n"
                                  "simulate { integrator = rk4(h = 0.1 ms)  until = 1 s }\n"
                                  "output \"-\" every 1 ms { t, v = b.x.v }\n");
    if (m) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts at = {.csv_path = "", .t_end = 0.49};
        CHECK(jnt_run(m, d, &at) == JNT_OK && out(m, d, "v") == 0,
              "coulomb_switch: sticks exactly while F < mu_s N (v(0.49 s) = %g)", out(m, d, "v"));
        CHECK(jnt_run(m, d, &none) == JNT_OK, "coulomb_switch: runs");
        CHECK_NEAR(out(m, d, "v"), 2.25, 1e-3, "coulomb_switch: v(1 s) after break-away at mu_s N, "
                                               "sliding at mu_k N (analytic)");
        jnt_data_free(d);
        jnt_model_free(m);
    }

    /* the same through a point: the push acts on mid = (b.x + c.x) / 2, so half
     * of it reaches b (virtual work) and F_eq of the friction on b must count
     * that half: b sticks until 5 N/s t = 5 N at t = 1 s (analytic) */
    m = compile("point_feq", "import friction\n"
                             "body b : point(mass = 1 kg) { dof x }\n"
                             "body c : point(mass = 1 kg) { dof x }\n"
                             "point mid = (b.x + c.x) / 2\n"
                             "force push on mid = 10 N/s * t\n"
                             "spring k between c.x and ground { stiffness = 1e4 N/m }\n"
                             "friction f between b.x and ground { normal = 10 N\n"
                             "  law = coulomb_switch(mu_s = 0.5, mu_k = 0.3) }\n"
                             "simulate { integrator = rk4(h = 0.1 ms)  until = 1.2 s }\n"
                             "output \"-\" every 1 ms { t, v = b.x.v, F = f.force }\n");
    if (m) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts at = {.csv_path = "", .t_end = 0.99};
        CHECK(jnt_run(m, d, &at) == JNT_OK && out(m, d, "v") == 0,
              "a force on a point: F_eq counts its share, b sticks (v(0.99 s) = %g)", out(m, d, "v"));
        CHECK_NEAR(out(m, d, "F"), 0.5 * 9.9, 1e-9, "a force on a point: the friction holds half "
                                                    "the push at 0.99 s (virtual work)");
        CHECK(jnt_run(m, d, &none) == JNT_OK && out(m, d, "v") > 0,
              "a force on a point: b breaks away after 1 s (v(1.2 s) = %g)", out(m, d, "v"));
        jnt_data_free(d);
        jnt_model_free(m);
    }

    /* analyses: the eigenvalues of a damped oscillator (analytic: -c/2m +/- i
     * sqrt(k/m - (c/2m)^2)) and the loop energy of regularised Coulomb friction
     * (4 mu N A per cycle, minus the regularisation's share, here below 1e-3) */
    m = compile("analyses", "import friction\n"
                            "body b : point(mass = 2 kg) { dof x }\n"
                            "spring k between b.x and ground { stiffness = 8 N/m }\n"
                            "damper c between b.x and ground { damping = 0.4 N*s/m }\n"
                            "analysis modes : linear(at = 0 s)\n"
                            "analysis loop : hysteresis(law = coulomb_tanh(mu = 0.3, v_reg = "
                            "0.01 mm/s),\n"
                            "  slip = 1 mm * sin(2 * pi * t / 0.5 s), normal = 10 N, period = 0.5 s,"
                            " cycles = 2)\n");
    if (m) {
        jnt_data *d = jnt_data_new(m);
        char dir[512];
        snprintf(dir, sizeof dir, "%s", test_out(""));
        dir[strlen(dir) - 1] = 0;
        CHECK(jnt_run_analyses(m, d, dir) == JNT_OK, "analyses run: %s", jnt_data_error(d));
        csv_table t;
        if (csv_load(test_out("modes.csv"), &t) == 0 && t.nrow == 2) {
            CHECK_NEAR(csv_col(&t, "re")[0], -0.1, 1e-12, "linear: real part -c/2m");
            CHECK_NEAR(fabs(csv_col(&t, "im")[0]), sqrt(4 - 0.01), 1e-12,
                       "linear: imaginary part sqrt(k/m - (c/2m)^2)");
            CHECK_NEAR(csv_col(&t, "zeta")[1], 0.1 / 2, 1e-12, "linear: damping ratio");
            csv_free(&t);
        } else {
            CHECK(0, "linear: modes.csv has two eigenvalues");
        }
        if (csv_load(test_out("loop_cycles.csv"), &t) == 0 && t.nrow == 2) {
            CHECK_REL(csv_col(&t, "energy_J")[1], 4 * 0.3 * 10 * 1e-3, 1e-3,
                      "hysteresis: energy per cycle 4 mu N A (Coulomb)");
            csv_free(&t);
        } else {
            CHECK(0, "hysteresis: loop_cycles.csv has two cycles");
        }
        CHECK(csv_load(test_out("loop.csv"), &t) == 0 && t.nrow == 2001 && csv_col(&t, "F"),
              "hysteresis: loop.csv has the loop (t, s, v, F, W), 1000 points per cycle, 2 cycles");
        csv_free(&t);
        jnt_data_free(d);
        jnt_model_free(m);
    }
    return check_done();
}
