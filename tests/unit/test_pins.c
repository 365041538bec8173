/*
 * test_pins.c: the assembly pins a model declares (issue 28 items 2-3;
 * compiler/sema/pins.c, lower/gen_kernel.c's pins kernel, jnt_abi_model.pins): their
 * names and kinds, their residuals against the quantities written out by
 * hand, and their gradient rows against central differences of the
 * residuals (over q for a position pin, over v for a rate pin), at random
 * states of a planar four-bar with a slider and of a spatial crank.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/data.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

/* A four-bar (crank A, coupler, rocker D) and a slider on the coupler's
 * end: every kind of pin of a planar model. */
static const char *const planar_text =
    "model pins2d\n"
    "param a = 0.1 m\nparam b = 0.35 m\nparam c = 0.3 m\nparam d = 0.3 m\n"
    "param th0 = 30 deg\n"
    "body crank : rigid2d(mass = 1 kg, inertia = 1e-3 kg*m^2) {\n"
    "  marker O = (-a / 2, 0 m)\n  marker E = (a / 2, 0 m)\n}\n"
    "body coupler : rigid2d(mass = 1 kg, inertia = 1e-2 kg*m^2) {\n"
    "  marker S = (-b / 2, 0 m)\n  marker E = (b / 2, 0 m)\n}\n"
    "body rocker : rigid2d(mass = 1 kg, inertia = 1e-2 kg*m^2) {\n"
    "  marker S = (-c / 2, 0 m)\n  marker E = (c / 2, 0 m)\n}\n"
    "body slider : rigid2d(mass = 1 kg, inertia = 1e-3 kg*m^2) {\n"
    "  marker P = (0 m, 0 m)\n}\n"
    "joint A : revolute(crank.O, (0 m, 0 m))\n"
    "joint B : revolute(crank.E, coupler.S)\n"
    "joint C : revolute(coupler.E, rocker.E)\n"
    "joint D : revolute(rocker.S, (d, 0 m))\n"
    "joint rail : prismatic(slider.P, coupler.S, axis = (1, 1))\n"
    "init A.angle = th0\n"
    "init A.angle.v = 2 rad/s\n"
    "init rail.s = 5 cm\n"
    "init rail.speed = 0.1 m/s\n"
    "init rocker.x = fixed(0.2 m)\n"
    "init coupler.angle.v = fixed(-1 rad/s)\n"
    "init rocker.E.y = fixed(0.15 m)\n"
    "init crank.E.vx = fixed(0.3 m/s)\n"
    "simulate { integrator = hht(h = 1 ms)  until = 1 ms }\n";

/* A crank turning about x on a spatial revolute joint: its angle (atan2 of
 * its axes) is pinned modulo 2 pi. */
static const char *const spatial_text =
    "model pins3d\n"
    "body crank : rigid3d(mass = 1 kg, inertia = (1e-3 kg*m^2, 1e-3 kg*m^2, 1e-3 kg*m^2)) {\n"
    "  marker o = (0 m, -0.05 m, 0 m)\n}\n"
    "joint h : revolute(crank.o, (0 m, 0 m, 0 m), axis = (1, 0, 0))\n"
    "init h.angle = 200 deg\n"
    "init crank.y = 0.05 m\n"
    "simulate { integrator = hht(h = 1 ms)  until = 1 ms }\n";

static double urand(void)
{
    return rand() / (RAND_MAX + 1.0);
}

/* The largest difference between the kernel's gradient rows and central
 * differences of its residuals, over nstates random states near y0. */
static double fd_error(const jnt_abi_model *a, const double *p, double *y, int nstates)
{
    int n = a->npins, nq = a->nq;
    double *r = malloc((size_t)n * sizeof *r), *g = malloc((size_t)n * nq * sizeof *g);
    double *rp = malloc((size_t)n * sizeof *rp), *rm = malloc((size_t)n * sizeof *rm);
    double *gs = malloc((size_t)n * nq * sizeof *gs), worst = 0;
    for (int s = 0; s < nstates; s++) {
        for (int i = 0; i < 2 * nq; i++)
            y[i] += 0.2 * (urand() - 0.5);
        a->pins(0.0, y, p, r, g);
        for (int j = 0; j < nq; j++)
            for (int v = 0; v < 2; v++) {
                /* column j of q (v = 0) or of v (v = 1) */
                double h = 1e-6, keep = y[v * nq + j];
                y[v * nq + j] = keep + h;
                a->pins(0.0, y, p, rp, gs);
                y[v * nq + j] = keep - h;
                a->pins(0.0, y, p, rm, gs);
                y[v * nq + j] = keep;
                for (int k = 0; k < n; k++) {
                    double fd = (rp[k] - rm[k]) / (2 * h);
                    if (a->pin_rate[k] == v)
                        worst = fmax(worst, fabs(fd - g[k * nq + j]));
                    else if (v == 1) /* a position pin does not depend on v */
                        worst = fmax(worst, fabs(fd));
                }
            }
    }
    free(r), free(g), free(rp), free(rm), free(gs);
    return worst;
}

