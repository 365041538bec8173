/*
 * rods.h: hand-written ABI models of planar rods in absolute coordinates,
 * for the tests of the multibody integrators (test_dae.c, test_radau5.c):
 * per body q = (x, y, theta) of its centre, revolute joints (2 rows: the
 * markers coincide) and coordinate locks q_i = c0 + c1 t (1 row: a drive or
 * a slider's guide), their kernels, runs and trajectories. Static functions
 * of a test program's own: include it once.
 */
#ifndef JNT_TEST_RODS_H
#define JNT_TEST_RODS_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846
#define MAXB 3
#define MAXJ 6
#define MAXY (6 * MAXB + 2 * MAXJ)
#define G 9.81

/* ---- a planar system of rods ------------------------------------------- */
enum { REV, LOCK };
typedef struct joint {
    const char *name;
    int kind;
    int a, b;              /* REV: bodies (-1: ground) */
    double sa[2], sb[2];   /* REV: markers in the bodies' frames (ground: world point) */
    int coord;             /* LOCK: q[coord] = c0 + c1 t */
    double c0, c1;
} joint;

typedef struct system {
    int nb, nj;
    double m[MAXB], J[MAXB];
    joint j[MAXJ];
    double q0[3 * MAXB]; /* initial positions (assembled) */
    /* filled by sys_abi */
    int nq, nc, ny;
    char *names[MAXY];
    int colptr[MAXY + 1], rowind[MAXY * MAXY], nnz;
    int mcolptr[3 * MAXB + 1], mrowind[3 * MAXB];
} system_t;

static const system_t *cur; /* the system the kernels run */

/* parameters: t_end, h, rtol, atol, alpha, rho_inf, out_every, dx0 (an
 * offset added to q[0] at t0) */
enum { P_TEND, P_H, P_RTOL, P_ATOL, P_ALPHA, P_RHO, P_OUT, P_DX0, NP };
static const char *const p_names[NP] = {"t_end", "h",   "rtol",      "atol",
                                        "alpha", "rho", "out_every", "dx0"};
static const signed char p_dims[NP * JNT_NDIM] = {0};
static const char *const out_names[] = {"t", "E"};

static int params(double *p, const unsigned char *set)
{
    static const double def[NP] = {1.0, 1e-3, 0.0, 1e-9, 0.0, 1.0, 0.0, 0.0};
    for (int i = 0; i < NP; i++)
        if (!set[i])
            p[i] = def[i];
    return 0;
}

static int settings(const double *p, jnt_settings *s)
{
    s->t0 = 0.0;
    s->t_end = p[P_TEND];
    s->h = p[P_H];
    s->rtol = p[P_RTOL];
    s->atol = p[P_ATOL];
    s->alpha = p[P_ALPHA];
    s->rho_inf = p[P_RHO];
    s->out_every = p[P_OUT];
    return 0;
}

static int init(const double *p, double *y, double *d)
{
    (void)d;
    memset(y, 0, (size_t)cur->ny * sizeof *y);
    memcpy(y, cur->q0, (size_t)cur->nq * sizeof *y);
    y[0] += p[P_DX0];
    return 0;
}

/* A marker's world position p, R'(theta) s in dp, R(theta) s in rs. */
static void marker(const double *q, int b, const double s[2], double p[2], double dp[2],
                   double rs[2])
{
    if (b < 0) {
        p[0] = s[0], p[1] = s[1];
        dp[0] = dp[1] = rs[0] = rs[1] = 0.0;
        return;
    }
    double c = cos(q[3 * b + 2]), sn = sin(q[3 * b + 2]);
    rs[0] = c * s[0] - sn * s[1], rs[1] = sn * s[0] + c * s[1];
    dp[0] = -rs[1], dp[1] = rs[0];
    p[0] = q[3 * b] + rs[0], p[1] = q[3 * b + 1] + rs[1];
}

/* C (nc), C_q (nc x nq, row-major), C_t and gamma (nc each), and the
 * derivative of C_q^T lambda in q (nq x nq, row-major: d/dq_j of row i). */
