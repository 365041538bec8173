/*
 * test_hysteresis.c: the laws of stdlib/hysteresis.jnt (and LuGre of
 * stdlib/friction.jnt) driven by a prescribed slip s = u0 sin(2 pi t / T)
 * (a `motion`), each against an independent analytic result: the energy
 * dissipated per cycle (the `integral` W of F v over one period), slopes,
 * saturation, loop symmetry, the Segalman microslip power law, the Masing
 * rule, steady sliding, and gaping (zero normal force: zero friction force,
 * frozen states); and each law's analytic Jacobian against finite
 * differences over a grid of states that includes the switching points.
 * Each check names its source and tolerance; docs/laws.md lists the results.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "core/data.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

/* The drive and the recorded columns around one element `j`: s, F, the
 * work W = int F v dt done on the element, and the extra columns `cols`. */
static const char *const drive_fmt =
    "import hysteresis\n"
    "import friction\n"
    "param u0 = 20 um\n"
    "param T = 1 s\n"
    "param t_end = 3 s\n"
    "param dt_out = 1 ms\n"
    "body d : point(mass = 1 kg) { dof x }\n"
    "motion drive on d.x = u0 * sin(2 * pi * t / T)\n"
    "%s\n"
    "integral W = j.force * d.x.v\n"
    "simulate { integrator = rk4(h = 1 ms)  until = t_end }\n"
    "output \"-\" every dt_out { t, s = j.s, F = j.force, W = W%s }\n";

/* Compile the drive around element text `elem`; NULL on failure. */
static jnt_model *compile_drive(const char *name, const char *elem, const char *cols)
{
    static char text[8192];
    jnt_model *m = NULL;
    snprintf(text, sizeof text, drive_fmt, elem, cols);
    CHECK(jnt_compile_string(name, text, NULL, &m) == JNT_OK, "%s: compiles", name);
    return m;
}

/* Run m with the -D assignments defs (NULL-terminated) into csv and load
 * it into t; opts may override the integrator. Returns 0 on success. */
static int run_load(jnt_model *m, const char *const *defs, const jnt_run_opts *opts,
                    const char *csv, csv_table *t)
{
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = opts ? *opts : (jnt_run_opts){0};
    o.csv_path = test_out(csv);
    for (; defs && *defs; defs++)
        if (jnt_set_param_text(m, d, *defs) != JNT_OK) {
            CHECK(0, "%s: -D %s: %s", csv, *defs, jnt_data_error(d));
            jnt_data_free(d);
            return -1;
        }
    int rc = jnt_run(m, d, &o);
    if (rc != JNT_OK)
        CHECK(0, "%s: runs: %s", csv, jnt_data_error(d));
    jnt_data_free(d);
    if (rc != JNT_OK || csv_load(o.csv_path, t) != 0) {
        if (rc == JNT_OK)
            CHECK(0, "%s: load the CSV", csv);
        return -1;
    }
    return 0;
}

/* The row whose time is t (within 1e-9 s), or -1. */
static int row_at(const csv_table *t, double time)
{
    for (int i = 0; i < t->nrow; i++)
        if (fabs(t->col[0][i] - time) < 1e-9)
            return i;
    return -1;
}

/* The value of column col at time `time` (a row must fall on it). */
static double at(const csv_table *t, const char *col, double time)
{
    int i = row_at(t, time);
    double *c = csv_col(t, col);
    return i >= 0 && c ? c[i] : NAN;
}

/* Energy dissipated per cycle: the work W = int F v dt done on the element
 * over the cycle [t0, t0 + T] (what `analysis hysteresis` will report). */
static double cycle_energy(const csv_table *t, double t0, double T)
{
    return at(t, "W", t0 + T) - at(t, "W", t0);
}

/* max |a[i] - b| over rows with t in [t0, t1] */
static double max_dev(const csv_table *t, const double *a, const double *b, double b0,
                      double t0, double t1)
{
    double m = 0;
    for (int i = 0; i < t->nrow; i++)
        if (t->col[0][i] >= t0 - 1e-12 && t->col[0][i] <= t1 + 1e-12)
            m = fmax(m, fabs(a[i] - (b ? b[i] : b0)));
    return m;
}

/* The loop's point symmetry F(t + T/2) = -F(t) (Masing, symmetric drive):
 * max |F(t + T/2) + F(t)| over the rows of the cycle [t0, t0 + T/2]. */
static double loop_asymmetry(const csv_table *t, double t0, double T)
{
    double *F = csv_col(t, "F"), m = 0;
    for (int i = 0; i < t->nrow; i++) {
        double ti = t->col[0][i];
        int k = ti >= t0 - 1e-12 && ti <= t0 + T / 2 + 1e-12 ? row_at(t, ti + T / 2) : -1;
        if (k >= 0)
            m = fmax(m, fabs(F[k] + F[i]));
    }
    return m;
}

/* Jenkins element: energy per cycle 4 F_s (u0 - F_s/k) for u0 > F_s/k (the
 * area of the parallelogram loop), exactly 0 in stick. */
static void test_jenkins(void)
{
    jnt_model *m = compile_drive("jenkins", "friction j between d.x and ground {\n"
                                            "  law = jenkins(k = 1e6 N/m, F_s = 10 N) }",
                                 ", sp = j.sp");
    csv_table t;
    if (!m)
        return;
    const char *slip[] = {"u0=50um", NULL};
    if (run_load(m, slip, NULL, "hy_jenkins.csv", &t) == 0) {
        double D = 4 * 10 * (50e-6 - 10 / 1e6);
        /* rk4 integrates W to O(h^2) over the steps where F has a kink */
        MEASURE("jenkins.energy", cycle_energy(&t, 1, 1));
        CHECK_REL(cycle_energy(&t, 1, 1), D, 1e-5,
                  "jenkins: loop energy 4 F_s (u0 - F_s/k), u0 = 5 F_s/k (rk4 h = T/1000)");
        CHECK_REL(cycle_energy(&t, 2, 1), D, 1e-5, "jenkins: the same in the next cycle");
        CHECK(fabs(at(&t, "F", 3) - at(&t, "F", 2)) < 1e-9 &&
                  fabs(at(&t, "sp", 3) - at(&t, "sp", 2)) < 1e-15,
              "jenkins: F and sp equal at the ends of cycles 2 and 3 (closed loop)");
        csv_free(&t);
    }
    const char *stick[] = {"u0=9um", NULL};
    if (run_load(m, stick, NULL, "hy_jenkins_stick.csv", &t) == 0) {
        double W = at(&t, "W", 3), E = 0.5 * 1e6 * 9e-6 * 9e-6;
        MEASURE("jenkins.stick_W", fabs(W));
        CHECK(fabs(W) < 1e-9 * E && max_dev(&t, csv_col(&t, "sp"), NULL, 0, 0, 3) == 0,
              "jenkins: stick (u0 < F_s/k): W over 3 cycles = %.3g J (< 1e-9 k u0^2/2), sp = 0", W);
        csv_free(&t);
    }
    jnt_model_free(m);
}

