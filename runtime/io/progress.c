/*
 * progress.c: the progress line of long runs (progress.h).
 */
#include <stdio.h>
#include <time.h>

#include "progress.h"

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* See progress.h. */
void progress_start(progress *pg, int mode, double t0, double t_end)
{
    *pg = (progress){.mode = mode, .t0 = t0, .t_end = t_end};
    if (mode)
        pg->start = pg->last = wall_seconds() - (mode == 1 ? 1.0 : 0.0);
}

/* See progress.h. */
void progress_update(progress *pg, double t)
{
    if (!pg->mode || (++pg->tick & 15) != 0)
        return;
    double now = wall_seconds();
    if (now - pg->last < 0.2 || (pg->mode == 2 && now - pg->start < 0.5))
        return;
    pg->last = now;
    pg->shown = 1;
    int pct = pg->t_end > pg->t0 ? (int)(100.0 * (t - pg->t0) / (pg->t_end - pg->t0)) : 100;
    fprintf(stderr, "\rt = %.4g s (%d%%)   ", t, pct);
    fflush(stderr);
}

/* See progress.h. */
void progress_clear(progress *pg)
{
    if (pg->shown) {
        fprintf(stderr, "\r%40s\r", "");
        fflush(stderr);
    }
}
