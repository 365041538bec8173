/*
 * summary.h: the accumulator of one per-run result over output rows
 * (internal; summary.c). Rows come in time order; those outside
 * [from, to] are skipped.
 */
#ifndef JNT_SUMMARY_H
#define JNT_SUMMARY_H

typedef struct summary_acc {
    double from, to;          /* the window */
    long n;                   /* rows in it so far */
    double t_first, t_prev, x_prev;
    double max, min, integral, integral2; /* integral2: of x^2 */
    double last;              /* time of the last row with x != 0, NaN if none */
} summary_acc;

/* Start an empty accumulator over [from, to] (-inf, +inf: no bound). */
void summary_start(summary_acc *s, double from, double to);
/* One row: time t, value x. */
void summary_add(summary_acc *s, double t, double x);
/* The result of op (JNT_SUMMARY_*) over the rows so far: NaN without rows;
 * mean and rms of a single row are its value and its magnitude. */
double summary_value(const summary_acc *s, int op);

#endif
