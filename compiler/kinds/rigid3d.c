/*
 * rigid3d.c: spatial multibody. A rigid3d body has the coordinates x, y,
 * z of its centre of mass and its directors d1, d2, d3, the columns of its
 * rotation matrix (the unit vectors of its principal axes in the world
 * frame): 12 coordinates held on the rotation group by the six rows
 *   d_i . d_i - 1 = 0,  d_i . d_j = 0  (i < j)
 * (Betsch and Steinmann 2001, "Constrained integration of rigid body
 * dynamics", CMAME 191). The kinetic energy is
 *   T = m/2 |x'|^2 + sum_i E_i/2 |d_i'|^2,  E_i = (J_j + J_k - J_i)/2,
 * with E_i the Euler tensor's principal values: the mass matrix is constant
 * and diagonal, there are no gyroscopic forces, and every constraint of the
 * bodies and of their joints is at most quadratic in the coordinates. No
 * parametrisation of the rotation, so no singularity; the midpoint rule
 * conserves the energy and the angular momentum of such a model exactly.
 * The cost: 12 coordinates and 6 multipliers a body (Euler parameters: 7
 * and 1, but a mass matrix that changes with the rotation).
 *
 * A marker is a point fixed in a body, r = x + sum_i X_i d_i. A joint is
 * defined in the model's initial pose: its axes are given in the world
 * frame at t = 0 and turned into vectors fixed in each body (their
 * components on the initial directors), so the two bodies' vectors agree at
 * t = 0. With a, p, s a right-handed triple fixed in each body (a the axis)
 * and r_a, r_b the two markers, the rows are
 *   spherical    r_a - r_b                              3
 *   revolute     r_a - r_b, a_a . p_b, a_a . s_b        5
 *   universal    r_a - r_b, u_a . w_b                   4  (u, w: the two axes)
 *   cylindrical  (r_a - r_b) . p_b, . s_b, a_a . p_b, a_a . s_b   4
 *   prismatic    (r_a - r_b) . p_b, . s_b, a_a . p_b, a_a . s_b, p_a . s_b   5
 *   planar       (r_a - r_b) . a_b, p_a . a_b, s_a . a_b          3
 *   fixed        r_a - r_b, and the prismatic's three rotation rows   6
 * (planar: seed 001 eq. 1 with the digest's correction, the in-plane axes of
 * one body normal to the other's normal). The relative angle of a about the
 * axis is atan2(p_a . s_b, p_a . p_b) and the slide (r_a - r_b) . a_b; a
 * drive of the angle is the row sin(angle - f(t)) = cos f p_a . s_b - sin f
 * p_a . p_b, still quadratic, with no jump where the angle wraps.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sema/core.h"
#include "sema/dims.h"
#include "front/alloc.h"


#include "sema/sema_v3.h"

/* The rotation matrix of rotation vector r (Rodrigues), row-major. */
static void rodrigues(ex_pool *P, const ex_id r[3], ex_id R[9])
{
    ex_id t2 = ADD(ADD(MUL(r[0], r[0]), MUL(r[1], r[1])), MUL(r[2], r[2]));
    ex_id t = ex_op1(P, EX_SQRT, t2);
    ex_id big = ex_op2(P, EX_GT, t2, C(1e-12));
    /* sin t / t and (1 - cos t)/t^2, by their series near 0 */
    ex_id a = ex_if(P, big, ex_op2(P, EX_DIV, ex_op1(P, EX_SIN, t), t),
                    SUB(C(1), ex_op2(P, EX_DIV, t2, C(6))));
    ex_id b = ex_if(P, big, ex_op2(P, EX_DIV, SUB(C(1), ex_op1(P, EX_COS, t)), t2),
                    SUB(C(0.5), ex_op2(P, EX_DIV, t2, C(24))));
    /* R = I + a K + b K^2, K = [r]x, K^2 = r r^T - t^2 I */
    ex_id K[9] = {C(0), ex_op1(P, EX_NEG, r[2]), r[1],
                  r[2], C(0), ex_op1(P, EX_NEG, r[0]),
                  ex_op1(P, EX_NEG, r[1]), r[0], C(0)};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            ex_id k2 = MUL(r[i], r[j]);
            if (i == j)
                k2 = SUB(k2, t2);
            R[3 * i + j] = ADD(ADD(C(i == j), MUL(a, K[3 * i + j])), MUL(b, k2));
        }
}

