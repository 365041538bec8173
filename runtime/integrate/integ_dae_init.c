/*
 * integ_dae_init.c: the multibody DAE methods' Newton matrix (pattern,
 * values, factorisation) and their consistent initial conditions
 * (integ.h, "the multibody DAE methods").
 *
 * The matrix of the stabilised index-2 formulation (integ_dae.c) adds the
 * velocity rows, C_q at the iterate on the columns of q'', and the columns
 * of mu, C_q(q_n)^T as it moves q: column k is sum_i C_q(q_n)(k, i) times
 * the q-part of q''_i's column. Its pattern is built once from the
 * Jacobian's pattern, C_q by rows (cq_ptr, cq_e, cq_col).
 *
 * Initial conditions at t0, as Negrut et al. 2007 (Sect. 3) start HHT and
 * Arnold & Bruls 2007 (Sect. 3) the generalized-alpha scheme: q'' and
 * lambda must satisfy the equations of motion and the constraints at
 * acceleration level, which needs q and v on the position and velocity
 * constraints. So
 *   (a) q by Gauss-Newton minimum-norm corrections
 *       [I C_q^T; C_q 0] [dq; mu] = [0; -C(q, t0)] until |C| < 1e-12 (1 + |q|);
 *   (b) v by the M-weighted projection
 *       [M C_q^T; C_q 0] [dv; mu] = [0; -(C_q v + C_t)];
 *   (c) [M C_q^T; C_q 0] [q''; lambda] = [Q; -gamma], by Newton on lambda
 *       when Q depends on it (joint friction: the Jacobian's lambda columns
 *       hold C_q^T - Q_lambda).
 * These solves use the same matrix with the velocity rows and the mu
 * columns decoupled (identity), so mu stays 0 in them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "assemble.h"
#include "integ.h"

#define PROJECT_MAXIT 10

/* The block of Newton row i: 0 (rows of v), 1 (z), 2 (lambda), 3 (the
 * velocity constraints). */
static int row_block(const integ_dae *w, int i)
{
    return i < w->nq ? 0 : i < w->nq + w->nz ? 1 : i < w->nx ? 2 : 3;
}

/* The first state row of the constraints (the rows of lambda) in the rhs. */
static int cons_row0(const integ_dae *w)
{
    return 2 * w->nq + w->nz;
}

/* Add row i to column e0.. of the pattern being built (once). */
static void pattern_add(integ_dae *w, int i, int *e)
{
    if (w->pos[i] < 0) {
        w->pos[i] = *e;
        w->rowind[(*e)++] = i;
    }
}

/* The rows of the Jacobian's column jc from nq on, into the pattern. */
static void pattern_jcol(integ_dae *w, const jnt_model *m, int jc, int *e)
{
    for (int k = m->jcolptr[jc]; k < m->jcolptr[jc + 1]; k++)
        if (m->jrowind[k] >= w->nq)
            pattern_add(w, m->jrowind[k] - w->nq, e);
}

static int cmp_int(const void *x, const void *y)
{
    int u = *(const int *)x, v = *(const int *)y;
    return (u > v) - (u < v);
}

/* C_q by rows from the Jacobian's pattern (the rows of lambda, the columns
 * of q): w->cq_ptr, cq_e, cq_col. Returns the number of its entries, or -1
 * when out of memory. */
static long cq_rows(const jnt_model *m, integ_dae *w)
{
    int nq = w->nq, nc = w->nc, c0 = cons_row0(w);
    w->cq_ptr = calloc((size_t)nc + 2, sizeof *w->cq_ptr);
    if (!w->cq_ptr)
        return -1;
    for (int j = 0; j < nq; j++)
        for (int e = m->jcolptr[j]; e < m->jcolptr[j + 1]; e++)
            if (m->jrowind[e] >= c0)
                w->cq_ptr[m->jrowind[e] - c0 + 2]++;
    for (int k = 0; k < nc; k++)
        w->cq_ptr[k + 2] += w->cq_ptr[k + 1];
    long n = w->cq_ptr[nc + 1];
    w->cq_e = malloc((size_t)n * sizeof *w->cq_e + 1);
    w->cq_col = malloc((size_t)n * sizeof *w->cq_col + 1);
    if (!w->cq_e || !w->cq_col)
        return -1;
    /* counting sort by row, columns ascending within a row */
    for (int j = 0; j < nq; j++)
        for (int e = m->jcolptr[j]; e < m->jcolptr[j + 1]; e++)
            if (m->jrowind[e] >= c0) {
                int at = w->cq_ptr[m->jrowind[e] - c0 + 1]++;
                w->cq_e[at] = e, w->cq_col[at] = j;
            }
    return n;
}

