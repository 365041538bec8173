/*
 * red_jtv.c: joint trial vectors (seed 000 Sect. 3). The first-order trial
 * vector derivatives (TVDs) of eq. 7, d phi_i / d q_j = K^-1 (dK/dq_j)
 * phi_i, for a joint whose contact pairs c (DOFs a_c, b_c, gap change
 * g_c = b_c^T Phi q with b_c = e_a - e_b) have a state-dependent stiffness
 * K_joint(q) = sum_c k_c(g_c) b_c b_c^T. Two readings of dK/dq_j:
 *
 * Smooth (red_tvd, red_jtv): k_c is differentiable at the reference state
 * with slope dk_c/dg, so that
 *
 *   dK/dq_j = sum_c dk_c/dg (b_c^T phi_j) b_c b_c^T,
 *   d_ij = K^-1 B c_ij,  c_ij[c] = dk_c/dg (b_c^T phi_i)(b_c^T phi_j),
 *
 * B = [b_1 ... b_np]; d_ij = d_ji, r (r + 1) / 2 distinct TVDs.
 *
 * One-sided (red_tvd_onesided, red_jtv_onesided): the pairs touch without
 * load at the reference state (g = g0), where every penalty law of seed 000
 * has a kink in its stiffness: k_c = 0 on the opening side, slope |dk_c/dg|
 * on the closing side (the joint-adapted exponential law of eq. 41:
 * k = 2 eps_N lambda_N A (g0 - g) + O((g0 - g)^2) for g < g0, 0 above; the
 * linear law of Fig. 17 jumps). dK/dq_j then differs for q_j > 0 and
 * q_j < 0: only the pairs that phi_j closes stiffen. With both directions,
 *
 *   d^+-_ij = K^-1 B c^+-_ij,  c^+-_ij[c] = |dk_c/dg| (b_c^T phi_i) max(0, +-b_c^T phi_j),
 *
 * 2 r^2 TVDs, not symmetric in (i, j): the count 2 (v + s)^2 that seed 000
 * gives after eq. 7 and its remark in Sect. 7 that TVDs of contact problems
 * are not symmetric (those of geometric nonlinearity are). Which side closes
 * does not matter: both signs are taken. The smooth TVDs are differences,
 * c_ij = c^+_ij - c^-_ij, so their span is contained.
 *
 * Every TVD lies in the span of the np static responses K^-1 b_c to pair
 * loads. Then the weighted POD of eq. 9, Phi_TVD^T K Phi_TVD phi_k =
 * lambda_k phi_k, keeps the t largest lambda_k and phi_T,k = Phi_TVD phi_k /
 * sqrt(lambda_k) (K-orthonormal).
 *
 * Weights (seed 000 defers them to its ref. [8]): the base vectors are
 * first scaled to unit M-norm, so the POD does not depend on their arbitrary
 * scaling (a static shape carries the unit of its load), and each TVD d_ij
 * is weighted by w_ij = omega_1^2 / (omega_i omega_j), omega_i the generating
 * frequency of phi_i (its Rayleigh quotient, exact for a normal mode) and
 * omega_1 the lowest: the weighting factor of Idelsohn and Cardona (1985)
 * for modal derivatives. The derivatives of the low-frequency vectors, which
 * carry most of the response, dominate the POD. Phi_TVD is the full set of
 * (i, j) pairs; in the smooth case each d_ij with i < j appears twice, which
 * is weighted here by sqrt(2) on a single column (the same Phi_TVD^T K
 * Phi_TVD spectrum); the one-sided d^+-_ij are all distinct.
 *
 * The eigenproblem of eq. 9 is N x N, N the number of TVDs. When the joint
 * has fewer pairs than that (np <= N) the same nonzero eigenpairs come from
 * the np x np problem H = L^T (C C^T) L, G = B^T K^-1 B = L L^T: phi_k =
 * C^T L u_k / sqrt(lambda_k), phi_T,k = Z C C^T L u_k / lambda_k with
 * Z = K^-1 B; only np solves with K are needed. Else the N TVDs are solved
 * for (D = K^-1 B C) and S = D^T K D = C^T B^T D is decomposed directly.
 *
 * Memory: neither Z (n x np) nor D (n x N) is held. Both problems need only
 * their pair rows, B^T Z and B^T D, which are gathered RED_SOLVE_BLOCK
 * columns at a time; the t vectors kept are then Z y = K^-1 (B y) with
 * y = C C^T L u_k / lambda_k (dual) or D s = K^-1 (B C s) (primal): t more
 * solves. So a JTV computation holds K's factor, the coefficients C
 * (np x N), the small POD matrices (np x np or N x N), n x RED_SOLVE_BLOCK
 * work and the n x t result.
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"
#include "red_impl.h"

/* Relative size below which a POD eigenvalue is round-off (the TVDs span
 * fewer directions than asked for). The eigenvalues of eq. 9 are those of a
 * Gram matrix (squared singular values of the K-weighted TVDs), computed to
 * about n eps lambda_max, 1e-14 for n ~ 50 pairs or TVDs: smaller ones are
 * noise; larger ones are directions of the TVD span, however small their
 * share. The K-weighted spectrum of a joint of thin sheets falls fast (a
 * pair load bends the sheets globally: the compliance of a pattern of
 * wavenumber k along the joint falls as k^-4), so that a larger cut-off
 * drops genuine directions (examples/lap_joint.jnt: 1e-10 keeps 9 of 17). */
