/* peer_common.c -- the dispatcher of libkzpeers.so: argument checks, the choice of the backend
 * (peer_gsl.c, peer_sundials.c), CPU time and the error against the caller's reference. What the
 * backends call back (the counting field wrapper, finite-difference Jacobians) is in
 * peer_field.c, below both: the dispatcher uses the backends, never the other way round. */
#define _POSIX_C_SOURCE 200809L
#include "peers_internal.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const names[KZP_METHOD_END] = {
  "gsl-rk8pd", "gsl-msadams", "gsl-rk4imp", "cvode-adams", "cvode-bdf", "arkode-erk8", "arkode-mri"
};

int kzp_available(int method)
{
  if (method < 0 || method >= KZP_METHOD_END) return 0;
#ifdef KZP_HAVE_GSL
  if (method <= KZP_GSL_RK4IMP) return 1;
#endif
#ifdef KZP_HAVE_SUNDIALS
  if (method >= KZP_CVODE_ADAMS) return 1;
#endif
  return 0;
}

const char *kzp_name(int method)
{
  return method >= 0 && method < KZP_METHOD_END ? names[method] : NULL;
}

static double cpu_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int kzp_integrate(int method, const kz_sys *s, const kz_sys *fast, double H, double t0,
                  const double *y0, double t1, double rtol, double atol, const double *ref,
                  int nerr, double *yout, kzp_result *res)
{
  if (!res) return KZ_ENULL;
  memset(res, 0, sizeof *res);
  res->rtol = rtol;
  res->atol = atol;
  res->error = NAN;
  if (method < 0 || method >= KZP_METHOD_END) return res->status = KZ_EDOMAIN;
  if (!kzp_available(method)) return res->status = KZ_EMODEL;
  if (!s || !y0 || s->dim < 1) return res->status = KZ_ENULL;
  if (!(rtol > 0) || !(atol > 0) || !(t1 > t0) || !isfinite(t1) || !isfinite(t0)) return res->status = KZ_EDOMAIN;
  if (method == KZP_ARK_MRI) {
    if (!fast || fast->dim != s->dim) return res->status = KZ_EMODEL;
    if (!(H > 0) || kz_steps_in(t1 - t0, H) < 1) return res->status = KZ_EDOMAIN;
  }
  const int n = s->dim;
  double *mem = malloc(sizeof(double) * 3 * (size_t)n);
  if (!mem) return res->status = KZ_ENOMEM;
  kzp_ctx c = { s, fast, n, 0, 0, mem + n, mem + 2 * (size_t)n };
  double *y = mem;
  memcpy(y, y0, sizeof(double) * (size_t)n);
  const double c0 = cpu_seconds();
  int st = KZ_EMODEL;
#ifdef KZP_HAVE_GSL
  if (method <= KZP_GSL_RK4IMP) st = kzp_gsl_run(method, &c, t0, t1, y, rtol, atol, res);
#endif
#ifdef KZP_HAVE_SUNDIALS
  if (method >= KZP_CVODE_ADAMS) st = kzp_sundials_run(method, &c, H, t0, t1, y, rtol, atol, res);
#endif
  res->seconds = cpu_seconds() - c0;
  res->rhs_evals = c.nf;
  res->jac_evals = c.nj;
  if (st == KZ_OK) {
    if (yout) memcpy(yout, y, sizeof(double) * (size_t)n);
    if (ref) {
      const int m = nerr > 0 && nerr < n ? nerr : n;
      double e = 0;
      for (int i = 0; i < m; i++) e += (y[i] - ref[i]) * (y[i] - ref[i]);
      res->error = sqrt(e);
    }
  }
  free(mem);
  return st;
}
