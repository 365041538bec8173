/*
 * run.c: jnt_run: parameters, settings, initial state, the CSV, and the
 * driver of the model's kind (model.h): integ_drive for ODE models, the
 * central difference of couple/iface_slide.c for sliding interfaces.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/data.h"
#include "core/model.h"
#include "couple/iface_slide.h"
#include "integ.h"
#include "io/csv.h"
#include "io/csv_meta.h"

/* The driver of each model kind: from the initial state in d over the
 * settings, rows to csv (may be NULL), a progress line as asked. */
typedef int (*run_driver)(const jnt_model *m, jnt_data *d, const jnt_settings *s,
                          csv_writer *csv, int progress);
static const run_driver drivers[MODEL_NKINDS] = {
    [MODEL_ODE] = integ_drive,
    [MODEL_SLIDE] = iface_run,
    [MODEL_DAE] = integ_drive,
};

/* Check the settings a run needs; JNT_ERR_PARAM with a message if wrong. */
static int check_settings(jnt_data *d, const jnt_settings *s, const integ_type *ty)
{
    const char *name = ty->name;
    if (!isfinite(s->t0) || !isfinite(s->t_end))
        return data_error(d, JNT_ERR_PARAM, "start and end times must be finite (t0 = %g s, "
                          "t_end = %g s)", s->t0, s->t_end);
    if (!(s->t_end > s->t0))
        return data_error(d, JNT_ERR_PARAM,
                          "the end time (%g s) must be after the start time (%g s)", s->t_end,
                          s->t0);
    if (ty->check) {
        int rc = ty->check(d, s);
        if (rc != JNT_OK)
            return rc;
    } else if (ty->fixed_step && !(s->h > 0 && isfinite(s->h)))
        return data_error(d, JNT_ERR_PARAM, "integrator '%s' needs a step h > 0 (got %g s)",
                          name, s->h);
    if (!ty->fixed_step && !ty->check) {
        if (!(s->rtol > 0 && isfinite(s->rtol)))
            return data_error(d, JNT_ERR_PARAM, "integrator '%s' needs rtol > 0 (got %g)", name,
                              s->rtol);
        if (!(s->atol > 0 && isfinite(s->atol)))
            return data_error(d, JNT_ERR_PARAM, "integrator '%s' needs atol > 0 (got %g)", name,
                              s->atol);
        if (!(s->h >= 0 && isfinite(s->h)))
            return data_error(d, JNT_ERR_PARAM, "the initial step must be >= 0 (got %g s)", s->h);
    }
    if (!(s->out_every >= 0 && isfinite(s->out_every)))
        return data_error(d, JNT_ERR_PARAM, "the output interval must be >= 0 (got %g s)",
                          s->out_every);
    if (!(s->h_min >= 0) || !(s->h_max >= 0))
        return data_error(d, JNT_ERR_PARAM, "h_min and h_max must be >= 0 (got %g s, %g s)",
                          s->h_min, s->h_max);
    if (s->h_max > 0 && s->h_min > s->h_max)
        return data_error(d, JNT_ERR_PARAM, "h_min (%g s) is larger than h_max (%g s)", s->h_min,
                          s->h_max);
    return JNT_OK;
}

/* Open a CSV writer on path with its header; on failure it is closed and
 * the message is in the data. */
static int open_csv(csv_writer *w, const char *path, int n, const char *const *names,
                    jnt_data *d)
{
    const char *in = strcmp(path, "-") ? jnt_model_input_at(d->m, path) : NULL;
    if (in) /* never over a file the model was compiled from */
        return data_error(d, JNT_ERR_IO, "the output '%s' is %s, a file the model was "
                          "compiled from: it would be overwritten", path, in);
    int rc = csv_open(w, path, n, d->err, sizeof d->err);
    /* each file stops at the output limit (the estimate before the run
     * cannot count an output every step, nor the step history) */
    w->max_bytes = d->max_output > 0 ? d->max_output : d->max_output < 0 ? 0 : 1073741824.0;
    if (rc == JNT_OK)
        rc = csv_header(w, names, n, d->err, sizeof d->err);
    if (rc != JNT_OK)
        csv_close(w, NULL, 0);
    return rc;
}

