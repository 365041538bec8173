/*
 * plot.c: `jnt plot`, pictures of output files and sweep tables with
 * gnuplot. gnuplot, not matplotlib: it is already a dependency (make demo,
 * make docs), needs no Python for users of the C tools, and starts in tens
 * of milliseconds. The CSV is read only for its header (the column names;
 * leading '#' comment lines are skipped) and the "# units:" line after it
 * (axis labels "u [m]"); gnuplot reads the rows itself.
 *
 *   jnt plot FILE.csv [-x COL] [-y COL[,COL]...] [-z COL] [--overlay]
 *                     [-o OUT.png|OUT.svg] [--title TEXT] [--size W,H]
 *                     [--xlabel TEXT] [--ylabel TEXT] [--log x|y|xy] [--style S]
 *
 * Without -y every column but x is plotted, one panel each, over a shared
 * x axis (t when there is one). --overlay puts the -y columns in one panel.
 * -z COL makes a heat map of COL over the (x, y) grid of a `jnt sweep`
 * table; a table with one parameter is a curve of its results against it.
 * --spectrogram COL draws COL's short-time Fourier transform (spectrogram.c),
 * its data written beside the picture.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"
#include "spectrogram.h"

#define MAXCOL 256
#define PLOT_PANELS 8 /* columns plotted without -y */

static const char plot_help[] =
    "usage: jnt plot FILE.csv [-x COL] [-y COL[,COL]...] [-z COL] [--overlay]\n"
    "                [-o OUT.png|OUT.svg] [--title TEXT] [--size W,H]\n"
    "\n"
    "Plot columns of an output CSV (jnt run) or a sweep table (jnt sweep) with gnuplot.\n"
    "\n"
    "  -x COL          the horizontal axis (default: t, else the first column)\n"
    "  -y COL,...      the columns to plot (default: all others, one panel each)\n"
    "  --overlay       the -y columns in one panel\n"
    "  -z COL          a heat map of COL over the grid of -x and -y (a sweep over two\n"
    "                  parameters)\n"
    "  -o FILE         the picture: .png or .svg (default: FILE.csv with .png)\n"
    "  --title TEXT    a title (default: the file's name)\n"
    "  --size W,H      the picture's size in pixels (default 900 by 260 a panel)\n"
    "  --xlabel TEXT, --ylabel TEXT  axis labels (default: the column names, \"u [m]\"\n"
    "                  with the units of the file's '# units:' line)\n"
    "  --log x|y|xy    logarithmic axes\n"
    "  --style lines|points|linespoints  (default: lines; linespoints for sweep tables)\n"
    "  --spectrogram COL  the short-time Fourier transform of COL against t (Hann\n"
    "                  window, hop a quarter of it), its data beside the picture as\n"
    "                  OUT_stft.csv (t, f, mag in dB); default picture FILE_spec.png\n"
    "  --window N      the spectrogram's window in samples, a power of two (default 2048)\n"
    "\n"
    "exit status: 0 success, 1 bad file or gnuplot failed, 2 usage error\n";

/* A usage error: message and exit status 2. */
static int plot_usage(const char *fmt, const char *arg)
{
    fputs("jnt plot: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see 'jnt plot --help')\n", stderr);
    return 2;
}

/* The units of the line after the header, when it is jnt's "# units: s,m,..."
 * (docs/cli.md, "Output files"), into units (pointers into ubuf, "" where a
 * column has none); units stay NULL otherwise. */
static void read_units(FILE *f, char *ubuf, size_t n, char **units, int nc)
{
    static const char tag[] = "# units:";
    if (!fgets(ubuf, (int)n, f) || strncmp(ubuf, tag, sizeof tag - 1) != 0)
        return;
    char *p = ubuf + sizeof tag - 1;
    p += strspn(p, " ");
    p[strcspn(p, "\r\n")] = '\0';
    for (int i = 0; i < nc && p; i++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        units[i] = p;
        p = comma ? comma + 1 : NULL;
    }
}

