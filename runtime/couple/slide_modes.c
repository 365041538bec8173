/*
 * slide_modes.c: complex modes of substructures coupled by sliding
 * interfaces at a frozen slave position (seed 003 Sect. 3.1, Fig. 4): the
 * slaves in contact, their gap rows N (B_C) and force rows E (B_E), and the
 * eigenvalues of the coupled system by the cheapest exact solver that
 * applies (slide_eig.c on the substructures' modes: free, symmetric,
 * secular), else by QZ (LAPACKE dggev) on the primal assembly below. The
 * locus sweeps the position and writes a CSV.
 *
 * Rigid contact (kc = 0): the normal force that keeps N u = 0 is
 * lambda = (N M^-1 E^T)^-1 N M^-1 (C u' + K u), so
 *   M u'' + Q (C u' + K u) = 0,  Q = I - E^T (N M^-1 E^T)^-1 N M^-1,
 * and with u = L q, L an orthonormal basis of the null space of N,
 *   L^T M L q'' + L^T Q C L q' + L^T Q K L q = 0
 * (equivalent: the residual lies in M null(N), on which L^T is regular).
 * Without friction E = N, L^T Q = L^T and this is the usual primal
 * assembly; friction makes L^T Q K L non-symmetric. Penalty contact
 * (kc > 0): lambda = -kc N u, K_p = K + kc E^T N.
 * An analysis allocates its own memory: it is not part of the step loop.
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/csv.h"
#include "jnt/jnt.h"
#include "slide_eig.h"
#include "slide_impl.h"
#include "slide_shapes.h"

/* Add c times the (physical) row of port p over the global coordinates to
 * row (entries `stride` apart). */
static void add_port_row(const slide_model *m, int p, double c, double *row, int stride)
{
    const slide_port *pt = &m->port[p];
    if (pt->kind == PORT_FIXED || c == 0)
        return;
    const slide_msub *b = &m->sub[pt->sub];
    const csr_mat *R = &b->R;
    for (int k = R->rowptr[pt->row]; k < R->rowptr[pt->row + 1]; k++)
        row[(size_t)stride * (b->off + R->col[k])] += c * R->val[k];
}

/* Add c times M^-1 R_p^T (physical, global coordinates) to col. */
static void add_port_y(const slide_model *m, int p, double c, double *col)
{
    const slide_port *pt = &m->port[p];
    if (pt->kind == PORT_FIXED || c == 0)
        return;
    const slide_msub *b = &m->sub[pt->sub];
    cblas_daxpy(b->n, c, b->Y + (size_t)b->n * pt->row, 1, col + b->off, 1);
}

static int cmp_mode(const void *a, const void *b)
{
    const slide_mode *x = a, *y = b;
    if (x->freq != y->freq)
        return x->freq < y->freq ? -1 : 1;
    return x->re < y->re ? -1 : x->re > y->re;
}

/* Work arrays of the QZ path. */
typedef struct mwork {
    double *M, *C, *K, *Nr, *Er, *YN, *Q, *tau, *Wm, *T, *KL, *Mp, *Cp, *Kp, *A, *B;
    double *ar, *ai, *be, *VR;
    int *ipiv, *ip2;
} mwork;

static void mwork_free(mwork *w)
{
    double *p[] = {w->M, w->C, w->K, w->Nr, w->Er, w->YN, w->Q, w->tau, w->Wm, w->T, w->KL,
                   w->Mp, w->Cp, w->Kp, w->A, w->B, w->ar, w->ai, w->be, w->VR};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
    free(w->ipiv);
    free(w->ip2);
}

/* X^T Y Z for N x r L: out (r x r) = L^T (Y L), Y N x N. */
static void project(int N, int r, const double *L, const double *Y, double *tmp, double *out)
{
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, r, N, 1.0, Y, N, L, N, 0.0, tmp, N);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, r, r, N, 1.0, L, N, tmp, N, 0.0, out, r);
}

