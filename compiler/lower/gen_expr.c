/*
 * gen_expr.c: pool expressions as C.
 *
 * ex_emit walks the sub-DAG of the roots in post-order (ex_topo: operands
 * before nodes, deterministic). Leaves are printed in place. An interior
 * node becomes a temporary `double <prefix>K = ...;` when it is used
 * more than once (an integer power's base counts once per factor), or when
 * inlining it would nest expressions deeper than MAX_INLINE levels; every
 * other node is written inside its single user. Temporaries come first, in
 * dependency order, then the assignments lhs[i] = ...; in root order.
 *
 * The C computes exactly what ex_apply / ex_eval compute: the same libm
 * calls, x^2 as x*x, min/max and sign through the prelude's helpers; the
 * sine and cosine of one operand are both temporaries, written by one
 * sincos call (bit-identical to sin and cos in glibc).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_int.h"
#include "front/alloc.h"
#include "gen_loop.h"

/* Deepest nesting of inlined operations before a temporary is forced. */
#define MAX_INLINE 24

typedef struct emitter {
    ex_pool *p;
    FILE *out;
    const char *prefix;
    ex_map pos;    /* node id -> index in order (emission only) */
    ex_id *order;
    int *temp;     /* per index: temporary number, or -1 when inlined */
    int inline_all; /* ex_print_c: no temporaries */
    const ex_map *slot;            /* ex_emit_slots: node id -> its text's index, or NULL */
    const char *const *slot_text;  /* what a slotted node is written as (a table read) */
} emitter;

static void put(emitter *em, ex_id e);

/* Writes a constant so that C reads back exactly v, as a double. */
static void put_const(FILE *out, double v)
{
    if (isnan(v)) {
        fputs("(0.0/0.0)", out);
        return;
    }
    if (isinf(v)) {
        fputs(v > 0 ? "(1.0/0.0)" : "(-1.0/0.0)", out);
        return;
    }
    /* shortest %.Ng that reads back exactly */
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (!strpbrk(buf, ".eni"))
        strcat(buf, ".0");
    if (buf[0] == '-')
        fprintf(out, "(%s)", buf);
    else
        fputs(buf, out);
}

/* The temporary number of e, or -1 when e is written in place. */
static int temp_of(const emitter *em, ex_id e)
{
    if (em->inline_all)
        return -1;
    int i = ex_map_get(&em->pos, e);
    return i >= 0 ? em->temp[i] : -1;
}

/* The slot of e (written as slot_text[k], never looked into), or -1. */
static int slot_of(const emitter *em, ex_id e)
{
    return em->slot ? ex_map_get(em->slot, e) : -1;
}

static const char *func_name(ex_kind k)
{
    switch (k) {
    case EX_SIN: return "sin";
    case EX_COS: return "cos";
    case EX_TAN: return "tan";
    case EX_ASIN: return "asin";
    case EX_ACOS: return "acos";
    case EX_ATAN: return "atan";
    case EX_SINH: return "sinh";
    case EX_COSH: return "cosh";
    case EX_TANH: return "tanh";
    case EX_EXP: return "exp";
    case EX_LOG: return "log";
    case EX_SQRT: return "sqrt";
    case EX_ABS: return "fabs";
    case EX_SIGN: return "jnt_sign";
    case EX_FLOOR: return "floor";
    case EX_ATAN2: return "atan2";
    case EX_MIN: return "jnt_min";
    case EX_MAX: return "jnt_max";
    default: return NULL;
    }
}

static const char *binop_text(ex_kind k)
{
    switch (k) {
    case EX_ADD: return " + ";
    case EX_SUB: return " - ";
    case EX_MUL: return " * ";
    case EX_DIV: return " / ";
    case EX_LT: return " < ";
    case EX_LE: return " <= ";
    case EX_GT: return " > ";
    case EX_GE: return " >= ";
    case EX_EQ: return " == ";
    case EX_NE: return " != ";
    case EX_AND: return " && ";
    case EX_OR: return " || ";
    default: return NULL;
    }
}

static int is_cond_kind(ex_kind k)
{
    return k >= EX_LT && k <= EX_NOT;
}

static void put_cond_op(emitter *em, ex_id e);

/* Writes e as a parenthesised C condition: a comparison or logic node that
 * is written in place prints directly, anything else as (e != 0.0). */
static void put_cond(emitter *em, ex_id e)
{
    if (!is_cond_kind(ex_get(em->p, e)->kind) || temp_of(em, e) >= 0 || slot_of(em, e) >= 0) {
        fputc('(', em->out);
        put(em, e);
        fputs(" != 0.0)", em->out);
        return;
    }
    put_cond_op(em, e);
}

