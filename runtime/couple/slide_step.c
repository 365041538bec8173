/*
 * slide_step.c: the explicit step of substructures coupled by sliding
 * interfaces (seed 003 eqs. 9-15): the contact-free predictor (eq. 13),
 * the geometry and the rows B_C, B_E at t_n+1 (eqs. 16-21), the
 * multipliers of the dual method (eq. 15, no tension) or of FiLm
 * (slide_film.c), the corrector (eq. 14) and the energy accounts. No
 * allocation: everything lives in the data object's work memory.
 */
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "jnt/jnt.h"
#include "slide_impl.h"

/* ---- the step ------------------------------------------------------------ */

/* See slide_impl.h. */
void slide_rigid_at(const slide_model *m, slide_data *d, double t, double *xr, double *vr)
{
    for (int s = 0; s < m->nsub; s++) {
        double x[2] = {0, 0}, v[2] = {0, 0};
        if (m->sub[s].rigid)
            m->sub[s].rigid(t, x, v, d->user);
        xr[2 * s] = x[0];
        xr[2 * s + 1] = x[1];
        if (vr) {
            vr[2 * s] = v[0];
            vr[2 * s + 1] = v[1];
        }
    }
}

/* f = Phi^T fp (n x n PhiT column-major) over fp's nonzero entries, each
 * f[i] summed over them in ascending order as one axpy per entry would sum
 * it, four columns a pass; nz: n ints of scratch. A branch-free scan
 * first: most blocks get no force (an entry's bits but its sign: -0 counts
 * as zero, as fp[j] != 0 does). */
static void modal_project(int n, const double *restrict PhiT, const double *restrict fp,
                          int *restrict nz, double *restrict f)
{
    memset(f, 0, (size_t)n * sizeof *f);
    slide_u2 b2 = {0, 0}, b4 = {0, 0};
    int j = 0;
    for (; j + 4 <= n; j += 4) {
        b2 |= (slide_u2)slide_ld2(fp + j) << 1;
        b4 |= (slide_u2)slide_ld2(fp + j + 2) << 1;
    }
    b2 |= b4;
    uint64_t b0 = b2[0] | b2[1];
    for (; j < n; j++) {
        uint64_t u0;
        memcpy(&u0, fp + j, sizeof u0);
        b0 |= u0 << 1;
    }
    if (!b0)
        return;
    int k = 0;
    for (j = 0; j < n; j++)
        if (fp[j] != 0)
            nz[k++] = j;
    int c = 0;
    for (; c + 4 <= k; c += 4) {
        const double *a0 = PhiT + (size_t)n * nz[c], *a1 = PhiT + (size_t)n * nz[c + 1];
        const double *a2 = PhiT + (size_t)n * nz[c + 2], *a3 = PhiT + (size_t)n * nz[c + 3];
        double s0 = fp[nz[c]], s1 = fp[nz[c + 1]], s2 = fp[nz[c + 2]], s3 = fp[nz[c + 3]];
        /* left to right: ((f + a0 s0) + a1 s1) + ..., the four axpys' sums */
        int i = 0;
        for (; i + 2 <= n; i += 2)
            slide_st2(f + i, slide_ld2(f + i) + slide_ld2(a0 + i) * s0 + slide_ld2(a1 + i) * s1 +
                                 slide_ld2(a2 + i) * s2 + slide_ld2(a3 + i) * s3);
        for (; i < n; i++)
            f[i] = f[i] + a0[i] * s0 + a1[i] * s1 + a2[i] * s2 + a3[i] * s3;
    }
    for (; c < k; c++)
        slide_axpy(n, fp[nz[c]], PhiT + (size_t)n * nz[c], f);
}

/* The forces f(t) of substructure s into w->f (its step's coordinates:
 * modal f = Phi^T f_phys) and its Rayleigh alpha, beta at t. 0 or the
 * callback's failure (message). */
static int sub_forces(const slide_model *m, slide_data *d, int s, double t, double *al,
                      double *be)
{
    struct slide_work *w = d->w;
    const slide_msub *b = &m->sub[s];
    int n = b->n, o = b->off;
    double *f = w->f + o, *fp = b->modal ? w->tmp + o : f;
    memset(fp, 0, (size_t)n * sizeof *fp);
    if (b->force) {
        int rc = b->force(t, fp, d->user);
        if (rc < 0)
            return slide_fail(d, JNT_ERR_KERNEL,
                              "substructure %d: the force callback failed at t = %g "
                              "(status %d)", s, t, rc);
    }
    *al = *be = 0;
    if (b->rayleigh)
        b->rayleigh(t, al, be, d->user);
    if (b->modal)
        modal_project(n, b->PhiT, fp, w->nzcol + o, f);
    return JNT_OK;
}

