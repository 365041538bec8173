/*
 * sweep_table.c: the table of a sweep. Rows are appended to the table
 * itself as runs finish (so a killed sweep leaves its rows for --resume),
 * and the table is locked while a sweep writes it (flock): a second sweep
 * on the same file is refused, not mixed in. The path is checked by the one
 * output routine's rules first (jnt_outfile_open: no link, device, FIFO,
 * missing folder, nor a file the model was read from), and opened without
 * following a link or blocking on a FIFO. Its first line is the header, its
 * second a comment that records what the rows depend on besides their
 * parameters: the model's hash (its file, imports and data files) and the
 * fixed -D values; --resume refuses a table whose record differs, a row of
 * another sweep and a run that is there twice. At the end the rows are
 * sorted by run and written through jnt_outfile_open (renamed over the
 * table; to stdout for -o -, whose rows wait in an unlinked scratch file).
 */
#define _DEFAULT_SOURCE /* flock, mkstemp */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jnt/setup.h"
#include "sweep.h"

/* See sweep.h. */
int sweep_write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return -1;
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* See sweep.h. */
int sweep_key(const sweep_plan *pl, long r, char *buf, size_t n)
{
    int k = snprintf(buf, n, "%ld,", r);
    if (k < 0 || (size_t)k >= n)
        return -1;
    for (int i = 0; i < pl->npar; i++) {
        if (n - (size_t)k < 34)
            return -1;
        k += jnt_format_double(buf + k, pl->val[r * pl->npar + i]);
        buf[k++] = ',';
    }
    buf[k] = 0;
    return k;
}

/* See sweep.h. */
char *sweep_header(const sweep_ctx *c)
{
    size_t n = 32;
    for (int i = 0; i < c->plan->npar; i++)
        n += strlen(c->plan->names[i]) + 1;
    for (int i = 0; i < c->nres; i++)
        n += strlen(c->res_names[i]) + 1;
    char *h = malloc(n);
    if (!h)
        return NULL;
    strcpy(h, "run");
    for (int i = 0; i < c->plan->npar; i++)
        strcat(strcat(h, ","), c->plan->names[i]);
    for (int i = 0; i < c->nres; i++)
        strcat(strcat(h, ","), c->res_names[i]);
    strcat(h, ",status,error,cpu_s\n");
    return h;
}

/* See sweep.h. */
int sweep_model_hash(const jnt_model *m, uint64_t *h, char *err, size_t errn)
{
    uint64_t x = JNT_HASH64_START; /* FNV-1a, the compile cache's hash (jnt.h) */
    const char *const *in = jnt_model_inputs(m);
    for (; in && *in; in++) {
        char why[256];
        FILE *f = setup_open_input(*in, SETUP_MAX_DATA, why, sizeof why);
        if (!f) {
            snprintf(err, errn, "cannot read '%s' for the table's record of the model: %s", *in,
                     why);
            return 1;
        }
        unsigned char b[65536];
        size_t k;
        unsigned long long len = 0;
        while ((k = fread(b, 1, sizeof b, f)) > 0) {
            x = jnt_hash64(x, b, k);
            len += k;
        }
        int bad = ferror(f);
        fclose(f);
        if (bad) {
            snprintf(err, errn, "cannot read '%s' for the table's record of the model", *in);
            return 1;
        }
        unsigned char end[8]; /* the file's end: its length, little-endian */
        for (int i = 0; i < 8; i++)
            end[i] = (unsigned char)(len >> (8 * i));
        x = jnt_hash64(x, end, sizeof end);
    }
    *h = x;
    return 0;
}

/* See sweep.h. */
char *sweep_meta(uint64_t hash, const char *fixed, const char *cont)
{
    size_t n = strlen(fixed) + (cont ? strlen(cont) : 0) + 96;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "# jnt sweep: model fnv1a64:%016llx; fixed: %s%s%s\n",
                 (unsigned long long)hash, fixed[0] ? fixed : "(none)", cont ? "; continue: " : "",
                 cont ? cont : "");
    return s;
}

