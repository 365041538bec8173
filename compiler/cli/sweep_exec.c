/*
 * sweep_exec.c: the runs of a sweep. Each run gets a fresh data object on
 * the one compiled model, its parameters, and writes its output where its
 * results are read from (kept, or a scratch .npy); a chain of continued runs
 * starts each from the previous run's final state. Threads take work items
 * from one queue; every finished run appends its row to the table with one
 * write (whole rows only), so an interrupted sweep leaves a valid table that
 * --resume continues. At the end the rows are sorted by run, so that the
 * table does not depend on the threads (or ranks) that made it
 * (sweep_table.c: the table's lock, record, reader and sort).
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
    char b[SWEEP_KEY_MAX];
    int n = sweep_key(pl, r, b, sizeof b);
    put(t, b, n > 0 ? (size_t)n : 0);
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
    long todo = c->plan->nrun - c->ndone_before, left = todo - c->ndone;
    double eta = c->ndone > 0 ? (now - c->t_start) / (double)c->ndone * (double)left : NAN;
    fprintf(stderr, "\rsweep: %ld/%ld runs done, %ld failed, %.0f s left   ", c->ndone,
            todo, c->nfailed, eta);
    fflush(stderr);
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
    if (!c->io_failed && sweep_write_all(c->fd, row, len) != 0) {
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
    c->t_start = now_wall();
    c->show = c->o->progress ? 1 : isatty(2) ? 2 : 0;
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
int sweep_finish(sweep_ctx *c)
{
    progress_line(c, 1);
    int rc = c->io_failed;
    if (!rc) /* also when interrupted: a table sorted as far as it goes */
        rc = sweep_sort_table(c);
    else if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    if (c->tmpdir[0])
        rmdir(c->tmpdir);
    long failed = c->nfailed + c->nfailed_before;
    if (c->stop) {
        if (strcmp(c->o->table, "-"))
            fprintf(stderr, "jnt sweep: interrupted after %ld of %ld runs; '%s' holds them: "
                            "continue with --resume\n", c->ndone + c->ndone_before,
                    c->plan->nrun, c->o->table);
        else
            fprintf(stderr, "jnt sweep: interrupted after %ld of %ld runs (their rows are "
                            "written)\n", c->ndone, c->plan->nrun);
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
