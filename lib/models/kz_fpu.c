/* kz_fpu.c -- the C API of the Fermi-Pasta-Ulam chain of Ober-Bloebaum, Wenger, Gail & Leyendecker,
 * "Variational multirate integrators", Sec. 6 (Hairer, Lubich & Wanner, GNI I.5.1): its
 * potentials are those of its one source, fpu.c (its model file fpu.lua reads the same text),
 * compiled here on struct kz_vmi_fpu. The energies and the Hamiltonian equations of any such
 * model are in lib/methods/kz_vmi_energy.c. */
#include "kz_internal.h"
#include <string.h>
typedef struct kz_vmi_fpu kz_par;
#include "kz_model.h"
#include "fpu.c"
#include "kz_model_vmi.h"

int kz_vmi_fpu_model(kz_vmi_model *m, kz_vmi_fpu *par, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (!par) return kz_bad(r, KZ_ENULL, "par");
  if (par->l < 1 || par->l > 100000) return kz_bad(r, KZ_EDOMAIN, "l");
  KZ_TRY(kz_check_num(r, par->omega, "omega", 1));
  memset(m, 0, sizeof *m);
  m->ns = m->nf = par->l;
  m->mass_s = m->mass_f = 1;
  m->V = vmi_V; m->W = vmi_W; m->par = par;
  return KZ_OK;
}
