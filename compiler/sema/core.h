/*
 * core.h: the sema core's interface to the kinds (kinds/, sema/kind.h): the
 * functions a kind calls to evaluate expressions, look up names, make dofs
 * and markers, bind arguments, and reach the elements, laws and steps. What
 * only the core's own passes call is in passes.h.
 */
#ifndef JNT_SEMA_CORE_H
#define JNT_SEMA_CORE_H

#include "model.h"

/* ---- the model under construction (sema/access.c) ---- */

diag_ctx *sema_dc(const sema *S);          /* where errors go */
ex_pool *sema_pool(const sema *S);         /* the expressions */
ir_model *sema_ir(const sema *S);          /* the IR being built (states, outputs, blocks) */
const scope *sema_global(const sema *S);   /* every declared name */
const scope *sema_consts(const sema *S);   /* what a law body sees: constants, built-ins */

/* The tables (model.h) and their sizes: entry i (a pointer valid until the next
 * entry is added to the same table). */
dof *sema_dof(const sema *S, int i);
body *sema_body(const sema *S, int i);
marker *sema_marker(const sema *S, int i);
joint *sema_joint(const sema *S, int i);
subst *sema_sub(const sema *S, int i);
elem *sema_elem(const sema *S, int i);
sym *sema_sym(const sema *S, int i);
int sema_ndof(const sema *S);
int sema_nbody(const sema *S);
int sema_nmarker(const sema *S);
int sema_nsub(const sema *S);
int sema_nelem(const sema *S);
int sema_nsym(const sema *S);
int sema_ngather(const sema *S);      /* substructure points gathered so far (dof.g) */
int sema_body_id(const sema *S, const body *b);

/* Append substructure b (owned from now on): its index. */
int sema_add_sub(sema *S, const subst *b);

/* The model is a multibody model (an index-3 DAE), a spatial one when `spatial`. */
void sema_set_multibody(sema *S, int spatial);

/* Gravity's acceleration component k (x, y, z), or -1 without gravity. */
ex_id sema_gravity(const sema *S, int k);

/* Whether the model has a `simulate` block. */
int sema_have_sim(const sema *S);

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

/* A joint family's joint j (kinds/joint2d.c, joint3d.c): the rate of its relative
 * coordinate (j->rel_v, from j->rel) and its `drive` (a function of time and
 * parameters, a length when `slide`, else an angle: j->drive); 0, or -1 after an
 * error. */
int sema_joint_rate_drive(sema *S, joint *j, const ast *drive, int slide);

/* A point (x, y) or (x, y, z) of the ground, evaluated in scope sc (an element
 * array's instance may use its index), as a marker of its own (owner names it);
 * -1 after an error. */
int sema_mb_ground_point(sema *S, const scope *sc, const ast *e, const char *owner);
/* Evaluate element ei (lazily, once: elements may refer to each other). */
void sema_eval_elem(sema *S, int ei);

/* ---- elements (sema/element.c; their families are kinds: kind.h's `elem`) ---- */

/* An element's end: a dof, the ground, a marker (of a body, or a point (x, y[, z])
 * of the ground) or a joint; id its index. */
enum { END_ERR, END_DOF, END_GROUND, END_MARKER, END_JOINT };
typedef struct sema_end {
    int kind, id;
} sema_end;

/* The most settings an element family takes, with its geometries' and 'radius'. */
#define SEMA_MAX_SETTINGS 16

/* What the core hands an element's family and geometry (kind.h): its ends, the
 * settings it takes (name[0..nset)) and those given (set[i], or NULL), and once
 * placed, its relative displacement s = x_a - x_b and velocity v = v_a - v_b. */
struct elem_site {
    sema_end a, b;
    const char *name[SEMA_MAX_SETTINGS];
    const ast *set[SEMA_MAX_SETTINGS];
    int nset;
    sval s, v;
    sval normal; /* on a joint: its reaction (friction's default normal force), else V_ERR */
    ex_id v2;    /* a geometry's velocity along the other tangent (a plane bristle), or -1 */
};

/* The setting `name` of an element as given, or NULL. */
const ast *sema_elem_setting(const elem_site *site, const char *name);

/* Add quantity `name` to element el (a member, and an input of its law). */
void sema_elem_add_qty(elem *el, const char *name, sval v);

/* sema/law.c: the law of setting `setting` (law = NAME(...)) of element el,
 * of kind LAW_FORCE, LAW_FRICTION or LAW_CONTACT: its result, or sval_err. */
sval sema_law_force(sema *S, const scope *sc, elem *el, const ast *setting, int kind);

/* sema/steps.c: `steps = contact_steps(...)` (contact) or `friction_steps(...)`
 * of element el, its proposal the member `step`. */
void sema_step_control(sema *S, elem *el, const ast *st, int contact);

/* A friction element's inputs v2 (the slip velocity along the other tangent
 * of a plane bristle, v2 here; 0 for a slip along a line, v2 < 0) and v2_i
 * (its value at the last step end, a discrete state; 0 without one). */
void sema_friction_v2(sema *S, elem *el, ex_id v2);

/* ---- points and discrete states the geometries make ---- */

/* A point dof's virtual displacement (dof.lin_y, lin_c): for every body
 * coordinate and gathered point, its coefficient coef(kind, index, ctx)
 * (kind EX_Y or EX_UP; -1: none), or without coef the derivative of e by
 * the coordinate (rate 0, which also adds coefficient times rate to f->vel)
 * or by its rate (rate 1: e a speed linear in the rates). */
void sema_mb_lin(sema *S, dof *f, ex_id e, int rate, ex_id (*coef)(sema *, ex_kind, int, void *),
                 void *ctx);

/* Append dof f (owned from now on): its index. */
int sema_mb_push_dof(sema *S, const dof *f);

/* Discrete state d starts at e at the initial state (sema_init_finish). */
void sema_defer_init(sema *S, int d, ex_id e);


#endif
