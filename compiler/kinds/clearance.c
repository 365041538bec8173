/*
 * clearance.c: seed 001's clearance joints between spatial (and planar)
 * markers, a geometry for the element families (kind.h's geom_settings):
 * friction between two markers with `radii` (and `axis`, `slip`, `bristle`)
 * acts on the slip of the races (eqs. 5-6); a contact with `clearance =
 * cylinder(...)` on the gap of the cylinder-disk joint (eqs. 8-13). The
 * spherical joint's gap and its energy-consistent length are sema/gaps.c's
 * (they are lengths between markers).
 */
#include <math.h>
#include <string.h>

#include "sema/core.h"
#include "sema/sema_v3.h"
#include "sema/dims.h"
#include "front/alloc.h"

/* Newton steps on the cylinder clearance's contact angle (eq. 12) */
#define NEWTON_PHI 4

/* The angular velocity of marker m's body: 1/2 sum_i d_i x d_i' (spatial),
 * (0, 0, angle') (planar), 0 for the ground. */
static v3 marker_omega(sema *S, const marker *m)
{
    ex_pool *P = sema_pool(S);
    v3 w = {{C(0), C(0), C(0)}};
    if (m->body < 0)
        return w;
    const body *b = sema_body(S, m->body);
    if (!b->rigid3 && !b->rigid) /* a point: it does not turn */
        return w;
    if (!b->rigid3) { /* rigid2d, flexible2d's frame: x, y, angle; a node's rz */
        w.c[2] = m->rot_on ? ADD(sema_dof(S, b->dof0 + 2)->vel, m->rotv[2])
                           : sema_dof(S, b->dof0 + 2)->vel;
        return w;
    }
    for (int i = 0; i < 3; i++) {
        v3 dv;
        for (int k = 0; k < 3; k++)
            dv.c[k] = sema_dof(S, b->dof0 + 3 + 3 * i + k)->vel;
        w = v_add(P, w, v_cross(P, mb3_director(S, b, i), dv));
    }
    w = v_scale(P, C(0.5), w);
    for (int i = 0; m->rot_on && i < 3; i++) /* plus the node's, R theta' */
        w = v_add(P, w, v_scale(P, m->rotv[i], mb3_director(S, b, i)));
    return w;
}

/* The gap of eqs. 11-13 at z = (x1, x2, ga, gb): x = r_a - r_b on the
 * cylinder's axes p_b, s_b (fixed in b, normal to its axis), and the disk's
 * normal e3l (fixed in a) on them. With d1k(phi) = cos phi p_b + sin phi
 * s_b, qbar(phi) = rho_k - rho_l sqrt(1 - g^2) - d1k . x, g = e3l . d1k; phi
 * from the direction of x across the axis, then NEWTON_PHI Newton steps on
 * qbar'(phi) = 0 (eq. 12), which the tilt makes nonlinear (exact without
 * tilt; the library's minimum to 1e-16 m for tilts up to 0.03 rad,
 * test_cylinder_gap.c; a disk tilted 0.1 rad in 0.8 mm of clearance is
 * wedged, and there the start can miss the minimum). grad (or NULL): dq/dz
 * at the phi found, by the envelope theorem (eq. 14's). */
