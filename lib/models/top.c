/* top.c -- the heavy Lagrange top of Fredbo's thesis (M. Fredbo, "The Heterogeneous Multiscale
 * Method and the Spinning Top", MSc thesis, NTNU 2011), in body coordinates
 * x = (Pi1, Pi2, Pi3, Gamma1, Gamma2, Gamma3):
 *  (23)/(31) Pi' = Pi x Omega + M g l Gamma x chi, Gamma' = Gamma x Omega, Omega = I^-1 Pi,
 *            chi = (0, 0, 1) (Gamma x chi = (Gamma2, -Gamma1, 0)); (31) is (23) with
 *            Pi3 = spin Pi3^, Pi3^ = sqrt(2 M g l I3): the spin enters through the initial state;
 *  (38)-(39) the transverse vibrational torque amp cos(nu t) added to dPi1/dt (forcing = 1;
 *            the thesis: amp = nu = omega);
 *  (41)      the vertical vibration (forcing = 2): g replaced by g + amp nu cos(nu t) (amp = A);
 *  (48)      its averaged equation, corrected (notes A14): the first term Pi x I^-1 Pi (printed
 *            Gamma x I^-1 Pi), and the vibration term c (-Gamma2 Gamma3/I1, Gamma1 Gamma3/I2, 0)
 *            with c = 2 a^2 = M^2 A^2 l^2 / 2 from (45) (avg = 0; avg = 1: the printed
 *            c = M A / 2; avg = 2: c = 0);
 *  (24)      the invariants H = 1/2 Pi . Omega + M g l Gamma3, Pi . Gamma, |Gamma|^2 and Pi3.
 * The slow-variable sets of the slow-variable HMM (xi1 = Pi3 is constant and never solved for,
 * Alg. 4 step 3b: frozen; each set lists xi2 .. xi5, r = 4):
 *  xi32 (32) Gamma3, Pi1^2 + Pi2^2, Gamma1^2 + Gamma2^2, Pi1 Gamma1 + Pi2 Gamma2 (Sec. 4.3);
 *  xi37 (37) Pi1^2 + Pi2^2, phi', theta', psi' (Sec. 5.2): the Euler-angle rates from the
 *       inversion of (29) (the printed (30) swaps its rows 2 and 3, notes Sec. 3.2):
 *       phi' = (Gamma1 Pi1 / I1 + Gamma2 Pi2 / I2) / s^2, theta' = (Gamma2 Pi1 / I1
 *       - Gamma1 Pi2 / I2) / s, psi' = Pi3 / I3 - Gamma3 phi', s = sin theta = sqrt(G1^2 + G2^2);
 *  xi40 (40) Pi1 - (amp/nu) sin(theta), Pi2 + (amp/nu) cos(theta), Gamma1^2 + Gamma2^2,
 *       arccos Gamma3 (Sec. 6, the transverse vibration; theta = nu t the phase); arccos with
 *       Gamma3 clamped to [-1, 1] and gradient -1/sqrt(1 - Gamma3^2) e_Gamma3 (notes A13).
 * The fast phase is theta = nu t. forcing and avg are numbers standing for the choices above
 * (enum kz_top_forcing and kz_top_avg of kapitza/models.h).
 * The model's one source (lib/models/kz_model.h: the preamble): read by its model file top.lua and
 * compiled into the library's C API (kz_top.c: kz_top_sys, _vib, _averaged_sys, _slow,
 * _invariants, ...). */

#include <string.h>
enum { FREE = 0, TRANSVERSE = 1, VERTICAL = 2, CORRECTED = 0, PRINTED = 1 };

/* Pi' and Gamma' of the top with effective gravity ge and transverse torque a1, plus the
 * averaged vibration term c (-G2 G3 / I1, G1 G3 / I2, 0) */
static inline void field(const kz_par *p, double ge, double a1, double c, const double *x, double *f)
{
  const double O1 = x[0] / p->I1, O2 = x[1] / p->I2, O3 = x[2] / p->I3, mgl = p->M * ge * p->l;
  f[0] = x[1] * O3 - x[2] * O2 + mgl * x[4] + a1 - c * x[4] * x[5] / p->I1;
  f[1] = x[2] * O1 - x[0] * O3 - mgl * x[3] + c * x[3] * x[5] / p->I2;
  f[2] = x[0] * O2 - x[1] * O1;
  f[3] = x[4] * O3 - x[5] * O2;
  f[4] = x[5] * O1 - x[3] * O3;
  f[5] = x[3] * O2 - x[4] * O1;
}

/* (23), (38) or (41) at the phase theta = nu t */
static int phase_rhs(const kz_par *p, double theta, const double *x, double *f)
{
  double ge = p->g, a1 = 0;
  if (p->forcing == TRANSVERSE) a1 = p->amp * cos(theta);
  else if (p->forcing == VERTICAL) ge += p->amp * p->nu * cos(theta);
  field(p, ge, a1, 0.0, x, f);
  return KZ_OK;
}

