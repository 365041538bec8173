/*
 * assemble.c: assembly of a multibody model at the start of a run
 * (assemble.h).
 *
 * Damped Gauss-Newton on C(q) = 0 with steps of least weighted change:
 * with A = C_q S (S = diag(s)), dq = S z and z the minimum-norm solution of
 * A z = -C. A^T P = Q R (QR with column pivoting, LAPACK dgeqp3; Golub & Van
 * Loan, Matrix Computations, 4th ed., Sect. 5.4.1-5.4.2): row P_i of A is
 * R(:, i)^T Q^T, so with y = Q^T z the rows of the first r pivots are
 *   R11^T y1 = (P^T b)(1:r),   y2 = 0,   z = Q y          (min-norm, rank r)
 * and a dependent row P_i, i >= r, is sum_k X_k (row P_k), R11 X = R12(:, i).
 * The step is halved until |C|_2 decreases (Armijo, 1e-4), as in Nocedal &
 * Wright, Numerical Optimization, 2nd ed., Sect. 10.3 (Gauss-Newton with a
 * line search).
 * Both dimensions at most DENSE_QR_MAX: the factorisation and Q's product
 * are linalg/dense.c's plain loops (the same algorithm as dgeqp3 and
 * dormqr), so that a small model loads no OpenBLAS for its assembly.
 */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assemble.h"
#include "linalg/dense.h"

#define RANK_TOL 1e-9   /* a pivot below this times the first: a dependent row */
#define POSE_TOL 1e-5   /* at the assembled pose: a pivot below this times the first is a
                           rank lost (Gauss-Newton reaches a singular pose only to about
                           the square root of its tolerance) */
#define MAX_IT 100      /* Gauss-Newton steps */
#define MAX_HALVE 30    /* step halvings per step */
#define TANGENT 1e-2    /* the step along the manifold that tells redundant from singular,
                           in units of the length scale */
#define DENSE_MAX 4e10  /* n m min(n, m) beyond which the rank is not checked at a pose
                           that is already assembled (the integrators' factorisation
                           still reports a singular matrix) */

/* The workspace: J, C, the QR factors of (J S)^T and vectors. */
typedef struct ws {
    int n, m, r, small; /* small: factored by dense_qp3 */
    double *J, *c, *a, *tau, *y, *dq, *qt, *ct;
    lapack_int *piv;
} ws;

static void ws_free(ws *w)
{
    free(w->J), free(w->c), free(w->a), free(w->tau), free(w->y), free(w->dq), free(w->qt);
    free(w->ct), free(w->piv);
}

static int ws_alloc(ws *w, int n, int m)
{
    size_t nm = (size_t)n * m + 1, k = (size_t)(n > m ? n : m) + 1;
    *w = (ws){.n = n, .m = m};
    w->J = malloc(nm * sizeof *w->J);
    w->a = malloc(nm * sizeof *w->a);
    w->c = malloc(k * sizeof *w->c);
    w->ct = malloc(k * sizeof *w->ct);
    w->tau = malloc(k * sizeof *w->tau);
    w->y = malloc(k * sizeof *w->y);
    w->dq = malloc(k * sizeof *w->dq);
    w->qt = malloc(k * sizeof *w->qt);
    w->piv = malloc(k * sizeof *w->piv);
    if (!w->J || !w->a || !w->c || !w->ct || !w->tau || !w->y || !w->dq || !w->qt || !w->piv) {
        ws_free(w);
        return -1;
    }
    return 0;
}

/* y = Q y (n entries) with the first k reflectors of w's factors. Returns 0 or -1. */
static int apply_q(const ws *w, int k, double *y)
{
    if (w->small) {
        dense_qr_apply(w->n, k, w->a, w->n, w->tau, y);
        return 0;
    }
    return LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'N', w->n, 1, k, w->a, w->n, w->tau, y, w->n)
                   == 0
               ? 0
               : -1;
}

/* R(i, j) of the factors in w->a (n x m, column-major). */
#define R_(w, i, j) ((w)->a[(size_t)(j) * (w)->n + (i)])

