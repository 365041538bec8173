/*
 * lap3.h: the three-layer steel sheet of seed 000 Sect. 6 (Fig. 14) as a
 * finite-element model (M.mtx, K.mtx, nodes.csv), for the tests of
 * examples/lap_joint.jnt (clamped, DX = 10 mm) and
 * examples/car_pendulum.jnt (on the car, DX = 1.25 mm). Static functions
 * of a test program's own: include it once, after check.h and csvread.h.
 */
#ifndef JNT_TEST_LAP3_H
#define JNT_TEST_LAP3_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jnt/setup.h"

/* The sheets (seed 000 Sect. 6: steel, 20 mm wide, 1 mm thick; two outer
 * sheets of 300 mm, a central one of 400 mm between them), plane-stress
 * four-node elements of DX x H, one through the thickness. Layer 0 (lower),
 * 1 (central) and 2 (upper) lie on top of each other; facing edges coincide
 * (the contact gap is the elements' gap0). */
enum { NLAYER = 3 };
static const double H = 1e-3, W = 0.02, E = 2.1e11, NU = 0.3, RHO = 7850;
static const double L_OUT = 0.3, L_MID = 0.4;
/* The outer sheets are joined by "beams at two locations" (Sect. 6): here
 * at x = 150 and 300 mm, each a pin across the central sheet (a hole in it)
 * given as springs in ux and uy between the facing nodes of the outer
 * sheets, K_TIE = 1e9 N/m (a steel pin of about 3 mm diameter and 2 mm
 * length: E A / l = 7e8 N/m). The point mass m_pm = 0.2 kg (Table 5) sits
 * at the free end of the central sheet, split on its two end nodes. */
static const double X_TIE[2] = {0.15, 0.3}, K_TIE = 1e9, M_PM = 0.2;

/* Append node `node` to set `s` of m. */
static int lap3_set_push(fe_set *s, int node)
{
    int *p = realloc(s->node, (size_t)(s->n + 1) * sizeof *p);
    if (!p)
        return -1;
    p[s->n++] = node;
    s->node = p;
    return 0;
}

/* Node (i, j) of layer l (j = 0 bottom, 1 top; numbered along x in pairs)
 * in the merged model, whose layers follow each other. */
static int lap3_node(const int *first, int l, int i, int j)
{
    return first[l] + 2 * i + j;
}

/*
 * Element matrices (8 x 8, DOFs u1 v1 .. u4 v4, nodes (0,0) (a,0) (a,b)
 * (0,b)) of a plane-stress rectangle a x b, thickness t: consistent mass
 * (2 x 2 Gauss, exact) and stiffness with selective reduced integration:
 * the normal strains by 2 x 2 Gauss, the shear strain at the centre. A fully
 * integrated four-node element with one element through a thin sheet locks
 * in shear (plate2d's element = q4: the first bending frequency of the
 * 300 mm sheet with 5 mm elements is 30.4 Hz, Euler-Bernoulli 9.28 Hz); with
 * the shear at the centre a pure bending field has no parasitic shear, and
 * the sheet bends with E / (1 - nu^2), as a wide plate (9.7 Hz). Rank 5:
 * no zero-energy modes besides the rigid ones.
 */
static void lap3_q4_sri(double a, double b, double t, double ke[64], double me[64])
{
    static const double xi[4] = {-1, 1, 1, -1}, eta[4] = {-1, -1, 1, 1};
    const double g = 1 / sqrt(3.0), c = E / (1 - NU * NU), dA = a * b / 4;
    memset(ke, 0, 64 * sizeof *ke);
    memset(me, 0, 64 * sizeof *me);
    for (int gp = 0; gp < 5; gp++) { /* 4 Gauss points, then the centre */
        double x = gp < 4 ? g * xi[gp] : 0, y = gp < 4 ? g * eta[gp] : 0;
        double nn[4], nx[4], ny[4];
        for (int k = 0; k < 4; k++) {
            nn[k] = (1 + xi[k] * x) * (1 + eta[k] * y) / 4;
            nx[k] = xi[k] * (1 + eta[k] * y) / 4 * 2 / a;
            ny[k] = eta[k] * (1 + xi[k] * x) / 4 * 2 / b;
        }
        for (int p = 0; p < 4; p++)
            for (int q = 0; q < 4; q++) {
                double *k = ke, *m = me;
                int uu = 2 * p + 8 * 2 * q, uv = 2 * p + 8 * (2 * q + 1),
                    vu = 2 * p + 1 + 8 * 2 * q, vv = 2 * p + 1 + 8 * (2 * q + 1);
                if (gp < 4) { /* normal strains and mass, weight 1 */
                    k[uu] += c * nx[p] * nx[q] * t * dA;
                    k[vv] += c * ny[p] * ny[q] * t * dA;
                    k[uv] += c * NU * nx[p] * ny[q] * t * dA;
                    k[vu] += c * NU * ny[p] * nx[q] * t * dA;
                    m[uu] += RHO * t * nn[p] * nn[q] * dA;
                    m[vv] += RHO * t * nn[p] * nn[q] * dA;
                } else { /* shear at the centre, weight 4 */
                    double G = E / (2 * (1 + NU)) * t * 4 * dA;
                    k[uu] += G * ny[p] * ny[q];
                    k[vv] += G * nx[p] * nx[q];
                    k[uv] += G * ny[p] * nx[q];
                    k[vu] += G * nx[p] * ny[q];
                }
            }
    }
}

