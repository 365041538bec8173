/*
 * alloc.c: the allocation family of the compiler and its way out of a failure (alloc.h).
 *
 * Each thread keeps a stack of frames (recovery points and guards) in thread-local storage;
 * a failure longjmps to the innermost frame. A guard releases its stage's temporaries and
 * jumps on outward; a recovery point reports and returns. Without a recovery point on the
 * stack there is nowhere to go, and the process aborts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "jnt/jnt.h"

typedef struct frame {
    jmp_buf env;
    struct frame *prev;
} frame;

static _Thread_local frame *top;       /* innermost frame, NULL: none */
static _Thread_local int npoints;      /* recovery points among the frames */
static _Thread_local long fail_after = -1; /* the test hook (alloc_fail_after) */
static _Thread_local int fail_status;  /* of the failure being unwound */
static _Thread_local char fail_line[256]; /* its message, "jnt: ...\n" */

/* Leave with the failure recorded in fail_status and fail_line. */
static _Noreturn void fail(void)
{
    if (!npoints) {
        fputs(fail_line, stderr);
        abort(); /* the one abort of the compiler: no caller to return to (alloc.h) */
    }
    longjmp(top->env, 1);
}

/* See alloc.h. */
_Noreturn void alloc_nomem(void)
{
    fail_status = JNT_ERR_NOMEM;
    snprintf(fail_line, sizeof fail_line, "jnt: error: out of memory\n");
    fail();
}

/* Whether the test hook makes this allocation fail. */
static int injected(void)
{
    return fail_after >= 0 && fail_after-- == 0;
}

/* malloc that never returns NULL. */
void *xmalloc(size_t n)
{
    void *p = injected() ? NULL : malloc(n ? n : 1);
    if (!p)
        alloc_nomem();
    return p;
}

/* calloc that never returns NULL. */
void *xcalloc(size_t n, size_t size)
{
    void *p = injected() ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p)
        alloc_nomem();
    return p;
}

/* realloc that never returns NULL; on failure p is still valid (and owned by the caller). */
void *xrealloc(void *p, size_t n)
{
    void *q = injected() ? NULL : realloc(p, n ? n : 1);
    if (!q)
        alloc_nomem();
    return q;
}

/* strdup that never returns NULL. */
char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

/* printf into a new malloc'd string. */
char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* See alloc.h. */
_Noreturn void alloc_fatal(const char *fmt, ...)
{
    int n = snprintf(fail_line, sizeof fail_line, "jnt: internal error: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fail_line + n, sizeof fail_line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    strcat(fail_line, "\n");
    fail_status = JNT_ERR_MODEL;
    fail();
}

/* See alloc.h. The frame is a local of this function, written only before setjmp, so it
 * is intact when the jump comes back here (C11 7.13.2.1). */
int alloc_recover(int (*fn)(void *), void *arg, FILE *out)
{
    frame f = {.prev = top};
    int rc;
    top = &f;
    npoints++;
    if (setjmp(f.env) == 0) {
        rc = fn(arg);
    } else {
        rc = fail_status;
        fputs(fail_line, out ? out : stderr);
    }
    top = f.prev;
    npoints--;
    return rc;
}

/* See alloc.h. */
void alloc_guard(void (*fn)(void *), void *arg, void (*release)(void *))
{
    frame f = {.prev = top};
    top = &f;
    if (setjmp(f.env) != 0) {
        /* only reached with a recovery point outside (fail() checks), so prev is not NULL */
        top = f.prev;
        release(arg);
        longjmp(top->env, 1);
    }
    fn(arg);
    top = f.prev;
    release(arg);
}

/* See alloc.h. */
void alloc_fail_after(long n)
{
    fail_after = n < 0 ? -1 : n;
}
