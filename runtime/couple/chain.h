/*
 * chain.h: massless series-series Iwan chains solved quasi-statically by
 * the complementarity iteration of seed 004 Sect. 3 (internal).
 *
 * A chain has n sliders (Coulomb, slip strengths fs[i]) joined by springs of
 * stiffness k/2 (the two springs k of each eliminated mass in series), loaded
 * by L at slider 1 and R at slider n. With q the slider displacements,
 * K = (k/2) tridiag(-1, [1 2 ... 2 1], -1) and P = (L, 0, ..., 0, R):
 *   K q = P + f,   |f_i| <= fs_i,   f_i = -fs_i sign(dq_i) where slider i slips.
 */
#ifndef JNT_CHAIN_H
#define JNT_CHAIN_H

#include "jnt/abi.h"
#include "jnt/jnt.h"

/* Discrete states of a chain from d0 on: q_1..q_n, then these (abi.h). */
enum {
    CHAIN_D = JNT_CHAIN_D,
    CHAIN_NSLIP = JNT_CHAIN_NSLIP,
    CHAIN_LOAD_L = JNT_CHAIN_LOAD_L,
    CHAIN_LOAD_R = JNT_CHAIN_LOAD_R,
    CHAIN_EXTRA = JNT_CHAIN_NEXTRA
};

/* Move the chain from loads (l0, r0) to (l1, r1) quasi-statically: q (n)
 * is updated in place, *D grows by the energy the sliders dissipate and
 * *nslip is the number of sliders that slipped in the last increment.
 * state (n) holds each slider's last slip direction (0 stuck, +1 or -1),
 * the first guess of the next increment; work holds 5 n doubles. Returns 0, or 1 when the load exceeds the chain's total
 * slip strength (macroslip: the massless chain has no solution) or the
 * iteration fails after 20 halvings; *why then says which. */
int chain_solve(int n, double k, const double *fs, double l0, double r0, double l1, double r1,
                double *q, double *D, int *nslip, double *state, double *work, jnt_stats *st,
                const char **why);

/* Doubles of scratch chain_update needs for the model's chains. */
size_t chain_work_size(const jnt_abi_model *a);

/* Bring every chain of the model to the loads at (t, y) (u: the gathered
 * points at y, eval.h): reads the chain
 * inputs from the model's kernel and updates its discrete states in d. work
 * (chain_work_size) keeps the sliders' slip directions between calls; reset
 * clears them (the first call of a run). Returns 0, or the failing chain's
 * index + 1 with *why set. */
int chain_update(const jnt_abi_model *a, double t, const double *y, const double *u, double *d,
                 const double *p,
                 int reset, double *work, jnt_stats *st, const char **why);

#endif
