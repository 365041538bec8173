/*
 * sweep_exec.c: the runs of a sweep. Each run gets a fresh data object on
 * the one compiled model, its parameters, and writes its output where its
 * results are read from (kept, or a scratch .npy); a chain of continued runs
 * starts each from the previous run's final state. Threads take work items
 * from one queue; every finished run appends its row to the table with one
 * write (whole rows only), so an interrupted sweep leaves a valid table that
 * --resume continues. At the end the rows are sorted by run, so that the
 * table does not depend on the threads (or ranks) that made it.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

/* Set by SIGINT: hand out no more work (a second SIGINT kills). */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static double now_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A growing text buffer. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t c = t->cap ? 2 * t->cap : 256;
        while (c < t->len + n + 1)
            c *= 2;
        char *p = realloc(t->s, c);
        if (!p) {
            fputs("jnt sweep: error: out of memory\n", stderr);
            exit(1);
        }
        t->s = p, t->cap = c;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = 0;
}

static void puts_t(text *t, const char *s)
{
    put(t, s, strlen(s));
}

static void put_num(text *t, double v)
{
    char b[32];
    put(t, b, (size_t)jnt_format_double(b, v));
}

/* ---- continued runs: an init kernel that restores the previous state ---- */

/* The chain a thread runs: the model's own init and the state to start
 * from (have = 0: the model's initial state). The init kernel has no
 * context argument, so the thread's chain is thread-local. */
typedef struct cont_chain {
    const jnt_abi_model *orig;
    int have, n;
    double *state;
} cont_chain;
static _Thread_local cont_chain *cont_cur;

static int cont_init(const double *p, double *y, double *d)
{
    const cont_chain *cc = cont_cur;
    int rc = cc->orig->init(p, y, d);
    if (rc >= 0 && cc->have) {
        memcpy(y, cc->state, (size_t)cc->orig->ny * sizeof *y);
        memcpy(d, cc->state + cc->orig->ny, (size_t)cc->orig->nd * sizeof *d);
    }
    return rc;
}

/* See sweep.h. */
jnt_model *sweep_cont_model(const jnt_model *m)
{
    jnt_abi_model *a = malloc(sizeof *a);
    jnt_model *cm = NULL;
    if (!a)
        return NULL;
    *a = *jnt_model_abi(m);
    a->init = cont_init;
    if (jnt_model_wrap(a, jnt_model_data(m), a, free, &cm) != JNT_OK) {
        free(a);
        return NULL;
    }
    return cm;
}

/* ---- one run ---- */

/* Quote s as a CSV field ("..." with "" for "; line breaks as spaces). */
static void put_quoted(text *t, const char *s)
{
    put(t, "\"", 1);
    for (; *s; s++)
        put(t, *s == '"' ? "\"\"" : *s == '\n' || *s == '\r' ? " " : s, *s == '"' ? 2 : 1);
    put(t, "\"", 1);
}

/* The parameter fields of run r: "r,v1,v2,...," */
static void put_key(text *t, const sweep_plan *pl, long r)
{
    char b[32];
    snprintf(b, sizeof b, "%ld,", r);
    puts_t(t, b);
    for (int i = 0; i < pl->npar; i++) {
        put_num(t, pl->val[r * pl->npar + i]);
        put(t, ",", 1);
    }
}

