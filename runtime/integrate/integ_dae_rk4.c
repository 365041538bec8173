/*
 * integ_dae_rk4.c: "rk4" on multibody models: the classic fourth-order
 * Runge-Kutta method (Hairer, Norsett, Wanner, Solving ODE I, Table II.1.2)
 * with a fixed step h (settings.h) on the index-1 form of the multibody DAE
 * of abi.h, with the step end projected onto both constraint levels
 * (Hairer, Lubich, Wanner, Geometric Numerical Integration, Sect. IV.4,
 * "standard projection method"; Eich, SIAM J. Numer. Anal. 30 (1993)).
 *
 * The index-1 form: q' = v, z' = f_z and, at each stage, q'' and lambda
 * from the saddle-point system (the constraints differentiated twice,
 * C_q q'' + gamma = 0, abi.h's cons_rates)
 *   [M(q)  C_q^T] [q''   ]   [Q(t, q, v, z)]
 *   [C_q   0    ] [lambda] = [-gamma       ]                      (1)
 * (Q: the rhs kernel's v rows at lambda = 0). A non-stiff, smooth model (a
 * pendulum chain, a mechanism without stiff springs or contact) then runs
 * as an ODE in (q, v, z), with RK4's four evaluations a step, as MuJoCo's
 * RK4 does in joint coordinates. In absolute coordinates (1) is a sparse
 * system of nq + nc unknowns, factorised at every stage:
 *   M constant, diagonal and regular (rigid bodies in the plane, point
 *   masses): by its Schur complement, lambda from S lambda = C_q M^-1 Q +
 *   gamma, S = C_q M^-1 C_q^T (nc x nc, symmetric positive definite for C_q
 *   of full rank), q'' = M^-1 (Q - C_q^T lambda); S = L D L^T by Davis's LDL
 *   (ACM TOMS 31 (2005); natural order, the pattern of L analysed once from
 *   S's elimination tree). The ten-rod chain at h = 4 ms runs in 0.6 of
 *   the time it takes with KLU on (1), which spent half of it scaling and
 *   checking the pivots' growth (measured once, bench section 19's model);
 *   otherwise (director bodies, whose M may have zero diagonal entries): (1)
 *   itself by KLU (linalg/sparse.h) with the pivot order of the first.
 *
 * A step from (q_n, v_n, z_n), k1 = (v_n, q''_n, f_z,n) known from the end
 * of the step before:
 *   stages 2-4 at t_n + h/2, t_n + h/2, t_n + h: y_i = y_n + c_i h k_{i-1},
 *   k_i = (v_i, q''(y_i), f_z(y_i)), each a Jacobian (C_q), a factorisation
 *   of (1) and a solve;
 *   y~ = y_n + h/6 (k1 + 2 k2 + 2 k3 + k4);
 *   positions: q <- q + dq, [M C_q^T; C_q 0] [dq; nu] = [0; -C(q)] (the
 *   M-weighted least change), with the fourth stage's matrix (its C_q is
 *   O(h^2) from the end's: a linear contraction of that size; formed again
 *   at the current q when |C| falls by less than PROJECT_SLOW), until
 *   |C| <= CONS_TOL (1 + |q|), at most PROJECT_MAXIT times;
 *   velocities: the matrix at the projected q (a Jacobian and a
 *   factorisation), v <- v + dv, [M C_q^T; C_q 0] [dv; nu] = [0; -(C_q v + C_t)];
 *   k1 of the next step: (1) there with the same matrix (one solve).
 * Four factorisations a step. The projection keeps both constraint levels
 * at every step end without changing the order (HLW, Theorem IV.4.2); the
 * energy is not projected.
 *
 * Q must not depend on lambda (joint friction): (1) would then be
 * nonlinear in lambda. The start checks the Jacobian's lambda columns
 * against -C_q^T and refuses such a model (use generalized_alpha or
 * midpoint). Stiff forces (contact, stiff springs) limit h as for any
 * explicit method.
 *
 * Between step ends: the cubic Hermite on (q, v) and on (v, q''), on (z,
 * f_z), lambda linearly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "integ.h"

#define PROJECT_MAXIT 8
#define CONS_TOL 1e-12 /* |C| <= CONS_TOL (1 + |q|) after the projection */
#define PROJECT_SLOW 0.1 /* |C| fell by less: the projection's matrix formed again */
#define LAMBDA_TOL 1e-9 /* Q_lambda: the lambda columns differ from -C_q^T by more */

/* The method's state. The saddle matrix (1) has nq + nc unknowns
 * [q'' (or dq, dv), lambda (or nu)]: columns of q'' hold M's column and
 * C_q's (rows nq + k), columns of lambda_k the Jacobian's v rows of
 * lambda_k negated (C_q^T) and the diagonal (1 for a row the assembly
 * dropped, data.h's cons_off). */
