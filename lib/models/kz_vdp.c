/* kz_vdp.c -- the van der Pol oscillator in the form (17) of Calvo, Chartier, Murua &
 * Sanz-Serna, Sec. 2(iii) and 5.2: dq/dtau = p, dp/dtau = -q + eps (1 - q^2) p, and its
 * splitting into the rotation (exact) and the perturbation dp/dtau = eps (1 - q^2) p with q
 * frozen (exact: p * exp(eps (1 - q^2) h)). For eps = 0 every solution is 2 pi-periodic. */
#include "kz_internal.h"

static int vdp_rhs(void *par, double t, const double *y, double *dy)
{
  (void)t;
  const double eps = ((const kz_vdp *)par)->eps;
  dy[0] = y[1];
  dy[1] = -y[0] + eps * (1 - y[0] * y[0]) * y[1];
  return KZ_OK;
}

/* A: the perturbation, q frozen */
static int vdp_flow_pert(void *par, double t, double h, double *y, kz_report *r)
{
  (void)t;
  (void)r;
  const double eps = ((const kz_vdp *)par)->eps;
  y[1] *= exp(eps * (1 - y[0] * y[0]) * h);
  return KZ_OK;
}

/* B: the harmonic rotation */
static int vdp_flow_rot(void *par, double t, double h, double *y, kz_report *r)
{
  (void)par;
  (void)t;
  (void)r;
  const double c = cos(h), s = sin(h), q = y[0], p = y[1];
  y[0] = q * c + p * s;
  y[1] = -q * s + p * c;
  return KZ_OK;
}

static int check(kz_vdp *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "vdp");
  if (!isfinite(p->eps)) return kz_bad(r, KZ_ENONFINITE, "eps");
  if (p->eps < 0) return kz_bad(r, KZ_EDOMAIN, "eps");
  return KZ_OK;
}

int kz_vdp_sys(kz_sys *s, kz_vdp *p, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "sys");
  KZ_TRY(check(p, r));
  const kz_sys v = {.dim = 2, .rhs = vdp_rhs, .par = p, .flow_a = vdp_flow_pert, .flow_b = vdp_flow_rot};
  *s = v;
  return KZ_OK;
}
