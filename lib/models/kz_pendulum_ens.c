/* kz_pendulum_ens.c -- Calvo & Sanz-Serna's vibrated pendulum (2.2), (2.9), (2.7) vectorised over
 * ensemble members (kz_ens.c): the member loops of kz_ens_model.h around the functions of the
 * model's one source, pendulum.c (force, lift), compiled here on struct kz_pendulum. */
#include "kz_internal.h"
typedef struct kz_pendulum kz_par;
#include "kz_model.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function" /* the averaged equation: no ensemble form */
#include "pendulum.c"
#pragma GCC diagnostic pop
#include "kz_ens_model.h"

#define MEMBER l[m], g[m], vm[m], om[m], th[m]
#define PARAMS                                                                                     \
  const kz_pendulum_ens *e = par;                                                                  \
  const double *l = e->l + m0, *g = e->g + m0, *vm = e->vmax + m0, *om = e->omega + m0,           \
               *th = e->theta0 + m0

/* (2.2) in time form: the phase omega t + theta0 of each member */
KZ_CLONES static int pend_accel(void *par, long long m0, int M, double t, const double *restrict y,
                                double *restrict f)
{
  PARAMS;
  KZ_ENS_LOOP(force, om[m] * t + th[m], 1, 1, MEMBER);
}

/* (2.9) at the shared phase theta (omega and theta0 the same for every member) */
KZ_CLONES static int pend_phase_accel(void *par, long long m0, int M, double theta, const double *restrict y,
                                      double *restrict f)
{
  PARAMS;
  KZ_ENS_LOOP(force, theta, 1, 1, MEMBER);
}

/* (2.7) at the shared phase theta */
KZ_CLONES static int pend_recon(void *par, long long m0, int M, double theta, const double *restrict y,
                                double *restrict f)
{
  PARAMS;
  KZ_ENS_LOOP(lift, theta, 2, 2, MEMBER);
}

int kz_pendulum_ens_init(kz_ens *e, const kz_pendulum_ens *p, long long M, kz_report *r)
{
  if (!e) return kz_bad(r, KZ_ENULL, "ensemble");
  if (!p) return kz_bad(r, KZ_ENULL, "pendulum");
  if (M < 1) return kz_bad(r, KZ_EDOMAIN, "M");
  KZ_TRY(check_array(p->l, M, 1, "l", r));
  KZ_TRY(check_array(p->g, M, 0, "g", r));
  KZ_TRY(check_array(p->vmax, M, 0, "vmax", r));
  KZ_TRY(check_array(p->omega, M, 1, "omega", r));
  KZ_TRY(check_array(p->theta0, M, 0, "theta0", r));
  const kz_ens v = {.M = M, .dim = 2, .nq = 1, .accel = pend_accel, .par = (void *)p,
                    .width = width(), .even_in_theta = 1};
  *e = v;
  if (shared(p->omega, M) && shared(p->theta0, M)) {
    e->phase_accel = pend_phase_accel, e->reconstruct = pend_recon;
    e->omega = p->omega[0], e->theta0 = p->theta0[0];
  }
  return KZ_OK;
}
