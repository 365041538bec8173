/*
 * diag.c: the source table and diagnostics (diag.h).
 *
 * Locations are (file, byte offset); line and column are computed only when
 * a diagnostic is printed, by scanning the text up to the offset. Output:
 *
 *   path:LINE:COL: error: message
 *     source line, verbatim
 *     spaces (tabs kept) up to the column, then ^
 */
#include "diag.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const jnt_loc loc_none = {-1, 0};

/* Abort on exhausted memory: a compiler cannot continue without it. */
static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("jnt: error: out of memory\n", stderr);
        abort();
    }
    return q;
}

/* Set up an empty context printing to out (stderr when NULL); max_errors <= 0: no cap. */
void diag_init(diag_ctx *dc, FILE *out, int max_errors)
{
    memset(dc, 0, sizeof *dc);
    dc->out = out ? out : stderr;
    dc->max_errors = max_errors;
}

/* Free every registered source. The context may be initialised again. */
void diag_free(diag_ctx *dc)
{
    for (int i = 0; i < dc->nsrc; i++) {
        free(dc->srcs[i].path);
        free(dc->srcs[i].text);
    }
    free(dc->srcs);
    dc->srcs = NULL;
    dc->nsrc = dc->capsrc = 0;
}

/* Register text (malloc'd, NUL-terminated, ownership taken) under path. */
int diag_add_source(diag_ctx *dc, const char *path, char *text, size_t len)
{
    if (dc->nsrc == dc->capsrc) {
        dc->capsrc = dc->capsrc ? 2 * dc->capsrc : 8;
        dc->srcs = xrealloc(dc->srcs, (size_t)dc->capsrc * sizeof *dc->srcs);
    }
    diag_src *s = &dc->srcs[dc->nsrc];
    size_t n = strlen(path);
    s->path = xrealloc(NULL, n + 1);
    memcpy(s->path, path, n + 1);
    s->text = text;
    s->len = len;
    return dc->nsrc++;
}

/* Read the whole file at path and register it; -1 with errno set on failure. */
int diag_load_file(diag_ctx *dc, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t len = 0, cap = 4096;
    char *text = xrealloc(NULL, cap);
    for (;;) {
        if (cap - len < 2) {
            cap *= 2;
            text = xrealloc(text, cap);
        }
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(text);
        errno = EIO;
        return -1;
    }
    text[len] = '\0';
    return diag_add_source(dc, path, text, len);
}

/* The source a location points into, or NULL (loc_none, bad index). */
static const diag_src *src_of(const diag_ctx *dc, jnt_loc loc)
{
    if (loc.file < 0 || loc.file >= dc->nsrc)
        return NULL;
    return &dc->srcs[loc.file];
}

/* Clamp an offset into [0, len]. */
static size_t clamp_off(const diag_src *s, int off)
{
    if (off < 0)
        return 0;
    return (size_t)off > s->len ? s->len : (size_t)off;
}

/* Line and column (1-based; the column counts bytes) of loc; 0, 0 without a source. */
void diag_linecol(const diag_ctx *dc, jnt_loc loc, int *line, int *col)
{
    const diag_src *s = src_of(dc, loc);
    if (!s) {
        *line = *col = 0;
        return;
    }
    size_t off = clamp_off(s, loc.off), bol = 0;
    int ln = 1;
    for (size_t i = 0; i < off; i++)
        if (s->text[i] == '\n') {
            ln++;
            bol = i + 1;
        }
    *line = ln;
    *col = (int)(off - bol) + 1;
}

/* Print the source line holding loc and a caret under its column. */
static void print_excerpt(const diag_ctx *dc, const diag_src *s, jnt_loc loc)
{
    size_t off = clamp_off(s, loc.off), bol = off, eol = off;
    while (bol > 0 && s->text[bol - 1] != '\n')
        bol--;
    while (eol < s->len && s->text[eol] != '\n')
        eol++;
    size_t shown = eol;
    if (shown > bol && s->text[shown - 1] == '\r')
        shown--;
    fprintf(dc->out, "  %.*s\n  ", (int)(shown - bol), s->text + bol);
    for (size_t i = bol; i < off; i++)
        fputc(s->text[i] == '\t' ? '\t' : ' ', dc->out);
    fputs("^\n", dc->out);
}