#define JTV_RANK_TOL 1e-14

typedef struct jtv_work {
    int n, r, np, ntvd;
    int onesided;  /* the one-sided TVDs (file comment) */
    const fe_model *m;
    const red_joint *jt;
    double shift;  /* 0, or K is singular and kf factorises K + shift M */
    red_fact *kf;  /* K */
    double *c;     /* np x ntvd coefficients (weighted for red_jtv) */
    double *x;     /* n x RED_SOLVE_BLOCK: a block of pair loads, then their solutions */
    double *f, *res; /* n x RED_SOLVE_BLOCK each: refinement work when shift != 0 */
} jtv_work;

static void work_free(jtv_work *w)
{
    red_fact_free(w->kf);
    free(w->c);
    free(w->x);
    free(w->f);
    free(w->res);
}

/* Index of the pair (i, j), i <= j, in the packed TVD list. */
static size_t tvd_index(int i, int j)
{
    return (size_t)i + (size_t)j * (size_t)(j + 1) / 2;
}

/* Validate, factorise K and fill the TVD coefficients c, smooth or
 * one-sided (file comment). With `weighted`, the base vectors are scaled to
 * unit M-norm and the weights of the file comment applied; else the base is
 * used as given, unweighted (eq. 7). */
static int prepare(const fe_model *m, const red_basis *base, const red_joint *jt, int weighted,
                   int onesided, jtv_work *w, char *err, size_t errn)
{
    memset(w, 0, sizeof *w);
    if (!m || !base || !jt || base->n != m->ndof || base->r < 1 || !base->phi)
        return jnt_errf(err, errn, JNT_ERR_USAGE,
                        "jtv: the base is empty or does not match the model");
    if (jt->npair < 1 || !jt->dof_a || !jt->dof_b || !jt->dkdg)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "jtv: the joint has no contact pairs");
    int n = m->ndof, r = base->r, np = jt->npair;
    for (int c = 0; c < np; c++)
        if (jt->dof_a[c] < 0 || jt->dof_a[c] >= n || jt->dof_b[c] < 0 || jt->dof_b[c] >= n ||
            jt->dof_a[c] == jt->dof_b[c])
            return jnt_errf(err, errn, JNT_ERR_PARAM,
                            "jtv: contact pair %d has bad DOFs (%d, %d) of %d", c, jt->dof_a[c],
                            jt->dof_b[c], n);
    w->n = n;
    w->r = r;
    w->np = np;
    w->onesided = onesided;
    w->ntvd = onesided ? 2 * r * r : r * (r + 1) / 2;
    w->m = m;
    w->jt = jt;
    int rc = red_fact_new(&m->K, NULL, 0, &w->kf, err, errn);
    if (rc == 1) { /* free structure: see solve_k */
        w->shift = 1e-8 * red_shift_scale(&m->K, &m->M);
        rc = red_fact_new(&m->K, &m->M, w->shift, &w->kf, err, errn);
    }
    if (rc == 1)
        return jnt_errf(err, errn, JNT_ERR_MODEL,
                        "jtv: the stiffness matrix is not positive semidefinite");
    if (rc != JNT_OK)
        return rc;
    double *scale = malloc((size_t)r * sizeof *scale), *om = malloc((size_t)r * sizeof *om);
    double *tmp = malloc((size_t)n * sizeof *tmp), *p = malloc((size_t)np * (size_t)r * sizeof *p);
    size_t work = (size_t)n * RED_SOLVE_BLOCK * sizeof(double);
    w->c = malloc((size_t)np * (size_t)w->ntvd * sizeof *w->c);
    w->x = malloc(work);
    if (w->shift != 0) {
        w->f = malloc(work);
        w->res = malloc(work);
    }
    if (!scale || !om || !tmp || !p || !w->c || !w->x || (w->shift != 0 && (!w->f || !w->res))) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "jtv: out of memory for %d TVDs", w->ntvd);
        goto done;
    }
    /* Unit M-norm scale and squared generating frequency of each base vector. */
    double om2max = 0, ommin = HUGE_VAL;
    for (int i = 0; i < r; i++) {
        const double *phi = base->phi + (size_t)n * (size_t)i;
        double mm = 0, kk = 0;
        fe_sparse_mul(&m->M, phi, tmp);
        for (int k = 0; k < n; k++)
            mm += phi[k] * tmp[k];
        fe_sparse_mul(&m->K, phi, tmp);
        for (int k = 0; k < n; k++)
            kk += phi[k] * tmp[k];
        if (!(mm > 0)) {
            rc = jnt_errf(err, errn, JNT_ERR_MODEL, "jtv: base vector %d has no mass", i + 1);
            goto done;
        }
        scale[i] = weighted ? 1.0 / sqrt(mm) : 1.0;
        om[i] = kk / mm;
        om2max = fmax(om2max, om[i]);
    }
    /* Rigid-body vectors (no strain energy, e.g. the zero modes of a free
     * structure) change no gap: their TVDs vanish, weight 0. */
    for (int i = 0; i < r; i++) {
        om[i] = om[i] > 1e-12 * om2max ? sqrt(om[i]) : 0.0;
        if (om[i] > 0)
            ommin = fmin(ommin, om[i]);
    }
    /* P[c, i] = b_c^T phi_i (scaled). */
    for (int i = 0; i < r; i++) {
        const double *phi = base->phi + (size_t)n * (size_t)i;
        for (int c = 0; c < np; c++)
            p[c + (size_t)np * (size_t)i] = scale[i] * (phi[jt->dof_a[c]] - phi[jt->dof_b[c]]);
    }
    /* One-sided: column 2 (i + r j) + s holds c^+_ij (s = 0) or c^-_ij (s = 1),
     * c^+-_ij[c] = w_ij |dk_c/dg| P[c, i] max(0, +-P[c, j]). */
    for (int j = 0; onesided && j < r; j++)
        for (int i = 0; i < r; i++) {
            double wij = 1.0;
            if (weighted)
                wij = om[i] > 0 && om[j] > 0 ? ommin * ommin / (om[i] * om[j]) : 0.0;
            for (int sgn = 0; sgn < 2; sgn++) {
                double *col = w->c + (size_t)np * (2 * ((size_t)i + (size_t)r * j) + sgn);
                for (int c = 0; c < np; c++) {
                    double pj = p[c + (size_t)np * (size_t)j];
                    col[c] = wij * fabs(jt->dkdg[c]) * p[c + (size_t)np * (size_t)i] *
                             fmax(0.0, sgn ? -pj : pj);
                }
            }
        }
    /* Smooth: c_ij[c] = w_ij dk_c/dg P[c, i] P[c, j]. */
    for (int j = 0; !onesided && j < r; j++)
        for (int i = 0; i <= j; i++) {
            double wij = 1.0;
            if (weighted)
                wij = om[i] > 0 && om[j] > 0
                          ? ommin * ommin / (om[i] * om[j]) * (i < j ? sqrt(2.0) : 1.0)
                          : 0.0;
            double *col = w->c + (size_t)np * tvd_index(i, j);
            for (int c = 0; c < np; c++)
                col[c] = wij * jt->dkdg[c] * p[c + (size_t)np * (size_t)i] *
                         p[c + (size_t)np * (size_t)j];
        }