static double avg_coefficient(const kz_par *p)
{
  if (p->avg == CORRECTED) return 0.5 * p->M * p->M * p->amp * p->amp * p->l * p->l;
  if (p->avg == PRINTED) return 0.5 * p->M * p->amp;
  return 0.0;
}

/* (48) */
static int averaged(const kz_par *p, const double *x, double *f)
{
  field(p, p->g, 0.0, avg_coefficient(p), x, f);
  return KZ_OK;
}

/* Sec. 4.3's constants and Theorem 2's threshold: c = (Pi3^ = sqrt(2 M g l I3), M g l,
 * 2 sqrt(M g l I1) / I3, the body rotation rate of (Pi1, Pi2) per unit spin Pi3^ (1/I3 - 1/I1),
 * Omega3 per unit spin Pi3^ / I3, the nutation rate per unit spin Pi3^ / I1, the coefficient c of
 * (48)); KZ_EDOMAIN when M g l <= 0 (Pi3^ needs it) */
static inline int constants(const kz_par *p, double *c)
{
  const double mgl = p->M * p->g * p->l;
  if (!(mgl > 0)) return KZ_EDOMAIN;
  const double hat = sqrt(2 * mgl * p->I3);
  c[0] = hat;
  c[1] = mgl;
  c[2] = 2 * sqrt(mgl * p->I1) / p->I3;
  c[3] = hat * (1 / p->I3 - 1 / p->I1);
  c[4] = hat / p->I3;
  c[5] = hat / p->I1;
  c[6] = avg_coefficient(p);
  return KZ_OK;
}

/* (24) */
static int energy(const kz_par *p, const double *x, double *v)
{
  *v = 0.5 * (x[0] * x[0] / p->I1 + x[1] * x[1] / p->I2 + x[2] * x[2] / p->I3) + p->M * p->g * p->l * x[5];
  return KZ_OK;
}
static int pi_gamma(const kz_par *p, const double *x, double *v)
{
  (void)p;
  *v = x[0] * x[3] + x[1] * x[4] + x[2] * x[5];
  return KZ_OK;
}
static int gamma2(const kz_par *p, const double *x, double *v)
{
  (void)p;
  *v = x[3] * x[3] + x[4] * x[4] + x[5] * x[5];
  return KZ_OK;
}
static int pi3(const kz_par *p, const double *x, double *v)
{
  (void)p;
  *v = x[2];
  return KZ_OK;
}

/* the changes I(x) - I(x0) of (H, Pi . Gamma, |Gamma|^2, Pi3) without cancellation (addendum 9:
 * differences of the components first, a^2 - b^2 = (a - b)(a + b), ab - cd = (a - c) b + c (b - d)) */
static inline void drift(const kz_par *p, const double *x, const double *x0, double *d)
{
  double dx[6], sx[6];
  for (int i = 0; i < 6; i++) dx[i] = x[i] - x0[i], sx[i] = x[i] + x0[i];
  d[0] = 0.5 * (dx[0] * sx[0] / p->I1 + dx[1] * sx[1] / p->I2 + dx[2] * sx[2] / p->I3) + p->M * p->g * p->l * dx[5];
  d[1] = 0;
  for (int i = 0; i < 3; i++) d[1] += dx[i] * x[3 + i] + x0[i] * dx[3 + i];
  d[2] = dx[3] * sx[3] + dx[4] * sx[4] + dx[5] * sx[5];
  d[3] = dx[2];
}

/* the sets (32) and (37) do not depend on the phase */
static int no_dtheta(const kz_par *p, double theta, const double *x, double *xt)
{
  (void)p, (void)theta, (void)x;
  memset(xt, 0, sizeof(double) * 4);
  return KZ_OK;
}

/* (32) */
static int xi32(const kz_par *p, double theta, const double *x, double *xi)
{
  (void)p, (void)theta;
  xi[0] = x[5];
  xi[1] = x[0] * x[0] + x[1] * x[1];
  xi[2] = x[3] * x[3] + x[4] * x[4];
  xi[3] = x[0] * x[3] + x[1] * x[4];
  return KZ_OK;
}
static int xi32_gradient(const kz_par *p, double theta, const double *x, double *g)
{
  (void)p, (void)theta;
  memset(g, 0, sizeof(double) * 24);
  g[5] = 1;                                   /* grad Gamma3 */
  g[6 + 0] = 2 * x[0], g[6 + 1] = 2 * x[1];   /* grad (Pi1^2 + Pi2^2) */
  g[12 + 3] = 2 * x[3], g[12 + 4] = 2 * x[4]; /* grad (Gamma1^2 + Gamma2^2) */
  g[18 + 0] = x[3], g[18 + 1] = x[4], g[18 + 3] = x[0], g[18 + 4] = x[1];
  return KZ_OK;
}

