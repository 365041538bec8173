/*
 * chain.c: massless series-series Iwan chains (seed 004 Sect. 3), solved
 * quasi-statically at every accepted step by a complementarity iteration:
 * assume each slider sticks, slips right or slips left; solve the chain's
 * equilibrium under that assumption; compare the solution's slider states
 * with the assumption; repeat with the solution's states until both agree;
 * if they never do, split the load increment in two (the paper halves the
 * time step).
 */
#include <math.h>
#include <string.h>

#include "chain.h"

enum { STICK = 0, RIGHT = 1, LEFT = -1 };

/* Relative tolerance of the stick and direction tests. */
#define CHAIN_TOL 1e-12
#define CHAIN_MAX_HALVINGS 20

/* (K q)_i for K = (k/2) tridiag(-1, [1 2 ... 2 1], -1). */
static double kq(int n, double k, const double *q, int i)
{
    double s = 0;
    if (i > 0)
        s += q[i] - q[i - 1];
    if (i < n - 1)
        s += q[i] - q[i + 1];
    return 0.5 * k * s;
}

/* Solve the chain with the states st: stuck sliders keep q0, slipping ones
 * carry f = -st fs. Rows of stuck sliders are identities, so the system stays
 * tridiagonal (Thomas algorithm). Returns 0, or 1 on a zero pivot. */
static int solve_assumed(int n, double k, const double *fs, double l, double r,
                         const double *st, const double *q0, double *q, double *cp)
{
    double prev_c = 0, prev_d = 0;
    for (int i = 0; i < n; i++) {
        double a = 0, b, c = 0, rhs;
        if (st[i] == STICK) {
            b = 1;
            rhs = q0[i];
        } else {
            double h = 0.5 * k;
            b = h * ((i > 0) + (i < n - 1));
            a = i > 0 ? -h : 0;
            c = i < n - 1 ? -h : 0;
            rhs = (i == 0 ? l : 0) + (i == n - 1 ? r : 0) - st[i] * fs[i];
        }
        double den = b - a * prev_c;
        if (fabs(den) <= 1e-300 || !isfinite(den))
            return 1;
        cp[i] = c / den;
        q[i] = (rhs - a * prev_d) / den;
        prev_c = cp[i];
        prev_d = q[i];
    }
    for (int i = n - 2; i >= 0; i--)
        q[i] -= cp[i] * q[i + 1];
    return 0;
}

/* One load increment without splitting: 0 when an assumption array was
 * consistent with its solution, 1 otherwise. st holds the starting guess. */
static int increment(int n, double k, const double *fs, double l, double r, double *q,
                     double *D, int *nslip, double *st, double *w, jnt_stats *cs)
{
    double *qn = w, *cp = w + n, *sn = w + 2 * n;
    double scale = 0; /* a displacement scale for the direction test */
    for (int i = 0; i < n; i++)
        scale = fmax(scale, fs[i] / k);
    for (int it = 0; it < 4 * n + 8; it++) {
        cs->chain_iters++;
        if (solve_assumed(n, k, fs, l, r, st, q, qn, cp) != 0)
            return 1;
        int same = 1;
        for (int i = 0; i < n; i++) {
            double f = kq(n, k, qn, i) - (i == 0 ? l : 0) - (i == n - 1 ? r : 0);
            double dq = qn[i] - q[i], tol = CHAIN_TOL * fs[i];
            if (st[i] == STICK)
                sn[i] = f < -fs[i] - tol ? RIGHT : f > fs[i] + tol ? LEFT : STICK;
            else /* a slider slipping backwards sticks instead */
                sn[i] = st[i] * dq < -CHAIN_TOL * scale ? STICK : st[i];
            same &= sn[i] == st[i];
        }
        if (same) {
            int ns = 0;
            for (int i = 0; i < n; i++) {
                if (st[i] != STICK) {
                    *D += fs[i] * fabs(qn[i] - q[i]);
                    ns++;
                }
                q[i] = qn[i];
            }
            *nslip = ns;
            return 0;
        }
        memcpy(st, sn, (size_t)n * sizeof *st);
    }
    return 1;
}

/* The increment from (l0, r0) to (l1, r1), split in halves where the
 * iteration does not settle. */