/* Seed 000 eq. 1: stick slope c1 + c2, slip slope c2, loop energy of its
 * Jenkins part 4 R_G A (u0 - R_G/c1), exactly zero dissipation in stick. */
static void test_coulomb3(void)
{
    const double c1 = 1e11, c2 = 1e10, A = 1e-4, RG = 0.3 * 1e6, u0 = 20e-6;
    jnt_model *m = compile_drive("coulomb3", "friction j between d.x and ground {\n"
                                             "  normal = 100 N  area = 1 cm^2\n"
                                             "  law = coulomb3(c1 = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3) }",
                                 ", sp = j.sp");
    csv_table t;
    if (!m)
        return;
    if (run_load(m, NULL, NULL, "hy_coulomb3.csv", &t) == 0) {
        /* after the reversal at t = 1.25 s it sticks for 2 R_G / c1 = 6 um;
         * on the loading branch it slips from s = -14 um (t = 0.88 s) */
        double k_st = (at(&t, "F", 1.27) - at(&t, "F", 1.25)) / (at(&t, "s", 1.27) - at(&t, "s", 1.25));
        double k_sl = (at(&t, "F", 1.2) - at(&t, "F", 1.0)) / (at(&t, "s", 1.2) - at(&t, "s", 1.0));
        MEASURE("coulomb3.stick_slope", k_st);
        MEASURE("coulomb3.slip_slope", k_sl);
        MEASURE("coulomb3.energy", cycle_energy(&t, 1, 1));
        MEASURE("coulomb3.energy_rel", cycle_energy(&t, 1, 1) / (4 * RG * A * (u0 - RG / c1)) - 1);
        CHECK_REL(k_st, (c1 + c2) * A, 1e-9, "coulomb3: stick slope (c1 + c2) area (seed 000 Fig. 1)");
        CHECK_REL(k_sl, c2 * A, 1e-9, "coulomb3: slip slope c2 area (seed 000 Fig. 1)");
        CHECK_REL(cycle_energy(&t, 1, 1), 4 * RG * A * (u0 - RG / c1), 1e-5,
                  "coulomb3: loop energy 4 R_G area (u0 - R_G/c1) (Jenkins part; c2 conservative)");
        csv_free(&t);
    }
    const char *stick[] = {"u0=2.9um", NULL};
    if (run_load(m, stick, NULL, "hy_coulomb3_stick.csv", &t) == 0) {
        double W = at(&t, "W", 3), E = 0.5 * (c1 + c2) * A * 2.9e-6 * 2.9e-6;
        MEASURE("coulomb3.stick_W", fabs(W));
        CHECK(fabs(W) < 1e-9 * E && max_dev(&t, csv_col(&t, "sp"), NULL, 0, 0, 3) == 0,
              "coulomb3: pure stick (u0 < R_G/c1) dissipates zero: W(3 T) = %.3g J "
              "(< 1e-9 of the elastic energy, seed 000 Sect. 5.2.6), sp = 0", W);
        csv_free(&t);
    }
    jnt_model_free(m);
}

/* Dahl, alpha = 1: d tau/ds = sigma0 (1 - tau sgn(v) / R_G) gives the
 * steady loop tip tau(u0) = R_G tanh(sigma0 u0 / R_G) and the loop energy
 * D = 4 R_G area (u0 - (R_G / sigma0) tanh(sigma0 u0 / R_G)) (integrating
 * the exponential branches); it dissipates at any amplitude (seed 000
 * Fig. 10b: D ~ (4/3) sigma0^2 u0^3 / R_G for small u0). */
static void test_dahl(void)
{
    const double s0 = 1e11, c2 = 1e10, A = 1e-4, RG = 0.3e6;
    jnt_model *m = compile_drive("dahl", "friction j between d.x and ground {\n"
                                         "  normal = 100 N  area = 1 cm^2\n"
                                         "  law = dahl(sigma0 = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3) }",
                                 ", w = j.w");
    csv_table t;
    if (!m)
        return;
    static const double amp[] = {20e-6, 1e-6};
    static const char *const defs[][3] = {{"u0=20um", "t_end=3", NULL}, {"u0=1um", "t_end=14", NULL}};
    for (int k = 0; k < 2; k++) {
        double u0 = amp[k], te = k ? 14 : 3, x = s0 * u0 / RG;
        if (run_load(m, defs[k], NULL, "hy_dahl.csv", &t) != 0)
            continue;
        double D = 4 * RG * A * (u0 - RG / s0 * tanh(x));
        MEASURE(k ? "dahl.u1.energy" : "dahl.u20.energy", cycle_energy(&t, te - 1, 1));
        MEASURE(k ? "dahl.u1.energy_exact" : "dahl.u20.energy_exact", D);
        MEASURE(k ? "dahl.u1.tip" : "dahl.u20.tip", at(&t, "F", te - 0.75));
        MEASURE(k ? "dahl.u1.tip_exact" : "dahl.u20.tip_exact", RG * A * tanh(x) + c2 * A * u0);
        CHECK_REL(cycle_energy(&t, te - 1, 1), D, 1e-5,
                  k ? "dahl: loop energy at u0 = R_G/(3 sigma0) (stick range: D > 0)"
                    : "dahl: loop energy 4 R_G A (u0 - R_G/sigma0 tanh(sigma0 u0/R_G)), u0 = 6.7 R_G/sigma0");
        CHECK_REL(at(&t, "F", te - 0.75), RG * A * tanh(x) + c2 * A * u0, 1e-5,
                  k ? "dahl: loop tip (R_G tanh(sigma0 u0/R_G) + c2 u0) area, small u0"
                    : "dahl: loop tip (R_G tanh(sigma0 u0/R_G) + c2 u0) area");
        csv_free(&t);
    }
    jnt_model_free(m);
}

