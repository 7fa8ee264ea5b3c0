/* kz_step_strang.c -- Strang splitting of y' = A + B given the two sub-flows of the system:
 * one step is phi_A(h/2) o phi_B(h) o phi_A(h/2) (Strang 1968; Hairer, Lubich & Wanner, GNI
 * (II.5.6)); symmetric when the sub-flows are, order 2. The micro-integrator of SAM in Calvo,
 * Chartier, Murua & Sanz-Serna, Secs. 5.1.2 (Kepler) and 5.2 (van der Pol), where its local error
 * over a period is O(eps (dtau)^3) (footnote 6), hence the bound (28) with nu = 2. Counts two
 * force evaluations per step (the two A half-steps). */
#include "kz_internal.h"
#include <string.h>

static size_t strang_work(int dim) { return (size_t)dim; }

static int strang_apply(const kz_sys *s, double t, double h, double *y, const double *f_in,
                        double *f_out, double *work, kz_report *r)
{
  (void)f_in;
  const int d = s->dim;
  memcpy(work, y, sizeof(double) * (size_t)d);
  const double h2 = 0.5 * h;
  /* a failing sub-flow names its own parameter through kz_fail ("flow" if it does not); the
   * failure is placed at the start of the step */
  void *const fp = s->flow_par ? s->flow_par : s->par; /* the flows' own parameters */
  int st = s->flow_a(fp, t, h2, y, r);
  if (st == KZ_OK) st = s->flow_b(fp, t, h, y, r);
  if (st == KZ_OK) st = s->flow_a(fp, t + h2, h2, y, r);
  if (r) r->force_evals += 2;
  if (st != KZ_OK) st = kz_fail(r, st, (r && r->param) ? r->param : "flow", -1, t);
  if (st == KZ_OK && f_out) {
    if (s->rhs || s->accel) st = kz_eval(s, t + h, y, f_out, r);
    else st = kz_fail(r, KZ_EMODEL, "rhs", -1, t + h);
  }
  if (st != KZ_OK) {
    memcpy(y, work, sizeof(double) * (size_t)d);
    return st;
  }
  if (r) r->micro_steps++;
  return KZ_OK;
}

const kz_step_type kz_step_strang_type = {
  "strang", "Strang splitting A(h/2) B(h) A(h/2) (Strang 1968; GNI II.5)", 2, 1, KZ_NEEDS_FLOWS,
  0, 2, strang_work, strang_apply, NULL,
};
const kz_step_type *const kz_step_strang = &kz_step_strang_type;
