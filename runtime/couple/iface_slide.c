/*
 * iface_slide.c: running a model with sliding interfaces (abi.h's
 * jnt_abi_iface) on seed 003's explicit central difference (slide.h).
 * Every linear block becomes a slide substructure (M, C, K recovered from
 * the block's Minv, Minv K, Minv C); the external generalized forces are
 * the block rows of the model's rhs kernel at the current coordinates; the
 * interfaces come from the generated tables. After each step the contacts
 * are written to the model's discrete states and the output grid is
 * sampled at the step that lands on it.
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/csv.h"
#include "io/progress.h"
#include "core/data.h"
#include "core/eval.h"
#include "iface_slide.h"
#include "core/model.h"
#include "slide.h"

/* A locus flags a mode unstable when Re s > IFACE_UNSTABLE_TOL |s|: the QZ
 * path's round-off on a frictionless undamped Craig-Bampton pair reaches
 * 2e-5 |s| (the modal solvers of slide_eig.c stay below 1e-8). */
#define IFACE_UNSTABLE_TOL 1e-4

/* Substructures a model with interfaces may have (one force trampoline each). */
#define IFACE_MAX_SUB 8

typedef struct run_ctx {
    const jnt_model *m;
    const jnt_abi_model *a;
    jnt_data *dt;      /* the run's data (NULL for the complex modes) */
    const double *p;   /* parameters */
    const slide_model *sm;
    const slide_data *sd;
    double *y, *ydot; /* ny each */
    double last_t;
    long last_step;
    double in[6 * IFACE_MAX_SUB], in_t; /* block_in at in_t */
    double *dmu;      /* nd zeros but the slip speed asked for, then nifaces mu */
    int force_state;  /* the force kernel reads the state (forces_read_state) */
    /* Forces of time only whose kernel reads no gathered point (direct):
     * the rhs kernel straight into ko (ny + nu), with uz (2 nu zeros) for
     * the points it never reads: no compare of the state with the last
     * gather's and no copy of the outputs (eval_forces does both, 6 % of
     * a step of examples/beam_on_beam.jnt, docs/interfaces.md). */
    int direct;
    double *ko, *uz;
    slide_rows *rows[IFACE_MAX_SUB]; /* what the output rows read of each block */
} run_ctx;

/* Does the force kernel read the state: its Jacobian has entries, or the
 * compiler says so (JNT_BLOCK_STATE_FORCES: also a state read only by a
 * condition, `if x > 0 m then ...`, whose derivative is zero). */
static int forces_read_state(const jnt_abi_model *a)
{
    if (a->jac_colptr[a->ny + 2 * a->nu] > 0)
        return 1;
    for (int b = 0; b < a->nblocks; b++)
        if (a->blocks[b].flags & JNT_BLOCK_STATE_FORCES)
            return 1;
    return 0;
}

/* Whether block forces can take the direct path (run_ctx.direct): forces
 * of time only, no multibody coordinates, and a rhs kernel that reads no
 * gathered point (jnt_abi_model.gather_skip). */
static int forces_direct(const jnt_abi_model *a, int force_state)
{
    int skip = JNT_SKIP_RHS_U | JNT_SKIP_RHS_UV;
    return !force_state && a->nq == 0 && (a->nu == 0 || (a->gather_skip & skip) == skip);
}

/* Generalized forces of block b from the kernel's outputs o (ny + nu):
 * its velocity rows and R^T F of its points, as eval_forces sums them. */
static void block_forces(const jnt_model *m, int b, const double *o, double *f)
{
    const jnt_abi_model *a = m->abi;
    const jnt_abi_block *k = &a->blocks[b];
    const model_block *mb = &m->blk[b];
    const double *F = o + a->ny;
    memcpy(f, o + k->q0 + k->r, (size_t)k->r * sizeof *f);
    if (k->ng == 0)
        return;
    if (mb->dense) {
        for (int j = 0; j < k->r; j++) {
            const double *col = mb->rows + (size_t)k->ng * j;
            double s = 0;
            for (int i = 0; i < k->ng; i++)
                s += col[i] * F[k->g0 + i];
            f[j] += s;
        }
        return;
    }
    for (int i = 0; i < k->ng; i++)
        for (int j = mb->rowptr[i]; j < mb->rowptr[i + 1]; j++)
            f[mb->col[j]] += mb->val[j] * F[k->g0 + i];
}