/* The unit of result i of a sweep over m (a summary's, else an output
 * column's) into buf: an output's unit for final, max, min, mean and rms,
 * times s for integral, s for last (the time of the last row it holds). */
static void result_unit(const jnt_abi_model *a, int i, char *buf, size_t n)
{
    if (a->nsummaries == 0) {
        units_column(a->out_dims, a->out_kinds, i, buf, n);
        return;
    }
    const jnt_abi_summary *s = &a->summaries[i];
    jnt_dim d = units_none, sec = units_none;
    sec.e[2] = JNT_DIM_DEN;
    if (a->out_dims)
        memcpy(d.e, a->out_dims + (size_t)s->col * JNT_NDIM, sizeof d.e);
    if (s->op == JNT_SUMMARY_LAST)
        d = sec;
    else if (s->op == JNT_SUMMARY_INTEGRAL)
        d = units_mul(d, sec);
    buf[0] = '\0';
    if (s->op != JNT_SUMMARY_LAST && s->op != JNT_SUMMARY_INTEGRAL) /* rad, J, ... */
        units_column(a->out_dims, a->out_kinds, s->col, buf, n);
    else if (!units_is_none(d))
        units_format(d, buf, n);
}

/* See sweep.h. */
char *sweep_meta_units(char *meta, const jnt_model *m, const sweep_plan *pl)
{
    const jnt_abi_model *a = jnt_model_abi(m);
    int nres = a->nsummaries > 0 ? a->nsummaries : a->nout;
    size_t len = strlen(meta), cap = len + 32 + 100 * ((size_t)pl->npar + (size_t)nres + 4);
    for (int i = 0; i < pl->npar; i++)
        cap += strlen(pl->names[i]) + 1;
    char *s = realloc(meta, cap), u[96];
    if (!s) {
        free(meta);
        return NULL;
    }
    if (len > 0 && s[len - 1] == '\n')
        len--;
    len += (size_t)snprintf(s + len, cap - len, "; swept: ");
    for (int i = 0; i < pl->npar; i++)
        len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? "," : "", pl->names[i]);
    len += (size_t)snprintf(s + len, cap - len, "; units: ");
    for (int i = 0; i < pl->npar; i++) {
        int k = jnt_param_index(m, pl->names[i]);
        u[0] = '\0';
        if (k >= 0)
            jnt_param_unit(m, k, u, sizeof u);
        len += (size_t)snprintf(s + len, cap - len, ",%s", u);
    }
    for (int i = 0; i < nres; i++) {
        result_unit(a, i, u, sizeof u);
        len += (size_t)snprintf(s + len, cap - len, ",%s", u);
    }
    snprintf(s + len, cap - len, ",,,s\n");
    return s;
}

/* The field of a comment line that starts with key (its parts are separated
 * by "; "): its text after key and its length in *n; "" when absent. */
static const char *meta_field(const char *line, size_t len, const char *key, size_t *n)
{
    size_t kl = strlen(key);
    const char *end = line + len;
    for (const char *p = line; p < end;) {
        const char *q = p;
        while (q < end && !(q + 1 < end && q[0] == ';' && q[1] == ' '))
            q++;
        if ((size_t)(q - p) >= kl && !memcmp(p, key, kl)) {
            *n = (size_t)(q - p) - kl;
            return p + kl;
        }
        p = q + 2;
    }
    *n = 0;
    return "";
}

/* The comment line of a table (len bytes, without its newline) against this
 * sweep's: 0, or 1 with a message. */
