/*
 * test_red_memory.c: what the reductions cost in memory (runtime/setup/
 * red_static.c, red_solve.c, red_util.c, red_jtv.c) and that the blocked
 * computations give the reduced matrices of a dense reference.
 *
 * Memory is measured two ways. The process's peak resident size
 * (getrusage) across a Craig-Bampton reduction of the 5,200-DOF plate of
 * bench/bench_reduce.c, first in the process. And exactly: this program
 * replaces malloc and its family (glibc allows it: the replacement also
 * serves CHOLMOD, ARPACK, LAPACKE) with a thin layer over glibc's
 * __libc_malloc that counts the bytes live and their peak, so a bound on
 * the bytes a call allocates at once can be asserted whatever the C
 * library keeps mapped. Under AddressSanitizer (which replaces malloc
 * itself) the memory bounds are skipped; the numerical checks stay.
 */
#include <errno.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "check.h"
#include "jnt/setup.h"
#include "setup/fe_priv.h"
#include "setup/red_impl.h"

#define MB (1024.0 * 1024.0)

#if defined(__SANITIZE_ADDRESS__)
/* AddressSanitizer owns malloc: nothing is counted. */
#define COUNTING 0
static size_t live_bytes(void)
{
    return 0;
}
static void peak_reset(void)
{
}
static size_t peak_bytes(void)
{
    return 0;
}
#else
#define COUNTING 1
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t k, size_t n);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
void *__libc_memalign(size_t align, size_t n);
void *memalign(size_t align, size_t n);
void *valloc(size_t n);
void *pvalloc(size_t n);
size_t malloc_usable_size(void *p);

/* Every block carries 16 bytes in front of what the caller gets (malloc's
 * alignment is kept): where glibc's block starts and the size asked for. */
typedef struct hdr {
    void *base;
    size_t size;
} hdr;

static size_t live, peak; /* bytes asked for and not freed; their maximum */

