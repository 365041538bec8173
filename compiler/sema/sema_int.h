/*
 * sema_int.h: sema's internal state and the functions its files share:
 * sema.c (the driver), sema/scope.c (symbols, lookup, index domains),
 * sema/import.c (pass 1: names and imports), sema/assemble.c (bodies, the
 * equations of motion), sema/simulate.c (init, simulate, output),
 * sema/analysis.c (analyses), sema/eval.c (expressions, units, built-ins),
 * kinds/element.c (elements and law instantiation), kinds/substructure.c,
 * kinds/substructure_basis.c and kinds/substructure_gather.c (substructures: declaration,
 * reduction basis, points), kinds/chain.c, kinds/point.c and kinds/interface.c.
 * Not part of any public interface.
 */
#ifndef JNT_SEMA_INT_H
#define JNT_SEMA_INT_H

#include "front/ast.h"
#include "front/diag.h"
#include "lower/ir.h"
#include "jnt/jnt.h"
#include "jnt/setup.h"

#define JNT_PI 3.14159265358979323846

typedef struct sema sema;

/* What an expression evaluates to. */
typedef enum vkind {
    V_ERR,    /* an error was already reported: propagate silently */
    V_NUM,    /* a number: e, dim */
    V_DOF,    /* a degree of freedom: id = dof index (as a number: its position) */
    V_BODY,   /* id = body index */
    V_ELEM,   /* id = element index */
    V_GROUND, /* the ground */
    V_ARRAY,  /* id = symbol index of an array declaration */
    V_LAW,    /* id = symbol index of a law */
    V_SUB,    /* id = substructure index */
    V_SUBSET, /* id = substructure index, aux = node set index */
    V_SUBNODE,/* id = substructure index, aux = node index */
    V_CHAIN,  /* id = quasi-static chain index (ir_model.chains) */
    V_IFACE,  /* id = interface index (ir_model.ifaces) */
    V_MARKER, /* id = marker index (a point fixed in a rigid body, or in the ground) */
    V_JOINT   /* id = joint index */
} vkind;

typedef struct sval {
    vkind k;
    ex_id e;
    jnt_dim dim;
    int id;
    int zero_lit; /* a plain literal 0: adopts the dimension it meets */
    int aux;      /* V_SUBSET: the set; V_SUBNODE: the node */
} sval;

enum sym_kind { SYM_CONST, SYM_PARAM, SYM_LET, SYM_GROUND, SYM_BODY, SYM_ELEM, SYM_LAW,
                SYM_INTEGRAL, SYM_SUB, SYM_CHAIN, SYM_POINT, SYM_IFACE, SYM_JOINT };

typedef struct sym {
    enum sym_kind kind;
    const char *name;
    const ast *decl;
    int busy, done; /* lazy evaluation and cycle detection */
    sval val;       /* SYM_CONST, SYM_LET: the value; SYM_PARAM: p[pidx] */
    int pidx;       /* SYM_PARAM: p index; SYM_INTEGRAL: y index */
    int *inst;      /* SYM_BODY, SYM_ELEM: instance (body/elem index) per array index */
    long *idx;      /* the array indices (NULL for a scalar) */
    int ninst;
} sym;

/* A named quantity of an element, visible as NAME.q (force, s, v, law locals). */
typedef struct qty {
    const char *name;
    sval val;
} qty;

typedef struct body {
    char *name;
    const ast *decl;
    const char *iname; /* array iterator bound for this instance, or NULL */
    long ival;
    sval mass;
    int dof0, ndof;
    int rigid;        /* rigid2d (and flexible2d): dofs x, y, angle; inertia about its
                         centre of mass */
    int flex;         /* flexible2d: its frame is x, y, angle; its elastic coordinates
                         are those of substructure `sub` (kinds/flexible.c) */
    int sub;
    sval inertia;
    int rigid3;       /* rigid3d: dofs x, y, z and the directors d1, d2, d3 (the columns
                         of its rotation matrix; kinds/rigid3d.c) */
    ex_id euler[3];   /* rigid3d: the Euler tensor's principal values E_i (the
                         directors' masses), in kg m^2 */
    int paxes;        /* rigid3d with products of inertia: the directors are the
                         principal axes, columns of pq in the declared body frame */
    double pq[9];
    ex_id rows[6];    /* rigid3d, flexible3d: the directors' orthonormality, C = 0 */
    int l0, nrows;    /* their multipliers, states y[l0 .. l0 + nrows): 6, or 0 */
    int shape;        /* rigid2d, rigid3d: `shape = box(...)`: JNT_SHAPE_* (jnt/scene.h), */
    ex_id shape_size[3]; /* its sizes (m, parameters only; -1 past its count): 0 none */
} body;