/* Valanis (seed 001 eqs. 2.1-2.2): initial slope E0, slip asymptote
 * tau = Et s + R_G (slope Et; alpha0 = R_G E0 / (E0 - Et)), symmetric loop. */
static void test_valanis(void)
{
    const double E0 = 1.1e11, Et = 1e10, A = 1e-4, RG = 0.3e6;
    jnt_model *m = compile_drive("valanis", "friction j between d.x and ground {\n"
                                            "  normal = 100 N  area = 1 cm^2\n"
                                            "  law = valanis(E0 = 1.1e11 Pa/m, Et = 1e10 Pa/m, kappa = 0.5, mu = 0.3) }",
                                 ", w = j.w");
    csv_table t;
    if (!m)
        return;
    /* first row at t = 10 us: s = 1.3e-9 m, w = 5e-4: the secant slope is
     * E0 to O(b (1 - kappa) w) = 3e-4 */
    const char *init[] = {"dt_out=10us", "t_end=1ms", NULL};
    jnt_run_opts fine = {.h = 1e-5};
    if (run_load(m, init, &fine, "hy_valanis0.csv", &t) == 0) {
        MEASURE("valanis.initial_slope", at(&t, "F", 1e-5) / at(&t, "s", 1e-5));
        CHECK_REL(at(&t, "F", 1e-5) / at(&t, "s", 1e-5), E0 * A, 1e-3,
                  "valanis: initial slope E0 area (seed 001 eq. 2.1 at tau = 0; tol 1e-3)");
        csv_free(&t);
    }
    /* u0 = 60 R_G / (E0 - Et): at s = 190 um the transition (length 1.6 um) is over */
    const char *big[] = {"u0=200um", NULL};
    if (run_load(m, big, NULL, "hy_valanis.csv", &t) == 0) {
        double s1 = at(&t, "s", 0.2), s2 = at(&t, "s", 0.25);
        double F1 = at(&t, "F", 0.2), F2 = at(&t, "F", 0.25);
        MEASURE("valanis.asymptotic_slope", (F2 - F1) / (s2 - s1));
        MEASURE("valanis.asymptote", F2 - Et * A * s2);
        CHECK_REL((F2 - F1) / (s2 - s1), Et * A, 1e-6, "valanis: asymptotic slope Et area (tol 1e-6)");
        CHECK_REL(F2 - Et * A * s2, RG * A, 1e-6,
                  "valanis: slip asymptote tau = Et s + R_G, R_G = mu p (alpha0 = R_G E0/(E0 - Et))");
        double asym = loop_asymmetry(&t, 2, 1);
        CHECK(asym < 1e-6 * RG * A, "valanis: loop symmetry F(t + T/2) = -F(t): max dev %.3g N", asym);
        MEASURE("valanis.asymmetry", asym);
        csv_free(&t);
    }
    jnt_model_free(m);
}

/* Bouc-Wen with a parallel spring: z saturates at R_G = (A/(B+gamma))^(1/n)
 * (n = 2); for n = 1, beta = 1/2, the loading branch is linear (slope A)
 * for z < 0 and exponential for z > 0, giving the tip T R_G with
 * T = 1 - exp(T - 2 A u0 / R_G) and D = 2 area R_G (R_G L - R_G^2 T / A -
 * T^2 R_G^2 / (2 A)), L = 2 u0 - T R_G / A. */
static void test_bouc_wen(void)
{
    const double Ac = 1e11, A = 1e-4, RG = 0.3e6;
    jnt_model *m = compile_drive("bouc_wen", "param n = 1\n"
                                             "friction j between d.x and ground {\n"
                                             "  normal = 100 N  area = 1 cm^2\n"
                                             "  law = bouc_wen(A = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3, n = n) }",
                                 ", w = j.w");
    csv_table t;
    if (!m)
        return;
    static const double amp[] = {20e-6, 2e-6};
    static const char *const defs[][3] = {{"u0=20um", NULL}, {"u0=2um", "t_end=8", NULL}};
    for (int k = 0; k < 2; k++) {
        double u0 = amp[k], te = k ? 8 : 3, T = 0.5;
        for (int it = 0; it < 100; it++) /* Newton on g(T) = T - 1 + exp(T - 2 A u0 / R_G) */
            T -= (T - 1 + exp(T - 2 * Ac * u0 / RG)) / (1 + exp(T - 2 * Ac * u0 / RG));
        double L = 2 * u0 - T * RG / Ac;
        double D = 2 * A * (RG * L - RG * RG * T / Ac - T * T * RG * RG / (2 * Ac));
        if (run_load(m, defs[k], NULL, "hy_bw.csv", &t) != 0)
            continue;
        MEASURE(k ? "bouc_wen.u2.energy" : "bouc_wen.u20.energy", cycle_energy(&t, te - 1, 1));
        MEASURE(k ? "bouc_wen.u2.energy_exact" : "bouc_wen.u20.energy_exact", D);
        MEASURE(k ? "bouc_wen.u2.tip" : "bouc_wen.u20.tip", at(&t, "w", te - 0.75));
        MEASURE(k ? "bouc_wen.u2.tip_exact" : "bouc_wen.u20.tip_exact", T);
        CHECK_REL(cycle_energy(&t, te - 1, 1), D, 1e-5,
                  k ? "bouc_wen: n = 1 loop energy (closed form), u0 = 2 um (< 3 um = R_G/A)"
                    : "bouc_wen: n = 1 loop energy (closed form), u0 = 20 um");
        CHECK_REL(at(&t, "w", te - 0.75), T, 1e-5, "bouc_wen: n = 1 loop tip z / R_G = T");
        csv_free(&t);
    }
    const char *n2[] = {"n=2", NULL};
    if (run_load(m, n2, NULL, "hy_bw2.csv", &t) == 0) {
        double wmax = max_dev(&t, csv_col(&t, "w"), NULL, 0, 0, 3);
        MEASURE("bouc_wen.n2.tip", at(&t, "w", 2.25));
        MEASURE("bouc_wen.n2.w_max", wmax);
        CHECK(fabs(at(&t, "w", 2.25) - 1) < 1e-6 && wmax <= 1 + 1e-12,
              "bouc_wen: n = 2 saturation: z / R_G = %.9f at the tip, max |z| / R_G = %.12f "
              "(R_G = (A/(B + gamma))^(1/n) = mu p)", at(&t, "w", 2.25), wmax);
        double asym = loop_asymmetry(&t, 2, 1);
        CHECK(asym < 1e-6 * RG * A, "bouc_wen: loop symmetry F(t + T/2) = -F(t): max dev %.3g N", asym);
        MEASURE("bouc_wen.n2.asymmetry", asym);
        csv_free(&t);
    }
    jnt_model_free(m);
}

