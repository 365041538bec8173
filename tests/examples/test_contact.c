/*
 * test_contact.c: the contact laws of stdlib/contact.jnt and the example
 * examples/contact_laws.jnt.
 *
 *   1. Each law's analytic Jacobian against finite differences on a grid of
 *      gaps (and gap rates) that includes its switching points.
 *   2. Pressure-gap values: seed 000 Table 7's parameter sets near 1 MPa at
 *      g = -2.5 um (Fig. 8), and every law equal to its equation, computed
 *      here in C, on the grid.
 *   3. Coefficient of restitution of the impact laws against the exact
 *      energy integral of F = K d^n (1 + chi d').
 *   4. The example run once per law: steps, Jacobian evaluations, CPU time
 *      (seed 000 Sect. 6.2, Fig. 18), written as a Markdown table.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "core/data.h"
#include "jnt/jnt.h"

#define UM 1e-6
#define E_1 2.718281828459045 /* exp(1) */
#define AREA 5e-6 /* m^2, the element area of the small models (5 mm^2) */

enum { A_LIN, A_LIN2, A_LIN3, A_POW, A_EXP, A_QUADLIN, A_JEXP, A_HERTZ, A_SPRING, A_DISS };

/* One law: jnt call text, and the same parameters in SI for the closed form. */
typedef struct lawdef {
    const char *id;   /* seed 000 Table 7 label, or our own */
    const char *text; /* the law = ... text, in Table 7's units */
    int form;         /* A_* */
    double q[6];      /* SI parameters, meaning per form (see closed()) */
    int npk;          /* number of switching points */
    double kink[3];   /* switching points (gaps, m) */
    int table7;       /* 1: a Table 7 set, expected near 1 MPa at -2.5 um */
} lawdef;

static const double Kh = 5.0 / 3.952847075210474e-9; /* 5 N / (2.5 um)^1.5, N/m^1.5 */

static const lawdef laws[] = {
    {"A", "penalty(eps_N = 400 N/mm^3)", A_LIN, {4e11}, 1, {0}, 1},
    {"B", "penalty2(eps_N0 = 133 N/mm^3, eps_N1 = 667 N/mm^3, g0 = 0 um, g1 = -1.25 um)", A_LIN2,
     {1.33e11, 6.67e11, 0, -1.25 * UM}, 2, {0, -1.25 * UM}, 1},
    {"B3", "penalty3(eps_N0 = 133 N/mm^3, eps_N1 = 400 N/mm^3, eps_N2 = 934 N/mm^3, g0 = 0 um, "
           "g1 = -1 um, g2 = -2 um)",
     A_LIN3, {1.33e11, 4e11, 9.34e11, 0, -1 * UM, -2 * UM}, 3, {0, -1 * UM, -2 * UM}, 0},
    {"C1", "penalty_power(eps_N = 0.16 N/mm^2, m = 2, g_ref = 1 um)", A_POW, {1.6e5, 2, UM}, 1, {0}, 1},
    {"C2", "penalty_power(eps_N = 4.86e-2 N/mm^2, m = 3.3, g_ref = 1 um)", A_POW, {4.86e4, 3.3, UM}, 1,
     {0}, 1},
    {"D", "penalty_exp(p0 = 1.23e-4 N/mm^2, g0 = 0.4 um)", A_EXP, {123, 0.4 * UM}, 1, {0.4 * UM}, 0},
    {"E", "penalty_quadlin(eps_N = 0.57 N/mm^2/um, g0 = 0 um, g1 = -1.5 um)", A_QUADLIN,
     {5.7e11, 0, -1.5 * UM}, 2, {0, -1.5 * UM}, 1},
    {"F", "penalty_jointexp(eps_N = 617 N/mm^3, lambda_N = 200 /mm, g0 = 0 um)", A_JEXP,
     {6.17e11, 2e5, 0}, 1, {0}, 1},
    {"H", "hertz(K = 5 N / (2.5 um)^1.5)", A_HERTZ, {0}, 1, {0}, 0},
    {"LS", "linear_spring(k = 15 MN/m)", A_SPRING, {1.5e7}, 1, {0}, 0},
    {"HC", "hunt_crossley(K = 5 N / (2.5 um)^1.5, e = 0.8, v0 = 0.2 mm/s)", A_DISS,
     {1.5 * (1 - 0.8) / 2e-4}, 1, {0}, 0},
    {"LN", "lankarani_nikravesh(K = 5 N / (2.5 um)^1.5, e = 0.8, v0 = 0.2 mm/s)", A_DISS,
     {0.75 * (1 - 0.64) / 2e-4}, 1, {0}, 0},
    {"FL", "flores(K = 5 N / (2.5 um)^1.5, e = 0.8, v0 = 0.2 mm/s)", A_DISS,
     {1.6 * (1 - 0.8) / (0.8 * 2e-4)}, 1, {0}, 0},
};
#define NLAW ((int)(sizeof laws / sizeof *laws))

