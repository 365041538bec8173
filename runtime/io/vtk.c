/*
 * vtk.c: a run as VTK XML files for ParaView (jnt/scene.h, docs/seeing.md).
 * The layout, which `jnt animate` reads too:
 *
 *   DIR/STEM.pvd                       the time collection (written at close)
 *   DIR/STEM_NNNNNN/STEM_NNNNNN.vtm    frame N, a vtkMultiBlockDataSet whose
 *                                      blocks are named
 *   DIR/STEM_NNNNNN/bodies.vtp         "bodies": the bodies' frames (points)
 *                                      with their axes, and lines to their markers
 *   DIR/STEM_NNNNNN/mesh_NAME.vtu      "mesh_NAME": a substructure's mesh, deformed
 *   DIR/STEM_NNNNNN/contacts.vtp       "contacts": contact elements with forces
 *   DIR/STEM_NNNNNN/joints.vtp         "joints": the joints with their reactions
 *
 * A folder per frame, its .vtm in it too, keeps each folder small: the
 * output routine reads its target's folder at every open (for its dead
 * writers' files), and a folder of 100 frames' blocks made a frame twice
 * as dear as a folder of its own; the .vtm files beside the folders made
 * that read grow with the frames, 1,000 entries a frame for 500 frames
 * (bench section 21). A frame's files are not checked against the model's
 * inputs one by one (the output routine resolves each existing path link
 * by link) when no input lies under DIR and the frame's folder is not a
 * link: none of them can be one.
 *
 * A block is written only when the model has something for it. Every
 * file goes through the one output routine (jnt_outfile_*), in VTK's XML
 * format with its arrays appended raw (little-endian Float64 and Int64,
 * UInt64 headers). A mesh's nodes are expanded from the reduced
 * coordinates here, u = Phi q and u' = Phi q' in one dgemm per mesh and
 * frame; generated code never sees a mesh.
 */
#define _DEFAULT_SOURCE /* mkdir */
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "io/vtk_int.h"
#include "io/vtk_xml.h"
#include "jnt/scene.h"

#define VTK_BUF (1 << 18) /* a frame's files in a few writes each (stdio's 4 kB: 13,000) */

/* Open path through the output routine, checked against inputs; NULL with
 * w->err set. */
static jnt_outfile *open_in(jnt_vtk *w, const char *path, const char *const *inputs)
{
    jnt_outfile *o = NULL;
    if (jnt_outfile_open(path, inputs, &o, w->err, sizeof w->err) != JNT_OK)
        return NULL;
    setvbuf(jnt_outfile_stream(o), w->buf, _IOFBF, VTK_BUF); /* one file open at a time */
    return o;
}

/* A file of the folder itself (.pvd, bases), against the model's inputs. */
static jnt_outfile *open_out(jnt_vtk *w, const char *path)
{
    return open_in(w, path, jnt_model_inputs(w->m));
}

/* A file of this frame's folder. */
static jnt_outfile *open_frame(jnt_vtk *w, const char *path)
{
    return open_in(w, path, w->frame_inputs);
}

static int commit(jnt_vtk *w, jnt_outfile *o)
{
    return jnt_outfile_commit(o, w->err, sizeof w->err) == JNT_OK ? JNT_OK : JNT_ERR_IO;
}

/* PolyData of n points with vertices at the first nv and nl lines (pairs in
 * conn from 2 nv on). Point arrays are added by the caller between
 * poly_open and poly_close. */
static void poly_open(jnt_vtk *w, vtk_file *vf, int n, int nv, int nl, int npoly)
{
    vtkx_head(vf, "PolyData");
    fprintf(vf->f, "<Piece NumberOfPoints=\"%d\" NumberOfVerts=\"%d\" NumberOfLines=\"%d\" "
                   "NumberOfStrips=\"0\" NumberOfPolys=\"%d\">\n<Points>\n", n, nv, nl, npoly);
    vtkx_arr(vf, "Float64", "Points", 3, w->pts, 24 * (uint64_t)n);
    fprintf(vf->f, "</Points>\n<Verts>\n");
    for (int i = 0; i < nv; i++)
        w->conn[i] = i, w->offs[i] = i + 1;
    vtkx_arr(vf, "Int64", "connectivity", 1, w->conn, 8 * (uint64_t)nv);
    vtkx_arr(vf, "Int64", "offsets", 1, w->offs, 8 * (uint64_t)nv);
    fprintf(vf->f, "</Verts>\n<Lines>\n");
    for (int i = 0; i < nl; i++)
        w->offs[nv + i] = 2 * (i + 1);
    vtkx_arr(vf, "Int64", "connectivity", 1, w->conn + nv, 16 * (uint64_t)nl);
    vtkx_arr(vf, "Int64", "offsets", 1, w->offs + nv, 8 * (uint64_t)nl);
    fprintf(vf->f, "</Lines>\n");
    if (npoly > 0) { /* the shapes' faces (write_bodies) */
        fprintf(vf->f, "<Polys>\n");
        vtkx_arr(vf, "Int64", "connectivity", 1, w->pconn, 8 * (uint64_t)w->poffs[npoly - 1]);
        vtkx_arr(vf, "Int64", "offsets", 1, w->poffs, 8 * (uint64_t)npoly);
        fprintf(vf->f, "</Polys>\n");
    }
    fprintf(vf->f, "<PointData>\n");
}

static void poly_close(vtk_file *vf)
{
    fprintf(vf->f, "</PointData>\n");
    vtkx_tail(vf, "PolyData");
}

/* bodies.vtp: one point per body (its frame's origin) with its axes and
 * velocity, then its markers, joined to it by lines. */