/* The discretisation error of stdlib's segalman (docs/laws.md's table): the
 * worst |D_n / D - 1| over 2000 amplitudes u0 / phi_max geometrically spaced
 * in [10 x_min, 1], D_n the discrete sum of the cells' Jenkins loops
 * 4 k_i phi_i (u0 - phi_i) (phi_i < u0) with the law's cells (geometric grid
 * x_i = r^(n-i), r = x_min^(1/(n-1)); stiffness and centroid of rho per
 * cell), D = 4 R u0^(chi+3) / ((chi+2)(chi+3)); in units K_T / (1 + beta) =
 * phi_max = 1, so R = chi + 1. */
static double segalman_grid_error(double chi, int n, double xmin)
{
    double r = pow(xmin, 1.0 / (n - 1)), k[1001], phi[1001], worst = 0;
    for (int i = 1; i <= n && n <= 1000; i++) {
        double a = pow(r, n - i), b = i == 1 ? 0 : pow(r, n - i + 1);
        k[i] = pow(a, chi + 1) - pow(b, chi + 1);
        phi[i] = (chi + 1) / (chi + 2) * (pow(a, chi + 2) - pow(b, chi + 2)) / k[i];
    }
    for (int j = 0; j < 2000; j++) {
        double u = 10 * xmin * pow(1 / (10 * xmin), j / 1999.0), dn = 0;
        for (int i = 1; i <= n; i++)
            if (phi[i] < u)
                dn += 4 * k[i] * phi[i] * (u - phi[i]);
        double d = 4 * (chi + 1) * pow(u, chi + 3) / ((chi + 2) * (chi + 3));
        worst = fmax(worst, fabs(dn / d - 1));
    }
    return worst;
}

static void test_segalman_grid(void)
{
    static const double chis[4] = {-0.9, -0.5, 0, 0.5};
    static const int ns[3] = {40, 30, 60};
    static const double xm[3] = {0.01, 0.01, 0.001};
    for (int c = 0; c < 4; c++)
        for (int g = 0; g < 3; g++) {
            double e = segalman_grid_error(chis[c], ns[g], xm[g]);
            char key[64];
            snprintf(key, sizeof key, "segalman.grid.chi%g.n%d", chis[c], ns[g]);
            MEASURE(key, 100 * e);
            if (g != 1 && chis[c] <= 0)
                CHECK(e < 0.01, "segalman: n = %d, x_min = %g, chi = %g: D within 1 %% of "
                      "Segalman's over u0 in [10 x_min, 1] phi_max (worst %.2f %%)", ns[g], xm[g],
                      chis[c], 100 * e);
        }
}

/* Segalman's four-parameter Iwan model, n = 40 cells, x_min = 0.01:
 * microslip dissipation D = 4 R u0^(chi+3) / ((chi+2)(chi+3)) within 1 %,
 * its log-log slope 3 + chi, stiffness K_T, macroslip force F_S, Masing. */