/* The element force (N) of law L at gap g and gap rate gv, from the
 * equations of seed 000 Sect. 5.1 and the impact-law papers, in C. */
static double closed(const lawdef *L, double g, double gv)
{
    const double *q = L->q;
    double p;
    switch (L->form) {
    case A_LIN: /* eq. 35 */
        p = g < 0 ? -q[0] * g : 0;
        break;
    case A_LIN2: /* eq. 36 */
        p = g >= q[2]  ? 0
            : g > q[3] ? q[0] * (q[2] - g)
                       : q[0] * (q[2] - q[3]) + q[1] * (q[3] - g);
        break;
    case A_LIN3: /* eq. 36, k = 3 */
        p = g >= q[3]  ? 0
            : g > q[4] ? q[0] * (q[3] - g)
            : g > q[5] ? q[0] * (q[3] - q[4]) + q[1] * (q[4] - g)
                       : q[0] * (q[3] - q[4]) + q[1] * (q[4] - q[5]) + q[2] * (q[5] - g);
        break;
    case A_POW: /* eq. 37 */
        p = g < 0 ? q[0] * pow(-g / q[2], q[1]) : 0;
        break;
    case A_EXP: /* eq. 39 */
        p = g < q[1] ? q[0] / (E_1 - 1) * (1 - g / q[1]) * (exp(1 - g / q[1]) - 1) : 0;
        break;
    case A_QUADLIN: /* eq. 38 */
        p = g >= q[1]  ? 0
            : g > q[2] ? -q[0] * (g - q[1]) * (g - q[1]) / (2 * (q[2] - q[1]))
                       : -q[0] * g + 0.5 * q[0] * (q[2] + q[1]);
        break;
    case A_JEXP: /* eq. 41 */
        p = g < q[2] ? q[0] * (q[2] - g) * (exp(q[1] * (q[2] - g)) - 1) : 0;
        break;
    case A_HERTZ:
        return g < 0 ? Kh * pow(-g, 1.5) : 0;
    case A_SPRING: /* seed 001 Sect. 6 */
        return g < 0 ? -q[0] * g : 0;
    default: /* K d^1.5 (1 + chi d'), d = -g */
        return g < 0 ? Kh * pow(-g, 1.5) * (1 - q[0] * gv) : 0;
    }
    return p * AREA;
}

/* A one-body model on law L: b.x is the penetration (gap = -b.x). */
static jnt_model *law_model(const lawdef *L)
{
    char text[1024];
    jnt_model *m = NULL;
    snprintf(text, sizeof text,
             "import contact\n"
             "body b : point(mass = 1 kg) { dof x }\n"
             "contact c between b.x and ground { law = %s  area = 5 mm^2 }\n"
             "simulate { until = 1 ms }\n"
             "output \"law.csv\" every 1 ms { t, F = c.force }\n",
             L->text);
    if (jnt_compile_string(L->id, text, NULL, &m) != JNT_OK)
        return NULL;
    return m;
}

/* d(ydot_i)/d(y_j) by central differences of the rhs at y, step h. */
static double fd(const jnt_model *m, jnt_data *d, int i, int j, double h)
{
    double y0 = d->y[j], fp, ydot[8];
    d->y[j] = y0 + h;
    jnt_eval_rhs(m, d, 0, d->y, ydot);
    fp = ydot[i];
    d->y[j] = y0 - h;
    jnt_eval_rhs(m, d, 0, d->y, ydot);
    d->y[j] = y0;
    return (fp - ydot[i]) / (2 * h);
}

/* 1. The Jacobian of law L's model against differences on a grid of gaps
 * from -4 um to 1 um, each switching point, points h/2 and 1 nm from it
 * (h = 1e-5 um), and three gap rates. The difference in the gap uses the
 * step min(h, d / 1000), d the distance to the nearest switching point: the
 * stencil stays on the state's side of it (one-sided with respect to the
 * switch), and its truncation error stays below 1e-6 even where the second
 * derivative is unbounded (Hertz's d^1.5 at d = 0). Exactly at a switching
 * point the law has no derivative (a kink) or the branch taken is a
 * convention: those states are skipped and counted. */
/* the worst relative differences over all laws (docs/laws.md, "Tests") */
static double jac_worst_all, val_worst_all;
static int val_states;

