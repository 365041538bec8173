/*
 * csv.c: the CSV writer of a run. Each number is the shortest text that
 * reads back to the same double (dtoa_shortest). Rows are formatted into a
 * 64 KiB buffer written with write(2) to the writer's own temporary file
 * beside the target, which the one output routine (outfile.c) creates and
 * renames over the target at close, and which decides which paths may be
 * written: a link, a directory, a FIFO or a device is refused at csv_open,
 * before the run, /dev/null is written in place and "-" is stdout. The
 * buffer goes out whole, at file offsets that are multiples of 64 KiB, with
 * a row split across two writes where it falls: aligned writes let the page
 * cache use 64 KiB folios (ext4 here: 0.14 ms instead of 0.19 ms for
 * 400 kB, and a cheaper unlink of the file it replaces next run). If a write
 * fails, the file is cut back to the end of the last row that reached it
 * whole (ftruncate) and nothing more is written; such a file, or an empty
 * one, never replaces an existing file (a full disk keeps the previous
 * result), but takes the place of none. /dev/null and stdout get whole rows.
 * A text CSV ends in a comment line saying how the run ended (csv_end:
 * "# jnt: complete at t = ...", "interrupted", "failed").
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
#include "io/outfile.h"
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
    w->ncol = ncol > 0 ? ncol : 0;
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
    if (!w->path)
        goto nomem;
    memcpy(w->path, path, n + 1);
    w->npy = n > 4 && strcmp(path + n - 4, ".npy") == 0;
    w->mat = n > 4 && strcmp(path + n - 4, ".mat") == 0;
    int direct;
    const char *why = out_refuse(path, NULL, &direct);
    if (!why && direct && (w->npy || w->mat))
        why = "a .npy or .mat output must be a regular file";
    if (why) {
        snprintf(err, errn, "cannot write '%s': %s", path, why);
        csv_close(w, NULL, 0);
        return JNT_ERR_IO;
    }
    w->split = !direct; /* a regular file: aligned writes, cut back on failure */
    w->fd = direct ? open(w->path, O_WRONLY | O_CLOEXEC) : out_create_part(path, &w->part);
    if (w->fd < 0 && !direct && !w->part)
        goto nomem;
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

/* Write n bytes, across short writes; *done counts those written. Returns 0
 * or the errno. */