/* Count n more bytes (atomics: CHOLMOD and OpenBLAS may allocate in threads). */
static void count_add(size_t n)
{
    size_t now = __atomic_add_fetch(&live, n, __ATOMIC_RELAXED);
    size_t p = __atomic_load_n(&peak, __ATOMIC_RELAXED);
    while (now > p && !__atomic_compare_exchange_n(&peak, &p, now, 1, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
}

/* Record the block at base, handed out at base + off (off >= 16). */
static void *track(void *base, size_t off, size_t n)
{
    if (!base)
        return NULL;
    char *p = (char *)base + off;
    hdr *h = (hdr *)(void *)(p - sizeof(hdr));
    h->base = base;
    h->size = n;
    count_add(n);
    return p;
}

/* The header of a block handed out by this layer. */
static hdr *header(void *p)
{
    return (hdr *)(void *)((char *)p - sizeof(hdr));
}

/* malloc and its family: glibc's blocks with the header in front, counted. */
void *malloc(size_t n)
{
    return n > SIZE_MAX - sizeof(hdr) ? NULL : track(__libc_malloc(n + sizeof(hdr)), sizeof(hdr), n);
}

/* See malloc; zeroed by glibc. */
void *calloc(size_t k, size_t n)
{
    if (n && k > (SIZE_MAX - sizeof(hdr)) / n)
        return NULL;
    return track(__libc_calloc(1, k * n + sizeof(hdr)), sizeof(hdr), k * n);
}

/* Uncount and give the block back to glibc. */
void free(void *p)
{
    if (!p)
        return;
    hdr *h = header(p);
    __atomic_sub_fetch(&live, h->size, __ATOMIC_RELAXED);
    __libc_free(h->base);
}

/* An aligned block: glibc's block starts `align` bytes before the caller's. */
void *memalign(size_t align, size_t n)
{
    if (align < sizeof(hdr))
        align = sizeof(hdr);
    if ((align & (align - 1)) || n > SIZE_MAX - align)
        return NULL;
    return track(__libc_memalign(align, n + align), align, n);
}

/* glibc's realloc of the whole block; aligned blocks are moved by hand. */
void *realloc(void *p, size_t n)
{
    if (!p)
        return malloc(n);
    if (n == 0) {
        free(p);
        return NULL;
    }
    hdr *h = header(p);
    size_t old = h->size;
    if ((char *)h->base != (char *)p - sizeof(hdr)) { /* an aligned block: move it */
        void *q = malloc(n);
        if (q) {
            memcpy(q, p, old < n ? old : n);
            free(p);
        }
        return q;
    }
    if (n > SIZE_MAX - sizeof(hdr))
        return NULL;
    if (n > old)
        count_add(n); /* a growing block may move: both exist for a moment */
    void *base = __libc_realloc(h->base, n + sizeof(hdr));
    if (!base) {
        if (n > old)
            __atomic_sub_fetch(&live, n, __ATOMIC_RELAXED);
        return NULL;
    }
    if (n > old)
        __atomic_sub_fetch(&live, old, __ATOMIC_RELAXED);
    else /* shrinking happens in place */
        __atomic_sub_fetch(&live, old - n, __ATOMIC_RELAXED);
    h = (hdr *)base;
    h->base = base;
    h->size = n;
    return (char *)base + sizeof(hdr);
}

/* The other aligned allocators, all through memalign. */
int posix_memalign(void **out, size_t align, size_t n)
{
    void *p = memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

void *valloc(size_t n)
{
    return memalign(4096, n);
}

void *pvalloc(size_t n)
{
    return memalign(4096, (n + 4095) & ~(size_t)4095);
}

/* The size asked for (all a caller may use). */
size_t malloc_usable_size(void *p)
{
    return p ? header(p)->size : 0;
}

/* Bytes allocated and not freed now. */
static size_t live_bytes(void)
{
    return __atomic_load_n(&live, __ATOMIC_RELAXED);
}

/* Start a new peak at what is live now. */
static void peak_reset(void)
{
    __atomic_store_n(&peak, live_bytes(), __ATOMIC_RELAXED);
}

/* The most bytes live at once since peak_reset. */
static size_t peak_bytes(void)
{
    return __atomic_load_n(&peak, __ATOMIC_RELAXED);
}
#endif

/* Peak resident memory of the process so far (MB). */
static double maxrss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

/* The bytes a call allocated at its peak above what was live before it. */
static double grown_mb(size_t before)
{
    return ((double)peak_bytes() - (double)before) / MB;
}

/* An aluminium plate of 1 m x 0.25 m x 10 mm in nx x ny QM6 elements,
 * clamped on its left edge. 1, or 0 with the message in err. */
static int clamped_plate(fe_model *fe, int nx, int ny, char *err, size_t errn)
{
    return fe_plate2d(fe, 1.0, 0.25, 0.01, 70e9, 0.33, 2700, nx, ny, FE_QM6, err, errn) == 0 &&
           fe_fix(fe, fe_find_set(fe, "left"), err, errn) == 0;
}

/* The top edge's DOFs of a plate model (those left after clamping). */
static int top_dofs(const fe_model *fe, int *keep)
{
    const fe_set *top = &fe->set[fe_find_set(fe, "top")];
    int nk = 0;
    for (int i = 0; i < top->n; i++)
        for (int c = 0; c < 2; c++)
            if (fe->node[top->node[i]].dof[c] >= 0)
                keep[nk++] = fe->node[top->node[i]].dof[c];
    return nk;
}

/* max |a - b| over max |b| of two r x r matrices. */
static double rel_diff(int r, const double *a, const double *b)
{
    double d = 0, s = 0;
    for (size_t i = 0; i < (size_t)r * r; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fabs(b[i]));
    }
    return s > 0 ? d / s : d;
}

/* What CHOLMOD allocates for the symmetric positive definite a: at its
 * peak while factorising (*fact), and in a first solve of RED_SOLVE_BLOCK
 * columns (its solution and work arrays, kept with the factor: *solve).
 * MB; the units of the bounds below. */
static void chol_costs(const fe_sparse *a, double *fact, double *solve)
{
    char err[256];
    red_fact *f = NULL;
    size_t live0 = live_bytes();
    peak_reset();
    int rc = red_fact_new(a, NULL, 0, &f, err, sizeof err);
    *fact = grown_mb(live0);
    double *x = calloc((size_t)a->n * RED_SOLVE_BLOCK, sizeof *x);
    for (int j = 0; j < RED_SOLVE_BLOCK; j++)
        x[(size_t)a->n * j + (size_t)j] = 1.0;
    size_t live1 = live_bytes();
    peak_reset();
    if (rc == 0)
        red_fact_solve(f, x, RED_SOLVE_BLOCK, err, sizeof err);
    *solve = grown_mb(live1);
    CHECK(rc == 0, "CHOLMOD on a %d x %d matrix: factor %.1f MB, solve work %.1f MB (%s)", a->n,
          a->n, *fact, *solve, rc == 0 ? "ok" : err);
    free(x);
    red_fact_free(f);
}

/*
 * Craig-Bampton of the 5,200-DOF plate (fe_export_plate2d, as
 * bench/bench_reduce.c), clamped on its left edge, keeping its top edge
 * and 20 fixed-interface modes: r = 220 vectors, the basis n x r = 9 MB.
 *
 * The memory model (docs/reduction.md), checked on the bytes allocated:
 * besides the basis a reduction holds the interior K_ii and M_ii, one
 * Cholesky factor at a time (of K_ii for the constraint modes, then of
 * K_ii - sigma M_ii with the same pattern for the eigensolver), CHOLMOD's
 * solve work and ARPACK's n x (ncv + 4) doubles, ncv = 41; the vectors are
 * computed in the basis's own columns. The factor and solve work are
 * measured on K_ii itself (chol_costs); 1 MB is left for the rest (index
 * maps, LAPACK work). Before the solves were blocked the reduction held
 * three more n x r arrays (right-hand sides, CHOLMOD's solution of all of
 * them at once, A Phi in the projection) and allocated 41 MB at once
 * here; a dense n x n matrix alone is 216 MB.
 */
static void test_cb_plate(void)
{
    char err[512], pre[600], m[640], k[640], nodes[640];
    snprintf(pre, sizeof pre, "%s", test_out("redmem"));
    int ndof = 0;
    fe_model fe;
    int ok = fe_export_plate2d(pre, 5000, &ndof, err, sizeof err) == 0;
    snprintf(m, sizeof m, "%s_M.mtx", pre);
    snprintf(k, sizeof k, "%s_K.mtx", pre);
    snprintf(nodes, sizeof nodes, "%s_nodes.csv", pre);
    ok = ok && fe_import(&fe, m, k, NULL, nodes, err, sizeof err) == 0 &&
         fe_fix(&fe, fe_find_set(&fe, "left"), err, sizeof err) == 0;
    CHECK(ok, "a plate of about 5,000 DOFs imported and clamped (%s)", ok ? "ok" : err);
    if (!ok)
        return;
    int n = fe.ndof, *keep = malloc((size_t)n * sizeof *keep), nk = top_dofs(&fe, keep);
    double before = maxrss_mb();
    size_t live0 = live_bytes();
    peak_reset();
    red_basis b = {0};
    ok = red_craig_bampton(&fe, keep, nk, 20, &b, err, sizeof err) == 0;
    double cb_mb = grown_mb(live0);
    double basis = (double)n * b.r * sizeof(double) / MB;
    size_t live1 = live_bytes();
    peak_reset();
    double *Kr = ok ? malloc((size_t)b.r * b.r * sizeof *Kr) : NULL;
    double *Mr = ok ? malloc((size_t)b.r * b.r * sizeof *Mr) : NULL;
    size_t live2 = live_bytes();
    ok = ok && red_project(&fe, &b, Mr, Kr, NULL, err, sizeof err) == 0;
    double proj_mb = grown_mb(live2);
    double grown = maxrss_mb() - before;
    CHECK(ok && b.r == nk + 20, "Craig-Bampton of %d DOFs: %d vectors (%s)", n, b.r,
          ok ? "ok" : err);
    if (!ok) {
        free(keep), free(Kr), free(Mr);
        red_basis_free(&b);
        fe_free(&fe);
        return;
    }
    (void)live1;
    /* The projection: A Phi a block of RED_SOLVE_BLOCK columns at a time
     * (n x 32, 1.3 MB); A Phi whole was n x r (9 MB). */
    double block = (double)n * RED_SOLVE_BLOCK * sizeof(double) / MB;
    /* the model's terms, measured or counted on the interior matrices */
    int ni = n - nk, *map = malloc((size_t)n * sizeof *map);
    for (int i = 0; i < n; i++)
        map[i] = 0;
    for (int j = 0; j < nk; j++)
        map[keep[j]] = -1;
    for (int i = 0, c = 0; i < n; i++)
        if (map[i] == 0)
            map[i] = c++;
    fe_sparse kii = {0}, mii = {0};
    fe_sparse_sub(&fe.K, map, ni, &kii);
    fe_sparse_sub(&fe.M, map, ni, &mii);
    double fact, solve, sub = ((double)(kii.nnz + mii.nnz) * 12 + 8.0 * (ni + 1)) / MB;
    chol_costs(&kii, &fact, &solve);
    double arpack = ((double)ni * (41 + 4) + 41.0 * 49) * 8 / MB;
    double model = basis + sub + fact + solve + arpack + 1.0;
    fe_sparse_free(&kii);
    fe_sparse_free(&mii);
    free(map);
#if COUNTING
    CHECK(cb_mb <= model, "Craig-Bampton allocates at most %.1f MB at once: the basis %.1f + "
          "K_ii, M_ii %.1f + factor %.1f + solve work %.1f + ARPACK %.1f + 1; got %.1f MB",
          model, basis, sub, fact, solve, arpack, cb_mb);
    CHECK(cb_mb >= basis, "the allocation count sees the basis (%.1f MB of %.1f MB)", basis,
          cb_mb);
    CHECK(proj_mb <= block + 0.5, "the projection allocates at most n x %d doubles (%.2f MB) "
          "+ 0.5 MB: %.2f MB", RED_SOLVE_BLOCK, block, proj_mb);
    printf("INFO: bytes allocated at once: Craig-Bampton %.1f MB (basis %.1f MB), projection "
           "%.2f MB\n", cb_mb, basis, proj_mb);
#else
    printf("INFO: allocation counts not available under AddressSanitizer (%.0f %.0f %.0f "
           "%.0f)\n", cb_mb, proj_mb, block, model);
#endif
#if defined(__SANITIZE_ADDRESS__)
    printf("INFO: memory growth %.0f MB not checked under AddressSanitizer (shadow, "
           "quarantine)\n", grown);
#else
    CHECK(grown <= basis + 10.0, "the reduction and projection grow the process by %.1f MB: "
          "at most the basis (%.1f MB) + 10 MB", grown, basis);
#endif
    /* constraint mode j: 1 on its DOF, 0 on the other kept DOFs */
    int bad = 0;
    for (int j = 0; j < nk; j++)
        for (int i = 0; i < nk; i++)
            bad += b.phi[(size_t)n * j + keep[i]] != (i == j ? 1.0 : 0.0);
    CHECK(bad == 0, "constraint modes are unit vectors on the kept DOFs (%d wrong)", bad);
    /* K Phi: zero on the interior for constraint modes; Kr = Phi^T K Phi, Mr alike */
    double *kp = malloc((size_t)n * sizeof *kp), *mp = malloc((size_t)n * sizeof *mp);
    char *kept = calloc((size_t)n, 1);
    for (int i = 0; i < nk; i++)
        kept[keep[i]] = 1;
    double worst_eq = 0, worst_kr = 0, kscale = 0, worst_mr = 0, mscale = 0;
    for (int j = 0; j < b.r; j += 7) {
        fe_sparse_mul(&fe.K, b.phi + (size_t)n * j, kp);
        fe_sparse_mul(&fe.M, b.phi + (size_t)n * j, mp);
        double big = 0, in = 0;
        for (int i = 0; i < n; i++) {
            big = fmax(big, fabs(kp[i]));
            if (!kept[i] && j < nk)
                in = fmax(in, fabs(kp[i]));
        }
        worst_eq = fmax(worst_eq, big > 0 ? in / big : 0);
        for (int i = 0; i < b.r; i += 5) {
            double s = 0, sm = 0;
            for (int q = 0; q < n; q++) {
                s += b.phi[(size_t)n * i + q] * kp[q];
                sm += b.phi[(size_t)n * i + q] * mp[q];
            }
            kscale = fmax(kscale, fabs(s));
            mscale = fmax(mscale, fabs(sm));
            /* both triangles: the upper one is computed, the lower mirrored */
            worst_kr = fmax(worst_kr, fabs(s - Kr[i + (size_t)b.r * j]));
            worst_kr = fmax(worst_kr, fabs(s - Kr[j + (size_t)b.r * i]));
            worst_mr = fmax(worst_mr, fabs(sm - Mr[i + (size_t)b.r * j]));
            worst_mr = fmax(worst_mr, fabs(sm - Mr[j + (size_t)b.r * i]));
        }
    }
    CHECK(worst_eq < 1e-9, "constraint modes: K psi vanishes on the interior (%.1e of max)",
          worst_eq);
    CHECK(worst_kr <= 1e-10 * kscale, "Kr = Phi^T K Phi against column products (%.1e of %.1e)",
          worst_kr, kscale);
    CHECK(worst_mr <= 1e-10 * mscale, "Mr = Phi^T M Phi against column products (%.1e of %.1e)",
          worst_mr, mscale);
    /* Orthogonalisation (eqs. 10-11) changes the basis in place: M~, K~ and
     * their r x r eigenproblem, RED_ROW_BLOCK rows at a time; a new n x r
     * basis beside the old one was 9 MB. */
    size_t live3 = live_bytes();
    peak_reset();
    int r0 = b.r;
    ok = red_orthogonalize(&fe, &b, 1e-10, err, sizeof err) == 0;
    double orth_mb = grown_mb(live3);
    CHECK(ok && b.r == r0, "the Craig-Bampton basis orthogonalised: %d of %d vectors (%s)", b.r,
          r0, ok ? "ok" : err);
#if COUNTING
    double small = (6.0 * r0 * r0 + (double)RED_ROW_BLOCK * r0) * sizeof(double) / MB;
    CHECK(orth_mb <= block + small + 0.5, "orthogonalisation allocates at most n x %d + 6 r^2 + "
          "%d r doubles (%.1f MB) + 0.5 MB: %.2f MB", RED_SOLVE_BLOCK, RED_ROW_BLOCK,
          block + small, orth_mb);
#else
    (void)orth_mb;
#endif
    /* The orthogonalised basis is M-orthonormal and K-diagonal with the
     * eigenvalues of (Kr, Mr): those of the reduced model. */
    if (ok) {
        double *y = malloc((size_t)r0 * r0 * sizeof *y), *bm = malloc((size_t)r0 * r0 * sizeof *bm);
        double *lam = malloc((size_t)r0 * sizeof *lam);
        memcpy(y, Kr, (size_t)r0 * r0 * sizeof *y);
        memcpy(bm, Mr, (size_t)r0 * r0 * sizeof *bm);
        int info = (int)LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'N', 'U', r0, y, r0, bm, r0, lam);
        double worst = 0;
        for (int j = 0; info == 0 && j < b.r; j += 11) {
            fe_sparse_mul(&fe.K, b.phi + (size_t)n * j, kp);
            fe_sparse_mul(&fe.M, b.phi + (size_t)n * j, mp);
            double kk = 0, mm = 0;
            for (int q = 0; q < n; q++) {
                kk += b.phi[(size_t)n * j + q] * kp[q];
                mm += b.phi[(size_t)n * j + q] * mp[q];
            }
            worst = fmax(worst, fmax(fabs(mm - 1), fabs(kk - lam[j]) / lam[j]));
        }
        CHECK(info == 0 && worst < 1e-9, "orthogonalised in place: phi^T M phi = 1, phi^T K phi "
              "= the eigenvalues of (Kr, Mr) (%.1e)", worst);
        free(y), free(bm), free(lam);
    }
    free(kp), free(mp), free(kept), free(keep), free(Kr), free(Mr);
    red_basis_free(&b);
    fe_free(&fe);
}

/*
 * A dense reference on a small plate: 40 x 10 QM6 elements clamped on the
 * left (880 DOFs), its top edge kept (80 DOFs: three blocks of constraint
 * modes) and 12 fixed-interface modes (800 interior DOFs: the sparse
 * eigensolver). The reference builds the same basis with dense LAPACK
 * (dposv for K_ii Psi_i = -K_ib, dsygvd for (K_ii, M_ii)) and projects it
 * with the dense K and M; Kr and Mr are compared entry by entry (the
 * fixed-interface modes of the reference take the library's signs), and the
 * reduced model's frequencies, which do not depend on the basis vectors'
 * scaling or sign.
 */
static void test_cb_dense(void)
{
    char err[512];
    fe_model fe;
    int ok = clamped_plate(&fe, 40, 10, err, sizeof err);
    CHECK(ok, "a 40 x 10 plate clamped (%s)", ok ? "ok" : err);
    if (!ok)
        return;
    int n = fe.ndof, modes = 12, *keep = malloc((size_t)n * sizeof *keep);
    int nk = top_dofs(&fe, keep), r = nk + modes, ni = n - nk;
    red_basis b = {0};
    double *Kr = malloc((size_t)r * r * sizeof *Kr), *Mr = malloc((size_t)r * r * sizeof *Mr);
    ok = red_craig_bampton(&fe, keep, nk, modes, &b, err, sizeof err) == 0 &&
         red_project(&fe, &b, Mr, Kr, NULL, err, sizeof err) == 0;
    CHECK(ok && nk > 2 * RED_SOLVE_BLOCK && ni >= RED_SPARSE_DEFAULT,
          "Craig-Bampton of %d DOFs, %d kept, %d interior (%s)", n, nk, ni, ok ? "ok" : err);
    /* dense reference */
    double *K = fe_sparse_dense(&fe.K), *M = fe_sparse_dense(&fe.M);
    int *map = malloc((size_t)n * sizeof *map), *imap = malloc((size_t)ni * sizeof *imap);
    for (int i = 0; i < n; i++)
        map[i] = 0;
    for (int j = 0; j < nk; j++)
        map[keep[j]] = -1;
    for (int i = 0, c = 0; i < n; i++)
        if (map[i] == 0)
            imap[c] = i, map[i] = c++;
    double *kii = malloc((size_t)ni * ni * sizeof *kii), *mii = malloc((size_t)ni * ni * sizeof *mii);
    double *psi = malloc((size_t)ni * nk * sizeof *psi), *lam = malloc((size_t)ni * sizeof *lam);
    for (int j = 0; j < ni; j++)
        for (int i = 0; i < ni; i++) {
            kii[i + (size_t)ni * j] = K[imap[i] + (size_t)n * imap[j]];
            mii[i + (size_t)ni * j] = M[imap[i] + (size_t)n * imap[j]];
        }
    for (int j = 0; j < nk; j++)
        for (int i = 0; i < ni; i++)
            psi[i + (size_t)ni * j] = -K[imap[i] + (size_t)n * keep[j]];
    double *kf = malloc((size_t)ni * ni * sizeof *kf);
    memcpy(kf, kii, (size_t)ni * ni * sizeof *kf);
    int info = (int)LAPACKE_dposv(LAPACK_COL_MAJOR, 'U', ni, nk, kf, ni, psi, ni);
    info += (int)LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', ni, kii, ni, mii, ni, lam);
    CHECK(info == 0, "dense reference: dposv and dsygvd (info %d)", info);
    double *phi = calloc((size_t)n * r, sizeof *phi);
    for (int j = 0; j < nk; j++) {
        for (int i = 0; i < ni; i++)
            phi[imap[i] + (size_t)n * j] = psi[i + (size_t)ni * j];
        phi[keep[j] + (size_t)n * j] = 1.0;
    }
    for (int k = 0; k < modes; k++) {
        double dot = 0;
        for (int i = 0; i < ni; i++)
            dot += kii[i + (size_t)ni * k] * (ok ? b.phi[imap[i] + (size_t)n * (nk + k)] : 1);
        double s = dot < 0 ? -1.0 : 1.0;
        for (int i = 0; i < ni; i++)
            phi[imap[i] + (size_t)n * (nk + k)] = s * kii[i + (size_t)ni * k];
    }
    /* Kr, Mr of the reference: Phi^T A Phi with the dense A */
    double *ap = malloc((size_t)n * r * sizeof *ap), *kref = malloc((size_t)r * r * sizeof *kref);
    double *mref = malloc((size_t)r * r * sizeof *mref);
    for (int pass = 0; pass < 2; pass++) {
        double *a = pass ? M : K, *out = pass ? mref : kref;
        for (int j = 0; j < r; j++)
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int q = 0; q < n; q++)
                    s += a[i + (size_t)n * q] * phi[q + (size_t)n * j];
                ap[i + (size_t)n * j] = s;
            }
        for (int j = 0; j < r; j++)
            for (int i = 0; i < r; i++) {
                double s = 0;
                for (int q = 0; q < n; q++)
                    s += phi[q + (size_t)n * i] * ap[q + (size_t)n * j];
                out[i + (size_t)r * j] = s;
            }
    }
    if (ok && info == 0) {
        double ek = rel_diff(r, Kr, kref), em = rel_diff(r, Mr, mref);
        CHECK(ek < 1e-9, "Kr against the dense reference: max rel. diff %.1e", ek);
        CHECK(em < 1e-9, "Mr against the dense reference: max rel. diff %.1e", em);
        /* the fixed-interface block of Kr is diag(omega^2) */
        double ed = 0;
        for (int k = 0; k < modes; k++)
            ed = fmax(ed, fabs(Kr[(nk + k) * (size_t)(r + 1)] - lam[k]) / lam[k]);
        CHECK(ed < 1e-10, "Kr's fixed-interface block: omega^2 of (K_ii, M_ii) (dense), max "
              "rel. diff %.1e", ed);
        /* the reduced model's eigenvalues: library vs reference */
        double *wa = malloc((size_t)r * sizeof *wa), *wb = malloc((size_t)r * sizeof *wb);
        int i1 = (int)LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'N', 'U', r, Kr, r, Mr, r, wa);
        int i2 = (int)LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'N', 'U', r, kref, r, mref, r, wb);
        double ew = 0;
        for (int k = 0; k < 10; k++)
            ew = fmax(ew, fabs(wa[k] - wb[k]) / wb[k]);
        CHECK(i1 == 0 && i2 == 0 && ew < 1e-10, "the reduced model's 10 lowest eigenvalues "
              "against the dense reference: max rel. diff %.1e", ew);
        free(wa), free(wb);
    }
    free(K), free(M), free(map), free(imap), free(kii), free(mii), free(psi), free(lam), free(kf);
    free(phi), free(ap), free(kref), free(mref), free(Kr), free(Mr), free(keep);
    red_basis_free(&b);
    fe_free(&fe);
}

