-- models_c.lua -- the built-in C constructors of the papers' models (lib/models/kz_pendulum.c, kz_ste.c,
-- kz_kepler.c, kz_vdp.c, kz_dpend.c, kz_top.c, kz_top_slow.c, kz_vmi_models.c) in the shape of
-- lib/lua/kapitza/models.lua. lib/lua/kapitza/models.lua builds the same models from their model files (lib/models/*.lua,
-- the path a user's model takes); these constructors stay as the reference the model files are
-- checked against, bit for bit (tests/papers_models_spec.lua), and for the C code that needs them
-- (the ensembles of lib/models/kz_ens_models.c share kz_models_f.h with kz_pendulum.c and kz_ste.c).
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

--- The vertically vibrated double pendulum with rigid rods (Calvo & Sanz-Serna (4.3); Calvo,
-- Chartier, Murua & Sanz-Serna Sec. 6.2): {m1, m2, l1, l2, g, vmax, omega, theta0 (0), tol,
-- max_iter (Newton of the constraint solves; default: the C constructor's)}. Shape:
--   con       kz_constraints: g(q), G(q), M^-1 (the DAE structure; lambda/stats set per run)
--   sys       Cartesian time form y = (x1, y1, x2, y2, u1, v1, u2, v2) with con: SHAKE and
--             RATTLE integrate it as (4.1)-(4.3), HERK3 as the GGL form (37)-(40)
--   vib       the fast-forced form the HMM takes (phase theta = omega t + theta0)
--   lagrange  the angle ODE y = (q1, q2, q1', q2') (the reference), avg its omega -> infinity
--             average (Kapitza), both kz_sys in angle coordinates (dim 4)
--   state(ang) Cartesian state of angles/angular velocities; angles(y) -> q1, q2 (absolute rod
--             angles from the upward vertical, atan2(x1, y1), atan2(x2 - x1, y2 - y1));
--   residual(y) -> g1, g2, (G v)_1, (G v)_2.
function M.dpend(t)
  t = t or {}
  local par = params("kz_dpend", t, { "m1", "m2", "l1", "l2", "g", "vmax", "omega", "theta0" }, { theta0 = 0 }, "dpend")
  local obj = { name = "dpend", par = par, dim = 8, nq = 4 }
  local r = kz.report()
  obj.con = ffi.new("kz_constraints")
  kz.call("kz_dpend_constraints", obj.con, par, r)
  if t.tol ~= nil then obj.con.tol = kz.finite(t.tol, "dpend.tol") end
  if t.max_iter ~= nil then obj.con.max_iter = kz.finite(t.max_iter, "dpend.max_iter") end
  obj.sys, obj.vib = ffi.new("kz_sys"), ffi.new("kz_vib")
  kz.call("kz_dpend_sys", obj.sys, par, obj.con, r)
  kz.call("kz_dpend_vib", obj.vib, par, r)
  obj.lagrange, obj.avg = ffi.new("kz_sys"), ffi.new("kz_sys")
  kz.call("kz_dpend_lagrange_sys", obj.lagrange, par, r)
  kz.call("kz_dpend_averaged_sys", obj.avg, par, r)
  kz.call("kz_con_check", obj.sys, r) -- tol and max_iter as given
  function obj.state(ang)
    local y = kz.vec(8)
    kz.call("kz_dpend_state", par, kz.vec(4, ang), y, kz.report())
    local out = {}
    for i = 1, 8 do out[i] = y[i - 1] end
    return out
  end
  function obj.angles(y)
    return math.atan2(y[1], y[2]), math.atan2(y[3] - y[1], y[4] - y[2])
  end
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
-- drift(x, x0) (H, PiGamma, Gamma2, Pi3; the drift without cancellation).
function M.top(t)
  t = t or {}
  local par = params("kz_top", t, { "M", "g", "l", "I1", "I2", "I3", "amp", "nu" },
                     { M = 5, g = 9.81, l = 0.75, I1 = 3.12, I2 = 3.12, I3 = 0.24, amp = 0, nu = 0 }, "top")
  par.forcing = kz.choose(kz.top_forcings, t.forcing or "free", "top.forcing")
  par.avg = kz.choose(kz.top_avgs, t.avg or "corrected", "top.avg")
  local m = build("top", par, { { "sys", "kz_sys", "kz_top_sys" }, { "vib", "kz_vib", "kz_top_vib" },
                                { "avg", "kz_sys", "kz_top_averaged_sys" } })
  local r = kz.report()
  m.slow = {}
  for _, name in ipairs(kz.top_sets.names) do
    if name ~= "40" or t.forcing == "transverse" then
      m.slow[name] = ffi.new("kz_slow")
      kz.call("kz_top_slow", m.slow[name], par, kz.top_sets[name], r)
    end
  end
  local c = kz.vec(C.KZ_TOP_CONSTANT_N)
  kz.call("kz_top_constants", par, c, r)
  m.constants = { Pi3hat = c[C.KZ_TOP_PI3HAT], Mgl = c[C.KZ_TOP_MGL], threshold = c[C.KZ_TOP_THRESHOLD],
                  lambda = c[C.KZ_TOP_LAMBDA], spin = c[C.KZ_TOP_SPIN], nutation = c[C.KZ_TOP_NUTATION],
                  avgcoef = c[C.KZ_TOP_AVGCOEF] }
  local xb, x0b, out = kz.vec(6), kz.vec(6), kz.vec(C.KZ_TOP_INVARIANT_N)
  local function named(v)
    return { H = v[C.KZ_TOP_ENERGY], PiGamma = v[C.KZ_TOP_PIGAMMA], Gamma2 = v[C.KZ_TOP_GAMMA2], Pi3 = v[C.KZ_TOP_PI3] }
  end
  --- the invariants at x (a Lua array or a double *)
  function m.invariants(x)
    for i = 0, 5 do xb[i] = type(x) == "table" and x[i + 1] or x[i] end
    kz.call("kz_top_invariants", par, xb, out, kz.report())
    return named(out)
  end
  --- I(x) - I(x0) without cancellation
  function m.drift(x, x0)
    for i = 0, 5 do
      xb[i] = type(x) == "table" and x[i + 1] or x[i]
      x0b[i] = type(x0) == "table" and x0[i + 1] or x0[i]
    end
    kz.call("kz_top_drift", par, xb, x0b, out, kz.report())
    return named(out)
  end
  --- the thesis's initial state: Gamma = (0, sin theta0, cos theta0), Pi = (Pi1, 0, spin Pi3^)
  function m.x0(spin, Pi1, theta0)
    theta0 = theta0 or 0.2
    return { Pi1 or 0, 0, spin * m.constants.Pi3hat, 0, math.sin(theta0), math.cos(theta0) }
  end
  return m
end

--- FPU (Ober-Bloebaum et al. Sec. 6): {l (3), omega (50)}: { par, model (kz_vmi_model), ns, nf, d, sys }.
function M.fpu(t)
  t = t or {}
  local o = { name = "fpu", par = ffi.new("kz_vmi_fpu"), model = ffi.new("kz_vmi_model") }
  o.par.l, o.par.omega = t.l or 3, t.omega or 50
  kz.call("kz_vmi_fpu_model", o.model, o.par, kz.report())
  o.ns, o.nf, o.d = o.par.l, o.par.l, 4 * o.par.l
  o.dim, o.nq, o.sys = o.d, 0, ffi.new("kz_sys")
  kz.call("kz_vmi_sys", o.sys, o.model, kz.report())
  return o
end

--- The spring ring (Sec. 6): {mass, eps, omega1, omega2, g, g_sign}, l = 3: as M.fpu.
function M.ring(t)
  t = t or {}
  local o = { name = "ring", par = ffi.new("kz_vmi_ring"), model = ffi.new("kz_vmi_model") }
  local P = o.par
  P.l, P.mass, P.eps, P.omega1, P.omega2, P.g, P.g_sign = 3, t.mass or 2, t.eps or 5, t.omega1 or 2, t.omega2 or 4000,
      t.g or 9.81, t.g_sign or 1
  kz.call("kz_vmi_ring_model", o.model, P, kz.report())
  o.ns, o.nf, o.d = 9, 9, 36
  o.dim, o.nq, o.sys = 36, 0, ffi.new("kz_sys")
  kz.call("kz_vmi_sys", o.sys, o.model, kz.report())
  return o
end

return M
