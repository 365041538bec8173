/*
 * test_beam_mass.c: examples/beam_mass_friction.jnt, seed 001 example E5
 * (thesis Ch. 4; digest Sect. 2.10 and E5): a cantilever reduced to NM = 2,
 * 4, 8 normal modes, coupled at its tip to a 1 kg mass on a spring through
 * Stribeck friction with the switching stick algorithm; free response from a
 * mass velocity of 2 m/s. Checks the energy balance (eqs. 4.25-4.28 with the
 * dissipated works), permanent stick inside mu* N, and writes the
 * convergence with NM and the 49.0 / 49.5 rad/s comparison (Sect. 4.3.2).
 * docs/substructures.md explains the choices.
 *
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

static const char *model_path = "examples/beam_mass_friction.jnt";

/* Table 3.1's stick band and static coefficient; m2 = 1 kg at 2 m/s */
static const double v_s = 1e-3, mu_star = 0.5, E0 = 2.0;
/* ten periods of the first beam mode (thesis Sect. 4.3: "approximately 4.6 s") */
static const double t_f = 4.6;

/* The example's text with NM modes (a const: the reduction is compiled).
 * The caller frees it. */
static char *model_text(int nm)
{
    char *src = read_text(model_path);
    static const char key[] = "const NM = 4";
    char *a = src ? strstr(src, key) : NULL;
    char *out = a ? malloc(strlen(src) + 16) : NULL;
    if (out) {
        *a = 0;
        sprintf(out, "%sconst NM = %d%s", src, nm, a + strlen(key));
    }
    free(src);
    return out;
}

static jnt_model *compile(int nm)
{
    char *text = model_text(nm), name[64];
    jnt_model *m = NULL;
    snprintf(name, sizeof name, "beam_mass_friction_%d", nm);
    if (!text || jnt_compile_string(name, text, NULL, &m) != JNT_OK)
        m = NULL;
    free(text);
    return m;
}


/* Largest |E + D_b + W_fr + W_c2 - E0| / E0 over the rows (eqs. 4.25-4.28
 * with the dissipated works), and the largest |W_b - E_beam - D_b| / E0 (the
 * beam's own balance: the work done on it by the friction force). */
static void balance(const csv_table *t, double *total, double *beam)
{
    double *eb = csv_col(t, "E_bal"), *wb = csv_col(t, "W_b"), *e = csv_col(t, "E_beam"),
           *d = csv_col(t, "D_b");
    *total = *beam = 0;
    for (int k = 0; k < t->nrow; k++) {
        *total = fmax(*total, fabs(eb[k] - E0) / E0);
        *beam = fmax(*beam, fabs(wb[k] - e[k] - d[k]) / E0);
    }
}

/* The row nearest to time tt. */
static int row_at(const double *t, int n, double tt)
{
    int best = 0;
    for (int k = 1; k < n; k++)
        if (fabs(t[k] - tt) < fabs(t[best] - tt))
            best = k;
    return best;
}

/* Last output time with |v_rel| > v_s, and the number of slip phases. */
static double last_slip(const csv_table *t, int *nphase)
{
    double *tt = t->col[0], *v = csv_col(t, "v_rel"), last = -1;
    int n = 0;
    for (int i = 0; i < t->nrow; i++)
        if (fabs(v[i]) > v_s) {
            if (i == 0 || fabs(v[i - 1]) <= v_s)
                n++;
            last = tt[i];
        }
    *nphase = n;
    return last;
}

/* One case of the study, from the example's outputs. */
typedef struct result {
    double t_last, Fmax, dv, E_rem, W_fr, D_b, bal, bal_beam;
    double end_mass, end_beam, end_Db, end_Wfr; /* at the last row */
    int nph, ok;
} result;

static result study(const jnt_model *mod, const char *tag, jnt_run_opts o,
                    const char *const *defs)
{
    result res = {0};
    csv_table t;
    char csv[96];
    snprintf(csv, sizeof csv, "beam_mass_%s.csv", tag);
    if (run_csv(mod, test_out(csv), o, defs, &t) == JNT_OK) {
        res.ok = 1;
        res.t_last = last_slip(&t, &res.nph);
        /* after the last slip: the largest |F| and the spread of v_rel (the
         * stick branch F = F_eq holds the relative acceleration at 0) */
        double *tt = t.col[0], *F = csv_col(&t, "F"), *v = csv_col(&t, "v_rel");
        double vmin = INFINITY, vmax = -INFINITY;
        for (int i = 0; i < t.nrow; i++)
            if (tt[i] > res.t_last) {
                res.Fmax = fmax(res.Fmax, fabs(F[i]));
                vmin = fmin(vmin, v[i]);
                vmax = fmax(vmax, v[i]);
            }
        res.dv = vmax - vmin;
        int k = row_at(tt, t.nrow, t_f);
        res.E_rem = csv_col(&t, "E")[k];
        res.W_fr = csv_col(&t, "W_fr")[k];
        res.D_b = csv_col(&t, "D_b")[k];
        balance(&t, &res.bal, &res.bal_beam);
        int e = t.nrow - 1;
        res.end_mass = csv_col(&t, "E_mass")[e];
        res.end_beam = csv_col(&t, "E_beam")[e];
        res.end_Db = csv_col(&t, "D_b")[e];
        res.end_Wfr = csv_col(&t, "W_fr")[e];
    }
    csv_free(&t);
    return res;
}

