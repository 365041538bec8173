/*
 * test_integrators.c: the integrators and their driver (runtime/integ_*.c,
 * integ_drive.c, run.c, params.c, sim_main.c) on hand-written models with
 * known solutions.
 *
 * References: exact solutions of linear ODEs; orders of accuracy from
 * Hairer, Norsett, Wanner I (rk4: 4, dopri5: 5) and II (trapezoidal: 2,
 * two-stage Radau IIA: 3).
 */
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

/* ---- parameters shared by all test models -------------------------------
 * k (1/s): rate or squared frequency, t_end (s), h (s), rtol, atol,
 * out_every (s). */
enum { P_K, P_TEND, P_H, P_RTOL, P_ATOL, P_OUT, NP };
static const char *const p_names[NP] = {"k", "t_end", "h", "rtol", "atol", "out_every"};
static const signed char p_dims[NP * JNT_NDIM] = {
    0, 0, -6, 0, 0, /* 1/s */
    0, 0, 6, 0, 0,  /* s */
    0, 0, 6, 0, 0,  /* s */
    0, 0, 0, 0, 0,  0, 0, 0, 0, 0, /* rtol, atol */
    0, 0, 6, 0, 0,  /* s */
};

static int params(double *p, const unsigned char *set)
{
    static const double def[NP] = {1.0, 1.0, 0.1, 1e-6, 1e-9, 0.1};
    for (int i = 0; i < NP; i++)
        if (!set[i])
            p[i] = def[i];
    return 0;
}

static int settings(const double *p, jnt_settings *s)
{
    s->t0 = 0.0;
    s->t_end = p[P_TEND];
    s->h = p[P_H];
    s->rtol = p[P_RTOL];
    s->atol = p[P_ATOL];
    s->out_every = p[P_OUT];
    return 0;
}

/* ---- decay: x' = -k x, x(0) = 1; exact x = exp(-k t) -------------------- */
static const char *const decay_y[] = {"block.x.v"};
static const char *const decay_out[] = {"t", "x"};
static const int jac1_colptr[] = {0, 1};
static const int jac1_rowind[] = {0};

static int decay_init(const double *p, double *y, double *d)
{
    (void)p, (void)d;
    y[0] = 1.0;
    return 0;
}
static int decay_rhs(double t, const double *y, const double *u, const double *d, const double *p,
 double *f)
{
    (void)u;
    (void)t, (void)d;
    f[0] = -p[P_K] * y[0];
    return 0;
}
static int decay_jac(double t, const double *y, const double *u, const double *d, const double *p,
 double *jv)
{
    (void)u;
    (void)t, (void)y, (void)d;
    jv[0] = -p[P_K];
    return 0;
}
static int decay_output(double t, const double *y, const double *u, const double *d, const double *p,
 double *o)
{
    (void)u;
    (void)d, (void)p;
    o[0] = t;
    o[1] = y[0];
    return 0;
}

static const jnt_abi_model decay_abi = {
    .abi_version = JNT_ABI_VERSION, .name = "decay", .source = "test", .integrator = "rk4",
    .output_file = NULL, .ny = 1, .nd = 0, .np = NP, .nout = 2, .y_names = decay_y,
    .p_names = p_names, .out_names = decay_out, .p_dims = p_dims, .jac_nnz = 1,
    .jac_colptr = jac1_colptr, .jac_rowind = jac1_rowind, .params = params,
    .settings = settings, .init = decay_init, .rhs = decay_rhs, .jac = decay_jac,
    .output = decay_output,
};

/* ---- oscillator: x' = v, v' = -k x; exact x = cos(w t), w = sqrt(k) ---- */
static const char *const osc_y[] = {"mass.x", "mass.v"};
static const char *const osc_out[] = {"t", "x", "v"};
static const int osc_colptr[] = {0, 1, 2};
static const int osc_rowind[] = {1, 0};

static int osc_init(const double *p, double *y, double *d)
{
    (void)p, (void)d;
    y[0] = 1.0;
    y[1] = 0.0;
    return 0;
}
static int osc_rhs(double t, const double *y, const double *u, const double *d, const double *p,
 double *f)
{
    (void)u;
    (void)t, (void)d;
    f[0] = y[1];
    f[1] = -p[P_K] * y[0];
    return 0;
}
static int osc_jac(double t, const double *y, const double *u, const double *d, const double *p,
 double *jv)
{
    (void)u;
    (void)t, (void)y, (void)d;
    jv[0] = -p[P_K]; /* d v' / d x */
    jv[1] = 1.0;     /* d x' / d v */
    return 0;
}
static int osc_output(double t, const double *y, const double *u, const double *d, const double *p,
 double *o)
{
    (void)u;
    (void)d, (void)p;
    o[0] = t;
    o[1] = y[0];
    o[2] = y[1];
    return 0;
}
static const jnt_abi_model osc_abi = {
    .abi_version = JNT_ABI_VERSION, .name = "osc", .integrator = "rk4", .ny = 2, .np = NP,
    .nout = 3, .y_names = osc_y, .p_names = p_names, .out_names = osc_out, .p_dims = p_dims,
    .jac_nnz = 2, .jac_colptr = osc_colptr, .jac_rowind = osc_rowind, .params = params,
    .settings = settings, .init = osc_init, .rhs = osc_rhs, .jac = osc_jac,
    .output = osc_output,
};

/* ---- stiff: y1' = -y1, y2' = 999 y1 - 1000 y2, y(0) = (1, 2);
 * exact y1 = exp(-t), y2 = exp(-t) + exp(-1000 t) ------------------------- */
