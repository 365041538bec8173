/*
 * bench_jnt.c: in-process timings of jnt for `make bench` (bench/run.sh).
 *
 * Built twice from this one file:
 *   JIT:  gcc bench_jnt.c libjnt.a            -> the model is compiled in
 *         memory with jnt_compile_file (libtcc), as `jnt run` does;
 *   AOT:  gcc -O2 -DBENCH_AOT model.c bench_jnt.c libjnt.a
 *         (model.c from `jnt emit`) -> the model's kernels are compiled by
 *         gcc -O2, as in `jnt build`; the MODEL argument is then ignored.
 * so that both are timed by the same code with the same clock.
 *
 *   bench_jnt compile MODEL.jnt N
 *       N times: jnt_compile_file (model file to runnable JIT code), and
 *       compile + jnt_data_new + a run to t_end = 1e-9 s without CSV (model
 *       file to first result; the model's own t_end if it has no such
 *       parameter). Prints compile_s_min/med and first_s_min/med.
 *   bench_jnt run MODEL.jnt N [-D name=value]... [--rtol X] [--h S] [--atol X]
 *             [-o CSV] [--final NAME]
 *       compiles once, runs once untimed (warm-up), then N times jnt_run on
 *       one data object: CSV to the -o path; without -o no CSV is written,
 *       but the output grid is still interpolated and the output kernel
 *       evaluated; --rtol/--atol as in `jnt run`. Prints run_s_min/med, the
 *       counters of the last run and the last value of output NAME.
 *
 * Times are wall clock (CLOCK_MONOTONIC) around the timed calls only.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jnt/jnt.h"

#ifdef BENCH_AOT
extern const jnt_abi_model jnt_generated_model;
#endif

/* Seconds on the monotonic clock. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts v). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The model: JIT-compiled from `path`, or the gcc-compiled one linked in. */
static int load(const char *path, jnt_model **m)
{
#ifdef BENCH_AOT
    (void)path;
    return jnt_model_from_abi(&jnt_generated_model, NULL, m);
#else
    return jnt_compile_file(path, NULL, m);
#endif
}

/* Model file to runnable code, and to the first result. */
static int bench_compile(const char *path, int n)
{
    double *tc = calloc((size_t)n, sizeof *tc), *tf = calloc((size_t)n, sizeof *tf);
    if (!tc || !tf)
        return 1;
    for (int k = 0; k < n; k++) {
        jnt_model *m;
        double t0 = now();
        if (load(path, &m) != JNT_OK) {
            fprintf(stderr, "bench_jnt: cannot compile '%s'\n", path);
            return 1;
        }
        double t1 = now();
        jnt_model_free(m);

        double t2 = now();
        if (load(path, &m) != JNT_OK)
            return 1;
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o = {.csv_path = ""};
        int rc = !d ? JNT_ERR_NOMEM
                 : jnt_param_index(m, "t_end") >= 0 ? jnt_set_param(m, d, "t_end", 1e-9)
                                                     : JNT_OK;
        if (rc == JNT_OK)
            rc = jnt_run(m, d, &o);
        double t3 = now();
        if (rc != JNT_OK) {
            fprintf(stderr, "bench_jnt: first run of '%s': %s: %s\n", path, jnt_status_name(rc),
                    d ? jnt_data_error(d) : "");
            return 1;
        }
        jnt_data_free(d);
        jnt_model_free(m);
        tc[k] = t1 - t0;
        tf[k] = t3 - t2;
    }
    double cmin = tc[0], fmin = tf[0];
    for (int k = 1; k < n; k++) {
        cmin = tc[k] < cmin ? tc[k] : cmin;
        fmin = tf[k] < fmin ? tf[k] : fmin;
    }
    printf("compile_s_min=%.6g compile_s_med=%.6g first_s_min=%.6g first_s_med=%.6g n=%d\n",
           cmin, median(tc, n), fmin, median(tf, n), n);
    free(tc);
    free(tf);
    return 0;
}

/* Repeated runs of one case. */
static int bench_run(const char *path, int n, int argc, char **argv)
{
    jnt_model *m;
    if (load(path, &m) != JNT_OK) {
        fprintf(stderr, "bench_jnt: cannot compile '%s'\n", path);
        return 1;
    }
    jnt_data *d = jnt_data_new(m);
    if (!d)
        return 1;
    const char *csv = "", *final = NULL;
    double rtol = 0, atol = 0, h = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-D") && i + 1 < argc) {
            if (jnt_set_param_text(m, d, argv[++i]) != JNT_OK) {
                fprintf(stderr, "bench_jnt: %s\n", jnt_data_error(d));
                return 2;
            }
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            csv = argv[++i];
        } else if (!strcmp(argv[i], "--rtol") && i + 1 < argc) {
            rtol = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--atol") && i + 1 < argc) {
            atol = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--h") && i + 1 < argc) {
            h = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--final") && i + 1 < argc) {
            final = argv[++i];
        } else {
            fprintf(stderr, "bench_jnt: unexpected argument '%s'\n", argv[i]);
            return 2;
        }
    }
    double *tr = calloc((size_t)n, sizeof *tr);
    if (!tr)
        return 1;
    jnt_run_opts o = {.csv_path = csv, .rtol = rtol, .atol = atol, .h = h};
    /* one untimed run first: page faults, lazy binding, cold caches */
    int rc0 = jnt_run(m, d, &o);
    if (rc0 != JNT_OK) {
        fprintf(stderr, "bench_jnt: %s: %s\n", jnt_status_name(rc0), jnt_data_error(d));
        return 1;
    }
    for (int k = 0; k < n; k++) {
        double t0 = now();
        int rc = jnt_run(m, d, &o);
        tr[k] = now() - t0;
        if (rc != JNT_OK) {
            fprintf(stderr, "bench_jnt: %s: %s\n", jnt_status_name(rc), jnt_data_error(d));
            return 1;
        }
    }
    double rmin = tr[0];
    for (int k = 1; k < n; k++)
        rmin = tr[k] < rmin ? tr[k] : rmin;
    const jnt_stats *s = jnt_data_stats(d);
    int fi = final ? jnt_output_index(m, final) : -1;
    printf("run_s_min=%.6g run_s_med=%.6g n=%d steps=%ld rejected=%ld rhs=%ld jac=%ld lu=%ld "
           "rows=%ld t_last=%.9g final=%.12g\n",
           rmin, median(tr, n), n, s->steps, s->rejected, s->rhs_evals, s->jac_evals,
           s->lu_decomps, s->out_rows, jnt_time(d), fi >= 0 ? jnt_output(m, d, fi) : 0.0 / 0.0);
    free(tr);
    jnt_data_free(d);
    jnt_model_free(m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4 || atoi(argv[3]) < 1) {
        fprintf(stderr, "usage: bench_jnt compile|run MODEL.jnt N [-D name=value]... [--rtol X] [--h S] "
                        "[--atol X] [-o CSV] [--final NAME]\n");
        return 2;
    }
    if (!strcmp(argv[1], "compile"))
        return bench_compile(argv[2], atoi(argv[3]));
    if (!strcmp(argv[1], "run"))
        return bench_run(argv[2], atoi(argv[3]), argc - 4, argv + 4);
    fprintf(stderr, "bench_jnt: unknown command '%s'\n", argv[1]);
    return 2;
}
