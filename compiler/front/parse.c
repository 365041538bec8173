/*
 * parse.c: the parser driver (parse.h) and its syntax-error messages.
 *
 * The whole file is tokenized first, so that every lexical error is reported
 * and nothing is parsed from a file that has one. Tokens are then fed to the
 * Lemon parser (grammar/parser.y) one by one; the driver keeps the stack of
 * open brackets to report unmatched ones the way Lua does:
 *
 *   '}' expected (to close '{' of 'simulate' at line 12)
 *   ')' expected (to close '(' at line 3), found '}'
 *
 * Before each token the parser's state stack is copied, so that on a syntax
 * error the set of tokens it would have accepted can be computed exactly
 * (parse_expected) and named: "expected '=' after 'param x', found 'kg'".
 * Parsing stops at the first syntax error.
 */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "jnt/jnt.h"
#include "parse_ctx.h"
#include "parser.h"

/* Lemon's entry points (%name parse_lemon in grammar/parser.y). */
void *parse_lemonAlloc(void *(*alloc)(size_t));
void parse_lemonFree(void *p, void (*dealloc)(void *));
void parse_lemon(void *p, int major, const lex_token *minor, parse_ctx *pc);

/* One parse and what it owns until it returns: freed by release_job, also when the
 * allocation family fails midway (alloc_guard). */
typedef struct parse_job {
    parse_ctx pc;
    lex_token *toks; /* pc.toks, writable */
    int captok;
    void *lemon;     /* the Lemon parser */
    ast *result;
} parse_job;

/* Tokenize pc.file into j->toks (ending with the end-of-file token): the token count in
 * pc.ntok; returns the number of lexical errors. */
static int tokenize(parse_job *j)
{
    lex_state L;
    lex_init(&L, j->pc.dc, j->pc.file);
    do {
        XGROW(j->toks, j->captok, j->pc.ntok);
        j->pc.toks = j->toks;
        lex_next(&L, &j->toks[j->pc.ntok]);
    } while (j->toks[j->pc.ntok++].code != 0);
    return L.nerr;
}

/* ---- messages ---------------------------------------------------------------- */

static void unclosed(parse_ctx *pc, const parse_open *ob, const lex_token *found);

/* Where "end of file" is shown: just after the last token. */
static jnt_loc eof_loc(const parse_ctx *pc)
{
    return (jnt_loc){pc->file, pc->ntok > 1 ? pc->toks[pc->ntok - 2].end : 0};
}

/* The source text of token t, quoted and shortened for a message, in buf. */
static const char *quote(const parse_ctx *pc, const lex_token *t, char *buf, size_t size)
{
    if (t->code == 0)
        return "end of file";
    int n = t->end - t->off;
    if (n > 24)
        snprintf(buf, size, "'%.21s...'", pc->src + t->off);
    else
        snprintf(buf, size, "'%.*s'", n, pc->src + t->off);
    return buf;
}

/* Whether code is a keyword token. */
static int is_keyword(int code)
{
    return code >= TK_MODEL && code <= TK_NOT;
}

/* Whether code starts a declaration that never appears inside a block. */
static int block_start(int code)
{
    switch (code) {
    case TK_MODEL: case TK_IMPORT: case TK_CONST: case TK_PARAM: case TK_GROUND:
    case TK_BODY: case TK_SPRING: case TK_DAMPER: case TK_LAW: case TK_INIT:
    case TK_SIMULATE: case TK_OUTPUT: case TK_SUMMARY:
        return 1;
    default:
        return 0;
    }
}

/* Count the tokens of group marked in ok. */
static int count(const unsigned char *ok, const int *group, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += ok[group[i]];
    return c;
}

/* Unmark the tokens of group. */
static void clear(unsigned char *ok, const int *group, int n)
{
    for (int i = 0; i < n; i++)
        ok[group[i]] = 0;
}

#define N(a) ((int)(sizeof a / sizeof *a))

/*
 * Describe the expected tokens ok[0..ntok) as a short list in items[]:
 * token sets that stand for a construct are named by it ("an expression",
 * "an operator", "a declaration"). Returns the number of items.
 */
