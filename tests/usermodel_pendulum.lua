-- usermodel_pendulum.lua -- Calvo & Sanz-Serna's vibrated inverted pendulum (2.2), (2.7), (2.6)
-- written as a user model both ways (lib/lua/kapitza/usermodel.lua), with the same arithmetic in the same
-- order as the built-in lib/models/kz_pendulum.c, so that the three can be compared number for number
-- (tests/usermodel_spec.lua) and timed against each other (scripts/bench-usermodel.lua).
--   local spec = dofile(root .. "/tests/usermodel_pendulum.lua")
return {
  name = "cs_pendulum", nq = 1, params = { "l", "g", "vmax", "omega", "theta0" }, even_in_theta = true,
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
  lua = {
    accel = function(p, theta, q, a)
      a[0] = (p.g + p.vmax * p.omega * math.cos(theta)) * math.sin(q[0]) / p.l
    end,
    reconstruct = function(p, theta, Y, y)
      y[0] = Y[0]
      y[1] = Y[1] + p.vmax * math.sin(theta) * math.sin(Y[0]) / p.l
    end,
    averaged = function(p, q, a)
      a[0] = (p.g / p.l - p.vmax * p.vmax / (2 * p.l * p.l) * math.cos(q[0])) * math.sin(q[0])
    end,
  },
}
