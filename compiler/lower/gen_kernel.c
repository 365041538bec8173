/*
 * gen_kernel.c: the kernels of one model (gen.c prints the rest): parameter
 * defaults, run settings, initial values, the right-hand side (ydot, then
 * the forces on the gathered points), its Jacobian's values with the chain
 * rule at the derivatives pass's cuts, the discrete updates, the inputs of
 * chains, blocks and interfaces, the outputs, the multibody mass matrix and
 * constraint rates, and the assembly pins. Each is straight-line C from the
 * model's expressions, rolled into loops over repeated instances when the
 * model has tables (gen_loop.h).
 *
 * It also holds the small printers gen.c uses too (a kernel's opening and
 * closing, tables of names and ints, ints appended to the loops' tables),
 * so that gen.c calls this file and never the other way.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "expr_int.h"
#include "gen_int.h"
#include "front/alloc.h"

/* See gen_int.h. */
void gen_put_names(FILE *out, const char *id, const ir_vars *vs)
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

/* See gen_int.h. */
void gen_put_ints(FILE *out, const char *id, const int *v, int n)
{
    fprintf(out, "static const int %s[] = {", id);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%d,", i % 16 ? " " : "\n    ", v[i]);
    if (n == 0)
        fputs("0", out);
    fputs("\n};\n", out);
}

/* See gen_int.h. */
void gen_open_fn(const gen_ctx *g, const char *name, const char *args, const char *unused)
{
    fprintf(g->out, "\n#line 1 \"<jnt>\"\nstatic int %s_%s(%s)\n{\n", g->px, name, args);
    for (const char *u = unused; *u; u++)
        fprintf(g->out, "    (void)%c;\n", *u);
    if (strstr(args, "const double *u,") && g->m->f.n)
        fprintf(g->out, "    const double *uv = u + %d;\n    (void)uv;\n", g->m->f.n);
}

/* See gen_int.h. */
void gen_close_fn(FILE *out)
{
    fputs("    return 0;\n}\n", out);
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

/* Runs of at least this many constant zero rows of the rhs are a memset. */
#define GEN_ZERO_RUN 8

/* 1 when e is the constant +0. */
static int is_zero(ex_pool *P, ex_id e)
{
    const ex_node *x = ex_get(P, e);
    return x->kind == EX_CONST && x->v == 0 && !signbit(x->v);
}

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
    char kd[64], ki[64];
    snprintf(kd, sizeof kd, "%s_kd", g->px);
    snprintf(ki, sizeof ki, "%s_ki", g->px);
    gen_loop_emit(g->m->pool, g->out, g->dc, n, roots, name, index, "w", g->tabs, kd, ki);
}

#define KARGS(last) "double t, const double *y, const double *u, const double *d, " \
                    "const double *p, double *" last

/* Parameter defaults, in declaration order. */
static void gen_params(const gen_ctx *g)
{
    gen_open_fn(g, "params", "double *p, const unsigned char *set", "");
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
    gen_close_fn(g->out);
}

/* Run settings. */
static void gen_settings(const gen_ctx *g)
{
    const ir_model *m = g->m;
    gen_open_fn(g, "settings", "const double *p, jnt_settings *s", "p");
    ex_id sr[11] = {m->t0, m->t_end, m->h, m->rtol, m->atol, m->out_every, m->h_max, m->alpha,
                    m->rho_inf, m->assemble_tol, m->max_order};
    static const char *const sl[11] = {"s->t0", "s->t_end", "s->h", "s->rtol", "s->atol",
                                       "s->out_every", "s->h_max", "s->alpha", "s->rho_inf",
                                       "s->assemble_tol", "s->max_order"};
    ex_emit(m->pool, g->out, 11, sr, sl, g->dc, "    ", "w");
    gen_close_fn(g->out);
}

/* Initial values. */
static void gen_init(const gen_ctx *g)
{
    gen_open_fn(g, "init", "const double *p, double *y, double *d", "pyd");
    emit_vars(g->m->pool, g->out, g->dc, &g->m->y, 1, "y[%d]", "w");
    emit_vars(g->m->pool, g->out, g->dc, &g->m->d, 1, "d[%d]", "v");
    gen_close_fn(g->out);
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
    gen_open_fn(g, "rhs", KARGS("out"), "tyudp");
    for (int k = 0; k < nrun; k++)
        fprintf(g->out, "    memset(out + %d, 0, %d * sizeof(double));\n", run[2 * k],
                run[2 * k + 1]);
    emit_roll(g, n, roots, "out", nrun ? index : NULL);
    free(run);
    free(index);
    free(roots);
    free(all);
    gen_close_fn(g->out);
}

/* The Jacobian's values, in the order of its pattern. With cuts (deriv_cols.c):
 * the entries' direct parts, the chain rule's factors (a) and the cuts'
 * slots' direct parts (b) into one local array, then the chain rule
 * x[dst] += a[i] x[src] as one loop over a table of triples in order (model
 * data, or a literal for a model without tables): the cuts' slots first,
 * then the entries. */
