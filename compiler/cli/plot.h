/*
 * plot.h: `jnt plot` (plot.c), also used by `jnt run --plot`.
 */
#ifndef JNT_PLOT_H
#define JNT_PLOT_H

typedef struct plot_opts {
    const char *x, *y, *z;  /* columns: x axis, y columns (comma-separated), heat-map value */
    const char *out;        /* picture (.png or .svg); NULL: the CSV's name with .png */
    const char *title;      /* NULL: the file's name */
    const char *xlabel, *ylabel; /* NULL: the column names */
    const char *log;        /* "x", "y", "xy" or NULL */
    const char *style;      /* "lines", "points", "linespoints" or NULL */
    int overlay;            /* the y columns in one panel */
    int width, height;      /* pixels; 0: default */
    int quiet;              /* 1: do not announce the picture */
    const char *spec;       /* a spectrogram of this column (spectrogram.c), or NULL */
    int window;             /* its window in samples (a power of two); 0: 2048 */
} plot_opts;

/* Plot the CSV at path as o asks. 0, 1 (bad file, gnuplot failed; message
 * printed) or 2 (usage error). */
int plot_file(const char *path, const plot_opts *o);
/* `jnt plot` with its arguments (after "plot"): the exit status. */
int plot_main(int argc, char **argv);

#endif
