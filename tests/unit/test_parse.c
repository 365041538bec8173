/*
 * test_parse.c: the parser (grammar/parser.y, compiler/front/parse.c,
 * compiler/front/parse_build.c): tree shapes and locations of every construct,
 * keywords used as names, syntax-error messages, and two golden sets:
 *
 *   tests/golden/X.jnt -> X.ast   the tree as ast_dump prints it
 *   tests/errors/syntax_X.jnt -> syntax_X.err   the exact diagnostics,
 *                                 as `jnt check tests/errors/syntax_X.jnt` prints them
 *
 * JNT_UPDATE_GOLDEN=1 rewrites the .ast and syntax_*.err files instead.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "front/parse.h"

#ifndef JNT_SOURCE_DIR
#define JNT_SOURCE_DIR "."
#endif

static diag_ctx dc;
static ast_arena *arena;
static char errs[8192];

/* Parse src (as file "t.jnt"); diagnostics land in errs. */
static ast *parse(const char *src)
{
    FILE *mem = fmemopen(errs, sizeof errs, "w");
    diag_free(&dc);
    diag_init(&dc, mem, 20);
    int f = diag_add_source(&dc, "t.jnt", strdup(src), strlen(src));
    ast *m = parse_source(&dc, arena, f);
    fclose(mem);
    return m;
}

/* The only declaration of a one-declaration source (NULL if not so). */
static ast *decl1(const char *src)
{
    ast *m = parse(src);
    return m && m->nkids == 1 ? m->kids[0] : NULL;
}

/* The value of `let v = <expr>`. */
static ast *expr(const char *e)
{
    char src[512];
    snprintf(src, sizeof src, "let v = %s", e);
    ast *d = decl1(src);
    return d && d->nkids == 1 ? d->kids[0] : NULL;
}

/* The dump of n as a string (one line per node joined by single spaces). */
static const char *dumps(const ast *n)
{
    static char out[8192];
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ast_dump(n, mem, 0);
    fclose(mem);
    size_t k = 0;
    for (size_t i = 0; i < len && k < sizeof out - 1; i++) {
        if (buf[i] == '\n') {
            while (i + 1 < len && buf[i + 1] == ' ')
                i++;
            if (i + 1 < len)
                out[k++] = ' ';
        } else {
            out[k++] = buf[i];
        }
    }
    out[k] = '\0';
    free(buf);
    return out;
}

#define SHAPE(e, want)                                                          \
    do {                                                                        \
        ast *x_ = expr(e);                                                      \
        const char *got_ = x_ ? dumps(x_) : errs;                               \
        CHECK(strcmp(got_, want) == 0, "parse %s -> %s (got %s)", e, want, got_); \
    } while (0)

/* Parse src; it must fail with exactly the diagnostics want. */
#define SYNTAX(src, want)                                                       \
    do {                                                                        \
        ast *m_ = parse(src);                                                   \
        CHECK(!m_ && strcmp(errs, want) == 0, "syntax error: %.*s",             \
              (int)strcspn(want, "\n"), want);                                  \
        if (m_ || strcmp(errs, want) != 0)                                      \
            printf("  got: %s\n", errs);                                        \
    } while (0)

/* ---- shapes and locations ------------------------------------------------------ */