/* See slide.h. */
const char *slide_eig_name(int solver)
{
    switch (solver) {
    case SLIDE_EIG_FREE:
        return "free";
    case SLIDE_EIG_SYM:
        return "symmetric";
    case SLIDE_EIG_SECULAR:
        return "secular";
    case SLIDE_EIG_QZ:
        return "qz";
    default:
        return "auto";
    }
}

/* The frozen contacts of one position (geometry, rows, damping). */
typedef struct frozen {
    const slide_model *m;
    void *user;
    const slide_modes_opts *o;
    double p;
    int na, *act;    /* the contacts in contact */
    slide_geo *geo;  /* ncontact */
    double *cE;      /* 6 ncontact: the force rows */
    double *chimu;   /* ncontact: chi mu (0: no friction coupling) */
} frozen;

/* The 2-norm of x (n). */
static double nrm2(int n, const double *x, int inc)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[(size_t)i * inc] * x[(size_t)i * inc];
    return sqrt(s);
}

/* t += c X z for the r x r matrix X and the complex z = zr + i zi
 * (t = tr + i ti). */
static void cmatvec(int r, const double *X, const double *zr, const double *zi, double c,
                    double *tr, double *ti)
{
    cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, c, X, r, zr, 1, 1.0, tr, 1);
    cblas_dgemv(CblasColMajor, CblasNoTrans, r, r, c, X, r, zi, 1, 1.0, ti, 1);
}

/* The shape of the wanted eigenvalue s = sr + i si near dggev's root j
 * (vectors w->VR, n2 = 2 r): q0 = x[0 .. r) (dggev: column j + i column
 * j + 1 for the first of a complex pair, the conjugate for the second),
 * refined by two steps of inverse iteration q <- P(s)^-1 q, P(s) = s^2 Mp
 * + s Cp + Kp (QZ's root is off by up to 1e-3 |s| on this unscaled pencil,
 * test_eigen.c; s is the exact solver's), u = L q (L = the last r columns
 * of w->Q when r < N, else u = q) into u (re N, then im N), and the
 * relative residual |P(s) q| / ((|s|^2 |Mp| + |s| |Cp| + |Kp|) |q|)
 * (Frobenius norms) into *res. Scratch: w->A, w->B, w->ip2. */