/* See integ.h. */
int integ_dae_alloc(integ_run *r, integ_dae *w)
{
    const jnt_abi_model *a = r->abi;
    const jnt_model *m = r->data->m;
    int nq = a->nq, ny = a->ny, nx = ny - nq, nc = a->nc;
    int N = nx + (w->stab ? nc : 0);
    w->nq = nq, w->nc = nc, w->nz = ny - 2 * nq - nc, w->nx = nx, w->N = N;
    long ncq = cq_rows(m, w);
    /* the index-3 entries (the diagonal, M, the Jacobian once) and C_q again
     * for the velocity rows (within the second jac_nnz); stab: per entry
     * (k, i) of C_q the Jacobian's column of q_i (the column of mu_k) */
    size_t cap = 2 * (size_t)m->jnnz + (size_t)m->mnnz + (size_t)N;
    for (long k = 0; w->stab && k < ncq; k++) {
        int j = w->cq_col[k];
        cap += 1 + (size_t)(m->jcolptr[j + 1] - m->jcolptr[j]);
    }
    w->colptr = malloc(((size_t)N + 1) * sizeof *w->colptr);
    w->rowind = malloc(cap * sizeof *w->rowind + 1);
    w->pos = malloc((size_t)N * sizeof *w->pos + 1);
    w->val = malloc(cap * sizeof *w->val + 1);
    w->jv = malloc((size_t)m->jnnz * sizeof *w->jv + 1);
    w->jn = calloc((size_t)m->jnnz + 1, sizeof *w->jn);
    w->mv = malloc((size_t)m->mnnz * sizeof *w->mv + 1);
    /* q'', a at both ends and C_q^T mu (nq each), the rhs at both ends and
     * a trial state (ny each), x and dx (N each), cons_rates' C_t, gamma
     * and C_q v + C_t (3 nc), C_q v + C_t (nc), the last two steps'
     * unknowns (N each) */
    size_t nv = 5 * (size_t)nq + 3 * (size_t)ny + 4 * (size_t)N + 4 * (size_t)nc;
    double *v = calloc(nv + 1, sizeof *v);
    if (ncq < 0 || !w->colptr || !w->rowind || !w->pos || !w->val || !w->jv || !w->jn ||
        !w->mv || !v) {
        free(v);
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory starting the DAE integrator");
    }
    w->vec = v;
    w->qdd = v, v += nq;
    w->qdd1 = v, v += nq;
    w->a = v, v += nq;
    w->a1 = v, v += nq;
    w->fn = v, v += ny;
    w->f1 = v, v += ny;
    w->yt = v, v += ny;
    w->x = v, v += N;
    w->dx = v, v += N;
    w->xa = v, v += N;
    w->xb = v, v += N;
    w->cr = v, v += 3 * nc;
    w->gv = v, v += nc;
    w->dq = v;
    /* the pattern, column by column: the diagonal, M, the Jacobian's
     * columns; stab: C_q in the velocity rows, the columns of mu */
    int c0 = cons_row0(w);
    for (int i = 0; i < N; i++)
        w->pos[i] = -1;
    int e = 0;
    for (int c = 0; c < N; c++) {
        int e0 = w->colptr[c] = e;
        pattern_add(w, c, &e);
        if (c < nq) {
            for (int k = m->mcolptr[c]; k < m->mcolptr[c + 1]; k++)
                pattern_add(w, m->mrowind[k], &e);
            pattern_jcol(w, m, c, &e);
            pattern_jcol(w, m, nq + c, &e);
            for (int k = m->jcolptr[c]; w->stab && k < m->jcolptr[c + 1]; k++)
                if (m->jrowind[k] >= c0)
                    pattern_add(w, nx + m->jrowind[k] - c0, &e);
        } else if (c < nx) {
            pattern_jcol(w, m, c + nq, &e);
        } else {
            for (int k = w->cq_ptr[c - nx]; k < w->cq_ptr[c - nx + 1]; k++)
                pattern_jcol(w, m, w->cq_col[k], &e);
        }
        qsort(w->rowind + e0, (size_t)(e - e0), sizeof *w->rowind, cmp_int);
        for (int k = e0; k < e; k++)
            w->pos[w->rowind[k]] = -1;
    }
    w->colptr[N] = e;
    int path = sparse_choose(N, e, SPARSE_AUTO);
    if (w->once && N <= DAE_ONCE_LOOPS && !getenv("JNT_LINSOLVE"))
        path = SPARSE_LOOPS;
    if (sparse_lu_init(&w->lu, N, w->colptr, w->rowind, path) != 0)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory for the %d x %d Newton matrix",
                          N, N);
    return 0;
}