done:
    free(scale);
    free(om);
    free(tmp);
    free(p);
    return rc;
}

/*
 * Solve K x = f for the n x ncol f in place. A free structure's K is
 * singular, but the loads of eq. 7 are pair loads b_c, self-equilibrated
 * when a_c and b_c are the same component at coincident points (a contact
 * pair), so K x = f has solutions, unique up to rigid-body motion: iterative
 * refinement x += (K + s M)^-1 (f - K x) converges on the elastic modes
 * (factor s / (omega^2 + s) per step, s = 1e-8 of the largest eigenvalue
 * scale) and leaves the rigid part at the round-off of the first solve; the
 * orthogonalisation (eqs. 10-11) removes it later. Loads that are not
 * self-equilibrated do not converge: an error. The refinement works
 * RED_SOLVE_BLOCK columns at a time in w->f and w->res.
 */
static int solve_k(jtv_work *w, double *x, int ncol, char *err, size_t errn)
{
    size_t n = (size_t)w->n;
    if (w->shift == 0)
        return red_fact_solve(w->kf, x, ncol, err, errn);
    for (int j0 = 0; j0 < ncol; j0 += RED_SOLVE_BLOCK) {
        int nb = ncol - j0 < RED_SOLVE_BLOCK ? ncol - j0 : RED_SOLVE_BLOCK, rc;
        double *xb = x + n * (size_t)j0, *f = w->f, *r = w->res;
        size_t size = n * (size_t)nb;
        memcpy(f, xb, size * sizeof *f);
        if ((rc = red_fact_solve(w->kf, xb, nb, err, errn)) != JNT_OK)
            return rc;
        for (int it = 0;; it++) {
            double worst = 0;
            for (int k = 0; k < nb; k++) {
                double *rk = r + n * (size_t)k, *fk = f + n * (size_t)k, rmax = 0, fmax_ = 0;
                fe_sparse_mul(&w->m->K, xb + n * (size_t)k, rk);
                for (size_t i = 0; i < n; i++) {
                    rk[i] = fk[i] - rk[i];
                    rmax = fmax(rmax, fabs(rk[i]));
                    fmax_ = fmax(fmax_, fabs(fk[i]));
                }
                worst = fmax(worst, fmax_ > 0 ? rmax / fmax_ : 0);
            }
            if (worst <= 1e-12)
                break;
            if (it == 50)
                return jnt_errf(err, errn, JNT_ERR_MODEL,
                                "jtv: the stiffness matrix is singular (a free structure) and "
                                "the contact pair loads are not self-equilibrated (residual "
                                "%.2g): pair the same component of coincident nodes, or fix "
                                "the structure", worst);
            if ((rc = red_fact_solve(w->kf, r, nb, err, errn)) != JNT_OK)
                return rc;
            for (size_t i = 0; i < size; i++)
                xb[i] += r[i];
        }
    }
    return JNT_OK;
}

