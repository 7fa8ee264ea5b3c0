/* kapitza.h -- the one public header of libkapitza.
 *
 * Numerical integrators for highly oscillatory and multirate mechanical systems:
 * heterogeneous multiscale methods (Calvo & Sanz-Serna 2010; Sharp, Tsai & Engquist 2005;
 * Fredbo), stroboscopic averaging (Calvo, Chartier, Murua & Sanz-Serna 2011) and variational
 * multirate integrators (Ober-Bloebaum, Wenger, Gail & Leyendecker).
 *
 * Rules this header keeps, so that LuaJIT's ffi.cdef can read it verbatim once the lines that
 * start with '#' are dropped: constants are enums, never macros; no varargs; no struct is passed
 * or returned by value; every buffer is owned by the caller; every function that can fail returns
 * an int status (enum kz_status) explained by kz_strerror(); nothing here aborts or keeps global
 * mutable state, so two runs in one process never interfere.
 *
 * Layers
 *  1. Systems (kz_sys): y' = f(t, y) with optional structure (second-order form, split flows).
 *  2. The stepper registry (kz_step_type): every one-step method, written once, in one table;
 *     the drivers kz_run / kz_trajectory integrate any system with any registered stepper.
 *  3. Methods composed from steppers: HMM (kz_hmm_*), SAM / LISP / multirevolution (kz_sam_*,
 *     kz_mr_*), the ode45 controller, variational multirate integrators (kz_vmi_*).
 *  4. Models: each fills the system structs its methods need and owns its reconstruction.
 *
 * Conventions
 *  - A "report" (kz_report) is passed to every method: it counts the work done (micro-steps,
 *    force/right-hand-side evaluations, macro steps, Newton iterations, rejected steps) and, when
 *    a call fails, names the offending parameter and the step/time at which it failed.
 *  - Work counters are accumulated, never reset by a method: call kz_report_init() first.
 *  - A failed call leaves the caller's state arrays as they were on entry, unless the function's
 *    comment says otherwise.
 *  - Arguments are checked once per call of a run or leg, never once per step.
 */
#ifndef KAPITZA_H
#define KAPITZA_H

#include <stddef.h>

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

/* Number of steps round(T/H) if T/H is within 1e-9 of an integer >= 1, else -1. */
long long kz_steps_in(double T, double H);

/* ------------------------------------------------------------------------------------------ */
/* Systems                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* y' = f(t, y). Every function returns KZ_OK or a status. */
typedef int (*kz_rhs_fn)(void *par, double t, const double *y, double *dydt);
/* Second-order form: the (mass-normalised) force a(t, q). */
typedef int (*kz_accel_fn)(void *par, double t, const double *q, double *a);
/* A sub-flow for splitting methods: advance y in place by h (h may be negative) from time t.
 * A failed flow may leave y modified: the stepper restores it. */
typedef int (*kz_flow_fn)(void *par, double t, double h, double *y, kz_report *r);

/* The one system type every stepper takes: y' = f(t, y) of dimension dim, plus the optional
 * structure that some steppers need (zero when absent; ffi.new and "= {dim, rhs, par}" zero it):
 *  - second-order form (velocity Verlet, symplectic Euler, leapfrog): y = (q, v), dim = 2 nq,
 *    q' = v, v' = accel(t, q). When rhs is NULL, f is (v, accel(t, q)).
 *  - split form (Strang): f = A + B with the flows flow_a of A and flow_b of B.
 * par is passed to rhs, accel and the flows. */
typedef struct kz_sys {
  int dim;
  kz_rhs_fn rhs;
  void *par;
  int nq;
  kz_accel_fn accel;
  kz_flow_fn flow_a;
  kz_flow_fn flow_b;
  const struct kz_constraints *con; /* mechanical DAE structure (constrained steppers), or NULL */
} kz_sys;

/* f(t, y) of s into f (dim numbers), through rhs or the second-order form; counts one force
 * evaluation. A measurement and test helper; steppers call the same code internally. */
int kz_sys_eval(const kz_sys *s, double t, const double *y, double *f, kz_report *r);

/* ------------------------------------------------------------------------------------------ */
/* The stepper registry (GSL odeiv2 manner): kz_step.c and one kz_step_<name>.c per method     */
/* ------------------------------------------------------------------------------------------ */

/* What a stepper needs from the system (bit set). */
enum kz_step_needs {
  KZ_NEEDS_RHS = 1,   /* f(t, y): rhs, or the second-order form */
  KZ_NEEDS_ACCEL = 2, /* the second-order form (nq > 0, accel) */
  KZ_NEEDS_FLOWS = 4, /* the split form (flow_a, flow_b) */
  KZ_NEEDS_CONSTRAINTS = 8 /* the constraints con (SHAKE, RATTLE, HERK3; see kz_constraints) */
};

/* One step of size h (h < 0 integrates backward) from (t, y), y updated in place.
 * f_in: f(t, y) if the caller has it (may be NULL; steppers that start with f(t, y) then skip
 * that evaluation). f_out: if not NULL, receives f(t + h, y_new) -- free for steppers with
 * fsal = 1, one more evaluation (counted) otherwise. work: kz_step_work(T, dim) doubles.
 * A step counts its evaluations in force_evals and, on success, one micro-step. A failed
 * evaluation returns its status (parameter "rhs", "accel" or the flow's, with the time) and
 * leaves y as it was. apply does not check its arguments and does not test the result for
 * finiteness: the drivers do both (once per run, and at every recorded output). */
typedef int (*kz_step_apply_fn)(const kz_sys *s, double t, double h, double *y,
                                const double *f_in, double *f_out, double *work, kz_report *r);
/* Doubles of workspace for a system of dimension dim. */
typedef size_t (*kz_step_work_fn)(int dim);
/* Optional fused loop: n steps of size h, step k starting at t + (k0 + k) h, from y with
 * f = f(t + k0 h, y) given; y and f are updated to the last node, and after step k the weighted
 * derivative w[k+1] * f_{k+1}[lo .. lo+cnt) is added to acc (a quadrature along the numerical
 * trajectory: the HMM's kernel average; cnt = 0 and w = NULL for a plain run). The same
 * arithmetic as n calls of apply with f_in/f_out chained, without a call per step. On failure
 * y and f are unspecified and r->fail_step is the index k of the failed step. NULL when a
 * stepper has none (callers then loop over apply). work: kz_step_work(T, dim) doubles. */
typedef int (*kz_step_leg_fn)(const kz_sys *s, double t, long long k0, double h, long long n,
                              double *y, double *f, const double *w, int lo, int cnt,
                              double *acc, double *work, kz_report *r);
typedef struct kz_step_type {
  const char *name;        /* registry key: "rk4", "verlet", ... */
  const char *description; /* the method and its literature reference */
  int order;               /* classical order of convergence */
  int reversible;          /* 1: symmetric, the step with -h inverts the step with h */
  int needs;               /* enum kz_step_needs bits */
  int fsal;                /* 1: f_out costs no extra evaluation (first same as last) */
  int evals;               /* force evaluations per step of a run (fsal: plus one to start) */
  kz_step_work_fn work;
  kz_step_apply_fn apply;
  kz_step_leg_fn leg;      /* may be NULL */
} kz_step_type;

/* The registered steppers, exported as pointers (adding one: a kz_step_<name>.c defining its
 * kz_step_type, and one line in the table of kz_step.c). */
extern const kz_step_type *const kz_step_euler;    /* forward Euler, order 1 */
extern const kz_step_type *const kz_step_symeuler; /* symplectic Euler, kick then drift, 1 */
extern const kz_step_type *const kz_step_verlet;   /* velocity Verlet, kick-drift-kick, 2 */
extern const kz_step_type *const kz_step_leapfrog; /* leapfrog, drift-kick-drift, 2 */
extern const kz_step_type *const kz_step_rk4;      /* classical Runge-Kutta, 4 */
extern const kz_step_type *const kz_step_strang;   /* Strang splitting A(h/2) B(h) A(h/2), 2 */
extern const kz_step_type *const kz_step_dp5;      /* Dormand-Prince 5(4), 5th-order solution */

/* The registry: the number of steppers, the i-th (NULL out of range), lookup by name (NULL if
 * unknown). */
int kz_step_count(void);
const kz_step_type *kz_step_at(int i);
const kz_step_type *kz_step_find(const char *name);

/* Doubles of workspace T needs for dimension dim (0 for bad arguments). */
size_t kz_step_work(const kz_step_type *T, int dim);
/* Can T integrate s? KZ_ENULL ("stepper", "system"), KZ_EDOMAIN ("dim", "nq") or KZ_EMODEL
 * (parameter "stepper": s lacks what T needs). Every method calls it once per run. */
int kz_step_check(const kz_step_type *T, const kz_sys *s, kz_report *r);

/* One checked step of T (a convenience for tests and single steps: the loops below call the
 * stepper's apply directly). A non-finite result is KZ_EDIVERGED; y is unchanged on failure.
 * Here and in kz_run, kz_trajectory and kz_micro_run the step h is finite and not zero
 * (KZ_ENONFINITE or KZ_EDOMAIN, parameter "h"); a negative h integrates backward. */