static int write_bodies(jnt_vtk *w, const char *path, const double *y)
{
    const jnt_scene *s = w->s;
    int n = s->nbody, nl = 0;
    for (int k = 0; k < s->nmarker; k++)
        if (s->marker[k].body >= 0)
            nl++;
    int np = n + nl;
    double r[3], A[9], rv[3], Av[9];
    for (int b = 0; b < n; b++) {
        vtk_frame_of(w, b, y, 1, r, A, rv, Av);
        for (int c = 0; c < 3; c++) {
            w->pts[3 * b + c] = r[c];
            w->v1[3 * b + c] = A[c];
            w->v2[3 * b + c] = A[3 + c];
            w->v3[3 * b + c] = A[6 + c];
            w->f4[3 * b + c] = rv[c];
        }
        w->f1[b] = b;
        w->f2[b] = s->body[b].shape;
        for (int c = 0; c < 3; c++)
            w->f3[3 * b + c] = w->bsize[3 * b + c];
    }
    int p = n;
    for (int k = 0; k < s->nmarker; k++) {
        const jnt_scene_marker *mk = &s->marker[k];
        if (mk->body < 0)
            continue;
        vtk_marker_at(w, k, y, w->pts + 3 * p, w->f4 + 3 * p);
        for (int c = 0; c < 3; c++)
            w->v1[3 * p + c] = w->v2[3 * p + c] = w->v3[3 * p + c] = w->f3[3 * p + c] = 0;
        w->f1[p] = mk->body;
        w->f2[p] = -1;
        w->conn[n + 2 * (p - n)] = mk->body;
        w->conn[n + 2 * (p - n) + 1] = p;
        p++;
    }
    /* the shapes' corners after the markers, their faces */
    int npoly = 0;
    long nconn = 0;
    for (int b = 0; b < n; b++) {
        jnt_scene_body sb_run = s->body[b], *sb = &sb_run; /* at this run's sizes */
        if (sb->shape == JNT_SHAPE_NONE)
            continue;
        memcpy(sb->size, w->bsize + 3 * b, sizeof sb->size);
        double x[3 * SHAPE_PTS], pr[3], pA[9], prv[3], pAv[9];
        int fn[SHAPE_SEG + 2], fc[SHAPE_CONN], ns, nf;
        int flat = sb->kind == JNT_BODY_RIGID2D || sb->kind == JNT_BODY_FLEX2D;
        vtk_shape(sb, flat, x, &ns, fn, fc, &nf);
        vtk_frame_of(w, b, y, 0, pr, pA, prv, pAv);
        for (int k = 0; k < ns; k++) {
            vtk_place(pr, pA, x + 3 * k, w->pts + 3 * (np + k));
            for (int c = 0; c < 3; c++)
                w->v1[3 * (np + k) + c] = w->v2[3 * (np + k) + c] = w->v3[3 * (np + k) + c] =
                    w->f4[3 * (np + k) + c] = w->f3[3 * (np + k) + c] = 0;
            w->f1[np + k] = b;
            w->f2[np + k] = sb->shape;
        }
        for (int f = 0, c = 0; f < nf; f++) {
            for (int k = 0; k < fn[f]; k++)
                w->pconn[nconn++] = np + fc[c++];
            w->poffs[npoly++] = nconn;
        }
        np += ns;
    }
    jnt_outfile *o = open_frame(w, path);
    if (!o)
        return JNT_ERR_IO;
    vtk_file vf = {.f = jnt_outfile_stream(o)};
    poly_open(w, &vf, np, n, nl, npoly);
    vtkx_arr(&vf, "Float64", "axis_x", 3, w->v1, 24 * (uint64_t)np);
    vtkx_arr(&vf, "Float64", "axis_y", 3, w->v2, 24 * (uint64_t)np);
    vtkx_arr(&vf, "Float64", "axis_z", 3, w->v3, 24 * (uint64_t)np);
    vtkx_arr(&vf, "Float64", "velocity", 3, w->f4, 24 * (uint64_t)np);
    vtkx_arr(&vf, "Float64", "body", 1, w->f1, 8 * (uint64_t)np);
    vtkx_arr(&vf, "Float64", "shape", 1, w->f2, 8 * (uint64_t)np);
    vtkx_arr(&vf, "Float64", "size", 3, w->f3, 24 * (uint64_t)np);
    poly_close(&vf);
    return commit(w, o);
}

/* Mesh ms's deformed nodes into w->pts, displacement (world axes) into v1,
 * velocity into v2: one dgemm of Phi by [q q'], then the frame. */
static void mesh_state(jnt_vtk *w, int mi, const double *y)
{
    const jnt_scene_mesh *ms = &w->s->mesh[mi];
    int n = ms->nnode, r = ms->r;
    size_t ld = 3 * (size_t)n;
    memcpy(w->qq, y + w->mq[mi], (size_t)r * sizeof *w->qq);
    memcpy(w->qq + r, y + w->mv[mi], (size_t)r * sizeof *w->qq);
    if (r > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)ld, 2, r, 1.0, ms->phi,
                    (int)ld, w->qq, r, 0.0, w->uu, (int)ld);
    else
        memset(w->uu, 0, 2 * ld * sizeof *w->uu);
    double r0[3] = {0, 0, 0}, A[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, rv[3] = {0, 0, 0}, Av[9] = {0};
    if (ms->body >= 0)
        vtk_frame_of(w, ms->body, y, 1, r0, A, rv, Av);
    for (int i = 0; i < n; i++) {
        const double *u = w->uu + 3 * i, *ud = w->uu + ld + 3 * i;
        double x[3] = {ms->x[3 * i] + u[0], ms->x[3 * i + 1] + u[1], ms->x[3 * i + 2] + u[2]};
        vtk_place(r0, A, x, w->pts + 3 * i);
        vtk_place(NULL, A, u, w->v1 + 3 * i);
        /* v = r' + A' (X + u) + A u' */
        double a[3], b[3];
        vtk_place(rv, Av, x, a);
        vtk_place(NULL, A, ud, b);
        for (int c = 0; c < 3; c++)
            w->v2[3 * i + c] = a[c] + b[c];
    }
    memcpy(w->mpos + w->mpos0[mi], w->pts, ld * sizeof *w->pts);
}