/* Columns in the block of RED_SOLVE_BLOCK starting at j0, of ncol. */
static int block_cols(int j0, int ncol)
{
    return ncol - j0 < RED_SOLVE_BLOCK ? ncol - j0 : RED_SOLVE_BLOCK;
}

/* x (n x ncol) = B y, the pair loads of the columns of y (np x ncol). */
static void pair_loads(const jtv_work *w, const double *y, int ncol, double *x)
{
    size_t n = (size_t)w->n;
    memset(x, 0, n * (size_t)ncol * sizeof *x);
    for (int k = 0; k < ncol; k++)
        for (int c = 0; c < w->np; c++) {
            double v = y[c + (size_t)w->np * (size_t)k];
            x[n * (size_t)k + (size_t)w->jt->dof_a[c]] += v;
            x[n * (size_t)k + (size_t)w->jt->dof_b[c]] -= v;
        }
}

/* w->x = K^-1 b_c for the pairs c in [c0, c0 + nb): a block of Z. */
static int solve_unit_pairs(jtv_work *w, int c0, int nb, char *err, size_t errn)
{
    size_t n = (size_t)w->n;
    memset(w->x, 0, n * (size_t)nb * sizeof *w->x);
    for (int k = 0; k < nb; k++) {
        w->x[n * (size_t)k + (size_t)w->jt->dof_a[c0 + k]] += 1.0;
        w->x[n * (size_t)k + (size_t)w->jt->dof_b[c0 + k]] -= 1.0;
    }
    return solve_k(w, w->x, nb, err, errn);
}

/* bx = B^T x (np x ncol) for the n x ncol x. */
static void pair_rows(const jtv_work *w, const double *x, int ncol, double *bx)
{
    for (int k = 0; k < ncol; k++)
        for (int c = 0; c < w->np; c++) {
            const double *col = x + (size_t)w->n * (size_t)k;
            bx[c + (size_t)w->np * (size_t)k] = col[w->jt->dof_a[c]] - col[w->jt->dof_b[c]];
        }
}

