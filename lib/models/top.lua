-- top.lua -- the heavy Lagrange top of Fredbo's thesis (M. Fredbo, "The Heterogeneous Multiscale
-- Method and the Spinning Top", MSc thesis, NTNU 2011) as a model file (lib/lua/kapitza/usermodel.lua's
-- format), in body coordinates x = (Pi1, Pi2, Pi3, Gamma1, Gamma2, Gamma3). Its functions -- the
-- top (23)/(31) with the vibrations (38) and (41), the averaged equation (48), the invariants (24),
-- the slow-variable sets (32), (37), (40) with their gradients, Sec. 4.3's constants and the
-- invariants' drift -- are in top.c (c.file), the model's one source, which the library's C API
-- (kz_top_sys, kz_top_slow, ...) compiles too; the helpers thesis_constants and drift call the
-- C API's kz_top_constants and kz_top_drift.
-- The fast phase is theta = nu t: the format's fast frequency omega is the derived nu (not the
-- thesis's omega, the spin multiplier: here `spin`). forcing and avg are numbers standing for
-- the choices of top.c (lib/lua/kapitza/models.lua's models.top takes their names).
-- The case of Sec. 4.3 (Fig. 11): the cone M = 5 kg, g = 9.81, l = 0.75 m, I = (3.12, 3.12, 0.24),
-- unforced, initial state Gamma = (0, sin tilt, cos tilt), Pi = (Pi1, 0, spin Pi3^) with
-- tilt = 0.2, Pi1 = 0, spin = 100, over [0, 0.1].
local kz = require "kapitza"
local FREE, CORRECTED = 0, 0 -- enum kz_top_forcing, kz_top_avg (top.c's numbers)

-- the C API's struct kz_top of the parameters p
local function ctop(p) return kz.ffi.new("kz_top", { p.M, p.g, p.l, p.I1, p.I2, p.I3, p.forcing, p.amp, p.nu, p.avg }) end

-- Sec. 4.3's constants and Theorem 2's threshold: top.c's constants (kz_top_constants)
local CONSTANTS = { "Pi3hat", "Mgl", "threshold", "lambda", "spin", "nutation", "avgcoef" }
local function constants(p)
  local c = kz.vec(#CONSTANTS)
  kz.call("kz_top_constants", ctop(p), c, kz.report())
  local t = {}
  for i, k in ipairs(CONSTANTS) do t[k] = c[i - 1] end
  return t
end

-- a state given as a Lua array or a double pointer (0-based), as 6 doubles
local function state6(x)
  local v = kz.vec(6)
  for i = 0, 5 do v[i] = type(x) == "table" and x[i + 1] or x[i] end
  return v
end

return {
  name = "top", atlas = "top", dim = 6,
  params = { "M", "g", "l", "I1", "I2", "I3", "forcing", "amp", "nu", "avg", "omega", "spin", "Pi1", "tilt" },
  description = "Fredbo's heavy Lagrange top (23)/(31), with the vibrations (38) and (41)",
  values = { M = 5, g = 9.81, l = 0.75, I1 = 3.12, I2 = 3.12, I3 = 0.24, forcing = FREE, amp = 0, nu = 0, avg = CORRECTED,
             spin = 100, Pi1 = 0, tilt = 0.2 },
  derived = { omega = function(v) return v.nu end },
  y0 = function(p)
    return { p.Pi1, 0, p.spin * constants(p).Pi3hat, 0, math.sin(p.tilt), math.cos(p.tilt) }
  end,
  T = 0.1,
  slow = { xi32 = { r = 4, frozen = { 3 } }, xi37 = { r = 4, frozen = { 3 } }, xi40 = { r = 4, frozen = { 3 } } },
  helpers = {
    thesis_constants = constants,
    --- I(x) - I(x0) of the invariants without cancellation: top.c's drift (kz_top_drift)
    drift = function(p, x, x0)
      local d = kz.vec(4)
      kz.call("kz_top_drift", ctop(p), state6(x), state6(x0), d, kz.report())
      return { H = d[0], PiGamma = d[1], Gamma2 = d[2], Pi3 = d[3] }
    end,
  },
  c = { rhs = "phase_rhs", averaged = "averaged",
        slow = { xi32 = { xi = "xi32", gradient = "xi32_gradient", dtheta = "no_dtheta" },
                 xi37 = { xi = "xi37", gradient = "xi37_gradient", dtheta = "no_dtheta" },
                 xi40 = { xi = "xi40", gradient = "xi40_gradient", dtheta = "xi40_dtheta" } },
        invariants = { H = "energy", PiGamma = "pi_gamma", Gamma2 = "gamma2", Pi3 = "pi3" }, file = "top.c" },
}