static void qz_vector(mwork *w, int N, int r, int na, int j, int n2, double sr, double si,
                      const double *Mp, const double *Cp, const double *Kp, double *u,
                      double *res)
{
    double *P = w->A, *x = w->B, *qr = x, *qi = x + r, *tr = x + 2 * r, *ti = x + 3 * r;
    double *sqr = x + 4 * r, *sqi = x + 5 * r;
    int jr = j, ji = -1;
    double sg = 1;
    if (w->ai[j] > 0 && j + 1 < n2)
        ji = j + 1;
    else if (w->ai[j] < 0 && j > 0)
        jr = j - 1, ji = j, sg = -1;
    for (int i = 0; i < r; i++) {
        qr[i] = w->VR[i + (size_t)n2 * jr];
        qi[i] = ji >= 0 ? sg * w->VR[i + (size_t)n2 * ji] : 0;
    }
    /* P(s) as the real 2r x 2r [Re P, -Im P; Im P, Re P], s^2 = a2 + i b2 */
    double a2 = sr * sr - si * si, b2 = 2 * sr * si;
    for (int c = 0; c < r; c++)
        for (int i = 0; i < r; i++) {
            size_t l = i + (size_t)r * c;
            double pr = a2 * Mp[l] + sr * Cp[l] + Kp[l], pi = b2 * Mp[l] + si * Cp[l];
            P[i + (size_t)n2 * c] = pr;
            P[r + i + (size_t)n2 * (r + c)] = pr;
            P[r + i + (size_t)n2 * c] = pi;
            P[i + (size_t)n2 * (r + c)] = -pi;
        }
    if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, n2, n2, P, n2, w->ip2) == 0)
        for (int it = 0; it < 2; it++) {
            LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n2, 1, P, n2, w->ip2, x, n2);
            double nx = nrm2(n2, x, 1);
            if (!(nx > 0) || !isfinite(nx))
                break;
            cblas_dscal(n2, 1 / nx, x, 1);
        }
    /* the residual P(s) q */
    memset(tr, 0, 2 * (size_t)r * sizeof *tr);
    for (int i = 0; i < r; i++) {
        sqr[i] = sr * qr[i] - si * qi[i];
        sqi[i] = sr * qi[i] + si * qr[i];
    }
    cmatvec(r, Cp, sqr, sqi, 1.0, tr, ti);
    for (int i = 0; i < r; i++) {
        sqr[i] = a2 * qr[i] - b2 * qi[i];
        sqi[i] = a2 * qi[i] + b2 * qr[i];
    }
    cmatvec(r, Mp, sqr, sqi, 1.0, tr, ti);
    cmatvec(r, Kp, qr, qi, 1.0, tr, ti);
    int rr = r * r;
    double s2 = sr * sr + si * si, nq = hypot(nrm2(r, qr, 1), nrm2(r, qi, 1));
    double scale = (s2 * nrm2(rr, Mp, 1) + sqrt(s2) * nrm2(rr, Cp, 1) + nrm2(rr, Kp, 1)) * nq;
    *res = scale > 0 ? hypot(nrm2(r, tr, 1), nrm2(r, ti, 1)) / scale : 0;
    if (r < N) {
        const double *L = w->Q + (size_t)N * na;
        cblas_dgemv(CblasColMajor, CblasNoTrans, N, r, 1.0, L, N, qr, 1, 0.0, u, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, N, r, 1.0, L, N, qi, 1, 0.0, u + N, 1);
    } else {
        memcpy(u, qr, (size_t)N * sizeof *u);
        memcpy(u + N, qi, (size_t)N * sizeof *u);
    }
}

/* QZ (dggev) on the first-order pencil of the primal assembly in physical
 * coordinates; the finite eigenvalues into sr, si (room for 2 N), their
 * count to *nroot. With want (nwant modes), also the shapes of those
 * eigenvalues from dggev's right eigenvectors (qz_vector: mode k's u at
 * vec + 2 N k, its residual at res[k]); without, dggev computes no
 * vectors. */