static int describe_expected(unsigned char *ok, int ntok, const char **items)
{
    static const int expr_start[] = {TK_ID, TK_NUM, TK_STRING, TK_LPAREN, TK_MINUS,
                                     TK_PLUS, TK_NOT, TK_IF, TK_DER, TK_LBRACE};
    static const int ops[] = {TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_CARET, TK_LT,
                              TK_LE, TK_GT, TK_GE, TK_EQ, TK_NE, TK_AND, TK_OR,
                              TK_DOT, TK_LBRACKET, TK_LPAREN, TK_UNIT};
    static const int decls[] = {TK_IMPORT, TK_CONST, TK_PARAM, TK_LET, TK_GROUND,
                                TK_BODY, TK_SPRING, TK_DAMPER, TK_FRICTION, TK_CONTACT,
                                TK_FORCE, TK_MOTION, TK_INTEGRAL, TK_ANALYSIS,
                                TK_SUBSTRUCTURE, TK_POINT, TK_INTERFACE, TK_JOINT, TK_LAW, TK_INIT,
                                TK_SIMULATE, TK_OUTPUT, TK_SUMMARY};
    static const int stmts[] = {TK_LET, TK_STATE, TK_DER, TK_UPDATE, TK_ID};
    int n = 0, eof = ok[0], decl = 0;
    ok[0] = 0;
    ok[TK_UNIT] = 0; /* the lexer makes one only after ')': never worth naming */
    if (ok[TK_ID] && ok[TK_NUM]) {
        items[n++] = "an expression";
        clear(ok, expr_start, N(expr_start));
    }
    if (count(ok, ops, N(ops)) >= 4) {
        items[n++] = "an operator";
        clear(ok, ops, N(ops));
    }
    if (count(ok, stmts, N(stmts)) == N(stmts)) {
        items[n++] = "a statement";
        clear(ok, stmts, N(stmts));
    }
    if (count(ok, decls, N(decls)) >= 4) {
        decl = 1;
        clear(ok, decls, N(decls));
    }
    for (int t = 1; t < ntok; t++)
        if (ok[t])
            items[n++] = lex_token_desc(t);
    if (decl)
        items[n++] = "a declaration";
    if (eof)
        items[n++] = lex_token_desc(0);
    return n;
}

/* Join items as "a, b, c" into buf. */
static void join(const char **items, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", items[i]);
}

/* The syntax error at token tok (see the file comment for the forms). */
void parse_syntax_error(parse_ctx *pc, int major, const lex_token *tok)
{
    unsigned char ok[PARSE_MAXTOK] = {0};
    const char *items[PARSE_MAXTOK + 4];
    char list[1024], found[48], ctx[64];
    int ntok = parse_expected(pc, ok);
    int ok_rbrace = ok[TK_RBRACE], ok_ops = ok[TK_PLUS] && ok[TK_STAR];
    int ok_decl = ok[TK_PARAM] && ok[TK_SIMULATE];
    int n = describe_expected(ok, ntok, items);
    join(items, n, list, sizeof list);
    pc->failed = 1;

    if (major == 0) {
        jnt_loc loc = eof_loc(pc);
        if (n == 0)
            diag_error(pc->dc, loc, "unexpected end of file");
        else
            diag_error(pc->dc, loc, "unexpected end of file; expected %s%s",
                       n > 1 ? "one of: " : "", list);
        return;
    }
    jnt_loc loc = {pc->file, tok->off};
    quote(pc, tok, found, sizeof found);
    /* a declaration where its block could have ended: the '}' is missing */
    if (pc->nopen > 0 && pc->open[pc->nopen - 1].opener >= 0 && ok_rbrace &&
        block_start(tok->code)) {
        unclosed(pc, &pc->open[pc->nopen - 1], tok);
        return;
    }
    if (tok->code >= TK_EQ && tok->code <= TK_GE && ok_ops) {
        diag_error(pc->dc, loc, "unexpected %s: comparisons do not chain (write "
                   "'a < b and b < c')", found);
        return;
    }
    /* a misspelt declaration keyword: 'pram' */
    if (ok_decl && tok->code == TK_ID) {
        static const char *const kws[] = {"import", "const", "param", "let", "ground",
                                          "body", "spring", "damper", "friction", "contact",
                                          "force", "motion", "integral", "analysis",
                                          "substructure", "point", "interface", "law", "init",
                                          "simulate", "output", "summary"};
        char name[64];
        snprintf(name, sizeof name, "%.*s", tok->end - tok->off, pc->src + tok->off);
        const char *kw = jnt_closest_name(name, kws, N(kws));
        if (kw) {
            diag_error(pc->dc, loc, "unexpected %s; did you mean '%s'?", found, kw);
            return;
        }
    }
    if (n == 1 && pc->cur > 0) {
        /* name what came before: the previous token, with its keyword for a
         * declared name ('param x') */
        const lex_token *prev = &pc->toks[pc->cur - 1];
        int from = prev->off;
        if (prev->code == TK_ID && pc->cur > 1 && is_keyword(pc->toks[pc->cur - 2].code))
            from = pc->toks[pc->cur - 2].off;
        lex_token span = *prev;
        span.off = from;
        quote(pc, &span, ctx, sizeof ctx);
        diag_error(pc->dc, loc, "expected %s after %s, found %s", list, ctx, found);
    } else if (n == 1) {
        diag_error(pc->dc, loc, "expected %s, found %s", list, found);
    } else if (n == 0) {
        diag_error(pc->dc, loc, "unexpected %s", found);
    } else {
        diag_error(pc->dc, loc, "unexpected %s; expected one of: %s", found, list);
    }
}

