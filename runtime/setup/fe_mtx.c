/*
 * fe_mtx.c: Matrix Market files (https://math.nist.gov/MatrixMarket/formats.html)
 * of square real matrices: coordinate and array formats, general or
 * symmetric storage (a symmetric file holds the lower triangle and is
 * expanded on reading), read in one pass into triplets and then CSC; the
 * export of whole models (M, K, C, node table) and of the plate models of
 * the benchmarks.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fe_priv.h"

/* One file being read: the current line (trimmed in place) and its number. */
typedef struct mtx_reader {
    FILE *f;
    const char *path;
    char *buf;
    size_t cap;
    char *line;
    int lineno;
} mtx_reader;

/* Growable triplets. */
typedef struct mtx_trip {
    int n, cap;
    int *r, *c;
    double *v;
} mtx_trip;

/* Read the next line into rd->line, trimmed of surrounding white space; with
 * skip, blank lines and '%' comments are passed over. 0 at end of file. */
static int mtx_next(mtx_reader *rd, int skip)
{
    for (;;) {
        ssize_t len = getline(&rd->buf, &rd->cap, rd->f);
        if (len < 0)
            return 0;
        rd->lineno++;
        char *s = rd->buf, *e = rd->buf + len;
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = '\0';
        while (isspace((unsigned char)*s))
            s++;
        rd->line = s;
        if (!skip || (*s && *s != '%'))
            return 1;
    }
}

/* The current line for a message: at most 40 characters, then "...". */
static const char *mtx_got(const char *line, char out[48])
{
    size_t n = strlen(line);
    if (n <= 40)
        return line;
    memcpy(out, line, 40);
    strcpy(out + 40, "...");
    return out;
}

/* Append (r, c, v), and (c, r, v) too when mirror and r != c. */
static int mtx_push(mtx_trip *t, int r, int c, double v, int mirror)
{
    if (t->n + 2 > t->cap) {
        int cap = t->cap ? 2 * t->cap : 1024;
        int *nr = realloc(t->r, (size_t)cap * sizeof *nr);
        if (nr)
            t->r = nr;
        int *nc = realloc(t->c, (size_t)cap * sizeof *nc);
        if (nc)
            t->c = nc;
        double *nv = realloc(t->v, (size_t)cap * sizeof *nv);
        if (nv)
            t->v = nv;
        if (!nr || !nc || !nv)
            return JNT_ERR_NOMEM;
        t->cap = cap;
    }
    t->r[t->n] = r, t->c[t->n] = c, t->v[t->n++] = v;
    if (mirror && r != c)
        t->r[t->n] = c, t->c[t->n] = r, t->v[t->n++] = v;
    return JNT_OK;
}

/* Integers of a line: up to `want` of them, then end of line; the count
 * read, or -1 when anything else follows. */
static int mtx_ints(const char *s, long *v, int want)
{
    int k = 0;
    char *e;
    while (k < want) {
        long x = strtol(s, &e, 10);
        if (e == s)
            break;
        v[k++] = x;
        s = e;
    }
    while (isspace((unsigned char)*s))
        s++;
    return *s ? -1 : k;
}

/* The header line: "%%MatrixMarket matrix coordinate|array real|integer|double
 * general|symmetric". Sets *coord and *sym; 0 or JNT_ERR_IO with a message. */
