/*
 * spectrogram.c: `jnt plot FILE.csv --spectrogram COL`: the short-time
 * Fourier transform of an output column, for pictures like Machines 2022's
 * Fig. 6 (examples/beam_on_beam.jnt), without an outside tool. Hann window
 * of nw samples (a power of two), hop nw / 4, frames from the second row
 * (the first is t0, before the output grid), magnitude 20 log10(2 |X_k| /
 * sum w) in dB re one unit of the column; the same transform as
 * examples/beam_on_beam_spec.py (numpy), which tests/cli/plot.sh compares.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spectrogram.h"

#define PI 3.14159265358979323846

/* In-place radix-2 FFT of (re, im), n a power of two. */
static void fft(double *re, double *im, int n)
{
    for (int i = 1, j = 0; i < n; i++) { /* bit reversal */
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            double t = re[i];
            re[i] = re[j], re[j] = t;
            t = im[i], im[i] = im[j], im[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double a = -2 * PI / len;
        for (int i = 0; i < n; i += len)
            for (int k = 0; k < len / 2; k++) {
                double c = cos(a * k), s = sin(a * k);
                int p = i + k, q = i + k + len / 2;
                double xr = re[q] * c - im[q] * s, xi = re[q] * s + im[q] * c;
                re[q] = re[p] - xr, im[q] = im[p] - xi;
                re[p] += xr, im[p] += xi;
            }
    }
}

/* See spectrogram.h. */
int spectrogram_read(FILE *f, const char *path, const char *col, double **t, double **a, int *n)
{
    *t = *a = NULL;
    *n = 0;
    char *line = NULL;
    size_t cap = 0;
    int it = -1, ia = -1, rows = 0, rcap = 0, header = 0, rc = 0;
    while (getline(&line, &cap, f) > 0) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\r\n")] = '\0';
        if (!header) {
            header = 1;
            int k = 0;
            for (char *tok = strtok(line, ","); tok; tok = strtok(NULL, ","), k++) {
                if (!strcmp(tok, "t"))
                    it = k;
                if (!strcmp(tok, col))
                    ia = k;
            }
            if (it < 0 || ia < 0) {
                fprintf(stderr, "jnt plot: error: '%s' has no column '%s'\n", path,
                        it < 0 ? "t" : col);
                rc = -1;
                break;
            }
            continue;
        }
        double vt = NAN, va = NAN;
        char *p = line;
        for (int k = 0; *p && k <= (it > ia ? it : ia); k++) {
            char *end;
            double v = strtod(p, &end);
            if (k == it)
                vt = v;
            if (k == ia)
                va = v;
            p = strchr(end, ',') ? strchr(end, ',') + 1 : end + strlen(end);
        }
        if (rows == rcap) {
            rcap = rcap ? 2 * rcap : 4096;
            double *nt = realloc(*t, (size_t)rcap * sizeof *nt);
            double *na = nt ? realloc(*a, (size_t)rcap * sizeof *na) : NULL;
            if (nt)
                *t = nt;
            if (!na) {
                fputs("jnt plot: error: out of memory\n", stderr);
                rc = -1;
                break;
            }
            *a = na;
        }
        (*t)[rows] = vt, (*a)[rows] = va, rows++;
    }
    free(line);
    if (rc == 0 && !header) {
        fprintf(stderr, "jnt plot: error: '%s' has no header line\n", path);
        rc = -1;
    }
    *n = rows;
    if (rc != 0) {
        free(*t);
        free(*a);
        *t = *a = NULL;
    }
    return rc;
}

/* See spectrogram.h. */
int spectrogram_write(const char *csv, const char *col, int nw, const double *t, const double *a,
                      int n, FILE *f, int *frames, int *bins)
{
    if (nw < 8 || (nw & (nw - 1))) {
        fprintf(stderr, "jnt plot: error: the window is a power of two of at least 8 samples, "
                        "not %d\n", nw);
        return 2;
    }
    int hop = nw / 4, rc = 0;
    if (n < nw + 1) {
        fprintf(stderr, "jnt plot: error: '%s' has %d rows; a window needs %d (--window)\n", csv,
                n, nw + 1);
        return 1;
    }
    double dt = t[2] - t[1];
    double *w = malloc((size_t)nw * sizeof *w), *re = malloc((size_t)nw * sizeof *re);
    double *im = malloc((size_t)nw * sizeof *im), wsum = 0;
    if (!w || !re || !im) {
        fputs("jnt plot: error: out of memory\n", stderr);
        rc = 1;
    } else {
        for (int k = 0; k < nw; k++)
            wsum += w[k] = 0.5 - 0.5 * cos(2 * PI * k / (nw - 1));
        fprintf(f, "# STFT of %s: Hann window %d samples, hop %d, dt %g s\nt,f,mag\n", col, nw,
                hop, dt);
        *frames = 0;
        *bins = nw / 2 + 1;
        for (int s = 1; s + nw <= n; s += hop, (*frames)++) {
            for (int k = 0; k < nw; k++)
                re[k] = w[k] * a[s + k], im[k] = 0;
            fft(re, im, nw);
            for (int k = 0; k <= nw / 2; k++) {
                double m = 2 * hypot(re[k], im[k]) / wsum;
                fprintf(f, "%.9g,%.9g,%.6f\n", t[s + nw / 2], k / (nw * dt),
                        20 * log10(m > 1e-12 ? m : 1e-12));
            }
            fputc('\n', f);
        }
    }
    free(w);
    free(re);
    free(im);
    return rc;
}
