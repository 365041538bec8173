/*
 * test_mb_forces.c: forces of multibody models that turn with the bodies
 * (issue 13): a spring of geometrically exact length between a marker and
 * a point of the ground (an elastic pendulum without gravity, against an
 * independent RK4 integration of r'' = -k (|r| - l0) r / (m |r|) written
 * here, and its two invariants), and joint friction whose normal force is
 * the joint's reaction: a block sliding down a rail (prismatic) and a
 * wheel spinning down on a pin (revolute, radius r), both against the
 * closed forms of Coulomb friction, regularised and switching (F_eq); and
 * LuGre and FrDyn2 on a rail against the same laws on a point mass.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

static jnt_model *compile(const char *name, const char *src)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string(name, src, NULL, &m);
    CHECK(rc == JNT_OK && m, "compile %s", name);
    return rc == JNT_OK ? m : NULL;
}

/* ---- the elastic pendulum ------------------------------------------------------------ */

static const char spring_src[] =
    "model spring2d\n"
    "param m = 1 kg\n"
    "param k = 100 N/m\n"
    "param l0 = 0.5 m\n"
    "body ball : rigid2d(mass = m, inertia = 0.01 kg*m^2) { marker c = (0 m, 0 m) }\n"
    "spring cord between ball.c and (0 m, 0 m) { stiffness = k  length = l0 }\n"
    "init ball.x = 0.8 m\n"
    "init ball.y.v = 2 m/s\n"
    "simulate { integrator = generalized_alpha(h = 0.05 ms, rho_inf = 1)  until = 2 s }\n"
    "output \"spring2d.csv\" every 1 ms {\n"
    "  t, x = ball.x, y = ball.y, L = cord.s, Lv = cord.v, F = cord.force,\n"
    "  H = m * (ball.x * ball.y.v - ball.y * ball.x.v),\n"
    "  E = m / 2 * (ball.x.v^2 + ball.y.v^2) + k / 2 * (cord.s - l0)^2\n"
    "}\n";

/* r'' = -k (|r| - l0) r / (m |r|): u = (x, y, vx, vy) */
static void central(const double *u, double *du)
{
    const double m = 1, k = 100, l0 = 0.5;
    double r = hypot(u[0], u[1]), f = -k * (r - l0) / (m * r);
    du[0] = u[2], du[1] = u[3], du[2] = f * u[0], du[3] = f * u[1];
}

