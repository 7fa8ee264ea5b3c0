-- usermodel_pendulum.lua -- Calvo & Sanz-Serna's vibrated inverted pendulum (2.2), (2.7), (2.6)
-- written as a user model both ways (lib/lua/kapitza/usermodel.lua): its C is the model's one source,
-- lib/models/pendulum.c (c.file, from this file's folder: the spec marks itself, usermodel.locate),
-- its Lua functions the same arithmetic in the same order, so that the ways and the library's
-- model can be compared number for number (tests/usermodel_spec.lua) and timed against each
-- other (scripts/bench-usermodel.lua).
--   local spec = dofile(root .. "/tests/usermodel_pendulum.lua")
return require("kapitza.usermodel").locate({
  name = "cs_pendulum", nq = 1, params = { "l", "g", "vmax", "omega", "theta0" }, even_in_theta = true,
  c = { accel = "force", reconstruct = "lift", averaged = "averaged", file = "../lib/models/pendulum.c" },
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
}, debug.getinfo(1, "S").source:sub(2))
