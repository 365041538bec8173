/*
 * test_flexible.c: flexible2d bodies (issue 13, check 5; seed 000 eqs.
 * 12-15). A steel sheet 300 x 20 x 1 mm (plate2d, 30 x 2 elements) reduced
 * to its first cantilever modes, in a floating frame attached at its left
 * edge:
 *   - free-floating (no gravity, no damping), spinning, translating and
 *     vibrating (a pre-loaded spring between two of its markers): the
 *     linear momentum p and the angular momentum L about the origin, from
 *     the states and the body's inertia invariants (core/flex.c), stay
 *     constant (the sheet's vibration is checked to be large enough for
 *     this to test the coupling);
 *   - its frame held by a fixed joint: the tip under a step force follows
 *     the same substructure clamped in an ordinary model (bdf);
 *   - a free sheet on its mean axes (frame = mean_axes): the mean-axis
 *     conditions hold and the centre of mass moves on a line;
 * and the errors of models that misuse one.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "jnt/jnt.h"

#define SHEET                                                                         \
    "substructure sheet : plate2d(lx = 300 mm, ly = 1 mm, thickness = 20 mm, E = 210 GPa,\n" \
    "                             nu = 0.3, rho = 7850 kg/m^3, nx = 30, ny = 1) {\n"     \
    "  fix    = left\n"                                                                  \
    "  reduce = modal(modes = 4)%s\n"                                                    \
    "}\n"

static jnt_model *compile_text(const char *name, const char *text)
{
    jnt_model *m = NULL;
    int rc = jnt_compile_string(name, text, NULL, &m);
    CHECK(rc == JNT_OK && m, "%s compiles", name);
    return rc == JNT_OK ? m : NULL;
}

/* The invariants of the model's first flexible body, and its block. */
static const double *invariants(const jnt_model *m, const jnt_abi_block **blk)
{
    const jnt_abi_model *a = jnt_model_abi(m);
    for (int b = 0; b < a->nblocks; b++)
        if (a->blocks[b].flags & JNT_BLOCK_FFRF) {
            *blk = &a->blocks[b];
            return jnt_model_data(m) + a->blocks[b].ffrf;
        }
    return NULL;
}

/* p = m R' + A Itilde s theta' + A S1 q_f' and
 * L = R x p + (A s) x R' + J theta' + (e0 + E q_f) . q_f'  (core/flex.c) */
static void momenta(const double *inv, int r, const double *R, double th, const double *Rd,
                    double thd, const double *q, const double *qd, double p[2], double *L)
{
    const double *S1 = inv + JNT_FFRF_S1, *j1 = S1 + 2 * r, *e0 = j1 + r, *E = e0 + r;
    const double *Mr = E + r * r;
    double s[2] = {inv[1], inv[2]}, sd[2] = {0, 0}, J = inv[3], eq = 0;
    for (int j = 0; j < r; j++) {
        s[0] += S1[2 * j] * q[j], s[1] += S1[2 * j + 1] * q[j];
        sd[0] += S1[2 * j] * qd[j], sd[1] += S1[2 * j + 1] * qd[j];
        J += 2 * j1[j] * q[j];
        double e = e0[j];
        for (int i = 0; i < r; i++) {
            J += q[i] * Mr[j * r + i] * q[j];
            e += E[i * r + j] * q[i];
        }
        eq += e * qd[j];
    }
    double c = cos(th), sn = sin(th);
    double as[2] = {c * s[0] - sn * s[1], sn * s[0] + c * s[1]};
    double ais[2] = {-as[1], as[0]};
    double asd[2] = {c * sd[0] - sn * sd[1], sn * sd[0] + c * sd[1]};
    for (int k = 0; k < 2; k++)
        p[k] = inv[0] * Rd[k] + ais[k] * thd + asd[k];
    *L = R[0] * p[1] - R[1] * p[0] + as[0] * Rd[1] - as[1] * Rd[0] + J * thd + eq;
}

