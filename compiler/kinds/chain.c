/*
 * chain.c: `substructure NAME : iwan_chain(sliders = n, stiffness = k,
 * slip = F) { left = L  right = R }`, the massless series-series Iwan chain of
 * seed 004 Sect. 3, solved quasi-statically by the runtime (runtime/couple/chain.c)
 * after every accepted step. Its slider displacements and dissipated energy
 * are discrete states; its stiffness, slip strength and edge loads are
 * expressions evaluated at run time (they may use parameters, time and
 * states).
 */
#include <string.h>

#include "sema/core.h"
#include "front/alloc.h"

static const jnt_dim DIM_M = {{0, 6, 0, 0, 0}};
static const jnt_dim DIM_N = {{6, 6, -12, 0, 0}};
static const jnt_dim DIM_NM = {{6, 0, -12, 0, 0}};
static const jnt_dim DIM_J = {{6, 12, -12, 0, 0}};

/* The discrete states of a chain, from d0 on: q[1..n], then CHAIN_* of
 * JNT_CHAIN_* of abi.h in this order. */
static const char *const extra_names[] = {"D", "slipping", "load_left", "load_right"};
static const jnt_dim *const extra_dims[] = {&DIM_J, &units_none, &DIM_N, &DIM_N};

/* Find argument `name` (or the positional argument pos) among kids[0..nargs). */
static const ast *find_arg(const ast *d, int nargs, const char *name, int pos)
{
    int p = 0;
    for (int i = 0; i < nargs; i++) {
        const ast *a = d->kids[i];
        if (a->kind == AST_ARG ? !strcmp(a->name, name) : p++ == pos)
            return a->kind == AST_ARG ? a->kids[0] : a;
    }
    return NULL;
}

/* Pass 2: `substructure NAME : iwan_chain(...)`: its states and elements. */
static void sema_declare_chain(sema *S, sym *s)
{
    static const char *const args[] = {"sliders", "stiffness", "slip"};
    const ast *d = s->decl;
    int nargs = 0;
    while (nargs < d->nkids && d->kids[nargs]->kind != AST_SETTING)
        nargs++;
    int err = 0, npos = 0;
    for (int i = 0; i < nargs; i++) {
        const ast *a = d->kids[i];
        if (a->kind != AST_ARG) {
            if (npos++ >= 3) {
                diag_error(sema_dc(S), a->loc, "too many arguments for 'iwan_chain'");
                err = 1;
            }
            continue;
        }
        int known = 0;
        for (int k = 0; k < 3; k++)
            known |= !strcmp(a->name, args[k]);
        if (!known) {
            const char *best = jnt_closest_name(a->name, args, 3);
            diag_error(sema_dc(S), a->loc, "unknown argument '%s' of 'iwan_chain'%s%s%s", a->name,
                       best ? "; did you mean '" : " (it takes sliders, stiffness, slip)",
                       best ? best : "", best ? "'?" : "");
            err = 1;
        }
    }
    const ast *na = find_arg(d, nargs, "sliders", 0);
    long n = 0;
    if (!na) {
        diag_error(sema_dc(S), d->loc, "'iwan_chain' needs 'sliders' (their number)");
        err = 1;
    } else if (sema_int_const(S, sema_consts(S), na, &n) != 0) {
        err = 1;
    } else if (n < 2 || n > 100000) {
        diag_error(sema_dc(S), na->loc, "an iwan_chain has 2 to 100000 sliders, not %ld", n);
        err = 1;
    }
    if (err)
        return;
    ir_model *m = sema_ir(S);
    m->chains = xrealloc(m->chains, (size_t)(m->nchains + 1) * sizeof *m->chains);
    ir_chain *c = &m->chains[m->nchains];
    *c = (ir_chain){xstrdup(d->name), m->d.n, (int)n, xcalloc((size_t)n + 3, sizeof(ex_id))};
    for (long i = 0; i < n; i++) {
        int k = ir_add(&m->d, xasprintf("%s.q[%ld]", d->name, i + 1), -1, ex_const(sema_pool(S), 0),
                       DIM_M, d->loc);
        m->d.v[k].rhs = ex_var(sema_pool(S), EX_D, k); /* the runtime updates it */
    }
    for (int j = 0; j < JNT_CHAIN_NEXTRA; j++) {
        int k = ir_add(&m->d, xasprintf("%s.%s", d->name, extra_names[j]), -1,
                       ex_const(sema_pool(S), 0), *extra_dims[j], d->loc);
        m->d.v[k].rhs = ex_var(sema_pool(S), EX_D, k);
    }
    s->inst = xcalloc(1, sizeof *s->inst);
    s->inst[0] = m->nchains++;
    s->ninst = 1;
}

