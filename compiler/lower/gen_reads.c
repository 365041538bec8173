/*
 * gen_reads.c: what the kernels read of the state and the gather
 * (gen_reads.h). One walk over the output expressions' DAG: their leaves
 * name the states (EX_Y: a coordinate or its velocity), the discrete states
 * (EX_D: the accelerations a model with interfaces keeps from qdd0 on) and
 * the gathered points (EX_UP, EX_UV: rows of the basis) they read.
 */
#include <stdlib.h>

#include "gen_reads.h"
#include "front/alloc.h"
#include "expr_int.h"

/* See gen_reads.h. */
int gen_forces_read_state(const ir_model *m)
{
    static const ex_kind kinds[] = {EX_Y, EX_UP, EX_UV};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < m->y.n; i++)
            if (ex_depends(m->pool, m->y.v[i].rhs, kinds[k], -1))
                return 1;
        for (int i = 0; i < m->f.n; i++)
            if (ex_depends(m->pool, m->f.v[i].rhs, kinds[k], -1))
                return 1;
    }
    return 0;
}

/* 1 when an expression of roots (n) reads a gathered position (EX_UP),
 * | 2 when one reads a gathered velocity (EX_UV): one walk over their DAG. */
static int reads_u(const ir_model *m, int n, const ex_id *roots)
{
    if (n <= 0)
        return 0;
    ex_map pos;
    ex_id *order = NULL;
    ex_map_init(&pos, 64);
    int nn = ex_topo(m->pool, n, roots, &order, &pos), r = 0;
    for (int i = 0; i < nn && r != 3; i++) {
        ex_kind k = ex_get(m->pool, order[i])->kind;
        r |= k == EX_UP ? 1 : k == EX_UV ? 2 : 0;
    }
    free(order);
    ex_map_free(&pos);
    return r;
}

/* The halves group's kernels never read, as JNT_SKIP_* bits (skip_u for
 * the positions, skip_u << 1 for the velocities). */
static int skip_bits(int reads, int skip_u)
{
    return (reads & 1 ? 0 : skip_u) | (reads & 2 ? 0 : skip_u << 1);
}

/* See gen_reads.h. */
int gen_gather_skip(const ir_model *m)
{
    if (m->f.n == 0)
        return 0;
    const ir_jac *J = &m->jac;
    int nr = m->y.n + m->f.n + J->nnz + J->na + J->nb;
    int n = nr > m->d.n ? nr : m->d.n;
    n = n > m->out.n ? n : m->out.n;
    ex_id *roots = xmalloc(((size_t)n + 1) * sizeof *roots);
    int k = 0;
    for (int i = 0; i < m->y.n; i++)
        roots[k++] = m->y.v[i].rhs;
    for (int i = 0; i < m->f.n; i++)
        roots[k++] = m->f.v[i].rhs;
    for (int i = 0; i < J->nnz; i++)
        roots[k++] = J->val[i];
    for (int i = 0; i < J->na; i++)
        roots[k++] = J->a[i];
    for (int i = 0; i < J->nb; i++)
        roots[k++] = J->b[i];
    int skip = skip_bits(reads_u(m, k, roots), JNT_SKIP_RHS_U);
    for (int i = 0; i < m->d.n; i++)
        roots[i] = m->d.v[i].rhs;
    skip |= skip_bits(reads_u(m, m->d.n, roots), JNT_SKIP_UPDATE_U);
    for (int i = 0; i < m->out.n; i++)
        roots[i] = m->out.v[i].rhs;
    skip |= skip_bits(reads_u(m, m->out.n, roots), JNT_SKIP_OUTPUT_U);
    free(roots);
    return skip;
}

/* See gen_reads.h. */
int *gen_out_reads(const ir_model *m, int b)
{
    const ir_block *k = &m->blocks[b];
    int r = k->r, n = m->out.n;
    if (k->ffrf || k->nffrf || r <= 0)
        return NULL;
    char *need = xcalloc(3 * (size_t)r, 1);
    ex_id *roots = xmalloc(((size_t)n + 1) * sizeof *roots);
    for (int i = 0; i < n; i++)
        roots[i] = m->out.v[i].rhs;
    ex_map pos;
    ex_id *order = NULL;
    ex_map_init(&pos, 64);
    int nn = n > 0 ? ex_topo(m->pool, n, roots, &order, &pos) : 0;
    for (int i = 0; i < nn; i++) {
        const ex_node *x = ex_get(m->pool, order[i]);
        int e = -1;
        if (x->kind == EX_Y && x->a >= k->q0 && x->a < k->q0 + 2 * r)
            e = x->a - k->q0;
        else if (x->kind == EX_D && k->qdd0 >= 0 && x->a >= k->qdd0 && x->a < k->qdd0 + r)
            e = 2 * r + x->a - k->qdd0;
        if (e >= 0) {
            need[e] = 1;
            continue;
        }
        if ((x->kind == EX_UP || x->kind == EX_UV) && x->a >= k->g0 && x->a < k->g0 + k->ng) {
            /* the point's basis row (ng x r, column-major): its coordinates */
            int row = x->a - k->g0, base = x->kind == EX_UV ? r : 0;
            for (int c = 0; c < r; c++)
                if (k->rows[row + (size_t)k->ng * c] != 0)
                    need[base + c] = 1;
        }
    }
    int cnt = 0;
    for (int e = 0; e < 3 * r; e++)
        cnt += need[e];
    int *out = xmalloc(((size_t)cnt + 1) * sizeof *out);
    out[0] = cnt;
    for (int e = 0, j = 1; e < 3 * r; e++)
        if (need[e])
            out[j++] = e;
    free(order);
    ex_map_free(&pos);
    free(roots);
    free(need);
    return out;
}