int kz_step_apply(const kz_step_type *T, const kz_sys *s, double t, double h, double *y,
                  kz_report *r);
/* n steps of size h from t (step k starts at t + k h). On failure y is as on entry and
 * r->fail_step is the index of the failed step (or n for a non-finite end state). */
int kz_run(const kz_step_type *T, const kz_sys *s, double t, double h, long long n, double *y,
           kz_report *r);
/* nout*sub steps of size h from t0 (step k starts at t0 + k h), recording y every sub steps:
 * out gets (nout+1)*dim numbers, the initial y first; y holds the final state (restored on
 * failure, when out is unspecified). Reference solutions are computed with it. sub >= 1 and
 * 0 <= nout with nout*sub representable (KZ_EDOMAIN "sub", "nout"). */
int kz_trajectory(const kz_step_type *T, const kz_sys *s, double t0, double h, long long sub,
                  long long nout, double *y, double *out, kz_report *r);

/* ------------------------------------------------------------------------------------------ */
/* Kernels (Calvo & Sanz-Serna (2.12)-(2.13); Sharp, Tsai & Engquist (3.5); Fredbo Fig. 3)     */
/* K even on (-1, 1) with unit mass; K_eta(t) = (2/eta) K(2t/eta) on |t| < eta/2.              */
/* ------------------------------------------------------------------------------------------ */

enum kz_kernel_kind {
  KZ_KERNEL_UNIFORM = 0,     /* K = 1/2: "simple filtering" (2.16) with eta = 2 pi / omega */
  KZ_KERNEL_EXPONENTIAL = 1, /* K^exp(1) = C1 exp(5 / (x^2 - 1)): (2.13), and (3.5) of Sharp,
                              * Tsai & Engquist with x = 2u (their 422.11 = 2 C1, printed) */
  KZ_KERNEL_COSINE = 2,      /* K = (1 + cos(pi x)) / 2 */
  KZ_KERNEL_EXP2 = 3,        /* K^exp(2) = C2 exp(5 / (4 (x^2 - 1))) (Fredbo, Fig. 3b) */
  KZ_KERNEL_END = 4
};

/* The kernel value K(x) (normalised: its integral over (-1, 1) is 1); 0 outside (-1, 1). */
double kz_kernel_value(int kind, double x);
/* The normalising constant C (K = C * shape): closed form for the uniform and cosine kernels,
 * the trapezoidal rule on 2^14 panels for the exponential ones (C1 = 211.0754,
 * C2 = 3.073919). */
double kz_kernel_constant(int kind);
/* Moment  int_{-1}^{1} x^k K(x) dx, by quadrature. */
double kz_kernel_moment(int kind, int k);

/* Quadrature weights for  int K_eta(t) f(t) dt  on the micro grid t_j = j h, eta/2 = n h:
 * j = -n..n (two-sided, 2n+1 weights; half = 0) or j = 0..n (one-sided half window for even
 * integrands, n+1 weights; half = 1, the weights then approximate 2 int_0^{eta/2}). The
 * trapezoidal rule on the grid. constant = 0: the weights are normalised to sum to 1 exactly (a
 * discrete unit mass, the default of every method); constant > 0: K = constant * shape is used
 * as it stands (w_j = K(j/n)/n, doubled on a half window), e.g. a constant printed in a paper. */
int kz_kernel_weights(int kind, long long n, int half, double constant, double *w,
                      kz_report *r);

/* ------------------------------------------------------------------------------------------ */
/* Fast-forced systems and the HMM (kz_hmm.c: force estimation; kz_hmm_macro.c: macro schemes) */
/* ------------------------------------------------------------------------------------------ */

/* A system driven by a fast periodic forcing: y' = f(theta, y), f 2 pi-periodic in the fast
 * phase theta = omega t + theta0 (Calvo & Sanz-Serna (2.9), (3.1); Sharp, Tsai & Engquist
 * (1.1) with omega = 2 pi / eps). Second-order form as in kz_sys: nq > 0, y = (q, v),
 * v' = accel(theta, q). The model owns its reconstruction: the micro initial state y (dim)
 * from the macro state Y = (Q, P) at the phase theta of t_n (NULL = identity). */
typedef int (*kz_phase_rhs_fn)(void *par, double theta, const double *y, double *dydt);
typedef int (*kz_phase_accel_fn)(void *par, double theta, const double *q, double *a);
typedef int (*kz_recon_fn)(void *par, double theta, const double *Y, double *y);

typedef struct kz_vib {
  int dim;
  int nq;
  double omega;              /* angular frequency of the forcing */
  double theta0;             /* phase at t = 0 */
  int even_in_theta;         /* f(-theta, .) = f(theta, .): Algorithm 2 may halve its windows */
  kz_phase_rhs_fn rhs;       /* may be NULL in the second-order form */
  kz_phase_accel_fn accel;   /* the second-order form's force (nq > 0) */
  kz_recon_fn reconstruct;   /* NULL: y = Y */
  void *par;
} kz_vib;

/* Macro schemes on the macro state Y = (Q, P), nq numbers each, with force estimates F~ at
 * (Q, P~; t): */
enum kz_hmm_macro {
  KZ_HMM_FE = 0,       /* Sharp et al. Alg. 3.1: Q += H P_n (or H K*v), P += H F~(Q_n, P_n; t_n) */
  KZ_HMM_IFE = 1,      /* Alg. 3.2, symplectic Euler: P += H F~(Q_n, P_n; t_n), Q += H P_{n+1} */
  KZ_HMM_VERLET = 2,   /* Alg. 3.3: P_{n+1/2} = P_n + H/2 F~(Q_n, P_n; t_n), Q += H P_{n+1/2},
                        * P_{n+1} = P_{n+1/2} + H/2 F~(Q_{n+1}, P_{n+1/2}; t_{n+1}): two estimates
                        * per step (one with fsal = 1: the end estimate is the next start's) */
  KZ_HMM_LEAPFROG = 3, /* Calvo & Sanz-Serna steps 3-4: P_{1/2} = P_0 + H/2 F_0,
                        * P_{n+1/2} = P_{n-1/2} + H F_n, Q += H P_{n+1/2}, with F_n estimated at
                        * (Q_n, P~_n = P_{n-1/2} + H/2 F_{n-1}): one estimate per step */
  KZ_HMM_VE = 4,       /* Fredbo Alg. 2 (HMM-VE): as VERLET, the end estimate at (Q_{n+1},
                        * P^_{n+1} = P_n + H F_n) and always reused: T/H + 1 estimates */
  KZ_HMM_MACRO_END = 5
};

/* The fast phase at the start of each micro-integration (the window centre t_n). */
enum kz_hmm_phase {
  KZ_PHASE_EXACT = 0, /* theta0 + 2 pi frac(t_n omega / 2 pi), frac of n H omega / 2 pi taken
                       * without round-off when H omega / 2 pi is within 1e-9 of a whole number
                       * (Sharp et al., notes A13), plus omega s along the window */
  KZ_PHASE_NAIVE = 1, /* (omega t_n + theta0) + omega s in floating point (Calvo & Sanz-Serna):
                       * one rounding at t_n, the same at every node of the window */
  KZ_PHASE_ZERO = 2,  /* theta = omega s: every micro-integration starts at phase 0 (Alg. 2) */
  KZ_PHASE_TIME = 3   /* omega (t_n + s) + theta0: the phase of the absolute micro time, rounded
                       * at every node (the naive sin(2 pi t / eps) of Sharp et al., notes A13) */
};

/* Micro initial data from the macro state. */
enum kz_hmm_recon {
  KZ_RECON_MODEL = 0,    /* the model's reconstruct (identity when it has none) */
  KZ_RECON_IDENTITY = 1, /* y = (Q, P): the reconstruction switched off */
  KZ_RECON_ZERO_V = 2    /* y = (Q, 0): Calvo & Sanz-Serna (2.14), Algorithm 2 */
};

/* Presets for kz_hmm_params_init. */
enum kz_hmm_preset {
  KZ_HMM_PRESET_CS1 = 1,  /* Calvo & Sanz-Serna Algorithm 1: leapfrog macro, Verlet micro,
                           * naive phase, the model's reconstruction (the lift (2.7)) */
  KZ_HMM_PRESET_CS2 = 2,  /* Algorithm 2: leapfrog, Verlet, phase 0, p = 0 (2.14), half window */
  KZ_HMM_PRESET_STE = 3   /* Sharp, Tsai & Engquist HMM-V-v: Verlet macro and micro, exact
                           * phase, the model's reconstruction (3.4) */
};

