/*
 * test_alloc_run.c: a run fails cleanly at every allocation libjnt makes (issue 17, "no abort
 * in the library"). This program is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
 * (Makefile), so every malloc, calloc and realloc of libjnt's own code (not of libc's internals,
 * OpenBLAS, LAPACK or SUNDIALS, which are shared libraries) goes through the wrappers below. Each
 * model is compiled once; then for k = 0, 1, ... jnt_data_new and jnt_run run with the k-th
 * allocation failing, until a run no longer reaches k. Each failed run must return
 * JNT_ERR_NOMEM (or jnt_data_new NULL), say "out of memory" in jnt_data_error, and leave nothing
 * allocated (under make check-asan, LeakSanitizer checks that at exit); a last run without a
 * failure must give the same rows as a run before the sweep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"
#include "oom_model.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static int armed;           /* counting libjnt's allocations */
static long countdown = -1; /* < 0: nothing fails; else allocations before the failing one */
static long seen;           /* allocations since the hook was armed */

static int fails_now(void)
{
    if (!armed)
        return 0;
    seen++;
    return countdown >= 0 && countdown-- == 0;
}

void *__wrap_malloc(size_t n)
{
    return fails_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return fails_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return fails_now() ? NULL : __real_realloc(p, n);
}

/* A hysteresis analysis (docs/language.md). */
static const char *const loop_src =
    "model loop\n"
    "import friction\n"
    "param A = 1 mm\n"
    "analysis loop : hysteresis(law = coulomb_tanh(mu = 0.3, v_reg = 0.01 mm/s),\n"
    "                           slip = A * sin(2 * pi * t / 1 s), normal = 10 N, period = 1 s)\n";

/* One run of m with the k-th allocation failing (k < 0: none): the status; the rows (at most
 * cap) in rows, their count in *nrows. */
static int run_failing(const jnt_model *m, const jnt_run_opts *base, long k, double *rows,
                       long cap, long *nrows, char *err, size_t nerr)
{
    jnt_run_opts o = *base;
    o.rows = rows, o.rows_cap = cap, o.rows_n = nrows;
    *nrows = 0;
    err[0] = 0;
    seen = 0;
    countdown = k, armed = 1;
    jnt_data *d = jnt_data_new(m);
    int rc = d ? jnt_run(m, d, &o) : JNT_ERR_NOMEM;
    countdown = -1, armed = 0;
    if (d) {
        snprintf(err, nerr, "%s", jnt_data_error(d) ? jnt_data_error(d) : "");
        jnt_data_free(d);
    } else {
        snprintf(err, nerr, "out of memory (jnt_data_new)");
    }
    return rc;
}

#define CAP 4096

/* The sweep on one model: what runs, with which integrator, to which time. */
static void sweep(const char *what, const jnt_model *m, const char *integrator, double t_end,
                  const char *csv)
{
    char err[512];
    long nref, ngot;
    /* fixed-step methods take the model's h if it has one, else 0.1 ms; tolerances 1e-6, 1e-8 */
    jnt_run_opts base = {.csv_path = csv, .integrator = integrator, .t_end = t_end,
                         .h = integrator && strcmp(integrator, "bdf") && strcmp(integrator,
                              "dopri5") ? 1e-4 : 0, .rtol = 1e-6, .atol = 1e-8};
    int nout = jnt_output_count(m);
    double *ref = malloc(sizeof *ref * CAP * (size_t)nout), *got = malloc(sizeof *got * CAP * (size_t)nout);
    int rc = run_failing(m, &base, -1, ref, CAP, &nref, err, sizeof err);
    long total = seen;
    CHECK(rc == JNT_OK && nref > 2 && nref <= CAP, "%s: runs (%d, %ld rows, %s)", what, rc,
          nref, err);
    if (rc != JNT_OK) {
        free(ref), free(got);
        return;
    }
    long k, bad = 0, first_bad = -1;
    int bad_rc = 0;
    char bad_err[512] = "";
    for (k = 0; k < 1000000; k++) {
        rc = run_failing(m, &base, k, got, CAP, &ngot, err, sizeof err);
        if (seen <= k) /* the run made fewer than k + 1 allocations: none failed */
            break;
        if (rc != JNT_ERR_NOMEM || !strstr(err, "out of memory")) {
            if (!bad++)
                first_bad = k, bad_rc = rc, snprintf(bad_err, sizeof bad_err, "%s", err);
        }
    }
    CHECK(k == total && total > 10, "%s: a run allocates %ld times (%ld before the sweep)",
          what, k, total);
    CHECK(bad == 0, "%s: each of them fails with JNT_ERR_NOMEM and 'out of memory' (%ld bad; "
          "first k = %ld: status %d, '%s')", what, bad, first_bad, bad_rc, bad_err);
    rc = run_failing(m, &base, -1, got, CAP, &ngot, err, sizeof err);
    CHECK(rc == JNT_OK && ngot == nref &&
              memcmp(got, ref, (size_t)nref * (size_t)nout * sizeof *ref) == 0,
          "%s: then a run gives the same %ld rows bit for bit", what, nref);
    free(ref), free(got);
}

