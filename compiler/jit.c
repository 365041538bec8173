/*
 * jit.c: in-memory compilation of generated C with libtcc. The only file
 * that includes libtcc.h.
 *
 * The generated code includes <jnt/abi.h> and declares the libm functions
 * it calls; they are handed to tcc as symbols, so no system header, crt or
 * libc is searched at JIT time (-nostdlib): fast and independent of where
 * the C library lives.
 *
 * Debian ships libtcc only as a non-PIC static archive, which cannot be
 * linked into a shared library. libjnt.so is therefore built with
 * JNT_JIT_PROCESS: it runs the tcc compiler as a process to make a shared
 * object in a temporary file and dlopens it (a few milliseconds slower);
 * without tcc on PATH it runs cc instead (gcc -O1: slower to compile), and
 * without either it says so.
 */
#define _DEFAULT_SOURCE /* mkstemps */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "paths.h"

/* See jnt.h. */
const char *jnt_include_dir(void)
{
    return paths_include();
}

/* What a JIT-compiled model owns: the compiled code and the model data. */
typedef struct jit_owner {
    void *code; /* the tcc state or the dlopen handle */
    double *data;
} jit_owner;

static void release_code(void *code);

static void free_owner(void *o)
{
    jit_owner *w = o;
    release_code(w->code);
    free(w->data);
    free(w);
}

/* Wrap the compiled jnt_generated_model with its data; on failure frees
 * the data and leaves `code` to the caller. A model the runtime refuses
 * was compiled against other headers than this runtime's (or is broken):
 * say so on diag. */
static int wrap(const void *abi, void *code, double *data, jnt_model **out, FILE *diag)
{
    jit_owner *w = malloc(sizeof *w);
    int rc = !abi ? JNT_ERR_JIT : !w ? JNT_ERR_NOMEM : JNT_OK;
    if (rc == JNT_OK) {
        *w = (jit_owner){code, data};
        rc = jnt_model_wrap(abi, data, w, free_owner, out);
    }
    if (rc == JNT_ERR_MODEL && diag) {
        int v = ((const jnt_abi_model *)abi)->abi_version;
        if (v != JNT_ABI_VERSION)
            fprintf(diag, "jnt: error: the headers in %s are for model ABI %d, this runtime "
                          "reads ABI %d: install matching headers and library\n",
                    jnt_include_dir(), v, JNT_ABI_VERSION);
        else
            fprintf(diag, "jnt: internal error: the generated model fails the runtime's "
                          "structural checks\n");
    }
    if (rc != JNT_OK) {
        free(w);
        free(data);
    }
    return rc;
}

#ifdef JNT_JIT_PROCESS
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

static void release_code(void *h)
{
    dlclose(h);
}

/* Compile C text with the tcc executable into a shared object and load it. */
int jit_compile(const char *csrc, double *data, FILE *diag, jnt_model **out)
{
    *out = NULL;
    char src[] = "/tmp/jnt-jit-XXXXXX.c";
    int fd = mkstemps(src, 2);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(csrc, f) < 0 || fclose(f) != 0) {
        fprintf(diag, "jnt: error: cannot write a temporary file\n");
        free(data);
        return JNT_ERR_IO;
    }
    char so[sizeof src + 1];
    snprintf(so, sizeof so, "%.*s.so", (int)(sizeof src - 3), src);
    char inc[4096];
    snprintf(inc, sizeof inc, "-I%s", jnt_include_dir());
    /* tcc (fast to compile), else the system's cc when tcc is not installed */
    int st = 0, rc = JNT_ERR_JIT, ok = 0, missing = 0;
    for (int k = 0; k < 2 && !ok; k++) {
        pid_t pid = fork();
        if (pid == 0) {
            if (k == 0)
                execlp("tcc", "tcc", "-shared", "-nostdlib", inc, "-o", so, src, (char *)NULL);
            else
                execlp("cc", "cc", "-std=c11", "-O1", "-fPIC", "-shared", "-nostdlib", "-w", inc,
                       "-o", so, src, (char *)NULL);
            _exit(127);
        }
        ok = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
        int absent = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 127;
        missing += absent;
        if (!ok && !absent)
            break; /* the compiler ran and failed: a jnt bug, not a missing program */
    }
    if (missing == 2) {
        fprintf(diag, "jnt: error: libjnt.so compiles models with the 'tcc' program (Debian "
                      "package tcc) or else 'cc', and neither is on PATH\n");
        free(data);
        remove(src);
        return JNT_ERR_JIT;
    }
    if (ok) {
        void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
        rc = wrap(h ? dlsym(h, "jnt_generated_model") : NULL, h, data, out, diag);
        if (rc != JNT_OK && h)
            dlclose(h);
    } else {
        fprintf(diag, "jnt: internal error: generated C does not compile with tcc\n");
        free(data);
    }
    remove(src);
    remove(so);
    return rc;
}

