/*
 * gen_loop.c: instances of one shape emitted as one loop (gen_loop.h).
 *
 * gen_loop_shape.c finds the loops: the instances of the kernel's roots
 * (roots that share an element's own subexpressions), each one's shape (its
 * DAG with the indices, constants and entries it reads and writes as slots)
 * and the runs of one shape; the sums of many terms (sum(i in 1..n, ...))
 * are loops too. This file prints them: the nodes hoisted out of the loops
 * (read by many instances) and the roots left unrolled by ex_emit, then
 * each run as one loop over a table of its members' varying slots, in the
 * model data (the constants as doubles, K; the indices as ints, I);
 * hoisted nodes are themselves rolled, up to GL_DEPTH levels.
 *
 * Bit for bit: the loop body is the first instance's DAG, printed by the
 * same printer, with each slot read from the table instead of written as a
 * literal index or constant; a constant read from the table is the same
 * double.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_loop.h"
#include "gen_loop_int.h"
#include "front/alloc.h"

/* Append v to the loops' tables. */
static void tab_push(gl_tables *t, double v)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->v = xrealloc(t->v, (size_t)t->cap * sizeof *t->v);
    }
    t->v[t->n++] = v;
}

/* See gen_loop.h. */
long gl_tab_ints(gl_tables *t, const int *v, long n)
{
    long off = t->ni;
    if (t->ni + n > t->capi) {
        t->capi = t->ni + n + 1024;
        t->ix = xrealloc(t->ix, (size_t)t->capi * sizeof *t->ix);
    }
    for (long i = 0; i < n; i++)
        t->ix[t->ni++] = v[i];
    return off;
}

/* The kernel argument a leaf of kind `kind` reads. */
static const char *var_array(int kind)
{
    switch (kind) {
    case EX_Y: return "y";
    case EX_D: return "d";
    case EX_P: return "p";
    case EX_UP: return "u";
    default: return "uv";
    }
}

