/*
 * test_flex.c: the floating frame of a flexible2d body (core/flex.c) at a
 * general state (turned, spinning, deformed, deforming):
 *   - the Jacobian of the right-hand side (flex_jac, the markers' terms
 *     through the gathered points, gravity) against central differences
 *     of the right-hand side;
 *   - the quadratic-velocity forces against Lagrange's equations for the
 *     mass matrix the runtime forms (flex_mass): with T = 1/2 v^T M(q) v,
 *     Q_v = -(dM/dt) v + dT/dq, both from differences of M;
 *   - M symmetric and positive definite there;
 *   - red_ffrf refuses a mass matrix that does not act alike on ux and uy
 *     (its message).
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/data.h"
#include "core/eval.h"
#include "core/model.h"
#include "jnt/jnt.h"
#include "jnt/setup.h"

static const char *const model_text =
    "model flexj\n"
    "param g = 9.81 m/s^2\n"
    "param k = 50 N/m\n"
    "substructure sheet : plate2d(lx = 300 mm, ly = 1 mm, thickness = 20 mm, E = 210 GPa,\n"
    "                             nu = 0.3, rho = 7850 kg/m^3, nx = 12, ny = 1) {\n"
    "  fix     = left\n"
    "  damping = rayleigh(alpha = 3 /s, beta = 1e-5 s)\n"
    "  reduce  = modal(modes = 3) + static(at = top_right)\n"
    "}\n"
    "body beam : flexible2d(substructure = sheet) {\n"
    "  marker tip = top_right\n"
    "  marker base = (0 m, 0 m)\n"
    "}\n"
    "joint pin : revolute(beam.base, (0 m, 0 m))\n"
    "spring s between beam.tip and (0.2 m, -0.1 m) { stiffness = k  length = 0.05 m }\n"
    "simulate { integrator = hht(h = 1 ms)  until = 1 s  gravity = (0.3 m/s^2, -g) }\n";

/* A general state: every coordinate and velocity nonzero. */
static void state(const jnt_abi_model *a, double *y)
{
    for (int i = 0; i < a->ny; i++) /* q_f small: the elastic forces do not swamp the rest */
        y[i] = (i < a->nq ? 1e-5 : 0.01) * sin(1.7 * i + 0.3);
    y[0] = 0.02, y[1] = -0.01, y[2] = 0.7;             /* frame x, y, angle */
    y[a->nq] = 0.3, y[a->nq + 1] = -0.2, y[a->nq + 2] = 2.1;
    for (int i = 0; i < a->nc; i++)
        y[a->ny - a->nc + i] = 0.5 + i;                 /* multipliers */
}

/* A plate whose mass acts twice as much on uy as on ux: no rotation of the
 * frame can carry it, and red_ffrf says so. */
static void uneven_mass(void)
{
    fe_model fe;
    char err[512] = "";
    memset(&fe, 0, sizeof fe);
    int rc = fe_plate2d(&fe, 0.1, 0.01, 0.02, 2.1e11, 0.3, 7850, 4, 1, FE_QM6, err, sizeof err);
    CHECK(rc == 0, "a small plate2d mesh: %s", rc ? err : "ok");
    if (rc != 0)
        return;
    for (int c = 0; c < fe.M.n; c++)
        for (int k = fe.M.colptr[c]; k < fe.M.colptr[c + 1]; k++)
            if (c % 2 == 1 && fe.M.rowind[k] % 2 == 1) /* DOFs ux, uy alternate */
                fe.M.val[k] *= 2;
    double phi[2 * 40] = {0}, inv[JNT_FFRF_SIZE(2)];
    int n = fe.ndof < 40 ? fe.ndof : 40;
    phi[n - 1] = 1, phi[n + n - 2] = 1;
    red_basis b = {n, 2, phi};
    rc = n == fe.ndof ? red_ffrf(&fe, &b, NULL, NULL, inv, err, sizeof err) : 0;
    CHECK(rc == JNT_ERR_MODEL && strstr(err, "acts alike on ux and uy"),
          "red_ffrf refuses a mass that differs in x and y: %s", err);
    fe_free(&fe);
}