/* A point fixed in a rigid2d body (body >= 0; its coordinates dofs dx, dy,
 * `points` made of the body's coordinates) or in the ground (body -1). */
typedef struct marker {
    char *name;       /* "rod.tip" */
    const char *short_name;
    int body;
    ex_id px, py;     /* its position: expressions of the body's states */
    ex_id angle;      /* the angle of the frame it is fixed in (0 for the ground) */
    int dx, dy;       /* its coordinates as dofs, or -1 */
    int d3;           /* a spatial marker (rigid3d body, or a ground point (x, y, z)):
                         pz, dz hold its third coordinate; angle is unused */
    ex_id pz;
    int dz;
    int rot_on;       /* a flexible body's node marker that turns with its node: */
    ex_id rot[3];     /* the node's elastic rotation (rx, ry, rz: small, about the
                         frame's axes; planar: rz) and its rate */
    ex_id rotv[3];
} marker;

/* A joint between two markers: its constraint rows C (built last, when the
 * initial angles are known) and their multipliers, states y[l0 .. l0 + nl). */
enum { JOINT_REVOLUTE, JOINT_PRISMATIC, JOINT_FIXED, JOINT_SPHERICAL, JOINT_UNIVERSAL,
       JOINT_CYLINDRICAL, JOINT_PLANAR };
typedef struct joint {
    char *name;
    const ast *decl;
    int kind, a, b;   /* kind, markers */
    ex_id ex, ey;     /* prismatic: the axis (unit, in b's frame) in the plane */
    ex_id drive;      /* the prescribed relative coordinate (a function of t), or -1 */
    ex_id rel, rel_v; /* the relative coordinate (angle or slide) and its rate */
    int l0, nl;
    int d3;           /* spatial (kinds/rigid3d.c): rows[] are its constraint rows, the first
                         npos of them r_a - r_b (x, y, z), then nori rows u_k . w_k of
                         vectors fixed in a and in b (their torque on a: -lambda u x w) */
    ex_id rows[8];
    int npos, nori;
    ex_id ou[3][3], ow[3][3];
} joint;

typedef struct dof {
    char *name;   /* "block.x", "beam.tip.uy" */
    const char *short_name;
    int body;     /* point-mass body, or -1 for a substructure point */
    int y;        /* position state (velocity y + 1); -1 for a substructure point */
    ex_id pos, vel; /* its position and velocity as expressions */
    int sub;      /* substructure, or -1 */
    double *coef; /* substructure point: u = sum_k coef[k] q_k (r entries, owned) */
    int g;        /* substructure point: its gathered index (pos = u[g], vel = uv[g]), or -1 */
    ex_id force;  /* sum of applied forces */
    ex_id acc;    /* acceleration, after assembly */
    ex_id motion; /* prescribed position (a function of t and parameters), or -1 */
    jnt_loc motion_loc;
    int point;    /* a `point`: pos = offset + sum lin_c[k] x_k (owned), x_k = y[lin_y[k]], or
                     the gathered position u[-1 - lin_y[k]] when lin_y[k] < 0 */
    int *lin_y;
    ex_id *lin_c;
    int nlin, caplin;
} dof;

