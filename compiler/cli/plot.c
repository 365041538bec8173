/*
 * plot.c: `jnt plot`, pictures of output files and sweep tables with
 * gnuplot: its options, what it reads of the CSV, the columns it picks and
 * the picture's name; plot_gnuplot.c writes the script and runs gnuplot
 * (and calls nothing here). gnuplot, not matplotlib: it is already a
 * dependency (make demo, make docs), needs no Python for users of the C
 * tools, and starts in tens of milliseconds. The CSV is read here for its header (the column names; leading '#' comment
 * lines are skipped) and the "# units:" line after it (axis labels "u [m]"),
 * by plot_data.c for the rows' ranges and a sweep table's groups; gnuplot
 * reads the rows itself.
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
 *
 * What it promises (issue 27): the CSV is a regular file of bounded size
 * (plot_open_csv); no name, title, label or column reaches gnuplot as code,
 * and the outputs go through the one output routine (plot_gnuplot.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jnt/jnt.h"
#include "jnt/setup.h"
#include "plot.h"
#include "spectrogram.h"

#define MAXCOL PLOT_MAXCOL
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
    "\n"
    "The CSV is a regular file of at most 1024 MB (JNT_MAX_PLOT_MB=N sets another limit).\n"
    "exit status: 0 success, 1 bad file or gnuplot failed, 2 usage error\n";

/* A usage error: message and exit status 2. */
static int plot_usage(const char *fmt, const char *arg)
{
    fputs("jnt plot: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see 'jnt plot --help')\n", stderr);
    return 2;
}

/* The largest CSV plotted, in bytes: JNT_MAX_PLOT_MB MiB when that is a
 * positive number, else PLOT_MAX_MB; *mb the MiB. */
static long long max_csv(long *mb)
{
    const char *v = getenv("JNT_MAX_PLOT_MB");
    char *end;
    long n = v ? strtol(v, &end, 10) : 0;
    *mb = v && end != v && *end == '\0' && n > 0 ? n : PLOT_MAX_MB;
    return (long long)*mb << 20;
}

/* See plot.h. */
FILE *plot_open_csv(const char *path)
{
    long mb;
    long long max = max_csv(&mb);
    char why[256];
    FILE *f = setup_open_input(path, max, why, sizeof why);
    if (!f) {
        struct stat st;
        int big = stat(path, &st) == 0 && S_ISREG(st.st_mode) && (long long)st.st_size > max;
        fprintf(stderr, "jnt plot: error: cannot read '%s': %s", path, why);
        if (big)
            fprintf(stderr, " bytes (%ld MB; set JNT_MAX_PLOT_MB to raise it)", mb);
        fputc('\n', stderr);
    }
    return f;
}

/* The units p of a "# units: s,m,..." line (docs/cli.md, "Output files") or
 * of a sweep table's "units: " field, split in place into c->units; "" where
 * a column has none. */
static void read_units(char *p, plot_csv *c)
{
    p += strspn(p, " ");
    p[strcspn(p, "\r\n;")] = '\0';
    for (int i = 0; i < c->nc && p; i++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        c->units[i] = p;
        p = comma ? comma + 1 : NULL;
    }
}

/* A sweep table's comment line (docs/sweeps.md): its "swept: a,b" field,
 * when the header's columns after run are those parameters, as c->nswept,
 * and its "units: " field into c->units. */
static void read_sweep_meta(char *line, plot_csv *c)
{
    char *sw = strstr(line, "; swept: "), *un = strstr(line, "; units: ");
    if (sw) {
        sw += strlen("; swept: ");
        int n = 0;
        for (char *p = sw; n + 1 < c->nc;) {
            size_t k = strcspn(p, ",;\r\n");
            if (strlen(c->names[n + 1]) != k || strncmp(p, c->names[n + 1], k))
                break;
            n++;
            if (p[k] != ',') {
                c->nswept = p[k] == ';' || p[k] == '\n' || p[k] == '\0' ? n : 0;
                break;
            }
            p += k + 1;
        }
    }
    if (un)
        read_units(un + strlen("; units: "), c);
}

/* See plot.h. */
void plot_csv_free(plot_csv *c)
{
    free(c->head);
    free(c->uline);
    memset(c, 0, sizeof *c);
}