static void test_segalman(void)
{
    enum { n = 40 };
    const double FS = 10, KT = 1e6, chi = -0.5, beta = 0.2;
    const double c = (chi + 1) / (chi + 2), phimax = FS * (1 + beta) / (KT * (beta + c));
    const double R = (chi + 1) * KT / (1 + beta) / pow(phimax, chi + 1);
    char elem[4096];
    int len = snprintf(elem, sizeof elem,
                       "const n = %d\n"
                       "friction jj[i in 0..n] between d.x and ground {\n"
                       "  law = segalman(F_S = 10 N, K_T = 1e6 N/m, chi = -0.5, beta = 0.2, n = n, i = i) }\n"
                       "let F_total = ", n);
    for (int i = 0; i <= n; i++)
        len += snprintf(elem + len, sizeof elem - (size_t)len, "%sjj[%d].force", i ? " + " : "", i);
    snprintf(elem + len, sizeof elem - (size_t)len, "\n");
    char text[8192];
    snprintf(text, sizeof text,
             "import hysteresis\n"
             "param u0 = 5 um\n"
             "param T = 1 s\n"
             "body d : point(mass = 1 kg) { dof x }\n"
             "motion drive on d.x = u0 * sin(2 * pi * t / T)\n"
             "%s"
             "integral W = F_total * d.x.v\n"
             "simulate { integrator = rk4(h = 0.1 ms)  until = 2 * T }\n"
             "output \"-\" every 0.1 ms { t, s = d.x, F = F_total, W = W }\n",
             elem);
    jnt_model *m = NULL;
    CHECK(jnt_compile_string("segalman", text, NULL, &m) == JNT_OK, "segalman: compiles (%d elements)", n + 1);
    if (!m)
        return;
    /* D at microslip amplitudes u0 / phi_max = 0.1 .. 0.9 (10 x_min .. 1) */
    static const double xi[] = {0.1, 0.3, 0.9};
    double D[3];
    csv_table t;
    for (int k = 0; k < 3; k++) {
        char def[64];
        const char *defs[] = {def, NULL};
        double u0 = xi[k] * phimax;
        snprintf(def, sizeof def, "u0=%.17g", u0);
        D[k] = NAN;
        if (run_load(m, defs, NULL, "hy_segalman.csv", &t) != 0)
            continue;
        D[k] = cycle_energy(&t, 1, 1);
        double Dx = 4 * R * pow(u0, chi + 3) / ((chi + 2) * (chi + 3));
        {
            static const char *const key[][3] = {{"segalman.D1", "segalman.D1_exact", "segalman.D1_pct"},
                                                 {"segalman.D3", "segalman.D3_exact", "segalman.D3_pct"},
                                                 {"segalman.D9", "segalman.D9_exact", "segalman.D9_pct"}};
            MEASURE(key[k][0], D[k]);
            MEASURE(key[k][1], Dx);
            MEASURE(key[k][2], 100 * (D[k] / Dx - 1));
        }
        CHECK(fabs(D[k] / Dx - 1) <= 1e-2,
              "segalman: microslip D = 4 R u0^(chi+3)/((chi+2)(chi+3)) at u0 = %.1f phi_max: "
              "got %.6g J, want %.6g J (rel %.2g; Segalman 2005; 40 cells, tol 1 %%)", xi[k], D[k],
              Dx, D[k] / Dx - 1);
        if (k == 0) {
            /* all sliders stick on the first row: the slope is K_T */
            MEASURE("segalman.initial_stiffness", at(&t, "F", 1e-4) / at(&t, "s", 1e-4));
            CHECK_REL(at(&t, "F", 1e-4) / at(&t, "s", 1e-4), KT, 1e-9,
                      "segalman: initial stiffness K_T (cell masses sum to K_T / (1 + beta), plus S)");
        }
        if (k == 2) {
            /* Masing: the descending branch from (u0, F0) is
             * F0 - 2 f((u0 - s)/2), f the virgin curve (t in [0, T/4]) */
            double *s = csv_col(&t, "s"), *F = csv_col(&t, "F"), F0 = at(&t, "F", 0.25), dev = 0;
            int i0 = row_at(&t, 0.25);
            for (int i = i0; i >= 0 && t.col[0][i] <= 0.75 + 1e-12; i += 50) {
                double x = (u0 - s[i]) / 2, f = NAN;
                for (int r = 1; r <= i0; r++)
                    if (s[r] >= x) {
                        f = F[r - 1] + (F[r] - F[r - 1]) * (x - s[r - 1]) / (s[r] - s[r - 1]);
                        break;
                    }
                dev = fmax(dev, fabs(F[i] - (F0 - 2 * f)));
            }
            MEASURE("segalman.masing_dev", dev);
            CHECK(dev < 1e-4 * F0, "segalman: Masing rule F = F(u0) - 2 f((u0 - s)/2) on the "
                                   "descending branch: max dev %.3g N (tol 1e-4 F(u0))", dev);
        }
        csv_free(&t);
    }
    double slope = log(D[2] / D[0]) / log(xi[2] / xi[0]);
    MEASURE("segalman.slope", slope);
    CHECK_NEAR(slope, 3 + chi, 0.01, "segalman: log-log slope of D(u0) = 3 + chi (u0 = 0.1 .. 0.9 phi_max)");
    /* macroslip: beyond phi_max every slider slips, F = F_S */
    char def[64];
    const char *defs[] = {def, NULL};
    snprintf(def, sizeof def, "u0=%.17g", 1.5 * phimax);
    if (run_load(m, defs, NULL, "hy_segalman_macro.csv", &t) == 0) {
        MEASURE("segalman.macroslip", at(&t, "F", 0.25));
        CHECK_REL(at(&t, "F", 0.25), FS, 1e-9, "segalman: macroslip force F_S at u0 = 1.5 phi_max");
        csv_free(&t);
    }
    jnt_model_free(m);
}

/* Viscous joint models (seed 000 Fig. 9) under s = u0 sin(w t): energy per
 * cycle pi u0^2 K'', with K'' = w d (Kelvin-Voigt) and
 * K'' = k^2 w d / (k^2 + w^2 d^2) (Maxwell; Zener, whose parallel spring
 * stores only); frequency dependent, unlike dry friction. */
static void test_viscous(void)
{
    const double w = 2 * PI, u0 = 1e-3, k = 1e4, dmp = 1e4 / (2 * PI);
    static const char *const elems[] = {
        "spring j between d.x and ground { law = kelvin_voigt(k = 1e4 N/m, d = 1591.5494309189535 N*s/m) }",
        "spring j between d.x and ground { law = maxwell(k = 1e4 N/m, d = 1591.5494309189535 N*s/m) }",
        "spring j between d.x and ground { law = zener(c1 = 1e4 N/m, c2 = 3e3 N/m, d = 1591.5494309189535 N*s/m) }",
    };
    static const char *const names[] = {"kelvin_voigt", "maxwell", "zener"};
    const char *defs[] = {"u0=1mm", "t_end=6", NULL};
    for (int i = 0; i < 3; i++) {
        jnt_model *m = compile_drive(names[i], elems[i], "");
        csv_table t;
        if (!m)
            continue;
        double Kpp = i == 0 ? w * dmp : k * k * w * dmp / (k * k + w * w * dmp * dmp);
        /* Maxwell's transient decays as exp(-t k / d): 1e-16 after 6 s */
        if (run_load(m, defs, NULL, "hy_viscous.csv", &t) == 0) {
            char name[160];
            snprintf(name, sizeof name, "%s: energy per cycle pi u0^2 K''(w) (tol 1e-6)", names[i]);
            CHECK_REL(cycle_energy(&t, 5, 1), PI * u0 * u0 * Kpp, 1e-6, name);
            snprintf(name, sizeof name, "viscous.%s.energy", names[i]);
            MEASURE(name, cycle_energy(&t, 5, 1));
            csv_free(&t);
        }
        jnt_model_free(m);
    }
}

/* LuGre (stdlib/friction.jnt) in steady sliding s = V t: z = g(V) / sigma0,
 * F = (g(V) + sigma2 V) N (seed 001 eqs. 22-24); force form:
 * F = F_C + (F_S - F_C) exp(-(V/V_S)^2) + sigma2 V. */
