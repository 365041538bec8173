/*
 * red_ffrf3d.c: the inertia invariants of a spatial flexible body in a
 * floating frame of reference with director coordinates (core/flex3d.h:
 * the layout JNT_FFRF3_*, the mass matrix and the forces), computed once
 * from the substructure's mass matrix M, its node coordinates X (places in
 * the body frame) and its reduction basis Phi.
 *
 * Every integral is a quadratic form of the FE mass matrix with nodal
 * fields, as red_ffrf.c does in 2D: int f . g dm := f^T M g, f and g holding
 * the nodes' translations and (where the mesh has them) rotations, so that
 * the rotary inertia and the translation-rotation couplings of a consistent
 * beam mass count as the element put them in M; nothing is lumped. The
 * fields are those of rigid motions and of the basis (L_l: e_l x applied to
 * every node's translation and rotation vector, the rotation of a nodal
 * field about e_l):
 *   T_k     translation e_k at every node, no rotation
 *   Rot_l   the rigid rotation about e_l: translations e_l x X, rotations e_l
 *   phi_n   the basis vectors; L_l phi_n, the rotated ones
 * and the invariants
 *   m = T_1^T M T_1  (checked: T_k^T M T_l = m delta_kl)
 *   s0 from T_k^T M Rot_l = e_k . (e_l x s0)  (checked: skew)
 *   S1[k, n] = T_k^T M phi_n,  Mr = Phi^T M Phi
 *   E0 = tr(J0)/2 I - J0,  J0 = [Rot_k^T M Rot_l]
 *   E1_m = tr(J1_m) I - J1_m - J1_m^T,  J1_m[k, l] = Rot_k^T M L_l phi_m
 *   E2_mn = tr(J2s_mn)/2 I - J2s_mn,  J2s_mn the part symmetric in (k, l)
 *           of J2_mn[k, l] = (L_k phi_m)^T M (L_l phi_n)
 *   C0_i[k, n] = E1_n[i, k]/2 + sum_l eps_ikl (Rot_l^T M phi_n)/2
 *   C1_ik[m, n] = E2_mn[i, k] + sum_l eps_ikl ((L_l phi_m)^T M phi_n)/2.
 * E(q) is the Euler tensor of the inertia J(q) = Rot(q)^T M Rot(q) of the
 * deformed mesh, Rot_l(q) = Rot_l + L_l Phi q its rigid rotation, because
 * the director form 1/2 sum_ij E_ij d_i'.d_j' equals 1/2 omega^T J omega
 * on rigid rotations (d_i' = omega x d_i) exactly when E = tr(J)/2 I - J:
 * so the rotary inertia in M counts, which int X X^T dm of the translations
 * would miss. The part of C_i(q) skew in (i, k) is what rigid rotations see
 * (omega . (Rot(q)^T M Phi) q'); its symmetric part is dE/dq / 2, the
 * identity d/dq int c_i c_k dm = int c_i Phi_k dm + int c_k Phi_i dm. For a
 * point-mass matrix, or any that treats x, y and z alike, these are the
 * integrals of flex3d.h exactly (int X_i Phi_k dm, int Phi_i^T Phi_k dm:
 * tests/unit/test_flex3d.c), and 1/2 w^T M w is the nodes' kinetic energy
 * for any rates. For any M, on rigid rotations of the frame the mass
 * matrix gives 1/2 V^T M V of the nodal velocities V = (R^T x' +
 * omega x (X + u) + u', omega + omega x theta + theta') (translations u,
 * rotations theta of Phi q) exactly but for the term x' . omega x (S1 q):
 * the first moment of the deformed body is s0 + S1 q, exact for any M (the
 * centre of mass), where the nodal field gives T^T M L Phi q. The two agree
 * for point masses; for beam3d they differ by the consistent end moments of
 * a translation load (O(le^2)) and, for a section whose centre of mass is
 * off the nodes' axis, by the rotation of theta as a vector (e_l x theta)
 * where the offset section turns by (e_l x theta) x e + theta x (e_l x e),
 * which no mesh refinement removes (test_flex3d measures both).
 *
 * For a mass matrix that treats x, y and z unlike (a beam's), the mass
 * matrix can be indefinite off the tangent space of the director rows
 * (rates that break d_i . d_j = delta_ij): there the symmetric parts above
 * are no Gram matrix of one mass distribution. The motion never goes there
 * and the multipliers take up those directions; red_ffrf3d checks the
 * rigid block (x, d1, d2, d3) and M on the tangent space (x', omega, q').
 *
 * The nodes a substructure fixes (the frame's attachment) move with the
 * frame: they count with the mass matrix before the fixes (M0, the DOFs
 * numbered by dof0), as in red_ffrf.c.
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/flex3d.h"
#include "jnt/jnt.h"
#include "red_impl.h"

/* The nodes that carry DOFs: translations t (3 each), rotations rt (3 each
 * or -1), places X (3 each), all in M's numbering. */
