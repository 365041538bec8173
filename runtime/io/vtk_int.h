/*
 * vtk_int.h: what the VTK writer (runtime/io/vtk.c) lends the mode-shape
 * writers (runtime/analyse/vtk_linear.c, runtime/analyse/vtk_locus.c) and what
 * those share (internal).
 */
#ifndef JNT_VTK_INT_H
#define JNT_VTK_INT_H

#include <stdint.h>

#include "jnt/abi.h"
#include "jnt/jnt.h"
#include "jnt/scene.h"

/* The writer (runtime/io/vtk.c; jnt/scene.h). */
struct jnt_vtk {
    const jnt_scene *s;
    const jnt_model *m;
    jnt_data *d;
    char *dir, *stem;
    long nframe;
    double *times;   /* frame times (cap) */
    long cap;
    char err[512];
    /* scratch, sized at open: points, vectors, fields */
    double *pts, *v1, *v2, *v3, *f1, *f2, *f3, *f4;
    int64_t *conn, *offs, *ctype;
    double *qq;      /* r x 2: q and q' of a mesh */
    double *uu;      /* 3 nnode x 2: their expansion */
    double *ydot;
    int64_t *pconn, *poffs; /* the shapes' faces: point indices, their ends */
    double *mpos;    /* every mesh's deformed nodes of this frame (3 per node, mesh by mesh) */
    long *mpos0;     /* where each mesh's start in mpos */
    /* the scene's states by name in the model (jnt_state_index): a body's
     * first coordinate and velocity, a mesh's q1 and qd1, a joint's first
     * multiplier and their count; -1 where the model has none */
    int *bq, *bv, *mq, *mv, *jl, *jn;
    double *probe; /* the scene's probes at this frame */
    /* the scene's parameter values at the run's parameters (jnt_scene.par_prog),
     * and with them the markers' places (3 each), the bodies' shapes' sizes (3
     * each), the joints' axis and axis_a (6 each), the races' radii (rho_a,
     * rho_b each) and bearing axes (3 each) of this run (vtk_params) */
    double *par, *mx, *bsize, *jax, *rho, *cax;
    /* the model's inputs to check a frame's files against (jnt_outfile_open
     * resolves a path that exists, link by link, to compare): NULL when none
     * lies under the folder and the frame's folder is not a link */
    const char *const *frame_inputs;
    int inputs_here; /* an input's real path is under the folder */
    char *buf;       /* the streams' buffer (VTK_BUF) */
};

/* The frame's rotation A (3 x 3, column-major: the columns are the body's
 * axes) and its rate, from y at body bi's coordinates (vel: the rates too). */
void vtk_frame_of(const jnt_vtk *w, int bi, const double *y, int vel, double r[3], double A[9],
                  double rv[3], double Av[9]);
/* out = r + A x (r NULL: 0). */
void vtk_place(const double *r, const double A[9], const double x[3], double out[3]);
/* Marker k's position at state y into pos and its velocity into vel (NULL:
 * not wanted): a node marker where its node is (runtime/io/vtk_mark.c). */
void vtk_marker_at(const jnt_vtk *w, int k, const double *y, double pos[3], double vel[3]);
/* Contact between markers c at state y, its markers at a and b: its
 * bearing axis in the world into ax (0: none), and the contact point on
 * b's race r_b + rho_b n into cp (n the unit vector from b to a across the
 * axis; the markers' midpoint when c has no radii). */
void vtk_races(const jnt_vtk *w, const jnt_scene_mcontact *c, const double *y, const double a[3],
               const double b[3], double cp[3], double ax[3]);

/* Every point of the scene at state y, meshes first (their nodes, mesh by
 * mesh), then each body's point followed by its markers', into x (3 a
 * point; NULL: not wanted); and when conn is given, the cells of one VTK
 * unstructured grid of them: the meshes' cells, a vertex at each body's
 * point and a line from it to each of its markers (conn, the offsets of
 * their ends, their VTK types; *ncell of them). Returns the points' count.
 * Room: vtk_points(w, NULL, NULL, ...) counts the points; conn needs the
 * meshes' ncell nen plus a body's 1 and a marker's 2 each. */
long vtk_points(jnt_vtk *w, const double *y, double *x, int64_t *conn, int64_t *offs,
                unsigned char *type, long *ncell);
