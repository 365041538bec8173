/*
 * setup.h: the setup library, public: finite-element models (sparse
 * matrices, node tables, import and export, generators, boundary
 * conditions), their reduction (modal, static, Craig-Bampton, joint trial
 * vectors, projection, modal damping, mode comparison) and the unit tables.
 * The compiler uses it at compile time (substructures are built and reduced
 * during sema), the runtime's sliding interfaces at run start; nothing here
 * runs in the step loop. Functions return 0 on success or a negative jnt
 * status (jnt.h) with a message (file and line where it applies) in
 * err[errn].
 */
#ifndef JNT_SETUP_H
#define JNT_SETUP_H

#include <stddef.h>
#include <stdio.h>
#include "jnt/abi.h"

/* ---- finite-element models ------------------------------------------------ */

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

/* The section of a beam3d, from sectional data (SI). Section axes y (2) and
 * z (3) are principal for both stiffness and mass; the elastic axis (the
 * nodes' line) is the tension and shear centre. Mass moments are per length
 * about axes through the centre of mass; a negative value means "not given". */
typedef struct fe_section3d {
    double EA;         /* axial stiffness (N), required */
    double GJ;         /* torsional stiffness (N m^2) */
    double EI22, EI33; /* bending stiffness about y (bends in x-z: uz, ry) and about z
                          (bends in x-y: uy, rz) (N m^2) */
    double mass;       /* mass per length (kg/m) */
    double ip;         /* polar mass moment (kg m); not given: mass (EI22 + EI33) / EA
                          (a homogeneous section; a thin tube: mass R^2) */
    double i22, i33;   /* bending mass moments about y and z (kg m); not given: 0 */
    double e2, e3;     /* the centre of mass from the elastic axis along y, z (m) */
    double GA2, GA3;   /* shear stiffnesses kappa G A along y (bending in x-y, EI33) and
                          along z (x-z, EI22) (N); 0: rigid in shear (Euler-Bernoulli) */
} fe_section3d;

/* beam3d: spatial frame elements along x from the origin (`elements` of
 * length / elements), DOFs (ux, uy, uz, rx, ry, rz) per node (node i at
 * x = i le, id i + 1, DOFs 6i .. 6i + 5), stiffness of axial, torsion and
 * both bending planes, Euler-Bernoulli or, where GA2 / GA3 > 0, with shear
 * deformation (Timoshenko, interdependent interpolation), consistent mass
 * with rotary inertia and the couplings of the offset (e2, e3) (fe_gen.c:
 * derivation). No warping, no gyroscopic terms. Sets: "left" (node 0),
 * "right" and "tip" (node n), "mid" (node n/2, n even only), "all".
 * elements in 1..1000000. 0, or JNT_ERR_PARAM (a bad value),
 * JNT_ERR_USAGE (s NULL), JNT_ERR_NOMEM, with a message; m is overwritten. */
int fe_beam3d(fe_model *m, double length, int elements, const fe_section3d *s, char *err,
              size_t errn);

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
/* A point mass `mass` (kg) at every node of set `set`: added to M on the
 * node's translational DOFs (a rigid disk on a shaft, seed 001 E2). 0 or
 * JNT_ERR_PARAM / JNT_ERR_NOMEM with the message in err. */
int fe_add_point_mass(fe_model *m, int set, double mass, char *err, size_t errn);


/* ---- reduction --------------------------------------------------------------- */

/* n x r trial vectors, column-major. */
typedef struct red_basis {
    int n, r;
    double *phi;
} red_basis;

void red_basis_free(red_basis *b);
/* Append the columns of b to a (a grows; b is unchanged). */
int red_basis_append(red_basis *a, const red_basis *b, char *err, size_t errn);

/* The `modes` lowest normal modes of (K, M), mass-normalised
 * (phi^T M phi = I), and their circular frequencies omega (rad/s, ascending;
 * `omega` may be NULL). Dense (dsygvd) below `sparse_from` DOFs, sparse
 * shift-invert Lanczos above (0: a default of 500). */
int red_modal(const fe_model *m, int modes, int sparse_from, red_basis *out, double *omega,
              char *err, size_t errn);

/* Static deformation shapes (Guyan): K^-1 e_j for each DOF j of `dofs`.
 * When K is singular (a free substructure), the Guyan constraint modes of
 * `dofs` instead (as red_craig_bampton with modes = 0): the same span when
 * K is regular; they contain rigid-body motion (red_orthogonalize). */
int red_static(const fe_model *m, const int *dofs, int ndofs, red_basis *out, char *err,
               size_t errn);

