/*
 * test_expr.c: the expression engine (compiler/lower/expr.c, diff.c, gen_expr.c).
 *
 * Hash-consing, simplification and folding are checked node by node; ex_eval
 * against direct libm calls (exact); ex_diff against central finite
 * differences (reference: (f(x+h) - f(x-h)) / 2h with h = 1e-5 max(1,|x|),
 * truncation error O(h^2), so a relative tolerance of 1e-6); the emitted C
 * is compiled with gcc -std=c11 -Wall -Wextra -Werror and with tcc -run, and
 * its printed values must match ex_eval to 1e-14 relative.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "lower/expr.h"

/* ---- shorthands over one pool ---------------------------------------------- */

static ex_pool *P;

static ex_id K(double v) { return ex_const(P, v); }
static ex_id Y(int i) { return ex_var(P, EX_Y, i); }
static ex_id D(int i) { return ex_var(P, EX_D, i); }
static ex_id Pa(int i) { return ex_var(P, EX_P, i); }
static ex_id T(void) { return ex_var(P, EX_T, 0); }
static ex_id add(ex_id a, ex_id b) { return ex_op2(P, EX_ADD, a, b); }
static ex_id sub(ex_id a, ex_id b) { return ex_op2(P, EX_SUB, a, b); }
static ex_id mul(ex_id a, ex_id b) { return ex_op2(P, EX_MUL, a, b); }
static ex_id dvd(ex_id a, ex_id b) { return ex_op2(P, EX_DIV, a, b); }
static ex_id pw(ex_id a, ex_id b) { return ex_op2(P, EX_POW, a, b); }
static ex_id neg(ex_id a) { return ex_op1(P, EX_NEG, a); }
static ex_id f1(ex_kind k, ex_id a) { return ex_op1(P, k, a); }
static ex_id f2(ex_kind k, ex_id a, ex_id b) { return ex_op2(P, k, a, b); }
static ex_id iff(ex_id c, ex_id a, ex_id b) { return ex_if(P, c, a, b); }

static int is_k(ex_id e, double want)
{
    double v;
    return ex_is_const(P, e, &v) && v == want && signbit(v) == signbit(want);
}

static ex_kind kind_of(ex_id e) { return ex_get(P, e)->kind; }

/* ---- evaluation points ------------------------------------------------------ */

#define NPT 6
#define NY 4
#define NPAR 5
static const double PT_T[NPT] = {0.25, 1.5, -0.75, 3.0, 0.1, 2.2};
/* y0 in (-1,1) (asin), y2 > 0 (log), y1 != y0, y2 not an integer; y3 is the
 * FrDyn2 velocity, through every regime (v_s = 0.1, v_d = 0.3) */
static const double PT_Y[NPT][NY] = {
    {0.7, -0.4, 1.3, 0.03},  {-0.3, 0.6, 0.4, -0.05}, {0.2, 1.1, 2.5, 0.15},
    {0.55, -1.5, 0.9, -0.2}, {-0.8, 0.35, 3.1, 0.9},  {0.1, 2.0, 1.7, -1.2},
};
static const double PT_D[NPT][1] = {{0.5}, {-1.0}, {2.0}, {0.0}, {0.25}, {-3.0}};
/* N, mu_s, mu_d, v_s, v_d (FrDyn2) */
static const double PT_P[NPAR] = {10.0, 0.5, 0.3, 0.1, 0.3};

static double eval_pt(ex_id e, int k)
{
    return ex_eval(P, e, PT_T[k], PT_Y[k], PT_D[k], PT_P);
}

/* e at point k with variable (kind, idx) moved by delta. */
static double eval_moved(ex_id e, int k, ex_kind kind, int idx, double delta)
{
    double t = PT_T[k], y[NY], d[1] = {PT_D[k][0]}, par[NPAR];
    memcpy(y, PT_Y[k], sizeof y);
    memcpy(par, PT_P, sizeof par);
    if (kind == EX_T)
        t += delta;
    else if (kind == EX_Y)
        y[idx] += delta;
    else
        par[idx] += delta;
    return ex_eval(P, e, t, y, d, par);
}

/* ---- the battery --------------------------------------------------------------- */

typedef struct named {
    const char *name;
    ex_id e;
} named;

#define MAXB 80
static named bat[MAXB];
static int nbat;

static void B(const char *name, ex_id e)
{
    bat[nbat++] = (named){name, e};
}

/* FrDyn2 friction force: N sign(v) mu(|v|) with mu the parabola
 * x(2-x) mu_s (x = |v|/v_s) up to v_s, the cubic mu_d + (mu_s-mu_d)(1 -
 * x^2(3-2x)) (x = (|v|-v_s)/(v_d-v_s)) up to v_d, mu_d beyond. */
static ex_id frdyn2(ex_id v)
{
    ex_id N = Pa(0), mus = Pa(1), mud = Pa(2), vs = Pa(3), vd = Pa(4);
    ex_id av = f1(EX_ABS, v);
    ex_id x = dvd(av, vs);
    ex_id para = mul(mul(x, sub(K(2), x)), mus);
    ex_id xt = dvd(sub(av, vs), sub(vd, vs));
    ex_id cubic = add(mud, mul(sub(mus, mud), sub(K(1), mul(pw(xt, K(2)), sub(K(3), mul(K(2), xt))))));
    ex_id mu = iff(f2(EX_LE, av, vs), para, iff(f2(EX_LT, av, vd), cubic, mud));
    return mul(mul(N, f1(EX_SIGN, v)), mu);
}

/* LuGre friction force (Canudas de Wit et al. 1995, eqs. 1-3) with z = y0/100
 * and v = y1: dz/dt = v - sigma0 |v| z / g(v), g = Fc + (Fs - Fc) exp(-(v/vs)^2),
 * F = sigma0 z + sigma1 dz/dt + sigma2 v. */
static ex_id lugre(void)
{
    ex_id z = dvd(Y(0), K(100)), v = Y(1);
    ex_id g = add(K(1.0), mul(K(0.5), f1(EX_EXP, neg(pw(dvd(v, K(0.1)), K(2))))));
    ex_id zdot = sub(v, dvd(mul(mul(K(100), f1(EX_ABS, v)), z), g));
    return add(add(mul(K(100), z), mul(K(2), zdot)), mul(K(0.4), v));
}