static void check_jacobian(const lawdef *L)
{
    jnt_model *m = law_model(L);
    if (!m) {
        CHECK(0, "%s: compile the law model", L->id);
        return;
    }
    const jnt_abi_model *a = jnt_model_abi(m);
    jnt_data *d = jnt_data_new(m);
    int ix = jnt_state_index(m, "b.x"), iv = jnt_state_index(m, "b.x.v");
    const double hx = 1e-5 * UM, hv = 1e-9;
    double gaps[64];
    int ng = 0;
    for (int k = 0; k <= 20; k++)
        gaps[ng++] = (-4 + 0.25 * k) * UM;
    for (int k = 0; k < L->npk; k++) {
        double s = L->kink[k];
        const double o[5] = {0, hx / 2, -hx / 2, 1e-3 * UM, -1e-3 * UM};
        for (int r = 0; r < 5; r++)
            gaps[ng++] = s + o[r];
    }
    const double rates[3] = {-2e-4, 0, 3e-4}; /* gap rates, m/s */
    double J[64] = {0}, worst = 0;
    int ok = 0, bad = 0, skip = 0, near = 0;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < ng; k++) {
            d->y[ix] = -gaps[k];
            d->y[iv] = -rates[r];
            double dist = INFINITY;
            for (int q = 0; q < L->npk; q++)
                dist = fmin(dist, fabs(d->y[ix] + L->kink[q]));
            if (dist == 0) {
                skip++;
                continue;
            }
            double h = fmin(hx, dist / 1000);
            near += h < hx;
            jnt_eval_jacobian(m, d, 0, d->y, J);
            for (int j = 0; j < 2; j++)
                for (int e = a->jac_colptr[j]; e < a->jac_colptr[j + 1]; e++) {
                    int i = a->jac_rowind[e];
                    double num = fd(m, d, i, j, j == ix ? h : hv), an = J[j * a->ny + i];
                    /* scale: at least 1 1/s^2 (the entries are up to 1e7) */
                    double rel = fabs(num - an) / fmax(fmax(fabs(num), fabs(an)), 1.0);
                    worst = fmax(worst, rel);
                    if (rel > 1e-6) {
                        if (++bad <= 3)
                            printf("INFO: %s: gap %.6g m, rate %g m/s: dF%d/dy%d analytic %.10g, "
                                   "difference %.10g\n", L->id, gaps[k], rates[r], i, j, an, num);
                    } else {
                        ok++;
                    }
                }
        }
    CHECK(bad == 0 && ok > 0,
          "%s: Jacobian = differences on %d states: %d entries agree (worst rel. %.2g; %d states "
          "within 10 nm of a switch, smaller step), %d differ, %d states exactly at a switching "
          "point skipped",
          L->id, 3 * ng, ok, worst, near, bad, skip);
    jac_worst_all = fmax(jac_worst_all, worst);
    jnt_data_free(d);
    jnt_model_free(m);
}

/* The law's element force at gap g, rate gv, through the model's output. */
static double model_force(const jnt_model *m, jnt_data *d, double g, double gv)
{
    const jnt_abi_model *a = jnt_model_abi(m);
    d->y[jnt_state_index(m, "b.x")] = -g;
    d->y[jnt_state_index(m, "b.x.v")] = -gv;
    a->output(0, d->y, NULL, d->d, d->p, d->out);
    return d->out[jnt_output_index(m, "F")];
}

/* 2. Pressure-gap values. */
static void check_values(const lawdef *L)
{
    jnt_model *m = law_model(L);
    if (!m) {
        CHECK(0, "%s: compile the law model", L->id);
        return;
    }
    jnt_data *d = jnt_data_new(m);
    double worst = 0;
    int n = 0;
    for (int k = 0; k <= 50; k++)
        for (int r = -1; r <= 1; r++) {
            double g = (-4 + 0.1 * k) * UM, gv = r * 1e-4;
            double got = model_force(m, d, g, gv), want = closed(L, g, gv);
            worst = fmax(worst, fabs(got - want) / fmax(fabs(want), 1e-12));
            n++;
        }
    CHECK(worst < 1e-12, "%s: force = closed form of its equation at %d states, -4 um <= g <= 1 um "
          "(worst rel. %.2g)", L->id, n, worst);
    val_worst_all = fmax(val_worst_all, worst), val_states = n;
    if (L->form != A_DISS && L->form != A_HERTZ) {
        double p25 = model_force(m, d, -2.5 * UM, 0) / AREA;
        char key[64];
        snprintf(key, sizeof key, "contact.p25.%s", L->id);
        MEASURE(key, p25 * 1e-6);
        /* seed 000 Sect. 5.1.7 / Fig. 8 / Table 7: the same pressure at
         * -2.5 um; the sets round to 3 digits, (E) is 0.25 % below 1 MPa */
        if (L->table7)
            CHECK_REL(p25, 1e6, 3e-3, "Table 7 pressure at g = -2.5 um is 1 MPa (seed 000, Fig. 8)");
        else
            printf("INFO: %s: pressure at g = -2.5 um: %.6g MPa\n", L->id, p25 * 1e-6);
    }
    jnt_data_free(d);
    jnt_model_free(m);
}