/* Writes the comparison or logic node e as a parenthesised C condition. */
static void put_cond_op(emitter *em, ex_id e)
{
    ex_node x = *ex_get(em->p, e);
    fputc('(', em->out);
    if (x.kind == EX_NOT) {
        fputc('!', em->out);
        put_cond(em, x.a);
    } else if (x.kind == EX_AND || x.kind == EX_OR) {
        put_cond(em, x.a);
        fputs(binop_text(x.kind), em->out);
        put_cond(em, x.b);
    } else {
        put(em, x.a);
        fputs(binop_text(x.kind), em->out);
        put(em, x.b);
    }
    fputc(')', em->out);
}

/* Writes the operation of node e (its operands by name or in place). */
static void put_op(emitter *em, ex_id e)
{
    ex_node x = *ex_get(em->p, e);
    FILE *out = em->out;
    double c;
    switch (x.kind) {
    case EX_CONST: put_const(out, x.v); return;
    case EX_T: fputs("t", out); return;
    case EX_Y: fprintf(out, "y[%d]", x.a); return;
    case EX_D: fprintf(out, "d[%d]", x.a); return;
    case EX_P: fprintf(out, "p[%d]", x.a); return;
    case EX_UP: fprintf(out, "u[%d]", x.a); return;
    case EX_UV: fprintf(out, "uv[%d]", x.a); return;
    case EX_ADD: case EX_SUB: case EX_MUL: case EX_DIV:
        fputc('(', out);
        put(em, x.a);
        fputs(binop_text(x.kind), out);
        put(em, x.b);
        fputc(')', out);
        return;
    case EX_POW:
        /* the cases of ex_apply's EX_POW */
        if (ex_is_const(em->p, x.b, &c) && (c == 2.0 || c == 3.0)) {
            fputc('(', out);
            put(em, x.a);
            fputs(" * ", out);
            put(em, x.a);
            if (c == 3.0) {
                fputs(" * ", out);
                put(em, x.a);
            }
            fputc(')', out);
        } else if (ex_is_const(em->p, x.b, &c) && c == -1.0) {
            fputs("(1.0 / ", out);
            put(em, x.a);
            fputc(')', out);
        } else if (ex_is_const(em->p, x.b, &c) && c == 0.5) {
            fputs("sqrt(", out);
            put(em, x.a);
            fputc(')', out);
        } else {
            fputs("pow(", out);
            put(em, x.a);
            fputs(", ", out);
            put(em, x.b);
            fputc(')', out);
        }
        return;
    case EX_NEG:
        fputs("(-", out);
        put(em, x.a);
        fputc(')', out);
        return;
    case EX_ATAN2: case EX_MIN: case EX_MAX:
        fprintf(out, "%s(", func_name(x.kind));
        put(em, x.a);
        fputs(", ", out);
        put(em, x.b);
        fputc(')', out);
        return;
    case EX_IF:
        fputc('(', out);
        put_cond(em, x.a);
        fputs(" ? ", out);
        put(em, x.b);
        fputs(" : ", out);
        put(em, x.c);
        fputc(')', out);
        return;
    default:
        if (is_cond_kind(x.kind)) {
            fputc('(', out);
            put_cond_op(em, e);
            fputs(" ? 1.0 : 0.0)", out);
        } else {
            fprintf(out, "%s(", func_name(x.kind));
            put(em, x.a);
            fputc(')', out);
        }
        return;
    }
}

/* Writes e: its temporary's name, or its operation in place. */
static void put(emitter *em, ex_id e)
{
    int s = slot_of(em, e);
    if (s >= 0) {
        fputs(em->slot_text[s], em->out);
        return;
    }
    int k = temp_of(em, e);
    if (k >= 0)
        fprintf(em->out, "%s%d", em->prefix, k);
    else
        put_op(em, e);
}

/* Operand i (0, 1, 2) of x. */
static ex_id operand(const ex_node *x, int i)
{
    return i == 0 ? x->a : (i == 1 ? x->b : x->c);
}

/* How many times node x names operand i in the text (an integer power's
 * base is written once per factor). */
static int operand_uses(const ex_pool *p, const ex_node *x, int i)
{
    double c;
    if (x->kind == EX_POW && i == 0 && ex_is_const(p, x->b, &c))
        return c == 3.0 ? 3 : (c == 2.0 ? 2 : 1);
    return 1;
}

/* Writes `#line L "path"` for loc when it names a source of dc and differs
 * from the last one written (*last_file, *last_line); only `#line L` when
 * the file is the last one's (C keeps the presumed file name). */
