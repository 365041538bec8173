/*
 * slide_modes.c: complex modes of substructures coupled by sliding
 * interfaces at a frozen slave position (seed 003 Sect. 3.1, Fig. 4): the
 * primal assembly of the coupled substructures with the friction-coupled,
 * non-symmetric stiffness, and the eigenvalues of the first-order system
 * (LAPACKE dggev). The locus sweeps the position and writes a CSV.
 *
 * Rigid contact (kc = 0): with the gap rows N (B_C) and the force rows E
 * (B_E) of the slaves in contact, the normal force that keeps N u = 0 is
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
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/csv.h"
#include "jnt/jnt.h"
#include "slide_impl.h"


/* Add c times the row of port p (over the global coordinates) to row. */
static void add_port_row(const slide_model *m, int p, double c, double *row, int stride)
{
    const slide_port *pt = &m->port[p];
    if (pt->kind == PORT_FIXED || c == 0)
        return;
    const slide_msub *b = &m->sub[pt->sub];
    if (pt->kind == PORT_DOF)
        row[(size_t)stride * (b->off + pt->dof)] += c;
    else
        for (int j = 0; j < b->n; j++)
            row[(size_t)stride * (b->off + j)] += c * pt->row[j];
}

/* Add c times M^-1 R_p^T (global coordinates) to col. */
static void add_port_y(const slide_model *m, int p, double c, double *col)
{
    const slide_port *pt = &m->port[p];
    if (pt->kind == PORT_FIXED || c == 0)
        return;
    const slide_msub *b = &m->sub[pt->sub];
    cblas_daxpy(b->n, c, pt->y, 1, col + b->off, 1);
}

static int cmp_mode(const void *a, const void *b)
{
    const slide_mode *x = a, *y = b;
    if (x->freq != y->freq)
        return x->freq < y->freq ? -1 : 1;
    return x->re < y->re ? -1 : x->re > y->re;
}

/* Work arrays of one analysis. */
typedef struct mwork {
    double *M, *C, *K, *Nr, *Er, *YN, *Q, *tau, *Wm, *T, *KL, *Mp, *Cp, *Kp, *A, *B;
    double *ar, *ai, *be;
    int *ipiv;
    slide_mode *modes;
} mwork;

static void mwork_free(mwork *w)
{
    double *p[] = {w->M, w->C, w->K, w->Nr, w->Er, w->YN, w->Q, w->tau, w->Wm, w->T, w->KL,
                   w->Mp, w->Cp, w->Kp, w->A, w->B, w->ar, w->ai, w->be};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
    free(w->ipiv);
    free(w->modes);
}

/* X^T Y Z for N x r L: out (r x r) = L^T (Y L), Y N x N. */
static void project(int N, int r, const double *L, const double *Y, double *tmp, double *out)
{
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, r, N, 1.0, Y, N, L, N, 0.0, tmp, N);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, r, r, N, 1.0, L, N, tmp, N, 0.0, out, r);
}