static ex_id cyl_gap(ex_pool *P, ex_id rho_k, ex_id rho_l, const ex_id z[4], ex_id grad[4])
{
    ex_id x1 = z[0], x2 = z[1], ga = z[2], gb = z[3];
    /* phi0 = atan2(x2, x1), regularised at the axis (where the gap is far
     * from contact and its derivatives vanish with the force) */
    ex_id phi = ex_op2(P, EX_ATAN2, x2, ADD(x1, C(1e-9)));
    for (int it = 0; it < NEWTON_PHI; it++) {
        ex_id c = ex_op1(P, EX_COS, phi), s = ex_op1(P, EX_SIN, phi);
        ex_id g = ADD(MUL(ga, c), MUL(gb, s)), gp = SUB(MUL(gb, c), MUL(ga, s));
        ex_id w = ex_op1(P, EX_SQRT, SUB(C(1), MUL(g, g)));
        ex_id q1 = ADD(ex_op2(P, EX_DIV, MUL(rho_l, MUL(g, gp)), w), SUB(MUL(x1, s), MUL(x2, c)));
        /* qbar'' with g'' = -g */
        ex_id q2 = ADD(MUL(rho_l, ADD(ex_op2(P, EX_DIV, SUB(MUL(gp, gp), MUL(g, g)), w),
                                      ex_op2(P, EX_DIV, MUL(MUL(g, g), MUL(gp, gp)),
                                             MUL(w, MUL(w, w))))),
                       ADD(MUL(x1, c), MUL(x2, s)));
        phi = SUB(phi, ex_op2(P, EX_DIV, q1, ex_op2(P, EX_MAX, q2, C(1e-12))));
    }
    ex_id c = ex_op1(P, EX_COS, phi), s = ex_op1(P, EX_SIN, phi);
    ex_id g = ADD(MUL(ga, c), MUL(gb, s)), w = ex_op1(P, EX_SQRT, SUB(C(1), MUL(g, g)));
    if (grad) {
        ex_id k = ex_op2(P, EX_DIV, MUL(rho_l, g), w);
        grad[0] = ex_op1(P, EX_NEG, c), grad[1] = ex_op1(P, EX_NEG, s);
        grad[2] = MUL(k, c), grad[3] = MUL(k, s);
    }
    return SUB(SUB(rho_k, MUL(rho_l, w)), ADD(MUL(x1, c), MUL(x2, s)));
}

/* The energy-consistent form's virtual displacement of the approach -q: a
 * discrete gradient of q in z (Gonzalez), G = dq/dz(z) + (q_f - q_i - dq/dz
 * . Dz) / |Dz|^2 Dz with Dz = z_f - z_i, so that G . Dz = q_f - q_i exactly;
 * a coordinate's coefficient is -G . dz/dcoordinate (z is at most bilinear
 * in the coordinates: at the midpoint its derivative carries the step's
 * increment exactly). */
typedef struct cyl_ctx {
    const ex_id *z, *g;
} cyl_ctx;

static ex_id cyl_coef(sema *S, ex_kind kind, int index, void *ctx)
{
    ex_pool *P = sema_pool(S);
    const cyl_ctx *c = ctx;
    ex_id cf = -1;
    for (int k = 0; k < 4; k++)
        if (ex_depends(P, c->z[k], kind, index)) {
            ex_id t = MUL(c->g[k], ex_diff(P, c->z[k], kind, index));
            cf = cf < 0 ? t : ADD(cf, t);
        }
    return cf < 0 ? -1 : ex_op1(P, EX_NEG, cf);
}

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
 * dof, or -2 after an error (the axis).
 * Planar markers (rigid2d) too: the plane's z is 0. The contact points are the races' points along n, the
 * unit vector from b's centre to a's: Z_a = r_a + rho_a n, Z_b = r_b + rho_b
 * n, with velocities r' + rho w x n (eq. 5, n held); V^t = (1 - n n^T)(Z_a'
 * - Z_b'). */
static int races_slip(sema *S, int ma, int mb, ex_id rho_a, ex_id rho_b, const ast *axis,
                      int axial, const char *ename, ex_id *v2)
{
    ex_pool *P = sema_pool(S);
    const marker *a = sema_marker(S, ma), *b = sema_marker(S, mb);
    int d3 = a->d3;
    v3 dr = {{SUB(a->px, b->px), SUB(a->py, b->py), d3 ? SUB(a->pz, b->pz) : C(0)}};
    v3 ax = {{C(0), C(0), C(1)}}, p0, s0;
    if (axis) { /* a bearing: n across its axis, the contact points' radial direction */
        if (mb3_axis_triple(S, axis, &ax, &p0, &s0) != 0)
            return -2;
        ax = mb3_fixed_in(S, b, ax);
        dr = v_sub(P, dr, v_scale(P, v_dot(P, ax, dr), ax));
    }
    ex_id len = ex_op1(P, EX_SQRT, ADD(v_dot(P, dr, dr), C(1e-24)));
    v3 n = v_scale(P, ex_op2(P, EX_DIV, C(1), len), dr);
    v3 va = {
        {sema_dof(S, a->dx)->vel, sema_dof(S, a->dy)->vel, d3 ? sema_dof(S, a->dz)->vel : C(0)}};
    v3 vb = {{C(0), C(0), C(0)}};
    if (b->dx >= 0)
        vb = (v3){{sema_dof(S, b->dx)->vel, sema_dof(S, b->dy)->vel,
                   d3 ? sema_dof(S, b->dz)->vel : C(0)}};
    v3 vr = v_add(P, v_sub(P, va, vb),
                  v_sub(P, v_scale(P, rho_a, v_cross(P, marker_omega(S, a), n)),
                        v_scale(P, rho_b, v_cross(P, marker_omega(S, b), n))));
    ex_id speed;
    if (!d3 || axis) { /* along the unit tangent a x n, or the axis itself */
        speed = v_dot(P, axial ? ax : v_cross(P, ax, n), vr);
        if (v2)
            *v2 = v_dot(P, axial ? v_cross(P, ax, n) : ax, vr);
    } else {
        v3 vt = v_sub(P, vr, v_scale(P, v_dot(P, n, vr), n));
        const double veps = 1e-6; /* m/s */
        speed = SUB(ex_op1(P, EX_SQRT, ADD(v_dot(P, vt, vt), C(veps * veps))), C(veps));
    }
    dof f = {.name = xasprintf("%s.slip", ename), .short_name = "slip", .body = -1, .y = -1,
             .sub = -1, .g = -1, .point = 1, .force = C(0), .acc = -1, .motion = -1,
             .pos = C(0), .vel = speed};
    sema_mb_lin(S, &f, speed, 1, NULL, NULL);
    return sema_mb_push_dof(S, &f);
}

