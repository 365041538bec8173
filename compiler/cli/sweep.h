/*
 * sweep.h: `jnt sweep` (internal to the command line): many runs of one
 * compiled model, a row of results per run (docs/sweeps.md).
 *
 *   sweep.c       options and the plan (grids, lists, samples, their product)
 *   sweep_exec.c  runs, the work queue on threads, the table, resume, progress
 *   sweep_mpi.c   the same queue across Open MPI ranks (jnt-mpi only)
 */
#ifndef JNT_SWEEP_H
#define JNT_SWEEP_H

#include <pthread.h>
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
    const char *table;  /* -o */
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
    int fd;                   /* the table, opened for appending (rank 0) */
    /* where a finished run's row goes: sweep_commit (the table), or to rank 0 */
    int (*emit)(sweep_ctx *c, long run, const char *row, size_t len, int failed);
    /* where the next work item comes from: sweep_take, or rank 0 */
    long (*take)(sweep_ctx *c);
    void *mpi;                /* sweep_mpi.c's state */
    pthread_mutex_t lock;     /* the fields below, the table, the progress line */
    long next_item;
    long ndone, nfailed;      /* in this session */
    long ndone_before, nfailed_before; /* rows the resumed table had */
    long ntodo;
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
/* Open the table: a new one with its header, or with --resume an existing
 * one whose rows mark runs done (a last line written in part is cut off).
 * 0, or 1 after a message. */
int sweep_open_table(sweep_ctx *c);
/* The table's header line: run, parameters, results, status, error, cpu_s. */
char *sweep_header(const sweep_ctx *c);
/* Mark runs done from the table (whose first line must be `header`). */
int sweep_read_table(sweep_ctx *c, const char *header);
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
/* Rewrite the table with its rows sorted by run (atomically). */
int sweep_sort_table(const sweep_ctx *c);

/* sweep_mpi.c (jnt-mpi): the sweep across ranks, rank 0 writing the table;
 * the exit status (every rank). */
int sweep_mpi(sweep_ctx *c);

#endif
