/*
 * red.h: model reduction of a finite-element model (fe.h): bases of trial
 * vectors (modal, static, Craig-Bampton, joint trial vectors), their
 * orthogonalisation and the reduced matrices. Dense LAPACKE for up to a few
 * thousand DOFs; a sparse path (CHOLMOD factorisation, ARPACK shift-invert
 * Lanczos) for large imported models. Used at model setup, never in the step
 * loop. Functions return 0 or a negative jnt status with a message in err.
 */
#ifndef JNT_RED_H
#define JNT_RED_H

#include <stddef.h>
#include "fe.h"

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

/* Modal assurance criterion of two n-vectors: (a.b)^2 / ((a.a)(b.b)). */
double red_mac(const double *a, const double *b, int n);

#endif
