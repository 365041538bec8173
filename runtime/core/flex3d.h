/*
 * flex3d.h: spatial flexible bodies in a floating frame of reference whose
 * frame is in director coordinates (internal; issue 14, `flexible3d`).
 *
 * A body's coordinates are its frame's origin x (3), its directors d1, d2,
 * d3 (the columns of its rotation R, 9; held by the six rows
 * d_i . d_j = delta_ij, which are the caller's) and the elastic coordinates
 * q (r). A point with place X in the frame and elastic displacement
 * Phi_P q is at x + R (X + Phi_P q) = x + sum_i c_i d_i. With
 * w = [x'; d1'; d2'; d3'; q'] the kinetic energy is 1/2 w^T M w with
 *   M_xx = m I3,            M_x,di = a_i I3,     M_x,q = R S1,
 *   M_di,dj = E_ij I3,      M_di,q = R C_i,      M_qq = Mr,
 *   a(q) = s0 + S1 q                                   (int c_i dm)
 *   E(q) = E0 + sum_m q_m E1_m + sum_mn q_m q_n E2_mn  (int c_i c_j dm)
 *   C_i(q) = C0_i + sum_m q_m C1_i.[m, .]              (int c_i Phi_P dm)
 * (flex3d.c: the equations; setup/red_ffrf3d.c: the invariants; for a mass
 * matrix that treats x, y and z unlike, a beam's, M is positive definite on
 * the tangent space of the director rows but may be indefinite off it).
 * Everything
 * here works on dense arrays indexed by coordinate: x, d1, d2, d3 at
 * q[frame .. frame + 12), the elastic coordinates at q[q0 .. q0 + r), their
 * rates at the same places of v; the functions add to their outputs. No
 * function allocates: scratch is the caller's `work`, flex3_work_size(r)
 * doubles, sized at setup.
 */
#ifndef JNT_FLEX3D_H
#define JNT_FLEX3D_H

#include <stddef.h>

#include "jnt/abi.h"
#include "jnt/setup.h"



/* One body: its invariants and where its coordinates are. */
typedef struct flex3_body {
    const double *inv; /* JNT_FFRF3_SIZE(r) doubles */
    int r;             /* elastic coordinates, 0 .. JNT_MAX_BLOCK */
    int frame;         /* x, d1, d2, d3 at [frame, frame + 12) */
    int q0;            /* q at [q0, q0 + r) */
} flex3_body;

/* Doubles of scratch the functions below need for r elastic coordinates. */
size_t flex3_work_size(int r);

/* The body's 12 + r coordinate indices (frame, then q) into idx: the rows
 * and columns the functions below touch. Returns 12 + r. */
int flex3_coords(const flex3_body *b, int *idx);

/* Add M(q) to M (column-major, leading dimension ld, rows and columns by
 * coordinate index). */
void flex3_mass(const flex3_body *b, const double *q, double *M, int ld, double *work);

/* Add the body's forces at (q, v) to f (by coordinate index): the
 * quadratic-velocity forces Q_v = -M' w + dT/d(coordinates), the elastic and
 * damping forces -Kr q - Cr q', and gravity g (3, NULL: none). */
void flex3_forces(const flex3_body *b, const double *q, const double *v, const double *g,
                  double *f, double *work);

/* Add the derivatives of flex3_forces: d f / d q to Jq and d f / d v to Jv
 * (either may be NULL), both column-major with leading dimension ld, rows
 * and columns by coordinate index (for a ny x ny J with force rows nq + i:
 * Jq = J + nq, Jv = J + nq ny + nq, ld = ny). */
void flex3_jac(const flex3_body *b, const double *q, const double *v, const double *g,
               double *Jq, double *Jv, int ld, double *work);

/* Add d (M(q) a) / d q to J (leading dimension ld, by coordinate index) for
 * the accelerations a (by coordinate index): the (M q'')_q of Newton. */
void flex3_mass_jac(const flex3_body *b, const double *q, const double *a, double *J, int ld,
                    double *work);

/* The kinetic energy *T, the linear momentum P and the angular momentum L
 * about the world origin (L = x x p_x + sum_i d_i x p_di, p = M w) at
 * (q, v); any output may be NULL. */
void flex3_momentum(const flex3_body *b, const double *q, const double *v, double *T,
                    double P[3], double L[3], double *work);

#endif