typedef struct drk {
    int nq, nz, nc, ny, n, c0;   /* c0: the first lambda row of y (2 nq + nz) */
    double *jv, *mv;             /* the Jacobian's values, M's */
    int have_m;
    int *colptr, *rowind;        /* (1)'s pattern */
    double *val;
    int *pm;                     /* mnnz: M entry k's position */
    int *pj;                     /* jnnz: the Jacobian entry's position, or -1 */
    int *pd;                     /* nc: lambda_k's diagonal */
    double *jsign;               /* jnnz: +1 (C_q) or -1 (the lambda columns' v rows) */
    sparse_lu lu;
    /* the Schur complement path (M diagonal): S = C_q M^-1 C_q^T (nc x nc) */
    int schur;
    int *cc_ptr, *cc_e, *cc_row; /* C_q by columns: column i's entries jv[cc_e[..]] at row cc_row */
    double *cq;                  /* C_q's values in that order (cq[p] = jv[cc_e[p]]) */
    int *cr_ptr, *cr_col, *cr_p; /* C_q by rows: row k's columns cr_col, entries cq[cr_p] */
    double *cqr;                 /* C_q's values by rows (cqr[e] = cq[cr_p[e]]) */
    int *md;                     /* nq: M's diagonal entry of column i */
    int *s_colptr, *s_rowind;    /* S's pattern */
    double *s_val;
    int ntr, *tr_a, *tr_b, *tr_i, *tr_pos; /* S[tr_pos] += cq[tr_a] cq[tr_b] / M_ii (upper) */
    int *s_pd;                   /* nc: S's diagonal */
    double *minv, *sy;           /* 1 / M_ii (nq); scratch (nc) */
    int have_minv;               /* minv is of the current mv */
    /* S = L D L^T (Davis's LDL, natural order): the pattern of L from S's
     * elimination tree, its values at each factorisation */
    int *l_p, *l_parent, *l_nz, *l_i, *l_pat, *l_flag;
    int *sc_p, *sc_i, *sc_q;     /* row k of L: its columns sc_i (in the order LDL visits
                                    them) and each entry's position in l_x */
    int *lr_p, *lr_j, *lr_q;     /* row k of L by increasing column: the columns, their
                                    positions in l_x */
    double *l_x, *l_d, *l_y;
    double *b;                   /* the right side and solution (n) */
    double *ys;                  /* a stage state (ny) */
    double *f;                   /* the rhs there (ny) */
    double *cr;                  /* cons_rates there (3 nc) */
    double *kv[4], *ka[4], *kz[4]; /* stages: v (nq), q'' (nq), f_z (nz) */
    double *acc1, *fz1;          /* q'' and f_z at the step end (the next k1) */
    int reads_v;                 /* the rhs's rows below q' = v read v (the Jacobian's
                                    pattern), or the model has gathered points */
    double *lam1;                /* lambda there */
} drk;

/* fmax(a, b) for a not NaN, inline (gcc -O2 calls libm's fmax through the
 * PLT: a few percent of a small model's step) */
static inline double drk_max(double a, double b)
{
    return b > a ? b : a;
}

static void drk_work(int ny, int nnz, size_t *nw, size_t *ni)
{
    (void)ny, (void)nnz;
    *nw = 0;
    *ni = 0;
}

/* A recoverable kernel failure is an error: the step is fixed. */
static int drk_failed(integ_run *r, int rc, double t)
{
    if (rc != 1)
        return rc;
    return integ_fail_cause(r, JNT_ERR_KERNEL, t, "the rhs kernel asked for a smaller step, "
                            "but rk4 has a fixed step");
}

/* (1)'s pattern and the position maps. 0 or -1 (no memory). */
static int drk_pattern(integ_run *r, drk *w)
{
    const jnt_model *m = r->data->m;
    int nq = w->nq, n = w->n, c0 = w->c0;
    w->colptr = calloc((size_t)n + 1, sizeof *w->colptr);
    w->pm = malloc(((size_t)m->mnnz + 1) * sizeof *w->pm);
    w->pj = malloc(((size_t)m->jnnz + 1) * sizeof *w->pj);
    w->jsign = malloc(((size_t)m->jnnz + 1) * sizeof *w->jsign);
    w->pd = malloc(((size_t)w->nc + 1) * sizeof *w->pd);
    size_t cap = (size_t)m->mnnz + (size_t)m->jnnz + (size_t)w->nc + 1;
    w->rowind = malloc(cap * sizeof *w->rowind);
    w->val = malloc(cap * sizeof *w->val);
    int *pos = malloc(((size_t)n + 1) * sizeof *pos);
    if (!w->colptr || !w->pm || !w->pj || !w->jsign || !w->pd || !w->rowind || !w->val || !pos) {
        free(pos);
        return -1;
    }
    for (int e = 0; e < m->jnnz; e++)
        w->pj[e] = -1;
    for (int i = 0; i < n; i++)
        pos[i] = -1;
    int e = 0;
    for (int c = 0; c < n; c++) {
        int e0 = w->colptr[c] = e;
        /* the rows of column c, unsorted, each once */
#define ADD_ROW(row)                       \
    do {                                   \
        if (pos[(row)] < 0) {              \
            pos[(row)] = 1;                \
            w->rowind[e++] = (row);        \
        }                                  \
    } while (0)
        if (c < nq) {
            for (int k = m->mcolptr[c]; k < m->mcolptr[c + 1]; k++)
                ADD_ROW(m->mrowind[k]);
            for (int k = m->jcolptr[c]; k < m->jcolptr[c + 1]; k++)
                if (m->jrowind[k] >= c0)
                    ADD_ROW(nq + m->jrowind[k] - c0);
        } else {
            int jc = c0 + c - nq;
            ADD_ROW(c);
            for (int k = m->jcolptr[jc]; k < m->jcolptr[jc + 1]; k++)
                if (m->jrowind[k] >= nq && m->jrowind[k] < 2 * nq)
                    ADD_ROW(m->jrowind[k] - nq);
        }
#undef ADD_ROW
        /* sorted, then the positions */
        for (int i = e0 + 1; i < e; i++) {
            int v = w->rowind[i], j = i - 1;
            for (; j >= e0 && w->rowind[j] > v; j--)
                w->rowind[j + 1] = w->rowind[j];
            w->rowind[j + 1] = v;
        }
        for (int i = e0; i < e; i++)
            pos[w->rowind[i]] = i;
        if (c < nq) {
            for (int k = m->mcolptr[c]; k < m->mcolptr[c + 1]; k++)
                w->pm[k] = pos[m->mrowind[k]];
            for (int k = m->jcolptr[c]; k < m->jcolptr[c + 1]; k++)
                if (m->jrowind[k] >= c0)
                    w->pj[k] = pos[nq + m->jrowind[k] - c0], w->jsign[k] = 1.0;
        } else {
            int jc = c0 + c - nq;
            w->pd[c - nq] = pos[c];
            for (int k = m->jcolptr[jc]; k < m->jcolptr[jc + 1]; k++)
                if (m->jrowind[k] >= nq && m->jrowind[k] < 2 * nq)
                    w->pj[k] = pos[m->jrowind[k] - nq], w->jsign[k] = -1.0;
        }
        for (int i = e0; i < e; i++)
            pos[w->rowind[i]] = -1;
    }
    w->colptr[n] = e;
    free(pos);
    return 0;
}

