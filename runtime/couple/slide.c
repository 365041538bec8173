/*
 * slide.c: substructures coupled by sliding interfaces (seed 003): the
 * model (copies, M^-1, stability limit, interface flexibilities), the data
 * objects, the start of a run and the accessors. The geometry is in
 * slide_geom.c, the step in slide_step.c, FiLm in slide_film.c, the
 * complex modes in slide_modes.c.
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"
#include "slide_impl.h"

/* See slide_impl.h. */
int slide_fail(slide_data *d, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jnt_verrf(d->w->err, sizeof d->w->err, code, fmt, ap);
    va_end(ap);
    return code;
}

/* See slide.h. */
void slide_iface_init(slide_iface *f)
{
    memset(f, 0, sizeof *f);
    f->mu = 0.3;
    f->assumption = SLIDE_REALISTIC;
}

/* See slide.h. */
int slide_node_fe(const fe_model *fe, const red_basis *b, int node, double angle,
                  const double *origin, double *rows, slide_node *out, char *err, size_t errn)
{
    if (!out)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_node_fe: no output node");
    int rc = red_node_rows(fe, b, node, angle, origin, out->X, rows, err, errn);
    if (rc != JNT_OK)
        return rc;
    out->phi[0] = rows;
    out->phi[1] = rows + (b ? b->r : fe->ndof);
    out->dof[0] = out->dof[1] = -1;
    return JNT_OK;
}

/* ---- model ------------------------------------------------------------- */

/* See slide.h. */
void slide_model_free(slide_model *m)
{
    if (!m)
        return;
    for (int s = 0; s < m->nsub; s++) {
        free(m->sub[s].M);
        free(m->sub[s].Minv);
        free(m->sub[s].K);
        free(m->sub[s].C);
    }
    for (int p = 0; p < m->nport; p++) {
        free(m->port[p].row);
        free(m->port[p].y);
        free(m->port[p].idx);
        free(m->port[p].val);
    }
    free(m->sub);
    free(m->iface);
    free(m->node);
    free(m->port);
    free(m->contact_iface);
    free(m->contact_node);
    free(m->G);
    free(m);
}

static double *dup(const double *a, size_t n)
{
    double *b = malloc(n * sizeof *b);
    if (b)
        memcpy(b, a, n * sizeof *b);
    return b;
}

/* Copy substructure s, invert its M (Cholesky) and find omega_max. */
static int model_sub(slide_model *m, int s, const slide_sub *in, char *err, size_t errn)
{
    slide_msub *o = &m->sub[s];
    int n = in->n;
    size_t nn = (size_t)n * (size_t)n;
    if (n < 0 || (n > 0 && (!in->M || !in->K)))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "substructure %d: needs n >= 0, M and K", s);
    o->n = n;
    o->off = m->N;
    m->N += n;
    o->force = in->force;
    o->rayleigh = in->rayleigh;
    o->rigid = in->rigid;
    if (n <= 0)
        return JNT_OK;
    o->M = dup(in->M, nn);
    o->K = dup(in->K, nn);
    o->Minv = dup(in->M, nn);
    o->C = in->C ? dup(in->C, nn) : NULL;
    double *a = dup(in->K, nn), *b = dup(in->M, nn), *w = malloc((size_t)n * sizeof *w);
    int rc = JNT_OK;
    if (!o->M || !o->K || !o->Minv || (in->C && !o->C) || !a || !b || !w) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for substructure %d", s);
        goto done;
    }
    /* M^-1 from the Cholesky factor, both triangles. */
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, o->Minv, n);
    if (info == 0)
        info = LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', n, o->Minv, n);
    if (info != 0) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                      "substructure %d: M is not positive definite (Cholesky fails at %d)", s,
                      (int)info);
        goto done;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++)
            o->Minv[i + (size_t)n * j] = o->Minv[j + (size_t)n * i];
    /* Stability limit of the central difference scheme: 2 / omega_max. */
    info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'N', 'L', n, a, n, b, n, w);
    if (info != 0) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                      "substructure %d: the eigenvalues of (K, M) failed (info %d)", s, (int)info);
        goto done;
    }
    if (w[n - 1] > 0) {
        o->wmax = sqrt(w[n - 1]);
        m->hcrit = fmin(m->hcrit, 2.0 / o->wmax);
    }
