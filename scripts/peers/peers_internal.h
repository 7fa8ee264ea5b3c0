/* peers_internal.h -- what the peer drivers share (private to libkzpeers.so). */
#ifndef KZP_INTERNAL_H
#define KZP_INTERNAL_H
#include "kzpeers.h"

/* One integration's context: the systems, the counters, scratch for finite differences. */
typedef struct kzp_ctx {
  const kz_sys *s, *fast;
  int dim;
  long long nf, nj; /* field evaluations, Jacobians */
  double *tmp, *tmp2;
} kzp_ctx;

/* The field wrappers (peer_field.c). f = field of sys at (t, y); counts one evaluation; the system's status. */
int kzp_eval(kzp_ctx *c, const kz_sys *sys, double t, const double *y, double *f);
/* The slow part of MRI: f = s(t, y) - fast(t, y) (two evaluations). */
int kzp_eval_slow(kzp_ctx *c, double t, const double *y, double *f);
/* Forward-difference Jacobian of s at (t, y) with f = s(t, y) given: J row-major dim x dim,
 * dfdt (may be NULL) the time derivative; dim + 1 evaluations (dim without dfdt). */
int kzp_fd_jacobian(kzp_ctx *c, double t, const double *y, const double *f, double *J, double *dfdt);

/* The backends, compiled in when their library was found (peer_gsl.c, peer_sundials.c), called
 * by the dispatcher (peer_common.c). Each integrates from t0 to t1 on y (in place) and fills steps, fast_steps, fails, status. */
int kzp_gsl_run(int method, kzp_ctx *c, double t0, double t1, double *y, double rtol, double atol,
                kzp_result *res);
int kzp_sundials_run(int method, kzp_ctx *c, double H, double t0, double t1, double *y, double rtol,
                     double atol, kzp_result *res);
#endif