static void put_line(FILE *out, const diag_ctx *dc, jnt_loc loc, int *last_file, int *last_line)
{
    if (!dc || loc.file < 0 || loc.file >= dc->nsrc)
        return;
    int line, col;
    diag_linecol(dc, loc, &line, &col);
    if (loc.file == *last_file && line == *last_line)
        return;
    int same_file = loc.file == *last_file;
    *last_file = loc.file;
    *last_line = line;
    fprintf(out, "#line %d", line);
    if (same_file) {
        fputc('\n', out);
        return;
    }
    fputc(' ', out);
    ex_put_cstr(out, dc->srcs[loc.file].path);
    fputc('\n', out);
}

/* Pairs the written sine and cosine of one operand: partner[i] is the
 * position of the other of i's pair, or -1. glibc's sincos(x, &s, &c)
 * gives the bits of sin(x) and cos(x) (the same code paths; checked on
 * 3e7 arguments, docs/performance.md), in one call: gcc -O2 joins such
 * calls itself, tcc does not. */
static void pair_sincos(const emitter *em, int cnt, const unsigned char *live, int *partner)
{
    ex_map sin_of; /* operand id -> position of its sine */
    ex_map_init(&sin_of, 16);
    for (int i = 0; i < cnt; i++) {
        const ex_node *x = ex_get(em->p, em->order[i]);
        partner[i] = -1;
        if (x->kind == EX_SIN && live[i] && slot_of(em, em->order[i]) < 0 &&
            ex_map_get(&sin_of, x->a) < 0)
            ex_map_put(&sin_of, x->a, i);
    }
    for (int i = 0; i < cnt; i++) {
        const ex_node *x = ex_get(em->p, em->order[i]);
        if (x->kind != EX_COS || !live[i] || slot_of(em, em->order[i]) >= 0)
            continue;
        int j = ex_map_get(&sin_of, x->a);
        if (j >= 0 && partner[j] < 0) {
            partner[i] = j;
            partner[j] = i;
        }
    }
    ex_map_free(&sin_of);
}

/* Writes C statements computing roots[0..n-1] into the lvalues lhs[i] (see
 * expr.h). The lvalues are assigned last, in order, after every temporary:
 * they must not name a variable the block reads (y, d, p, t) unless no later
 * root reads it. Writes nothing else (no braces); the caller resets #line. */
void ex_emit(ex_pool *p, FILE *out, int n, const ex_id *roots, const char *const *lhs,
             const diag_ctx *dc, const char *indent, const char *prefix)
{
    ex_emit_slots(p, out, n, roots, lhs, dc, indent, prefix, NULL, NULL);
}

/* See gen_loop.h: ex_emit, with the nodes of `slot` written as their text
 * and never looked into (their operands are not emitted unless something
 * else reads them). */
