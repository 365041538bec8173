/*
 * units.c: numbers with units: a literal with its unit converted to SI
 * (`2 mm`, `30 deg`), and a unit expression (a type annotation like 1/m,
 * N*s/m) read into its dimension.
 */
#include <math.h>
#include <string.h>

#include "passes.h"

/* See passes.h. */
sval sema_numlit(sema *S, const ast *n)
{
    double scale = 1;
    jnt_dim dim = units_none;
    if (n->str) {
        const char *at, *why;
        if (units_parse(n->str, strlen(n->str), &scale, &dim, &at, &why) != 0) {
            jnt_loc l = n->aux;
            l.off += (int)(at - n->str);
            if (strcmp(why, "unknown unit") == 0)
                diag_error(S->dc, l, "unknown unit '%.*s'", (int)strcspn(at, "*/^()"), at);
            else
                diag_error(S->dc, l, "%s in unit '%s'", why, n->str);
            return sval_err;
        }
    }
    /* 10 us is 10 / 1e6, exactly 1e-5, where 10 * 1e-6 is not */
    double inv = 1 / scale, value = n->num * scale;
    if (scale < 1 && fabs(inv - round(inv)) < 1e-9 * inv)
        value = n->num / round(inv);
    if (!isfinite(value)) { /* 1e400, or 1e300 GPa: no double holds it */
        diag_error(S->dc, n->loc, "number out of range: larger than the largest double "
                   "(1.8e308 in SI units)");
        return sval_err;
    }
    sval v = sval_num(ex_const(S->pool, value), dim);
    v.zero_lit = n->num == 0 && !n->str;
    return v;
}

/* Evaluate a unit expression (a type annotation such as 1/m or N*s/m). */
int sema_unit(sema *S, const ast *n, jnt_dim *out)
{
    double scale;
    const char *at, *why;
    switch (n->kind) {
    case AST_NAME:
        if (units_lookup(n->name, strlen(n->name), &scale, out) == 0)
            return 0;
        diag_error(S->dc, n->loc, "unknown unit '%s'", n->name);
        return -1;
    case AST_NUM:
        *out = units_none;
        if (n->num != 1) {
            diag_error(S->dc, n->loc, "a unit may contain only the number 1");
            return -1;
        }
        if (n->str && units_parse(n->str, strlen(n->str), &scale, out, &at, &why) != 0) {
            diag_error(S->dc, n->aux, "%s in unit '%s'", why, n->str);
            return -1;
        }
        return 0;
    case AST_BINARY: {
        jnt_dim a, b;
        if (n->op == OP_POW) {
            sval e = sema_num(S, &S->consts, n->kids[1], "a unit exponent");
            double x;
            if (sema_unit(S, n->kids[0], &a) || e.k != V_NUM)
                return -1;
            int num = ex_is_const(S->pool, e.e, &x) ? (int)lround(x * JNT_DIM_DEN) : 0;
            if (!ex_is_const(S->pool, e.e, &x) || fabs(x * JNT_DIM_DEN - num) > 1e-9 ||
                units_pow(a, num, JNT_DIM_DEN, out) != 0) {
                diag_error(S->dc, n->kids[1]->loc, "a unit exponent must be a constant multiple "
                                                   "of 1/6");
                return -1;
            }
            return 0;
        }
        if (n->op != OP_MUL && n->op != OP_DIV)
            break;
        if (sema_unit(S, n->kids[0], &a) || sema_unit(S, n->kids[1], &b))
            return -1;
        *out = n->op == OP_MUL ? units_mul(a, b) : units_div(a, b);
        return 0;
    }
    default:
        break;
    }
    diag_error(S->dc, n->loc, "expected a unit such as 'm', 'N/m' or 'N*s/m'");
    return -1;
}