/* Emit group gr as one loop over its members' table. */
static void emit_group(gl *g, FILE *out, const diag_ctx *dc, const gl_inst *ins,
                       const int *members, const gl_group *gr, const int *rs, const char *name,
                       const ex_map *hoist, const char *hname, gl_tables *tabs, const char *kd,
                       const char *ki, int gno, const char *sum)
{
    const gl_inst *t = &ins[members[gr->m0]];
    size_t ns = t->ns;
    int *col = xmalloc((ns + 1) * sizeof *col);
    int ncol = 0, nicol = 0; /* the varying constants (K) and indices (I) */
    for (size_t s = 0; s < ns; s++) {
        double v0 = g->sv[t->s0 + s];
        col[s] = -1;
        for (int m = 1; m < gr->nm; m++) {
            double v = g->sv[ins[members[gr->m0 + m]].s0 + s];
            if (memcmp(&v, &v0, sizeof v) != 0) {
                col[s] = g->sk[t->s0 + s] == SL_CONST ? ncol++ : nicol++;
                break;
            }
        }
    }
    /* the tables: one row per member, its varying constants, and one of
     * its varying indices (entries written, states and parameters read,
     * hoisted nodes' places) */
    long off = tabs->n, offi = tabs->ni;
    for (int m = 0; m < gr->nm; m++) {
        const gl_inst *in = &ins[members[gr->m0 + m]];
        for (size_t s = 0; s < ns; s++) {
            if (col[s] < 0)
                continue;
            double v = g->sv[in->s0 + s];
            int kind = g->sk[in->s0 + s];
            if (kind == SL_CONST) {
                tab_push(tabs, v);
                continue;
            }
            int ix = kind == SL_HOIST ? ex_map_get(hoist, (int)v) : (int)v;
            gl_tab_ints(tabs, &ix, 1);
        }
    }
    /* the texts of the template's slots and entries */
    char **text = xmalloc((ns + 1) * sizeof *text);
    char **lhs = xmalloc(((size_t)t->nr + 1) * sizeof *lhs);
    ex_map slot;
    ex_map_init(&slot, 64);
    int ntext = 0, nl = 0;
    for (size_t s = 0; s < ns; s++) {
        int kind = g->sk[t->s0 + s];
        double v = g->sv[t->s0 + s];
        int c = col[s];
        if (kind == SL_LHS) {
            lhs[nl++] = c < 0 ? xasprintf("%s[%d]", name, (int)v)
                              : xasprintf("%s[I[%d]]", name, c);
            continue;
        }
        if (kind == SL_HOIST) {
            text[ntext] = c < 0 ? xasprintf("%s[%d]", hname, ex_map_get(hoist, (int)v))
                                : xasprintf("%s[I[%d]]", hname, c);
        } else if (c < 0) {
            continue; /* the same in every member: written as it is */
        } else if (kind == SL_CONST) {
            text[ntext] = xasprintf("K[%d]", c);
        } else {
            text[ntext] = xasprintf("%s[I[%d]]", var_array(kind / 16), c);
        }
        ex_map_put(&slot, g->sn[t->s0 + s], ntext++);
    }
    ex_id *troots = xmalloc(((size_t)t->nr + 1) * sizeof *troots);
    for (int k = 0; k < t->nr; k++) {
        int r = rs[t->r0 + k];
        troots[k] = r >= 0 ? g->roots[r] : g->order[-1 - r];
    }
    if (sum)
        lhs[nl++] = xstrdup("const double rt"); /* a term, added to the sum */
    fprintf(out, "#line 1 \"<jnt>\"\n    { /* %d %s */\n", gr->nm, sum ? "terms" : "instances");
    if (nicol)
        fprintf(out, "        const int *I = %s + %ld;\n", ki, offi);
    if (ncol)
        fprintf(out, "        const double *K = %s + %ld;\n", kd, off);
    fprintf(out, "        for (int i = 0; i < %d; i++", gr->nm);
    if (nicol)
        fprintf(out, ", I += %d", nicol);
    if (ncol)
        fprintf(out, ", K += %d", ncol);
    fputs(") {\n", out);
    char px[32];
    snprintf(px, sizeof px, "k%d_", gno);
    ex_emit_slots(g->P, out, t->nr, troots, (const char *const *)lhs, dc, "            ", px,
                  &slot, (const char *const *)text);
    if (sum)
        fprintf(out, "            %s += rt;\n", sum);
    fputs("#line 1 \"<jnt>\"\n        }\n    }\n", out);
    for (int k = 0; k < ntext; k++)
        free(text[k]);
    for (int k = 0; k < nl; k++)
        free(lhs[k]);
    free(text);
    free(lhs);
    free(troots);
    free(col);
    ex_map_free(&slot);
}

/* gen_loop_emit at depth `depth`: the hoisted nodes are the roots of the
 * next level, into gh<depth + 1>[k]. */
