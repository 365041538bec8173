/*
 * test_mat.c: the MAT-file output (runtime/io/mat.c through the writer of
 * runtime/io/csv.c): column names made MATLAB identifiers, and files read
 * back by an independent reader written here from the MAT-File Format
 * document (level 5: the 128-byte header; each variable a miMATRIX element
 * of array flags, dimensions, name and real part, every subelement padded
 * to 8 bytes), checking names, sizes and every double bit for bit; the rows
 * kept after a failed write; the old file kept when the MAT-file cannot be
 * written; and, where installed, SciPy's loadmat and Octave's load.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "io/csv.h"
#include "io/mat.h"
#include "jnt/jnt.h"

#define NCOL 6

/* ---- an independent reader -------------------------------------------- */

typedef struct mat_var {
    char name[80];
    long rows, cols;
    const unsigned char *re; /* rows * cols doubles in the file's order */
} mat_var;

typedef struct mat_file {
    unsigned char *bytes;
    size_t size;
    int swap; /* the file's byte order is not the machine's */
    int nvar;
    mat_var var[16];
} mat_file;

static uint32_t get32(const mat_file *f, const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    if (f->swap)
        v = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
    return v;
}

static double get_double(const mat_file *f, const unsigned char *p)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = p[f->swap ? 7 - i : i];
    double x;
    memcpy(&x, b, 8);
    return x;
}

/* Read path into f, checking the layout of every element. Returns 0, or -1
 * with the reason in why. */
static int mat_read(const char *path, mat_file *f, char *why, size_t whyn)
{
    memset(f, 0, sizeof *f);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return snprintf(why, whyn, "cannot open"), -1;
    fseek(fp, 0, SEEK_END);
    f->size = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    f->bytes = malloc(f->size + 1);
    size_t got = fread(f->bytes, 1, f->size, fp);
    fclose(fp);
    if (got != f->size || f->size < 128)
        return snprintf(why, whyn, "short file (%zu bytes)", f->size), -1;
    const unsigned char *h = f->bytes;
    /* header: text, subsystem offset (zeros or spaces), version, endian */
    if (memcmp(h, "MATLAB 5.0 MAT-file", 19) != 0)
        return snprintf(why, whyn, "header text '%.19s'", (const char *)h), -1;
    for (int i = 0; i < 116; i++)
        if (h[i] < 32 || h[i] > 126)
            return snprintf(why, whyn, "header text byte %d is %d", i, h[i]), -1;
    int zeros = 1, spaces = 1;
    for (int i = 116; i < 124; i++)
        zeros &= h[i] == 0, spaces &= h[i] == ' ';
    if (!zeros && !spaces)
        return snprintf(why, whyn, "subsystem data offset set"), -1;
    if (h[126] == 'I' && h[127] == 'M')
        f->swap = 0;
    else if (h[126] == 'M' && h[127] == 'I')
        f->swap = 1;
    else
        return snprintf(why, whyn, "endian indicator '%c%c'", h[126], h[127]), -1;
    /* the version as a 16-bit value in the file's order: 0x0100 */
    int version = f->swap ? h[124] << 8 | h[125] : h[125] << 8 | h[124];
    {
        unsigned one = 1;
        int little = *(unsigned char *)&one;
        if ((f->swap ? !little : little) != (h[126] == 'I'))
            return snprintf(why, whyn, "endian indicator against this machine"), -1;
    }
    if (version != 0x0100)
        return snprintf(why, whyn, "version 0x%04x", version), -1;
    size_t pos = 128;
    while (pos < f->size) {
        if (f->nvar == 16)
            return snprintf(why, whyn, "more than 16 variables"), -1;
        mat_var *v = &f->var[f->nvar];
        if (pos + 8 > f->size)
            return snprintf(why, whyn, "element tag at %zu cut", pos), -1;
        uint32_t type = get32(f, f->bytes + pos), size = get32(f, f->bytes + pos + 4);
        size_t end = pos + 8 + size;
        if (type != 14 || size % 8 != 0 || end > f->size)
            return snprintf(why, whyn, "element at %zu: type %u, %u bytes", pos, type, size), -1;
        const unsigned char *p = f->bytes + pos + 8;
        /* array flags: miUINT32, 8 bytes; class mxDOUBLE_CLASS (6), no flags */
        if (get32(f, p) != 6 || get32(f, p + 4) != 8 || (get32(f, p + 8) & 0xff) != 6 ||
            (get32(f, p + 8) >> 8 & 0xff) != 0)
            return snprintf(why, whyn, "array flags of element %d", f->nvar), -1;
        p += 16;
        /* dimensions: miINT32, two of them */
        if (get32(f, p) != 5 || get32(f, p + 4) != 8)
            return snprintf(why, whyn, "dimensions tag of element %d", f->nvar), -1;
        v->rows = (long)(int32_t)get32(f, p + 8);
        v->cols = (long)(int32_t)get32(f, p + 12);
        p += 16;
        /* name: miINT8, a small element (1 to 4 bytes) or tag + padded data */
        uint32_t t0 = get32(f, p);
        size_t len;
        if (t0 >> 16) {
            len = t0 >> 16;
            if ((t0 & 0xffff) != 1 || len > 4)
                return snprintf(why, whyn, "small name element of element %d", f->nvar), -1;
            memcpy(v->name, p + 4, len);
            p += 8;
        } else {
            len = get32(f, p + 4);
            if (t0 != 1 || len == 0 || len >= sizeof v->name)
                return snprintf(why, whyn, "name of element %d: type %u, %zu bytes", f->nvar,
                                t0, len), -1;
            memcpy(v->name, p + 8, len);
            for (size_t i = len; i % 8; i++)
                if (p[8 + i] != 0)
                    return snprintf(why, whyn, "name padding of element %d", f->nvar), -1;
            p += 8 + (len + 7) / 8 * 8;
        }
        v->name[len] = '\0';
        /* real part: miDOUBLE, rows * cols values, ending the element */
        if (get32(f, p) != 9 || get32(f, p + 4) != (uint32_t)(8 * v->rows * v->cols) ||
            p + 8 + 8 * v->rows * v->cols != f->bytes + end)
            return snprintf(why, whyn, "real part of '%s'", v->name), -1;
        v->re = p + 8;
        f->nvar++;
        pos = end;
    }
    return 0;
}

