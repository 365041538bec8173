/*
 * compile.c: the pipeline: parse -> sema -> IR -> C, and the public
 * jnt_compile_file / jnt_compile_string / jnt_translate_file entry points.
 *
 * Each entry point is a recovery point of the allocation family (alloc.h): when memory runs
 * out anywhere in the pipeline, the work stops, "jnt: error: out of memory" goes to the
 * diagnostics stream, what the call owns (its comp_job) is freed and JNT_ERR_NOMEM returned.
 *
 * The public entry points translate through the compile cache (cache.c): a hit hands back
 * the C text, model data, inputs and warnings of an earlier translation of the same files.
 * jnt_compile_file and jnt_compile_string also keep tcc's shared object of the C in the
 * entry (jit_build_so, on a miss) and load it on a hit (jit_load_so) instead of running
 * tcc again; what cannot be built or loaded is compiled in memory as without the cache.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "front/alloc.h"
#include "cache.h"
#include "compile.h"
#include "lower/deriv.h"
#include "lower/gen.h"
#include "jnt/scene.h"
#include "front/parse.h"
#include "kinds/registry.h"
#include "sema/sema.h"

/* One call of an entry point and everything it owns while it runs. Every owned pointer is
 * either NULL or valid at every allocation, so job_free can run after a failure too. */
typedef struct comp_job {
    const char *path;         /* the file to compile, or NULL: */
    const char *name, *text;  /* the source given as text, named `name` in messages */
    int want_c;               /* translate to C; 0: stop after sema (jnt check) */
    int cached;               /* look the translation up in the compile cache (cache.h) */
    diag_ctx dc;              /* the sources (imports too) and the diagnostics */
    char *copy;               /* the copy of text, until dc owns it */
    ast_arena *arena;         /* every file's syntax tree */
    ir_model m;               /* the flat model and its expression pool */
    FILE *mem;                /* the stream writing csrc, while open */
    char *csrc;               /* the generated C */
    size_t len;
    double *data;             /* the model data (NULL when none) */
    long ndata;
    int defer;                /* a miss's entry is stored by the caller (compile_job), */
    int pending;              /* and this one is: */
    cache_key key;            /* its key, */
    struct timespec started;  /* when the compile began, */
    char *diag;               /* the diagnostics printed (ndiag bytes) */
    size_t ndiag;
    char *code;               /* a hit's shared object (ncode bytes), or NULL */
    size_t ncode;
} comp_job;

/* A job printing diagnostics as opts asks; the caller sets the source and want_c. */
static void job_init(comp_job *j, const jnt_compile_opts *opts)
{
    *j = (comp_job){0};
    jnt_blas_threads(-1); /* reductions run LAPACK at compile time */
    diag_init(&j->dc, opts && opts->diag ? opts->diag : stderr,
              opts && opts->max_errors > 0 ? opts->max_errors : 20);
    j->dc.allow_path = getenv("JNT_ALLOW_PATH"); /* jnt.h; --allow-path sets it */
}

/* Free what the job owns (what the caller took it has set to NULL). */
static void job_free(comp_job *j)
{
    if (j->mem)
        fclose(j->mem);
    j->mem = NULL;
    free(j->csrc);
    free(j->data);
    free(j->copy);
    j->csrc = j->copy = NULL;
    j->data = NULL;
    ir_free(&j->m);
    ast_arena_free(j->arena);
    j->arena = NULL;
    diag_free(&j->dc);
    cache_key_free(&j->key);
    free(j->diag);
    free(j->code);
    j->diag = j->code = NULL;
}

/* Read, parse and check the job's source, then (want_c) run the derivatives pass and
 * translate it to C with its model data. JNT_OK, JNT_ERR_IO or JNT_ERR_MODEL after a
 * message; runs under alloc_recover, which turns running out of memory into
 * JNT_ERR_NOMEM. */
