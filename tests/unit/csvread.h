/*
 * csvread.h: read a numeric CSV with a header line (the runtime's output)
 * into columns, for the tests.
 */
#ifndef JNT_CSVREAD_H
#define JNT_CSVREAD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/jnt.h"

typedef struct csv_table {
    int ncol, nrow;
    char names[32][32];
    double *col[32];
} csv_table;

/* Load path (comment lines skipped); returns 0, or -1 when the file is
 * missing or a row does not have as many fields as the header (a truncated
 * line). */
__attribute__((unused)) static int csv_load(const char *path, csv_table *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return -1;
    }
    for (char *tok = strtok(line, ",\n"); tok && t->ncol < 32; tok = strtok(NULL, ",\n"))
        snprintf(t->names[t->ncol++], 32, "%s", tok);
    int cap = 1024;
    for (int c = 0; c < t->ncol; c++)
        t->col[c] = malloc((size_t)cap * sizeof(double));
    int bad = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') /* the line saying how the run ended */
            continue;
        if (t->nrow == cap) {
            cap *= 2;
            for (int c = 0; c < t->ncol; c++)
                t->col[c] = realloc(t->col[c], (size_t)cap * sizeof(double));
        }
        char *p = line;
        int c = 0;
        for (; c < t->ncol; c++) {
            char *end;
            t->col[c][t->nrow] = strtod(p, &end);
            if (end == p)
                break;
            p = end;
            if (*p == ',')
                p++;
        }
        if (c != t->ncol || (*p != '\n' && *p != 0))
            bad = 1;
        t->nrow++;
    }
    fclose(f);
    return bad ? -1 : 0;
}

/* The column called name, or NULL. */
__attribute__((unused)) static double *csv_col(const csv_table *t, const char *name)
{
    for (int c = 0; c < t->ncol; c++)
        if (strcmp(t->names[c], name) == 0)
            return t->col[c];
    return NULL;
}

__attribute__((unused)) static void csv_free(csv_table *t)
{
    for (int c = 0; c < t->ncol; c++)
        free(t->col[c]);
}

/* Mean of column col over the rows with t >= t0 (NAN when there are none). */
__attribute__((unused)) static double csv_mean_after(const csv_table *t, const char *col,
                                                     double t0)
{
    const double *tc = csv_col(t, "t"), *c = csv_col(t, col);
    double s = 0;
    int n = 0;
    for (int i = 0; tc && c && i < t->nrow; i++)
        if (tc[i] >= t0)
            s += c[i], n++;
    return n ? s / n : 0.0 / 0.0;
}

/* The whole text of a file (malloc'd, NUL-terminated), or NULL. */
__attribute__((unused)) static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* src with its first `old` replaced by `rep` (malloc'd), or NULL when src is
 * NULL or does not contain `old`. */
__attribute__((unused)) static char *text_sub(const char *src, const char *old, const char *rep)
{
    const char *at = src ? strstr(src, old) : NULL;
    if (!at)
        return NULL;
    size_t n = strlen(src) - strlen(old) + strlen(rep) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%.*s%s%s", (int)(at - src), src, rep, at + strlen(old));
    return s;
}

/* Run with overrides o and the -D assignments defs (NULL-terminated, may be
 * NULL) into csv and load it into *t (which csv_free can always release).
 * Returns the run's status, or JNT_ERR_IO when the CSV cannot be read. */
__attribute__((unused)) static int run_csv(const jnt_model *mod, const char *csv, jnt_run_opts o,
                                           const char *const *defs, csv_table *t)
{
    memset(t, 0, sizeof *t);
    jnt_data *d = jnt_data_new(mod);
    int rc = JNT_OK;
    for (int i = 0; defs && defs[i] && rc == JNT_OK; i++)
        rc = jnt_set_param_text(mod, d, defs[i]);
    o.csv_path = csv;
    if (rc == JNT_OK)
        rc = jnt_run(mod, d, &o);
    if (rc != JNT_OK)
        printf("INFO: run %s: %s\n", csv, jnt_data_error(d));
    jnt_data_free(d);
    if (rc == JNT_OK && csv_load(csv, t) != 0)
        rc = JNT_ERR_IO;
    return rc;
}

#endif