static const char *const stiff_y[] = {"slow", "fast"};
static const char *const stiff_out[] = {"t", "slow", "fast"};
static const int stiff_colptr[] = {0, 2, 3};
static const int stiff_rowind[] = {0, 1, 1};

static int stiff_init(const double *p, double *y, double *d)
{
    (void)p, (void)d;
    y[0] = 1.0;
    y[1] = 2.0;
    return 0;
}
static int stiff_rhs(double t, const double *y, const double *u, const double *d, const double *p,
 double *f)
{
    (void)u;
    (void)t, (void)d, (void)p;
    f[0] = -y[0];
    f[1] = 999.0 * y[0] - 1000.0 * y[1];
    return 0;
}
static int stiff_jac(double t, const double *y, const double *u, const double *d, const double *p,
 double *jv)
{
    (void)u;
    (void)t, (void)y, (void)d, (void)p;
    jv[0] = -1.0;
    jv[1] = 999.0;
    jv[2] = -1000.0;
    return 0;
}
static const jnt_abi_model stiff_abi = {
    .abi_version = JNT_ABI_VERSION, .name = "stiff", .integrator = "radau", .ny = 2, .np = NP,
    .nout = 3, .y_names = stiff_y, .p_names = p_names, .out_names = stiff_out,
    .p_dims = p_dims, .jac_nnz = 3, .jac_colptr = stiff_colptr, .jac_rowind = stiff_rowind,
    .params = params, .settings = settings, .init = stiff_init, .rhs = stiff_rhs,
    .jac = stiff_jac, .output = osc_output,
};

/* ---- counter: decay plus a discrete counter n, n <- n + 1 per update ---- */
static const char *const count_d[] = {"n"};
static const char *const count_out[] = {"t", "x", "n"};
static int count_init(const double *p, double *y, double *d)
{
    (void)p;
    y[0] = 1.0;
    d[0] = 0.0;
    return 0;
}
static int count_update(double t, const double *y, const double *u, double *d, const double *p)
{
    (void)u;
    (void)t, (void)y, (void)p;
    d[0] += 1.0;
    return 0;
}
static int count_output(double t, const double *y, const double *u, const double *d, const double *p,
 double *o)
{
    (void)u;
    (void)p;
    o[0] = t;
    o[1] = y[0];
    o[2] = d[0];
    return 0;
}
static const jnt_abi_model count_abi = {
    .abi_version = JNT_ABI_VERSION, .name = "count", .integrator = "rk4", .ny = 1, .nd = 1,
    .np = NP, .nout = 3, .y_names = decay_y, .d_names = count_d, .p_names = p_names,
    .out_names = count_out, .p_dims = p_dims, .jac_nnz = 1, .jac_colptr = jac1_colptr,
    .jac_rowind = jac1_rowind, .params = params, .settings = settings, .init = count_init,
    .rhs = decay_rhs, .jac = decay_jac, .update = count_update, .output = count_output,
};

/* ---- nan: decay whose derivative becomes NaN after t = 1 ----------------- */
static int nan_rhs(double t, const double *y, const double *u, const double *d, const double *p,
 double *f)
{
    (void)u;
    (void)d, (void)p;
    f[0] = t > 1.0 ? NAN : -y[0];
    return 0;
}
static const jnt_abi_model nan_abi = {
    .abi_version = JNT_ABI_VERSION, .name = "nan", .integrator = "rk4", .ny = 1, .np = NP,
    .nout = 2, .y_names = decay_y, .p_names = p_names, .out_names = decay_out,
    .p_dims = p_dims, .jac_nnz = 1, .jac_colptr = jac1_colptr, .jac_rowind = jac1_rowind,
    .params = params, .settings = settings, .init = decay_init, .rhs = nan_rhs,
    .jac = decay_jac, .output = decay_output,
};

/* ---- wrong Jacobian: x' = -1e6 x with a Jacobian of the wrong sign ------ */
static const char *const slide_y[] = {"slide.z"};
static int bad_rhs(double t, const double *y, const double *u, const double *d, const double *p,
 double *f)
{
    (void)u;
    (void)t, (void)d, (void)p;
    f[0] = -1e6 * y[0];
    return 0;
}
static int bad_jac(double t, const double *y, const double *u, const double *d, const double *p,
 double *jv)
{
    (void)u;
    (void)t, (void)y, (void)d, (void)p;
    jv[0] = 1e6;
    return 0;
}
static const jnt_abi_model bad_abi = {
    .abi_version = JNT_ABI_VERSION, .name = "badjac", .integrator = "radau", .ny = 1,
    .np = NP, .nout = 2, .y_names = slide_y, .p_names = p_names, .out_names = decay_out,
    .p_dims = p_dims, .jac_nnz = 1, .jac_colptr = jac1_colptr, .jac_rowind = jac1_rowind,
    .params = params, .settings = settings, .init = decay_init, .rhs = bad_rhs,
    .jac = bad_jac, .output = decay_output,
};

/* ---- refusing: the rhs asks for a smaller step forever after t = 0.5 ---- */
static int refuse_rhs(double t, const double *y, const double *u, const double *d, const double *p,
 double *f)
{
    (void)u;
    (void)d, (void)p;
    f[0] = -y[0];
    return t > 0.5 ? 1 : 0;
}
static const jnt_abi_model refuse_abi = {
    .abi_version = JNT_ABI_VERSION, .name = "refuse", .integrator = "dopri5", .ny = 1,
    .np = NP, .nout = 2, .y_names = decay_y, .p_names = p_names, .out_names = decay_out,
    .p_dims = p_dims, .jac_nnz = 1, .jac_colptr = jac1_colptr, .jac_rowind = jac1_rowind,
    .params = params, .settings = settings, .init = decay_init, .rhs = refuse_rhs,
    .jac = decay_jac, .output = decay_output,
};

