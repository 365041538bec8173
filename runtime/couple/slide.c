/*
 * slide.c: substructures coupled by sliding interfaces (seed 003): the
 * model (copies, M^-1, stability limit, interface flexibilities), the data
 * objects, the start of a run and the accessors. The geometry is in
 * slide_geom.c, the step in slide_step.c, FiLm in slide_film.c, the
 * complex modes in slide_modes.c.
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <limits.h>
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
    for (int s = 0; m->sub && s < m->nsub; s++) { /* m->sub NULL: its calloc failed */
        slide_msub *b = &m->sub[s];
        double *p[] = {b->M, b->Minv, b->K, b->C, b->Phi, b->PhiT, b->w2, b->dmod, b->Y, b->Psi};
        for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
            free(p[i]);
        csr_free(&b->R);
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

/* The modes of substructure o (Phi, PhiT, w2 from dsygvd on copies of K
 * and M) and whether its C is classical: Phi^T C Phi diagonal, every
 * off-diagonal entry within the round-off bound 8 n eps (|Phi|^T |C|
 * |Phi|)_ij of the product that computes it. */
static int sub_modes(slide_msub *o, int s, char *err, size_t errn)
{
    int n = o->n;
    size_t nn = (size_t)n * (size_t)n;
    double *b = dup(o->M, nn), *t = NULL, *u = NULL, *ac = NULL;
    o->Phi = dup(o->K, nn);
    o->PhiT = malloc(nn * sizeof *o->PhiT);
    o->w2 = malloc((size_t)n * sizeof *o->w2);
    o->dmod = calloc((size_t)n, sizeof *o->dmod);
    if (o->C) {
        t = malloc(nn * sizeof *t);
        u = malloc(nn * sizeof *u);
        ac = malloc(nn * sizeof *ac);
    }
    int rc = JNT_OK;
    if (!b || !o->Phi || !o->PhiT || !o->w2 || !o->dmod || (o->C && (!t || !u || !ac))) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for substructure %d", s);
        goto done;
    }
    /* K Phi = M Phi w2, Phi^T M Phi = I. */
    lapack_int info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'L', n, o->Phi, n, b, n, o->w2);
    if (info != 0) {
        rc = jnt_errf(err, errn, JNT_ERR_SOLVER,
                      "substructure %d: the eigenvalues of (K, M) failed (info %d)", s, (int)info);
        goto done;
    }
    /* Each mode's frequency as its Rayleigh quotient on the given K and M,
     * its mass normalised to 1: dsygvd's eigenvalues carry an absolute
     * error of eps w2_max (1e-8 of the lowest of a stiff Craig-Bampton
     * substructure), the quotient one of second order in the mode's error.
     * (b holds the Cholesky factor; the products go to PhiT as scratch.) */
    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, n, n, 1.0, o->K, n, o->Phi, n, 0.0,
                o->PhiT, n);
    for (int j = 0; j < n; j++)
        o->w2[j] = cblas_ddot(n, o->Phi + (size_t)n * j, 1, o->PhiT + (size_t)n * j, 1);
    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, n, n, 1.0, o->M, n, o->Phi, n, 0.0,
                o->PhiT, n);
    for (int j = 0; j < n; j++) {
        double mj = cblas_ddot(n, o->Phi + (size_t)n * j, 1, o->PhiT + (size_t)n * j, 1);
        o->w2[j] /= mj;
        cblas_dscal(n, 1 / sqrt(mj), o->Phi + (size_t)n * j, 1);
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            o->PhiT[j + (size_t)n * i] = o->Phi[i + (size_t)n * j];
    o->classical = 1;
    if (!o->C)
        goto done;
    /* t = Phi^T C Phi; u = |Phi|^T |C| |Phi| (the bound of its round-off). */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, o->C, n, o->Phi, n, 0.0,
                u, n);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, n, n, 1.0, o->Phi, n, u, n, 0.0, t, n);
    for (size_t i = 0; i < nn; i++) {
        ac[i] = fabs(o->C[i]);
        b[i] = fabs(o->Phi[i]);
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, ac, n, b, n, 0.0, u, n);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, n, n, 1.0, b, n, u, n, 0.0, ac, n);
    double tol = 8.0 * n * DBL_EPSILON;
    for (int j = 0; j < n; j++) {
        o->dmod[j] = t[j + (size_t)n * j];
        for (int i = 0; i < n; i++)
            if (i != j && fabs(t[i + (size_t)n * j]) > tol * ac[i + (size_t)n * j])
                o->classical = 0;
    }
