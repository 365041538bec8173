/*
 * check.h: the unit-test harness. Each test program prints one line per
 * check, "PASS: name" or "FAIL: name: why", and exits with the number of
 * failures (capped at 100). tests/run.sh counts the lines.
 */
#ifndef JNT_CHECK_H
#define JNT_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;

/* CHECK(cond, name, ...): one check; the printf-style tail names it. */
#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (cond) {                                                             \
            printf("PASS: ");                                                   \
        } else {                                                                \
            printf("FAIL: %s:%d: ", __FILE__, __LINE__);                        \
            check_failures++;                                                   \
        }                                                                       \
        printf(__VA_ARGS__);                                                    \
        printf("\n");                                                           \
    } while (0)

/* |got - want| <= tol, printing both values. */
#define CHECK_NEAR(got, want, tol, name)                                        \
    do {                                                                        \
        double g_ = (got), w_ = (want), t_ = (tol);                             \
        CHECK(fabs(g_ - w_) <= t_, "%s: got %.10g, want %.10g (tol %.3g)", name, \
              g_, w_, t_);                                                      \
    } while (0)

/* Relative tolerance. */
#define CHECK_REL(got, want, rel, name)                                         \
    do {                                                                        \
        double g_ = (got), w_ = (want), r_ = (rel);                             \
        CHECK(fabs(g_ - w_) <= r_ * fabs(w_), "%s: got %.10g, want %.10g (rel %.3g)", \
              name, g_, w_, r_);                                                \
    } while (0)

/* MEASURE(key, value): a figure the docs quote, printed as "MEASURE: key
 * value"; tests/run.sh collects these lines and tests/docs/numbers.py checks
 * each figure marked <!--m:key--> in docs/ and examples/ against them
 * (docs/testing.md, "Numbers in the docs"). */
#define MEASURE(key, value) printf("MEASURE: %s %.17g\n", (key), (double)(value))

/* Path of a scratch file in $JNT_TEST_OUT (tests/run.sh sets it to the
 * build's tests directory), else build/tests. Eight buffers rotate. */
__attribute__((unused)) static const char *test_out(const char *name)
{
    static char buf[8][512];
    static int k;
    const char *dir = getenv("JNT_TEST_OUT");
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir && *dir ? dir : "build/tests", name);
    return buf[k];
}

/* K(k), the complete elliptic integral of the first kind, by the
 * arithmetic-geometric mean: K = pi / (2 AGM(1, sqrt(1 - k^2))) (the closed
 * forms of pendulum, top and tumbling-body periods). */
__attribute__((unused)) static double ellip_k(double k)
{
    double a = 1, b = sqrt(1 - k * k);
    for (int i = 0; i < 60 && fabs(a - b) > 1e-16 * a; i++) {
        double an = (a + b) / 2;
        b = sqrt(a * b);
        a = an;
    }
    return 3.14159265358979323846 / (2 * a);
}

__attribute__((unused)) static int check_done(void)
{
    return check_failures > 100 ? 100 : check_failures;
}

#endif
