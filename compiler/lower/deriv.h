/*
 * deriv.h: the derivatives pass, between sema and codegen. It computes the
 * analytic Jacobian of a model's rhs kernel (ir_jac: ydot and the forces on
 * the gathered points, with respect to y and the gathered positions and
 * velocities) as expressions of the model's pool, for codegen to print.
 */
#ifndef JNT_DERIV_H
#define JNT_DERIV_H

#include "ir.h"

/* Fill m->jac (and the Jacobians of the analyses' own models). Each node of
 * the rhs DAG is differentiated once, forward, for every variable it depends
 * on (a sparse gradient per node), so the cost is the sum over nodes of
 * their dependency counts: linear in the model for element laws. */
void deriv_model(ir_model *m);

#endif