/* ---- the writer --------------------------------------------------------- */

/* The test's value of row i, column j: exact doubles, specials in row 1. */
static double value(long i, int j)
{
    static const double special[NCOL] = {1.0 / 3.0, NAN, -INFINITY, -0.0, 5e-324, -1e300};
    return i == 1 ? special[j] : (double)i * 1e-5 + j / 7.0;
}

/* Whether the file's variables are the names given, with n rows of value(). */
static int same_values(const mat_file *f, const char *const *want, long n, char *why, size_t whyn)
{
    if (f->nvar != NCOL)
        return snprintf(why, whyn, "%d variables", f->nvar), 0;
    for (int j = 0; j < NCOL; j++) {
        const mat_var *v = &f->var[j];
        if (strcmp(v->name, want[j]) != 0 || v->rows != n || v->cols != 1)
            return snprintf(why, whyn, "variable %d: '%s' %ld x %ld", j, v->name, v->rows,
                            v->cols), 0;
        for (long i = 0; i < n; i++) {
            double got = get_double(f, v->re + 8 * i), x = value(i, j);
            if (memcmp(&got, &x, 8) != 0)
                return snprintf(why, whyn, "%s(%ld) = %.17g, want %.17g", v->name, i + 1, got,
                                x), 0;
        }
    }
    return 1;
}

static const char *const cols[NCOL] = {
    "t", "mass.x", "mass_x", "end", "1st",
    "a_column_name_of_seventy_characters_which_is_longer_than_sixty_three_c"};
static const char *const vars[NCOL] = {
    "t", "mass_x", "mass_x_2", "xEnd", "x1st",
    "a_column_name_of_seventy_characters_which_is_longer_than_sixty_"};

/* Write n rows of value() to path; returns the writer's status. */
static int write_rows(const char *path, long n, char *err, size_t errn)
{
    csv_writer w;
    int rc = csv_open(&w, path, NCOL, err, errn);
    if (rc == JNT_OK)
        rc = csv_header(&w, cols, NCOL, err, errn);
    for (long i = 0; i < n && rc == JNT_OK; i++) {
        double row[NCOL];
        for (int j = 0; j < NCOL; j++)
            row[j] = value(i, j);
        rc = csv_row(&w, row, NCOL, err, errn);
    }
    int crc = csv_close(&w, rc == JNT_OK ? err : NULL, errn);
    return rc == JNT_OK ? crc : rc;
}

