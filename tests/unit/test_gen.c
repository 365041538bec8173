/*
 * test_gen.c: the generated analytic Jacobians against central finite
 * differences, for every example and every stdlib law, at states taken from
 * the models' own trajectories (stick, slip and the transitions between).
 * An entry whose finite differences at h and h/4 disagree (the step crossed
 * a kink of a piecewise law) is skipped and counted, not compared.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/data.h"
#include "jnt/jnt.h"

/* A journal in a cylinder clearance joint, spinning at 5 rad/s and sliding along the axis at
 * 0.1 m/s: the circumferential and the axial friction, one plane bristle, law LAW (as
 * tests/examples/test_spatial.c's plane_bristle). */
#define LUGRE_ARGS "(sigma0 = 1e5 /m, sigma1 = 0.01 s/m, mu_s = 0.3, mu_k = 0.3, v_s = 1 mm/s)"
#define PLANE_BRISTLE(LAW, INTEG)                                                          \
    "import contact\nimport friction\n"                                                      \
    "body b : rigid3d(mass = 1 kg, inertia = (1000 kg*m^2, 1000 kg*m^2, 1000 kg*m^2),\n"      \
    "                 omega = (5 / 1 s, 0 / 1 s, 0 / 1 s)) { marker c = (0 m, 0 m, 0 m) }\n"  \
    "contact bearing between b.c and (0 m, 0 m, 0 m) {\n  law = linear_spring(k = 1 MN/m)\n"  \
    "  clearance = cylinder(rho_k = 20.5 mm, rho_l = 20 mm, axis = (1, 0, 0))\n}\n"          \
    "friction turn between b.c and (0 m, 0 m, 0 m) {\n"                                       \
    "  law = " LAW "\n"                                                                      \
    "  normal = bearing.force  radii = (20 mm, 20.5 mm)  axis = (1, 0, 0)  bristle = plane\n}\n" \
    "friction slide between b.c and (0 m, 0 m, 0 m) {\n"                                      \
    "  law = " LAW "\n"                                                                      \
    "  normal = bearing.force  radii = (20 mm, 20.5 mm)  axis = (1, 0, 0)  slip = axial\n"     \
    "  bristle = plane\n}\n"                                                                  \
    "init b.z = -0.5 mm - 9.81 um\ninit b.x.v = 0.1 m/s\n"                                    \
    "simulate { integrator = " INTEG "  gravity = (0 m/s^2, 0 m/s^2, -9.81 m/s^2)  until = 30 ms }\n"