static void constraints(double t, const double *q, const double *v, const double *lam,
                        double *C, double *Cq, double *Ct, double *gam, double *dCl)
{
    int nq = cur->nq, r = 0;
    if (Cq)
        memset(Cq, 0, (size_t)cur->nc * nq * sizeof *Cq);
    if (dCl)
        memset(dCl, 0, (size_t)nq * nq * sizeof *dCl);
    for (int k = 0; k < cur->nj; k++) {
        const joint *jt = &cur->j[k];
        if (jt->kind == LOCK) {
            if (C)
                C[r] = q[jt->coord] - jt->c0 - jt->c1 * t;
            if (Cq)
                Cq[r * nq + jt->coord] = 1.0;
            if (Ct)
                Ct[r] = -jt->c1;
            if (gam)
                gam[r] = 0.0;
            r++;
            continue;
        }
        double pa[2], da[2], ra[2], pb[2], db[2], rb[2];
        marker(q, jt->a, jt->sa, pa, da, ra);
        marker(q, jt->b, jt->sb, pb, db, rb);
        double wa = jt->a >= 0 ? v[3 * jt->a + 2] : 0.0, wb = jt->b >= 0 ? v[3 * jt->b + 2] : 0.0;
        for (int c = 0; c < 2; c++) {
            if (C)
                C[r + c] = pa[c] - pb[c];
            if (Ct)
                Ct[r + c] = 0.0;
            /* d/dt (R' s w) at w' = 0 is -R s w^2 */
            if (gam)
                gam[r + c] = -ra[c] * wa * wa + rb[c] * wb * wb;
            if (Cq && jt->a >= 0) {
                Cq[(r + c) * nq + 3 * jt->a + c] += 1.0;
                Cq[(r + c) * nq + 3 * jt->a + 2] += da[c];
            }
            if (Cq && jt->b >= 0) {
                Cq[(r + c) * nq + 3 * jt->b + c] -= 1.0;
                Cq[(r + c) * nq + 3 * jt->b + 2] -= db[c];
            }
        }
        /* (C_q^T lambda)_theta = (R' s) . lambda; its theta derivative -(R s) . lambda */
        if (dCl && jt->a >= 0)
            dCl[(3 * jt->a + 2) * nq + 3 * jt->a + 2] -= ra[0] * lam[r] + ra[1] * lam[r + 1];
        if (dCl && jt->b >= 0)
            dCl[(3 * jt->b + 2) * nq + 3 * jt->b + 2] += rb[0] * lam[r] + rb[1] * lam[r + 1];
        r += 2;
    }
}

/* rows: v | Q - C_q^T lambda | C */
static int rhs(double t, const double *y, const double *u, const double *d, const double *p,
               double *f)
{
    (void)u, (void)d, (void)p;
    int nq = cur->nq, nc = cur->nc;
    double Cq[MAXJ * 2 * 3 * MAXB];
    const double *lam = y + 2 * nq;
    constraints(t, y, y + nq, lam, f + 2 * nq, Cq, NULL, NULL, NULL);
    for (int i = 0; i < nq; i++) {
        f[i] = y[nq + i];
        double qf = i % 3 == 1 ? -cur->m[i / 3] * G : 0.0;
        for (int k = 0; k < nc; k++)
            qf -= Cq[k * nq + i] * lam[k];
        f[nq + i] = qf;
    }
    return 0;
}

/* The dense Jacobian (ny x ny, column-major). */
static void jac_dense(double t, const double *y, double *J)
{
    int nq = cur->nq, nc = cur->nc, ny = cur->ny;
    double Cq[MAXJ * 2 * 3 * MAXB], dCl[9 * MAXB * MAXB];
    memset(J, 0, (size_t)ny * ny * sizeof *J);
    constraints(t, y, y + nq, y + 2 * nq, NULL, Cq, NULL, NULL, dCl);
    for (int i = 0; i < nq; i++) {
        J[(size_t)(nq + i) * ny + i] = 1.0;
        for (int j = 0; j < nq; j++)
            J[(size_t)j * ny + nq + i] = -dCl[i * nq + j];
        for (int k = 0; k < nc; k++) {
            J[(size_t)(2 * nq + k) * ny + nq + i] = -Cq[k * nq + i];
            J[(size_t)i * ny + 2 * nq + k] = Cq[k * nq + i];
        }
    }
}

static int jac(double t, const double *y, const double *u, const double *d, const double *p,
               double *jv)
{
    (void)u, (void)d, (void)p;
    double J[MAXY * MAXY];
    jac_dense(t, y, J);
    for (int c = 0; c < cur->ny; c++)
        for (int e = cur->colptr[c]; e < cur->colptr[c + 1]; e++)
            jv[e] = J[(size_t)c * cur->ny + cur->rowind[e]];
    return 0;
}

