/*
 * analysis.c: `analysis NAME : KIND(...)` declarations of the main
 * file: linear (the Jacobian's eigenvalues at a time), hysteresis (a model
 * of its own, built here as a syntax tree and lowered by sema_lower: a
 * slider driven along a slip history by a friction law), modes of a
 * substructure (its full and reduced modes compared: frequency and shape
 * tables), complex_modes (the locus along a sliding interface) and
 * kinematic (a mechanism whose every degree of freedom is driven, solved
 * from its constraints alone: runtime/analyse/kinematic.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sema.h"
#include "passes.h"
#include "front/alloc.h"

static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};


/* Synthetic nodes of an analysis's own model, located at the analysis. */
static ast *syn(sema *S, ast_kind k, const ast *at, const char *name)
{
    ast *n = ast_new(S->arena, k, at->loc);
    n->end = at->end;
    n->aux = at->loc;
    n->name = name ? ast_strdup(S->arena, name, strlen(name)) : NULL;
    return n;
}

static ast *syn_num(sema *S, const ast *at, double v, const char *unit)
{
    ast *n = syn(S, AST_NUM, at, NULL);
    n->num = v;
    n->str = unit ? ast_strdup(S->arena, unit, strlen(unit)) : NULL;
    return n;
}

static ast *syn_bin(sema *S, const ast *at, int op, ast *a, ast *b)
{
    ast *n = syn(S, AST_BINARY, at, NULL);
    n->op = op;
    ast_add(S->arena, n, a);
    ast_add(S->arena, n, b);
    return n;
}

static ast *syn_member(sema *S, const ast *at, const char *base, const char *member)
{
    ast *n = syn(S, AST_MEMBER, at, member);
    ast_add(S->arena, n, syn(S, AST_NAME, at, base));
    return n;
}

static ast *syn_setting(sema *S, const ast *at, const char *name, ast *value)
{
    ast *n = syn(S, AST_SETTING, at, name);
    ast_add(S->arena, n, value);
    return n;
}

/* The named arguments of an analysis; unknown, repeated and positional ones
 * are errors. */
