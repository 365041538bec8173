/*
 * peer_andrews_ida.c: the C peer of Andrews' squeezing mechanism for the
 * "peers" section of `make bench` (bench/peers.sh): SUNDIALS IDA (variable
 * order BDF, Debian's libsundials-dev) on the test set's formulation in the
 * seven relative angles, written as the stabilised index-2 DAE of Gear,
 * Gupta and Leimkuhler (GGL; Hairer and Wanner, Solving ODEs II, Sect. VII.1
 * and VII.7):
 *     q' = v - G(q)^T mu,
 *     M(q) v' = f(q, v) - G(q)^T lambda,
 *     0 = g(q),   0 = G(q) v,
 * 26 unknowns y = (q, v, lambda, mu). M, f, g, G are the Test Set for IVP
 * Solvers' (Mazzia and Magherini, problem "andrews", andrews.f; the same
 * expressions as bench/andrews_radau.py). The multipliers are algebraic and
 * left out of the error test (IDASetSuppressAlg), as usual for index 2, and
 * out of the Newton test (absolute tolerance 1e10 on them, below).
 * IDA's dense direct solver (SUNLinSol_Dense) with its difference-quotient
 * Jacobian: what a C user writes first. The start is consistent: the test
 * set's angles at rest, lambda and v' from [M G^T; G 0] [v'; lambda] = [f; 0].
 *
 * Usage: peer_andrews_ida RTOL [ATOL]
 * prints one line
 *   steps S res R jac J lu L cpu C err E g G
 * S: IDA's steps; R: residual calls (Jacobian's included); J: Jacobians;
 * L: setups; C: CPU seconds (clock) of IDACreate to the end of the solve;
 * E: the largest |angle - reference| at t = 0.03 s (andsoln of the test set);
 * G: max |g(q)| there (m). Exit status 1 when IDA fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

/* the test set's data (andrews.f, subroutine andpar) */
static const double M1 = .04325, M2 = .00365, M3 = .02373, M4 = .00706, M5 = .07050,
                    M6 = .00706, M7 = .05498;
static const double XA = -.06934, YA = -.00227, XB = -.03635, YB = .03273, XC = .014, YC = .072;
static const double C0 = 4530.0;
static const double I1 = 2.194e-6, I2 = 4.410e-7, I3 = 5.255e-6, I4 = 5.667e-7, I5 = 1.169e-5,
                    I6 = 5.667e-7, I7 = 1.912e-5;
static const double D = 28e-3, DA = 115e-4, E = 2e-2, EA = 1421e-5;
static const double RR = 7e-3, RA = 92e-5, L0 = 7785e-5;
static const double SS = 35e-3, SA = 1874e-5, SB = 1043e-5, SC = 18e-3, SD = 2e-2;
static const double TA = 2308e-5, TB = 916e-5, U = 4e-2, UA = 1228e-5, UB = 449e-5;
static const double ZF = 2e-2, ZT = 4e-2, FA = 1421e-5, MOM = 33e-3;

/* the consistent initial angles (andrews.f, yini) and the reference at 0.03 s (andsoln) */
static const double Q0[7] = {-0.0617138900142764496358948458001, 0.0,
                             0.455279819163070380255912382449, 0.222668390165885884674473185609,
                             0.487364979543842550225598953530, -0.222668390165885884674473185609,
                             1.23054744454982119249735015568};
static const double QREF[7] = {15.81077119629904, -15.75637105984298, 0.04082224013073101,
                               -0.5347301163226948, 0.5244099658805304, 0.5347301163226948,
                               1.048080741042263};
#define T_END 0.03

/* g(q): the six loop-closure rows (m) */
static void constraints(const double *q, double *g)
{
    double be = q[0], th = q[1], ga = q[2], ph = q[3], de = q[4], om = q[5], ep = q[6];
    double x1 = RR * cos(be) - D * cos(be + th), y1 = RR * sin(be) - D * sin(be + th);
    g[0] = x1 - SS * sin(ga) - XB;
    g[1] = y1 + SS * cos(ga) - YB;
    g[2] = x1 - E * sin(ph + de) - ZT * cos(de) - XA;
    g[3] = y1 + E * cos(ph + de) - ZT * sin(de) - YA;
    g[4] = x1 - ZF * cos(om + ep) - U * sin(ep) - XA;
    g[5] = y1 - ZF * sin(om + ep) + U * cos(ep) - YA;
}

