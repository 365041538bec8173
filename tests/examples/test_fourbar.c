/*
 * test_fourbar.c: assembly at the start of a multibody run (issue 28
 * items 1, 5, 6; runtime/integrate/assemble.c). The planar four-bar of
 * examples/fourbar.jnt, placed by hand on the loop, must not move; the
 * same four-bar from a sketch 5 cm off (examples/fourbar_guess.jnt) must
 * close to 1e-12 of its length scale on the loop's elbow-up branch (the
 * closed form of the four-bar's pose for the crank angle it reaches), and
 * run; a link that cannot close, a redundant spatial loop (four revolute
 * joints on parallel axes) and a toggle pose are refused with the joints
 * named (every body of examples/fourbar.jnt 5 cm off assembles too);
 * examples/fourbar_spatial.jnt (revolute, universal, spherical,
 * revolute) assembles and keeps its energy with the midpoint rule. The
 * sweep over L1 is tests/assembly/fourbar.sh.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

static const double L0 = 0.20, L1 = 0.10, L2 = 0.22, L3 = 0.18;

static jnt_model *compile_text(const char *name, const char *text)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string(name, text, NULL, &m);
    CHECK(rc == JNT_OK && m, "compile %s", name);
    return rc == JNT_OK ? m : NULL;
}

static jnt_model *compile(const char *path)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_file(path, NULL, &m);
    CHECK(rc == JNT_OK && m, "compile %s", path);
    return rc == JNT_OK ? m : NULL;
}

/* The largest distance of the four joints' markers at row i (the bodies'
 * x, y, angle in the CSV): pinA, pinB, pinC, pinD. */
static double loop_gap(const csv_table *t, int i)
{
    double x1 = csv_col(t, "x1")[i], y1 = csv_col(t, "y1")[i], a1 = csv_col(t, "th1")[i];
    double x2 = csv_col(t, "x2")[i], y2 = csv_col(t, "y2")[i], a2 = csv_col(t, "th2")[i];
    double x3 = csv_col(t, "x3")[i], y3 = csv_col(t, "y3")[i], a3 = csv_col(t, "th3")[i];
    double g[4] = {
        hypot(x1 - L1 / 2 * cos(a1), y1 - L1 / 2 * sin(a1)),
        hypot(x1 + L1 / 2 * cos(a1) - (x2 - L2 / 2 * cos(a2)),
              y1 + L1 / 2 * sin(a1) - (y2 - L2 / 2 * sin(a2))),
        hypot(x2 + L2 / 2 * cos(a2) - (x3 + L3 / 2 * cos(a3)),
              y2 + L2 / 2 * sin(a2) - (y3 + L3 / 2 * sin(a3))),
        hypot(x3 - L3 / 2 * cos(a3) - L0, y3 - L3 / 2 * sin(a3))};
    return fmax(fmax(g[0], g[1]), fmax(g[2], g[3]));
}

/* The closed pose for crank angle th (elbow up): the coupler's and the
 * rocker's angles. */
static void closed_pose(double th, double *psi, double *th3)
{
    double bx = L1 * cos(th), by = L1 * sin(th), d = hypot(L0 - bx, by);
    *psi = atan2(-by, L0 - bx) + acos((L2 * L2 + d * d - L3 * L3) / (2 * L2 * d));
    double cx = bx + L2 * cos(*psi), cy = by + L2 * sin(*psi);
    *th3 = atan2(cy, cx - L0);
}

static double drift(const csv_table *t, const char *col)
{
    const double *e = csv_col(t, col);
    double d = 0;
    for (int i = 0; i < t->nrow; i++)
        d = fmax(d, fabs(e[i] - e[0]));
    return d;
}

static double col_max(const csv_table *t, const char *col)
{
    const double *e = csv_col(t, col);
    double d = 0;
    for (int i = 0; i < t->nrow; i++)
        d = fmax(d, fabs(e[i]));
    return d;
}

