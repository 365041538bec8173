/*
 * test_csv.c: the CSV writer (runtime/io/csv.c): the temporary ".part" name,
 * the rename on close, whole rows of shortest round-trip numbers that read
 * back to the same doubles, write errors, a write that fails part-way (the
 * file cut back to its last whole row), a path that is not a regular file
 * written in place, and NumPy's .npy format. (The number text itself is
 * tested in test_dtoa.c, the .mat format in test_mat.c.)
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "csvread.h"
#include "io/csv.h"
#include "jnt/jnt.h"

/* The whole content of a file (static buffer), "" if missing. */
static const char *slurp(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

/* 100,000 rows of 3 random doubles (all exponents, and halfway-prone short
 * decimals) through the writer: every number strtod reads back is the
 * double written, bit for bit, and no text is longer than 17 digits. */
static void check_round_trip(void)
{
    const char *path = test_out("csv_round_trip.csv");
    char err[256] = "";
    csv_writer w;
    static const char *const names[] = {"a", "b", "c"};
    enum { NR = 100000 };
    static double v[NR][3];
    unsigned long long r = 88172645463325252ULL;
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < 3; j++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            if (j == 0) { /* any finite double: random bits */
                uint64_t bits = r & ~(0x7ffull << 52);
                bits |= (r >> 11 & 0x7ff) % 0x7ff << 52;
                memcpy(&v[i][j], &bits, 8);
            } else if (j == 1) { /* over 1e-40 .. 1e40 */
                v[i][j] = ((double)(r >> 11) / 9007199254740992.0 + 0.1) * pow(10, (int)(r % 81) - 40);
            } else { /* k / 10^d: short decimals, sums like 0.1 + 0.2 */
                v[i][j] = (double)(r % 100000) / pow(10, (int)(r >> 40) % 9) + (r & 1 ? 0.1 : 0.0);
            }
        }
    int ok = csv_open(&w, path, 3, err, sizeof err) == JNT_OK &&
             csv_header(&w, names, 3, err, sizeof err) == JNT_OK;
    for (int i = 0; i < NR && ok; i++)
        ok = csv_row(&w, v[i], 3, err, sizeof err) == JNT_OK;
    ok = csv_close(&w, err, sizeof err) == JNT_OK && ok;
    char *text = read_text(path), *p = text ? strchr(text, '\n') : NULL;
    int same = 0, longest = 0;
    for (int i = 0; p && i < NR; i++)
        for (int j = 0; j < 3; j++) {
            char *end;
            double x = strtod(p + 1, &end);
            /* significant digits: leading and trailing zeros aside */
            int digits = 0, first = -1, last = -1;
            for (char *c = p + 1; c < end && *c != 'e'; c++) {
                if (*c >= '1' && *c <= '9')
                    last = digits, first = first < 0 ? digits : first;
                digits += *c >= '0' && *c <= '9';
            }
            digits = first < 0 ? 1 : last - first + 1;
            longest = digits > longest ? digits : longest;
            same += memcmp(&x, &v[i][j], 8) == 0 && *end == (j < 2 ? ',' : '\n');
            p = end;
        }
    free(text);
    CHECK(ok && same == 3 * NR && longest <= 17,
          "round trip: %d of %d numbers read back bit for bit, at most %d significant digits", same, 3 * NR,
          longest);
    unlink(path);
}

/* Row i of the cut-back check. */
static void cut_row(long i, double v[3])
{
    v[0] = (double)i, v[1] = (double)i / 3.0, v[2] = -(double)i * 1e-7;
}

/* A write that fails part-way: with the file-size limit (RLIMIT_FSIZE) at
 * 200,000 bytes, the fourth 64 KiB write stops short at 200,000 and the
 * next fails (EFBIG). The writer cuts the file back to the end of the last
 * row that reached it whole, below 196,608 = 3 x 64 KiB: a CSV ends with
 * a whole line, every row read back as written; a .npy's row count in its
 * header matches its data. */