typedef struct kz_hmm_params {
  int macro;                      /* enum kz_hmm_macro */
  const kz_step_type *micro;      /* any registered stepper the micro system supports */
  int kernel;                     /* enum kz_kernel_kind */
  double kernel_constant;         /* 0: weights normalised to sum 1; > 0: K = constant*shape */
  int phase;                      /* enum kz_hmm_phase */
  int recon;                      /* enum kz_hmm_recon */
  int half_window;                /* integrate 0..eta/2 only (needs phase 0, p = 0, even f) */
  int fe_drift_average;           /* FE only: Q += H K*v (the kernel average of the micro
                                   * velocity) instead of Q += H P_n */
  int fsal;                       /* VERLET only: reuse the end-of-step estimate */
  double H;                       /* macro step; T/H must be a whole number */
  double T;                       /* final time */
  double eta;                     /* window length; (eta/2)/h must be a whole number */
  double h;                       /* micro step */
} kz_hmm_params;

/* Zero p and set the macro scheme, micro stepper, phase and reconstruction of a preset
 * (enum kz_hmm_preset); kernel, H, T, eta and h are left to the caller. */
int kz_hmm_params_init(kz_hmm_params *p, int preset, kz_report *r);

/* The force estimate F~ (nq numbers) at the macro state Y = (Q, P) and time t: reconstruction,
 * micro-integration forward and backward over the window, kernel average of the micro force
 * v' (Sharp et al. (3.4) F~_(2); Calvo & Sanz-Serna (2.11), (2.15)). Fv (may be NULL) receives
 * the kernel average of the micro velocity, F~_(1) (nq numbers). */
int kz_hmm_force(const kz_vib *m, const kz_hmm_params *p, double t, const double *Y, double *F,
                 double *Fv, kz_report *r);

/* The seam of the slow-variable HMM (Fredbo, Algorithms 3-4; Ariel, Engquist & Tsai): the
 * kernel average over the window of an observable of the micro solution. The micro solution
 * starts from y0 (dim numbers, already reconstructed) at time t (the phase follows p->phase);
 * obs(par, theta, y, f, out) writes nobs numbers for the micro state y and its derivative
 * f = f(theta, y) at every node; avg receives their weighted sum. For instance
 * obs = grad xi(y) . f gives the averaged slow derivatives d/dt xi of Algorithm 3, from which
 * a least-squares solve recovers the macro update. NULL obs averages f itself (nobs = dim). */
typedef int (*kz_observe_fn)(void *par, double theta, const double *y, const double *f,
                             double *out);
int kz_hmm_average(const kz_vib *m, const kz_hmm_params *p, double t, const double *y0,
                   kz_observe_fn obs, void *obs_par, int nobs, double *avg, kz_report *r);

/* Run the HMM from Y0 = (Q0, P0) at t = 0 to T: N = T/H macro steps of p->macro. Y_out gets
 * the macro states at t_n = n H, n = 0..N, (N+1)*dim numbers (capacity nout rows >= N+1); for
 * the leapfrog scheme P_n is the step-4 velocity P~_n (P_0 as given). Counts force estimates
 * through the micro-steps and evaluations; macro_steps = N. On failure the rows before the
 * failing step are valid and the report names the step and time. */
int kz_hmm_run(const kz_vib *m, const kz_hmm_params *p, const double *Y0, double *Y_out,
               long long nout, kz_report *r);

/* One macro step of p->macro (H of either sign) from Y at time t, in place: the symplectic
 * one-step form of Sec. 2.5 of Calvo & Sanz-Serna is the VERLET scheme with the Algorithm 2
 * settings (used to check reversibility and symplecticity). LEAPFROG is a two-step recursion
 * and is refused (KZ_EMODEL, parameter "macro"). */
int kz_hmm_step(const kz_vib *m, const kz_hmm_params *p, double t, double *Y, kz_report *r);

/* ------------------------------------------------------------------------------------------ */
/* Vibrated pendulums                                                                          */
/* ------------------------------------------------------------------------------------------ */

/* Vibrated inverted pendulum, Calvo & Sanz-Serna (2.2)-(2.3), q measured from the upward
 * vertical: q'' = l^-1 (g + vmax omega cos(omega t + theta0)) sin q (kz_pendulum.c). */
typedef struct kz_pendulum {
  double l;      /* rod length [m] */
  double g;      /* gravity [m s^-2] */
  double vmax;   /* amplitude of the pivot velocity [m s^-1] */
  double omega;  /* angular frequency of the vibration [s^-1] */
  double theta0; /* phase at t = 0 [rad] */
} kz_pendulum;

/* The fast-forced form (2.9) with the velocity lift (2.7) as its reconstruction:
 * y = (Q, P + l^-1 vmax sin(theta) sin Q). p must outlive m. */
int kz_pendulum_vib(kz_vib *m, kz_pendulum *p, kz_report *r);
/* The same system in time form, q'' = a(t, q), y = (q, v), for direct integration. */
int kz_pendulum_sys(kz_sys *s, kz_pendulum *p, kz_report *r);
/* The averaged equation (2.5)-(2.6): Q'' = F(Q) = (g/l - vmax^2/(2 l^2) cos Q) sin Q. */
int kz_pendulum_averaged_sys(kz_sys *s, kz_pendulum *p, kz_report *r);
/* F(Q) of (2.6), evaluated directly (NaN for a NULL p or a non-finite Q). */
double kz_pendulum_averaged_force(const kz_pendulum *p, double Q);

/* The inverted pendulum of Sharp, Tsai & Engquist (1.1) = (3.1), theta from the upward vertical
 * (kz_ste.c): l theta'' = (g + eps^-1 sin(2 pi t / eps)) sin theta, the whole right side divided
 * by l (notes A1). Phase theta = 2 pi t / eps (omega = 2 pi / eps). */
typedef struct kz_ste {
  double eps; /* period of the forcing [s] */
  double g;   /* [m s^-2] */
  double l;   /* [m] */
} kz_ste;

/* The fast-forced form with the reconstruction (3.4): y = (Theta, Omega - sin(Theta)
 * cos(theta_n) / (2 pi l)). */
int kz_ste_vib(kz_vib *m, kz_ste *p, kz_report *r);
/* The full equation (1.1) in time form, y = (theta, omega); the phase is 2 pi frac(t/eps)
 * (exact for t on the grid of eps). */
int kz_ste_sys(kz_sys *s, kz_ste *p, kz_report *r);
/* The averaged equation (3.2): Theta'' = (g sin Theta - sin Theta cos Theta / (8 pi^2 l)) / l. */
int kz_ste_averaged_sys(kz_sys *s, kz_ste *p, kz_report *r);
/* The averaged force of (3.2) (NaN for a NULL p or a non-finite Theta). */
double kz_ste_averaged_force(const kz_ste *p, double Theta);
/* The effective potential V(x) = g cos x + sin^2 x / (16 pi^2 l) of Sec. 4, whose energy
 * l Omega^2/2 + V(Theta) (3.2) conserves. */
double kz_ste_potential(const kz_ste *p, double Theta);

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
/* Solve A x = b with the factors of kz_lu_factor; b (n numbers) is overwritten by x. The pivots
 * are checked first: each piv[k] must lie in k..n-1, as kz_lu_factor writes them (else
 * KZ_EDOMAIN, parameter "piv", and b is unchanged). */
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
  int predictor;           /* Newton's initial guess: enum kz_vmi_predictor (0 = Verlet) */
} kz_vmi_params;

/* State layout (macro node): y = (qs[ns], qf[nf], ps[ns], pf[nf]), 2 (ns + nf) numbers, where
 * qf = q_k^{f,0} and pf = p_k^{f,0} (3.6)-(3.10). */

/* Timing (optional, caller-owned, KZ_VMI_T_N numbers, accumulated, seconds on a monotonic clock):
 * the Jacobian passes (Hessian evaluations and block assembly: t_Jacobi), the linear solves incl.
 * matrix set-up (t_dx), the whole call, the residual passes (the gradient, i.e. force,
 * evaluations of V and W and the residual) and Newton's initial guess (the predictor). What the
 * call spends elsewhere (loop bookkeeping, copying, the clock itself) is the total minus the parts. */
enum kz_vmi_timing { KZ_VMI_T_JAC = 0, KZ_VMI_T_SOLVE = 1, KZ_VMI_T_TOTAL = 2, KZ_VMI_T_GRAD = 3,
                     KZ_VMI_T_PREDICT = 4, KZ_VMI_T_N = 5 };

/* One macro step from t on the state y (updated in place on success, unchanged on failure).
 * micro (may be NULL) receives the fast micro-node values of this interval, (p+1) rows of
 * (qf, pf) = 2 nf numbers, m = 0..p. Counts 1 macro step, p micro steps, Newton iterations,
 * Jacobian assemblies (jac_evals, one per Newton iteration) and force evaluations (force_evals:
 * one gradient of V per quadrature point of V and one of W per quadrature point of W, per micro
 * interval, per residual evaluation, i.e. (n_V + n_W) p (iterations + 1) per step; n = 1 for the
 * midpoint and rectangle rules, 2 for the trapezoid with 0 < alpha < 1; plus, with the Verlet
 * predictor, one gradient of V and one of W per node and march of the predictor). Each Jacobian
 * assembly also evaluates the Hessians of V and W at the same points; these are not counted
 * separately. */
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

/* The Hamiltonian equations (2.4) on y = (qs, qf, ps, pf) as a kz_sys (par = m, which must
 * outlive s): the reference solutions are computed from it with RK4. */