/* A substructure, reduced at compile time (the setup library, jnt/setup.h). */
typedef struct subst {
    char *name;
    const ast *decl;
    struct fe_model *fe;  /* its finite-element model (owned) */
    double *phi;          /* ndof x r basis, column-major (owned) */
    int ndof, r;
    int q0;               /* y index of q_1 (velocities at q0 + r) */
    double *minv, *minv_k, *minv_c; /* r x r (owned; handed to the IR) */
    double zeta;          /* modal damping ratio, or -1 */
    double *mr, *kr, *cr; /* the reduced matrices (r x r, owned), for energies */
    double place[2];      /* x0, y0 (m): where its mesh (rotated by `angle` at import)
                             lies in the plane of an interface */
    ex_id frame[2];       /* prescribed translation of its frame (functions of t), or -1 */
    ex_id ray[2];         /* time-varying Rayleigh alpha(t), beta(t), or -1 */
    ex_id *g;             /* generalized forces, r */
    double *ffrf;         /* the elastic coordinates of a flexible2d body: its inertia
                             invariants (JNT_FFRF_SIZE(r), owned; handed to the IR) */
    int sparse;           /* unreduced, reduce = none or beyond JNT_MAX_BLOCK: phi is the identity, mr, kr,
                             cr and minv* are NULL, and only a flexible2d body may take it
                             (its invariants sparse, JNT_FFRF_SP_*, nffrf doubles) */
    long nffrf;
    fe_sparse m0;         /* with fixes: the mass matrix before them (owned), and the */
    int *dof0;            /* nodes' ux, uy in its numbering (2 per node, owned), or NULL */
} subst;

typedef struct scope scope;

typedef struct elem {
    char *name;       /* "slide", "k[3]" */
    int kind;         /* ELEM_* or ELEM_FORCEDEF */
    const ast *decl;
    const char *iname;/* array iterator name bound for this instance, or NULL */
    long ival;
    int busy, done;
    int a, b;         /* endpoint dofs, -1 for ground; FORCEDEF: a = target */
    int joint;        /* `KIND NAME on JOINT`: the joint, else -1 */
    int ec;           /* contact between markers in the energy-consistent form */
    ex_id qi, qf;     /* ec: the gap at the step's start and end (sema_mb_ec_length) */
    sval force;       /* element force (positive resists a moving toward b) */
    qty *q;
    int nq, capq;
} elem;

#define ELEM_FORCEDEF 16 /* force NAME on DOF = expr */
#define ELEM_MOTION 17   /* motion NAME on DOF = expr: a prescribed position */

/* Name lookup frames: iterator bindings, law scopes, the global scope. */
struct scope {
    const scope *up;
    /* 1 and *out when found, 0 when not */
    int (*lookup)(struct sema *S, const scope *sc, const char *name, jnt_loc loc, sval *out);
    /* add the names this frame defines to the candidate list (for suggestions) */
    void (*names)(struct sema *S, const scope *sc, const char ***list, int *n, int *cap);
    /* der(x) inside a law: 0 and *out, or -1 after reporting an error */
    int (*der)(struct sema *S, const scope *sc, const ast *n, sval *out);
    void *ctx;
    const char *iname; /* iterator frame */
    long ival;
};

struct sema {
    diag_ctx *dc;
    ast_arena *arena;
    ir_model *m;
    ex_pool *pool;
    sym *syms;
    int nsym, capsym;
    int *hash;        /* open addressing into syms, size hcap */
    int hcap;
    body *bodies;
    int nbody, capbody;
    dof *dofs;
    int ndof, capdof;
    int ngather;      /* substructure points gathered so far (dof.g) */
    elem *elems;
    int nelem, capelem;
    subst *subs;
    int nsub, capsub;
    int in_output;    /* evaluating an output column: accelerations allowed */
    int assembled;    /* dof accelerations are known */
    scope global;     /* every declared name */
    scope consts;     /* what a law body sees: constants and built-ins */
    int have_sim, have_out, have_an;
    marker *markers;
    int nmarker, capmarker;
    joint *joints;
    int njoint, capjoint;
    int multibody;    /* a rigid2d body or a joint: the model is an index-3 DAE */
    ex_id *steps;     /* the elements' step proposals (kinds/element.c, step_control), */
    ex_id *steps0;    /* and at the initial state (parameters only) */
    int nsteps, capsteps;
    int *step_t;      /* their time states, which start at the run's start */
    int nstep_t, capstep_t;
    int *dinit_d;     /* discrete states that start at an expression of the states */
    ex_id *dinit_e;   /* (evaluated at the initial state once every 'init' is known) */
    int ndinit, capdinit;
    jnt_loc steps_loc; /* the first 'steps' setting */
    ex_id gravity[3]; /* its acceleration (gx, gy[, gz]), or -1 */
    int spatial;      /* a rigid3d body: the multibody model is spatial */
    const ast *model; /* the main file's declarations */
    char **stack;     /* real paths of the files being imported (cycle detection) */
    int *stack_file;  /* their source indices */
    int nstack, capstack;
    char **imported;  /* real paths of the files already read */
    int nimported, capimported;
    char **data;      /* real paths of the data files read (fe matrices, node tables): */
    int ndata, capdata; /* an output may not overwrite one (sema_output_ok) */
    int eval_depth;   /* sema_eval's recursion (operators, calls, 'let's): SEMA_MAX_DEPTH */
    int depth_said;   /* the depth error was reported (once per model) */
};

