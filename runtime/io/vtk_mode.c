/*
 * vtk_mode.c: what the mode-shape writers share (io/vtk_int.h;
 * runtime/analyse/vtk_linear.c, runtime/analyse/vtk_locus.c): their
 * scratch (the state, the scene's points and cells, one mode file), the
 * points' derivative along a state direction, the turning and scaling of
 * a shape, and its .vtu file. Not part of the step loop.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "io/outfile.h"
#include "io/vtk_int.h"
#include "io/vtk_xml.h"

#define FD_STEP 1e-4 /* the central difference's step, over the direction's largest entry */

/* See io/vtk_int.h. */
void vtk_mode_derivative(jnt_vtk *w, const double *y0, const double *v, int ny, double *yy,
                       double *pa, double *pb, double *D, long np)
{
    double big = 0;
    for (int i = 0; i < ny; i++)
        big = fmax(big, fabs(v[i]));
    if (!(big > 0)) {
        memset(D, 0, 3 * (size_t)np * sizeof *D);
        return;
    }
    double e = FD_STEP / big;
    for (int i = 0; i < ny; i++)
        yy[i] = y0[i] + e * v[i];
    vtk_points(w, yy, pa, NULL, NULL, NULL, NULL);
    for (int i = 0; i < ny; i++)
        yy[i] = y0[i] - e * v[i];
    vtk_points(w, yy, pb, NULL, NULL, NULL, NULL);
    for (long k = 0; k < 3 * np; k++)
        D[k] = (pa[k] - pb[k]) / (2 * e);
}

/* See io/vtk_int.h. */
int vtk_mode_write(const char *path, const vtk_mode_file *mf, int nfield,
                   const char *const *names, const int *ncomp, const double *vals, char *err,
                   size_t errn)
{
    long np = mf->np, nc = mf->nc;
    jnt_outfile *o = NULL;
    if (jnt_outfile_open(path, NULL, &o, err, errn) != JNT_OK)
        return JNT_ERR_IO;
    vtk_file vf = {.f = jnt_outfile_stream(o)};
    vtkx_head(&vf, "UnstructuredGrid");
    fprintf(vf.f, "<FieldData>\n");
    for (int i = 0; i < nfield; vals += ncomp[i++])
        vtkx_field(&vf, names[i], ncomp[i], vals, 1);
    fprintf(vf.f, "</FieldData>\n");
    fprintf(vf.f, "<Piece NumberOfPoints=\"%ld\" NumberOfCells=\"%ld\">\n<Points>\n", np, nc);
    vtkx_arr(&vf, "Float64", "Points", 3, mf->pts, 24 * (uint64_t)np);
    fprintf(vf.f, "</Points>\n<Cells>\n");
    vtkx_arr(&vf, "Int64", "connectivity", 1, mf->conn,
             8 * (uint64_t)(nc ? mf->offs[nc - 1] : 0));
    vtkx_arr(&vf, "Int64", "offsets", 1, mf->offs, 8 * (uint64_t)nc);
    vtkx_arr(&vf, "UInt8", "types", 1, mf->type, (uint64_t)nc);
    fprintf(vf.f, "</Cells>\n<PointData Vectors=\"displacement\" Scalars=\"amplitude\">\n");
    vtkx_arr(&vf, "Float64", "displacement", 3, mf->dr, 24 * (uint64_t)np);
    vtkx_arr(&vf, "Float64", "displacement_im", 3, mf->di, 24 * (uint64_t)np);
    vtkx_arr(&vf, "Float64", "amplitude", 1, mf->amp, 8 * (uint64_t)np);
    fprintf(vf.f, "</PointData>\n");
    vtkx_tail(&vf, "UnstructuredGrid");
    return jnt_outfile_commit(o, err, errn) == JNT_OK ? JNT_OK : JNT_ERR_IO;
}

/* See io/vtk_int.h. */
double vtk_scene_size(const double *x0, long np)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (long i = 0; i < np; i++)
        for (int c = 0; c < 3; c++)
            lo[c] = fmin(lo[c], x0[3 * i + c]), hi[c] = fmax(hi[c], x0[3 * i + c]);
    double size = 0;
    for (int c = 0; c < 3 && np > 0; c++)
        size += (hi[c] - lo[c]) * (hi[c] - lo[c]);
    return sqrt(size);
}

