/*
 * compile.h: the compiler pipeline from .jnt source to C text, and the JIT.
 */
#ifndef JNT_COMPILE_H
#define JNT_COMPILE_H

#include <stddef.h>
#include <stdio.h>
#include "diag.h"
#include "jnt/jnt.h"

/* Parse, check and translate the source registered as `file` in dc to C:
 * sema, the derivatives pass, codegen. Returns 0 and a malloc'd
 * NUL-terminated *csrc and the model data (*data, *ndata doubles; NULL when
 * none), or -1 after reporting errors through dc. With csrc NULL it only
 * checks: it stops after sema (jnt check). */
int comp_to_c(diag_ctx *dc, int file, char **csrc, double **data, long *ndata);

/* Compile C text in memory with libtcc and wrap its jnt_generated_model with
 * the model data, which the model takes over (freed with it, also on
 * failure). Compiler messages go to `diag`. Returns JNT_OK or JNT_ERR_JIT. */
int jit_compile(const char *csrc, double *data, FILE *diag, jnt_model **out);

/* Directory holding <jnt/abi.h> and <jnt/jnt.h>. */
const char *comp_include_dir(void);

#endif
