/*
 * ir.c: the flat model's containers.
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "jnt/scene.h"
#include "front/alloc.h"

/* Append a variable; returns its index. */
int ir_add(ir_vars *vs, char *name, ex_id rhs, ex_id init, jnt_dim dim, jnt_loc loc)
{
    XGROW(vs->v, vs->cap, vs->n);
    vs->v[vs->n] = (ir_var){name, rhs, init, dim, loc, 0};
    return vs->n++;
}

static void vars_free(ir_vars *vs)
{
    for (int i = 0; i < vs->n; i++)
        free(vs->v[i].name);
    free(vs->v);
    *vs = (ir_vars){0};
}

/* Release everything the model owns. */
void ir_free(ir_model *m)
{
    if (!m)
        return;
    free(m->mass);
    free(m->kdata);
    free(m->pos_mass);
    free(m->pos_y);
    free(m->pos_kind);
    for (char **p = m->inputs; p && *p; p++)
        free(*p);
    free(m->inputs);
    jnt_scene_free(m->scene);
    free(m->crate);
    vars_free(&m->y);
    vars_free(&m->d);
    vars_free(&m->p);
    vars_free(&m->out);
    vars_free(&m->f);
    vars_free(&m->pin);
    free(m->pin_rate);
    free(m->pin_g);
    free(m->pin_gi);
    free(m->jac.colptr);
    free(m->jac.rowind);
    free(m->jac.val);
    free(m->jac.a);
    free(m->jac.b);
    free(m->jac.chain);
    for (int i = 0; i < m->nan; i++) {
        free(m->an[i].name);
        for (int c = 0; c < m->an[i].ncol; c++)
            free(m->an[i].cols[c]);
        free(m->an[i].cols);
        free(m->an[i].table);
        if (m->an[i].sub) {
            ir_free(m->an[i].sub);
            free(m->an[i].sub);
        }
    }
    free(m->an);
    for (int i = 0; i < m->nsum; i++)
        free(m->sum[i].name);
    free(m->sum);
    for (int i = 0; i < m->nblocks; i++) {
        free(m->blocks[i].name);
        free(m->blocks[i].minv);
        free(m->blocks[i].minv_k);
        free(m->blocks[i].minv_c);
        free(m->blocks[i].rows);
        free(m->blocks[i].ffrf);
    }
    free(m->blocks);
    for (int i = 0; i < m->nchains; i++) {
        free(m->chains[i].name);
        free(m->chains[i].in);
    }
    free(m->chains);
    for (int i = 0; i < m->nifaces; i++) {
        free(m->ifaces[i].name);
        free(m->ifaces[i].x);
        free(m->ifaces[i].rows);
    }
    free(m->ifaces);
    ex_pool_free(m->pool);
    free(m->name);
    free(m->source);
    free(m->output_file);
    *m = (ir_model){0};
}

/* See ir.h: per block minv, minv_k, minv_c, rows (and a flexible body's
 * invariants); per interface x, rows. */
/* The doubles of block k's invariants: flexible2d's or flexible3d's. */
static long ir_ffrf_size(const ir_block *k)
{
    if (k->flags & JNT_BLOCK_FFRF_SPARSE)
        return k->nffrf;
    return k->flags & JNT_BLOCK_FFRF3 ? JNT_FFRF3_SIZE(k->r) : JNT_FFRF_SIZE(k->r);
}

void ir_data_layout(ir_model *m)
{
    long n = 0;
    for (int b = 0; b < m->nblocks; b++) {
        ir_block *k = &m->blocks[b];
        int sp = (k->flags & JNT_BLOCK_FFRF_SPARSE) != 0;
        long rr = sp ? 0 : (long)k->r * k->r;
        for (int j = 0; j < 3; j++)
            k->off[j] = n, n += rr;
        k->off[3] = n, n += (long)k->ng * (sp ? 1 : k->r);
        k->off[4] = k->ffrf ? n : 0;
        n += k->ffrf ? ir_ffrf_size(k) : 0;
    }
    for (int f = 0; f < m->nifaces; f++) {
        ir_iface *fc = &m->ifaces[f];
        int rs = m->blocks[fc->slave].r, rm = m->blocks[fc->master].r;
        fc->off[0] = n, n += 2L * (fc->nslave + fc->nmaster);
        fc->off[1] = n, n += 2L * ((long)fc->nslave * rs + (long)fc->nmaster * rm);
    }
    m->ndata = n;
}

/* See ir.h. */
void ir_data_fill(const ir_model *m, double *dst)
{
    for (int b = 0; b < m->nblocks; b++) {
        const ir_block *k = &m->blocks[b];
        int sp = (k->flags & JNT_BLOCK_FFRF_SPARSE) != 0;
        size_t rr = (size_t)k->r * k->r;
        if (!sp) {
            memcpy(dst + k->off[0], k->minv, rr * sizeof *dst);
            memcpy(dst + k->off[1], k->minv_k, rr * sizeof *dst);
            memcpy(dst + k->off[2], k->minv_c, rr * sizeof *dst);
        }
        if (k->ng)
            memcpy(dst + k->off[3], k->rows, (size_t)k->ng * (sp ? 1 : k->r) * sizeof *dst);
        if (k->ffrf)
            memcpy(dst + k->off[4], k->ffrf, (size_t)ir_ffrf_size(k) * sizeof *dst);
    }
    for (int f = 0; f < m->nifaces; f++) {
        const ir_iface *fc = &m->ifaces[f];
        memcpy(dst + fc->off[0], fc->x, (size_t)(fc->off[1] - fc->off[0]) * sizeof *dst);
        long end = f + 1 < m->nifaces ? m->ifaces[f + 1].off[0] : m->ndata - m->nkdata;
        memcpy(dst + fc->off[1], fc->rows, (size_t)(end - fc->off[1]) * sizeof *dst);
    }
    if (m->nkdata)
        memcpy(dst + m->ndata - m->nkdata, m->kdata, (size_t)m->nkdata * sizeof *dst);
}
