/*
 * red_modal.c: normal modes, K phi = omega^2 M phi. Dense: LAPACKE dsygvx or
 * dsygvd on full copies (a few thousand DOFs). Sparse: shift-invert Lanczos,
 * ARPACK's dsaupd/dseupd in mode 3 (OP = (K - sigma M)^-1 M, B = M) with
 * the factorisation of K - sigma M by CHOLMOD (red_solve.c).
 */
#include <arpack/arpack.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"
#include "red_impl.h"

/* Sort the nev eigenpairs ascending (ARPACK returns them so; cheap check). */
static void sort_pairs(int n, int nev, double *phi, double *lambda, double *tmp)
{
    for (int i = 1; i < nev; i++)
        for (int j = i; j > 0 && lambda[j] < lambda[j - 1]; j--) {
            double t = lambda[j];
            lambda[j] = lambda[j - 1];
            lambda[j - 1] = t;
            size_t a = (size_t)n * (size_t)j, b = (size_t)n * (size_t)(j - 1);
            memcpy(tmp, phi + a, (size_t)n * sizeof *tmp);
            memcpy(phi + a, phi + b, (size_t)n * sizeof *tmp);
            memcpy(phi + b, tmp, (size_t)n * sizeof *tmp);
        }
}

/* Dense: LAPACK's generalised symmetric solvers on full copies. Few modes:
 * dsygvx (bisection and inverse iteration for the nev lowest only, about
 * 2.5x faster than all pairs at 3000 DOFs); many: dsygvd (divide and
 * conquer, all pairs). */
static int eig_dense(const fe_sparse *k, const fe_sparse *m, int nev, double *phi, double *lambda,
                     char *err, size_t errn)
{
    int n = k->n, few = 4 * nev <= n;
    double *a = fe_sparse_dense(k), *b = fe_sparse_dense(m);
    double *w = malloc((size_t)n * sizeof *w);
    lapack_int *ifail = few ? malloc((size_t)n * sizeof *ifail) : NULL, found = 0, info;
    int rc = JNT_OK;
    if (!a || !b || !w || (few && !ifail)) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for a dense %d x %d eigenproblem",
                      n, n);
        goto done;
    }
    if (few)
        info = LAPACKE_dsygvx(LAPACK_COL_MAJOR, 1, 'V', 'I', 'U', n, a, n, b, n, 0, 0, 1, nev,
                              2 * LAPACKE_dlamch('S'), &found, w, phi, n, ifail);
    else
        info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', n, a, n, b, n, w);
    if (info > n) {
        rc = jnt_errf(err, errn, JNT_ERR_MODEL,
                      "the mass matrix is not positive definite (leading minor %d)",
                      (int)(info - n));
        goto done;
    }
    if (info != 0 || (few && found != nev)) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "the dense eigensolver (%s) failed (info %d)",
                      few ? "dsygvx" : "dsygvd", (int)info);
        goto done;
    }
    memcpy(lambda, w, (size_t)nev * sizeof *lambda);
    if (!few)
        memcpy(phi, a, (size_t)n * (size_t)nev * sizeof *phi);
done:
    free(a);
    free(b);
    free(w);
    free(ifail);
    return rc;
}

/* Sparse: ARPACK shift-invert Lanczos around sigma (0, or negative when K is
 * singular), the nev eigenvalues nearest sigma, i.e. the lowest. kf, when
 * not NULL, is the caller's factorisation of K (sigma = 0), used as is. */