/* The column names of the CSV's header into names (ncol returned), their
 * units into units (NULL: none given), the header's line number in *hline
 * (1-based, after '#' comments), or -1 after a message. The names point
 * into buf, the units into ubuf (un bytes). */
static int read_header(const char *path, char *buf, size_t n, char **names, int *hline,
                       char *ubuf, size_t un, char **units)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "jnt plot: error: cannot read '%s': %s\n", path, strerror(errno));
        return -1;
    }
    int line = 0, ok = 0;
    while (fgets(buf, (int)n, f)) {
        line++;
        if (buf[0] != '#') {
            ok = 1;
            break;
        }
    }
    if (!ok) {
        fclose(f);
        fprintf(stderr, "jnt plot: error: '%s' has no header line (an empty file?)\n", path);
        return -1;
    }
    if (buf[0] == '\x93') {
        fclose(f);
        fprintf(stderr, "jnt plot: error: '%s' is a NumPy file: plot a CSV (jnt run -o out.csv)\n",
                path);
        return -1;
    }
    int nc = 0;
    for (char *tok = strtok(buf, ",\r\n"); tok && nc < MAXCOL; tok = strtok(NULL, ",\r\n"))
        names[nc++] = tok;
    *hline = line;
    read_units(f, ubuf, un, units, nc);
    rewind(f); /* a row after the header: else gnuplot fails, and leaves an empty picture */
    char *row = NULL;
    size_t cap = 0;
    int rows = 0;
    for (int l = 0; !rows && getline(&row, &cap, f) > 0;)
        if (row[0] != '#' && l++ > 0)
            rows = row[0] != '\n' && row[0] != '\r';
    free(row);
    fclose(f);
    if (!rows) {
        fprintf(stderr, "jnt plot: error: '%s' has no rows, only its header\n", path);
        return -1;
    }
    return nc;
}

/* A column's axis label: "u [m]" when its unit is known, else its name.
 * Points into one of a few static buffers. */
static const char *label(char **names, char **units, int i)
{
    static char lab[4][320];
    static int k;
    if (!units[i] || !units[i][0])
        return names[i];
    char *l = lab[k++ % 4];
    snprintf(l, sizeof lab[0], "%s [%s]", names[i], units[i]);
    return l;
}

/* Index of column name among names, or -1 after a message naming them. */
static int column(const char *path, char **names, int nc, const char *name)
{
    for (int i = 0; i < nc; i++)
        if (!strcmp(names[i], name))
            return i;
    fprintf(stderr, "jnt plot: error: '%s' has no column '%s' (columns:", path, name);
    for (int i = 0; i < nc; i++)
        fprintf(stderr, "%s %s", i ? "," : "", names[i]);
    fputs(")\n", stderr);
    return -1;
}

/* Text for gnuplot inside single quotes ('' doubles a quote). */
static void put_quoted(FILE *g, const char *s)
{
    fputc('\'', g);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', g);
        fputc(*s, g);
    }
    fputc('\'', g);
}

/* Is a column of a sweep table (not a parameter or result to plot)? */
static int bookkeeping(const char *name)
{
    return !strcmp(name, "run") || !strcmp(name, "status") || !strcmp(name, "error") ||
           !strcmp(name, "cpu_s");
}