/* The deepest expression sema evaluates: a 10,000-term sum or 4,000 chained
 * 'let's would overflow the stack here and in the passes after sema. */
#define SEMA_MAX_DEPTH 1000

/* sema/files.c */
/* Whether a file named `given` in a model (resolved to `resolved`) stays in
 * directory `base` (no absolute path, no '..', no link out) or under an
 * allowed directory (dc->allow_path). 0, or -1 after a located error naming
 * `what` ("data file", "import", "output"). */
int sema_path_ok(sema *S, jnt_loc at, const char *given, const char *resolved, const char *base,
                 const char *what);
/* An output file: in the working directory (sema_path_ok) and not one of the
 * model's own source or data files. 0 or -1 after an error. */
int sema_output_ok(sema *S, jnt_loc at, const char *given);
/* Record a data file the model reads (sema_output_ok keeps outputs off it). */
void sema_data_file(sema *S, const char *path);

/* sema/scope.c */
/* The global and constants-only scopes and an empty symbol table. */
void sema_scope_init(sema *S);
/* A new symbol for declaration decl, or NULL after reporting a built-in
 * name or a redefinition. */
sym *sema_declare(sema *S, enum sym_kind kind, const ast *decl);
/* Evaluate a const, param, let or integral (lazily, once); a cycle is
 * reported at `use`. */
void sema_eval_sym(sema *S, sym *s, jnt_loc use);
/* sema/assemble.c: the rule a body's mass (POS_MASS), rigid2d inertia (POS_INERTIA) or
 * rigid3d Euler moment (POS_EULER: (Jj + Jk - Ji) / 2, the triangle inequality) meets:
 * finite, and positive, an Euler moment not negative (equality in the triangle
 * inequality is a lamina, like the heavy top's). Checked here when the value is known
 * at compile time (literals, constants), by the params kernel when it uses parameters
 * (gen.c prints the same comparison from pos_kind). */
int sema_mass_ok(int kind, double x);
/* What a value that is not finite is ("+inf (it overflows ...)"), for messages. */
const char *sema_nonfinite_why(double x);
/* Evaluate every parameter's default in declaration order and report, at the parameter,
 * each that is not finite (log(0), sqrt(-1), 1e308 * 10) and does not inherit it. */
void sema_check_params(sema *S);
/* The values of an index domain (AST_ITER): their count, or -1 on error. */
int sema_domain(sema *S, const ast *iter, long **vals);
int sema_domain_in(sema *S, const scope *sc, const ast *iter, long **vals);
/* Size a declaration's instance table (s->inst, s->idx, s->ninst): the count
 * of instances, 0 on error; *vals = the array indices (NULL for a scalar). */
int sema_instances(sema *S, sym *s, long **vals);
/* The symbol called name, or NULL. */
sym *sema_find(sema *S, const char *name);
/* "; did you mean 'X'?" in buf for an unknown name seen in scope sc, or "". */
void sema_suggest(sema *S, const scope *sc, const char *name, char *buf, size_t n);

/* sema/import.c: pass 1, the declarations of the main file `file` and of
 * the files it imports, registered as symbols. */
void sema_register(sema *S, const ast *model, int file);

/* sema/assemble.c */
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
/* The sum of the forces on dof di from every element but `skip`. */
ex_id sema_other_forces(sema *S, int di, int skip);
/* Replace the leaves (kind, i) by repl[i] in every expression of the model. */
void sema_subst_all(sema *S, ex_kind kind, const ex_id *repl);
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

/* sema/eval.c */
sval sema_eval(sema *S, const scope *sc, const ast *n);
/* Evaluate to a number (a dof reads as its position); reports an error
 * naming `what` otherwise and returns V_ERR. */
