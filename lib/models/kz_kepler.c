/* kz_kepler.c -- the perturbed Kepler problem ("main problem of artificial satellite theory",
 * Kirchgraber) of Calvo, Chartier, Murua & Sanz-Serna, Sec. 2(iv), eqs. (18)-(19), Sec. 5.1.
 * In the fictitious time tau of (19):
 *   dx/dtau = lam v,  dv/dtau = lam (-x/r^3 + eps G(x)),  G = -grad V,
 *   V = -1/(2 r^3) + 3 x1^2 / (2 r^5),  lam = (-2E)^(-3/2),  E = |v|^2/2 - 1/r.
 * Errata (notes seed-003 Sec. 6.1): the paper prints E = |v|^2/2 - 2/r and T = 2 pi (-2E)^(3/2);
 * only the Kepler energy with -1/r and lam = (-2E)^(-3/2) make every unperturbed bound orbit
 * 2 pi-periodic in tau (checked by kz_kepler_flow and the tests).
 * Splitting (Sec. 5.1.2): A = perturbation dv/dtau = eps lam(x, v) G(x), x frozen, advanced by
 * one implicit-midpoint step (a scalar fixed point, since v moves along G(x) only); B = the
 * unperturbed flow, exact, by the Lagrange f and g functions with Kepler's equation solved by
 * Newton in the eccentric-anomaly increment. */
#include "kz_internal.h"

/* NaN for a NULL or non-finite state (the function has no status to return). */
double kz_kepler_energy(const double *y)
{
  if (!y) return NAN;
  for (int i = 0; i < 4; i++)
    if (!isfinite(y[i])) return NAN;
  const double r = sqrt(y[0] * y[0] + y[1] * y[1]);
  return 0.5 * (y[2] * y[2] + y[3] * y[3]) - 1 / r;
}

/* lam = (-2E)^(-3/2); 0 if the orbit is not bound. */
static double kep_lambda(double x1, double x2, double v1, double v2)
{
  const double r = sqrt(x1 * x1 + x2 * x2);
  const double m2E = 2 / r - (v1 * v1 + v2 * v2);
  if (!(m2E > 0)) return 0;
  return 1 / (m2E * sqrt(m2E));
}

static void kep_G(double x1, double x2, double *G1, double *G2)
{
  const double r2 = x1 * x1 + x2 * x2, r = sqrt(r2);
  const double ir5 = 1 / (r2 * r2 * r), ir7 = ir5 / r2;
  *G1 = -4.5 * x1 * ir5 + 7.5 * x1 * x1 * x1 * ir7;
  *G2 = -1.5 * x2 * ir5 + 7.5 * x1 * x1 * x2 * ir7;
}

static int kep_rhs(void *par, double t, const double *y, double *dy)
{
  (void)t;
  const double eps = ((const kz_kepler *)par)->eps;
  const double lam = kep_lambda(y[0], y[1], y[2], y[3]);
  if (!(lam > 0) || !isfinite(lam)) return KZ_EDOMAIN;
  const double r2 = y[0] * y[0] + y[1] * y[1], ir3 = 1 / (r2 * sqrt(r2));
  double G1, G2;
  kep_G(y[0], y[1], &G1, &G2);
  dy[0] = lam * y[2];
  dy[1] = lam * y[3];
  dy[2] = lam * (-y[0] * ir3 + eps * G1);
  dy[3] = lam * (-y[1] * ir3 + eps * G2);
  return KZ_OK;
}

/* A: one implicit-midpoint step of dv = eps lam(x, v) G(x) dtau: v_new = v + c G with
 * c = h eps lam(x, v + c G / 2), by fixed-point iteration to round-off. The iteration
 * contracts only for |h eps| small enough; when it does not (the correction stops shrinking
 * while still large, or 60 iterations pass) the step fails with KZ_ENOCONV. */
