/*
 * slide_geom.c: the contact geometry of sliding interfaces (seed 003
 * eqs. 16-18): node positions from the reference coordinates, the rigid
 * frames and the port displacements, the master segment and alpha of a
 * slave, the normal and tangent, the gap and the coupling rows of eqs.
 * 20-21 on the ports.
 */
#include <math.h>

#include "slide_impl.h"

/* ---- geometry ------------------------------------------------------------ */

/* Port p of the vector x in the step's coordinates (0 when fixed). */
static double port_of(const slide_model *m, int p, const double *x)
{
    const slide_port *pt = &m->port[p];
    if (pt->kind == PORT_FIXED)
        return 0;
    const slide_msub *b = &m->sub[pt->sub];
    if (b->modal)
        return slide_dot(b->n, b->Psi + (size_t)b->n * pt->row, x + b->off);
    return csr_row_dot(&b->R, pt->row, x + b->off);
}

/* See slide_impl.h. */
double slide_port_at(const slide_model *m, slide_data *d, int which, int p)
{
    struct slide_work *w = d->w;
    /* the step number of the configuration: u_n-1, u_n, u_n+1 */
    long gen = d->step + (which == SLIDE_PREV ? -1 : which == SLIDE_CUR ? 0 : 1);
    if (w->pgen[which][p] == gen)
        return w->pval[which][p];
    double v;
    if (which == SLIDE_NEW) {
        /* u_n+1 = u* + h^2 M^-1 R^T F: the port forces of the corrector */
        double h2 = m->h * m->h;
        const double *g = m->G + p;
        v = slide_port_at(m, d, SLIDE_STAR, p);
        for (int k = 0; k < w->nfport; k++) {
            int q = w->fport_list[k];
            v += h2 * w->fport[q] * g[(size_t)m->nport * q];
        }
    } else {
        const double *x = which == SLIDE_PREV ? w->q_prev : which == SLIDE_CUR ? w->q : w->q_star;
        v = port_of(m, p, x);
    }
    w->pval[which][p] = v;
    w->pgen[which][p] = gen;
    return v;
}

/* The displacement of port p in the view (0 without one). */
static double pv_port(const slide_pview *pv, int p)
{
    return pv ? slide_pval(pv->m, pv->d, pv->which, p) : 0;
}

/* Position of node i: X + xr[sub] (+ its port displacements). */
static void node_pos(const slide_model *m, int i, const double *xr, const slide_pview *pv,
                     double x[2])
{
    const slide_mnode *nd = &m->node[i];
    x[0] = nd->X[0];
    x[1] = nd->X[1];
    if (nd->sub >= 0 && xr) {
        x[0] += xr[2 * nd->sub];
        x[1] += xr[2 * nd->sub + 1];
    }
    if (pv) {
        x[0] += pv_port(pv, 2 * i);
        x[1] += pv_port(pv, 2 * i + 1);
    }
}

/* Raw projection parameter of point c on segment k of interface f. */
static double project(const slide_model *m, const slide_miface *f, int k, const double *xr,
                      const slide_pview *ports, const double c[2])
{
    double a[2], b[2];
    node_pos(m, f->master0 + k, xr, ports, a);
    node_pos(m, f->master0 + k + 1, xr, ports, b);
    double dx = b[0] - a[0], dy = b[1] - a[1];
    return ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / (dx * dx + dy * dy);
}

