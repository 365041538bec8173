/*
 * test_lex.c: the tokenizer (grammar/lexer.re): token kinds, numbers and the
 * units attached to them, keywords, comments, lexical error messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "front/diag.h"
#include "front/lex.h"
#include "parser.h"

static char errs[4096];

/* Tokenize src and describe the tokens, space-separated: numbers as
 * #value or #value[unit], names as $name, everything else by its text.
 * Diagnostics go to errs. */
static const char *toks(const char *src)
{
    static char out[4096];
    FILE *mem = fmemopen(errs, sizeof errs, "w");
    diag_ctx dc;
    diag_init(&dc, mem, 0);
    int f = diag_add_source(&dc, "t.jnt", strdup(src), strlen(src));
    lex_state L;
    lex_init(&L, &dc, f);
    size_t len = 0;
    out[0] = '\0';
    for (;;) {
        lex_token t;
        lex_next(&L, &t);
        if (t.code == 0)
            break;
        const char *s = src + t.off;
        char buf[256];
        if (t.code == TK_NUM && t.unit >= 0)
            snprintf(buf, sizeof buf, "#%g[%.*s]", t.num, t.unitend - t.unit, src + t.unit);
        else if (t.code == TK_NUM)
            snprintf(buf, sizeof buf, "#%g", t.num);
        else if (t.code == TK_ID)
            snprintf(buf, sizeof buf, "$%.*s", t.end - t.off, s);
        else
            snprintf(buf, sizeof buf, "%.*s", t.end - t.off, s);
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%s", len ? " " : "", buf);
    }
    fclose(mem);
    diag_free(&dc);
    return out;
}

/* s on one line: newlines, tabs and control bytes escaped (rotating buffers). */
static const char *esc(const char *s)
{
    static char buf[4][1024];
    static int k;
    char *o = buf[k = (k + 1) % 4];
    size_t n = 0;
    for (; *s && n < sizeof buf[0] - 5; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n')
            n += (size_t)sprintf(o + n, "\\n");
        else if (c < 0x20)
            n += (size_t)sprintf(o + n, "\\x%02x", c);
        else
            o[n++] = (char)c;
    }
    o[n] = '\0';
    return o;
}

#define TOKS(src, want)                                                         \
    do {                                                                        \
        const char *got_ = toks(src);                                           \
        CHECK(strcmp(got_, want) == 0, "lex '%s' -> %s (got %s)", esc(src),     \
              want, got_);                                                      \
    } while (0)

#define ERRS(src, want)                                                         \
    do {                                                                        \
        toks(src);                                                              \
        CHECK(strcmp(errs, want) == 0, "lex error message for '%s'", esc(src)); \
        if (strcmp(errs, want) != 0)                                            \
            printf("  got:  %s\n  want: %s\n", esc(errs), esc(want));           \
    } while (0)

