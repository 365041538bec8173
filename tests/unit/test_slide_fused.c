/*
 * test_slide_fused.c: the explicit step of sliding interfaces in fewer
 * passes (issue 30 item 7, docs/interfaces.md) gives the values of the
 * separate passes bit for bit:
 *
 *   - slide_dot4 (four port dot products in one pass) against slide_dot,
 *     slide_axpy4_from (the corrector from u* in one pass) against a copy
 *     and slide_axpy4, for lengths 1 to 30 and 220;
 *   - slide_finbits flags infinities and NaN and nothing finite (zero,
 *     -0, subnormals, DBL_MAX);
 *   - the lazy v and a of a committed step (slide_rates): a run synced at
 *     every step and one synced only at the end give the same physical
 *     u, v, a, bit for bit;
 *   - a force that turns NaN is still reported by the fused finiteness
 *     check (JNT_ERR_NONFINITE at the step that reads it), on physical
 *     and on modal coordinates.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/data.h"
#include "core/model.h"
#include "couple/iface_slide.h"
#include "couple/slide.h"
#include "couple/slide_impl.h"
#include "jnt/jnt.h"
#include "plates.h"

static const char *const MODEL =
    "model fused\n"
    "param P = 0.5 N\n"
    PLATE_ON_PLATE
    "force press[i in 1..2] on upper.top[i].uy = -P * smoothstep(t, 0 s, 0.2 ms)\n"
    "force drag on upper.left[1].ux = P * smoothstep(t, 0.2 ms, 0.3 ms)\n"
    "simulate { integrator = central(h = 0.05 us)  until = 0.5 ms }\n"
    "output \"fused.csv\" every 1 us { t, N = c.normal }\n";

static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_kernels(void)
{
    double rows[4][220], x[220], y0[220], ya[220], yb[220];
    srand(7);
    for (int i = 0; i < 220; i++) {
        x[i] = (rand() / (double)RAND_MAX - 0.5) * pow(10, rand() % 9 - 4);
        y0[i] = rand() / (double)RAND_MAX - 0.5;
        for (int k = 0; k < 4; k++)
            rows[k][i] = (rand() / (double)RAND_MAX - 0.5) * pow(10, rand() % 5 - 2);
    }
    const double *r[4] = {rows[0], rows[1], rows[2], rows[3]};
    int dot_ok = 1, axpy_ok = 1, flags_ok = 1, cases = 0;
    for (int n = 1; n <= 221; n = n < 30 ? n + 1 : n == 30 ? 220 : 222) {
        double out[4];
        slide_dot4(n, r, x, out);
        for (int k = 0; k < 4; k++)
            dot_ok = dot_ok && same_bits(out[k], slide_dot(n, r[k], x));
        double a[4] = {1e-3, -2.5, 0.7, 3e4};
        memcpy(ya, y0, (size_t)n * sizeof *ya);
        slide_axpy4(n, a, r, ya);
        uint64_t z = slide_axpy4_from(n, a, r, y0, yb);
        for (int i = 0; i < n; i++)
            axpy_ok = axpy_ok && same_bits(ya[i], yb[i]);
        flags_ok = flags_ok && !slide_nonfinite(z);
        cases++;
    }
    CHECK(dot_ok, "kernels: slide_dot4 = slide_dot bit for bit (%d lengths, 4 rows each)",
          cases);
    CHECK(axpy_ok, "kernels: slide_axpy4_from = copy + slide_axpy4 bit for bit");
    /* a NaN in one entry of a row reaches the flag through the pass */
    double a[4] = {1, 0, 0, 0};
    rows[0][17] = NAN;
    uint64_t z = slide_axpy4_from(30, a, r, y0, yb);
    rows[0][17] = INFINITY;
    uint64_t z2 = slide_axpy4_from(30, a, r, y0, yb);
    CHECK(flags_ok && slide_nonfinite(z) && slide_nonfinite(z2),
          "kernels: the corrector's flag is set by a NaN or an infinity and by nothing else");
    const double fin[] = {0.0, -0.0, 5e-324, -DBL_MIN, 1.0, -DBL_MAX, DBL_MAX};
    const double non[] = {INFINITY, -INFINITY, NAN, -NAN};
    uint64_t acc = 0;
    for (size_t i = 0; i < sizeof fin / sizeof fin[0]; i++)
        acc |= slide_finbits(fin[i]);
    int each = 1;
    for (size_t i = 0; i < sizeof non / sizeof non[0]; i++)
        each = each && slide_nonfinite(slide_finbits(non[i]));
    CHECK(!slide_nonfinite(acc) && each,
          "kernels: slide_finbits flags +-inf and NaN, not 0, -0, subnormals or DBL_MAX");
}

typedef struct run {
    jnt_model *m;
    jnt_data *dt;
    slide_model *sm;
    void *ctx;
    slide_data *sd;
} run;