/* See integ.h. */
void integ_dae_free(integ_dae *w)
{
    if (!w)
        return;
    sparse_lu_free(&w->lu);
    free(w->colptr), free(w->rowind), free(w->pos), free(w->val), free(w->jv), free(w->mv);
    free(w->jn), free(w->cq_ptr), free(w->cq_e), free(w->cq_col);
    free(w->vec);
    free(w);
}

/* See integ.h. */
int integ_dae_mass(integ_run *r, integ_dae *w, double t, const double *y)
{
    const jnt_abi_model *a = r->abi;
    const jnt_model *m = r->data->m;
    if (w->have_m && a->mass_const)
        return 0;
    int rc = eval_mass(m, r->data, t, y, w->mv);
    if (rc != 0)
        return integ_fail(r, JNT_ERR_KERNEL, t, "the mass kernel failed (status %d)", rc);
    for (int k = 0; k < m->mnnz; k++)
        if (!isfinite(w->mv[k]))
            return integ_fail(r, JNT_ERR_NONFINITE, t, "the mass matrix has a value that is not "
                              "finite (row of '%s')", a->y_names[m->mrowind[k]]);
    w->have_m = 1;
    return 0;
}

/* Add s times coefficient times the Jacobian's column jc (rows from nq on)
 * to the values of the current column (positions in w->pos), per row
 * block. */
static void fill_jcol(integ_dae *w, const jnt_model *m, int jc, double s, const double k[3])
{
    for (int e = m->jcolptr[jc]; e < m->jcolptr[jc + 1]; e++) {
        int row = m->jrowind[e];
        if (row < w->nq)
            continue;
        int i = row - w->nq;
        w->val[w->pos[i]] += s * k[row_block(w, i)] * w->jv[e];
    }
}

/* See integ.h. */
int integ_dae_factor(integ_run *r, integ_dae *w, const integ_dae_coef *c, int strict)
{
    const jnt_model *m = r->data->m;
    int nq = w->nq, nx = w->nx, N = w->N, c0 = cons_row0(w);
    const unsigned char *off = r->data->ncons_off ? r->data->cons_off : NULL;
    for (int col = 0; col < N; col++) {
        for (int e = w->colptr[col]; e < w->colptr[col + 1]; e++) {
            w->pos[w->rowind[e]] = e;
            w->val[e] = 0.0;
        }
        if (col < nq) {
            w->val[w->pos[col]] += c->iq;
            for (int k = m->mcolptr[col]; k < m->mcolptr[col + 1]; k++)
                w->val[w->pos[m->mrowind[k]]] += c->m * w->mv[k];
            fill_jcol(w, m, col, 1.0, c->kq);
            fill_jcol(w, m, nq + col, 1.0, c->kv);
            /* the velocity rows: C_q (the Jacobian's rows of lambda) */
            for (int e = m->jcolptr[col]; w->stab && e < m->jcolptr[col + 1]; e++)
                if (m->jrowind[e] >= c0)
                    w->val[w->pos[nx + m->jrowind[e] - c0]] += c->cv * w->jv[e];
        } else if (col < nq + w->nz) {
            w->val[w->pos[col]] += c->iz;
            fill_jcol(w, m, col + nq, 1.0, c->kz);
        } else if (col < nx) {
            fill_jcol(w, m, col + nq, 1.0, c->kl);
        } else {
            /* mu_k moves q by C_q(q_n)^T e_k */
            w->val[w->pos[col]] += c->iu;
            for (int k = w->cq_ptr[col - nx]; c->ku != 0.0 && k < w->cq_ptr[col - nx + 1]; k++)
                fill_jcol(w, m, w->cq_col[k], c->ku * w->jn[w->cq_e[k]], c->kq);
        }
        /* a redundant row the assembly dropped: its C_q row is 0 (integ_jac_sparse),
           its equations lambda_k = 0 and mu_k = 0 */
        int k = col < nq + w->nz ? -1 : col < nx ? col - nq - w->nz : col - nx;
        if (k >= 0 && off && off[k])
            w->val[w->pos[col]] = 1.0;
        for (int e = w->colptr[col]; e < w->colptr[col + 1]; e++)
            w->pos[w->rowind[e]] = -1;
    }
    r->st->lu_decomps++;
    int info = sparse_lu_factor(&w->lu, w->val);
    if (info < 0)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory factorising the Newton matrix");
    if (info > 0 || !strict || w->lu.klu)
        return info;
    /* dense: a pivot at rounding level is a dependent row too */
    double big = 0.0;
    for (int i = 0; i < N; i++)
        big = fmax(big, fabs(w->lu.a[(size_t)i * N + i]));
    for (int i = 0; i < N; i++)
        if (fabs(w->lu.a[(size_t)i * N + i]) <= 1e-12 * big)
            return 1 + i;
    return 0;
}