/* Seed 001's spatial clearance joint (eqs. 8-13): the gap q between a
 * cylinder of radius rho_k around the axis through marker mb (fixed in its
 * body; `axis` in the world frame at t = 0, z when NULL) and a thin disk of
 * radius rho_l centred at marker ma, normal to the same axis at t = 0 (fixed
 * in its body), as a dof whose position is -q (a contact with gap0 = 0 acts
 * on the gap q). With ai, af (the energy-consistent form, for the midpoint
 * rule): -q at the step's start and end into *ai, *af, the position their
 * mean and the virtual displacement a discrete gradient, so that a force F
 * on it does the work F (*af - *ai) over a step. -1 after an error.
 * The gap's derivatives are those of cyl_gap's expression:
 * the envelope theorem makes them eq. 14's at the optimum. */
static int cylinder_gap(sema *S, int ma, int mb, ex_id rho_k, ex_id rho_l, const ast *axis,
                        const char *ename, ex_id *ai, ex_id *af)
{
    ex_pool *P = sema_pool(S);
    const marker *a = sema_marker(S, ma), *b = sema_marker(S, mb);
    v3 a0, p0, s0;
    if (mb3_axis_triple(S, axis, &a0, &p0, &s0) != 0)
        return -1;
    v3 pb = mb3_fixed_in(S, b, p0), sb = mb3_fixed_in(S, b, s0), e3l = mb3_fixed_in(S, a, a0);
    v3 x = v_sub(P, mb3_mpos(a), mb3_mpos(b));
    ex_id z[4] = {v_dot(P, pb, x), v_dot(P, sb, x), v_dot(P, pb, e3l), v_dot(P, sb, e3l)};
    /* the contact acts on -q: gap = gap0 - s with gap0 = 0 */
    dof f = {.name = xasprintf("%s.approach", ename), .short_name = "approach", .body = -1,
             .y = -1, .sub = -1, .g = -1, .point = 1, .force = C(0), .acc = -1, .motion = -1,
             .vel = C(0)};
    if (!ai) {
        /* the coefficients -dq/dz . dz/dcoordinate with eq. 14's dq/dz (the
         * envelope theorem at the phi found: the derivative of the Newton
         * steps' expression differs by qbar'(phi) dphi/dz, qbar' the last
         * step's residual), so that the law is differentiated against z, not
         * again for every coordinate */
        ex_id g[4];
        f.pos = ex_op1(P, EX_NEG, cyl_gap(P, rho_k, rho_l, z, g));
        cyl_ctx c = {z, g};
        sema_mb_lin(S, &f, f.pos, 0, cyl_coef, &c);
        return sema_mb_push_dof(S, &f);
    }
    /* energy-consistent: z at the last step end in discrete states (at first
     * the initial z, or unset when a flexible body's node makes it unknown
     * at compile time: the first step then takes z for both ends), z_f = 2 z
     * - z_i (z is evaluated at the midpoint) */
    ex_id zi[4], zf[4], dz[4], g[4], fresh = -1;
    static const char *const zn[4] = {"x1", "x2", "ga", "gb"};
    for (int k = 0; k < 4; k++) {
        int d = ir_add(&sema_ir(S)->d, xasprintf("%s.%s", ename, zn[k]), -1, C(k ? 0 : -1e30),
                       k < 2 ? DIM_M : units_none, loc_none);
        sema_defer_init(S, d, z[k]);
        sema_ir(S)->d.v[d].rhs = z[k];
        ex_id dv = ex_var(P, EX_D, d);
        if (k == 0)
            fresh = ex_op2(P, EX_LT, dv, C(-1e29));
        zi[k] = ex_if(P, fresh, z[k], dv);
        zf[k] = ex_if(P, fresh, z[k], SUB(MUL(C(2), z[k]), dv));
        dz[k] = SUB(zf[k], zi[k]);
    }
    ex_id qi = cyl_gap(P, rho_k, rho_l, zi, NULL), qf = cyl_gap(P, rho_k, rho_l, zf, NULL);
    cyl_gap(P, rho_k, rho_l, z, g);
    ex_id gdz = C(0), dz2 = C(0);
    for (int k = 0; k < 4; k++)
        gdz = ADD(gdz, MUL(g[k], dz[k])), dz2 = ADD(dz2, MUL(dz[k], dz[k]));
    ex_id corr = ex_op2(P, EX_DIV, SUB(SUB(qf, qi), gdz), ex_op2(P, EX_MAX, dz2, C(1e-300)));
    ex_id G[4];
    for (int k = 0; k < 4; k++)
        G[k] = ADD(g[k], MUL(corr, dz[k]));
    *ai = ex_op1(P, EX_NEG, qi);
    *af = ex_op1(P, EX_NEG, qf);
    f.pos = MUL(C(0.5), ADD(*ai, *af));
    cyl_ctx c = {z, G};
    sema_mb_lin(S, &f, f.pos, 0, cyl_coef, &c);
    return sema_mb_push_dof(S, &f);
}

