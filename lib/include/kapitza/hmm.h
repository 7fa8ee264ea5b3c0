/* kapitza/hmm.h -- Averaging kernels and the heterogeneous multiscale methods: the fast-forced
 * HMM (kz_hmm.c, kz_hmm_macro.c) and the slow-variable HMM (kz_hmm_slow.c). Part of libkapitza's
 * public header: included by kapitza.h, whose rules it keeps. */
#ifndef KAPITZA_HMM_H
#define KAPITZA_HMM_H

#include <kapitza/step.h>
#include <kapitza/linalg.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* The spinning top and the slow-variable HMM.
 *
 * M. Fredbo, "The Heterogeneous Multiscale Method and the Spinning Top", MSc thesis, NTNU 2011
 * (equation numbers are the thesis's): the slow-variable HMM of Ariel, Engquist & Tsai
 * (Algorithms 3-4), the heavy Lagrange top in body coordinates (Pi, Gamma) (23)/(31) with a
 * transverse (38) or a vertical (41) vibration, its averaged equation (48), and the top's sets
 * of slow variables (32), (37), (40). Fredbo's micro-scheme (35) is the registry stepper
 * kz_step_ve; Algorithm 2 for the pendulum is kz_hmm_run with macro = KZ_HMM_VE.
 */

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

#ifdef __cplusplus
}
#endif

#endif
