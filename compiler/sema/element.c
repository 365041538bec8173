/*
 * element.c: the element machinery the families share (kinds/spring.c,
 * friction.c, contact.c; kind.h's `elem`): an element's instances, its ends,
 * its settings, the dof it acts on (a line between markers, a joint's
 * coordinate, the ends' dofs, or a geometry's: kinds/clearance.c), its members;
 * and the applied forces and prescribed motions (`force`, `motion`), which
 * the core's assembly knows. Laws are instantiated by sema/law.c, step
 * control is sema/steps.c's.
 *
 * Sign convention: an element between dofs a and b has the relative
 * displacement s = x_a - x_b and velocity v = v_a - v_b; its force F acts as
 * -F on a and +F on b (F > 0 resists s growing). A contact element's gap is
 * gap0 - s, and its force is pressure * area.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "dims.h"
#include "front/alloc.h"

/* See core.h. */
void sema_elem_add_qty(elem *el, const char *name, sval v)
{
    XGROW(el->q, el->capq, el->nq);
    el->q[el->nq++] = (qty){name, v};
}

/* ---- elements ---------------------------------------------------------------------- */

/* See passes.h. */
const sema_kind *sema_elem_family(const sema *S, int k)
{
    for (const sema_kind *const *f = S->kinds; *f; f++)
        if ((*f)->elem == k && (*f)->elem_force)
            return *f;
    return NULL;
}

/* The end n of element `owner` (core.h's sema_end), in scope sc (an array
 * instance's); END_ERR after an error. */
static sema_end endpoint(sema *S, const scope *sc, const ast *n, const char *owner)
{
    if (n->kind == AST_GROUND) /* KIND NAME on X: the other end is the ground */
        return (sema_end){END_GROUND, -1};
    if (n->kind == AST_TUPLE) {
        int m = sema_mb_ground_point(S, sc, n, owner);
        return (sema_end){m >= 0 ? END_MARKER : END_ERR, m};
    }
    sval v = sema_eval(S, sc, n);
    if (v.k == V_DOF)
        return (sema_end){END_DOF, v.id};
    if (v.k == V_GROUND)
        return (sema_end){END_GROUND, -1};
    if (v.k == V_MARKER)
        return (sema_end){END_MARKER, v.id};
    if (v.k == V_JOINT)
        return (sema_end){END_JOINT, v.id};
    if (v.k == V_BODY && S->bodies[v.id].ndof == 1)
        return (sema_end){END_DOF, S->bodies[v.id].dof0};
    if (v.k != V_ERR)
        diag_error(S->dc, n->loc, "expected a degree of freedom (like 'block.x'), a marker or a "
                                  "ground, but this is %s", sema_kind_name(S, v));
    return (sema_end){END_ERR, -1};
}

/* See core.h. */
const ast *sema_elem_setting(const elem_site *site, const char *name)
{
    for (int i = 0; i < site->nset; i++)
        if (strcmp(site->name[i], name) == 0)
            return site->set[i];
    return NULL;
}

/* The settings element el's family takes: its own, the geometries' for it, then
 * "radius" (for elements on revolute joints), into site->name; and the geometry
 * whose setting it was given (into *geo, or NULL). Unknown and repeated settings
 * are errors: -1. */
static int gather_settings(sema *S, const sema_kind *fam, const elem *el, elem_site *site,
                           const sema_kind **geo)
{
    const ast *decl = el->decl;
    const sema_kind *owner[SEMA_MAX_SETTINGS];
    int n = 0;
    /* SEMA_MAX_SETTINGS bounds them (the longest list, friction's, has 9) */
    for (const elem_setting *st = fam->settings; st->name && n < SEMA_MAX_SETTINGS - 1; st++)
        owner[n] = NULL, site->name[n++] = st->name;
    for (const sema_kind *const *k = S->kinds; *k; k++)
        for (const elem_setting *st = (*k)->geom_settings;
             st && st->name && n < SEMA_MAX_SETTINGS - 1; st++)
            if (st->family == el->kind)
                owner[n] = *k, site->name[n++] = st->name;
    owner[n] = NULL, site->name[n++] = "radius";
    site->nset = n;
    *geo = NULL;
    int err = 0;
    for (int i = 2; i < decl->nkids; i++) {
        const ast *st = decl->kids[i];
        int k = -1;
        for (int j = 0; j < n; j++)
            if (strcmp(site->name[j], st->name) == 0)
                k = j;
        if (k < 0) {
            const char *best = jnt_closest_name(st->name, site->name, n);
            char list[160] = "";
            for (int j = 0; j < n; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s'%s'", j ? ", " : "",
                         site->name[j]);
            if (best)
                diag_error(S->dc, st->loc, "unknown setting '%s' of a %s; did you mean '%s'?",
                           st->name, fam->name, best);
            else
                diag_error(S->dc, st->loc, "unknown setting '%s' of a %s (it has %s)", st->name,
                           fam->name, list);
            err = 1;
        } else if (site->set[k]) {
            diag_error(S->dc, st->loc, "setting '%s' is given twice", st->name);
            err = 1;
        } else {
            site->set[k] = st;
            if (owner[k] && !*geo)
                *geo = owner[k];
        }
    }
    return err ? -1 : 0;
}

