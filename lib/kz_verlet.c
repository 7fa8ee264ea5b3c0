/* kz_verlet.c -- velocity Verlet (Stormer-Verlet, leap-frog) for q'' = a(t, q).
 * Hairer, Lubich & Wanner, Geometric Numerical Integration, (I.1.17); the micro- and
 * macro-integrator of Calvo & Sanz-Serna, Sec. 2.2. Symmetric, symplectic, order 2. */
#include "kz_internal.h"
#include <stdlib.h>
#include <string.h>

int kz_verlet_step(const kz_sys2 *s, double t, double h, double *q, double *v, double *a,
                   double *work, kz_report *r)
{
  if (!s || !s->accel) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (!q || !v || !a || !work) return kz_bad(r, KZ_ENULL, "state");
  KZ_TRY(kz_check_num(r, t, "t", 0));
  KZ_TRY(kz_check_num(r, h, "h", 0));
  if (h == 0) return kz_bad(r, KZ_EDOMAIN, "h");
  const int d = s->dim;
  /* work = new position; v and a are only overwritten once the evaluation succeeded */
  for (int i = 0; i < d; i++) work[i] = q[i] + h * (v[i] + 0.5 * h * a[i]);
  double *anew = work + d;
  int st = s->accel(s->par, t + h, work, anew);
  if (r) r->force_evals++;
  if (st != KZ_OK) return kz_fail(r, st, "accel", -1, t + h);
  for (int i = 0; i < d; i++) {
    if (!isfinite(work[i]) || !isfinite(anew[i])) return kz_fail(r, KZ_EDIVERGED, "q", -1, t + h);
  }
  for (int i = 0; i < d; i++) {
    v[i] += 0.5 * h * (a[i] + anew[i]);
    q[i] = work[i];
    a[i] = anew[i];
  }
  if (r) r->micro_steps++;
  return KZ_OK;
}

int kz_verlet_trajectory(const kz_sys2 *s, double t0, double h, long long sub, long long nout,
                         double *q, double *v, double *qout, double *vout, kz_report *r)
{
  if (!s || !s->accel) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (sub < 1) return kz_bad(r, KZ_EDOMAIN, "sub");
  if (nout < 0) return kz_bad(r, KZ_EDOMAIN, "nout");
  if (!qout) return kz_bad(r, KZ_ENULL, "qout");
  KZ_TRY(kz_check_num(r, t0, "t0", 0));
  KZ_TRY(kz_check_num(r, h, "h", 0));
  KZ_TRY(kz_check_vec(r, q, s->dim, "q"));
  KZ_TRY(kz_check_vec(r, v, s->dim, "v"));
  const int d = s->dim;
  double *buf = malloc(sizeof(double) * 5 * (size_t)d);
  if (!buf) return kz_bad(r, KZ_ENOMEM, "work");
  double *a = buf, *work = buf + d, *q0 = buf + 3 * d, *v0 = buf + 4 * d;
  memcpy(q0, q, sizeof(double) * d);
  memcpy(v0, v, sizeof(double) * d);
  memcpy(qout, q, sizeof(double) * d);
  if (vout) memcpy(vout, v, sizeof(double) * d);
  int st = s->accel(s->par, t0, q, a);
  if (r) r->force_evals++;
  long long k = 0;
  for (long long j = 1; st == KZ_OK && j <= nout; j++) {
    for (long long m = 0; st == KZ_OK && m < sub; m++, k++)
      st = kz_verlet_step(s, t0 + (double)k * h, h, q, v, a, work, r);
    if (st == KZ_OK) {
      memcpy(qout + j * d, q, sizeof(double) * d);
      if (vout) memcpy(vout + j * d, v, sizeof(double) * d);
    }
  }
  if (st != KZ_OK) {
    memcpy(q, q0, sizeof(double) * d);
    memcpy(v, v0, sizeof(double) * d);
  }
  free(buf);
  return st;
}

/* n steps = a trajectory with a single recorded interval (n = 0 validates, evaluates a once). */
int kz_verlet_run(const kz_sys2 *s, double t, double h, long long n, double *q, double *v,
                  kz_report *r)
{
  if (!s || !s->accel) return kz_bad(r, KZ_ENULL, "system");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (n < 0) return kz_bad(r, KZ_EDOMAIN, "n");
  double *out = malloc(sizeof(double) * 2 * (size_t)s->dim);
  if (!out) return kz_bad(r, KZ_ENOMEM, "work");
  int st = kz_verlet_trajectory(s, t, h, n > 0 ? n : 1, n > 0 ? 1 : 0, q, v, out, NULL, r);
  free(out);
  return st;
}
