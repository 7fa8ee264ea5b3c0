/* kapitza.h -- the one public header of libkapitza.
 *
 * Numerical integrators for highly oscillatory and multirate mechanical systems:
 * heterogeneous multiscale methods (Calvo & Sanz-Serna 2009; Sharp, Tsai & Engquist 2005;
 * Fredbo), stroboscopic averaging (Calvo, Chartier, Murua & Sanz-Serna 2011) and variational
 * multirate integrators (Ober-Bloebaum, Wenger, Gail & Leyendecker).
 *
 * Rules this header keeps, so that LuaJIT's ffi.cdef can read it verbatim once the lines that
 * start with '#' are dropped: constants are enums, never macros; no varargs; no struct is passed
 * or returned by value; every buffer is owned by the caller; every function that can fail returns
 * an int status (enum kz_status) explained by kz_strerror(); nothing here aborts or keeps global
 * mutable state, so two runs in one process never interfere.
 *
 * Conventions
 *  - A "report" (kz_report) is passed to every method: it counts the work done (micro-steps,
 *    force/right-hand-side evaluations, macro steps, Newton iterations, rejected steps) and, when
 *    a call fails, names the offending parameter and the step/time at which it failed.
 *  - Work counters are accumulated, never reset by a method: call kz_report_init() first.
 *  - A failed call leaves the caller's state arrays as they were on entry, unless the function's
 *    comment says otherwise.
 */
#ifndef KAPITZA_H
#define KAPITZA_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Status codes and reports                                                                    */
/* ------------------------------------------------------------------------------------------ */

enum kz_status {
  KZ_OK = 0,
  KZ_ENULL = 1,      /* a required pointer is NULL */
  KZ_ENONFINITE = 2, /* a number is NaN or infinite */
  KZ_EDOMAIN = 3,    /* a parameter is outside its domain (e.g. a step <= 0) */
  KZ_EGRID = 4,      /* a window or interval is not an integer number of steps */
  KZ_ENOMEM = 5,     /* memory allocation failed */
  KZ_ENOCONV = 6,    /* an iteration (Newton, step control) did not converge */
  KZ_EDIVERGED = 7,  /* the solution became non-finite during the integration */
  KZ_EBUFFER = 8,    /* a caller buffer is too small */
  KZ_EMODEL = 9,     /* the model cannot be used with this method */
  KZ_ESTATUS_END = 10
};

const char *kz_strerror(int status);

typedef struct kz_report {
  long long micro_steps;   /* steps of the fine (micro) integrator */
  long long force_evals;   /* force / right-hand side evaluations */
  long long macro_steps;   /* accepted steps of the coarse (macro) integrator */
  long long rejected;      /* rejected steps of a step-size controller */
  long long newton_iters;  /* Newton (or fixed-point) iterations */
  long long jac_evals;     /* Jacobian assemblies */
  /* Diagnostics, written when a call fails (left alone otherwise). */
  const char *param;       /* name of the offending parameter, a static string, or NULL */
  long long fail_step;     /* macro step at which the failure happened, -1 if not applicable */
  double fail_time;        /* time at which the failure happened (NaN if not applicable) */
} kz_report;

/* Zero the counters and clear the diagnostics. */
void kz_report_init(kz_report *r);

/* ------------------------------------------------------------------------------------------ */
/* Systems                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* A first-order system y' = f(t, y) of dimension dim. rhs returns KZ_OK or a status. */
typedef int (*kz_rhs_fn)(void *par, double t, const double *y, double *dydt);
typedef struct kz_sys1 {
  int dim;
  kz_rhs_fn rhs;
  void *par;
} kz_sys1;

/* A second-order system q'' = a(t, q) (mass-normalised force), q of dimension dim. */
typedef int (*kz_accel_fn)(void *par, double t, const double *q, double *a);
typedef struct kz_sys2 {
  int dim;
  kz_accel_fn accel;
  void *par;
} kz_sys2;

/* A vibrated second-order system q'' = f(q, theta; omega), theta = omega t + theta0, with f
 * 2*pi-periodic in the fast phase theta (Calvo & Sanz-Serna (2.9), (3.1)). even_in_theta != 0
 * declares f(q, -theta) = f(q, theta), which lets asynchronous HMM halve its windows. */
typedef int (*kz_vforce_fn)(void *par, double theta, const double *q, double *f);
typedef struct kz_vib2 {
  int dim;
  double omega;
  double theta0;
  int even_in_theta;
  kz_vforce_fn force;
  void *par;
} kz_vib2;

