/*
 * test_gather_half.c: the gather skips the half no kernel reads
 * (jnt_abi_model.gather_skip, compiler/lower/gen_reads.c, runtime/core/eval.c).
 * A modal substructure tied to a point body by a spring: its rhs kernel
 * reads the gathered positions only, so eval_forces leaves the velocity
 * half of u unwritten (the arena's zeros), and a later full gather at the
 * same y fills it with the values a fresh full gather gives. With a damper
 * instead the rhs kernel reads the velocities and they are gathered. A run
 * of the model is bit-identical to one of a copy whose gather_skip is 0.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/eval.h"
#include "jnt/jnt.h"

static const char *const src_spring =
    "substructure e : chain(n = 6, k = 900 N/m, mass = 0.2 kg) { fix = first\n"
    "  reduce = modal(modes = 3) }\n"
    "body b : point(mass = 1 kg) { dof x }\n"
    "spring k between e.last.ux and b.x { stiffness = 300 N/m }\n"
    "force f on b.x = 3 N * sin(9 * t / 1 s)\n"
    "simulate { integrator = bdf(rtol = 1e-8, atol = 1e-12)  until = 0.5 s }\n";

static const char *const src_damper =
    "substructure e : chain(n = 6, k = 900 N/m, mass = 0.2 kg) { fix = first\n"
    "  reduce = modal(modes = 3) }\n"
    "body b : point(mass = 1 kg) { dof x }\n"
    "spring k between b.x and ground { stiffness = 300 N/m }\n"
    "damper c between e.last.ux and b.x { damping = 2 N*s/m }\n"
    "simulate { integrator = bdf(rtol = 1e-8, atol = 1e-12)  until = 0.5 s }\n";

/* An arbitrary state with non-zero positions and velocities. */
static void some_y(int ny, double *y)
{
    for (int i = 0; i < ny; i++)
        y[i] = 0.01 * (i + 1) * (i % 2 ? -1.0 : 1.0);
}

static void test_positions_only(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("gather_spring", src_spring, NULL, &m);
    CHECK(rc == JNT_OK, "spring model compiles");
    if (rc != JNT_OK)
        return;
    const jnt_abi_model *a = jnt_model_abi(m);
    int nu = a->nu, ny = a->ny;
    CHECK(nu > 0 && ny <= 64, "gathered points: %d", nu);
    CHECK((a->gather_skip & JNT_SKIP_RHS_UV) && !(a->gather_skip & JNT_SKIP_RHS_U),
          "rhs reads positions only: gather_skip = %d", a->gather_skip);
    CHECK((a->gather_skip & JNT_SKIP_UPDATE_U) && (a->gather_skip & JNT_SKIP_UPDATE_UV),
          "no discrete states: the update reads neither half");
    jnt_data *d = jnt_data_new(m), *ref = jnt_data_new(m);
    double y[64], ydot[64];
    some_y(ny, y);
    const double *full = eval_gather(m, ref, y);
    int vnz = 0;
    for (int i = 0; i < nu; i++)
        vnz += full[nu + i] != 0.0;
    CHECK(vnz > 0, "a full gather gives non-zero velocities (%d of %d)", vnz, nu);
    CHECK(eval_forces(m, d, 0.0, y, ydot) == 0, "eval_forces");
    const double *u = eval_gather_for(m, d, y, EVAL_RHS); /* cached: no gather */
    int same_u = 1, zero_v = 1;
    for (int i = 0; i < nu; i++) {
        same_u &= u[i] == full[i];
        zero_v &= u[nu + i] == 0.0;
    }
    CHECK(same_u, "the rhs's positions equal a full gather's");
    CHECK(zero_v, "the rhs left the velocity half ungathered");
    u = eval_gather(m, d, y); /* the same y: only the missing half */
    int same_v = 1;
    for (int i = 0; i < 2 * nu; i++)
        same_v &= u[i] == full[i];
    CHECK(same_v, "a full gather at the same y then fills the velocities, bit for bit");
    jnt_data_free(ref);
    jnt_data_free(d);

    /* a run is bit-identical to one that gathers everything */
    jnt_abi_model all = *a;
    all.gather_skip = 0;
    jnt_model *m0 = NULL;
    CHECK(jnt_model_from_abi(&all, jnt_model_data(m), &m0) == JNT_OK, "copy with gather_skip 0");
    double x[2][64];
    for (int k = 0; k < 2 && m0; k++) {
        jnt_model *mk = k ? m0 : m;
        jnt_data *dk = jnt_data_new(mk);
        jnt_run_opts o = {.csv_path = ""};
        rc = jnt_run(mk, dk, &o);
        CHECK(rc == JNT_OK, "run %d (%s)", k, jnt_data_error(dk));
        for (int i = 0; i < ny; i++)
            x[k][i] = jnt_state(mk, dk, i);
        jnt_data_free(dk);
    }
    CHECK(m0 && memcmp(x[0], x[1], (size_t)ny * sizeof x[0][0]) == 0,
          "final state bit-identical with and without skipping (y[0] = %.15g)", x[0][0]);
    jnt_model_free(m0);
    jnt_model_free(m);
}

static void test_velocities_read(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("gather_damper", src_damper, NULL, &m);
    CHECK(rc == JNT_OK, "damper model compiles");
    if (rc != JNT_OK)
        return;
    const jnt_abi_model *a = jnt_model_abi(m);
    int nu = a->nu, ny = a->ny;
    CHECK(!(a->gather_skip & JNT_SKIP_RHS_UV) && ny <= 64,
          "the damper's rhs reads velocities: gather_skip = %d", a->gather_skip);
    jnt_data *d = jnt_data_new(m), *ref = jnt_data_new(m);
    double y[64], ydot[64];
    some_y(ny, y);
    const double *full = eval_gather(m, ref, y);
    CHECK(eval_forces(m, d, 0.0, y, ydot) == 0, "eval_forces");
    const double *u = eval_gather_for(m, d, y, EVAL_RHS);
    int same = 1;
    for (int i = nu; i < 2 * nu; i++)
        same &= u[i] == full[i];
    CHECK(same, "the rhs gathered the velocities");
    jnt_data_free(ref);
    jnt_data_free(d);
    jnt_model_free(m);
}

int main(void)
{
    test_positions_only();
    test_velocities_read();
    return check_done();
}
