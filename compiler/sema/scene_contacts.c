/*
 * scene_contacts.c: the scene's contacts between markers (jnt/scene.h's
 * mcontact): the values its pictures need of the elements its families draw
 * (kind.h's `draw`), made probes among the scene IR's outputs before the later
 * passes (sema_scene_probes), then read back as the scene's marker contacts,
 * each friction paired with the contact it shares its ends with, for
 * sema/scene.c.
 */
#include <stdlib.h>
#include <string.h>

#include "front/alloc.h"
#include "jnt/scene.h"
#include "passes.h"
#include "scene_int.h"

/* See scene_int.h. */
int scene_drawn(const sema *S, const elem *el)
{
    const sema_kind *f = sema_elem_family(S, el->kind);
    return f ? f->draw : 0;
}

/* One probe: expression e named PROBE_TAG "ELEM:MA:MB:WHAT" among the outputs. */
static void probe(sema *S, int ei, int ma, int mb, const char *what, ex_id e)
{
    char *nm = xasprintf(PROBE_TAG "%d:%d:%d:%s", ei, ma, mb, what);
    ir_add(&S->m->out, nm, e, -1, units_none, loc_none);
}

/* See passes.h. */
void sema_scene_probes(sema *S)
{
    ex_pool *P = S->pool;
    for (int ei = 0; ei < S->nelem; ei++) {
        const elem *el = &S->elems[ei];
        if (!scene_drawn(S, el) || el->force.k != V_NUM || !el->done)
            continue;
        /* its ends' markers as the element machinery found them, a point of the
         * ground named -2 in the probes */
        int ma = el->ma >= 0 && S->markers[el->ma].body < 0 ? -2 : el->ma;
        int mb = el->mb >= 0 && S->markers[el->mb].body < 0 ? -2 : el->mb;
        if (ma == -1 || mb == -1 || (ma < 0 && mb < 0))
            continue; /* not between markers (between mesh nodes: sema_scene's contacts) */
        static const char *const q[2][2] = {{"gap", "force"}, {"force", "v"}};
        int fr = scene_drawn(S, el) == SEMA_DRAW_SLIP;
        sval v[2];
        int ok = 1;
        for (int k = 0; k < 2; k++) { /* its quantity, without a diagnostic when absent */
            int found = 0;
            for (int i = el->nq - 1; i >= 0 && !found; i--)
                if (!strcmp(el->q[i].name, q[fr][k]))
                    v[k] = el->q[i].val, found = 1;
            ok &= found && v[k].k == V_NUM;
        }
        if (!ok)
            continue;
        probe(S, ei, ma, mb, fr ? "ff" : "gap", v[0].e);
        probe(S, ei, ma, mb, fr ? "fv" : "force", v[1].e);
        for (int s2 = 0; s2 < 2; s2++) { /* the markers' positions */
            const marker *m = &S->markers[s2 ? el->mb : el->ma];
            ex_id c[3] = {m->px, m->py, m->d3 ? m->pz : ex_const(P, 0)};
            for (int k = 0; k < 3; k++) {
                char w[3] = {s2 ? 'b' : 'a', (char)('x' + k), 0};
                probe(S, ei, ma, mb, w, c[k] >= 0 ? c[k] : ex_const(P, 0));
            }
        }
    }
}

/* scene_races into ct, its radii and axis the scene's parameter values when
 * they read parameters (ct->rhop, axisp). */
static void races(sema *S, par_list *pl, const elem *el, int ma, int mb, const int *bmap,
                  const double *y, const double *d, const double *p, jnt_scene_mcontact *ct)
{
    ex_id rho[2] = {-1, -1}, axe[3] = {-1, -1, -1};
    int had = ct->rho_a != 0 || ct->rho_b != 0;
    scene_races(S, el, ma, mb, bmap, y, d, p, ct, rho, axe);
    if (!had && (rho[0] >= 0 || rho[1] >= 0))
        ct->rhop = scene_par_vals(S, pl, 2, rho);
    if (axe[0] >= 0)
        ct->axisp = scene_par_vals(S, pl, 3, axe);
}

/* Whether end e1 of the element whose probes start at output k1 (side s1: 0
 * its first end, 1 its second) is end e2 of k2's (side s2): the same marker,
 * or points of the ground (-2) at one place at the scene's parameters. */