/* A body argument by name or position: the expression, or NULL. */
static const ast *body_arg(const ast *d, const char *const *names, int n, int want, int *bad)
{
    int pos = 0;
    const ast *got = NULL;
    for (int j = 0; j < d->nkids; j++) {
        const ast *a = d->kids[j];
        if (a->kind == AST_DOF || a->kind == AST_MARKER ||
            (a->kind == AST_ARG && !strcmp(a->name, "shape")))
            continue; /* the shape: body_args */
        int k = -1;
        if (a->kind != AST_ARG)
            k = pos++;
        else
            for (int i = 0; i < n; i++)
                if (!strcmp(a->name, names[i]))
                    k = i;
        if (k < 0 || k >= n)
            *bad = j + 1;
        else if (k == want)
            got = a->kind == AST_ARG ? a->kids[0] : a;
    }
    return got;
}

/* The eigenvalues lam and eigenvectors (the columns of q, a rotation) of
 * the symmetric 3x3 a (row-major), by cyclic Jacobi rotations. */
static void sym3_eigen(const double a[9], double lam[3], double q[9])
{
    double m[9];
    memcpy(m, a, sizeof m);
    for (int i = 0; i < 9; i++)
        q[i] = i % 4 == 0;
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(m[1]) + fabs(m[2]) + fabs(m[5]);
        if (off <= 1e-15 * (fabs(m[0]) + fabs(m[4]) + fabs(m[8])))
            break;
        for (int p = 0; p < 2; p++)
            for (int r = p + 1; r < 3; r++) {
                double apr = m[3 * p + r];
                if (apr == 0)
                    continue;
                double th = (m[3 * r + r] - m[3 * p + p]) / (2 * apr);
                double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
                double c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < 3; k++) { /* m = G^T m G, q = q G */
                    double mkp = m[3 * k + p], mkr = m[3 * k + r];
                    m[3 * k + p] = c * mkp - sn * mkr, m[3 * k + r] = sn * mkp + c * mkr;
                }
                for (int k = 0; k < 3; k++) {
                    double mpk = m[3 * p + k], mrk = m[3 * r + k];
                    m[3 * p + k] = c * mpk - sn * mrk, m[3 * r + k] = sn * mpk + c * mrk;
                }
                for (int k = 0; k < 3; k++) {
                    double qkp = q[3 * k + p], qkr = q[3 * k + r];
                    q[3 * k + p] = c * qkp - sn * qkr, q[3 * k + r] = sn * qkp + c * qkr;
                }
            }
    }
    for (int i = 0; i < 3; i++)
        lam[i] = m[4 * i];
}

/* `products = (Jxy, Jyz, Jzx)`: the inertia tensor's off-diagonal entries in
 * the body frame. With any non-zero, the directors become the principal
 * axes (sym3_eigen of the constant tensor, b->pq) and J the principal
 * moments; 0, or -1 after an error. */
static int principal_axes(sema *S, body *b, const scope *sc, const ast *e, ex_id J[3])
{
    ex_pool *P = sema_pool(S);
    ex_id pr[3];
    if (sema_mb_triple(S, sc, e, DIM_KGM2, "the products of inertia (Jxy, Jyz, Jzx)", pr) != 0)
        return -1;
    double a[9], v[6];
    for (int i = 0; i < 6; i++)
        if (!ex_is_const(P, i < 3 ? J[i] : pr[i - 3], &v[i])) {
            diag_error(sema_dc(S), e->loc,
                       "with products of inertia the tensor must be constant: "
                       "its principal axes are found when the model compiles");
            return -1;
        }
    if (v[3] == 0 && v[4] == 0 && v[5] == 0)
        return 0;
    a[0] = v[0], a[4] = v[1], a[8] = v[2];
    a[1] = a[3] = v[3], a[5] = a[7] = v[4], a[2] = a[6] = v[5];
    double lam[3];
    sym3_eigen(a, lam, b->pq);
    double det = b->pq[0] * (b->pq[4] * b->pq[8] - b->pq[5] * b->pq[7]) -
                 b->pq[1] * (b->pq[3] * b->pq[8] - b->pq[5] * b->pq[6]) +
                 b->pq[2] * (b->pq[3] * b->pq[7] - b->pq[4] * b->pq[6]);
    for (int k = 0; det < 0 && k < 3; k++)
        b->pq[3 * k + 2] = -b->pq[3 * k + 2]; /* a rotation, not a reflection */
    for (int i = 0; i < 3; i++)
        J[i] = C(lam[i]);
    b->paxes = 1;
    return 0;
}

