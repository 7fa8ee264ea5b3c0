-- pend2.lua -- a fast-forced user model (tests/usermodel_parts_spec.lua): two vertically vibrated
-- inverted pendulums (Calvo & Sanz-Serna (2.2) each, angles from the upward vertical) joined by a
-- weak torsion spring k,
--   q_i'' = l^-1 (g + vmax omega cos theta) sin q_i - k (q_i - q_j),   theta = omega t + theta0,
-- with the velocity lift (2.7) of each pendulum as the HMM's reconstruction, Kapitza's averaged
-- force (2.6) plus the spring as the averaged equation, and one slow-variable set 'lift':
-- xi = (q1, q2, v1 - vmax sin(theta) sin(q1) / l, v2 - ...), the positions and the lifted
-- velocities, which move on the slow scale (Fredbo Sec. 3.1). The Lua way leaves the set's
-- gradient and phase derivative to the library (central differences); the C way gives them.
local function lua_accel(p, th, q, a)
  local ge = (p.g + p.vmax * p.omega * math.cos(th)) / p.l
  a[0] = ge * math.sin(q[0]) - p.k * (q[0] - q[1])
  a[1] = ge * math.sin(q[1]) - p.k * (q[1] - q[0])
end
return {
  name = "pend2", nq = 2, params = { "l", "g", "vmax", "k", "omega", "theta0" }, even_in_theta = true,
  values = { l = 0.2, g = 9.8, vmax = 4, k = 1, omega = 1e3, theta0 = 0 },
  q0 = { 0.5, 0.3 }, v0 = { 0, 0 }, T = 1,
  slow = { lift = { r = 4 } },
  lua = {
    accel = lua_accel,
    reconstruct = function(p, th, Y, y)
      local c = p.vmax * math.sin(th) / p.l
      y[0], y[1] = Y[0], Y[1]
      y[2], y[3] = Y[2] + c * math.sin(Y[0]), Y[3] + c * math.sin(Y[1])
    end,
    averaged = function(p, q, a)
      local c = p.vmax * p.vmax / (2 * p.l * p.l)
      a[0] = (p.g / p.l - c * math.cos(q[0])) * math.sin(q[0]) - p.k * (q[0] - q[1])
      a[1] = (p.g / p.l - c * math.cos(q[1])) * math.sin(q[1]) - p.k * (q[1] - q[0])
    end,
    slow = { lift = {
      xi = function(p, th, x, xi)
        local c = p.vmax * math.sin(th) / p.l
        xi[0], xi[1] = x[0], x[1]
        xi[2], xi[3] = x[2] - c * math.sin(x[0]), x[3] - c * math.sin(x[1])
      end } },
  },
  c = { accel = "accel", reconstruct = "lift", averaged = "kapitza",
        slow = { lift = { xi = "xi", gradient = "xi_gradient", dtheta = "xi_dtheta" } }, source = [[
static int accel(const kz_par *p, double th, const double *q, double *a)
{
  const double ge = (p->g + p->vmax * p->omega * cos(th)) / p->l;
  a[0] = ge * sin(q[0]) - p->k * (q[0] - q[1]);
  a[1] = ge * sin(q[1]) - p->k * (q[1] - q[0]);
  return KZ_OK;
}
static int lift(const kz_par *p, double th, const double *Y, double *y)
{
  const double c = p->vmax * sin(th) / p->l;
  y[0] = Y[0]; y[1] = Y[1];
  y[2] = Y[2] + c * sin(Y[0]); y[3] = Y[3] + c * sin(Y[1]);
  return KZ_OK;
}
static int kapitza(const kz_par *p, const double *q, double *a)
{
  const double c = p->vmax * p->vmax / (2 * p->l * p->l);
  a[0] = (p->g / p->l - c * cos(q[0])) * sin(q[0]) - p->k * (q[0] - q[1]);
  a[1] = (p->g / p->l - c * cos(q[1])) * sin(q[1]) - p->k * (q[1] - q[0]);
  return KZ_OK;
}
static int xi(const kz_par *p, double th, const double *x, double *out)
{
  const double c = p->vmax * sin(th) / p->l;
  out[0] = x[0]; out[1] = x[1];
  out[2] = x[2] - c * sin(x[0]); out[3] = x[3] - c * sin(x[1]);
  return KZ_OK;
}
static int xi_gradient(const kz_par *p, double th, const double *x, double *G)
{
  const double c = p->vmax * sin(th) / p->l;
  for (int i = 0; i < 16; i++) G[i] = 0;
  G[0] = 1; G[5] = 1;
  G[8] = -c * cos(x[0]); G[10] = 1;
  G[13] = -c * cos(x[1]); G[15] = 1;
  return KZ_OK;
}
static int xi_dtheta(const kz_par *p, double th, const double *x, double *d)
{
  const double c = p->vmax * cos(th) / p->l;
  d[0] = 0; d[1] = 0;
  d[2] = -c * sin(x[0]); d[3] = -c * sin(x[1]);
  return KZ_OK;
}
]] },
}
