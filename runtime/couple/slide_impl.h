/*
 * slide_impl.h: internals shared by slide.c (model, data, dual step),
 * slide_film.c (FiLm) and slide_modes.c (complex modes). Not part of the
 * interface (slide.h).
 */
#ifndef JNT_SLIDE_IMPL_H
#define JNT_SLIDE_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/err.h"
#include "linalg/csr.h"
#include "slide.h"

/* A port (one displacement component of an interface node) is fixed (the
 * ground, or a node held by neither a row nor a DOF) or a row of R. */
enum { PORT_FIXED, PORT_ROW };

typedef struct slide_msub {
    int n, off;
    double *M, *Minv, *K, *C; /* n x n; C NULL when absent */
    double wmax;              /* largest circular frequency of (K, M) */
    /* Modes of (K, M): Phi (n x n, columns M-orthonormal) and PhiT = Phi^T
     * (both column-major), w2 their squared circular frequencies (Rayleigh
     * quotients: ascending to round-off), dmod the diagonal of Phi^T C Phi
     * (0 without C); classical: Phi^T C Phi is diagonal to round-off. */
    double *Phi, *PhiT, *w2, *dmod;
    int classical;
    int modal;                /* the step runs on the modal coordinates q = Phi^-1 u */
    /* Its ports' rows: R (nport x n, sparse: a Craig-Bampton kept DOF is a
     * unit row), Y = rows of (M^-1 R^T)^T, Psi = R Phi (row i at Y + i n,
     * Psi + i n). A port's internal row and its M^-1 R^T in the
     * coordinates of the step: R and Y (physical), Psi and Psi (modal:
     * the modal mass is I). */
    csr_mat R;
    double *Y, *Psi;
    int (*force)(double t, double *f, void *user);
    void (*rayleigh)(double t, double *alpha, double *beta, void *user);
    void (*rigid)(double t, double x[2], double v[2], void *user);
} slide_msub;

typedef struct slide_port {
    int sub;    /* -1: ground */
    int kind;   /* PORT_FIXED, PORT_ROW */
    int row;    /* PORT_ROW: its row in the substructure's R, Y and Psi */
    const double *y; /* PORT_ROW: M^-1 R^T in the step's coordinates (n values) */
} slide_port;

/* Node i owns ports 2 i (ux) and 2 i + 1 (uy). */
typedef struct slide_mnode {
    double X[2];
    int sub; /* -1: ground */
} slide_mnode;

typedef struct slide_miface {
    int slave_sub, master_sub;
    int ns, nm;          /* slave nodes, master nodes */
    int slave0, master0; /* index of the first slave / master node in slide_model.node */
    slide_assumption assumption;
    double mu;
    double (*mu_fn)(double t, int iface, double v_slip, void *user);
    double lseg;         /* mean master segment length (m) */
} slide_miface;

struct slide_model {
    int nsub, N, niface, nnode, nport, ncontact;
    slide_method method;
    double h, hcrit, gs_tol;
    int max_iter, energy, lazy, force_state;
    slide_msub *sub;
    slide_miface *iface;
    slide_mnode *node;
    slide_port *port;
    int *contact_iface, *contact_node; /* per contact */
    double *G; /* nport x nport, R M^-1 R^T (zero between substructures) */
};

/* Geometry and coupling rows of one contact at one configuration. */
typedef struct slide_geo {
    int seg, off;
    double alpha, gamma, n[2], t[2], gap, x[2];
    int p[6];             /* ports C x, C y, T1 x, T1 y, T2 x, T2 y */
    double cN[6], cT[6];  /* gap and tangential-slip rows on the ports */
} slide_geo;

/* The configurations whose port displacements slide_port gives: u_n-1,
 * u_n, the predictor u* and the corrected u_n+1 of the step. */
enum { SLIDE_PREV, SLIDE_CUR, SLIDE_STAR, SLIDE_NEW, SLIDE_NCONF };

/* Work memory of a data object (sized at slide_data_new). The vectors q*
 * hold every substructure's coordinates in the step's coordinates (its
 * own, or modal), at its offset. */