/* The same for jnt_run_analyses (their files go to a scratch directory). */
static void sweep_analyses(const char *what, const jnt_model *m)
{
    char dir[] = "/tmp/jnt-test-alloc-run-XXXXXX", err[512];
    if (!mkdtemp(dir)) {
        CHECK(0, "%s: a scratch directory", what);
        return;
    }
    long k, total = -1, bad = 0, first_bad = -1;
    for (k = -1; k < 1000000; k++) {
        seen = 0;
        countdown = k, armed = 1;
        jnt_data *d = jnt_data_new(m);
        int rc = d ? jnt_run_analyses(m, d, dir) : JNT_ERR_NOMEM;
        countdown = -1, armed = 0;
        snprintf(err, sizeof err, "%s", !d ? "out of memory (jnt_data_new)"
                                        : jnt_data_error(d) ? jnt_data_error(d) : "");
        jnt_data_free(d);
        if (k < 0) {
            total = seen;
            CHECK(rc == JNT_OK, "%s: run (%d, %s)", what, rc, err);
            continue;
        }
        if (seen <= k)
            break;
        if ((rc != JNT_ERR_NOMEM || !strstr(err, "out of memory")) && !bad++)
            first_bad = k;
    }
    CHECK(k == total && total > 10, "%s: allocate %ld times (%ld before the sweep)", what, k,
          total);
    CHECK(bad == 0, "%s: each of them fails with JNT_ERR_NOMEM and 'out of memory' (%ld bad, "
          "first k = %ld)", what, bad, first_bad);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "%s: the scratch directory removed", what);
}

/* A file's text (malloc'd), or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *t = f ? calloc(1 << 20, 1) : NULL;
    if (t && fread(t, 1, (1 << 20) - 1, f) == 0)
        free(t), t = NULL;
    if (f)
        fclose(f);
    return t;
}

static jnt_model *compile_file(const char *path)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_file(path, NULL, &m);
    CHECK(rc == JNT_OK, "%s compiles (%d)", path, rc);
    return rc == JNT_OK ? m : NULL;
}

int main(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("oom.jnt", model_src, NULL, &m);
    CHECK(rc == JNT_OK, "the ODE model compiles (%d)", rc);
    if (m) {
        static const char *const integ[] = {"bdf", "radau", "dopri5", "rk4", "trapezoidal"};
        for (int i = 0; i < 5; i++) {
            char what[64];
            snprintf(what, sizeof what, "point mass, LuGre, %s", integ[i]);
            sweep(what, m, integ[i], 0.02, "");
        }
        sweep("point mass, CSV file", m, "bdf", 0.02, "/tmp/jnt-test-alloc-run.csv");
        sweep("point mass, .npy file", m, "bdf", 0.02, "/tmp/jnt-test-alloc-run.npy");
        sweep("point mass, .mat file", m, "bdf", 0.02, "/tmp/jnt-test-alloc-run.mat");
        remove("/tmp/jnt-test-alloc-run.csv");
        remove("/tmp/jnt-test-alloc-run.npy");
        remove("/tmp/jnt-test-alloc-run.mat");
        jnt_model_free(m);
    }
    if ((m = compile_file("examples/pendulum.jnt")) != NULL) {
        static const char *const integ[] = {"hht", "generalized_alpha", "midpoint", "radau5"};
        for (int i = 0; i < 4; i++) {
            char what[64];
            snprintf(what, sizeof what, "rigid2d pendulum, %s", integ[i]);
            sweep(what, m, integ[i], 0.005, "");
        }
        jnt_model_free(m);
    }
    if ((m = compile_file("examples/heavy_top.jnt")) != NULL) {
        sweep("rigid3d top, midpoint", m, NULL, 0.01, "");
        jnt_model_free(m);
    }
    static const struct { const char *path, *what; double t_end; } ex[] = {
        {"examples/beam_mass_friction.jnt", "substructure, friction, rk4", 0.005},
        {"examples/lap_joint.jnt", "lap joint: contact pairs, JTV basis", 0.002},
        {"examples/iwan_interface.jnt", "Iwan interface, dopri5", 0.2},
        {"examples/festoon.jnt", "festoon: joint friction, hht", 0.01},
        {"examples/mechanism_ideal.jnt", "flexible3d beams, midpoint", 0.002},
    };
    for (size_t i = 0; i < sizeof ex / sizeof *ex; i++)
        if ((m = compile_file(ex[i].path)) != NULL) {
            sweep(ex[i].what, m, NULL, ex[i].t_end, "");
            jnt_model_free(m);
        }
    if ((m = compile_file("examples/cantilever_modes.jnt")) != NULL) {
        sweep_analyses("cantilever: linear and modal analyses", m);
        jnt_model_free(m);
    }
    if ((m = compile_file("examples/rotor_critical_speeds.jnt")) != NULL) {
        sweep_analyses("rotor: flexible3d modes", m);
        jnt_model_free(m);
    }
    /* the locus of examples/beam_on_beam.jnt in 4 steps, not 40 (its allocations are per step,
     * and the sweep's cost grows as their square) */
    char *text = read_text("examples/beam_on_beam.jnt"), *at = text ? strstr(text, "steps = 40") : NULL;
    CHECK(at != NULL, "examples/beam_on_beam.jnt has its locus in 40 steps");
    if (at) {
        memcpy(at, "steps =  4", 10);
        rc = jnt_compile_string("examples/beam_on_beam.jnt", text, NULL, &m);
        CHECK(rc == JNT_OK, "beam on beam with a 4-step locus compiles (%d)", rc);
        if (rc == JNT_OK) {
            sweep_analyses("beam on beam: complex modes along the slide", m);
            jnt_model_free(m);
        }
    }
    free(text);
    rc = jnt_compile_string("loop.jnt", loop_src, NULL, &m);
    CHECK(rc == JNT_OK, "the hysteresis model compiles (%d)", rc);
    if (rc == JNT_OK) {
        sweep_analyses("hysteresis loop", m);
        jnt_model_free(m);
    }
    return check_done();
}
