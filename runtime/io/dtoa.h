/*
 * dtoa.h: doubles to their shortest exact decimal text (internal; the CSV
 * writer's number format). Pure integer arithmetic on static const tables:
 * no state, safe on any number of threads (dtoa.c).
 */
#ifndef JNT_DTOA_H
#define JNT_DTOA_H

/* Write x into s (at least 32 bytes; 24 characters and the NUL at most) and
 * return the length. The digits are the fewest that strtod reads back to
 * exactly x (round to nearest, ties to even), and of those candidates the
 * one closest to x (ties to an even last digit), subnormals included. The
 * layout is printf's %g with as many significant digits as that: fixed
 * notation when the decimal exponent e of x = d.dd * 10^e is in -4..14
 * ("0.0001", "123.5", "100000000000000"), else "1.5e-07", "1e+15",
 * "5e-324" (two exponent digits at least); no trailing zeros, no trailing
 * '.'. Zero is "0" or "-0"; infinities and NaNs read as printf prints them:
 * "inf", "-inf", "nan", "-nan" (a NaN with its sign bit set). */
int dtoa_shortest(char *s, double x);

#endif
