/*
 * fe_gen.c: mesh generators, so that models need no external mesher (fe.h):
 * beam2d (Euler-Bernoulli frame elements, consistent mass), beam3d (the
 * spatial frame element from sectional data, consistent mass with rotary
 * inertia and a mass offset), plate2d (plane-stress quadrilaterals, Q4 or
 * QM6, consistent mass) and chain (spring-mass chain, lumped mass). Each
 * assembles triplets and converts them once (fe_sparse_from_triplets).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fe_priv.h"

/* Triplets of M and K being assembled. */
typedef struct gen_asm {
    int nt, cap;
    int *r, *c;
    double *m, *k; /* the same pattern for both */
} gen_asm;

static int gen_asm_init(gen_asm *a, int cap)
{
    memset(a, 0, sizeof *a);
    a->cap = cap;
    a->r = malloc(((size_t)cap + 1) * sizeof *a->r);
    a->c = malloc(((size_t)cap + 1) * sizeof *a->c);
    a->m = malloc(((size_t)cap + 1) * sizeof *a->m);
    a->k = malloc(((size_t)cap + 1) * sizeof *a->k);
    return a->r && a->c && a->m && a->k ? JNT_OK : JNT_ERR_NOMEM;
}

static void gen_asm_free(gen_asm *a)
{
    free(a->r), free(a->c), free(a->m), free(a->k);
}

/* Add the ne x ne element matrices me, ke (column-major) at DOFs dof[]. */
static void gen_asm_add(gen_asm *a, int ne, const int *dof, const double *me, const double *ke)
{
    for (int j = 0; j < ne; j++)
        for (int i = 0; i < ne; i++) {
            a->r[a->nt] = dof[i], a->c[a->nt] = dof[j];
            a->m[a->nt] = me[i + j * ne], a->k[a->nt++] = ke[i + j * ne];
        }
}

/* Drop the entries that are exactly 0 (M and K share the triplet pattern,
 * so each holds the other's zeros, e.g. the chain's lumped M). */
static void gen_prune(fe_sparse *s)
{
    int w = 0;
    for (int j = 0; j < s->n; j++) {
        int p0 = s->colptr[j], p1 = s->colptr[j + 1];
        s->colptr[j] = w;
        for (int p = p0; p < p1; p++)
            if (s->val[p] != 0.0)
                s->rowind[w] = s->rowind[p], s->val[w++] = s->val[p];
    }
    s->colptr[s->n] = s->nnz = w;
}

/* M and K of m from the triplets; frees them. 0 or JNT_ERR_NOMEM. */
static int gen_asm_finish(gen_asm *a, fe_model *m)
{
    int rc = fe_sparse_from_triplets(m->ndof, a->nt, a->r, a->c, a->m, &m->M);
    if (rc == JNT_OK)
        rc = fe_sparse_from_triplets(m->ndof, a->nt, a->r, a->c, a->k, &m->K);
    gen_asm_free(a);
    if (rc == JNT_OK)
        gen_prune(&m->M), gen_prune(&m->K);
    return rc;
}

/* A model with nnode nodes (dof[] = -1, master = -1, id = index + 1). */
/* The most nodes a generated mesh may have: $JNT_MAX_MESH, else 1,000,000
 * (a plate2d of 10^6 x 1 elements took 3.3 GB and 64 s before its first
 * check). */
static long mesh_limit(void)
{
    const char *e = getenv("JNT_MAX_MESH");
    char *end;
    long v = e ? strtol(e, &end, 10) : 0;
    return e && end != e && *end == 0 && v > 0 ? v : 1000000;
}

static int gen_nodes(fe_model *m, int nnode)
{
    memset(m, 0, sizeof *m);
    if ((long)nnode > mesh_limit()) { /* before the memory and the minutes it would cost */
        m->nnode = nnode;
        return JNT_ERR_PARAM;
    }
    m->node = calloc((size_t)nnode, sizeof *m->node);
    if (!m->node)
        return JNT_ERR_NOMEM;
    m->nnode = nnode;
    for (int i = 0; i < nnode; i++) {
        m->node[i].id = i + 1;
        m->node[i].master = -1;
        for (int c = 0; c < FE_NDOF_NODE; c++)
            m->node[i].dof[c] = -1;
    }
    return JNT_OK;
}

/* Add node `node` to the set `name` (created when missing). */
static int gen_set(fe_model *m, const char *name, int node)
{
    int s = fe_set_get(m, name);
    return s < 0 ? s : fe_set_push(&m->set[s], node);
}

/* The end of a generator: out of memory, or done. */
static int gen_done(fe_model *m, int rc, const char *what, char *err, size_t errn)
{
    if (rc == JNT_OK)
        return JNT_OK;
    int nnode = m->nnode;
    if (rc == JNT_ERR_PARAM)
        m->nnode = 0; /* no node table was made */
    fe_free(m);
    if (rc == JNT_ERR_PARAM)
        return jnt_errf(err, errn, rc, "%s: the mesh has %d nodes, more than the limit of %ld "
                        "(set JNT_MAX_MESH to raise it)", what, nnode, mesh_limit());
    return jnt_errf(err, errn, rc, "%s: out of memory", what);
}

