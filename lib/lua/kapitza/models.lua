-- models.lua -- the library's models in one shape, for every method and scenario.
--
-- A model is a Lua table
--   { name = "pendulum", dim = 2, nq = 1, par = <cdata parameters>,
--     sys = <kz_sys: the full oscillatory system in time form, for direct integration>,
--     vib = <kz_vib: the fast-forced form the HMM takes> (when the model has one),
--     avg = <kz_sys: the averaged system, the HMM's reference> (when it is known),
--     ... model-specific helpers (averaged force, energy, potential) }
-- and keeps every cdata it hands to C alive for as long as the table lives.
--
-- The papers' models are model files, lib/models/<name>.lua, in the format of a user's own model
-- (lib/lua/kapitza/usermodel.lua: a Lua file returning its spec, its C in lib/models/<name>.c compiled once
-- into the cache of lib/lua/kapitza/usermodel/cache.lua): every reproduction runs on the path a user's model
-- takes. The same C, the model's one source, is compiled into libkapitza.so's C API constructors
-- (lib/models/kz_<name>.c); tests/papers_models_spec.lua holds both ways to frozen numbers, bit
-- for bit. The functions here take the parameters by name as before, check them as the C
-- constructors do (a bad one raises an error naming it), build the model from its file and add
-- the helpers the scenarios use. The files' C is compiled once per machine (about 0.27 s each,
-- 2.7 s for all ten objects from a cold cache) with the user's compiler settings (CC,
-- KZ_CFLAGS); -std=c11 keeps floating-point contraction off, so the arithmetic is that of
-- libkapitza.so built with the Makefile's defaults.
local kz = require "kapitza"
local um = require "kapitza.usermodel"
local ffi = kz.ffi

local M = {}

--- The folder of the papers' model files and their C: lib/models/ in the source tree, kapitza/models/
-- beside this module when installed (make install).
M.dir = um.models_dir

local specs = {}
--- The spec of the model file lib/models/<name>.lua (read once per process).
function M.spec(name)
  if not specs[name] then
    local path = M.dir .. "/" .. name .. ".lua"
    local chunk, err = loadfile(path)
    if not chunk then error("models: cannot load the model file " .. path .. ": " .. tostring(err), 0) end
    specs[name] = um.locate(chunk(), path)
  end
  return specs[name]
end

--- The path of the model file of `name`.
function M.path(name) return M.dir .. "/" .. name .. ".lua" end

-- The named parameters of t (defaults where t has none), each finite, as a Lua table.
local function params(t, names, defaults, what)
  local v = {}
  for _, k in ipairs(names) do
    local x = t[k]
    if x == nil then x = defaults[k] end
    v[k] = kz.finite(x, what .. "." .. k)
  end
  return v
end

-- The domain checks of the C constructors: > 0 (positive) or >= 0 (nonnegative).
local function positive(v, names, what)
  for _, k in ipairs(names) do
    if not (v[k] > 0) then error(string.format("%s.%s must be > 0 (got %.17g)", what, k, v[k]), 3) end
  end
end
local function nonnegative(v, names, what)
  for _, k in ipairs(names) do
    if not (v[k] >= 0) then error(string.format("%s.%s must be >= 0 (got %.17g)", what, k, v[k]), 3) end
  end
end

-- The model of file `name` at the values v (C functions), marked as one of the library's (its
-- C is checked by make check, bit for bit against frozen numbers: no trial calls in a child
-- process each time one is built, the guards of lib/lua/kapitza/usermodel/guard.lua stay).
local LIBRARY = { probe = false }
local function build(name, v)
  local m = um.model(M.spec(name), v, "c", LIBRARY)
  m.library = M.path(name)
  return m
end

--- Calvo & Sanz-Serna's vibrated inverted pendulum (2.2): {l, g, vmax, omega, theta0}.
-- sys: (2.2) in time form; vib: (2.9) with the lift (2.7); avg: the averaged equation (2.5);
-- averaged_force(Q) = F(Q) of (2.6). (lib/models/pendulum.lua)
function M.pendulum(t)
  local v = params(t, { "l", "g", "vmax", "omega", "theta0" }, { theta0 = 0 }, "pendulum")
  positive(v, { "l", "omega" }, "pendulum")
  return build("pendulum", v)
end

--- Sharp, Tsai & Engquist's inverted pendulum (1.1): {eps, g, l}. sys: (1.1) in time form;
-- vib: the fast form with the reconstruction (3.4); avg: the averaged equation (3.2);
-- averaged_force(Theta), potential(Theta), energy(Theta, Omega). (lib/models/ste.lua)
function M.ste(t)
  local v = params(t, { "eps", "g", "l" }, {}, "pendulum")
  positive(v, { "eps", "l" }, "pendulum")
  return build("ste", v)
