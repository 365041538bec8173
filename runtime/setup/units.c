/*
 * units.c: physical dimensions, unit words, unit expressions and quantities.
 *
 * A dimension is a vector of exponents of (kg, m, s, A, K) in sixths, so
 * that square and cube roots of units (N/m^1.5, Hertzian contact) stay exact.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/setup.h"

const jnt_dim units_none = {{0, 0, 0, 0, 0}};

#define D6 JNT_DIM_DEN

/* A unit word: its SI scale, dimension, and whether SI prefixes apply. */
typedef struct unit_word {
    const char *name;
    double scale;
    jnt_dim dim;
    int prefixable;
} unit_word;

static const unit_word unit_words[] = {
    {"m", 1.0, {{0, D6, 0, 0, 0}}, 1},
    {"g", 1e-3, {{D6, 0, 0, 0, 0}}, 1},
    {"s", 1.0, {{0, 0, D6, 0, 0}}, 1},
    {"N", 1.0, {{D6, D6, -2 * D6, 0, 0}}, 1},
    {"Pa", 1.0, {{D6, -D6, -2 * D6, 0, 0}}, 1},
    {"J", 1.0, {{D6, 2 * D6, -2 * D6, 0, 0}}, 1},
    {"W", 1.0, {{D6, 2 * D6, -3 * D6, 0, 0}}, 1},
    {"Hz", 1.0, {{0, 0, -D6, 0, 0}}, 1},
    {"A", 1.0, {{0, 0, 0, D6, 0}}, 1},
    {"K", 1.0, {{0, 0, 0, 0, D6}}, 0},
    {"kg", 1.0, {{D6, 0, 0, 0, 0}}, 0},
    {"min", 60.0, {{0, 0, D6, 0, 0}}, 0},
    {"rad", 1.0, {{0, 0, 0, 0, 0}}, 1},
    {"deg", 3.14159265358979323846 / 180.0, {{0, 0, 0, 0, 0}}, 0},
    {"rpm", 2.0 * 3.14159265358979323846 / 60.0, {{0, 0, -D6, 0, 0}}, 0},
    {"bar", 1e5, {{D6, -D6, -2 * D6, 0, 0}}, 1},
};

typedef struct unit_prefix {
    const char *text; /* UTF-8 */
    double scale;
} unit_prefix;

static const unit_prefix unit_prefixes[] = {
    {"n", 1e-9}, {"u", 1e-6}, {"\xc2\xb5", 1e-6}, {"\xce\xbc", 1e-6}, {"m", 1e-3},
    {"c", 1e-2}, {"k", 1e3},  {"M", 1e6},         {"G", 1e9},
};

#define NWORDS (sizeof unit_words / sizeof unit_words[0])
#define NPREFIXES (sizeof unit_prefixes / sizeof unit_prefixes[0])

/* Dimensions a and b are the same. */
int units_equal(jnt_dim a, jnt_dim b)
{
    return memcmp(a.e, b.e, sizeof a.e) == 0;
}

/* a is dimensionless. */
int units_is_none(jnt_dim a)
{
    return units_equal(a, units_none);
}

/* Dimension of a product. */
jnt_dim units_mul(jnt_dim a, jnt_dim b)
{
    jnt_dim r;
    for (int i = 0; i < JNT_NDIM; i++)
        r.e[i] = (signed char)(a.e[i] + b.e[i]);
    return r;
}

/* Dimension of a quotient. */
jnt_dim units_div(jnt_dim a, jnt_dim b)
{
    jnt_dim r;
    for (int i = 0; i < JNT_NDIM; i++)
        r.e[i] = (signed char)(a.e[i] - b.e[i]);
    return r;
}

/* a^(num/den) into *out: 0, or -1 when an exponent is not a whole number of
 * sixths, overflows, or den is 0. */
int units_pow(jnt_dim a, int num, int den, jnt_dim *out)
{
    if (den == 0)
        return -1;
    jnt_dim r;
    for (int i = 0; i < JNT_NDIM; i++) {
        long v = (long)a.e[i] * num;
        if (v % den != 0)
            return -1;
        v /= den;
        if (v < -128 || v > 127)
            return -1;
        r.e[i] = (signed char)v;
    }
    *out = r;
    return 0;
}

static int word_is(const char *w, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(w, name, n) == 0;
}

