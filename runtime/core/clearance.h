/*
 * clearance.h: the clearance joints of seed 001 (Bauchau and Ju, "Modeling
 * friction phenomena in flexible multibody dynamics", part C of the AFOSR
 * report; docs/contact.md): gaps, normal and friction generalized forces
 * and their mid-point (energy-consistent) discretizations, the contact
 * potentials' discrete forces, the contact and friction step rules and the
 * LuGre time-discontinuous Galerkin update. Pure functions on doubles: no
 * allocation, no state.
 *
 * Conventions.
 *  - x = u0 + u = (u0^l + u^l) - (u0^k + u^k): the position of the centre of
 *    the inner race L from the centre of the outer race K.
 *  - A rotation is a 3x3 row-major matrix R whose columns are the body's
 *    directors: e1 = (R[0], R[3], R[6]), e2 = (R[1], R[4], R[7]),
 *    e3 = (R[2], R[5], R[8]).
 *  - Generalized forces and gradients are 12-vectors on
 *    (u^k, psi^k, u^l, psi^l), psi a spatial virtual rotation
 *    (delta e = delta psi x e), as in seed 001 eqs. 6, 14, 17.
 *  - Incremental rotations r^k, r^l over a step are Cayley (Rodrigues)
 *    vectors: R_f = cay(r) R_i (clr_cayley). Under that reading
 *    e_f - e_i = r x (e_f + e_i)/2 holds exactly for every director.
 *  - f^n is dV/dq (<= 0 in contact): F = f^n dq/d(u, psi) is the gradient
 *    of the contact energy, the bodies' generalized forces are -F.
 */
#ifndef JNT_CLEARANCE_H
#define JNT_CLEARANCE_H

/* Recommended parameters (seed 001 Sect. 3 and 5.1). */
#define CLR_QBAR_MIN 5.0      /* eq. 19 */
#define CLR_CONTACT_ALPHA 1.2 /* eq. 19 */
#define CLR_DTAU_MIN 0.02     /* eq. 33 */
#define CLR_VHAT_MIN 5.0      /* eq. 33 */
#define CLR_FRICTION_ALPHA 1.2

/* ---- rotations -------------------------------------------------------- */

/* R = cay(r) = I + 4/(4 + r.r) (r~ + r~ r~ / 2), row-major. */
void clr_cayley(const double r[3], double R[9]);

/* The Cayley vector r of Rf Ri^T (so that Rf = cay(r) Ri):
 * r = 2 axial(A - A^T)/(1 + tr A), A = Rf Ri^T. Returns 0, or 1 if the
 * increment is a half turn (1 + tr A <= 1e-12; r is then left at 0). */
int clr_cayley_of(const double Ri[9], const double Rf[9], double r[3]);

/* ---- planar / spherical clearance joint (seed 001 Sect. 2.1) ---------- */

/* Eq. 2: q = rho_k - rho_l - |x|; n = x/|x| (0 when x = 0) if n != NULL. */
double clr_planar_gap(double rho_k, double rho_l, const double x[3], double n[3]);

/* Eq. 3 (and eq. 4 with n = n_m): the 12-vector [n; 0; -n; 0], dq/d(u, psi)
 * for a unit n, the discrete direction of F_m^n for n_m. */
void clr_planar_dir(const double n[3], double g[12]);

/* Eq. 4: n_m = (x_i + x_f)/(|x_i| + |x_f|) (0 if both vanish). Then
 * f_m [n_m; -n_m] . (du^k, du^l) = f_m (q_f - q_i) exactly. */
void clr_planar_nm(const double xi[3], const double xf[3], double nm[3]);

/* Eqs. 5-7: the arms of the candidate contact points from the races'
 * centres, a_k = rho_k n, a_l = rho_l n (n, or n_m for eq. 7). */
void clr_planar_arms(double rho_k, double rho_l, const double n[3], double ak[3], double al[3]);

/* ---- friction at a contact point (eqs. 5-7, 16-18) -------------------- */

