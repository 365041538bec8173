/*
 * kinematic.h: the kinematic analysis of a mechanism whose every degree of
 * freedom is driven (internal; run by jnt_run_analyses, analysis.c).
 */
#ifndef JNT_KINEMATIC_H
#define JNT_KINEMATIC_H

#include "jnt/jnt.h"

/* Positions, velocities and accelerations of a multibody model (nc == nq,
 * no first-order states) from its constraints alone, and the multipliers by
 * inverse dynamics, at t = v[0], v[0] + v[2], ..., v[1] (v[2] <= 0: 100
 * intervals); written to path. The parameters are d's; d's state is left as
 * it was. Returns JNT_OK, or a status with the message in d (naming the
 * analysis an). */
int kin_run(const jnt_model *m, jnt_data *d, const jnt_abi_analysis *an, const double *v,
            const char *path);

#endif
