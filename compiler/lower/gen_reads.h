/*
 * gen_reads.h: what a model's output kernel reads of each linear block
 * (jnt_abi_block.out_reads), so that the runtime of a model with sliding
 * interfaces computes only those quantities of the physical state at an
 * output row.
 */
#ifndef JNT_GEN_READS_H
#define JNT_GEN_READS_H

#include "ir.h"

/* The entries the output expressions of m read of block b, in the encoding
 * of jnt_abi_block.out_reads: r[0] = n, then n ascending entries (e < r:
 * the displacement of coordinate e, r <= e < 2r: its velocity, 2r <= e:
 * its acceleration). A gathered point read makes every coordinate its
 * basis row touches an entry. NULL when not known (a block without dense
 * rows): the runtime then computes all of it. Owned by the caller. */
int *gen_out_reads(const ir_model *m, int b);

/* Do the rhs kernel's forces of m read the state: any state (EX_Y) or
 * gathered point (EX_UP, EX_UV) under a derivative or force expression,
 * also where only an `if` condition reads it (JNT_BLOCK_STATE_FORCES). */
int gen_forces_read_state(const ir_model *m);

/* The halves of the gather (positions u, velocities uv) that no kernel of
 * a group reads: jnt_abi_model.gather_skip's JNT_SKIP_* bits for the rhs
 * and jac kernels, update and output (leaves EX_UP, EX_UV); 0 for a model
 * without gathered points. */
int gen_gather_skip(const ir_model *m);

#endif
