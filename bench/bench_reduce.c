/*
 * bench_reduce.c: Craig-Bampton reduction of an imported plate (issue 4):
 * a plate2d of about N DOFs exported to Matrix Market, imported with
 * fe_import (checks included), clamped on its left edge and reduced keeping
 * its top edge plus 20 fixed-interface modes. Prints one line:
 *   ndof=N import_s=T reduce_s=T project_s=T r=R maxrss_mb=M
 * Usage: bench_reduce NDOF DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "jnt/setup.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Peak resident memory of the process so far (MB). */
static double maxrss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_reduce NDOF DIR\n");
        return 2;
    }
    char err[512], pre[1024], m[1100], k[1100], nodes[1100];
    int ndof = 0;
    snprintf(pre, sizeof pre, "%s/plate_%s", argv[2], argv[1]);
    if (fe_export_plate2d(pre, atoi(argv[1]), &ndof, err, sizeof err)) {
        fprintf(stderr, "bench_reduce: %s\n", err);
        return 1;
    }
    snprintf(m, sizeof m, "%s_M.mtx", pre);
    snprintf(k, sizeof k, "%s_K.mtx", pre);
    snprintf(nodes, sizeof nodes, "%s_nodes.csv", pre);
    fe_model fe;
    double t0 = now();
    if (fe_import(&fe, m, k, NULL, nodes, err, sizeof err) ||
        fe_fix(&fe, fe_find_set(&fe, "left"), err, sizeof err)) {
        fprintf(stderr, "bench_reduce: %s\n", err);
        return 1;
    }
    double t1 = now();
    double import_mb = maxrss_mb();
    const fe_set *top = &fe.set[fe_find_set(&fe, "top")];
    int *keep = malloc((size_t)top->n * 2 * sizeof *keep), nk = 0;
    for (int i = 0; i < top->n; i++)
        for (int c = 0; c < 2; c++)
            if (fe.node[top->node[i]].dof[c] >= 0)
                keep[nk++] = fe.node[top->node[i]].dof[c];
    red_basis b = {0};
    if (red_craig_bampton(&fe, keep, nk, 20, &b, err, sizeof err)) {
        fprintf(stderr, "bench_reduce: %s\n", err);
        return 1;
    }
    double t2 = now();
    double *Mr = malloc((size_t)b.r * b.r * sizeof *Mr), *Kr = malloc((size_t)b.r * b.r * sizeof *Kr);
    if (red_project(&fe, &b, Mr, Kr, NULL, err, sizeof err)) {
        fprintf(stderr, "bench_reduce: %s\n", err);
        return 1;
    }
    double t3 = now();
    printf("ndof=%d import_s=%.3f reduce_s=%.3f project_s=%.3f r=%d import_mb=%.0f "
           "basis_mb=%.0f maxrss_mb=%.0f\n", fe.ndof, t1 - t0, t2 - t1, t3 - t2, b.r, import_mb,
           (double)fe.ndof * b.r * sizeof(double) / 1048576.0, maxrss_mb());
    free(keep), free(Mr), free(Kr);
    red_basis_free(&b);
    fe_free(&fe);
    return 0;
}
