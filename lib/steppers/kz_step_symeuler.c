/* kz_step_symeuler.c -- symplectic Euler for q' = v, v' = a(t, q), kick then drift:
 * v_{n+1} = v_n + h a(t_n, q_n), q_{n+1} = q_n + h v_{n+1}; order 1, symplectic, not symmetric
 * (Hairer, Lubich & Wanner, GNI (I.1.9)). The macro scheme HMM-IFE of Sharp, Tsai & Engquist
 * (Alg. 3.2, "semi-implicit", explicit in practice). */
#include "kz_internal.h"
#include <string.h>

static size_t symeuler_work(int dim) { return 2 * (size_t)dim; }

KZ_VECTOR_CLONES static int symeuler_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                          double *f_out, double *work, kz_report *r)
{
  const int nq = s->nq, d = s->dim;
  double *a = work, *ynew = work + d;
  if (f_in) a = (double *)f_in + nq; /* only read */
  else KZ_TRY(kz_eval_accel(s, t, y, a, r));
  for (int i = 0; i < nq; i++) {
    ynew[nq + i] = y[nq + i] + h * a[i];
    ynew[i] = y[i] + h * ynew[nq + i];
  }
  if (f_out) KZ_TRY(kz_eval(s, t + h, ynew, f_out, r));
  memcpy(y, ynew, sizeof(double) * (size_t)d);
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_symeuler_type = {
  "symeuler", "symplectic Euler, kick then drift (Hairer, Lubich & Wanner, GNI I.1.9)", 1, 0,
  KZ_NEEDS_ACCEL, 0, 1, symeuler_work, symeuler_apply, NULL,
};
const kz_step_type *const kz_step_symeuler = &kz_step_symeuler_type;
