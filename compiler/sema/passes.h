/*
 * passes.h: the functions the sema core's files share among themselves (the
 * driver's passes, scope, assembly, simulate, analyses, the multibody DAE, the
 * scene, the kinds' dispatch); kinds see core.h only.
 */
#ifndef JNT_SEMA_PASSES_H
#define JNT_SEMA_PASSES_H

#include "core.h"
#include "state.h"

/* sema/dispatch.c: the kinds, looked up in S->kinds */
/* Declaration pass `pass` of every kind that declares symbols (not bodies). */
void sema_kinds_declare(sema *S, int pass);

/* A member `name` of value base (a kind's value): 0 and *out, or -1 after an error. */
int sema_kind_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out);

/* The kind whose values include value kind vk (sema_kind.vk), or NULL. */
const sema_kind *sema_kind_of_value(const sema *S, vkind vk);

/* base[i] of a kind's value (i at iloc, the indexing at loc): 0 and *out, or -1 after
 * an error (one not indexable: "only arrays can be indexed"). */
int sema_kind_index(sema *S, sval base, long i, jnt_loc iloc, jnt_loc loc, sval *out);

/* Run one of the hooks (bind, assemble, mb_check, gather, check, release) of every kind,
 * in the list's order: offset is offsetof(sema_kind, hook). */
void sema_kinds_run(sema *S, size_t offset);

/* Pass 4: every kind's eval of the symbols it declared. */
void sema_kinds_eval(sema *S);

/* A dof's acceleration by the kind that owns it (sema_kind.dof_accel): 0, -1, or 1 when
 * no kind owns it. */
int sema_kinds_dof_accel(sema *S, int di, int skip, ex_id *a0, ex_id *alpha);

/* The kind that owns dof di's runtime acceleration (sema_kind.point_accel): 0 and *out,
 * or 1. */
int sema_kinds_point_accel(sema *S, int di, sval *out);

/* The body kind named `name`, or NULL after an error at loc listing the known ones. */
const sema_kind *sema_body_kind(sema *S, const char *name, jnt_loc loc);

/* An output file: in the working directory (sema_path_ok) and not one of the
 * model's own source or data files. 0 or -1 after an error. */
int sema_output_ok(sema *S, jnt_loc at, const char *given);

/* The global and constants-only scopes and an empty symbol table. */
void sema_scope_init(sema *S);

/* A new symbol for declaration decl, or NULL after reporting a built-in
 * name or a redefinition. */
sym *sema_declare(sema *S, enum sym_kind kind, const ast *decl);

/* Evaluate a const, param, let or integral (lazily, once); a cycle is
 * reported at `use`. */
void sema_eval_sym(sema *S, sym *s, jnt_loc use);

/* What a value that is not finite is ("+inf (it overflows ...)"), for messages. */
const char *sema_nonfinite_why(double x);

/* Evaluate every parameter's default in declaration order and report, at the parameter,
 * each that is not finite (log(0), sqrt(-1), 1e308 * 10) and does not inherit it. */
void sema_check_params(sema *S);

/* The values of an index domain (AST_ITER): their count, or -1 on error. */
int sema_domain(sema *S, const ast *iter, long **vals);
int sema_domain_in(sema *S, const scope *sc, const ast *iter, long **vals);

/* "; did you mean 'X'?" in buf for an unknown name seen in scope sc, or "". */
void sema_suggest(sema *S, const scope *sc, const char *name, char *buf, size_t n);

/* sema/import.c: pass 1, the declarations of the main file `file` and of
 * the files it imports, registered as symbols. */
void sema_register(sema *S, const ast *model, int file);

/* Pass 2: the instances and dofs of a body declaration. */
void sema_declare_body(sema *S, sym *s);

/* Pass 3: masses, prescribed motions, every element's forces; the dofs'
 * accelerations and the state equations. */
void sema_assemble(sema *S);

/* A dof's acceleration (output columns only): 0 and *out, or -1. */
int sema_dof_accel(sema *S, int dof, jnt_loc loc, sval *out);

/* F_eq of element ei (the force that keeps its relative acceleration zero):
 * 0 and *out, or -1 after an error. */
int sema_equiv_force(sema *S, int ei, jnt_loc loc, sval *out);

/* After the other passes: prescribed dofs replaced by their motion. */
void sema_eliminate_prescribed(sema *S);

/* sema/simulate.c: pass 4, the main file's run settings */
/* `init STATE = value`; seen[] marks the states (y, then d) set so far. */
void sema_eval_init(sema *S, const ast *d, unsigned char *seen);
void sema_eval_simulate(sema *S, const ast *d);
void sema_eval_output(sema *S, const ast *d);

/* A setting's value: parameters only, of dimension dim; -1 after an error. */
ex_id sema_setting_expr(sema *S, const ast *e, jnt_dim dim, const char *what);

/* sema/analysis.c: `analysis NAME : KIND(...)` of the main file (model), in
 * source `file` (a hysteresis analysis lowers a model of its own). */
void sema_eval_analysis(sema *S, const ast *d, const ast *model, int file);

/* The checks of the analyses that need the multibody counts (after
 * sema_mb_finish): a kinematic analysis needs as many constraints as
 * coordinates and no first-order states. */
void sema_analysis_finish(sema *S);

/* sema/units.c: a number literal with its unit, in SI (AST_NUM). */
sval sema_numlit(sema *S, const ast *n);
/* Evaluate a unit expression (a type annotation like 1/m, N*s/m). */
int sema_unit(sema *S, const ast *n, jnt_dim *out);