static void test_expressions(void)
{
    SHAPE("1 + 2 * 3", "(binary + (num 1) (binary * (num 2) (num 3)))");
    SHAPE("a - b - c", "(binary - (binary - (name a) (name b)) (name c))");
    SHAPE("a / b * c", "(binary * (binary / (name a) (name b)) (name c))");
    SHAPE("-x^2", "(unary - (binary ^ (name x) (num 2)))");
    SHAPE("x^-2", "(binary ^ (name x) (unary - (num 2)))");
    SHAPE("2^3^4", "(binary ^ (num 2) (binary ^ (num 3) (num 4)))");
    SHAPE("+a", "(unary + (name a))");
    SHAPE("not a and b or c",
          "(binary or (binary and (unary not (name a)) (name b)) (name c))");
    SHAPE("a or b and c", "(binary or (name a) (binary and (name b) (name c)))");
    SHAPE("not x < 1", "(unary not (binary < (name x) (num 1)))");
    SHAPE("a + 1 <= b * 2", "(binary <= (binary + (name a) (num 1)) (binary * (name b) (num 2)))");
    SHAPE("a == b", "(binary == (name a) (name b))");
    SHAPE("a != b", "(binary != (name a) (name b))");
    SHAPE("a >= b", "(binary >= (name a) (name b))");
    SHAPE("a > b", "(binary > (name a) (name b))");
    SHAPE("if a then b else c + d", "(if (name a) (name b) (binary + (name c) (name d)))");
    SHAPE("if a then b else if c then d else e",
          "(if (name a) (name b) (if (name c) (name d) (name e)))");
    SHAPE("(if a then b else c) * 2", "(binary * (if (name a) (name b) (name c)) (num 2))");
    SHAPE("f()", "(call f)");
    SHAPE("f(1, g(x), k = 2 N)", "(call f (num 1) (call g (name x)) (arg k (num 2 [N])))");
    SHAPE("der(z)", "(der (name z))");
    SHAPE("der(b.x) * 2", "(binary * (der (member x (name b))) (num 2))");
    SHAPE("a.b[i + 1].c", "(member c (index (member b (name a)) (binary + (name i) (num 1))))");
    SHAPE("table(\"f.csv\")", "(call table (string \"f.csv\"))");
    SHAPE("slide.force + s.state + s.law", "(binary + (binary + (member force (name slide)) "
          "(member state (name s))) (member law (name s)))");
    SHAPE("ground + output + model + dof", "(binary + (binary + (binary + (name ground) "
          "(name output)) (name model)) (name dof))");
    SHAPE("sqrt(1e5) N*s/m", "(binary * (call sqrt (num 100000)) (num 1 [N*s/m]))");
    SHAPE("(a + b) m", "(binary * (binary + (name a) (name b)) (num 1 [m]))");
    SHAPE("2 * pi * t / 1 s",
          "(binary / (binary * (binary * (num 2) (name pi)) (name t)) (num 1 [s]))");
    SHAPE("0.6 * m", "(binary * (num 0.6) (name m))");
    SHAPE("40 / s", "(binary / (num 40) (name s))");
    SHAPE("40 /s", "(num 40 [/s])");
    SHAPE("1.2e-3", "(num 0.0012)");
    SHAPE(".5 mm", "(num 0.5 [mm])");
    SHAPE("if x < 0 then 1 else 0 Pa", "(if (binary < (name x) (num 0)) (num 1) (num 0 [Pa]))");
}

static void test_locations(void)
{
    /*            0         1         2
     *            0123456789012345678901234567 */
    ast *d = decl1("param g = 9.81 m/s^2 // c");
    CHECK(d && d->kind == AST_PARAM && !strcmp(d->name, "g"), "param: kind and name");
    CHECK(d && d->loc.off == 0 && d->end.off == 20 && d->aux.off == 6,
          "param: loc 0, end 20, aux (name) 6");
    ast *n = d ? d->kids[0] : NULL;
    CHECK(n && n->kind == AST_NUM && n->num == 9.81 && !strcmp(n->str, "m/s^2"),
          "num 9.81 with unit m/s^2");
    CHECK(n && n->loc.off == 10 && n->end.off == 20 && n->aux.off == 15 && n->aux.file == 0,
          "num: loc 10, end 20, unit at 15");
    n = expr("1");
    CHECK(n && n->str == NULL && n->aux.file == -1, "num without unit: str NULL, aux loc_none");

    /*              0         1         2
     *              012345678901234567890123 */
    n = expr("(a + b) * c");
    CHECK(n && n->loc.off == 8 && n->end.off == 19, "binary spans its operands (8..19)");
    CHECK(n && n->kids[0]->loc.off == 8 && n->kids[0]->end.off == 15,
          "parenthesized operand spans its parentheses");
    n = expr("-f(x).y[2]");
    CHECK(n && n->loc.off == 8 && n->end.off == 18, "unary and postfix spans");
    CHECK(n && n->kids[0]->kind == AST_INDEX && n->kids[0]->kids[0]->aux.off == 14,
          "member: aux = where its name is");

    ast *m = parse("model bench\nground plate\n");
    CHECK(m && !strcmp(m->name, "bench") && m->aux.off == 6 && m->nkids == 1,
          "model: name, aux, one declaration");
    CHECK(m && m->kids[0]->kind == AST_GROUND && m->kids[0]->loc.off == 12 &&
          m->kids[0]->end.off == 24, "ground: loc and end");
    m = parse("");
    CHECK(m && m->name == NULL && m->nkids == 0, "empty file: an empty model");
    m = parse("/* nothing */ // here\n");
    CHECK(m && m->nkids == 0, "comments only: an empty model");
}