static int translate(void *arg)
{
    comp_job *j = arg;
    int file;
    if (j->path) {
        file = diag_load_file(&j->dc, j->path);
        if (file < 0) {
            fprintf(j->dc.out, "jnt: error: cannot read '%s': %s\n", j->path, j->dc.load_why);
            return JNT_ERR_IO;
        }
    } else {
        j->copy = xstrdup(j->text);
        file = diag_add_source(&j->dc, j->name, j->copy, strlen(j->text));
        j->copy = NULL;
    }
    j->arena = ast_arena_new();
    ast *model = parse_source(&j->dc, j->arena, file);
    if (!model || sema_lower(&j->dc, j->arena, model, file, sema_kinds, &j->m) != 0 || diag_errors(&j->dc))
        return JNT_ERR_MODEL;
    if (!j->want_c)
        return JNT_OK;
    deriv_model(&j->m);
    ir_data_layout(&j->m);
    /* a memory stream fails only when it cannot grow: that is running out of memory */
    j->mem = open_memstream(&j->csrc, &j->len);
    if (!j->mem)
        alloc_nomem();
    gen_model(&j->m, &j->dc, j->mem);
    FILE *mem = j->mem;
    j->mem = NULL;
    if (fclose(mem) != 0)
        alloc_nomem();
    long max_mb = sema_limit("JNT_MAX_CODE_MB", 1024);
    if (j->len > (size_t)max_mb << 20) { /* before the C compiler sees it */
        diag_error(&j->dc, model->loc, "the generated C is %.0f MB, more than the limit of %ld MB "
                   "(set JNT_MAX_CODE_MB to raise it; arrays of fewer instances make less)",
                   (double)j->len / (1 << 20), max_mb);
        return JNT_ERR_MODEL;
    }
    if (j->m.ndata) {
        j->data = xmalloc((size_t)j->m.ndata * sizeof *j->data);
        ir_data_fill(&j->m, j->data);
        j->ndata = j->m.ndata;
    }
    return JNT_OK;
}

/* Translate the job (translate, under alloc_recover), through the compile cache when the
 * job asks for it: a hit fills csrc, data, the inputs and code from the entry and prints
 * the warnings the translation printed; a miss translates with the diagnostics copied and
 * stores the result when it succeeded (with `defer`, leaves key, start and diagnostics
 * in the job, `pending`, for the caller to store). Returns what translate returns. */
static int translate_cached(comp_job *j)
{
    cache_key k;
    struct timespec started;
    clock_gettime(CLOCK_REALTIME, &started);
    if (!j->cached || !j->want_c ||
        cache_key_make(j->path, j->name, j->text, j->dc.max_errors, &k) != 0)
        return alloc_recover(translate, j, j->dc.out);
    cache_entry e;
    if (cache_lookup(&k, &e)) {
        fwrite(e.diag, 1, e.ndiag, j->dc.out);
        j->csrc = e.csrc, j->len = e.len, j->data = e.data, j->ndata = e.ndata;
        j->m.inputs = e.inputs;
        j->code = e.code, j->ncode = e.ncode;
        free(e.diag);
        cache_key_free(&k);
        return JNT_OK;
    }
    FILE *out = j->dc.out;
    cache_tee *t = cache_tee_open(out);
    if (t)
        j->dc.out = cache_tee_stream(t);
    int rc = alloc_recover(translate, j, j->dc.out);
    j->dc.out = out;
    size_t ndiag = 0;
    char *diag = t ? cache_tee_close(t, &ndiag) : NULL;
    if (rc == JNT_OK && diag && j->defer) {
        j->pending = 1;
        j->key = k, j->started = started, j->diag = diag, j->ndiag = ndiag;
        return rc;
    }
    if (rc == JNT_OK && diag)
        cache_store(&k, &(cache_entry){.csrc = j->csrc, .len = j->len, .data = j->data,
                                        .ndata = j->ndata, .inputs = j->m.inputs,
                                        .diag = diag, .ndiag = ndiag},
                    started);
    free(diag);
    cache_key_free(&k);
    return rc;
}

/* Translate the job and JIT the C: a cache hit's shared object loaded, else (a miss)
 * tcc's shared object built, stored with the entry and loaded, else the C compiled in
 * memory. The job is freed before the JIT (the model's memory is not needed by then). */
