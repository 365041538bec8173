/*
 * gen.h: C code generation from the flat model.
 */
#ifndef JNT_GEN_H
#define JNT_GEN_H

#include <stdio.h>
#include "front/diag.h"
#include "ir.h"

/* Write the C translation of m (for libtcc or gcc; a main() is included
 * under #ifdef JNT_STANDALONE). `dc` resolves #line locations. The tables
 * of the kernels' loops (gen_loop.h) are appended to m's model data
 * (m->kdata, m->ndata grows by m->nkdata): call after ir_data_layout and
 * before ir_data_fill. Returns 0. */
int gen_model(ir_model *m, const diag_ctx *dc, FILE *out);

#endif