static const char *const methods[] = {"rk4", "dopri5", "bdf", "radau", "trapezoidal"};

/* Run model `base` with integrator `integ` and up to three parameters set
 * (name NULL = unset). Returns the status; *md, *dd the objects (caller
 * frees). */
typedef struct runres {
    jnt_model *m;
    jnt_data *d;
    jnt_abi_model abi;
    int status;
} runres;

static void run_model(runres *r, const jnt_abi_model *base, const char *integ, const char *csv,
                      const char *n1, double v1, const char *n2, double v2, const char *n3,
                      double v3)
{
    r->abi = *base;
    r->abi.integrator = integ;
    r->m = NULL;
    r->d = NULL;
    if (jnt_model_from_abi(&r->abi, NULL, &r->m) != JNT_OK) {
        r->status = -100;
        return;
    }
    r->d = jnt_data_new(r->m);
    if (n1)
        jnt_set_param(r->m, r->d, n1, v1);
    if (n2)
        jnt_set_param(r->m, r->d, n2, v2);
    if (n3)
        jnt_set_param(r->m, r->d, n3, v3);
    jnt_run_opts o = {.csv_path = csv ? csv : ""};
    r->status = jnt_run(r->m, r->d, &o);
    if (r->status != JNT_OK)
        printf("  (%s/%s: %s: %s)\n", base->name, integ, jnt_status_name(r->status),
               jnt_data_error(r->d));
}

static void run_free(runres *r)
{
    jnt_data_free(r->d);
    jnt_model_free(r->m);
}

/* |x(t_end) - exp(-1)| of the decay model with a fixed step h. */
static double decay_error(const char *integ, double h)
{
    runres r;
    run_model(&r, &decay_abi, integ, NULL, "h", h, NULL, 0, NULL, 0);
    double e = fabs(jnt_state(r.m, r.d, 0) - exp(-1.0));
    run_free(&r);
    return e;
}

/* Observed order log2(e(h) / e(h/2)), from h = 0.1 down. */
static void check_order(const char *integ, double want, double h)
{
    double e1 = decay_error(integ, h), e2 = decay_error(integ, h / 2), e3 = decay_error(integ, h / 4);
    double q1 = log2(e1 / e2), q2 = log2(e2 / e3);
    CHECK(fabs(q1 - want) < 0.2 && fabs(q2 - want) < 0.2,
          "%s: observed order %.3f, %.3f by halving h = %g (theory: %g)", integ, q1, q2, h, want);
}

static void test_orders(void)
{
    check_order("rk4", 4.0, 0.1);
    check_order("trapezoidal", 2.0, 0.1);
    check_order("radau", 3.0, 0.1);
    /* error constants: trapezoidal global error ~ h^2/12 t |x| for x' = -x */
    double e = decay_error("trapezoidal", 0.01);
    CHECK(fabs(e - 0.01 * 0.01 / 12 * exp(-1.0)) < 0.05 * e,
          "trapezoidal error %.4g = h^2/12 t e^-t (leading term of the global error)", e);
}

static void test_oscillator(void)
{
    static const double tol[] = {1e-8, 1e-6, 1e-4, 1e-5, 1e-5};
    static const double hs[] = {0.01, 0, 0, 0.001, 0.001};
    for (int i = 0; i < 5; i++) {
        runres r;
        run_model(&r, &osc_abi, methods[i], NULL, "t_end", 2 * PI, "h", hs[i], "rtol", 1e-8);
        jnt_set_param(r.m, r.d, "atol", 1e-10);
        r.status = jnt_run(r.m, r.d, &(jnt_run_opts){.csv_path = ""});
        CHECK(r.status == JNT_OK, "%s: oscillator runs", methods[i]);
        CHECK_NEAR(jnt_state(r.m, r.d, 0), 1.0, tol[i], "oscillator x(2 pi) = cos(2 pi) (exact)");
        CHECK_NEAR(jnt_state(r.m, r.d, 1), 0.0, 10 * tol[i],
                   "oscillator v(2 pi) = -sin(2 pi) (exact)");
        CHECK(jnt_time(r.d) == 2 * PI, "%s: ends exactly at t_end", methods[i]);
        run_free(&r);
    }
}

static void test_stiff(void)
{
    static const char *const implicit[] = {"radau", "trapezoidal", "bdf"};
    static const double tol[] = {1e-6, 1e-5, 1e-4};
    for (int i = 0; i < 3; i++) {
        runres r;
        run_model(&r, &stiff_abi, implicit[i], NULL, "t_end", 2.0, "h", 0.01, NULL, 0);
        CHECK(r.status == JNT_OK, "%s: stiff system runs with h*lambda = -10", implicit[i]);
        double ex = exp(-2.0) + exp(-2000.0);
        CHECK_NEAR(jnt_state(r.m, r.d, 0), exp(-2.0), tol[i], "stiff slow y1(2) = e^-2 (exact)");
        CHECK_NEAR(jnt_state(r.m, r.d, 1), ex, tol[i], "stiff fast y2(2) = e^-2 + e^-2000 (exact)");
        const jnt_stats *s = jnt_data_stats(r.d);
        CHECK(s->steps > 0 && s->jac_evals > 0 && s->lu_decomps > 0 && s->newton_iters > 0 &&
                  s->rhs_evals > 0,
              "%s: counters filled (steps %ld, jac %ld, lu %ld, newton %ld, rhs %ld)",
              implicit[i], s->steps, s->jac_evals, s->lu_decomps, s->newton_iters, s->rhs_evals);
        /* modified Newton: this linear system's J is kept, and so is the LU of
         * I - h (A (x) J) at the fixed h */
        if (i < 2)
            CHECK(s->steps == 200 && s->jac_evals == 1 && s->lu_decomps == 1 && s->rejected == 0,
                  "%s: fixed h = 0.01 over 2 s: 200 steps, one Jacobian and one LU in all",
                  implicit[i]);
        run_free(&r);
    }
}