/* ------------------------------------------------------------------------------------------ */
/* Models                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Vibrated inverted pendulum, Calvo & Sanz-Serna (2.2)-(2.3), q measured from the upward
 * vertical: q'' = l^-1 (g + vmax omega cos(omega t + theta0)) sin q. */
typedef struct kz_pendulum {
  double l;      /* rod length [m] */
  double g;      /* gravity [m s^-2] */
  double vmax;   /* amplitude of the pivot velocity [m s^-1] */
  double omega;  /* angular frequency of the vibration [s^-1] */
  double theta0; /* phase at t = 0 [rad] */
} kz_pendulum;

/* Checks p and fills a kz_vib2 whose par points at p (p must outlive m). */
int kz_pendulum_vib2(kz_vib2 *m, kz_pendulum *p, kz_report *r);
/* The same system in time form, q'' = a(t, q), for direct integration. */
int kz_pendulum_sys2(kz_sys2 *m, kz_pendulum *p, kz_report *r);
/* The averaged equation (2.5)-(2.6): Q'' = F(Q) = (g/l - vmax^2/(2 l^2) cos Q) sin Q. */
int kz_pendulum_averaged_sys2(kz_sys2 *m, kz_pendulum *p, kz_report *r);
/* F(Q) of (2.6), evaluated directly (NaN for a NULL p or a non-finite Q). */
double kz_pendulum_averaged_force(const kz_pendulum *p, double Q);

/* ------------------------------------------------------------------------------------------ */
/* Steppers: written once, composed by every method                                            */
/* ------------------------------------------------------------------------------------------ */

/* Velocity Verlet for q'' = a(t, q): one step of size h (h may be negative) from (q, v) at t.
 * a holds a(t, q) on entry and a(t + h, q_new) on exit (so consecutive steps cost one
 * evaluation each); work needs 2*dim doubles. Counts one force evaluation, and one micro-step
 * when the step succeeds. */
int kz_verlet_step(const kz_sys2 *s, double t, double h, double *q, double *v, double *a,
                   double *work, kz_report *r);
/* n Verlet steps of size h from t; a is filled on entry (one evaluation) and kept current. */
int kz_verlet_run(const kz_sys2 *s, double t, double h, long long n, double *q, double *v,
                  kz_report *r);
/* nout*sub Verlet steps of size h from t0 (step k starts at t0 + k*h), recording the state every
 * sub steps: qout (and vout, if not NULL) get (nout+1)*dim numbers, the initial state first.
 * q, v hold the final state; on failure they are restored and the outputs are unspecified. */
int kz_verlet_trajectory(const kz_sys2 *s, double t0, double h, long long sub, long long nout,
                         double *q, double *v, double *qout, double *vout, kz_report *r);

/* Classical fourth-order Runge-Kutta for y' = f(t, y). work needs 5*dim doubles.
 * Counts one micro-step and four evaluations. */
int kz_rk4_step(const kz_sys1 *s, double t, double h, double *y, double *work, kz_report *r);
/* n RK4 steps of size h from t. */
int kz_rk4_run(const kz_sys1 *s, double t, double h, long long n, double *y, kz_report *r);
/* nout*sub RK4 steps of size h from t0 (step k starts at t0 + k*h), recording y every sub
 * steps: out gets (nout+1)*dim numbers, the initial y first; y holds the final state (restored
 * on failure, when out is unspecified). The reference solutions of the scenarios use it. */
int kz_rk4_trajectory(const kz_sys1 *s, double t0, double h, long long sub, long long nout,
                      double *y, double *out, kz_report *r);

/* A second-order system seen as a first-order one on y = (q, v) of dimension 2*dim. The adaptor
 * struct is caller-owned and must outlive out. */
typedef struct kz_sys2_as_sys1 {
  const kz_sys2 *s;
} kz_sys2_as_sys1;
int kz_sys1_from_sys2(kz_sys1 *out, kz_sys2_as_sys1 *adaptor, const kz_sys2 *s);

/* ------------------------------------------------------------------------------------------ */
/* Kernels (Calvo & Sanz-Serna (2.12)-(2.13), Engquist & Tsai): K even on (-1, 1), unit mass.  */
/* ------------------------------------------------------------------------------------------ */

