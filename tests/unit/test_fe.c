/*
 * test_fe.c: the finite-element data layer (runtime/fe_*.c): sparse
 * matrices, Matrix Market and node-table IO with their error messages,
 * import checks, the beam2d / plate2d / chain generators against analytic
 * results, boundary conditions, point DOFs and Rayleigh damping.
 */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/setup.h"
#include "jnt/jnt.h"

/* lapacke.h may define I (complex.h): no variable is called I here */
#define PI 3.14159265358979323846

static char err[512];

/* Write text to a scratch file; its path. */
static const char *put(const char *name, const char *text)
{
    err[0] = '\0';
    const char *path = test_out(name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

/* Whether two sparse matrices are equal entry by entry (tolerance tol). */
static int same_sparse(const fe_sparse *a, const fe_sparse *b, double tol)
{
    if (a->n != b->n)
        return 0;
    double *da = fe_sparse_dense(a), *db = fe_sparse_dense(b);
    int ok = da && db;
    for (size_t k = 0; ok && k < (size_t)a->n * (size_t)a->n; k++)
        ok = fabs(da[k] - db[k]) <= tol * (fabs(da[k]) + fabs(db[k]));
    free(da), free(db);
    return ok;
}

/* Generalized eigenvalues K x = w^2 M x of the DOFs in sel[0..n-1] (all when
 * sel is NULL): the circular frequencies, ascending, into om. 0 if it works. */
static int eig(const fe_model *m, const int *sel, int n, double *om)
{
    double *K = fe_sparse_dense(&m->K), *M = fe_sparse_dense(&m->M);
    double *k = malloc((size_t)n * n * sizeof *k), *mm = malloc((size_t)n * n * sizeof *mm);
    int N = m->ndof, info = -1;
    if (K && M && k && mm) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int ii = sel ? sel[i] : i, jj = sel ? sel[j] : j;
                k[i + (size_t)j * n] = K[ii + (size_t)jj * N];
                mm[i + (size_t)j * n] = M[ii + (size_t)jj * N];
            }
        info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'N', 'L', n, k, n, mm, n, om);
        for (int i = 0; i < n; i++)
            om[i] = sqrt(fabs(om[i]));
    }
    free(K), free(M), free(k), free(mm);
    return info;
}

/* Solve K u = f on the DOFs not in `fixed` (fixed[i] = 1: u_i = 0), dense
 * Cholesky. 0 if it works. */
static int solve_static(const fe_model *m, const int *fixed, const double *f, double *u)
{
    int N = m->ndof, n = 0;
    int *idx = malloc((size_t)N * sizeof *idx);
    double *K = fe_sparse_dense(&m->K), *k = malloc((size_t)N * N * sizeof *k);
    double *b = malloc((size_t)N * sizeof *b);
    int info = -1;
    if (idx && K && k && b) {
        for (int i = 0; i < N; i++)
            if (!fixed[i])
                idx[n++] = i;
        for (int j = 0; j < n; j++) {
            b[j] = f[idx[j]];
            for (int i = 0; i < n; i++)
                k[i + (size_t)j * n] = K[idx[i] + (size_t)idx[j] * N];
        }
        info = LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', n, 1, k, n, b, n);
        for (int i = 0; i < N; i++)
            u[i] = 0.0;
        for (int j = 0; j < n; j++)
            u[idx[j]] = b[j];
    }
    free(idx), free(K), free(k), free(b);
    return info;
}

/* Sparse assembly: unsorted triplets with duplicates, product, dense copy. */
static void test_sparse(void)
{
    /* A = [4 1 0; 1 5 2; 0 2 6] given out of order, (1,1) split in two */
    int r[] = {2, 0, 1, 1, 0, 1, 2, 1};
    int c[] = {2, 1, 0, 2, 0, 1, 1, 1};
    double v[] = {6, 1, 1, 2, 4, 3, 2, 2};
    fe_sparse a;
    CHECK(fe_sparse_from_triplets(3, 8, r, c, v, &a) == 0 && a.nnz == 7,
          "sparse: 8 triplets with one duplicate give 7 entries (hand count)");
    int sorted = 1;
    for (int j = 0; j < 3; j++)
        for (int p = a.colptr[j] + 1; p < a.colptr[j + 1]; p++)
            sorted &= a.rowind[p - 1] < a.rowind[p];
    CHECK(sorted, "sparse: rows sorted within each column");
    double x[3] = {1, 2, 3}, y[3];
    fe_sparse_mul(&a, x, y);
    CHECK(y[0] == 6 && y[1] == 17 && y[2] == 22, "sparse: A x = (6, 17, 22) (hand product)");
    double *d = fe_sparse_dense(&a);
    CHECK(d && d[4] == 5 && d[5] == 2 && d[7] == 2 && d[2] == 0,
          "sparse: dense copy column-major, duplicates summed (A[1,1] = 3 + 2)");
    free(d);
    int bad = 3;
    fe_sparse b;
    CHECK(fe_sparse_from_triplets(3, 1, &bad, c, v, &b) == JNT_ERR_USAGE,
          "sparse: a row index outside 0..n-1 is refused");
    fe_sparse_free(&a);
}

/* Matrix Market round trips: coordinate general and symmetric written and
 * read back exactly; array general and symmetric read as hand-expanded. */
