/*
 * parser.y: the grammar of .jnt files (Lemon). Every action builds one node
 * through a parse_* function of compiler/front/parse_build.c; the driver that feeds
 * tokens and reports syntax errors is compiler/front/parse.c.
 *
 * Expressions are stratified (no precedence declarations) so that element
 * endpoints can be restricted to postfix expressions: `between a.x and b`
 * must not read `a.x and b` as a logical and.
 *
 *   expr    := 'if' expr 'then' expr 'else' expr | or
 *   or      := or 'or' and | and          and := and 'and' not | not
 *   not     := 'not' not | cmp            cmp := sum (('<'|'<='|...) sum)?
 *   sum     := sum ('+'|'-') prod | prod  prod := prod ('*'|'/') unary | unary
 *   unary   := ('-'|'+') unary | power    power := postfix ('^' unary)?
 *   postfix := primary | postfix '.' ID | postfix '[' expr ']' | postfix UNIT
 *   primary := NUM | ID | STRING | '(' expr ')' | ID '(' args? ')' | 'der' '(' expr ')'
 */

%name parse_lemon
%token_prefix TK_
%token_type {const lex_token *}
%default_type {ast *}
%extra_argument {parse_ctx *pc}
%stack_size 1000
%start_symbol file

%include {
#include <assert.h>
#include <stdlib.h>
#include "front/parse_ctx.h"
}

%syntax_error {
    parse_syntax_error(pc, yymajor, TOKEN);
}

%parse_failure {
    pc->failed = 1;
}

%stack_overflow {
    if (!pc->failed)
        diag_error(pc->dc, (jnt_loc){pc->file, pc->toks[pc->cur].off},
                   "nesting too deep (more than 1000 levels)");
    pc->failed = 1;
}

/* Token codes, in the order messages list them. */
%token MODEL IMPORT CONST PARAM LET GROUND BODY DOF SPRING DAMPER FRICTION CONTACT
       FORCE MOTION INTEGRAL ANALYSIS SUBSTRUCTURE POINT INTERFACE JOINT MARKER LAW STATE DISCRETE DER UPDATE INIT SIMULATE OUTPUT SUMMARY EVERY
       BETWEEN AND ON IN IF THEN ELSE OR NOT.
%token ID NUM STRING UNIT.
%token LPAREN RPAREN LBRACKET RBRACKET LBRACE RBRACE COMMA SEMI COLON DOT DOTDOT
       ASSIGN EQ NE LT LE GT GE PLUS MINUS STAR SLASH CARET.

/* Keywords that are names wherever the keyword is not expected: `law = ...`,
 * `force = ...` in laws, `slide.force`, `between x and ground`, `import friction`. */
%fallback ID MODEL GROUND BODY DOF SPRING DAMPER FRICTION CONTACT FORCE MOTION INTEGRAL ANALYSIS SUBSTRUCTURE POINT
             INTERFACE JOINT MARKER LAW STATE
             DISCRETE UPDATE INIT OUTPUT SUMMARY EVERY.

%type elemkind {const lex_token *}
%type lawkind {const lex_token *}
%type discrete_opt {const lex_token *}

/* ---- file := ('model' ID)? decl* ---- */
file ::= header decls.
header ::= .
header ::= MODEL(K) ID(N).                        { parse_model_name(pc, K, N); }
decls ::= .                                        { parse_decl_start(pc); }
decls ::= decls decl(D).                           { parse_add_decl(pc, D); }