/* Adaptive methods: error within a small multiple of the tolerance, on
 * every output row (dense output / CVodeGetDky) and at the end. */
static void test_adaptive(void)
{
    const char *adaptive[] = {"dopri5", "bdf"};
    const double fac[] = {10, 100};
    for (int i = 0; i < 2; i++) {
        const char *path = test_out(i == 0 ? "integ_dopri5.csv" : "integ_bdf.csv");
        runres r;
        run_model(&r, &decay_abi, adaptive[i], path, "t_end", 2.0, "out_every", 0.01, "rtol",
                  1e-6);
        CHECK(r.status == JNT_OK, "%s: decay runs", adaptive[i]);
        double tolx = fac[i] * 1e-6;
        CHECK_NEAR(jnt_state(r.m, r.d, 0), exp(-2.0), tolx * exp(-2.0),
                   "adaptive decay x(2) = e^-2 within ~rtol (exact)");
        csv_table t;
        int ok = csv_load(path, &t) == 0;
        CHECK(ok && t.nrow == 201, "%s: 201 rows on the grid 0:0.01:2 (got %d)", adaptive[i],
              t.nrow);
        double worst = 0;
        for (int k = 0; ok && k < t.nrow; k++) {
            double e = fabs(t.col[1][k] - exp(-t.col[0][k])) / exp(-t.col[0][k]);
            worst = fmax(worst, e);
        }
        CHECK(worst < tolx, "%s: interpolated rows within %g of exp(-t) (worst %.3g)",
              adaptive[i], tolx, worst);
        CHECK(ok && t.col[0][t.nrow - 1] == 2.0, "%s: last row exactly at t_end", adaptive[i]);
        CHECK(jnt_data_stats(r.d)->steps < 200, "%s: fewer steps (%ld) than output rows",
              adaptive[i], jnt_data_stats(r.d)->steps);
        if (ok)
            csv_free(&t);
        run_free(&r);
    }
}

/* Output grid: rows at t0 + k out_every and a final row at t_end exactly. */
static void test_grid(void)
{
    const char *path = test_out("integ_grid.csv");
    runres r;
    run_model(&r, &decay_abi, "rk4", path, "h", 0.03, "t_end", 0.95, NULL, 0);
    csv_table t;
    int ok = csv_load(path, &t) == 0;
    CHECK(ok && t.nrow == 11, "grid 0:0.1:0.9 plus final row at 0.95: 11 rows (got %d)", t.nrow);
    int exact = ok;
    double worst = 0;
    for (int k = 0; ok && k < 10; k++) {
        exact &= fabs(t.col[0][k] - 0.1 * k) <= 1e-15;
        worst = fmax(worst, fabs(t.col[1][k] - exp(-t.col[0][k])));
    }
    CHECK(exact, "grid times are k * out_every (to the 15 digits written)");
    CHECK(ok && t.col[0][10] == 0.95, "final row exactly at t_end = 0.95");
    CHECK(worst < 1e-7, "Hermite rows between rk4 steps within 1e-7 of exp(-t) (worst %.3g)",
          worst);
    CHECK(jnt_data_stats(r.d)->out_rows == 11, "out_rows counts the rows");
    CHECK(jnt_output(r.m, r.d, 0) == 0.95 && jnt_time(r.d) == 0.95,
          "jnt_output/jnt_time give the last row");
    CHECK(jnt_data_stats(r.d)->steps == 32, "rk4 h = 0.03 to 0.95: 31 full steps + 1 short one");
    if (ok)
        csv_free(&t);
    run_free(&r);

    /* grid commensurate with the steps and ending on t_end: no duplicate row */
    run_model(&r, &decay_abi, "rk4", path, "h", 0.01, "t_end", 1.0, NULL, 0);
    ok = csv_load(path, &t) == 0;
    CHECK(ok && t.nrow == 11 && t.col[0][10] == 1.0, "h = 0.01, every 0.1 to 1: 11 rows, no duplicate");
    if (ok)
        csv_free(&t);
    run_free(&r);

    /* out_every = 0: one row per accepted step */
    run_model(&r, &decay_abi, "dopri5", path, "out_every", 0.0, NULL, 0, NULL, 0);
    ok = csv_load(path, &t) == 0;
    CHECK(ok && t.nrow == jnt_data_stats(r.d)->steps + 1,
          "out_every = 0: steps + 1 rows (%d rows, %ld steps)", t.nrow, jnt_data_stats(r.d)->steps);
    if (ok)
        csv_free(&t);
    run_free(&r);
}

