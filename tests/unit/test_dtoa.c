/*
 * test_dtoa.c: the shortest round-trip text of a double (runtime/io/dtoa.c):
 * exact layouts; strtod reading every output back to the same bits, over
 * random bit patterns (subnormals included), simulation-like values and the
 * edges of every binade; the fewest digits and the closest candidate,
 * against glibc's correctly rounded printf; the speed against
 * snprintf("%.17g"), printed for information.
 */
#include <float.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "io/dtoa.h"

static uint64_t rng_state = 0x243f6a8885a308d3ull;

/* splitmix64: a fixed sequence, so a failure reproduces. */
static uint64_t rnd(void)
{
    uint64_t z = rng_state += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double from_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

static uint64_t to_bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static int reads_back(const char *s, double x)
{
    return to_bits(strtod(s, NULL)) == to_bits(x);
}

/* A finite double from a uniform bit pattern; one in 16 subnormal. */
static double random_double(void)
{
    for (;;) {
        uint64_t b = rnd();
        if (rnd() % 16 == 0)
            b &= ~(0x7ffull << 52);
        if (((b >> 52) & 0x7ff) != 0x7ff)
            return from_bits(b);
    }
}

/* Values a simulation writes: k 10^-j, ratios of small integers, 1e-5 k,
 * 0.1 k, and decimals of up to 15 random digits as read from a model. */
static double sim_value(void)
{
    uint64_t r = rnd();
    long k = (long)(r >> 8 & 0xfffff);
    switch (r % 5) {
    case 0:
        return (double)k * pow(10, -(int)(r >> 40 & 31));
    case 1:
        return (double)(k % 1000 + 1) / (double)((r >> 40 & 1023) | 1);
    case 2:
        return 1e-5 * (double)k;
    case 3:
        return 0.1 * (double)k;
    default: {
        char s[40];
        snprintf(s, sizeof s, "%llue%d", (unsigned long long)(rnd() % 1000000000000000ull),
                 (int)(r >> 40 & 63) - 40);
        return strtod(s, NULL) * (r & 1 << 20 ? -1 : 1);
    }
    }
}

/* (1) Exact texts: the layout of %g with the digits dtoa_shortest picks. */
static void check_layout(void)
{
    static const struct {
        double x;
        const char *want;
    } t[] = {
        {0.0, "0"},
        {-0.0, "-0"},
        {1.0, "1"},
        {-1.0, "-1"},
        {0.1, "0.1"},
        {0.3, "0.3"},
        {1.0 / 3.0, "0.3333333333333333"},
        {0.30000000000000004, "0.30000000000000004"},
        {1e-5, "1e-05"},
        {-1.5e-7, "-1.5e-07"},
        {0.0001, "0.0001"},
        {0.001, "0.001"},
        {123.5, "123.5"},
        {100.0, "100"},
        {12345.678, "12345.678"},
        {1e14, "100000000000000"},
        {123456789012345.0, "123456789012345"},
        {1e15, "1e+15"},
        {9007199254740992.0, "9.007199254740992e+15"},
        {1e23, "1e+23"},
        {1e100, "1e+100"},
        {1e-100, "1e-100"},
        {2.91908600631154e-14, "2.91908600631154e-14"},
        {1.2345678901234568e-5, "1.2345678901234568e-05"},
        {9.5367431640625e-07, "9.5367431640625e-07"},
        /* 2^-1017: printf's 16 digits "...044e-307" are closer but fall
         * out of the narrow lower half of the interval; "...045" is in */
        {7.120236347223045e-307, "7.120236347223045e-307"},
        {5e-324, "5e-324"},
        {1.5e-323, "1.5e-323"},
        {2.2250738585072014e-308, "2.2250738585072014e-308"},
        {2.225073858507201e-308, "2.225073858507201e-308"},
        {1.7976931348623157e308, "1.7976931348623157e+308"},
        {-1.7976931348623157e308, "-1.7976931348623157e+308"},
        {INFINITY, "inf"},
        {-INFINITY, "-inf"},
        {NAN, "nan"},
        {-NAN, "-nan"},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        char s[32];
        int n = dtoa_shortest(s, t[i].x);
        CHECK(strcmp(s, t[i].want) == 0 && n == (int)strlen(s), "dtoa_shortest(%.17g) = \"%s\"",
              t[i].x, t[i].want);
        if (strcmp(s, t[i].want) != 0)
            printf("# got \"%s\"\n", s);
    }
    char s[32], p[32];
    dtoa_shortest(s, -NAN);
    snprintf(p, sizeof p, "%g", -NAN);
    CHECK(strcmp(s, p) == 0, "a NaN with its sign bit reads \"%s\" as printf's %%g", p);
}

/* Round trips of n values from gen; returns the failures, prints the first. */
static int round_trips(double (*gen)(void), int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        double x = gen();
        char s[32];
        int len = dtoa_shortest(s, x);
        if (!reads_back(s, x) || len != (int)strlen(s) || len > 24) {
            if (bad++ == 0)
                printf("# %a (%.17g) wrote \"%s\"\n", x, x, s);
        }
    }
    return bad;
}

