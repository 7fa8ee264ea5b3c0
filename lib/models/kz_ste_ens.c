/* kz_ste_ens.c -- Sharp, Tsai & Engquist's inverted pendulum (1.1), (3.4) vectorised over ensemble
 * members (kz_ens.c): the member loops of kz_ens_model.h around the functions of the model's one
 * source, ste.c (force, phase, recon), compiled here on struct kz_ste. */
#include "kz_internal.h"
typedef struct kz_ste kz_par;
#include "kz_model.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function" /* the averaged equation: no ensemble form */
#include "ste.c"
#pragma GCC diagnostic pop
#include "kz_ens_model.h"

#define MEMBER eps[m], g[m], l[m]
#define PARAMS                                                                                     \
  const kz_ste_ens *e = par;                                                                       \
  const double *eps = e->eps + m0, *g = e->g + m0, *l = e->l + m0

/* (1.1) in time form: each member's phase 2 pi frac(t / eps) */
KZ_CLONES static int ste_accel(void *par, long long m0, int M, double t, const double *restrict y,
                               double *restrict f)
{
  PARAMS;
  KZ_ENS_LOOP(force, phase(&(kz_par){MEMBER}, t), 1, 1, MEMBER);
}

/* (1.1) at the shared phase theta (eps the same for every member) */
KZ_CLONES static int ste_phase_accel(void *par, long long m0, int M, double theta, const double *restrict y,
                                     double *restrict f)
{
  PARAMS;
  KZ_ENS_LOOP(force, theta, 1, 1, MEMBER);
}

/* (3.4) at the shared phase theta */
KZ_CLONES static int ste_recon(void *par, long long m0, int M, double theta, const double *restrict y,
                               double *restrict f)
{
  PARAMS;
  KZ_ENS_LOOP(recon, theta, 2, 2, MEMBER);
}

int kz_ste_ens_init(kz_ens *e, const kz_ste_ens *p, long long M, kz_report *r)
{
  if (!e) return kz_bad(r, KZ_ENULL, "ensemble");
  if (!p) return kz_bad(r, KZ_ENULL, "pendulum");
  if (M < 1) return kz_bad(r, KZ_EDOMAIN, "M");
  KZ_TRY(check_array(p->eps, M, 1, "eps", r));
  KZ_TRY(check_array(p->g, M, 0, "g", r));
  KZ_TRY(check_array(p->l, M, 1, "l", r));
  const kz_ens v = {.M = M, .dim = 2, .nq = 1, .accel = ste_accel, .par = (void *)p, .width = width()};
  *e = v;
  if (shared(p->eps, M)) {
    e->phase_accel = ste_phase_accel, e->reconstruct = ste_recon;
    e->omega = 2 * KZ_PI / p->eps[0], e->theta0 = 0.0;
  }
  return KZ_OK;
}