/* Is there an executable `name` on PATH? */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)(n ? n : 1), n ? path : ".", name);
        if (access(buf, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

/* Run gnuplot on the script text writing picture out; 0 or 1 after a message
 * (and no half-written picture left). */
static int run_gnuplot(const char *script, const char *out)
{
    if (!on_path("gnuplot")) {
        fputs("jnt plot: error: jnt plot needs gnuplot (Debian package gnuplot-nox), which is "
              "not on PATH\n", stderr);
        return 1;
    }
    FILE *g = popen("gnuplot 2>&1", "w");
    if (!g) {
        fprintf(stderr, "jnt plot: error: cannot run gnuplot: %s\n", strerror(errno));
        return 1;
    }
    fputs(script, g);
    int st = pclose(g);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fputs("jnt plot: error: gnuplot failed (its message is above)\n", stderr);
        remove(out);
        return 1;
    }
    return 0;
}

/* The picture's name: o->out, or csv without its extension plus suffix. */
static char *picture_name(const char *csv, const plot_opts *o, const char *suffix)
{
    if (o->out)
        return strdup(o->out);
    size_t n = strlen(csv);
    char *out = malloc(n + strlen(suffix) + 1);
    if (!out)
        return NULL;
    memcpy(out, csv, n + 1);
    char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    if (dot && (!slash || dot > slash))
        *dot = '\0';
    return strcat(out, suffix);
}

/* The terminal line of picture out (.png or .svg), w by h pixels, into g;
 * -1 after a usage message for another name. */
static int terminal(FILE *g, const char *out, int w, int h)
{
    size_t on = strlen(out);
    int svg = on > 4 && !strcmp(out + on - 4, ".svg");
    if (!svg && !(on > 4 && !strcmp(out + on - 4, ".png"))) {
        plot_usage("the picture must end in .png or .svg: '%s'", out);
        return -1;
    }
    fprintf(g, "set terminal %s size %d,%d noenhanced%s\nset output ", svg ? "svg" : "pngcairo",
            w, h, svg ? " dynamic" : "");
    put_quoted(g, out);
    fputc('\n', g);
    return 0;
}

/* --spectrogram: the transform beside the picture, then gnuplot. */
static int plot_spectrogram(const char *csv, const plot_opts *o)
{
    char *out = picture_name(csv, o, "_spec.png");
    if (!out)
        return 1;
    size_t n = strlen(out);
    char *data = malloc(n + 10);
    if (!data) {
        free(out);
        return 1;
    }
    memcpy(data, out, n + 1);
    char *dot = strrchr(data, '.');
    strcpy(dot ? dot : data + n, "_stft.csv");
    char *script = NULL;
    size_t slen = 0;
    int frames = 0, bins = 0, rc = 0;
    FILE *g = open_memstream(&script, &slen);
    if (!g || terminal(g, out, o->width > 0 ? o->width : 900,
                       o->height > 0 ? o->height : 500) != 0) /* the picture's name first */
        rc = g ? 2 : 1;
    if (rc == 0)
        rc = spectrogram_write(csv, o->spec, o->window > 0 ? o->window : 2048, data, &frames,
                               &bins);
    if (g) {
        fputs("set datafile separator ','\nset palette rgbformulae 33,13,10\nset title ", g);
        put_quoted(g, o->title ? o->title : csv);
        fputs("\nset xlabel ", g);
        put_quoted(g, o->xlabel ? o->xlabel : "t [s]");
        fputs("\nset ylabel ", g);
        put_quoted(g, o->ylabel ? o->ylabel : "f [Hz]");
        fprintf(g, "\nset cblabel '%s (dB)'\n", o->spec);
        if (o->log)
            fprintf(g, "set logscale %s\n", o->log);
        fputs("set autoscale fix\nplot ", g);
        put_quoted(g, data);
        fputs(" skip 2 using 1:2:3 with image notitle\n", g);
        fclose(g);
    }
    if (rc == 0)
        rc = run_gnuplot(script, out);
    if (rc == 0 && !o->quiet)
        fprintf(stderr, "jnt plot: wrote '%s' (%d frames of %d bins; data '%s')\n", out, frames,
                bins, data);
    free(script);
    free(data);
    free(out);
    return rc;
}

/* See plot.h. */
int plot_file(const char *csv, const plot_opts *o)
{
    if (o->spec)
        return plot_spectrogram(csv, o);
    static char buf[1 << 16], ubuf[1 << 16];
    char *names[MAXCOL] = {NULL}, *units[MAXCOL] = {NULL};
    int hline = 1, nc = read_header(csv, buf, sizeof buf, names, &hline, ubuf, sizeof ubuf, units);
    if (nc < 0)
        return 1;
    int xi = -1, yi[MAXCOL], ny = 0, zi = -1;
    int table = nc > 1 && !strcmp(names[0], "run"); /* a sweep table: x is its parameter */
    if (o->x)
        xi = column(csv, names, nc, o->x);
    else
        for (int i = 0; i < nc && xi < 0 && !table; i++)
            xi = !strcmp(names[i], "t") ? i : -1;
    if (o->x && xi < 0)
        return 1;
    if (xi < 0)
        xi = table ? 1 : 0;
    if (o->y) {
        char *ys = strdup(o->y);
        for (char *t = strtok(ys, ","); t && ny < MAXCOL; t = strtok(NULL, ",")) {
            int k = column(csv, names, nc, t);
            if (k < 0) {
                free(ys);
                return 1;
            }
            yi[ny++] = k;
        }
        free(ys);
    } else {
        int all = 0;
        for (int i = 0; i < nc; i++)
            if (i != xi && !(table && bookkeeping(names[i])) && all++ < PLOT_PANELS)
                yi[ny++] = i;
        if (all > PLOT_PANELS && !o->quiet)
            fprintf(stderr, "jnt plot: note: plotting the first %d of %d columns (choose them "
                            "with -y)\n", PLOT_PANELS, all);
    }
    if (o->z && ((zi = column(csv, names, nc, o->z)) < 0 || ny != 1)) {
        if (zi >= 0)
            return plot_usage("a heat map needs one -y column and -z: %s", o->z);
        return 1;
    }
    if (ny == 0)
        return plot_usage("nothing to plot: '%s' has only its x column", csv);
    /* the picture's name and terminal */
    char *out = picture_name(csv, o, ".png");
    if (!out)
        return 1;
    int panels = o->overlay || zi >= 0 ? 1 : ny;
    int w = o->width > 0 ? o->width : 900;
    int h = o->height > 0 ? o->height : (zi >= 0 ? 600 : 140 + 200 * panels);
    char *script = NULL;
    size_t slen = 0;
    FILE *g = open_memstream(&script, &slen);
    if (!g) {
        free(out);
        fputs("jnt plot: error: out of memory\n", stderr);
        return 1;
    }
    if (terminal(g, out, w, h) != 0) {
        fclose(g);
        free(script);
        free(out);
        return 2;
    }
    fputs("set datafile separator ','\nset grid\n", g);
    fprintf(g, "set datafile missing 'nan'\n");
    /* the data start after the header (and its comment lines) */
    char skip[32];
    snprintf(skip, sizeof skip, "skip %d", hline);
    fputs("set xlabel ", g);
    put_quoted(g, o->xlabel ? o->xlabel : label(names, units, xi));
    fputc('\n', g);
    if (o->log)
        fprintf(g, "set logscale %s\n", o->log);
    const char *title = o->title ? o->title : csv;
    if (zi >= 0) {
        /* a sweep's grid: one cell per run (failed runs, nan, stay blank) */
        fputs("set palette rgbformulae 33,13,10\nset title ", g);
        put_quoted(g, title);
        fputs("\nset ylabel ", g);
        put_quoted(g, label(names, units, yi[0]));
        fputs("\nset cblabel ", g);
        put_quoted(g, label(names, units, zi));
        fputs("\nset format cb '%g'\nset autoscale fix\nplot ", g);
        put_quoted(g, csv);
        fprintf(g, " %s using %d:%d:%d with image notitle\n", skip, xi + 1, yi[0] + 1, zi + 1);
    } else {
        const char *style = table ? "linespoints pt 7 ps 0.6" : "lines lw 1.5";
        if (o->style)
            style = !strcmp(o->style, "lines")    ? "lines lw 1.5"
                    : !strcmp(o->style, "points") ? "points pt 7 ps 0.8"
                                                  : "linespoints pt 7 ps 0.6";
        if (panels > 1)
            fprintf(g, "set multiplot layout %d,1 title ", panels);
        else
            fputs("set title ", g);
        put_quoted(g, title);
        fputc('\n', g);
        if (panels > 1)
            fputs("set tmargin 1\nset bmargin 3\n", g);
        for (int p = 0; p < panels; p++) {
            if (panels > 1 || ny == 1 || o->ylabel) {
                fputs("set ylabel ", g);
                put_quoted(g, o->ylabel && panels == 1 ? o->ylabel : label(names, units, yi[p]));
                fputc('\n', g);
            }
            fputs("plot ", g);
            int from = panels > 1 ? p : 0, to = panels > 1 ? p + 1 : ny;
            for (int k = from; k < to; k++) {
                if (k > from)
                    fputs(", ", g);
                put_quoted(g, csv);
                fprintf(g, " %s using %d:%d with %s ", skip, xi + 1, yi[k] + 1, style);
                if (to - from > 1) { /* a key only where curves share a panel */
                    fputs("title ", g);
                    put_quoted(g, label(names, units, yi[k]));
                } else {
                    fputs("notitle", g);
                }
            }
            fputc('\n', g);
        }
        if (panels > 1)
            fputs("unset multiplot\n", g);
    }
    fclose(g);
    if (getenv("JNT_PLOT_SCRIPT")) /* what gnuplot gets, for the curious and the tests */
        fputs(script, stderr);
    int rc = run_gnuplot(script, out);
    free(script);
    if (rc == 0 && !o->quiet)
        fprintf(stderr, "jnt plot: wrote '%s'\n", out);
    free(out);
    return rc;
}

/* See plot.h. */
int plot_main(int argc, char **argv)
{
    plot_opts o;
    memset(&o, 0, sizeof o);
    const char *csv = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **dst = !strcmp(a, "-x")        ? &o.x
                           : !strcmp(a, "-y")      ? &o.y
                           : !strcmp(a, "-z")      ? &o.z
                           : !strcmp(a, "-o")      ? &o.out
                           : !strcmp(a, "--title") ? &o.title
                           : !strcmp(a, "--xlabel") ? &o.xlabel
                           : !strcmp(a, "--ylabel") ? &o.ylabel
                           : !strcmp(a, "--log")   ? &o.log
                           : !strcmp(a, "--style") ? &o.style
                           : !strcmp(a, "--spectrogram") ? &o.spec
                                                   : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(plot_help, stdout);
            return 0;
        } else if (dst) {
            if (i + 1 >= argc)
                return plot_usage("option '%s' needs a value", a);
            *dst = argv[++i];
        } else if (!strcmp(a, "--overlay")) {
            o.overlay = 1;
        } else if (!strcmp(a, "--window")) {
            if (i + 1 >= argc || sscanf(argv[++i], "%d", &o.window) != 1 || o.window < 8 ||
                (o.window & (o.window - 1)))
                return plot_usage("option '--window' needs a power of two of at least 8 "
                                  "samples: '%s'", i < argc ? argv[i] : "");
        } else if (!strcmp(a, "--size")) {
            if (i + 1 >= argc || sscanf(argv[++i], "%d,%d", &o.width, &o.height) != 2 ||
                o.width < 100 || o.height < 100)
                return plot_usage("option '--size' needs W,H in pixels (at least 100): '%s'",
                                  i < argc ? argv[i] : "");
        } else if (a[0] == '-' && a[1]) {
            return plot_usage("unknown option '%s'", a);
        } else if (csv) {
            return plot_usage("unexpected argument '%s' (one file at a time)", a);
        } else {
            csv = a;
        }
    }
    if (!csv)
        return plot_usage("'plot' needs a file%s", "");
    if (o.log && strcmp(o.log, "x") && strcmp(o.log, "y") && strcmp(o.log, "xy"))
        return plot_usage("'--log' takes x, y or xy, not '%s'", o.log);
    if (o.style && strcmp(o.style, "lines") && strcmp(o.style, "points") &&
        strcmp(o.style, "linespoints"))
        return plot_usage("'--style' takes lines, points or linespoints, not '%s'", o.style);
    return plot_file(csv, &o);
}
