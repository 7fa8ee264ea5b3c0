/* kapitza/step.h -- The stepper registry (kz_step.c, kz_step_<name>.c) and the ode45 controller
 * (kz_ode45.c). Part of libkapitza's public header: included by kapitza.h, whose rules it keeps. */
#ifndef KAPITZA_STEP_H
#define KAPITZA_STEP_H

#include <kapitza/core.h>

#ifdef __cplusplus
extern "C" {
#endif

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

extern const kz_step_type *const kz_step_ve; /* Fredbo's explicit "Stormer-Verlet like" (35), 1;
                                              * on y = (q, v) drift-kick-drift (= leapfrog), 2 */

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

#ifdef __cplusplus
}
#endif

#endif