/* The model state y = (q, qd) of every block from the slide vectors. */
static void to_y(const run_ctx *c, const double *u, const double *v, double *y)
{
    for (int b = 0; b < c->a->nblocks; b++) {
        const jnt_abi_block *k = &c->a->blocks[b];
        int off = slide_model_offset(c->sm, b);
        memcpy(y + k->q0, u + off, (size_t)k->r * sizeof *y);
        memcpy(y + k->q0 + k->r, v + off, (size_t)k->r * sizeof *y);
    }
}

/* Generalized forces of block b at t: the rhs kernel's block rows with
 * the point forces scattered in, before the block's own matrices. */
static int force_of(int b, double t, double *f, void *user)
{
    run_ctx *c = user;
    if (!c->sd) { /* the complex modes: no forces */
        memset(f, 0, (size_t)c->a->blocks[b].r * sizeof *f);
        return 0;
    }
    if (t != c->last_t || c->sd->step != c->last_step) {
        /* forces of time only need no state (the copy was 3 % of a step of
         * examples/beam_on_beam.jnt, docs/interfaces.md) */
        if (c->force_state)
            to_y(c, c->sd->u, c->sd->v, c->y);
        int rc = c->direct ? c->a->rhs(t, c->y, c->uz, c->dt->d, c->p, c->ko)
                           : eval_forces(c->m, c->dt, t, c->y, c->ydot);
        if (rc != 0)
            return JNT_ERR_KERNEL;
        c->last_t = t;
        c->last_step = c->sd->step;
    }
    if (c->direct) {
        block_forces(c->m, b, c->ko, f);
        return 0;
    }
    const jnt_abi_block *k = &c->a->blocks[b];
    memcpy(f, c->ydot + k->q0 + k->r, (size_t)k->r * sizeof *f);
    return 0;
}

/* The 6 frame and damping values of block b at t (abi.h, jnt_abi_block.flags). */
static const double *block_in(run_ctx *c, int b, double t)
{
    if (t != c->in_t) {
        if (c->a->block_in(t, NULL, NULL, NULL, c->p, c->in) != 0)
            memset(c->in, 0, 6 * (size_t)c->a->nblocks * sizeof *c->in);
        c->in_t = t;
    }
    return c->in + 6 * b;
}

static void rigid_of(int b, double t, double x[2], double v[2], void *user)
{
    const double *in = block_in(user, b, t);
    x[0] = in[0], x[1] = in[1], v[0] = in[2], v[1] = in[3];
}

static void rayleigh_of(int b, double t, double *alpha, double *beta, void *user)
{
    const double *in = block_in(user, b, t);
    *alpha = in[4], *beta = in[5];
}

/* The friction coefficient of interface f at t and slip speed v: the mu
 * kernel reads the speed from the first slave's v_slip slot of d. */
static double mu_of(double t, int f, double v, void *user)
{
    run_ctx *c = user;
    double *mu = c->dmu + c->a->nd;
    c->dmu[c->a->ifaces[f].d0 + 4] = v;
    return c->a->iface_mu(t, NULL, NULL, c->dmu, c->p, mu) == 0 ? mu[f] : NAN;
}

/* Callbacks carry no substructure index: one trampoline per block. */
#define TRAMPOLINE(b)                                                                           \
    static int force_##b(double t, double *f, void *u) { return force_of(b, t, f, u); }         \
    static void rigid_##b(double t, double x[2], double v[2], void *u) { rigid_of(b, t, x, v, u); } \
    static void rayleigh_##b(double t, double *al, double *be, void *u)                        \
    {                                                                                           \
        rayleigh_of(b, t, al, be, u);                                                           \
    }
TRAMPOLINE(0) TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3)
TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
static int (*const forces[IFACE_MAX_SUB])(double, double *, void *) = {
    force_0, force_1, force_2, force_3, force_4, force_5, force_6, force_7};
