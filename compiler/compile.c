/*
 * compile.c: the pipeline: parse -> sema -> IR -> C, and the public
 * jnt_compile_file / jnt_compile_string entry points.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "deriv.h"
#include "gen.h"
#include "parse.h"
#include "sema.h"
#include "util.h"

/* Directory holding <jnt/abi.h>: $JNT_INCLUDE, else the source tree's. */
const char *comp_include_dir(void)
{
    const char *env = getenv("JNT_INCLUDE");
    return env && *env ? env : JNT_SOURCE_DIR "/runtime/include";
}

/* Parse, check and translate one source to C (see compile.h). */
int comp_to_c(diag_ctx *dc, int file, char **csrc, double **data, long *ndata)
{
    ast_arena *arena = ast_arena_new();
    ast *model = parse_source(dc, arena, file);
    int rc = -1;
    if (data)
        *data = NULL, *ndata = 0;
    if (model) {
        ir_model m;
        int ok = sema_lower(dc, arena, model, file, &m) == 0 && !diag_errors(dc);
        if (ok && !csrc) {
            rc = 0;
        } else if (ok) {
            deriv_model(&m);
            ir_data_layout(&m);
            size_t len;
            FILE *out = open_memstream(csrc, &len);
            if (out) {
                gen_model(&m, dc, out);
                rc = fclose(out) == 0 ? 0 : -1;
            }
            if (rc == 0 && m.ndata) {
                *data = xmalloc((size_t)m.ndata * sizeof **data);
                ir_data_fill(&m, *data);
                *ndata = m.ndata;
            }
        }
        ir_free(&m);
    }
    ast_arena_free(arena);
    return diag_errors(dc) ? -1 : rc;
}

static int finish(diag_ctx *dc, int file, const jnt_compile_opts *opts, jnt_model **out)
{
    char *csrc = NULL;
    double *data = NULL;
    long ndata;
    int rc = JNT_ERR_MODEL;
    if (comp_to_c(dc, file, &csrc, &data, &ndata) == 0)
        rc = jit_compile(csrc, data, opts && opts->diag ? opts->diag : stderr, out);
    free(csrc);
    diag_free(dc);
    return rc;
}

/* Compile a .jnt file and JIT it. */
int jnt_compile_file(const char *path, const jnt_compile_opts *opts, jnt_model **out)
{
    diag_ctx dc;
    *out = NULL;
    diag_init(&dc, opts && opts->diag ? opts->diag : stderr,
              opts && opts->max_errors > 0 ? opts->max_errors : 20);
    int f = diag_load_file(&dc, path);
    if (f < 0) {
        fprintf(dc.out, "jnt: error: cannot read '%s': %s\n", path, strerror(errno));
        diag_free(&dc);
        return JNT_ERR_IO;
    }
    return finish(&dc, f, opts, out);
}

/* Compile a model given as text (named `name` in messages) and JIT it. */
int jnt_compile_string(const char *name, const char *text, const jnt_compile_opts *opts,
                       jnt_model **out)
{
    diag_ctx dc;
    *out = NULL;
    diag_init(&dc, opts && opts->diag ? opts->diag : stderr,
              opts && opts->max_errors > 0 ? opts->max_errors : 20);
    int f = diag_add_source(&dc, name, xstrdup(text), strlen(text));
    return finish(&dc, f, opts, out);
}