/* A friction's races (`radii = (rho_a, rho_b)`, `axis`, `slip`, `bristle`): the dof
 * of races_slip, or -2 after an error. */
static int place_races(sema *S, const scope *sc, elem *el, elem_site *site)
{
    const ast *radii = sema_elem_setting(site, "radii"), *axis = sema_elem_setting(site, "axis");
    const ast *slip = sema_elem_setting(site, "slip"), *bristle = sema_elem_setting(site, "bristle");
    const ast *radius = sema_elem_setting(site, "radius");
    sema_end ea = site->a, eb = site->b;
    if (ea.kind != END_MARKER || eb.kind != END_MARKER) {
        const ast *bad = radii ? radii : axis ? axis : slip ? slip : bristle;
        diag_error(sema_dc(S), bad->loc,
                   "'radii', 'axis', 'slip' and 'bristle' are for friction "
                   "between two markers, the centres of a clearance joint's "
                   "races");
        return -2;
    }
    if (!radii) {
        diag_error(sema_dc(S),
                   (axis   ? axis
                    : slip ? slip
                           : bristle)
                       ->loc,
                   "'%s' is for friction "
                   "between the races of a clearance joint, with 'radii'",
                   axis   ? "axis"
                   : slip ? "slip"
                          : "bristle");
        return -2;
    }
    if (radius) {
        diag_error(sema_dc(S), radius->loc, "'radius' is for elements on revolute joints");
        return -2;
    }
    ex_id r[2];
    if (sema_marker(S, ea.id)->d3 != sema_marker(S, eb.id)->d3) {
        diag_error(sema_dc(S), radii->loc,
                   "'radii' is for friction between two markers (both "
                   "planar or both spatial), the centres of a clearance "
                   "joint's races");
        return -2;
    }
    if (sema_mb_pair(S, sc, radii->kids[0], DIM_M, "'radii' (the first marker's race, the "
                     "second's)", r) != 0)
        return -2;
    if (axis && !sema_marker(S, ea.id)->d3) {
        diag_error(sema_dc(S), axis->loc, "planar races slip about z: 'axis' is for spatial ones");
        return -2;
    }
    int axial = 0, plane = 0;
    if (bristle) {
        const ast *k = bristle->kids[0];
        plane = k->kind == AST_NAME && !strcmp(k->name, "plane");
        if (!axis || (!plane && !(k->kind == AST_NAME && !strcmp(k->name, "line")))) {
            diag_error(sema_dc(S), bristle->loc,
                       axis ? "'bristle' is 'line' (along this element's "
                              "slip, the default) or 'plane' (the two "
                              "tangents at once, with the element along "
                              "the other)"
                            : "'bristle = plane' takes the races' two "
                              "tangents about their 'axis': give the axis");
            return -2;
        }
    }
    if (slip) {
        const ast *k = slip->kids[0];
        axial = k->kind == AST_NAME && !strcmp(k->name, "axial");
        if (!axis || (!axial && !(k->kind == AST_NAME && !strcmp(k->name, "circumferential")))) {
            diag_error(sema_dc(S), slip->loc,
                       axis ? "'slip' is 'circumferential' (about the axis, "
                              "the default) or 'axial' (along it)"
                            : "'slip' picks a tangent of the races about "
                              "their 'axis': give the axis");
            return -2;
        }
    }
    el->races = 1, el->race_rho[0] = r[0], el->race_rho[1] = r[1];
    el->race_axis = axis ? axis->kids[0] : NULL;
    return races_slip(S, ea.id, eb.id, r[0], r[1], el->race_axis, axial, el->name,
                      plane ? &site->v2 : NULL);
}

