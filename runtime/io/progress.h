/*
 * progress.h: the progress line of long runs on stderr (internal):
 * "t = 12.3 s (41%)", at most 5 times a second. Used by every driver that
 * advances a model in time.
 */
#ifndef JNT_PROGRESS_H
#define JNT_PROGRESS_H

typedef struct progress {
    int mode; /* 0 off, 1 on, 2 automatic: only once the run has lasted 0.5 s */
    int shown;
    long tick;
    double t0, t_end;
    double start, last;
} progress;

/* Start a progress line for a run from t0 to t_end (mode as above). */
void progress_start(progress *pg, int mode, double t0, double t_end);

/* Report time t (cheap: looks at the clock every 16th call). */
void progress_update(progress *pg, double t);

/* Erase the line if one was shown. */
void progress_clear(progress *pg);

#endif
