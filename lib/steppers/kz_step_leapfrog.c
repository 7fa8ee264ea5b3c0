/* kz_step_leapfrog.c -- leapfrog (position Verlet, drift-kick-drift) for q' = v, v' = a(t, q):
 *   q_{1/2} = q_n + h/2 v_n,  v_{n+1} = v_n + h a(t_n + h/2, q_{1/2}),  q_{n+1} = q_{1/2} + h/2 v_{n+1}.
 * Hairer, Lubich & Wanner, GNI (I.1.18) (the adjoint arrangement of velocity Verlet). Symmetric,
 * symplectic, order 2, one evaluation per step at the half step. Sharp, Tsai & Engquist's
 * addendum shows it is NOT interchangeable with kick-drift-kick inside an HMM force estimate. */
#include "kz_internal.h"
#include <string.h>

static size_t leapfrog_work(int dim) { return 2 * (size_t)dim; }

KZ_VECTOR_CLONES static int leapfrog_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                          double *f_out, double *work, kz_report *r)
{
  (void)f_in;
  const int nq = s->nq, d = s->dim;
  double *ynew = work, *a = work + d;
  for (int i = 0; i < nq; i++) ynew[i] = y[i] + 0.5 * h * y[nq + i];
  KZ_TRY(kz_eval_accel(s, t + 0.5 * h, ynew, a, r));
  for (int i = 0; i < nq; i++) {
    ynew[nq + i] = y[nq + i] + h * a[i];
    ynew[i] += 0.5 * h * ynew[nq + i];
  }
  if (f_out) KZ_TRY(kz_eval(s, t + h, ynew, f_out, r));
  memcpy(y, ynew, sizeof(double) * (size_t)d);
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_leapfrog_type = {
  "leapfrog", "leapfrog, drift-kick-drift (Hairer, Lubich & Wanner, GNI I.1.18)", 2, 1,
  KZ_NEEDS_ACCEL, 0, 1, leapfrog_work, leapfrog_apply, NULL,
};
const kz_step_type *const kz_step_leapfrog = &kz_step_leapfrog_type;