static void test_lugre(void)
{
    static const char *const fmt =
        "import friction\n"
        "param V = 1 mm/s\n"
        "body d : point(mass = 1 kg) { dof x }\n"
        "motion drive on d.x = V * t\n"
        "friction j between d.x and ground { %s }\n"
        "simulate { integrator = rk4(h = 0.1 ms)  until = 3 s }\n"
        "output \"-\" every 10 ms { t, F = j.force, z = j.z }\n";
    static const char *const elems[] = {
        "normal = 10 N  law = lugre(sigma0 = 1e4 /m, sigma1 = 30 s/m, sigma2 = 0.01 s/m, "
        "mu_s = 0.6, mu_k = 0.4, v_s = 1 mm/s)",
        "law = lugre_force(sigma0 = 1e5 N/m, sigma1 = 316 N*s/m, sigma2 = 0.4 N*s/m, "
        "F_C = 4 N, F_S = 6 N, V_S = 1 mm/s)",
        "normal = 0 N  law = lugre(sigma0 = 1e4 /m, sigma1 = 30 s/m, sigma2 = 0.01 s/m, "
        "mu_s = 0.6, mu_k = 0.4, v_s = 1 mm/s)",
    };
    for (int e = 0; e < 3; e++) {
        char text[2048];
        jnt_model *m = NULL;
        snprintf(text, sizeof text, fmt, elems[e]);
        CHECK(jnt_compile_string("lugre", text, NULL, &m) == JNT_OK, "lugre: compiles (%d)", e);
        if (!m)
            continue;
        static const char *const vs[] = {"V=1mm/s", "V=3mm/s"};
        for (int k = 0; k < (e == 2 ? 1 : 2); k++) {
            const char *defs[] = {vs[k], NULL};
            double V = k ? 3e-3 : 1e-3, want;
            csv_table t;
            if (run_load(m, defs, NULL, "hy_lugre.csv", &t) != 0)
                continue;
            if (e == 0)
                want = (0.4 + 0.2 * exp(-(V / 1e-3) * (V / 1e-3)) + 0.01 * V) * 10;
            else if (e == 1)
                want = 4 + 2 * exp(-(V / 1e-3) * (V / 1e-3)) + 0.4 * V;
            else
                want = 0;
            if (e < 2) {
                static const char *const key[2][2] = {{"lugre.steady.V1", "lugre.steady.V3"},
                                                      {"lugre_force.steady.V1", "lugre_force.steady.V3"}};
                MEASURE(key[e][k], at(&t, "F", 3));
            }
            if (e < 2)
                CHECK_REL(at(&t, "F", 3), want, 1e-9,
                          e ? "lugre_force: steady sliding F_C + (F_S - F_C) exp(-(V/V_S)^2) + sigma2 V"
                            : "lugre: steady sliding (g(V) + sigma2 V) N (seed 001 eqs. 22-24)");
            else /* gaping: no force and the bristle frozen at its initial 0 */
                CHECK(at(&t, "F", 3) == 0 && at(&t, "z", 3) == 0,
                      "lugre with N = 0: force %g N, z(3 s) = %g m (frozen in gaping)",
                      at(&t, "F", 3), at(&t, "z", 3));
            csv_free(&t);
        }
        jnt_model_free(m);
    }
}

/* Gaping: with the normal force 0 for 1.1 s < t < 2.3 s, every friction
 * part is exactly 0 (the force is the parallel spring's) and every state
 * is frozen. */
static void test_gaping(void)
{
    static const struct {
        const char *name, *law, *state;
        double c2; /* the parallel spring, N/m */
    } laws[] = {
        {"coulomb3", "coulomb3(c1 = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3)", "sp", 1e6},
        {"dahl", "dahl(sigma0 = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3)", "w", 1e6},
        {"valanis", "valanis(E0 = 1.1e11 Pa/m, Et = 1e10 Pa/m, kappa = 0.5, mu = 0.3)", "w", 1e6},
        {"bouc_wen", "bouc_wen(A = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3, n = 2)", "w", 1e6},
        {"jenkins", "jenkins(k = 1e7 N/m, F_s = 0.3 * N_j)", "sp", 0},
    };
    for (size_t i = 0; i < sizeof laws / sizeof *laws; i++) {
        char elem[512], cols[64], name[64];
        snprintf(elem, sizeof elem,
                 "let N_j = if t > 1.1 s and t < 2.3 s then 0 else 100 N\n"
                 "friction j between d.x and ground {\n"
                 "  normal = N_j  area = 1 cm^2  law = %s }", laws[i].law);
        snprintf(cols, sizeof cols, ", z = j.%s", laws[i].state);
        snprintf(name, sizeof name, "gaping %s", laws[i].name);
        jnt_model *m = compile_drive(name, elem, cols);
        csv_table t;
        if (!m)
            continue;
        if (run_load(m, NULL, NULL, "hy_gaping.csv", &t) == 0) {
            double *s = csv_col(&t, "s"), *F = csv_col(&t, "F"), *z = csv_col(&t, "z");
            double fdev = 0;
            for (int r = 0; r < t.nrow; r++)
                if (t.col[0][r] > 1.101 && t.col[0][r] < 2.299)
                    fdev = fmax(fdev, fabs(F[r] - laws[i].c2 * s[r]));
            double zdev = max_dev(&t, z, NULL, at(&t, "z", 1.102), 1.102, 2.299);
            CHECK(fdev <= 1e-12 && zdev == 0,
                  "%s: gaping (N = 0): |F - c2 s area| = %.3g N, state %s frozen (max change %.3g)",
                  laws[i].name, fdev, laws[i].state, zdev);
            double Fend = at(&t, "F", 3);
            char key[80];
            snprintf(key, sizeof key, "gaping.%s.F_end", laws[i].name);
            MEASURE(key, Fend);
            snprintf(key, sizeof key, "gaping.%s.F_dev", laws[i].name);
            MEASURE(key, fdev);
            CHECK(isfinite(Fend) && fabs(Fend) < 100,
                  "%s: runs on after contact closes again (F(3 s) = %.4g N)", laws[i].name, Fend);
            csv_free(&t);
        }
        /* docs/laws.md: under bdf a frozen state drifts (CVODE's polynomial
         * carries the slope it had before the gap); the force stays exact */
        jnt_run_opts bdf = {.integrator = "bdf", .rtol = 1e-8, .atol = 1e-10};
        if (laws[i].c2 > 0 && run_load(m, NULL, &bdf, "hy_gaping_drift.csv", &t) == 0) {
            double *s = csv_col(&t, "s"), *F = csv_col(&t, "F"), *z = csv_col(&t, "z");
            double fdev = 0;
            for (int r = 0; r < t.nrow; r++)
                if (t.col[0][r] > 1.101 && t.col[0][r] < 2.299)
                    fdev = fmax(fdev, fabs(F[r] - laws[i].c2 * s[r]));
            double zdev = max_dev(&t, z, NULL, at(&t, "z", 1.102), 1.102, 2.299);
            char key[80];
            snprintf(key, sizeof key, "gaping_bdf.%s.state_drift", laws[i].name);
            MEASURE(key, zdev);
            snprintf(key, sizeof key, "gaping_bdf.%s.F_dev", laws[i].name);
            MEASURE(key, fdev);
            csv_free(&t);
        }
        jnt_model_free(m);
    }

    /* Seed 000 Table 4, the gaping case: R_G = max(R_G0/2 cos(3 pi t / 2), 0)
     * (here through p), so the limit goes to 0 continuously and the state
     * equations of the smooth laws stiffen as sigma0 |v| / R_G: BDF. Their
     * friction part R_G w stays within the limit R_G. */
    for (size_t i = 1; i < 4; i++) {
        char elem[512], name[64];
        snprintf(elem, sizeof elem,
                 "friction j between d.x and ground {\n"
                 "  normal = max(50 N * cos(1.5 * pi * t / 1 s), 0)  area = 1 cm^2\n"
                 "  law = %s }", laws[i].law);
        snprintf(name, sizeof name, "smooth gaping %s", laws[i].name);
        jnt_model *m = compile_drive(name, elem, ", N = j.N, z = j.w");
        csv_table t;
        jnt_run_opts bdf = {.integrator = "bdf", .rtol = 1e-8, .atol = 1e-10};
        if (!m)
            continue;
        if (run_load(m, NULL, &bdf, "hy_gaping_bdf.csv", &t) == 0) {
            double *s = csv_col(&t, "s"), *F = csv_col(&t, "F"), *N = csv_col(&t, "N");
            double over = 0;
            for (int r = 0; r < t.nrow; r++)
                over = fmax(over, fabs(F[r] - laws[i].c2 * s[r]) - 0.3 * N[r]);
            CHECK(over <= 1e-6 * 15, "%s: N = max(N0/2 cos(3 pi t/2), 0) (seed 000 Table 4), BDF: "
                                     "|F - c2 s area| <= mu N at every row (excess %.3g N)",
                  laws[i].name, over);
            char key[80];
            snprintf(key, sizeof key, "smooth_gaping.%s.excess", laws[i].name);
            MEASURE(key, over);
            csv_free(&t);
        }
        jnt_model_free(m);
    }
}

