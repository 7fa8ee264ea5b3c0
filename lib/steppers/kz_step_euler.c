/* kz_step_euler.c -- the forward (explicit) Euler method y_{n+1} = y_n + h f(t_n, y_n), order 1.
 * Hairer, Norsett & Wanner, Solving ODEs I, (I.7.3); the macro scheme of Sharp, Tsai & Engquist's
 * HMM-FE (Alg. 3.1) and of Fredbo's Algorithm 3. */
#include "kz_internal.h"
#include <string.h>

static size_t euler_work(int dim) { return 2 * (size_t)dim; }

KZ_VECTOR_CLONES static int euler_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                       double *f_out, double *work, kz_report *r)
{
  const int d = s->dim;
  double *f = work, *ynew = work + d;
  if (f_in) f = (double *)f_in; /* only read */
  else KZ_TRY(kz_eval(s, t, y, f, r));
  for (int i = 0; i < d; i++) ynew[i] = y[i] + h * f[i];
  if (f_out) KZ_TRY(kz_eval(s, t + h, ynew, f_out, r));
  memcpy(y, ynew, sizeof(double) * (size_t)d);
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_euler_type = {
  "euler", "forward Euler (Hairer, Norsett & Wanner I.7)", 1, 0, KZ_NEEDS_RHS, 0, 1,
  euler_work, euler_apply, NULL,
};
const kz_step_type *const kz_step_euler = &kz_step_euler_type;
