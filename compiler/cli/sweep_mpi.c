/*
 * sweep_mpi.c: `jnt sweep` across Open MPI ranks (built into jnt-mpi only,
 * with -DJNT_MPI and mpicc; plain jnt needs no MPI).
 *
 *   mpirun -n P jnt-mpi sweep MODEL.jnt --grid ... -o table.csv -j T
 *
 * Every rank compiles the model and builds the same plan from the same
 * arguments. Rank 0 owns the work queue and the table: its main thread
 * hands out work items on request (dynamic load balancing: runs near
 * sticking cost orders of magnitude more than others) and writes the rows
 * the other ranks send, while T threads of its own take items from the same
 * queue. The other ranks run T threads each; a thread asks rank 0 for an
 * item, runs it, and sends each run's row back. MPI calls on a rank are
 * serialised by a mutex (MPI_THREAD_SERIALIZED). The table is sorted by run
 * at the end, so it is the same whatever the ranks and threads.
 */
#ifdef JNT_MPI
#define _DEFAULT_SOURCE /* nanosleep */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

enum { TAG_REQ = 1, TAG_ITEM, TAG_ROW, TAG_DONE };

/* A rank's MPI state: the mutex that serialises its MPI calls. */
typedef struct mpi_state {
    pthread_mutex_t lock;
} mpi_state;

/* Worker ranks: ask rank 0 for the next item (-1: none left). */
static long remote_take(sweep_ctx *c)
{
    mpi_state *s = c->mpi;
    int64_t k = -1;
    pthread_mutex_lock(&s->lock);
    MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_REQ, MPI_COMM_WORLD);
    MPI_Recv(&k, 1, MPI_INT64_T, 0, TAG_ITEM, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pthread_mutex_unlock(&s->lock);
    return (long)k;
}

/* Worker ranks: send a run's row to rank 0 (run and status, then the text). */
static int remote_emit(sweep_ctx *c, long run, const char *row, size_t len, int failed)
{
    mpi_state *s = c->mpi;
    char *msg = malloc(len + 16);
    if (!msg)
        return JNT_ERR_NOMEM;
    int64_t head[2] = {run, failed};
    memcpy(msg, head, sizeof head);
    memcpy(msg + sizeof head, row, len);
    pthread_mutex_lock(&s->lock);
    MPI_Send(msg, (int)(len + sizeof head), MPI_BYTE, 0, TAG_ROW, MPI_COMM_WORLD);
    pthread_mutex_unlock(&s->lock);
    free(msg);
    return JNT_OK;
}

typedef struct local_job {
    sweep_ctx *c;
    int jobs;
} local_job;

static void *local_threads(void *arg)
{
    local_job *j = arg;
    sweep_threads(j->c, j->jobs);
    return NULL;
}

/* Rank 0: serve requests and rows until every other rank is done, while
 * `jobs` local threads work on the same queue. */
static void serve(sweep_ctx *c, int nranks)
{
    local_job lj = {c, c->o->jobs};
    pthread_t th;
    int have_th = pthread_create(&th, NULL, local_threads, &lj) == 0;
    if (!have_th)
        fputs("jnt sweep: warning: rank 0 runs no threads of its own\n", stderr);
    int ndone = 0;
    char *buf = NULL;
    int cap = 0;
    while (ndone < nranks - 1) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) { /* poll politely: the local threads need the cores */
            struct timespec ts = {0, 200000};
            nanosleep(&ts, NULL);
            continue;
        }
        int n;
        MPI_Get_count(&st, MPI_BYTE, &n);
        if (n + 1 > cap) {
            cap = 2 * (n + 1);
            buf = realloc(buf, (size_t)cap);
            if (!buf) {
                fputs("jnt sweep: error: out of memory\n", stderr);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        MPI_Recv(buf, n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (st.MPI_TAG == TAG_REQ) {
            int64_t k = sweep_take(c);
            MPI_Send(&k, 1, MPI_INT64_T, st.MPI_SOURCE, TAG_ITEM, MPI_COMM_WORLD);
        } else if (st.MPI_TAG == TAG_ROW && n >= 16) {
            int64_t head[2];
            memcpy(head, buf, sizeof head);
            sweep_commit(c, (long)head[0], buf + 16, (size_t)n - 16, (int)head[1]);
        } else if (st.MPI_TAG == TAG_DONE) {
            ndone++;
        }
    }
    free(buf);
    if (have_th)
        pthread_join(th, NULL);
}

/* See sweep.h. */
int sweep_mpi(sweep_ctx *c)
{
    int provided, rank, nranks;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    mpi_state s;
    pthread_mutex_init(&s.lock, NULL);
    c->mpi = &s;
    sweep_opts o = *c->o;
    if (provided < MPI_THREAD_SERIALIZED && rank > 0)
        o.jobs = 1; /* MPI from one thread only */
    c->o = &o;
    int rc = 0;
    if (rank == 0) {
        rc = sweep_prepare(c) || sweep_open_table(c);
        if (rc) {
            fputs("jnt sweep: error: rank 0 could not start; stopping every rank\n", stderr);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        serve(c, nranks);
        rc = sweep_finish(c);
    } else {
        if (sweep_prepare(c) != 0)
            MPI_Abort(MPI_COMM_WORLD, 1);
        c->take = remote_take;
        c->emit = remote_emit;
        sweep_threads(c, o.jobs);
        MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_DONE, MPI_COMM_WORLD);
        if (c->tmpdir[0])
            rmdir(c->tmpdir);
        free(c->res_names);
        free(c->done);
        pthread_mutex_destroy(&c->lock);
    }
    int rc32 = rc;
    MPI_Bcast(&rc32, 1, MPI_INT, 0, MPI_COMM_WORLD);
    pthread_mutex_destroy(&s.lock);
    MPI_Finalize();
    return rc32;
}
#endif
