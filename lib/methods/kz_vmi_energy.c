/* kz_vmi_energy.c -- the energies and the Hamiltonian equations (2.4) of a variational multirate
 * model (Ober-Bloebaum, Wenger, Gail & Leyendecker, "Variational multirate integrators", Sec. 2):
 * H = T + V + W with T = sum p_i^2 / (2 m_i), the potential V(qs, qf) and the fast potential W(qf)
 * of the model's callbacks; kz_vmi_sys gives the equations as a kz_sys for the reference solutions.
 * Any model (lib/models/kz_fpu.c, kz_ring.c, kz_harmonic.c, or a caller's) is measured here, so the measurements of
 * lib/methods/kz_vmi_measure.c depend on no model file. */
#include "kz_internal.h"

static double mass_of(const kz_vmi_model *m, int i)
{
  if (i < m->ns) return m->ms ? m->ms[i] : m->mass_s;
  return m->mf ? m->mf[i - m->ns] : m->mass_f;
}

static int model_ok(const kz_vmi_model *m, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (m->ns < 0 || m->nf < 0 || m->ns + m->nf < 1) return kz_bad(r, KZ_EDOMAIN, "model.ns");
  if (!m->V) return kz_bad(r, KZ_ENULL, "model.V");
  for (int i = 0; i < m->ns + m->nf; i++)
    if (!(mass_of(m, i) > 0) || !isfinite(mass_of(m, i))) return kz_bad(r, KZ_EDOMAIN, "model.mass");
  return KZ_OK;
}

int kz_vmi_energy(const kz_vmi_model *m, const double *y, double *e, kz_report *r)
{
  KZ_TRY(model_ok(m, r));
  const int nn = m->ns + m->nf;
  KZ_TRY(kz_check_vec(r, y, 2 * nn, "y"));
  if (!e) return kz_bad(r, KZ_ENULL, "e");
  double T = 0, V = 0, W = 0;
  for (int i = 0; i < nn; i++) T += 0.5 * y[nn + i] * y[nn + i] / mass_of(m, i);
  KZ_TRY(m->V(m->par, y, y + m->ns, &V, NULL, NULL, NULL));
  if (m->W) KZ_TRY(m->W(m->par, y + m->ns, &W, NULL, NULL));
  /* An energy evaluation is a measurement, not work of a method: nothing is counted in r. */
  e[0] = T; e[1] = V; e[2] = W;
  return KZ_OK;
}

static int vmi_rhs(void *par, double t, const double *y, double *dy)
{
  const kz_vmi_model *m = par;
  const int ns = m->ns, nf = m->nf, nn = ns + nf;
  (void)t;
  for (int i = 0; i < nn; i++) { dy[i] = y[nn + i] / mass_of(m, i); dy[nn + i] = 0; }
  int st = m->V(m->par, y, y + ns, NULL, dy + nn, dy + nn + ns, NULL);
  if (st == KZ_OK && m->W) st = m->W(m->par, y + ns, NULL, dy + nn + ns, NULL);
  for (int i = nn; i < 2 * nn; i++) dy[i] = -dy[i];
  return st;
}

/* The force of the second-order form, a = -(grad V + grad W) for unit masses (q'' = a: with
 * every mass 1 the momenta are the velocities, so y = (q, p) is also y = (q, v)). */
static int vmi_accel(void *par, double t, const double *q, double *a)
{
  const kz_vmi_model *m = par;
  const int ns = m->ns, nn = ns + m->nf;
  (void)t;
  for (int i = 0; i < nn; i++) a[i] = 0;
  int st = m->V(m->par, q, q + ns, NULL, a, a + ns, NULL);
  if (st == KZ_OK && m->W) st = m->W(m->par, q + ns, NULL, a + ns, NULL);
  for (int i = 0; i < nn; i++) a[i] = -a[i];
  return st;
}

int kz_vmi_sys(kz_sys *s, const kz_vmi_model *m, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "sys");
  KZ_TRY(model_ok(m, r));
  const int nn = m->ns + m->nf;
  int unit = 1;
  for (int i = 0; i < nn; i++) unit = unit && mass_of(m, i) == 1.0;
  /* a separable mechanical system: with unit masses also in second-order form (Verlet, symplectic
   * Euler, leapfrog); rhs stays, so the other steppers compute what they did */
  const kz_sys v = {.dim = 2 * nn, .rhs = vmi_rhs, .par = (void *)(size_t)m /* read-only use */,
                    .nq = unit ? nn : 0, .accel = unit ? vmi_accel : NULL};
  *s = v;
  return KZ_OK;
}
