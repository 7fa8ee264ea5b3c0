-- forced_pendulum2d_constrained.lua -- the two coupled vibrated pendulums of forced_pendulum2d.lua
-- written as a constrained mechanical system: each bob in Cartesian coordinates (x_i, y_i), the
-- y axis up, on a rod of length l from the common vibrating pivot, the holonomic constraints
--
--   g_i(q) = x_i^2 + y_i^2 - l^2 = 0,   q = (x1, y1, x2, y2),   i = 1, 2,
--
-- the mass-normalised applied force (the model's accel, M^-1 f: SHAKE, RATTLE, HERK3, the
-- constrained HMM and SAM on the DAE take it with the masses and the constraints)
--
--   a_i = (0, -(g + vmax omega cos theta)) - k (phi_i - phi_j) l^2 (y_i, -x_i) / (x_i^2 + y_i^2),
--
-- the pivot's vibration in the pivot's frame plus the torsion spring's force, minus the gradient
-- of k l^2 (phi_1 - phi_2)^2 / 2 with phi_i = atan2(x_i, y_i) the angle from the upward vertical.
-- On the constraints this is the angle model q_i'' = (g + vmax omega cos theta) sin(q_i)/l +
-- k (q_j - q_i) of forced_pendulum2d.lua. The initial state: the angles a1, a2 (parameters), at
-- rest; both bobs of mass m (any m: the motion does not depend on it).
--
--   kapitza check scenarios/examples/forced_pendulum2d_constrained.lua
--   kapitza solve scenarios/examples/forced_pendulum2d_constrained.lua method=rattle n=32 --error omega=1e3
--   kapitza atlas scenarios/examples/forced_pendulum2d_constrained.lua --out /tmp/atlas-c --quick omega=1e3
-- (paper/own-model.md takes it through these.) The C functions give the constraints' Jacobian;
-- the Lua ones leave it to the library (central differences, checked against the C one by
-- `kapitza check --lua`).
local function q0(p)
  return { p.l * math.sin(p.a1), p.l * math.cos(p.a1), p.l * math.sin(p.a2), p.l * math.cos(p.a2) }
end

-- the torsion spring's torque factor k (phi_i - phi_j) l^2 / r_i^2 of each bob
local function lua_accel(p, theta, q, a)
  local ge = p.g + p.vmax * p.omega * math.cos(theta)
  local d = math.atan2(q[0], q[1]) - math.atan2(q[2], q[3])
  local c1 = p.k * d * p.l * p.l / (q[0] * q[0] + q[1] * q[1])
  local c2 = -p.k * d * p.l * p.l / (q[2] * q[2] + q[3] * q[3])
  a[0], a[1] = -c1 * q[1], -ge + c1 * q[0]
  a[2], a[3] = -c2 * q[3], -ge + c2 * q[2]
end

return {
  name = "forced_pendulum2d_constrained", nq = 4,
  params = { "l", "g", "vmax", "k", "m", "omega", "theta0", "a1", "a2" },
  values = { l = 0.2, g = 9.8, vmax = 4, k = 1, m = 0.01, omega = 1e4, theta0 = 0, a1 = 0.5, a2 = -0.3 },
  q0 = q0, v0 = { 0, 0, 0, 0 }, T = 1,
  even_in_theta = true,
  constraints = { m = 2, mass = "m" },
  lua = {
    accel = lua_accel,
    constraints = {
      g = function(p, q, g)
        g[0] = q[0] * q[0] + q[1] * q[1] - p.l * p.l
        g[1] = q[2] * q[2] + q[3] * q[3] - p.l * p.l
      end },
  },
  c = { accel = "force", constraints = { g = "rods", jacobian = "rods_jacobian" }, source = [[
static int force(const kz_par *p, double theta, const double *q, double *a)
{
  const double ge = p->g + p->vmax * p->omega * cos(theta);
  const double d = atan2(q[0], q[1]) - atan2(q[2], q[3]);
  const double c1 = p->k * d * p->l * p->l / (q[0] * q[0] + q[1] * q[1]);
  const double c2 = -p->k * d * p->l * p->l / (q[2] * q[2] + q[3] * q[3]);
  a[0] = -c1 * q[1]; a[1] = -ge + c1 * q[0];
  a[2] = -c2 * q[3]; a[3] = -ge + c2 * q[2];
  return KZ_OK;
}

static int rods(const kz_par *p, const double *q, double *g)
{
  g[0] = q[0] * q[0] + q[1] * q[1] - p->l * p->l;
  g[1] = q[2] * q[2] + q[3] * q[3] - p->l * p->l;
  return KZ_OK;
}

static int rods_jacobian(const kz_par *p, const double *q, double *G)
{
  (void)p;
  G[0] = 2 * q[0]; G[1] = 2 * q[1]; G[2] = 0;        G[3] = 0;
  G[4] = 0;        G[5] = 0;        G[6] = 2 * q[2]; G[7] = 2 * q[3];
  return KZ_OK;
}
]] },
}
