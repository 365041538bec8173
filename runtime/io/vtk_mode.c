/*
 * vtk_mode.c: what the mode-shape writers share (io/vtk_int.h;
 * runtime/analyse/vtk_linear.c, runtime/analyse/vtk_locus.c): the points'
 * derivative along a state direction, the turning and scaling of a shape,
 * and its .vtu file. Not part of the step loop.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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