static void test_declarations(void)
{
    ast *d = decl1("import friction");
    CHECK(d && d->kind == AST_IMPORT && !strcmp(d->name, "friction") && !d->str,
          "import of a stdlib module (keyword as name)");
    d = decl1("import \"../laws/my.jnt\"");
    CHECK(d && d->kind == AST_IMPORT && !d->name && !strcmp(d->str, "../laws/my.jnt") &&
          d->aux.off == 7, "import of a path: str without quotes");
    d = decl1("const n = 100");
    CHECK(d && d->kind == AST_CONST && d->nkids == 1, "const");
    d = decl1("let Fs = 0.6 * m * g");
    CHECK(d && d->kind == AST_LET && d->kids[0]->kind == AST_BINARY, "let");

    d = decl1("body mass[1..n] : point(mass = 0.1 kg) { dof x, y dof z }");
    CHECK(d && d->kind == AST_BODY && !strcmp(d->name, "mass") && !strcmp(d->str, "point"),
          "body: name and type");
    CHECK(d && d->iter && d->iter->kind == AST_ITER && !d->iter->name &&
          d->iter->kids[0]->kind == AST_RANGE, "body: iter without a name");
    CHECK(d && d->nkids == 4 && d->kids[0]->kind == AST_ARG && d->kids[1]->kind == AST_DOF &&
          !strcmp(d->kids[3]->name, "z"), "body: type args then dofs");
    CHECK(d && d->end.off == 57, "body: ends after '}'");
    d = decl1("body b : point() { }");
    CHECK(d && d->nkids == 0 && !d->iter, "body without arguments and dofs");

    d = decl1("spring k[i in 1..n-1] between mass[i].x and mass[i+1].x { stiffness = 100 N/m }");
    CHECK(d && d->kind == AST_ELEMENT && d->op == ELEM_SPRING && !strcmp(d->name, "k") &&
          d->aux.off == 7, "spring: kind, name, aux");
    CHECK(d && d->iter && !strcmp(d->iter->name, "i") && d->iter->aux.off == 9,
          "spring: named iter");
    CHECK(d && d->nkids == 3 && d->kids[0]->kind == AST_MEMBER &&
          d->kids[2]->kind == AST_SETTING, "spring: two endpoints then a setting");
    d = decl1("damper c between a.x and ground { }");
    CHECK(d && d->op == ELEM_DAMPER && d->nkids == 2 && !strcmp(d->kids[1]->name, "ground"),
          "damper: 'ground' as an endpoint");
    d = decl1("contact c between a.x and b.x { law = hertz(k = 1) }");
    CHECK(d && d->op == ELEM_CONTACT && d->nkids == 3 && !strcmp(d->kids[2]->name, "law"),
          "contact: 'law' as a setting name");
    d = decl1("friction f between a.x and b { normal = m * g  law = c(mu = 1) x = 1, y = 2; "
              "z = 3 force = 4 }");
    CHECK(d && d->op == ELEM_FRICTION && d->nkids == 8, "friction: settings with and "
          "without separators");
    d = decl1("friction f between a.x and b { normal = 2  mu = 0.3 }");
    CHECK(d && d->nkids == 4 && d->kids[2]->kids[0]->str == NULL,
          "a name before '=' is not a unit: `normal = 2  mu = 0.3`");

    d = decl1("force drive[i in {1, 10}] on mass[i].x = 0.2 N * sin(t)");
    CHECK(d && d->kind == AST_FORCE && d->nkids == 2 && d->kids[0]->kind == AST_MEMBER &&
          d->iter->kids[0]->kind == AST_SET && d->iter->kids[0]->nkids == 2,
          "force: target, value, set iter");
    d = decl1("init block.x.v = -1 mm/s");
    CHECK(d && d->kind == AST_INIT && d->nkids == 2 && d->kids[0]->kind == AST_MEMBER,
          "init");
    d = decl1("simulate { integrator = rk4(h = 1 us) until = 1 s }");
    CHECK(d && d->kind == AST_SIMULATE && d->nkids == 2, "simulate");
    d = decl1("output \"o.csv\" every 10 us { t, u = block.x, slide.force, }");
    CHECK(d && d->kind == AST_OUTPUT && !strcmp(d->str, "o.csv") && d->nkids == 4,
          "output: file, interval, three columns, trailing comma");
    CHECK(d && !d->kids[1]->name && !strcmp(d->kids[1]->str, "t") &&
          !strcmp(d->kids[2]->name, "u") && !strcmp(d->kids[2]->str, "block.x") &&
          !strcmp(d->kids[3]->str, "slide.force"), "output columns: names and source text");
}

