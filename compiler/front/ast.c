/*
 * ast.c: the syntax tree's arena, node constructors and the S-expression dump
 * used by the golden parser tests (ast.h).
 *
 * Nodes, child arrays and strings are carved from large blocks; freeing the
 * arena frees everything at once.
 */
#include "ast.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

enum { BLOCK_SIZE = 64 * 1024 };

typedef struct ast_block {
    struct ast_block *next;
    size_t used, size;
    max_align_t data[]; /* size bytes follow */
} ast_block;

struct ast_arena {
    ast_block *head; /* the block being filled; older ones follow */
};

/* A new, empty arena; free it with ast_arena_free. */
ast_arena *ast_arena_new(void)
{
    ast_arena *a = xmalloc(sizeof *a);
    a->head = NULL;
    return a;
}

/* Free the arena with every node and string in it (NULL is a no-op). */
void ast_arena_free(ast_arena *a)
{
    if (!a)
        return;
    for (ast_block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a);
}

/* n bytes, aligned for any type, from the arena. */
static void *arena_alloc(ast_arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    ast_block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t size = n > BLOCK_SIZE ? n : BLOCK_SIZE;
        b = xmalloc(sizeof *b + size);
        b->size = size;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

/* A zeroed node of the given kind starting at loc (end = loc, aux = loc_none). */
ast *ast_new(ast_arena *a, ast_kind kind, jnt_loc loc)
{
    ast *n = arena_alloc(a, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    n->end = loc;
    n->aux = loc_none;
    return n;
}

/* Append kid (may be NULL) to n's children, growing the array in the arena. Returns n. */
ast *ast_add(ast_arena *a, ast *n, ast *kid)
{
    if (n->nkids == n->capkids) {
        int cap = n->capkids ? 2 * n->capkids : 4;
        ast **kids = arena_alloc(a, (size_t)cap * sizeof *kids);
        if (n->nkids)
            memcpy(kids, n->kids, (size_t)n->nkids * sizeof *kids);
        n->kids = kids;
        n->capkids = cap;
    }
    n->kids[n->nkids++] = kid;
    return n;
}

/* A NUL-terminated copy of s[0..len) owned by the arena. */
const char *ast_strdup(ast_arena *a, const char *s, size_t len)
{
    char *p = arena_alloc(a, len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

/* ---- dump ------------------------------------------------------------------ */

static const char *const kind_names[] = {
    [AST_NUM] = "num",         [AST_NAME] = "name",       [AST_MEMBER] = "member",
    [AST_INDEX] = "index",     [AST_CALL] = "call",       [AST_ARG] = "arg",
    [AST_UNARY] = "unary",     [AST_BINARY] = "binary",   [AST_IF] = "if",
    [AST_DER] = "der",         [AST_STRING] = "string",   [AST_RANGE] = "range",
    [AST_SET] = "set",         [AST_TUPLE] = "tuple",     [AST_JOINT] = "joint",
    [AST_MARKER] = "marker",         [AST_ITER] = "iter",       [AST_MODEL] = "model",
    [AST_IMPORT] = "import",   [AST_CONST] = "const",     [AST_PARAM] = "param",
    [AST_LET] = "let",         [AST_GROUND] = "ground",   [AST_BODY] = "body",
    [AST_DOF] = "dof",         [AST_ELEMENT] = "element", [AST_FORCE] = "force",
    [AST_SETTING] = "setting", [AST_LAW] = "law",         [AST_LPARAM] = "lparam",
    [AST_STATE] = "state",     [AST_DEREQ] = "dereq",     [AST_UPDATE] = "update",
    [AST_RESULT] = "result",   [AST_INIT] = "init",       [AST_SIMULATE] = "simulate",
    [AST_OUTPUT] = "output",   [AST_OUTCOL] = "outcol",   [AST_MOTION] = "motion",
    [AST_SUMMARY] = "summary",
    [AST_INTEGRAL] = "integral", [AST_ANALYSIS] = "analysis",
    [AST_SUBSTRUCTURE] = "substructure", [AST_POINT] = "point",
    [AST_INTERFACE] = "interface",
};

/* Spelling of an operator (AST_UNARY, AST_BINARY). */
static const char *op_name(int op)
{
    switch (op) {
    case OP_ADD: return "+";
    case OP_SUB: return "-";
    case OP_MUL: return "*";
    case OP_DIV: return "/";
    case OP_POW: return "^";
    case OP_LT: return "<";
    case OP_GT: return ">";
    case OP_LE: return "<=";
    case OP_GE: return ">=";
    case OP_EQ: return "==";
    case OP_NE: return "!=";
    case OP_AND: return "and";
    case OP_OR: return "or";
    case OP_NOT: return "not";
    default: return "?";
    }
}

/* The op field as text for kinds that use it, or NULL. */
static const char *op_text(const ast *n)
{
    static const char *const elems[] = {"?", "spring", "damper", "friction", "contact"};
    static const char *const laws[] = {"?", "friction", "contact", "force"};
    switch (n->kind) {
    case AST_UNARY:
    case AST_BINARY:
        return op_name(n->op);
    case AST_ELEMENT:
        return n->op >= ELEM_SPRING && n->op <= ELEM_CONTACT ? elems[n->op] : "?";
    case AST_LAW:
        return n->op >= LAW_FRICTION && n->op <= LAW_FORCE ? laws[n->op] : "?";
    case AST_STATE:
        return n->op ? "discrete" : NULL;
    default:
        return NULL;
    }
}

/* A double in the shortest of %.15g / %.17g that reads back exactly. */
static void print_num(FILE *out, double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, out);
}

/* A string in double quotes with \" \\ \n \t and \xHH escapes. */
static void print_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* One node: "(kind op name num [unit] "str"", its iter and children, then ")". */
static void dump(const ast *n, FILE *out, int indent)
{
    fprintf(out, "%*s", 2 * indent, "");
    if (!n) {
        fputs("()", out);
        return;
    }
    unsigned k = (unsigned)n->kind;
    fprintf(out, "(%s", k < sizeof kind_names / sizeof *kind_names && kind_names[k]
                            ? kind_names[k] : "?");
    const char *op = op_text(n);
    if (op)
        fprintf(out, " %s", op);
    if (n->name)
        fprintf(out, " %s", n->name);
    if (n->kind == AST_NUM) {
        fputc(' ', out);
        print_num(out, n->num);
        if (n->str)
            fprintf(out, " [%s]", n->str);
    } else if (n->str) {
        fputc(' ', out);
        print_quoted(out, n->str);
    }
    if (n->iter) {
        fputc('\n', out);
        dump(n->iter, out, indent + 1);
    }
    for (int i = 0; i < n->nkids; i++) {
        fputc('\n', out);
        dump(n->kids[i], out, indent + 1);
    }
    fputc(')', out);
}

/* Print the tree n as an S-expression, one node per line, indented by 2 * indent
 * spaces; NULL children print as "()". Ends with a newline. */
void ast_dump(const ast *n, FILE *out, int indent)
{
    dump(n, out, indent);
    fputc('\n', out);
}
