/*
 * sema.h: semantic analysis and lowering of a parsed model to the flat IR.
 */
#ifndef JNT_SEMA_H
#define JNT_SEMA_H

#include "front/ast.h"
#include "front/diag.h"
#include "lower/ir.h"
#include "kind.h"

/* Check the model parsed from source `file` (imports are read and parsed
 * here), report every error through dc (up to its cap), and fill *out.
 * kinds: the kinds the model may use (kinds/registry.c), NULL-ended.
 * Returns 0 when there were no errors; *out is valid (and must be freed with
 * ir_free) either way. */
int sema_lower(diag_ctx *dc, ast_arena *arena, const ast *model, int file,
               const sema_kind *const *kinds, ir_model *out);

/* Directory of the standard library (.jnt law files): $JNT_STDLIB, else the
 * source tree's stdlib/. */
const char *sema_stdlib_dir(void);

/* A size limit: the environment variable env as a positive integer, else
 * fallback (JNT_MAX_ARRAY, JNT_MAX_CODE_MB: docs/language.md, "Limits"). */
long sema_limit(const char *env, long fallback);

#endif