static int mass(double t, const double *y, const double *u, const double *d, const double *p,
                double *out)
{
    (void)t, (void)y, (void)u, (void)d, (void)p;
    for (int b = 0; b < cur->nb; b++)
        out[3 * b] = out[3 * b + 1] = cur->m[b], out[3 * b + 2] = cur->J[b];
    return 0;
}

/* C_t, gamma, and C_q v + C_t (jnt/abi.h) */
static int cons_rates(double t, const double *y, const double *u, const double *d,
                      const double *p, double *out)
{
    (void)u, (void)d, (void)p;
    int nq = cur->nq, nc = cur->nc;
    double Cq[MAXJ * 2 * 3 * MAXB];
    constraints(t, y, y + nq, NULL, NULL, Cq, out, out + nc, NULL);
    for (int k = 0; k < nc; k++) {
        out[2 * nc + k] = out[k];
        for (int i = 0; i < nq; i++)
            out[2 * nc + k] += Cq[k * nq + i] * y[nq + i];
    }
    return 0;
}

static double energy(const double *y)
{
    int nq = cur->nq;
    double e = 0.0;
    for (int b = 0; b < cur->nb; b++) {
        const double *v = y + nq + 3 * b;
        e += 0.5 * cur->m[b] * (v[0] * v[0] + v[1] * v[1]) + 0.5 * cur->J[b] * v[2] * v[2] +
             cur->m[b] * G * y[3 * b + 1];
    }
    return e;
}

/* ---- the trace: every output row's t and y ------------------------------ */
static double *tr;
static int trn, trcap;

static int output(double t, const double *y, const double *u, const double *d, const double *p,
                  double *o)
{
    (void)u, (void)d, (void)p;
    o[0] = t;
    o[1] = energy(y);
    if (trn == trcap) {
        trcap = trcap ? 2 * trcap : 4096;
        tr = realloc(tr, (size_t)trcap * (1 + MAXY) * sizeof *tr);
    }
    tr[(size_t)trn * (1 + MAXY)] = t;
    memcpy(tr + (size_t)trn * (1 + MAXY) + 1, y, (size_t)cur->ny * sizeof *y);
    trn++;
    return 0;
}

static double tr_t(int k)
{
    return tr[(size_t)k * (1 + MAXY)];
}
static const double *tr_y(int k)
{
    return tr + (size_t)k * (1 + MAXY) + 1;
}

/* The ABI table of system s: names, the Jacobian's pattern (the nonzeros of
 * the dense Jacobian at a generic state), M's diagonal pattern. */
static jnt_abi_model sys_abi(system_t *s, const char *name)
{
    s->nq = 3 * s->nb;
    s->nc = 0;
    for (int k = 0; k < s->nj; k++)
        s->nc += s->j[k].kind == REV ? 2 : 1;
    s->ny = 2 * s->nq + s->nc;
    static const char *const qn[3] = {"x", "y", "theta"};
    char buf[64];
    for (int i = 0; i < s->nq; i++) {
        snprintf(buf, sizeof buf, "body%d.%s", i / 3 + 1, qn[i % 3]);
        s->names[i] = strdup(buf);
        snprintf(buf, sizeof buf, "body%d.%s.v", i / 3 + 1, qn[i % 3]);
        s->names[s->nq + i] = strdup(buf);
    }
    for (int k = 0, r = 2 * s->nq; k < s->nj; k++) {
        for (int c = 0; c < (s->j[k].kind == REV ? 2 : 1); c++) {
            snprintf(buf, sizeof buf, "%s.%s", s->j[k].name,
                     s->j[k].kind == REV ? (c ? "y" : "x") : "q");
            s->names[r++] = strdup(buf);
        }
    }
    cur = s;
    double y[MAXY] = {0}, J[MAXY * MAXY];
    for (int i = 0; i < s->ny; i++)
        y[i] = 0.3 + 0.17 * i;
    jac_dense(0.1, y, J);
    s->nnz = 0;
    for (int c = 0; c < s->ny; c++) {
        s->colptr[c] = s->nnz;
        for (int r = 0; r < s->ny; r++)
            if (J[(size_t)c * s->ny + r] != 0.0)
                s->rowind[s->nnz++] = r;
    }
    s->colptr[s->ny] = s->nnz;
    for (int i = 0; i <= s->nq; i++)
        s->mcolptr[i] = i;
    for (int i = 0; i < s->nq; i++)
        s->mrowind[i] = i;
    jnt_abi_model a = {
        .abi_version = JNT_ABI_VERSION, .name = name, .source = "test", .integrator = "hht",
        .ny = s->ny, .np = NP, .nout = 2, .y_names = (const char *const *)s->names,
        .p_names = p_names, .out_names = out_names, .p_dims = p_dims, .jac_nnz = s->nnz,
        .jac_colptr = s->colptr, .jac_rowind = s->rowind, .params = params,
        .settings = settings, .init = init, .rhs = rhs, .jac = jac, .output = output,
        .nq = s->nq, .nc = s->nc, .mass_const = 1, .mass_nnz = s->nq,
        .mass_colptr = s->mcolptr, .mass_rowind = s->mrowind, .mass = mass,
        .cons_rates = cons_rates,
    };
    return a;
}

