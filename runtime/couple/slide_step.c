/*
 * slide_step.c: the explicit step of substructures coupled by sliding
 * interfaces (seed 003 eqs. 9-15): the contact-free predictor (eq. 13),
 * the geometry and the rows B_C, B_E at t_n+1 (eqs. 16-21), the
 * multipliers of the dual method (eq. 15, no tension) or of FiLm
 * (slide_film.c), the corrector (eq. 14) and the energy accounts. No
 * allocation: everything lives in the data object's work memory.
 */
#include <lapacke.h>
#include <math.h>
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

/* See slide_impl.h. */
int slide_forces(const slide_model *m, slide_data *d, double t, const double *u,
                  const double *v, double *ralpha)
{
    struct slide_work *w = d->w;
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        int n = b->n, o = b->off;
        if (n <= 0)
            continue;
        memset(w->f + o, 0, (size_t)n * sizeof *w->f);
        if (b->force) {
            int rc = b->force(t, w->f + o, d->user);
            if (rc < 0)
                return slide_fail(d, JNT_ERR_KERNEL,
                                  "substructure %d: the force callback failed at t = %g "
                                  "(status %d)", s, t, rc);
        }
        double al = 0, be = 0;
        if (b->rayleigh)
            b->rayleigh(t, &al, &be, d->user);
        ralpha[s] = al;
        /* r = f - C v - K (u + beta v); cv = C v + beta K v (+ alpha M v: energy). */
        for (int i = 0; i < n; i++)
            w->tmp[o + i] = u[o + i] + be * v[o + i];
        memcpy(w->r + o, w->f + o, (size_t)n * sizeof *w->r);
        slide_matvec(n, b->K, w->tmp + o, -1.0, w->r + o);
        if (b->C)
            slide_matvec(n, b->C, v + o, -1.0, w->r + o);
        if (m->energy) {
            /* cv = f - r - K u + alpha M v: the damping force. */
            for (int i = 0; i < n; i++)
                w->cv[o + i] = w->f[o + i] - w->r[o + i];
            slide_matvec(n, b->K, u + o, -1.0, w->cv + o);
            if (al != 0)
                slide_matvec(n, b->M, v + o, al, w->cv + o);
        }
    }
    return JNT_OK;
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
        lapack_int info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, na, na, W, na, w->ipiv);
        double pmin = INFINITY;
        for (int i = 0; i < na && info >= 0; i++)
            pmin = fmin(pmin, fabs(W[i + (size_t)na * i]));
        if (info != 0 || pmin <= 1e-13 * wmax)
            return slide_fail(d, JNT_ERR_SOLVER,
                              "t = %g: the contact matrix h^2 B_C M^-1 B_E^T of %d active "
                              "contacts is singular (slaves on the same point, or dependent "
                              "constraints)", d->t, na);
        LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', na, 1, W, na, w->ipiv, w->lam, na);
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
        slide_geometry(m, k, w->xr_new, w->pstar, def_alpha, def_normal, g->seg, g);
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
            double ds = w->pstar[2 * ic + dd] - w->pcur[2 * ic + dd];
            double dm = (1 - g->alpha) * (w->pstar[2 * t1 + dd] - w->pcur[2 * t1 + dd]) +
                        g->alpha * (w->pstar[2 * t1 + 2 + dd] - w->pcur[2 * t1 + 2 + dd]);
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

