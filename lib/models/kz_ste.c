/* kz_ste.c -- the inverted pendulum of Sharp, Tsai & Engquist, "Multiple time scale numerical
 * methods for the inverted pendulum problem" (2005), theta from the upward vertical:
 * (1.1) = (3.1)  l theta'' = (g + eps^-1 sin(2 pi t / eps)) sin theta,
 * (3.2)          l Theta'' = g sin Theta - sin Theta cos Theta / (8 pi^2 l),
 * (3.4)          omega_n = Omega_n - sin Theta_n cos(2 pi t_n / eps) / (2 pi l)  (reconstruction),
 * Sec. 4         V(x) = g cos x + sin^2 x / (16 pi^2 l), l Theta'' = -V'(Theta).
 * Reading A1 of the notes: the whole right side is divided by l (the printed (3.3)-(3.4) omit
 * the 1/l that the reconstruction, theta_s = 0.23 and "roughly three oscillations in [0, 12]"
 * need). Fast phase theta = 2 pi t / eps, so omega = 2 pi / eps. */
#include "kz_internal.h"
#include "kz_models_f.h"

static int check(const kz_ste *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "pendulum");
  KZ_TRY(kz_check_num(r, p->eps, "eps", 1));
  KZ_TRY(kz_check_num(r, p->g, "g", 0));
  KZ_TRY(kz_check_num(r, p->l, "l", 1));
  return KZ_OK;
}

/* the micro force at the fast phase theta */
static int vib_force(void *par, double theta, const double *q, double *a)
{
  const kz_ste *p = par;
  a[0] = kz_ste_f(p->g, p->eps, p->l, sin(theta), sin(q[0]));
  return KZ_OK;
}

/* (3.4): theta_n = Theta_n, omega_n = Omega_n - sin Theta_n cos(theta) / (2 pi l) */
static int recon(void *par, double theta, const double *Y, double *y)
{
  const kz_ste *p = par;
  y[0] = Y[0];
  y[1] = kz_ste_recon(Y[1], p->l, sin(Y[0]), cos(theta));
  return KZ_OK;
}

/* time form: the phase reduced to 2 pi frac(t / eps) before the sine */
static int time_accel(void *par, double t, const double *q, double *a)
{
  const kz_ste *p = par;
  return vib_force(par, kz_ste_phase(t, p->eps), q, a);
}

static int averaged_accel(void *par, double t, const double *q, double *a)
{
  (void)t;
  a[0] = kz_ste_averaged_force(par, q[0]);
  return KZ_OK;
}

double kz_ste_averaged_force(const kz_ste *p, double Theta)
{
  if (!p || !isfinite(Theta)) return NAN;
  const double s = sin(Theta);
  return (p->g * s - s * cos(Theta) / (8 * KZ_PI * KZ_PI * p->l)) / p->l;
}

double kz_ste_potential(const kz_ste *p, double Theta)
{
  if (!p || !isfinite(Theta)) return NAN;
  const double s = sin(Theta);
  return p->g * cos(Theta) + s * s / (16 * KZ_PI * KZ_PI * p->l);
}

int kz_ste_vib(kz_vib *m, kz_ste *p, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check(p, r));
  const kz_vib v = {2, 1, 2 * KZ_PI / p->eps, 0.0, 0, NULL, vib_force, recon, p};
  *m = v;
  return KZ_OK;
}

static int fill(kz_sys *s, kz_ste *p, kz_accel_fn accel, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  KZ_TRY(check(p, r));
  const kz_sys v = {.dim = 2, .par = p, .nq = 1, .accel = accel};
  *s = v;
  return KZ_OK;
}

int kz_ste_sys(kz_sys *s, kz_ste *p, kz_report *r) { return fill(s, p, time_accel, r); }

int kz_ste_averaged_sys(kz_sys *s, kz_ste *p, kz_report *r) { return fill(s, p, averaged_accel, r); }
