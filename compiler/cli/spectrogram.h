/*
 * spectrogram.h: the short-time Fourier transform of `jnt plot
 * --spectrogram` (spectrogram.c).
 */
#ifndef JNT_SPECTROGRAM_H
#define JNT_SPECTROGRAM_H

/* The spectrogram of column col of the output CSV at csv (against its t),
 * Hann window of nw samples (a power of two), hop nw / 4, written to out:
 * a comment line, the header t,f,mag, one row per (frame, bin) with t the
 * frame's centre (s), f the bin (Hz) and mag in dB re one unit of the column,
 * a blank line after each frame. *frames, *bins: the grid. 0, 1 (bad file;
 * message printed) or 2 (bad window). */
int spectrogram_write(const char *csv, const char *col, int nw, const char *out, int *frames,
                      int *bins);

#endif