/* The result's figures as MEASURE lines KEY.FIELD (docs/substructures.md's
 * tables, docs/testing.md "Numbers in the docs"). */
static void measure_result(const char *key, const result *r)
{
    static const char *const f[] = {"t_last", "nph", "E_rem", "diss", "W_fr", "D_b", "bal",
                                    "bal_beam", "end_mass", "end_beam", "end_Db", "end_Wfr"};
    double v[] = {r->t_last, r->nph, r->E_rem, E0 - r->E_rem, r->W_fr, r->D_b, r->bal,
                  r->bal_beam, r->end_mass, r->end_beam, r->end_Db, r->end_Wfr};
    for (int i = 0; i < (int)(sizeof v / sizeof v[0]); i++) {
        char k[128];
        snprintf(k, sizeof k, "%s.%s", key, f[i]);
        MEASURE(k, v[i]);
    }
}

static void print_result(const char *what, const result *r)
{
    printf("INFO: %s: last slip %.3f s (%d slip phases), at %.1f s: remaining %.4f J, "
           "dissipated %.4f J (friction %.4f J, beam damping %.4f J)\n", what, r->t_last,
           r->nph, t_f, r->E_rem, E0 - r->E_rem, r->W_fr, r->D_b);
}

/* The energy balance of the example (NM = 4, N = 5 N) with the reference
 * integrator, and with the paper's RK4. */
static void check_balance(const jnt_model *mod)
{
    jnt_run_opts ref = {.integrator = "dopri5", .rtol = 1e-10, .atol = 1e-10}, paper = {0};
    result r = study(mod, "bal_ref", ref, NULL), p = study(mod, "bal_rk4", paper, NULL);
    CHECK(r.ok && p.ok, "NM = 4, N = 5 N: runs (dopri5 1e-10, rk4 0.5 ms)");
    if (!r.ok || !p.ok)
        return;
    measure_result("bm.example.ref", &r);
    measure_result("bm.example.rk4", &p);
    MEASURE("bm.example.rk4.beam_share", p.bal_beam / p.bal);
    CHECK(r.bal <= 1e-6, "energy balance E_mass + E_beam + D_beam + W_fr + W_c2 = E(0), "
                         "dopri5 1e-10: max rel. error %.3g <= 1e-6", r.bal);
    CHECK(r.bal_beam <= 1e-6, "beam: work done on it = E_beam + D_beam, dopri5 1e-10: max rel. "
                              "error %.3g <= 1e-6", r.bal_beam);
    CHECK(r.W_fr > 0 && r.D_b > 0, "friction and the beam's damping dissipate: %.4f J, %.4f J "
                                   "by %.1f s", r.W_fr, r.D_b, t_f);
    /* the paper's step does not close the balance to 1e-6: the force jumps
     * while the tip moves (F v_tip != 0 at the switches) and the Stribeck
     * slope is unstable at low slip speed (docs/substructures.md) */
    printf("INFO: energy balance with rk4 h = 0.5 ms (the paper's): max rel. error %.3g (beam "
           "side %.3g)\n", p.bal, p.bal_beam);
    CHECK(p.bal <= 5e-3, "energy balance, rk4 h = 0.5 ms: max rel. error %.3g <= 5e-3 (a "
                         "regression bound, not 1e-6)", p.bal);
}

/* Modes 2, 4, 8 and N = 5, 10 N: permanent stick inside mu* N, the
 * convergence of the last slip and of the dissipated energy (thesis Sect.
 * 4.2.1: "little difference between using 4 modes and using 8 modes"). */
