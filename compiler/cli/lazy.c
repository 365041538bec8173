/*
 * lazy.c: the numerical libraries of the jnt command (OpenBLAS, LAPACKE,
 * CHOLMOD, KLU, ARPACK), loaded when a model first calls them.
 *
 * Linked against them, every start of the command loaded 22 shared objects
 * and resolved OpenBLAS's 14,000 references to its own symbols: 3.5 ms of
 * the 7.5 ms CPU of a FrDyn2 run (docs/performance.md, "Start-up"), though a
 * small model calls none of them (its BDF integrator's LU of at most
 * DENSE_SMALL_N unknowns is runtime/linalg/dense.c's plain loops). The
 * Makefile links the jnt executables without these libraries and with this
 * file, which defines each function the runtime calls (the list below, with
 * the prototype of the library's own header, so that a wrong one does not
 * compile) as a call through a pointer found on the first call: the
 * library's group is opened once per process (dlopen under pthread_once,
 * RTLD_GLOBAL, OpenBLAS before the libraries that call it, as the link
 * ordered them), then each of its functions looked up. libjnt.a and
 * libjnt.so link the libraries as before (simulators of `jnt build`, the
 * test programs, Python): this file is in neither.
 *
 * LAPACKE_dgetrf_work and LAPACKE_dgetrs_work in column-major order (the
 * dense LU of the BDF integrator above DENSE_SMALL_N unknowns) are, in LAPACKE 3, a call of LAPACK's
 * dgetrf_ or dgetrs_ with an argument error shifted by one (info < 0:
 * info - 1): here that call goes to OpenBLAS's, the routine the link bound,
 * so such a model loads no LAPACKE, reference LAPACK or BLAS wrapper (0.6 ms).
 *
 * OpenBLAS's threads (runtime/core/threads.c, one by default): before the
 * program's main, OPENBLAS_NUM_THREADS is set to 1 when unset, so that
 * OpenBLAS, read when it loads, starts no thread pool at all (the same count
 * jnt_blas_threads applies: unset means 1). openblas_set_num_threads before
 * OpenBLAS is loaded is remembered and applied when it loads (with the pool
 * shutdown threads.c asked for), rather than loading it.
 *
 * A library that cannot be loaded ends the command with a message and exit
 * status 1, as the dynamic loader would have refused to start it.
 */
#include <cblas.h>
#include <dlfcn.h>
#include <lapacke.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include <arpack/arpack.h>
#include <suitesparse/cholmod.h>
#include <suitesparse/klu.h>

_Static_assert(sizeof(lapack_int) == sizeof(int), "LAPACKE with 32-bit integers expected");

/* The sonames the Makefile read from the libraries it would have linked
 * (rule $(B)/obj/compiler/cli/lazy.o); Debian 12's when compiled alone
 * (tests/layout/layout.sh). */
#ifndef LAZY_SONAME_OPENBLAS
#define LAZY_SONAME_OPENBLAS "libopenblas.so.0"
#define LAZY_SONAME_LAPACKE "liblapacke.so.3"
#define LAZY_SONAME_CHOLMOD "libcholmod.so.3"
#define LAZY_SONAME_KLU "libklu.so.1"
#define LAZY_SONAME_ARPACK "libarpack.so.2"
#endif

/* The groups, each one shared object and what it needs. */
enum { L_BLAS, L_LAPACKE, L_CHOLMOD, L_KLU, L_ARPACK, L_N };
static const struct {
    const char *soname;
    int after_blas; /* calls BLAS: OpenBLAS is opened first */
} libs[L_N] = {
    {LAZY_SONAME_OPENBLAS, 0}, {LAZY_SONAME_LAPACKE, 1}, {LAZY_SONAME_CHOLMOD, 1},
    {LAZY_SONAME_KLU, 0},      {LAZY_SONAME_ARPACK, 1},
};

/* Every function of the groups the runtime calls: F (group, return type,
 * name, parameters, arguments), V the same for a void function. */