struct slide_work {
    double *q, *q_prev, *q_star, *q_new, *qv, *qa;     /* N: u_n, u_n-1, u*, u_n+1, v, a */
    double *q_pp;                                      /* N: u_n-2 (the lazy a_n-1) */
    /* After a commit qv and qa are formed only when read (slide_rates, a
     * sync): qv = (u_n - u_n-1) / h, qa = (u_n - 2 u_n-1 + u_n-2) / h^2
     * (the central difference's a_n-1), from the same values in the same
     * order as a commit that formed them, so bit for bit; the next
     * predictor forms v alike and keeps it in registers. */
    int qv_lazy, qa_lazy;
    double *r, *f, *cv, *tmp;                          /* N */
    double *pval[SLIDE_NCONF];                         /* nport: port displacements, */
    long *pgen[SLIDE_NCONF];                           /* valid where pgen = the step */
    double *fport;                                     /* nport */
    int *fport_used, *fport_list, nfport;              /* nonzero ports */
    double *xr_prev, *xr_cur, *xr_new, *vr_new;        /* 2 nsub */
    slide_geo *geo;                                    /* ncontact */
    double *sslip, *lamN, *lamT, *muv, *chi_prev, *cE; /* ncontact (cE: 6 each) */
    int *cand, *removed;                               /* ncontact */
    double *W, *rhs, *lam;                             /* 3 (2 nc)^2, 2 nc, 6 nc */
    double *ralpha;                                    /* nsub: Rayleigh alpha at t_n */
    uint64_t *zfin;                                    /* nsub: slide_finbits OR of u_n+1 */
    int *sub_done;                                     /* nsub: corrector pass begun */
    int *nzcol;                                        /* N: nonzero force entries */
    int *ipiv, *idx, *map;                             /* 2 nc, 2 nc, 3 nc */
    double t0;                                         /* start time of the run */
    int uncommitted;   /* the last slide_step returned before its commit: its u* and
                          u_n+1 ports carry the stamp of the step it will try again */
    char err[256];
};

/* Small dense kernels of the step loop. Plain loops: multithreaded BLAS
 * costs more than it saves at these sizes (n of a few hundred), and the
 * step must not depend on the BLAS threading. The rows are unrolled by
 * two so that gcc -O2 packs them into vector instructions (its cost
 * model does not vectorise a loop that needs a remainder); each element's
 * arithmetic is unchanged. */
/* y += alpha A x, A n x n column-major (y overlaps neither A nor x). */
static inline void slide_matvec(int n, const double *restrict A, const double *restrict x,
                                double alpha, double *restrict y)
{
    int j = 0;
    for (; j + 4 <= n; j += 4) {
        double s0 = alpha * x[j], s1 = alpha * x[j + 1], s2 = alpha * x[j + 2];
        double s3 = alpha * x[j + 3];
        const double *a0 = A + (size_t)n * j, *a1 = a0 + n, *a2 = a1 + n, *a3 = a2 + n;
        int i = 0;
        for (; i + 2 <= n; i += 2) {
            y[i] += a0[i] * s0 + a1[i] * s1 + a2[i] * s2 + a3[i] * s3;
            y[i + 1] += a0[i + 1] * s0 + a1[i + 1] * s1 + a2[i + 1] * s2 + a3[i + 1] * s3;
        }
        for (; i < n; i++)
            y[i] += a0[i] * s0 + a1[i] * s1 + a2[i] * s2 + a3[i] * s3;
    }
    for (; j < n; j++) {
        double s = alpha * x[j];
        const double *a = A + (size_t)n * j;
        for (int i = 0; i < n; i++)
            y[i] += a[i] * s;
    }
}

/* y += a0 x0 + a1 x1 + a2 x2 + a3 x3 (one pass over y; no x overlaps y) */
static inline void slide_axpy4(int n, const double a[4], const double *const x[4],
                               double *restrict y)
{
    const double *restrict x0 = x[0], *restrict x1 = x[1], *restrict x2 = x[2];
    const double *restrict x3 = x[3];
    double a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    int i = 0;
    for (; i + 2 <= n; i += 2) {
        y[i] += a0 * x0[i] + a1 * x1[i] + a2 * x2[i] + a3 * x3[i];
        y[i + 1] += a0 * x0[i + 1] + a1 * x1[i + 1] + a2 * x2[i + 1] + a3 * x3[i + 1];
    }
    for (; i < n; i++)
        y[i] += a0 * x0[i] + a1 * x1[i] + a2 * x2[i] + a3 * x3[i];
}

