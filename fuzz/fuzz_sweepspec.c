/*
 * fuzz_sweepspec.c: libFuzzer harness of jnt sweep's parameter texts
 * (compiler/cli/sweep_spec.c): the input's first byte picks --grid, --list,
 * --dist or --samples, the rest is the option's text; values are read by
 * the units parser (a number with a unit, as -D takes them). Checks what a
 * parser promises on success: 1 to the limit of values, all finite. The
 * limit is lowered (JNT_MAX_SWEEP_RUNS=10000) to keep each input fast.
 * Findings go to tests/fuzz-regressions/sweepspec/, replayed by make test
 * (fuzz/replay.sh).
 */
#define _DEFAULT_SOURCE /* setenv */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/setup.h"
#include "sweep.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A value: a number with an optional unit, in SI. */
static int value(void *ctx, const char *name, const char *text, double *out, char *err,
                 size_t errn)
{
    (void)ctx;
    jnt_dim d;
    const char *why;
    if (units_parse_quantity(text, out, &d, &why) != 0 || !isfinite(*out)) {
        snprintf(err, errn, "parameter '%s': bad value '%s'", name, text);
        return 2;
    }
    return 0;
}

/* Once: the lowered limit. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    setenv("JNT_MAX_SWEEP_RUNS", "10000", 1);
    return 0;
}

/* One input: 0 (abort when a promise is broken). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *s = malloc(size);
    memcpy(s, data + 1, size - 1);
    s[size - 1] = 0;
    sweep_spec_ctx spec = {value, NULL};
    char err[512];
    const char *name = NULL;
    sweep_dim dm = {0};
    sweep_dist ds;
    long n = 0, max = sweep_max_runs();
    int rc;
    switch (data[0] % 4) {
    case 0:
    case 1:
        rc = data[0] % 4 ? sweep_parse_list(s, &spec, max / 3, &name, &dm, err, sizeof err)
                         : sweep_parse_grid(s, &spec, max / 3, &name, &dm, err, sizeof err);
        if (rc == 0 && (dm.n < 1 || dm.n > max / 3 || !name || !name[0]))
            abort();
        for (long i = 0; rc == 0 && i < dm.n; i++)
            if (!isfinite(dm.v[i]))
                abort();
        free(dm.v);
        break;
    case 2:
        rc = sweep_parse_dist(s, &spec, &ds, err, sizeof err);
        if (rc == 0 && (ds.kind < 0 || ds.kind > 2 || !isfinite(ds.a) || !isfinite(ds.b) ||
                        (ds.kind > 0 && !(ds.b > 0))))
            abort();
        break;
    default:
        rc = sweep_parse_count(s, &n, err, sizeof err);
        if (rc == 0 && (n < 1 || n > max))
            abort();
    }
    if (rc != 0 && (rc != 2 || !err[0]))
        abort();
    free(s);
    return 0;
}
