/*
 * dims.h: the dimensions the multibody files name (exponents of kg, m, s,
 * A, K, times 6: jnt/setup.h's jnt_dim), defined once for them. Static
 * constants: a file that uses none of them pays nothing.
 */
#ifndef JNT_SEMA_DIMS_H
#define JNT_SEMA_DIMS_H

#include "jnt/setup.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};        /* m */
static const jnt_dim DIM_MS = {{0, 6, -6, 0, 0}};      /* m/s */
static const jnt_dim DIM_ACC = {{0, 6, -12, 0, 0}};    /* m/s^2 */
static const jnt_dim DIM_PS = {{0, 0, -6, 0, 0}};      /* 1/s */
static const jnt_dim DIM_KG = {{6, 0, 0, 0, 0}};       /* kg */
static const jnt_dim DIM_KGM2 = {{6, 12, 0, 0, 0}};    /* kg m^2 */
static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};      /* N */
static const jnt_dim DIM_NM = {{6, 12, -12, 0, 0}};    /* N m (a torque) */

#endif
