/*
 * element.c: elements (spring, damper, friction, contact, force); their
 * laws are instantiated by sema/law.c, their step control is sema/steps.c's.
 *
 * Sign convention: an element between dofs a and b has the relative
 * displacement s = x_a - x_b and velocity v = v_a - v_b; its force F acts as
 * -F on a and +F on b (F > 0 resists s growing). A contact element's gap is
 * gap0 - s, and its force is pressure * area.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_MS = {{0, 6, -6, 0, 0}};
static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};
static const jnt_dim DIM_PA = {{6, -6, -12, 0, 0}};
static const jnt_dim DIM_M2 = {{0, 12, 0, 0, 0}};

/* See passes.h. */
void sema_elem_add_qty(elem *el, const char *name, sval v)
{
    XGROW(el->q, el->capq, el->nq);
    el->q[el->nq++] = (qty){name, v};
}

/* Set the element's first quantity `name` (a law's input) to v. */
static void set_qty(elem *el, const char *name, sval v)
{
    for (int i = 0; i < el->nq; i++)
        if (strcmp(el->q[i].name, name) == 0) {
            el->q[i].val = v;
            return;
        }
    sema_elem_add_qty(el, name, v);
}

/* ---- elements ---------------------------------------------------------------------- */

static const char *elem_kind_name(int k)
{
    switch (k) {
    case ELEM_SPRING: return "spring";
    case ELEM_DAMPER: return "damper";
    case ELEM_FRICTION: return "friction";
    case ELEM_CONTACT: return "contact";
    default: return "force";
    }
}

/* An element's endpoint: a dof, the ground, a marker (of a rigid body, or a
 * point (x, y) of the ground) or a joint. */
enum { END_ERR, END_DOF, END_GROUND, END_MARKER, END_JOINT };
typedef struct end {
    int kind, id;
} end;

static end endpoint(sema *S, const scope *sc, const ast *n, const char *owner)
{
    if (n->kind == AST_GROUND) /* KIND NAME on X: the other end is the ground */
        return (end){END_GROUND, -1};
    if (n->kind == AST_TUPLE) {
        int m = sema_mb_ground_point(S, n, owner);
        return (end){m >= 0 ? END_MARKER : END_ERR, m};
    }
    sval v = sema_eval(S, sc, n);
    if (v.k == V_DOF)
        return (end){END_DOF, v.id};
    if (v.k == V_GROUND)
        return (end){END_GROUND, -1};
    if (v.k == V_MARKER)
        return (end){END_MARKER, v.id};
    if (v.k == V_JOINT)
        return (end){END_JOINT, v.id};
    if (v.k == V_BODY && S->bodies[v.id].ndof == 1)
        return (end){END_DOF, S->bodies[v.id].dof0};
    if (v.k != V_ERR)
        diag_error(S->dc, n->loc, "expected a degree of freedom (like 'block.x'), a marker or a "
                                  "ground, but this is %s", sema_kind_name(S, v));
    return (end){END_ERR, -1};
}

/* The settings an element kind accepts, with their dimensions. */
typedef struct setting_spec {
    const char *name;
    const jnt_dim *dim; /* NULL: a law call */
} setting_spec;

/* "radius", last of each kind, is for elements on revolute joints */
static const setting_spec spring_set[] = {{"stiffness", NULL}, {"length", &DIM_M}, {"law", NULL},
                                         {"radius", &DIM_M}, {0, 0}};
static const setting_spec damper_set[] = {{"damping", NULL}, {"law", NULL}, {"radius", &DIM_M},
                                         {0, 0}};
static const setting_spec friction_set[] = {{"normal", &DIM_N}, {"law", NULL}, {"area", &DIM_M2},
                                           {"steps", NULL}, {"radii", NULL}, {"axis", NULL},
                                           {"slip", NULL}, {"bristle", NULL},
                                           {"radius", &DIM_M}, {0, 0}};

/* A friction's settings between the races of a clearance joint (or NULL),
 * and what planar_dof finds: the velocity along the other tangent, for a
 * plane bristle (-1: none). */
typedef struct races {
    const ast *radii, *axis, *slip, *bristle;
    ex_id v2;
} races;
static const setting_spec contact_set[] = {{"law", NULL}, {"area", &DIM_M2}, {"gap0", &DIM_M},
                                          {"form", NULL}, {"steps", NULL}, {"clearance", NULL},
                                          {"radius", &DIM_M}, {0, 0}};