/* Factor (J S)^T with column pivoting; sets w->r. Returns 0 or -1. */
static int factor(ws *w, const double *J, const double *s)
{
    int n = w->n, m = w->m;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            w->a[(size_t)i * n + j] = J[(size_t)i * n + j] * s[j];
    memset(w->piv, 0, (size_t)m * sizeof *w->piv);
    w->r = 0;
    w->small = n <= DENSE_QR_MAX && m <= DENSE_QR_MAX;
    if (m == 0)
        return 0;
    if (w->small ? dense_qp3(n, m, w->a, n, w->piv, w->tau) != 0
                 : LAPACKE_dgeqp3(LAPACK_COL_MAJOR, n, m, w->a, n, w->piv, w->tau) != 0)
        return -1;
    int k = n < m ? n : m;
    double r0 = fabs(R_(w, 0, 0));
    while (w->r < k && fabs(R_(w, w->r, w->r)) > RANK_TOL * r0)
        w->r++;
    return 0;
}

/* The number of pivots above tol times the first. */
static int rank_at(const ws *w, double tol)
{
    int k = w->n < w->m ? w->n : w->m, r = 0;
    if (w->m == 0)
        return 0;
    double r0 = fabs(R_(w, 0, 0));
    while (r < k && fabs(R_(w, r, r)) > tol * r0)
        r++;
    return r;
}

/* dx = S z, z the minimum-norm solution of rows P_1..P_r of (J S) z = b. */
static int solve(ws *w, const double *b, const double *s, double *dx)
{
    int n = w->n, r = w->r, k = n < w->m ? n : w->m;
    for (int i = 0; i < r; i++) {
        double v = b[w->piv[i] - 1];
        for (int j = 0; j < i; j++)
            v -= R_(w, j, i) * w->y[j];
        w->y[i] = v / R_(w, i, i);
    }
    for (int i = r; i < n; i++)
        w->y[i] = 0.0;
    if (k > 0 && apply_q(w, k, w->y) != 0)
        return -1;
    for (int j = 0; j < n; j++)
        dx[j] = s[j] * w->y[j];
    return 0;
}

/* See assemble.h. */
int assemble_min_norm(int m, int n, const double *J, const double *b, const double *s,
                      double *dx)
{
    ws w;
    if (ws_alloc(&w, n, m) != 0)
        return -1;
    int rc = factor(&w, J, s);
    if (rc == 0)
        rc = solve(&w, b, s, dx);
    rc = rc == 0 ? w.r : -1;
    ws_free(&w);
    return rc;
}

static double norm2(int m, const double *c)
{
    double s = 0.0;
    for (int k = 0; k < m; k++)
        s += c[k] * c[k];
    return sqrt(s);
}

static double normi(int m, const double *c)
{
    double s = 0.0;
    for (int k = 0; k < m; k++)
        s = fmax(s, fabs(c[k]));
    return s;
}

/* Length of the group part of a name ("pin" of "pin.x"). */
static int group_len(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (int)(dot - name) : (int)strlen(name);
}

static int same_group(const char *a, const char *b)
{
    int la = group_len(a);
    return la == group_len(b) && strncmp(a, b, (size_t)la) == 0;
}