/* ---- declarations ---- */
decl(A) ::= IMPORT(K) ID(N).                       { A = parse_import(pc, K, N); }
decl(A) ::= IMPORT(K) STRING(S).                   { A = parse_import(pc, K, S); }
decl(A) ::= CONST(K) ID(N) ASSIGN expr(E).         { A = parse_binding(pc, AST_CONST, K, N, E); }
decl(A) ::= PARAM(K) ID(N) ASSIGN expr(E).         { A = parse_binding(pc, AST_PARAM, K, N, E); }
decl(A) ::= LET(K) ID(N) ASSIGN expr(E).           { A = parse_binding(pc, AST_LET, K, N, E); }
decl(A) ::= INTEGRAL(K) ID(N) ASSIGN expr(E).      { A = parse_binding(pc, AST_INTEGRAL, K, N, E); }
decl(A) ::= SUBSTRUCTURE(K) ID(N) COLON ID(T) LPAREN args_opt(G) RPAREN
            LBRACE settings(S) RBRACE(R).          { A = parse_substructure(pc, K, N, T, G, S, R); }
decl(A) ::= ANALYSIS(K) ID(N) COLON ID(T) LPAREN args_opt(G) RPAREN(R).
                                                   { A = parse_analysis(pc, K, N, T, G, R); }
decl(A) ::= JOINT(K) ID(N) COLON ID(T) LPAREN args_opt(G) RPAREN(R).
                                                   { A = parse_analysis(pc, K, N, T, G, R); }
decl(A) ::= GROUND(K) ID(N).                       { A = parse_binding(pc, AST_GROUND, K, N, NULL); }
decl(A) ::= BODY(K) ID(N) iter_opt(I) COLON ID(T) LPAREN args_opt(G) RPAREN
            LBRACE dofs(D) RBRACE(R).              { A = parse_body(pc, K, N, I, T, G, D, R); }
decl(A) ::= elemkind(K) ID(N) iter_opt(I) BETWEEN postfix(X) AND postfix(Y)
            LBRACE settings(S) RBRACE(R).          { A = parse_element(pc, K, N, I, X, Y, S, R); }
decl(A) ::= elemkind(K) ID(N) iter_opt(I) ON postfix(X)
            LBRACE settings(S) RBRACE(R).          { A = parse_element(pc, K, N, I, X, NULL, S, R); }
decl(A) ::= FORCE(K) ID(N) iter_opt(I) ON expr(T) ASSIGN expr(V).
                                                   { A = parse_force(pc, K, N, I, T, V); }
decl(A) ::= INTERFACE(K) ID(N) BETWEEN postfix(X) AND postfix(Y) COLON ID(T)
            LBRACE settings(S) RBRACE(R).          { A = parse_interface(pc, K, N, X, Y, T, S, R); }
decl(A) ::= POINT(K) ID(N) iter_opt(I) ASSIGN expr(V).
                                                   { A = parse_point(pc, K, N, I, V); }
decl(A) ::= MOTION(K) ID(N) iter_opt(I) ON expr(T) ASSIGN expr(V).
                                                   { A = parse_force(pc, K, N, I, T, V); }
decl(A) ::= LAW(K) lawkind(W) ID(N) LPAREN lparams_opt(P) RPAREN
            LBRACE lawstmts(S) RBRACE(R).          { A = parse_law(pc, K, W, N, P, S, R); }
decl(A) ::= INIT(K) expr(T) ASSIGN expr(V).        { A = parse_init(pc, K, T, V); }
decl(A) ::= SIMULATE(K) LBRACE settings(S) RBRACE(R).
                                                   { A = parse_simulate(pc, K, S, R); }
decl(A) ::= SUMMARY(K) LBRACE settings(S) RBRACE(R).
                                                   { A = parse_summary(pc, K, S, R); }
decl(A) ::= OUTPUT(K) STRING(F) EVERY expr(E) LBRACE outcols(C) RBRACE(R).
                                                   { A = parse_output(pc, K, F, E, C, R); }
decl(A) ::= OUTPUT(K) STRING(F) EVERY expr(E) LBRACE outcols(C) COMMA RBRACE(R).
                                                   { A = parse_output(pc, K, F, E, C, R); }

elemkind(A) ::= SPRING(A).
elemkind(A) ::= DAMPER(A).
elemkind(A) ::= FRICTION(A).
elemkind(A) ::= CONTACT(A).