static void emit_level(ex_pool *P, FILE *out, const diag_ctx *dc, int n, const ex_id *roots,
                       const char *name, const int *index, const char *prefix, gl_tables *tabs,
                       const char *kd, const char *ki, int depth)
{
    if (n == 0)
        return;
    gl g;
    gl_open(&g, P, n, roots);
    gl_plan plan;
    gl_plan_make(&g, n, index, tabs != NULL, &plan);
    const gl_inst *ins = plan.ins;
    const gl_group *grp = plan.grp;
    const gl_sum *sums = plan.sums;
    const int *members = plan.members, *rs = plan.rs;
    const unsigned char *rolled = plan.rolled;
    int ngrp = plan.ngrp, nsum = plan.nsum;

    /* the hoisted nodes the loops read, in the order first read */
    ex_map hoist;
    ex_map_init(&hoist, 64);
    ex_id *hn = NULL;
    int nh = 0, caph = 0;
    for (int q = 0; q < ngrp; q++)
        for (int m = 0; m < grp[q].nm; m++) {
            const gl_inst *in = &ins[members[grp[q].m0 + m]];
            for (size_t s = 0; s < in->ns; s++) {
                int i = (int)g.sv[in->s0 + s];
                if (g.sk[in->s0 + s] != SL_HOIST || ex_map_get(&hoist, i) >= 0)
                    continue;
                if (nh == caph) {
                    caph = caph ? 2 * caph : 64;
                    hn = xrealloc(hn, (size_t)caph * sizeof *hn);
                }
                ex_map_put(&hoist, i, nh);
                hn[nh++] = g.order[i];
            }
        }

    /* the unrolled roots and the hoisted nodes, then the loops */
    int np = 0;
    for (int r = 0; r < n; r++)
        np += !rolled[r];
    ex_id *pr = xmalloc(((size_t)np + nh + 1) * sizeof *pr);
    char **pl = xmalloc(((size_t)np + nh + 1) * sizeof *pl);
    int k = 0;
    for (int r = 0; r < n; r++)
        if (!rolled[r]) {
            pr[k] = roots[r];
            pl[k++] = xasprintf("%s[%d]", name, index ? index[r] : r);
        }
    char hname[16], sumpx[16], hpx[16];
    snprintf(hname, sizeof hname, "gh%d", depth + 1);
    snprintf(sumpx, sizeof sumpx, "rd%d_", depth);
    snprintf(hpx, sizeof hpx, "h%d_", depth + 1);
    int deeper = nh && depth + 1 < GL_DEPTH;
    for (int h = 0; h < nh && !deeper; h++) {
        pr[k] = hn[h];
        pl[k++] = xasprintf("%s[%d]", hname, h);
    }
    /* the sums, then what reads them */
    ex_map sumslot;
    ex_map_init(&sumslot, 16);
    char **sumtext = xmalloc(((size_t)nsum + nh + 1) * sizeof *sumtext);
    int nst = 0;
    for (int q = 0; q < nsum; q++) {
        if (!sums[q].nt)
            continue;
        sumtext[nst] = xasprintf("%s%d", sumpx, q);
        fprintf(out, "    double %s = -0.0; /* -0.0 + x is x: the sum as written */\n",
                sumtext[nst]);
        gl_group sg = {sums[q].t0, sums[q].nt, 0};
        emit_group(&g, out, dc, plan.tin, plan.tmem, &sg, plan.ts, name, &hoist, hname, tabs, kd,
                   ki, 0, sumtext[nst]);
        ex_map_put(&sumslot, g.order[sums[q].top], nst++);
    }
    if (nh)
        fprintf(out, "    double %s[%d];\n", hname, nh);
    if (deeper) { /* the hoisted nodes: instances of their own, read (not
                     computed again) by the unrolled roots */
        emit_level(P, out, dc, nh, hn, hname, NULL, hpx, tabs, kd, ki, depth + 1);
        for (int h = 0; h < nh; h++)
            if (ex_map_get(&sumslot, hn[h]) < 0) {
                sumtext[nst] = xasprintf("%s[%d]", hname, h);
                ex_map_put(&sumslot, hn[h], nst++);
            }
    }
    if (k)
        ex_emit_slots(P, out, k, pr, (const char *const *)pl, dc, "    ", prefix,
                      nst ? &sumslot : NULL, (const char *const *)sumtext);
    for (int q = 0; q < nst; q++)
        free(sumtext[q]);
    free(sumtext);
    ex_map_free(&sumslot);
    for (int q = 0; q < ngrp; q++)
        emit_group(&g, out, dc, ins, members, &grp[q], rs, name, &hoist, hname, tabs, kd, ki,
                   q, NULL);
    for (int j = 0; j < k; j++)
        free(pl[j]);
    free(pl);
    free(pr);
    free(hn);
    ex_map_free(&hoist);
    gl_plan_free(&plan);
    gl_close(&g);
}

/* See gen_loop.h. */
void gen_loop_emit(ex_pool *P, FILE *out, const diag_ctx *dc, int n, const ex_id *roots,
                   const char *name, const int *index, const char *prefix, gl_tables *tabs,
                   const char *kd, const char *ki)
{
    emit_level(P, out, dc, n, roots, name, index, prefix, tabs, kd, ki, 0);
}