/* Free-floating: p and L at every row against their initial values. */
static void free_floating(const char *integ, double k)
{
    char text[2048];
    snprintf(text, sizeof text,
             "model free_flex\n" SHEET
             "body beam : flexible2d(substructure = sheet) {\n"
             "  marker tip = top_right\n"
             "  marker mid = (150 mm, 0 mm)\n"
             "}\n"
             "spring pre between beam.tip and beam.mid { stiffness = %g N/m  length = 0.1 m }\n"
             "init beam.x.v = 1 m/s\n"
             "init beam.angle.v = 3 rad/s\n"
             "simulate { integrator = %s  until = 0.1 s }\n", "", k, integ);
    jnt_model *m = compile_text("free_flex", text);
    if (!m)
        return;
    const jnt_abi_block *blk = NULL;
    const double *inv = invariants(m, &blk);
    CHECK(inv != NULL, "the flexible body has its invariants in the model data");
    csv_table t;
    int rc = run_csv(m, test_out("free_flex.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK, "the free-floating sheet runs");
    if (rc == JNT_OK && inv) {
        int r = blk->r;
        const double *col[8];
        const char *names[6] = {"beam.x", "beam.y", "beam.angle", "beam.x.v", "beam.y.v",
                                "beam.angle.v"};
        for (int k = 0; k < 6; k++)
            col[k] = csv_col(&t, names[k]);
        double p0[2] = {0, 0}, L0 = 0, dp = 0, dL = 0, qmax = 0;
        for (int i = 0; i < t.nrow; i++) {
            double q[16], qd[16], R[2] = {col[0][i], col[1][i]}, Rd[2] = {col[3][i], col[4][i]};
            for (int k = 0; k < r && k < 16; k++) {
                char nq[32], nv[32];
                snprintf(nq, sizeof nq, "sheet.q%d", k + 1);
                snprintf(nv, sizeof nv, "sheet.qd%d", k + 1);
                q[k] = csv_col(&t, nq)[i];
                qd[k] = csv_col(&t, nv)[i];
                qmax = fmax(qmax, fabs(q[k]));
            }
            double p[2], L;
            momenta(inv, r, R, col[2][i], Rd, col[5][i], q, qd, p, &L);
            if (i == 0)
                p0[0] = p[0], p0[1] = p[1], L0 = L;
            dp = fmax(dp, hypot(p[0] - p0[0], p[1] - p0[1]));
            dL = fmax(dL, fabs(L - L0));
        }
        double pn = hypot(p0[0], p0[1]);
        printf("INFO: free-floating sheet: |p| %.6g kg m/s, L %.6g kg m^2/s, max |q_f| %.3g, "
               "drift |dp|/|p| %.3g, |dL|/|L| %.3g over %d rows\n", pn, L0, qmax, dp / pn,
               dL / fabs(L0), t.nrow);
        CHECK(qmax > 1e-5, "the sheet vibrates (max |q_f| %.3g > 1e-5: the coupling is tested)",
              qmax);
        MEASURE("flexible.free.p_rel", dp / pn);
        MEASURE("flexible.free.L_rel", dL / fabs(L0));
        CHECK(dp <= 1e-8 * pn, "linear momentum conserved: |p - p0| / |p0| = %.3g <= 1e-8",
              dp / pn);
        CHECK(dL <= 1e-8 * fabs(L0), "angular momentum conserved: |L - L0| / |L0| = %.3g <= 1e-8",
              dL / fabs(L0));
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* Spinning without load: centrifugal forces along the sheet do not excite
 * its bending modes, so q_f stays 0 and the frame moves as a point of a
 * rigid body of mass m with its centre at s0 / m in the frame: the centre
 * moves on a line at its initial velocity, the angle grows at a constant
 * rate (closed form). */
static void spinning(const char *integ, double tol_r, double tol_th)
{
    char text[2048];
    snprintf(text, sizeof text,
             "model spin_flex\n" SHEET
             "body beam : flexible2d(substructure = sheet) {}\n"
             "init beam.x.v = 1 m/s\n"
             "init beam.angle.v = 3 rad/s\n"
             "simulate { integrator = %s  until = 1 s }\n", "", integ);
    jnt_model *m = compile_text("spin_flex", text);
    if (!m)
        return;
    const jnt_abi_block *blk = NULL;
    const double *inv = invariants(m, &blk);
    csv_table t;
    int rc = run_csv(m, test_out("spin_flex.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK && inv, "the spinning sheet runs (%s)", integ);
    if (rc == JNT_OK && inv) {
        const double *x = csv_col(&t, "beam.x"), *y = csv_col(&t, "beam.y");
        const double *th = csv_col(&t, "beam.angle"), *q1 = csv_col(&t, "sheet.q1");
        const double w = 3, cx = inv[1] / inv[0], cy = inv[2] / inv[0];
        /* the centre's velocity at t = 0: R' + w Itilde c */
        double vcx = 1 - w * cy, vcy = w * cx, dr = 0, dth = 0, qm = 0;
        for (int i = 0; i < t.nrow; i++) {
            double tt = t.col[0][i], a = w * tt, c = cos(a), sn = sin(a);
            double xw = cx + vcx * tt - (c * cx - sn * cy), yw = cy + vcy * tt - (sn * cx + c * cy);
            dr = fmax(dr, hypot(x[i] - xw, y[i] - yw));
            dth = fmax(dth, fabs(th[i] - a));
            qm = fmax(qm, fabs(q1[i]));
        }
        printf("INFO: spinning sheet (%s): centre at (%.6g, %.6g) m in the frame, max |q1| "
               "%.3g, frame position off the rigid body's by %.3g m, angle by %.3g rad\n", integ,
               cx, cy, qm, dr, dth);
        {
            char key[64];
            const char *tag = integ[0] == 'r' ? "radau5" : "galpha";
            snprintf(key, sizeof key, "flexible.spin.%s.r", tag);
            MEASURE(key, dr);
            snprintf(key, sizeof key, "flexible.spin.%s.angle", tag);
            MEASURE(key, dth);
        }
        CHECK(qm < 1e-10, "q_f stays 0 (max |q1| = %.3g, 1e-10)", qm);
        CHECK(dr < tol_r && dth < tol_th, "the frame moves as the rigid body's point: %.3g m, "
              "%.3g rad (%.0e m, %.0e rad)", dr, dth, tol_r, tol_th);
        /* the invariants against the sheet's exact inertia (the consistent mass
         * of bilinear elements integrates x, y, x^2 + y^2 exactly): m = rho L
         * h w, centre (L/2, h/2), J about the centre m (L^2 + h^2) / 12 */
        const double L = 0.3, h = 0.001, mass = 7850 * L * h * 0.02;
        double jc = inv[3] - (inv[1] * inv[1] + inv[2] * inv[2]) / inv[0];
        CHECK(fabs(inv[0] - mass) <= 1e-12 * mass && fabs(cx - L / 2) <= 1e-12 &&
                  fabs(cy - h / 2) <= 1e-12 &&
                  fabs(jc - mass * (L * L + h * h) / 12) <= 1e-12 * jc,
              "the invariants: m = %.12g kg (rho L h w = %.12g), centre (%.12g, %.12g) m, "
              "J_c = %.12g kg m^2 (m (L^2 + h^2)/12 = %.12g)", inv[0], mass, cx, cy, jc,
              mass * (L * L + h * h) / 12);
    }
    csv_free(&t);
    jnt_model_free(m);
}

/* The frame held by a fixed joint at the clamp: under a step force on its
 * free corner the sheet moves as the same substructure clamped in an
 * ordinary model (the same equations Mr q'' + Kr q = Phi^T F; here by
 * generalized-alpha on the DAE, there by bdf). */
static void held_frame(void)
{
    static const char *const force = "force push on %s = -0.01 N\n"
                                     "simulate { integrator = %s  until = 0.2 s }\n"
                                     "output \"held.csv\" every 1 ms { t, uy = sheet.top_right.uy }\n";
    char text[2048], tail[512];
    snprintf(tail, sizeof tail, force, "beam.tip.y", "generalized_alpha(h = 5 us, rho_inf = 1)");
    snprintf(text, sizeof text,
             "model held_flex\n" SHEET
             "body beam : flexible2d(substructure = sheet) {\n"
             "  marker tip = top_right\n"
             "  marker base = (0 m, 0 m)\n"
             "}\n"
             "joint clamp : fixed(beam.base, (0 m, 0 m))\n%s", "", tail);
    jnt_model *m1 = compile_text("held_flex", text);
    snprintf(tail, sizeof tail, force, "sheet.top_right.uy", "bdf(rtol = 1e-10, atol = 1e-14)");
    snprintf(text, sizeof text, "model held_ode\n" SHEET "%s", "", tail);
    jnt_model *m2 = compile_text("held_ode", text);
    csv_table a, b;
    int rc1 = m1 ? run_csv(m1, test_out("held_flex.csv"), (jnt_run_opts){0}, NULL, &a) : -1;
    int rc2 = m2 ? run_csv(m2, test_out("held_ode.csv"), (jnt_run_opts){0}, NULL, &b) : -1;
    CHECK(rc1 == JNT_OK && rc2 == JNT_OK, "the held sheet and the clamped substructure run");
    if (rc1 == JNT_OK && rc2 == JNT_OK && a.nrow == b.nrow) {
        const double *ua = csv_col(&a, "uy"), *ub = csv_col(&b, "uy");
        double d = 0, amp = 0;
        for (int i = 0; i < a.nrow; i++) {
            d = fmax(d, fabs(ua[i] - ub[i]));
            amp = fmax(amp, fabs(ub[i]));
        }
        /* generalized-alpha's O(h^2) phase error: 8.2e-6 at h = 10 us, 2.0e-6 at 5 us */
        MEASURE("flexible.held.rel", d / amp);
        CHECK(amp > 0 && d <= 1e-5 * amp, "frame held: the corner's uy follows the clamped "
              "substructure's within %.3g of its amplitude %.3g m (1e-5)", d / amp, amp);
    }
    if (rc1 == JNT_OK)
        csv_free(&a);
    if (rc2 == JNT_OK)
        csv_free(&b);
    jnt_model_free(m1);
    jnt_model_free(m2);
}

/* Mean axes (frame = mean_axes on a free sheet, modal(7): 3 rigid modes
 * dropped, 4 elastic): S1 = 0 and e0 = 0, so the centre of mass is R + A s0
 * / m whatever q_f does, and it moves on a line at constant speed while
 * the sheet spins and vibrates. */
static void mean_axes(void)
{
    static const char *const text =
        "model mean_flex\n"
        "substructure sheet : plate2d(lx = 300 mm, ly = 1 mm, thickness = 20 mm, E = 210 GPa,\n"
        "                             nu = 0.3, rho = 7850 kg/m^3, nx = 30, ny = 1) {\n"
        "  reduce = modal(modes = 7)\n"
        "  frame  = mean_axes\n"
        "}\n"
        "body beam : flexible2d(substructure = sheet) {\n"
        "  marker tip = top_right\n"
        "  marker mid = (150 mm, 0 mm)\n"
        "}\n"
        "spring pre between beam.tip and beam.mid { stiffness = 2000 N/m  length = 0.1 m }\n"
        "init beam.x.v = 1 m/s\n"
        "init beam.angle.v = 3 rad/s\n"
        "simulate { integrator = generalized_alpha(h = 2 us, rho_inf = 1)  until = 0.1 s }\n";
    jnt_model *m = compile_text("mean_flex", text);
    if (!m)
        return;
    const jnt_abi_block *blk = NULL;
    const double *inv = invariants(m, &blk);
    csv_table t;
    int rc = run_csv(m, test_out("mean_flex.csv"), (jnt_run_opts){0}, NULL, &t);
    CHECK(rc == JNT_OK && inv && blk->r == 4, "the free sheet on its mean axes runs (%d elastic "
          "coordinates: modal(7) less the 3 rigid modes)", blk ? blk->r : -1);
    if (rc == JNT_OK && inv && blk->r == 4) {
        int r = blk->r;
        const double *S1 = inv + JNT_FFRF_S1, *e0 = S1 + 3 * r;
        double s1 = 0, e = 0;
        for (int j = 0; j < r; j++) {
            s1 = fmax(s1, fmax(fabs(S1[2 * j]), fabs(S1[2 * j + 1])));
            e = fmax(e, fabs(e0[j]));
        }
        MEASURE("flexible.mean_axes.S1", s1);
        MEASURE("flexible.mean_axes.e0", e);
        CHECK(s1 <= 1e-12 * sqrt(inv[0]) && e <= 1e-12 * sqrt(inv[3]),
              "mean-axis conditions: |S1| = %.3g (m^1/2 = %.3g), |e0| = %.3g (J0^1/2 = %.3g)", s1,
              sqrt(inv[0]), e, sqrt(inv[3]));
        const double *x = csv_col(&t, "beam.x"), *y = csv_col(&t, "beam.y");
        const double *th = csv_col(&t, "beam.angle"), *q[4];
        for (int k = 0; k < 4; k++) {
            char nm[32];
            snprintf(nm, sizeof nm, "sheet.q%d", k + 1);
            q[k] = csv_col(&t, nm);
        }
        double cx0 = 0, cy0 = 0, vx = 0, vy = 0, dev = 0, qm = 0;
        int last = t.nrow - 1;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < t.nrow; i++) {
                double c = cos(th[i]), sn = sin(th[i]), a = inv[1] / inv[0], b = inv[2] / inv[0];
                double cx = x[i] + c * a - sn * b, cy = y[i] + sn * a + c * b;
                if (pass == 0 && i == 0)
                    cx0 = cx, cy0 = cy;
                if (pass == 0 && i == last)
                    vx = (cx - cx0) / t.col[0][i], vy = (cy - cy0) / t.col[0][i];
                if (pass == 1) {
                    dev = fmax(dev, hypot(cx - cx0 - vx * t.col[0][i], cy - cy0 - vy * t.col[0][i]));
                    for (int k = 0; k < 4; k++)
                        qm = fmax(qm, fabs(q[k][i]));
                }
            }
        printf("INFO: mean axes: centre of mass at %.6g m/s, off its line by %.3g m; max |q_f| "
               "%.3g\n", hypot(vx, vy), dev, qm);
        MEASURE("flexible.mean_axes.line", dev);
        CHECK(qm > 1e-6 && dev <= 1e-9, "the centre of mass R + A s0/m moves on a line while the "
              "sheet vibrates (max |q_f| %.3g): off by %.3g m (1e-9)", qm, dev);
    }
    csv_free(&t);
    jnt_model_free(m);
}

int main(void)
{
    free_floating("generalized_alpha(h = 2 us, rho_inf = 1)", 20);
    /* generalized-alpha: its O(h^2) error; radau5: rtol */
    spinning("generalized_alpha(h = 0.1 ms, rho_inf = 1)", 1e-8, 1e-9);
    spinning("radau5(rtol = 1e-8, atol = 1e-10)", 1e-9, 1e-9);
    held_frame();
    mean_axes();
    return check_done();
}