done:
    free(a);
    free(b);
    free(w);
    return rc;
}

/* Node `in` of substructure s (-1: ground) as node i with ports 2i, 2i+1. */
static int model_node(slide_model *m, int i, int s, const slide_node *in, char *err, size_t errn)
{
    m->node[i].X[0] = in->X[0];
    m->node[i].X[1] = in->X[1];
    m->node[i].sub = s;
    for (int c = 0; c < 2; c++) {
        slide_port *p = &m->port[2 * i + c];
        p->sub = s;
        p->kind = PORT_FIXED;
        if (s < 0)
            continue;
        int n = m->sub[s].n;
        if (in->phi[c]) {
            p->kind = PORT_ROW;
            p->row = dup(in->phi[c], (size_t)n);
            if (!p->row)
                return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
            /* A sparse row (a Craig-Bampton kept DOF: one 1) is evaluated
             * sparse in the step. */
            int nz = 0;
            for (int j = 0; j < n; j++)
                nz += p->row[j] != 0;
            p->nnz = -1;
            if (4 * nz <= n) {
                p->idx = malloc(((size_t)nz + 1) * sizeof *p->idx);
                p->val = malloc(((size_t)nz + 1) * sizeof *p->val);
                if (!p->idx || !p->val)
                    return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
                p->nnz = 0;
                for (int j = 0; j < n; j++)
                    if (p->row[j] != 0)
                        p->idx[p->nnz] = j, p->val[p->nnz++] = p->row[j];
            }
        } else if (in->dof[c] >= 0) {
            if (in->dof[c] >= n)
                return jnt_errf(err, errn, JNT_ERR_USAGE,
                                "interface node (%g, %g): DOF %d out of range (substructure %d "
                                "has %d)", in->X[0], in->X[1], in->dof[c], s, n);
            p->kind = PORT_DOF;
            p->dof = in->dof[c];
        }
        if (p->kind == PORT_FIXED)
            continue;
        /* y = M^-1 R^T */
        p->y = malloc((size_t)n * sizeof *p->y);
        if (!p->y)
            return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
        const double *Mi = m->sub[s].Minv;
        if (p->kind == PORT_DOF)
            memcpy(p->y, Mi + (size_t)n * p->dof, (size_t)n * sizeof *p->y);
        else
            cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, Mi, n, p->row, 1, 0.0, p->y, 1);
    }
    return JNT_OK;
}

/* Check interface f (index i) against the substructures. */
static int check_iface(const slide_def *def, int i, char *err, size_t errn)
{
    const slide_iface *f = &def->iface[i];
    if (f->slave_sub < 0 || f->slave_sub >= def->nsub || f->master_sub < -1 ||
        f->master_sub >= def->nsub || f->master_sub == f->slave_sub)
        return jnt_errf(err, errn, JNT_ERR_USAGE,
                        "interface %d: bad substructures (slave %d, master %d, %d defined)", i,
                        f->slave_sub, f->master_sub, def->nsub);
    if (f->nslave < 1 || !f->slave || f->nmaster < 2 || !f->master)
        return jnt_errf(err, errn, JNT_ERR_USAGE,
                        "interface %d: needs at least one slave node and two master nodes", i);
    if (!(f->mu >= 0) || (int)f->assumption < 0 || f->assumption > SLIDE_SIMPLIFIED)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "interface %d: bad mu or assumption", i);
    for (int k = 0; k + 1 < f->nmaster; k++) {
        double dx = f->master[k + 1].X[0] - f->master[k].X[0];
        double dy = f->master[k + 1].X[1] - f->master[k].X[1];
        if (dx * dx + dy * dy == 0)
            return jnt_errf(err, errn, JNT_ERR_USAGE,
                            "interface %d: master segment %d has zero length", i, k);
    }
    return JNT_OK;
}

