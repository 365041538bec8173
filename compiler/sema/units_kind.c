/*
 * units_kind.c: what an output column is beyond its dimension (an angle, an
 * angular velocity or acceleration, an energy, a power: JNT_KIND_*,
 * jnt_abi_model.out_kinds), which a dimension cannot tell: an angle is a
 * pure number, an energy has a torque's kg m^2/s^2. Read from the column's
 * expression: the quantities it is built of (a body's or joint's `angle`
 * and its `.v`, `.a`; an energy member, `kinetic`, `strain`, `energy`; a
 * power member; a number in deg, rad, J or W; an integral in J) and how
 * they combine (a sum of like kinds keeps the kind, a product of a
 * velocity or of a squared velocity with a mass, a force or an inertia
 * makes one that the column's dimension then names). A column whose
 * kind does not agree with its dimension has none: its unit is then the
 * dimension's (docs/cli.md, "Output files").
 */
#include <string.h>

#include "passes.h"

/* kinds inside an expression: the public ones, and the parts energies and
 * powers are made of */
enum { K_NONE = JNT_KIND_NONE, K_ANGLE = JNT_KIND_ANGLE, K_ANGVEL = JNT_KIND_ANGVEL,
       K_ANGACC = JNT_KIND_ANGACC, K_ENERGY = JNT_KIND_ENERGY, K_POWER = JNT_KIND_POWER,
       K_VEL,  /* a linear velocity */
       K_VSQ,  /* a squared (linear or angular) velocity */
       K_NKIND };
/* set when an angle-like kind was scaled by a factor that is not a plain
 * number (180 / pi * angle is no longer in rad) */
#define K_SCALED 16

#define DEPTH_MAX 32 /* names defined by names: a cycle was reported by sema */

static int kind_of(sema *S, const ast *n, int depth);

/* The kind of a number's unit text: "deg", "rad/s", "kJ", ... */
static int unit_kind(const char *u)
{
    if (!u)
        return K_NONE;
    static const char *const ang[] = {"rad", "mrad", "urad", "deg", "rev"};
    for (size_t i = 0; i < sizeof ang / sizeof ang[0]; i++) {
        size_t l = strlen(ang[i]);
        if (!strncmp(u, ang[i], l) && (u[l] == '\0' || u[l] == '/'))
            return !u[l] ? K_ANGLE : !strcmp(u + l, "/s") ? K_ANGVEL
                   : !strcmp(u + l, "/s^2") ? K_ANGACC : K_NONE;
    }
    static const char *const en[] = {"J", "mJ", "kJ", "MJ", "uJ"}, *const pw[] = {"W", "mW", "kW",
                                                                                  "MW", "uW"};
    for (size_t i = 0; i < sizeof en / sizeof en[0]; i++) {
        if (!strcmp(u, en[i]))
            return K_ENERGY;
        if (!strcmp(u, pw[i]))
            return K_POWER;
    }
    return K_NONE;
}

/* a plain number: 2, 0.5 (no unit) */
static int is_plain(const ast *n)
{
    while (n->kind == AST_UNARY && n->nkids == 1)
        n = n->kids[0];
    return n->kind == AST_NUM && !n->str;
}

/* a + b, a - b, min, max: like kinds stay, a kind beside none is kept */
static int sum_kind(int a, int b)
{
    int sc = (a | b) & K_SCALED;
    a &= ~K_SCALED, b &= ~K_SCALED;
    if (a == b || b == K_NONE)
        return a | sc;
    if (a == K_NONE)
        return b | sc;
    if ((a == K_VSQ && b == K_ENERGY) || (a == K_ENERGY && b == K_VSQ))
        return K_ENERGY | sc;
    return K_NONE;
}

/* a * b (div: a / b) */
static int prod_kind(const ast *na, const ast *nb, int a, int b, int div)
{
    int ka = a & ~K_SCALED, kb = b & ~K_SCALED;
    /* v * v, w * w: a squared velocity */
    if (!div && ((ka == K_VEL || ka == K_ANGVEL) && (kb == K_VEL || kb == K_ANGVEL)))
        return K_VSQ;
    if (ka != K_NONE && kb != K_NONE)
        return K_NONE;
    if (ka == K_NONE && kb == K_NONE)
        return K_NONE;
    if (div && ka == K_NONE) /* 1 / angle: not an angle */
        return K_NONE;
    const ast *other = ka == K_NONE ? na : nb;
    int k = ka == K_NONE ? b : a;
    if (is_plain(other)) /* 2 * angle, E / 2 */
        return k;
    /* m * v^2, F * v, T * w: what energies and powers are made of */
    if ((k & ~K_SCALED) == K_VEL || (k & ~K_SCALED) == K_VSQ)
        return k;
    return (k & ~K_SCALED) == K_ANGVEL ? K_ANGVEL | K_SCALED : K_NONE;
}

