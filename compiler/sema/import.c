/*
 * import.c: pass 1, the names of every declaration of the model and of
 * the files it imports (`import "path.jnt"` relative to the importing file,
 * `import name` from the standard library), each file read once, with import
 * cycles reported as the chain of files that makes them.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/parse.h"
#include "front/paths.h"
#include "sema.h"
#include "passes.h"
#include "front/alloc.h"

/* Directory of the standard library (paths.h). */
const char *sema_stdlib_dir(void)
{
    return paths_stdlib();
}

static int in_list(char **list, int n, const char *path)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], path) == 0)
            return i;
    return -1;
}

static void register_decls(sema *S, const ast *model, int file);

static void push_file(sema *S, const char *real, int file)
{
    int cap = S->capstack;
    XGROW(S->stack, S->capstack, S->nstack);
    if (cap != S->capstack)
        S->stack_file = xrealloc(S->stack_file, (size_t)S->capstack * sizeof *S->stack_file);
    S->stack_file[S->nstack] = file;
    S->stack[S->nstack++] = xstrdup(real);
}

static void do_import(sema *S, const ast *imp, int from_file)
{
    char *path;
    if (imp->str) {
        char *dir = xstrdup(S->dc->srcs[from_file].path);
        path = imp->str[0] == '/' ? xstrdup(imp->str) : xasprintf("%s/%s", dirname(dir), imp->str);
        free(dir);
    } else {
        path = xasprintf("%s/%s.jnt", sema_stdlib_dir(), imp->name);
    }
    if (imp->str) {
        char *dir = xstrdup(S->dc->srcs[from_file].path);
        int bad = sema_path_ok(S, imp->loc, imp->str, path, dirname(dir), "import");
        free(dir);
        if (bad) {
            free(path);
            return;
        }
    }
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        if (imp->str)
            diag_error(S->dc, imp->loc, "cannot open imported file '%s'", path);
        else
            diag_error(S->dc, imp->loc, "unknown module '%s' (no %s)", imp->name, path);
        free(path);
        return;
    }
    int k = in_list(S->stack, S->nstack, real);
    if (k >= 0) {
        char chain[1024] = "";
        for (int i = k; i < S->nstack; i++)
            snprintf(chain + strlen(chain), sizeof chain - strlen(chain), "%s -> ",
                     S->dc->srcs[S->stack_file[i]].path);
        diag_error(S->dc, imp->loc, "import cycle: %s%s", chain, S->dc->srcs[S->stack_file[k]].path);
        free(path);
        return;
    }
    if (in_list(S->imported, S->nimported, real) >= 0) {
        free(path);
        return;
    }
    int f = diag_load_file(S->dc, path);
    if (f < 0) {
        diag_error(S->dc, imp->loc, "cannot read '%s': %s", path, S->dc->load_why);
        free(path);
        return;
    }
    free(path);
    if (!imp->str) { /* messages name stdlib files independently of where it lives */
        /* the new name first: if it cannot be had, the old one is still there to free */
        char *shown = xasprintf("<stdlib>/%s.jnt", imp->name);
        free(S->dc->srcs[f].path);
        S->dc->srcs[f].path = shown;
    }
    XGROW(S->imported, S->capimported, S->nimported);
    S->imported[S->nimported++] = xstrdup(real);
    const ast *m = parse_source(S->dc, S->arena, f);
    if (m) {
        push_file(S, real, f);
        register_decls(S, m, f);
        free(S->stack[--S->nstack]);
    }
}

/* Pass 1: names of every declaration, following imports. */
static void register_decls(sema *S, const ast *model, int file)
{
    for (int i = 0; i < model->nkids; i++) {
        const ast *d = model->kids[i];
        sym *s;
        switch (d->kind) {
        case AST_IMPORT: do_import(S, d, file); break;
        case AST_CONST: sema_declare(S, SYM_CONST, d); break;
        case AST_LET: sema_declare(S, SYM_LET, d); break;
        case AST_INTEGRAL:
            if ((s = sema_declare(S, SYM_INTEGRAL, d)))
                s->pidx = ir_add(&S->m->y, xstrdup(d->name), -1, ex_const(S->pool, 0),
                                 units_none, d->loc);
            break;
        case AST_GROUND: sema_declare(S, SYM_GROUND, d); break;
        case AST_LAW: sema_declare(S, SYM_LAW, d); break;
        case AST_BODY: sema_declare(S, SYM_BODY, d); break;
        case AST_ELEMENT:
        case AST_FORCE:
        case AST_MOTION: sema_declare(S, SYM_ELEM, d); break;
        case AST_SUBSTRUCTURE:
            sema_declare(S, strcmp(d->str, "iwan_chain") ? SYM_SUB : SYM_CHAIN, d);
            break;
        case AST_POINT: sema_declare(S, SYM_POINT, d); break;
        case AST_INTERFACE: sema_declare(S, SYM_IFACE, d); break;
        case AST_JOINT: sema_declare(S, SYM_JOINT, d); break;
        case AST_PARAM:
            if ((s = sema_declare(S, SYM_PARAM, d)))
                s->pidx = ir_add(&S->m->p, xstrdup(d->name), -1, -1, units_none, d->loc);
            break;
        default: break;
        }
    }
}

/* See passes.h. The main file goes on the import stack first, so that a
 * file importing it is a cycle. */
void sema_register(sema *S, const ast *model, int file)
{
    char real[PATH_MAX];
    if (realpath(S->dc->srcs[file].path, real)) {
        push_file(S, real, file);
        XGROW(S->imported, S->capimported, S->nimported);
        S->imported[S->nimported++] = xstrdup(real);
    }
    register_decls(S, model, file);
}
