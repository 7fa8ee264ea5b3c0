/* kz_pendulum_ens.c -- Calvo & Sanz-Serna's vibrated pendulum (2.2), (2.9), (2.7) vectorised over
 * ensemble members (kz_ens.c): the member loops of kz_ens_model.h around the functions of the
 * model's one source, pendulum.c (force, lift, hamiltonian), compiled here on struct kz_pendulum. */
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

/* (2.2) in time form (the phase omega t + theta0 of each member); (2.9) and (2.7) at the shared
 * phase t (omega and theta0 the same for every member) */
KZ_ENS_FN(pend_accel, force, om[m] * t + th[m], 1, 1)
KZ_ENS_FN(pend_phase_accel, force, t, 1, 1)
KZ_ENS_FN(pend_recon, lift, t, 2, 2)
/* the Hamiltonian at time t (the FINAL observer of kz_ens_obs.c) */
KZ_ENS_FN(pend_energy, hamiltonian, om[m] * t + th[m], 2, 1)

int kz_pendulum_ens_hamiltonian(void *par, long long m0, int M, double t, const double *y, double *out)
{
  return pend_energy(par, m0, M, t, y, out);
}

int kz_pendulum_ens_init(kz_ens *e, const kz_pendulum_ens *p, long long M, kz_report *r)
{
  static const char *const names[] = {"l", "g", "vmax", "omega", "theta0"};
  static const int positive[] = {1, 0, 0, 1, 0};
  const double *const a[] = {p ? p->l : NULL, p ? p->g : NULL, p ? p->vmax : NULL, p ? p->omega : NULL,
                             p ? p->theta0 : NULL};
  KZ_TRY(check_args(e, p, "pendulum", M, a, names, positive, 5, r));
  const kz_ens v = {.M = M, .dim = 2, .nq = 1, .accel = pend_accel, .par = (void *)p, .width = width(),
                    .even_in_theta = 1};
  *e = v;
  if (shared(p->omega, M) && shared(p->theta0, M)) { /* the phase form: one phase for all */
    e->phase_accel = pend_phase_accel, e->reconstruct = pend_recon;
    e->omega = p->omega[0], e->theta0 = p->theta0[0];
  }
  return KZ_OK;
}