/* Finding: Table 7's set (D) gives 0.731 MPa at -2.5 um, not 1 MPa. */
static void check_table7_d(void)
{
    const lawdef *D = &laws[5];
    double p = closed(D, -2.5 * UM, 0) / AREA;
    /* eq. 39 by hand: x = 1 + 2.5/0.4 = 7.25, 1.23e-4 / (e - 1) * 7.25 (e^7.25 - 1) N/mm^2 */
    double hand = 1.23e2 / (E_1 - 1) * 7.25 * (exp(7.25) - 1);
    CHECK(fabs(p - hand) <= 1e-12 * hand,
          "Table 7 (D) at g = -2.5 um: %.4g MPa (by hand %.4g MPa), not 1 MPa", p * 1e-6, hand * 1e-6);
    /* gap where (D) reaches 1 MPa, by bisection */
    double lo = -4 * UM, hi = -2 * UM;
    for (int k = 0; k < 100; k++) {
        double mid = 0.5 * (lo + hi);
        if (closed(D, mid, 0) / AREA > 1e6)
            lo = mid;
        else
            hi = mid;
    }
    CHECK(fabs(lo + 2.5 * UM) < 0.2 * UM,
          "Table 7 (D) reaches 1 MPa at g = %.4g um, within 0.2 um of -2.5 um", lo / UM);
    MEASURE("contact.D.p25", p * 1e-6);
    MEASURE("contact.D.gap_1MPa", lo / UM);
}

/* Exact coefficient of restitution of F = K d^n (1 + chi d') for c = chi v0:
 * integrating m v dv / (1 + chi v) = -K d^n dd over the contact (d from 0
 * back to 0) gives c - ln(1 + c) = -y - ln(1 - y) with y = chi v_out, for
 * every K, n and m; e = y / c. (Valid while 1 + chi d' > 0, as here.) */
static double e_exact(double c)
{
    double rhs = c - log1p(c), lo = 0, hi = 1;
    for (int k = 0; k < 200; k++) {
        double y = 0.5 * (lo + hi);
        if (-y - log1p(-y) < rhs)
            lo = y;
        else
            hi = y;
    }
    return 0.5 * (lo + hi) / c;
}

/* Drop a 1 kg body at 1 m/s on law `law` (K = 1e9 N/m^1.5; e and v0 = 1 m/s
 * when e > 0); the rebound speed over the impact speed, NAN on failure. */
static double rebound(const char *law, double e)
{
    char text[1024], args[96] = "";
    jnt_model *m;
    double out = NAN;
    if (e > 0)
        snprintf(args, sizeof args, ", e = %.17g, v0 = 1 m/s", e);
    snprintf(text, sizeof text,
             "import contact\n"
             "body b : point(mass = 1 kg) { dof x }\n"
             "init b.x = -0.1 mm\n"
             "init b.x.v = 1 m/s\n"
             "contact c between b.x and ground { law = %s(K = 1e9 N/m^1.5%s) }\n"
             "simulate { integrator = bdf(rtol = 1e-10, atol = 1e-14)  until = 3 ms }\n",
             law, args);
    if (jnt_compile_string(law, text, NULL, &m) != JNT_OK)
        return NAN;
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = {.csv_path = ""};
    if (jnt_run(m, d, &o) == JNT_OK && jnt_state(m, d, jnt_state_index(m, "b.x")) < -0.05e-3)
        out = -jnt_state(m, d, jnt_state_index(m, "b.x.v"));
    jnt_data_free(d);
    jnt_model_free(m);
    return out;
}

