/*
 * data.h: one simulation's parameters, state, statistics and work memory
 * (internal). Everything a run needs is allocated by jnt_data_new (the work
 * arena, sized for the model's integrator) or once at run start (CSV
 * buffers, solver library objects); nothing is allocated in the step loop.
 */
#ifndef JNT_DATA_H
#define JNT_DATA_H

#include <stddef.h>
#include "jnt/jnt.h"

#define JNT_ERRMSG_LEN 512

struct integ_type;

struct jnt_data {
    const jnt_model *m;            /* the model this data was made for */
    double *p;                     /* parameters, SI (np) */
    unsigned char *set;            /* 1 where the user set p[i] (np) */
    double *y;                     /* last continuous state (ny) */
    double *d;                     /* discrete state (nd) */
    double *out;                   /* last output row (nout) */
    double t;                      /* time of y */
    int started;                   /* y, d, t hold a state (a run or jnt_init_state
                                      set them): jnt_advance goes on from it */
    int row_at_t;                  /* the last run wrote its row at t (a resumed run
                                      does not write it again) */
    jnt_stats stats;               /* counters of the last run */
    int *yset;                     /* ny (allocated by the first jnt_set_state): where the
                                      user set y[i] since the last step, the order it was set
                                      in (1, 2, ...; 0: not set); a multibody model's next
                                      assembly pins them (integ_dae_set.c) */
    int skip_pins;                 /* 1 while jnt_advance runs from a state it assembled:
                                      the model's own pins are not applied again */
    unsigned char *cons_off;       /* multibody: nc flags, 1 for a redundant constraint row
                                      the start's assembly dropped (integ_dae_init.c); the
                                      integrators see it as 0 = 0, its multiplier 0; NULL or
                                      ncons_off = 0: none */
    int ncons_off;                 /* how many rows cons_off drops */
    double max_output;             /* jnt_set_max_output: bytes, 0 = 1 GiB, < 0 = none */
    const volatile int *stop;      /* jnt_set_stop_flag: non-zero stops the run at the next
                                      accepted step (JNT_STOPPED); NULL: none */
    char err[JNT_ERRMSG_LEN];      /* message of the last error, "" when none */
    const struct integ_type *integ; /* integrator of the current run */
    struct csv_writer *steps;      /* the run's step history (t, h), or NULL */
    double *work;                  /* arena for the driver and the integrator */
    size_t nwork;
    int *iwork;                    /* integer arena (pivots) */
    size_t niwork;
    double *ew;                    /* the kernels' scratch (eval.h: gathered points, kernel
                                      outputs, Jacobian values and products) */
    int *iew;
};

/* Make the arena hold at least nw doubles and ni ints (at run start, when
 * the run's integrator differs from the model's). JNT_OK or JNT_ERR_NOMEM. */
int data_reserve(jnt_data *d, size_t nw, size_t ni);

/* Format a message into d->err (printf-style) and return `status`. */
int data_error(jnt_data *d, int status, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The entry check of a public function taking (m, d): JNT_OK, or JNT_ERR_USAGE for a NULL
 * m or d or a d made for another model, with a message naming `fn` in d when there is a d. */
int data_check(const jnt_model *m, jnt_data *d, const char *fn);

/* JNT_ERR_USAGE for fn's argument `what` given as NULL, with the message in d (may be NULL). */
int data_null(jnt_data *d, const char *fn, const char *what);

/* Fill the defaults of every parameter the user has not set. Returns JNT_OK
 * or JNT_ERR_KERNEL (message in d->err). */
int params_defaults(const jnt_model *m, jnt_data *d);

#endif