/* Euler-Bernoulli frame along x: `elements` elements of length
 * le = length / elements, rectangular section A = width height,
 * I = width height^3 / 12 (nu is not used: no shear deformation). Axis
 * node i (index i, id i + 1) at x = i le has DOFs (ux, uy, rz) = 3i, 3i+1,
 * 3i+2; surface points, indices e+1+i (top, y = +h/2) and 2(e+1)+i (bottom,
 * y = -h/2), are attached to axis node i. Element matrices, DOFs
 * (u1, v1, th1, u2, v2, th2): axial EA/le [1 -1; -1 1] and rho A le/6
 * [2 1; 1 2]; bending EI/le^3 [12 6le -12 6le; 6le 4le^2 -6le 2le^2; ...]
 * and the consistent mass rho A le/420 [156 22le 54 -13le; 22le 4le^2 13le
 * -3le^2; ...] (the standard frame element, e.g. Przemieniecki, Theory of
 * Matrix Structural Analysis, 1968). m is overwritten. */
/* The elements of a line of ne two-node elements, nd dofs a node (the same
 * me, ke each), assembled into m, and its end sets left, right and tip. */
static int gen_line(gen_asm *a, fe_model *m, int ne, int nd, const double *me,
                    const double *ke)
{
    int dof[12];
    for (int e = 0; e < ne; e++) {
        for (int k = 0; k < 2 * nd; k++)
            dof[k] = nd * e + k;
        gen_asm_add(a, 2 * nd, dof, me, ke);
    }
    int rc = gen_asm_finish(a, m);
    if (rc == JNT_OK)
        rc = gen_set(m, "left", 0);
    if (rc == JNT_OK)
        rc = gen_set(m, "right", ne);
    if (rc == JNT_OK)
        rc = gen_set(m, "tip", ne);
    return rc;
}

int fe_beam2d(fe_model *m, double length, double height, double width, double E, double nu,
              double rho, int elements, char *err, size_t errn)
{
    memset(m, 0, sizeof *m);
    if (!(length > 0) || !(height > 0) || !(width > 0) || !(E > 0) || !(rho > 0))
        return jnt_errf(err, errn, JNT_ERR_PARAM,
                        "beam2d: length, height, width, E and rho must be positive");
    if (!(nu > -1.0 && nu < 0.5))
        return jnt_errf(err, errn, JNT_ERR_PARAM, "beam2d: nu = %g is not in (-1, 0.5)", nu);
    if (elements < 1 || elements > 10000000)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "beam2d: elements = %d is not in 1..10000000",
                        elements);
    int ne = elements, na = ne + 1;
    double le = length / ne, A = width * height, I = width * height * height * height / 12.0;
    double ea = E * A / le, ei = E * I / (le * le * le), ma = rho * A * le / 6.0,
           mb = rho * A * le / 420.0, L = le, L2 = le * le;
    /* element matrices, column-major 6 x 6 (symmetric) */
    double ke[36] = {0}, me[36] = {0};
    const double kb[16] = {12, 6 * L, -12, 6 * L, 6 * L, 4 * L2, -6 * L, 2 * L2,
                           -12, -6 * L, 12, -6 * L, 6 * L, 2 * L2, -6 * L, 4 * L2};
    const double mbm[16] = {156, 22 * L, 54, -13 * L, 22 * L, 4 * L2, 13 * L, -3 * L2,
                            54, 13 * L, 156, -22 * L, -13 * L, -3 * L2, -22 * L, 4 * L2};
    const int ax[2] = {0, 3}, bd[4] = {1, 2, 4, 5};
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            ke[ax[i] + 6 * ax[j]] = ea * (i == j ? 1.0 : -1.0);
            me[ax[i] + 6 * ax[j]] = ma * (i == j ? 2.0 : 1.0);
        }
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) {
            ke[bd[i] + 6 * bd[j]] = ei * kb[i + 4 * j];
            me[bd[i] + 6 * bd[j]] = mb * mbm[i + 4 * j];
        }
    int rc = gen_nodes(m, 3 * na);
    gen_asm a = {0};
    if (rc == JNT_OK)
        rc = gen_asm_init(&a, 36 * ne);
    if (rc != JNT_OK) {
        gen_asm_free(&a);
        return gen_done(m, rc, "beam2d", err, errn);
    }
    m->ndof = 3 * na;
    for (int i = 0; i < na; i++) {
        fe_node *p = &m->node[i], *top = &m->node[na + i], *bot = &m->node[2 * na + i];
        p->x[0] = top->x[0] = bot->x[0] = i * le;
        p->dof[FE_UX] = 3 * i, p->dof[FE_UY] = 3 * i + 1, p->dof[FE_RZ] = 3 * i + 2;
        top->x[1] = top->off[1] = 0.5 * height;
        bot->x[1] = bot->off[1] = -0.5 * height;
        top->master = bot->master = i;
    }
    rc = gen_line(&a, m, ne, 3, me, ke);
    for (int i = 0; i < na && rc == JNT_OK; i++)
        rc = gen_set(m, "axis", i);
    for (int i = 0; i < na && rc == JNT_OK; i++)
        rc = gen_set(m, "top", na + i);
    for (int i = 0; i < na && rc == JNT_OK; i++)
        rc = gen_set(m, "bottom", 2 * na + i);
    return gen_done(m, rc, "beam2d", err, errn);
}

