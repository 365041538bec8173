/*
 * jnt/scene.h: what a model looks like, for pictures (public). The compiler
 * describes a model's bodies, markers, joints, finite-element meshes and
 * contacts (jnt_scene_file); the runtime writes them at every output row as
 * VTK XML files for ParaView (jnt_vtk_*, runtime/io/vtk.c; docs/seeing.md
 * has the layout). Every length is in m, every index into the run's state
 * y (jnt_state_name) unless said otherwise; everything a scene holds is
 * owned by it (jnt_scene_free).
 */
#ifndef JNT_SCENE_H
#define JNT_SCENE_H

#include <stddef.h>

#include "jnt/jnt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of bodies: planar rigid (state x, y, angle from q), spatial rigid
 * (x, y, z, then the directors d1, d2, d3: 12 states from q), and their
 * flexible forms (the frame as for the rigid one, the mesh in jnt_scene_mesh). */
enum { JNT_BODY_RIGID2D, JNT_BODY_RIGID3D, JNT_BODY_FLEX2D, JNT_BODY_FLEX3D };
/* A body's shape (the `shape` attribute): none (its markers and joints show it). */
enum { JNT_SHAPE_NONE, JNT_SHAPE_BOX, JNT_SHAPE_CYLINDER, JNT_SHAPE_SPHERE };

typedef struct jnt_scene_body {
    char *name;
    int kind;     /* JNT_BODY_* */
    int q;        /* y index of its first frame coordinate */
    int shape;    /* JNT_SHAPE_* */
    double size[3]; /* box: lx, ly, lz; cylinder: radius, length (along the body's x); sphere:
                       radius (m), at the parameters' defaults */
    int sizep;    /* -1, or the sizes read parameters: they are the scene's parameter
                     values sizep .. sizep + 2 at the run's (jnt_scene.par_prog) */
} jnt_scene_body;

/* A point fixed in a body (body >= 0, x in its frame) or in the ground
 * (body = -1, x in the world). A flexible body's node marker (`mk = NODE`,
 * a set of one node) moves with its node: mesh >= 0 and node name it in
 * jnt_scene_mesh (x its place undeformed), else both are -1. x is the place
 * at the parameters' defaults; when it reads parameters (xp >= 0) the
 * run's place is the scene's parameter values xp .. xp + 2 at the run's
 * parameters (jnt_scene.par_prog). */
typedef struct jnt_scene_marker {
    char *name;
    int body;
    double x[3];
    int mesh, node;
    int xp;
} jnt_scene_marker;

typedef struct jnt_scene_joint {
    char *name;
    const char *kind; /* "revolute", "prismatic", "fixed", ... (static) */
    int a, b;         /* markers */
    int l0, nl;       /* its multipliers, y[l0 .. l0 + nl) */
    int npos;         /* how many of the first rows are r_a - r_b (x, y[, z]): the force on
                         a's body is -lambda there */
    double axis[3];   /* the axis (unit) in b's frame (the world when b is a ground point):
                         revolute, prismatic, cylindrical, planar (its normal; planar models:
                         z, a prismatic joint's slide), universal its `axis_b`; else 0 */
    double axis_a[3]; /* universal: its `axis` (unit), fixed in a, in a's frame; else 0 */
    int axisp;        /* -1, or axis and axis_a read parameters (the defaults' above): they are
                         the scene's parameter values axisp .. axisp + 5 at the run's */
} jnt_scene_joint;

/* A finite-element mesh in its reduced coordinates q = y[q0 .. q0 + r)
 * (velocities y[qv0 ..]): node i is at x[3 i ..] + phi rows 3 i .. 3 i + 2
 * times q, in the frame of body `body` (its frame coordinates), or in the
 * world when body = -1. */
typedef struct jnt_scene_mesh {
    char *name;
    int body;       /* a flexible body, or -1 */
    int q0, qv0, r;
    int nnode;
    double *x;      /* 3 nnode reference coordinates */
    double *phi;    /* 3 nnode x r, column-major: the basis at ux, uy, uz of each node */
    int ncell;
    int nen;        /* nodes per cell: 4 (quadrilaterals), 2 (lines) or 1 (points) */
    int *conn;      /* ncell x nen node indices */
    double *mr, *kr; /* its reduced mass and stiffness matrices (r x r, column-major) */
} jnt_scene_mesh;

