/* kz_pendulum.c -- the C API of the vibrated inverted pendulum of Calvo & Sanz-Serna, Sec. 2.1
 * ((2.2)-(2.3), (2.9), (2.7), (2.5)-(2.6)): the model's functions are those of its one source,
 * pendulum.c (its model file pendulum.lua reads the same text), compiled here on struct
 * kz_pendulum; this file checks the parameters and fills the system structs. */
#include "kz_internal.h"
typedef struct kz_pendulum kz_par;
#include "kz_model.h"
#include "pendulum.c"

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

/* (2.9) at the phase theta; in time form at theta = omega t + theta0 */
static int vib_force(void *par, double theta, const double *q, double *a) { return force(par, theta, q, a); }

static int time_accel(void *par, double t, const double *q, double *a)
{
  const kz_pendulum *p = par;
  return force(p, p->omega * t + p->theta0, q, a);
}

static int averaged_accel(void *par, double t, const double *q, double *a)
{
  (void)t;
  return averaged(par, q, a);
}

double kz_pendulum_averaged_force(const kz_pendulum *p, double Q)
{
  if (!p || !isfinite(Q)) return NAN;
  double a;
  averaged(p, &Q, &a);
  return a;
}

/* (2.7) */
static int vib_lift(void *par, double theta, const double *Y, double *y) { return lift(par, theta, Y, y); }

int kz_pendulum_vib(kz_vib *m, kz_pendulum *p, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check(p, r));
  const kz_vib v = {2, 1, p->omega, p->theta0, 1, NULL, vib_force, vib_lift, p};
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
