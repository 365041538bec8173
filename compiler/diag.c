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

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "jnt/setup.h"

const jnt_loc loc_none = {-1, 0};

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

/* Register text (malloc'd, NUL-terminated, ownership taken) under path. Both allocations
 * come before text is stored: when one fails, text is still the caller's (diag_load_file
 * frees it then). */
int diag_add_source(diag_ctx *dc, const char *path, char *text, size_t len)
{
    XGROW(dc->srcs, dc->capsrc, dc->nsrc);
    char *copy = xstrdup(path);
    dc->srcs[dc->nsrc] = (diag_src){copy, text, len};
    return dc->nsrc++;
}

/* A file being read by diag_load_file; what it holds is freed by close_read, also when
 * memory runs out midway (alloc_guard). */
typedef struct file_read {
    diag_ctx *dc;
    const char *path;
    FILE *f;
    char *text; /* until registered */
    int file;   /* its index, -1: read error */
} file_read;

/* Read r->f to its end and register the text. */
static void read_all(void *arg)
{
    file_read *r = arg;
    size_t len = 0, cap = 4096;
    r->text = xmalloc(cap);
    for (;;) {
        if (cap - len < 2) {
            r->text = xrealloc(r->text, 2 * cap);
            cap *= 2;
        }
        size_t got = fread(r->text + len, 1, cap - len - 1, r->f);
        len += got;
        if (got == 0)
            break;
        if (len > (size_t)SETUP_MAX_SOURCE) { /* it grew after it was opened */
            snprintf(r->dc->load_why, sizeof r->dc->load_why, "it has more than %lld bytes",
                     SETUP_MAX_SOURCE);
            return;
        }
    }
    if (ferror(r->f)) {
        snprintf(r->dc->load_why, sizeof r->dc->load_why, "%s", strerror(EIO));
        return;
    }
    r->text[len] = '\0';
    if (len >= 3 && memcmp(r->text, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte-order mark */
        memset(r->text, ' ', 3); /* blanks keep the columns of line 1 */
    r->file = diag_add_source(r->dc, r->path, r->text, len);
    r->text = NULL;
}

static void close_read(void *arg)
{
    file_read *r = arg;
    fclose(r->f);
    free(r->text);
}

/* Read the whole file at path and register it; -1 with the reason in dc->load_why. */
int diag_load_file(diag_ctx *dc, const char *path)
{
    file_read r = {dc, path, setup_open_input(path, SETUP_MAX_SOURCE, dc->load_why,
                                              sizeof dc->load_why), NULL, -1};
    if (!r.f)
        return -1;
    alloc_guard(read_all, &r, close_read);
    return r.file;
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
