/*
 * gen.c: the C translation of a flat model: a printer, one function per
 * emitted kernel or table.
 *
 * One C file, model-specific straight-line code: parameter defaults, run
 * settings, initial values, the right-hand side (state derivatives and the
 * forces on gathered substructure points), its analytic Jacobian in
 * compressed sparse column form (computed by the derivatives pass, deriv.h),
 * discrete updates and outputs, plus the jnt_abi_model table that names
 * them. Matrices and basis rows are model data (offsets into one array the
 * runtime receives beside the table), never literals, so the text grows with
 * the elements of a model and not with its basis. `#line` directives lead
 * back to the .jnt source. The text depends only on the model, so it is
 * golden-testable.
 *
 * The kernels themselves are printed by gen_kernel.c; this file prints the
 * tables (names, dimensions, the Jacobian's pattern, analyses, summaries,
 * blocks), the bind function and the jnt_abi_model object, and drives one
 * model's translation (gen_one) and the whole file's (gen_model).
 */
#include <stdlib.h>
#include <string.h>

#include "expr_int.h"
#include "gen.h"
#include "gen_int.h"
#include "gen_reads.h"
#include "front/alloc.h"

/* Jacobian patterns longer than this are model data (gen_bind copies them). */
#define GEN_PATTERN_MAX 256

/* A table of the variables' dimensions, JNT_NDIM exponents each. */
static void put_dims(FILE *out, const char *name, const ir_vars *vs)
{
    fprintf(out, "static const signed char %s[] = {", name);
    for (int i = 0; i < vs->n; i++) {
        fputs("\n   ", out);
        for (int k = 0; k < JNT_NDIM; k++)
            fprintf(out, " %d,", vs->v[i].dim.e[k]);
    }
    fputs(vs->n ? "\n};\n" : "0};\n", out);
}

/* Names, the dimensions of parameters and outputs, the Jacobian's pattern. */
static void gen_tables(gen_ctx *g)
{
    const ir_model *m = g->m;
    FILE *out = g->out;
    char id[128];
#define NAME(s) (snprintf(id, sizeof id, "%s_" s, g->px), id)
    gen_put_names(out, NAME("y_names"), &m->y);
    gen_put_names(out, NAME("d_names"), &m->d);
    gen_put_names(out, NAME("p_names"), &m->p);
    gen_put_names(out, NAME("out_names"), &m->out);
    put_dims(out, NAME("p_dims"), &m->p);
    put_dims(out, NAME("out_dims"), &m->out);
    fprintf(out, "static const signed char %s[] = {", NAME("out_kinds")); /* JNT_KIND_* */
    for (int i = 0; i < m->out.n; i++)
        fprintf(out, "%s%d", i ? ", " : "", m->out.v[i].kind);
    fputs(m->out.n ? "};\n" : "0};\n", out);
    g->jac_off[0] = g->jac_off[1] = -1;
    if (g->tabs && m->jac.ncol + 1 + m->jac.nnz > GEN_PATTERN_MAX) {
        /* a long pattern is model data, copied by the bind function */
        fprintf(out, "static int %s_jac_colptr[%d];\nstatic int %s_jac_rowind[%d];\n", g->px,
                m->jac.ncol + 1, g->px, m->jac.nnz + 1);
        g->jac_off[0] = gl_tab_ints(g->tabs, m->jac.colptr, m->jac.ncol + 1);
        g->jac_off[1] = gl_tab_ints(g->tabs, m->jac.rowind, m->jac.nnz);
    } else {
        gen_put_ints(out, NAME("jac_colptr"), m->jac.colptr, m->jac.ncol + 1);
        gen_put_ints(out, NAME("jac_rowind"), m->jac.rowind, m->jac.nnz);
    }
    if (m->nq) { /* a diagonal mass matrix */
        int *ix = xmalloc(((size_t)m->nq + 1) * sizeof *ix);
        for (int i = 0; i <= m->nq; i++)
            ix[i] = i;
        gen_put_ints(out, NAME("mass_colptr"), ix, m->nq + 1);
        gen_put_ints(out, NAME("mass_rowind"), ix, m->nq);
        free(ix);
    }
#undef NAME
}

