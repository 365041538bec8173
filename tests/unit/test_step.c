/*
 * test_step.c: the stepping API (runtime/api/step.c) and rows in memory
 * (jnt_run_opts.rows, on_row): a run cut into output intervals equals the
 * whole run (rk4: to rounding; dopri5: to its tolerance), rows in a
 * caller's buffer equal the CSV, a state set between steps acts as an
 * initial condition (the closed form of a free oscillator), a callback stops
 * a run, misuse is refused with a message; a multibody state set between
 * steps is assembled again with the values set pinned (multibody_state).
 */
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

/* a driven, damped oscillator: x'' + 2 zeta w x' + w^2 x = F sin(2 t) / m */
static const char *src =
    "model osc\n"
    "param k = 100 N/m\n"
    "param F = 1 N\n"
    "body b : point(mass = 1 kg) { dof x }\n"
    "init b.x = 0.01 m\n"
    "spring s between b.x and ground { stiffness = k }\n"
    "damper c between b.x and ground { damping = 0.5 N*s/m }\n"
    "force f on b.x = F * sin(2 * t / 1 s)\n"
    "simulate { integrator = rk4(h = 1 ms)  until = 1 s }\n"
    "output \"osc.csv\" every 10 ms { t, x = b.x, v = b.v }\n";

static int count_rows(void *ctx, const double *row, int n)
{
    long *k = ctx;
    (void)row;
    (void)n;
    return ++*k >= 5; /* stop at the fifth row */
}

static double max_diff(const double *a, const double *b, long n)
{
    double e = 0;
    for (long i = 0; i < n; i++)
        e = fmax(e, fabs(a[i] - b[i]));
    return e;
}

/* jnt_model_inputs: the files a model was read from, which a run's output may not be. */
static void model_inputs(void)
{
    jnt_model *m = NULL;
    if (jnt_compile_file("examples/lap_joint.jnt", &(jnt_compile_opts){.diag = stderr}, &m) !=
        JNT_OK) {
        CHECK(0, "examples/lap_joint.jnt compiles");
        return;
    }
    const char *const *in = jnt_model_inputs(m);
    int n = 0, model = 0, mtx = 0, nodes = 0, stdlib = 0;
    for (; in && in[n]; n++) {
        const char *p = in[n], *b = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
        model += p[0] == '/' && !strcmp(b, "lap_joint.jnt");
        mtx += !strcmp(b, "M.mtx") || !strcmp(b, "K.mtx");
        nodes += !strcmp(b, "nodes.csv");
        stdlib += strstr(p, "/stdlib/") != NULL;
    }
    CHECK(model == 1 && mtx == 2 && nodes == 1 && stdlib >= 1, "jnt_model_inputs: the model, "
          "its two matrices, its node table and its stdlib imports, as real paths (%d files)", n);
    const char *k = jnt_model_input_at(m, "examples/../examples/lap_joint/K.mtx");
    CHECK(k && strstr(k, "/examples/lap_joint/K.mtx") &&
              !jnt_model_input_at(m, "examples/pendulum.jnt"),
          "jnt_model_input_at: a data file by another path, not another model (%s)", k);
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = {.csv_path = "examples/lap_joint/K.mtx", .t_end = 1e-4};
    int rc = jnt_run(m, d, &o);
    CHECK(rc == JNT_ERR_IO && strstr(jnt_data_error(d), "a file the model was compiled from"),
          "a run's output over one of them is refused: %s", jnt_data_error(d));
    jnt_data_free(d);
    jnt_model_set_inputs(m, NULL);
    CHECK(jnt_model_inputs(m) == NULL, "jnt_model_set_inputs replaces (and frees) the list");
    jnt_model_free(m);
}

/* Multibody states set between steps (jnt_assemble; docs/multibody.md, "States set between
 * steps") on examples/fourbar.jnt, a one-degree-of-freedom loop: a velocity set is kept as a
 * rate pin, the joints' velocity rows hold, a second one that contradicts it wins (set last)
 * and the first is projected, counted and named; jnt_step does the same and goes on; the
 * model's own pins apply at the start only (fourbar_origin stepped = its run). */
static double st(const jnt_model *m, const jnt_data *d, const char *name)
{
    return jnt_state(m, d, jnt_state_index(m, name));
}

/* |velocity of the crank's ground marker A| (pinA holds it still): A = (x, y) - L1/2 (cos th,
 * sin th), L1 = 0.1 m */