static int mtx_header(mtx_reader *rd, int *coord, int *sym, char *err, size_t errn)
{
    char w[5][32], g[48];
    const char *path = rd->path;
    if (!mtx_next(rd, 0))
        return jnt_errf(err, errn, JNT_ERR_IO,
                        "%s:1: empty file, expected '%%%%MatrixMarket matrix coordinate real "
                        "general'", path);
    int nw = sscanf(rd->line, "%31s %31s %31s %31s %31s", w[0], w[1], w[2], w[3], w[4]);
    if (nw < 1 || strcasecmp(w[0], "%%MatrixMarket") != 0)
        return jnt_errf(err, errn, JNT_ERR_IO,
                        "%s:1: not a Matrix Market file: expected it to start with "
                        "'%%%%MatrixMarket matrix coordinate real general'", path);
    if (nw != 5)
        return jnt_errf(err, errn, JNT_ERR_IO,
                        "%s:1: expected 4 words after '%%%%MatrixMarket' (matrix, format, field, "
                        "symmetry), got '%s'", path, mtx_got(rd->line, g));
    if (strcasecmp(w[1], "matrix") != 0)
        return jnt_errf(err, errn, JNT_ERR_IO, "%s:1: unsupported object '%s' (expected 'matrix')",
                        path, w[1]);
    if (strcasecmp(w[2], "coordinate") == 0)
        *coord = 1;
    else if (strcasecmp(w[2], "array") == 0)
        *coord = 0;
    else
        return jnt_errf(err, errn, JNT_ERR_IO,
                        "%s:1: unsupported format '%s' (expected 'coordinate' or 'array')", path,
                        w[2]);
    if (strcasecmp(w[3], "real") != 0 && strcasecmp(w[3], "integer") != 0 &&
        strcasecmp(w[3], "double") != 0)
        return jnt_errf(err, errn, JNT_ERR_IO,
                        "%s:1: unsupported field '%s' (expected 'real' or 'integer')", path, w[3]);
    if (strcasecmp(w[4], "general") == 0)
        *sym = 0;
    else if (strcasecmp(w[4], "symmetric") == 0)
        *sym = 1;
    else
        return jnt_errf(err, errn, JNT_ERR_IO,
                        "%s:1: unsupported symmetry '%s' (expected 'general' or 'symmetric')",
                        path, w[4]);
    return JNT_OK;
}

/* The body of a file after its header: the size line, then the entries,
 * into t. Returns 0 or a status with a message; *n is the size. */
static int mtx_body(mtx_reader *rd, int coord, int sym, int *n, mtx_trip *t, char *err,
                    size_t errn)
{
    const char *path = rd->path;
    char g[48];
    long sz[3];
    int want = coord ? 3 : 2;
    if (!mtx_next(rd, 1))
        return jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: end of file, expected the size line",
                        path, rd->lineno + 1);
    if (mtx_ints(rd->line, sz, want) != want)
        return jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: expected '%s', got '%s'", path,
                        rd->lineno, coord ? "rows cols entries" : "rows cols",
                        mtx_got(rd->line, g));
    int szline = rd->lineno;
    if (sz[0] != sz[1])
        return jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: size %ld x %ld is not square", path,
                        rd->lineno, sz[0], sz[1]);
    if (sz[0] < 1 || sz[0] > 100000000)
        return jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: size %ld x %ld is out of range", path,
                        rd->lineno, sz[0], sz[1]);
    long nl = sz[0];
    long total = coord ? sz[2] : (sym ? nl * (nl + 1) / 2 : nl * nl);
    long most = sym ? nl * (nl + 1) / 2 : nl * nl;
    if (coord && (sz[2] < 0 || sz[2] > most || sz[2] > 1000000000L))
        return jnt_errf(err, errn, JNT_ERR_IO,
                        "%s:%d: %ld entries do not fit a %s %ld x %ld matrix", path, rd->lineno,
                        sz[2], sym ? "symmetric" : "general", nl, nl);
    *n = (int)nl;
    long k = 0;
    long ai = 0, aj = 0; /* array position: row ai of column aj */
    while (mtx_next(rd, 1)) {
        if (k == total)
            return jnt_errf(err, errn, JNT_ERR_IO,
                            "%s:%d: more entries than the %ld announced on line %d", path,
                            rd->lineno, total, szline);
        char *s = rd->line, *e;
        long i, j;
        if (coord) {
            long ij[2] = {0, 0};
            int ok = 1;
            for (int q = 0; q < 2 && ok; q++) {
                ij[q] = strtol(s, &e, 10);
                ok = e != s && isspace((unsigned char)*e);
                s = e;
            }
            if (!ok)
                return jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: expected 'row col value', got '%s'",
                                path, rd->lineno, mtx_got(rd->line, g));
            if (ij[0] < 1 || ij[0] > nl || ij[1] < 1 || ij[1] > nl)
                return jnt_errf(err, errn, JNT_ERR_IO,
                                "%s:%d: index (%ld, %ld) out of range for size %ld x %ld", path,
                                rd->lineno, ij[0], ij[1], nl, nl);
            i = ij[0] - 1, j = ij[1] - 1;
            if (sym && i < j)
                return jnt_errf(err, errn, JNT_ERR_IO,
                                "%s:%d: entry (%ld, %ld) above the diagonal in a symmetric file "
                                "(only the lower triangle is stored)", path, rd->lineno, i + 1,
                                j + 1);
        } else {
            i = ai, j = aj;
        }
        double x = strtod(s, &e);
        const char *rest = e;
        while (isspace((unsigned char)*rest))
            rest++;
        if (e == s || *rest)
            return jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: expected '%s', got '%s'", path,
                            rd->lineno, coord ? "row col value" : "value", mtx_got(rd->line, g));
        if (!isfinite(x))
            return jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: a value is not finite in '%s'", path,
                            rd->lineno, mtx_got(rd->line, g));
        if ((coord || x != 0.0) && mtx_push(t, (int)i, (int)j, x, sym) != JNT_OK)
            return jnt_errf(err, errn, JNT_ERR_NOMEM, "%s: out of memory", path);
        k++;
        /* next array position, column by column (from the diagonal if symmetric) */
        if (!coord && ++ai == nl) {
            aj++;
            ai = sym ? aj : 0;
        }
    }
    if (ferror(rd->f))
        return jnt_errf(err, errn, JNT_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
    if (k < total)
        return jnt_errf(err, errn, JNT_ERR_IO,
                        "%s:%d: end of file after %ld of the %ld entries announced on line %d",
                        path, rd->lineno, k, total, szline);
    return JNT_OK;
}

