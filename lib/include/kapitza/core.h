/* kapitza/core.h -- Status codes, reports and systems: what every other module takes (kz_core.c).
 * Part of libkapitza's public header: included by kapitza.h, whose rules it keeps. */
#ifndef KAPITZA_CORE_H
#define KAPITZA_CORE_H

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
 * par is passed to rhs and accel; flow_par to the flows (NULL: par). Each part of a model takes
 * its own parameter pointer (the flows here, the constraints in con->par): a system whose rhs
 * is built over another struct (kz_vmi_sys: par is the kz_vmi_model) keeps the flows' own. */
typedef struct kz_sys {
  int dim;
  kz_rhs_fn rhs;
  void *par;
  int nq;
  kz_accel_fn accel;
  kz_flow_fn flow_a;
  kz_flow_fn flow_b;
  const struct kz_constraints *con; /* mechanical DAE structure (constrained steppers), or NULL */
  void *flow_par;                   /* passed to flow_a and flow_b; NULL: par */
} kz_sys;

/* f(t, y) of s into f (dim numbers), through rhs or the second-order form; counts one force
 * evaluation. A measurement and test helper; steppers call the same code internally. */
int kz_sys_eval(const kz_sys *s, double t, const double *y, double *f, kz_report *r);

#ifdef __cplusplus
}
#endif

#endif
