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
/* F(Q) of (2.6), evaluated directly. */
double kz_pendulum_averaged_force(const kz_pendulum *p, double Q);

/* ------------------------------------------------------------------------------------------ */
/* Steppers: written once, composed by every method                                            */
/* ------------------------------------------------------------------------------------------ */

/* Velocity Verlet for q'' = a(t, q): one step of size h (h may be negative) from (q, v) at t.
 * a holds a(t, q) on entry and a(t + h, q_new) on exit (so consecutive steps cost one
 * evaluation each); work needs dim doubles. Counts one micro-step and one force evaluation. */
int kz_verlet_step(const kz_sys2 *s, double t, double h, double *q, double *v, double *a,
                   double *work, kz_report *r);
/* n Verlet steps of size h from t; a is filled on entry (one evaluation) and kept current. */
int kz_verlet_run(const kz_sys2 *s, double t, double h, long long n, double *q, double *v,
                  kz_report *r);

/* Classical fourth-order Runge-Kutta for y' = f(t, y). work needs 5*dim doubles.
 * Counts one micro-step and four evaluations. */
int kz_rk4_step(const kz_sys1 *s, double t, double h, double *y, double *work, kz_report *r);
/* n RK4 steps of size h from t. */
int kz_rk4_run(const kz_sys1 *s, double t, double h, long long n, double *y, kz_report *r);

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
/* The normalising constant C (K = C * shape), computed once by adaptive quadrature. */
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

/* ------------------------------------------------------------------------------------------ */
/* Sections kept in their own files (read in place by the Lua binding and the compiler)        */
/* ------------------------------------------------------------------------------------------ */
#include "kapitza_vmi.h" /* variational multirate integrators (Ober-Bloebaum et al.) */
#include "kapitza_sam.h" /* stroboscopic averaging, LISP, multirevolution (Calvo et al.) */

#ifdef __cplusplus
}
#endif
#endif