/* A dof whose position is expression pos (a marker's coordinate, a length between
 * markers), its velocity pos's rate: its index (name owned from now on). */
int sema_expr_dof(sema *S, char *name, const char *short_name, ex_id pos);

/* sema/scene.c: the model's bodies, markers, joints, meshes and contacts for its
 * pictures (jnt/scene.h), at the end of sema_lower (caller frees it). */
struct jnt_scene *sema_scene(sema *S);

/* For the scene (ir_model.want_scene): the values its pictures need of the
 * contact and friction elements between markers (gaps, forces, slip rates,
 * the markers' positions) as output columns of the scene's own IR (never
 * compiled), so that every later pass rewrites them as it does the
 * outputs; sema_scene takes them out as the scene's probes. */
void sema_scene_probes(sema *S);

/* sema/units_kind.c: what output column e of dimension dim is beyond its
 * dimension, JNT_KIND_* (an angle, an energy, ...; JNT_KIND_NONE when its
 * parts do not say or disagree with dim). */
int sema_out_kind(sema *S, const ast *e, jnt_dim dim);

/* The mass of body coordinate f (m, J or E_i; 1 when unknown). */
ex_id sema_mb_dof_mass(sema *S, const dof *f);

/* Elements between markers and on joints act on a point dof made for them:
 * the length |r_a - r_b| between markers ma and mb (`ename.length`), or a
 * joint's coordinate, its slide s (prismatic) or radius times its angle
 * (revolute; radius in m), `ename.slip`. Return the dof. */
int sema_mb_length(sema *S, int ma, int mb, const char *ename);

/* The length of the energy-consistent form for the midpoint rule (seed 001
 * eq. 4): with u = r_a - r_b, its value at the step's start u_i kept in
 * discrete states (updated at each step end) and u_f = 2 u - u_i (u is
 * evaluated at the midpoint), the dof's position is (|u_i| + |u_f|)/2 and
 * its virtual displacement n_m . du, n_m = 2 u / (|u_i| + |u_f|), so that a
 * force F on it does the work F (|u_f| - |u_i|) over a step. *li, *lf: the
 * two lengths. At a step end (outputs) the position is |u|. */
int sema_mb_ec_length(sema *S, int ma, int mb, const char *ename, ex_id *li, ex_id *lf);
int sema_mb_joint_coord(sema *S, int ji, ex_id radius, const char *ename);

/* F_eq of element ei on joint ji (see sema_equiv_force): a prismatic joint
 * to the ground whose body has no other joint. 0 or -1 (error reported). */
int sema_mb_equiv_force(sema *S, int ei, int ji, jnt_loc loc, sval *out);

/* The acceleration of body coordinate di (outputs; pass 4). */
ex_id sema_mb_accel(sema *S, int di);

/* Assembly pins (sema/pins.c; pass 4, `init`; docs/multibody.md "Pins and joint
 * coordinates"). sema_init_fixed: an initial value written fixed(value):
 * *value becomes its argument; 1 when so written, 0 when not, -1 when
 * malformed (reported). sema_mb_init_joint: `init J.angle = v` (J.s, their
 * rates J.angle.v, J.s.v, J.speed) pins joint J's coordinate; returns 1 when
 * target is no joint's member, else 0 (pinned, or an error reported).
 * sema_mb_pin: pin quantity q (an expression of the bodies' coordinates, or
 * of their velocities) named name at value (parameters only); wrap: an angle
 * that atan2 gives, pinned modulo 2 pi. 0, or -1 with the error reported. */
int sema_init_fixed(sema *S, const ast **value);
int sema_mb_init_joint(sema *S, const ast *target, const ast *value);
int sema_mb_pin(sema *S, const char *name, ex_id q, ex_id value, int wrap, jnt_loc loc);

/* Last: the constraints and their forces, the states ordered as the DAE
 * wants them (y = [q, v, z, lambda]), the mass matrix and C_t, gamma. */
void sema_mb_finish(sema *S);
void sema_mb_free(sema *S);

/* e at the initial state: the states replaced by their initial values (an
 * expression of the parameters), or -1 when e reads gathered points or
 * discrete states. */
ex_id sema_at_init(sema *S, ex_id e);

/* Last, before sema_steps_finish: the deferred initial values; a state whose
 * expression reads gathered points keeps the initial value it has. */
void sema_init_finish(sema *S);
/* Gravity on every body (pass 3, after the masses). */
void sema_mb_gravity(sema *S);

/* Members of a marker: marker.x, .y, .vx, .vy (.z, .vz). */
int sema_marker_member(sema *S, int mi, const char *name, jnt_loc loc, sval *out);

/* The model's proposed next step, the least of the elements' (discrete
 * state JNT_STEP_STATE, abi.h); nothing without step control. */
void sema_steps_finish(sema *S);
/* Members of an element (its force, s, v, its law's quantities). */
int sema_elem_member(sema *S, int ei, const char *name, jnt_loc loc, sval *out);
/* sema/joints.c: `joint NAME : TYPE(A, B, ...)` (pass 2); a joint's members and its
 * constraint rows (into c[], j->nl of them), by its family. */
void sema_declare_joint(sema *S, sym *s);
int sema_joint_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out);
void sema_joint_rows(sema *S, const joint *j, ex_id *c);
/* The family (kind.h's `elem`) of elements of kind k (ELEM_*), or NULL (force, motion). */
const sema_kind *sema_elem_family(const sema *S, int k);
/* Pass 2: the instances of an element declaration. */
void sema_declare_elem(sema *S, sym *s);

#endif
