/*
 * test_sparse.c: the Newton matrices' LU (runtime/linalg/sparse.c) against
 * LAPACK's dense solve on random sparse systems, refactorisation with new
 * values, a singular matrix, the crossover; and the implicit integrators'
 * sparse and dense paths on the same chain model (integ_linsys.c).
 */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"
#include "linalg/sparse.h"

/* A random n x n CSC pattern: the diagonal plus about k entries per column,
 * banded (|i - j| <= band) or scattered (band 0). Values in val, dominant
 * diagonal when dom is set. */
typedef struct csc {
    int n, *colptr, *rowind;
    double *val;
} csc;

static double urand(void)
{
    return (double)rand() / RAND_MAX;
}

static csc random_csc(int n, int k, int band, int dom)
{
    csc A = {n, malloc((n + 1) * sizeof(int)), malloc((size_t)n * (k + 1) * sizeof(int)),
             malloc((size_t)n * (k + 1) * sizeof(double))};
    char *mark = calloc(n, 1);
    int e = 0;
    for (int j = 0; j < n; j++) {
        A.colptr[j] = e;
        A.rowind[e] = j, A.val[e++] = dom ? 2.0 * k + 1.0 : urand() - 0.5;
        mark[j] = 1;
        for (int q = 0; q < k; q++) {
            int i = band ? j + (int)(urand() * (2 * band + 1)) - band : (int)(urand() * n);
            if (i < 0 || i >= n || mark[i])
                continue;
            mark[i] = 1;
            A.rowind[e] = i, A.val[e++] = urand() - 0.5;
        }
        for (int q = A.colptr[j]; q < e; q++)
            mark[A.rowind[q]] = 0;
    }
    A.colptr[n] = e;
    free(mark);
    return A;
}

static void free_csc(csc *A)
{
    free(A->colptr), free(A->rowind), free(A->val);
}

/* max |x - x_lapack| / max |x_lapack| for A x = b, b random. */
static double solve_error(sparse_lu *s, const csc *A)
{
    int n = A->n;
    double *D = calloc((size_t)n * n, sizeof *D), *b = malloc(n * sizeof *b),
           *x = malloc(n * sizeof *x);
    int *ipiv = malloc(n * sizeof *ipiv);
    for (int j = 0; j < n; j++)
        for (int q = A->colptr[j]; q < A->colptr[j + 1]; q++)
            D[(size_t)j * n + A->rowind[q]] = A->val[q];
    for (int i = 0; i < n; i++)
        b[i] = x[i] = urand() - 0.5;
    double err = INFINITY;
    if (sparse_lu_factor(s, A->val) == 0 && sparse_lu_solve(s, x) == 0 &&
        LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, D, n, ipiv, b, n) == 0) {
        double big = 0.0, d = 0.0;
        for (int i = 0; i < n; i++) {
            big = fmax(big, fabs(b[i]));
            d = fmax(d, fabs(x[i] - b[i]));
        }
        err = d / big;
    }
    free(D), free(b), free(x), free(ipiv);
    return err;
}

/* A path's name in the messages. */
static const char *pname(int path)
{
    return path == SPARSE_KLU ? "KLU" : path == SPARSE_LOOPS ? "dense loops" : "dense";
}

