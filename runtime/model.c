/*
 * model.c: model lifecycle and name lookups.
 */
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "model.h"

/* Structural checks of a generated model: sizes, name tables, kernels. */
static int abi_valid(const jnt_abi_model *a)
{
    if (a->abi_version != JNT_ABI_VERSION)
        return 0;
    if (a->ny < 0 || a->nd < 0 || a->np < 0 || a->nout < 0 || a->jac_nnz < 0)
        return 0;
    if ((!a->integrator && a->nanalyses == 0) || !a->params || !a->settings || !a->init || !a->rhs || !a->output)
        return 0;
    if (a->nd > 0 && !a->update)
        return 0;
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        if (k->r < 1 || k->r > JNT_MAX_BLOCK || k->q0 < 0 || k->q0 + 2 * k->r > a->ny ||
            !k->minv || !k->minv_k || !k->minv_c || k->qdd0 < -1 ||
            (k->qdd0 >= 0 && k->qdd0 + k->r > a->nd))
            return 0;
    }
    if (a->nchains < 0 || (a->nchains > 0 && (!a->chains || !a->chain_in)))
        return 0;
    if (a->nifaces < 0 || (a->nifaces > 0 && (!a->ifaces || !a->iface_mu || a->nblocks < 1)))
        return 0;
    for (int b = 0; b < a->nblocks; b++)
        if (a->blocks[b].flags && !a->block_in)
            return 0;
    for (int f = 0; f < a->nifaces; f++) {
        const jnt_abi_iface *k = &a->ifaces[f];
        if (k->slave < 0 || k->slave >= a->nblocks || k->master < 0 || k->master >= a->nblocks ||
            k->nslave < 1 || k->nmaster < 2 || k->method < JNT_IFACE_BASIC ||
            k->method > JNT_IFACE_FILM || k->d0 < 0 ||
            k->d0 + k->nslave * JNT_IFACE_NCONTACT > a->nd || !k->x || !k->rows)
            return 0;
    }
    for (int c = 0; c < a->nchains; c++) {
        const jnt_abi_chain *k = &a->chains[c];
        if (k->n < 2 || k->d0 < 0 || k->d0 + k->n + CHAIN_EXTRA > a->nd || k->in0 < 0)
            return 0;
    }
    if ((a->ny > 0 && !a->y_names) || (a->nd > 0 && !a->d_names) ||
        (a->np > 0 && (!a->p_names || !a->p_dims)) || (a->nout > 0 && !a->out_names))
        return 0;
    if (a->jac && (!a->jac_colptr || (a->jac_nnz > 0 && !a->jac_rowind)))
        return 0;
    if (a->jac) {
        if (a->jac_colptr[0] != 0 || a->jac_colptr[a->ny] != a->jac_nnz)
            return 0;
        for (int k = 0; k < a->jac_nnz; k++)
            if (a->jac_rowind[k] < 0 || a->jac_rowind[k] >= a->ny)
                return 0;
    }
    return 1;
}

/* See model.h. */
int jnt_model_wrap(const jnt_abi_model *abi, void *owner, void (*owner_free)(void *),
                   jnt_model **out)
{
    if (!out)
        return JNT_ERR_USAGE;
    *out = NULL;
    if (!abi)
        return JNT_ERR_USAGE;
    if (!abi_valid(abi))
        return JNT_ERR_MODEL;
    jnt_model *m = malloc(sizeof *m);
    if (!m)
        return JNT_ERR_NOMEM;
    m->abi = abi;
    m->owner = owner;
    m->owner_free = owner_free;
    *out = m;
    return JNT_OK;
}

/* Wrap a model linked into the program; the model borrows abi. */
int jnt_model_from_abi(const jnt_abi_model *abi, jnt_model **out)
{
    return jnt_model_wrap(abi, NULL, NULL, out);
}

/* Free a model and release its owner (the JIT state); NULL is allowed. */
void jnt_model_free(jnt_model *m)
{
    if (!m)
        return;
    if (m->owner_free)
        m->owner_free(m->owner);
    free(m);
}

/* The generated ABI object of a model (owned by the model). */
const jnt_abi_model *jnt_model_abi(const jnt_model *m)
{
    return m ? m->abi : NULL;
}

/* See model.h. */
int model_find_name(const char *const *names, int n, const char *name)
{
    if (!names || !name)
        return -1;
    for (int i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* Index of a parameter by name, or -1. */
int jnt_param_index(const jnt_model *m, const char *name)
{
    return m ? model_find_name(m->abi->p_names, m->abi->np, name) : -1;
}

/* Index of an output column by name, or -1. */
int jnt_output_index(const jnt_model *m, const char *name)
{
    return m ? model_find_name(m->abi->out_names, m->abi->nout, name) : -1;
}

/* Index of a continuous state by name, or -1. */
int jnt_state_index(const jnt_model *m, const char *name)
{
    return m ? model_find_name(m->abi->y_names, m->abi->ny, name) : -1;
}