sval sema_num(sema *S, const scope *sc, const ast *n, const char *what);
/* Evaluate and require a dimension; `what` names the quantity in messages. */
sval sema_num_dim(sema *S, const scope *sc, const ast *n, jnt_dim want, const char *what);
/* Evaluate a unit expression (a type annotation like 1/m, N*s/m). */
int sema_unit(sema *S, const ast *n, jnt_dim *out);
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
/* A friction element's inputs v2 (the slip velocity along the other tangent
 * of a plane bristle, v2 here; 0 for a slip along a line, v2 < 0) and v2_i
 * (its value at the last step end, a discrete state; 0 without one). */
void sema_friction_v2(sema *S, elem *el, ex_id v2);

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

/* kinds/substructure.c */
/* Bind the named/positional arguments call->kids[first..last) to the n
 * specs; values in v[] (a keyword: its index), strings in str[] (may be NULL
 * when no spec is a string). Every value must be a compile-time constant.
 * 0, or -1 after reporting errors (`what` names the call). */
int sema_bind_args(sema *S, const ast *call, int first, int last, const arg_spec *spec, int n,
                   const char *what, double *v, const char **str);
/* Pass 2: build, constrain, damp and reduce substructure s; its states. */
void sema_declare_sub(sema *S, sym *s);
void sema_sub_free(sema *S);

/* kinds/substructure_basis.c */
/* The basis of a `reduce = ...` setting e on the model fe: 0, or -1 after
 * reporting errors (out may hold part of a basis: red_basis_free it). */
int sema_sub_basis(sema *S, const ast *e, const fe_model *fe, red_basis *out);
/* The node sets named by a setting value, NAME or {NAME, ...}: their
 * indices in sets[] (at most max), their count, or -1 after an error. */
int sema_sub_sets(sema *S, const ast *e, const fe_model *fe, int *sets, int max);
/* The index (FE_UX ...) of a component name "ux" .. "rz", or -1. */
int sema_sub_comp(const char *name);

/* kinds/substructure_gather.c */
/* Members of a substructure (sets, nodes, components): 0 and *out, or -1. */
int sema_sub_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out);
int sema_sub_index(sema *S, sval base, long i, jnt_loc loc, sval *out);
/* The acceleration of substructure point di as a0 + alpha F, F the force of
 * element `skip` on it (excluded from a0): 0, or -1 after an error. */
int sema_sub_accel(sema *S, int di, int skip, ex_id *a0, ex_id *alpha);
/* The substructures' own generalized forces (frame inertia) and blocks. */
void sema_sub_assemble(sema *S);
/* Last: the gathered points in block order, their forces and the blocks'
 * rows (after every expression is built). */
void sema_sub_gather(sema *S);
/* In a model with sliding interfaces: the acceleration of substructure
 * point di from the accelerations the runtime writes (discrete states). */
sval sema_sub_point_accel(sema *S, int di);

/* kinds/chain.c: `substructure NAME : iwan_chain(...)` */
void sema_declare_chain(sema *S, sym *s);
/* Its stiffness, slip strength and loads (after assembly). */
void sema_eval_chain(sema *S, const sym *s);
int sema_chain_member(sema *S, int ci, const char *name, jnt_loc loc, sval *out);

/* kinds/point.c: `point NAME = linear combination of dof positions` */
void sema_declare_point(sema *S, sym *s);
/* Hand the forces on points to the dofs and generalized coordinates they
 * are made of (before sema_sub_assemble). */
void sema_point_assemble(sema *S);

/* kinds/interface.c: `interface NAME between A and B : sliding { ... }` */
void sema_declare_iface(sema *S, sym *s);
int sema_iface_member(sema *S, int fi, const char *name, jnt_loc loc, sval *out);
/* Last: what a model with sliding interfaces (or without) may hold: its
 * integrator, its states, time-varying damping. */
void sema_iface_check(sema *S);

/* kinds/rigid2d.c: planar multibody (rigid2d bodies, markers, joints, gravity) */
/* Pass 2: the dofs x, y, angle and the markers of rigid2d body b. */
void sema_declare_rigid2d(sema *S, body *b);
/* Pass 2: `joint NAME : KIND(A, B, ...)`. */
void sema_declare_joint(sema *S, sym *s);
/* A pair (a, b) of dimension dim: 0 and out[2], or -1 after an error. */
int sema_mb_pair(sema *S, const scope *sc, const ast *e, jnt_dim dim, const char *what,
                 ex_id out[2]);
