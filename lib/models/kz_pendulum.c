/* kz_pendulum.c -- the vibrated inverted pendulum of Calvo & Sanz-Serna, Sec. 2.1:
 * (2.2)-(2.3)  q'' = l^-1 (g + a(t)) sin q,  a(t) = vmax omega cos(omega t + theta0);
 * (2.9)        p' = f(q, theta; omega) = l^-1 (g + vmax omega cos theta) sin q;
 * (2.5)-(2.6)  Q'' = F(Q) = (g/l - vmax^2 / (2 l^2) cos Q) sin Q;
 * (2.7)        p ~ P + l^-1 v(t) sin Q,  v(t) = vmax sin(omega t + theta0): the reconstruction
 *              of Algorithm 1 (micro data (2.10)). */
#include "kz_internal.h"
#include "kz_models_f.h"

static int check(const kz_pendulum *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "pendulum");
  KZ_TRY(kz_check_num(r, p->l, "l", 1));
  KZ_TRY(kz_check_num(r, p->g, "g", 0));
  KZ_TRY(kz_check_num(r, p->vmax, "vmax", 0));
  KZ_TRY(kz_check_num(r, p->omega, "omega", 1));
  KZ_TRY(kz_check_num(r, p->theta0, "theta0", 0));
  return KZ_OK;
}

static int vib_force(void *par, double theta, const double *q, double *f)
{
  const kz_pendulum *p = par;
  f[0] = kz_pendulum_f(p->g, p->vmax, p->omega, p->l, cos(theta), sin(q[0]));
  return KZ_OK;
}

static int time_accel(void *par, double t, const double *q, double *a)
{
  const kz_pendulum *p = par;
  return vib_force(par, p->omega * t + p->theta0, q, a);
}

static int averaged_accel(void *par, double t, const double *q, double *a)
{
  (void)t;
  a[0] = kz_pendulum_averaged_force(par, q[0]);
  return KZ_OK;
}

double kz_pendulum_averaged_force(const kz_pendulum *p, double Q)
{
  if (!p || !isfinite(Q)) return NAN;
  return (p->g / p->l - p->vmax * p->vmax / (2 * p->l * p->l) * cos(Q)) * sin(Q);
}

/* (2.7): the micro velocity p = P + l^-1 v(t) sin Q with v = vmax sin(theta) */
static int lift(void *par, double theta, const double *Y, double *y)
{
  const kz_pendulum *p = par;
  y[0] = Y[0];
  y[1] = kz_pendulum_lift(Y[1], p->vmax, p->l, sin(theta), sin(Y[0]));
  return KZ_OK;
}

int kz_pendulum_vib(kz_vib *m, kz_pendulum *p, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check(p, r));
  const kz_vib v = {2, 1, p->omega, p->theta0, 1, NULL, vib_force, lift, p};
  *m = v;
  return KZ_OK;
}

static int fill(kz_sys *s, kz_pendulum *p, kz_accel_fn accel, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  KZ_TRY(check(p, r));
  const kz_sys v = {.dim = 2, .par = p, .nq = 1, .accel = accel};
  *s = v;
  return KZ_OK;
}

int kz_pendulum_sys(kz_sys *s, kz_pendulum *p, kz_report *r) { return fill(s, p, time_accel, r); }

int kz_pendulum_averaged_sys(kz_sys *s, kz_pendulum *p, kz_report *r)
{
  return fill(s, p, averaged_accel, r);
}
