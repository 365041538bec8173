/*
 * args.c: the arguments of a call that takes named settings (a reduction,
 * a generator, step control): bound to their specs, checked for dimension and
 * for being compile-time constants, keywords matched to their choices.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"

/* The index of a keyword argument among spec->choice, or -1 (reported). */
static int bind_choice(sema *S, const ast *e, const arg_spec *spec, const char *what)
{
    const char *w = e->kind == AST_STRING ? e->str : e->kind == AST_NAME ? e->name : NULL;
    for (int j = 0; w && j < spec->nchoice; j++)
        if (!strcmp(spec->choice[j], w))
            return j;
    char list[256] = "";
    for (int j = 0; j < spec->nchoice; j++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 j == 0 ? "" : j + 1 < spec->nchoice ? ", " : " and ", spec->choice[j]);
    if (w)
        diag_error(S->dc, e->loc, "unknown %s '%s' of %s (there are %s)", spec->name, w, what,
                   list);
    else
        diag_error(S->dc, e->loc, "'%s' of %s is a name (there are %s)", spec->name, what, list);
    return -1;
}

/* See core.h. */
int sema_bind_args(sema *S, const ast *call, int first, int last, const arg_spec *spec, int n,
                   const char *what, double *v, const char **str)
{
    const ast *given[16] = {0};
    int pos = 0, err = 0;
    for (int i = first; i < last; i++) {
        const ast *a = call->kids[i];
        int k = -1;
        if (a->kind == AST_ARG) {
            for (int j = 0; j < n; j++)
                if (!strcmp(spec[j].name, a->name))
                    k = j;
            if (k < 0) {
                const char *c[16];
                for (int j = 0; j < n; j++)
                    c[j] = spec[j].name;
                const char *best = jnt_closest_name(a->name, c, n);
                diag_error(S->dc, a->loc, "unknown argument '%s' of %s%s%s%s", a->name, what,
                           best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
                err = 1;
                continue;
            }
        } else {
            k = pos < n ? pos++ : -1;
            if (k < 0) {
                diag_error(S->dc, a->loc, "too many arguments for %s", what);
                err = 1;
                continue;
            }
        }
        given[k] = a->kind == AST_ARG ? a->kids[0] : a;
    }
    for (int k = 0; k < n; k++) {
        if (str)
            str[k] = NULL;
        if (!given[k]) {
            if (isnan(spec[k].def) && spec[k].dim) {
                diag_error(S->dc, call->loc, "%s needs '%s'", what, spec[k].name);
                err = 1;
            }
            v[k] = spec[k].def;
            continue;
        }
        if (spec[k].choice) { /* a keyword */
            int j = bind_choice(S, given[k], &spec[k], what);
            err |= j < 0;
            v[k] = j;
            continue;
        }
        if (!spec[k].dim) { /* a string (a file) */
            if (given[k]->kind != AST_STRING) {
                diag_error(S->dc, given[k]->loc, "'%s' of %s is a file name in quotes",
                           spec[k].name, what);
                err = 1;
            } else {
                str[k] = given[k]->str;
            }
            continue;
        }
        char w[128];
        snprintf(w, sizeof w, "'%s' of %s", spec[k].name, what);
        sval x = sema_num_dim(S, &S->consts, given[k], *spec[k].dim, w);
        if (x.k != V_NUM) {
            err = 1;
            continue;
        }
        if (!ex_is_const(S->pool, x.e, &v[k])) {
            diag_error(S->dc, given[k]->loc, "%s must be a compile-time constant (the mesh and its "
                                             "reduction are built when the model is compiled)", w);
            err = 1;
        }
    }
    return err ? -1 : 0;
}