/* mesh_NAME.vtu: the mesh in its deformed position. */
static int write_mesh(jnt_vtk *w, int mi, const char *path, const double *y)
{
    const jnt_scene_mesh *ms = &w->s->mesh[mi];
    mesh_state(w, mi, y);
    int nc = ms->ncell, nen = ms->nen;
    int type = nen == 4 ? 9 : nen == 2 ? 3 : 1; /* VTK_QUAD, VTK_LINE, VTK_VERTEX */
    for (long k = 0; k < (long)nc * nen; k++)
        w->conn[k] = ms->conn[k];
    for (int c = 0; c < nc; c++)
        w->offs[c] = (int64_t)(c + 1) * nen, w->ctype[c] = type;
    jnt_outfile *o = open_frame(w, path);
    if (!o)
        return JNT_ERR_IO;
    vtk_file vf = {.f = jnt_outfile_stream(o)};
    vtkx_head(&vf, "UnstructuredGrid");
    fprintf(vf.f, "<Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n<Points>\n", ms->nnode, nc);
    vtkx_arr(&vf, "Float64", "Points", 3, w->pts, 24 * (uint64_t)ms->nnode);
    fprintf(vf.f, "</Points>\n<Cells>\n");
    vtkx_arr(&vf, "Int64", "connectivity", 1, w->conn, 8 * (uint64_t)nc * nen);
    vtkx_arr(&vf, "Int64", "offsets", 1, w->offs, 8 * (uint64_t)nc);
    /* types as Int64 would not read: VTK wants UInt8 */
    unsigned char *ty = (unsigned char *)w->ctype;
    for (int c = 0; c < nc; c++)
        ty[c] = (unsigned char)type;
    vtkx_arr(&vf, "UInt8", "types", 1, ty, (uint64_t)nc);
    fprintf(vf.f, "</Cells>\n<PointData Vectors=\"displacement\">\n");
    vtkx_arr(&vf, "Float64", "displacement", 3, w->v1, 24 * (uint64_t)ms->nnode);
    vtkx_arr(&vf, "Float64", "velocity", 3, w->v2, 24 * (uint64_t)ms->nnode);
    fprintf(vf.f, "</PointData>\n");
    vtkx_tail(&vf, "UnstructuredGrid");
    return commit(w, o);
}

/* See io/vtk_int.h. */
long vtk_points(jnt_vtk *w, const double *y, double *x, int64_t *conn, int64_t *offs,
                unsigned char *type, long *ncell)
{
    const jnt_scene *s = w->s;
    long np = 0, nc = 0, nk = 0;
    for (int i = 0; i < s->nmesh; i++) {
        const jnt_scene_mesh *ms = &s->mesh[i];
        if (x) {
            mesh_state(w, i, y);
            memcpy(x + 3 * np, w->pts, 3 * (size_t)ms->nnode * sizeof *x);
        }
        for (int c = 0; conn && c < ms->ncell; c++) {
            for (int k = 0; k < ms->nen; k++)
                conn[nk++] = np + ms->conn[(size_t)c * ms->nen + k];
            offs[nc + c] = nk;
            type[nc + c] = ms->nen == 4 ? 9 : ms->nen == 2 ? 3 : 1; /* quad, line, vertex */
        }
        np += ms->nnode, nc += ms->ncell;
    }
    double r[3], A[9], rv[3], Av[9];
    for (int b = 0; b < s->nbody; b++) { /* the body's point, a line to each marker */
        long pb = np;
        if (x) {
            vtk_frame_of(w, b, y, 0, r, A, rv, Av);
            memcpy(x + 3 * np, r, sizeof r);
        }
        if (conn)
            conn[nk++] = pb, offs[nc] = nk, type[nc] = 1;
        np++, nc++;
        for (int k = 0; k < s->nmarker; k++) {
            if (s->marker[k].body != b)
                continue;
            if (x)
                vtk_marker_at(w, k, y, x + 3 * np, NULL);
            if (conn)
                conn[nk++] = pb, conn[nk++] = np, offs[nc] = nk, type[nc] = 3;
            np++, nc++;
        }
    }
    if (ncell)
        *ncell = nc;
    return np;
}

/* A mesh node's deformed position in this frame (write_mesh's). */
static void node_pos(const jnt_vtk *w, int mi, int node, double out[3])
{
    memcpy(out, w->mpos + w->mpos0[mi] + 3 * (long)node, 3 * sizeof *out);
}

/* contacts.vtp: each contact element at the middle of its two nodes, with
 * the force on its second point (normal along its direction, plus its
 * friction element's), the gap u_b - u_a, the slip rate and the state
 * (0 open: no normal force; 1 stick: |slip rate| < 1 um/s; 2 slip). */
