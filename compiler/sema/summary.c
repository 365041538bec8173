/*
 * summary.c: the `summary` block of the main file (pass 4, after the
 * output columns are known): per-run results of a sweep, each one
 * operation on one output column over a window of time,
 *
 *   summary {
 *     X_rms  = rms(x, from = t_end - 10 * pi / omega)
 *     E_end  = final(E_diss)
 *     t_slip = last(slipping, to = 1 s)
 *   }
 *
 * The runtime computes them from the output rows (jnt_summarize); the
 * window's bounds are expressions of the parameters, evaluated per run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "summary.h"
#include "front/alloc.h"

static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};

static const char *const op_names[] = {"final", "max", "min", "mean", "rms", "integral", "last"};
#define NOPS ((int)(sizeof op_names / sizeof *op_names))

/* The output column a reference names (`x`, `block.x`, `mass[2].x`) as its
 * text into buf; 0, or -1 when it is no reference. */
static int ref_text(const ast *e, char *buf, size_t n)
{
    if (e->kind == AST_NAME) {
        snprintf(buf, n, "%s", e->name);
        return 0;
    }
    char inner[256];
    if ((e->kind == AST_MEMBER || e->kind == AST_INDEX) &&
        ref_text(e->kids[0], inner, sizeof inner) == 0) {
        if (e->kind == AST_MEMBER)
            snprintf(buf, n, "%s.%s", inner, e->name);
        else if (e->kids[1]->kind == AST_NUM && !e->kids[1]->str)
            snprintf(buf, n, "%s[%g]", inner, e->kids[1]->num);
        else
            return -1;
        return 0;
    }
    return -1;
}

/* The column index of reference e, or -1 after an error. */
static int find_column(sema *S, const ast *e, const char *op)
{
    ir_model *m = S->m;
    char name[300];
    if (ref_text(e, name, sizeof name) != 0) {
        diag_error(S->dc, e->loc, "'%s' takes an output column (its name), not an expression: "
                                  "add the expression to the 'output' block", op);
        return -1;
    }
    const char **names = xmalloc((size_t)m->out.n * sizeof *names);
    int col = -1;
    for (int j = 0; j < m->out.n; j++) {
        names[j] = m->out.v[j].name;
        if (strcmp(names[j], name) == 0)
            col = j;
    }
    if (col < 0) {
        const char *best = jnt_closest_name(name, names, m->out.n);
        if (best)
            diag_error(S->dc, e->loc, "unknown output column '%s'; did you mean '%s'?", name, best);
        else
            diag_error(S->dc, e->loc, "unknown output column '%s' (a summary reads the columns "
                                      "of the 'output' block)", name);
    }
    free(names);
    return col;
}

/* One result: NAME = OP(column, from = T1, to = T2). */
static void eval_one(sema *S, const ast *st)
{
    ir_model *m = S->m;
    const ast *e = st->kids[0];
    for (int i = 0; i < m->nsum; i++)
        if (strcmp(m->sum[i].name, st->name) == 0) {
            diag_error(S->dc, st->loc, "summary '%s' appears twice", st->name);
            return;
        }
    int op = 0;
    for (int k = 0; e->kind == AST_CALL && !e->iter && k < NOPS; k++)
        if (strcmp(e->name, op_names[k]) == 0)
            op = JNT_SUMMARY_FINAL + k;
    if (!op) {
        const char *best = e->kind == AST_CALL ? jnt_closest_name(e->name, op_names, NOPS) : NULL;
        if (best)
            diag_error(S->dc, e->loc, "unknown summary '%s'; did you mean '%s'?", e->name, best);
        else
            diag_error(S->dc, e->loc, "expected a summary of an output column: final(x), "
                                      "max(x), min(x), mean(x), rms(x), integral(x) or last(x), "
                                      "with 'from = T1' and 'to = T2' as options");
        return;
    }
    const char *opn = op_names[op - JNT_SUMMARY_FINAL];
    ir_summary r = {NULL, op, -1, 0, -1, -1};
    int bad = 0;
    for (int i = 0; i < e->nkids; i++) {
        const ast *a = e->kids[i];
        if (a->kind != AST_ARG) {
            if (r.col >= 0 || bad || i > 0) {
                diag_error(S->dc, a->loc, "'%s' takes one output column", opn);
                return;
            }
            r.col = find_column(S, a, opn);
            bad = r.col < 0;
            continue;
        }
        int is_from = strcmp(a->name, "from") == 0, is_to = strcmp(a->name, "to") == 0;
        if (!is_from && !is_to) {
            diag_error(S->dc, a->loc, "unknown option '%s' of '%s' (it has 'from' and 'to')",
                       a->name, opn);
            return;
        }
        int flag = is_from ? JNT_SUMMARY_FROM : JNT_SUMMARY_TO;
        if (r.flags & flag) {
            diag_error(S->dc, a->loc, "option '%s' of '%s' is given twice", a->name, opn);
            return;
        }
        ex_id v = sema_setting_expr(S, a->kids[0], DIM_S, is_from ? "'from'" : "'to'");
        if (v < 0)
            return;
        r.flags |= flag;
        if (is_from)
            r.from = v;
        else
            r.to = v;
    }
    if (bad)
        return;
    if (r.col < 0) {
        diag_error(S->dc, e->loc, "'%s' needs an output column: %s(x)", opn, opn);
        return;
    }
    r.name = xstrdup(st->name);
    int cap = m->nsum;
    XGROW(m->sum, cap, m->nsum);
    m->sum[m->nsum++] = r;
}

/* See sema/summary.h. */
void sema_eval_summary(sema *S, const ast *d)
{
    if (S->m->nsum > 0) {
        diag_error(S->dc, d->loc, "a model has one 'summary' block");
        return;
    }
    if (d->nkids == 0)
        diag_error(S->dc, d->loc, "an empty 'summary' block: give results as NAME = max(x)");
    for (int i = 0; i < d->nkids; i++)
        eval_one(S, d->kids[i]);
}
