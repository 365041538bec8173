/*
 * vtk_mark.c: where the scene's markers are at a state, for the VTK writer
 * (runtime/io/vtk.c): a rigid body's marker fixed in its frame, a flexible
 * body's node marker where its node is, deformed (jnt_scene_marker.mesh,
 * node: its undeformed place plus the basis rows of the node times the
 * reduced coordinates, in the body's frame); a body's frame at a state; a
 * clearance joint's bearing axis and contact point. The markers' places and
 * the races' radii and axes are the run's (jnt_vtk.mx, rho, cax: at its
 * parameters).
 */
#include <math.h>
#include <string.h>

#include "io/vtk_int.h"

/* See io/vtk_int.h. */
void vtk_frame_of(const jnt_vtk *w, int bi, const double *y, int vel, double r[3], double A[9],
                  double rv[3], double Av[9])
{
    const jnt_scene_body *b = &w->s->body[bi];
    int q = w->bq[bi];
    const double *yq = q >= 0 ? y + q : NULL;
    const double *yv = vel && q >= 0 && w->bv[bi] >= 0 ? y + w->bv[bi] : NULL;
    memset(A, 0, 9 * sizeof *A);
    memset(Av, 0, 9 * sizeof *Av);
    memset(r, 0, 3 * sizeof *r);
    memset(rv, 0, 3 * sizeof *rv);
    if (!yq) { /* not in the model's states: at the origin */
        A[0] = A[4] = A[8] = 1;
        return;
    }
    if (b->kind == JNT_BODY_RIGID3D || b->kind == JNT_BODY_FLEX3D) {
        for (int k = 0; k < 3; k++) {
            r[k] = yq[k];
            rv[k] = yv ? yv[k] : 0;
        }
        for (int k = 0; k < 9; k++) {
            A[k] = yq[3 + k];
            Av[k] = yv ? yv[3 + k] : 0;
        }
        return;
    }
    double th = yq[2], om = yv ? yv[2] : 0, c = cos(th), s = sin(th);
    r[0] = yq[0], r[1] = yq[1];
    rv[0] = yv ? yv[0] : 0, rv[1] = yv ? yv[1] : 0;
    A[0] = c, A[1] = s, A[3] = -s, A[4] = c, A[8] = 1;
    Av[0] = -s * om, Av[1] = c * om, Av[3] = -c * om, Av[4] = -s * om;
}

/* See io/vtk_int.h. */
void vtk_place(const double *r, const double A[9], const double x[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = (r ? r[i] : 0) + A[i] * x[0] + A[3 + i] * x[1] + A[6 + i] * x[2];
}

/* See io/vtk_int.h. */
void vtk_marker_at(const jnt_vtk *w, int k, const double *y, double pos[3], double vel[3])
{
    const jnt_scene *s = w->s;
    const jnt_scene_marker *mk = &s->marker[k];
    double x[3] = {w->mx[3 * k], w->mx[3 * k + 1], w->mx[3 * k + 2]}, ud[3] = {0, 0, 0};
    if (mk->mesh >= 0 && mk->mesh < s->nmesh) { /* X + Phi_node q, rate Phi_node q' */
        const jnt_scene_mesh *ms = &s->mesh[mk->mesh];
        size_t ld = 3 * (size_t)ms->nnode;
        const double *q = y + w->mq[mk->mesh], *qd = y + w->mv[mk->mesh];
        for (int c = 0; c < 3; c++) {
            const double *row = ms->phi + 3 * (size_t)mk->node + c;
            x[c] = ms->x[3 * mk->node + c];
            for (int j = 0; j < ms->r; j++)
                x[c] += row[j * ld] * q[j], ud[c] += row[j * ld] * qd[j];
        }
    }
    if (mk->body < 0) {
        memcpy(pos, x, sizeof x);
        if (vel)
            memset(vel, 0, 3 * sizeof *vel);
        return;
    }
    double r[3], A[9], rv[3], Av[9], a[3], b[3];
    vtk_frame_of(w, mk->body, y, vel != NULL, r, A, rv, Av);
    vtk_place(r, A, x, pos);
    if (vel) { /* v = r' + A' x + A u' */
        vtk_place(rv, Av, x, a);
        vtk_place(NULL, A, ud, b);
        for (int c = 0; c < 3; c++)
            vel[c] = a[c] + b[c];
    }
}

/* See io/vtk_int.h. */
void vtk_races(const jnt_vtk *w, const jnt_scene_mcontact *c, const double *y, const double a[3],
               const double b[3], double cp[3], double ax[3])
{
    double r[3], A[9], rv[3], Av[9], d[3], da = 0, len = 0;
    const double *rho = w->rho + 2 * (c - w->s->mcontact); /* this run's radii */
    if (c->axis_body >= 0) {
        vtk_frame_of(w, c->axis_body, y, 0, r, A, rv, Av);
        vtk_place(NULL, A, w->cax + 3 * (c - w->s->mcontact), ax);
    } else {
        memcpy(ax, w->cax + 3 * (c - w->s->mcontact), 3 * sizeof *ax);
    }
    for (int j = 0; j < 3; j++)
        d[j] = a[j] - b[j], da += d[j] * ax[j];
    for (int j = 0; j < 3; j++) /* across the axis */
        d[j] -= da * ax[j], len += d[j] * d[j];
    len = sqrt(len);
    for (int j = 0; j < 3; j++)
        cp[j] = rho[0] == 0 && rho[1] == 0 ? 0.5 * (a[j] + b[j])
                                           : b[j] + (len > 0 ? rho[1] * d[j] / len : 0);
}