done:
    free(b);
    free(t);
    free(u);
    free(ac);
    return rc;
}

/* Copy substructure s, invert its M (Cholesky), find its modes (and so
 * omega_max) and choose its coordinates. */
static int model_sub(slide_model *m, int s, const slide_sub *in, const slide_def *def, char *err,
                     size_t errn)
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
    if (!o->M || !o->K || !o->Minv || (in->C && !o->C))
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for substructure %d", s);
    /* M^-1 from the Cholesky factor, both triangles. */
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, o->Minv, n);
    if (info == 0)
        info = LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', n, o->Minv, n);
    if (info != 0)
        return jnt_errf(err, errn, JNT_ERR_SOLVER,
                        "substructure %d: M is not positive definite (Cholesky fails at %d)", s,
                        (int)info);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++)
            o->Minv[i + (size_t)n * j] = o->Minv[j + (size_t)n * i];
    int rc = sub_modes(o, s, err, errn);
    if (rc != JNT_OK)
        return rc;
    /* Stability limit of the central difference scheme: 2 / omega_max. */
    double w2max = 0;
    for (int i = 0; i < n; i++)
        w2max = fmax(w2max, o->w2[i]);
    if (w2max > 0) {
        o->wmax = sqrt(w2max);
        m->hcrit = fmin(m->hcrit, 2.0 / o->wmax);
    }
    o->modal = o->classical &&
               (def->coords == SLIDE_COORDS_MODAL ||
                (def->coords == SLIDE_COORDS_AUTO && def->lazy && n >= SLIDE_MODAL_MIN));
    return JNT_OK;
}

/* Node `in` of substructure s (-1: ground) as node i with ports 2i, 2i+1;
 * the rows of its ports go to rows[s] (row-major, n values each) at the
 * substructure's next free rows nrow[s]. */
static int model_node(slide_model *m, int i, int s, const slide_node *in, double **rows,
                      int *nrow, char *err, size_t errn)
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
        if (!in->phi[c] && in->dof[c] >= n)
            return jnt_errf(err, errn, JNT_ERR_USAGE,
                            "interface node (%g, %g): DOF %d out of range (substructure %d "
                            "has %d)", in->X[0], in->X[1], in->dof[c], s, n);
        if (!in->phi[c] && in->dof[c] < 0)
            continue;
        /* A row of Phi, or the unit row of a DOF. */
        p->kind = PORT_ROW;
        p->row = nrow[s]++;
        double *r = rows[s] + (size_t)p->row * (size_t)n;
        if (in->phi[c])
            memcpy(r, in->phi[c], (size_t)n * sizeof *r);
        else
            r[in->dof[c]] = 1;
    }
    return JNT_OK;
}

/* The port rows of substructure s (nrow dense rows): R (sparse), Y = rows of
 * M^-1 R^T, Psi = R Phi, and each port's M^-1 R^T in the step's
 * coordinates. */
