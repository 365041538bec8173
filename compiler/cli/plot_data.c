/*
 * plot_data.c: what `jnt plot` reads of a CSV's rows (plot.c reads only its
 * header, gnuplot the rows): each column's range, for the offset of an axis
 * whose range is tiny against its values, and the distinct values of a
 * sweep table's other parameters, one line each in a line plot.
 *
 * The offset follows matplotlib's ScalarFormatter (axes.formatter.
 * offset_threshold = 4): when the values share their first four digits or
 * more, the axis shows value - offset and names the offset in its label, so
 * a wobble of 1e-11 on an energy of 20.94 J reads as what it is instead of
 * every tick printing "20.9372".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

/* See plot.h. */
void plot_scan_free(plot_scan *s)
{
    free(s->gval);
    s->gval = NULL;
    s->ngroup = 0;
}

/* Is the combination v (ncol values) among the n groups of s? */
static int known_group(const plot_scan *s, const double *v)
{
    for (int g = 0; g < s->ngroup; g++)
        if (!memcmp(s->gval + (size_t)g * s->ngcol, v, (size_t)s->ngcol * sizeof *v))
            return 1;
    return 0;
}

/* See plot.h. */
int plot_scan_rows(FILE *f, const plot_csv *c, plot_scan *s)
{
    for (int i = 0; i < c->nc; i++) {
        s->lo[i] = INFINITY;
        s->hi[i] = -INFINITY;
    }
    s->ngroup = 0;
    s->gval = NULL;
    if (s->ngcol > 0 &&
        !(s->gval = malloc((size_t)PLOT_MAXGROUPS * (size_t)s->ngcol * sizeof *s->gval))) {
        fputs("jnt plot: error: out of memory\n", stderr);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int n = 0;
    double v[PLOT_MAXCOL], key[PLOT_MAXCOL];
    while (getline(&line, &cap, f) > 0) {
        if (++n <= c->hline || line[0] == '#')
            continue;
        /* the fields of the row; a field that is no number is NaN */
        char *p = line;
        int k = 0;
        for (; k < c->nc && p; k++) {
            char *end;
            v[k] = strtod(p, &end);
            if (end == p || !isfinite(v[k]))
                v[k] = NAN;
            p = strchr(p, ',');
            p = p ? p + 1 : NULL;
        }
        for (; k < c->nc; k++)
            v[k] = NAN;
        for (k = 0; k < c->nc; k++)
            if (!isnan(v[k])) {
                s->lo[k] = v[k] < s->lo[k] ? v[k] : s->lo[k];
                s->hi[k] = v[k] > s->hi[k] ? v[k] : s->hi[k];
            }
        if (s->ngcol == 0 || s->ngroup < 0)
            continue;
        for (k = 0; k < s->ngcol; k++)
            key[k] = v[s->gcol[k]];
        if (known_group(s, key))
            continue;
        if (s->ngroup == PLOT_MAXGROUPS)
            s->ngroup = -1; /* too many: the caller refuses */
        else
            memcpy(s->gval + (size_t)s->ngroup++ * s->ngcol, key, (size_t)s->ngcol * sizeof *key);
    }
    free(line);
    return 0;
}

/* See plot.h. */
int plot_offset(double lo, double hi, char *buf, size_t n)
{
    double big = fmax(fabs(lo), fabs(hi)), r = hi - lo;
    buf[0] = '\0';
    /* four digits shared: the range below 1e-4 of the values */
    if (!(lo <= hi) || !isfinite(r) || r <= 0 || !(r < 1e-4 * big))
        return 0;
    /* the mean rounded at the decade above the range: what is left spans
     * less than two of that decade, so the ticks need few digits */
    double q = pow(10.0, floor(log10(r)) + 1), mid = lo + r / 2;
    double off = round(mid / q) * q;
    if (off == 0)
        return 0;
    int sig = (int)floor(log10(fabs(off))) - (int)lround(log10(q)) + 1;
    sig = sig < 1 ? 1 : sig > 17 ? 17 : sig;
    snprintf(buf, n, "%.*g", sig, off);
    return 1;
}
