-- dpend.lua -- the vertically vibrated double pendulum with rigid rods: Calvo & Sanz-Serna,
-- "Heterogeneous multiscale methods for mechanical systems with vibrations" (SIAM J. Sci.
-- Comput. 32, 2010), (4.3) (descriptor form, index 3), and Calvo, Chartier, Murua & Sanz-Serna,
-- "Numerical stroboscopic averaging for ODEs and DAEs" (2011), Sec. 6.2 (the same system in GGL
-- form, (37)-(40)), as a model file (lib/lua/kapitza/usermodel.lua's format). Masses m1, m2, rods l1 (pivot to
-- m1) and l2 (m1 to m2), the y axis up, the pivot's vertical acceleration
-- a(t) = vmax omega cos(omega t + theta0) ((2.3)); Cartesian positions q = (x1, y1, x2, y2):
--     m1 x1'' = 2 x1 L1 + 2 (x1 - x2) L2,      m1 y1'' = -m1 (g + a) + 2 y1 L1 + 2 (y1 - y2) L2,
--     m2 x2'' = 2 (x2 - x1) L2,                 m2 y2'' = -m2 (g + a) + 2 (y2 - y1) L2,
--     x1^2 + y1^2 - l1^2 = 0,   (x2 - x1)^2 + (y2 - y1)^2 - l2^2 = 0:
-- accel is M^-1 f = (0, -(g + a), 0, -(g + a)), the constraints g(q) with their Jacobian, the
-- Newton tolerance 1e-15 max(l1, l2)^2 on max |g_i|.
-- `lagrange` is the same pendulum in angle coordinates y = (q1, q2, q1', q2') (q1, q2 the
-- absolute rod angles from the upward vertical), a model of its own: the Euler-Lagrange
-- equations of T = (m1+m2) l1^2 q1'^2 / 2 + m2 l1 l2 cos(q1-q2) q1' q2' + m2 l2^2 q2'^2 / 2,
-- V = (g + a)((m1+m2) l1 cos q1 + m2 l2 cos q2) (the reference), and their omega -> infinity
-- average (Kapitza; Landau & Lifshitz, Mechanics Sec. 30, for a q-dependent mass matrix M(q)):
-- the averaged Lagrangian T - V_g - (vmax^2/4) W with
--     W = (m1+m2) [(m1+m2) s1^2 - 2 m2 cos(q1-q2) s1 s2 + m2 s2^2] / (m1 + m2 sin^2(q1-q2)),
-- s_i = sin q_i (for one rod, m2 -> 0, Calvo & Sanz-Serna (2.5)-(2.6)).
-- The case of Sec. 4.2 (= Calvo et al. Sec. 6.2): m1 = 0.01 kg, m2 = 0.005 kg, l1 = 0.2 m,
-- l2 = 0.1 m, g = 9.8, vmax = 4, omega = 1e4 (eps = 1/omega), at rest with rod angles a1 = 0.5,
-- a2 = 0 (parameters: the initial state), over [0, 1]. The C functions compute what
-- lib/models/kz_dpend.c computes, operation for operation, so that lib/lua/kapitza/models.lua's models.dpend, built
-- from this file, gives the same numbers to the last bit.
local params = { "m1", "m2", "l1", "l2", "g", "vmax", "omega", "theta0", "a1", "a2" }
local values = { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 1e4, theta0 = 0, a1 = 0.5, a2 = 0 }

-- the Cartesian state of angles and angular velocities ang = (q1, q2, q1', q2') (as kz_dpend_state)
local function state(p, ang)
  local s1, c1, s2, c2 = math.sin(ang[1]), math.cos(ang[1]), math.sin(ang[2]), math.cos(ang[2])
  local y = {}
  y[1], y[2] = p.l1 * s1, p.l1 * c1
  y[3], y[4] = y[1] + p.l2 * s2, y[2] + p.l2 * c2
  y[5], y[6] = p.l1 * c1 * ang[3], -p.l1 * s1 * ang[3]
  y[7], y[8] = y[5] + p.l2 * c2 * ang[4], y[6] - p.l2 * s2 * ang[4]
  return y
end

return {
  name = "dpend", atlas = "dpend", nq = 4, params = params, even_in_theta = true,
  description = "Calvo & Sanz-Serna (4.3): the vibrated double pendulum with rigid rods, Cartesian",
  values = values,
  q0 = function(p)
    local y = state(p, { p.a1, p.a2, 0, 0 })
    return { y[1], y[2], y[3], y[4] }
  end,
  v0 = function(p) -- at rest (zeros signed as state() gives them)
    local y = state(p, { p.a1, p.a2, 0, 0 })
    return { y[5], y[6], y[7], y[8] }
  end,
  T = 1,
  constraints = { m = 2, mass = { "m1", "m1", "m2", "m2" }, max_iter = 50,
                  tol = function(p) local l = math.max(p.l1, p.l2); return 1e-15 * l * l end },
  helpers = {
    --- the Cartesian state (a Lua array of 8) of ang = { q1, q2, q1', q2' }
    state = state,
    --- the rod angles q1, q2 of a Cartesian state y (a double pointer or 0-based array)
    angles = function(_, y) return math.atan2(y[1], y[2]), math.atan2(y[3] - y[1], y[4] - y[2]) end,
  },
  c = { accel = "accel", constraints = { g = "rods", jacobian = "rods_jacobian" }, source = [[
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
]] },

  -- the angle coordinates y = (q1, q2, q1', q2'): the reference and its average
  lagrange = {
    name = "dpend_angles", dim = 4, params = params,
    description = "Calvo & Sanz-Serna (4.3) in the rod angles: Euler-Lagrange equations and their average",
    values = values,
    y0 = function(p) return { p.a1, p.a2, 0, 0 } end, T = 1,
    c = { rhs = "lagrange", averaged = "averaged", source = [[
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
]] },
  },
}