static int model_ports(slide_model *m, int s, const double *rows, int nrow, char *err,
                       size_t errn)
{
    slide_msub *b = &m->sub[s];
    int n = b->n;
    if (csr_from_rows(&b->R, nrow, n, rows, (size_t)n) != 0)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
    b->Y = calloc((size_t)nrow * n + 1, sizeof *b->Y);
    b->Psi = malloc(((size_t)nrow * n + 1) * sizeof *b->Psi);
    if (!b->Y || !b->Psi)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
    /* Y_i = M^-1 R_i^T: M^-1 is symmetric, so its columns at the row's entries. */
    for (int i = 0; i < nrow; i++)
        for (int k = b->R.rowptr[i]; k < b->R.rowptr[i + 1]; k++)
            cblas_daxpy(n, b->R.val[k], b->Minv + (size_t)n * b->R.col[k], 1,
                        b->Y + (size_t)n * i, 1);
    /* Psi = R Phi: the rows of Phi are the columns of PhiT. */
    csr_mul_rows(&b->R, b->PhiT, (size_t)n, n, b->Psi, (size_t)n);
    for (int p = 0; p < m->nport; p++) {
        slide_port *pt = &m->port[p];
        if (pt->kind == PORT_ROW && pt->sub == s)
            pt->y = (b->modal ? b->Psi : b->Y) + (size_t)n * pt->row;
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
    if (def->coords < SLIDE_COORDS_AUTO || def->coords > SLIDE_COORDS_MODAL)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "slide_model_new: bad coords %d", def->coords);
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
    m->lazy = def->lazy != 0;
    m->force_state = def->force_state != 0;
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
    double **rows = calloc((size_t)m->nsub, sizeof *rows);
    int *nrow = calloc((size_t)m->nsub, sizeof *nrow);
    int rc = JNT_OK;
    if (!m->sub || !m->iface || !m->node || !m->port || !m->contact_iface || !m->contact_node ||
        !m->G || !rows || !nrow) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (int s = 0; s < m->nsub && !rc; s++)
        rc = model_sub(m, s, &def->sub[s], def, err, errn);
    /* Room for the port rows of each substructure (at most two per node). */
    for (int i = 0; i < def->niface && !rc; i++) {
        const slide_iface *f = &def->iface[i];
        nrow[f->slave_sub] += 2 * f->nslave;
        if (f->master_sub >= 0)
            nrow[f->master_sub] += 2 * f->nmaster;
    }
    for (int s = 0; s < m->nsub && !rc; s++) {
        rows[s] = calloc((size_t)nrow[s] * (size_t)m->sub[s].n + 1, sizeof *rows[s]);
        nrow[s] = 0;
        if (!rows[s])
            rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
    }
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
            rc = model_node(m, nd++, f->slave_sub, &f->slave[k], rows, nrow, err, errn);
        }
        o->master0 = nd;
        for (int k = 0; k < f->nmaster && !rc; k++)
            rc = model_node(m, nd++, f->master_sub, &f->master[k], rows, nrow, err, errn);
        double len = 0;
        for (int k = 0; k + 1 < f->nmaster; k++)
            len += hypot(f->master[k + 1].X[0] - f->master[k].X[0],
                         f->master[k + 1].X[1] - f->master[k].X[1]);
        o->lseg = len / (f->nmaster - 1);
    }
    for (int s = 0; s < m->nsub && !rc; s++)
        if (m->sub[s].n > 0)
            rc = model_ports(m, s, rows[s], nrow[s], err, errn);
    if (rc)
        goto fail;
    /* Interface flexibilities G = R M^-1 R^T (ports of one substructure). */
    int np = m->nport;
    for (int q = 0; q < np; q++) {
        const slide_port *pq = &m->port[q];
        if (pq->kind == PORT_FIXED)
            continue;
        const slide_msub *b = &m->sub[pq->sub];
        const double *yq = b->Y + (size_t)b->n * pq->row;
        for (int p = 0; p < np; p++) {
            const slide_port *pp = &m->port[p];
            if (pp->kind != PORT_FIXED && pp->sub == pq->sub)
                m->G[p + (size_t)np * q] = csr_row_dot(&b->R, pp->row, yq);
        }
    }
    for (int s = 0; s < m->nsub; s++)
        free(rows[s]);
    free(rows);
    free(nrow);
    *out = m;
    return JNT_OK;
