/*
 * pins.c: what a multibody model fixes for its assembly (issue 28):
 * `init joint.angle = 30 deg`, its rate `.v` (or `.speed`), a prismatic
 * joint's `.s`, and `init Q = fixed(value)` on a body's coordinate or a
 * marker's position or their rates. Each becomes a pin, a residual
 * g(q[, v]) - value of the model's pins kernel (its gradient rows come in
 * sema_mb_finish), which the runtime's assembly holds at t0
 * (runtime/integrate/assemble.c).
 */
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_MS = {{0, 6, -6, 0, 0}};
static const jnt_dim DIM_PS = {{0, 0, -6, 0, 0}};

#define ADD(a, b) ex_op2(P, EX_ADD, (a), (b))
#define SUB(a, b) ex_op2(P, EX_SUB, (a), (b))
#define MUL(a, b) ex_op2(P, EX_MUL, (a), (b))

/* What a pinned quantity q depends on: 0 the bodies' coordinates only (a
 * position pin), 1 also their velocities (a rate pin), -1 anything else (a
 * law state, a multiplier, a discrete state, a substructure's point). */
static int pin_kind(sema *S, ex_id q)
{
    ex_pool *P = S->pool;
    int ny = S->m->y.n, kind = 0;
    static const ex_kind other[] = {EX_D, EX_UP, EX_UV};
    for (int k = 0; k < 3; k++)
        if (ex_depends(P, q, other[k], -1))
            return -1;
    unsigned char *of = xcalloc((size_t)ny + 1, 1); /* 1 a coordinate, 2 its velocity */
    for (int i = 0; i < S->ndof; i++)
        if (S->dofs[i].body >= 0 && S->dofs[i].y >= 0) {
            of[S->dofs[i].y] = 1;
            of[S->dofs[i].y + 1] = 2;
        }
    for (int i = 0; i < ny && kind >= 0; i++)
        if (ex_depends(P, q, EX_Y, i))
            kind = of[i] == 0 ? -1 : of[i] == 2 ? 1 : kind;
    free(of);
    return kind;
}

/* See passes.h. */
int sema_init_fixed(sema *S, const ast **value)
{
    const ast *v = *value;
    if (v->kind != AST_CALL || strcmp(v->name, "fixed") != 0)
        return 0;
    if (v->nkids != 1 || v->kids[0]->kind == AST_ARG || v->iter) {
        diag_error(S->dc, v->loc, "fixed(value) takes one value: init body.x = fixed(0.1 m)");
        return -1;
    }
    *value = v->kids[0];
    return 1;
}

/* See passes.h. The residual is q - value (for an angle that atan2
 * gives, wrapped to [-pi, pi)); its gradient rows come in sema_mb_finish. */
int sema_mb_pin(sema *S, const char *name, ex_id q, ex_id value, int wrap, jnt_loc loc)
{
    ex_pool *P = S->pool;
    ir_model *m = S->m;
    for (int k = 0; k < m->pin.n; k++)
        if (strcmp(m->pin.v[k].name, name) == 0) {
            diag_error(S->dc, loc, "'%s' is initialised twice", name);
            return -1;
        }
    int rate = pin_kind(S, q);
    if (rate < 0) {
        diag_error(S->dc, loc, "'%s' cannot be fixed: fixed(...) pins a coordinate of a rigid "
                               "body, a marker's position, or their rates", name);
        return -1;
    }
    ex_set_loc(P, loc);
    ex_id r = SUB(q, value);
    if (wrap) {
        ex_id turn = ex_const(P, 2 * 3.14159265358979323846);
        r = SUB(r, MUL(turn, ex_op1(P, EX_FLOOR, ADD(ex_op2(P, EX_DIV, r, turn),
                                                      ex_const(P, 0.5)))));
    }
    ir_add(&m->pin, xstrdup(name), r, value, units_none, loc);
    m->pin_rate = xrealloc(m->pin_rate, (size_t)m->pin.cap);
    m->pin_rate[m->pin.n - 1] = (signed char)rate;
    return 0;
}

/* See passes.h. */
int sema_mb_init_joint(sema *S, const ast *target, const ast *value)
{
    if (target->kind != AST_MEMBER)
        return 1;
    const ast *base = target->kids[0];
    const char *q = target->name;
    int rate = 0;
    if (strcmp(q, "v") == 0 && base->kind == AST_MEMBER) {
        rate = 1;
        q = base->name;
        base = base->kids[0];
    }
    if (base->kind != AST_NAME && base->kind != AST_INDEX)
        return 1;
    sval b = sema_eval(S, &S->global, base);
    if (b.k == V_ERR)
        return 0;
    if (b.k != V_JOINT)
        return 1;
    const joint *j = &S->joints[b.id];
    int slide = j->kind == JOINT_PRISMATIC;
    int turn = j->kind == JOINT_REVOLUTE || (j->d3 && j->kind == JOINT_CYLINDRICAL);
    const char *coord = slide ? "s" : "angle";
    if (!rate && strcmp(q, "speed") == 0)
        rate = 1, q = coord;
    if (!slide && !turn) {
        diag_error(S->dc, target->loc, "joint '%s' has no coordinate to initialise (a %s "
                   "joint%s): initialise the bodies it connects", j->name, j->decl->str,
                   j->kind == JOINT_FIXED ? " holds its bodies' initial angles" : "");
        return 0;
    }
    if (strcmp(q, coord) != 0) {
        const char *cands[2] = {coord, "speed"};
        const char *best = jnt_closest_name(q, cands, 2);
        diag_error(S->dc, target->loc, "joint '%s' has no coordinate '%s' to initialise%s%s%s "
                   "(it has %s.%s, its rate %s.%s.v or %s.speed)", j->name, q,
                   best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "",
                   j->name, coord, j->name, coord, j->name);
        return 0;
    }
    if (j->drive >= 0) {
        diag_error(S->dc, target->loc, "joint '%s' has a drive, which gives its %s at every "
                   "time: it cannot also be initialised", j->name, slide ? "slide" : "angle");
        return 0;
    }
    jnt_dim dim = slide ? (rate ? DIM_MS : DIM_M) : (rate ? DIM_PS : units_none);
    sval v = sema_num_dim(S, &S->global, value, dim, "the initial value");
    if (v.k != V_NUM)
        return 0;
    if (sema_is_dynamic(S, v.e)) {
        diag_error(S->dc, value->loc, "an initial value may use parameters only");
        return 0;
    }
    char *name = xasprintf(rate ? "%s.%s.v" : "%s.%s", j->name, coord);
    sema_mb_pin(S, name, rate ? j->rel_v : j->rel, v.e, j->d3 && turn && !rate, target->loc);
    free(name);
    return 0;
}
