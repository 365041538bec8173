/*
 * test_lugre_tdg.c: the friction law lugre_tdg (stdlib/friction.jnt: LuGre
 * with seed 001's time-discontinuous Galerkin bristle update, eq. 29, for
 * the midpoint rule) against the runtime library's independent version
 * (core/clearance.c: clr_lugre_tdg, whose claims 5-7 test_clearance.c
 * checks), on a scripted slip: a block driven back and forth by a prismatic
 * joint's drive with the law on the joint. Each step's bristle update of the
 * law (its discrete state) must be the library's step from the same start,
 * mean slip speed and step; in steady sliding the force is mu_k N.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "core/clearance.h"
#include "jnt/jnt.h"

static const char *const model_text =
    "model tdg\nimport friction\n"
    "param A = 1 mm\nparam w = 6.283185307179586 / 0.1 s\n"
    "body b : rigid3d(mass = 1 kg, inertia = (1 kg*m^2, 1 kg*m^2, 1 kg*m^2)) {\n"
    "  marker c = (0 m, 0 m, 0 m)\n}\n"
    "joint slide : prismatic(b.c, (0 m, 0 m, 0 m), axis = (1, 0, 0), drive = A * sin(w * t))\n"
    "friction rub on slide {\n"
    "  law    = lugre_tdg(sigma0 = 1e5 /m, sigma1 = 0.01 s/m, sigma2 = 0.002 s/m, mu_s = 0.4,\n"
    "                     mu_k = 0.3, v_s = 1 mm/s)\n"
    "  normal = 10 N\n}\n"
    "simulate { integrator = midpoint(h = 0.2 ms)  until = 0.2 s }\n"
    "output \"tdg.csv\" every 0 s { t, v = slide.speed, f = rub.force, zi = rub.zi }\n";

int main(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("tdg", model_text, NULL, &m);
    CHECK(rc == JNT_OK, "compile the scripted LuGre TDG model");
    if (rc != JNT_OK)
        return check_done();
    csv_table t;
    rc = run_csv(m, test_out("lugre_tdg.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "the scripted LuGre TDG model runs (midpoint)");
    if (rc == JNT_OK) {
        const double sigma0 = 1e5, v_s = 1e-3, mu_s = 0.4, mu_k = 0.3, N = 10;
        const double omega = sigma0 * v_s / mu_k;
        clr_lugre_par par = {.ratio = mu_s / mu_k, .gamma = 2, .sigma1 = 0.01 * v_s / mu_k,
                             .sigma2 = 0.002 * v_s / mu_k};
        const double *tt = csv_col(&t, "t"), *v = csv_col(&t, "v"), *zi = csv_col(&t, "zi");
        const double *f = csv_col(&t, "f");
        /* a row is written before its step's update: row k + 1 shows the
         * bristle after step k - 1 .. k */
        double z = 0, worst = 0, fworst = 0;
        int n = 0, slid = 0;
        for (int k = 1; k + 1 < t.nrow; k++) {
            clr_lugre_step st;
            /* the law's first step takes its end's speed as the mean */
            double vg = (k == 1 ? v[k] : 0.5 * (v[k - 1] + v[k])) / v_s;
            clr_lugre_tdg(&par, z, vg, fabs(vg), omega * (tt[k] - tt[k - 1]), &st);
            z = st.zf;
            worst = fmax(worst, fabs(zi[k + 1] - z));
            n++;
            if (fabs(v[k]) > 50 * v_s && tt[k] > 5e-3) { /* after the first build-up */
                /* steady sliding: z_g = g -> 1, beta = |vh| / g, so eq. 25 is
                 * 1 + sh2 |vh|: the force mu_k N + sigma2 |v| N (sigma1's
                 * terms cancel) */
                fworst = fmax(fworst, fabs(fabs(f[k]) - (mu_k + 0.002 * fabs(v[k])) * N));
                slid++;
            }
        }
        CHECK(n > 900 && worst <= 1e-12, "lugre_tdg's bristle update = the library's TDG step "
              "(eq. 29) from the same start, mean slip and step, at %d steps: largest difference "
              "%.2g (1e-12)", n, worst);
        CHECK(slid > 100 && fworst <= 1e-3 * mu_k * N, "lugre_tdg in steady sliding: the force "
              "is mu_k N + sigma2 |v| N to %.2g N at %d steps", fworst, slid);
        MEASURE("lugre_tdg.vs_library", worst);
        MEASURE("lugre_tdg.steps", n);
        MEASURE("lugre_tdg.steady_force", fworst);
    }
    csv_free(&t);
    jnt_model_free(m);
    return check_done();
}