static void (*const rigids[IFACE_MAX_SUB])(double, double *, double *, void *) = {
    rigid_0, rigid_1, rigid_2, rigid_3, rigid_4, rigid_5, rigid_6, rigid_7};
static void (*const rayleighs[IFACE_MAX_SUB])(double, double *, double *, void *) = {
    rayleigh_0, rayleigh_1, rayleigh_2, rayleigh_3, rayleigh_4, rayleigh_5, rayleigh_6,
    rayleigh_7};

/* The matrices of a block of size r: M = Minv^-1, K = M (Minv K),
 * C = M (Minv C), into mats (3 r^2). 0, or 1 when Minv is not positive
 * definite. */
static int block_matrices(const model_block *k, int r, double *mats)
{
    size_t rr = (size_t)r * r;
    double *M = mats, *K = mats + rr, *C = mats + 2 * rr;
    memcpy(M, k->minv, rr * sizeof *M);
    if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', r, M, r) != 0 ||
        LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', r, M, r) != 0)
        return 1;
    for (int j = 0; j < r; j++)
        for (int i = 0; i < j; i++)
            M[(size_t)j * r + i] = M[(size_t)i * r + j];
    for (int j = 0; j < r; j++)
        for (int i = 0; i < r; i++) {
            double sk = 0, sc = 0;
            for (int l = 0; l < r; l++) {
                sk += M[(size_t)l * r + i] * k->minv_k[(size_t)j * r + l];
                sc += M[(size_t)l * r + i] * k->minv_c[(size_t)j * r + l];
            }
            K[(size_t)j * r + i] = sk;
            C[(size_t)j * r + i] = sc;
        }
    return 0;
}

/* See iface_slide.h. */
int iface_model(const jnt_model *mdl, const double *p, double h, slide_model **out, char *err,
                size_t errn)
{
    const jnt_abi_model *a = mdl->abi;
    *out = NULL;
    int nb = a->nblocks, ns = 0, nm = 0, method = -1, rc = JNT_OK;
    if (nb < 1 || nb > IFACE_MAX_SUB) {
        snprintf(err, errn, "a model with sliding interfaces needs 1 to %d substructures, not %d",
                 IFACE_MAX_SUB, nb);
        return JNT_ERR_MODEL;
    }
    size_t nmat = 0;
    for (int b = 0; b < nb; b++)
        nmat += 3 * (size_t)a->blocks[b].r * a->blocks[b].r;
    for (int f = 0; f < a->nifaces; f++) {
        ns += a->ifaces[f].nslave;
        nm += a->ifaces[f].nmaster;
    }
    double *mats = calloc(nmat + (size_t)a->nifaces + (size_t)a->nd + 1, sizeof *mats);
    slide_sub *subs = calloc((size_t)nb, sizeof *subs);
    slide_iface *ifs = calloc((size_t)a->nifaces, sizeof *ifs);
    slide_node *nodes = calloc((size_t)(ns + nm), sizeof *nodes);
    if (!mats || !subs || !ifs || !nodes) {
        rc = JNT_ERR_NOMEM;
        snprintf(err, errn, "out of memory");
        goto done;
    }
    double *mu = mats + nmat, *d0 = mu + a->nifaces, *mp = mats;
    if (a->iface_mu(0, NULL, NULL, d0, p, mu) != 0) {
        rc = JNT_ERR_KERNEL;
        snprintf(err, errn, "the friction coefficient kernel failed");
        goto done;
    }
    for (int b = 0; b < nb && rc == JNT_OK; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        size_t rr = (size_t)k->r * k->r;
        if (block_matrices(&mdl->blk[b], k->r, mp) != 0) {
            rc = JNT_ERR_MODEL;
            snprintf(err, errn, "substructure '%s': its mass matrix is not positive definite",
                     k->name);
            break;
        }
        subs[b] = (slide_sub){.n = k->r, .M = mp, .K = mp + rr, .C = mp + 2 * rr,
                              .force = forces[b],
                              .rigid = k->flags & JNT_BLOCK_FRAME ? rigids[b] : NULL,
                              .rayleigh = k->flags & JNT_BLOCK_RAYLEIGH ? rayleighs[b] : NULL};
        mp += 3 * rr;
    }
    slide_node *nd = nodes;
    for (int f = 0; f < a->nifaces && rc == JNT_OK; f++) {
        const jnt_abi_iface *af = &a->ifaces[f];
        int rs = a->blocks[af->slave].r, rm = a->blocks[af->master].r;
        int m = af->method == JNT_IFACE_FILM ? SLIDE_FILM : SLIDE_DUAL;
        if (method >= 0 && m != method) {
            rc = JNT_ERR_MODEL;
            snprintf(err, errn, "interface '%s': every interface of a model is coupled the same "
                                "way (dual or film)", af->name);
            break;
        }
        method = m;
        slide_iface_init(&ifs[f]);
        ifs[f].slave_sub = af->slave;
        ifs[f].master_sub = af->master;
        ifs[f].nslave = af->nslave;
        ifs[f].nmaster = af->nmaster;
        ifs[f].assumption = af->method == JNT_IFACE_FILM ? SLIDE_REALISTIC
                                                          : (slide_assumption)af->method;
        ifs[f].mu = mu[f];
        ifs[f].mu_fn = af->mu_varies ? mu_of : NULL;
        const double *row = mdl->data + af->rows, *x = mdl->data + af->x;
        for (int k = 0; k < af->nslave + af->nmaster; k++, nd++) {
            int r = k < af->nslave ? rs : rm;
            nd->X[0] = x[2 * k];
            nd->X[1] = x[2 * k + 1];
            nd->phi[0] = row;
            nd->phi[1] = row + r;
            nd->dof[0] = nd->dof[1] = -1;
            row += 2 * (size_t)r;
        }
        ifs[f].slave = nd - af->nslave - af->nmaster;
        ifs[f].master = nd - af->nmaster;
    }
    if (rc == JNT_OK) {
        /* The substructures run on their modal coordinates where the damping
         * allows (slide_coords): the physical state is computed at the output
         * rows (slide_sync), and before the force kernel only when it reads
         * the state (forces_read_state). */
        slide_def def = {.nsub = nb, .sub = subs, .niface = a->nifaces, .iface = ifs,
                         .method = (slide_method)method, .h = h, .lazy = 1,
                         .force_state = forces_read_state(a)};
        rc = slide_model_new(&def, out, err, errn);
    }
done:
    free(mats);
    free(subs);
    free(ifs);
    free(nodes);
    return rc;
}

