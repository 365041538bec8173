/*
 * parse_ctx.h: what grammar/parser.y shares with parse.c (the driver and
 * syntax-error messages) and parse_build.c (the node builders its actions
 * call). Not for the rest of the compiler: use parse.h.
 */
#ifndef JNT_PARSE_CTX_H
#define JNT_PARSE_CTX_H

#include "ast.h"
#include "diag.h"
#include "lex.h"

enum { PARSE_MAXTOK = 128 }; /* more than the grammar's terminal count */

typedef struct parse_open {
    int tok;    /* index of an open '(', '[' or '{' */
    int opener; /* index of the keyword whose block it opens ('simulate'), or -1 */
} parse_open;

typedef struct parse_ctx {
    diag_ctx *dc;
    ast_arena *arena;
    int file;
    const char *src;         /* the source text */
    ast *root;               /* AST_MODEL, created before parsing */
    int failed;              /* a syntax error was reported */
    const lex_token *toks;   /* every token of the file, ending with code 0 */
    int ntok, cur;           /* count, index of the token being fed */
    int decl_start;          /* index of the first token of the current declaration */
    int *snap, nsnap, capsnap; /* parser state stack before the current token */
    parse_open *open;        /* brackets not closed yet, innermost last */
    int nopen, capopen;
} parse_ctx;

/* ---- defined in grammar/parser.y (they read Lemon's tables) ---------------- */

/* Copy the state stack of parser p into pc->snap. */
void parse_snapshot(void *p, parse_ctx *pc);
/* ok[t] = 1 for every terminal t the parser could shift after the snapshot,
 * ignoring %fallback (a keyword is marked only where it is a keyword).
 * Returns the number of terminals (<= PARSE_MAXTOK). */
int parse_expected(const parse_ctx *pc, unsigned char *ok);

/* ---- defined in compiler/front/parse.c -------------------------------------------- */

/* Report the syntax error at token tok (code major) using the snapshot. */
void parse_syntax_error(parse_ctx *pc, int major, const lex_token *tok);

/* ---- node builders: compiler/front/parse_build.c --------------------------------- */

void parse_decl_start(parse_ctx *pc);
void parse_add_decl(parse_ctx *pc, ast *decl);
ast *parse_list(parse_ctx *pc, ast *first);
ast *parse_num(parse_ctx *pc, const lex_token *t);
ast *parse_leaf(parse_ctx *pc, ast_kind kind, const lex_token *t);
ast *parse_string(parse_ctx *pc, const lex_token *t);
ast *parse_paren(parse_ctx *pc, const lex_token *lp, ast *x, const lex_token *rp);
ast *parse_unary(parse_ctx *pc, int op, const lex_token *optok, ast *x);
ast *parse_binary(parse_ctx *pc, int op, ast *x, ast *y);
ast *parse_if(parse_ctx *pc, const lex_token *kw, ast *c, ast *a, ast *b);
ast *parse_call(parse_ctx *pc, const lex_token *name, ast *args, const lex_token *rp);
ast *parse_der(parse_ctx *pc, const lex_token *kw, ast *x, const lex_token *rp);
ast *parse_member(parse_ctx *pc, ast *x, const lex_token *name);
ast *parse_index(parse_ctx *pc, ast *x, ast *i, const lex_token *rb);
ast *parse_unit(parse_ctx *pc, ast *x, const lex_token *unit);
ast *parse_range(parse_ctx *pc, ast *lo, ast *hi);
ast *parse_set(parse_ctx *pc, const lex_token *lb, ast *items, const lex_token *rb);
ast *parse_reduce(parse_ctx *pc, const lex_token *f, const lex_token *lp, const lex_token *name,
                  ast *dom, ast *x, const lex_token *rp);
ast *parse_iter(parse_ctx *pc, const lex_token *lb, const lex_token *name, ast *dom,
                const lex_token *rb);
void parse_model_name(parse_ctx *pc, const lex_token *kw, const lex_token *name);
ast *parse_binding(parse_ctx *pc, ast_kind kind, const lex_token *kw,
                   const lex_token *name, ast *value);
ast *parse_import(parse_ctx *pc, const lex_token *kw, const lex_token *what);
ast *parse_interface(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *a, ast *b,
                     const lex_token *type, ast *settings, const lex_token *rb);
ast *parse_point(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *iter, ast *value);
ast *parse_substructure(parse_ctx *pc, const lex_token *kw, const lex_token *name,
                        const lex_token *type, ast *args, ast *settings, const lex_token *rb);
ast *parse_tuple(parse_ctx *pc, const lex_token *lp, ast *first, ast *rest, const lex_token *rp);
ast *parse_analysis(parse_ctx *pc, const lex_token *kw, const lex_token *name,
                    const lex_token *kind, ast *args, const lex_token *rp);
ast *parse_body(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *iter,
                const lex_token *type, ast *args, ast *dofs, const lex_token *rb);
ast *parse_dofs(parse_ctx *pc, ast *list, const lex_token *name);
ast *parse_element(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *iter,
                   ast *a, ast *b, ast *settings, const lex_token *rb);
ast *parse_force(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *iter,
                 ast *target, ast *value);
ast *parse_law(parse_ctx *pc, const lex_token *kw, const lex_token *kind,
               const lex_token *name, ast *params, ast *stmts, const lex_token *rb);
ast *parse_lparam(parse_ctx *pc, const lex_token *name, ast *unit, ast *dflt);
ast *parse_state(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *unit,
                 const lex_token *discrete, ast *init);
ast *parse_dereq(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *value);
ast *parse_init(parse_ctx *pc, const lex_token *kw, ast *target, ast *value);
ast *parse_simulate(parse_ctx *pc, const lex_token *kw, ast *settings, const lex_token *rb);
ast *parse_summary(parse_ctx *pc, const lex_token *kw, ast *settings, const lex_token *rb);
ast *parse_output(parse_ctx *pc, const lex_token *kw, const lex_token *file, ast *every,
                  ast *cols, const lex_token *rb);
ast *parse_outcol(parse_ctx *pc, const lex_token *name, ast *x);

#endif