/* One model per stdlib law, each driven through stick and slip. */
static const struct {
    const char *name;
    const char *text;
} law_models[] = {
    {"coulomb_tanh", "import friction\n"
                     "body b : point(mass = 1 kg) { dof x }\n"
                     "spring k between b.x and ground { stiffness = 100 N/m }\n"
                     "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                     "friction fr between b.x and ground { normal = 10 N  law = coulomb_tanh(mu = 0.5) }\n"
                     "simulate { integrator = bdf  until = 2 s }\n"},
    {"stribeck_rill", "import friction\n"
                      "body b : point(mass = 1 kg) { dof x }\n"
                      "spring k between b.x and ground { stiffness = 100 N/m }\n"
                      "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                      "friction fr between b.x and ground { normal = 10 N\n"
                      "  law = stribeck_rill(mu_s = 0.6, v_s = 1 mm/s, mu_d = 0.3, v_d = 10 mm/s) }\n"
                      "simulate { integrator = bdf  until = 2 s }\n"},
    {"lugre", "import friction\n"
              "body b : point(mass = 1 kg) { dof x }\n"
              "spring k between b.x and ground { stiffness = 100 N/m }\n"
              "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
              "friction fr between b.x and ground { normal = 10 N\n"
              "  law = lugre(sigma0 = 1e4 /m, sigma1 = 30 s/m, sigma2 = 0.01 s/m, mu_s = 0.6,\n"
              "              mu_k = 0.4, v_s = 1 mm/s) }\n"
              "simulate { integrator = bdf  until = 2 s }\n"},
    {"lugre_force", "import friction\n"
                    "body b : point(mass = 1 kg) { dof x }\n"
                    "spring k between b.x and ground { stiffness = 100 N/m }\n"
                    "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                    "friction fr between b.x and ground {\n"
                    "  law = lugre_force(sigma0 = 1e5 N/m, sigma1 = 316 N*s/m, sigma2 = 0.4 N*s/m,\n"
                    "                    F_C = 4 N, F_S = 6 N, V_S = 1 mm/s) }\n"
                    "simulate { integrator = bdf  until = 2 s }\n"},
    {"lugre_tdg", "import friction\n"
                  "body b : point(mass = 1 kg) { dof x }\n"
                  "spring k between b.x and ground { stiffness = 100 N/m }\n"
                  "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                  "friction fr between b.x and ground { normal = 10 N\n"
                  "  law = lugre_tdg(sigma0 = 1e5 /m, sigma1 = 0.01 s/m, sigma2 = 0.002 s/m,\n"
                  "                  mu_s = 0.4, mu_k = 0.3, v_s = 1 mm/s) }\n"
                  "simulate { integrator = midpoint(h = 0.1 ms)  until = 2 s }\n"},
    /* a plane bristle (`bristle = plane`): a journal sliding along its bearing and spinning,
     * the two friction elements' laws taking the other tangent's slip v2 != 0 */
    {"lugre, plane bristle", PLANE_BRISTLE("lugre" LUGRE_ARGS, "midpoint(h = 50 us)")},
    {"lugre_tdg, plane bristle", PLANE_BRISTLE("lugre_tdg" LUGRE_ARGS, "midpoint(h = 50 us)")},
    {"coulomb_tanh, plane bristle",
     PLANE_BRISTLE("coulomb_tanh(mu = 0.3, v_reg = 0.1 m/s)", "midpoint(h = 50 us)")},
    {"coulomb_exp, plane bristle",
     PLANE_BRISTLE("coulomb_exp(mu_k = 0.3, v0 = 0.1 m/s)", "midpoint(h = 50 us)")},
    {"stribeck_rill, plane bristle", PLANE_BRISTLE("stribeck_rill(mu_s = 0.4, v_s = 20 mm/s, "
                                                   "mu_d = 0.3, v_d = 0.3 m/s)", "midpoint(h = 50 us)")},
    /* the clearance joints' energy-consistent contact (seed 001 eq. 4; the cylinder's
     * discrete gradient): the journal above in its bearing, and a shaft whose end whirls in
     * a spherical clearance (tests/examples/test_spatial.c's rotor) */
    {"cylinder clearance, energy_consistent",
     PLANE_BRISTLE("lugre" LUGRE_ARGS, "midpoint(h = 50 us)")
     "contact extra between b.c and (0 m, 0 m, 0 m) {\n  law = linear_spring(k = 1 MN/m)\n"
     "  clearance = cylinder(rho_k = 20.5 mm, rho_l = 20 mm, axis = (1, 0, 0))\n"
     "  form = energy_consistent\n}\n"},
    {"spherical clearance, energy_consistent",
     "import contact\n"
     "body shaft : rigid3d(mass = 10 kg, inertia = (0.05 kg*m^2, 1 kg*m^2, 1 kg*m^2),\n"
     "                     omega = (5 / 1 s, 0 / 1 s, 2 / 1 s)) {\n"
     "  marker root = (-0.5 m, 0 m, 0 m)\n  marker journal = (0.5 m, 0 m, 0 m)\n}\n"
     "joint pivot : spherical(shaft.root, (0 m, 0 m, 0 m))\n"
     "contact bearing between shaft.journal and (1 m, 0 m, 0 m) {\n"
     "  law = linear_spring(k = 15 MN/m)\n  gap0 = 0.5 mm\n  form = energy_consistent\n}\n"
     "init shaft.x = 0.5 m\ninit shaft.y.v = 1 m/s\n"
     "simulate { integrator = midpoint(h = 20 us)  gravity = (0 m/s^2, 0 m/s^2, -9.81 m/s^2)"
     "  until = 20 ms }\n"},
    {"frdyn2", "import friction\n"
               "body b : point(mass = 1 kg) { dof x }\n"
               "force f on b.x = 8 N * sin(2 * pi * t / 1 s)\n"
               "friction fr between b.x and ground { normal = 9.81 N\n"
               "  law = frdyn2(mu_s = 0.6, v_s = 1 mm/s, mu_d = 0.3, v_d = 10 mm/s,\n"
               "               sigma0 = 5e6 N/m, sigma1 = 3192.75 N*s/m) }\n"
               "simulate { integrator = bdf  until = 2 s }\n"},
    {"penalty_ec", "import contact\n"
                   "body b : point(mass = 1 kg) { dof x }\n"
                   "init b.x.v = 1 m/s\n"
                   "contact wall between b.x and ground { law = penalty_ec(eps_N = 1e9 Pa/m)\n"
                   "  area = 1 cm^2  gap0 = 1 mm }\n"
                   "simulate { integrator = midpoint(h = 10 us)  until = 20 ms }\n"},
    {"hertz_ec", "import contact\n"
                 "body b : point(mass = 1 kg) { dof x }\n"
                 "init b.x.v = 1 m/s\n"
                 "contact wall between b.x and ground { law = hertz_ec(K = 1e9 N/m^1.5)\n"
                 "  gap0 = 1 mm }\n"
                 "simulate { integrator = midpoint(h = 10 us)  until = 20 ms }\n"},
    {"penalty", "import contact\n"
                "body b : point(mass = 1 kg) { dof x }\n"
                "init b.x.v = 1 m/s\n"
                "contact wall between b.x and ground { law = penalty(eps_N = 1e9 Pa/m)\n"
                "  area = 1 cm^2  gap0 = 1 mm }\n"
                "simulate { integrator = bdf  until = 20 ms }\n"},
    {"coulomb_switch", "import friction\n"
                       "body b : point(mass = 1 kg) { dof x }\n"
                       "spring k between b.x and ground { stiffness = 100 N/m }\n"
                       "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                       "friction fr between b.x and ground { normal = 10 N\n"
                       "  law = coulomb_switch(mu_s = 0.6, mu_k = 0.4) }\n"
                       "simulate { integrator = rk4(h = 1 ms)  until = 2 s }\n"},
    {"coulomb3", "import hysteresis\n"
                 "body b : point(mass = 1 kg) { dof x }\n"
                 "spring k between b.x and ground { stiffness = 100 N/m }\n"
                 "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                 "friction fr between b.x and ground { normal = 10 N  area = 1 cm^2\n"
                 "  law = coulomb3(c1 = 1e8 Pa/m, c2 = 1e7 Pa/m, mu = 0.5) }\n"
                 "simulate { integrator = rk4(h = 1 ms)  until = 2 s }\n"},
    {"jenkins", "import hysteresis\n"
                "body b : point(mass = 1 kg) { dof x }\n"
                "spring k between b.x and ground { stiffness = 100 N/m }\n"
                "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                "friction fr between b.x and ground { law = jenkins(k = 1e4 N/m, F_s = 5 N) }\n"
                "simulate { integrator = rk4(h = 1 ms)  until = 2 s }\n"},
    {"segalman", "import hysteresis\n"
                 "const n = 8\n"
                 "body b : point(mass = 1 kg) { dof x }\n"
                 "spring k between b.x and ground { stiffness = 100 N/m }\n"
                 "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                 "friction j[i in 0..n] between b.x and ground {\n"
                 "  law = segalman(F_S = 8 N, K_T = 1e4 N/m, chi = -0.5, beta = 0.1, n = n, i = i) }\n"
                 "simulate { integrator = rk4(h = 1 ms)  until = 2 s }\n"},
    {"dahl", "import hysteresis\n"
             "body b : point(mass = 1 kg) { dof x }\n"
             "spring k between b.x and ground { stiffness = 100 N/m }\n"
             "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
             "friction fr between b.x and ground { normal = 10 N * (1.2 + sin(3 * t / 1 s))\n"
             "  area = 1 cm^2  law = dahl(sigma0 = 1e8 Pa/m, c2 = 1e7 Pa/m, mu = 0.5, alpha = 2) }\n"
             "simulate { integrator = bdf  until = 2 s }\n"},
    {"valanis", "import hysteresis\n"
                "body b : point(mass = 1 kg) { dof x }\n"
                "spring k between b.x and ground { stiffness = 100 N/m }\n"
                "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                "friction fr between b.x and ground { normal = 10 N * (1.2 + sin(3 * t / 1 s))\n"
                "  area = 1 cm^2  law = valanis(E0 = 1.1e8 Pa/m, Et = 1e7 Pa/m, kappa = 0.5, mu = 0.5) }\n"
                "simulate { integrator = bdf  until = 2 s }\n"},
    {"bouc_wen", "import hysteresis\n"
                 "body b : point(mass = 1 kg) { dof x }\n"
                 "spring k between b.x and ground { stiffness = 100 N/m }\n"
                 "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                 "friction fr between b.x and ground { normal = 10 N * (1.2 + sin(3 * t / 1 s))\n"
                 "  area = 1 cm^2  law = bouc_wen(A = 1e8 Pa/m, c2 = 1e7 Pa/m, mu = 0.5, n = 2) }\n"
                 "simulate { integrator = bdf  until = 2 s }\n"},
    {"points", "import hysteresis\n"
               "substructure c : chain(n = 3, k = 200 N/m, mass = 0.5 kg) { reduce = modal(modes = 3) }\n"
               "body a : point(mass = 1 kg) { dof x }\n"
               "body b : point(mass = 1 kg) { dof x }\n"
               "point mid = (a.x + b.x) / 2\n"
               "point cb = 0.3 * c.last.ux + 0.7 * b.x + 1 mm * sin(t / 1 s)\n"
               "friction j between mid and ground { law = jenkins(k = 100 N/m, F_s = 0.5 N) }\n"
               "spring k between cb and a.x { stiffness = 80 N/m }\n"
               "damper d between cb and ground { damping = 0.3 N*s/m }\n"
               "spring ab between a.x and b.x { stiffness = 50 N/m }\n"
               "force f on a.x = 2 N * sin(2 * pi * t / 1 s)\n"
               "force g on c.first.ux = 1 N * sin(3 * t / 1 s)\n"
               "simulate { integrator = bdf  until = 2 s }\n"},
    {"viscous", "import hysteresis\n"
                "body b : point(mass = 1 kg) { dof x }\n"
                "force f on b.x = 20 N * sin(2 * pi * t / 1 s)\n"
                "spring kv between b.x and ground { law = kelvin_voigt(k = 100 N/m, d = 2 N*s/m) }\n"
                "spring mx between b.x and ground { law = maxwell(k = 300 N/m, d = 20 N*s/m) }\n"
                "spring zn between b.x and ground { law = zener(c1 = 300 N/m, c2 = 50 N/m, d = 20 N*s/m) }\n"
                "simulate { integrator = bdf  until = 2 s }\n"},
};

static const char *const examples[] = {"examples/frdyn2_bench.jnt",
                                       "examples/lugre_stickslip.jnt",
                                       "examples/iwan_interface.jnt"};

/* Compare the Jacobian with central differences at the state in d. */
static void compare(const jnt_model *m, jnt_data *d, double t, int *n_ok, int *n_bad,
                    int *n_skip, double *worst, const char *name)
{
    const jnt_abi_model *a = jnt_model_abi(m);
    int n = a->ny;
    double *dense = calloc((size_t)n * n + 1, sizeof *dense);
    double *y = malloc((size_t)n * sizeof *y), *f0 = malloc((size_t)n * sizeof *f0);
    double *f1 = malloc((size_t)n * sizeof *f1), *f2 = malloc((size_t)n * sizeof *f2);
    double *f3 = malloc((size_t)n * sizeof *f3), *f4 = malloc((size_t)n * sizeof *f4);
    jnt_eval_jacobian(m, d, t, d->y, dense);
    jnt_eval_rhs(m, d, t, d->y, f0);
    for (int j = 0; j < n; j++) {
        double h = 1e-6 * fmax(fabs(d->y[j]), 1e-9);
        memcpy(y, d->y, (size_t)n * sizeof *y);
        y[j] = d->y[j] + h;
        jnt_eval_rhs(m, d, t, y, f1);
        y[j] = d->y[j] - h;
        jnt_eval_rhs(m, d, t, y, f2);
        y[j] = d->y[j] + h / 4;
        jnt_eval_rhs(m, d, t, y, f3);
        y[j] = d->y[j] - h / 4;
        jnt_eval_rhs(m, d, t, y, f4);
        for (int i = 0; i < n; i++) {
            double fd = (f1[i] - f2[i]) / (2 * h), an = dense[(size_t)j * n + i];
            double fd4 = (f3[i] - f4[i]) / (h / 2);
            /* one-sided slopes: where they disagree the state sits on a kink
             * (a stick/slip switch, a return-mapping law right after slipping);
             * there the analytic entry must be one of them (or between) */
            double fp = (f1[i] - f0[i]) / h, fm = (f0[i] - f2[i]) / h;
            double scale = fmax(fmax(fabs(fd), fabs(an)), 1e-6);
            /* rounding in the terms of f_i (about |f_i| + sum_k |J_ik y_k|),
             * amplified by 1/h, bounds what a difference can resolve */
            double terms = fabs(f1[i]) + fabs(f2[i]);
            for (int k = 0; k < n; k++)
                terms += fabs(dense[(size_t)k * n + i] * d->y[k]);
            double noise = 1e2 * DBL_EPSILON * terms / h;
            if (fabs(fp - fm) > 1e-3 * fmax(fmax(fabs(fp), fabs(fm)), 1e-3) + 2 * noise) {
                double lo = fmin(fp, fm), hi = fmax(fp, fm), slack = 1e-5 * scale + noise;
                if (an >= lo - slack && an <= hi + slack) {
                    (*n_skip)++;
                } else {
                    (*n_bad)++;
                    printf("INFO: %s: t = %g: dF%d/dy%d analytic %.10g outside the one-sided "
                           "slopes %.10g, %.10g\n", name, t, i, j, an, fm, fp);
                }
                continue;
            }
            /* a kink within h (central differences at h and h/4 disagree): the
             * difference cannot resolve the slope there */
            if (fabs(fd - fd4) > 1e-4 * fmax(fabs(fd), 1e-3) + 2 * noise) {
                (*n_skip)++;
                continue;
            }
            /* central differences err by C h^2: Richardson's (16 fd(h/4) - fd(h)) / 15 removes
             * it (the spherical clearance's curvature made it 1.8e-5 at h) */
            double fdr = fd4 + (fd4 - fd) / 15;
            double rel = fmax(fmin(fabs(fd - an), fabs(fdr - an)) - noise, 0) / scale;
            if (rel > 1e-5) {
                (*n_bad)++;
                if (*n_bad <= 5)
                    printf("INFO: %s: t = %g: dF%d/dy%d analytic %.10g, finite differences "
                           "%.10g (h), %.10g (Richardson)\n", name, t, i, j, an, fd, fdr);
            } else {
                (*n_ok)++;
            }
            *worst = fmax(*worst, rel);
        }
    }
    free(dense);
    free(y);
    free(f0);
    free(f1);
    free(f2);
    free(f3);
    free(f4);
}

/* Run the model to several end times and compare the Jacobian at each. */
static void check_model(jnt_model *m, const char *name)
{
    jnt_data *d = jnt_data_new(m);
    int ok = 0, bad = 0, skip = 0;
    double worst = 0;
    jnt_run_opts o = {.csv_path = ""};
    int ie = jnt_param_index(m, "t_end");
    double span = 0;
    if (jnt_run(m, d, &o) != JNT_OK) {
        CHECK(0, "%s: the model runs: %s", name, jnt_data_error(d));
        jnt_data_free(d);
        return;
    }
    span = jnt_time(d);
    for (int k = 1; k <= 24; k++) {
        /* end times spread over the run; models without a t_end param use
         * their own and are sampled at the end only */
        if (ie >= 0) {
            jnt_set_param(m, d, "t_end", span * k / 24.0);
            if (jnt_run(m, d, &o) != JNT_OK)
                break;
        } else if (k > 1) {
            break;
        }
        compare(m, d, jnt_time(d), &ok, &bad, &skip, &worst, name);
    }
    CHECK(bad == 0 && ok > 0,
          "%s: Jacobian = finite differences: %d entries agree (worst rel. %.2g), %d differ, "
          "%d at or near kinks (one-sided slopes bracket it, or h and h/4 disagree)", name, ok, worst, bad, skip);
    jnt_data_free(d);
}

int main(void)
{
    for (size_t i = 0; i < sizeof examples / sizeof *examples; i++) {
        jnt_model *m;
        if (jnt_compile_file(examples[i], NULL, &m) != JNT_OK) {
            CHECK(0, "compile %s", examples[i]);
            continue;
        }
        check_model(m, examples[i]);
        jnt_model_free(m);
    }
    for (size_t i = 0; i < sizeof law_models / sizeof *law_models; i++) {
        jnt_model *m;
        char text[4096];
        /* a t_end param lets check_model sample the trajectory */
        const char *until = strstr(law_models[i].text, "until = ");
        snprintf(text, sizeof text, "param t_end = %.*s\n%.*suntil = t_end }\n",
                 (int)strcspn(until + 8, "}") - 1, until + 8, (int)(until - law_models[i].text),
                 law_models[i].text);
        if (jnt_compile_string(law_models[i].name, text, NULL, &m) != JNT_OK) {
            CHECK(0, "compile the %s model", law_models[i].name);
            continue;
        }
        check_model(m, law_models[i].name);
        jnt_model_free(m);
    }
    return check_done();
}
