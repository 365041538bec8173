/*
 * test_cache.c: the compile cache (compiler/jit/cache.c, issue 29 item 4), in a scratch
 * folder of its own (XDG_CACHE_HOME set to a new temporary folder, removed at the end):
 *   - car_pendulum compiled twice: the first stores an entry, the second is a hit (the
 *     cache's counters say which), the C text and model data of jnt_translate_file are
 *     the same bytes, also those of a translation without the cache in the same process
 *     (ARPACK's start vector, runtime/setup/red_modal.c), and the models of the miss, the
 *     hit and JNT_CACHE=0 run 0.5 s to the same rows bit for bit, with the same warning;
 *   - an entry truncated, one with a byte flipped, one of another version (its key says
 *     "version 0.0.0" and its checksum is made right again): each refused, removed and
 *     rebuilt, the rebuilt entry then a hit;
 *   - a changed import (a copy of forced_3dof.jnt and stribeck_3dof.jnt): a miss, the
 *     new text's C, not stored while the file's time is after the compile began (it may
 *     have changed while the compile read it), stored once it is before; JNT_CACHE=0 stores nothing; JNT_CACHE_MB=3 evicts the oldest entry;
 *     jnt_cache_clear empties the folder;
 *   - the code (issue 31 item 3): jnt_compile_file's entry holds tcc's shared object of
 *     the C, a hit loads it and runs no tcc (jit_counts), the rows of frdyn2_bench as
 *     JNT_CACHE=0's bit for bit; a code part that cannot be loaded (its checksum right),
 *     an entry of jnt_translate_file (no code) and a process with 300 more files open are
 *     compiled in memory, same rows; three models loaded at once each run their own code.
 */
#define _GNU_SOURCE /* mkdtemp, memmem */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jit/cache.h"
#include "check.h"
#include "jit/compile.h"
#include "jnt/jnt.h"

static char dir[256];      /* the scratch XDG_CACHE_HOME */
static char entries[300];  /* its jnt folder */

/* The counters since the last call: hits, refused, stored. */
static void counts(long *h, long *r, long *s)
{
    static long h0, r0, s0;
    long h1, r1, s1;
    cache_counts(&h1, &r1, &s1);
    *h = h1 - h0, *r = r1 - r0, *s = s1 - s0;
    h0 = h1, r0 = r1, s0 = s1;
}

/* How many entries the folder holds; the path of the newest in `path`. */
static int entry_count(char *path, size_t n)
{
    DIR *d = opendir(entries);
    if (!d)
        return 0;
    int k = 0;
    struct dirent *de;
    struct timespec newest = {0};
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 5, ".jntc"))
            continue;
        char p[600];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", entries, de->d_name);
        if (stat(p, &st) == 0 &&
            (k == 0 || st.st_mtim.tv_sec > newest.tv_sec ||
             (st.st_mtim.tv_sec == newest.tv_sec && st.st_mtim.tv_nsec >= newest.tv_nsec))) {
            newest = st.st_mtim;
            if (path)
                snprintf(path, n, "%s", p);
        }
        k++;
    }
    closedir(d);
    return k;
}

/* A file's bytes (malloc'd) and length. */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *b = malloc((size_t)len + 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return b;
}

