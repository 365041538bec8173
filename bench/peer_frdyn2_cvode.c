/*
 * peer_frdyn2_cvode.c: the hand-written C peer of examples/frdyn2_bench.jnt
 * for the "peers" section of `make bench` (bench/peers.sh): seed 002's
 * virtual friction test bench (Rill and Schuderer 2023, Listings A1-A4; the
 * same equations as bench/peer_frdyn2.py) with SUNDIALS CVODE BDF (Debian's
 * libsundials-dev), Newton with the analytic Jacobian and the dense direct
 * solver, rtol 1e-6, atol 1e-9 (Listing A1), the output grid t = 0, DT_OUT,
 * ..., t_end written as CSV (t, u, v, F, F_R) as the jnt model's output block.
 *     F0 = sigma0 z + sigma1 v,  dv = sign(F0) v_s (1 - sqrt(max(1 - |F0|/(mu_s N), 0)))
 *     vr = v - zd + dv,  F_R = sign(vr) mu(|vr|) N    (parabola, cubic, mu_d)
 *     z' = zd,  zd' = (F_R - sigma0 z - sigma1 zd) 4 sigma0 / sigma1^2
 *     u' = v,   v'  = (F - F_R) / m
 *
 * Usage: peer_frdyn2_cvode TE OUT.csv [DT_OUT] [RATIO]
 * (OUT.csv "" writes nothing) prints
 *   steps S rhs R jac J cpu C u_end U FR_end F
 * C: CPU seconds (clock) of CVodeCreate to the last row written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

static const double MASS = 1.0, GRAV = 9.81;
static const double MU_S = 0.6, V_S = 1e-3, MU_D = 0.3, V_D = 1e-2;
static const double S0 = 5e6, S1 = 3192.75;

typedef struct {
    double tE, Fa;
} bench;

static double sgn(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

/* Listing A3: cubic step from f0 at x0 to f1 at x1 */
static double step3(double x, double x0, double x1, double f0, double f1)
{
    if (x <= x0)
        return f0;
    if (x >= x1)
        return f1;
    double xi = (x - x0) / (x1 - x0);
    return f0 + (f1 - f0) * xi * xi * (3.0 - 2.0 * xi);
}

/* FrDyn2 (Listing A4): F_R; *dFR = dF_R/dvr, *ddv = d(dv)/dF0 */
static double friction(double v, double z, double zd, double *dFR, double *ddv)
{
    double N = MASS * GRAV, Fs = MU_S * N;
    double F0 = S0 * z + S1 * v, dis = fmax(1.0 - fabs(F0) / Fs, 0.0), sq = sqrt(dis);
    double vr = v - zd + sgn(F0) * V_S * (1.0 - sq), va = fabs(vr), mu, dmu;
    if (va <= V_S) {
        double x1 = va / V_S;
        mu = x1 * (2.0 - x1) * MU_S;
        dmu = (2.0 - 2.0 * x1) * MU_S / V_S;
    } else if (va < V_D) {
        double x2 = (va - V_S) / (V_D - V_S);
        mu = MU_D + (MU_S - MU_D) * (1.0 - x2 * x2 * (3.0 - 2.0 * x2));
        dmu = (MU_S - MU_D) * (-6.0 * x2 + 6.0 * x2 * x2) / (V_D - V_S);
    } else {
        mu = MU_D;
        dmu = 0.0;
    }
    *dFR = N * dmu;
    *ddv = dis > 0.0 ? V_S / (2.0 * Fs * sq) : 0.0;
    return sgn(vr) * mu * N;
}

static int rhs(realtype t, N_Vector yv, N_Vector ydot, void *user)
{
    const bench *b = user;
    const double *y = N_VGetArrayPointer(yv);
    double *d = N_VGetArrayPointer(ydot), dFR, ddv;
    double FR = friction(y[1], y[2], y[3], &dFR, &ddv);
    double F = step3(t, 0.0, b->tE, 0.0, b->Fa);
    d[0] = y[1];
    d[1] = (F - FR) / MASS;
    d[2] = y[3];
    d[3] = (FR - S0 * y[2] - S1 * y[3]) * 4.0 * S0 / (S1 * S1);
    return 0;
}