/* Append to msg (at *at of len) with printf's format. */
static void put(char *msg, size_t len, size_t *at, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void put(char *msg, size_t len, size_t *at, const char *fmt, ...)
{
    if (*at + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(msg + *at, len - *at, fmt, ap);
    va_end(ap);
    if (k > 0)
        *at = *at + (size_t)k < len ? *at + (size_t)k : len - 1;
}

/* Is row k a body's own row (a rigid3d body's directors: its group names
 * a body, as the coordinates' do)? */
static int body_row(const assemble_problem *p, int k)
{
    for (int j = 0; j < p->n; j++)
        if (same_group(p->q_names[j], p->c_names[k]))
            return 1;
    return 0;
}

/* Whether row k is marked and the first marked row of its group (its joint):
 * a group is named once. */
static int first_of_group(const assemble_problem *p, const unsigned char *mark, int k)
{
    if (!mark[k])
        return 0;
    for (int j = 0; j < k; j++)
        if (mark[j] && same_group(p->c_names[j], p->c_names[k]))
            return 0;
    return 1;
}

/* "'a', 'b' and 'c'": the groups of the rows k with mark[k], in row order,
 * at most 8 (then "and N more"); the joints only when there are some (not
 * the bodies' own rows). Returns how many groups. */
static int put_groups(const assemble_problem *p, unsigned char *mark, char *msg, size_t len,
                      size_t *at)
{
    int joints = 0;
    for (int k = 0; k < p->m && !joints; k++)
        joints = mark[k] && !body_row(p, k);
    for (int k = 0; k < p->m && joints; k++)
        if (mark[k] && body_row(p, k))
            mark[k] = 0;
    int ng = 0, total = 0;
    for (int k = 0; k < p->m; k++)
        total += first_of_group(p, mark, k);
    for (int k = 0; k < p->m; k++) {
        if (!first_of_group(p, mark, k))
            continue;
        if (ng == 8) {
            put(msg, len, at, " and %d more", total - ng);
            break;
        }
        put(msg, len, at, "%s'%.*s'", ng == 0 ? "" : ng == total - 1 ? " and " : ", ",
            group_len(p->c_names[k]), p->c_names[k]);
        ng++;
    }
    return total;
}

/* Gauss-Newton from q until max |C| <= tol. Returns ASSEMBLE_OK, _NOCLOSE
 * (no decrease), _NOMEM or _EVAL (*ev = the callback's status); w holds C,
 * J and their factors at the final q. */
static int gauss_newton(const assemble_problem *p, ws *w, double *q, double tol, int *its,
                        int *ev)
{
    int n = p->n, m = p->m;
    if ((*ev = p->eval(p->ctx, q, w->c, w->J)) != 0)
        return ASSEMBLE_EVAL;
    for (int it = 0;; it++) {
        *its = it;
        if (it == 0 && p->no_rank_check && normi(m, w->c) <= tol) {
            w->r = m; /* assembled already, and its rank not asked for */
            return ASSEMBLE_OK;
        }
        if (factor(w, w->J, p->scale) != 0)
            return ASSEMBLE_NOMEM;
        if (normi(m, w->c) <= tol)
            return ASSEMBLE_OK;
        if (it == MAX_IT)
            return ASSEMBLE_NOCLOSE;
        for (int k = 0; k < m; k++)
            w->ct[k] = -w->c[k];
        if (solve(w, w->ct, p->scale, w->dq) != 0)
            return ASSEMBLE_NOMEM;
        double f0 = norm2(m, w->c), alpha = 1.0;
        int ok = 0;
        for (int h = 0; h <= MAX_HALVE && !ok; h++, alpha *= 0.5) {
            for (int j = 0; j < n; j++)
                w->qt[j] = q[j] + alpha * w->dq[j];
            if ((*ev = p->eval(p->ctx, w->qt, w->ct, NULL)) != 0)
                return ASSEMBLE_EVAL;
            ok = norm2(m, w->ct) <= (1.0 - 1e-4 * alpha) * f0;
        }
        if (!ok) {
            /* no decrease along Gauss-Newton's step (an inconsistent or
             * rank-deficient linearisation, far from closing): the scaled
             * steepest descent of |C|^2 / 2 at its Cauchy length */
            double gg = 0.0, jg = 0.0;
            for (int j = 0; j < n; j++) {
                double g = 0.0;
                for (int k = 0; k < m; k++)
                    g += w->J[(size_t)k * n + j] * w->c[k];
                w->dq[j] = -p->scale[j] * p->scale[j] * g;
                gg += p->scale[j] * p->scale[j] * g * g;
            }
            for (int k = 0; k < m; k++) {
                double v = 0.0;
                for (int j = 0; j < n; j++)
                    v += w->J[(size_t)k * n + j] * w->dq[j];
                jg += v * v;
            }
            alpha = jg > 0.0 ? gg / jg : 0.0;
            for (int h = 0; h <= MAX_HALVE && !ok && alpha > 0.0; h++, alpha *= 0.5) {
                for (int j = 0; j < n; j++)
                    w->qt[j] = q[j] + alpha * w->dq[j];
                if ((*ev = p->eval(p->ctx, w->qt, w->ct, NULL)) != 0)
                    return ASSEMBLE_EVAL;
                double f1 = norm2(m, w->ct);
                ok = f1 < f0 && f1 * f1 <= f0 * f0 - 1e-4 * alpha * gg;
            }
            /* at the least-squares pose: no further decrease */
            if (!ok || norm2(m, w->ct) > (1.0 - 1e-10) * f0)
                return ASSEMBLE_NOCLOSE;
        }
        memcpy(q, w->qt, (size_t)n * sizeof *q);
        if ((*ev = p->eval(p->ctx, q, w->c, w->J)) != 0)
            return ASSEMBLE_EVAL;
    }
}

/* Mark in mark (m) the dependent rows of w's factors and the rows they
 * depend on. Returns the number of dependent rows. */
static int mark_dependent(const ws *w, unsigned char *mark, double *x)
{
    int m = w->m, r = w->r;
    memset(mark, 0, (size_t)m);
    for (int i = r; i < m; i++) {
        mark[w->piv[i] - 1] = 1;
        /* R11 x = R12(:, i), back substitution */
        double big = 0.0;
        for (int k = r - 1; k >= 0; k--) {
            double v = R_(w, k, i);
            for (int j = k + 1; j < r; j++)
                v -= R_(w, k, j) * x[j];
            x[k] = v / R_(w, k, k);
            big = fmax(big, fabs(x[k]));
        }
        for (int k = 0; k < r; k++)
            if (fabs(x[k]) > 1e-8 * big)
                mark[w->piv[k] - 1] = 1;
    }
    return m - r;
}

/* Is the rank deficiency at the assembled q structural (it stays at a
 * nearby assembled pose, reached by a step along the manifold's tangent
 * Q(:, r+1..n) and Gauss-Newton back)? 1 yes, 0 no (a singular pose). */
static int structural(const assemble_problem *p, ws *w, const double *q, double tol)
{
    int n = p->n, r = w->r;
    if (r >= n)
        return 1;
    ws w2;
    if (ws_alloc(&w2, n, p->m) != 0)
        return 1;
    double *q2 = malloc((size_t)n * sizeof *q2 + 1);
    int res = 1;
    if (q2) {
        /* y = (0, ..., 0, a fixed pseudo-random tail), z = Q y */
        for (int j = 0; j < n; j++)
            w->y[j] = j < r ? 0.0 : fmod(0.6180339887 * (j + 1), 1.0) - 0.5;
        int k = n < p->m ? n : p->m;
        if (apply_q(w, k, w->y) == 0) {
            double z = norm2(n, w->y), step = TANGENT * p->length / (z > 0 ? z : 1.0);
            for (int j = 0; j < n; j++)
                q2[j] = q[j] + step * p->scale[j] * w->y[j];
            int its, ev;
            /* back where it started: the pose cannot move (a singular, locked
             * one); elsewhere on the manifold: rank lost there too? */
            if (gauss_newton(p, &w2, q2, tol, &its, &ev) == ASSEMBLE_OK) {
                double back = 0.0;
                for (int j = 0; j < n; j++)
                    back += (q2[j] - q[j]) * (q2[j] - q[j]) / (p->scale[j] * p->scale[j]);
                res = sqrt(back) > 0.1 * TANGENT * p->length && rank_at(&w2, POSE_TOL) < p->m;
            }
        }
    }
    free(q2);
    ws_free(&w2);
    return res;
}

/* Warn about bodies moved further than the length scale; the largest move. */
static double moves(const assemble_problem *p, const double *q0, const double *q)
{
    double most = 0.0;
    for (int i = 0; i < p->n; i++) {
        const char *ni = p->q_names[i];
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = !same_group(p->q_names[j], ni);
        if (!first)
            continue;
        double s = 0.0;
        int placed = 0; /* a body left at the origin was not guessed: no warning */
        for (int j = i; j < p->n; j++) {
            const char *nj = p->q_names[j];
            const char *dot = strrchr(nj, '.');
            if (same_group(nj, ni) && dot && (strcmp(dot, ".x") == 0 || strcmp(dot, ".y") == 0 ||
                                              strcmp(dot, ".z") == 0)) {
                s += (q[j] - q0[j]) * (q[j] - q0[j]);
                placed |= q0[j] != 0.0;
            }
        }
        s = sqrt(s);
        most = fmax(most, s);
        if (s > p->length && placed)
            fprintf(stderr, "jnt: warning: assembling the joints moved body '%.*s' by %.3g m, "
                    "more than the size of the largest body (%.3g m): the pose found may not "
                    "be the one meant (check its initial position)\n", group_len(ni), ni, s,
                    p->length);
    }
    return most;
}

/* See assemble.h. */
int assemble_positions(const assemble_problem *p, double *q, assemble_info *info, char *msg,
                       size_t len)
{
    int n = p->n, m = p->m;
    size_t at = 0;
    assemble_info dummy;
    if (!info)
        info = &dummy;
    *info = (assemble_info){0};
    msg[0] = 0;
    if (m == 0)
        return ASSEMBLE_OK;
    /* C cannot be resolved below the rounding of the coordinates it combines */
    double qmax = p->length;
    for (int j = 0; j < n; j++)
        qmax = fmax(qmax, fabs(q[j]));
    double tol = fmax(p->tol, 16.0 * DBL_EPSILON * qmax);
    ws w;
    double *q0 = malloc((size_t)n * sizeof *q0 + 1), *x = malloc((size_t)m * sizeof *x + 1);
    unsigned char *mark = malloc((size_t)m + 1);
    if (!q0 || !x || !mark || ws_alloc(&w, n, m) != 0) {
        free(q0), free(x), free(mark);
        snprintf(msg, len, "out of memory assembling %d joint rows of %d coordinates", m, n);
        return ASSEMBLE_NOMEM;
    }
    memcpy(q0, q, (size_t)n * sizeof *q);
    int ev = 0;
    /* already assembled and too large to check cheaply: nothing to do */
    double big = (double)n * m * (n < m ? n : m);
    int rc;
    if (big > DENSE_MAX) {
        if ((ev = p->eval(p->ctx, q, w.c, NULL)) != 0) {
            rc = ASSEMBLE_EVAL;
            goto done;
        }
        if (normi(m, w.c) <= tol) {
            info->residual = normi(m, w.c);
            info->rank = m;
            rc = ASSEMBLE_OK;
            goto done;
        }
    }
    rc = gauss_newton(p, &w, q, tol, &info->iterations, &ev);
    if (rc == ASSEMBLE_OK && !(p->no_rank_check && info->iterations == 0))
        w.r = rank_at(&w, POSE_TOL);
    info->residual = normi(m, w.c);
    info->rank = w.r;
    if (rc == ASSEMBLE_OK && w.r < m) {
        int nd = mark_dependent(&w, mark, x);
        int redundant = structural(p, &w, q, tol);
        /* droppable when the joints' rows alone lose all the rank (a pin that
           repeats a joint is meant, and holds at t0 only: refused) */
        ws wj;
        int have_wj = redundant && p->drop && p->droppable > 0 &&
                      ws_alloc(&wj, n, p->droppable) == 0;
        int joints_only = have_wj && factor(&wj, w.J, p->scale) == 0 &&
                          p->droppable - rank_at(&wj, POSE_TOL) == nd;
        if (joints_only) {
            /* dropped: the joints' rows after their rank's pivots (Adams', Chrono's way) */
            int rj = p->droppable - nd;
            memset(p->drop, 0, (size_t)m);
            for (int i = rj; i < p->droppable; i++)
                p->drop[wj.piv[i] - 1] = 1;
            info->dropped = nd;
            put(msg, len, &at, "joints ");
            put_groups(p, mark, msg, len, &at);
            put(msg, len, &at, " constrain the same motion more than once: %d of their equations "
                "%s dropped (", nd, nd == 1 ? "is" : "are");
            for (int i = rj, k = 0; i < p->droppable; i++, k++)
                put(msg, len, &at, "%s'%s'", k ? ", " : "", p->c_names[wj.piv[i] - 1]);
            put(msg, len, &at, "), their reactions undetermined and reported as 0 "
                "(docs/multibody.md, \"Redundant constraints\")");
        } else if (redundant) {
            rc = ASSEMBLE_REDUNDANT;
            put(msg, len, &at, "joints ");
            int ng = put_groups(p, mark, msg, len, &at);
            put(msg, len, &at, " constrain the same motion more than once: %d of their equations "
                "%s combination%s of the others (", nd, nd == 1 ? "is a" : "are",
                nd == 1 ? "" : "s");
            for (int i = w.r, k = 0; i < m && k < 4; i++, k++)
                put(msg, len, &at, "%s'%s'", k ? ", " : "", p->c_names[w.piv[i] - 1]);
            put(msg, len, &at, "%s): redundant constraints, whose reactions a rigid model cannot "
                "determine; remove the repeated freedoms%s (docs/multibody.md, \"Redundant "
                "constraints\")", nd > 4 ? ", ..." : "", ng > 1 ? " (e.g. in a closed loop of revolute "
                "joints on parallel axes, make one joint universal and another spherical)" : "");
        } else {
            rc = ASSEMBLE_SINGULAR;
            put(msg, len, &at, "the assembled pose is singular: the constraints of joints ");
            put_groups(p, mark, msg, len, &at);
            put(msg, len, &at, " lose rank there (%d of their equations become dependent: a "
                "toggle or dead-centre position, links in line); start the bodies away from it",
                nd);
        }
        if (have_wj)
            ws_free(&wj);
    } else if (rc == ASSEMBLE_NOCLOSE) {
        for (int k = 0; k < m; k++)
            mark[k] = fabs(w.c[k]) > tol;
        put(msg, len, &at, "the joints cannot be assembled: ");
        int ng = 0, kmax = 0;
        for (int k = 0; k < m; k++) {
            if (fabs(w.c[k]) > fabs(w.c[kmax]))
                kmax = k;
            if (!first_of_group(p, mark, k))
                continue;
            double s = 0.0;
            for (int j = k; j < m; j++)
                if (same_group(p->c_names[j], p->c_names[k]))
                    s += w.c[j] * w.c[j];
            if (ng < 6)
                put(msg, len, &at, "%s'%.*s' (%.3g m or rad)", ng ? ", " : "the constraints of "
                    "joints ", group_len(p->c_names[k]), p->c_names[k], sqrt(s));
            ng++;
        }
        if (ng > 6)
            put(msg, len, &at, " and %d more", ng - 6);
        put(msg, len, &at, " remain at the closest pose, after %d steps (largest residual "
            "%.3g, tolerance %.3g): no pose closes them from this guess (a link too short or "
            "too long, or a guess on the wrong side of a toggle?)%s", info->iterations,
            fabs(w.c[kmax]), tol,
            w.r < m ? "; the pose reached is singular (links in line)" : "");
    } else if (rc == ASSEMBLE_NOMEM) {
        snprintf(msg, len, "out of memory (or a LAPACK failure) assembling %d joint rows of %d "
                 "coordinates", m, n);
    }
done:
    if (rc == ASSEMBLE_EVAL) {
        info->rank = ev;
        snprintf(msg, len, "a kernel failed (status %d) assembling the joints", ev);
    }
    if (rc == ASSEMBLE_OK)
        info->moved = moves(p, q0, q);
    free(q0), free(x), free(mark);
    ws_free(&w);
    return rc;
}