typedef struct nodes3 {
    int nn;
    int *t, *rt;
    double *X;
} nodes3;

static const double EPS[3][3][3] = {{{0, 0, 0}, {0, 0, 1}, {0, -1, 0}},
                                    {{0, 0, -1}, {0, 0, 0}, {1, 0, 0}},
                                    {{0, 1, 0}, {-1, 0, 0}, {0, 0, 0}}};

/* out = L_l y: e_l x each node's translation and rotation vector of y. */
static void cross_l(const nodes3 *N, int n, int l, const double *y, double *out)
{
    memset(out, 0, (size_t)n * sizeof *out);
    int l1 = (l + 1) % 3, l2 = (l + 2) % 3;
    for (int a = 0; a < N->nn; a++)
        for (int w = 0; w < 2; w++) {
            const int *ix = (w ? N->rt : N->t) + 3 * a;
            if (ix[0] < 0)
                continue;
            /* (e_l x y)_l1 = -y_l2, (e_l x y)_l2 = y_l1 */
            out[ix[l1]] = -y[ix[l2]];
            out[ix[l2]] = y[ix[l1]];
        }
}

static double dot(int n, const double *a, const double *b)
{
    return n > 0 ? cblas_ddot(n, a, 1, b, 1) : 0.0;
}

/* The node table; 0 or JNT_ERR_MODEL with a message. */
static int node_table(const fe_model *fe, const int *dof0, int n, nodes3 *N, char *err,
                      size_t errn)
{
    N->nn = 0;
    for (int p = 0; p < fe->nnode; p++) {
        const fe_node *nd = &fe->node[p];
        int d[FE_NDOF_NODE], nt = 0, nr = 0;
        for (int c = 0; c < FE_NDOF_NODE; c++) {
            d[c] = nd->master >= 0 ? -1 : red_dof_of(fe, dof0, p, c);
            if (d[c] >= n)
                return jnt_errf(err, errn, JNT_ERR_USAGE, "red_ffrf3d: node %d has a DOF "
                                "beyond the mass matrix", nd->id);
            if (d[c] >= 0)
                *(c < 3 ? &nt : &nr) += 1;
        }
        if (nt == 0 && nr == 0)
            continue; /* no DOFs (a point attached to a node): no mass of its own */
        if (nt != 3)
            return jnt_errf(err, errn, JNT_ERR_MODEL, "a flexible3d body needs the DOFs ux, "
                            "uy and uz at every node (node %d lacks one)", nd->id);
        if (nr != 0 && nr != 3)
            return jnt_errf(err, errn, JNT_ERR_MODEL, "a flexible3d body needs the rotations "
                            "rx, ry, rz of a node all or none (node %d has %d)", nd->id, nr);
        int a = N->nn++;
        for (int c = 0; c < 3; c++) {
            N->t[3 * a + c] = d[c];
            N->rt[3 * a + c] = nr ? d[3 + c] : -1;
            N->X[3 * a + c] = nd->x[c];
        }
    }
    return JNT_OK;
}

/* B_l = (L_l Phi)^T M Phi = -Phi^T (L_l M Phi) (r x r each, at l r^2),
 * RED_SOLVE_BLOCK columns at a time. */
