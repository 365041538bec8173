/*
 * files.c: where a model's files may be (docs/cli.md, "Paths a model may
 * name"). A data file or an import named in a model resolves relative to the
 * file that names it and must stay in that file's directory (or below it); an
 * output is relative to the working directory and must stay in it. Absolute
 * paths, '..' and symbolic links that lead out are refused with a located
 * error, unless the place is under a directory the user allowed
 * (JNT_ALLOW_PATH, `--allow-path DIR`). An output may never be
 * the model or a file it imports. A model from elsewhere (a colleague's, a
 * paper's supplement) so cannot read /etc/shadow into a diagnostic or write
 * over ~/.bashrc.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"

/* Whether real path p is dir or below it. */
static int is_under(const char *p, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/')
        return 1;
    return strncmp(p, dir, n) == 0 && (p[n] == '/' || p[n] == 0);
}

/* The real path of path's nearest existing ancestor (itself when it exists)
 * joined with what does not exist yet; NULL if nothing resolves. */
static char *real_or_parent(const char *path)
{
    char real[PATH_MAX];
    if (realpath(path, real))
        return xstrdup(real);
    char *copy = xstrdup(path), *dir = dirname(copy);
    char *r = NULL;
    if (realpath(dir, real)) {
        char *base = xstrdup(path);
        r = xasprintf("%s/%s", real, basename(base));
        free(base);
    }
    free(copy);
    return r;
}

/* Whether real path p is under one of the ':'-separated allowed directories. */
static int allowed(const diag_ctx *dc, const char *p)
{
    if (!dc->allow_path || !p)
        return 0;
    char *list = xstrdup(dc->allow_path), *save = NULL;
    int ok = 0;
    for (char *d = strtok_r(list, ":", &save); d && !ok; d = strtok_r(NULL, ":", &save)) {
        char real[PATH_MAX];
        ok = d[0] && realpath(d, real) && is_under(p, real);
    }
    free(list);
    return ok;
}

/* Whether a path names '..' anywhere. */
static int has_dotdot(const char *p)
{
    for (const char *s = p; (s = strstr(s, "..")) != NULL; s += 2)
        if ((s == p || s[-1] == '/') && (s[2] == 0 || s[2] == '/'))
            return 1;
    return 0;
}

/* See core.h. */
int sema_path_ok(sema *S, jnt_loc at, const char *given, const char *resolved, const char *base,
                 const char *what)
{
    char *real = real_or_parent(resolved);
    char rbase[PATH_MAX];
    int inside = real && realpath(base, rbase) && is_under(real, rbase);
    int ok = given[0] != '/' && !has_dotdot(given) && inside;
    if (!ok && allowed(S->dc, real))
        ok = 1;
    if (!ok && !real && given[0] != '/' && !has_dotdot(given)) {
        /* nothing resolves: a folder of the path does not exist (not a link) */
        char *copy = xstrdup(given);
        diag_error(S->dc, at, "%s '%s': the folder '%s' does not exist", what, given,
                   dirname(copy));
        free(copy);
    } else if (!ok)
        diag_error(S->dc, at, "%s '%s' %s: a model may name files only in %s; pass "
                   "--allow-path DIR to allow a directory you trust", what, given,
                   given[0] == '/' ? "is an absolute path" : has_dotdot(given) ?
                   "goes up with '..'" : "leads out through a symbolic link",
                   strcmp(what, "output") == 0 ? "the working directory (outputs)"
                                               : "its own directory");
    free(real);
    return ok ? 0 : -1;
}

/* See passes.h. */
int sema_output_ok(sema *S, jnt_loc at, const char *given)
{
    if (!strcmp(given, "-") || sema_path_ok(S, at, given, given, ".", "output") != 0)
        return given[0] == '-' && !given[1] ? 0 : -1;
    char out[PATH_MAX], src[PATH_MAX];
    if (!realpath(given, out))
        return 0;
    for (int i = 0; i < S->dc->nsrc; i++)
        if (realpath(S->dc->srcs[i].path, src) && !strcmp(out, src)) {
            diag_error(S->dc, at, "the output '%s' is the model file '%s': it would be "
                       "overwritten", given, S->dc->srcs[i].path);
            return -1;
        }
    for (int i = 0; i < S->ndata; i++)
        if (!strcmp(out, S->data[i])) {
            diag_error(S->dc, at, "the output '%s' is a data file of the model (%s): it would "
                       "be overwritten", given, S->data[i]);
            return -1;
        }
    return 0;
}

/* See core.h. */
void sema_data_file(sema *S, const char *path)
{
    char real[PATH_MAX];
    if (!path || !realpath(path, real))
        return;
    XGROW(S->data, S->capdata, S->ndata);
    S->data[S->ndata++] = xstrdup(real);
}