/* The 12 x 12 element matrices of beam3d, column-major, DOFs (ux, uy, uz,
 * rx, ry, rz) of node a then of node b, element length l.
 *
 * Stiffness (Przemieniecki 1968, the spatial frame element, Sect. 5.4 with
 * shear deformation): axial EA/l [1 -1; -1 1] on (ux), torsion
 * GJ/l [1 -1; -1 1] on (rx); bending in x-y with EI33 on (uy, rz) and in x-z
 * with EI22 on (uz, ry), each
 *   EI/(l^3 (1 + phi)) [12 6l -12 6l; 6l (4+phi)l^2 -6l (2-phi)l^2;
 *                       -12 -6l 12 -6l; 6l (2-phi)l^2 -6l (4+phi)l^2],
 * phi = 12 EI / (GA_s l^2) with the shear stiffness of that plane (GA2 for
 * x-y, GA3 for x-z; phi = 0, Euler-Bernoulli, when it is 0 = not given),
 * in x-z with the signs of the ry rows and columns flipped (ry = -w'). It is
 * the Timoshenko strain energy 1/2 int (EI theta'^2 + GA_s (v' - theta)^2)
 * of the interdependent interpolation below (Friedman and Kosmatka 1993),
 * which solves the homogeneous Timoshenko equations: exact at the nodes
 * for end loads (tip deflection F L^3/(3 EI) + F L/GA_s, test_beam3d_shear).
 *
 * Mass, from the kinetic energy of the section. A point (y, z) of the
 * section moves by u - y rz + z ry, v - z rx, w + y rx (small rotations
 * about the elastic axis), so with s = (u', v', w', rx', ry', rz') (' a
 * time derivative here) and rho integrated over the section,
 *   T = 1/2 int (rho |r'|^2) dA dx = 1/2 int s^T Ms s dx,
 *   Ms = [ m     0      0     0      m e3      -m e2    ;
 *          0     m      0    -m e3   0          0       ;
 *          0     0      m     m e2   0          0       ;
 *          0    -m e3   m e2  Ip     0          0       ;
 *          m e3  0      0     0      J22       -m e2 e3 ;
 *         -m e2  0      0     0     -m e2 e3    J33      ]
 * from int rho (1, y, z, y^2, z^2, yz) dA = (m, m e2, m e3, i33 + m e2^2,
 * i22 + m e3^2, m e2 e3) (centre of mass at (e2, e3), its principal axes
 * parallel to y, z), Ip = ip + m (e2^2 + e3^2), J22 = i22 + m e3^2,
 * J33 = i33 + m e2^2 (ip is taken as given rather than i22 + i33, so that
 * bending rotary inertia can be left out). With the element's
 * interpolation s = N q: u, rx linear, v = H1 v_a + H2 rz_a + H3 v_b +
 * H4 rz_b, w = H1 w_a - H2 ry_a + H3 w_b - H4 ry_b (Hermite cubics),
 * rz = v', ry = -w' (Euler-Bernoulli; with shear, phi > 0, v and w take
 * Friedman and Kosmatka's cubics Nv(phi) and the rotations their own
 * quadratics Nt(phi), no longer v' and -w'; phi = 0 gives the Hermite ones),
 * the element mass is Me = int_0^l N^T Ms N dx, here by
 * 4-point Gauss-Legendre (exact: the integrand is of degree 6). With
 * e = 0 it is the textbook matrix: m l/6 [2 1; 1 2] axial, Ip l/6 [2 1;
 * 1 2] torsion, m l/420 [156 22l 54 -13l; ...] and J/(30 l) [36 3l -36 3l;
 * 3l 4l^2 -3l -l^2; ...] in bending. The offset adds the torsion-bending
 * terms m e2 int (w rx) and -m e3 int (v rx) (l/60 [21 3l 9 -2l] against
 * rx_a, the standard bending-torsion coupled mass), the axial-bending ones
 * m e3 int (u ry) - m e2 int (u rz) and the product term -m e2 e3 int
 * (ry rz). Rigid motions of the element are exact, so M gives the beam's
 * mass, centre of mass and inertia tensor exactly (test_beam3d; with shear,
 * test_beam3d_shear: the interdependent functions keep rigid motions). */

