/*
 * test_lazy.c: the jnt command's numerical libraries loaded on first use
 * (compiler/cli/lazy.c). Linked as the jnt executable is (the Makefile:
 * lazy.o, libjnt.a, no OpenBLAS, LAPACKE, CHOLMOD, KLU or ARPACK), it checks
 * in /proc/self that a model loads only what it calls (a small BDF model,
 * whose LU is linalg/dense.c's, nothing at all; a small multibody model
 * under rk4, whose assembly QR, consistent start and Schur complement are
 * the runtime's own loops, nothing either; a multibody model, whose
 * assembly QR is dense.c's too, KLU only) and starts no BLAS thread,
 * and that the LU calls lazy.c answers itself (LAPACKE_dgetrf_work and
 * LAPACKE_dgetrs_work in column-major order) give LAPACKE's results bit for
 * bit.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dirent.h>
#include <dlfcn.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"

/* Whether a shared object whose name contains `lib` is mapped. */
static int mapped(const char *lib)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, lib) != NULL;
    if (f)
        fclose(f);
    return found;
}

/* The number of threads of this process. */
static int threads(void)
{
    DIR *d = opendir("/proc/self/task");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* Compile the example `name` and (t_end > 0) run it to t_end with no output file,
 * with the integrator `integ` (NULL: the model's): JNT_OK or a status. */
static int run_with(const char *name, double t_end, const char *integ)
{
    char path[256];
    snprintf(path, sizeof path, "examples/%s.jnt", name);
    FILE *null = fopen("/dev/null", "w");
    jnt_compile_opts o = {.diag = null};
    jnt_model *m = NULL;
    int rc = jnt_compile_file(path, &o, &m);
    jnt_data *d = rc == JNT_OK && t_end > 0 ? jnt_data_new(m) : NULL;
    jnt_run_opts r = {.csv_path = "", .t_end = t_end, .integrator = integ};
    if (d)
        rc = jnt_run(m, d, &r);
    jnt_data_free(d);
    jnt_model_free(m);
    fclose(null);
    return rc;
}

/* run_with the model's integrator. */
static int run(const char *name, double t_end)
{
    return run_with(name, t_end, NULL);
}

static const char *const libs[] = {"libopenblas", "liblapacke", "libcholmod", "libklu",
                                   "libarpack", "libmetis", "libgfortran"};
enum { N_LIBS = sizeof libs / sizeof *libs };

/* Check that exactly the libraries named in `want` (a space-separated list) are mapped. */
static void check_mapped(const char *when, const char *want)
{
    for (int i = 0; i < N_LIBS; i++) {
        int w = strstr(want, libs[i]) != NULL;
        CHECK(mapped(libs[i]) == w, "%s: %s %s", when, libs[i], w ? "loaded" : "not loaded");
    }
}

typedef lapack_int (*getrf_fn)(int, lapack_int, lapack_int, double *, lapack_int, lapack_int *);
typedef lapack_int (*getrs_fn)(int, char, lapack_int, lapack_int, const double *, lapack_int,
                               const lapack_int *, double *, lapack_int);

/* LU of an n x n matrix (lda) and a solve with 2 right-hand sides, by lazy.c and
 * by LAPACKE itself: the factors, pivots, solutions and info identical. */
static void check_lu(getrf_fn rf, getrs_fn rs, int n, int lda, int singular, unsigned seed)
{
    double a[2][64], b[2][16];
    lapack_int ip[2][8] = {{0}}, irf[2], irs[2];
    srand(seed);
    for (int k = 0; k < 64; k++)
        a[0][k] = a[1][k] = (double)rand() / RAND_MAX - 0.5;
    for (int k = 0; k < 16; k++)
        b[0][k] = b[1][k] = (double)rand() / RAND_MAX;
    if (singular) /* column 1 a copy of column 0 */
        for (int i = 0; i < n; i++)
            a[0][lda + i] = a[1][lda + i] = a[0][i];
    irf[0] = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, a[0], lda, ip[0]);
    irf[1] = rf(LAPACK_COL_MAJOR, n, n, a[1], lda, ip[1]);
    irs[0] = LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 2, a[0], lda, ip[0], b[0], 8);
    irs[1] = rs(LAPACK_COL_MAJOR, 'N', n, 2, a[1], lda, ip[1], b[1], 8);
    CHECK(irf[0] == irf[1] && irs[0] == irs[1] && !memcmp(a[0], a[1], sizeof a[0]) &&
              !memcmp(ip[0], ip[1], sizeof ip[0]) && !memcmp(b[0], b[1], sizeof b[0]),
          "dgetrf/dgetrs n = %d, lda = %d%s: as LAPACKE's, bit for bit (info %d, %d; "
          "LAPACKE %d, %d)",
          n, lda, singular ? ", singular" : "", (int)irf[0], (int)irs[0], (int)irf[1],
          (int)irs[1]);
}

