/*
 * parse.h: the parser's entry point (lexer + Lemon grammar + tree building).
 */
#ifndef JNT_PARSE_H
#define JNT_PARSE_H

#include "ast.h"
#include "diag.h"

/*
 * Parse the source registered as `file` in dc into nodes of arena a.
 * Returns the AST_MODEL node (owned by a), or NULL when the source has
 * lexical or syntax errors; every error is reported through dc. Lexical
 * errors are all reported; parsing stops at the first syntax error.
 */
ast *parse_source(diag_ctx *dc, ast_arena *a, int file);

#endif