/* The edges of every binade: each power of two (the asymmetric interval),
 * its neighbours, the largest values, the smallest subnormals. */
static int edge_index;
static double edge_value(void)
{
    int i = edge_index++;
    if (i < 3 * 2046) { /* 2^q, q = -1022..1023, and its two neighbours */
        double p = ldexp(1.0, i / 3 - 1022);
        return i % 3 == 0 ? p : i % 3 == 1 ? nextafter(p, 0) : nextafter(p, INFINITY);
    }
    i -= 3 * 2046;
    return i % 2 ? from_bits(0x7fefffffffffffffull - (uint64_t)i) : from_bits((uint64_t)i + 1);
}

/* (1) strtod reads every output back to the same bits. */
static void check_round_trip(void)
{
    int n = 2000000;
    int bad = round_trips(random_double, n);
    CHECK(bad == 0, "round trip: %d random bit patterns, all exponents, 1 in 16 subnormal (%d "
                    "failed)", n, bad);
    bad = round_trips(sim_value, 500000);
    CHECK(bad == 0, "round trip: 500000 simulation-like values (%d failed)", bad);
    bad = round_trips(edge_value, 3 * 2046 + 20000);
    CHECK(bad == 0, "round trip: powers of two and their neighbours, 20000 extremes (%d failed)",
          bad);
}

/* Whether some decimal of m significant digits reads back to x > 0. Only
 * x's two neighbours on the m-digit grid can: the one printf rounds to and
 * the next one on the other side of x. */
static int m_digits_read_back(double x, int m)
{
    char s[48];
    snprintf(s, sizeof s, "%.*e", m - 1, x);
    if (reads_back(s, x))
        return 1;
    /* "d.ddde+XX" as the integer D times 10^(E - m + 1) */
    unsigned long long d = 0;
    const char *c = s;
    for (; *c != 'e'; c++)
        if (*c != '.')
            d = 10 * d + (unsigned long long)(*c - '0');
    int e = atoi(c + 1) - m + 1;
    if (strtod(s, NULL) > x && d == (unsigned long long)pow(10, m - 1)) /* below 10^E: m nines */
        snprintf(s, sizeof s, "%llue%d", 10 * d - 1, e - 1);
    else
        snprintf(s, sizeof s, "%llue%d", strtod(s, NULL) > x ? d - 1 : d + 1, e);
    return reads_back(s, x);
}

/* What printf makes of x with dtoa_shortest's digit count n: %g's layout
 * rounding to n digits (more when fixed notation shows an integer's zeros). */
static void printf_text(char *p, size_t size, double x, int n)
{
    char e[48];
    snprintf(e, sizeof e, "%.*e", n - 1, fabs(x));
    int ex = atoi(strchr(e, 'e') + 1);
    if (ex >= -4 && ex < 15)
        snprintf(p, size, "%.*g", n > ex + 1 ? n : ex + 1, x);
    else
        snprintf(p, size, "%.*e", n - 1, x);
}

/* Significant digits of a decimal text: leading and trailing zeros left out. */
static int sig_digits(const char *s)
{
    int n = 0, zeros = 0;
    for (; *s && *s != 'e'; s++) {
        if (*s == '0') {
            zeros += n > 0;
        } else if (*s >= '1' && *s <= '9') {
            n += zeros + 1;
            zeros = 0;
        }
    }
    return n;
}

