/*
 * test_eigen.c: the eigensolvers of the complex mode analysis
 * (runtime/couple/slide_eig.c, slide_modes.c) on seed 003's beam on beam
 * (examples/beam_on_beam.jnt: Craig-Bampton substructures of 220 and 23
 * coordinates, one sliding contact; its locus at mu = 0.3):
 *
 *   - friction (mu = 0.3 at t = 0.18 s): the automatic choice is the modal
 *     secular equation; its eigenvalues against an independent reference,
 *     Newton's method on det [s^2 M + s C + K, E^T; N, 0] = 0 in the
 *     physical coordinates (complex LU, LAPACKE zgetrf) started from each
 *     one, within 1e-8 relative; every eigenvalue against the QZ path (the
 *     solver before this one) within the error of QZ itself, which the same
 *     reference measures;
 *   - no friction (mu = 0 at t = 0, Rayleigh damping with the same alpha,
 *     beta in both substructures): the symmetric path (dsyevd) is chosen
 *     and agrees with the secular path and the reference;
 *   - a non-symmetric case the modal solvers cannot take (a damper that
 *     is not proportional, with friction) takes QZ; forcing the secular
 *     solver there is an error;
 *   - the locus CSV names the solver of each row.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lapacke.h>

#include "check.h"
#include "csvread.h"
#include "core/data.h"
#include "core/model.h"
#include "couple/iface_slide.h"
#include "couple/slide_impl.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

/* The frozen system of one position in physical coordinates, for the
 * reference: block-diagonal M, C(t), K and the one contact's gap and force
 * rows (the same geometry and friction as slide_modes_at). */
typedef struct phys {
    int N;
    double *M, *C, *K, *nr, *er;
} phys;

static void phys_free(phys *f)
{
    free(f->M);
    free(f->C);
    free(f->K);
    free(f->nr);
    free(f->er);
}

/* 0, or -1 when the contact is not closed at p. */
static int phys_at(const slide_model *m, void *ctx, const slide_modes_opts *o, double p, phys *f)
{
    int N = m->N;
    size_t NN = (size_t)N * N;
    f->N = N;
    f->M = calloc(NN, sizeof *f->M);
    f->C = calloc(NN, sizeof *f->C);
    f->K = calloc(NN, sizeof *f->K);
    f->nr = calloc((size_t)N, sizeof *f->nr);
    f->er = calloc((size_t)N, sizeof *f->er);
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        double al = 0, be = 0;
        if (b->rayleigh)
            b->rayleigh(o->t, &al, &be, ctx);
        for (int j = 0; j < b->n; j++)
            for (int i = 0; i < b->n; i++) {
                size_t g = (size_t)(b->off + i) + (size_t)N * (b->off + j);
                size_t l = i + (size_t)b->n * j;
                f->M[g] = b->M[l];
                f->K[g] = b->K[l];
                f->C[g] = (b->C ? b->C[l] : 0) + al * b->M[l] + be * b->K[l];
            }
    }
    int moved = o->moved - 1, fi = m->contact_iface[0];
    double xr[16] = {0};
    xr[2 * moved] = p;
    slide_geo g;
    slide_geometry(m, 0, xr, NULL, 0, 0, -1, &g);
    if (g.off || g.gap > 1e-6 * m->iface[fi].lseg)
        return -1;
    double chi = g.t[0] > 1e-12 ? 1 : g.t[0] < -1e-12 ? -1 : 0;
    double mu = slide_mu(m, fi, o->t, o->speed, ctx);
    for (int j = 0; j < 6; j++) {
        const slide_port *pt = &m->port[g.p[j]];
        if (pt->kind == PORT_FIXED)
            continue;
        const slide_msub *b = &m->sub[pt->sub];
        csr_row_axpy(&b->R, pt->row, g.cN[j], f->nr + b->off);
        csr_row_axpy(&b->R, pt->row, g.cN[j] - chi * mu * g.cT[j], f->er + b->off);
    }
    return 0;
}

/* Newton's method on det T(s), T = [s^2 M + s C + K, E^T; N, 0]: the step
 * is 1 / trace(T^-1 T'). `iters` steps from *s; returns the last step's
 * size relative to |s|. */