/* Callbacks that read d->u, d->v see the state of this step. */
static void sync_for_callbacks(const slide_model *m, slide_data *d)
{
    if (m->force_state && m->lazy)
        for (int s = 0; s < m->nsub; s++)
            if (m->sub[s].modal)
                slide_sync_sub(m, d, s, 0);
}

/* r = f - C(t) v - K (u + beta v) and (energy) cv = C(t) v of a
 * substructure on its own coordinates (w->tmp: scratch). */
static void phys_residual(const slide_model *m, struct slide_work *w, int s, double al,
                          double be)
{
    const slide_msub *b = &m->sub[s];
    int n = b->n, o = b->off;
    const double *u = w->q + o, *v = w->qv + o, *f = w->f + o;
    double *r = w->r + o;
    for (int i = 0; i < n; i++)
        w->tmp[o + i] = u[i] + be * v[i];
    memcpy(r, f, (size_t)n * sizeof *r);
    slide_matvec(n, b->K, w->tmp + o, -1.0, r);
    if (b->C)
        slide_matvec(n, b->C, v, -1.0, r);
    if (m->energy) {
        /* cv = f - r - K u + alpha M v: the damping force. */
        for (int i = 0; i < n; i++)
            w->cv[o + i] = f[i] - r[i];
        slide_matvec(n, b->K, u, -1.0, w->cv + o);
        if (al != 0)
            slide_matvec(n, b->M, v, al, w->cv + o);
    }
}

/* See slide_impl.h. */
int slide_forces(const slide_model *m, slide_data *d, double t, double *ralpha)
{
    struct slide_work *w = d->w;
    slide_rates(m, d, 1);
    sync_for_callbacks(m, d);
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        int n = b->n, o = b->off;
        if (n <= 0)
            continue;
        double al, be;
        int rc = sub_forces(m, d, s, t, &al, &be);
        if (rc)
            return rc;
        ralpha[s] = al;
        if (!b->modal) {
            phys_residual(m, w, s, al, be);
            continue;
        }
        /* Modal: r = f - (dmod + beta w2) v - w2 u, diagonal. */
        const double *u = w->q + o, *v = w->qv + o, *f = w->f + o;
        const double *restrict dm = b->dmod, *restrict w2 = b->w2;
        double *r = w->r + o;
        for (int i = 0; i < n; i++)
            r[i] = f[i] - (dm[i] + be * w2[i]) * v[i] - w2[i] * u[i];
        if (m->energy)
            for (int i = 0; i < n; i++)
                w->cv[o + i] = (dm[i] + be * w2[i] + al) * v[i];
    }
    return JNT_OK;
}

/* See slide_impl.h. */
void slide_rates(const slide_model *m, slide_data *d, int what)
{
    struct slide_work *w = d->w;
    int N = m->N;
    double h = m->h, ih = 1 / h, ih2 = 1 / (h * h);
    const double *restrict q = w->q, *restrict qp = w->q_prev, *restrict qpp = w->q_pp;
    if ((what & 1) && w->qv_lazy) {
        double *restrict qv = w->qv;
        for (int i = 0; i < N; i++)
            qv[i] = (q[i] - qp[i]) * ih;
        w->qv_lazy = 0;
    }
    if ((what & 2) && w->qa_lazy) {
        double *restrict qa = w->qa;
        for (int i = 0; i < N; i++)
            qa[i] = (q[i] - 2 * qp[i] + qpp[i]) * ih2;
        w->qa_lazy = 0;
    }
}

/* The predictor (eq. 13) of a substructure on modal coordinates (the
 * modal mass is I) in one pass: v (from qv, or formed here as (u_n -
 * u_n-1)/h after a lazy commit), r = f - (dmod + beta w2) v
 * - w2 u and u* = h^2 r + 2 u_n - u_n-1 - h^2 alpha v. The arithmetic of
 * the separate passes it replaces (forces' residual, commit's v,
 * predictor), element by element, two a time (slide_v2). Returns the OR
 * of slide_finbits(u*). */
