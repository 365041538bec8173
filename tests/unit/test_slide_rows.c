/*
 * test_slide_rows.c: an output row of a model with sliding interfaces
 * computes only what its outputs read (issue 30 item 7, docs/interfaces.md):
 *
 *   - the compiler's table of what the outputs read of each block
 *     (jnt_abi_block.out_reads, compiler/lower/gen_reads.c): an acceleration and
 *     a velocity of a kept DOF of the Craig-Bampton cantilever are its
 *     coordinate's entries, a displacement of the unreduced block one
 *     entry, a block the outputs do not name none;
 *   - slide_sync_rows (runtime/couple/slide_rows.c) gives those values of
 *     the physical state bit for bit as slide_sync does (the same sums in
 *     the same order) and leaves every other value as it was;
 *   - a run of the model writes the same rows whether its outputs read one
 *     quantity or several (the partial state is never read stale);
 *   - the rhs kernel writes runs of constant zero rows with one memset
 *     (compiler/lower/gen_kernel.c), and the JIT resolves it (compiler/jit/jit.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/data.h"
#include "core/model.h"
#include "couple/iface_slide.h"
#include "couple/slide.h"
#include "csvread.h"
#include "jnt/jnt.h"
#include "plates.h"

static const char *const MODEL =
    "model rows\n"
    PLATE_ON_PLATE
    "force press[i in 1..2] on upper.top[i].uy = -0.5 N * smoothstep(t, 0 s, 0.2 ms)\n"
    "force drag on upper.left[1].ux = 0.5 N * smoothstep(t, 0.2 ms, 0.3 ms)\n"
    "simulate { integrator = central(h = 0.05 us)  until = 0.5 ms }\n"
    "output \"rows.csv\" every 1 us { OUTPUTS }\n";

/* MODEL with the output list `outs` (malloc'd). */
static char *with_outputs(const char *outs)
{
    const char *at = strstr(MODEL, "OUTPUTS");
    size_t n = strlen(MODEL) + strlen(outs) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%.*s%s%s", (int)(at - MODEL), MODEL, outs, at + strlen("OUTPUTS"));
    return s;
}

static jnt_model *compile(const char *outs)
{
    char *text = with_outputs(outs);
    jnt_model *m = NULL;
    if (!text || jnt_compile_string("rows", text, NULL, &m) != JNT_OK)
        m = NULL;
    free(text);
    return m;
}

/* Runs m to its end with the CSV at path. */
static int run_to(jnt_model *m, const char *path)
{
    jnt_data *d = jnt_data_new(m);
    jnt_run_opts o = {.csv_path = path};
    int rc = d ? jnt_run(m, d, &o) : JNT_ERR_NOMEM;
    jnt_data_free(d);
    return rc;
}

static void check_reads(void)
{
    jnt_model *m = compile("t, a = lower.top_right.uy.a, v = lower.top_right.uy.v, "
                           "x = upper.bottom[1].ux, N = c.normal");
    CHECK(m != NULL, "reads: compiles");
    if (!m)
        return;
    const jnt_abi_block *lo = &m->abi->blocks[0], *up = &m->abi->blocks[1];
    const int *rl = lo->out_reads, *ru = up->out_reads;
    CHECK(m->abi->nblocks == 2 && !strcmp(lo->name, "lower") && !strcmp(up->name, "upper"),
          "reads: two blocks, lower and upper");
    /* a kept DOF of the Craig-Bampton block is one coordinate (a unit row) */
    CHECK(rl && rl[0] == 2 && rl[1] >= lo->r && rl[1] < 2 * lo->r && rl[2] == rl[1] + lo->r,
          "reads: lower's top_right.uy velocity and acceleration are one coordinate's two "
          "entries (n = %d: %d, %d of r = %d)", rl ? rl[0] : -1, rl && rl[0] > 0 ? rl[1] : -1,
          rl && rl[0] > 1 ? rl[2] : -1, lo->r);
    CHECK(ru && ru[0] == 1 && ru[1] >= 0 && ru[1] < up->r,
          "reads: upper's bottom[1].ux is one displacement entry (n = %d)", ru ? ru[0] : -1);
    jnt_model_free(m);
    m = compile("t, N = c.normal, F = c.friction");
    CHECK(m && m->abi->blocks[0].out_reads && m->abi->blocks[0].out_reads[0] == 0 &&
              m->abi->blocks[1].out_reads && m->abi->blocks[1].out_reads[0] == 0,
          "reads: outputs of the contact only read nothing of the blocks");
    jnt_model_free(m);
}

/* slide_sync_rows against slide_sync on the compiled model's slide model,
 * after some steps from a small initial displacement. */