/* ---- Jacobian on a grid of states --------------------------------------- */

/* The Jacobian of the model's right-hand side at (t = 0, y, d, p) against
 * differences with steps h[j]. Where the forward and backward differences
 * agree, the central one (at h/2) must match, rel 1e-6 above rounding and
 * the truncation error (estimated from the central difference at h). Where
 * they differ (a switching point: stick/slip, v = 0, w = 0) the function
 * has no derivative, and the analytic entry must lie between the two
 * one-sided derivatives (an element of the generalised gradient), rel 1e-4.
 * Counts into ok, bad and kinks. */
static void jac_point(const jnt_abi_model *a, jnt_data *d, const double *h, int *ok, int *bad,
                      int *kinks, const char *name)
{
    int n = a->ny;
    double dense[256] = {0}, y[16], f0[16], fp[16], fm[16], fp2[16], fm2[16];
    if (n > 16 || a->jac_nnz > 256)
        return;
    jnt_eval_jacobian(d->m, d, 0, d->y, dense);
    jnt_eval_rhs(d->m, d, 0, d->y, f0);
    for (int j = 0; j < n; j++) {
        memcpy(y, d->y, (size_t)n * sizeof *y);
        y[j] = d->y[j] + h[j];
        jnt_eval_rhs(d->m, d, 0, y, fp);
        y[j] = d->y[j] - h[j];
        jnt_eval_rhs(d->m, d, 0, y, fm);
        y[j] = d->y[j] + h[j] / 2;
        jnt_eval_rhs(d->m, d, 0, y, fp2);
        y[j] = d->y[j] - h[j] / 2;
        jnt_eval_rhs(d->m, d, 0, y, fm2);
        for (int i = 0; i < n; i++) {
            double df = (fp[i] - f0[i]) / h[j], db = (f0[i] - fm[i]) / h[j], an = dense[j * n + i];
            double c2 = (fp2[i] - fm2[i]) / h[j], trunc = fabs((df + db) / 2 - c2);
            /* rounding in the terms of f_i, amplified by 1/h (as test_gen.c) */
            double terms = fabs(f0[i]) + fabs(fp[i]) + fabs(fm[i]);
            for (int k = 0; k < n; k++)
                terms += fabs(dense[k * n + i] * d->y[k]);
            double noise = 1e2 * DBL_EPSILON * terms / h[j];
            double scale = fmax(fmax(fabs(df), fabs(db)), fmax(fabs(an), 1e-6));
            int kink = fabs(df - db) > 1e-4 * scale + 4 * noise, good;
            if (kink)
                good = an >= fmin(df, db) - 1e-4 * scale - noise &&
                       an <= fmax(df, db) + 1e-4 * scale + noise;
            else
                good = fabs(an - c2) <= 1e-6 * scale + 2 * noise + 2 * trunc;
            *kinks += kink;
            if (good) {
                (*ok)++;
            } else if (++*bad <= 5) {
                printf("INFO: %s: y = (%g, %g, %g): dF%d/dy%d analytic %.10g, one-sided %.10g, "
                       "%.10g\n", name, d->y[0], d->y[1], n > 2 ? d->y[2] : 0, i, j, an, df, db);
            }
        }
    }
}

