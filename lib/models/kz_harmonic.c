/* kz_harmonic.c -- the harmonic oscillator of the linear stability analysis of Ober-Bloebaum,
 * Wenger, Gail & Leyendecker, "Variational multirate integrators", Sec. 5 ((5.1) with the 1/2),
 * as a kz_vmi_model (the chain and the ring of Sec. 6: kz_fpu.c, kz_ring.c). A model of the C
 * API only (lib/lua/kapitza/vmi.lua's harmonic): it has no model file. The energies and the Hamiltonian
 * equations of any such model are in lib/methods/kz_vmi_energy.c. Gradients and Hessians are
 * ADDED to the caller's arrays (see the variational multirate section of kapitza.h). */
#include "kz_internal.h"
#include <string.h>

/* ---------------- harmonic oscillator (Sec. 5) ---------------- */

static int ho_V(void *par, const double *qs, const double *qf, double *v, double *gs, double *gf,
                double *hess)
{
  const kz_vmi_harmonic *h = par;
  (void)qf; (void)gf;
  const double o2 = h->omega_s * h->omega_s;
  if (v) *v = 0.5 * o2 * qs[0] * qs[0];
  if (gs) gs[0] += o2 * qs[0];
  if (hess) hess[0] += o2;
  return KZ_OK;
}

static int ho_W(void *par, const double *qf, double *w, double *g, double *hess)
{
  const kz_vmi_harmonic *h = par;
  const double o2 = h->omega_f * h->omega_f;
  if (w) *w = 0.5 * o2 * qf[0] * qf[0];
  if (g) g[0] += o2 * qf[0];
  if (hess) hess[0] += o2;
  return KZ_OK;
}

int kz_vmi_harmonic_model(kz_vmi_model *m, kz_vmi_harmonic *par, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (!par) return kz_bad(r, KZ_ENULL, "par");
  if (par->nf != 0 && par->nf != 1) return kz_bad(r, KZ_EDOMAIN, "nf");
  KZ_TRY(kz_check_num(r, par->omega_s, "omega_s", 0));
  KZ_TRY(kz_check_num(r, par->omega_f, "omega_f", 0));
  memset(m, 0, sizeof *m);
  m->ns = 1; m->nf = par->nf;
  m->mass_s = m->mass_f = 1;
  m->V = ho_V; m->W = par->nf ? ho_W : NULL; m->par = par;
  return KZ_OK;
}