/* Outcomes of shortest_ok. */
typedef struct {
    int bad;   /* does not read back, or a shorter decimal does */
    int same;  /* equal to printf's text with that many digits */
    int worse; /* differs although printf's text reads back (not closest) */
} tally;

/* Shortest and closest for n values from gen. */
static tally shortest_ok(double (*gen)(void), int n)
{
    tally t = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        double x = gen();
        char s[32], p[48];
        dtoa_shortest(s, x);
        int digits = sig_digits(s);
        if (!reads_back(s, x) || (digits > 1 && m_digits_read_back(fabs(x), digits - 1))) {
            if (t.bad++ == 0)
                printf("# not shortest: %.17g wrote \"%s\"\n", x, s);
        }
        printf_text(p, sizeof p, x, digits);
        if (strcmp(s, p) == 0) {
            t.same++;
        } else if (reads_back(p, x)) {
            if (t.worse++ == 0)
                printf("# not closest: %.17g wrote \"%s\", printf \"%s\"\n", x, s, p);
        }
    }
    return t;
}

static double random_nonzero(void)
{
    double x;
    while ((x = random_double()) == 0)
        ;
    return x;
}

static double sim_nonzero(void)
{
    double x;
    while ((x = sim_value()) == 0)
        ;
    return x;
}

/* (2) The fewest digits: no decimal with one digit less reads back (the
 * round-trip property only grows with the digit count, so this is "the
 * least p for which printf's %.*e with p digits reads back" whenever
 * printf's rounding reads back at all); and the same text as printf with
 * that many digits, i.e. the closest candidate, but for rare exceptions. */
static void check_shortest(void)
{
    int n = 200000;
    tally t = shortest_ok(random_nonzero, n);
    CHECK(t.bad == 0, "shortest: %d random bit patterns (%d not)", n, t.bad);
    CHECK(t.same >= n - n / 1000 && t.worse == 0, "closest: %d of %d random bit patterns as "
          "printf's at that digit count (>= 99.9%%), %d closer ones missed", t.same, n, t.worse);
    n = 100000;
    t = shortest_ok(sim_nonzero, n);
    CHECK(t.bad == 0, "shortest: %d simulation-like values (%d not)", n, t.bad);
    CHECK(t.same >= n - n / 1000 && t.worse == 0, "closest: %d of %d simulation-like values as "
          "printf (>= 99.9%%), %d closer ones missed", t.same, n, t.worse);
    /* powers of two: printf's closer rounding may fall out of the narrow
     * lower half of the interval, where a decimal above still reads back */
    n = 3 * 2046;
    edge_index = 0;
    t = shortest_ok(edge_value, n);
    CHECK(t.bad == 0 && t.worse == 0, "shortest and closest: the powers of two and their "
          "neighbours (%d not shortest, %d closer missed; %d of %d as printf)", t.bad, t.worse,
          t.same, n);
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The speed on a million values like a result file's: a time column, smooth
 * responses with all 17 digits, parameters with few. Printed, not checked. */
static void bench(void)
{
    enum { N = 1000000 };
    static double v[N];
    for (int i = 0; i < N; i++)
        v[i] = i % 3 == 0   ? 1e-4 * (double)i
               : i % 3 == 1 ? 0.05 * sin(1e-3 * (double)i) * exp(-1e-6 * (double)i)
                            : sim_value();
    char s[48];
    size_t sum = 0;
    double t0 = seconds();
    for (int i = 0; i < N; i++)
        sum += (size_t)dtoa_shortest(s, v[i]);
    double t1 = seconds();
    for (int i = 0; i < N; i++)
        sum += (size_t)snprintf(s, sizeof s, "%.17g", v[i]);
    double t2 = seconds();
    printf("# dtoa_shortest %.1f ns/number, snprintf(\"%%.17g\") %.1f ns/number (%d values, %zu "
           "chars)\n", 1e9 * (t1 - t0) / N, 1e9 * (t2 - t1) / N, N, sum);
}

int main(void)
{
    check_layout();
    check_round_trip();
    check_shortest();
    bench();
    return check_done();
}