static int solve_qz(const frozen *fz, double *sr, double *si, int *nroot, const slide_mode *want,
                    int nwant, double *vec, double *res, char *err, size_t errn)
{
    const slide_model *m = fz->m;
    const slide_modes_opts *o = fz->o;
    const slide_geo *geo = fz->geo;
    const int *act = fz->act;
    int N = m->N, nc = m->ncontact, na = fz->na, rc = JNT_OK, ok = 1;
    size_t NN = (size_t)N * N;
    mwork w;
    memset(&w, 0, sizeof w);
    *nroot = 0;
#define MALLOC(x, n) ((x) = calloc((size_t)(n) + 1, sizeof *(x)), ok = ok && (x))
    MALLOC(w.M, NN);
    MALLOC(w.C, NN);
    MALLOC(w.K, NN);
    MALLOC(w.Nr, (size_t)nc * N);
    MALLOC(w.Er, (size_t)nc * N);
    MALLOC(w.YN, (size_t)nc * N);
    MALLOC(w.Wm, (size_t)nc * nc);
    MALLOC(w.ipiv, nc);
    if (!ok) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "slide_modes_at: out of memory (%d coordinates)",
                      N);
        goto done;
    }
    /* Block-diagonal M, C(t), K. */
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        double al = 0, be = 0;
        if (b->rayleigh)
            b->rayleigh(o->t, &al, &be, fz->user);
        for (int j = 0; j < b->n; j++)
            for (int i = 0; i < b->n; i++) {
                size_t g = (size_t)(b->off + i) + (size_t)N * (b->off + j);
                size_t l = i + (size_t)b->n * j;
                w.M[g] = b->M[l];
                w.K[g] = b->K[l];
                w.C[g] = o->no_damping ? 0 : (b->C ? b->C[l] : 0) + al * b->M[l] + be * b->K[l];
            }
    }
    /* The rows of the contacts in contact. */
    for (int i = 0; i < na; i++) {
        int k = act[i];
        for (int j = 0; j < 6; j++) {
            add_port_row(m, geo[k].p[j], geo[k].cN[j], w.Nr + i, nc);
            add_port_row(m, geo[k].p[j], fz->cE[6 * k + j], w.Er + i, nc);
            add_port_y(m, geo[k].p[j], geo[k].cN[j], w.YN + (size_t)N * i);
        }
    }
    /* Primal assembly: penalty, or rigid with the null space of N. */
    int r = N;
    double *Mp = w.M, *Cp = w.C, *Kp = w.K;
    if (na > 0 && o->kc > 0) {
        /* K_p = K + kc E^T N (Nr, Er are nc x N with leading dimension nc). */
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, N, N, na, o->kc, w.Er, nc, w.Nr, nc,
                    1.0, w.K, N);
    } else if (na > 0) {
        r = N - na;
        MALLOC(w.Q, NN);
        MALLOC(w.tau, na);
        MALLOC(w.T, (size_t)na * N);
        MALLOC(w.KL, NN);
        MALLOC(w.Mp, (size_t)r * r);
        MALLOC(w.Cp, (size_t)r * r);
        MALLOC(w.Kp, (size_t)r * r);
        if (!ok) {
            rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "slide_modes_at: out of memory");
            goto done;
        }
        /* Q R = N^T; L = the last N - na columns of Q. */
        for (int i = 0; i < na; i++)
            for (int j = 0; j < N; j++)
                w.Q[j + (size_t)N * i] = w.Nr[i + (size_t)nc * j];
        double rmax = 0, rmin = INFINITY;
        if (LAPACKE_dgeqrf(LAPACK_COL_MAJOR, N, na, w.Q, N, w.tau) != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                          "slide_modes_at: QR of the constraints failed");
            goto done;
        }
        for (int i = 0; i < na; i++) {
            rmax = fmax(rmax, fabs(w.Q[i + (size_t)N * i]));
            rmin = fmin(rmin, fabs(w.Q[i + (size_t)N * i]));
        }
        if (rmin <= 1e-12 * rmax) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                          "slide_modes_at: at position %g the %d contact constraints are dependent",
                          fz->p, na);
            goto done;
        }
        if (LAPACKE_dorgqr(LAPACK_COL_MAJOR, N, N, na, w.Q, N, w.tau) != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "slide_modes_at: dorgqr failed");
            goto done;
        }
        const double *L = w.Q + (size_t)N * na;
        /* Wm = N M^-1 E^T (the contact matrix of eq. 15 without h^2). */
        for (int j = 0; j < na; j++)
            for (int i = 0; i < na; i++)
                w.Wm[i + (size_t)na * j] = slide_g6(m, geo[act[i]].p, geo[act[i]].cN,
                                                    geo[act[j]].p, fz->cE + 6 * act[j]);
        if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, na, na, w.Wm, na, w.ipiv) != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                          "slide_modes_at: at position %g the contact matrix is singular", fz->p);
            goto done;
        }
        /* X_p = L^T (X L - E^T Wm^-1 (M^-1 N^T)^T X L) for X = K, C. */
        double *Xs[2] = {w.K, w.C}, *Xp[2] = {w.Kp, w.Cp};
        for (int x = 0; x < 2; x++) {
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, r, N, 1.0, Xs[x], N, L, N,
                        0.0, w.KL, N);
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, na, r, N, 1.0, w.YN, N, w.KL, N,
                        0.0, w.T, na);
            LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', na, r, w.Wm, na, w.ipiv, w.T, na);
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, N, r, na, -1.0, w.Er, nc, w.T, na,
                        1.0, w.KL, N);
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, r, r, N, 1.0, L, N, w.KL, N, 0.0,
                        Xp[x], r);
        }
        project(N, r, L, w.M, w.KL, w.Mp);
        Mp = w.Mp;
        Cp = w.Cp;
        Kp = w.Kp;
    }
    /* First-order pencil: A = [0 I; -K -C], B = [I 0; 0 M]. */
    int n2 = 2 * r;
    MALLOC(w.A, (size_t)n2 * n2);
    MALLOC(w.B, (size_t)n2 * n2);
    MALLOC(w.ar, n2);
    MALLOC(w.ai, n2);
    MALLOC(w.be, n2);
    if (want) {
        MALLOC(w.VR, (size_t)n2 * n2);
        MALLOC(w.ip2, n2);
        free(w.B);
        MALLOC(w.B, (size_t)n2 * n2 + 6 * (size_t)r);
    }
    if (!ok) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "slide_modes_at: out of memory (%d states)", n2);
        goto done;
    }
    for (int j = 0; j < r; j++) {
        w.A[j + (size_t)n2 * (r + j)] = 1;
        w.B[j + (size_t)n2 * j] = 1;
        for (int i = 0; i < r; i++) {
            w.A[r + i + (size_t)n2 * j] = -Kp[i + (size_t)r * j];
            w.A[r + i + (size_t)n2 * (r + j)] = -Cp[i + (size_t)r * j];
            w.B[r + i + (size_t)n2 * (r + j)] = Mp[i + (size_t)r * j];
        }
    }
    if (n2 > 0) {
        lapack_int info = LAPACKE_dggev(LAPACK_COL_MAJOR, 'N', want ? 'V' : 'N', n2, w.A, n2, w.B,
                                        n2, w.ar, w.ai, w.be, NULL, 1, want ? w.VR : NULL,
                                        want ? n2 : 1);
        if (info != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "slide_modes_at: dggev failed (info %d)",
                          (int)info);
            goto done;
        }
    }
    /* The finite eigenvalues s = (ar + i ai) / be. */
    int ns = 0;
    for (int j = 0; j < n2; j++) {
        double bb = w.be[j];
        if (!(fabs(bb) > 1e-14 * hypot(w.ar[j], w.ai[j])) || bb == 0)
            continue;
        sr[ns] = w.ar[j] / bb;
        si[ns++] = w.ai[j] / bb;
    }
    *nroot = ns;
    /* the wanted modes' shapes: QZ's nearest finite root's vector, refined */
    for (int k = 0; k < nwant; k++) {
        double wr = want[k].re, wi = 2 * 3.14159265358979323846 * want[k].freq, dmin = INFINITY;
        int jn = -1;
        for (int j = 0; j < n2; j++) {
            double bb = w.be[j];
            if (!(fabs(bb) > 1e-14 * hypot(w.ar[j], w.ai[j])) || bb == 0)
                continue;
            double dd = hypot(w.ar[j] / bb - wr, w.ai[j] / bb - wi);
            if (dd < dmin)
                dmin = dd, jn = j;
        }
        if (jn < 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "slide_modes_shapes: no finite root");
            goto done;
        }
        qz_vector(&w, N, r, na, jn, n2, wr, wi, Mp, Cp, Kp, vec + 2 * (size_t)N * k, res + k);
    }