/* Run r on model cm and append its row to t; 1 when it failed. */
static int one_run(sweep_ctx *c, const jnt_model *cm, long r, double *res, text *t)
{
    const sweep_plan *pl = c->plan;
    double c0 = now_cpu();
    char path[600] = "";
    jnt_data *d = jnt_data_new(cm);
    int rc = d ? JNT_OK : JNT_ERR_NOMEM;
    for (int i = 0; rc == JNT_OK && i < c->o->ndef; i++)
        rc = jnt_set_param_text(cm, d, c->o->defs[i]);
    for (int i = 0; rc == JNT_OK && i < pl->npar; i++)
        rc = jnt_set_param(cm, d, pl->names[i], pl->val[r * pl->npar + i]);
    if (c->o->keep)
        snprintf(path, sizeof path, "%s/run_%06ld.csv", c->o->keep, r);
    else if (c->use_summary)
        snprintf(path, sizeof path, "%s/run_%06ld.npy", c->tmpdir, r);
    if (rc == JNT_OK) {
        jnt_run_opts ro = {.csv_path = path};
        rc = jnt_run(cm, d, &ro);
    }
    if (rc == JNT_OK && c->use_summary)
        rc = jnt_summarize(cm, d, path, res);
    else if (rc == JNT_OK)
        for (int i = 0; i < c->nres; i++)
            res[i] = jnt_output(cm, d, i);
    if (path[0] && !c->o->keep)
        unlink(path);
    if (rc == JNT_OK && cont_cur) {
        jnt_get_full_state(cm, d, cont_cur->state);
        cont_cur->have = 1;
    }
    put_key(t, pl, r);
    for (int i = 0; i < c->nres; i++) {
        if (rc == JNT_OK)
            put_num(t, res[i]);
        put(t, ",", 1);
    }
    if (rc == JNT_OK) {
        puts_t(t, "ok,,");
    } else {
        puts_t(t, "failed,");
        text e = {0};
        puts_t(&e, jnt_status_name(rc));
        if (d && jnt_data_error(d)[0]) {
            puts_t(&e, ": ");
            puts_t(&e, jnt_data_error(d));
        }
        put_quoted(t, e.s);
        free(e.s);
        put(t, ",", 1);
    }
    char b[32];
    snprintf(b, sizeof b, "%.4g\n", now_cpu() - c0);
    puts_t(t, b);
    jnt_data_free(d);
    return rc != JNT_OK;
}

/* See sweep.h. */
void sweep_item(sweep_ctx *c, const jnt_model *cm, long k)
{
    const sweep_plan *pl = c->plan;
    double *res = malloc(((size_t)c->nres + 1) * sizeof *res);
    cont_chain cc = {jnt_model_abi(c->m), 0, jnt_state_count(c->m), NULL};
    cc.state = malloc(((size_t)cc.n + 1) * sizeof *cc.state);
    if (!res || !cc.state) {
        fputs("jnt sweep: error: out of memory\n", stderr);
        exit(1);
    }
    cont_cur = pl->cont ? &cc : NULL;
    for (long j = pl->item_start[k]; j < pl->item_start[k + 1]; j++) {
        long r = pl->order[j];
        text t = {0};
        int failed = one_run(c, cm, r, res, &t);
        /* a continued chain reruns the runs a resumed table has, for their
         * final states; sweep_commit does not write them again */
        c->emit(c, r, t.s, t.len, failed);
        free(t.s);
    }
    cont_cur = NULL;
    free(cc.state);
    free(res);
}

/* ---- the table ---- */

/* The progress line: runs done, failed, the time left; under c->lock. */
static void progress_line(sweep_ctx *c, int final)
{
    double now = now_wall();
    if (!c->show || (!final && now - c->t_shown < 0.2) ||
        (c->show == 2 && now - c->t_start < 0.5))
        return;
    if (final) {
        if (c->shown)
            fprintf(stderr, "\r%70s\r", "");
        return;
    }
    c->t_shown = now;
    c->shown = 1;
    long left = c->ntodo - c->ndone;
    double eta = c->ndone > 0 ? (now - c->t_start) / (double)c->ndone * (double)left : NAN;
    fprintf(stderr, "\rsweep: %ld/%ld runs done, %ld failed, %.0f s left   ", c->ndone,
            c->ntodo, c->nfailed, eta);
    fflush(stderr);
}