static int open_run(run *r)
{
    char err[256] = "";
    memset(r, 0, sizeof *r);
    if (jnt_compile_string("fused", MODEL, NULL, &r->m) != JNT_OK)
        return 0;
    r->dt = jnt_data_new(r->m);
    if (!r->dt || iface_model(r->m, r->dt->p, 0.05e-6, &r->sm, err, sizeof err) != JNT_OK)
        return 0;
    r->ctx = iface_modes_ctx(r->m, r->dt->p);
    r->sd = r->ctx ? slide_data_new(r->sm, r->ctx) : NULL;
    if (!r->sd)
        return 0;
    int n = slide_model_ndof(r->sm);
    double *u0 = calloc((size_t)n + 1, sizeof *u0);
    if (!u0)
        return 0;
    for (int i = 0; i < n; i++)
        u0[i] = 1e-9 * sin(1.0 + i); /* every mode moves */
    int rc = slide_init(r->sm, r->sd, 0, u0, NULL);
    free(u0);
    return rc == JNT_OK;
}

static void close_run(run *r)
{
    slide_data_free(r->sd);
    iface_modes_ctx_free(r->ctx);
    slide_model_free(r->sm);
    jnt_data_free(r->dt);
    jnt_model_free(r->m);
}

/* Synced at every step or only at the end: the same physical state. */
static void check_lazy(void)
{
    run a, b;
    int ok = open_run(&a) && open_run(&b), rc = 0;
    CHECK(ok, "lazy: two runs of the model");
    if (!ok)
        goto done;
    for (int k = 0; k < 300 && rc >= 0; k++) {
        rc = slide_step(a.sm, a.sd);
        slide_sync(a.sm, a.sd);
        if (rc >= 0)
            rc = slide_step(b.sm, b.sd);
    }
    CHECK(rc >= 0, "lazy: 300 steps (%d)", rc);
    slide_sync(b.sm, b.sd);
    int n = slide_model_ndof(a.sm), same = 1, nonzero = 0;
    for (int i = 0; i < n; i++) {
        same = same && same_bits(a.sd->u[i], b.sd->u[i]) && same_bits(a.sd->v[i], b.sd->v[i]) &&
               same_bits(a.sd->a[i], b.sd->a[i]);
        nonzero += a.sd->a[i] != 0 && a.sd->v[i] != 0;
    }
    CHECK(same && nonzero > n / 2, "lazy: synced at every step or at the end, u, v, a bit for "
          "bit (%d of %d with a, v nonzero)", nonzero, n);
done:
    close_run(&a);
    close_run(&b);
}

/* A block (ux, uy) pressed on a rigid flat master; its force turns NaN
 * from t = 50.5 h on. */
static int nan_force(double t, double *f, void *user)
{
    const double *h = user;
    f[0] = 0;
    f[1] = t > 50.5 * *h ? NAN : -1.0;
    return 0;
}

/* The step that reads the NaN force stops with JNT_ERR_NONFINITE, on the
 * block's own coordinates and on its modal ones, lazy or not. */
static void check_nonfinite(void)
{
    static const double M[4] = {0.1, 0, 0, 0.1}, K[4] = {1e4, 0, 0, 2e4}, C[4] = {2, 0, 0, 2};
    for (int v = 0; v < 3; v++) {
        double h = 1e-4;
        slide_sub sub = {.n = 2, .M = M, .K = K, .C = C, .force = nan_force};
        slide_node slave = {.X = {0, 0}, .phi = {NULL, NULL}, .dof = {0, 1}};
        slide_node gn[2] = {{.X = {-1, 0}, .dof = {-1, -1}}, {.X = {1, 0}, .dof = {-1, -1}}};
        slide_iface f;
        slide_iface_init(&f);
        f.slave_sub = 0;
        f.master_sub = -1;
        f.nslave = 1;
        f.slave = &slave;
        f.nmaster = 2;
        f.master = gn;
        slide_def def = {.nsub = 1, .sub = &sub, .niface = 1, .iface = &f, .h = h,
                         .coords = v == 0 ? SLIDE_COORDS_PHYSICAL : SLIDE_COORDS_MODAL,
                         .lazy = v == 2};
        slide_model *mo = NULL;
        char err[256] = "";
        int rc = slide_model_new(&def, &mo, err, sizeof err);
        slide_data *d = rc == JNT_OK ? slide_data_new(mo, &h) : NULL;
        rc = d ? slide_init(mo, d, 0, NULL, NULL) : -1;
        while (rc >= 0 && d->step < 100)
            rc = slide_step(mo, d);
        CHECK(rc == JNT_ERR_NONFINITE && d && d->step == 51 &&
                  strstr(slide_error(d), "became") && slide_model_modal(mo, 0) == (v > 0),
              "nonfinite (%s): a NaN force from t = 50.5 h stops step 52 (%d after %ld steps: "
              "%s)", v == 0 ? "physical" : v == 1 ? "modal" : "modal, lazy", rc,
              d ? d->step : -1, d ? slide_error(d) : err);
        slide_data_free(d);
        slide_model_free(mo);
    }
}

int main(void)
{
    check_kernels();
    check_lazy();
    check_nonfinite();
    return check_done();
}
