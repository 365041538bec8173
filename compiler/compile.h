/*
 * compile.h: the compiler pipeline from .jnt source to C text, and the JIT.
 */
#ifndef JNT_COMPILE_H
#define JNT_COMPILE_H

#include <stddef.h>
#include <stdio.h>
#include "diag.h"
#include "jnt/jnt.h"

/* Parse, check and translate the source registered as `file` in dc to C.
 * Returns 0 and a malloc'd NUL-terminated *csrc, or -1 after reporting
 * errors through dc. */
int comp_to_c(diag_ctx *dc, int file, char **csrc);

/* Compile C text in memory with libtcc and wrap its jnt_generated_model.
 * Compiler messages go to `diag`. Returns JNT_OK or JNT_ERR_JIT. */
int jit_compile(const char *csrc, FILE *diag, jnt_model **out);

/* Directory holding <jnt/abi.h> and <jnt/jnt.h>. */
const char *comp_include_dir(void);

#endif