static void build_battery(void)
{
    ex_id y0 = Y(0), y1 = Y(1), y2 = Y(2), p0 = Pa(0), p1 = Pa(1), t = T();
    B("add", add(y0, y1));
    B("sub", sub(y0, mul(y1, p0)));
    B("mul", mul(y0, mul(y1, y2)));
    B("div", dvd(y0, y2));
    B("pow2", pw(y1, K(2)));
    B("pow3", pw(sub(y0, y1), K(3)));
    B("pow-1", pw(y2, K(-1)));
    B("pow0.5", pw(y2, K(0.5)));
    B("pow2.5", pw(y2, K(2.5)));
    B("pow general", pw(y2, mul(y0, p1)));
    B("pow const base", pw(K(2.0), y1));
    B("neg", neg(mul(y0, t)));
    B("sin", f1(EX_SIN, mul(y0, y1)));
    B("cos", f1(EX_COS, add(y1, t)));
    B("tan", f1(EX_TAN, y0));
    B("asin", f1(EX_ASIN, y0));
    B("acos", f1(EX_ACOS, mul(y0, K(0.9))));
    B("atan", f1(EX_ATAN, mul(y1, y2)));
    B("sinh", f1(EX_SINH, y1));
    B("cosh", f1(EX_COSH, y0));
    B("tanh", f1(EX_TANH, mul(p1, y1)));
    B("exp", f1(EX_EXP, neg(mul(y1, y1))));
    B("log", f1(EX_LOG, y2));
    B("sqrt", f1(EX_SQRT, add(y2, mul(y0, y0))));
    B("abs", mul(f1(EX_ABS, y1), y0));
    B("sign", mul(f1(EX_SIGN, y1), y2));
    B("floor", mul(f1(EX_FLOOR, y2), y0));
    B("atan2", f2(EX_ATAN2, y0, y1));
    B("min", f2(EX_MIN, y0, mul(y1, y2)));
    B("max", f2(EX_MAX, y1, mul(y0, K(2))));
    B("cmp", add(mul(f2(EX_LT, y0, y1), y2), mul(f2(EX_GE, y1, y0), y0)));
    B("cmp2", add(mul(f2(EX_LE, y0, K(0.25)), y1), mul(f2(EX_GT, y2, K(1)), y2)));
    B("eq ne", add(f2(EX_EQ, D(0), K(0)), mul(f2(EX_NE, y0, y1), y1)));
    B("logic", mul(f2(EX_OR, f2(EX_AND, f2(EX_LT, y0, y1), f2(EX_GT, y2, K(1))),
                      f1(EX_NOT, f2(EX_GT, y0, K(0)))), y2));
    B("if", iff(f2(EX_GT, y0, y1), mul(y0, y1), pw(y1, K(2))));
    B("if value cond", iff(sub(y0, K(0.25)), add(y2, y0), y1));
    B("nested 1", dvd(f1(EX_SIN, mul(f1(EX_EXP, y0), y1)), add(K(1), pw(y2, K(2)))));
    B("nested 2", f1(EX_LOG, f1(EX_COSH, mul(y0, y2))));
    B("nested 3", pw(add(mul(y0, y1), p0), p1));
    B("nested 4", f2(EX_ATAN2, f1(EX_SIN, y0), add(f1(EX_COS, y1), K(2))));
    B("nested 5", mul(f1(EX_SQRT, add(K(1), pw(mul(y0, y1), K(2)))), f1(EX_TANH, sub(y2, t))));
    B("nested 6", f2(EX_MAX, f2(EX_MIN, mul(y0, y2), y1), neg(y2)));
    B("time", mul(f1(EX_SIN, mul(K(3), t)), y0));
    B("frdyn2", frdyn2(Y(3)));
    B("frdyn2 scaled", frdyn2(mul(Y(3), K(0.7))));
    B("lugre", lugre());
    B("guard sqrt(max(y1-0.5,0))", f1(EX_SQRT, f2(EX_MAX, sub(y1, K(0.5)), K(0))));
    B("guard pow", pw(f2(EX_MAX, sub(y1, K(0.5)), K(0)), K(1.5)));
    B("discrete", mul(D(0), y0));
}

static const ex_kind VK[] = {EX_Y, EX_Y, EX_Y, EX_Y, EX_P, EX_P, EX_P, EX_P, EX_P, EX_T};
static const int VI[] = {0, 1, 2, 3, 0, 1, 2, 3, 4, 0};
#define NV 10

static void test_diff_battery(void)
{
    for (int b = 0; b < nbat; b++) {
        double worst = 0.0;
        char where[128] = "";
        int nan = 0;
        for (int v = 0; v < NV; v++) {
            ex_id de = ex_diff(P, bat[b].e, VK[v], VI[v]);
            for (int k = 0; k < NPT; k++) {
                double x0 = VK[v] == EX_T ? PT_T[k] : VK[v] == EX_Y ? PT_Y[k][VI[v]] : PT_P[VI[v]];
                double h = 1e-5 * fmax(1.0, fabs(x0));
                double fd = (eval_moved(bat[b].e, k, VK[v], VI[v], h) -
                             eval_moved(bat[b].e, k, VK[v], VI[v], -h)) / (2 * h);
                double got = eval_pt(de, k);
                double err = fabs(got - fd) / (1.0 + fabs(fd));
                if (isnan(got) || isnan(fd))
                    nan = 1;
                if (err > worst) {
                    worst = err;
                    snprintf(where, sizeof where, "var %d point %d: got %.12g fd %.12g", v, k,
                             got, fd);
                }
            }
        }
        CHECK(!nan && worst < 1e-6, "diff %s vs finite differences (worst %.2g %s)", bat[b].name,
              worst, where);
    }
}

/* ---- hash-consing, simplification, folding ------------------------------------ */