#define LAZY_FUNCS(F, V)                                                                       \
    V(BLAS, cblas_daxpy,                                                                       \
      (const blasint n, const double alpha, const double *x, const blasint incx, double *y,    \
       const blasint incy),                                                                    \
      (n, alpha, x, incx, y, incy))                                                            \
    F(BLAS, double, cblas_ddot,                                                                \
      (const blasint n, const double *x, const blasint incx, const double *y,                  \
       const blasint incy),                                                                    \
      (n, x, incx, y, incy))                                                                   \
    V(BLAS, cblas_dgemm,                                                                       \
      (const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE ta, const enum CBLAS_TRANSPOSE tb, \
       const blasint m, const blasint n, const blasint k, const double alpha, const double *a, \
       const blasint lda, const double *b, const blasint ldb, const double beta, double *c,    \
       const blasint ldc),                                                                     \
      (o, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))                               \
    V(BLAS, cblas_dgemv,                                                                       \
      (const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE t, const blasint m,                \
       const blasint n, const double alpha, const double *a, const blasint lda,                \
       const double *x, const blasint incx, const double beta, double *y, const blasint incy), \
      (o, t, m, n, alpha, a, lda, x, incx, beta, y, incy))                                     \
    V(BLAS, cblas_dscal, (const blasint n, const double alpha, double *x, const blasint incx), \
      (n, alpha, x, incx))                                                                     \
    V(BLAS, cblas_dsymm,                                                                       \
      (const enum CBLAS_ORDER o, const enum CBLAS_SIDE s, const enum CBLAS_UPLO u,             \
       const blasint m, const blasint n, const double alpha, const double *a,                  \
       const blasint lda, const double *b, const blasint ldb, const double beta, double *c,    \
       const blasint ldc),                                                                     \
      (o, s, u, m, n, alpha, a, lda, b, ldb, beta, c, ldc))                                    \
    V(BLAS, cblas_dsymv,                                                                       \
      (const enum CBLAS_ORDER o, const enum CBLAS_UPLO u, const blasint n, const double alpha, \
       const double *a, const blasint lda, const double *x, const blasint incx,                \
       const double beta, double *y, const blasint incy),                                      \
      (o, u, n, alpha, a, lda, x, incx, beta, y, incy))                                        \
    V(BLAS, dgetrf_,                                                                           \
      (const lapack_int *m, const lapack_int *n, double *a, const lapack_int *lda,             \
       lapack_int *ipiv, lapack_int *info),                                                    \
      (m, n, a, lda, ipiv, info))                                                              \
    V(BLAS, dgetrs_,                                                                           \
      (const char *trans, const lapack_int *n, const lapack_int *nrhs, const double *a,        \
       const lapack_int *lda, const lapack_int *ipiv, double *b, const lapack_int *ldb,        \
       lapack_int *info, size_t trans_len),                                                    \
      (trans, n, nrhs, a, lda, ipiv, b, ldb, info, trans_len))                                 \
    F(LAPACKE, lapack_int, LAPACKE_dgecon,                                                     \
      (int l, char norm, lapack_int n, const double *a, lapack_int lda, double anorm,          \
       double *rcond),                                                                         \
      (l, norm, n, a, lda, anorm, rcond))                                                      \
    F(LAPACKE, lapack_int, LAPACKE_dgeev,                                                      \
      (int l, char jobvl, char jobvr, lapack_int n, double *a, lapack_int lda, double *wr,     \
       double *wi, double *vl, lapack_int ldvl, double *vr, lapack_int ldvr),                  \
      (l, jobvl, jobvr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr))                                \
    F(LAPACKE, lapack_int, LAPACKE_dgeqp3,                                                     \
      (int l, lapack_int m, lapack_int n, double *a, lapack_int lda, lapack_int *jpvt,         \
       double *tau),                                                                           \
      (l, m, n, a, lda, jpvt, tau))                                                            \
    F(LAPACKE, lapack_int, LAPACKE_dgeqrf,                                                     \
      (int l, lapack_int m, lapack_int n, double *a, lapack_int lda, double *tau),             \
      (l, m, n, a, lda, tau))                                                                  \
    F(LAPACKE, lapack_int, LAPACKE_dgetrf,                                                     \
      (int l, lapack_int m, lapack_int n, double *a, lapack_int lda, lapack_int *ipiv),        \
      (l, m, n, a, lda, ipiv))                                                                 \
    F(LAPACKE, lapack_int, LAPACKE_dgetrs,                                                     \
      (int l, char trans, lapack_int n, lapack_int nrhs, const double *a, lapack_int lda,      \
       const lapack_int *ipiv, double *b, lapack_int ldb),                                     \
      (l, trans, n, nrhs, a, lda, ipiv, b, ldb))                                               \
    F(LAPACKE, lapack_int, LAPACKE_dggev,                                                      \
      (int l, char jobvl, char jobvr, lapack_int n, double *a, lapack_int lda, double *b,      \
       lapack_int ldb, double *alphar, double *alphai, double *beta, double *vl,               \
       lapack_int ldvl, double *vr, lapack_int ldvr),                                          \
      (l, jobvl, jobvr, n, a, lda, b, ldb, alphar, alphai, beta, vl, ldvl, vr, ldvr))          \
    F(LAPACKE, double, LAPACKE_dlamch, (char cmach), (cmach))                                  \
    F(LAPACKE, lapack_int, LAPACKE_dlarnv,                                                     \
      (lapack_int idist, lapack_int *iseed, lapack_int n, double *x), (idist, iseed, n, x))    \
    F(LAPACKE, lapack_int, LAPACKE_dorgqr,                                                     \
      (int l, lapack_int m, lapack_int n, lapack_int k, double *a, lapack_int lda,             \
       const double *tau),                                                                     \
      (l, m, n, k, a, lda, tau))                                                               \
    F(LAPACKE, lapack_int, LAPACKE_dormqr,                                                     \
      (int l, char side, char trans, lapack_int m, lapack_int n, lapack_int k,                 \
       const double *a, lapack_int lda, const double *tau, double *c, lapack_int ldc),         \
      (l, side, trans, m, n, k, a, lda, tau, c, ldc))                                          \
    F(LAPACKE, lapack_int, LAPACKE_dpbtrf,                                                     \
      (int l, char uplo, lapack_int n, lapack_int kd, double *ab, lapack_int ldab),            \
      (l, uplo, n, kd, ab, ldab))                                                              \
    F(LAPACKE, lapack_int, LAPACKE_dposv,                                                      \
      (int l, char uplo, lapack_int n, lapack_int nrhs, double *a, lapack_int lda, double *b,  \
       lapack_int ldb),                                                                        \
      (l, uplo, n, nrhs, a, lda, b, ldb))                                                      \
    F(LAPACKE, lapack_int, LAPACKE_dpotrf,                                                     \
      (int l, char uplo, lapack_int n, double *a, lapack_int lda), (l, uplo, n, a, lda))       \
    F(LAPACKE, lapack_int, LAPACKE_dpotrf_work,                                                \
      (int l, char uplo, lapack_int n, double *a, lapack_int lda), (l, uplo, n, a, lda))       \
    F(LAPACKE, lapack_int, LAPACKE_dpotri,                                                     \
      (int l, char uplo, lapack_int n, double *a, lapack_int lda), (l, uplo, n, a, lda))       \
    F(LAPACKE, lapack_int, LAPACKE_dsyevd,                                                     \
      (int l, char jobz, char uplo, lapack_int n, double *a, lapack_int lda, double *w),       \
      (l, jobz, uplo, n, a, lda, w))                                                           \
    F(LAPACKE, lapack_int, LAPACKE_dsygv,                                                      \
      (int l, lapack_int itype, char jobz, char uplo, lapack_int n, double *a,                 \
       lapack_int lda, double *b, lapack_int ldb, double *w),                                  \
      (l, itype, jobz, uplo, n, a, lda, b, ldb, w))                                            \
    F(LAPACKE, lapack_int, LAPACKE_dsygvd,                                                     \
      (int l, lapack_int itype, char jobz, char uplo, lapack_int n, double *a,                 \
       lapack_int lda, double *b, lapack_int ldb, double *w),                                  \
      (l, itype, jobz, uplo, n, a, lda, b, ldb, w))                                            \
    F(LAPACKE, lapack_int, LAPACKE_dsygvx,                                                     \
      (int l, lapack_int itype, char jobz, char range, char uplo, lapack_int n, double *a,     \
       lapack_int lda, double *b, lapack_int ldb, double vl, double vu, lapack_int il,         \
       lapack_int iu, double abstol, lapack_int *m, double *w, double *z, lapack_int ldz,      \
       lapack_int *ifail),                                                                     \
      (l, itype, jobz, range, uplo, n, a, lda, b, ldb, vl, vu, il, iu, abstol, m, w, z, ldz,   \
       ifail))                                                                                 \
    F(CHOLMOD, cholmod_sparse *, cholmod_add,                                                  \
      (cholmod_sparse * a, cholmod_sparse *b, double alpha[2], double beta[2], int values,     \
       int sorted, cholmod_common *c),                                                         \
      (a, b, alpha, beta, values, sorted, c))                                                  \
    F(CHOLMOD, cholmod_factor *, cholmod_analyze, (cholmod_sparse * a, cholmod_common *c),     \
      (a, c))                                                                                  \
    F(CHOLMOD, int, cholmod_factorize, (cholmod_sparse * a, cholmod_factor *f, cholmod_common *c), \
      (a, f, c))                                                                               \
    F(CHOLMOD, int, cholmod_finish, (cholmod_common * c), (c))                                 \
    F(CHOLMOD, int, cholmod_free_dense, (cholmod_dense * *x, cholmod_common *c), (x, c))       \
    F(CHOLMOD, int, cholmod_free_factor, (cholmod_factor * *f, cholmod_common *c), (f, c))     \
    F(CHOLMOD, int, cholmod_free_sparse, (cholmod_sparse * *a, cholmod_common *c), (a, c))     \
    F(CHOLMOD, double, cholmod_rcond, (cholmod_factor * f, cholmod_common *c), (f, c))         \
    F(CHOLMOD, int, cholmod_solve2,                                                            \
      (int sys, cholmod_factor *f, cholmod_dense *b, cholmod_sparse *bset, cholmod_dense **x,  \
       cholmod_sparse **xset, cholmod_dense **y, cholmod_dense **e, cholmod_common *c),        \
      (sys, f, b, bset, x, xset, y, e, c))                                                     \
    F(CHOLMOD, int, cholmod_start, (cholmod_common * c), (c))                                  \
    F(KLU, klu_symbolic *, klu_analyze, (int n, int ap[], int ai[], klu_common *c),            \
      (n, ap, ai, c))                                                                          \
    F(KLU, int, klu_defaults, (klu_common * c), (c))                                           \
    F(KLU, klu_numeric *, klu_factor,                                                          \
      (int ap[], int ai[], double ax[], klu_symbolic *s, klu_common *c), (ap, ai, ax, s, c))   \
    F(KLU, int, klu_free_numeric, (klu_numeric * *nu, klu_common *c), (nu, c))                 \
    F(KLU, int, klu_free_symbolic, (klu_symbolic * *s, klu_common *c), (s, c))                 \
    F(KLU, int, klu_refactor,                                                                  \
      (int ap[], int ai[], double ax[], klu_symbolic *s, klu_numeric *nu, klu_common *c),      \
      (ap, ai, ax, s, nu, c))                                                                  \
    F(KLU, int, klu_rgrowth,                                                                   \
      (int ap[], int ai[], double ax[], klu_symbolic *s, klu_numeric *nu, klu_common *c),      \
      (ap, ai, ax, s, nu, c))                                                                  \
    F(KLU, int, klu_solve,                                                                     \
      (klu_symbolic * s, klu_numeric *nu, int ldim, int nrhs, double b[], klu_common *c),      \
      (s, nu, ldim, nrhs, b, c))                                                               \
    V(ARPACK, dsaupd_c,                                                                        \
      (a_int * ido, char const *bmat, a_int n, char const *which, a_int nev, double tol,       \
       double *resid, a_int ncv, double *v, a_int ldv, a_int *iparam, a_int *ipntr,            \
       double *workd, double *workl, a_int lworkl, a_int *info),                               \
      (ido, bmat, n, which, nev, tol, resid, ncv, v, ldv, iparam, ipntr, workd, workl, lworkl, \
       info))                                                                                  \
    V(ARPACK, dseupd_c,                                                                        \
      (a_int rvec, char const *howmny, a_int const *select, double *d, double *z, a_int ldz,   \
       double sigma, char const *bmat, a_int n, char const *which, a_int nev, double tol,      \
       double *resid, a_int ncv, double *v, a_int ldv, a_int *iparam, a_int *ipntr,            \
       double *workd, double *workl, a_int lworkl, a_int *info),                               \
      (rvec, howmny, select, d, z, ldz, sigma, bmat, n, which, nev, tol, resid, ncv, v, ldv,   \
       iparam, ipntr, workd, workl, lworkl, info))

