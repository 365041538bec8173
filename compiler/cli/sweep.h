/*
 * sweep.h: `jnt sweep` (internal to the command line): many runs of one
 * compiled model, a row of results per run (docs/sweeps.md).
 *
 *   sweep.c       options and the plan (grids, lists, samples, their product)
 *   sweep_spec.c  the texts of --grid, --list, --dist, --samples
 *   sweep_exec.c  runs, the work queue on threads, progress
 *   sweep_table.c the table: its lock, its header, resume's reader, the sort
 *   sweep_mpi.c   the same queue across Open MPI ranks (jnt-mpi only)
 */
#ifndef JNT_SWEEP_H
#define JNT_SWEEP_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "jnt/jnt.h"

/* The runs: nrun rows of npar parameter values (SI), in table order (the
 * first swept parameter varies slowest). Work items are chains of runs done
 * in order on one thread: one run each, or with --continue the runs that
 * differ only in the continued parameter, each starting from the previous
 * run's final state. */
typedef struct sweep_plan {
    int npar;
    char **names;      /* swept parameters */
    double *val;       /* nrun x npar */
    long nrun;
    long nitem;
    long *item_start;  /* nitem + 1: item k is runs order[item_start[k] .. item_start[k + 1]) */
    long *order;
    int cont;          /* 1: items are continued chains */
} sweep_plan;

/* The command line's settings. */
typedef struct sweep_opts {
    const char *model;
    const char **defs;  /* -D texts */
    int ndef;
    const char *table;  /* -o; "-": stdout */
    char *meta;         /* the table's comment line: the model's hash, the fixed -D values */
    const char *keep;   /* --keep-outputs DIR, or NULL */
    int jobs;           /* threads per process */
    int resume, progress, allow_failures;
} sweep_opts;

/* A running sweep: the model, the plan, the table and the counters, shared
 * by the threads (and, on rank 0, by the MPI dispatcher). */
typedef struct sweep_ctx sweep_ctx;
struct sweep_ctx {
    const sweep_opts *o;
    const jnt_model *m;
    const sweep_plan *plan;
    int nres;                 /* result columns */
    const char **res_names;   /* their names */
    int use_summary;          /* 1: results are the model's summary block */
    unsigned char *done;      /* nrun: the table has its row */
    int fd;                   /* the table, opened for appending and locked (rank 0); with
                                 -o -, an unlinked scratch file */
    /* where a finished run's row goes: sweep_commit (the table), or to rank 0 */
    int (*emit)(sweep_ctx *c, long run, const char *row, size_t len, int failed);
    /* where the next work item comes from: sweep_take, or rank 0 */
    long (*take)(sweep_ctx *c);
    void *mpi;                /* sweep_mpi.c's state */
    pthread_mutex_t lock;     /* the fields below, the table, the progress line */
    long next_item;
    long ndone, nfailed;      /* in this session */
    long ndone_before, nfailed_before; /* rows the resumed table had */
    int stop;                 /* interrupted: take no more items */
    int io_failed;
    int show, shown;          /* progress line: 1 always, 2 on a terminal after 0.5 s */
    double t_start, t_shown;
    char tmpdir[256];         /* per-run outputs when not kept */
};

/* sweep.c: `jnt sweep` with argv[0] the model file; the exit status. */
int sweep_main(int argc, char **argv);

/* sweep_exec.c */
/* Results, scratch directory, the lock (after the plan). 0, or 1 after a
 * message. */
int sweep_prepare(sweep_ctx *c);
/* The next work item (an index into the plan's items), or -1 when none is
 * left or the sweep was interrupted. */
long sweep_take(sweep_ctx *c);
/* Run item k on model cm (the continued model for chains); each run's row
 * goes to c->emit. */
void sweep_item(sweep_ctx *c, const jnt_model *cm, long k);
/* Append a finished run's row (whole lines) to the table, count it, update
 * the progress line; takes c->lock. JNT_OK or JNT_ERR_IO (after a message). */
int sweep_commit(sweep_ctx *c, long run, const char *row, size_t len, int failed);
/* Run items from sweep_take on `jobs` threads (this one included) until
 * none is left. */
int sweep_threads(sweep_ctx *c, int jobs);
/* The model whose runs start from the previous run's final state in a
 * chain (m's kernels with the init kernel replaced), or NULL. */
jnt_model *sweep_cont_model(const jnt_model *m);
/* Close the table, sort its rows by run, report failures and interruption;
 * the exit status. */
int sweep_finish(sweep_ctx *c);
/* prepare, open, threads, finish: the sweep in one process. */
int sweep_execute(sweep_ctx *c);