/* A contact's `clearance = cylinder(rho_k, rho_l, axis)` between spatial markers
 * A (the disk's centre) and B (the cylinder's): the dof of cylinder_gap, or -2
 * after an error. */
static int place_cylinder(sema *S, const scope *sc, elem *el, elem_site *site)
{
    const ast *st = sema_elem_setting(site, "clearance"), *gap0 = sema_elem_setting(site, "gap0");
    const ast *call = st->kids[0], *axis = NULL;
    sema_end ea = site->a, eb = site->b;
    if (call->kind != AST_CALL || strcmp(call->name, "cylinder") != 0) {
        diag_error(sema_dc(S), st->loc,
                   "'clearance' is cylinder(rho_k = ..., rho_l = ..., axis = "
                   "(x, y, z)): seed 001's spatial clearance joint");
        return -2;
    }
    if (ea.kind != END_MARKER || eb.kind != END_MARKER || !sema_marker(S, ea.id)->d3 ||
        !sema_marker(S, eb.id)->d3) {
        diag_error(sema_dc(S), st->loc,
                   "a cylinder clearance is between two spatial markers: the "
                   "disk's centre and the cylinder's");
        return -2;
    }
    if (gap0) {
        diag_error(sema_dc(S), gap0->loc,
                   "a cylinder clearance's gap comes from its radii: no "
                   "'gap0'");
        return -2;
    }
    ex_id rho[2] = {-1, -1};
    for (int i = 0; i < call->nkids; i++) {
        const ast *a = call->kids[i];
        int k = a->kind != AST_ARG ? -1 : !strcmp(a->name, "rho_k") ? 0
              : !strcmp(a->name, "rho_l") ? 1 : !strcmp(a->name, "axis") ? 2 : -1;
        if (k < 0) {
            diag_error(sema_dc(S), a->loc, "cylinder takes rho_k, rho_l and axis, by name");
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
        diag_error(sema_dc(S), call->loc,
                   "cylinder needs rho_k (the cylinder's radius) and rho_l "
                   "(the disk's)");
        return -2;
    }
    el->races = 2, el->race_rho[0] = rho[1], el->race_rho[1] = rho[0]; /* the disk's, the cylinder's */
    el->race_axis = axis;
    int d = cylinder_gap(S, ea.id, eb.id, rho[0], rho[1], axis, el->name, el->ec ? &el->qi : NULL,
                         el->ec ? &el->qf : NULL);
    return d < 0 ? -2 : d;
}

/* The dof a friction on races or a contact in a cylinder acts on. */
static int clearance_place(sema *S, const scope *sc, elem *el, elem_site *site)
{
    return el->kind == ELEM_CONTACT ? place_cylinder(S, sc, el, site)
                                    : place_races(S, sc, el, site);
}

static const elem_setting clearance_set[] = {
    {"radii", ELEM_FRICTION}, {"axis", ELEM_FRICTION}, {"slip", ELEM_FRICTION},
    {"bristle", ELEM_FRICTION}, {"clearance", ELEM_CONTACT}, {0, 0},
};

const sema_kind sema_kind_clearance = {
    .name = "clearance",
    .geom_settings = clearance_set,
    .elem_place = clearance_place,
};