/* 3. Restitution. */
static void check_restitution(void)
{
    double vh = rebound("hertz", 0);
    CHECK(fabs(vh - 1) < 1e-6, "hertz: elastic, rebound / impact speed = %.9f (|1 - e| < 1e-6)", vh);
    MEASURE("contact.hertz.rebound_dev", fabs(vh - 1));
    double worst_all = 0;

    static const struct {
        const char *law;
        double k1, k2; /* chi v0 = k1 (1 - e^k2) / e^(k2 == 3 ? 1 : 0) */
    } dl[3] = {{"hunt_crossley", 1.5, 1}, {"lankarani_nikravesh", 0.75, 2}, {"flores", 1.6, 3}};
    const double es[5] = {0.95, 0.9, 0.7, 0.5, 0.3};
    double err[3][5];
    printf("INFO: coefficient of restitution, measured (exact) for nominal e:\n");
    printf("INFO: %-20s", "e");
    for (int j = 0; j < 5; j++)
        printf(" %17.2f", es[j]);
    printf("\n");
    for (int i = 0; i < 3; i++) {
        double worst = 0, row[5];
        printf("INFO: %-20s", dl[i].law);
        for (int j = 0; j < 5; j++) {
            double e = es[j];
            double c = dl[i].k2 == 1 ? 1.5 * (1 - e) : dl[i].k2 == 2 ? 0.75 * (1 - e * e)
                                                                     : 1.6 * (1 - e) / e;
            double ex = e_exact(c), meas = rebound(dl[i].law, e);
            worst = fmax(worst, isnan(meas) ? INFINITY : fabs(meas - ex));
            err[i][j] = ex - e;
            printf(" %8.5f (%6.4f)", meas, ex);
            row[j] = meas;
        }
        printf("\n");
        for (int j = 0; j < 5; j++) {
            char key[64];
            snprintf(key, sizeof key, "contact.restitution.%s.%d", dl[i].law, j);
            MEASURE(key, row[j]);
        }
        CHECK(worst < 1e-5, "%s: measured e = exact energy-integral e at e = 0.95 ... 0.3 "
              "(worst %.2g, tol 1e-5)", dl[i].law, worst);
        worst_all = fmax(worst_all, worst);
    }
    /* The literature's claims, quantified by the exact relation:
     * Hunt-Crossley's and Lankarani-Nikravesh's chi are first-order in
     * (1 - e) (accurate near e = 1): |e_eff - e| <= 0.15 (1 - e) for
     * e >= 0.9. Flores et al. (2011) is meant for any e: |e_eff - e| <= 0.05
     * from e = 0.3 to 0.95, and smaller than the other two for e <= 0.7. */
    for (int i = 0; i < 2; i++)
        CHECK(fabs(err[i][0]) <= 0.15 * 0.05 && fabs(err[i][1]) <= 0.15 * 0.1,
              "%s: |e_eff - e| = %.4f, %.4f at e = 0.95, 0.9 (<= 0.15 (1 - e))", dl[i].law,
              fabs(err[i][0]), fabs(err[i][1]));
    double fw = 0;
    int better = 1;
    for (int j = 0; j < 5; j++) {
        fw = fmax(fw, fabs(err[2][j]));
        if (es[j] <= 0.7)
            better &= fabs(err[2][j]) < fabs(err[0][j]) && fabs(err[2][j]) < fabs(err[1][j]);
    }
    CHECK(fw <= 0.05, "flores: max |e_eff - e| = %.4f over e = 0.3 ... 0.95 (<= 0.05)", fw);
    MEASURE("contact.restitution.flores.max_err", fw);
    MEASURE("contact.restitution.vs_exact", worst_all);
    CHECK(better, "flores: closer to e than Hunt-Crossley and Lankarani-Nikravesh for e <= 0.7");
}

/* The alternative to the parameter v0: a discrete state that follows the
 * approach speed while the gap is open and freezes it in contact. Under
 * gravity the speed changes every step, so does the state, and every step
 * restarts the integrator: the cost is measured here. */
