/* kepler.c -- the perturbed Kepler problem ("main problem of artificial satellite theory",
 * Kirchgraber) of Calvo, Chartier, Murua & Sanz-Serna, "Numerical stroboscopic averaging for ODEs
 * and DAEs" (Appl. Numer. Math. 61, 2011), Sec. 2(iv), (18)-(19), Sec. 5.1. In the fictitious time
 * tau of (19), y = (x1, x2, v1, v2):
 *   dx/dtau = lam v,  dv/dtau = lam (-x/r^3 + eps G(x)),  G = -grad V,
 *   V = -1/(2 r^3) + 3 x1^2 / (2 r^5),  lam = (-2E)^(-3/2),  E = |v|^2/2 - 1/r.
 * Errata (notes seed-003 Sec. 6.1): the paper prints E = |v|^2/2 - 2/r and T = 2 pi (-2E)^(3/2);
 * only the Kepler energy with -1/r and lam = (-2E)^(-3/2) make every unperturbed bound orbit
 * 2 pi-periodic in tau. Splitting (Sec. 5.1.2):
 *   a: the perturbation dv/dtau = eps lam(x, v) G(x), x frozen, one implicit-midpoint step (a
 *      scalar fixed point, v moving along G(x) only), iterated to round-off;
 *   b: the unperturbed flow, exact: Lagrange's f and g functions, Kepler's equation solved by
 *      Newton in the eccentric-anomaly increment.
 * The flows count their iterations (kz_iteration) and name a refusal's cause (kz_refuse).
 * The model's one source (lib/models/kz_model.h: the preamble): read by its model file kepler.lua
 * and compiled into the library's C API (kz_kepler.c: kz_kepler_sys, kz_kepler_flow, which is
 * flow b, and kz_kepler_energy). */

/* lam = (-2E)^(-3/2); 0 if the orbit is not bound. */
static double lambda(double x1, double x2, double v1, double v2)
{
  const double r = sqrt(x1 * x1 + x2 * x2);
  const double m2E = 2 / r - (v1 * v1 + v2 * v2);
  if (!(m2E > 0)) return 0;
  return 1 / (m2E * sqrt(m2E));
}

/* G = -grad V */
static void perturbing_force(double x1, double x2, double *G1, double *G2)
{
  const double r2 = x1 * x1 + x2 * x2, r = sqrt(r2);
  const double ir5 = 1 / (r2 * r2 * r), ir7 = ir5 / r2;
  *G1 = -4.5 * x1 * ir5 + 7.5 * x1 * x1 * x1 * ir7;
  *G2 = -1.5 * x2 * ir5 + 7.5 * x1 * x1 * x2 * ir7;
}

/* (19) */
static int field(const kz_par *p, double t, const double *y, double *dy)
{
  (void)t;
  const double eps = p->eps;
  const double lam = lambda(y[0], y[1], y[2], y[3]);
  if (!(lam > 0) || !isfinite(lam)) return KZ_EDOMAIN;
  const double r2 = y[0] * y[0] + y[1] * y[1], ir3 = 1 / (r2 * sqrt(r2));
  double G1, G2;
  perturbing_force(y[0], y[1], &G1, &G2);
  dy[0] = lam * y[2];
  dy[1] = lam * y[3];
  dy[2] = lam * (-y[0] * ir3 + eps * G1);
  dy[3] = lam * (-y[1] * ir3 + eps * G2);
  return KZ_OK;
}

/* a: one implicit-midpoint step of dv = eps lam(x, v) G(x) dtau: v_new = v + c G with
 * c = h eps lam(x, v + c G / 2), by fixed-point iteration to round-off. The iteration contracts
 * only for |h eps| small enough; when it does not (the correction stops shrinking while still
 * large, or 60 iterations pass) the step fails (KZ_ENOCONV). */
static int perturbation(const kz_par *p, double t, double h, double *y)
{
  (void)t;
  const double eps = p->eps;
  double G1, G2;
  perturbing_force(y[0], y[1], &G1, &G2);
  double c = h * eps * lambda(y[0], y[1], y[2], y[3]), last = INFINITY;
  for (int it = 0;; it++) {
    if (it >= 60) return kz_refuse(KZ_ENOCONV, "kepler midpoint");
    const double lam = lambda(y[0], y[1], y[2] + 0.5 * c * G1, y[3] + 0.5 * c * G2);
    if (!(lam > 0)) return kz_refuse(KZ_EDOMAIN, "kepler energy");
    const double cn = h * eps * lam, dc = fabs(cn - c);
    kz_iteration();
    /* converged, or stalled at round-off (the correction stopped shrinking but is already within
     * a few thousand ulps of c); stopped shrinking while larger: no contraction, the step fails */
    const int tiny = dc <= 1e-12 * fabs(cn);
    const int stalled = it >= 3 && dc >= last;
    if (stalled && !tiny) return kz_refuse(KZ_ENOCONV, "kepler midpoint");
    c = cn;
    last = dc;
    if (dc <= 1e-15 * fabs(cn) || stalled) break;
  }
  y[2] += c * G1;
  y[3] += c * G2;
  return KZ_OK;
}

/* b: the Kepler flow over tau = h, exact (f and g functions; Kepler's equation in the
 * eccentric-anomaly increment dE, tau = dE - e cos E0 sin dE + e sin E0 (1 - cos dE), by Newton) */
static int kepler_flow(const kz_par *p, double t, double tau, double *y)
{
  (void)p;
  (void)t;
  for (int i = 0; i < 4; i++)
    if (!isfinite(y[i])) return kz_refuse(KZ_ENONFINITE, "y");
  if (!isfinite(tau)) return kz_refuse(KZ_ENONFINITE, "tau");
  const double x1 = y[0], x2 = y[1], v1 = y[2], v2 = y[3];
  const double r0 = sqrt(x1 * x1 + x2 * x2);
  if (!(r0 > 0)) return kz_refuse(KZ_EDOMAIN, "y");
  const double E = 0.5 * (v1 * v1 + v2 * v2) - 1 / r0;
  if (!(E < 0)) return kz_refuse(KZ_EDOMAIN, "kepler energy");
  const double a = -1 / (2 * E), sa = sqrt(a), sig0 = x1 * v1 + x2 * v2;
  const double ec = 1 - r0 / a, es = sig0 / sa; /* e cos E0, e sin E0 */
  double dE = tau;
  for (int it = 0;; it++) {
    if (it >= 100) return kz_refuse(KZ_ENOCONV, "kepler equation");
    const double s = sin(dE), c = cos(dE);
    const double f = dE - ec * s + es * (1 - c) - tau, fp = 1 - ec * c + es * s;
    const double step = f / fp;
    dE -= step;
    kz_iteration();
    if (fabs(step) <= 1e-15 * fmax(1.0, fabs(dE))) break;
  }
  const double s = sin(dE), c = cos(dE);
  const double rr = a + (r0 - a) * c + sig0 * sa * s;
  const double f = 1 - (a / r0) * (1 - c), g = a * sa * (tau - dE + s);
  const double fd = -sa * s / (rr * r0), gd = 1 - (a / rr) * (1 - c);
  y[0] = f * x1 + g * v1;
  y[1] = f * x2 + g * v2;
  y[2] = fd * x1 + gd * v1;
  y[3] = fd * x2 + gd * v2;
  return KZ_OK;
}
