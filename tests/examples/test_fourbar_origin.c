/*
 * test_fourbar_origin.c: examples/fourbar_origin.jnt, a four-bar whose
 * bodies all start at the origin with only the crank's joint angle given
 * (issue 28 items 2-3: `init pinA.angle = th1`, a pin of the assembly),
 * against its hand-placed twin: the same file with that line replaced by
 * the closed pose written out (the one examples/fourbar.jnt places, elbow
 * up). The assembled pose closes every joint to 1e-12 m, and every output
 * column over the first 0.5 s matches the twin's within 1e-9. A variant
 * with the crank's rate pinned too (`init pinA.angle.v = 2 rad/s`) starts
 * at that rate with the loop's velocity constraints met; the crank's pin
 * marker's height or its centre's, pinned by fixed(...) in place of the
 * angle, give the same motion. Pins the joints
 * cannot meet (the crank's body angle against its joint angle; a second
 * joint angle of the one-degree-of-freedom loop) are refused at the start
 * of the run, the message naming them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846
#define NROW 51 /* every 10 ms to 0.5 s */

static const char *const path = "examples/fourbar_origin.jnt";
static const char *const pin_line = "init pinA.angle = th1\n";

/* The hand-placed pose (examples/fourbar.jnt's), replacing the pin. */
static const char *const placed =
    "param Bx  = L1 * cos(th1)\nparam By  = L1 * sin(th1)\n"
    "param d   = sqrt((L0 - Bx)^2 + By^2)\n"
    "param psi = atan2(-By, L0 - Bx) + acos((L2^2 + d^2 - L3^2) / (2 * L2 * d))\n"
    "param Cx  = Bx + L2 * cos(psi)\nparam Cy  = By + L2 * sin(psi)\n"
    "init crank.x = Bx / 2\ninit crank.y = By / 2\ninit crank.angle = th1\n"
    "init coupler.x = (Bx + Cx) / 2\ninit coupler.y = (By + Cy) / 2\n"
    "init coupler.angle = psi\ninit rocker.x = (L0 + Cx) / 2\ninit rocker.y = Cy / 2\n"
    "init rocker.angle = atan2(Cy, Cx - L0)\n";

/* The example's text with `from` replaced by `to` (once), or NULL. */
static char *edited(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at)
        return NULL;
    size_t n = strlen(text) + strlen(to) + 1, k = (size_t)(at - text);
    char *s = malloc(n);
    memcpy(s, text, k);
    strcpy(s + k, to);
    strcat(s, at + strlen(from));
    return s;
}

static char *read_file(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    char *s = calloc(1, 1 << 16);
    size_t n = fread(s, 1, (1 << 16) - 1, f);
    fclose(f);
    s[n] = 0;
    return s;
}

/* Compile text and run it to 0.5 s: its rows in rows (NROW x ncol); the
 * number of rows, or -1. */
static long run_text(const char *name, const char *text, double *rows, int *ncol)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string(name, text, NULL, &m);
    CHECK(rc == JNT_OK, "compile %s", name);
    if (rc != JNT_OK)
        return -1;
    jnt_data *d = jnt_data_new(m);
    long n = 0;
    jnt_run_opts o = {.csv_path = "", .t_end = 0.5, .rows = rows, .rows_cap = NROW,
                      .rows_n = &n};
    rc = jnt_run(m, d, &o);
    CHECK(rc == JNT_OK && n == NROW, "%s runs to 0.5 s (%ld rows)%s%s", name, n,
          rc ? ": " : "", rc ? jnt_data_error(d) : "");
    *ncol = jnt_output_count(m);
    jnt_data_free(d);
    jnt_model_free(m);
    return rc == JNT_OK ? n : -1;
}

/* The largest residual of the four joints at output row r: columns th1,
 * th2, th3, x1, y1, x2, y2, x3, y3 from 1 (examples/fourbar_origin.jnt). */
static double joints_off(const double *r)
{
    const double L0 = 0.2, L1 = 0.1, L2 = 0.22, L3 = 0.18;
    double t1 = r[1], t2 = r[2], t3 = r[3];
    double A[2] = {r[4] - L1 / 2 * cos(t1), r[5] - L1 / 2 * sin(t1)};
    double B1[2] = {r[4] + L1 / 2 * cos(t1), r[5] + L1 / 2 * sin(t1)};
    double B2[2] = {r[6] - L2 / 2 * cos(t2), r[7] - L2 / 2 * sin(t2)};
    double C2[2] = {r[6] + L2 / 2 * cos(t2), r[7] + L2 / 2 * sin(t2)};
    double C3[2] = {r[8] + L3 / 2 * cos(t3), r[9] + L3 / 2 * sin(t3)};
    double D[2] = {r[8] - L3 / 2 * cos(t3) - L0, r[9] - L3 / 2 * sin(t3)};
    double e = 0;
    for (int k = 0; k < 2; k++) {
        e = fmax(e, fabs(A[k]));
        e = fmax(e, fabs(B1[k] - B2[k]));
        e = fmax(e, fabs(C2[k] - C3[k]));
        e = fmax(e, fabs(D[k]));
    }
    return e;
}

