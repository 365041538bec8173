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

#include "sema/sema_int.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_PS = {{0, 0, -6, 0, 0}};
static const jnt_dim DIM_MS = {{0, 6, -6, 0, 0}};
static const jnt_dim DIM_KG = {{6, 0, 0, 0, 0}};
static const jnt_dim DIM_KGM2 = {{6, 12, 0, 0, 0}};
static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};
static const jnt_dim DIM_NM = {{6, 12, -12, 0, 0}};

#include "sema/sema_v3.h"

/* See sema_int.h. */
int sema_mb_triple(sema *S, const scope *sc, const ast *e, jnt_dim dim, const char *what,
                   ex_id out[3])
{
    if (e->kind != AST_TUPLE || e->nkids != 3) {
        diag_error(S->dc, e->loc, "%s is a triple (x, y, z) in a spatial model", what);
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        sval v = sema_num_dim(S, sc, e->kids[k], dim, what);
        if (v.k != V_NUM)
            return -1;
        if (sema_is_dynamic(S, v.e)) {
            diag_error(S->dc, e->kids[k]->loc, "%s may use parameters only", what);
            return -1;
        }
        out[k] = v.e;
    }
    return 0;
}

/* See sema/sema_v3.h. */
v3 mb3_director(const sema *S, const body *b, int i)
{
    v3 d;
    for (int k = 0; k < 3; k++)
        d.c[k] = S->dofs[b->dof0 + 3 + 3 * i + k].pos;
    return d;
}

