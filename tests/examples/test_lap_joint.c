/*
 * test_lap_joint.c: examples/lap_joint.jnt, a two-layer sheet joint (seed
 * 000 Sect. 6.1, Fig. 17): two plate2d steel sheets stacked, clamped at the
 * left, node-to-node joint-adapted exponential contact (eq. 41) and
 * three-parameter Coulomb friction (eq. 1) between the facing edges, a
 * smoothed step load at the upper sheet's free end. The contact force norm
 * |f_c| of reduced models (modal + static + jtv with 0, 5, 10, 20 JTVs, and
 * 20 additional normal modes instead of 20 JTVs) is compared with the
 * unreduced model. Also the generator of the example's data files:
 *   build/tests/test_lap_joint --generate examples/lap_joint
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvread.h"
#include "fe.h"
#include "jnt/jnt.h"

static const char *model_path = "examples/lap_joint.jnt";

/* The sheets (seed 000 Sect. 6: 1 mm steel sheets, 20 mm wide): 300 mm long,
 * 60 x 1 plane-stress elements each; the lower one's top edge and the upper
 * one's bottom edge coincide (the contact gap is the elements' gap0). */
enum { NX = 60, NY = 1 };
static const double L = 0.3, H = 1e-3, W = 0.02, E = 2.1e11, NU = 0.3, RHO = 7850;

/* Append node `node` to set `s` of m. */
static int set_push(fe_set *s, int node)
{
    int *p = realloc(s->node, (size_t)(s->n + 1) * sizeof *p);
    if (!p)
        return -1;
    p[s->n++] = node;
    s->node = p;
    return 0;
}

/* Two plate2d layers merged block-diagonally into one model with plain
 * (ux, uy) DOFs and the sets clamp (x = 0, both layers), lower_top and
 * upper_bottom (the facing edges without the clamped nodes, by x), load (the
 * upper sheet's top right corner). Writes M.mtx, K.mtx, nodes.csv in dir. */
static int generate(const char *dir, char *err, size_t errn)
{
    fe_model p, m;
    int rc = fe_plate2d(&p, L, H, W, E, NU, RHO, NX, NY, err, errn);
    if (rc)
        return rc;
    memset(&m, 0, sizeof m);
    int nn = p.nnode, nd = p.ndof;
    m.ndof = 2 * nd;
    m.nnode = 2 * nn;
    m.node = calloc((size_t)m.nnode, sizeof *m.node);
    const char *names[4] = {"clamp", "lower_top", "upper_bottom", "load"};
    m.nset = 4;
    m.set = calloc(4, sizeof *m.set);
    /* both layers' matrices, the upper one shifted by nd DOFs */
    int nt = 2 * (p.M.nnz + p.K.nnz);
    int *ri = malloc((size_t)nt * sizeof *ri), *ci = malloc((size_t)nt * sizeof *ci);
    double *v = malloc((size_t)nt * sizeof *v);
    if (!m.node || !m.set || !ri || !ci || !v) {
        rc = -1;
        goto done;
    }
    for (int s = 0; s < 4; s++)
        snprintf(m.set[s].name, sizeof m.set[s].name, "%s", names[s]);
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        const fe_sparse *a = pass ? &p.K : &p.M;
        int k = 0;
        for (int layer = 0; layer < 2; layer++)
            for (int c = 0; c < nd; c++)
                for (int q = a->colptr[c]; q < a->colptr[c + 1]; q++, k++) {
                    ri[k] = a->rowind[q] + layer * nd;
                    ci[k] = c + layer * nd;
                    v[k] = a->val[q];
                }
        rc = fe_sparse_from_triplets(m.ndof, k, ri, ci, v, pass ? &m.K : &m.M);
    }
    /* nodes: the upper layer H above the lower one */
    for (int layer = 0; layer < 2 && rc == 0; layer++)
        for (int i = 0; i < nn; i++) {
            fe_node *o = &m.node[layer * nn + i];
            *o = p.node[i];
            o->id = layer * nn + i + 1;
            o->x[1] += layer * H;
            o->dof[FE_UX] += layer * nd;
            o->dof[FE_UY] += layer * nd;
            o->master = -1;
        }
    /* the sets, in increasing x (plate2d's "bottom" and "top" are) */
    int sb = fe_find_set(&p, "bottom"), st = fe_find_set(&p, "top"),
        sl = fe_find_set(&p, "left"), sr = fe_find_set(&p, "top_right");
    for (int layer = 0; layer < 2 && rc == 0; layer++)
        for (int k = 0; k < p.set[sl].n && rc == 0; k++)
            rc = set_push(&m.set[0], layer * nn + p.set[sl].node[k]);
    for (int k = 1; k < p.set[st].n && rc == 0; k++)
        rc = set_push(&m.set[1], p.set[st].node[k]);
    for (int k = 1; k < p.set[sb].n && rc == 0; k++)
        rc = set_push(&m.set[2], nn + p.set[sb].node[k]);
    if (rc == 0)
        rc = set_push(&m.set[3], nn + p.set[sr].node[0]);
    if (rc == 0) {
        char pm[512], pk[512], pn[512];
        snprintf(pm, sizeof pm, "%s/M.mtx", dir);
        snprintf(pk, sizeof pk, "%s/K.mtx", dir);
        snprintf(pn, sizeof pn, "%s/nodes.csv", dir);
        rc = fe_write_model(&m, pm, pk, NULL, pn, err, errn);
    } else {
        snprintf(err, errn, "out of memory");
    }