/* examples/fourbar.jnt: placed on the loop by hand, moves by nothing. */
static void hand_placed(void)
{
    jnt_model *m = compile("examples/fourbar.jnt");
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("fourbar.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "the hand-placed four-bar runs");
    if (rc == JNT_OK) {
        const double th = 60 * 3.14159265358979323846 / 180;
        double psi, th3;
        closed_pose(th, &psi, &th3);
        double bx = L1 * cos(th), by = L1 * sin(th);
        double cx = bx + L2 * cos(psi), cy = by + L2 * sin(psi);
        double want[9] = {bx / 2, by / 2, th, (bx + cx) / 2, (by + cy) / 2, psi,
                          (L0 + cx) / 2, cy / 2, th3};
        static const char *const cols[9] = {"x1", "y1", "th1", "x2", "y2", "th2", "x3", "y3",
                                            "th3"};
        double moved = 0;
        for (int k = 0; k < 9; k++)
            moved = fmax(moved, fabs(csv_col(&t, cols[k])[0] - want[k]));
        CHECK(moved < 1e-12, "hand-placed four-bar: the assembly moves its coordinates by %.3g "
              "(m or rad; 1e-12)", moved);
        double e0 = csv_col(&t, "E")[0], de = drift(&t, "E"), rc_ = col_max(&t, "r_C");
        MEASURE("fourbar.hand.energy_drift", de);
        MEASURE("fourbar.hand.energy", e0);
        MEASURE("fourbar.hand.pinC", rc_);
        CHECK(de <= 1e-4 * e0, "hand-placed four-bar, hht alpha 0, h 0.5 ms, 2 s: energy "
              "within %.3g J of %.6g J (1e-4 relative)", de, e0);
        CHECK(rc_ <= 1e-12, "hand-placed four-bar: pinC's markers at most %.3g m apart over the "
              "run (1e-12)", rc_);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* examples/fourbar_guess.jnt: a sketch 5 cm off, assembled and run. */
static void guessed(void)
{
    jnt_model *m = compile("examples/fourbar_guess.jnt");
    if (!m)
        return;
    csv_table t;
    int rc = run_csv(m, test_out("fourbar_guess.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "the four-bar from a sketch 5 cm off assembles and runs");
    if (rc == JNT_OK) {
        double gap = loop_gap(&t, 0), Ls = 0.25;
        MEASURE("fourbar.guess.gap0", gap);
        CHECK(gap <= 1e-12 * Ls, "assembled from the sketch: the joints' markers %.3g m apart "
              "at t = 0 (1e-12 of the length scale %.2g m)", gap, Ls);
        /* the coupler was drawn at (0.15 m, 0.18 m): how far it moved */
        double mv = hypot(csv_col(&t, "x2")[0] - 0.15, csv_col(&t, "y2")[0] - 0.18);
        MEASURE("fourbar.guess.coupler_moved", mv);
        CHECK(mv > 0.04 && mv < 0.06, "the coupler moved %.4f m from its sketched place onto "
              "the loop (about 5 cm)", mv);
        double psi, th3;
        closed_pose(csv_col(&t, "th1")[0], &psi, &th3);
        double e = fmax(fabs(csv_col(&t, "th2")[0] - psi), fabs(csv_col(&t, "th3")[0] - th3));
        MEASURE("fourbar.guess.pose", e);
        CHECK(e <= 1e-11, "the assembled pose is the elbow-up closed form at the crank angle "
              "it reached (%.6f rad): %.3g rad (1e-11)", csv_col(&t, "th1")[0], e);
        double worst = 0;
        for (int i = 0; i < t.nrow; i++)
            worst = fmax(worst, loop_gap(&t, i));
        CHECK(worst <= 1e-10, "the four-bar from the sketch keeps its loop closed: %.3g m at "
              "worst over 2 s (1e-10)", worst);
    }
    /* jnt_step's first step assembles as jnt_run does: the rows at 10 ms agree */
    if (rc == JNT_OK) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o = {.csv_path = ""};
        int rs = jnt_step(m, d, &o);
        double e = 0;
        static const char *const st[3] = {"coupler.x", "coupler.y", "rocker.angle"};
        static const char *const cl[3] = {"x2", "y2", "th3"};
        for (int k = 0; k < 3; k++)
            e = fmax(e, fabs(jnt_state(m, d, jnt_state_index(m, st[k])) - csv_col(&t, cl[k])[1]));
        CHECK(rs == JNT_OK && e <= 1e-12, "jnt_step from the sketch assembles as jnt_run does: "
              "the state at 10 ms within %.3g of the run's row (1e-12)", e);
        for (int k = 0; k < 5 && rs == JNT_OK; k++)
            rs = jnt_step(m, d, &o);
        CHECK(rs == JNT_OK, "and steps on (resumed runs keep the assembled state)");
        jnt_data_free(d);
    }
    csv_free(&t);
    /* a crank longer than the three other links together cannot close */
    jnt_data *d = jnt_data_new(m);
    jnt_set_param_text(m, d, "L1=0.7m");
    jnt_run_opts o = {.csv_path = ""};
    rc = jnt_run(m, d, &o);
    const char *err = jnt_data_error(d);
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "t = 0 s: the joints cannot be assembled: the "
                                        "constraints of joints 'pinA' (") &&
          strstr(err, "'pinB' (") && strstr(err, "'pinC' (") && strstr(err, "'pinD' (") &&
          strstr(err, "remain at the closest pose") && strstr(err, "a link too short or too long"),
          "L1 = 0.7 m (longer than the other links together) refused naming the joints: %s",
          err);
    jnt_data_free(d);
    jnt_model_free(m);
}

/* examples/fourbar.jnt with every body's x and y 5 cm off (+5, -5 cm by
 * turns) and its angles 0.1 rad off: assembled onto the loop. */
static void offset(void)
{
    char *src = read_text("examples/fourbar.jnt");
    static const char *const from[6][2] = {
        {"init crank.x       = Bx / 2", "init crank.x       = Bx / 2 + 5 cm"},
        {"init crank.y       = By / 2", "init crank.y       = By / 2 - 5 cm"},
        {"init coupler.x     = (Bx + Cx) / 2", "init coupler.x     = (Bx + Cx) / 2 - 5 cm"},
        {"init coupler.y     = (By + Cy) / 2", "init coupler.y     = (By + Cy) / 2 + 5 cm"},
        {"init rocker.x      = (L0 + Cx) / 2", "init rocker.x      = (L0 + Cx) / 2 + 5 cm"},
        {"init rocker.y      = Cy / 2", "init rocker.y      = Cy / 2 + 5 cm"}};
    char *t = src;
    for (int k = 0; k < 6 && t; k++) {
        char *u = text_sub(t, from[k][0], from[k][1]);
        if (t != src)
            free(t);
        t = u;
    }
    char *u = t ? text_sub(t, "init coupler.angle = psi", "init coupler.angle = psi + 0.1") : NULL;
    jnt_model *m = u ? compile_text("fourbar_5cm.jnt", u) : NULL;
    if (m) {
        csv_table tb;
        int rc = run_csv(m, test_out("fourbar_5cm.csv"), (jnt_run_opts){0}, NULL, &tb);
        double gap = rc == JNT_OK ? loop_gap(&tb, 0) : NAN, worst = 0;
        for (int i = 0; rc == JNT_OK && i < tb.nrow; i++)
            worst = fmax(worst, loop_gap(&tb, i));
        MEASURE("fourbar.offset.gap0", gap);
        MEASURE("fourbar.offset.worst", worst);
        CHECK(rc == JNT_OK && gap <= 1e-12 * 0.25 && worst <= 1e-10,
              "every body 5 cm off (and the coupler 0.1 rad): assembled to %.3g m at t = 0 "
              "(1e-12 of 0.25 m), %.3g m at worst over the 2 s run", gap, worst);
        csv_free(&tb);
        jnt_model_free(m);
    }
    if (t != src)
        free(t);
    free(src), free(u);
}

/* simulate { assemble_tol }: a loose tolerance stops early, and is checked. */
static void tolerance(void)
{
    char *src = read_text("examples/fourbar_guess.jnt");
    char *loose = src ? text_sub(src, "  until      = 2 s\n",
                                 "  until      = 10 ms\n  assemble_tol = 1 mm\n") : NULL;
    jnt_model *m = loose ? compile_text("loose.jnt", loose) : NULL;
    if (m) {
        csv_table t;
        int rc = run_csv(m, test_out("fourbar_loose.csv"), (jnt_run_opts){0}, NULL, &t);
        double gap = rc == JNT_OK ? loop_gap(&t, 0) : NAN;
        MEASURE("fourbar.loose.gap", gap);
        CHECK(rc == JNT_OK && gap > 1e-12 && gap <= 1e-3, "assemble_tol = 1 mm: the assembly "
              "stops at a gap of %.3g m (above 1e-12, at most 1 mm)", gap);
        csv_free(&t);
        jnt_model_free(m);
    }
    char *bad = src ? text_sub(src, "  until      = 2 s\n",
                               "  until      = 2 s\n  assemble_tol = 0 m\n") : NULL;
    jnt_model *mb = NULL;
    int rc = bad ? jnt_compile_string("bad.jnt", bad, NULL, &mb) : -1;
    CHECK(rc != JNT_OK && !mb, "assemble_tol = 0 m is refused when the model compiles");
    jnt_model_free(mb);
    free(src), free(loose), free(bad);
}

/* examples/fourbar_spatial.jnt, and the redundant loop of four revolute
 * joints refused with the joints named. */
static void spatial(void)
{
    jnt_model *m = compile("examples/fourbar_spatial.jnt");
    if (m) {
        csv_table t;
        int rc = run_csv(m, test_out("fourbar_spatial.csv"), (jnt_run_opts){0}, NULL, &t);
        CHECK(rc == JNT_OK, "the spatial four-bar (revolute, universal, spherical, revolute) "
              "assembles and runs");
        if (rc == JNT_OK) {
            double e0 = csv_col(&t, "E")[0], de = drift(&t, "E");
            double z = col_max(&t, "z2"), gap = col_max(&t, "r_C");
            CHECK(de <= 1e-10 * e0, "spatial four-bar, midpoint rule h 0.5 ms over 2 s: energy "
                  "within %.3g J of %.6g J (1e-10 relative)", de, e0);
            CHECK(z <= 1e-12 && gap <= 1e-12, "spatial four-bar stays in its plane (|z| %.3g m) "
                  "and closed (pinC %.3g m) (1e-12)", z, gap);
        }
        csv_free(&t);
        jnt_model_free(m);
    }
    /* the redundant loop of four revolute joints: 3 rows dropped; with every DAE
       method, beside the R-U-S-R model run the same way */
    static const char *integ[] = {"midpoint(h = 0.5 ms)", "generalized_alpha(h = 0.5 ms)",
                                  "hht(h = 0.5 ms)", "radau5"};
    static const char *file[] = {"examples/fourbar_spatial.jnt", "examples/fourbar_spatial_4r.jnt"};
    char *srcs[2] = {read_text(file[0]), read_text(file[1])};
    for (int i = 0; srcs[0] && srcs[1] && i < 4; i++) {
        csv_table t[2];
        int ok = 1;
        for (int f = 0; f < 2; f++) {
            char line[96];
            snprintf(line, sizeof line, "integrator = %s", integ[i]);
            char *txt = text_sub(srcs[f], "integrator = midpoint(h = 0.5 ms)", line);
            m = txt ? compile_text(file[f], txt) : NULL;
            free(txt);
            jnt_run_opts o = {.rtol = i == 3 ? 1e-9 : 0, .atol = i == 3 ? 1e-11 : 0};
            int rc = m ? run_csv(m, test_out(f ? "fourbar_4r.csv" : "fourbar_rusr.csv"), o, NULL,
                                 &t[f])
                       : JNT_ERR_MODEL;
            CHECK(rc == JNT_OK, "%s runs with %s%s", file[f], integ[i],
                  f ? " (redundant: 3 rows dropped)" : "");
            ok &= rc == JNT_OK;
            if (rc != JNT_OK)
                csv_free(&t[f]);
            jnt_model_free(m);
        }
        if (!ok)
            continue;
        double e0 = csv_col(&t[1], "E")[0], de = drift(&t[1], "E"), de_rusr = drift(&t[0], "E");
        double z = col_max(&t[1], "z2"), gap = col_max(&t[1], "r_C"), dx = 0.0;
        double dfy = 0.0, fy = 0.0, off = 0.0;
        for (int k = 0; k < t[0].nrow && k < t[1].nrow; k++) {
            dx = fmax(dx, fabs(csv_col(&t[0], "x3")[k] - csv_col(&t[1], "x3")[k]));
            dfy = fmax(dfy, fabs(csv_col(&t[0], "fyA")[k] - csv_col(&t[1], "fyA")[k]));
            fy = fmax(fy, fabs(csv_col(&t[0], "fyA")[k]));
            off = fmax(off, fmax(fabs(csv_col(&t[1], "mxA")[k]), fabs(csv_col(&t[1], "myA")[k])));
            off = fmax(off, fabs(csv_col(&t[1], "fzD")[k]));
        }
        /* radau5's multipliers are index-3 unknowns its error control weighs by h^2:
           measured 7.9e-5 relative apart */
        double ftol = i == 3 ? 3e-4 : 1e-6;
        CHECK(dfy <= ftol * fy && off == 0.0, "4R four-bar, %s: the in-plane reaction at pinA "
              "as the R-U-S-R model's (within %.3g N of %.3g N, %.0e relative); the dropped "
              "rows' reactions (pinA.mx, pinA.my, pinD.fz) reported as 0 (largest %.3g)",
              integ[i], dfy, fy, ftol, off);
        /* the midpoint rule conserves energy to rounding; the dissipative methods
           lose what they lose on the R-U-S-R model (measured 7.2e-5 relative for
           generalized_alpha, 9.2e-5 for hht, 1.1e-8 and 1.2e-8 for radau5 at rtol
           1e-9, whose step control sees the dropped multipliers too) */
        static const char *const key[4] = {"midpoint", "generalized_alpha", "hht", "radau5"};
        char k1[64], k2[64];
        snprintf(k1, sizeof k1, "fourbar.4r.energy_drift.%s", key[i]);
        snprintf(k2, sizeof k2, "fourbar.rusr.energy_drift.%s", key[i]);
        MEASURE(k1, de);
        MEASURE(k2, de_rusr);
        if (i == 0)
            MEASURE("fourbar.spatial.energy", e0);
        CHECK(i == 0 ? de <= 1e-10 * e0
                     : i == 3 ? de <= 2e-8 * e0
                              : fabs(de - de_rusr) <= 1e-3 * de_rusr + 1e-12 * e0,
              "4R four-bar, %s over 2 s: energy drift %.3g J of %.6g J (R-U-S-R: %.3g J; "
              "midpoint: 1e-10 relative; radau5, whose steps differ: 2e-8 relative; "
              "generalized_alpha, hht: the R-U-S-R drift within 0.1 %%)",
              integ[i], de, e0, de_rusr);
        CHECK(z <= 1e-12 && gap <= 1e-12, "4R four-bar, %s: in its plane (|z| %.3g m) and "
              "closed at pinC, whose rows include a dropped one (%.3g m) (1e-12)", integ[i], z,
              gap);
        CHECK(t[0].nrow == t[1].nrow && dx <= 1e-9, "4R and R-U-S-R four-bars move alike with "
              "%s (rocker x within %.3g m, 1e-9)", integ[i], dx);
        csv_free(&t[0]), csv_free(&t[1]);
    }
    free(srcs[0]), free(srcs[1]);
}

/* A toggle: a four-bar that closes only with its links in line. */
static void toggle(void)
{
    char *src = read_text("examples/fourbar_guess.jnt");
    /* L1 + L2 + L3 = L0: the loop closes only flat */
    char *a = src ? text_sub(src, "param L0  = 0.20 m", "param L0  = 0.50 m") : NULL;
    jnt_model *m = a ? compile_text("toggle.jnt", a) : NULL;
    if (m) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o = {.csv_path = ""};
        int rc = jnt_run(m, d, &o);
        const char *err = jnt_data_error(d);
        CHECK(rc == JNT_ERR_MODEL && (strstr(err, "the assembled pose is singular") ||
                                      strstr(err, "the pose reached is singular")),
              "a four-bar that closes only flat (L0 = L1 + L2 + L3): refused as singular: %s",
              err);
        jnt_data_free(d);
        jnt_model_free(m);
    }
    free(src), free(a);
}

int main(void)
{
    hand_placed();
    guessed();
    offset();
    tolerance();
    spatial();
    toggle();
    return check_done();
}