/* See slide.h. */
int slide_modes_at(const slide_model *m, void *user, double p, const slide_modes_opts *o,
                   slide_mode *out, int cap, int *nout, int *ncontact, char *err, size_t errn)
{
    slide_modes_opts def;
    memset(&def, 0, sizeof def);
    if (!o)
        o = &def;
    if (!m || !nout || (cap > 0 && !out))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_at: bad arguments");
    *nout = 0;
    if (m->niface < 1)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_at: the model has no interface");
    int moved = o->moved > 0 ? o->moved - 1 : m->iface[0].slave_sub;
    if (moved >= m->nsub)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_modes_at: no substructure %d", moved);
    double dir[2] = {o->dir[0], o->dir[1]}, dn = hypot(dir[0], dir[1]);
    if (dn == 0)
        dir[0] = 1, dn = 1;
    dir[0] /= dn;
    dir[1] /= dn;
    double tol = o->unstable_tol > 0 ? o->unstable_tol : 1e-9;
    int N = m->N, nc = m->ncontact;
    mwork w;
    memset(&w, 0, sizeof w);
    size_t NN = (size_t)N * N;
    int ok = 1;
#define MALLOC(x, n) ((x) = calloc((size_t)(n) + 1, sizeof *(x)), ok = ok && (x))
    MALLOC(w.M, NN);
    MALLOC(w.C, NN);
    MALLOC(w.K, NN);
    MALLOC(w.Nr, (size_t)nc * N);
    MALLOC(w.Er, (size_t)nc * N);
    MALLOC(w.YN, (size_t)nc * N);
    MALLOC(w.Wm, (size_t)nc * nc);
    MALLOC(w.ipiv, nc);
    slide_geo *geo = calloc((size_t)nc + 1, sizeof *geo);
    double *cE = calloc(6 * (size_t)nc + 1, sizeof *cE);
    double *xr = calloc(2 * (size_t)m->nsub, sizeof *xr);
    int *act = calloc((size_t)nc + 1, sizeof *act);
    ok = ok && geo && cE && xr && act;
    int rc = JNT_OK;
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
            b->rayleigh(o->t, &al, &be, user);
        for (int j = 0; j < b->n; j++)
            for (int i = 0; i < b->n; i++) {
                size_t g = (size_t)(b->off + i) + (size_t)N * (b->off + j);
                size_t l = i + (size_t)b->n * j;
                w.M[g] = b->M[l];
                w.K[g] = b->K[l];
                w.C[g] = o->no_damping ? 0 : (b->C ? b->C[l] : 0) + al * b->M[l] + be * b->K[l];
            }
    }
    /* Slaves in contact on the frozen (basic) geometry, their rows. */
    xr[2 * moved] = p * dir[0];
    xr[2 * moved + 1] = p * dir[1];
    int na = 0;
    for (int k = 0; k < nc; k++) {
        int fi = m->contact_iface[k];
        const slide_miface *f = &m->iface[fi];
        slide_geometry(m, k, xr, NULL, 0, 0, -1, &geo[k]);
        double gt = o->gap_tol > 0 ? o->gap_tol : 1e-6 * f->lseg;
        if (geo[k].off || geo[k].gap > gt)
            continue;
        double sv = moved == f->slave_sub ? 1 : moved == f->master_sub ? -1 : 0;
        double vt = sv * (dir[0] * geo[k].t[0] + dir[1] * geo[k].t[1]);
        double chi = vt > 1e-12 ? 1 : vt < -1e-12 ? -1 : 0;
        double mu = slide_mu(m, fi, o->t, o->speed, user);
        for (int j = 0; j < 6; j++)
            cE[6 * k + j] = geo[k].cN[j] - chi * mu * geo[k].cT[j];
        for (int j = 0; j < 6; j++) {
            add_port_row(m, geo[k].p[j], geo[k].cN[j], w.Nr + na, nc);
            add_port_row(m, geo[k].p[j], cE[6 * k + j], w.Er + na, nc);
            add_port_y(m, geo[k].p[j], geo[k].cN[j], w.YN + (size_t)N * na);
        }
        act[na++] = k;
    }
    if (ncontact)
        *ncontact = na;
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
                          p, na);
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
                                                    geo[act[j]].p, cE + 6 * act[j]);
        if (LAPACKE_dgetrf(LAPACK_COL_MAJOR, na, na, w.Wm, na, w.ipiv) != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                          "slide_modes_at: at position %g the contact matrix is singular", p);
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
    MALLOC(w.modes, n2);
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
        lapack_int info = LAPACKE_dggev(LAPACK_COL_MAJOR, 'N', 'N', n2, w.A, n2, w.B, n2, w.ar,
                                        w.ai, w.be, NULL, 1, NULL, 1);
        if (info != 0) {
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "slide_modes_at: dggev failed (info %d)",
                          (int)info);
            goto done;
        }
    }
    /* Eigenvalues s = (ar + i ai) / be with Im s >= 0, ascending frequency. */
    int nm = 0;
    for (int j = 0; j < n2; j++) {
        double bb = w.be[j];
        if (!(fabs(bb) > 1e-14 * hypot(w.ar[j], w.ai[j])) || bb == 0)
            continue;
        double re = w.ar[j] / bb, im = w.ai[j] / bb;
        if (im < 0)
            continue;
        w.modes[nm].freq = im / (2 * 3.14159265358979323846);
        w.modes[nm].re = re;
        w.modes[nm].unstable = re > tol * hypot(re, im);
        nm++;
    }
    qsort(w.modes, (size_t)nm, sizeof *w.modes, cmp_mode);
    if (o->count > 0 && nm > o->count)
        nm = o->count;
    if (nm > cap)
        nm = cap;
    if (nm > 0)
        memcpy(out, w.modes, (size_t)nm * sizeof *out);
    *nout = nm;
done:
    mwork_free(&w);
    free(geo);
    free(cE);
    free(xr);
    free(act);
    return rc;
#undef MALLOC
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
    static const char *const names[] = {"position", "frequency", "real", "unstable"};
    int rc = csv_open(&cw, path, 4, err, errn);
    if (rc == 0)
        rc = csv_header(&cw, names, 4, err, errn);
    for (int k = 0; k <= steps && rc == 0; k++) {
        double p = steps ? a + (b - a) * k / steps : a;
        int n = 0;
        rc = slide_modes_at(m, user, p, o, md, cap, &n, NULL, err, errn);
        for (int j = 0; j < n && rc == 0; j++) {
            double row[4] = {p, md[j].freq, md[j].re, md[j].unstable};
            nu += md[j].unstable;
            rc = csv_row(&cw, row, 4, err, errn);
        }
    }
    int rc2 = csv_close(&cw, rc ? NULL : err, errn);
    free(md);
    if (nunstable)
        *nunstable = nu;
    return rc ? rc : rc2;
}