/* The body's mass, inertia (principal moments, or a tensor with products)
 * and initial rotation and angular velocity; 0 or -1 after an error. */
static int body_args(sema *S, body *b, const scope *sc, ex_id R[9], ex_id w[3])
{
    static const char *const names[5] = {"mass", "inertia", "rotation", "omega", "products"};
    static const char *const fnames[3] = {"substructure", "rotation", "omega"};
    ex_pool *P = sema_pool(S);
    const ast *d = b->decl;
    int bad = 0;
    const ast *given[5] = {0};
    if (b->flex) { /* flexible3d: the substructure is kinds/flexible.c's */
        for (int k = 1; k < 3; k++)
            given[k + 1] = body_arg(d, fnames, 3, k, &bad);
    } else {
        for (int k = 0; k < 5; k++)
            given[k] = body_arg(d, names, 5, k, &bad);
    }
    for (int j = 0; j < d->nkids && !b->flex; j++)
        if (d->kids[j]->kind == AST_ARG && !strcmp(d->kids[j]->name, "shape"))
            sema_body_shape(S, b, d->kids[j]->kids[0]);
    if (bad) {
        diag_error(sema_dc(S), d->kids[bad - 1]->loc,
                   b->flex
                       ? "'flexible3d' takes 'substructure', 'rotation' and 'omega'"
                       : "'rigid3d' takes 'mass', 'inertia' (its moments (Jx, Jy, Jz) about its "
                         "centre of mass), 'rotation', 'omega', 'products' (Jxy, Jyz, Jzx) and "
                         "'shape'");
        return -1;
    }
    if (b->flex)
        goto pose;
    if (!given[0] || !given[1]) {
        diag_error(sema_dc(S), d->loc,
                   "'rigid3d' needs its %s: rigid3d(mass = 1 kg, inertia = "
                   "(0.01 kg*m^2, 0.02 kg*m^2, 0.02 kg*m^2))",
                   given[0] ? "inertia" : "mass");
        return -1;
    }
    sval m = sema_num_dim(S, sc, given[0], DIM_KG, "mass");
    if (m.k != V_NUM)
        return -1;
    double x;
    if (sema_is_dynamic(S, m.e) || (sema_fixed_value(S, m.e, &x) && !sema_mass_ok(POS_MASS, x))) {
        diag_error(sema_dc(S), given[0]->loc, "the mass must be positive and use parameters only");
        return -1;
    }
    b->mass = m;
    ex_id J[3];
    if (sema_mb_triple(S, sc, given[1], DIM_KGM2, "the inertia (Jx, Jy, Jz)", J) != 0)
        return -1;
    if (given[4] && principal_axes(S, b, sc, given[4], J) != 0)
        return -1;
    for (int i = 0; i < 3; i++) {
        b->euler[i] = ex_op2(P, EX_MUL, C(0.5), SUB(ADD(J[(i + 1) % 3], J[(i + 2) % 3]), J[i]));
        double e;
        /* the rule of a parameter inertia too (the params kernel): a lamina passes */
        if (sema_fixed_value(S, b->euler[i], &e) && !sema_mass_ok(POS_EULER, e)) {
            if (b->paxes)
                diag_error(sema_dc(S), given[4]->loc,
                           "the inertia tensor is not a body's: its "
                           "principal moments break the triangle "
                           "inequality J1 <= J2 + J3 (no moment may "
                           "exceed the sum of the other two)");
            else
                diag_error(sema_dc(S), given[1]->loc,
                           "the principal moments of inertia break the "
                           "triangle inequality J%c <= J%c + J%c (no "
                           "moment may exceed the sum of the other two)",
                           "xyz"[i], "xyz"[(i + 1) % 3], "xyz"[(i + 2) % 3]);
            return -1;
        }
    }
pose:;
    ex_id r[3] = {C(0), C(0), C(0)};
    w[0] = w[1] = w[2] = C(0);
    if (given[2] && sema_mb_triple(S, sc, given[2], units_none, "the rotation vector", r) != 0)
        return -1;
    if (given[3] && sema_mb_triple(S, sc, given[3], DIM_PS, "the angular velocity", w) != 0)
        return -1;
    rodrigues(P, r, R);
    if (b->paxes) { /* the directors: the principal axes, R pq */
        ex_id Rq[9];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                Rq[3 * i + k] = ADD(ADD(MUL(R[3 * i], C(b->pq[k])), MUL(R[3 * i + 1],
                                                                        C(b->pq[3 + k]))),
                                    MUL(R[3 * i + 2], C(b->pq[6 + k])));
        memcpy(R, Rq, sizeof Rq);
    }
    return 0;
}

