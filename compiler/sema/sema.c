/*
 * sema.c: semantic analysis, the driver: sema_lower runs the passes in
 * order over a parsed model and lowers it to the flat IR.
 *
 * Passes: (1) register names, following imports (sema/import.c); (2) create
 * array instances and degrees of freedom: bodies, substructures and chains,
 * points and interfaces, elements, then constants and parameters; (3)
 * evaluate elements lazily (they may refer to each other) and assemble
 * m a = sum of forces per dof (sema/assemble.c); (4) initial values,
 * simulate settings, outputs and analyses of the main file (sema/simulate.c,
 * sema/analysis.c); then prescribed motions are eliminated, substructure
 * points gathered and the model checked as a whole. Errors are reported and
 * counted; evaluation goes on with V_ERR values so that one run reports
 * every independent error.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sema.h"
#include "passes.h"
#include "summary.h"
#include "front/alloc.h"

static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};

/* The model's name: its `model NAME`, else the file's name without .jnt. */
static char *model_name(const ast *model, const char *path)
{
    if (model->name)
        return xstrdup(model->name);
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && strcmp(b + n - 4, ".jnt") == 0)
        n -= 4;
    char *s = xmalloc(n + 1);
    memcpy(s, b, n);
    s[n] = 0;
    return s;
}