static int check_meta(const sweep_ctx *c, const char *line, size_t len, char *err, size_t errn)
{
    static const char *const keys[] = {"model ", "fixed: ", "continue: "};
    static const char *const what[] = {
        "from another model: the model or a file it reads changed since",
        "with other fixed parameters (-D)",
        "with another --continue",
    };
    static const char *const hint[] = {
        "run without --resume for a new table, or restore the model",
        "give the -D values it was made with, or run without --resume for a new table",
        "give the --continue it was made with, or run without --resume for a new table",
    };
    const char *t = c->o->table, *mine = c->o->meta;
    size_t ml = strlen(mine) - 1;
    if (len < 13 || memcmp(line, "# jnt sweep: ", 13) != 0) {
        snprintf(err, errn, "--resume: '%s' does not record the model and the -D values it was "
                 "made with (its second line; a table of an older jnt, or edited), so its rows "
                 "cannot be trusted to be of this sweep: run without --resume for a new table", t);
        return 1;
    }
    for (int i = 0; i < 3; i++) {
        size_t a, b;
        const char *va = meta_field(line + 13, len - 13, keys[i], &a);
        const char *vb = meta_field(mine + 13, ml - 13, keys[i], &b);
        if (a != b || memcmp(va, vb, a) != 0) {
            snprintf(err, errn, "--resume: '%s' was made %s ('%.*s' in the table, '%.*s' now): "
                     "%s", t, what[i], (int)(a < 200 ? a : 200), va, (int)(b < 200 ? b : 200),
                     vb, hint[i]);
            return 1;
        }
    }
    return 0;
}

/* See sweep.h. */
int sweep_parse_table(sweep_ctx *c, const char *s, size_t n, size_t *keep, char *err,
                      size_t errn)
{
    const sweep_plan *pl = c->plan;
    const char *t = c->o->table;
    char *header = sweep_header(c);
    if (!header) {
        snprintf(err, errn, "out of memory");
        return 1;
    }
    size_t hl = strlen(header);
    if (n < hl || memcmp(s, header, hl) != 0) {
        snprintf(err, errn, "--resume: '%s' has other columns than this sweep (expected '%.*s')",
                 t, (int)hl - 1, header);
        free(header);
        return 1;
    }
    free(header);
    const char *nl = memchr(s + hl, '\n', n - hl);
    if (!nl) {
        snprintf(err, errn, "--resume: '%s' ends in its second line", t);
        return 1;
    }
    if (check_meta(c, s + hl, (size_t)(nl - (s + hl)), err, errn))
        return 1;
    /* a last line written only in part is cut off */
    const char *body = nl + 1;
    size_t k = n;
    while (k > (size_t)(body - s) && s[k - 1] != '\n')
        k--;
    *keep = k;
    long lineno = 3;
    char key[SWEEP_KEY_MAX];
    for (const char *line = body; line < s + k; lineno++) {
        nl = memchr(line, '\n', (size_t)(s + k - line));
        char *e;
        long r = strtol(line, &e, 10);
        int kl = e != line && r >= 0 && r < pl->nrun ? sweep_key(pl, r, key, sizeof key) : -1;
        if (kl < 0 || nl - line < kl || memcmp(line, key, (size_t)kl) != 0) {
            snprintf(err, errn, "--resume: %s:%ld: this row is not a run of this sweep (other "
                     "parameter values)", t, lineno);
            return 1;
        }
        if (c->done[r]) {
            snprintf(err, errn, "--resume: %s:%ld: run %ld is in the table twice (two sweeps "
                     "wrote it at once, or it was edited): delete one of its rows", t, lineno, r);
            return 1;
        }
        /* the status field follows the results */
        const char *f = line + kl;
        for (int i = 0; i < c->nres && f; i++) {
            f = memchr(f, ',', (size_t)(nl - f));
            f = f ? f + 1 : NULL;
        }
        int failed = f && nl - f >= 7 && !memcmp(f, "failed,", 7);
        if (!f || (!failed && !(nl - f >= 3 && !memcmp(f, "ok,", 3)))) {
            snprintf(err, errn, "--resume: %s:%ld: this row has no status 'ok' or 'failed' "
                     "after its %d results", t, lineno, c->nres);
            return 1;
        }
        c->done[r] = 1;
        c->ndone_before++;
        c->nfailed_before += failed;
        line = nl + 1;
    }
    return 0;
}

