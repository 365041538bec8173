/*
 * slide_eig.c: the complex eigenvalues of substructures coupled at frozen
 * contacts, on the substructures' modes (slide_modes.c chooses; docs/
 * interfaces.md "Complex modes and the locus").
 *
 * In the modes Phi of each free substructure (K Phi = M Phi w2, Phi^T M
 * Phi = I) with classical damping (Phi^T C Phi = diag d), the coupled
 * system is
 *   q'' + diag(d) q' + diag(w2) q + e^T lambda = 0,   n q = 0 (rigid),
 * or lambda = kc n q (penalty), with n = N Phi, e = E Phi the gap and force
 * rows of the contacts (E = N without friction). Three solvers:
 *
 * - free (no contact): each mode's s^2 + d_i s + w2_i = 0;
 * - symmetric (no friction, d = a + b w2 for one a, b): with L an
 *   orthonormal basis of null(n) (Householder QR of n^T), the constrained
 *   stiffness L^T diag(w2) L is symmetric and the modal mass is I, so its
 *   eigenvalues kappa (LAPACKE dsyevd) give s^2 + (a + b kappa) s + kappa
 *   = 0; a penalty gives diag(w2) + kc n^T n;
 * - secular (one rigid contact, any classical damping, with friction):
 *   det [P(s) e^T; n 0] = -sum_i c_i prod_(j != i) P_j(s), c_i = n_i e_i,
 *   P_i(s) = s^2 + d_i s + w2_i, so the eigenvalues are the 2 (N - 1)
 *   roots of h(s) = sum_i c_i / P_i(s), found together by the Aberth-
 *   Ehrlich iteration on q(s) = h(s) prod_j P_j(s), whose Newton
 *   correction is 1 / (h'/h + sum_j P_j'/P_j). O(N^2) per sweep, about a
 *   dozen sweeps; a mode with c_i = 0 keeps its free roots.
 *
 * Each solver writes every eigenvalue (both members of a conjugate pair);
 * slide_modes.c keeps those with Im s >= 0. An analysis allocates its own
 * memory.
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "jnt/jnt.h"
#include "slide_eig.h"

/* The two roots of s^2 + b s + c = 0 (real b, c) into sr, si. */
static void quad_roots(double b, double c, double *sr, double *si)
{
    double disc = 0.25 * b * b - c;
    if (disc < 0) {
        sr[0] = sr[1] = -0.5 * b;
        si[0] = sqrt(-disc);
        si[1] = -si[0];
        return;
    }
    /* real: the larger root without cancellation, the other from c */
    double q = -0.5 * b - (b >= 0 ? 1 : -1) * sqrt(disc);
    sr[0] = q;
    sr[1] = q != 0 ? c / q : 0;
    si[0] = si[1] = 0;
}

/* See slide_eig.h. */
int slide_eig_free(const slide_eigsys *e, double *sr, double *si)
{
    for (int i = 0; i < e->N; i++)
        quad_roots(e->d[i], e->w2[i], sr + 2 * i, si + 2 * i);
    return 2 * e->N;
}

/* See slide_eig.h. */
int slide_eig_proportional(const slide_eigsys *e, double *a, double *b)
{
    int N = e->N, i0 = 0, i1 = 0;
    for (int i = 1; i < N; i++) {
        if (e->w2[i] < e->w2[i0])
            i0 = i;
        if (e->w2[i] > e->w2[i1])
            i1 = i;
    }
    *b = e->w2[i1] > e->w2[i0] ? (e->d[i1] - e->d[i0]) / (e->w2[i1] - e->w2[i0]) : 0;
    *a = N > 0 ? e->d[i0] - *b * e->w2[i0] : 0;
    /* every mode on the line, to the round-off of the modal damping */
    for (int i = 0; i < N; i++) {
        double fit = *a + *b * e->w2[i];
        if (fabs(e->d[i] - fit) > 1e-9 * (fabs(e->d[i]) + fabs(*a) + fabs(*b * e->w2[i])))
            return 0;
    }
    return 1;
}