static double ref_newton(const phys *f, double complex *s, int iters)
{
    int N = f->N, n = N + 1;
    double complex *T = malloc((size_t)n * n * sizeof *T), *D = malloc((size_t)n * n * sizeof *D);
    lapack_int *ipiv = malloc((size_t)n * sizeof *ipiv);
    double last = INFINITY;
    for (int it = 0; it < iters; it++) {
        double complex z = *s;
        memset(T, 0, (size_t)n * n * sizeof *T);
        memset(D, 0, (size_t)n * n * sizeof *D);
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) {
                size_t a = (size_t)i + (size_t)n * j, b = (size_t)i + (size_t)N * j;
                T[a] = z * z * f->M[b] + z * f->C[b] + f->K[b];
                D[a] = 2 * z * f->M[b] + f->C[b];
            }
        for (int i = 0; i < N; i++) {
            T[i + (size_t)n * N] = f->er[i];
            T[N + (size_t)n * i] = f->nr[i];
        }
        if (LAPACKE_zgetrf(LAPACK_COL_MAJOR, n, n, T, n, ipiv) != 0 ||
            LAPACKE_zgetrs(LAPACK_COL_MAJOR, 'N', n, n, T, n, ipiv, D, n) != 0)
            break;
        double complex tr = 0;
        for (int i = 0; i < n; i++)
            tr += D[i + (size_t)n * i];
        double complex step = 1 / tr;
        *s = z - step;
        last = cabs(step) / cabs(*s);
    }
    free(T);
    free(D);
    free(ipiv);
    return last;
}

/* The modes at p with the solver `solver` (0: choose): their count, the
 * solver used in *used. */
static int modes(const slide_model *m, void *ctx, slide_modes_opts o, double p, int solver,
                 slide_mode *md, int cap, int *used)
{
    char err[256] = "";
    int n = 0;
    o.solver = solver;
    *used = -1;
    if (slide_modes_at(m, ctx, p, &o, md, cap, &n, NULL, used, err, sizeof err) != JNT_OK) {
        printf("INFO: slide_modes_at(%g, %s): %s\n", p, slide_eig_name(solver), err);
        return -1;
    }
    return n;
}

static double complex s_of(const slide_mode *x)
{
    return x->re + I * 2 * PI * x->freq;
}

/* The largest relative distance from each mode of a to the nearest of b. */
static double set_diff(const slide_mode *a, int na, const slide_mode *b, int nb)
{
    double worst = na == nb ? 0 : INFINITY;
    for (int i = 0; i < na && worst < INFINITY; i++) {
        double best = INFINITY;
        for (int j = 0; j < nb; j++)
            best = fmin(best, cabs(s_of(&a[i]) - s_of(&b[j])));
        worst = fmax(worst, best / cabs(s_of(&a[i])));
    }
    return worst;
}