/* Each path (SPARSE_LOOPS: dense.h's plain loops, to 200 unknowns) against dgesv. */
static void test_random(void)
{
    const struct { int n, k, band, dom; } cases[] = {
        {5, 2, 0, 0}, {60, 3, 2, 1}, {200, 4, 0, 0}, {500, 5, 10, 0}, {1000, 3, 3, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (int path = SPARSE_DENSE; path <= SPARSE_LOOPS; path++) {
            if (path == SPARSE_LOOPS && cases[c].n > 200)
                continue;
            srand(17 + (unsigned)c);
            csc A = random_csc(cases[c].n, cases[c].k, cases[c].band, cases[c].dom);
            sparse_lu s;
            int ok = sparse_lu_init(&s, A.n, A.colptr, A.rowind, path) == 0;
            double e1 = ok ? solve_error(&s, &A) : INFINITY;
            /* new values, same pattern: KLU refactorises with the old pivots or
             * factorises again when they went bad */
            for (int q = 0; q < A.colptr[A.n]; q++)
                A.val[q] *= 1.0 + 0.5 * (urand() - 0.5);
            double e2 = ok ? solve_error(&s, &A) : INFINITY;
            CHECK(ok && e1 < 1e-9 && e2 < 1e-9,
                  "%s, n = %d, %d nonzeros%s: solution against LAPACK dgesv, %.1e, then with "
                  "new values %.1e", pname(path), A.n, A.colptr[A.n],
                  cases[c].band ? " (banded)" : "", e1, e2);
            sparse_lu_free(&s);
            free_csc(&A);
        }
    }
}

/* A matrix with a zero column: singular on both paths, the column named. */
static void test_singular(void)
{
    int colptr[] = {0, 2, 2, 4}, rowind[] = {0, 2, 0, 2};
    double val[] = {1.0, 2.0, 3.0, 4.0};
    for (int path = SPARSE_DENSE; path <= SPARSE_LOOPS; path++) {
        sparse_lu s;
        int rc = sparse_lu_init(&s, 3, colptr, rowind, path);
        int f = rc == 0 ? sparse_lu_factor(&s, val) : -99;
        CHECK(rc == 0 && f == 2, "%s: a singular matrix gives 1 + its zero column (got %d)",
              pname(path), f);
        sparse_lu_free(&s);
    }
    int bad[] = {0, 1, 3};
    sparse_lu s;
    CHECK(sparse_lu_init(&s, 2, bad, rowind, SPARSE_KLU) != 0,
          "a row index out of range is refused");
    sparse_lu_free(&s);
}

static void test_choose(void)
{
    unsetenv("JNT_LINSOLVE");
    CHECK(sparse_choose(6, 12, SPARSE_AUTO) == SPARSE_DENSE, "6 unknowns: dense");
    CHECK(sparse_choose(12, 40, SPARSE_AUTO) == SPARSE_KLU, "12 unknowns, 40 entries: KLU");
    CHECK(sparse_choose(40, 1600, SPARSE_AUTO) == SPARSE_DENSE, "40 unknowns, full: dense");
    CHECK(sparse_choose(1000, 5000, SPARSE_AUTO) == SPARSE_KLU, "1000 unknowns, 5000 entries: KLU");
    CHECK(sparse_choose(1000, 500000, SPARSE_AUTO) == SPARSE_DENSE, "half full: dense");
    setenv("JNT_LINSOLVE", "sparse", 1);
    CHECK(sparse_choose(6, 12, SPARSE_AUTO) == SPARSE_KLU, "JNT_LINSOLVE=sparse forces KLU");
    setenv("JNT_LINSOLVE", "dense", 1);
    CHECK(sparse_choose(1000, 5000, SPARSE_AUTO) == SPARSE_DENSE,
          "JNT_LINSOLVE=dense forces LAPACK");
    CHECK(sparse_choose(1000, 5000, SPARSE_KLU) == SPARSE_KLU, "a forced mode wins");
    unsetenv("JNT_LINSOLVE");
}

/* KLU's factor grows linearly on a tridiagonal chain (the factor's memory
 * at n and 8n within 8 x 1.3). */
static void test_growth(void)
{
    size_t bytes[2];
    for (int k = 0; k < 2; k++) {
        int n = k ? 8000 : 1000;
        srand(5);
        csc A = random_csc(n, 6, 1, 1);
        sparse_lu s;
        sparse_lu_init(&s, n, A.colptr, A.rowind, SPARSE_KLU);
        sparse_lu_factor(&s, A.val);
        bytes[k] = sparse_lu_bytes(&s);
        sparse_lu_free(&s);
        free_csc(&A);
    }
    double ratio = (double)bytes[1] / (double)bytes[0];
    CHECK(ratio > 4.0 && ratio < 8.0 * 1.3, "KLU on a chain: memory grows linearly (%zu B at "
          "n = 1000, %zu B at 8000: x%.2f)", bytes[0], bytes[1], ratio);
}

/* A 300-mass chain with smooth friction: each implicit integrator on the
 * sparse and dense paths gives the same final state (Newton converges to
 * 1e-3 of the tolerance on both; the paths differ in rounding only). */
static const char chain_src[] =
    "model chain\n"
    "import friction\n"
    "const n = 300\n"
    "body m[1..n] : point(mass = 0.1 kg) { dof x }\n"
    "spring k[i in 1..n-1] between m[i].x and m[i+1].x { stiffness = 100 N/m }\n"
    "damper c[i in 1..n-1] between m[i].x and m[i+1].x { damping = 0.05 N*s/m }\n"
    "friction f[i in 1..n] between m[i].x and ground { normal = 0.2 N\n"
    "  law = lugre(sigma0 = 1e4 /m, sigma1 = 30 s/m, sigma2 = 0.01 s/m, mu_s = 0.6,\n"
    "              mu_k = 0.4, v_s = 1 mm/s) }\n"
    "force p on m[1].x = 0.5 N * sin(2 * pi * t / 1 s)\n"
    "simulate { integrator = trapezoidal(h = 1 ms)  until = 0.2 s }\n"
    "output \"chain.csv\" every 10 ms { t, x1 = m[1].x, xn = m[n].x }\n";

static void test_paths(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("chain.jnt", chain_src, NULL, &m);
    CHECK(rc == JNT_OK, "the chain compiles (%d)", rc);
    if (rc != JNT_OK)
        return;
    int ny = jnt_model_abi(m)->ny;
    const char *igs[] = {"trapezoidal", "midpoint", "radau", "bdf"};
    for (int g = 0; g < 4; g++) {
        double *y[2];
        jnt_stats st[2];
        int ok = 1;
        for (int p = 0; p < 2; p++) {
            setenv("JNT_LINSOLVE", p ? "sparse" : "dense", 1);
            jnt_data *d = jnt_data_new(m);
            jnt_run_opts o = {.csv_path = "", .integrator = igs[g], .h = 1e-3, .rtol = 1e-8,
                              .atol = 1e-12};
            ok &= jnt_run(m, d, &o) == JNT_OK;
            y[p] = malloc(ny * sizeof *y[p]);
            for (int i = 0; i < ny; i++)
                y[p][i] = jnt_state(m, d, i);
            st[p] = *jnt_data_stats(d);
            jnt_data_free(d);
        }
        double diff = 0.0, big = 0.0;
        for (int i = 0; i < ny; i++) {
            diff = fmax(diff, fabs(y[0][i] - y[1][i]));
            big = fmax(big, fabs(y[0][i]));
        }
        CHECK(ok && diff <= 1e-6 * big, "%s: sparse and dense paths agree on all %d states "
              "(max diff %.2g, scale %.2g; steps %ld/%ld)", igs[g], ny, diff, big,
              st[0].steps, st[1].steps);
        if (g < 3)
            CHECK(st[1].jac_evals < st[1].steps / 2, "%s: the Jacobian is kept across steps "
                  "(%ld evaluations in %ld steps)", igs[g], st[1].jac_evals, st[1].steps);
        free(y[0]), free(y[1]);
    }
    unsetenv("JNT_LINSOLVE");
    jnt_model_free(m);
}

int main(void)
{
    test_random();
    test_singular();
    test_choose();
    test_growth();
    test_paths();
    return check_done();
}
