/*
 * cache.c: the compile cache (issue 29). Translating car_pendulum takes 0.7 s, most of
 * it the setup library's reductions and the floating frame's invariants; a hit hands
 * back the same C text and model data (bit for bit: they are stored, not recomputed)
 * in a few milliseconds, and with them tcc's shared object of the C (jit.c), which a
 * compile loads instead of running tcc again.
 *
 * Where: $XDG_CACHE_HOME/jnt (an absolute XDG_CACHE_HOME; else $HOME/.cache/jnt), a
 * folder of ours (created 0700; a link, or a folder of another user, turns the cache
 * off), one file per entry, "<16 hex digits>.jntc". JNT_CACHE=0 (or off, no) turns the
 * cache off; JNT_CACHE_MB bounds the folder's entries (default 512 MB): after each
 * store the least recently used entries (file mtime, touched on every hit) go.
 *
 * The key (its text, stored in the entry and compared byte for byte; the file name is
 * its FNV-1a hash, jnt_hash64):
 *   - the format, jnt's version, and the build: device, inode, size and mtime of the
 *     binary the compiler is in (dladdr: libjnt.so, or the program libjnt.a was linked
 *     into), so a rebuilt compiler never reads an older one's entries;
 *   - the main file as named (messages quote it) and its size and hash, or the source
 *     text's name, size and hash; the working folder when the name is relative (imports
 *     and data files are found from the name);
 *   - the environment the translation reads: JNT_ALLOW_PATH, JNT_STDLIB, JNT_INCLUDE,
 *     JNT_MAX_ARRAY, JNT_MAX_MESH, JNT_MAX_CODE_MB, JNT_LINSOLVE; and max_errors.
 * -D values are not in the key: the compile never sees them (jnt_compile_opts has no
 * parameters; `jnt run -D` sets them with jnt_set_param_text on the compiled model),
 * so setup never depends on them.
 *
 * The imports and data files are known only after sema, so the entry lists every file
 * the translation read (the model's inputs: real paths) with its size and hash; a
 * lookup re-reads each (setup_open_input: a regular file, bounded) and trusts the entry
 * only when all match. A file that changed makes a miss and the new result replaces the
 * entry. What is not seen: a symbolic link on the way to an import or data file that now
 * points to another file (the entry checks the files it read, by real path); a changed
 * libjnt is a new build, but a changed BLAS/LAPACK library is not (the entry keeps the
 * numbers the old one gave).
 *
 * The entry (native byte order; the header's 0x01020304 refuses another):
 *   "JNTCACHE" u32 format u32 0x01020304
 *   u64 keylen, key text
 *   u64 ninputs, per input: u64 pathlen, path, u64 size, u64 hash
 *   u64 ndiag, the diagnostics printed (the warnings, replayed on a hit)
 *   u64 clen, the C text
 *   u64 ndata, ndata doubles
 *   u64 ncode, tcc's shared object of the C (0: none; jnt_translate_file stores none)
 *   u64 jnt_hash64 of every byte above
 * It is read whole (a regular file of at most the bound) and refused when short, long,
 * its checksum or any length is wrong, or its key differs: a truncated, flipped or
 * other-version entry is removed and rebuilt, never trusted. It is written through the
 * one output routine (jnt_outfile_open: an exclusive temporary file beside it, renamed
 * over it whole only after every write succeeded), so a concurrent reader sees the old
 * entry, the new one, or none, never half of one.
 * Only a successful translation is stored, and only when no file it read was modified
 * after the compile began (less 20 ms for the file times' tick): such a file may have
 * changed between the translation's read and the store's hash, and the entry would pair
 * the new hash with the old result. (A file dated in the future is never cached.)
 */
#define _GNU_SOURCE /* fopencookie, dladdr */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cache.h"
#include "jnt/jnt.h"
#include "jnt/setup.h"

#define FORMAT 2u
#define ORDER 0x01020304u

static atomic_long n_hit, n_refused, n_stored;

