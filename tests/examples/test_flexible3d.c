/*
 * test_flexible3d.c: flexible3d bodies (issue 14): a floating frame in
 * director coordinates carrying a reduced beam3d (runtime/core/flex3d.c,
 * runtime/setup/red_ffrf3d.c; their equations are checked in
 * tests/unit/test_flex3d.c). Here, through the language:
 * 1. seed 001 E2's shaft clamped to its frame and spun up on a revolute
 *    joint by the example's torque Q0 (1 - cos 2 pi t): it turns as a rigid
 *    body of polar inertia J = ip L (its elastic coordinates stay at rest),
 *    w = Q0 / J (t - sin(2 pi t) / (2 pi));
 * 2. a cantilever (the body held by a fixed joint) under constant tip loads
 *    in y and z with modal damping settles at the tip deflections F L^3 /
 *    (3 EI) of both bending planes (EI33 in y, EI22 in z), to the modal
 *    truncation of its basis;
 * 3. the same cantilever pushed against a stop: a contact between its tip (a
 *    node marker) and a point of the ground, 5 mm away, with a linear
 *    spring of 1 MN/m: it settles where F = k_b d + k_c (d - g), k_b = 3 EI
 *    / L^3 (the contact's force reaches the elastic coordinates);
 * 4. a joint at a node turns with it (arm_text).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

static const char *const spin_text =
    "model flex3_spin\nparam Q0 = 0.825 N*m\n"
    "substructure shaft : beam3d(length = 6 m, elements = 10, EA = 22.76 MN, GJ = 22.1 kN*m^2,\n"
    "                            EI22 = 28.2 kN*m^2, EI33 = 28.7 kN*m^2, mass = 0.848 kg/m) {\n"
    "  fix    = left\n  reduce = modal(modes = 4)\n}\n"
    "body rotor : flexible3d(substructure = shaft) {\n"
    "  marker r = (0 m, 0 m, 0 m)\n  marker tip = right\n}\n"
    "joint hinge : revolute(rotor.r, (0 m, 0 m, 0 m), axis = (1, 0, 0))\n"
    "force Q on hinge = Q0 * (1 - cos(2 * pi * t / 1 s))\n"
    "simulate { integrator = midpoint(h = 0.1 ms)  until = 0.9 s }\n"
    "output \"f3spin.csv\" every 10 ms { t, w = hinge.speed, ty = rotor.tip.y, tz = rotor.tip.z }\n";

/* A 2 m beam3d cantilever held by a fixed joint, 12 damped modes */
#define CANTILEVER \
    "substructure beam : beam3d(length = 2 m, elements = 10, EA = 22.76 MN, GJ = 22.1 kN*m^2,\n" \
    "                           EI22 = 28.2 kN*m^2, EI33 = 28.7 kN*m^2, mass = 0.848 kg/m) {\n" \
    "  fix     = left\n  reduce  = modal(modes = 12)\n  damping = modal(zeta = 0.2)\n}\n" \
    "body b : flexible3d(substructure = beam) {\n" \
    "  marker root = (0 m, 0 m, 0 m)\n  marker tip = right\n}\n" \
    "joint clamp : fixed(b.root, (0 m, 0 m, 0 m))\n"

static const char *const static_text =
    "model flex3_static\n"
    CANTILEVER
    "force push on b.tip.y = 100 N\nforce lift on b.tip.z = 50 N\n"
    "simulate { integrator = generalized_alpha(h = 1 ms, rho_inf = 0.8)  until = 2 s }\n"
    "output \"f3static.csv\" every 10 ms { t, ty = b.tip.y, tz = b.tip.z }\n";

static const char *const stop_text =
    "model flex3_stop\nimport contact\n"
    CANTILEVER
    "force push on b.tip.y = 100 N\n"
    "contact stop between b.tip and (2 m, 0 m, 0 m) {\n"
    "  law = linear_spring(k = 1 MN/m)\n  gap0 = 5 mm\n}\n"
    "simulate { integrator = generalized_alpha(h = 1 ms, rho_inf = 0.8)  until = 2 s }\n"
    "output \"f3stop.csv\" every 10 ms { t, ty = b.tip.y, f = stop.force }\n";

/* 4. A rigid arm welded (a fixed joint) to the cantilever's tip node and
 * pushed at its far end: the weld turns with the node, so the arm carries
 * the moment F a into the beam. Craig-Bampton with the tip kept (exact for
 * tip loads): tip deflection F L^3/(3 EI) + F a L^2/(2 EI), slope F L^2/(2
 * EI) + F a L / EI, root moment F (L + a). */
static const char *const arm_text =
    "model flex3_arm\n"
    "substructure beam : beam3d(length = 2 m, elements = 10, EA = 22.76 MN, GJ = 22.1 kN*m^2,\n"
    "                           EI22 = 28.2 kN*m^2, EI33 = 28.7 kN*m^2, mass = 0.848 kg/m) {\n"
    "  fix     = left\n  reduce  = craig_bampton(modes = 4, keep = right)\n"
    "  damping = modal(zeta = 0.3)\n}\n"
    "body b : flexible3d(substructure = beam) {\n"
    "  marker root = (0 m, 0 m, 0 m)\n  marker tip = right\n}\n"
    "body arm : rigid3d(mass = 0.1 kg, inertia = (1e-3 kg*m^2, 1e-3 kg*m^2, 1e-3 kg*m^2)) {\n"
    "  marker root = (-0.25 m, 0 m, 0 m)\n  marker tail = (0.25 m, 0 m, 0 m)\n}\n"
    "init arm.x = 2.25 m\n"
    "joint clamp : fixed(b.root, (0 m, 0 m, 0 m))\njoint weld : fixed(b.tip, arm.root)\n"
    "force push on arm.tail.z = 50 N\n"
    "simulate { integrator = generalized_alpha(h = 1 ms, rho_inf = 0.5)  until = 3 s }\n"
    "output \"f3arm.csv\" every 10 ms { t, tz = b.tip.z, slope = arm.d1z, my = clamp.my }\n";