/* ---- iter := '[' (ID 'in')? domain ']' ;  domain := E '..' E | '{' E (',' E)* '}' ---- */
iter_opt(A) ::= .                                  { A = NULL; }
iter_opt(A) ::= LBRACKET(L) domain(D) RBRACKET(R). { A = parse_iter(pc, L, NULL, D, R); }
iter_opt(A) ::= LBRACKET(L) ID(N) IN domain(D) RBRACKET(R).
                                                   { A = parse_iter(pc, L, N, D, R); }
domain(A) ::= expr(X) DOTDOT expr(Y).              { A = parse_range(pc, X, Y); }
domain(A) ::= LBRACE(L) exprs(E) RBRACE(R).        { A = parse_set(pc, L, E, R); }
exprs(A) ::= expr(X).                              { A = parse_list(pc, X); }
exprs(A) ::= exprs(L) COMMA expr(X).               { A = ast_add(pc->arena, L, X); }

/* ---- body blocks: ('dof' ID (',' ID)*)* ---- */
dofs(A) ::= .                                      { A = parse_list(pc, NULL); }
dofs(A) ::= doflist(A).
doflist(A) ::= dofs(L) DOF ID(N).                  { A = parse_dofs(pc, L, N); }
doflist(A) ::= doflist(L) COMMA ID(N).             { A = parse_dofs(pc, L, N); }
doflist(A) ::= dofs(L) MARKER(K) ID(N) ASSIGN expr(E).
                                                   { A = ast_add(pc->arena, L, parse_binding(pc, AST_MARKER, K, N, E)); }

/* ---- settings: ID '=' E, optionally followed by ',' or ';' ---- */
settings(A) ::= .                                  { A = parse_list(pc, NULL); }
settings(A) ::= settings(L) setting(S).            { A = ast_add(pc->arena, L, S); }
setting(A) ::= ID(N) ASSIGN expr(E) sep_opt.       { A = parse_binding(pc, AST_SETTING, NULL, N, E); }
sep_opt ::= .
sep_opt ::= COMMA.
sep_opt ::= SEMI.

/* ---- laws ---- */
lawkind(A) ::= FRICTION(A).
lawkind(A) ::= CONTACT(A).
lawkind(A) ::= FORCE(A).
lparams_opt(A) ::= .                               { A = parse_list(pc, NULL); }
lparams_opt(A) ::= lparams(A).
lparams(A) ::= lparam(X).                          { A = parse_list(pc, X); }
lparams(A) ::= lparams(L) COMMA lparam(X).         { A = ast_add(pc->arena, L, X); }
lparam(A) ::= ID(N) unit_opt(U) default_opt(D).    { A = parse_lparam(pc, N, U, D); }
unit_opt(A) ::= .                                  { A = NULL; }
unit_opt(A) ::= COLON expr(E).                     { A = E; }
default_opt(A) ::= .                               { A = NULL; }
default_opt(A) ::= ASSIGN expr(E).                 { A = E; }
discrete_opt(A) ::= .                              { A = NULL; }
discrete_opt(A) ::= DISCRETE(A).

lawstmts(A) ::= .                                  { A = parse_list(pc, NULL); }
lawstmts(A) ::= lawstmts(L) lawstmt(S).            { A = ast_add(pc->arena, L, S); }
lawstmts(A) ::= lawstmts(A) SEMI.
lawstmt(A) ::= LET(K) ID(N) ASSIGN expr(E).        { A = parse_binding(pc, AST_LET, K, N, E); }
lawstmt(A) ::= STATE(K) ID(N) unit_opt(U) discrete_opt(D) default_opt(I).
                                                   { A = parse_state(pc, K, N, U, D, I); }
lawstmt(A) ::= DER(K) LPAREN ID(N) RPAREN ASSIGN expr(E).
                                                   { A = parse_dereq(pc, K, N, E); }
