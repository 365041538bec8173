/*
 * parse_build.c: the node builders called by the actions of grammar/parser.y.
 *
 * Each builder makes one node (or finishes a list the grammar collected) and
 * sets its locations: loc where it starts, end one past its last byte, aux
 * where its name is (declarations, settings, members) or where a number's
 * unit starts. Lists are temporary nodes whose children a builder adopts.
 */
#include "parse_ctx.h"

#include "parser.h"

/* The location of byte offset off in the file being parsed. */
static jnt_loc at(const parse_ctx *pc, int off)
{
    return (jnt_loc){pc->file, off};
}

/* The text of token t, interned. */
static const char *text(parse_ctx *pc, const lex_token *t)
{
    return ast_strdup(pc->arena, pc->src + t->off, (size_t)(t->end - t->off));
}

/* A node of kind starting at offset off and ending at end. */
static ast *node(parse_ctx *pc, ast_kind kind, int off, jnt_loc end)
{
    ast *n = ast_new(pc->arena, kind, at(pc, off));
    n->end = end;
    return n;
}

/* Append every child of list to n. */
static void adopt(parse_ctx *pc, ast *n, const ast *list)
{
    for (int i = 0; list && i < list->nkids; i++)
        ast_add(pc->arena, n, list->kids[i]);
}

/* The token being fed starts a declaration (named in unclosed-block messages). */
void parse_decl_start(parse_ctx *pc)
{
    pc->decl_start = pc->cur;
}

/* Append a finished declaration to the model; the next one starts here. */
void parse_add_decl(parse_ctx *pc, ast *decl)
{
    ast_add(pc->arena, pc->root, decl);
    parse_decl_start(pc);
}

/* A temporary list holding first (when not NULL). */
ast *parse_list(parse_ctx *pc, ast *first)
{
    ast *l = ast_new(pc->arena, AST_SET, loc_none);
    if (first)
        ast_add(pc->arena, l, first);
    return l;
}

/* NUM: the value as written; str = unit text, aux = its location. */
ast *parse_num(parse_ctx *pc, const lex_token *t)
{
    ast *n = node(pc, AST_NUM, t->off, at(pc, t->end));
    n->num = t->num;
    if (t->unit >= 0) {
        n->str = ast_strdup(pc->arena, pc->src + t->unit, (size_t)(t->unitend - t->unit));
        n->aux = at(pc, t->unit);
    }
    return n;
}

/* A node named by token t (AST_NAME, AST_DOF). */
ast *parse_leaf(parse_ctx *pc, ast_kind kind, const lex_token *t)
{
    ast *n = node(pc, kind, t->off, at(pc, t->end));
    n->name = text(pc, t);
    n->aux = n->loc;
    return n;
}

/* STRING: str = the contents between the quotes. */
ast *parse_string(parse_ctx *pc, const lex_token *t)
{
    ast *n = node(pc, AST_STRING, t->off, at(pc, t->end));
    int b = t->off + 1, e = t->end;
    if (e > b && pc->src[e - 1] == '"')
        e--;
    n->str = ast_strdup(pc->arena, pc->src + b, (size_t)(e > b ? e - b : 0));
    return n;
}

/* ( x ): x itself, its span widened to the parentheses. */
ast *parse_paren(parse_ctx *pc, const lex_token *lp, ast *x, const lex_token *rp)
{
    x->loc = at(pc, lp->off);
    x->end = at(pc, rp->end);
    return x;
}

/* op x (op: OP_SUB, OP_ADD, OP_NOT). */
ast *parse_unary(parse_ctx *pc, int op, const lex_token *optok, ast *x)
{
    ast *n = node(pc, AST_UNARY, optok->off, x->end);
    n->op = op;
    ast_add(pc->arena, n, x);
    return n;
}

/* x op y. */
ast *parse_binary(parse_ctx *pc, int op, ast *x, ast *y)
{
    ast *n = ast_new(pc->arena, AST_BINARY, x->loc);
    n->end = y->end;
    n->op = op;
    ast_add(pc->arena, n, x);
    ast_add(pc->arena, n, y);
    return n;
}

