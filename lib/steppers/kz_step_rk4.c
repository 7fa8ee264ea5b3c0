/* kz_step_rk4.c -- the classical fourth-order Runge-Kutta method (Kutta 1901; Hairer, Norsett &
 * Wanner I, Table II.1.2) for y' = f(t, y): stages at t, t + h/2, t + h/2, t + h, weights
 * 1/6, 1/3, 1/3, 1/6. Micro- and macro-integrator of SAM (Calvo, Chartier, Murua & Sanz-Serna,
 * Sec. 5), the 'rk4' micro-solver of Sharp, Tsai & Engquist and Fredbo, and the reference
 * integrator of every averaged equation. */
#include "kz_internal.h"

static size_t rk4_work(int dim) { return 4 * (size_t)dim; }

KZ_VECTOR_CLONES static int rk4_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                     double *f_out, double *work, kz_report *r)
{
  static const double c[4] = {0.0, 0.5, 0.5, 1.0};
  static const double b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  const int n = s->dim;
  double *kbuf = work, *acc = work + n, *tmp = work + 2 * n, *ynew = work + 3 * n;
  for (int i = 0; i < n; i++) tmp[i] = y[i], acc[i] = 0;
  for (int stage = 0; stage < 4; stage++) {
    const double *k = kbuf;
    if (stage == 0 && f_in) k = f_in;
    else KZ_TRY(kz_eval(s, t + c[stage] * h, tmp, kbuf, r));
    for (int i = 0; i < n; i++) acc[i] += b[stage] * k[i];
    if (stage < 3)
      for (int i = 0; i < n; i++) tmp[i] = y[i] + c[stage + 1] * h * k[i];
  }
  for (int i = 0; i < n; i++) ynew[i] = y[i] + h * acc[i];
  if (f_out) KZ_TRY(kz_eval(s, t + h, ynew, f_out, r));
  for (int i = 0; i < n; i++) y[i] = ynew[i];
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_rk4_type = {
  "rk4", "classical Runge-Kutta (Kutta 1901; Hairer, Norsett & Wanner I, II.1)", 4, 0,
  KZ_NEEDS_RHS, 0, 4, rk4_work, rk4_apply, NULL,
};
const kz_step_type *const kz_step_rk4 = &kz_step_rk4_type;
