/*
 * test_dae_mid.c: "midpoint" on multibody models, the energy-momentum
 * midpoint rule of runtime/integrate/integ_dae_mid.c, on models compiled
 * from .jnt text (jnt_compile_string) and examples/double_pendulum.jnt.
 *
 * References: the discrete energy identity of the scheme (exact for a
 * constant mass matrix, a potential at most quadratic and constraints at
 * most quadratic: two sliders on prismatic joints to the ground, springs
 * on the joints and between the bodies, gravity); the angular momentum of
 * a free body on a spring to the ground (a quadratic invariant, kept by
 * every midpoint step); for the double pendulum, radau5 at rtol = atol =
 * 1e-12 at t = 1 s (order 2), generalized-alpha (rho_inf = 1) at the same
 * step (energy), and the joints' residuals recomputed from the markers at
 * every output row; Andrews' squeezer against the Test Set for IVP Solvers'
 * andsoln (tests/unit/andsoln.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "andsoln.h"
#include "jnt/jnt.h"

static jnt_model *compile(const char *name, const char *src)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string(name, src, NULL, &m);
    CHECK(rc == JNT_OK && m, "compile %s", name);
    return rc == JNT_OK ? m : NULL;
}

/* One run of m with the -D assignments defs (NULL-terminated, may be NULL)
 * and integrator integ (NULL: the model's), to t_end (0: the model's), into
 * the CSV `csv` (under $JNT_TEST_OUT), loaded into *t (csv_free releases it
 * always). Returns the status; *st and err get the statistics and the
 * message. */
static int run(const jnt_model *m, const char *csv, const char *integ, double t_end,
               const char *const *defs, jnt_stats *st, char *err, size_t nerr, csv_table *t)
{
    memset(t, 0, sizeof *t);
    jnt_data *d = jnt_data_new(m);
    int rc = JNT_OK;
    for (int i = 0; defs && defs[i] && rc == JNT_OK; i++)
        rc = jnt_set_param_text(m, d, defs[i]);
    jnt_run_opts o;
    memset(&o, 0, sizeof o);
    o.csv_path = test_out(csv);
    o.integrator = integ;
    o.t_end = t_end;
    if (rc == JNT_OK)
        rc = jnt_run(m, d, &o);
    if (st)
        *st = *jnt_data_stats(d);
    if (err)
        snprintf(err, nerr, "%s", jnt_data_error(d));
    jnt_data_free(d);
    if (rc == JNT_OK && csv_load(test_out(csv), t) != 0)
        rc = JNT_ERR_IO;
    return rc;
}

/* The largest |c[i] - c[0]| of column c, relative to |c[0]|. */
static double max_rel_dev(const csv_table *t, const char *name)
{
    const double *c = csv_col(t, name);
    double d = 0.0;
    for (int i = 0; c && i < t->nrow; i++)
        d = fmax(d, fabs(c[i] - c[0]));
    return c ? d / fabs(c[0]) : NAN;
}

/* ---- (a) exact energy: constraints linear in q, a quadratic potential ---- */

/* Two sliders, b1 on a rail along x through the origin, b2 on a rail at 30
 * deg through (0, 1 m) (the markers at the centres: the prismatic rows are
 * linear in x, y, angle), springs on the rails (k (s - l)^2 / 2), a
 * zero-length spring between the bodies (kc |r1 - r2|^2 / 2: quadratic,
 * the markers stay 0.5 m apart or more) and gravity (linear). */