/* The functions' indices: the list's, then those written out below. */
#define LAZY_ID_F(g, r, f, p, a) I_##f,
#define LAZY_ID_V(g, f, p, a) I_##f,
enum {
    LAZY_FUNCS(LAZY_ID_F, LAZY_ID_V) I_LAPACKE_dgetrf_work,
    I_LAPACKE_dgetrs_work,
    I_openblas_set_num_threads,
    I_blas_thread_shutdown_,
    I_N
};

#define LAZY_TAB_F(g, r, f, p, a) {L_##g, #f},
#define LAZY_TAB_V(g, f, p, a) {L_##g, #f},
static const struct {
    int lib;
    const char *name;
} fns[I_N] = {
    LAZY_FUNCS(LAZY_TAB_F, LAZY_TAB_V){L_LAPACKE, "LAPACKE_dgetrf_work"},
    {L_LAPACKE, "LAPACKE_dgetrs_work"},
    {L_BLAS, "openblas_set_num_threads"},
    {L_BLAS, "blas_thread_shutdown_"}, /* OpenBLAS's own: may be missing */
};

static void *_Atomic fn[I_N];       /* each function, once its group is open */
static void *handle[L_N];           /* each group's shared object, once open */
static atomic_int blas_open;        /* OpenBLAS is open: its threads are set */
static atomic_int threads_asked;    /* a count for openblas_set_num_threads, or 0 */
static atomic_int shutdown_asked;   /* blas_thread_shutdown_ was called before */
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;

