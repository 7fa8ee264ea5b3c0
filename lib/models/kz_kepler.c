/* kz_kepler.c -- the C API of the perturbed Kepler problem of Calvo, Chartier, Murua &
 * Sanz-Serna, Sec. 2(iv), (18)-(19), Sec. 5.1 (errata: notes seed-003 Sec. 6.1): the field and
 * the two flows of its splitting are those of its one source, kepler.c (its model file
 * kepler.lua reads the same text), compiled here on struct kz_kepler. A flow counts its
 * iterations into the report's newton_iters and names a refusal's cause in its param (kz_model.h's
 * kz_iteration, kz_refuse): the time recorded is the flow's start t, and kz_kepler_flow's own
 * (the exact flow as a function) records no time for a bad argument and the flow's length for
 * Kepler's equation. */
#include "kz_internal.h"
#include <string.h>
typedef struct kz_kepler kz_par;
#include "kz_model.h"
#include "kepler.c"

/* NaN for a NULL or non-finite state (the function has no status to return). */
double kz_kepler_energy(const double *y)
{
  if (!y) return NAN;
  for (int i = 0; i < 4; i++)
    if (!isfinite(y[i])) return NAN;
  const double r = sqrt(y[0] * y[0] + y[1] * y[1]);
  return 0.5 * (y[2] * y[2] + y[3] * y[3]) - 1 / r;
}

static int kep_rhs(void *par, double t, const double *y, double *dy) { return field(par, t, y, dy); }

/* a flow of the model as a kz_flow_fn: its iterations and its refusal's cause into r */
static int flow(int (*f)(const kz_par *, double, double, double *), void *par, double t, double h, double *y,
                kz_report *r)
{
  kzu_iterations = 0;
  kzu_refused = NULL;
  const int st = f(par, t, h, y);
  if (r) r->newton_iters += kzu_iterations;
  return st != KZ_OK && kzu_refused ? kz_fail(r, st, kzu_refused, -1, t) : st;
}

/* A: one implicit-midpoint step of the perturbation */
static int kep_flow_pert(void *par, double t, double h, double *y, kz_report *r)
{
  return flow(perturbation, par, t, h, y, r);
}

int kz_kepler_flow(const double *y, double tau, double *yout, kz_report *r)
{
  if (!y || !yout) return kz_bad(r, KZ_ENULL, "y");
  double w[4] = {y[0], y[1], y[2], y[3]};
  kzu_iterations = 0;
  kzu_refused = NULL;
  const int st = kepler_flow(NULL, 0.0, tau, w);
  if (r) r->newton_iters += kzu_iterations;
  if (st != KZ_OK) return st == KZ_ENOCONV ? kz_fail(r, st, kzu_refused, -1, tau) : kz_bad(r, st, kzu_refused);
  memcpy(yout, w, sizeof w);
  return KZ_OK;
}

/* B: the exact Kepler flow */
static int kep_flow_kepler(void *par, double t, double h, double *y, kz_report *r)
{
  (void)par;
  (void)t;
  return kz_kepler_flow(y, h, y, r);
}

static int check(kz_kepler *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "kepler");
  if (!isfinite(p->eps)) return kz_bad(r, KZ_ENONFINITE, "eps");
  if (p->eps < 0) return kz_bad(r, KZ_EDOMAIN, "eps");
  return KZ_OK;
}

int kz_kepler_sys(kz_sys *s, kz_kepler *p, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "sys");
  KZ_TRY(check(p, r));
  const kz_sys v = {.dim = 4, .rhs = kep_rhs, .par = p, .flow_a = kep_flow_pert, .flow_b = kep_flow_kepler};
  *s = v;
  return KZ_OK;
}
