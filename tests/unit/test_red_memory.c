/*
 * test_red_memory.c: what a Craig-Bampton reduction costs in memory
 * (runtime/setup/red_static.c, red_solve.c, red_util.c). A plate of about
 * 5,000 DOFs (fe_export_plate2d, as bench/bench_reduce.c) clamped on its
 * left edge keeps its top edge and 20 fixed-interface modes: r = 220
 * vectors. The basis is n x r (9 MB); the factor of K_ii and the sparse
 * matrices are a few MB. Work arrays are RED_SOLVE_BLOCK columns wide, so
 * the reduction and projection may grow the process by the basis plus
 * 10 MB; the former code held three more n x r arrays (constraint-mode
 * right-hand sides, CHOLMOD's solution, A Phi) and grew by 35 MB, a dense
 * n x n matrix would take 216 MB. Also: the projected matrices against a
 * product computed here column by column, and the basis's defining
 * properties (constraint modes: unit on their DOF; interior in static
 * equilibrium).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "check.h"
#include "jnt/setup.h"

/* Peak resident memory of the process so far (MB). */
static double maxrss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

int main(void)
{
    char err[512], pre[600], m[640], k[640], nodes[640];
    snprintf(pre, sizeof pre, "%s", test_out("redmem"));
    int ndof = 0;
    fe_model fe;
    int ok = fe_export_plate2d(pre, 5000, &ndof, err, sizeof err) == 0;
    snprintf(m, sizeof m, "%s_M.mtx", pre);
    snprintf(k, sizeof k, "%s_K.mtx", pre);
    snprintf(nodes, sizeof nodes, "%s_nodes.csv", pre);
    ok = ok && fe_import(&fe, m, k, NULL, nodes, err, sizeof err) == 0 &&
         fe_fix(&fe, fe_find_set(&fe, "left"), err, sizeof err) == 0;
    CHECK(ok, "a plate of about 5,000 DOFs imported and clamped (%s)", ok ? "ok" : err);
    if (!ok)
        return check_done();
    const fe_set *top = &fe.set[fe_find_set(&fe, "top")];
    int *keep = malloc((size_t)top->n * 2 * sizeof *keep), nk = 0;
    for (int i = 0; i < top->n; i++)
        for (int c = 0; c < 2; c++)
            if (fe.node[top->node[i]].dof[c] >= 0)
                keep[nk++] = fe.node[top->node[i]].dof[c];
    double before = maxrss_mb();
    red_basis b = {0};
    int n = fe.ndof;
    ok = red_craig_bampton(&fe, keep, nk, 20, &b, err, sizeof err) == 0;
    double *Kr = ok ? malloc((size_t)b.r * b.r * sizeof *Kr) : NULL;
    ok = ok && red_project(&fe, &b, NULL, Kr, NULL, err, sizeof err) == 0;
    double grown = maxrss_mb() - before, basis = (double)n * b.r * sizeof(double) / 1048576.0;
    CHECK(ok && b.r == nk + 20, "Craig-Bampton of %d DOFs: %d vectors (%s)", n, b.r,
          ok ? "ok" : err);
    if (!ok)
        return check_done();
#if defined(__SANITIZE_ADDRESS__)
    printf("INFO: memory growth %.0f MB (basis %.1f MB) not checked under AddressSanitizer "
           "(shadow, quarantine)\n", grown, basis);
#else
    CHECK(grown <= basis + 10.0, "the reduction and projection grow the process by %.1f MB: "
          "at most the basis (%.1f MB) + 10 MB", grown, basis);
#endif
    /* constraint mode j: 1 on its DOF, 0 on the other kept DOFs */
    int bad = 0;
    for (int j = 0; j < nk; j++)
        for (int i = 0; i < nk; i++)
            bad += b.phi[(size_t)n * j + keep[i]] != (i == j ? 1.0 : 0.0);
    CHECK(bad == 0, "constraint modes are unit vectors on the kept DOFs (%d wrong)", bad);
    /* K Phi: zero on the interior for constraint modes; Kr = Phi^T K Phi */
    double *kp = malloc((size_t)n * sizeof *kp);
    char *kept = calloc((size_t)n, 1);
    for (int i = 0; i < nk; i++)
        kept[keep[i]] = 1;
    double worst_eq = 0, worst_kr = 0, kscale = 0;
    for (int j = 0; j < b.r; j += 7) {
        fe_sparse_mul(&fe.K, b.phi + (size_t)n * j, kp);
        double big = 0, in = 0;
        for (int i = 0; i < n; i++) {
            big = fmax(big, fabs(kp[i]));
            if (!kept[i] && j < nk)
                in = fmax(in, fabs(kp[i]));
        }
        worst_eq = fmax(worst_eq, big > 0 ? in / big : 0);
        for (int i = 0; i < b.r; i += 5) {
            double s = 0;
            for (int q = 0; q < n; q++)
                s += b.phi[(size_t)n * i + q] * kp[q];
            kscale = fmax(kscale, fabs(s));
            worst_kr = fmax(worst_kr, fabs(s - Kr[i + (size_t)b.r * j]));
        }
    }
    CHECK(worst_eq < 1e-9, "constraint modes: K psi vanishes on the interior (%.1e of max)",
          worst_eq);
    CHECK(worst_kr <= 1e-10 * kscale, "Kr = Phi^T K Phi against column products (%.1e of %.1e)",
          worst_kr, kscale);
    free(kp), free(kept), free(keep), free(Kr);
    red_basis_free(&b);
    fe_free(&fe);
    return check_done();
}
