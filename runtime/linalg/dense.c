/*
 * dense.c: LU with partial pivoting and QR with column pivoting of small
 * dense matrices in plain loops (dense.h), so that a small model's implicit
 * integrator and a small multibody model's assembly load no BLAS.
 */
#include "dense.h"

#include <float.h>
#include <math.h>

/* Crout-order LU (OpenBLAS's getf2): for each column j, the earlier row
 * swaps, the unit lower solve of its top j entries, the update of the rest
 * by the columns left of it, then the pivot search and scaling. */
int dense_lu_factor(int n, double *a, int lda, int *ipiv)
{
    int info = 0;
    for (int j = 0; j < n; j++) {
        double *b = a + (long)j * lda;
        for (int i = 0; i < j; i++) {
            int ip = ipiv[i] - 1;
            if (ip != i) {
                double t = b[i];
                b[i] = b[ip];
                b[ip] = t;
            }
        }
        /* U's column: b[i] -= L(i, 0:i) b(0:i) */
        for (int i = 1; i < j; i++) {
            double s = 0.0;
            for (int k = 0; k < i; k++)
                s += a[i + (long)k * lda] * b[k];
            b[i] -= s;
        }
        /* the rest of the column: b(j:n) -= A(j:n, 0:j) b(0:j) */
        for (int i = j; i < n; i++) {
            double s = 0.0;
            for (int k = 0; k < j; k++)
                s += a[i + (long)k * lda] * b[k];
            b[i] -= s;
        }
        /* the pivot: the first entry of largest magnitude */
        int p = j;
        double big = fabs(b[j]);
        for (int i = j + 1; i < n; i++)
            if (fabs(b[i]) > big) {
                big = fabs(b[i]);
                p = i;
            }
        ipiv[j] = p + 1;
        double piv = b[p];
        if (piv == 0.0) {
            if (!info)
                info = j + 1;
            continue;
        }
        if (p != j)
            for (int k = 0; k <= j; k++) {
                double t = a[j + (long)k * lda];
                a[j + (long)k * lda] = a[p + (long)k * lda];
                a[p + (long)k * lda] = t;
            }
        if (fabs(piv) >= DBL_MIN) {
            double r = 1.0 / piv;
            for (int i = j + 1; i < n; i++)
                b[i] *= r;
        } else {
            for (int i = j + 1; i < n; i++)
                b[i] /= piv;
        }
    }
    return info;
}

/* P^T, then L y = P b forward and U x = y backward, by columns (axpy). */
void dense_lu_solve(int n, const double *lu, int lda, const int *ipiv, double *b)
{
    for (int i = 0; i < n; i++) {
        int ip = ipiv[i] - 1;
        if (ip != i) {
            double t = b[i];
            b[i] = b[ip];
            b[ip] = t;
        }
    }
    for (int k = 0; k < n; k++) {
        const double *c = lu + (long)k * lda;
        for (int i = k + 1; i < n; i++)
            b[i] -= b[k] * c[i];
    }
    for (int k = n - 1; k >= 0; k--) {
        const double *c = lu + (long)k * lda;
        b[k] /= c[k];
        for (int i = 0; i < k; i++)
            b[i] -= b[k] * c[i];
    }
}

/* y += alpha (A x), the product summed over the columns in order. */
void dense_gemv_add(int m, int n, double alpha, const double *a, int lda, const double *x,
                    double *y)
{
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int k = 0; k < n; k++)
            s += a[i + (long)k * lda] * x[k];
        y[i] += alpha * s;
    }
}

/* The 2-norm of x (n entries), scaled by its largest magnitude so that no
 * square overflows or underflows (the role of BLAS dnrm2's scaling). */
static double nrm2(int n, const double *x)
{
    double big = 0.0;
    for (int i = 0; i < n; i++)
        big = fmax(big, fabs(x[i]));
    if (big == 0.0 || !isfinite(big))
        return big;
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double t = x[i] / big;
        s += t * t;
    }
    return big * sqrt(s);
}

/* sqrt(x^2 + y^2) without overflow (LAPACK's dlapy2). */
static double pythag(double x, double y)
{
    double w = fmax(fabs(x), fabs(y)), z = fmin(fabs(x), fabs(y));
    if (z == 0.0 || w > DBL_MAX)
        return w;
    return w * sqrt(1.0 + (z / w) * (z / w));
}

/* The reflector H = I - tau v v^T, v = (1, x), with H (alpha, x) = (beta, 0)
 * (LAPACK's dlarfg): alpha becomes beta, x becomes v's tail. Golub & Van
 * Loan, 4th ed., Algorithm 5.1.1, with LAPACK's sign (beta = -sign(alpha)
 * ||(alpha, x)||) and its rescaling of a tiny beta. */