/* "springs, dampers and contacts": the families that act along the line between
 * two markers, for a message. */
static void line_families(const sema *S, char *buf, size_t cap)
{
    int n = 0, i = 0;
    for (const sema_kind *const *k = S->kinds; *k; k++)
        n += (*k)->on_line;
    buf[0] = 0;
    for (const sema_kind *const *k = S->kinds; *k; k++)
        if ((*k)->on_line) {
            i++;
            snprintf(buf + strlen(buf), cap - strlen(buf), "%s%ss",
                     i == 1 ? "" : i == n ? " and " : ", ", (*k)->name);
        }
}

/* The dof an element between two markers, or on a joint, acts on (see
 * sema_mb_length, sema_mb_joint_coord); -2 after an error. site->normal: on
 * a joint, its reaction (a friction element's default normal force). */
static int planar_dof(sema *S, const scope *sc, elem *el, const sema_kind *fam, elem_site *site)
{
    const ast *decl = el->decl, *radius = sema_elem_setting(site, "radius");
    const char *kname = fam->name;
    sema_end ea = site->a, eb = site->b;
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
        if (sema_joint_member(S, ea.id, "reaction", decl->loc, &site->normal) != 0)
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
    if (!fam->on_line) {
        char list[120];
        line_families(S, list, sizeof list);
        diag_error(S->dc, decl->loc, "between markers, %s act along the line between them; a %s "
                                     "needs a direction: put it on a joint ('%s %s on JOINT') or "
                                     "between coordinates", list, kname, kname, el->name);
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

/* An element between two ends (`KIND NAME between A and B`, `KIND NAME on
 * JOINT`): its ends, its settings, the dof it acts on (a geometry's, a line
 * between markers, a joint's coordinate, or the ends' dofs), then its family's
 * force. */
static void eval_element(sema *S, const scope *sc, elem *el)
{
    const ast *decl = el->decl;
    const sema_kind *fam = sema_elem_family(S, el->kind), *geo;
    elem_site site = {.normal = sval_err, .v2 = -1};
    site.a = endpoint(S, sc, decl->kids[0], el->name);
    site.b = endpoint(S, sc, decl->kids[1], el->name);
    if (site.a.kind == END_ERR || site.b.kind == END_ERR)
        return;
    el->ma = site.a.kind == END_MARKER ? site.a.id : -1;
    el->mb = site.b.kind == END_MARKER ? site.b.id : -1;
    if (gather_settings(S, fam, el, &site, &geo) != 0)
        return;
    if (fam->elem_prepare && fam->elem_prepare(S, sc, el, &site) != 0)
        return;
    const ast *radius = sema_elem_setting(&site, "radius");
    el->a = site.a.kind == END_DOF ? site.a.id : -1;
    el->b = site.b.kind == END_DOF ? site.b.id : -1;
    if (geo || site.a.kind >= END_MARKER || site.b.kind >= END_MARKER ||
        decl->kids[1]->kind == AST_GROUND) {
        el->a = geo ? geo->elem_place(S, sc, el, &site) : planar_dof(S, sc, el, fam, &site);
        el->b = -1;
        if (el->a == -2)
            return;
    } else if (radius) {
        diag_error(S->dc, radius->loc, "'radius' is for elements on revolute joints");
        return;
    }
    if (el->a == -1 && el->b == -1) {
        diag_error(S->dc, decl->loc, "%s '%s' connects the ground to itself", fam->name,
                   el->name);
        return;
    }
    if (el->a >= 0 && el->a == el->b) {
        diag_error(S->dc, decl->kids[1]->loc, "%s '%s' connects '%s' to itself", fam->name,
                   el->name, S->dofs[el->a].name);
        return;
    }
    ex_pool *P = S->pool;
    ex_id xa = el->a >= 0 ? S->dofs[el->a].pos : ex_const(P, 0);
    ex_id xb = el->b >= 0 ? S->dofs[el->b].pos : ex_const(P, 0);
    ex_id va = el->a >= 0 ? S->dofs[el->a].vel : ex_const(P, 0);
    ex_id vb = el->b >= 0 ? S->dofs[el->b].vel : ex_const(P, 0);
    ex_set_loc(P, decl->loc);
    site.s = sval_num(ex_op2(P, EX_SUB, xa, xb), DIM_M);
    site.v = sval_num(ex_op2(P, EX_SUB, va, vb), DIM_MS);
    fam->elem_force(S, sc, el, &site);
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
        el->a = el->b = el->joint = el->ma = el->mb = -1;
        s->inst[k] = S->nelem++;
    }
}