static int write_contacts(jnt_vtk *w, const char *path, double t, const double *y)
{
    const jnt_scene *s = w->s;
    const jnt_model *m = w->m;
    int nu = m->abi->nu, n = s->ncontact + s->nmcontact;
    const double *u = eval_gather(m, w->d, y);
    if (s->ncontact > 0 && eval_forces(m, w->d, t, y, w->ydot) != 0) {
        snprintf(w->err, sizeof w->err, "the model's kernel failed at t = %g s (VTK contacts)", t);
        return JNT_ERR_KERNEL;
    }
    const double *F = s->ncontact > 0 ? eval_point_forces(m, w->d) : NULL;
    /* the contacts between markers: their values are the scene's probes */
    if (s->nmcontact > 0 && s->probe(s->probe_prog, t, y, u, w->d->d, w->d->p, w->probe) != 0) {
        snprintf(w->err, sizeof w->err, "the scene's probes failed at t = %g s", t);
        return JNT_ERR_KERNEL;
    }
    for (int k = 0; k < s->nmcontact; k++) {
        const jnt_scene_mcontact *c = &s->mcontact[k];
        const double *pr = w->probe, *a = pr + c->xa, *b = pr + c->xb;
        int i = s->ncontact + k;
        double d[3], len = 0, fn = pr[c->force];
        for (int j = 0; j < 3; j++) {
            w->pts[3 * i + j] = 0.5 * (a[j] + b[j]);
            d[j] = a[j] - b[j], len += d[j] * d[j];
        }
        len = sqrt(len);
        /* the normal force along the line from the second marker to the first */
        for (int j = 0; j < 3; j++)
            w->v1[3 * i + j] = len > 0 ? fn * d[j] / len : 0;
        w->f1[i] = fn;
        w->f2[i] = c->ffric >= 0 ? pr[c->ffric] : 0;
        w->f3[i] = pr[c->gap];
        w->f4[i] = c->vfric >= 0 ? pr[c->vfric] : 0;
        w->v2[i] = fn <= 0 ? 0 : fabs(w->f4[i]) < 1e-6 ? 1 : 2;
        for (int j = 0; j < 3; j++)
            w->v3[3 * i + j] = a[j], w->v3[3 * n + 3 * i + j] = b[j];
        vtk_races(w, c, y, a, b, w->pts + 3 * n + 3 * i, w->v1 + 3 * n + 3 * i);
    }
    for (int k = 0; k < s->ncontact; k++) {
        const jnt_scene_contact *c = &s->contact[k];
        double pa[3] = {0, 0, 0}, pb[3] = {0, 0, 0};
        int have_a = c->mesh_a >= 0, have_b = c->mesh_b >= 0;
        if (have_a)
            node_pos(w, c->mesh_a, c->node_a, pa);
        if (have_b)
            node_pos(w, c->mesh_b, c->node_b, pb);
        for (int i = 0; i < 3; i++)
            w->pts[3 * k + i] = have_a && have_b ? 0.5 * (pa[i] + pb[i]) : have_a ? pa[i] : pb[i];
        double fn = c->gb >= 0 ? F[c->gb] : -F[c->ga];
        double gap = (c->gb >= 0 ? u[c->gb] : 0) - (c->ga >= 0 ? u[c->ga] : 0);
        double ft = 0, slip = 0;
        int tc = -1;
        if (c->friction >= 0) {
            const jnt_scene_friction *f = &s->fric[c->friction];
            ft = f->gb >= 0 ? F[f->gb] : -F[f->ga];
            slip = (f->gb >= 0 ? u[nu + f->gb] : 0) - (f->ga >= 0 ? u[nu + f->ga] : 0);
            tc = f->comp;
        }
        /* the force vector in the mesh's axes, then turned with its frame */
        double fl[3] = {0, 0, 0}, A[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, r0[3], rv[3], Av[9];
        if (c->comp >= 0 && c->comp < 3)
            fl[c->comp] += fn;
        if (tc >= 0 && tc < 3)
            fl[tc] += ft;
        int mi = have_b ? c->mesh_b : c->mesh_a;
        if (s->mesh[mi].body >= 0)
            vtk_frame_of(w, s->mesh[mi].body, y, 0, r0, A, rv, Av);
        vtk_place(NULL, A, fl, w->v1 + 3 * k);
        w->f1[k] = fn;
        w->f2[k] = ft;
        w->f3[k] = gap;
        w->f4[k] = slip;
        w->v2[k] = fn <= 0 ? 0 : fabs(slip) < 1e-6 ? 1 : 2;
    }
    jnt_outfile *o = open_frame(w, path);
    if (!o)
        return JNT_ERR_IO;
    vtk_file vf = {.f = jnt_outfile_stream(o)};
    poly_open(w, &vf, n, n, 0, 0);
    vtkx_arr(&vf, "Float64", "force", 3, w->v1, 24 * (uint64_t)n);
    vtkx_arr(&vf, "Float64", "normal_force", 1, w->f1, 8 * (uint64_t)n);
    vtkx_arr(&vf, "Float64", "friction_force", 1, w->f2, 8 * (uint64_t)n);
    vtkx_arr(&vf, "Float64", "gap", 1, w->f3, 8 * (uint64_t)n);
    vtkx_arr(&vf, "Float64", "slip_rate", 1, w->f4, 8 * (uint64_t)n);
    vtkx_arr(&vf, "Float64", "state", 1, w->v2, 8 * (uint64_t)n);
    if (s->nmcontact > 0) { /* the markers of the contacts between markers (0 for the others) */
        for (int k = 0; k < s->ncontact; k++)
            for (int j = 0; j < 3; j++) {
                w->v3[3 * k + j] = w->v3[3 * n + 3 * k + j] = w->v1[3 * n + 3 * k + j] = 0;
                w->pts[3 * n + 3 * k + j] = w->pts[3 * k + j];
            }
        vtkx_arr(&vf, "Float64", "marker_a", 3, w->v3, 24 * (uint64_t)n);
        vtkx_arr(&vf, "Float64", "marker_b", 3, w->v3 + 3 * n, 24 * (uint64_t)n);
        vtkx_arr(&vf, "Float64", "contact_point", 3, w->pts + 3 * n, 24 * (uint64_t)n);
        vtkx_arr(&vf, "Float64", "bearing_axis", 3, w->v1 + 3 * n, 24 * (uint64_t)n);
    }
    poly_close(&vf);
    return commit(w, o);
}

/* joints.vtp: each joint at its first marker, its axis (world), the force
 * on the first marker's body from its position rows (-lambda) and its
 * multipliers (up to 6). */
static int write_joints(jnt_vtk *w, const char *path, const double *y)
{
    const jnt_scene *s = w->s;
    int n = s->njoint;
    double r[3], A[9], rv[3], Av[9];
    for (int k = 0; k < n; k++) {
        const jnt_scene_joint *j = &s->joint[k];
        vtk_marker_at(w, j->a, y, w->pts + 3 * k, NULL);
        for (int e = 0; e < 2; e++) { /* the axis in b's frame, a universal's in a's */
            int bo = s->marker[e ? j->a : j->b].body;
            double E[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
            if (bo >= 0)
                vtk_frame_of(w, bo, y, 0, r, A, rv, Av);
            vtk_place(NULL, bo >= 0 ? A : E, w->jax + 6 * k + 3 * e, (e ? w->v3 : w->v1) + 3 * k);
        }
        for (int c = 0; c < 3; c++)
            w->v2[3 * k + c] = c < j->npos && c < w->jn[k] ? -y[w->jl[k] + c] : 0;
        for (int c = 0; c < 6; c++)
            w->f3[6 * k + c] = c < w->jn[k] ? y[w->jl[k] + c] : 0;
    }
    jnt_outfile *o = open_frame(w, path);
    if (!o)
        return JNT_ERR_IO;
    vtk_file vf = {.f = jnt_outfile_stream(o)};
    poly_open(w, &vf, n, n, 0, 0);
    vtkx_arr(&vf, "Float64", "axis", 3, w->v1, 24 * (uint64_t)n);
    vtkx_arr(&vf, "Float64", "axis_a", 3, w->v3, 24 * (uint64_t)n);
    vtkx_arr(&vf, "Float64", "reaction", 3, w->v2, 24 * (uint64_t)n);
    vtkx_arr(&vf, "Float64", "lambda", 6, w->f3, 48 * (uint64_t)n);
    poly_close(&vf);
    return commit(w, o);
}

/* The scene's values that read parameters at the run's (d's) parameters:
 * the markers' places, the shapes' sizes, the joints' axes and the races'
 * radii and axes into w->mx, bsize, jax, rho, cax (the scene's, at the
 * defaults, where they read none). */
static void vtk_params(jnt_vtk *w)
{
    const jnt_scene *s = w->s;
    if (s->npar > 0)
        s->probe(s->par_prog, 0, NULL, NULL, NULL, w->d->p, w->par);
    for (int k = 0; k < s->nmarker; k++)
        for (int c = 0; c < 3; c++)
            w->mx[3 * k + c] = s->marker[k].xp >= 0 ? w->par[s->marker[k].xp + c]
                                                     : s->marker[k].x[c];
    for (int b = 0; b < s->nbody; b++)
        for (int c = 0; c < 3; c++)
            w->bsize[3 * b + c] = s->body[b].sizep >= 0 ? w->par[s->body[b].sizep + c]
                                                        : s->body[b].size[c];
    for (int k = 0; k < s->njoint; k++)
        for (int c = 0; c < 6; c++)
            w->jax[6 * k + c] = s->joint[k].axisp >= 0 ? w->par[s->joint[k].axisp + c]
                                : c < 3 ? s->joint[k].axis[c] : s->joint[k].axis_a[c - 3];
    for (int k = 0; k < s->nmcontact; k++) {
        const jnt_scene_mcontact *c = &s->mcontact[k];
        w->rho[2 * k] = c->rhop >= 0 ? w->par[c->rhop] : c->rho_a;
        w->rho[2 * k + 1] = c->rhop >= 0 ? w->par[c->rhop + 1] : c->rho_b;
        for (int j = 0; j < 3; j++)
            w->cax[3 * k + j] = c->axisp >= 0 ? w->par[c->axisp + j] : c->axis[j];
    }
}

/* See jnt/scene.h. */
int jnt_vtk_frame(jnt_vtk *w, double t, const double *y)
{
    if (!w || !y)
        return JNT_ERR_USAGE;
    const jnt_scene *s = w->s;
    vtk_params(w); /* the parameters may have changed since the last frame */
    size_t ln = strlen(w->dir) + 2 * strlen(w->stem) + 64;
    for (int i = 0; i < s->nmesh; i++)
        if (ln < strlen(w->dir) + 2 * strlen(w->stem) + strlen(s->mesh[i].name) + 64)
            ln = strlen(w->dir) + 2 * strlen(w->stem) + strlen(s->mesh[i].name) + 64;
    char *path = malloc(ln), *sub = malloc(ln);
    if (!path || !sub) {
        free(path);
        free(sub);
        return JNT_ERR_NOMEM;
    }
    long fr = w->nframe;
    snprintf(sub, ln, "%s/%s_%06ld", w->dir, w->stem, fr);
    int rc = JNT_OK;
    struct stat st;
    if (mkdir(sub, 0777) != 0 && errno != EEXIST) {
        snprintf(w->err, sizeof w->err, "cannot create the folder '%s': %s", sub, strerror(errno));
        rc = JNT_ERR_IO;
    }
    /* the inputs need no check in a folder of ours under one that holds none */
    w->frame_inputs = w->inputs_here || lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode)
                          ? jnt_model_inputs(w->m) : NULL;
    /* the blocks, then the .vtm naming them */
    const char *blk[4] = {NULL, NULL, NULL, NULL};
    if (rc == JNT_OK && s->nbody > 0) {
        snprintf(path, ln, "%s/bodies.vtp", sub);
        rc = write_bodies(w, path, y);
        blk[0] = "bodies";
    }
    for (int i = 0; rc == JNT_OK && i < s->nmesh; i++) {
        snprintf(path, ln, "%s/mesh_%s.vtu", sub, s->mesh[i].name);
        rc = write_mesh(w, i, path, y);
    }
    if (rc == JNT_OK && s->ncontact + s->nmcontact > 0) {
        snprintf(path, ln, "%s/contacts.vtp", sub);
        rc = write_contacts(w, path, t, y);
        blk[1] = "contacts";
    }
    if (rc == JNT_OK && s->njoint > 0) {
        snprintf(path, ln, "%s/joints.vtp", sub);
        rc = write_joints(w, path, y);
        blk[2] = "joints";
    }
    jnt_outfile *o = NULL;
    if (rc == JNT_OK) {
        snprintf(path, ln, "%s/%s_%06ld.vtm", sub, w->stem, fr);
        o = open_frame(w, path);
        rc = o ? JNT_OK : JNT_ERR_IO;
    }
    if (rc == JNT_OK) {
        FILE *f = jnt_outfile_stream(o);
        fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"vtkMultiBlockDataSet\" "
                   "version=\"1.0\" byte_order=\"LittleEndian\">\n<vtkMultiBlockDataSet>\n");
        int idx = 0;
        if (blk[0])
            fprintf(f, "<DataSet index=\"%d\" name=\"bodies\" file=\"bodies.vtp\"/>\n", idx++);
        for (int i = 0; i < s->nmesh; i++)
            fprintf(f, "<DataSet index=\"%d\" name=\"mesh_%s\" file=\"mesh_%s.vtu\"/>\n", idx++,
                    s->mesh[i].name, s->mesh[i].name);
        if (blk[1])
            fprintf(f, "<DataSet index=\"%d\" name=\"contacts\" file=\"contacts.vtp\"/>\n", idx++);
        if (blk[2])
            fprintf(f, "<DataSet index=\"%d\" name=\"joints\" file=\"joints.vtp\"/>\n", idx++);
        fprintf(f, "</vtkMultiBlockDataSet>\n<FieldData>\n<DataArray type=\"Float64\" "
                   "Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">%.17g</DataArray>\n"
                   "</FieldData>\n</VTKFile>\n", t);
        rc = commit(w, o);
    }
    free(path);
    free(sub);
    if (rc != JNT_OK)
        return rc;
    if (w->nframe == w->cap) { /* the estimate at open was short */
        double *tt = realloc(w->times, (size_t)(2 * w->cap) * sizeof *tt);
        if (!tt)
            return JNT_ERR_NOMEM;
        w->times = tt, w->cap *= 2;
    }
    w->times[w->nframe++] = t;
    return JNT_OK;
}

