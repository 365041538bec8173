/*
 * util.c: allocation helpers that abort on exhaustion.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void *check(void *p)
{
    if (!p) {
        fputs("jnt: fatal: out of memory\n", stderr);
        abort();
    }
    return p;
}

/* malloc that never returns NULL. */
void *xmalloc(size_t n) { return check(malloc(n ? n : 1)); }

/* calloc that never returns NULL. */
void *xcalloc(size_t n, size_t size) { return check(calloc(n ? n : 1, size ? size : 1)); }

/* realloc that never returns NULL. */
void *xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1)); }

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