lawstmt(A) ::= UPDATE(K) ID(N) ASSIGN expr(E).     { A = parse_binding(pc, AST_UPDATE, K, N, E); }
lawstmt(A) ::= ID(N) ASSIGN expr(E).               { A = parse_binding(pc, AST_RESULT, NULL, N, E); }

/* ---- output columns: ID '=' E | E ---- */
outcols(A) ::= outcol(X).                          { A = parse_list(pc, X); }
outcols(A) ::= outcols(L) COMMA outcol(X).         { A = ast_add(pc->arena, L, X); }
outcol(A) ::= ID(N) ASSIGN expr(E).                { A = parse_outcol(pc, N, E); }
outcol(A) ::= expr(E).                             { A = parse_outcol(pc, NULL, E); }

/* ---- call arguments: arg (',' arg)* ;  arg := ID '=' E | E ---- */
args_opt(A) ::= .                                  { A = parse_list(pc, NULL); }
args_opt(A) ::= args(A).
args(A) ::= arg(X).                                { A = parse_list(pc, X); }
args(A) ::= args(L) COMMA arg(X).                  { A = ast_add(pc->arena, L, X); }
arg(A) ::= ID(N) ASSIGN expr(E).                   { A = parse_binding(pc, AST_ARG, NULL, N, E); }
arg(A) ::= expr(A).

/* ---- expressions (see the header comment) ---- */
expr(A) ::= IF(K) expr(C) THEN expr(X) ELSE expr(Y). { A = parse_if(pc, K, C, X, Y); }
expr(A) ::= or(A).
or(A) ::= or(X) OR and(Y).                         { A = parse_binary(pc, OP_OR, X, Y); }
or(A) ::= and(A).
and(A) ::= and(X) AND not(Y).                      { A = parse_binary(pc, OP_AND, X, Y); }
and(A) ::= not(A).
not(A) ::= NOT(K) not(X).                          { A = parse_unary(pc, OP_NOT, K, X); }
not(A) ::= cmp(A).
cmp(A) ::= sum(A).
cmp(A) ::= sum(X) LT sum(Y).                       { A = parse_binary(pc, OP_LT, X, Y); }
cmp(A) ::= sum(X) LE sum(Y).                       { A = parse_binary(pc, OP_LE, X, Y); }
cmp(A) ::= sum(X) GT sum(Y).                       { A = parse_binary(pc, OP_GT, X, Y); }
cmp(A) ::= sum(X) GE sum(Y).                       { A = parse_binary(pc, OP_GE, X, Y); }
cmp(A) ::= sum(X) EQ sum(Y).                       { A = parse_binary(pc, OP_EQ, X, Y); }
cmp(A) ::= sum(X) NE sum(Y).                       { A = parse_binary(pc, OP_NE, X, Y); }
sum(A) ::= sum(X) PLUS prod(Y).                    { A = parse_binary(pc, OP_ADD, X, Y); }
sum(A) ::= sum(X) MINUS prod(Y).                   { A = parse_binary(pc, OP_SUB, X, Y); }
sum(A) ::= prod(A).
prod(A) ::= prod(X) STAR unary(Y).                 { A = parse_binary(pc, OP_MUL, X, Y); }
prod(A) ::= prod(X) SLASH unary(Y).                { A = parse_binary(pc, OP_DIV, X, Y); }
prod(A) ::= unary(A).
unary(A) ::= MINUS(K) unary(X).                    { A = parse_unary(pc, OP_SUB, K, X); }
unary(A) ::= PLUS(K) unary(X).                     { A = parse_unary(pc, OP_ADD, K, X); }
unary(A) ::= power(A).
power(A) ::= postfix(A).
power(A) ::= postfix(X) CARET unary(Y).            { A = parse_binary(pc, OP_POW, X, Y); }
postfix(A) ::= primary(A).
postfix(A) ::= postfix(X) DOT ID(N).               { A = parse_member(pc, X, N); }
postfix(A) ::= postfix(X) LBRACKET expr(I) RBRACKET(R). { A = parse_index(pc, X, I, R); }
postfix(A) ::= postfix(X) UNIT(U).                 { A = parse_unit(pc, X, U); }
primary(A) ::= NUM(T).                             { A = parse_num(pc, T); }
primary(A) ::= ID(T).                              { A = parse_leaf(pc, AST_NAME, T); }
primary(A) ::= STRING(T).                          { A = parse_string(pc, T); }
primary(A) ::= LPAREN(L) expr(X) RPAREN(R).        { A = parse_paren(pc, L, X, R); }
primary(A) ::= LPAREN(L) expr(X) COMMA exprs(E) RPAREN(R). { A = parse_tuple(pc, L, X, E, R); }
primary(A) ::= ID(N) LPAREN args_opt(G) RPAREN(R). { A = parse_call(pc, N, G, R); }
primary(A) ::= ID(F) LPAREN(L) ID(N) IN domain(D) COMMA expr(X) RPAREN(R).
                                                   { A = parse_reduce(pc, F, L, N, D, X, R); }
