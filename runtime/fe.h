/*
 * fe.h: finite-element structures of substructures: sparse matrices, the
 * node table, Matrix Market and CSV import/export, mesh generators and
 * boundary conditions. Used by the reduction routines (red.h) at model
 * setup, never in the step loop. Functions return 0 on success or a
 * negative jnt status, with a message (file and line where it applies) in
 * err[errn].
 */
#ifndef JNT_FE_H
#define JNT_FE_H

#include <stddef.h>

/* A square sparse matrix in compressed sparse column form, both triangles
 * stored (a symmetric file is expanded on reading), rows sorted per column. */
typedef struct fe_sparse {
    int n, nnz;
    int *colptr; /* n + 1 */
    int *rowind; /* nnz */
    double *val; /* nnz */
} fe_sparse;

/* Degrees of freedom per node, in this order; -1 where the node has none. */
enum { FE_UX, FE_UY, FE_UZ, FE_RX, FE_RY, FE_RZ, FE_NDOF_NODE };

typedef struct fe_node {
    int id;                   /* the user's node id */
    double x[3];              /* coordinates (m) */
    int dof[FE_NDOF_NODE];    /* global DOF index of each component, -1 if none */
    int master;               /* -1, or a node this point is rigidly attached to (beam
                                 surface points): u = u_master + rot_master x off */
    double off[3];            /* offset from the master node (m) */
} fe_node;

/* A named set of nodes ("left", "top", "tip", "joint", ...). */
typedef struct fe_set {
    char name[64];
    int n;
    int *node; /* indices into fe_model.node */
} fe_set;

/* A finite-element model: ndof DOFs, M and K (C optional: n == 0 when
 * absent), the nodes and named node sets. */
typedef struct fe_model {
    int ndof;
    fe_sparse M, K, C;
    int nnode;
    fe_node *node;
    int nset;
    fe_set *set;
} fe_model;

void fe_sparse_free(fe_sparse *a);
void fe_free(fe_model *m);

/* y = A x (n-vectors). */
void fe_sparse_mul(const fe_sparse *a, const double *x, double *y);
/* Dense copy (n x n, column-major, caller frees), NULL when out of memory. */
double *fe_sparse_dense(const fe_sparse *a);
/* From triplets (duplicates summed); 0 or a negative status. */
int fe_sparse_from_triplets(int n, int nt, const int *row, const int *col, const double *val,
                            fe_sparse *out);

/* Matrix Market: coordinate and array formats, real, general or symmetric. */
int fe_read_mtx(const char *path, fe_sparse *out, char *err, size_t errn);
int fe_write_mtx(const char *path, const fe_sparse *a, int symmetric, char *err, size_t errn);

/* Node table CSV with a header line: id,x,y,z,ux,uy,uz[,rx,ry,rz] where the
 * u and r columns are 0-based DOF indices or -1. An optional column "set"
 * names a set the node belongs to (several sets: separated by ';').
 * Columns go by their header names, in any order; optional columns
 * "master" (a node id), "ox", "oy", "oz" attach a point to a node (the
 * beam2d surface points). fe_write_nodes writes all columns. */
int fe_read_nodes(const char *path, fe_model *m, char *err, size_t errn);
int fe_write_nodes(const char *path, const fe_model *m, char *err, size_t errn);

/* Write M and K (symmetric coordinate files), C (general; when damping is
 * non-NULL and the model has a C) and the node table (when nodes is
 * non-NULL). */
int fe_write_model(const fe_model *m, const char *mass, const char *stiffness,
                   const char *damping, const char *nodes, char *err, size_t errn);

/* Benchmark models: a plate2d (QM6, aluminium, 1 m x 0.25 m x 10 mm, nx = 4 ny)
 * of about ndof DOFs (5000, 20000, 50000 give 5252, 20502, 50720) written
 * to <prefix>_M.mtx, <prefix>_K.mtx, <prefix>_nodes.csv; the exact DOF
 * count in *ndof_out (may be NULL). */
int fe_export_plate2d(const char *prefix, int ndof, int *ndof_out, char *err, size_t errn);

/* Import M, K (and C if path non-NULL) and the node table; checks sizes,
 * symmetry of M and K, and that M is positive definite (Cholesky). */