/* Discrete update exactly once per accepted step, after the rows of the step. */
static void test_discrete(void)
{
    const char *path = test_out("integ_count.csv");
    for (int i = 0; i < 5; i++) {
        runres r;
        run_model(&r, &count_abi, methods[i], path, "out_every", 0.0, "t_end", 0.5, NULL, 0);
        CHECK(r.status == JNT_OK, "%s: counter model runs", methods[i]);
        long steps = jnt_data_stats(r.d)->steps;
        csv_table t;
        int ok = csv_load(path, &t) == 0;
        int rows_ok = ok && t.nrow == steps + 1;
        for (int k = 0; rows_ok && k < t.nrow; k++)
            rows_ok = t.col[2][k] == (k == 0 ? 0 : k - 1);
        CHECK(rows_ok, "%s: row k shows the d its step used (k - 1)", methods[i]);
        CHECK(ok && t.col[2][t.nrow - 1] == steps - 1 && jnt_output(r.m, r.d, 2) == steps - 1,
              "%s: last row before the last update", methods[i]);
        /* h = 0.1: trapezoidal global error h^2/12 t e^-t = 2.5e-4; bdf is
         * restarted (order 1) after every update, local error control only */
        static const double tol[] = {1e-6, 1e-6, 1e-3, 1e-5, 5e-4};
        CHECK_NEAR(jnt_state(r.m, r.d, 0), exp(-0.5), tol[i],
                   "counter does not disturb x(0.5) = e^-0.5 (exact)");
        if (ok)
            csv_free(&t);
        /* the counter itself: the data's d after the run */
        runres r2;
        run_model(&r2, &count_abi, methods[i], "", "out_every", 0.1, "t_end", 0.5, NULL, 0);
        jnt_data *dd = r2.d;
        CHECK(r2.status == JNT_OK && jnt_data_stats(dd)->out_rows == 6 &&
                  fabs(jnt_output(r2.m, dd, 2) - (double)(jnt_data_stats(dd)->steps - 1)) == 0,
              "%s: one update per accepted step (%ld steps)", methods[i],
              jnt_data_stats(dd)->steps);
        run_free(&r2);
        run_free(&r);
    }
}

/* Every line of the CSV but the comment that ends it (issue 17: how the run
 * ended) has the header's number of fields and ends in '\n'. */
static int csv_intact(const char *path, int ncol, int *nlines)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = 1, c, fields = 1, last = '\n', comment = 0;
    *nlines = 0;
    while ((c = fgetc(f)) != EOF) {
        if (last == '\n')
            comment = c == '#';
        if (c == ',')
            fields++;
        if (c == '\n') {
            ok &= comment || fields == ncol;
            fields = 1;
            (*nlines)++;
        }
        last = c;
    }
    fclose(f);
    return ok && last == '\n';
}

static void test_nonfinite(void)
{
    for (int i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "integ_nan_%s.csv", methods[i]);
        const char *path = test_out(name);
        char part[600];
        snprintf(part, sizeof part, "%s.part", path);
        runres r;
        run_model(&r, &nan_abi, methods[i], path, "t_end", 2.0, "h", 0.01, "out_every", 0.01);
        const char *msg = jnt_data_error(r.d);
        CHECK(r.status == JNT_ERR_NONFINITE, "%s: NaN after t = 1 gives JNT_ERR_NONFINITE (%s)",
              methods[i], jnt_status_name(r.status));
        double tf = -1;
        sscanf(msg, "t = %lf", &tf);
        CHECK(strstr(msg, "'block.x.v'") && strstr(msg, "not finite") && tf >= 1.0 && tf < 1.1,
              "%s: message names the time and the state: %s", methods[i], msg);
        int n = 0;
        CHECK(csv_intact(path, 2, &n) && n > 100 && access(part, F_OK) != 0,
              "%s: CSV under its final name, %d complete lines of 2 fields", methods[i], n);
        CHECK(jnt_time(r.d) <= 1.0 && jnt_time(r.d) > 0.9,
              "%s: jnt_time is the last accepted step (%g)", methods[i], jnt_time(r.d));
        run_free(&r);
    }
}

