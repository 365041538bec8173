/*
 * ast.h: the syntax tree built by the parser (grammar/parser.y).
 *
 * One node type with a kind, a location, a few scalar fields and a list of
 * children; what the children mean is fixed per kind below. Names and
 * strings are interned in the tree's arena and live as long as the tree.
 */
#ifndef JNT_AST_H
#define JNT_AST_H

#include "diag.h"

typedef enum ast_kind {
    /* ---- expressions ---- */
    AST_NUM,     /* num; str = unit text ("m/s^2") or NULL; aux = where the unit starts */
    AST_NAME,    /* name */
    AST_MEMBER,  /* kids[0] . name            (block.x, slide.force) */
    AST_INDEX,   /* kids[0] [ kids[1] ]       (mass[i]) */
    AST_CALL,    /* name ( kids... )          kids are expressions or AST_ARG; with iter:
                    a reduction name(i in domain, kids[0]) (sum, min, max) */
    AST_ARG,     /* name = kids[0]            (named argument) */
    AST_UNARY,   /* op kids[0]                op: '-', '+', OP_NOT */
    AST_BINARY,  /* kids[0] op kids[1]        op: see ast_op */
    AST_IF,      /* if kids[0] then kids[1] else kids[2] */
    AST_DER,     /* der ( kids[0] ) */
    AST_STRING,  /* str (in setting values, e.g. table("f.csv")) */
    AST_TUPLE,   /* ( kids[0], kids[1], ... ): a vector, e.g. a marker's (x, y) */
    /* ---- index domains ---- */
    AST_RANGE,   /* kids[0] .. kids[1] */
    AST_SET,     /* { kids... } */
    AST_ITER,    /* [ name in kids[0] ] or [ kids[0] ]; name may be NULL; kids[0] is
                    AST_RANGE or AST_SET */
    /* ---- declarations (the model's children) ---- */
    AST_MODEL,   /* name (may be NULL); kids = declarations in order */
    AST_IMPORT,  /* name (stdlib module) or str (relative path) */
    AST_CONST,   /* name = kids[0] */
    AST_PARAM,   /* name = kids[0] */
    AST_LET,     /* name = kids[0]  (also inside laws) */
    AST_GROUND,  /* name */
    AST_BODY,    /* name, iter (or NULL), str = body type ("point");
                    kids = AST_ARG / expressions (type arguments) followed by AST_DOF */
    AST_DOF,     /* name */
    AST_ELEMENT, /* op = element kind (ast_elem); name, iter; kids[0], kids[1] = the two
                    endpoints (expressions: references or the name 'ground');
                    kids[2..] = AST_SETTING */
    AST_FORCE,   /* name, iter; kids[0] = DOF reference; kids[1] = expression */
    AST_SETTING, /* name = kids[0] */
    AST_LAW,     /* op = law kind (ast_lawkind); name;
                    kids = AST_LPARAM... then law statements */
    AST_LPARAM,  /* name; kids[0] = unit expression or NULL; kids[1] = default or NULL */
    AST_STATE,   /* name; kids[0] = unit expression or NULL; kids[1] = initial value or
                    NULL; op = 1 when `discrete` */
    AST_DEREQ,   /* der(name) = kids[0] */
    AST_UPDATE,  /* update name = kids[0] */
    AST_RESULT,  /* name = kids[0]  (force = ..., pressure = ...) */
    AST_INIT,    /* init kids[0] = kids[1]   (kids[0] a reference: block.x or block.x.v) */
    AST_SIMULATE,/* kids = AST_SETTING (integrator = rk4(h = ...), until = expr, ...) */
    AST_OUTPUT,  /* str = file; kids[0] = interval expression; kids[1..] = AST_OUTCOL */
    AST_OUTCOL,  /* name (column name, NULL when not given); kids[0] = expression;
                    str = source text of the expression (for a default column name) */
    AST_MOTION,  /* name, iter; kids[0] = DOF reference; kids[1] = its prescribed position,
                    an expression of t and parameters */
    AST_INTEGRAL,/* name = kids[0]: a state whose derivative is kids[0], starting at 0 */
    AST_ANALYSIS,/* analysis name : str ( kids... ): kids are AST_ARG or expressions */
    AST_POINT,   /* name, iter; kids[0] = its position, a linear combination of dofs */
    AST_INTERFACE, /* name, str = type ("sliding"); kids[0], kids[1] = the slave nodes and
                    the master surface; kids[2..] = AST_SETTING */
    AST_JOINT,   /* joint name : str ( kids... ): kids are AST_ARG or expressions */
    AST_MARKER,  /* marker name = kids[0] (a tuple), in a body's block */
    AST_SUMMARY, /* kids = AST_SETTING (NAME = OP(column, from = T1, to = T2)) */
    AST_SUBSTRUCTURE /* name, str = type ("beam2d", "fe", ...); kids = type arguments
                    (AST_ARG or expressions) followed by AST_SETTING (fix, damping, reduce) */
} ast_kind;

/* Binary operators (AST_BINARY op). */
enum ast_op {
    OP_ADD = '+', OP_SUB = '-', OP_MUL = '*', OP_DIV = '/', OP_POW = '^',
    OP_LT = '<', OP_GT = '>', OP_LE = 256, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR, OP_NOT
};

/* Element kinds (AST_ELEMENT op). */
enum ast_elem { ELEM_SPRING = 1, ELEM_DAMPER, ELEM_FRICTION, ELEM_CONTACT };

/* Law kinds (AST_LAW op). */
enum ast_lawkind { LAW_FRICTION = 1, LAW_CONTACT, LAW_FORCE };

typedef struct ast {
    ast_kind kind;
    jnt_loc loc;          /* where the node starts */
    jnt_loc end;          /* where it ends (one past), for source text and carets */
    jnt_loc aux;          /* AST_NUM: where its unit starts; AST_ELEMENT etc.: where the
                             name is; else loc_none */
    int op;
    const char *name;
    const char *str;
    double num;
    struct ast *iter;     /* AST_ITER for arrays, else NULL */
    struct ast **kids;
    int nkids, capkids;
} ast;

/* Arena owning every node and string of one or more parsed files. */
typedef struct ast_arena ast_arena;

ast_arena *ast_arena_new(void);
void ast_arena_free(ast_arena *a);

/* A new node; never NULL (aborts the process only when memory is exhausted). */
ast *ast_new(ast_arena *a, ast_kind kind, jnt_loc loc);
/* Append a child (kid may be NULL, stored as is). Returns n. */
ast *ast_add(ast_arena *a, ast *n, ast *kid);
/* Intern a string of length len. */
const char *ast_strdup(ast_arena *a, const char *s, size_t len);

/* Print a tree as an S-expression, one node per line (golden parser tests). */
void ast_dump(const ast *n, FILE *out, int indent);

#endif
