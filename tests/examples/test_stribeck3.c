/*
 * test_stribeck3.c: examples/stribeck_3dof.jnt against seed 001 (Do and
 * Ferri), example E4 (part D; thesis Ch. 3; digest E4): the natural
 * frequencies of Table 3.2, the free response of Fig. 3.6 (N = 40 N, r = 1),
 * the energy balance of eqs. 3.13-3.16, and the energy dissipated by 15.1 s
 * at r = 1.1 (Sect. 3.5, Table 3.3); an implementation of E4 that does not
 * use jnt (direct_last_slip) as a cross-check; the last slip near r = 1 and
 * with Table 3.1's k4. docs/laws.md explains the choices.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

static const char *model_path = "examples/stribeck_3dof.jnt";

/* Table 3.1: stick band and static friction coefficient; v1(0) = 2 m/s on
 * m1 = 100 kg gives the initial energy */
static const double v_s = 1e-3, mu_star = 0.5, E0 = 200;


static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Natural frequencies (rad/s) at the initial state of d: the positive
 * imaginary parts of the Jacobian's eigenvalues, ascending. Returns how many
 * (at most max), or -1 on error. */
static int freqs(const jnt_model *m, jnt_data *d, double *w, int max)
{
    int ny = jnt_model_abi(m)->ny, n = -1;
    double *re = malloc((size_t)ny * sizeof *re), *im = malloc((size_t)ny * sizeof *im);
    if (re && im && jnt_init_state(m, d) == JNT_OK && jnt_eigenvalues(m, d, re, im) == JNT_OK) {
        n = 0;
        for (int i = 0; i < ny; i++)
            if (im[i] > 1e-3 && n < max)
                w[n++] = im[i];
        qsort(w, (size_t)n, sizeof *w, cmp_double);
    }
    free(re);
    free(im);
    return n;
}

/* The frictionless, undamped chain with the masses and stiffnesses that the
 * example computes for the parameters held by d (k4 from r, eq. 3.11): the
 * linear system of Table 3.2. NULL if it does not compile. */