static int write_all(int fd, const char *b, size_t n, size_t *done)
{
    *done = 0;
    while (n > 0) {
        ssize_t r = write(fd, b, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return errno ? errno : EIO;
        b += r;
        n -= (size_t)r;
        *done += (size_t)r;
    }
    return 0;
}

/* Write n bytes of b at w->off. On failure the file is cut back to
 * w->kept (the end of the last whole item in it: no part row stays) and
 * w->failed set. Returns 0 or JNT_ERR_IO (message, if err is not NULL). */
static int flush(csv_writer *w, const char *b, size_t n, char *err, size_t errn)
{
    size_t done = 0;
    if (!w->failed && (w->failed = write_all(w->fd, b, n, &done)) != 0 && w->split) {
        /* text: the whole rows of what did reach the file (a disk that fills
         * mid-buffer keeps the rows before, not only those of earlier writes) */
        if (!w->npy && !w->mat)
            while (done > 0 && b[done - 1] != '\n')
                done--;
        if (!w->npy && !w->mat && done > 0 && w->off + (long long)done > w->kept)
            w->kept = w->off + (long long)done;
        (void)!ftruncate(w->fd, (off_t)w->kept); /* the error to report is the write's */
    }
    if (w->failed) {
        /* a cut file never replaces one that exists (out_commit) */
        if (err)
            snprintf(err, errn, "cannot write '%s': %s%s", w->path ? w->path : "<stdout>",
                     strerror(w->failed), w->part && access(w->path, F_OK) == 0
                     ? "; the previous file is kept" : "");
        return JNT_ERR_IO;
    }
    w->off += (long long)n;
    return JNT_OK;
}

/* Append an item of len bytes (a header or a row). A regular file gets the
 * buffer filled to the brim and written whole, the item split where it
 * falls (w->kept: the end of the last whole item written, for flush); any
 * other file gets the item whole into the buffer, or written on its own
 * when it is larger. Returns 0 or JNT_ERR_IO (message). */
static int csv_put(csv_writer *w, const void *b, size_t len, char *err, size_t errn)
{
    const char *p = b;
    long long start = w->off + (long long)w->len;
    if (w->failed)
        return JNT_ERR_IO;
    while (w->split && w->len + len >= CSV_IOBUF) {
        size_t room = CSV_IOBUF - w->len;
        memcpy(w->buf + w->len, p, room);
        if (flush(w, w->buf, CSV_IOBUF, err, errn) != JNT_OK)
            return JNT_ERR_IO;
        w->len = 0;
        p += room;
        len -= room;
        w->kept = len == 0 ? w->off : start;
    }
    if (!w->split && w->len + len > CSV_IOBUF) {
        if (flush(w, w->buf, w->len, err, errn) != JNT_OK)
            return JNT_ERR_IO;
        w->len = 0;
        if (len > CSV_IOBUF) /* a header longer than the buffer */
            return flush(w, p, len, err, errn);
    }
    memcpy(w->buf + w->len, p, len);
    w->len += len;
    return JNT_OK;
}

/* NumPy's header for n float64 columns: magic, version, length, and the
 * dict with the row count left as spaces (patched by csv_close). */
static int npy_header(csv_writer *w, const char *const *names, int n, char *err, size_t errn)
{
    unsigned one = 1;
    const char *order = *(const unsigned char *)&one ? "<f8" : ">f8";
    size_t cap = 192 + (size_t)n * 16, k = 0; /* the dict, padded to 64 */
    for (int i = 0; i < n; i++)
        cap += 2 * strlen(names[i]);
    char *h0 = malloc(12 + cap), *h = h0 + 12; /* the dict after room for the magic */
    if (!h0) {
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
    memcpy(h - pre, head, pre);
    memset(h + k, ' ', total - pre - k - 1);
    h[total - pre - 1] = '\n';
    int rc = csv_put(w, h - pre, total, err, errn);
    w->count_at = (long)(pre + count_at);
    w->data_at = (long long)total;
    free(h0);
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

/* Whether w takes comment lines: a CSV file (not a stream, a binary file or no file). */
static int has_comments(const csv_writer *w)
{
    return w->path && !w->npy && !w->mat && w->fd >= 0;
}

/* See csv.h. */
int csv_comment(csv_writer *w, const char *line, char *err, size_t errn)
{
    if (!has_comments(w))
        return JNT_OK;
    int rc = csv_put(w, line, strlen(line), err, errn);
    return rc == JNT_OK ? csv_put(w, "\n", 1, err, errn) : rc;
}

/* See csv.h. */
void csv_open_hook(csv_writer *w, int ncol)
{
    memset(w, 0, sizeof *w);
    w->fd = w->mat_fd = -1;
    w->ncol = ncol > 0 ? ncol : 0;
}

/* See csv.h. */
int csv_row(csv_writer *w, const double *v, int n, char *err, size_t errn)
{
    if (w->skip > 0) {
        w->skip--;
        return JNT_OK;
    }
    if (w->hook && w->hook(w->hook_ctx, v, n) != 0) {
        snprintf(err, errn, "stopped by the row callback");
        return JNT_STOPPED;
    }
    if (w->fd < 0)
        return JNT_OK;
    if (w->mat && w->nrows >= MAT_MAX_ROWS) { /* the rows so far stay valid */
        snprintf(err, errn, "cannot write '%s': a MAT-file column holds at most %ld rows",
                 w->path, MAT_MAX_ROWS);
        return JNT_ERR_IO;
    }
    if (w->failed)
        return JNT_ERR_IO;
    if (w->max_bytes > 0 && (double)(w->off + (long long)w->len) > w->max_bytes) {
        snprintf(err, errn, "'%s' reached the output limit of %.3g GB at row %ld: write fewer "
                 "rows (a longer 'every', no output every step of an adaptive method), or "
                 "raise the limit (--max-output SIZE, jnt_set_max_output)",
                 w->path ? w->path : "<stdout>", w->max_bytes / 1e9, w->nrows_all);
        return JNT_ERR_PARAM;
    }
    w->nrows_all++;
    size_t nb = (size_t)n * sizeof *v;
    if (w->npy || w->mat) {
        int rc = JNT_OK;
        if (w->len + nb < CSV_IOBUF) { /* the common case: into the buffer, no call */
            for (int i = 0; i < n; i++)
                memcpy(w->buf + w->len + 8 * (size_t)i, v + i, 8);
            w->len += nb;
        } else {
            rc = csv_put(w, v, nb, err, errn);
        }
        w->nrows += rc == JNT_OK;
        return rc;
    }
    /* text: formatted in the buffer when the longest row fits, else in w->row */
    char *r = w->len + (size_t)n * CSV_CELL + 2 <= CSV_IOBUF ? w->buf + w->len : w->row;
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        k += (size_t)dtoa_shortest(r + k, v[i]);
        r[k++] = ',';
    }
    r[k - (n > 0)] = '\n';
    k += n == 0;
    if (r != w->row) {
        w->len += k;
        return JNT_OK;
    }
    return csv_put(w, w->row, k, err, errn);
}

/* See csv.h. */
void csv_end(csv_writer *w, const char *line)
{
    if (!has_comments(w))
        return;
    size_t n = strlen(line), room = sizeof w->end - 2; /* no allocation: it must not fail */
    n = n < room ? n : room;
    memcpy(w->end, line, n);
    memcpy(w->end + n, "\n", 2);
}

/* See csv.h. */
int csv_close(csv_writer *w, char *err, size_t errn)
{
    int rc = JNT_OK, open = w->buf && w->fd >= 0; /* a zeroed writer was never opened */
    const char *name = w->path ? w->path : "<stdout>";
    /* the line saying how the run ended, after the rows: if the file failed
     * (disk full), at its last whole row, and if it does not fit, none */
    if (open && w->end[0] && !w->failed)
        (void)csv_put(w, w->end, strlen(w->end), NULL, 0);
    else if (open && w->end[0] && w->split) {
        size_t n = strlen(w->end);
        if (pwrite(w->fd, w->end, n, (off_t)w->kept) != (ssize_t)n)
            (void)!ftruncate(w->fd, (off_t)w->kept);
    }
    if (open && !w->failed) {
        if (flush(w, w->buf, w->len, err, errn) != JNT_OK)
            rc = JNT_ERR_IO;
        else
            w->kept = w->off;
    }
    /* .npy, .mat: the rows in the file, all of them unless a write failed;
     * then those up to w->kept, where the file was cut back */
    long nrows = w->nrows;
    if (w->failed && w->ncol > 0)
        nrows = w->kept > w->data_at ? (long)((w->kept - w->data_at) / (8 * w->ncol)) : 0;
    if (open && w->npy && w->count_at > 0 && (!w->failed || w->kept >= w->data_at)) {
        char c[NPY_COUNT + 1];
        snprintf(c, sizeof c, "%-*ld", NPY_COUNT, nrows);
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
            int e = mat_write(w->mat_fd, w->fd, w->ncol > 0 ? nrows : 0, w->ncol, w->names,
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
    /* a whole result replaces the old file; an empty one, or one a failed
     * write cut short, only takes the place of none (outfile.c) */
    if (open && w->part && keep &&
        out_commit(w->part, w->path, w->failed != 0, rc == JNT_OK ? err : NULL, errn) != JNT_OK)
        rc = JNT_ERR_IO;
    free(w->row);
    free(w->path);
    free(w->part);
    free(w->buf);
    free(w->names);
    memset(w, 0, sizeof *w);
    w->fd = w->mat_fd = -1;
    return rc;
}