static void test_mtx_roundtrip(void)
{
    /* a non-symmetric 5 x 5 with awkward values */
    int r[] = {0, 1, 4, 2, 3, 0, 4, 2}, c[] = {0, 0, 1, 2, 3, 4, 4, 0};
    double v[] = {1.0 / 3.0, -2.5e-7, 1e300, PI, -0.1, 7.0, 2e-310, 42};
    fe_sparse a, b, s, t;
    fe_sparse_from_triplets(5, 8, r, c, v, &a);
    const char *pg = test_out("fe_general.mtx");
    err[0] = '\0';
    CHECK(fe_write_mtx(pg, &a, 0, err, sizeof err) == 0, "mtx: write general (%s)", err);
    CHECK(fe_read_mtx(pg, &b, err, sizeof err) == 0 && same_sparse(&a, &b, 0.0) &&
              b.nnz == a.nnz,
          "mtx: coordinate general round trip is exact (%%.17g)");
    CHECK(fe_write_mtx(pg, &a, 1, err, sizeof err) == JNT_ERR_USAGE,
          "mtx: writing a non-symmetric matrix as symmetric is refused (%s)", err);
    /* symmetric: A + A^T */
    int rs[16], cs[16];
    double vs[16];
    for (int k = 0; k < 8; k++) {
        rs[k] = r[k], cs[k] = c[k], vs[k] = v[k];
        rs[8 + k] = c[k], cs[8 + k] = r[k], vs[8 + k] = v[k];
    }
    fe_sparse_from_triplets(5, 16, rs, cs, vs, &s);
    const char *ps = test_out("fe_sym.mtx");
    err[0] = '\0';
    CHECK(fe_write_mtx(ps, &s, 1, err, sizeof err) == 0, "mtx: write symmetric (%s)", err);
    CHECK(fe_read_mtx(ps, &t, err, sizeof err) == 0 && same_sparse(&s, &t, 0.0) &&
              t.nnz == s.nnz,
          "mtx: coordinate symmetric round trip is exact, both triangles expanded");
    FILE *f = fopen(ps, "r");
    char line[256];
    int lower = 1, nl = 0;
    while (f && fgets(line, sizeof line, f)) {
        int i, j;
        if (++nl > 3 && sscanf(line, "%d %d", &i, &j) == 2)
            lower &= i >= j;
    }
    if (f)
        fclose(f);
    CHECK(lower, "mtx: a symmetric file holds the lower triangle only (MM format spec)");
    fe_sparse_free(&a), fe_sparse_free(&b), fe_sparse_free(&s), fe_sparse_free(&t);
    int ok;

    /* array formats: column-major; symmetric = lower triangle by columns */
    const char *pa = put("fe_array.mtx", "%%MatrixMarket matrix array real general\n"
                                         "% a comment\n2 2\n1\n2\n3\n4\n");
    ok = fe_read_mtx(pa, &a, err, sizeof err) == 0 && a.n == 2;
    double *d = ok ? fe_sparse_dense(&a) : NULL;
    for (int k = 0; d && k < 4; k++)
        ok &= d[k] == k + 1;
    free(d);
    CHECK(ok, "mtx: array general [1 3; 2 4] read column-major (MM format spec) (%s)", err);
    fe_sparse_free(&a);
    const char *pb = put("fe_array_sym.mtx", "%%MatrixMarket matrix array real symmetric\n"
                                             "3 3\n4\n1\n2\n5\n3\n6\n");
    double want[9] = {4, 1, 2, 1, 5, 3, 2, 3, 6};
    ok = fe_read_mtx(pb, &a, err, sizeof err) == 0 && a.n == 3;
    d = ok ? fe_sparse_dense(&a) : NULL;
    for (int k = 0; d && k < 9; k++)
        ok &= d[k] == want[k];
    free(d);
    CHECK(ok, "mtx: array symmetric read as [4 1 2; 1 5 3; 2 3 6] (MM format spec)");
    fe_sparse_free(&a);
}

/* A diagonal n x n matrix file with diagonal value dv, except entry
 * (bi, bj) (1-based) = bv when bi > 0. */
static const char *diag_file(const char *name, int n, double dv, int bi, int bj, double bv)
{
    const char *path = test_out(name);
    FILE *f = fopen(path, "w");
    if (!f)
        return path;
    fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", n, n,
            n + (bi > 0 && bi != bj));
    for (int i = 1; i <= n; i++)
        fprintf(f, "%d %d %.17g\n", i, i, i == bi && i == bj ? bv : dv);
    if (bi > 0 && bi != bj)
        fprintf(f, "%d %d %.17g\n", bi, bj, bv);
    fclose(f);
    return path;
}

