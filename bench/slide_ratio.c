/*
 * slide_ratio.c: CPU time of several variants of one model run interleaved in
 * one process, for `make bench` section 6 (bench/run.sh; issue 30 item 7:
 * Subs-b against FiLm on examples/beam_on_beam.jnt).
 *
 *   slide_ratio ROUNDS A.jnt B.jnt ... [-D name=value]...
 *
 * Compiles every model once (jnt_compile_file, libtcc), runs each once
 * untimed (page faults, lazy binding, cold caches), then ROUNDS rounds of one
 * timed run of each model in the order given (A, B, ..., A, B, ...), so that
 * a change of the machine's load falls on all of them. The time of a run is
 * the CPU time of the calling thread around jnt_run (the runs are one
 * thread: OpenBLAS starts no pool) and, beside it, the wall clock. No CSV is
 * written; the output kernel is still evaluated at every output row.
 * Prints one line per run, then per model the median CPU time and the median,
 * smallest and largest of the rounds' ratios of its CPU time to A's in the
 * same round:
 *   model=B.jnt cpu_med=... wall_med=... ratio_med=... ratio_min=... ratio_max=... steps=...
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jnt/jnt.h"

#define MAXM 8

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts a copy). */
static double median(const double *v, int n)
{
    double c[256];
    memcpy(c, v, (size_t)n * sizeof *c);
    qsort(c, (size_t)n, sizeof *c, cmp_double);
    return n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
}

int main(int argc, char **argv)
{
    int nr = argc > 1 ? atoi(argv[1]) : 0, nm = 0;
    const char *path[MAXM];
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-D")) {
            i++;
            continue;
        }
        if (nm == MAXM) {
            fprintf(stderr, "slide_ratio: at most %d models\n", MAXM);
            return 2;
        }
        path[nm++] = argv[i];
    }
    if (nr < 1 || nr > 256 || nm < 1) {
        fprintf(stderr, "usage: slide_ratio ROUNDS A.jnt [B.jnt ...] [-D name=value]...\n");
        return 2;
    }
    jnt_model *m[MAXM];
    jnt_data *d[MAXM];
    jnt_run_opts o = {.csv_path = ""};
    for (int k = 0; k < nm; k++) {
        if (jnt_compile_file(path[k], NULL, &m[k]) != JNT_OK) {
            fprintf(stderr, "slide_ratio: cannot compile '%s'\n", path[k]);
            return 1;
        }
        d[k] = jnt_data_new(m[k]);
        if (!d[k])
            return 1;
        for (int i = 2; i < argc; i++)
            if (!strcmp(argv[i], "-D") && i + 1 < argc &&
                jnt_set_param_text(m[k], d[k], argv[i + 1]) != JNT_OK) {
                fprintf(stderr, "slide_ratio: %s: %s\n", path[k], jnt_data_error(d[k]));
                return 2;
            }
        if (jnt_run(m[k], d[k], &o) != JNT_OK) {
            fprintf(stderr, "slide_ratio: %s: %s\n", path[k], jnt_data_error(d[k]));
            return 1;
        }
    }
    static double cpu[MAXM][256], wall[MAXM][256];
    for (int r = 0; r < nr; r++)
        for (int k = 0; k < nm; k++) {
            double c0 = clock_s(CLOCK_THREAD_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
            int rc = jnt_run(m[k], d[k], &o);
            cpu[k][r] = clock_s(CLOCK_THREAD_CPUTIME_ID) - c0;
            wall[k][r] = clock_s(CLOCK_MONOTONIC) - w0;
            if (rc != JNT_OK) {
                fprintf(stderr, "slide_ratio: %s: %s\n", path[k], jnt_data_error(d[k]));
                return 1;
            }
            printf("round=%d model=%s cpu_s=%.6f wall_s=%.6f\n", r + 1, path[k], cpu[k][r],
                   wall[k][r]);
            fflush(stdout);
        }
    for (int k = 0; k < nm; k++) {
        double q[256];
        for (int r = 0; r < nr; r++)
            q[r] = cpu[k][r] / cpu[0][r];
        double qmin = q[0], qmax = q[0];
        for (int r = 1; r < nr; r++) {
            qmin = q[r] < qmin ? q[r] : qmin;
            qmax = q[r] > qmax ? q[r] : qmax;
        }
        printf("model=%s cpu_med=%.4f wall_med=%.4f ratio_med=%.4f ratio_min=%.4f "
               "ratio_max=%.4f steps=%ld\n",
               path[k], median(cpu[k], nr), median(wall[k], nr), median(q, nr), qmin, qmax,
               jnt_data_stats(d[k])->steps);
    }
    for (int k = 0; k < nm; k++) {
        jnt_data_free(d[k]);
        jnt_model_free(m[k]);
    }
    return 0;
}