/* The bending stiffness of one plane with shear parameter phi (the matrix
 * above) into kb (4 x 4, column-major, DOFs (v_a, t_a, v_b, t_b)). */
static void beam_bending_k(double EI, double phi, double l, double kb[16])
{
    const double l2 = l * l, c = EI / (l2 * l * (1 + phi));
    const double k[16] = {12, 6 * l, -12, 6 * l, 6 * l, (4 + phi) * l2, -6 * l, (2 - phi) * l2,
                          -12, -6 * l, 12, -6 * l, 6 * l, (2 - phi) * l2, -6 * l, (4 + phi) * l2};
    for (int i = 0; i < 16; i++)
        kb[i] = c * k[i];
}

/* Friedman and Kosmatka's (1993) interpolation of a Timoshenko element at
 * xi = x / l: the displacement Nv[k] and the rotation Nt[k] of the DOFs
 * (v_a, t_a, v_b, t_b); phi = 0: the Hermite cubics and their slopes. */
static void beam_shape(double xi, double phi, double l, double Nv[4], double Nt[4])
{
    const double x2 = xi * xi, x3 = x2 * xi, c = 1 / (1 + phi);
    Nv[0] = c * (2 * x3 - 3 * x2 - phi * xi + 1 + phi);
    Nv[1] = c * l * (x3 - (2 + phi / 2) * x2 + (1 + phi / 2) * xi);
    Nv[2] = -c * (2 * x3 - 3 * x2 - phi * xi);
    Nv[3] = c * l * (x3 - (1 - phi / 2) * x2 - phi / 2 * xi);
    Nt[0] = 6 * c / l * (x2 - xi);
    Nt[1] = c * (3 * x2 - (4 + phi) * xi + 1 + phi);
    Nt[2] = -6 * c / l * (x2 - xi);
    Nt[3] = c * (3 * x2 - (2 - phi) * xi);
}

static void gen_beam3d_element(double l, const fe_section3d *s, double ip, double i22,
                               double i33, double ke[144], double me[144])
{
    const double m = s->mass, e2 = s->e2, e3 = s->e3;
    memset(ke, 0, 144 * sizeof *ke);
    memset(me, 0, 144 * sizeof *me);
    /* stiffness; phi of x-y from EI33 and GA2, of x-z from EI22 and GA3 */
    const double l2 = l * l;
    const double phy = s->GA2 > 0 ? 12 * s->EI33 / (s->GA2 * l2) : 0.0;
    const double phz = s->GA3 > 0 ? 12 * s->EI22 / (s->GA3 * l2) : 0.0;
    double kxy[16], kxz[16];
    beam_bending_k(s->EI33, phy, l, kxy);
    beam_bending_k(s->EI22, phz, l, kxz);
    const int ax[2] = {0, 6}, tx[2] = {3, 9}, xy[4] = {1, 5, 7, 11}, xz[4] = {2, 4, 8, 10};
    const double sz[4] = {1, -1, 1, -1};
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            ke[ax[i] + 12 * ax[j]] = s->EA / l * (i == j ? 1.0 : -1.0);
            ke[tx[i] + 12 * tx[j]] = s->GJ / l * (i == j ? 1.0 : -1.0);
        }
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) {
            ke[xy[i] + 12 * xy[j]] = kxy[i + 4 * j];
            ke[xz[i] + 12 * xz[j]] = kxz[i + 4 * j] * sz[i] * sz[j];
        }
    /* the section mass Ms (symmetric, 6 x 6, rows u v w rx ry rz) */
    double Ms[6][6] = {{0}};
    Ms[0][0] = Ms[1][1] = Ms[2][2] = m;
    Ms[0][4] = Ms[4][0] = m * e3;
    Ms[0][5] = Ms[5][0] = -m * e2;
    Ms[1][3] = Ms[3][1] = -m * e3;
    Ms[2][3] = Ms[3][2] = m * e2;
    Ms[3][3] = ip + m * (e2 * e2 + e3 * e3);
    Ms[4][4] = i22 + m * e3 * e3;
    Ms[5][5] = i33 + m * e2 * e2;
    Ms[4][5] = Ms[5][4] = -m * e2 * e3;
    /* 4-point Gauss-Legendre on [0, 1] */
    const double ga = sqrt(3.0 / 7.0 - 2.0 / 7.0 * sqrt(1.2)),
                 gb = sqrt(3.0 / 7.0 + 2.0 / 7.0 * sqrt(1.2));
    const double gx[4] = {0.5 * (1 - gb), 0.5 * (1 - ga), 0.5 * (1 + ga), 0.5 * (1 + gb)};
    const double wa = (18.0 + sqrt(30.0)) / 72.0, wb = (18.0 - sqrt(30.0)) / 72.0;
    const double gw[4] = {wb, wa, wa, wb};
    for (int g = 0; g < 4; g++) {
        const double x = gx[g];
        /* displacement and rotation of each bending plane (phi = 0: Hermite
         * cubics H and their x-derivatives D, d/dx = (1/l) d/dxi) */
        double Hy[4], Dy[4], Hz[4], Dz[4];
        beam_shape(x, phy, l, Hy, Dy);
        beam_shape(x, phz, l, Hz, Dz);
        double N[6][12] = {{0}};
        N[0][0] = N[3][3] = 1 - x, N[0][6] = N[3][9] = x;
        for (int k = 0; k < 4; k++) {
            N[1][xy[k]] = Hy[k];          /* v */
            N[5][xy[k]] = Dy[k];          /* rz (= v' without shear) */
            N[2][xz[k]] = sz[k] * Hz[k];  /* w */
            N[4][xz[k]] = -sz[k] * Dz[k]; /* ry (= -w' without shear) */
        }
        /* me += l w N^T Ms N, upper triangle */
        double MN[6][12];
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 12; c++) {
                double v = 0;
                for (int p = 0; p < 6; p++)
                    v += Ms[r][p] * N[p][c];
                MN[r][c] = v;
            }
        for (int j = 0; j < 12; j++)
            for (int i = 0; i <= j; i++) {
                double v = 0;
                for (int p = 0; p < 6; p++)
                    v += N[p][i] * MN[p][j];
                me[i + 12 * j] += l * gw[g] * v;
            }
    }
    for (int j = 0; j < 12; j++)
        for (int i = j + 1; i < 12; i++)
            me[i + 12 * j] = me[j + 12 * i];
}