/* See jnt.h. */
uint64_t jnt_hash64(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    if (!b)
        return h;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* A growing byte buffer; `bad` once a malloc failed. */
typedef struct buf {
    char *p;
    size_t n, cap;
    int bad;
} buf;

static void put(buf *b, const void *src, size_t n)
{
    if (b->bad)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->bad = 1;
            return;
        }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void put_str(buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void put_u64(buf *b, uint64_t v)
{
    put(b, &v, sizeof v);
}

/* Is the cache on (JNT_CACHE)? */
static int cache_on(void)
{
    const char *v = getenv("JNT_CACHE");
    return !v || !(!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no"));
}

/* Make dir (0700) unless it exists; then it must be a folder of ours, not a link,
 * that no one else can write to (its entries hold machine code a hit loads). */
static int own_dir(const char *dir)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
                   !(st.st_mode & (S_IWGRP | S_IWOTH))
               ? 0
               : -1;
}

/* The cache's folder into d (created); -1 when there is none to use. */
static int cache_dir(char *d, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int len;
    if (xdg && xdg[0] == '/') {
        len = snprintf(d, n, "%s", xdg);
    } else {
        if (!home || home[0] != '/')
            return -1;
        len = snprintf(d, n, "%s/.cache", home);
    }
    if (len < 0 || (size_t)len + 5 >= n)
        return -1;
    struct stat st; /* XDG_CACHE_HOME itself: made when missing, any owner otherwise */
    if (stat(d, &st) != 0 && mkdir(d, 0700) != 0)
        return -1;
    strcat(d, "/jnt");
    return own_dir(d);
}

/* The size bound of the folder's entries, bytes (JNT_CACHE_MB, default 512). */
static long long cache_bound(void)
{
    const char *v = getenv("JNT_CACHE_MB");
    char *end;
    long long mb = v && *v ? strtoll(v, &end, 10) : 512;
    if (v && *v && (*end || mb < 0))
        mb = 512;
    return mb << 20;
}

/* The hash and size of a file's bytes (setup_open_input's checks), and when mtime is given
 * its modification time; -1 when unreadable. */
static int hash_file(const char *path, long long max, uint64_t *h, uint64_t *size,
                     struct timespec *mtime)
{
    char why[128];
    FILE *f = setup_open_input(path, max, why, sizeof why);
    if (!f)
        return -1;
    struct stat st;
    if (mtime && fstat(fileno(f), &st) == 0)
        *mtime = st.st_mtim;
    else if (mtime)
        *mtime = (struct timespec){INT32_MAX, 0}; /* unknown: as if written just now */
    uint64_t x = JNT_HASH64_START, len = 0;
    unsigned char b[65536];
    size_t k;
    while ((k = fread(b, 1, sizeof b, f)) > 0) {
        x = jnt_hash64(x, b, k);
        len += k;
    }
    int bad = ferror(f);
    fclose(f);
    *h = x, *size = len;
    return bad ? -1 : 0;
}

/* The build: the binary this code is in, "dev:ino:size:mtime". */
static void put_build(buf *b)
{
    Dl_info info;
    struct stat st;
    const char *self = "/proc/self/exe";
    if (dladdr((void *)put_build, &info) && info.dli_fname && info.dli_fname[0] == '/')
        self = info.dli_fname;
    char s[160];
    if (stat(self, &st) == 0)
        snprintf(s, sizeof s, "build %llu:%llu:%lld:%lld.%09ld\n", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino, (long long)st.st_size,
                 (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    else
        snprintf(s, sizeof s, "build unknown %ld\n", (long)getpid()); /* never shared */
    put_str(b, s);
}

/* See cache.h. */
int cache_key_make(const char *path, const char *name, const char *text, int max_errors,
                   cache_key *k)
{
    *k = (cache_key){0};
    char dir[PATH_MAX - 32];
    if (!cache_on() || cache_dir(dir, sizeof dir) != 0)
        return -1;
    buf b = {0};
    char line[PATH_MAX + 64];
    snprintf(line, sizeof line, "jnt compile cache %u\nversion %s\n", FORMAT, jnt_version());
    put_str(&b, line);
    put_build(&b);
    uint64_t h, size;
    const char *shown = path ? path : name;
    if (path) {
        if (hash_file(path, SETUP_MAX_SOURCE, &h, &size, NULL) != 0) {
            free(b.p);
            return -1;
        }
        put_str(&b, "file ");
    } else {
        size = strlen(text);
        h = jnt_hash64(JNT_HASH64_START, text, size);
        put_str(&b, "text ");
    }
    put_str(&b, shown);
    snprintf(line, sizeof line, "\nsize %llu hash %016llx\n", (unsigned long long)size,
             (unsigned long long)h);
    put_str(&b, line);
    if (shown[0] != '/') {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) {
            free(b.p);
            return -1;
        }
        put_str(&b, "cwd ");
        put_str(&b, cwd);
        put_str(&b, "\n");
    }
    static const char *const env[] = {"JNT_ALLOW_PATH", "JNT_STDLIB",  "JNT_INCLUDE",
                                      "JNT_MAX_ARRAY",  "JNT_MAX_MESH", "JNT_MAX_CODE_MB",
                                      "JNT_LINSOLVE"};
    for (size_t i = 0; i < sizeof env / sizeof *env; i++) {
        const char *v = getenv(env[i]);
        put_str(&b, env[i]);
        put_str(&b, v ? "=" : " unset");
        put_str(&b, v ? v : "");
        put_str(&b, "\n");
    }
    snprintf(line, sizeof line, "max_errors %d\n", max_errors);
    put_str(&b, line);
    if (b.bad) {
        free(b.p);
        return -1;
    }
    char *file = malloc(strlen(dir) + 32);
    if (!file) {
        free(b.p);
        return -1;
    }
    sprintf(file, "%s/%016llx.jntc", dir, (unsigned long long)jnt_hash64(JNT_HASH64_START, b.p, b.n));
    *k = (cache_key){b.p, b.n, file};
    return 0;
}

/* See cache.h. */
void cache_key_free(cache_key *k)
{
    free(k->text);
    free(k->file);
    *k = (cache_key){0};
}

/* See cache.h. */
void cache_entry_free(cache_entry *e)
{
    free(e->csrc);
    free(e->data);
    for (char **p = e->inputs; p && *p; p++)
        free(*p);
    free(e->inputs);
    free(e->diag);
    free(e->code);
    *e = (cache_entry){0};
}

/* A reader of an entry's bytes: every take is checked against the end. */
typedef struct rd {
    const char *p, *end;
} rd;

static int take(rd *r, void *dst, size_t n)
{
    if ((size_t)(r->end - r->p) < n)
        return -1;
    memcpy(dst, r->p, n);
    r->p += n;
    return 0;
}

static int take_u64(rd *r, uint64_t *v)
{
    return take(r, v, sizeof *v);
}

/* A malloc'd, NUL-terminated copy of the next length-prefixed bytes (n: the length). */
static char *take_bytes(rd *r, size_t *n)
{
    uint64_t len;
    if (take_u64(r, &len) != 0 || len > (uint64_t)(r->end - r->p))
        return NULL;
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    memcpy(s, r->p, len);
    s[len] = 0;
    r->p += len;
    if (n)
        *n = len;
    return s;
}

/* Parse and check an entry's bytes against k; 0 and *e, or -1. */
static int parse_entry(const char *bytes, size_t n, const cache_key *k, cache_entry *e)
{
    char magic[8];
    uint32_t fmt, order;
    uint64_t sum, ninputs;
    if (n < 8 + 8 + 8)
        return -1;
    memcpy(&sum, bytes + n - 8, 8);
    if (jnt_hash64(JNT_HASH64_START, bytes, n - 8) != sum)
        return -1;
    rd r = {bytes, bytes + n - 8};
    if (take(&r, magic, 8) || memcmp(magic, "JNTCACHE", 8) || take(&r, &fmt, 4) ||
        take(&r, &order, 4) || fmt != FORMAT || order != ORDER)
        return -1;
    size_t klen;
    char *key = take_bytes(&r, &klen);
    int same = key && klen == k->len && !memcmp(key, k->text, klen);
    free(key);
    if (!same || take_u64(&r, &ninputs) || ninputs > (uint64_t)(r.end - r.p) / 24)
        return -1;
    e->inputs = calloc(ninputs + 1, sizeof *e->inputs);
    if (!e->inputs)
        return -1;
    for (uint64_t i = 0; i < ninputs; i++) {
        uint64_t size, h, hs, ss;
        e->inputs[i] = take_bytes(&r, NULL);
        if (!e->inputs[i] || take_u64(&r, &size) || take_u64(&r, &h))
            return -1;
        if (hash_file(e->inputs[i], SETUP_MAX_DATA, &hs, &ss, NULL) != 0 || ss != size || hs != h)
            return -1; /* a file changed since */
    }
    e->diag = take_bytes(&r, &e->ndiag);
    e->csrc = e->diag ? take_bytes(&r, &e->len) : NULL;
    uint64_t nd;
    if (!e->csrc || take_u64(&r, &nd) || nd > (uint64_t)(r.end - r.p) / sizeof(double))
        return -1;
    if (nd) {
        e->data = malloc(nd * sizeof(double));
        if (!e->data || take(&r, e->data, nd * sizeof(double)))
            return -1;
    }
    e->ndata = (long)nd;
    e->code = take_bytes(&r, &e->ncode);
    if (e->code && !e->ncode) {
        free(e->code);
        e->code = NULL;
    } else if (!e->code) {
        return -1;
    }
    return r.p == r.end ? 0 : -1;
}

/* See cache.h. */
int cache_lookup(const cache_key *k, cache_entry *e)
{
    *e = (cache_entry){0};
    char why[128];
    FILE *f = setup_open_input(k->file, cache_bound(), why, sizeof why);
    if (!f)
        return 0;
    struct stat st;
    char *bytes = NULL;
    int ok = fstat(fileno(f), &st) == 0 && st.st_size > 0 &&
             (bytes = malloc((size_t)st.st_size)) != NULL &&
             fread(bytes, 1, (size_t)st.st_size, f) == (size_t)st.st_size && getc(f) == EOF &&
             !ferror(f);
    fclose(f);
    ok = ok && parse_entry(bytes, (size_t)st.st_size, k, e) == 0;
    free(bytes);
    if (!ok) {
        cache_entry_free(e);
        unlink(k->file); /* rebuilt by the compile that follows */
        atomic_fetch_add(&n_refused, 1);
        return 0;
    }
    utimensat(AT_FDCWD, k->file, NULL, 0); /* recently used */
    atomic_fetch_add(&n_hit, 1);
    return 1;
}

/* One entry of the folder, for eviction. */
typedef struct ent {
    struct timespec t;
    long long size;
    char name[32];
} ent;

static int by_age(const void *a, const void *b)
{
    const struct timespec *x = &((const ent *)a)->t, *y = &((const ent *)b)->t;
    return x->tv_sec != y->tv_sec ? (x->tv_sec < y->tv_sec ? -1 : 1)
         : x->tv_nsec != y->tv_nsec ? (x->tv_nsec < y->tv_nsec ? -1 : 1) : 0;
}

/* Does a name end in ".jntc" and fit ent's name? */
static int is_entry(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && n < sizeof((ent *)0)->name && !strcmp(name + n - 5, ".jntc");
}

/* Remove the least recently used entries of dir until the rest fit in bound. */
static void evict(const char *dir, long long bound)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    ent *v = NULL;
    size_t n = 0, cap = 0;
    long long total = 0;
    char path[PATH_MAX + 64];
    struct dirent *de;
    while ((de = readdir(d))) {
        struct stat st;
        if (!is_entry(de->d_name))
            continue;
        if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= (int)sizeof path ||
            lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            ent *w = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
            if (!w)
                break;
            v = w;
        }
        v[n] = (ent){.t = st.st_mtim, .size = (long long)st.st_size};
        if (snprintf(v[n].name, sizeof v->name, "%s", de->d_name) >= (int)sizeof v->name)
            continue; /* not an entry's name (is_entry's are shorter) */
        total += (long long)st.st_size;
        n++;
    }
    closedir(d);
    if (total > bound) {
        qsort(v, n, sizeof *v, by_age);
        for (size_t i = 0; i < n && total > bound; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, v[i].name);
            if (unlink(path) == 0)
                total -= v[i].size;
        }
    }
    free(v);
}