/* if c then a else b. */
ast *parse_if(parse_ctx *pc, const lex_token *kw, ast *c, ast *a, ast *b)
{
    ast *n = node(pc, AST_IF, kw->off, b->end);
    ast_add(pc->arena, n, c);
    ast_add(pc->arena, n, a);
    ast_add(pc->arena, n, b);
    return n;
}

/* name ( args ). */
ast *parse_call(parse_ctx *pc, const lex_token *name, ast *args, const lex_token *rp)
{
    ast *n = node(pc, AST_CALL, name->off, at(pc, rp->end));
    n->name = text(pc, name);
    n->aux = n->loc;
    adopt(pc, n, args);
    return n;
}

/* der ( x ). */
ast *parse_der(parse_ctx *pc, const lex_token *kw, ast *x, const lex_token *rp)
{
    ast *n = node(pc, AST_DER, kw->off, at(pc, rp->end));
    ast_add(pc->arena, n, x);
    return n;
}

/* x . name (aux = the member name). */
ast *parse_member(parse_ctx *pc, ast *x, const lex_token *name)
{
    ast *n = ast_new(pc->arena, AST_MEMBER, x->loc);
    n->end = at(pc, name->end);
    n->name = text(pc, name);
    n->aux = at(pc, name->off);
    ast_add(pc->arena, n, x);
    return n;
}

/* x [ i ]. */
ast *parse_index(parse_ctx *pc, ast *x, ast *i, const lex_token *rb)
{
    ast *n = ast_new(pc->arena, AST_INDEX, x->loc);
    n->end = at(pc, rb->end);
    ast_add(pc->arena, n, x);
    ast_add(pc->arena, n, i);
    return n;
}

/* x unit (after ')': `sqrt(1e5) N*s/m`): x * NUM(1, unit). */
ast *parse_unit(parse_ctx *pc, ast *x, const lex_token *unit)
{
    return parse_binary(pc, OP_MUL, x, parse_num(pc, unit));
}

/* lo .. hi. */
ast *parse_range(parse_ctx *pc, ast *lo, ast *hi)
{
    ast *n = ast_new(pc->arena, AST_RANGE, lo->loc);
    n->end = hi->end;
    ast_add(pc->arena, n, lo);
    ast_add(pc->arena, n, hi);
    return n;
}

/* { items }: the list itself becomes the AST_SET. */
ast *parse_set(parse_ctx *pc, const lex_token *lb, ast *items, const lex_token *rb)
{
    items->kind = AST_SET;
    items->loc = at(pc, lb->off);
    items->end = at(pc, rb->end);
    return items;
}

/* [ name in dom ] or [ dom ] (name NULL). */
/* f(name in domain, x): a reduction (sum, min, max) over an index domain: an
 * AST_CALL whose iter binds the name and whose only kid is x. */
ast *parse_reduce(parse_ctx *pc, const lex_token *f, const lex_token *lp, const lex_token *name,
                  ast *dom, ast *x, const lex_token *rp)
{
    ast *n = node(pc, AST_CALL, f->off, at(pc, rp->end));
    n->name = text(pc, f);
    n->iter = parse_iter(pc, lp, name, dom, rp);
    ast_add(pc->arena, n, x);
    return n;
}

ast *parse_iter(parse_ctx *pc, const lex_token *lb, const lex_token *name, ast *dom,
                const lex_token *rb)
{
    ast *n = node(pc, AST_ITER, lb->off, at(pc, rb->end));
    if (name) {
        n->name = text(pc, name);
        n->aux = at(pc, name->off);
    }
    ast_add(pc->arena, n, dom);
    return n;
}

/* model name: names the root. */
void parse_model_name(parse_ctx *pc, const lex_token *kw, const lex_token *name)
{
    (void)kw;
    pc->root->name = text(pc, name);
    pc->root->aux = at(pc, name->off);
}

/* [kw] name = value, or kw name when value is NULL: CONST, PARAM, LET,
 * GROUND, UPDATE, SETTING, RESULT, ARG. */
ast *parse_binding(parse_ctx *pc, ast_kind kind, const lex_token *kw,
                   const lex_token *name, ast *value)
{
    ast *n = node(pc, kind, kw ? kw->off : name->off, value ? value->end : at(pc, name->end));
    n->name = text(pc, name);
    n->aux = at(pc, name->off);
    if (value)
        ast_add(pc->arena, n, value);
    return n;
}

