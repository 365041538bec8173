/*
 * mat.c: MATLAB's MAT-file, level 5, uncompressed, written from the MAT-File
 * Format document of The MathWorks (the header; data elements of an 8-byte
 * tag, type and byte count, then the data padded to 8 bytes; miMATRIX with
 * the subelements array flags, dimensions, array name and real part).
 *
 * A run's rows arrive one at a time but a MAT-file stores each column whole,
 * so the writer (csv.c) keeps the rows in a row-major scratch file and
 * mat_write writes the file front to back once the row count is known: the
 * headers and each column's values, gathered from a read-only mapping of
 * the scratch, go through one buffer written whole each time it is full.
 * Full buffers at offsets that are multiples of its size let the page cache
 * use large folios (FrDyn2's 10,001 rows: 7 writes of 64 KiB, where pieces
 * of one column per block of rows took 48 writes of 11 kB at unaligned
 * offsets and a read of the scratch).
 *
 * The numbers are the machine's (the header's endian indicator tells the
 * reader), like .npy; names of 1 to 4 characters use the spec's small data
 * element (type and byte count in 4 bytes, the data in the other 4), as
 * MATLAB itself writes them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/mat.h"

enum { MI_INT8 = 1, MI_INT32 = 5, MI_UINT32 = 6, MI_DOUBLE = 9, MI_MATRIX = 14 };
enum { MX_DOUBLE_CLASS = 6 };
#define MAT_HEADER 128

/* Keywords of MATLAB (iskeyword) and of Octave: not valid variable names. */
static const char *const keywords[] = {
    "arguments", "break", "case", "catch", "classdef", "continue", "do", "else", "elseif",
    "end", "end_try_catch", "end_unwind_protect", "endarguments", "endclassdef",
    "endenumeration", "endevents", "endfor", "endfunction", "endif", "endmethods",
    "endparfor", "endproperties", "endspmd", "endswitch", "endwhile", "enumeration",
    "events", "for", "function", "global", "if", "methods", "otherwise", "parfor",
    "persistent", "properties", "return", "spmd", "switch", "try", "until",
    "unwind_protect", "unwind_protect_cleanup", "while"};

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_name_char(char c)
{
    return is_alpha(c) || (c >= '0' && c <= '9') || c == '_';
}

/* See mat.h. */
void mat_name(char *out, const char *name, const char *prev, int n)
{
    size_t k = 0;
    if (!is_alpha(name[0]))
        out[k++] = 'x';
    for (const char *c = name; *c && k < MAT_NAME_MAX; c++)
        out[k++] = is_name_char(*c) ? *c : '_';
    out[k] = '\0';
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++) {
        if (strcmp(out, keywords[i]) == 0) { /* "end" -> "xEnd", as makeValidName */
            memmove(out + 1, out, k + 1);
            out[0] = 'x';
            out[1] = (char)(out[1] - 'a' + 'A');
            k++;
            break;
        }
    }
    /* unique among the earlier names: base, base_2, base_3, ... */
    char base[MAT_NAME_MAX + 1];
    memcpy(base, out, k + 1);
    for (int suffix = 2;; suffix++) {
        int clash = 0;
        for (int i = 0; i < n && !clash; i++)
            clash = strcmp(out, prev + (size_t)i * (MAT_NAME_MAX + 1)) == 0;
        if (!clash)
            return;
        char tail[16];
        size_t t = (size_t)snprintf(tail, sizeof tail, "_%d", suffix);
        size_t b = k + t > MAT_NAME_MAX ? MAT_NAME_MAX - t : k;
        memcpy(out, base, b);
        memcpy(out + b, tail, t + 1);
    }
}

/* Bytes of a data element of n data bytes: tag and data padded to 8, or
 * the small element's 8 for 1 to 4 bytes. */
static size_t element_size(size_t n)
{
    return n >= 1 && n <= 4 ? 8 : 8 + (n + 7) / 8 * 8;
}

/* pwrite all n bytes at off. Returns 0 or the errno. */
static int pwrite_all(int fd, const void *b, size_t n, long long off)
{
    const char *p = b;
    while (n > 0) {
        ssize_t r = pwrite(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r < 0 && errno ? errno : EIO;
        p += r;
        n -= (size_t)r;
        off += r;
    }
    return 0;
}

/* The file written front to back through a buffer. */
typedef struct {
    int fd;
    char *buf;
    size_t cap, len;
    long long off; /* where buf goes in the file */
    int rc;        /* 0 or the errno of a failed write */
} mat_out;

/* Write the buffer out (whole, unless it is the end of the file). */
static void out_flush(mat_out *o)
{
    if (o->rc == 0 && o->len > 0)
        o->rc = pwrite_all(o->fd, o->buf, o->len, o->off);
    o->off += (long long)o->len;
    o->len = 0;
}

/* Append n bytes, writing the buffer out each time it is full. */
static void out_put(mat_out *o, const void *b, size_t n)
{
    const char *p = b;
    while (n > 0) {
        size_t k = o->cap - o->len < n ? o->cap - o->len : n;
        memcpy(o->buf + o->len, p, k);
        o->len += k, p += k, n -= k;
        if (o->len == o->cap)
            out_flush(o);
    }
}

/* Store a 32-bit tag or value in the machine's order. */
static void put32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* The header of column `name` with nrows values: the miMATRIX tag and the
 * subelements up to the real part's tag, into h (at most 120 bytes: 8 + 16 +
 * 16 + 72 for a name of 63 characters + 8).
 * Returns its length; the values follow it. */
