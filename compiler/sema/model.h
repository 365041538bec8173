/*
 * model.h: what sema builds a model from: values (sval) and symbols, the
 * bodies, markers, joints, dofs, substructures and elements of the model
 * under construction. Kinds fill these tables through the core (core.h:
 * sema_dof, sema_add_sub, ...); the core's passes read them. sema's own
 * state (struct sema) is the core's (state.h). Not part of any public
 * interface.
 */
#ifndef JNT_SEMA_MODEL_H
#define JNT_SEMA_MODEL_H

#include "front/ast.h"
#include "front/diag.h"
#include "lower/ir.h"
#include "jnt/jnt.h"
#include "jnt/setup.h"
#include "kind.h"

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
    const sema_kind *kind; /* its kind (kinds/registry.c) */
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
    int ma, mb;       /* its ends' markers (a point of the ground's own, body -1), else -1 */
    int ec;           /* contact between markers in the energy-consistent form */
    ex_id qi, qf;     /* ec: the gap at the step's start and end (sema_mb_ec_length) */
    int races;        /* placed on a clearance joint's races (kinds/clearance.c, for the
                         pictures): 1 a friction's `radii`, 2 a contact's cylinder; 0 none */
    ex_id race_rho[2];/* their radii at its first and second end (m) */
    const ast *race_axis; /* the bearing axis as written (world frame, t = 0), or NULL */
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


#endif