static void test_laws(void)
{
    ast *d = decl1("law friction lugre(sigma0: 1/m, sigma1: s/m, mu_s, gamma = 2, g0: m = 0 m) {\n"
                   "  state z: m\n"
                   "  state sp: m discrete = 0 m\n"
                   "  let gv = mu_s\n"
                   "  der(z) = v - z\n"
                   "  update sp = sp\n"
                   "  force = z * N;\n"
                   "}");
    CHECK(d && d->kind == AST_LAW && d->op == LAW_FRICTION && !strcmp(d->name, "lugre"),
          "law friction");
    CHECK(d && d->nkids == 11, "law: 5 parameters and 6 statements (got %d)", d ? d->nkids : -1);
    if (!d || d->nkids != 11)
        return;
    ast **k = d->kids;
    CHECK(k[0]->kind == AST_LPARAM && k[0]->nkids == 2 && k[0]->kids[0]->kind == AST_BINARY &&
          k[0]->kids[0]->op == OP_DIV && !k[0]->kids[1], "lparam with unit 1/m (a division)");
    CHECK(k[2]->nkids == 2 && !k[2]->kids[0] && !k[2]->kids[1], "lparam without unit or default");
    CHECK(!k[3]->kids[0] && k[3]->kids[1]->num == 2, "lparam with a default");
    CHECK(k[4]->kids[0]->kind == AST_NAME && k[4]->kids[1]->kind == AST_NUM,
          "lparam with unit and default");
    CHECK(k[5]->kind == AST_STATE && k[5]->op == 0 && k[5]->kids[0] && !k[5]->kids[1],
          "continuous state");
    CHECK(k[6]->kind == AST_STATE && k[6]->op == 1 && k[6]->kids[1], "discrete state with init");
    CHECK(k[7]->kind == AST_LET, "let in a law");
    CHECK(k[8]->kind == AST_DEREQ && !strcmp(k[8]->name, "z"), "der(z) = ...");
    CHECK(k[9]->kind == AST_UPDATE && !strcmp(k[9]->name, "sp"), "update");
    CHECK(k[10]->kind == AST_RESULT && !strcmp(k[10]->name, "force"), "force = ... (result)");
    d = decl1("law contact c() { pressure = 0 Pa }");
    CHECK(d && d->op == LAW_CONTACT && d->nkids == 1 && d->kids[0]->kind == AST_RESULT,
          "law contact without parameters");
    d = decl1("law force f(k) { force = k }");
    CHECK(d && d->op == LAW_FORCE, "law force");
}

