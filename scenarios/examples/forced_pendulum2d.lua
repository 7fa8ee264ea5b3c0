-- forced_pendulum2d.lua -- a model of your own, in one file: two inverted pendulums on one pivot
-- that vibrates vertically (Kapitza's pendulum, Calvo & Sanz-Serna (2.2), twice), coupled by a
-- torsion spring of stiffness k. Two degrees of freedom q = (q1, q2), the angles from the upward
-- vertical; the fast phase is theta = omega t + theta0:
--
--   q_i'' = (g + vmax omega cos theta) sin(q_i) / l + k (q_j - q_i)
--
-- Averaged (Kapitza): Q_i'' = F_i(Q) = (g/l - vmax^2/(2 l^2) cos Q_i) sin Q_i + k (Q_j - Q_i), which
-- holds both pendulums upright when vmax^2 > 2 g l. The micro velocity at phase theta from the
-- macro state (Q, P) (the HMM's `reconstruct`): q = Q, v_i = P_i + (vmax/l) sin(theta) sin(Q_i).
--
--   kapitza check scenarios/examples/forced_pendulum2d.lua
--   kapitza atlas scenarios/examples/forced_pendulum2d.lua --out /tmp/atlas omega=1e4
-- (paper/own-model.md takes it through every step.)
return {
  name = "forced_pendulum2d", nq = 2,
  params = { "l", "g", "vmax", "k", "omega", "theta0" },
  values = { l = 0.2, g = 9.8, vmax = 4, k = 1, omega = 1e4, theta0 = 0 },
  q0 = { 0.5, -0.3 }, v0 = { 0, 0 }, T = 1,
  even_in_theta = true, -- the force is even in theta (cos): Algorithm 2 may halve its window
  c = { accel = "force", reconstruct = "lift", averaged = "averaged", source = [[
static int force(const kz_par *p, double theta, const double *q, double *a)
{
  const double f = (p->g + p->vmax * p->omega * cos(theta)) / p->l;
  a[0] = f * sin(q[0]) + p->k * (q[1] - q[0]);
  a[1] = f * sin(q[1]) + p->k * (q[0] - q[1]);
  return KZ_OK;
}

static int lift(const kz_par *p, double theta, const double *Y, double *y)
{
  const double s = p->vmax * sin(theta) / p->l;
  y[0] = Y[0];
  y[1] = Y[1];
  y[2] = Y[2] + s * sin(Y[0]);
  y[3] = Y[3] + s * sin(Y[1]);
  return KZ_OK;
}

static int averaged(const kz_par *p, const double *q, double *a)
{
  const double c = p->vmax * p->vmax / (2 * p->l * p->l);
  a[0] = (p->g / p->l - c * cos(q[0])) * sin(q[0]) + p->k * (q[1] - q[0]);
  a[1] = (p->g / p->l - c * cos(q[1])) * sin(q[1]) + p->k * (q[0] - q[1]);
  return KZ_OK;
}
]] },
  lua = {
    accel = function(p, theta, q, a)
      local f = (p.g + p.vmax * p.omega * math.cos(theta)) / p.l
      a[0] = f * math.sin(q[0]) + p.k * (q[1] - q[0])
      a[1] = f * math.sin(q[1]) + p.k * (q[0] - q[1])
    end,
    reconstruct = function(p, theta, Y, y)
      local s = p.vmax * math.sin(theta) / p.l
      y[0], y[1] = Y[0], Y[1]
      y[2] = Y[2] + s * math.sin(Y[0])
      y[3] = Y[3] + s * math.sin(Y[1])
    end,
    averaged = function(p, q, a)
      local c = p.vmax * p.vmax / (2 * p.l * p.l)
      a[0] = (p.g / p.l - c * math.cos(q[0])) * math.sin(q[0]) + p.k * (q[1] - q[0])
      a[1] = (p.g / p.l - c * math.cos(q[1])) * math.sin(q[1]) + p.k * (q[0] - q[1])
    end,
  },
}