/* See iface_slide.h. */
void *iface_modes_ctx(const jnt_model *m, const double *p)
{
    run_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = (run_ctx){.m = m, .a = m->abi, .p = p, .in_t = NAN};
    c->dmu = calloc((size_t)m->abi->nd + m->abi->nifaces + 1, sizeof *c->dmu);
    if (!c->dmu) {
        free(c);
        return NULL;
    }
    return c;
}

/* See iface_slide.h. */
void iface_modes_ctx_free(void *ctx)
{
    run_ctx *c = ctx;
    if (c)
        free(c->dmu);
    free(c);
}

/* See iface_slide.h. */
int iface_locus(const jnt_model *m, const double *p, double h, int iface, double from,
                double to, int steps, double t, double speed, const char *path, char *err,
                size_t errn)
{
    const jnt_abi_model *a = m->abi;
    slide_model *sm = NULL;
    int rc = iface_model(m, p, h, &sm, err, errn);
    if (rc != JNT_OK)
        return rc;
    void *ctx = iface_modes_ctx(m, p);
    slide_modes_opts o;
    memset(&o, 0, sizeof o);
    o.moved = 1 + a->ifaces[iface].slave;
    o.unstable_tol = IFACE_UNSTABLE_TOL;
    o.t = t;
    o.speed = speed;
    if (ctx)
        rc = slide_modes_locus(sm, ctx, from, to, steps, &o, path, NULL, err, errn);
    else
        rc = JNT_ERR_NOMEM, snprintf(err, errn, "out of memory");
    iface_modes_ctx_free(ctx);
    slide_model_free(sm);
    return rc;
}