/* Craig-Bampton: the boundary DOFs `keep` stay physical: constraint modes
 * (unit displacement of one boundary DOF, the others fixed, interior
 * statically condensed) followed by `modes` fixed-interface normal modes. */
int red_craig_bampton(const fe_model *m, const int *keep, int nkeep, int modes, red_basis *out,
                      char *err, size_t errn);

/* A joint for the trial vector derivatives: contact pairs, each a pair of
 * DOFs (a - b is the normal gap change) with the derivative of its
 * contact stiffness with respect to the gap, dk/dg (N/m^2), at the state
 * the derivatives are taken. */
typedef struct red_joint {
    int npair;
    const int *dof_a, *dof_b;
    const double *dkdg;
} red_joint;

/* Joint trial vectors (seed 000 Sect. 3): the first-order trial vector
 * derivatives d phi_i / d q_j = K^-1 (dK/dq_j) phi_i (eq. 7) of the basis
 * `base` for the joint, then the weighted POD of eq. 9 to keep `count`
 * vectors, scaled by 1/sqrt(lambda). out->r < count when the derivatives
 * span fewer directions (at most npair). K may be singular (a free
 * substructure) when the pairs join the same component of coincident nodes
 * (self-equilibrated pair loads); the result then has rigid-body content
 * at round-off level (red_orthogonalize). */
int red_jtv(const fe_model *m, const red_basis *base, const red_joint *joint, int count,
            red_basis *out, char *err, size_t errn);
/* The same from the one-sided derivatives of a joint whose pairs touch
 * without load (stiffness only on the closing side: red_jtv.c's header). */
int red_jtv_onesided(const fe_model *m, const red_basis *base, const red_joint *joint,
                     int count, red_basis *out, char *err, size_t errn);

/* Mode-shape orthogonalisation (eqs. 10-11): solve (K~ - w M~) y = 0 with the
 * reduced matrices of b, replace b by b Y and drop the columns with
 * eigenvalues below `zero_tol` * the largest (rigid-body content). */
int red_orthogonalize(const fe_model *m, red_basis *b, double zero_tol, char *err, size_t errn);

/* Reduced matrices Phi^T M Phi, Phi^T K Phi, Phi^T C Phi (r x r, column-major;
 * Cr may be NULL, and is zero when the model has no C). */
int red_project(const fe_model *m, const red_basis *b, double *Mr, double *Kr, double *Cr,
                char *err, size_t errn);

/* The node `node` of fe model whose coordinates are q (b: x = Phi q; b
 * NULL: q is the fe DOF vector), placed in the global frame by a rotation
 * `angle` (rad, counter-clockwise) about the fe origin then a translation
 * origin[2] (NULL: none): its reference coordinates X (m) and the rows of
 * its displacement, rows[0..r) for ux and rows[r..2r) for uy (r = b->r or
 * fe->ndof). beam2d surface points combine their master node's DOFs
 * (fe_point_dofs). 0 or JNT_ERR_USAGE (message). */
int red_node_rows(const fe_model *fe, const red_basis *b, int node, double angle,
                  const double *origin, double X[2], double *rows, char *err, size_t errn);

/* Modal assurance criterion of two n-vectors: (a.b)^2 / ((a.a)(b.b)). */
double red_mac(const double *a, const double *b, int n);

/* ---- the reduced model (red_reduced.c) ---------------------------------------- */

/* The reduced model of a substructure, Mr q'' + Cr q' + Kr q = g (seed 000
 * eq. 4), its matrices from red_project: all r x r, column-major,
 * caller-owned. Units are those of q = 1 m (an unreduced substructure:
 * Mr kg, Kr N/m, Cr N s/m); a basis of other units scales them alike. */

/* Modal damping (the `damping = modal(zeta)` of a substructure): with the
 * modes of the reduced model, Kr Y = Mr Y diag(w^2), Y^T Mr Y = I (w in
 * rad/s; rigid-body modes w = 0), add
 *   Cr += (Mr Y) diag(2 zeta w) (Mr Y)^T = Y^-T diag(2 zeta w) Y^-1,
 * so that Y^T Cr Y gains diag(2 zeta w_i): every mode gets the damping ratio
 * zeta on top of the damping Cr had. 0, or a negative status (Mr not
 * positive definite, the eigensolver failed); Cr is unchanged then. */
int red_modal_damping(int r, const double *Mr, const double *Kr, double zeta, double *Cr,
                      char *err, size_t errn);