/* Two doubles (and their bits) as one SSE2 register, through GCC's vector
 * extensions: each lane's arithmetic is the scalar's (IEEE per element),
 * so a loop written on them gives the scalar loop's values bit for bit,
 * where gcc -O2's vectoriser leaves a loop of several streams scalar. */
typedef double slide_v2 __attribute__((vector_size(16)));
typedef uint64_t slide_u2 __attribute__((vector_size(16)));

static inline slide_v2 slide_ld2(const double *p)
{
    slide_v2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void slide_st2(double *p, slide_v2 v)
{
    memcpy(p, &v, sizeof v);
}

/* Finiteness by bits, ORed over a vector (integer ops: no chain of
 * floating-point adds to wait on): x's exponent field plus one unit of it,
 * which carries into bit 63 only for an infinity or a NaN (field 0x7ff),
 * so the OR of them has bit 63 set when any is not finite. */
#define SLIDE_EXPO 0x7ff0000000000000ull
#define SLIDE_EXPO1 0x0010000000000000ull

static inline uint64_t slide_finbits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (u & SLIDE_EXPO) + SLIDE_EXPO1;
}

static inline slide_u2 slide_finbits2(slide_v2 x)
{
    return ((slide_u2)x & SLIDE_EXPO) + SLIDE_EXPO1;
}

/* Whether an OR of slide_finbits saw a value that is not finite. */
static inline int slide_nonfinite(uint64_t acc)
{
    return (int)(acc >> 63);
}

/* out[k] = rows[k] . x for k < 4, each summed as slide_dot sums it (lane
 * 0 the even entries and the tail, lane 1 the odd ones, then the two: the
 * same values bit for bit), the four in one pass. */
static inline void slide_dot4(int n, const double *const rows[4], const double *restrict x,
                              double out[4])
{
    const double *restrict r0 = rows[0], *restrict r1 = rows[1], *restrict r2 = rows[2];
    const double *restrict r3 = rows[3];
    slide_v2 c0 = {0, 0}, c1 = {0, 0}, c2 = {0, 0}, c3 = {0, 0};
    int i = 0;
    for (; i + 2 <= n; i += 2) {
        slide_v2 xv = slide_ld2(x + i);
        c0 += slide_ld2(r0 + i) * xv;
        c1 += slide_ld2(r1 + i) * xv;
        c2 += slide_ld2(r2 + i) * xv;
        c3 += slide_ld2(r3 + i) * xv;
    }
    slide_v2 acc[4] = {c0, c1, c2, c3};
    for (int k = 0; k < 4; k++) {
        double s0 = acc[k][0], s1 = acc[k][1];
        for (int j = i; j < n; j++)
            s0 += rows[k][j] * x[j];
        out[k] = s0 + s1;
    }
}

/* y = y0 + (a0 x0 + a1 x1 + a2 x2 + a3 x3), slide_axpy4 on a copy of y0 in
 * one pass; returns the OR of slide_finbits of y's entries. */
static inline uint64_t slide_axpy4_from(int n, const double a[4], const double *const x[4],
                                        const double *restrict y0, double *restrict y)
{
    const double *restrict x0 = x[0], *restrict x1 = x[1], *restrict x2 = x[2];
    const double *restrict x3 = x[3];
    double a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    slide_u2 z = {0, 0};
    int i = 0;
    for (; i + 2 <= n; i += 2) {
        slide_v2 e = slide_ld2(y0 + i) + (a0 * slide_ld2(x0 + i) + a1 * slide_ld2(x1 + i) +
                                          a2 * slide_ld2(x2 + i) + a3 * slide_ld2(x3 + i));
        slide_st2(y + i, e);
        z |= slide_finbits2(e);
    }
    uint64_t zs = z[0] | z[1];
    for (; i < n; i++) {
        y[i] = y0[i] + (a0 * x0[i] + a1 * x1[i] + a2 * x2[i] + a3 * x3[i]);
        zs |= slide_finbits(y[i]);
    }
    return zs;
}