/* import name | import "path". */
ast *parse_import(parse_ctx *pc, const lex_token *kw, const lex_token *what)
{
    if (what->code != TK_STRING)
        return parse_binding(pc, AST_IMPORT, kw, what, NULL);
    ast *s = parse_string(pc, what);
    ast *n = node(pc, AST_IMPORT, kw->off, s->end);
    n->str = s->str;
    n->aux = s->loc;
    return n;
}

/* body name iter : type ( args ) { dof ... }. */
ast *parse_body(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *iter,
                const lex_token *type, ast *args, ast *dofs, const lex_token *rb)
{
    ast *n = node(pc, AST_BODY, kw->off, at(pc, rb->end));
    n->name = text(pc, name);
    n->aux = at(pc, name->off);
    n->iter = iter;
    n->str = text(pc, type);
    adopt(pc, n, args);
    adopt(pc, n, dofs);
    return n;
}

/* Append the dof name to list. */
ast *parse_dofs(parse_ctx *pc, ast *list, const lex_token *name)
{
    return ast_add(pc->arena, list, parse_leaf(pc, AST_DOF, name));
}

/* kind name iter between a and b { settings }; "on a" (b NULL) puts a
 * ground node in b's place. */
ast *parse_element(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *iter,
                   ast *a, ast *b, ast *settings, const lex_token *rb)
{
    ast *n = node(pc, AST_ELEMENT, kw->off, at(pc, rb->end));
    n->op = kw->code == TK_SPRING ? ELEM_SPRING : kw->code == TK_DAMPER ? ELEM_DAMPER
          : kw->code == TK_FRICTION ? ELEM_FRICTION : ELEM_CONTACT;
    n->name = text(pc, name);
    n->aux = at(pc, name->off);
    n->iter = iter;
    ast_add(pc->arena, n, a);
    ast_add(pc->arena, n, b ? b : ast_new(pc->arena, AST_GROUND, a->loc));
    adopt(pc, n, settings);
    return n;
}

/* force name iter on target = value, and motion likewise. */
ast *parse_force(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *iter,
                 ast *target, ast *value)
{
    ast *n = parse_binding(pc, kw->code == TK_MOTION ? AST_MOTION : AST_FORCE, kw, name, target);
    n->iter = iter;
    n->end = value->end;
    ast_add(pc->arena, n, value);
    return n;
}

/* interface name between a and b : type { settings }. */
ast *parse_interface(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *a, ast *b,
                     const lex_token *type, ast *settings, const lex_token *rb)
{
    ast *n = node(pc, AST_INTERFACE, kw->off, at(pc, rb->end));
    n->name = text(pc, name);
    n->aux = at(pc, name->off);
    n->str = text(pc, type);
    ast_add(pc->arena, n, a);
    ast_add(pc->arena, n, b ? b : ast_new(pc->arena, AST_GROUND, a->loc));
    adopt(pc, n, settings);
    return n;
}

/* point name iter = position. */
ast *parse_point(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *iter, ast *value)
{
    ast *n = parse_binding(pc, AST_POINT, kw, name, value);
    n->iter = iter;
    return n;
}

/* substructure name : type ( args ) { settings }. */
ast *parse_substructure(parse_ctx *pc, const lex_token *kw, const lex_token *name,
                        const lex_token *type, ast *args, ast *settings, const lex_token *rb)
{
    ast *n = node(pc, AST_SUBSTRUCTURE, kw->off, at(pc, rb->end));
    n->name = text(pc, name);
    n->aux = at(pc, name->off);
    n->str = text(pc, type);
    adopt(pc, n, args);
    adopt(pc, n, settings);
    return n;
}

/* ( first, rest... ): a tuple. */
ast *parse_tuple(parse_ctx *pc, const lex_token *lp, ast *first, ast *rest, const lex_token *rp)
{
    ast *n = node(pc, AST_TUPLE, lp->off, at(pc, rp->end));
    ast_add(pc->arena, n, first);
    adopt(pc, n, rest);
    return n;
}