end

--- The perturbed Kepler problem (19) in tau, y = (x1, x2, v1, v2); period 2 pi; sys carries
-- the full field and its splitting (perturbation by implicit midpoint, exact Kepler flow).
-- (lib/models/kepler.lua)
function M.kepler(t)
  local v = params(type(t) == "table" and t or { eps = t }, { "eps" }, {}, "kepler")
  nonnegative(v, { "eps" }, "kepler")
  local m = build("kepler", v)
  m.eps = m.par.eps
  return m
end

--- van der Pol (17) in tau, y = (q, p); period 2 pi; sys with its splitting. (lib/models/vdp.lua)
function M.vdp(t)
  local v = params(type(t) == "table" and t or { eps = t }, { "eps" }, {}, "vdp")
  nonnegative(v, { "eps" }, "vdp")
  local m = build("vdp", v)
  m.eps = m.par.eps
  return m
end

--- The vertically vibrated double pendulum with rigid rods (Calvo & Sanz-Serna (4.3); Calvo,
-- Chartier, Murua & Sanz-Serna Sec. 6.2): {m1, m2, l1, l2, g, vmax, omega, theta0 (0), tol,
-- max_iter (Newton of the constraint solves; default: the model file's)}. Shape:
--   con       kz_constraints: g(q), G(q), M^-1 (the DAE structure; lambda/stats set per run)
--   sys       Cartesian time form y = (x1, y1, x2, y2, u1, v1, u2, v2) with con: SHAKE and
--             RATTLE integrate it as (4.1)-(4.3), HERK3 as the GGL form (37)-(40)
--   vib       the fast-forced form the HMM takes (phase theta = omega t + theta0)
--   lagrange  the angle ODE y = (q1, q2, q1', q2') (the reference), avg its omega -> infinity
--             average (Kapitza), both kz_sys in angle coordinates (dim 4): the model file's
--             second model, angles (its `lagrange` spec)
--   state(ang) Cartesian state of angles/angular velocities; angles(y) -> q1, q2 (absolute rod
--             angles from the upward vertical, atan2(x1, y1), atan2(x2 - x1, y2 - y1));
--   residual(y) -> g1, g2, (G v)_1, (G v)_2.                   (lib/models/dpend.lua)
function M.dpend(t)
  t = t or {}
  local v = params(t, { "m1", "m2", "l1", "l2", "g", "vmax", "omega", "theta0" }, { theta0 = 0 }, "dpend")
  positive(v, { "m1", "m2", "l1", "l2", "omega" }, "dpend")
  return M.shape.dpend(build("dpend", v), t)
end

--- What lib/lua/kapitza/models.lua adds to a model built from a model file of lib/models/ (M.shape.<name>(m,
-- t), t the options of M.<name>): the same for a model the atlas loads with lib/lua/kapitza/modelfile.lua.
M.shape = {}

--- dpend: the angle model (the file's `lagrange` spec) as lagrange and avg, the Newton options
-- t.tol, t.tols (one per rod) and t.max_iter, residual(y).
function M.shape.dpend(obj, t)
  t = t or {}
  local ang = um.model(M.spec("dpend").lagrange, obj.values, "c", LIBRARY)
  obj.angle_model, obj.lagrange, obj.avg = ang, ang.sys, ang.avg
  if t.tol ~= nil then obj.con.tol = kz.finite(t.tol, "dpend.tol") end
  if t.max_iter ~= nil then obj.con.max_iter = kz.finite(t.max_iter, "dpend.max_iter") end
  if t.tols ~= nil then -- a tolerance per constraint (rod 1, rod 2): kz_constraints.tols
    if type(t.tols) ~= "table" or #t.tols ~= 2 then error("dpend.tols: give two tolerances, one per rod", 2) end
    obj.tols = kz.vec(2, { kz.finite(t.tols[1], "dpend.tols[1]"), kz.finite(t.tols[2], "dpend.tols[2]") })
    obj.con.tols = obj.tols
  end
  kz.call("kz_con_check", obj.sys, kz.report()) -- tol, tols and max_iter as given
  function obj.residual(y)
    local res = kz.vec(4)
    kz.call("kz_con_residual", obj.sys, kz.vec(8, y), res, kz.report())
    return res[0], res[1], res[2], res[3]
  end
  return obj
end

--- Fredbo's heavy Lagrange top (23)/(31) in body coordinates x = (Pi1, Pi2, Pi3, Gamma1, Gamma2,
-- Gamma3): {M, g, l, I1, I2, I3, forcing = "free" | "transverse" (38) | "vertical" (41), amp, nu,
-- avg = "corrected" | "printed" | "none" (the coefficient of (48))}; defaults are the thesis's
-- cone (M = 5, g = 9.81, l = 0.75, I = (3.12, 3.12, 0.24)), unforced. sys: the top in time form;
-- vib: its phase form (theta = nu t) for the HMMs; avg: the averaged equation (48); slow[set]:
-- the slow-variable sets "32", "37", "40" (kz_slow; "40" only with the transverse forcing);
-- constants (Pi3hat, Mgl, threshold, lambda, spin, nutation, avgcoef), invariants(x) and
-- drift(x, x0) (H, PiGamma, Gamma2, Pi3; the drift without cancellation). (lib/models/top.lua)
function M.top(t)
  t = t or {}
  local v = params(t, { "M", "g", "l", "I1", "I2", "I3", "amp", "nu" }, M.spec("top").values, "top") -- the file's defaults
  v.forcing = kz.choose(kz.top_forcings, t.forcing or "free", "top.forcing")
  v.avg = kz.choose(kz.top_avgs, t.avg or "corrected", "top.avg")
  positive(v, { "M", "I1", "I2", "I3" }, "top")
  nonnegative(v, { "nu" }, "top")
  if v.forcing ~= kz.C.KZ_TOP_FREE and v.nu == 0 then error("top.nu must be > 0 with a forcing", 2) end
  return M.shape.top(build("top", v), t.forcing == "transverse")
end

--- top: the slow sets by the thesis's equation numbers ((40) only with the transverse vibration
-- (38)), constants and x0(spin, Pi1, theta0).
function M.shape.top(m, transverse)
  m.slow = { ["32"] = m.slow.xi32, ["37"] = m.slow.xi37, ["40"] = transverse and m.slow.xi40 or nil }
  for _, d in ipairs(m.derivatives) do d.part = d.part:gsub("^slow%.xi(%d+)", "slow.%1") end
  m.constants = m.thesis_constants()
  --- the thesis's initial state: Gamma = (0, sin theta0, cos theta0), Pi = (Pi1, 0, spin Pi3^)
  function m.x0(spin, Pi1, theta0)
    theta0 = theta0 or 0.2
    return { Pi1 or 0, 0, spin * m.constants.Pi3hat, 0, math.sin(theta0), math.cos(theta0) }
  end
  return m
end

--- FPU (Ober-Bloebaum et al. Sec. 6, HLW I.5.1): {l (3), omega (50)}: the vmi model (model,
-- ns = nf = l, d = 4 l, sys, y0: the paper's initial values). (lib/models/fpu.lua)
function M.fpu(t)
  t = t or {}
  local v = params(t, { "l", "omega" }, M.spec("fpu").values, "fpu")
  if v.l ~= math.floor(v.l) or v.l < 1 or v.l > 100000 then error(string.format("fpu.l must be a whole number in 1..100000 (got %.17g)", v.l), 2) end
  positive(v, { "omega" }, "fpu")
  return build("fpu", v)
end

--- The spring ring (Sec. 6, Fig. 6.2): {mass, eps, omega1, omega2, g, g_sign (1: physical, -1:
-- printed), r, h, directions ("unperturbed" | "repositioned": the initial state's)}: the vmi
-- model (ns = nf = 9, d = 36), y0 the paper's. (lib/models/ring.lua)
function M.ring(t)
  t = t or {}
  local v = params(t, { "mass", "eps", "omega1", "omega2", "g", "g_sign" }, M.spec("ring").values, "ring")
  positive(v, { "mass", "omega2" }, "ring")
  nonnegative(v, { "eps", "omega1" }, "ring")
  if v.g_sign ~= 1 and v.g_sign ~= -1 then error("ring.g_sign must be 1 or -1", 2) end
  local m = build("ring", v)
  if t.r ~= nil or t.h ~= nil or t.directions ~= nil then
    m.y0 = m.initial_state { r = t.r, h = t.h, directions = t.directions }
  end
  return m
end

--- A model of your own in the same shape (lib/lua/kapitza/usermodel.lua): its functions written as C source
-- (compiled once, cached) or as Lua functions; spec and values as usermodel.model documents.
function M.user(spec, values, how) return um.model(spec, values, how) end

return M
