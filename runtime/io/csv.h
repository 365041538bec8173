/*
 * csv.h: the CSV writer of a run (internal). Writes to "<path>.part" and
 * renames it to "<path>" when closed, so an interrupted run never leaves a
 * half-written file under the final name; "-" writes to stdout; a path
 * ending in ".npy" is written in NumPy's binary format (csv.c).
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
    int failed;     /* errno of a failed write: further rows are dropped */
    int npy;        /* NumPy's .npy format (the path ends in ".npy") */
    long nrows;     /* .npy: rows written */
    long count_at;  /* .npy: offset of the row count in the header */
} csv_writer;

/* Open `path` ("-" = stdout) for a table of ncol columns. Returns 0, or
 * JNT_ERR_IO / JNT_ERR_NOMEM with a message in err[errn]. */
int csv_open(csv_writer *w, const char *path, int ncol, char *err, size_t errn);
/* The header line: names joined by ','; for .npy, NumPy's header with one
 * float64 field per name. Returns 0 or JNT_ERR_IO (message). */
int csv_header(csv_writer *w, const char *const *names, int n, char *err, size_t errn);
/* Write x into s (at least 32 bytes) with 15 significant digits in the
 * layout of printf's %.15g (trailing zeros dropped; exponent form below 1e-4
 * and from 1e15 on), several times faster than snprintf: one scaling by an
 * exact power of ten in extended precision and integer digits, so the last
 * digit may differ from printf's correctly rounded one in rare halfway cases
 * (relative error below 1e-15 either way). Returns the length. */
int csv_format(char *s, double x);

/* One row of n values (csv_format each, or n doubles in a .npy). */
int csv_row(csv_writer *w, const double *v, int n, char *err, size_t errn);
/* Flush, close and rename to the final name (also after a failure). Returns
 * 0 or JNT_ERR_IO (message, only if err is not NULL). Safe on a writer that
 * was never opened (zeroed). */
int csv_close(csv_writer *w, char *err, size_t errn);

#endif