int kz_vmi_sys(kz_sys *s, const kz_vmi_model *m, kz_report *r);

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
 * Micro- and constant-step macro-solvers are registry steppers (RK4, Strang, DP5, ...); the
 * variable-step macro-solver is the ode45 controller below. The two test problems: perturbed
 * Kepler (19) and van der Pol (17).
 *
 * Time variable: every system here is y' = f(t, y) whose fast oscillation has period `period`
 * in the system's own time (2 pi eps in t, or 2 pi in tau = t/eps, where the Kepler and van der
 * Pol models are written). A micro-step is h = period / n.
 */

/* ---------- Dormand-Prince 5(4) with ode45's step control (kz_ode45.c) ---------------------- */

typedef struct kz_ode45_params {
  double h;    /* initial step, 0 = automatic (ode45's rule) */
  double rtol; /* relative tolerance (> 0) */
  double atol; /* absolute tolerance (> 0) */
  double hmax; /* largest step; 0 = 0.1 |tfinal - t0| (ode45's default) */
} kz_ode45_params;

/* Integrate y' = f(t, y) from (t0, y0) through the increasing output times tout[0..nout-1]
 * (all > t0) with the Dormand-Prince pair (the registry's kz_step_dp5 stages) and MATLAB
 * ode45's controller (Shampine & Reichelt 1997), writing y(tout[k]) to yout + k*dim. The last
 * output time is tfinal; outputs inside a step use the continuous extension ntrp45 and do not
 * change the steps. hist_t/hist_h (may be NULL) receive the start and length of every accepted
 * step (capacity hist_cap, else KZ_EBUFFER); *nhist (may be NULL) their number. Counts accepted
 * steps in macro_steps, rejected ones in rejected, evaluations in force_evals (FSAL: 1 + 6 per
 * attempted step, fewer when a stage fails). An attempt whose right-hand side fails, or whose
 * y_new or f(y_new) is not finite, is rejected and the step halved; KZ_ENOCONV (parameter
 * "rhs" or "y", with step and time) once the step is down to 16 ulp(t). */
int kz_ode45_run(const kz_sys *s, const kz_ode45_params *p, double t0, const double *y0,
                 long long nout, const double *tout, double *yout, double *hist_t,
                 double *hist_h, long long hist_cap, long long *nhist, kz_report *r);

/* ---------- SAM, LISP, multirevolution (kz_sam.c, kz_sam_mr.c) ------------------------------- */

/* The micro-solver: a registered stepper on the oscillatory system (e.g. kz_step_rk4 on the
 * full field, kz_step_strang on its split form). */
typedef struct kz_micro {
  const kz_step_type *type;
  const kz_sys *sys;
} kz_micro;

/* n steps of size h of the micro-solver from time t (h < 0 integrates backward): the
 * conventional integration of the oscillatory problem (kz_run). */
int kz_micro_run(const kz_micro *m, double t, double h, long long n, double *y, kz_report *r);

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
  KZ_MACRO_FIXED = 0, /* a registered stepper with the constant step H (RK4, DP5, ...) */
  KZ_MACRO_ODE45 = 1  /* Dormand-Prince 5(4) with ode45's step control (rtol, atol, hmax) */
};

