/*
 * analysis.c: the analyses a model declares, run after (or instead of) its
 * simulation: `linear` (eigenvalues of the Jacobian at a time of the
 * model's simulation) and `hysteresis` (a friction law driven through a
 * prescribed slip history: the loop and the energy dissipated per cycle)
 * and `kinematic` (kinematic.c: a mechanism driven in every degree of
 * freedom, solved from its constraints).
 * Each writes small CSV files; none runs inside a step loop.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/csv.h"
#include "analyse/kinematic.h"
#include "core/data.h"
#include "couple/iface_slide.h"
#include "core/model.h"

/* A new data object for model m with the parameters of d (same order). */
static jnt_data *data_like(const jnt_model *m, const jnt_data *d)
{
    jnt_data *e = jnt_data_new(m);
    if (e && m->abi->np == d->m->abi->np) {
        memcpy(e->p, d->p, (size_t)m->abi->np * sizeof *e->p);
        memcpy(e->set, d->set, (size_t)m->abi->np * sizeof *e->set);
    }
    return e;
}

static char *path_of(const char *dir, const char *name, const char *suffix)
{
    size_t n = (dir ? strlen(dir) + 1 : 0) + strlen(name) + strlen(suffix) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s%s", dir ? dir : "", dir ? "/" : "", name, suffix);
    return p;
}

/* Write a table of n rows of ncol values. */
static int write_table(jnt_data *d, const char *path, const char *const *cols, int ncol,
                       const double *rows, int n)
{
    csv_writer w;
    memset(&w, 0, sizeof w);
    int rc = csv_open(&w, path, ncol, d->err, sizeof d->err);
    if (rc == JNT_OK)
        rc = csv_header(&w, cols, ncol, d->err, sizeof d->err);
    for (int i = 0; rc == JNT_OK && i < n; i++)
        rc = csv_row(&w, rows + (size_t)i * (size_t)ncol, ncol, d->err, sizeof d->err);
    int crc = csv_close(&w, rc == JNT_OK ? d->err : NULL, sizeof d->err);
    return rc == JNT_OK ? crc : rc;
}

static int cmp_eig(const void *a, const void *b)
{
    const double *x = a, *y = b;
    double mx = hypot(x[1], x[2]), my = hypot(y[1], y[2]);
    if (mx != my)
        return mx < my ? -1 : 1;
    return x[2] < y[2] ? -1 : x[2] > y[2];
}

/* Eigenvalues at time v[0] of the main model's simulation. */
static int run_linear(const jnt_model *m, jnt_data *d, const jnt_abi_analysis *an, const double *v,
                      const char *path)
{
    jnt_data *e = data_like(m, d);
    if (!e)
        return data_error(d, JNT_ERR_NOMEM, "out of memory");
    int rc = jnt_init_state(m, e);
    if (rc == JNT_OK && v[0] > e->t) {
        jnt_run_opts o = {.csv_path = "", .t_end = v[0]};
        rc = jnt_run(m, e, &o);
    }
    int n = m->abi->ny;
    double *re = malloc(((size_t)n + 1) * sizeof *re), *im = malloc(((size_t)n + 1) * sizeof *im);
    double *rows = malloc(((size_t)n + 1) * 6 * sizeof *rows);
    if (rc == JNT_OK && (!re || !im || !rows))
        rc = data_error(e, JNT_ERR_NOMEM, "out of memory");
    if (rc == JNT_OK)
        rc = jnt_eigenvalues(m, e, re, im);
    if (rc == JNT_OK) {
        /* k, re, im, |lambda|, damping ratio -re/|lambda|, frequency |im|/(2 pi) */
        for (int i = 0; i < n; i++) {
            double a = hypot(re[i], im[i]);
            double *r = rows + (size_t)i * 6;
            r[0] = 0, r[1] = re[i], r[2] = im[i], r[3] = a;
            r[4] = a > 0 ? -re[i] / a : 0, r[5] = fabs(im[i]) / (2 * 3.14159265358979323846);
        }
        qsort(rows, (size_t)n, 6 * sizeof *rows, cmp_eig);
        for (int i = 0; i < n; i++)
            rows[(size_t)i * 6] = i + 1;
        static const char *const cols[] = {"k", "re", "im", "abs", "zeta", "f_Hz"};
        rc = write_table(e, path, cols, 6, rows, n);
    }
    if (rc != JNT_OK)
        data_error(d, rc, "analysis '%s': %s", an->name, e->err);
    free(re);
    free(im);
    free(rows);
    jnt_data_free(e);
    return rc;
}

