/* kz_top.c -- the heavy Lagrange top of Fredbo's thesis (M. Fredbo, "The Heterogeneous Multiscale
 * Method and the Spinning Top", MSc thesis, NTNU 2011), in body coordinates x = (Pi, Gamma):
 *  (23)/(31) Pi' = Pi x Omega + M g l Gamma x chi, Gamma' = Gamma x Omega, Omega = I^-1 Pi,
 *            chi = (0, 0, 1) (so Gamma x chi = (Gamma2, -Gamma1, 0)); (31) is (23) with
 *            Pi3 = omega Pi3^, Pi3^ = sqrt(2 M g l I3): omega enters through the initial state;
 *  (38)-(39) the transverse vibrational torque: a(t) = amp cos(nu t) added to dPi1/dt
 *            (thesis: amp = nu = omega);
 *  (41)      the vertical vibration: g replaced by g + a(t), a(t) = A nu cos(nu t) (A = amp);
 *  (48)      its averaged equation, corrected (notes A14): the first term Pi x I^-1 Pi (printed
 *            Gamma x I^-1 Pi), and the vibration term 2 a^2 (-Gamma2 Gamma3/I1, Gamma1 Gamma3/I2, 0)
 *            with a = M A l / 2 from (45), i.e. 2 a^2 = M^2 A^2 l^2 / 2 (printed: M A / 2);
 *  (24)      the invariants H = 1/2 Pi . Omega + M g l Gamma3, Pi . Gamma, |Gamma|^2 and Pi3;
 *  Sec. 4.3  Pi3^; Theorem 2 (Marsden & Ratiu): stability threshold 2 sqrt(M g l I1) / I3.
 * The slow-variable sets (32), (37), (40) are in kz_top_slow.c. */
#include "kz_internal.h"

static int check(const kz_top *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "top");
  KZ_TRY(kz_check_num(r, p->M, "M", 1));
  KZ_TRY(kz_check_num(r, p->g, "g", 0));
  KZ_TRY(kz_check_num(r, p->l, "l", 0));
  KZ_TRY(kz_check_num(r, p->I1, "I1", 1));
  KZ_TRY(kz_check_num(r, p->I2, "I2", 1));
  KZ_TRY(kz_check_num(r, p->I3, "I3", 1));
  if (p->forcing < KZ_TOP_FREE || p->forcing > KZ_TOP_VERTICAL) return kz_bad(r, KZ_EDOMAIN, "forcing");
  KZ_TRY(kz_check_num(r, p->amp, "amp", 0));
  KZ_TRY(kz_check_num(r, p->nu, "nu", 0));
  if (p->nu < 0 || (p->forcing != KZ_TOP_FREE && p->nu == 0)) return kz_bad(r, KZ_EDOMAIN, "nu");
  if (p->avg < KZ_TOP_AVG_CORRECTED || p->avg > KZ_TOP_AVG_NONE) return kz_bad(r, KZ_EDOMAIN, "avg");
  return KZ_OK;
}

/* Pi' and Gamma' of the top with effective gravity ge and transverse torque a1, plus the
 * averaged vibration term c (-G2 G3 / I1, G1 G3 / I2, 0). */
static inline void field(const kz_top *p, double ge, double a1, double c, const double *x,
                         double *f)
{
  const double O1 = x[0] / p->I1, O2 = x[1] / p->I2, O3 = x[2] / p->I3, mgl = p->M * ge * p->l;
  f[0] = x[1] * O3 - x[2] * O2 + mgl * x[4] + a1 - c * x[4] * x[5] / p->I1;
  f[1] = x[2] * O1 - x[0] * O3 - mgl * x[3] + c * x[3] * x[5] / p->I2;
  f[2] = x[0] * O2 - x[1] * O1;
  f[3] = x[4] * O3 - x[5] * O2;
  f[4] = x[5] * O1 - x[3] * O3;
  f[5] = x[3] * O2 - x[4] * O1;
}

static int phase_rhs(void *par, double theta, const double *x, double *f)
{
  const kz_top *p = par;
  double ge = p->g, a1 = 0;
  if (p->forcing == KZ_TOP_TRANSVERSE) a1 = p->amp * cos(theta);
  else if (p->forcing == KZ_TOP_VERTICAL) ge += p->amp * p->nu * cos(theta);
  field(p, ge, a1, 0.0, x, f);
  return KZ_OK;
}

static int time_rhs(void *par, double t, const double *x, double *f)
{
  const kz_top *p = par;
  return phase_rhs(par, p->nu * t, x, f);
}

