/*
 * vtk_modes.c: the mode shapes of a model's `analysis NAME : modes(...)` as
 * VTK files (jnt_vtk_modes: the reduced substructure's normal modes,
 * Kr z = w^2 Mr z, expanded through its basis), and a scene's release
 * (jnt/scene.h; docs/seeing.md).
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/vtk_xml.h"
#include "jnt/scene.h"

/* dir/NAME_mode_K.vtu for the n modes z (r x n, column-major) of mesh ms
 * with circular frequencies w. */
static int write_modes(const jnt_scene_mesh *ms, const char *name, int n, const double *z,
                       const double *w, const char *dir, char *err, size_t errn)
{
    int nn = ms->nnode, r = ms->r, nc = ms->ncell, nen = ms->nen;
    size_t ld = 3 * (size_t)nn;
    double *u = malloc((ld + 1) * sizeof *u), *p = malloc((ld + 1) * sizeof *p);
    int64_t *conn = malloc(((size_t)nc * nen + 1) * sizeof *conn);
    int64_t *offs = malloc(((size_t)nc + 1) * sizeof *offs);
    unsigned char *ty = malloc((size_t)nc + 1);
    size_t ln = strlen(dir) + strlen(name) + 64;
    char *path = malloc(ln);
    int rc = u && p && conn && offs && ty && path ? JNT_OK : JNT_ERR_NOMEM;
    /* the mesh's size: the diagonal of its bounding box */
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < nn; i++)
        for (int c = 0; c < 3; c++)
            lo[c] = fmin(lo[c], ms->x[3 * i + c]), hi[c] = fmax(hi[c], ms->x[3 * i + c]);
    double size = 0;
    for (int c = 0; c < 3 && nn > 0; c++)
        size += (hi[c] - lo[c]) * (hi[c] - lo[c]);
    size = sqrt(size);
    if (rc == JNT_OK) {
        for (long k = 0; k < (long)nc * nen; k++)
            conn[k] = ms->conn[k];
        for (int c = 0; c < nc; c++)
            offs[c] = (int64_t)(c + 1) * nen, ty[c] = nen == 4 ? 9 : nen == 2 ? 3 : 1;
    }
    for (int k = 0; rc == JNT_OK && k < n; k++) {
        /* u = Phi z_k, scaled so its largest node moves a tenth of the size */
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)ld, r, 1.0, ms->phi, (int)ld,
                    z + (size_t)k * r, 1, 0.0, u, 1);
        double big = 0;
        for (int i = 0; i < nn; i++)
            big = fmax(big, sqrt(u[3 * i] * u[3 * i] + u[3 * i + 1] * u[3 * i + 1] +
                                 u[3 * i + 2] * u[3 * i + 2]));
        double f = big > 0 ? 0.1 * size / big : 0;
        for (size_t i = 0; i < ld; i++)
            u[i] *= f, p[i] = ms->x[i] + u[i];
        snprintf(path, ln, "%s/%s_mode_%d.vtu", dir, name, k + 1);
        jnt_outfile *o = NULL;
        if (jnt_outfile_open(path, NULL, &o, err, errn) != JNT_OK) {
            rc = JNT_ERR_IO;
            break;
        }
        vtk_file vf = {.f = jnt_outfile_stream(o)};
        vtkx_head(&vf, "UnstructuredGrid");
        double ev[3] = {0, w[k], w[k] / (2 * 3.14159265358979323846)};
        fprintf(vf.f, "<FieldData>\n");
        vtkx_field(&vf, "eigenvalue", 2, ev, 1);
        vtkx_field(&vf, "frequency_Hz", 1, ev + 2, 1);
        fprintf(vf.f, "</FieldData>\n");
        fprintf(vf.f, "<Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n<Points>\n", nn, nc);
        vtkx_arr(&vf, "Float64", "Points", 3, p, 24 * (uint64_t)nn);
        fprintf(vf.f, "</Points>\n<Cells>\n");
        vtkx_arr(&vf, "Int64", "connectivity", 1, conn, 8 * (uint64_t)nc * nen);
        vtkx_arr(&vf, "Int64", "offsets", 1, offs, 8 * (uint64_t)nc);
        vtkx_arr(&vf, "UInt8", "types", 1, ty, (uint64_t)nc);
        fprintf(vf.f, "</Cells>\n<PointData Vectors=\"displacement\">\n");
        vtkx_arr(&vf, "Float64", "displacement", 3, u, 24 * (uint64_t)nn);
        fprintf(vf.f, "</PointData>\n");
        vtkx_tail(&vf, "UnstructuredGrid");
        rc = jnt_outfile_commit(o, err, errn) == JNT_OK ? JNT_OK : JNT_ERR_IO;
    }
    free(u);
    free(p);
    free(conn);
    free(offs);
    free(ty);
    free(path);
    return rc;
}