/* One diagnostic of the given severity; the caller has decided it is printed. */
static void emit(diag_ctx *dc, jnt_loc loc, const char *sev, const char *fmt, va_list ap)
{
    const diag_src *s = src_of(dc, loc);
    if (s) {
        int line, col;
        diag_linecol(dc, loc, &line, &col);
        fprintf(dc->out, "%s:%d:%d: %s: ", s->path, line, col, sev);
    } else {
        fprintf(dc->out, "jnt: %s: ", sev);
    }
    vfprintf(dc->out, fmt, ap);
    fputc('\n', dc->out);
    if (s)
        print_excerpt(dc, s, loc);
}

/* Report an error at loc (loc_none: no location). Counted even when capped. */
void diag_error(diag_ctx *dc, jnt_loc loc, const char *fmt, ...)
{
    dc->nerr++;
    if (dc->capped)
        return;
    if (dc->max_errors > 0 && dc->nerr > dc->max_errors) {
        fputs("jnt: error: too many errors, stopping\n", dc->out);
        dc->capped = 1;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    emit(dc, loc, "error", fmt, ap);
    va_end(ap);
}

/* Report a warning at loc; silent once errors are capped. */
void diag_warning(diag_ctx *dc, jnt_loc loc, const char *fmt, ...)
{
    dc->nwarn++;
    if (dc->capped)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(dc, loc, "warning", fmt, ap);
    va_end(ap);
}

/* Attach a note (to the previous diagnostic); silent once errors are capped. */
void diag_note(diag_ctx *dc, jnt_loc loc, const char *fmt, ...)
{
    if (dc->capped)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(dc, loc, "note", fmt, ap);
    va_end(ap);
}

/* Number of errors reported so far (printed or not). */
int diag_errors(const diag_ctx *dc)
{
    return dc->nerr;
}

/*
 * Optimal-string-alignment (restricted Damerau-Levenshtein) distance of a and
 * b, comparing case-insensitively when fold is set. Two rolling rows plus the
 * one before them for transpositions; names are short, so quadratic is fine.
 */
static int edit_distance(const char *a, const char *b, int fold)
{
    size_t na = strlen(a), nb = strlen(b);
    int *row = xrealloc(NULL, 3 * (nb + 1) * sizeof *row);
    int *pp = row, *p = row + nb + 1, *c = row + 2 * (nb + 1);
    for (size_t j = 0; j <= nb; j++)
        p[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        c[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int ca = (unsigned char)a[i - 1], cb = (unsigned char)b[j - 1];
            if (fold) {
                ca = tolower(ca);
                cb = tolower(cb);
            }
            int best = p[j - 1] + (ca != cb);
            if (p[j] + 1 < best)
                best = p[j] + 1;
            if (c[j - 1] + 1 < best)
                best = c[j - 1] + 1;
            if (i > 1 && j > 1) {
                int pa = (unsigned char)a[i - 2], pb = (unsigned char)b[j - 2];
                if (fold) {
                    pa = tolower(pa);
                    pb = tolower(pb);
                }
                if (ca == pb && pa == cb && pp[j - 2] + 1 < best)
                    best = pp[j - 2] + 1;
            }
            c[j] = best;
        }
        int *t = pp;
        pp = p;
        p = c;
        c = t;
    }
    int d = p[nb];
    free(row);
    return d;
}

/*
 * The candidate closest to name: smallest case-insensitive edit distance,
 * ties broken by the case-sensitive distance, then by order. Returned only
 * when the distance is at most max(1, strlen(name) / 3); else NULL.
 */
const char *diag_closest(const char *name, const char *const *cands, int n)
{
    int limit = (int)strlen(name) / 3;
    if (limit < 1)
        limit = 1;
    const char *best = NULL;
    int bestd = 0, bestexact = 0;
    for (int i = 0; i < n; i++) {
        if (!cands[i])
            continue;
        int d = edit_distance(name, cands[i], 1);
        if (d > limit)
            continue;
        int e = edit_distance(name, cands[i], 0);
        if (!best || d < bestd || (d == bestd && e < bestexact)) {
            best = cands[i];
            bestd = d;
            bestexact = e;
        }
    }
    return best;
}