/* The tangential part vt = (I - nu nu^T) vr, nu = n/|n| (vt = vr if n = 0),
 * and e = vt/|vt| (0 if vt = 0); returns |vt|. */
double clr_tangent(const double n[3], const double vr[3], double vt[3], double e[3]);

/* The relative velocity of the candidate contact points,
 *   vr = (vl + wl x al) - (vk + wk x ak)     (eqs. 5, 16),
 * and its tangential part vt = (I - n n^T/|n|^2) vr. With increments
 * (du^k, r^k, du^l, r^l) in place of (vk, wk, vl, wl) it is
 * Dt V_m^r = du + rho_l n~_m^T r^l - rho_k n~_m^T r^k (eq. 7) and
 * du + rho_l d~_1m^lT r^l - lambda~_m^T r^k (eq. 18). The projector uses
 * n/|n| (the mid-point normals are not unit vectors): under this reading the
 * discrete work is exactly -f Dt V_m^t (docs/contact.md). Writes vr, vt
 * (either may be NULL) and e = vt/|vt| (0 if vt = 0); returns |vt|. */
double clr_slip(const double ak[3], const double al[3], const double n[3], const double vk[3],
                const double wk[3], const double vl[3], const double wl[3], double vr[3],
                double vt[3], double e[3]);

/* The friction force per unit magnitude on (u^k, psi^k, u^l, psi^l):
 * F = [e; ak x e; -e; -al x e] (eqs. 6, 7, 17, 18). F . (du^k, r^k, du^l,
 * r^l) = -e . Dt V^r, so f F has the discrete work -f Dt V^t <= 0 for f >= 0. */
void clr_friction_dir(const double ak[3], const double al[3], const double e[3], double F[12]);

/* ---- spatial clearance joint: cylinder K, disk L (Sect. 2.2) ---------- */

/* The geometry at the optimal angle (eqs. 8-13, 16). */
typedef struct clr_spatial {
    double phi;       /* angle of d1k from e1k (eq. 8), in (-pi, pi] */
    double q;         /* gap, eq. 13 */
    double d1k[3], d2k[3], d3k[3]; /* eq. 8 */
    double d1l[3], d2l[3], e3l[3]; /* eq. 9 */
    double g1, h1;    /* e3l . d1k; |d1k x e3l| = d1k . d1l */
    double x[3];      /* u0 + u */
    double lambda[3]; /* x + rho_l d1l + q d1k: arm of Z^k (eq. 16) */
    double res;       /* dqbar/dphi at phi (eq. 12's left-hand side) */
    int iters;        /* Newton iterations, all starts */
} clr_spatial;

/* Eq. 11: qbar(phi) = rho_k - rho_l h1 - d1k . x, with Rk the cylinder's
 * rotation (axis e3k) and e3l the disk's normal. If dq != NULL, dq[0] =
 * dqbar/dphi (eq. 12's left-hand side) and dq[1] = d2qbar/dphi2. */
double clr_spatial_qbar(double rho_k, double rho_l, const double Rk[9], const double e3l[3],
                        const double x[3], double phi, double dq[2]);

/* Eqs. 12-13: minimise qbar over phi and fill s. Starts: the projection of x
 * on the cross-section plane and the two angles where the disk's support is
 * widest (h1 = 1); a Newton iteration from each with a descent guard (line
 * search on qbar, gradient steps where qbar is not convex); the lowest is
 * kept. Returns 0, 1 if a start did not converge in 60 iterations (the best
 * result is still in s), or -1 if the disk stands on edge (h1 < 1e-9: the
 * gap of eq. 13 is undefined; s holds the best phi found). */
int clr_spatial_gap(double rho_k, double rho_l, const double Rk[9], const double Rl[9],
                    const double x[3], clr_spatial *s);

/* Eq. 14 (and 15 with mid-point arguments): the 12-vector
 * [d1k; c h - d1k x x; -d1k; -c h], h = d1k x e3l, c = rho_l g1/h1. */
