-- papers_models_cases.lua -- the runs that freeze the papers' models (tests/papers_models_spec.lua):
-- a short run of every method family each model has, its helpers, and the C API's own functions,
-- each case a list of numbers (results and work counts) compared as bit patterns with the values
-- frozen in tests/papers_models_ref.tsv. A case runs on a model in the shape of lib/lua/kapitza/models.lua,
-- built two ways: by the library's C API constructors (kz_pendulum_sys, kz_ste_vib, kz_top_slow,
-- kz_vmi_fpu_model, ...: `capi` below) and from the model files (lib/models/*.lua through
-- lib/lua/kapitza/models.lua, the path a user's model takes: `file`). Both compile the one source of each
-- model (lib/models/<name>.c), so both must give the frozen numbers to the last bit; the cases
-- marked capi_only call functions only the C API has (the exact Kepler flow, a ring of another
-- size, one-sided gradient requests), those marked ens the vectorised ensembles.
--
-- Freezing again (only when a model's arithmetic is changed on purpose, and said so in the commit):
--   LUA_PATH="lib/lua/?.lua;lib/experiment/?.lua;tests/?.lua;;" luajit -e \
--     'require("papers_models_cases").write("tests/papers_models_ref.tsv")'
-- which refuses to write when the two ways disagree.
local kz = require "kapitza"
local ffi, C = kz.ffi, kz.C
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local vmi = require "kapitza.vmi"

local M = {}
local twopi = 2 * math.pi

---------------------------------------------------------------------------------------------------
-- The models through the C API constructors (the shape of lib/lua/kapitza/models.lua, what the cases use)
---------------------------------------------------------------------------------------------------

local capi = {}
M.capi = capi

local function cpar(ctype, t, names, defaults)
  local par = ffi.new(ctype)
  for _, k in ipairs(names) do
    local v = t[k]
    if v == nil then v = defaults[k] end
    par[k] = v
  end
  return par
end

local function cbuild(par, parts)
  local m, r = { par = par }, kz.report()
  for _, p in ipairs(parts) do
    m[p[1]] = ffi.new(p[2])
    kz.call(p[3], m[p[1]], par, r)
  end
  m.dim, m.nq = m.sys.dim, m.sys.nq
  return m
end

function capi.pendulum(t)
  local par = cpar("kz_pendulum", t, { "l", "g", "vmax", "omega", "theta0" }, { theta0 = 0 })
  local m = cbuild(par, { { "sys", "kz_sys", "kz_pendulum_sys" }, { "vib", "kz_vib", "kz_pendulum_vib" },
                          { "avg", "kz_sys", "kz_pendulum_averaged_sys" } })
  function m.averaged_force(Q) return C.kz_pendulum_averaged_force(par, Q) end
  return m
end

function capi.ste(t)
  local par = cpar("kz_ste", t, { "eps", "g", "l" }, {})
  local m = cbuild(par, { { "sys", "kz_sys", "kz_ste_sys" }, { "vib", "kz_vib", "kz_ste_vib" },
                          { "avg", "kz_sys", "kz_ste_averaged_sys" } })
  function m.averaged_force(Theta) return C.kz_ste_averaged_force(par, Theta) end
  function m.potential(Theta) return C.kz_ste_potential(par, Theta) end
  function m.energy(Theta, Omega) return 0.5 * par.l * Omega * Omega + C.kz_ste_potential(par, Theta) end
  return m
end

for _, name in ipairs { "kepler", "vdp" } do
  capi[name] = function(eps)
    local par = ffi.new("kz_" .. name, { eps })
    local m = cbuild(par, { { "sys", "kz_sys", "kz_" .. name .. "_sys" } })
    m.eps, m.period = par.eps, twopi
    return m
  end
end

function capi.dpend(t)
  local par = cpar("kz_dpend", t, { "m1", "m2", "l1", "l2", "g", "vmax", "omega", "theta0" }, { theta0 = 0 })
  local m, r = { par = par, dim = 8, nq = 4 }, kz.report()
  m.con = ffi.new("kz_constraints")
  kz.call("kz_dpend_constraints", m.con, par, r)
  m.sys, m.vib, m.lagrange, m.avg = ffi.new("kz_sys"), ffi.new("kz_vib"), ffi.new("kz_sys"), ffi.new("kz_sys")
  kz.call("kz_dpend_sys", m.sys, par, m.con, r)
  kz.call("kz_dpend_vib", m.vib, par, r)
  kz.call("kz_dpend_lagrange_sys", m.lagrange, par, r)
  kz.call("kz_dpend_averaged_sys", m.avg, par, r)
  function m.state(ang)
    local y = kz.vec(8)
    kz.call("kz_dpend_state", par, kz.vec(4, ang), y, kz.report())
    local out = {}
    for i = 1, 8 do out[i] = y[i - 1] end
    return out
  end
  return m
end

function capi.top(t)
  local par = cpar("kz_top", t, { "M", "g", "l", "I1", "I2", "I3", "amp", "nu" }, require("kapitza.models").spec("top").values)
  par.forcing = kz.choose(kz.top_forcings, t.forcing or "free", "top.forcing")
  par.avg = kz.choose(kz.top_avgs, t.avg or "corrected", "top.avg")
  local m = cbuild(par, { { "sys", "kz_sys", "kz_top_sys" }, { "vib", "kz_vib", "kz_top_vib" },
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
  local function named(v)
    return { H = v[C.KZ_TOP_ENERGY], PiGamma = v[C.KZ_TOP_PIGAMMA], Gamma2 = v[C.KZ_TOP_GAMMA2], Pi3 = v[C.KZ_TOP_PI3] }
  end
  function m.invariants(x)
    local out = kz.vec(C.KZ_TOP_INVARIANT_N)
    kz.call("kz_top_invariants", par, kz.vec(6, x), out, kz.report())
    return named(out)
  end
  function m.drift(x, x0)
    local out = kz.vec(C.KZ_TOP_INVARIANT_N)
    kz.call("kz_top_drift", par, kz.vec(6, x), kz.vec(6, x0), out, kz.report())
    return named(out)
  end
  function m.x0(spin, Pi1, theta0)
    return { Pi1 or 0, 0, spin * m.constants.Pi3hat, 0, math.sin(theta0 or 0.2), math.cos(theta0 or 0.2) }
  end
  return m
end

local function cvmi(name, ctype, cfun, fields, ns, nf)
  local o = { name = name, par = ffi.new(ctype, fields), model = ffi.new("kz_vmi_model") }
  kz.call(cfun, o.model, o.par, kz.report())
  o.ns, o.nf, o.d = ns, nf, 2 * (ns + nf)
  o.dim, o.nq, o.sys = o.d, 0, ffi.new("kz_sys")
  kz.call("kz_vmi_sys", o.sys, o.model, kz.report())
  return o
end
function capi.fpu(t) return cvmi("fpu", "kz_vmi_fpu", "kz_vmi_fpu_model", { t.l, t.omega }, t.l, t.l) end
function capi.ring(t)
  local l = t.l or 3
  return cvmi("ring", "kz_vmi_ring", "kz_vmi_ring_model", { l, 2, 5, 2, 4000, 9.81, t.g_sign or 1 }, 3 * l, 3 * l)
end

---------------------------------------------------------------------------------------------------
-- The model files (lib/lua/kapitza/models.lua; the vmi models through lib/lua/kapitza/vmi.lua, as the scenarios)
---------------------------------------------------------------------------------------------------

local file = setmetatable({}, { __index = function(_, k) return require("kapitza.models")[k] end })
M.file = file
function file.fpu(t) return vmi.fpu(t) end
function file.ring(t) return vmi.ring { gravity = (t.g_sign or 1) == 1 and "physical" or "printed" } end

---------------------------------------------------------------------------------------------------
-- The cases: run(B) -> a list of numbers, B one of the two builders
---------------------------------------------------------------------------------------------------

-- Append numbers to out: a number, a Lua array (1-based), or n numbers behind a pointer (0-based).
local function put(out, x, n)
  if type(x) == "number" then out[#out + 1] = x
  elseif n then for i = 0, n - 1 do out[#out + 1] = x[i] end
  else for i = 1, #x do out[#out + 1] = x[i] end end
end
local COUNTS = { "force_evals", "micro_steps", "macro_steps", "newton_iters", "jac_evals" }
local function counts(out, c) for _, k in ipairs(COUNTS) do out[#out + 1] = tonumber(c[k]) end end

local function steppers(out, sys, names, h, N, y0)
  for _, s in ipairs(names) do
    local y, c = kz.run(sys, s, 0, h, N, y0)
    put(out, y); counts(out, c)
  end
end

local cases = {}
M.cases = cases
local function case(name, run, kind) cases[#cases + 1] = { name = name, run = run, kind = kind or "both" } end

case("pendulum steppers", function(B)
  local m, out = B.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e3, theta0 = 0.3 }, {}
  steppers(out, m.sys, { "rk4", "verlet", "dp5", "leapfrog", "symeuler" }, 1e-5, 2000, { 0.5, 0.1 })
  steppers(out, m.avg, { "rk4" }, 1e-3, 200, { 0.5, 0 })
  put(out, m.averaged_force(0.7)); put(out, m.vib.omega); put(out, m.vib.theta0); put(out, m.vib.even_in_theta)
  return out
end)

case("pendulum HMM and SAM", function(B)
  local m, out, per = B.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = 1e3, theta0 = 0.3 }, {}, twopi / 1e3
  for _, preset in ipairs { "cs1", "cs2" } do
    local Q, P, c = hmm.run(m, { preset = preset, kernel = "exponential", H = 0.01, T = 0.05, eta = 10 * per,
                                 h = per / 20, Q0 = 0.5, P0 = 0, micro = "verlet" })
    put(out, Q); put(out, P); counts(out, c)
  end
  local y, c = sam.sam(sam.micro(m, "rk4"), { n = 16, period = per, y0 = { 0.5, 0 }, tout = { 64 * per }, macro = "rk4",
                                             H = 8 * per })
  put(out, y[1]); counts(out, c)
  return out
end)

case("ste steppers, HMM, helpers", function(B)
  local m, out = B.ste { eps = 1e-3, g = 0.1, l = 0.05 }, {}
  put(out, m.vib.omega); put(out, m.vib.even_in_theta)
  steppers(out, m.sys, { "rk4", "verlet", "dp5" }, 1e-5, 20000, { 0.1, -0.4 }) -- 200 periods
  steppers(out, m.avg, { "rk4" }, 1e-3, 200, { 0.1, -0.4 })
  local Q, P, c = hmm.run(m, { preset = "ste", H = 0.01, T = 0.05, eta = 5e-3, h = 2e-5, Q0 = 0.1, P0 = -0.4 })
  put(out, Q); put(out, P); counts(out, c)
  put(out, { m.averaged_force(0.3), m.potential(0.3), m.energy(0.3, 0.2) })
  return out
end)

for _, name in ipairs { "kepler", "vdp" } do
  case(name .. " field, Strang, SAM, LISP, MR", function(B)
    local m, out = B[name](2 ^ -10), {}
    put(out, m.eps); put(out, m.period)
    local y0 = name == "vdp" and { 0.5, 0.5 } or { 1, 0, 0, 1 }
    steppers(out, m.sys, { "rk4", "strang", "dp5" }, twopi / 32, 32 * 16, y0)
    for _, micro in ipairs { "rk4", "strang" } do
      local mi = sam.micro(m, micro)
      local o = { n = 16, period = twopi, y0 = y0, tout = { twopi * 64 }, macro = "rk4", H = twopi * 8 }
      local y, c = sam.sam(mi, o)
      put(out, y[1]); counts(out, c)
      o.diff = "lisp"
      y, c = sam.sam(mi, o)
      put(out, y[1]); counts(out, c)
      local z, d = sam.mr(mi, { n = 16, period = twopi, M = 8, N = 8, y0 = y0 })
      put(out, z); counts(out, d)
    end
    return out
  end)
end

-- a report's cause (a string) as numbers: its length and bytes (-1: none)
local function cause(out, r)
  if r.param == nil then out[#out + 1] = -1; return end
  local s = ffi.string(r.param)
  out[#out + 1] = #s
  for i = 1, #s do out[#out + 1] = s:byte(i) end
end

-- a flow's refusal (or success): the status, the state, the cause named, where, the iterations
local function refusal(out, flow, par, t, h, y)
  local yb, r = kz.vec(#y, y), kz.report()
  put(out, flow(par, t, h, yb, r)); put(out, yb, #y)
  cause(out, r); put(out, tonumber(r.fail_step)); put(out, r.fail_time); put(out, tonumber(r.newton_iters))
end

case("kepler flows: the midpoint's refusals", function(B)
  local out, m = {}, B.kepler(0.5)
  -- h = 0.5 at eps = 0.5: the midpoint iteration does not contract; an unbound state
  refusal(out, m.sys.flow_a, m.sys.par, 0.25, 0.5, { 1, 0, 0, 1 })
  refusal(out, m.sys.flow_a, m.sys.par, 0.25, 0.5, { 1, 0, 0, 2 })
  refusal(out, m.sys.flow_a, m.sys.par, 0.25, 0.01, { 1, 0.1, -0.2, 1.1 })
  return out
end)

-- the exact flow's refusals name the same causes both ways; the C API records no time for a bad
-- argument and the flow's length for Kepler's equation, the model file the flow's start (kepler.lua)
local function exact_flow(B)
  local out, m = {}, B.kepler(0.5)
  for _, c in ipairs { { 0.5, { 1, 0, 0, 2 } }, { 0.5, { 0, 0, 0, 1 } }, { 0 / 0, { 1, 0, 0, 1 } },
                       { 0.5, { 1, 0 / 0, 0, 1 } }, { 1.25, { 1, 0.1, -0.2, 1.1 } }, { 1e300, { 1, 0, 0, 1.4 } } } do
    refusal(out, m.sys.flow_b, m.sys.par, 0.25, c[1], c[2])
  end
  return out
end
case("kepler flows: the exact flow's refusals (C API)", function() return exact_flow(capi) end, "capi")
case("kepler flows: the exact flow's refusals (model file)", function() return exact_flow(file) end, "file")

case("kepler exact flow and energy (C API)", function()
  local out, r = {}, kz.report()
  for _, c in ipairs { { { 1, 0, 0, 1 }, twopi }, { { 0.7, 0.3, -0.4, 1.1 }, 3.7 }, { { 1, 0, 0, 1.3 }, -12.5 },
                       { { 1, 0, 0, 2 }, 1 }, { { 0, 0, 0, 1 }, 1 }, { { 1, 0, 0, 1 }, 1 / 0 } } do
    local y, yo = kz.vec(4, c[1]), kz.vec(4, { -1, -1, -1, -1 })
    C.kz_report_init(r)
    put(out, C.kz_kepler_flow(y, c[2], yo, r)); put(out, yo, 4); put(out, tonumber(r.newton_iters))
    cause(out, r); put(out, tonumber(r.fail_step)); put(out, r.fail_time)
    put(out, C.kz_kepler_energy(y))
  end
  local y = kz.vec(4, { 0.7, 0.3, -0.4, 1.1 })
  put(out, C.kz_kepler_flow(y, 2.5, y, r)); put(out, y, 4) -- in place
  return out
end, "capi")

local DPEND = { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 200, theta0 = 0.1 }

case("dpend SHAKE, RATTLE, HERK3, angle ODEs, helpers", function(B)
  local m, out = B.dpend(DPEND), {}
  put(out, m.con.tol); put(out, m.con.max_iter); put(out, m.con.m); put(out, m.con.minv, 4)
  put(out, m.vib.omega); put(out, m.vib.theta0); put(out, m.vib.even_in_theta)
  local y0 = m.state { 0.5, 0, 0.1, -0.2 }
  local res = kz.vec(4) -- g(q) and G(q) v: the rods
  kz.call("kz_con_residual", m.sys, kz.vec(8, y0), res, kz.report())
  put(out, y0); put(out, res, 4)
  put(out, m.state { -1.25, 2.5, 3, -0.75 })
  steppers(out, m.sys, { "shake", "rattle", "herk3" }, 1e-4, 500, y0)
  steppers(out, m.lagrange, { "rk4" }, 1e-4, 500, { 0.5, 0, 0.1, 0 })
  steppers(out, m.avg, { "rk4" }, 1e-3, 200, { 0.5, 0, 0.1, 0 })
  return out
end)

case("dpend helpers of the model file: angles, residual", function(B)
  local m, out = B.dpend(DPEND), {}
  local y0 = m.state { 0.5, 0, 0.1, -0.2 }
  put(out, { m.angles(kz.vec(8, y0)) }); put(out, { m.residual(y0) })
  return out
end, "file")

case("dpend constrained HMMs and SAM on the DAE", function(B)
  local m, out, per = B.dpend(DPEND), {}, twopi / 200
  local y0 = m.state { 0.5, 0, 0.1, -0.2 }
  for _, scheme in ipairs { "shake-shake", "rattle-shake" } do
    local Y, L, c = hmm.dae_run(m, { preset = scheme, H = 0.01, T = 0.05, eta = per, h = per / 20, kernel = "uniform" }, y0)
    put(out, Y[#Y]); put(out, L[#L]); counts(out, c)
  end
  local w = B.dpend { m1 = 0.01, m2 = 0.005, l1 = 0.2, l2 = 0.1, g = 9.8, vmax = 4, omega = 1e4 }
  local z0, tend = w.state { 0.5, 0, 0, 0 }, 199 * math.pi / 625
  local y, _, c = sam.dae(w, { n = 4, period = twopi * 1e-4, H = tend / 200, y0 = z0, tout = { tend } })
  put(out, y[1]); counts(out, c)
  return out
end)

local TOPS = { { forcing = "free" }, { forcing = "transverse", amp = 50, nu = 50 },
               { forcing = "vertical", amp = 3, nu = 100, avg = "printed" }, { forcing = "vertical", amp = 3, nu = 100 },
               { forcing = "vertical", amp = 3, nu = 100, avg = "none" } }
local CONSTANTS = { "Pi3hat", "Mgl", "threshold", "lambda", "spin", "nutation", "avgcoef" }
local INVARIANTS = { "H", "PiGamma", "Gamma2", "Pi3" }

for _, f in ipairs(TOPS) do
  case("top " .. f.forcing .. " " .. (f.avg or "corrected"), function(B)
    local m, out = B.top(f), {}
    for _, k in ipairs(CONSTANTS) do put(out, m.constants[k]) end
    put(out, m.vib.omega); put(out, m.vib.theta0); put(out, m.vib.even_in_theta)
    local x0 = m.x0(100, 0.01, 0.2)
    put(out, x0)
    steppers(out, m.sys, { "rk4", "dp5" }, 1e-5, 300, x0)
    steppers(out, m.avg, { "rk4" }, 1e-5, 300, x0)
    local y = kz.run(m.sys, "rk4", 0, 1e-5, 300, x0)
    local inv, dr = m.invariants(y), m.drift(y, x0)
    for _, k in ipairs(INVARIANTS) do put(out, inv[k]); put(out, dr[k]) end
    local sets = { "32", "37" }
    if f.forcing == "transverse" then sets[3] = "40" end
    put(out, m.slow["40"] and 1 or 0)
    for _, set in ipairs(sets) do
      local X, c = hmm.slow_run(m, { H = 1e-3, T = 4e-3, eta = 1e-3, h = 1e-5, x0 = x0, set = set, macro = "LF",
                                     micro = "rk4", kernel = "exp2" })
      put(out, X[#X]); counts(out, c)
    end
    return out
  end)
end

case("top slow sets called directly (C API): values, gradients, phase derivatives, refusals", function()
  local out = {}
  local m = capi.top { forcing = "transverse", amp = 50, nu = 50 }
  local xs = { { 0.01, -0.02, 2.5, 0.1, 0.2, 0.97 }, { 0.3, 0.1, -1, 0, 0, 1 }, { 0.3, 0.1, -1, 0.6, 0.8, 0 } }
  for _, set in ipairs { "32", "37", "40" } do
    local s = m.slow[set]
    for _, x in ipairs(xs) do
      for _, want in ipairs { { true, true }, { false, false }, { true, false } } do
        local xi, g, xt = kz.vec(4, { -7, -7, -7, -7 }), kz.vec(24), kz.vec(4, { -7, -7, -7, -7 })
        for i = 0, 23 do g[i] = -7 end
        local st = s.eval(s.par, 0.7, kz.vec(6, x), xi, want[1] and g or nil, want[2] and xt or nil)
        put(out, st); put(out, xi, 4); put(out, g, 24); put(out, xt, 4)
      end
    end
    put(out, s.r); put(out, s.dim); put(out, s.frozen, 6)
  end
  local r = kz.report()
  put(out, C.kz_top_slow(ffi.new("kz_slow"), capi.top({}).par, C.KZ_TOP_XI40, r))
  return out
end, "capi")

-- the vmi potentials called directly: value, gradients into both arrays or one, Hessian, added
-- onto what the arrays hold. sided: the gradient asked into one array only (the C API adds each
-- term into it; the model file's wrapper adds the gradient formed in zeroed scratch: the sums
-- round differently, each way frozen)
local BOTH_SIDES = { { true, true, true, true }, { false, true, true, false }, { false, false, false, true },
                     { true, false, false, false } }
local ONE_SIDE = { { false, true, false, false }, { false, false, true, false }, { true, true, false, true } }
local function potentials(out, m, y0, sided)
  local ns, nf, n = m.ns, m.nf, m.ns + m.nf
  for _, want in ipairs(sided and ONE_SIDE or BOTH_SIDES) do
    local v, w = kz.vec(1, { -3 }), kz.vec(1, { -3 })
    local gs, gf, H = kz.vec(ns), kz.vec(nf), kz.vec(n * n)
    for i = 0, ns - 1 do gs[i] = 0.25 * i end
    for i = 0, nf - 1 do gf[i] = -0.5 * i end
    for i = 0, n * n - 1 do H[i] = 0.125 * i end
    local mm = m.model
    put(out, mm.V(mm.par, y0, y0 + ns, want[1] and v or nil, want[2] and gs or nil, want[3] and gf or nil,
                  want[4] and H or nil))
    local Hw = kz.vec(nf * nf)
    put(out, mm.W(mm.par, y0 + ns, want[1] and w or nil, want[3] and gf or nil, want[4] and Hw or nil))
    put(out, v, 1); put(out, w, 1); put(out, gs, ns); put(out, gf, nf); put(out, H, n * n); put(out, Hw, nf * nf)
  end
end

-- a state of the vmi model off the paper's start, where no sum is exact
local function vmi_state(m)
  local y = kz.vec(m.d)
  for i = 0, m.d - 1 do y[i] = (m.y0 and m.y0[i + 1] or 0) + 0.1 * math.sin(1.3 * i + 0.4) end
  return y
end

for _, c in ipairs { { "fpu", { l = 3, omega = 50 } }, { "fpu", { l = 4, omega = 100 } }, { "ring", {} },
                     { "ring", { g_sign = -1 } } } do
  local name, v = c[1], c[2]
  case(string.format("%s %s: variational multirate schemes, energies, potentials, RK4", name,
                     v.l and ("l = " .. v.l) or (v.g_sign == -1 and "printed gravity" or "physical gravity")), function(B)
    local m, out = B[name](v), {}
    local y0 = (name == "fpu" and vmi.fpu(v) or vmi.ring()).y0 -- the same start both ways (the model file's)
    for _, scheme in ipairs { "MM", "TM", "TT", "TMh" } do
      local r = vmi.run(m, scheme, { p = 4, dT = name == "ring" and 0.01 or 0.05, N = 10, tol = 1e-12, y0 = y0 })
      put(out, r.out, 11 * m.d); counts(out, r.counts)
    end
    put(out, vmi.total_energy(m, kz.vec(m.d, y0), 1))
    m.y0 = y0
    local ys = vmi_state(m)
    potentials(out, m, kz.vec(m.d, y0)); potentials(out, m, ys)
    put(out, vmi.reference(m, 0.01, 5, 4, y0), 6 * m.d)
    return out
  end)
  for _, way in ipairs { "capi", "file" } do
    case(string.format("%s %s: one-sided gradients (%s)", name, v.l and ("l = " .. v.l) or (v.g_sign == -1 and "printed gravity" or "physical gravity"),
                       way == "capi" and "C API" or "model file"), function()
      local m, out = M[way][name](v), {}
      m.y0 = (name == "fpu" and vmi.fpu(v) or vmi.ring()).y0
      potentials(out, m, kz.vec(m.d, m.y0), true); potentials(out, m, vmi_state(m), true)
      return out
    end, way)
  end
end

case("vmi models of other sizes (C API): fpu l = 5, rings of 2 and 4 pairs, the harmonic oscillator", function()
  local out = {}
  for _, m in ipairs { capi.fpu { l = 5, omega = 30 }, capi.ring { l = 2 }, capi.ring { l = 4, g_sign = -1 } } do
    potentials(out, m, vmi_state(m)); potentials(out, m, vmi_state(m), true)
    local r = vmi.run(m, "TM", { p = 3, dT = 0.01, N = 4, tol = 1e-12, y0 = vmi_state(m) })
    put(out, r.out, 5 * m.d); counts(out, r.counts)
  end
  for _, nf in ipairs { 0, 1 } do
    local m = vmi.harmonic { nf = nf, omega_s = 1.5, omega_f = 40 }
    local r = vmi.run(m, "TM", { p = 5, dT = 0.05, N = 6, tol = 1e-12, y0 = nf == 1 and { 1, 0.01, 0, 1 } or { 1, 0 } })
    put(out, r.out, 7 * m.d); counts(out, r.counts)
  end
  return out
end, "capi")

-- the vectorised ensembles (kz_pendulum_ens_init, kz_ste_ens_init): member m's numbers
local function ens_put(out, cols, M) for m = 1, M do put(out, cols[m]) end end

-- (15 members: on AVX-512 the member loops take 8 of them together, then 4, then one at a time;
-- on 3 threads, chunks of 5 from offsets 0, 5, 10)
case("ensembles: the pendulum and ste, time and phase forms", function()
  local ens = require "kapitza.ensemble"
  local out, M = {}, 15
  local amps, oms, q0s, eps, ls = {}, {}, {}, {}, {}
  for m = 1, M do
    amps[m], oms[m], q0s[m] = 0.5 + 0.3 * m, 40 + 7 * m, 0.05 + 0.02 * m
    eps[m], ls[m] = 1e-3 * (1 + 0.05 * m), 0.05 + 0.002 * m
  end
  local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = oms, theta0 = 0.1 }
  put(out, e.width); put(out, e.phase and 1 or 0)
  for _, st in ipairs { "rk4", "verlet" } do
    for _, th in ipairs { 1, 3 } do
      local q, v, failed, c = ens.run(e, { stepper = st, h = 1e-4, n = 300, q0 = q0s, v0 = 0.2, threads = th })
      ens_put(out, q, M); ens_put(out, v, M); ens_put(out, failed, M); counts(out, c)
    end
  end
  e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = 1e3, theta0 = 0.2 }
  put(out, e.phase and 1 or 0)
  local per = twopi / 1e3
  local Q, P, failed, c = ens.hmm(e, { preset = "cs1", kernel = "exp2", H = 0.01, T = 0.05, eta = 4 * per, h = per / 16,
                                       micro = "rk4", Q0 = q0s, P0 = 0.1, threads = 3 })
  for n = 1, #Q do ens_put(out, Q[n], M); ens_put(out, P[n], M) end
  ens_put(out, failed, M); counts(out, c)
  local ys
  ys, failed, c = ens.sam(e, { n = 16, period = per, q0 = q0s, v0 = 0, tout = { 64 * per }, macro = "rk4", H = 8 * per })
  ens_put(out, ys[1][1], M); ens_put(out, ys[1][2], M); counts(out, c)
  local s = ens.ste { eps = eps, g = 0.1, l = ls }
  put(out, s.width); put(out, s.phase and 1 or 0)
  local q, v
  q, v, failed, c = ens.run(s, { stepper = "rk4", h = 1e-5, n = 2000, q0 = q0s, v0 = -0.4 })
  ens_put(out, q, M); ens_put(out, v, M); counts(out, c)
  s = ens.ste { eps = 1e-3, g = 0.1, l = ls }
  Q, P, failed, c = ens.hmm(s, { preset = "ste", H = 0.01, T = 0.05, eta = 5e-3, h = 2e-5, Q0 = q0s, P0 = -0.4 })
  for n = 1, #Q do ens_put(out, Q[n], M); ens_put(out, P[n], M) end
  counts(out, c)
  return out
end, "ens")

---------------------------------------------------------------------------------------------------
-- Bit patterns, the reference file
---------------------------------------------------------------------------------------------------

local bitbuf = ffi.new("double[1]")
--- The bit pattern of a double as 16 hex digits.
function M.bits(x)
  bitbuf[0] = x
  return string.format("%016x", ffi.cast("uint64_t *", bitbuf)[0])
end

--- The number whose bit pattern is hex (16 hex digits).
function M.number(hex)
  local u = ffi.new("uint64_t[1]")
  u[0] = ffi.cast("uint64_t", tonumber(hex:sub(1, 8), 16)) * 0x100000000ULL + tonumber(hex:sub(9), 16)
  return ffi.cast("double *", u)[0]
end

-- Up to this many values a case's values are kept one by one; a longer case keeps a digest of all
-- of them (FNV-1a 64 over the bit patterns) and its first and last values.
M.KEEP = 48

--- The line of a case: name, count, digest, the values (or the first and last 8 of a long case).
function M.line(name, vals)
  local hex = {}
  for i = 1, #vals do hex[i] = M.bits(vals[i]) end
  local kept = hex
  if #hex > M.KEEP then
    kept = {}
    for i = 1, 8 do kept[i] = hex[i] end
    for i = #hex - 7, #hex do kept[#kept + 1] = hex[i] end
  end
  return table.concat({ name, tostring(#vals), M.digest(hex), table.concat(kept, " ") }, "\t")
end

function M.digest(hex) return require("kapitza.usermodel").hash(table.concat(hex, " ")) end

--- The frozen lines by case name: { n, digest, values (list of hex strings) }.
function M.read(path)
  local f = assert(io.open(path, "rb"))
  local t = {}
  for l in f:lines() do
    if not l:match("^#") and l ~= "" then
      local name, n, dg, vals = l:match("^([^\t]+)\t(%d+)\t(%x+)\t?(.*)$")
      assert(name, "papers_models_ref: a malformed line: " .. l)
      local v = {}
      for h in vals:gmatch("%x+") do v[#v + 1] = h end
      t[name] = { n = tonumber(n), digest = dg, values = v }
    end
  end
  f:close()
  return t
end

--- Compare a case's values with its frozen line; nil when they agree, else a message naming the
-- first value that differs (or the digest when the line keeps only a sample).
function M.check(frozen, name, vals)
  local ref = frozen[name]
  if not ref then return "case '" .. name .. "' is not in the reference file" end
  local hex = {}
  for i = 1, #vals do hex[i] = M.bits(vals[i]) end
  if #hex ~= ref.n then return string.format("%s: %d values, %d frozen", name, #hex, ref.n) end
  local idx = {}
  if ref.n > M.KEEP then
    for i = 1, 8 do idx[i] = i end
    for i = ref.n - 7, ref.n do idx[#idx + 1] = i end
  else
    for i = 1, ref.n do idx[i] = i end
  end
  for k, i in ipairs(idx) do
    if hex[i] ~= ref.values[k] then
      return string.format("%s: value %d is %.17g (%s), frozen %.17g (%s)", name, i, vals[i], hex[i],
                           M.number(ref.values[k]), ref.values[k])
    end
  end
  if M.digest(hex) ~= ref.digest then
    return string.format("%s: the digest of its %d values differs from the frozen one (the sampled values agree)", name, ref.n)
  end
  return nil
end

--- Run every case both ways (the C API, the model files; the ensembles and C-API-only cases once),
-- check that the ways agree bit for bit, and write the reference file.
function M.write(path)
  local lines = { "# tests/papers_models_ref.tsv -- the papers' models frozen (tests/papers_models_cases.lua writes it;",
                  "# tests/papers_models_spec.lua compares): case, number of values, FNV-1a 64 digest of their bit",
                  "# patterns, the bit patterns (16 hex digits each; a case of more than " .. M.KEEP .. " values: its first and last 8)." }
  for _, c in ipairs(cases) do
    local a = c.run(c.kind == "file" and file or capi)
    if c.kind == "both" then
      local b = c.run(file)
      assert(#a == #b, c.name .. ": the two ways give different counts of values")
      for i = 1, #a do
        if M.bits(a[i]) ~= M.bits(b[i]) then error(string.format("%s: value %d differs: %.17g (C API) vs %.17g (model file)", c.name, i, a[i], b[i])) end
      end
    end
    lines[#lines + 1] = M.line(c.name, a)
  end
  local f = assert(io.open(path, "wb"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
end

return M