/* Spatial frame along x (setup.h), Euler-Bernoulli or with shear deformation
 * (Timoshenko) where GA2, GA3 > 0: elements of length le = length / elements,
 * the element matrices of gen_beam3d_element. Checks the section (stiffnesses
 * and mass positive, shear stiffnesses 0 or positive; the polar moment
 * about the centre of mass positive, else M is singular in rx). */
int fe_beam3d(fe_model *m, double length, int elements, const fe_section3d *s, char *err,
              size_t errn)
{
    memset(m, 0, sizeof *m);
    if (!s)
        return jnt_errf(err, errn, JNT_ERR_USAGE, "beam3d: no section");
    if (!(length > 0) || !(s->EA > 0) || !(s->GJ > 0) || !(s->EI22 > 0) || !(s->EI33 > 0) ||
        !(s->mass > 0))
        return jnt_errf(err, errn, JNT_ERR_PARAM,
                        "beam3d: length, EA, GJ, EI22, EI33 and mass must be positive");
    if (!isfinite(s->e2) || !isfinite(s->e3) || !isfinite(s->EA) || !isfinite(s->GJ) ||
        !isfinite(s->EI22) || !isfinite(s->EI33) || !isfinite(s->mass) || !isfinite(length))
        return jnt_errf(err, errn, JNT_ERR_PARAM, "beam3d: a section value is not finite");
    if (!(s->GA2 >= 0) || !(s->GA3 >= 0) || !isfinite(s->GA2) || !isfinite(s->GA3))
        return jnt_errf(err, errn, JNT_ERR_PARAM, "beam3d: the shear stiffnesses GA2 = %g, "
                        "GA3 = %g N must be positive (or 0: no shear deformation)", s->GA2,
                        s->GA3);
    if (elements < 1 || elements > 1000000)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "beam3d: elements = %d is not in 1..1000000",
                        elements);
    /* the defaults: ip of a homogeneous section, rho (I22 + I33); no bending rotary inertia */
    double ip = s->ip < 0 ? s->mass * (s->EI22 + s->EI33) / s->EA : s->ip;
    double i22 = s->i22 < 0 ? 0.0 : s->i22, i33 = s->i33 < 0 ? 0.0 : s->i33;
    if (!(ip > 0) || !isfinite(ip) || !isfinite(i22) || !isfinite(i33))
        return jnt_errf(err, errn, JNT_ERR_PARAM, "beam3d: the polar mass moment ip = %g kg m "
                        "must be positive (else the twist has no inertia)", ip);
    int ne = elements, nn = ne + 1;
    double le = length / ne, ke[144], me[144];
    gen_beam3d_element(le, s, ip, i22, i33, ke, me);
    int rc = gen_nodes(m, nn);
    gen_asm a = {0};
    if (rc == JNT_OK)
        rc = gen_asm_init(&a, 144 * ne);
    if (rc != JNT_OK) {
        gen_asm_free(&a);
        return gen_done(m, rc, "beam3d", err, errn);
    }
    m->ndof = 6 * nn;
    for (int i = 0; i < nn; i++) {
        m->node[i].x[0] = i * le;
        for (int c = 0; c < FE_NDOF_NODE; c++)
            m->node[i].dof[c] = 6 * i + c;
    }
    rc = gen_line(&a, m, ne, 6, me, ke);
    if (rc == JNT_OK && ne % 2 == 0)
        rc = gen_set(m, "mid", ne / 2);
    for (int i = 0; i < nn && rc == JNT_OK; i++)
        rc = gen_set(m, "all", i);
    return gen_done(m, rc, "beam3d", err, errn);
}

