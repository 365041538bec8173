/*
 * test_flex_sparse.c: unreduced flexible2d bodies kept sparse (issue 30
 * item 5; core/flex.c's JNT_BLOCK_FFRF_SPARSE, setup/red_ffrf_sparse.c,
 * core/eval.c's sparse DAE path). The same pinned sheet (test_flex.c's:
 * turned, spinning, deformed, a spring on a node, gravity, Rayleigh
 * damping) unreduced twice: dense (no 'reduce', below JNT_MAX_BLOCK) and
 * sparse ('reduce = none'). At a general state
 *   - the right-hand sides agree to rounding (1e-12 of the largest);
 *   - the Jacobians in y agree (the public dense one of each, 1e-12), and
 *     the sparse model's values in its own pattern (what the integrator
 *     reads) are that Jacobian's entries, none lost outside the pattern;
 *   - so are the mass matrices;
 *   - the sparse pattern is a fraction of the dense one's;
 *   - the same at two more states, one differing from the last in q_fd
 *     only, the next in q_f only (flex.c keeps the products with M of the
 *     last state: a stale one would show here);
 * then both run 50 ms (frame held, gravity) and their tips agree (1e-8 m:
 * the two Newton matrices are the same numbers, factorised by LAPACK and
 * KLU); and a sparse
 * substructure that is no flexible2d body, or one beside a flexible3d
 * body, is a located error.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "jnt/jnt.h"

/* the model: its reduce line, the pin's kind, the spring (or none) and
 * the integrator's settings */
static const char *const model_fmt =
    "model flexs\n"
    "param g = 9.81 m/s^2\n"
    "param k = 50 N/m\n"
    "substructure sheet : plate2d(lx = 300 mm, ly = 1 mm, thickness = 20 mm, E = 210 GPa,\n"
    "                             nu = 0.3, rho = 7850 kg/m^3, nx = 12, ny = 1) {\n"
    "  fix     = left\n"
    "  damping = rayleigh(alpha = 3 /s, beta = 1e-5 s)\n"
    "  %s\n"
    "}\n"
    "body beam : flexible2d(substructure = sheet) {\n"
    "  marker tip = top_right\n"
    "  marker base = (0 m, 0 m)\n"
    "}\n"
    "joint pin : %s(beam.base, (0 m, 0 m))\n"
    "%s\n"
    "simulate { integrator = hht(%s)  until = 50 ms  gravity = (0.3 m/s^2, -g) }\n"
    "output \"flexs.csv\" every 5 ms { t, tipx = beam.tip.x, tipy = beam.tip.y }\n";

static const char spring[] = "spring s between beam.tip and (0.2 m, -0.1 m) "
                             "{ stiffness = k  length = 0.05 m }";

/* run: the frame held, gravity only, HHT's step control at rtol 1e-3
 * (the unreduced sheet's highest modes make the default 1e-5 reject most
 * steps, dense and sparse alike) */
static jnt_model *compile(const char *name, const char *reduce, int run)
{
    char text[2048];
    snprintf(text, sizeof text, model_fmt, reduce, run ? "fixed" : "revolute", run ? "" : spring,
             run ? "h = 0.1 ms, rtol = 1e-3, atol = 1e-6" : "h = 1 ms");
    jnt_model *m = NULL;
    int rc = jnt_compile_string(name, text, NULL, &m);
    CHECK(rc == JNT_OK, "the unreduced sheet with '%s' compiles", reduce[0] ? reduce : "no reduce");
    return rc == JNT_OK ? m : NULL;
}

/* A general state: every coordinate and velocity nonzero (test_flex.c's). */
static void state(const jnt_abi_model *a, double *y)
{
    for (int i = 0; i < a->ny; i++)
        y[i] = (i < a->nq ? 1e-5 : 0.01) * sin(1.7 * i + 0.3);
    y[0] = 0.02, y[1] = -0.01, y[2] = 0.7;
    y[a->nq] = 0.3, y[a->nq + 1] = -0.2, y[a->nq + 2] = 2.1;
    for (int i = 0; i < a->nc; i++)
        y[a->ny - a->nc + i] = 0.5 + i;
}

/* Largest |a - b| and |a| over n. */
static void diff(int n, const double *a, const double *b, double *e, double *s)
{
    *e = *s = 0;
    for (int i = 0; i < n; i++)
        *e = fmax(*e, fabs(a[i] - b[i])), *s = fmax(*s, fabs(a[i]));
}

/* The CSC values v (pattern cp, ri, n columns) as a dense n x n array. */
static void expand(int n, const int *cp, const int *ri, const double *v, double *D)
{
    memset(D, 0, (size_t)n * n * sizeof *D);
    for (int j = 0; j < n; j++)
        for (int k = cp[j]; k < cp[j + 1]; k++)
            D[(size_t)j * n + ri[k]] += v[k];
}

