/*
 * test_units.c: dimensions, unit words, unit expressions, quantities and
 * their readable form (runtime/setup/units.c). References: SI brochure (9th ed.)
 * for the unit definitions and prefixes.
 */
#include <string.h>

#include "check.h"
#include "jnt/setup.h"

#define PI 3.14159265358979323846

/* A dimension from integer exponents of kg, m, s, A, K. */
static jnt_dim dim5(int kg, int m, int s, int a, int k)
{
    jnt_dim d = {{(signed char)(6 * kg), (signed char)(6 * m), (signed char)(6 * s),
                  (signed char)(6 * a), (signed char)(6 * k)}};
    return d;
}

/* Parse a whole unit expression; scale (NaN on error) and dimension. */
static double parse(const char *s, jnt_dim *d)
{
    double sc;
    const char *at, *why;
    if (units_parse(s, strlen(s), &sc, d, &at, &why) < 0)
        return NAN;
    return sc;
}

static int fmt_is(jnt_dim d, const char *want)
{
    char buf[64];
    units_format(d, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        printf("  units_format gave '%s', want '%s'\n", buf, want);
    return strcmp(buf, want) == 0;
}

int main(void)
{
    jnt_dim d;
    double sc, v;
    const char *why, *at;
    (void)test_out;

    /* unit words (SI brochure: prefixes n u µ m c k M G; derived units) */
    CHECK(units_lookup("mm", 2, &sc, &d) == 0 && sc == 1e-3 && units_equal(d, dim5(0, 1, 0, 0, 0)),
          "mm = 1e-3 m (SI prefix milli)");
    CHECK(units_lookup("GPa", 3, &sc, &d) == 0 && sc == 1e9 && units_equal(d, dim5(1, -1, -2, 0, 0)),
          "GPa = 1e9 kg/(m s^2)");
    CHECK(units_lookup("kg", 2, &sc, &d) == 0 && sc == 1.0 && units_equal(d, dim5(1, 0, 0, 0, 0)),
          "kg is the SI base unit of mass");
    CHECK(units_lookup("g", 1, &sc, &d) == 0 && sc == 1e-3, "g = 1e-3 kg");
    CHECK(units_lookup("\xc2\xb5m", 3, &sc, &d) == 0 && sc == 1e-6, "µm (U+00B5) = 1e-6 m");
    CHECK(units_lookup("\xce\xbcs", 3, &sc, &d) == 0 && sc == 1e-6, "μs (U+03BC) = 1e-6 s");
    CHECK(units_lookup("us", 2, &sc, &d) == 0 && sc == 1e-6, "us = 1e-6 s");
    CHECK(units_lookup("min", 3, &sc, &d) == 0 && sc == 60.0 && units_equal(d, dim5(0, 0, 1, 0, 0)),
          "min = 60 s (not milli-'in')");
    CHECK(units_lookup("deg", 3, &sc, &d) == 0 && fabs(sc - PI / 180) < 1e-17 && units_is_none(d),
          "deg = pi/180, dimensionless");
    CHECK(units_lookup("rpm", 3, &sc, &d) == 0 && fabs(sc - 2 * PI / 60) < 1e-16 &&
              units_equal(d, dim5(0, 0, -1, 0, 0)),
          "rpm = 2 pi / 60 1/s");
    CHECK(units_lookup("kHz", 3, &sc, &d) == 0 && sc == 1e3 && units_equal(d, dim5(0, 0, -1, 0, 0)),
          "kHz = 1e3 1/s");
    CHECK(units_lookup("mbar", 4, &sc, &d) == 0 && fabs(sc - 100.0) < 1e-12, "mbar = 100 Pa");
    CHECK(units_lookup("foo", 3, &sc, &d) < 0, "unknown word 'foo' is rejected");
    CHECK(units_lookup("ms", 1, &sc, &d) == 0 && sc == 1.0 && units_equal(d, dim5(0, 1, 0, 0, 0)),
          "lookup reads only n characters: 'm' of 'ms' is the metre");

    /* expressions */
    sc = parse("m/s^2", &d);
    CHECK(sc == 1.0 && units_equal(d, dim5(0, 1, -2, 0, 0)), "m/s^2");
    sc = parse("N*s/m", &d);
    CHECK(sc == 1.0 && units_equal(d, dim5(1, 0, -1, 0, 0)), "N*s/m = kg/s");
    sc = parse("/s", &d);
    CHECK(sc == 1.0 && units_equal(d, dim5(0, 0, -1, 0, 0)), "leading slash: /s = 1/s");
    sc = parse("1/m", &d);
    CHECK(sc == 1.0 && units_equal(d, dim5(0, -1, 0, 0, 0)), "1/m");
    sc = parse("N/mm^3", &d);
    CHECK(fabs(sc - 1e9) < 1e-3 && units_equal(d, dim5(1, -2, -2, 0, 0)), "N/mm^3 = 1e9 N/m^3");
    sc = parse("s^-1", &d);
    CHECK(sc == 1.0 && units_equal(d, dim5(0, 0, -1, 0, 0)), "s^-1");
    sc = parse("N/m^1.5", &d);
    {
        jnt_dim w = {{6, -3, -12, 0, 0}};
        CHECK(sc == 1.0 && units_equal(d, w), "N/m^1.5: m exponent -1/2 (in sixths: -3)");
    }
    sc = parse("kg/(m*s^2)", &d);
    CHECK(sc == 1.0 && units_equal(d, dim5(1, -1, -2, 0, 0)), "kg/(m*s^2) = Pa");
    sc = parse("m^(1/3)", &d);
    {
        jnt_dim w = {{0, 2, 0, 0, 0}};
        CHECK(sc == 1.0 && units_equal(d, w), "m^(1/3): exponent 2/6");
    }
    CHECK(units_parse("m^0.25", 6, &sc, &d, &at, &why) < 0 && strstr(why, "1/6"),
          "m^0.25 rejected: not a multiple of 1/6 (%s)", why);
    CHECK(units_parse("m/furlong", 9, &sc, &d, &at, &why) < 0 && at && strncmp(at, "furlong", 7) == 0,
          "unknown unit reported at 'furlong' (%s)", why);
    CHECK(units_parse("m s", 3, &sc, &d, &at, &why) < 0, "space inside a unit is rejected");
    CHECK(units_parse("", 0, &sc, &d, &at, &why) < 0, "empty unit is rejected");
    CHECK(units_parse("m*", 2, &sc, &d, &at, &why) < 0, "dangling '*' is rejected");

    /* quantities */
    CHECK(units_parse_quantity("0.3ms", &v, &d, &why) == 0 && fabs(v - 3e-4) < 1e-19 &&
              units_equal(d, dim5(0, 0, 1, 0, 0)),
          "0.3ms = 3e-4 s");
    CHECK(units_parse_quantity("2 kg", &v, &d, &why) == 0 && v == 2.0 &&
              units_equal(d, dim5(1, 0, 0, 0, 0)),
          "2 kg");
    CHECK(units_parse_quantity("5e6 N/m", &v, &d, &why) == 0 && v == 5e6 &&
              units_equal(d, dim5(1, 0, -2, 0, 0)),
          "5e6 N/m");
    CHECK(units_parse_quantity("-1.5", &v, &d, &why) == 0 && v == -1.5 && units_is_none(d),
          "-1.5 is dimensionless");
    CHECK(units_parse_quantity("  10 mm/s ", &v, &d, &why) == 0 && fabs(v - 0.01) < 1e-17,
          "spaces around are allowed: 10 mm/s = 0.01 m/s");
    CHECK(units_parse_quantity("90 deg", &v, &d, &why) == 0 && fabs(v - PI / 2) < 1e-15,
          "90 deg = pi/2");
    CHECK(units_parse_quantity("2.38 GPa", &v, &d, &why) == 0 && fabs(v - 2.38e9) < 1e-3,
          "2.38 GPa");
    CHECK(units_parse_quantity("abc", &v, &d, &why) < 0, "no number: rejected (%s)", why);
    CHECK(units_parse_quantity("3 furlongs", &v, &d, &why) < 0, "unknown unit: rejected (%s)", why);
    CHECK(units_parse_quantity("nan", &v, &d, &why) < 0, "nan is not a quantity");

    /* arithmetic */
    CHECK(units_pow(dim5(0, 1, 0, 0, 0), 1, 2, &d) == 0 && d.e[1] == 3, "m^(1/2): 3 sixths");
    CHECK(units_pow(dim5(0, 1, 0, 0, 0), 1, 4, &d) < 0, "m^(1/4) is not representable");
    CHECK(units_equal(units_div(units_mul(dim5(1, 1, -2, 0, 0), dim5(0, 1, 0, 0, 0)),
                                dim5(0, 0, 1, 0, 0)),
                      dim5(1, 2, -3, 0, 0)),
          "N*m/s = W");

    /* readable form */
    CHECK(fmt_is(dim5(1, 1, -2, 0, 0), "N"), "kg*m/s^2 -> N");
    CHECK(fmt_is(dim5(1, 0, -2, 0, 0), "N/m"), "kg/s^2 -> N/m");
    CHECK(fmt_is(dim5(1, 0, -1, 0, 0), "N*s/m"), "kg/s -> N*s/m");
    CHECK(fmt_is(dim5(1, -1, -2, 0, 0), "N/m^2"), "kg/(m*s^2) -> N/m^2");
    CHECK(fmt_is(dim5(0, 1, -2, 0, 0), "m/s^2"), "m/s^2 -> m/s^2");
    CHECK(fmt_is(dim5(0, 0, -1, 0, 0), "1/s"), "1/s -> 1/s");
    CHECK(fmt_is(units_none, "1"), "dimensionless -> 1");
    CHECK(fmt_is(dim5(1, 0, 0, 0, 0), "kg"), "kg -> kg");
    CHECK(fmt_is(dim5(1, -3, 0, 0, 0), "kg/m^3"), "kg/m^3 -> kg/m^3");
    CHECK(fmt_is(dim5(0, -1, -1, 0, 0), "1/(m*s)"), "1/(m*s)");
    {
        jnt_dim w = {{6, -3, -12, 0, 0}};
        CHECK(fmt_is(w, "N/m^1.5"), "N/m^1.5 -> N/m^1.5");
        jnt_dim t = {{0, 2, 0, 0, 0}};
        CHECK(fmt_is(t, "m^(1/3)"), "m^(1/3)");
    }
    /* round trip: format, parse back, same dimension */
    {
        jnt_dim all[] = {dim5(1, 0, -1, 0, 0), dim5(1, -1, -2, 0, 0), dim5(0, -1, -1, 0, 0),
                         {{6, -3, -12, 0, 0}}, {{0, 2, 0, 0, 0}}, dim5(2, 1, -3, 1, -1)};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
            char buf[64];
            units_format(all[i], buf, sizeof buf);
            parse(buf, &d);
            CHECK(units_equal(d, all[i]), "round trip of '%s'", buf);
        }
    }
    return check_done();
}