done:
    free(ri);
    free(ci);
    free(v);
    fe_free(&m);
    fe_free(&p);
    return rc;
}

/* The example's text with its reduce line replaced by `reduce` (empty: none)
 * and the data directory by dir. The caller frees it. */
static char *model_text(const char *reduce, const char *dir)
{
    char *src = read_text(model_path);
    char *out = src ? malloc(strlen(src) + 4096) : NULL;
    if (!out) {
        free(src);
        return NULL;
    }
    char *o = out;
    /* line by line: the REDUCE line and the data paths */
    for (char *line = src, *next; *line; line = next) {
        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        int len = (int)(next - line);
        if (strstr(line, "// REDUCE") && strstr(line, "// REDUCE") < next) {
            o += sprintf(o, "  %s\n", reduce);
            continue;
        }
        for (int k = 0; k < len; k++) {
            if (strncmp(line + k, "\"lap_joint/", 11) == 0) {
                o += sprintf(o, "\"%s/", dir);
                k += 10;
            } else {
                *o++ = line[k];
            }
        }
    }
    *o = 0;
    free(src);
    return out;
}

/* The comparison times (s): during the rise of the load and after it. */
static const double t_cmp[] = {0.03, 0.05, 0.07, 0.1};
enum { NCMP = sizeof t_cmp / sizeof t_cmp[0] };

/* Run the example with basis `reduce` to 0.1 s; |f_c| at t_cmp in fc[]. */
static int run(const char *tag, const char *reduce, const char *dir, double fc[NCMP])
{
    char *text = model_text(reduce, dir), csv[512];
    jnt_model *m = NULL;
    int rc = text && jnt_compile_string(tag, text, NULL, &m) == JNT_OK ? JNT_OK : -1;
    free(text);
    snprintf(csv, sizeof csv, "%s", test_out(tag));
    strcat(csv, ".csv");
    if (rc == JNT_OK) {
        jnt_data *d = jnt_data_new(m);
        jnt_run_opts o = {0};
        o.csv_path = csv;
        o.t_end = t_cmp[NCMP - 1];
        rc = jnt_run(m, d, &o);
        if (rc != JNT_OK)
            printf("INFO: %s: %s\n", tag, jnt_data_error(d));
        jnt_data_free(d);
        jnt_model_free(m);
    }
    csv_table t;
    if (rc == JNT_OK && csv_load(csv, &t) == 0) {
        double *tt = t.col[0], *c = csv_col(&t, "fc");
        for (int k = 0; k < NCMP; k++) {
            int best = 0;
            for (int i = 1; i < t.nrow; i++)
                if (fabs(tt[i] - t_cmp[k]) < fabs(tt[best] - t_cmp[k]))
                    best = i;
            fc[k] = c[best];
        }
        csv_free(&t);
        return 0;
    }
    return -1;
}

/* RMS relative error of fc against ref over the comparison times. */
static double rms_err(const double fc[NCMP], const double ref[NCMP])
{
    double e = 0, r = 0;
    for (int k = 0; k < NCMP; k++)
        e += (fc[k] - ref[k]) * (fc[k] - ref[k]), r += ref[k] * ref[k];
    return sqrt(e / r);
}