typedef struct kz_macro {
  int kind;                  /* enum kz_macro_kind */
  const kz_step_type *type;  /* FIXED: the stepper (it must need only f) */
  double H;                  /* FIXED: the macro step (> 0); ODE45: initial step, 0 = automatic */
  double rtol;               /* ODE45 */
  double atol;               /* ODE45 */
  double hmax;               /* ODE45: 0 = 0.1 |tfinal - t0| */
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

/* The full system (19) and its splitting of Sec. 5.1.2 in one kz_sys (par = p, which must
 * outlive s): rhs, and flow_a = the perturbation by one implicit-midpoint step, flow_b = the
 * exact Kepler flow (so Strang = midpoint(h/2) o Kepler(h) o midpoint(h/2)). */
int kz_kepler_sys(kz_sys *s, kz_kepler *p, kz_report *r);
/* The exact unperturbed flow phi^(1)_tau (closed form, Kepler's equation by Newton):
 * yout = phi(tau)(y); needs E(y) < 0. yout may equal y. */
int kz_kepler_flow(const double *y, double tau, double *yout, kz_report *r);
/* The unperturbed Kepler energy E = |v|^2/2 - 1/r; NaN if y is NULL or not finite. */
double kz_kepler_energy(const double *y);

/* van der Pol (17), Sec. 5.2: y = (q, p), q' = p, p' = -q + eps (1 - q^2) p (tau time). */
typedef struct kz_vdp {
  double eps;
} kz_vdp;

/* The system and its splitting in one kz_sys: flow_a = the perturbation p' = eps (1 - q^2) p
 * (exact), flow_b = the rotation (exact). */
int kz_vdp_sys(kz_sys *s, kz_vdp *p, kz_report *r);

/* ========================================================================================== */
/* Constrained mechanical systems (DAEs): SHAKE, RATTLE, HERK3; the HMM and SAM for them.
 *
 * M. P. Calvo, J. M. Sanz-Serna, "Heterogeneous multiscale methods for mechanical systems with
 * vibrations" (seed 000), Sec. 4: the descriptor form (4.1)-(4.2), the
 * vibrated double pendulum (4.3), the SHAKE-SHAKE (Sec. 4.2) and RATTLE-SHAKE (Sec. 4.3)
 * asynchronous HMMs with simple filtering (2.16).
 * M. P. Calvo, Ph. Chartier, A. Murua, J. M. Sanz-Serna, "Numerical stroboscopic averaging for
 * ODEs and DAEs", Appl. Numer. Math. 61 (2011), Sec. 6: the GGL index-2 form (37)-(40), half-
 * explicit Runge-Kutta methods (45)-(48), HERK3 (Brasey & Hairer 1993), SAM for DAEs.
 * Files: kz_con.c (solves, checks), kz_step_shake.c, kz_step_rattle.c, kz_step_herk3.c,
 * kz_hmm_dae.c, kz_sam_dae.c, kz_dpend.c.
 * ========================================================================================== */

/* Solve counters (caller-owned, accumulated; zero them before a run). */
typedef struct kz_con_stats {
  long long pos_solves; /* position-constraint solves made (Newton on the multipliers) */
  long long vel_solves; /* velocity-constraint solves made (one linear m x m system each) */
} kz_con_stats;

/* g(q) into g (m numbers) and/or its Jacobian G(q) = dg/dq into G (m x nq, row-major); either
 * output may be NULL. Returns KZ_OK or a status. */
typedef int (*kz_con_fn)(void *par, const double *q, double *g, double *G);

/* The mechanical DAE structure of a kz_sys (its field con). With q the first nq components of
 * the state and v the last nq (dim = 2 nq; nq = the system's nq, or dim/2 in the rhs form):
 *   index 3 (Calvo & Sanz-Serna (4.1)-(4.2); SHAKE, RATTLE):
 *       M q'' = f(t, q) + G(q)^T lambda,   g(q) = 0;
 *   index 2, GGL (Calvo et al. (37)-(40); HERK3):
 *       q' = v + M^-1 G(q)^T mu,   v' = M^-1 f(t, q, v) + M^-1 G(q)^T lambda,
 *       g(q) = 0,   G(q) v = 0.
 * Sign: the constraint force is +G^T lambda, as in (4.1); (37)-(38) print -G^T mu, -G^T lambda,
 * so HERK3's multipliers are the negatives of that paper's. The applied part M^-1 f is the
 * kz_sys's own: accel(t, q) in the second-order form (SHAKE, RATTLE: velocity-independent), or
 * f(t, y) = (v, M^-1 f) through rhs or accel (HERK3; any y' = F(y) with these constraints, such
 * as SAM's averaged field, kz_sam_dae_run). M is constant and diagonal: minv holds M^-1.
 * Every position solve is a Newton iteration on the multipliers started at lambda = 0 (a step
 * depends on (t, h, y) only), with the Jacobian G re-evaluated at every iterate; it stops when
 * max_i |g_i(q)| <= tol and fails after max_iter updates without that (KZ_ENOCONV, parameter
 * "newton", with the step and time; the state is left unchanged). A velocity solve is linear.
 * Work: newton_iters (updates) and jac_evals (evaluations of g with G) in the kz_report, the
 * solves in *stats.
 * Multipliers: each successful step of a constrained stepper writes its multipliers to lambda
 * (when not NULL; 2 m numbers, the meaning is given with each stepper below). lambda and stats
 * are the only members written through a const kz_constraints *: give concurrent users their
 * own. Validated once per run by kz_step_check (kz_con_check). */
typedef struct kz_constraints {
  int m;               /* number of position constraints, 1 <= m <= nq */
  const double *minv;  /* the diagonal of M^-1: nq numbers, finite and > 0 */
  kz_con_fn g;         /* the constraints and their Jacobian */
  void *par;           /* passed to g */
  double tol;          /* Newton tolerance on max_i |g_i(q)| (units of g), finite and > 0 */
  int max_iter;        /* Newton updates allowed per solve, >= 1 */
  double *lambda;      /* NULL, or 2 m numbers: the multipliers of the last successful step */
  kz_con_stats *stats; /* NULL, or the solve counters */
} kz_constraints;

/* Is s a well-formed constrained system? KZ_ENULL ("con", "con.minv", "con.g"), KZ_EDOMAIN
 * ("dim", "con.m", "con.max_iter", "con.tol", "con.minv") or KZ_ENONFINITE ("con.tol",
 * "con.minv"). kz_step_check calls it for every stepper that needs KZ_NEEDS_CONSTRAINTS. */
int kz_con_check(const kz_sys *s, kz_report *r);
/* The constraint residuals of the state y = (q, v): res[0..m) = g(q), res[m..2m) = G(q) v.
 * A measurement: counts nothing. */
int kz_con_residual(const kz_sys *s, const double *y, double *res, kz_report *r);

/* Constrained steppers (registry members, kz_step_find "shake", "rattle", "herk3"). */
/* SHAKE (Ryckaert, Ciccotti & Berendsen 1977; Calvo & Sanz-Serna Sec. 4.2, "position-velocity
 * form"), written as a one-step map on (q_n, v_n):
 *     v_{n+1/2} = v_n + h/2 (a(t_n, q_n) + M^-1 G(q_n)^T L),  q_{n+1} = q_n + h v_{n+1/2},
 *     g(q_{n+1}) = 0 (Newton for L),   v_{n+1} = v_{n+1/2} + h/2 a(t_{n+1}, q_{n+1}).
 * Chained, these are exactly the paper's SHAKE steps M v_{k+1/2} = M v_{k-1/2} + h f_k
 * + h G_k^T lambda_k with its starting formula v_{1/2} = v_0 + h/2 M^-1 (f_0 + G_0^T lambda_0):
 * the paper's lambda_0 = L of the first step (from a consistent v_0), lambda_k = L / 2 of step
 * k >= 1 (v_n is the unprojected SHAKE velocity: its normal part is O(h); RATTLE projects it).
 * Positions of order 2; not symmetric as a one-step map (the two-step SHAKE is). lambda gets
 * (L, NaN x m). The fused leg is the HMM's micro-integrator: its kernel quadrature averages
 * the total force a + M^-1 G^T lambda_k at every node k = 0..n (node 0 with lambda_0 = L of the
 * first step, nodes k >= 1 with L_k / 2, node n from one more position solve, not a step). */
extern const kz_step_type *const kz_step_shake;
/* RATTLE (Andersen 1983; Calvo & Sanz-Serna Sec. 4.3 with the erratum g(X_{n+1}) = 0 for the
 * printed g'(X_{n+1}) = 0): on consistent (q_n, v_n),
 *     v_{n+1/2} = v_n + h/2 (a_n + M^-1 G(q_n)^T Lx),  q_{n+1} = q_n + h v_{n+1/2},  g(q_{n+1}) = 0,
 *     v_{n+1} = v_{n+1/2} + h/2 (a_{n+1} + M^-1 G(q_{n+1})^T Lv),  G(q_{n+1}) v_{n+1} = 0.
 * Order 2, symmetric (the step with -h inverts the step with h), symplectic. lambda gets
 * (Lx, Lv); the SHAKE multiplier of node n is (Lv_{n-1} + Lx_n) / 2. */
extern const kz_step_type *const kz_step_rattle;
/* HERK3: the half-explicit Runge-Kutta method (45)-(48) of order 3 with 3 stages of Brasey &
 * Hairer (SIAM J. Numer. Anal. 30 (1993)), c = (0, 1/3, 1), a21 = 1/3, a31 = -1, a32 = 2,
 * b = (0, 3/4, 1/4), for the GGL index-2 form. Stage i >= 2 and the end point: a position solve
 * (Newton for mu) and a velocity solve (linear for lambda) with G at the previous stage; from a
 * consistent y (g = 0 and G v = 0), initial multipliers are not needed. 3 evaluations of the
 * unconstrained f per step, 3 position and 3 velocity solves. Not symmetric. lambda gets
 * (mu, lambda) of the last solve, Z_3. */
extern const kz_step_type *const kz_step_herk3;

/* ---------- The HMM for constrained systems (kz_hmm_dae.c) ---------------------------------- */

/* Constrained macro schemes: values of kz_hmm_params.macro continuing enum kz_hmm_macro, with
 * F_n the filtered total micro force (active plus constraint, mass-normalised) at X_n:
 *  SHAKE  (Sec. 4.2): V_{n+1/2} = V_{n-1/2} + H (F_n + M^-1 G(X_n)^T L_n) (V_{1/2} with H/2 from
 *         V_0), X_{n+1} = X_n + H V_{n+1/2}, g(X_{n+1}) = 0: one estimate per step, N in all;
 *  RATTLE (Sec. 4.3): the RATTLE step of kz_step_rattle with F_n, F_{n+1} in place of a: two
 *         estimates per step, one with fsal = 1 (N + 1 in all: F_N gives V_N). */
enum kz_hmm_dae_macro {
  KZ_HMM_SHAKE = 5,
  KZ_HMM_RATTLE = 6,
  KZ_HMM_DAE_MACRO_END = 7
};

/* Presets for kz_hmm_params_init (continuing enum kz_hmm_preset): macro SHAKE or RATTLE, micro
 * SHAKE, simple filtering (uniform kernel; eta = 2 pi / omega is left to the caller), phase 0,
 * micro data (2.14) v = 0, x = X_n, the half window 0 <= t <= eta/2, fsal. */
enum kz_hmm_dae_preset {
  KZ_HMM_PRESET_SHAKE_SHAKE = 4,
  KZ_HMM_PRESET_RATTLE_SHAKE = 5
};

/* The HMM of Calvo & Sanz-Serna Sec. 4 on a fast-forced system m (second-order form) with the
 * constraints con (the same for the macro state X and the micro states x): macro p->macro =
 * KZ_HMM_SHAKE or KZ_HMM_RATTLE, micro p->micro a constrained stepper with a fused leg (SHAKE),
 * half window (p->half_window, phase 0, v = 0: the symmetric window is refused, KZ_EMODEL
 * "half_window"). Y_out receives the macro states at t_n = n H, n = 0..N (capacity nout rows
 * of dim = 2 nq): X_n and V_n (RATTLE; SHAKE: V_{n-1/2} for n >= 1). lam_out (may be NULL,
 * N rows of 2 m): SHAKE (L_n, NaN x m), RATTLE (Lx_n, Lv_n) of step n = 0..N-1. Report:
 * micro_steps, force_evals, newton_iters, jac_evals of micro and macro, macro_steps = N. Solves:
 * the macro ones in con->stats, the micro ones in *micro (may be NULL). */
int kz_hmm_dae_run(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p,
                   const double *Y0, double *Y_out, double *lam_out, long long nout,
                   kz_con_stats *micro, kz_report *r);
/* One RATTLE macro step (H of either sign) from Y at time t, in place (unchanged on failure);
 * lam (may be NULL, 2 m) gets (Lx, Lv). The macro map of Sec. 4.3, "clearly reversible".
 * SHAKE is a two-step recursion and is refused (KZ_EMODEL, parameter "macro"). */
int kz_hmm_dae_step(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p, double t,
                    double *Y, double *lam, kz_con_stats *micro, kz_report *r);
/* The filtered total force F (nq numbers, mass-normalised) at the macro state Y and time t. */
int kz_hmm_dae_force(const kz_vib *m, const kz_constraints *con, const kz_hmm_params *p,
                     double t, const double *Y, double *F, kz_con_stats *micro, kz_report *r);

/* ---------- SAM for index-2 DAEs (kz_sam_dae.c) --------------------------------------------- */

/* SAM of Calvo et al. Sec. 6.1: the macro stepper (a constrained one: HERK3) with constant steps
 * H from (p->t0, y0) on the averaged GGL system (41)-(44), whose unconstrained field (F_Q, F_U)
 * is recovered by p->diff ((25): central differences of positions and velocities) from micro-
 * integrations of the constrained system m->sys with m->type (HERK3), always from p->t0. The
 * macro multipliers are its own (the micro ones are discarded); the constraints of (43)-(44)
 * are those of m->sys. y0 must be consistent. tout: increasing, each a whole number of steps H
 * from t0; yout (nout x dim) gets Y there, zout (may be NULL, nout x 2 m) the macro
 * multipliers of the step ending there. Report: micro_steps (6 N n for HERK3 and (25)),
 * force_evals, newton_iters, jac_evals of both levels, macro_steps = N. Solves: the micro ones
 * in m->sys->con->stats, the macro ones in *macro_stats (may be NULL). */
int kz_sam_dae_run(const kz_micro *m, const kz_sam_params *p, const kz_step_type *macro,
                   double H, const double *y0, long long nout, const double *tout,
                   double *yout, double *zout, kz_con_stats *macro_stats, kz_report *r);

/* ---------- The vertically vibrated double pendulum (kz_dpend.c) ---------------------------- */

/* Calvo & Sanz-Serna (4.3) = Calvo et al. Sec. 6.2: masses m1, m2 on rigid rods l1 (pivot to
 * m1) and l2 (m1 to m2), y axis up, the pivot vibrating vertically with acceleration
 * a(t) = vmax omega cos(omega t + theta0) ((2.3); Calvo et al.: omega = 1/eps, theta0 = 0).
 * minv is filled by the constructors (the inverse masses (1/m1, 1/m1, 1/m2, 1/m2)). */
typedef struct kz_dpend {
  double m1, m2; /* masses [kg] */
  double l1, l2; /* rod lengths [m] */
  double g;      /* gravity [m s^-2] */
  double vmax;   /* amplitude of the pivot velocity [m s^-1] */
  double omega;  /* angular frequency of the vibration [s^-1] */
  double theta0; /* phase at t = 0 [rad] */
  double minv[4];
} kz_dpend;

/* The constraints x1^2 + y1^2 - l1^2 = 0, (x2 - x1)^2 + (y2 - y1)^2 - l2^2 = 0 on
 * q = (x1, y1, x2, y2): m = 2, minv, tol = 1e-15 max(l1, l2)^2 (a few ulps of l^2),
 * max_iter = 50, lambda and stats NULL (set them after the call). p must outlive c. */
int kz_dpend_constraints(kz_constraints *c, kz_dpend *p, kz_report *r);
/* The Cartesian system in time form, y = (x1, y1, x2, y2, u1, v1, u2, v2), the applied
 * acceleration M^-1 f = (0, -(g + a(t)), 0, -(g + a(t))), con = c: SHAKE and RATTLE integrate
 * it as (4.1)-(4.3), HERK3 as the GGL form (37)-(40). p and c must outlive s. */
int kz_dpend_sys(kz_sys *s, kz_dpend *p, const kz_constraints *c, kz_report *r);
/* The same in the fast-forced form of the HMM (phase theta = omega t + theta0; even in theta). */
int kz_dpend_vib(kz_vib *m, kz_dpend *p, kz_report *r);
/* The angle-coordinate (Lagrangian) ODE, y = (q1, q2, q1', q2'), q1, q2 the absolute angles of
 * the rods from the upward vertical (x1 = l1 sin q1, y1 = l1 cos q1, x2 = x1 + l2 sin q2,
 * y2 = y1 + l2 cos q2), g_e = g + a(t):
 *   (m1+m2) l1^2 q1'' + m2 l1 l2 cos(q1-q2) q2'' = g_e (m1+m2) l1 sin q1 - m2 l1 l2 sin(q1-q2) q2'^2,
 *   m2 l1 l2 cos(q1-q2) q1'' + m2 l2^2 q2''        = g_e m2 l2 sin q2 + m2 l1 l2 sin(q1-q2) q1'^2.
 * The reference "in Lagrangian coordinates" of Calvo et al. Sec. 6.2. */
int kz_dpend_lagrange_sys(kz_sys *s, kz_dpend *p, kz_report *r);
/* The averaged (omega -> infinity) angle equations (Kapitza): the same mass matrix and
 * velocity terms with g_e = g and the effective potential V + (vmax^2/4) W(q),
 * W = grad Y' M(q)^-1 grad Y, Y = (m1+m2) l1 cos q1 + m2 l2 cos q2 (derived in kz_dpend.c;
 * for one rod it is (2.5)-(2.6)). Its solution is the slow motion up to O(1/omega). */
int kz_dpend_averaged_sys(kz_sys *s, kz_dpend *p, kz_report *r);
/* The Cartesian state (8 numbers, consistent: g = 0 and G v = 0) of the angles and angular
 * velocities ang = (q1, q2, q1', q2'). */
int kz_dpend_state(const kz_dpend *p, const double *ang, double *y, kz_report *r);
/* The spinning top and the slow-variable HMM.
 *
 * M. Fredbo, "The Heterogeneous Multiscale Method and the Spinning Top", MSc thesis, NTNU 2011
 * (equation numbers are the thesis's): the slow-variable HMM of Ariel, Engquist & Tsai
 * (Algorithms 3-4), the heavy Lagrange top in body coordinates (Pi, Gamma) (23)/(31) with a
 * transverse (38) or a vertical (41) vibration, its averaged equation (48), and the top's sets
 * of slow variables (32), (37), (40). Fredbo's micro-scheme (35) is the registry stepper
 * kz_step_ve; Algorithm 2 for the pendulum is kz_hmm_run with macro = KZ_HMM_VE.
 */

extern const kz_step_type *const kz_step_ve; /* Fredbo's explicit "Stormer-Verlet like" (35), 1;
                                              * on y = (q, v) drift-kick-drift (= leapfrog), 2 */

/* ---------- Least squares (kz_lsq.c) ------------------------------------------------------- */

enum kz_lsq_kind {
  KZ_LSQ_MINNORM = 0, /* the minimum-norm least-squares solution J^+ b (SVD by one-sided Jacobi;
                       * singular values below max(m, n) eps sigma_max count as zero) */
  KZ_LSQ_BASIC = 1    /* the basic solution of QR with column pivoting (MATLAB's J\b): at most
                       * rank J non-zero components (rank: |R_kk| > max(m, n) eps |R_11|) */
};

/* Doubles of workspace kz_lsq_solve needs for an m x n matrix (0 for bad sizes). */
size_t kz_lsq_work(int m, int n);
/* Least-squares solution x (n numbers) of J x = b, J row-major m x n, b m numbers, of the kind
 * asked (enum kz_lsq_kind). *rank (may be NULL) receives the numerical rank. J and b are not
 * modified. KZ_EDOMAIN for m, n outside 1..64 ("m", "n") or a bad kind ("kind"), KZ_ENONFINITE
 * for a non-finite J or b. */
int kz_lsq_solve(int kind, int m, int n, const double *J, const double *b, double *x, int *rank,
                 double *work, kz_report *r);

/* ---------- Slow variables and the slow-variable HMM (kz_hmm_slow.c) ----------------------- */

/* A set of r slow variables xi(theta, x) of a state x of dimension dim (Fredbo Sec. 3.1), at the
 * fast phase theta = omega t + theta0 of the kz_vib they belong to: values xi (r numbers), the
 * gradient grad (r x dim, row-major, row k = grad xi_k; may be NULL) and the partial derivative
 * xi_theta = d xi / d theta at fixed x (r numbers; may be NULL; zero for autonomous sets). */
typedef int (*kz_slow_fn)(void *par, double theta, const double *x, double *xi, double *grad,
                          double *xi_theta);
typedef struct kz_slow {
  int r;              /* slow variables solved for, 1 <= r <= dim */
  int dim;            /* dimension of the state (the kz_vib's) */
  kz_slow_fn eval;
  const int *frozen;  /* dim flags (NULL: none): components never updated (Fredbo: xi1 = Pi3) */
  void *par;
} kz_slow;

enum kz_slow_macro {
  KZ_SLOW_FE = 0,       /* HMM-FE: x_{n+1} = x_n + H delta_n (Alg. 3 step 3b, Alg. 4 step 4b) */
  KZ_SLOW_LEAPFROG = 1, /* HMM-LF: x_{n+1} = x_{n-1} + 2 H delta_n, x_1 by the start below */
  KZ_SLOW_MACRO_END = 2
};
enum kz_slow_start {
  KZ_START_FE = 0,  /* x_1 = x_0 + H delta_0 (notes A4; the default) */
  KZ_START_HEUN = 1 /* x_1 = x_0 + H/2 (delta_0 + delta(t_1, x_0 + H delta_0)): one estimate more */
};
enum kz_slow_predictor {
  KZ_PREDICT_NONE = 0,   /* micro data x_n (Alg. 3; notes A3: the default) */
  KZ_PREDICT_LITERAL = 1 /* Alg. 4 step 2 as printed: micro data x_n + H delta_{n-1} */
};
enum kz_slow_time {
  KZ_SLOW_TIME_LITERAL = 0,   /* J delta = the averaged total derivative d/dt xi (notes A13 a) */
  KZ_SLOW_TIME_CONSISTENT = 1 /* J delta = that + [xi(t_a, x_a) - xi(t_{n+1}, x_a)] / (t_{n+1} - t_a),
                               * x_a the state the step starts from (A13 b) */
};

typedef struct kz_slow_params {
  int macro;                 /* enum kz_slow_macro */
  int start;                 /* enum kz_slow_start (leapfrog) */
  int lsq;                   /* enum kz_lsq_kind */
  int predictor;             /* enum kz_slow_predictor */
  int time_update;           /* enum kz_slow_time */
  const kz_step_type *micro; /* any registry stepper the model supports (rk4, ve, ...) */
  int kernel;                /* enum kz_kernel_kind (Fredbo: KZ_KERNEL_EXP2) */
  double kernel_constant;    /* 0: normalised weights (addendum 1); > 0: K = constant * shape */
  int phase;                 /* enum kz_hmm_phase of the window centre (forced models) */
  double H;                  /* macro step; T/H a whole number */
  double T;                  /* final time */
  double eta;                /* window length: [t_n - eta/2, t_n + eta/2], (eta/2)/h whole */
  double h;                  /* micro step */
  double fd_step;            /* 0: the set's analytic gradient; > 0: central differences with
                              * steps fd_step max(1, |x_j|) (a numerical-gradient option) */
} kz_slow_params;

/* The values (and gradient, may be NULL) of the slow set at (theta, x): a checked call of s->eval
 * for measurements. */
int kz_slow_values(const kz_slow *s, double theta, const double *x, double *xi, double *grad,
                   kz_report *r);

/* One force estimate of Algorithm 3 at time t from the micro data x (dim numbers): dxi (r) the
 * kernel average over the window of d/dt xi = grad xi . f + omega d xi/d theta along the micro
 * solution (Fredbo (21), Alg. 4 step 3), and delta (dim, may be NULL) the least-squares solution
 * of grad xi(x) delta = dxi over the components not frozen (Alg. 4 step 4a), zero elsewhere. */
int kz_slow_force(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, double t,
                  const double *x, double *dxi, double *delta, kz_report *r);

/* Algorithms 3-4 from x0 at t = 0 to T: N = T/H macro steps. x_out receives the states at
 * t_n = n H, n = 0..N ((N+1)*dim numbers, capacity nout rows >= N + 1); xi_out (may be NULL)
 * the slow variables xi(theta_n, x_n) ((N+1)*r numbers). Counts the micro-steps and right-hand
 * side evaluations of every window (the observable's own evaluations of xi are not counted), one
 * jac_evals per least-squares solve (N, one more with the Heun start), macro_steps = N. A
 * non-finite state is KZ_EDIVERGED ("x") with its step and time; the rows before it are valid. */
int kz_slow_run(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, const double *x0,
                double *x_out, long long nout, double *xi_out, kz_report *r);

/* ---------- The heavy Lagrange top (kz_top.c, kz_top_slow.c) ------------------------------- */

enum kz_top_forcing {
  KZ_TOP_FREE = 0,       /* (23) = (31) with Pi3 = omega Pi3^ */
  KZ_TOP_TRANSVERSE = 1, /* (38): a(t) = amp cos(nu t) added to dPi1/dt ((39): amp = nu = omega) */
  KZ_TOP_VERTICAL = 2    /* (41): g replaced by g + a(t), a(t) = amp nu cos(nu t) (amp = A) */
};
enum kz_top_avg {
  KZ_TOP_AVG_CORRECTED = 0, /* (48) with the coefficient 2 a^2 = M^2 A^2 l^2 / 2 (notes A14 ii) */
  KZ_TOP_AVG_PRINTED = 1,   /* the coefficient as printed in (48): M A / 2 */
  KZ_TOP_AVG_NONE = 2       /* no vibration term: the unforced top (23) */
};

typedef struct kz_top {
  double M, g, l;    /* mass [kg], gravity [m s^-2], fixed point to centre of mass [m] */
  double I1, I2, I3; /* principal moments of inertia about the fixed point [kg m^2] */
  int forcing;       /* enum kz_top_forcing */
  double amp;        /* forcing amplitude (TRANSVERSE: [kg m^2 s^-2]; VERTICAL: A [m s^-1]) */
  double nu;         /* forcing angular frequency [s^-1] (>= 0; > 0 when forced) */
  int avg;           /* enum kz_top_avg: the coefficient of kz_top_averaged_sys */
} kz_top;

/* The top as y' = f(t, y), y = x = (Pi1, Pi2, Pi3, Gamma1, Gamma2, Gamma3), chi = (0, 0, 1):
 * Pi' = Pi x Omega + M (g + a_V(t)) l Gamma x chi + (a_T(t), 0, 0), Gamma' = Gamma x Omega,
 * Omega = I^-1 Pi. p must outlive s. */
int kz_top_sys(kz_sys *s, kz_top *p, kz_report *r);
/* The same in phase form (theta = nu t) for the HMMs (omega = nu, theta0 = 0, identity
 * reconstruction). */
int kz_top_vib(kz_vib *m, kz_top *p, kz_report *r);
/* The averaged equation (48) (Pi x I^-1 Pi for the printed Gamma x I^-1 Pi, A14 i):
 * Pi' = Pi x Omega + M g l Gamma x chi + c (-Gamma2 Gamma3 / I1, Gamma1 Gamma3 / I2, 0),
 * Gamma' = Gamma x Omega, c by p->avg from amp = A (whatever p->forcing). */
int kz_top_averaged_sys(kz_sys *s, kz_top *p, kz_report *r);

enum kz_top_constant {
  KZ_TOP_PI3HAT = 0,    /* Pi3^ = sqrt(2 M g l I3) (Sec. 4.3) */
  KZ_TOP_MGL = 1,       /* M g l */
  KZ_TOP_THRESHOLD = 2, /* Theorem 2: 2 sqrt(M g l I1) / I3 [rad/s] */
  KZ_TOP_LAMBDA = 3,    /* body rotation rate of (Pi1, Pi2) per unit omega: Pi3^ (1/I3 - 1/I1) */
  KZ_TOP_SPIN = 4,      /* Omega3 per unit omega: Pi3^ / I3 */
  KZ_TOP_NUTATION = 5,  /* nutation rate per unit omega: Pi3^ / I1 */
  KZ_TOP_AVGCOEF = 6,   /* the coefficient c of kz_top_averaged_sys */
  KZ_TOP_CONSTANT_N = 7
};
/* The derived constants c[KZ_TOP_CONSTANT_N]. */
int kz_top_constants(const kz_top *p, double *c, kz_report *r);

enum kz_top_invariant {
  KZ_TOP_ENERGY = 0,  /* H (24) = 1/2 Pi . Omega + M g l Gamma3 */
  KZ_TOP_PIGAMMA = 1, /* Pi . Gamma */
  KZ_TOP_GAMMA2 = 2,  /* |Gamma|^2 */
  KZ_TOP_PI3 = 3,     /* Pi3 */
  KZ_TOP_INVARIANT_N = 4
};
/* The invariants at x (inv, KZ_TOP_INVARIANT_N numbers). */
int kz_top_invariants(const kz_top *p, const double *x, double *inv, kz_report *r);
/* Their changes I(x) - I(x0), computed without cancellation (differences of the components
 * first; addendum 9). */
int kz_top_drift(const kz_top *p, const double *x, const double *x0, double *d, kz_report *r);

enum kz_top_set {
  KZ_TOP_XI32 = 0, /* (32): Gamma3, Pi1^2 + Pi2^2, Gamma1^2 + Gamma2^2, Pi1 Gamma1 + Pi2 Gamma2 */
  KZ_TOP_XI37 = 1, /* (37): Pi1^2 + Pi2^2, phi', theta', psi' (the inversion of (29)) */
  KZ_TOP_XI40 = 2, /* (40): Pi1 - (amp/nu) sin theta, Pi2 + (amp/nu) cos theta,
                    * Gamma1^2 + Gamma2^2, arccos Gamma3 (theta = nu t) */
  KZ_TOP_SET_END = 3
};
/* The slow set (xi2 .. xi5 of the thesis, r = 4; xi1 = Pi3 is frozen) on the top p (which must
 * outlive s). */
int kz_top_slow(kz_slow *s, kz_top *p, int set, kz_report *r);

/* Version: written here and nowhere else. The Makefile reads it for the installed shared
 * library (libkapitza.so.MAJOR.MINOR.PATCH, SONAME libkapitza.so.MAJOR) and kapitza.pc; the Lua
 * binding reads it through ffi.cdef (kz.version); user models compiled from C source include it
 * in their cache key. */
enum kz_version { KZ_VERSION_MAJOR = 0, KZ_VERSION_MINOR = 3, KZ_VERSION_PATCH = 0 };

/* Variational multirate integrators: Newton predictor and error measurement (issue 12).       */
/* ========================================================================================== */

/* Newton's initial guess for the unknowns of a macro step (kz_vmi_params.predictor). */
enum kz_vmi_predictor {
  KZ_VMI_PREDICT_VERLET = 0, /* velocity Verlet through the micro nodes (kz_vmi.c): iterations per
                              * step flat in p; p more gradients of V and of W per step */
  KZ_VMI_PREDICT_DRIFT = 1   /* every position moved by its initial velocity (the earlier guess) */
};

/* The errors (6.1)-(6.2) of a kz_vmi_run (ns, nf, p, dT, N macro steps; out: N+1 rows of
 * d = 2 (ns + nf) numbers; micro: N p + 1 rows of (qf, pf), or NULL) against a reference on the
 * grid t_i = i href (ref: nref rows of d numbers). Every node time k dT and k dT + m dT/p must lie
 * on the grid within 1e-9 max(1, t) (else KZ_EGRID, parameter "href"; beyond the last row:
 * KZ_EBUFFER, "ref"). e receives enum kz_vmi_err numbers: sup over the nodes of Euclidean norms.
 * A measurement: counts nothing. */
enum kz_vmi_err {
  KZ_VMI_E_QMAC = 0, /* macro nodes, q = (qs, qf) */
  KZ_VMI_E_PMAC = 1, /* macro nodes, p = (ps, pf) */
  KZ_VMI_E_QMIC = 2, /* inner micro nodes m = 1..p-1, qf (0 without micro) */
  KZ_VMI_E_PMIC = 3, /* inner micro nodes, pf */
  KZ_VMI_E_QS = 4,   /* macro nodes, each part alone: qs, qf, ps, pf */
  KZ_VMI_E_QF = 5,
  KZ_VMI_E_PS = 6,
  KZ_VMI_E_PF = 7,
  KZ_VMI_E_N = 8
};
int kz_vmi_errors(int ns, int nf, int p, double dT, long long N, const double *out,
                  const double *micro, const double *ref, long long nref, double href, double *e,
                  kz_report *r);
/* kz_vmi_energy at each of the n states of rows (n rows of 2 (ns + nf) numbers, e.g. the out of
 * kz_vmi_run): e receives 3 numbers per row (kinetic, V, W). One call per run instead of one per
 * node. A measurement: counts nothing. */
int kz_vmi_energies(const kz_vmi_model *m, long long n, const double *rows, double *e, kz_report *r);

/* ========================================================================================== */
/* Runner support for the scenario scripts (kz_runner.c; lib/scenario.lua): not numerics.     */
/* ========================================================================================== */

/* Remove the folder `stage` (rm -rf, no shell) when SIGINT, SIGTERM or SIGHUP arrives, and the
 * folder `created` (may be NULL) if it is then empty, then die of that signal (default action). A
 * signal that was ignored stays ignored. The paths are copied (KZ_EBUFFER from 4096 bytes); a
 * second call replaces them. The library's only process-wide state (a handler takes no argument).
 * KZ_EDOMAIN when the handlers cannot be installed. */
int kz_runner_guard(const char *stage, const char *created);
/* Forget the folder and restore the handlers that were in place before kz_runner_guard. */
int kz_runner_unguard(void);
/* hold != 0: block SIGINT, SIGTERM, SIGHUP (while files are moved into place); 0: unblock them
 * (one that arrived meanwhile is delivered then). */
int kz_runner_hold_signals(int hold);
/* Remove path and everything under it (fork + execve /bin/rm -rf --, no shell): KZ_OK, or
 * KZ_EDOMAIN with *err an errno value (EIO when rm failed). */
int kz_runner_remove(const char *path, int *err);
/* An exclusive lock on the directory dir (flock; waits for another holder): *fd receives the
 * descriptor for kz_runner_unlock. KZ_EDOMAIN with *err = errno when dir cannot be opened. */
int kz_runner_lock(const char *dir, int *fd, int *err);
int kz_runner_unlock(int fd);
/* 1 if a process with this id exists (kill(pid, 0) succeeds or fails with EPERM), 0 if not. */
int kz_runner_alive(long long pid);

/* ---- The user-model compile cache's file calls (lib/kz_fs.c, used by lib/usermodel.lua) ----
 * POSIX calls FFI cannot make portably. Each returns KZ_OK, KZ_ENULL (a NULL argument), or
 * KZ_EDOMAIN when the system refused, with *err = errno (0 on success). */
enum kz_fs_kind { KZ_FS_OTHER = 0, KZ_FS_FILE = 1, KZ_FS_DIR = 2, KZ_FS_LINK = 3 };
typedef struct kz_fs_info {
  int kind;         /* enum kz_fs_kind */
  int mode;         /* permission bits, st_mode & 07777 */
  long long uid;    /* owner */
  long long size;   /* bytes */
  double mtime;     /* last modification, seconds since the epoch */
} kz_fs_info;
/* lstat (follow = 0: a link is reported as KZ_FS_LINK, never followed) or stat (follow = 1). */
int kz_fs_stat(const char *path, int follow, kz_fs_info *st, int *err);
/* mkdir with mode 0700 (less the umask); an existing path of any kind is EEXIST. */
int kz_fs_mkdir(const char *path, int *err);
/* A new file (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600) holding the n bytes of data: EEXIST when the
 * path exists (a link included); on a failed write the file is removed. */
int kz_fs_create(const char *path, const char *data, size_t n, int *err);
/* The names in dir but . and .., each NUL-terminated, one after another in buf (capacity cap);
 * *len the bytes they take: KZ_EBUFFER when that is more than cap (call again with *len). */
int kz_fs_list(const char *dir, char *buf, size_t cap, size_t *len, int *err);

#ifdef __cplusplus
}
#endif
/* ---------- Ensembles (kz_ens.c, kz_ens_models.c) ------------------------------------------- */