/* Look up one unit word: exact names first ("min", "kg"), then an SI prefix
 * followed by a prefixable unit ("mm", "GPa", "µs"). 0 or -1. */
int units_lookup(const char *word, size_t n, double *scale, jnt_dim *dim)
{
    for (size_t i = 0; i < NWORDS; i++) {
        if (word_is(word, n, unit_words[i].name)) {
            *scale = unit_words[i].scale;
            *dim = unit_words[i].dim;
            return 0;
        }
    }
    for (size_t p = 0; p < NPREFIXES; p++) {
        size_t pl = strlen(unit_prefixes[p].text);
        if (n <= pl || memcmp(word, unit_prefixes[p].text, pl) != 0)
            continue;
        for (size_t i = 0; i < NWORDS; i++) {
            if (unit_words[i].prefixable && word_is(word + pl, n - pl, unit_words[i].name)) {
                *scale = unit_prefixes[p].scale * unit_words[i].scale;
                *dim = unit_words[i].dim;
                return 0;
            }
        }
    }
    return -1;
}

/* Recursive-descent parser state for unit expressions. */
typedef struct uparse {
    const char *s, *end;
    const char *err_at;
    const char *why;
} uparse;

static int up_fail(uparse *u, const char *at, const char *why)
{
    u->err_at = at;
    u->why = why;
    return -1;
}

static int up_is_word_char(const char *c, const char *end)
{
    unsigned char ch = (unsigned char)*c;
    if (isalpha(ch))
        return 1;
    /* µ (U+00B5) and μ (U+03BC) in UTF-8 */
    return c + 1 < end && ((ch == 0xc2 && (unsigned char)c[1] == 0xb5) ||
                           (ch == 0xce && (unsigned char)c[1] == 0xbc));
}

static int up_expr(uparse *u, double *scale, jnt_dim *dim);

/* exponent := ['+'|'-'] digits ['.' digits] | '(' ['-'] digits '/' digits ')' */
static int up_exponent(uparse *u, int *num, int *den, double *x)
{
    const char *p = u->s;
    if (p < u->end && *p == '(') {
        p++;
        int neg = 0;
        if (p < u->end && (*p == '-' || *p == '+'))
            neg = *p++ == '-';
        long a = 0, b = 0;
        const char *q = p;
        while (p < u->end && isdigit((unsigned char)*p)) /* saturates: over 1000 is refused */
            a = a < 100000 ? a * 10 + (*p++ - '0') : (p++, a);
        if (p == q || p >= u->end || *p != '/')
            return up_fail(u, p, "expected an exponent like (1/3)");
        q = ++p;
        while (p < u->end && isdigit((unsigned char)*p))
            b = b < 100000 ? b * 10 + (*p++ - '0') : (p++, b);
        if (p == q || p >= u->end || *p != ')' || b == 0 || a > 1000 || b > 1000)
            return up_fail(u, p, "expected an exponent like (1/3)");
        u->s = p + 1;
        *num = (int)(neg ? -a : a);
        *den = (int)b;
        *x = (double)*num / *den;
        return 0;
    }
    char buf[32];
    size_t k = 0;
    if (p < u->end && (*p == '-' || *p == '+'))
        buf[k++] = *p++;
    const char *digits = p;
    while (p < u->end && (isdigit((unsigned char)*p) || *p == '.') && k < sizeof buf - 1)
        buf[k++] = *p++;
    buf[k] = '\0';
    if (p == digits)
        return up_fail(u, p, "expected a number after '^'");
    char *e;
    double v = strtod(buf, &e);
    if (*e != '\0')
        return up_fail(u, digits, "bad exponent");
    double v6 = v * JNT_DIM_DEN;
    if (fabs(v6 - nearbyint(v6)) > 1e-9 || fabs(v6) > 1000)
        return up_fail(u, digits, "exponent must be a multiple of 1/6");
    u->s = p;
    *num = (int)nearbyint(v6);
    *den = JNT_DIM_DEN;
    *x = v;
    return 0;
}