static uint64_t modal_predict(const slide_model *m, struct slide_work *w, int s, double al,
                              double be)
{
    const slide_msub *b = &m->sub[s];
    int n = b->n, o = b->off, i = 0, form = w->qv_lazy;
    double h = m->h, h2 = h * h, ih = 1 / h, ha = h2 * al;
    const double *restrict q = w->q + o, *restrict qp = w->q_prev + o, *restrict f = w->f + o;
    const double *restrict dm = b->dmod, *restrict w2 = b->w2;
    double *restrict qv = w->qv + o, *restrict us = w->q_star + o;
    slide_u2 z = {0, 0};
    /* one loop for each source of v (gcc -O2 does not unswitch) */
#define MODAL_PREDICT2(V)                                                                   \
    for (; i + 2 <= n; i += 2) {                                                            \
        slide_v2 qi = slide_ld2(q + i), qpi = slide_ld2(qp + i), w2i = slide_ld2(w2 + i);  \
        slide_v2 v = V;                                                                     \
        slide_v2 r = slide_ld2(f + i) - (slide_ld2(dm + i) + be * w2i) * v - w2i * qi;     \
        slide_v2 u = h2 * r + (2 * qi - qpi - ha * v);                                      \
        slide_st2(us + i, u);                                                               \
        z |= slide_finbits2(u);                                                             \
    }
    if (form) {
        /* v = (u_n - u_n-1)/h, not stored: qv stays lazy (slide_rates forms
         * the same values when a sync reads them) */
        MODAL_PREDICT2((qi - qpi) * ih)
    } else {
        MODAL_PREDICT2(slide_ld2(qv + i))
    }
#undef MODAL_PREDICT2
    uint64_t zs = z[0] | z[1];
    for (; i < n; i++) {
        double v = form ? (q[i] - qp[i]) * ih : qv[i];
        double r = f[i] - (dm[i] + be * w2[i]) * v - w2[i] * q[i];
        us[i] = h2 * r + (2 * q[i] - qp[i] - ha * v);
        zs |= slide_finbits(us[i]);
    }
    if (m->energy)
        for (i = 0; i < n; i++)
            w->cv[o + i] = (dm[i] + be * w2[i] + al) * (form ? (q[i] - qp[i]) * ih : qv[i]);
    return zs;
}

/* The predictor u* (eq. 13) of every substructure at t_n: forces, residual
 * and u* (modal_predict, or M^-1 r on a substructure's own coordinates);
 * w->zfin[s] the OR of slide_finbits over its u*. 0 or a callback's failure. */
static int predict(const slide_model *m, slide_data *d, double t)
{
    struct slide_work *w = d->w;
    double h = m->h, h2 = h * h;
    int phys = 0;
    for (int s = 0; s < m->nsub; s++)
        phys |= !m->sub[s].modal;
    /* v of the substructures on their own coordinates, or for callbacks
     * that read it: formed in one pass first */
    if (phys || (m->force_state && m->lazy))
        slide_rates(m, d, 1);
    sync_for_callbacks(m, d);
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        int n = b->n, o = b->off;
        w->zfin[s] = 0;
        if (n <= 0)
            continue;
        double al, be;
        int rc = sub_forces(m, d, s, t, &al, &be);
        if (rc)
            return rc;
        w->ralpha[s] = al;
        if (b->modal) {
            w->zfin[s] = modal_predict(m, w, s, al, be);
            continue;
        }
        phys_residual(m, w, s, al, be);
        double *restrict us = w->q_star + o, ha = h2 * al;
        uint64_t z = 0;
        const double *restrict q = w->q + o, *restrict qp = w->q_prev + o;
        const double *restrict qv = w->qv + o;
        memset(us, 0, (size_t)n * sizeof *us);
        slide_matvec(n, b->Minv, w->r + o, h2, us);
        for (int i = 0; i < n; i++) {
            us[i] += 2 * q[i] - qp[i] - ha * qv[i];
            z |= slide_finbits(us[i]);
        }
        w->zfin[s] = z;
    }
    return JNT_OK;
}

/* The predictor's displacements of the ports each contact read last step
 * (its slave, the ends of its segment), four of a substructure in one pass
 * over u* (slide_dot4: the values slide_port_at would compute, bit for
 * bit, without its dot products' wait on their adds). The segment rarely
 * changes; the other ports stay lazy (slide_port_at). */