/* Is M diagonal (each column only its diagonal entry)? */
static int drk_mass_diagonal(const jnt_model *m, int nq)
{
    for (int i = 0; i < nq; i++)
        if (m->mcolptr[i + 1] - m->mcolptr[i] != 1 || m->mrowind[m->mcolptr[i]] != i)
            return 0;
    return 1;
}

/* The Schur path's pattern: C_q by columns, S's upper triangle (every pair
 * of rows k <= l that share a column of C_q, and the diagonal: LDL reads no
 * more) and the products that fill it. 0 or -1 (no memory). */
static int drk_schur_pattern(integ_run *r, drk *w)
{
    const jnt_model *m = r->data->m;
    int nq = w->nq, nc = w->nc, c0 = w->c0, rc = -1;
    w->cc_ptr = calloc((size_t)nq + 1, sizeof *w->cc_ptr);
    w->md = malloc(((size_t)nq + 1) * sizeof *w->md);
    w->minv = malloc(((size_t)nq + (size_t)nc + 1) * sizeof *w->minv);
    w->s_colptr = calloc((size_t)nc + 1, sizeof *w->s_colptr);
    w->s_pd = malloc(((size_t)nc + 1) * sizeof *w->s_pd);
    int *rp = calloc((size_t)nc + 1, sizeof *rp), *mark = malloc(((size_t)nc + 1) * sizeof *mark);
    int *rcol = NULL;
    if (!w->cc_ptr || !w->md || !w->minv || !w->s_colptr || !w->s_pd || !rp || !mark)
        goto out;
    w->sy = w->minv + nq;
    int ncq = 0;
    for (int i = 0; i < nq; i++) {
        w->md[i] = m->mcolptr[i];
        for (int e = m->jcolptr[i]; e < m->jcolptr[i + 1]; e++)
            ncq += m->jrowind[e] >= c0;
        w->cc_ptr[i + 1] = ncq;
    }
    w->cc_e = malloc(((size_t)ncq + 1) * sizeof *w->cc_e);
    w->cc_row = malloc(((size_t)ncq + 1) * sizeof *w->cc_row);
    w->cq = malloc(((size_t)ncq + 1) * sizeof *w->cq);
    rcol = malloc(((size_t)ncq + 1) * sizeof *rcol);
    if (!w->cc_e || !w->cc_row || !w->cq || !rcol)
        goto out;
    long ntr = 0;
    for (int i = 0, p = 0; i < nq; i++) {
        for (int e = m->jcolptr[i]; e < m->jcolptr[i + 1]; e++)
            if (m->jrowind[e] >= c0) {
                w->cc_e[p] = e, w->cc_row[p] = m->jrowind[e] - c0;
                rp[w->cc_row[p] + 1]++;
                p++;
            }
        long c = w->cc_ptr[i + 1] - w->cc_ptr[i];
        ntr += c * c;
    }
    /* C_q by rows: the columns of row k (increasing) and their entries */
    w->cr_p = malloc(((size_t)ncq + 1) * sizeof *w->cr_p);
    w->cqr = malloc(((size_t)ncq + 1) * sizeof *w->cqr);
    if (!w->cr_p || !w->cqr)
        goto out;
    for (int k = 0; k < nc; k++)
        rp[k + 1] += rp[k];
    for (int i = 0; i < nq; i++)
        for (int p = w->cc_ptr[i]; p < w->cc_ptr[i + 1]; p++) {
            w->cr_p[rp[w->cc_row[p]]] = p;
            rcol[rp[w->cc_row[p]]++] = i;
        }
    for (int k = nc; k > 0; k--)
        rp[k] = rp[k - 1];
    rp[0] = 0;
    /* S's columns: for row l, the rows k <= l of every column it touches */
    for (int k = 0; k < nc; k++)
        mark[k] = -1;
    size_t cap = (size_t)nc + (size_t)ntr + 1;
    w->s_rowind = malloc(cap * sizeof *w->s_rowind);
    w->s_val = malloc(cap * sizeof *w->s_val);
    w->tr_a = malloc(((size_t)ntr + 1) * sizeof *w->tr_a);
    w->tr_b = malloc(((size_t)ntr + 1) * sizeof *w->tr_b);
    w->tr_i = malloc(((size_t)ntr + 1) * sizeof *w->tr_i);
    w->tr_pos = malloc(((size_t)ntr + 1) * sizeof *w->tr_pos);
    if (!w->s_rowind || !w->s_val || !w->tr_a || !w->tr_b || !w->tr_i || !w->tr_pos)
        goto out;
    int e = 0;
    for (int l = 0; l < nc; l++) {
        int e0 = w->s_colptr[l] = e;
        mark[l] = l;
        w->s_rowind[e++] = l;
        for (int q = rp[l]; q < rp[l + 1]; q++) {
            int i = rcol[q];
            for (int p = w->cc_ptr[i]; p < w->cc_ptr[i + 1]; p++)
                if (w->cc_row[p] <= l && mark[w->cc_row[p]] != l) {
                    mark[w->cc_row[p]] = l;
                    w->s_rowind[e++] = w->cc_row[p];
                }
        }
        for (int a = e0 + 1; a < e; a++) {
            int v = w->s_rowind[a], j = a - 1;
            for (; j >= e0 && w->s_rowind[j] > v; j--)
                w->s_rowind[j + 1] = w->s_rowind[j];
            w->s_rowind[j + 1] = v;
        }
        for (int a = e0; a < e; a++)
            if (w->s_rowind[a] == l)
                w->s_pd[l] = a;
    }
    w->s_colptr[nc] = e;
    /* the products: column i's entries (k, l) pairwise, k <= l, at S(k, l) */
    int t = 0;
    for (int i = 0; i < nq; i++)
        for (int pa = w->cc_ptr[i]; pa < w->cc_ptr[i + 1]; pa++)
            for (int pb = w->cc_ptr[i]; pb < w->cc_ptr[i + 1]; pb++) {
                int k = w->cc_row[pa], l = w->cc_row[pb], at = -1;
                if (k > l)
                    continue;
                for (int a = w->s_colptr[l]; a < w->s_colptr[l + 1]; a++)
                    if (w->s_rowind[a] == k)
                        at = a;
                w->tr_a[t] = pa, w->tr_b[t] = pb, w->tr_i[t] = i;
                w->tr_pos[t++] = at;
            }
    w->ntr = t;
    w->cr_ptr = rp, w->cr_col = rcol;
    rp = rcol = NULL;
    rc = 0;
out:
    free(rp), free(mark), free(rcol);
    return rc;
}