/* The whole of the table open at fd (NUL-terminated, *n bytes), at most
 * SWEEP_MAX_TABLE bytes; NULL with a message in err. */
static char *read_table(int fd, const char *name, size_t *n, char *err, size_t errn)
{
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errn, "cannot read '%s': %s", name, strerror(errno));
        return NULL;
    }
    if ((long long)st.st_size > SWEEP_MAX_TABLE) {
        snprintf(err, errn, "cannot read '%s': it has %lld bytes, more than the limit of %lld of "
                 "a sweep's table", name, (long long)st.st_size, SWEEP_MAX_TABLE);
        return NULL;
    }
    size_t cap = (size_t)st.st_size, len = 0;
    char *s = malloc(cap + 1);
    while (s) {
        ssize_t k = pread(fd, s + len, cap - len, (off_t)len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            snprintf(err, errn, "cannot read '%s': %s", name, strerror(errno));
            free(s);
            return NULL;
        }
        len += (size_t)k;
        if (k == 0 || len == cap)
            break;
    }
    if (!s) {
        snprintf(err, errn, "cannot read '%s': out of memory", name);
        return NULL;
    }
    s[len] = 0;
    *n = len;
    return s;
}

/* An unlinked scratch file for the rows of -o -: its descriptor or -1. */
static int scratch_table(void)
{
    const char *tmp = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/jnt-sweep-table-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* Open the table path for reading and appending and lock it: the
 * descriptor, or -1 after a message. */
static int lock_table(const char *path, const jnt_model *m)
{
    char err[1024];
    jnt_outfile *f;
    if (jnt_outfile_open(path, jnt_model_inputs(m), &f, err, sizeof err) != JNT_OK) {
        fprintf(stderr, "jnt sweep: error: %s\n", err);
        return -1;
    }
    int direct = jnt_outfile_temp(f) == NULL;
    jnt_outfile_discard(f);
    if (direct) {
        fprintf(stderr, "jnt sweep: error: cannot write '%s': a sweep's table is a file (it is "
                "read back to be sorted); '-o -' writes it to stdout\n", path);
        return -1;
    }
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
        struct stat st, now;
        const char *why = NULL;
        if (fd < 0)
            why = errno == ELOOP ? "it became a symbolic link" : strerror(errno);
        else if (fstat(fd, &st) != 0)
            why = strerror(errno);
        else if (!S_ISREG(st.st_mode))
            why = "it became other than a regular file";
        else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            if (e == EWOULDBLOCK)
                why = "another jnt sweep is writing it (it is locked): wait for that one to "
                      "end, or name another -o";
            else if (e == ENOLCK || e == ENOSYS || e == EOPNOTSUPP || e == EINVAL)
                /* a file system without locks (Lustre mounted without flock): go on, said */
                fprintf(stderr, "jnt sweep: warning: cannot lock '%s' (%s): a second sweep on "
                        "it at the same time would not be stopped\n", path, strerror(e));
            else
                why = strerror(e);
        }
        if (why) {
            fprintf(stderr, "jnt sweep: error: cannot write '%s': %s\n", path, why);
            if (fd >= 0)
                close(fd);
            return -1;
        }
        /* the file locked is still the one at path (not renamed over meanwhile) */
        if (stat(path, &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino) {
            (void)fcntl(fd, F_SETFL, O_APPEND);
            return fd;
        }
        close(fd);
    }
    fprintf(stderr, "jnt sweep: error: cannot write '%s': it keeps being replaced\n", path);
    return -1;
}

