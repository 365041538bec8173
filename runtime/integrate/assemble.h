/*
 * assemble.h: assembly of a multibody model at the start of a run
 * (internal; assemble.c, used by integ_dae_init.c).
 *
 * The positions a model gives its bodies are guesses. assemble_positions
 * moves them onto the constraint manifold C(q, t0) = 0 by damped
 * Gauss-Newton steps of least weighted change,
 *   min sum_i (dq_i / s_i)^2   subject to   C(q) + C_q dq = 0,
 * s_i the coordinate's scale (1 for a position, 1 / r_g for an angle, r_g
 * the body's radius of gyration: turning a body by dtheta counts as moving
 * it by r_g dtheta), solved by QR with column pivoting of (C_q S)^T (LAPACK dgeqp3):
 * the pivots that fall below 1e-9 of the first mark equations that are
 * combinations of the others. Rows that stay dependent on the manifold are
 * redundant constraints (dropped when the caller asks, else refused; named);
 * a rank lost only at the pose
 * found is a singular configuration (a toggle: refused, named); a residual
 * that stops decreasing is a mechanism that cannot close (refused, naming
 * the joints whose rows remain and by how much).
 */
#ifndef JNT_ASSEMBLE_H
#define JNT_ASSEMBLE_H

#include <stddef.h>

/* Extra rows the assembly satisfies besides the joints' constraints (the
 * model's pins and initial joint coordinates, issue 28 items 2-3). A
 * position row is r(t, q) = 0 (q = y[0 .. nq)), solved with the joints'
 * rows by assemble_positions; a velocity row is r(t, q, v) = 0, linear in v
 * (v = y[nq .. 2 nq)), solved with C_q v + C_t = 0 by the velocity
 * projection. Rows of both kinds count as constraints: a pin that fights a
 * joint is "cannot close", one that repeats a joint is "redundant". */
typedef struct assemble_rows {
    int n;                            /* rows */
    const char *const *names;         /* n names, "GROUP.ROW": messages name GROUP */
    const unsigned char *velocity;    /* n flags: 0 a position row, 1 a velocity row */
    /* Fill res (n) and grad (n x nq, row-major) at (t, y): grad row i is
     * d r_i / d q for a position row, d r_i / d v for a velocity row. Return
     * 0, or non-zero when it cannot (the run fails with the status). */
    int (*eval)(void *ctx, double t, const double *y, double *res, double *grad);
    void *ctx;
} assemble_rows;

/* The problem assemble_positions solves: m rows of n coordinates. */
typedef struct assemble_problem {
    int n, m;                   /* coordinates, rows */
    const char *const *q_names; /* n names "BODY.COORD" */
    const char *const *c_names; /* m names "JOINT.ROW" (the part before the last dot is
                                   the group a message names) */
    const double *scale;        /* n scales s_i > 0 of the weighted change */
    double tol;                 /* converged when max |C_k| <= tol */
    int no_rank_check;          /* 1: a q already within tol is accepted as it is, its
                                   rank not checked (a run resumed mid-way, which may
                                   pass a singular pose) */
    unsigned char *drop;        /* NULL: redundant constraints are refused; else m flags
                                   set to 1 for the rows dropped as redundant (rows of
                                   the first `droppable` only; a redundancy in the others,
                                   the pins, is still refused) */
    int droppable;
    double length;              /* the size of the largest body: a body moved further
                                   warns; the step along the manifold that tells redundant
                                   from singular is 1 % of it */
    /* C (m) and its gradient J (m x n, row-major) at q; J may be NULL (C
     * only). Returns 0 or non-zero (passed on). */
    int (*eval)(void *ctx, const double *q, double *c, double *J);
    void *ctx;
} assemble_problem;

/* What assemble_positions did. */
typedef struct assemble_info {
    int iterations;   /* Gauss-Newton steps */
    double residual;  /* max |C_k| at the end */
    double moved;     /* the largest distance a body's position moved (scaled norm of its
                         translational coordinates) */
    int rank;         /* rank of C_q at the end */
    int dropped;      /* rows dropped as redundant (p->drop), the message saying which */
} assemble_info;

enum { ASSEMBLE_OK = 0, ASSEMBLE_NOCLOSE = 1, ASSEMBLE_SINGULAR = 2, ASSEMBLE_REDUNDANT = 3,
       ASSEMBLE_NOMEM = 4, ASSEMBLE_EVAL = 5 };

/* Assemble q (n, in place) onto C(q) = 0 as above. Returns ASSEMBLE_OK (with
 * info->dropped rows marked in p->drop and msg saying which, when redundant
 * rows were dropped) or
 * another ASSEMBLE_* status with the reason in msg (len bytes, lower-case,
 * naming joints and residuals); ASSEMBLE_EVAL when p->eval failed (its
 * status in info->rank). A body moved further than p->length warns on
 * stderr ("jnt: warning: ..."), naming it and the distance. info may be
 * NULL. q is the best pose found even on failure. A body whose positions
 * were all 0 (not guessed) does not warn. */
int assemble_positions(const assemble_problem *p, double *q, assemble_info *info, char *msg,
                       size_t len);

/* The correction dx (n) of least weighted norm sum (dx_i / s_i)^2 with
 * J dx = b (J: m x n row-major), equations beyond the numerical rank
 * dropped. Returns the rank, or -1 when out of memory. */
int assemble_min_norm(int m, int n, const double *J, const double *b, const double *s,
                      double *dx);

#endif