/* A member's kind: X.angle, X.angle.v, X.kinetic, ... */
static int member_kind(sema *S, const ast *n, int depth)
{
    const char *m = n->name ? n->name : "";
    static const char *const en[] = {"kinetic", "potential", "strain", "energy", "work",
                                     "dissipated"};
    for (size_t i = 0; i < sizeof en / sizeof en[0]; i++)
        if (!strcmp(m, en[i]))
            return K_ENERGY;
    if (!strcmp(m, "damping_power") || !strcmp(m, "power"))
        return K_POWER;
    if (!strcmp(m, "angle"))
        return K_ANGLE;
    if (!strcmp(m, "v") || !strcmp(m, "a")) {
        int b = n->nkids > 0 ? kind_of(S, n->kids[0], depth + 1) : K_NONE;
        if (b == K_ANGLE)
            return m[0] == 'v' ? K_ANGVEL : K_ANGACC;
        return m[0] == 'v' ? K_VEL : K_NONE;
    }
    return K_NONE;
}

/* A name's kind: a constant's, parameter's or let's definition; an
 * integral in J is an energy, one of an angular velocity an angle. */
static int name_kind(sema *S, const ast *n, int depth)
{
    static const jnt_dim J = {{6, 12, -12, 0, 0}};
    sym *s = n->name ? sema_find(S, n->name) : NULL;
    if (!s || !s->decl || s->decl->nkids < 1)
        return K_NONE;
    if (s->kind == SYM_CONST || s->kind == SYM_PARAM || s->kind == SYM_LET)
        return kind_of(S, s->decl->kids[0], depth + 1);
    if (s->kind == SYM_INTEGRAL) {
        if (s->done && units_equal(s->val.dim, J))
            return K_ENERGY;
        int k = kind_of(S, s->decl->kids[0], depth + 1);
        return k == K_ANGVEL ? K_ANGLE : k == K_POWER ? K_ENERGY : K_NONE;
    }
    return K_NONE;
}

static int kind_of(sema *S, const ast *n, int depth)
{
    if (!n || depth > DEPTH_MAX)
        return K_NONE;
    switch (n->kind) {
    case AST_NUM:
        return unit_kind(n->str);
    case AST_NAME:
        return name_kind(S, n, depth);
    case AST_MEMBER:
        return member_kind(S, n, depth);
    case AST_UNARY:
        return n->nkids == 1 && n->op != OP_NOT ? kind_of(S, n->kids[0], depth + 1) : K_NONE;
    case AST_IF:
        return n->nkids == 3 ? sum_kind(kind_of(S, n->kids[1], depth + 1),
                                        kind_of(S, n->kids[2], depth + 1))
                             : K_NONE;
    case AST_CALL:
        if (n->name && (!strcmp(n->name, "abs") || !strcmp(n->name, "min") ||
                        !strcmp(n->name, "max"))) {
            int k = n->nkids > 0 ? kind_of(S, n->kids[0], depth + 1) : K_NONE;
            for (int i = 1; i < n->nkids; i++)
                k = sum_kind(k, kind_of(S, n->kids[i], depth + 1));
            return k;
        }
        if (n->name && (!strcmp(n->name, "atan2") || !strcmp(n->name, "atan") ||
                        !strcmp(n->name, "asin") || !strcmp(n->name, "acos")))
            return K_ANGLE;
        return K_NONE;
    case AST_BINARY: {
        if (n->nkids != 2)
            return K_NONE;
        int a = kind_of(S, n->kids[0], depth + 1), b = kind_of(S, n->kids[1], depth + 1);
        switch (n->op) {
        case OP_ADD:
        case OP_SUB:
            return sum_kind(a, b);
        case OP_MUL:
        case OP_DIV:
            return prod_kind(n->kids[0], n->kids[1], a, b, n->op == OP_DIV);
        case OP_POW: /* v^2, w^2 */
            if (((a & ~K_SCALED) == K_VEL || (a & ~K_SCALED) == K_ANGVEL) &&
                n->kids[1]->kind == AST_NUM && !n->kids[1]->str && n->kids[1]->num == 2)
                return K_VSQ;
            return K_NONE;
        default:
            return K_NONE;
        }
    }
    default:
        return K_NONE;
    }
}

/* See passes.h. */
int sema_out_kind(sema *S, const ast *e, jnt_dim dim)
{
    static const jnt_dim W = {{6, 12, -18, 0, 0}}, J = {{6, 12, -12, 0, 0}};
    static const jnt_dim PER_S = {{0, 0, -6, 0, 0}}, PER_S2 = {{0, 0, -12, 0, 0}};
    int k = kind_of(S, e, 0), scaled = k & K_SCALED;
    k &= ~K_SCALED;
    if (units_is_none(dim))
        return k == K_ANGLE && !scaled ? JNT_KIND_ANGLE : JNT_KIND_NONE;
    if (units_equal(dim, PER_S))
        return k == K_ANGVEL && !scaled ? JNT_KIND_ANGVEL : JNT_KIND_NONE;
    if (units_equal(dim, PER_S2))
        return k == K_ANGACC && !scaled ? JNT_KIND_ANGACC : JNT_KIND_NONE;
    if (units_equal(dim, J))
        return k == K_ENERGY || k == K_VSQ ? JNT_KIND_ENERGY : JNT_KIND_NONE;
    if (units_equal(dim, W))
        return k == K_POWER || k == K_VEL || k == K_ANGVEL || k == K_VSQ ? JNT_KIND_POWER
                                                                           : JNT_KIND_NONE;
    return JNT_KIND_NONE;
}
