/*
 * integ_dae_set.c: a multibody state set between steps, assembled again
 * (integ.h, integ_dae_reassemble; jnt_assemble and jnt_advance in
 * api/step.c).
 *
 * The values the user set (jnt_set_state, jnt_set_full_state: d->yset) are
 * pins of the assembly: a position q_i = value, a velocity v_i = value (a
 * rate pin), rows of the same kind as the model's own pins (assemble.h), so
 * that the other coordinates move by the least weighted change and the set
 * values stay where the joints allow it. When they do not (the set values
 * contradict the joints or one another) and the plain projection does not
 * keep them either (it does a state saved and set back whole), the pins
 * are taken one at a time,
 * positions before velocities, the value set last first, each kept when the
 * state assembles with it and the pins kept before; the others are dropped
 * and their values move with the projection (the least change from the
 * values set). The values that moved are counted and named. At the model's
 * start time (before the first step) the model's own pins apply with the
 * values set when they fit together, else are dropped first.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/model.h"
#include "integ.h"

/* a set value is kept when it moved by at most this times (1 + |value|) */
#define KEPT_TOL 1e-9

/* One attempt: the model's pins (when `model`), then pins on the states
 * idx[0 .. n) at their values set. */
typedef struct set_pins {
    integ_run *r;
    integ_dae *w;
    int nq, ny, model, npin;      /* the model's pins: npin rows first when `model` */
    int n;                        /* set rows */
    int *idx;                     /* their states */
    const double *val;            /* the values set (ny) */
    const char **names;           /* npin + n names */
    unsigned char *velocity;      /* npin + n flags */
    double *mres, *mgrad;         /* the model pins' residuals and gradient rows */
} set_pins;

static int set_eval(void *ctx, double t, const double *y, double *res, double *grad)
{
    set_pins *s = ctx;
    int nq = s->nq, k0 = s->model ? s->npin : 0;
    if (k0 > 0) {
        const jnt_abi_model *a = s->r->abi;
        if (a->pins(t, y, s->r->p, s->mres, s->mgrad) != 0)
            return 1;
        memcpy(res, s->mres, (size_t)k0 * sizeof *res);
        memcpy(grad, s->mgrad, (size_t)k0 * nq * sizeof *grad);
    }
    for (int k = 0; k < s->n; k++) {
        int i = s->idx[k];
        res[k0 + k] = y[i] - s->val[i];
        memset(grad + (size_t)(k0 + k) * nq, 0, (size_t)nq * sizeof *grad);
        grad[(size_t)(k0 + k) * nq + (i < nq ? i : i - nq)] = 1.0;
    }
    return 0;
}

/* Is a set value kept? */
static int kept(double now, double set)
{
    return fabs(now - set) <= KEPT_TOL * (1.0 + fabs(set));
}

/* Assemble r->y from the values set with the attempt's pins. 0 when it
 * assembles with every pin kept and C_q v + C_t = 0 (the velocity pins'
 * minimum-norm solve may drop a joint's row for a pin), 1 when not (the
 * message in d), JNT_ERR_NOMEM. */
static int attempt(set_pins *s)
{
    integ_run *r = s->r;
    integ_dae *w = s->w;
    const jnt_abi_model *a = r->abi;
    int nq = s->nq, k0 = s->model ? s->npin : 0;
    for (int j = 0; j < k0; j++) {
        s->names[j] = a->pin_names[j];
        s->velocity[j] = a->pin_rate && a->pin_rate[j];
    }
    for (int k = 0; k < s->n; k++) {
        s->names[k0 + k] = a->y_names[s->idx[k]];
        s->velocity[k0 + k] = s->idx[k] >= nq;
    }
    assemble_rows rows = {.n = k0 + s->n, .names = s->names, .velocity = s->velocity,
                          .eval = set_eval, .ctx = s};
    memcpy(r->y, s->val, (size_t)s->ny * sizeof *r->y);
    w->extra = &rows;
    int rc = integ_dae_consistent(r, w);
    w->extra = NULL;
    if (rc == JNT_ERR_NOMEM)
        return rc;
    if (rc != 0)
        return 1;
    for (int k = 0; k < s->n; k++)
        if (!kept(r->y[s->idx[k]], s->val[s->idx[k]]))
            return 1;
    const double *y = r->y;
    double vmax = 0.0, cmax = 0.0;
    for (int i = 0; i < nq; i++)
        vmax = fmax(vmax, fabs(y[nq + i]));
    for (int k = 0; k < w->nc; k++) {
        double c = w->cr[k];
        for (int e = w->cq_ptr[k]; e < w->cq_ptr[k + 1]; e++)
            c += w->jv[w->cq_e[e]] * y[nq + w->cq_col[e]];
        cmax = fmax(cmax, fabs(c));
    }
    return cmax <= 1e-8 * (1.0 + vmax) ? 0 : 1;
}

/* The set states in the order their pins are tried: positions, then
 * velocities, each the value set last first. Returns how many. */
static int pin_order(const jnt_data *d, int nq, int *order)
{
    int n = 0;
    for (int vel = 0; vel < 2; vel++) {
        int k0 = n;
        for (int i = vel * nq; i < (vel + 1) * nq; i++)
            if (d->yset[i])
                order[n++] = i;
        for (int k = k0 + 1; k < n; k++) /* insertion sort, latest first */
            for (int j = k; j > k0 && d->yset[order[j]] > d->yset[order[j - 1]]; j--) {
                int t = order[j];
                order[j] = order[j - 1], order[j - 1] = t;
            }
    }
    return n;
}