static int eig_sparse(const fe_sparse *k, const fe_sparse *m, int nev, red_fact *kf,
                      double *phi, double *lambda, char *err, size_t errn)
{
    int n = k->n, rc = JNT_OK;
    double sigma = 0;
    red_fact *f = kf;
    if (!kf && (rc = red_fact_new(k, m, -sigma, &f, err, errn)) == 1) {
        /* K singular (free-free): any sigma below the lowest eigenvalue is
         * correct, a small |sigma| converges fastest. */
        sigma = -1e-6 * red_shift_scale(k, m);
        rc = red_fact_new(k, m, -sigma, &f, err, errn);
    }
    if (rc == 1)
        return jnt_errf(err, errn, JNT_ERR_MODEL,
                        "K - sigma M is not positive definite for sigma = %g (is M positive "
                        "definite and K positive semidefinite?)", sigma);
    if (rc != JNT_OK)
        return rc;
    int ncv = 2 * nev + 1 > nev + 20 ? 2 * nev + 1 : nev + 20;
    if (ncv > n)
        ncv = n;
    int lworkl = ncv * (ncv + 8);
    double *resid = malloc((size_t)n * sizeof *resid);
    double *v = malloc((size_t)n * (size_t)ncv * sizeof *v);
    double *workd = malloc(3 * (size_t)n * sizeof *workd);
    double *workl = malloc((size_t)lworkl * sizeof *workl);
    double *d = malloc((size_t)ncv * sizeof *d);
    int *select = calloc((size_t)ncv, sizeof *select);
    if (!resid || !v || !workd || !workl || !d || !select) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the Lanczos vectors (%d x %d)",
                      n, ncv);
        goto done;
    }
    /* the start vector ARPACK draws on its first call in a process (dlarnv: uniform on
     * (-1, 1), seed 1 3 5 7), drawn here on every call (info = 1): a reduction does not
     * depend on those the process ran before (ARPACK's own seed runs on from call to call),
     * and the compile cache's entries are what a new process computes */
    int seed[4] = {1, 3, 5, 7};
    LAPACKE_dlarnv(2, seed, n, resid);
    int iparam[11] = {0}, ipntr[14] = {0}, ido = 0, info = 1;
    iparam[0] = 1;                   /* exact shifts */
    iparam[2] = 300 + 10 * nev;      /* restarts */
    iparam[6] = 3;                   /* shift-invert, generalised */
    for (;;) {
        dsaupd_c(&ido, "G", n, "LM", nev, 0.0, resid, ncv, v, n, iparam, ipntr, workd, workl,
                 lworkl, &info);
        double *x = workd + ipntr[0] - 1, *y = workd + ipntr[1] - 1;
        if (ido == -1) { /* y = (K - sigma M)^-1 M x */
            fe_sparse_mul(m, x, y);
            if ((rc = red_fact_solve(f, y, 1, err, errn)) != JNT_OK)
                goto done;
        } else if (ido == 1) { /* y = (K - sigma M)^-1 (M x), M x given */
            memcpy(y, workd + ipntr[2] - 1, (size_t)n * sizeof *y);
            if ((rc = red_fact_solve(f, y, 1, err, errn)) != JNT_OK)
                goto done;
        } else if (ido == 2) { /* y = M x */
            fe_sparse_mul(m, x, y);
        } else {
            break;
        }
    }
    if (info == 1) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                      "the Lanczos eigensolver (ARPACK) did not converge: %d of %d modes after "
                      "%d restarts", iparam[4], nev, iparam[2]);
        goto done;
    }
    if (info < 0 || info > 1) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "the Lanczos eigensolver (ARPACK dsaupd) failed "
                      "(info %d)", info);
        goto done;
    }
    dseupd_c(1, "A", select, d, phi, n, sigma, "G", n, "LM", nev, 0.0, resid, ncv, v, n, iparam,
             ipntr, workd, workl, lworkl, &info);
    if (info != 0) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "the Lanczos eigensolver (ARPACK dseupd) failed "
                      "(info %d)", info);
        goto done;
    }
    memcpy(lambda, d, (size_t)nev * sizeof *lambda);
    sort_pairs(n, nev, phi, lambda, resid);
done:
    if (f != kf)
        red_fact_free(f);
    free(resid);
    free(v);
    free(workd);
    free(workl);
    free(d);
    free(select);
    return rc;
}

/* See red_impl.h. The sparse path needs nev < n (ARPACK); nev = n goes dense. */
int red_eig(const fe_sparse *k, const fe_sparse *m, int nev, int sparse_from, double *phi,
            double *lambda, char *err, size_t errn)
{
    return red_eig_fact(k, m, nev, sparse_from, NULL, phi, lambda, err, errn);
}

/* See red_impl.h. */
int red_eig_fact(const fe_sparse *k, const fe_sparse *m, int nev, int sparse_from, red_fact *kf,
                 double *phi, double *lambda, char *err, size_t errn)
{
    int n = k->n;
    if (m->n != n || nev < 0 || nev > n)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_eig: %d modes of a %d x %d problem", nev,
                        n, n);
    if (nev == 0)
        return JNT_OK;
    int rc = n < sparse_from || nev >= n - 1 ? eig_dense(k, m, nev, phi, lambda, err, errn)
                                             : eig_sparse(k, m, nev, kf, phi, lambda, err, errn);
    if (rc == JNT_OK)
        red_fix_signs(n, nev, phi);
    return rc;
}

/* See red.h. */
int red_modal(const fe_model *m, int modes, int sparse_from, red_basis *out, double *omega,
              char *err, size_t errn)
{
    if (!m || !out)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_modal: bad arguments");
    memset(out, 0, sizeof *out);
    if (modes < 1 || modes > m->ndof)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "modal: modes = %d, the model has %d DOFs",
                        modes, m->ndof);
    int n = m->ndof;
    double *phi = malloc((size_t)n * (size_t)modes * sizeof *phi);
    double *lambda = malloc((size_t)modes * sizeof *lambda);
    if (!phi || !lambda) {
        free(phi);
        free(lambda);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for %d modes of %d DOFs", modes,
                        n);
    }
    int rc = red_eig(&m->K, &m->M, modes, sparse_from > 0 ? sparse_from : RED_SPARSE_DEFAULT, phi,
                     lambda, err, errn);
    if (rc != JNT_OK) {
        free(phi);
        free(lambda);
        return rc;
    }
    /* Rigid-body modes come out with round-off eigenvalues of either sign. */
    if (omega)
        for (int i = 0; i < modes; i++)
            omega[i] = lambda[i] > 0 ? sqrt(lambda[i]) : 0.0;
    free(lambda);
    out->n = n;
    out->r = modes;
    out->phi = phi;
    return JNT_OK;
}