done:
    mwork_free(&w);
    return rc;
#undef MALLOC
}

/* The coupled system on the substructures' modes (slide_eig.h): modal
 * frequencies, damping at o->t, the contacts' rows n = N Phi and e = E Phi
 * (from the rows R Phi of the ports). Arrays are allocated into *buf. */
static int modal_system(const frozen *fz, slide_eigsys *e, double **buf)
{
    const slide_model *m = fz->m;
    int N = m->N, na = fz->na;
    double *b = calloc(2 * (size_t)N + 2 * (size_t)na * N + 1, sizeof *b);
    *buf = b;
    if (!b)
        return JNT_ERR_NOMEM;
    double *w2 = b, *d = b + N, *nr = d + N, *er = nr + (size_t)na * N;
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *sb = &m->sub[s];
        double al = 0, be = 0;
        if (sb->rayleigh && !fz->o->no_damping)
            sb->rayleigh(fz->o->t, &al, &be, fz->user);
        for (int i = 0; i < sb->n; i++) {
            w2[sb->off + i] = sb->w2[i];
            d[sb->off + i] = fz->o->no_damping ? 0 : sb->dmod[i] + al + be * sb->w2[i];
        }
    }
    for (int k = 0; k < na; k++) {
        const slide_geo *g = &fz->geo[fz->act[k]];
        for (int j = 0; j < 6; j++) {
            const slide_port *pt = &m->port[g->p[j]];
            if (pt->kind == PORT_FIXED)
                continue;
            const slide_msub *sb = &m->sub[pt->sub];
            const double *psi = sb->Psi + (size_t)sb->n * pt->row;
            cblas_daxpy(sb->n, g->cN[j], psi, 1, nr + (size_t)N * k + sb->off, 1);
            cblas_daxpy(sb->n, fz->cE[6 * fz->act[k] + j], psi, 1, er + (size_t)N * k + sb->off,
                        1);
        }
    }
    *e = (slide_eigsys){.N = N, .w2 = w2, .d = d, .na = na, .nr = nr, .er = er, .kc = fz->o->kc};
    return JNT_OK;
}