static void rk4(double *u, double h)
{
    double k1[4], k2[4], k3[4], k4[4], w[4];
    central(u, k1);
    for (int i = 0; i < 4; i++)
        w[i] = u[i] + h / 2 * k1[i];
    central(w, k2);
    for (int i = 0; i < 4; i++)
        w[i] = u[i] + h / 2 * k2[i];
    central(w, k3);
    for (int i = 0; i < 4; i++)
        w[i] = u[i] + h * k3[i];
    central(w, k4);
    for (int i = 0; i < 4; i++)
        u[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

static void elastic_pendulum(void)
{
    jnt_model *m = compile("spring2d", spring_src);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("spring2d.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "the elastic pendulum runs");
    if (rc == JNT_OK) {
        const double *x = csv_col(&t, "x"), *y = csv_col(&t, "y"), *L = csv_col(&t, "L");
        const double *F = csv_col(&t, "F"), *H = csv_col(&t, "H"), *E = csv_col(&t, "E");
        /* the reference: RK4 at 1 us, sampled at the output rows (1 ms) */
        double u[4] = {0.8, 0, 0, 2}, ex = 0, eL = 0, eF = 0, dH = 0, dE = 0;
        for (int i = 0; i < t.nrow; i++) {
            if (i > 0)
                for (int s = 0; s < 1000; s++)
                    rk4(u, 1e-6);
            ex = fmax(ex, hypot(x[i] - u[0], y[i] - u[1]));
            eL = fmax(eL, fabs(L[i] - hypot(x[i], y[i])));
            eF = fmax(eF, fabs(F[i] - 100 * (L[i] - 0.5)));
            dH = fmax(dH, fabs(H[i] - H[0]));
            dE = fmax(dE, fabs(E[i] - E[0]));
        }
        MEASURE("mbforces.pendulum.pos", ex);
        MEASURE("mbforces.pendulum.H_rel", dH / fabs(H[0]));
        MEASURE("mbforces.pendulum.E_rel", dE / E[0]);
        CHECK(t.nrow == 2001 && ex <= 1e-6, "elastic pendulum against RK4 (h 1 us) over 2 s: "
              "max position error %.3g m (1e-6; measured 6e-8 at h 50 us)", ex);
        CHECK(eL <= 1e-14, "the spring's length is the distance of its ends: %.3g m", eL);
        CHECK(eF <= 1e-12, "the spring's force is k (L - l0): %.3g N", eF);
        CHECK(dH <= 1e-7 * fabs(H[0]), "angular momentum about the anchor kept: %.3g of %.3g "
              "kg m^2/s (1e-7 relative)", dH, H[0]);
        CHECK(dE <= 1e-7 * E[0], "energy kept: %.3g J of %.3g J (1e-7 relative, rho_inf 1)", dE,
              E[0]);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* ---- joint friction ------------------------------------------------------------------ */

#define INCLINE(LAW, V0)                                                                     \
    "model incline\n"                                                                      \
    "import friction\n"                                                                    \
    "param m = 2 kg\n"                                                                     \
    "param alpha = 30 deg\n"                                                               \
    "param mu = 0.3\n"                                                                     \
    "param g = 9.81 m/s^2\n"                                                               \
    "body block : rigid2d(mass = m, inertia = 0.1 kg*m^2) { marker P = (0 m, 0 m) }\n"     \
    "joint rail : prismatic(block.P, (0 m, 0 m), axis = (cos(alpha), -sin(alpha)))\n"      \
    "friction slide on rail { law = " LAW " }\n"                                           \
    "init block.x.v = " V0 " * cos(alpha)\n"                                               \
    "init block.y.v = -" V0 " * sin(alpha)\n"                                              \
    "simulate { integrator = generalized_alpha(h = 1 ms, rho_inf = 0.8)  until = 1 s\n"     \
    "           gravity = (0 m/s^2, -g) }\n"                                               \
    "output \"incline.csv\" every 10 ms {\n"                                               \
    "  t, s = rail.s, v = rail.speed, N = slide.N, F = slide.force, fn = rail.fn\n"          \
    "}\n"

/* A block launched down a 30 deg rail at 0.5 m/s: N = m g cos(alpha), the
 * friction mu N, the acceleration g (sin(alpha) - mu cos(alpha)); with the
 * regularised law (k = 0) and the switching stick law (k = 1, sliding). */
static void incline(int k)
{
    static const char *const src[2] = {
        INCLINE("coulomb_tanh(mu = mu, v_reg = 1e-6 m/s)", "0.5 m/s"),
        INCLINE("coulomb_switch(mu_s = 0.35, mu_k = mu, v_s = 0.1 mm/s)", "0.5 m/s")};
    jnt_model *m = compile(k ? "incline_switch" : "incline", src[k]);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("incline.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "the block on the rail runs (%s)", k ? "coulomb_switch" : "coulomb_tanh");
    if (rc == JNT_OK) {
        const double mass = 2, g = 9.81, al = PI / 6, mu = 0.3, v0 = 0.5;
        const double a = g * (sin(al) - mu * cos(al)), N = mass * g * cos(al);
        const double *s = csv_col(&t, "s"), *v = csv_col(&t, "v"), *n = csv_col(&t, "N");
        const double *F = csv_col(&t, "F"), *fn = csv_col(&t, "fn");
        double es = 0, ev = 0, eN = 0, eF = 0;
        for (int i = 0; i < t.nrow; i++) {
            double ti = t.col[0][i];
            es = fmax(es, fabs(s[i] - (v0 * ti + a * ti * ti / 2)));
            ev = fmax(ev, fabs(v[i] - (v0 + a * ti)));
            eN = fmax(eN, fmax(fabs(n[i] - N), fabs(fabs(fn[i]) - N)));
            eF = fmax(eF, fabs(F[i] - mu * N));
        }
        {
            char key[64];
            snprintf(key, sizeof key, "mbforces.rail.%s.sv", k ? "switch" : "tanh");
            MEASURE(key, fmax(es, ev));
            snprintf(key, sizeof key, "mbforces.rail.%s.N", k ? "switch" : "tanh");
            MEASURE(key, eN);
        }
        CHECK(es <= 1e-9 && ev <= 1e-9, "sliding down the rail: s and v against v0 t + a t^2/2 "
              "and v0 + a t, a = g (sin - mu cos): %.3g m, %.3g m/s (1e-9)", es, ev);
        CHECK(eN <= 1e-6 * N, "the friction's normal force is the rail's reaction m g cos(alpha) "
              "= %.6g N: max error %.3g N", N, eN);
        CHECK(eF <= 1e-6 * N, "the friction force is mu N: max error %.3g N", eF);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* At rest on the 30 deg rail with mu_s = 0.7 > tan(30 deg): the switching
 * stick law holds the block with F = F_eq = m g sin(alpha). */
static void incline_stick(void)
{
    jnt_model *m = compile("incline_stick",
                           INCLINE("coulomb_switch(mu_s = 0.7, mu_k = mu, v_s = 0.1 mm/s)",
                                   "0 m/s"));
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("incline_stick.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "the block at rest on the rail runs");
    if (rc == JNT_OK) {
        const double want = 2 * 9.81 * 0.5;
        const double *s = csv_col(&t, "s"), *v = csv_col(&t, "v"), *F = csv_col(&t, "F");
        double es = 0, eF = 0;
        for (int i = 0; i < t.nrow; i++) {
            es = fmax(es, fmax(fabs(s[i]), fabs(v[i])));
            eF = fmax(eF, fabs(F[i] - want));
        }
        CHECK(es <= 1e-12 && eF <= 1e-9 * want, "the switching stick law holds the block: "
              "|s|, |v| <= %.3g, F = F_eq = m g sin(alpha) = %.4g N to %.3g N", es, want, eF);
    }
    csv_free(&t);
    jnt_model_free(m);
}

static const char bearing_src[] =
    "model bearing\n"
    "import friction\n"
    "param m = 3 kg\n"
    "param J = 0.05 kg*m^2\n"
    "param r = 10 mm\n"
    "param mu = 0.2\n"
    "param g = 9.81 m/s^2\n"
    "body wheel : rigid2d(mass = m, inertia = J) { marker hub = (0 m, 0 m) }\n"
    "joint pin : revolute(wheel.hub, (0 m, 0 m))\n"
    "friction rub on pin { law = coulomb_tanh(mu = mu, v_reg = 1e-6 m/s)  radius = r }\n"
    "init wheel.angle.v = 20 / 1 s\n"
    "simulate { integrator = hht(h = 1 ms)  until = 1 s  gravity = (0 m/s^2, -g) }\n"
    "output \"bearing.csv\" every 10 ms { t, w = wheel.angle.v, N = rub.N, F = rub.force, "
    "slip = rub.s, wa = wheel.angle.a, xa = wheel.x.a, ya = wheel.y.a }\n";

/* A wheel on a pin of radius r under its weight: N = m g, the friction
 * torque mu m g r, so w = w0 - mu m g r t / J and the slip r (angle). */
static void bearing(void)
{
    jnt_model *m = compile("bearing", bearing_src);
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("bearing.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "the wheel on the pin runs");
    if (rc == JNT_OK) {
        const double mass = 3, J = 0.05, r = 0.01, mu = 0.2, g = 9.81, w0 = 20;
        const double dw = mu * mass * g * r / J;
        const double *w = csv_col(&t, "w"), *n = csv_col(&t, "N"), *F = csv_col(&t, "F");
        const double *slip = csv_col(&t, "slip");
        double ew = 0, eN = 0, eF = 0, es = 0;
        for (int i = 0; i < t.nrow; i++) {
            double ti = t.col[0][i];
            ew = fmax(ew, fabs(w[i] - (w0 - dw * ti)));
            eN = fmax(eN, fabs(n[i] - mass * g));
            eF = fmax(eF, fabs(F[i] - mu * mass * g));
            es = fmax(es, fabs(slip[i] - r * (w0 * ti - dw * ti * ti / 2)));
        }
        MEASURE("mbforces.wheel.w", ew);
        CHECK(ew <= 1e-9 * w0, "the wheel slows as w0 - mu m g r t / J: max error %.3g 1/s", ew);
        CHECK(eN <= 1e-9 * mass * g && eF <= 1e-9 * mass * g, "normal force m g (the pin's "
              "reaction) and friction mu m g: errors %.3g N, %.3g N", eN, eF);
        CHECK(es <= 1e-9, "the slip is r times the angle turned: max error %.3g m", es);
        const double *wa = csv_col(&t, "wa"), *xa = csv_col(&t, "xa"), *ya = csv_col(&t, "ya");
        double ea = 0;
        for (int i = 0; i < t.nrow; i++)
            ea = fmax(ea, fmax(fabs(wa[i] + dw), fmax(fabs(xa[i]), fabs(ya[i]))));
        CHECK(ea <= 1e-9 * dw, "accelerations as outputs: the angle's -mu m g r / J = %.5g "
              "1/s^2, the pinned centre's 0 (max error %.3g)", -dw, ea);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* Any law of the library on a joint: a block on a horizontal rail with
 * the law on the rail (the reaction m g as its normal force, generalized-
 * alpha at h = 20 us) against the same law between a point mass and the
 * ground (normal = m g, bdf at rtol 1e-10), under a force that makes it
 * stick and slip. */
#define RAIL_LAW(BODY, FRICTION, SIM)                                                         \
    "model rail_law\n"                                                                      \
    "import friction\n"                                                                     \
    "param m = 1 kg\n"                                                                      \
    "param g = 9.81 m/s^2\n" BODY FRICTION                                                  \
    "force push on block.x = 8 N * sin(2 * pi * t / 1 s)\n"                                 \
    "simulate { " SIM "  until = 2 s }\n"                                                  \
    "output \"rail_law.csv\" every 10 ms { t, x = block.x, v = block.x.v, F = f.force }\n"
#define ON_RAIL(LAW)                                                                          \
    RAIL_LAW("body block : rigid2d(mass = m, inertia = 0.1 kg*m^2) { marker P = (0 m, 0 m) }\n" \
             "joint rail : prismatic(block.P, (0 m, 0 m), axis = (1, 0))\n",                 \
             "friction f on rail { law = " LAW " }\n",                                      \
             "integrator = generalized_alpha(h = 20 us, rho_inf = 0.9)  gravity = (0 m/s^2, -g)")
#define ON_POINT(LAW)                                                                         \
    RAIL_LAW("body block : point(mass = m) { dof x }\n",                                     \
             "friction f between block.x and ground { normal = m * g  law = " LAW " }\n",   \
             "integrator = bdf(rtol = 1e-10, atol = 1e-12)")
#define LUGRE "lugre(sigma0 = 1e4 / 1 m, sigma1 = 10 s/m, sigma2 = 0.1 s/m, mu_s = 0.5, " \
              "mu_k = 0.3, v_s = 0.01 m/s)"
#define FRDYN2 "frdyn2(mu_s = 0.5, v_s = 1 mm/s, mu_d = 0.3, v_d = 10 mm/s, sigma0 = 1e5 N/m, " \
               "sigma1 = 200 N*s/m)"

static void law_on_rail(const char *name, const char *rail_src, const char *point_src)
{
    jnt_model *m[2] = {compile(name, rail_src), compile(name, point_src)};
    csv_table t[2];
    int ok = m[0] && m[1];
    memset(t, 0, sizeof t);
    for (int k = 0; k < 2 && ok; k++) {
        ok = run_csv(m[k], test_out(k ? "rail_law_point.csv" : "rail_law_rail.csv"),
                     (jnt_run_opts){0}, NULL, &t[k]) == JNT_OK && t[k].nrow == 201;
        CHECK(ok, "%s %s runs", name, k ? "between a point mass and the ground" : "on a rail");
    }
    if (ok) {
        static const char *const cols[3] = {"x", "v", "F"};
        double err[3], range[3];
        for (int c = 0; c < 3; c++) {
            const double *a = csv_col(&t[0], cols[c]), *b = csv_col(&t[1], cols[c]);
            err[c] = range[c] = 0;
            for (int i = 0; i < t[0].nrow; i++) {
                err[c] = fmax(err[c], fabs(a[i] - b[i]));
                range[c] = fmax(range[c], fabs(b[i]));
            }
        }
        char key[64];
        snprintf(key, sizeof key, "mbforces.rail_vs_mass.%s.x", name);
        MEASURE(key, err[0] / range[0]);
        snprintf(key, sizeof key, "mbforces.rail_vs_mass.%s.v", name);
        MEASURE(key, err[1] / range[1]);
        CHECK(err[0] <= 1e-5 * range[0] && err[1] <= 1e-5 * range[1] &&
              err[2] <= 1e-3 * range[2], "%s on a rail (its reaction as normal force) against "
              "the point-mass model: x %.2g m, v %.2g m/s (1e-5 of their range), F %.2g N (1e-3 "
              "of %.3g N)", name, err[0], err[1], err[2], range[2]);
    }
    for (int k = 0; k < 2; k++) {
        csv_free(&t[k]);
        jnt_model_free(m[k]);
    }
}

int main(void)
{
    elastic_pendulum();
    incline(0);
    incline(1);
    incline_stick();
    bearing();
    law_on_rail("lugre", ON_RAIL(LUGRE), ON_POINT(LUGRE));
    law_on_rail("frdyn2", ON_RAIL(FRDYN2), ON_POINT(FRDYN2));
    return check_done();
}