int main(void)
{
    (void)test_out;
    /* units attached to numbers (the examples of the design) */
    TOKS("9.81 m/s^2", "#9.81[m/s^2]");
    TOKS("5e6 N/m", "#5e+06[N/m]");
    TOKS("3192.75 N*s/m", "#3192.75[N*s/m]");
    TOKS("40 /s", "#40[/s]");
    TOKS("1 mm/s", "#1[mm/s]");
    TOKS("0.3ms", "#0.3[ms]");
    TOKS("1 s^-1", "#1[s^-1]");
    TOKS("2.38 GPa", "#2.38[GPa]");
    TOKS("1200 kg/m^3", "#1200[kg/m^3]");
    TOKS("10 \xc2\xb5s", "#10[\xc2\xb5s]");
    TOKS("1\tkg", "#1[kg]");
    TOKS("1 m^2.5", "#1[m^2.5]");
    TOKS("1/m", "#1 / $m"); /* a division: m may be a mass; `1 /m` is the unit */
    TOKS("1 /m", "#1[/m]");
    TOKS("sqrt(2) N*s/m", "$sqrt ( #2 ) N*s/m");
    TOKS("(a) /s", "( $a ) / $s");
    TOKS("f(x) then", "$f ( $x ) then");
    TOKS("f(x) y = 1", "$f ( $x ) $y = #1");
    /* not units */
    TOKS("0.6 * m", "#0.6 * $m");
    TOKS("x < 0 then", "$x < #0 then");
    TOKS("40 / s", "#40 / $s");
    TOKS("1\nm", "#1 $m");
    TOKS("2 x1", "#2 $x1");
    TOKS("2 v_s", "#2 $v_s");
    TOKS("2 mu = 3", "#2 $mu = #3");
    TOKS("2 m == 3", "#2[m] == #3");
    TOKS("0.2 N * sin(x)", "#0.2[N] * $sin ( $x )");
    TOKS("2 m^x", "#2[m] ^ $x");
    TOKS("1 and 2 or 3", "#1 and #2 or #3");
    /* numbers and dots */
    TOKS("1..n", "#1 .. $n");
    TOKS(".5", "#0.5");
    TOKS("12 1.5 5e6 1.2e-3 1E+2", "#12 #1.5 #5e+06 #0.0012 #100");
    TOKS("1.x", "#1 . $x");
    TOKS("a.b.c", "$a . $b . $c");
    /* punctuation, keywords, names */
    TOKS("( ) [ ] { } , ; : . .. = == != < <= > >= + - * / ^",
         "( ) [ ] { } , ; : . .. = == != < <= > >= + - * / ^");
    TOKS("model import const param let ground body dof spring damper",
         "model import const param let ground body dof spring damper");
    TOKS("friction contact force law state discrete der update init simulate",
         "friction contact force law state discrete der update init simulate");
    TOKS("output every between and on in if then else or not",
         "output every between and on in if then else or not");
    TOKS("models _x x_1 Force", "$models $_x $x_1 $Force");
    TOKS("\"a b.csv\" x", "\"a b.csv\" $x");
    /* comments and white space */
    TOKS("a // comment\nb /* c\n d */ c", "$a $b $c");
    TOKS("a /* ** / */ b", "$a $b");
    TOKS("", "");
    TOKS("  \r\n\t", "");

    /* lexical errors: exact messages, scanning continues */
    ERRS("x = 1 @ 2", "t.jnt:1:7: error: invalid character '@'\n  x = 1 @ 2\n        ^\n");
    ERRS("a\n  \"abc\nb",
         "t.jnt:2:3: error: unterminated string\n    \"abc\n    ^\n");
    ERRS("a /* b", "t.jnt:1:3: error: unterminated comment\n  a /* b\n    ^\n");
    ERRS("x = 1e", "t.jnt:1:5: error: malformed number '1e'\n  x = 1e\n      ^\n");
    ERRS("x = 2.5E-", "t.jnt:1:5: error: malformed number '2.5E-'\n  x = 2.5E-\n      ^\n");
    ERRS("\xc2\xb5", "t.jnt:1:1: error: invalid character '\xc2\xb5'\n  \xc2\xb5\n  ^\n");
    ERRS("a\x01", "t.jnt:1:2: error: invalid character '\\x01'\n  a\x01\n   ^\n");
    ERRS("a $ b # c",
         "t.jnt:1:3: error: invalid character '$'\n  a $ b # c\n    ^\n"
         "t.jnt:1:7: error: invalid character '#'\n  a $ b # c\n        ^\n");
    TOKS("a $ b", "$a $b");

    /* token descriptions used in messages */
    CHECK(strcmp(lex_token_desc(TK_ASSIGN), "'='") == 0, "desc '='");
    CHECK(strcmp(lex_token_desc(TK_SIMULATE), "'simulate'") == 0, "desc 'simulate'");
    CHECK(strcmp(lex_token_desc(TK_ID), "a name") == 0, "desc name");
    CHECK(strcmp(lex_token_desc(0), "end of file") == 0, "desc eof");
    CHECK(lex_keyword("then", 4) == TK_THEN && lex_keyword("thenx", 5) == 0, "lex_keyword");

    /* offsets: a number's end includes its unit */
    {
        diag_ctx dc;
        diag_init(&dc, stderr, 0);
        const char *src = "g = 9.81 m/s^2;";
        int f = diag_add_source(&dc, "t.jnt", strdup(src), strlen(src));
        lex_state L;
        lex_token t;
        lex_init(&L, &dc, f);
        lex_next(&L, &t);
        lex_next(&L, &t);
        lex_next(&L, &t);
        CHECK(t.code == TK_NUM && t.off == 4 && t.end == 14 && t.unit == 9 &&
              t.unitend == 14, "NUM offsets %d %d %d %d", t.off, t.end, t.unit, t.unitend);
        lex_next(&L, &t);
        CHECK(t.code == TK_SEMI && t.off == 14, "';' after the unit");
        lex_next(&L, &t);
        CHECK(t.code == 0 && t.off == 15, "end of file at the end");
        lex_next(&L, &t);
        CHECK(t.code == 0, "end of file stays");
        diag_free(&dc);
    }
    return check_done();
}