/* Open group `lib` (under its pthread_once): the shared object and each of
 * its functions, or a message and exit status 1. */
static void open_lib(int lib)
{
    handle[lib] = dlopen(libs[lib].soname, RTLD_LAZY | RTLD_GLOBAL);
    if (!handle[lib]) {
        fprintf(stderr, "jnt: error: cannot load %s: %s\n", libs[lib].soname, dlerror());
        exit(1);
    }
    for (int i = 0; i < I_N; i++) {
        if (fns[i].lib != lib)
            continue;
        void *p = dlsym(handle[lib], fns[i].name);
        if (!p && i != I_blas_thread_shutdown_) {
            fprintf(stderr, "jnt: error: %s has no function '%s'\n", libs[lib].soname,
                    fns[i].name);
            exit(1);
        }
        atomic_store(&fn[i], p);
    }
}

/* OpenBLAS is open: the thread count asked before (and the shutdown of its
 * pool, as threads.c does), then calls go to it directly. */
static void blas_opened(void)
{
    pthread_mutex_lock(&threads_lock);
    int n = atomic_load(&threads_asked);
    if (n > 0) {
        ((void (*)(int))atomic_load(&fn[I_openblas_set_num_threads]))(n);
        void *down = atomic_load(&fn[I_blas_thread_shutdown_]);
        if (n == 1 && atomic_load(&shutdown_asked) && down)
            ((int (*)(void))down)();
    }
    atomic_store(&blas_open, 1);
    pthread_mutex_unlock(&threads_lock);
}