int main(void)
{
    const char *env = getenv("OPENBLAS_NUM_THREADS");
    CHECK(env && *env, "OPENBLAS_NUM_THREADS set before main (%s)", env ? env : "unset");
    check_mapped("at start", "");
    setenv("JNT_CACHE", "0", 1); /* each model translated here: the same calls every time */
    /* explicit integration: nothing numerical to load */
    CHECK(run("forced_3dof", 0.05) == JNT_OK, "forced_3dof runs");
    check_mapped("forced_3dof", "");
    /* BDF on a 3 x 3 matrix: the plain loops of linalg/dense.c, no BLAS */
    CHECK(run("frdyn2_bench", 0.01175) == JNT_OK, "frdyn2_bench runs");
    check_mapped("frdyn2_bench", "");
    CHECK(threads() == 1, "frdyn2_bench: one thread (%d threads)", threads());
    /* rk4 on a small multibody model: the consistent start's LU is dense.c's
     * (SPARSE_LOOPS, integ_dae.once), the stages' S = C_q M^-1 C_q^T the
     * method's own L D L^T: nothing loaded */
    CHECK(run_with("double_pendulum", 0.05, "rk4") == JNT_OK, "double_pendulum runs with rk4");
    check_mapped("double_pendulum, rk4", "");
    /* point masses: KLU's sparse LU and nothing else */
    CHECK(run("multimass", 0.01) == JNT_OK, "multimass runs");
    check_mapped("multimass", "libklu");
    /* a multibody model: its assembly's QR with column pivoting is linalg/dense.c's
     * dense_qp3 (no OpenBLAS or LAPACKE), its Newton matrix KLU's */
    CHECK(run("double_pendulum", 0.05) == JNT_OK, "double_pendulum runs");
    check_mapped("double_pendulum", "libklu");
    /* a modal reduction at compile time: LAPACKE (on OpenBLAS) */
    CHECK(run("cantilever_modes", 0) == JNT_OK, "cantilever_modes compiles");
    check_mapped("cantilever_modes", "libopenblas libgfortran libklu liblapacke");
    CHECK(threads() == 1, "cantilever_modes: no BLAS thread (%d threads)", threads());
    int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    CHECK(get && get() == 1, "OpenBLAS's own count is 1 (%d)", get ? get() : -1);

    /* the LU lazy.c does itself, against LAPACKE's own */
    void *h = dlopen("liblapacke.so.3", RTLD_NOW | RTLD_LOCAL);
    getrf_fn rf = h ? (getrf_fn)dlsym(h, "LAPACKE_dgetrf_work") : NULL;
    getrs_fn rs = h ? (getrs_fn)dlsym(h, "LAPACKE_dgetrs_work") : NULL;
    CHECK(rf && rs, "LAPACKE's dgetrf_work and dgetrs_work found");
    if (rf && rs) {
        check_lu(rf, rs, 3, 3, 0, 1);
        check_lu(rf, rs, 7, 8, 0, 2);
        check_lu(rf, rs, 5, 8, 1, 3);
        check_lu(rf, rs, 4, 3, 0, 4); /* lda < n: an argument error, info -5 and -6 */
    }
    return check_failures > 100 ? 100 : check_failures;
}