/* See integ.h. */
void integ_dae_cq(const integ_dae *w, const double *jv, const double *u, double *out)
{
    for (int k = 0; k < w->nc; k++) {
        double s = 0.0;
        for (int e = w->cq_ptr[k]; e < w->cq_ptr[k + 1]; e++)
            s += jv[w->cq_e[e]] * u[w->cq_col[e]];
        out[k] = s;
    }
}

/* See integ.h. */
void integ_dae_cqt(const integ_dae *w, const double *jv, const double *m, double *out)
{
    memset(out, 0, (size_t)w->nq * sizeof *out);
    for (int k = 0; k < w->nc; k++)
        for (int e = w->cq_ptr[k]; e < w->cq_ptr[k + 1]; e++)
            out[w->cq_col[e]] += jv[w->cq_e[e]] * m[k];
}

/* See integ.h. */
double integ_dae_cmax(const integ_dae *w, const double *f)
{
    double c = 0.0;
    for (int k = 0; k < w->nc; k++)
        c = fmax(c, fabs(f[2 * w->nq + w->nz + k]));
    return c;
}

/* Length of the joint part of a constraint's name ("pin" of "pin.x"). */
static int joint_len(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? (int)(dot - name) : (int)strlen(name);
}

/* The name of constraint k. */
static const char *cons_name(const integ_run *r, const integ_dae *w, int k)
{
    const char *s = r->abi->y_names[2 * w->nq + w->nz + k];
    return s ? s : "?";
}

/* See integ.h. */
int integ_dae_refactor(integ_run *r, integ_dae *w, const integ_dae_coef *c, double t, double h,
                       int (*state_of)(const integ_dae *w, int j))
{
    w->fact_h = 0.0;
    int rc = integ_jac_sparse(r, t, w->yt, w->jv);
    if (rc != 0)
        return rc;
    if ((rc = integ_dae_factor(r, w, c, 0)) < 0)
        return rc;
    if (rc > 0) {
        r->cause = INTEG_CAUSE_SINGULAR;
        r->cause_index = state_of(w, rc - 1);
        r->cause_t = r->t;
        return 1;
    }
    w->fact_h = h;
    w->fresh = 1;
    return 0;
}

/* A singular constraint system at unknown j (1 + j from integ_dae_factor;
 * mu_k names constraint k). */
static int redundant(integ_run *r, const integ_dae *w, int info, const char *what)
{
    int j = info - 1;
    if (j >= w->nx)
        j -= w->nc;
    if (j >= w->nq + w->nz)
        return integ_fail(r, JNT_ERR_MODEL, r->t,
                          "%s: the constraints are redundant or conflicting: the matrix "
                          "[M C_q^T; C_q 0] is singular at constraint '%s' (a joint given twice, "
                          "or more joints than the motion needs?)", what,
                          cons_name(r, w, j - w->nq - w->nz));
    return integ_fail(r, JNT_ERR_MODEL, r->t,
                      "%s: the matrix [M C_q^T; C_q 0] is singular at coordinate '%s' (a body "
                      "without mass, or redundant constraints?)", what,
                      r->abi->y_names[j < w->nq ? j : j + w->nq]);
}

/* The rhs at (t, y) into f, a failure as an error. */
static int rhs_at(integ_run *r, const double *y, double *f, const char *where)
{
    int rc = integ_rhs(r, r->t, y, f);
    if (rc == 1)
        return integ_fail_cause(r, JNT_ERR_KERNEL, r->t, where);
    return rc;
}

/* The Jacobian at (t, y) into w->jv, a failure as an error. */
static int jac_at(integ_run *r, integ_dae *w, const double *y)
{
    int rc = integ_jac_sparse(r, r->t, y, w->jv);
    if (rc == 1)
        return integ_fail_cause(r, JNT_ERR_KERNEL, r->t,
                                "the jacobian kernel failed at the initial state");
    return rc;
}