/* M(q) (7 x 7, row major), f(q, v) and G(q) = dg/dq (6 x 7, row major) */
static void parts(const double *q, const double *v, double *m, double *f, double *G)
{
    double be = q[0], th = q[1], ga = q[2], ph = q[3], de = q[4], om = q[5], ep = q[6];
    double bp = v[0], tp = v[1], pp = v[3], dp = v[4], op = v[5], epp = v[6];
    double sibe = sin(be), cobe = cos(be), sibt = sin(be + th), cobt = cos(be + th);
    double siga = sin(ga), coga = cos(ga), sipd = sin(ph + de), copd = cos(ph + de);
    double side = sin(de), code = cos(de), sioe = sin(om + ep), cooe = cos(om + ep);
    double siep = sin(ep), coep = cos(ep), sith = sin(th), coth = cos(th);
    double siph = sin(ph), coph = cos(ph), siom = sin(om), coom = cos(om);
    double ee = E - EA, zfa = ZF - FA;

    memset(m, 0, 49 * sizeof *m);
    m[0] = M1 * RA * RA + M2 * (RR * RR - 2 * DA * RR * coth + DA * DA) + I1 + I2;
    m[1] = m[7] = M2 * (DA * DA - DA * RR * coth) + I2;
    m[8] = M2 * DA * DA + I2;
    m[16] = M3 * (SA * SA + SB * SB) + I3;
    m[24] = M4 * ee * ee + I4;
    m[25] = m[31] = M4 * (ee * ee + ZT * ee * siph) + I4;
    m[32] = M4 * (ZT * ZT + 2 * ZT * ee * siph + ee * ee) + M5 * (TA * TA + TB * TB) + I4 + I5;
    m[40] = M6 * zfa * zfa + I6;
    m[41] = m[47] = M6 * (zfa * zfa - U * zfa * siom) + I6;
    m[48] = M6 * (zfa * zfa - 2 * U * zfa * siom + U * U) + M7 * (UA * UA + UB * UB) + I6 + I7;

    /* the spring from D on body 3 to C */
    double xd = SD * coga + SC * siga + XB, yd = SD * siga - SC * coga + YB;
    double lang = hypot(xd - XC, yd - YC), force = -C0 * (lang - L0) / lang;
    double fx = force * (xd - XC), fy = force * (yd - YC);
    f[0] = MOM - M2 * DA * RR * tp * (tp + 2 * bp) * sith;
    f[1] = M2 * DA * RR * bp * bp * sith;
    f[2] = fx * (SC * coga - SD * siga) + fy * (SD * coga + SC * siga);
    f[3] = M4 * ZT * ee * dp * dp * coph;
    f[4] = -M4 * ZT * ee * pp * (pp + 2 * dp) * coph;
    f[5] = -M6 * U * zfa * epp * epp * coom;
    f[6] = M6 * U * zfa * op * (op + 2 * epp) * coom;

    memset(G, 0, 42 * sizeof *G);
    for (int r = 0; r < 6; r += 2) {
        G[r * 7 + 0] = -RR * sibe + D * sibt;
        G[r * 7 + 1] = D * sibt;
        G[(r + 1) * 7 + 0] = RR * cobe - D * cobt;
        G[(r + 1) * 7 + 1] = -D * cobt;
    }
    G[0 * 7 + 2] = -SS * coga;
    G[1 * 7 + 2] = -SS * siga;
    G[2 * 7 + 3] = -E * copd;
    G[2 * 7 + 4] = -E * copd + ZT * side;
    G[3 * 7 + 3] = -E * sipd;
    G[3 * 7 + 4] = -E * sipd - ZT * code;
    G[4 * 7 + 5] = ZF * sioe;
    G[4 * 7 + 6] = ZF * sioe - U * coep;
    G[5 * 7 + 5] = -ZF * cooe;
    G[5 * 7 + 6] = -ZF * cooe - U * siep;
}

/* the GGL residual F(t, y, y') of the header */
static int resid(realtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *user)
{
    (void)t;
    (void)user;
    const double *y = N_VGetArrayPointer(yy), *d = N_VGetArrayPointer(yp);
    double *r = N_VGetArrayPointer(rr);
    const double *q = y, *v = y + 7, *lam = y + 14, *mu = y + 20;
    double m[49], f[7], G[42];
    parts(q, v, m, f, G);
    for (int i = 0; i < 7; i++) {
        double gl = 0, gm = 0, mv = 0;
        for (int k = 0; k < 6; k++) {
            gl += G[k * 7 + i] * lam[k];
            gm += G[k * 7 + i] * mu[k];
        }
        for (int j = 0; j < 7; j++)
            mv += m[i * 7 + j] * d[7 + j];
        r[i] = d[i] - v[i] + gm;
        r[7 + i] = mv - f[i] + gl;
    }
    constraints(q, r + 14);
    for (int k = 0; k < 6; k++) {
        double s = 0;
        for (int j = 0; j < 7; j++)
            s += G[k * 7 + j] * v[j];
        r[20 + k] = s;
    }
    return 0;
}