/* ---- syntax errors --------------------------------------------------------------- */

static void test_errors(void)
{
    SYNTAX("param x kg",
           "t.jnt:1:9: error: expected '=' after 'param x', found 'kg'\n"
           "  param x kg\n"
           "          ^\n");
    SYNTAX("let a = 1 +",
           "t.jnt:1:12: error: unexpected end of file; expected an expression\n"
           "  let a = 1 +\n"
           "             ^\n");
    SYNTAX("let a = x then 1",
           "t.jnt:1:11: error: unexpected 'then'; expected one of: an operator, "
           "a declaration, end of file\n"
           "  let a = x then 1\n"
           "            ^\n");
    SYNTAX("simulate {\n  until = 1 s\n",
           "t.jnt:2:14: error: '}' expected (to close '{' of 'simulate' at line 1)\n"
           "    until = 1 s\n"
           "               ^\n");
    SYNTAX("let a = f(1, 2]",
           "t.jnt:1:15: error: ')' expected (to close '(' at line 1), found ']'\n"
           "  let a = f(1, 2]\n"
           "                ^\n");
    SYNTAX("law friction f() {\n  force = 1\nsimulate { }",
           "t.jnt:3:1: error: '}' expected (to close '{' of 'law' at line 1), found 'simulate'\n"
           "  simulate { }\n"
           "  ^\n");
    SYNTAX("spring s between a.x b.x { }",
           "t.jnt:1:22: error: unexpected 'b'; expected one of: 'and', '[', '.'\n"
           "  spring s between a.x b.x { }\n"
           "                       ^\n");
    SYNTAX("let a = 1 < 2 == 3",
           "t.jnt:1:15: error: unexpected '==': comparisons do not chain (write "
           "'a < b and b < c')\n"
           "  let a = 1 < 2 == 3\n"
           "                ^\n");
    SYNTAX("}",
           "t.jnt:1:1: error: unexpected '}'; expected one of: 'model', a declaration, "
           "end of file\n"
           "  }\n"
           "  ^\n");
    SYNTAX("ground g }",
           "t.jnt:1:10: error: unexpected '}'; expected one of: a declaration, end of file\n"
           "  ground g }\n"
           "           ^\n");
    SYNTAX("let s = \"abcdefghijklmnopqrstuvwxyz\" \"x\"",
           "t.jnt:1:38: error: unexpected '\"x\"'; expected one of: an operator, "
           "a declaration, end of file\n"
           "  let s = \"abcdefghijklmnopqrstuvwxyz\" \"x\"\n"
           "                                       ^\n");
    SYNTAX("param \"abcdefghijklmnopqrstuvwxyz\"",
           "t.jnt:1:7: error: expected a name after 'param', found '\"abcdefghijklmnopqrst...'\n"
           "  param \"abcdefghijklmnopqrstuvwxyz\"\n"
           "        ^\n");
    SYNTAX("ground g\nsimulat { }",
           "t.jnt:2:1: error: unexpected 'simulat'; did you mean 'simulate'?\n"
           "  simulat { }\n"
           "  ^\n");
    /* lexical errors are all reported, and nothing is parsed */
    SYNTAX("param a = 1 @\nparam b = 2 ` }",
           "t.jnt:1:13: error: invalid character '@'\n"
           "  param a = 1 @\n"
           "              ^\n"
           "t.jnt:2:13: error: invalid character '`'\n"
           "  param b = 2 ` }\n"
           "              ^\n");
    /* deep nesting is an error, not a crash */
    {
        static char deep[6000];
        int n = 0;
        n += sprintf(deep, "let a = ");
        for (int i = 0; i < 2000; i++)
            deep[n++] = '(';
        deep[n++] = '1';
        for (int i = 0; i < 2000; i++)
            deep[n++] = ')';
        deep[n] = '\0';
        ast *m = parse(deep);
        CHECK(!m && strstr(errs, "nesting too deep") && dc.nerr == 1,
              "2000 nested parentheses: one error");
        n = sprintf(deep, "let a = ");
        for (int i = 0; i < 100; i++)
            deep[n++] = '(';
        deep[n++] = '1';
        for (int i = 0; i < 100; i++)
            deep[n++] = ')';
        deep[n] = '\0';
        m = parse(deep);
        CHECK(m && m->kids[0]->kids[0]->kind == AST_NUM, "100 nested parentheses parse");
    }
}