/* DIR/STEM_basis_NAME.vtu: mesh mi undeformed, each column k of its basis
 * as the point vectors phi_K (in the mesh's axes), for checking a frame
 * against the reduced coordinates of the CSV. */
static int write_basis(jnt_vtk *w, int mi)
{
    const jnt_scene_mesh *ms = &w->s->mesh[mi];
    if (ms->r + 8 > VTK_MAX_ARR)
        return JNT_OK; /* too many columns to be of use */
    int nc = ms->ncell, nen = ms->nen;
    for (long k = 0; k < (long)nc * nen; k++)
        w->conn[k] = ms->conn[k];
    unsigned char *ty = (unsigned char *)w->ctype;
    for (int c = 0; c < nc; c++)
        w->offs[c] = (int64_t)(c + 1) * nen, ty[c] = nen == 4 ? 9 : nen == 2 ? 3 : 1;
    size_t ln = strlen(w->dir) + strlen(w->stem) + strlen(ms->name) + 32;
    char *path = malloc(ln), nm[32];
    if (!path)
        return JNT_ERR_NOMEM;
    snprintf(path, ln, "%s/%s_basis_%s.vtu", w->dir, w->stem, ms->name);
    jnt_outfile *o = open_out(w, path);
    free(path);
    if (!o)
        return JNT_ERR_IO;
    vtk_file vf = {.f = jnt_outfile_stream(o)};
    size_t ld = 3 * (size_t)ms->nnode;
    vtkx_head(&vf, "UnstructuredGrid");
    fprintf(vf.f, "<Piece NumberOfPoints=\"%d\" NumberOfCells=\"%d\">\n<Points>\n", ms->nnode, nc);
    vtkx_arr(&vf, "Float64", "Points", 3, ms->x, 8 * (uint64_t)ld);
    fprintf(vf.f, "</Points>\n<Cells>\n");
    vtkx_arr(&vf, "Int64", "connectivity", 1, w->conn, 8 * (uint64_t)nc * nen);
    vtkx_arr(&vf, "Int64", "offsets", 1, w->offs, 8 * (uint64_t)nc);
    vtkx_arr(&vf, "UInt8", "types", 1, ty, (uint64_t)nc);
    fprintf(vf.f, "</Cells>\n<PointData>\n");
    for (int k = 0; k < ms->r; k++) {
        snprintf(nm, sizeof nm, "phi_%d", k + 1);
        vtkx_arr(&vf, "Float64", nm, 3, ms->phi + (size_t)k * ld, 8 * (uint64_t)ld);
    }
    fprintf(vf.f, "</PointData>\n");
    vtkx_tail(&vf, "UnstructuredGrid");
    return commit(w, o);
}