/* See sema.h: check and lower a parsed model. */
int sema_lower(diag_ctx *dc, ast_arena *arena, const ast *model, int file,
               const sema_kind *const *kinds, ir_model *out)
{
    int want_scene = out->want_scene; /* the caller's one request (ir.h) */
    *out = (ir_model){.want_scene = want_scene};
    out->pool = ex_pool_new();
    out->source = xstrdup(dc->srcs[file].path);
    out->name = model_name(model, dc->srcs[file].path);
    out->t0 = ex_const(out->pool, 0);
    out->t_end = out->h = out->rtol = out->atol = out->out_every = out->h_max = -1;
    out->alpha = ex_const(out->pool, -0.05);
    out->rho_inf = ex_const(out->pool, 0.9);
    out->assemble_tol = ex_const(out->pool, 0);
    out->max_order = ex_const(out->pool, 0);
    out->integrator = "bdf";

    sema S = {.dc = dc, .kinds = kinds, .arena = arena, .m = out, .pool = out->pool, .model = model,
              .gravity = {-1, -1, -1}};
    sema_scope_init(&S);
    sema_register(&S, model, file);

    /* pass 2: arrays, bodies and dofs, element instances, parameters */
    for (int i = 0; i < S.nsym; i++) {
        sym *s = &S.syms[i];
        if (s->kind == SYM_BODY)
            sema_declare_body(&S, s);
    }
    sema_kinds_declare(&S, 1); /* substructures, chains */
    sema_kinds_run(&S, offsetof(sema_kind, bind));
    sema_kinds_declare(&S, 2); /* points, interfaces; joints (sema/joints.c), in order */
    for (int i = 0; i < S.nsym; i++) {
        sym *s = &S.syms[i];
        if (s->kind == SYM_ELEM)
            sema_declare_elem(&S, s);
    }
    for (int i = 0; i < S.nsym; i++) {
        sym *s = &S.syms[i];
        if (s->kind == SYM_CONST || s->kind == SYM_PARAM)
            sema_eval_sym(&S, s, s->decl->loc);
    }
    sema_check_params(&S);
    /* pass 3: elements and the equations of motion */
    sema_assemble(&S);

    /* pass 4: initial values, simulate, output (main file only) */
    unsigned char *seen = xcalloc((size_t)(out->y.n + out->d.n) + 1, 1);
    for (int i = 0; i < model->nkids; i++) {
        const ast *d = model->kids[i];
        if (d->kind == AST_INIT)
            sema_eval_init(&S, d, seen);
        else if (d->kind == AST_SIMULATE)
            sema_eval_simulate(&S, d);
        else if (d->kind == AST_OUTPUT)
            sema_eval_output(&S, d);
        else if (d->kind == AST_ANALYSIS)
            sema_eval_analysis(&S, d, model, file);
        else if (d->kind == AST_LET || d->kind == AST_INTEGRAL) {
            sym *s = sema_find(&S, d->name);
            if (s && s->decl == d)
                sema_eval_sym(&S, s, d->loc);
        }
    }
    free(seen);
    /* an imported file's integrals are states: they need their equations even
     * when the main file never uses them */
    for (int i = 0; i < S.nsym; i++)
        if (S.syms[i].decl && S.syms[i].decl->kind == AST_INTEGRAL)
            sema_eval_sym(&S, &S.syms[i], S.syms[i].decl->loc);
    sema_kinds_eval(&S); /* every file's (chains) */
    if (!S.have_sim)
        out->integrator = NULL; /* analyses only: no integrator to check */
    if (out->want_scene && !diag_errors(dc)) /* before the passes that rewrite outputs */
        sema_scene_probes(&S);
    if (!diag_errors(dc)) {
        sema_init_finish(&S);
        sema_steps_finish(&S);
        sema_mb_finish(&S);
        if (!diag_errors(dc))
            sema_analysis_finish(&S);
        sema_eliminate_prescribed(&S);
        sema_kinds_run(&S, offsetof(sema_kind, gather));
    }
    /* every value that failed must have said why: never drop a force silently */
    for (int i = 0; i < S.nelem && !diag_errors(dc); i++)
        if (S.elems[i].force.k != V_NUM && S.elems[i].kind != ELEM_MOTION)
            diag_error(dc, S.elems[i].decl->loc, "internal error: '%s' has no force and no "
                                                 "diagnostic said why (please report)", S.elems[i].name);
    for (int i = 0; i < out->y.n && !diag_errors(dc); i++)
        if (out->y.v[i].rhs < 0)
            diag_error(dc, out->y.v[i].loc, "internal error: state '%s' has no equation "
                                            "(please report)", out->y.v[i].name);
    if (!S.have_sim && !S.have_an)
        diag_error(dc, (jnt_loc){file, 0}, "the model has no 'simulate { ... }' block");
    sema_kinds_run(&S, offsetof(sema_kind, check));
    if (!S.have_sim)
        out->integrator = NULL; /* analyses only */
    if (!S.have_out) {
        /* default output: t and every state */
        out->output_file = xasprintf("%s.csv", out->name);
        out->out_every = ex_const(out->pool, 0);
        ir_add(&out->out, xstrdup("t"), ex_var(out->pool, EX_T, 0), -1, DIM_S, loc_none);
        for (int i = 0; i < out->y.n; i++)
            ir_add(&out->out, xstrdup(out->y.v[i].name), ex_var(out->pool, EX_Y, i), -1,
                   out->y.v[i].dim, loc_none);
    }
    for (int i = 0; i < model->nkids; i++) /* after the output columns */
        if (model->kids[i]->kind == AST_SUMMARY)
            sema_eval_summary(&S, model->kids[i]);
    if (out->h < 0)
        out->h = ex_const(out->pool, 0);
    if (out->h_max < 0)
        out->h_max = ex_const(out->pool, 0);
    if (out->rtol < 0)
        out->rtol = ex_const(out->pool, 1e-6);
    if (out->atol < 0)
        out->atol = ex_const(out->pool, 1e-9);
    if (out->t_end < 0)
        out->t_end = ex_const(out->pool, 0);

    if (out->want_scene && !diag_errors(dc))
        out->scene = sema_scene(&S);
    /* release sema's own memory */
    for (int i = 0; i < S.nsym; i++) {
        free(S.syms[i].inst);
        free(S.syms[i].idx);
    }
    for (int i = 0; i < S.nbody; i++)
        free(S.bodies[i].name);
    for (int i = 0; i < S.ndof; i++) {
        free(S.dofs[i].name);
        free(S.dofs[i].coef);
        free(S.dofs[i].lin_y);
        free(S.dofs[i].lin_c);
    }
    sema_kinds_run(&S, offsetof(sema_kind, release));
    sema_mb_free(&S);
    free(S.steps);
    free(S.steps0);
    free(S.step_t);
    free(S.dinit_d);
    free(S.dinit_e);
    for (int i = 0; i < S.nelem; i++) {
        free(S.elems[i].name);
        free(S.elems[i].q);
    }
    for (int i = 0; i < S.nstack; i++)
        free(S.stack[i]);
    /* the files read, for the run to keep its output off them (run.c): the model, its
     * imports (the stdlib's too) and its data files, as real paths */
    out->inputs = xcalloc((size_t)S.nimported + (size_t)S.ndata + 2, sizeof *out->inputs);
    char real[PATH_MAX]; /* the main file is among the imported ones when it is a file */
    int nin = 0, have_main = realpath(dc->srcs[file].path, real) != NULL, main_in = 0;
    for (int i = 0; i < S.nimported; i++) {
        main_in |= have_main && !strcmp(real, S.imported[i]);
        out->inputs[nin++] = S.imported[i]; /* moved */
    }
    if (have_main && !main_in)
        out->inputs[nin++] = xstrdup(real);
    for (int i = 0; i < S.ndata; i++)
        out->inputs[nin++] = S.data[i];
    free(S.stack);
    free(S.stack_file);
    free(S.imported);
    free(S.data);
    free(S.syms);
    free(S.hash);
    free(S.bodies);
    free(S.dofs);
    free(S.elems);
    free(S.subs);
    return diag_errors(dc) ? -1 : 0;
}