/* See cache.h. */
int cache_store(const cache_key *k, const cache_entry *e, struct timespec started)
{
    /* a file written since the compile started (less the file times' tick, 20 ms to be
     * safe) may have been read before or after the change: the entry would not know */
    started.tv_nsec -= 20000000;
    if (started.tv_nsec < 0)
        started.tv_sec--, started.tv_nsec += 1000000000;
    buf b = {0};
    uint32_t hdr[2] = {FORMAT, ORDER};
    put(&b, "JNTCACHE", 8);
    put(&b, hdr, sizeof hdr);
    put_u64(&b, k->len);
    put(&b, k->text, k->len);
    uint64_t n = 0;
    for (char **p = e->inputs; p && *p; p++)
        n++;
    put_u64(&b, n);
    for (char **p = e->inputs; p && *p; p++) {
        uint64_t h, size;
        struct timespec t;
        if (hash_file(*p, SETUP_MAX_DATA, &h, &size, &t) != 0 || t.tv_sec > started.tv_sec ||
            (t.tv_sec == started.tv_sec && t.tv_nsec >= started.tv_nsec))
            b.bad = 1;
        put_u64(&b, strlen(*p));
        put_str(&b, *p);
        put_u64(&b, size);
        put_u64(&b, h);
    }
    put_u64(&b, e->ndiag);
    put(&b, e->diag ? e->diag : "", e->ndiag);
    put_u64(&b, e->len);
    put(&b, e->csrc, e->len);
    put_u64(&b, (uint64_t)e->ndata);
    put(&b, e->data ? (const void *)e->data : "", (size_t)e->ndata * sizeof(double));
    put_u64(&b, e->code ? e->ncode : 0);
    put(&b, e->code ? e->code : "", e->code ? e->ncode : 0);
    put_u64(&b, jnt_hash64(JNT_HASH64_START, b.p, b.n));
    long long bound = cache_bound();
    if (b.bad || (long long)b.n > bound) {
        free(b.p);
        return -1;
    }
    jnt_outfile *o;
    int rc = jnt_outfile_open(k->file, NULL, &o, NULL, 0);
    if (rc == JNT_OK) {
        fwrite(b.p, 1, b.n, jnt_outfile_stream(o));
        rc = jnt_outfile_commit(o, NULL, 0);
    }
    free(b.p);
    if (rc != JNT_OK)
        return -1;
    atomic_fetch_add(&n_stored, 1);
    char *dir = strdup(k->file);
    if (dir) {
        *strrchr(dir, '/') = 0;
        evict(dir, bound);
    }
    free(dir);
    return 0;
}

