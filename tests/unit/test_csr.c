/*
 * test_csr.c: compressed sparse row matrices (runtime/linalg/csr.c): built
 * from dense rows (exact zeros dropped, empty rows and columns kept), and
 * every product against the same product on the dense rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "linalg/csr.h"

/* A pseudo-random value in [-1, 1), or 0 with probability `zero`. */
static double rnd(unsigned *seed, double zero)
{
    *seed = *seed * 1103515245u + 12345u;
    double u = (double)((*seed >> 8) & 0xffff) / 65536.0;
    *seed = *seed * 1103515245u + 12345u;
    double v = 2.0 * (double)((*seed >> 8) & 0xffff) / 65536.0 - 1.0;
    return u < zero ? 0 : v;
}

int main(void)
{
    enum { NR = 7, NC = 9, MB = 5 };
    unsigned seed = 12345;
    double A[NR * NC], x[NC], xr[NR], B[NC * MB];
    /* row 2 empty, column 4 empty, the rest 70 % zeros */
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NC; j++)
            A[i * NC + j] = i == 2 || j == 4 ? 0 : rnd(&seed, 0.7);
    for (int j = 0; j < NC; j++)
        x[j] = rnd(&seed, 0);
    for (int i = 0; i < NR; i++)
        xr[i] = i == 5 ? 0 : rnd(&seed, 0);
    for (int k = 0; k < NC * MB; k++)
        B[k] = rnd(&seed, 0);
    int nz = 0;
    for (int k = 0; k < NR * NC; k++)
        nz += A[k] != 0;

    csr_mat a;
    CHECK(csr_from_rows(&a, NR, NC, A, NC) == 0, "csr_from_rows: built");
    CHECK(a.nrow == NR && a.ncol == NC && a.nnz == nz && a.rowptr[NR] == nz &&
              a.rowptr[3] == a.rowptr[2],
          "csr_from_rows: %d x %d, %d entries (the nonzeros), row 2 empty", a.nrow, a.ncol, a.nnz);
    int sorted = 1;
    for (int i = 0; i < NR; i++)
        for (int k = a.rowptr[i]; k + 1 < a.rowptr[i + 1]; k++)
            sorted &= a.col[k] < a.col[k + 1];
    CHECK(sorted, "csr_from_rows: columns ascending within each row");

    /* products against the dense loops (the same sums, so to round-off) */
    double e1 = 0, e2 = 0, e3 = 0, e4 = 0, e5 = 0;
    double y[NR], z[NC], zd[NC], C[NR * MB], row[NC];
    for (int i = 0; i < NR; i++) {
        double s = 0;
        for (int j = 0; j < NC; j++)
            s += A[i * NC + j] * x[j];
        e1 = fmax(e1, fabs(csr_row_dot(&a, i, x) - s));
        y[i] = 1.0;
    }
    csr_mv(&a, 2.0, x, 0.5, y);
    for (int i = 0; i < NR; i++) {
        double s = 0;
        for (int j = 0; j < NC; j++)
            s += A[i * NC + j] * x[j];
        e2 = fmax(e2, fabs(y[i] - (2.0 * s + 0.5)));
    }
    for (int j = 0; j < NC; j++)
        z[j] = zd[j] = 1.0;
    csr_mtv(&a, -3.0, xr, z);
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NC; j++)
            zd[j] += -3.0 * A[i * NC + j] * xr[i];
    for (int j = 0; j < NC; j++)
        e3 = fmax(e3, fabs(z[j] - zd[j]));
    csr_mul_rows(&a, B, MB, MB, C, MB);
    for (int i = 0; i < NR; i++)
        for (int m = 0; m < MB; m++) {
            double s = 0;
            for (int j = 0; j < NC; j++)
                s += A[i * NC + j] * B[j * MB + m];
            e4 = fmax(e4, fabs(C[i * MB + m] - s));
        }
    memset(row, 0, sizeof row);
    csr_row_axpy(&a, 3, 0.25, row);
    for (int j = 0; j < NC; j++)
        e5 = fmax(e5, fabs(row[j] - 0.25 * A[3 * NC + j]));
    CHECK(e1 <= 1e-15, "csr_row_dot = the dense row times x (%.2g)", e1);
    CHECK(e2 <= 1e-15, "csr_mv: y = 2 A x + 0.5 y (%.2g)", e2);
    CHECK(e3 <= 1e-15, "csr_mtv: z += -3 A^T x (%.2g)", e3);
    CHECK(e4 <= 1e-15, "csr_mul_rows: C = A B by rows (%.2g)", e4);
    CHECK(e5 == 0, "csr_row_axpy: row 3 scattered (%.2g)", e5);
    /* beta = 0 ignores y's values (NaN) */
    for (int i = 0; i < NR; i++)
        y[i] = NAN;
    csr_mv(&a, 1.0, x, 0.0, y);
    int finite = 1;
    for (int i = 0; i < NR; i++)
        finite &= isfinite(y[i]);
    CHECK(finite && y[2] == 0, "csr_mv with beta = 0 overwrites y (empty row: 0)");
    csr_free(&a);
    CHECK(a.rowptr == NULL && a.nnz == 0, "csr_free empties the matrix");
    csr_free(&a); /* twice: harmless */

    /* no rows, and a unit row (a Craig-Bampton kept DOF) */
    CHECK(csr_from_rows(&a, 0, 4, NULL, 4) == 0 && a.nrow == 0 && a.nnz == 0,
          "csr_from_rows: no rows");
    csr_free(&a);
    double unit[4] = {0, 0, 1, 0};
    CHECK(csr_from_rows(&a, 1, 4, unit, 4) == 0 && a.nnz == 1 && a.col[0] == 2 &&
              csr_row_dot(&a, 0, (double[]){5, 6, 7, 8}) == 7,
          "csr_from_rows: a unit row is one entry");
    csr_free(&a);
    CHECK(csr_from_rows(&a, -1, 4, unit, 4) == -1, "csr_from_rows: negative size refused");
    return check_done();
}
