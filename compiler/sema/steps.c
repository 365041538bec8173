/*
 * steps.c: seed 001's step control (eqs. 19-20 for contact, eq. 33 for
 * friction) as discrete states of the elements that ask for it and the
 * model's least proposal (JNT_STEP_STATE, jnt/abi.h), and the discrete
 * states that start at an expression of the initial state (the
 * energy-consistent contact's u_i, the rules' gap).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_S = {{0, 0, 6, 0, 0}};
static const jnt_dim DIM_PS = {{0, 0, -6, 0, 0}};

static const arg_spec contact_steps_args[] = {
    {"eps_p", &DIM_M, NAN, NULL, 0}, {"qbar_min", &units_none, 5, NULL, 0},
    {"alpha", &units_none, 1.2, NULL, 0},
};
static const arg_spec friction_steps_args[] = {
    {"dtau_min", &units_none, 0.02, NULL, 0}, {"vhat_min", &units_none, 5, NULL, 0},
    {"alpha", &units_none, 1.2, NULL, 0}, {"omega", &DIM_PS, 0, NULL, 0},
};

/* The element's quantity `name` (a law parameter), or -1. */
static ex_id qty_expr(const elem *el, const char *name)
{
    for (int i = el->nq - 1; i >= 0; i--)
        if (strcmp(el->q[i].name, name) == 0 && el->q[i].val.k == V_NUM)
            return el->q[i].val.e;
    return -1;
}

/* See passes.h. */
ex_id sema_at_init(sema *S, ex_id e)
{
    ex_pool *P = S->pool;
    if (ex_depends(P, e, EX_UP, -1) || ex_depends(P, e, EX_UV, -1) || ex_depends(P, e, EX_D, -1))
        return -1;
    ex_id *repl = xmalloc(((size_t)S->m->y.n + 1) * sizeof *repl);
    for (int i = 0; i < S->m->y.n; i++)
        repl[i] = S->m->y.v[i].init;
    ex_id r = ex_subst(P, e, EX_Y, repl);
    free(repl);
    return r;
}

/* See core.h. */
void sema_defer_init(sema *S, int d, ex_id e)
{
    XGROW(S->dinit_d, S->capdinit, S->ndinit);
    S->dinit_e = xrealloc(S->dinit_e, (size_t)S->capdinit * sizeof *S->dinit_e);
    S->dinit_d[S->ndinit] = d;
    S->dinit_e[S->ndinit++] = e;
}

/* See passes.h. */
void sema_init_finish(sema *S)
{
    for (int i = 0; i < S->ndinit; i++) {
        ex_id v = sema_at_init(S, S->dinit_e[i]);
        if (v >= 0)
            S->m->d.v[S->dinit_d[i]].init = v;
    }
}

/* A discrete state of element el for step control, updated to upd and
 * starting at init (-1: the run's start time, set by sema_steps_finish). */
static ex_id step_state(sema *S, elem *el, const char *what, jnt_dim dim, ex_id upd, ex_id init)
{
    int d = ir_add(&S->m->d, xasprintf("%s.%s", el->name, what), -1, ex_const(S->pool, 0), dim,
                   el->decl->loc);
    S->m->d.v[d].rhs = upd;
    if (init >= 0) {
        sema_defer_init(S, d, init);
    } else {
        XGROW(S->step_t, S->capstep_t, S->nstep_t);
        S->step_t[S->nstep_t++] = d;
    }
    return ex_var(S->pool, EX_D, d);
}

/* `steps = contact_steps(eps_p, qbar_min, alpha)` on a contact, or
 * `steps = friction_steps(dtau_min, vhat_min, alpha, omega)` on a friction
 * element: the step the element proposes after each step, the member
 * `step`; the model's next step is the least proposal (sema_steps_finish).
 * Contact (eqs. 19-20): with q1 the gap at this step end, q0 at the one
 * before, Dt1 and Dt0 the last two steps,
 *   kappa = (q1 / eps_p) / qbar_min,  Dq = eps_p (kappa <= 1 ? 1 : kappa^alpha),
 *   Dt = Dq / |v_m|,  v_m = 2 (q1 - q0) / (Dt0 + Dt1)
 * (q1 with its sign: in contact kappa < 0 and Dq = eps_p). Friction (eq.
 * 33): nu = (|v| / v_s) / vhat_min, Omega Dt = dtau_min (nu <= 1 ? 1 :
 * nu^alpha), Omega = sigma0 v_s / mu_k of the element's LuGre law unless
 * given; none while the element's normal force is zero (out of contact).
 * Before the run has two step ends its start stands for the missing
 * one (q0 the initial gap, t0 = t1 = the start: v_m twice the first step's
 * mean rate), and the first step is the rule's at the initial state with
 * v_m the initial gap rate (parameters only when the element's gap is). */