static int b_products(const nodes3 *N, int n, int r, const double *phi, const double *mphi,
                      double *B, char *err, size_t errn)
{
    double *y = malloc((size_t)n * RED_SOLVE_BLOCK * sizeof *y + 1);
    if (!y)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    for (int l = 0; l < 3; l++)
        for (int j0 = 0; j0 < r; j0 += RED_SOLVE_BLOCK) {
            int nb = r - j0 < RED_SOLVE_BLOCK ? r - j0 : RED_SOLVE_BLOCK;
            for (int j = 0; j < nb; j++)
                cross_l(N, n, l, mphi + (size_t)(j0 + j) * n, y + (size_t)j * n);
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, r, nb, n, -1.0, phi, n, y, n,
                        0.0, B + (size_t)l * r * r + (size_t)j0 * r, r);
        }
    free(y);
    return JNT_OK;
}

/* E2 from J2 = [(L_k phi_m)^T M (L_l phi_n)] (3r x 3r, row (k, m) = k r + m),
 * column blocks of RED_SOLVE_BLOCK: Y = M L_l phi (n x nb), then
 * (L_k Phi)^T Y = -Phi^T (L_k Y) (L_k is skew node by node). */
static int e2_products(const nodes3 *N, const fe_sparse *M, int r, const double *phi,
                       double *E2, char *err, size_t errn)
{
    int n = M->n, r3 = 3 * r;
    size_t rr = (size_t)r * r;
    double *J2 = malloc((size_t)r3 * r3 * sizeof *J2 + 1);
    double *w = malloc(3 * (size_t)n * RED_SOLVE_BLOCK * sizeof *w + 1);
    if (!J2 || !w) {
        free(J2), free(w);
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    }
    double *lp = w, *y = w + (size_t)n * RED_SOLVE_BLOCK, *z = y + (size_t)n * RED_SOLVE_BLOCK;
    for (int l = 0; l < 3; l++)
        for (int j0 = 0; j0 < r; j0 += RED_SOLVE_BLOCK) {
            int nb = r - j0 < RED_SOLVE_BLOCK ? r - j0 : RED_SOLVE_BLOCK;
            for (int j = 0; j < nb; j++) {
                cross_l(N, n, l, phi + (size_t)(j0 + j) * n, lp);
                fe_sparse_mul(M, lp, y + (size_t)j * n);
            }
            for (int k = 0; k < 3; k++) {
                for (int j = 0; j < nb; j++)
                    cross_l(N, n, k, y + (size_t)j * n, z + (size_t)j * n);
                cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, r, nb, n, -1.0, phi, n, z,
                            n, 0.0, J2 + (size_t)(l * r + j0) * r3 + (size_t)k * r, r3);
            }
        }
    free(w);
    /* J2s_mn[k, l] = (J2[(k, m), (l, n)] + J2[(l, m), (k, n)]) / 2; E2 = tr/2 I - J2s */
    for (int nn = 0; nn < r; nn++)
        for (int m = 0; m < r; m++) {
            double js[9], tr = 0.0;
            for (int k = 0; k < 3; k++)
                for (int l = 0; l < 3; l++)
                    js[k + 3 * l] = 0.5 * (J2[(size_t)(l * r + nn) * r3 + k * r + m] +
                                           J2[(size_t)(k * r + nn) * r3 + l * r + m]);
            for (int k = 0; k < 3; k++)
                tr += js[4 * k];
            static const int pi[6] = {0, 1, 2, 0, 0, 1}, pk[6] = {0, 1, 2, 1, 2, 2};
            for (int p = 0; p < 6; p++)
                E2[p * rr + (size_t)nn * r + m] =
                    (pi[p] == pk[p] ? 0.5 * tr : 0.0) - js[pi[p] + 3 * pk[p]];
        }
    free(J2);
    return JNT_OK;
}

/* Cholesky of the symmetric n x n a (overwritten); 0, or 1 + the first
 * pivot below 1e-10 of its diagonal entry (singular to rounding). */
static int definite(int n, double *a)
{
    double dg[12 + JNT_MAX_BLOCK];
    for (int i = 0; i < n; i++)
        dg[i] = a[(size_t)i * n + i];
    int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, a, n);
    for (int i = 0; info == 0 && i < n; i++) {
        double l = a[(size_t)i * n + i];
        if (!(l * l > 1e-10 * dg[i]))
            info = 1 + i;
    }
    return info;
}