/* The loop (a run of the analysis's own model) and the work per cycle. */
static int run_hysteresis(jnt_data *d, const jnt_abi_analysis *an, const double *v,
                          const char *path, const char *cycles_path)
{
    jnt_model *sub = NULL;
    int rc = jnt_model_from_abi(an->model, NULL, &sub);
    jnt_data *e = rc == JNT_OK ? data_like(sub, d) : NULL;
    int ncyc = (int)lround(v[1]);
    double *rows = malloc(((size_t)(ncyc > 0 ? ncyc : 0) + 1) * 2 * sizeof *rows);
    if (rc == JNT_OK && (!e || !rows))
        rc = JNT_ERR_NOMEM;
    if (rc == JNT_OK && (!(v[0] > 0) || ncyc < 1 || ncyc > 100000))
        rc = data_error(e, JNT_ERR_PARAM, "needs period > 0 and 1 <= cycles <= 100000 (got %g s, %g)",
                        v[0], v[1]);
    if (rc == JNT_OK) {
        jnt_run_opts o = {.csv_path = path};
        rc = jnt_run(sub, e, &o);
    }
    /* the work done on the law, at the end of each cycle: W(k T) - W((k-1) T) */
    int iw = sub ? jnt_output_index(sub, "W") : -1;
    double w_prev = 0;
    for (int k = 1; rc == JNT_OK && k <= ncyc; k++) {
        jnt_run_opts o = {.csv_path = "", .t_end = k * v[0]};
        rc = jnt_run(sub, e, &o);
        double w = jnt_output(sub, e, iw);
        rows[2 * (k - 1)] = k;
        rows[2 * (k - 1) + 1] = w - w_prev;
        w_prev = w;
    }
    static const char *const cols[] = {"cycle", "energy_J"};
    if (rc == JNT_OK)
        rc = write_table(e, cycles_path, cols, 2, rows, ncyc);
    if (rc != JNT_OK)
        data_error(d, rc, "analysis '%s': %s", an->name,
                   e && e->err[0] ? e->err : jnt_status_message(rc));
    free(rows);
    jnt_data_free(e);
    jnt_model_free(sub);
    return rc;
}

/* Complex modes along interface an->ncol (seed 003 Fig. 4): its slave
 * substructure translated along x from v[0] to v[1] in an->nrow steps,
 * rigid contact, the locus written to path. */
static int run_locus(const jnt_model *m, jnt_data *d, const jnt_abi_analysis *an, const double *v,
                     const char *path)
{
    const jnt_abi_model *a = m->abi;
    jnt_settings s;
    memset(&s, 0, sizeof s);
    if (a->settings(d->p, &s) < 0)
        return data_error(d, JNT_ERR_KERNEL, "analysis '%s': the settings kernel failed", an->name);
    char err[256] = "";
    int rc = iface_locus(m, d->p, s.h, an->ncol, v[0], v[1], an->nrow, v[2], v[3], path, err,
                         sizeof err);
    if (rc != JNT_OK)
        return data_error(d, rc, "analysis '%s': %s", an->name, err);
    return JNT_OK;
}

/* See jnt.h. */
int jnt_run_analyses(const jnt_model *m, jnt_data *d, const char *dir)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    const jnt_abi_model *a = m->abi;
    rc = params_defaults(m, d);
    for (int i = 0; rc == JNT_OK && i < a->nanalyses; i++) {
        const jnt_abi_analysis *an = &a->analyses[i];
        double v[4] = {0, 0, 0, 0};
        if (an->values(d->p, v) < 0)
            return data_error(d, JNT_ERR_KERNEL, "analysis '%s': its settings failed", an->name);
        char *path = path_of(dir, an->name, ".csv");
        char *cpath = path_of(dir, an->name, "_cycles.csv");
        if (!path || !cpath)
            rc = data_error(d, JNT_ERR_NOMEM, "out of memory");
        else if (an->kind == JNT_ANALYSIS_LINEAR)
            rc = run_linear(m, d, an, v, path);
        else if (an->kind == JNT_ANALYSIS_HYSTERESIS && an->model)
            rc = run_hysteresis(d, an, v, path, cpath);
        else if (an->kind == JNT_ANALYSIS_LOCUS && an->ncol >= 0 && an->ncol < a->nifaces &&
                 an->nrow > 0)
            rc = run_locus(m, d, an, v, path);
        else if (an->kind == JNT_ANALYSIS_KINEMATIC)
            rc = kin_run(m, d, an, v, path);
        else if (an->kind == JNT_ANALYSIS_TABLE && an->table)
            rc = write_table(d, path, an->cols, an->ncol, an->table, an->nrow);
        else
            rc = data_error(d, JNT_ERR_MODEL, "analysis '%s' has an unknown kind", an->name);
        free(path);
        free(cpath);
    }
    return rc;
}