/* S's elimination tree and the column counts of L (Davis, ACM TOMS 31 (2005),
 * LDL: ldl_symbolic), from S's upper triangle. 0 or -1 (no memory). */
static int ldl_symbolic(drk *w)
{
    int n = w->nc;
    w->l_p = malloc(((size_t)n + 1) * sizeof *w->l_p);
    w->l_parent = malloc(((size_t)n + 1) * sizeof *w->l_parent);
    w->l_nz = malloc(((size_t)n + 1) * sizeof *w->l_nz);
    w->l_pat = malloc(((size_t)n + 1) * sizeof *w->l_pat);
    w->l_flag = malloc(((size_t)n + 1) * sizeof *w->l_flag);
    w->l_d = malloc(((size_t)n + 1) * sizeof *w->l_d);
    w->l_y = calloc((size_t)n + 1, sizeof *w->l_y);
    if (!w->l_p || !w->l_parent || !w->l_nz || !w->l_pat || !w->l_flag || !w->l_d || !w->l_y)
        return -1;
    for (int k = 0; k < n; k++) {
        w->l_parent[k] = -1, w->l_flag[k] = k, w->l_nz[k] = 0;
        for (int p = w->s_colptr[k]; p < w->s_colptr[k + 1]; p++)
            for (int i = w->s_rowind[p]; i < k && w->l_flag[i] != k; i = w->l_parent[i]) {
                if (w->l_parent[i] == -1)
                    w->l_parent[i] = k;
                w->l_nz[i]++;
                w->l_flag[i] = k;
            }
    }
    w->l_p[0] = 0;
    for (int k = 0; k < n; k++)
        w->l_p[k + 1] = w->l_p[k] + w->l_nz[k];
    size_t lnz = (size_t)w->l_p[n] + 1;
    w->l_i = malloc(lnz * sizeof *w->l_i);
    w->l_x = malloc(lnz * sizeof *w->l_x);
    w->sc_p = malloc(((size_t)n + 1) * sizeof *w->sc_p);
    w->sc_i = malloc(lnz * sizeof *w->sc_i);
    w->sc_q = malloc(lnz * sizeof *w->sc_q);
    if (!w->l_i || !w->l_x || !w->sc_p || !w->sc_i || !w->sc_q)
        return -1;
    /* the rows of L as ldl_numeric's elimination-tree walks visit them (its
     * loop without the arithmetic), recorded once: the pattern is fixed */
    int s = 0;
    for (int k = 0; k < n; k++) {
        int top = n;
        w->sc_p[k] = s;
        w->l_flag[k] = k;
        w->l_nz[k] = 0;
        for (int p = w->s_colptr[k]; p < w->s_colptr[k + 1]; p++) {
            int i = w->s_rowind[p], len = 0;
            for (; w->l_flag[i] != k; i = w->l_parent[i]) {
                w->l_pat[len++] = i;
                w->l_flag[i] = k;
            }
            while (len > 0)
                w->l_pat[--top] = w->l_pat[--len];
        }
        for (; top < n; top++) {
            int i = w->l_pat[top], q = w->l_p[i] + w->l_nz[i]++;
            w->l_i[q] = k;
            w->sc_i[s] = i, w->sc_q[s++] = q;
        }
    }
    w->sc_p[n] = s;
    /* L by rows, columns increasing (the forward solve's dot products) */
    w->lr_p = calloc((size_t)n + 1, sizeof *w->lr_p);
    w->lr_j = malloc(lnz * sizeof *w->lr_j);
    w->lr_q = malloc(lnz * sizeof *w->lr_q);
    if (!w->lr_p || !w->lr_j || !w->lr_q)
        return -1;
    for (int p = 0; p < w->l_p[n]; p++)
        w->lr_p[w->l_i[p] + 1]++;
    for (int k = 0; k < n; k++)
        w->lr_p[k + 1] += w->lr_p[k];
    for (int j = 0; j < n; j++)
        for (int p = w->l_p[j]; p < w->l_p[j + 1]; p++)
            w->lr_j[w->lr_p[w->l_i[p]]] = j, w->lr_q[w->lr_p[w->l_i[p]]++] = p;
    for (int k = n; k > 0; k--)
        w->lr_p[k] = w->lr_p[k - 1];
    w->lr_p[0] = 0;
    return 0;
}

/* S = L D L^T from w->s_val (LDL's ldl_numeric, row by row of L, with the
 * rows' patterns of ldl_symbolic: the same arithmetic in the same order).
 * Returns 0, or 1 + k when the pivot d_k is not above tiny times S's
 * largest diagonal (the constraints lost rank). */