static void test_failures(void)
{
    runres r;
    run_model(&r, &bad_abi, "radau", NULL, "h", 0.1, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_NEWTON && strstr(jnt_data_error(r.d), "'slide.z'") &&
              strstr(jnt_data_error(r.d), "t = 0 s"),
          "radau with a wrong Jacobian: JNT_ERR_NEWTON naming the state: %s",
          jnt_data_error(r.d));
    CHECK(jnt_data_stats(r.d)->rejected == 11, "radau: 11 attempts rejected (10 halvings)");
    run_free(&r);
    run_model(&r, &bad_abi, "trapezoidal", NULL, "h", 0.1, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_NEWTON, "trapezoidal with a wrong Jacobian: JNT_ERR_NEWTON");
    run_free(&r);

    run_model(&r, &refuse_abi, "dopri5", NULL, NULL, 0, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_HMIN && strstr(jnt_data_error(r.d), "smaller step"),
          "dopri5, rhs refusing after t = 0.5: JNT_ERR_HMIN: %s", jnt_data_error(r.d));
    run_free(&r);
    run_model(&r, &refuse_abi, "rk4", NULL, NULL, 0, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_KERNEL, "rk4, rhs asking for a smaller step: JNT_ERR_KERNEL: %s",
          jnt_data_error(r.d));
    run_free(&r);
    run_model(&r, &refuse_abi, "bdf", NULL, NULL, 0, NULL, 0, NULL, 0);
    CHECK(r.status < 0 && strstr(jnt_data_error(r.d), "[CV_"),
          "bdf, rhs refusing: fails with CVODE's flag name: %s", jnt_data_error(r.d));
    run_free(&r);

    /* settings validation */
    run_model(&r, &decay_abi, "rk4", NULL, "h", 0.0, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_PARAM && strstr(jnt_data_error(r.d), "needs a step h > 0"),
          "rk4 with h = 0: %s", jnt_data_error(r.d));
    run_free(&r);
    run_model(&r, &decay_abi, "dopri5", NULL, "rtol", 0.0, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_PARAM && strstr(jnt_data_error(r.d), "rtol > 0"),
          "dopri5 with rtol = 0: %s", jnt_data_error(r.d));
    run_free(&r);
    run_model(&r, &decay_abi, "bdf", NULL, "t_end", -1.0, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_PARAM && strstr(jnt_data_error(r.d), "must be after"),
          "t_end before t0: %s", jnt_data_error(r.d));
    run_free(&r);
    run_model(&r, &decay_abi, "euler", NULL, NULL, 0, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_MODEL && strstr(jnt_data_error(r.d), "'euler'"),
          "unknown integrator: %s", jnt_data_error(r.d));
    run_free(&r);

    /* model wrapping */
    jnt_abi_model a = decay_abi;
    jnt_model *m = NULL;
    a.abi_version = JNT_ABI_VERSION + 1;
    CHECK(jnt_model_from_abi(&a, NULL, &m) == JNT_ERR_MODEL && m == NULL, "wrong ABI version refused");
    a = decay_abi;
    a.rhs = NULL;
    CHECK(jnt_model_from_abi(&a, NULL, &m) == JNT_ERR_MODEL, "missing rhs kernel refused");

    /* CSV that cannot be written */
    run_model(&r, &decay_abi, "rk4", "/nonexistent-dir/x.csv", NULL, 0, NULL, 0, NULL, 0);
    CHECK(r.status == JNT_ERR_IO && strstr(jnt_data_error(r.d), "/nonexistent-dir/x.csv"),
          "unwritable CSV: JNT_ERR_IO: %s", jnt_data_error(r.d));
    run_free(&r);
}

/* Run options overriding the model's integrator, step and tolerances. */
static void test_overrides(void)
{
    jnt_model *m;
    jnt_model_from_abi(&decay_abi, NULL, &m); /* rk4: its arena is the smallest */
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = {.csv_path = "", .integrator = "radau", .h = 0.01};
    CHECK(jnt_run(m, d, &o) == JNT_OK && jnt_data_stats(d)->steps == 100 &&
              jnt_data_stats(d)->lu_decomps == 1,
          "opts.integrator = radau, opts.h = 0.01: 100 implicit steps on an rk4 model");
    CHECK_NEAR(jnt_state(m, d, 0), exp(-1.0), 1e-7, "radau h = 0.01: x(1) = e^-1 (exact)");
    o = (jnt_run_opts){.csv_path = "", .integrator = "dopri5", .rtol = 1e-10, .atol = 1e-12};
    CHECK(jnt_run(m, d, &o) == JNT_OK, "opts.integrator = dopri5 with tolerances");
    CHECK_NEAR(jnt_state(m, d, 0), exp(-1.0), 1e-9, "dopri5 rtol 1e-10: x(1) = e^-1 (exact)");
    o = (jnt_run_opts){.csv_path = ""};
    CHECK(jnt_run(m, d, &o) == JNT_OK && jnt_data_stats(d)->steps == 10,
          "no override: the model's rk4 with h = 0.1 again (10 steps)");
    o = (jnt_run_opts){.csv_path = "", .integrator = "euler"};
    CHECK(jnt_run(m, d, &o) == JNT_ERR_USAGE, "unknown integrator in the options: JNT_ERR_USAGE");
    jnt_data_free(d);
    jnt_model_free(m);
}

/* Finite-difference Jacobian when the model has none. */
static void test_fd_jacobian(void)
{
    jnt_abi_model a = stiff_abi;
    a.jac = NULL;
    runres r;
    run_model(&r, &a, "radau", NULL, "t_end", 2.0, "h", 0.01, NULL, 0);
    CHECK(r.status == JNT_OK, "radau without a jac kernel (forward differences) runs");
    CHECK_NEAR(jnt_state(r.m, r.d, 1), exp(-2.0), 1e-6, "fd Jacobian: y2(2) = e^-2 (exact)");
    run_free(&r);
}

/* bdf on linear blocks: the Newton systems are solved condensed (the
 * position rows q' = qd eliminated, integ_bdf.c) when the Jacobian is the
 * model's, whole when it comes from finite differences. An unreduced chain
 * (a block of 11 physical coordinates), a modal one, a point body and the
 * hysteretic state of a Valanis element: both against dopri5 at rtol 1e-11. */
static const char *const block_src =
    "import hysteresis\n"
    "substructure c : chain(n = 12, k = 4000 N/m, mass = 0.05 kg) { fix = first\n"
    "  damping = rayleigh(alpha = 0.5 /s, beta = 1e-4 s) }\n"
    "substructure e : chain(n = 6, k = 900 N/m, mass = 0.2 kg) { fix = first\n"
    "  reduce = modal(modes = 3) }\n"
    "body b : point(mass = 1 kg) { dof x }\n"
    "spring k between c.last.ux and b.x { stiffness = 200 N/m }\n"
    "spring ke between e.last.ux and b.x { stiffness = 300 N/m }\n"
    "friction j between b.x and ground { normal = 2 N  area = 1 cm^2\n"
    "  law = valanis(E0 = 1.1e8 Pa/m, Et = 1e7 Pa/m, kappa = 0.5, mu = 0.5) }\n"
    "force f on c.last.ux = 3 N * sin(9 * t / 1 s)\n"
    "simulate { integrator = bdf(rtol = 1e-9, atol = 1e-12)  until = 2 s }\n";

