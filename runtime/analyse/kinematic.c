/*
 * kinematic.c: the kinematic analysis (`analysis NAME : kinematic(from,
 * to, every)`) of a multibody model whose every degree of freedom is
 * driven: as many constraint rows (joints, drives, the bodies' own) as
 * coordinates, so that the constraints alone fix the motion (Haug,
 * Computer-Aided Kinematics and Dynamics of Mechanical Systems, 1989,
 * Sect. 3.6 "kinematic analysis" and Sect. 6.3 "inverse dynamics"). At
 * each time t of the grid, with C_q square (nq x nq):
 *   q:       Newton on C(q, t) = 0:  C_q dq = -C, from the previous time's
 *            q + h v + h^2 a / 2 (the initial values at the first);
 *   v:       C_q v = -C_t;
 *   a:       C_q a = -gamma, gamma = d/dt (C_q v + C_t) at q'' = 0
 *            (cons_rates, abi.h);
 *   lambda:  M a = Q - C_q^T lambda (the rhs kernel's rows of v), by
 *            Newton on lambda: (Q_lambda - C_q^T) dlambda = M a - F(lambda),
 *            one step when Q does not depend on lambda (joint friction).
 * The kernels are the model's own (core/eval.h: rhs for C and F, its
 * Jacobian for C_q and F_lambda, mass, cons_rates); the solves are dense
 * LAPACK LU (mechanisms are small). The table goes through the project's
 * writer (io/csv.h): t, q, v (the states' names), a (q's names + ".a"),
 * lambda (the states' names), then the model's output columns evaluated at
 * that state (so a joint's `torque`, `fx` are the reactions of inverse
 * dynamics, with the joints' sign: the force on the first marker's body,
 * -lambda).
 */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyse/kinematic.h"
#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "io/csv.h"

#define KIN_NEWTON_MAXIT 50
#define KIN_TOL 1e-14      /* Newton's |dq| (1 + |q|) and |dlambda| (1 + |lambda|) */
#define KIN_RCOND 1e-12    /* C_q with a smaller reciprocal condition number: singular */
#define KIN_MAX_ROWS 10000000L
#define KIN_DEFAULT_STEPS 100

/* A run's scratch and its analysis. */
typedef struct kin_work {
    const jnt_model *m;
    jnt_data *e;              /* the data the kernels run on */
    const jnt_abi_analysis *an;
    int nq, nc, ny;
    double *y, *f, *J, *A, *mv, *cr, *b, *a, *row, *out;
    lapack_int *piv;
} kin_work;

/* The largest magnitude of n values. */
static double amax(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s = fmax(s, fabs(x[i]));
    return s;
}

/* A failure of the analysis at time t, its message in w->e. */
static int kin_fail(kin_work *w, int status, double t, const char *what)
{
    return data_error(w->e, status, "analysis '%s' (kinematic): at t = %.6g s %s", w->an->name,
                      t, what);
}

/* rhs (into w->f) and dense Jacobian (w->J) at (t, w->y). */
static int kin_eval(kin_work *w, double t)
{
    int rc = eval_rhs(w->m, w->e, t, w->y, w->f);
    if (rc != 0)
        return kin_fail(w, JNT_ERR_KERNEL, t, "the rhs kernel failed");
    for (int i = 0; i < w->ny; i++)
        if (!isfinite(w->f[i])) {
            char msg[256];
            snprintf(msg, sizeof msg, "the row of '%s' is not finite",
                     w->m->abi->y_names[i] ? w->m->abi->y_names[i] : "?");
            return kin_fail(w, JNT_ERR_NONFINITE, t, msg);
        }
    int bad = 0;
    double badv = 0.0;
    rc = eval_jac(w->m, w->e, t, w->y, w->J, &bad, &badv);
    if (rc != 0)
        return kin_fail(w, rc == EVAL_NONFINITE ? JNT_ERR_NONFINITE : JNT_ERR_KERNEL, t,
                        "the jacobian kernel failed");
    return 0;
}

/* Copy the block of J with rows r0.. and columns c0.. (nq x nq) into w->A
 * and factorise it; a singular or nearly singular C_q is an error naming
 * the state of column c0 + k, k its smallest pivot. */