/* See jnt/scene.h. */
int jnt_vtk_on_row(void *ctx, const double *row, int n)
{
    jnt_vtk *w = ctx;
    const double *y = eval_last_y(w->m, w->d);
    if (!y || n < 1) {
        snprintf(w->err, sizeof w->err, "no state for the VTK frame at row %ld", w->nframe);
        return 1;
    }
    return jnt_vtk_frame(w, row[0], y) != JNT_OK;
}

/* See jnt/scene.h. */
const char *jnt_vtk_error(const jnt_vtk *w)
{
    return w ? w->err : "";
}

/* See io/vtk_int.h. */
const jnt_scene *vtk_scene(const jnt_vtk *w)
{
    return w->s;
}

/* See io/vtk_int.h. */
const jnt_model *vtk_model(const jnt_vtk *w)
{
    return w->m;
}

/* See io/vtk_int.h. */
const char *vtk_dir(const jnt_vtk *w)
{
    return w->dir;
}

/* The index of state "A.B" (B may be NULL: "A"), or -1. */
static int state_of(const jnt_model *m, const char *a, const char *b)
{
    char nm[512];
    snprintf(nm, sizeof nm, "%s%s%s", a, b ? "." : "", b ? b : "");
    return jnt_state_index(m, nm);
}

/* The scene's states in the model, by name (w->bq ...). JNT_OK, or
 * JNT_ERR_NOMEM / JNT_ERR_MODEL (a mesh without its coordinates) with
 * the message in w->err. */