/* Collect an element's settings by name; unknown and repeated ones are errors. */
static int gather_settings(sema *S, const ast *decl, int first, const setting_spec *spec,
                           const ast **found)
{
    int err = 0, nspec = 0;
    while (spec[nspec].name)
        nspec++;
    for (int i = first; i < decl->nkids; i++) {
        const ast *st = decl->kids[i];
        int k = -1;
        for (int j = 0; j < nspec; j++)
            if (strcmp(spec[j].name, st->name) == 0)
                k = j;
        if (k < 0) {
            const char **c = xmalloc((size_t)nspec * sizeof *c);
            for (int j = 0; j < nspec; j++)
                c[j] = spec[j].name;
            const char *best = jnt_closest_name(st->name, c, nspec);
            char list[160] = "";
            for (int j = 0; j < nspec; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s'%s'", j ? ", " : "", c[j]);
            if (best)
                diag_error(S->dc, st->loc, "unknown setting '%s' of a %s; did you mean '%s'?", st->name,
                           elem_kind_name(decl->op), best);
            else
                diag_error(S->dc, st->loc, "unknown setting '%s' of a %s (it has %s)", st->name,
                           elem_kind_name(decl->op), list);
            free(c);
            err = 1;
        } else if (found[k]) {
            diag_error(S->dc, st->loc, "setting '%s' is given twice", st->name);
            err = 1;
        } else {
            found[k] = st;
        }
    }
    return err ? -1 : 0;
}

/* The dof an element between two markers, or on a joint, acts on (see
 * sema_mb_length, sema_mb_joint_coord); -2 after an error. *normal: a
 * friction element's default normal force, the joint's reaction. */
static int planar_dof(sema *S, const scope *sc, elem *el, end ea, end eb, const ast *radius,
                      races *rc, sval *normal)
{
    const ast *radii = rc ? rc->radii : NULL, *axis = rc ? rc->axis : NULL;
    const ast *slip = rc ? rc->slip : NULL, *bristle = rc ? rc->bristle : NULL;
    const ast *decl = el->decl;
    const char *kname = elem_kind_name(decl->op);
    if (ea.kind == END_JOINT || eb.kind == END_JOINT) {
        if (ea.kind != END_JOINT || eb.kind != END_GROUND || decl->kids[1]->kind != AST_GROUND) {
            diag_error(S->dc, decl->loc, "an element acts on a joint's motion as '%s %s on JOINT "
                                         "{ ... }'", kname, el->name);
            return -2;
        }
        const joint *j = &S->joints[ea.id];
        if (j->d3 && j->kind != JOINT_PRISMATIC && j->kind != JOINT_REVOLUTE) {
            diag_error(S->dc, decl->kids[0]->loc, "elements act on spatial revolute and prismatic "
                                                  "joints (not on '%s', a %s joint)", j->name,
                       j->decl->str);
            return -2;
        }
        if (j->kind == JOINT_FIXED) {
            diag_error(S->dc, decl->kids[0]->loc, "joint '%s' is fixed: nothing moves in it",
                       j->name);
            return -2;
        }
        ex_id r = -1;
        if (j->kind == JOINT_REVOLUTE) {
            if (!radius) {
                diag_error(S->dc, decl->loc, "%s '%s' on the revolute joint '%s' needs its "
                                             "'radius' (the slip is radius * angle)", kname,
                           el->name, j->name);
                return -2;
            }
            sval rv = sema_num_dim(S, sc, radius->kids[0], DIM_M, "the radius");
            if (rv.k == V_ERR)
                return -2;
            r = rv.e;
        } else if (radius) {
            diag_error(S->dc, radius->loc, "'radius' is for revolute joints: a prismatic joint "
                                           "slides by its coordinate s");
            return -2;
        }
        if (sema_kind_member(S, (sval){.k = V_JOINT, .id = ea.id}, "reaction", decl->loc, normal) != 0)
            return -2;
        el->joint = ea.id;
        return sema_mb_joint_coord(S, ea.id, r, el->name);
    }
    if (decl->kids[1]->kind == AST_GROUND) {
        diag_error(S->dc, decl->kids[0]->loc, "'%s %s on X' acts on the motion of a joint X; "
                                              "elsewhere write '%s %s between A and B'", kname,
                   el->name, kname, el->name);
        return -2;
    }
    if (ea.kind != END_MARKER || eb.kind != END_MARKER) {
        diag_error(S->dc, decl->loc, "%s '%s' between a marker and %s: an element between markers "
                                     "acts along the line between them; its other end is a "
                                     "marker or a point (x, y) of the ground", kname, el->name,
                   (ea.kind == END_MARKER ? eb : ea).kind == END_GROUND ? "the ground"
                                                                       : "a degree of freedom");
        return -2;
    }
    if (radii) {
        /* friction in a clearance joint: the races' slip (seed 001 eqs. 5-6) */
        ex_id r[2];
        if (ea.kind != END_MARKER || eb.kind != END_MARKER ||
            S->markers[ea.id].d3 != S->markers[eb.id].d3) {
            diag_error(S->dc, radii->loc, "'radii' is for friction between two markers (both "
                                          "planar or both spatial), the centres of a clearance "
                                          "joint's races");
            return -2;
        }
        if (sema_mb_pair(S, sc, radii->kids[0], DIM_M, "'radii' (the first marker's race, the "
                         "second's)", r) != 0)
            return -2;
        if (axis && !S->markers[ea.id].d3) {
            diag_error(S->dc, axis->loc, "planar races slip about z: 'axis' is for spatial ones");
            return -2;
        }
        int axial = 0, plane = 0;
        if (bristle) {
            const ast *k = bristle->kids[0];
            plane = k->kind == AST_NAME && !strcmp(k->name, "plane");
            if (!axis || (!plane && !(k->kind == AST_NAME && !strcmp(k->name, "line")))) {
                diag_error(S->dc, bristle->loc, axis ? "'bristle' is 'line' (along this "
                                                       "element's slip, the default) or 'plane' "
                                                       "(the two tangents at once, with the "
                                                       "element along the other)"
                                                     : "'bristle = plane' takes the races' "
                                                       "two tangents about their 'axis': give "
                                                       "the axis");
                return -2;
            }
        }
        if (slip) {
            const ast *k = slip->kids[0];
            axial = k->kind == AST_NAME && !strcmp(k->name, "axial");
            if (!axis || (!axial && !(k->kind == AST_NAME && !strcmp(k->name,
                                                                       "circumferential")))) {
                diag_error(S->dc, slip->loc, axis ? "'slip' is 'circumferential' (about the "
                                                    "axis, the default) or 'axial' (along it)"
                                                  : "'slip' picks a tangent of the races about "
                                                    "their 'axis': give the axis");
                return -2;
            }
        }
        return sema_mb_clearance_slip(S, ea.id, eb.id, r[0], r[1], axis ? axis->kids[0] : NULL,
                                      axial, el->name, plane ? &rc->v2 : NULL);
    }
    if (axis || slip || bristle) {
        diag_error(S->dc, (axis ? axis : slip ? slip : bristle)->loc, "'%s' is for friction "
                   "between the races of a clearance joint, with 'radii'",
                   axis ? "axis" : slip ? "slip" : "bristle");
        return -2;
    }
    if (decl->op != ELEM_SPRING && decl->op != ELEM_DAMPER && decl->op != ELEM_CONTACT) {
        diag_error(S->dc, decl->loc, "between markers, springs, dampers and contacts act along "
                                     "the line between them; a %s needs a direction: put it on a "
                                     "joint ('%s %s on JOINT') or between coordinates", kname,
                   kname, el->name);
        return -2;
    }
    if (radius) {
        diag_error(S->dc, radius->loc, "'radius' is for elements on revolute joints");
        return -2;
    }
    /* two markers of one rigid body never move apart (a flexible body's do) */
    if (S->markers[ea.id].d3 != S->markers[eb.id].d3) {
        diag_error(S->dc, decl->loc, "%s '%s' connects a spatial marker to a planar one (a point "
                                     "of the ground is (x, y, z) in a spatial model)", kname,
                   el->name);
        return -2;
    }
    int ba = S->markers[ea.id].body;
    if (ea.id == eb.id || (ba >= 0 && ba == S->markers[eb.id].body && !S->bodies[ba].flex)) {
        diag_error(S->dc, decl->loc, "%s '%s' connects two points of the same body", kname,
                   el->name);
        return -2;
    }
    if (el->ec)
        return sema_mb_ec_length(S, ea.id, eb.id, el->name, &el->qi, &el->qf);
    return sema_mb_length(S, ea.id, eb.id, el->name);
}

/* The energy-consistent contact force of seed 001 Sect. 2.5 between the
 * gaps qi and qf of a step: f_m = (V(q_f) - V(q_i)) / (q_f - q_i), V' = -f
 * for the law's force f(q), as the mean of f over [q_i, q_f]: three-point
 * Gauss-Legendre on each side of q = 0 (where contact laws kink), exact for
 * piecewise polynomials of degree 5 (the linear and the quadratic-linear
 * penalties), to the quadrature's error otherwise. The law is instantiated
 * at each node (with its gap set there); it must have no states. */
static sval ec_force(sema *S, const scope *sc, elem *el, const ast *law, ex_id g0)
{
    static const double x[3] = {-0.7745966692414834, 0, 0.7745966692414834};
    static const double w[3] = {5.0 / 9, 8.0 / 9, 5.0 / 9};
    ex_pool *P = S->pool;
    ex_id qi = ex_op2(P, EX_SUB, g0, el->qi), qf = ex_op2(P, EX_SUB, g0, el->qf);
    ex_id a = ex_op2(P, EX_MIN, qi, qf), b = ex_op2(P, EX_MAX, qi, qf);
    ex_id c = ex_op2(P, EX_MAX, ex_op2(P, EX_MIN, ex_const(P, 0), b), a);
    ex_id ends[3] = {a, c, b}, sum = ex_const(P, 0), mid = -1;
    jnt_dim dim = DIM_N;
    int ny = S->m->y.n, nd = S->m->d.n;
    for (int k = 0; k < 7; k++) { /* 6 nodes, then the midpoint */
        ex_id lo = k < 6 ? ends[k / 3] : qi, hi = k < 6 ? ends[k / 3 + 1] : qf;
        ex_id g = ex_op2(P, EX_MUL, ex_const(P, 0.5), ex_op2(P, EX_ADD, lo, hi));
        if (k < 6)
            g = ex_op2(P, EX_ADD, g, ex_op2(P, EX_MUL, ex_const(P, 0.5 * x[k % 3]),
                                            ex_op2(P, EX_SUB, hi, lo)));
        set_qty(el, "gap", sval_num(g, DIM_M));
        sval r = sema_law_force(S, sc, el, law, LAW_CONTACT);
        if (r.k == V_ERR)
            return r;
        if (S->m->y.n != ny || S->m->d.n != nd) {
            diag_error(S->dc, law->loc, "the energy-consistent form takes a contact law without "
                                        "states (a force of the gap), like penalty or hertz");
            return sval_err;
        }
        dim = r.dim;
        if (k < 6)
            sum = ex_op2(P, EX_ADD, sum, ex_op2(P, EX_MUL, ex_op2(P, EX_MUL, ex_const(P, w[k % 3] / 2),
                                                                ex_op2(P, EX_SUB, hi, lo)), r.e));
        else
            mid = r.e;
    }
    /* the mean; the law at the midpoint when the step hardly moves */
    ex_id len = ex_op2(P, EX_SUB, b, a);
    ex_id tiny = ex_op2(P, EX_MUL, ex_const(P, 1e-13),
                        ex_op2(P, EX_ADD, ex_op1(P, EX_ABS, a), ex_op1(P, EX_ABS, b)));
    ex_id fm = ex_if(P, ex_op2(P, EX_GT, len, tiny),
                     ex_op2(P, EX_DIV, sum, ex_op2(P, EX_MAX, len, ex_const(P, 1e-300))), mid);
    set_qty(el, "gap", sval_num(ex_op2(P, EX_MUL, ex_const(P, 0.5), ex_op2(P, EX_ADD, qi, qf)),
                                DIM_M));
    return sval_num(fm, dim);
}

/* `clearance = cylinder(rho_k, rho_l, axis)` of a contact between spatial
 * markers A (the disk's centre) and B (the cylinder's): the dof of
 * sema_mb_cylinder_gap, or -2 after an error. */
static int cylinder_dof(sema *S, const scope *sc, elem *el, end ea, end eb, const ast *st,
                        const ast *gap0)
{
    const ast *call = st->kids[0], *axis = NULL;
    if (call->kind != AST_CALL || strcmp(call->name, "cylinder") != 0) {
        diag_error(S->dc, st->loc, "'clearance' is cylinder(rho_k = ..., rho_l = ..., axis = "
                                   "(x, y, z)): seed 001's spatial clearance joint");
        return -2;
    }
    if (ea.kind != END_MARKER || eb.kind != END_MARKER || !S->markers[ea.id].d3 ||
        !S->markers[eb.id].d3) {
        diag_error(S->dc, st->loc, "a cylinder clearance is between two spatial markers: the "
                                   "disk's centre and the cylinder's");
        return -2;
    }
    if (gap0) {
        diag_error(S->dc, gap0->loc, "a cylinder clearance's gap comes from its radii: no "
                                     "'gap0'");
        return -2;
    }
    ex_id rho[2] = {-1, -1};
    for (int i = 0; i < call->nkids; i++) {
        const ast *a = call->kids[i];
        int k = a->kind != AST_ARG ? -1 : !strcmp(a->name, "rho_k") ? 0
              : !strcmp(a->name, "rho_l") ? 1 : !strcmp(a->name, "axis") ? 2 : -1;
        if (k < 0) {
            diag_error(S->dc, a->loc, "cylinder takes rho_k, rho_l and axis, by name");
            return -2;
        }
        if (k == 2) {
            axis = a->kids[0];
            continue;
        }
        sval v = sema_num_dim(S, sc, a->kids[0], DIM_M, k ? "rho_l" : "rho_k");
        if (v.k != V_NUM)
            return -2;
        rho[k] = v.e;
    }
    if (rho[0] < 0 || rho[1] < 0) {
        diag_error(S->dc, call->loc, "cylinder needs rho_k (the cylinder's radius) and rho_l "
                                     "(the disk's)");
        return -2;
    }
    int d = sema_mb_cylinder_gap(S, ea.id, eb.id, rho[0], rho[1], axis, el->name,
                                 el->ec ? &el->qi : NULL, el->ec ? &el->qf : NULL);
    return d < 0 ? -2 : d;
}

static void eval_element(sema *S, const scope *sc, elem *el)
{
    const ast *decl = el->decl;
    int kind = decl->op;
    end ea = endpoint(S, sc, decl->kids[0], el->name);
    end eb = endpoint(S, sc, decl->kids[1], el->name);
    if (ea.kind == END_ERR || eb.kind == END_ERR)
        return;
    const setting_spec *spec = kind == ELEM_SPRING ? spring_set : kind == ELEM_DAMPER ? damper_set
                             : kind == ELEM_FRICTION ? friction_set : contact_set;
    const ast *found[10] = {0}; /* the longest list, friction's, has 9 */
    _Static_assert(sizeof friction_set / sizeof *friction_set <= 10, "found[] too short");
    if (gather_settings(S, decl, 2, spec, found) != 0)
        return;
    int nspec = 0;
    while (spec[nspec].name)
        nspec++;
    const ast *radius = found[nspec - 1]; /* the last setting of each kind */
    races rc = {NULL, NULL, NULL, NULL, -1};
    if (kind == ELEM_FRICTION)
        rc = (races){found[4], found[5], found[6], found[7], -1};
    sval jnormal = sval_err;
    if (kind == ELEM_CONTACT && found[3]) {
        const ast *fm = found[3]->kids[0];
        el->ec = fm->kind == AST_NAME && !strcmp(fm->name, "energy_consistent");
        if (!el->ec && !(fm->kind == AST_NAME && !strcmp(fm->name, "plain"))) {
            diag_error(S->dc, fm->loc, "'form' is 'plain' (the law at the state) or "
                                       "'energy_consistent' (seed 001 Sect. 2.5, for the midpoint "
                                       "rule)");
            return;
        }
        if (el->ec && (ea.kind != END_MARKER || eb.kind != END_MARKER)) {
            diag_error(S->dc, fm->loc, "the energy-consistent form is for contacts between two "
                                       "markers (a clearance joint)");
            return;
        }
    }
    el->a = ea.kind == END_DOF ? ea.id : -1;
    el->b = eb.kind == END_DOF ? eb.id : -1;
    if (kind == ELEM_CONTACT && found[5]) {
        el->a = cylinder_dof(S, sc, el, ea, eb, found[5], found[2]);
        el->b = -1;
        if (el->a == -2)
            return;
    } else if (ea.kind >= END_MARKER || eb.kind >= END_MARKER ||
               decl->kids[1]->kind == AST_GROUND) {
        el->a = planar_dof(S, sc, el, ea, eb, radius, kind == ELEM_FRICTION ? &rc : NULL,
                           &jnormal);
        el->b = -1;
        if (el->a == -2)
            return;
    } else if (radius || (kind == ELEM_FRICTION && (rc.radii || rc.axis || rc.slip ||
                                                    rc.bristle))) {
        const ast *bad = radius    ? radius
                         : rc.radii ? rc.radii
                         : rc.axis  ? rc.axis
                         : rc.slip  ? rc.slip
                                    : rc.bristle;
        diag_error(S->dc, bad->loc, radius
                   ? "'radius' is for elements on revolute joints"
                   : "'radii', 'axis', 'slip' and 'bristle' are for friction between two "
                     "markers, the centres of a clearance joint's races");
        return;
    }
    if (el->a == -1 && el->b == -1) {
        diag_error(S->dc, decl->loc, "%s '%s' connects the ground to itself", elem_kind_name(kind),
                   el->name);
        return;
    }
    if (el->a >= 0 && el->a == el->b) {
        diag_error(S->dc, decl->kids[1]->loc, "%s '%s' connects '%s' to itself", elem_kind_name(kind),
                   el->name, S->dofs[el->a].name);
        return;
    }
    ex_pool *P = S->pool;
    ex_id xa = el->a >= 0 ? S->dofs[el->a].pos : ex_const(P, 0);
    ex_id xb = el->b >= 0 ? S->dofs[el->b].pos : ex_const(P, 0);
    ex_id va = el->a >= 0 ? S->dofs[el->a].vel : ex_const(P, 0);
    ex_id vb = el->b >= 0 ? S->dofs[el->b].vel : ex_const(P, 0);
    ex_set_loc(P, decl->loc);
    sval s = sval_num(ex_op2(P, EX_SUB, xa, xb), DIM_M);
    sval v = sval_num(ex_op2(P, EX_SUB, va, vb), DIM_MS);
    sval f = sval_err;
    const jnt_dim k_dim = units_div(DIM_N, DIM_M), c_dim = units_div(DIM_N, DIM_MS);
    if (kind == ELEM_SPRING || kind == ELEM_DAMPER) {
        const ast *coef = found[0], *law = kind == ELEM_SPRING ? found[2] : found[1];
        sema_elem_add_qty(el, "s", s);
        sema_elem_add_qty(el, "v", v);
        if (!!coef == !!law) {
            diag_error(S->dc, decl->loc, "%s '%s' needs either '%s = ...' or 'law = ...'",
                       elem_kind_name(kind), el->name, spec[0].name);
            return;
        }
        if (law) {
            f = sema_law_force(S, sc, el, law, LAW_FORCE);
        } else if (kind == ELEM_SPRING) {
            sval k = sema_num_dim(S, sc, coef->kids[0], k_dim, "the stiffness");
            sval L = found[1] ? sema_num_dim(S, sc, found[1]->kids[0], DIM_M, "the length")
                              : sval_num(ex_const(P, 0), DIM_M);
            if (k.k == V_ERR || L.k == V_ERR)
                return;
            f = sval_num(ex_op2(P, EX_MUL, k.e, ex_op2(P, EX_SUB, s.e, L.e)), DIM_N);
        } else {
            sval c = sema_num_dim(S, sc, coef->kids[0], c_dim, "the damping");
            if (c.k == V_ERR)
                return;
            f = sval_num(ex_op2(P, EX_MUL, c.e, v.e), DIM_N);
        }
    } else if (kind == ELEM_FRICTION) {
        if (!found[1]) {
            diag_error(S->dc, decl->loc, "friction '%s' needs 'law = ...'", el->name);
            return;
        }
        sema_elem_add_qty(el, "s", s);
        sema_elem_add_qty(el, "v", v);
        sema_friction_v2(S, el, rc.v2);
        /* without 'normal', a law that uses N fails with an unknown name; with an
         * 'area' too, a law may use the contact pressure p = N / area */
        if (found[0] || jnormal.k == V_NUM) {
            sval N = found[0] ? sema_num_dim(S, sc, found[0]->kids[0], DIM_N, "the normal force")
                              : jnormal;
            if (N.k == V_ERR)
                return;
            sema_elem_add_qty(el, "N", N);
            if (found[2]) {
                sval A = sema_num_dim(S, sc, found[2]->kids[0], DIM_M2, "the area");
                if (A.k == V_ERR)
                    return;
                sema_elem_add_qty(el, "area", A);
                sema_elem_add_qty(el, "p", sval_num(ex_op2(P, EX_DIV, N.e, A.e), DIM_PA));
            }
        } else if (found[2]) {
            diag_error(S->dc, found[2]->loc, "'area' needs 'normal' (p = normal / area)");
            return;
        }
        f = sema_law_force(S, sc, el, found[1], LAW_FRICTION);
    } else {
        if (!found[0]) {
            diag_error(S->dc, decl->loc, "contact '%s' needs 'law = ...'", el->name);
            return;
        }
        sval g0 = found[2] ? sema_num_dim(S, sc, found[2]->kids[0], DIM_M, "the initial gap")
                           : sval_num(ex_const(P, 0), DIM_M);
        sval area = found[1] ? sema_num_dim(S, sc, found[1]->kids[0], DIM_M2, "the area") : sval_err;
        if (g0.k == V_ERR || (found[1] && area.k == V_ERR))
            return;
        sema_elem_add_qty(el, "gap", sval_num(ex_op2(P, EX_SUB, g0.e, s.e), DIM_M));
        sema_elem_add_qty(el, "gapv", sval_num(ex_op1(P, EX_NEG, v.e), DIM_MS));
        sval r = el->ec ? ec_force(S, sc, el, found[0], g0.e)
                        : sema_law_force(S, sc, el, found[0], LAW_CONTACT);
        if (r.k == V_ERR)
            return;
        if (units_equal(r.dim, DIM_PA)) {
            if (!found[1]) {
                diag_error(S->dc, decl->loc, "contact '%s' has a pressure law and needs 'area = ...'",
                           el->name);
                return;
            }
            f = sval_num(ex_op2(P, EX_MUL, r.e, area.e), DIM_N);
        } else {
            f = r;
        }
    }
    if (f.k == V_ERR)
        return;
    el->force = f;
    if (kind != ELEM_FRICTION) /* a friction law's result is its force already */
        sema_elem_add_qty(el, "force", f);
    const ast *steps = found[kind == ELEM_FRICTION ? 3 : 4];
    if (steps && (kind == ELEM_FRICTION || kind == ELEM_CONTACT))
        sema_step_control(S, el, steps, kind == ELEM_CONTACT);
}

/* Evaluate an element once (lazily: elements may refer to each other). */
void sema_eval_elem(sema *S, int ei)
{
    elem *el = &S->elems[ei];
    if (el->done)
        return;
    if (el->busy) {
        diag_error(S->dc, el->decl->loc, "'%s' depends on itself", el->name);
        return;
    }
    el->busy = 1;
    el->force = sval_err;
    scope isc = {.up = &S->global, .iname = el->iname, .ival = el->ival};
    const scope *sc = el->iname ? &isc : &S->global;
    if (el->kind == ELEM_FORCEDEF || el->kind == ELEM_MOTION) {
        int motion = el->kind == ELEM_MOTION;
        const char *what = motion ? "a motion" : "a force";
        sval tgt = sema_eval(S, sc, el->decl->kids[0]);
        if (tgt.k == V_BODY && S->bodies[tgt.id].ndof == 1)
            tgt = (sval){V_DOF, -1, units_none, S->bodies[tgt.id].dof0, 0, 0};
        if (tgt.k == V_JOINT && !motion) {
            /* a torque about a revolute joint's axis, a force along a prismatic one's */
            const joint *j = &S->joints[tgt.id];
            if (j->kind != JOINT_REVOLUTE && j->kind != JOINT_PRISMATIC) {
                diag_error(S->dc, el->decl->kids[0]->loc, "a force acts on a revolute joint (a "
                           "torque) or a prismatic one, not on '%s', a %s joint", j->name,
                           j->decl->str);
            } else {
                int pr = j->kind == JOINT_PRISMATIC;
                el->a = sema_mb_joint_coord(S, tgt.id, ex_const(S->pool, 1), el->name);
                el->joint = tgt.id;
                el->force = sema_num_dim(S, sc, el->decl->kids[1], pr ? DIM_N
                                         : units_mul(DIM_N, DIM_M), pr ? "a force" : "a torque");
                if (el->force.k != V_ERR)
                    sema_elem_add_qty(el, "force", el->force);
            }
            el->busy = 0;
            el->done = 1;
            return;
        }
        if (tgt.k == V_DOF) {
            el->a = tgt.id;
            const dof *f = &S->dofs[tgt.id];
            /* the force conjugate to the coordinate: work over its dimension (N on a
             * length, a torque in N m on an angle) */
            jnt_dim gen = units_div(units_mul(DIM_N, DIM_M), f->body >= 0 ? S->m->y.v[f->y].dim
                                                                            : DIM_M);
            if (f->body >= 0 && S->bodies[f->body].rigid3 && f->short_name[0] == 'd')
                diag_error(S->dc, el->decl->kids[0]->loc, "%s on a director of a rigid3d body: "
                           "act on its markers or its centre (x, y, z)", what);
            else
                el->force = sema_num_dim(S, sc, el->decl->kids[1], motion ? DIM_M : gen, what);
            if (motion && el->force.k == V_NUM && sema_is_dynamic(S, el->force.e) &&
                !sema_is_time_only(S, el->force.e)) {
                diag_error(S->dc, el->decl->kids[1]->loc,
                           "a motion may use time and parameters only, not states");
                el->force = sval_err;
            }
            if (el->force.k != V_ERR)
                sema_elem_add_qty(el, motion ? "x" : "force", el->force);
        } else if (tgt.k != V_ERR) {
            diag_error(S->dc, el->decl->kids[0]->loc,
                       "%s acts on a degree of freedom (like 'block.x'), but this is %s", what,
                       sema_kind_name(S, tgt));
        }
    } else {
        eval_element(S, sc, el);
    }
    el->busy = 0;
    el->done = 1;
}

/* NAME.q of an element. */
int sema_elem_member(sema *S, int ei, const char *name, jnt_loc loc, sval *out)
{
    sema_eval_elem(S, ei);
    elem *el = &S->elems[ei];
    if (el->force.k == V_ERR && !el->done) {
        *out = sval_err;
        return -1;
    }
    for (int i = el->nq - 1; i >= 0; i--)
        if (strcmp(el->q[i].name, name) == 0) {
            *out = el->q[i].val;
            return out->k == V_ERR ? -1 : 0;
        }
    if (el->force.k == V_ERR) /* its errors were reported already */
        return -1;
    const char **c = xmalloc(((size_t)el->nq + 1) * sizeof *c);
    for (int i = 0; i < el->nq; i++)
        c[i] = el->q[i].name;
    const char *best = jnt_closest_name(name, c, el->nq);
    diag_error(S->dc, loc, "'%s' has no member '%s'%s%s%s", el->name, name,
               best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
    free(c);
    return -1;
}

/* Create the instances of an element or force declaration (one per index of
 * an array declaration). */
void sema_declare_elem(sema *S, sym *s)
{
    const ast *d = s->decl;
    long *vals;
    int n = sema_instances(S, s, &vals);
    for (int k = 0; k < n; k++) {
        XGROW(S->elems, S->capelem, S->nelem);
        elem *el = &S->elems[S->nelem];
        *el = (elem){0};
        el->decl = d;
        el->kind = d->kind == AST_FORCE ? ELEM_FORCEDEF : d->kind == AST_MOTION ? ELEM_MOTION : d->op;
        el->name = d->iter ? xasprintf("%s[%ld]", d->name, vals[k]) : xstrdup(d->name);
        el->iname = d->iter ? d->iter->name : NULL;
        el->ival = d->iter ? vals[k] : 0;
        el->a = el->b = el->joint = -1;
        s->inst[k] = S->nelem++;
    }
}