/* The assembly's view of the run: C and dense C_q at q (assemble.h). */
typedef struct asm_ctx {
    integ_run *r;
    integ_dae *w;
    double *y, *f; /* the state (q replaced by the trial) and its rhs */
    int npos;      /* extra position rows */
    int *pos;      /* their indices in w->extra */
    double *res, *grad; /* the extra rows' values (n) and gradients (n x nq) */
} asm_ctx;

/* Fill the extra rows of x's kind (w->extra) at y: res, grad. */
static int extra_eval(asm_ctx *x)
{
    const assemble_rows *e = x->w->extra;
    return e->eval(e->ctx, x->r->t, x->y, x->res, x->grad) != 0 ? 1 : 0;
}

static int asm_eval(void *ctx, const double *q, double *c, double *J)
{
    asm_ctx *x = ctx;
    integ_dae *w = x->w;
    int nq = w->nq, nc = w->nc, c0 = 2 * nq + w->nz;
    memcpy(x->y, q, (size_t)nq * sizeof *q);
    int rc = integ_rhs(x->r, x->r->t, x->y, x->f);
    if (rc != 0)
        return rc;
    for (int k = 0; k < nc; k++)
        c[k] = x->f[c0 + k];
    if (x->npos && (rc = extra_eval(x)) != 0)
        return rc;
    for (int k = 0; k < x->npos; k++)
        c[nc + k] = x->res[x->pos[k]];
    if (!J)
        return 0;
    if ((rc = integ_jac_sparse(x->r, x->r->t, x->y, w->jv)) != 0)
        return rc;
    memset(J, 0, (size_t)(nc + x->npos) * nq * sizeof *J);
    for (int k = 0; k < nc; k++)
        for (int e = w->cq_ptr[k]; e < w->cq_ptr[k + 1]; e++)
            J[(size_t)k * nq + w->cq_col[e]] = w->jv[w->cq_e[e]];
    for (int k = 0; k < x->npos; k++)
        memcpy(J + (size_t)(nc + k) * nq, x->grad + (size_t)x->pos[k] * nq,
               (size_t)nq * sizeof *J);
    return 0;
}

/* Is name's last part a position of the body ("x", "y", "z")? */
static int is_position(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strcmp(dot, ".x") == 0 || strcmp(dot, ".y") == 0 || strcmp(dot, ".z") == 0);
}

/* M_ii of the run's model (0 when M has no diagonal entry there). */
static double mass_diag(const jnt_model *m, const integ_dae *w, int i)
{
    for (int k = m->mcolptr[i]; k < m->mcolptr[i + 1]; k++)
        if (m->mrowind[k] == i)
            return w->mv[k];
    return 0.0;
}

/* The weights of the change (assemble.h): 1 for a position, sqrt(m / M_ii)
 * for another coordinate of a body of mass m (1 / r_g for an angle), and
 * the model's length scale: the largest position or radius of gyration;
 * *size: the largest body, 2 sqrt(3) r_g (a rod's length), or the length
 * scale when no body turns. A body's coordinates are consecutive states
 * with its name before the dot (one pass: a flexible body's thousands of
 * coordinates cost their number, not its square). */
static double scales(integ_run *r, const integ_dae *w, const double *y, double *s,
                     double *size)
{
    const char *const *nm = r->abi->y_names;
    const jnt_model *m = r->data->m;
    double len = 0.0, rg = 0.0;
    for (int a = 0, b; a < w->nq; a = b) {
        /* the body [a, b): its mass, the largest M_jj of its positions */
        int gl = joint_len(nm[a]);
        double mass = 0.0;
        for (b = a; b < w->nq && joint_len(nm[b]) == gl && strncmp(nm[b], nm[a], (size_t)gl) == 0;
             b++)
            if (is_position(nm[b]))
                mass = fmax(mass, mass_diag(m, w, b));
        for (int i = a; i < b; i++) {
            s[i] = 1.0;
            if (is_position(nm[i])) {
                len = fmax(len, fabs(y[i]));
                continue;
            }
            double mii = mass_diag(m, w, i);
            if (mass > 0.0 && mii > 0.0) {
                s[i] = sqrt(mass / mii);
                rg = fmax(rg, 1.0 / s[i]);
            }
        }
    }
    len = fmax(len, rg);
    len = len > 0.0 ? len : 1.0;
    *size = rg > 0.0 ? 2.0 * sqrt(3.0) * rg : len;
    return len;
}