/* slide_modes_at; with want (nwant modes), instead the shapes of those
 * modes into vec and res (solve_qz), and nothing into out. */
static int modes_at(const slide_model *m, void *user, double p, const slide_modes_opts *o,
                    slide_mode *out, int cap, int *nout, int *ncontact, int *solver,
                    const slide_mode *want, int nwant, double *vec, double *res, char *err,
                    size_t errn)
{
    slide_modes_opts def;
    memset(&def, 0, sizeof def);
    if (!o)
        o = &def;
    if (!m || !nout || (cap > 0 && !out))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_at: bad arguments");
    *nout = 0;
    if (solver)
        *solver = SLIDE_EIG_AUTO;
    if (m->niface < 1)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_at: the model has no interface");
    if (o->solver < SLIDE_EIG_AUTO || o->solver > SLIDE_EIG_QZ)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_at: no solver %d", o->solver);
    int moved = o->moved > 0 ? o->moved - 1 : m->iface[0].slave_sub;
    if (moved >= m->nsub)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_at: no substructure %d", moved);
    double dir[2] = {o->dir[0], o->dir[1]}, dn = hypot(dir[0], dir[1]);
    if (dn == 0)
        dir[0] = 1, dn = 1;
    dir[0] /= dn;
    dir[1] /= dn;
    double tol = o->unstable_tol > 0 ? o->unstable_tol : 1e-9;
    int N = m->N, nc = m->ncontact, rc = JNT_OK;
    frozen fz = {.m = m, .user = user, .o = o, .p = p};
    fz.geo = calloc((size_t)nc + 1, sizeof *fz.geo);
    fz.cE = calloc(6 * (size_t)nc + 1, sizeof *fz.cE);
    fz.chimu = calloc((size_t)nc + 1, sizeof *fz.chimu);
    fz.act = calloc((size_t)nc + 1, sizeof *fz.act);
    double *xr = calloc(2 * (size_t)m->nsub, sizeof *xr);
    double *sr = calloc(2 * (size_t)N + 1, sizeof *sr), *si = calloc(2 * (size_t)N + 1, sizeof *si);
    double *mbuf = NULL;
    slide_mode *md = calloc(2 * (size_t)N + 1, sizeof *md);
    if (!fz.geo || !fz.cE || !fz.chimu || !fz.act || !xr || !sr || !si || !md) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "slide_modes_at: out of memory (%d coordinates)",
                      N);
        goto done;
    }
    /* Slaves in contact on the frozen (basic) geometry, their rows. */
    xr[2 * moved] = p * dir[0];
    xr[2 * moved + 1] = p * dir[1];
    for (int k = 0; k < nc; k++) {
        int fi = m->contact_iface[k];
        const slide_miface *f = &m->iface[fi];
        slide_geo *g = &fz.geo[k];
        slide_geometry(m, k, xr, NULL, 0, 0, -1, g);
        double gt = o->gap_tol > 0 ? o->gap_tol : 1e-6 * f->lseg;
        if (g->off || g->gap > gt)
            continue;
        double sv = moved == f->slave_sub ? 1 : moved == f->master_sub ? -1 : 0;
        double vt = sv * (dir[0] * g->t[0] + dir[1] * g->t[1]);
        double chi = vt > 1e-12 ? 1 : vt < -1e-12 ? -1 : 0;
        double mu = slide_mu(m, fi, o->t, o->speed, user);
        fz.chimu[k] = chi * mu;
        for (int j = 0; j < 6; j++)
            fz.cE[6 * k + j] = g->cN[j] - chi * mu * g->cT[j];
        fz.act[fz.na++] = k;
    }
    if (ncontact)
        *ncontact = fz.na;
    if (want) { /* the shapes: QZ's vectors */
        int ns = 0;
        rc = solve_qz(&fz, sr, si, &ns, want, nwant, vec, res, err, errn);
        goto done;
    }
    /* The solver: on the modes when every substructure's damping is
     * classical (free, symmetric, secular), else QZ. */
    int classical = 1, frictionless = 1, use = SLIDE_EIG_QZ;
    for (int s = 0; s < m->nsub; s++)
        classical &= m->sub[s].classical || o->no_damping;
    for (int i = 0; i < fz.na; i++)
        frictionless &= fz.chimu[fz.act[i]] == 0;
    slide_eigsys es;
    double pa = 0, pb = 0;
    int proportional = 0;
    if (classical) {
        if (modal_system(&fz, &es, &mbuf) != JNT_OK) {
            rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "slide_modes_at: out of memory");
            goto done;
        }
        proportional = slide_eig_proportional(&es, &pa, &pb);
    }
    int can[SLIDE_EIG_QZ + 1] = {0};
    can[SLIDE_EIG_FREE] = classical && fz.na == 0;
    /* a penalty stiffens K but not C: proportional only without damping */
    can[SLIDE_EIG_SYM] = classical && frictionless && proportional &&
                         (!(o->kc > 0) || (pa == 0 && pb == 0));
    can[SLIDE_EIG_SECULAR] = classical && fz.na == 1 && !(o->kc > 0);
    can[SLIDE_EIG_QZ] = 1;
    if (o->solver != SLIDE_EIG_AUTO) {
        if (!can[o->solver]) {
            rc = jnt_errf(err, errn, JNT_ERR_USAGE,
                          "slide_modes_at: at position %g the %s solver does not apply (%d "
                          "contacts, %s, damping %s)", p, slide_eig_name(o->solver), fz.na,
                          frictionless ? "no friction" : "friction",
                          !classical ? "not classical" : proportional ? "proportional"
                                                                      : "classical");
            goto done;
        }
        use = o->solver;
    } else {
        for (int k = SLIDE_EIG_FREE; k <= SLIDE_EIG_QZ; k++)
            if (can[k]) {
                use = k;
                break;
            }
    }
    int ns = 0;
    if (use == SLIDE_EIG_FREE) {
        ns = slide_eig_free(&es, sr, si);
    } else if (use == SLIDE_EIG_SYM) {
        rc = slide_eig_sym(&es, pa, pb, sr, si, &ns, err, errn);
    } else if (use == SLIDE_EIG_SECULAR) {
        rc = slide_eig_secular(&es, sr, si, &ns, err, errn);
        if (rc == SLIDE_EIG_NOCONV && o->solver == SLIDE_EIG_AUTO)
            use = SLIDE_EIG_QZ, rc = JNT_OK;
        else if (rc == SLIDE_EIG_NOCONV)
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                          "slide_modes_at: at position %g the secular iteration did not converge",
                          p);
    }
    if (rc == JNT_OK && use == SLIDE_EIG_QZ)
        rc = solve_qz(&fz, sr, si, &ns, NULL, 0, NULL, NULL, err, errn);
    if (rc != JNT_OK)
        goto done;
    if (solver)
        *solver = use;
    /* Eigenvalues s = re + i im with im >= 0, ascending frequency. */
    int nm = 0;
    for (int j = 0; j < ns; j++) {
        if (si[j] < 0)
            continue;
        md[nm].freq = si[j] / (2 * 3.14159265358979323846);
        md[nm].re = sr[j];
        md[nm].unstable = sr[j] > tol * hypot(sr[j], si[j]);
        nm++;
    }
    qsort(md, (size_t)nm, sizeof *md, cmp_mode);
    if (o->count > 0 && nm > o->count)
        nm = o->count;
    if (nm > cap)
        nm = cap;
    if (nm > 0)
        memcpy(out, md, (size_t)nm * sizeof *out);
    *nout = nm;