/* Symmetrise and decompose the s x s matrix a (eigenvectors replace it,
 * eigenvalues ascending in d). */
static int sym_eig(int s, double *a, double *d, char *err, size_t errn)
{
    for (int j = 0; j < s; j++)
        for (int i = 0; i < j; i++)
            a[i + (size_t)s * j] = a[j + (size_t)s * i] =
                0.5 * (a[i + (size_t)s * j] + a[j + (size_t)s * i]);
    if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', s, a, s, d) != 0)
        return jnt_errf(err, errn, JNT_ERR_SOLVER, "jtv: the eigensolver (dsyevd) failed");
    return JNT_OK;
}

/* The (unweighted) TVDs, smooth or one-sided, as the columns of out: smooth
 * d_ij at i + j (j + 1) / 2 (i <= j), one-sided d^+-_ij at 2 (i + r j) + s. */
static int tvd(const fe_model *m, const red_basis *base, const red_joint *joint, int onesided,
               red_basis *out, char *err, size_t errn)
{
    jtv_work w;
    if (out)
        memset(out, 0, sizeof *out);
    int rc = prepare(m, base, joint, 0, onesided, &w, err, errn);
    if (rc == JNT_OK && !out)
        rc = jnt_errf(err, errn, JNT_ERR_USAGE, "red_tvd: no output");
    if (rc != JNT_OK) {
        work_free(&w);
        return rc;
    }
    size_t n = (size_t)w.n;
    double *d = calloc(n * (size_t)w.ntvd, sizeof *d);
    if (!d)
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "jtv: out of memory for %d TVDs", w.ntvd);
    if (rc == JNT_OK && w.np <= w.ntvd) {
        /* D = Z C: the sum over blocks of pairs of Z_b C_b (np solves) */
        for (int c0 = 0; c0 < w.np && rc == JNT_OK; c0 += RED_SOLVE_BLOCK) {
            int nb = block_cols(c0, w.np);
            if ((rc = solve_unit_pairs(&w, c0, nb, err, errn)) == JNT_OK)
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, w.n, w.ntvd, nb, 1.0,
                            w.x, w.n, w.c + c0, w.np, 1.0, d, w.n);
        }
    } else if (rc == JNT_OK) { /* D = K^-1 (B C): ntvd solves */
        pair_loads(&w, w.c, w.ntvd, d);
        rc = solve_k(&w, d, w.ntvd, err, errn);
    }
    if (rc == JNT_OK) {
        out->n = w.n;
        out->r = w.ntvd;
        out->phi = d;
    } else {
        free(d);
    }
    work_free(&w);
    return rc;
}

/* See red_impl.h. */
int red_tvd(const fe_model *m, const red_basis *base, const red_joint *joint, red_basis *out,
            char *err, size_t errn)
{
    return tvd(m, base, joint, 0, out, err, errn);
}

/* The one-sided TVDs d^+-_ij of the file comment, 2 r^2 columns, d^+_ij at
 * 2 (i + r j) and d^-_ij at 2 (i + r j) + 1, unweighted (eq. 7). */
int red_tvd_onesided(const fe_model *m, const red_basis *base, const red_joint *joint,
                     red_basis *out, char *err, size_t errn)
{
    return tvd(m, base, joint, 1, out, err, errn);
}

/* How many POD directions to keep: at most `count`, with eigenvalues d
 * (ascending, n of them) above JTV_RANK_TOL of the largest. */
static int pod_rank(const double *d, int n, int count)
{
    int t = 0;
    while (t < count && t < n && d[n - 1 - t] > JTV_RANK_TOL * d[n - 1] && d[n - 1] > 0)
        t++;
    return t;
}

static int jtv_all_zero(char *err, size_t errn)
{
    return jnt_errf(err, errn, JNT_ERR_MODEL,
                    "jtv: all trial vector derivatives are zero (dk/dg is zero at every pair, "
                    "or the base does not move the joint)");
}