/* term := (word | '1' | '(' expr ')') ['^' exponent] */
static int up_term(uparse *u, double *scale, jnt_dim *dim)
{
    const char *p = u->s;
    if (p >= u->end)
        return up_fail(u, p, "expected a unit");
    if (*p == '(') {
        u->s = p + 1;
        if (up_expr(u, scale, dim) < 0)
            return -1;
        if (u->s >= u->end || *u->s != ')')
            return up_fail(u, u->s, "expected ')'");
        u->s++;
    } else if (*p == '1' && (p + 1 >= u->end || !isdigit((unsigned char)p[1]))) {
        u->s = p + 1;
        *scale = 1.0;
        *dim = units_none;
    } else if (up_is_word_char(p, u->end)) {
        const char *q = p;
        while (q < u->end && up_is_word_char(q, u->end))
            q += ((unsigned char)*q >= 0x80) ? 2 : 1;
        if (units_lookup(p, (size_t)(q - p), scale, dim) < 0)
            return up_fail(u, p, "unknown unit");
        u->s = q;
    } else {
        return up_fail(u, p, "expected a unit");
    }
    if (u->s < u->end && *u->s == '^') {
        const char *at = u->s;
        u->s++;
        int num, den;
        double x;
        if (up_exponent(u, &num, &den, &x) < 0)
            return -1;
        if (units_pow(*dim, num, den, dim) < 0)
            return up_fail(u, at, "power gives an exponent that is not a multiple of 1/6");
        *scale = pow(*scale, x);
    }
    return 0;
}

/* expr := ['/'] term (('*' | '/') term)* ; a leading '/' means 1/... */
static int up_expr(uparse *u, double *scale, jnt_dim *dim)
{
    *scale = 1.0;
    *dim = units_none;
    int first = 1;
    for (;;) {
        int divide = 0;
        if (u->s < u->end && (*u->s == '/' || (!first && *u->s == '*'))) {
            divide = *u->s == '/';
            u->s++;
        } else if (!first) {
            return 0;
        }
        double ts;
        jnt_dim td;
        if (up_term(u, &ts, &td) < 0)
            return -1;
        if (divide) {
            *scale /= ts;
            *dim = units_div(*dim, td);
        } else {
            *scale *= ts;
            *dim = units_mul(*dim, td);
        }
        first = 0;
    }
}

/* Parse a whole unit expression s[0..n). 0, or -1 with *err_at, *why. */
int units_parse(const char *s, size_t n, double *scale, jnt_dim *dim, const char **err_at,
                const char **why)
{
    uparse u = {s, s + n, NULL, NULL};
    int rc = up_expr(&u, scale, dim);
    if (rc == 0 && u.s != u.end)
        rc = up_fail(&u, u.s, *u.s == ' ' ? "unexpected space in unit" : "unexpected character in unit");
    if (rc < 0) {
        if (err_at)
            *err_at = u.err_at;
        if (why)
            *why = u.why;
    }
    return rc;
}

/* Length of a decimal number at s ([+-]digits[.digits][e[+-]digits]), 0 if none. */
static size_t scan_number(const char *s)
{
    size_t i = 0, nd = 0;
    if (s[i] == '+' || s[i] == '-')
        i++;
    while (isdigit((unsigned char)s[i]))
        i++, nd++;
    if (s[i] == '.') {
        i++;
        while (isdigit((unsigned char)s[i]))
            i++, nd++;
    }
    if (nd == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (isdigit((unsigned char)s[j])) {
            while (isdigit((unsigned char)s[j]))
                j++;
            i = j;
        }
    }
    return i;
}

/* Parse "<number>[ ]<unit>" (the whole string, spaces around allowed). */
int units_parse_quantity(const char *s, double *si, jnt_dim *dim, const char **why)
{
    const char *w = "expected a number";
    while (isspace((unsigned char)*s))
        s++;
    size_t nl = scan_number(s);
    if (nl == 0 || nl >= 64) {
        if (why)
            *why = w;
        return -1;
    }
    char buf[64];
    memcpy(buf, s, nl);
    buf[nl] = '\0';
    double v = strtod(buf, NULL);
    const char *u = s + nl;
    while (isspace((unsigned char)*u))
        u++;
    const char *ue = u + strlen(u);
    while (ue > u && isspace((unsigned char)ue[-1]))
        ue--;
    double scale = 1.0;
    jnt_dim d = units_none;
    if (ue > u) {
        const char *at;
        if (units_parse(u, (size_t)(ue - u), &scale, &d, &at, &w) < 0) {
            if (why)
                *why = w;
            return -1;
        }
    }
    *si = v * scale;
    *dim = d;
    return 0;
}

