/*
 * substructure.h: what the files of the substructure kind share (declare.c,
 * basis.c, gather.c).
 */
#ifndef JNT_KINDS_SUBSTRUCTURE_H
#define JNT_KINDS_SUBSTRUCTURE_H

#include "sema/core.h"

/* Pass 2: build, constrain, damp and reduce substructure s; its states. */
void sema_declare_sub(sema *S, sym *s);
void sema_sub_free(sema *S);

/* The basis of a `reduce = ...` setting e on the model fe: 0, or -1 after
 * reporting errors (out may hold part of a basis: red_basis_free it). */
int sema_sub_basis(sema *S, const ast *e, const fe_model *fe, red_basis *out);

/* The node sets named by a setting value, NAME or {NAME, ...}: their
 * indices in sets[] (at most max), their count, or -1 after an error. */
int sema_sub_sets(sema *S, const ast *e, const fe_model *fe, int *sets, int max);

/* The index (FE_UX ...) of a component name "ux" .. "rz", or -1. */
int sema_sub_comp(const char *name);

/* Members of a substructure (sets, nodes, components): 0 and *out, or -1. */
int sema_sub_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out);
int sema_sub_index(sema *S, sval base, long i, jnt_loc loc, sval *out);

/* The acceleration of substructure point di as a0 + alpha F, F the force of
 * element `skip` on it (excluded from a0): 0, or -1 after an error. */
int sema_sub_accel(sema *S, int di, int skip, ex_id *a0, ex_id *alpha);

/* The substructures' own generalized forces (frame inertia) and blocks. */
void sema_sub_assemble(sema *S);

/* Last: the gathered points in block order, their forces and the blocks'
 * rows (after every expression is built). */
void sema_sub_gather(sema *S);

/* In a model with sliding interfaces: the acceleration of substructure
 * point di from the accelerations the runtime writes (discrete states). */
sval sema_sub_point_accel(sema *S, int di);

#endif
