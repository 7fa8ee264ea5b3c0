/* peer_gsl.c -- GSL's odeiv2 driver on a kapitza system (GSL Reference Manual, "Ordinary
 * Differential Equations": gsl_odeiv2_driver_alloc_y_new, gsl_odeiv2_driver_apply; steppers
 * rk8pd (Prince & Dormand 8(9)), msadams (variable-order Adams, functional iteration, no
 * Jacobian) and rk4imp (implicit Gaussian 2-stage, order 4, Newton iteration with the Jacobian).
 * The Jacobian GSL asks for is a forward-difference one (peer_field.c): the package's models
 * have no analytic Jacobian, and the finite differences' field evaluations are counted.
 * The driver's error control is the standard one: |err_i| <= atol + rtol |y_i|. */
#include "peers_internal.h"
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <math.h>

/* A point the model refuses (e.g. an unbound Kepler orbit after a too long trial step) is
 * reported as GSL_EDOM, which gsl_odeiv2_evolve_apply answers by retrying with a smaller step;
 * GSL_EBADFUNC would end the integration. */
static int gsl_f(double t, const double y[], double f[], void *par)
{
  return kzp_eval(par, ((kzp_ctx *)par)->s, t, y, f) == KZ_OK ? GSL_SUCCESS : GSL_EDOM;
}

static int gsl_jac(double t, const double y[], double *J, double dfdt[], void *par)
{
  kzp_ctx *c = par;
  double fbuf[256], *f = c->dim <= 256 ? fbuf : NULL;
  if (!f) return GSL_ENOMEM; /* the package's systems are small; refuse rather than allocate */
  if (kzp_eval(c, c->s, t, y, f) != KZ_OK) return GSL_EDOM;
  return kzp_fd_jacobian(c, t, y, f, J, dfdt) == KZ_OK ? GSL_SUCCESS : GSL_EDOM;
}

int kzp_gsl_run(int method, kzp_ctx *c, double t0, double t1, double *y, double rtol, double atol,
                kzp_result *res)
{
  const gsl_odeiv2_step_type *T = method == KZP_GSL_RK8PD ? gsl_odeiv2_step_rk8pd
                                  : method == KZP_GSL_MSADAMS ? gsl_odeiv2_step_msadams
                                                              : gsl_odeiv2_step_rk4imp;
  gsl_odeiv2_system sys = { gsl_f, gsl_jac, (size_t)c->dim, c };
  gsl_set_error_handler_off(); /* never abort: statuses come back as return values */
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, T, 1e-6 * (t1 - t0), atol, rtol);
  if (!d) return res->status = KZ_ENOMEM;
  gsl_odeiv2_driver_set_nmax(d, 0); /* no cap on the number of steps */
  double t = t0;
  int st = gsl_odeiv2_driver_apply(d, &t, t1, y);
  res->steps = (long long)d->e->count;
  res->fails = (long long)d->e->failed_steps;
  gsl_odeiv2_driver_free(d);
  if (st != GSL_SUCCESS) {
    res->status = st;
    return KZ_ENOCONV;
  }
  return KZ_OK;
}