static void sys_free(system_t *s)
{
    for (int i = 0; i < s->ny; i++)
        free(s->names[i]);
}

/* One run of system s (abi a) with the integrator and parameters given
 * (name=value pairs, NULL-terminated). Returns the status; the trace holds
 * the output rows; *stats and the error message are copied out. */
static int run(system_t *s, const jnt_abi_model *a, const char *integ, jnt_stats *stats,
               char *err, size_t errn, ...)
{
    jnt_model *m = NULL;
    cur = s;
    trn = 0;
    if (jnt_model_from_abi(a, NULL, &m) != JNT_OK)
        return -100;
    jnt_data *d = jnt_data_new(m);
    va_list ap;
    va_start(ap, errn);
    for (const char *n; (n = va_arg(ap, const char *));)
        jnt_set_param(m, d, n, va_arg(ap, double));
    va_end(ap);
    jnt_run_opts o;
    memset(&o, 0, sizeof o);
    o.csv_path = "";
    o.integrator = integ;
    int rc = jnt_run(m, d, &o);
    if (stats)
        *stats = *jnt_data_stats(d);
    if (err)
        snprintf(err, errn, "%s", jnt_data_error(d));
    jnt_data_free(d);
    jnt_model_free(m);
    return rc;
}

/* ---- the pendulum: a rod of length L = 1 m, m = 1 kg, J = m L^2/12 about
 * its centre, pinned at the origin at one end; theta = 0 hanging down ---- */
#define L_ROD 1.0
#define TH0 (170.0 * PI / 180.0)
static const double I_O = 1.0 / 12.0 + 0.25; /* J + m (L/2)^2 */

static system_t pendulum(int twice)
{
    system_t s;
    memset(&s, 0, sizeof s);
    s.nb = 1;
    s.m[0] = 1.0, s.J[0] = 1.0 / 12.0;
    joint pin = {"pin", REV, 0, -1, {0.0, L_ROD / 2}, {0.0, 0.0}, 0, 0, 0};
    s.j[s.nj++] = pin;
    if (twice) {
        pin.name = "pin2";
        s.j[s.nj++] = pin;
    }
    s.q0[0] = L_ROD / 2 * sin(TH0), s.q0[1] = -L_ROD / 2 * cos(TH0), s.q0[2] = TH0;
    return s;
}

/* theta'' of the pendulum: I_O theta'' = -m g (L/2) sin(theta) */
static double pend_acc(double th)
{
    return -G * L_ROD / 2 * sin(th) / I_O;
}

/* The time of the first fall of omega through 0 from above after t > 0
 * (one period after a release at rest), by the cubic Hermite on omega with
 * omega' from the equation of motion; -1 when none. */
static double first_max_time(void)
{
    for (int k = 1; k + 1 < trn; k++) {
        double w0 = tr_y(k)[5], w1 = tr_y(k + 1)[5];
        if (!(w0 > 0 && w1 <= 0))
            continue;
        double t0 = tr_t(k), h = tr_t(k + 1) - t0;
        double a0 = pend_acc(tr_y(k)[2]) * h, a1 = pend_acc(tr_y(k + 1)[2]) * h;
        double lo = 0, hi = 1;
        for (int i = 0; i < 100; i++) {
            double th = 0.5 * (lo + hi), u = 1 - th;
            double w = (1 + 2 * th) * u * u * w0 + th * u * u * a0 + th * th * (3 - 2 * th) * w1 -
                       th * th * u * a1;
            if (w > 0)
                lo = th;
            else
                hi = th;
        }
        return t0 + 0.5 * (lo + hi) * h;
    }
    return -1;
}

#endif