static void ports_ahead(const slide_model *m, slide_data *d)
{
    struct slide_work *w = d->w;
    long gen = d->step + 1;
    const double *rows[4];
    int pend[4], np = 0, sub = -1;
    for (int k = 0; k <= m->ncontact; k++) {
        int nodes[3] = {-1, -1, -1};
        if (k < m->ncontact) {
            const slide_geo *g = &w->geo[k];
            const slide_miface *f = &m->iface[m->contact_iface[k]];
            if (g->seg >= 0 && g->seg < f->nm - 1) {
                nodes[0] = m->contact_node[k];
                nodes[1] = f->master0 + g->seg;
                nodes[2] = nodes[1] + 1;
            }
        }
        for (int j = 0; j < 7; j++) {
            int p = -1;
            if (j < 6 && nodes[j / 2] >= 0) {
                p = 2 * nodes[j / 2] + j % 2;
                const slide_port *pt = &m->port[p];
                if (pt->kind != PORT_ROW || !m->sub[pt->sub].modal || w->pgen[SLIDE_STAR][p] == gen)
                    continue;
            }
            /* flush: the batch is full, its substructure changes, or the end */
            if (np > 0 && (np == 4 || p < 0 || m->port[p].sub != sub)) {
                const slide_msub *b = &m->sub[sub];
                double out[4];
                for (int i = np; i < 4; i++)
                    rows[i] = rows[0];
                slide_dot4(b->n, rows, w->q_star + b->off, out);
                for (int i = 0; i < np; i++)
                    w->pval[SLIDE_STAR][pend[i]] = out[i];
                np = 0;
            }
            if (p < 0)
                continue;
            const slide_port *pt = &m->port[p];
            const slide_msub *b = &m->sub[pt->sub];
            sub = pt->sub;
            rows[np] = b->Psi + (size_t)b->n * pt->row;
            pend[np++] = p;
            w->pgen[SLIDE_STAR][p] = gen; /* its value lands at the flush, before any read */
        }
    }
}

/* The multipliers of the dual method (eq. 15) with no tension: solve
 * h^2 B_C M^-1 B_E^T lambda = -gap* on the active set, release the most
 * negative multiplier, add a slave the correction pushes into the master,
 * until consistent. */
static int dual_solve(const slide_model *m, slide_data *d)
{
    struct slide_work *w = d->w;
    int nc = m->ncontact, na = 0, rc = JNT_OK;
    double h2 = m->h * m->h;
    for (int k = 0; k < nc; k++) {
        w->removed[k] = 0;
        w->lamN[k] = w->lamT[k] = 0;
        if (w->cand[k])
            w->idx[na++] = k;
    }
    for (int iter = 0;; iter++) {
        if (iter >= m->max_iter) {
            d->stats.not_converged++;
            rc = slide_fail(d, SLIDE_NOT_CONVERGED,
                            "t = %g: the active set did not settle in %d iterations", d->t,
                            m->max_iter);
            break;
        }
        if (na == 0)
            break;
        d->stats.active_iter++;
        /* W = h^2 B_C M^-1 B_E^T on the active contacts, rhs = -gap*. */
        double *W = w->W, wmax = 0;
        for (int j = 0; j < na; j++) {
            int kj = w->idx[j];
            for (int i = 0; i < na; i++) {
                int ki = w->idx[i];
                double v = h2 * slide_g6(m, w->geo[ki].p, w->geo[ki].cN, w->geo[kj].p,
                                         w->cE + 6 * kj);
                W[i + (size_t)na * j] = v;
                wmax = fmax(wmax, fabs(v));
            }
            w->lam[j] = -w->geo[kj].gap;
        }
        /* A contact whose own coefficient is not positive cannot be held
         * (friction drives the slave in: Painlevé's paradox). */
        for (int i = 0; i < na; i++)
            if (!(W[i + (size_t)na * i] > 0)) {
                int k = w->idx[i];
                return slide_fail(d, JNT_ERR_SOLVER,
                                  "t = %g: contact %d (interface %d, slave %d): the "
                                  "friction-coupled contact matrix is not positive "
                                  "(h^2 B_C M^-1 B_E^T = %g; mu = %g too large for the "
                                  "geometry, or no mass at the contact)", d->t, k,
                                  d->contact[k].iface, d->contact[k].slave,
                                  W[i + (size_t)na * i], d->contact[k].mu);
            }
        if (na == 1) {
            /* one contact: eq. 15 is a scalar division (W[0] > 0 checked above);
             * dgetrs would divide alike, after dgetrf's and OpenBLAS's buffer
             * allocation under a mutex, 3-4 % of a step (docs/interfaces.md) */
            w->lam[0] /= W[0];
        } else {
            lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, na, na, W, na, w->ipiv);
            double pmin = INFINITY;
            for (int i = 0; i < na && info >= 0; i++)
                pmin = fmin(pmin, fabs(W[i + (size_t)na * i]));
            if (info != 0 || pmin <= 1e-13 * wmax)
                return slide_fail(d, JNT_ERR_SOLVER,
                                  "t = %g: the contact matrix h^2 B_C M^-1 B_E^T of %d active "
                                  "contacts is singular (slaves on the same point, or "
                                  "dependent constraints)", d->t, na);
            LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', na, 1, W, na, w->ipiv, w->lam, na);
        }
        /* No tension: release the most negative multiplier. */
        int imin = -1;
        for (int i = 0; i < na; i++)
            if (w->lam[i] < 0 && (imin < 0 || w->lam[i] < w->lam[imin]))
                imin = i;
        if (imin >= 0) {
            w->removed[w->idx[imin]] = 1;
            d->stats.releases++;
            w->idx[imin] = w->idx[--na];
            continue;
        }
        /* A slave that the correction pushes into the master joins. */
        int kadd = -1;
        double worst = 0;
        for (int k = 0; k < nc; k++) {
            if (w->geo[k].off || w->removed[k])
                continue;
            int in = 0;
            for (int i = 0; i < na && !in; i++)
                in = w->idx[i] == k;
            if (in)
                continue;
            double g = w->geo[k].gap;
            for (int j = 0; j < na; j++)
                g += h2 * slide_g6(m, w->geo[k].p, w->geo[k].cN, w->geo[w->idx[j]].p,
                                   w->cE + 6 * w->idx[j]) * w->lam[j];
            double tol = 1e-12 * m->iface[m->contact_iface[k]].lseg;
            if (g < -tol && g < worst)
                worst = g, kadd = k;
        }
        if (kadd >= 0) {
            w->idx[na++] = kadd;
            continue;
        }
        break;
    }
    for (int i = 0; i < na; i++) {
        int k = w->idx[i];
        w->lamN[k] = w->lam[i];
        w->lamT[k] = -d->contact[k].chi * d->contact[k].mu * w->lam[i];
        d->contact[k].state = SLIDE_SLIP;
    }
    return rc;
}