/* The names of the plate2d formulations in the language, in fe_element order. */
const char *const fe_element_names[FE_NELEMENT] = {"q4", "qm6"};

/* Static condensation of the last ni of the n = nc + ni DOFs of the
 * symmetric n x n matrix k (column-major, n <= 12): the leading nc x nc
 * block becomes Kcc - Kci Kii^-1 Kic (Kii positive definite: Cholesky),
 * written to kc (nc x nc, column-major, exactly symmetric). */
static void gen_condense(int nc, int ni, const double *k, double *kc)
{
    const int n = nc + ni;
    double L[16], X[4 * 8]; /* ni <= 4, nc <= 8 */
    /* Kii = L L^T */
    for (int j = 0; j < ni; j++)
        for (int i = j; i < ni; i++) {
            double v = k[(nc + i) + n * (nc + j)];
            for (int p = 0; p < j; p++)
                v -= L[i + ni * p] * L[j + ni * p];
            L[i + ni * j] = i == j ? sqrt(v) : v / L[j + ni * j];
        }
    /* X = L^-1 Kic (ni x nc): then Kci Kii^-1 Kic = X^T X */
    for (int c = 0; c < nc; c++)
        for (int i = 0; i < ni; i++) {
            double v = k[(nc + i) + n * c];
            for (int p = 0; p < i; p++)
                v -= L[i + ni * p] * X[p + ni * c];
            X[i + ni * c] = v / L[i + ni * i];
        }
    for (int j = 0; j < nc; j++)
        for (int i = 0; i <= j; i++) {
            double v = k[i + n * j];
            for (int p = 0; p < ni; p++)
                v -= X[p + ni * i] * X[p + ni * j];
            kc[i + nc * j] = kc[j + nc * i] = v;
        }
}

/* Plane-stress four-node quadrilateral (fe.h) with corners (xe[k], ye[k]),
 * counter-clockwise, thickness t; DOFs (u1, v1, ..., u4, v4); 8 x 8
 * column-major. Isoparametric, N_k = (1 + xi_k xi)(1 + eta_k eta)/4;
 * stiffness t int B^T D B dA and consistent mass rho t int N^T N dA by
 * 2 x 2 Gauss quadrature, D = E/(1 - nu^2) [1 nu 0; nu 1 0; 0 0 (1 - nu)/2]
 * (Q4: e.g. Cook et al., Concepts and Applications of Finite Element
 * Analysis, 4th ed., 2002).
 * FE_QM6 adds Wilson's incompatible modes P1 = 1 - xi^2, P2 = 1 - eta^2 to
 * u and to v (amplitudes a1..a4, Wilson, Taylor, Doherty, Ghaboussi 1973)
 * with the correction of Taylor, Beresford, Wilson (A non-conforming element
 * for stress analysis, Int. J. Numer. Meth. Eng. 10, 1976, 1211-1219): their
 * strains use the Jacobian J0 = [dx/dxi dy/dxi; dx/deta dy/deta] at the
 * centre, [dP/dx; dP/dy] = (det J0 / det J) J0^-1 [dP/dxi; dP/deta], so
 * that their integral, det J0 J0^-1 sum_g [dP/dxi; dP/deta](g), is 0 (odd
 * in xi, eta): the element passes the patch test on any convex shape (on
 * a parallelogram J = J0 and this is Wilson's Q6). The 12 x 12 stiffness
 * is condensed at element level, K = Kcc - Kci Kii^-1 Kic; the modes carry
 * no mass (M is Q4's). 0, or JNT_ERR_PARAM (det J <= 0 at a Gauss point,
 * or an unknown element). */
