/* kapitza_vmi.h -- section of kapitza.h (included by it; not included on its own).
 *
 * Variational multirate integrators: S. Ober-Bloebaum, T. Wenger, T. Gail, S. Leyendecker,
 * "Variational multirate integrators" (arXiv). Lagrangian L = 1/2 qdot' M qdot - V(qs, qf) - W(qf)
 * (2.2) with slow positions qs on a macro grid dT and fast positions qf on a micro grid
 * dt = dT / p (Fig. 3.1); slow positions linearly interpolated to the micro nodes (3.18); the
 * potentials integrated with the (alpha, gamma) quadrature family (4.8) / Table 1, one pair for V
 * and one for W. Midpoint-midpoint (Thm 3.3) is gamma_V = gamma_W = 1/2; trapezoidal-midpoint
 * (Thm 3.4) gamma_V in {0, 1}, gamma_W = 1/2; trapezoidal-trapezoidal (Thm 3.5) gamma_V, gamma_W
 * in {0, 1}; the left-rectangle variants run in Sec. 6 are alpha = gamma = 1.
 * Each macro step solves the position-momentum form (3.10)/(3.11) for the unknowns
 * (q_{k+1}^s, q_k^{f,1..p}) by Newton's method with an analytic Jacobian.
 */

/* ---------- Dense linear algebra (kz_linalg.c), generic and reusable ------------------------- */

/* LU factorisation with partial pivoting of the row-major n x n matrix a, in place; piv gets n
 * row indices. KZ_EDOMAIN (parameter "matrix") if a pivot is exactly zero or not finite. */
int kz_lu_factor(int n, double *a, int *piv, kz_report *r);
/* Solve A x = b with the factors of kz_lu_factor; b (n numbers) is overwritten by x. */
int kz_lu_solve(int n, const double *lu, const int *piv, double *b, kz_report *r);
/* The same for nrhs right-hand sides stored as the columns of the row-major n x nrhs matrix b. */
int kz_lu_solve_cols(int n, const double *lu, const int *piv, int nrhs, double *b, kz_report *r);

/* ---------- Arrowhead block systems (kz_vmi_solve.c) ------------------------------------------- */

/* The Newton matrix of one multirate macro step, ordered (fast nodes 1..p, slow end point):
 *     [ B  C ] [x]   [f]      B: p x p blocks of nb x nb, block lower triangular with two
 *     [ R  D ] [z] = [g]      sub-diagonals; C: p blocks nb x na; R: p blocks na x nb; D: na x na.
 * band holds 3 blocks per block row i (row-major nb x nb each): (i, i-2), (i, i-1), (i, i);
 * blocks outside B are ignored. col holds C_i (nb x na), row R_i (na x nb), corner D. */
typedef struct kz_arrow {
  int p, nb, na;
  double *band, *col, *row, *corner;
} kz_arrow;

/* Work sizes (doubles, ints) that kz_arrow_solve needs for the given shape and solver. */
int kz_arrow_work_size(int p, int nb, int na, int solver, long long *nwork, long long *niwork,
                       kz_report *r);
/* Solve the system: rhs = (f, g), p nb + na numbers, is overwritten by (x, z). solver is an
 * enum kz_vmi_solver: STRUCTURED eliminates B block by block (forward substitution, cost linear
 * in p) and then solves the na x na Schur complement D - R B^-1 C; DENSE copies everything into
 * one dense matrix and factors it (cost cubic in p). The blocks of A are overwritten. A singular
 * pivot gives KZ_EDOMAIN with parameter "jacobian". */
int kz_arrow_solve(kz_arrow *A, int solver, double *rhs, double *work, int *iwork,
                   kz_report *r);

/* ---------- The multirate mechanical system ---------------------------------------------------- */

/* Slow (coupling) potential V(qs, qf). v (if not NULL) receives V; the gradient is ADDED to
 * gs (ns numbers) and gf (nf numbers) and the Hessian is ADDED to hess ((ns+nf)^2 numbers,
 * row-major over the stacked vector (qs, qf)); any of them may be NULL. */
typedef int (*kz_vmi_slow_fn)(void *par, const double *qs, const double *qf, double *v,
                              double *gs, double *gf, double *hess);
/* Fast potential W(qf): value to w, gradient ADDED to g (nf), Hessian ADDED to hess (nf^2). */
typedef int (*kz_vmi_fast_fn)(void *par, const double *qf, double *w, double *g, double *hess);

/* The system. Masses are diagonal: ms/mf (arrays of ns/nf numbers) or, when NULL, the uniform
 * values mass_s/mass_f. W may be NULL (W = 0). ns >= 0, nf >= 0, ns + nf >= 1. */
typedef struct kz_vmi_model {
  int ns, nf;
  double mass_s, mass_f;
  const double *ms, *mf;
  kz_vmi_slow_fn V;
  kz_vmi_fast_fn W;
  void *par;
} kz_vmi_model;

/* ---------- The integrator (kz_vmi.c, kz_vmi_solve.c) ------------------------------------------ */