/* Index of the mode nearest frequency f (Hz). */
static int nearest(const slide_mode *md, int n, double f)
{
    int k = 0;
    for (int i = 1; i < n; i++)
        if (fabs(md[i].freq - f) < fabs(md[k].freq - f))
            k = i;
    return k;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Friction (mu = 0.3) and no friction (mu = 0) on the beam on beam. */
static void test_beam_on_beam(void)
{
    jnt_model *jm = NULL;
    char err[256] = "";
    CHECK(jnt_compile_file("examples/beam_on_beam.jnt", NULL, &jm) == JNT_OK,
          "beam_on_beam compiles");
    if (!jm)
        return;
    jnt_data *d = jnt_data_new(jm);
    slide_model *sm = NULL;
    int rc = jnt_init_state(jm, d);
    if (rc == JNT_OK)
        rc = iface_model(jm, d->p, 0.35e-6, &sm, err, sizeof err);
    void *ctx = rc == JNT_OK ? iface_modes_ctx(jm, d->p) : NULL;
    CHECK(rc == JNT_OK && ctx, "beam_on_beam: the slide model (%s)", err);
    if (!ctx) {
        slide_model_free(sm);
        jnt_data_free(d);
        jnt_model_free(jm);
        return;
    }
    int cap = 2 * sm->N, slave = jm->abi->ifaces[0].slave;
    slide_mode *ma = malloc((size_t)cap * sizeof *ma), *mq = malloc((size_t)cap * sizeof *mq);
    slide_mode *ms = malloc((size_t)cap * sizeof *ms);
    /* the example's locus: mu and damping at until = 0.18 s, C - s0 from -36 to 44 mm */
    slide_modes_opts o = {.moved = 1 + slave, .t = 0.18, .unstable_tol = 1e-4};
    static const double pos[] = {-0.036, 0.0025, 0.012};
    double worst_ref = 0, worst_qz_ref = 0, worst_qz = 0, t_sec = 0, t_qz = 0;
    int all_secular = 1, nref = 0;
    for (int k = 0; k < 3; k++) {
        int ua = -1, uq = -1;
        double t0 = now();
        int na = modes(sm, ctx, o, pos[k], SLIDE_EIG_AUTO, ma, cap, &ua);
        double t1 = now();
        int nq = modes(sm, ctx, o, pos[k], SLIDE_EIG_QZ, mq, cap, &uq);
        t_sec += t1 - t0;
        t_qz += now() - t1;
        all_secular &= ua == SLIDE_EIG_SECULAR && uq == SLIDE_EIG_QZ && na == sm->N - 1;
        worst_qz = fmax(worst_qz, set_diff(ma, na, mq, nq));
        phys f;
        if (na <= 0 || phys_at(sm, ctx, &o, pos[k], &f) != 0) {
            all_secular = 0;
            continue;
        }
        /* the lowest four, the cantilever's second axial mode, one near 46 kHz, the highest */
        int pick[7] = {0, 1, 2, 3, nearest(ma, na, 10570), nearest(ma, na, 45900), na - 1};
        for (int i = 0; i < 7; i++) {
            double complex s = s_of(&ma[pick[i]]), z = s;
            ref_newton(&f, &z, 3);
            double e = cabs(s - z) / cabs(z);
            worst_ref = fmax(worst_ref, e);
            double bq = INFINITY;
            for (int j = 0; j < nq; j++)
                bq = fmin(bq, cabs(s_of(&mq[j]) - z) / cabs(z));
            worst_qz_ref = fmax(worst_qz_ref, bq);
            nref++;
            printf("INFO: p = %6.4f m, f = %9.2f Hz: secular - reference %.2e, QZ - reference "
                   "%.2e (relative to |s|)\n", pos[k], cimag(z) / (2 * PI), e, bq);
        }
        phys_free(&f);
    }
    CHECK(all_secular, "mu = 0.3: the secular path is chosen at the 3 positions (%d modes "
          "each), QZ when asked for", sm->N - 1);
    CHECK(nref == 21 && worst_ref <= 1e-8, "mu = 0.3: secular eigenvalues = Newton on det [s^2 M "
          "+ s C + K, E^T; N, 0] in physical coordinates (%d roots, worst %.2e relative, "
          "tol 1e-8)", nref, worst_ref);
    /* QZ on the unscaled first-order pencil (|K| ~ 1e12 next to I) is off by up
     * to ~1e-3 of |s| (measured against the reference): that is the difference */
    CHECK(worst_qz <= 2e-3, "mu = 0.3: every eigenvalue = QZ's within QZ's own error (worst "
          "%.2e; QZ against the reference up to %.2e)", worst_qz, worst_qz_ref);
    printf("INFO: 3 positions: secular %.3f s, QZ %.3f s\n", t_sec, t_qz);

    /* no friction: mu = 0.3 smoothstep(t, 0, 0.1 s) is 0 at t = 0; the
     * damping of both substructures is then 40 M + 4e-8 K */
    o.t = 0;
    int ua = -1, us = -1, uq = -1;
    double p0 = 0.0025;
    int na = modes(sm, ctx, o, p0, SLIDE_EIG_AUTO, ma, cap, &ua);
    int ns = modes(sm, ctx, o, p0, SLIDE_EIG_SECULAR, ms, cap, &us);
    int nq = modes(sm, ctx, o, p0, SLIDE_EIG_QZ, mq, cap, &uq);
    double dsec = set_diff(ma, na, ms, ns), dqz = set_diff(ma, na, mq, nq), wref = 0;
    phys f;
    if (na > 0 && phys_at(sm, ctx, &o, p0, &f) == 0) {
        int pick[4] = {0, 1, nearest(ma, na, 10570), na - 1};
        for (int i = 0; i < 4; i++) {
            double complex s = s_of(&ma[pick[i]]), z = s;
            ref_newton(&f, &z, 3);
            wref = fmax(wref, cabs(s - z) / cabs(z));
        }
        phys_free(&f);
    } else {
        wref = INFINITY;
    }
    CHECK(ua == SLIDE_EIG_SYM && us == SLIDE_EIG_SECULAR && na == sm->N - 1,
          "mu = 0: the symmetric path is chosen (%s)", slide_eig_name(ua));
    CHECK(dsec <= 1e-8 && wref <= 1e-8, "mu = 0: symmetric = secular (%.2e) = reference (%.2e), "
          "tol 1e-8", dsec, wref);
    CHECK(dqz <= 2e-3, "mu = 0: symmetric = QZ within QZ's error (%.2e)", dqz);

    /* the locus analysis of the example: 41 positions, the solver column */
    double t0 = now();
    const char *dir = getenv("JNT_TEST_OUT");
    rc = jnt_run_analyses(jm, d, dir && *dir ? dir : "build/tests");
    double tl = now() - t0;
    csv_table t;
    int ok = rc == JNT_OK && csv_load(test_out("locus.csv"), &t) == 0;
    const double *sv = ok ? csv_col(&t, "solver") : NULL;
    int nsec = 0;
    for (int i = 0; sv && i < t.nrow; i++)
        nsec += sv[i] == SLIDE_EIG_SECULAR;
    CHECK(ok && sv && nsec == t.nrow && t.nrow == 41 * (sm->N - 1),
          "the example's locus: %d rows, all by the secular path (%d)", ok ? t.nrow : 0, nsec);
    printf("INFO: the example's locus (41 positions): %.3f s\n", tl);
    if (ok)
        csv_free(&t);
    free(ma);
    free(mq);
    free(ms);
    iface_modes_ctx_free(ctx);
    slide_model_free(sm);
    jnt_data_free(d);
    jnt_model_free(jm);
}

/* A mass on a spring pressed on a flat master, a second mass hung on it
 * with a damper that is not proportional: the modal solvers do not apply,
 * QZ does (and gives the eigenvalues of the 2-DOF constrained system). */
static void test_not_classical(void)
{
    /* coordinates x1, y1, x2 (mass 2 on a spring and a damper along x) */
    double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 2};
    double K[9] = {1500, 0, -500, 0, 800, 0, -500, 0, 500};
    double C[9] = {0, 0, 0, 0, 0, 0, 0, 0, 3}; /* a damper on x2 only */
    slide_sub sub = {.n = 3, .M = M, .K = K, .C = C};
    slide_node sn, gn[2];
    memset(&sn, 0, sizeof sn);
    memset(gn, 0, sizeof gn);
    sn.dof[0] = 0, sn.dof[1] = 1;
    gn[0].X[0] = -1, gn[1].X[0] = 1;
    gn[0].dof[0] = gn[0].dof[1] = gn[1].dof[0] = gn[1].dof[1] = -1;
    slide_iface f;
    slide_iface_init(&f);
    f.slave_sub = 0, f.master_sub = -1, f.nslave = 1, f.slave = &sn, f.nmaster = 2, f.master = gn;
    f.mu = 0.4;
    slide_def def = {.nsub = 1, .sub = &sub, .niface = 1, .iface = &f, .h = 1e-4};
    slide_model *mo = NULL;
    char err[256] = "";
    CHECK(slide_model_new(&def, &mo, err, sizeof err) == JNT_OK, "3-DOF model (%s)", err);
    if (!mo)
        return;
    slide_modes_opts o = {0};
    slide_mode md[8];
    int n = 0, used = -1;
    int rc = slide_modes_at(mo, NULL, 0.0, &o, md, 8, &n, NULL, &used, err, sizeof err);
    /* constrained (y1 = 0): M' = diag(1, 2), K' = [1500 -500; -500 500] with the
     * friction force -mu lambda on x1, lambda = 0 here (no load): the pencil
     * det(s^2 M' + s C' + K') = 0, C' = diag(0, 3) */
    double complex want[2];
    int nw = 0;
    double a4 = 2, a3 = 3, a2 = 1500 * 2 + 500 * 1, a1 = 1500 * 3, a0 = 1500 * 500 - 500 * 500;
    /* the quartic's roots with Im > 0 by Newton from the undamped ones */
    double w[2], pb = -(a2 / a4), pc = a0 / a4;
    w[0] = sqrt(0.5 * (-pb - sqrt(pb * pb - 4 * pc)));
    w[1] = sqrt(0.5 * (-pb + sqrt(pb * pb - 4 * pc)));
    for (int k = 0; k < 2; k++) {
        double complex z = I * w[k];
        for (int it = 0; it < 50; it++) {
            double complex pz = (((a4 * z + a3) * z + a2) * z + a1) * z + a0;
            double complex dz = ((4 * a4 * z + 3 * a3) * z + 2 * a2) * z + a1;
            z -= pz / dz;
        }
        want[nw++] = z;
    }
    double worst = rc == JNT_OK && n == 2 ? 0 : INFINITY;
    for (int k = 0; k < 2 && worst < INFINITY; k++) {
        double best = INFINITY;
        for (int j = 0; j < n; j++)
            best = fmin(best, cabs(s_of(&md[j]) - want[k]) / cabs(want[k]));
        worst = fmax(worst, best);
    }
    CHECK(rc == JNT_OK && used == SLIDE_EIG_QZ, "a damper that is not proportional: QZ (%s)",
          rc == JNT_OK ? slide_eig_name(used) : err);
    CHECK(worst <= 1e-10, "QZ: the roots of det(s^2 M' + s C' + K') (%d modes, worst %.2e)", n,
          worst);
    o.solver = SLIDE_EIG_SECULAR;
    rc = slide_modes_at(mo, NULL, 0.0, &o, md, 8, &n, NULL, &used, err, sizeof err);
    CHECK(rc == JNT_ERR_USAGE && strstr(err, "does not apply"),
          "forcing the secular solver there: an error (%s)", err);
    slide_model_free(mo);
}

int main(void)
{
    test_not_classical();
    test_beam_on_beam();
    return check_done();
}