/* See sema/sema_v3.h. */
v3 mb3_director0(const sema *S, const body *b, int i)
{
    v3 d;
    for (int k = 0; k < 3; k++)
        d.c[k] = S->m->y.v[S->dofs[b->dof0 + 3 + 3 * i + k].y].init;
    return d;
}

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
    ex_pool *P = S->pool;
    ex_id pr[3];
    if (sema_mb_triple(S, sc, e, DIM_KGM2, "the products of inertia (Jxy, Jyz, Jzx)", pr) != 0)
        return -1;
    double a[9], v[6];
    for (int i = 0; i < 6; i++)
        if (!ex_is_const(P, i < 3 ? J[i] : pr[i - 3], &v[i])) {
            diag_error(S->dc, e->loc, "with products of inertia the tensor must be constant: "
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
    ex_pool *P = S->pool;
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
        diag_error(S->dc, d->kids[bad - 1]->loc, b->flex
                   ? "'flexible3d' takes 'substructure', 'rotation' and 'omega'"
                   : "'rigid3d' takes 'mass', 'inertia' (its moments (Jx, Jy, Jz) about its "
                     "centre of mass), 'rotation', 'omega', 'products' (Jxy, Jyz, Jzx) and "
                     "'shape'");
        return -1;
    }
    if (b->flex)
        goto pose;
    if (!given[0] || !given[1]) {
        diag_error(S->dc, d->loc, "'rigid3d' needs its %s: rigid3d(mass = 1 kg, inertia = "
                                  "(0.01 kg*m^2, 0.02 kg*m^2, 0.02 kg*m^2))",
                   given[0] ? "inertia" : "mass");
        return -1;
    }
    sval m = sema_num_dim(S, sc, given[0], DIM_KG, "mass");
    if (m.k != V_NUM)
        return -1;
    double x;
    if (sema_is_dynamic(S, m.e) || (sema_fixed_value(S, m.e, &x) && !sema_mass_ok(POS_MASS, x))) {
        diag_error(S->dc, given[0]->loc, "the mass must be positive and use parameters only");
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
                diag_error(S->dc, given[4]->loc, "the inertia tensor is not a body's: its "
                                                 "principal moments break the triangle "
                                                 "inequality J1 <= J2 + J3 (no moment may "
                                                 "exceed the sum of the other two)");
            else
                diag_error(S->dc, given[1]->loc, "the principal moments of inertia break the "
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
    ex_pool *P = S->pool;
    const ast *d = b->decl;
    S->multibody = 1;
    S->spatial = 1;
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
            diag_error(S->dc, d->kids[j]->loc, "a %s body has the coordinates x, y, z and the "
                                               "directors d1, d2, d3; declare points fixed in it "
                                               "with 'marker NAME = (x, y, z)'", d->str);
    scope isc = {.up = &S->global, .iname = b->iname, .ival = b->ival};
    ex_id R[9], w[3];
    if (body_args(S, b, b->iname ? &isc : &S->global, R, w) != 0)
        return -1;
    ex_set_loc(P, d->loc);
    /* the initial directors: R's columns; their rates w x d_i */
    v3 wv = {{w[0], w[1], w[2]}};
    for (int i = 0; i < 3; i++) {
        v3 di = {{R[i], R[3 + i], R[6 + i]}}, dd = v_cross(P, wv, di);
        for (int k = 0; k < 3; k++) {
            int y = S->dofs[b->dof0 + 3 + 3 * i + k].y;
            S->m->y.v[y].init = di.c[k];
            S->m->y.v[y + 1].init = dd.c[k];
        }
    }
    /* the orthonormality rows and their multipliers */
    static const int pr[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {0, 2}};
    static const char *const ln[6] = {"lambda_11", "lambda_22", "lambda_33", "lambda_12",
                                      "lambda_23", "lambda_13"};
    for (int k = 0; k < 6; k++) {
        ex_id c = v_dot(P, mb3_director(S, b, pr[k][0]), mb3_director(S, b, pr[k][1]));
        b->rows[k] = pr[k][0] == pr[k][1] ? SUB(c, C(1)) : c;
        int l = ir_add(&S->m->y, xasprintf("%s.%s", b->name, ln[k]), -1, C(0), DIM_NM, d->loc);
        if (k == 0)
            b->l0 = l;
    }
    b->nrows = 6;
    return 0;
}

/* See sema_int.h. */
void sema_mb3d_marker(sema *S, body *b, const char *name, const ex_id X[3], const ex_id *rot)
{
    ex_pool *P = S->pool;
    v3 r = {{S->dofs[b->dof0].pos, S->dofs[b->dof0 + 1].pos, S->dofs[b->dof0 + 2].pos}};
    for (int i = 0; i < 3; i++) {
        ex_id xi = X[i]; /* along director i: with principal axes, (pq^T X)_i */
        if (b->paxes)
            xi = ADD(ADD(MUL(C(b->pq[i]), X[0]), MUL(C(b->pq[3 + i]), X[1])),
                     MUL(C(b->pq[6 + i]), X[2]));
        r = v_add(P, r, v_scale(P, xi, mb3_director(S, b, i)));
    }
    marker m = {.name = xasprintf("%s.%s", b->name, name), .short_name = name,
                .body = (int)(b - S->bodies), .angle = -1, .px = r.c[0], .py = r.c[1],
                .pz = r.c[2], .d3 = 1, .rot_on = rot != NULL};
    for (int k = 0; rot && k < 3; k++)
        m.rot[k] = rot[k], m.rotv[k] = rot[3 + k];
    sema_mb_add_marker(S, m);
}

/* See sema_int.h. */
void sema_declare_flexible3d(sema *S, body *b)
{
    b->flex = 1;
    b->sub = -1;
    frame3d(S, b);
}

/* See sema_int.h. */
void sema_declare_rigid3d(sema *S, body *b)
{
    ex_pool *P = S->pool;
    const ast *d = b->decl;
    int bi = (int)(b - S->bodies);
    if (frame3d(S, b) != 0)
        b->mass = sval_err;
    scope isc = {.up = &S->global, .iname = b->iname, .ival = b->ival};
    const scope *sc = b->iname ? &isc : &S->global;
    for (int j = 0; j < d->nkids; j++) {
        const ast *q = d->kids[j];
        if (q->kind != AST_MARKER)
            continue;
        int dup = 0;
        for (int i = 0; i < S->nmarker; i++)
            dup |= S->markers[i].body == bi && !strcmp(S->markers[i].short_name, q->name);
        if (dup) {
            diag_error(S->dc, q->loc, "marker '%s' is declared twice", q->name);
            continue;
        }
        ex_id X[3];
        if (sema_mb_triple(S, sc, q->kids[0], DIM_M, "a marker's position in its body", X) != 0)
            continue;
        ex_set_loc(P, q->loc);
        sema_mb3d_marker(S, b, q->name, X, NULL);
    }
}

/* See sema_int.h. */
ex_id sema_mb_dof_mass(sema *S, const dof *f)
{
    const body *b = &S->bodies[f->body];
    int k = (int)(f - S->dofs) - b->dof0;
    sval mv = b->mass;
    if (b->rigid3 && k >= 3)
        return b->mass.k == V_NUM ? b->euler[(k - 3) / 3] : ex_const(S->pool, 1);
    if (b->rigid && !strcmp(f->short_name, "angle"))
        mv = b->inertia;
    return mv.k == V_NUM ? mv.e : ex_const(S->pool, 1);
}

/* See sema_int.h: the angular velocity w = 1/2 sum_i d_i x d_i', the
 * angular momentum about the centre of mass L = sum_i E_i d_i x d_i' and
 * the kinetic energy m/2 |x'|^2 + sum_i E_i/2 |d_i'|^2, in the world frame. */
int sema_rigid3d_member(sema *S, int bi, const char *name, sval *out)
{
    ex_pool *P = S->pool;
    const body *b = &S->bodies[bi];
    int w = name[0] == 'w', L = name[0] == 'L', c = name[1] - 'x';
    int kin = !strcmp(name, "kinetic");
    if (!b->rigid3 || (!kin && (!(w || L) || c < 0 || c > 2 || name[2])))
        return 1;
    if (b->mass.k != V_NUM) /* flexible3d has none; rigid3d: its declaration failed */
        return b->flex ? 1 : -1;
    v3 sum = {{C(0), C(0), C(0)}};
    ex_id e = C(0);
    for (int k = 0; k < 3; k++)
        e = ADD(e, MUL(S->dofs[b->dof0 + k].vel, S->dofs[b->dof0 + k].vel));
    e = MUL(b->mass.e, e);
    for (int i = 0; i < 3; i++) {
        v3 dv;
        for (int k = 0; k < 3; k++)
            dv.c[k] = S->dofs[b->dof0 + 3 + 3 * i + k].vel;
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

/* See sema/sema_v3.h. */
v3 mb3_mpos(const marker *m)
{
    return (v3){{m->px, m->py, m->pz}};
}

/* See sema/sema_v3.h. */
v3 mb3_fixed_in(sema *S, const marker *m, v3 w0)
{
    ex_pool *P = S->pool;
    if (m->body < 0)
        return w0;
    const body *b = &S->bodies[m->body];
    v3 c;
    for (int i = 0; i < 3; i++)
        c.c[i] = v_dot(P, mb3_director0(S, b, i), w0);
    if (m->rot_on)
        c = v_add(P, c, v_cross(P, (v3){{m->rot[0], m->rot[1], m->rot[2]}}, c));
    v3 v = {{C(0), C(0), C(0)}};
    for (int i = 0; i < 3; i++)
        v = v_add(P, v, v_scale(P, c.c[i], mb3_director(S, b, i)));
    return v;
}

/* See sema/sema_v3.h. */
int mb3_axis_triple(sema *S, const ast *e, v3 *a, v3 *p, v3 *s)
{
    ex_pool *P = S->pool;
    ex_id c[3] = {C(0), C(0), C(1)};
    if (e && sema_mb_triple(S, &S->global, e, units_none, "an axis", c) != 0)
        return -1;
    double x;
    v3 raw = {{c[0], c[1], c[2]}};
    if (ex_is_const(P, v_dot(P, raw, raw), &x) && !(x > 0)) {
        diag_error(S->dc, e->loc, "an axis must not be zero");
        return -1;
    }
    *a = v_unit(P, raw);
    /* p: normal to a, from e_x unless a is near it (then e_y) */
    ex_id nearx = ex_op2(P, EX_GT, ex_op1(P, EX_ABS, a->c[0]), C(0.9));
    v3 t = {{ex_if(P, nearx, C(0), C(1)), ex_if(P, nearx, C(1), C(0)), C(0)}};
    *p = v_unit(P, v_cross(P, *a, t));
    *s = v_cross(P, *a, *p);
    return 0;
}

static void add_row(sema *S, joint *j, ex_id c, const char *what, jnt_dim dim)
{
    j->rows[j->nl] = c;
    int i = ir_add(&S->m->y, xasprintf("%s.%s", j->name, what), -1, ex_const(S->pool, 0), dim,
                   j->decl->loc);
    if (j->nl++ == 0)
        j->l0 = i;
}

/* An orientation row u . w, u fixed in a and w in b. */
static void add_ori(sema *S, joint *j, v3 u, v3 w, const char *what)
{
    j->ou[j->nori][0] = u.c[0], j->ou[j->nori][1] = u.c[1], j->ou[j->nori][2] = u.c[2];
    j->ow[j->nori][0] = w.c[0], j->ow[j->nori][1] = w.c[1], j->ow[j->nori][2] = w.c[2];
    j->nori++;
    add_row(S, j, v_dot(S->pool, u, w), what, DIM_NM);
}

/* See sema_int.h. */
int sema_joint3d(sema *S, joint *j, const ast *axis, const ast *axis_b, const ast *drive)
{
    ex_pool *P = S->pool;
    const marker *ma = &S->markers[j->a], *mb = &S->markers[j->b];
    const ast *d = j->decl;
    if (!ma->d3 || !mb->d3) {
        diag_error(S->dc, d->loc, "joint '%s' connects a spatial marker to a planar one%s",
                   j->name, (ma->body < 0 || mb->body < 0)
                   ? ": a point of the ground is (x, y, z) in a spatial model" : "");
        return -1;
    }
    int kind = j->kind;
    int has_axis = kind == JOINT_REVOLUTE || kind == JOINT_PRISMATIC ||
                   kind == JOINT_CYLINDRICAL || kind == JOINT_PLANAR;
    if ((axis && !has_axis && kind != JOINT_UNIVERSAL) || (axis_b && kind != JOINT_UNIVERSAL)) {
        diag_error(S->dc, (axis_b ? axis_b : axis)->loc, "a %s joint takes no %s", d->str,
                   axis_b ? "'axis_b'" : "'axis'");
        return -1;
    }
    if (drive && kind != JOINT_REVOLUTE && kind != JOINT_PRISMATIC) {
        diag_error(S->dc, drive->loc, "a drive prescribes the angle of a revolute joint or the "
                                      "slide of a prismatic one");
        return -1;
    }
    j->d3 = 1;
    ex_set_loc(P, d->loc);
    v3 a0, p0, s0;
    if (mb3_axis_triple(S, kind == JOINT_FIXED ? NULL : axis, &a0, &p0, &s0) != 0)
        return -1;
    v3 aa = mb3_fixed_in(S, ma, a0), pa = mb3_fixed_in(S, ma, p0), sa = mb3_fixed_in(S, ma, s0);
    v3 ab = mb3_fixed_in(S, mb, a0), pb = mb3_fixed_in(S, mb, p0), sb = mb3_fixed_in(S, mb, s0);
    v3 dr = v_sub(P, mb3_mpos(ma), mb3_mpos(mb));
    static const char *const fn[3] = {"lambda_x", "lambda_y", "lambda_z"};
    if (kind == JOINT_SPHERICAL || kind == JOINT_REVOLUTE || kind == JOINT_UNIVERSAL ||
        kind == JOINT_FIXED) {
        for (int k = 0; k < 3; k++)
            add_row(S, j, dr.c[k], fn[k], DIM_N);
        j->npos = 3;
    } else if (kind == JOINT_PLANAR) {
        add_row(S, j, v_dot(P, dr, ab), "lambda_n", DIM_N);
    } else {
        add_row(S, j, v_dot(P, dr, pb), "lambda_p", DIM_N);
        add_row(S, j, v_dot(P, dr, sb), "lambda_s", DIM_N);
    }
    switch (kind) {
    case JOINT_UNIVERSAL: {
        if (!axis || !axis_b) {
            diag_error(S->dc, d->loc, "a universal joint needs its two axes, normal to each "
                                      "other: universal(A, B, axis = (1, 0, 0), axis_b = "
                                      "(0, 1, 0))");
            return -1;
        }
        v3 u0, w0, t1, t2;
        if (mb3_axis_triple(S, axis_b, &w0, &t1, &t2) != 0)
            return -1;
        u0 = a0;
        double x;
        if (ex_is_const(P, v_dot(P, u0, w0), &x) && fabs(x) > 1e-9) {
            diag_error(S->dc, axis_b->loc, "the axes of universal joint '%s' are not normal to "
                                           "each other (cosine %g)", j->name, x);
            return -1;
        }
        add_ori(S, j, mb3_fixed_in(S, ma, u0), mb3_fixed_in(S, mb, w0), "lambda_uw");
        break;
    }
    case JOINT_REVOLUTE:
    case JOINT_CYLINDRICAL:
        add_ori(S, j, aa, pb, "lambda_ap");
        add_ori(S, j, aa, sb, "lambda_as");
        break;
    case JOINT_PRISMATIC:
    case JOINT_FIXED:
        add_ori(S, j, aa, pb, "lambda_ap");
        add_ori(S, j, aa, sb, "lambda_as");
        add_ori(S, j, pa, sb, "lambda_ps");
        break;
    case JOINT_PLANAR:
        add_ori(S, j, pa, ab, "lambda_pa");
        add_ori(S, j, sa, ab, "lambda_sa");
        break;
    default:
        break;
    }
    /* the relative coordinate: a's angle about the axis, or the slide */
    int slide = kind == JOINT_PRISMATIC;
    if (kind == JOINT_REVOLUTE || kind == JOINT_CYLINDRICAL)
        j->rel = ex_op2(P, EX_ATAN2, v_dot(P, pa, sb), v_dot(P, pa, pb));
    else if (slide)
        j->rel = v_dot(P, dr, ab);
    else
        j->rel = ex_const(P, 0);
    j->rel_v = ex_diff(P, j->rel, EX_T, 0);
    for (int i = 0; i < S->m->y.n; i++)
        if (ex_depends(P, j->rel, EX_Y, i))
            j->rel_v = ADD(j->rel_v, MUL(ex_diff(P, j->rel, EX_Y, i), ex_var(P, EX_Y, i + 1)));
    if (drive) {
        sval v = sema_num_dim(S, &S->global, drive, slide ? DIM_M : units_none, "the drive");
        if (v.k != V_NUM)
            return -1;
        if (!sema_is_time_only(S, v.e)) {
            diag_error(S->dc, drive->loc, "a drive is a function of time and parameters");
            return -1;
        }
        j->drive = v.e;
        ex_id row = slide ? SUB(j->rel, v.e)
                          : SUB(MUL(ex_op1(P, EX_COS, v.e), v_dot(P, pa, sb)),
                                MUL(ex_op1(P, EX_SIN, v.e), v_dot(P, pa, pb)));
        add_row(S, j, row, "lambda_drive", slide ? DIM_N : DIM_NM);
    }
    return 0;
}

/* The multiplier of row k, negated: the reaction on the first body. */
static ex_id neg_lambda(sema *S, const joint *j, int k)
{
    return ex_op1(S->pool, EX_NEG, ex_var(S->pool, EX_Y, j->l0 + k));
}

/* See sema_int.h. The force rows r_a - r_b come first; the torque of the
 * orientation rows on a is -sum_k lambda_k u_k x w_k (d(u . w) = dtheta_a .
 * (u x w) for a rotation dtheta_a of a). */
int sema_joint3d_member(sema *S, int ji, const char *name, jnt_loc loc, sval *out)
{
    ex_pool *P = S->pool;
    const joint *j = &S->joints[ji];
    if (!j->d3)
        return 1;
    int c = name[0] && name[1] == 0 ? -1 : name[1] - 'x';
    if ((name[0] == 'f' || name[0] == 'm') && name[1] && !name[2] && c >= 0 && c < 3) {
        if (name[0] == 'f' && j->npos != 3) {
            diag_error(S->dc, loc, "joint '%s' carries no force along all three axes: its "
                                   "reaction is 'reaction'", j->name);
            return -1;
        }
        ex_id v = ex_const(P, 0);
        if (name[0] == 'f')
            v = neg_lambda(S, j, c);
        for (int k = 0; name[0] == 'm' && k < j->nori; k++) {
            v3 u = {{j->ou[k][0], j->ou[k][1], j->ou[k][2]}};
            v3 w = {{j->ow[k][0], j->ow[k][1], j->ow[k][2]}};
            v = ADD(v, MUL(neg_lambda(S, j, j->nl - j->nori - (j->drive >= 0) + k),
                           v_cross(P, u, w).c[c]));
        }
        *out = sval_num(v, name[0] == 'f' ? DIM_N : DIM_NM);
        return 0;
    }
    int nforce = j->kind == JOINT_PLANAR ? 1 : j->npos ? 3 : 2;
    if (!strcmp(name, "reaction")) {
        ex_id r2 = ex_const(P, 0);
        for (int k = 0; k < nforce; k++)
            r2 = ADD(r2, MUL(neg_lambda(S, j, k), neg_lambda(S, j, k)));
        *out = sval_num(ex_if(P, ex_op2(P, EX_GT, r2, ex_const(P, 0)), ex_op1(P, EX_SQRT, r2),
                              ex_const(P, 0)), DIM_N);
        return 0;
    }
    int slide = j->kind == JOINT_PRISMATIC, turn = j->kind == JOINT_REVOLUTE ||
                                                   j->kind == JOINT_CYLINDRICAL;
    if ((slide && !strcmp(name, "s")) || (turn && !strcmp(name, "angle"))) {
        *out = sval_num(j->rel, slide ? DIM_M : units_none);
        return 0;
    }
    if ((slide || turn) && !strcmp(name, "speed")) {
        *out = sval_num(j->rel_v, slide ? DIM_MS : DIM_PS);
        return 0;
    }
    if (j->drive >= 0 && !strcmp(name, slide ? "force" : "torque")) {
        *out = sval_num(neg_lambda(S, j, j->nl - 1), slide ? DIM_N : DIM_NM);
        return 0;
    }
    diag_error(S->dc, loc, "joint '%s' has no member '%s' (it has %s%s%s%s)", j->name, name,
               j->npos == 3 ? "fx, fy, fz, " : "", j->nori ? "mx, my, mz, " : "",
               slide ? "s, speed, " : turn ? "angle, speed, " : "",
               j->drive >= 0 ? (slide ? "force, reaction" : "torque, reaction") : "reaction");
    return -1;
}