/* Read a Matrix Market file into out (overwritten). Returns 0, JNT_ERR_IO
 * (missing file, malformed line: "path:line: message"), JNT_ERR_NOMEM. */
int fe_read_mtx(const char *path, fe_sparse *out, char *err, size_t errn)
{
    memset(out, 0, sizeof *out);
    mtx_reader rd = {.path = path};
    char why[96];
    rd.f = setup_open_input(path, SETUP_MAX_DATA, why, sizeof why);
    if (!rd.f)
        return jnt_errf(err, errn, JNT_ERR_IO, "cannot open '%s': %s", path, why);
    mtx_trip t = {0};
    int coord = 0, sym = 0, n = 0;
    int rc = mtx_header(&rd, &coord, &sym, err, errn);
    if (rc == JNT_OK)
        rc = mtx_body(&rd, coord, sym, &n, &t, err, errn);
    if (rc == JNT_OK) {
        rc = fe_sparse_from_triplets(n, t.n, t.r, t.c, t.v, out);
        if (rc != JNT_OK)
            rc = jnt_errf(err, errn, rc, "%s: out of memory", path);
    }
    free(t.r), free(t.c), free(t.v);
    free(rd.buf);
    fclose(rd.f);
    return rc;
}

/* Write a in the coordinate format, "%.17g" (exact round trip); with
 * symmetric, only the lower triangle under a "symmetric" header, after
 * checking that a is symmetric. Returns 0, JNT_ERR_USAGE (not symmetric) or
 * JNT_ERR_IO. */