static jnt_model *linear_model(const jnt_model *mod, jnt_data *d)
{
    static const char *names[7] = {"m1", "m2", "m3", "k1", "k2", "k3", "k4"};
    double v[7];
    jnt_init_state(mod, d);
    for (int i = 0; i < 7; i++)
        v[i] = jnt_get_param(mod, d, jnt_param_index(mod, names[i]));
    char src[1024];
    snprintf(src, sizeof src,
             "model stribeck_3dof_linear\n"
             "body b1 : point(mass = %.17g kg) { dof x }\n"
             "body b2 : point(mass = %.17g kg) { dof x }\n"
             "body b3 : point(mass = %.17g kg) { dof x }\n"
             "spring k_1 between b1 and ground { stiffness = %.17g N/m }\n"
             "spring k_2 between b2 and b1 { stiffness = %.17g N/m }\n"
             "spring k_3 between b3 and b2 { stiffness = %.17g N/m }\n"
             "spring k_4 between b3 and ground { stiffness = %.17g N/m }\n"
             "simulate { until = 1 s }\n",
             v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    jnt_model *lin = NULL;
    if (jnt_compile_string("stribeck_3dof_linear", src, NULL, &lin) != JNT_OK)
        return NULL;
    return lin;
}

/* Last time mass 2 slips, |v2| > v_s (the output is every 1 ms); the number
 * of slip phases goes to *nphase. -1 when it never slips. */
static double last_slip(const csv_table *t, int *nphase)
{
    double *tt = t->col[0], *v2 = csv_col(t, "v2"), last = -1;
    int n = 0;
    for (int i = 0; i < t->nrow; i++)
        if (fabs(v2[i]) > v_s) {
            if (i == 0 || fabs(v2[i - 1]) <= v_s)
                n++;
            last = tt[i];
        }
    *nphase = n;
    return last;
}

/* An implementation of E4 that does not go through jnt, as a cross-check of
 * the compiled model (its F_eq, its element signs, its parameters): eqs.
 * 3.3-3.4 written out for the chain ground-k1-m1-k2-m2-k3-m3-k4-ground with
 * the dampers of eq. 3.9 as the example reads them (c3 = 2 zeta3 omega2 m2,
 * c4 = 2 zeta4 omega3 m3: docs/sweeps.md derives them from Table 3.3), k4 from
 * eq. 3.11 (or the given k4 if k4 > 0), v1(0) = 2 m/s, N = 40 N; friction by
 * the flow chart of Fig. 3.3: |v2| <= v_s and |F_eq| <= mu* N: F = F_eq (eq.
 * 3.7); |v2| <= v_s and |F_eq| > mu* N: F = mu* N sign(F_eq); else eqs.
 * 3.1-3.2. Fixed-step RK4 with step h (1 ms / h an integer), the friction
 * evaluated at every stage. Returns the last time on the 1 ms grid at which
 * |v2| > v_s, and the number of slip phases in *nphase, as last_slip. */
static double direct_last_slip(double r, double m3, double k4, double h, int *nphase)
{
    const double m1 = 100, m2 = 0.25, k1 = 1000, k2 = 100, k3 = 100, N = 40;
    const double gam = 0.3, beta = 20, t_end = 30;
    if (k4 <= 0)
        k4 = (m3 / m1) * r * r * (k1 + k2) - k3;
    double w1 = sqrt((k1 + k2) / m1), w2 = sqrt((k2 + k3) / m2), w3 = sqrt((k3 + k4) / m3);
    double c1 = 2 * 0.01 * w1 * m1, c2 = 2 * 0.01 * w2 * m2, c3 = 2 * 0.05 * w2 * m2,
           c4 = 2 * 0.01 * w3 * m3;
    double y[6] = {0, 0, 0, 2, 0, 0}, k[4][6], yt[6], last = -1;
    long nstep = lround(t_end / h), every = lround(1e-3 / h);
    int n = 0, slip = 0;
    for (long i = 0; i < nstep; i++) {
        for (int s = 0; s < 4; s++) {
            static const double a[4] = {0, 0.5, 0.5, 1};
            for (int j = 0; j < 6; j++)
                yt[j] = y[j] + (s ? a[s] * h * k[s - 1][j] : 0);
            double x1 = yt[0], x2 = yt[1], x3 = yt[2], v1 = yt[3], v2 = yt[4], v3 = yt[5];
            /* F_eq = m2 [T]([A]{y}): every force on mass 2 but friction */
            double Feq = k2 * (x1 - x2) + k3 * (x3 - x2) + c2 * (v1 - v2) + c3 * (v3 - v2), F;
            if (fabs(v2) <= v_s)
                F = fabs(Feq) <= mu_star * N ? Feq : mu_star * N * (Feq > 0 ? 1 : -1);
            else
                F = (mu_star + gam * (exp(-beta * fabs(v2)) - 1)) * N * (v2 > 0 ? 1 : -1);
            k[s][0] = v1;
            k[s][1] = v2;
            k[s][2] = v3;
            k[s][3] = (-k1 * x1 - k2 * (x1 - x2) - c1 * v1 - c2 * (v1 - v2)) / m1;
            k[s][4] = (Feq - F) / m2;
            k[s][5] = (-k3 * (x3 - x2) - k4 * x3 - c3 * (v3 - v2) - c4 * v3) / m3;
        }
        for (int j = 0; j < 6; j++)
            y[j] += h / 6 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
        if ((i + 1) % every == 0) {
            int sl = fabs(y[4]) > v_s;
            if (sl && !slip)
                n++;
            if (sl)
                last = (i + 1) * h;
            slip = sl;
        }
    }
    *nphase = n;
    return last;
}

/* Largest |E + W_d + W_fr - E0| / E0 over the rows (eqs. 3.14-3.15). */
static double balance_error(const csv_table *t)
{
    double *eb = csv_col(t, "E_bal"), e = 0;
    for (int i = 0; i < t->nrow; i++)
        e = fmax(e, fabs(eb[i] - E0) / E0);
    return e;
}

/* Table 3.2 and the stick-branch frequencies, for r = 1..4. */
static void check_frequencies(const jnt_model *mod)
{
    static const double table32[4][3] = {
        {3.08, 3.32, 28.3}, {3.24, 6.55, 28.3}, {3.24, 9.89, 28.3}, {3.24, 13.2, 28.3}};
    static const char *undamped[] = {"zeta1=0", "zeta2=0", "zeta3=0", "zeta4=0"};
    double t32dev = 0, exdev = 0; /* docs/laws.md: the largest relative differences */
    for (int r = 1; r <= 4; r++) {
        char rdef[32], name[128];
        snprintf(rdef, sizeof rdef, "r=%d", r);

        /* the linear system of Table 3.2: the chain without friction and
         * dampers, built from the example's own parameter values */
        jnt_data *d = jnt_data_new(mod);
        jnt_set_param_text(mod, d, rdef);
        jnt_model *lin = linear_model(mod, d);
        jnt_data_free(d);
        CHECK(lin != NULL, "r = %d: the frictionless chain compiles", r);
        if (!lin)
            continue;
        double w[3], wx[3], ws[3];
        jnt_data *dl = jnt_data_new(lin);
        int n = freqs(lin, dl, w, 3);
        jnt_data_free(dl);
        jnt_model_free(lin);
        CHECK(n == 3, "r = %d: three undamped modes (%d)", r, n);
        if (n != 3)
            continue;
        for (int k = 0; k < 3; k++) {
            snprintf(name, sizeof name, "r = %d, mode %d (seed 001 Table 3.2, rad/s)", r, k + 1);
            CHECK_REL(w[k], table32[r - 1][k], 0.01, name);
            snprintf(name, sizeof name, "stribeck3.table32.r%d.mode%d", r, k + 1);
            MEASURE(name, w[k]);
            t32dev = fmax(t32dev, fabs(w[k] / table32[r - 1][k] - 1));
        }

        /* the example itself with N = 0, zeta_i = 0 and v2(0) = 2 mm/s > v_s:
         * the law is in its slip branch, where F = mu N sign(v) = 0, so its
         * Jacobian is the frictionless one. (At v2 = 0 it is in the stick
         * branch F = F_eq, which holds mass 2: see below.) */
        d = jnt_data_new(mod);
        jnt_set_param_text(mod, d, rdef);
        for (int i = 0; i < 4; i++)
            jnt_set_param_text(mod, d, undamped[i]);
        jnt_set_param_text(mod, d, "N=0");
        jnt_set_param_text(mod, d, "v20=2mm/s");
        n = freqs(mod, d, wx, 3);
        jnt_data_free(d);
        double e = 0;
        for (int k = 0; n == 3 && k < 3; k++)
            e = fmax(e, fabs(wx[k] / w[k] - 1));
        CHECK(n == 3 && e < 1e-9, "r = %d: the example with N = 0 in slip has the frictionless "
                                  "frequencies (max rel. diff %.2g)", r, e);
        exdev = fmax(exdev, e);

        /* at rest with N = 40 N the law sticks (F = F_eq keeps v2' = 0):
         * masses 1 and 3 oscillate alone at omega1 and omega3 = r omega1
         * (eqs. 3.8ac; thesis Sect. 3.2), mass 2 gives two zero eigenvalues */
        d = jnt_data_new(mod);
        jnt_set_param_text(mod, d, rdef);
        for (int i = 0; i < 4; i++)
            jnt_set_param_text(mod, d, undamped[i]);
        n = freqs(mod, d, ws, 3);
        jnt_data_free(d);
        double w1 = sqrt(1100.0 / 100.0);
        CHECK(n == 2 && fabs(ws[0] / fmin(w1, r * w1) - 1) < 1e-9 &&
                  fabs(ws[1] / fmax(w1, r * w1) - 1) < 1e-9,
              "r = %d: stick branch at rest: %d modes, %.6g and %.6g rad/s (omega1 = %.6g, "
              "omega3 = %.6g, eq. 3.8)", r, n, n > 0 ? ws[0] : 0.0, n > 1 ? ws[1] : 0.0, w1,
              r * w1);
    }
    MEASURE("stribeck3.table32.max_rel_dev", t32dev);
    MEASURE("stribeck3.example_N0.max_rel_dev", exdev);
}

/* Free response of Fig. 3.6 (N = 40 N, r = 1, 30 s): stick-slip, then
 * permanent stick; the energy balance. */
static void check_free_response(const jnt_model *mod)
{
    csv_table ref, rk, fine;
    jnt_run_opts dopri = {.integrator = "dopri5", .rtol = 1e-10, .atol = 1e-10};
    jnt_run_opts rk4fine = {.integrator = "rk4", .h = 5e-5};

    /* reference: dopri5, rtol = atol = 1e-10; its switch times agree with
     * rk4 h = 5e-5 s and dopri5 at 1e-8 to 1 ms */
    int ok = run_csv(mod, test_out("stribeck3_ref.csv"), dopri, NULL, &ref) == JNT_OK;
    CHECK(ok, "free response, dopri5 rtol = atol = 1e-10");
    int okr = run_csv(mod, test_out("stribeck3_rk4.csv"), (jnt_run_opts){0}, NULL, &rk) == JNT_OK;
    CHECK(okr, "free response as written (rk4, h = 1 ms, the paper's)");
    int okf = run_csv(mod, test_out("stribeck3_rk4fine.csv"), rk4fine, NULL, &fine) == JNT_OK;
    CHECK(okf, "free response, rk4 h = 50 us");

    if (ok) {
        int nph;
        double tl = last_slip(&ref, &nph), *tt = ref.col[0], *F = csv_col(&ref, "F");
        double t_end = tt[ref.nrow - 1], Fmax = 0;
        for (int i = 0; i < ref.nrow; i++)
            if (tt[i] > tl)
                Fmax = fmax(Fmax, fabs(F[i]));
        /* "the 2nd mass shows periodic stick-slip behavior until it is
         * completely stuck" (thesis Sect. 3.4): many slip phases, then none
         * for the last 10 s, with the sticking force inside mu* N */
        CHECK(nph >= 10, "mass 2 stick-slips: %d slip phases (|v2| > v_s)", nph);
        CHECK(tl > 0 && tl < t_end - 10, "mass 2 is permanently stuck: last slip at %.3f s, "
                                         "none in the last %.1f s", tl, t_end - tl);
        CHECK(Fmax <= mu_star * 40, "stuck: |F| <= mu* N = 20 N after the last slip (max %.3g N)",
              Fmax);
        /* regression: 13.254 s with dopri5 at 1e-10 and 1e-12 and rk4 at
         * h = 1e-4 and 2e-5 s (13.255 s); the stick band's outputs are 1 ms
         * apart */
        CHECK_NEAR(tl, 13.254, 0.005, "last slip of mass 2, converged (s)");
        MEASURE("stribeck3.last_slip", tl);
        MEASURE("stribeck3.last_slip_before_paper", 20 - tl);
        MEASURE("stribeck3.slip_phases", nph);
        /* seed 001 (thesis Sect. 3.4, Fig. 3.6): "completely stuck at a time
         * of about 20 s", read off a plot. Not reproduced: docs/laws.md */
        printf("INFO: last slip of mass 2 at %.3f s (dopri5 1e-10); seed 001 Fig. 3.6: "
               "about 20 s, %.1f s (%.0f %%) later than here\n", tl, 20 - tl, 100 * (20 / tl - 1));
        /* the same from the independent implementation above (RK4, h = 0.1
         * ms) */
        int nd;
        double td = direct_last_slip(1, 50, 0, 1e-4, &nd);
        CHECK(fabs(td - tl) <= 0.005 && nd == nph,
              "independent implementation of eqs. 3.1-3.11 and Fig. 3.3 (rk4, h = 0.1 ms): "
              "last slip %.3f s, %d slip phases; jnt %.3f s, %d (tol 5 ms)", td, nd, tl, nph);
        MEASURE("stribeck3.direct.last_slip", td);
        MEASURE("stribeck3.direct.slip_phases", nd);
        /* eqs. 3.13-3.15 with the dissipated energies integrated as states */
        double e = balance_error(&ref);
        CHECK(e <= 1e-6, "energy balance E + W_dampers + W_friction = E(0), dopri5 1e-10: "
                         "max rel. error %.3g <= 1e-6", e);
        MEASURE("stribeck3.balance.dopri5", e);
        double Wf = csv_col(&ref, "W_fr")[ref.nrow - 1];
        CHECK(Wf > 0, "friction dissipates: W_fr(30 s) = %.4g J", Wf);
        MEASURE("stribeck3.W_fr", Wf);
        if (okr) {
            int nr;
            double tlr = last_slip(&rk, &nr);
            /* at h = 1 ms rk4 barely resolves mass 2's slip at low speed (time
             * constant m2 / (N gamma beta) = 1 ms, see below), and a step
             * crosses the stick band (2 v_s) in one go: the last slip moves
             * to 14.299 s (measured), a phase later. Regression bound. */
            CHECK(fabs(tlr - tl) < 1.5, "rk4 h = 1 ms: last slip at %.3f s, within 1.5 s of "
                                        "the reference", tlr);
            MEASURE("stribeck3.rk4_1ms.last_slip", tlr);
        }
    }
    if (okf) {
        double e = balance_error(&fine);
        CHECK(e <= 1e-6, "energy balance, rk4 h = 50 us: max rel. error %.3g <= 1e-6", e);
        MEASURE("stribeck3.balance.rk4_50us", e);
    }
    if (okr) {
        /* the paper's rk4 h = 1 ms does not close the balance to 1e-6: at low
         * slip speed the Stribeck slope -N gamma beta exp(-beta |v|) gives
         * mass 2 an unstable mode of rate N gamma beta / m2 = 960 1/s at
         * N = 40 N, h lambda ~ 1; the error is made at low slip speed
         * (docs/laws.md). Measured: 1.4e-3 at 1 ms, 9.3e-8 at 50 us. The
         * bound below only catches a regression. */
        double e = balance_error(&rk);
        printf("INFO: energy balance with rk4 h = 1 ms (the paper's): max rel. error %.3g\n", e);
        MEASURE("stribeck3.balance.rk4_1ms", e);
        CHECK(e <= 5e-3, "energy balance, rk4 h = 1 ms: max rel. error %.3g <= 5e-3 (not 1e-6: "
                         "h lambda ~ 1 in slow slip)", e);
    }
    csv_free(&ref);
    csv_free(&rk);
    csv_free(&fine);
}

/* Energy dissipated by t_f = 15.1 s at r = 1.1 (thesis Sect. 3.5): the
 * paper gives 130.4 J (N = 0) and 189.7 J (N = 100 N), and Table 3.3 the
 * share of dampers 3 and 4 (11 % with friction; its frictionless 42 % is
 * the row's peak at r = 1.0: docs/sweeps.md, tests/cli/e4_linear.py). The
 * example's reading of eq. 3.9 is checked against them; two other c4 are
 * printed. */
static void check_dissipation(const jnt_model *mod)
{
    /* k4 at r = 1.1 (eq. 3.11) and c4 = 2 zeta4 sqrt(k4 m3), an alternative
     * reading of eq. 3.9d (mass 3 on k4 alone) */
    double k4 = 0.5 * 1.1 * 1.1 * 1100 - 100, c4alt = 2 * 0.01 * sqrt(k4 * 50);
    char c4def[64];
    snprintf(c4def, sizeof c4def, "c4=%.17g", c4alt);
    const char *c4s[3] = {NULL, c4def, "c4=0"};
    const char *c4name[3] = {"c4 = 2 zeta4 omega3 m3 (the example's)", "c4 = 2 zeta4 sqrt(k4 m3)",
                             "c4 = 0"};
    static const double paper[2] = {130.4, 189.7}, paper_share[2] = {42, 11};
    static const char *Ns[2] = {"N=0", "N=100"};
    double edis[2] = {0, 0}, share[2] = {0, 0};
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 2; k++) {
            const char *defs[] = {"r=1.1", "t_end=15.1", Ns[k], c4s[c], NULL};
            jnt_run_opts ref = {.integrator = "dopri5", .rtol = 1e-10, .atol = 1e-10};
            csv_table t, tr;
            char csv[64];
            snprintf(csv, sizeof csv, "stribeck3_diss_%d_%d.csv", c, k);
            int ok = run_csv(mod, test_out(csv), (jnt_run_opts){0}, defs, &t) == JNT_OK;
            snprintf(csv, sizeof csv, "stribeck3_dissref_%d_%d.csv", c, k);
            ok = ok && run_csv(mod, test_out(csv), ref, defs, &tr) == JNT_OK;
            CHECK(ok, "r = 1.1, %s, %s: runs to 15.1 s", Ns[k], c4name[c]);
            if (ok) {
                int i = t.nrow - 1, j = tr.nrow - 1;
                double ed = E0 - csv_col(&t, "E")[i], edr = E0 - csv_col(&tr, "E")[j];
                double w34 = csv_col(&tr, "W_c3")[j] + csv_col(&tr, "W_c4")[j];
                printf("INFO: r = 1.1, %s, %s: dissipated by %.1f s %.1f J (rk4 1 ms), "
                       "%.1f J (dopri5), seed 001: %.1f J; dampers 3+4: %.0f %%, Table 3.3: "
                       "%.0f %%\n", Ns[k], c4name[c], t.col[0][i], ed, edr, paper[k],
                       100 * w34 / edr, paper_share[k]);
                char key[64];
                snprintf(key, sizeof key, "stribeck3.diss.c%d.N%d.rk4", c, k);
                MEASURE(key, ed);
                snprintf(key, sizeof key, "stribeck3.diss.c%d.N%d.dopri5", c, k);
                MEASURE(key, edr);
                snprintf(key, sizeof key, "stribeck3.diss.c%d.N%d.share34", c, k);
                MEASURE(key, 100 * w34 / edr);
                if (c == 0) {
                    edis[k] = edr;
                    share[k] = w34 / edr;
                }
                csv_free(&t);
                csv_free(&tr);
            }
        }
    /* the paper's qualitative findings at r = 1.1 (thesis Sect. 3.5): the
     * system with friction dissipates more in total, the frictionless one
     * more in dampers 3 and 4 */
    CHECK(edis[1] > edis[0], "r = 1.1: friction dissipates more in total (%.1f J > %.1f J)",
          edis[1], edis[0]);
    CHECK(share[0] > share[1], "r = 1.1: dampers 3+4 take a larger share without friction "
                               "(%.0f %% > %.0f %%)", 100 * share[0], 100 * share[1]);
    /* and the numbers, dopri5 1e-10 (measured 129.5 J, 190.2 J, 10.6 %) */
    CHECK_REL(edis[0], 130.4, 0.01, "r = 1.1, N = 0: dissipated by 15.1 s (J; seed 001 Sect. "
                                    "3.5: 130.4 J; 1 %)");
    CHECK_REL(edis[1], 189.7, 0.01, "r = 1.1, N = 100 N: dissipated by 15.1 s (J; seed 001 "
                                    "Sect. 3.5: 189.7 J; 1 %)");
    CHECK_NEAR(100 * share[1], 11, 0.5, "r = 1.1, N = 100 N: dampers 3+4's share (%; Table "
                                        "3.3: 11 %; 0.5 points)");
}

