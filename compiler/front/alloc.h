/*
 * alloc.h: the allocation family of the compiler (xmalloc, xcalloc, xrealloc, xstrdup,
 * xasprintf, XGROW) and the compiler's one way out of a failure.
 *
 * The family never returns NULL. When memory runs out it leaves the work in progress by a
 * longjmp to the innermost recovery point of the calling thread (alloc_recover), which prints
 * "jnt: error: out of memory" on the diagnostics stream and returns JNT_ERR_NOMEM; the public
 * entry points (jnt_compile_file, jnt_compile_string, jnt_translate_file, compile.c) each set
 * one, because libjnt is linked into users' programs and must not abort them. Internal errors
 * (alloc_fatal: a bug in jnt) leave the same way.
 *
 * Outside every recovery point (unit tests calling compiler internals directly) a failure
 * prints the same line on stderr and aborts, as the compiler always did: this abort() in
 * alloc.c is the only one in the compiler.
 *
 * What is freed and what may leak: a recovery point's owner frees what it holds (compile.c:
 * the diagnostics context with its sources, the AST arena, the IR with its expression pool,
 * the generated C and the model data), and alloc_guard frees a stage's own temporaries (the
 * parser's tokens and stacks). The temporaries that the other stages hold in local variables
 * when the failure hits (a symbol table of sema, a half-built array, a string made but not yet
 * stored) are not reachable from any owner and leak. That is accepted: it happens only when
 * memory is already exhausted, it is bounded by one compilation's working set, and catching
 * it would mean a guard around every stage or tracking every block.
 *
 * The recovery points and the failure hook are per thread (_Thread_local): models may be
 * compiled on several threads at once.
 */
#ifndef JNT_ALLOC_H
#define JNT_ALLOC_H

#include <stddef.h>
#include <stdio.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *arr (of element size `size`) so that index `need` fits. On failure arr and cap are
 * left as they were, so that the owner can still free arr. */
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

/* Run fn(arg) as a recovery point of this thread. Returns what fn returns, or, when the
 * family runs out of memory (or alloc_fatal is called) inside fn, prints the failure's one
 * line on out ("jnt: error: out of memory") and returns its status (JNT_ERR_NOMEM, or
 * JNT_ERR_MODEL for an internal error). After a failure the caller frees what arg owns;
 * nothing else of fn's work is unwound (see the file comment for what may leak). */
int alloc_recover(int (*fn)(void *), void *arg, FILE *out);

/* Run fn(arg), then release(arg): also when the family fails inside fn, in which case the
 * failure then continues to the enclosing recovery point. For a stage that owns temporaries
 * its caller cannot see. Outside every recovery point a failure aborts before release runs. */
void alloc_guard(void (*fn)(void *), void *arg, void (*release)(void *));

/* Fail as the family does when memory runs out: for memory that is not the family's (a
 * memory stream that could not grow). */
_Noreturn void alloc_nomem(void);

/* An internal error (a bug in jnt, not in the model): leave to the recovery point, which
 * prints "jnt: internal error: <message>" and returns JNT_ERR_MODEL, like sema's own
 * internal errors. Outside every recovery point: the line on stderr and abort. */
_Noreturn void alloc_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* For tests only: make the n-th following allocation of the family on this thread fail
 * (n = 0: the next one); n < 0: never (the default). The hook stays armed until it fires or
 * is reset, across calls. */
void alloc_fail_after(long n);

#endif
