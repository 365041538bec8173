/*
 * compile.h: the compiler pipeline from .jnt source to C text, and the JIT. The
 * pipeline itself is reached through the public entry points of jnt.h (compile.c).
 */
#ifndef JNT_COMPILE_H
#define JNT_COMPILE_H

#include <stddef.h>
#include <stdio.h>
#include "diag.h"
#include "jnt/jnt.h"

/* Compile C text in memory with libtcc and wrap its jnt_generated_model with
 * the model data, which the model takes over (freed with it, also on
 * failure). Compiler messages go to `diag`. Returns JNT_OK, JNT_ERR_JIT or JNT_ERR_NOMEM.
 * Allocates nothing through alloc.h. */
int jit_compile(const char *csrc, double *data, FILE *diag, jnt_model **out);

/* jnt_translate_file on a source string named `name` (the fuzzing harness,
 * fuzz/fuzz_compile.c): parse, sema, derivatives and C text, no C compiler.
 * *csrc, *data (malloc'd, the caller frees) as jnt_translate_file. */
int compile_translate_string(const char *name, const char *text, const jnt_compile_opts *opts,
                             char **csrc, double **data, long *ndata);

#endif