static int same_end(sema *S, int e1, int k1, int s1, int e2, int k2, int s2, const double *y,
                    const double *d, const double *p)
{
    const ir_vars *o = &S->m->out;
    if (e1 != e2)
        return 0;
    for (int c = 0; e1 == -2 && c < 3; c++)
        if (scene_at_rest(S, o->v[k1 + 2 + 3 * s1 + c].rhs, y, d, p) !=
            scene_at_rest(S, o->v[k2 + 2 + 3 * s2 + c].rhs, y, d, p))
            return 0;
    return 1;
}

/* The marker contacts of the probes among the outputs (sema_scene_probes),
 * each friction element paired with the contact between the same ends. */
/* See scene_int.h. */
void scene_mcontacts(sema *S, jnt_scene *sc, par_list *pl, const int *bmap,
                            const double *y, const double *d, const double *p)
{
    const ir_vars *o = &S->m->out;
    size_t tl = strlen(PROBE_TAG);
    int first = -1, n = 0;
    for (int i = 0; i < o->n; i++)
        if (!strncmp(o->v[i].name, PROBE_TAG, tl)) {
            if (first < 0)
                first = i;
            n++;
        }
    if (n == 0)
        return;
    /* the program of all probes, in their order */
    ex_id *roots = xmalloc((size_t)n * sizeof *roots);
    for (int k = 0; k < n; k++)
        roots[k] = o->v[first + k].rhs;
    probe_prog *g = scene_prog_build(S, n, roots, S->m->f.n);
    free(roots);
    sc->probe_prog = g;
    sc->probe = scene_prog_eval;
    sc->probe_free = scene_prog_free;
    sc->nprobe = n;
    sc->probe_ny = S->m->y.n, sc->probe_nd = S->m->d.n, sc->probe_nu = S->m->f.n;
    /* the contacts, then their frictions (by the markers at their ends) */
    sc->mcontact = xcalloc((size_t)n + 1, sizeof *sc->mcontact);
    int *ends = xmalloc(3 * ((size_t)n + 1) * sizeof *ends); /* ma, mb, first probe */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < n; k++) {
            int ei, ma, mb;
            char what[8];
            if (sscanf(o->v[first + k].name + tl, "%d:%d:%d:%7s", &ei, &ma, &mb, what) != 4)
                continue;
            /* the element's probes follow in probe()'s order: its two values, then
             * ax, ay, az, bx, by, bz */
            if (pass == 0 && !strcmp(what, "gap")) {
                int c = sc->nmcontact++;
                sc->mcontact[c] = (jnt_scene_mcontact){
                    .name = xstrdup(S->elems[ei].name), .gap = k, .force = k + 1, .xa = k + 2,
                    .xb = k + 5, .ffric = -1, .vfric = -1, .ma = ma < 0 ? -1 : ma,
                    .mb = mb < 0 ? -1 : mb, .axis_body = -1, .rhop = -1, .axisp = -1};
                races(S, pl, &S->elems[ei], ma, mb, bmap, y, d, p, &sc->mcontact[c]);
                ends[3 * c] = ma, ends[3 * c + 1] = mb, ends[3 * c + 2] = first + k;
            }
            for (int c = 0; pass == 1 && !strcmp(what, "ff") && c < sc->nmcontact; c++) {
                jnt_scene_mcontact *ct = &sc->mcontact[c];
                int ca = ends[3 * c], cb = ends[3 * c + 1], kc = ends[3 * c + 2], kf = first + k;
                if (ct->ffric < 0 && ((same_end(S, ca, kc, 0, ma, kf, 0, y, d, p) &&
                                       same_end(S, cb, kc, 1, mb, kf, 1, y, d, p)) ||
                                      (same_end(S, ca, kc, 0, mb, kf, 1, y, d, p) &&
                                       same_end(S, cb, kc, 1, ma, kf, 0, y, d, p)))) {
                    ct->ffric = k, ct->vfric = k + 1;
                    if (ct->rho_a == 0 && ct->rho_b == 0) /* the races' of the friction */
                        races(S, pl, &S->elems[ei], ca, cb, bmap, y, d, p, ct);
                    break;
                }
            }
        }
    free(ends);
}