#define SLIDERS(EXTRA)                                                                       \
    "model sliders\n"                                                                        \
    "param m1 = 1.5 kg\n"                                                                    \
    "param m2 = 0.7 kg\n"                                                                    \
    "param k1 = 200 N/m\n"                                                                   \
    "param k2 = 80 N/m\n"                                                                    \
    "param kc = 50 N/m\n"                                                                    \
    "param g = 9.81 m/s^2\n"                                                                 \
    "param al = 30 deg\n"                                                                    \
    "param h = 1 ms\n"                                                                       \
    "body b1 : rigid2d(mass = m1, inertia = 0.02 kg*m^2) { marker c = (0 m, 0 m) }\n"        \
    "body b2 : rigid2d(mass = m2, inertia = 0.01 kg*m^2) { marker c = (0 m, 0 m) }\n"        \
    "joint r1 : prismatic(b1.c, (0 m, 0 m), axis = (1, 0))\n"                                \
    "joint r2 : prismatic(b2.c, (0 m, 1 m), axis = (cos(al), sin(al)))\n" EXTRA              \
    "spring s1 on r1 { stiffness = k1 }\n"                                                   \
    "spring s2 on r2 { stiffness = k2  length = 0.1 m }\n"                                   \
    "spring cord between b1.c and b2.c { stiffness = kc  length = 0 m }\n"                   \
    "init b1.x = 0.3 m\n"                                                                    \
    "init b2.y = 1 m\n"                                                                      \
    "init b2.x.v = 0.8 m/s * cos(al)\n"                                                      \
    "init b2.y.v = 0.8 m/s * sin(al)\n"                                                      \
    "simulate { integrator = midpoint(h = h)  until = 10 s  gravity = (0 m/s^2, -g) }\n"    \
    "output \"sliders.csv\" every 10 ms {\n"                                                 \
    "  t, x1 = b1.x, x2 = b2.x, dmin = cord.s,\n"                                            \
    "  E = m1 / 2 * (b1.x.v^2 + b1.y.v^2) + m2 / 2 * (b2.x.v^2 + b2.y.v^2)\n"                \
    "      + 0.01 kg*m^2 * b1.angle.v^2 + 0.005 kg*m^2 * b2.angle.v^2\n"                    \
    "      + m1 * g * b1.y + m2 * g * b2.y\n"                                                \
    "      + k1 / 2 * s1.s^2 + k2 / 2 * (s2.s - 0.1 m)^2 + kc / 2 * cord.s^2\n"              \
    "}\n"