static void gen_one(const ir_model *m, const diag_ctx *dc, FILE *out, const char *px,
                    const char *abi_name, int exported, gl_tables *tabs);

/* Analyses: their own models first, then what they need from this one. */
static void gen_analyses(const gen_ctx *g)
{
    const ir_model *m = g->m;
    FILE *out = g->out;
    const char *px = g->px;
    for (int i = 0; i < m->nan; i++)
        if (m->an[i].sub) {
            char spx[64], sabi[64];
            snprintf(spx, sizeof spx, "%s_a%d", px, i);
            snprintf(sabi, sizeof sabi, "%s_a%d_model", px, i);
            gen_one(m->an[i].sub, g->dc, out, spx, sabi, 0, NULL);
        }
    for (int i = 0; i < m->nan; i++) {
        char name[32];
        snprintf(name, sizeof name, "an%d", i);
        gen_open_fn(g, name, "const double *p, double *v", "p");
        const ir_analysis *an = &m->an[i];
        ex_id roots[4];
        for (int k = 0; k < 4; k++)
            roots[k] = an->v[k] >= 0 ? an->v[k] : ex_const(m->pool, 0);
        if (an->kind == JNT_ANALYSIS_LOCUS && an->v[2] < 0 && m->t_end >= 0)
            roots[2] = m->t_end; /* the locus at the end of the simulation */
        if (an->kind == JNT_ANALYSIS_KINEMATIC) { /* the simulation's grid by default */
            const ex_id dflt[3] = {m->t0, m->t_end, m->out_every};
            for (int k = 0; k < 3; k++)
                if (an->v[k] < 0 && dflt[k] >= 0)
                    roots[k] = dflt[k];
        }
        static const char *const lhs[4] = {"v[0]", "v[1]", "v[2]", "v[3]"};
        ex_emit(m->pool, out, 4, roots, lhs, g->dc, "    ", "w");
        gen_close_fn(out);
    }
    for (int i = 0; i < m->nan; i++) { /* tables the compiler computed */
        const ir_analysis *an = &m->an[i];
        if (an->kind != JNT_ANALYSIS_TABLE)
            continue;
        fprintf(out, "static const char *const %s_an%d_cols[] = {", px, i);
        for (int c = 0; c < an->ncol; c++) {
            ex_put_cstr(out, an->cols[c]);
            fputs(", ", out);
        }
        fprintf(out, "};\nstatic const double %s_an%d_table[] = {", px, i);
        for (int k = 0; k < an->ncol * an->nrow; k++)
            fprintf(out, "%s%.17g,", k % 4 ? " " : "\n    ", an->table[k]);
        fputs("\n};\n", out);
    }
    fprintf(out, "\n#line 1 \"<jnt>\"\nstatic const jnt_abi_analysis %s_analyses[] = {\n", px);
    for (int i = 0; i < m->nan; i++) {
        fputs("    {", out);
        ex_put_cstr(out, m->an[i].name);
        fprintf(out, ", %d, ", m->an[i].kind);
        if (m->an[i].sub)
            fprintf(out, "&%s_a%d_model", px, i);
        else
            fputs("0", out);
        if (m->an[i].kind == JNT_ANALYSIS_LOCUS)
            fprintf(out, ", %s_an%d, %d, %d, 0, 0},\n", px, i, m->an[i].ncol, m->an[i].nrow);
        else if (m->an[i].kind == JNT_ANALYSIS_TABLE)
            fprintf(out, ", %s_an%d, %d, %d, %s_an%d_cols, %s_an%d_table},\n", px, i,
                    m->an[i].ncol, m->an[i].nrow, px, i, px, i);
        else
            fprintf(out, ", %s_an%d, 0, 0, 0, 0},\n", px, i);
    }
    fputs("};\n", out);
}

