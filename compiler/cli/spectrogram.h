/*
 * spectrogram.h: the short-time Fourier transform of `jnt plot
 * --spectrogram` (spectrogram.c).
 */
#ifndef JNT_SPECTROGRAM_H
#define JNT_SPECTROGRAM_H

#include <stdio.h>

/* Columns t and col of the CSV read from f (named path in messages; the
 * caller opens it, plot_open_csv, and closes it) into *t, *a (malloc'd, *n
 * rows; the caller frees them): '#' lines and blank lines skipped, the first
 * other line the header, a field that is not a number read as far as it is
 * one (0 when not at all). 0, or -1 after a message (*t, *a NULL). */
int spectrogram_read(FILE *f, const char *path, const char *col, double **t, double **a, int *n);

/* The spectrogram of column col (*a, against *t, n rows, read from csv by
 * spectrogram_read), Hann window of nw samples (a power of two), hop nw / 4,
 * written to f: a comment line, the header t,f,mag, one row per (frame,
 * bin) with t the frame's centre (s), f the bin (Hz) and mag in dB re one
 * unit of the column, a blank line after each frame. *frames, *bins: the
 * grid. 0, 1 (too few rows, out of memory; message printed) or 2 (bad
 * window). Write errors stay in f for its owner to see. */
int spectrogram_write(const char *csv, const char *col, int nw, const double *t, const double *a,
                      int n, FILE *f, int *frames, int *bins);

#endif
