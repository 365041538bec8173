/*
 * csv.h: the output writer of a run (internal). Writes to its own temporary
 * "<path>.jnt-<pid>-<n>.part" and renames it to "<path>" when closed, so an interrupted run never leaves a
 * half-written file under the final name; "-" writes to stdout. CSV numbers
 * are the shortest text that reads back to the exact double (dtoa.h). A
 * path ending in ".npy" is written in NumPy's binary format, one ending in
 * ".mat" as a MAT-file for Octave and MATLAB (mat.h) (csv.c).
 */
#ifndef JNT_CSV_H
#define JNT_CSV_H

#include <stddef.h>
#include <stdio.h>

typedef struct csv_writer {
    int fd;         /* -1: not open */
    char *path;     /* final name (NULL for stdout) */
    char *part;     /* temporary name; NULL when the path is not a regular file */
    char *row;      /* one formatted row */
    size_t row_cap;
    char *buf;      /* rows not yet written (CSV_IOBUF bytes) */
    size_t len;
    int split;      /* a regular file: the buffer written full, rows split across writes */
    long long off;  /* bytes written to fd */
    long long kept; /* end of the last whole row (or header) written: a failed
                       write cuts the file back to it */
    long long data_at; /* .npy: the header's length (the rows start there) */
    int failed;     /* errno of a failed write: further rows are dropped */
    int npy;        /* NumPy's .npy format (the path ends in ".npy") */
    int mat;        /* a MAT-file (the path ends in ".mat"): fd is the row scratch */
    long nrows;     /* .npy, .mat: rows written */
    long count_at;  /* .npy: offset of the row count in the header */
    int mat_fd;     /* .mat: the .part, written at close (-1: none) */
    int ncol;       /* columns */
    char *names;    /* .mat: ncol variable names of MAT_NAME_MAX + 1 bytes */
    /* rows in memory: hook(hook_ctx, row, n) sees every row written (before
     * the file); a non-zero return stops with JNT_STOPPED */
    int (*hook)(void *ctx, const double *v, int n);
    void *hook_ctx;
    int skip;       /* rows still to drop (a resumed run's start row) */
    double max_bytes; /* > 0: a row that would take the file past it fails (JNT_ERR_PARAM) */
    long nrows_all;   /* rows taken (any format) */
    char end[704];  /* the comment line written at close (csv_end), "": none */
} csv_writer;

/* A writer without a file, for the hook only (set hook after this call):
 * its rows go nowhere else. csv_close frees nothing and is safe. */
void csv_open_hook(csv_writer *w, int ncol);

/* Open `path` ("-" = stdout) for a table of ncol columns. A .npy or .mat
 * path must be a regular file (or not exist); a .mat writer also creates
 * its row scratch next to it ("<path>.rows.XXXXXX", unlinked at once; the
 * rows take 8 ncol bytes each there until the close). Returns 0, or
 * JNT_ERR_IO / JNT_ERR_NOMEM with a message in err[errn]. */
int csv_open(csv_writer *w, const char *path, int ncol, char *err, size_t errn);
/* The header line: names joined by ','; for .npy, NumPy's header with one
 * float64 field per name; for .mat, the names turned into MATLAB variable
 * names (mat_name), nothing written yet. Returns 0 or JNT_ERR_IO (message). */
int csv_header(csv_writer *w, const char *const *names, int n, char *err, size_t errn);
/* One row of n values (n at most the ncol of csv_open), first to the hook
 * (JNT_STOPPED when it returns non-zero, the message in err): each as
 * dtoa_shortest writes it, joined by ',', or n raw doubles (.npy, .mat). A
 * .mat refuses rows past MAT_MAX_ROWS (JNT_ERR_IO, the rows before it
 * kept), and a row past max_bytes (JNT_ERR_PARAM, the rows before it kept).
 * Returns 0 or JNT_ERR_IO (message); after a failed write the file
 * holds the whole rows that reached it (a row split across two writes is
 * cut off) and further rows are dropped. */
int csv_row(csv_writer *w, const double *v, int n, char *err, size_t errn);
/* A comment line (line starts with '#', no newline) written now, after the
 * header and before the rows (csv_meta.c: the units and the run's
 * provenance); nothing for a stream, .npy or .mat. 0 or JNT_ERR_IO. */
int csv_comment(csv_writer *w, const char *line, char *err, size_t errn);
/* The last line of a text CSV file, written by csv_close after the rows (a
 * comment: "# jnt: complete at t = 2 s"); nothing for a stream, .npy or .mat.
 * After a failed write it goes at the last whole row, or is left out. */
void csv_end(csv_writer *w, const char *line);
/* Flush, close and rename to the final name (also after a failure). A .mat
 * is written here, with every row that reached the scratch whole: all of
 * them, or those before a failed write; if the MAT-file itself cannot be
 * written, the .part is removed and the old file, if any, stays. Returns 0
 * or JNT_ERR_IO (message, only if err is not NULL). Safe on a writer that
 * was never opened (zeroed). */
int csv_close(csv_writer *w, char *err, size_t errn);

#endif