/* See integ.h. */
int integ_dae_reassemble(const jnt_model *m, jnt_data *d, int *moved)
{
    const jnt_abi_model *a = m->abi;
    int nq = a->nq, ny = a->ny, rc;
    *moved = 0;
    if ((rc = params_defaults(m, d)) != JNT_OK)
        return rc;
    integ_run r;
    integ_run_init(&r, m, d, NULL, d->t);
    if (a->settings(d->p, &r.s) < 0)
        return data_error(d, JNT_ERR_KERNEL, "the settings kernel failed");
    int start = !(d->t > r.s.t0), npin = start && a->pins ? a->npins : 0;
    int nset = 0;
    for (int i = 0; d->yset && i < 2 * nq; i++)
        nset += d->yset[i] != 0;
    integ_dae *w = calloc(1, sizeof *w);
    set_pins s = {.r = &r, .w = w, .nq = nq, .ny = ny, .npin = npin};
    double *y0 = malloc(((size_t)ny + 1) * sizeof *y0);
    double *best = malloc(((size_t)ny + 1) * sizeof *best);
    int *order = malloc(((size_t)nset + 1) * sizeof *order);
    r.y = malloc(((size_t)ny + 1) * sizeof *r.y);
    s.idx = malloc(((size_t)nset + 1) * sizeof *s.idx);
    s.names = malloc(((size_t)npin + nset + 1) * sizeof *s.names);
    s.velocity = malloc((size_t)npin + nset + 1);
    s.mres = malloc(((size_t)npin + 1) * sizeof *s.mres);
    s.mgrad = malloc(((size_t)npin * nq + 1) * sizeof *s.mgrad);
    if (!w || !y0 || !best || !order || !r.y || !s.idx || !s.names || !s.velocity || !s.mres ||
        !s.mgrad) {
        rc = data_error(d, JNT_ERR_NOMEM, "out of memory assembling the state set");
        goto done;
    }
    memcpy(y0, d->y, (size_t)ny * sizeof *y0);
    s.val = y0;
    w->stab = 1;
    if ((rc = integ_dae_alloc(&r, w)) != 0)
        goto done;
    if (nset > 0)
        pin_order(d, nq, order);
    /* every pin at once: the model's too at its start, then the values set
     * alone */
    memcpy(s.idx, order, (size_t)nset * sizeof *s.idx);
    s.n = nset;
    s.model = npin > 0;
    rc = attempt(&s);
    if (rc == 1 && npin > 0) {
        s.model = 0;
        rc = attempt(&s);
    }
    /* a state already on the joints (one saved and set back whole): no pin
     * needed, the projection keeps every value set */
    if (rc == 1 && nset > 0) {
        s.n = 0;
        rc = attempt(&s);
        for (int k = 0; rc == 0 && k < nset; k++)
            rc = kept(r.y[order[k]], y0[order[k]]) ? 0 : 1;
        s.n = nset;
    }
    /* else one at a time, each kept when it fits with those kept */
    if (rc == 1) {
        int ok = 0;
        s.n = 0;
        for (int k = 0; k < nset; k++) {
            s.idx[s.n++] = order[k];
            int rk = attempt(&s);
            if (rk < 0) {
                rc = rk;
                goto done;
            }
            if (rk == 0)
                ok = 1, memcpy(best, r.y, (size_t)ny * sizeof *best);
            else
                s.n--;
        }
        if (!ok && s.n == 0 && (rc = attempt(&s)) == 0)
            ok = 1, memcpy(best, r.y, (size_t)ny * sizeof *best);
        if (ok) {
            memcpy(r.y, best, (size_t)ny * sizeof *r.y);
            rc = 0;
        }
    }
    if (rc != 0) {
        if (rc > 0 && !d->err[0])
            data_error(d, JNT_ERR_MODEL, "t = %.9g s: the state set cannot be assembled", d->t);
        rc = rc > 0 ? JNT_ERR_MODEL : rc;
        goto done;
    }
    memcpy(d->y, r.y, (size_t)ny * sizeof *r.y);
    /* the values that moved: counted, the first four named */
    char *e = d->err;
    size_t len = sizeof d->err, at = 0;
    e[0] = 0;
    for (int k = 0; k < nset; k++) {
        int i = order[k];
        if (kept(r.y[i], y0[i]))
            continue;
        if (*moved < 4 && at < len) {
            int n = snprintf(e + at, len - at, "%s'%s' set to %.6g is %.6g", *moved ? ", " :
                             "the joints do not allow the values set: ", a->y_names[i], y0[i],
                             r.y[i]);
            at = n > 0 ? at + (size_t)n : at;
        }
        ++*moved;
    }
    if (*moved > 0 && at < len)
        snprintf(e + at, len - at, "%s (t = %.9g s; those that contradict the joints or the "
                 "values kept were projected: docs/multibody.md, \"States set between steps\")",
                 *moved > 4 ? ", ..." : "", d->t);
    d->stats.projected += *moved;
done:
    integ_dae_free(w);
    free(y0), free(best), free(order), free(r.y), free(s.idx), free(s.names), free(s.velocity),
        free(s.mres), free(s.mgrad);
    return rc;
}