static int kin_factor(kin_work *w, double t, int r0, int c0)
{
    int n = w->nq, ny = w->ny;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            w->A[(size_t)j * n + i] = w->J[(size_t)(c0 + j) * ny + (size_t)(r0 + i)];
    double anorm = 0.0;
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += fabs(w->A[(size_t)j * n + i]);
        anorm = fmax(anorm, s);
    }
    lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, w->A, n, w->piv);
    double rcond = 0.0;
    if (info == 0 && LAPACKE_dgecon(LAPACK_COL_MAJOR, '1', n, w->A, n, anorm, &rcond) != 0)
        rcond = 0.0;
    if (info < 0)
        return kin_fail(w, JNT_ERR_SOLVER, t, "the LU factorisation of C_q failed");
    if (info > 0 || !(rcond >= KIN_RCOND)) {
        int k = 0;
        for (int i = 1; i < n; i++)
            if (fabs(w->A[(size_t)i * n + i]) < fabs(w->A[(size_t)k * n + k]))
                k = i;
        char msg[512];
        snprintf(msg, sizeof msg, "the constraint Jacobian C_q is singular (reciprocal "
                 "condition number %.3g, smallest pivot at '%s'): the mechanism "
                 "is at a dead point or a toggle position, where its drives do not determine "
                 "its motion", rcond, w->m->abi->y_names[c0 + k] ? w->m->abi->y_names[c0 + k] : "?");
        return kin_fail(w, JNT_ERR_MODEL, t, msg);
    }
    return 0;
}

/* Solve with the last factorisation (in place, n values); trans 'T' for
 * the transposed system. */
static int kin_solve(kin_work *w, double t, char trans, double *b)
{
    if (LAPACKE_dgetrs(LAPACK_COL_MAJOR, trans, w->nq, 1, w->A, w->nq, w->piv, b, w->nq) != 0)
        return kin_fail(w, JNT_ERR_SOLVER, t, "a solve with C_q failed");
    return 0;
}

/* The state at time t: q by Newton from w->y's q, then v, a, lambda; the
 * accelerations into w->a. */
static int kin_state(kin_work *w, double t)
{
    int nq = w->nq, nc = w->nc, c0 = 2 * nq; /* no z: the constraints follow v */
    double *y = w->y, *b = w->b;
    int rc;
    /* q: C_q dq = -C until |dq| <= tol (1 + |q|) */
    for (int it = 0;; it++) {
        if ((rc = kin_eval(w, t)) != 0 || (rc = kin_factor(w, t, c0, 0)) != 0)
            return rc;
        for (int k = 0; k < nc; k++)
            b[k] = -w->f[c0 + k];
        if ((rc = kin_solve(w, t, 'N', b)) != 0)
            return rc;
        for (int i = 0; i < nq; i++)
            y[i] += b[i];
        if (amax(b, nq) <= KIN_TOL * (1.0 + amax(y, nq)))
            break;
        if (it == KIN_NEWTON_MAXIT) {
            char msg[256];
            snprintf(msg, sizeof msg, "the constraints cannot be solved: |C| = %.3g after %d "
                     "Newton iterations (do the drives ask for a position the mechanism cannot "
                     "reach?)", amax(w->f + c0, nc), KIN_NEWTON_MAXIT);
            return kin_fail(w, JNT_ERR_NEWTON, t, msg);
        }
    }
    /* C_q, C_t at the converged q (v and lambda do not enter C) */
    if ((rc = kin_eval(w, t)) != 0 || (rc = kin_factor(w, t, c0, 0)) != 0)
        return rc;
    if (eval_cons_rates(w->m, w->e, t, y, w->cr) != 0)
        return kin_fail(w, JNT_ERR_KERNEL, t, "the constraint-rates kernel failed");
    /* v: C_q v = -C_t */
    for (int k = 0; k < nc; k++)
        y[nq + k] = -w->cr[k];
    if ((rc = kin_solve(w, t, 'N', y + nq)) != 0)
        return rc;
    /* a: C_q a = -gamma (gamma at the new v) */
    if (eval_cons_rates(w->m, w->e, t, y, w->cr) != 0)
        return kin_fail(w, JNT_ERR_KERNEL, t, "the constraint-rates kernel failed");
    for (int k = 0; k < nc; k++)
        w->a[k] = -w->cr[nc + k];
    if ((rc = kin_solve(w, t, 'N', w->a)) != 0)
        return rc;
    /* lambda: (Q_lambda - C_q^T) dlambda = M a - F(lambda), F the rhs rows of v */
    if ((rc = eval_mass(w->m, w->e, t, y, w->mv)) != 0)
        return kin_fail(w, JNT_ERR_KERNEL, t, "the mass kernel failed");
    const jnt_model *m = w->m;
    double *lam = y + 2 * nq;
    for (int it = 0;; it++) {
        if ((rc = kin_eval(w, t)) != 0 || (rc = kin_factor(w, t, nq, c0)) != 0)
            return rc;
        memset(b, 0, (size_t)nq * sizeof *b);
        for (int j = 0; j < nq; j++)
            for (int k = m->mcolptr[j]; k < m->mcolptr[j + 1]; k++)
                b[m->mrowind[k]] += w->mv[k] * w->a[j];
        for (int i = 0; i < nq; i++)
            b[i] -= w->f[nq + i];
        if ((rc = kin_solve(w, t, 'N', b)) != 0)
            return rc;
        for (int k = 0; k < nc; k++)
            lam[k] += b[k];
        if (amax(b, nc) <= KIN_TOL * 1e2 * (1.0 + amax(lam, nc)))
            break;
        if (it == KIN_NEWTON_MAXIT)
            return kin_fail(w, JNT_ERR_NEWTON, t, "the multipliers do not converge (the "
                            "applied forces depend on them too strongly)");
    }
    return 0;
}

