/*
 * summary.c: a model's per-run results (its `summary` block, jnt_abi_summary)
 * from the rows of the output file a run wrote: final value, largest and
 * smallest value, mean and root mean square over time, integral
 * (trapezoidal rule on the rows), time of the last row where a column is
 * not 0, each over its window [from, to] of the run's time. The file is
 * read back in pieces (CSV: each number is the shortest text of its double,
 * so it reads back exactly; .npy: the doubles themselves), so memory does
 * not grow with the rows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/model.h"
#include "io/dtoa.h"
#include "jnt/setup.h"
#include "sweep/summary.h"

/* Rows read from a .npy at a time. */
#define NPY_CHUNK 512

/* See summary.h. */
void summary_start(summary_acc *s, double from, double to)
{
    memset(s, 0, sizeof *s);
    s->from = from;
    s->to = to;
    s->last = NAN;
}

/* See summary.h. */
void summary_add(summary_acc *s, double t, double x)
{
    /* the window's ends with a relative slack for the rounding of grid times */
    if (t < s->from - 1e-9 * fabs(s->from) || t > s->to + 1e-9 * fabs(s->to))
        return;
    if (s->n == 0) {
        s->t_first = t;
        s->max = s->min = x;
    } else {
        double dt = t - s->t_prev;
        s->integral += 0.5 * dt * (x + s->x_prev);
        s->integral2 += 0.5 * dt * (x * x + s->x_prev * s->x_prev);
        if (x > s->max || isnan(x))
            s->max = x;
        if (x < s->min || isnan(x))
            s->min = x;
    }
    if (x != 0)
        s->last = t;
    s->t_prev = t;
    s->x_prev = x;
    s->n++;
}

/* See summary.h. */
double summary_value(const summary_acc *s, int op)
{
    if (s->n == 0)
        return NAN;
    double span = s->t_prev - s->t_first;
    switch (op) {
    case JNT_SUMMARY_FINAL: return s->x_prev;
    case JNT_SUMMARY_MAX: return s->max;
    case JNT_SUMMARY_MIN: return s->min;
    case JNT_SUMMARY_MEAN: return span > 0 ? s->integral / span : s->x_prev;
    case JNT_SUMMARY_RMS: return span > 0 ? sqrt(s->integral2 / span) : fabs(s->x_prev);
    case JNT_SUMMARY_INTEGRAL: return s->integral;
    case JNT_SUMMARY_LAST: return s->last;
    default: return NAN;
    }
}

/* Feed one row (ncol values, t first) to every summary. */
static void add_row(const jnt_abi_model *a, summary_acc *acc, const double *row)
{
    for (int i = 0; i < a->nsummaries; i++)
        summary_add(&acc[i], row[0], row[a->summaries[i].col]);
}

/* The rows of a .npy file of ncol float64 columns (jnt's own writer: a
 * structured array, little-endian, C order). */
static int read_npy(jnt_data *d, FILE *f, const char *path, int ncol, summary_acc *acc)
{
    const jnt_abi_model *a = d->m->abi;
    unsigned char h[12];
    if (fread(h, 1, 10, f) != 10 || memcmp(h, "\x93NUMPY", 6) != 0)
        return data_error(d, JNT_ERR_IO, "'%s' is not a .npy file", path);
    long hlen = h[8] | (long)h[9] << 8, at = 10;
    if (h[6] >= 2) {
        if (fread(h + 10, 1, 2, f) != 2)
            return data_error(d, JNT_ERR_IO, "'%s': truncated .npy header", path);
        hlen |= (long)h[10] << 16 | (long)h[11] << 24;
        at = 12;
    }
    if (fseek(f, at + hlen, SEEK_SET) != 0)
        return data_error(d, JNT_ERR_IO, "'%s': %s", path, strerror(errno));
    double buf[NPY_CHUNK * 8];
    size_t per = sizeof buf / sizeof *buf / (size_t)ncol;
    double *big = per ? buf : malloc((size_t)ncol * sizeof *big);
    if (!big)
        return JNT_ERR_NOMEM;
    if (!per)
        per = 1;
    size_t got;
    while ((got = fread(big, (size_t)ncol * sizeof *big, per, f)) > 0)
        for (size_t r = 0; r < got; r++)
            add_row(a, acc, big + r * (size_t)ncol);
    int rc = ferror(f) ? data_error(d, JNT_ERR_IO, "cannot read '%s'", path) : JNT_OK;
    if (big != buf)
        free(big);
    return rc;
}