static int resolve(jnt_vtk *w)
{
    const jnt_scene *s = w->s;
    const jnt_model *m = w->m;
    w->bq = malloc(((size_t)s->nbody + 1) * sizeof *w->bq);
    w->bv = malloc(((size_t)s->nbody + 1) * sizeof *w->bv);
    w->mq = malloc(((size_t)s->nmesh + 1) * sizeof *w->mq);
    w->mv = malloc(((size_t)s->nmesh + 1) * sizeof *w->mv);
    w->jl = malloc(((size_t)s->njoint + 1) * sizeof *w->jl);
    w->jn = malloc(((size_t)s->njoint + 1) * sizeof *w->jn);
    if (!w->bq || !w->bv || !w->mq || !w->mv || !w->jl || !w->jn)
        return JNT_ERR_NOMEM;
    for (int b = 0; b < s->nbody; b++) {
        w->bq[b] = state_of(m, s->body[b].name, "x");
        w->bv[b] = state_of(m, s->body[b].name, "x.v");
    }
    for (int i = 0; i < s->nmesh; i++) {
        w->mq[i] = state_of(m, s->mesh[i].name, "q1");
        w->mv[i] = state_of(m, s->mesh[i].name, "qd1");
        if (s->mesh[i].r > 0 && (w->mq[i] < 0 || w->mv[i] < 0)) {
            snprintf(w->err, sizeof w->err, "the model has no state '%s.q1' for its mesh",
                     s->mesh[i].name);
            return JNT_ERR_MODEL;
        }
        if (s->mesh[i].r == 0)
            w->mq[i] = w->mv[i] = 0;
    }
    int ny = m->abi->ny; /* the continuous states (jnt_state_name's first ny) */
    for (int k = 0; k < s->njoint; k++) {
        size_t l = strlen(s->joint[k].name);
        w->jl[k] = -1, w->jn[k] = 0;
        for (int i = 0; i < ny; i++) {
            const char *nm = m->abi->y_names[i];
            int is = nm && !strncmp(nm, s->joint[k].name, l) && !strncmp(nm + l, ".lambda", 7);
            if (is && w->jl[k] < 0)
                w->jl[k] = i;
            if (is)
                w->jn[k]++;
            else if (w->jl[k] >= 0)
                break;
        }
    }
    return JNT_OK;
}

static void vtk_free(jnt_vtk *w)
{
    free(w->dir), free(w->stem), free(w->times), free(w->pts), free(w->v1), free(w->v2);
    free(w->v3), free(w->f1), free(w->f2), free(w->f3), free(w->f4), free(w->conn);
    free(w->offs), free(w->ctype), free(w->qq), free(w->uu), free(w->ydot), free(w->mpos);
    free(w->mpos0), free(w->pconn), free(w->poffs), free(w->probe), free(w->buf);
    free(w->par), free(w->mx), free(w->bsize), free(w->jax), free(w->rho), free(w->cax);
    free(w->bq), free(w->bv), free(w->mq), free(w->mv), free(w->jl), free(w->jn);
    free(w);
}

