/*
 * test_alloc.c: the allocation family's way out of a failure (compiler/front/alloc.c): recovery
 * points, guards, internal errors, and the public compile entry points failing cleanly at
 * every allocation of a whole compilation (alloc_fail_after), then compiling normally again.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front/alloc.h"
#include "check.h"
#include "jnt/jnt.h"
#include "oom_model.h"

/* Built with AddressSanitizer (make check-asan), LeakSanitizer checks at exit. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LSAN_DISABLE() __lsan_disable()
#define LSAN_ENABLE() __lsan_enable()
#else
#define LSAN_DISABLE() ((void)0)
#define LSAN_ENABLE() ((void)0)
#endif

static const char oom_line[] = "jnt: error: out of memory\n";

/* Diagnostics go into a memory stream; its text is read after each call. */
typedef struct capture {
    FILE *f;
    char *text;
    size_t len;
} capture;

static jnt_compile_opts open_capture(capture *c)
{
    c->text = NULL;
    c->f = open_memstream(&c->text, &c->len);
    return (jnt_compile_opts){.diag = c->f};
}

/* Close the stream: c->text holds what was printed (free it with free). */
static void close_capture(capture *c)
{
    fclose(c->f);
}

/* ---- recovery points and guards, directly --------------------------------------------- */

static int released;

static int alloc_twice(void *arg)
{
    char **p = arg;
    p[0] = xmalloc(16);
    p[1] = xmalloc(16);
    return 7;
}

static int internal_error(void *arg)
{
    (void)arg;
    alloc_fatal("test bug %d", 42);
}

/* A string and an array grown by XGROW, both released by the guard. */
static void guarded_work(void *arg)
{
    char **p = arg;
    p[0] = xstrdup("held by the guard");
    int cap = 0;
    for (int i = 0; i < 100; i++)
        XGROW(p[1], cap, i);
}

static void guarded_release(void *arg)
{
    char **p = arg;
    free(p[0]), free(p[1]);
    p[0] = p[1] = NULL;
    released++;
}

static int run_guard(void *arg)
{
    alloc_guard(guarded_work, arg, guarded_release);
    return 0;
}

static void test_direct(void)
{
    capture c;
    char *p[2] = {NULL, NULL};

    open_capture(&c);
    int rc = alloc_recover(alloc_twice, p, c.f);
    close_capture(&c);
    CHECK(rc == 7 && p[0] && p[1] && c.len == 0, "a recovery point returns fn's value");
    free(p[0]), free(p[1]), free(c.text);

    /* the second allocation fails: the first is still the owner's (p[0]) */
    p[0] = p[1] = NULL;
    open_capture(&c);
    alloc_fail_after(1);
    rc = alloc_recover(alloc_twice, p, c.f);
    close_capture(&c);
    CHECK(rc == JNT_ERR_NOMEM && p[0] && !p[1] && strcmp(c.text, oom_line) == 0,
          "out of memory: JNT_ERR_NOMEM and one line (got %d, '%.*s')", rc,
          (int)strcspn(c.text, "\n"), c.text);
    free(p[0]), free(c.text);

    open_capture(&c);
    rc = alloc_recover(internal_error, NULL, c.f);
    close_capture(&c);
    CHECK(rc == JNT_ERR_MODEL && strcmp(c.text, "jnt: internal error: test bug 42\n") == 0,
          "alloc_fatal: JNT_ERR_MODEL and 'jnt: internal error: ...' (got %d, '%.*s')", rc,
          (int)strcspn(c.text, "\n"), c.text);
    free(c.text);

    /* a guard releases on success, and on failure before the recovery point returns */
    char *held[2] = {NULL, NULL};
    released = 0;
    rc = alloc_recover(run_guard, held, stderr);
    CHECK(rc == 0 && released == 1 && !held[0], "a guard releases after its work");
    int fails = 0;
    for (long n = 0; n < 6; n++) {
        open_capture(&c);
        released = 0;
        alloc_fail_after(n);
        rc = alloc_recover(run_guard, held, c.f);
        alloc_fail_after(-1);
        close_capture(&c);
        fails += !(rc == JNT_ERR_NOMEM && released == 1 && !held[0] &&
                   strcmp(c.text, oom_line) == 0);
        free(c.text);
    }
    CHECK(fails == 0, "a failure inside a guard releases it, then reaches the recovery point "
          "(%d bad of 6)", fails);

    /* the hook is spent once it fires: the same call then succeeds */
    p[0] = p[1] = NULL;
    rc = alloc_recover(alloc_twice, p, stderr);
    CHECK(rc == 7, "after a failure the family allocates again");
    free(p[0]), free(p[1]);
}

/* ---- the public entry points at every failure point ----------------------------------- */

/* Compile model_src with the n-th allocation failing (n < 0: none): the status, and the
 * diagnostics in *text (malloc'd). */
static int compile_failing(long n, char **text)
{
    capture c;
    jnt_compile_opts opts = open_capture(&c);
    jnt_model *m = (jnt_model *)&c; /* must be reset to NULL */
    alloc_fail_after(n);
    int rc = jnt_compile_string("oom.jnt", model_src, &opts, &m);
    alloc_fail_after(-1);
    close_capture(&c);
    *text = c.text;
    if (rc == JNT_OK)
        jnt_model_free(m);
    else if (m)
        rc = 1000; /* a failure must leave *out NULL */
    return rc;
}

