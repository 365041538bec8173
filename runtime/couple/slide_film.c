/*
 * slide_film.c: the forward-increment Lagrange multiplier method (FiLm,
 * Carpenter, Taylor and Katona 1991; seed 003 Sect. 2.1) for the contacts
 * of slide.c. Each penetrating slave gets a normal and a tangential
 * multiplier, both enforced at t_n+1 on the contact-free predictor: first
 * every contact sticks (the relative tangential increment of the step is
 * cancelled); where the stick force exceeds mu lambda_N the contact slips
 * with the friction force mu lambda_N against the slip, and the
 * consistent multipliers are found by a block Gauss-Seidel iteration over
 * the contacts.
 */
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "jnt/jnt.h"
#include "slide_impl.h"

/* One contact alone: the 2 x 2 block [a b; c e] of h^2 [N; T] M^-1 [N; T]^T
 * and the gap bN and slip bT with the other contacts' forces. The
 * contact is open when bN >= 0; else it sticks when the stick force lies
 * in the cone |lambda_T| <= mu lambda_N; else it slips with
 * lambda_T = sigma mu lambda_N, sigma against the resulting slip. Writes
 * lambda_N, lambda_T and the state; returns -1 when no slip direction
 * gives a compressive force (Painlevé), else 0. */
static int local_solve(double a, double b, double c, double e, double bN, double bT, double mu,
                       double *ln, double *lt, int *state)
{
    *ln = *lt = 0;
    *state = SLIDE_FREE;
    if (bN >= 0)
        return 0;
    double det = a * e - b * c;
    if (!(det > 1e-14 * fabs(a * e))) {
        /* No tangential mobility at this contact: it cannot slip. */
        *ln = -bN / a;
        *state = SLIDE_STICK;
        return 0;
    }
    double n = (-bN * e + b * bT) / det, t = (-a * bT + c * bN) / det;
    if (n > 0 && fabs(t) <= mu * n) {
        *ln = n;
        *lt = t;
        *state = SLIDE_STICK;
        return 0;
    }
    /* Slip: try the direction against the frictionless slip first. */
    double n0 = -bN / a, s0 = c * n0 + bT, sg0 = s0 > 0 ? -1 : 1;
    for (int k = 0; k < 2; k++) {
        double sg = k ? -sg0 : sg0, den = a + b * sg * mu;
        if (!(den > 0))
            continue;
        n = -bN / den;
        double slip = c * n + e * sg * mu * n + bT;
        if (n > 0 && slip * sg <= 0) {
            *ln = n;
            *lt = sg * mu * n;
            *state = SLIDE_SLIP;
            return 0;
        }
    }
    return -1;
}

/* The active-set completion of the Gauss-Seidel iteration: solve the
 * contacts directly with the states of the iterate (open: no force;
 * stick: gap and slip zero; slip: gap zero with lambda_T = sigma mu
 * lambda_N), check every contact, switch the states that are violated
 * (a pulling contact opens, a stick force outside the cone slips, a slip
 * along its friction force sticks, an open slave inside the master
 * sticks) and solve again. Returns 1 with the multipliers in lam when a
 * consistent set is found, else 0 (lam and the states unchanged). */