const jnt_scene *vtk_scene(const jnt_vtk *w);
/* ---- body shapes (runtime/io/vtk_shape.c) ---- */
#define SHAPE_SEG 16  /* a cylinder's sides, a sphere's circles: SHAPE_SEG-gons */
#define SHAPE_PTS (3 * SHAPE_SEG) /* points of a shape at most (a sphere's three circles) */
#define SHAPE_CONN (6 * SHAPE_SEG) /* face corners of a shape at most */
/* Body b's shape in its frame: corners x (3 per point, *np of them) and
 * faces (corner counts in fn, their corners in fc, *nf faces). Planar
 * bodies (flat) draw the outline in their plane: a box lx by ly, a
 * cylinder length by its diameter (the axis along x), a sphere its circle;
 * spatial ones a box's six faces, a cylinder's caps and sides, a sphere's
 * three great circles. */
void vtk_shape(const jnt_scene_body *b, int flat, double *x, int *np, int *fn, int *fc, int *nf);

const jnt_model *vtk_model(const jnt_vtk *w);
const char *vtk_dir(const jnt_vtk *w);

/* ---- mode shapes (runtime/io/vtk_mode.c) ---- */

/* One mode's file: np points pts (X0 + D_re), the scene's nc cells (conn,
 * offs, type as vtk_points gives them), point vectors dr (displacement),
 * di (displacement_im) and scalars amp (amplitude). */
typedef struct vtk_mode_file {
    long np, nc;
    double *pts;
    int64_t *conn, *offs;
    unsigned char *type;
    double *dr, *di, *amp;
} vtk_mode_file;

/* The scratch of one mode-shape writer (vtk_mode_alloc): the state y0
 * and a work copy yy (ny each), the scene's points at y0 x0 and two more
 * pa, pb (3 np each), and the one mode file f it fills (its points, the
 * scene's cells, displacement and amplitude; f.np, f.nc the counts). */
typedef struct vtk_mode_buf {
    double *y0, *yy, *x0, *pa, *pb;
    vtk_mode_file f;
} vtk_mode_buf;

/* *b for writer w's scene and ny states: JNT_OK, or JNT_ERR_NOMEM with
 * nothing held. vtk_mode_free releases it (a zeroed one too). */
int vtk_mode_alloc(jnt_vtk *w, int ny, vtk_mode_buf *b);
void vtk_mode_free(vtk_mode_buf *b);
/* The scene's points at b->y0 into b->x0, its cells into b->f. */
void vtk_mode_base(jnt_vtk *w, vtk_mode_buf *b);
/* One mode's shape along the state direction vre + i vim (vim NULL: a
 * real one): the points' derivatives (vtk_mode_derivative) into b->f.dr,
 * b->f.di, turned and scaled (vtk_mode_scale) from the points x0 (b->x0,
 * or another placement of them). 0 when it moves no point, else 1. */
int vtk_mode_shape(jnt_vtk *w, vtk_mode_buf *b, const double *vre, const double *vim, int ny,
                   const double *x0, double size);

/* D = (P(y0 + e v) - P(y0 - e v)) / (2 e) into D (3 np): the points'
 * derivative along state direction v (ny), e = 1e-4 / max |v|; yy (ny),
 * pa, pb (3 np) are scratch. */
void vtk_mode_derivative(jnt_vtk *w, const double *y0, const double *v, int ny, double *yy,
                         double *pa, double *pb, double *D, long np);
/* The diagonal of the bounding box of the np points x0. */
double vtk_scene_size(const double *x0, long np);
/* D = dr + i di turned so that its largest component is real and positive,
 * scaled so that its largest point moves size / 10; amp = |D| of each
 * point, pts = x0 + dr. 0 when D moves no point (nothing written), else 1. */
int vtk_mode_scale(const vtk_mode_file *mf, const double *x0, double size);
/* Write mf to path (.vtu) with nfield field arrays: names[i] of ncomp[i]
 * values, taken one after the other from vals. */
int vtk_mode_write(const char *path, const vtk_mode_file *mf, int nfield,
                   const char *const *names, const int *ncomp, const double *vals, char *err,
                   size_t errn);

/* The mode shapes of a complex_modes analysis (runtime/analyse/vtk_locus.c). */
int vtk_locus_modes(jnt_vtk *w, const jnt_data *d, const jnt_abi_analysis *an, char *err,
                    size_t errn);

#endif
