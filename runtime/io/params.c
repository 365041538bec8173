/*
 * params.c: parameter values: defaults, set by value, set from
 * "name=value unit" text (-D on the command line), suggestions for
 * misspelled names.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/model.h"
#include "jnt/setup.h"

/* Index of parameter `name`, or JNT_ERR_PARAM with a message naming the
 * closest known parameter. */
static int find_param(const jnt_model *m, jnt_data *d, const char *name)
{
    int i = jnt_param_index(m, name);
    if (i >= 0)
        return i;
    const char *near = jnt_closest_name(name, m->abi->p_names, m->abi->np);
    if (near)
        return data_error(d, JNT_ERR_PARAM, "unknown parameter '%s'; did you mean '%s'?", name,
                          near);
    return data_error(d, JNT_ERR_PARAM, "unknown parameter '%s'", name);
}

/* Set a parameter to a value in SI units. JNT_ERR_PARAM (message in the
 * data) for an unknown name or a value that is not finite. */
int jnt_set_param(const jnt_model *m, jnt_data *d, const char *name, double value)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!name)
        return data_null(d, __func__, "name");
    int i = find_param(m, d, name);
    if (i < 0)
        return i;
    if (!isfinite(value))
        return data_error(d, JNT_ERR_PARAM, "parameter '%s' must be finite", name);
    d->p[i] = value;
    d->set[i] = 1;
    d->err[0] = '\0';
    return JNT_OK;
}

/* Set a parameter from "name=value" where value is SI or has a unit whose
 * dimension must equal the parameter's. */
int jnt_set_param_text(const jnt_model *m, jnt_data *d, const char *assignment)
{
    int rc = data_check(m, d, __func__);
    if (rc != JNT_OK)
        return rc;
    if (!assignment)
        return data_null(d, __func__, "assignment");
    const jnt_abi_model *a = m->abi;
    const char *eq = strchr(assignment, '=');
    if (!eq)
        return data_error(d, JNT_ERR_PARAM, "expected name=value, got '%s'", assignment);
    /* the name, trimmed */
    const char *n0 = assignment, *n1 = eq;
    while (n0 < n1 && isspace((unsigned char)*n0))
        n0++;
    while (n1 > n0 && isspace((unsigned char)n1[-1]))
        n1--;
    if (n1 == n0)
        return data_error(d, JNT_ERR_PARAM, "missing parameter name in '%s'", assignment);
    char name[128];
    if ((size_t)(n1 - n0) >= sizeof name)
        return data_error(d, JNT_ERR_PARAM, "parameter name too long in '%s'", assignment);
    memcpy(name, n0, (size_t)(n1 - n0));
    name[n1 - n0] = '\0';
    int i = find_param(m, d, name);
    if (i < 0)
        return i;
    /* the value, trimmed, for messages */
    const char *v0 = eq + 1, *v1 = eq + strlen(eq);
    while (v0 < v1 && isspace((unsigned char)*v0))
        v0++;
    while (v1 > v0 && isspace((unsigned char)v1[-1]))
        v1--;
    int vn = (int)(v1 - v0);
    if (vn == 0)
        return data_error(d, JNT_ERR_PARAM, "missing value for parameter '%s'", name);
    double si;
    jnt_dim dim;
    const char *why = NULL;
    if (units_parse_quantity(v0, &si, &dim, &why) < 0)
        return data_error(d, JNT_ERR_PARAM, "bad value '%.*s' for parameter '%s': %s", vn, v0,
                          name, why);
    /* a bare number is in SI units; a unit must match the parameter */
    const char *u = v0 + strspn(v0, "+-0123456789.eE");
    while (u < v1 && isspace((unsigned char)*u))
        u++;
    int has_unit = u < v1;
    jnt_dim want;
    memcpy(want.e, a->p_dims + (size_t)i * JNT_NDIM, sizeof want.e);
    if (has_unit && !units_equal(dim, want)) {
        char ws[64], gs[64];
        units_format(want, ws, sizeof ws);
        units_format(dim, gs, sizeof gs);
        if (units_is_none(want))
            return data_error(d, JNT_ERR_PARAM,
                              "parameter '%s' is dimensionless, but '%.*s' is in %s", name, vn,
                              v0, gs);
        return data_error(d, JNT_ERR_PARAM, "parameter '%s' is in %s, but '%.*s' is in %s",
                          name, ws, vn, v0, units_is_none(dim) ? "1 (dimensionless)" : gs);
    }
    if (!isfinite(si))
        return data_error(d, JNT_ERR_PARAM, "parameter '%s' must be finite, got '%.*s'", name,
                          vn, v0);
    d->p[i] = si;
    d->set[i] = 1;
    d->err[0] = '\0';
    return JNT_OK;
}

/* The current value of parameter `index` after defaults are computed; NaN
 * when the index is out of range. */
double jnt_get_param(const jnt_model *m, jnt_data *d, int index)
{
    if (!m || !d || d->m != m || index < 0 || index >= m->abi->np)
        return NAN;
    params_defaults(m, d);
    return d->p[index];
}
