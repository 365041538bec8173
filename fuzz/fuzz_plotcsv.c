/*
 * fuzz_plotcsv.c: libFuzzer harness of jnt plot's CSV readers
 * (compiler/cli/plot.c, spectrogram.c): the input written to a temporary
 * file and read by plot_read_csv (header, units line, a row after them) and
 * by spectrogram_read (columns t and the last column, every row). Each
 * column name and unit read is then written by plot_put_str (plot_gnuplot.c), the escaper of
 * every string of a gnuplot script, and the result checked: printable ASCII
 * only, no '"' but the two quotes, no '`' or '@', each '\' the start of a
 * three-digit octal escape not followed by an octal digit, and decoded the
 * text itself. Findings go to tests/fuzz-regressions/plotcsv/, replayed by
 * make test (fuzz/replay.sh). Run with -close_fd_mask=2: the readers'
 * messages go to stderr.
 */
#define _DEFAULT_SOURCE /* open_memstream */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plot.h"
#include "spectrogram.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort unless the escaped form e of s is one safe gnuplot string of s. */
static void check_escaped(const char *s, const char *e, size_t n)
{
    size_t k = 0, ls = strlen(s);
    if (n < 2 || e[0] != '"' || e[n - 1] != '"')
        abort();
    for (size_t i = 1; i + 1 < n; i++) {
        unsigned char c = (unsigned char)e[i];
        if (c < 0x20 || c > 0x7e || c == '"' || c == '`' || c == '@')
            abort();
        if (c == '\\') {
            if (i + 4 >= n || e[i + 1] < '0' || e[i + 1] > '3' || e[i + 2] < '0' ||
                e[i + 2] > '7' || e[i + 3] < '0' || e[i + 3] > '7' ||
                (e[i + 4] >= '0' && e[i + 4] <= '7'))
                abort();
            c = (unsigned char)((e[i + 1] - '0') * 64 + (e[i + 2] - '0') * 8 + (e[i + 3] - '0'));
            i += 3;
        }
        if (k >= ls || (unsigned char)s[k++] != c)
            abort();
    }
    if (k != ls)
        abort();
}

/* Escape s and check it. */
static void escape(const char *s)
{
    char *e = NULL;
    size_t n = 0;
    FILE *g = open_memstream(&e, &n);
    if (!g)
        return;
    plot_put_str(g, s);
    fclose(g);
    check_escaped(s, e, n);
    free(e);
}

/* One input: 0 (abort when a promise is broken). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/jnt-fuzz-plotcsv-%ld.csv", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    plot_csv c;
    char col[256] = "t";
    if (plot_read_csv(path, &c) == 0) {
        if (c.nc < 0 || c.nc > PLOT_MAXCOL || c.hline < 1)
            abort();
        for (int i = 0; i < c.nc; i++) {
            escape(c.names[i]);
            if (c.units[i])
                escape(c.units[i]);
        }
        if (c.nc > 0)
            snprintf(col, sizeof col, "%s", c.names[c.nc - 1]);
        plot_csv_free(&c);
    }
    double *t, *a;
    int n;
    f = plot_open_csv(path);
    if (f) {
        if (spectrogram_read(f, path, col, &t, &a, &n) == 0) {
            if (n < 0)
                abort();
            free(t);
            free(a);
        } else if (t || a) {
            abort();
        }
        fclose(f);
    }
    return 0;
}
