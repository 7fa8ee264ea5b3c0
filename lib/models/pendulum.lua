-- pendulum.lua -- the vibrated inverted pendulum of Calvo & Sanz-Serna, "Heterogeneous multiscale
-- methods for mechanical systems with vibrations" (SIAM J. Sci. Comput. 32, 2010), Sec. 2.1, as a
-- model file (lib/lua/kapitza/usermodel.lua's format): q the angle from the upward vertical, the pivot moved
-- vertically with velocity v(t) = vmax sin(omega t + theta0),
--   (2.2)-(2.3)  q'' = l^-1 (g + a(t)) sin q,  a(t) = vmax omega cos(omega t + theta0);
--   (2.9)        the fast-forced form p' = l^-1 (g + vmax omega cos theta) sin q, theta = omega t + theta0;
--   (2.7)        the reconstruction of Algorithm 1: p = P + l^-1 vmax sin(theta) sin Q;
--   (2.5)-(2.6)  the averaged equation Q'' = F(Q) = (g/l - vmax^2 / (2 l^2) cos Q) sin Q.
-- The case of Fig. 2.1: l = 0.2 m, g = 9.8 m s^-2, vmax = 4 m s^-1, omega = 200 s^-1, q(0) = 0.5,
-- q'(0) = 0, over [0, 1]. The C functions compute what lib/models/kz_pendulum.c computes, operation for
-- operation (lib/models/kz_models_f.h's kz_pendulum_f and kz_pendulum_lift), so that lib/lua/kapitza/models.lua's
-- models.pendulum, built from this file, gives the same numbers to the last bit.
return {
  name = "pendulum", atlas = "pendulum", nq = 1, params = { "l", "g", "vmax", "omega", "theta0" }, even_in_theta = true,
  description = "Calvo & Sanz-Serna (2.2): the vibrated inverted pendulum",
  values = { l = 0.2, g = 9.8, vmax = 4, omega = 200, theta0 = 0 },
  q0 = { 0.5 }, v0 = { 0 }, T = 1,
  c = { accel = "force", reconstruct = "lift", averaged = "averaged", source = [[
/* (2.9): p' = l^-1 (g + vmax omega cos theta) sin q */
static int force(const kz_par *p, double theta, const double *q, double *a)
{
  a[0] = (p->g + p->vmax * p->omega * cos(theta)) * sin(q[0]) / p->l;
  return KZ_OK;
}

/* (2.7): the micro velocity p = P + l^-1 vmax sin(theta) sin Q */
static int lift(const kz_par *p, double theta, const double *Y, double *y)
{
  y[0] = Y[0];
  y[1] = Y[1] + p->vmax * sin(theta) * sin(Y[0]) / p->l;
  return KZ_OK;
}

/* (2.6): F(Q) = (g/l - vmax^2 / (2 l^2) cos Q) sin Q */
static int averaged(const kz_par *p, const double *q, double *a)
{
  a[0] = (p->g / p->l - p->vmax * p->vmax / (2 * p->l * p->l) * cos(q[0])) * sin(q[0]);
  return KZ_OK;
}
]] },
}