/* Write all of s to fd. */
static int write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* See sweep.h. */
int sweep_commit(sweep_ctx *c, long r, const char *row, size_t len, int failed)
{
    pthread_mutex_lock(&c->lock);
    int rc = 0;
    if (r >= 0 && c->done[r]) { /* a resumed chain's run, rerun for its final state */
        pthread_mutex_unlock(&c->lock);
        return 0;
    }
    if (!c->io_failed && write_all(c->fd, row, len) != 0) {
        fprintf(stderr, "jnt sweep: error: cannot write '%s': %s\n", c->o->table,
                strerror(errno));
        c->io_failed = 1;
        rc = JNT_ERR_IO;
    }
    if (r >= 0)
        c->done[r] = 1;
    c->ndone++;
    c->nfailed += failed;
    progress_line(c, 0);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

/* Whether every run of item k is in the table. */
static int item_done(const sweep_ctx *c, long k)
{
    for (long j = c->plan->item_start[k]; j < c->plan->item_start[k + 1]; j++)
        if (!c->done[c->plan->order[j]])
            return 0;
    return 1;
}

/* See sweep.h. */
long sweep_take(sweep_ctx *c)
{
    pthread_mutex_lock(&c->lock);
    long k = -1;
    if (interrupted)
        c->stop = 1;
    while (!c->stop && !c->io_failed && c->next_item < c->plan->nitem) {
        long i = c->next_item++;
        if (!item_done(c, i)) {
            k = i;
            break;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return k;
}

/* See sweep.h. */
char *sweep_header(const sweep_ctx *c)
{
    text t = {0};
    puts_t(&t, "run");
    for (int i = 0; i < c->plan->npar; i++) {
        put(&t, ",", 1);
        puts_t(&t, c->plan->names[i]);
    }
    for (int i = 0; i < c->nres; i++) {
        put(&t, ",", 1);
        puts_t(&t, c->res_names[i]);
    }
    puts_t(&t, ",status,error,cpu_s\n");
    return t.s;
}

/* The whole of a file (NUL-terminated, *n bytes), or NULL. */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    text t = {0};
    char b[65536];
    size_t k;
    while ((k = fread(b, 1, sizeof b, f)) > 0)
        put(&t, b, k);
    fclose(f);
    if (!t.s)
        put(&t, "", 0);
    *n = t.len;
    return t.s;
}

/* See sweep.h. */
int sweep_read_table(sweep_ctx *c, const char *header)
{
    const sweep_plan *pl = c->plan;
    size_t n;
    char *s = slurp(c->o->table, &n);
    if (!s) {
        fprintf(stderr, "jnt sweep: error: --resume: cannot read '%s': %s\n", c->o->table,
                strerror(errno));
        return 1;
    }
    size_t hl = strlen(header);
    if (n < hl || memcmp(s, header, hl) != 0) {
        fprintf(stderr, "jnt sweep: error: --resume: '%s' has other columns than this sweep "
                        "(expected '%.*s')\n", c->o->table, (int)hl - 1, header);
        free(s);
        return 1;
    }
    /* a last line written only in part is cut off */
    size_t keep = n;
    while (keep > hl && s[keep - 1] != '\n')
        keep--;
    if (keep < n && truncate(c->o->table, (off_t)keep) != 0) {
        fprintf(stderr, "jnt sweep: error: cannot cut '%s': %s\n", c->o->table, strerror(errno));
        free(s);
        return 1;
    }
    int rc = 0;
    long lineno = 1;
    for (char *line = s + hl; line < s + keep && rc == 0; lineno++) {
        char *nl = memchr(line, '\n', (size_t)(s + keep - line));
        char *e;
        long r = strtol(line, &e, 10);
        text key = {0};
        if (e != line && r >= 0 && r < pl->nrun)
            put_key(&key, pl, r);
        if (!key.s || strncmp(line, key.s, key.len) != 0) {
            fprintf(stderr, "jnt sweep: error: --resume: %s:%ld: this row is not a run of this "
                            "sweep (other parameter values)\n", c->o->table, lineno + 1);
            rc = 1;
        } else if (!c->done[r]) {
            c->done[r] = 1;
            c->ndone_before++;
            /* the status field follows the results */
            char *f = line + key.len;
            for (int i = 0; i < c->nres && f < nl; i++)
                f = memchr(f, ',', (size_t)(nl - f)) + 1;
            c->nfailed_before += strncmp(f, "failed,", 7) == 0;
        }
        free(key.s);
        line = nl + 1;
    }
    free(s);
    return rc;
}

/* Compare two rows by their run (the leading number), then by position. */
typedef struct row_ref {
    long run;
    const char *s;
    size_t n;
} row_ref;

static int cmp_row(const void *a, const void *b)
{
    const row_ref *x = a, *y = b;
    if (x->run != y->run)
        return x->run < y->run ? -1 : 1;
    return x->s < y->s ? -1 : x->s > y->s;
}

/* See sweep.h. */
int sweep_sort_table(const sweep_ctx *c)
{
    size_t n;
    char *s = slurp(c->o->table, &n);
    if (!s)
        return 1;
    char *body = memchr(s, '\n', n);
    body = body ? body + 1 : s + n;
    long nr = 0;
    for (char *p = body; p < s + n; p++)
        nr += *p == '\n';
    row_ref *rows = malloc(((size_t)nr + 1) * sizeof *rows);
    long k = 0;
    for (char *p = body; rows && p < s + n && k < nr;) {
        char *nl = memchr(p, '\n', (size_t)(s + n - p));
        if (!nl)
            break;
        rows[k++] = (row_ref){strtol(p, NULL, 10), p, (size_t)(nl - p + 1)};
        p = nl + 1;
    }
    qsort(rows, (size_t)k, sizeof *rows, cmp_row);
    size_t pl = strlen(c->o->table) + 6;
    char *part = malloc(pl);
    int rc = !rows || !part;
    if (!rc) {
        snprintf(part, pl, "%s.part", c->o->table);
        int fd = open(part, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        rc = fd < 0 || write_all(fd, s, (size_t)(body - s)) != 0;
        for (long i = 0; !rc && i < k; i++)
            rc = write_all(fd, rows[i].s, rows[i].n) != 0;
        if (fd >= 0 && close(fd) != 0)
            rc = 1;
        if (!rc && rename(part, c->o->table) != 0)
            rc = 1;
        if (rc) {
            fprintf(stderr, "jnt sweep: error: cannot write '%s': %s\n", part, strerror(errno));
            unlink(part);
        }
    }
    free(part);
    free(rows);
    free(s);
    return rc;
}

/* ---- threads ---- */

typedef struct worker {
    sweep_ctx *c;
    const jnt_model *cm;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    long k;
    while ((k = w->c->take(w->c)) >= 0)
        sweep_item(w->c, w->cm, k);
    return NULL;
}

/* See sweep.h. */
int sweep_threads(sweep_ctx *c, int jobs)
{
    jnt_model *cm = c->plan->cont ? sweep_cont_model(c->m) : NULL;
    if (c->plan->cont && !cm) {
        fputs("jnt sweep: error: cannot set up the continued model\n", stderr);
        return 1;
    }
    worker w = {c, cm ? cm : c->m};
    pthread_t *th = malloc((size_t)jobs * sizeof *th);
    int nth = 0;
    for (int i = 1; th && i < jobs; i++)
        if (pthread_create(&th[nth], NULL, work, &w) == 0)
            nth++;
    work(&w); /* this thread is one of the workers */
    for (int i = 0; i < nth; i++)
        pthread_join(th[i], NULL);
    free(th);
    jnt_model_free(cm);
    return 0;
}

/* See sweep.h. */
int sweep_prepare(sweep_ctx *c)
{
    const jnt_abi_model *a = jnt_model_abi(c->m);
    c->use_summary = a->nsummaries > 0;
    c->nres = c->use_summary ? a->nsummaries : a->nout;
    c->res_names = malloc(((size_t)c->nres + 1) * sizeof *c->res_names);
    c->done = calloc((size_t)c->plan->nrun + 1, 1);
    if (!c->res_names || !c->done)
        return 1;
    for (int i = 0; i < c->nres; i++)
        c->res_names[i] = c->use_summary ? a->summaries[i].name : a->out_names[i];
    pthread_mutex_init(&c->lock, NULL);
    c->emit = sweep_commit;
    c->take = sweep_take;
    if (c->o->keep && mkdir(c->o->keep, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "jnt sweep: error: cannot make '%s': %s\n", c->o->keep, strerror(errno));
        return 1;
    }
    if (!c->o->keep && c->use_summary) {
        const char *tmp = getenv("TMPDIR");
        snprintf(c->tmpdir, sizeof c->tmpdir, "%s/jnt-sweep-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        if (!mkdtemp(c->tmpdir)) {
            fprintf(stderr, "jnt sweep: error: cannot make a scratch directory '%s': %s\n",
                    c->tmpdir, strerror(errno));
            c->tmpdir[0] = 0;
            return 1;
        }
    }
    return 0;
}

/* See sweep.h. */
int sweep_open_table(sweep_ctx *c)
{
    char *header = sweep_header(c);
    int rc = 0;
    struct stat st;
    if (c->o->resume && stat(c->o->table, &st) == 0) {
        rc = sweep_read_table(c, header);
        c->fd = rc ? -1 : open(c->o->table, O_WRONLY | O_APPEND);
    } else {
        c->fd = open(c->o->table, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0666);
        if (c->fd >= 0 && write_all(c->fd, header, strlen(header)) != 0) {
            close(c->fd);
            c->fd = -1;
        }
    }
    if (!rc && c->fd < 0) {
        fprintf(stderr, "jnt sweep: error: cannot write '%s': %s\n", c->o->table, strerror(errno));
        rc = 1;
    }
    free(header);
    c->ntodo = c->plan->nrun - c->ndone_before;
    c->t_start = now_wall();
    c->show = c->o->progress ? 1 : isatty(2) ? 2 : 0;
    return rc;
}

/* See sweep.h. */
int sweep_finish(sweep_ctx *c)
{
    progress_line(c, 1);
    int rc = c->io_failed;
    if (c->fd >= 0 && close(c->fd) != 0)
        rc = 1;
    c->fd = -1;
    if (!rc && !c->stop)
        rc = sweep_sort_table(c);
    if (c->tmpdir[0])
        rmdir(c->tmpdir);
    long failed = c->nfailed + c->nfailed_before;
    if (c->stop) {
        fprintf(stderr, "jnt sweep: interrupted after %ld of %ld runs; '%s' holds them: "
                        "continue with --resume\n", c->ndone + c->ndone_before, c->plan->nrun,
                c->o->table);
        rc = rc ? rc : 130;
    } else if (failed > 0) {
        fprintf(stderr, "jnt sweep: %ld of %ld runs failed (see the error column of '%s')\n",
                failed, c->plan->nrun, c->o->table);
        if (!c->o->allow_failures && !rc)
            rc = 1;
    }
    free(c->res_names);
    free(c->done);
    pthread_mutex_destroy(&c->lock);
    return rc;
}

/* See sweep.h. */
int sweep_execute(sweep_ctx *c)
{
    if (sweep_prepare(c) != 0 || sweep_open_table(c) != 0) {
        if (c->tmpdir[0])
            rmdir(c->tmpdir);
        free(c->res_names);
        free(c->done);
        return 1;
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, &old);
    sweep_threads(c, c->o->jobs);
    sigaction(SIGINT, &old, NULL);
    return sweep_finish(c);
}
