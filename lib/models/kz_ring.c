/* kz_ring.c -- the C API of the 3-D spring ring of Ober-Bloebaum, Wenger, Gail & Leyendecker,
 * "Variational multirate integrators", Sec. 6 (Fig. 6.2), with the gravity sign as an option (the
 * printed "+ q' M g" with g along -e3 is an upward force; the physical sign is the default): its
 * potentials are those of its one source, ring.c (its model file ring.lua reads the same text,
 * for the paper's three pairs of bodies), compiled here on struct kz_vmi_ring, whose l pairs
 * may be any number. */
#include "kz_internal.h"
#include <string.h>
typedef struct kz_vmi_ring kz_par;
#define RING_PAIRS(p) ((p)->l)
#include "kz_model.h"
#include "ring.c"
#include "kz_model_vmi.h"

int kz_vmi_ring_model(kz_vmi_model *m, kz_vmi_ring *par, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (!par) return kz_bad(r, KZ_ENULL, "par");
  if (par->l < 1 || par->l > 10000) return kz_bad(r, KZ_EDOMAIN, "l");
  KZ_TRY(kz_check_num(r, par->mass, "mass", 1));
  KZ_TRY(kz_check_num(r, par->eps, "eps", 0));
  KZ_TRY(kz_check_num(r, par->omega1, "omega1", 0));
  KZ_TRY(kz_check_num(r, par->omega2, "omega2", 1));
  KZ_TRY(kz_check_num(r, par->g, "g", 0));
  if (par->eps < 0) return kz_bad(r, KZ_EDOMAIN, "eps");
  if (par->omega1 < 0) return kz_bad(r, KZ_EDOMAIN, "omega1");
  if (par->g_sign != 1 && par->g_sign != -1) return kz_bad(r, KZ_EDOMAIN, "g_sign");
  memset(m, 0, sizeof *m);
  m->ns = m->nf = 3 * par->l;
  m->mass_s = m->mass_f = par->mass;
  m->V = vmi_V; m->W = vmi_W; m->par = par;
  return KZ_OK;
}