/* The body's mass matrix at q = 0, R = I: its rigid block (x, d1, d2, d3)
 * must be positive definite (a flat or straight mesh without rotary
 * inertia leaves a director without mass, as a rigid3d body of zero
 * thickness), and so must M on the tangent space of the director rows
 * (d_i' = omega x d_i: x', omega, q'), where the motion is: a basis with
 * rigid-body motion in it makes that singular. Off the tangent space a
 * mass matrix that treats x, y and z unlike (a beam's) may leave M
 * indefinite (flex3d.h); the multipliers of the director rows see to those
 * directions. */
static int check_definite(const double *inv, int r, char *err, size_t errn)
{
    int nm = 12 + r, nt = 6 + r;
    double q[12 + JNT_MAX_BLOCK] = {0};
    for (int i = 0; i < 3; i++)
        q[3 + 3 * i + i] = 1.0;
    flex3_body bd = {inv, r, 0, 12};
    size_t need = (size_t)nm * nm + 144 + (size_t)nt * nm + (size_t)nt * nt;
    double *mm = calloc(need + flex3_work_size(r), sizeof *mm);
    if (!mm)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
    double *rb = mm + (size_t)nm * nm, *zm = rb + 144, *tm = zm + (size_t)nt * nm;
    flex3_mass(&bd, q, mm, nm, tm + (size_t)nt * nt);
    for (int j = 0; j < 12; j++)
        memcpy(rb + 12 * j, mm + (size_t)nm * j, 12 * sizeof *rb);
    int info = definite(12, rb);
    if (info == 0) {
        /* the tangent basis Z (nm x nt): x, then omega = e_l (d_i' = e_l x e_i), then q */
        double *z = calloc((size_t)nm * nt + 1, sizeof *z);
        if (!z) {
            free(mm);
            return jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
        }
        for (int k = 0; k < 3; k++)
            z[k + (size_t)nm * k] = 1.0;
        for (int l = 0; l < 3; l++)
            for (int i = 0; i < 3; i++)
                for (int c = 0; c < 3; c++)
                    z[3 + 3 * i + c + (size_t)nm * (3 + l)] = EPS[l][i][c];
        for (int k = 0; k < r; k++)
            z[12 + k + (size_t)nm * (6 + k)] = 1.0;
        /* Z^T M Z */
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, nm, nt, nm, 1.0, mm, nm, z, nm,
                    0.0, zm, nm);
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, nt, nt, nm, 1.0, z, nm, zm, nm, 0.0,
                    tm, nt);
        free(z);
        info = definite(nt, tm);
        free(mm);
        if (info == 0)
            return JNT_OK;
        return jnt_errf(err, errn, JNT_ERR_MODEL, "the flexible3d body's mass matrix is "
                        "singular: its basis holds rigid-body motion (fix the node set the frame "
                        "is attached to, or reduce with static shapes or joint trial vectors, "
                        "which are orthogonalised)");
    }
    free(mm);
    return jnt_errf(err, errn, JNT_ERR_MODEL, "the flexible3d body's rigid mass matrix is "
                    "singular: its inertia tensor about the frame's origin fails the triangle "
                    "inequality (a flat or straight mesh without rotary inertia gives a "
                    "director without mass)");
}