int fe_quad(const double xe[4], const double ye[4], double t, double E, double nu, double rho,
            fe_element element, double ke[64], double me[64])
{
    static const double xi[4] = {-1, 1, 1, -1}, eta[4] = {-1, -1, 1, 1};
    const double g = 1.0 / sqrt(3.0), d0 = E / (1.0 - nu * nu);
    const double D[3][3] = {{d0, d0 * nu, 0}, {d0 * nu, d0, 0}, {0, 0, d0 * (1.0 - nu) / 2.0}};
    if ((int)element < 0 || element >= FE_NELEMENT)
        return JNT_ERR_PARAM;
    const int n = element == FE_QM6 ? 12 : 8;
    double k[144] = {0};
    /* J0 = [dx/dxi dy/dxi; dx/deta dy/deta] at the centre, and J0^-1 */
    double a0 = 0, b0 = 0, c0 = 0, e0 = 0;
    for (int p = 0; p < 4; p++) {
        a0 += 0.25 * xi[p] * xe[p], b0 += 0.25 * xi[p] * ye[p];
        c0 += 0.25 * eta[p] * xe[p], e0 += 0.25 * eta[p] * ye[p];
    }
    const double det0 = a0 * e0 - b0 * c0;
    const double G0[2][2] = {{e0 / det0, -b0 / det0}, {-c0 / det0, a0 / det0}};
    memset(me, 0, 64 * sizeof *me);
    for (int q = 0; q < 4; q++) {
        double s = xi[q] * g, r = eta[q] * g, N[4], Ns[4], Nr[4], B[3][12] = {{0}};
        double ja = 0, jb = 0, jc = 0, je = 0;
        for (int p = 0; p < 4; p++) {
            N[p] = 0.25 * (1 + xi[p] * s) * (1 + eta[p] * r);
            Ns[p] = 0.25 * xi[p] * (1 + eta[p] * r);
            Nr[p] = 0.25 * eta[p] * (1 + xi[p] * s);
            ja += Ns[p] * xe[p], jb += Ns[p] * ye[p], jc += Nr[p] * xe[p], je += Nr[p] * ye[p];
        }
        const double det = ja * je - jb * jc;
        if (!(det > 0))
            return JNT_ERR_PARAM;
        for (int p = 0; p < 4; p++) {
            double dx = (je * Ns[p] - jb * Nr[p]) / det, dy = (-jc * Ns[p] + ja * Nr[p]) / det;
            B[0][2 * p] = dx;
            B[1][2 * p + 1] = dy;
            B[2][2 * p] = dy;
            B[2][2 * p + 1] = dx;
        }
        if (element == FE_QM6) {
            /* dP1/dxi = -2 xi, dP2/deta = -2 eta, through J0, scaled by det J0 / det J */
            const double dP[2][2] = {{-2 * s, 0}, {0, -2 * r}}, f = det0 / det;
            for (int m = 0; m < 2; m++) {
                double dx = f * (G0[0][0] * dP[m][0] + G0[0][1] * dP[m][1]);
                double dy = f * (G0[1][0] * dP[m][0] + G0[1][1] * dP[m][1]);
                B[0][8 + m] = dx, B[2][8 + m] = dy;   /* u = .. + a_m P_m */
                B[1][10 + m] = dy, B[2][10 + m] = dx; /* v = .. + a_(m+2) P_m */
            }
        }
        /* the upper triangles; mirrored below so that they are exactly symmetric */
        for (int j = 0; j < n; j++)
            for (int i = 0; i <= j; i++) {
                double sum = 0;
                for (int p = 0; p < 3; p++)
                    for (int u = 0; u < 3; u++)
                        sum += B[p][i] * D[p][u] * B[u][j];
                k[i + n * j] += t * det * sum;
            }
        for (int j = 0; j < 4; j++)
            for (int i = 0; i <= j; i++) {
                double v = rho * t * det * N[i] * N[j];
                me[2 * i + 16 * j] += v;
                me[2 * i + 1 + 8 * (2 * j + 1)] += v;
            }
    }
    for (int j = 0; j < n; j++)
        for (int i = j + 1; i < n; i++)
            k[i + n * j] = k[j + n * i];
    for (int j = 0; j < 8; j++)
        for (int i = j + 1; i < 8; i++)
            me[i + 8 * j] = me[j + 8 * i];
    if (element == FE_QM6)
        gen_condense(8, 4, k, ke);
    else
        memcpy(ke, k, 64 * sizeof *ke);
    return JNT_OK;
}

/* Plane-stress plate lx x ly on an nx x ny mesh of equal rectangles: node
 * (i, j) at (i lx/nx, j ly/ny), numbered along the shorter side first
 * (index i (ny+1) + j when nx >= ny, else j (nx+1) + i: the smaller
 * bandwidth), id = index + 1, DOFs (ux, uy) = (2 index, 2 index + 1).
 * Sets: left (i = 0), right (i = nx), bottom (j = 0), top (j = ny) and the
 * four corners. m is overwritten. */