static void energy_exact(void)
{
    jnt_model *m = compile("sliders", SLIDERS(""));
    if (!m)
        return;
    jnt_stats st;
    char err[512];
    csv_table t;
    int rc = run(m, "sliders.csv", NULL, 0, NULL, &st, err, sizeof err, &t);
    CHECK(rc == JNT_OK, "two sliders with springs and gravity run with midpoint: %s", err);
    if (rc == JNT_OK) {
        const double *x1 = csv_col(&t, "x1"), *x2 = csv_col(&t, "x2"), *dm = csv_col(&t, "dmin");
        double r1 = 0, r2 = 0, dmin = INFINITY, dE = max_rel_dev(&t, "E");
        for (int i = 0; i < t.nrow; i++)
            r1 = fmax(r1, fabs(x1[i] - x1[0])), r2 = fmax(r2, fabs(x2[i] - x2[0])),
            dmin = fmin(dmin, dm[i]);
        printf("  sliders h 1 ms, 10 s: |E - E0| / E0 %.3g (E0 %.6g J), x1 and x2 move %.3g and "
               "%.3g m, bodies >= %.3g m apart; steps %ld, newton %ld (%.2f a step), jac %ld, "
               "lu %ld, |C| %.3g\n", dE, csv_col(&t, "E")[0], r1, r2, dmin, st.steps,
               st.newton_iters, (double)st.newton_iters / st.steps, st.jac_evals, st.lu_decomps,
               st.cons_max);
        MEASURE("mid.sliders.energy", dE);
        CHECK(st.steps == 10000 && t.nrow == 1001 && r1 > 0.1 && r2 > 0.1 && dmin > 0.5,
              "the run takes 10^4 steps and the bodies move (%.3g, %.3g m), never closer than "
              "%.3g m (the zero-length spring is smooth there)", r1, r2, dmin);
        /* C(q1) - C(q0) = C_q(q_m)(q1 - q0) for linear C and grad V(q_m) .
         * (q1 - q0) = V(q1) - V(q0) for quadratic V: the discrete energy
         * identity holds, to rounding and Newton's tolerance */
        CHECK(dE < 1e-10, "midpoint keeps the energy of a linear-constraint, quadratic-potential "
              "model exactly: |E - E0| / E0 = %.3g over 10^4 steps (< 1e-10)", dE);
        /* linear in the unknowns: one Newton correction solves a step, the
         * second confirms it, the third is the last one from the residual
         * at hand; the matrix is constant (one factorisation for the steps,
         * three for the consistent initial conditions) */
        CHECK(st.newton_iters <= 3 * st.steps + 10 && st.lu_decomps <= 4,
              "a linear step takes 3 Newton solves (%.3g a step), the run one factorisation "
              "besides the initial conditions' 3 (%ld in all)",
              (double)st.newton_iters / st.steps, st.lu_decomps);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* ---- (f) angular momentum: a free body on a spring to the ground -------- */

static const char spin_src[] =
    "model spin\n"
    "param m = 1 kg\n"
    "param J = 0.01 kg*m^2\n"
    "param k = 100 N/m\n"
    "param l0 = 0.5 m\n"
    "param h = 1 ms\n"
    "body ball : rigid2d(mass = m, inertia = J) { marker c = (0 m, 0 m) }\n"
    "spring cord between ball.c and (0 m, 0 m) { stiffness = k  length = l0 }\n"
    "init ball.x = 0.8 m\n"
    "init ball.y.v = 2 m/s\n"
    "init ball.angle.v = 3 rad/s\n"
    "simulate { integrator = midpoint(h = h)  until = 10 s }\n"
    "output \"spin.csv\" every 10 ms {\n"
    "  t, H = m * (ball.x * ball.y.v - ball.y * ball.x.v) + J * ball.angle.v,\n"
    "  E = m / 2 * (ball.x.v^2 + ball.y.v^2) + J / 2 * ball.angle.v^2 + k / 2 * (cord.s - l0)^2\n"
    "}\n";

static void momentum(void)
{
    jnt_model *m = compile("spin", spin_src);
    if (!m)
        return;
    jnt_stats st;
    char err[512];
    csv_table t;
    int rc = run(m, "spin.csv", NULL, 0, NULL, &st, err, sizeof err, &t);
    CHECK(rc == JNT_OK, "a body on a spring of length l0 (no joints) runs with midpoint: %s", err);
    if (rc == JNT_OK) {
        double dH = max_rel_dev(&t, "H"), dE = max_rel_dev(&t, "E");
        printf("  spring of length l0, h 1 ms, 10 s: |H - H0| / H0 %.3g, |E - E0| / E0 %.3g, "
               "newton %.2f a step\n", dH, dE, (double)st.newton_iters / st.steps);
        /* q1 x M v1 - q0 x M v0 = h q_m x F(q_m) = 0 for a central force:
         * the angular momentum is a quadratic invariant of every midpoint step */
        CHECK(dH < 1e-12, "midpoint keeps the angular momentum of a central force exactly: "
              "|H - H0| / H0 = %.3g (< 1e-12)", dH);
        /* the spring's potential k (|r| - l0)^2 / 2 is not quadratic in q:
         * the energy is kept to O(h^2) only, without drift */
        CHECK(dE > 1e-9 && dE < 1e-4, "its energy is kept to O(h^2) only (not quadratic in q): "
              "%.3g", dE);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* ---- the double pendulum (examples/double_pendulum.jnt) ------------------ */

/* The example with `integ` in place of its integrator and the angles'
 * rates and the joints' residuals (from the markers) among its outputs. */
static jnt_model *dp_model(const char *name, const char *integ)
{
    char *text = read_text("examples/double_pendulum.jnt");
    char *a = text_sub(text, "generalized_alpha(h = h, rho_inf = rho)", integ);
    char *b = text_sub(a, "t, th1 = upper.angle, th2 = lower.angle,",
                       "t, th1 = upper.angle, th2 = lower.angle, w1 = upper.angle.v, "
                       "w2 = lower.angle.v, c1x = upper.a.x, c1y = upper.a.y, "
                       "c2x = upper.b.x - lower.a.x, c2y = upper.b.y - lower.a.y,");
    CHECK(b != NULL, "examples/double_pendulum.jnt has the integrator and output lines this "
          "test replaces");
    jnt_model *m = b ? compile(name, b) : NULL;
    free(text), free(a), free(b);
    return m;
}

/* The angles and rates at the last row (t_end). */
static void dp_last(const csv_table *t, double out[4])
{
    static const char *const cols[4] = {"th1", "th2", "w1", "w2"};
    for (int c = 0; c < 4; c++)
        out[c] = csv_col(t, cols[c])[t->nrow - 1];
}

/* The largest joint residual over the rows. */
static double dp_cons(const csv_table *t)
{
    static const char *const cols[4] = {"c1x", "c1y", "c2x", "c2y"};
    double c = 0.0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < t->nrow; i++)
            c = fmax(c, fabs(csv_col(t, cols[k])[i]));
    return c;
}

/* (b) order 2 at t = 1 s against radau5; (d) the joints at every row. */
static void order(void)
{
    jnt_model *ref = dp_model("dp_radau5", "radau5(rtol = 1e-12, atol = 1e-12)");
    jnt_model *m = dp_model("dp_mid", "midpoint(h = h)");
    if (!ref || !m) {
        jnt_model_free(ref), jnt_model_free(m);
        return;
    }
    jnt_model *ref2 = dp_model("dp_radau5_11", "radau5(rtol = 1e-11, atol = 1e-11)");
    jnt_stats st;
    char err[512];
    csv_table t;
    double yr[4] = {0}, yr2[4] = {0}, y[4];
    int rc = run(ref, "dp_ref.csv", NULL, 1.0, NULL, &st, err, sizeof err, &t);
    CHECK(rc == JNT_OK, "the double pendulum runs with radau5 (rtol 1e-12): %s", err);
    if (rc == JNT_OK)
        dp_last(&t, yr);
    printf("  reference radau5 rtol 1e-12 at t = 1 s: th1 %.12g, th2 %.12g, steps %ld\n", yr[0],
           yr[1], st.steps);
    csv_free(&t);
    /* the reference's accuracy: radau5 at rtol 1e-11 is at most this far off */
    double eref = NAN;
    if (ref2 && run(ref2, "dp_ref2.csv", NULL, 1.0, NULL, NULL, NULL, 0, &t) == JNT_OK) {
        dp_last(&t, yr2);
        eref = 0.0;
        for (int c = 0; c < 4; c++)
            eref = fmax(eref, fabs(yr2[c] - yr[c]));
    }
    csv_free(&t);
    jnt_model_free(ref2);
    static const char *const hs[4] = {"h=2 ms", "h=1 ms", "h=0.5 ms", "h=0.25 ms"};
    double hv[4] = {2e-3, 1e-3, 5e-4, 2.5e-4}, ea[4], ew[4], cmax = 0.0;
    int ok = rc == JNT_OK;
    for (int k = 0; k < 4; k++) {
        const char *defs[] = {hs[k], NULL};
        rc = run(m, "dp_mid.csv", NULL, 1.0, defs, &st, err, sizeof err, &t);
        CHECK(rc == JNT_OK, "the double pendulum runs with midpoint, %s: %s", hs[k], err);
        ok = ok && rc == JNT_OK;
        if (rc != JNT_OK) {
            csv_free(&t);
            continue;
        }
        dp_last(&t, y);
        ea[k] = fmax(fabs(y[0] - yr[0]), fabs(y[1] - yr[1]));
        ew[k] = fmax(fabs(y[2] - yr[2]), fabs(y[3] - yr[3]));
        double c = dp_cons(&t);
        cmax = fmax(cmax, c);
        char key[64];
        snprintf(key, sizeof key, "mid.dp.angle_err.h%g", 1e3 * hv[k]);
        MEASURE(key, ea[k]);
        printf("  midpoint %s: angle error %.3g rad, rate error %.3g rad/s at t = 1 s; steps %ld, "
               "rejected %ld, newton %.2f a step, jac %ld, lu %ld, |C| %.3g (rows %.3g), "
               "|C_q v| %.3g\n", hs[k], ea[k], ew[k], st.steps, st.rejected,
               (double)st.newton_iters / st.steps, st.jac_evals, st.lu_decomps, st.cons_max, c,
               st.vcons_max);
        /* (d) C(q1, t1) = 0 is one of the step's equations: the joints hold
         * at every step end (the rows every 10 ms are step ends) */
        CHECK(c < 1e-10 && st.cons_max < 1e-10, "the joints hold at every output row, %s: "
              "largest residual %.3g m, after every step %.3g m (< 1e-10)", hs[k], c,
              st.cons_max);
        csv_free(&t);
    }
    if (ok) {
        /* least squares slope of log e against log h, and of each halving */
        double sa = 0, sw = 0, sx = 0, sxx = 0;
        for (int k = 0; k < 4; k++) {
            double lx = log(hv[k]);
            sx += lx, sxx += lx * lx, sa += lx * log(ea[k]), sw += lx * log(ew[k]);
        }
        double den = 4 * sxx - sx * sx, pa = 0, pw = 0;
        double la = 0, lw = 0;
        for (int k = 0; k < 4; k++)
            la += log(ea[k]), lw += log(ew[k]);
        pa = (4 * sa - sx * la) / den, pw = (4 * sw - sx * lw) / den;
        MEASURE("mid.dp.order", pa);
        printf("  observed order: angles %.3f (halvings %.3f %.3f %.3f), rates %.3f (%.3f %.3f "
               "%.3f)\n", pa, log2(ea[0] / ea[1]), log2(ea[1] / ea[2]), log2(ea[2] / ea[3]), pw,
               log2(ew[0] / ew[1]), log2(ew[1] / ew[2]), log2(ew[2] / ew[3]));
        /* the midpoint rule is of order 2; radau5 at 1e-12 is far below the
         * smallest error */
        CHECK(pa > 1.8 && pa < 2.2 && pw > 1.8 && pw < 2.2,
              "order 2: the error at t = 1 s against radau5 falls as h^%.3f (angles) and "
              "h^%.3f (rates) over h = 2 .. 0.25 ms (1.8 .. 2.2)", pa, pw);
        CHECK(eref < 1e-2 * fmin(ea[3], ew[3]), "the reference is far more accurate than the "
              "runs compared: radau5 at rtol 1e-11 and 1e-12 differ by %.3g (a bound of the "
              "looser one's error), the smallest error compared is %.3g", eref,
              fmin(ea[3], ew[3]));
        /* a step that does not divide the output interval: t = 1 s is
         * interpolated (cubic Hermite on q and v), with the error of the
         * steps (C h^2, C from h = 0.25 ms) */
        const char *defs[] = {"h=0.3 ms", NULL};
        rc = run(m, "dp_mid_i.csv", NULL, 1.0, defs, &st, err, sizeof err, &t);
        double ei = NAN, want = ea[3] * (0.3 / 0.25) * (0.3 / 0.25);
        if (rc == JNT_OK) {
            dp_last(&t, y);
            ei = fmax(fabs(y[0] - yr[0]), fabs(y[1] - yr[1]));
        }
        csv_free(&t);
        CHECK(rc == JNT_OK && ei < 1.5 * want, "h = 0.3 ms: the angles at t = 1 s (between step "
              "ends, interpolated) are off by %.3g rad, as the steps' O(h^2) error %.3g "
              "(< 1.5 times)", ei, want);
    }
    jnt_model_free(ref);
    jnt_model_free(m);
}

/* The energy column's largest deviation, relative, and E(t_end) - E0,
 * relative. */
static void dp_energy(const csv_table *t, double *dev, double *end)
{
    const double *E = csv_col(t, "E");
    *dev = max_rel_dev(t, "E");
    *end = (E[t->nrow - 1] - E[0]) / fabs(E[0]);
}

/* (c) the energy of the double pendulum over 10 s: bounded, O(h^2), below
 * generalized-alpha's (rho_inf = 1, the example's integrator) */
static void energy_bounded(void)
{
    jnt_model *m = dp_model("dp_mid10", "midpoint(h = h)");
    jnt_model *ga = dp_model("dp_ga10", "generalized_alpha(h = h, rho_inf = rho)");
    if (!m || !ga) {
        jnt_model_free(m), jnt_model_free(ga);
        return;
    }
    static const char *const hs[2] = {"h=0.2 ms", "h=0.1 ms"};
    double dev[2] = {NAN, NAN}, end[2] = {NAN, NAN}, half[2][2] = {{NAN, NAN}, {NAN, NAN}};
    jnt_stats st;
    char err[512];
    csv_table t;
    for (int k = 0; k < 2; k++) {
        const char *defs[] = {hs[k], NULL};
        int rc = run(m, "dp_mid10.csv", NULL, 0, defs, &st, err, sizeof err, &t);
        CHECK(rc == JNT_OK, "the double pendulum runs 10 s with midpoint, %s: %s", hs[k], err);
        if (rc == JNT_OK) {
            dp_energy(&t, &dev[k], &end[k]);
            /* the largest deviation in each half of the run */
            const double *E = csv_col(&t, "E"), *tc = t.col[0];
            half[k][0] = half[k][1] = 0.0;
            for (int i = 0; i < t.nrow; i++)
                half[k][tc[i] > 5.0] = fmax(half[k][tc[i] > 5.0], fabs(E[i] - E[0]) / fabs(E[0]));
            char key[64];
            snprintf(key, sizeof key, "mid.dp10.%s.energy_dev", k ? "h0.1" : "h0.2");
            MEASURE(key, dev[k]);
            snprintf(key, sizeof key, "mid.dp10.%s.energy_end", k ? "h0.1" : "h0.2");
            MEASURE(key, end[k]);
            snprintf(key, sizeof key, "mid.dp10.%s.newton", k ? "h0.1" : "h0.2");
            MEASURE(key, (double)st.newton_iters / st.steps);
            snprintf(key, sizeof key, "mid.dp10.%s.vcons", k ? "h0.1" : "h0.2");
            MEASURE(key, st.vcons_max);
            printf("  midpoint %s, 10 s: |E - E0| / E0 %.3g (first 5 s %.3g, last 5 s %.3g), "
                   "E(10 s) - E0 %.3g relative; steps %ld, newton %.2f a step, jac %ld, lu %ld, "
                   "|C_q v| %.3g\n", hs[k], dev[k], half[k][0], half[k][1], end[k], st.steps,
                   (double)st.newton_iters / st.steps, st.jac_evals, st.lu_decomps,
                   st.vcons_max);
        }
        csv_free(&t);
    }
    /* the energy error of the nonlinear (trigonometric) constraints is the
     * scheme's O(h^2): 4 times smaller at half the step */
    CHECK(dev[0] / dev[1] > 3.5 && dev[0] / dev[1] < 4.5,
          "the double pendulum's energy error is O(h^2): %.3g at 0.2 ms, %.3g at 0.1 ms (ratio "
          "%.3g, 3.5 .. 4.5)", dev[0], dev[1], dev[0] / dev[1]);
    /* bounded: no drift over the run (the end is near the start, the second
     * half's largest deviation not above the first's by more than its O(h^2)
     * scatter) */
    CHECK(fabs(end[1]) < 1e-8 && half[1][1] < 2 * half[1][0],
          "no drift: E(10 s) - E0 = %.3g relative at 0.1 ms (< 1e-8, a fifth of the O(h^2) "
          "error), largest deviation %.3g in the last 5 s against %.3g in the first", end[1],
          half[1][1], half[1][0]);
    const char *defs[] = {"h=0.1 ms", "rho=1", NULL};
    double gdev = NAN, gend = NAN;
    int rc = run(ga, "dp_ga10.csv", NULL, 0, defs, &st, err, sizeof err, &t);
    if (rc == JNT_OK)
        dp_energy(&t, &gdev, &gend);
    csv_free(&t);
    MEASURE("mid.dp10.ga.energy_dev", gdev);
    MEASURE("mid.dp10.ga.energy_end", gend);
    MEASURE("mid.dp10.ga.newton", (double)st.newton_iters / st.steps);
    printf("  generalized-alpha rho_inf 1, h 0.1 ms, 10 s: |E - E0| / E0 %.3g, E(10 s) - E0 "
           "%.3g; newton %.2f a step\n", gdev, gend, (double)st.newton_iters / st.steps);
    /* the reason for the method: the same step, a far smaller energy error */
    CHECK(rc == JNT_OK && dev[1] < 0.1 * gdev, "midpoint's energy error %.3g is below a tenth "
          "of generalized-alpha's (rho_inf = 1) %.3g at h = 0.1 ms", dev[1], gdev);
    jnt_model_free(m);
    jnt_model_free(ga);
}

/* Sparse (KLU) and dense Newton matrices give the same run. */
static void solvers(void)
{
    jnt_model *m = dp_model("dp_mid_ls", "midpoint(h = h)");
    if (!m)
        return;
    double y[2][4];
    int rc[2];
    static const char *const mode[2] = {"sparse", "dense"};
    for (int k = 0; k < 2; k++) {
        csv_table t;
        setenv("JNT_LINSOLVE", mode[k], 1);
        rc[k] = run(m, "dp_mid_ls.csv", NULL, 0.2, NULL, NULL, NULL, 0, &t);
        if (rc[k] == JNT_OK)
            dp_last(&t, y[k]);
        csv_free(&t);
    }
    unsetenv("JNT_LINSOLVE");
    double d = 0.0;
    for (int c = 0; c < 4 && rc[0] == JNT_OK && rc[1] == JNT_OK; c++)
        d = fmax(d, fabs(y[0][c] - y[1][c]));
    CHECK(rc[0] == JNT_OK && rc[1] == JNT_OK && d < 1e-9,
          "sparse and dense Newton matrices agree over 0.2 s: largest difference %.3g", d);
    jnt_model_free(m);
}

/* Andrews' squeezer (examples/andrews_squeezer.jnt, seven bodies, index
 * 3, stiff) at h = 4 and 2 us against the test set's angles at 0.03 s. */
static void andrews(void)
{
    char *text = read_text("examples/andrews_squeezer.jnt");
    char *src = text_sub(text, "generalized_alpha(h = h, rho_inf = 0.9)", "midpoint(h = h)");
    jnt_model *m = src ? compile("andrews_mid", src) : NULL;
    CHECK(src != NULL, "examples/andrews_squeezer.jnt has the integrator call this test "
          "replaces");
    free(text), free(src);
    if (!m)
        return;
    static const char *const hs[2] = {"h=4 us", "h=2 us"};
    double e[2] = {NAN, NAN};
    for (int k = 0; k < 2; k++) {
        const char *defs[] = {hs[k], NULL};
        jnt_stats st;
        char err[512];
        csv_table t;
        int rc = run(m, "andrews_mid.csv", NULL, 0, defs, &st, err, sizeof err, &t);
        CHECK(rc == JNT_OK, "Andrews' squeezer runs with midpoint, %s: %s", hs[k], err);
        if (rc == JNT_OK)
            e[k] = andsoln_error(&t, NULL);
        csv_free(&t);
        char key[64];
        snprintf(key, sizeof key, "mid.andrews.%s.error", k ? "h2us" : "h4us");
        MEASURE(key, e[k]);
        printf("  andrews midpoint %s: angle error %.3g rad at 0.03 s; steps %ld, newton %.2f a "
               "step, jac %ld, lu %ld, cpu %.3g s\n", hs[k], e[k], st.steps,
               (double)st.newton_iters / st.steps, st.jac_evals, st.lu_decomps, st.cpu_seconds);
    }
    /* measured 8.3e-7 rad at 2 us (generalized-alpha rho_inf 0.9: 2.4e-6,
     * test_andrews.c), O(h^2) */
    CHECK(e[1] < 1.5e-6 && e[0] / e[1] > 3.5 && e[0] / e[1] < 4.5,
          "Andrews' squeezer: the seven angles at 0.03 s within %.3g rad of the test set's "
          "(< 1.5e-6), falling as h^2 (%.3g times at half the step)", e[1], e[0] / e[1]);
    jnt_model_free(m);
}

/* ---- (e) failures: clear messages, non-zero status ------------------------- */

/* A slider pushed by 1 N sqrt(x / 1 m): not finite once x < 0, which it
 * reaches at t = 0.05 s. */
static const char root_src[] =
    "model root\n"
    "param h = 1 ms\n"
    "body b : rigid2d(mass = 1 kg, inertia = 0.01 kg*m^2) { marker c = (0 m, 0 m) }\n"
    "joint rail : prismatic(b.c, (0 m, 0 m), axis = (1, 0))\n"
    "force push on b.x = 1 N * sqrt(b.x / 1 m)\n"
    "init b.x = 0.05 m\n"
    "init b.x.v = -1 m/s\n"
    "simulate { integrator = midpoint(h = h)  until = 1 s }\n"
    "output \"root.csv\" every 10 ms { t, x = b.x }\n";

static void failures(void)
{
    jnt_stats st;
    char err[512];
    csv_table t;
    /* the first rail twice: [M C_q^T; C_q 0] is singular unless a row is dropped */
    jnt_model *m = compile("sliders_twice",
                           SLIDERS("joint r1b : prismatic(b1.c, (0 m, 0 m), axis = (1, 0))\n"));
    jnt_model *m1 = compile("sliders_once", SLIDERS(""));
    if (m && m1) {
        /* dropped with a warning (docs/multibody.md, "Redundant constraints"): the
           motion of the model with one rail */
        csv_table t1;
        int rc = run(m, "twice.csv", NULL, 0, NULL, &st, err, sizeof err, &t);
        int rc1 = run(m1, "once.csv", NULL, 0, NULL, &st, err, sizeof err, &t1);
        double dx = rc == JNT_OK && rc1 == JNT_OK && t.nrow == t1.nrow ? 0.0 : INFINITY;
        for (int k = 0; dx < INFINITY && k < t.nrow; k++)
            dx = fmax(dx, fabs(csv_col(&t, "x1")[k] - csv_col(&t1, "x1")[k]));
        CHECK(dx <= 1e-12, "a rail given twice runs, its repeated row dropped: x1 as with one "
              "rail within %.3g m (1e-12) (status %d)", dx, rc);
        csv_free(&t), csv_free(&t1);
    }
    jnt_model_free(m1);
    jnt_model_free(m);
    /* a force that becomes NaN: the step is halved 10 times, then the run
     * stops naming the state */
    m = compile("root", root_src);
    if (m) {
        int rc = run(m, "root.csv", NULL, 0, NULL, &st, err, sizeof err, &t);
        csv_free(&t);
        CHECK(rc == JNT_ERR_NONFINITE && strstr(err, "not finite") && strstr(err, "b.x.v") &&
                  st.rejected >= 10,
              "a force that turns NaN (sqrt of x < 0) stops the run after the step halvings "
              "(%ld rejected): %s (status %d)", st.rejected, err, rc);
        jnt_model_free(m);
    }
    m = compile("sliders_h", SLIDERS(""));
    if (m) {
        const char *defs[] = {"h=0", NULL};
        int rc = run(m, "h0.csv", NULL, 0, defs, &st, err, sizeof err, &t);
        csv_free(&t);
        CHECK(rc == JNT_ERR_PARAM && strstr(err, "'midpoint' needs a step h > 0"),
              "midpoint takes a fixed step: h = 0 is refused: %s", err);
        rc = run(m, "radau.csv", "radau", 0, NULL, &st, err, sizeof err, &t);
        csv_free(&t);
        CHECK(rc == JNT_ERR_USAGE && strstr(err, "'hht', 'midpoint', 'generalized_alpha', "
                                                 "'radau5' or 'ida' only"),
              "the message for an ODE integrator on a multibody model lists midpoint: %s", err);
        jnt_model_free(m);
    }
}

int main(void)
{
    energy_exact();
    momentum();
    order();
    energy_bounded();
    solvers();
    andrews();
    failures();
    return check_done();
}