/* See slide_impl.h. */
void slide_geometry(const slide_model *m, int k, const double *xr, const slide_pview *ports,
                    int def_alpha, int def_normal, int seg0, slide_geo *g)
{
    const slide_miface *f = &m->iface[m->contact_iface[k]];
    int ic = m->contact_node[k], nseg = f->nm - 1;
    const slide_pview *pa = def_alpha ? ports : NULL;
    double c[2];
    node_pos(m, ic, xr, pa, c);
    int seg;
    double al;
    if (seg0 < 0 || seg0 >= nseg) {
        /* Search: the segment of the nearest clamped projection. */
        double best = INFINITY;
        seg = 0;
        al = 0;
        for (int s = 0; s < nseg; s++) {
            double a = project(m, f, s, xr, pa, c), ac = fmin(fmax(a, 0.0), 1.0), p0[2], p1[2];
            node_pos(m, f->master0 + s, xr, pa, p0);
            node_pos(m, f->master0 + s + 1, xr, pa, p1);
            double dx = c[0] - ((1 - ac) * p0[0] + ac * p1[0]);
            double dy = c[1] - ((1 - ac) * p0[1] + ac * p1[1]);
            if (dx * dx + dy * dy < best)
                best = dx * dx + dy * dy, seg = s, al = a;
        }
    } else {
        /* Walk from the previous segment. */
        seg = seg0;
        al = project(m, f, seg, xr, pa, c);
        for (int it = 0; it < nseg; it++) {
            if (al > 1 && seg + 1 < nseg) {
                double a2 = project(m, f, seg + 1, xr, pa, c);
                if (a2 < 0) { /* a convex corner: the vertex */
                    al = 1;
                    break;
                }
                seg++, al = a2;
            } else if (al < 0 && seg > 0) {
                double a0 = project(m, f, seg - 1, xr, pa, c);
                if (a0 > 1) {
                    al = 0;
                    break;
                }
                seg--, al = a0;
            } else {
                break;
            }
        }
    }
    g->off = (al < 0 && seg == 0) || (al > 1 && seg == nseg - 1);
    al = fmin(fmax(al, 0.0), 1.0);
    g->seg = seg;
    g->alpha = al;
    /* Normal and tangent: of the displaced or the undeformed segment. */
    double p0[2], p1[2];
    node_pos(m, f->master0 + seg, xr, def_normal ? ports : NULL, p0);
    node_pos(m, f->master0 + seg + 1, xr, def_normal ? ports : NULL, p1);
    g->gamma = atan2(p1[1] - p0[1], p1[0] - p0[0]);
    g->t[0] = cos(g->gamma);
    g->t[1] = sin(g->gamma);
    g->n[0] = -g->t[1];
    g->n[1] = g->t[0];
    /* Gap with the displaced positions: n . (x_C - (1 - alpha) x_T1 - alpha x_T2),
     * summed by parts (reference, rigid, displacement): each is a small
     * difference of large coordinates, and a gap change of one step
     * (h^2 F / m) can be 1e-10 of them. */
    int t1 = f->master0 + seg, t2 = t1 + 1;
    double r[2];
    for (int dd = 0; dd < 2; dd++) {
        r[dd] = m->node[ic].X[dd] - ((1 - al) * m->node[t1].X[dd] + al * m->node[t2].X[dd]);
        if (xr)
            r[dd] += xr[2 * f->slave_sub + dd] -
                     (f->master_sub >= 0 ? xr[2 * f->master_sub + dd] : 0);
        if (ports)
            r[dd] += pv_port(ports, 2 * ic + dd) -
                     ((1 - al) * pv_port(ports, 2 * t1 + dd) + al * pv_port(ports, 2 * t2 + dd));
    }
    g->gap = g->n[0] * r[0] + g->n[1] * r[1];
    g->x[0] = c[0];
    g->x[1] = c[1];
    /* Rows on the ports (C x, C y, T1 x, T1 y, T2 x, T2 y). */
    int w[3] = {ic, t1, t2};
    double wt[3] = {1, -(1 - al), -al};
    for (int j = 0; j < 3; j++)
        for (int d = 0; d < 2; d++) {
            g->p[2 * j + d] = 2 * w[j] + d;
            g->cN[2 * j + d] = wt[j] * g->n[d];
            g->cT[2 * j + d] = wt[j] * g->t[d];
        }
}

/* See slide_impl.h. */
double slide_mu(const slide_model *m, int i, double t, double v, void *user)
{
    const slide_miface *f = &m->iface[i];
    return f->mu_fn ? f->mu_fn(t, i, fabs(v), user) : f->mu;
}

/* See slide_impl.h. */
double slide_g6(const slide_model *m, const int *pa, const double *ca, const int *pb,
                const double *cb)
{
    int np = m->nport;
    double s = 0;
    for (int b = 0; b < 6; b++) {
        if (cb[b] == 0)
            continue;
        const double *col = m->G + (size_t)np * pb[b];
        double t = 0;
        for (int a = 0; a < 6; a++)
            t += ca[a] * col[pa[a]];
        s += t * cb[b];
    }
    return s;
}