static int analysis_args(sema *S, const ast *d, const char *const *names, int n, const ast **found)
{
    int err = 0;
    for (int i = 0; i < d->nkids; i++) {
        const ast *a = d->kids[i];
        int k = -1;
        for (int j = 0; a->kind == AST_ARG && j < n; j++)
            if (strcmp(names[j], a->name) == 0)
                k = j;
        if (a->kind != AST_ARG) {
            diag_error(S->dc, a->loc, "analysis '%s' takes named arguments (%s = ...)", d->str,
                       names[0]);
            err = 1;
        } else if (k < 0) {
            const char *best = jnt_closest_name(a->name, names, n);
            diag_error(S->dc, a->loc, "unknown argument '%s' of analysis '%s'%s%s%s", a->name,
                       d->str, best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
            err = 1;
        } else if (found[k]) {
            diag_error(S->dc, a->loc, "argument '%s' is given twice", a->name);
            err = 1;
        } else {
            found[k] = a->kids[0];
        }
    }
    return err ? -1 : 0;
}

/* hysteresis(law = L(...), slip = s(t), normal, area, period, cycles, points):
 * its own model, with the main model's imports, constants, parameters and
 * laws: a slider whose position follows the slip, a friction element with
 * the law, and the work done on it. */
static ir_model *hysteresis_model(sema *S, const ast *d, const ast *model, int file,
                                  const ast **arg)
{
    enum { LAW, SLIP, NORMAL, AREA, PERIOD, CYCLES, POINTS };
    ast *m = syn(S, AST_MODEL, d, d->name);
    for (int i = 0; i < model->nkids; i++) {
        ast_kind k = model->kids[i]->kind;
        if (k == AST_IMPORT || k == AST_CONST || k == AST_PARAM || k == AST_LAW)
            ast_add(S->arena, m, model->kids[i]);
    }
    /* body _slider : point(mass = 1 kg) { dof x } */
    ast *b = syn(S, AST_BODY, d, "_slider");
    b->str = "point";
    ast *mass = syn(S, AST_ARG, d, "mass");
    ast_add(S->arena, mass, syn_num(S, d, 1, "kg"));
    ast_add(S->arena, b, mass);
    ast_add(S->arena, b, syn(S, AST_DOF, d, "x"));
    ast_add(S->arena, m, b);
    /* motion _drive on _slider.x = slip */
    ast *mo = syn(S, AST_MOTION, d, "_drive");
    ast_add(S->arena, mo, syn_member(S, d, "_slider", "x"));
    ast_add(S->arena, mo, (ast *)arg[SLIP]);
    ast_add(S->arena, m, mo);
    /* friction NAME between _slider.x and ground { law, normal, area } */
    ast *el = syn(S, AST_ELEMENT, d, d->name);
    el->op = ELEM_FRICTION;
    ast_add(S->arena, el, syn_member(S, d, "_slider", "x"));
    ast_add(S->arena, el, syn(S, AST_NAME, d, "ground"));
    ast_add(S->arena, el, syn_setting(S, d, "law", (ast *)arg[LAW]));
    if (arg[NORMAL])
        ast_add(S->arena, el, syn_setting(S, d, "normal", (ast *)arg[NORMAL]));
    if (arg[AREA])
        ast_add(S->arena, el, syn_setting(S, d, "area", (ast *)arg[AREA]));
    ast_add(S->arena, m, el);
    /* integral _work = NAME.force * NAME.v */
    ast *w = syn(S, AST_INTEGRAL, d, "_work");
    ast_add(S->arena, w, syn_bin(S, d, OP_MUL, syn_member(S, d, d->name, "force"),
                                 syn_member(S, d, d->name, "v")));
    ast_add(S->arena, m, w);
    /* simulate { integrator = rk4(h = period / points)  until = cycles * period } */
    ast *points = arg[POINTS] ? (ast *)arg[POINTS] : syn_num(S, d, 1000, NULL);
    ast *cycles = arg[CYCLES] ? (ast *)arg[CYCLES] : syn_num(S, d, 3, NULL);
    ast *h = syn_bin(S, d, OP_DIV, (ast *)arg[PERIOD], points);
    ast *integ = syn(S, AST_CALL, d, "rk4");
    ast *harg = syn(S, AST_ARG, d, "h");
    ast_add(S->arena, harg, h);
    ast_add(S->arena, integ, harg);
    ast *sim = syn(S, AST_SIMULATE, d, NULL);
    ast_add(S->arena, sim, syn_setting(S, d, "integrator", integ));
    ast_add(S->arena, sim, syn_setting(S, d, "until", syn_bin(S, d, OP_MUL, cycles,
                                                              (ast *)arg[PERIOD])));
    ast_add(S->arena, m, sim);
    /* output "NAME.csv" every h { t, s, v, F, W } */
    ast *out = syn(S, AST_OUTPUT, d, NULL);
    char *file_name = xasprintf("%s.csv", d->name);
    out->str = ast_strdup(S->arena, file_name, strlen(file_name));
    free(file_name);
    ast_add(S->arena, out, h);
    static const char *const cols[][2] = {{"s", "s"}, {"v", "v"}, {"F", "force"}};
    ast *tc = syn(S, AST_OUTCOL, d, "t");
    ast_add(S->arena, tc, syn(S, AST_NAME, d, "t"));
    ast_add(S->arena, out, tc);
    for (int i = 0; i < 3; i++) {
        ast *c = syn(S, AST_OUTCOL, d, cols[i][0]);
        ast_add(S->arena, c, syn_member(S, d, d->name, cols[i][1]));
        ast_add(S->arena, out, c);
    }
    ast *wc = syn(S, AST_OUTCOL, d, "W");
    ast_add(S->arena, wc, syn(S, AST_NAME, d, "_work"));
    ast_add(S->arena, out, wc);
    ast_add(S->arena, m, out);

    ir_model *sub = xcalloc(1, sizeof *sub);
    if (sema_lower(S->dc, S->arena, m, file, S->kinds, sub) != 0) {
        ir_free(sub);
        free(sub);
        return NULL;
    }
    return sub;
}

/* The `count` lowest modes of the full and of the reduced substructure si
 * (red_modal, red_compare_modes): a frequency table (k, w and f of both,
 * relative error, MAC of the full mode with the reduced one expanded by Phi)
 * and a shape table (per DOF: node id, component, the full and the expanded
 * reduced shapes). 0, or -1 after an error. */
static int modes_tables(sema *S, const ast *at, int si, int count, ir_analysis *freq,
                        ir_analysis *shapes)
{
    subst *b = &S->subs[si];
    if (!b->phi)
        return -1;
    if (b->sparse) {
        diag_error(S->dc, at->loc, "'%s' is unreduced beyond %d DOFs: its modes are not "
                                   "compared (reduce it)", b->name, JNT_MAX_BLOCK);
        return -1;
    }
    int n = b->ndof, r = b->r;
    if (count > r)
        count = r;
    if (count > n)
        count = n;
    char err[512] = "";
    red_basis full = {0}, basis = {n, r, b->phi};
    double *wf = xmalloc((size_t)count * sizeof *wf);
    if (red_modal(b->fe, count, 0, &full, wf, err, sizeof err)) {
        diag_error(S->dc, at->loc, "%s", err);
        free(wf);
        return -1;
    }
    /* reduced: Kr y = w^2 Mr y, expanded by the basis (Phi y) */
    double *wr = xmalloc((size_t)count * sizeof *wr), *mac = xmalloc((size_t)count * sizeof *mac);
    double *ex = xmalloc((size_t)n * count * sizeof *ex);
    if (red_compare_modes(&basis, b->mr, b->kr, &full, wr, mac, ex, err, sizeof err)) {
        diag_error(S->dc, at->loc, "the modes of the reduced '%s' could not be computed", b->name);
        free(wf), free(wr), free(mac), free(ex);
        red_basis_free(&full);
        return -1;
    }
    static const char *const fcols[] = {"k", "w_full", "f_full_Hz", "w_reduced", "f_reduced_Hz",
                                        "rel_error", "MAC"};
    *freq = (ir_analysis){.kind = JNT_ANALYSIS_TABLE, .v = {-1, -1}, .ncol = 7, .nrow = count};
    freq->cols = xmalloc(7 * sizeof *freq->cols);
    for (int c = 0; c < 7; c++)
        freq->cols[c] = xstrdup(fcols[c]);
    freq->table = xmalloc((size_t)count * 7 * sizeof *freq->table);
    for (int k = 0; k < count; k++) {
        double *row = freq->table + (size_t)k * 7;
        row[0] = k + 1;
        row[1] = wf[k];
        row[2] = wf[k] / (2 * JNT_PI);
        row[3] = wr[k];
        row[4] = wr[k] / (2 * JNT_PI);
        row[5] = wf[k] > 0 ? (wr[k] - wf[k]) / wf[k] : 0;
        row[6] = mac[k];
    }
    /* shapes: one row per DOF (the reduced ones signed like the full ones) */
    int nc = 3 + 2 * count;
    *shapes = (ir_analysis){.kind = JNT_ANALYSIS_TABLE, .v = {-1, -1}, .ncol = nc, .nrow = n};
    shapes->cols = xmalloc((size_t)nc * sizeof *shapes->cols);
    shapes->cols[0] = xstrdup("dof");
    shapes->cols[1] = xstrdup("node");
    shapes->cols[2] = xstrdup("component");
    for (int k = 0; k < count; k++) {
        shapes->cols[3 + k] = xasprintf("full%d", k + 1);
        shapes->cols[3 + count + k] = xasprintf("reduced%d", k + 1);
    }
    shapes->table = xcalloc((size_t)n * nc, sizeof *shapes->table);
    for (int i = 0; i < n; i++) {
        double *row = shapes->table + (size_t)i * nc;
        row[0] = i;
        row[1] = row[2] = -1;
        for (int k = 0; k < count; k++) {
            row[3 + k] = full.phi[(size_t)k * n + i];
            row[3 + count + k] = ex[(size_t)k * n + i];
        }
    }
    for (int p = 0; p < b->fe->nnode; p++)
        for (int c = 0; c < FE_NDOF_NODE; c++) {
            int k = b->fe->node[p].dof[c];
            if (k >= 0) {
                shapes->table[(size_t)k * nc + 1] = b->fe->node[p].id;
                shapes->table[(size_t)k * nc + 2] = c;
            }
        }
    free(wf), free(wr), free(mac), free(ex);
    red_basis_free(&full);
    return 0;
}

/* See passes.h. */
void sema_eval_analysis(sema *S, const ast *d, const ast *model, int file)
{
    ir_model *m = S->m;
    ir_analysis an = {.name = NULL, .v = {-1, -1, -1, -1}};
    S->have_an++;
    if (strcmp(d->str, "linear") == 0) {
        static const char *const names[] = {"at"};
        const ast *arg[1] = {0};
        if (analysis_args(S, d, names, 1, arg) != 0)
            return;
        an.kind = JNT_ANALYSIS_LINEAR;
        an.v[0] = arg[0] ? sema_setting_expr(S, arg[0], DIM_S, "'at'") : m->t0;
        if (an.v[0] < 0)
            return;
    } else if (strcmp(d->str, "hysteresis") == 0) {
        static const char *const names[] = {"law", "slip", "normal", "area", "period",
                                            "cycles", "points"};
        const ast *arg[7] = {0};
        if (analysis_args(S, d, names, 7, arg) != 0)
            return;
        if (!arg[0] || !arg[1] || !arg[4]) {
            diag_error(S->dc, d->loc, "analysis 'hysteresis' needs law = ..., slip = ... and "
                                      "period = ...");
            return;
        }
        an.kind = JNT_ANALYSIS_HYSTERESIS;
        an.v[0] = sema_setting_expr(S, arg[4], DIM_S, "'period'");
        an.v[1] = arg[5] ? sema_setting_expr(S, arg[5], units_none, "'cycles'") : ex_const(S->pool, 3);
        if (an.v[0] < 0 || an.v[1] < 0 || !(an.sub = hysteresis_model(S, d, model, file, arg)))
            return;
    } else if (strcmp(d->str, "modes") == 0) {
        static const char *const names[] = {"of", "count"};
        const ast *arg[2] = {0};
        long count = 6;
        if (analysis_args(S, d, names, 2, arg) != 0 ||
            (arg[1] && sema_int_const(S, &S->consts, arg[1], &count) != 0))
            return;
        sym *s = arg[0] && arg[0]->kind == AST_NAME ? sema_find(S, arg[0]->name) : NULL;
        if (!s || s->kind != SYM_SUB) {
            diag_error(S->dc, arg[0] ? arg[0]->loc : d->loc,
                       "analysis 'modes' needs of = <a substructure>");
            return;
        }
        ir_analysis tabs[2];
        if (count < 1 || modes_tables(S, d, s->inst[0], (int)count, &tabs[0], &tabs[1]) != 0) {
            if (count < 1)
                diag_error(S->dc, arg[1]->loc, "'count' must be at least 1");
            return;
        }
        tabs[0].name = xstrdup(d->name);
        tabs[1].name = xasprintf("%s_shapes", d->name);
        m->an = xrealloc(m->an, (size_t)(m->nan + 2) * sizeof *m->an);
        m->an[m->nan++] = tabs[0];
        m->an[m->nan++] = tabs[1];
        return;
    } else if (strcmp(d->str, "complex_modes") == 0) {
        static const char *const names[] = {"along", "from", "to", "steps", "time", "speed"};
        const ast *arg[6] = {0};
        long steps = 50;
        if (analysis_args(S, d, names, 6, arg) != 0 ||
            (arg[3] && sema_int_const(S, &S->consts, arg[3], &steps) != 0))
            return;
        sym *s = arg[0] && arg[0]->kind == AST_NAME ? sema_find(S, arg[0]->name) : NULL;
        if (!s || s->kind != SYM_IFACE || !arg[1] || !arg[2]) {
            diag_error(S->dc, s && s->kind == SYM_IFACE ? d->loc : arg[0] ? arg[0]->loc : d->loc,
                       "analysis 'complex_modes' needs along = <a sliding interface>, "
                       "from = ... and to = ...");
            return;
        }
        if (s->ninst != 1)
            return; /* the interface's errors were reported */
        if (steps < 1 || steps > 100000) {
            diag_error(S->dc, arg[3]->loc, "'steps' must be 1 to 100000, not %ld", steps);
            return;
        }
        an.kind = JNT_ANALYSIS_LOCUS;
        const jnt_dim dim_m = {{0, 6, 0, 0, 0}};
        an.v[0] = sema_setting_expr(S, arg[1], dim_m, "'from'");
        an.v[1] = sema_setting_expr(S, arg[2], dim_m, "'to'");
        /* the friction coefficient and the damping at `time` (default: the end
         * of the simulation, ramps done) and slip speed `speed` (default 0) */
        an.v[2] = arg[4] ? sema_setting_expr(S, arg[4], DIM_S, "'time'") : -1; /* gen.c: until */
        an.v[3] = arg[5] ? sema_setting_expr(S, arg[5], units_div(dim_m, DIM_S), "'speed'")
                         : ex_const(S->pool, 0);
        an.ncol = s->inst[0];
        an.nrow = (int)steps;
        if (an.v[0] < 0 || an.v[1] < 0 || (arg[4] && an.v[2] < 0) || an.v[3] < 0)
            return;
    } else if (strcmp(d->str, "kinematic") == 0) {
        /* the grid: from (default the start), to (the simulation's end),
         * every (the output's interval); gen.c fills the defaults. The
         * counts of coordinates and constraints are known only after
         * sema_mb_finish: sema_analysis_finish checks them. */
        static const char *const names[] = {"from", "to", "every"};
        const ast *arg[3] = {0};
        if (analysis_args(S, d, names, 3, arg) != 0)
            return;
        an.kind = JNT_ANALYSIS_KINEMATIC;
        for (int k = 0; k < 3; k++) {
            static const char *const what[] = {"'from'", "'to'", "'every'"};
            if (arg[k] && (an.v[k] = sema_setting_expr(S, arg[k], DIM_S, what[k])) < 0)
                return;
        }
        if (!S->multibody) {
            diag_error(S->dc, d->loc, "analysis 'kinematic' needs a multibody model (rigid2d or "
                                      "rigid3d bodies and joints)");
            return;
        }
    } else {
        static const char *const kinds[] = {"linear", "hysteresis", "modes", "complex_modes",
                                            "kinematic"};
        const char *best = jnt_closest_name(d->str, kinds, 5);
        diag_error(S->dc, d->loc, "unknown analysis '%s'%s%s%s (there are 'linear', "
                                  "'hysteresis', 'modes', 'complex_modes' and 'kinematic')", d->str,
                   best ? "; did you mean '" : "",
                   best ? best : "", best ? "'?" : "");
        return;
    }
    for (int i = 0; i < m->nan; i++)
        if (strcmp(m->an[i].name, d->name) == 0) {
            diag_error(S->dc, d->aux, "there is already an analysis '%s'", d->name);
            return;
        }
    an.name = xstrdup(d->name);
    m->an = xrealloc(m->an, (size_t)(m->nan + 1) * sizeof *m->an);
    m->an[m->nan++] = an;
}

/* See passes.h. */
void sema_analysis_finish(sema *S)
{
    const ir_model *m = S->m;
    for (int i = 0; i < S->model->nkids; i++) {
        const ast *d = S->model->kids[i];
        if (d->kind != AST_ANALYSIS || strcmp(d->str, "kinematic") != 0)
            continue;
        if (m->nq == 0)
            continue; /* not multibody: sema_eval_analysis said so */
        int nz = m->y.n - 2 * m->nq - m->nc;
        if (m->nc < m->nq) {
            int free_dofs = m->nq - m->nc;
            diag_error(S->dc, d->loc, "analysis 'kinematic' needs every degree of freedom "
                       "driven, but %d %s not: the bodies have %d coordinates and the joints, "
                       "their drives and the bodies' own constraints give %d equations (give "
                       "joints a 'drive = f(t)')", free_dofs, free_dofs == 1 ? "is" : "are",
                       m->nq, m->nc);
        } else if (m->nc > m->nq) {
            diag_error(S->dc, d->loc, "analysis 'kinematic': the joints and drives give %d "
                       "constraint equations for %d coordinates: %d too many (redundant or "
                       "conflicting joints)", m->nc, m->nq, m->nc - m->nq);
        } else if (nz > 0) {
            diag_error(S->dc, d->loc, "analysis 'kinematic' solves the constraints alone, but "
                       "the model has %d first-order state%s ('%s', of a law or an integral), "
                       "which need%s a simulation", nz, nz == 1 ? "" : "s",
                       m->y.v[2 * m->nq].name, nz == 1 ? "s" : "");
        }
    }
}