int main(void)
{
    uneven_mass();
    jnt_model *m = NULL;
    int rc = jnt_compile_string("flexj", model_text, NULL, &m);
    CHECK(rc == JNT_OK, "a pinned flexible sheet with a spring and gravity compiles");
    if (rc != JNT_OK)
        return check_done();
    const jnt_abi_model *a = m->abi;
    int n = a->ny;
    jnt_data *d = jnt_data_new(m);
    double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
    double *fp = calloc((size_t)n, sizeof *fp), *fm = calloc((size_t)n, sizeof *fm);
    double *J = calloc((size_t)n * n, sizeof *J);
    state(a, y);
    /* the Jacobian against central differences */
    rc = jnt_eval_jacobian(m, d, 0.1, y, J);
    CHECK(rc == JNT_OK, "the Jacobian evaluates (%s)", jnt_data_error(d));
    /* each entry against its row's largest (rows mix stiffness and inertia) */
    double *fd = calloc((size_t)n * n, sizeof *fd), worst = 0;
    int wi = -1, wc = -1;
    for (int c = 0; c < n; c++) {
        double h = 1e-6 * (1 + fabs(y[c]));
        memcpy(yp, y, (size_t)n * sizeof *yp);
        yp[c] = y[c] + h;
        jnt_eval_rhs(m, d, 0.1, yp, fp);
        yp[c] = y[c] - h;
        jnt_eval_rhs(m, d, 0.1, yp, fm);
        for (int i = 0; i < n; i++)
            fd[(size_t)c * n + i] = (fp[i] - fm[i]) / (2 * h);
    }
    for (int i = 0; i < n; i++) {
        double row = 0;
        for (int c = 0; c < n; c++)
            row = fmax(row, fabs(J[(size_t)c * n + i]));
        for (int c = 0; c < n; c++) {
            double e = fabs(fd[(size_t)c * n + i] - J[(size_t)c * n + i]) / (row > 0 ? row : 1);
            if (e > worst)
                worst = e, wi = i, wc = c;
        }
    }
    free(fd);
    CHECK(worst <= 1e-6, "d rhs / dy against central differences: worst %.3g of its row's "
          "largest entry at (%s, %s) (1e-6)", worst, wi >= 0 ? a->y_names[wi] : "-",
          wc >= 0 ? a->y_names[wc] : "-");
    /* Lagrange: M q'' = Q_v + the rest; Q_v = -(dM/dt) v + dT/dq. The model
     * without gravity, spring, damping and joint: the rhs rows of v hold
     * Q_v - Kr q_f. */
    const char *free_text = "model flexq\n"
                            "substructure sheet : plate2d(lx = 300 mm, ly = 1 mm, thickness = 20 mm,"
                            " E = 210 GPa,\n nu = 0.3, rho = 7850 kg/m^3, nx = 12, ny = 1) {\n"
                            "  fix = left\n  reduce = modal(modes = 3) + static(at = top_right)\n}\n"
                            "body beam : flexible2d(substructure = sheet) {}\n"
                            "simulate { integrator = hht(h = 1 ms)  until = 1 s }\n";
    jnt_model *m2 = NULL;
    rc = jnt_compile_string("flexq", free_text, NULL, &m2);
    CHECK(rc == JNT_OK, "a free flexible sheet compiles");
    if (rc == JNT_OK) {
        const jnt_abi_model *b = m2->abi;
        int n2 = b->ny, q2 = b->nq, r = q2 - 3;
        jnt_data *d2 = jnt_data_new(m2);
        double *y2 = calloc((size_t)n2, sizeof *y2), *f = calloc((size_t)n2, sizeof *f);
        double *M0 = calloc((size_t)q2 * q2, sizeof *M0), *Mp = calloc((size_t)q2 * q2, sizeof *Mp);
        double *Mm = calloc((size_t)q2 * q2, sizeof *Mm), *mv = calloc((size_t)m2->mnnz, sizeof *mv);
        double *qv = calloc((size_t)q2, sizeof *qv);
        state(b, y2);
        /* dense M from the pattern's values */
#define DENSE(out, yy)                                                                   \
    do {                                                                                 \
        eval_mass(m2, d2, 0, (yy), mv);                                                  \
        memset((out), 0, (size_t)q2 * q2 * sizeof *(out));                               \
        for (int j = 0; j < q2; j++)                                                     \
            for (int k = m2->mcolptr[j]; k < m2->mcolptr[j + 1]; k++)                    \
                (out)[(size_t)j * q2 + m2->mrowind[k]] = mv[k];                          \
    } while (0)
        DENSE(M0, y2);
        double asym = 0, mmax = 0;
        for (int i = 0; i < q2; i++)
            for (int j = 0; j < q2; j++) {
                asym = fmax(asym, fabs(M0[(size_t)j * q2 + i] - M0[(size_t)i * q2 + j]));
                mmax = fmax(mmax, fabs(M0[(size_t)j * q2 + i]));
            }
        CHECK(asym <= 1e-14 * mmax, "M(q) is symmetric (%.3g)", asym);
        /* Q_v: -(sum_k dM/dq_k v_k) v + 1/2 v^T dM/dq_i v */
        const double *v = y2 + q2;
        for (int k = 0; k < q2; k++) {
            double h = 1e-6;
            double *yy = calloc((size_t)n2, sizeof *yy);
            memcpy(yy, y2, (size_t)n2 * sizeof *yy);
            yy[k] += h;
            DENSE(Mp, yy);
            yy[k] -= 2 * h;
            DENSE(Mm, yy);
            free(yy);
            double t2 = 0;
            for (int i = 0; i < q2; i++)
                for (int j = 0; j < q2; j++) {
                    double dm = (Mp[(size_t)j * q2 + i] - Mm[(size_t)j * q2 + i]) / (2 * h);
                    qv[i] -= dm * v[k] * v[j];
                    t2 += 0.5 * v[i] * dm * v[j];
                }
            qv[k] += t2;
        }
        /* the runtime's Q_v: the rhs plus Kr q_f (Kr from the invariants) */
        const double *inv = m2->data + b->blocks[0].ffrf, *Kr = inv + JNT_FFRF_SIZE(r) - 2 * r * r;
        int f0 = b->blocks[0].q0;
        jnt_eval_rhs(m2, d2, 0, y2, f);
        for (int i = 0; i < r; i++)
            for (int j = 0; j < r; j++)
                f[q2 + f0 + i] += Kr[(size_t)j * r + i] * y2[f0 + j];
        double e = 0, s = 0;
        for (int i = 0; i < q2; i++) {
            e = fmax(e, fabs(f[q2 + i] - qv[i]));
            s = fmax(s, fabs(qv[i]));
        }
        CHECK(s > 1e-6 && e <= 1e-6 * s, "the quadratic-velocity forces satisfy Lagrange's "
              "equations for M(q): worst %.3g (largest %.3g, 1e-6)", e, s);
        free(y2), free(f), free(M0), free(Mp), free(Mm), free(mv), free(qv);
        jnt_data_free(d2);
        jnt_model_free(m2);
    }
    free(y), free(yp), free(fp), free(fm), free(J);
    jnt_data_free(d);
    jnt_model_free(m);
    return check_done();
}
