/*
 * lexer.re: the tokenizer of .jnt sources (re2c; see compiler/front/lex.h).
 *
 * The text ends with a NUL that serves as re2c's sentinel. Numbers may carry
 * a unit written after them on the same line (`9.81 m/s^2`, `0.3ms`,
 * `40 /s`): the unit's text is kept with the NUM token and checked by sema.
 * A unit after a closing parenthesis (`sqrt(1e5) N*s/m`) is a UNIT token,
 * which the grammar reads as a product with 1 unit.
 * Keywords are scanned as identifiers and looked up in one table, which also
 * serves the unit rule (`x < 0 then`: `then` is no unit) and messages.
 */
#include "front/lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "front/alloc.h"

/*!re2c
    re2c:define:YYCTYPE = "unsigned char";
    re2c:yyfill:enable = 0;
    re2c:indent:string = "    ";

    digits  = [0-9]+;
    mant    = digits ("." digits)? | "." digits;
    expo    = [eE] [+-]? digits;
    ident   = [A-Za-z_][A-Za-z0-9_]*;
    uletter = [A-Za-z] | "\xc2\xb5";
    uword   = uletter+;
    upow    = "^" "-"? digits ("." digits)?;
    ufactor = uword upow?;
*/

/* Keywords with their token codes (sorted only for reading). */
static const struct keyword {
    const char *s;
    int code;
} keywords[] = {
    {"analysis", TK_ANALYSIS}, {"and", TK_AND},         {"between", TK_BETWEEN}, {"body", TK_BODY},
    {"const", TK_CONST},     {"contact", TK_CONTACT}, {"damper", TK_DAMPER},
    {"der", TK_DER},         {"discrete", TK_DISCRETE}, {"dof", TK_DOF},
    {"else", TK_ELSE},       {"every", TK_EVERY},     {"force", TK_FORCE},
    {"friction", TK_FRICTION}, {"ground", TK_GROUND}, {"if", TK_IF},
    {"import", TK_IMPORT},   {"joint", TK_JOINT},     {"marker", TK_MARKER},   {"integral", TK_INTEGRAL},   {"interface", TK_INTERFACE},   {"in", TK_IN},           {"init", TK_INIT},
    {"law", TK_LAW},         {"let", TK_LET},         {"model", TK_MODEL},
    {"motion", TK_MOTION},
    {"not", TK_NOT},         {"on", TK_ON},           {"or", TK_OR},
    {"output", TK_OUTPUT},   {"param", TK_PARAM},     {"point", TK_POINT},
    {"simulate", TK_SIMULATE},
    {"spring", TK_SPRING},   {"summary", TK_SUMMARY},   {"substructure", TK_SUBSTRUCTURE},   {"state", TK_STATE},     {"then", TK_THEN},
    {"update", TK_UPDATE},
};

/* Punctuation spellings, indexed by token code. */
static const struct punct {
    int code;
    const char *desc;
} puncts[] = {
    {TK_LPAREN, "'('"},  {TK_RPAREN, "')'"}, {TK_LBRACKET, "'['"}, {TK_RBRACKET, "']'"},
    {TK_LBRACE, "'{'"},  {TK_RBRACE, "'}'"}, {TK_COMMA, "','"},    {TK_SEMI, "';'"},
    {TK_COLON, "':'"},   {TK_DOT, "'.'"},    {TK_DOTDOT, "'..'"},  {TK_ASSIGN, "'='"},
    {TK_EQ, "'=='"},     {TK_NE, "'!='"},    {TK_LT, "'<'"},       {TK_LE, "'<='"},
    {TK_GT, "'>'"},      {TK_GE, "'>='"},    {TK_PLUS, "'+'"},     {TK_MINUS, "'-'"},
    {TK_STAR, "'*'"},    {TK_SLASH, "'/'"},  {TK_CARET, "'^'"},
};

/* The keyword spelled by s[0..len) as a TK_* code, or 0. */
int lex_keyword(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (strlen(keywords[i].s) == len && memcmp(keywords[i].s, s, len) == 0)
            return keywords[i].code;
    return 0;
}