/* See kinematic.h. */
int kin_run(const jnt_model *m, jnt_data *d, const jnt_abi_analysis *an, const double *v,
            const char *path)
{
    const jnt_abi_model *a = m->abi;
    int nq = a->nq, nc = a->nc, ny = a->ny, nout = a->nout;
    if (nq == 0 || nc != nq || ny != 2 * nq + nc || a->nblocks > 0)
        return data_error(d, JNT_ERR_MODEL, "analysis '%s' (kinematic) needs a multibody "
                          "model with every degree of freedom driven (%d coordinates, %d "
                          "constraints) and no first-order states", an->name, nq, nc);
    double from = v[0], to = v[1], every = v[2];
    if (!isfinite(from) || !isfinite(to) || !(to >= from) || !isfinite(every))
        return data_error(d, JNT_ERR_PARAM, "analysis '%s' (kinematic) needs from <= to, both "
                          "finite (got from = %g s, to = %g s)", an->name, from, to);
    if (!(every > 0.0))
        every = to > from ? (to - from) / KIN_DEFAULT_STEPS : 1.0;
    double nsteps = ceil((to - from) / every * (1.0 - 1e-12));
    if (nsteps + 1 > KIN_MAX_ROWS)
        return data_error(d, JNT_ERR_PARAM, "analysis '%s' (kinematic): %.0f rows from %g s to "
                          "%g s every %g s, more than %ld", an->name, nsteps + 1, from, to, every,
                          KIN_MAX_ROWS);
    kin_work w = {.m = m, .an = an, .nq = nq, .nc = nc, .ny = ny};
    w.e = jnt_data_new(m);
    if (!w.e)
        return data_error(d, JNT_ERR_NOMEM, "out of memory");
    memcpy(w.e->p, d->p, (size_t)a->np * sizeof *w.e->p);
    memcpy(w.e->set, d->set, (size_t)a->np * sizeof *w.e->set);
    /* the outputs but a column "t" (the table has one) */
    int *oc = malloc(((size_t)nout + 1) * sizeof *oc), no = 0;
    for (int i = 0; oc && i < nout; i++)
        if (!a->out_names[i] || strcmp(a->out_names[i], "t") != 0)
            oc[no++] = i;
    int ncol = 1 + 3 * nq + nc + no;
    size_t nn = (size_t)nq * (size_t)nq;
    double *buf = calloc(3 * (size_t)ny + (size_t)ny * ny + nn + (size_t)m->mnnz +
                         3 * (size_t)nc + 2 * (size_t)nq + (size_t)ncol + (size_t)nout + 1,
                         sizeof *buf);
    w.piv = malloc(((size_t)nq + 1) * sizeof *w.piv);
    char **names = calloc((size_t)ncol + 1, sizeof *names);
    int rc = JNT_OK;
    if (!buf || !w.piv || !names || !oc)
        rc = data_error(w.e, JNT_ERR_NOMEM, "out of memory");
    if (rc == JNT_OK) {
        double *p = buf;
        w.y = p, p += ny;
        w.f = p, p += ny;
        w.J = p, p += (size_t)ny * ny;
        w.A = p, p += nn;
        w.mv = p, p += m->mnnz;
        w.cr = p, p += 3 * (size_t)nc;
        w.b = p, p += nq;
        w.a = p, p += nq;
        w.row = p, p += ncol;
        w.out = p;
        rc = jnt_init_state(m, w.e);
    }
    /* the columns: t, q, v, a, lambda, the outputs */
    for (int i = 0; rc == JNT_OK && i < ncol; i++) {
        const char *s = i == 0 ? "t"
                        : i <= 2 * nq ? a->y_names[i - 1]
                        : i <= 3 * nq ? a->y_names[i - 1 - 2 * nq]
                        : i <= 3 * nq + nc ? a->y_names[i - 1 - nq]
                                           : a->out_names[oc[i - 1 - 3 * nq - nc]];
        size_t len = strlen(s ? s : "?") + 3;
        if (!(names[i] = malloc(len)))
            rc = data_error(w.e, JNT_ERR_NOMEM, "out of memory");
        else
            snprintf(names[i], len, "%s%s", s ? s : "?", i > 2 * nq && i <= 3 * nq ? ".a" : "");
    }
    csv_writer cw;
    memset(&cw, 0, sizeof cw);
    if (rc == JNT_OK)
        memcpy(w.y, w.e->y, (size_t)ny * sizeof *w.y);
    if (rc == JNT_OK && (rc = csv_open(&cw, path, ncol, w.e->err, sizeof w.e->err)) == JNT_OK)
        rc = csv_header(&cw, (const char *const *)names, ncol, w.e->err, sizeof w.e->err);
    double h = 0.0;
    for (long i = 0; rc == JNT_OK && i <= (long)nsteps; i++) {
        double t = i == (long)nsteps ? to : from + (double)i * every;
        /* predict q from the last time: q + h v + h^2 a / 2 */
        for (int k = 0; i > 0 && k < nq; k++)
            w.y[k] += h * w.y[nq + k] + 0.5 * h * h * w.a[k];
        if ((rc = kin_state(&w, t)) != JNT_OK)
            break;
        double *row = w.row;
        row[0] = t;
        memcpy(row + 1, w.y, 2 * (size_t)nq * sizeof *row);
        memcpy(row + 1 + 2 * nq, w.a, (size_t)nq * sizeof *row);
        memcpy(row + 1 + 3 * nq, w.y + 2 * nq, (size_t)nc * sizeof *row);
        if (nout > 0 && a->output(t, w.y, eval_gather(m, w.e, w.y), w.e->d, w.e->p, w.out) < 0) {
            rc = kin_fail(&w, JNT_ERR_KERNEL, t, "the output kernel failed");
            break;
        }
        for (int k = 0; k < no; k++)
            row[1 + 3 * nq + nc + k] = w.out[oc[k]];
        rc = csv_row(&cw, row, ncol, w.e->err, sizeof w.e->err);
        h = i + 1 == (long)nsteps ? to - t : every;
    }
    int crc = csv_close(&cw, rc == JNT_OK ? w.e->err : NULL, sizeof w.e->err);
    if (rc == JNT_OK)
        rc = crc;
    if (rc != JNT_OK) {
        /* kin_fail's messages name the analysis; the writer's do not */
        if (strncmp(w.e->err, "analysis '", 10) == 0)
            data_error(d, rc, "%s", w.e->err);
        else
            data_error(d, rc, "analysis '%s': %s", an->name,
                       w.e->err[0] ? w.e->err : jnt_status_message(rc));
    }
    for (int i = 0; names && i < ncol; i++)
        free(names[i]);
    free(names);
    free(oc);
    free(w.piv);
    free(buf);
    jnt_data_free(w.e);
    return rc;
}
