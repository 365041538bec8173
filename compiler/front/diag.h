/*
 * diag.h: sources and diagnostics.
 *
 * Every source text the compiler reads is registered here and addressed by a
 * jnt_loc (file index, byte offset). Line and column are computed only when a
 * diagnostic or a #line is printed, from a table of line starts made when the
 * source is registered. Diagnostics read
 *
 *   file:line:col: error: message
 *     source line
 *          ^
 *
 * (a source line longer than DIAG_EXCERPT_MAX bytes is shown as a window of it
 * around the column, its cut ends marked "...").
 *
 * and are counted; the compiler checks diag_errors() between stages.
 */
#ifndef JNT_DIAG_H
#define JNT_DIAG_H

#include <stdarg.h>
#include <stdio.h>

typedef struct jnt_loc {
    int file; /* index into the source table, -1: no location */
    int off;  /* byte offset into that file */
} jnt_loc;

extern const jnt_loc loc_none;

/* The longest source line a diagnostic shows whole; longer ones are cut to a window
 * of this many bytes around the column. */
#define DIAG_EXCERPT_MAX 160

typedef struct diag_src {
    char *path;   /* as given (for messages) */
    char *text;   /* NUL-terminated contents, owned */
    size_t len;
    int *lines;   /* offset of each line's first byte, owned; NULL: lines found by a scan */
    int nlines;
} diag_src;

typedef struct diag_ctx {
    diag_src *srcs;
    int nsrc, capsrc;
    int nerr, nwarn;
    int max_errors; /* after this many, further errors are counted but not printed */
    int capped;     /* the "too many errors" line was printed */
    FILE *out;
    char load_why[96]; /* why the last diag_load_file failed (setup_open_input) */
    const char *allow_path; /* ':'-separated directories a model's files may be in besides
                               its own (JNT_ALLOW_PATH; sema/files.c) */
} diag_ctx;

void diag_init(diag_ctx *dc, FILE *out, int max_errors);
void diag_free(diag_ctx *dc);

/* Register a source; takes ownership of text (malloc'd, NUL-terminated).
 * Returns its file index. */
int diag_add_source(diag_ctx *dc, const char *path, char *text, size_t len);
/* Read a file and register it: its index, or -1 with the reason in dc->load_why (a
 * regular file of at most SETUP_MAX_SOURCE bytes: no FIFO, device or directory). */
int diag_load_file(diag_ctx *dc, const char *path);

/* Line and column (1-based) of a location: a binary search in the source's line table
 * (O(log lines): code generation asks once per #line). */
void diag_linecol(const diag_ctx *dc, jnt_loc loc, int *line, int *col);

void diag_error(diag_ctx *dc, jnt_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_warning(diag_ctx *dc, jnt_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void diag_note(diag_ctx *dc, jnt_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int diag_errors(const diag_ctx *dc);

#endif