/* The three layers in one model with plain (ux, uy) DOFs (2 node, 2 node +
 * 1), elements DX long, the pins and the point mass, and the sets clamp
 * (x = 0, every layer), joint_a and joint_b (the contact pairs, in order:
 * lower sheet top / central sheet bottom at x = DX .. 300 mm, then central
 * sheet top / upper sheet bottom), load (the central sheet's top right
 * corner); with `pins`, also pin1 and pin2 (the lower sheet's top node at
 * each pin). Writes M.mtx, K.mtx, nodes.csv in dir. */
static int lap3_generate(const char *dir, double DX, int pins, char *err, size_t errn)
{
    fe_model m;
    const int NX_OUT = (int)lround(L_OUT / DX), NX_MID = (int)lround(L_MID / DX);
    const int nx[NLAYER] = {NX_OUT, NX_MID, NX_OUT};
    int rc = 0, first[NLAYER + 1] = {0}, nel = 0;
    memset(&m, 0, sizeof m);
    *err = 0;
    for (int l = 0; l < NLAYER; l++)
        first[l + 1] = first[l] + 2 * (nx[l] + 1), nel += nx[l];
    m.nnode = first[NLAYER];
    m.ndof = 2 * m.nnode;
    m.node = calloc((size_t)m.nnode, sizeof *m.node);
    const char *names[6] = {"clamp", "joint_a", "joint_b", "load", "pin1", "pin2"};
    m.nset = pins ? 6 : 4;
    m.set = calloc(6, sizeof *m.set);
    int nt = 64 * nel + 16 + 4; /* elements, pins, point mass */
    int *ri = malloc((size_t)nt * sizeof *ri), *ci = malloc((size_t)nt * sizeof *ci);
    double *vk = malloc((size_t)nt * sizeof *vk), *vm = malloc((size_t)nt * sizeof *vm);
    if (!m.node || !m.set || !ri || !ci || !vk || !vm) {
        rc = -1;
        snprintf(err, errn, "out of memory");
        goto done;
    }
    for (int s = 0; s < m.nset; s++)
        snprintf(m.set[s].name, sizeof m.set[s].name, "%s", names[s]);
    double ke[64], me[64];
    lap3_q4_sri(DX, H, W, ke, me);
    int k = 0;
    for (int l = 0; l < NLAYER; l++)
        for (int i = 0; i < nx[l]; i++) {
            int n4[4] = {lap3_node(first, l, i, 0), lap3_node(first, l, i + 1, 0),
                         lap3_node(first, l, i + 1, 1), lap3_node(first, l, i, 1)};
            for (int q = 0; q < 8; q++)
                for (int p = 0; p < 8; p++, k++) {
                    ri[k] = 2 * n4[p / 2] + p % 2;
                    ci[k] = 2 * n4[q / 2] + q % 2;
                    vk[k] = ke[p + 8 * q];
                    vm[k] = me[p + 8 * q];
                }
        }
    for (int t = 0; t < 2; t++) { /* the pins between the outer sheets */
        int i = (int)lround(X_TIE[t] / DX);
        int a = lap3_node(first, 0, i, 1), b = lap3_node(first, 2, i, 0);
        for (int d = 0; d < 2; d++) {
            int da = 2 * a + d, db = 2 * b + d;
            int rr[4] = {da, db, da, db}, cc[4] = {da, db, db, da};
            for (int e = 0; e < 4; e++, k++)
                ri[k] = rr[e], ci[k] = cc[e], vk[k] = e < 2 ? K_TIE : -K_TIE, vm[k] = 0;
        }
    }
    for (int j = 0; j < 2; j++) /* the point mass, half on each end node */
        for (int d = 0; d < 2; d++, k++) {
            ri[k] = ci[k] = 2 * lap3_node(first, 1, NX_MID, j) + d;
            vk[k] = 0, vm[k] = M_PM / 2;
        }
    rc = fe_sparse_from_triplets(m.ndof, k, ri, ci, vm, &m.M);
    if (rc == 0)
        rc = fe_sparse_from_triplets(m.ndof, k, ri, ci, vk, &m.K);
    for (int l = 0; l < NLAYER && rc == 0; l++)
        for (int i = 0; i <= nx[l]; i++)
            for (int j = 0; j < 2; j++) {
                int id = lap3_node(first, l, i, j);
                fe_node *o = &m.node[id];
                o->id = id + 1;
                o->x[0] = i * DX;
                o->x[1] = (l + j) * H;
                for (int c = 0; c < FE_NDOF_NODE; c++)
                    o->dof[c] = -1;
                o->dof[FE_UX] = 2 * id, o->dof[FE_UY] = 2 * id + 1;
                o->master = -1;
            }
    for (int l = 0; l < NLAYER && rc == 0; l++)
        for (int j = 0; j < 2 && rc == 0; j++)
            rc = lap3_set_push(&m.set[0], lap3_node(first, l, 0, j));
    for (int l = 0; l < 2; l++) /* interface l: layer l's top, layer l + 1's bottom */
        for (int i = 1; i <= NX_OUT && rc == 0; i++) {
            rc = lap3_set_push(&m.set[1], lap3_node(first, l, i, 1));
            if (rc == 0)
                rc = lap3_set_push(&m.set[2], lap3_node(first, l + 1, i, 0));
        }
    if (rc == 0)
        rc = lap3_set_push(&m.set[3], lap3_node(first, 1, NX_MID, 1));
    for (int t = 0; t < 2 && pins && rc == 0; t++)
        rc = lap3_set_push(&m.set[4 + t], lap3_node(first, 0, (int)lround(X_TIE[t] / DX), 1));
    if (rc == 0) {
        char pm[512], pk[512], pn[512];
        snprintf(pm, sizeof pm, "%s/M.mtx", dir);
        snprintf(pk, sizeof pk, "%s/K.mtx", dir);
        snprintf(pn, sizeof pn, "%s/nodes.csv", dir);
        rc = fe_write_model(&m, pm, pk, NULL, pn, err, errn);
    } else if (!*err) {
        snprintf(err, errn, "out of memory");
    }
done:
    free(ri);
    free(ci);
    free(vk);
    free(vm);
    fe_free(&m);
    return rc;
}

