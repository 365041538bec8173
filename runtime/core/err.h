/*
 * err.h: the one way the runtime fails (internal): format a message into the
 * caller's (err, errn) buffer and return a status code of jnt.h.
 */
#ifndef JNT_ERR_H
#define JNT_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* Format a printf-style message into err (errn bytes, may be NULL/0) and return `status`.
 * The message is truncated to errn - 1 bytes and always NUL-terminated when errn > 0; the
 * caller owns err. */
int jnt_errf(char *err, size_t errn, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same with a va_list: formats into err (errn bytes, may be NULL/0) and returns `status`.
 * ap is consumed as by vsnprintf (the caller still calls va_end). */
int jnt_verrf(char *err, size_t errn, int status, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

#endif