enum kz_vmi_solver {
  KZ_VMI_STRUCTURED = 0, /* block elimination of the arrowhead Jacobian: cost linear in p */
  KZ_VMI_DENSE = 1       /* the whole Jacobian as a dense matrix, LU with partial pivoting */
};

typedef struct kz_vmi_params {
  double alpha_V, gamma_V; /* quadrature (4.8) of the slow potential V, both in [0, 1] */
  double alpha_W, gamma_W; /* quadrature (4.8) of the fast potential W, both in [0, 1] */
  int p;                   /* micro steps per macro step (>= 1) */
  double dT;               /* macro step (> 0); the micro step is dT / p */
  double tol;              /* Newton: stop when max |residual| <= tol (momentum units, > 0) */
  int max_iter;            /* Newton: iteration cap (>= 1) */
  int solver;              /* enum kz_vmi_solver */
} kz_vmi_params;

/* State layout (macro node): y = (qs[ns], qf[nf], ps[ns], pf[nf]), 2 (ns + nf) numbers, where
 * qf = q_k^{f,0} and pf = p_k^{f,0} (3.6)-(3.10). */

/* Timing (optional, caller-owned, accumulated, seconds on a monotonic clock):
 * timing[0] Jacobian assembly (t_Jacobi), timing[1] linear solves incl. matrix set-up (t_dx),
 * timing[2] the whole call. */
enum kz_vmi_timing { KZ_VMI_T_JAC = 0, KZ_VMI_T_SOLVE = 1, KZ_VMI_T_TOTAL = 2, KZ_VMI_T_N = 3 };

/* One macro step from t on the state y (updated in place on success, unchanged on failure).
 * micro (may be NULL) receives the fast micro-node values of this interval, (p+1) rows of
 * (qf, pf) = 2 nf numbers, m = 0..p. Counts 1 macro step, p micro steps, Newton iterations,
 * Jacobian assemblies and force (gradient) evaluations. */
int kz_vmi_step(const kz_vmi_model *m, const kz_vmi_params *P, double t, double *y,
                double *micro, double *timing, kz_report *r);

/* N macro steps from y0 at t = 0. out receives the macro nodes k = 0..N, (N+1) rows of
 * 2 (ns + nf) numbers (capacity nout rows); micro (may be NULL) receives every micro node
 * j = k p + m = 0..N p, rows (qf, pf) (capacity nmicro rows). On a Newton failure the report
 * names "newton" with the macro step and time; the rows before it are valid. */
int kz_vmi_run(const kz_vmi_model *m, const kz_vmi_params *P, long long N, const double *y0,
               double *out, long long nout, double *micro, long long nmicro, double *timing,
               kz_report *r);

/* Energies at a state y: e[0] kinetic 1/2 p' M^-1 p, e[1] V, e[2] W. */
int kz_vmi_energy(const kz_vmi_model *m, const double *y, double *e, kz_report *r);

/* The Hamiltonian equations (2.4) on y = (qs, qf, ps, pf) as a kz_sys1 (par = m, which must
 * outlive s): the reference solutions are computed from it with RK4. */
int kz_vmi_sys1(kz_sys1 *s, const kz_vmi_model *m, kz_report *r);

/* ---------- Models (kz_vmi_models.c) ------------------------------------------------------------ */

/* Fermi-Pasta-Ulam, Sec. 6 (Hairer, Lubich & Wanner I.5.1): l stiff springs, unit masses,
 * V = 1/4 [(qs_1 - qf_1)^4 + sum_{i<l} (qs_{i+1} - qf_{i+1} - qs_i - qf_i)^4 + (qs_l + qf_l)^4],
 * W = omega^2 / 2 |qf|^2; ns = nf = l. */
typedef struct kz_vmi_fpu {
  int l;
  double omega;
} kz_vmi_fpu;
int kz_vmi_fpu_model(kz_vmi_model *m, kz_vmi_fpu *par, kz_report *r);

/* The 3-D spring ring of Sec. 6 (Fig. 6.2): n = 2 l masses (each `mass`) on a ring; odd masses
 * (1, 3, ...) are slow, even ones fast; qs, qf stack their 3-vectors. V = omega1/2 |qs|^2
 * + eps/4 sum_ring |q_{i+1} - q_i|^4 + gravity, W = omega2/2 |qf|^2. Gravity: g_sign = +1
 * gives the physical potential + g sum m_i z_i; g_sign = -1 the sign printed in the paper
 * (+q' M g with g = -g e3). */
typedef struct kz_vmi_ring {
  int l;
  double mass, eps, omega1, omega2, g;
  int g_sign;
} kz_vmi_ring;
int kz_vmi_ring_model(kz_vmi_model *m, kz_vmi_ring *par, kz_report *r);

/* Harmonic oscillator of Sec. 5: ns = 1, V = 1/2 omega_s^2 qs^2 (the 1/2 missing in (5.1));
 * with nf = 1 also a fast W = 1/2 omega_f^2 qf^2 (nf = 0: no fast variable). Unit masses. */
typedef struct kz_vmi_harmonic {
  int nf;
  double omega_s, omega_f;
} kz_vmi_harmonic;
int kz_vmi_harmonic_model(kz_vmi_model *m, kz_vmi_harmonic *par, kz_report *r);
