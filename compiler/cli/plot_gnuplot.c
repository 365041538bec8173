/*
 * plot_gnuplot.c: the gnuplot side of `jnt plot` (plot.c reads the options
 * and the CSV, picks the columns and names the picture, then calls here;
 * nothing here calls plot.c): the script of a line plot or a heat map
 * (plot_draw) and of a spectrogram (plot_draw_spectrogram), the picture's
 * terminal, the output files, and gnuplot run on the script.
 *
 * What it promises (issue 27): no name, title, label or column reaches
 * gnuplot as code (put_chars below is the one escaper, under plot_put_str
 * and put_path); the picture and the spectrogram's data go through the one
 * output routine (jnt_outfile_*: never a link, a FIFO, a device or the CSV
 * itself; a failed gnuplot keeps the previous picture). The CSV itself is
 * opened by plot_open_csv (plot.c): a regular file of bounded size.
 */
#define _DEFAULT_SOURCE /* realpath, popen, open_memstream */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jnt/jnt.h"
#include "plot.h"
#include "spectrogram.h"

/* A column's axis label: "u [m]" when its unit is known, else its name.
 * Points into one of a few static buffers. */
static const char *label(char *const *names, char *const *units, int i)
{
    static char lab[4][320];
    static int k;
    if (!units[i] || !units[i][0])
        return names[i];
    char *l = lab[k++ % 4];
    snprintf(l, sizeof lab[0], "%s [%s]", names[i], units[i]);
    return l;
}

/* An axis of column i: its label (label() with " - OFFSET" after the name
 * when the column's range is tiny against its values, plot_offset) and
 * what gnuplot plots ("$k" or "($k - OFFSET)"). */
typedef struct plot_axis {
    char lab[400];
    char use[64];  /* in a using spec: "5" or "($5 - OFFSET)" */
    char expr[64]; /* in an expression: "$5" or "($5 - OFFSET)" */
} plot_axis;

static void axis_of(plot_axis *ax, char *const *names, char *const *units,
                    const plot_scan *sc, int i)
{
    char off[40];
    if (!plot_offset(sc->lo[i], sc->hi[i], off, sizeof off)) {
        snprintf(ax->lab, sizeof ax->lab, "%s", label(names, units, i));
        snprintf(ax->use, sizeof ax->use, "%d", i + 1);
        snprintf(ax->expr, sizeof ax->expr, "$%d", i + 1);
        return;
    }
    if (units[i] && units[i][0])
        snprintf(ax->lab, sizeof ax->lab, "%s - %s [%s]", names[i], off, units[i]);
    else
        snprintf(ax->lab, sizeof ax->lab, "%s - %s", names[i], off);
    snprintf(ax->use, sizeof ax->use, "($%d - %s)", i + 1, off);
    snprintf(ax->expr, sizeof ax->expr, "%s", ax->use);
}

/* The key of group g of sc: "tE = 0.001 s, A = 2". */
static void group_title(char *buf, size_t n, char *const *names, char *const *units,
                        const plot_scan *sc, int g)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int j = 0; j < sc->ngcol && k < n; j++) {
        int c = sc->gcol[j];
        char v[40];
        jnt_format_double(v, sc->gval[(size_t)g * sc->ngcol + j]);
        int w = snprintf(buf + k, n - k, "%s%s = %s%s%s", j ? ", " : "", names[c], v,
                         units[c] && units[c][0] ? " " : "", units[c] ? units[c] : "");
        k += w > 0 ? (size_t)w : 0;
    }
}

/* The y of group g in a using spec: "($3 == 0.001 && $4 == 2 ? Y : NaN)"
 * (NaN is missing data, set datafile missing NaN: the group's line is not
 * broken by the other groups' rows). The values are the CSV's shortest
 * decimals, which read back to the same doubles. */
static void put_group_y(FILE *g, const plot_scan *sc, int grp, const char *y)
{
    fputs("((", g);
    for (int j = 0; j < sc->ngcol; j++) {
        char v[40];
        jnt_format_double(v, sc->gval[(size_t)grp * sc->ngcol + j]);
        fprintf(g, "%s$%d == %s", j ? " && " : "", sc->gcol[j] + 1, v);
    }
    fprintf(g, ") ? %s : NaN)", y);
}

