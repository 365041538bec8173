/*
 * jit.c: in-memory compilation of generated C with libtcc. The only file
 * that includes libtcc.h.
 *
 * The generated code includes <jnt/abi.h> and declares the libm functions
 * it calls; they are handed to tcc as symbols, so no system header, crt or
 * libc is searched at JIT time (-nostdlib): fast and independent of where
 * the C library lives.
 *
 * Both libraries compile in memory: libjnt.a leaves libtcc to the program's
 * link (-ltcc), libjnt.so contains it. Debian ships libtcc only as a
 * non-PIC static archive, but its relocations are all PC-relative or
 * 64-bit absolute in data, so it links into a shared object once its own
 * symbols are hidden (-Wl,--exclude-libs,ALL) and its references to
 * glibc's data symbols stdout, stderr and environ (PC-relative, which a
 * shared object cannot make to another object's data) are renamed to the
 * hidden jit_tcc_* variables below (objcopy --redefine-sym: the Makefile,
 * rule $(B)/obj/libtcc_so.a). No temporary file, no child process, no
 * compiler program at run time.
 *
 * For the compile cache (compile.c, cache.c) tcc also makes a shared object of the C
 * (jit_build_so: TCC_OUTPUT_DLL into a memory file, its bytes stored in the entry),
 * which a cache hit loads with the dynamic loader (jit_load_so: the bytes into a memory
 * file, dlopen) instead of compiling the C again: 0.15 ms against 0.7 ms of tcc for a
 * small model (docs/performance.md, "Start-up"). The object names libm as its one
 * needed library (the libm this process has loaded, found with dladdr); the model's
 * code is tcc's either way, so a run gives the same numbers.
 */
#define _GNU_SOURCE /* memfd_create, dladdr */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libtcc.h>

#include "compile.h"
#include "front/paths.h"

/* libtcc's stdout, stderr and environ inside libjnt.so (see the top): set
 * from glibc's own under jit_lock before every libtcc call. libtcc uses
 * them only where jnt never goes (messages when no error function is set,
 * tcc_run); unused in libjnt.a, where libtcc names glibc's. */
__attribute__((visibility("hidden"))) FILE *jit_tcc_stdout, *jit_tcc_stderr;
__attribute__((visibility("hidden"))) char **jit_tcc_environ;
extern char **environ; /* POSIX: the program declares it */

/* See jnt.h. */
const char *jnt_include_dir(void)
{
    return paths_include();
}

static atomic_long n_memory, n_loaded; /* models compiled in memory, loaded (jit_counts) */

/* See compile.h. */
void jit_counts(long *memory, long *loaded)
{
    *memory = atomic_load(&n_memory);
    *loaded = atomic_load(&n_loaded);
}

/* What a JIT-compiled model owns: the compiled code (tcc's state, or the handle of a
 * loaded shared object) and the model data. */
typedef struct jit_owner {
    TCCState *code;
    void *so;
    int fd; /* the memory file so was loaded from, open while it is (see jit_load_so) */
    double *data;
} jit_owner;

static void release_code(TCCState *s);

static void free_owner(void *o)
{
    jit_owner *w = o;
    if (w->so) {
        dlclose(w->so);
        close(w->fd);
    } else {
        release_code(w->code);
    }
    free(w->data);
    free(w);
}

/* Wrap the compiled jnt_generated_model with its data; on failure frees
 * the data and leaves `code` to the caller. A model the runtime refuses
 * was compiled against other headers than this runtime's (or is broken):
 * say so on diag. */