/* M independent members of one model, stored as a structure of arrays: component i of member m
 * at y[i * M + m] (for the second-order form, q is the first nq * M numbers, v the next). A
 * vectorised model function evaluates members m0 .. m0 + M - 1 of its parameters (M is the chunk
 * size; y and f have stride M): t is the time (time form) or the shared fast phase theta
 * (phase form); reconstruct maps macro states Y to micro states y (phase form). */
typedef int (*kz_ens_fn)(void *par, long long m0, int M, double t, const double *y, double *f);

typedef struct kz_ens {
  long long M;              /* members (>= 1) */
  int dim, nq;              /* of one member: nq > 0 second order (dim = 2 nq, accel), 0 first */
  kz_ens_fn rhs, accel;     /* time form (direct integration, SAM) */
  kz_ens_fn phase_rhs, phase_accel, reconstruct; /* phase form (the HMM); NULL when the members
                             * do not share one phase theta = omega t + theta0 */
  double omega, theta0;     /* the shared phase of the phase form */
  int even_in_theta;        /* as kz_vib */
  double bound;             /* members with a |state| or |force| above it (0: 1e100) or not
                             * finite are flagged and frozen */
  int width;                /* doubles per vector the model's member loop uses here (reported) */
  void *par;
} kz_ens;

/* Check the shape of an ensemble (KZ_EDOMAIN "M", "dim", "nq", "bound"). */
int kz_ens_check(const kz_ens *e, kz_report *r);