static int pin_index(const jnt_abi_model *a, const char *name)
{
    for (int k = 0; k < a->npins; k++)
        if (strcmp(a->pin_names[k], name) == 0)
            return k;
    return -1;
}

static void planar(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("pins2d", planar_text, NULL, &m);
    CHECK(rc == JNT_OK, "compile the planar model with pins");
    if (rc != JNT_OK)
        return;
    const jnt_abi_model *a = jnt_model_abi(m);
    jnt_data *d = jnt_data_new(m);
    CHECK(jnt_init_state(m, d) == JNT_OK, "the parameters' defaults");
    static const char *const names[8] = {"A.angle", "A.angle.v", "rail.s", "rail.s.v",
                                         "rocker.x", "coupler.angle.v", "rocker.E.y",
                                         "crank.E.vx"};
    static const int rate[8] = {0, 1, 0, 1, 0, 1, 0, 1};
    int ok = a->npins == 8;
    for (int k = 0; ok && k < 8; k++)
        ok = strcmp(a->pin_names[k], names[k]) == 0 && a->pin_rate[k] == rate[k];
    CHECK(ok, "8 pins, named and of their kinds in the order written (got %d)", a->npins);
    if (!ok) {
        jnt_data_free(d);
        jnt_model_free(m);
        return;
    }
    int nq = a->nq;
    double *y = calloc((size_t)a->ny, sizeof *y), r[8], *g = calloc((size_t)8 * nq, sizeof *g);
    srand(11);
    for (int i = 0; i < 2 * nq; i++)
        y[i] = urand() - 0.5;
    a->pins(0.0, y, d->p, r, g);
    /* the residuals by hand: q = crank (x, y, angle), coupler, rocker, slider */
    int cx = jnt_state_index(m, "crank.x"), ca = jnt_state_index(m, "crank.angle");
    int ua = jnt_state_index(m, "coupler.angle"), rx = jnt_state_index(m, "rocker.x");
    int ry = jnt_state_index(m, "rocker.y"), ra = jnt_state_index(m, "rocker.angle");
    int sx = jnt_state_index(m, "slider.x"), ux = jnt_state_index(m, "coupler.x");
    int sy = jnt_state_index(m, "slider.y"), uy = jnt_state_index(m, "coupler.y");
    CHECK_NEAR(r[pin_index(a, "A.angle")], y[ca] - PI / 6, 1e-15, "A.angle: crank.angle - 30 deg");
    CHECK_NEAR(r[pin_index(a, "A.angle.v")], y[nq + ca] - 2, 1e-15,
               "A.angle.v: crank.angle.v - 2 rad/s");
    CHECK_NEAR(r[pin_index(a, "rocker.x")], y[rx] - 0.2, 1e-15, "rocker.x - 0.2 m");
    CHECK_NEAR(r[pin_index(a, "coupler.angle.v")], y[nq + ua] + 1, 1e-15,
               "coupler.angle.v + 1 rad/s");
    CHECK_NEAR(r[pin_index(a, "rocker.E.y")], y[ry] + 0.15 * sin(y[ra]) - 0.15, 1e-15,
               "rocker.E.y - 0.15 m: y + sin(angle) c/2");
    CHECK_NEAR(r[pin_index(a, "crank.E.vx")], y[nq + cx] - 0.05 * sin(y[ca]) * y[nq + ca] - 0.3,
               1e-15, "crank.E.vx - 0.3 m/s: vx - sin(angle) a/2 angle.v");
    /* the slide along the axis (1, 1)/sqrt 2 turned with the coupler, from
     * its marker S to the slider's P */
    double e0 = (cos(y[ua]) - sin(y[ua])) / sqrt(2), e1 = (sin(y[ua]) + cos(y[ua])) / sqrt(2);
    double Sx = y[ux] - 0.175 * cos(y[ua]), Sy = y[uy] - 0.175 * sin(y[ua]);
    CHECK_NEAR(r[pin_index(a, "rail.s")], e0 * (y[sx] - Sx) + e1 * (y[sy] - Sy) - 0.05, 1e-15,
               "rail.s - 5 cm: e . (P - S)");
    /* a rate pin's row is its position quantity's gradient */
    int k0 = pin_index(a, "A.angle"), k1 = pin_index(a, "A.angle.v");
    int k2 = pin_index(a, "rail.s"), k3 = pin_index(a, "rail.s.v"), same = 1;
    for (int j = 0; j < nq; j++)
        same &= g[k0 * nq + j] == g[k1 * nq + j] && fabs(g[k2 * nq + j] - g[k3 * nq + j]) < 1e-15;
    CHECK(same, "the rows of A.angle.v and rail.s.v are those of A.angle and rail.s");
    double e = fd_error(a, d->p, y, 20);
    MEASURE("pins.fd_worst", e);
    CHECK(e < 1e-8, "gradient rows match central differences at 20 states (worst %.2g)", e);
    /* -D changes the value, not the kernel */
    CHECK(jnt_set_param(m, d, "th0", PI / 4) == JNT_OK && jnt_init_state(m, d) == JNT_OK,
          "-D th0 = 45 deg");
    a->pins(0.0, y, d->p, r, g);
    CHECK_NEAR(r[k0], y[ca] - PI / 4, 1e-15, "A.angle with th0 = 45 deg");
    free(y), free(g);
    jnt_data_free(d);
    jnt_model_free(m);
}