/* The contacts after a step into the model's discrete states. */
static void write_contacts(const jnt_abi_model *a, const slide_data *sd, double *d)
{
    int c = 0;
    for (int f = 0; f < a->nifaces; f++)
        for (int k = 0; k < a->ifaces[f].nslave; k++, c++) {
            const slide_contact *ct = &sd->contact[c];
            double *o = d + a->ifaces[f].d0 + k * JNT_IFACE_NCONTACT;
            o[0] = ct->normal;
            o[1] = ct->friction;
            o[2] = ct->x[0];
            o[3] = ct->x[1];
            o[4] = ct->v_slip;
            o[5] = ct->state;
        }
}

/* The blocks' accelerations (at the step's start, the central difference's
 * a_n) into the discrete states that outputs read (only outputs may: sema
 * offers SUB.SET[k].uy.a in the output block alone); all: every one, else
 * those the outputs read (jnt_abi_block.out_reads). */
static void write_accels(const run_ctx *c, double *d, int all)
{
    for (int b = 0; b < c->a->nblocks; b++) {
        const jnt_abi_block *k = &c->a->blocks[b];
        const double *acc = c->sd->a + slide_model_offset(c->sm, b);
        if (k->qdd0 < 0)
            continue;
        if (all || !k->out_reads) {
            memcpy(d + k->qdd0, acc, (size_t)k->r * sizeof *d);
            continue;
        }
        for (int e = 1; e <= k->out_reads[0]; e++)
            if (k->out_reads[e] >= 2 * k->r)
                d[k->qdd0 + k->out_reads[e] - 2 * k->r] = acc[k->out_reads[e] - 2 * k->r];
    }
}

/* What the output kernel reads of each block (jnt_abi_block.out_reads) as
 * slide_rows, so that an output row computes only those values of the
 * physical state (u = Phi q on modal coordinates: 3 n^2 operations per
 * block for all of it; docs/interfaces.md). 0, or a message in err. */
static int output_rows(run_ctx *c, char *err, size_t errn)
{
    for (int b = 0; b < c->a->nblocks; b++) {
        const jnt_abi_block *k = &c->a->blocks[b];
        unsigned char *what = NULL;
        if (k->out_reads) {
            what = calloc((size_t)k->r + 1, 1);
            if (!what)
                break;
            int n = k->out_reads[0];
            for (int j = 1; j <= n && n <= 3 * k->r; j++) {
                int e = k->out_reads[j];
                if (e < 0 || e >= 3 * k->r || (e >= 2 * k->r && k->qdd0 < 0)) {
                    n = -1;
                    break;
                }
                what[e % k->r] |= e < k->r ? SLIDE_ROW_U : e < 2 * k->r ? SLIDE_ROW_V
                                                                         : SLIDE_ROW_A;
            }
            if (n < 0 || n > 3 * k->r) {
                free(what);
                snprintf(err, errn, "substructure '%s': the table of what the outputs read "
                                    "is out of range", k->name);
                return JNT_ERR_MODEL;
            }
        }
        c->rows[b] = slide_rows_new(c->sm, b, what);
        free(what);
        if (!c->rows[b])
            break;
    }
    for (int b = 0; b < c->a->nblocks; b++)
        if (!c->rows[b]) {
            snprintf(err, errn, "out of memory");
            return JNT_ERR_NOMEM;
        }
    return JNT_OK;
}

/* One output row at the slide state: the part of the physical state the
 * output kernel reads brought up to date (slide_sync_rows). */
static int emit(run_ctx *c, slide_data *sd, csv_writer *csv)
{
    jnt_data *dt = c->dt;
    for (int b = 0; b < c->a->nblocks; b++)
        slide_sync_rows(c->sm, sd, c->rows[b]);
    if (sd->step > 0)
        write_accels(c, dt->d, 0);
    to_y(c, c->sd->u, c->sd->v, c->y);
    if (c->a->output(c->sd->t, c->y, eval_gather(c->m, dt, c->y), dt->d, dt->p, dt->out) < 0)
        return data_error(dt, JNT_ERR_KERNEL, "t = %.9g s: the output kernel failed", c->sd->t);
    if (csv) {
        int rc = csv_row(csv, dt->out, c->a->nout, dt->err, sizeof dt->err);
        if (rc != JNT_OK)
            return rc;
    }
    dt->stats.out_rows++;
    return JNT_OK;
}