/* analysis name : kind ( args ), and joint name : kind ( args ). */
ast *parse_analysis(parse_ctx *pc, const lex_token *kw, const lex_token *name,
                    const lex_token *kind, ast *args, const lex_token *rp)
{
    ast *n = node(pc, kw->code == TK_JOINT ? AST_JOINT : AST_ANALYSIS, kw->off, at(pc, rp->end));
    n->name = text(pc, name);
    n->aux = at(pc, name->off);
    n->str = text(pc, kind);
    adopt(pc, n, args);
    return n;
}

/* law kind name ( params ) { statements }. */
ast *parse_law(parse_ctx *pc, const lex_token *kw, const lex_token *kind,
               const lex_token *name, ast *params, ast *stmts, const lex_token *rb)
{
    ast *n = node(pc, AST_LAW, kw->off, at(pc, rb->end));
    n->op = kind->code == TK_FRICTION ? LAW_FRICTION
          : kind->code == TK_CONTACT ? LAW_CONTACT : LAW_FORCE;
    n->name = text(pc, name);
    n->aux = at(pc, name->off);
    adopt(pc, n, params);
    adopt(pc, n, stmts);
    return n;
}

/* name [: unit] [= default]: always two children, either may be NULL. */
ast *parse_lparam(parse_ctx *pc, const lex_token *name, ast *unit, ast *dflt)
{
    ast *n = parse_binding(pc, AST_LPARAM, NULL, name, NULL);
    if (dflt)
        n->end = dflt->end;
    else if (unit)
        n->end = unit->end;
    ast_add(pc->arena, n, unit);
    ast_add(pc->arena, n, dflt);
    return n;
}

/* state name [: unit] [discrete] [= init]: two children, op = 1 when discrete. */
ast *parse_state(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *unit,
                 const lex_token *discrete, ast *init)
{
    ast *n = parse_binding(pc, AST_STATE, kw, name, NULL);
    n->op = discrete != NULL;
    if (init)
        n->end = init->end;
    else if (discrete)
        n->end = at(pc, discrete->end);
    else if (unit)
        n->end = unit->end;
    ast_add(pc->arena, n, unit);
    ast_add(pc->arena, n, init);
    return n;
}

/* der ( name ) = value. */
ast *parse_dereq(parse_ctx *pc, const lex_token *kw, const lex_token *name, ast *value)
{
    return parse_binding(pc, AST_DEREQ, kw, name, value);
}

/* init target = value. */
ast *parse_init(parse_ctx *pc, const lex_token *kw, ast *target, ast *value)
{
    ast *n = node(pc, AST_INIT, kw->off, value->end);
    ast_add(pc->arena, n, target);
    ast_add(pc->arena, n, value);
    return n;
}

/* simulate { settings }. */
ast *parse_simulate(parse_ctx *pc, const lex_token *kw, ast *settings, const lex_token *rb)
{
    ast *n = node(pc, AST_SIMULATE, kw->off, at(pc, rb->end));
    adopt(pc, n, settings);
    return n;
}

/* summary { NAME = OP(column, ...) ... }: kids = the settings. */
ast *parse_summary(parse_ctx *pc, const lex_token *kw, ast *settings, const lex_token *rb)
{
    ast *n = node(pc, AST_SUMMARY, kw->off, at(pc, rb->end));
    adopt(pc, n, settings);
    return n;
}

/* output "file" every interval { columns }: str = file, aux = its location. */
ast *parse_output(parse_ctx *pc, const lex_token *kw, const lex_token *file, ast *every,
                  ast *cols, const lex_token *rb)
{
    ast *n = node(pc, AST_OUTPUT, kw->off, at(pc, rb->end));
    ast *s = parse_string(pc, file);
    n->str = s->str;
    n->aux = s->loc;
    ast_add(pc->arena, n, every);
    adopt(pc, n, cols);
    return n;
}

/* [name =] x: str = the source text of x (the default column name). */
ast *parse_outcol(parse_ctx *pc, const lex_token *name, ast *x)
{
    ast *n = node(pc, AST_OUTCOL, name ? name->off : x->loc.off, x->end);
    if (name) {
        n->name = text(pc, name);
        n->aux = at(pc, name->off);
    }
    n->str = ast_strdup(pc->arena, pc->src + x->loc.off, (size_t)(x->end.off - x->loc.off));
    ast_add(pc->arena, n, x);
    return n;
}
