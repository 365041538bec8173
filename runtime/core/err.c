/*
 * err.c: error messages of the runtime (err.h): a printf-style message into
 * the caller's buffer, and the status code handed back.
 */
#include <stdarg.h>
#include <stdio.h>

#include "err.h"

/* See err.h. */
int jnt_verrf(char *err, size_t errn, int status, const char *fmt, va_list ap)
{
    if (err && errn)
        vsnprintf(err, errn, fmt, ap);
    return status;
}

/* See err.h. */
int jnt_errf(char *err, size_t errn, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    jnt_verrf(err, errn, status, fmt, ap);
    va_end(ap);
    return status;
}