/* See slide.h. */
int slide_model_new(const slide_def *def, slide_model **out, char *err, size_t errn)
{
    if (!out)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_model_new: out is NULL");
    *out = NULL;
    if (!def || def->nsub < 1 || !def->sub || def->niface < 0 || (def->niface && !def->iface))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_model_new: no substructures");
    if (!(def->h > 0) || (def->method != SLIDE_DUAL && def->method != SLIDE_FILM))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_model_new: bad time step or method");
    for (int i = 0; i < def->niface; i++) {
        int rc = check_iface(def, i, err, errn);
        if (rc)
            return rc;
    }
    slide_model *m = calloc(1, sizeof *m);
    if (!m)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
    m->nsub = def->nsub;
    m->niface = def->niface;
    m->method = def->method;
    m->h = def->h;
    m->hcrit = INFINITY;
    m->energy = def->energy;
    m->max_iter = def->max_iter > 0 ? def->max_iter : 100;
    m->gs_tol = def->gs_tol > 0 ? def->gs_tol : 1e-12;
    for (int i = 0; i < def->niface; i++) {
        m->nnode += def->iface[i].nslave + def->iface[i].nmaster;
        m->ncontact += def->iface[i].nslave;
    }
    m->nport = 2 * m->nnode;
    m->sub = calloc((size_t)m->nsub, sizeof *m->sub);
    m->iface = calloc((size_t)m->niface + 1, sizeof *m->iface);
    m->node = calloc((size_t)m->nnode + 1, sizeof *m->node);
    m->port = calloc((size_t)m->nport + 1, sizeof *m->port);
    m->contact_iface = calloc((size_t)m->ncontact + 1, sizeof *m->contact_iface);
    m->contact_node = calloc((size_t)m->ncontact + 1, sizeof *m->contact_node);
    m->G = calloc((size_t)m->nport * (size_t)m->nport + 1, sizeof *m->G);
    int rc = JNT_OK;
    if (!m->sub || !m->iface || !m->node || !m->port || !m->contact_iface || !m->contact_node ||
        !m->G) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (int s = 0; s < m->nsub && !rc; s++)
        rc = model_sub(m, s, &def->sub[s], err, errn);
    /* Interfaces: slave nodes, then master nodes, each interface in turn. */
    int nd = 0, nc = 0;
    for (int i = 0; i < m->niface && !rc; i++) {
        const slide_iface *f = &def->iface[i];
        slide_miface *o = &m->iface[i];
        o->slave_sub = f->slave_sub;
        o->master_sub = f->master_sub;
        o->ns = f->nslave;
        o->nm = f->nmaster;
        o->assumption = f->assumption;
        o->mu = f->mu;
        o->mu_fn = f->mu_fn;
        o->slave0 = nd;
        for (int k = 0; k < f->nslave && !rc; k++) {
            m->contact_iface[nc] = i;
            m->contact_node[nc++] = nd;
            rc = model_node(m, nd++, f->slave_sub, &f->slave[k], err, errn);
        }
        o->master0 = nd;
        for (int k = 0; k < f->nmaster && !rc; k++)
            rc = model_node(m, nd++, f->master_sub, &f->master[k], err, errn);
        double len = 0;
        for (int k = 0; k + 1 < f->nmaster; k++)
            len += hypot(f->master[k + 1].X[0] - f->master[k].X[0],
                         f->master[k + 1].X[1] - f->master[k].X[1]);
        o->lseg = len / (f->nmaster - 1);
    }
    if (rc)
        goto fail;
    /* Interface flexibilities G = R M^-1 R^T (ports of one substructure). */
    int np = m->nport;
    for (int q = 0; q < np; q++) {
        const slide_port *pq = &m->port[q];
        if (pq->kind == PORT_FIXED)
            continue;
        for (int p = 0; p < np; p++) {
            const slide_port *pp = &m->port[p];
            if (pp->kind == PORT_FIXED || pp->sub != pq->sub)
                continue;
            double g;
            if (pp->kind == PORT_DOF)
                g = pq->y[pp->dof];
            else
                g = cblas_ddot(m->sub[pp->sub].n, pp->row, 1, pq->y, 1);
            m->G[p + (size_t)np * q] = g;
        }
    }
    *out = m;
    return JNT_OK;
fail:
    slide_model_free(m);
    return rc;
}