static void test_consing(void)
{
    ex_id y0 = Y(0), y1 = Y(1);
    CHECK(Y(0) == y0 && K(1.5) == K(1.5) && T() == T() && Pa(2) == Pa(2) && D(1) == D(1),
          "same leaf twice is the same node");
    CHECK(Y(0) != Pa(0) && Y(0) != D(0) && Y(0) != Y(1), "different leaves differ");
    CHECK(K(0.0) != K(-0.0), "0.0 and -0.0 are different constants (bit pattern)");
    CHECK(add(y0, y1) == add(y1, y0), "a+b == b+a");
    CHECK(mul(y0, y1) == mul(y1, y0), "a*b == b*a");
    CHECK(f2(EX_MIN, y0, y1) == f2(EX_MIN, y1, y0) && f2(EX_MAX, y0, y1) == f2(EX_MAX, y1, y0),
          "min and max commute");
    CHECK(f2(EX_EQ, y0, y1) == f2(EX_EQ, y1, y0) && f2(EX_NE, y0, y1) == f2(EX_NE, y1, y0) &&
              f2(EX_AND, y0, y1) == f2(EX_AND, y1, y0) && f2(EX_OR, y0, y1) == f2(EX_OR, y1, y0),
          "eq, ne, and, or commute");
    CHECK(sub(y0, y1) != sub(y1, y0) && dvd(y0, y1) != dvd(y1, y0) &&
              f2(EX_LT, y0, y1) != f2(EX_LT, y1, y0),
          "non-commutative operations keep their order");
    ex_id s = f1(EX_SIN, add(y0, y1));
    int n = ex_count(P);
    CHECK(f1(EX_SIN, add(y1, y0)) == s && ex_count(P) == n, "rebuilding a tree adds no node");
    const ex_node *x = ex_get(P, add(y0, y1));
    CHECK(x->kind == EX_ADD && x->a < x->b, "commutative operands ordered by id");
    CHECK(ex_get(P, -1) == NULL && ex_get(P, ex_count(P)) == NULL, "ex_get rejects bad ids");

    /* many nodes: the table grows and still finds every one */
    ex_pool *saved = P;
    P = ex_pool_new();
    ex_id ids[20000];
    for (int i = 0; i < 20000; i++)
        ids[i] = add(Y(i % 97), K(i * 0.5 + 0.25));
    int same = 1;
    for (int i = 0; i < 20000; i++)
        same &= ids[i] == add(K(i * 0.5 + 0.25), Y(i % 97));
    CHECK(same && ex_count(P) == 20000 + 20000 + 97, "20000 sums found again after growth (%d)",
          ex_count(P));
    ex_pool_free(P);
    P = saved;
}

static void test_simplify(void)
{
    ex_id x = Y(0), z = Y(1), c0 = K(0), c1 = K(1);
    CHECK(add(x, c0) == x && add(c0, x) == x, "x+0, 0+x");
    CHECK(sub(x, c0) == x, "x-0");
    CHECK(sub(c0, x) == neg(x) && kind_of(sub(c0, x)) == EX_NEG, "0-x -> -x");
    CHECK(is_k(sub(x, x), 0.0), "x-x -> 0");
    CHECK(mul(x, c1) == x && mul(c1, x) == x, "x*1, 1*x");
    CHECK(is_k(mul(x, c0), 0.0) && is_k(mul(c0, x), 0.0), "x*0, 0*x -> 0");
    CHECK(dvd(x, c1) == x, "x/1");
    CHECK(is_k(dvd(c0, x), 0.0), "0/x -> 0");
    CHECK(neg(neg(x)) == x, "-(-x) -> x");
    CHECK(is_k(neg(K(2.5)), -2.5), "-(c) -> const");
    CHECK(pw(x, c1) == x, "x^1 -> x");
    CHECK(is_k(pw(x, c0), 1.0), "x^0 -> 1");
    ex_id sq = pw(x, K(2));
    CHECK(kind_of(sq) == EX_POW && is_k(ex_get(P, sq)->b, 2.0), "x^2 stays EX_POW");
    CHECK(iff(f2(EX_LT, x, z), f1(EX_SIN, x), f1(EX_SIN, x)) == f1(EX_SIN, x), "IF(c,a,a) -> a");
    CHECK(iff(K(1), x, z) == x && iff(K(0), x, z) == z && iff(K(NAN), x, z) == x,
          "IF with a constant condition (NaN is true)");
    CHECK(mul(x, K(-1)) == neg(x) && dvd(x, K(-1)) == neg(x), "x*-1, x/-1 -> -x");
    CHECK(add(x, neg(z)) == sub(x, z) && sub(x, neg(z)) == add(x, z), "a+-b, a--b");
    CHECK(mul(neg(x), neg(z)) == mul(x, z), "-a*-b -> a*b");
    CHECK(f2(EX_MIN, x, x) == x && f2(EX_MAX, x, x) == x, "min(x,x), max(x,x) -> x");
    ex_id lt = f2(EX_LT, x, z);
    CHECK(kind_of(iff(lt, c1, c0)) == EX_IF, "IF(cmp, 1, 0) stays a selection (for the guard)");
    CHECK(f1(EX_ABS, neg(x)) == f1(EX_ABS, x) && f1(EX_ABS, f1(EX_ABS, x)) == f1(EX_ABS, x),
          "|-x|, ||x|| -> |x|");

    /* the NaN guard at construction */
    ex_id sel = iff(lt, z, c0);
    ex_id pr = mul(f1(EX_SIN, x), sel);
    const ex_node *n = ex_get(P, pr);
    CHECK(n->kind == EX_IF && n->a == lt && n->b == mul(f1(EX_SIN, x), z) && n->c == c0,
          "x * IF(c,a,0) -> IF(c, x*a, 0)");
    ex_id sel2 = iff(lt, c0, z);
    n = ex_get(P, mul(sel2, x));
    CHECK(n->kind == EX_IF && n->b == c0 && n->c == mul(x, z), "IF(c,0,a) * x -> IF(c, 0, a*x)");
    n = ex_get(P, dvd(sel, x));
    CHECK(n->kind == EX_IF && n->b == dvd(z, x) && n->c == c0, "IF(c,a,0) / x -> IF(c, a/x, 0)");
    CHECK(kind_of(dvd(x, sel)) == EX_DIV, "x / IF(c,a,0) is left alone");
}

