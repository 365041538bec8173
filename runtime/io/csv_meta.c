/*
 * csv_meta.c: the units line and the provenance line after a run's CSV
 * header (csv_meta.h). Both are comments ('#'), so every reader that skips
 * comment lines (numpy, pandas, gnuplot, jnt plot, jnt sweep) reads the
 * table unchanged, and the header stays the first line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/model.h"
#include "io/csv_meta.h"
#include "io/dtoa.h"
#include "jnt/setup.h"

/* A growing line; len < cap always, NUL-terminated; nomem after a failed
 * allocation (the line is then dropped). */
typedef struct line_buf {
    char *s;
    size_t len, cap;
    int nomem;
} line_buf;

/* Append printf-style text to b. */
static void put(line_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || b->nomem)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = 2 * (b->len + (size_t)n + 1);
        char *s = realloc(b->s, cap);
        if (!s) {
            b->nomem = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Append s with its line breaks as spaces (a file name may hold one). */
static void put_flat(line_buf *b, const char *s)
{
    size_t start = b->len;
    put(b, "%s", s ? s : "?");
    for (size_t i = start; !b->nomem && i < b->len; i++)
        if (b->s[i] == '\n' || b->s[i] == '\r')
            b->s[i] = ' ';
}

/* Write b as a comment line of w; frees it. */
static int emit(csv_writer *w, jnt_data *d, line_buf *b)
{
    int rc = b->nomem ? JNT_ERR_NOMEM : csv_comment(w, b->s, d->err, sizeof d->err);
    if (b->nomem)
        snprintf(d->err, sizeof d->err, "out of memory writing the CSV's comment lines");
    free(b->s);
    memset(b, 0, sizeof *b);
    return rc;
}

/* See csv_meta.h. */
int csv_meta(csv_writer *w, const jnt_model *m, jnt_data *d, const char *integ)
{
    const jnt_abi_model *a = m->abi;
    line_buf b = {0};
    char u[96], num[40];
    put(&b, "# units: ");
    for (int j = 0; j < a->nout; j++)
        put(&b, j ? ",%s" : "%s", units_column(a->out_dims, a->out_kinds, j, u, sizeof u));
    int rc = emit(w, d, &b);
    if (rc == JNT_OK) {
        put(&b, "# jnt %s: model ", JNT_VERSION);
        put_flat(&b, a->name);
        put(&b, " from ");
        put_flat(&b, a->source);
        put(&b, "; integrator %s; parameters", integ ? integ : "?");
        for (int i = 0; i < a->np; i++) {
            dtoa_shortest(num, d->p[i]);
            units_entry(a->p_dims, i, u, sizeof u);
            put(&b, "%s %s = %s%s%s", i ? "," : "", a->p_names[i], num, u[0] ? " " : "", u);
        }
        if (a->np == 0)
            put(&b, " none");
        rc = emit(w, d, &b);
    }
    if (rc != JNT_OK)
        csv_close(w, NULL, 0);
    return rc;
}