static size_t column_header(unsigned char *h, const char *name, long nrows)
{
    size_t len = strlen(name), k = 0, data = (size_t)nrows * 8;
    size_t body = 16 + 16 + element_size(len) + 8 + data;
    put32(h + k, MI_MATRIX), put32(h + k + 4, (uint32_t)body), k += 8;
    /* array flags: class in the low byte, flags (complex, global, logical) none */
    put32(h + k, MI_UINT32), put32(h + k + 4, 8), k += 8;
    put32(h + k, MX_DOUBLE_CLASS), put32(h + k + 4, 0), k += 8;
    /* dimensions nrows x 1 */
    put32(h + k, MI_INT32), put32(h + k + 4, 8), k += 8;
    put32(h + k, (uint32_t)nrows), put32(h + k + 4, 1), k += 8;
    /* the name: a small element (byte count in the upper half of the first
     * 4 bytes, as a 32-bit value) or a tag and the characters padded to 8 */
    size_t ne = element_size(len);
    memset(h + k, 0, ne);
    if (len <= 4) {
        put32(h + k, (uint32_t)len << 16 | MI_INT8);
        memcpy(h + k + 4, name, len);
    } else {
        put32(h + k, MI_INT8), put32(h + k + 4, (uint32_t)len);
        memcpy(h + k + 8, name, len);
    }
    k += ne;
    put32(h + k, MI_DOUBLE), put32(h + k + 4, (uint32_t)data), k += 8;
    return k;
}

/* See mat.h. */
int mat_write(int fd, int rows_fd, long nrows, int ncol, const char *names, double *buf,
              size_t bufn)
{
    if (nrows < 0 || nrows > MAT_MAX_ROWS)
        return EFBIG;
    /* the rows through a mapping of the scratch (its pages are in the page
     * cache: mapped 16 at a fault, no copy); checked against its size,
     * which a mapping must not pass */
    size_t nc = (size_t)(ncol > 0 ? ncol : 0), bytes = (size_t)nrows * nc * sizeof(double);
    const double *rows = NULL;
    if (bytes > 0) {
        struct stat st;
        if (fstat(rows_fd, &st) != 0)
            return errno;
        if ((unsigned long long)st.st_size < (unsigned long long)bytes)
            return EIO;
        void *map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, rows_fd, 0);
        if (map == MAP_FAILED)
            return errno;
        rows = map;
    }
    /* the caller's buffer, whose pages are in memory already (a fresh 1 MiB
     * buffer cost 1.4 ms of page faults on FrDyn2's 10,001 rows, more than
     * all the writes); one of our own if it cannot hold the file header */
    char *own = NULL;
    mat_out o = {fd, (char *)buf, bufn * sizeof *buf, 0, 0, 0};
    if (o.cap < MAT_HEADER) {
        o.buf = own = malloc(1u << 16);
        o.cap = 1u << 16;
        if (!own) {
            if (rows)
                munmap((void *)rows, bytes);
            return ENOMEM;
        }
    }
    /* the file header: text padded with spaces, no subsystem data (zeros),
     * version 0x0100, and 'M' 'I' as a 16-bit value: "IM" in a
     * little-endian file, "MI" in a big-endian one */
    unsigned char head[MAT_HEADER];
    static const char text[] = "MATLAB 5.0 MAT-file, written by jnt";
    memset(head, ' ', 116);
    memcpy(head, text, sizeof text - 1);
    memset(head + 116, 0, 8);
    uint16_t version = 0x0100, endian = (uint16_t)('M' << 8 | 'I');
    memcpy(head + 124, &version, 2);
    memcpy(head + 126, &endian, 2);
    out_put(&o, head, sizeof head);
    /* each column: its header, then its values gathered from the rows (all
     * offsets are multiples of 8: the values fill the buffer in doubles) */
    for (size_t j = 0; j < nc && o.rc == 0; j++) {
        unsigned char h[120];
        out_put(&o, h, column_header(h, names + j * (MAT_NAME_MAX + 1), nrows));
        for (long i = 0; i < nrows && o.rc == 0;) {
            size_t room = (o.cap - o.len) / sizeof(double);
            long end = nrows - i < (long)room ? nrows : i + (long)room;
            for (; i < end; i++, o.len += sizeof(double))
                memcpy(o.buf + o.len, rows + (size_t)i * nc + j, sizeof(double));
            if (o.cap - o.len < sizeof(double))
                out_flush(&o);
        }
    }
    out_flush(&o);
    if (rows)
        munmap((void *)rows, bytes);
    free(own);
    return o.rc;
}