/* The frame of spatial body b: the dofs x, y, z and the directors, their
 * initial values from `rotation` and `omega`, the six orthonormality rows.
 * 0, or -1 after an error (the body's arguments). */
static int frame3d(sema *S, body *b)
{
    static const char *const dn[3][3] = {{"d1x", "d1y", "d1z"}, {"d2x", "d2y", "d2z"},
                                         {"d3x", "d3y", "d3z"}};
    ex_pool *P = sema_pool(S);
    const ast *d = b->decl;
    sema_set_multibody(S, 1);
    b->rigid3 = 1;
    sema_mb_add_dof(S, b, "x", DIM_M, d->loc);
    sema_mb_add_dof(S, b, "y", DIM_M, d->loc);
    sema_mb_add_dof(S, b, "z", DIM_M, d->loc);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            sema_mb_add_dof(S, b, dn[i][k], units_none, d->loc);
    b->ndof = 12;
    for (int j = 0; j < d->nkids; j++)
        if (d->kids[j]->kind == AST_DOF)
            diag_error(sema_dc(S), d->kids[j]->loc,
                       "a %s body has the coordinates x, y, z and the "
                       "directors d1, d2, d3; declare points fixed in it "
                       "with 'marker NAME = (x, y, z)'",
                       d->str);
    scope isc = {.up = sema_global(S), .iname = b->iname, .ival = b->ival};
    ex_id R[9], w[3];
    if (body_args(S, b, b->iname ? &isc : sema_global(S), R, w) != 0)
        return -1;
    ex_set_loc(P, d->loc);
    /* the initial directors: R's columns; their rates w x d_i */
    v3 wv = {{w[0], w[1], w[2]}};
    for (int i = 0; i < 3; i++) {
        v3 di = {{R[i], R[3 + i], R[6 + i]}}, dd = v_cross(P, wv, di);
        for (int k = 0; k < 3; k++) {
            int y = sema_dof(S, b->dof0 + 3 + 3 * i + k)->y;
            sema_ir(S)->y.v[y].init = di.c[k];
            sema_ir(S)->y.v[y + 1].init = dd.c[k];
        }
    }
    /* the orthonormality rows and their multipliers */
    static const int pr[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {0, 2}};
    static const char *const ln[6] = {"lambda_11", "lambda_22", "lambda_33", "lambda_12",
                                      "lambda_23", "lambda_13"};
    for (int k = 0; k < 6; k++) {
        ex_id c = v_dot(P, mb3_director(S, b, pr[k][0]), mb3_director(S, b, pr[k][1]));
        b->rows[k] = pr[k][0] == pr[k][1] ? SUB(c, C(1)) : c;
        int l =
            ir_add(&sema_ir(S)->y, xasprintf("%s.%s", b->name, ln[k]), -1, C(0), DIM_NM, d->loc);
        if (k == 0)
            b->l0 = l;
    }
    b->nrows = 6;
    return 0;
}

/* kinds/rigid3d.c: spatial multibody (rigid3d bodies in director coordinates,
 * spatial markers and joints) */
/* Pass 2: the dofs x, y, z, d1, d2, d3, the mass and the markers of rigid3d
 * body b. */