#else
#include <libtcc.h>

typedef struct jit_err {
    FILE *out;
    int n;
} jit_err;

static void on_error(void *opaque, const char *msg)
{
    jit_err *e = opaque;
    if (e->n++ < 10)
        fprintf(e->out, "jnt: internal error: generated C does not compile: %s\n", msg);
}

/* libtcc keeps process-wide state (its Debian build serialises
 * tcc_compile_string only): every libtcc call of this file holds jit_lock,
 * so models may be compiled and freed on several threads at once
 * (docs/embedding.md). */
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;

static void release_code(void *s)
{
    pthread_mutex_lock(&jit_lock);
    tcc_delete(s);
    pthread_mutex_unlock(&jit_lock);
}

/* Compile C text in memory and wrap its jnt_generated_model. */
int jit_compile(const char *csrc, double *data, FILE *diag, jnt_model **out)
{
    static const struct {
        const char *name;
        const void *fn;
    } libm[] = {
        {"sin", (const void *)sin},     {"cos", (const void *)cos},   {"tan", (const void *)tan},
        {"asin", (const void *)asin},   {"acos", (const void *)acos}, {"atan", (const void *)atan},
        {"sinh", (const void *)sinh},   {"cosh", (const void *)cosh}, {"tanh", (const void *)tanh},
        {"exp", (const void *)exp},     {"log", (const void *)log},   {"sqrt", (const void *)sqrt},
        {"fabs", (const void *)fabs},   {"floor", (const void *)floor},
        {"atan2", (const void *)atan2}, {"pow", (const void *)pow},   {"fmin", (const void *)fmin},
        {"fmax", (const void *)fmax},
    };
    *out = NULL;
    pthread_mutex_lock(&jit_lock);
    TCCState *s = tcc_new();
    if (!s) {
        pthread_mutex_unlock(&jit_lock);
        free(data);
        return JNT_ERR_NOMEM;
    }
    jit_err err = {diag, 0};
    tcc_set_error_func(s, &err, on_error);
    tcc_set_options(s, "-nostdlib -nostdinc");
    tcc_add_include_path(s, jnt_include_dir());
    tcc_set_output_type(s, TCC_OUTPUT_MEMORY);
    int rc = JNT_ERR_JIT;
    if (tcc_compile_string(s, csrc) == 0) {
        for (size_t i = 0; i < sizeof libm / sizeof *libm; i++)
            tcc_add_symbol(s, libm[i].name, libm[i].fn);
        if (tcc_relocate(s, TCC_RELOCATE_AUTO) >= 0) {
            const void *abi = tcc_get_symbol(s, "jnt_generated_model");
            pthread_mutex_unlock(&jit_lock);
            rc = wrap(abi, s, data, out, diag);
            if (rc != JNT_OK)
                release_code(s); /* wrap freed the data */
            return rc;
        }
    }
    tcc_delete(s);
    pthread_mutex_unlock(&jit_lock);
    free(data);
    return rc;
}
#endif