/* Geometry, chi and mu of every contact at t_n+1 for its assumption
 * (eqs. 16-19); candidates are the slaves predicted to penetrate. Returns
 * SLIDE_OFF_MASTER when a slave in contact left the master surface. */
static int contacts_predict(const slide_model *m, slide_data *d)
{
    struct slide_work *w = d->w;
    int rc = JNT_OK;
    for (int k = 0; k < m->ncontact; k++) {
        slide_contact *c = &d->contact[k];
        const slide_miface *f = &m->iface[c->iface];
        slide_geo *g = &w->geo[k];
        int film = m->method == SLIDE_FILM, as = f->assumption;
        int def_alpha = film || as != SLIDE_BASIC, def_normal = film || as == SLIDE_REALISTIC;
        int was = c->state == SLIDE_SLIP || c->state == SLIDE_STICK;
        slide_pview star = {m, d, SLIDE_STAR};
        slide_geometry(m, k, w->xr_new, &star, def_alpha, def_normal, g->seg, g);
        w->cand[k] = 0;
        c->state = g->off ? SLIDE_OFF : SLIDE_FREE;
        if (g->off) {
            if (was) {
                d->stats.off_master++;
                rc = slide_fail(d, SLIDE_OFF_MASTER,
                                "t = %g: slave %d of interface %d left the master surface "
                                "at (%g, %g); it is free", d->t + m->h, c->slave, c->iface,
                                g->x[0], g->x[1]);
            }
            continue;
        }
        /* Tangential slip increment of the predictor: the slave against the
         * master point at the same alpha, from t_n to t_n+1. */
        int ic = m->contact_node[k], t1 = f->master0 + g->seg;
        double s = 0;
        for (int dd = 0; dd < 2; dd++) {
            double ds = slide_pval(m, d, SLIDE_STAR, 2 * ic + dd) -
                        slide_pval(m, d, SLIDE_CUR, 2 * ic + dd);
            double dm = (1 - g->alpha) * (slide_pval(m, d, SLIDE_STAR, 2 * t1 + dd) -
                                          slide_pval(m, d, SLIDE_CUR, 2 * t1 + dd)) +
                        g->alpha * (slide_pval(m, d, SLIDE_STAR, 2 * t1 + 2 + dd) -
                                    slide_pval(m, d, SLIDE_CUR, 2 * t1 + 2 + dd));
            double rs = w->xr_new[2 * f->slave_sub + dd] - w->xr_cur[2 * f->slave_sub + dd];
            double rm = f->master_sub >= 0 ? w->xr_new[2 * f->master_sub + dd] -
                                                 w->xr_cur[2 * f->master_sub + dd] : 0;
            s += g->t[dd] * ((ds + rs) - (dm + rm));
        }
        w->sslip[k] = s;
        /* chi (eq. 19): basic from the prescribed rigid velocities when they
         * slide, otherwise (and for b, c) from the predicted slip. */
        double vr = s / m->h;
        if (!film && as == SLIDE_BASIC) {
            double vx = w->vr_new[2 * f->slave_sub] -
                        (f->master_sub >= 0 ? w->vr_new[2 * f->master_sub] : 0);
            double vy = w->vr_new[2 * f->slave_sub + 1] -
                        (f->master_sub >= 0 ? w->vr_new[2 * f->master_sub + 1] : 0);
            double vt = vx * g->t[0] + vy * g->t[1];
            if (vt != 0)
                vr = vt;
        }
        double chi = vr > 0 ? 1 : vr < 0 ? -1 : 0;
        c->chi = chi;
        /* mu at the slip speed of the last step (the backward velocity of
         * eq. 13), at the predicted one for a new contact, and at the
         * prescribed one for the basic assumption. */
        int last = film || (as != SLIDE_BASIC && was);
        c->mu = slide_mu(m, c->iface, d->t, last ? w->muv[k] : vr, d->user);
        /* Dual: the force direction row B_E (friction -chi mu lambda t). */
        for (int j = 0; j < 6; j++)
            w->cE[6 * k + j] = g->cN[j] - chi * c->mu * g->cT[j];
        w->cand[k] = g->gap < 0;
    }
    return rc;
}

