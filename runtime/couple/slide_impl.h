/*
 * slide_impl.h: internals shared by slide.c (model, data, dual step),
 * slide_film.c (FiLm) and slide_modes.c (complex modes). Not part of the
 * interface (slide.h).
 */
#ifndef JNT_SLIDE_IMPL_H
#define JNT_SLIDE_IMPL_H

#include <stddef.h>

#include "core/err.h"
#include "slide.h"

/* How a port (one displacement component of an interface node) follows q. */
enum { PORT_FIXED, PORT_DOF, PORT_ROW };

typedef struct slide_msub {
    int n, off;
    double *M, *Minv, *K, *C; /* n x n; C NULL when absent */
    double wmax;              /* largest circular frequency of (K, M) */
    int (*force)(double t, double *f, void *user);
    void (*rayleigh)(double t, double *alpha, double *beta, void *user);
    void (*rigid)(double t, double x[2], double v[2], void *user);
} slide_msub;

typedef struct slide_port {
    int sub;    /* -1: ground */
    int kind;   /* PORT_FIXED, PORT_DOF, PORT_ROW */
    int dof;    /* PORT_DOF: index in the substructure */
    double *row;/* PORT_ROW: n values */
    int nnz;    /* PORT_ROW: >= 0 when sparse: nnz entries val at idx; -1: dense */
    int *idx;
    double *val;
    double *y;  /* M^-1 R^T (n values), NULL when fixed */
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
    int max_iter, energy;
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

/* Work memory of a data object (sized at slide_data_new). */
struct slide_work {
    double *u_prev, *u_new, *ustar, *r, *f, *cv, *tmp; /* N */
    double *pprev, *pcur, *pnew, *pstar, *fport;       /* nport */
    int *fport_used, *fport_list, nfport;              /* nonzero ports */
    double *xr_prev, *xr_cur, *xr_new, *vr_new;        /* 2 nsub */
    slide_geo *geo;                                    /* ncontact */
    double *sslip, *lamN, *lamT, *muv, *chi_prev, *cE; /* ncontact (cE: 6 each) */
    int *cand, *removed;                               /* ncontact */
    double *W, *rhs, *lam;                             /* 3 (2 nc)^2, 2 nc, 6 nc */
    double *ralpha;                                    /* nsub: Rayleigh alpha at t_n */
    int *ipiv, *idx, *map;                             /* 2 nc, 2 nc, 3 nc */
    double t0;                                         /* start time of the run */
    char err[256];
};

/* Small dense kernels of the step loop. Plain loops: multithreaded BLAS
 * costs more than it saves at these sizes (n of a few hundred), and the
 * step must not depend on the BLAS threading. */
/* y += alpha A x, A n x n column-major. */
static inline void slide_matvec(int n, const double *A, const double *x, double alpha,
                                double *y)
{
    int j = 0;
    for (; j + 4 <= n; j += 4) {
        double s0 = alpha * x[j], s1 = alpha * x[j + 1], s2 = alpha * x[j + 2];
        double s3 = alpha * x[j + 3];
        const double *a0 = A + (size_t)n * j, *a1 = a0 + n, *a2 = a1 + n, *a3 = a2 + n;
        for (int i = 0; i < n; i++)
            y[i] += a0[i] * s0 + a1[i] * s1 + a2[i] * s2 + a3[i] * s3;
    }
    for (; j < n; j++) {
        double s = alpha * x[j];
        const double *a = A + (size_t)n * j;
        for (int i = 0; i < n; i++)
            y[i] += a[i] * s;
    }
}

static inline double slide_dot(int n, const double *x, const double *y)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

/* y += a x */
static inline void slide_axpy(int n, double a, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

/* Displacement of port p from the global coordinates u. */
double slide_port_value(const slide_model *m, int p, const double *u);

/* All port values of u into pv[nport]. */
void slide_ports_of(const slide_model *m, const double *u, double *pv);

/* Rigid frame positions xr[2 nsub] (and velocities vr, may be NULL) at t. */
void slide_rigid_at(const slide_model *m, slide_data *d, double t, double *xr, double *vr);

/* Forces f(t) into w->f, r = f - C(t) v - K (u + beta v) into w->r (the
 * alpha of the Rayleigh callback goes to ralpha[s]: its alpha M v is
 * applied after M^-1), and with energy accounts the damping force
 * cv = C(t) v into w->cv. 0 or a callback's failure (message). */
int slide_forces(const slide_model *m, slide_data *d, double t, const double *u,
                 const double *v, double *ralpha);

/* Contact k's geometry: node positions X + xr[sub] (+ the port
 * displacements ports[] when non-NULL: the gap always uses them);
 * def_alpha: alpha and the segment from the displaced positions, else from
 * X + xr; def_normal: the normal of the displaced segment, else of the
 * undeformed one. seg0 >= 0: walk from that segment, else search all.
 * Fills g (off = 1 when the slave does not project onto the master). */
void slide_geometry(const slide_model *m, int k, const double *xr, const double *ports,
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