static void check_captured_v0(void)
{
    static const char *fmt =
        "import contact\n"
        "law contact hc_capture(K: N/m^1.5, e, v_min: m/s = 1 mm/s) {\n"
        "  state v0: m/s discrete = 1 m/s\n"
        "  update v0 = if gap >= 0 then max(-gapv, v_min) else v0\n"
        "  let chi = 3 * (1 - e) / (2 * v0)\n"
        "  force = if gap < 0 then K * (-gap)^1.5 * (1 - chi * gapv) else 0 N\n"
        "}\n"
        "body b : point(mass = 1 kg) { dof x }\n"
        "init b.x = -10 mm\n"
        "force grav on b.x = 9.81 N\n"
        "contact c between b.x and ground { law = %s }\n"
        "simulate { integrator = bdf(rtol = 1e-8, atol = 1e-12)  until = 50 ms }\n"
        "output \"cap.csv\" every 0 s { t, v = b.x.v, gap = c.gap, v0 = c.v0 }\n";
    const double vin = sqrt(2 * 9.81 * 0.01); /* free fall from 10 mm */
    const char *lw[2] = {"hc_capture(K = 1e9 N/m^1.5, e = 0.8)",
                         "hunt_crossley(K = 1e9 N/m^1.5, e = 0.8, v0 = 0.442944691807002 m/s)"};
    long steps[2] = {0, 0};
    double worst = INFINITY;
    for (int k = 0; k < 2; k++) {
        char text[2048];
        jnt_model *m;
        snprintf(text, sizeof text, fmt, lw[k]);
        if (jnt_compile_string("capture", text, NULL, &m) != JNT_OK) {
            CHECK(0, "compile the v0-capture model %d", k);
            return;
        }
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o = {.csv_path = k == 0 ? test_out("contact_capture.csv") : ""};
        int rc = jnt_run(m, d, &o);
        steps[k] = jnt_data_stats(d)->steps;
        jnt_data_free(d);
        jnt_model_free(m);
        csv_table t;
        if (k == 0 && rc == JNT_OK && csv_load(test_out("contact_capture.csv"), &t) == 0) {
            /* the state's value in every row in contact */
            double *g = csv_col(&t, "gap"), *v0 = csv_col(&t, "v0");
            worst = 0;
            for (int i = 0; i < t.nrow; i++)
                if (g[i] < 0)
                    worst = fmax(worst, fabs(v0[i] / vin - 1));
            csv_free(&t);
        }
    }
    CHECK(worst < 1e-3, "v0 as a discrete state: in contact it holds the impact speed %.6g m/s "
          "(worst rel. %.2g, tol 1e-3)", vin, worst);
    printf("INFO: v0 as a discrete state: %ld steps; as a parameter: %ld steps "
           "(free fall from 10 mm, HC e = 0.8, 50 ms)\n", steps[0], steps[1]);
    CHECK(steps[0] < 2 * steps[1], "a discrete v0 costs BDF about what the parameter does (no "
          "restart when a discrete state changes): %ld steps vs %ld", steps[0], steps[1]);
}

/* 4. The example, run once per law. */
typedef struct lawrun {
    char id[8];
    char law[256];
    long steps, rejected, jac, rhs;
    double cpu, gmin, fmax;
    int ok;
} lawrun;


/* The example's text with its LAW line's law replaced by `law`. */
static char *with_law(const char *src, const char *law)
{
    const char *mark = strstr(src, "// LAW");
    if (!mark)
        return NULL;
    const char *ls = mark;
    while (ls > src && ls[-1] != '\n')
        ls--;
    const char *eq = strstr(ls, "law  = ");
    if (!eq || eq > mark)
        return NULL;
    eq += 7;
    size_t n = strlen(src) + strlen(law) + 8;
    char *s = malloc(n);
    snprintf(s, n, "%.*s%s %s", (int)(eq - src), src, law, mark);
    return s;
}

static void run_example_law(const char *src, lawrun *r)
{
    char *text = with_law(src, r->law);
    jnt_model *m = NULL;
    r->ok = 0;
    if (!text || jnt_compile_string("contact_laws", text, NULL, &m) != JNT_OK) {
        free(text);
        return;
    }
    free(text);
    char csv[64];
    snprintf(csv, sizeof csv, "contact_laws_%.7s.csv", r->id);
    r->cpu = INFINITY;
    /* CPU time: the least of three runs (the others differ by timer noise) */
    for (int k = 0; k < 3; k++) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o = {.csv_path = k == 0 ? test_out(csv) : ""};
        if (jnt_run(m, d, &o) == JNT_OK) {
            const jnt_stats *st = jnt_data_stats(d);
            r->steps = st->steps, r->rejected = st->rejected, r->jac = st->jac_evals;
            r->rhs = st->rhs_evals;
            r->cpu = fmin(r->cpu, st->cpu_seconds);
            r->ok = 1;
        }
        jnt_data_free(d);
    }
    jnt_model_free(m);
    csv_table t;
    if (r->ok && csv_load(test_out(csv), &t) == 0) {
        double *g = csv_col(&t, "gap"), *F = csv_col(&t, "F_c");
        r->gmin = 0, r->fmax = 0;
        for (int i = 0; i < t.nrow; i++) {
            r->gmin = fmin(r->gmin, g[i]);
            r->fmax = fmax(r->fmax, F[i]);
        }
        csv_free(&t);
    } else {
        r->ok = 0;
    }
}