/* The output guard: an interval that cannot advance time is an error, and
 * an output estimated (rows x columns, 22 bytes a CSV number, 8 a binary
 * one) above max_output bytes (0: 1 GiB, < 0: none) is refused before the
 * run, with its size and what to change. JNT_OK or JNT_ERR_PARAM. */
static int check_output(jnt_data *d, const jnt_settings *s, int ncol, const char *path,
                        double max_output)
{
    double every = s->out_every > 0 ? s->out_every : s->h; /* 0: every step (h: fixed) */
    if (s->out_every > 0 && (s->t0 + s->out_every == s->t0 ||
                             s->t_end + s->out_every == s->t_end))
        return data_error(d, JNT_ERR_PARAM, "the output interval (every %g s) cannot advance "
                          "time between %g s and %g s: it is below the spacing of doubles there",
                          s->out_every, s->t0, s->t_end);
    double limit = max_output > 0 ? max_output : 1073741824.0;
    if (max_output < 0 || !(every > 0) || !path || !path[0])
        return JNT_OK;
    size_t n = strlen(path);
    int binary = n > 4 && (!strcmp(path + n - 4, ".npy") || !strcmp(path + n - 4, ".mat"));
    double rows = (s->t_end - s->t0) / every + 1;
    double bytes = rows * ncol * (binary ? 8 : 22);
    if (bytes <= limit)
        return JNT_OK;
    return data_error(d, JNT_ERR_PARAM, "the output would be about %.3g GB (%.3g rows of %d "
                      "columns, one every %g s from %g s to %g s), more than the limit of %.3g GB: "
                      "write fewer rows (a longer 'every' in the model's output, or -D on the "
                      "parameter it uses), or raise the limit (--max-output SIZE, "
                      "jnt_set_max_output)", bytes / 1e9, rows, ncol, every, s->t0, s->t_end,
                      limit / 1e9);
}