int fe_plate2d(fe_model *m, double lx, double ly, double thickness, double E, double nu,
               double rho, int nx, int ny, fe_element element, char *err, size_t errn)
{
    memset(m, 0, sizeof *m);
    if (!(lx > 0) || !(ly > 0) || !(thickness > 0) || !(E > 0) || !(rho > 0))
        return jnt_errf(err, errn, JNT_ERR_PARAM,
                        "plate2d: lx, ly, thickness, E and rho must be positive");
    if (!(nu > -1.0 && nu < 0.5))
        return jnt_errf(err, errn, JNT_ERR_PARAM, "plate2d: nu = %g is not in (-1, 0.5)", nu);
    if (nx < 1 || ny < 1 || (double)(nx + 1) * (ny + 1) > 1e8)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "plate2d: a mesh of %d x %d elements is out of "
                        "range", nx, ny);
    if ((int)element < 0 || element >= FE_NELEMENT)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "plate2d: element %d is not one of q4 (%d) "
                        "and qm6 (%d)", (int)element, FE_Q4, FE_QM6);
    /* every element is the rectangle dx x dy */
    double ke[64], me[64], dx = lx / nx, dy = ly / ny;
    const double xe[4] = {0, dx, dx, 0}, ye[4] = {0, 0, dy, dy};
    fe_quad(xe, ye, thickness, E, nu, rho, element, ke, me);
    int nn = (nx + 1) * (ny + 1);
    int rc = gen_nodes(m, nn);
    gen_asm a = {0};
    if (rc == JNT_OK)
        rc = gen_asm_init(&a, 64 * nx * ny);
    if (rc != JNT_OK) {
        gen_asm_free(&a);
        return gen_done(m, rc, "plate2d", err, errn);
    }
    m->ndof = 2 * nn;
#define IDX(i, j) (nx >= ny ? (i) * (ny + 1) + (j) : (j) * (nx + 1) + (i))
    for (int i = 0; i <= nx; i++)
        for (int j = 0; j <= ny; j++) {
            fe_node *p = &m->node[IDX(i, j)];
            p->x[0] = i * dx, p->x[1] = j * dy;
            p->dof[FE_UX] = 2 * IDX(i, j), p->dof[FE_UY] = 2 * IDX(i, j) + 1;
        }
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            int n4[4] = {IDX(i, j), IDX(i + 1, j), IDX(i + 1, j + 1), IDX(i, j + 1)}, dof[8];
            for (int k = 0; k < 4; k++)
                dof[2 * k] = 2 * n4[k], dof[2 * k + 1] = 2 * n4[k] + 1;
            gen_asm_add(&a, 8, dof, me, ke);
        }
    rc = gen_asm_finish(&a, m);
    for (int j = 0; j <= ny && rc == JNT_OK; j++)
        rc = gen_set(m, "left", IDX(0, j));
    for (int j = 0; j <= ny && rc == JNT_OK; j++)
        rc = gen_set(m, "right", IDX(nx, j));
    for (int i = 0; i <= nx && rc == JNT_OK; i++)
        rc = gen_set(m, "bottom", IDX(i, 0));
    for (int i = 0; i <= nx && rc == JNT_OK; i++)
        rc = gen_set(m, "top", IDX(i, ny));
    if (rc == JNT_OK)
        rc = gen_set(m, "bottom_left", IDX(0, 0));
    if (rc == JNT_OK)
        rc = gen_set(m, "bottom_right", IDX(nx, 0));
    if (rc == JNT_OK)
        rc = gen_set(m, "top_left", IDX(0, ny));
    if (rc == JNT_OK)
        rc = gen_set(m, "top_right", IDX(nx, ny));
#undef IDX
    return gen_done(m, rc, "plate2d", err, errn);
}

/* Spring-mass chain: n masses `mass` (lumped, DOF ux = i of node i at
 * x = i m) joined by n - 1 springs k; free-free (fix "first" to ground it).
 * Sets: first, last, all. m is overwritten. */
int fe_chain(fe_model *m, int n, double k, double mass, char *err, size_t errn)
{
    memset(m, 0, sizeof *m);
    if (n < 1 || n > 100000000)
        return jnt_errf(err, errn, JNT_ERR_PARAM, "chain: n = %d is not in 1..100000000", n);
    if (!(k > 0) || !(mass > 0))
        return jnt_errf(err, errn, JNT_ERR_PARAM, "chain: k and mass must be positive");
    int rc = gen_nodes(m, n);
    gen_asm a = {0};
    if (rc == JNT_OK)
        rc = gen_asm_init(&a, 5 * n);
    if (rc != JNT_OK) {
        gen_asm_free(&a);
        return gen_done(m, rc, "chain", err, errn);
    }
    m->ndof = n;
    for (int i = 0; i < n; i++) {
        m->node[i].x[0] = i;
        m->node[i].dof[FE_UX] = i;
        /* the mass, and the spring to the next mass */
        int d1[1] = {i};
        double m1[1] = {mass}, k1[1] = {0};
        gen_asm_add(&a, 1, d1, m1, k1);
        if (i + 1 < n) {
            int d2[2] = {i, i + 1};
            double m2[4] = {0}, k2[4] = {k, -k, -k, k};
            gen_asm_add(&a, 2, d2, m2, k2);
        }
    }
    rc = gen_asm_finish(&a, m);
    if (rc == JNT_OK)
        rc = gen_set(m, "first", 0);
    if (rc == JNT_OK)
        rc = gen_set(m, "last", n - 1);
    for (int i = 0; i < n && rc == JNT_OK; i++)
        rc = gen_set(m, "all", i);
    return gen_done(m, rc, "chain", err, errn);
}