/* Byte equality of two files. */
static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

int main(int argc, char **argv)
{
    char err[512];
    if (argc == 3 && strcmp(argv[1], "--generate") == 0) {
        int rc = generate(argv[2], err, sizeof err);
        if (rc)
            fprintf(stderr, "%s\n", err);
        return rc ? 1 : 0;
    }

    /* the committed data files are the generator's output */
    char dir[512];
    snprintf(dir, sizeof dir, "%s", test_out("lap_joint_data"));
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    int rc = system(cmd) == 0 ? generate(dir, err, sizeof err) : -1;
    CHECK(rc == 0, "generate the two-layer model: %s", rc ? err : "ok");
    static const char *files[] = {"M.mtx", "K.mtx", "nodes.csv"};
    for (int k = 0; k < 3; k++) {
        char a[600], b[600];
        snprintf(a, sizeof a, "%s/%s", dir, files[k]);
        snprintf(b, sizeof b, "examples/lap_joint/%s", files[k]);
        CHECK(same_file(a, b), "examples/lap_joint/%s is the generator's output", files[k]);
    }

    /* the bases: modal(5) + static(load) + 0..20 JTVs, 20 more modes instead,
     * and the reference (the unreduced 488-DOF model takes minutes with bdf:
     * the richest basis, 45 modes + static + jtv instead) */
#define JT(t) "jtv(count = " #t ", pairs = {lower_top, upper_bottom}, comp = uy, " \
              "dkdg = 2 * eps_N * lam_N * A)"
    static const struct { const char *tag, *reduce; } cases[] = {
        {"lap_ref", "reduce = modal(modes = 45) + static(at = load) + " JT(20)},
        {"lap_jtv0", "reduce = modal(modes = 5) + static(at = load)"},
        {"lap_jtv5", "reduce = modal(modes = 5) + static(at = load) + " JT(5)},
        {"lap_jtv10", "reduce = modal(modes = 5) + static(at = load) + " JT(10)},
        {"lap_jtv20", "reduce = modal(modes = 5) + static(at = load) + " JT(20)},
        {"lap_nm20", "reduce = modal(modes = 25) + static(at = load)"},
    };
    enum { NCASE = sizeof cases / sizeof cases[0] };
    double fc[NCASE][NCMP], e[NCASE];
    int ok = 1;
    for (int c = 0; c < NCASE; c++) {
        int r = run(cases[c].tag, cases[c].reduce, dir, fc[c]);
        CHECK(r == 0, "%s runs", cases[c].tag);
        ok = ok && r == 0;
    }
    if (!ok)
        return check_done();
    printf("INFO: | basis | |f_c| at");
    for (int k = 0; k < NCMP; k++)
        printf(" %g s |", t_cmp[k]);
    printf(" RMS rel. error |\n");
    for (int c = 0; c < NCASE; c++) {
        e[c] = rms_err(fc[c], fc[0]);
        printf("INFO: | %s |", cases[c].tag);
        for (int k = 0; k < NCMP; k++)
            printf(" %.5f |", fc[c][k]);
        printf(" %.3g |\n", e[c]);
    }
    /* JTVs reduce the error (0 -> 5); the TVDs of this basis span 5
     * directions, so 10 and 20 requested JTVs are the same 5 (a warning) */
    CHECK(e[2] < 0.7 * e[1], "5 JTVs: error %.3g < 0.7 x that without JTVs %.3g", e[2], e[1]);
    CHECK(fabs(e[3] - e[2]) < 1e-6 && fabs(e[4] - e[2]) < 1e-6,
          "10 and 20 JTVs give the 5 the TVDs span: errors %.3g, %.3g, %.3g", e[2], e[3], e[4]);
    CHECK(e[1] > 0.1, "without JTVs |f_c| is overestimated by %.3g (seed 000 Fig. 17: "
                      "'distinctly overestimated')", e[1]);
    /* not seed 000's finding: here 20 more normal modes beat the (5) JTVs */
    CHECK(e[5] < e[4], "20 more normal modes: error %.3g, 20 JTVs asked (5 given): %.3g "
                       "(seed 000 Fig. 17 has the opposite order)", e[5], e[4]);
    return check_done();
}