enum kz_kernel_kind {
  KZ_KERNEL_UNIFORM = 0,     /* K = 1/2: "simple filtering" (2.16) with eta = 2 pi / omega */
  KZ_KERNEL_EXPONENTIAL = 1, /* K = C exp(5 / (x^2 - 1)) (2.13) */
  KZ_KERNEL_COSINE = 2,      /* K = (1 + cos(pi x)) / 2 */
  KZ_KERNEL_END = 3
};

/* The kernel value K(x) (normalised: its integral over (-1, 1) is 1); 0 outside (-1, 1). */
double kz_kernel_value(int kind, double x);
/* The normalising constant C (K = C * shape): closed form for the uniform and cosine kernels,
 * the trapezoidal rule on 2^14 panels for the exponential one (recomputed on each call, about
 * 0.2 ms; kz_kernel_weights normalises its weights directly and does not need it). */
double kz_kernel_constant(int kind);
/* Moment  int_{-1}^{1} x^k K(x) dx, by quadrature. */
double kz_kernel_moment(int kind, int k);

/* Quadrature weights for  int K_eta(t) f(t) dt  on a uniform grid: nodes t_j = j h with
 * j = -n..n (two-sided, 2n+1 weights; half = 0) or j = 0..n (one-sided half window for even
 * integrands, n+1 weights; half = 1, the weights then approximate 2 int_0^{eta/2}). Trapezoidal
 * rule on the grid, then normalised to sum to 1 exactly (a discrete unit mass). */
int kz_kernel_weights(int kind, long long n, int half, double *w, kz_report *r);

/* ------------------------------------------------------------------------------------------ */
/* HMM for vibrated systems (Calvo & Sanz-Serna, Algorithms 1 and 2, Sec. 2.2-2.4)             */
/* ------------------------------------------------------------------------------------------ */

enum kz_hmm_variant {
  KZ_HMM_SYNCHRONOUS = 1,  /* Algorithm 1: micro data (2.10), window t_n +- eta/2 */
  KZ_HMM_ASYNCHRONOUS = 2  /* Algorithm 2: micro data (2.14), window -eta/2..eta/2 */
};

/* For the synchronous variant: the micro-velocity p = Phat + lift(Q, theta) of (2.7)/(2.10).
 * lift writes dim numbers. The pendulum supplies kz_pendulum_lift. */
typedef int (*kz_lift_fn)(void *par, double theta, const double *Q, double *dp);
int kz_pendulum_lift(void *par, double theta, const double *Q, double *dp);

typedef struct kz_hmm_params {
  int variant;         /* enum kz_hmm_variant */
  int kernel;          /* enum kz_kernel_kind */
  double H;            /* macro step [s] */
  double T;            /* final time [s]; T/H must be an integer number of steps */
  double eta;          /* window length [s]; (eta/2)/h must be an integer */
  double h;            /* micro step [s] */
  int half_window;     /* asynchronous only: integrate 0..eta/2 (needs even_in_theta) */
  kz_lift_fn lift;     /* synchronous only: p-lift (2.7); NULL means p = Phat */
  void *lift_par;
} kz_hmm_params;

/* Estimate the averaged force at Q: Algorithm 2 step 2 (micro data (2.14) and (2.15)), or
 * Algorithm 1 step 2 at time t with velocity Phat. F gets dim numbers. */
int kz_hmm_force(const kz_vib2 *m, const kz_hmm_params *p, double t, const double *Q,
                 const double *Phat, double *F, kz_report *r);

/* Run the HMM with a Verlet/leap-frog macro step from (Q0, P0) at t = 0 to T, N = T/H steps
 * and exactly N force estimates F_0..F_{N-1} (the counts of the paper's tables).
 * Q_out gets (N+1)*dim numbers, Q_0..Q_N; P_out, if not NULL, gets N*dim numbers, the leap-frog
 * velocities P_{1/2}..P_{N-1/2}. nout is the capacity of Q_out in points (>= N+1). */
int kz_hmm_run(const kz_vib2 *m, const kz_hmm_params *p, const double *Q0, const double *P0,
               double *Q_out, double *P_out, long long nout, kz_report *r);

/* One step of the symplectic one-step form of Algorithm 2 (Sec. 2.5) on (Q, P): used to check
 * reversibility (H < 0 allowed) and symplecticity. Only the asynchronous variant. */
int kz_hmm_step(const kz_vib2 *m, const kz_hmm_params *p, double *Q, double *P, kz_report *r);

