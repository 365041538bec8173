/*
 * vtk_linear.c: the mode shapes of a model's `analysis NAME : linear(at =
 * T)` as VTK files (jnt_vtk_analyses; docs/seeing.md, "Mode shapes"). The
 * analysis's eigenvalues are those of the Jacobian d(ydot)/dy at the
 * state of time T (runtime/analyse/analysis.c writes them to NAME.csv);
 * here their right eigenvectors v (LAPACK dgeev) too, one file per
 * eigenvalue of non-negative imaginary part (one of each conjugate pair),
 * in the CSV's order, at most JNT_VTK_MAX_MODES of them:
 *
 *   DIR/NAME_mode_K.vtu   K from 1: every point of the scene (vtk_points:
 *                         the meshes' nodes and cells, the bodies' points
 *                         and markers), moved by the real part of the
 *                         mode's displacement
 *
 * The displacement of the points is the derivative of their positions
 * along v, P'(y) v, by central differences (exact for the meshes, which
 * are linear in their coordinates; for the bodies' angles to 1e-8 of the
 * shape), of the real and the imaginary part of v: a complex mode moves
 * the points as Re(D e^{i w t}), D = D_re + i D_im. D is turned so that
 * its largest component is real and positive and scaled so that its
 * largest point moves a tenth of the scene's size (the diagonal of its
 * bounding box). Point vectors `displacement` (D_re) and
 * `displacement_im` (D_im), point scalars `amplitude` (|D| of the point);
 * field data `eigenvalue` (re, im; 1/s), `frequency_Hz` (|im| / 2 pi),
 * `damping_ratio` (-re / |lambda|) and `row` (the mode's k in NAME.csv).
 * The points' derivative, the turning and scaling and the file are shared
 * with the complex modes' writer (analyse/vtk_locus.c) in io/vtk_mode.c.
 * An analysis allocates its own memory: it is not part of the step loop.
 */
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/err.h"
#include "core/model.h"
#include "io/outfile.h"
#include "io/vtk_int.h"
#include "io/vtk_xml.h"

#define JNT_VTK_MAX_MODES 20

/* An eigenvalue and its column, in the order of NAME.csv (analysis.c's
 * cmp_eig): by |lambda|, then by the imaginary part. */
typedef struct eig {
    double re, im;
    int j;
} eig;

static int cmp_eig(const void *a, const void *b)
{
    const eig *x = a, *y = b;
    double mx = hypot(x->re, x->im), my = hypot(y->re, y->im);
    if (mx != my)
        return mx < my ? -1 : 1;
    return x->im < y->im ? -1 : x->im > y->im;
}

/* Scratch of one analysis. */
typedef struct lin_work {
    double *J, *J2, *re, *im, *re2, *im2, *vr, *vneg;
    unsigned char *used;
    eig *idx;
    vtk_mode_buf b; /* the state, the scene's points, one mode file */
} lin_work;

static void lin_free(lin_work *k)
{
    double *p[] = {k->J, k->J2, k->re, k->im, k->re2, k->im2, k->vr, k->vneg};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
    free(k->idx), free(k->used);
    vtk_mode_free(&k->b);
}