static int ldl_numeric(drk *w)
{
    int n = w->nc;
    const int *ap = w->s_colptr, *ai = w->s_rowind, *li = w->l_i, *lp = w->l_p;
    const double *ax = w->s_val;
    double *y = w->l_y, *lx = w->l_x, *d = w->l_d, big = 0.0;
    for (int k = 0; k < n; k++) {
        double a = fabs(ax[w->s_pd[k]]);
        big = a > big ? a : big;
    }
    for (int k = 0; k < n; k++) {
        for (int p = ap[k]; p < ap[k + 1]; p++)
            y[ai[p]] += ax[p];
        double dk = y[k];
        y[k] = 0.0;
        for (int s = w->sc_p[k]; s < w->sc_p[k + 1]; s++) {
            int i = w->sc_i[s], q = w->sc_q[s];
            double yi = y[i];
            y[i] = 0.0;
            for (int p = lp[i]; p < q; p++)
                y[li[p]] -= lx[p] * yi;
            double lki = yi / d[i];
            dk -= lki * yi;
            lx[q] = lki;
        }
        if (!(dk > 1e-13 * big))
            return 1 + k;
        d[k] = dk;
    }
    return 0;
}

/* x = S^-1 x in place with the LDL^T factors: L by rows and L^T by its
 * columns, each row a running sum in a register (the subtractions in the
 * order of the column-oriented loops, so the same result). */
static void ldl_solve(const drk *w, double *x)
{
    int n = w->nc;
    const int *li = w->l_i, *lp = w->l_p, *rq = w->lr_q, *rj = w->lr_j;
    const double *lx = w->l_x;
    for (int k = 0; k < n; k++) {
        double xk = x[k];
        for (int e = w->lr_p[k]; e < w->lr_p[k + 1]; e++)
            xk -= lx[rq[e]] * x[rj[e]];
        x[k] = xk;
    }
    for (int j = 0; j < n; j++)
        x[j] /= w->l_d[j];
    for (int j = n - 1; j >= 0; j--) {
        double xj = x[j];
        for (int p = lp[j]; p < lp[j + 1]; p++)
            xj -= lx[p] * x[li[p]];
        x[j] = xj;
    }
}

/* Solve (1) for the right side w->b = [a (nq); b (nc)] in place: on the
 * Schur path x = M^-1 (a - C_q^T y) with S y = C_q M^-1 a - b. 0 or -1. */
static int drk_solve(drk *w)
{
    if (!w->schur)
        return sparse_lu_solve(&w->lu, w->b);
    int nq = w->nq, nc = w->nc;
    double *x = w->b, *y = w->sy;
    for (int i = 0; i < nq; i++)
        x[i] *= w->minv[i];
    for (int k = 0; k < nc; k++) {
        double yk = -w->b[nq + k];
        for (int e = w->cr_ptr[k]; e < w->cr_ptr[k + 1]; e++)
            yk += w->cqr[e] * x[w->cr_col[e]];
        y[k] = yk;
    }
    ldl_solve(w, y);
    for (int i = 0; i < nq; i++) {
        double c = 0.0;
        for (int p = w->cc_ptr[i]; p < w->cc_ptr[i + 1]; p++)
            c += w->cq[p] * y[w->cc_row[p]];
        x[i] -= w->minv[i] * c;
    }
    memcpy(w->b + nq, y, (size_t)nc * sizeof *y);
    return 0;
}

/* Jacobian and M at (t, y), (1) formed and factorised. 0 or an error. */
static int drk_factor(integ_run *r, drk *w, double t, const double *y)
{
    const jnt_model *m = r->data->m;
    int rc = integ_jac_sparse(r, t, y, w->jv);
    if (rc != 0)
        return rc < 0 ? rc : integ_fail_cause(r, JNT_ERR_KERNEL, t, "the Jacobian kernel failed");
    if (!(w->have_m && r->abi->mass_const)) {
        if ((rc = eval_mass(m, r->data, t, y, w->mv)) != 0)
            return integ_fail(r, JNT_ERR_KERNEL, t, "the mass kernel failed (status %d)", rc);
        w->have_m = 1;
        w->have_minv = 0;
    }
    int info;
    r->st->lu_decomps++;
    if (w->schur) {
        for (int i = 0; !w->have_minv && i < w->nq; i++)
            w->minv[i] = 1.0 / w->mv[w->md[i]];
        w->have_minv = 1;
        int ncq = w->cc_ptr[w->nq];
        for (int p = 0; p < ncq; p++)
            w->cq[p] = w->jv[w->cc_e[p]];
        for (int e = 0; e < ncq; e++)
            w->cqr[e] = w->cq[w->cr_p[e]];
        memset(w->s_val, 0, (size_t)w->s_colptr[w->nc] * sizeof *w->s_val);
        for (int k = 0; k < w->ntr; k++)
            w->s_val[w->tr_pos[k]] += w->cq[w->tr_a[k]] * w->cq[w->tr_b[k]] * w->minv[w->tr_i[k]];
        for (int k = 0; r->data->ncons_off && k < w->nc; k++)
            if (r->data->cons_off[k])
                w->s_val[w->s_pd[k]] = 1.0;
        info = ldl_numeric(w);
    } else {
        memset(w->val, 0, (size_t)w->colptr[w->n] * sizeof *w->val);
        for (int k = 0; k < m->mnnz; k++)
            w->val[w->pm[k]] += w->mv[k];
        for (int e = 0; e < m->jnnz; e++)
            if (w->pj[e] >= 0)
                w->val[w->pj[e]] += w->jsign[e] * w->jv[e];
        for (int k = 0; r->data->ncons_off && k < w->nc; k++)
            if (r->data->cons_off[k])
                w->val[w->pd[k]] = 1.0;
        info = sparse_lu_factor(&w->lu, w->val);
    }
    if (info < 0)
        return integ_fail(r, JNT_ERR_NOMEM, t, "out of memory factorising the saddle-point "
                          "matrix");
    if (info > 0)
        return integ_fail(r, JNT_ERR_SOLVER, t, "rk4: the saddle-point matrix [M C_q^T; C_q 0] "
                          "is singular (unknown %d): the constraints lost rank", info - 1);
    return 0;
}