fail:
    for (int s = 0; rows && s < m->nsub; s++)
        free(rows[s]);
    free(rows);
    free(nrow);
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

/* See slide.h. */
int slide_model_modal(const slide_model *m, int s)
{
    return m && s >= 0 && s < m->nsub && m->sub[s].modal;
}

/* ---- data ---------------------------------------------------------------- */

/* See slide.h. */
void slide_data_free(slide_data *d)
{
    if (!d)
        return;
    struct slide_work *w = d->w;
    if (w) {
        double *dbl[] = {w->q, w->q_prev, w->q_pp, w->q_star, w->q_new, w->qv, w->qa, w->r, w->f,
                         w->cv, w->tmp, w->fport, w->xr_prev, w->xr_cur, w->xr_new,
                         w->vr_new, w->sslip, w->lamN, w->lamT, w->muv, w->chi_prev, w->cE,
                         w->W, w->rhs, w->lam, w->ralpha};
        free(w->zfin);
        for (size_t i = 0; i < sizeof dbl / sizeof dbl[0]; i++)
            free(dbl[i]);
        int *in[] = {w->fport_used, w->fport_list, w->cand, w->removed, w->ipiv, w->idx, w->map,
                     w->sub_done, w->nzcol};
        for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
            free(in[i]);
        for (int c = 0; c < SLIDE_NCONF; c++) {
            free(w->pval[c]);
            free(w->pgen[c]);
        }
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

/* Forget every cached port displacement. */
static void ports_forget(const slide_model *m, struct slide_work *w)
{
    for (int c = 0; c < SLIDE_NCONF; c++)
        for (int p = 0; p < m->nport; p++)
            w->pgen[c][p] = LONG_MIN;
    w->uncommitted = 0;
}

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
    ALLOC(w->q, N);
    ALLOC(w->q_prev, N);
    ALLOC(w->q_pp, N);
    ALLOC(w->q_star, N);
    ALLOC(w->q_new, N);
    ALLOC(w->qv, N);
    ALLOC(w->qa, N);
    ALLOC(w->r, N);
    ALLOC(w->f, N);
    ALLOC(w->cv, N);
    ALLOC(w->tmp, N);
    for (int c = 0; c < SLIDE_NCONF; c++) {
        ALLOC(w->pval[c], np);
        ALLOC(w->pgen[c], np);
    }
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
    ALLOC(w->zfin, ns);
    ALLOC(w->sub_done, ns);
    ALLOC(w->nzcol, N);
    ALLOC(w->rhs, 2 * nc);
    ALLOC(w->lam, 6 * nc);
    ALLOC(w->ipiv, 2 * nc);
    ALLOC(w->idx, 2 * nc);
    ALLOC(w->map, 3 * nc);
    if (!ok) {
        slide_data_free(d);
        return NULL;
    }
    ports_forget(m, w);
    for (int k = 0; k < nc; k++) {
        d->contact[k].iface = m->contact_iface[k];
        d->contact[k].slave = m->contact_node[k] - m->iface[m->contact_iface[k]].slave0;
        d->contact[k].seg = -1;
        w->geo[k].seg = -1;
    }
    return d;
}

/* x (n, the step's coordinates of substructure b) from a physical u: Phi^-1
 * u = Phi^T M u for modal coordinates (tmp: n values), else a copy. */
static void to_step_coords(const slide_msub *b, const double *u, double *tmp, double *x)
{
    int n = b->n;
    if (!b->modal) {
        memcpy(x, u, (size_t)n * sizeof *x);
        return;
    }
    memset(tmp, 0, (size_t)n * sizeof *tmp);
    slide_matvec(n, b->M, u, 1.0, tmp);
    memset(x, 0, (size_t)n * sizeof *x);
    slide_matvec(n, b->PhiT, tmp, 1.0, x);
}

/* u = Phi q, v = Phi qv, a = Phi qa (qa may be NULL: a untouched) in one
 * pass over Phi (n x n, column-major), four columns at a time. */
static void modal_sync(int n, const double *restrict Phi, const double *restrict q,
                       const double *restrict qv, const double *restrict qa, double *restrict u,
                       double *restrict v, double *restrict a)
{
    memset(u, 0, (size_t)n * sizeof *u);
    memset(v, 0, (size_t)n * sizeof *v);
    if (qa)
        memset(a, 0, (size_t)n * sizeof *a);
    int j = 0;
    for (; j + 4 <= n; j += 4) {
        const double *c0 = Phi + (size_t)n * j, *c1 = c0 + n, *c2 = c1 + n, *c3 = c2 + n;
        double q0 = q[j], q1 = q[j + 1], q2 = q[j + 2], q3 = q[j + 3];
        double v0 = qv[j], v1 = qv[j + 1], v2 = qv[j + 2], v3 = qv[j + 3];
        /* rows by two: see slide_matvec */
        int i = 0;
        if (qa) {
            double a0 = qa[j], a1 = qa[j + 1], a2 = qa[j + 2], a3 = qa[j + 3];
            for (; i + 2 <= n; i += 2) {
                u[i] += c0[i] * q0 + c1[i] * q1 + c2[i] * q2 + c3[i] * q3;
                u[i + 1] += c0[i + 1] * q0 + c1[i + 1] * q1 + c2[i + 1] * q2 + c3[i + 1] * q3;
                v[i] += c0[i] * v0 + c1[i] * v1 + c2[i] * v2 + c3[i] * v3;
                v[i + 1] += c0[i + 1] * v0 + c1[i + 1] * v1 + c2[i + 1] * v2 + c3[i + 1] * v3;
                a[i] += c0[i] * a0 + c1[i] * a1 + c2[i] * a2 + c3[i] * a3;
                a[i + 1] += c0[i + 1] * a0 + c1[i + 1] * a1 + c2[i + 1] * a2 + c3[i + 1] * a3;
            }
            for (; i < n; i++)
                a[i] += c0[i] * a0 + c1[i] * a1 + c2[i] * a2 + c3[i] * a3;
            i = n - (n % 2);
        } else {
            for (; i + 2 <= n; i += 2) {
                u[i] += c0[i] * q0 + c1[i] * q1 + c2[i] * q2 + c3[i] * q3;
                u[i + 1] += c0[i + 1] * q0 + c1[i + 1] * q1 + c2[i + 1] * q2 + c3[i + 1] * q3;
                v[i] += c0[i] * v0 + c1[i] * v1 + c2[i] * v2 + c3[i] * v3;
                v[i + 1] += c0[i + 1] * v0 + c1[i + 1] * v1 + c2[i + 1] * v2 + c3[i + 1] * v3;
            }
        }
        for (; i < n; i++) {
            u[i] += c0[i] * q0 + c1[i] * q1 + c2[i] * q2 + c3[i] * q3;
            v[i] += c0[i] * v0 + c1[i] * v1 + c2[i] * v2 + c3[i] * v3;
        }
    }
    for (; j < n; j++) {
        const double *c = Phi + (size_t)n * j;
        for (int i = 0; i < n; i++) {
            u[i] += c[i] * q[j];
            v[i] += c[i] * qv[j];
            if (qa)
                a[i] += c[i] * qa[j];
        }
    }
}

/* See slide_impl.h. */
void slide_sync_sub(const slide_model *m, slide_data *d, int s, int what)
{
    const slide_msub *b = &m->sub[s];
    const struct slide_work *w = d->w;
    int n = b->n, o = b->off;
    if (n <= 0)
        return;
    slide_rates(m, d, what ? 3 : 1);
    if (b->modal) {
        modal_sync(n, b->Phi, w->q + o, w->qv + o, what ? w->qa + o : NULL, d->u + o, d->v + o,
                   d->a + o);
        return;
    }
    memcpy(d->u + o, w->q + o, (size_t)n * sizeof *d->u);
    memcpy(d->v + o, w->qv + o, (size_t)n * sizeof *d->v);
    if (what)
        memcpy(d->a + o, w->qa + o, (size_t)n * sizeof *d->a);
}

/* See slide.h. */
void slide_sync(const slide_model *m, slide_data *d)
{
    if (!m || !d)
        return;
    for (int s = 0; s < m->nsub; s++)
        slide_sync_sub(m, d, s, 1);
}

/* See slide.h. */
int slide_init(const slide_model *m, slide_data *d, double t0, const double *u0,
               const double *v0)
{
    if (!m || !d)
        return JNT_ERR_USAGE;
    struct slide_work *w = d->w;
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
    w->qv_lazy = w->qa_lazy = 0;
    ports_forget(m, w);
    /* u0, v0 in the step's coordinates. */
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        int n = b->n, o = b->off;
        if (n <= 0)
            continue;
        for (int i = 0; i < n; i++) {
            d->u[o + i] = u0 ? u0[o + i] : 0;
            d->v[o + i] = v0 ? v0[o + i] : 0;
        }
        to_step_coords(b, d->u + o, w->tmp + o, w->q + o);
        to_step_coords(b, d->v + o, w->tmp + o, w->qv + o);
    }
    /* Contact-free a0, then u_-1 = u0 - h v0 + h^2/2 a0. */
    double *alp = w->ralpha;
    int rc = slide_forces(m, d, t0, alp);
    if (rc)
        return rc;
    double h = m->h;
    for (int s = 0; s < m->nsub; s++) {
        const slide_msub *b = &m->sub[s];
        int n = b->n, o = b->off;
        if (n <= 0)
            continue;
        double *a = w->qa + o;
        if (b->modal) {
            memcpy(a, w->r + o, (size_t)n * sizeof *a);
        } else {
            memset(a, 0, (size_t)n * sizeof *a);
            slide_matvec(n, b->Minv, w->r + o, 1.0, a);
        }
        for (int i = 0; i < n; i++) {
            a[i] -= alp[s] * w->qv[o + i];
            w->q_prev[o + i] = w->q[o + i] - h * w->qv[o + i] + 0.5 * h * h * a[i];
        }
    }
    for (int i = 0; i < m->N; i++)
        w->qv[i] = (w->q[i] - w->q_prev[i]) / h;
    slide_sync(m, d);
    slide_rigid_at(m, d, t0 - m->h, w->xr_prev, NULL);
    slide_rigid_at(m, d, t0, w->xr_cur, NULL);
    /* Segments on the geometry at t0; contacts start free. */
    slide_pview cur = {m, d, SLIDE_CUR};
    for (int k = 0; k < m->ncontact; k++) {
        slide_geometry(m, k, w->xr_cur, &cur, 1, 1, -1, &w->geo[k]);
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
    /* Energy at t_-1/2: v' M v / 2 + u_-1' K u0 / 2. */
    if (m->energy) {
        double e = 0;
        for (int s = 0; s < m->nsub; s++) {
            const slide_msub *b = &m->sub[s];
            int n = b->n, o = b->off;
            if (n <= 0)
                continue;
            if (b->modal) {
                for (int i = 0; i < n; i++)
                    e += 0.5 * (w->qv[o + i] * w->qv[o + i] +
                                b->w2[i] * w->q_prev[o + i] * w->q[o + i]);
                continue;
            }
            cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, b->M, n, w->qv + o, 1, 0.0, w->r + o,
                        1);
            e += 0.5 * cblas_ddot(n, w->qv + o, 1, w->r + o, 1);
            cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, b->K, n, w->q + o, 1, 0.0, w->r + o,
                        1);
            e += 0.5 * cblas_ddot(n, w->q_prev + o, 1, w->r + o, 1);
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