/* What the runtime integrates a block with (runtime/core/blocks.c,
 * jnt_abi_block): Minv = Mr^-1 by Cholesky, MinvK = Minv Kr (1/s^2) and
 * MinvC = Minv Cr (1/s). 0, or JNT_ERR_MODEL when Mr is not positive definite
 * (dependent basis vectors). */
int red_mass_inverse(int r, const double *Mr, const double *Kr, const double *Cr, double *Minv,
                     double *MinvK, double *MinvC, char *err, size_t errn);

/* The row of the basis b at a point: component comp (FE_UX ...) of node
 * `node` moves as u = row . q, row[k] = sum_t c_t Phi(dof_t, k) over the
 * (dof, c) pairs of fe_point_dofs (b->r entries, overwritten; m per unit q).
 * Returns their count, 0 when the component has no DOF (fixed, or not one of
 * the element type's: row is zero), or JNT_ERR_USAGE. */
int red_point_row(const fe_model *fe, const red_basis *b, int node, int comp, double *row,
                  char *err, size_t errn);

/* The inertia invariants of a planar flexible body in a floating frame
 * (red_ffrf.c: the equations there), written to inv in the layout of
 * jnt/abi.h (JNT_FFRF_*): m, s0 (2), J0, S1 (2 x r), j1, e0 (r each), E,
 * Mr (r x r each, column-major); the caller appends Kr and Cr. Node
 * coordinates are the positions in the body frame; b is a basis of fe.
 * When fe had fixes (fe_fix), M0 is its mass matrix before them and dof0
 * (FE_NDOF_NODE per node) the nodes' DOFs in that numbering, so that the fixed nodes
 * count; else both NULL. Needs ux and uy at every node and no other DOF,
 * and a mass matrix that treats x and y alike, and a basis without
 * rigid-body motion (JNT_ERR_MODEL otherwise). 0 or a negative status. */
int red_ffrf(const fe_model *fe, const red_basis *b, const fe_sparse *M0, const int *dof0,
             double *inv, char *err, size_t errn);

/* The invariants of an unreduced flexible2d body (its basis the identity
 * on fe's free DOFs; setup/red_ffrf_sparse.c), in the sparse layout of
 * jnt/abi.h (JNT_FFRF_SP_*, red_ffrf_sparse_size(fe) doubles, M, K and C
 * included). M0 and dof0 as for red_ffrf. Needs every node free in both
 * ux and uy or fixed in both. 0 or a negative status with a message. */
int red_ffrf_sparse(const fe_model *fe, const fe_sparse *M0, const int *dof0, double *inv,
                    char *err, size_t errn);

/* The doubles red_ffrf_sparse writes for fe, or -1 (out of memory). */
long red_ffrf_sparse_size(const fe_model *fe);

/* The inertia invariants of a spatial flexible body (setup/red_ffrf3d.c:
 * definitions and checks) through Mr, written to inv (JNT_FFRF3_SIZE(b->r)
 * doubles; Kr and Cr are left to the caller). Node coordinates are places
 * in the body frame; b is a basis of fe (b->r = 0: the rigid body of the
 * mesh; phi may then be NULL). When fe had fixes, M0 is its mass matrix
 * before them and dof0 (6 per node: ux, uy, uz, rx, ry, rz, -1 where none)
 * the nodes' DOFs in that numbering, so that the fixed nodes count; else
 * both NULL. Every node needs ux, uy, uz, and rx, ry, rz all or none; the
 * mass of a rigid translation must be alike in x, y and z; the body's mass
 * matrix must be positive definite (JNT_ERR_MODEL otherwise, with a
 * message). 0 or a negative status. */
int red_ffrf3d(const fe_model *fe, const red_basis *b, const fe_sparse *M0, const int *dof0,
               double *inv, char *err, size_t errn);
/* The mean axes of a free plane mesh (ux, uy at every node, nothing
 * fixed): each vector of b loses its rigid-body part in the mass inner
 * product, then red_orthogonalize drops the vanished and dependent columns
 * (b shrinks). A flexible2d body on the result has S1 = 0 and e0 = 0: its
 * frame follows the mean axes (red_ffrf.c). 0 or a negative status. */
int red_mean_axes(const fe_model *fe, red_basis *b, char *err, size_t errn);

/* The loads of a frame that accelerates along x (comp FE_UX) or y (FE_UY):
 * every mass takes -m a, so g = -(Phi^T M t) a with t the unit translation
 * (1 at every node's DOF of that component: the DOFs are global, fe_rotate
 * turned the mesh). Writes Phi^T M t (kg per unit q, b->r entries) to gt.
 * 0 or a negative status. */
int red_frame_load(const fe_model *fe, const red_basis *b, int comp, double *gt, char *err,
                   size_t errn);