static void check_cut_back(void)
{
    static const char *const names[] = {"i", "third", "small"};
    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 200000;
    signal(SIGXFSZ, SIG_IGN); /* the limit as an error, not a signal */
    for (int npy = 0; npy < 2; npy++) {
        const char *path = test_out(npy ? "csv_cut.npy" : "csv_cut.csv");
        char err[256] = "";
        csv_writer w;
        unlink(path);
        setrlimit(RLIMIT_FSIZE, &lim);
        int rc = csv_open(&w, path, 3, err, sizeof err);
        if (rc == JNT_OK)
            rc = csv_header(&w, names, 3, err, sizeof err);
        long i = 0;
        for (; i < 100000 && rc == JNT_OK; i++) {
            double v[3];
            cut_row(i, v);
            rc = csv_row(&w, v, 3, err, sizeof err);
        }
        csv_close(&w, NULL, 0);
        setrlimit(RLIMIT_FSIZE, &old);
        struct stat st;
        long size = stat(path, &st) == 0 ? (long)st.st_size : -1, rows = 0, good = 0;
        if (!npy) { /* whole lines "i,i/3,-i 1e-7\n", in order */
            char *text = read_text(path), *p = text ? strchr(text, '\n') : NULL;
            int whole = text && size > 0 && text[size - 1] == '\n';
            for (; p && p[1]; rows++) {
                double v[3], x[3];
                char *q = p + 1;
                cut_row(rows, v);
                for (int j = 0; j < 3; j++)
                    x[j] = strtod(q, &q), q += *q == ',' || *q == '\n';
                good += memcmp(v, x, sizeof v) == 0 && q[-1] == '\n';
                p = q - 1;
            }
            free(text);
            CHECK(rc == JNT_ERR_IO && strstr(err, "File too large") && whole && good == rows &&
                      size > 200000 - 100 && size <= 200000,
                  "CSV, a write cut short at the size limit: '%s'; the file cut back to %ld "
                  "bytes, %ld whole rows read back as written (of %ld written)", err, size, good,
                  i - 1);
        } else { /* the header's row count, then that many rows of 3 doubles */
            FILE *f = fopen(path, "rb");
            unsigned char head[10] = {0};
            char dict[256] = "";
            int hl = 0;
            if (f && fread(head, 1, 10, f) == 10) {
                hl = head[8] | head[9] << 8;
                if (hl < (int)sizeof dict && fread(dict, 1, (size_t)hl, f) == (size_t)hl)
                    dict[hl] = '\0';
            }
            const char *sh = strstr(dict, "'shape': (");
            rows = sh ? strtol(sh + 10, NULL, 10) : -1;
            for (long r = 0; f && r < rows; r++) {
                double v[3], x[3];
                cut_row(r, v);
                good += fread(x, sizeof *x, 3, f) == 3 && memcmp(v, x, sizeof v) == 0;
            }
            if (f)
                fclose(f);
            CHECK(rc == JNT_ERR_IO && rows > 0 && good == rows && size == 10 + hl + 24 * rows &&
                      size <= 196608,
                  ".npy, a write cut short at the size limit: the file cut back to %ld bytes, "
                  "the header's %ld rows, all of them there and as written", size, rows);
        }
        unlink(path);
    }
    signal(SIGXFSZ, SIG_DFL);
}