/* A new position state (and its velocity) of body b: its dof index. */
int sema_mb_add_dof(sema *S, body *b, const char *short_name, jnt_dim dim, jnt_loc loc);
/* Add marker m (name, body, px, py, angle set): its index. */
int sema_mb_add_marker(sema *S, marker m);

/* kinds/flexible.c: flexible2d bodies (a floating frame carrying a substructure) */
/* Pass 2: the frame's dofs x, y, angle of flexible2d body b. */
void sema_declare_flexible2d(sema *S, body *b);
/* After the substructures: each flexible body's substructure, its
 * invariants and its markers. */
void sema_flex_bind(sema *S);
/* Elements on points of a flexible body's substructure: only between two of
 * them (an error otherwise). */
void sema_flex_check_elems(sema *S);
/* The flexible body whose elastic coordinates are substructure si, or -1. */
int sema_flex_of_sub(const sema *S, int si);

/* sema/scene.c: the model's bodies, markers, joints, meshes and contacts for its
 * pictures (jnt/scene.h), at the end of sema_lower (caller frees it). */
struct jnt_scene *sema_scene(sema *S);
/* A rigid body's `shape = box(lx, ly, lz)`, `cylinder(radius, length)` or
 * `sphere(radius)` (lengths, parameters only; what its pictures draw): into
 * b->shape, b->shape_size, or a located error. */
void sema_body_shape(sema *S, body *b, const ast *e);
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
/* The dof of component comp of node `node` of substructure si (made once). */
int sema_sub_node_dof(sema *S, int si, int node, int comp, jnt_loc loc);

/* kinds/rigid3d.c: spatial multibody (rigid3d bodies in director coordinates,
 * spatial markers and joints) */
/* Pass 2: the dofs x, y, z, d1, d2, d3, the mass and the markers of rigid3d
 * body b. */
void sema_declare_rigid3d(sema *S, body *b);
/* Pass 2: a flexible3d body's frame (rigid3d's coordinates and rows); its
 * substructure, invariants and markers come with sema_flex_bind. */
void sema_declare_flexible3d(sema *S, body *b);
/* A marker of spatial body b at body-frame place X (expressions; a node's
 * may hold its gathered elastic displacement): x + sum_i X_i d_i. rot: a
 * node's elastic rotation and its rate (6 expressions), or NULL. */
void sema_mb3d_marker(sema *S, body *b, const char *name, const ex_id X[3], const ex_id *rot);
/* Joint j (kind, name, decl, markers a and b set; one of them spatial): its
 * rows, relative coordinate and multipliers from `axis`, `axis_b` and
 * `drive` (each may be NULL). 0 or -1 after an error. */
int sema_joint3d(sema *S, joint *j, const ast *axis, const ast *axis_b, const ast *drive);
/* A triple (a, b, c) of dimension dim: 0 and out[3], or -1 after an error. */
int sema_mb_triple(sema *S, const scope *sc, const ast *e, jnt_dim dim, const char *what,
                   ex_id out[3]);
/* Members of a spatial joint (fx, fy, fz, mx, my, mz, ...) and of a rigid3d
 * body (wx, wy, wz, Lx, Ly, Lz, kinetic): 0, 1 when `name` is not one of them,
 * -1 after an error (the joint's, or the body's declaration's: a rigid3d body whose
 * mass or inertia failed has none of them, and its uses report nothing more). */
int sema_joint3d_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out);
int sema_rigid3d_member(sema *S, int bi, const char *name, sval *out);
/* The slip of a clearance joint's races (seed 001 eqs. 5-6) between the
 * markers (both spatial or both planar) ma (the inner race's centre, radius
 * rho_a) and mb (the outer race's, rho_b) as a dof for a friction element.
 * Its velocity is the contact points' relative velocity along the tangent t
 * = a x n (a: z for planar markers, else `axis`, fixed in mb's body; n the
 * unit vector from mb's centre to ma's, across a), or with `axial` along a,
 * a signed speed that passes through zero where the races roll or stick;
 * with spatial markers and no axis (n along the centres' offset) it is the
 * tangential speed |V^t|, regularised as sqrt(|V^t|^2 + v_eps^2) - v_eps.
 * Its virtual displacement is the derivative of that velocity by the
 * velocities, so that a force F on it is -F e at the contact points (e the
 * slip direction). Its position is 0. v2 (with an axis, or NULL): the
 * velocity along the other tangent (axial, or circumferential). Returns the
 * dof, or -2 after an error (the axis). */
