/* kz_vdp.c -- the C API of the van der Pol oscillator (17) of Calvo, Chartier, Murua & Sanz-Serna,
 * Sec. 2(iii) and 5.2, and its splitting (the perturbation with q frozen, the rotation; both
 * exact): the functions are those of its one source, vdp.c (its model file vdp.lua reads the same
 * text), compiled here on struct kz_vdp. */
#include "kz_internal.h"
typedef struct kz_vdp kz_par;
#include "kz_model.h"
#include "vdp.c"

static int vdp_rhs(void *par, double t, const double *y, double *dy) { return field(par, t, y, dy); }

/* A: the perturbation, q frozen */
static int vdp_flow_pert(void *par, double t, double h, double *y, kz_report *r)
{
  (void)r;
  return perturbation(par, t, h, y);
}

/* B: the harmonic rotation */
static int vdp_flow_rot(void *par, double t, double h, double *y, kz_report *r)
{
  (void)r;
  return rotation(par, t, h, y);
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
