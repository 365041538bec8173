/*
 * blocks.h: completion of the right-hand side and the Jacobian for the
 * linear blocks (reduced substructures) of a model (internal).
 */
#ifndef JNT_BLOCKS_H
#define JNT_BLOCKS_H

#include "model.h"

/* ydot holds the kernel's output (g in each block's velocity rows, 0 in its
 * position rows): make it q' = qd, qd' = Minv (g - Kr q - Cr qd). */
void block_rhs(const jnt_model *m, const double *y, double *ydot);

/* Work block_jac needs: *nw doubles and *ni ints. */
void block_jac_work(const jnt_abi_model *a, size_t *nw, size_t *ni);

/* J (ny x ny, column-major) holds the kernel's Jacobian (dg/dy in the
 * velocity rows): make it the Jacobian of the completed right-hand side,
 * with the work of block_jac_work in w and iw. */
void block_jac(const jnt_model *m, double *J, double *work, int *iwork);

#endif
