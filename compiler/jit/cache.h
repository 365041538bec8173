/*
 * cache.h: the compile cache (cache.c): what translating a model produced (the C
 * text, the model data, the files read, the diagnostics printed) kept on disk under
 * $XDG_CACHE_HOME/jnt, so that a second compile of the same files skips parse, sema,
 * the setup library's reductions and the C generator. The design is in cache.c's
 * header comment; the user's side in docs/cli.md, "Compile cache".
 *
 * Every failure of the cache (no folder, a full disk, a corrupt entry) is silent: the
 * compile runs as without it. Nothing here allocates through alloc.h (no recovery
 * point is needed: a failed malloc is a miss).
 */
#ifndef JNT_CACHE_H
#define JNT_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The lookup key of one compile: its text (what must match exactly) and the entry's
 * file. */
typedef struct cache_key {
    char *text;  /* malloc'd */
    size_t len;
    char *file;  /* the entry's path, malloc'd */
} cache_key;

/* What an entry holds; every pointer malloc'd, the caller frees (cache_entry_free). */
typedef struct cache_entry {
    char *csrc;    /* the generated C, NUL-terminated */
    size_t len;
    double *data;  /* the model data (NULL when ndata is 0) */
    long ndata;
    char **inputs; /* the real paths of the files read, NULL-terminated */
    char *diag;    /* what the compile printed on its diagnostics stream (warnings) */
    size_t ndiag;
    char *code;    /* tcc's shared object of csrc (jit_build_so), or NULL */
    size_t ncode;
} cache_entry;

/* The key of compiling the file `path` (name NULL) or the source `text` named `name`;
 * 0 and *k filled, or -1 when the cache is off (JNT_CACHE=0, no usable folder) or the
 * file cannot be read (the compile then reports it). */
int cache_key_make(const char *path, const char *name, const char *text, int max_errors,
                   cache_key *k);
void cache_key_free(cache_key *k);

/* 1 and *e filled when k's entry exists, is whole (its checksum), was made for exactly
 * k and every file it read still has the size and hash it had; 0 otherwise (a bad entry
 * is removed). */
int cache_lookup(const cache_key *k, cache_entry *e);
void cache_entry_free(cache_entry *e);

/* Write e as k's entry (an exclusive temporary file renamed whole over it), then evict
 * the least recently used entries past the size bound (JNT_CACHE_MB). `started`: the
 * CLOCK_REALTIME before cache_key_make; nothing is stored when one of the files read was
 * modified since (it may have changed while the translation read it). 0 or -1. */
int cache_store(const cache_key *k, const cache_entry *e, struct timespec started);

/* A stream that writes through to `out` and keeps a copy of what passed (the
 * diagnostics of a compile, for its entry). NULL when it cannot be made. */
typedef struct cache_tee cache_tee;
cache_tee *cache_tee_open(FILE *out);
FILE *cache_tee_stream(cache_tee *t);
/* Close the stream; the copy (malloc'd, the caller frees) and its length, or NULL when
 * some of it was lost. Frees t. */
char *cache_tee_close(cache_tee *t, size_t *n);

/* Counters of this process (for tests): lookups that hit, that missed with an entry
 * present but refused (corrupt, stale), and entries written. */
void cache_counts(long *hits, long *refused, long *stored);

#endif