/* Number of macro steps round(T/H) if T/H is within 1e-9 of an integer, else -1. */
long long kz_steps_in(double T, double H);

/* ========================================================================================== */
/* Variational multirate integrators.
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

/* Work sizes (doubles, ints) that kz_arrow_solve needs for the given shape and solver.
 * p nb + na must fit an int; the DENSE solver is also limited to p nb + na <= 2e4 (its
 * (p nb + na)^2 workspace); otherwise KZ_EDOMAIN with parameter 'p'. */
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
 * Jacobian assemblies (jac_evals, one per Newton iteration) and force evaluations (force_evals:
 * one gradient of V per quadrature point of V and one of W per quadrature point of W, per micro
 * interval, per residual evaluation, i.e. (n_V + n_W) p (iterations + 1) per step; n = 1 for the
 * midpoint and rectangle rules, 2 for the trapezoid with 0 < alpha < 1). Each Jacobian assembly
 * also evaluates the Hessians of V and W at the same points; these are not counted separately. */
int kz_vmi_step(const kz_vmi_model *m, const kz_vmi_params *P, double t, double *y,
                double *micro, double *timing, kz_report *r);

/* N macro steps from y0 at t = 0. out receives the macro nodes k = 0..N, (N+1) rows of
 * 2 (ns + nf) numbers (capacity nout rows); micro (may be NULL) receives every micro node
 * j = k p + m = 0..N p, rows (qf, pf) (capacity nmicro rows). On a Newton failure the report
 * names "newton" with the macro step and time; the rows before it are valid. */
int kz_vmi_run(const kz_vmi_model *m, const kz_vmi_params *P, long long N, const double *y0,
               double *out, long long nout, double *micro, long long nmicro, double *timing,
               kz_report *r);

/* Energies at a state y: e[0] kinetic 1/2 p' M^-1 p, e[1] V, e[2] W. A measurement: counts
 * nothing in r (r only receives failure diagnostics). */
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

/* ========================================================================================== */
/* Stroboscopic averaging, LISP and multirevolution.
 *
 * Stroboscopic averaging (SAM), Kirchgraber's LISP and multirevolution Runge-Kutta:
 * M. P. Calvo, Ph. Chartier, A. Murua, J. M. Sanz-Serna, "Numerical stroboscopic averaging for
 * ODEs and DAEs", Appl. Numer. Math. 61 (2011) 1077-1095, Secs. 3-5, eqs. (25), (26), (29), (32).
 * With the steppers they are composed from: Strang splitting of two sub-flows and the
 * Dormand-Prince 5(4) pair with an ode45-like step controller; and the two test problems
 * (perturbed Kepler (19) and van der Pol (17)).
 *
 * Time variable: every system here is y' = f(t, y) whose fast oscillation has period `period`
 * in the system's own time (2 pi eps in t, or 2 pi in tau = t/eps, where the Kepler and van der
 * Pol models are written). A micro-step is h = period / n.
 */

/* ---------- Strang splitting (kz_split.c) ---------------------------------------------------- */

/* A sub-flow: advance y (in place) by a step h (h may be negative) from time t. A failed flow
 * may leave y modified: the caller (kz_strang_step) restores it. */
typedef int (*kz_flow_fn)(void *par, double t, double h, double *y, kz_report *r);

/* y' = A(t, y) + B(t, y) with (approximate) flows of A and B. Strang's symmetric step is
 * phi_A(h/2) o phi_B(h) o phi_A(h/2): flow_a is applied first and last. */
typedef struct kz_split {
  int dim;
  kz_flow_fn flow_a; /* the outer half-steps */
  kz_flow_fn flow_b; /* the inner full step */
  void *par;
} kz_split;

/* One Strang step of size h (h < 0 allowed; the step is symmetric, so the step with -h is its
 * exact inverse when the sub-flows are symmetric). work needs dim doubles (the state on entry,
 * restored on failure). Counts one micro-step and two force evaluations (the two A half-steps). */
int kz_strang_step(const kz_split *s, double t, double h, double *y, double *work, kz_report *r);
/* n Strang steps of size h from t. */
int kz_strang_run(const kz_split *s, double t, double h, long long n, double *y, kz_report *r);

/* ---------- Dormand-Prince 5(4) (kz_dopri.c) ------------------------------------------------- */

