/*
 * slide_eig.h: eigenvalues of substructures coupled at frozen contacts on
 * the substructures' modes (internal; runtime/couple/slide_eig.c, used by
 * slide_modes.c).
 */
#ifndef JNT_SLIDE_EIG_H
#define JNT_SLIDE_EIG_H

#include <stddef.h>

/* The coupled system in modal coordinates: N modes (all substructures)
 * with squared circular frequencies w2 and modal damping d, na contacts
 * with gap rows nr and force rows er (row k at + k N), rigid (kc = 0) or
 * penalty (kc > 0, N/m). */
typedef struct slide_eigsys {
    int N;
    const double *w2, *d;
    int na;
    const double *nr, *er;
    double kc;
} slide_eigsys;

/* No contact: the 2 N roots of s^2 + d_i s + w2_i = 0 into sr, si (each
 * 2 N). Returns 2 N. */
int slide_eig_free(const slide_eigsys *e, double *sr, double *si);

/* 1 when d = a + b w2 for every mode (to 1e-9 of the terms; a, b out),
 * else 0: the damping is proportional for the coupled system too. */
int slide_eig_proportional(const slide_eigsys *e, double *a, double *b);

/* The secular iteration did not converge or failed its check. */
#define SLIDE_EIG_NOCONV 1

/* Frictionless contacts (er = nr) and d = a + b w2: the eigenvalues of the
 * symmetric constrained (or penalised) stiffness by dsyevd, each giving
 * the roots of s^2 + (a + b kappa) s + kappa. Writes 2 (N - na) (rigid)
 * or 2 N (penalty) values to sr, si (room for 2 N) and their count to
 * *nroot. 0 or < 0 (message: dependent constraints, LAPACK failure). */
int slide_eig_sym(const slide_eigsys *e, double a, double b, double *sr, double *si, int *nroot,
                  char *err, size_t errn);

/* One rigid contact (na = 1, kc = 0), any d: the 2 (N - 1) roots of the
 * secular equation sum_i n_i e_i / (s^2 + d_i s + w2_i) = 0 and the free
 * roots of the modes with n_i e_i = 0, into sr, si (room for 2 N; they
 * also hold the iterates), their count to *nroot. 0, SLIDE_EIG_NOCONV when
 * the iteration did not converge or failed its check (the sum of the
 * roots), or < 0 (message: singular contact matrix, out of memory). */
int slide_eig_secular(const slide_eigsys *e, double *sr, double *si, int *nroot, char *err,
                      size_t errn);

#endif
