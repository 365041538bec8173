/*
 * model.c: model lifecycle and name lookups.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "model.h"

/* Does [off, off + n) lie in the model data? */
static int in_data(const jnt_abi_model *a, long off, long n)
{
    return off >= 0 && n >= 0 && off + n <= a->ndata;
}

/* The multibody fields (abi.h): y = [q, v, z, lambda] fits in ny, M's
 * pattern is a valid nq x nq CSC pattern, the kernels (mass, cons_rates and
 * the Jacobian, whose values build the Newton matrix) are present; pins
 * only with coordinates, with their names, kinds (0 or 1) and kernel. */
static int multibody_valid(const jnt_abi_model *a)
{
    if (a->npins < 0 || (a->npins > 0 && (a->nq == 0 || !a->pin_names || !a->pin_rate ||
                                          !a->pins)))
        return 0;
    for (int k = 0; k < a->npins; k++)
        if (!a->pin_names[k] || (a->pin_rate[k] != 0 && a->pin_rate[k] != 1))
            return 0;
    if (a->nq == 0)
        return 1;
    if (2 * a->nq + a->nc > a->ny || !a->mass || !a->cons_rates || !a->jac ||
        a->mass_nnz < 0 || !a->mass_colptr || (a->mass_nnz > 0 && !a->mass_rowind))
        return 0;
    if (a->mass_colptr[0] != 0 || a->mass_colptr[a->nq] != a->mass_nnz)
        return 0;
    for (int j = 0; j < a->nq; j++)
        if (a->mass_colptr[j + 1] < a->mass_colptr[j])
            return 0;
    for (int k = 0; k < a->mass_nnz; k++)
        if (a->mass_rowind[k] < 0 || a->mass_rowind[k] >= a->nq)
            return 0;
    return 1;
}

/* Structural checks of a generated model: sizes, name tables, kernels. */
static int abi_valid(const jnt_abi_model *a, const double *data)
{
    if (a->abi_version != JNT_ABI_VERSION)
        return 0;
    if (a->ny < 0 || a->nd < 0 || a->np < 0 || a->nout < 0 || a->jac_nnz < 0 || a->nu < 0 ||
        a->ndata < 0 || (a->ndata > 0 && !data))
        return 0;
    if ((!a->integrator && a->nanalyses == 0) || !a->params || !a->settings || !a->init || !a->rhs || !a->output)
        return 0;
    if (a->nd > 0 && !a->update)
        return 0;
    for (int b = 0; b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        /* an unreduced flexible2d body's sparse block (abi.h): no minv*,
         * one row entry per point, its invariants' size in their nnz */
        int sp = (k->flags & JNT_BLOCK_FFRF_SPARSE) != 0;
        long rr = sp ? 0 : (long)k->r * k->r;
        if (k->r < 1 || k->r > (sp ? JNT_MAX_SPARSE : JNT_MAX_BLOCK) || k->q0 < 0 ||
            k->q0 + 2 * k->r > a->ny || !in_data(a, k->minv, rr) || !in_data(a, k->minv_k, rr) ||
            !in_data(a, k->minv_c, rr) || k->g0 < 0 || k->ng < 0 || k->g0 + k->ng > a->nu ||
            !in_data(a, k->rows, (long)k->ng * (sp ? 1 : k->r)) || k->qdd0 < -1 ||
            (k->qdd0 >= 0 && k->qdd0 + k->r > a->nd))
            return 0;
        if (sp && (!(k->flags & JNT_BLOCK_FFRF) || a->nq == 0 || k->frame < 0 ||
                   k->frame + 3 > a->nq || k->q0 + k->r > a->nq ||
                   !in_data(a, k->ffrf, JNT_FFRF_SP_SIZE(k->r, 0)) ||
                   !(data[k->ffrf + 4] >= 0 && data[k->ffrf + 4] <= (double)k->r * k->r) ||
                   !in_data(a, k->ffrf, JNT_FFRF_SP_SIZE(k->r, (long)data[k->ffrf + 4]))))
            return 0;
        for (int o = 0; sp && o < a->nblocks; o++) /* flex.c's sparse path: 2D bodies only */
            if (a->blocks[o].flags & JNT_BLOCK_FFRF3)
                return 0;
        if (sp)
            continue;
        if ((k->flags & JNT_BLOCK_FFRF) &&
            (a->nq == 0 || k->frame < 0 || k->frame + 3 > a->nq || k->q0 + k->r > a->nq ||
             !in_data(a, k->ffrf, JNT_FFRF_SIZE(k->r))))
            return 0;
    }
    if (a->nchains < 0 || (a->nchains > 0 && (!a->chains || !a->chain_in)))
        return 0;
    if (a->nifaces < 0 || (a->nifaces > 0 && (!a->ifaces || !a->iface_mu || a->nblocks < 1)))
        return 0;
    for (int b = 0; b < a->nblocks; b++)
        if ((a->blocks[b].flags & ~JNT_BLOCK_STATE_FORCES) && !a->block_in)
            return 0;
    for (int f = 0; f < a->nifaces; f++) {
        const jnt_abi_iface *k = &a->ifaces[f];
        if (k->slave < 0 || k->slave >= a->nblocks || k->master < 0 || k->master >= a->nblocks ||
            k->nslave < 1 || k->nmaster < 2 || k->method < JNT_IFACE_BASIC ||
            k->method > JNT_IFACE_FILM || k->d0 < 0 ||
            k->d0 + k->nslave * JNT_IFACE_NCONTACT > a->nd ||
            !in_data(a, k->x, 2L * (k->nslave + k->nmaster)) ||
            !in_data(a, k->rows, 2L * ((long)k->nslave * a->blocks[k->slave].r +
                                       (long)k->nmaster * a->blocks[k->master].r)))
            return 0;
    }
    for (int c = 0; c < a->nchains; c++) {
        const jnt_abi_chain *k = &a->chains[c];
        if (k->n < 2 || k->d0 < 0 || k->d0 + k->n + JNT_CHAIN_NEXTRA > a->nd || k->in0 < 0)
            return 0;
    }
    if ((a->ny > 0 && !a->y_names) || (a->nd > 0 && !a->d_names) ||
        (a->np > 0 && (!a->p_names || !a->p_dims)) || (a->nout > 0 && !a->out_names))
        return 0;
    if (a->jac && (!a->jac_colptr || (a->jac_nnz > 0 && !a->jac_rowind)))
        return 0;
    if (a->nq < 0 || a->nc < 0 || (a->nq == 0 && a->nc > 0) || !multibody_valid(a))
        return 0;
    if (a->jac) {
        if (a->jac_colptr[0] != 0 || a->jac_colptr[a->ny + 2 * a->nu] != a->jac_nnz)
            return 0;
        for (int k = 0; k < a->jac_nnz; k++)
            if (a->jac_rowind[k] < 0 || a->jac_rowind[k] >= a->ny + a->nu)
                return 0;
    }
    return 1;
}

