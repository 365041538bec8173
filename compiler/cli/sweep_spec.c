/*
 * sweep_spec.c: the texts of `jnt sweep`'s swept parameters, split and
 * checked before anything is allocated for them:
 *
 *   --grid name=start:stop:step   (three fields)
 *   --list name=v1,v2,...         (no empty item)
 *   --dist name=kind:a:b          (uniform, normal, lognormal)
 *   --samples N                   (a whole number; 1e6 is one)
 *
 * Values go through a callback (the model's units in the command line, a
 * plain parser in fuzz/fuzz_sweepspec.c). Every count is checked against
 * the sweep's limit of runs (JNT_MAX_SWEEP_RUNS) before its values are
 * allocated. Errors are a message in err and the status 2 (a usage error).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

static int spec_error(char *err, size_t errn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errn, fmt, ap);
    va_end(ap);
    return 2;
}

/* See sweep.h. */
long sweep_max_runs(void)
{
    const char *v = getenv("JNT_MAX_SWEEP_RUNS");
    char *end;
    long n = v ? strtol(v, &end, 10) : 0;
    return v && end != v && *end == 0 && n > 0 ? n : SWEEP_MAX_RUNS;
}

/* The limit's message: option opt (for name) asks for n values, which make
 * more runs than the limit. */
static int too_many(char *err, size_t errn, const char *opt, const char *name, double n)
{
    return spec_error(err, errn, "%s %s: %.6g values make more runs than the limit of %ld runs "
                      "of a sweep (set JNT_MAX_SWEEP_RUNS=N to raise it)", opt, name, n,
                      sweep_max_runs());
}

/* Split "name=rest" in place: *rest after '='. 0, or 2 with a message. */
static int split_eq(char *s, const char *opt, const char *form, char **rest, char *err,
                    size_t errn)
{
    char *eq = strchr(s, '=');
    if (!eq || eq == s || !eq[1])
        return spec_error(err, errn, "%s needs %s, not '%s'", opt, form, s);
    *eq = 0;
    *rest = eq + 1;
    return 0;
}

/* Split s in place at every `sep` into at most max fields, keeping empty
 * ones; the count (max + 1 when there are more). */
static int split_fields(char *s, char sep, char **f, int max)
{
    int k = 0;
    for (;;) {
        char *e = strchr(s, sep);
        if (k < max)
            f[k] = s;
        k++;
        if (!e || k > max)
            return k;
        *e = 0;
        s = e + 1;
    }
}

/* The value of field i (1-based) of option opt for parameter name. */
static int field_value(const sweep_spec_ctx *v, const char *opt, const char *name, int i,
                       const char *text, double *out, char *err, size_t errn)
{
    if (!text[0])
        return spec_error(err, errn, "%s %s: value %d is empty", opt, name, i);
    return v->value(v->ctx, name, text, out, err, errn);
}

/* See sweep.h. */
int sweep_parse_grid(char *s, const sweep_spec_ctx *v, long room, const char **name,
                     sweep_dim *dm, char *err, size_t errn)
{
    char *rest, *f[3];
    if (split_eq(s, "--grid", "name=start:stop:step", &rest, err, errn))
        return 2;
    *name = s;
    if (split_fields(rest, ':', f, 3) != 3)
        return spec_error(err, errn, "--grid %s needs name=start:stop:step (three values)", s);
    double a, b, h;
    for (int i = 0; i < 3; i++)
        if (field_value(v, "--grid", s, i + 1, f[i], i == 0 ? &a : i == 1 ? &b : &h, err, errn))
            return 2;
    if (h == 0 || !((b - a) / h >= 0))
        return spec_error(err, errn, "--grid %s: the step must be non-zero and go from start to "
                          "stop", s);
    double nn = floor((b - a) / h * (1 + 1e-12) + 1e-9) + 1;
    if (!(nn <= (double)room))
        return too_many(err, errn, "--grid", s, nn);
    dm->np = 1;
    dm->n = (long)nn;
    dm->v = malloc((size_t)dm->n * sizeof *dm->v);
    if (!dm->v)
        return spec_error(err, errn, "--grid %s: out of memory", s);
    for (long i = 0; i < dm->n; i++)
        dm->v[i] = a + (double)i * h;
    return 0;
}

/* See sweep.h. */
int sweep_parse_list(char *s, const sweep_spec_ctx *v, long room, const char **name,
                     sweep_dim *dm, char *err, size_t errn)
{
    char *rest;
    if (split_eq(s, "--list", "name=v1,v2,...", &rest, err, errn))
        return 2;
    *name = s;
    long n = 1;
    for (const char *p = rest; *p; p++)
        n += *p == ',';
    if (n > room)
        return too_many(err, errn, "--list", s, (double)n);
    dm->np = 1;
    dm->n = 0;
    dm->v = malloc((size_t)n * sizeof *dm->v);
    if (!dm->v)
        return spec_error(err, errn, "--list %s: out of memory", s);
    for (char *p = rest;;) {
        char *e = strchr(p, ',');
        if (e)
            *e = 0;
        if (!p[0])
            return spec_error(err, errn, "--list %s: item %ld is empty (values are separated by "
                              "single commas)", s, dm->n + 1);
        if (v->value(v->ctx, s, p, &dm->v[dm->n], err, errn))
            return 2;
        dm->n++;
        if (!e)
            return 0;
        p = e + 1;
    }
}

/* See sweep.h. */
int sweep_parse_dist(char *s, const sweep_spec_ctx *v, sweep_dist *ds, char *err, size_t errn)
{
    char *rest, *f[3];
    if (split_eq(s, "--dist", "name=uniform:a:b, normal:mu:sigma or lognormal:mu:sigma", &rest,
                 err, errn))
        return 2;
    if (split_fields(rest, ':', f, 3) != 3)
        return spec_error(err, errn, "--dist %s: expected kind:a:b", s);
    ds->name = s;
    ds->kind = !strcmp(f[0], "uniform") ? 0 : !strcmp(f[0], "normal") ? 1
             : !strcmp(f[0], "lognormal") ? 2 : -1;
    if (ds->kind < 0)
        return spec_error(err, errn, "--dist: unknown distribution '%s' (uniform, normal, "
                          "lognormal)", f[0]);
    if (ds->kind == 2) {
        char *e1, *e2;
        ds->a = strtod(f[1], &e1);
        ds->b = strtod(f[2], &e2);
        if (!f[1][0] || !f[2][0] || *e1 || *e2 || !isfinite(ds->a) || !(ds->b > 0) ||
            !isfinite(ds->b))
            return spec_error(err, errn, "--dist %s=lognormal:mu:sigma takes plain numbers, "
                              "sigma > 0", s);
        return 0;
    }
    if (field_value(v, "--dist", s, 1, f[1], &ds->a, err, errn) ||
        field_value(v, "--dist", s, 2, f[2], &ds->b, err, errn))
        return 2;
    if (ds->kind == 1 && !(ds->b > 0))
        return spec_error(err, errn, "--dist %s: sigma must be > 0", s);
    return 0;
}

/* See sweep.h. */
int sweep_parse_count(const char *s, long *n, char *err, size_t errn)
{
    char *e;
    double x = strtod(s, &e);
    if (!s[0] || *e || !(x >= 1) || x != floor(x))
        return spec_error(err, errn, "--samples needs a whole number of points (1 or more), "
                          "not '%s'", s);
    if (x > (double)sweep_max_runs())
        return too_many(err, errn, "--samples", s, x);
    *n = (long)x;
    return 0;
}