primary(A) ::= DER(K) LPAREN expr(X) RPAREN(R).    { A = parse_der(pc, K, X, R); }
primary(A) ::= LBRACE(L) exprs(E) RBRACE(R).       { A = parse_set(pc, L, E, R); }

%code {
/* Copy the state numbers of parser p's stack into pc->snap (see parse_expected). */
void parse_snapshot(void *p, parse_ctx *pc)
{
    yyParser *yyp = p;
    int n = (int)(yyp->yytos - yyp->yystack) + 1;
    if (n > pc->capsnap) {
        pc->capsnap = 2 * n;
        pc->snap = realloc(pc->snap, (size_t)pc->capsnap * sizeof *pc->snap);
        if (!pc->snap)
            abort();
    }
    for (int i = 0; i < n; i++)
        pc->snap[i] = yyp->yystack[i].stateno;
    pc->nsnap = n;
}

/* The action for terminal tok in state st, as yy_find_shift_action but
 * without %fallback: a keyword counts only where it is a keyword. */
static int expect_action(int tok, int st)
{
    if (st > YY_MAX_SHIFT)
        return st;
    int i = yy_shift_ofst[st] + tok;
    if (yy_lookahead[i] != tok)
        return yy_default[st];
    return yy_action[i];
}

/* Whether tok would be shifted from the snapshot stack: replay the reductions
 * it triggers on a virtual stack (the snapshot plus an overlay). */
static int expect_shifts(const parse_ctx *pc, int tok)
{
    int over[64], nover = 0, top = pc->nsnap - 1;
    for (int step = 0; step < 10000; step++) {
        int st = nover ? over[nover - 1] : pc->snap[top];
        int act = expect_action(tok, st);
        if (act >= YY_MIN_REDUCE) {
            int rule = act - YY_MIN_REDUCE;
            int pop = -yyRuleInfoNRhs[rule];
            for (; pop > 0 && nover > 0; pop--)
                nover--;
            top -= pop;
            if (top < 0 || nover == 64)
                return 0;
            int below = nover ? over[nover - 1] : pc->snap[top];
            over[nover++] = yy_find_reduce_action(below, yyRuleInfoLhs[rule]);
        } else {
            return act <= YY_MAX_SHIFTREDUCE || act == YY_ACCEPT_ACTION;
        }
    }
    return 0;
}

/* Mark in ok[] every terminal the parser accepts next (see parse_ctx.h). */
int parse_expected(const parse_ctx *pc, unsigned char *ok)
{
    assert(YYNTOKEN <= PARSE_MAXTOK);
    for (int t = 0; t < YYNTOKEN; t++)
        ok[t] = pc->nsnap > 0 && expect_shifts(pc, t);
    return YYNTOKEN;
}
}