static void spatial(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("pins3d", spatial_text, NULL, &m);
    CHECK(rc == JNT_OK, "compile the spatial model with a pinned angle");
    if (rc != JNT_OK)
        return;
    const jnt_abi_model *a = jnt_model_abi(m);
    jnt_data *d = jnt_data_new(m);
    jnt_init_state(m, d);
    CHECK(a->npins == 1 && strcmp(a->pin_names[0], "h.angle") == 0 && a->pin_rate[0] == 0,
          "one position pin h.angle (init crank.y is a guess, not a pin)");
    if (a->npins == 1) {
        int nq = a->nq;
        double *y = calloc((size_t)a->ny, sizeof *y), r, *g = calloc((size_t)nq, sizeof *g);
        /* directors turned by th about x: d2 = (0, cos, sin), d3 = (0, -sin, cos) */
        int d1 = jnt_state_index(m, "crank.d1x");
        double worst = 0;
        for (int s = 0; s < 36; s++) {
            double th = -PI + 2 * PI * s / 36 + 0.01;
            memset(y, 0, (size_t)a->ny * sizeof *y);
            y[d1] = 1, y[d1 + 4] = cos(th), y[d1 + 5] = sin(th);
            y[d1 + 7] = -sin(th), y[d1 + 8] = cos(th);
            a->pins(0.0, y, d->p, &r, g);
            /* th - 200 deg, wrapped into [-pi, pi) */
            double want = th - 200 * PI / 180;
            want -= 2 * PI * floor(want / (2 * PI) + 0.5);
            worst = fmax(worst, fabs(r - want));
        }
        CHECK(worst < 1e-12, "h.angle's residual is the angle minus 200 deg modulo 2 pi at 36 "
              "angles (worst %.2g)", worst);
        srand(5);
        for (int i = 0; i < 2 * nq; i++)
            y[i] = urand() - 0.5;
        double e = fd_error(a, d->p, y, 10);
        CHECK(e < 1e-7, "its gradient row matches central differences (worst %.2g)", e);
        free(y), free(g);
    }
    jnt_data_free(d);
    jnt_model_free(m);
}

/* A model without pins has none in its table. */
static void none(void)
{
    jnt_model *m = NULL;
    const char *text = "model nopin\n"
                       "body b : rigid2d(mass = 1 kg, inertia = 1 kg*m^2) {\n"
                       "  marker o = (0 m, 0 m)\n}\n"
                       "joint j : revolute(b.o, (0 m, 0 m))\n"
                       "init b.x = 1 mm\n"
                       "simulate { integrator = hht(h = 1 ms)  until = 1 ms }\n";
    int rc = jnt_compile_string("nopin", text, NULL, &m);
    const jnt_abi_model *a = rc == JNT_OK ? jnt_model_abi(m) : NULL;
    CHECK(a && a->npins == 0 && !a->pin_names && !a->pin_rate && !a->pins,
          "no pins: 0 and NULL in the table (an init of a body's coordinate is a guess)");
    jnt_model_free(m);
}

int main(void)
{
    planar();
    spatial();
    none();
    return check_done();
}
