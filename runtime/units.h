/*
 * units.h: physical units and dimensions, shared by the compiler (unit
 * literals, dimension checks) and the runtime (-D name=value with a unit).
 */
#ifndef JNT_UNITS_H
#define JNT_UNITS_H

#include <stddef.h>
#include "jnt/abi.h"

/* Exponents of kg, m, s, A, K in 1/JNT_DIM_DEN. */
typedef struct jnt_dim {
    signed char e[JNT_NDIM];
} jnt_dim;

extern const jnt_dim units_none; /* dimensionless */

int units_equal(jnt_dim a, jnt_dim b);
int units_is_none(jnt_dim a);
jnt_dim units_mul(jnt_dim a, jnt_dim b);
jnt_dim units_div(jnt_dim a, jnt_dim b);
/* a^(num/den); returns -1 when an exponent is not a multiple of 1/JNT_DIM_DEN
 * or overflows. */
int units_pow(jnt_dim a, int num, int den, jnt_dim *out);

/* Look up one unit word ("mm", "GPa", "N"): 0 and its SI scale and dimension,
 * or -1 when unknown. */
int units_lookup(const char *word, size_t n, double *scale, jnt_dim *dim);

/* Parse a unit expression without spaces: "m/s^2", "N*s/m", "/s", "1/m",
 * "N/mm^3", "s^-1". Returns 0, or -1 with *err_at the offending character and
 * *why a static message. */
int units_parse(const char *s, size_t n, double *scale, jnt_dim *dim, const char **err_at,
                const char **why);

/* Parse "<number>[ ]<unit>" (the whole string): 0 and the SI value and
 * dimension, or -1 with a static message in *why. */
int units_parse_quantity(const char *s, double *si, jnt_dim *dim, const char **why);

/* Readable dimension: "N/m", "m/s^2", "1" for dimensionless. Returns buf. */
char *units_format(jnt_dim d, char *buf, size_t n);

#endif
