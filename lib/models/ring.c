/* ring.c -- the 3-D spring ring of Ober-Bloebaum, Wenger, Gail & Leyendecker, "Variational
 * multirate integrators" (Sec. 6, Fig. 6.2): bodies of mass `mass` on a ring, each joined to its
 * neighbours by a quartic spring (eps/4)|q_{i+1} - q_i|^4 and to the origin by a linear one,
 * stiffness omega1 for the odd bodies (slow, in V) and omega2 for the even ones (fast, W), under
 * gravity along -e3:
 *   V = omega1/2 sum_odd |q_i|^2 + eps/4 sum_i |q_{i+1} - q_i|^4 + g_sign g mass sum_i (q_i)_3,
 *   W = omega2/2 sum_even |q_i|^2,
 * qs the odd bodies 1, 3, 5, qf the even ones 2, 4, 6 (three coordinates each). g_sign = 1 is the
 * physical sign; -1 the printed "+ q' M g" with g along -e3 (an upward force, kept as an option).
 * The value, gradient and Hessian of each potential are their own functions; the gradients and
 * Hessians add their terms into the arrays they are given (vmi.accumulate).
 * The model's one source (lib/models/kz_model.h: the preamble): read by its model file ring.lua and
 * compiled into the library's C API (kz_ring.c: kz_vmi_ring_model). */

/* The bodies come in pairs, 2 l of them (qs and qf hold 3 l numbers each): the paper's ring has
 * l = 3 (ring.lua: vmi.ns = nf = 9); the library's kz_vmi_ring_model takes any l (kz_ring.c
 * defines RING_PAIRS(p) as its parameter struct's field l). */
#ifndef RING_PAIRS
#define RING_PAIRS(p) 3
#endif

/* body i (0-based, ring order): even i = the paper's odd bodies (slow), odd i = fast; ns = 3 l */
static const double *position(int ns, int i, const double *qs, const double *qf, int *off)
{
  if (i % 2 == 0) { *off = 3 * (i / 2); return qs + 3 * (i / 2); }
  *off = ns + 3 * (i / 2);
  return qf + 3 * (i / 2);
}

static int V(const kz_par *p, const double *qs, const double *qf, double *v)
{
  const int n = 2 * RING_PAIRS(p), ns = 3 * RING_PAIRS(p);
  double val = 0;
  for (int i = 0; i < ns; i++) val += 0.5 * p->omega1 * qs[i] * qs[i];
  for (int i = 0; i < n; i++) { /* quartic ring spring between bodies i and i+1 */
    int oa, ob;
    const double *qa = position(ns, i, qs, qf, &oa), *qb = position(ns, (i + 1) % n, qs, qf, &ob);
    double d2 = 0;
    for (int c = 0; c < 3; c++) { const double d = qb[c] - qa[c]; d2 += d * d; }
    val += 0.25 * p->eps * d2 * d2;
  }
  const double gz = p->g_sign * p->g * p->mass; /* potential gz * z per body */
  for (int i = 0; i < n; i++) {
    int o;
    val += gz * position(ns, i, qs, qf, &o)[2];
  }
  *v = val;
  return KZ_OK;
}

/* gs or gf may be NULL (kz_vmi_model's V asked for one side only): its terms are left out */
static int V_gradient(const kz_par *p, const double *qs, const double *qf, double *gs, double *gf)
{
  const int n = 2 * RING_PAIRS(p), ns = 3 * RING_PAIRS(p);
  if (gs)
    for (int i = 0; i < ns; i++) gs[i] += p->omega1 * qs[i];
  for (int i = 0; i < n; i++) {
    int oa, ob;
    const double *qa = position(ns, i, qs, qf, &oa), *qb = position(ns, (i + 1) % n, qs, qf, &ob);
    double d[3], d2 = 0;
    for (int c = 0; c < 3; c++) { d[c] = qb[c] - qa[c]; d2 += d[c] * d[c]; }
    for (int c = 0; c < 3; c++) {
      const double g = p->eps * d2 * d[c]; /* dV/d(qb); dV/d(qa) = -g */
      if (ob < ns) { if (gs) gs[ob + c] += g; } else if (gf) gf[ob - ns + c] += g;
      if (oa < ns) { if (gs) gs[oa + c] -= g; } else if (gf) gf[oa - ns + c] -= g;
    }
  }
  const double gz = p->g_sign * p->g * p->mass;
  for (int i = 0; i < n; i++) {
    int o;
    (void)position(ns, i, qs, qf, &o);
    if (o < ns) { if (gs) gs[o + 2] += gz; } else if (gf) gf[o - ns + 2] += gz;
  }
  return KZ_OK;
}

static int V_hessian(const kz_par *p, const double *qs, const double *qf, double *hess)
{
  const int n = 2 * RING_PAIRS(p), ns = 3 * RING_PAIRS(p), nh = 6 * RING_PAIRS(p);
  for (int i = 0; i < ns; i++) hess[i * nh + i] += p->omega1;
  for (int i = 0; i < n; i++) {
    int oa, ob;
    const double *qa = position(ns, i, qs, qf, &oa), *qb = position(ns, (i + 1) % n, qs, qf, &ob);
    double d[3], d2 = 0;
    for (int c = 0; c < 3; c++) { d[c] = qb[c] - qa[c]; d2 += d[c] * d[c]; }
    for (int c = 0; c < 3; c++)
      for (int e = 0; e < 3; e++) {
        const double h = p->eps * ((c == e ? d2 : 0) + 2 * d[c] * d[e]);
        hess[(ob + c) * nh + ob + e] += h;
        hess[(oa + c) * nh + oa + e] += h;
        hess[(ob + c) * nh + oa + e] -= h;
        hess[(oa + c) * nh + ob + e] -= h;
      }
  }
  return KZ_OK;
}

static int W(const kz_par *p, const double *qf, double *w)
{
  const int nf = 3 * RING_PAIRS(p);
  double val = 0;
  for (int i = 0; i < nf; i++) val += 0.5 * p->omega2 * qf[i] * qf[i];
  *w = val;
  return KZ_OK;
}

static int W_gradient(const kz_par *p, const double *qf, double *g)
{
  const int nf = 3 * RING_PAIRS(p);
  for (int i = 0; i < nf; i++) g[i] += p->omega2 * qf[i];
  return KZ_OK;
}

static int W_hessian(const kz_par *p, const double *qf, double *hess)
{
  (void)qf;
  const int nf = 3 * RING_PAIRS(p);
  for (int i = 0; i < nf; i++) hess[i * nf + i] += p->omega2;
  return KZ_OK;
}
