/*
 * test_cylinder_gap.c: seed 001's spatial clearance joint in the language
 * (`contact ... { clearance = cylinder(rho_k, rho_l, axis) }`,
 * compiler/kinds/rigid3d.c: a start from the direction across the axis and four
 * Newton steps on eq. 12, as expressions) against the runtime's library
 * (runtime/core/clearance.c: clr_spatial_gap, a guarded multi-start Newton
 * checked against brute force in test_clearance.c), on random poses of a
 * cylinder and a disk tilted up to 0.03 rad, near contact (claim 4 through
 * the generated code).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/clearance.h"
#include "core/data.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

static const char *const model_text =
    "model cyl\nimport contact\n"
    "body k : rigid3d(mass = 1 kg, inertia = (1 kg*m^2, 1 kg*m^2, 1 kg*m^2)) {\n"
    "  marker c = (0 m, 0 m, 0 m)\n}\n"
    "body l : rigid3d(mass = 1 kg, inertia = (1 kg*m^2, 1 kg*m^2, 1 kg*m^2)) {\n"
    "  marker c = (0 m, 0 m, 0 m)\n}\n"
    "contact cj between l.c and k.c {\n"
    "  law = linear_spring(k = 1 MN/m)\n"
    "  clearance = cylinder(rho_k = 80.8 mm, rho_l = 80 mm, axis = (0, 0, 1))\n}\n"
    "simulate { integrator = midpoint(h = 1 ms)  until = 1 ms }\n"
    "output \"cyl.csv\" every 1 ms { t, gap = cj.gap }\n";

static double urand(void)
{
    return rand() / (RAND_MAX + 1.0);
}

/* A rotation matrix (row-major) from a rotation vector, Rodrigues. */
static void rot(const double r[3], double R[9])
{
    double t = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    double a = t > 0 ? sin(t) / t : 1, b = t > 0 ? (1 - cos(t)) / (t * t) : 0.5;
    double K[9] = {0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double k2 = r[i] * r[j] - (i == j) * t * t;
            R[3 * i + j] = (i == j) + a * K[3 * i + j] + b * k2;
        }
}

static void mul(const double A[9], const double B[9], double C[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

int main(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("cyl", model_text, NULL, &m);
    CHECK(rc == JNT_OK, "compile the cylinder clearance model");
    if (rc != JNT_OK)
        return check_done();
    const jnt_abi_model *a = jnt_model_abi(m);
    jnt_data *d = jnt_data_new(m);
    int go = jnt_output_index(m, "gap");
    static const char *const nm[12] = {"x", "y", "z", "d1x", "d1y", "d1z", "d2x", "d2y", "d2z",
                                       "d3x", "d3y", "d3z"};
    int ik[12], il[12];
    char name[32];
    for (int i = 0; i < 12; i++) {
        snprintf(name, sizeof name, "k.%s", nm[i]);
        ik[i] = jnt_state_index(m, name);
        snprintf(name, sizeof name, "l.%s", nm[i]);
        il[i] = jnt_state_index(m, name);
    }
    srand(7);
    double worst = 0;
    int n = 0, near = 0;
    for (int trial = 0; trial < 5000; trial++) {
        double rk[3], rl[3], Rk[9], T[9], Rl[9], pk[3], x[3];
        for (int i = 0; i < 3; i++)
            rk[i] = 4 * (urand() - 0.5);
        double tilt = 0.03 * urand(), ax = 2 * PI * urand();
        rl[0] = tilt * cos(ax), rl[1] = tilt * sin(ax), rl[2] = 2 * PI * urand();
        rot(rk, Rk);
        rot(rl, T);
        mul(Rk, T, Rl); /* the disk: the cylinder's frame turned by a tilt and a spin */
        /* the disk's centre across the axis at 0.6 .. 1 mm, along it up to 5 mm */
        double rr = 0.6e-3 + 0.4e-3 * urand(), ph = 2 * PI * urand(), z = 5e-3 * (urand() - 0.5);
        double xl[3] = {rr * cos(ph), rr * sin(ph), z};
        for (int i = 0; i < 3; i++) {
            pk[i] = urand() - 0.5;
            x[i] = Rk[3 * i] * xl[0] + Rk[3 * i + 1] * xl[1] + Rk[3 * i + 2] * xl[2];
        }
        memset(d->y, 0, (size_t)a->ny * sizeof *d->y);
        for (int i = 0; i < 3; i++) {
            d->y[ik[i]] = pk[i];
            d->y[il[i]] = pk[i] + x[i];
            for (int c = 0; c < 3; c++) { /* director c, component i: column c of R */
                d->y[ik[3 + 3 * c + i]] = Rk[3 * i + c];
                d->y[il[3 + 3 * c + i]] = Rl[3 * i + c];
            }
        }
        a->output(0, d->y, NULL, d->d, d->p, d->out);
        clr_spatial s;
        if (clr_spatial_gap(0.0808, 0.08, Rk, Rl, x, &s) != 0)
            continue;
        if (fabs(d->out[go] - s.q) > 1e-9)
            printf("INFO: gap %.9g library %.9g tilt %.3g rr %.3g z %.3g phi %.3g\n", d->out[go], s.q, tilt, rr, z, s.phi);
        worst = fmax(worst, fabs(d->out[go] - s.q));
        n++;
        near += fabs(s.q) < 5e-4;
    }
    CHECK(n >= 4900 && near >= 1000 && worst <= 1e-12,
          "cylinder clearance, generated gap = the library's minimum over phi on %d poses (%d "
          "within 0.5 mm of contact; disk tilted up to 0.03 rad): largest difference %.2g m "
          "(1e-12)", n, near, worst);
    jnt_data_free(d);
    jnt_model_free(m);
    return check_done();
}