/* See plot.h. */
int plot_read_csv(const char *path, plot_csv *c)
{
    memset(c, 0, sizeof *c);
    FILE *f = plot_open_csv(path);
    if (!f)
        return -1;
    size_t hcap = 0, cap = 0;
    char *line = NULL;
    const char *err = NULL;
    int n = 0, ok = 0;
    while (getline(&c->head, &hcap, f) > 0) {
        n++;
        if (c->head[0] != '#') {
            ok = 1;
            break;
        }
    }
    if (!ok)
        err = "has no header line (an empty file?)";
    else if (c->head[0] == '\x93')
        err = "is a NumPy file: plot a CSV (jnt run -o out.csv)";
    if (!err) {
        for (char *tok = strtok(c->head, ",\r\n"); tok && c->nc < MAXCOL;
             tok = strtok(NULL, ",\r\n"))
            c->names[c->nc++] = tok;
        c->hline = n;
        /* the units line, then a row: else gnuplot fails, and leaves no picture */
        int rows = 0;
        if (getline(&line, &cap, f) > 0) {
            if (!strncmp(line, "# units:", strlen("# units:")) ||
                !strncmp(line, "# jnt sweep: ", strlen("# jnt sweep: "))) {
                c->uline = line;
                line = NULL;
                cap = 0;
                if (c->uline[2] == 'u')
                    read_units(c->uline + strlen("# units:"), c);
                else
                    read_sweep_meta(c->uline, c);
            } else if (line[0] != '#') {
                rows = line[0] != '\n' && line[0] != '\r';
            }
        }
        while (!rows && getline(&line, &cap, f) > 0)
            if (line[0] != '#')
                rows = line[0] != '\n' && line[0] != '\r';
        if (!rows)
            err = "has no rows, only its header";
    }
    free(line);
    fclose(f);
    if (err) {
        fprintf(stderr, "jnt plot: error: '%s' %s\n", path, err);
        plot_csv_free(c);
        return -1;
    }
    return 0;
}

/* Index of column name among names, or -1 after a message naming them. */
static int column(const char *path, char *const *names, int nc, const char *name)
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