/* See jnt/scene.h. */
int jnt_vtk_open(const jnt_scene *s, const jnt_model *m, jnt_data *d, const char *dir,
                 const char *stem, jnt_vtk **out, char *err, size_t errn)
{
    if (out)
        *out = NULL;
    if (!s || !m || !d || !dir || !stem || !out) {
        if (err && errn)
            snprintf(err, errn, "jnt_vtk_open: an argument is NULL");
        return JNT_ERR_USAGE;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        if (err && errn)
            snprintf(err, errn, "cannot create the folder '%s': %s", dir, strerror(errno));
        return JNT_ERR_IO;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (err && errn)
            snprintf(err, errn, "'%s' is not a folder", dir);
        return JNT_ERR_IO;
    }
    jnt_vtk *w = calloc(1, sizeof *w);
    if (!w)
        return JNT_ERR_NOMEM;
    w->s = s, w->m = m, w->d = d;
    w->dir = strdup(dir);
    w->stem = strdup(stem);
    /* scratch for the largest block: points, cells, vectors */
    size_t np = (size_t)s->nbody * (1 + SHAPE_PTS) + (size_t)s->nmarker +
                2 * ((size_t)s->ncontact + (size_t)s->nmcontact) + (size_t)s->njoint + 1;
    size_t nc = np, r = 1;
    for (int i = 0; i < s->nmesh; i++) {
        if ((size_t)s->mesh[i].nnode > np)
            np = (size_t)s->mesh[i].nnode;
        if ((size_t)s->mesh[i].ncell * (size_t)s->mesh[i].nen > nc)
            nc = (size_t)s->mesh[i].ncell * (size_t)s->mesh[i].nen;
        if ((size_t)s->mesh[i].r > r)
            r = (size_t)s->mesh[i].r;
    }
    nc += 2 * np;
    w->pts = malloc(3 * np * sizeof *w->pts);
    w->v1 = malloc(3 * np * sizeof *w->v1);
    w->v2 = malloc(3 * np * sizeof *w->v2);
    w->v3 = malloc(3 * np * sizeof *w->v3);
    w->f1 = malloc(np * sizeof *w->f1);
    w->f2 = malloc(np * sizeof *w->f2);
    w->f3 = malloc(6 * np * sizeof *w->f3);
    w->f4 = malloc(3 * np * sizeof *w->f4);
    w->conn = malloc(nc * sizeof *w->conn);
    w->offs = malloc(nc * sizeof *w->offs);
    w->ctype = malloc(nc * sizeof *w->ctype);
    w->qq = malloc(2 * r * sizeof *w->qq);
    w->uu = malloc(6 * np * sizeof *w->uu);
    w->ydot = malloc(((size_t)m->abi->ny + 1) * sizeof *w->ydot);
    w->pconn = malloc(((size_t)s->nbody * SHAPE_CONN + 1) * sizeof *w->pconn);
    w->poffs = malloc(((size_t)s->nbody * (SHAPE_SEG + 2) + 1) * sizeof *w->poffs);
    w->mpos0 = malloc(((size_t)s->nmesh + 1) * sizeof *w->mpos0);
    size_t nall = 0;
    for (int i = 0; w->mpos0 && i < s->nmesh; i++)
        w->mpos0[i] = (long)nall, nall += 3 * (size_t)s->mesh[i].nnode;
    w->mpos = malloc((nall + 1) * sizeof *w->mpos);
    w->probe = malloc(((size_t)s->nprobe + 1) * sizeof *w->probe);
    w->par = malloc(((size_t)s->npar + 1) * sizeof *w->par);
    w->mx = malloc((3 * (size_t)s->nmarker + 1) * sizeof *w->mx);
    w->bsize = malloc((3 * (size_t)s->nbody + 1) * sizeof *w->bsize);
    w->rho = malloc((2 * (size_t)s->nmcontact + 1) * sizeof *w->rho);
    w->jax = malloc((6 * (size_t)s->njoint + 1) * sizeof *w->jax);
    w->cax = malloc((3 * (size_t)s->nmcontact + 1) * sizeof *w->cax);
    w->buf = malloc(VTK_BUF);
    /* does an input lie under the folder (its real path)? */
    char *rdir = realpath(dir, NULL);
    const char *const *in = jnt_model_inputs(m);
    w->inputs_here = !rdir;
    for (size_t n = rdir ? strlen(rdir) : 0; rdir && in && *in; in++)
        if (!strncmp(*in, rdir, n) && ((*in)[n] == '/' || n == 1))
            w->inputs_here = 1;
    free(rdir);
    if (s->nprobe > 0 && (s->probe_ny != m->abi->ny || s->probe_nd != m->abi->nd ||
                          s->probe_nu != m->abi->nu)) {
        if (err && errn)
            snprintf(err, errn, "the model's description (%d, %d, %d states, discrete states "
                     "and points) does not match the model run (%d, %d, %d)", s->probe_ny,
                     s->probe_nd, s->probe_nu, m->abi->ny, m->abi->nd, m->abi->nu);
        vtk_free(w);
        return JNT_ERR_MODEL;
    }
    if (s->npar > 0 && s->par_np != m->abi->np) {
        if (err && errn)
            snprintf(err, errn, "the model's description (%d parameters) does not match the "
                     "model run (%d)", s->par_np, m->abi->np);
        vtk_free(w);
        return JNT_ERR_MODEL;
    }
    if (resolve(w) != JNT_OK) {
        if (err && errn)
            snprintf(err, errn, "%s", w->err);
        vtk_free(w);
        return JNT_ERR_MODEL;
    }
    long est = 1024; /* frames; doubled when a run has more */
    w->cap = est;
    w->times = malloc((size_t)est * sizeof *w->times);
    if (!w->dir || !w->stem || !w->pts || !w->v1 || !w->v2 || !w->v3 || !w->f1 || !w->f2 ||
        !w->f3 || !w->f4 || !w->conn || !w->offs || !w->ctype || !w->qq || !w->uu || !w->ydot ||
        !w->mpos || !w->mpos0 || !w->pconn || !w->poffs || !w->probe || !w->buf ||
        !w->times || !w->par || !w->mx || !w->bsize || !w->rho || !w->jax || !w->cax) {
        vtk_free(w);
        return JNT_ERR_NOMEM;
    }
    vtk_params(w);
    for (int i = 0; i < s->nmesh; i++)
        if (write_basis(w, i) != JNT_OK) {
            if (err && errn)
                snprintf(err, errn, "%s", w->err);
            vtk_free(w);
            return JNT_ERR_IO;
        }
    *out = w;
    return JNT_OK;
}

/* See jnt/scene.h. */
int jnt_vtk_close(jnt_vtk *w, char *err, size_t errn)
{
    if (!w)
        return JNT_OK;
    size_t ln = strlen(w->dir) + strlen(w->stem) + 16;
    char *path = malloc(ln);
    int rc = path ? JNT_OK : JNT_ERR_NOMEM;
    jnt_outfile *o = NULL;
    if (rc == JNT_OK) {
        snprintf(path, ln, "%s/%s.pvd", w->dir, w->stem);
        o = open_out(w, path);
        rc = o ? JNT_OK : JNT_ERR_IO;
    }
    if (rc == JNT_OK) {
        FILE *f = jnt_outfile_stream(o);
        fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" "
                   "byte_order=\"LittleEndian\">\n<Collection>\n");
        for (long k = 0; k < w->nframe; k++)
            fprintf(f, "<DataSet timestep=\"%.17g\" group=\"\" part=\"0\" "
                       "file=\"%s_%06ld/%s_%06ld.vtm\"/>\n",
                    w->times[k], w->stem, k, w->stem, k);
        fprintf(f, "</Collection>\n</VTKFile>\n");
        rc = commit(w, o);
    }
    if (rc != JNT_OK && err && errn)
        snprintf(err, errn, "%s", w->err);
    free(path);
    vtk_free(w);
    return rc;
}