/* See core/flex3d.h. */
int red_ffrf3d(const fe_model *fe, const red_basis *b, const fe_sparse *M0, const int *dof0,
               double *inv, char *err, size_t errn)
{
    if (!fe || !b || !inv || b->n != fe->ndof || b->r < 0 || b->r > JNT_MAX_BLOCK ||
        (b->r > 0 && !b->phi) || (dof0 && !M0))
        return jnt_errf(err, errn, JNT_ERR_USAGE, "red_ffrf3d: the basis does not match the "
                        "model");
    const fe_sparse *M = dof0 ? M0 : &fe->M;
    int n = M->n, r = b->r;
    nodes3 N = {0};
    N.t = malloc(3 * ((size_t)fe->nnode + 1) * sizeof *N.t);
    N.rt = malloc(3 * ((size_t)fe->nnode + 1) * sizeof *N.rt);
    N.X = malloc(3 * ((size_t)fe->nnode + 1) * sizeof *N.X);
    /* fields: T_k, Rot_l (6), Phi (r) in M's numbering, and M times each */
    int nc = 6 + r;
    double *v = calloc(2 * (size_t)n * nc + 1, sizeof *v);
    double *ga = malloc(3 * (size_t)r * r * sizeof *ga + 1); /* B_l */
    int rc = (!N.t || !N.rt || !N.X || !v || !ga)
                 ? jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants")
                 : node_table(fe, dof0, n, &N, err, errn);
    if (rc != JNT_OK)
        goto out;
    double *mv = v + (size_t)n * nc, *phi = v + 6 * (size_t)n, *mphi = mv + 6 * (size_t)n;
    for (int a = 0; a < N.nn; a++) {
        const int *t = N.t + 3 * a, *rt = N.rt + 3 * a;
        const double *X = N.X + 3 * a;
        for (int k = 0; k < 3; k++) {
            v[(size_t)k * n + t[k]] = 1.0;
            /* Rot_l: e_l x X at the translations, e_l at the rotations */
            double *rl = v + (size_t)(3 + k) * n;
            int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
            rl[t[k1]] = -X[k2];
            rl[t[k2]] = X[k1];
            if (rt[0] >= 0)
                rl[rt[k]] = 1.0;
        }
    }
    /* the basis in M's numbering: 0 at the fixed nodes */
    for (int p = 0; p < fe->nnode; p++)
        for (int c = 0; c < FE_NDOF_NODE && fe->node[p].master < 0; c++) {
            int to = red_dof_of(fe, dof0, p, c), from = fe->node[p].dof[c];
            for (int k = 0; to >= 0 && from >= 0 && k < r; k++)
                phi[(size_t)k * n + to] = b->phi[(size_t)k * b->n + from];
        }
    for (int c = 0; c < nc; c++)
        fe_sparse_mul(M, v + (size_t)c * n, mv + (size_t)c * n);
    /* m, and the check that a translation's mass is alike in x, y, z */
    double mt[9], G[9], J0[9], scale = 0.0;
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) {
            mt[k + 3 * l] = dot(n, v + (size_t)k * n, mv + (size_t)l * n);
            G[k + 3 * l] = dot(n, v + (size_t)k * n, mv + (size_t)(3 + l) * n);
            J0[k + 3 * l] = dot(n, v + (size_t)(3 + k) * n, mv + (size_t)(3 + l) * n);
        }
    double m = mt[0];
    for (int a = 0; a < 3 * N.nn; a++)
        scale = fmax(scale, fabs(N.X[a]));
    int bad = !(m > 0);
    for (int k = 0; k < 9 && !bad; k++)
        bad = fabs(mt[k] - (k % 4 == 0 ? m : 0.0)) > 1e-9 * m;
    if (bad) {
        rc = jnt_errf(err, errn, JNT_ERR_MODEL, "a flexible3d body needs a mass matrix whose "
                      "rigid translations have one mass in x, y and z (T_k^T M T_l = m "
                      "delta_kl; got %g, %g, %g on the diagonal)", mt[0], mt[4], mt[8]);
        goto out;
    }
    /* s0 from G = T^T M Rot = -skew(s0): G must be skew */
    for (int k = 0; k < 3 && !bad; k++)
        for (int l = 0; l <= k && !bad; l++)
            bad = fabs(G[k + 3 * l] + G[l + 3 * k]) > 1e-9 * m * (scale > 0 ? scale : 1.0);
    if (bad) {
        rc = jnt_errf(err, errn, JNT_ERR_MODEL, "a flexible3d body needs a mass matrix that "
                      "moves rigidly with the mesh (T_k^T M Rot_l is not skew: the rotations' "
                      "DOFs do not match the translations')");
        goto out;
    }
    inv[JNT_FFRF3_M] = m;
    inv[JNT_FFRF3_S0] = 0.5 * (G[1 + 3 * 2] - G[2 + 3 * 1]);
    inv[JNT_FFRF3_S0 + 1] = 0.5 * (G[2 + 3 * 0] - G[0 + 3 * 2]);
    inv[JNT_FFRF3_S0 + 2] = 0.5 * (G[0 + 3 * 1] - G[1 + 3 * 0]);
    double tr = J0[0] + J0[4] + J0[8];
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++)
            inv[JNT_FFRF3_E0 + k + 3 * l] =
                (k == l ? 0.5 * tr : 0.0) - 0.5 * (J0[k + 3 * l] + J0[l + 3 * k]);
    /* S1[k, n] = (M T_k) . phi_n */
    double *S1 = inv + JNT_FFRF3_S1, *C0 = inv + JNT_FFRF3_C0(r), *E1 = inv + JNT_FFRF3_E1(r);
    for (int j = 0; j < r; j++)
        for (int k = 0; k < 3; k++)
            S1[k + 3 * j] = dot(n, mv + (size_t)k * n, phi + (size_t)j * n);
    /* E1_m from J1_m[k, l] = (M Rot_k) . (L_l phi_m) = -phi_m . (L_l M Rot_k) */
    double *y = malloc((size_t)n * sizeof *y + 1);
    if (!y) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "out of memory for the inertia invariants");
        goto out;
    }
    for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) {
            cross_l(&N, n, l, mv + (size_t)(3 + k) * n, y);
            for (int j = 0; j < r; j++)
                E1[9 * (size_t)j + k + 3 * l] = -dot(n, phi + (size_t)j * n, y);
        }
    free(y);
    for (int j = 0; j < r; j++) {
        double *e = E1 + 9 * (size_t)j, j1[9], t1 = e[0] + e[4] + e[8];
        memcpy(j1, e, sizeof j1);
        for (int k = 0; k < 3; k++)
            for (int l = 0; l < 3; l++)
                e[k + 3 * l] = (k == l ? t1 : 0.0) - j1[k + 3 * l] - j1[l + 3 * k];
    }
    /* C0_i[k, n] = E1_n[i, k]/2 + sum_l eps_ikl g_l[n]/2, g_l[n] = Rot_l^T M phi_n */
    for (int j = 0; j < r; j++) {
        double g[3];
        for (int l = 0; l < 3; l++)
            g[l] = dot(n, mv + (size_t)(3 + l) * n, phi + (size_t)j * n);
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                C0[3 * (size_t)r * i + k + 3 * j] =
                    0.5 * (E1[9 * (size_t)j + i + 3 * k] + EPS[i][k][0] * g[0] +
                           EPS[i][k][1] * g[1] + EPS[i][k][2] * g[2]);
    }
    if (r > 0) {
        /* E2; C1_ik = E2_ik + sum_l eps_ikl B_l / 2; Mr */
        double *E2 = inv + JNT_FFRF3_E2(r), *C1 = inv + JNT_FFRF3_C1(r);
        size_t rr = (size_t)r * r;
        rc = e2_products(&N, M, r, phi, E2, err, errn);
        if (rc == JNT_OK)
            rc = b_products(&N, n, r, phi, mphi, ga, err, errn);
        if (rc != JNT_OK)
            goto out;
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) {
                static const int pair[3][3] = {{0, 3, 4}, {3, 1, 5}, {4, 5, 2}};
                double *c1 = C1 + (size_t)(i + 3 * k) * rr;
                const double *e2 = E2 + (size_t)pair[i][k] * rr;
                for (size_t t = 0; t < rr; t++)
                    c1[t] = e2[t] + 0.5 * (EPS[i][k][0] * ga[t] + EPS[i][k][1] * ga[rr + t] +
                                           EPS[i][k][2] * ga[2 * rr + t]);
            }
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, r, r, n, 1.0, mphi, n, phi, n, 0.0,
                    inv + JNT_FFRF3_MR(r), r);
        /* exactly symmetric */
        double *Mr = inv + JNT_FFRF3_MR(r);
        for (int j = 0; j < r; j++)
            for (int i = j + 1; i < r; i++)
                Mr[i + (size_t)r * j] = Mr[j + (size_t)r * i] =
                    0.5 * (Mr[i + (size_t)r * j] + Mr[j + (size_t)r * i]);
    }
    rc = check_definite(inv, r, err, errn);
out:
    free(N.t), free(N.rt), free(N.X), free(v), free(ga);
    return rc;
}