/* The summary block: the windows' kernel and the table. */
static void gen_summaries(const gen_ctx *g)
{
    const ir_model *m = g->m;
    FILE *out = g->out;
    gen_open_fn(g, "summary_window", "const double *p, double *v", "p");
    ex_id *roots = xmalloc((size_t)(2 * m->nsum) * sizeof *roots);
    char **lhs = xmalloc((size_t)(2 * m->nsum) * sizeof *lhs);
    for (int i = 0; i < m->nsum; i++) {
        roots[2 * i] = m->sum[i].flags & JNT_SUMMARY_FROM ? m->sum[i].from : ex_const(m->pool, 0);
        roots[2 * i + 1] = m->sum[i].flags & JNT_SUMMARY_TO ? m->sum[i].to : ex_const(m->pool, 0);
        lhs[2 * i] = xasprintf("v[%d]", 2 * i);
        lhs[2 * i + 1] = xasprintf("v[%d]", 2 * i + 1);
    }
    ex_emit(m->pool, out, 2 * m->nsum, roots, (const char *const *)lhs, g->dc, "    ", "w");
    gen_close_fn(out);
    for (int i = 0; i < 2 * m->nsum; i++)
        free(lhs[i]);
    free(lhs);
    free(roots);
    fprintf(out, "static const jnt_abi_summary %s_summaries[] = {\n", g->px);
    for (int i = 0; i < m->nsum; i++) {
        fputs("    {", out);
        ex_put_cstr(out, m->sum[i].name);
        fprintf(out, ", %d, %d, %d},\n", m->sum[i].op, m->sum[i].col, m->sum[i].flags);
    }
    fputs("};\n", out);
}

/* Linear blocks (reduced substructures): their table (matrices and rows by offset). */
static void gen_blocks(const gen_ctx *g)
{
    const ir_model *m = g->m;
    /* a model with interfaces: what its outputs read of each block (gen_reads.h) */
    int reads = m->nifaces > 0 && m->nblocks <= 64, have[64] = {0};
    for (int b = 0; reads && b < m->nblocks; b++) {
        int *rd = gen_out_reads(m, b);
        if ((have[b] = rd != NULL)) {
            fprintf(g->out, "static const int %s_reads%d[] = {", g->px, b);
            for (int i = 0; i <= rd[0]; i++)
                fprintf(g->out, "%s%d,", i % 16 ? " " : "\n    ", rd[i]);
            fputs("\n};\n", g->out);
        }
        free(rd);
    }
    int state = m->nifaces > 0 && gen_forces_read_state(m) ? JNT_BLOCK_STATE_FORCES : 0;
    fprintf(g->out, "static const jnt_abi_block %s_blocks[] = {\n", g->px);
    for (int b = 0; b < m->nblocks; b++) {
        const ir_block *k = &m->blocks[b];
        fputs("    {", g->out);
        ex_put_cstr(g->out, k->name);
        fprintf(g->out, ", %d, %d, %ld, %ld, %ld, %d, %d, %ld, %d, %d, %d, %ld", k->q0,
                k->r, k->off[0], k->off[1], k->off[2], k->g0, k->ng, k->off[3], k->qdd0,
                k->flags | state, k->frame, k->off[4]);
        if (reads && have[b])
            fprintf(g->out, ", %s_reads%d},\n", g->px, b);
        else
            fputs(", 0},\n", g->out); /* out_reads: all of it */
    }
    fputs("};\n", g->out);
}

/* `name` of the table `what` of this model when it has one, else 0. */
static void put_ref(const gen_ctx *g, int have, const char *what, const char *sep)
{
    if (have)
        fprintf(g->out, "%s_%s%s", g->px, what, sep);
    else
        fprintf(g->out, "0%s", sep);
}

/* The bind function: where the loops' tables and a long Jacobian pattern
 * are in the model data. They follow the model's own data (ir_data_fill):
 * the constants (px_kd points at them), then the indices, copied once into
 * the int array px_ki (a long pattern from there). Writes only when the
 * data moved, so binding one model again is no race. */