/* A model's `analysis NAME : modes(of = SUB, count = N)`: the normal modes
 * of mesh `mesh`'s reduced model, Kr z = w^2 Mr z, drawn as mode shapes. */
typedef struct jnt_scene_modes {
    char *name;
    int mesh, count;
} jnt_scene_modes;

/* A contact (normal) or friction element between two points of meshes
 * (mesh >= 0: its node) or of bodies' markers, acting along comp
 * (0 x, 1 y, 2 z, in the mesh's frame); ga, gb: the gathered point of each
 * side (jnt_abi_block), -1 for the ground. friction >= 0: the friction
 * element between the same nodes. */
typedef struct jnt_scene_contact {
    char *name;
    int mesh_a, node_a, mesh_b, node_b;
    int comp;
    int ga, gb;
    int friction;   /* index into frictions (jnt_scene.fric), or -1 */
} jnt_scene_contact;

typedef struct jnt_scene_friction {
    char *name;
    int comp;
    int ga, gb;
} jnt_scene_friction;

/* A contact element between two markers (a clearance joint's races'
 * centres, or any two points of bodies or of the ground), drawn with the
 * contacts: its values are the scene's probes at a state (jnt_scene.probe):
 * the markers' positions (x, y, z from probe xa and from xb: a flexible
 * body's marker where its node is), the gap and the normal force, and
 * those of the friction element between the same markers. */
typedef struct jnt_scene_mcontact {
    char *name;
    int xa, xb;       /* probes of the two markers' positions */
    int gap, force;   /* probes of its gap (m) and normal force (N) */
    int ffric, vfric; /* its friction element's force (N) and slip rate (m/s); -1: none */
    int ma, mb;       /* its two markers (jnt_scene.marker), -1 for a ground point */
    int axis_body;    /* the body its bearing axis is fixed in (mb's), -1: the world */
    double axis[3];   /* a clearance joint's bearing axis (unit, in axis_body's frame): a
                         cylinder clearance's `axis`, its friction's `axis`, z between planar
                         markers; 0: none (the normal along the centres' line) */
    int axisp;        /* -1, or the axis reads parameters (the defaults' above): it is the
                         scene's parameter values axisp .. axisp + 2 at the run's */
    double rho_a, rho_b; /* the races' radii (m): cylinder(rho_l, rho_k), or its friction's
                            `radii`; 0 when not given. The contact point is r_b + rho_b n,
                            n the unit vector from mb to ma across the axis */
    int rhop;         /* -1, or the radii read parameters: rho_a, rho_b are the scene's
                         parameter values rhop, rhop + 1 at the run's (else the defaults') */
} jnt_scene_mcontact;

/* The scene's probes: values of the model's expressions that a picture
 * needs and the run's CSV may not hold, evaluated at a state by probe()
 * (the compiler's interpreter of the model's expressions, sema/scene.c)
 * into out[0 .. nprobe): 0, or -1 when the state does not match (the
 * model's ny, nd, nu: probe_ny, probe_nd, probe_nu). probe_free releases
 * probe_prog (jnt_scene_free calls it). */
typedef int (*jnt_scene_probe_fn)(void *prog, double t, const double *y, const double *u,
                                  const double *d, const double *p, double *out);

typedef struct jnt_scene {
    char *model;
    int nbody, nmarker, njoint, nmesh, ncontact, nfric, nmodes;
    jnt_scene_body *body;
    jnt_scene_marker *marker;
    jnt_scene_joint *joint;
    jnt_scene_mesh *mesh;
    jnt_scene_contact *contact;
    jnt_scene_friction *fric;
    jnt_scene_modes *modes;
    int nmcontact;
    jnt_scene_mcontact *mcontact;
    int nprobe, probe_ny, probe_nd, probe_nu;
    void *probe_prog;
    jnt_scene_probe_fn probe;
    void (*probe_free)(void *prog);
    /* The scene's parameter values: the places, sizes, axes and radii above that
     * read parameters, as expressions of the parameters alone (the bodies at
     * rest), evaluated by probe(par_prog, 0, NULL, NULL, NULL, p, out) into
     * out[0 .. npar) at the run's parameters p (par_np of them), so that a
     * `-D` that moves a marker moves the picture too. probe_free releases it. */
    int npar, par_np;
    void *par_prog;
} jnt_scene;