static double avg_coefficient(const kz_top *p)
{
  switch (p->avg) {
  case KZ_TOP_AVG_CORRECTED: return 0.5 * p->M * p->M * p->amp * p->amp * p->l * p->l;
  case KZ_TOP_AVG_PRINTED: return 0.5 * p->M * p->amp;
  default: return 0.0;
  }
}

static int averaged_rhs(void *par, double t, const double *x, double *f)
{
  (void)t;
  const kz_top *p = par;
  field(p, p->g, 0.0, avg_coefficient(p), x, f);
  return KZ_OK;
}

static int fill(kz_sys *s, kz_top *p, kz_rhs_fn rhs, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  KZ_TRY(check(p, r));
  const kz_sys v = {.dim = 6, .rhs = rhs, .par = p};
  *s = v;
  return KZ_OK;
}

int kz_top_sys(kz_sys *s, kz_top *p, kz_report *r) { return fill(s, p, time_rhs, r); }

int kz_top_averaged_sys(kz_sys *s, kz_top *p, kz_report *r) { return fill(s, p, averaged_rhs, r); }

int kz_top_vib(kz_vib *m, kz_top *p, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check(p, r));
  const kz_vib v = {6, 0, p->nu, 0.0, 0, phase_rhs, NULL, NULL, p};
  *m = v;
  return KZ_OK;
}

int kz_top_constants(const kz_top *p, double *c, kz_report *r)
{
  KZ_TRY(check(p, r));
  if (!c) return kz_bad(r, KZ_ENULL, "c");
  const double mgl = p->M * p->g * p->l;
  if (!(mgl > 0)) return kz_bad(r, KZ_EDOMAIN, "l"); /* Pi3^ needs M g l > 0 */
  const double hat = sqrt(2 * mgl * p->I3);
  c[KZ_TOP_PI3HAT] = hat;
  c[KZ_TOP_MGL] = mgl;
  c[KZ_TOP_THRESHOLD] = 2 * sqrt(mgl * p->I1) / p->I3;
  c[KZ_TOP_LAMBDA] = hat * (1 / p->I3 - 1 / p->I1);
  c[KZ_TOP_SPIN] = hat / p->I3;
  c[KZ_TOP_NUTATION] = hat / p->I1;
  c[KZ_TOP_AVGCOEF] = avg_coefficient(p);
  return KZ_OK;
}

int kz_top_invariants(const kz_top *p, const double *x, double *inv, kz_report *r)
{
  KZ_TRY(check(p, r));
  KZ_TRY(kz_check_vec(r, x, 6, "x"));
  if (!inv) return kz_bad(r, KZ_ENULL, "inv");
  inv[KZ_TOP_ENERGY] = 0.5 * (x[0] * x[0] / p->I1 + x[1] * x[1] / p->I2 + x[2] * x[2] / p->I3) +
                       p->M * p->g * p->l * x[5];
  inv[KZ_TOP_PIGAMMA] = x[0] * x[3] + x[1] * x[4] + x[2] * x[5];
  inv[KZ_TOP_GAMMA2] = x[3] * x[3] + x[4] * x[4] + x[5] * x[5];
  inv[KZ_TOP_PI3] = x[2];
  return KZ_OK;
}

int kz_top_drift(const kz_top *p, const double *x, const double *x0, double *d, kz_report *r)
{
  KZ_TRY(check(p, r));
  KZ_TRY(kz_check_vec(r, x, 6, "x"));
  KZ_TRY(kz_check_vec(r, x0, 6, "x0"));
  if (!d) return kz_bad(r, KZ_ENULL, "d");
  double dx[6], sx[6];
  for (int i = 0; i < 6; i++) dx[i] = x[i] - x0[i], sx[i] = x[i] + x0[i];
  /* a^2 - b^2 = (a - b)(a + b), ab - cd = (a - c) b + c (b - d) */
  d[KZ_TOP_ENERGY] = 0.5 * (dx[0] * sx[0] / p->I1 + dx[1] * sx[1] / p->I2 + dx[2] * sx[2] / p->I3) +
                     p->M * p->g * p->l * dx[5];
  d[KZ_TOP_PIGAMMA] = 0;
  for (int i = 0; i < 3; i++) d[KZ_TOP_PIGAMMA] += dx[i] * x[3 + i] + x0[i] * dx[3 + i];
  d[KZ_TOP_GAMMA2] = dx[3] * sx[3] + dx[4] * sx[4] + dx[5] * sx[5];
  d[KZ_TOP_PI3] = dx[2];
  return KZ_OK;
}