static int wrap(const void *abi, TCCState *code, void *so, int fd, double *data,
                jnt_model **out, FILE *diag)
{
    jit_owner *w = malloc(sizeof *w);
    int rc = !abi ? JNT_ERR_JIT : !w ? JNT_ERR_NOMEM : JNT_OK;
    if (rc == JNT_OK) {
        *w = (jit_owner){code, so, fd, data};
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

/* libtcc 0.9.27 keeps process-wide state (its Debian build serialises
 * tcc_compile_string only): every libtcc call of this file holds jit_lock,
 * so models may be compiled and freed on several threads at once, one C
 * compilation at a time; runs take no lock (docs/embedding.md, Threads). */
static pthread_mutex_t jit_lock = PTHREAD_MUTEX_INITIALIZER;

/* Take jit_lock; point libtcc's stdout, stderr and environ (libjnt.so) at glibc's. */
static void lock_tcc(void)
{
    pthread_mutex_lock(&jit_lock);
    jit_tcc_stdout = stdout;
    jit_tcc_stderr = stderr;
    jit_tcc_environ = environ;
}

static void release_code(TCCState *s)
{
    lock_tcc();
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
        {"fmax", (const void *)fmax},   {"sincos", (const void *)sincos}, /* gen_expr.c's pairs */
        {"memset", (const void *)memset}, /* gen_rhs's zero rows */
    };
    *out = NULL;
    lock_tcc();
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
            rc = wrap(abi, s, NULL, -1, data, out, diag);
            if (rc != JNT_OK)
                release_code(s); /* wrap freed the data */
            else
                atomic_fetch_add(&n_memory, 1);
            return rc;
        }
    }
    tcc_delete(s);
    pthread_mutex_unlock(&jit_lock);
    free(data);
    return rc;
}

/* A loaded model keeps its memory file open (jit_load_so): past this file number the
 * process has many open already, and the model is compiled in memory instead. */
#define JIT_MAX_FD 255

/* tcc's messages while building a shared object: none (jit_compile, run when the
 * build fails, reports them). */
static void quiet(void *opaque, const char *msg)
{
    (void)opaque, (void)msg;
}

/* A memory file holding n bytes (n 0: empty), or -1. */
static int mem_file(const char *bytes, size_t n)
{
    int fd = memfd_create("jnt-model", MFD_CLOEXEC);
    for (size_t done = 0; fd >= 0 && done < n;) {
        ssize_t k = write(fd, bytes + done, n - done);
        if (k <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)k;
    }
    return fd;
}

/* See compile.h. */
int jit_build_so(const char *csrc, char **so, size_t *nso)
{
    *so = NULL, *nso = 0;
    Dl_info libm;
    if (!dladdr((const void *)sqrt, &libm) || !libm.dli_fname || libm.dli_fname[0] != '/')
        return -1;
    int fd = mem_file("", 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    lock_tcc();
    TCCState *s = fd >= 0 ? tcc_new() : NULL;
    int ok = 0;
    if (s) {
        tcc_set_error_func(s, NULL, quiet);
        tcc_set_options(s, "-nostdlib -nostdinc");
        tcc_add_include_path(s, jnt_include_dir());
        tcc_set_output_type(s, TCC_OUTPUT_DLL);
        ok = tcc_compile_string(s, csrc) == 0 && tcc_add_file(s, libm.dli_fname) == 0 &&
             tcc_output_file(s, path) == 0;
        tcc_delete(s);
    }
    pthread_mutex_unlock(&jit_lock);
    off_t n = ok ? lseek(fd, 0, SEEK_END) : -1;
    char *b = n > 0 ? malloc((size_t)n) : NULL;
    ok = b && pread(fd, b, (size_t)n, 0) == n;
    if (fd >= 0)
        close(fd);
    if (!ok) {
        free(b);
        return -1;
    }
    *so = b, *nso = (size_t)n;
    return 0;
}

/* See compile.h. */
int jit_load_so(const char *so, size_t nso, double *data, FILE *diag, jnt_model **out)
{
    *out = NULL;
    int fd = mem_file(so, nso);
    if (fd < 0 || fd > JIT_MAX_FD) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    /* the dynamic loader takes an object of a name it has loaded for that one: the file
     * stays open (its number, so the name, unique) while the model lives */
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    const void *abi = h ? dlsym(h, "jnt_generated_model") : NULL;
    if (!abi) {
        if (h)
            dlclose(h);
        close(fd);
        return -1;
    }
    int rc = wrap(abi, NULL, h, fd, data, out, diag);
    if (rc != JNT_OK) {
        dlclose(h); /* wrap freed the data */
        close(fd);
    } else {
        atomic_fetch_add(&n_loaded, 1);
    }
    return rc;
}
