/*
 * scene_int.h: what the scene's files share (internal): its probe programs
 * (sema/scene_prog.c), its joints' and clearance joints' axes
 * (sema/scene_axes.c), its contacts between markers (sema/scene_contacts.c)
 * and its parameter values, for sema/scene.c.
 */
#ifndef JNT_SEMA_SCENE_INT_H
#define JNT_SEMA_SCENE_INT_H

#include "lower/expr.h"
#include "jnt/scene.h"
#include "passes.h"

/* The probes' names among the scene IR's output columns (sema_scene_probes):
 * PROBE_TAG "ELEM:MA:MB:WHAT", WHAT one of gap, force, v, ax, ay, az, bx,
 * by, bz. Only the scene's IR has them: it is never compiled. */
#define PROBE_TAG "\001scene:"

/* The scene's parameter values (jnt_scene.par_prog): expressions of the
 * parameters alone, gathered while the scene is built; yrep, urep: the
 * states at rest (sema's numbering, ny of them) and the gathered points at
 * 0 as constants, to substitute. */
typedef struct par_list {
    int n, cap, ny, nu;
    ex_id *e, *yrep, *urep;
} par_list;

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

/* sema/scene.c: e at the state where every body is at the origin, unturned;
 * 0 where it reads what only the run knows. scene_par_vals: the n
 * expressions e (-1: 0) as parameter values of the scene (appended to pl:
 * their first index), or -1 when they read no parameter or what only the run
 * knows. */
double scene_at_rest(const sema *S, ex_id e, const double *y, const double *d, const double *p);
int scene_par_vals(sema *S, par_list *pl, int n, const ex_id *e);

/* sema/scene_contacts.c: how element el is drawn (its family's `draw`,
 * kind.h: SEMA_DRAW_GAP, SEMA_DRAW_SLIP), or 0. scene_mcontacts: the marker
 * contacts of the probes among the outputs (sema_scene_probes), each
 * friction paired with the contact between the same ends (bmap: sema body ->
 * scene body; y, d, p the state at rest). */
int scene_drawn(const sema *S, const elem *el);
void scene_mcontacts(sema *S, jnt_scene *sc, par_list *pl, const int *bmap, const double *y,
                     const double *d, const double *p);

#endif