/* Describe the model in `path` (its semantic analysis, no code): JNT_OK and
 * *out (the caller frees it with jnt_scene_free), or JNT_ERR_MODEL (errors
 * printed as jnt_compile_file prints them), JNT_ERR_IO, JNT_ERR_NOMEM,
 * JNT_ERR_USAGE (NULL argument). Markers' places in their bodies, shapes'
 * sizes, joints' axes and races' radii and axes are those of the parameters'
 * defaults; those that
 * read parameters are also the scene's parameter values (par_prog), which the
 * VTK writer evaluates at the run's parameters. */
int jnt_scene_file(const char *path, const jnt_compile_opts *opts, jnt_scene **out);
void jnt_scene_free(jnt_scene *s);

/* The VTK writer (runtime/io/vtk.c). jnt_vtk_open: a writer of s's frames
 * for a run of (m, d) into folder dir (created if absent), the files named
 * after stem: dir/stem.pvd, dir/stem_NNNNNN.vtm and their blocks. It keeps
 * s, m, d (borrowed). JNT_OK, or JNT_ERR_IO / JNT_ERR_NOMEM / JNT_ERR_USAGE
 * with the message in err. jnt_vtk_on_row: a jnt_run_opts.on_row (ctx the
 * writer): one frame at the row's time from the state being written.
 * jnt_vtk_close: writes the .pvd (JNT_OK or JNT_ERR_IO, message) and frees
 * the writer; NULL: nothing. jnt_vtk_error: the message of a failed frame. */
typedef struct jnt_vtk jnt_vtk;
int jnt_vtk_open(const jnt_scene *s, const jnt_model *m, jnt_data *d, const char *dir,
                 const char *stem, jnt_vtk **out, char *err, size_t errn);
int jnt_vtk_on_row(void *ctx, const double *row, int n);
int jnt_vtk_close(jnt_vtk *w, char *err, size_t errn);
const char *jnt_vtk_error(const jnt_vtk *w);
/* One frame at (t, y) now (jnt_vtk_on_row's work): JNT_OK or JNT_ERR_IO. */
int jnt_vtk_frame(jnt_vtk *w, double t, const double *y);

/* Mode shapes: for each `analysis NAME : modes(...)` of the scene, its
 * first `count` normal modes of the reduced substructure, Kr z = w^2 Mr z,
 * as dir/NAME_mode_K.vtu (K from 1): the mesh displaced by Phi z scaled
 * so that its largest node moves a tenth of the mesh's size, that
 * displacement as the point vectors `displacement`, the eigenvalue
 * (0, w) of the undamped mode and its frequency (Hz) in field data.
 * JNT_OK, or JNT_ERR_IO / JNT_ERR_NOMEM / JNT_ERR_SOLVER with the message. */
int jnt_vtk_modes(const jnt_scene *s, const char *dir, char *err, size_t errn);

/* The mode shapes of the model's `analysis NAME : linear(at = T)` into the
 * writer's folder (runtime/analyse/vtk_linear.c): the Jacobian's right
 * eigenvectors at the state of time T (a run of its own, with d's
 * parameters), one file DIR/NAME_mode_K.vtu per eigenvalue of non-negative
 * imaginary part in the order of NAME.csv (at most 20): every point of
 * the scene displaced by the real part of the complex mode D (scaled so
 * that its largest point moves a tenth of the scene's size; its largest
 * component real), D's real and imaginary parts as the point vectors
 * `displacement` and `displacement_im`, |D| as `amplitude`; in field data
 * `eigenvalue` (re, im), `frequency_Hz`, `damping_ratio` and `row` (its k
 * in NAME.csv). JNT_OK, or a status with the message in err. */
int jnt_vtk_analyses(jnt_vtk *w, const jnt_data *d, char *err, size_t errn);

/* jnt_sim_main with the model's scene: its option --vtk DIR writes the
 * run's frames (jnt_vtk_*); jnt_sim_main is this with none (--vtk refused). */
int jnt_sim_main_scene(const jnt_model *m, const jnt_scene *scene, const char *prog, int argc,
                       char **argv);

#ifdef __cplusplus
}
#endif
#endif