void sema_step_control(sema *S, elem *el, const ast *st, int contact)
{
    ex_pool *P = S->pool;
    const ast *call = st->kids[0];
    const char *want = contact ? "contact_steps" : "friction_steps";
    if (call->kind != AST_CALL || strcmp(call->name, want) != 0) {
        diag_error(S->dc, st->loc, "'steps' of a %s is %s", contact ? "contact" : "friction",
                   contact ? "contact_steps(eps_p = 3 um, qbar_min = 5, alpha = 1.2)"
                           : "friction_steps(dtau_min = 0.02, vhat_min = 5, alpha = 1.2)");
        return;
    }
    double v[4];
    if (sema_bind_args(S, call, 0, call->nkids, contact ? contact_steps_args : friction_steps_args,
                       contact ? 3 : 4, want, v, NULL) != 0)
        return;
    ex_set_loc(P, st->loc);
    ex_id t = ex_var(P, EX_T, 0), big = ex_const(P, 1e30), prop, prop0;
    if (contact) {
        ex_id q = qty_expr(el, "gap");
        if (!(v[0] > 0) || q < 0) {
            diag_error(S->dc, call->loc, "contact_steps needs eps_p > 0 (a characteristic "
                                         "penetration, seed 001 eq. 19)");
            return;
        }
        ex_id gv = qty_expr(el, "gapv");
        ex_id t1 = step_state(S, el, "steps_t1", DIM_S, t, -1);
        ex_id t0 = step_state(S, el, "steps_t0", DIM_S, t1, -1);
        ex_id q0 = step_state(S, el, "steps_q", DIM_M, q, q);
        ex_id vm = ex_op2(P, EX_DIV, ex_op2(P, EX_MUL, ex_const(P, 2), ex_op2(P, EX_SUB, q, q0)),
                          ex_op2(P, EX_MAX, ex_op2(P, EX_SUB, t, t0), ex_const(P, 1e-300)));
        ex_id dq = ex_op2(P, EX_MUL, ex_const(P, v[0]),
                          ex_op2(P, EX_MAX, ex_const(P, 1),
                                 ex_op2(P, EX_POW, ex_op2(P, EX_MAX, ex_op2(P, EX_DIV, q, ex_const(P, v[0] * v[1])),
                                                          ex_const(P, 1)), ex_const(P, v[2]))));
        prop = ex_op2(P, EX_DIV, dq, ex_op2(P, EX_MAX, ex_op1(P, EX_ABS, vm),
                                          ex_op2(P, EX_DIV, dq, big)));
        prop0 = gv >= 0 ? ex_op2(P, EX_DIV, dq, ex_op2(P, EX_MAX, ex_op1(P, EX_ABS, gv),
                                                     ex_op2(P, EX_DIV, dq, big)))
                        : big;
    } else {
        ex_id vv = qty_expr(el, "v"), om = ex_const(P, v[3]);
        ex_id s0 = qty_expr(el, "sigma0"), vs = qty_expr(el, "v_s"), mk = qty_expr(el, "mu_k");
        if (!(v[3] > 0)) {
            if (s0 < 0 || vs < 0 || mk < 0) {
                diag_error(S->dc, call->loc, "friction_steps needs 'omega' (1/s), the inverse "
                                             "time constant, unless the law has sigma0, v_s and "
                                             "mu_k (LuGre: omega = sigma0 v_s / mu_k)");
                return;
            }
            om = ex_op2(P, EX_DIV, ex_op2(P, EX_MUL, s0, vs), mk);
        }
        if (vs < 0) {
            diag_error(S->dc, call->loc, "friction_steps needs a law with the Stribeck velocity "
                                         "v_s (nu = (|v| / v_s) / vhat_min, seed 001 eq. 33)");
            return;
        }
        ex_id nu = ex_op2(P, EX_DIV, ex_op1(P, EX_ABS, vv), ex_op2(P, EX_MUL, vs, ex_const(P, v[1])));
        ex_id f = ex_if(P, ex_op2(P, EX_LE, nu, ex_const(P, 1)), ex_const(P, 1),
                        ex_op2(P, EX_POW, nu, ex_const(P, v[2])));
        prop = ex_op2(P, EX_DIV, ex_op2(P, EX_MUL, ex_const(P, v[0]), f), om);
        ex_id N = qty_expr(el, "N"); /* out of contact friction sets no step */
        if (N >= 0)
            prop = ex_if(P, ex_op2(P, EX_GT, N, ex_const(P, 0)), prop, big);
        prop0 = prop;
    }
    sema_elem_add_qty(el, "step", sval_num(prop, DIM_S));
    if (S->nsteps == 0)
        S->steps_loc = st->loc;
    XGROW(S->steps, S->capsteps, S->nsteps);
    S->steps0 = xrealloc(S->steps0, (size_t)S->capsteps * sizeof *S->steps0);
    S->steps0[S->nsteps] = prop0; /* evaluated at the initial state by sema_steps_finish */
    S->steps[S->nsteps++] = prop;
}

/* See passes.h. */
void sema_steps_finish(sema *S)
{
    if (!S->nsteps)
        return;
    if (!S->multibody) {
        diag_error(S->dc, S->steps_loc, "step control ('steps' of a contact or a friction) is "
                                         "for multibody models (their integrators midpoint, "
                                         "hht, generalized_alpha)");
        return;
    }
    if (S->m->integrator &&
        (!strcmp(S->m->integrator, "radau5") || !strcmp(S->m->integrator, "ida"))) {
        diag_error(S->dc, S->steps_loc, "step control is taken by the integrators midpoint, hht "
                                        "and generalized_alpha, not by %s (whose steps follow "
                                        "its error estimate)", S->m->integrator);
        return;
    }
    ex_pool *P = S->pool;
    ex_id h = ex_const(P, 1e30), h0 = h;
    for (int i = 0; i < S->nsteps; i++) {
        h = ex_op2(P, EX_MIN, h, S->steps[i]);
        ex_id p0 = sema_at_init(S, S->steps0[i]);
        h0 = ex_op2(P, EX_MIN, h0, p0 >= 0 ? p0 : ex_const(P, 1e30));
    }
    int d = ir_add(&S->m->d, xstrdup(JNT_STEP_STATE), -1, h0, DIM_S, loc_none);
    S->m->d.v[d].rhs = h;
    for (int i = 0; i < S->nstep_t; i++) /* the time states start at the run's start */
        S->m->d.v[S->step_t[i]].init = S->m->t0;
}