/* K-orthonormality of the JTVs: max |V^T K V - I|. */
static double k_orthonormality(const fe_model *fe, const red_basis *v)
{
    int n = v->n, t = v->r;
    double *kv = malloc((size_t)n * sizeof *kv), worst = 0;
    for (int j = 0; j < t; j++) {
        fe_sparse_mul(&fe->K, v->phi + (size_t)n * j, kv);
        for (int i = 0; i < t; i++) {
            double s = 0;
            for (int q = 0; q < n; q++)
                s += v->phi[(size_t)n * i + q] * kv[q];
            worst = fmax(worst, fabs(s - (i == j)));
        }
    }
    free(kv);
    return worst;
}

/*
 * Joint trial vectors on a 20,400-DOF plate (200 x 50 QM6 elements,
 * clamped on the left) with 400 contact pairs: the uy of the nodes of two
 * rows paired with those of the rows above. Both ways of eq. 9 are
 * exercised: 15 normal modes give N = 2 r^2 = 450 one-sided TVDs >= 400
 * pairs (the dual problem), 10 modes give 200 < 400 (the primal one).
 * red_jtv used to hold Z = K^-1 B (n x np: 62 MB) or the TVDs D (n x N:
 * 31 MB) beside K's factor, and allocated 93 MB (dual) and 57 MB (primal)
 * at once here. The model now: the n x t result, K's factor
 * and CHOLMOD's solve work (measured: chol_costs), one n x 32 block of
 * pair loads, and the small matrices: the coefficients C (np x N), and
 * for the dual problem G, L, C C^T, H (np x np each), LAPACK's dsyevd work
 * (2 np^2 + 6 np) and y (np x t); for the primal one B^T D (np x N),
 * S (N x N), dsyevd's work (2 N^2 + 6 N) and y. 1 MB is left for the
 * rest (the r x r matrices, index maps).
 */