/* The text of the example at `path` (read_text, csvread.h), for a variant
 * run: the line marked REDUCE replaced by `reduce` ("reduce = ..."; "" for
 * none; NULL: kept), the line marked LAW by "law = `law`" (NULL: kept), the lines marked
 * FRICTION dropped unless `friction`, and every "`from`" path prefix in
 * quotes replaced by "`to`/". The caller frees it; NULL when unreadable. */
static char *lap3_text(const char *path, const char *from, const char *to, const char *reduce,
                       const char *law, int friction)
{
    char *src = read_text(path);
    size_t lf = strlen(from);
    char *out = src ? malloc(strlen(src) + 8192) : NULL;
    if (!out) {
        free(src);
        return NULL;
    }
    char *o = out;
    for (char *line = src, *next; *line; line = next) {
        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        int len = (int)(next - line);
        char *mark = strstr(line, "// ");
        if (mark && mark < next && strncmp(mark, "// FRICTION", 11) == 0 && !friction)
            continue;
        if (mark && mark < next && strncmp(mark, "// REDUCE", 9) == 0 && reduce) {
            o += sprintf(o, "  %s\n", reduce);
            continue;
        }
        if (mark && mark < next && strncmp(mark, "// LAW", 6) == 0 && law) {
            o += sprintf(o, "  law  = %s\n", law);
            continue;
        }
        for (int k = 0; k < len; k++) {
            if (line[k] == '"' && strncmp(line + k + 1, from, lf) == 0) {
                o += sprintf(o, "\"%s/", to);
                k += (int)lf;
            } else {
                *o++ = line[k];
            }
        }
    }
    *o = 0;
    free(src);
    return out;
}

/* A test's mesh. With the arguments "--generate DIR": write it to DIR, *rc
 * its exit status, and return 1 (the program is done). Else write it to
 * $JNT_TEST_OUT/NAME_data (its path into dir, dirn bytes), check that the
 * committed files in the folder `committed` are the generator's output
 * byte for byte, and return 0. Uses check.h and csvread.h (included before). */
static int lap3_data(int argc, char **argv, const char *name, const char *committed, double dx,
                     int pins, char *dir, size_t dirn, int *rc)
{
    char err[512], cmd[600], sub[128];
    if (argc == 3 && strcmp(argv[1], "--generate") == 0) {
        *rc = lap3_generate(argv[2], dx, pins, err, sizeof err) ? 1 : 0;
        if (*rc)
            fprintf(stderr, "%s\n", err);
        return 1;
    }
    snprintf(sub, sizeof sub, "%s_data", name);
    snprintf(dir, dirn, "%s", test_out(sub));
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    int g = system(cmd) == 0 ? lap3_generate(dir, dx, pins, err, sizeof err) : -1;
    CHECK(g == 0, "generate %s's mesh: %s", name, g ? err : "ok");
    static const char *const files[] = {"M.mtx", "K.mtx", "nodes.csv"};
    for (int k = 0; k < 3; k++) {
        char a[700], b[700];
        snprintf(a, sizeof a, "%s/%s", dir, files[k]);
        snprintf(b, sizeof b, "%s/%s", committed, files[k]);
        char *x = read_text(a), *y = read_text(b);
        CHECK(x && y && strcmp(x, y) == 0, "%s is the generator's output", b);
        free(x);
        free(y);
    }
    return 0;
}

#endif