static double pin_a_speed(const jnt_model *m, const jnt_data *d)
{
    double th = st(m, d, "crank.angle"), w = st(m, d, "crank.angle.v");
    return hypot(st(m, d, "crank.x.v") + 0.05 * sin(th) * w,
                 st(m, d, "crank.y.v") - 0.05 * cos(th) * w);
}

static void multibody_state(void)
{
    jnt_model *m = NULL, *mo = NULL;
    if (jnt_compile_file("examples/fourbar.jnt", &(jnt_compile_opts){.diag = stderr}, &m) !=
            JNT_OK ||
        jnt_compile_file("examples/fourbar_origin.jnt", &(jnt_compile_opts){.diag = stderr},
                         &mo) != JNT_OK) {
        CHECK(0, "examples/fourbar.jnt and fourbar_origin.jnt compile");
        jnt_model_free(m);
        return;
    }
    jnt_data *d = jnt_data_new(m);
    int iw = jnt_state_index(m, "crank.angle.v"), ir = jnt_state_index(m, "rocker.angle.v");
    int rc = jnt_step(m, d, NULL);
    if (rc == JNT_OK)
        rc = jnt_set_state(m, d, iw, 5.0);
    CHECK(rc == JNT_OK && st(m, d, "crank.angle.v") == 5.0, "a velocity set reads back as set");
    rc = jnt_assemble(m, d);
    CHECK(rc == JNT_OK && fabs(st(m, d, "crank.angle.v") - 5.0) < 1e-12 && pin_a_speed(m, d) <
              1e-12, "jnt_assemble keeps crank.angle.v = 5 rad/s (%.17g) and moves the others: "
          "pinA's marker at %.2g m/s (before: projected, silently)",
          st(m, d, "crank.angle.v"), pin_a_speed(m, d));
    rc = jnt_step(m, d, NULL);
    CHECK(rc == JNT_OK && st(m, d, "crank.angle.v") > 4.0 && jnt_data_stats(d)->projected == 0,
          "the step goes on from 5 rad/s: %.4g rad/s at t = %g s (before: -0.73)",
          st(m, d, "crank.angle.v"), jnt_time(d));
    /* two velocities of one degree of freedom: the one set last is kept */
    rc = jnt_set_state(m, d, iw, 5.0);
    if (rc == JNT_OK)
        rc = jnt_set_state(m, d, ir, 5.0);
    if (rc == JNT_OK)
        rc = jnt_assemble(m, d);
    CHECK(rc == JNT_PROJECTED && fabs(st(m, d, "rocker.angle.v") - 5.0) < 1e-12 &&
              fabs(st(m, d, "crank.angle.v") - 5.0) > 1 && pin_a_speed(m, d) < 1e-12 &&
              jnt_data_stats(d)->projected == 1 &&
              strstr(jnt_data_error(d), "'crank.angle.v' set to 5 is"),
          "contradicting values: %s, the last set kept, the other moved and named: %s",
          jnt_status_name(rc), jnt_data_error(d));
    MEASURE("step.projected_crank_v", st(m, d, "crank.angle.v"));
    /* a state saved and set back whole: on the joints already, nothing moves */
    double saved[64], back[64];
    int ns = jnt_state_count(m);
    rc = ns <= 64 ? jnt_get_full_state(m, d, saved) : JNT_ERR_USAGE;
    if (rc == JNT_OK)
        rc = jnt_step(m, d, NULL);
    if (rc == JNT_OK)
        rc = jnt_set_full_state(m, d, jnt_time(d), saved);
    if (rc == JNT_OK)
        rc = jnt_assemble(m, d);
    if (rc == JNT_OK)
        rc = jnt_get_full_state(m, d, back);
    CHECK(rc == JNT_OK && max_diff(saved, back, 18) < 1e-12,
          "a saved state set back whole: JNT_OK, positions and velocities as saved (%.2g)",
          max_diff(saved, back, 18));
    /* jnt_step itself: the same assembly, counted, and on */
    long before = jnt_data_stats(d)->projected;
    rc = jnt_set_state(m, d, iw, 5.0);
    if (rc == JNT_OK)
        rc = jnt_set_state(m, d, ir, 5.0);
    if (rc == JNT_OK)
        rc = jnt_step(m, d, NULL);
    CHECK(rc == JNT_OK && jnt_data_stats(d)->projected == before + 1,
          "jnt_step assembles the values set, counts the one moved (%ld) and steps on",
          jnt_data_stats(d)->projected - before);
    jnt_data_free(d);

    /* the model's pins (init pinA.angle = th1) hold at the start only: stepped = run (before:
     * every step began again at 60 deg, 2.7e-3 rad off at 30 ms) */
    enum { N = 31 };
    static double whole[N * 12], parts[N * 12];
    long nw = 0, np = 0;
    d = jnt_data_new(mo);
    jnt_run_opts o = {.csv_path = "", .t_end = 0.3, .rows = whole, .rows_cap = N, .rows_n = &nw};
    rc = jnt_run(mo, d, &o);
    jnt_data *e = jnt_data_new(mo);
    jnt_run_opts so = {.rows = parts, .rows_cap = N, .rows_n = &np};
    for (int k = 0; k < 30 && rc == JNT_OK; k++)
        rc = jnt_step(mo, e, &so);
    int nc = jnt_output_count(mo);
    CHECK(rc == JNT_OK && nw == N && np == N && nc == 12 && max_diff(parts, whole, N * 12) < 1e-6,
          "fourbar_origin in 30 jnt_step calls = its run to %.2g (the restarts' HHT history)",
          max_diff(parts, whole, N * 12));
    /* a value set before the first step beats the model's pin */
    jnt_data *f = jnt_data_new(mo);
    rc = jnt_init_state(mo, f);
    if (rc == JNT_OK)
        rc = jnt_set_state(mo, f, jnt_state_index(mo, "crank.angle"), 1.2);
    if (rc == JNT_OK)
        rc = jnt_assemble(mo, f);
    double a0 = st(mo, f, "crank.angle");
    if (rc == JNT_OK)
        rc = jnt_step(mo, f, NULL);
    CHECK(rc == JNT_OK && fabs(a0 - 1.2) < 1e-12 && fabs(st(mo, f, "crank.angle") - 1.2) < 0.01,
          "crank.angle = 1.2 set at t0 over init pinA.angle = 60 deg: %.17g, then %.6g at 10 ms",
          a0, st(mo, f, "crank.angle"));
    jnt_data_free(f);
    jnt_data_free(e);
    jnt_data_free(d);
    jnt_model_free(mo);
    jnt_model_free(m);
}

