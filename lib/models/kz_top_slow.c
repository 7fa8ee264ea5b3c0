/* kz_top_slow.c -- the slow-variable sets of the spinning top in Fredbo's thesis (M. Fredbo,
 * "The Heterogeneous Multiscale Method and the Spinning Top", MSc thesis, NTNU 2011), with their
 * gradients with respect to x = (Pi1, Pi2, Pi3, Gamma1, Gamma2, Gamma3). xi1 = Pi3 is constant
 * and never solved for (Alg. 4 step 3b): it is frozen, and each set lists xi2 .. xi5 (r = 4).
 *  (32) Gamma3, Pi1^2 + Pi2^2, Gamma1^2 + Gamma2^2, Pi1 Gamma1 + Pi2 Gamma2 (Sec. 4.3);
 *  (37) Pi1^2 + Pi2^2, phi', theta', psi' (Sec. 5.2): the Euler-angle rates from the inversion
 *       of (29) (the printed (30) swaps its rows 2 and 3, notes §3.2):
 *       phi' = (Gamma1 Pi1 / I1 + Gamma2 Pi2 / I2) / s^2, theta' = (Gamma2 Pi1 / I1
 *       - Gamma1 Pi2 / I2) / s, psi' = Pi3 / I3 - Gamma3 phi', s = sin theta = sqrt(G1^2 + G2^2);
 *  (40) Pi1 - (amp/nu) sin(theta), Pi2 + (amp/nu) cos(theta), Gamma1^2 + Gamma2^2,
 *       arccos Gamma3 (Sec. 6; theta = nu t the phase, amp/nu = 1 in (39)); arccos with Gamma3
 *       clamped to [-1, 1] and gradient -1/sqrt(1 - Gamma3^2) e_Gamma3 (notes A13). */
#include "kz_internal.h"
#include <string.h>

static const int frozen_pi3[6] = {0, 0, 1, 0, 0, 0};

static int set32(void *par, double theta, const double *x, double *xi, double *g, double *xt)
{
  (void)par, (void)theta;
  xi[0] = x[5];
  xi[1] = x[0] * x[0] + x[1] * x[1];
  xi[2] = x[3] * x[3] + x[4] * x[4];
  xi[3] = x[0] * x[3] + x[1] * x[4];
  if (g) {
    memset(g, 0, sizeof(double) * 24);
    g[5] = 1;                                  /* grad Gamma3 */
    g[6 + 0] = 2 * x[0], g[6 + 1] = 2 * x[1];  /* grad (Pi1^2 + Pi2^2) */
    g[12 + 3] = 2 * x[3], g[12 + 4] = 2 * x[4]; /* grad (Gamma1^2 + Gamma2^2) */
    g[18 + 0] = x[3], g[18 + 1] = x[4], g[18 + 3] = x[0], g[18 + 4] = x[1];
  }
  if (xt) memset(xt, 0, sizeof(double) * 4);
  return KZ_OK;
}

static int set37(void *par, double theta, const double *x, double *xi, double *g, double *xt)
{
  (void)theta;
  const kz_top *p = par;
  const double P1 = x[0], P2 = x[1], G1 = x[3], G2 = x[4], G3 = x[5];
  const double s2 = G1 * G1 + G2 * G2, s = sqrt(s2);
  if (!(s > 0)) return KZ_EDOMAIN; /* the Euler angles are singular at theta = 0 */
  const double A = G1 * P1 / p->I1 + G2 * P2 / p->I2, B = G2 * P1 / p->I1 - G1 * P2 / p->I2;
  const double phid = A / s2;
  xi[0] = P1 * P1 + P2 * P2;
  xi[1] = phid;
  xi[2] = B / s;
  xi[3] = x[2] / p->I3 - G3 * phid;
  if (g) {
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
  }
  if (xt) memset(xt, 0, sizeof(double) * 4);
  return KZ_OK;
}

static int set40(void *par, double theta, const double *x, double *xi, double *g, double *xt)
{
  const kz_top *p = par;
  const double k = p->nu > 0 ? p->amp / p->nu : 0.0, st = sin(theta), ct = cos(theta);
  double G3 = x[5];
  if (G3 > 1) G3 = 1;
  if (G3 < -1) G3 = -1;
  xi[0] = x[0] - k * st;
  xi[1] = x[1] + k * ct;
  xi[2] = x[3] * x[3] + x[4] * x[4];
  xi[3] = acos(G3);
  if (g) {
    memset(g, 0, sizeof(double) * 24);
    g[0] = 1;
    g[6 + 1] = 1;
    g[12 + 3] = 2 * x[3], g[12 + 4] = 2 * x[4];
    const double q = 1 - G3 * G3;
    if (!(q > 0)) return KZ_EDOMAIN; /* arccos is not differentiable at Gamma3 = +-1 */
    g[18 + 5] = -1 / sqrt(q);
  }
  if (xt) {
    xt[0] = -k * ct;
    xt[1] = -k * st;
    xt[2] = xt[3] = 0;
  }
  return KZ_OK;
}

int kz_top_slow(kz_slow *s, kz_top *p, int set, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "slow");
  if (!p) return kz_bad(r, KZ_ENULL, "top");
  static const kz_slow_fn fns[KZ_TOP_SET_END] = {set32, set37, set40};
  if (set < 0 || set >= KZ_TOP_SET_END) return kz_bad(r, KZ_EDOMAIN, "set");
  if (set == KZ_TOP_XI37 && !(p->I1 > 0 && p->I2 > 0 && p->I3 > 0)) return kz_bad(r, KZ_EDOMAIN, "I");
  if (set == KZ_TOP_XI40 && (p->forcing != KZ_TOP_TRANSVERSE || !(p->nu > 0)))
    return kz_bad(r, KZ_EMODEL, "set"); /* (40) belongs to the transverse vibration (38) */
  const kz_slow v = {4, 6, fns[set], frozen_pi3, p};
  *s = v;
  return KZ_OK;
}
