/*
 * csv.c: the CSV writer of a run. Each number is the shortest text that
 * reads back to the same double (dtoa_shortest). Rows are formatted whole
 * into a buffer and appended whole to a 64 KiB buffer written with
 * write(2), so that a failing run leaves only complete lines (nothing is
 * written after a failure); a file is written as "<path>.part" and renamed
 * when closed. A path that exists and is not a regular file (/dev/null, a
 * pipe, a terminal) is written directly: renaming over it would replace the
 * device.
 *
 * A path ending in ".npy" gets NumPy's binary format instead (format 1.0,
 * or 2.0 for a header over 64 KiB): a structured array with one float64
 * field per column, named after it, rows as raw doubles. The row count in
 * the header is written as a placeholder and patched at close, so a run
 * that fails still leaves a valid file of the rows it wrote.
 *
 * A path ending in ".mat" gets a MAT-file (level 5, mat.c), which stores
 * each column whole: the rows go as raw doubles into a scratch file next to
 * the output, unlinked as soon as it is open (nothing is left behind if the
 * process dies), and csv_close writes the MAT-file from it into the .part.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv.h"
#include "io/dtoa.h"
#include "io/mat.h"
#include "jnt/jnt.h"

#define CSV_IOBUF (1u << 16) /* 64 KiB: stays in cache, 16 pages to fault in */
#define NPY_COUNT 20 /* characters reserved for the row count in the header */
#define CSV_CELL 32 /* dtoa_shortest: 24 characters and a NUL, which ',' replaces */

static int open_scratch(csv_writer *w, int ncol, char *err, size_t errn);

/* See csv.h. */
int csv_open(csv_writer *w, const char *path, int ncol, char *err, size_t errn)
{
    memset(w, 0, sizeof *w);
    w->fd = w->mat_fd = -1;
    w->row_cap = (size_t)(ncol > 0 ? ncol : 1) * CSV_CELL + 2;
    w->row = malloc(w->row_cap);
    w->buf = malloc(CSV_IOBUF);
    if (!w->row || !w->buf)
        goto nomem;
    if (strcmp(path, "-") == 0) {
        w->fd = STDOUT_FILENO;
        return JNT_OK;
    }
    size_t n = strlen(path);
    w->path = malloc(n + 1);
    w->part = malloc(n + 6);
    if (!w->path || !w->part)
        goto nomem;
    memcpy(w->path, path, n + 1);
    w->npy = n > 4 && strcmp(path + n - 4, ".npy") == 0;
    w->mat = n > 4 && strcmp(path + n - 4, ".mat") == 0;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (w->npy || w->mat) {
            snprintf(err, errn, "cannot write '%s': a %s file must be a regular file", path,
                     path + n - 4);
            csv_close(w, NULL, 0);
            return JNT_ERR_IO;
        }
        free(w->part);
        w->part = NULL;
    } else {
        memcpy(w->part, path, n);
        memcpy(w->part + n, ".part", 6);
    }
    w->fd = open(w->part ? w->part : w->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (w->fd < 0) {
        snprintf(err, errn, "cannot write '%s': %s", w->path, strerror(errno));
        csv_close(w, NULL, 0);
        return JNT_ERR_IO;
    }
    if (w->mat)
        return open_scratch(w, ncol, err, errn);
    return JNT_OK;
nomem:
    snprintf(err, errn, "out of memory opening '%s'", path);
    csv_close(w, NULL, 0);
    return JNT_ERR_NOMEM;
}

/* A .mat writer's scratch for the rows, "<path>.rows.XXXXXX" unlinked at
 * once, becomes w->fd (the .part waits in w->mat_fd), and the column names
 * "c1", "c2", ... until csv_header sets them. Returns 0, or JNT_ERR_IO /
 * JNT_ERR_NOMEM with the writer closed (the empty .part removed). */
