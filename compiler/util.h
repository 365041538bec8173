/*
 * util.h: small helpers of the compiler. Allocation failure in the compiler
 * aborts the process (the runtime never allocates through these).
 */
#ifndef JNT_UTIL_H
#define JNT_UTIL_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (of element size `size`) so that index `need` fits. */
#define XGROW(arr, cap, need)                                                  \
    do {                                                                       \
        if ((need) >= (cap)) {                                                 \
            int c_ = (cap) ? 2 * (cap) : 8;                                    \
            while (c_ <= (need))                                               \
                c_ *= 2;                                                       \
            (arr) = xrealloc((arr), (size_t)c_ * sizeof *(arr));               \
            (cap) = c_;                                                        \
        }                                                                      \
    } while (0)

#endif