/* q'' (acc), lambda (lam, or NULL) and f_z (fz) at (t, y) with the
 * factorisation current for y's q: (1)'s right side from the rhs at lambda
 * = 0 and gamma. y's lambda rows are set to 0. `have_f`: w->f already holds
 * the rhs at (t, y) but for v, which its rows below q' = v do not read
 * (!w->reads_v). 0 or an error. */
static int drk_accel(integ_run *r, drk *w, double t, double *y, double *acc, double *lam,
                     double *fz, int have_f)
{
    int nq = w->nq, nc = w->nc, rc;
    memset(y + w->c0, 0, (size_t)nc * sizeof *y);
    if (!have_f && (rc = integ_rhs(r, t, y, w->f)) != 0)
        return drk_failed(r, rc, t);
    if ((rc = integ_cons_rates(r, t, y, w->cr)) != 0)
        return integ_fail(r, JNT_ERR_KERNEL, t, "the constraint-rates kernel failed "
                          "(status %d)", rc);
    memcpy(w->b, w->f + nq, (size_t)nq * sizeof *w->b);
    for (int k = 0; k < nc; k++)
        w->b[nq + k] = -w->cr[nc + k];
    if (drk_solve(w) != 0)
        return integ_fail(r, JNT_ERR_SOLVER, t, "rk4: the saddle-point solve failed");
    memcpy(acc, w->b, (size_t)nq * sizeof *acc);
    if (lam)
        memcpy(lam, w->b + nq, (size_t)nc * sizeof *lam);
    memcpy(fz, w->f + 2 * nq, (size_t)w->nz * sizeof *fz);
    return 0;
}

/* Does Q depend on lambda? The Jacobian's lambda columns at y against
 * -C_q^T: 1 (with the message set) when they differ, 0 when not. */
static int drk_lambda_dependent(integ_run *r, drk *w)
{
    const jnt_model *m = r->data->m;
    int nq = w->nq, c0 = w->c0;
    for (int k = 0; k < w->nc; k++) {
        int jc = c0 + k;
        /* a row the assembly dropped: its C_q row reads 0 (integ_jac_sparse), lambda_k = 0 */
        if (r->data->ncons_off && r->data->cons_off[k])
            continue;
        for (int e = m->jcolptr[jc]; e < m->jcolptr[jc + 1]; e++) {
            int row = m->jrowind[e];
            double cq = 0.0;
            if (row >= 2 * nq) {
                if (w->jv[e] == 0.0)
                    continue;
            } else if (row >= nq) {
                /* C_q(k, row - nq): the Jacobian's entry (c0 + k, row - nq) */
                int j = row - nq;
                for (int f = m->jcolptr[j]; f < m->jcolptr[j + 1]; f++)
                    if (m->jrowind[f] == jc)
                        cq = w->jv[f];
                if (fabs(w->jv[e] + cq) <= LAMBDA_TOL * (1.0 + fabs(cq)))
                    continue;
            } else {
                continue;
            }
            integ_fail(r, JNT_ERR_MODEL, r->t, "rk4 on a multibody model needs forces that do "
                       "not depend on the joint reactions ('%s' acts on '%s'): use "
                       "generalized_alpha, hht, midpoint or radau5",
                       r->abi->y_names[jc], r->abi->y_names[row]);
            return 1;
        }
    }
    return 0;
}

/* k1 at r->y: the matrix there, the velocities projected onto
 * C_q v + C_t = 0 (`project`), q'' and lambda (into r->y's lambda rows);
 * have_f as drk_accel's. */
static int drk_begin(integ_run *r, drk *w, double t, double *y, int project, int have_f)
{
    int nq = w->nq, nc = w->nc;
    int rc = drk_factor(r, w, t, y);
    if (rc != 0)
        return rc;
    if (project) {
        if ((rc = integ_cons_rates(r, t, y, w->cr)) != 0)
            return integ_fail(r, JNT_ERR_KERNEL, t, "the constraint-rates kernel failed "
                              "(status %d)", rc);
        memset(w->b, 0, (size_t)nq * sizeof *w->b);
        for (int k = 0; k < nc; k++)
            w->b[nq + k] = -w->cr[2 * nc + k];
        if (drk_solve(w) != 0)
            return integ_fail(r, JNT_ERR_SOLVER, t, "rk4: the projection's solve failed");
        for (int i = 0; i < nq; i++)
            y[nq + i] += w->b[i];
    }
    rc = drk_accel(r, w, t, y, w->acc1, w->lam1, w->fz1, have_f);
    if (rc != 0)
        return rc;
    memcpy(y + w->c0, w->lam1, (size_t)nc * sizeof *y);
    /* the statistics at the step end: C (the rhs's lambda rows), C_q v + C_t */
    for (int k = 0; k < nc; k++) {
        if (r->data->ncons_off && r->data->cons_off[k])
            continue;
        r->st->cons_max = drk_max(r->st->cons_max, fabs(w->f[w->c0 + k]));
        r->st->vcons_max = drk_max(r->st->vcons_max, fabs(w->cr[2 * nc + k]));
    }
    return 0;
}

