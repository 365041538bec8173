/*
 * flex.h: the flexible2d bodies of a multibody model (internal): their
 * mass matrix, quadratic-velocity, elastic, damping and gravity forces and
 * the derivatives of those forces, from the inertia invariants (abi.h,
 * JNT_BLOCK_FFRF; setup/red_ffrf.c, and for an unreduced body
 * JNT_BLOCK_FFRF_SPARSE, setup/red_ffrf_sparse.c). The derivatives and the
 * mass matrix go into an accumulator: a dense array (the public Jacobian,
 * the DAE path of reduced bodies in core/eval.c), the values of a CSC
 * pattern (the DAE path of models with an unreduced body), or a list of
 * the entries written (that pattern's construction).
 */
#ifndef JNT_FLEX_H
#define JNT_FLEX_H

#include <stddef.h>

#include "model.h"

/* Where flex_jac and flex_mass add their entries (row, col): dense
 * (a[col ld + row]), sparse (a: the values of the CSC pattern cp, ri; an
 * entry outside it is dropped and counted in miss) or marking (a NULL,
 * ld 0, cp NULL: the keys col n + row are appended to keys, which grows;
 * nomem set when it cannot). */
typedef struct flex_acc {
    double *a;
    size_t ld;
    const int *cp, *ri;
    long miss;
    unsigned long long *keys;
    size_t nkeys, cap;
    unsigned long long n;
    int nomem;
} flex_acc;

/* Add v at (row, col) of A. */
void flex_acc_add(flex_acc *A, int row, int col, double v);

/* 1 when a model's DAE path is sparse: a block is an unreduced flexible2d
 * body (JNT_BLOCK_FFRF_SPARSE). */
int flex_sparse_model(const jnt_abi_model *a);

/* The scratch (doubles) the routines below need: 46 r + 1 for the largest
 * flexible3d body (JNT_FLEX3_MAX_R) or r for the largest unreduced one,
 * whichever is more, then 6 r + 1 for each unreduced body (its products
 * with M at its last state, kept between calls and marked valid by a flag
 * in it: the scratch is zeroed before its first use). */
size_t flex_work_size(const jnt_abi_model *a);

/* Add the forces of every flexible body at y to the rhs f (rows of v:
 * nq + the coordinate), with the block_in values `in` (6 per block). */
void flex_forces(const jnt_model *m, const double *y, const double *in, double *f,
                 double *work);

/* Add their derivatives (rows nq + coordinate, columns y) to A; in may be
 * NULL (no gravity: the marking pass). */
void flex_jac(const jnt_model *m, const double *y, const double *in, flex_acc *A, double *work);

/* Add their mass matrices at y to A (nq x nq). */
void flex_mass(const jnt_model *m, const double *y, flex_acc *A, double *work);

/* After the model's patterns are built (eval_dae_patterns): where each
 * unreduced body's q_f entries land in them (model_block.fpos), so that
 * flex_jac and flex_mass into those patterns skip the search. 0, or -1
 * (out of memory, or an entry outside a pattern). */
int flex_positions(jnt_model *m);

/* Mark the entries flex_jac and flex_mass fill for reduced bodies: J
 * (ny x ny) and M (nq x nq) as bytes, column-major (the dense DAE path). */
void flex_pattern(const jnt_model *m, unsigned char *J, unsigned char *M);

#endif
