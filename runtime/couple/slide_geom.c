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

/* See slide_impl.h. */
double slide_port_value(const slide_model *m, int p, const double *u)
{
    const slide_port *pt = &m->port[p];
    if (pt->kind == PORT_FIXED)
        return 0;
    const slide_msub *s = &m->sub[pt->sub];
    if (pt->kind == PORT_DOF)
        return u[s->off + pt->dof];
    if (pt->nnz >= 0) {
        double v = 0;
        for (int j = 0; j < pt->nnz; j++)
            v += pt->val[j] * u[s->off + pt->idx[j]];
        return v;
    }
    return slide_dot(s->n, pt->row, u + s->off);
}

/* See slide_impl.h. */
void slide_ports_of(const slide_model *m, const double *u, double *pv)
{
    for (int p = 0; p < m->nport; p++)
        pv[p] = slide_port_value(m, p, u);
}

/* Position of node i: X + xr[sub] (+ its port displacements). */
static void node_pos(const slide_model *m, int i, const double *xr, const double *ports,
                     double x[2])
{
    const slide_mnode *nd = &m->node[i];
    x[0] = nd->X[0];
    x[1] = nd->X[1];
    if (nd->sub >= 0 && xr) {
        x[0] += xr[2 * nd->sub];
        x[1] += xr[2 * nd->sub + 1];
    }
    if (ports) {
        x[0] += ports[2 * i];
        x[1] += ports[2 * i + 1];
    }
}

/* Raw projection parameter of point c on segment k of interface f. */
static double project(const slide_model *m, const slide_miface *f, int k, const double *xr,
                      const double *ports, const double c[2])
{
    double a[2], b[2];
    node_pos(m, f->master0 + k, xr, ports, a);
    node_pos(m, f->master0 + k + 1, xr, ports, b);
    double dx = b[0] - a[0], dy = b[1] - a[1];
    return ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / (dx * dx + dy * dy);
}

/* See slide_impl.h. */
void slide_geometry(const slide_model *m, int k, const double *xr, const double *ports,
                    int def_alpha, int def_normal, int seg0, slide_geo *g)
{
    const slide_miface *f = &m->iface[m->contact_iface[k]];
    int ic = m->contact_node[k], nseg = f->nm - 1;
    const double *pa = def_alpha ? ports : NULL;
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
            r[dd] += ports[2 * ic + dd] -
                     ((1 - al) * ports[2 * t1 + dd] + al * ports[2 * t2 + dd]);
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