/* Its stiffness, slip strength and loads (after assembly). */
static void sema_eval_chain(sema *S, const sym *s)
{
    if (s->ninst != 1)
        return;
    const ast *d = s->decl;
    ir_chain *c = &sema_ir(S)->chains[s->inst[0]];
    int nargs = 0;
    while (nargs < d->nkids && d->kids[nargs]->kind != AST_SETTING)
        nargs++;
    const ast *ka = find_arg(d, nargs, "stiffness", 1), *fa = find_arg(d, nargs, "slip", 2);
    const ast *set[2] = {NULL, NULL};
    int err = 0;
    for (int i = nargs; i < d->nkids; i++) {
        const ast *st = d->kids[i];
        int k = !strcmp(st->name, "left") ? 0 : !strcmp(st->name, "right") ? 1 : -1;
        if (k < 0) {
            static const char *const known[] = {"left", "right"};
            const char *best = jnt_closest_name(st->name, known, 2);
            diag_error(sema_dc(S), st->loc, "unknown setting '%s' of an iwan_chain%s%s%s", st->name,
                       best ? "; did you mean '" : " (it has left, right: the edge loads)",
                       best ? best : "", best ? "'?" : "");
            err = 1;
        } else if (set[k]) {
            diag_error(sema_dc(S), st->loc, "'%s' is set twice", st->name);
            err = 1;
        } else {
            set[k] = st->kids[0];
        }
    }
    if (!ka || !fa) {
        diag_error(sema_dc(S), d->loc, "'iwan_chain' needs '%s'", ka ? "slip" : "stiffness");
        return;
    }
    sval k = sema_num_dim(S, sema_global(S), ka, DIM_NM, "the chain's stiffness");
    sval f = sema_num_dim(S, sema_global(S), fa, DIM_N, "the slip strength of a slider");
    sval l = set[0] ? sema_num_dim(S, sema_global(S), set[0], DIM_N, "the left load")
                    : sval_num(ex_const(sema_pool(S), 0), DIM_N);
    sval r = set[1] ? sema_num_dim(S, sema_global(S), set[1], DIM_N, "the right load")
                    : sval_num(ex_const(sema_pool(S), 0), DIM_N);
    if (err || k.k != V_NUM || f.k != V_NUM || l.k != V_NUM || r.k != V_NUM)
        return;
    c->in[0] = k.e;
    c->in[1] = l.e;
    c->in[2] = r.e;
    for (int i = 0; i < c->n; i++)
        c->in[3 + i] = f.e;
}

/* Its stiffness, slip strength and loads (after assembly). */
static int sema_chain_member(sema *S, sval base, const char *name, jnt_loc loc, sval *out)
{
    int ci = base.id;
    const ir_chain *c = &sema_ir(S)->chains[ci];
    int k = -1;
    if (!strcmp(name, "q_left"))
        k = c->d0;
    else if (!strcmp(name, "q_right"))
        k = c->d0 + c->n - 1;
    for (int j = 0; j < 4 && k < 0; j++)
        if (!strcmp(name, extra_names[j]))
            k = c->d0 + c->n + j;
    if (k < 0) {
        static const char *const known[] = {"q_left", "q_right", "D", "slipping", "load_left",
                                            "load_right"};
        const char *best = jnt_closest_name(name, known, 6);
        diag_error(sema_dc(S), loc, "iwan_chain '%s' has no member '%s'%s%s%s", c->name, name,
                   best ? "; did you mean '"
                        : " (it has q_left, q_right, D, slipping, "
                          "load_left, load_right)",
                   best ? best : "", best ? "'?" : "");
        return -1;
    }
    *out = sval_num(ex_var(sema_pool(S), EX_D, k), sema_ir(S)->d.v[k].dim);
    return 0;
}

const sema_kind sema_kind_chain = {
    .name = "iwan_chain",
    .sym = SYM_CHAIN,
    .pass = 1,
    .declare = sema_declare_chain,
    .eval = sema_eval_chain,
    .vk = {V_CHAIN},
    .nvk = 1,
    .member = sema_chain_member,
};
