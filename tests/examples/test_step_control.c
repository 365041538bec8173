/*
 * test_step_control.c: seed 001's step control (eqs. 19-20 for contact, eq.
 * 33 for friction; issue 14, check 2) in the integrators, on scripted
 * histories: a block driven by a prismatic joint's drive x = A sin(w t), so
 * that its contact's gap (10 mm - x) and its slip speed are known in closed
 * form. The step history (jnt_run_opts.steps_path, `--steps`) must be the
 * rules' values computed here from the script.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

static const char *const model_text =
    "model scripted\nimport contact\nimport friction\n"
    "param A = 12 mm\nparam w = 6.283185307179586 / 0.1 s\n"
    "body b : rigid3d(mass = 1 kg, inertia = (1 kg*m^2, 1 kg*m^2, 1 kg*m^2)) {\n"
    "  marker c = (0 m, 0 m, 0 m)\n}\n"
    "joint slide : prismatic(b.c, (0 m, 0 m, 0 m), axis = (1, 0, 0), drive = A * sin(w * t))\n"
    "ELEMENT\n"
    "simulate {\n  integrator = INTEG\n  until = 0.1 s\n}\n"
    "output \"scripted.csv\" every 1 ms { t, x = b.x }\n";

static const char *const contact_text =
    "contact stop between b.c and (-0.3 m, 0 m, 0 m) {\n"
    "  law   = linear_spring(k = 1 MN/m)\n  gap0  = 0.31 m\n"
    "  steps = contact_steps(eps_p = 3 um, qbar_min = 5, alpha = 1.2)\n}\n";

static const char *const friction_text =
    "friction rub on slide {\n"
    "  law    = lugre(sigma0 = 1e5 /m, sigma1 = 0 s/m, mu_s = 0.3, mu_k = 0.3, v_s = 1 mm/s)\n"
    "  normal = 10 N\n"
    "  steps  = friction_steps(dtau_min = 5e-4, vhat_min = 5, alpha = 1.5)\n}\n";

/* Run the scripted model with `element` and integrator `integ`; the step
 * history into *st. */
static int run_steps(const char *element, const char *integ, const char *tag, csv_table *st)
{
    char *a = text_sub(model_text, "ELEMENT", element), *b = text_sub(a, "INTEG", integ);
    jnt_model *m = NULL;
    int rc = jnt_compile_string(tag, b, NULL, &m);
    free(a);
    free(b);
    memset(st, 0, sizeof *st);
    CHECK(rc == JNT_OK, "compile the scripted model (%s)", tag);
    if (rc != JNT_OK)
        return rc;
    char steps[64], rows[64];
    snprintf(steps, sizeof steps, "%s_steps.csv", tag);
    snprintf(rows, sizeof rows, "%s.csv", tag);
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = {.csv_path = test_out(rows), .steps_path = test_out(steps)};
    rc = jnt_run(m, d, &o);
    if (rc != JNT_OK)
        printf("INFO: %s: %s\n", tag, jnt_data_error(d));
    CHECK(rc == JNT_OK, "the scripted model runs (%s)", tag);
    jnt_data_free(d);
    jnt_model_free(m);
    if (rc == JNT_OK && csv_load(test_out(steps), st) != 0)
        rc = JNT_ERR_IO;
    return rc;
}

/* Eqs. 19-20: the step after the step ending at t[n], from the gaps at
 * t[n-1], t[n] and the steps t[n] - t[n-1], t[n-1] - t[n-2]. */
static double contact_rule(const double *t, int n)
{
    const double A = 0.012, w = 2 * PI / 0.1, eps = 3e-6, qbar = 5, al = 1.2;
    double q1 = 0.01 - A * sin(w * t[n]), q0 = 0.01 - A * sin(w * t[n - 1]);
    double vm = 2 * (q1 - q0) / (t[n] - t[n - 2]);
    double kappa = q1 / eps / qbar, dq = eps * (kappa <= 1 ? 1 : pow(kappa, al));
    return dq / fabs(vm);
}

static void contact(const char *integ, const char *tag)
{
    csv_table st;
    if (run_steps(contact_text, integ, tag, &st) != JNT_OK) {
        csv_free(&st);
        return;
    }
    const double *t = csv_col(&st, "t"), *h = csv_col(&st, "h");
    /* t[-1] = 0: the row of step n ends at t[n], the run starts at 0 */
    double *te = malloc(((size_t)st.nrow + 1) * sizeof *te);
    te[0] = 0;
    for (int i = 0; i < st.nrow; i++)
        te[i + 1] = t[i];
    int checked = 0, small = 0;
    double worst = 0;
    for (int n = 3; n < st.nrow; n++) { /* the step ending at te[n + 1] */
        double want = contact_rule(te, n);
        if (want < 1e-3 * (1 - 1e-9) && te[n + 1] < 0.1 * (1 - 1e-12)) {
            worst = fmax(worst, fabs(h[n] - want) / want);
            checked++;
            small += want < 1e-4;
        }
    }
    {
        char key[64];
        snprintf(key, sizeof key, "step_control.%s.contact_steps", tag);
        MEASURE(key, checked);
        snprintf(key, sizeof key, "step_control.%s.contact_small", tag);
        MEASURE(key, small);
        snprintf(key, sizeof key, "step_control.%s.contact_rel", tag);
        MEASURE(key, worst);
    }
    CHECK(checked > 100 && small > 50 && worst <= 1e-9,
          "%s: %d steps set by contact (eqs. 19-20), %d of them below 0.1 ms, each the rule's "
          "step to %.2g (rel 1e-9)", tag, checked, small, worst);
    free(te);
    csv_free(&st);
}

static void friction(void)
{
    csv_table st;
    if (run_steps(friction_text, "midpoint(h = 1 ms)", "friction_steps", &st) != JNT_OK) {
        csv_free(&st);
        return;
    }
    /* eq. 33 at slip speeds below vhat_min v_s: Omega Dt = dtau_min, Omega =
     * sigma0 v_s / mu_k */
    const double omega = 1e5 * 1e-3 / 0.3, hmin = 5e-4 / omega;
    const double *h = csv_col(&st, "h");
    int at_min = 0, big = 0;
    double worst = 0, least = INFINITY;
    for (int i = 0; i < st.nrow; i++) {
        least = fmin(least, h[i]);
        if (fabs(h[i] - hmin) <= 1e-6 * hmin) {
            at_min++;
            worst = fmax(worst, fabs(h[i] - hmin) / hmin);
        }
        big += h[i] >= 1e-4;
    }
    /* rel 1e-9: h is a difference of times near 0.025 s */
    MEASURE("step_control.friction.at_min", at_min);
    MEASURE("step_control.friction.hmin", hmin);
    CHECK(at_min >= 10 && worst <= 1e-9 && least >= hmin * (1 - 1e-9),
          "friction steps (eq. 33): %d steps of dtau_min / Omega = %.6g s (to %.2g) where the "
          "slip reverses, none shorter", at_min, hmin, worst);
    CHECK(big >= 50, "friction steps: %d steps of 0.1 ms or more at high slip speed", big);
    csv_free(&st);
}

int main(void)
{
    contact("midpoint(h = 1 ms)", "contact_steps_midpoint");
    contact("generalized_alpha(h = 1 ms, rho_inf = 0.8)", "contact_steps_galpha");
    friction();
    return check_done();
}
