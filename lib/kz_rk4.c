/* kz_rk4.c -- the classical fourth-order Runge-Kutta method (Kutta 1901) for y' = f(t, y),
 * used as micro- and macro-integrator by SAM (Calvo, Chartier, Murua & Sanz-Serna, Sec. 5)
 * and as the reference integrator of the averaged equations. Also the sys2 -> sys1 adaptor. */
#include "kz_internal.h"
#include <stdlib.h>
#include <string.h>

int kz_rk4_step(const kz_sys1 *s, double t, double h, double *y, double *work, kz_report *r)
{
  if (!s || !s->rhs) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (!y || !work) return kz_bad(r, KZ_ENULL, "state");
  KZ_TRY(kz_check_num(r, t, "t", 0));
  KZ_TRY(kz_check_num(r, h, "h", 0));
  const int n = s->dim;
  double *k = work, *acc = work + n, *tmp = work + 2 * n, *ynew = work + 3 * n;
  static const double c[4] = {0.0, 0.5, 0.5, 1.0};
  static const double b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  memcpy(tmp, y, sizeof(double) * n);
  for (int i = 0; i < n; i++) acc[i] = 0;
  for (int stage = 0; stage < 4; stage++) {
    int st = s->rhs(s->par, t + c[stage] * h, tmp, k);
    if (r) r->force_evals++;
    if (st != KZ_OK) return kz_fail(r, st, "rhs", -1, t + c[stage] * h);
    for (int i = 0; i < n; i++) acc[i] += b[stage] * k[i];
    if (stage < 3)
      for (int i = 0; i < n; i++) tmp[i] = y[i] + c[stage + 1] * h * k[i];
  }
  for (int i = 0; i < n; i++) {
    ynew[i] = y[i] + h * acc[i];
    if (!isfinite(ynew[i])) return kz_fail(r, KZ_EDIVERGED, "y", -1, t + h);
  }
  memcpy(y, ynew, sizeof(double) * n);
  if (r) r->micro_steps++;
  return KZ_OK;
}

/* n steps = a trajectory with a single recorded interval (n = 0 validates and does nothing). */
int kz_rk4_run(const kz_sys1 *s, double t, double h, long long nsteps, double *y, kz_report *r)
{
  if (!s || !s->rhs) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (nsteps < 0) return kz_bad(r, KZ_EDOMAIN, "n");
  double *out = malloc(sizeof(double) * 2 * (size_t)s->dim);
  if (!out) return kz_bad(r, KZ_ENOMEM, "work");
  int st = kz_rk4_trajectory(s, t, h, nsteps > 0 ? nsteps : 1, nsteps > 0 ? 1 : 0, y, out, r);
  free(out);
  return st;
}

int kz_rk4_trajectory(const kz_sys1 *s, double t0, double h, long long sub, long long nout,
                      double *y, double *out, kz_report *r)
{
  if (!s || !s->rhs) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (sub < 1) return kz_bad(r, KZ_EDOMAIN, "sub");
  if (nout < 0) return kz_bad(r, KZ_EDOMAIN, "nout");
  if (!out) return kz_bad(r, KZ_ENULL, "out");
  KZ_TRY(kz_check_num(r, t0, "t0", 0));
  KZ_TRY(kz_check_num(r, h, "h", 0));
  KZ_TRY(kz_check_vec(r, y, s->dim, "y"));
  const int n = s->dim;
  double *work = malloc(sizeof(double) * 6 * (size_t)n);
  if (!work) return kz_bad(r, KZ_ENOMEM, "work");
  double *y0 = work + 5 * n;
  memcpy(y0, y, sizeof(double) * n);
  memcpy(out, y, sizeof(double) * n);
  int st = KZ_OK;
  long long k = 0;
  for (long long j = 1; st == KZ_OK && j <= nout; j++) {
    for (long long m = 0; st == KZ_OK && m < sub; m++, k++)
      st = kz_rk4_step(s, t0 + (double)k * h, h, y, work, r);
    if (st == KZ_OK) memcpy(out + j * n, y, sizeof(double) * n);
  }
  if (st != KZ_OK) memcpy(y, y0, sizeof(double) * n);
  free(work);
  return st;
}

/* y = (q, v): y' = (v, a(t, q)). */
static int sys2_rhs(void *par, double t, const double *y, double *dy)
{
  const kz_sys2 *s = ((kz_sys2_as_sys1 *)par)->s;
  const int d = s->dim;
  for (int i = 0; i < d; i++) dy[i] = y[d + i];
  return s->accel(s->par, t, y, dy + d);
}

int kz_sys1_from_sys2(kz_sys1 *out, kz_sys2_as_sys1 *adaptor, const kz_sys2 *s)
{
  if (!out || !adaptor || !s || !s->accel) return KZ_ENULL;
  if (s->dim < 1) return KZ_EDOMAIN;
  adaptor->s = s;
  out->dim = 2 * s->dim;
  out->rhs = sys2_rhs;
  out->par = adaptor;
  return KZ_OK;
}