/* sweep_spec.c: the texts of the swept parameters (their values through
 * `value`, which returns 0, or 2 with a message in err). Each returns 0, or
 * 2 with a message in err[errn]; `room` is how many values fit in the limit
 * of runs given the other factors; s is split in place (names point into
 * it). */
#define SWEEP_MAX_RUNS 1000000L /* runs of a sweep: JNT_MAX_SWEEP_RUNS raises it */

/* One factor of the product: n points of np parameters (n x np values). */
typedef struct sweep_dim {
    int np;
    int name0; /* its first parameter's index in the plan */
    long n;
    double *v;
} sweep_dim;

/* A --dist: kind 0 uniform(a, b), 1 normal(mu a, sigma b), 2 lognormal
 * (a, b: mu and sigma of the logarithm of the SI value, plain numbers). */
typedef struct sweep_dist {
    const char *name;
    int kind;
    double a, b;
} sweep_dist;

typedef struct sweep_spec_ctx {
    int (*value)(void *ctx, const char *name, const char *text, double *out, char *err,
                 size_t errn);
    void *ctx;
} sweep_spec_ctx;

/* The limit of runs: JNT_MAX_SWEEP_RUNS when a positive number, else
 * SWEEP_MAX_RUNS. */
long sweep_max_runs(void);
/* --grid name=start:stop:step: dm gets its values (malloc). */
int sweep_parse_grid(char *s, const sweep_spec_ctx *v, long room, const char **name,
                     sweep_dim *dm, char *err, size_t errn);
/* --list name=v1,v2,...: dm gets its values (malloc; also on failure). */
int sweep_parse_list(char *s, const sweep_spec_ctx *v, long room, const char **name,
                     sweep_dim *dm, char *err, size_t errn);
/* --dist name=kind:a:b */
int sweep_parse_dist(char *s, const sweep_spec_ctx *v, sweep_dist *ds, char *err, size_t errn);
/* --samples N: a whole number from 1 to the limit of runs ("1e6" is one). */
int sweep_parse_count(const char *s, long *n, char *err, size_t errn);

/* sweep_table.c: the table. */
#define SWEEP_KEY_MAX 8192          /* a row's run and parameter fields, at most */
#define SWEEP_MAX_TABLE (4LL << 30) /* a table read back (--resume, the sort), bytes */

/* The fields "r,v1,v2,...," that start run r's row, into buf[n]; their
 * length, or -1 when they do not fit. */
int sweep_key(const sweep_plan *pl, long r, char *buf, size_t n);
/* The table's header line: run, parameters, results, status, error, cpu_s. */
char *sweep_header(const sweep_ctx *c);
/* FNV-1a (64 bits) of the bytes of the files the model was compiled from
 * (jnt_model_inputs), each followed by its length. 0, or 1 with a message. */
int sweep_model_hash(const jnt_model *m, uint64_t *h, char *err, size_t errn);
/* The table's comment line (malloc): "# jnt sweep: model fnv1a64:H; fixed: a=1 b=2[; continue:
 * x]\n", NULL when out of memory. */
char *sweep_meta(uint64_t hash, const char *fixed, const char *cont);
/* meta with the swept parameters' names and every column's unit appended
 * ("...; swept: a,b; units: ,m,s,...,,,s\n": run, the parameters, the
 * results, status, error, cpu_s; "" where a column has none; jnt plot's axis
 * labels): meta realloc'd, NULL (meta freed) when out of memory. --resume
 * compares the model, fixed and continue fields only. */
char *sweep_meta_units(char *meta, const jnt_model *m, const sweep_plan *pl);
/* Open the table and lock it (another sweep on it is refused): a new one
 * with its header, or with --resume an existing one whose rows mark runs
 * done (a last line written in part is cut off). -o - gets a scratch file.
 * 0, or 1 after a message. */
int sweep_open_table(sweep_ctx *c);
/* Check the text s[n] (s[n] == 0) of a table against this sweep: its
 * header, its comment line, rows of this sweep's runs, each once. Marks
 * c->done, counts c->ndone_before and c->nfailed_before; *keep is the
 * length of its whole lines. 0, or 1 with a message in err[errn]. */
int sweep_parse_table(sweep_ctx *c, const char *s, size_t n, size_t *keep, char *err,
                      size_t errn);
/* Write the table sorted by run (through jnt_outfile_open: renamed over
 * the table, or to stdout) and close it. 0, or 1 after a message. */
int sweep_sort_table(sweep_ctx *c);
/* Write all of s to fd: 0, or -1 (errno). */
int sweep_write_all(int fd, const char *s, size_t n);

/* sweep_mpi.c (jnt-mpi): the sweep across ranks, rank 0 writing the table;
 * the exit status (every rank). */
int sweep_mpi(sweep_ctx *c);

#endif
