/*
 * scene_prog.c: the scene's probe programs (sema/scene_int.h): the values
 * of the model's expressions that a picture needs, evaluated at a state by
 * the runtime's VTK writer (jnt_scene.probe) or at rest by sema/scene.c.
 */
#include <math.h>
#include <stdlib.h>

#include "front/alloc.h"
#include "lower/expr.h"
#include "lower/expr_int.h"
#include "scene_int.h"

/* See scene_int.h. */
void scene_prog_free(void *pp)
{
    probe_prog *g = pp;
    if (!g)
        return;
    free(g->node);
    free(g->root);
    free(g->val);
    free(g);
}

/* See scene_int.h. */
int scene_prog_eval(void *pp, double t, const double *y, const double *u, const double *d,
                     const double *p, double *out)
{
    probe_prog *g = pp;
    double *val = g->val;
    for (int i = 0; i < g->n; i++) {
        const ex_node *x = &g->node[i];
        int na = ex_nargs(x->kind);
        double va = na >= 1 ? val[x->a] : 0, vb = na >= 2 ? val[x->b] : 0;
        double vc = na >= 3 ? val[x->c] : 0;
        switch (x->kind) {
        case EX_CONST: val[i] = x->v; break;
        case EX_T: val[i] = t; break;
        case EX_Y: val[i] = y[x->a]; break;
        case EX_D: val[i] = d[x->a]; break;
        case EX_P: val[i] = p[x->a]; break;
        case EX_UP: val[i] = u ? u[x->a] : NAN; break;
        case EX_UV: val[i] = u ? u[g->nu + x->a] : NAN; break;
        case EX_POW: /* a constant exponent as ex_eval takes it */
            val[i] = g->node[x->b].kind == EX_CONST ? ex_apply(EX_POW, va, vb, 0.0) : pow(va, vb);
            break;
        default: val[i] = ex_apply(x->kind, va, vb, vc); break;
        }
    }
    for (int k = 0; k < g->nroot; k++)
        out[k] = val[g->root[k]];
    return 0;
}

/* See scene_int.h. */
probe_prog *scene_prog_build(sema *S, int n, const ex_id *roots, int nu)
{
    ex_id *order;
    ex_map pos;
    ex_map_init(&pos, 64);
    int nn = ex_topo(S->pool, n, roots, &order, &pos);
    probe_prog *g = xcalloc(1, sizeof *g);
    g->n = nn, g->nroot = n, g->nu = nu;
    g->node = xmalloc(((size_t)nn + 1) * sizeof *g->node);
    g->root = xmalloc(((size_t)n + 1) * sizeof *g->root);
    g->val = xmalloc(((size_t)nn + 1) * sizeof *g->val);
    for (int i = 0; i < nn; i++) {
        ex_node x = *ex_get(S->pool, order[i]);
        int na = ex_nargs(x.kind);
        if (na >= 1)
            x.a = ex_map_get(&pos, x.a);
        if (na >= 2)
            x.b = ex_map_get(&pos, x.b);
        if (na >= 3)
            x.c = ex_map_get(&pos, x.c);
        g->node[i] = x;
    }
    for (int k = 0; k < n; k++)
        g->root[k] = ex_map_get(&pos, roots[k]);
    free(order);
    ex_map_free(&pos);
    return g;
}

/* See scene_int.h. */
void scene_rest_vec(sema *S, const ex_id e[3], const double *y, const double *d, const double *p,
              double x[3])
{
    probe_prog *g = scene_prog_build(S, 3, e, S->ngather);
    double *u = xcalloc(2 * (size_t)S->ngather + 1, sizeof *u);
    scene_prog_eval(g, 0, y, u, d, p, x);
    for (int c = 0; c < 3; c++)
        x[c] = isfinite(x[c]) ? x[c] : 0;
    free(u);
    scene_prog_free(g);
}
