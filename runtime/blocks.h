/*
 * blocks.h: completion of the right-hand side and the Jacobian for the
 * linear blocks (reduced substructures) of a model (internal).
 */
#ifndef JNT_BLOCKS_H
#define JNT_BLOCKS_H

#include "jnt/abi.h"

/* ydot holds the kernel's output (g in each block's velocity rows, 0 in its
 * position rows): make it q' = qd, qd' = Minv (g - Kr q - Cr qd). */
void block_rhs(const jnt_abi_model *a, const double *y, double *ydot);

/* J (ny x ny, column-major) holds the kernel's Jacobian (dg/dy in the
 * velocity rows): make it the Jacobian of the completed right-hand side.
 * 0, or -1 when out of memory. */
int block_jac(const jnt_abi_model *a, double *J);

#endif