/* See slide_eig.h. */
int slide_eig_sym(const slide_eigsys *e, double a, double b, double *sr, double *si, int *nroot,
                  char *err, size_t errn)
{
    *nroot = 0;
    int N = e->N, na = e->na, r = e->kc > 0 ? N : N - na, rc = JNT_OK;
    size_t NN = (size_t)N * N;
    double *A = calloc(NN + 1, sizeof *A), *Q = calloc((size_t)N * na + 1, sizeof *Q);
    double *tau = calloc((size_t)na + 1, sizeof *tau), *kap = calloc((size_t)N + 1, sizeof *kap);
    if (!A || !Q || !tau || !kap) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "complex modes: out of memory (%d modes)", N);
        goto done;
    }
    for (int i = 0; i < N; i++)
        A[i + (size_t)N * i] = e->w2[i];
    if (e->kc > 0) {
        /* penalty: diag(w2) + kc n^T n */
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, N, N, na, e->kc, e->nr, N, e->nr,
                    N, 1.0, A, N);
    } else if (na > 0) {
        /* rigid: Q R = n^T, L = the last N - na columns of Q, A = Q^T diag(w2) Q */
        for (int k = 0; k < na; k++)
            memcpy(Q + (size_t)N * k, e->nr + (size_t)N * k, (size_t)N * sizeof *Q);
        if (LAPACKE_dgeqrf(LAPACK_COL_MAJOR, N, na, Q, N, tau) != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "complex modes: QR of the constraints failed");
            goto done;
        }
        double rmax = 0, rmin = INFINITY;
        for (int k = 0; k < na; k++) {
            rmax = fmax(rmax, fabs(Q[k + (size_t)N * k]));
            rmin = fmin(rmin, fabs(Q[k + (size_t)N * k]));
        }
        if (!(rmin > 1e-12 * rmax)) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                          "complex modes: the %d contact constraints are dependent", na);
            goto done;
        }
        if (LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'T', N, N, na, Q, N, tau, A, N) != 0 ||
            LAPACKE_dormqr(LAPACK_COL_MAJOR, 'R', 'N', N, N, na, Q, N, tau, A, N) != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "complex modes: dormqr failed");
            goto done;
        }
        /* the trailing block, moved to the front */
        for (int j = 0; j < r; j++)
            memmove(A + (size_t)r * j, A + na + (size_t)N * (na + j), (size_t)r * sizeof *A);
    }
    if (r > 0) {
        lapack_int info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', r, A, r, kap);
        if (info != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "complex modes: dsyevd failed (info %d)",
                          (int)info);
            goto done;
        }
    }
    for (int j = 0; j < r; j++)
        quad_roots(a + b * kap[j], kap[j], sr + 2 * j, si + 2 * j);
    *nroot = 2 * r;
done:
    free(A);
    free(Q);
    free(tau);
    free(kap);
    return rc;
}

/* Aberth-Ehrlich on q(s) = h(s) prod P_j, h = sum c_j / P_j(s), over the
 * nz roots (zr, zi: starting values in, roots out; last: nz scratch).
 * Returns 0 when every root converged within the sweep limit: its
 * correction is <= 4 eps |z|, or it is <= 1e-10 |z| and no longer halves
 * (the round-off floor of a root close to another, near a coalescence). */
static int aberth(int N, const double *c, const double *d, const double *w2, int nz, double *zr,
                  double *zi, int *done, double *last)
{
    for (int k = 0; k < nz; k++)
        done[k] = 0, last[k] = INFINITY;
    for (int sweep = 0; sweep < 200; sweep++) {
        int active = 0;
        for (int k = 0; k < nz; k++) {
            if (done[k])
                continue;
            active++;
            double xr = zr[k], xi = zi[k];
            /* h, h' and S = sum P_j'/P_j at z, in real arithmetic */
            double hr = 0, hi = 0, dr = 0, di = 0, sr = 0, si = 0;
            for (int j = 0; j < N; j++) {
                double pr = xr * xr - xi * xi + d[j] * xr + w2[j], pi = (2 * xr + d[j]) * xi;
                double qr = 2 * xr + d[j], qi = 2 * xi;
                double den = pr * pr + pi * pi, ir = pr / den, ii = -pi / den;
                double tr = qr * ir - qi * ii, ti = qr * ii + qi * ir;
                sr += tr, si += ti;
                hr += c[j] * ir, hi += c[j] * ii;
                dr -= c[j] * (tr * ir - ti * ii), di -= c[j] * (tr * ii + ti * ir);
            }
            /* q'/q = h'/h + S, minus the other roots' repulsion */
            double hd = hr * hr + hi * hi;
            double gr = (dr * hr + di * hi) / hd + sr, gi = (di * hr - dr * hi) / hd + si;
            for (int m = 0; m < nz; m++) {
                if (m == k)
                    continue;
                double ar = xr - zr[m], ai = xi - zi[m], dd = ar * ar + ai * ai;
                gr -= ar / dd;
                gi += ai / dd;
            }
            double gd = gr * gr + gi * gi, cr = gr / gd, ci = -gi / gd;
            if (!isfinite(cr) || !isfinite(ci))
                return 1;
            zr[k] = xr - cr;
            zi[k] = xi - ci;
            double step = hypot(cr, ci), az = hypot(zr[k], zi[k]);
            if (step <= 4 * DBL_EPSILON * az || (step <= 1e-10 * az && step > 0.5 * last[k]))
                done[k] = 1;
            last[k] = step;
        }
        if (!active)
            return 0;
    }
    return 1;
}

