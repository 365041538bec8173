/*
 * threads.c: the BLAS threads of this process (jnt_blas_threads, jnt.h).
 *
 * One OpenBLAS thread by default: runs scale by running many models at
 * once, and OpenBLAS's own threads spin-wait between the small products of
 * a step (40 % of the unreduced lap joint's time went to sched_yield). The
 * compile entry points apply it too, since reductions run LAPACK at compile
 * time. OpenBLAS starts its pool at load time (OPENBLAS_NUM_THREADS unset:
 * one thread per core), and an idle pool thread spins in sched_yield for a
 * while after each wake-up; with one thread wanted the pool is shut down
 * (blas_thread_shutdown_, OpenBLAS's own, looked up weakly so that another
 * BLAS links too): a short run then costs no hidden CPU.
 */
#include <cblas.h>
#include <stdlib.h>

#include "jnt/jnt.h"

static int chosen; /* a count set by the caller, or 0 */
/* the count last applied, 0 before the first call: every run asks again
 * (jnt_run), and OpenBLAS's openblas_set_num_threads restarts its pool before
 * the shutdown stops it again, about 0.15 ms a run (a sweep of 20000 runs of
 * 1 ms: 3.9 s instead of 1.0 s) */
static _Atomic int applied;

int blas_thread_shutdown_(void) __attribute__((weak));

/* See jnt.h. */
int jnt_blas_threads(int n)
{
    if (n >= 1)
        chosen = n;
    else if (n == 0)
        chosen = 0;
    int want = chosen;
    if (want == 0) {
        const char *env = getenv("OPENBLAS_NUM_THREADS");
        want = env && *env ? atoi(env) : 1;
        if (want < 1)
            want = 1;
    }
    if (applied == want)
        return want;
    openblas_set_num_threads(want);
    if (want == 1 && blas_thread_shutdown_)
        blas_thread_shutdown_();
    applied = want;
    return want;
}