/* Energy accounts of the step t_n-1 -> t_n+1 (slide_energy), in the
 * step's coordinates (the modal mass is I, the modal stiffness w2). */
static void energy_step(const slide_model *m, slide_data *d)
{
    struct slide_work *w = d->w;
    slide_energy *e = &d->energy;
    double h = m->h, kin = 0, str = 0;
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        int n = b->n, o = b->off;
        if (n <= 0)
            continue;
        for (int i = 0; i < n; i++) {
            double dl = 0.5 * (w->q_new[o + i] - w->q_prev[o + i]);
            e->work_ext += w->f[o + i] * dl;
            e->damping += w->cv[o + i] * dl;
            w->tmp[o + i] = (w->q_new[o + i] - w->q[o + i]) / h;
        }
        if (b->modal) {
            for (int i = 0; i < n; i++) {
                kin += 0.5 * w->tmp[o + i] * w->tmp[o + i];
                str += 0.5 * b->w2[i] * w->q[o + i] * w->q_new[o + i];
            }
            continue;
        }
        memset(w->r + o, 0, (size_t)n * sizeof *w->r);
        slide_matvec(n, b->M, w->tmp + o, 1.0, w->r + o);
        kin += 0.5 * slide_dot(n, w->tmp + o, w->r + o);
        memset(w->r + o, 0, (size_t)n * sizeof *w->r);
        slide_matvec(n, b->K, w->q_new + o, 1.0, w->r + o);
        str += 0.5 * slide_dot(n, w->q + o, w->r + o);
    }
    e->kinetic = kin;
    e->strain = str;
    for (int k = 0; k < m->ncontact; k++) {
        if (w->lamN[k] == 0 && w->lamT[k] == 0)
            continue;
        const slide_geo *g = &w->geo[k];
        const slide_miface *f = &m->iface[m->contact_iface[k]];
        double dr[2];
        for (int dd = 0; dd < 2; dd++) {
            double rs = w->xr_new[2 * f->slave_sub + dd] - w->xr_prev[2 * f->slave_sub + dd];
            double rm = f->master_sub >= 0 ? w->xr_new[2 * f->master_sub + dd] -
                                                 w->xr_prev[2 * f->master_sub + dd] : 0;
            dr[dd] = 0.5 * (rs - rm);
        }
        double dN = g->n[0] * dr[0] + g->n[1] * dr[1], dT = g->t[0] * dr[0] + g->t[1] * dr[1];
        double wdrive = -(w->lamN[k] * dN + w->lamT[k] * dT);
        for (int j = 0; j < 6; j++) {
            double dp = 0.5 * (slide_pval(m, d, SLIDE_NEW, g->p[j]) -
                               slide_pval(m, d, SLIDE_PREV, g->p[j]));
            dN += g->cN[j] * dp;
            dT += g->cT[j] * dp;
        }
        e->work_normal += w->lamN[k] * dN;
        e->friction -= w->lamT[k] * dT;
        e->work_drive += wdrive;
    }
}