/* Returns the number of allocations a compile takes (0: the model does not compile). */
static long test_compile_every_failure(void)
{
    char *text;
    int rc = compile_failing(-1, &text);
    CHECK(rc == JNT_OK && text[0] == '\0', "the model compiles (%d; %s)", rc, text);
    free(text);
    if (rc != JNT_OK)
        return 0;

    /* Sema, the derivatives pass and codegen keep temporaries in local variables that a
     * failure cannot reach (alloc.h: accepted leaks), so LeakSanitizer is told to ignore
     * what is allocated during this loop; the compiles after it are checked again. */
    LSAN_DISABLE();
    long n, bad = 0, first_bad = -1;
    int bad_rc = 0;
    for (n = 0; n < 200000; n++) {
        rc = compile_failing(n, &text);
        if (rc == JNT_OK) {
            free(text);
            break;
        }
        if (rc != JNT_ERR_NOMEM || strcmp(text, oom_line) != 0) {
            if (!bad++)
                first_bad = n, bad_rc = rc;
        }
        free(text);
    }
    LSAN_ENABLE();
    CHECK(n > 100 && n < 200000, "a compile allocates %ld times through the family", n);
    CHECK(bad == 0, "the compile fails at each of them with JNT_ERR_NOMEM, *out NULL and "
          "exactly '%.*s' (%ld bad; first n = %ld, rc %d)", (int)strlen(oom_line) - 1,
          oom_line, bad, first_bad, bad_rc);

    rc = compile_failing(-1, &text);
    CHECK(rc == JNT_OK && text[0] == '\0', "after %ld failures a normal compile works", n);
    free(text);
    return n;
}

/* jnt_translate_file and jnt_compile_file at every failure point too (the first allocation
 * is the buffer the file is read into); nsteps is how many allocations compiling the same
 * text took. Then a normal translation, and a missing file. */
static void test_files(long nsteps)
{
    char path[] = "/tmp/jnt-test-alloc-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f && fputs(model_src, f) >= 0 && fclose(f) == 0, "a scratch file");
    if (!f)
        return;

    capture c;
    char *csrc;
    double *data;
    long ndata, n[2], bad[2] = {0, 0};
    LSAN_DISABLE(); /* as in test_compile_every_failure */
    for (int k = 0; k < 2; k++) {
        for (n[k] = 0; n[k] < 200000; n[k]++) {
            jnt_compile_opts opts = open_capture(&c);
            jnt_model *m = (jnt_model *)&c;
            csrc = (char *)&c, data = (double *)&c;
            alloc_fail_after(n[k]);
            int rc = k == 0 ? jnt_translate_file(path, &opts, &csrc, &data, &ndata)
                            : jnt_compile_file(path, &opts, &m);
            alloc_fail_after(-1);
            close_capture(&c);
            int ok = rc == JNT_ERR_NOMEM && strcmp(c.text, oom_line) == 0 &&
                     (k == 0 ? !csrc && !data : !m);
            free(c.text);
            if (rc == JNT_OK) {
                if (k == 0)
                    free(csrc), free(data);
                else
                    jnt_model_free(m);
                break;
            }
            bad[k] += !ok;
        }
    }
    LSAN_ENABLE();
    /* a file has a real path, which sema keeps: a few more allocations than from text */
    CHECK(bad[0] == 0 && n[0] >= nsteps && n[0] < 200000, "jnt_translate_file: "
          "JNT_ERR_NOMEM at each of its %ld allocations (%ld bad)", n[0], bad[0]);
    CHECK(bad[1] == 0 && n[1] >= nsteps && n[1] < 200000, "jnt_compile_file: "
          "JNT_ERR_NOMEM at each of its %ld allocations (%ld bad)", n[1], bad[1]);

    jnt_compile_opts opts = open_capture(&c);
    int rc = jnt_translate_file(path, &opts, &csrc, &data, &ndata);
    close_capture(&c);
    CHECK(rc == JNT_OK && csrc && strstr(csrc, "jnt_generated_model") && c.len == 0,
          "then the file translates (%d)", rc);
    if (rc == JNT_OK)
        free(csrc), free(data);
    free(c.text);
    remove(path);

    opts = open_capture(&c);
    rc = jnt_translate_file(path, &opts, &csrc, &data, &ndata);
    close_capture(&c);
    CHECK(rc == JNT_ERR_IO && strstr(c.text, "cannot read"), "a missing file is still JNT_ERR_IO");
    free(c.text);
}

/* ---- per thread ------------------------------------------------------------------------ */

static void *compile_on_thread(void *arg)
{
    char *text;
    *(int *)arg = compile_failing(-1, &text);
    free(text);
    return NULL;
}

/* The hook armed on this thread does not fire on another one (the state is _Thread_local). */
static void test_threads(void)
{
    int rc = -99;
    pthread_t th;
    alloc_fail_after(0);
    int ok = pthread_create(&th, NULL, compile_on_thread, &rc) == 0 && pthread_join(th, NULL) == 0;
    /* still armed here: the next allocation of this thread fails */
    char *p[2] = {NULL, NULL};
    capture c;
    open_capture(&c);
    int here = alloc_recover(alloc_twice, p, c.f);
    close_capture(&c);
    free(p[0]), free(p[1]), free(c.text);
    CHECK(ok && rc == JNT_OK && here == JNT_ERR_NOMEM,
          "a hook armed on one thread leaves another thread's compile alone (%d, %d)", rc,
          here);
}

int main(void)
{
    (void)test_out;
    setenv("JNT_CACHE", "0", 1); /* every compile translates: a cache hit allocates nothing */
    test_direct();
    long nsteps = test_compile_every_failure();
    if (nsteps)
        test_files(nsteps);
    test_threads();
    return check_done();
}