static void check_sync(void)
{
    jnt_model *m = compile("t, N = c.normal");
    jnt_data *dt = m ? jnt_data_new(m) : NULL;
    slide_model *sm = NULL;
    char err[256] = "";
    int rc = dt ? iface_model(m, dt->p, 0.05e-6, &sm, err, sizeof err) : -1;
    CHECK(rc == JNT_OK, "sync: the slide model (%s)", err);
    void *ctx = rc == JNT_OK ? iface_modes_ctx(m, dt->p) : NULL;
    slide_data *sd = ctx ? slide_data_new(sm, ctx) : NULL;
    int n = sm ? slide_model_ndof(sm) : 0;
    double *u0 = calloc(4 * (size_t)n + 1, sizeof *u0);
    if (!sd || !u0) {
        CHECK(0, "sync: data");
        goto done;
    }
    for (int i = 0; i < n; i++)
        u0[i] = 1e-9 * sin(1.0 + i); /* every mode moves */
    rc = slide_init(sm, sd, 0, u0, NULL);
    for (int k = 0; k < 40 && rc >= 0; k++)
        rc = slide_step(sm, sd);
    CHECK(rc >= 0 && slide_model_modal(sm, 0), "sync: 40 steps, lower on modal coordinates "
          "(%d)", rc);
    int r = m->abi->blocks[0].r, o = slide_model_offset(sm, 0);
    unsigned char *what = calloc((size_t)r, 1);
    int picks[][2] = {{0, SLIDE_ROW_A}, {3, SLIDE_ROW_U | SLIDE_ROW_V},
                      {r / 2, SLIDE_ROW_U | SLIDE_ROW_V | SLIDE_ROW_A}, {r - 1, SLIDE_ROW_V}};
    for (size_t k = 0; what && k < sizeof picks / sizeof picks[0]; k++)
        what[picks[k][0]] = (unsigned char)picks[k][1];
    slide_rows *rows = what ? slide_rows_new(sm, 0, what) : NULL;
    CHECK(rows != NULL, "sync: slide_rows_new");
    if (!rows) {
        free(what);
        goto done;
    }
    /* sentinels: what slide_sync_rows must not touch keeps them */
    for (int i = 0; i < r; i++)
        sd->u[o + i] = sd->v[o + i] = sd->a[o + i] = -7.0;
    slide_sync_rows(sm, sd, rows);
    double *part = u0 + n; /* u, v, a of lower after the partial sync (3 r <= 3 n) */
    memcpy(part, sd->u + o, (size_t)r * sizeof *part);
    memcpy(part + r, sd->v + o, (size_t)r * sizeof *part);
    memcpy(part + 2 * r, sd->a + o, (size_t)r * sizeof *part);
    slide_sync(sm, sd);
    int same = 1, untouched = 1, nonzero = 0;
    for (int i = 0; i < r; i++)
        for (int q = 0; q < 3; q++) {
            const double *full = q == 0 ? sd->u : q == 1 ? sd->v : sd->a;
            double got = part[q * r + i];
            if (what[i] & (1 << q)) {
                same = same && memcmp(&got, &full[o + i], sizeof got) == 0;
                nonzero += full[o + i] != 0;
            } else {
                untouched = untouched && got == -7.0;
            }
        }
    CHECK(same && nonzero >= 6, "sync: the rows read are slide_sync's values bit for bit "
          "(%d of them nonzero)", nonzero);
    CHECK(untouched, "sync: the rows not read are left as they were");
    slide_rows_free(rows);
    free(what);
done:
    free(u0);
    slide_data_free(sd);
    iface_modes_ctx_free(ctx);
    slide_model_free(sm);
    jnt_data_free(dt);
    jnt_model_free(m);
}

/* The same rows whether the outputs read one quantity of a block or
 * several (the partial physical state is brought up to date each row). */
static void check_runs(void)
{
    char p1[512], p2[512];
    snprintf(p1, sizeof p1, "%s", test_out("slide_rows_1.csv"));
    snprintf(p2, sizeof p2, "%s", test_out("slide_rows_2.csv"));
    jnt_model *m1 = compile("t, a = lower.top_right.uy.a, N = c.normal");
    jnt_model *m2 = compile("t, a = lower.top_right.uy.a, N = c.normal, "
                            "b = lower.right[1].uy.a, v = lower.top_right.uy.v, "
                            "u = lower.top_right.uy, x = upper.bottom[1].ux");
    CHECK(m1 && m2 && run_to(m1, p1) == JNT_OK && run_to(m2, p2) == JNT_OK,
          "runs: both output lists run");
    csv_table t1, t2;
    int ok = csv_load(p1, &t1) == 0;
    ok = csv_load(p2, &t2) == 0 && ok;
    const double *a1 = ok ? csv_col(&t1, "a") : NULL, *a2 = ok ? csv_col(&t2, "a") : NULL;
    const double *n1 = ok ? csv_col(&t1, "N") : NULL, *n2 = ok ? csv_col(&t2, "N") : NULL;
    int same = a1 && a2 && n1 && n2 && t1.nrow == t2.nrow && t1.nrow == 501;
    double amax = 0;
    for (int i = 0; same && i < t1.nrow; i++) {
        same = a1[i] == a2[i] && n1[i] == n2[i];
        amax = fmax(amax, fabs(a1[i]));
    }
    CHECK(same && amax > 0, "runs: 501 rows, a and N the same to the bit with one or six "
          "quantities read (max |a| %.3g m/s^2)", amax);
    if (ok) {
        csv_free(&t1);
        csv_free(&t2);
    }
    jnt_model_free(m1);
    jnt_model_free(m2);
}

/* The rhs kernel's zero rows: one memset per run (compiler/lower/gen_kernel.c). */
static void check_memset(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s", test_out("slide_rows.jnt"));
    char *text = with_outputs("t, N = c.normal");
    FILE *f = text ? fopen(path, "w") : NULL;
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    free(text);
    char *c = NULL;
    double *data = NULL;
    long ndata = 0;
    int rc = f ? jnt_translate_file(path, NULL, &c, &data, &ndata) : -1;
    const char *rhs = c ? strstr(c, "_rhs(double t") : NULL;
    const char *end = rhs ? strstr(rhs, "return 0;") : NULL;
    const char *ms = rhs ? strstr(rhs, "memset(out + 0, 0, ") : NULL;
    CHECK(rc == JNT_OK && ms && ms < end, "memset: the rhs kernel writes the cantilever's "
          "zero rows from out[0] with one memset");
    free(c);
    free(data);
}

int main(void)
{
    check_reads();
    check_sync();
    check_runs();
    check_memset();
    return check_done();
}