/* One law on a mass tied to ground: the grid is every combination of the
 * initial values x0 (m), v0 (m/s), z0 (the law's state `zname`) and the
 * normal force N0 (N), set as parameters. */
static void jac_grid(const char *name, const char *law, const char *zname, const char *zunit,
                     const double *xs, int nx, const double *vs, int nv, const double *zs, int nz,
                     const double *Ns, int nN)
{
    char text[2048];
    snprintf(text, sizeof text,
             "import hysteresis\n"
             "param x0 = 0 m\nparam v0 = 0 m/s\nparam z0 = 0%s\nparam N0 = 100 N\n"
             "body b : point(mass = 1 kg) { dof x }\n"
             "spring k between b.x and ground { stiffness = 100 N/m }\n"
             "friction fr between b.x and ground { normal = N0  area = 1 cm^2  law = %s }\n"
             "init b.x = x0\ninit b.x.v = v0\ninit fr.%s = z0\n"
             "simulate { integrator = bdf  until = 1 s }\n",
             zunit, law, zname);
    jnt_model *m = NULL;
    CHECK(jnt_compile_string(name, text, NULL, &m) == JNT_OK, "jacobian grid %s: compiles", name);
    if (!m)
        return;
    const jnt_abi_model *a = jnt_model_abi(m);
    jnt_data *d = jnt_data_new(m);
    int ok = 0, bad = 0, kinks = 0, pts = 0;
    double h[16];
    for (int ix = 0; ix < nx; ix++)
        for (int iv = 0; iv < nv; iv++)
            for (int iz = 0; iz < nz; iz++)
                for (int iN = 0; iN < nN; iN++) {
                    jnt_set_param(m, d, "x0", xs[ix]);
                    jnt_set_param(m, d, "v0", vs[iv]);
                    jnt_set_param(m, d, "z0", zs[iz]);
                    jnt_set_param(m, d, "N0", Ns[iN]);
                    if (jnt_init_state(m, d) != JNT_OK)
                        continue;
                    /* steps far below the grid's distances to the switching points */
                    for (int j = 0; j < a->ny && j < 16; j++)
                        h[j] = j == 0 ? 1e-13 : j == 1 ? 1e-10 : 1e-9;
                    jac_point(a, d, h, &ok, &bad, &kinks, name);
                    pts++;
                }
    CHECK(bad == 0 && ok > 0,
          "%s: Jacobian = finite differences on a grid of %d states: %d entries agree, %d at "
          "switching points (one-sided), %d differ", name, pts, ok, kinks, bad);
    char key[96];
    int kl = snprintf(key, sizeof key, "jacobian.%s", name);
    for (int j = 0; j < kl && key[j]; j++)
        if (key[j] == ' ')
            key[j] = '_';
    snprintf(key + kl, sizeof key - (size_t)kl, ".states");
    MEASURE(key, pts);
    snprintf(key + kl, sizeof key - (size_t)kl, ".entries");
    MEASURE(key, ok);
    snprintf(key + kl, sizeof key - (size_t)kl, ".kinks");
    MEASURE(key, kinks);
    jnt_data_free(d);
    jnt_model_free(m);
}

/* The grids: the stick limits (3 um for the seed-000 laws: R_G / c1 with
 * R_G = 0.3 MPa, c1 = 1e11 Pa/m; 10 um for Jenkins; 0.585 um for Segalman's
 * element 2 of 4), exactly and 15 nm to 0.1 um either side, v = 0 and both signs, w at -1, 0, 1 (saturation) and
 * between, and N = 0 (gaping), small and nominal. */
static void test_jacobians(void)
{
    static const double xs[] = {-20e-6, -3.1e-6, -3e-6, -2.9e-6, 0, 1e-6, 2.9e-6, 3e-6, 3.1e-6, 20e-6};
    static const double xj[] = {-30e-6, -10.1e-6, -10e-6, -9.9e-6, 0, 9.9e-6, 10e-6, 10.1e-6, 30e-6};
    static const double vs[] = {-1e-3, 0, 1e-3};
    static const double ws[] = {-1, -0.999, -0.5, 0, 0.3, 0.999, 1};
    static const double sps[] = {-2e-6, 0, 5e-6};
    static const double xg[] = {-30e-6, -0.6e-6, -0.57e-6, 0, 0.57e-6, 0.6e-6, 30e-6};
    static const double Ns[] = {0, 1e-3, 100};
    static const double one[] = {0};
    jac_grid("coulomb3", "coulomb3(c1 = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3)", "sp", " m", xs, 10,
             vs, 3, sps, 3, Ns, 3);
    jac_grid("jenkins", "jenkins(k = 1e6 N/m, F_s = 10 N)", "sp", " m", xj, 9, vs, 3, sps, 3, one, 1);
    jac_grid("dahl", "dahl(sigma0 = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3)", "w", "", xs, 10, vs, 3,
             ws, 7, Ns, 3);
    jac_grid("dahl alpha 2", "dahl(sigma0 = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3, alpha = 2)", "w", "",
             xs, 10, vs, 3, ws, 7, Ns, 3);
    jac_grid("valanis", "valanis(E0 = 1.1e11 Pa/m, Et = 1e10 Pa/m, kappa = 0.5, mu = 0.3)", "w", "",
             xs, 10, vs, 3, ws, 7, Ns, 3);
    jac_grid("bouc_wen n 1", "bouc_wen(A = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3)", "w", "", xs, 10,
             vs, 3, ws, 7, Ns, 3);
    jac_grid("bouc_wen n 2", "bouc_wen(A = 1e11 Pa/m, c2 = 1e10 Pa/m, mu = 0.3, n = 2, beta = 0.3)",
             "w", "", xs, 10, vs, 3, ws, 7, Ns, 3);
    jac_grid("segalman", "segalman(F_S = 10 N, K_T = 1e6 N/m, chi = -0.5, beta = 0.2, n = 4, i = 2)",
             "sp", " m", xg, 7, vs, 3, sps, 3, one, 1);
}

int main(void)
{
    test_jacobians();
    test_jenkins();
    test_coulomb3();
    test_dahl();
    test_valanis();
    test_bouc_wen();
    test_segalman();
    test_segalman_grid();
    test_viscous();
    test_lugre();
    test_gaping();
    return check_done();
}
