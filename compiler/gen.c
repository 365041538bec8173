/*
 * gen.c: the C translation of a flat model.
 *
 * One C file, model-specific straight-line code: parameter defaults, run
 * settings, initial values, the right-hand side, its analytic Jacobian in
 * compressed sparse column form (pattern found from the expressions'
 * dependencies, values from symbolic derivatives), discrete updates and
 * outputs, plus the jnt_abi_model table that names them. `#line` directives
 * lead back to the .jnt source. The text depends only on the model, so it
 * is golden-testable.
 */
#include <stdlib.h>
#include <string.h>

#include "expr_int.h"
#include "gen.h"
#include "util.h"

/* Write a C string literal. */
static void put_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if ((unsigned char)*s < 32)
            fprintf(out, "\\%03o", (unsigned char)*s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

static void put_names(FILE *out, const char *id, const ir_vars *vs)
{
    if (vs->n == 0) {
        fprintf(out, "#define %s ((const char *const *)0)\n", id);
        return;
    }
    fprintf(out, "static const char *const %s[] = {", id);
    for (int i = 0; i < vs->n; i++) {
        fputs(i % 4 ? " " : "\n    ", out);
        put_str(out, vs->v[i].name);
        fputc(',', out);
    }
    fputs("\n};\n", out);
}

/* Emit one block of roots into lvalues "<fmt % i>" (i = index[k] or k);
 * `prefix` names its temporaries. */
static void emit_block(ex_pool *P, FILE *out, const diag_ctx *dc, int n, const ex_id *roots,
                       const char *fmt, const int *index, const char *prefix)
{
    if (n == 0)
        return;
    char **lhs = xmalloc((size_t)n * sizeof *lhs);
    for (int i = 0; i < n; i++)
        lhs[i] = xasprintf(fmt, index ? index[i] : i);
    ex_emit(P, out, n, roots, (const char *const *)lhs, dc, "    ", prefix);
    for (int i = 0; i < n; i++)
        free(lhs[i]);
    free(lhs);
}

/* Emit the rhs (or, with init, the initial value) of every variable of vs. */
static void emit_vars(ex_pool *P, FILE *out, const diag_ctx *dc, const ir_vars *vs, int init,
                      const char *fmt, const char *prefix)
{
    ex_id *roots = xmalloc(((size_t)vs->n + 1) * sizeof *roots);
    for (int i = 0; i < vs->n; i++)
        roots[i] = init ? vs->v[i].init : vs->v[i].rhs;
    emit_block(P, out, dc, vs->n, roots, fmt, NULL, prefix);
    free(roots);
}

/* The rows of each column of d(rhs)/dy that are not structurally zero, and
 * their derivative expressions, in CSC order. */
typedef struct jac_pattern {
    int nnz;
    int *colptr; /* ny + 1 */
    int *rowind;
    ex_id *val;
} jac_pattern;

static void jacobian(const ir_model *m, jac_pattern *J)
{
    ex_pool *P = m->pool;
    int ny = m->y.n;
    /* row i depends on y_j: from the leaves reachable from rhs_i */
    unsigned char *dep = xcalloc((size_t)ny * (size_t)ny + 1, 1);
    for (int i = 0; i < ny; i++) {
        ex_id *order;
        ex_map pos;
        ex_map_init(&pos, 64);
        int cnt = ex_topo(P, 1, &m->y.v[i].rhs, &order, &pos);
        for (int k = 0; k < cnt; k++) {
            const ex_node *nd = ex_get(P, order[k]);
            if (nd->kind == EX_Y)
                dep[(size_t)nd->a * (size_t)ny + (size_t)i] = 1; /* column-major */
        }
        free(order);
        ex_map_free(&pos);
    }
    J->colptr = xmalloc(((size_t)ny + 1) * sizeof *J->colptr);
    J->rowind = NULL;
    J->val = NULL;
    int cap = 0;
    J->nnz = 0;
    for (int j = 0; j < ny; j++) {
        J->colptr[j] = J->nnz;
        for (int i = 0; i < ny; i++) {
            if (!dep[(size_t)j * (size_t)ny + (size_t)i])
                continue;
            ex_id d = ex_diff(P, m->y.v[i].rhs, EX_Y, j);
            double c;
            if (ex_is_const(P, d, &c) && c == 0)
                continue;
            if (J->nnz >= cap) {
                cap = cap ? 2 * cap : 64;
                J->rowind = xrealloc(J->rowind, (size_t)cap * sizeof *J->rowind);
                J->val = xrealloc(J->val, (size_t)cap * sizeof *J->val);
            }
            J->rowind[J->nnz] = i;
            J->val[J->nnz++] = d;
        }
    }
    J->colptr[ny] = J->nnz;
    free(dep);
}

static void put_ints(FILE *out, const char *id, const int *v, int n)
{
    fprintf(out, "static const int %s[] = {", id);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%d,", i % 16 ? " " : "\n    ", v[i]);
    if (n == 0)
        fputs("0", out);
    fputs("\n};\n", out);
}

static void open_fn(FILE *out, const char *sig, const char *unused)
{
    fprintf(out, "\n#line 1 \"<jnt>\"\nstatic int %s\n{\n", sig);
    for (const char *u = unused; *u; u++)
        fprintf(out, "    (void)%c;\n", *u);
}

static void close_fn(FILE *out)
{
    fputs("    return 0;\n}\n", out);
}

/* One model: its tables, kernels and jnt_abi_model object `abi_name`
 * (static unless exported). Every other name starts with `px`. */
static void gen_one(const ir_model *m, const diag_ctx *dc, FILE *out, const char *px,
                    const char *abi_name, int exported)
{
    ex_pool *P = m->pool;
    int ny = m->y.n, nd = m->d.n, np = m->p.n, nout = m->out.n;
    jac_pattern J;
    jacobian(m, &J);
    char id[128], sig[256];
#define NAME(fmt) (snprintf(id, sizeof id, "%s_" fmt, px), id)
#define SIG(fmt) (snprintf(sig, sizeof sig, "%s_" fmt, px), sig)

    put_names(out, NAME("y_names"), &m->y);
    put_names(out, NAME("d_names"), &m->d);
    put_names(out, NAME("p_names"), &m->p);
    put_names(out, NAME("out_names"), &m->out);
    fprintf(out, "static const signed char %s[] = {", NAME("p_dims"));
    for (int i = 0; i < np; i++) {
        fputs("\n   ", out);
        for (int k = 0; k < JNT_NDIM; k++)
            fprintf(out, " %d,", m->p.v[i].dim.e[k]);
    }
    fputs(np ? "\n};\n" : "0};\n", out);
    put_ints(out, NAME("jac_colptr"), J.colptr, ny + 1);
    put_ints(out, NAME("jac_rowind"), J.rowind, J.nnz);

    /* parameter defaults, in declaration order */
    open_fn(out, SIG("params(double *p, const unsigned char *set)"), "");
    for (int i = 0; i < np; i++) {
        fprintf(out, "    if (!set[%d]) {\n", i);
        emit_block(P, out, dc, 1, &m->p.v[i].rhs, "p[%d]", &i, "w");
        fputs("    }\n", out);
    }
    close_fn(out);

    /* run settings */
    open_fn(out, SIG("settings(const double *p, jnt_settings *s)"), "p");
    ex_id sr[7] = {m->t0, m->t_end, m->h, m->rtol, m->atol, m->out_every, m->h_max};
    static const char *const sl[7] = {"s->t0", "s->t_end", "s->h", "s->rtol", "s->atol",
                                      "s->out_every", "s->h_max"};
    ex_emit(P, out, 7, sr, sl, dc, "    ", "w");
    close_fn(out);

    /* initial values */
    open_fn(out, SIG("init(const double *p, double *y, double *d)"), "pyd");
    emit_vars(P, out, dc, &m->y, 1, "y[%d]", "w");
    emit_vars(P, out, dc, &m->d, 1, "d[%d]", "v");
    close_fn(out);

    /* right-hand side */
    open_fn(out, SIG("rhs(double t, const double *y, const double *d, const double *p, double *ydot)"),
            "tydp");
    emit_vars(P, out, dc, &m->y, 0, "ydot[%d]", "w");
    close_fn(out);

    /* Jacobian values */
    open_fn(out, SIG("jac(double t, const double *y, const double *d, const double *p, double *jv)"),
            "tydp");
    emit_block(P, out, dc, J.nnz, J.val, "jv[%d]", NULL, "w");
    close_fn(out);

    /* discrete updates: all read the old values, then all are stored */
    if (nd) {
        open_fn(out, SIG("update(double t, const double *y, double *d, const double *p)"), "tydp");
        fprintf(out, "    double dn[%d];\n", nd);
        emit_vars(P, out, dc, &m->d, 0, "dn[%d]", "w");
        fprintf(out, "#line 1 \"<jnt>\"\n    for (int i = 0; i < %d; i++)\n        d[i] = dn[i];\n", nd);
        close_fn(out);
    }

    /* inputs of the quasi-static chains: k, loads, slip strengths */
    if (m->nchains) {
        int nin = 0;
        for (int c = 0; c < m->nchains; c++)
            nin += 3 + m->chains[c].n;
        ex_id *roots = xmalloc((size_t)nin * sizeof *roots);
        nin = 0;
        for (int c = 0; c < m->nchains; c++)
            for (int i = 0; i < 3 + m->chains[c].n; i++)
                roots[nin++] = m->chains[c].in[i];
        open_fn(out, SIG("chain_in(double t, const double *y, const double *d, const double *p, double *in)"),
                "tydp");
        emit_block(P, out, dc, nin, roots, "in[%d]", NULL, "w");
        close_fn(out);
        free(roots);
        fprintf(out, "static const jnt_abi_chain %s[] = {\n", NAME("chains"));
        nin = 0;
        for (int c = 0; c < m->nchains; c++) {
            fputs("    {", out);
            put_str(out, m->chains[c].name);
            fprintf(out, ", %d, %d, %d},\n", m->chains[c].d0, m->chains[c].n, nin);
            nin += 3 + m->chains[c].n;
        }
        fputs("};\n", out);
    }

    /* moving frames and time-varying damping of the blocks */
    int nflag = 0;
    for (int b = 0; b < m->nblocks; b++)
        nflag += m->blocks[b].flags != 0;
    if (nflag) {
        ex_id *roots = xmalloc(6 * (size_t)m->nblocks * sizeof *roots);
        for (int b = 0; b < m->nblocks; b++)
            memcpy(roots + 6 * b, m->blocks[b].in, sizeof m->blocks[b].in);
        open_fn(out, SIG("block_in(double t, const double *y, const double *d, const double *p, double *in)"),
                "tydp");
        emit_block(P, out, dc, 6 * m->nblocks, roots, "in[%d]", NULL, "w");
        close_fn(out);
        free(roots);
    }

    /* sliding interfaces: node coordinates and rows, friction coefficients */
    for (int f = 0; f < m->nifaces; f++) {
        const ir_iface *fc = &m->ifaces[f];
        int rs = m->blocks[fc->slave].r, rm = m->blocks[fc->master].r;
        size_t nrow = 2 * ((size_t)fc->nslave * rs + (size_t)fc->nmaster * rm);
        size_t nx = 2 * ((size_t)fc->nslave + fc->nmaster);
        fprintf(out, "static const double %s_f%d_x[] = {", px, f);
        for (size_t i = 0; i < nx; i++)
            fprintf(out, "%s%.17g,", i % 4 ? " " : "\n    ", fc->x[i]);
        fprintf(out, "\n};\nstatic const double %s_f%d_rows[] = {", px, f);
        for (size_t i = 0; i < nrow; i++)
            fprintf(out, "%s%.17g,", i % 4 ? " " : "\n    ", fc->rows[i]);
        fputs("\n};\n", out);
    }
    if (m->nifaces) {
        ex_id *roots = xmalloc((size_t)m->nifaces * sizeof *roots);
        for (int f = 0; f < m->nifaces; f++)
            roots[f] = m->ifaces[f].mu;
        open_fn(out, SIG("iface_mu(double t, const double *y, const double *d, const double *p, double *mu)"),
                "tyd");
        emit_block(P, out, dc, m->nifaces, roots, "mu[%d]", NULL, "w");
        close_fn(out);
        free(roots);
        fprintf(out, "static const jnt_abi_iface %s[] = {\n", NAME("ifaces"));
        for (int f = 0; f < m->nifaces; f++) {
            const ir_iface *fc = &m->ifaces[f];
            fputs("    {", out);
            put_str(out, fc->name);
            int varies = ex_depends(P, fc->mu, EX_T, 0) || ex_depends(P, fc->mu, EX_D, fc->d0 + 4);
            fprintf(out, ", %d, %d, %d, %d, %d, %d, %d, %s_f%d_x, %s_f%d_rows},\n", fc->slave,
                    fc->master, fc->nslave, fc->nmaster, fc->method, fc->d0, varies, px, f, px,
                    f);
        }
        fputs("};\n", out);
    }

    /* outputs */
    open_fn(out, SIG("output(double t, const double *y, const double *d, const double *p, double *out)"),
            "tydp");
    emit_vars(P, out, dc, &m->out, 0, "out[%d]", "w");
    close_fn(out);

    /* analyses: their own models first, then what they need from this one */
    for (int i = 0; i < m->nan; i++)
        if (m->an[i].sub) {
            char spx[64], sabi[64];
            snprintf(spx, sizeof spx, "%s_a%d", px, i);
            snprintf(sabi, sizeof sabi, "%s_a%d_model", px, i);
            gen_one(m->an[i].sub, dc, out, spx, sabi, 0);
        }
    for (int i = 0; i < m->nan; i++) {
        snprintf(sig, sizeof sig, "%s_an%d(const double *p, double *v)", px, i);
        open_fn(out, sig, "p");
        const ir_analysis *an = &m->an[i];
        ex_id roots[4];
        for (int k = 0; k < 4; k++)
            roots[k] = an->v[k] >= 0 ? an->v[k] : ex_const(P, 0);
        if (an->kind == JNT_ANALYSIS_LOCUS && an->v[2] < 0 && m->t_end >= 0)
            roots[2] = m->t_end; /* the locus at the end of the simulation */
        static const char *const lhs[4] = {"v[0]", "v[1]", "v[2]", "v[3]"};
        ex_emit(P, out, 4, roots, lhs, dc, "    ", "w");
        close_fn(out);
    }
    for (int i = 0; i < m->nan; i++) { /* tables the compiler computed */
        const ir_analysis *an = &m->an[i];
        if (an->kind != JNT_ANALYSIS_TABLE)
            continue;
        fprintf(out, "static const char *const %s_an%d_cols[] = {", px, i);
        for (int c = 0; c < an->ncol; c++) {
            put_str(out, an->cols[c]);
            fputs(", ", out);
        }
        fprintf(out, "};\nstatic const double %s_an%d_table[] = {", px, i);
        for (int k = 0; k < an->ncol * an->nrow; k++)
            fprintf(out, "%s%.17g,", k % 4 ? " " : "\n    ", an->table[k]);
        fputs("\n};\n", out);
    }
    if (m->nan) {
        fprintf(out, "\n#line 1 \"<jnt>\"\nstatic const jnt_abi_analysis %s[] = {\n",
                NAME("analyses"));
        for (int i = 0; i < m->nan; i++) {
            fputs("    {", out);
            put_str(out, m->an[i].name);
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

    /* linear blocks (reduced substructures): their matrices */
    for (int b = 0; b < m->nblocks; b++) {
        const ir_block *k = &m->blocks[b];
        const double *mats[3] = {k->minv, k->minv_k, k->minv_c};
        static const char *const mname[3] = {"minv", "minv_k", "minv_c"};
        for (int j = 0; j < 3; j++) {
            fprintf(out, "static const double %s_b%d_%s[] = {", px, b, mname[j]);
            for (int i = 0; i < k->r * k->r; i++)
                fprintf(out, "%s%.17g,", i % 4 ? " " : "\n    ", mats[j][i]);
            fputs("\n};\n", out);
        }
    }
    if (m->nblocks) {
        fprintf(out, "static const jnt_abi_block %s[] = {\n", NAME("blocks"));
        for (int b = 0; b < m->nblocks; b++) {
            fputs("    {", out);
            put_str(out, m->blocks[b].name);
            fprintf(out, ", %d, %d, %s_b%d_minv, %s_b%d_minv_k, %s_b%d_minv_c, %d, %d},\n",
                    m->blocks[b].q0, m->blocks[b].r, px, b, px, b, px, b, m->blocks[b].qdd0,
                    m->blocks[b].flags);
        }
        fputs("};\n", out);
    }

    fprintf(out, "\n#line 1 \"<jnt>\"\n%sconst jnt_abi_model %s = {\n", exported ? "" : "static ",
            abi_name);
    fprintf(out, "    JNT_ABI_VERSION,\n    ");
    put_str(out, m->name);
    fputs(",\n    ", out);
    put_str(out, m->source);
    fputs(",\n    ", out);
    if (m->integrator)
        put_str(out, m->integrator);
    else
        fputs("0", out);
    fputs(",\n    ", out);
    if (m->output_file)
        put_str(out, m->output_file);
    else
        fputs("0", out);
    fprintf(out, ",\n    %d, %d, %d, %d,\n", ny, nd, np, nout);
    fprintf(out, "    %s_y_names, %s_d_names, %s_p_names, %s_out_names, %s_p_dims,\n", px, px, px,
            px, px);
    fprintf(out, "    %d, %s_jac_colptr, %s_jac_rowind,\n", J.nnz, px, px);
    fprintf(out, "    %s_params, %s_settings, %s_init, %s_rhs, %s_jac, ", px, px, px, px, px);
    if (nd)
        fprintf(out, "%s_update, ", px);
    else
        fputs("0, ", out);
    fprintf(out, "%s_output,\n    %d, ", px, m->nan);
    if (m->nan)
        fprintf(out, "%s_analyses,\n", px);
    else
        fputs("0,\n", out);
    if (m->nblocks)
        fprintf(out, "    %d, %s_blocks,\n", m->nblocks, px);
    else
        fputs("    0, 0,\n", out);
    if (m->nchains)
        fprintf(out, "    %d, %s_chains, %s_chain_in,\n", m->nchains, px, px);
    else
        fputs("    0, 0, 0,\n", out);
    if (m->nifaces)
        fprintf(out, "    %d, %s_ifaces, %s_iface_mu,\n", m->nifaces, px, px);
    else
        fputs("    0, 0, 0,\n", out);
    if (nflag)
        fprintf(out, "    %s_block_in,\n};\n", px);
    else
        fputs("    0,\n};\n", out);
#undef NAME
#undef SIG
    free(J.colptr);
    free(J.rowind);
    free(J.val);
}

/* Write the C translation of model m. */
int gen_model(const ir_model *m, const diag_ctx *dc, FILE *out)
{
    fputs("/* Generated by jnt from ", out);
    fputs(m->source, out);
    fputs(". Do not edit. */\n#include <jnt/abi.h>\n", out);
    ex_emit_prelude(out);
    fputc('\n', out);
    gen_one(m, dc, out, "m", "jnt_generated_model", 1);
    fputs("\n#ifdef JNT_STANDALONE\n"
          "#include <jnt/jnt.h>\n"
          "int main(int argc, char **argv)\n{\n"
          "    jnt_model *m;\n"
          "    if (jnt_model_from_abi(&jnt_generated_model, &m) != JNT_OK)\n"
          "        return 1;\n"
          "    int rc = jnt_sim_main(m, argv[0], argc - 1, argv + 1);\n"
          "    jnt_model_free(m);\n"
          "    return rc;\n}\n#endif\n",
          out);
    return 0;
}
