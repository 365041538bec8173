/*
 * sema/sema_v3.h: 3-vectors of expressions for the spatial multibody passes
 * (kinds/rigid3d.c: bodies; kinds/joint3d.c: joints; kinds/clearance.c: clearance joints), and the
 * helpers they share. Inside a function, P is the expression pool.
 */
#ifndef JNT_SEMA_V3_H
#define JNT_SEMA_V3_H

#include "core.h"

typedef struct v3 {
    ex_id c[3];
} v3;

#define ADD(a, b) ex_op2(P, EX_ADD, (a), (b))
#define SUB(a, b) ex_op2(P, EX_SUB, (a), (b))
#define MUL(a, b) ex_op2(P, EX_MUL, (a), (b))
#define C(v) ex_const(P, (v))

static inline v3 v_add(ex_pool *P, v3 a, v3 b)
{
    return (v3){{ADD(a.c[0], b.c[0]), ADD(a.c[1], b.c[1]), ADD(a.c[2], b.c[2])}};
}

static inline v3 v_sub(ex_pool *P, v3 a, v3 b)
{
    return (v3){{SUB(a.c[0], b.c[0]), SUB(a.c[1], b.c[1]), SUB(a.c[2], b.c[2])}};
}

static inline v3 v_scale(ex_pool *P, ex_id k, v3 a)
{
    return (v3){{MUL(k, a.c[0]), MUL(k, a.c[1]), MUL(k, a.c[2])}};
}

static inline ex_id v_dot(ex_pool *P, v3 a, v3 b)
{
    return ADD(ADD(MUL(a.c[0], b.c[0]), MUL(a.c[1], b.c[1])), MUL(a.c[2], b.c[2]));
}

static inline v3 v_cross(ex_pool *P, v3 a, v3 b)
{
    return (v3){{SUB(MUL(a.c[1], b.c[2]), MUL(a.c[2], b.c[1])),
                 SUB(MUL(a.c[2], b.c[0]), MUL(a.c[0], b.c[2])),
                 SUB(MUL(a.c[0], b.c[1]), MUL(a.c[1], b.c[0]))}};
}

static inline v3 v_unit(ex_pool *P, v3 a)
{
    ex_id n = ex_op1(P, EX_SQRT, v_dot(P, a, a));
    return (v3){{ex_op2(P, EX_DIV, a.c[0], n), ex_op2(P, EX_DIV, a.c[1], n),
                 ex_op2(P, EX_DIV, a.c[2], n)}};
}

/* Director i of spatial body b (its position expressions), and at t = 0
 * (its initial values, parameters only). */
v3 mb3_director(const sema *S, const body *b, int i);
v3 mb3_director0(const sema *S, const body *b, int i);
/* A marker's position as a vector. */
v3 mb3_mpos(const marker *m);
/* World vector w0 (at t = 0) as a vector fixed in the frame of marker m:
 * its components c on the body's initial directors times the directors (the
 * ground, or a body without directors: w0 itself); at a node that turns,
 * c + theta x c (theta the node's small elastic rotation in the frame,
 * linearised as the beam's is). */
v3 mb3_fixed_in(sema *S, const marker *m, v3 w0);
/* A unit axis (world frame, at t = 0) from `e`, or e_z when e is NULL;
 * with p, s completing the right-handed triple (a, p, s). 0, or -1 after an
 * error. */
int mb3_axis_triple(sema *S, const ast *e, v3 *a, v3 *p, v3 *s);

#endif