int fe_write_mtx(const char *path, const fe_sparse *a, int symmetric, char *err, size_t errn)
{
    int i, j;
    double aij, aji;
    if (symmetric && fe_sparse_asym(a, &i, &j, &aij, &aji))
        return jnt_errf(err, errn, JNT_ERR_USAGE,
                        "cannot write '%s' as symmetric: [%d,%d] = %g, [%d,%d] = %g", path, i + 1,
                        j + 1, aij, j + 1, i + 1, aji);
    FILE *f = fopen(path, "w");
    if (!f)
        return jnt_errf(err, errn, JNT_ERR_IO, "cannot open '%s' for writing: %s", path,
                        strerror(errno));
    char *iobuf = malloc(1 << 16);
    if (iobuf)
        setvbuf(f, iobuf, _IOFBF, 1 << 16);
    int count = 0;
    for (int c = 0; c < a->n; c++)
        for (int p = a->colptr[c]; p < a->colptr[c + 1]; p++)
            count += !symmetric || a->rowind[p] >= c;
    fprintf(f, "%%%%MatrixMarket matrix coordinate real %s\n%% written by jnt\n%d %d %d\n",
            symmetric ? "symmetric" : "general", a->n, a->n, count);
    for (int c = 0; c < a->n; c++)
        for (int p = a->colptr[c]; p < a->colptr[c + 1]; p++)
            if (!symmetric || a->rowind[p] >= c)
                fprintf(f, "%d %d %.17g\n", a->rowind[p] + 1, c + 1, a->val[p]);
    int bad = ferror(f);
    int saved = errno;
    if (fclose(f) != 0 && !bad)
        bad = 1, saved = errno;
    free(iobuf);
    if (bad)
        return jnt_errf(err, errn, JNT_ERR_IO, "cannot write '%s': %s", path, strerror(saved));
    return JNT_OK;
}

/* Write M, K (symmetric storage), C when present and `damping` is not NULL
 * (general storage), and the node table when `nodes` is not NULL. Returns 0
 * or the status of the first failed write (message in err). */
int fe_write_model(const fe_model *m, const char *mass, const char *stiffness,
                   const char *damping, const char *nodes, char *err, size_t errn)
{
    int rc = fe_write_mtx(mass, &m->M, 1, err, errn);
    if (rc == JNT_OK)
        rc = fe_write_mtx(stiffness, &m->K, 1, err, errn);
    if (rc == JNT_OK && damping && m->C.n > 0)
        rc = fe_write_mtx(damping, &m->C, 0, err, errn);
    if (rc == JNT_OK && nodes)
        rc = fe_write_nodes(nodes, m, err, errn);
    return rc;
}

/* The benchmark plates: an aluminium plate (E = 70 GPa, nu = 0.33,
 * rho = 2700 kg/m^3) of 1 m x 0.25 m x 10 mm, QM6, on an nx = 4 ny mesh with
 * ny = round(sqrt(ndof / 8)), so about ndof DOFs (5000: 5252, 20000:
 * 20502, 50000: 50720), written to <prefix>_M.mtx, <prefix>_K.mtx and
 * <prefix>_nodes.csv. The DOF count in *ndof_out (may be NULL). */
int fe_export_plate2d(const char *prefix, int ndof, int *ndof_out, char *err, size_t errn)
{
    if (ndof < 8 || ndof > 50000000)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "export plate2d: %d DOFs is out of range", ndof);
    int ny = (int)lround(sqrt(ndof / 8.0));
    if (ny < 1)
        ny = 1;
    size_t len = strlen(prefix) + 16;
    char *pm = malloc(len), *pk = malloc(len), *pn = malloc(len);
    fe_model m;
    int rc;
    if (!pm || !pk || !pn) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "export plate2d: out of memory");
    } else {
        snprintf(pm, len, "%s_M.mtx", prefix);
        snprintf(pk, len, "%s_K.mtx", prefix);
        snprintf(pn, len, "%s_nodes.csv", prefix);
        rc = fe_plate2d(&m, 1.0, 0.25, 0.01, 70e9, 0.33, 2700.0, 4 * ny, ny, FE_QM6, err,
                        errn);
        if (rc == JNT_OK) {
            if (ndof_out)
                *ndof_out = m.ndof;
            rc = fe_write_model(&m, pm, pk, NULL, pn, err, errn);
            fe_free(&m);
        }
    }
    free(pm), free(pk), free(pn);
    return rc;
}
