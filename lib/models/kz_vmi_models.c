/* kz_vmi_models.c -- the test problems of Ober-Bloebaum, Wenger, Gail & Leyendecker,
 * "Variational multirate integrators", and what the experiments measure on them:
 *  - Fermi-Pasta-Ulam (Sec. 6, after Hairer, Lubich & Wanner, GNI I.5.1): slow variables are
 *    scaled centre displacements, fast ones scaled expansions of the stiff springs;
 *  - the 3-D spring ring (Sec. 6, Fig. 6.2), with the gravity sign as an option (the printed
 *    "+ q' M g" with g along -e3 is an upward force; the physical sign is the default);
 *  - the harmonic oscillator of the linear stability analysis (Sec. 5, (5.1) with the 1/2).
 * The energies and the Hamiltonian equations of any such model are in lib/methods/kz_vmi_energy.c.
 * Gradients and Hessians are ADDED to the caller's arrays (see the variational multirate section of kapitza.h).
 */
#include "kz_internal.h"
#include <string.h>

/* ---------------- FPU ---------------- */

/* The soft spring j = 0..l: d_j = sum cf[k] z[idx[k]] over the stacked z = (qs, qf). */
static int fpu_term(int l, int j, int *idx, double *cf)
{
  if (j == 0) { idx[0] = 0; cf[0] = 1; idx[1] = l; cf[1] = -1; return 2; }
  if (j == l) { idx[0] = l - 1; cf[0] = 1; idx[1] = 2 * l - 1; cf[1] = 1; return 2; }
  idx[0] = j; cf[0] = 1; idx[1] = l + j; cf[1] = -1;
  idx[2] = j - 1; cf[2] = -1; idx[3] = l + j - 1; cf[3] = -1;
  return 4;
}

static int fpu_V(void *par, const double *qs, const double *qf, double *v, double *gs, double *gf,
                 double *hess)
{
  const kz_vmi_fpu *f = par;
  const int l = f->l, n = 2 * l;
  double val = 0;
  for (int j = 0; j <= l; j++) {
    int idx[4];
    double cf[4], d = 0;
    int c = fpu_term(l, j, idx, cf);
    for (int k = 0; k < c; k++) d += cf[k] * (idx[k] < l ? qs[idx[k]] : qf[idx[k] - l]);
    const double d2 = d * d;
    val += 0.25 * d2 * d2;
    for (int k = 0; k < c; k++) {
      double g = d2 * d * cf[k];
      if (idx[k] < l) { if (gs) gs[idx[k]] += g; }
      else if (gf) gf[idx[k] - l] += g;
      if (hess)
        for (int kk = 0; kk < c; kk++) hess[idx[k] * n + idx[kk]] += 3 * d2 * cf[k] * cf[kk];
    }
  }
  if (v) *v = val;
  return KZ_OK;
}

static int fpu_W(void *par, const double *qf, double *w, double *g, double *hess)
{
  const kz_vmi_fpu *f = par;
  const double o2 = f->omega * f->omega;
  double val = 0;
  for (int i = 0; i < f->l; i++) {
    val += 0.5 * o2 * qf[i] * qf[i];
    if (g) g[i] += o2 * qf[i];
    if (hess) hess[i * f->l + i] += o2;
  }
  if (w) *w = val;
  return KZ_OK;
}

int kz_vmi_fpu_model(kz_vmi_model *m, kz_vmi_fpu *par, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  if (!par) return kz_bad(r, KZ_ENULL, "par");
  if (par->l < 1 || par->l > 100000) return kz_bad(r, KZ_EDOMAIN, "l");
  KZ_TRY(kz_check_num(r, par->omega, "omega", 1));
  memset(m, 0, sizeof *m);
  m->ns = m->nf = par->l;
  m->mass_s = m->mass_f = 1;
  m->V = fpu_V; m->W = fpu_W; m->par = par;
  return KZ_OK;
}

/* ---------------- spring ring ---------------- */

/* Mass i (0-based, ring order): even i = paper's odd masses (slow), odd i = fast. */
static const double *ring_pos(int i, const double *qs, const double *qf, int *off, int ns)
{
  if (i % 2 == 0) { *off = 3 * (i / 2); return qs + 3 * (i / 2); }
  *off = ns + 3 * (i / 2);
  return qf + 3 * (i / 2);
}

static int ring_V(void *par, const double *qs, const double *qf, double *v, double *gs, double *gf,
                  double *hess)
{
  const kz_vmi_ring *R = par;
  const int n = 2 * R->l, ns = 3 * R->l, nh = 6 * R->l;
  double val = 0;
  for (int i = 0; i < ns; i++) {
    val += 0.5 * R->omega1 * qs[i] * qs[i];
    if (gs) gs[i] += R->omega1 * qs[i];
    if (hess) hess[i * nh + i] += R->omega1;
  }
  for (int i = 0; i < n; i++) { /* quartic ring spring between masses i and i+1 */
    int oa, ob;
    const double *qa = ring_pos(i, qs, qf, &oa, ns), *qb = ring_pos((i + 1) % n, qs, qf, &ob, ns);
    double d[3], d2 = 0;
    for (int c = 0; c < 3; c++) { d[c] = qb[c] - qa[c]; d2 += d[c] * d[c]; }
    val += 0.25 * R->eps * d2 * d2;
    for (int c = 0; c < 3; c++) {
      double g = R->eps * d2 * d[c]; /* dV/d(qb) ; dV/d(qa) = -g */
      if (ob < ns) { if (gs) gs[ob + c] += g; } else if (gf) gf[ob - ns + c] += g;
      if (oa < ns) { if (gs) gs[oa + c] -= g; } else if (gf) gf[oa - ns + c] -= g;
      if (!hess) continue;
      for (int e = 0; e < 3; e++) {
        double h = R->eps * ((c == e ? d2 : 0) + 2 * d[c] * d[e]);
        hess[(ob + c) * nh + ob + e] += h;
        hess[(oa + c) * nh + oa + e] += h;
        hess[(ob + c) * nh + oa + e] -= h;
        hess[(oa + c) * nh + ob + e] -= h;
      }
    }
  }
  const double gz = R->g_sign * R->g * R->mass; /* potential gz * z per mass */
  for (int i = 0; i < n; i++) {
    int o;
    const double *q = ring_pos(i, qs, qf, &o, ns);
    val += gz * q[2];
    if (o < ns) { if (gs) gs[o + 2] += gz; } else if (gf) gf[o - ns + 2] += gz;
  }
  if (v) *v = val;
  return KZ_OK;
}

static int ring_W(void *par, const double *qf, double *w, double *g, double *hess)
{
  const kz_vmi_ring *R = par;
  const int nf = 3 * R->l;
  double val = 0;
  for (int i = 0; i < nf; i++) {
    val += 0.5 * R->omega2 * qf[i] * qf[i];
    if (g) g[i] += R->omega2 * qf[i];
    if (hess) hess[i * nf + i] += R->omega2;
  }
  if (w) *w = val;
  return KZ_OK;
}

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
  m->V = ring_V; m->W = ring_W; m->par = par;
  return KZ_OK;
}

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