static int compile_job(comp_job *j, jnt_model **out)
{
    *out = NULL;
    j->want_c = 1;
    j->cached = 1;
    j->defer = 1;
    int rc = translate_cached(j);
    char *csrc = NULL, **inputs = NULL, *so = NULL;
    size_t nso = 0;
    double *data = NULL;
    if (rc == JNT_OK && j->pending) {
        if (jit_build_so(j->csrc, &so, &nso) != 0)
            so = NULL, nso = 0;
        cache_store(&j->key, &(cache_entry){.csrc = j->csrc, .len = j->len, .data = j->data,
                                             .ndata = j->ndata, .inputs = j->m.inputs,
                                             .diag = j->diag, .ndiag = j->ndiag, .code = so,
                                             .ncode = nso},
                    j->started);
    } else if (rc == JNT_OK) {
        so = j->code, nso = j->ncode;
        j->code = NULL;
    }
    if (rc == JNT_OK) {
        csrc = j->csrc, data = j->data, inputs = j->m.inputs;
        j->csrc = NULL, j->data = NULL, j->m.inputs = NULL;
    }
    FILE *diag = j->dc.out;
    job_free(j);
    if (rc == JNT_OK) {
        int loaded = so ? jit_load_so(so, nso, data, diag, out) : -1;
        rc = loaded != -1 ? loaded : jit_compile(csrc, data, diag, out);
    }
    free(so);
    free(csrc);
    if (rc == JNT_OK) {
        jnt_model_set_inputs(*out, inputs);
    } else {
        for (char **p = inputs; p && *p; p++)
            free(*p);
        free(inputs);
    }
    return rc;
}

/* A NULL argument `what` of the entry point fn: a message on the diagnostics stream,
 * JNT_ERR_USAGE. */
static int usage_null(const jnt_compile_opts *opts, const char *fn, const char *what)
{
    fprintf(opts && opts->diag ? opts->diag : stderr, "jnt: error: %s: '%s' is NULL\n", fn,
            what);
    return JNT_ERR_USAGE;
}

/* See jnt.h. */
int jnt_compile_file(const char *path, const jnt_compile_opts *opts, jnt_model **out)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return usage_null(opts, __func__, path ? "out" : "path");
    comp_job j;
    job_init(&j, opts);
    j.path = path;
    return compile_job(&j, out);
}

/* See jnt.h. */
int jnt_compile_string(const char *name, const char *text, const jnt_compile_opts *opts,
                       jnt_model **out)
{
    if (out)
        *out = NULL;
    if (!name || !text || !out)
        return usage_null(opts, __func__, !name ? "name" : !text ? "text" : "out");
    comp_job j;
    job_init(&j, opts);
    j.name = name;
    j.text = text;
    return compile_job(&j, out);
}

/* See compile.h. */
int compile_translate_string(const char *name, const char *text, const jnt_compile_opts *opts,
                             char **csrc, double **data, long *ndata)
{
    comp_job j;
    job_init(&j, opts);
    j.name = name;
    j.text = text;
    j.want_c = 1;
    *csrc = NULL, *data = NULL, *ndata = 0;
    int rc = alloc_recover(translate, &j, j.dc.out);
    if (rc == JNT_OK) {
        *csrc = j.csrc, *data = j.data, *ndata = j.ndata;
        j.csrc = NULL, j.data = NULL;
    }
    job_free(&j);
    return rc;
}

/* See jnt.h. */
int jnt_translate_file(const char *path, const jnt_compile_opts *opts, char **csrc,
                       double **data, long *ndata)
{
    if (csrc)
        *csrc = NULL;
    if (csrc && data)
        *data = NULL;
    if (csrc && ndata)
        *ndata = 0;
    if (!path || (csrc && (!data || !ndata)))
        return usage_null(opts, __func__, !path ? "path" : !data ? "data" : "ndata");
    comp_job j;
    job_init(&j, opts);
    j.path = path;
    j.want_c = csrc != NULL;
    j.cached = 1;
    int rc = translate_cached(&j);
    if (rc == JNT_OK && csrc) {
        *csrc = j.csrc, *data = j.data, *ndata = j.ndata;
        j.csrc = NULL, j.data = NULL;
    }
    if (rc == JNT_OK && opts && opts->inputs) {
        *opts->inputs = j.m.inputs;
        j.m.inputs = NULL;
    }
    job_free(&j);
    return rc;
}

/* See jnt/scene.h: the job's semantic analysis only, with the scene built at its end. */
int jnt_scene_file(const char *path, const jnt_compile_opts *opts, jnt_scene **out)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return usage_null(opts, __func__, path ? "out" : "path");
    comp_job j;
    job_init(&j, opts);
    j.path = path;
    j.m.want_scene = 1;
    int rc = alloc_recover(translate, &j, j.dc.out);
    if (rc == JNT_OK && !j.m.scene)
        rc = JNT_ERR_MODEL;
    if (rc == JNT_OK) {
        *out = j.m.scene;
        j.m.scene = NULL;
    }
    job_free(&j);
    return rc;
}
