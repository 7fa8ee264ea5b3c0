-- ste.lua -- the inverted pendulum of Sharp, Tsai & Engquist, "Multiple time scale numerical
-- methods for the inverted pendulum problem" (2005), as a model file (lib/lua/kapitza/usermodel.lua's
-- format). Its functions -- (1.1) at the fast phase, the phase 2 pi frac(t / eps) of the time
-- form, the reconstruction (3.4), the averaged equation (3.2), the potential of Sec. 4 -- are in
-- ste.c (c.file), the model's one source, which the library's C API (kz_ste_sys, ...) and
-- ensemble compile too; the helpers potential and energy call the C API's kz_ste_potential.
-- The fast phase is theta = 2 pi t / eps, so omega = 2 pi / eps (a derived parameter).
-- The case of Table 1 (rows 2-3): eps = 1e-6, g = 0.1, l = 0.05, (Theta, Omega)(0) = (0, -0.4),
-- whose reconstruction (3.4) is the micro state (0, -0.4); over [0, 12].
local kz = require "kapitza"

local function potential(p, Theta) return kz.C.kz_ste_potential(kz.ffi.new("kz_ste", { p.eps, p.g, p.l }), Theta) end

return {
  name = "ste", atlas = "ste", nq = 1, params = { "eps", "g", "l", "omega" },
  description = "Sharp, Tsai & Engquist (1.1): the inverted pendulum forced with period eps",
  values = { eps = 1e-6, g = 0.1, l = 0.05 },
  derived = { omega = function(v) return 2 * math.pi / v.eps end },
  q0 = { 0 }, v0 = { -0.4 }, T = 12,
  helpers = {
    --- V(Theta) of Sec. 4: ste.c's potential (kz_ste_potential)
    potential = potential,
    --- the energy l Omega^2 / 2 + V(Theta) that (3.2) conserves
    energy = function(p, Theta, Omega) return 0.5 * p.l * Omega * Omega + potential(p, Theta) end,
  },
  c = { accel = "force", reconstruct = "recon", averaged = "averaged", phase = "phase", file = "ste.c" },
}
