/*
 * state.c: a run's final state as one array (continued sweeps: the next
 * run of a chain starts where the previous one ended).
 */
#include <string.h>

#include "core/data.h"
#include "core/model.h"

/* See jnt.h. */
int jnt_state_count(const jnt_model *m)
{
    return m ? m->abi->ny + m->abi->nd : 0;
}

/* See jnt.h. */
int jnt_get_full_state(const jnt_model *m, const jnt_data *d, double *buf)
{
    if (!m || !d || d->m != m || !buf)
        return JNT_ERR_USAGE;
    const jnt_abi_model *a = m->abi;
    memcpy(buf, d->y, (size_t)a->ny * sizeof *buf);
    memcpy(buf + a->ny, d->d, (size_t)a->nd * sizeof *buf);
    return JNT_OK;
}