/* np <= N: the dual np x np problem (file comment); out gets the top t. */
static int pod_dual(jtv_work *w, int count, red_basis *out, char *err, size_t errn)
{
    int np = w->np, rc;
    size_t pp = (size_t)np * (size_t)np;
    double *g = malloc(pp * sizeof *g), *l = malloc(pp * sizeof *l), *a = malloc(pp * sizeof *a);
    double *h = malloc(pp * sizeof *h), *d = malloc((size_t)np * sizeof *d), *y = NULL;
    if (!g || !l || !a || !h || !d) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "jtv: out of memory for %d pairs", np);
        goto done;
    }
    /* G = B^T Z, a block of pairs at a time */
    for (int c0 = 0; c0 < np; c0 += RED_SOLVE_BLOCK) {
        int nb = block_cols(c0, np);
        if ((rc = solve_unit_pairs(w, c0, nb, err, errn)) != JNT_OK)
            goto done;
        pair_rows(w, w->x, nb, g + (size_t)np * (size_t)c0);
    }
    /* G = L L^T, L = V D^1/2 (G is semidefinite: pairs may share DOFs). */
    if ((rc = sym_eig(np, g, d, err, errn)) != JNT_OK)
        goto done;
    for (int k = 0; k < np; k++) {
        double s = d[k] > 0 ? sqrt(d[k]) : 0.0;
        for (int i = 0; i < np; i++)
            l[i + (size_t)np * k] = g[i + (size_t)np * k] * s;
    }
    /* A = C C^T, H = L^T A L. */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, np, np, w->ntvd, 1.0, w->c, np, w->c, np,
                0.0, a, np);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, np, np, np, 1.0, a, np, l, np, 0.0, g,
                np);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, np, np, np, 1.0, l, np, g, np, 0.0, h,
                np);
    if ((rc = sym_eig(np, h, d, err, errn)) != JNT_OK)
        goto done;
    /* y_k = A L u_k / lambda_k for the largest; phi_T,k = Z y_k = K^-1 (B y_k). */
    int t = pod_rank(d, np, count);
    if (t == 0) {
        rc = jtv_all_zero(err, errn);
        goto done;
    }
    y = malloc((size_t)np * (size_t)t * sizeof *y);
    if (!y) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "jtv: out of memory for %d pairs", np);
        goto done;
    }
    for (int k = 0; k < t; k++) {
        int e = np - 1 - k;
        cblas_dgemv(CblasColMajor, CblasNoTrans, np, np, 1.0 / d[e], g, np, h + (size_t)np * e, 1,
                    0.0, y + (size_t)np * k, 1);
    }
    out->phi = malloc((size_t)w->n * (size_t)t * sizeof *out->phi);
    if (!out->phi) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "jtv: out of memory for %d vectors", t);
        goto done;
    }
    out->n = w->n;
    out->r = t;
    pair_loads(w, y, t, out->phi);
    rc = solve_k(w, out->phi, t, err, errn);
done:
    free(g);
    free(l);
    free(a);
    free(h);
    free(d);
    free(y);
    return rc;
}

/* np > N: the pair rows B^T D of the N TVDs, a block at a time, and
 * S = D^T K D = C^T B^T D decomposed directly. */
static int pod_primal(jtv_work *w, int count, red_basis *out, char *err, size_t errn)
{
    int nt = w->ntvd, np = w->np, rc;
    double *bd = malloc((size_t)np * (size_t)nt * sizeof *bd);
    double *s = malloc((size_t)nt * (size_t)nt * sizeof *s), *d = malloc((size_t)nt * sizeof *d);
    double *y = NULL;
    if (!bd || !s || !d) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "jtv: out of memory for %d TVDs", nt);
        goto done;
    }
    for (int j0 = 0; j0 < nt; j0 += RED_SOLVE_BLOCK) {
        int nb = block_cols(j0, nt);
        pair_loads(w, w->c + (size_t)np * (size_t)j0, nb, w->x);
        if ((rc = solve_k(w, w->x, nb, err, errn)) != JNT_OK)
            goto done;
        pair_rows(w, w->x, nb, bd + (size_t)np * (size_t)j0);
    }
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, nt, nt, np, 1.0, w->c, np, bd, np, 0.0, s,
                nt);
    if ((rc = sym_eig(nt, s, d, err, errn)) != JNT_OK)
        goto done;
    int t = pod_rank(d, nt, count);
    if (t == 0) {
        rc = jtv_all_zero(err, errn);
        goto done;
    }
    /* phi_T,k = D s_k / sqrt(lambda_k) (eq. 9) = K^-1 (B y_k), y_k = C s_k / sqrt(lambda_k):
     * the scaled eigenvectors, largest first, into bd (N x t), then y = C bd. */
    for (int k = 0; k < t; k++) {
        int e = nt - 1 - k;
        for (int i = 0; i < nt; i++)
            bd[i + (size_t)nt * k] = s[i + (size_t)nt * e] / sqrt(d[e]);
    }
    y = malloc((size_t)np * (size_t)t * sizeof *y);
    out->phi = malloc((size_t)w->n * (size_t)t * sizeof *out->phi);
    if (!y || !out->phi) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "jtv: out of memory for %d vectors", t);
        goto done;
    }
    out->n = w->n;
    out->r = t;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, np, t, nt, 1.0, w->c, np, bd, nt, 0.0,
                y, np);
    pair_loads(w, y, t, out->phi);
    rc = solve_k(w, out->phi, t, err, errn);