/* Blocks whose rows have more nonzeros than this share of ng x r are
 * gathered, scattered and coupled by dense BLAS products. */
#define DENSE_SHARE 0.25

/* Free a NULL-terminated list of malloc'd strings (NULL is allowed). */
static void free_list(char **list)
{
    for (char **p = list; p && *p; p++)
        free(*p);
    free(list);
}

static void model_release(jnt_model *m)
{
    for (int b = 0; m->blk && b < m->abi->nblocks; b++) {
        free(m->blk[b].rowptr);
        free(m->blk[b].col);
        free(m->blk[b].val);
        free(m->blk[b].fcp), free(m->blk[b].fri), free(m->blk[b].frot), free(m->blk[b].fpos);
    }
    free(m->blk);
    free(m->gblock);
    free(m->own_j[0]), free(m->own_j[1]), free(m->own_m[0]), free(m->own_m[1]);
    free_list(m->inputs);
    free(m);
}

/* An unreduced flexible2d body's block (JNT_BLOCK_FFRF_SPARSE): its
 * points' unit rows from their coordinates, and its invariants' pattern
 * and rotation as ints (core/flex.c). 0, or -1 (out of memory or indices
 * out of range). */
static int prepare_sparse(jnt_model *m, int b)
{
    const jnt_abi_block *k = &m->abi->blocks[b];
    model_block *mb = &m->blk[b];
    int ng = k->ng, r = k->r;
    const double *inv = m->data + k->ffrf;
    long nnz = (long)inv[4];
    const double *rot = inv + JNT_FFRF_SP_S1 + 4 * (size_t)r, *cp = rot + r, *ri = cp + r + 1;
    mb->dense = 0;
    mb->rowptr = malloc(((size_t)ng + 1) * sizeof *mb->rowptr);
    mb->col = malloc(((size_t)ng + 1) * sizeof *mb->col);
    mb->val = malloc(((size_t)ng + 1) * sizeof *mb->val);
    mb->fcp = malloc(((size_t)r + 1) * sizeof *mb->fcp);
    mb->fri = malloc(((size_t)nnz + 1) * sizeof *mb->fri);
    mb->frot = malloc(((size_t)r + 1) * sizeof *mb->frot);
    if (!mb->rowptr || !mb->col || !mb->val || !mb->fcp || !mb->fri || !mb->frot)
        return -1;
    for (int i = 0; i < ng; i++) {
        double c = mb->rows[i];
        if (!(c >= 0 && c < r))
            return -1;
        mb->rowptr[i] = i, mb->col[i] = (int)c, mb->val[i] = 1.0;
        m->gblock[k->g0 + i] = b;
    }
    mb->rowptr[ng] = ng;
    for (int j = 0; j <= r; j++) {
        mb->fcp[j] = (int)cp[j];
        if (cp[j] < 0 || cp[j] > (double)nnz || (j > 0 && cp[j] < cp[j - 1]))
            return -1;
    }
    if (mb->fcp[0] != 0 || mb->fcp[r] != nnz)
        return -1;
    for (long e = 0; e < nnz; e++) {
        mb->fri[e] = (int)ri[e];
        if (!(ri[e] >= 0 && ri[e] < r))
            return -1;
    }
    for (int j = 0; j < r; j++) {
        mb->frot[j] = (int)rot[j];
        if (!(fabs(rot[j]) >= 1 && fabs(rot[j]) <= r))
            return -1;
    }
    return 0;
}