/* The exact error messages of the issue, with their line numbers. */
static void test_mtx_errors(void)
{
    fe_sparse a;
    fe_model m;
    char want[600];
    const char *missing = test_out("fe_no_such.mtx");
    remove(missing);
    snprintf(want, sizeof want, "cannot open '%s': No such file or directory", missing);
    CHECK(fe_read_mtx(missing, &a, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "mtx error: missing file (issue 4 text): %s", err);

    /* line 17 is 'abc': header, size line, 14 entries, then the bad line */
    char text[2048];
    int len = snprintf(text, sizeof text, "%%%%MatrixMarket matrix coordinate real general\n"
                                          "40 40 20\n");
    for (int i = 1; i <= 14; i++)
        len += snprintf(text + len, sizeof text - len, "%d %d 1.0\n", i, i);
    snprintf(text + len, sizeof text - len, "abc\n");
    const char *k17 = put("fe_K17.mtx", text);
    snprintf(want, sizeof want, "%s:17: expected 'row col value', got 'abc'", k17);
    CHECK(fe_read_mtx(k17, &a, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "mtx error: malformed line with its number (issue 4 text): %s", err);

    const char *sq = put("fe_K41.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                       "40 41 1\n1 1 1\n");
    snprintf(want, sizeof want, "%s:2: size 40 x 41 is not square", sq);
    CHECK(fe_read_mtx(sq, &a, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "mtx error: not square (issue 4 text): %s", err);

    const char *few = put("fe_few.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                                        "3 3 3\n1 1 1\n2 2 1\n");
    snprintf(want, sizeof want, "%s:4: end of file after 2 of the 3 entries announced on line 2",
             few);
    CHECK(fe_read_mtx(few, &a, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "mtx error: too few entries: %s", err);
    const char *rng = put("fe_rng.mtx", "%%MatrixMarket matrix coordinate real general\n"
                                        "3 3 1\n4 1 1\n");
    snprintf(want, sizeof want, "%s:3: index (4, 1) out of range for size 3 x 3", rng);
    CHECK(fe_read_mtx(rng, &a, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "mtx error: index out of range: %s", err);
    const char *up = put("fe_up.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                                      "3 3 1\n1 2 1\n");
    CHECK(fe_read_mtx(up, &a, err, sizeof err) == JNT_ERR_IO && strstr(err, ":3: entry (1, 2) "),
          "mtx error: upper-triangle entry in a symmetric file: %s", err);
    const char *cx = put("fe_cx.mtx", "%%MatrixMarket matrix coordinate complex general\n");
    snprintf(want, sizeof want, "%s:1: unsupported field 'complex' (expected 'real' or 'integer')",
             cx);
    CHECK(fe_read_mtx(cx, &a, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "mtx error: complex field: %s", err);
    const char *arr = put("fe_arr_bad.mtx", "%%MatrixMarket matrix array real general\n"
                                            "2 2\n1\n2\nx3\n4\n");
    snprintf(want, sizeof want, "%s:5: expected 'value', got 'x3'", arr);
    CHECK(fe_read_mtx(arr, &a, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "mtx error: malformed array value: %s", err);

    /* import checks */
    const char *m120 = diag_file("fe_M120.mtx", 120, 1.0, 0, 0, 0);
    const char *k126 = diag_file("fe_K126.mtx", 126, 1.0, 0, 0, 0);
    snprintf(want, sizeof want, "%s has 120 DOFs but %s has 126", m120, k126);
    CHECK(fe_import(&m, m120, k126, NULL, NULL, err, sizeof err) == JNT_ERR_MODEL &&
              strcmp(err, want) == 0 && m.ndof == 0,
          "import error: size mismatch (issue 4 text): %s", err);

    const char *m10 = test_out("fe_Masym.mtx");
    FILE *f = fopen(m10, "w");
    if (f) {
        fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n10 10 12\n");
        for (int i = 1; i <= 10; i++)
            fprintf(f, "%d %d 10\n", i, i);
        fprintf(f, "3 7 1.2\n7 3 1.1\n");
        fclose(f);
    }
    const char *k10 = diag_file("fe_K10.mtx", 10, 1.0, 0, 0, 0);
    snprintf(want, sizeof want, "%s is not symmetric (M[3,7] = 1.2, M[7,3] = 1.1)", m10);
    CHECK(fe_import(&m, m10, k10, NULL, NULL, err, sizeof err) == JNT_ERR_MODEL &&
              strcmp(err, want) == 0,
          "import error: non-symmetric mass (issue 4 text): %s", err);

    const char *mneg = diag_file("fe_Mneg.mtx", 20, 1.0, 12, 12, -1.0);
    const char *k20 = diag_file("fe_K20.mtx", 20, 1.0, 0, 0, 0);
    snprintf(want, sizeof want, "%s is not positive definite (Cholesky fails at DOF 12)", mneg);
    CHECK(fe_import(&m, mneg, k20, NULL, NULL, err, sizeof err) == JNT_ERR_MODEL &&
              strcmp(err, want) == 0,
          "import error: indefinite mass (issue 4 text): %s", err);

    /* a coupled M, indefinite only through an off-diagonal: [1 2; 2 1] at DOFs 2, 3 */
    const char *msym = put("fe_Mcpl_sym.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                                              "3 3 4\n1 1 1\n2 2 1\n3 3 1\n3 2 2\n");
    const char *k3 = diag_file("fe_K3.mtx", 3, 1.0, 0, 0, 0);
    snprintf(want, sizeof want, "%s is not positive definite (Cholesky fails at DOF 3)", msym);
    CHECK(fe_import(&m, msym, k3, NULL, NULL, err, sizeof err) == JNT_ERR_MODEL &&
              strcmp(err, want) == 0,
          "import error: indefinite through a coupling (eigenvalues 3, -1, 1): %s", err);
}

/* The node table: columns by name, sets, attached points, errors. */
static void test_nodes(void)
{
    fe_model m;
    memset(&m, 0, sizeof m);
    const char *p = put("fe_nodes.csv", "id,x,y,z,ux,uy,uz,set\n"
                                        "10,0,0,0,0,1,-1,left;corner\n"
                                        "\n"
                                        "20,1.5,0,0,2,3,-1,\n"
                                        "30,1.5,2,0,4,5,-1,corner\n");
    int rc = fe_read_nodes(p, &m, err, sizeof err);
    CHECK(rc == 0 && m.nnode == 3, "nodes: three nodes read, blank line skipped (%s)", err);
    int left = fe_find_set(&m, "left"), corner = fe_find_set(&m, "corner");
    CHECK(rc == 0 && m.node[1].id == 20 && m.node[1].x[0] == 1.5 && m.node[2].dof[FE_UY] == 5 &&
              m.node[0].dof[FE_UZ] == -1 && m.node[0].dof[FE_RZ] == -1,
          "nodes: ids, coordinates and DOF indices as in the file (missing rz = -1)");
    CHECK(left >= 0 && corner >= 0 && m.set[left].n == 1 && m.set[corner].n == 2 &&
              m.set[corner].node[1] == 2 && fe_find_set(&m, "none") == -1,
          "nodes: sets 'left' {10} and 'corner' {10, 30} from the set column");
    fe_free(&m);

    char want[600];
    const char *b1 = put("fe_nodes_bad1.csv", "id,x,y,z,ux,uy,uz\n1,0,0,0,0,1,-1\n2,1,0,0,a,3,-1\n");
    snprintf(want, sizeof want, "%s:3: expected an integer in column 'ux', got 'a'", b1);
    CHECK(fe_read_nodes(b1, &m, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0 &&
              m.nnode == 0,
          "nodes error: a bad DOF index with its line: %s", err);
    const char *b2 = put("fe_nodes_bad2.csv", "id,x,y,z,ux,uy,uz\n1,0,0,0,0,1\n");
    snprintf(want, sizeof want, "%s:2: expected 7 fields, got 6", b2);
    CHECK(fe_read_nodes(b2, &m, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "nodes error: a short line: %s", err);
    const char *b3 = put("fe_nodes_bad3.csv", "id,x,y,z,ux,uy,uz,weight\n");
    CHECK(fe_read_nodes(b3, &m, err, sizeof err) == JNT_ERR_IO &&
              strstr(err, ":1: unknown column 'weight'"),
          "nodes error: an unknown column: %s", err);
    const char *b4 = put("fe_nodes_bad4.csv", "id,x,ux\n1,0,0\n2,1,1\n1,2,2\n");
    snprintf(want, sizeof want, "%s:4: node id 1 repeats line 2", b4);
    CHECK(fe_read_nodes(b4, &m, err, sizeof err) == JNT_ERR_IO && strcmp(err, want) == 0,
          "nodes error: a repeated id: %s", err);

    /* import: a DOF index beyond the matrices */
    const char *mm = test_out("fe_M3.mtx"), *kk = test_out("fe_K3b.mtx");
    fe_sparse e;
    int r[3] = {0, 1, 2};
    double v[3] = {1, 1, 1};
    fe_sparse_from_triplets(3, 3, r, r, v, &e);
    fe_write_mtx(mm, &e, 1, err, sizeof err);
    fe_write_mtx(kk, &e, 1, err, sizeof err);
    fe_sparse_free(&e);
    const char *b5 = put("fe_nodes_bad5.csv", "id,x,ux,uy\n7,0,0,1\n8,1,2,3\n");
    snprintf(want, sizeof want, "%s: node 8 has DOF index 3 but %s has 3 DOFs (0 to 2)", b5, mm);
    CHECK(fe_import(&m, mm, kk, NULL, b5, err, sizeof err) == JNT_ERR_MODEL &&
              strcmp(err, want) == 0,
          "import error: a node DOF beyond the matrix size: %s", err);
    const char *b6 = put("fe_nodes_bad6.csv", "id,x,ux,uy\n7,0,0,1\n8,1,1,2\n");
    CHECK(fe_import(&m, mm, kk, NULL, b6, err, sizeof err) == JNT_ERR_MODEL &&
              strstr(err, "DOF 1 belongs to nodes 7 and 8"),
          "import error: a DOF shared by two nodes: %s", err);
}

/* The benchmark export (small size) read back by fe_import: the same model. */
static void test_export_import(void)
{
    fe_model g, m;
    int ndof = 0;
    const char *prefix = test_out("fe_bench_plate");
    err[0] = '\0';
    int rc = fe_export_plate2d(prefix, 600, &ndof, err, sizeof err);
    CHECK(rc == 0 && ndof == 2 * 37 * 10,
          "export: plate2d of ~600 DOFs is a 36 x 9 mesh, 740 DOFs (ny = round(sqrt(600/8))) (%s)",
          err);
    char pm[600], pk[600], pn[600];
    snprintf(pm, sizeof pm, "%s_M.mtx", prefix);
    snprintf(pk, sizeof pk, "%s_K.mtx", prefix);
    snprintf(pn, sizeof pn, "%s_nodes.csv", prefix);
    rc = fe_import(&m, pm, pk, NULL, pn, err, sizeof err);
    fe_plate2d(&g, 1.0, 0.25, 0.01, 70e9, 0.33, 2700.0, 36, 9, FE_QM6, err, sizeof err);
    CHECK(rc == 0 && m.ndof == g.ndof && same_sparse(&m.M, &g.M, 0.0) &&
              same_sparse(&m.K, &g.K, 0.0) && m.M.nnz == g.M.nnz,
          "import: exported M and K read back exactly (symmetric files, %%.17g) (%s)", err);
    int sets = rc == 0 && m.nnode == g.nnode && m.nset == g.nset;
    for (int s = 0; sets && s < g.nset; s++) {
        int t = fe_find_set(&m, g.set[s].name);
        sets = t >= 0 && m.set[t].n == g.set[s].n &&
               memcmp(m.set[t].node, g.set[s].node, (size_t)g.set[s].n * sizeof(int)) == 0;
    }
    for (int i = 0; sets && i < g.nnode; i++)
        sets = m.node[i].id == g.node[i].id && m.node[i].x[0] == g.node[i].x[0] &&
               m.node[i].x[1] == g.node[i].x[1] &&
               memcmp(m.node[i].dof, g.node[i].dof, sizeof g.node[i].dof) == 0;
    CHECK(sets, "import: node table and the 8 named sets read back as generated");
    fe_free(&m), fe_free(&g);

    /* beam2d: its attached surface points survive the node table */
    err[0] = '\0';
    fe_beam2d(&g, 1.0, 0.01, 0.02, 2e11, 0.3, 7800, 4, err, sizeof err);
    const char *pb = test_out("fe_beam_nodes.csv");
    rc = fe_write_nodes(pb, &g, err, sizeof err);
    memset(&m, 0, sizeof m);
    rc = rc ? rc : fe_read_nodes(pb, &m, err, sizeof err);
    int ok = rc == 0 && m.nnode == g.nnode;
    for (int i = 0; ok && i < g.nnode; i++)
        ok = m.node[i].master == g.node[i].master && m.node[i].off[1] == g.node[i].off[1];
    CHECK(ok, "nodes: beam2d surface points (master, offset) round trip (%s)", err);
    fe_free(&m), fe_free(&g);
}

/* beam2d: the cantilever of seed 001 (Sect. E5: rho A = 0.636 kg/m, L = 1 m,
 * E = 7.3e10 Pa, I = 1.325e-10 m^4) against Euler-Bernoulli theory; the
 * axial modes of the fixed-free bar; the surface points; fix. */
static void test_beam2d(void)
{
    /* a rectangular section of width w = 20 mm: h^2 = 12 I / A with A = w h */
    const double w = 0.02, In = 1.325e-10, rhoA = 0.636, E = 7.3e10, L = 1.0;
    double h = cbrt(12.0 * In / w), A = w * h, rho = rhoA / A;
    fe_model m;
    err[0] = '\0';
    int rc = fe_beam2d(&m, L, h, w, E, 0.3, rho, 24, err, sizeof err);
    CHECK(rc == 0 && m.ndof == 75 && m.nnode == 75, "beam2d: 25 axis nodes x 3 DOFs, 50 surface "
                                                    "points (%s)", err);
    int left = fe_find_set(&m, "left");
    rc = fe_fix(&m, left, err, sizeof err);
    CHECK(rc == 0 && m.ndof == 72 && m.M.n == 72 && m.K.n == 72,
          "beam2d: fix left removes the 3 DOFs of the clamped node");
    double om[72];
    rc = eig(&m, NULL, m.ndof, om);
    /* the bending modes are the ones below the first axial one */
    static const double bl[3] = {1.8751, 4.6941, 7.8548}, seed[3] = {13.71, 85.93, 240.6};
    double a = sqrt(E * In / (rhoA * pow(L, 4)));
    for (int k = 0; k < 3; k++) {
        char name[160];
        snprintf(name, sizeof name,
                 "beam2d: cantilever bending mode %d vs (beta L)^2 sqrt(EI/(rho A L^4)), "
                 "beta L = %.4f (seed 001 E5: %.4g rad/s)", k + 1, bl[k], seed[k]);
        CHECK_REL(rc == 0 ? om[k] : 0.0, bl[k] * bl[k] * a, 0.005, name);
        snprintf(name, sizeof name, "beam2d: bending mode %d vs seed 001 E5's %.4g rad/s", k + 1,
                 seed[k]);
        CHECK_REL(rc == 0 ? om[k] : 0.0, seed[k], 0.005, name);
    }
    /* axial: the ux DOFs of the free nodes alone (uncoupled from bending) */
    int sel[24];
    for (int i = 1; i <= 24; i++)
        sel[i - 1] = m.node[i].dof[FE_UX];
    rc = eig(&m, sel, 24, om);
    /* (consistent mass overestimates by about (k le)^2 / 24: 0.02 %, 0.16 %) */
    for (int k = 0; k < 2; k++) {
        char name[160];
        snprintf(name, sizeof name,
                 "beam2d: axial mode %d of the fixed-free bar vs (2n-1) pi/(2L) sqrt(E/rho)",
                 k + 1);
        CHECK_REL(rc == 0 ? om[k] : 0.0, (2 * k + 1) * PI / (2 * L) * sqrt(E / rho),
                  k == 0 ? 0.0005 : 0.003, name);
    }
    /* surface points: top point of axis node 5 (index 25 + 5) */
    int dof[4], n;
    double c[4];
    int top = fe_find_set(&m, "top"), bot = fe_find_set(&m, "bottom");
    int pt = m.set[top].node[5], pb = m.set[bot].node[5];
    n = fe_point_dofs(&m, pt, FE_UX, dof, c);
    CHECK(n == 2 && dof[0] == m.node[5].dof[FE_UX] && c[0] == 1.0 &&
              dof[1] == m.node[5].dof[FE_RZ] && fabs(c[1] + h / 2) < 1e-15,
          "point dofs: top ux = ux - (h/2) rz (fe.h: ux = ux_m - rz_m off_y)");
    n = fe_point_dofs(&m, pt, FE_UY, dof, c);
    CHECK(n == 1 && dof[0] == m.node[5].dof[FE_UY] && c[0] == 1.0,
          "point dofs: top uy = uy of its axis node (off_x = 0)");
    n = fe_point_dofs(&m, pb, FE_UX, dof, c);
    CHECK(n == 2 && fabs(c[1] - h / 2) < 1e-15, "point dofs: bottom ux = ux + (h/2) rz");
    n = fe_point_dofs(&m, pb, FE_RZ, dof, c);
    CHECK(n == 1 && dof[0] == m.node[5].dof[FE_RZ], "point dofs: a point turns with its master");
    CHECK(fe_point_dofs(&m, m.set[top].node[0], FE_UX, dof, c) == 0 &&
              fe_point_dofs(&m, 0, FE_UY, dof, c) == 0 &&
              fe_point_dofs(&m, 5, FE_UZ, dof, c) == 0,
          "point dofs: none on the clamped node and its points, none for uz in 2D");
    n = fe_point_dofs(&m, 5, FE_UY, dof, c);
    CHECK(n == 1 && dof[0] == m.node[5].dof[FE_UY] && c[0] == 1,
          "point dofs: a plain node is its own DOF");
    fe_free(&m);
}

/* fe_fix_comps: one component of a set (seed 003's end A, held along x only) */
static void test_fix_comps(void)
{
    fe_model m;
    int rc = fe_plate2d(&m, 2.0, 1.0, 0.01, 70e9, 0.3, 2700, 4, 3, FE_QM6, err, sizeof err);
    int left = fe_find_set(&m, "left");
    rc = rc ? rc : fe_fix_comps(&m, left, 1u << FE_UX, err, sizeof err);
    int ok = rc == 0 && m.ndof == 40 - 4;
    for (int k = 0; ok && k < m.set[left].n; k++) {
        const fe_node *p = &m.node[m.set[left].node[k]];
        ok &= p->dof[FE_UX] == -1 && p->dof[FE_UY] >= 0;
    }
    CHECK(ok, "fix_comps: left.ux removes the 4 ux DOFs of the left edge, keeps its uy (%s)", err);
    fe_free(&m);
}

/* fe_rotate: a rotated plate keeps its rigid translations (K t = 0 for a
 * global x translation) and its mass (t^T M t = total mass), and a node
 * at (lx, 0) lands at (lx cos, lx sin) */
static void test_rotate(void)
{
    fe_model m;
    const double lx = 2.0, ang = 30 * 3.14159265358979323846 / 180;
    int rc = fe_plate2d(&m, lx, 1.0, 0.01, 70e9, 0.3, 2700, 4, 3, FE_QM6, err, sizeof err);
    rc = rc ? rc : fe_rotate(&m, ang, err, sizeof err);
    double t[40] = {0}, kt[40], mt[40], kmax = 0, mass = 0;
    for (int k = 0; k < m.nnode; k++)
        t[m.node[k].dof[FE_UX]] = 1;
    fe_sparse_mul(&m.K, t, kt);
    fe_sparse_mul(&m.M, t, mt);
    for (int i = 0; i < 40; i++) {
        kmax = fmax(kmax, fabs(kt[i]));
        mass += t[i] * mt[i];
    }
    CHECK(rc == 0 && kmax < 1e-3, "rotate: a global x translation is a rigid mode (|K t| = %g N)",
          kmax);
    CHECK_REL(mass, 2700 * lx * 1.0 * 0.01, 1e-12, "rotate: t^T M t = the plate's mass (kg)");
    int corner = fe_find_set(&m, "bottom_right");
    const double *x = m.node[m.set[corner].node[0]].x;
    CHECK(fabs(x[0] - lx * cos(ang)) < 1e-12 && fabs(x[1] - lx * sin(ang)) < 1e-12,
          "rotate: the corner (lx, 0) moves to (%g, %g)", x[0], x[1]);
    fe_free(&m);
}

/* plate2d with each element: mesh, mass, sets (QM6); patch test and a
 * slender cantilever under end shear (Q4 and QM6). */
static void test_plate2d(void)
{
    const double lx = 2.0, ly = 1.0, t = 0.01, E = 70e9, nu = 0.3, rho = 2700;
    fe_model m;
    err[0] = '\0';
    int rc = fe_plate2d(&m, lx, ly, t, E, nu, rho, 4, 3, FE_QM6, err, sizeof err);
    CHECK(rc == 0 && m.ndof == 40 && m.nnode == 20, "plate2d: 4 x 3 mesh, 20 nodes, 40 DOFs (%s)",
          err);
    /* total mass: the sum of all entries of the x-block of consistent M */
    double sum = 0;
    for (int j = 0; j < m.M.n; j++)
        for (int p = m.M.colptr[j]; p < m.M.colptr[j + 1]; p++)
            if (j % 2 == 0 && m.M.rowind[p] % 2 == 0)
                sum += m.M.val[p];
    CHECK_REL(sum, rho * lx * ly * t, 1e-12, "plate2d: x-block of M sums to rho lx ly t");
    /* sets */
    static const char *names[8] = {"left", "right", "bottom", "top", "bottom_left",
                                   "bottom_right", "top_left", "top_right"};
    static const int count[8] = {4, 4, 5, 5, 1, 1, 1, 1};
    int ok = 1;
    for (int s = 0; s < 8; s++) {
        int k = fe_find_set(&m, names[s]);
        ok &= k >= 0 && m.set[k].n == count[s];
        for (int q = 0; ok && q < m.set[k].n; q++) {
            const double *x = m.node[m.set[k].node[q]].x;
            int onl = x[0] == 0, onr = fabs(x[0] - lx) < 1e-12, onb = x[1] == 0,
                ont = fabs(x[1] - ly) < 1e-12;
            int want[8] = {onl, onr, onb, ont, onl && onb, onr && onb, onl && ont, onr && ont};
            ok &= want[s];
        }
    }
    CHECK(ok, "plate2d: edges and corners hold the nodes on them, and no others");
    fe_free(&m);

    for (int el = 0; el < FE_NELEMENT; el++) {
        const char *en = fe_element_names[el];
        /* patch test: ux = 0 on the left edge, uy = 0 at bottom_left, uniform
         * traction sigma on the right edge (consistent nodal forces sigma t dy
         * times 1/2 at the corners): u = sigma x / E, v = -nu sigma y / E exactly */
        rc = fe_plate2d(&m, lx, ly, t, E, nu, rho, 4, 3, (fe_element)el, err, sizeof err);
        const double sig = 1e6, dy = ly / 3;
        int fixed[40] = {0};
        double f[40] = {0}, u[40];
        int L = fe_find_set(&m, "left"), R = fe_find_set(&m, "right");
        for (int q = 0; q < m.set[L].n; q++)
            fixed[m.node[m.set[L].node[q]].dof[FE_UX]] = 1;
        fixed[m.node[m.set[fe_find_set(&m, "bottom_left")].node[0]].dof[FE_UY]] = 1;
        for (int q = 0; q < m.set[R].n; q++) {
            const fe_node *p = &m.node[m.set[R].node[q]];
            int end = p->x[1] == 0 || fabs(p->x[1] - ly) < 1e-12;
            f[p->dof[FE_UX]] = sig * t * dy * (end ? 0.5 : 1.0);
        }
        rc = rc ? rc : solve_static(&m, fixed, f, u);
        double emax = 0;
        for (int i = 0; i < m.nnode; i++) {
            const fe_node *p = &m.node[i];
            emax = fmax(emax, fabs(u[p->dof[FE_UX]] - sig * p->x[0] / E));
            emax = fmax(emax, fabs(u[p->dof[FE_UY]] + nu * sig * p->x[1] / E));
        }
        CHECK(rc == 0 && emax < 1e-12 * sig * lx / E,
              "plate2d %s: patch test, uniform tension gives the uniform strain field exactly "
              "(max error %.3g of %.3g)", en, emax, sig * lx / E);
        fe_free(&m);

        /* slender cantilever: 1 m x 50 mm x 10 mm, clamped left edge, end shear
         * P spread 1/8, 1/4, 1/4, 1/4, 1/8 over the right edge; 200 x 4 elements
         * of 5 mm x 12.5 mm (short elements keep the parasitic shear of Q4
         * small: 0.99 of the beam value here, 0.96 with 100 x 2; QM6 adds
         * the shear deflection, 0.2 %). Euler-Bernoulli: delta = P L^3 / (3 E I). */
        const double Lc = 1.0, hc = 0.05, P = 100.0;
        rc = fe_plate2d(&m, Lc, hc, t, E, nu, rho, 200, 4, (fe_element)el, err, sizeof err);
        int n = m.ndof, *fx = calloc((size_t)n, sizeof *fx);
        double *fc = calloc((size_t)n, sizeof *fc), *uc = calloc((size_t)n, sizeof *uc);
        L = fe_find_set(&m, "left"), R = fe_find_set(&m, "right");
        for (int q = 0; q < m.set[L].n; q++)
            fx[m.node[m.set[L].node[q]].dof[FE_UX]] = fx[m.node[m.set[L].node[q]].dof[FE_UY]] = 1;
        for (int q = 0; q < m.set[R].n; q++) {
            const fe_node *p = &m.node[m.set[R].node[q]];
            fc[p->dof[FE_UY]] = P / 4 * (p->x[1] == 0 || fabs(p->x[1] - hc) < 1e-12 ? 0.5 : 1.0);
        }
        rc = rc ? rc : solve_static(&m, fx, fc, uc);
        double tip = 0;
        for (int q = 0; q < m.set[R].n; q++)
            tip += uc[m.node[m.set[R].node[q]].dof[FE_UY]] / m.set[R].n;
        double eb = P * pow(Lc, 3) / (3 * E * t * pow(hc, 3) / 12);
        printf("INFO: plate2d %s: cantilever 200 x 4 under end shear, tip / (P L^3/(3 E I)) = "
               "%.5f\n", en, tip / eb);
        char name[160];
        snprintf(name, sizeof name, "plate2d %s: cantilever 1 m x 50 mm, tip deflection "
                 "(200 x 4 mesh) vs P L^3/(3 E I)", en);
        CHECK_REL(rc == 0 ? tip : 0.0, eb, 0.02, name);
        free(fx), free(fc), free(uc);
        fe_free(&m);
    }
}

/* K u of a linear displacement field u = A (x, y) on model m (every node
 * free): the largest |(K u)_i| over the DOFs of interior nodes (0 < x < lx,
 * 0 < y < ly), relative to max |K_ij| |u|; and u^T K u against the exact
 * 2 x strain energy t lx ly eps^T D eps. */
static void linear_field(const fe_model *m, double lx, double ly, double t, double E, double nu,
                         const double A[2][2], double *res, double *energy, double *exact)
{
    int n = m->ndof;
    double *u = calloc((size_t)n, sizeof *u), *ku = calloc((size_t)n, sizeof *ku), umax = 0;
    for (int i = 0; i < m->nnode; i++)
        for (int c = 0; c < 2; c++) {
            u[m->node[i].dof[c]] = A[c][0] * m->node[i].x[0] + A[c][1] * m->node[i].x[1];
            umax = fmax(umax, fabs(u[m->node[i].dof[c]]));
        }
    fe_sparse_mul(&m->K, u, ku);
    double kmax = 0, r = 0, e = 0;
    for (int p = 0; p < m->K.nnz; p++)
        kmax = fmax(kmax, fabs(m->K.val[p]));
    for (int i = 0; i < m->nnode; i++) {
        const double *x = m->node[i].x;
        if (x[0] > 1e-12 && x[0] < lx - 1e-12 && x[1] > 1e-12 && x[1] < ly - 1e-12)
            for (int c = 0; c < 2; c++)
                r = fmax(r, fabs(ku[m->node[i].dof[c]]));
    }
    for (int i = 0; i < n; i++)
        e += u[i] * ku[i];
    /* eps = (A00, A11, A01 + A10); plane-stress D */
    double ex = A[0][0], ey = A[1][1], g = A[0][1] + A[1][0], d0 = E / (1 - nu * nu);
    *res = r / (kmax * umax);
    *energy = e;
    *exact = t * lx * ly * d0 * (ex * ex + ey * ey + 2 * nu * ex * ey + (1 - nu) / 2 * g * g);
    free(u), free(ku);
}

/* The tip deflection of a cantilever lx x ly (nx x ny elements, left edge
 * clamped) under an end moment Mo: the linear traction sigma_x =
 * -Mo (y - ly/2) / I (I = t ly^3/12) on the right edge as consistent nodal forces (t dy/6
 * (2 s1 + s2), t dy/6 (s1 + 2 s2) per edge segment); the mean uy of the
 * right edge; NAN when it fails. */
static double end_moment(double lx, double ly, double t, double E, double nu, int nx, int ny,
                         fe_element el, double Mo)
{
    fe_model m;
    if (fe_plate2d(&m, lx, ly, t, E, nu, 1000, nx, ny, el, err, sizeof err))
        return NAN;
    int n = m.ndof, *fx = calloc((size_t)n, sizeof *fx);
    double *f = calloc((size_t)n, sizeof *f), *u = calloc((size_t)n, sizeof *u);
    int L = fe_find_set(&m, "left"), R = fe_find_set(&m, "right");
    const double Iz = t * ly * ly * ly / 12, dy = ly / ny;
    for (int q = 0; q < m.set[L].n; q++)
        fx[m.node[m.set[L].node[q]].dof[FE_UX]] = fx[m.node[m.set[L].node[q]].dof[FE_UY]] = 1;
    for (int q = 0; q < m.set[R].n; q++) {
        const fe_node *p = &m.node[m.set[R].node[q]];
        double y = p->x[1], s = -Mo * (y - ly / 2) / Iz;
        if (y > 1e-12 * ly) /* the segment below */
            f[p->dof[FE_UX]] += t * dy / 6 * (2 * s - Mo * (y - dy - ly / 2) / Iz);
        if (y < ly * (1 - 1e-12)) /* the segment above */
            f[p->dof[FE_UX]] += t * dy / 6 * (2 * s - Mo * (y + dy - ly / 2) / Iz);
    }
    double tip = NAN;
    if (solve_static(&m, fx, f, u) == 0) {
        tip = 0;
        for (int q = 0; q < m.set[R].n; q++)
            tip += u[m.node[m.set[R].node[q]].dof[FE_UY]] / m.set[R].n;
    }
    free(fx), free(f), free(u);
    fe_free(&m);
    return tip;
}

/* The lowest frequency (Hz) of a cantilever lx x ly (nx x ny, left edge
 * clamped), and the second in *f2; NAN when it fails. */
static double cantilever_f1(double lx, double ly, double t, double E, double nu, double rho,
                            int nx, int ny, fe_element el, double *f2)
{
    fe_model m;
    double f1 = NAN;
    *f2 = NAN;
    if (fe_plate2d(&m, lx, ly, t, E, nu, rho, nx, ny, el, err, sizeof err))
        return NAN;
    if (fe_fix(&m, fe_find_set(&m, "left"), err, sizeof err) == 0) {
        double *om = malloc((size_t)m.ndof * sizeof *om);
        if (om && eig(&m, NULL, m.ndof, om) == 0)
            f1 = om[0] / (2 * PI), *f2 = om[1] / (2 * PI);
        free(om);
    }
    fe_free(&m);
    return f1;
}

/* QM6 (incompatible modes, Taylor-Beresford-Wilson): the patch tests on a
 * 2 x 2 mesh and on MacNeal and Harder's distorted patch, exact pure
 * bending on rectangles where Q4 locks, and the first bending frequency of
 * a slender cantilever. */
static void test_qm6(void)
{
    const double E = 70e9, nu = 0.3, t = 0.01;
    /* 1. a linear field on a 2 x 2 mesh of 2 x 1 elements: the interior
     * node carries no force, u^T K u = 2 x the exact strain energy */
    for (int el = 0; el < FE_NELEMENT; el++) {
        fe_model m;
        const double A[2][2] = {{1e-3, 4e-4}, {-2e-4, -5e-4}};
        double res = 1, e = 0, ex = 1;
        int rc = fe_plate2d(&m, 4.0, 1.0, t, E, nu, 2700, 2, 2, (fe_element)el, err, sizeof err);
        if (rc == 0)
            linear_field(&m, 4.0, 1.0, t, E, nu, A, &res, &e, &ex);
        CHECK(rc == 0 && res < 1e-14 && fabs(e - ex) < 1e-13 * ex,
              "plate2d %s: patch test, 2 x 2 mesh under a linear field: interior force %.2g of "
              "max|K| max|u|, u^T K u / (2 U exact) - 1 = %.2g", fe_element_names[el], res,
              e / ex - 1);
        fe_free(&m);
    }
    /* 2. MacNeal and Harder's membrane patch (A proposed standard set of
     * problems to test finite element accuracy, Finite Elem. Anal. Des. 1,
     * 1985, 3-20): 0.24 x 0.12, five distorted elements around the interior
     * nodes 5-8, E = 1e6, nu = 0.25, t = 0.001; u = 1e-3 (x + y/2),
     * v = 1e-3 (y + x/2) at the boundary nodes 1-4: the interior nodes
     * follow the same field. Wilson's Q6 without the correction fails it. */
    {
        static const double X[8] = {0, 0.24, 0.24, 0, 0.04, 0.18, 0.16, 0.08};
        static const double Y[8] = {0, 0, 0.12, 0.12, 0.02, 0.03, 0.08, 0.08};
        static const int conn[5][4] = {{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6},
                                       {3, 0, 4, 7}, {4, 5, 6, 7}};
        for (int el = 0; el < FE_NELEMENT; el++) {
            double K[16 * 16] = {0}, ke[64], me[64];
            int rc = 0;
            for (int e = 0; e < 5; e++) {
                double xe[4], ye[4];
                for (int k = 0; k < 4; k++)
                    xe[k] = X[conn[e][k]], ye[k] = Y[conn[e][k]];
                rc |= fe_quad(xe, ye, 0.001, 1e6, 0.25, 1, (fe_element)el, ke, me);
                for (int j = 0; j < 8; j++)
                    for (int i = 0; i < 8; i++)
                        K[2 * conn[e][i / 2] + i % 2 + 16 * (2 * conn[e][j / 2] + j % 2)] +=
                            ke[i + 8 * j];
            }
            /* K_ii u_i = -K_ib u_b over the interior DOFs 8..15 */
            double u[16], kii[64], b[8], emax = 0;
            for (int k = 0; k < 8; k++)
                u[2 * k] = 1e-3 * (X[k] + Y[k] / 2), u[2 * k + 1] = 1e-3 * (Y[k] + X[k] / 2);
            for (int i = 0; i < 8; i++) {
                b[i] = 0;
                for (int j = 0; j < 8; j++)
                    b[i] -= K[8 + i + 16 * j] * u[j], kii[i + 8 * j] = K[8 + i + 16 * (8 + j)];
            }
            rc |= LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', 8, 1, kii, 8, b, 8);
            for (int i = 0; i < 8; i++)
                emax = fmax(emax, fabs(b[i] - u[8 + i]));
            CHECK(rc == 0 && emax < 1e-12 * 1e-3 * 0.24,
                  "plate2d %s: MacNeal-Harder distorted patch, interior displacements exact "
                  "(max error %.2g m of %.2g)", fe_element_names[el], emax, 1e-3 * 0.24);
        }
        double xe[4] = {0, 0, 1, 1}, ye[4] = {0, 1, 1, 0}, ke[64], me[64];
        CHECK(fe_quad(xe, ye, 0.001, 1e6, 0.25, 1, FE_QM6, ke, me) == JNT_ERR_PARAM,
              "fe_quad: corners clockwise (det J < 0) are refused");
    }
    /* 3. pure bending: cantilever 100 x 10 mm, 10 x 1 square elements, end
     * moment by a linear traction. The plane-stress solution u = -Mo x
     * (y - h/2)/(E I), v = Mo (x^2 + nu (y - h/2)^2 - nu h^2/4)/(2 E I)
     * meets the clamp at both left nodes and lies in QM6's space on
     * rectangles (x^2, y^2 are the incompatible modes plus bilinear
     * terms): tip deflection Mo L^2/(2 E I) (Euler-Bernoulli) to round-off.
     * Q4 cannot bend without shear strain: far too stiff. */
    {
        const double Lb = 0.1, hb = 0.01, Mo = 10, Iz = t * hb * hb * hb / 12;
        const double want = Mo * Lb * Lb / (2 * E * Iz);
        double qm6 = end_moment(Lb, hb, t, E, nu, 10, 1, FE_QM6, Mo);
        double q4 = end_moment(Lb, hb, t, E, nu, 10, 1, FE_Q4, Mo);
        printf("INFO: pure bending, 10 x 1 mesh: tip / (Mo L^2/(2 E I)) = %.12f (qm6), %.4f "
               "(q4)\n", qm6 / want, q4 / want);
        MEASURE("fe.moment.qm6_rel", fabs(qm6 / want - 1));
        MEASURE("fe.moment.q4", q4 / want);
        CHECK_REL(qm6, want, 1e-10, "plate2d qm6: end moment on a 10 x 1 cantilever, tip "
                                    "deflection = Mo L^2/(2 E I) (exact on rectangles)");
        CHECK(q4 < 0.9 * want, "plate2d q4: the same cantilever locks: tip deflection %.3f of "
                               "Mo L^2/(2 E I) (< 0.9)", q4 / want);
    }
    /* 4. first bending frequency of seed 003's cantilever (100 x 2 mm,
     * E = 2.38 GPa, nu = 0.4, rho = 1200 kg/m^3), 50 x 2 elements.
     * Euler-Bernoulli, clamped-free: f1 = 1.875104^2/(2 pi L^2)
     * sqrt(E I/(rho A)), f2 with 4.694091; Timoshenko's shear and rotary
     * inertia lower them by a fraction of order (h/L)^2 = 4e-4 (less than
     * 0.1 %): within 1 %. Q4 on this mesh is 19 % high. */
    {
        const double Lb = 0.1, hb = 0.002, tb = 0.02, Eb = 2.38e9, nub = 0.4, rhob = 1200;
        const double c = sqrt(Eb * hb * hb / (12 * rhob)) / (2 * PI * Lb * Lb);
        const double eb1 = 1.875104068711961 * 1.875104068711961 * c,
                     eb2 = 4.694091132974175 * 4.694091132974175 * c;
        double g1, g2, h1, h2;
        double f1 = cantilever_f1(Lb, hb, tb, Eb, nub, rhob, 50, 2, FE_QM6, &g1);
        double q1 = cantilever_f1(Lb, hb, tb, Eb, nub, rhob, 50, 2, FE_Q4, &g2);
        h1 = cantilever_f1(Lb, hb, tb, Eb, nub, rhob, 100, 4, FE_QM6, &h2);
        printf("INFO: cantilever 100 x 2 mm: f1 %.2f Hz (Euler-Bernoulli), %.2f (qm6 50 x 2), "
               "%.2f (q4 50 x 2), %.2f (qm6 100 x 4); f2 %.1f, %.1f, %.1f, %.1f Hz\n",
               eb1, f1, q1, h1, eb2, g1, g2, h2);
        /* docs/substructures.md's table */
        MEASURE("fe.cant.eb1", eb1);
        MEASURE("fe.cant.eb2", eb2);
        MEASURE("fe.cant.qm6.f1", f1);
        MEASURE("fe.cant.qm6.f2", g1);
        MEASURE("fe.cant.q4.f1", q1);
        MEASURE("fe.cant.q4.f2", g2);
        MEASURE("fe.cant.qm6.f1_pct", 100 * (f1 / eb1 - 1));
        MEASURE("fe.cant.qm6.f2_pct", 100 * (g1 / eb2 - 1));
        MEASURE("fe.cant.q4.f1_pct", 100 * (q1 / eb1 - 1));
        MEASURE("fe.cant.q4.f2_pct", 100 * (g2 / eb2 - 1));
        CHECK_REL(f1, eb1, 0.01, "plate2d qm6: first bending frequency of a 100 x 2 mm "
                                 "cantilever (50 x 2 mesh) vs Euler-Bernoulli (1 %)");
        CHECK_REL(g1, eb2, 0.01, "plate2d qm6: second bending frequency (50 x 2) vs "
                                 "Euler-Bernoulli (1 %)");
        CHECK(q1 > 1.1 * eb1, "plate2d q4: the same mesh locks, f1 %.3f of Euler-Bernoulli "
                              "(> 1.1)", q1 / eb1);
    }
}

/* chain: fixed-free frequencies; fix renumbering; Rayleigh damping. */
static void test_chain(void)
{
    const int n = 11;
    const double k = 400.0, mass = 0.25;
    fe_model m;
    err[0] = '\0';
    int rc = fe_chain(&m, n, k, mass, err, sizeof err);
    CHECK(rc == 0 && m.ndof == n && m.M.nnz == n && m.K.nnz == 3 * n - 2,
          "chain: 11 DOFs, lumped M, tridiagonal K (%s)", err);
    rc = fe_fix(&m, fe_find_set(&m, "first"), err, sizeof err);
    int renum = rc == 0 && m.ndof == n - 1 && m.node[0].dof[FE_UX] == -1;
    for (int i = 1; i < n; i++)
        renum &= m.node[i].dof[FE_UX] == i - 1;
    CHECK(renum, "fix: the first mass removed, the others renumbered 0..9 in order");
    double *K = fe_sparse_dense(&m.K);
    CHECK(K && K[0] == 2 * k && K[1] == -k && K[99] == k && m.K.nnz == 3 * (n - 1) - 2,
          "fix: K of the grounded chain: 2k on the first diagonal, k on the last");
    free(K);
    /* fixed-free chain of N masses: w_j = 2 sqrt(k/m) sin((2j - 1) pi / (2 (2N + 1))) */
    int N = n - 1;
    double om[10];
    rc = eig(&m, NULL, N, om);
    double emax = 0;
    for (int j = 1; j <= N; j++)
        emax = fmax(emax, fabs(om[j - 1] / (2 * sqrt(k / mass) *
                                            sin((2 * j - 1) * PI / (2.0 * (2 * N + 1)))) - 1));
    CHECK(rc == 0 && emax < 1e-12,
          "chain: all 10 fixed-free frequencies vs 2 sqrt(k/m) sin((2j-1) pi/(2(2N+1))) "
          "(max rel. error %.3g)", emax);
    /* Rayleigh */
    const double alpha = 0.7, beta = 3e-3;
    rc = fe_rayleigh(&m, alpha, beta, err, sizeof err);
    double x[10], y[10], ym[10], yk[10];
    for (int i = 0; i < N; i++)
        x[i] = sin(1.0 + i);
    fe_sparse_mul(&m.C, x, y);
    fe_sparse_mul(&m.M, x, ym);
    fe_sparse_mul(&m.K, x, yk);
    emax = 0;
    for (int i = 0; i < N; i++)
        emax = fmax(emax, fabs(y[i] - alpha * ym[i] - beta * yk[i]));
    CHECK(rc == 0 && m.C.n == N && m.C.nnz == m.K.nnz && emax < 1e-12,
          "rayleigh: C x = alpha M x + beta K x, pattern of K (error %.3g)", emax);
    rc = fe_fix(&m, fe_find_set(&m, "last"), err, sizeof err);
    CHECK(rc == 0 && m.C.n == N - 1 && m.M.n == N - 1 && m.node[n - 1].dof[FE_UX] == -1 &&
              m.node[n - 2].dof[FE_UX] == N - 2,
          "fix: C shrinks with M and K; fixing the last node keeps the others' numbers");
    CHECK(fe_rayleigh(&m, -1, 0, err, sizeof err) == JNT_ERR_PARAM &&
              fe_fix(&m, 99, err, sizeof err) == JNT_ERR_USAGE,
          "rayleigh / fix: negative alpha and a bad set index are refused");
    fe_free(&m);
    CHECK(fe_chain(&m, 0, k, mass, err, sizeof err) == JNT_ERR_PARAM &&
              fe_beam2d(&m, 1, 0.01, 0.01, 1e9, 0.3, 1000, 0, err, sizeof err) == JNT_ERR_PARAM &&
              fe_plate2d(&m, 1, 1, 0.01, 1e9, 0.6, 1000, 2, 2, FE_QM6, err, sizeof err) ==
                  JNT_ERR_PARAM &&
              fe_plate2d(&m, 1, 1, 0.01, 1e9, 0.3, 1000, 2, 2, FE_NELEMENT, err, sizeof err) ==
                  JNT_ERR_PARAM,
          "generators: bad parameters refused (%s)", err);
}

int main(void)
{
    test_sparse();
    test_mtx_roundtrip();
    test_mtx_errors();
    test_nodes();
    test_export_import();
    test_beam2d();
    test_plate2d();
    test_qm6();
    test_fix_comps();
    test_rotate();
    test_chain();
    return check_done();
}