int fe_import(fe_model *m, const char *mass, const char *stiffness, const char *damping,
              const char *nodes, char *err, size_t errn);

/* Element formulations of plate2d. FE_Q4: the bilinear quadrilateral, fully
 * integrated (locks in bending: parasitic shear). FE_QM6: the same with
 * Wilson's incompatible modes, Taylor-Beresford-Wilson corrected (exact in
 * pure bending on rectangles), condensed at element level. Their names in
 * the language are fe_element_names[] ("q4", "qm6"). */
typedef enum fe_element { FE_Q4, FE_QM6, FE_NELEMENT } fe_element;
extern const char *const fe_element_names[FE_NELEMENT];

/* Generators. beam2d: Euler-Bernoulli frame elements along x with DOFs
 * (ux, uy, rz) per node, consistent mass; nodes on the axis plus surface
 * points at y = +/- h/2 attached to their axis node (master, off = (0, +/-h/2);
 * their own dof[] are -1; fe_point_dofs gives their motion).
 * Sets: "left", "right", "tip" (= right), "axis", "top", "bottom".
 * plate2d: plane-stress four-node quadrilaterals of formulation `element`
 * (fe_element, 2x2 Gauss, consistent mass) on an nx x ny structured mesh of
 * lx x ly, thickness t; DOFs (ux, uy) per node; sets "left", "right", "top",
 * "bottom", corners "bottom_left", "bottom_right", "top_left", "top_right".
 * chain: n masses m on a line joined by springs k (DOF ux), sets "first",
 * "last", "all". */
int fe_beam2d(fe_model *m, double length, double height, double width, double E, double nu,
              double rho, int elements, char *err, size_t errn);
int fe_plate2d(fe_model *m, double lx, double ly, double thickness, double E, double nu,
               double rho, int nx, int ny, fe_element element, char *err, size_t errn);
int fe_chain(fe_model *m, int n, double k, double mass, char *err, size_t errn);

/* The element matrices of plate2d for one quadrilateral of any shape:
 * corners (x[k], y[k]) counter-clockwise, thickness t, DOFs (u1, v1, ...,
 * u4, v4); stiffness ke and consistent mass me, 8 x 8 column-major.
 * 0, or JNT_ERR_PARAM when det J <= 0 at a Gauss point (corners clockwise,
 * or too distorted) or the element is unknown; then ke and me are undefined. */
int fe_quad(const double x[4], const double y[4], double t, double E, double nu, double rho,
            fe_element element, double ke[64], double me[64]);

/* The displacement of component comp (FE_UX ...) of node `node` as a
 * combination of DOFs: up to 4 (dof, coefficient) pairs in dof[], c[];
 * returns their count (0 when the component has no DOF, e.g. fixed). For a
 * plain node it is its DOF with coefficient 1; for a point attached to a
 * master node, the master's translation plus the rotation times the offset
 * (2D: ux = ux_m - rz_m off_y, uy = uy_m + rz_m off_x). */
int fe_point_dofs(const fe_model *m, int node, int comp, int dof[4], double c[4]);

/* Find a set by name: its index or -1. */
int fe_find_set(const fe_model *m, const char *name);

/* Remove the DOFs of the nodes of set `set` (all their components):
 * M, K, C shrink and the remaining DOFs are renumbered; removed node DOFs
 * become -1. */
int fe_fix(fe_model *m, int set, char *err, size_t errn);
/* The same for the components whose bit (1 << FE_UX ...) is set in comps. */
int fe_fix_comps(fe_model *m, int set, unsigned comps, char *err, size_t errn);

/* Rotate the model by `angle` (rad, counter-clockwise, about the origin) in
 * the x-y plane: node coordinates, and every node's (ux, uy) becomes global
 * (M, K, C -> T A T^T); in-plane rotations rz are unchanged. Dense work:
 * at most FE_ROTATE_MAX DOFs. */
#define FE_ROTATE_MAX 6000
int fe_rotate(fe_model *m, double angle, char *err, size_t errn);

/* Rayleigh damping C = alpha M + beta K (replaces C). */
int fe_rayleigh(fe_model *m, double alpha, double beta, char *err, size_t errn);

#endif
