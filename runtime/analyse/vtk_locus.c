/*
 * vtk_locus.c: the mode shapes of a model's `analysis NAME :
 * complex_modes(along = IFACE, ...)` as VTK files (vtk_locus_modes, called
 * by jnt_vtk_analyses; docs/seeing.md, "Mode shapes"). The analysis writes
 * the eigenvalues of the locus, position by position, to NAME.csv
 * (runtime/couple/slide_modes.c, by the cheapest exact solver); with
 * `--vtk DIR` each of the same positions is solved again here: its
 * eigenvalues as NAME.csv has them (slide_modes_at), then QZ with right
 * eigenvectors refined by inverse iteration at those eigenvalues
 * (slide_modes_shapes) for the shapes. Written at each position P (m):
 * its unstable modes, then its lowest-frequency modes, at most
 * JNT_VTK_MAX_MODES files, in ascending frequency (NAME.csv's order):
 *
 *   DIR/NAME_at_Pmm_mode_K.vtu   P the position in mm (%.9g), K from 1:
 *                         every point of the scene at the model's initial
 *                         state, the moved substructure's mesh translated
 *                         to the position (P along x, as the analysis
 *                         moves it), moved by the real part of the
 *                         mode's displacement
 *
 * The mode's complex displacement of the substructures' reduced
 * coordinates goes into the state's q of each block, and the points'
 * displacement is their derivative along it (vtk_mode_derivative: the
 * meshes' expansion through their basis, one dgemm per mesh), turned and
 * scaled as the linear analysis's (vtk_mode_scale). Point vectors
 * `displacement`, `displacement_im`, scalars `amplitude`; field data
 * `eigenvalue` (re, im; 1/s, NAME.csv's), `frequency_Hz`, `damping_ratio`
 * (-re / |lambda|), `position` (m), `row` (the mode's row in NAME.csv,
 * from 1), `unstable` (0/1) and `residual` (the relative residual of its
 * eigen-equation, solve_qz). An analysis allocates its own memory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/data.h"
#include "core/err.h"
#include "core/model.h"
#include "couple/iface_slide.h"
#include "couple/slide_shapes.h"
#include "io/vtk_int.h"

#define JNT_VTK_MAX_MODES 20
#define TWO_PI (2 * 3.14159265358979323846)
#define LOCUS_UNSTABLE_TOL 1e-4 /* iface_slide.c's IFACE_UNSTABLE_TOL: the same flags */

/* Scratch of one analysis. */
typedef struct loc_work {
    slide_mode *md, *want;
    double *U, *res, *vre, *vim, *xp;
    unsigned char *sel;
    vtk_mode_buf b; /* the state, the scene's points, one mode file */
} loc_work;

static void loc_free(loc_work *k)
{
    double *p[] = {k->U, k->res, k->vre, k->vim, k->xp};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
    free(k->md), free(k->want), free(k->sel);
    vtk_mode_free(&k->b);
}

/* The files of the nw modes k->want (NAME.csv's rows k->row), shapes
 * k->U, residuals k->res, at position p: the scene's points xp (its moved
 * substructure at p), size the scene's at the initial state. */
static int write_modes(jnt_vtk *w, const jnt_abi_analysis *an, loc_work *k, const int *row,
                       int nw, int N, double p, const double *xp, double size, char *err,
                       size_t errn)
{
    const jnt_abi_model *a = vtk_model(w)->abi;
    int ny = a->ny, nmode = 0, rc = JNT_OK;
    size_t ln = strlen(vtk_dir(w)) + strlen(an->name) + 64;
    char *path = malloc(ln);
    if (!path)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory");
    for (int j = 0; rc == JNT_OK && j < nw; j++) {
        /* the substructures' coordinates into their blocks' q */
        const double *u = k->U + 2 * (size_t)N * j;
        memset(k->vre, 0, (size_t)ny * sizeof *k->vre);
        memset(k->vim, 0, (size_t)ny * sizeof *k->vim);
        for (int b = 0, off = 0; b < a->nblocks; off += a->blocks[b++].r)
            for (int i = 0; i < a->blocks[b].r; i++) {
                k->vre[a->blocks[b].q0 + i] = u[off + i];
                k->vim[a->blocks[b].q0 + i] = u[N + off + i];
            }
        if (!vtk_mode_shape(w, &k->b, k->vre, k->vim, ny, xp, size))
            continue;
        const slide_mode *md = &k->want[j];
        double re = md->re, im = TWO_PI * md->freq, lam = hypot(re, im);
        double ev[] = {re, im, md->freq, lam > 0 ? -re / lam : 0, p, row[j], md->unstable,
                       k->res[j]};
        static const char *const names[] = {"eigenvalue", "frequency_Hz", "damping_ratio",
                                            "position", "row", "unstable", "residual"};
        static const int ncomp[] = {2, 1, 1, 1, 1, 1, 1};
        /* + 0.0: no "-0" in a name */
        snprintf(path, ln, "%s/%s_at_%.9gmm_mode_%d.vtu", vtk_dir(w), an->name, p * 1e3 + 0.0,
                 ++nmode);
        rc = vtk_mode_write(path, &k->b.f, 7, names, ncomp, ev, err, errn);
    }
    free(path);
    return rc;
}

