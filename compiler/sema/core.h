/*
 * core.h: the sema core's interface to the kinds (kinds/, sema/kind.h): the
 * functions a kind calls to evaluate expressions, look up names, make dofs
 * and markers, bind arguments, and reach the elements, laws and steps. What
 * only the core's own passes call is in passes.h.
 */
#ifndef JNT_SEMA_CORE_H
#define JNT_SEMA_CORE_H

#include "model.h"

/* Whether a file named `given` in a model (resolved to `resolved`) stays in
 * directory `base` (no absolute path, no '..', no link out) or under an
 * allowed directory (dc->allow_path). 0, or -1 after a located error naming
 * `what` ("data file", "import", "output"). */
int sema_path_ok(sema *S, jnt_loc at, const char *given, const char *resolved, const char *base,
                 const char *what);

/* Record a data file the model reads (sema_output_ok keeps outputs off it). */
void sema_data_file(sema *S, const char *path);

/* sema/assemble.c: the rule a body's mass (POS_MASS), rigid2d inertia (POS_INERTIA) or
 * rigid3d Euler moment (POS_EULER: (Jj + Jk - Ji) / 2, the triangle inequality) meets:
 * finite, and positive, an Euler moment not negative (equality in the triangle
 * inequality is a lamina, like the heavy top's). Checked here when the value is known
 * at compile time (literals, constants), by the params kernel when it uses parameters
 * (lower/gen_kernel.c prints the same comparison from pos_kind). */
int sema_mass_ok(int kind, double x);

/* Size a declaration's instance table (s->inst, s->idx, s->ninst): the count
 * of instances, 0 on error; *vals = the array indices (NULL for a scalar). */
int sema_instances(sema *S, sym *s, long **vals);

/* The symbol called name, or NULL. */
sym *sema_find(sema *S, const char *name);

/* The sum of the forces on dof di from every element but `skip`. */
ex_id sema_other_forces(sema *S, int di, int skip);

/* Replace the leaves (kind, i) by repl[i] in every expression of the model. */
void sema_subst_all(sema *S, ex_kind kind, const ex_id *repl);

sval sema_eval(sema *S, const scope *sc, const ast *n);

/* Evaluate to a number (a dof reads as its position); reports an error
 * naming `what` otherwise and returns V_ERR. */
sval sema_num(sema *S, const scope *sc, const ast *n, const char *what);

/* Evaluate and require a dimension; `what` names the quantity in messages. */
sval sema_num_dim(sema *S, const scope *sc, const ast *n, jnt_dim want, const char *what);

/* A compile-time integer (array bounds and indices). */
int sema_int_const(sema *S, const scope *sc, const ast *n, long *out);

/* Does e depend on states (y, d, gathered points) or time? */
int sema_is_dynamic(sema *S, ex_id e);

/* 1 and e's value in *x when e uses no variable, parameter or time. */
int sema_fixed_value(sema *S, ex_id e, double *x);

/* Does e depend on no state (time and parameters are allowed)? */
int sema_is_time_only(sema *S, ex_id e);
sval sval_num(ex_id e, jnt_dim dim);
extern const sval sval_err;
const char *sema_kind_name(sema *S, sval v);

/* sema/law.c: the friction coefficient of a friction law `call` (a call or
 * a bare law name) for an interface `name`: the law's force at slip velocity
 * v under a unit normal force, without s. Stateless laws only. */
sval sema_friction_coef(sema *S, const scope *sc, const char *name, const ast *call, sval v);

/* One argument of a substructure type or reduction: name, dimension,
 * default (NAN: required); or (dim NULL) a file name in quotes, or, when
 * choice is set, a keyword: one of choice[0..nchoice-1], written as a name
 * or in quotes, whose index is the value (def: the default index). */
typedef struct arg_spec {
    const char *name;
    const jnt_dim *dim;
    double def;
    const char *const *choice;
    int nchoice;
} arg_spec;

/* Bind the named/positional arguments call->kids[first..last) to the n
 * specs; values in v[] (a keyword: its index), strings in str[] (may be NULL
 * when no spec is a string). Every value must be a compile-time constant.
 * 0, or -1 after reporting errors (`what` names the call). */
int sema_bind_args(sema *S, const ast *call, int first, int last, const arg_spec *spec, int n,
                   const char *what, double *v, const char **str);

/* A pair (a, b) of dimension dim: 0 and out[2], or -1 after an error. */
int sema_mb_pair(sema *S, const scope *sc, const ast *e, jnt_dim dim, const char *what,
                 ex_id out[2]);

/* A new position state (and its velocity) of body b: its dof index. */
int sema_mb_add_dof(sema *S, body *b, const char *short_name, jnt_dim dim, jnt_loc loc);

/* Add marker m (name, body, px, py, angle set): its index. */
int sema_mb_add_marker(sema *S, marker m);

/* The flexible body whose elastic coordinates are substructure si, or -1. */
int sema_flex_of_sub(const sema *S, int si);

/* A rigid body's `shape = box(lx, ly, lz)`, `cylinder(radius, length)` or
 * `sphere(radius)` (lengths, parameters only; what its pictures draw): into
 * b->shape, b->shape_size, or a located error. */
void sema_body_shape(sema *S, body *b, const ast *e);

/* The dof of component comp of node `node` of substructure si (made once). */
int sema_sub_node_dof(sema *S, int si, int node, int comp, jnt_loc loc);

/* A marker of spatial body b at body-frame place X (expressions; a node's
 * may hold its gathered elastic displacement): x + sum_i X_i d_i. rot: a
 * node's elastic rotation and its rate (6 expressions), or NULL. */
void sema_mb3d_marker(sema *S, body *b, const char *name, const ex_id X[3], const ex_id *rot);

/* A triple (a, b, c) of dimension dim: 0 and out[3], or -1 after an error. */
int sema_mb_triple(sema *S, const scope *sc, const ast *e, jnt_dim dim, const char *what,
                   ex_id out[3]);

/* A point (x, y) of the ground as a marker of its own (owner names it);
 * -1 after an error. */
int sema_mb_ground_point(sema *S, const ast *e, const char *owner);
/* Evaluate element ei (lazily, once: elements may refer to each other). */
void sema_eval_elem(sema *S, int ei);

#endif