static int open_scratch(csv_writer *w, int ncol, char *err, size_t errn)
{
    size_t n = strlen(w->path);
    char *tmp = malloc(n + 13);
    w->ncol = ncol > 0 ? ncol : 0;
    w->names = calloc((size_t)w->ncol + 1, MAT_NAME_MAX + 1);
    if (!tmp || !w->names) {
        free(tmp);
        snprintf(err, errn, "out of memory opening '%s'", w->path);
        csv_close(w, NULL, 0);
        return JNT_ERR_NOMEM;
    }
    memcpy(tmp, w->path, n);
    memcpy(tmp + n, ".rows.XXXXXX", 13);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errn, "cannot write '%s': its row scratch: %s", w->path, strerror(errno));
        free(tmp);
        free(w->names); /* no names: csv_close removes the .part */
        w->names = NULL;
        csv_close(w, NULL, 0);
        return JNT_ERR_IO;
    }
    unlink(tmp);
    free(tmp);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    w->mat_fd = w->fd;
    w->fd = fd;
    for (int j = 0; j < w->ncol; j++) {
        char c[16];
        snprintf(c, sizeof c, "c%d", j + 1);
        mat_name(w->names + (size_t)j * (MAT_NAME_MAX + 1), c, w->names, j);
    }
    return JNT_OK;
}