/* See io/vtk_int.h. */
int vtk_mode_scale(const vtk_mode_file *mf, const double *x0, double size)
{
    long np = mf->np;
    double *dr = mf->dr, *di = mf->di;
    /* turned: its largest component real and positive */
    long big = -1;
    double bmag = 0;
    for (long i = 0; i < 3 * np; i++)
        if (hypot(dr[i], di[i]) > bmag)
            bmag = hypot(dr[i], di[i]), big = i;
    if (big < 0)
        return 0;
    double cr = dr[big] / bmag, ci = -di[big] / bmag, amax = 0;
    for (long i = 0; i < 3 * np; i++) {
        double a = dr[i] * cr - di[i] * ci, b = dr[i] * ci + di[i] * cr;
        dr[i] = a, di[i] = b;
    }
    for (long i = 0; i < np; i++) {
        double a2 = 0;
        for (int c = 0; c < 3; c++)
            a2 += dr[3 * i + c] * dr[3 * i + c] + di[3 * i + c] * di[3 * i + c];
        mf->amp[i] = sqrt(a2);
        amax = fmax(amax, mf->amp[i]);
    }
    double f = amax > 0 ? 0.1 * size / amax : 0;
    for (long i = 0; i < 3 * np; i++)
        dr[i] *= f, di[i] *= f, mf->pts[i] = x0[i] + dr[i];
    for (long i = 0; i < np; i++)
        mf->amp[i] *= f;
    return 1;
}

/* See io/vtk_int.h. */
int vtk_mode_alloc(jnt_vtk *w, int ny, vtk_mode_buf *b)
{
    memset(b, 0, sizeof *b);
    const jnt_scene *s = vtk_scene(w);
    long nc = 0, np = vtk_points(w, NULL, NULL, NULL, NULL, NULL, &nc), nconn = 0;
    for (int i = 0; i < s->nmesh; i++)
        nconn += (long)s->mesh[i].ncell * s->mesh[i].nen;
    nconn += s->nbody + 2 * (long)s->nmarker;
    size_t nn = (size_t)ny + 1, p3 = 3 * (size_t)np + 1;
    vtk_mode_file *f = &b->f;
    f->np = np, f->nc = nc;
    b->y0 = malloc(nn * sizeof *b->y0), b->yy = malloc(nn * sizeof *b->yy);
    b->x0 = malloc(p3 * sizeof *b->x0), b->pa = malloc(p3 * sizeof *b->pa);
    b->pb = malloc(p3 * sizeof *b->pb), f->dr = malloc(p3 * sizeof *f->dr);
    f->di = malloc(p3 * sizeof *f->di), f->pts = malloc(p3 * sizeof *f->pts);
    f->amp = malloc(((size_t)np + 1) * sizeof *f->amp);
    f->conn = malloc(((size_t)nconn + 1) * sizeof *f->conn);
    f->offs = malloc(((size_t)nc + 1) * sizeof *f->offs);
    f->type = malloc((size_t)nc + 1);
    if (!b->y0 || !b->yy || !b->x0 || !b->pa || !b->pb || !f->dr || !f->di || !f->pts ||
        !f->amp || !f->conn || !f->offs || !f->type) {
        vtk_mode_free(b);
        return JNT_ERR_NOMEM;
    }
    return JNT_OK;
}

/* See io/vtk_int.h. */
void vtk_mode_free(vtk_mode_buf *b)
{
    double *p[] = {b->y0, b->yy, b->x0, b->pa, b->pb, b->f.dr, b->f.di, b->f.pts, b->f.amp};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
    free(b->f.conn), free(b->f.offs), free(b->f.type);
    memset(b, 0, sizeof *b);
}

/* See io/vtk_int.h. */
void vtk_mode_base(jnt_vtk *w, vtk_mode_buf *b)
{
    vtk_points(w, b->y0, b->x0, b->f.conn, b->f.offs, b->f.type, &b->f.nc);
}

/* See io/vtk_int.h. */
int vtk_mode_shape(jnt_vtk *w, vtk_mode_buf *b, const double *vre, const double *vim, int ny,
                   const double *x0, double size)
{
    long np = b->f.np;
    vtk_mode_derivative(w, b->y0, vre, ny, b->yy, b->pa, b->pb, b->f.dr, np);
    if (vim)
        vtk_mode_derivative(w, b->y0, vim, ny, b->yy, b->pa, b->pb, b->f.di, np);
    else
        memset(b->f.di, 0, 3 * (size_t)np * sizeof *b->f.di);
    return vtk_mode_scale(&b->f, x0, size);
}