/* See sweep.h. */
int sweep_open_table(sweep_ctx *c)
{
    const char *t = c->o->table;
    char *header = sweep_header(c);
    int rc = 0;
    struct stat st;
    c->fd = !header ? -1 : strcmp(t, "-") ? lock_table(t, c->m) : scratch_table();
    if (c->fd < 0) {
        if (!header || !strcmp(t, "-"))
            fprintf(stderr, "jnt sweep: error: cannot make a scratch file for the table: %s\n",
                    strerror(errno));
        rc = 1;
    } else if (c->o->resume && fstat(c->fd, &st) == 0 && st.st_size > 0) {
        char err[1024];
        size_t n, keep = 0;
        char *s = read_table(c->fd, t, &n, err, sizeof err);
        rc = !s || sweep_parse_table(c, s, n, &keep, err, sizeof err);
        if (!rc && keep < n && ftruncate(c->fd, (off_t)keep) != 0) {
            snprintf(err, sizeof err, "cannot cut '%s': %s", t, strerror(errno));
            rc = 1;
        }
        if (rc)
            fprintf(stderr, "jnt sweep: error: %s\n", err);
        free(s);
    } else if (ftruncate(c->fd, 0) != 0 || sweep_write_all(c->fd, header, strlen(header)) != 0 ||
               sweep_write_all(c->fd, c->o->meta, strlen(c->o->meta)) != 0) {
        fprintf(stderr, "jnt sweep: error: cannot write '%s': %s\n", t, strerror(errno));
        rc = 1;
    }
    if (rc && c->fd >= 0) {
        close(c->fd);
        c->fd = -1;
    }
    free(header);
    return rc;
}

/* A row of the table: its run, its text. */
typedef struct row_ref {
    long run;
    const char *s;
    size_t n;
} row_ref;

/* By run, then by position. */
static int cmp_row(const void *a, const void *b)
{
    const row_ref *x = a, *y = b;
    if (x->run != y->run)
        return x->run < y->run ? -1 : 1;
    return x->s < y->s ? -1 : x->s > y->s;
}

/* See sweep.h. */
int sweep_sort_table(sweep_ctx *c)
{
    const char *t = c->o->table;
    char err[1024] = "";
    size_t n = 0;
    char *s = read_table(c->fd, t, &n, err, sizeof err);
    row_ref *rows = NULL;
    long k = 0;
    const char *body = NULL;
    if (s) { /* two lines of head (the header, the comment), then the rows */
        const char *nl = memchr(s, '\n', n);
        nl = nl ? memchr(nl + 1, '\n', (size_t)(s + n - nl - 1)) : NULL;
        body = nl ? nl + 1 : s + n;
        long nr = 0;
        for (const char *p = body; p < s + n; p++)
            nr += *p == '\n';
        rows = malloc(((size_t)nr + 1) * sizeof *rows);
        for (const char *p = body; rows && p < s + n && k < nr;) {
            const char *e = memchr(p, '\n', (size_t)(s + n - p));
            rows[k++] = (row_ref){strtol(p, NULL, 10), p, (size_t)(e - p + 1)};
            p = e + 1;
        }
        if (!rows)
            snprintf(err, sizeof err, "cannot sort '%s': out of memory", t);
    }
    int rc = !rows;
    if (!rc) {
        qsort(rows, (size_t)k, sizeof *rows, cmp_row);
        for (long i = 1; i < k && !rc; i++)
            if (rows[i].run == rows[i - 1].run) {
                snprintf(err, sizeof err, "'%s' has run %ld twice: left unsorted", t, rows[i].run);
                rc = 1;
            }
    }
    jnt_outfile *f = NULL;
    if (!rc && jnt_outfile_open(t, jnt_model_inputs(c->m), &f, err, sizeof err) != JNT_OK)
        rc = 1;
    if (!rc) {
        FILE *o = jnt_outfile_stream(f);
        fwrite(s, 1, (size_t)(body - s), o);
        for (long i = 0; i < k; i++)
            fwrite(rows[i].s, 1, rows[i].n, o);
        rc = jnt_outfile_commit(f, err, sizeof err) != JNT_OK;
    }
    if (rc)
        fprintf(stderr, "jnt sweep: error: %s\n", err);
    close(c->fd); /* the lock goes with it */
    c->fd = -1;
    free(rows);
    free(s);
    return rc;
}
