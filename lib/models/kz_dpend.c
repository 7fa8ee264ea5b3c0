/* kz_dpend.c -- the vertically vibrated double pendulum with rigid rods: Calvo & Sanz-Serna
 * (4.3) (descriptor form, index 3) and Calvo, Chartier, Murua & Sanz-Serna Sec. 6.2 (the same
 * system in GGL form, (37)-(40)); masses m1, m2, rods l1 (pivot to m1) and l2 (m1 to m2), the
 * y axis up, the pivot's vertical acceleration a(t) = vmax omega cos(omega t + theta0) ((2.3)):
 *     m1 x1'' = 2 x1 L1 + 2 (x1 - x2) L2,      m1 y1'' = -m1 (g + a) + 2 y1 L1 + 2 (y1 - y2) L2,
 *     m2 x2'' = 2 (x2 - x1) L2,                 m2 y2'' = -m2 (g + a) + 2 (y2 - y1) L2,
 *     x1^2 + y1^2 - l1^2 = 0,   (x2 - x1)^2 + (y2 - y1)^2 - l2^2 = 0.
 * The reference in angle ("Lagrangian") coordinates, q1, q2 the absolute rod angles from the
 * upward vertical: the Euler-Lagrange equations of T = (m1+m2) l1^2 q1'^2 / 2 + m2 l1 l2
 * cos(q1-q2) q1' q2' + m2 l2^2 q2'^2 / 2, V = (g + a)((m1+m2) l1 cos q1 + m2 l2 cos q2).
 * The averaged (Kapitza) equations for omega -> infinity (derived here; Landau & Lifshitz,
 * Mechanics Sec. 30, for a q-dependent mass matrix M(q)): the fast force -a(t) grad Y with
 * Y = (m1+m2) l1 cos q1 + m2 l2 cos q2 drives xi = (vmax/omega) cos(omega t) M^-1 grad Y; the
 * averaged Lagrangian is T - V_g - (vmax^2/4) W, W = grad Y' M^-1 grad Y, which works out to
 *     W = (m1+m2) [(m1+m2) s1^2 - 2 m2 cos(q1-q2) s1 s2 + m2 s2^2] / (m1 + m2 sin^2(q1-q2)),
 * s_i = sin q_i. For one rod (m2 -> 0) V_g + vmax^2 W/4 gives Calvo & Sanz-Serna (2.5)-(2.6). */
#include "kz_internal.h"

static int check(const kz_dpend *p, kz_report *r)
{
  if (!p) return kz_bad(r, KZ_ENULL, "dpend");
  KZ_TRY(kz_check_num(r, p->m1, "m1", 1));
  KZ_TRY(kz_check_num(r, p->m2, "m2", 1));
  KZ_TRY(kz_check_num(r, p->l1, "l1", 1));
  KZ_TRY(kz_check_num(r, p->l2, "l2", 1));
  KZ_TRY(kz_check_num(r, p->g, "g", 0));
  KZ_TRY(kz_check_num(r, p->vmax, "vmax", 0));
  KZ_TRY(kz_check_num(r, p->omega, "omega", 1));
  KZ_TRY(kz_check_num(r, p->theta0, "theta0", 0));
  return KZ_OK;
}

static void fill_minv(kz_dpend *p)
{
  p->minv[0] = p->minv[1] = 1 / p->m1;
  p->minv[2] = p->minv[3] = 1 / p->m2;
}

static int constraints(void *par, const double *q, double *g, double *G)
{
  const kz_dpend *p = par;
  const double dx = q[2] - q[0], dy = q[3] - q[1];
  if (g) {
    g[0] = q[0] * q[0] + q[1] * q[1] - p->l1 * p->l1;
    g[1] = dx * dx + dy * dy - p->l2 * p->l2;
  }
  if (G) {
    G[0] = 2 * q[0], G[1] = 2 * q[1], G[2] = 0, G[3] = 0;
    G[4] = -2 * dx, G[5] = -2 * dy, G[6] = 2 * dx, G[7] = 2 * dy;
  }
  return KZ_OK;
}

/* M^-1 f = (0, -(g + a), 0, -(g + a)) at the phase theta */
static int vib_accel(void *par, double theta, const double *q, double *a)
{
  (void)q;
  const kz_dpend *p = par;
  const double ge = p->g + p->vmax * p->omega * cos(theta);
  a[0] = 0, a[1] = -ge, a[2] = 0, a[3] = -ge;
  return KZ_OK;
}

static int time_accel(void *par, double t, const double *q, double *a)
{
  const kz_dpend *p = par;
  return vib_accel(par, p->omega * t + p->theta0, q, a);
}