enum kz_dopri_mode {
  KZ_DOPRI_CONSTANT = 0, /* the 5th-order solution with a constant step h */
  KZ_DOPRI_ODE45 = 1     /* variable steps with MATLAB ode45's controller (Shampine & Reichelt) */
};

typedef struct kz_dopri_params {
  int mode;    /* enum kz_dopri_mode */
  double h;    /* CONSTANT: the step (> 0); ODE45: initial step, 0 = automatic (ode45's rule) */
  double rtol; /* ODE45: relative tolerance (> 0) */
  double atol; /* ODE45: absolute tolerance (> 0) */
  double hmax; /* ODE45: largest step; 0 = 0.1 |tfinal - t0| (ode45's default) */
} kz_dopri_params;

/* Integrate y' = f(t, y) from (t0, y0) through the increasing output times tout[0..nout-1]
 * (all > t0), writing y(tout[k]) to yout + k*dim. CONSTANT: every tout[k] - t0 must be a whole
 * number of steps h. ODE45: the last output time is tfinal, outputs inside a step use ode45's
 * continuous extension (ntrp45) and do not change the steps. If hist_t/hist_h are not NULL they
 * receive the start time and length of every accepted step (capacity hist_cap, else
 * KZ_EBUFFER); *nhist (if not NULL) gets their number. Counts accepted steps in macro_steps,
 * rejected ones in rejected, evaluations in force_evals (FSAL: 1 + 6 per attempted step, fewer when a stage fails).
 * ODE45: an attempt whose right-hand side fails, or whose y_new or f(y_new) is not finite, is
 * rejected and the step halved; KZ_ENOCONV (parameter "rhs" or "y", with step and time) once
 * the step is down to 16 ulp(t). CONSTANT: such an attempt ends the run with the rhs's status
 * (KZ_EDIVERGED for a non-finite y_new). */
int kz_dopri_run(const kz_sys1 *s, const kz_dopri_params *p, double t0, const double *y0,
                 long long nout, const double *tout, double *yout, double *hist_t,
                 double *hist_h, long long hist_cap, long long *nhist, kz_report *r);

/* ---------- Pluggable micro-integrators (kz_sam.c) ------------------------------------------- */

enum kz_micro_kind {
  KZ_MICRO_RK4 = 0,   /* classical RK4 on sys */
  KZ_MICRO_STRANG = 1 /* Strang splitting of split */
};

/* What the micro-solver integrates and how: kind selects a stepper from an internal const
 * table; sys or split is the problem it needs (the other may be NULL). */
typedef struct kz_micro {
  int kind;              /* enum kz_micro_kind */
  const kz_sys1 *sys;    /* KZ_MICRO_RK4 */
  const kz_split *split; /* KZ_MICRO_STRANG */
} kz_micro;

/* Dimension of the micro problem (or -1 if m is not valid). */
int kz_micro_dim(const kz_micro *m);
/* n steps of size h of the micro-integrator from time t (h < 0 integrates backward): the
 * conventional integration of the oscillatory problem. On failure y is as on entry and
 * fail_step is the index of the failed micro-step. */
int kz_micro_run(const kz_micro *m, double t, double h, long long n, double *y, kz_report *r);

/* ---------- SAM, LISP, multirevolution (kz_sam.c, kz_sam_mr.c) ------------------------------- */

enum kz_sam_diff {
  KZ_SAM_CENTRAL2 = 0, /* (25): [Psi(Y) - Psi^-1(Y)] / (2 T), 2n micro-steps */
  KZ_SAM_CENTRAL4 = 1, /* (26): [-Psi^2 + 8 Psi - 8 Psi^-1 + Psi^-2](Y) / (12 T), 4n */
  KZ_SAM_LISP2 = 2,    /* (29), Kirchgraber's second-order recovery (LISP), 2n, forward only */
  KZ_SAM_FORWARD = 3   /* [Psi(Y) - Y] / T, first order, n */
};

typedef struct kz_sam_params {
  double period; /* T: the period of the oscillation in the system's time (> 0) */
  double t0;     /* origin of the stroboscopic grid: every micro-integration starts here */
  long long n;   /* micro-steps per period (>= 1): h = T / n */
  int diff;      /* enum kz_sam_diff */
} kz_sam_params;

/* The recovered averaged field F~(Y) (dim numbers) from micro-integrations started at t0.
 * Counts the micro-steps; force_evals are those of the micro-solver. */