static void test_fold(void)
{
    double a = 0.7, b = -0.4;
    ex_id A = K(a), Bc = K(b);
    CHECK(is_k(add(A, Bc), a + b) && is_k(sub(A, Bc), a - b) && is_k(mul(A, Bc), a * b) &&
              is_k(dvd(A, Bc), a / b),
          "fold + - * /");
    CHECK(is_k(pw(K(1.3), K(2.5)), pow(1.3, 2.5)) && is_k(pw(K(1.3), K(2)), 1.3 * 1.3) &&
              is_k(pw(K(1.3), K(3)), 1.3 * 1.3 * 1.3),
          "fold pow");
    struct { ex_kind k; double (*f)(double); } u[] = {
        {EX_SIN, sin}, {EX_COS, cos}, {EX_TAN, tan}, {EX_ASIN, asin}, {EX_ACOS, acos},
        {EX_ATAN, atan}, {EX_SINH, sinh}, {EX_COSH, cosh}, {EX_TANH, tanh}, {EX_EXP, exp},
        {EX_SQRT, sqrt}, {EX_ABS, fabs}, {EX_FLOOR, floor},
    };
    int ok = 1;
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        ok &= is_k(f1(u[i].k, A), u[i].f(a));
    CHECK(ok, "fold every function of one argument");
    CHECK(is_k(f1(EX_LOG, K(2.0)), log(2.0)), "fold log");
    CHECK(is_k(f1(EX_SIGN, Bc), -1.0) && is_k(f1(EX_SIGN, A), 1.0) && is_k(f1(EX_SIGN, K(0)), 0.0),
          "fold sign");
    CHECK(is_k(f2(EX_ATAN2, A, Bc), atan2(a, b)) && is_k(f2(EX_MIN, A, Bc), b) &&
              is_k(f2(EX_MAX, A, Bc), a),
          "fold atan2, min, max");
    CHECK(is_k(f2(EX_LT, A, Bc), 0) && is_k(f2(EX_LE, A, A), 1) && is_k(f2(EX_GT, A, Bc), 1) &&
              is_k(f2(EX_GE, Bc, A), 0) && is_k(f2(EX_EQ, A, A), 1) && is_k(f2(EX_NE, A, A), 0),
          "fold comparisons");
    CHECK(is_k(f2(EX_AND, A, K(0)), 0) && is_k(f2(EX_OR, A, K(0)), 1) &&
              is_k(f1(EX_NOT, K(0)), 1) && is_k(f1(EX_NOT, A), 0),
          "fold logic");
    CHECK(is_k(neg(neg(neg(A))), -a), "fold negation");
    /* non-finite results stay unfolded */
    CHECK(kind_of(dvd(K(1), K(0))) == EX_DIV, "1/0 is not folded");
    CHECK(kind_of(f1(EX_LOG, K(0))) == EX_LOG && kind_of(f1(EX_SQRT, K(-1))) == EX_SQRT &&
              kind_of(f1(EX_EXP, K(1000))) == EX_EXP && kind_of(pw(K(-1), K(0.3))) == EX_POW,
          "log 0, sqrt -1, exp 1000, (-1)^0.3 are not folded");
    double v;
    CHECK(ex_is_const(P, A, &v) && v == a && !ex_is_const(P, Y(0), &v), "ex_is_const");
}