/* Write n bytes, across short writes. Returns 0 or the errno. */
static int write_all(int fd, const char *b, size_t n)
{
    while (n > 0) {
        ssize_t r = write(fd, b, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return errno ? errno : EIO;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

/* Append len bytes whole (a row is never split: nothing is written after a
 * failure), writing the buffer out when full. Returns 0 or JNT_ERR_IO. */
static int csv_put(csv_writer *w, const void *b, size_t len, char *err, size_t errn)
{
    if (w->failed)
        return JNT_ERR_IO;
    if (w->len + len > CSV_IOBUF) {
        w->failed = write_all(w->fd, w->buf, w->len);
        w->len = 0;
        if (!w->failed && len > CSV_IOBUF) /* a header longer than the buffer */
            w->failed = write_all(w->fd, b, len), len = 0;
    }
    if (w->failed) {
        snprintf(err, errn, "cannot write '%s': %s", w->path ? w->path : "<stdout>",
                 strerror(w->failed));
        return JNT_ERR_IO;
    }
    memcpy(w->buf + w->len, b, len);
    w->len += len;
    return JNT_OK;
}

/* See csv.h. */
/* NumPy's header for n float64 columns: magic, version, length, and the
 * dict with the row count left as spaces (patched by csv_close). */
static int npy_header(csv_writer *w, const char *const *names, int n, char *err, size_t errn)
{
    unsigned one = 1;
    const char *order = *(const unsigned char *)&one ? "<f8" : ">f8";
    size_t cap = 192 + (size_t)n * 16, k = 0; /* the dict, padded to 64 */
    for (int i = 0; i < n; i++)
        cap += 2 * strlen(names[i]);
    char *h = malloc(cap);
    if (!h) {
        snprintf(err, errn, "out of memory writing the header of '%s'", w->path);
        return JNT_ERR_NOMEM;
    }
    k += (size_t)sprintf(h, "{'descr': [");
    for (int i = 0; i < n; i++) {
        h[k++] = '(';
        h[k++] = '\'';
        for (const char *c = names[i]; *c; c++) { /* a Python string literal */
            if (*c == '\'' || *c == '\\')
                h[k++] = '\\';
            h[k++] = *c;
        }
        k += (size_t)sprintf(h + k, "', '%s'), ", order);
    }
    k += (size_t)sprintf(h + k, "], 'fortran_order': False, 'shape': (");
    size_t count_at = k;
    k += (size_t)sprintf(h + k, "%-*d,), }", NPY_COUNT, 0);
    /* magic (6) + version (2) + length (2 or 4) + dict + '\n', padded to 64 */
    int v2 = k + 11 > 65535;
    size_t pre = v2 ? 12 : 10, total = (pre + k + 1 + 63) / 64 * 64;
    unsigned char head[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', (unsigned char)(v2 ? 2 : 1), 0};
    size_t hl = total - pre;
    for (size_t b = 0; b < (v2 ? 4u : 2u); b++)
        head[8 + b] = (unsigned char)(hl >> (8 * b));
    memset(h + k, ' ', total - pre - k - 1);
    h[total - pre - 1] = '\n';
    int rc = csv_put(w, head, pre, err, errn);
    if (rc == JNT_OK)
        rc = csv_put(w, h, total - pre, err, errn);
    w->count_at = (long)(pre + count_at);
    free(h);
    return rc;
}

/* See csv.h. */
int csv_header(csv_writer *w, const char *const *names, int n, char *err, size_t errn)
{
    if (w->npy)
        return npy_header(w, names, n, err, errn);
    if (w->mat) { /* the names only: the file is written at close */
        for (int j = 0; j < n && j < w->ncol; j++)
            mat_name(w->names + (size_t)j * (MAT_NAME_MAX + 1), names[j], w->names, j);
        return JNT_OK;
    }
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
    return csv_put(w, w->row, k, err, errn);
}

/* See csv.h. */
int csv_row(csv_writer *w, const double *v, int n, char *err, size_t errn)
{
    if (w->mat && w->nrows >= MAT_MAX_ROWS) { /* the rows so far stay valid */
        snprintf(err, errn, "cannot write '%s': a MAT-file column holds at most %ld rows",
                 w->path, MAT_MAX_ROWS);
        return JNT_ERR_IO;
    }
    if (w->npy || w->mat) {
        int rc = csv_put(w, v, (size_t)n * sizeof *v, err, errn);
        w->nrows += rc == JNT_OK;
        return rc;
    }
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0)
            w->row[k++] = ',';
        k += (size_t)dtoa_shortest(w->row + k, v[i]);
    }
    w->row[k++] = '\n';
    return csv_put(w, w->row, k, err, errn);
}

/* See csv.h. */
int csv_close(csv_writer *w, char *err, size_t errn)
{
    int rc = JNT_OK, open = w->buf && w->fd >= 0; /* a zeroed writer was never opened */
    const char *name = w->path ? w->path : "<stdout>";
    if (open && !w->failed && (w->failed = write_all(w->fd, w->buf, w->len)) != 0) {
        if (err)
            snprintf(err, errn, "cannot write '%s': %s", name, strerror(w->failed));
        rc = JNT_ERR_IO;
    }
    /* the row count of a .npy header: the rows written, also after a failure */
    if (open && w->npy && w->count_at > 0) {
        char c[NPY_COUNT + 1];
        snprintf(c, sizeof c, "%-*ld", NPY_COUNT, w->nrows);
        if (pwrite(w->fd, c, NPY_COUNT, w->count_at) != NPY_COUNT && rc == JNT_OK) {
            if (err)
                snprintf(err, errn, "cannot write '%s': %s", name, strerror(errno));
            rc = JNT_ERR_IO;
        }
    }
    /* .mat: the MAT-file from every row that reached the scratch whole (all
     * of them, unless a write failed); if it cannot be written, no file */
    int keep = 1;
    if (open && w->mat) {
        keep = 0;
        if (w->mat_fd >= 0 && w->names) {
            off_t end = lseek(w->fd, 0, SEEK_CUR);
            long nrows = w->ncol > 0 && end > 0 ? (long)(end / (8 * (off_t)w->ncol)) : 0;
            int e = end < 0 ? errno
                            : mat_write(w->mat_fd, w->fd, nrows, w->ncol, w->names,
                                        (double *)(void *)w->buf, CSV_IOBUF / sizeof(double));
            if (close(w->mat_fd) != 0 && e == 0)
                e = errno;
            w->mat_fd = -1;
            keep = e == 0;
            if (e && rc == JNT_OK) {
                if (err)
                    snprintf(err, errn, "cannot write '%s': %s", name, strerror(e));
                rc = JNT_ERR_IO;
            }
        }
    }
    if (open && w->mat && w->mat_fd >= 0)
        close(w->mat_fd);
    if (open && w->fd != STDOUT_FILENO && close(w->fd) != 0 && !w->failed && rc == JNT_OK) {
        if (err)
            snprintf(err, errn, "cannot write '%s': %s", name, strerror(errno));
        rc = JNT_ERR_IO;
    }
    if (open && w->part && !keep)
        unlink(w->part);
    /* unlink the old file first: ext4 starts the write-back of a file
     * renamed over another (auto_da_alloc), 0.4 ms a run on a 400 kB file
     * here; we promise complete files, not durability (no fsync) */
    if (open && w->part && keep) {
        unlink(w->path);
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
    free(w->buf);
    free(w->names);
    memset(w, 0, sizeof *w);
    w->fd = w->mat_fd = -1;
    return rc;
}