/* ---- golden files ------------------------------------------------------------------ */

/* Read a whole file (NULL when missing). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, got, mem);
    fclose(f);
    fclose(mem);
    return buf;
}

/* Compare text with the golden file path, or rewrite it when updating. */
static void golden(const char *path, const char *text, int update)
{
    if (update) {
        FILE *f = fopen(path, "wb");
        CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0, "golden %s rewritten", path);
        return;
    }
    char *want = slurp(path);
    CHECK(want && strcmp(want, text) == 0, "golden %s", path);
    if (want && strcmp(want, text) != 0)
        printf("  got:\n%s", text);
    free(want);
}

/* Parse path relative to the repository root with diagnostics in a string. */
static char *run_file(const char *path, int *ok)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    diag_ctx d;
    diag_init(&d, mem, 20);
    ast_arena *a = ast_arena_new();
    int f = diag_load_file(&d, path);
    ast *m = f >= 0 ? parse_source(&d, a, f) : NULL;
    *ok = m != NULL;
    if (m)
        ast_dump(m, mem, 0);
    fclose(mem);
    ast_arena_free(a);
    diag_free(&d);
    return buf;
}

static void test_goldens(void)
{
    const char *up = getenv("JNT_UPDATE_GOLDEN");
    int update = up && *up == '1';
    glob_t g;
    char out[512];

    CHECK(glob("tests/golden/*.jnt", 0, NULL, &g) == 0 && g.gl_pathc >= 5,
          "golden parser inputs found");
    for (size_t i = 0; i < g.gl_pathc; i++) {
        int ok;
        char *text = run_file(g.gl_pathv[i], &ok);
        CHECK(ok, "%s parses", g.gl_pathv[i]);
        snprintf(out, sizeof out, "%.*s.ast", (int)strlen(g.gl_pathv[i]) - 4, g.gl_pathv[i]);
        golden(out, text, update);
        free(text);
    }
    globfree(&g);

    CHECK(glob("tests/errors/syntax_*.jnt", 0, NULL, &g) == 0 && g.gl_pathc >= 15,
          "at least 15 syntax-error inputs found");
    for (size_t i = 0; i < g.gl_pathc; i++) {
        int ok;
        char *text = run_file(g.gl_pathv[i], &ok);
        CHECK(!ok && strncmp(text, g.gl_pathv[i], strlen(g.gl_pathv[i])) == 0,
              "%s fails with a located error", g.gl_pathv[i]);
        snprintf(out, sizeof out, "%.*s.err", (int)strlen(g.gl_pathv[i]) - 4, g.gl_pathv[i]);
        golden(out, text, update);
        free(text);
    }
    globfree(&g);
}

int main(void)
{
    (void)test_out;
    if (chdir(JNT_SOURCE_DIR) != 0) {
        perror(JNT_SOURCE_DIR);
        return 1;
    }
    arena = ast_arena_new();
    diag_init(&dc, stderr, 20);
    test_expressions();
    test_locations();
    test_declarations();
    test_laws();
    test_errors();
    test_goldens();
    diag_free(&dc);
    ast_arena_free(arena);
    return check_done();
}