/* Is r a run resumed after the model's start time (jnt_advance, jnt_step)? */
static int resumed(const integ_run *r)
{
    jnt_settings own;
    memset(&own, 0, sizeof own);
    return r->abi->settings && r->abi->settings(r->p, &own) >= 0 && r->t > own.t0;
}

/* (a): q onto C(q, t0) = 0 (and the extra position rows): assemble.c. */
static int project_q(integ_run *r, integ_dae *w, double *y, double *f)
{
    int nq = w->nq, nc = w->nc;
    const assemble_rows *e = w->extra;
    int ne = e ? e->n : 0;
    double tol = r->s.assemble_tol;
    if (!(tol >= 0.0 && tol < INFINITY))
        return integ_fail(r, JNT_ERR_PARAM, r->t, "assemble_tol must be a finite length >= 0 "
                          "(got %g)", tol);
    int rc = integ_dae_mass(r, w, r->t, y);
    if (rc != 0)
        return rc;
    /* a fresh start finds the redundant rows again; a resumed run keeps them */
    jnt_data *dd = r->data;
    if (!resumed(r))
        dd->ncons_off = 0;
    if (!dd->cons_off && !(dd->cons_off = calloc((size_t)nc + 1, 1)))
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory assembling the joints");
    unsigned char *drop = calloc((size_t)nc + ne + 1, 1);
    double *s = malloc(((size_t)nq + 1) * sizeof *s);
    const char **names = malloc(((size_t)nc + ne + 1) * sizeof *names);
    /* the trial states: a copy of y (q is assembled in y itself) */
    int ny = r->abi->ny;
    asm_ctx x = {.r = r, .w = w, .y = malloc(((size_t)ny + 1) * sizeof *y), .f = f};
    if (x.y)
        memcpy(x.y, y, (size_t)ny * sizeof *y);
    x.pos = malloc(((size_t)ne + 1) * sizeof *x.pos);
    x.res = malloc(((size_t)ne + 1) * sizeof *x.res);
    x.grad = malloc(((size_t)ne * nq + 1) * sizeof *x.grad);
    if (!drop || !s || !names || !x.y || !x.pos || !x.res || !x.grad) {
        free(drop), free(s), free(names), free(x.y), free(x.pos), free(x.res), free(x.grad);
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory assembling the joints");
    }
    for (int k = 0; k < nc; k++)
        names[k] = cons_name(r, w, k);
    for (int k = 0; k < ne; k++)
        if (!e->velocity || !e->velocity[k]) {
            names[nc + x.npos] = e->names ? e->names[k] : "?";
            x.pos[x.npos++] = k;
        }
    /* resumed after the model's start time (jnt_advance, jnt_step): an
     * assembled state is kept without the rank checks, which the start made */
    double size, len = scales(r, w, y, s, &size);
    assemble_problem p = {.n = nq, .m = nc + x.npos, .q_names = r->abi->y_names,
                          .c_names = names, .scale = s, .tol = tol > 0 ? tol : 1e-12 * len,
                          .length = size, .no_rank_check = resumed(r), .eval = asm_eval,
                          .ctx = &x, .drop = drop, .droppable = nc};
    char msg[1024];
    assemble_info info;
    int st = assemble_positions(&p, y, &info, msg, sizeof msg);
    free(s), free(names), free(x.y), free(x.pos), free(x.res), free(x.grad);
    w->asm_info = info;
    if (st == ASSEMBLE_OK && info.dropped > 0) {
        /* the redundant rows: 0 = 0 from here on (integ_rhs, integ_jac_*), said once a run */
        memcpy(dd->cons_off, drop, (size_t)nc);
        dd->ncons_off = info.dropped;
        if (!p.no_rank_check)
            fprintf(stderr, "jnt: warning: %s\n", msg);
    }
    free(drop);
    if (st == ASSEMBLE_EVAL && info.rank < 0)
        return info.rank; /* the message is set */
    if (st == ASSEMBLE_EVAL)
        return info.rank == 1 ? integ_fail_cause(r, JNT_ERR_KERNEL, r->t, "the rhs kernel failed "
                                                 "assembling the joints")
                              : integ_fail(r, JNT_ERR_KERNEL, r->t, "%s", msg);
    if (st != ASSEMBLE_OK)
        return integ_fail(r, st == ASSEMBLE_NOMEM ? JNT_ERR_NOMEM : JNT_ERR_MODEL, r->t, "%s",
                          msg);
    return rhs_at(r, y, f, "the rhs kernel failed at the assembled state");
}