static int drk_start(integ_run *r)
{
    const jnt_abi_model *a = r->abi;
    drk *w = calloc(1, sizeof *w);
    r->mem = w;
    if (!w)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting rk4");
    const jnt_model *m = r->data->m;
    w->nq = a->nq, w->nc = a->nc, w->ny = a->ny, w->nz = a->ny - 2 * a->nq - a->nc;
    w->c0 = 2 * w->nq + w->nz, w->n = w->nq + w->nc;
    int nq = w->nq, nz = w->nz, nc = w->nc, ny = w->ny, n = w->n;
    /* consistent q, v and lambda (integ_dae_consistent, as the other DAE methods) */
    integ_dae *dw = calloc(1, sizeof *dw);
    if (!dw)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting rk4");
    dw->once = 1; /* a small model's start loads no LU library (sparse.h, SPARSE_LOOPS) */
    int rc = integ_dae_alloc(r, dw);
    if (rc == 0)
        rc = integ_dae_consistent(r, dw);
    integ_dae_free(dw);
    if (rc != 0)
        return rc;
    /* b (n), ys and f (ny each), cr (3 nc), four stages (2 nq + nz each), acc1, fz1, lam1 */
    size_t nv = (size_t)n + 2 * (size_t)ny + 3 * (size_t)nc + 4 * (2 * (size_t)nq + (size_t)nz) +
                (size_t)nq + (size_t)nz + (size_t)nc;
    double *v = calloc(nv + 1, sizeof *v);
    w->jv = malloc(((size_t)m->jnnz + 1) * sizeof *w->jv);
    w->mv = malloc(((size_t)m->mnnz + 1) * sizeof *w->mv);
    if (!v || !w->jv || !w->mv || drk_pattern(r, w) != 0) {
        free(v);
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting rk4");
    }
    w->b = v, v += n;
    w->ys = v, v += ny;
    w->f = v, v += ny;
    w->cr = v, v += 3 * nc;
    for (int i = 0; i < 4; i++) {
        w->kv[i] = v, v += nq;
        w->ka[i] = v, v += nq;
        w->kz[i] = v, v += nz;
    }
    w->acc1 = v, v += nq;
    w->fz1 = v, v += nz;
    w->lam1 = v;
    w->reads_v = a->nu > 0 || a->nblocks > 0;
    for (int c = nq; c < 2 * nq; c++)
        for (int e = m->jcolptr[c]; e < m->jcolptr[c + 1]; e++)
            w->reads_v |= m->jrowind[e] >= nq;
    /* M constant, diagonal and regular (rigid bodies in the plane, point masses;
     * not a director body whose third director carries no inertia): the Schur
     * complement. JNT_RK4_SADDLE in the environment: the saddle point (tests) */
    if ((rc = eval_mass(m, r->data, r->t, r->y, w->mv)) != 0)
        return integ_fail(r, JNT_ERR_KERNEL, r->t, "the mass kernel failed (status %d)", rc);
    w->have_m = 1;
    w->schur = a->mass_const && drk_mass_diagonal(m, nq) && getenv("JNT_RK4_SADDLE") == NULL;
    for (int i = 0; w->schur && i < nq; i++)
        w->schur = w->mv[m->mcolptr[i]] > 0.0 && isfinite(w->mv[m->mcolptr[i]]);
    if (w->schur) {
        if (drk_schur_pattern(r, w) != 0)
            return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting rk4");
        if (ldl_symbolic(w) != 0)
            return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory for the %d x %d matrix "
                              "C_q M^-1 C_q^T", nc, nc);
    } else {
        int path = sparse_choose(n, w->colptr[n], SPARSE_AUTO);
        if (sparse_lu_init(&w->lu, n, w->colptr, w->rowind, path) != 0)
            return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory for the %d x %d "
                              "saddle-point matrix", n, n);
    }
    if ((rc = drk_begin(r, w, r->t, r->y, 0, 0)) != 0)
        return rc;
    /* the Jacobian of drk_begin is at the consistent start: lambda there */
    if (drk_lambda_dependent(r, w))
        return JNT_ERR_MODEL;
    return 0;
}

/* The q'' and f_z of the step start (k1) into stage 0. */
static void drk_k1(drk *w, const double *y)
{
    memcpy(w->kv[0], y + w->nq, (size_t)w->nq * sizeof *y);
    memcpy(w->ka[0], w->acc1, (size_t)w->nq * sizeof *y);
    memcpy(w->kz[0], w->fz1, (size_t)w->nz * sizeof *y);
}

/* y_s = y + c (kv, ka, kz of stage i), lambda rows 0. */
static void drk_stage_state(const drk *w, const double *y, double c, int i, double *ys)
{
    int nq = w->nq, nz = w->nz;
    for (int j = 0; j < nq; j++) {
        ys[j] = y[j] + c * w->kv[i][j];
        ys[nq + j] = y[nq + j] + c * w->ka[i][j];
    }
    for (int j = 0; j < nz; j++)
        ys[2 * nq + j] = y[2 * nq + j] + c * w->kz[i][j];
    memset(ys + w->c0, 0, (size_t)w->nc * sizeof *ys);
}