static int kep_flow_pert(void *par, double t, double h, double *y, kz_report *r)
{
  const double eps = ((const kz_kepler *)par)->eps;
  double G1, G2;
  kep_G(y[0], y[1], &G1, &G2);
  double c = h * eps * kep_lambda(y[0], y[1], y[2], y[3]), last = INFINITY;
  for (int it = 0;; it++) {
    if (it >= 60) return kz_fail(r, KZ_ENOCONV, "kepler midpoint", -1, t);
    const double lam = kep_lambda(y[0], y[1], y[2] + 0.5 * c * G1, y[3] + 0.5 * c * G2);
    if (!(lam > 0)) return kz_fail(r, KZ_EDOMAIN, "kepler energy", -1, t);
    const double cn = h * eps * lam, dc = fabs(cn - c);
    if (r) r->newton_iters++;
    /* converged, or stalled at round-off: the correction stopped shrinking but is already
     * within a few thousand ulps of c. Stopped shrinking while larger: the fixed point does
     * not contract (diverging or oscillating), so the step fails rather than use c. */
    const int tiny = dc <= 1e-12 * fabs(cn);
    const int stalled = it >= 3 && dc >= last;
    if (stalled && !tiny) return kz_fail(r, KZ_ENOCONV, "kepler midpoint", -1, t);
    c = cn;
    last = dc;
    if (dc <= 1e-15 * fabs(cn) || stalled) break;
  }
  y[2] += c * G1;
  y[3] += c * G2;
  return KZ_OK;
}

int kz_kepler_flow(const double *y, double tau, double *yout, kz_report *r)
{
  if (!y || !yout) return kz_bad(r, KZ_ENULL, "y");
  KZ_TRY(kz_check_vec(r, y, 4, "y"));
  KZ_TRY(kz_check_num(r, tau, "tau", 0));
  const double x1 = y[0], x2 = y[1], v1 = y[2], v2 = y[3];
  const double r0 = sqrt(x1 * x1 + x2 * x2);
  if (!(r0 > 0)) return kz_bad(r, KZ_EDOMAIN, "y");
  const double E = 0.5 * (v1 * v1 + v2 * v2) - 1 / r0;
  if (!(E < 0)) return kz_bad(r, KZ_EDOMAIN, "kepler energy");
  const double a = -1 / (2 * E), sa = sqrt(a), sig0 = x1 * v1 + x2 * v2;
  const double ec = 1 - r0 / a, es = sig0 / sa; /* e cos E0, e sin E0 */
  /* Kepler's equation in dE: tau = dE - ec sin dE + es (1 - cos dE) */
  double dE = tau;
  for (int it = 0;; it++) {
    if (it >= 100) return kz_fail(r, KZ_ENOCONV, "kepler equation", -1, tau);
    const double s = sin(dE), c = cos(dE);
    const double f = dE - ec * s + es * (1 - c) - tau, fp = 1 - ec * c + es * s;
    const double step = f / fp;
    dE -= step;
    if (r) r->newton_iters++;
    if (fabs(step) <= 1e-15 * fmax(1.0, fabs(dE))) break;
  }
  const double s = sin(dE), c = cos(dE);
  const double rr = a + (r0 - a) * c + sig0 * sa * s;
  const double f = 1 - (a / r0) * (1 - c), g = a * sa * (tau - dE + s);
  const double fd = -sa * s / (rr * r0), gd = 1 - (a / rr) * (1 - c);
  yout[0] = f * x1 + g * v1;
  yout[1] = f * x2 + g * v2;
  yout[2] = fd * x1 + gd * v1;
  yout[3] = fd * x2 + gd * v2;
  return KZ_OK;
}

static int kep_flow_kepler(void *par, double t, double h, double *y, kz_report *r)
{
  (void)par;
  (void)t;
  return kz_kepler_flow(y, h, y, r);
}

static int check(kz_kepler *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "kepler");
  if (!isfinite(p->eps)) return kz_bad(r, KZ_ENONFINITE, "eps");
  if (p->eps < 0) return kz_bad(r, KZ_EDOMAIN, "eps");
  return KZ_OK;
}

int kz_kepler_sys(kz_sys *s, kz_kepler *p, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "sys");
  KZ_TRY(check(p, r));
  const kz_sys v = {.dim = 4, .rhs = kep_rhs, .par = p, .flow_a = kep_flow_pert, .flow_b = kep_flow_kepler};
  *s = v;
  return KZ_OK;
}