/* The comment line ending a run's CSV file: how the run ended, and when. */
static void end_line(csv_writer *w, const jnt_data *d, int rc)
{
    char line[640];
    if (rc == JNT_OK)
        snprintf(line, sizeof line, "# jnt: complete at t = %.9g s", d->t);
    else if (rc == JNT_STOPPED)
        snprintf(line, sizeof line, "# jnt: interrupted at t = %.9g s", d->t);
    else
        snprintf(line, sizeof line, "# jnt: failed at t = %.9g s: %s", d->t,
                 d->err[0] ? d->err : jnt_status_message(rc));
    for (char *c = line; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    csv_end(w, line);
}

/* The run's rows in memory (jnt_run_opts.rows, on_row): the csv writer's
 * hook. Returns 0, or 1 when on_row asks to stop. */
static int take_row(void *ctx, const double *v, int n)
{
    const jnt_run_opts *o = ctx;
    if (o->rows_n) { /* without rows, only counted */
        if (o->rows && *o->rows_n < o->rows_cap)
            memcpy(o->rows + *o->rows_n * n, v, (size_t)n * sizeof *v);
        ++*o->rows_n;
    }
    return o->on_row && o->on_row(o->row_ctx, v, n) != 0;
}

/* Integrate from t0 to t_end; see jnt.h. */
int jnt_run(const jnt_model *m, jnt_data *d, const jnt_run_opts *opts)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    /* rows in memory: a buffer needs its counter and its size */
    if (opts && opts->rows && !opts->rows_n)
        return data_error(d, JNT_ERR_USAGE, "jnt_run_opts: 'rows' is set but 'rows_n' (the row "
                          "counter) is NULL");
    if (opts && opts->rows && opts->rows_cap <= 0)
        return data_error(d, JNT_ERR_USAGE, "jnt_run_opts: 'rows' is set but 'rows_cap' (its size "
                          "in rows) is %ld", opts->rows_cap);
    if (opts && !opts->rows && opts->rows_cap > 0)
        return data_error(d, JNT_ERR_USAGE, "jnt_run_opts: 'rows_cap' is %ld but 'rows' is NULL",
                          opts->rows_cap);
    const jnt_abi_model *a = m->abi;
    jnt_blas_threads(-1);
    clock_t c0 = clock();
    int resume = opts && opts->resume;
    if (resume && !d->started)
        return data_error(d, JNT_ERR_USAGE, "nothing to resume: start with jnt_init_state or a run");
    if (!resume)
        memset(&d->stats, 0, sizeof d->stats);
    d->err[0] = '\0';
    /* the integrator: the caller's choice or the model's; its arena */
    const char *iname = opts && opts->integrator ? opts->integrator : a->integrator;
    if (!iname)
        return data_error(d, JNT_ERR_MODEL, "the model has no 'simulate' block (only analyses)");
    /* a model with sliding interfaces runs on seed 003's central difference
     * (couple/iface_slide.c); the fixed-step checks of rk4 apply to its settings */
    int central = m->kind == MODEL_SLIDE;
    if (central != !strcmp(iname, "central"))
        return data_error(d, opts && opts->integrator ? JNT_ERR_USAGE : JNT_ERR_MODEL,
                          central ? "a model with sliding interfaces runs with the integrator "
                                    "'central' only (not '%s')"
                                  : "integrator '%s' needs a model with sliding interfaces", iname);
    /* a multibody model (index-3 DAE) runs on its methods only, and they
     * only on it */
    int dae = m->kind == MODEL_DAE;
    if (dae && a->nifaces > 0)
        return data_error(d, JNT_ERR_MODEL, "multibody models with sliding interfaces are not "
                          "supported yet");
    const integ_type *named = integ_find(iname);
    /* "midpoint" and "rk4" on a multibody model: their DAE forms (integ_dae_mid.c,
     * integ_dae_rk4.c) */
    if (dae && named == &integ_midpoint)
        named = &integ_dae_midpoint;
    if (dae && named == &integ_rk4)
        named = &integ_dae_rk4;
    int dae_method = named == &integ_hht || named == &integ_galpha ||
                     named == &integ_dae_midpoint || named == &integ_ida ||
                     named == &integ_dae_rk4;
    /* radau5 runs both kinds */
    if (named && named != &integ_radau5 && dae != dae_method)
        return data_error(d, opts && opts->integrator ? JNT_ERR_USAGE : JNT_ERR_MODEL,
                          dae ? "a multibody model runs with the integrators 'rk4', 'hht', "
                                "'midpoint', 'generalized_alpha', 'radau5' or 'ida' only "
                                "(not '%s')"
                              : "integrator '%s' needs a multibody model (bodies and joints)",
                          iname);
    d->integ = central ? integ_find("rk4") : named;
    /* without continuous states, time advances in fixed steps h (the discrete
     * updates, once per step, define the model): no method has work to do */
    if (d->integ && a->ny == 0)
        d->integ = integ_find("rk4");
    if (!d->integ)
        return data_error(d, opts && opts->integrator ? JNT_ERR_USAGE : JNT_ERR_MODEL,
                          "unknown integrator '%s' (known: rk4, dopri5, bdf, radau, radau5, "
                          "trapezoidal, midpoint; hht, generalized_alpha, radau5, ida, midpoint, "
                          "rk4 for multibody models)",
                          iname ? iname : "");
    size_t nw, ni;
    integ_arena_size(d->integ, a, &nw, &ni);
    rc = data_reserve(d, nw, ni);
    if (rc != JNT_OK)
        return rc;
    rc = params_defaults(m, d);
    if (rc != JNT_OK)
        return rc;
    jnt_settings s;
    memset(&s, 0, sizeof s);
    rc = a->settings(d->p, &s);
    if (rc < 0)
        return data_error(d, JNT_ERR_KERNEL, "the settings kernel failed (status %d)", rc);
    /* 0 leaves the model's value; a negative or non-finite one is a misuse
     * (it was silently ignored) */
    if (opts && (!(opts->h >= 0 && opts->h < INFINITY) || !isfinite(opts->t_end) ||
                 !(opts->rtol >= 0 && opts->rtol < INFINITY) ||
                 !(opts->atol >= 0 && opts->atol < INFINITY)))
        return data_error(d, JNT_ERR_USAGE, "jnt_run_opts: h = %g, rtol = %g, atol = %g, "
                          "t_end = %g: h, rtol and atol must be >= 0 (0: the model's) and "
                          "t_end finite", opts->h, opts->rtol, opts->atol, opts->t_end);
    if (opts && opts->h > 0)
        s.h = opts->h;
    if (opts && opts->t_end != 0)
        s.t_end = opts->t_end;
    if (opts && opts->rtol > 0)
        s.rtol = opts->rtol;
    if (opts && opts->atol > 0)
        s.atol = opts->atol;
    if (a->ny == 0 && !(s.h > 0))
        return data_error(d, JNT_ERR_PARAM, "a model without continuous states advances in fixed "
                                            "steps: give the integrator a step h (or --h)");
    if ((rc = check_settings(d, &s, d->integ)) != JNT_OK)
        return rc;
    /* resumed: from d's time and state (jnt_advance) */
    if (resume) {
        s.t0 = d->t;
        if ((rc = check_settings(d, &s, d->integ)) != JNT_OK)
            return rc;
    } else if ((rc = a->init(d->p, d->y, d->d)) < 0) {
        return data_error(d, JNT_ERR_KERNEL, "the initial-value kernel failed (status %d)", rc);
    }
    d->t = s.t0;
    d->started = 1;
    for (int i = 0; i < a->ny; i++)
        if (!isfinite(d->y[i]))
            return data_error(d, JNT_ERR_NONFINITE,
                              "t = %.9g s: the initial value of state '%s' is not finite", s.t0,
                              a->y_names[i]);
    /* the step history, when asked for, first (a path that cannot be
     * written stops the run before the CSV is started), then the CSV (the
     * caller's path, else the model's; "" = none) */
    static const char *const step_cols[2] = {"t", "h"};
    csv_writer steps, csv, *pcsv = NULL;
    memset(&steps, 0, sizeof steps);
    memset(&csv, 0, sizeof csv);
    if (opts && opts->steps_path && opts->steps_path[0]) {
        if ((rc = open_csv(&steps, opts->steps_path, 2, step_cols, d)) != JNT_OK)
            return rc;
        d->steps = &steps;
    }
    const char *path = opts && opts->csv_path ? opts->csv_path : a->output_file;
    if ((rc = check_output(d, &s, a->nout, path, d->max_output)) != JNT_OK) {
        if (d->steps)
            csv_close(&steps, NULL, 0);
        d->steps = NULL;
        return rc;
    }
    if (path && path[0]) {
        if ((rc = open_csv(&csv, path, a->nout, a->out_names, d)) != JNT_OK ||
            (rc = csv_meta(&csv, m, d, central ? "central" : iname)) != JNT_OK) {
            if (d->steps)
                csv_close(&steps, NULL, 0);
            d->steps = NULL;
            return rc;
        }
        pcsv = &csv;
    }
    /* rows in memory: the writer's hook, on a writer without a file when
     * there is none; a resumed run's first row is its start, already given */
    if (opts && (opts->rows_n || opts->on_row)) {
        if (!pcsv)
            csv_open_hook(&csv, a->nout);
        pcsv = &csv;
        csv.hook = take_row;
        csv.hook_ctx = (void *)opts;
    }
    if (pcsv)
        pcsv->skip = resume && d->row_at_t;
    d->row_at_t = 0;
    rc = drivers[m->kind](m, d, &s, pcsv, opts ? opts->progress : 0);
    if (d->steps) {
        int src = csv_close(&steps, rc == JNT_OK ? d->err : NULL, sizeof d->err);
        if (rc == JNT_OK)
            rc = src;
        d->steps = NULL;
    }
    if (pcsv) {
        end_line(pcsv, d, rc);
        int crc = csv_close(&csv, rc == JNT_OK ? d->err : NULL, sizeof d->err);
        if (rc == JNT_OK)
            rc = crc;
    }
    d->row_at_t = rc == JNT_OK;
    d->stats.cpu_seconds = (resume ? d->stats.cpu_seconds : 0) +
                           (double)(clock() - c0) / CLOCKS_PER_SEC;
    return rc;
}