static int run_text(const char *name, const char *text, csv_table *t)
{
    jnt_model *m = NULL;
    memset(t, 0, sizeof *t);
    int rc = jnt_compile_string(name, text, NULL, &m);
    CHECK(rc == JNT_OK, "compile %s", name);
    if (rc != JNT_OK)
        return rc;
    char csv[64];
    snprintf(csv, sizeof csv, "%s.csv", name);
    rc = run_csv(m, test_out(csv), (jnt_run_opts){0}, NULL, t);
    CHECK(rc == JNT_OK, "%s runs", name);
    jnt_model_free(m);
    return rc;
}

int main(void)
{
    csv_table t;
    if (run_text("flex3_spin", spin_text, &t) == JNT_OK) {
        /* ip, not given, is mass (EI22 + EI33) / EA (the thin tube's; fe_beam3d) */
        double J = 0.848 * (28.2e3 + 28.7e3) / 22.76e6 * 6, e = 0, el = 0;
        const double *w = csv_col(&t, "w"), *ty = csv_col(&t, "ty"), *tz = csv_col(&t, "tz");
        for (int i = 0; i < t.nrow; i++) {
            double tt = t.col[0][i], want = 0.825 / J * (tt - sin(2 * PI * tt) / (2 * PI));
            e = fmax(e, fabs(w[i] - want) / fmax(want, 1));
            el = fmax(el, fmax(fabs(ty[i]), fabs(tz[i])));
        }
        CHECK(e <= 1e-6 && el <= 1e-12, "flexible3d shaft spun up on a revolute joint: speed "
              "against Q0/J (t - sin(2 pi t)/(2 pi)), J = ip L, to %.2g relative (1e-6, the midpoint rule's O(h^2)); its tip "
              "stays on the axis (%.2g m)", e, el);
    }
    csv_free(&t);
    if (run_text("flex3_static", static_text, &t) == JNT_OK) {
        double ty = csv_col(&t, "ty")[t.nrow - 1], tz = csv_col(&t, "tz")[t.nrow - 1];
        double wy = 100.0 * 8 / (3 * 28.7e3), wz = 50.0 * 8 / (3 * 28.2e3);
        /* 12 modes (6 a plane): the static tip deflection to 0.06 % */
        CHECK(fabs(ty - wy) <= 2e-3 * wy && fabs(tz - wz) <= 2e-3 * wz, "flexible3d cantilever: "
              "tip %.6g m and %.6g m against F L^3 / (3 EI) %.6g and %.6g m (0.2 %%: the modal "
              "truncation)", ty, tz, wy, wz);
    }
    csv_free(&t);
    if (run_text("flex3_stop", stop_text, &t) == JNT_OK) {
        double ty = csv_col(&t, "ty")[t.nrow - 1], f = csv_col(&t, "f")[t.nrow - 1];
        double kb = 3 * 28.7e3 / 8, kc = 1e6, g = 5e-3, d = (100 + kc * g) / (kb + kc);
        /* k_b carries the basis's 0.06 % truncation: 7e-6 in d, 7e-4 in the force */
        CHECK(fabs(ty - d) <= 2e-5 * d && fabs(f - kc * (d - g)) <= 2e-3 * kc * (d - g),
              "flexible3d cantilever against a stop at its tip node: tip %.8g m, contact %.5g N "
              "against (F + k_c g)/(k_b + k_c) = %.8g m, %.5g N (2e-5, 2e-3)", ty, f, d,
              kc * (d - g));
    }
    csv_free(&t);
    if (run_text("flex3_arm", arm_text, &t) == JNT_OK) {
        double F = 50, a = 0.5, L = 2, EI = 28.2e3;
        double tz = csv_col(&t, "tz")[t.nrow - 1], sl = csv_col(&t, "slope")[t.nrow - 1];
        double my = csv_col(&t, "my")[t.nrow - 1];
        double wz = F * L * L * L / (3 * EI) + F * a * L * L / (2 * EI);
        double ws = F * L * L / (2 * EI) + F * a * L / EI;
        /* 5e-5: O(theta^2) = 2.8e-5, the node's rotation linearised as the
         * beam's is, the moment arm shortened by a (1 - cos theta) */
        CHECK(fabs(tz - wz) <= 5e-5 * wz && fabs(sl - ws) <= 5e-5 * ws &&
              fabs(my - F * (L + a)) <= 1e-4 * F * (L + a), "an arm welded to a flexible3d "
              "cantilever's tip node carries its moment: tip %.8g m, slope %.8g, root moment "
              "%.6g N m against %.8g m, %.8g, %.6g N m (5e-5, 5e-5, 1e-4)", tz, sl, my, wz,
              ws, F * (L + a));
    }
    csv_free(&t);
    return check_done();
}