/* See jnt.h. */
int jnt_cache_clear(void)
{
    char dir[PATH_MAX - 32], path[PATH_MAX + 64];
    if (cache_dir(dir, sizeof dir) != 0)
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return JNT_ERR_IO;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (is_entry(de->d_name)) {
            if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < (int)sizeof path)
                n += unlink(path) == 0;
        }
    closedir(d);
    return n;
}

/* ---- the diagnostics' copy ---------------------------------------------- */
struct cache_tee {
    FILE *out, *f;
    buf copy;
};

static ssize_t tee_write(void *c, const char *s, size_t n)
{
    cache_tee *t = c;
    put(&t->copy, s, n);
    return fwrite(s, 1, n, t->out) == n ? (ssize_t)n : -1;
}

/* See cache.h. */
cache_tee *cache_tee_open(FILE *out)
{
    cache_tee *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->out = out;
    t->f = fopencookie(t, "w", (cookie_io_functions_t){.write = tee_write});
    if (!t->f) {
        free(t);
        return NULL;
    }
    setvbuf(t->f, NULL, _IONBF, 0); /* in order with what else goes to out */
    return t;
}

/* See cache.h. */
FILE *cache_tee_stream(cache_tee *t)
{
    return t->f;
}

/* See cache.h. */
char *cache_tee_close(cache_tee *t, size_t *n)
{
    int bad = fclose(t->f) != 0 || t->copy.bad;
    char *s = t->copy.p ? t->copy.p : calloc(1, 1);
    *n = t->copy.n;
    free(t);
    if (bad || !s) {
        free(s);
        return NULL;
    }
    return s;
}

/* See cache.h. */
void cache_counts(long *hits, long *refused, long *stored)
{
    *hits = atomic_load(&n_hit);
    *refused = atomic_load(&n_refused);
    *stored = atomic_load(&n_stored);
}