/* The modes of linear analysis an (at its time `at`). */
static int linear_modes(jnt_vtk *w, const jnt_data *d, const jnt_abi_analysis *an, char *err,
                        size_t errn)
{
    const jnt_model *m = vtk_model(w);
    int n = m->abi->ny;
    if (n == 0)
        return JNT_OK;
    /* the state at `at`, as the analysis reaches it */
    jnt_data *e = jnt_data_new(m);
    if (!e)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
    if (m->abi->np == d->m->abi->np) {
        memcpy(e->p, d->p, (size_t)m->abi->np * sizeof *e->p);
        memcpy(e->set, d->set, (size_t)m->abi->np * sizeof *e->set);
    }
    int rc = jnt_init_state(m, e);
    double v[4] = {0, 0, 0, 0}, at = 0;
    if (rc == JNT_OK && an->values(e->p, v) < 0)
        rc = data_error(e, JNT_ERR_KERNEL, "its settings failed");
    at = v[0];
    if (rc == JNT_OK && at > e->t) {
        jnt_run_opts o = {.csv_path = "", .t_end = at};
        rc = jnt_run(m, e, &o);
    }
    size_t nn = (size_t)n;
    lin_work k = {0};
    int bok = vtk_mode_alloc(w, n, &k.b) == JNT_OK;
    k.J = calloc(nn * nn, sizeof *k.J), k.vr = malloc(nn * nn * sizeof *k.vr);
    k.J2 = malloc(nn * nn * sizeof *k.J2), k.vneg = malloc(nn * sizeof *k.vneg);
    k.re = malloc(nn * sizeof *k.re), k.im = malloc(nn * sizeof *k.im);
    k.re2 = malloc(nn * sizeof *k.re2), k.im2 = malloc(nn * sizeof *k.im2);
    k.used = calloc(nn, 1);
    k.idx = malloc(nn * sizeof *k.idx);
    if (rc == JNT_OK && (!bok || !k.J || !k.J2 || !k.vneg || !k.re2 || !k.im2 || !k.used ||
                         !k.vr || !k.re || !k.im || !k.idx))
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for %d states", n);
    else if (rc != JNT_OK)
        snprintf(err, errn, "%s", jnt_data_error(e));
    if (rc == JNT_OK) {
        memcpy(k.b.y0, e->y, nn * sizeof *k.b.y0);
        rc = jnt_eval_jacobian(m, e, e->t, e->y, k.J);
        if (rc != JNT_OK)
            snprintf(err, errn, "%s", jnt_data_error(e));
    }
    if (rc == JNT_OK) {
        /* the eigenvalues as NAME.csv has them (analysis.c's dgeev without
         * vectors), then with their vectors: a defective pair (a rigid
         * rotation's double zero) comes out of the two apart by sqrt(eps),
         * so each value of the first takes the vector of the nearest of
         * the second */
        memcpy(k.J2, k.J, nn * nn * sizeof *k.J2);
        lapack_int info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, k.J, n, k.re, k.im, NULL,
                                        1, NULL, 1);
        if (info == 0)
            info = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'V', n, k.J2, n, k.re2, k.im2, NULL, 1,
                                 k.vr, n);
        if (info != 0)
            rc = jnt_errf(err, errn, JNT_ERR_SOLVER, "the eigenvalue solver (dgeev) failed "
                                                     "(info %d)", (int)info);
    }
    if (rc == JNT_OK) {
        vtk_mode_base(w, &k.b);
        double size = vtk_scene_size(k.b.x0, k.b.f.np); /* the diagonal of its bounding box */
        for (int i = 0; i < n; i++)
            k.idx[i] = (eig){k.re[i], k.im[i], i};
        qsort(k.idx, nn, sizeof *k.idx, cmp_eig);
        size_t ln = strlen(vtk_dir(w)) + strlen(an->name) + 32;
        char *path = malloc(ln);
        int nmode = 0;
        if (!path)
            rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
        for (int r = 0; rc == JNT_OK && r < n && nmode < JNT_VTK_MAX_MODES; r++) {
            int j = k.idx[r].j;
            if (k.im[j] < 0)
                continue; /* the pair's other half */
            /* the nearest eigenvalue with a vector, not taken yet */
            int jj = -1;
            double dmin = INFINITY;
            for (int i = 0; i < n; i++) {
                double dd = hypot(k.re2[i] - k.re[j], k.im2[i] - k.im[j]);
                if (!k.used[i] && dd < dmin)
                    dmin = dd, jj = i;
            }
            if (jj < 0)
                break;
            k.used[jj] = 1;
            /* v = vr[i] + i vr[i + 1] for the first of a complex pair i, i + 1,
             * its conjugate for the second (dgeev) */
            const double *vre = k.vr + (size_t)jj * nn, *vim = NULL;
            if (k.im2[jj] > 0 && jj + 1 < n) {
                vim = k.vr + (size_t)(jj + 1) * nn;
            } else if (k.im2[jj] < 0 && jj > 0) {
                vre = k.vr + (size_t)(jj - 1) * nn;
                for (int i = 0; i < n; i++)
                    k.vneg[i] = -k.vr[(size_t)jj * nn + i];
                vim = k.vneg;
            }
            if (!vtk_mode_shape(w, &k.b, vre, vim, n, k.b.x0, size))
                continue; /* the mode moves no point (a law's state, a multiplier) */
            double lam = hypot(k.re[j], k.im[j]);
            double ev[5] = {k.re[j], k.im[j], fabs(k.im[j]) / (2 * 3.14159265358979323846),
                            lam > 0 ? -k.re[j] / lam : 0, r + 1};
            snprintf(path, ln, "%s/%s_mode_%d.vtu", vtk_dir(w), an->name, ++nmode);
            static const char *const names[] = {"eigenvalue", "frequency_Hz", "damping_ratio",
                                                "row"};
            static const int ncomp[] = {2, 1, 1, 1};
            rc = vtk_mode_write(path, &k.b.f, 4, names, ncomp, ev, err, errn);
        }
        free(path);
    }
    if (rc != JNT_OK && err[0] == '\0')
        snprintf(err, errn, "%s", jnt_status_message(rc));
    lin_free(&k);
    jnt_data_free(e);
    return rc;
}

/* See jnt/scene.h. */
int jnt_vtk_analyses(jnt_vtk *w, const jnt_data *d, char *err, size_t errn)
{
    if (!w || !d || !err || errn == 0)
        return JNT_ERR_USAGE;
    const jnt_model *m = vtk_model(w);
    const jnt_abi_model *a = m->abi;
    int rc = JNT_OK;
    for (int i = 0; rc == JNT_OK && i < a->nanalyses; i++) {
        const jnt_abi_analysis *an = &a->analyses[i];
        if (an->kind != JNT_ANALYSIS_LINEAR && an->kind != JNT_ANALYSIS_LOCUS)
            continue;
        err[0] = '\0';
        rc = an->kind == JNT_ANALYSIS_LINEAR ? linear_modes(w, d, an, err, errn)
                                             : vtk_locus_modes(w, d, an, err, errn);
        if (rc != JNT_OK) { /* the analysis named in the message */
            char msg[512];
            snprintf(msg, sizeof msg, "analysis '%s': %s", an->name, err);
            snprintf(err, errn, "%s", msg);
        }
    }
    return rc;
}
