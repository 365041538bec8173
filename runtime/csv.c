/*
 * csv.c: the CSV writer of a run. Rows are formatted whole into a buffer and
 * written with one fwrite, so that a failing run leaves only complete lines;
 * the file is written as "<path>.part" and renamed when closed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "jnt/jnt.h"

#define CSV_IOBUF (1u << 20)
#define CSV_CELL 32 /* "%.15g" needs at most 23 characters, plus ',' */

/* See csv.h. */
int csv_open(csv_writer *w, const char *path, int ncol, char *err, size_t errn)
{
    memset(w, 0, sizeof *w);
    w->row_cap = (size_t)(ncol > 0 ? ncol : 1) * CSV_CELL + 2;
    w->row = malloc(w->row_cap);
    if (!w->row)
        goto nomem;
    if (strcmp(path, "-") == 0) {
        w->f = stdout;
        return JNT_OK;
    }
    size_t n = strlen(path);
    w->path = malloc(n + 1);
    w->part = malloc(n + 6);
    w->iobuf = malloc(CSV_IOBUF);
    if (!w->path || !w->part || !w->iobuf)
        goto nomem;
    memcpy(w->path, path, n + 1);
    memcpy(w->part, path, n);
    memcpy(w->part + n, ".part", 6);
    w->f = fopen(w->part, "w");
    if (!w->f) {
        snprintf(err, errn, "cannot write '%s': %s", w->path, strerror(errno));
        csv_close(w, NULL, 0);
        return JNT_ERR_IO;
    }
    setvbuf(w->f, w->iobuf, _IOFBF, CSV_IOBUF);
    return JNT_OK;
nomem:
    snprintf(err, errn, "out of memory opening '%s'", path);
    csv_close(w, NULL, 0);
    return JNT_ERR_NOMEM;
}

/* Write len bytes of w->row, or record the failure. */
static int csv_put(csv_writer *w, size_t len, char *err, size_t errn)
{
    if (w->failed)
        return JNT_ERR_IO;
    if (fwrite(w->row, 1, len, w->f) != len) {
        w->failed = 1;
        snprintf(err, errn, "cannot write '%s': %s", w->path ? w->path : "<stdout>",
                 strerror(errno));
        return JNT_ERR_IO;
    }
    return JNT_OK;
}

/* See csv.h. */
int csv_header(csv_writer *w, const char *const *names, int n, char *err, size_t errn)
{
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        size_t l = strlen(names[i]);
        if (k + l + 2 > w->row_cap) {
            char *r = realloc(w->row, k + l + 2 + w->row_cap);
            if (!r) {
                snprintf(err, errn, "out of memory writing the CSV header");
                return JNT_ERR_NOMEM;
            }
            w->row = r;
            w->row_cap += k + l + 2;
        }
        if (i > 0)
            w->row[k++] = ',';
        memcpy(w->row + k, names[i], l);
        k += l;
    }
    w->row[k++] = '\n';
    return csv_put(w, k, err, errn);
}

/* See csv.h. */
int csv_row(csv_writer *w, const double *v, int n, char *err, size_t errn)
{
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0)
            w->row[k++] = ',';
        int c = snprintf(w->row + k, CSV_CELL, "%.15g", v[i]);
        k += (size_t)(c < CSV_CELL ? c : CSV_CELL - 1);
    }
    w->row[k++] = '\n';
    return csv_put(w, k, err, errn);
}

/* See csv.h. */
int csv_close(csv_writer *w, char *err, size_t errn)
{
    int rc = JNT_OK;
    if (w->f == stdout) {
        if (fflush(stdout) != 0 && !w->failed && err) {
            snprintf(err, errn, "cannot write <stdout>: %s", strerror(errno));
            rc = JNT_ERR_IO;
        }
    } else if (w->f) {
        if (fclose(w->f) != 0 && !w->failed) {
            if (err)
                snprintf(err, errn, "cannot write '%s': %s", w->path, strerror(errno));
            rc = JNT_ERR_IO;
        }
        if (rename(w->part, w->path) != 0 && rc == JNT_OK) {
            if (err)
                snprintf(err, errn, "cannot rename '%s' to '%s': %s", w->part, w->path,
                         strerror(errno));
            rc = JNT_ERR_IO;
        }
    }
    free(w->row);
    free(w->path);
    free(w->part);
    free(w->iobuf);
    memset(w, 0, sizeof *w);
    return rc;
}