static int jac(realtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *user, N_Vector t1,
               N_Vector t2, N_Vector t3)
{
    (void)t, (void)fy, (void)user, (void)t1, (void)t2, (void)t3;
    const double *y = N_VGetArrayPointer(yv);
    double dFR, ddv, kb = 4.0 * S0 / (S1 * S1);
    friction(y[1], y[2], y[3], &dFR, &ddv);
    double r_v = dFR * (1.0 + ddv * S1), r_z = dFR * ddv * S0, r_zd = -dFR;
    SUNMatZero(J);
    SM_ELEMENT_D(J, 0, 1) = 1.0;
    SM_ELEMENT_D(J, 1, 1) = -r_v / MASS;
    SM_ELEMENT_D(J, 1, 2) = -r_z / MASS;
    SM_ELEMENT_D(J, 1, 3) = -r_zd / MASS;
    SM_ELEMENT_D(J, 2, 3) = 1.0;
    SM_ELEMENT_D(J, 3, 1) = kb * r_v;
    SM_ELEMENT_D(J, 3, 2) = kb * (r_z - S0);
    SM_ELEMENT_D(J, 3, 3) = kb * (r_zd - S1);
    return 0;
}

static void row(FILE *f, const bench *b, double t, const double *y)
{
    double dFR, ddv;
    if (f)
        fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g\n", t, y[0], y[1], step3(t, 0.0, b->tE, 0.0, b->Fa),
                friction(y[1], y[2], y[3], &dFR, &ddv));
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s TE OUT.csv [DT_OUT] [RATIO]\n", argv[0]);
        return 2;
    }
    bench b = {atof(argv[1]), (argc > 4 ? atof(argv[4]) : 0.95) * MU_S * MASS * GRAV};
    double dt = argc > 3 ? atof(argv[3]) : 1e-5, t_end = 1.75 * b.tE + 10e-3;
    if (!(b.tE > 0) || !(dt > 0)) {
        fprintf(stderr, "%s: TE and DT_OUT must be positive\n", argv[0]);
        return 2;
    }
    FILE *f = NULL;
    if (argv[2][0] && !(f = fopen(argv[2], "w"))) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[2]);
        return 1;
    }
    clock_t c0 = clock();
    SUNContext ctx;
    if (SUNContext_Create(NULL, &ctx) != 0)
        return 1;
    N_Vector y = N_VNew_Serial(4, ctx);
    N_VConst(0.0, y);
    void *cv = CVodeCreate(CV_BDF, ctx);
    SUNMatrix A = SUNDenseMatrix(4, 4, ctx);
    SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
    int st = CVodeInit(cv, rhs, 0.0, y);
    if (st == CV_SUCCESS)
        st = CVodeSStolerances(cv, 1e-6, 1e-9);
    if (st == CV_SUCCESS)
        st = CVodeSetUserData(cv, &b);
    if (st == CV_SUCCESS)
        st = CVodeSetLinearSolver(cv, LS, A);
    if (st == CV_SUCCESS)
        st = CVodeSetJacFn(cv, jac);
    if (st == CV_SUCCESS)
        st = CVodeSetMaxNumSteps(cv, 100000000L);
    if (st == CV_SUCCESS)
        st = CVodeSetStopTime(cv, t_end);
    if (f)
        fputs("t,u,v,F,F_R\n", f);
    row(f, &b, 0.0, N_VGetArrayPointer(y));
    long n = (long)floor(t_end / dt + 1e-9);
    realtype t = 0;
    for (long k = 1; st >= 0 && k <= n + 1; k++) {
        double tout = k <= n ? k * dt : t_end;
        if (k == n + 1 && tout <= n * dt * (1 + 1e-12))
            break;
        st = CVode(cv, tout, y, &t, CV_NORMAL);
        if (st >= 0)
            row(f, &b, t, N_VGetArrayPointer(y));
    }
    if (f)
        fclose(f);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (st < 0) {
        fprintf(stderr, "%s: CVODE failed at t = %g (flag %d)\n", argv[0], t, st);
        return 1;
    }
    long steps = 0, nfe = 0, nje = 0, nfels = 0;
    CVodeGetNumSteps(cv, &steps);
    CVodeGetNumRhsEvals(cv, &nfe);
    CVodeGetNumJacEvals(cv, &nje);
    CVodeGetNumLinRhsEvals(cv, &nfels);
    const double *yy = N_VGetArrayPointer(y);
    double dFR, ddv;
    printf("steps %ld rhs %ld jac %ld cpu %.6g u_end %.12g FR_end %.12g\n", steps, nfe + nfels, nje,
           cpu, yy[0], friction(yy[1], yy[2], yy[3], &dFR, &ddv));
    CVodeFree(&cv);
    SUNLinSolFree(LS);
    SUNMatDestroy(A);
    N_VDestroy(y);
    SUNContext_Free(&ctx);
    return 0;
}