static void test_eval(void)
{
    const double *y = PT_Y[0];
    double par[NPAR];
    memcpy(par, PT_P, sizeof par);
    double d[1] = {0.5};
#define EV(e) ex_eval(P, (e), 0.25, y, d, par)
    ex_id y0 = Y(0), y1 = Y(1), y2 = Y(2);
    CHECK(EV(T()) == 0.25 && EV(y1) == y[1] && EV(D(0)) == 0.5 && EV(Pa(4)) == par[4],
          "eval leaves");
    CHECK(EV(add(y0, y1)) == y[0] + y[1] && EV(sub(y0, y1)) == y[0] - y[1] &&
              EV(mul(y0, y1)) == y[0] * y[1] && EV(dvd(y0, y1)) == y[0] / y[1] &&
              EV(neg(y0)) == -y[0],
          "eval arithmetic");
    CHECK(EV(pw(y2, y0)) == pow(y[2], y[0]) && EV(pw(y2, K(2.5))) == pow(y[2], 2.5) &&
              EV(pw(y2, K(2))) == y[2] * y[2] && EV(pw(y2, K(3))) == y[2] * y[2] * y[2] &&
              EV(pw(y2, K(-1))) == 1.0 / y[2] && EV(pw(y2, K(0.5))) == sqrt(y[2]),
          "eval pow");
    struct { ex_kind k; double (*f)(double); } u[] = {
        {EX_SIN, sin}, {EX_COS, cos}, {EX_TAN, tan}, {EX_ASIN, asin}, {EX_ACOS, acos},
        {EX_ATAN, atan}, {EX_SINH, sinh}, {EX_COSH, cosh}, {EX_TANH, tanh}, {EX_EXP, exp},
        {EX_SQRT, sqrt}, {EX_ABS, fabs}, {EX_FLOOR, floor},
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        CHECK(EV(f1(u[i].k, y0)) == u[i].f(y[0]), "eval function %zu", i);
    CHECK(EV(f1(EX_LOG, y2)) == log(y[2]), "eval log");
    CHECK(EV(f1(EX_SIGN, y1)) == -1.0 && EV(f1(EX_SIGN, y0)) == 1.0 &&
              EV(f1(EX_SIGN, sub(y0, K(0.7)))) == 0.0,
          "eval sign");
    CHECK(EV(f2(EX_ATAN2, y0, y1)) == atan2(y[0], y[1]) && EV(f2(EX_MIN, y0, y1)) == y[1] &&
              EV(f2(EX_MAX, y0, y1)) == y[0],
          "eval atan2 min max");
    CHECK(EV(f2(EX_LT, y0, y1)) == 0 && EV(f2(EX_LE, y1, y0)) == 1 && EV(f2(EX_GT, y0, y1)) == 1 &&
              EV(f2(EX_GE, y1, y0)) == 0 && EV(f2(EX_EQ, y0, y1)) == 0 &&
              EV(f2(EX_NE, y0, y1)) == 1,
          "eval comparisons");
    CHECK(EV(f2(EX_AND, y0, y1)) == 1 && EV(f2(EX_AND, y0, sub(y0, K(0.7)))) == 0 &&
              EV(f2(EX_OR, y0, sub(y0, K(0.7)))) == 1 && EV(f1(EX_NOT, y0)) == 0,
          "eval logic");
    CHECK(EV(iff(f2(EX_LT, y0, y1), y0, y2)) == y[2] && EV(iff(y1, y0, y2)) == y[0],
          "eval if");
#undef EV
}

static void test_depends_subst_loc(void)
{
    ex_id e = add(mul(f1(EX_SIN, Y(0)), Pa(1)), mul(T(), D(2)));
    CHECK(ex_depends(P, e, EX_Y, 0) && !ex_depends(P, e, EX_Y, 1) && ex_depends(P, e, EX_P, 1) &&
              !ex_depends(P, e, EX_P, 0) && ex_depends(P, e, EX_T, 0) &&
              ex_depends(P, e, EX_D, 2) && !ex_depends(P, e, EX_D, 0),
          "ex_depends");
    ex_id repl[2] = {K(3.0), mul(Y(1), K(2.0))};
    ex_id s = ex_subst(P, e, EX_P, repl);
    double y[2] = {0.3, 0.8}, d[3] = {0, 0, 1.5}, par[2] = {3.0, 1.6};
    CHECK(!ex_depends(P, s, EX_P, 1) && ex_depends(P, s, EX_Y, 1) &&
              ex_eval(P, s, 2.0, y, d, NULL) == ex_eval(P, e, 2.0, y, d, par),
          "ex_subst replaces parameters");
    ex_id same = ex_subst(P, e, EX_Y, (ex_id[]){Y(0), Y(1)});
    CHECK(same == e, "ex_subst with identity gives the same node");
    CHECK(ex_subst(P, mul(Y(0), Y(1)), EX_Y, (ex_id[]){K(0), Y(1)}) == K(0),
          "ex_subst simplifies");

    jnt_loc l1 = {0, 7}, l2 = {0, 30};
    ex_set_loc(P, l1);
    ex_id a = f1(EX_COSH, add(Y(5), K(7)));
    ex_set_loc(P, l2);
    ex_id b = f1(EX_COSH, add(Y(5), K(7)));
    ex_id c = f1(EX_SINH, Y(5));
    CHECK(a == b && ex_get(P, a)->loc.off == 7 && ex_get(P, c)->loc.off == 30,
          "nodes keep their first location");
    ex_id da = ex_diff(P, a, EX_Y, 5);
    CHECK(ex_get(P, da)->loc.off == 7, "a derivative carries its node's location");
    ex_set_loc(P, loc_none);
}

static void test_guard(void)
{
    /* d/dz sqrt(max(1-z, 0)): -1/(2 sqrt(1-z)) for z < 1, exactly 0 for z > 1 */
    ex_id z = Y(0);
    ex_id e = f1(EX_SQRT, f2(EX_MAX, sub(K(1), z), K(0)));
    ex_id de = ex_diff(P, e, EX_Y, 0);
    double y[1] = {1.5};
    double v = ex_eval(P, de, 0, y, NULL, NULL);
    CHECK(v == 0.0 && !isnan(v), "d/dz sqrt(max(1-z,0)) at z=1.5 is exactly 0 (got %g)", v);
    y[0] = 0.5;
    CHECK_REL(ex_eval(P, de, 0, y, NULL, NULL), -1.0 / (2.0 * sqrt(0.5)), 1e-15,
              "... at z=0.5 is -1/(2 sqrt(0.5))");
    /* |z|^1.5 sign(z)-like guard through pow: d/dz max(z,0)^0.5 at z<0 */
    ex_id e2 = pw(f2(EX_MAX, z, K(0)), K(0.5));
    y[0] = -2.0;
    v = ex_eval(P, ex_diff(P, e2, EX_Y, 0), 0, y, NULL, NULL);
    CHECK(v == 0.0, "d/dz max(z,0)^0.5 at z=-2 is exactly 0 (got %g)", v);
    /* the guard survives a later product */
    ex_id e3 = mul(Pa(0), e);
    double par[1] = {3.0};
    y[0] = 4.0;
    v = ex_eval(P, ex_diff(P, e3, EX_Y, 0), 0, y, NULL, par);
    CHECK(v == 0.0, "d/dz p*sqrt(max(1-z,0)) at z=4 is exactly 0 (got %g)", v);
    ex_id e4 = mul(Pa(0), neg(f1(EX_SQRT, f2(EX_MAX, sub(K(1), z), K(0)))));
    v = ex_eval(P, ex_diff(P, e4, EX_Y, 0), 0, y, NULL, par);
    CHECK(v == 0.0, "d/dz p*(-sqrt(max(1-z,0))) at z=4 is exactly 0 (got %g)", v);
    ex_id e5 = f1(EX_ACOS, sub(K(1), f2(EX_MAX, sub(z, K(1)), K(0))));
    v = ex_eval(P, ex_diff(P, mul(Pa(0), e5), EX_Y, 0), 0, (double[]){0.5}, NULL, par);
    CHECK(v == 0.0, "d/dz p*acos(1-max(z-1,0)) at z=0.5 is exactly 0 (got %g)", v);
}

/* ---- emission --------------------------------------------------------------------- */

static char *slurp_emit(int n, const ex_id *roots, const char *const *lhs, const diag_ctx *dc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ex_emit(P, f, n, roots, lhs, dc, "    ", "w");
    fclose(f);
    return buf;
}

/* Writes a program that computes the roots at every point and prints them,
 * compiles and runs it with `how` (a shell command taking the file name), and
 * compares every printed value with ex_eval. */
static void run_emitted(const char *how, const char *what, int n, const ex_id *roots)
{
    char path[] = "/tmp/jnt_test_exprXXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        CHECK(0, "mkstemp");
        return;
    }
    close(fd);
    char cpath[64], exe[64];
    snprintf(cpath, sizeof cpath, "%s.c", path);
    snprintf(exe, sizeof exe, "%s.exe", path);
    FILE *f = fopen(cpath, "w");
    ex_emit_prelude(f);
    ex_emit_prelude(f); /* twice: the guard makes that harmless */
    fprintf(f, "int printf(const char *, ...);\n"
               "static void f(double t, const double *y, const double *d, const double *p, "
               "double *out)\n{\n    (void)t; (void)y; (void)d; (void)p;\n");
    char **lhs = malloc((size_t)n * sizeof *lhs);
    for (int i = 0; i < n; i++) {
        lhs[i] = malloc(24);
        snprintf(lhs[i], 24, "out[%d]", i);
    }
    ex_emit(P, f, n, roots, (const char *const *)lhs, NULL, "    ", "w");
    fprintf(f, "}\nstatic const double T[%d] = {", NPT);
    for (int k = 0; k < NPT; k++)
        fprintf(f, "%a,", PT_T[k]);
    fprintf(f, "};\nstatic const double Y[%d][%d] = {", NPT, NY);
    for (int k = 0; k < NPT; k++) {
        fputc('{', f);
        for (int i = 0; i < NY; i++)
            fprintf(f, "%a,", PT_Y[k][i]);
        fputs("},", f);
    }
    fprintf(f, "};\nstatic const double D[%d][1] = {", NPT);
    for (int k = 0; k < NPT; k++)
        fprintf(f, "{%a},", PT_D[k][0]);
    fprintf(f, "};\nstatic const double PAR[%d] = {", NPAR);
    for (int i = 0; i < NPAR; i++)
        fprintf(f, "%a,", PT_P[i]);
    fprintf(f, "};\nstatic double out[%d];\nint main(void)\n{\n"
               "    for (int k = 0; k < %d; k++) {\n"
               "        f(T[k], Y[k], D[k], PAR, out);\n"
               "        for (int i = 0; i < %d; i++)\n"
               "            printf(\"%%a\\n\", out[i]);\n"
               "    }\n    return 0;\n}\n",
            n, NPT, n);
    fclose(f);

    char cmd[512];
    snprintf(cmd, sizeof cmd, how, cpath, exe, exe);
    FILE *pp = popen(cmd, "r");
    int count = 0, bad = 0;
    double worst = 0.0;
    char line[128], first_bad[200] = "";
    while (pp && fgets(line, sizeof line, pp)) {
        if (count >= n * NPT) {
            count++;
            continue;
        }
        int k = count / n, i = count % n;
        double got = strtod(line, NULL), want = eval_pt(roots[i], k);
        double rel = got == want ? 0.0 : fabs(got - want) / fabs(want);
        if (!(rel <= 1e-14)) {
            if (!bad)
                snprintf(first_bad, sizeof first_bad, "root %d point %d: got %.17g want %.17g", i,
                         k, got, want);
            bad++;
        }
        if (rel > worst)
            worst = rel;
        count++;
    }
    int rc = pp ? pclose(pp) : -1;
    CHECK(rc == 0 && count == n * NPT && bad == 0,
          "%s: %s: %d values (want %d), %d off by more than 1e-14 (worst %.2g) %s", what, how,
          count, n * NPT, bad, worst, first_bad);
    for (int i = 0; i < n; i++)
        free(lhs[i]);
    free(lhs);
    if (rc != 0 || bad)
        printf("(kept %s)\n", cpath);
    else
        remove(cpath);
    remove(exe);
    remove(path);
}