/* How token code is shown in messages (see lex.h). */
const char *lex_token_desc(int code)
{
    static char quoted[sizeof keywords / sizeof *keywords][16];
    switch (code) {
    case 0: return "end of file";
    case TK_ID: return "a name";
    case TK_NUM: return "a number";
    case TK_STRING: return "a string";
    case TK_UNIT: return "a unit";
    }
    for (size_t i = 0; i < sizeof puncts / sizeof *puncts; i++)
        if (puncts[i].code == code)
            return puncts[i].desc;
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (keywords[i].code == code) {
            if (!quoted[i][0])
                snprintf(quoted[i], sizeof quoted[i], "'%s'", keywords[i].s);
            return quoted[i];
        }
    return "a token";
}

/* Start scanning file. */
void lex_init(lex_state *L, diag_ctx *dc, int file)
{
    L->dc = dc;
    L->file = file;
    L->src = dc->srcs[file].text;
    L->cur = L->src;
    L->lim = L->src + dc->srcs[file].len;
    L->nerr = 0;
    L->after_rparen = 0;
}

/* Report a lexical error at byte p. */
static void lex_error(lex_state *L, const char *p, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void lex_error(lex_state *L, const char *p, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(L->dc, (jnt_loc){L->file, (int)(p - L->src)}, "%s", msg);
    L->nerr++;
}

/* Where a unit expression (`m/s^2`, `N*s/m`, `/s`) starting at p ends, or
 * NULL when there is none. A leading '/' must be followed by a letter. */
static const char *scan_unit(const char *p)
{
    const unsigned char *YYCURSOR = (const unsigned char *)p, *YYMARKER;
    /*!re2c
        ufactor (("*" | "/") ufactor)*       { return (const char *)YYCURSOR; }
        "/" ufactor (("*" | "/") ufactor)*   { return (const char *)YYCURSOR; }
        *                             { return NULL; }
    */
}

/* A unit written at p after optional blanks (see the file comment): its
 * start in *start and its end returned, or NULL. A '/'-led unit (`40 /s`)
 * counts only when slash is set (after numbers, not after ')'). */
static const char *unit_at(const char *p, int slash, const char **start)
{
    const char *u = p;
    while (*u == ' ' || *u == '\t')
        u++;
    /* a unit led by '/' needs a space before it: `40 /s` is 40 per second,
     * `1/m` and `40 / s` are divisions (m may well be a mass) */
    if (*u == '/' && (!slash || u == p))
        return NULL;
    const char *e = scan_unit(u);
    if (!e)
        return NULL;
    /* a unit glued to a longer identifier (`2 x1`, `3 v_s`) is a name */
    unsigned char c = (unsigned char)*e;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
        return NULL;
    if (*u != '/') {
        const char *w = u;
        while (w < e && strchr("*/^", *w) == NULL)
            w++;
        /* a keyword is never a unit: `x < 0 then` */
        if (lex_keyword(u, (size_t)(w - u)))
            return NULL;
        /* neither is a name about to be assigned: `normal = 2  mu = 0.3` */
        if (w == e) {
            const char *q = e;
            while (*q == ' ' || *q == '\t')
                q++;
            if (q[0] == '=' && q[1] != '=')
                return NULL;
        }
    }
    *start = u;
    return e;
}

/* Convert the number text [p, e) (no unit) to t->num. */
static void number_value(lex_token *t, const char *p, const char *e)
{
    char buf[64];
    size_t n = (size_t)(e - p);
    if (n >= sizeof buf) {
        char *big = xmalloc(n + 1); /* out of memory: to the recovery point (alloc.h) */
        memcpy(big, p, n);
        big[n] = '\0';
        t->num = strtod(big, NULL);
        free(big);
        return;
    }
    memcpy(buf, p, n);
    buf[n] = '\0';
    t->num = strtod(buf, NULL);
}

/* Report an invalid byte at p (a whole UTF-8 character when it is one);
 * return the byte after it. */
static const char *invalid_char(lex_state *L, const char *p)
{
    unsigned char c = (unsigned char)*p;
    int n = 1;
    if (c >= 0xc2 && c <= 0xf4) {
        int want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        while (n < want && ((unsigned char)p[n] & 0xc0) == 0x80)
            n++;
        if (n < want)
            n = 1;
    }
    if (n > 1 || (c > 0x20 && c < 0x7f)) {
        lex_error(L, p, "invalid character '%.*s'", n, p);
    } else {
        lex_error(L, p, "invalid character '\\x%02x'", c);
    }
    return p + n;
}

/* Scan the next token (see lex.h). */
void lex_next(lex_state *L, lex_token *t)
{
    const unsigned char *YYCURSOR, *YYMARKER, *tok;
    t->unit = t->unitend = -1;
    t->num = 0;
    /* a unit after ')' is a token of its own: `sqrt(1e5) N*s/m` */
    if (L->after_rparen) {
        const char *u, *ue = unit_at(L->cur, 0, &u);
        L->after_rparen = 0;
        if (ue) {
            t->code = TK_UNIT;
            t->num = 1;
            t->off = t->unit = (int)(u - L->src);
            t->end = t->unitend = (int)(ue - L->src);
            L->cur = ue;
            return;
        }
    }
    for (;;) {
        tok = (const unsigned char *)L->cur;
        YYCURSOR = tok;
        t->off = (int)((const char *)tok - L->src);
#define TOKEN(c)                                                   \
    do {                                                           \
        t->code = (c);                                             \
        L->cur = (const char *)YYCURSOR;                           \
        t->end = (int)(L->cur - L->src);                           \
        return;                                                    \
    } while (0)
        /*!re2c
            "\x00" {
                if ((const char *)tok == L->lim) {
                    L->cur = (const char *)tok;
                    t->code = 0;
                    t->end = t->off;
                    return;
                }
                L->cur = invalid_char(L, (const char *)tok);
                continue;
            }
            [ \t\r\n\f\v]+       { L->cur = (const char *)YYCURSOR; continue; }
            "//" [^\n\x00]*      { L->cur = (const char *)YYCURSOR; continue; }
            "/*" {
                const char *end = strstr((const char *)YYCURSOR, "*" "/");
                if (!end) {
                    lex_error(L, (const char *)tok, "unterminated comment");
                    L->cur = L->lim;
                    continue;
                }
                L->cur = end + 2;
                continue;
            }
            ["] [^"\n\x00]* ["]  { TOKEN(TK_STRING); }
            ["] [^"\n\x00]* {
                lex_error(L, (const char *)tok, "unterminated string");
                TOKEN(TK_STRING);
            }
            mant expo? {
                const char *e = (const char *)YYCURSOR;
                t->code = TK_NUM;
                t->end = (int)(e - L->src);
                number_value(t, (const char *)tok, e);
                const char *u, *ue = unit_at(e, 1, &u);
                if (ue) {
                    t->unit = (int)(u - L->src);
                    t->unitend = t->end = (int)(ue - L->src);
                    e = ue;
                }
                L->cur = e;
                return;
            }
            mant [eE] [+-]? {
                lex_error(L, (const char *)tok, "malformed number '%.*s'",
                          (int)(YYCURSOR - tok), (const char *)tok);
                t->code = TK_NUM;
                L->cur = (const char *)YYCURSOR;
                t->end = (int)(L->cur - L->src);
                return;
            }
            ident {
                int kw = lex_keyword((const char *)tok, (size_t)(YYCURSOR - tok));
                TOKEN(kw ? kw : TK_ID);
            }
            "("  { TOKEN(TK_LPAREN); }
            ")"  { L->after_rparen = 1; TOKEN(TK_RPAREN); }
            "["  { TOKEN(TK_LBRACKET); }
            "]"  { TOKEN(TK_RBRACKET); }
            "{"  { TOKEN(TK_LBRACE); }
            "}"  { TOKEN(TK_RBRACE); }
            ","  { TOKEN(TK_COMMA); }
            ";"  { TOKEN(TK_SEMI); }
            ":"  { TOKEN(TK_COLON); }
            "."  { TOKEN(TK_DOT); }
            ".." { TOKEN(TK_DOTDOT); }
            "="  { TOKEN(TK_ASSIGN); }
            "==" { TOKEN(TK_EQ); }
            "!=" { TOKEN(TK_NE); }
            "<"  { TOKEN(TK_LT); }
            "<=" { TOKEN(TK_LE); }
            ">"  { TOKEN(TK_GT); }
            ">=" { TOKEN(TK_GE); }
            "+"  { TOKEN(TK_PLUS); }
            "-"  { TOKEN(TK_MINUS); }
            "*"  { TOKEN(TK_STAR); }
            "/"  { TOKEN(TK_SLASH); }
            "^"  { TOKEN(TK_CARET); }
            *    { L->cur = invalid_char(L, (const char *)tok); continue; }
        */
#undef TOKEN
    }
}