int main(void)
{
    check_round_trip();
    check_cut_back();
    char err[256] = "";
    const char *path = test_out("csv_basic.csv");
    char part[640];
    snprintf(part, sizeof part, "%s.part", path);
    unlink(path);
    csv_writer w;
    static const char *const names[] = {"t", "u", "F_R"};
    CHECK(csv_open(&w, path, 3, err, sizeof err) == JNT_OK, "open '%s'", path);
    CHECK(csv_header(&w, names, 3, err, sizeof err) == JNT_OK, "header");
    double row1[] = {0.0, 1.0 / 3.0, -2.5e-300};
    double row2[] = {1e-5, NAN, INFINITY};
    CHECK(csv_row(&w, row1, 3, err, sizeof err) == JNT_OK && csv_row(&w, row2, 3, err, sizeof err) == JNT_OK,
          "two rows");
    /* this writer's own temporary file, "<path>.jnt-<pid>-<n>.part" (issue 17) */
    CHECK(w.part && strncmp(w.part, path, strlen(path)) == 0 &&
              strstr(w.part, ".jnt-") && strcmp(w.part + strlen(w.part) - 5, ".part") == 0 &&
              access(w.part, F_OK) == 0 && access(path, F_OK) != 0,
          "while open, only the writer's own '%s' exists", w.part ? w.part : "(none)");
    snprintf(part, sizeof part, "%s", w.part ? w.part : "");
    CHECK(csv_close(&w, err, sizeof err) == JNT_OK, "close");
    CHECK(access(part, F_OK) != 0 && access(path, F_OK) == 0, "after close: renamed to the final name");
    const char *want = "t,u,F_R\n0,0.3333333333333333,-2.5e-300\n1e-05,nan,inf\n";
    CHECK(strcmp(slurp(path), want) == 0,
          "content: header joined by ',', the shortest round-trip numbers (1/3 as "
          "0.3333333333333333)");

    /* unwritable directory: JNT_ERR_IO naming the file and the reason */
    CHECK(csv_open(&w, "/nonexistent-dir/out.csv", 2, err, sizeof err) == JNT_ERR_IO &&
              strstr(err, "'/nonexistent-dir/out.csv'") && strstr(err, "its folder does not exist"),
          "unwritable: %s", err);

    /* a FIFO is refused before anything is written (issue 17: renaming over it
     * would replace it; '-o -' writes a stream), and stays a FIFO */
    char fifo[600];
    snprintf(fifo, sizeof fifo, "%s.fifo", path);
    unlink(fifo);
    int fd = mkfifo(fifo, 0600) == 0 ? open(fifo, O_RDWR | O_NONBLOCK) : -1;
    char got[256] = "";
    struct stat st;
    int refused_fifo = fd >= 0 && csv_open(&w, fifo, 3, err, sizeof err) == JNT_ERR_IO &&
                       strstr(err, "it is a FIFO");
    ssize_t nr = fd >= 0 ? read(fd, got, sizeof got - 1) : -1;
    got[nr > 0 ? nr : 0] = '\0';
    CHECK(refused_fifo && got[0] == 0 && stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode),
          "a FIFO is refused and stays a FIFO ('%s')", err);
    if (fd >= 0)
        close(fd);
    unlink(fifo);

    /* .npy needs a regular file (its header is patched at close): a FIFO is refused */
    snprintf(fifo, sizeof fifo, "%s.fifo.npy", path);
    unlink(fifo);
    int refused = mkfifo(fifo, 0600) == 0 &&
                  csv_open(&w, fifo, 3, err, sizeof err) == JNT_ERR_IO &&
                  strstr(err, "it is a FIFO") && strstr(err, fifo);
    CHECK(refused && stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode),
          ".npy on a FIFO: JNT_ERR_IO, '%s'", err);
    unlink(fifo);

    /* .npy: NumPy's header (magic, version 1.0, length, dict with the row
     * count patched at close, padded to 64 bytes), then the rows as doubles */
    const char *npy = test_out("csv_basic.npy");
    unlink(npy);
    double rows[3][3] = {{0.0, 1.0 / 3.0, -2.5e-300}, {1e-5, NAN, INFINITY}, {2e-5, -0.0, 7.0}};
    int wrote = csv_open(&w, npy, 3, err, sizeof err) == JNT_OK &&
                csv_header(&w, names, 3, err, sizeof err) == JNT_OK;
    for (int i = 0; i < 3 && wrote; i++)
        wrote = csv_row(&w, rows[i], 3, err, sizeof err) == JNT_OK;
    wrote = csv_close(&w, err, sizeof err) == JNT_OK && wrote;
    FILE *f = fopen(npy, "rb");
    unsigned char head[10] = {0};
    char dict[512] = "";
    double back[9];
    int hl = 0, got_rows = 0;
    if (f && fread(head, 1, 10, f) == 10) {
        hl = head[8] | head[9] << 8;
        if (hl < (int)sizeof dict && fread(dict, 1, (size_t)hl, f) == (size_t)hl)
            got_rows = (int)fread(back, sizeof *back, 9, f);
        dict[hl < (int)sizeof dict ? hl : 0] = '\0';
    }
    if (f)
        fclose(f);
    int same = got_rows == 9;
    for (int i = 0; i < 9 && same; i++)
        same = memcmp(&back[i], &rows[i / 3][i % 3], sizeof *back) == 0;
    CHECK(wrote && memcmp(head, "\x93NUMPY\x01\x00", 8) == 0 && (10 + hl) % 64 == 0 &&
              strstr(dict, "'descr': [('t', '<f8'), ('u', '<f8'), ('F_R', '<f8'), ]") &&
              strstr(dict, "'shape': (3 ") && dict[hl - 1] == '\n' && same,
          ".npy: magic, 64-byte aligned header naming the columns, 3 rows patched in, the "
          "doubles bit for bit (%.*s)", (int)strcspn(dict, "\n"), dict);
    /* and NumPy itself reads it (python3-numpy: installed by the Makefile) */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 -c \"import numpy as np; a = np.load('%s'); "
             "import sys; sys.exit(0 if a.shape == (3,) and a.dtype.names == ('t', 'u', 'F_R') "
             "and a['u'][0] == 1/3 and np.isnan(a['u'][1]) and a['F_R'][2] == 7 else 1)\"", npy);
    CHECK(system(cmd) == 0, "numpy.load reads it: shape (3,), fields t, u, F_R, the values");

    /* a closed zeroed writer is harmless */
    memset(&w, 0, sizeof w);
    CHECK(csv_close(&w, err, sizeof err) == JNT_OK, "closing a zeroed writer is a no-op");
    return check_done();
}
