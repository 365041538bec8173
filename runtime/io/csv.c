/*
 * csv.c: the CSV writer of a run. Rows are formatted whole into a buffer and
 * written with one fwrite, so that a failing run leaves only complete lines;
 * a file is written as "<path>.part" and renamed when closed. A path that
 * exists and is not a regular file (/dev/null, a pipe, a terminal) is
 * written directly: renaming over it would replace the device.
 *
 * A path ending in ".npy" gets NumPy's binary format instead (format 1.0,
 * or 2.0 for a header over 64 KiB): a structured array with one float64
 * field per column, named after it, rows as raw doubles. The row count in
 * the header is written as a placeholder and patched at close, so a run
 * that fails still leaves a valid file of the rows it wrote.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "csv.h"
#include "jnt/jnt.h"

#define CSV_IOBUF (1u << 20)
#define NPY_COUNT 20 /* characters reserved for the row count in the header */
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
    w->npy = n > 4 && strcmp(path + n - 4, ".npy") == 0;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (w->npy) {
            snprintf(err, errn, "cannot write '%s': a .npy file must be a regular file", path);
            csv_close(w, NULL, 0);
            return JNT_ERR_IO;
        }
        free(w->part);
        w->part = NULL;
    } else {
        memcpy(w->part, path, n);
        memcpy(w->part + n, ".part", 6);
    }
    w->f = fopen(w->part ? w->part : w->path, "w");
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
/* NumPy's header for n float64 columns: magic, version, length, and the
 * dict with the row count left as spaces (patched by csv_close). */
static int npy_header(csv_writer *w, const char *const *names, int n, char *err, size_t errn)
{
    unsigned one = 1;
    const char *order = *(const unsigned char *)&one ? "<f8" : ">f8";
    size_t cap = 128 + (size_t)n * 16, k = 0;
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
    int rc = JNT_OK;
    if (fwrite(head, 1, pre, w->f) != pre || fwrite(h, 1, k, w->f) != k ||
        fprintf(w->f, "%*s\n", (int)(total - pre - k - 1), "") < 0) {
        w->failed = 1;
        snprintf(err, errn, "cannot write '%s': %s", w->path, strerror(errno));
        rc = JNT_ERR_IO;
    }
    w->count_at = (long)(pre + count_at);
    free(h);
    return rc;
}

/* See csv.h. */
int csv_header(csv_writer *w, const char *const *names, int n, char *err, size_t errn)
{
    if (w->npy)
        return npy_header(w, names, n, err, errn);
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

/* Exact powers of ten (every one up to 1e22 is a double). */
static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* See csv.h. */
int csv_format(char *s, double x)
{
    char *p = s;
    if (x == 0)
        return signbit(x) ? (memcpy(s, "-0", 3), 2) : (memcpy(s, "0", 2), 1);
    double a = fabs(x);
    if (!isfinite(x) || a < 1e-300) /* inf, nan, subnormal: rare, leave them to printf */
        return snprintf(s, CSV_CELL, "%.15g", x);
    int e = (int)floor(log10(a));
    int k = 14 - e;
    if (k > 22 || k < -22)
        return snprintf(s, CSV_CELL, "%.15g", x);
    /* 15 significant digits: one scaling by an exact power, in extended
     * precision so that the rounding to an integer sees the true fraction */
    long double m = k >= 0 ? (long double)a * pow10_exact[k] : (long double)a / pow10_exact[-k];
    uint64_t d = (uint64_t)rintl(m); /* halfway to even, as printf */
    if (d >= 1000000000000000ULL) { /* rounded up to 1e15, or log10 was low */
        d = (d + 5) / 10;
        e++;
    } else if (d < 100000000000000ULL) { /* log10 was high */
        return snprintf(s, CSV_CELL, "%.15g", x);
    }
    char dig[16];
    for (int i = 14; i >= 0; i--, d /= 10)
        dig[i] = (char)('0' + d % 10);
    int nd = 15;
    while (nd > 1 && dig[nd - 1] == '0')
        nd--;
    if (x < 0)
        *p++ = '-';
    if (e >= -4 && e < 15) { /* fixed notation, as %g */
        if (e < 0) {
            *p++ = '0';
            *p++ = '.';
            for (int i = -1; i > e; i--)
                *p++ = '0';
            memcpy(p, dig, (size_t)nd);
            p += nd;
        } else {
            for (int i = 0; i <= e; i++)
                *p++ = i < nd ? dig[i] : '0';
            if (nd > e + 1) {
                *p++ = '.';
                memcpy(p, dig + e + 1, (size_t)(nd - e - 1));
                p += nd - e - 1;
            }
        }
    } else { /* d.ddde[+-]XX */
        *p++ = dig[0];
        if (nd > 1) {
            *p++ = '.';
            memcpy(p, dig + 1, (size_t)(nd - 1));
            p += nd - 1;
        }
        *p++ = 'e';
        *p++ = e < 0 ? '-' : '+';
        int ae = e < 0 ? -e : e;
        if (ae >= 100)
            *p++ = (char)('0' + ae / 100);
        *p++ = (char)('0' + ae / 10 % 10);
        *p++ = (char)('0' + ae % 10);
    }
    *p = 0;
    return (int)(p - s);
}

/* See csv.h. */
int csv_row(csv_writer *w, const double *v, int n, char *err, size_t errn)
{
    if (w->npy) {
        if (w->failed)
            return JNT_ERR_IO;
        if (fwrite(v, sizeof *v, (size_t)n, w->f) != (size_t)n) {
            w->failed = 1;
            snprintf(err, errn, "cannot write '%s': %s", w->path, strerror(errno));
            return JNT_ERR_IO;
        }
        w->nrows++;
        return JNT_OK;
    }
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0)
            w->row[k++] = ',';
        k += (size_t)csv_format(w->row + k, v[i]);
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
        /* the row count of a .npy header (the rows written, also after a failure) */
        if (w->npy && w->count_at > 0 &&
            (fseek(w->f, w->count_at, SEEK_SET) != 0 ||
             fprintf(w->f, "%-*ld", NPY_COUNT, w->nrows) != NPY_COUNT) && !w->failed) {
            if (err)
                snprintf(err, errn, "cannot write '%s': %s", w->path, strerror(errno));
            rc = JNT_ERR_IO;
        }
        if (fclose(w->f) != 0 && !w->failed && rc == JNT_OK) {
            if (err)
                snprintf(err, errn, "cannot write '%s': %s", w->path, strerror(errno));
            rc = JNT_ERR_IO;
        }
        if (w->part && rename(w->part, w->path) != 0 && rc == JNT_OK) {
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