void ex_emit_slots(ex_pool *p, FILE *out, int n, const ex_id *roots, const char *const *lhs,
                   const diag_ctx *dc, const char *indent, const char *prefix,
                   const ex_map *slot, const char *const *slot_text)
{
    emitter em = {.p = p, .out = out, .prefix = prefix, .inline_all = 0, .slot = slot,
                  .slot_text = slot_text};
    ex_map_init(&em.pos, 64);
    int cnt = ex_topo(p, n, roots, &em.order, &em.pos);
    int *uses = xcalloc((size_t)cnt + 1, sizeof *uses);
    int *height = xcalloc((size_t)cnt + 1, sizeof *height);
    unsigned char *live = xcalloc((size_t)cnt + 1, 1);
    em.temp = xmalloc(((size_t)cnt + 1) * sizeof *em.temp);
    int *partner = xmalloc(((size_t)cnt + 1) * sizeof *partner);

    /* the nodes written: the roots and the operands of written, unslotted nodes */
    for (int r = 0; r < n; r++)
        live[ex_map_get(&em.pos, roots[r])] = 1;
    for (int i = cnt - 1; i >= 0; i--) {
        const ex_node *x = ex_get(p, em.order[i]);
        if (!live[i] || slot_of(&em, em.order[i]) >= 0)
            continue;
        for (int k = 0; k < ex_nargs(x->kind); k++)
            live[ex_map_get(&em.pos, operand(x, k))] = 1;
    }

    /* count how often each node is written by its users and the roots */
    for (int i = 0; i < cnt; i++) {
        const ex_node *x = ex_get(p, em.order[i]);
        if (!live[i] || slot_of(&em, em.order[i]) >= 0)
            continue;
        for (int k = 0; k < ex_nargs(x->kind); k++) {
            uses[ex_map_get(&em.pos, operand(x, k))] += operand_uses(p, x, k);
        }
    }
    for (int r = 0; r < n; r++)
        uses[ex_map_get(&em.pos, roots[r])]++;

    pair_sincos(&em, cnt, live, partner);

    /* shared or too deeply nested interior nodes become temporaries, and
     * both of a sine and cosine pair (one sincos call writes them) */
    int ntemp = 0;
    for (int i = 0; i < cnt; i++) {
        const ex_node *x = ex_get(p, em.order[i]);
        int na = ex_nargs(x->kind), h = 0;
        em.temp[i] = -1;
        if (na == 0 || !live[i] || slot_of(&em, em.order[i]) >= 0)
            continue;
        for (int k = 0; k < na; k++) {
            int j = ex_map_get(&em.pos, operand(x, k));
            if (height[j] > h)
                h = height[j];
        }
        height[i] = h + 1;
        if (uses[i] > 1 || height[i] > MAX_INLINE || partner[i] >= 0) {
            em.temp[i] = ntemp++;
            height[i] = 0;
        }
    }

    /* the temporaries in dependency order, then the assignments */
    int last_file = -1, last_line = -1;
    for (int i = 0; i < cnt; i++) {
        if (em.temp[i] < 0 || (partner[i] >= 0 && partner[i] < i))
            continue; /* the second of a pair: written with the first */
        const ex_node *x = ex_get(p, em.order[i]);
        put_line(out, dc, x->loc, &last_file, &last_line);
        if (partner[i] >= 0) {
            int ts = em.temp[x->kind == EX_SIN ? i : partner[i]];
            int tc = em.temp[x->kind == EX_SIN ? partner[i] : i];
            fprintf(out, "%sdouble %s%d, %s%d;\n%ssincos(", indent, prefix, ts, prefix, tc,
                    indent);
            put(&em, x->a);
            fprintf(out, ", &%s%d, &%s%d);\n", prefix, ts, prefix, tc);
            continue;
        }
        fprintf(out, "%sdouble %s%d = ", indent, prefix, em.temp[i]);
        put_op(&em, em.order[i]);
        fputs(";\n", out);
    }
    for (int r = 0; r < n; r++) {
        /* a copy of a temporary needs no line of its own */
        const ex_node *x = ex_get(p, roots[r]);
        if (ex_nargs(x->kind) > 0 && em.temp[ex_map_get(&em.pos, roots[r])] < 0 &&
            slot_of(&em, roots[r]) < 0)
            put_line(out, dc, x->loc, &last_file, &last_line);
        fprintf(out, "%s%s = ", indent, lhs[r]);
        put(&em, roots[r]);
        fputs(";\n", out);
    }
    free(uses);
    free(height);
    free(live);
    free(partner);
    free(em.temp);
    free(em.order);
    ex_map_free(&em.pos);
}

/* Writes e as one C expression, every shared node written out in full (the
 * text grows with the tree, not the DAG: for short expressions). */
void ex_print_c(ex_pool *p, FILE *out, ex_id e)
{
    emitter em = {.p = p, .out = out, .prefix = "", .inline_all = 1};
    put(&em, e);
}

/* See expr.h. Escaped: '"' and '\\' by a backslash; control bytes and DEL
 * as octal; a '?' after a '?' as "\\?" ("??/" and the other trigraphs of
 * gcc -std=c11 would turn into '\\' or '#'); a '/' after a '*' as "\\057",
 * so the literal may stand in a comment without closing it. */
void ex_put_cstr(FILE *out, const char *str)
{
    fputc('"', out);
    for (const unsigned char *s0 = (const unsigned char *)str, *s = s0; *s; s++) {
        if (*s == '\\' || *s == '"' || (*s == '?' && s > s0 && s[-1] == '?'))
            fprintf(out, "\\%c", *s);
        else if (*s < 0x20 || *s == 0x7f || (*s == '/' && s > s0 && s[-1] == '*'))
            fprintf(out, "\\%03o", *s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

/* Writes the prototypes and helpers emitted code uses. No header is
 * included; the block is guarded so that it may appear twice in a unit. */
void ex_emit_prelude(FILE *out)
{
    fputs("#ifndef JNT_EX_PRELUDE\n"
          "#define JNT_EX_PRELUDE 1\n"
          "double sin(double); double cos(double); double tan(double);\n"
          "double asin(double); double acos(double); double atan(double);\n"
          "double sinh(double); double cosh(double); double tanh(double);\n"
          "double exp(double); double log(double); double sqrt(double);\n"
          "double fabs(double); double floor(double);\n"
          "double atan2(double, double); double pow(double, double);\n"
          "double fmin(double, double); double fmax(double, double);\n"
          "void sincos(double, double *, double *);\n"
          "__attribute__((unused)) static inline double jnt_sign(double x)\n"
          "{ return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }\n"
          "__attribute__((unused)) static inline double jnt_min(double a, double b)\n"
          "{ return a < b ? a : b; }\n"
          "__attribute__((unused)) static inline double jnt_max(double a, double b)\n"
          "{ return a > b ? a : b; }\n"
          "#endif\n",
          out);
}