static int advance(int n, double k, const double *fs, double l0, double r0, double l1, double r1,
                   double *q, double *D, int *nslip, double *state, double *w, jnt_stats *cs,
                   int depth)
{
    double *st = w + 3 * n, *save = w + 4 * n;
    /* first guess: where a trial step with everything stuck exceeds the
     * limit, slip; elsewhere, what the slider did in the last increment (a
     * slip zone keeps slipping while the load keeps its direction) */
    for (int i = 0; i < n; i++) {
        double f = kq(n, k, q, i) - (i == 0 ? l1 : 0) - (i == n - 1 ? r1 : 0);
        st[i] = f < -fs[i] ? RIGHT : f > fs[i] ? LEFT : state[i];
    }
    memcpy(save, q, (size_t)n * sizeof *save);
    double d0 = *D;
    if (increment(n, k, fs, l1, r1, q, D, nslip, st, w, cs) == 0) {
        memcpy(state, st, (size_t)n * sizeof *state);
        return 0;
    }
    memcpy(q, save, (size_t)n * sizeof *q);
    *D = d0;
    if (depth >= CHAIN_MAX_HALVINGS)
        return 1;
    cs->chain_halvings++;
    double lm = 0.5 * (l0 + l1), rm = 0.5 * (r0 + r1);
    if (advance(n, k, fs, l0, r0, lm, rm, q, D, nslip, state, w, cs, depth + 1) != 0)
        return 1;
    return advance(n, k, fs, lm, rm, l1, r1, q, D, nslip, state, w, cs, depth + 1);
}

/* See chain.h. */
int chain_solve(int n, double k, const double *fs, double l0, double r0, double l1, double r1,
                double *q, double *D, int *nslip, double *state, double *work, jnt_stats *st,
                const char **why)
{
    jnt_stats dummy;
    if (!st)
        st = memset(&dummy, 0, sizeof dummy);
    /* the sliders together hold at most sum fs against the net load L + R */
    double cap = 0;
    for (int i = 0; i < n; i++)
        cap += fs[i];
    if (fabs(l1 + r1) >= cap * (1 - 1e-12)) {
        *why = "macroslip: the net load on the chain reaches the sum of its slip strengths";
        return 1;
    }
    *nslip = 0;
    if (l0 == l1 && r0 == r1)
        return 0;
    if (advance(n, k, fs, l0, r0, l1, r1, q, D, nslip, state, work, st, 0) != 0) {
        *why = "the complementarity iteration did not settle, even after 20 halvings of the "
               "load increment";
        return 1;
    }
    return 0;
}

/* See chain.h. */
size_t chain_work_size(const jnt_abi_model *a)
{
    size_t nin = 0, nmax = 0;
    for (int c = 0; c < a->nchains; c++) {
        nin += 2 * (size_t)a->chains[c].n + 3;
        if ((size_t)a->chains[c].n > nmax)
            nmax = (size_t)a->chains[c].n;
    }
    return a->nchains ? nin + 5 * nmax : 0;
}

/* See chain.h. */
int chain_update(const jnt_abi_model *a, double t, const double *y, const double *u, double *d,
                 const double *p,
                 int reset, double *work, jnt_stats *st, const char **why)
{
    /* work: the inputs, the slip states of every chain, the solver's scratch */
    double *in = work;
    if (a->chain_in(t, y, u, d, p, in) != 0) {
        *why = "the chain input kernel failed";
        return 1;
    }
    size_t nin = 0, nst = 0;
    for (int c = 0; c < a->nchains; c++) {
        nin += (size_t)a->chains[c].n + 3;
        nst += (size_t)a->chains[c].n;
    }
    double *state = work + nin, *w = state + nst;
    if (reset)
        memset(state, 0, nst * sizeof *state);
    for (int c = 0; c < a->nchains; c++) {
        const jnt_abi_chain *ch = &a->chains[c];
        const double *v = in + ch->in0; /* k, L, R, fs_1 .. fs_n */
        double *q = d + ch->d0, *x = q + ch->n;
        int nslip = (int)x[CHAIN_NSLIP];
        for (int i = 0; i < 3 + ch->n; i++)
            if (!isfinite(v[i])) {
                *why = "a stiffness, slip strength or load of the chain is not finite";
                return c + 1;
            }
        if (chain_solve(ch->n, v[0], v + 3, x[CHAIN_LOAD_L], x[CHAIN_LOAD_R], v[1], v[2], q,
                        &x[CHAIN_D], &nslip, state, w, st, why) != 0)
            return c + 1;
        state += ch->n;
        x[CHAIN_NSLIP] = nslip;
        x[CHAIN_LOAD_L] = v[1];
        x[CHAIN_LOAD_R] = v[2];
    }
    return 0;
}