static void test_jtv_plate(void)
{
    char err[512];
    fe_model fe;
    int ok = clamped_plate(&fe, 200, 50, err, sizeof err);
    CHECK(ok, "a 200 x 50 plate clamped (%s)", ok ? "ok" : err);
    if (!ok)
        return;
    /* the node at grid point (i, j) from its coordinates (dx = dy = 5 mm) */
    int n = fe.ndof, np = 0, *grid = malloc(201 * 51 * sizeof *grid);
    for (int k = 0; k < fe.nnode; k++)
        grid[(int)lround(fe.node[k].x[0] / 0.005) + 201 * (int)lround(fe.node[k].x[1] / 0.005)] = k;
    /* pairs: uy of rows 16 / 17 and 33 / 34, columns 1 to 200 (column 0 is clamped) */
    int *a = malloc(400 * sizeof *a), *bb = malloc(400 * sizeof *bb);
    double *dkdg = malloc(400 * sizeof *dkdg);
    for (int row = 16; row <= 33; row += 17)
        for (int x = 1; x <= 200; x++) {
            int lo = fe.node[grid[x + 201 * row]].dof[FE_UY];
            int hi = fe.node[grid[x + 201 * (row + 1)]].dof[FE_UY];
            if (lo >= 0 && hi >= 0 && np < 400)
                a[np] = hi, bb[np] = lo, dkdg[np] = 1e12 * (1 + 0.001 * x), np++;
        }
    free(grid);
    red_joint jt = {np, a, bb, dkdg};
    CHECK(np == 400, "400 contact pairs on the plate (%d)", np);
    double fact, solve, block = (double)n * RED_SOLVE_BLOCK * 8 / MB;
    chol_costs(&fe.K, &fact, &solve);
    for (int path = 0; path < 2; path++) {
        int modes = path ? 10 : 15, ntvd = 2 * modes * modes, t = 20;
        red_basis base = {0}, out = {0};
        ok = red_modal(&fe, modes, 0, &base, NULL, err, sizeof err) == 0;
        size_t live0 = live_bytes();
        peak_reset();
        ok = ok && red_jtv_onesided(&fe, &base, &jt, t, &out, err, sizeof err) == 0;
        double got = grown_mb(live0), res = (double)n * t * sizeof(double) / MB;
        double nn = ntvd, pp = np;
        double small = (path ? 2 * pp * nn + 3 * nn * nn + 6 * nn + pp * t
                             : pp * nn + 6 * pp * pp + 7 * pp + pp * t) * 8 / MB;
        double model = res + fact + solve + block + small + 1.0;
        const char *what = path ? "primal: N < np" : "dual: np <= N";
        CHECK(ok && out.r == t, "jtv(count = %d) of %d modes, %d pairs, %d TVDs (%s): %d vectors "
              "(%s)", t, modes, np, ntvd, what, out.r, ok ? "ok" : err);
        if (ok) {
#if COUNTING
            CHECK(got <= model, "jtv (%s) allocates at most %.1f MB at once: the result %.1f + "
                  "factor %.1f + solve work %.1f + a block %.1f + small matrices %.1f + 1; got "
                  "%.1f MB (%s alone was %.0f MB)", what, model, res, fact, solve, block, small,
                  got, path ? "D" : "Z", (double)n * (path ? ntvd : np) * sizeof(double) / MB);
#else
            (void)got, (void)model;
#endif
            double e = k_orthonormality(&fe, &out);
            CHECK(e < 1e-10, "jtv (%s): K-orthonormal, max |V^T K V - I| = %.1e", what, e);
        }
        red_basis_free(&base);
        red_basis_free(&out);
    }
    free(a), free(bb), free(dkdg);
    fe_free(&fe);
}

int main(void)
{
    /* first: its process-growth check needs a process that has not peaked yet */
    test_cb_plate();
    test_cb_dense();
    test_jtv_plate();
    return check_done();
}