/* See io/vtk_int.h. */
int vtk_locus_modes(jnt_vtk *w, const jnt_data *d, const jnt_abi_analysis *an, char *err,
                    size_t errn)
{
    const jnt_model *m = vtk_model(w);
    const jnt_abi_model *a = m->abi;
    jnt_settings s;
    memset(&s, 0, sizeof s);
    double v[4] = {0, 0, 0, 0};
    if (a->settings(d->p, &s) < 0 || an->values(d->p, v) < 0)
        return jnt_errf(err, errn, JNT_ERR_KERNEL, "its settings failed");
    slide_model *sm = NULL;
    int rc = iface_model(m, d->p, s.h, &sm, err, errn);
    if (rc != JNT_OK)
        return rc;
    void *ctx = iface_modes_ctx(m, d->p);
    jnt_data *e = jnt_data_new(m);
    int N = slide_model_size(sm), cap = 2 * N + 2, ny = a->ny;
    size_t nn = (size_t)ny + 1;
    loc_work k = {0};
    int bok = vtk_mode_alloc(w, ny, &k.b) == JNT_OK;
    k.md = malloc((size_t)cap * sizeof *k.md);
    k.want = malloc(JNT_VTK_MAX_MODES * sizeof *k.want);
    k.U = malloc(2 * ((size_t)N + 1) * JNT_VTK_MAX_MODES * sizeof *k.U);
    k.res = malloc(JNT_VTK_MAX_MODES * sizeof *k.res), k.sel = calloc((size_t)cap, 1);
    k.vre = malloc(nn * sizeof *k.vre), k.vim = malloc(nn * sizeof *k.vim);
    k.xp = malloc((3 * (size_t)k.b.f.np + 1) * sizeof *k.xp);
    if (!bok || !ctx || !e || !k.md || !k.want || !k.U || !k.res || !k.sel || !k.vre ||
        !k.vim || !k.xp) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for %d coordinates", N);
        goto done;
    }
    /* the blocks' q hold the substructures' coordinates, in order */
    int nr = 0;
    for (int b = 0; b < a->nblocks; b++)
        nr += a->blocks[b].r;
    if (nr != N) {
        rc = jnt_errf(err, errn, JNT_ERR_MODEL, "%d coordinates in the blocks, %d coupled", nr,
                      N);
        goto done;
    }
    /* the points at the initial state */
    memcpy(e->p, d->p, (size_t)a->np * sizeof *e->p);
    memcpy(e->set, d->set, (size_t)a->np * sizeof *e->set);
    rc = jnt_init_state(m, e);
    if (rc != JNT_OK) {
        snprintf(err, errn, "%s", jnt_data_error(e));
        goto done;
    }
    memcpy(k.b.y0, e->y, (size_t)ny * sizeof *k.b.y0);
    vtk_mode_base(w, &k.b);
    slide_modes_opts o;
    memset(&o, 0, sizeof o);
    o.moved = 1 + a->ifaces[an->ncol].slave;
    o.unstable_tol = LOCUS_UNSTABLE_TOL;
    o.t = v[2];
    o.speed = v[3];
    /* the moved substructure's mesh: its points (vtk_points: the meshes
     * first, in the scene's order) are translated with it */
    const jnt_scene *sc = vtk_scene(w);
    long mv0 = 0, mv1 = 0;
    for (int i = 0, at = 0; i < sc->nmesh; at += sc->mesh[i++].nnode)
        if (!strcmp(sc->mesh[i].name, a->blocks[a->ifaces[an->ncol].slave].name))
            mv0 = at, mv1 = at + sc->mesh[i].nnode;
    double size = vtk_scene_size(k.b.x0, k.b.f.np);
    /* the locus's positions as slide_modes_locus takes them, each with its
     * modes as NAME.csv has them: the unstable, then the lowest */
    int steps = an->nrow, rows = 0, n = 0;
    for (int i = 0; i <= steps && rc == JNT_OK; i++) {
        double p = steps ? v[0] + (v[1] - v[0]) * i / steps : v[0];
        rc = slide_modes_at(sm, ctx, p, &o, k.md, cap, &n, NULL, NULL, err, errn);
        if (rc != JNT_OK)
            break;
        int nw = 0, row[JNT_VTK_MAX_MODES];
        memset(k.sel, 0, (size_t)cap);
        for (int j = 0; j < n && nw < JNT_VTK_MAX_MODES; j++)
            if (k.md[j].unstable)
                k.sel[j] = 1, nw++;
        for (int j = 0; j < n && nw < JNT_VTK_MAX_MODES; j++)
            if (!k.sel[j])
                k.sel[j] = 1, nw++;
        nw = 0;
        for (int j = 0; j < n; j++)
            if (k.sel[j])
                k.want[nw] = k.md[j], row[nw++] = rows + j + 1;
        rows += n;
        /* their shapes, on the scene with the moved substructure at p (along x) */
        memcpy(k.xp, k.b.x0, 3 * (size_t)k.b.f.np * sizeof *k.xp);
        for (long q = mv0; q < mv1; q++)
            k.xp[3 * q] += p;
        rc = slide_modes_shapes(sm, ctx, p, &o, k.want, nw, k.U, k.res, err, errn);
        if (rc == JNT_OK)
            rc = write_modes(w, an, &k, row, nw, N, p, k.xp, size, err, errn);
    }
done:
    if (rc != JNT_OK && err[0] == '\0')
        snprintf(err, errn, "%s", jnt_status_message(rc));
    loc_free(&k);
    jnt_data_free(e);
    iface_modes_ctx_free(ctx);
    slide_model_free(sm);
    return rc;
}