/* Append printf-style text to buf[n] at *k, truncating safely. */
static void fmt_put(char *buf, size_t n, size_t *k, const char *text, const char *ex)
{
    if (*k >= n)
        return;
    int w = snprintf(buf + *k, n - *k, "%s%s", text, ex);
    if (w > 0)
        *k = (*k + (size_t)w < n) ? *k + (size_t)w : n - 1;
}

/* "^2", "^1.5", "^(1/3)" or "" for an exponent of |e| sixths. */
static void fmt_exponent(int e, char *out, size_t n)
{
    if (e == JNT_DIM_DEN)
        out[0] = '\0';
    else if (e % JNT_DIM_DEN == 0)
        snprintf(out, n, "^%d", e / JNT_DIM_DEN);
    else if ((2 * e) % JNT_DIM_DEN == 0)
        snprintf(out, n, "^%d.5", e / JNT_DIM_DEN);
    else {
        int a = e, b = JNT_DIM_DEN;
        for (int g = 2; g <= 3; g++)
            while (a % g == 0 && b % g == 0)
                a /= g, b /= g;
        snprintf(out, n, "^(%d/%d)", a, b);
    }
}

/* Readable form of a dimension: "N*s/m", "m/s^2", "1/s", "1". Force-like
 * dimensions (kg^1 with a negative power of s) are written in N, m and s. */
char *units_format(jnt_dim d, char *buf, size_t n)
{
    static const char *const base[JNT_NDIM] = {"kg", "m", "s", "A", "K"};
    const char *names[JNT_NDIM];
    int e[JNT_NDIM];
    size_t k = 0;
    if (n == 0)
        return buf;
    buf[0] = '\0';
    if (units_is_none(d)) {
        snprintf(buf, n, "1");
        return buf;
    }
    int newton = d.e[0] == D6 && d.e[2] <= -D6;
    for (int i = 0; i < JNT_NDIM; i++) {
        names[i] = base[i];
        e[i] = d.e[i];
    }
    if (newton) {
        names[0] = "N";
        e[1] -= D6;
        e[2] += 2 * D6;
    }
    char ex[16];
    int nnum = 0, nden = 0;
    for (int i = 0; i < JNT_NDIM; i++) {
        if (e[i] > 0) {
            fmt_exponent(e[i], ex, sizeof ex);
            fmt_put(buf, n, &k, nnum++ ? "*" : "", "");
            fmt_put(buf, n, &k, names[i], ex);
        } else if (e[i] < 0) {
            nden++;
        }
    }
    if (nnum == 0)
        fmt_put(buf, n, &k, "1", "");
    if (nden > 0) {
        fmt_put(buf, n, &k, nden > 1 ? "/(" : "/", "");
        int j = 0;
        for (int i = 0; i < JNT_NDIM; i++) {
            if (e[i] < 0) {
                fmt_exponent(-e[i], ex, sizeof ex);
                fmt_put(buf, n, &k, j++ ? "*" : "", "");
                fmt_put(buf, n, &k, names[i], ex);
            }
        }
        if (nden > 1)
            fmt_put(buf, n, &k, ")", "");
    }
    return buf;
}

/* See setup.h. */
char *units_column(const signed char *dims, const signed char *kinds, int i, char *buf,
                   size_t n)
{
    /* each kind's name and the dimension it must have (kg, m, s in sixths) */
    static const struct {
        const char *name;
        signed char e[3];
    } kind[] = {{"", {0, 0, 0}},        {"rad", {0, 0, 0}},  {"rad/s", {0, 0, -6}},
                {"rad/s^2", {0, 0, -12}}, {"J", {6, 12, -12}}, {"W", {6, 12, -18}}};
    units_entry(dims, i, buf, n);
    int k = kinds ? kinds[i] : 0;
    if (!dims || k <= 0 || k >= (int)(sizeof kind / sizeof kind[0]) || n == 0)
        return buf;
    const signed char *d = dims + (size_t)i * JNT_NDIM;
    if (d[0] == kind[k].e[0] && d[1] == kind[k].e[1] && d[2] == kind[k].e[2] && !d[3] && !d[4])
        snprintf(buf, n, "%s", kind[k].name);
    return buf;
}

/* See setup.h. */
char *units_entry(const signed char *dims, int i, char *buf, size_t n)
{
    jnt_dim dim;
    buf[0] = '\0';
    if (dims) {
        memcpy(dim.e, dims + (size_t)i * JNT_NDIM, sizeof dim.e);
        if (!units_is_none(dim))
            units_format(dim, buf, n);
    }
    return buf;
}
