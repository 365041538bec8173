/*
 * test_assemble.c: runtime/integrate/assemble.c on problems small enough to
 * solve by hand: the least weighted change of a linear row, a repeated row
 * dropped by the rank, a point pulled onto a circle (the nearest point),
 * a circle and a line that do not meet (refused, naming the rows' group),
 * and two rows repeating each other (refused as redundant).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "integrate/assemble.h"

/* The least change of (x, y) with weights s = (1, 2) that makes x + y = 2:
 * dx = S^2 J^T mu, so (mu, 4 mu), 5 mu = 2. */
static void min_norm(void)
{
    const double J[2] = {1, 1}, b[1] = {2}, s[2] = {1, 2};
    double dx[2];
    int r = assemble_min_norm(1, 2, J, b, s, dx);
    CHECK(r == 1 && fabs(dx[0] - 0.4) < 1e-15 && fabs(dx[1] - 1.6) < 1e-15,
          "weighted least change: (%.17g, %.17g), want (0.4, 1.6), rank %d", dx[0], dx[1], r);
    /* the same row twice: rank 1, the same answer */
    const double J2[4] = {1, 1, 1, 1}, b2[2] = {2, 2};
    r = assemble_min_norm(2, 2, J2, b2, s, dx);
    CHECK(r == 1 && fabs(dx[0] - 0.4) < 1e-15 && fabs(dx[1] - 1.6) < 1e-15,
          "a repeated row is dropped by the rank: rank %d, (%.17g, %.17g)", r, dx[0], dx[1]);
}

/* rows: x^2 + y^2 - R^2 (group "ring"), and optionally y - c ("rail") or
 * the circle again ("ring2") */
typedef struct prob {
    double R, c;
    int kind; /* 0: circle; 1: circle and line y = c; 2: circle twice */
} prob;

static int eval(void *ctx, const double *q, double *c, double *J)
{
    const prob *p = ctx;
    c[0] = q[0] * q[0] + q[1] * q[1] - p->R * p->R;
    if (J)
        J[0] = 2 * q[0], J[1] = 2 * q[1];
    if (p->kind == 1) {
        c[1] = q[1] - p->c;
        if (J)
            J[2] = 0, J[3] = 1;
    } else if (p->kind == 2) {
        c[1] = 2 * c[0];
        if (J)
            J[2] = 4 * q[0], J[3] = 4 * q[1];
    }
    return 0;
}

static void positions(void)
{
    static const char *const qn[2] = {"p.x", "p.y"};
    static const char *const cn[2] = {"ring.r", "rail.y"};
    static const char *const cn2[2] = {"ring.r", "ring2.r"};
    const double s[2] = {1, 1};
    char msg[512];
    assemble_info info;
    /* the nearest point of the unit circle to (2, 1) is (2, 1) / sqrt(5) */
    prob p0 = {.R = 1, .kind = 0};
    assemble_problem a = {.n = 2, .m = 1, .q_names = qn, .c_names = cn, .scale = s,
                          .tol = 1e-14, .length = 10, .eval = eval, .ctx = &p0};
    double q[2] = {2, 1};
    int rc = assemble_positions(&a, q, &info, msg, sizeof msg);
    double e = hypot(q[0] - 2 / sqrt(5), q[1] - 1 / sqrt(5));
    CHECK(rc == ASSEMBLE_OK && info.residual <= 1e-14 && e < 1e-7,
          "onto the circle from (2, 1): (%.12f, %.12f), %.3g from the nearest point (Gauss-Newton "
          "steps of least change reach it to second order in the distance: 1e-7), %d steps", q[0],
          q[1], e, info.iterations);
    /* the circle and the line y = 2 do not meet */
    prob p1 = {.R = 1, .c = 2, .kind = 1};
    a.m = 2, a.ctx = &p1;
    q[0] = 0.5, q[1] = 0.5;
    rc = assemble_positions(&a, q, &info, msg, sizeof msg);
    CHECK(rc == ASSEMBLE_NOCLOSE && strstr(msg, "the joints cannot be assembled: the constraints "
                                                "of joints 'ring' (") &&
          strstr(msg, "'rail' ("), "a circle and a line that do not meet: %s", msg);
    /* the circle twice: redundant */
    prob p2 = {.R = 1, .kind = 2};
    a.c_names = cn2, a.ctx = &p2;
    q[0] = 2, q[1] = 1;
    rc = assemble_positions(&a, q, &info, msg, sizeof msg);
    CHECK(rc == ASSEMBLE_REDUNDANT && strstr(msg, "joints 'ring' and 'ring2' constrain the same "
                                                  "motion more than once: 1 of their equations "
                                                  "is a combination of the others"),
          "a row repeated: %s", msg);
}

int main(void)
{
    min_norm();
    positions();
    return check_done();
}
