/* kz_step_verlet.c -- velocity Verlet (Stormer-Verlet, kick-drift-kick) for q' = v, v' = a(t, q):
 *   q_{n+1} = q_n + h (v_n + h/2 a(t_n, q_n)),  v_{n+1} = v_n + h/2 (a(t_n, q_n) + a(t_{n+1}, q_{n+1})).
 * Hairer, Lubich & Wanner, GNI (I.1.17). Symmetric, symplectic, order 2; the force at the end of a
 * step is the next step's first (fsal), so n steps cost n + 1 evaluations. The micro- and
 * macro-integrator of Calvo & Sanz-Serna (Sec. 2.2) and the 'v' micro-solver of Sharp, Tsai &
 * Engquist (notes A5 and addendum 1: kick-drift-kick with the force at the grid points). */
#include "kz_internal.h"

static size_t verlet_work(int dim) { return 2 * (size_t)dim; }

static int verlet_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                        double *f_out, double *work, kz_report *r)
{
  const int nq = s->nq;
  double *q = y, *v = y + nq, *qn = work, *a0 = work + nq;
  double *an = f_out ? f_out + nq : work + 2 * nq;
  const double *a = a0;
  if (f_in) a = f_in + nq;
  else KZ_TRY(kz_eval_accel(s, t, q, a0, r));
  for (int i = 0; i < nq; i++) qn[i] = q[i] + h * (v[i] + 0.5 * h * a[i]);
  KZ_TRY(kz_eval_accel(s, t + h, qn, an, r));
  for (int i = 0; i < nq; i++) {
    v[i] += 0.5 * h * (a[i] + an[i]);
    q[i] = qn[i];
  }
  if (f_out)
    for (int i = 0; i < nq; i++) f_out[i] = v[i];
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_verlet_type = {
  "verlet", "velocity Verlet, kick-drift-kick (Hairer, Lubich & Wanner, GNI I.1.17)", 2, 1,
  KZ_NEEDS_ACCEL, 1, 1, verlet_work, verlet_apply,
};
const kz_step_type *const kz_step_verlet = &kz_step_verlet_type;
