/*
 * sema.h: semantic analysis and lowering of a parsed model to the flat IR.
 */
#ifndef JNT_SEMA_H
#define JNT_SEMA_H

#include "ast.h"
#include "diag.h"
#include "ir.h"

/* Check the model parsed from source `file` (imports are read and parsed
 * here), report every error through dc (up to its cap), and fill *out.
 * Returns 0 when there were no errors; *out is valid (and must be freed with
 * ir_free) either way. */
int sema_lower(diag_ctx *dc, ast_arena *arena, const ast *model, int file, ir_model *out);

/* Directory of the standard library (.jnt law files): $JNT_STDLIB, else the
 * source tree's stdlib/. */
const char *sema_stdlib_dir(void);

#endif