static void gen_bind(const gen_ctx *g)
{
    FILE *out = g->out;
    const char *px = g->px;
    long ndata = g->m->ndata, ni = g->tabs->ni;
    fprintf(out, "\n#line 1 \"<jnt>\"\nstatic void %s_bind(const double *data)\n{\n"
                 "    if (!data || %s_kd == data + %ld)\n        return;\n",
            px, px, ndata);
    if (ni)
        fprintf(out, "    for (long i = 0; i < %ld; i++)\n        %s_ki[i] = (int)data[%ld + i];\n",
                ni, px, ndata + g->tabs->n);
    static const char *const which[2] = {"colptr", "rowind"};
    int len[2] = {g->m->jac.ncol + 1, g->m->jac.nnz};
    for (int k = 0; k < 2; k++)
        if (g->jac_off[k] >= 0)
            fprintf(out, "    for (int i = 0; i < %d; i++)\n        %s_jac_%s[i] = %s_ki[%ld + i];\n",
                    len[k], px, which[k], px, g->jac_off[k]);
    fprintf(out, "    %s_kd = data + %ld;\n}\n", px, ndata);
}

/* The jnt_abi_model table that names everything. */
static void gen_abi(const gen_ctx *g, const char *abi_name, int exported, int nflag)
{
    const ir_model *m = g->m;
    FILE *out = g->out;
    const char *px = g->px;
    fprintf(out, "\n#line 1 \"<jnt>\"\n%sconst jnt_abi_model %s = {\n", exported ? "" : "static ",
            abi_name);
    fprintf(out, "    JNT_ABI_VERSION,\n    ");
    ex_put_cstr(out, m->name);
    fputs(",\n    ", out);
    ex_put_cstr(out, m->source);
    fputs(",\n    ", out);
    if (m->integrator)
        ex_put_cstr(out, m->integrator);
    else
        fputs("0", out);
    fputs(",\n    ", out);
    if (m->output_file)
        ex_put_cstr(out, m->output_file);
    else
        fputs("0", out);
    fprintf(out, ",\n    %d, %d, %d, %d, %d, %ld,\n", m->y.n, m->d.n, m->p.n, m->out.n, m->f.n,
            m->ndata + (g->tabs ? g->tabs->n + g->tabs->ni : 0));
    fprintf(out, "    %s_y_names, %s_d_names, %s_p_names, %s_out_names, %s_p_dims, %s_out_dims,\n",
            px, px, px, px, px, px);
    fprintf(out, "    %d, %s_jac_colptr, %s_jac_rowind,\n", m->jac.nnz, px, px);
    fprintf(out, "    %s_params, %s_settings, %s_init, %s_rhs, %s_jac, ", px, px, px, px, px);
    put_ref(g, m->d.n, "update", ", ");
    fprintf(out, "%s_output,\n    %d, ", px, m->nan);
    put_ref(g, m->nan, "analyses", ",\n");
    fprintf(out, "    %d, ", m->nblocks);
    put_ref(g, m->nblocks, "blocks", ",\n");
    fprintf(out, "    %d, ", m->nchains);
    put_ref(g, m->nchains, "chains", ", ");
    put_ref(g, m->nchains, "chain_in", ",\n");
    fprintf(out, "    %d, ", m->nifaces);
    put_ref(g, m->nifaces, "ifaces", ", ");
    put_ref(g, m->nifaces, "iface_mu", ",\n");
    fputs("    ", out);
    put_ref(g, nflag, "block_in", ",\n");
    int mass_const = m->nq > 0; /* a flexible body's mass matrix turns with it */
    for (int b = 0; b < m->nblocks; b++)
        mass_const &= !(m->blocks[b].flags & (JNT_BLOCK_FFRF | JNT_BLOCK_FFRF3));
    fprintf(out, "    %d, %d, %d, %d, ", m->nq, m->nc, mass_const, m->nq);
    put_ref(g, m->nq, "mass_colptr", ", ");
    put_ref(g, m->nq, "mass_rowind", ", ");
    put_ref(g, m->nq, "mass", ", ");
    put_ref(g, m->nq, "cons_rates", ",\n");
    fprintf(out, "    %d, ", m->nsum);
    put_ref(g, m->nsum, "summaries", ", ");
    put_ref(g, m->nsum, "summary_window", ",\n");
    fprintf(out, "    %d, ", m->pin.n);
    put_ref(g, m->pin.n, "pin_names", ", ");
    put_ref(g, m->pin.n, "pin_rate", ", ");
    put_ref(g, m->pin.n, "pins", ",\n");
    fputs("    ", out);
    put_ref(g, g->tabs != NULL, "bind", ",\n");
    fprintf(out, "    %s_out_kinds,\n    %d,\n};\n", px, gen_gather_skip(m));
}

