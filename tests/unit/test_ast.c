/*
 * test_ast.c: the syntax tree's arena and dump (compiler/front/ast.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/ast.h"
#include "check.h"

/* The dump of n in a malloc'd string. */
static char *dump(const ast *n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ast_dump(n, mem, 0);
    fclose(mem);
    return buf;
}

int main(void)
{
    (void)test_out;
    ast_arena *a = ast_arena_new();
    jnt_loc l = {0, 7};

    ast *n = ast_new(a, AST_BINARY, l);
    CHECK(n->kind == AST_BINARY && n->loc.off == 7 && n->end.off == 7 && n->aux.file == -1 &&
          n->nkids == 0 && !n->name && !n->str && !n->iter, "ast_new: zeroed, end = loc");

    /* many children, many strings: the arena grows in blocks */
    ast *list = ast_new(a, AST_SET, l);
    int same = 1;
    for (int i = 0; i < 100000; i++)
        same &= ast_add(a, list, i % 7 ? ast_new(a, AST_NUM, l) : NULL) == list;
    CHECK(same, "ast_add returns the node");
    int nulls = 0;
    for (int i = 0; i < list->nkids; i++)
        nulls += list->kids[i] == NULL;
    CHECK(list->nkids == 100000 && nulls == 14286, "100000 children kept, NULLs as is");
    const char *s = ast_strdup(a, "hello world", 5);
    CHECK(!strcmp(s, "hello"), "ast_strdup copies len bytes and terminates");
    char big[200000];
    memset(big, 'x', sizeof big);
    const char *t = ast_strdup(a, big, sizeof big);
    CHECK(strlen(t) == sizeof big, "a string larger than a block");

    /* the dump: kind, op, name, num [unit], "str", iter, children, () for NULL */
    ast *law = ast_new(a, AST_LAW, l);
    law->op = LAW_CONTACT;
    law->name = "stop";
    ast *p = ast_new(a, AST_LPARAM, l);
    p->name = "k";
    ast *num = ast_new(a, AST_NUM, l);
    num->num = 0.1;
    num->str = "N/m";
    ast_add(a, p, num);
    ast_add(a, p, NULL);
    ast_add(a, law, p);
    ast *st = ast_new(a, AST_STATE, l);
    st->op = 1;
    st->name = "z";
    ast_add(a, law, st);
    ast *str = ast_new(a, AST_STRING, l);
    str->str = "a \"q\"\\\n";
    ast_add(a, law, str);
    ast *el = ast_new(a, AST_ELEMENT, l);
    el->op = ELEM_DAMPER;
    el->name = "d";
    el->iter = ast_new(a, AST_ITER, l);
    el->iter->name = "i";
    ast *u = ast_new(a, AST_UNARY, l);
    u->op = OP_NOT;
    ast_add(a, el, u);
    ast_add(a, law, el);
    char *d = dump(law);
    CHECK(!strcmp(d, "(law contact stop\n"
                     "  (lparam k\n"
                     "    (num 0.1 [N/m])\n"
                     "    ())\n"
                     "  (state discrete z)\n"
                     "  (string \"a \\\"q\\\"\\\\\\n\")\n"
                     "  (element damper d\n"
                     "    (iter i)\n"
                     "    (unary not)))\n"), "dump format");
    free(d);
    num->num = 0.1 + 0.2;
    d = dump(num);
    CHECK(!strcmp(d, "(num 0.30000000000000004 [N/m])\n"), "dump: numbers read back exactly");
    free(d);
    d = dump(NULL);
    CHECK(!strcmp(d, "()\n"), "dump of NULL");
    free(d);

    ast_arena_free(a);
    ast_arena_free(NULL);
    return check_done();
}