static void test_emit(void)
{
    /* every battery expression, its derivatives, and awkward constants */
    ex_id roots[MAXB * (NV + 1) + 16];
    int n = 0;
    for (int b = 0; b < nbat; b++) {
        roots[n++] = bat[b].e;
        for (int v = 0; v < NV; v++)
            roots[n++] = ex_diff(P, bat[b].e, VK[v], VI[v]);
    }
    roots[n++] = f2(EX_MIN, Y(0), K(INFINITY));
    roots[n++] = add(mul(Y(0), K(0.1)), K(3));
    roots[n++] = add(mul(Y(1), K(1e300)), K(-2.5));
    roots[n++] = mul(Y(2), K(4.9406564584124654e-324));
    roots[n++] = mul(Y(2), K(1.0 / 3.0));
    roots[n++] = neg(Y(0));
    roots[n++] = Y(3);
    roots[n++] = K(-0.0);
    roots[n++] = K(7);
    roots[n++] = roots[0]; /* the same root twice */
    /* a long unshared chain: forces temporaries by depth */
    ex_id chain = Y(0);
    for (int i = 0; i < 200; i++)
        chain = f1(EX_SIN, add(chain, K(i * 0.01)));
    roots[n++] = chain;

    const char *gcc_cmd = "gcc -std=c11 -Wall -Wextra -Werror -O2 -o %2$s %1$s -lm 2>&1 && %3$s";
    const char *tcc_cmd = "tcc -Wall -Werror -o %2$s %1$s -lm 2>&1 && %3$s";
    const char *tccrun_cmd = "tcc -lm -run %1$s 2>&1";
    run_emitted(gcc_cmd, "emitted C", n, roots);
    run_emitted(tcc_cmd, "emitted C", n, roots);
    run_emitted(tccrun_cmd, "emitted C", n, roots);

    /* determinism: twice from the same pool, and from a pool built afresh */
    char **lhs = malloc((size_t)n * sizeof *lhs);
    for (int i = 0; i < n; i++) {
        lhs[i] = malloc(24);
        snprintf(lhs[i], 24, "out[%d]", i);
    }
    char *t1 = slurp_emit(n, roots, (const char *const *)lhs, NULL);
    char *t2 = slurp_emit(n, roots, (const char *const *)lhs, NULL);
    CHECK(strcmp(t1, t2) == 0, "emitting twice gives identical text (%zu bytes)", strlen(t1));
    ex_pool *saved = P;
    int saved_n = nbat;
    P = ex_pool_new();
    nbat = 0;
    build_battery();
    ex_id r2[MAXB];
    for (int b = 0; b < nbat; b++)
        r2[b] = ex_diff(P, bat[b].e, EX_Y, 3);
    char *t3 = slurp_emit(nbat, r2, (const char *const *)lhs, NULL);
    ex_pool_free(P);
    P = ex_pool_new();
    nbat = 0;
    build_battery();
    for (int b = 0; b < nbat; b++)
        r2[b] = ex_diff(P, bat[b].e, EX_Y, 3);
    char *t4 = slurp_emit(nbat, r2, (const char *const *)lhs, NULL);
    CHECK(strcmp(t3, t4) == 0, "two pools built alike emit identical text");
    ex_pool_free(P);
    P = saved;
    nbat = saved_n;
    free(t1);
    free(t2);
    free(t3);
    free(t4);
    for (int i = 0; i < n; i++)
        free(lhs[i]);
    free(lhs);
}

