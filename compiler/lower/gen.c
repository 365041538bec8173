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
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expr_int.h"
#include "gen.h"
#include "gen_loop.h"
#include "gen_reads.h"
#include "front/alloc.h"

static void put_names(FILE *out, const char *id, const ir_vars *vs)
{
    if (vs->n == 0) {
        fprintf(out, "#define %s ((const char *const *)0)\n", id);
        return;
    }
    fprintf(out, "static const char *const %s[] = {", id);
    for (int i = 0; i < vs->n; i++) {
        fputs(i % 4 ? " " : "\n    ", out);
        ex_put_cstr(out, vs->v[i].name);
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

static void put_ints(FILE *out, const char *id, const int *v, int n)
{
    fprintf(out, "static const int %s[] = {", id);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%d,", i % 16 ? " " : "\n    ", v[i]);
    if (n == 0)
        fputs("0", out);
    fputs("\n};\n", out);
}

/* What every printer of one model needs: the model, where #line points,
 * the output and the prefix of its names. */
typedef struct gen_ctx {
    const ir_model *m;
    const diag_ctx *dc;
    FILE *out;
    const char *px;
    gl_tables *tabs;  /* the loops' tables (the top model's kernels), or NULL: unrolled */
    long jac_off[2];  /* the Jacobian's colptr and rowind in tabs, or -1: literals */
} gen_ctx;

/* Runs of at least this many constant zero rows of the rhs are a memset. */
#define GEN_ZERO_RUN 8

/* 1 when e is the constant +0. */
static int is_zero(ex_pool *P, ex_id e)
{
    const ex_node *x = ex_get(P, e);
    return x->kind == EX_CONST && x->v == 0 && !signbit(x->v);
}

/* Jacobian patterns longer than this are model data (gen_bind copies them). */
#define GEN_PATTERN_MAX 256

/* Emit roots into `name`[index[i]]: looped over repeated instances when the
 * model has tables (gen_loop.h). */
static void emit_roll(const gen_ctx *g, int n, const ex_id *roots, const char *name,
                      const int *index)
{
    if (!g->tabs) {
        char fmt[32];
        snprintf(fmt, sizeof fmt, "%s[%%d]", name);
        emit_block(g->m->pool, g->out, g->dc, n, roots, fmt, index, "w");
        return;
    }
    char kd[64];
    snprintf(kd, sizeof kd, "%s_kd", g->px);
    gen_loop_emit(g->m->pool, g->out, g->dc, n, roots, name, index, "w", g->tabs, kd);
}

/* Open kernel `name` with signature `args`; `unused` lists the one-letter
 * arguments to void. Kernels that read the gathered quantities get uv, the
 * velocities' half of u. */
static void open_fn(const gen_ctx *g, const char *name, const char *args, const char *unused)
{
    fprintf(g->out, "\n#line 1 \"<jnt>\"\nstatic int %s_%s(%s)\n{\n", g->px, name, args);
    for (const char *u = unused; *u; u++)
        fprintf(g->out, "    (void)%c;\n", *u);
    if (strstr(args, "const double *u,") && g->m->f.n)
        fprintf(g->out, "    const double *uv = u + %d;\n    (void)uv;\n", g->m->f.n);
}

static void close_fn(FILE *out)
{
    fputs("    return 0;\n}\n", out);
}

#define KARGS(last) "double t, const double *y, const double *u, const double *d, " \
                    "const double *p, double *" last

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

/* Append n ints to the tables as doubles; returns their offset. */
static long gen_tab_ints(gl_tables *t, const int *v, int n)
{
    long off = t->n;
    if (t->n + n > t->cap) {
        t->cap = t->n + n + 1024;
        t->v = xrealloc(t->v, (size_t)t->cap * sizeof *t->v);
    }
    for (int i = 0; i < n; i++)
        t->v[t->n++] = v[i];
    return off;
}

/* Names, the dimensions of parameters and outputs, the Jacobian's pattern. */
static void gen_tables(gen_ctx *g)
{
    const ir_model *m = g->m;
    FILE *out = g->out;
    char id[128];
#define NAME(s) (snprintf(id, sizeof id, "%s_" s, g->px), id)
    put_names(out, NAME("y_names"), &m->y);
    put_names(out, NAME("d_names"), &m->d);
    put_names(out, NAME("p_names"), &m->p);
    put_names(out, NAME("out_names"), &m->out);
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
        g->jac_off[0] = gen_tab_ints(g->tabs, m->jac.colptr, m->jac.ncol + 1);
        g->jac_off[1] = gen_tab_ints(g->tabs, m->jac.rowind, m->jac.nnz);
    } else {
        put_ints(out, NAME("jac_colptr"), m->jac.colptr, m->jac.ncol + 1);
        put_ints(out, NAME("jac_rowind"), m->jac.rowind, m->jac.nnz);
    }
    if (m->nq) { /* a diagonal mass matrix */
        int *ix = xmalloc(((size_t)m->nq + 1) * sizeof *ix);
        for (int i = 0; i <= m->nq; i++)
            ix[i] = i;
        put_ints(out, NAME("mass_colptr"), ix, m->nq + 1);
        put_ints(out, NAME("mass_rowind"), ix, m->nq);
        free(ix);
    }
#undef NAME
}

/* Parameter defaults, in declaration order. */
static void gen_params(const gen_ctx *g)
{
    open_fn(g, "params", "double *p, const unsigned char *set", "");
    for (int i = 0; i < g->m->p.n; i++) {
        fprintf(g->out, "    if (!set[%d]) {\n", i);
        emit_block(g->m->pool, g->out, g->dc, 1, &g->m->p.v[i].rhs, "p[%d]", &i, "w");
        fputs("    }\n", g->out);
    }
    /* masses and inertias set through parameters: positive (an Euler moment:
     * not negative) and finite, else -1000 - y for a mass, -1000 - ny - y
     * for an inertia, y the dof it moves (runtime/core/data.c) */
    const ir_model *m = g->m;
    if (m->npos) {
        fprintf(g->out, "    {\n    double c[%d];\n", m->npos);
        emit_block(m->pool, g->out, g->dc, m->npos, m->pos_mass, "c[%d]", NULL, "w");
        for (int k = 0; k < m->npos; k++)
            fprintf(g->out, "    if (!(c[%d] %s 0.0 && c[%d] - c[%d] == 0.0))\n        return %d;\n",
                    k, m->pos_kind[k] == POS_EULER ? ">=" : ">", k, k,
                    -1000 - m->pos_y[k] - (m->pos_kind[k] == POS_MASS ? 0 : m->y.n));
        fputs("    }\n", g->out);
    }
    close_fn(g->out);
}

/* Run settings. */
static void gen_settings(const gen_ctx *g)
{
    const ir_model *m = g->m;
    open_fn(g, "settings", "const double *p, jnt_settings *s", "p");
    ex_id sr[11] = {m->t0, m->t_end, m->h, m->rtol, m->atol, m->out_every, m->h_max, m->alpha,
                    m->rho_inf, m->assemble_tol, m->max_order};
    static const char *const sl[11] = {"s->t0", "s->t_end", "s->h", "s->rtol", "s->atol",
                                       "s->out_every", "s->h_max", "s->alpha", "s->rho_inf",
                                       "s->assemble_tol", "s->max_order"};
    ex_emit(m->pool, g->out, 11, sr, sl, g->dc, "    ", "w");
    close_fn(g->out);
}

/* Initial values. */
static void gen_init(const gen_ctx *g)
{
    open_fn(g, "init", "const double *p, double *y, double *d", "pyd");
    emit_vars(g->m->pool, g->out, g->dc, &g->m->y, 1, "y[%d]", "w");
    emit_vars(g->m->pool, g->out, g->dc, &g->m->d, 1, "d[%d]", "v");
    close_fn(g->out);
}

/* The right-hand side: ydot, then the forces on the gathered points. */
static void gen_rhs(const gen_ctx *g)
{
    const ir_model *m = g->m;
    int ny = m->y.n, nu = m->f.n, nt = ny + nu, n = 0, nrun = 0;
    ex_id *all = xmalloc(((size_t)nt + 1) * sizeof *all);
    ex_id *roots = xmalloc(((size_t)nt + 1) * sizeof *roots);
    int *index = xmalloc(((size_t)nt + 1) * sizeof *index);
    int *run = xmalloc(2 * ((size_t)nt + 1) * sizeof *run);
    for (int i = 0; i < nt; i++)
        all[i] = i < ny ? m->y.v[i].rhs : m->f.v[i - ny].rhs;
    /* Runs of rows that are the constant +0 (a substructure's coordinate
     * rows, forces on no point) are one memset each: rolled, one store per
     * row in a loop over a table, they were 17 % of a step of
     * examples/beam_on_beam.jnt under libtcc (docs/interfaces.md). */
    for (int i = 0; i < nt;) {
        int j = i;
        while (j < nt && is_zero(m->pool, all[j]))
            j++;
        if (j - i >= GEN_ZERO_RUN) {
            run[2 * nrun] = i;
            run[2 * nrun++ + 1] = j - i;
            i = j;
            continue;
        }
        for (j = j > i ? j : i + 1; i < j; i++)
            index[n] = i, roots[n++] = all[i];
    }
    if (nrun)
        fputs("void *memset(void *, int, unsigned long);\n", g->out);
    open_fn(g, "rhs", KARGS("out"), "tyudp");
    for (int k = 0; k < nrun; k++)
        fprintf(g->out, "    memset(out + %d, 0, %d * sizeof(double));\n", run[2 * k],
                run[2 * k + 1]);
    emit_roll(g, n, roots, "out", nrun ? index : NULL);
    free(run);
    free(index);
    free(roots);
    free(all);
    close_fn(g->out);
}

/* The Jacobian's values, in the order of its pattern. With cuts (deriv.c):
 * the entries' direct parts, the chain rule's factors (a) and the cuts'
 * slots' direct parts (b) into one local array, then the chain rule
 * x[dst] += a[i] x[src] as one loop over a table of triples in order (model
 * data, or a literal for a model without tables): the cuts' slots first,
 * then the entries. */
static void gen_jac(const gen_ctx *g)
{
    const ir_jac *J = &g->m->jac;
    open_fn(g, "jac", KARGS("jv"), "tyudp");
    if (!J->na) {
        emit_roll(g, J->nnz, J->val, "jv", NULL);
        close_fn(g->out);
        return;
    }
    int n = J->nnz + J->na + J->nb;
    ex_id *roots = xmalloc((size_t)n * sizeof *roots);
    memcpy(roots, J->val, (size_t)J->nnz * sizeof *roots);
    memcpy(roots + J->nnz, J->a, (size_t)J->na * sizeof *roots);
    memcpy(roots + J->nnz + J->na, J->b, (size_t)J->nb * sizeof *roots);
    int *tri = xmalloc(3 * (size_t)J->nchain * sizeof *tri + 1);
    int nb0 = J->nnz + J->na; /* the cuts' slots in jx */
    for (int t = 0; t < J->nchain; t++) {
        const int *c = J->chain + 3 * t;
        tri[3 * t] = c[0] >= 0 ? c[0] : nb0 - 1 - c[0];
        tri[3 * t + 1] = J->nnz + c[1];
        tri[3 * t + 2] = nb0 + c[2];
    }
    fprintf(g->out, "    double jx[%d];\n", n);
    emit_roll(g, n, roots, "jx", NULL);
    fputs("#line 1 \"<jnt>\"\n", g->out);
    if (g->tabs) {
        long off = gen_tab_ints(g->tabs, tri, 3 * J->nchain);
        fprintf(g->out, "    const double *T = %s_kd + %ld;\n", g->px, off);
    } else {
        char id[64];
        snprintf(id, sizeof id, "%s_jac_chain", g->px);
        put_ints(g->out, id, tri, 3 * J->nchain);
        fprintf(g->out, "    const int *T = %s;\n", id);
    }
    /* a factor 0 adds nothing, also where the slot is not finite: a cut
     * in the branch an 'if' did not take (the energy-consistent form's
     * unset last state, -1e30) has slots of no meaning, which the unrolled
     * derivative never computed */
    fprintf(g->out, "    for (int i = 0; i < %d; i++) { /* the chain rule at the cuts (deriv.c) */\n"
                    "        double a = jx[(int)T[3 * i + 1]];\n"
                    "        if (a != 0.0)\n"
                    "            jx[(int)T[3 * i]] += a * jx[(int)T[3 * i + 2]];\n"
                    "    }\n"
                    "    for (int i = 0; i < %d; i++)\n        jv[i] = jx[i];\n",
            J->nchain, J->nnz);
    free(tri);
    free(roots);
    close_fn(g->out);
}

/* Discrete updates: all read the old values, then all are stored. */
static void gen_update(const gen_ctx *g)
{
    int nd = g->m->d.n;
    open_fn(g, "update", "double t, const double *y, const double *u, double *d, const double *p",
            "tyudp");
    fprintf(g->out, "    double dn[%d];\n", nd);
    ex_id *roots = xmalloc(((size_t)nd + 1) * sizeof *roots);
    for (int i = 0; i < nd; i++)
        roots[i] = g->m->d.v[i].rhs;
    emit_roll(g, nd, roots, "dn", NULL);
    free(roots);
    fprintf(g->out, "#line 1 \"<jnt>\"\n    for (int i = 0; i < %d; i++)\n        d[i] = dn[i];\n",
            nd);
    close_fn(g->out);
}

/* Inputs of the quasi-static chains (k, loads, slip strengths) and their table. */
static void gen_chains(const gen_ctx *g)
{
    const ir_model *m = g->m;
    int nin = 0;
    for (int c = 0; c < m->nchains; c++)
        nin += 3 + m->chains[c].n;
    ex_id *roots = xmalloc((size_t)nin * sizeof *roots);
    nin = 0;
    for (int c = 0; c < m->nchains; c++)
        for (int i = 0; i < 3 + m->chains[c].n; i++)
            roots[nin++] = m->chains[c].in[i];
    open_fn(g, "chain_in", KARGS("in"), "tyudp");
    emit_block(m->pool, g->out, g->dc, nin, roots, "in[%d]", NULL, "w");
    close_fn(g->out);
    free(roots);
    fprintf(g->out, "static const jnt_abi_chain %s_chains[] = {\n", g->px);
    nin = 0;
    for (int c = 0; c < m->nchains; c++) {
        fputs("    {", g->out);
        ex_put_cstr(g->out, m->chains[c].name);
        fprintf(g->out, ", %d, %d, %d},\n", m->chains[c].d0, m->chains[c].n, nin);
        nin += 3 + m->chains[c].n;
    }
    fputs("};\n", g->out);
}

/* Moving frames and time-varying damping of the blocks. */
static void gen_block_in(const gen_ctx *g)
{
    const ir_model *m = g->m;
    ex_id *roots = xmalloc(6 * (size_t)m->nblocks * sizeof *roots);
    for (int b = 0; b < m->nblocks; b++)
        memcpy(roots + 6 * b, m->blocks[b].in, sizeof m->blocks[b].in);
    open_fn(g, "block_in", KARGS("in"), "tyudp");
    emit_block(m->pool, g->out, g->dc, 6 * m->nblocks, roots, "in[%d]", NULL, "w");
    close_fn(g->out);
    free(roots);
}

/* Sliding interfaces: friction coefficients and the table (node data by offset). */
static void gen_ifaces(const gen_ctx *g)
{
    const ir_model *m = g->m;
    ex_pool *P = m->pool;
    ex_id *roots = xmalloc((size_t)m->nifaces * sizeof *roots);
    for (int f = 0; f < m->nifaces; f++)
        roots[f] = m->ifaces[f].mu;
    open_fn(g, "iface_mu", KARGS("mu"), "tyud");
    emit_block(P, g->out, g->dc, m->nifaces, roots, "mu[%d]", NULL, "w");
    close_fn(g->out);
    free(roots);
    fprintf(g->out, "static const jnt_abi_iface %s_ifaces[] = {\n", g->px);
    for (int f = 0; f < m->nifaces; f++) {
        const ir_iface *fc = &m->ifaces[f];
        fputs("    {", g->out);
        ex_put_cstr(g->out, fc->name);
        int varies = ex_depends(P, fc->mu, EX_T, 0) || ex_depends(P, fc->mu, EX_D, fc->d0 + 4);
        fprintf(g->out, ", %d, %d, %d, %d, %d, %d, %d, %ld, %ld},\n", fc->slave, fc->master,
                fc->nslave, fc->nmaster, fc->method, fc->d0, varies, fc->off[0], fc->off[1]);
    }
    fputs("};\n", g->out);
}

/* Outputs. */
static void gen_output(const gen_ctx *g)
{
    open_fn(g, "output", KARGS("out"), "tyudp");
    const ir_vars *o = &g->m->out;
    ex_id *roots = xmalloc(((size_t)o->n + 1) * sizeof *roots);
    for (int i = 0; i < o->n; i++)
        roots[i] = o->v[i].rhs;
    emit_roll(g, o->n, roots, "out", NULL);
    free(roots);
    close_fn(g->out);
}

static void gen_one(const ir_model *m, const diag_ctx *dc, FILE *out, const char *px,
                    const char *abi_name, int exported, gl_tables *tabs);

/* Multibody: the mass matrix's values, and the constraints' C_t, gamma and
 * C_q v + C_t. */
static void gen_multibody(const gen_ctx *g)
{
    const ir_model *m = g->m;
    open_fn(g, "mass", KARGS("out"), "tyudp");
    emit_roll(g, m->nq, m->mass, "out", NULL);
    close_fn(g->out);
    open_fn(g, "cons_rates", KARGS("out"), "tyudp");
    emit_roll(g, 3 * m->nc, m->crate, "out", NULL);
    close_fn(g->out);
}

/* Assembly pins: the residuals r and the gradient rows g (npin x nq,
 * row-major: zero, then the entries that are not), their names and kinds. */
static void gen_pins(const gen_ctx *g)
{
    const ir_model *m = g->m;
    int n = m->pin.n, ng = m->npin_g;
    char id[128];
    snprintf(id, sizeof id, "%s_pin_names", g->px);
    put_names(g->out, id, &m->pin);
    fprintf(g->out, "static const signed char %s_pin_rate[] = {", g->px);
    for (int k = 0; k < n; k++)
        fprintf(g->out, "%s%d,", k % 16 ? " " : "\n    ", m->pin_rate[k]);
    fputs("\n};\n", g->out);
    open_fn(g, "pins", "double t, const double *y, const double *p, double *r, double *g", "typ");
    fprintf(g->out, "    for (int i = 0; i < %d; i++)\n        g[i] = 0.0;\n", n * m->nq);
    ex_id *roots = xmalloc(((size_t)n + ng + 1) * sizeof *roots);
    char **lhs = xmalloc(((size_t)n + ng + 1) * sizeof *lhs);
    for (int k = 0; k < n; k++)
        roots[k] = m->pin.v[k].rhs, lhs[k] = xasprintf("r[%d]", k);
    for (int e = 0; e < ng; e++)
        roots[n + e] = m->pin_g[e], lhs[n + e] = xasprintf("g[%d]", m->pin_gi[e]);
    ex_emit(m->pool, g->out, n + ng, roots, (const char *const *)lhs, g->dc, "    ", "w");
    for (int k = 0; k < n + ng; k++)
        free(lhs[k]);
    free(lhs);
    free(roots);
    close_fn(g->out);
}

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
        open_fn(g, name, "const double *p, double *v", "p");
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
        close_fn(out);
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
    open_fn(g, "summary_window", "const double *p, double *v", "p");
    ex_id *roots = xmalloc((size_t)(2 * m->nsum) * sizeof *roots);
    char **lhs = xmalloc((size_t)(2 * m->nsum) * sizeof *lhs);
    for (int i = 0; i < m->nsum; i++) {
        roots[2 * i] = m->sum[i].flags & JNT_SUMMARY_FROM ? m->sum[i].from : ex_const(m->pool, 0);
        roots[2 * i + 1] = m->sum[i].flags & JNT_SUMMARY_TO ? m->sum[i].to : ex_const(m->pool, 0);
        lhs[2 * i] = xasprintf("v[%d]", 2 * i);
        lhs[2 * i + 1] = xasprintf("v[%d]", 2 * i + 1);
    }
    ex_emit(m->pool, out, 2 * m->nsum, roots, (const char *const *)lhs, g->dc, "    ", "w");
    close_fn(out);
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
 * are in the model data. They follow the model's own data (ir_data_fill).
 * Writes only when the data moved, so binding one model again is no race. */
static void gen_bind(const gen_ctx *g)
{
    FILE *out = g->out;
    const char *px = g->px;
    fprintf(out, "\n#line 1 \"<jnt>\"\nstatic void %s_bind(const double *data)\n{\n"
                 "    if (!data || %s_kd == data + %ld)\n        return;\n",
            px, px, g->m->ndata);
    static const char *const which[2] = {"colptr", "rowind"};
    int len[2] = {g->m->jac.ncol + 1, g->m->jac.nnz};
    for (int k = 0; k < 2; k++)
        if (g->jac_off[k] >= 0)
            fprintf(out, "    for (int i = 0; i < %d; i++)\n        %s_jac_%s[i] = (int)data[%ld + i];\n",
                    len[k], px, which[k], g->m->ndata + g->jac_off[k]);
    fprintf(out, "    %s_kd = data + %ld;\n}\n", px, g->m->ndata);
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
            m->ndata + (g->tabs ? g->tabs->n : 0));
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
    gen_params(&g);
    gen_settings(&g);
    gen_init(&g);
    gen_rhs(&g);
    gen_jac(&g);
    if (m->d.n)
        gen_update(&g);
    if (m->nchains)
        gen_chains(&g);
    if (nflag)
        gen_block_in(&g);
    if (m->nifaces)
        gen_ifaces(&g);
    gen_output(&g);
    if (m->nq)
        gen_multibody(&g);
    if (m->pin.n)
        gen_pins(&g);
    if (m->nan)
        gen_analyses(&g);
    if (m->nblocks)
        gen_blocks(&g);
    if (m->nsum)
        gen_summaries(&g);
    if (tabs && !tabs->n)
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
    if (tabs.n)
        fputs("static const double *m_kd; /* the loops' tables (m_bind) */\n", out);
    fwrite(body, 1, len, out);
    free(body);
    /* the tables follow the model's own data */
    free(m->kdata);
    m->kdata = tabs.v;
    m->nkdata = tabs.n;
    m->ndata += tabs.n;
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
