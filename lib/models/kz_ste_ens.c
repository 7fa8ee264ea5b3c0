/* kz_ste_ens.c -- Sharp, Tsai & Engquist's inverted pendulum (1.1), (3.4) vectorised over ensemble
 * members (kz_ens.c): the member loops of kz_ens_model.h around the functions of the model's one
 * source, ste.c (force, phase, recon, hamiltonian), compiled here on struct kz_ste. */
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

/* (1.1) in time form (each member's phase 2 pi frac(t / eps)); (1.1) and (3.4) at the shared phase
 * t (eps the same for every member) */
KZ_ENS_FN(ste_accel, force, phase(&(kz_par){MEMBER}, t), 1, 1)
KZ_ENS_FN(ste_phase_accel, force, t, 1, 1)
KZ_ENS_FN(ste_recon, recon, t, 2, 2)
/* the Hamiltonian at time t (the FINAL observer of kz_ens_obs.c) */
KZ_ENS_FN(ste_energy, hamiltonian, phase(&(kz_par){MEMBER}, t), 2, 1)

int kz_ste_ens_hamiltonian(void *par, long long m0, int M, double t, const double *y, double *out)
{
  return ste_energy(par, m0, M, t, y, out);
}

int kz_ste_ens_init(kz_ens *e, const kz_ste_ens *p, long long M, kz_report *r)
{
  static const char *const names[] = {"eps", "g", "l"};
  static const int positive[] = {1, 0, 1};
  const double *const a[] = {p ? p->eps : NULL, p ? p->g : NULL, p ? p->l : NULL};
  KZ_TRY(check_args(e, p, "pendulum", M, a, names, positive, 3, r));
  const kz_ens v = {.M = M, .dim = 2, .nq = 1, .accel = ste_accel, .par = (void *)p, .width = width()};
  *e = v;
  if (shared(p->eps, M)) { /* the phase form: one period eps for all, phase 2 pi t / eps */
    e->phase_accel = ste_phase_accel, e->reconstruct = ste_recon;
    e->omega = 2 * KZ_PI / p->eps[0], e->theta0 = 0.0;
  }
  return KZ_OK;
}
