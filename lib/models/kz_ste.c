/* kz_ste.c -- the C API of the inverted pendulum of Sharp, Tsai & Engquist ((1.1) = (3.1), (3.2),
 * (3.4), Sec. 4; reading A1: the whole right side divided by l): the model's functions are those
 * of its one source, ste.c (its model file ste.lua reads the same text), compiled here on struct
 * kz_ste; this file checks the parameters and fills the system structs. Fast phase
 * theta = 2 pi t / eps, omega = 2 pi / eps. */
#include "kz_internal.h"
typedef struct kz_ste kz_par;
#include "kz_model.h"
#include "ste.c"

static int check(const kz_ste *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "pendulum");
  KZ_TRY(kz_check_num(r, p->eps, "eps", 1));
  KZ_TRY(kz_check_num(r, p->g, "g", 0));
  KZ_TRY(kz_check_num(r, p->l, "l", 1));
  return KZ_OK;
}

/* the micro force at the fast phase theta; in time form at the reduced phase 2 pi frac(t / eps) */
static int vib_force(void *par, double theta, const double *q, double *a) { return force(par, theta, q, a); }

static int time_accel(void *par, double t, const double *q, double *a) { return force(par, phase(par, t), q, a); }

/* (3.4) */
static int vib_recon(void *par, double theta, const double *Y, double *y) { return recon(par, theta, Y, y); }

static int averaged_accel(void *par, double t, const double *q, double *a)
{
  (void)t;
  return averaged(par, q, a);
}

double kz_ste_averaged_force(const kz_ste *p, double Theta)
{
  if (!p || !isfinite(Theta)) return NAN;
  double a;
  averaged(p, &Theta, &a);
  return a;
}

double kz_ste_potential(const kz_ste *p, double Theta)
{
  if (!p || !isfinite(Theta)) return NAN;
  return potential(p, Theta);
}

int kz_ste_vib(kz_vib *m, kz_ste *p, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check(p, r));
  const kz_vib v = {2, 1, 2 * KZ_PI / p->eps, 0.0, 0, NULL, vib_force, vib_recon, p};
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