/* The matrix [M, C_q^T - Q_lambda; C_q, 0] (z decoupled) at y, factorised. */
static int saddle(integ_run *r, integ_dae *w, const double *y, const char *what)
{
    static const integ_dae_coef sad = {.m = 1.0, .iz = 1.0, .kq = {0, 0, 1}, .kl = {-1, 0, 0},
                                       .iu = 1.0};
    int rc = jac_at(r, w, y);
    if (rc == 0)
        rc = integ_dae_mass(r, w, r->t, y);
    if (rc == 0)
        rc = integ_dae_factor(r, w, &sad, 1);
    return rc > 0 ? redundant(r, w, rc, what) : rc;
}

/* C_t and gamma at y into w->cr. */
static int rates_at(integ_run *r, integ_dae *w, const double *y)
{
    int rc = integ_cons_rates(r, r->t, y, w->cr);
    if (rc != 0)
        return integ_fail(r, JNT_ERR_KERNEL, r->t, "the constraint-rates kernel failed "
                          "(status %d)", rc);
    return 0;
}

/* (b) with w->extra's velocity rows: v onto C_q v + C_t = 0 and them
 * together, by the least change weighted by M's diagonal (dense). */
static int project_v_extra(integ_run *r, integ_dae *w, double *y)
{
    const assemble_rows *e = w->extra;
    int nq = w->nq, nc = w->nc, nv = 0;
    for (int k = 0; e && k < e->n; k++)
        nv += e->velocity && e->velocity[k];
    if (nv == 0)
        return 0;
    const jnt_model *m = r->data->m;
    int rows = nc + nv;
    double *J = calloc((size_t)rows * nq + 1, sizeof *J), *b = malloc(((size_t)rows + 1) *
                                                                      sizeof *b);
    double *s = malloc(((size_t)nq + 1) * sizeof *s), *dv = malloc(((size_t)nq + 1) * sizeof *dv);
    double *res = malloc(((size_t)e->n + 1) * sizeof *res);
    double *grad = malloc(((size_t)e->n * nq + 1) * sizeof *grad);
    int rc = 0;
    if (!J || !b || !s || !dv || !res || !grad) {
        rc = integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory projecting the velocities");
        goto done;
    }
    if ((rc = jac_at(r, w, y)) != 0 || (rc = rates_at(r, w, y)) != 0)
        goto done;
    if (e->eval(e->ctx, r->t, y, res, grad) != 0) {
        rc = integ_fail(r, JNT_ERR_KERNEL, r->t, "the pins' kernel failed projecting the "
                        "initial velocities");
        goto done;
    }
    integ_dae_cq(w, w->jv, y + nq, b);
    for (int k = 0; k < nc; k++) {
        b[k] = -(b[k] + w->cr[k]);
        for (int q = w->cq_ptr[k]; q < w->cq_ptr[k + 1]; q++)
            J[(size_t)k * nq + w->cq_col[q]] = w->jv[w->cq_e[q]];
    }
    for (int k = 0, i = nc; k < e->n; k++)
        if (e->velocity && e->velocity[k]) {
            b[i] = -res[k];
            memcpy(J + (size_t)i * nq, grad + (size_t)k * nq, (size_t)nq * sizeof *J);
            i++;
        }
    for (int i = 0; i < nq; i++) {
        s[i] = 1.0;
        for (int k = m->mcolptr[i]; k < m->mcolptr[i + 1]; k++)
            if (m->mrowind[k] == i && w->mv[k] > 0.0)
                s[i] = 1.0 / sqrt(w->mv[k]);
    }
    if (assemble_min_norm(rows, nq, J, b, s, dv) < 0) {
        rc = integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory projecting the velocities");
        goto done;
    }
    for (int i = 0; i < nq; i++)
        y[nq + i] += dv[i];
done:
    free(J), free(b), free(s), free(dv), free(res), free(grad);
    return rc;
}

/* The model's pins (jnt_abi_model.pins) as extra rows of the assembly. */
static int abi_pins(void *ctx, double t, const double *y, double *res, double *grad)
{
    const integ_run *r = ctx;
    return r->abi->pins(t, y, r->p, res, grad);
}

static int consistent(integ_run *r, integ_dae *w);