void clr_spatial_dir(double rho_l, const double d1k[3], const double e3l[3], double g1, double h1,
                     const double x[3], double g[12]);

/* Eq. 14 at s: dq/d(u, psi). */
void clr_spatial_dq(double rho_l, const clr_spatial *s, double g[12]);

/* Eq. 15: the discrete direction from the two ends, d1m = (d1f + d1i)/2,
 * e3m = (e3f + e3i)/2, h1m = (h1f + h1i)/2, g1m = (g1f + g1i)/2,
 * x_m = (x_f + x_i)/2. f_m g . (du^k, r^k, du^l, r^l) equals f_m (q_f - q_i)
 * exactly when the contact angle phi is the same at both ends and r are
 * Cayley vectors; otherwise the mismatch is O(step^3) (docs/contact.md). */
void clr_spatial_dq_m(double rho_l, const clr_spatial *si, const clr_spatial *sf, double g[12]);

/* Eqs. 16-17: the arms (ak = lambda, al = rho_l d1l) and the normal d1k at
 * s; eq. 18 (clr_spatial_arms_m): their averages over the two ends (lambda_m
 * and d1l_m read as averages like d1m, [INFERRED]). For clr_slip and
 * clr_friction_dir. */
void clr_spatial_arms(double rho_l, const clr_spatial *s, double ak[3], double al[3], double n[3]);
void clr_spatial_arms_m(double rho_l, const clr_spatial *si, const clr_spatial *sf, double ak[3],
                        double al[3], double n[3]);

/* ---- director coordinates (a rigid3d body's x, d1, d2, d3) ------------ */

/* R (row-major, columns d1, d2, d3) from a body's directors. */
void clr_rot_from_dirs(const double d1[3], const double d2[3], const double d3[3], double R[9]);

/* Eq. 14 in director coordinates: dq/d(x^k, d1^k, d2^k, d3^k, x^l, d1^l,
 * d2^l, d3^l), 24 entries (K's d1, d2 = e1k, e2k; L's d3 = e3l), from
 * q = rho_k - rho_l |d1k x e3l| - d1k . x at the optimal phi (fixed: eq. 12
 * makes dq/dphi vanish). With G = -rho_l (e3l x h)/h1 - x, h = d1k x e3l:
 * [d1k; cos(phi) G; sin(phi) G; 0; -d1k; 0; 0; -rho_l (h x d1k)/h1]. */
void clr_spatial_dq_dirs(double rho_l, const clr_spatial *s, double g[24]);

/* Its discrete form (ours, not the report's): the same with d1m, e3m, x_m,
 * h1m = (h1f + h1i)/2, the mean of cos and sin phi and h_m = (h_f + h_i)/2
 * (not d1m x e3m). g . (increments of x and the directors) equals
 * qbar_f(phi) - qbar_i(phi) exactly for any increments at one phi, so
 * f_m (q_f - q_i) when the contact angle is unchanged, whatever the
 * rotation parametrization; O(h^3) otherwise, like eq. 15. */
void clr_spatial_dq_dirs_m(double rho_l, const clr_spatial *si, const clr_spatial *sf, double g[24]);

/* A force f e at a point of a body with body-frame coordinates a
 * (a_j = d_j . (point - x)): its generalized force per unit f on
 * (x, d1, d2, d3), [e; a1 e; a2 e; a3 e]. The point's displacement is
 * dx + sum a_j dd_j, so a friction force built from it (on K with a^k and
 * +e, on L with a^l and -e, e from clr_tangent of the displacement
 * difference) has the discrete work -f |Dt V^t|. */
void clr_point_dirs(const double a[3], const double e[3], double g[12]);

/* ---- contact potentials: energy-consistent force (Sect. 3) ------------ */

/* Linear spring V = k/2 max(-q, 0)^2 and Hertz V = 2/5 K max(-q, 0)^(5/2). */
double clr_pot_linear(double k, double q);
double clr_pot_hertz(double K, double q);

