/*
 * eval.h: the model's kernels as the integrators and analyses see them
 * (internal). The generated kernels work on element quantities: they read
 * the gathered positions and velocities u of substructure points and give
 * the forces on those points and the derivatives of everything with respect
 * to y and u. These routines do the linear algebra around them: gather
 * u = R q (per block, R the rows of its basis), scatter g += R^T F, form
 * the Jacobian in y (R^T K R by BLAS for dense rows, by compressed rows for
 * sparse ones) and complete the blocks with their reduced matrices.
 * Scratch comes from the data object (jnt_data.ew, .iew), sized by
 * eval_work_size: nothing here allocates.
 */
#ifndef JNT_EVAL_H
#define JNT_EVAL_H

#include <stddef.h>
#include "jnt/jnt.h"

/* Returned by eval_jac when the Jacobian kernel gave a value that is not
 * finite (its state row in *bad). */
#define EVAL_NONFINITE 2

/* Doubles and ints of scratch the routines below need for model a. */
void eval_work_size(const jnt_abi_model *a, size_t *nw, size_t *ni);

/* The gathered quantities at y (positions, then velocities: 2 nu values in
 * d's scratch), or NULL when the model has none. Valid until the next call. */
const double *eval_gather(const jnt_model *m, jnt_data *d, const double *y);

/* The kernel groups of jnt_abi_model.gather_skip: EVAL_ALL gathers both
 * halves, the others only those the group's kernels read (the rhs and jac,
 * update, output), the other half left as it was. */
enum { EVAL_ALL, EVAL_RHS, EVAL_UPDATE, EVAL_OUTPUT };

/* eval_gather for the kernels of `group` (EVAL_*). */
const double *eval_gather_for(const jnt_model *m, jnt_data *d, const double *y, int group);

/* The y of the last eval_gather (the output kernel's state while an output
 * row is written: the VTK writer's frame), or NULL before any. */
const double *eval_last_y(const jnt_model *m, jnt_data *d);
/* The forces on the gathered points (nu) of the last eval_forces, or NULL
 * when the model has none. */
const double *eval_point_forces(const jnt_model *m, jnt_data *d);

/* The rhs kernel at (t, y) with the point forces scattered into each
 * block's generalized-force rows (ydot[q0 + r ..] = g + R^T F, the blocks
 * not completed). Returns the kernel's status. */
int eval_forces(const jnt_model *m, jnt_data *d, double t, const double *y, double *ydot);

/* eval_forces, then every block completed (q' = qd, qd' = Minv (...)). */
int eval_rhs(const jnt_model *m, jnt_data *d, double t, const double *y, double *ydot);

/* The dense Jacobian J (ny x ny, column-major) of eval_rhs at (t, y).
 * Returns the kernel's status, or EVAL_NONFINITE with the state row of the
 * first value that is not finite in *bad and the value in *badv. */
int eval_jac(const jnt_model *m, jnt_data *d, double t, const double *y, double *J, int *bad,
             double *badv);

/* Is the kernel's Jacobian pattern (jac_colptr, jac_rowind) already the
 * Jacobian's in y? So for a model with a jac kernel and no gathered points
 * or blocks: the sparse Newton path of the implicit integrators. */
int eval_jac_is_y(const jnt_abi_model *a);

/* The Jacobian's values in the kernel's pattern (eval_jac_is_y models):
 * jv (jac_nnz values); for multibody models in the model's pattern
 * (jnt_model.jcolptr, eval_dae_patterns). Returns as eval_jac. */
int eval_jac_values(const jnt_model *m, jnt_data *d, double t, const double *y, double *jv,
                    int *bad, double *badv);

/* Multibody models: the mass matrix's values at (t, y) in the model's
 * pattern (jnt_model.mcolptr), and the constraint rates (abi.h) into out
 * (3 nc). Return the kernel's status. */
int eval_mass(const jnt_model *m, jnt_data *d, double t, const double *y, double *mv);
int eval_cons_rates(const jnt_model *m, jnt_data *d, double t, const double *y, double *out);

/* Set a multibody model's Jacobian and mass patterns in y (jnt_model):
 * the kernels' own, or for a model with blocks (flexible2d bodies) the
 * kernel's pattern expanded through the blocks' rows plus the bodies'
 * blocks (flex.h). 0, or -1 when out of memory. */
int eval_dae_patterns(jnt_model *m);

#endif