/* See iface_slide.h. */
int iface_run(const jnt_model *m, jnt_data *dt, const jnt_settings *s, csv_writer *csv,
              int progress_mode)
{
    const jnt_abi_model *a = m->abi;
    char err[256] = "";
    run_ctx c = {.m = m, .a = a, .dt = dt, .p = dt->p, .last_t = NAN, .last_step = -1, .in_t = NAN,
                 .force_state = forces_read_state(a)};
    slide_model *sm = NULL;
    int rc = iface_model(m, dt->p, s->h, &sm, err, sizeof err);
    if (rc != JNT_OK)
        return data_error(dt, rc, "%s", err);
    c.sm = sm;
    c.direct = forces_direct(a, c.force_state);
    c.y = calloc(2 * (size_t)a->ny + a->nd + a->nifaces + 1 +
                     (c.direct ? (size_t)a->ny + 3 * (size_t)a->nu : 0),
                 sizeof *c.y);
    c.ydot = c.y + a->ny;
    c.dmu = c.ydot + a->ny;
    c.ko = c.dmu + a->nd + a->nifaces;
    c.uz = c.ko + a->ny + a->nu;
    slide_data *sd = c.y ? slide_data_new(sm, &c) : NULL;
    if (!sd) {
        free(c.y);
        slide_model_free(sm);
        return data_error(dt, JNT_ERR_NOMEM, "out of memory");
    }
    /* initial coordinates and velocities from the model's init */
    int n = slide_model_ndof(sm);
    double *u0 = calloc(2 * (size_t)n + 1, sizeof *u0), *v0 = u0 ? u0 + n : NULL;
    for (int b = 0; u0 && b < a->nblocks; b++) {
        const jnt_abi_block *k = &a->blocks[b];
        int off = slide_model_offset(sm, b);
        memcpy(u0 + off, dt->y + k->q0, (size_t)k->r * sizeof *u0);
        memcpy(v0 + off, dt->y + k->q0 + k->r, (size_t)k->r * sizeof *v0);
    }
    c.sd = sd;
    rc = u0 ? slide_init(sm, sd, s->t0, u0, v0) : JNT_ERR_NOMEM;
    free(u0);
    if (rc != JNT_OK)
        rc = data_error(dt, rc < 0 ? rc : JNT_ERR_MODEL, "t = %.9g s: %s", s->t0, slide_error(sd));
    else if ((rc = output_rows(&c, err, sizeof err)) != JNT_OK)
        rc = data_error(dt, rc, "%s", err);
    else
        rc = emit(&c, sd, csv);
    double oe = s->out_every, next = s->t0 + oe;
    progress pg;
    progress_start(&pg, progress_mode, s->t0, s->t_end);
    while (rc == JNT_OK && sd->t < s->t_end - 0.5 * s->h) {
        int st = slide_step(sm, sd);
        if (st < 0) {
            rc = data_error(dt, st, "t = %.9g s: %s", sd->t + s->h, slide_error(sd));
            break;
        }
        dt->stats.steps++;
        write_contacts(a, sd, dt->d);
        int last = sd->t >= s->t_end - 0.5 * s->h;
        if (oe <= 0 || last || sd->t >= next - 0.5 * s->h) {
            rc = emit(&c, sd, csv);
            while (oe > 0 && next <= sd->t + 0.5 * s->h)
                next += oe;
        }
        progress_update(&pg, sd->t);
        if (rc == JNT_OK && dt->stop && *dt->stop) /* jnt_set_stop_flag: within one step */
            rc = data_error(dt, JNT_STOPPED, "stopped at t = %.9g s", sd->t);
    }
    progress_clear(&pg);
    /* the whole state at the end: y, and the accelerations of the last row */
    slide_sync(sm, sd);
    to_y(&c, sd->u, sd->v, dt->y);
    if (rc == JNT_OK && sd->step > 0)
        write_accels(&c, dt->d, 1);
    dt->t = sd->t;
    for (int b = 0; b < a->nblocks; b++)
        slide_rows_free(c.rows[b]);
    slide_data_free(sd);
    slide_model_free(sm);
    free(c.y);
    return rc;
}
