/*
 * params.c: parameter values: defaults, set by value, set from
 * "name=value unit" text (-D on the command line), suggestions for
 * misspelled names, a warning for a -D value far outside a plausible range.
 */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
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

/* How far from its default a -D value may be before it is warned about: the model gives no
 * range, so its default is the scale (-D th0=1e300 on the pendulum, whose default is
 * 170 deg, ran 1000 times slower and ended with 70 times the energy, unsaid). */
#define PLAUSIBLE_RATIO 1e10

/* The default of parameter i with the other parameters as d has them now; NaN when it
 * cannot be computed (no memory, or the parameter kernel refuses the values). */
static double default_of(const jnt_model *m, const jnt_data *d, int i)
{
    int np = m->abi->np;
    double *p = malloc((size_t)np * sizeof *p);
    unsigned char *set = malloc((size_t)np);
    double v = NAN;
    if (p && set) {
        memcpy(p, d->p, (size_t)np * sizeof *p);
        memcpy(set, d->set, (size_t)np);
        set[i] = 0;
        if (m->abi->params(p, set) >= 0)
            v = p[i];
    }
    free(p);
    free(set);
    return v;
}

/* Whether this process has already warned about this assignment (and note it): a sweep
 * applies its -D options to every run, on several threads. */
static int warned_before(const char *assignment)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static unsigned long seen[64];
    static int nseen;
    unsigned long h = 5381;
    for (const char *c = assignment; *c; c++)
        h = h * 33 + (unsigned char)*c;
    int found = 0;
    pthread_mutex_lock(&lock);
    for (int k = 0; k < nseen && !found; k++)
        found = seen[k] == h;
    if (!found && nseen < 64)
        seen[nseen++] = h;
    pthread_mutex_unlock(&lock);
    return found;
}

/* Warn on stderr (once per assignment) when value is more than PLAUSIBLE_RATIO times the
 * default of parameter i: a typo or a wrong unit more likely than a model meant so. */
static void warn_implausible(const jnt_model *m, const jnt_data *d, int i, double value,
                             const char *assignment)
{
    double def = default_of(m, d, i);
    if (!isfinite(def) || def == 0 || !(fabs(value) > PLAUSIBLE_RATIO * fabs(def)))
        return;
    if (warned_before(assignment))
        return;
    char unit[64];
    units_entry(m->abi->p_dims, i, unit, sizeof unit);
    const char *sp = unit[0] ? " " : "";
    fprintf(stderr, "jnt: warning: -D %s: %.2g times the default of '%s' (%g%s%s), outside its "
            "plausible range |%s| <= %.3g%s%s (%.0e times the default, as the model declares no "
            "range): a typo or a wrong unit?\n", assignment, fabs(value / def),
            m->abi->p_names[i], def, sp, unit, m->abi->p_names[i], PLAUSIBLE_RATIO * fabs(def),
            sp, unit, PLAUSIBLE_RATIO);
}

/* Set a parameter from "name=value" where value is SI or has a unit whose
 * dimension must equal the parameter's. A value more than PLAUSIBLE_RATIO times the
 * parameter's default is set, with a warning on stderr. */
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
    warn_implausible(m, d, i, si, assignment);
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