/* M(q) q'' = (r1, r2) for the angles, given the generalised forces without velocity terms */
static void angle_accel(const kz_dpend *p, const double *y, double f1, double f2, double *dy)
{
  const double c = cos(y[0] - y[1]), s = sin(y[0] - y[1]);
  const double M11 = (p->m1 + p->m2) * p->l1 * p->l1, M12 = p->m2 * p->l1 * p->l2 * c;
  const double M22 = p->m2 * p->l2 * p->l2, k = p->m2 * p->l1 * p->l2 * s;
  const double r1 = f1 - k * y[3] * y[3], r2 = f2 + k * y[2] * y[2];
  const double det = M11 * M22 - M12 * M12;
  dy[0] = y[2];
  dy[1] = y[3];
  dy[2] = (M22 * r1 - M12 * r2) / det;
  dy[3] = (M11 * r2 - M12 * r1) / det;
}

static int lagrange_rhs(void *par, double t, const double *y, double *dy)
{
  const kz_dpend *p = par;
  const double ge = p->g + p->vmax * p->omega * cos(p->omega * t + p->theta0);
  angle_accel(p, y, ge * (p->m1 + p->m2) * p->l1 * sin(y[0]), ge * p->m2 * p->l2 * sin(y[1]), dy);
  return KZ_OK;
}

static int averaged_rhs(void *par, double t, const double *y, double *dy)
{
  (void)t;
  const kz_dpend *p = par;
  const double m1 = p->m1, m2 = p->m2, mt = m1 + m2;
  const double s1 = sin(y[0]), c1 = cos(y[0]), s2 = sin(y[1]), c2 = cos(y[1]);
  const double s = sin(y[0] - y[1]), c = cos(y[0] - y[1]);
  const double N = mt * s1 * s1 - 2 * m2 * c * s1 * s2 + m2 * s2 * s2, D = m1 + m2 * s * s;
  const double N1 = 2 * mt * s1 * c1 + 2 * m2 * s * s1 * s2 - 2 * m2 * c * c1 * s2;
  const double N2 = -2 * m2 * s * s1 * s2 - 2 * m2 * c * s1 * c2 + 2 * m2 * s2 * c2;
  const double D1 = 2 * m2 * s * c, D2 = -D1;
  const double k = 0.25 * p->vmax * p->vmax * mt / (D * D); /* (vmax^2/4) dW = k (N' D - N D') */
  const double f1 = p->g * mt * p->l1 * s1 - k * (N1 * D - N * D1);
  const double f2 = p->g * m2 * p->l2 * s2 - k * (N2 * D - N * D2);
  angle_accel(p, y, f1, f2, dy);
  return KZ_OK;
}

int kz_dpend_constraints(kz_constraints *c, kz_dpend *p, kz_report *r)
{
  if (!c) return kz_bad(r, KZ_ENULL, "con");
  KZ_TRY(check(p, r));
  fill_minv(p);
  const double l = fmax(p->l1, p->l2);
  const kz_constraints v = {2, p->minv, constraints, p, 1e-15 * l * l, 50, NULL, NULL, NULL};
  *c = v;
  return KZ_OK;
}

int kz_dpend_sys(kz_sys *s, kz_dpend *p, const kz_constraints *c, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  KZ_TRY(check(p, r));
  if (!c) return kz_bad(r, KZ_ENULL, "con");
  fill_minv(p);
  const kz_sys v = {.dim = 8, .par = p, .nq = 4, .accel = time_accel, .con = c};
  *s = v;
  return KZ_OK;
}

int kz_dpend_vib(kz_vib *m, kz_dpend *p, kz_report *r)
{
  if (!m) return kz_bad(r, KZ_ENULL, "model");
  KZ_TRY(check(p, r));
  fill_minv(p);
  const kz_vib v = {8, 4, p->omega, p->theta0, 1, NULL, vib_accel, NULL, p};
  *m = v;
  return KZ_OK;
}

static int angle_sys(kz_sys *s, kz_dpend *p, kz_rhs_fn f, kz_report *r)
{
  if (!s) return kz_bad(r, KZ_ENULL, "system");
  KZ_TRY(check(p, r));
  fill_minv(p);
  const kz_sys v = {.dim = 4, .rhs = f, .par = p};
  *s = v;
  return KZ_OK;
}

int kz_dpend_lagrange_sys(kz_sys *s, kz_dpend *p, kz_report *r)
{
  return angle_sys(s, p, lagrange_rhs, r);
}

int kz_dpend_averaged_sys(kz_sys *s, kz_dpend *p, kz_report *r)
{
  return angle_sys(s, p, averaged_rhs, r);
}

int kz_dpend_state(const kz_dpend *p, const double *ang, double *y, kz_report *r)
{
  KZ_TRY(check(p, r));
  KZ_TRY(kz_check_vec(r, ang, 4, "ang"));
  if (!y) return kz_bad(r, KZ_ENULL, "y");
  const double s1 = sin(ang[0]), c1 = cos(ang[0]), s2 = sin(ang[1]), c2 = cos(ang[1]);
  y[0] = p->l1 * s1, y[1] = p->l1 * c1;
  y[2] = y[0] + p->l2 * s2, y[3] = y[1] + p->l2 * c2;
  y[4] = p->l1 * c1 * ang[2], y[5] = -p->l1 * s1 * ang[2];
  y[6] = y[4] + p->l2 * c2 * ang[3], y[7] = y[5] - p->l2 * s2 * ang[3];
  return KZ_OK;
}