/* f_m = (V(q_f) - V(q_i))/(q_f - q_i) without cancellation (both ends in
 * contact: k (q_f + q_i)/2 for the spring, the factored quotient of the
 * 5/2 powers for Hertz); dV/dq at q when q_f = q_i. If dfdqf != NULL it
 * receives df_m/dq_f (df_m/dq_i is the same function with qi, qf swapped). */
double clr_fm_linear(double k, double qi, double qf, double *dfdqf);
double clr_fm_hertz(double K, double qi, double qf, double *dfdqf);

/* ---- step-size rules -------------------------------------------------- */

/* Eqs. 19-20: kappa = (q1/eps_p)/qbar_min; Dq = eps_p (1 if kappa <= 1,
 * kappa^alpha otherwise); v_m = 2 (q1 - q0)/(dt0 + dt1); returns
 * Dq/|v_m| (HUGE_VAL when q1 = q0). The report gives neither sign nor
 * absolute value: |v_m| is read, q1 keeps its sign (in contact kappa <= 0,
 * so Dq = eps_p). [INFERRED] */
double clr_step_contact(double q0, double q1, double dt0, double dt1, double eps_p,
                        double qbar_min, double alpha);

/* Eq. 27: Omega = sigma0 v_s/mu_k, the inverse LuGre time constant. */
double clr_lugre_omega(double sigma0, double v_s, double mu_k);

/* Eq. 33: nu = (|V_r|/v_s)/vhat_min; returns the step Dt with
 * Omega Dt = Dtau_min (1 if nu <= 1, nu^alpha otherwise). V_r is read as the
 * magnitude of the relative tangential velocity (its sign ignored). */
double clr_step_friction(double V_r, double v_s, double omega, double dtau_min, double vhat_min,
                         double alpha);

/* ---- LuGre, nondimensional (eqs. 25-33) ------------------------------- */

/* The model's nondimensional parameters (hats dropped). */
typedef struct clr_lugre_par {
    double ratio;  /* mu_s/mu_k >= 1 */
    double gamma;  /* Stribeck exponent (2 in the report) */
    double sigma1; /* sigma1 v_s/mu_k */
    double sigma2; /* sigma2 v_s/mu_k */
} clr_lugre_par;

/* Eq. 28: g(v) = 1 + (mu_s/mu_k - 1) exp(-|v|^gamma). */
double clr_lugre_g(const clr_lugre_par *p, double v);

/* One TDG step and its bookkeeping (eqs. 29-32). */
typedef struct clr_lugre_step {
    double zj, zf;  /* eq. 29 */
    double g;       /* g(v_g) */
    double beta;    /* beta_g = |v|_g/g(v_g) [INFERRED] */
    double zg;      /* (z_f + z_j)/2 */
    double mu;      /* eq. 25 at g: (1 - beta sigma1) z_g + (sigma1 + sigma2) v_g */
    double dV;      /* (V_f - V_i)/Dtau, V = z^2/2, from z_f and z_i */
    double slide;   /* eq. 30, first term: -|z|_g |v|_g (|z|_g/g - s_v s_z) */
    double diss;    /* eq. 30, second term (numerical dissipation, <= 0) */
    double work;    /* eq. 31: -mu v_g = sigma0 DW/(mu_k^2 Dtau f_g^n) */
    double w[5];    /* eq. 32's five terms; their sum is work */
} clr_lugre_step;

/* Eq. 29 solved for z_j, z_f (linear for a given beta_g): with
 * b = beta_g Dtau, w = v_g Dtau, det = 1 + 2b/3 + b^2/6,
 *   z_f = (w (1 + b/6) + z_i (1 - b/3))/det,  z_j = (z_i (1 + 2b/3) + w b/6)/det.
 * vg = (v_f + v_j)/2; absvg is |v|_g: pass fabs(vg) (the reading under which
 * eq. 30 holds; (|v_f| + |v_j|)/2 breaks it when v changes sign). */
void clr_lugre_tdg(const clr_lugre_par *p, double zi, double vg, double absvg, double dtau,
                   clr_lugre_step *st);

#endif