/* See slide_eig.h. */
int slide_eig_secular(const slide_eigsys *e, double *sr, double *si, int *nroot, char *err,
                      size_t errn)
{
    *nroot = 0;
    int N = e->N, nz = 0, nout = 0, rc = JNT_OK;
    double *c = malloc(((size_t)N + 1) * sizeof *c), *cd = malloc(((size_t)N + 1) * sizeof *cd);
    double *cw = malloc(((size_t)N + 1) * sizeof *cw), *cc = malloc(((size_t)N + 1) * sizeof *cc);
    int *ord = malloc(((size_t)N + 1) * sizeof *ord);
    int *done = malloc(2 * ((size_t)N + 1) * sizeof *done);
    double *last = malloc(2 * ((size_t)N + 1) * sizeof *last);
    if (!c || !cd || !cw || !cc || !ord || !done || !last) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "complex modes: out of memory (%d modes)", N);
        goto done;
    }
    /* c_i = n_i e_i; a mode the contact does not see keeps its free roots. */
    double wsum = 0, cabs = 0;
    int na = 0;
    for (int i = 0; i < N; i++) {
        c[i] = e->nr[i] * e->er[i];
        wsum += c[i];
        cabs += fabs(c[i]);
        if (c[i] == 0)
            quad_roots(e->d[i], e->w2[i], sr + nout, si + nout), nout += 2;
        else
            ord[na++] = i;
    }
    if (na == 0 || !(fabs(wsum) > 1e-13 * cabs)) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                      "complex modes: the contact matrix N M^-1 E^T is singular (%g)", wsum);
        goto done;
    }
    /* the coupled modes by frequency (insertion sort: a few hundred) */
    for (int i = 1; i < na; i++) {
        int k = ord[i], j = i;
        while (j > 0 && e->w2[ord[j - 1]] > e->w2[k])
            ord[j] = ord[j - 1], j--;
        ord[j] = k;
    }
    for (int i = 0; i < na; i++) {
        cc[i] = c[ord[i]];
        cd[i] = e->d[ord[i]];
        cw[i] = e->w2[ord[i]];
    }
    /* Starting values: between consecutive coupled modes (where the
     * constrained frequencies lie without friction), slightly off the axis
     * and off the symmetry s -> -conj(s) of an undamped system, which the
     * iteration would keep and flutter roots do not have. */
    nz = 2 * (na - 1);
    double *zr = sr + nout, *zi = si + nout;
    for (int k = 0; k + 1 < na; k++) {
        double w0 = fmax(cw[k], 0), w1 = fmax(cw[k + 1], 0);
        double kap = w0 > 0 ? sqrt(w0 * w1) : 0.5 * (w0 + w1), db = 0.5 * (cd[k] + cd[k + 1]);
        double disc = kap - 0.25 * db * db, sc = sqrt(fmax(kap, 1e-300));
        if (disc > 0) {
            zr[2 * k] = zr[2 * k + 1] = -0.5 * db + 1e-3 * sc * (k % 2 ? 1 : -1);
            zi[2 * k] = sqrt(disc) * (1 + 1e-3);
            zi[2 * k + 1] = -sqrt(disc) * (1 + 1e-3);
        } else {
            zr[2 * k] = -0.5 * db + sqrt(-disc) * (1 + 1e-3);
            zr[2 * k + 1] = -0.5 * db - sqrt(-disc);
            zi[2 * k] = 1e-3 * sc + 1e-3 * fabs(zr[2 * k]);
            zi[2 * k + 1] = -zi[2 * k];
        }
    }
    if (aberth(na, cc, cd, cw, nz, zr, zi, done, last) != 0) {
        rc = SLIDE_EIG_NOCONV;
        goto done;
    }
    /* Real roots (overdamped modes) converge with round-off imaginary parts
     * of either sign: make them real; the others come in conjugate pairs. */
    int npos = 0, nneg = 0;
    for (int k = 0; k < nz; k++) {
        if (fabs(zi[k]) <= 64 * DBL_EPSILON * hypot(zr[k], zi[k]))
            zi[k] = 0;
        npos += zi[k] > 0;
        nneg += zi[k] < 0;
    }
    if (npos != nneg) {
        rc = SLIDE_EIG_NOCONV;
        goto done;
    }
    /* The sum of the roots is the next-to-leading coefficient of q:
     * sum z = -sum_j d_j + sum_j c_j d_j / sum_j c_j. */
    double want = 0, got = 0, scale = 0, cdsum = 0;
    for (int j = 0; j < na; j++) {
        want -= cd[j];
        scale += fabs(cd[j]);
        cdsum += cc[j] * cd[j];
    }
    want += cdsum / wsum;
    for (int k = 0; k < nz; k++) {
        got += zr[k];
        scale += hypot(zr[k], zi[k]);
    }
    if (!(fabs(got - want) <= 1e-9 * scale)) {
        rc = SLIDE_EIG_NOCONV;
        goto done;
    }
    *nroot = nout + nz;
done:
    free(c);
    free(cd);
    free(cw);
    free(cc);
    free(ord);
    free(done);
    free(last);
    return rc;
}
