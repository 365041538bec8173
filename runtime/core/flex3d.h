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

#include "jnt/setup.h"

/* The invariants of a flexible3d body with r elastic coordinates, one array
 * of doubles (all matrices column-major). These move to jnt/abi.h with the
 * compiler's hook, as JNT_FFRF_* did for flexible2d. The integrals are
 * those of point masses; red_ffrf3d.c forms them from the FE mass matrix
 * (rotary inertia included) and says what they are for other matrices.
 *   m                      mass
 *   s0 (3)                 first moment int X dm
 *   E0 (3 x 3)             Euler tensor int X X^T dm = tr(J0)/2 I - J0
 *   S1 (3 x r)             int Phi_P dm
 *   E1 (9 x r)             column m: the 3 x 3 dE/dq_m at q = 0
 *   C0 (3 x r, 3 times)    C0_i[k, n] = int X_i Phi_{P,k,n} dm, C0_i at + 3 r i
 *   E2 (r x r, 6 times)    E2_ij[m, n] = 1/2 d2E_ij/dq_m dq_n (symmetric),
 *                          pairs ij = 00 11 22 01 02 12
 *   C1 (r x r, 9 times)    C1_ik[m, n] = int Phi_{P,i,m} Phi_{P,k,n} dm,
 *                          C1_ik at + (i + 3 k) r^2
 *   Mr, Kr, Cr (r x r)     reduced mass, stiffness, damping (the caller
 *                          appends Kr and Cr, as for flexible2d) */
#define JNT_FFRF3_M 0
#define JNT_FFRF3_S0 1
#define JNT_FFRF3_E0 4
#define JNT_FFRF3_S1 13
#define JNT_FFRF3_E1(r) (13 + 3 * (long)(r))
#define JNT_FFRF3_C0(r) (13 + 12 * (long)(r))
#define JNT_FFRF3_E2(r) (13 + 21 * (long)(r))
#define JNT_FFRF3_C1(r) (JNT_FFRF3_E2(r) + 6 * (long)(r) * (long)(r))
#define JNT_FFRF3_MR(r) (JNT_FFRF3_C1(r) + 9 * (long)(r) * (long)(r))
#define JNT_FFRF3_KR(r) (JNT_FFRF3_MR(r) + (long)(r) * (long)(r))
#define JNT_FFRF3_CR(r) (JNT_FFRF3_KR(r) + (long)(r) * (long)(r))
#define JNT_FFRF3_SIZE(r) (JNT_FFRF3_CR(r) + (long)(r) * (long)(r))

/* The inertia invariants of a spatial flexible body (setup/red_ffrf3d.c:
 * definitions and checks) through Mr, written to inv (JNT_FFRF3_SIZE(b->r)
 * doubles; Kr and Cr are left to the caller). Node coordinates are places
 * in the body frame; b is a basis of fe (b->r = 0: the rigid body of the
 * mesh; phi may then be NULL). When fe had fixes, M0 is its mass matrix
 * before them and dof0 (6 per node: ux, uy, uz, rx, ry, rz, -1 where none)
 * the nodes' DOFs in that numbering, so that the fixed nodes count; else
 * both NULL. Every node needs ux, uy, uz, and rx, ry, rz all or none; the
 * mass of a rigid translation must be alike in x, y and z; the body's mass
 * matrix must be positive definite (JNT_ERR_MODEL otherwise, with a
 * message). 0 or a negative status. Part of the setup library: its
 * declaration moves to jnt/setup.h with the compiler's hook. */
int red_ffrf3d(const fe_model *fe, const red_basis *b, const fe_sparse *M0, const int *dof0,
               double *inv, char *err, size_t errn);

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
