/*
 * compile.h: the compiler pipeline from .jnt source to C text, and the JIT. The
 * pipeline itself is reached through the public entry points of jnt.h (compile.c).
 */
#ifndef JNT_COMPILE_H
#define JNT_COMPILE_H

#include <stddef.h>
#include <stdio.h>
#include "front/diag.h"
#include "jnt/jnt.h"

/* Compile C text in memory with libtcc and wrap its jnt_generated_model with
 * the model data, which the model takes over (freed with it, also on
 * failure). Compiler messages go to `diag`. Returns JNT_OK, JNT_ERR_JIT or JNT_ERR_NOMEM.
 * Allocates nothing through alloc.h. */
int jit_compile(const char *csrc, double *data, FILE *diag, jnt_model **out);

/* tcc's shared object of C text (TCC_OUTPUT_DLL, needing the process's libm), for the
 * compile cache: 0 and its bytes (malloc'd, the caller frees), or -1 (nothing printed;
 * jit_compile reports what does not compile). */
int jit_build_so(const char *csrc, char **so, size_t *nso);

/* Load a shared object of jit_build_so's (its nso bytes) with the dynamic loader and wrap
 * its jnt_generated_model with the model data as jit_compile does: -1 when it cannot be
 * loaded (the data stays the caller's), else JNT_OK or a status with the data taken over
 * (freed with the model, or on failure). */
int jit_load_so(const char *so, size_t nso, double *data, FILE *diag, jnt_model **out);

/* Counters of this process (for tests): models compiled by tcc in memory (jit_compile)
 * and loaded from a shared object (jit_load_so). */
void jit_counts(long *memory, long *loaded);

/* jnt_translate_file on a source string named `name` (the fuzzing harness,
 * fuzz/fuzz_compile.c): parse, sema, derivatives and C text, no C compiler.
 * *csrc, *data (malloc'd, the caller frees) as jnt_translate_file. */
int compile_translate_string(const char *name, const char *text, const jnt_compile_opts *opts,
                             char **csrc, double **data, long *ndata);

#endif