static void gen_jac(const gen_ctx *g)
{
    const ir_jac *J = &g->m->jac;
    gen_open_fn(g, "jac", KARGS("jv"), "tyudp");
    if (!J->na) {
        emit_roll(g, J->nnz, J->val, "jv", NULL);
        gen_close_fn(g->out);
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
        long off = gl_tab_ints(g->tabs, tri, 3 * J->nchain);
        fprintf(g->out, "    const int *T = %s_ki + %ld;\n", g->px, off);
    } else {
        char id[64];
        snprintf(id, sizeof id, "%s_jac_chain", g->px);
        gen_put_ints(g->out, id, tri, 3 * J->nchain);
        fprintf(g->out, "    const int *T = %s;\n", id);
    }
    /* a factor 0 adds nothing, also where the slot is not finite: a cut
     * in the branch an 'if' did not take (the energy-consistent form's
     * unset last state, -1e30) has slots of no meaning, which the unrolled
     * derivative never computed */
    fprintf(g->out, "    for (int i = 0; i < %d; i++) { /* the chain rule at the cuts (deriv.c) */\n"
                    "        double a = jx[T[3 * i + 1]];\n"
                    "        if (a != 0.0)\n"
                    "            jx[T[3 * i]] += a * jx[T[3 * i + 2]];\n"
                    "    }\n"
                    "    for (int i = 0; i < %d; i++)\n        jv[i] = jx[i];\n",
            J->nchain, J->nnz);
    free(tri);
    free(roots);
    gen_close_fn(g->out);
}

/* Discrete updates: all read the old values, then all are stored. */
static void gen_update(const gen_ctx *g)
{
    int nd = g->m->d.n;
    gen_open_fn(g, "update",
                "double t, const double *y, const double *u, double *d, const double *p", "tyudp");
    fprintf(g->out, "    double dn[%d];\n", nd);
    ex_id *roots = xmalloc(((size_t)nd + 1) * sizeof *roots);
    for (int i = 0; i < nd; i++)
        roots[i] = g->m->d.v[i].rhs;
    emit_roll(g, nd, roots, "dn", NULL);
    free(roots);
    fprintf(g->out, "#line 1 \"<jnt>\"\n    for (int i = 0; i < %d; i++)\n        d[i] = dn[i];\n",
            nd);
    gen_close_fn(g->out);
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
    gen_open_fn(g, "chain_in", KARGS("in"), "tyudp");
    emit_block(m->pool, g->out, g->dc, nin, roots, "in[%d]", NULL, "w");
    gen_close_fn(g->out);
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
    gen_open_fn(g, "block_in", KARGS("in"), "tyudp");
    emit_block(m->pool, g->out, g->dc, 6 * m->nblocks, roots, "in[%d]", NULL, "w");
    gen_close_fn(g->out);
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
    gen_open_fn(g, "iface_mu", KARGS("mu"), "tyud");
    emit_block(P, g->out, g->dc, m->nifaces, roots, "mu[%d]", NULL, "w");
    gen_close_fn(g->out);
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
    gen_open_fn(g, "output", KARGS("out"), "tyudp");
    const ir_vars *o = &g->m->out;
    ex_id *roots = xmalloc(((size_t)o->n + 1) * sizeof *roots);
    for (int i = 0; i < o->n; i++)
        roots[i] = o->v[i].rhs;
    emit_roll(g, o->n, roots, "out", NULL);
    free(roots);
    gen_close_fn(g->out);
}

/* Multibody: the mass matrix's values, and the constraints' C_t, gamma and
 * C_q v + C_t. */
static void gen_multibody(const gen_ctx *g)
{
    const ir_model *m = g->m;
    gen_open_fn(g, "mass", KARGS("out"), "tyudp");
    emit_roll(g, m->nq, m->mass, "out", NULL);
    gen_close_fn(g->out);
    gen_open_fn(g, "cons_rates", KARGS("out"), "tyudp");
    emit_roll(g, 3 * m->nc, m->crate, "out", NULL);
    gen_close_fn(g->out);
}

/* Assembly pins: the residuals r and the gradient rows g (npin x nq,
 * row-major: zero, then the entries that are not), their names and kinds. */
static void gen_pins(const gen_ctx *g)
{
    const ir_model *m = g->m;
    int n = m->pin.n, ng = m->npin_g;
    char id[128];
    snprintf(id, sizeof id, "%s_pin_names", g->px);
    gen_put_names(g->out, id, &m->pin);
    fprintf(g->out, "static const signed char %s_pin_rate[] = {", g->px);
    for (int k = 0; k < n; k++)
        fprintf(g->out, "%s%d,", k % 16 ? " " : "\n    ", m->pin_rate[k]);
    fputs("\n};\n", g->out);
    gen_open_fn(g, "pins", "double t, const double *y, const double *p, double *r, double *g",
                "typ");
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
    gen_close_fn(g->out);
}

/* See gen_int.h. */
void gen_kernels(const gen_ctx *g, int nflag)
{
    const ir_model *m = g->m;
    gen_params(g);
    gen_settings(g);
    gen_init(g);
    gen_rhs(g);
    gen_jac(g);
    if (m->d.n)
        gen_update(g);
    if (m->nchains)
        gen_chains(g);
    if (nflag)
        gen_block_in(g);
    if (m->nifaces)
        gen_ifaces(g);
    gen_output(g);
    if (m->nq)
        gen_multibody(g);
    if (m->pin.n)
        gen_pins(g);
}
