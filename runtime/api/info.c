/*
 * info.c: what a compiled model declares, for bindings that see only the
 * public API (the Python package): its name, parameters with their units,
 * states and output columns, and the library's version.
 */
#include <string.h>

#include "core/data.h"
#include "core/model.h"
#include "jnt/setup.h"

/* See jnt.h. */
const char *jnt_version(void)
{
    return JNT_VERSION;
}

/* See jnt.h. */
const char *jnt_model_name(const jnt_model *m)
{
    return m && m->abi->name ? m->abi->name : "";
}

/* See jnt.h. */
int jnt_param_count(const jnt_model *m)
{
    return m ? m->abi->np : 0;
}

/* See jnt.h. */
int jnt_output_count(const jnt_model *m)
{
    return m ? m->abi->nout : 0;
}

/* See jnt.h. */
const char *jnt_param_name(const jnt_model *m, int i)
{
    return m && i >= 0 && i < m->abi->np ? m->abi->p_names[i] : NULL;
}

/* See jnt.h. */
const char *jnt_output_name(const jnt_model *m, int i)
{
    return m && i >= 0 && i < m->abi->nout ? m->abi->out_names[i] : NULL;
}

/* See jnt.h. */
const char *jnt_state_name(const jnt_model *m, int i)
{
    if (!m || i < 0)
        return NULL;
    const jnt_abi_model *a = m->abi;
    return i < a->ny ? a->y_names[i] : i < a->ny + a->nd ? a->d_names[i - a->ny] : NULL;
}

/* See jnt.h. */
int jnt_param_unit(const jnt_model *m, int i, char *buf, size_t n)
{
    if (!m || i < 0 || i >= m->abi->np || !buf || n == 0)
        return JNT_ERR_USAGE;
    units_entry(m->abi->p_dims, i, buf, n);
    return JNT_OK;
}

/* See jnt.h. */
int jnt_output_unit(const jnt_model *m, int i, char *buf, size_t n)
{
    if (!m || i < 0 || i >= m->abi->nout || !buf || n == 0)
        return JNT_ERR_USAGE;
    units_column(m->abi->out_dims, m->abi->out_kinds, i, buf, n);
    return JNT_OK;
}