/* The acceleration of a point u = c^T q of the block (c: its red_point_row)
 * as the forces F_p on the block's points p (rows c_p) give it, from
 * q'' = Minv (sum_p c_p F_p - Kr q - Cr q'):
 *   u'' = sum_p wp[p] F_p - ck . q - cc . q',
 *   wp[p] = c^T Minv c_p (1/kg), ck = Kr Minv c (1/s^2), cc = Cr Minv c (1/s)
 * and *alpha = c^T Minv c (1/kg), the point's response to a force of its own:
 * the equivalent force of a sticking element (seed 001 Sect. 2.9) is affine
 * in the element's force with this slope. rows[p] has r entries; wp npt.
 * 0 or a negative status. */
int red_point_accel(int r, const double *Minv, const double *MinvK, const double *MinvC,
                    const double *c, int npt, const double *const *rows, double *wp,
                    double *ck, double *cc, double *alpha, char *err, size_t errn);

/* The reduced model's modes against the full model's (the `modes` analysis):
 * full holds the count = full->r lowest mass-normalised modes of the full
 * model (red_modal), b the basis of Mr and Kr (count <= b->r). Solves
 * Kr y = w^2 Mr y and writes, for k < count, the reduced circular frequency
 * w_red[k] (rad/s), the expanded shape Phi y_k to shapes (n x count,
 * column-major), signed so that it points the way of the full mode, and
 * mac[k] = MAC(full mode k, Phi y_k) (red_mac). 0 or a negative status. */
int red_compare_modes(const red_basis *b, const double *Mr, const double *Kr,
                      const red_basis *full, double *w_red, double *mac, double *shapes,
                      char *err, size_t errn);


/* ---- units ----------------------------------------------------------------- */

/* Exponents of kg, m, s, A, K in 1/JNT_DIM_DEN. */
typedef struct jnt_dim {
    signed char e[JNT_NDIM];
} jnt_dim;

extern const jnt_dim units_none; /* dimensionless */

int units_equal(jnt_dim a, jnt_dim b);
int units_is_none(jnt_dim a);
jnt_dim units_mul(jnt_dim a, jnt_dim b);
jnt_dim units_div(jnt_dim a, jnt_dim b);
/* a^(num/den); returns -1 when an exponent is not a multiple of 1/JNT_DIM_DEN
 * or overflows. */
int units_pow(jnt_dim a, int num, int den, jnt_dim *out);

/* Look up one unit word ("mm", "GPa", "N"): 0 and its SI scale and dimension,
 * or -1 when unknown. */
int units_lookup(const char *word, size_t n, double *scale, jnt_dim *dim);

/* Parse a unit expression without spaces: "m/s^2", "N*s/m", "/s", "1/m",
 * "N/mm^3", "s^-1". Returns 0, or -1 with *err_at the offending character and
 * *why a static message. */
int units_parse(const char *s, size_t n, double *scale, jnt_dim *dim, const char **err_at,
                const char **why);

/* Parse "<number>[ ]<unit>" (the whole string): 0 and the SI value and
 * dimension, or -1 with a static message in *why. */
int units_parse_quantity(const char *s, double *si, jnt_dim *dim, const char **why);

/* Readable dimension: "N/m", "m/s^2", "1" for dimensionless. Returns buf. */
char *units_format(jnt_dim d, char *buf, size_t n);
/* The unit of entry i of a generated dims table (JNT_NDIM exponents an entry;
 * NULL: unknown) into buf, "" when dimensionless or unknown. Returns buf. */
char *units_entry(const signed char *dims, int i, char *buf, size_t n);
/* units_entry for entry i of a model's output columns, named by its kind
 * (kinds: JNT_KIND_* an entry, jnt_abi_model.out_kinds; NULL: none) where
 * its dimension agrees: rad, rad/s, rad/s^2, J, W. Returns buf. */
char *units_column(const signed char *dims, const signed char *kinds, int i, char *buf,
                   size_t n);


/* Input files (setup/file_open.c): the largest model or import file, and the
 * largest data file (a Matrix Market matrix, a node table), in bytes. */
#define SETUP_MAX_SOURCE (64LL << 20)
#define SETUP_MAX_DATA (4LL << 30)

/* Open path for reading: a regular file (after symlinks) of at most max bytes
 * (max <= 0: any size), opened without blocking on a FIFO. Returns the
 * stream, or NULL with the reason in why[whyn] ("it is a FIFO, not a
 * regular file", "it has N bytes, more than the limit of M", strerror). */
FILE *setup_open_input(const char *path, long long max, char *why, size_t whyn);

#endif
