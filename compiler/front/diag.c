/*
 * diag.c: the source table and diagnostics (diag.h).
 *
 * Locations are (file, byte offset); line and column are computed only when
 * a diagnostic or a #line is printed, by a binary search in the line starts
 * indexed when the source is registered. Output:
 *
 *   path:LINE:COL: error: message
 *     source line, verbatim (a window of DIAG_EXCERPT_MAX bytes around the
 *     column when it is longer, "..." at each cut end)
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
        free(dc->srcs[i].lines);
    }
    free(dc->srcs);
    dc->srcs = NULL;
    dc->nsrc = dc->capsrc = 0;
}

/* The offsets of the lines' first bytes of text[0..len) (one more line after each '\n'), in
 * a new array; *n their count. */
static int *index_lines(const char *text, size_t len, int *n)
{
    int cnt = 1;
    for (size_t i = 0; i < len; i++)
        cnt += text[i] == '\n';
    int *lines = xmalloc((size_t)cnt * sizeof *lines);
    lines[0] = 0;
    cnt = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            lines[cnt++] = (int)(i + 1);
    *n = cnt;
    return lines;
}

/* diag_add_source's allocations, each freed by add_release until the source is stored. */
typedef struct add_job {
    diag_ctx *dc;
    const char *path;
    char *text;
    size_t len;
    int *lines;
    int file;
} add_job;

static void add_run(void *arg)
{
    add_job *j = arg;
    diag_ctx *dc = j->dc;
    XGROW(dc->srcs, dc->capsrc, dc->nsrc);
    int n;
    j->lines = index_lines(j->text, j->len, &n);
    char *copy = xstrdup(j->path);
    dc->srcs[dc->nsrc] = (diag_src){copy, j->text, j->len, j->lines, n};
    j->lines = NULL;
    j->file = dc->nsrc++;
}

static void add_release(void *arg)
{
    free(((add_job *)arg)->lines);
}

/* Register text (malloc'd, NUL-terminated, ownership taken) under path. Every allocation
 * comes before text is stored: when one fails, text is still the caller's (diag_load_file
 * frees it then). */
int diag_add_source(diag_ctx *dc, const char *path, char *text, size_t len)
{
    add_job j = {dc, path, text, len, NULL, -1};
    alloc_guard(add_run, &j, add_release);
    return j.file;
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

/* Line and column (1-based; the column counts bytes) of loc; 0, 0 without a source. The
 * line is found by a binary search in the line table (a scan from the start of the text for
 * a source registered without one: a unit test's). */
void diag_linecol(const diag_ctx *dc, jnt_loc loc, int *line, int *col)
{
    const diag_src *s = src_of(dc, loc);
    if (!s) {
        *line = *col = 0;
        return;
    }
    size_t off = clamp_off(s, loc.off), bol = 0;
    int ln = 1;
    if (s->lines) {
        /* the last line starting at or before off: lines[lo] <= off < lines[hi] */
        int lo = 0, hi = s->nlines;
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            if ((size_t)s->lines[mid] <= off)
                lo = mid;
            else
                hi = mid;
        }
        ln = lo + 1;
        bol = (size_t)s->lines[lo];
    } else {
        for (size_t i = 0; i < off; i++)
            if (s->text[i] == '\n') {
                ln++;
                bol = i + 1;
            }
    }
    *line = ln;
    *col = (int)(off - bol) + 1;
}

/* Whether byte c continues a UTF-8 sequence (a window does not start or end inside one). */
static int utf8_cont(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

/* Print the source line holding loc and a caret under its column. A line longer than
 * DIAG_EXCERPT_MAX bytes is cut to a window of that many around the column (a quarter
 * before it), each cut end shown as "...". */
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
    size_t from = bol, to = shown;
    if (to - from > DIAG_EXCERPT_MAX) {
        size_t before = DIAG_EXCERPT_MAX / 4;
        from = off - bol > before ? off - before : bol;
        if (from + DIAG_EXCERPT_MAX < to)
            to = from + DIAG_EXCERPT_MAX;
        else
            from = to - DIAG_EXCERPT_MAX;
        while (from > bol && from < off && utf8_cont(s->text[from]))
            from++;
        while (to < shown && to > off && utf8_cont(s->text[to]))
            to--;
    }
    const char *lead = from > bol ? "..." : "";
    fprintf(dc->out, "  %s%.*s%s\n  %s", lead, (int)(to - from), s->text + from,
            to < shown ? "..." : "", from > bol ? "   " : "");
    for (size_t i = from; i < off; i++)
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