static pthread_once_t once[L_N] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                   PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static void open_blas(void)
{
    open_lib(L_BLAS);
    blas_opened();
}
static void open_lapacke(void)
{
    open_lib(L_LAPACKE);
}
static void open_cholmod(void)
{
    open_lib(L_CHOLMOD);
}
static void open_klu(void)
{
    open_lib(L_KLU);
}
static void open_arpack(void)
{
    open_lib(L_ARPACK);
}
static void (*const openers[L_N])(void) = {open_blas, open_lapacke, open_cholmod, open_klu,
                                           open_arpack};

/* Function i, its group opened first if need be. */
static void *get(int i)
{
    void *p = atomic_load_explicit(&fn[i], memory_order_acquire);
    if (p)
        return p;
    int lib = fns[i].lib;
    if (libs[lib].after_blas)
        pthread_once(&once[L_BLAS], open_blas);
    pthread_once(&once[lib], openers[lib]);
    return atomic_load(&fn[i]);
}

/* Each function of the list: a call through its pointer. */
#define LAZY_DEF_F(g, r, f, p, a)                                                              \
    r f p                                                                                      \
    {                                                                                          \
        return ((r(*) p)get(I_##f))a;                                                          \
    }
#define LAZY_DEF_V(g, f, p, a)                                                                 \
    void f p                                                                                   \
    {                                                                                          \
        ((void(*) p)get(I_##f))a;                                                              \
    }
LAZY_FUNCS(LAZY_DEF_F, LAZY_DEF_V)

/* LAPACKE 3's LAPACKE_dgetrf_work in column-major order: LAPACK's dgetrf
 * (OpenBLAS's), an argument error one further; other orders go to LAPACKE. */
lapack_int LAPACKE_dgetrf_work(int l, lapack_int m, lapack_int n, double *a, lapack_int lda,
                               lapack_int *ipiv)
{
    if (l != LAPACK_COL_MAJOR)
        return ((lapack_int(*)(int, lapack_int, lapack_int, double *, lapack_int,
                               lapack_int *))get(I_LAPACKE_dgetrf_work))(l, m, n, a, lda, ipiv);
    lapack_int info = 0;
    dgetrf_(&m, &n, a, &lda, ipiv, &info);
    return info < 0 ? info - 1 : info;
}

/* LAPACKE_dgetrs_work likewise: LAPACK's dgetrs in column-major order. */
lapack_int LAPACKE_dgetrs_work(int l, char trans, lapack_int n, lapack_int nrhs, const double *a,
                               lapack_int lda, const lapack_int *ipiv, double *b, lapack_int ldb)
{
    if (l != LAPACK_COL_MAJOR)
        return ((lapack_int(*)(int, char, lapack_int, lapack_int, const double *, lapack_int,
                               const lapack_int *, double *, lapack_int))get(
            I_LAPACKE_dgetrs_work))(l, trans, n, nrhs, a, lda, ipiv, b, ldb);
    lapack_int info = 0;
    dgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
    return info < 0 ? info - 1 : info;
}

/* The count is remembered until OpenBLAS is open, then set in it. */
void openblas_set_num_threads(int n)
{
    pthread_mutex_lock(&threads_lock);
    int open = atomic_load(&blas_open);
    if (!open)
        atomic_store(&threads_asked, n);
    pthread_mutex_unlock(&threads_lock);
    if (open)
        ((void (*)(int))atomic_load(&fn[I_openblas_set_num_threads]))(n);
}

/* OpenBLAS's pool stopped, or (not open yet) stopped when it opens. */
int blas_thread_shutdown_(void)
{
    pthread_mutex_lock(&threads_lock);
    int open = atomic_load(&blas_open);
    if (!open)
        atomic_store(&shutdown_asked, 1);
    pthread_mutex_unlock(&threads_lock);
    void *down = open ? atomic_load(&fn[I_blas_thread_shutdown_]) : NULL;
    return down ? ((int (*)(void))down)() : 0;
}

/* Before main, with one thread: OpenBLAS starts no pool when it loads. */
__attribute__((constructor)) static void one_blas_thread(void)
{
    setenv("OPENBLAS_NUM_THREADS", "1", 0);
}