/* (37): the Euler angles are singular at theta = 0 (s = 0) */
/* what (37) and its gradient share: s^2, s, A = Gamma1 Pi1 / I1 + Gamma2 Pi2 / I2,
 * B = Gamma2 Pi1 / I1 - Gamma1 Pi2 / I2, phi' = A / s^2; KZ_EDOMAIN at s = 0 */
struct euler_rates { double s2, s, A, B, phid; };
static int euler_rates(const kz_par *p, const double *x, struct euler_rates *e)
{
  const double P1 = x[0], P2 = x[1], G1 = x[3], G2 = x[4];
  e->s2 = G1 * G1 + G2 * G2;
  e->s = sqrt(e->s2);
  if (!(e->s > 0)) return KZ_EDOMAIN;
  e->A = G1 * P1 / p->I1 + G2 * P2 / p->I2;
  e->B = G2 * P1 / p->I1 - G1 * P2 / p->I2;
  e->phid = e->A / e->s2;
  return KZ_OK;
}

static int xi37(const kz_par *p, double theta, const double *x, double *xi)
{
  (void)theta;
  struct euler_rates e;
  if (euler_rates(p, x, &e) != KZ_OK) return KZ_EDOMAIN;
  xi[0] = x[0] * x[0] + x[1] * x[1];
  xi[1] = e.phid;
  xi[2] = e.B / e.s;
  xi[3] = x[2] / p->I3 - x[5] * e.phid;
  return KZ_OK;
}
static int xi37_gradient(const kz_par *p, double theta, const double *x, double *g)
{
  (void)theta;
  struct euler_rates e;
  if (euler_rates(p, x, &e) != KZ_OK) return KZ_EDOMAIN;
  const double P1 = x[0], P2 = x[1], G1 = x[3], G2 = x[4], G3 = x[5];
  const double s2 = e.s2, s = e.s, A = e.A, B = e.B, phid = e.phid;
  memset(g, 0, sizeof(double) * 24);
  g[0] = 2 * P1, g[1] = 2 * P2;
  double *gp = g + 6, *gt = g + 12, *gs = g + 18;
  gp[0] = G1 / (p->I1 * s2);
  gp[1] = G2 / (p->I2 * s2);
  gp[3] = P1 / (p->I1 * s2) - 2 * G1 * A / (s2 * s2);
  gp[4] = P2 / (p->I2 * s2) - 2 * G2 * A / (s2 * s2);
  const double s3 = s2 * s;
  gt[0] = G2 / (p->I1 * s);
  gt[1] = -G1 / (p->I2 * s);
  gt[3] = -P2 / (p->I2 * s) - G1 * B / s3;
  gt[4] = P1 / (p->I1 * s) - G2 * B / s3;
  for (int j = 0; j < 6; j++) gs[j] = -G3 * gp[j];
  gs[2] += 1 / p->I3;
  gs[5] -= phid;
  return KZ_OK;
}

/* (40), the transverse vibration */
static int xi40(const kz_par *p, double theta, const double *x, double *xi)
{
  const double k = p->nu > 0 ? p->amp / p->nu : 0.0, st = sin(theta), ct = cos(theta);
  double G3 = x[5];
  if (G3 > 1) G3 = 1;
  if (G3 < -1) G3 = -1;
  xi[0] = x[0] - k * st;
  xi[1] = x[1] + k * ct;
  xi[2] = x[3] * x[3] + x[4] * x[4];
  xi[3] = acos(G3);
  return KZ_OK;
}
static int xi40_gradient(const kz_par *p, double theta, const double *x, double *g)
{
  (void)p, (void)theta;
  double G3 = x[5];
  if (G3 > 1) G3 = 1;
  if (G3 < -1) G3 = -1;
  memset(g, 0, sizeof(double) * 24);
  g[0] = 1;
  g[6 + 1] = 1;
  g[12 + 3] = 2 * x[3], g[12 + 4] = 2 * x[4];
  const double q = 1 - G3 * G3;
  if (!(q > 0)) return KZ_EDOMAIN; /* arccos is not differentiable at Gamma3 = +-1 */
  g[18 + 5] = -1 / sqrt(q);
  return KZ_OK;
}
static int xi40_dtheta(const kz_par *p, double theta, const double *x, double *xt)
{
  (void)x;
  const double k = p->nu > 0 ? p->amp / p->nu : 0.0, st = sin(theta), ct = cos(theta);
  xt[0] = -k * ct;
  xt[1] = -k * st;
  xt[2] = xt[3] = 0;
  return KZ_OK;
}