/* Resolve block b's data and compress its rows. 0, or -1 out of memory. */
static int prepare_block(jnt_model *m, int b)
{
    const jnt_abi_block *k = &m->abi->blocks[b];
    model_block *mb = &m->blk[b];
    mb->minv = m->data + k->minv;
    mb->minv_k = m->data + k->minv_k;
    mb->minv_c = m->data + k->minv_c;
    mb->rows = m->data + k->rows;
    if (k->flags & JNT_BLOCK_FFRF_SPARSE)
        return prepare_sparse(m, b);
    size_t nnz = 0, ng = (size_t)k->ng, r = (size_t)k->r;
    for (size_t i = 0; i < ng * r; i++)
        nnz += mb->rows[i] != 0.0;
    mb->dense = (double)nnz > DENSE_SHARE * (double)(ng * r);
    mb->rowptr = malloc((ng + 1) * sizeof *mb->rowptr);
    mb->col = malloc((nnz + 1) * sizeof *mb->col);
    mb->val = malloc((nnz + 1) * sizeof *mb->val);
    if (!mb->rowptr || !mb->col || !mb->val)
        return -1;
    nnz = 0;
    for (size_t i = 0; i < ng; i++) {
        mb->rowptr[i] = (int)nnz;
        for (size_t c = 0; c < r; c++) {
            double v = mb->rows[c * ng + i];
            if (v != 0.0) {
                mb->col[nnz] = (int)c;
                mb->val[nnz++] = v;
            }
        }
        m->gblock[k->g0 + (int)i] = b;
    }
    mb->rowptr[ng] = (int)nnz;
    return 0;
}

/* See jnt.h. */
int jnt_model_wrap(const jnt_abi_model *abi, const double *data, void *owner,
                   void (*owner_free)(void *), jnt_model **out)
{
    if (!out)
        return JNT_ERR_USAGE;
    *out = NULL;
    if (!abi)
        return JNT_ERR_USAGE;
    /* the kernels' tables and a long Jacobian pattern are in the data: bound first */
    if (abi->abi_version == JNT_ABI_VERSION && abi->bind && (abi->ndata <= 0 || data))
        abi->bind(data);
    if (!abi_valid(abi, data))
        return JNT_ERR_MODEL;
    jnt_model *m = calloc(1, sizeof *m);
    if (!m)
        return JNT_ERR_NOMEM;
    m->abi = abi;
    m->data = data;
    m->blk = calloc((size_t)abi->nblocks + 1, sizeof *m->blk);
    m->kind = abi->nq > 0 ? MODEL_DAE : abi->nifaces > 0 ? MODEL_SLIDE : MODEL_ODE;
    m->gblock = calloc((size_t)abi->nu + 1, sizeof *m->gblock);
    int ok = m->blk && m->gblock;
    for (int b = 0; ok && b < abi->nblocks; b++)
        ok = prepare_block(m, b) == 0;
    if (ok && abi->nq)
        ok = eval_dae_patterns(m) == 0;
    if (!ok) {
        model_release(m);
        return JNT_ERR_NOMEM;
    }
    m->owner = owner;
    m->owner_free = owner_free;
    *out = m;
    return JNT_OK;
}

/* See jnt.h. */
int jnt_model_from_abi(const jnt_abi_model *abi, const double *data, jnt_model **out)
{
    return jnt_model_wrap(abi, data, NULL, NULL, out);
}

/* Free a model and release its owner (the JIT state); NULL is allowed. */
void jnt_model_free(jnt_model *m)
{
    if (!m)
        return;
    void *owner = m->owner;
    void (*owner_free)(void *) = m->owner_free;
    model_release(m); /* reads the abi: before the owner goes */
    if (owner_free)
        owner_free(owner);
}

/* See jnt.h. */
const char *const *jnt_model_inputs(const jnt_model *m)
{
    return m ? (const char *const *)m->inputs : NULL;
}

/* See jnt.h. */
const char *jnt_model_input_at(const jnt_model *m, const char *path)
{
    char real[PATH_MAX];
    if (!m || !m->inputs || !path || !realpath(path, real))
        return NULL;
    for (char **in = m->inputs; *in; in++)
        if (!strcmp(real, *in))
            return *in;
    return NULL;
}

/* See jnt.h. */
void jnt_model_set_inputs(jnt_model *m, char **inputs)
{
    if (!m) { /* the list is the call's: without a model it has no owner */
        free_list(inputs);
        return;
    }
    if (inputs == m->inputs)
        return;
    free_list(m->inputs);
    m->inputs = inputs;
}

/* The generated ABI object of a model (owned by the model). */
const jnt_abi_model *jnt_model_abi(const jnt_model *m)
{
    return m ? m->abi : NULL;
}

/* The model data of a model (owned by the model). */
const double *jnt_model_data(const jnt_model *m)
{
    return m ? m->data : NULL;
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