int main(void)
{
    jnt_model *m;
    if (jnt_compile_string("osc.jnt", src, NULL, &m) != JNT_OK) {
        CHECK(0, "the test model compiles");
        return 1;
    }
    int nout = jnt_output_count(m);
    CHECK(nout == 3 && !strcmp(jnt_output_name(m, 1), "x") && !jnt_output_name(m, 3),
          "output count and names");
    char unit[32];
    CHECK(jnt_param_count(m) == 2 && jnt_param_unit(m, 0, unit, sizeof unit) == JNT_OK &&
              !strcmp(unit, "N/m"), "parameter unit text: %s", unit);
    CHECK(!strcmp(jnt_model_name(m), "osc") && !strcmp(jnt_version(), JNT_VERSION),
          "model name and version %s", jnt_version());

    /* the whole run: into a buffer and a CSV */
    enum { CAP = 200 };
    static double whole[CAP * 3], parts[CAP * 3], dop_whole[CAP * 3], dop_parts[CAP * 3];
    long nw = 0, np = 0;
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = {.csv_path = test_out("step_osc.csv"), .rows = whole, .rows_cap = CAP,
                      .rows_n = &nw};
    int rc = jnt_run(m, d, &o);
    CHECK(rc == JNT_OK && nw == 101, "whole run: %ld rows in memory (want 101)", nw);
    csv_table t;
    int ok = csv_load(test_out("step_osc.csv"), &t) == 0 && t.nrow == nw && t.ncol == 3;
    double dmax = 0;
    for (long i = 0; ok && i < nw; i++)
        for (int c = 0; c < 3; c++)
            dmax = fmax(dmax, fabs(t.col[c][i] - whole[i * 3 + c]));
    CHECK(ok && dmax == 0, "rows in memory = the CSV, exactly (%ld rows)", nw);
    csv_free(&t);
    long steps = jnt_data_stats(d)->steps;

    /* the same run in 100 steps of one output interval */
    jnt_data *e = jnt_data_new(m);
    rc = jnt_init_state(m, e);
    jnt_run_opts so = {.rows = parts, .rows_cap = CAP, .rows_n = &np};
    for (int k = 0; k < 100 && rc == JNT_OK; k++)
        rc = jnt_step(m, e, &so);
    CHECK(rc == JNT_OK && np == 101, "100 jnt_step calls: %ld rows (t0's, then one each)", np);
    CHECK(max_diff(parts, whole, 101 * 3) < 1e-13, "stepped rk4 = whole run: %.2g",
          max_diff(parts, whole, 101 * 3));
    MEASURE("step.rk4_stepped_vs_whole", max_diff(parts, whole, 101 * 3));
    CHECK_NEAR(jnt_time(e), 1.0, 1e-12, "time after 100 steps");
    CHECK(jnt_data_stats(e)->steps == steps, "statistics add up over steps: %ld (whole %ld)",
          jnt_data_stats(e)->steps, steps);

    /* dopri5: cut into pieces, the same to its tolerance */
    jnt_data_free(e);
    nw = np = 0;
    d = (jnt_data_free(d), jnt_data_new(m));
    jnt_run_opts od = {.csv_path = "", .integrator = "dopri5", .rtol = 1e-9, .atol = 1e-12,
                       .rows = dop_whole, .rows_cap = CAP, .rows_n = &nw};
    rc = jnt_run(m, d, &od);
    e = jnt_data_new(m);
    jnt_run_opts sd = od;
    sd.rows = dop_parts;
    sd.rows_n = &np;
    for (int k = 1; k <= 10 && rc == JNT_OK; k++)
        rc = jnt_advance(m, e, 0.1 * k, &sd);
    CHECK(rc == JNT_OK && np == 101, "dopri5 in 10 advances: %ld rows", np);
    CHECK(max_diff(dop_parts, dop_whole, 101 * 3) < 1e-8, "dopri5 pieces = whole: %.2g",
          max_diff(dop_parts, dop_whole, 101 * 3));
    MEASURE("step.dopri5_pieces_vs_whole", max_diff(dop_parts, dop_whole, 101 * 3));

    /* a state set between steps: F = 0 and x = 0.02 m, v = 0 at t = 1 s; a
     * free damped oscillation from there */
    rc = jnt_set_param(m, e, "F", 0);
    int ix = jnt_state_index(m, "b.x");
    if (rc == JNT_OK)
        rc = jnt_set_state(m, e, ix, 0.02);
    for (int i = 0; i < jnt_state_count(m); i++)
        if (i != ix && rc == JNT_OK)
            rc = jnt_set_state(m, e, i, 0);
    jnt_run_opts fo = {.integrator = "dopri5", .rtol = 1e-10, .atol = 1e-13};
    if (rc == JNT_OK)
        rc = jnt_advance(m, e, 1.5, &fo);
    double w = 10, z = 0.5 / (2 * w), wd = w * sqrt(1 - z * z), tt = 0.5;
    double x = 0.02 * exp(-z * w * tt) * (cos(wd * tt) + z * w / wd * sin(wd * tt));
    CHECK(rc == JNT_OK, "advance after setting states: %s", jnt_data_error(e));
    CHECK_NEAR(jnt_state(m, e, ix), x, 1e-9, "free oscillation from a set state (closed form)");

    /* a callback stops the run at its fifth row */
    long k = 0;
    jnt_run_opts cb = {.csv_path = "", .on_row = count_rows, .row_ctx = &k};
    rc = jnt_run(m, d, &cb);
    CHECK(rc == JNT_STOPPED && k == 5, "on_row stops the run: %s, %ld rows",
          jnt_status_name(rc), k);

    /* a buffer too small: counted, not written past */
    static double small[4 * 3 + 3];
    small[12] = 42;
    nw = 0;
    jnt_run_opts sm = {.csv_path = "", .rows = small, .rows_cap = 4, .rows_n = &nw};
    rc = jnt_run(m, d, &sm);
    CHECK(rc == JNT_OK && nw == 101 && small[12] == 42, "a full buffer: rows counted (%ld), "
          "none written past it", nw);

    /* misuse */
    rc = jnt_advance(m, e, 0.5, NULL);
    CHECK(rc == JNT_ERR_USAGE && strstr(jnt_data_error(e), "not after"),
          "advance backwards: %s", jnt_data_error(e));
    jnt_data *f = jnt_data_new(m);
    jnt_run_opts re = {.resume = 1};
    rc = jnt_run(m, f, &re);
    CHECK(rc == JNT_ERR_USAGE && strstr(jnt_data_error(f), "nothing to resume"),
          "resume without a state: %s", jnt_data_error(f));
    CHECK(jnt_set_state(m, f, jnt_state_count(m), 1) == JNT_ERR_USAGE, "state out of range");
    double x_before = jnt_state(m, e, ix);
    CHECK(jnt_assemble(m, e) == JNT_OK && jnt_state(m, e, ix) == x_before,
          "jnt_assemble on a model without joints: JNT_OK, nothing moved");
    jnt_data_free(f);
    jnt_data_free(e);
    jnt_data_free(d);
    jnt_model_free(m);
    model_inputs();
    multibody_state();
    return check_failures > 100 ? 100 : check_failures;
}