/* See integ.h. */
int integ_dae_consistent(integ_run *r, integ_dae *w)
{
    const jnt_abi_model *a = r->abi;
    /* the model's pins hold at its start only: not on a run resumed later
     * (jnt_advance), nor from a state jnt_advance assembled itself */
    if (w->extra || a->npins <= 0 || !a->pins || resumed(r) || r->data->skip_pins)
        return consistent(r, w);
    unsigned char *vel = malloc((size_t)a->npins);
    if (!vel)
        return integ_fail(r, JNT_ERR_NOMEM, r->t, "out of memory assembling the joints");
    for (int k = 0; k < a->npins; k++)
        vel[k] = a->pin_rate && a->pin_rate[k] != 0;
    assemble_rows rows = {.n = a->npins, .names = a->pin_names, .velocity = vel,
                          .eval = abi_pins, .ctx = r};
    w->extra = &rows;
    int rc = consistent(r, w);
    w->extra = NULL;
    free(vel);
    return rc;
}

/* integ_dae_consistent with w->extra set (or none). */
static int consistent(integ_run *r, integ_dae *w)
{
    int nq = w->nq, nc = w->nc, c0 = nq + w->nz, N = w->N;
    double *y = r->y, *f = w->fn, *x = w->x, *dx = w->dx;
    int rc = rhs_at(r, y, f, "the rhs kernel failed at the initial state");
    if (rc == 0)
        rc = project_q(r, w, y, f);
    /* (b) v onto C_q v + C_t = 0, M-weighted */
    if (rc == 0)
        rc = saddle(r, w, y, "projecting the initial velocities");
    if (rc == 0)
        rc = rates_at(r, w, y);
    if (rc != 0)
        return rc;
    memset(dx, 0, (size_t)N * sizeof *dx);
    integ_dae_cq(w, w->jv, y + nq, dx + c0);
    for (int k = 0; k < nc; k++)
        dx[c0 + k] = -(dx[c0 + k] + w->cr[k]);
    if (sparse_lu_solve(&w->lu, dx) != 0)
        return integ_fail(r, JNT_ERR_SOLVER, r->t, "the projection's solve failed");
    for (int i = 0; i < nq; i++)
        y[nq + i] += dx[i];
    if ((rc = project_v_extra(r, w, y)) != 0)
        return rc;
    /* (c) q'' and lambda: Newton from lambda = 0 on M q'' - F(lambda) = 0,
     * C_q q'' + gamma = 0 (one step when Q does not depend on lambda) */
    memset(x, 0, (size_t)N * sizeof *x);
    for (int k = 0; k < nc; k++)
        y[nq + c0 + k] = 0.0;
    if ((rc = rates_at(r, w, y)) != 0)
        return rc;
    for (int it = 0;; it++) {
        if ((rc = rhs_at(r, y, f, "the rhs kernel failed at the initial state")) != 0)
            return rc;
        if (it > 0) {
            double xm = 0.0, dm = 0.0;
            for (int i = 0; i < N; i++)
                xm = fmax(xm, fabs(x[i])), dm = fmax(dm, fabs(dx[i]));
            if (dm <= 1e-10 * (1.0 + xm))
                break;
            if (it == PROJECT_MAXIT)
                return integ_fail(r, JNT_ERR_NEWTON, r->t, "the initial accelerations and "
                                  "multipliers do not converge (Q depends on lambda?)");
        }
        if ((rc = saddle(r, w, y, "solving for the initial accelerations")) != 0)
            return rc;
        /* residual: M q'' - F, 0 for z, C_q q'' + gamma */
        memset(dx, 0, (size_t)N * sizeof *dx);
        const jnt_model *m = r->data->m;
        for (int j = 0; j < nq; j++)
            for (int k = m->mcolptr[j]; k < m->mcolptr[j + 1]; k++)
                dx[m->mrowind[k]] += w->mv[k] * x[j];
        for (int i = 0; i < nq; i++)
            dx[i] -= f[nq + i];
        integ_dae_cq(w, w->jv, x, dx + c0);
        for (int k = 0; k < nc; k++)
            dx[c0 + k] += w->cr[nc + k];
        if (sparse_lu_solve(&w->lu, dx) != 0)
            return integ_fail(r, JNT_ERR_SOLVER, r->t, "the initial accelerations' solve failed");
        for (int i = 0; i < N; i++)
            x[i] -= dx[i];
        for (int k = 0; k < nc; k++)
            y[nq + c0 + k] = x[c0 + k];
    }
    memcpy(w->qdd, x, (size_t)nq * sizeof *x);
    memcpy(w->a, x, (size_t)nq * sizeof *x);
    /* C_q(q_0) for the first step's mu (the last saddle's Jacobian is at y) */
    memcpy(w->jn, w->jv, (size_t)r->data->m->jnnz * sizeof *w->jn);
    return 0;
}