/* Is a column of a sweep table (not a parameter or result to plot)? */
static int bookkeeping(const char *name)
{
    return !strcmp(name, "run") || !strcmp(name, "status") || !strcmp(name, "error") ||
           !strcmp(name, "cpu_s");
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

/* Is picture out an SVG (1), a PNG (0), or neither (-1, after a usage
 * message)? */
static int picture_svg(const char *out)
{
    size_t on = strlen(out);
    if (on > 4 && !strcmp(out + on - 4, ".svg"))
        return 1;
    if (on > 4 && !strcmp(out + on - 4, ".png"))
        return 0;
    plot_usage("the picture must end in .png or .svg: '%s'", out);
    return -1;
}

/* --spectrogram: the picture's and the data's names, column o->spec read
 * (spectrogram_read), then plot_draw_spectrogram: plot_file's status. */
static int plot_spectrogram(const char *csv, const plot_opts *o)
{
    char *out = picture_name(csv, o, "_spec.png");
    char *data = out ? malloc(strlen(out) + 10) : NULL;
    if (!data) {
        fputs("jnt plot: error: out of memory\n", stderr);
        free(out);
        return 1;
    }
    int svg = picture_svg(out); /* the picture's name first */
    if (svg < 0) {
        free(data);
        free(out);
        return 2;
    }
    strcpy(data, out);
    strcpy(strrchr(data, '.'), "_stft.csv");
    double *t = NULL, *a = NULL;
    int n = 0, rc = 1;
    FILE *in = plot_open_csv(csv);
    if (in && spectrogram_read(in, csv, o->spec, &t, &a, &n) == 0)
        rc = plot_draw_spectrogram(csv, o, out, data, svg, t, a, n);
    if (in)
        fclose(in);
    free(t);
    free(a);
    free(data);
    free(out);
    return rc;
}

/* The picture of c, the CSV read from csv, as o asks: plot_file's status. */
static int plot_columns(const char *csv, const plot_csv *c, const plot_opts *o)
{
    char *const *names = c->names;
    int nc = c->nc;
    /* a sweep table: x is its parameter */
    plot_pick p = {.xi = -1, .zi = -1, .table = nc > 1 && !strcmp(names[0], "run")};
    int table = p.table;
    int *yi = p.yi;
    if (o->x)
        p.xi = column(csv, names, nc, o->x);
    else
        for (int i = 0; i < nc && p.xi < 0 && !table; i++)
            p.xi = !strcmp(names[i], "t") ? i : -1;
    if (o->x && p.xi < 0)
        return 1;
    if (p.xi < 0)
        p.xi = table ? 1 : 0;
    if (o->y) {
        char *ys = strdup(o->y);
        if (!ys) {
            fputs("jnt plot: error: out of memory\n", stderr);
            return 1;
        }
        for (char *t = strtok(ys, ","); t && p.ny < MAXCOL; t = strtok(NULL, ",")) {
            int k = column(csv, names, nc, t);
            if (k < 0) {
                free(ys);
                return 1;
            }
            yi[p.ny++] = k;
        }
        free(ys);
    } else {
        int all = 0;
        for (int i = 0; i < nc; i++)
            if (i != p.xi && !(table && bookkeeping(names[i])) && all++ < PLOT_PANELS)
                yi[p.ny++] = i;
        if (all > PLOT_PANELS && !o->quiet)
            fprintf(stderr, "jnt plot: note: plotting the first %d of %d columns (choose them "
                            "with -y)\n", PLOT_PANELS, all);
    }
    if (o->z && ((p.zi = column(csv, names, nc, o->z)) < 0 || p.ny != 1)) {
        if (p.zi >= 0)
            return plot_usage("a heat map needs one -y column and -z: %s", o->z);
        return 1;
    }
    if (p.ny == 0)
        return plot_usage("nothing to plot: '%s' has only its x column", csv);
    /* a sweep table's curves: one line per value of its other parameters */
    plot_scan *sc = &p.sc;
    for (int i = 1; table && p.zi < 0 && i <= c->nswept; i++) {
        int used = i == p.xi;
        for (int k = 0; k < p.ny; k++)
            used |= i == yi[k];
        if (!used)
            sc->gcol[sc->ngcol++] = i;
    }
    FILE *rows = plot_open_csv(csv);
    int scanned = rows ? plot_scan_rows(rows, c, sc) : -1;
    if (rows)
        fclose(rows);
    if (scanned != 0)
        return 1;
    if (sc->ngroup < 0) {
        fprintf(stderr, "jnt plot: error: '%s' sweeps %d other parameters (", csv, sc->ngcol);
        for (int j = 0; j < sc->ngcol; j++)
            fprintf(stderr, "%s%s", j ? ", " : "", names[sc->gcol[j]]);
        fprintf(stderr, ") over more than %d values: one line each would not be read; plot a "
                        "heat map (-y %s -z %s) or sweep them over fewer values\n",
                PLOT_MAXGROUPS, names[sc->gcol[0]], names[yi[0]]);
        plot_scan_free(sc);
        return 2;
    }
    /* the picture's name and format */
    char *out = picture_name(csv, o, ".png");
    int svg = out ? picture_svg(out) : -1;
    if (!out || svg < 0) {
        if (!out)
            fputs("jnt plot: error: out of memory\n", stderr);
        free(out);
        plot_scan_free(sc);
        return out ? 2 : 1;
    }
    int rc = plot_draw(csv, c, &p, o, out, svg);
    free(out);
    plot_scan_free(sc);
    return rc;
}

/* See plot.h. */
int plot_file(const char *csv, const plot_opts *o)
{
    /* checked here for every caller: --log enters the script as it is */
    if (o->log && strcmp(o->log, "x") && strcmp(o->log, "y") && strcmp(o->log, "xy"))
        return plot_usage("'--log' takes x, y or xy, not '%s'", o->log);
    if (o->style && strcmp(o->style, "lines") && strcmp(o->style, "points") &&
        strcmp(o->style, "linespoints"))
        return plot_usage("'--style' takes lines, points or linespoints, not '%s'", o->style);
    if (o->spec)
        return plot_spectrogram(csv, o);
    plot_csv c;
    if (plot_read_csv(csv, &c) != 0)
        return 1;
    int rc = plot_columns(csv, &c, o);
    plot_csv_free(&c);
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
    return plot_file(csv, &o);
}