/* See slide.h. */
int slide_step(const slide_model *m, slide_data *d)
{
    if (!m || !d)
        return JNT_ERR_USAGE;
    struct slide_work *w = d->w;
    int N = m->N, nc = m->ncontact;
    double h = m->h, h2 = h * h, t = d->t;
    w->err[0] = 0;
    /* A step that failed left u* and u_n+1 ports of a state that is gone
     * (stamped with the step number it will try again). After a step that
     * committed their stamps are all older: no pass over every port (it
     * was 6 % of a step of examples/beam_on_beam.jnt, 204 ports). */
    if (w->uncommitted)
        for (int p = 0; p < m->nport; p++)
            w->pgen[SLIDE_STAR][p] = w->pgen[SLIDE_NEW][p] = LONG_MIN;
    w->uncommitted = 1;
    /* Predictor (eq. 13): u* = h^2 M^-1 (f_n - C (u_n - u_n-1)/h - K u_n) + 2 u_n - u_n-1,
     * and the ports the contacts will read of it. */
    int rc = predict(m, d, t);
    if (rc)
        return rc;
    ports_ahead(m, d);
    /* Geometry at t_n+1 (eqs. 16-19) on the predictor, candidates. */
    slide_rigid_at(m, d, t + h, w->xr_new, w->vr_new);
    int warn = contacts_predict(m, d);
    /* Multipliers (eq. 15 or FiLm). */
    rc = m->method == SLIDE_FILM ? slide_film_solve(m, d) : dual_solve(m, d);
    if (rc < 0)
        return rc;
    if (rc > 0)
        warn = rc;
    /* Port forces of the contacts, corrector (eq. 14): u^c = h^2 M^-1 R^T F. */
    for (int q = 0; q < w->nfport; q++)
        w->fport_used[w->fport_list[q]] = 0;
    w->nfport = 0;
    for (int k = 0; k < nc; k++) {
        if (w->lamN[k] == 0 && w->lamT[k] == 0)
            continue;
        const slide_geo *g = &w->geo[k];
        for (int j = 0; j < 6; j++) {
            int p = g->p[j];
            if (m->port[p].kind == PORT_FIXED)
                continue;
            if (!w->fport_used[p]) {
                w->fport_used[p] = 1;
                w->fport[p] = 0;
                w->fport_list[w->nfport++] = p;
            }
            w->fport[p] += g->cN[j] * w->lamN[k] + g->cT[j] * w->lamT[k];
        }
    }
    /* u_n+1 = u* + h^2 M^-1 R^T F: a substructure's first pass reads u*, the
     * next ones add in place (the sums of a copy and then the passes), one
     * without port forces is a copy; the OR of slide_finbits over u_n+1 says
     * whether a coordinate is not finite. */
    for (int s = 0; s < m->nsub; s++)
        w->sub_done[s] = 0;
    for (int q = 0; q < w->nfport;) {
        /* up to four ports of one substructure in one pass over its coordinates */
        const slide_port *pt = &m->port[w->fport_list[q]];
        const slide_msub *b = &m->sub[pt->sub];
        const double *y[4];
        double a[4];
        int k = 0;
        for (; k < 4 && q < w->nfport; k++, q++) {
            const slide_port *pk = &m->port[w->fport_list[q]];
            if (pk->sub != pt->sub)
                break;
            y[k] = pk->y;
            a[k] = h2 * w->fport[w->fport_list[q]];
        }
        for (int j = k; j < 4; j++)
            y[j] = y[0], a[j] = 0;
        double *qn = w->q_new + b->off;
        if (!w->sub_done[pt->sub]) {
            w->sub_done[pt->sub] = 1;
            w->zfin[pt->sub] = slide_axpy4_from(b->n, a, y, w->q_star + b->off, qn);
            continue;
        }
        slide_axpy4(b->n, a, y, qn);
        uint64_t z = 0;
        for (int i = 0; i < b->n; i++)
            z |= slide_finbits(qn[i]);
        w->zfin[pt->sub] = z;
    }
    uint64_t zall = 0;
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        if (!w->sub_done[s] && b->n > 0)
            memcpy(w->q_new + b->off, w->q_star + b->off, (size_t)b->n * sizeof *w->q_new);
        zall |= w->zfin[s];
    }
    for (int i = 0; i < N && slide_nonfinite(zall); i++)
        if (!isfinite(w->q_new[i]))
            return slide_fail(d, JNT_ERR_NONFINITE,
                              "t = %g: coordinate %d became %g (time step too large, or a "
                              "callback returned NaN)", t + h, i, w->q_new[i]);
    /* Contact report: forces at t_n, geometry at t_n+1, residual gaps. */
    for (int k = 0; k < nc; k++) {
        slide_contact *c = &d->contact[k];
        const slide_geo *g = &w->geo[k];
        double dg = 0, ds = 0;
        for (int j = 0; j < 6; j++) {
            double dp = slide_pval(m, d, SLIDE_NEW, g->p[j]) -
                        slide_pval(m, d, SLIDE_STAR, g->p[j]);
            dg += g->cN[j] * dp;
            ds += g->cT[j] * dp;
        }
        c->seg = g->off ? -1 : g->seg;
        c->alpha = g->alpha;
        c->gamma = g->gamma;
        c->gap = g->gap;
        c->gap_after = g->gap + dg;
        c->normal = w->lamN[k];
        c->friction = w->lamT[k];
        c->v_slip = g->off ? 0 : (w->sslip[k] + ds) / h;
        c->x[0] = g->x[0];
        c->x[1] = g->x[1];
        /* eqs. 20-21 in the paper's convention: B_C = -row of the gap,
         * B_E = -(force direction per unit lambda). */
        for (int j = 0; j < 6; j++) {
            c->bc[j] = -g->cN[j];
            c->be[j] = -(g->cN[j] - c->chi * c->mu * g->cT[j]);
        }
        /* chi_prev: the last sliding direction while the contact stays
         * closed (through stick phases); a reversal counts as a flip. */
        if (c->state == SLIDE_SLIP || c->state == SLIDE_STICK) {
            if (c->chi * w->chi_prev[k] < 0)
                d->stats.chi_flips++;
            if (c->chi != 0)
                w->chi_prev[k] = c->chi;
            w->muv[k] = fabs(c->v_slip);
        } else {
            w->chi_prev[k] = 0;
            w->muv[k] = 0;
        }
    }
    if (m->energy)
        energy_step(m, d);
    /* Commit: t_n+1 becomes the current time. u_n becomes u_n-1, u_n+1 u_n
     * and u_n-1 u_n-2 by their pointers (no copies; the next step writes
     * u_n+1 over the old u_n-2); v and a are formed when read (slide_rates:
     * the next predictor forms v, a sync a), not at every step. */
    {
        double *qpp = w->q_pp;
        w->q_pp = w->q_prev;
        w->q_prev = w->q;
        w->q = w->q_new;
        w->q_new = qpp;
        w->qv_lazy = w->qa_lazy = 1;
    }
    /* The port displacements move with the configurations: u_n+1 becomes
     * the current one, u_n the previous; the new step's u* and u_n+1
     * carry the next step number (the old arrays' numbers never match). */
    double *pv = w->pval[SLIDE_PREV];
    long *pg = w->pgen[SLIDE_PREV];
    w->pval[SLIDE_PREV] = w->pval[SLIDE_CUR], w->pgen[SLIDE_PREV] = w->pgen[SLIDE_CUR];
    w->pval[SLIDE_CUR] = w->pval[SLIDE_NEW], w->pgen[SLIDE_CUR] = w->pgen[SLIDE_NEW];
    w->pval[SLIDE_NEW] = pv, w->pgen[SLIDE_NEW] = pg;
    double *xp = w->xr_prev;
    w->xr_prev = w->xr_cur;
    w->xr_cur = w->xr_new;
    w->xr_new = xp;
    d->step++;
    w->uncommitted = 0;
    d->t = w->t0 + (double)d->step * h; /* no drift from summing h */
    d->stats.steps++;
    /* The physical state: every substructure, or with lazy those on their own coordinates. */
    for (int s = 0; s < m->nsub; s++)
        if (!m->lazy || !m->sub[s].modal)
            slide_sync_sub(m, d, s, 1);
    return warn;
}