static void check_example(void)
{
    const char *path = "examples/contact_laws.jnt";
    jnt_model *m;
    CHECK(jnt_compile_file(path, NULL, &m) == JNT_OK, "compile %s", path);
    if (!m)
        return;
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = {.csv_path = test_out("contact_laws.csv")};
    CHECK(jnt_run(m, d, &o) == JNT_OK, "%s runs as it is", path);
    jnt_data_free(d);
    jnt_model_free(m);

    char *src = read_text(path);
    if (!src) {
        CHECK(0, "read %s", path);
        return;
    }
    lawrun runs[32];
    int nr = 0;
    for (const char *p = strstr(src, "//@law "); p && nr < 32; p = strstr(p + 1, "//@law ")) {
        lawrun *r = &runs[nr];
        int n = 0;
        if (sscanf(p + 7, "%7s %n", r->id, &n) != 1)
            continue;
        size_t len = strcspn(p + 7 + n, "\n");
        snprintf(r->law, sizeof r->law, "%.*s", (int)len, p + 7 + n);
        nr++;
    }
    CHECK(nr == 12, "the example lists %d laws (12: Table 7 (A)-(F), k = 3 stages, 4 impact laws)", nr);
    FILE *md = fopen(test_out("contact_laws.md"), "w");
    const char *head = "| law | steps | rejected | Jacobians | rhs | CPU (ms) | max penetration (um) | "
                       "max contact force (N) |\n|---|---|---|---|---|---|---|---|\n";
    printf("INFO: examples/contact_laws.jnt per law (also in %s):\n%s", test_out("contact_laws.md"),
           head);
    if (md)
        fputs(head, md);
    double fref = NAN;
    for (int i = 0; i < nr; i++) {
        lawrun *r = &runs[i];
        run_example_law(src, r);
        CHECK(r->ok, "example with law %s (%s) runs", r->id, r->law);
        if (!r->ok)
            continue;
        char name[300];
        snprintf(name, sizeof name, "(%.7s) `%.*s`", r->id, (int)strcspn(r->law, "(") % 256, r->law);
        char line[512];
        snprintf(line, sizeof line, "| %s | %ld | %ld | %ld | %ld | %.1f | %.3f | %.3f |\n", name,
                 r->steps, r->rejected, r->jac, r->rhs, r->cpu * 1e3, -r->gmin / UM, r->fmax);
        fputs(line, stdout);
        if (md)
            fputs(line, md);
        /* docs/laws.md's table (docs/testing.md, "Numbers in the docs"); the
         * CPU time is this machine's and is not compared */
        static const char *const col[] = {"steps", "rejected", "jac", "rhs", "gmax", "fmax"};
        const double val[] = {(double)r->steps, (double)r->rejected, (double)r->jac,
                              (double)r->rhs, -r->gmin / UM, r->fmax};
        for (int c = 0; c < 6; c++) {
            char key[64];
            snprintf(key, sizeof key, "contact_laws.%.7s.%s", r->id, col[c]);
            MEASURE(key, val[c]);
        }
        if (isnan(fref))
            fref = r->fmax;
        /* all laws carry the same slowly varying load (f0 = 5 N less the
         * spring's share), seed 000 Sect. 6.2: a comparable contact force */
        CHECK(fabs(r->fmax - fref) < 0.02 * fref,
              "example %s: max contact force %.4g N within 2 %% of law A's %.4g N", r->id, r->fmax,
              fref);
        /* seed 000 Sect. 6.2: Table 7 gives g_max of about -3 um */
        CHECK(-r->gmin > 1.5 * UM && -r->gmin < 3.5 * UM,
              "example %s: max penetration %.3g um in (1.5, 3.5) um", r->id, -r->gmin / UM);
    }
    if (md)
        fclose(md);
    /* the text under the table: the spread of the max force, the range of
     * penetrations, (D)'s steps over (A)'s, hertz's steps and Jacobians over
     * the dissipative laws' */
    double fmn = INFINITY, fmx = 0, gmin = INFINITY, gmx = 0, rmin = INFINITY, rmax = 0;
    const lawrun *ra = NULL, *rd = NULL, *rh = NULL;
    for (int i = 0; i < nr; i++) {
        const lawrun *r = &runs[i];
        if (!r->ok)
            continue;
        fmn = fmin(fmn, r->fmax), fmx = fmax(fmx, r->fmax);
        gmin = fmin(gmin, -r->gmin / UM), gmx = fmax(gmx, -r->gmin / UM);
        ra = strcmp(r->id, "A") ? ra : r, rd = strcmp(r->id, "D") ? rd : r;
        rh = strcmp(r->id, "H") ? rh : r;
    }
    for (int i = 0; i < nr && rh; i++) {
        const lawrun *r = &runs[i];
        if (!r->ok || (strcmp(r->id, "HC") && strcmp(r->id, "LN") && strcmp(r->id, "FL")))
            continue;
        double q[2] = {(double)rh->steps / r->steps, (double)rh->jac / r->jac};
        for (int k = 0; k < 2; k++)
            rmin = fmin(rmin, q[k]), rmax = fmax(rmax, q[k]);
    }
    MEASURE("contact_laws.fmax_spread_pct", 100 * (fmx - fmn) / fmn);
    MEASURE("contact_laws.gmax_min", gmin);
    MEASURE("contact_laws.gmax_max", gmx);
    if (ra && rd)
        MEASURE("contact_laws.D_over_A_steps_pct", 100.0 * rd->steps / ra->steps - 100);
    MEASURE("contact_laws.hertz_over_dissipative_min", rmin);
    MEASURE("contact_laws.hertz_over_dissipative_max", rmax);
    free(src);
}