/* One step of settings.h (capped by h_max and the model's proposal). */
static int drk_step(integ_run *r)
{
    drk *w = r->mem;
    int nq = w->nq, nz = w->nz, nc = w->nc, rc;
    double t = r->t, hs = r->s.h_max > 0 ? fmin(r->s.h, r->s.h_max) : r->s.h;
    r->t_new = integ_capped_end(r, hs);
    double h = r->t_new - t;
    const double *y = r->y;
    double *y1 = r->y_new;
    static const double cs[4] = {0.0, 0.5, 0.5, 1.0};
    drk_k1(w, y);
    for (int i = 1; i < 4; i++) {
        double ti = t + cs[i] * h;
        drk_stage_state(w, y, cs[i] * h, i - 1, w->ys);
        memcpy(w->kv[i], w->ys + nq, (size_t)nq * sizeof *w->ys);
        if ((rc = drk_factor(r, w, ti, w->ys)) != 0 ||
            (rc = drk_accel(r, w, ti, w->ys, w->ka[i], NULL, w->kz[i], 0)) != 0)
            return rc;
    }
    /* y~ = y + h/6 (k1 + 2 k2 + 2 k3 + k4) */
    double h6 = h / 6.0;
    for (int j = 0; j < nq; j++) {
        y1[j] = y[j] + h6 * (w->kv[0][j] + 2.0 * (w->kv[1][j] + w->kv[2][j]) + w->kv[3][j]);
        y1[nq + j] = y[nq + j] + h6 * (w->ka[0][j] + 2.0 * (w->ka[1][j] + w->ka[2][j]) +
                                       w->ka[3][j]);
    }
    for (int j = 0; j < nz; j++)
        y1[2 * nq + j] = y[2 * nq + j] + h6 * (w->kz[0][j] + 2.0 * (w->kz[1][j] + w->kz[2][j]) +
                                               w->kz[3][j]);
    memset(y1 + w->c0, 0, (size_t)nc * sizeof *y1);
    /* positions onto C = 0 with the fourth stage's matrix */
    double qmax = 0.0;
    for (int j = 0; j < nq; j++)
        qmax = drk_max(qmax, fabs(y1[j]));
    double tol = CONS_TOL * (1.0 + qmax), cprev = INFINITY;
    for (int it = 0;; it++) {
        if ((rc = integ_rhs(r, r->t_new, y1, w->f)) != 0)
            return drk_failed(r, rc, r->t_new);
        double cm = 0.0;
        for (int k = 0; k < nc; k++)
            if (!(r->data->ncons_off && r->data->cons_off[k]))
                cm = drk_max(cm, fabs(w->f[w->c0 + k]));
        if (cm <= tol)
            break;
        if (it == PROJECT_MAXIT)
            return integ_fail(r, JNT_ERR_NEWTON, r->t_new, "rk4: the positions do not return "
                              "onto the constraints (|C| = %g after %d projections): a smaller "
                              "step h", cm, PROJECT_MAXIT);
        /* the fourth stage's matrix contracts too slowly (fast rotations: its C_q
         * is far from the end's): the matrix at the current q (Gauss-Newton) */
        if (cm > PROJECT_SLOW * cprev && (rc = drk_factor(r, w, r->t_new, y1)) != 0)
            return rc;
        cprev = cm;
        r->st->newton_iters++;
        memset(w->b, 0, (size_t)nq * sizeof *w->b);
        for (int k = 0; k < nc; k++)
            w->b[nq + k] = r->data->ncons_off && r->data->cons_off[k] ? 0.0 : -w->f[w->c0 + k];
        if (drk_solve(w) != 0)
            return integ_fail(r, JNT_ERR_SOLVER, r->t_new, "rk4: the projection's solve failed");
        for (int j = 0; j < nq; j++)
            y1[j] += w->b[j];
    }
    /* velocities onto C_q v + C_t = 0 at the projected q, k1 of the next step;
     * the last check's rhs is the one at the projected q (lambda 0), which
     * serves k1 when only the rows q' = v read v */
    return drk_begin(r, w, r->t_new, y1, 1, !w->reads_v);
}

/* The step start's k1 again after the driver changed the discrete state
 * (the states are the step end's, already consistent). */
static int drk_reset(integ_run *r)
{
    return drk_begin(r, r->mem, r->t, r->y, 1, 0);
}

/* See the top: Hermite on (q, v), (v, q'') and (z, f_z); lambda linear. The
 * step start's rates are stage 0's, the end's acc1 and fz1. */
static int drk_interp(integ_run *r, double t, double *yout)
{
    const drk *w = r->mem;
    int nq = w->nq, nz = w->nz;
    double th = (t - r->t) / (r->t_new - r->t), u = 1.0 - th;
    const double *y0 = r->y, *y1 = r->y_new;
    integ_hermite_rows(r, t, nq, y0, y0 + nq, y1, y1 + nq, yout);
    integ_hermite_rows(r, t, nq, y0 + nq, w->ka[0], y1 + nq, w->acc1, yout + nq);
    integ_hermite_rows(r, t, nz, y0 + 2 * nq, w->kz[0], y1 + 2 * nq, w->fz1, yout + 2 * nq);
    for (int i = w->c0; i < w->ny; i++)
        yout[i] = u * y0[i] + th * y1[i];
    return 0;
}

static void drk_stop(integ_run *r)
{
    drk *w = r->mem;
    if (!w)
        return;
    sparse_lu_free(&w->lu);
    free(w->l_p), free(w->l_parent), free(w->l_nz), free(w->l_i), free(w->l_pat);
    free(w->l_flag), free(w->l_x), free(w->l_d), free(w->l_y);
    free(w->sc_p), free(w->sc_i), free(w->sc_q), free(w->lr_p), free(w->lr_j), free(w->lr_q);
    free(w->cr_ptr), free(w->cr_col), free(w->cr_p), free(w->cqr);
    free(w->cc_ptr), free(w->cc_e), free(w->cc_row), free(w->cq), free(w->md), free(w->minv);
    free(w->s_colptr), free(w->s_rowind), free(w->s_val), free(w->s_pd);
    free(w->tr_a), free(w->tr_b), free(w->tr_i), free(w->tr_pos);
    free(w->jv), free(w->mv), free(w->b);
    free(w->colptr), free(w->rowind), free(w->val);
    free(w->pm), free(w->pj), free(w->pd), free(w->jsign);
    free(w);
    r->mem = NULL;
}

const integ_type integ_dae_rk4 = {
    .name = "rk4",
    .fixed_step = 1,
    .keeps_f = 0,
    .work = drk_work,
    .start = drk_start,
    .step = drk_step,
    .interp = drk_interp,
    .reset = drk_reset,
    .stop = drk_stop,
    .check = NULL,
};