/* Each run below takes the M states of y (or Y0, y0) in the ensemble's layout, integrates them
 * with the library's own method on the big system of dimension dim * M, split over nthreads
 * POSIX threads (contiguous chunks of members), and writes failed[m] (M ints, caller-owned):
 * 0 = fine, 1 = non-finite or out-of-bound initial state, 2 = left the bound during the run
 * (frozen: its outputs are NaN). Counts in r are per member. Every member equals its scalar run
 * up to the vector math library's rounding (see kz_ens_models.c). */

/* n steps of the explicit registry stepper T (one that needs f or a only) from t, in place. */
int kz_ens_run(const kz_step_type *T, const kz_ens *e, double t, double h, long long n, double *y,
               int *failed, int nthreads, kz_report *r);
/* The HMM (kz_hmm_run) on the phase form: Y_out gets (N+1) rows of dim * M numbers. */
int kz_ens_hmm_run(const kz_ens *e, const kz_hmm_params *p, const double *Y0, double *Y_out,
                   long long nout, int *failed, int nthreads, kz_report *r);
/* SAM (kz_sam_run) with the micro stepper on the time form and a fixed-step macro solver (ode45's
 * step control would couple the members through its error norm: KZ_EMODEL "macro"); yout gets
 * nout rows of dim * M numbers. */