/* One model: its tables, kernels and jnt_abi_model object `abi_name`
 * (static unless exported). Every other name starts with `px`. */
static void gen_one(const ir_model *m, const diag_ctx *dc, FILE *out, const char *px,
                    const char *abi_name, int exported, gl_tables *tabs)
{
    gen_ctx g = {m, dc, out, px, tabs, {-1, -1}};
    int nflag = 0;
    for (int b = 0; b < m->nblocks; b++)
        nflag += m->blocks[b].flags != 0;
    gen_tables(&g);
    gen_kernels(&g, nflag);
    if (m->nan)
        gen_analyses(&g);
    if (m->nblocks)
        gen_blocks(&g);
    if (m->nsum)
        gen_summaries(&g);
    if (tabs && !tabs->n && !tabs->ni)
        g.tabs = NULL; /* nothing to bind */
    if (g.tabs)
        gen_bind(&g);
    gen_abi(&g, abi_name, exported, nflag);
}

/* Write the C translation of model m. */
int gen_model(ir_model *m, const diag_ctx *dc, FILE *out)
{
    fputs("/* Generated by jnt from ", out);
    ex_put_cstr(out, m->source);
    fputs(". Do not edit. */\n#include <jnt/abi.h>\n", out);
    ex_emit_prelude(out);
    fputc('\n', out);
    m->ndata -= m->nkdata; /* a second translation of m makes its tables again */
    m->nkdata = 0;
    gl_tables tabs = {0};
    /* JNT_LOOPS=0: every instance unrolled (tests compare the two; the
     * compile cache does not key on it: run with JNT_CACHE=0) */
    const char *lv = getenv("JNT_LOOPS");
    int loops = !(lv && !strcmp(lv, "0"));
    /* the kernels first, to know whether they read tables */
    char *body = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&body, &len);
    if (!mem)
        alloc_nomem();
    gen_one(m, dc, mem, "m", "jnt_generated_model", 1, loops ? &tabs : NULL);
    if (fclose(mem) != 0)
        alloc_nomem();
    if (tabs.n || tabs.ni)
        fputs("static const double *m_kd; /* the loops' tables (m_bind) */\n", out);
    if (tabs.ni)
        fprintf(out, "static int m_ki[%ld]; /* their indices, as int (m_bind) */\n", tabs.ni);
    fwrite(body, 1, len, out);
    free(body);
    /* the tables follow the model's own data: the constants, then the indices */
    free(m->kdata);
    m->kdata = tabs.v;
    m->nkdata = tabs.n + tabs.ni;
    if (tabs.ni) {
        m->kdata = xrealloc(m->kdata, (size_t)m->nkdata * sizeof *m->kdata);
        for (long i = 0; i < tabs.ni; i++)
            m->kdata[tabs.n + i] = tabs.ix[i];
    }
    free(tabs.ix);
    m->ndata += m->nkdata;
    /* a standalone simulator links its model data as jnt_generated_data
     * (jnt build assembles it from the data file) */
    fputs("\n#ifdef JNT_STANDALONE\n#include <jnt/jnt.h>\n", out);
    if (m->ndata)
        fputs("extern const double jnt_generated_data[];\n", out);
    fprintf(out, "int main(int argc, char **argv)\n{\n"
                 "    jnt_model *m;\n"
                 "    if (jnt_model_from_abi(&jnt_generated_model, %s, &m) != JNT_OK)\n"
                 "        return 1;\n"
                 "    int rc = jnt_sim_main(m, argv[0], argc - 1, argv + 1);\n"
                 "    jnt_model_free(m);\n"
                 "    return rc;\n}\n#endif\n",
            m->ndata ? "jnt_generated_data" : "0");
    return 0;
}