done:
    free(bd);
    free(s);
    free(d);
    free(y);
    return rc;
}

/*
 * Eq. 9 makes the vectors K-orthonormal in exact arithmetic; the eigenvector
 * of a small lambda carries a relative error of about eps lambda_max /
 * lambda (up to 1e-6 at JTV_RANK_TOL), so restore V^T K V = I by Loewdin's
 * symmetric orthonormalisation V := V G^-1/2, G = V^T K V = Q L Q^T, the
 * smallest change of V that does it.
 */
static int k_orthonormalise(const fe_model *m, red_basis *v, char *err, size_t errn)
{
    int t = v->r, n = v->n, rc;
    size_t tt = (size_t)t * (size_t)t;
    double *g = malloc(tt * sizeof *g), *h = malloc(tt * sizeof *h);
    double *l = malloc((size_t)t * sizeof *l);
    double *tmp = malloc((size_t)RED_ROW_BLOCK * (size_t)t * sizeof *tmp);
    if (!g || !h || !l || !tmp) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "jtv: out of memory for %d vectors", t);
        goto done;
    }
    if ((rc = red_project(m, v, NULL, g, NULL, err, errn)) != JNT_OK ||
        (rc = sym_eig(t, g, l, err, errn)) != JNT_OK)
        goto done;
    if (!(l[0] > 0)) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "jtv: the POD vectors are linearly dependent");
        goto done;
    }
    /* h = Q L^-1/2 Q^T */
    for (int j = 0; j < t; j++)
        for (int i = 0; i < t; i++) {
            double s = 0;
            for (int k = 0; k < t; k++)
                s += g[i + (size_t)t * k] * g[j + (size_t)t * k] / sqrt(l[k]);
            h[i + (size_t)t * j] = s;
        }
    red_mul_inplace(n, t, v->phi, h, t, t, tmp);
done:
    free(g);
    free(h);
    free(l);
    free(tmp);
    return rc;
}

/* The JTVs of eq. 9 from the smooth or the one-sided TVDs. Fewer than
 * `count` vectors (out->r) when the TVDs span fewer directions: at most the
 * number of contact pairs and of TVDs. */
static int jtv(const fe_model *m, const red_basis *base, const red_joint *joint, int onesided,
               int count, red_basis *out, char *err, size_t errn)
{
    if (!out)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_jtv: no output");
    memset(out, 0, sizeof *out);
    if (count < 1)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "jtv: count = %d, must be at least 1", count);
    jtv_work w;
    int rc = prepare(m, base, joint, 1, onesided, &w, err, errn);
    if (rc == JNT_OK)
        rc = w.np <= w.ntvd ? pod_dual(&w, count, out, err, errn)
                            : pod_primal(&w, count, out, err, errn);
    work_free(&w); /* K's factor and the coefficients go before the last step */
    if (rc == JNT_OK)
        rc = k_orthonormalise(m, out, err, errn);
    if (rc == JNT_OK)
        red_fix_signs(out->n, out->r, out->phi);
    else
        red_basis_free(out);
    return rc;
}

/* See red.h. */
int red_jtv(const fe_model *m, const red_basis *base, const red_joint *joint, int count,
            red_basis *out, char *err, size_t errn)
{
    return jtv(m, base, joint, 0, count, out, err, errn);
}

/* As red_jtv, from the one-sided TVDs of a joint whose pairs touch without
 * load at the reference state (file comment); dkdg is the slope of the
 * stiffness on the closing side (its sign does not matter). The language's
 * jtv(...) uses this one. */
int red_jtv_onesided(const fe_model *m, const red_basis *base, const red_joint *joint,
                     int count, red_basis *out, char *err, size_t errn)
{
    return jtv(m, base, joint, 1, count, out, err, errn);
}