static int spit(const char *path, const char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(b, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

/* Set a file's times `by` seconds from now (a file written since a compile started makes
 * the compile store nothing). */
static void age(const char *path, int by)
{
    struct timespec t[2] = {{time(NULL) + by, 0}, {time(NULL) + by, 0}};
    utimensat(AT_FDCWD, path, t, 0);
}

/* One translation: C text, data, and what went to the diagnostics stream. */
typedef struct tr {
    int rc;
    char *csrc;
    double *data;
    long ndata;
    char *diag;
    size_t ndiag;
} tr;

static tr translate(const char *path)
{
    tr t = {0};
    FILE *f = open_memstream(&t.diag, &t.ndiag);
    jnt_compile_opts o = {.diag = f};
    t.rc = jnt_translate_file(path, &o, &t.csrc, &t.data, &t.ndata);
    fclose(f);
    return t;
}

static void tr_free(tr *t)
{
    free(t->csrc);
    free(t->data);
    free(t->diag);
}

static int same(const tr *a, const tr *b)
{
    return a->rc == JNT_OK && b->rc == JNT_OK && !strcmp(a->csrc, b->csrc) &&
           a->ndata == b->ndata &&
           (a->ndata == 0 || !memcmp(a->data, b->data, (size_t)a->ndata * sizeof(double))) &&
           a->ndiag == b->ndiag && !memcmp(a->diag, b->diag, a->ndiag);
}

/* Compile path and run it to t_end; the rows (malloc'd) and their count. */
static double *run_rows(const char *path, double t_end, long *nrows, int *nout)
{
    jnt_model *m = NULL;
    FILE *null = fopen("/dev/null", "w");
    jnt_compile_opts o = {.diag = null};
    int rc = jnt_compile_file(path, &o, &m);
    fclose(null);
    if (rc != JNT_OK)
        return NULL;
    *nout = jnt_output_count(m);
    *nrows = 0;
    long cap = 100000;
    double *rows = malloc((size_t)cap * (size_t)*nout * sizeof *rows);
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts r = {.csv_path = "", .t_end = t_end, .rows = rows, .rows_cap = cap,
                      .rows_n = nrows};
    rc = d ? jnt_run(m, d, &r) : JNT_ERR_NOMEM;
    jnt_data_free(d);
    jnt_model_free(m);
    if (rc != JNT_OK || *nrows > cap) {
        free(rows);
        return NULL;
    }
    return rows;
}

/* Corrupt the newest entry with fn, then translate again: refused, rebuilt, same. */
static void corrupt_case(const char *what, void (*fn)(char *b, size_t *n), const tr *ref)
{
    char path[600];
    size_t n;
    long h, r, s;
    entry_count(path, sizeof path);
    char *b = slurp(path, &n);
    if (!b) {
        CHECK(0, "%s: the entry can be read", what);
        return;
    }
    fn(b, &n);
    spit(path, b, n);
    free(b);
    tr t = translate("examples/car_pendulum.jnt");
    counts(&h, &r, &s);
    CHECK(h == 0 && r == 1 && s == 1, "%s: refused and rebuilt (hits %ld, refused %ld, "
          "stored %ld)", what, h, r, s);
    CHECK(t.rc == JNT_OK && t.ndata == ref->ndata && t.ndiag == ref->ndiag &&
          !memcmp(t.diag, ref->diag, t.ndiag), "%s: translated anew, with the warning", what);
    tr u = translate("examples/car_pendulum.jnt");
    counts(&h, &r, &s);
    CHECK(h == 1 && same(&t, &u), "%s: the rebuilt entry is a hit, its C and data (%ld)", what,
          h);
    tr_free(&t);
    tr_free(&u);
}

static void cut_half(char *b, size_t *n)
{
    (void)b;
    *n /= 2;
}

static void flip_byte(char *b, size_t *n)
{
    b[*n / 2] ^= 0x10;
}

/* Another version: the key's version line rewritten, the checksum made right. */
static void other_version(char *b, size_t *n)
{
    char *v = memmem(b, *n, "\nversion ", 9);
    if (!v)
        return;
    for (char *p = v + 9; *p != '\n'; p++)
        if (*p >= '0' && *p <= '9')
            *p = '0';
    uint64_t sum = jnt_hash64(JNT_HASH64_START, b, *n - 8);
    memcpy(b + *n - 8, &sum, 8);
}

/* The jit counters since the last call: compiled in memory, loaded. */
static void jits(long *mem, long *load)
{
    static long m0, l0;
    long m1, l1;
    jit_counts(&m1, &l1);
    *mem = m1 - m0, *load = l1 - l0;
    m0 = m1, l0 = l1;
}

/* The code an entry keeps: tcc's shared object, loaded on a hit (frdyn2_bench). */
static void code_cases(void)
{
    const char *m = "examples/frdyn2_bench.jnt";
    long n0 = 0, n1 = 0, n2 = 0, n3 = 0, n4 = 0, mem, load, h, r, s;
    int w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0;
    setenv("JNT_CACHE", "0", 1);
    double *r0 = run_rows(m, 0.01175, &n0, &w0);
    unsetenv("JNT_CACHE");
    jits(&mem, &load);
    counts(&h, &r, &s);
    double *r1 = run_rows(m, 0.01175, &n1, &w1);
    jits(&mem, &load);
    counts(&h, &r, &s);
    CHECK(h == 0 && s == 1 && mem == 0 && load == 1, "frdyn2_bench, a miss: stored, its shared "
          "object built and loaded, no compile in memory (stored %ld, in memory %ld, loaded "
          "%ld)", s, mem, load);
    cache_key k;
    cache_entry e;
    int got = cache_key_make(m, NULL, NULL, 20, &k) == 0 && cache_lookup(&k, &e);
    counts(&h, &r, &s); /* that lookup's hit */
    CHECK(got && e.code && e.ncode > 64 && !memcmp(e.code, "\177ELF", 4) &&
          !memcmp(e.code + 16, "\3\0", 2), "the entry holds an ELF shared object (%zu bytes)",
          got ? e.ncode : 0);
    double *r2 = run_rows(m, 0.01175, &n2, &w2);
    jits(&mem, &load);
    counts(&h, &r, &s);
    CHECK(h == 1 && mem == 0 && load == 1, "a hit loads it, no tcc (hits %ld, in memory %ld, "
          "loaded %ld)", h, mem, load);
    /* a code part that does not load: the checksum right (cache_store), garbage inside */
    if (got) {
        memset(e.code, 0x5a, e.ncode);
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        cache_store(&k, &e, now);
    }
    double *r3 = run_rows(m, 0.01175, &n3, &w3);
    jits(&mem, &load);
    counts(&h, &r, &s);
    CHECK(got && h == 1 && mem == 1 && load == 0, "a code part that cannot be loaded: compiled "
          "in memory (hits %ld, in memory %ld, loaded %ld)", h, mem, load);
    /* jnt_translate_file stores no code: its entry's C is compiled in memory */
    if (got)
        unlink(k.file);
    tr t = translate(m);
    double *r4 = run_rows(m, 0.01175, &n4, &w4);
    jits(&mem, &load);
    counts(&h, &r, &s);
    CHECK(t.rc == JNT_OK && h == 1 && s == 1 && mem == 1 && load == 0, "jnt_translate_file's entry (no "
          "code): jnt_compile_file hits it and compiles in memory (hits %ld, in memory %ld)",
          h, mem);
    size_t bytes = (size_t)n0 * (size_t)w0 * sizeof *r0;
    CHECK(r0 && r1 && r2 && r3 && r4 && n0 > 1000 && n1 == n0 && n2 == n0 && n3 == n0 &&
          n4 == n0 && !memcmp(r0, r1, bytes) && !memcmp(r0, r2, bytes) &&
          !memcmp(r0, r3, bytes) && !memcmp(r0, r4, bytes),
          "frdyn2_bench's %ld rows: JNT_CACHE=0's, the miss's, the hit's and both fallbacks' "
          "bit for bit", n0);
    tr_free(&t);
    if (got)
        cache_entry_free(&e);
    cache_key_free(&k);
    free(r0), free(r1), free(r2), free(r3), free(r4);

    /* models loaded at once, two misses and a hit: each its own code (the dynamic loader
     * would hand back the first for a path it has loaded) */
    jnt_cache_clear();
    FILE *null = fopen("/dev/null", "w");
    jnt_compile_opts o = {.diag = null};
    jnt_model *ma = NULL, *mb = NULL, *mc = NULL;
    jnt_compile_file("examples/forced_3dof.jnt", &o, &ma);
    jnt_compile_file(m, &o, &mb);
    jnt_compile_file("examples/forced_3dof.jnt", &o, &mc);
    fclose(null);
    jits(&mem, &load);
    counts(&h, &r, &s);
    const char *fa = ma ? jnt_model_abi(ma)->output_file : NULL;
    const char *fb = mb ? jnt_model_abi(mb)->output_file : NULL;
    const char *fc = mc ? jnt_model_abi(mc)->output_file : NULL;
    CHECK(fa && fb && fc && strstr(fa, "forced_3dof") && strstr(fb, "frdyn2_bench") &&
              strstr(fc, "forced_3dof") && ma != mc && load == 3,
          "three models loaded at once, each its own code (%s, %s, %s; loaded %ld)",
          fa ? fa : "-", fb ? fb : "-", fc ? fc : "-", load);
    jnt_model_free(ma);
    jnt_model_free(mb);
    jnt_model_free(mc);

    /* a process with many files open: the model is compiled in memory (jit.c, JIT_MAX_FD) */
    int fds[300], nf = 0;
    while (nf < 300 && (fds[nf] = open("/dev/null", O_RDONLY)) >= 0)
        nf++;
    null = fopen("/dev/null", "w");
    jnt_model *md = NULL;
    o.diag = null;
    jnt_compile_file(m, &o, &md);
    if (null)
        fclose(null);
    while (nf > 0)
        close(fds[--nf]);
    jits(&mem, &load);
    counts(&h, &r, &s);
    CHECK(md && h == 1 && mem == 1 && load == 0, "300 more files open: a hit compiled in memory "
          "(hits %ld, in memory %ld, loaded %ld)", h, mem, load);
    jnt_model_free(md);
}

int main(void)
{
    /* the entries' sizes below are those of unrolled C (car_pendulum's 2 MB; its kernels
     * as loops, compiler/lower/gen_loop.c, make 0.7 MB) */
    setenv("JNT_LOOPS", "0", 1);
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/jnt-test-cache-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        CHECK(0, "a scratch folder in %s", dir);
        return 1;
    }
    snprintf(entries, sizeof entries, "%s/jnt", dir);
    setenv("XDG_CACHE_HOME", dir, 1);
    unsetenv("JNT_CACHE");
    unsetenv("JNT_CACHE_MB");
    long h, r, s;
    counts(&h, &r, &s);
    /* FNV-1a's published values (the empty string, "a") and a NULL */
    CHECK(jnt_hash64(JNT_HASH64_START, "", 0) == 0xcbf29ce484222325ULL &&
          jnt_hash64(JNT_HASH64_START, "a", 1) == 0xaf63dc4c8601ec8cULL &&
          jnt_hash64(7, NULL, 5) == 7, "jnt_hash64 is FNV-1a (64 bits); NULL bytes change nothing");

    /* the first compile stores, the second hits: same C, data, warning */
    tr a = translate("examples/car_pendulum.jnt");
    counts(&h, &r, &s);
    CHECK(a.rc == JNT_OK && h == 0 && s == 1 && entry_count(NULL, 0) == 1,
          "car_pendulum's first translation stores one entry (rc %d, stored %ld)", a.rc, s);
    CHECK(a.ndiag > 0 && strstr(a.diag, "warning: jtv gives 18 vectors"),
          "its warning is printed");
    tr b = translate("examples/car_pendulum.jnt");
    counts(&h, &r, &s);
    CHECK(h == 1 && s == 0, "the second is a hit (hits %ld, stored %ld)", h, s);
    CHECK(same(&a, &b), "the hit gives the same C (%zu bytes), model data (%ld doubles, "
          "bit for bit) and warning", strlen(a.csrc), a.ndata);
    tr_free(&b);

    /* translations without the cache: the same bytes as the hit, also a second one in this
     * process (before, ARPACK's start vector ran on from one reduction to the next in a
     * process: 57,105 of the 57,109 doubles differed, the basis's signs) */
    setenv("JNT_CACHE", "0", 1);
    tr b0 = translate("examples/car_pendulum.jnt");
    counts(&h, &r, &s);
    CHECK(h == 0 && s == 0, "JNT_CACHE=0: no lookup, nothing stored (%ld, %ld)", h, s);
    CHECK(same(&a, &b0), "JNT_CACHE=0, the process's third reduction: the entry's C and data, "
          "bit for bit");
    tr_free(&b0);

    /* compiled and run: the rows of the miss that stores, of the hit and without the cache,
     * bit for bit */
    long n0 = 0, n1 = 0, n2 = 0;
    int w0 = 0, w1 = 0, w2 = 0;
    double *r0 = run_rows("examples/car_pendulum.jnt", 0.5, &n0, &w0);
    unsetenv("JNT_CACHE");
    CHECK(jnt_cache_clear() == 1 && entry_count(NULL, 0) == 0, "jnt_cache_clear empties it");
    double *r1 = run_rows("examples/car_pendulum.jnt", 0.5, &n1, &w1);
    counts(&h, &r, &s);
    CHECK(h == 0 && s == 1, "jnt_compile_file: a miss stores (%ld, %ld)", h, s);
    double *r2 = run_rows("examples/car_pendulum.jnt", 0.5, &n2, &w2);
    counts(&h, &r, &s);
    CHECK(h == 1 && s == 0, "jnt_compile_file: then a hit (%ld, %ld)", h, s);
    CHECK(r0 && r1 && r2 && n0 == n1 && n1 == n2 && w0 == w1 && w1 == w2 && n1 > 10 &&
          !memcmp(r1, r2, (size_t)n1 * (size_t)w1 * sizeof *r1) &&
          !memcmp(r0, r1, (size_t)n1 * (size_t)w1 * sizeof *r1),
          "0.5 s of car_pendulum: %ld rows of %d outputs, the miss's, the hit's and "
          "JNT_CACHE=0's bit for bit", n1, w1);
    free(r0);
    free(r1);
    free(r2);
    tr_free(&a);
    a = translate("examples/car_pendulum.jnt"); /* the entry's translation, for what follows */
    counts(&h, &r, &s);
    CHECK(h == 1, "jnt_translate_file hits the entry jnt_compile_file stored (%ld)", h);

    /* corrupt entries: refused, rebuilt */
    corrupt_case("an entry cut to half its size", cut_half, &a);
    corrupt_case("an entry with a byte flipped", flip_byte, &a);
    corrupt_case("an entry of another version (its checksum right)", other_version, &a);
    tr_free(&a);

    /* a changed import: a miss, the new C */
    char m1[300], m2[300];
    snprintf(m1, sizeof m1, "%s/forced_3dof.jnt", dir);
    snprintf(m2, sizeof m2, "%s/stribeck_3dof.jnt", dir);
    size_t n;
    char *t1 = slurp("examples/forced_3dof.jnt", &n);
    CHECK(t1 && spit(m1, t1, n) == 0, "a copy of forced_3dof.jnt");
    free(t1);
    char *t2 = slurp("examples/stribeck_3dof.jnt", &n);
    CHECK(t2 && spit(m2, t2, n) == 0, "a copy of stribeck_3dof.jnt");
    age(m1, -60);
    age(m2, -60);
    tr c = translate(m1), d = translate(m1);
    counts(&h, &r, &s);
    CHECK(c.rc == JNT_OK && same(&c, &d) && h == 1 && s == 1,
          "the copy: stored, then a hit (%ld, %ld)", h, s);
    char *changed = t2 ? strstr(t2, "k2 = 100 N/m") : NULL;
    if (changed) /* the spring k2: 100 N/m becomes 200 N/m */
        changed[5] = '2';
    CHECK(changed && spit(m2, t2, n) == 0, "the import's k2 changed to 200 N/m");
    age(m2, 60); /* as if written while the compile ran */
    tr e = translate(m1);
    counts(&h, &r, &s);
    CHECK(e.rc == JNT_OK && h == 0 && r == 1 && s == 0 && strcmp(e.csrc, c.csrc) != 0,
          "after the import changed: refused, translated anew, other C, and not stored: the "
          "file's time is after the compile began (refused %ld, stored %ld)", r, s);
    tr_free(&e);
    age(m2, -60);
    e = translate(m1);
    counts(&h, &r, &s);
    CHECK(e.rc == JNT_OK && h == 0 && s == 1 && strcmp(e.csrc, c.csrc) != 0,
          "the file's time a minute back: stored (stored %ld)", s);
    free(t2);
    tr_free(&c);
    tr_free(&d);
    tr_free(&e);

    /* the size bound: with car_pendulum's entry (2 MB, the least recently used) and the
     * copy's, lap_joint's (0.3 MB) in 1 MB evicts car_pendulum's only */
    char cp[600];
    tr g = translate("examples/car_pendulum.jnt");
    tr_free(&g);
    entry_count(cp, sizeof cp); /* touched last: the newest */
    g = translate(m1);
    tr_free(&g);
    age(cp, -60); /* used a minute ago (a hit takes less than the file times' tick, 4 ms) */
    int before = entry_count(NULL, 0);
    setenv("JNT_CACHE_MB", "1", 1);
    tr f = translate("examples/lap_joint.jnt");
    counts(&h, &r, &s);
    CHECK(f.rc == JNT_OK && s == 1 && before == 2 && entry_count(NULL, 0) == 2 &&
          access(cp, F_OK) != 0, "JNT_CACHE_MB=1: lap_joint stored, car_pendulum's entry "
          "evicted, the copy's kept (%d entries, then %d)", before, entry_count(NULL, 0));
    tr_free(&f);
    unsetenv("JNT_CACHE_MB");

    code_cases();

    /* a folder others can write to is not used: its entries hold machine code */
    chmod(entries, 0777);
    counts(&h, &r, &s);
    tr pend = translate("examples/pendulum.jnt");
    counts(&h, &r, &s);
    CHECK(pend.rc == JNT_OK && h == 0 && s == 0, "a cache folder writable by others is not used "
          "(the model compiles; hits %ld, stored %ld)", h, s);
    tr_free(&pend);
    chmod(entries, 0700);

    int k = entry_count(NULL, 0);
    CHECK(jnt_cache_clear() == k && entry_count(NULL, 0) == 0,
          "jnt_cache_clear removes the %d entries", k);
    unlink(m1);
    unlink(m2);
    rmdir(entries);
    rmdir(dir);
    return check_failures > 100 ? 100 : check_failures;
}
