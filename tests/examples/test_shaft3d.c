/*
 * test_shaft3d.c: the beam3d substructure in the language (issue 14): seed
 * 001 E2's shaft (L = 6 m, I22 = 28.2, I33 = 28.7 kN m^2, GJ = 22.1 kN m^2,
 * 0.848 kg/m; EA, not given, from the thin tube: 2 EI / R^2), simply
 * supported, its linear analysis against the Euler-Bernoulli closed forms
 * (i pi / L)^2 sqrt(EI / m) in both bending planes.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "jnt/jnt.h"

#define PI 3.14159265358979323846

static const char *const shaft_text =
    "model shaft\n"
    "substructure shaft : beam3d(length = 6 m, elements = 20, EA = 22.76 MN, GJ = 22.1 kN*m^2,\n"
    "                            EI22 = 28.2 kN*m^2, EI33 = 28.7 kN*m^2, mass = 0.848 kg/m) {\n"
    "  fix = left.ux\n  fix = left.uy\n  fix = left.uz\n  fix = left.rx\n"
    "  fix = right.uy\n  fix = right.uz\n}\n"
    "analysis modes : linear(at = 0 s)\n";

int main(void)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string("shaft", shaft_text, NULL, &m);
    CHECK(rc == JNT_OK, "compile the beam3d shaft");
    if (rc != JNT_OK)
        return check_done();
    const jnt_abi_model *a = jnt_model_abi(m);
    double *re = malloc((size_t)a->ny * sizeof *re), *im = malloc((size_t)a->ny * sizeof *im);
    jnt_data *d = jnt_data_new(m);
    rc = jnt_init_state(m, d) == JNT_OK && jnt_eigenvalues(m, d, re, im) == JNT_OK ? 0 : -1;
    CHECK(rc == 0, "the shaft's eigenvalues");
    /* the four lowest positive imaginary parts: two per bending mode pair */
    double w[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    for (int k = 0; k < 4 && rc == 0; k++)
        for (int i = 0; i < a->ny; i++)
            if (im[i] > 1e-9 && im[i] < w[k] && (k == 0 || im[i] > w[k - 1] * (1 + 1e-9)))
                w[k] = im[i];
    const double L = 6, mass = 0.848, EI[2] = {28.2e3, 28.7e3};
    for (int i = 1; i <= 2; i++)
        for (int p = 0; p < 2; p++) {
            double want = pow(i * PI / L, 2) * sqrt(EI[p] / mass), got = w[2 * (i - 1) + p];
            CHECK(fabs(got - want) <= 1e-5 * want, "simply supported beam3d shaft: bending mode %d "
                  "about axis %d = %.6f rad/s, Euler-Bernoulli %.6f (rel 1e-5)", i, p ? 3 : 2,
                  got, want);
        }
    free(re);
    free(im);
    jnt_data_free(d);
    jnt_model_free(m);
    return check_done();
}