/* ---- brackets ---------------------------------------------------------------- */

/* The closing bracket matching opening bracket code, or 0 for other tokens. */
static int closer_of(int code)
{
    switch (code) {
    case TK_LPAREN: return TK_RPAREN;
    case TK_LBRACKET: return TK_RBRACKET;
    case TK_LBRACE: return TK_RBRACE;
    default: return 0;
    }
}

/* Report that ob is not closed: at found (a mismatched closer) or at end of file. */
static void unclosed(parse_ctx *pc, const parse_open *ob, const lex_token *found)
{
    const lex_token *o = &pc->toks[ob->tok];
    int line, col;
    diag_linecol(pc->dc, (jnt_loc){pc->file, o->off}, &line, &col);
    char of[48] = "", what[48];
    if (ob->opener >= 0) {
        const lex_token *k = &pc->toks[ob->opener];
        snprintf(of, sizeof of, " of '%.*s'", k->end - k->off, pc->src + k->off);
    }
    const char *want = lex_token_desc(closer_of(o->code));
    const char *open = lex_token_desc(o->code);
    if (found->code == 0)
        diag_error(pc->dc, eof_loc(pc), "%s expected (to close %s%s at line %d)", want, open,
                   of, line);
    else
        diag_error(pc->dc, (jnt_loc){pc->file, found->off},
                   "%s expected (to close %s%s at line %d), found %s", want, open, of, line,
                   quote(pc, found, what, sizeof what));
    pc->failed = 1;
}

/* ---- driver ------------------------------------------------------------------ */

/* Feed the tokens to the parser (see the file comment); j->result is the tree or NULL. */
static void run(void *arg)
{
    parse_job *j = arg;
    parse_ctx *pc = &j->pc;
    if (tokenize(j))
        return;
    const lex_token *toks = j->toks;
    pc->root = ast_new(pc->arena, AST_MODEL, (jnt_loc){pc->file, 0});
    pc->root->end = (jnt_loc){pc->file, (int)pc->dc->srcs[pc->file].len};

    void *p = j->lemon = parse_lemonAlloc(xmalloc);
    for (int i = 0; i < pc->ntok && !pc->failed; i++) {
        const lex_token *t = &toks[i];
        pc->cur = i;
        /* unmatched brackets are reported before the parser sees the token */
        if (t->code == 0 && pc->nopen > 0) {
            unclosed(pc, &pc->open[pc->nopen - 1], t);
            break;
        }
        if ((t->code == TK_RPAREN || t->code == TK_RBRACKET || t->code == TK_RBRACE) &&
            pc->nopen > 0 && closer_of(toks[pc->open[pc->nopen - 1].tok].code) != t->code) {
            unclosed(pc, &pc->open[pc->nopen - 1], t);
            break;
        }
        parse_snapshot(p, pc);
        parse_lemon(p, t->code, t, pc);
        if (closer_of(t->code)) {
            XGROW(pc->open, pc->capopen, pc->nopen);
            int opener = -1;
            if (t->code == TK_LBRACE && pc->nopen == 0 && is_keyword(toks[pc->decl_start].code))
                opener = pc->decl_start;
            pc->open[pc->nopen++] = (parse_open){i, opener};
        } else if (pc->nopen > 0 && (t->code == TK_RPAREN || t->code == TK_RBRACKET ||
                                     t->code == TK_RBRACE)) {
            pc->nopen--;
        }
    }
    j->result = pc->failed ? NULL : pc->root;
}

/* Free the parser, the tokens and the driver's stacks (the tree stays in the arena). */
static void release_job(void *arg)
{
    parse_job *j = arg;
    parse_lemonFree(j->lemon, free);
    free(j->pc.open);
    free(j->pc.snap);
    free(j->toks);
}

/* Parse the source registered as file (see parse.h). */
ast *parse_source(diag_ctx *dc, ast_arena *a, int file)
{
    parse_job j = {.pc = {.dc = dc, .arena = a, .file = file, .src = dc->srcs[file].text}};
    alloc_guard(run, &j, release_job);
    return j.result;
}
