/*
 * flex.h: the flexible2d bodies of a multibody model (internal): their
 * mass matrix, quadratic-velocity, elastic, damping and gravity forces and
 * the derivatives of those forces, from the inertia invariants (abi.h,
 * JNT_BLOCK_FFRF; setup/red_ffrf.c). Everything here works on dense
 * arrays in y: the runtime's DAE path (core/eval.c) takes its values at
 * the Newton matrix's pattern.
 */
#ifndef JNT_FLEX_H
#define JNT_FLEX_H

#include "model.h"

/* Add the forces of every flexible body at y to the rhs f (rows of v:
 * nq + the coordinate), with the block_in values `in` (6 per block). */
void flex_forces(const jnt_model *m, const double *y, const double *in, double *f);

/* Add their derivatives to J (ny x ny, column-major). */
void flex_jac(const jnt_model *m, const double *y, const double *in, double *J);

/* Add their mass matrices at y to M (nq x nq, column-major). */
void flex_mass(const jnt_model *m, const double *y, double *M);

/* Mark the entries flex_jac and flex_mass fill: J (ny x ny) and M (nq x nq)
 * as bytes, column-major. */
void flex_pattern(const jnt_model *m, unsigned char *J, unsigned char *M);

#endif
