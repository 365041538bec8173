/*
 * slide_rows.c: part of the physical state of a substructure stepped on
 * its modal coordinates (slide.h, slide_rows_new): an output row that reads
 * one node's acceleration needs one row of u = Phi q, not all n (the
 * n^2 of slide_sync, 18 % of a step of examples/beam_on_beam.jnt with an
 * output every 28 steps: docs/interfaces.md).
 */
#include <stdlib.h>
#include <string.h>

#include "slide_impl.h"

struct slide_rows {
    int s, n, all;     /* substructure, its size; all: the whole of it */
    int nr;            /* coordinates in the part */
    int *idx;          /* nr coordinates, ascending */
    unsigned char *what; /* nr: SLIDE_ROW_* */
    double *rows;      /* nr x n, row k = row idx[k] of Phi (modal substructures) */
};

/* See slide.h. */
slide_rows *slide_rows_new(const slide_model *m, int s, const unsigned char *what)
{
    if (!m || s < 0 || s >= m->nsub)
        return NULL;
    const slide_msub *b = &m->sub[s];
    int n = b->n, nr = 0;
    slide_rows *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->s = s;
    r->n = n;
    r->all = what == NULL;
    if (r->all)
        return r;
    for (int i = 0; i < n; i++)
        nr += what[i] != 0;
    r->idx = malloc(((size_t)nr + 1) * sizeof *r->idx);
    r->what = malloc((size_t)nr + 1);
    r->rows = b->modal ? malloc(((size_t)nr * n + 1) * sizeof *r->rows) : NULL;
    if (!r->idx || !r->what || (b->modal && !r->rows)) {
        slide_rows_free(r);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (!what[i])
            continue;
        r->idx[r->nr] = i;
        r->what[r->nr] = what[i];
        if (b->modal)
            for (int j = 0; j < n; j++)
                r->rows[(size_t)r->nr * n + j] = b->Phi[i + (size_t)n * j];
        r->nr++;
    }
    return r;
}

/* See slide.h. */
void slide_rows_free(slide_rows *r)
{
    if (!r)
        return;
    free(r->idx);
    free(r->what);
    free(r->rows);
    free(r);
}

/* row . x summed as slide.c's modal_sync sums u[i]: four columns at a
 * time, each group's products added left to right and then to the sum,
 * the last n % 4 one by one. */
static double row_dot(int n, const double *restrict row, const double *restrict x)
{
    double s = 0;
    int j = 0;
    for (; j + 4 <= n; j += 4)
        s += row[j] * x[j] + row[j + 1] * x[j + 1] + row[j + 2] * x[j + 2] +
             row[j + 3] * x[j + 3];
    for (; j < n; j++)
        s += row[j] * x[j];
    return s;
}

/* See slide.h. */
void slide_sync_rows(const slide_model *m, slide_data *d, const slide_rows *r)
{
    if (!m || !d || !r)
        return;
    if (r->all) {
        slide_sync_sub(m, d, r->s, 1);
        return;
    }
    const slide_msub *b = &m->sub[r->s];
    const struct slide_work *w = d->w;
    int n = b->n, o = b->off, rates = 0;
    for (int k = 0; k < r->nr; k++)
        rates |= (r->what[k] & SLIDE_ROW_V ? 1 : 0) | (r->what[k] & SLIDE_ROW_A ? 2 : 0);
    slide_rates(m, d, rates);
    for (int k = 0; k < r->nr; k++) {
        int i = r->idx[k], wh = r->what[k];
        if (!b->modal) {
            if (wh & SLIDE_ROW_U)
                d->u[o + i] = w->q[o + i];
            if (wh & SLIDE_ROW_V)
                d->v[o + i] = w->qv[o + i];
            if (wh & SLIDE_ROW_A)
                d->a[o + i] = w->qa[o + i];
            continue;
        }
        const double *row = r->rows + (size_t)k * n;
        if (wh & SLIDE_ROW_U)
            d->u[o + i] = row_dot(n, row, w->q + o);
        if (wh & SLIDE_ROW_V)
            d->v[o + i] = row_dot(n, row, w->qv + o);
        if (wh & SLIDE_ROW_A)
            d->a[o + i] = row_dot(n, row, w->qa + o);
    }
}