/* Why 13.3 s and not "about 20 s": at r = 1 exactly (omega3 = omega1, eq.
 * 3.8) masses 1 and 3 oscillate at the same frequency while mass 2 sticks,
 * so the spring forces k2 (x1 - x2) and k3 (x3 - x2) on mass 2 keep their
 * phase and can stay below mu* N for good; off r = 1 they beat and break mass
 * 2 free again. The last slip is a steep function of r near 1: 19.9 s at r =
 * 1.03, to the end of the run further off. Regression values (dopri5, rtol =
 * atol = 1e-10 and 1e-12 agree to 1 ms, rk4 at 20 us to 20 ms; docs/laws.md).
 * Not r = 0.97: there dopri5 gives 28.745 s and rk4 at 20 us 25.909 s. */
static void check_tuning_sensitivity(const jnt_model *mod)
{
    static const struct {
        const char *def, *what;
        double want;
    } cases[] = {
        {"r=1.03", "r = 1.03", 19.884},
        {"r=1.1", "r = 1.1", 29.601},
        {"r=1.5", "r = 1.5", 27.588},
        {"k4=1000", "k4 = 1000 N/m of Table 3.1 (r = sqrt 2, eq. 3.8)", 27.475},
        {"m3=100", "m3 = m1 = 100 kg (k4 = 1000 N/m by eq. 3.11)", 19.005},
    };
    jnt_run_opts dopri = {.integrator = "dopri5", .rtol = 1e-10, .atol = 1e-10};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *defs[] = {cases[i].def, NULL};
        char csv[64], name[160];
        csv_table t;
        snprintf(csv, sizeof csv, "stribeck3_tune_%zu.csv", i);
        int ok = run_csv(mod, test_out(csv), dopri, defs, &t) == JNT_OK;
        CHECK(ok, "free response, N = 40 N, %s: runs", cases[i].what);
        if (!ok)
            continue;
        int n;
        double tl = last_slip(&t, &n);
        snprintf(name, sizeof name, "N = 40 N, %s: last slip of mass 2 (s; seed 001 Fig. 3.6, "
                                    "r = 1: about 20 s); regression, tol 5 ms", cases[i].what);
        CHECK_NEAR(tl, cases[i].want, 0.005, name);
        /* Table 3.1's k4 = 1000 N/m is eq. 3.11's r = 1 for m3 = m1 only: that
         * reading of Fig. 3.6's run against the thesis' "about 20 s" (the study
         * of the other inputs: bench/e4_stick_study.sh, docs/sweeps.md) */
        if (strcmp(cases[i].def, "m3=100") == 0)
            CHECK_NEAR(tl, 20, 1.5, "N = 40 N, r = 1, m3 = 100 kg, k4 = 1000 N/m (Table 3.1): "
                                    "last slip against Fig. 3.6's about 20 s (s; 1.5 s)");
        snprintf(name, sizeof name, "stribeck3.tune.%zu.last_slip", i);
        MEASURE(name, tl);
        csv_free(&t);
    }
    /* the Table 3.1 reading through the independent implementation */
    int nd;
    double td = direct_last_slip(1, 50, 1000, 1e-4, &nd);
    CHECK_NEAR(td, 27.475, 0.005, "independent implementation (rk4, h = 0.1 ms), k4 = 1000 N/m "
                                  "of Table 3.1: last slip (s), tol 5 ms");
    MEASURE("stribeck3.direct.k4_1000.last_slip", td);
}

int main(void)
{
    jnt_model *mod;
    CHECK(jnt_compile_file(model_path, NULL, &mod) == JNT_OK, "compile %s", model_path);
    if (!mod)
        return check_done();
    check_frequencies(mod);
    check_free_response(mod);
    check_tuning_sensitivity(mod);
    check_dissipation(mod);
    jnt_model_free(mod);
    return check_done();
}