/* solve the n x n system a x = b in place (Gaussian elimination, partial pivoting) */
static int gauss(int n, double *a, double *b)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[p * n + c]))
                p = r;
        if (a[p * n + c] == 0)
            return -1;
        if (p != c) {
            for (int j = 0; j < n; j++) {
                double t = a[c * n + j];
                a[c * n + j] = a[p * n + j];
                a[p * n + j] = t;
            }
            double t = b[c];
            b[c] = b[p];
            b[p] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double l = a[r * n + c] / a[c * n + c];
            for (int j = c; j < n; j++)
                a[r * n + j] -= l * a[c * n + j];
            b[r] -= l * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        double s = b[c];
        for (int j = c + 1; j < n; j++)
            s -= a[c * n + j] * b[j];
        b[c] = s / a[c * n + c];
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s RTOL [ATOL]\n", argv[0]);
        return 2;
    }
    double rtol = atof(argv[1]), atol = argc > 2 ? atof(argv[2]) : rtol;
    if (!(rtol > 0) || !(atol > 0)) {
        fprintf(stderr, "%s: RTOL and ATOL must be positive\n", argv[0]);
        return 2;
    }
    enum { N = 26 };
    double y0[N] = {0}, yp0[N] = {0};
    memcpy(y0, Q0, sizeof Q0);
    /* consistent start at rest: [M G^T; G 0] [v'; lambda] = [f; 0] (c = 0 at v = 0) */
    double m[49], f[7], G[42], A[13 * 13] = {0}, b[13] = {0};
    parts(Q0, y0 + 7, m, f, G);
    for (int i = 0; i < 7; i++) {
        for (int j = 0; j < 7; j++)
            A[i * 13 + j] = m[i * 7 + j];
        for (int k = 0; k < 6; k++)
            A[i * 13 + 7 + k] = A[(7 + k) * 13 + i] = G[k * 7 + i];
        b[i] = f[i];
    }
    if (gauss(13, A, b) != 0) {
        fprintf(stderr, "%s: singular start\n", argv[0]);
        return 1;
    }
    memcpy(yp0 + 7, b, 7 * sizeof *b);
    memcpy(y0 + 14, b + 7, 6 * sizeof *b);

    clock_t c0 = clock();
    SUNContext ctx;
    if (SUNContext_Create(NULL, &ctx) != 0)
        return 1;
    N_Vector yy = N_VNew_Serial(N, ctx), yp = N_VNew_Serial(N, ctx), id = N_VNew_Serial(N, ctx);
    memcpy(N_VGetArrayPointer(yy), y0, sizeof y0);
    memcpy(N_VGetArrayPointer(yp), yp0, sizeof yp0);
    double *idv = N_VGetArrayPointer(id);
    for (int i = 0; i < N; i++)
        idv[i] = i < 14 ? 1.0 : 0.0;
    /* the multipliers' weights: 1e10 takes them out of the Newton test as well (with
     * atol = ATOL on them the corrector fails from t = 0 at every step size: their
     * corrections scale as 1/h, the index-2 scaling that RADAU5 applies by h) */
    N_Vector av = N_VNew_Serial(N, ctx);
    double *avv = N_VGetArrayPointer(av);
    for (int i = 0; i < N; i++)
        avv[i] = i < 14 ? atol : 1e10;
    void *mem = IDACreate(ctx);
    SUNMatrix J = SUNDenseMatrix(N, N, ctx);
    SUNLinearSolver LS = SUNLinSol_Dense(yy, J, ctx);
    int st = IDAInit(mem, resid, 0.0, yy, yp);
    if (st == IDA_SUCCESS)
        st = IDASVtolerances(mem, rtol, av);
    if (st == IDA_SUCCESS)
        st = IDASetLinearSolver(mem, LS, J);
    if (st == IDA_SUCCESS)
        st = IDASetId(mem, id);
    if (st == IDA_SUCCESS)
        st = IDASetSuppressAlg(mem, SUNTRUE);
    if (st == IDA_SUCCESS)
        st = IDASetMaxNumSteps(mem, 1000000);
    if (st == IDA_SUCCESS)
        st = IDASetStopTime(mem, T_END);
    realtype t = 0;
    if (st == IDA_SUCCESS)
        st = IDASolve(mem, T_END, &t, yy, yp, IDA_NORMAL);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (st < 0) {
        fprintf(stderr, "%s: IDA failed at t = %g (flag %d)\n", argv[0], t, st);
        return 1;
    }
    long steps = 0, nre = 0, nje = 0, nrels = 0, nsetups = 0;
    IDAGetNumSteps(mem, &steps);
    IDAGetNumResEvals(mem, &nre);
    IDAGetNumJacEvals(mem, &nje);
    IDAGetNumLinResEvals(mem, &nrels);
    IDAGetNumLinSolvSetups(mem, &nsetups);
    const double *y = N_VGetArrayPointer(yy);
    double err = 0, g[6], gmax = 0;
    for (int i = 0; i < 7; i++)
        err = fmax(err, fabs(y[i] - QREF[i]));
    constraints(y, g);
    for (int k = 0; k < 6; k++)
        gmax = fmax(gmax, fabs(g[k]));
    printf("steps %ld res %ld jac %ld lu %ld cpu %.6g err %.3g g %.3g\n", steps, nre + nrels, nje,
           nsetups, cpu, err, gmax);
    IDAFree(&mem);
    SUNLinSolFree(LS);
    SUNMatDestroy(J);
    N_VDestroy(yy);
    N_VDestroy(yp);
    N_VDestroy(id);
    N_VDestroy(av);
    SUNContext_Free(&ctx);
    return 0;
}