/* See jnt/scene.h. */
int jnt_vtk_modes(const jnt_scene *s, const char *dir, char *err, size_t errn)
{
    if (!s || !dir)
        return JNT_ERR_USAGE;
    int rc = JNT_OK;
    for (int i = 0; rc == JNT_OK && i < s->nmodes; i++) {
        const jnt_scene_modes *md = &s->modes[i];
        const jnt_scene_mesh *ms = &s->mesh[md->mesh];
        int r = ms->r;
        size_t rr = (size_t)r * r;
        double *k = malloc((rr + 1) * sizeof *k), *m = malloc((rr + 1) * sizeof *m);
        double *w = malloc(((size_t)r + 1) * sizeof *w);
        if (!k || !m || !w) {
            rc = JNT_ERR_NOMEM;
        } else {
            memcpy(k, ms->kr, rr * sizeof *k);
            memcpy(m, ms->mr, rr * sizeof *m);
            /* Kr z = w^2 Mr z (LAPACK dsygv: ascending, z^T Mr z = 1) */
            lapack_int info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'V', 'U', r, k, r, m, r, w);
            if (info != 0) {
                snprintf(err, errn, "analysis '%s': the reduced eigenproblem failed (dsygv "
                                    "info %d)", md->name, (int)info);
                rc = JNT_ERR_SOLVER;
            } else {
                for (int q = 0; q < r; q++)
                    w[q] = sqrt(fmax(w[q], 0));
                rc = write_modes(ms, md->name, md->count, k, w, dir, err, errn);
            }
        }
        free(k);
        free(m);
        free(w);
    }
    return rc;
}

/* See jnt/scene.h. */
void jnt_scene_free(jnt_scene *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nbody; i++)
        free(s->body[i].name);
    for (int i = 0; i < s->nmarker; i++)
        free(s->marker[i].name);
    for (int i = 0; i < s->njoint; i++)
        free(s->joint[i].name);
    for (int i = 0; i < s->nmesh; i++) {
        free(s->mesh[i].name);
        free(s->mesh[i].x);
        free(s->mesh[i].phi);
        free(s->mesh[i].conn);
        free(s->mesh[i].mr);
        free(s->mesh[i].kr);
    }
    for (int i = 0; i < s->ncontact; i++)
        free(s->contact[i].name);
    for (int i = 0; i < s->nfric; i++)
        free(s->fric[i].name);
    free(s->body);
    free(s->marker);
    free(s->joint);
    free(s->mesh);
    free(s->contact);
    free(s->fric);
    for (int i = 0; i < s->nmodes; i++)
        free(s->modes[i].name);
    free(s->modes);
    for (int i = 0; i < s->nmcontact; i++)
        free(s->mcontact[i].name);
    free(s->mcontact);
    if (s->probe_free) {
        s->probe_free(s->probe_prog);
        s->probe_free(s->par_prog);
    }
    free(s->model);
    free(s);
}