done:
    free(fz.geo);
    free(fz.cE);
    free(fz.chimu);
    free(fz.act);
    free(xr);
    free(sr);
    free(si);
    free(mbuf);
    free(md);
    return rc;
}

/* See slide.h. */
int slide_modes_at(const slide_model *m, void *user, double p, const slide_modes_opts *o,
                   slide_mode *out, int cap, int *nout, int *ncontact, int *solver, char *err,
                   size_t errn)
{
    return modes_at(m, user, p, o, out, cap, nout, ncontact, solver, NULL, 0, NULL, NULL, err,
                    errn);
}

/* See slide_shapes.h. */
int slide_modes_shapes(const slide_model *m, void *user, double p, const slide_modes_opts *o,
                       const slide_mode *want, int nwant, double *u, double *res, char *err,
                       size_t errn)
{
    if (!want || nwant < 0 || !u || !res)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_shapes: bad arguments");
    int n = 0;
    return modes_at(m, user, p, o, NULL, 0, &n, NULL, NULL, want, nwant, u, res, err, errn);
}

/* See slide_shapes.h. */
int slide_model_size(const slide_model *m)
{
    return m ? m->N : 0;
}

/* See slide.h. */
int slide_modes_locus(const slide_model *m, void *user, double a, double b, int steps,
                      const slide_modes_opts *o, const char *path, int *nunstable, char *err,
                      size_t errn)
{
    if (!m || !path || steps < 0)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_locus: bad arguments");
    int cap = 2 * m->N + 2, nu = 0;
    slide_mode *md = malloc((size_t)cap * sizeof *md);
    if (!md)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "slide_modes_locus: out of memory");
    csv_writer cw;
    memset(&cw, 0, sizeof cw);
    static const char *const names[] = {"position", "frequency", "real", "unstable", "solver"};
    int rc = csv_open(&cw, path, 5, err, errn);
    if (rc == 0)
        rc = csv_header(&cw, names, 5, err, errn);
    for (int k = 0; k <= steps && rc == 0; k++) {
        double p = steps ? a + (b - a) * k / steps : a;
        int n = 0, sv = 0;
        rc = slide_modes_at(m, user, p, o, md, cap, &n, NULL, &sv, err, errn);
        for (int j = 0; j < n && rc == 0; j++) {
            double row[5] = {p, md[j].freq, md[j].re, md[j].unstable, sv};
            nu += md[j].unstable;
            rc = csv_row(&cw, row, 5, err, errn);
        }
    }
    int rc2 = csv_close(&cw, rc ? NULL : err, errn);
    free(md);
    if (nunstable)
        *nunstable = nu;
    return rc ? rc : rc2;
}