/* See slide.h. */
int slide_model_ndof(const slide_model *m)
{
    return m->N;
}

/* See slide.h. */
int slide_model_offset(const slide_model *m, int s)
{
    return s >= 0 && s < m->nsub ? m->sub[s].off : -1;
}

/* See slide.h. */
double slide_model_hcrit(const slide_model *m)
{
    return m->hcrit;
}

/* See slide.h. */
int slide_model_ncontact(const slide_model *m)
{
    return m->ncontact;
}

/* ---- data ---------------------------------------------------------------- */

/* See slide.h. */
void slide_data_free(slide_data *d)
{
    if (!d)
        return;
    struct slide_work *w = d->w;
    if (w) {
        double *dbl[] = {w->u_prev, w->u_new, w->ustar, w->r, w->f, w->cv, w->tmp,
                         w->pprev, w->pcur, w->pnew, w->pstar, w->fport, w->xr_prev,
                         w->xr_cur, w->xr_new, w->vr_new, w->sslip, w->lamN, w->lamT,
                         w->muv, w->chi_prev, w->cE, w->W, w->rhs, w->lam, w->ralpha};
        for (size_t i = 0; i < sizeof dbl / sizeof dbl[0]; i++)
            free(dbl[i]);
        int *in[] = {w->fport_used, w->fport_list, w->cand, w->removed, w->ipiv, w->idx, w->map};
        for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
            free(in[i]);
        free(w->geo);
        free(w);
    }
    free(d->u);
    free(d->v);
    free(d->a);
    free(d->contact);
    free(d);
}

#define ALLOC(p, n) ((p) = calloc((size_t)(n) + 1, sizeof *(p)), ok = ok && (p))

/* See slide.h. */
slide_data *slide_data_new(const slide_model *m, void *user)
{
    if (!m)
        return NULL;
    slide_data *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->user = user;
    int ok = 1, N = m->N, np = m->nport, nc = m->ncontact, ns = m->nsub;
    struct slide_work *w;
    ALLOC(w, 1);
    if (!ok) {
        free(d);
        return NULL;
    }
    d->w = w;
    ALLOC(d->u, N);
    ALLOC(d->v, N);
    ALLOC(d->a, N);
    ALLOC(d->contact, nc);
    ALLOC(w->u_prev, N);
    ALLOC(w->u_new, N);
    ALLOC(w->ustar, N);
    ALLOC(w->r, N);
    ALLOC(w->f, N);
    ALLOC(w->cv, N);
    ALLOC(w->tmp, N);
    ALLOC(w->pprev, np);
    ALLOC(w->pcur, np);
    ALLOC(w->pnew, np);
    ALLOC(w->pstar, np);
    ALLOC(w->fport, np);
    ALLOC(w->fport_used, np);
    ALLOC(w->fport_list, np);
    ALLOC(w->xr_prev, 2 * ns);
    ALLOC(w->xr_cur, 2 * ns);
    ALLOC(w->xr_new, 2 * ns);
    ALLOC(w->vr_new, 2 * ns);
    ALLOC(w->geo, nc);
    ALLOC(w->sslip, nc);
    ALLOC(w->lamN, nc);
    ALLOC(w->lamT, nc);
    ALLOC(w->muv, nc);
    ALLOC(w->chi_prev, nc);
    ALLOC(w->cE, 6 * nc);
    ALLOC(w->cand, nc);
    ALLOC(w->removed, nc);
    ALLOC(w->W, 12 * (size_t)nc * nc);
    ALLOC(w->ralpha, ns);
    ALLOC(w->rhs, 2 * nc);
    ALLOC(w->lam, 6 * nc);
    ALLOC(w->ipiv, 2 * nc);
    ALLOC(w->idx, 2 * nc);
    ALLOC(w->map, 3 * nc);
    if (!ok) {
        slide_data_free(d);
        return NULL;
    }
    for (int k = 0; k < nc; k++) {
        d->contact[k].iface = m->contact_iface[k];
        d->contact[k].slave = m->contact_node[k] - m->iface[m->contact_iface[k]].slave0;
        d->contact[k].seg = -1;
        w->geo[k].seg = -1;
    }
    return d;
}