int sema_mb_clearance_slip(sema *S, int ma, int mb, ex_id rho_a, ex_id rho_b, const ast *axis,
                           int axial, const char *ename, ex_id *v2);
/* Seed 001's spatial clearance joint (eqs. 8-13): the gap q between a
 * cylinder of radius rho_k around the axis through marker mb (fixed in its
 * body; `axis` in the world frame at t = 0, z when NULL) and a thin disk of
 * radius rho_l centred at marker ma, normal to the same axis at t = 0 (fixed
 * in its body), as a dof whose position is -q (a contact with gap0 = 0 acts
 * on the gap q). With ai, af (the energy-consistent form, for the midpoint
 * rule): -q at the step's start and end into *ai, *af, the position their
 * mean and the virtual displacement a discrete gradient, so that a force F
 * on it does the work F (*af - *ai) over a step. -1 after an error. */
int sema_mb_cylinder_gap(sema *S, int ma, int mb, ex_id rho_k, ex_id rho_l, const ast *axis,
                         const char *ename, ex_id *ai, ex_id *af);
/* A point dof's virtual displacement (dof.lin_y, lin_c): for every body
 * coordinate and gathered point, its coefficient coef(kind, index, ctx)
 * (kind EX_Y or EX_UP; -1: none), or without coef the derivative of e by
 * the coordinate (rate 0, which also adds coefficient times rate to f->vel)
 * or by its rate (rate 1: e a speed linear in the rates). */
void sema_mb_lin(sema *S, dof *f, ex_id e, int rate, ex_id (*coef)(sema *, ex_kind, int, void *),
                 void *ctx);
/* Append dof f (owned from now on): its index. */
int sema_mb_push_dof(sema *S, const dof *f);
/* The mass of body coordinate f (m, J or E_i; 1 when unknown). */
ex_id sema_mb_dof_mass(sema *S, const dof *f);

/* Pass 3: mass and inertia of rigid2d body b; gravity on every body. */
void sema_rigid2d_mass(sema *S, body *b);
void sema_mb_gravity(sema *S);
/* A point (x, y) of the ground as a marker of its own (owner names it);
 * -1 after an error. */
int sema_mb_ground_point(sema *S, const ast *e, const char *owner);
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
/* Members: marker.x, .y, .vx, .vy; joint.fx, .fy, .torque, ... */
int sema_marker_member(sema *S, int mi, const char *name, jnt_loc loc, sval *out);
int sema_joint_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out);
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
/* kinds/element.c */
/* Add quantity `name` to element el (a member, and an input of its law). */
void sema_elem_add_qty(elem *el, const char *name, sval v);
/* sema/law.c: the law of setting `setting` (law = NAME(...)) of element el,
 * of kind LAW_FORCE, LAW_FRICTION or LAW_CONTACT: its result, or sval_err. */
sval sema_law_force(sema *S, const scope *sc, elem *el, const ast *setting, int kind);
/* sema/steps.c: `steps = contact_steps(...)` (contact) or `friction_steps(...)`
 * of element el, its proposal the member `step`. */
void sema_step_control(sema *S, elem *el, const ast *st, int contact);
/* e at the initial state: the states replaced by their initial values (an
 * expression of the parameters), or -1 when e reads gathered points or
 * discrete states. */
ex_id sema_at_init(sema *S, ex_id e);
/* Discrete state d starts at e at the initial state (sema_init_finish). */
void sema_defer_init(sema *S, int d, ex_id e);
/* Last, before sema_steps_finish: the deferred initial values; a state whose
 * expression reads gathered points keeps the initial value it has. */
void sema_init_finish(sema *S);
/* The model's proposed next step, the least of the elements' (discrete
 * state JNT_STEP_STATE, abi.h); nothing without step control. */
void sema_steps_finish(sema *S);
void sema_eval_elem(sema *S, int ei);
int sema_elem_member(sema *S, int ei, const char *name, jnt_loc loc, sval *out);
void sema_declare_elem(sema *S, sym *s);

#endif
