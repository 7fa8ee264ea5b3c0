-- dpend2.lua -- a constrained user model (tests/usermodel_parts_spec.lua): the vertically vibrated
-- double pendulum of Calvo & Sanz-Serna (4.3) written in the user format, Cartesian positions
-- q = (x1, y1, x2, y2) with the y axis up, masses m1, m2, rods l1, l2 (the constraints
-- x1^2 + y1^2 - l1^2 = 0, (x2 - x1)^2 + (y2 - y1)^2 - l2^2 = 0), the mass-normalised applied force
-- (0, -(g + a), 0, -(g + a)), a = vmax omega cos(theta). Initial state: the rod angles (a1, a2)
-- from the upward vertical (parameters; default 0.5 and 0), at rest. The C way gives the constraint Jacobian; the Lua way leaves it to
-- the library (central differences).
local function q0(p)
  local x1, y1 = p.l1 * math.sin(p.a1), p.l1 * math.cos(p.a1)
  return { x1, y1, x1 + p.l2 * math.sin(p.a2), y1 + p.l2 * math.cos(p.a2) }
end
return {
  name = "dpend2", nq = 4, params = { "m1", "m2", "l1", "l2", "g", "vmax", "omega", "theta0", "a1", "a2" },
  even_in_theta = true,
  values = { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 100, theta0 = 0, a1 = 0.5, a2 = 0 },
  q0 = q0, v0 = { 0, 0, 0, 0 }, T = 0.5,
  constraints = { m = 2, mass = { "m1", "m1", "m2", "m2" } },
  lua = {
    accel = function(p, th, q, a)
      local ge = p.g + p.vmax * p.omega * math.cos(th)
      a[0], a[1], a[2], a[3] = 0, -ge, 0, -ge
    end,
    constraints = {
      g = function(p, q, g)
        local dx, dy = q[2] - q[0], q[3] - q[1]
        g[0] = q[0] * q[0] + q[1] * q[1] - p.l1 * p.l1
        g[1] = dx * dx + dy * dy - p.l2 * p.l2
      end },
    invariants = {
      height = function(p, y) return p.m1 * y[1] + p.m2 * y[3] end },
  },
  c = { accel = "accel", constraints = { g = "rods", jacobian = "rods_jacobian" }, invariants = { height = "height" }, source = [[
static int accel(const kz_par *p, double th, const double *q, double *a)
{
  const double ge = p->g + p->vmax * p->omega * cos(th);
  (void)q;
  a[0] = 0; a[1] = -ge; a[2] = 0; a[3] = -ge;
  return KZ_OK;
}
static int rods(const kz_par *p, const double *q, double *g)
{
  const double dx = q[2] - q[0], dy = q[3] - q[1];
  g[0] = q[0] * q[0] + q[1] * q[1] - p->l1 * p->l1;
  g[1] = dx * dx + dy * dy - p->l2 * p->l2;
  return KZ_OK;
}
static int rods_jacobian(const kz_par *p, const double *q, double *G)
{
  const double dx = q[2] - q[0], dy = q[3] - q[1];
  (void)p;
  G[0] = 2 * q[0]; G[1] = 2 * q[1]; G[2] = 0; G[3] = 0;
  G[4] = -2 * dx; G[5] = -2 * dy; G[6] = 2 * dx; G[7] = 2 * dy;
  return KZ_OK;
}
static int height(const kz_par *p, const double *y, double *h)
{
  *h = p->m1 * y[1] + p->m2 * y[3];
  return KZ_OK;
}
]] },
}
