/*
 * ir.c: the flat model's containers.
 */
#include <stdlib.h>

#include "ir.h"
#include "util.h"

/* Append a variable; returns its index. */
int ir_add(ir_vars *vs, char *name, ex_id rhs, ex_id init, jnt_dim dim, jnt_loc loc)
{
    XGROW(vs->v, vs->cap, vs->n);
    vs->v[vs->n] = (ir_var){name, rhs, init, dim, loc};
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
    vars_free(&m->y);
    vars_free(&m->d);
    vars_free(&m->p);
    vars_free(&m->out);
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
    for (int i = 0; i < m->nblocks; i++) {
        free(m->blocks[i].name);
        free(m->blocks[i].minv);
        free(m->blocks[i].minv_k);
        free(m->blocks[i].minv_c);
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
