/* kz_split.c -- Strang splitting as a generic stepper given two sub-flows.
 * y' = A + B: one step is phi_A(h/2) o phi_B(h) o phi_A(h/2) (Strang 1968; Hairer, Lubich &
 * Wanner, GNI (II.5.6)). Used as the micro-integrator of SAM in Calvo, Chartier, Murua &
 * Sanz-Serna, Secs. 5.1.2 (Kepler) and 5.2 (van der Pol), where its local error over a period
 * is O(eps (dtau)^3) (footnote 6), hence the bound (28) with nu = 2. */
#include "kz_internal.h"
#include <string.h>

int kz_strang_step(const kz_split *s, double t, double h, double *y, double *work, kz_report *r)
{
  if (!s || !s->flow_a || !s->flow_b) return kz_bad(r, KZ_ENULL, "split");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (!y || !work) return kz_bad(r, KZ_ENULL, "state");
  if (!isfinite(t)) return kz_bad(r, KZ_ENONFINITE, "t");
  if (!isfinite(h)) return kz_bad(r, KZ_ENONFINITE, "h");
  const int d = s->dim;
  memcpy(work, y, sizeof(double) * (size_t)d);
  const double h2 = 0.5 * h;
  /* a failing sub-flow names its own parameter through kz_fail */
  int st = s->flow_a(s->par, t, h2, y, r);
  if (st == KZ_OK) st = s->flow_b(s->par, t, h, y, r);
  if (st == KZ_OK) st = s->flow_a(s->par, t + h2, h2, y, r);
  if (r) r->force_evals += 2;
  if (st != KZ_OK) {
    memcpy(y, work, sizeof(double) * (size_t)d);
    return st;
  }
  for (int i = 0; i < d; i++)
    if (!isfinite(y[i])) {
      memcpy(y, work, sizeof(double) * (size_t)d);
      return kz_fail(r, KZ_EDIVERGED, "y", -1, t + h);
    }
  if (r) r->micro_steps++;
  return KZ_OK;
}

int kz_strang_run(const kz_split *s, double t, double h, long long n, double *y, kz_report *r)
{
  if (!s || !s->flow_a || !s->flow_b) return kz_bad(r, KZ_ENULL, "split");
  if (s->dim < 1) return kz_bad(r, KZ_EDOMAIN, "dim");
  if (n < 0) return kz_bad(r, KZ_EDOMAIN, "n");
  KZ_TRY(kz_check_num(r, t, "t", 0));
  KZ_TRY(kz_check_num(r, h, "h", 0));
  KZ_TRY(kz_check_vec(r, y, s->dim, "y"));
  /* the Strang micro-solver of kz_sam.c: n kz_strang_step calls, y restored on failure, the
   * failed step's index in r->fail_step */
  const kz_micro m = {KZ_MICRO_STRANG, NULL, s};
  return kz_micro_run_restore(&m, t, h, n, y, r);
}