/* The energy-consistent discrete force (seed 001 Sect. 2.5, penalty_ec) with
 * the implicit midpoint rule: a 1 kg body hits a linear penalty wall at
 * 1 m/s and rebounds; kinetic + contact energy stays 0.5 J to the Newton
 * tolerance (1e-13 relative here), while the plain law under the same
 * integrator loses 1.4e-6 at the entry and exit of contact. */
static double ec_energy_drift(const char *law)
{
    char text[1024];
    int hz = strncmp(law, "hertz", 5) == 0; /* V = 0.4 K d^2.5, else 0.5 eps A d^2 */
    snprintf(text, sizeof text,
             "import contact\n"
             "body b : point(mass = 1 kg) { dof x }\n"
             "init b.x.v = 1 m/s\n"
             "contact wall between b.x and ground { law = %s  area = 1 cm^2  gap0 = 1 mm }\n"
             "let d = max(-wall.gap, 0 m)\n"
             "let E = 0.5 * 1 kg * b.x.v^2 + %s\n"
             "simulate { integrator = midpoint(h = 20 us)  until = 10 ms }\n"
             "output \"-\" every 20 us { t, E = E }\n",
             hz ? (strcmp(law, "hertz") == 0 ? "hertz(K = 1e10 N/m^1.5)" : "hertz_ec(K = 1e10 N/m^1.5)")
                : (strcmp(law, "penalty") == 0 ? "penalty(eps_N = 1e10 Pa/m)"
                                               : "penalty_ec(eps_N = 1e10 Pa/m)"),
             hz ? "0.4 * 1e10 N/m^1.5 * d^2.5" : "0.5 * 1e10 Pa/m * 1 cm^2 * d^2");
    jnt_model *m;
    if (jnt_compile_string(law, text, NULL, &m) != JNT_OK)
        return INFINITY;
    jnt_data *d = jnt_data_new(m);
    csv_table t;
    jnt_run_opts o = {.csv_path = test_out("ec.csv"), .rtol = 1e-12, .atol = 1e-15};
    double drift = INFINITY;
    if (jnt_run(m, d, &o) == JNT_OK && csv_load(test_out("ec.csv"), &t) == 0) {
        double *E = csv_col(&t, "E");
        drift = 0;
        for (int i = 0; i < t.nrow; i++)
            drift = fmax(drift, fabs(E[i] - 0.5) / 0.5);
        csv_free(&t);
    }
    jnt_data_free(d);
    jnt_model_free(m);
    return drift;
}

static void check_energy_consistent(void)
{
    double ec = ec_energy_drift("penalty_ec"), plain = ec_energy_drift("penalty");
    CHECK(ec < 1e-12, "penalty_ec + midpoint conserves energy through an impact: drift %.2g "
                      "(seed 001 Sect. 2.5: the contact work is V(q_f) - V(q_i) exactly)", ec);
    CHECK(plain > 100 * ec, "the plain penalty law under the same integrator drifts more: %.2g", plain);
    double hec = ec_energy_drift("hertz_ec"), hplain = ec_energy_drift("hertz");
    CHECK(hec < 1e-12, "hertz_ec + midpoint conserves energy through an impact: drift %.2g", hec);
    CHECK(hplain > 100 * hec, "plain hertz under the same integrator drifts more: %.2g", hplain);
    MEASURE("contact.ec.penalty_ec", ec);
    MEASURE("contact.ec.penalty", plain);
    MEASURE("contact.ec.hertz_ec", hec);
    MEASURE("contact.ec.hertz", hplain);
}

int main(void)
{
    check_energy_consistent();
    for (int i = 0; i < NLAW; i++)
        check_jacobian(&laws[i]);
    for (int i = 0; i < NLAW; i++)
        check_values(&laws[i]);
    MEASURE("contact.jacobian.worst", jac_worst_all);
    MEASURE("contact.values.worst", val_worst_all);
    MEASURE("contact.values.states", val_states);
    check_table7_d();
    check_restitution();
    check_captured_v0();
    check_example();
    return check_done();
}