int main(void)
{
    char *text = read_file(path);
    CHECK(text && strstr(text, pin_line), "%s gives only the crank's joint angle", path);
    if (!text || !strstr(text, pin_line))
        return check_done();
    /* the example starts every body at the origin: no other init */
    int inits = 0;
    for (const char *s = text; (s = strstr(s, "\ninit ")); s++)
        inits++;
    CHECK(inits == 1, "one init in %s (got %d)", path, inits);
    char *twin = edited(text, pin_line, placed);
    double *a = calloc(NROW * 16, sizeof *a), *b = calloc(NROW * 16, sizeof *b);
    int na = 0, nb = 0;
    long ra = run_text("fourbar_origin", text, a, &na);
    long rb = run_text("fourbar_placed", twin, b, &nb);
    if (ra == NROW && rb == NROW && na == nb && na <= 16) {
        CHECK_NEAR(a[1], 60 * PI / 180, 1e-15, "the crank starts at its pinned 60 deg");
        double e0 = joints_off(a), e0b = joints_off(b);
        MEASURE("fourbar_origin.joints", e0);
        CHECK(e0 < 1e-12, "assembled from the origin: the joints close to %.2g m (< 1e-12; the "
              "hand-placed pose: %.2g m)", e0, e0b);
        double worst = 0;
        int col = 0;
        long row = 0;
        for (long i = 0; i < NROW; i++)
            for (int c = 0; c < na; c++) {
                double dlt = fabs(a[i * na + c] - b[i * na + c]);
                if (dlt > worst)
                    worst = dlt, col = c, row = i;
            }
        MEASURE("fourbar_origin.twin", worst);
        CHECK(worst < 1e-9, "every column over 0.5 s within 1e-9 of the hand-placed model's "
              "(worst %.2g, column %d at t = %.2f s)", worst, col, a[row * na]);
    }
    /* the same pose from a pinned marker or body coordinate instead of the
     * joint angle (crank.B.y = L1 sin 60 deg: 60 or 120 deg, the least move
     * from the origin takes 60) */
    static const char *const other[2] = {"init crank.B.y = fixed(L1 * sin(th1))\n",
                                         "init crank.y = fixed(L1 / 2 * sin(th1))\n"};
    for (int k = 0; k < 2 && rb == NROW; k++) {
        char *s = edited(text, pin_line, other[k]);
        double *o = calloc(NROW * 16, sizeof *o);
        int no = 0;
        if (s && run_text(k ? "fourbar_body_pin" : "fourbar_marker_pin", s, o, &no) == NROW &&
            no == nb) {
            double worst = 0;
            for (long i = 0; i < NROW * nb; i++)
                worst = fmax(worst, fabs(o[i] - b[i]));
            CHECK(worst < 1e-9, "%.*s: the hand-placed model's motion within 1e-9 over 0.5 s "
                  "(worst %.2g)", (int)strcspn(other[k], "\n"), other[k], worst);
        }
        free(s), free(o);
    }
    /* the crank's rate pinned too: the velocities start on the loop */
    char *rated = edited(text, pin_line, "init pinA.angle = th1\ninit pinA.angle.v = 2 rad/s\n");
    char *rated2 = rated ? edited(rated, "t, th1 = crank.angle,",
                                  "t, th1 = crank.angle, w1 = crank.angle.v, vB = "
                                  "(crank.B.vx - coupler.B.vx)^2 + (crank.B.vy - coupler.B.vy)^2"
                                  " + (coupler.C.vx - rocker.C.vx)^2 + (coupler.C.vy - "
                                  "rocker.C.vy)^2 + rocker.D.vx^2 + rocker.D.vy^2,") : NULL;
    double *c = calloc(NROW * 16, sizeof *c);
    int nc = 0;
    if (rated2 && run_text("fourbar_rate", rated2, c, &nc) == NROW) {
        CHECK_NEAR(c[2], 2.0, 1e-12, "pinA.angle.v = 2 rad/s: the crank starts at 2 rad/s");
        MEASURE("fourbar_origin.rate_markers", sqrt(c[3]));
        CHECK(sqrt(c[3]) < 1e-12, "and the joints' markers move together (relative speed "
              "%.2g m/s)", sqrt(c[3]));
    }
    /* pins the joints cannot meet: the run refuses at t = 0, naming them */
    static const char *const bad[2][3] = {
        {"init pinA.angle = th1\ninit crank.angle = fixed(10 deg)\n", "'crank'", "'pinA'"},
        {"init pinA.angle = th1\ninit pinD.angle = 90 deg\n", "'pinD'", "'pinA'"}};
    for (int k = 0; k < 2; k++) {
        char *s = edited(text, pin_line, bad[k][0]);
        jnt_model *m = NULL;
        if (!s || jnt_compile_string("fourbar_bad", s, NULL, &m) != JNT_OK) {
            CHECK(0, "compile the contradicting pins %d", k);
            free(s);
            continue;
        }
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o = {.csv_path = "", .t_end = 0.5};
        int rc = jnt_run(m, d, &o);
        const char *e = jnt_data_error(d);
        CHECK(rc == JNT_ERR_MODEL && e && strstr(e, "cannot be assembled") &&
              strstr(e, bad[k][1]) && strstr(e, bad[k][2]),
              "pins that contradict the joints (%s) are refused at the start, naming %s and "
              "%s: %s", k ? "the rocker's joint angle too, on a loop of one degree of freedom" : "crank.angle against "
              "pinA.angle", bad[k][1], bad[k][2], e ? e : "(no message)");
        jnt_data_free(d);
        jnt_model_free(m);
        free(s);
    }
    free(a), free(b), free(c), free(text), free(twin), free(rated), free(rated2);
    return check_done();
}