/* Entries of directory d other than "." and "..". */
static int entries(const char *d, char *list, size_t n)
{
    DIR *dir = opendir(d);
    int count = 0;
    list[0] = '\0';
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        count++;
        size_t k = strlen(list);
        snprintf(list + k, n - k, "%s ", e->d_name);
    }
    if (dir)
        closedir(dir);
    return count;
}

/* mat_name: the identifiers of a few columns. */
static void check_names(void)
{
    static const struct {
        const char *in, *out;
    } t[] = {{"t", "t"},           {"mass.x", "mass_x"}, {"mass[1].x", "mass_1__x"},
             {"2a", "x2a"},        {"", "x"},            {"_a", "x_a"},
             {"end", "xEnd"},      {"while", "xWhile"},  {"end_x", "end_x"},
             {"b.x.v", "b_x_v"},   {"F_R", "F_R"},       {"\xc3\xbc", "x__"}};
    char out[MAT_NAME_MAX + 1];
    int ok = 1;
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        mat_name(out, t[i].in, NULL, 0);
        if (strcmp(out, t[i].out) != 0) {
            printf("INFO: mat_name(\"%s\") = \"%s\", want \"%s\"\n", t[i].in, out, t[i].out);
            ok = 0;
        }
    }
    CHECK(ok, "mat_name: '.' '[' ']' to '_', 'x' before a leading non-letter, keywords "
              "'end' -> 'xEnd'");
    /* unique: a_b, a_b_2, a_b_3; a name of 63 characters cut to make room */
    char prev[4][MAT_NAME_MAX + 1];
    mat_name(prev[0], "a.b", NULL, 0);
    mat_name(prev[1], "a_b", prev[0], 1);
    mat_name(prev[2], "a[b", prev[0], 2);
    CHECK(strcmp(prev[0], "a_b") == 0 && strcmp(prev[1], "a_b_2") == 0 &&
              strcmp(prev[2], "a_b_3") == 0,
          "mat_name: a clash gets _2, _3 (%s %s %s)", prev[0], prev[1], prev[2]);
    char l1[100], l2[100];
    memset(l1, 'q', 80), l1[80] = '\0';
    memcpy(l2, l1, 81), l2[70] = '.';
    mat_name(prev[0], l1, NULL, 0);
    mat_name(prev[1], l2, prev[0], 1);
    CHECK(strlen(prev[0]) == MAT_NAME_MAX && strlen(prev[1]) == MAT_NAME_MAX &&
              strncmp(prev[0], prev[1], 61) == 0 && strcmp(prev[1] + 61, "_2") == 0,
          "mat_name: cut to %d characters, the clash's suffix inside them", MAT_NAME_MAX);
}