/* x . y, in two interleaved partial sums (so that they pack into vectors) */
static inline double slide_dot(int n, const double *restrict x, const double *restrict y)
{
    double s0 = 0, s1 = 0;
    int i = 0;
    for (; i + 2 <= n; i += 2) {
        s0 += x[i] * y[i];
        s1 += x[i + 1] * y[i + 1];
    }
    for (; i < n; i++)
        s0 += x[i] * y[i];
    return s0 + s1;
}

/* y += a x (x and y do not overlap) */
static inline void slide_axpy(int n, double a, const double *restrict x, double *restrict y)
{
    int i = 0;
    for (; i + 2 <= n; i += 2) {
        y[i] += a * x[i];
        y[i + 1] += a * x[i + 1];
    }
    for (; i < n; i++)
        y[i] += a * x[i];
}

/* Displacement of port p in the configuration `which` (SLIDE_PREV ..
 * SLIDE_NEW) of the step that starts at d->step: computed from the step's
 * vectors when first asked for and kept until the step ends (SLIDE_NEW:
 * the predictor's value plus h^2 G times the port forces of the
 * corrector, once they are known). */
double slide_port_at(const slide_model *m, slide_data *d, int which, int p);

/* slide_port_at with its cache's hit inline (the step asks for about
 * forty port values, most of them kept). */
static inline double slide_pval(const slide_model *m, slide_data *d, int which, int p)
{
    struct slide_work *w = d->w;
    long gen = d->step + (which == SLIDE_PREV ? -1 : which == SLIDE_CUR ? 0 : 1);
    return w->pgen[which][p] == gen ? w->pval[which][p] : slide_port_at(m, d, which, p);
}

/* Where slide_geometry reads port displacements: configuration `which` of
 * d (NULL: none, the undeformed nodes). */
typedef struct slide_pview {
    const slide_model *m;
    slide_data *d;
    int which;
} slide_pview;

/* Physical d->u, d->v (what = 0) and d->a (what = 1) of substructure s
 * from the step's vectors. */
void slide_sync_sub(const slide_model *m, slide_data *d, int s, int what);

/* qv and qa of the committed state formed where a commit left them to be
 * formed when read (slide_work.qv_lazy, qa_lazy); what: 1 qv, 2 qa, 3 both. */
void slide_rates(const slide_model *m, slide_data *d, int what);

/* Rigid frame positions xr[2 nsub] (and velocities vr, may be NULL) at t. */
void slide_rigid_at(const slide_model *m, slide_data *d, double t, double *xr, double *vr);

/* At the state w->q, w->qv (u_n and the backward velocity, in the step's
 * coordinates): the forces f(t) into w->f, r = f - C(t) v - K (u + beta v)
 * into w->r (the alpha of the Rayleigh callback goes to ralpha[s]: its
 * alpha M v is applied after M^-1), and with energy accounts the damping
 * force cv = C(t) v into w->cv, all in the step's coordinates. 0 or a
 * callback's failure (message). */
int slide_forces(const slide_model *m, slide_data *d, double t, double *ralpha);

/* Contact k's geometry: node positions X + xr[sub] (+ the port
 * displacements of pv when non-NULL: the gap always uses them);
 * def_alpha: alpha and the segment from the displaced positions, else from
 * X + xr; def_normal: the normal of the displaced segment, else of the
 * undeformed one. seg0 >= 0: walk from that segment, else search all.
 * Fills g (off = 1 when the slave does not project onto the master). */
void slide_geometry(const slide_model *m, int k, const double *xr, const slide_pview *pv,
                    int def_alpha, int def_normal, int seg0, slide_geo *g);

/* Friction coefficient of interface i at time t and slip speed v. */
double slide_mu(const slide_model *m, int i, double t, double v, void *user);

/* Record an error or warning message in d and return code. */
int slide_fail(slide_data *d, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* c_a G c_b^T for two contacts' 6-port rows (ports pa, pb). */
double slide_g6(const slide_model *m, const int *pa, const double *ca, const int *pb,
                const double *cb);

/* FiLm multipliers for the candidate contacts (slide_film.c): fills
 * w->lamN, lamT and the contact states. 0, SLIDE_NOT_CONVERGED or < 0. */
int slide_film_solve(const slide_model *m, slide_data *d);

#endif
