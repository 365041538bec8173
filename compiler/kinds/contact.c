/*
 * contact.c: the contact element family (`contact NAME between A and B {
 * law = ..., gap0 = ..., area = ..., form = ..., steps = ... }`): its law's
 * force (or pressure times area) at the gap gap0 - s, in the plain form or
 * in seed 001's energy-consistent one (Sect. 2.5, for the midpoint rule).
 * Between a clearance joint's cylinder and disk, kinds/clearance.c places it.
 */
#include <string.h>

#include "sema/core.h"
#include "sema/dims.h"

static const jnt_dim DIM_PA = {{6, -6, -12, 0, 0}};
static const jnt_dim DIM_M2 = {{0, 12, 0, 0, 0}};

static const elem_setting contact_set[] = {{"law", 0}, {"area", 0}, {"gap0", 0}, {"form", 0},
                                          {"steps", 0}, {0, 0}};

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

/* `form = plain | energy_consistent` (el->ec), before the contact's ends are
 * placed (the energy-consistent form has a length of its own). */
static int contact_prepare(sema *S, const scope *sc, elem *el, elem_site *site)
{
    (void)sc;
    const ast *form = sema_elem_setting(site, "form");
    if (!form)
        return 0;
    const ast *fm = form->kids[0];
    el->ec = fm->kind == AST_NAME && !strcmp(fm->name, "energy_consistent");
    if (!el->ec && !(fm->kind == AST_NAME && !strcmp(fm->name, "plain"))) {
        diag_error(sema_dc(S), fm->loc,
                   "'form' is 'plain' (the law at the state) or "
                   "'energy_consistent' (seed 001 Sect. 2.5, for the midpoint "
                   "rule)");
        return -1;
    }
    if (el->ec && (site->a.kind != END_MARKER || site->b.kind != END_MARKER)) {
        diag_error(sema_dc(S), fm->loc,
                   "the energy-consistent form is for contacts between two "
                   "markers (a clearance joint)");
        return -1;
    }
    return 0;
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
    ex_pool *P = sema_pool(S);
    ex_id qi = ex_op2(P, EX_SUB, g0, el->qi), qf = ex_op2(P, EX_SUB, g0, el->qf);
    ex_id a = ex_op2(P, EX_MIN, qi, qf), b = ex_op2(P, EX_MAX, qi, qf);
    ex_id c = ex_op2(P, EX_MAX, ex_op2(P, EX_MIN, ex_const(P, 0), b), a);
    ex_id ends[3] = {a, c, b}, sum = ex_const(P, 0), mid = -1;
    jnt_dim dim = DIM_N;
    int ny = sema_ir(S)->y.n, nd = sema_ir(S)->d.n;
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
        if (sema_ir(S)->y.n != ny || sema_ir(S)->d.n != nd) {
            diag_error(sema_dc(S), law->loc,
                       "the energy-consistent form takes a contact law without "
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

static void contact_force(sema *S, const scope *sc, elem *el, elem_site *site)
{
    const ast *law = sema_elem_setting(site, "law"), *gap0 = sema_elem_setting(site, "gap0");
    const ast *area = sema_elem_setting(site, "area"), *steps = sema_elem_setting(site, "steps");
    ex_pool *P = sema_pool(S);
    if (!law) {
        diag_error(sema_dc(S), el->decl->loc, "contact '%s' needs 'law = ...'", el->name);
        return;
    }
    sval g0 = gap0 ? sema_num_dim(S, sc, gap0->kids[0], DIM_M, "the initial gap")
                   : sval_num(ex_const(P, 0), DIM_M);
    sval A = area ? sema_num_dim(S, sc, area->kids[0], DIM_M2, "the area") : sval_err;
    if (g0.k == V_ERR || (area && A.k == V_ERR))
        return;
    sema_elem_add_qty(el, "gap", sval_num(ex_op2(P, EX_SUB, g0.e, site->s.e), DIM_M));
    sema_elem_add_qty(el, "gapv", sval_num(ex_op1(P, EX_NEG, site->v.e), DIM_MS));
    sval r = el->ec ? ec_force(S, sc, el, law, g0.e) : sema_law_force(S, sc, el, law, LAW_CONTACT);
    if (r.k == V_ERR)
        return;
    sval f = r;
    if (units_equal(r.dim, DIM_PA)) {
        if (!area) {
            diag_error(sema_dc(S), el->decl->loc,
                       "contact '%s' has a pressure law and needs 'area = "
                       "...'",
                       el->name);
            return;
        }
        f = sval_num(ex_op2(P, EX_MUL, r.e, A.e), DIM_N);
    }
    el->force = f;
    sema_elem_add_qty(el, "force", f);
    if (steps)
        sema_step_control(S, el, steps, 1);
}

const sema_kind sema_kind_contact = {
    .name = "contact",
    .elem = ELEM_CONTACT,
    .settings = contact_set,
    .on_line = 1,
    .draw = SEMA_DRAW_GAP,
    .elem_prepare = contact_prepare,
    .elem_force = contact_force,
};