int main(void)
{
    check_names();
    char err[256] = "", why[256] = "", list[512];
    mat_file f;

    /* a run of 50,000 rows: three transposition blocks, many buffer flushes */
    char dir[512];
    snprintf(dir, sizeof dir, "%s", test_out("mat_dir"));
    mkdir(dir, 0777);
    char path[600], part[640];
    snprintf(path, sizeof path, "%s/run.mat", dir);
    snprintf(part, sizeof part, "%s.part", path);
    unlink(path);
    long n = 50000;
    csv_writer w;
    int rc = csv_open(&w, path, NCOL, err, sizeof err);
    if (rc == JNT_OK)
        rc = csv_header(&w, cols, NCOL, err, sizeof err);
    for (long i = 0; i < n && rc == JNT_OK; i++) {
        double row[NCOL];
        for (int j = 0; j < NCOL; j++)
            row[j] = value(i, j);
        rc = csv_row(&w, row, NCOL, err, sizeof err);
    }
    int k = entries(dir, list, sizeof list);
    snprintf(part, sizeof part, "%s", w.part ? w.part : ""); /* its own "run.mat.jnt-PID-N.part" */
    CHECK(rc == JNT_OK && k == 1 && access(part, F_OK) == 0 && strstr(part, "run.mat.jnt-"),
          "while open: only the writer's run.mat.jnt-PID-N.part in the directory, the row scratch "
          "unlinked (%s)", list);
    CHECK(csv_close(&w, err, sizeof err) == JNT_OK && access(part, F_OK) != 0, "close: %s", err);
    k = entries(dir, list, sizeof list);
    int ok = k == 1 && mat_read(path, &f, why, sizeof why) == 0;
    CHECK(ok, "after close only run.mat, and it reads per the spec (%s%s)", list, why);
    size_t want_size = 128;
    for (int j = 0; j < NCOL; j++) {
        size_t l = strlen(vars[j]);
        want_size += 8 + 16 + 16 + (l <= 4 ? 8 : 8 + (l + 7) / 8 * 8) + 8 + 8 * (size_t)n;
    }
    CHECK(ok && f.size == want_size, "file size %zu = header + %d variables (want %zu)", f.size,
          NCOL, want_size);
    CHECK(ok && same_values(&f, vars, n, why, sizeof why),
          "6 variables named t, mass_x, mass_x_2, xEnd, x1st, <63 characters>, 50000 x 1 "
          "each, every double bit for bit (NaN, -inf, -0, 5e-324) (%s)", why);
    free(f.bytes);

    /* and the programs that load them, where installed: the same rows in a
     * .npy for SciPy, and the raw doubles for Octave */
    char npy[600], raw[600], cmd[2400];
    snprintf(npy, sizeof npy, "%s/run.npy", dir);
    snprintf(raw, sizeof raw, "%s/run.f64", dir);
    write_rows(npy, n, err, sizeof err);
    FILE *fr = fopen(raw, "wb");
    for (long i = 0; fr && i < n; i++)
        for (int j = 0; j < NCOL; j++) {
            double x = value(i, j);
            fwrite(&x, 8, 1, fr);
        }
    if (fr)
        fclose(fr);
    if (system("/usr/bin/python3 -c 'import scipy.io' 2>/dev/null") == 0) {
        snprintf(cmd, sizeof cmd,
                 "/usr/bin/python3 -c \"import sys, numpy as np, scipy.io as sio\n"
                 "m = sio.loadmat('%s'); a = np.load('%s')\n"
                 "names = [k for k in m if not k.startswith('__')]\n"
                 "ok = names == ['t', 'mass_x', 'mass_x_2', 'xEnd', 'x1st', '%s']\n"
                 "for k, c in zip(names, a.dtype.names):\n"
                 "    ok = ok and m[k].shape == (%ld, 1) and m[k].dtype == np.float64 and "
                 "np.array_equal(m[k][:, 0].view(np.uint64), a[c].view(np.uint64))\n"
                 "sys.exit(0 if ok else 1)\"",
                 path, npy, vars[5], n);
        CHECK(system(cmd) == 0, "scipy.io.loadmat reads it: the 6 names in order, %ld x 1 "
                                "float64 each, the bits of numpy.load of the same rows' .npy", n);
    } else {
        printf("INFO: python3-scipy is not installed: the scipy.io.loadmat check is skipped\n");
    }
    if (system("command -v octave-cli > /dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd,
                 "octave-cli --no-gui -q --no-history --no-init-file --eval '"
                 "s = load(\"%s\"); f = fopen(\"%s\"); r = reshape(fread(f, Inf, \"double\"), "
                 "%d, [])'\"'\"'; fclose(f); c = struct2cell(s); ok = isequal(fieldnames(s)'\"'\"', "
                 "{\"t\", \"mass_x\", \"mass_x_2\", \"xEnd\", \"x1st\", \"%s\"}); "
                 "for j = 1:%d ok = ok && isequal(size(c{j}), [%ld 1]) && "
                 "isequal(typecast(c{j}, \"uint64\"), typecast(r(:, j), \"uint64\")); end; "
                 "exit(!ok)' > /dev/null 2>&1",
                 path, raw, NCOL, vars[5], NCOL, n);
        CHECK(system(cmd) == 0, "Octave's load reads it: the 6 names, %ld x 1 each, the same "
                                "bits as the raw doubles", n);
    } else {
        printf("INFO: octave-cli is not installed: the Octave load check is skipped\n");
    }
    unlink(npy);
    unlink(raw);

    /* no rows (a run that fails at once): 0 x 1 variables, still a valid file */
    ok = write_rows(path, 0, err, sizeof err) == JNT_OK && mat_read(path, &f, why, sizeof why) == 0;
    CHECK(ok && same_values(&f, vars, 0, why, sizeof why), "no rows: six 0 x 1 variables (%s%s)",
          err, why);
    if (ok)
        free(f.bytes);

    /* a failed write: the scratch becomes /dev/full at the second flush of
     * the 64 KiB buffer (1365 rows of 48 bytes each); the file keeps the
     * 1365 rows written before it and is valid (where no file was: a cut
     * file never replaces one, outfile.c) */
    unlink(path);
    rc = csv_open(&w, path, NCOL, err, sizeof err);
    if (rc == JNT_OK)
        rc = csv_header(&w, cols, NCOL, err, sizeof err);
    long i = 0, failed_at = -1;
    int saved = -1;
    for (; i < 5000 && rc == JNT_OK; i++) {
        if (i == 2000) {
            int full = open("/dev/full", O_WRONLY);
            saved = dup(w.fd);
            dup2(full, w.fd);
            close(full);
        }
        double row[NCOL];
        for (int j = 0; j < NCOL; j++)
            row[j] = value(i, j);
        rc = csv_row(&w, row, NCOL, err, sizeof err);
        if (rc != JNT_OK)
            failed_at = i;
    }
    CHECK(rc == JNT_ERR_IO && failed_at == 2730 && strstr(err, "No space left") &&
              strstr(err, path),
          "a full disk: row %ld fails, '%s'", failed_at, err);
    if (saved >= 0) { /* the scratch back, at the offset the failure left */
        dup2(saved, w.fd);
        close(saved);
    }
    rc = csv_close(&w, err, sizeof err);
    ok = mat_read(path, &f, why, sizeof why) == 0;
    CHECK(ok && access(part, F_OK) != 0 && same_values(&f, vars, 1365, why, sizeof why),
          "after the failed write: a valid file of the 1365 rows written before it (%s)", why);
    if (ok)
        free(f.bytes);

    /* the MAT-file itself cannot be written (its .part is /dev/full at the
     * close): JNT_ERR_IO, the .part removed, the old file left as it was */
    FILE *old = fopen(path, "w");
    if (old)
        fputs("old", old), fclose(old);
    rc = csv_open(&w, path, NCOL, err, sizeof err);
    if (rc == JNT_OK)
        rc = csv_header(&w, cols, NCOL, err, sizeof err);
    for (i = 0; i < 10 && rc == JNT_OK; i++) {
        double row[NCOL] = {0};
        rc = csv_row(&w, row, NCOL, err, sizeof err);
    }
    int full = open("/dev/full", O_WRONLY);
    dup2(full, w.mat_fd);
    close(full);
    rc = csv_close(&w, err, sizeof err);
    char content[16] = "";
    old = fopen(path, "r");
    if (old) {
        size_t got = fread(content, 1, sizeof content - 1, old);
        content[got] = '\0';
        fclose(old);
    }
    CHECK(rc == JNT_ERR_IO && strstr(err, "No space left") && access(part, F_OK) != 0 &&
              strcmp(content, "old") == 0 && entries(dir, list, sizeof list) == 1,
          "the MAT-file cannot be written: '%s', no .part, the old file kept (%s)", err, list);
    unlink(path);

    /* a .mat must be a regular file: a FIFO is refused, and left as it is */
    char fifo[600];
    snprintf(fifo, sizeof fifo, "%s/pipe.mat", dir);
    unlink(fifo);
    struct stat st;
    int refused = mkfifo(fifo, 0600) == 0 && csv_open(&w, fifo, NCOL, err, sizeof err) == JNT_ERR_IO &&
                  strstr(err, "it is a FIFO");
    CHECK(refused && stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode) &&
              entries(dir, list, sizeof list) == 1,
          ".mat on a FIFO: JNT_ERR_IO, '%s', nothing else created", err);
    unlink(fifo);

    /* an unwritable directory: the error names the file, nothing is left */
    CHECK(csv_open(&w, "/nonexistent-dir/out.mat", NCOL, err, sizeof err) == JNT_ERR_IO &&
              strstr(err, "'/nonexistent-dir/out.mat'") && strstr(err, "its folder does not exist"),
          "unwritable: %s", err);
    rmdir(dir);
    return check_done();
}