/* See slide.h. */
int slide_init(const slide_model *m, slide_data *d, double t0, const double *u0,
               const double *v0)
{
    if (!m || !d)
        return JNT_ERR_USAGE;
    struct slide_work *w = d->w;
    int N = m->N;
    w->err[0] = 0;
    if (m->h >= m->hcrit)
        return slide_fail(d, JNT_ERR_USAGE,
                          "the time step %g s is not below the stability limit 2/omega_max = "
                          "%g s of the substructures", m->h, m->hcrit);
    /* With Rayleigh damping (callback, at t0) the top mode has
     * zeta = alpha / (2 w) + beta w / 2 and the scheme with the backward
     * velocity is stable for w h < 2 (sqrt(1 + zeta^2) - zeta). */
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        double al = 0, be = 0, wm = b->wmax;
        if (!b->rayleigh || wm <= 0)
            continue;
        b->rayleigh(t0, &al, &be, d->user);
        double z = al / (2 * wm) + be * wm / 2, hl = 2 * (sqrt(1 + z * z) - z) / wm;
        if (m->h >= hl)
            return slide_fail(d, JNT_ERR_USAGE,
                              "substructure %d: the time step %g s is not below the stability "
                              "limit %g s of its damped top mode (zeta = %g at t = %g)", s, m->h,
                              hl, z, t0);
    }
    memset(&d->stats, 0, sizeof d->stats);
    memset(&d->energy, 0, sizeof d->energy);
    d->t = w->t0 = t0;
    d->step = 0;
    for (int i = 0; i < N; i++) {
        d->u[i] = u0 ? u0[i] : 0;
        d->v[i] = v0 ? v0[i] : 0;
        d->a[i] = 0;
    }
    /* Contact-free a0, then u_-1 = u0 - h v0 + h^2/2 a0. */
    double *alp = w->ralpha;
    int rc = slide_forces(m, d, t0, d->u, d->v, alp);
    if (rc == 0) {
        double h = m->h;
        for (int s = 0; s < m->nsub; s++) {
            const slide_msub *b = &m->sub[s];
            int n = b->n, o = b->off;
            if (n <= 0)
                continue;
            memset(d->a + o, 0, (size_t)n * sizeof *d->a);
            slide_matvec(n, b->Minv, w->r + o, 1.0, d->a + o);
            for (int i = 0; i < n; i++) {
                d->a[o + i] -= alp[s] * d->v[o + i];
                w->u_prev[o + i] = d->u[o + i] - h * d->v[o + i] + 0.5 * h * h * d->a[o + i];
            }
        }
    }
    if (rc)
        return rc;
    for (int i = 0; i < N; i++)
        d->v[i] = (d->u[i] - w->u_prev[i]) / m->h;
    slide_rigid_at(m, d, t0 - m->h, w->xr_prev, NULL);
    slide_rigid_at(m, d, t0, w->xr_cur, NULL);
    slide_ports_of(m, w->u_prev, w->pprev);
    slide_ports_of(m, d->u, w->pcur);
    /* Segments on the geometry at t0; contacts start free. */
    for (int k = 0; k < m->ncontact; k++) {
        slide_geometry(m, k, w->xr_cur, w->pcur, 1, 1, -1, &w->geo[k]);
        slide_contact *c = &d->contact[k];
        c->state = w->geo[k].off ? SLIDE_OFF : SLIDE_FREE;
        c->seg = w->geo[k].off ? -1 : w->geo[k].seg;
        c->alpha = w->geo[k].alpha;
        c->gamma = w->geo[k].gamma;
        c->gap = c->gap_after = w->geo[k].gap;
        c->normal = c->friction = c->v_slip = c->chi = 0;
        c->mu = slide_mu(m, c->iface, d->t, 0, d->user);
        c->x[0] = w->geo[k].x[0];
        c->x[1] = w->geo[k].x[1];
        w->chi_prev[k] = 0;
        w->muv[k] = 0;
    }
    /* Energy at t_-1/2. */
    if (m->energy) {
        double e = 0;
        for (int s = 0; s < m->nsub; s++) {
            const slide_msub *b = &m->sub[s];
            int n = b->n, o = b->off;
            if (n <= 0)
                continue;
            for (int i = 0; i < n; i++)
                w->tmp[o + i] = (d->u[o + i] - w->u_prev[o + i]) / m->h;
            cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, b->M, n, w->tmp + o, 1, 0.0, w->r + o,
                        1);
            e += 0.5 * cblas_ddot(n, w->tmp + o, 1, w->r + o, 1);
            cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, b->K, n, d->u + o, 1, 0.0, w->r + o,
                        1);
            e += 0.5 * cblas_ddot(n, w->u_prev + o, 1, w->r + o, 1);
        }
        d->energy.initial = e;
    }
    return JNT_OK;
}