/* Exact text for a small block: sharing, inline leaves, powers, if, #line. */
static void test_emit_text(void)
{
    ex_pool *saved = P;
    P = ex_pool_new();
    char text[] = "model m\n  der(x) = v\n  der(v) = -x^2 + sin(x^2)\n";
    diag_src src = {.path = "dir\\a \"b\".jnt", .text = text, .len = sizeof text - 1};
    diag_ctx dc = {.srcs = &src, .nsrc = 1, .capsrc = 1};
    ex_set_loc(P, (jnt_loc){0, 10});
    ex_id r0 = Y(1);
    ex_set_loc(P, (jnt_loc){0, 30});
    ex_id x2 = pw(Y(0), K(2));
    ex_id r1 = add(neg(x2), f1(EX_SIN, x2));
    ex_set_loc(P, (jnt_loc){0, 31});
    ex_id r2 = iff(f2(EX_LT, Y(0), K(-1.5)), f2(EX_MIN, x2, Pa(0)), f1(EX_SIGN, D(0)));
    ex_id roots[3] = {r0, r1, r2};
    const char *lhs[3] = {"ydot[0]", "ydot[1]", "o"};
    char *got = slurp_emit(3, roots, lhs, &dc);
    /* a store of a leaf or a temporary has no line of its own; the same
     * file again needs only the number */
    const char *want =
        "#line 3 \"dir\\\\a \\\"b\\\".jnt\"\n"
        "    double w0 = (y[0] * y[0]);\n"
        "    ydot[0] = y[1];\n"
        "    ydot[1] = (sin(w0) - w0);\n"
        "    o = ((y[0] < (-1.5)) ? jnt_min(w0, p[0]) : jnt_sign(d[0]));\n";
    if (strcmp(got, want) != 0)
        printf("emitted:\n%s--- wanted:\n%s---\n", got, want);
    CHECK(strcmp(got, want) == 0, "emitted text with sharing, powers, selection and #line");
    free(got);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ex_print_c(P, f, r1);
    fputc('|', f);
    ex_id le = f2(EX_LE, Y(0), K(1)), nt = f1(EX_NOT, Y(1));
    ex_print_c(P, f, f2(EX_AND, le, nt));
    fputc('|', f);
    ex_id ti = pw(T(), K(-1)), rt = pw(Y(0), K(0.5));
    ex_print_c(P, f, mul(ti, rt));
    fputc('|', f);
    ex_id t3 = pw(T(), K(3)), yq = pw(Y(0), K(1.25));
    ex_print_c(P, f, mul(t3, yq));
    fclose(f);
    const char *want2 = "(sin((y[0] * y[0])) - (y[0] * y[0]))|"
                        "(((y[0] <= 1.0) && (!(y[1] != 0.0))) ? 1.0 : 0.0)|"
                        "((1.0 / t) * sqrt(y[0]))|"
                        "((t * t * t) * pow(y[0], 1.25))";
    CHECK(strcmp(buf, want2) == 0, "ex_print_c: %s", buf);
    free(buf);

    /* the #line block compiles, with that path */
    char base[] = "/tmp/jnt_test_lineXXXXXX", cpath[64];
    int fd = mkstemp(base);
    close(fd);
    snprintf(cpath, sizeof cpath, "%s.c", base);
    FILE *cf = fopen(cpath, "w");
    ex_emit_prelude(cf);
    fputs("void g(double t, const double *y, const double *d, const double *p, double *ydot,"
          " double *out);\n"
          "void g(double t, const double *y, const double *d, const double *p, double *ydot,"
          " double *out)\n{\n    double o;\n    (void)t;\n",
          cf);
    ex_emit(P, cf, 3, roots, lhs, &dc, "    ", "w");
    fputs("    *out = o;\n}\n", cf);
    fclose(cf);
    /* objects to a scratch file, not /dev/null: tcc unlinks its output
     * before writing it, which as root replaces /dev/null by a file */
    char cmd[768], opath[300];
    snprintf(opath, sizeof opath, "%s.o", base);
    snprintf(cmd, sizeof cmd, "gcc -std=c11 -Wall -Wextra -Werror -c -o %s %s", opath, cpath);
    CHECK(system(cmd) == 0, "the block with #line compiles with gcc");
    snprintf(cmd, sizeof cmd, "tcc -Wall -Werror -c -o %s %s", opath, cpath);
    CHECK(system(cmd) == 0, "the block with #line compiles with tcc");
    remove(opath);
    remove(cpath);
    remove(base);
    ex_pool_free(P);
    P = saved;
}

/* The sine and cosine of one operand: one sincos call writing two
 * temporaries (gen_expr.c, pair_sincos); a lone sine stays a sin call. And
 * the premise, on this machine's libm: sincos gives sin's and cos's bits
 * (through volatile pointers, so that gcc does not join the calls itself),
 * on 2e6 arguments of every size and on the special values. */
void sincos(double, double *, double *); /* glibc's (math.h declares it with _GNU_SOURCE) */

static void test_emit_sincos(void)
{
    ex_pool *saved = P;
    P = ex_pool_new();
    ex_id a = mul(Y(0), Pa(0));
    ex_id roots[3] = {add(f1(EX_SIN, a), Y(1)), mul(f1(EX_COS, a), Y(2)), f1(EX_SIN, Y(3))};
    const char *lhs[3] = {"o[0]", "o[1]", "o[2]"};
    char *got = slurp_emit(3, roots, lhs, NULL);
    const char *want = "    double w0 = (p[0] * y[0]);\n"
                       "    double w1, w2;\n"
                       "    sincos(w0, &w1, &w2);\n"
                       "    o[0] = (y[1] + w1);\n"
                       "    o[1] = (y[2] * w2);\n"
                       "    o[2] = sin(y[3]);\n";
    if (strcmp(got, want) != 0)
        printf("emitted:\n%s--- wanted:\n%s---\n", got, want);
    CHECK(strcmp(got, want) == 0, "sin and cos of one operand: one sincos call");
    free(got);
    ex_pool_free(P);
    P = saved;

    double (*volatile vsin)(double) = sin, (*volatile vcos)(double) = cos;
    void (*volatile vsincos)(double, double *, double *) = sincos;
    static const double special[] = {0.0, -0.0, 1e-300, -4.9406564584124654e-324, 0.5,
                                     0.78539816339744831, 1.5707963267948966,
                                     -1.5707963267948966, 3.1415926535897931,
                                     6.2831853071795862, 1e6, 1e22, -1e22,
                                     1.7976931348623157e308, INFINITY, -INFINITY, NAN};
    long n = 0, bad = 0;
    unsigned long long r = 88172645463325252ull;
    for (long k = 0; k < 2000000 + (long)(sizeof special / sizeof *special); k++) {
        double x;
        if (k < (long)(sizeof special / sizeof *special)) {
            x = special[k];
        } else {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            double u = (double)(r >> 11) / 9007199254740992.0 - 0.5;
            switch (k % 4) {
            case 0: x = 20 * u; break;
            case 1: x = 2e3 * u; break;
            case 2: x = 1e-3 * u; break;
            default: memcpy(&x, &r, sizeof x); break; /* any bits */
            }
        }
        double s, c, s1 = vsin(x), c1 = vcos(x);
        vsincos(x, &s, &c);
        bad += memcmp(&s, &s1, sizeof s) != 0 || memcmp(&c, &c1, sizeof c) != 0;
        n++;
    }
    CHECK(bad == 0, "libm: sincos gives the bits of sin and cos on %ld arguments (%ld differ)", n,
          bad);
}