/* Pass 2: a flexible3d body's frame (rigid3d's coordinates and rows); its
 * substructure, invariants and markers come with sema_flex_bind. */
static void sema_declare_flexible3d(sema *S, body *b)
{
    b->flex = 1;
    b->sub = -1;
    frame3d(S, b);
}

/* kinds/rigid3d.c: spatial multibody (rigid3d bodies in director coordinates,
 * spatial markers and joints) */
/* Pass 2: the dofs x, y, z, d1, d2, d3, the mass and the markers of rigid3d
 * body b. */
static void sema_declare_rigid3d(sema *S, body *b)
{
    ex_pool *P = sema_pool(S);
    const ast *d = b->decl;
    int bi = sema_body_id(S, b);
    if (frame3d(S, b) != 0)
        b->mass = sval_err;
    scope isc = {.up = sema_global(S), .iname = b->iname, .ival = b->ival};
    const scope *sc = b->iname ? &isc : sema_global(S);
    for (int j = 0; j < d->nkids; j++) {
        const ast *q = d->kids[j];
        if (q->kind != AST_MARKER)
            continue;
        int dup = 0;
        for (int i = 0; i < sema_nmarker(S); i++)
            dup |= sema_marker(S, i)->body == bi && !strcmp(sema_marker(S, i)->short_name, q->name);
        if (dup) {
            diag_error(sema_dc(S), q->loc, "marker '%s' is declared twice", q->name);
            continue;
        }
        ex_id X[3];
        if (sema_mb_triple(S, sc, q->kids[0], DIM_M, "a marker's position in its body", X) != 0)
            continue;
        ex_set_loc(P, q->loc);
        sema_mb3d_marker(S, b, q->name, X, NULL);
    }
}

/* The angular velocity w = 1/2 sum_i d_i x d_i', the
 * angular momentum about the centre of mass L = sum_i E_i d_i x d_i' and
 * the kinetic energy m/2 |x'|^2 + sum_i E_i/2 |d_i'|^2, in the world frame. */
static int sema_rigid3d_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out)
{
    (void)loc;
    int bi = base.id;
    ex_pool *P = sema_pool(S);
    const body *b = sema_body(S, bi);
    int w = name[0] == 'w', L = name[0] == 'L', c = name[1] - 'x';
    int kin = !strcmp(name, "kinetic");
    if (!b->rigid3 || (!kin && (!(w || L) || c < 0 || c > 2 || name[2])))
        return 1;
    if (b->mass.k != V_NUM) /* flexible3d has none; rigid3d: its declaration failed */
        return b->flex ? 1 : -1;
    v3 sum = {{C(0), C(0), C(0)}};
    ex_id e = C(0);
    for (int k = 0; k < 3; k++)
        e = ADD(e, MUL(sema_dof(S, b->dof0 + k)->vel, sema_dof(S, b->dof0 + k)->vel));
    e = MUL(b->mass.e, e);
    for (int i = 0; i < 3; i++) {
        v3 dv;
        for (int k = 0; k < 3; k++)
            dv.c[k] = sema_dof(S, b->dof0 + 3 + 3 * i + k)->vel;
        v3 dxd = v_cross(P, mb3_director(S, b, i), dv);
        sum = v_add(P, sum, L ? v_scale(P, b->euler[i], dxd) : dxd);
        e = ADD(e, MUL(b->euler[i], v_dot(P, dv, dv)));
    }
    if (kin)
        *out = sval_num(MUL(C(0.5), e), (jnt_dim){{6, 12, -12, 0, 0}});
    else
        *out = sval_num(w ? MUL(C(0.5), sum.c[c]) : sum.c[c], w ? DIM_PS : (jnt_dim){{6, 12, -6, 0, 0}});
    return 0;
}

const sema_kind sema_kind_rigid3d = {
    .name = "rigid3d",
    .declare_body = sema_declare_rigid3d,
    .member = sema_rigid3d_member,
    .weighs = 1,
};

const sema_kind sema_kind_flexible3d = {
    .name = "flexible3d",
    .declare_body = sema_declare_flexible3d,
    .member = sema_rigid3d_member,
    .weighs = 1,
};