/* See slide.h. */
int slide_run(const slide_model *m, slide_data *d, double t_end, int every,
              int (*out)(const slide_model *m, const slide_data *d, void *user), void *user)
{
    if (!m || !d)
        return JNT_ERR_USAGE;
    if (every < 1)
        every = 1;
    if (out && out(m, d, user))
        return JNT_OK;
    for (long i = 1; d->t < t_end - 0.5 * m->h; i++) {
        int rc = slide_step(m, d);
        if (rc < 0)
            return rc;
        if (out && i % every == 0 && out(m, d, user))
            break;
    }
    return JNT_OK;
}

/* See slide.h. */
double slide_compat_residual(const slide_model *m, const slide_data *d)
{
    double r = 0;
    for (int k = 0; k < m->ncontact; k++)
        if (d->contact[k].state == SLIDE_SLIP || d->contact[k].state == SLIDE_STICK)
            r = fmax(r, fabs(d->contact[k].gap_after));
    return r;
}

/* See slide.h. */
double slide_energy_residual(const slide_data *d)
{
    const slide_energy *e = &d->energy;
    return (e->kinetic + e->strain - e->initial) -
           (e->work_ext + e->work_drive - e->damping - e->friction + e->work_normal);
}

/* See slide.h. */
void slide_node_value(const slide_model *m, int s, const slide_node *node, const double *x,
                      double out[2])
{
    out[0] = out[1] = 0;
    if (s < 0 || s >= m->nsub)
        return;
    const slide_msub *b = &m->sub[s];
    for (int c = 0; c < 2; c++) {
        if (node->phi[c])
            out[c] = slide_dot(b->n, node->phi[c], x + b->off);
        else if (node->dof[c] >= 0 && node->dof[c] < b->n)
            out[c] = x[b->off + node->dof[c]];
    }
}

/* See slide.h. */
const char *slide_error(const slide_data *d)
{
    return d && d->w ? d->w->err : "";
}

/* See slide.h. */
const char *slide_status_name(int status)
{
    switch (status) {
    case SLIDE_OFF_MASTER:
        return "SLIDE_OFF_MASTER";
    case SLIDE_NOT_CONVERGED:
        return "SLIDE_NOT_CONVERGED";
    default:
        return jnt_status_name(status);
    }
}