static void test_bdf_blocks(void)
{
    jnt_model *m = NULL, *mfd = NULL;
    int rc = jnt_compile_string("bdf_blocks", block_src, NULL, &m);
    CHECK(rc == JNT_OK, "bdf blocks model compiles (%s)", rc == JNT_OK ? "ok" : "failed");
    if (rc != JNT_OK)
        return;
    jnt_abi_model fd = *jnt_model_abi(m);
    fd.jac = NULL;
    CHECK(fd.nblocks == 2 && jnt_model_from_abi(&fd, jnt_model_data(m), &mfd) == JNT_OK,
          "two blocks; a copy without the Jacobian kernel");
    const char *names[] = {"b.x", "c.q11", "e.q1"};
    double x[3][3] = {{0}};
    long newton = 0, steps = 0;
    for (int k = 0; k < 3; k++) {
        jnt_model *mk = k == 2 ? mfd : m;
        jnt_data *d = mk ? jnt_data_new(mk) : NULL;
        jnt_run_opts o = {.csv_path = ""};
        if (k == 1)
            o.integrator = "dopri5", o.rtol = 1e-11, o.atol = 1e-14;
        rc = d ? jnt_run(mk, d, &o) : -1;
        CHECK(rc == JNT_OK, "bdf blocks: run %d (%s)", k, d ? jnt_data_error(d) : "no data");
        for (int i = 0; rc == JNT_OK && i < 3; i++)
            x[k][i] = jnt_state(mk, d, jnt_state_index(mk, names[i]));
        if (k == 0 && rc == JNT_OK)
            newton = jnt_data_stats(d)->newton_iters, steps = jnt_data_stats(d)->steps;
        jnt_data_free(d);
    }
    for (int i = 0; i < 3; i++) {
        CHECK(fabs(x[0][i] - x[1][i]) <= 1e-6 * fabs(x[1][i]) + 1e-9,
              "bdf (condensed solve) %s(2 s) = %.10g, dopri5 %.10g", names[i], x[0][i], x[1][i]);
        CHECK(fabs(x[2][i] - x[1][i]) <= 1e-6 * fabs(x[1][i]) + 1e-9,
              "bdf (finite differences, whole solve) %s(2 s) = %.10g", names[i], x[2][i]);
    }
    /* an exact Newton matrix converges in about one iteration per step */
    CHECK(steps > 0 && newton < 2 * steps, "condensed solve: %ld Newton iterations in %ld steps",
          newton, steps);
    jnt_model_free(mfd);
    jnt_model_free(m);
}

/* -D text: units, errors with suggestions. */
static void test_param_text(void)
{
    jnt_model *m;
    jnt_model_from_abi(&decay_abi, NULL, &m);
    jnt_data *d = jnt_data_new(m);
    int ih = jnt_param_index(m, "h"), ik = jnt_param_index(m, "k");
    CHECK(jnt_get_param(m, d, ih) == 0.1, "default h = 0.1 s before any run");
    CHECK(jnt_set_param_text(m, d, "h=0.3ms") == JNT_OK && fabs(jnt_get_param(m, d, ih) - 3e-4) < 1e-19,
          "h=0.3ms -> 3e-4 s");
    CHECK(jnt_set_param_text(m, d, " h = 2 ms ") == JNT_OK && fabs(jnt_get_param(m, d, ih) - 2e-3) < 1e-18,
          "spaces around '=': ' h = 2 ms ' -> 2e-3 s");
    CHECK(jnt_set_param_text(m, d, "h=5e-4") == JNT_OK && jnt_get_param(m, d, ih) == 5e-4,
          "bare number is SI: h=5e-4");
    CHECK(jnt_set_param_text(m, d, "k=60 rpm") == JNT_OK && fabs(jnt_get_param(m, d, ik) - 2 * PI) < 1e-14,
          "k=60 rpm -> 2 pi 1/s");
    CHECK(jnt_set_param_text(m, d, "k=3/s") == JNT_OK && jnt_get_param(m, d, ik) == 3.0, "k=3/s");
    CHECK(jnt_set_param_text(m, d, "h=2 kg") == JNT_ERR_PARAM &&
              strcmp(jnt_data_error(d), "parameter 'h' is in s, but '2 kg' is in kg") == 0,
          "unit mismatch: %s", jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "k=2 N") == JNT_ERR_PARAM &&
              strcmp(jnt_data_error(d), "parameter 'k' is in 1/s, but '2 N' is in N") == 0,
          "unit mismatch: %s", jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "hh=1") == JNT_ERR_PARAM &&
              strcmp(jnt_data_error(d), "unknown parameter 'hh'; did you mean 'h'?") == 0,
          "typo: %s", jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "tend=1") == JNT_ERR_PARAM &&
              strcmp(jnt_data_error(d), "unknown parameter 'tend'; did you mean 't_end'?") == 0,
          "typo: %s", jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "zzzzzz=1") == JNT_ERR_PARAM &&
              strcmp(jnt_data_error(d), "unknown parameter 'zzzzzz'") == 0,
          "far from any name: no suggestion: %s", jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "h") == JNT_ERR_PARAM && strstr(jnt_data_error(d), "name=value"),
          "no '=': %s", jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "h=") == JNT_ERR_PARAM, "no value: %s", jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "=1") == JNT_ERR_PARAM, "no name: %s", jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "h=abc") == JNT_ERR_PARAM, "not a number: %s",
          jnt_data_error(d));
    CHECK(jnt_set_param_text(m, d, "h=1 furlong") == JNT_ERR_PARAM &&
              strstr(jnt_data_error(d), "unknown unit"),
          "unknown unit: %s", jnt_data_error(d));
    CHECK(jnt_get_param(m, d, ih) == 5e-4, "failed assignments leave the value unchanged");
    CHECK(jnt_set_param(m, d, "nope", 1.0) == JNT_ERR_PARAM, "jnt_set_param: unknown name");
    CHECK(jnt_param_index(m, "out_every") == P_OUT && jnt_output_index(m, "x") == 1 &&
              jnt_state_index(m, "block.x.v") == 0 && jnt_state_index(m, "y") == -1,
          "name lookups");
    jnt_data_free(d);
    jnt_model_free(m);
}