/* ---- size and speed ------------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void test_perf(void)
{
    ex_pool *saved = P;
    P = ex_pool_new();

    /* a 100-term chain sum of tanh terms, differentiated w.r.t. each variable */
    ex_id sum = K(0);
    for (int i = 0; i < 100; i++)
        sum = add(sum, mul(Pa(0), f1(EX_TANH, mul(K(3.0), sub(Y(i), Y((i + 1) % 100))))));
    double t0 = now();
    int ok = 1;
    double y[200], par[5] = {2.0, 0.5, 0.3, 0.1, 0.3};
    for (int i = 0; i < 200; i++)
        y[i] = 0.01 * i * (i % 3 - 1);
    for (int i = 0; i < 100; i++) {
        ex_id de = ex_diff(P, sum, EX_Y, i);
        int ip = (i + 99) % 100;
        double u = 3.0 * (y[i] - y[(i + 1) % 100]), w = 3.0 * (y[ip] - y[i]);
        double want = 2.0 * 3.0 * ((1 - tanh(u) * tanh(u)) - (1 - tanh(w) * tanh(w)));
        ok &= fabs(ex_eval(P, de, 0, y, NULL, par) - want) < 1e-12;
    }
    double t1 = now();
    CHECK(ok, "chain sum of 100 tanh terms: 100 derivatives right");
    printf("time: 100 derivatives of a 100-term tanh chain sum: %.3f ms\n", 1e3 * (t1 - t0));

    /* a 100-mass chain with FrDyn2 friction: the full 200x200 Jacobian */
    ex_id rhs[200];
    for (int i = 0; i < 100; i++) {
        ex_id left = i > 0 ? Y(i - 1) : K(0), right = i < 99 ? Y(i + 1) : K(0);
        ex_id spring = mul(K(50.0), add(sub(left, mul(K(2), Y(i))), right));
        rhs[i] = Y(100 + i);
        rhs[100 + i] = sub(spring, frdyn2(sub(Y(100 + i), mul(K(0.2), T()))));
    }
    t0 = now();
    int nnz = 0, nvar = 0;
    for (int r = 0; r < 200; r++)
        for (int c = 0; c < 200; c++)
            if (ex_depends(P, rhs[r], EX_Y, c)) {
                nnz++;
                nvar += !ex_is_const(P, ex_diff(P, rhs[r], EX_Y, c), NULL);
            }
    t1 = now();
    /* velocities: 100; forces: 298 spring entries + 100 friction entries, of
     * which only the friction ones are not constant */
    CHECK(nnz == 100 + 298 + 100 && nvar == 100, "chain Jacobian: %d entries, %d not constant",
          nnz, nvar);
    printf("time: 100-mass FrDyn2 chain, 40000 dependency tests + Jacobian: %.3f ms\n",
           1e3 * (t1 - t0));

    /* a DAG whose tree is astronomically large: e_{k+1} = sin(e_k) * e_k + e_k */
    ex_id e = Y(0);
    for (int k = 0; k < 2000; k++)
        e = add(mul(f1(EX_SIN, e), K(0.001)), e);
    t0 = now();
    ex_id de = ex_diff(P, e, EX_Y, 0);
    double yy[1] = {0.3};
    double got = ex_eval(P, de, 0, yy, NULL, NULL);
    double h = 1e-6, fd;
    yy[0] = 0.3 + h;
    fd = ex_eval(P, e, 0, yy, NULL, NULL);
    yy[0] = 0.3 - h;
    fd = (fd - ex_eval(P, e, 0, yy, NULL, NULL)) / (2 * h);
    int dep = ex_depends(P, de, EX_Y, 0);
    t1 = now();
    CHECK(fabs(got - fd) < 1e-6 * fabs(fd) && dep, "2000-level shared DAG: derivative %g vs %g",
          got, fd);
    printf("time: 2000-level shared DAG, diff + eval + depends: %.3f ms\n", 1e3 * (t1 - t0));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const char *lhs[1] = {"r"};
    ex_emit(P, f, 1, &de, lhs, NULL, "", "w");
    fclose(f);
    CHECK(len < 2000000, "its emitted derivative is linear in size (%zu bytes)", len);
    free(buf);

    /* a 50000-deep unshared sum: nothing recurses */
    ex_id s = K(0);
    for (int i = 0; i < 50000; i++)
        s = add(s, mul(Y(i % 7), K(1.0 + i)));
    ex_id ds = ex_diff(P, s, EX_Y, 3);
    double y7[7] = {0};
    CHECK(ex_eval(P, ds, 0, y7, NULL, NULL) > 0 && ex_depends(P, s, EX_Y, 6),
          "50000-deep sum: diff, eval, depends");
    ex_pool_free(P);
    P = saved;
}

int main(void)
{
    P = ex_pool_new();
    test_consing();
    test_simplify();
    test_fold();
    test_eval();
    test_depends_subst_loc();
    test_guard();
    build_battery();
    test_diff_battery();
    test_emit();
    test_emit_text();
    test_emit_sincos();
    test_perf();
    ex_pool_free(P);
    return check_done();
}