int kz_sam_force(const kz_micro *m, const kz_sam_params *p, const double *Y, double *F,
                 kz_report *r);

enum kz_macro_kind {
  KZ_MACRO_RK4 = 0,  /* classical RK4, constant step H */
  KZ_MACRO_DP5 = 1,  /* Dormand-Prince 5th-order solution, constant step H */
  KZ_MACRO_ODE45 = 2 /* Dormand-Prince 5(4) with ode45's step control (rtol, atol, hmax) */
};

typedef struct kz_macro {
  int kind;    /* enum kz_macro_kind */
  double H;    /* RK4, DP5: the macro step (> 0); ODE45: initial step, 0 = automatic */
  double rtol; /* ODE45 */
  double atol; /* ODE45 */
  double hmax; /* ODE45: 0 = 0.1 |tfinal - t0| */
} kz_macro;

/* SAM (Sec. 3.2): integrate the averaged system Y' = F~(Y) with the macro-solver from
 * (p->t0, y0) and write Y at the output times tout[0..nout-1] (increasing, > t0; for constant
 * macro steps each must be a whole number of steps H from t0) into yout (nout*dim). With
 * p->diff = KZ_SAM_LISP2 this is LISP. hist_t/hist_h (may be NULL) get the accepted macro steps
 * (start, length), capacity hist_cap; *nhist their number. Report: micro_steps and force_evals
 * of the micro-solver, macro_steps and rejected of the macro-solver. */
int kz_sam_run(const kz_micro *m, const kz_sam_params *p, const kz_macro *mac, const double *y0,
               long long nout, const double *tout, double *yout, double *hist_t,
               double *hist_h, long long hist_cap, long long *nhist, kz_report *r);

/* Multirevolution RK4 (32) (Sec. 4.2): nmacro steps, each approximating Psi^M (M periods,
 * M > 4) with four forward one-period micro-integrations of p->n steps; y in place
 * (y at t0 + nmacro*M*T on success). p->diff is ignored. */
int kz_mr_run(const kz_micro *m, const kz_sam_params *p, long long M, long long nmacro,
              double *y, kz_report *r);
/* The coefficients of (32) for a given M: b[4] and a[16] (row-major a_ij, i, j = 1..4). */
int kz_mr_coefficients(long long M, double *b, double *a, kz_report *r);

/* ---------- Models (kz_kepler.c, kz_vdp.c) --------------------------------------------------- */

/* Perturbed Kepler problem (Sec. 2(iv), 5.1), in the fictitious time tau of (19):
 * y = (x1, x2, v1, v2), x' = lam v, v' = lam (-x/r^3 + eps G(x)), G = -grad V,
 * V = -1/(2 r^3) + 3 x1^2/(2 r^5), lam = (-2E)^(-3/2), E = |v|^2/2 - 1/r (the printed -2/r and
 * exponent 3/2 corrected). Period 2 pi in tau for eps = 0. */
typedef struct kz_kepler {
  double eps;
} kz_kepler;

/* The full system (19) as a kz_sys1 (par = p, which must outlive s). */
int kz_kepler_sys1(kz_sys1 *s, kz_kepler *p, kz_report *r);
/* The splitting of Sec. 5.1.2: A = perturbation by one implicit-midpoint step, B = the exact
 * Kepler flow (so Strang = midpoint(h/2) o Kepler(h) o midpoint(h/2)). */
int kz_kepler_split(kz_split *s, kz_kepler *p, kz_report *r);
/* The exact unperturbed flow phi^(1)_tau (closed form, Kepler's equation by Newton):
 * yout = phi(tau)(y); needs E(y) < 0. yout may equal y. */
int kz_kepler_flow(const double *y, double tau, double *yout, kz_report *r);
/* The unperturbed Kepler energy E = |v|^2/2 - 1/r; NaN if y is NULL or not finite. */
double kz_kepler_energy(const double *y);

/* van der Pol (17), Sec. 5.2: y = (q, p), q' = p, p' = -q + eps (1 - q^2) p (tau time). */
typedef struct kz_vdp {
  double eps;
} kz_vdp;

int kz_vdp_sys1(kz_sys1 *s, kz_vdp *p, kz_report *r);
/* A = the perturbation p' = eps (1 - q^2) p (exact), B = the rotation (exact). */
int kz_vdp_split(kz_split *s, kz_vdp *p, kz_report *r);

#ifdef __cplusplus
}
#endif
#endif