/* The shared command line: exit status 0 / 1 / 2. */
static void test_sim_main(void)
{
    jnt_model *m, *mn;
    jnt_model_from_abi(&decay_abi, NULL, &m);
    jnt_model_from_abi(&nan_abi, NULL, &mn);
    const char *path = test_out("integ_sim.csv");
    char *ok_args[] = {"-D", "h=0.05", "-Dt_end=500ms", "-o", (char *)path};
    unlink(path);
    CHECK(jnt_sim_main(m, "sim", 5, ok_args) == 0 && access(path, F_OK) == 0,
          "sim: -D, -Dname=value, -o: exit 0 and the CSV exists");
    csv_table t;
    CHECK(csv_load(path, &t) == 0 && t.nrow == 6 && csv_col(&t, "t")[5] == 0.5,
          "sim: -Dt_end=500ms honoured (6 rows to 0.5 s)");
    csv_free(&t);
    char *bad1[] = {"--frobnicate"};
    CHECK(jnt_sim_main(m, "sim", 1, bad1) == 2, "sim: unknown option: exit 2");
    char *bad2[] = {"-D"};
    CHECK(jnt_sim_main(m, "sim", 1, bad2) == 2, "sim: -D without argument: exit 2");
    char *bad3[] = {"-D", "hh=1"};
    CHECK(jnt_sim_main(m, "sim", 2, bad3) == 2, "sim: -D unknown parameter: exit 2");
    char *bad4[] = {"-D", "h=2 kg"};
    CHECK(jnt_sim_main(m, "sim", 2, bad4) == 2, "sim: -D unit mismatch: exit 2");
    char *bad5[] = {"extra"};
    CHECK(jnt_sim_main(m, "sim", 1, bad5) == 2, "sim: stray argument: exit 2");
    char *bad6[] = {"-o"};
    CHECK(jnt_sim_main(m, "sim", 1, bad6) == 2, "sim: -o without argument: exit 2");
    char *fail[] = {"-o", (char *)test_out("integ_sim_nan.csv"), "-D", "t_end=2", "--stats"};
    CHECK(jnt_sim_main(mn, "sim", 5, fail) == 1, "sim: failing run: exit 1");
    jnt_model_free(m);
    jnt_model_free(mn);
}

static void test_status(void)
{
    int ok = 1;
    for (int c = 0; c >= JNT_ERR_KERNEL; c--)
        ok &= strcmp(jnt_status_name(c), "JNT_UNKNOWN") != 0 && jnt_status_message(c)[0];
    CHECK(ok, "every status code of jnt.h has a name and a message");
    CHECK(strcmp(jnt_status_name(JNT_ERR_HMIN), "JNT_ERR_HMIN") == 0 &&
              strcmp(jnt_status_message(JNT_ERR_HMIN), "step size underflow") == 0,
          "JNT_ERR_HMIN: name and message as in jnt.h");
    CHECK(strcmp(jnt_status_name(42), "JNT_UNKNOWN") == 0, "unknown code");
}

/* jnt_blas_threads: a count set sticks, 0 restores the default (one thread
 * when OPENBLAS_NUM_THREADS is unset, its value when set), -1 applies what
 * is set. */
static void test_blas_threads(void)
{
    const char *env = getenv("OPENBLAS_NUM_THREADS");
    char *saved = env ? strdup(env) : NULL;
    unsetenv("OPENBLAS_NUM_THREADS");
    int a = jnt_blas_threads(3), b = jnt_blas_threads(-1), c = jnt_blas_threads(0);
    setenv("OPENBLAS_NUM_THREADS", "2", 1);
    int e = jnt_blas_threads(-1);
    unsetenv("OPENBLAS_NUM_THREADS");
    int f = jnt_blas_threads(0);
    if (saved)
        setenv("OPENBLAS_NUM_THREADS", saved, 1);
    free(saved);
    CHECK(a == 3 && b == 3 && c == 1 && e == 2 && f == 1,
          "jnt_blas_threads: 3 set %d, kept %d, default %d, from the environment %d, "
          "default again %d", a, b, c, e, f);
}

int main(void)
{
    test_blas_threads();
    test_orders();
    test_oscillator();
    test_stiff();
    test_adaptive();
    test_grid();
    test_discrete();
    test_nonfinite();
    test_failures();
    test_fd_jacobian();
    test_bdf_blocks();
    test_overrides();
    test_param_text();
    test_sim_main();
    test_status();
    return check_done();
}
