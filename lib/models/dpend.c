/* dpend.c -- the vertically vibrated double pendulum with rigid rods, Cartesian: Calvo & Sanz-Serna,
 * "Heterogeneous multiscale methods for mechanical systems with vibrations" (SIAM J. Sci. Comput.
 * 32, 2010), (4.3) (descriptor form, index 3), and Calvo, Chartier, Murua & Sanz-Serna, "Numerical
 * stroboscopic averaging for ODEs and DAEs" (2011), Sec. 6.2 (the same system in GGL form,
 * (37)-(40)). Masses m1, m2, rods l1 (pivot to m1) and l2 (m1 to m2), the y axis up, the pivot's
 * vertical acceleration a(t) = vmax omega cos(omega t + theta0) ((2.3)); q = (x1, y1, x2, y2):
 *     m1 x1'' = 2 x1 L1 + 2 (x1 - x2) L2,      m1 y1'' = -m1 (g + a) + 2 y1 L1 + 2 (y1 - y2) L2,
 *     m2 x2'' = 2 (x2 - x1) L2,                 m2 y2'' = -m2 (g + a) + 2 (y2 - y1) L2,
 *     x1^2 + y1^2 - l1^2 = 0,   (x2 - x1)^2 + (y2 - y1)^2 - l2^2 = 0:
 * accel is M^-1 f = (0, -(g + a), 0, -(g + a)); the constraints g(q) with their Jacobian.
 * The same pendulum in the rod angles (the reference, and its average): dpend_angles.c.
 * The model's one source (lib/models/kz_model.h: the preamble): read by its model file dpend.lua
 * and compiled into the library's C API (kz_dpend.c). */

/* M^-1 f = (0, -(g + a), 0, -(g + a)) at the phase theta */
static int accel(const kz_par *p, double theta, const double *q, double *a)
{
  (void)q;
  const double ge = p->g + p->vmax * p->omega * cos(theta);
  a[0] = 0, a[1] = -ge, a[2] = 0, a[3] = -ge;
  return KZ_OK;
}

/* the rods: x1^2 + y1^2 - l1^2, (x2 - x1)^2 + (y2 - y1)^2 - l2^2 */
static int rods(const kz_par *p, const double *q, double *g)
{
  const double dx = q[2] - q[0], dy = q[3] - q[1];
  g[0] = q[0] * q[0] + q[1] * q[1] - p->l1 * p->l1;
  g[1] = dx * dx + dy * dy - p->l2 * p->l2;
  return KZ_OK;
}

static int rods_jacobian(const kz_par *p, const double *q, double *G)
{
  (void)p;
  const double dx = q[2] - q[0], dy = q[3] - q[1];
  G[0] = 2 * q[0], G[1] = 2 * q[1], G[2] = 0, G[3] = 0;
  G[4] = -2 * dx, G[5] = -2 * dy, G[6] = 2 * dx, G[7] = 2 * dy;
  return KZ_OK;
}

/* the Cartesian state y (8 numbers, consistent: g = 0 and G v = 0) of the rod angles and their
 * rates ang = (q1, q2, q1', q2') (the C API's kz_dpend_state; the model file's helper state) */
static inline void state(const kz_par *p, const double *ang, double *y)
{
  const double s1 = sin(ang[0]), c1 = cos(ang[0]), s2 = sin(ang[1]), c2 = cos(ang[1]);
  y[0] = p->l1 * s1, y[1] = p->l1 * c1;
  y[2] = y[0] + p->l2 * s2, y[3] = y[1] + p->l2 * c2;
  y[4] = p->l1 * c1 * ang[2], y[5] = -p->l1 * s1 * ang[2];
  y[6] = y[4] + p->l2 * c2 * ang[3], y[7] = y[5] - p->l2 * s2 * ang[3];
}