/* Final rows of a run of m (tipx, tipy at 50 ms) into out[2]. */
static int run(jnt_model *m, double *out)
{
    jnt_data *d = jnt_data_new(m);
    double rows[64 * 3];
    long nrow = 0;
    jnt_run_opts o = {.csv_path = "", .rows = rows, .rows_cap = 64, .rows_n = &nrow};
    int rc = jnt_run(m, d, &o);
    if (rc == JNT_OK && nrow > 0)
        out[0] = rows[3 * (nrow - 1) + 1], out[1] = rows[3 * (nrow - 1) + 2];
    CHECK(rc == JNT_OK && nrow == 11, "a 50 ms run: %ld rows (%s)", nrow,
          rc == JNT_OK ? "ok" : jnt_data_error(d));
    jnt_data_free(d);
    return rc;
}

int main(void)
{
    jnt_model *md = compile("flexd", "", 0), *ms = compile("flexs", "reduce = none", 0);
    if (!md || !ms)
        return check_done();
    const jnt_abi_model *a = md->abi, *b = ms->abi;
    CHECK(a->ny == b->ny && a->nq == b->nq && b->nblocks == 1 &&
              (b->blocks[0].flags & JNT_BLOCK_FFRF_SPARSE) &&
              !(a->blocks[0].flags & JNT_BLOCK_FFRF_SPARSE),
          "the same states (%d, %d), dense and sparse blocks", a->ny, b->ny);
    int n = a->ny, nq = a->nq;
    jnt_data *dd = jnt_data_new(md), *ds = jnt_data_new(ms);
    double *y = calloc((size_t)n, sizeof *y), *f1 = calloc((size_t)n, sizeof *f1);
    double *f2 = calloc((size_t)n, sizeof *f2);
    double *J1 = calloc((size_t)n * n, sizeof *J1), *J2 = calloc((size_t)n * n, sizeof *J2);
    double *J3 = calloc((size_t)n * n, sizeof *J3);
    double *jv = calloc((size_t)ms->jnnz + 1, sizeof *jv), *mv = calloc((size_t)ms->mnnz + 1, 8);
    double *mvd = calloc((size_t)md->mnnz + 1, sizeof *mvd);
    double *M1 = calloc((size_t)nq * nq, sizeof *M1), *M2 = calloc((size_t)nq * nq, sizeof *M2);
    state(a, y);
    double e, s;
    jnt_eval_rhs(md, dd, 0.1, y, f1);
    jnt_eval_rhs(ms, ds, 0.1, y, f2);
    diff(n, f1, f2, &e, &s);
    CHECK(s > 0 && e <= 1e-12 * s, "rhs: sparse against dense %.3g of %.3g (1e-12)", e, s);
    int rc = jnt_eval_jacobian(md, dd, 0.1, y, J1);
    rc |= jnt_eval_jacobian(ms, ds, 0.1, y, J2);
    diff(n * n, J1, J2, &e, &s);
    CHECK(rc == JNT_OK && e <= 1e-12 * s, "d rhs / dy: sparse against dense %.3g of %.3g (1e-12)",
          e, s);
    int bad = -1;
    double badv = 0;
    rc = eval_jac_values(ms, ds, 0.1, y, jv, &bad, &badv);
    expand(n, ms->jcolptr, ms->jrowind, jv, J3);
    diff(n * n, J1, J3, &e, &s);
    CHECK(rc == 0 && e <= 1e-12 * s, "the Jacobian's values in the sparse pattern (%d entries) "
          "are the dense Jacobian: %.3g of %.3g (1e-12)", ms->jnnz, e, s);
    MEASURE("flexsparse.jnnz_sparse", ms->jnnz);
    MEASURE("flexsparse.jnnz_dense", md->jnnz);
    CHECK(ms->jnnz < md->jnnz / 2, "the sparse pattern: %d entries, the dense one %d", ms->jnnz,
          md->jnnz);
    rc = eval_mass(md, dd, 0.1, y, mvd) | eval_mass(ms, ds, 0.1, y, mv);
    expand(nq, md->mcolptr, md->mrowind, mvd, M1);
    expand(nq, ms->mcolptr, ms->mrowind, mv, M2);
    diff(nq * nq, M1, M2, &e, &s);
    CHECK(rc == 0 && s > 0 && e <= 1e-12 * s, "M(q): sparse against dense %.3g of %.3g (1e-12)",
          e, s);
    /* core/flex.c keeps an unreduced body's products with M for the next
     * evaluation at the same q_f and q_fd: a state that differs from the last
     * in q_fd only (the mass, which reads q_f only, first), then in q_f only,
     * gives the dense model's mass, rhs and Jacobian again */
    int q0 = b->blocks[0].q0, r = b->blocks[0].r;
    for (int pass = 0; pass < 2; pass++) {
        const char *what = pass ? "q_f" : "q_fd";
        for (int i = 0; i < r; i++)
            y[(pass ? 0 : nq) + q0 + i] *= 1.5 - 0.1 * (i % 3);
        rc = eval_mass(ms, ds, 0.1, y, mv) | eval_mass(md, dd, 0.1, y, mvd);
        expand(nq, md->mcolptr, md->mrowind, mvd, M1);
        expand(nq, ms->mcolptr, ms->mrowind, mv, M2);
        diff(nq * nq, M1, M2, &e, &s);
        CHECK(rc == 0 && e <= 1e-12 * s, "%s changed: M(q) sparse against dense %.3g of %.3g",
              what, e, s);
        jnt_eval_rhs(ms, ds, 0.1, y, f2);
        jnt_eval_rhs(md, dd, 0.1, y, f1);
        diff(n, f1, f2, &e, &s);
        CHECK(e <= 1e-12 * s, "%s changed: rhs sparse against dense %.3g of %.3g", what, e, s);
        rc = eval_jac_values(ms, ds, 0.1, y, jv, &bad, &badv);
        rc |= jnt_eval_jacobian(md, dd, 0.1, y, J1);
        expand(n, ms->jcolptr, ms->jrowind, jv, J3);
        diff(n * n, J1, J3, &e, &s);
        CHECK(rc == 0 && e <= 1e-12 * s, "%s changed: the Jacobian sparse against dense %.3g "
              "of %.3g", what, e, s);
    }
    jnt_model *rd = compile("flexd", "", 1), *rs = compile("flexs", "reduce = none", 1);
    double t1[2] = {0}, t2[2] = {0};
    if (rd && rs && run(rd, t1) == JNT_OK && run(rs, t2) == JNT_OK)
        CHECK(fabs(t1[1]) > 1e-3 && fabs(t1[0] - t2[0]) <= 1e-8 && fabs(t1[1] - t2[1]) <= 1e-8,
              "50 ms under gravity: the tip at (%.9g, %.9g) dense, (%.9g, %.9g) sparse (1e-8 m)",
              t1[0], t1[1], t2[0], t2[1]);
    jnt_model_free(rd), jnt_model_free(rs);
    free(y), free(f1), free(f2), free(J1), free(J2), free(J3), free(jv), free(mv), free(mvd);
    free(M1), free(M2);
    jnt_data_free(dd), jnt_data_free(ds);
    jnt_model_free(md), jnt_model_free(ms);
    /* a sparse substructure without a flexible2d body */
    const char *bad_text = "model flexn\n"
                           "substructure sheet : plate2d(lx = 300 mm, ly = 1 mm, thickness = "
                           "20 mm, E = 210 GPa,\n nu = 0.3, rho = 7850 kg/m^3, nx = 4, ny = 1) {\n"
                           "  fix = left\n  reduce = none\n}\n"
                           "simulate { integrator = rk4(h = 1 ms)  until = 1 ms }\n";
    jnt_model *mb = NULL;
    char *diag = NULL;
    size_t dn = 0;
    FILE *ds2 = open_memstream(&diag, &dn);
    jnt_compile_opts co = {.diag = ds2};
    rc = jnt_compile_string("flexn", bad_text, &co, &mb);
    fclose(ds2);
    CHECK(rc != JNT_OK && diag && strstr(diag, "flexn:2:1: error: 'sheet' is unreduced and sparse"),
          "reduce = none without a flexible2d body: %s", diag ? diag : "(none)");
    free(diag);
    jnt_model_free(mb);
    /* beside a flexible3d body (core/flex.c's sparse path is 2D only) */
    const char *mix_text = "model flexm\n"
                           "substructure sheet : plate2d(lx = 300 mm, ly = 1 mm, thickness = "
                           "20 mm, E = 210 GPa,\n nu = 0.3, rho = 7850 kg/m^3, nx = 4, ny = 1) {\n"
                           "  fix = left\n  reduce = none\n}\n"
                           "substructure shaft : beam3d(length = 1 m, EA = 1 MN, GJ = 1 kN*m^2, "
                           "EI22 = 1 kN*m^2,\n EI33 = 1 kN*m^2, mass = 1 kg/m) {\n"
                           "  fix = left\n  reduce = modal(modes = 2)\n}\n"
                           "body a : flexible2d(substructure = sheet) {}\n"
                           "body b : flexible3d(substructure = shaft) {}\n"
                           "simulate { integrator = midpoint(h = 1 ms)  until = 1 ms }\n";
    diag = NULL, dn = 0;
    ds2 = open_memstream(&diag, &dn);
    co.diag = ds2;
    mb = NULL;
    rc = jnt_compile_string("flexm", mix_text, &co, &mb);
    fclose(ds2);
    CHECK(rc != JNT_OK && diag && strstr(diag, "flexm:2:1: error: 'sheet' is unreduced and sparse "
                                               "(16 DOFs): a model with flexible3d bodies ('b')"),
          "reduce = none beside a flexible3d body: %s", diag ? diag : "(none)");
    free(diag);
    jnt_model_free(mb);
    return check_done();
}
