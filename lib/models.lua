-- models.lua -- the library's models in one shape, for every method and scenario.
--
-- A model is a Lua table
--   { name = "pendulum", dim = 2, nq = 1, par = <cdata parameters>,
--     sys = <kz_sys: the full oscillatory system in time form, for direct integration>,
--     vib = <kz_vib: the fast-forced form the HMM takes> (when the model has one),
--     avg = <kz_sys: the averaged system, the HMM's reference> (when it is known),
--     ... model-specific helpers (averaged force, energy, potential) }
-- and keeps every cdata it hands to C alive for as long as the table lives. Parameters are
-- checked by the C constructors; a bad one raises an error naming it.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C

local M = {}

-- Fill the named parameters of a cdata struct from t (defaults where t has none).
local function params(ctype, t, names, defaults, what)
  local par = ffi.new(ctype)
  for _, k in ipairs(names) do
    local v = t[k]
    if v == nil then v = defaults[k] end
    par[k] = kz.finite(v, what .. "." .. k)
  end
  return par
end

-- Build model `name` from the C constructors listed in `parts` ({field, ctype, cfunction}).
local function build(name, par, parts)
  local obj = { name = name, par = par }
  local r = kz.report()
  for _, p in ipairs(parts) do
    obj[p[1]] = ffi.new(p[2])
    kz.call(p[3], obj[p[1]], par, r)
  end
  obj.dim, obj.nq = obj.sys.dim, obj.sys.nq
  return obj
end

--- Calvo & Sanz-Serna's vibrated inverted pendulum (2.2): {l, g, vmax, omega, theta0}.
-- sys: (2.2) in time form; vib: (2.9) with the lift (2.7); avg: the averaged equation (2.5).
function M.pendulum(t)
  local par = params("kz_pendulum", t, { "l", "g", "vmax", "omega", "theta0" }, { theta0 = 0 }, "pendulum")
  local m = build("pendulum", par, { { "sys", "kz_sys", "kz_pendulum_sys" }, { "vib", "kz_vib", "kz_pendulum_vib" },
                                     { "avg", "kz_sys", "kz_pendulum_averaged_sys" } })
  function m.averaged_force(Q) return C.kz_pendulum_averaged_force(par, Q) end
  return m
end

--- Sharp, Tsai & Engquist's inverted pendulum (1.1): {eps, g, l}. sys: (1.1) in time form;
-- vib: the fast form with the reconstruction (3.4); avg: the averaged equation (3.2).
function M.ste(t)
  local par = params("kz_ste", t, { "eps", "g", "l" }, {}, "pendulum")
  local m = build("ste", par, { { "sys", "kz_sys", "kz_ste_sys" }, { "vib", "kz_vib", "kz_ste_vib" },
                                { "avg", "kz_sys", "kz_ste_averaged_sys" } })
  function m.averaged_force(Theta) return C.kz_ste_averaged_force(par, Theta) end
  function m.potential(Theta) return C.kz_ste_potential(par, Theta) end
  --- the energy l Omega^2 / 2 + V(Theta) that (3.2) conserves
  function m.energy(Theta, Omega) return 0.5 * par.l * Omega * Omega + C.kz_ste_potential(par, Theta) end
  return m
end

--- The perturbed Kepler problem (19) in tau, y = (x1, x2, v1, v2); period 2 pi; sys carries
-- the full field and its splitting (perturbation by implicit midpoint, exact Kepler flow).
function M.kepler(t)
  local par = params("kz_kepler", type(t) == "table" and t or { eps = t }, { "eps" }, {}, "kepler")
  local m = build("kepler", par, { { "sys", "kz_sys", "kz_kepler_sys" } })
  m.eps, m.period = par.eps, 2 * math.pi
  return m
end

--- van der Pol (17) in tau, y = (q, p); period 2 pi; sys with its splitting.
function M.vdp(t)
  local par = params("kz_vdp", type(t) == "table" and t or { eps = t }, { "eps" }, {}, "vdp")
  local m = build("vdp", par, { { "sys", "kz_sys", "kz_vdp_sys" } })
  m.eps, m.period = par.eps, 2 * math.pi
  return m
end

--- A model of your own in the same shape (lib/usermodel.lua): its functions written as C source
-- (compiled once, cached) or as Lua functions; spec and values as usermodel.model documents.
function M.user(spec, values, how) return require("usermodel").model(spec, values, how) end

return M
