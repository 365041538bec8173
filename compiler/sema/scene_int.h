/*
 * scene_int.h: the scene's probe programs (sema/scene_prog.c) and its
 * joints' and clearance joints' axes (sema/scene_axes.c), for sema/scene.c
 * (internal).
 */
#ifndef JNT_SEMA_SCENE_INT_H
#define JNT_SEMA_SCENE_INT_H

#include "lower/expr.h"
#include "jnt/scene.h"
#include "passes.h"

/* The probes' program: the sub-DAG of their expressions in post-order,
 * each node's operands as positions in it (jnt_scene.probe_prog). */
typedef struct probe_prog {
    int n, nroot, nu;
    ex_node *node;
    int *root;
    double *val;
} probe_prog;

/* The program of expressions roots[0 .. n) (nu gathered points; owned by
 * the caller, scene_prog_free). */
probe_prog *scene_prog_build(sema *S, int n, const ex_id *roots, int nu);
/* Free a program (NULL: nothing). */
void scene_prog_free(void *pp);
/* jnt_scene.probe: the program at a state (ex_eval's rules; the gathered
 * points and their rates from u, NaN without it). */
int scene_prog_eval(void *pp, double t, const double *y, const double *u, const double *d,
              const double *p, double *out);

/* The three expressions e at rest (y, d, p; the gathered points at 0)
 * into x, 0 where they read what only the run knows. */
void scene_rest_vec(sema *S, const ex_id e[3], const double *y, const double *d, const double *p,
              double x[3]);

/* sema/scene_axes.c. joint_axes: spatial joint j's axis (z when it has no
 * `axis`) fixed in b's frame into sj->axis, a universal joint's `axis_b`
 * there and its `axis`, fixed in a's frame, into sj->axis_a (their expressions
 * into axe, -1 where none). races: the radii and
 * bearing axis of marker contact ct (element el between markers ma, mb, -2
 * for a ground point; bmap: sema body -> scene body) from its `clearance =
 * cylinder(...)` or its friction's `radii` and `axis` (jnt_scene_mcontact),
 * and the radii's and the axis's expressions into rho and axe (-1: none
 * found). */
void scene_joint_axes(sema *S, const joint *j, const double *y, const double *d, const double *p,
                struct jnt_scene_joint *sj, ex_id axe[6]);
void scene_races(sema *S, const elem *el, int ma, int mb, const int *bmap, const double *y,
           const double *d, const double *p, struct jnt_scene_mcontact *ct, ex_id rho[2],
           ex_id axe[3]);

#endif
