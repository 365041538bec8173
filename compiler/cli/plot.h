/*
 * plot.h: `jnt plot` (plot.c: options, the CSV, the columns; plot_data.c:
 * the rows; plot_gnuplot.c: the script and gnuplot), also used by `jnt run
 * --plot`.
 */
#ifndef JNT_PLOT_H
#define JNT_PLOT_H

#include <stdio.h>

#define PLOT_MAXCOL 256 /* columns of a CSV read (more are ignored) */
#define PLOT_MAX_MB 1024 /* the largest CSV plotted, in MiB (a run's default largest output);
                            the environment variable JNT_MAX_PLOT_MB sets another */

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

/* What plot_read_csv reads of a CSV: its column names and their units. */
typedef struct plot_csv {
    char *head, *uline;        /* the header and units lines (malloc'd) */
    char *names[PLOT_MAXCOL];  /* the column names, pointing into head */
    char *units[PLOT_MAXCOL];  /* their units ("" where a column has none), pointing into
                                  uline; NULL when the file has no "# units:" line */
    int nc;                    /* columns */
    int hline;                 /* the header's line number (1-based, after '#' comments) */
    int nswept;                /* a sweep table's parameters: names[1 .. nswept] (its
                                  "# jnt sweep: ...; swept: a,b" line); 0: not known */
} plot_csv;

#define PLOT_MAXGROUPS 16 /* lines of a sweep table's curves, one per other parameters' values */

/* What plot_scan_rows reads of a CSV's rows (plot_data.c). */
typedef struct plot_scan {
    double lo[PLOT_MAXCOL], hi[PLOT_MAXCOL]; /* each column's finite range (lo > hi: none) */
    int gcol[PLOT_MAXCOL], ngcol; /* set by the caller: the columns whose distinct values
                                     make the groups (0: none) */
    double *gval;  /* ngroup x ngcol values, in the order they first appear */
    int ngroup;    /* the groups; -1 when more than PLOT_MAXGROUPS */
} plot_scan;

/* Plot the CSV at path as o asks. 0, 1 (bad file, gnuplot failed; message
 * printed) or 2 (usage error). */
int plot_file(const char *path, const plot_opts *o);
/* `jnt plot` with its arguments (after "plot"): the exit status. */
int plot_main(int argc, char **argv);

/* Open the CSV at path for reading: a regular file (a directory, a FIFO, a
 * device are refused without blocking) of at most JNT_MAX_PLOT_MB MiB
 * (default PLOT_MAX_MB). The stream, or NULL after a message on stderr. */
FILE *plot_open_csv(const char *path);
/* Read the CSV at path (plot_open_csv) for a plot: the header (the first line
 * not starting with '#'), the "# units: s,m,..." line after it, and whether a
 * row follows. 0 and *c (free it with plot_csv_free), or -1 after a message
 * (no header, a NumPy file, no rows; *c then holds nothing to free). */
int plot_read_csv(const char *path, plot_csv *c);
void plot_csv_free(plot_csv *c);
/* Read the rows of the CSV c was read from, open at its start as f (the
 * caller closes it): every column's range and, when s->ngcol > 0, the
 * distinct combinations of the columns s->gcol. 0 (free s with
 * plot_scan_free), or -1 after a message. */
int plot_scan_rows(FILE *f, const plot_csv *c, plot_scan *s);
void plot_scan_free(plot_scan *s);
/* The offset of an axis over [lo, hi] when the range is below 1e-4 of the
 * values (matplotlib's offset text): 1 and its decimal text in buf (the
 * middle rounded at the decade above the range), else 0 and "". */
int plot_offset(double lo, double hi, char *buf, size_t n);
/* Write s to g as one gnuplot string constant: in double quotes, printable
 * ASCII as itself, every other byte and '"', '\\', '`', '@' as an octal
 * escape \ooo (also a digit after an escape), so that no text leaves its
 * string (plot_gnuplot.c, put_chars, says why). */
void plot_put_str(FILE *g, const char *s);

/* What plot.c hands to plot_gnuplot.c (which calls nothing of plot.c). */

/* The columns plot.c picks of a CSV for plot_draw. */
typedef struct plot_pick {
    int xi;                  /* the x column */
    int yi[PLOT_MAXCOL], ny; /* the y columns */
    int zi;                  /* the heat map's value column; -1: a line plot */
    int table;               /* a sweep table (its points marked) */
    plot_scan sc;            /* the columns' ranges and the table's groups (plot_scan_rows) */
} plot_pick;

/* The picture out (an SVG when svg, else a PNG) of the columns p of c, the
 * CSV read from csv, as o asks: its script (a line plot, panels, curves of a
 * sweep table's groups, or a heat map) run by gnuplot into the picture, kept
 * only when gnuplot succeeds. plot_file's status; p and out stay the
 * caller's. */
int plot_draw(const char *csv, const plot_csv *c, const plot_pick *p, const plot_opts *o,
              const char *out, int svg);
/* --spectrogram: the transform of column o->spec (a, against t, n rows, read
 * from csv by spectrogram_read) written to data (spectrogram_write), then
 * gnuplot's picture of it into out (an SVG when svg); both files are kept
 * only when gnuplot succeeds. plot_file's status; all stay the caller's. */
int plot_draw_spectrogram(const char *csv, const plot_opts *o, const char *out, const char *data,
                          int svg, const double *t, const double *a, int n);

#endif