/* The one escaper: every string of a gnuplot script that is not jnt's own
 * (file names, titles, labels, column names and units) is written by
 * put_chars inside double quotes. gnuplot's rules (`help quotes`, `help
 * substitution`, 5.4): a newline (or a carriage return) ends a command
 * inside any quotes, and there is no escape for it in single quotes; inside
 * double quotes backslash escapes apply (\ooo: an octal byte) and backquotes
 * are still substituted by a shell command's output; '@' macros are not
 * expanded inside quotes. So the string goes in double quotes, printable
 * ASCII as itself, and every other byte and '"', '\', '`', '@' as a
 * three-digit octal escape: what gnuplot reads is one string constant
 * whatever the text, and it gets the bytes back (a newline becomes a line
 * break of the title). gnuplot reads up to four octal digits after "\0",
 * so a digit right after an escape is escaped too. */
static void put_chars(FILE *g, const char *s)
{
    int esc = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        esc = *p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\' || *p == '`' || *p == '@' ||
              (esc && *p >= '0' && *p <= '7');
        if (esc)
            fprintf(g, "\\%03o", *p);
        else
            fputc(*p, g);
    }
}

/* See plot.h. */
void plot_put_str(FILE *g, const char *s)
{
    fputc('"', g);
    put_chars(g, s);
    fputc('"', g);
}

/* A file name for gnuplot: plot_put_str, and "./" before a relative name that
 * does not start with a letter, a digit, '_' or '.': gnuplot reads a file
 * named "<cmd" from a shell command and writes an output named "|cmd" to
 * one, and '-', '+', '++', '', '$name', '~/' have their own meanings. */
static void put_path(FILE *g, const char *path)
{
    unsigned char c = (unsigned char)path[0];
    fputc('"', g);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
          c == '_' || c == '.' || c == '/'))
        fputs("./", g);
    put_chars(g, path);
    fputc('"', g);
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

/* Run gnuplot on the script text; 0 or 1 after a message. */
static int run_gnuplot(const char *script)
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
    /* a gnuplot gone early is its exit status, not a SIGPIPE that would
     * leave the temporary files behind */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    fputs(script, g);
    int st = pclose(g);
    signal(SIGPIPE, old);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fputs("jnt plot: error: gnuplot failed (its message is above)\n", stderr);
        return 1;
    }
    return 0;
}

/* Open path (the picture or the spectrogram's data) through the one output
 * routine, never over the CSV being plotted (its real path csv_real, may be
 * NULL): the file, or NULL after a message. */
static jnt_outfile *open_output(const char *path, const char *csv_real)
{
    char real[PATH_MAX], err[PATH_MAX + 200];
    struct stat st;
    if (csv_real && lstat(path, &st) == 0 && S_ISREG(st.st_mode) && realpath(path, real) &&
        !strcmp(real, csv_real)) { /* said so before the routine says "the model" */
        fprintf(stderr, "jnt plot: error: cannot write '%s': it is the CSV being plotted (name "
                        "another picture with -o)\n", path);
        return NULL;
    }
    const char *inputs[2] = {csv_real, NULL};
    jnt_outfile *f;
    if (jnt_outfile_open(path, csv_real ? inputs : NULL, &f, err, sizeof err) != JNT_OK) {
        fprintf(stderr, "jnt plot: error: %s\n", err);
        return NULL;
    }
    return f;
}

/* Keep an output opened by open_output: 0, or 1 after a message. */
static int commit_output(jnt_outfile *f)
{
    char err[PATH_MAX + 200];
    if (jnt_outfile_commit(f, err, sizeof err) != JNT_OK) {
        fprintf(stderr, "jnt plot: error: %s\n", err);
        return 1;
    }
    return 0;
}

/* The terminal line of a picture (an SVG when svg), w by h pixels, written by
 * gnuplot to f's temporary file (or in place: /dev/null), into g. */
static void terminal(FILE *g, jnt_outfile *f, const char *out, int svg, int w, int h)
{
    const char *to = jnt_outfile_temp(f);
    fprintf(g, "set terminal %s size %d,%d noenhanced%s\nset output ", svg ? "svg" : "pngcairo",
            w, h, svg ? " dynamic" : "");
    put_path(g, to ? to : out);
    fputc('\n', g);
}

/* The script, to stderr when JNT_PLOT_SCRIPT is set (for the curious and the
 * tests), then gnuplot. */
static int plot_script(const char *script)
{
    if (getenv("JNT_PLOT_SCRIPT"))
        fputs(script, stderr);
    return run_gnuplot(script);
}

/* See plot.h. */
int plot_draw_spectrogram(const char *csv, const plot_opts *o, const char *out, const char *data,
                          int svg, const double *t, const double *a, int n)
{
    char *real = realpath(csv, NULL), *script = NULL; /* csv is never written over */
    size_t slen = 0;
    int frames = 0, bins = 0, rc = 1;
    jnt_outfile *pic = NULL, *dat = NULL;
    FILE *g = NULL;
    if ((pic = open_output(out, real)) && (dat = open_output(data, real)))
        rc = spectrogram_write(csv, o->spec, o->window > 0 ? o->window : 2048, t, a, n,
                               jnt_outfile_stream(dat), &frames, &bins);
    if (rc == 0 && fflush(jnt_outfile_stream(dat)) != 0) {
        fprintf(stderr, "jnt plot: error: cannot write '%s': %s\n", data, strerror(errno));
        rc = 1;
    }
    if (rc == 0 && !(g = open_memstream(&script, &slen))) {
        fputs("jnt plot: error: out of memory\n", stderr);
        rc = 1;
    }
    if (rc == 0) {
        terminal(g, pic, out, svg, o->width > 0 ? o->width : 900,
                 o->height > 0 ? o->height : 500);
        fputs("set datafile separator ','\nset palette rgbformulae 33,13,10\nset title ", g);
        plot_put_str(g, o->title ? o->title : csv);
        fputs("\nset xlabel ", g);
        plot_put_str(g, o->xlabel ? o->xlabel : "t [s]");
        fputs("\nset ylabel ", g);
        plot_put_str(g, o->ylabel ? o->ylabel : "f [Hz]");
        fputs("\nset cblabel \"", g);
        put_chars(g, o->spec);
        fputs(" (dB)\"\n", g);
        if (o->log)
            fprintf(g, "set logscale %s\n", o->log);
        fputs("set autoscale fix\nplot ", g);
        const char *dt = jnt_outfile_temp(dat);
        put_path(g, dt ? dt : data);
        fputs(" skip 2 using 1:2:3 with image notitle\n", g);
        fclose(g);
        rc = plot_script(script);
    }
    if (rc == 0) { /* the data, then the picture that shows them */
        rc = commit_output(dat);
        dat = NULL;
    }
    if (rc == 0) {
        rc = commit_output(pic);
        pic = NULL;
    }
    jnt_outfile_discard(dat);
    jnt_outfile_discard(pic);
    if (rc == 0 && !o->quiet)
        fprintf(stderr, "jnt plot: wrote '%s' (%d frames of %d bins; data '%s')\n", out, frames,
                bins, data);
    free(script);
    free(real);
    return rc;
}

/* See plot.h. */
int plot_draw(const char *csv, const plot_csv *c, const plot_pick *p, const plot_opts *o,
              const char *out, int svg)
{
    char *const *names = c->names, *const *units = c->units;
    const plot_scan *sc = &p->sc;
    const int *yi = p->yi;
    int xi = p->xi, ny = p->ny, zi = p->zi;
    int ngroup = sc->ngroup > 1 ? sc->ngroup : 0;
    /* the picture and its terminal */
    char *real = realpath(csv, NULL);
    jnt_outfile *pic = open_output(out, real);
    free(real);
    char *script = NULL;
    size_t slen = 0;
    FILE *g = pic ? open_memstream(&script, &slen) : NULL;
    if (!g) {
        if (pic)
            fputs("jnt plot: error: out of memory\n", stderr);
        jnt_outfile_discard(pic);
        return 1;
    }
    int panels = o->overlay || zi >= 0 ? 1 : ny;
    int w = o->width > 0 ? o->width : 900;
    int h = o->height > 0 ? o->height : (zi >= 0 ? 600 : 140 + 200 * panels);
    terminal(g, pic, out, svg, w, h);
    fputs("set datafile separator ','\nset grid\n", g);
    fprintf(g, "set datafile missing 'nan'\n");
    /* the data start after the header (and its comment lines) */
    char skip[32];
    snprintf(skip, sizeof skip, "skip %d", c->hline);
    plot_axis ax, ay, az;
    axis_of(&ax, names, units, sc, xi);
    fputs("set xlabel ", g);
    plot_put_str(g, o->xlabel ? o->xlabel : ax.lab);
    fputc('\n', g);
    if (o->log)
        fprintf(g, "set logscale %s\n", o->log);
    const char *title = o->title ? o->title : csv;
    if (zi >= 0) {
        /* a sweep's grid: one cell per run (failed runs, nan, stay blank) */
        fputs("set palette rgbformulae 33,13,10\nset title ", g);
        plot_put_str(g, title);
        axis_of(&ay, names, units, sc, yi[0]);
        axis_of(&az, names, units, sc, zi);
        fputs("\nset ylabel ", g);
        plot_put_str(g, o->ylabel ? o->ylabel : ay.lab);
        fputs("\nset cblabel ", g);
        plot_put_str(g, az.lab);
        fputs("\nset format cb '%g'\nset autoscale fix\nplot ", g);
        put_path(g, csv);
        fprintf(g, " %s using %s:%s:%s with image notitle\n", skip, ax.use, ay.use, az.use);
    } else {
        const char *style = p->table ? "linespoints pt 7 ps 0.6" : "lines lw 1.5";
        if (o->style)
            style = !strcmp(o->style, "lines")    ? "lines lw 1.5"
                    : !strcmp(o->style, "points") ? "points pt 7 ps 0.8"
                                                  : "linespoints pt 7 ps 0.6";
        if (panels > 1)
            fprintf(g, "set multiplot layout %d,1 title ", panels);
        else
            fputs("set title ", g);
        plot_put_str(g, title);
        fputc('\n', g);
        if (panels > 1)
            fputs("set tmargin 1\nset bmargin 3\n", g);
        if (ngroup)
            fputs("set datafile missing NaN\n", g);
        for (int p = 0; p < panels; p++) {
            int from = panels > 1 ? p : 0, to = panels > 1 ? p + 1 : ny;
            if (panels > 1 || ny == 1 || o->ylabel) {
                axis_of(&ay, names, units, sc, yi[from]);
                fputs("set ylabel ", g);
                plot_put_str(g, o->ylabel && panels == 1 ? o->ylabel : ay.lab);
                fputc('\n', g);
            }
            fputs("plot ", g);
            for (int k = from; k < to; k++) {
                axis_of(&ay, names, units, sc, yi[k]);
                for (int grp = 0; grp < (ngroup ? ngroup : 1); grp++) {
                    if (k > from || grp > 0)
                        fputs(", ", g);
                    put_path(g, csv);
                    fprintf(g, " %s using %s:", skip, ax.use);
                    if (ngroup)
                        put_group_y(g, sc, grp, ay.expr);
                    else
                        fputs(ay.use, g);
                    fprintf(g, " with %s ", style);
                    if (ngroup) { /* a key of the other parameters' values */
                        char t[512], kt[1024];
                        group_title(t, sizeof t, names, units, sc, grp);
                        if (to - from > 1)
                            snprintf(kt, sizeof kt, "%s, %s", names[yi[k]], t);
                        fputs("title ", g);
                        plot_put_str(g, to - from > 1 ? kt : t);
                    } else if (to - from > 1) { /* a key only where curves share a panel */
                        fputs("title ", g);
                        plot_put_str(g, ay.lab);
                    } else {
                        fputs("notitle", g);
                    }
                }
            }
            fputc('\n', g);
        }
        if (panels > 1)
            fputs("unset multiplot\n", g);
    }
    fclose(g);
    int rc = plot_script(script);
    free(script);
    if (rc == 0)
        rc = commit_output(pic);
    else
        jnt_outfile_discard(pic);
    if (rc == 0 && !o->quiet)
        fprintf(stderr, "jnt plot: wrote '%s'\n", out);
    return rc;
}
