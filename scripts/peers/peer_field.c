/* peer_field.c -- what every backend of libkzpeers.so calls back: the field wrapper that counts
 * every evaluation, the slow part of a fast/slow split, and finite-difference Jacobians (forward
 * differences, step sqrt(eps) max(|y_j|, 1); Dennis & Schnabel, Numerical Methods for
 * Unconstrained Optimization, Sec. 5.4). It uses only libkapitza, so that the dispatcher
 * (peer_common.c) and the backends (peer_gsl.c, peer_sundials.c) both sit above it. */
#include "peers_internal.h"
#include <float.h>
#include <math.h>
#include <string.h>

int kzp_eval(kzp_ctx *c, const kz_sys *sys, double t, const double *y, double *f)
{
  c->nf++;
  return kz_sys_eval(sys, t, y, f, NULL);
}

int kzp_eval_slow(kzp_ctx *c, double t, const double *y, double *f)
{
  int st = kzp_eval(c, c->s, t, y, f);
  if (st == KZ_OK) st = kzp_eval(c, c->fast, t, y, c->tmp2);
  if (st != KZ_OK) return st;
  for (int i = 0; i < c->dim; i++) f[i] -= c->tmp2[i];
  return KZ_OK;
}

int kzp_fd_jacobian(kzp_ctx *c, double t, const double *y, const double *f, double *J, double *dfdt)
{
  const int n = c->dim;
  const double se = sqrt(DBL_EPSILON);
  c->nj++;
  memcpy(c->tmp2, y, sizeof(double) * (size_t)n);
  for (int j = 0; j < n; j++) {
    const double h = se * fmax(fabs(y[j]), 1.0);
    c->tmp2[j] = y[j] + h;
    int st = kzp_eval(c, c->s, t, c->tmp2, c->tmp);
    c->tmp2[j] = y[j];
    if (st != KZ_OK) return st;
    for (int i = 0; i < n; i++) J[i * n + j] = (c->tmp[i] - f[i]) / h;
  }
  if (dfdt) {
    const double h = se * fmax(fabs(t), 1.0);
    int st = kzp_eval(c, c->s, t + h, y, c->tmp);
    if (st != KZ_OK) return st;
    for (int i = 0; i < n; i++) dfdt[i] = (c->tmp[i] - f[i]) / h;
  }
  return KZ_OK;
}
