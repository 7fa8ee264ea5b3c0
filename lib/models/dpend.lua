-- dpend.lua -- the vertically vibrated double pendulum with rigid rods: Calvo & Sanz-Serna,
-- "Heterogeneous multiscale methods for mechanical systems with vibrations" (SIAM J. Sci.
-- Comput. 32, 2010), (4.3), and Calvo, Chartier, Murua & Sanz-Serna, "Numerical stroboscopic
-- averaging for ODEs and DAEs" (2011), Sec. 6.2, as a model file (lib/lua/kapitza/usermodel.lua's format).
-- Cartesian positions q = (x1, y1, x2, y2): the applied force M^-1 f and the rods with their
-- Jacobian are in dpend.c (c.file), the Newton tolerance 1e-15 max(l1, l2)^2 on max |g_i| here.
-- `lagrange` is the same pendulum in the rod angles y = (q1, q2, q1', q2'), a model of its own:
-- the Euler-Lagrange equations (the reference) and their Kapitza average, in dpend_angles.c.
-- Both are the model's one source, which the library's C API (kz_dpend_sys, ...) compiles too;
-- the helper state calls the C API's kz_dpend_state.
-- The case of Sec. 4.2 (= Calvo et al. Sec. 6.2): m1 = 0.01 kg, m2 = 0.005 kg, l1 = 0.2 m,
-- l2 = 0.1 m, g = 9.8, vmax = 4, omega = 1e4 (eps = 1/omega), at rest with rod angles a1 = 0.5,
-- a2 = 0 (parameters: the initial state), over [0, 1].
local kz = require "kapitza"
local params = { "m1", "m2", "l1", "l2", "g", "vmax", "omega", "theta0", "a1", "a2" }
local values = { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 1e4, theta0 = 0, a1 = 0.5, a2 = 0 }

-- the Cartesian state (a Lua array of 8) of angles and angular velocities ang = (q1, q2, q1', q2'):
-- dpend.c's state (kz_dpend_state)
local function state(p, ang)
  local y = kz.vec(8)
  kz.call("kz_dpend_state", kz.ffi.new("kz_dpend", { p.m1, p.m2, p.l1, p.l2, p.g, p.vmax, p.omega, p.theta0 }),
          kz.vec(4, ang), y, kz.report())
  local t = {}
  for i = 1, 8 do t[i] = y[i - 1] end
  return t
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
  c = { accel = "accel", constraints = { g = "rods", jacobian = "rods_jacobian" }, file = "dpend.c" },

  -- the angle coordinates y = (q1, q2, q1', q2'): the reference and its average
  lagrange = {
    name = "dpend_angles", dim = 4, params = params,
    description = "Calvo & Sanz-Serna (4.3) in the rod angles: Euler-Lagrange equations and their average",
    values = values,
    y0 = function(p) return { p.a1, p.a2, 0, 0 } end, T = 1,
    c = { rhs = "lagrange", averaged = "averaged", file = "dpend_angles.c" },
  },
}