/* The rows of a CSV file: a header line, then ncol numbers a line. */
static int read_csv(jnt_data *d, FILE *f, const char *path, int ncol, summary_acc *acc)
{
    const jnt_abi_model *a = d->m->abi;
    double *row = malloc((size_t)ncol * sizeof *row);
    size_t cap = 0;
    char *line = NULL;
    int rc = row ? JNT_OK : JNT_ERR_NOMEM;
    long lineno = 0;
    while (rc == JNT_OK && getline(&line, &cap, f) >= 0) {
        if (lineno++ == 0 || line[0] == '#')
            continue; /* the header; the line saying how the run ended */
        char *p = line, *end;
        int k = 0;
        for (; k < ncol; k++) {
            row[k] = strtod(p, &end);
            if (end == p)
                break;
            p = end;
            if (*p == ',')
                p++;
        }
        if (k != ncol)
            rc = data_error(d, JNT_ERR_IO, "%s:%ld: expected %d numbers", path, lineno, ncol);
        else
            add_row(a, acc, row);
    }
    free(line);
    free(row);
    return rc;
}

/* See jnt.h. */
int jnt_summary_count(const jnt_model *m)
{
    return m ? m->abi->nsummaries : 0;
}

/* See jnt.h. */
const char *jnt_summary_name(const jnt_model *m, int i)
{
    return m && i >= 0 && i < m->abi->nsummaries ? m->abi->summaries[i].name : NULL;
}

/* See jnt.h. */
int jnt_summarize(const jnt_model *m, jnt_data *d, const char *path, double *vals)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!path || !vals)
        return data_null(d, __func__, path ? "vals" : "path");
    const jnt_abi_model *a = m->abi;
    int ns = a->nsummaries;
    if (ns == 0)
        return JNT_OK;
    double *win = malloc(2 * (size_t)ns * sizeof *win);
    summary_acc *acc = malloc((size_t)ns * sizeof *acc);
    if (!win || !acc) {
        free(win);
        free(acc);
        return JNT_ERR_NOMEM;
    }
    rc = params_defaults(m, d);
    if (rc == JNT_OK && a->summary_window(d->p, win) < 0)
        rc = data_error(d, JNT_ERR_KERNEL, "the summary window kernel failed");
    for (int i = 0; rc == JNT_OK && i < ns; i++) {
        int fl = a->summaries[i].flags;
        summary_start(&acc[i], fl & JNT_SUMMARY_FROM ? win[2 * i] : -INFINITY,
                      fl & JNT_SUMMARY_TO ? win[2 * i + 1] : INFINITY);
    }
    /* a regular file no larger than a run may write (the output limit, and
     * a row past it): /dev/zero and a FIFO are refused, not read forever */
    char why[256];
    double lim = d->max_output > 0 ? d->max_output : 1073741824.0;
    FILE *f = rc == JNT_OK ? setup_open_input(path, d->max_output < 0 ? 0 : (long long)(lim * 1.01) + 4096,
                                              why, sizeof why) : NULL;
    if (rc == JNT_OK && !f)
        rc = data_error(d, JNT_ERR_IO, "cannot read '%s': %s", path, why);
    if (f) {
        size_t n = strlen(path);
        if (n > 4 && strcmp(path + n - 4, ".npy") == 0)
            rc = read_npy(d, f, path, a->nout, acc);
        else
            rc = read_csv(d, f, path, a->nout, acc);
        fclose(f);
    }
    for (int i = 0; rc == JNT_OK && i < ns; i++)
        vals[i] = summary_value(&acc[i], a->summaries[i].op);
    free(win);
    free(acc);
    return rc;
}

/* See jnt.h. */
int jnt_format_double(char *buf, double v)
{
    return buf ? dtoa_shortest(buf, v) : -1;
}