int kz_ens_sam_run(const kz_step_type *micro, const kz_ens *e, const kz_sam_params *p,
                   const kz_macro *mac, const double *y0, long long nout, const double *tout,
                   double *yout, int *failed, int nthreads, kz_report *r);

/* The slow-variable HMM (kz_slow_run) for M members that differ in their initial states x0
 * (structure of arrays, s->dim * M): the least-squares solve couples a member's components, so
 * every member is its own scalar run (bit-identical to it), split over the threads. x_out gets
 * (N+1) rows of dim * M numbers; a member whose run fails is flagged 2 (its rows are NaN), one
 * with a non-finite start 1; a failure of every member is the call's failure. */
int kz_ens_slow_run(const kz_vib *m, const kz_slow *s, const kz_slow_params *p, long long M,
                    const double *x0, double *x_out, long long nout, int *failed, int nthreads,
                    kz_report *r);

/* Vectorised built-in models: parameter arrays of M numbers (the whole ensemble). */
typedef struct kz_pendulum_ens {
  const double *l, *g, *vmax, *omega, *theta0; /* (2.2) per member */
} kz_pendulum_ens;
/* Calvo & Sanz-Serna's vibrated pendulum (2.2), (2.9), (2.7) for M members; the phase form (the
 * HMM) when every member has the same omega and theta0. */
int kz_pendulum_ens_init(kz_ens *e, const kz_pendulum_ens *p, long long M, kz_report *r);

typedef struct kz_ste_ens {
  const double *eps, *g, *l; /* (1.1) per member */
} kz_ste_ens;
/* Sharp, Tsai & Engquist's inverted pendulum (1.1), (3.4) for M members; the phase form when
 * every member has the same eps. */
int kz_ste_ens_init(kz_ens *e, const kz_ste_ens *p, long long M, kz_report *r);

#endif