static void reflector(int n, double *alpha, double *x, double *tau)
{
    *tau = 0.0;
    if (n <= 1)
        return;
    double xnorm = nrm2(n - 1, x);
    if (xnorm == 0.0)
        return;
    double beta = -copysign(pythag(*alpha, xnorm), *alpha);
    double safmin = DBL_MIN / (DBL_EPSILON / 2), rsafmn = 1.0 / safmin;
    int knt = 0;
    if (fabs(beta) < safmin) {
        do {
            knt++;
            for (int i = 0; i < n - 1; i++)
                x[i] *= rsafmn;
            beta *= rsafmn;
            *alpha *= rsafmn;
        } while (fabs(beta) < safmin && knt < 20);
        xnorm = nrm2(n - 1, x);
        beta = -copysign(pythag(*alpha, xnorm), *alpha);
    }
    *tau = (beta - *alpha) / beta;
    double scal = 1.0 / (*alpha - beta);
    for (int i = 0; i < n - 1; i++)
        x[i] *= scal;
    for (int j = 0; j < knt; j++)
        beta *= safmin;
    *alpha = beta;
}

/* C = H C for the m x n column-major C (ldc), H = I - tau v v^T with v =
 * (1, v[1..m-1]) (LAPACK's dlarf 'L': w = C^T v, then C -= tau v w^T). */
static void reflect(int m, int n, const double *v, double tau, double *c, int ldc)
{
    if (tau == 0.0)
        return;
    for (int j = 0; j < n; j++) {
        double *cj = c + (long)j * ldc;
        double w = cj[0];
        for (int i = 1; i < m; i++)
            w += v[i] * cj[i];
        w *= tau;
        cj[0] -= w;
        for (int i = 1; i < m; i++)
            cj[i] -= v[i] * w;
    }
}

/* LAPACK's dgeqp3 with every column free, which below ilaenv's crossover
 * (min(m, n) < 128) is the unblocked dlaqp2: at step i the remaining column of largest partial
 * norm comes to position i, its reflector zeroes it below the diagonal and
 * is applied to the columns right of it, whose partial norms are then
 * downdated, ||a_j(i+1:m)|| = ||a_j(i:m)|| sqrt(1 - (|r_ij| / ||a_j(i:m)||)^2),
 * and recomputed when the downdate has lost more than half the digits
 * (Drmac & Bujanovic, LAPACK Working Note 176, the test against
 * sqrt(eps) on the ratio to the norm last computed). */
int dense_qp3(int m, int n, double *a, int lda, int *jpvt, double *tau)
{
    if (n > DENSE_QR_MAX || m < 0 || n < 0)
        return -1;
    double vn1[DENSE_QR_MAX], vn2[DENSE_QR_MAX];
    const double tol3z = sqrt(DBL_EPSILON);
    int mn = m < n ? m : n;
    for (int j = 0; j < n; j++) {
        jpvt[j] = j + 1;
        vn1[j] = vn2[j] = nrm2(m, a + (long)j * lda);
    }
    for (int i = 0; i < mn; i++) {
        /* the pivot: the first column of largest partial norm */
        int p = i;
        for (int j = i + 1; j < n; j++)
            if (vn1[j] > vn1[p])
                p = j;
        if (p != i) {
            double *ap = a + (long)p * lda, *ai = a + (long)i * lda;
            for (int r = 0; r < m; r++) {
                double t = ap[r];
                ap[r] = ai[r];
                ai[r] = t;
            }
            int t = jpvt[p];
            jpvt[p] = jpvt[i];
            jpvt[i] = t;
            vn1[p] = vn1[i];
            vn2[p] = vn2[i];
        }
        double *aii = a + i + (long)i * lda;
        reflector(m - i, aii, aii + 1, &tau[i]);
        if (i + 1 < n)
            reflect(m - i, n - i - 1, aii, tau[i], aii + lda, lda);
        for (int j = i + 1; j < n; j++) {
            if (vn1[j] == 0.0)
                continue;
            double r = fabs(a[i + (long)j * lda]) / vn1[j];
            double t = fmax(1.0 - r * r, 0.0);
            double q = vn1[j] / vn2[j];
            if (t * q * q <= tol3z) {
                vn1[j] = i + 1 < m ? nrm2(m - i - 1, a + i + 1 + (long)j * lda) : 0.0;
                vn2[j] = vn1[j];
            } else {
                vn1[j] *= sqrt(t);
            }
        }
    }
    return 0;
}

/* Q c = H(1) (H(2) (... H(k) c)), the last reflector first (dorm2r 'L', 'N'). */
void dense_qr_apply(int m, int k, const double *a, int lda, const double *tau, double *c)
{
    for (int i = k - 1; i >= 0; i--)
        reflect(m - i, 1, a + i + (long)i * lda, tau[i], c + i, m - i);
}