/* Energy accounts of the step t_n-1 -> t_n+1 (slide_energy). */
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
            double dl = 0.5 * (w->u_new[o + i] - w->u_prev[o + i]);
            e->work_ext += w->f[o + i] * dl;
            e->damping += w->cv[o + i] * dl;
            w->tmp[o + i] = (w->u_new[o + i] - d->u[o + i]) / h;
        }
        memset(w->r + o, 0, (size_t)n * sizeof *w->r);
        slide_matvec(n, b->M, w->tmp + o, 1.0, w->r + o);
        kin += 0.5 * slide_dot(n, w->tmp + o, w->r + o);
        memset(w->r + o, 0, (size_t)n * sizeof *w->r);
        slide_matvec(n, b->K, w->u_new + o, 1.0, w->r + o);
        str += 0.5 * slide_dot(n, d->u + o, w->r + o);
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
            double dp = 0.5 * (w->pnew[g->p[j]] - w->pprev[g->p[j]]);
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
    int N = m->N, np = m->nport, nc = m->ncontact;
    double h = m->h, h2 = h * h, t = d->t;
    w->err[0] = 0;
    /* Predictor (eq. 13): u* = h^2 M^-1 (f_n - C (u_n - u_n-1)/h - K u_n) + 2 u_n - u_n-1. */
    int rc = slide_forces(m, d, t, d->u, d->v, w->ralpha);
    if (rc)
        return rc;
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        int n = b->n, o = b->off;
        if (n <= 0)
            continue;
        memset(w->ustar + o, 0, (size_t)n * sizeof *w->ustar);
        slide_matvec(n, b->Minv, w->r + o, h2, w->ustar + o);
        for (int i = 0; i < n; i++)
            w->ustar[o + i] += 2 * d->u[o + i] - w->u_prev[o + i] - h2 * w->ralpha[s] * d->v[o + i];
    }
    /* Geometry at t_n+1 (eqs. 16-19) on the predictor, candidates. */
    slide_rigid_at(m, d, t + h, w->xr_new, w->vr_new);
    slide_ports_of(m, w->ustar, w->pstar);
    int warn = contacts_predict(m, d);
    /* Multipliers (eq. 15 or FiLm). */
    rc = m->method == SLIDE_FILM ? slide_film_solve(m, d) : dual_solve(m, d);
    if (rc < 0)
        return rc;
    if (rc > 0)
        warn = rc;
    /* Port forces of the contacts, corrector (eq. 14): u^c = h^2 M^-1 R^T F. */
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
    memcpy(w->u_new, w->ustar, (size_t)N * sizeof *w->u_new);
    memcpy(w->pnew, w->pstar, (size_t)np * sizeof *w->pnew);
    for (int q = 0; q < w->nfport; q++) {
        int p = w->fport_list[q];
        const slide_port *pt = &m->port[p];
        const slide_msub *b = &m->sub[pt->sub];
        double fp = h2 * w->fport[p];
        slide_axpy(b->n, fp, pt->y, w->u_new + b->off);
        slide_axpy(np, fp, m->G + (size_t)np * p, w->pnew);
        w->fport_used[p] = 0;
    }
    for (int i = 0; i < N; i++)
        if (!isfinite(w->u_new[i]))
            return slide_fail(d, JNT_ERR_NONFINITE,
                              "t = %g: coordinate %d became %g (time step too large, or a "
                              "callback returned NaN)", t + h, i, w->u_new[i]);
    /* Contact report: forces at t_n, geometry at t_n+1, residual gaps. */
    for (int k = 0; k < nc; k++) {
        slide_contact *c = &d->contact[k];
        const slide_geo *g = &w->geo[k];
        double dg = 0, ds = 0;
        for (int j = 0; j < 6; j++) {
            double dp = w->pnew[g->p[j]] - w->pstar[g->p[j]];
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
    /* Commit: t_n+1 becomes the current time. */
    for (int i = 0; i < N; i++) {
        d->a[i] = (w->u_new[i] - 2 * d->u[i] + w->u_prev[i]) / h2;
        w->u_prev[i] = d->u[i];
        d->u[i] = w->u_new[i];
        d->v[i] = (d->u[i] - w->u_prev[i]) / h;
    }
    double *pp = w->pprev;
    w->pprev = w->pcur;
    w->pcur = w->pnew;
    w->pnew = pp;
    double *xp = w->xr_prev;
    w->xr_prev = w->xr_cur;
    w->xr_cur = w->xr_new;
    w->xr_new = xp;
    d->step++;
    d->t = w->t0 + (double)d->step * h; /* no drift from summing h */
    d->stats.steps++;
    return warn;
}