static void check_modes(void)
{
    static const int nms[3] = {2, 4, 8};
    static const double Ns[2] = {5, 10};
    static const char *Ndef[2] = {"N=5", "N=10"};
    jnt_run_opts ref = {.integrator = "dopri5", .rtol = 1e-10, .atol = 1e-10}, paper = {0};
    double diss[3][2] = {{0}}, bal_lo = INFINITY, bal_hi = 0;
    for (int m = 0; m < 3; m++) {
        jnt_model *mod = compile(nms[m]);
        CHECK(mod != NULL, "NM = %d: the example compiles", nms[m]);
        for (int n = 0; mod && n < 2; n++) {
            const char *defs[] = {Ndef[n], NULL};
            char tag[64], what[96];
            snprintf(tag, sizeof tag, "nm%d_N%g_ref", nms[m], Ns[n]);
            result r = study(mod, tag, ref, defs);
            snprintf(tag, sizeof tag, "nm%d_N%g_rk4", nms[m], Ns[n]);
            result p = study(mod, tag, paper, defs);
            CHECK(r.ok && p.ok, "NM = %d, N = %g N: runs (dopri5 1e-10, rk4 0.5 ms)", nms[m],
                  Ns[n]);
            if (!r.ok || !p.ok)
                continue;
            snprintf(what, sizeof what, "NM = %d, N = %g N, dopri5 1e-10", nms[m], Ns[n]);
            print_result(what, &r);
            snprintf(what, sizeof what, "NM = %d, N = %g N, rk4 0.5 ms  ", nms[m], Ns[n]);
            print_result(what, &p);
            snprintf(tag, sizeof tag, "bm.nm%d.N%g.ref", nms[m], Ns[n]);
            measure_result(tag, &r);
            snprintf(tag, sizeof tag, "bm.nm%d.N%g.rk4", nms[m], Ns[n]);
            measure_result(tag, &p);
            diss[m][n] = E0 - r.E_rem;
            bal_lo = fmin(bal_lo, r.bal);
            bal_hi = fmax(bal_hi, r.bal);
            CHECK(r.bal <= 1e-6, "NM = %d, N = %g N: energy balance, dopri5 1e-10: max rel. "
                  "error %.3g <= 1e-6", nms[m], Ns[n], r.bal);
            /* slip, then permanent stick within a few seconds, held by a
             * force inside the static limit with no relative acceleration */
            CHECK(r.nph >= 1 && r.t_last > 0 && r.t_last < 5,
                  "NM = %d, N = %g N: slips, last slip at %.3f s, stuck for the last %.1f s",
                  nms[m], Ns[n], r.t_last, 10 - r.t_last);
            CHECK(r.Fmax <= mu_star * Ns[n], "NM = %d, N = %g N: stuck with |F| <= mu* N = "
                  "%g N (max %.4g N)", nms[m], Ns[n], mu_star * Ns[n], r.Fmax);
            CHECK(r.dv < 1e-9, "NM = %d, N = %g N: stuck: v_rel constant after the last slip "
                  "(spread %.2g m/s)", nms[m], Ns[n], r.dv);
            /* regression: dopri5 at 1e-8, 1e-10 and 1e-12 agree to 1 ms */
            if (nms[m] == 4)
                CHECK_NEAR(r.t_last, n ? 0.592 : 2.707, 0.005, n ? "NM = 4, N = 10 N: last slip, "
                           "dopri5 1e-10 (s)" : "NM = 4, N = 5 N: last slip, dopri5 1e-10 (s)");
        }
        jnt_model_free(mod);
    }
    /* the convergence with NM: 2 modes against 8, 4 against 8 (percent of 8's) */
    MEASURE("bm.modes.bal_lo", bal_lo);
    MEASURE("bm.modes.bal_hi", bal_hi);
    for (int n = 0; n < 2; n++) {
        char key[64];
        snprintf(key, sizeof key, "bm.N%g.low2_pct", Ns[n]);
        MEASURE(key, 100 * (1 - diss[0][n] / diss[2][n]));
        snprintf(key, sizeof key, "bm.N%g.d48_pct", Ns[n]);
        MEASURE(key, 100 * fabs(diss[2][n] - diss[1][n]) / diss[2][n]);
    }
}

/* Thesis Sect. 4.3.2, Fig. 4.11: at N = 10 N, omega_n2 = 49.5 rad/s sticks
 * for t > 1.5 s, 49.0 rad/s slips one more half-cycle. Reported, not
 * checked: the outcome depends on details the paper leaves open. */
static void check_tuning(void)
{
    static const double wn[2] = {49.0, 49.5};
    jnt_run_opts opts[2] = {{.integrator = "dopri5", .rtol = 1e-10, .atol = 1e-10}, {0}};
    static const char *oname[2] = {"dopri5 1e-10", "rk4 0.5 ms"};
    static const int nms[2] = {4, 8};
    for (int m = 0; m < 2; m++) {
        jnt_model *mod = compile(nms[m]);
        for (int w = 0; mod && w < 2; w++)
            for (int o = 0; o < 2; o++) {
                char wdef[32], tag[64], what[96];
                snprintf(wdef, sizeof wdef, "omega_n2=%g", wn[w]);
                const char *defs[] = {"N=10", wdef, NULL};
                snprintf(tag, sizeof tag, "nm%d_w%g_%d", nms[m], wn[w], o);
                result r = study(mod, tag, opts[o], defs);
                CHECK(r.ok, "NM = %d, N = 10 N, omega_n2 = %g rad/s, %s: runs", nms[m], wn[w],
                      oname[o]);
                if (!r.ok)
                    continue;
                snprintf(what, sizeof what, "NM = %d, N = 10 N, omega_n2 = %g rad/s, %s", nms[m],
                         wn[w], oname[o]);
                print_result(what, &r);
                snprintf(tag, sizeof tag, "bm.nm%d.w%g.%s", nms[m], wn[w], o ? "rk4" : "ref");
                measure_result(tag, &r);
            }
        jnt_model_free(mod);
    }
}

int main(void)
{
    jnt_model *mod;
    CHECK(jnt_compile_file(model_path, NULL, &mod) == JNT_OK, "compile %s", model_path);
    if (!mod)
        return check_done();
    check_balance(mod);
    jnt_model_free(mod);
    check_modes();
    check_tuning();
    return check_done();
}