static int polish(const slide_model *m, slide_data *d, int na, const double *W, double *lam)
{
    struct slide_work *w = d->w;
    int n2 = 2 * na;
    int *map = w->map, *st = w->map + n2; /* unknown -> W row; trial states */
    double *A = w->W + 2 * (size_t)n2 * n2, *x = w->rhs, *l2 = w->lam + n2, *sg = w->lam + 2 * n2;
    for (int i = 0; i < na; i++) {
        st[i] = d->contact[w->idx[i]].state;
        sg[i] = lam[2 * i + 1] > 0 ? 1 : -1;
    }
    for (int it = 0; it < 2 * na + 4; it++) {
        int nu = 0;
        for (int i = 0; i < na; i++) {
            if (st[i] != SLIDE_FREE)
                map[nu++] = 2 * i;
            if (st[i] == SLIDE_STICK)
                map[nu++] = 2 * i + 1;
        }
        /* Rows: the constraints of the unknowns; columns: their forces. */
        for (int q = 0; q < nu; q++) {
            int cq = map[q], iq = cq / 2;
            double sm = cq % 2 == 0 && st[iq] == SLIDE_SLIP
                            ? sg[iq] * d->contact[w->idx[iq]].mu : 0;
            for (int r = 0; r < nu; r++) {
                int cr = map[r];
                A[r + (size_t)nu * q] =
                    W[cr + (size_t)n2 * cq] + sm * W[cr + (size_t)n2 * (cq + 1)];
            }
        }
        for (int r = 0; r < nu; r++) {
            int cr = map[r], k = w->idx[cr / 2];
            x[r] = -(cr % 2 ? w->sslip[k] : w->geo[k].gap);
        }
        if (nu > 0 && (LAPACKE_dgetrf(LAPACK_COL_MAJOR, nu, nu, A, nu, w->ipiv) != 0 ||
                       LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', nu, 1, A, nu, w->ipiv, x, nu) != 0))
            return 0;
        memset(l2, 0, (size_t)n2 * sizeof *l2);
        for (int q = 0; q < nu; q++)
            l2[map[q]] = x[q];
        for (int i = 0; i < na; i++)
            if (st[i] == SLIDE_SLIP)
                l2[2 * i + 1] = sg[i] * d->contact[w->idx[i]].mu * l2[2 * i];
        /* Check, and switch the violated states. */
        int bad = 0;
        for (int i = 0; i < na; i++) {
            int k = w->idx[i];
            double mu = d->contact[k].mu, ln = l2[2 * i], lt = l2[2 * i + 1];
            double g = w->geo[k].gap, s = w->sslip[k];
            for (int j = 0; j < n2; j++) {
                g += W[2 * i + (size_t)n2 * j] * l2[j];
                s += W[2 * i + 1 + (size_t)n2 * j] * l2[j];
            }
            double tol = 1e-12 * m->iface[d->contact[k].iface].lseg;
            if (st[i] == SLIDE_FREE && g < -tol) {
                st[i] = SLIDE_STICK, bad++;
            } else if (st[i] != SLIDE_FREE && ln < 0) {
                st[i] = SLIDE_FREE, bad++;
            } else if (st[i] == SLIDE_STICK && fabs(lt) > mu * ln * (1 + 1e-12)) {
                st[i] = SLIDE_SLIP, sg[i] = lt > 0 ? 1 : -1, bad++;
            } else if (st[i] == SLIDE_SLIP && s * lt > 0) {
                st[i] = SLIDE_STICK, bad++;
            }
        }
        if (!bad) {
            memcpy(lam, l2, (size_t)n2 * sizeof *lam);
            for (int i = 0; i < na; i++)
                d->contact[w->idx[i]].state = st[i];
            return 1;
        }
    }
    return 0;
}

/* See slide_impl.h. */
int slide_film_solve(const slide_model *m, slide_data *d)
{
    struct slide_work *w = d->w;
    int nc = m->ncontact, na = 0, rc = JNT_OK, iter = 0;
    double h = m->h, h2 = h * h;
    for (int k = 0; k < nc; k++) {
        w->lamN[k] = w->lamT[k] = 0;
        w->removed[k] = 0;
        if (w->cand[k])
            w->idx[na++] = k;
    }
    while (na > 0) {
        int n2 = 2 * na;
        double *W = w->W, *LU = w->W + (size_t)n2 * n2;
        /* W = h^2 [N; T] M^-1 [N; T]^T, rows and columns N_0, T_0, N_1, ... */
        for (int j = 0; j < n2; j++) {
            int kj = w->idx[j / 2];
            const double *cj = j % 2 ? w->geo[kj].cT : w->geo[kj].cN;
            for (int i = 0; i < n2; i++) {
                int ki = w->idx[i / 2];
                const double *ci = i % 2 ? w->geo[ki].cT : w->geo[ki].cN;
                W[i + (size_t)n2 * j] = h2 * slide_g6(m, w->geo[ki].p, ci, w->geo[kj].p, cj);
            }
        }
        for (int i = 0; i < na; i++) {
            int k = w->idx[i];
            if (!(W[2 * i + (size_t)n2 * 2 * i] > 0))
                return slide_fail(d, JNT_ERR_SOLVER,
                                  "t = %g: contact %d (interface %d, slave %d) has no normal "
                                  "mobility: the contact matrix is singular", d->t, k,
                                  d->contact[k].iface, d->contact[k].slave);
        }
        /* Stick for all (the first correction of FiLm). */
        memcpy(LU, W, (size_t)n2 * n2 * sizeof *LU);
        for (int i = 0; i < na; i++) {
            w->lam[2 * i] = -w->geo[w->idx[i]].gap;
            w->lam[2 * i + 1] = -w->sslip[w->idx[i]];
        }
        int ok = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n2, n2, LU, n2, w->ipiv) == 0;
        if (ok)
            ok = LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n2, 1, LU, n2, w->ipiv, w->lam, n2) == 0;
        for (int i = 0; i < na && ok; i++) {
            int k = w->idx[i];
            double mu = slide_mu(m, d->contact[k].iface, d->t, w->muv[k], d->user);
            double ln = w->lam[2 * i], lt = w->lam[2 * i + 1];
            ok = isfinite(ln) && isfinite(lt) && ln >= 0 && fabs(lt) <= mu * ln;
            d->contact[k].mu = mu;
            d->contact[k].state = SLIDE_STICK;
        }
        if (!ok) {
            /* Gauss-Seidel from the stick solution projected on the cone. */
            for (int i = 0; i < na; i++) {
                int k = w->idx[i];
                double ln = w->lam[2 * i], lt = w->lam[2 * i + 1], mu = d->contact[k].mu;
                if (!(ln > 0) || !isfinite(ln) || !isfinite(lt))
                    ln = lt = 0;
                else if (fabs(lt) > mu * ln)
                    lt = (lt > 0 ? 1 : -1) * mu * ln;
                w->lam[2 * i] = ln;
                w->lam[2 * i + 1] = lt;
            }
            int conv = 0;
            for (int sweep = 0; sweep < m->max_iter && !conv; sweep++) {
                double dmax = 0, lmax = 0;
                int changed = 0;
                d->stats.gs_sweeps++;
                for (int i = 0; i < na; i++) {
                    int k = w->idx[i];
                    size_t rN = 2 * (size_t)i, rT = rN + 1;
                    double bN = w->geo[k].gap, bT = w->sslip[k];
                    for (int j = 0; j < n2; j++) {
                        if (j / 2 == i)
                            continue;
                        bN += W[rN + (size_t)n2 * j] * w->lam[j];
                        bT += W[rT + (size_t)n2 * j] * w->lam[j];
                    }
                    double a = W[rN + n2 * rN], b = W[rN + n2 * rT];
                    double c = W[rT + n2 * rN], e = W[rT + n2 * rT];
                    double ln, lt;
                    int st;
                    if (local_solve(a, b, c, e, bN, bT, d->contact[k].mu, &ln, &lt, &st))
                        return slide_fail(d, JNT_ERR_SOLVER,
                                          "t = %g: contact %d (interface %d, slave %d): "
                                          "friction drives the slave into the master (mu = %g "
                                          "too large for the geometry: Painlevé)", d->t, k,
                                          d->contact[k].iface, d->contact[k].slave,
                                          d->contact[k].mu);
                    dmax = fmax(dmax, fmax(fabs(ln - w->lam[rN]), fabs(lt - w->lam[rT])));
                    lmax = fmax(lmax, fabs(ln));
                    w->lam[rN] = ln;
                    w->lam[rT] = lt;
                    changed += d->contact[k].state != st;
                    d->contact[k].state = st;
                    /* A slip-speed dependent mu follows the slip of this iterate. */
                    if (m->iface[d->contact[k].iface].mu_fn && st == SLIDE_SLIP)
                        d->contact[k].mu = slide_mu(m, d->contact[k].iface, d->t,
                                                    (c * ln + e * lt + bT) / h, d->user);
                }
                conv = dmax <= m->gs_tol * lmax;
                /* Stable states: complete them directly (Gauss-Seidel
                 * converges slowly on strongly coupled contacts, e.g. a
                 * stiff body on two points). */
                if (!conv && (!changed || sweep % 8 == 7))
                    conv = polish(m, d, na, W, w->lam);
            }
            if (!conv) {
                d->stats.not_converged++;
                rc = slide_fail(d, SLIDE_NOT_CONVERGED,
                                "t = %g: the FiLm Gauss-Seidel iteration did not converge in "
                                "%d sweeps", d->t, m->max_iter);
            }
        }
        /* A slave outside the candidates that the correction pushes in joins. */
        int kadd = -1;
        double worst = 0;
        for (int k = 0; k < nc && iter < m->max_iter; k++) {
            if (w->geo[k].off || w->cand[k] || w->removed[k])
                continue;
            double g = w->geo[k].gap;
            for (int j = 0; j < na; j++) {
                const slide_geo *gj = &w->geo[w->idx[j]];
                g += h2 * (slide_g6(m, w->geo[k].p, w->geo[k].cN, gj->p, gj->cN) * w->lam[2 * j] +
                           slide_g6(m, w->geo[k].p, w->geo[k].cN, gj->p, gj->cT) *
                               w->lam[2 * j + 1]);
            }
            if (g < -1e-12 * m->iface[m->contact_iface[k]].lseg && g < worst)
                worst = g, kadd = k;
        }
        iter++;
        if (kadd < 0)
            break;
        w->cand[kadd] = 1;
        w->idx[na++] = kadd;
    }
    for (int i = 0; i < na; i++) {
        int k = w->idx[i];
        w->lamN[k] = w->lam[2 * i];
        w->lamT[k] = w->lam[2 * i + 1];
        if (w->lamN[k] == 0)
            d->contact[k].state = SLIDE_FREE;
        else if (d->contact[k].state == SLIDE_FREE)
            d->contact[k].state = SLIDE_STICK;
        /* chi: the slip direction, against the friction force (0 in stick). */
        if (d->contact[k].state == SLIDE_SLIP)
            d->contact[k].chi = w->lamT[k] < 0 ? 1 : -1;
        else if (d->contact[k].state == SLIDE_STICK)
            d->contact[k].chi = 0;
    }
    return rc;
}
