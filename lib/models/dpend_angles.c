/* dpend_angles.c -- the double pendulum of dpend.c in the absolute rod angles from the upward
 * vertical, y = (q1, q2, q1', q2') (x1 = l1 sin q1, y1 = l1 cos q1, x2 = x1 + l2 sin q2,
 * y2 = y1 + l2 cos q2): the reference "in Lagrangian coordinates" of Calvo, Chartier, Murua &
 * Sanz-Serna Sec. 6.2, the Euler-Lagrange equations of
 *   T = (m1+m2) l1^2 q1'^2 / 2 + m2 l1 l2 cos(q1-q2) q1' q2' + m2 l2^2 q2'^2 / 2,
 *   V = (g + a)((m1+m2) l1 cos q1 + m2 l2 cos q2),
 * and their omega -> infinity average (Kapitza; Landau & Lifshitz, Mechanics Sec. 30, for a
 * q-dependent mass matrix M(q)): the fast force -a(t) grad Y with Y = (m1+m2) l1 cos q1 +
 * m2 l2 cos q2 drives xi = (vmax/omega) cos(omega t) M^-1 grad Y; the averaged Lagrangian is
 * T - V_g - (vmax^2/4) W, W = grad Y' M^-1 grad Y, which works out to
 *   W = (m1+m2) [(m1+m2) s1^2 - 2 m2 cos(q1-q2) s1 s2 + m2 s2^2] / (m1 + m2 sin^2(q1-q2)),
 * s_i = sin q_i (for one rod, m2 -> 0, Calvo & Sanz-Serna (2.5)-(2.6)).
 * The model's one source (lib/models/kz_model.h: the preamble): read by dpend.lua (its `lagrange`
 * spec) and compiled into the library's C API (kz_dpend.c: kz_dpend_lagrange_sys,
 * kz_dpend_averaged_sys). */

/* M(q) q'' = (r1, r2) for the angles, given the generalised forces without velocity terms */
static void angle_accel(const kz_par *p, const double *y, double f1, double f2, double *dy)
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

/* the Euler-Lagrange equations at the phase theta */
static int lagrange(const kz_par *p, double theta, const double *y, double *dy)
{
  const double ge = p->g + p->vmax * p->omega * cos(theta);
  angle_accel(p, y, ge * (p->m1 + p->m2) * p->l1 * sin(y[0]), ge * p->m2 * p->l2 * sin(y[1]), dy);
  return KZ_OK;
}

/* the average: T - V_g - (vmax^2/4) W, W = (m1+m2) N / D */
static int averaged(const kz_par *p, const double *y, double *dy)
{
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
