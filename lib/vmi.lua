-- vmi.lua -- Lua side of the variational multirate integrators (Ober-Bloebaum, Wenger, Gail &
-- Leyendecker): the schemes of Sec. 6 as (alpha, gamma) choices of (4.8), the FPU and spring-ring
-- models with the paper's initial data and their scenario keys, runs, RK4 references, the measured
-- quantities (stiff-spring energies, total energy, angular momentum, positions, errors on
-- macro/micro nodes, fitted orders and local slopes, linear stability bounds, work counts), and
-- the drivers the scenarios of one family share (Sec. 6.1 FPU and spring ring, Sec. 6.2
-- convergence, Sec. 6.3 computing time): each writes its data, its claims table (experiment.claims)
-- and draws its figure from the data just written (scenario:figure). The method text the scenarios
-- of a family share is stated once, in paper/reference/<first id>-family.md. All stepping happens in
-- C (lib/kz_vmi*.c); this module configures and collects.
local kz = require "kapitza"
local S = require "scenario"
local E = require "experiment"
local O = require "options"
local cap = require "capability"
local models = require "models"
local ffi, C = kz.ffi, kz.C

local M = {}

-- The options of params, run and run_until (lib/options.lua: unknown keys and wrong kinds are errors).
local KEYS = { p = "count", dT = "positive", N = "whole", T = "positive", tol = "positive", max_iter = "count",
               solver = "string", predictor = "string", micro = "boolean", timing = "boolean", y0 = "vector",
               reuse = "boolean" }

-- Quadrature choices (alpha_V, gamma_V, alpha_W, gamma_W) of (4.8)/Table 1.
-- MM: Thm 3.3. TM, TT: Thms 3.4/3.5 with the left rectangle rule (alpha = gamma = 1) that Sec. 6
-- runs (notes Sec. 8.1). TMh, TTh: the alpha = 1/2 trapezoid (Lobatto), second order (Lemma 4.5).
M.schemes = {
  MM = { alpha_V = 0.5, gamma_V = 0.5, alpha_W = 0.5, gamma_W = 0.5 },
  TM = { alpha_V = 1, gamma_V = 1, alpha_W = 0.5, gamma_W = 0.5 },
  TT = { alpha_V = 1, gamma_V = 1, alpha_W = 1, gamma_W = 1 },
  TMh = { alpha_V = 0.5, gamma_V = 1, alpha_W = 0.5, gamma_W = 0.5 },
  TTh = { alpha_V = 0.5, gamma_V = 1, alpha_W = 0.5, gamma_W = 1 },
}
M.scheme_names = { MM = "midpoint-midpoint", TM = "trapezoidal-midpoint (left rectangle in V)",
                   TT = "trapezoidal-trapezoidal (left rectangle in V and W)",
                   TMh = "trapezoidal-midpoint (α_V = ½ trapezoid)", TTh = "trapezoidal-trapezoidal (α = ½ trapezoids)" }
M.scheme_choices = { "MM", "TM", "TT", "TMh", "TTh" }

--- The `scheme` key of a scenario, default d.
function M.scheme_param(d, help)
  return { "scheme", d, "", help or "quadrature of V and W (4.8): MM, TM, TT (left rectangle rules, Sec. 6), TMh, TTh (α = ½)",
           choices = M.scheme_choices }
end

--- Quadrature points per micro interval of V plus those of W (n_V + n_W in kz_vmi.c: 1 for the
-- midpoint and the rectangle rules, 2 for a trapezoid with 0 < alpha < 1): the Hessians one
-- Jacobian assembly evaluates per micro interval.
function M.quad_points(scheme)
  local q = M.schemes[scheme]
  local function n(a, g) if g == 0.5 then return 1 end return (a ~= 0 and 1 or 0) + (a ~= 1 and 1 or 0) end
  return n(q.alpha_V, q.gamma_V) + n(q.alpha_W, q.gamma_W)
end
M.solvers = { structured = C.KZ_VMI_STRUCTURED, dense = C.KZ_VMI_DENSE }
M.predictors = { verlet = C.KZ_VMI_PREDICT_VERLET, drift = C.KZ_VMI_PREDICT_DRIFT }

local function scheme_of(s)
  if type(s) == "table" then return s end
  local q = M.schemes[s]
  if not q then error("vmi: unknown scheme '" .. tostring(s) .. "' (MM, TM, TT, TMh, TTh)", 3) end
  return q
end

--- A kz_vmi_params from a scheme name (or {alpha_V, ...}) and options {p, dT, tol, max_iter, solver,
-- predictor ('verlet', the default, or 'drift')}.
function M.params(scheme, o)
  O.check(o, KEYS, "vmi.params")
  local q = scheme_of(scheme)
  local P = ffi.new("kz_vmi_params")
  P.alpha_V, P.gamma_V, P.alpha_W, P.gamma_W = q.alpha_V, q.gamma_V, q.alpha_W, q.gamma_W
  P.p = o.p
  P.dT = o.dT
  P.tol = o.tol or 1e-9
  P.max_iter = o.max_iter or 50
  local sv = M.solvers[o.solver or "structured"]
  if not sv then error("vmi: solver must be 'structured' or 'dense' (got " .. tostring(o.solver) .. ")", 2) end
  P.solver = sv
  local pr = M.predictors[o.predictor or "verlet"]
  if not pr then error("vmi: predictor must be 'verlet' or 'drift' (got " .. tostring(o.predictor) .. ")", 2) end
  P.predictor = pr
  return P
end

---------------------------------------------------------------------------------------------------
-- Models with the paper's initial data, in the shape of lib/models.lua: name, dim, par, sys (the
-- Hamiltonian equations (2.4) as a kz_sys, for the RK4 references), plus the kz_vmi_model the
-- integrator takes (model), ns, nf and the paper's initial state y0.
---------------------------------------------------------------------------------------------------

local function shape(o)
  o.name, o.dim, o.nq = o.kind, o.d, 0
  o.sys = ffi.new("kz_sys")
  kz.call("kz_vmi_sys", o.sys, o.model, kz.report())
  return o
end

--- FPU, Sec. 6: l = 3, omega = 50, HLW initial values q^s = (1,0,0), q^f = (1/omega,0,0),
-- p^s = p^f = (1,0,0): the model file lib/models/fpu.lua (lib/models.lua's models.fpu).
function M.fpu(t)
  t = t or {}
  return M.shape.fpu(models.fpu { l = t.l or 3, omega = t.omega or 50 })
end

--- What this module adds to the models of lib/models/fpu.lua and ring.lua (kind; FPU: omega).
M.shape = {
  fpu = function(o) o.kind, o.omega = "fpu", o.par.omega; return o end,
  ring = function(o) o.kind = "ring"; return o end,
}

--- Oscillatory energies of the stiff springs I_j = (p_j^f^2 + omega^2 q_j^f^2)/2 (HLW I.5.1) of
-- the state at y (cdata pointer to one row); returns I_1..I_l and their sum.
function M.fpu_I(o, y)
  local l, w2, I, s = o.par.l, o.omega * o.omega, {}, 0
  for j = 0, l - 1 do
    local q, p = y[l + j], y[3 * l + j]
    I[j + 1] = 0.5 * (p * p + w2 * q * q)
    s = s + I[j + 1]
  end
  return I, s
end

--- The spring ring of Sec. 6: 2l = 6 masses of 2, eps = 5, omega1 = 2, omega2 = 4000, g = 9.81;
-- gravity = "physical" (default) or "printed"; velocity directions from the unperturbed
-- ("unperturbed", default) or the repositioned positions ("repositioned"): the model file
-- lib/models/ring.lua (lib/models.lua's models.ring).
function M.ring(t)
  t = t or {}
  local gr = t.gravity or "physical"
  if gr ~= "physical" and gr ~= "printed" then error("vmi.ring: gravity must be 'physical' or 'printed'", 2) end
  local o = models.ring { mass = t.mass or 2, eps = t.eps or 5, omega1 = t.omega1 or 2, omega2 = t.omega2 or 4000,
                          g = t.g or 9.81, g_sign = gr == "physical" and 1 or -1, r = t.r, h = t.h,
                          directions = t.directions or "unperturbed" }
  return M.shape.ring(o)
end

--- Angular momentum L = sum_i q_i x p_i of the ring state y (cdata row or Lua array, 0-based).
function M.ring_L(y, base)
  base = base or 0
  local L1, L2, L3 = 0, 0, 0
  for i = 0, 5 do
    local o = base + 3 * i
    local x, yy, z = y[o], y[o + 1], y[o + 2]
    local px, py, pz = y[o + 18], y[o + 19], y[o + 20]
    L1 = L1 + yy * pz - z * py
    L2 = L2 + z * px - x * pz
    L3 = L3 + x * py - yy * px
  end
  return L1, L2, L3
end

--- Harmonic oscillator of Sec. 5 (V = omega_s^2 q^2 / 2; nf = 1 adds W = omega_f^2 q_f^2 / 2).
function M.harmonic(t)
  local o = { kind = "harmonic", par = ffi.new("kz_vmi_harmonic"), model = ffi.new("kz_vmi_model") }
  o.par.nf, o.par.omega_s, o.par.omega_f = t.nf or 0, t.omega_s or 1, t.omega_f or 0
  kz.call("kz_vmi_harmonic_model", o.model, o.par, kz.report())
  o.ns, o.nf = 1, o.par.nf
  o.d = 2 * (o.ns + o.nf)
  return shape(o)
end

--- Kinetic, V and W energies of a state (cdata pointer).
local ebuf, erep -- reused by M.energy (called once per node of a run)
function M.energy(o, y)
  ebuf, erep = ebuf or kz.vec(3), erep or kz.report()
  kz.call("kz_vmi_energy", o.model, y, ebuf, erep)
  return ebuf[0], ebuf[1], ebuf[2]
end

--- The scenario keys of the FPU model (Sec. 6, after Hairer, Lubich & Wanner I.5.1).
function M.fpu_params()
  return {
    { "omega", 50, "", "FPU: frequency ω of the stiff springs, W = ω²/2 |q^f|² (q^f(0) = (1/ω, 0, ...))", positive = true,
      min = 1e-2, max = 1e5 },
    { "l", 3, "", "FPU: number of stiff springs (2l unit masses)", integer = true, min = 2, max = 20 },
  }
end

--- The scenario keys of the spring ring (Sec. 6, Fig. 6.2); its geometry and initial velocities are
-- the paper's.
function M.ring_params()
  return {
    { "mass", 2, "", "spring ring: mass of each of the six bodies", positive = true, min = 1e-3, max = 1e3 },
    { "eps", 5, "", "spring ring: stiffness ε of the quartic ring springs, (ε/4)|q_{i+1} − q_i|⁴", min = 0, max = 1e4 },
    { "omega1", 2, "", "spring ring: stiffness ω₁ of the springs tying the slow (odd) bodies to the origin (in V)", min = 0, max = 1e6 },
    { "omega2", 4000, "", "spring ring: stiffness ω₂ of the springs tying the fast (even) bodies to the origin (W)",
      positive = true, min = 1e-3, max = 1e7 },
    { "g", 9.81, "", "spring ring: gravitational acceleration along −e₃", min = 0, max = 1e3 },
    { "gravity", "physical", "", "sign of the gravity potential: physical, or as printed (an upward force)", choices = { "physical", "printed" } },
    { "directions", "unperturbed", "", "positions defining the initial velocity directions u₁₂, u₃₆", choices = { "unperturbed", "repositioned" } },
  }
end

--- A parameter list: the entries of every list given, in order.
function M.keys(...)
  local t = {}
  for _, l in ipairs { ... } do for _, e in ipairs(l) do t[#t + 1] = e end end
  return t
end

--- The model of a problem ("FPU" or "SR") with the values of the scenario keys in P (defaults where
-- P has none).
function M.model(problem, P)
  P = P or {}
  if problem == "FPU" then return M.fpu { l = P.l, omega = P.omega } end
  if problem == "SR" then
    return M.ring { mass = P.mass, eps = P.eps, omega1 = P.omega1, omega2 = P.omega2, g = P.g, gravity = P.gravity,
                    directions = P.directions }
  end
  error("vmi.model: unknown problem '" .. tostring(problem) .. "' (FPU, SR)", 2)
end

--- A short description of the model's parameters, for data comments and titles.
function M.describe(model)
  if model.kind == "fpu" then return string.format("FPU, l = %d, ω = %g", model.par.l, model.par.omega) end
  local P = model.par
  return string.format("spring ring, m = %g, ε = %g, ω₁ = %g, ω₂ = %g, g = %g (%s sign)", P.mass, P.eps, P.omega1,
                       P.omega2, P.g, P.g_sign == 1 and "physical" or "printed")
end

---------------------------------------------------------------------------------------------------
-- Runs
---------------------------------------------------------------------------------------------------

--- Number of macro steps to reach T: T/dT if it is a whole number, else ceil (notes 8.6: 200/0.3).
function M.steps(T, dT)
  local N = tonumber(C.kz_steps_in(T, dT))
  if N >= 1 then return N, true end
  return math.ceil(T / dT - 1e-9), false
end

-- Output buffers that runs with o.reuse share: kz_vmi_run writes every number of them, so they are
-- taken from malloc (not zeroed, unlike ffi.new) and grow by doubling, freed by the GC.
ffi.cdef [[
void *kz_vmi_lua_malloc(size_t n) __asm__("malloc");
void kz_vmi_lua_free(void *p) __asm__("free");
]]
local pool = {}
local function buffer(role, n, reuse)
  if not reuse then return kz.vec(n) end
  local b = pool[role]
  if not b or b.n < n then
    local m = math.max(n, b and 2 * b.n or 0)
    local raw = ffi.C.kz_vmi_lua_malloc(m * 8)
    if raw == nil then error("vmi: out of memory for a run buffer of " .. m .. " numbers", 3) end
    b = { n = m, buf = ffi.gc(ffi.cast("double *", raw), ffi.C.kz_vmi_lua_free) }
    pool[role] = b
  end
  return b.buf
end

--- Run N macro steps. o.{p, dT, N (or T), tol, max_iter, solver, predictor, micro (bool),
-- timing (bool), y0, reuse}. reuse = true: out and micro live in buffers the next run with reuse
-- overwrites (for callers that read a run before starting the next).
-- Returns a result table: out (cdata rows of d numbers, k = 0..N), micro (rows of 2 nf, j = 0..Np),
-- counts, timing {jac, solve, total, grad, predict} (seconds, enum kz_vmi_timing), N, d and a row
-- accessor row(k) (cdata pointer).
-- The initial state of a run: o.y0 (a cdata row is taken as it stands) or the model's, checked.
local function start(model, o, who)
  local d = model.d
  if type(o.y0) == "cdata" then
    local y0 = kz.vec(d)
    ffi.copy(y0, o.y0, d * 8)
    return y0
  end
  local size = string.format("the model has 2 (ns + nf) = %d", d)
  if o.y0 == nil and model.y0 == nil then error(who .. ": option 'y0' (the initial state) is missing", 3) end
  return kz.vec(d, O.vector(o.y0 or model.y0, d, who, "y0", size, 3))
end

function M.run(model, scheme, o)
  O.check(o, KEYS, "vmi.run")
  cap.require(model, "vmi", nil, "vmi.run")
  local P = M.params(scheme, o)
  local N = o.N or M.steps(o.T, o.dT)
  local d = model.d
  local y0 = start(model, o, "vmi.run")
  local out = buffer("out", (N + 1) * d, o.reuse)
  local micro = o.micro and buffer("micro", (N * o.p + 1) * 2 * model.nf, o.reuse) or nil
  local tim = o.timing and kz.vec(C.KZ_VMI_T_N) or nil
  local r = kz.report()
  local ok, err = pcall(kz.call, "kz_vmi_run", model.model, P, N, y0, out, N + 1, micro, micro and (N * o.p + 1) or 0, tim, r)
  if not ok then
    -- a Newton failure, or a divergence beyond a stability bound, is explained by the bound
    local param = r.param ~= nil and ffi.string(r.param) or ""
    local why = (param == "newton" or param == "y") and M.stability_note(model, scheme, P, y0, param == "y")
    local what = param == "newton" and "Newton did not converge" or "the solution became non-finite"
    error(why and string.format("vmi.run: %s at step %d (t = %.6g): %s", what, tonumber(r.fail_step), r.fail_time, why) or err, 2)
  end
  local res = { out = out, micro = micro, counts = kz.counts(r), N = N, d = d, p = o.p, dT = o.dT,
                y0 = y0 }
  if tim then
    res.timing = { jac = tim[C.KZ_VMI_T_JAC], solve = tim[C.KZ_VMI_T_SOLVE], total = tim[C.KZ_VMI_T_TOTAL],
                   grad = tim[C.KZ_VMI_T_GRAD], predict = tim[C.KZ_VMI_T_PREDICT] }
  end
  function res.row(k) return out + k * d end
  return res
end

--- Run up to N macro steps (o as for M.run) and keep what a failing run has done: returns the run
-- table with ok (false after a Newton failure or divergence), steps (the macro steps done; rows
-- 0..steps of out are valid), t_fail and the failure's message. Used where failing is a result
-- (the stability checks), not an error.
function M.run_until(model, scheme, o)
  cap.require(model, "vmi", nil, "vmi.run_until")
  local P = M.params(scheme, o)
  local N = o.N or M.steps(o.T, o.dT)
  local d = model.d
  local out = buffer("out", (N + 1) * d, o.reuse)
  local r = kz.report()
  local st = kz.status("kz_vmi_run", model.model, P, N, start(model, o, "vmi.run_until"), out, N + 1, nil, 0, nil, r)
  local res = { out = out, N = N, d = d, p = o.p, dT = o.dT, counts = kz.counts(r), ok = st == 0,
                steps = tonumber(r.macro_steps) }
  if st ~= 0 then
    res.t_fail = res.steps * o.dT
    res.message = string.format("%s (%s)", ffi.string(C.kz_strerror(st)), r.param ~= nil and ffi.string(r.param) or "?")
  end
  function res.row(k) return out + k * d end
  return res
end

--- Total energy H = K + V + W at the first n rows of a run (kz_vmi_energies): a Lua array.
function M.total_energy(model, out, n)
  local en = kz.vec(3 * n)
  kz.call("kz_vmi_energies", model.model, n, out, en, kz.report())
  local H = {}
  for k = 0, n - 1 do H[k + 1] = en[3 * k] + en[3 * k + 1] + en[3 * k + 2] end
  return H
end

--- The exact solution by classical RK4 (Hamiltonian equations (2.4)) on the grid t_i = i h,
-- i = 0..n, with `sub` RK4 steps per grid interval (one kz_trajectory call). Returns cdata
-- rows of d numbers.
function M.reference(model, h, n, sub, y0)
  local d = model.d
  local raw = ffi.C.kz_vmi_lua_malloc((n + 1) * d * 8) -- every number is written: no zeroing
  if raw == nil then error("vmi.reference: out of memory", 2) end
  local out = ffi.gc(ffi.cast("double *", raw), ffi.C.kz_vmi_lua_free)
  kz.call("kz_trajectory", kz.stepper("rk4"), model.sys, 0, h / sub, sub, n, kz.vec(d, y0 or model.y0), out, kz.report())
  return out
end

--- The paper's reference (Sec. 6.2): the single-rate VI (scheme with p = 1) with step h / sub,
-- kept on the grid t_i = i h, i = 0..n. One kz_vmi_run per chunk of grid intervals (the rows
-- between grid points are dropped), so memory stays bounded; the steps are those of one run.
function M.reference_vi(model, scheme, h, n, sub, tol, y0)
  local d = model.d
  local ref = kz.vec((n + 1) * d, y0 or model.y0)
  local chunk = math.max(1, math.floor(2e5 / sub)) -- grid intervals per kz_vmi_run
  local P = M.params(scheme, { p = 1, dT = h / sub, tol = tol })
  local buf = kz.vec((math.min(chunk, n) * sub + 1) * d)
  local r = kz.report()
  local i = 0
  while i < n do
    local m = math.min(chunk, n - i)
    kz.call("kz_vmi_run", model.model, P, m * sub, ref + i * d, buf, m * sub + 1, nil, 0, nil, r)
    for j = 1, m do ffi.copy(ref + (i + j) * d, buf + j * sub * d, d * 8) end
    i = i + m
  end
  return ref
end

---------------------------------------------------------------------------------------------------
-- Measurements
---------------------------------------------------------------------------------------------------

--- Errors (6.1)-(6.2) of a run against a reference on the grid of spacing href (every node time /
-- href must be an integer; nref = rows of ref, default: enough for the run). Returns {q_mac, p_mac,
-- q_mic, p_mic, qs, qf, ps, pf} with the Euclidean norm over the whole vector and the sup over
-- nodes; qs..pf split the macro errors into slow and fast parts (Figs. 6.13, 6.15). One C call
-- (kz_vmi_errors) over all the run's rows.
function M.errors(model, res, ref, href, nref)
  local e = kz.vec(C.KZ_VMI_E_N)
  nref = nref or math.floor(res.N * res.dT / href + 0.5) + 1
  kz.call("kz_vmi_errors", model.ns, model.nf, res.p, res.dT, res.N, res.out, res.micro, ref, nref, href, e,
          kz.report())
  return { q_mac = e[C.KZ_VMI_E_QMAC], p_mac = e[C.KZ_VMI_E_PMAC], q_mic = e[C.KZ_VMI_E_QMIC],
           p_mic = e[C.KZ_VMI_E_PMIC], qs = e[C.KZ_VMI_E_QS], qf = e[C.KZ_VMI_E_QF], ps = e[C.KZ_VMI_E_PS],
           pf = e[C.KZ_VMI_E_PF] }
end

--- The one-step propagation matrix (5.2) of the implemented scheme on the harmonic oscillator
-- (nf = 0): columns are the images of (1, 0) and (0, 1) (the map is linear). Returns a, b, c, d.
local prop = { models = {}, y = nil, r = nil } -- reused by M.propagation (bisections call it thousands of times)
function M.propagation(scheme, omega_s, dT, p)
  local ho = prop.models[omega_s]
  if not ho then ho = M.harmonic { omega_s = omega_s }; prop.models[omega_s] = ho end
  local P = M.params(scheme, { p = p, dT = dT, tol = 1e-13 })
  prop.y, prop.r = prop.y or kz.vec(2), prop.r or kz.report()
  local y, r = prop.y, prop.r
  local c = {}
  for j = 1, 2 do
    y[0], y[1] = j == 1 and 1 or 0, j == 2 and 1 or 0
    kz.call("kz_vmi_step", ho.model, P, 0, y, nil, nil, r)
    c[2 * j - 1], c[2 * j] = y[0], y[1]
  end
  return c[1], c[3], c[2], c[4]
end

--- The same for the fast part: one step of the implemented scheme on the harmonic oscillator with a
-- slow and a fast variable (V = omega_s^2 q_s^2 / 2, W = omega_f^2 q_f^2 / 2, uncoupled), restricted
-- to the fast pair (q_f, p_f): the 2x2 block a, b, c, d of the fast oscillator alone.
local fprop = { models = {} }
function M.propagation_fast(scheme, omega_f, dT, p, omega_s)
  local key = omega_f .. "/" .. (omega_s or 0)
  local ho = fprop.models[key]
  if not ho then ho = M.harmonic { nf = 1, omega_s = omega_s or 0, omega_f = omega_f }; fprop.models[key] = ho end
  local P = M.params(scheme, { p = p, dT = dT, tol = 1e-13 })
  fprop.y, fprop.r = fprop.y or kz.vec(4), fprop.r or kz.report()
  local y, r = fprop.y, fprop.r
  local c = {}
  for j = 1, 2 do -- y = (q_s, q_f, p_s, p_f): unit q_f, then unit p_f
    y[0], y[1], y[2], y[3] = 0, j == 1 and 1 or 0, 0, j == 2 and 1 or 0
    kz.call("kz_vmi_step", ho.model, P, 0, y, nil, nil, r)
    c[2 * j - 1], c[2 * j] = y[1], y[3]
  end
  return c[1], c[3], c[2], c[4]
end

--- The stability bound of a one-parameter family: the smallest x in (0, xmax] with
-- unstable(x) (scanned in steps of `step`, then bisected 60 times), or math.huge.
function M.first_unstable(unstable, step, xmax)
  local lo, hi = 0, nil
  local x = step
  while x <= xmax + 1e-12 do
    if unstable(x) then hi = x break end
    lo = x
    x = x + step
  end
  if not hi then return math.huge end
  for _ = 1, 60 do
    local m = 0.5 * (lo + hi)
    if unstable(m) then hi = m else lo = m end
  end
  return 0.5 * (lo + hi)
end

--- Spectral radius of a real 2x2 matrix [[a, b], [c, d]].
function M.spectral_radius(a, b, c, d)
  local tr, det = a + d, a * d - b * c
  local disc = tr * tr / 4 - det
  if disc >= 0 then
    local s = math.sqrt(disc)
    return math.max(math.abs(tr / 2 + s), math.abs(tr / 2 - s))
  end
  return math.sqrt(math.abs(det)) -- complex pair: |lambda|^2 = det
end

--- Stability bounds of Lemma 5.1 on (omega_s dT)^2.
function M.bound_trap(p) return 12 * p * p / (p * p + 2) end
function M.bound_mid(p) if p == 1 then return math.huge end return 12 * p * p / (p * p - 1) end


---------------------------------------------------------------------------------------------------
-- What the drivers share
---------------------------------------------------------------------------------------------------

-- Every stride-th row (all rows when stride is nil).
local function every(rows, stride)
  if not stride or stride == 1 then return rows end
  local kept = {}
  for i = 1, #rows, stride do kept[#kept + 1] = rows[i] end
  return kept
end

-- cells(f): f applied to every summary row (one per p), joined by " / ".
local function cells_of(summary)
  return function(f)
    local t = {}
    for i, s in ipairs(summary) do t[i] = f(s) end
    return table.concat(t, " / ")
  end
end
M.cells_of = cells_of

-- "p = 1 / 5 / 10"
local function plist(ps) return "p = " .. table.concat(ps, " / ") .. ": " end
M.plist = plist

--- min, max and mean of column col over t in [a, b].
function M.stats(rows, col, a, b)
  local lo, hi, s, n = math.huge, -math.huge, 0, 0
  for _, r in ipairs(rows) do
    if r.t >= a - 1e-9 and r.t <= b + 1e-9 then
      lo, hi, s, n = math.min(lo, r[col]), math.max(hi, r[col]), s + r[col], n + 1
    end
  end
  return lo, hi, s / n
end

--- The largest |col - col(t = 0)| / |col(t = 0)| over t <= t_half and over t > t_half (an
-- invariant's error in the first and the second half of a run).
function M.drift_halves(rows, col, t_half)
  local c0, a, b = rows[1][col], 0, 0
  for _, r in ipairs(rows) do
    local e = math.abs(r[col] - c0) / math.abs(c0)
    if r.t <= t_half then a = math.max(a, e) else b = math.max(b, e) end
  end
  return a, b
end

--- Windows [t0, t0 + w) of column col: {t0, mean, min, max} (the last one may be partial).
function M.windows(rows, col, w)
  local out = {}
  for _, r in ipairs(rows) do
    local i = math.floor(r.t / w + 1e-9) + 1
    local o = out[i] or { t0 = (i - 1) * w, s = 0, n = 0, min = math.huge, max = -math.huge }
    o.s, o.n, o.min, o.max = o.s + r[col], o.n + 1, math.min(o.min, r[col]), math.max(o.max, r[col])
    out[i] = o
  end
  local t = {}
  for i = 1, table.maxn(out) do
    local o = out[i]
    if o then t[#t + 1] = { t0 = o.t0, mean = o.s / o.n, min = o.min, max = o.max } end
  end
  return t
end

--- Windowed maxima of column col over [t0, t0 + w), t0 = 0, w, 2w, ...: list of {t0, max}.
function M.window_max(rows, col, w)
  local out = {}
  for _, r in ipairs(rows) do
    local i = math.floor(r.t / w + 1e-9) + 1
    out[i] = out[i] or { t0 = (i - 1) * w, max = -math.huge }
    out[i].max = math.max(out[i].max, r[col])
  end
  return out
end

--- "The energy in the second spring returns to zero" (notes 8.8): after the first window whose
-- max of col exceeds `peak`, the window with the smallest max. Returns its start and value
-- (the last window, which may be partial, is ignored).
function M.envelope_return(rows, col, w, peak)
  local win = M.window_max(rows, col, w)
  local first
  for i, e in ipairs(win) do if e.max > peak then first = i break end end
  if not first then return nil end
  local best
  for i = first + 1, #win - 1 do
    if not best or win[i].max < best.max then best = win[i] end
  end
  return best and best.t0, best and best.max
end

--- First time at which column col exceeds level.
function M.first_above(rows, col, level)
  for _, r in ipairs(rows) do if r[col] > level then return r.t end end
  return nil
end

---------------------------------------------------------------------------------------------------
-- FPU energy exchange (Sec. 6.1, Figs. 6.3-6.5)
---------------------------------------------------------------------------------------------------

--- The stiff-spring energies and the total energy H = K + V + W at every macro node of a run of
-- the FPU `model`: rows {t, I1..Il, I, H}. o: p, dT, T, tol. Returns rows and the run (its out
-- buffer is reused by the next such run).
function M.fpu_energies(model, scheme, o)
  local res = M.run(model, scheme, { p = o.p, dT = o.dT, T = o.T, tol = o.tol or 1e-9, reuse = true })
  local H = M.total_energy(model, res.out, res.N + 1)
  local rows = {}
  for k = 0, res.N do
    local I, s = M.fpu_I(model, res.row(k))
    local r = { t = k * o.dT, I = s, H = H[k + 1] }
    for j, v in ipairs(I) do r["I" .. j] = v end
    rows[k + 1] = r
  end
  return rows, res
end

-- What fpu_exchange measures on the stiff-spring energies besides the range of I.
local fpu_measures = {
  exchange = { -- Fig. 6.3: no drift of I, the exchange speeding up with p
    columns = { "I_mean_late", "I1_mean_end", "t_I2_first" },
    comments = { "I over all macro nodes; I_mean_late over [0.75 T, T]; I1_mean_end over [0.95 T, T];",
                 "t_I2_first: first time I2 > 0.3 (-1: never)" },
    measure = function(s, rows, P)
      local _, _, mean_late = M.stats(rows, "I", 0.75 * P.T, P.T)
      local _, _, I1_end = M.stats(rows, "I1", 0.95 * P.T, P.T)
      s.I_mean_late, s.I1_mean_end, s.t_I2_first = mean_late, I1_end, M.first_above(rows, "I2", 0.3) or -1
    end,
  },
  ["return"] = { -- Figs. 6.4, 6.5: when I2 returns to zero (on its envelope over windows of P.window)
    columns = { "t_I2_return", "E2_return" },
    comments = { "t_I2_return: start of the window (length `window`) with the smallest max of I2 after the first",
                 "window whose max exceeds 0.3 (-1: none); E2_return: that max" },
    measure = function(s, rows, P)
      local t_ret, E_ret = M.envelope_return(rows, "I2", P.window, 0.3)
      s.t_I2_return, s.E2_return = t_ret or -1, E_ret or -1
    end,
  },
}

--- FPU energy exchange (Figs. 6.3-6.5). For each p in P.p: the stiff-spring energies and the total
-- energy of P.scheme (P.dT, P.T, P.tol; the model from the keys P.omega, P.l) ->
-- data/<id>-p<p>.tsv (every P.stride-th node when P has a stride). Per p: N, the range and the mean
-- of I, the Newton total, the quantities of `measure` ("exchange": mean of I over [0.75 T, T], of
-- I1 over [0.95 T, T], first time I2 > 0.3; "return": the return of I2 to zero on its envelope),
-- H(0), the largest |H - H(0)|/H(0) over each half of the run and the largest I2, I3 ->
-- tables/<id>.tsv. The claims -> tables/<id>-claims.{tsv,md}: the three Sec. 6.1 states for all
-- three figures (I oscillates around I(0) = 1; no numerical dissipation; the energy moves on to the
-- second and third springs), then specific(cl, summary, cells, P) adds the figure's own (cells(f):
-- f of every summary row, " / "). Draws figures/<id>.svg from the data. Returns the summary.
function M.fpu_exchange(sc, P, measure, specific)
  local m = fpu_measures[measure]
  if not m then error("vmi.fpu_exchange: measure must be 'exchange' or 'return' (got " .. tostring(measure) .. ")", 2) end
  M.check_nodes(sc, math.ceil(P.T / P.dT), M.max_rows, "parameters 'T', 'dT'", "macro nodes T/dT")
  local model = M.model("FPU", P)
  local l = model.par.l
  local cols = { "t" }
  for j = 1, l do cols[#cols + 1] = "I" .. j end
  cols[#cols + 1], cols[#cols + 2] = "I", "H"
  local far = {} -- the springs the energy moves on to (2 and 3)
  for j = 2, math.min(3, l) do far[#far + 1] = j end
  local summary, tmax = {}, 0
  sc:progress_start(#P.p)
  for _, p in ipairs(P.p) do
    local rows, res = M.fpu_energies(model, P.scheme, { p = p, dT = P.dT, T = P.T, tol = P.tol })
    sc:write_tsv(string.format("data/%s-p%d.tsv", sc.id, p), cols, every(rows, P.stride),
                 { string.format("%s, %s, dT = %g, p = %d, %d macro steps (t_N = %.17g), Newton tol %g",
                                 M.describe(model), P.scheme, P.dT, p, res.N, res.N * P.dT, P.tol) ..
                   (P.stride and string.format(", every %d-th node", P.stride) or ""),
                   "I_j = ((p_j^f)^2 + omega^2 (q_j^f)^2)/2 (HLW I.5.1), I = sum I_j, H = K + V + W (total energy)" })
    local lo, hi, mean = M.stats(rows, "I", 0, math.huge)
    local tN = res.N * P.dT
    local _, _, q1 = M.stats(rows, "I", 0, tN / 4)
    local _, _, q4 = M.stats(rows, "I", 3 * tN / 4, tN)
    local s = { p = p, N = res.N, I_min = lo, I_max = hi, I_spread = hi - lo, newton = res.counts.newton_iters,
                I_mean = mean, I_mean_q1 = q1, I_mean_q4 = q4, H0 = rows[1].H }
    m.measure(s, rows, P)
    s.H_err_first, s.H_err_second = M.drift_halves(rows, "H", res.N * P.dT / 2)
    for _, j in ipairs(far) do
      local _, top = M.stats(rows, "I" .. j, 0, math.huge)
      s["I" .. j .. "_max"] = top
    end
    summary[#summary + 1] = s
    tmax = math.max(tmax, res.N * P.dT)
    sc:progress(string.format("p = %d", p))
  end
  local columns = { "p", "N", "I_min", "I_max", "I_spread" }
  for _, c in ipairs(m.columns) do columns[#columns + 1] = c end
  for _, c in ipairs { "newton", "I_mean", "I_mean_q1", "I_mean_q4", "H0", "H_err_first", "H_err_second" } do columns[#columns + 1] = c end
  for _, j in ipairs(far) do columns[#columns + 1] = "I" .. j .. "_max" end
  local comments = {}
  for i, c in ipairs(m.comments) do comments[i] = c end
  comments[#comments + 1] = "I_mean over all macro nodes, I_mean_q1/q4 over the first/last quarter of [0, t_N]; H_err_first/second:"
  comments[#comments + 1] = "max |H - H0|/H0 over the first and the second half of [0, t_N];"
  comments[#comments + 1] = "Ij_max: largest energy of spring j over the run"
  sc:write_tsv("tables/" .. sc.id .. ".tsv", columns, summary, comments)

  -- What Sec. 6.1 says of all three figures, then the figure's own claims.
  local cells = cells_of(summary)
  local cl = E.claims(sc)
  local around, steady, nodrift = true, true, true
  for _, s in ipairs(summary) do
    around = around and math.abs(s.I_mean - 1) <= 0.02
    steady = steady and math.abs(s.I_mean_q4 - s.I_mean_q1) <= 0.02
    nodrift = nodrift and s.H_err_second <= 1.5 * s.H_err_first
  end
  cl:add("I_around_1", "the sum I of the stiff-spring energies is an adiabatic invariant, oscillating around I(0) = 1",
         "I(0) = 1", plist(P.p) .. cells(function(s) return string.format("mean %.4f in [%.3f, %.3f] (quarters %.4f, %.4f)",
           s.I_mean, s.I_min, s.I_max, s.I_mean_q1, s.I_mean_q4) end) ..
         " (accept: mean of I over [0, t_N] within 0.02 of 1 at every p; partly: not, but the means over the first and " ..
         "the last quarter within 0.02 of each other, an invariant around another value)", around or (steady and "partly"))
  cl:add("no_dissipation", "good energy behaviour, no numerical dissipation (total energy H)", "no dissipation",
         plist(P.p) .. cells(function(s) return S.sci(s.H_err_first, 2) .. ", " .. S.sci(s.H_err_second, 2) end) ..
         string.format(" (max abs(H − H₀)/H₀ over the first, second half; H₀ = %.4f; accept: second ≤ 1.5 × first at every p)",
                       summary[1].H0), nodrift)
  if #far > 0 then
    local last, moved = summary[#summary], true
    for _, j in ipairs(far) do moved = moved and last["I" .. j .. "_max"] > 0.3 end
    local names = {}
    for i, j in ipairs(far) do names[i] = "I" .. j end
    cl:add("exchange", "the energy of the first stiff spring moves on to the second and the third",
           "visible", plist(P.p) .. cells(function(s)
             local t = {}
             for i, j in ipairs(far) do t[i] = string.format("%.3f", s["I" .. j .. "_max"]) end
             return table.concat(t, ", ")
           end) .. string.format(" (largest %s over [0, t_N]; accept: each > 0.3 at the largest p, %d)",
                                 table.concat(names, ", "), last.p), moved)
  end
  specific(cl, summary, cells, P)
  cl:write(nil, sc.id .. "-claims")
  local ref = kz.root .. "/paper/reference/" .. sc.id .. ".tsv" -- the printed return times of I2 (Figs. 6.4, 6.5)
  local fh = io.open(ref)
  if fh then fh:close() else ref = "" end
  sc:figure(sc.id, { id = sc.id, ps = P.p, springs = l, tmax = tmax, ref = ref,
                     title = string.format("%s, %s, ΔT = %g", M.describe(model), M.scheme_names[P.scheme] or P.scheme, P.dT) })
  return summary
end

--- The linear stability bound on dT of `scheme` with p micro steps for a fast harmonic oscillator
-- of frequency omega (propagation_fast; unstable when the spectral radius exceeds 1 + 1e-9),
-- scanned up to dT = 20/omega in steps of 0.01/omega.
function M.fast_bound(scheme, omega, p)
  return M.first_unstable(function(x)
    return M.spectral_radius(M.propagation_fast(scheme, omega, x / omega, p)) > 1 + 1e-9
  end, 0.01, 20) / omega
end

--- The largest eigenvalue of the symmetric n x n matrix A (row-major, 0-based; Jacobi's cyclic
-- method on a copy).
function M.max_eigenvalue(A, n)
  local a = {}
  for i = 0, n * n - 1 do a[i] = A[i] end
  for _ = 1, 50 do
    local off = 0
    for i = 0, n - 1 do for j = i + 1, n - 1 do off = off + a[i * n + j] ^ 2 end end
    if off < 1e-30 then break end
    for pp = 0, n - 2 do
      for q = pp + 1, n - 1 do
        local apq = a[pp * n + q]
        if apq ~= 0 then
          local th = (a[q * n + q] - a[pp * n + pp]) / (2 * apq)
          local t = (th >= 0 and 1 or -1) / (math.abs(th) + math.sqrt(th * th + 1))
          local c = 1 / math.sqrt(t * t + 1)
          local sn = t * c
          for k = 0, n - 1 do
            local akp, akq = a[k * n + pp], a[k * n + q]
            a[k * n + pp], a[k * n + q] = c * akp - sn * akq, sn * akp + c * akq
          end
          for k = 0, n - 1 do
            local apk, aqk = a[pp * n + k], a[q * n + k]
            a[pp * n + k], a[q * n + k] = c * apk - sn * aqk, sn * apk + c * aqk
          end
        end
      end
    end
  end
  local mx = -math.huge
  for i = 0, n - 1 do mx = math.max(mx, a[i * n + i]) end
  return mx
end

-- The largest frequency sqrt(lambda_max(M^-1/2 Hess M^-1/2)) of a potential's Hessian (n x n at
-- the positions, masses mass[i]); 0 when the potential has no positive curvature there.
local function frequency(hess, n, mass)
  local A = {}
  for i = 0, n - 1 do
    for j = 0, n - 1 do A[i * n + j] = hess[i * n + j] / math.sqrt(mass(i) * mass(j)) end
  end
  local l = M.max_eigenvalue(A, n)
  return l > 0 and math.sqrt(l) or 0
end

-- The linear stability bound of a scheme with p micro steps, as omega dt (fast: the micro step
-- dt = dT/p on a harmonic W) or omega dT (slow: the macro step on a harmonic V), scanned to 20 in
-- steps of 0.01 then bisected (math.huge: none found); cached per scheme and p.
local bounds = {}
function M.stability_bound(scheme, p, which)
  local key = string.format("%s/%d/%s", type(scheme) == "string" and scheme or "?", p, which)
  if bounds[key] == nil then
    if which == "fast" then
      bounds[key] = M.first_unstable(function(x)
        return M.spectral_radius(M.propagation_fast(scheme, 1, x * p, p)) > 1 + 1e-9
      end, 0.01, 20)
    else
      bounds[key] = M.first_unstable(function(x)
        return M.spectral_radius(M.propagation(scheme, 1, x, p)) > 1 + 1e-9
      end, 0.01, 20)
    end
  end
  return bounds[key]
end

--- Why Newton failed on a run of `scheme` (params P) from y0: the linear stability bound the step
-- exceeds, for the largest frequency of W (omega dT/p against the fast bound) and of V in the slow
-- positions (omega dT against the slow bound) at y0 -- or, when both are within their bounds, a
-- sentence saying so and what to try (nil instead when only_beyond). (issue 18, item 7)
function M.stability_note(model, scheme, P, y0, only_beyond)
  local vm = model.model
  local ns, nf, p, dT = vm.ns, vm.nf, P.p, P.dT
  if type(scheme) ~= "string" then return nil end
  local function mass(arr, uniform) return function(i) return arr ~= nil and arr[i] or uniform end end
  local parts = {}
  if vm.W ~= nil and nf > 0 then
    local H = kz.vec(nf * nf)
    if vm.W(vm.par, y0 + ns, nil, nil, H) == 0 then
      local w = frequency(H, nf, mass(vm.mf, vm.mass_f))
      local b = M.stability_bound(scheme, p, "fast")
      local x = w * dT / p
      if x >= b then
        return string.format("omega dT/p = %.4g is beyond the linear stability bound %.4g of scheme %s for the fast potential W " ..
          "(omega = %.6g, the largest frequency of W at the initial state): lower dT or raise p so that omega dT/p < %.4g",
          x, b, scheme, w, b)
      end
      parts[#parts + 1] = string.format("fast: omega dT/p = %.4g, bound %s", x, b == math.huge and "none" or string.format("%.4g", b))
    end
  end
  if ns > 0 then
    local n = ns + nf
    local H = kz.vec(n * n)
    if vm.V(vm.par, y0, y0 + ns, nil, nil, nil, H) == 0 then
      local Hs = kz.vec(ns * ns)
      for i = 0, ns - 1 do for j = 0, ns - 1 do Hs[i * ns + j] = H[i * n + j] end end
      local w = frequency(Hs, ns, mass(vm.ms, vm.mass_s))
      local b = M.stability_bound(scheme, p, "slow")
      local x = w * dT
      if x >= b then
        return string.format("omega dT = %.4g is beyond the linear stability bound %.4g of scheme %s for the slow potential V " ..
          "(omega = %.6g, the largest frequency of V in the slow positions at the initial state): lower dT below %.4g",
          x, b, scheme, w, b / w)
      end
      parts[#parts + 1] = string.format("slow: omega dT = %.4g, bound %s", x, b == math.huge and "none" or string.format("%.4g", b))
    end
  end
  kz.callback_error = nil
  if only_beyond then return nil end
  return string.format("the step is within the linear stability bounds at the initial state (%s): the nonlinear " ..
                       "iteration failed; lower dT, raise max_iter (%d) or tol (%g), or try predictor = \"drift\"",
                       table.concat(parts, "; "), P.max_iter, P.tol)
end

---------------------------------------------------------------------------------------------------
-- Spring ring (Sec. 6.1, Figs. 6.6-6.9)
---------------------------------------------------------------------------------------------------

--- Spring-ring energies and angular momentum at every macro node of a run of the ring `model`:
-- rows {t, kinetic, potential, total, relerr} and {t, L1, L2, L3, dL3} (dL3 = L3(t) - L3(0)).
-- o: p, dT, T, tol. Returns both and the run (its out buffer is reused by the next such run).
function M.ring_energies(model, scheme, o)
  local res = M.run(model, scheme, { p = o.p, dT = o.dT, T = o.T, tol = o.tol or 1e-8, reuse = true })
  local rows, Lrows, E0 = {}, {}, nil
  local en = kz.vec(3 * (res.N + 1))
  kz.call("kz_vmi_energies", model.model, res.N + 1, res.out, en, kz.report())
  for k = 0, res.N do
    local y = res.row(k)
    local K, V, W = en[3 * k], en[3 * k + 1], en[3 * k + 2]
    local E = K + V + W
    E0 = E0 or E
    rows[k + 1] = { t = k * o.dT, kinetic = K, potential = V + W, total = E, relerr = (E - E0) / E0 }
    local L1, L2, L3 = M.ring_L(y)
    Lrows[k + 1] = { t = k * o.dT, L1 = L1, L2 = L2, L3 = L3, dL3 = L3 - (k == 0 and L3 or Lrows[1].L3) }
  end
  return rows, Lrows, res
end

--- The positions of the slow bodies 1, 3, 5 (x, y, z each) at every stride-th macro node of a ring
-- run: rows {t, x1, y1, z1, x3, ..., z5}.
M.ring_position_columns = { "t", "x1", "y1", "z1", "x3", "y3", "z3", "x5", "y5", "z5" }
function M.ring_positions(res, stride)
  local rows = {}
  for k = 0, res.N, stride do
    local y, r = res.row(k), { t = k * res.dT }
    for j = 2, #M.ring_position_columns do r[M.ring_position_columns[j]] = y[j - 2] end
    rows[#rows + 1] = r
  end
  return rows
end

--- The largest |relerr| of ring_energies rows over t <= t_half and over t > t_half (the energy
-- error in the first and the second half of a run).
function M.relerr_halves(rows, t_half)
  local a, b = 0, 0
  for _, r in ipairs(rows) do
    if r.t <= t_half then a = math.max(a, math.abs(r.relerr)) else b = math.max(b, math.abs(r.relerr)) end
  end
  return a, b
end

--- Angular momentum of ring_energies rows {t, L1, L2, L3}: max_t |L3(t) - L3(0)| and the ranges
-- (max - min over t) of L1 and L2.
function M.L_drift(L)
  local d, r1, r2 = 0, { math.huge, -math.huge }, { math.huge, -math.huge }
  for _, r in ipairs(L) do
    d = math.max(d, math.abs(r.L3 - L[1].L3))
    r1 = { math.min(r1[1], r.L1), math.max(r1[2], r.L1) }
    r2 = { math.min(r2[1], r.L2), math.max(r2[2], r.L2) }
  end
  return d, r1[2] - r1[1], r2[2] - r2[1]
end

--- The keys of the spring-ring energy scenarios (Figs. 6.6-6.8), scheme as given: ΔT = 0.01,
-- p ∈ {1, 5, 10}, t_N = 50, Newton tolerance 1e-8 (Sec. 6.1).
function M.spring_ring_params(scheme)
  return M.keys({
    M.scheme_param(scheme),
    { "dT", 0.01, "", "macro step", positive = true, max = 1 },
    { "p", { 1, 5, 10 }, "", "micro steps per macro step (list; one column of panels each)", integer = true, min = 1, max = 10000 },
    { "T", 50, "", "final time t_N", positive = true, max = 1e4 },
    { "tol", 1e-8, "", "Newton tolerance (max-norm residual, momentum units)", positive = true, max = 1 },
    { "stride", 2, "", "write every stride-th macro node of the energies", integer = true, min = 1, max = 1e6 },
    { "pos_stride", 20, "", "write the slow bodies' positions at every pos_stride-th macro node", integer = true, min = 1, max = 1e6 },
    { "window", 1, "", "window length of the energy-error means (drift panel)", positive = true, max = 1e4 },
  }, M.ring_params())
end

--- The work estimate of a ring or FPU scenario: gradient evaluations of a run, about
-- 2 p (iterations + 1) per macro step with two iterations, summed over p.
function M.work(P, steps_of)
  local n = 0
  for _, p in ipairs(P.p) do n = n + 6 * p * steps_of(P.T, P.dT) end
  return n, "force evaluations"
end

--- Spring-ring energy (Figs. 6.6-6.8). For each p in P.p: the energies of P.scheme (P.dT, P.T,
-- P.tol; the model from the ring keys) -> data/<id>-p<p>.tsv (every P.stride-th node), the slow
-- bodies' positions -> data/<id>-p<p>-positions.tsv (every P.pos_stride-th node), the relative
-- energy error's mean and extremes over windows of P.window -> data/<id>-drift.tsv; E0, K0, the max
-- relative energy error over the first and the second half of [0, T] and the Newton total ->
-- tables/<id>.tsv; the claims of Sec. 6.1 (bounded without drift, amplitude decreasing with p, for
-- MM several orders of magnitude below E) -> tables/<id>-claims.{tsv,md}. compare (optional list
-- of schemes): also run them at each p and check that the max error grows along compare...,
-- P.scheme (Fig. 6.8: MM < TM < TT). Draws figures/<id>.svg.
function M.spring_ring_energy(sc, P, compare)
  M.check_nodes(sc, math.ceil(P.T / P.dT), M.max_rows, "parameters 'T', 'dT'", "macro nodes T/dT")
  local model = M.model("SR", P)
  local summary, drift = {}, {}
  sc:progress_start(#P.p)
  for _, p in ipairs(P.p) do
    local rows, _, res = M.ring_energies(model, P.scheme, { p = p, dT = P.dT, T = P.T, tol = P.tol })
    local head = string.format("%s, %s, dT = %g, p = %d, Newton tol %g", M.describe(model), P.scheme, P.dT, p, P.tol)
    sc:write_tsv(string.format("data/%s-p%d.tsv", sc.id, p), { "t", "kinetic", "potential", "total", "relerr" },
                 every(rows, P.stride), { head .. string.format(", every %d-th node", P.stride) })
    sc:write_tsv(string.format("data/%s-p%d-positions.tsv", sc.id, p), M.ring_position_columns,
                 M.ring_positions(res, P.pos_stride),
                 { head .. string.format(", every %d-th node: positions of the slow bodies 1, 3, 5", P.pos_stride) })
    for _, w in ipairs(M.windows(rows, "relerr", P.window)) do
      drift[#drift + 1] = { p = p, t0 = w.t0, mean = w.mean, min = w.min, max = w.max }
    end
    local a, b = M.relerr_halves(rows, P.T / 2)
    summary[#summary + 1] = { p = p, E0 = rows[1].total, K0 = rows[1].kinetic, relerr_first = a,
                              relerr_second = b, newton = res.counts.newton_iters }
    sc:progress(string.format("p = %d", p))
  end
  sc:write_tsv("data/" .. sc.id .. "-drift.tsv", { "p", "t0", "mean", "min", "max" }, drift,
               { string.format("(E - E0)/E0 over windows [t0, t0 + %g): mean, min, max", P.window) })
  sc:write_tsv("tables/" .. sc.id .. ".tsv", { "p", "E0", "K0", "relerr_first", "relerr_second", "newton" },
               summary, { "max |E - E0|/|E0| over the first and the second half of [0, T]" })

  local cells = cells_of(summary)
  local cl = E.claims(sc)
  local nodrift, decreasing = true, true
  for i, s in ipairs(summary) do
    nodrift = nodrift and s.relerr_second <= 1.5 * s.relerr_first
    if i > 1 then decreasing = decreasing and s.relerr_first < summary[i - 1].relerr_first end
  end
  cl:add("no_drift", "the energy error oscillates around a constant value for the whole run: no energy gained or lost",
         "no drift", plist(P.p) .. cells(function(s) return S.sci(s.relerr_first) .. ", " .. S.sci(s.relerr_second) end) ..
         " (max abs(E − E₀)/E₀ over the first, second half; accept: second ≤ 1.5 × first at every p)", nodrift)
  if P.scheme == "MM" then
    local small = true
    for _, s in ipairs(summary) do small = small and math.max(s.relerr_first, s.relerr_second) < 1e-2 end
    cl:add("small_oscillations", "the oscillations of the total energy are several orders of magnitude smaller than E",
           "several orders", plist(P.p) .. cells(function(s) return S.sci(math.max(s.relerr_first, s.relerr_second)) end) ..
           " (max abs(E − E₀)/E₀; accept < 10⁻² at every p)", small)
  end
  cl:add("amplitude_decreases", "the amplitude of the energy oscillations decreases as p grows (smaller Δt)",
         "decreases", plist(P.p) .. cells(function(s) return S.sci(s.relerr_first) end) ..
         " (max abs(E − E₀)/E₀ over the first half; accept: strictly decreasing in p)", M.one_p(P) or decreasing)
  if compare then
    local schemes = {}
    for j, sch in ipairs(compare) do schemes[j] = sch end
    schemes[#schemes + 1] = P.scheme
    local order_cells, ordered = {}, true
    for i, s in ipairs(summary) do
      local e, f = {}, {}
      for j, sch in ipairs(compare) do
        local rows = M.ring_energies(model, sch, { p = s.p, dT = P.dT, T = P.T, tol = P.tol })
        e[j] = 0
        for _, r in ipairs(rows) do e[j] = math.max(e[j], math.abs(r.relerr)) end
      end
      e[#schemes] = math.max(s.relerr_first, s.relerr_second)
      for j = 1, #e do
        if j > 1 then ordered = ordered and e[j - 1] < e[j] end
        f[j] = S.sci(e[j], 2)
      end
      order_cells[i] = string.format("p = %d: %s", s.p, table.concat(f, " / "))
    end
    cl:add("ordering", "the energy error grows from Fig. 6.6 to 6.8: " .. table.concat(schemes, " < ") .. " at each p",
           table.concat(schemes, " < "), table.concat(order_cells, "; ") .. " (max abs(E − E₀)/E₀, " ..
           table.concat(schemes, " / ") .. ")", ordered)
  end
  cl:write(nil, sc.id .. "-claims")
  sc:figure(sc.id, { id = sc.id, ps = P.p, tmax = P.T, window = P.window,
                     title = string.format("%s, %s, ΔT = %g", M.describe(model), M.scheme_names[P.scheme] or P.scheme, P.dT) })
  return summary
end

--- Refuse, before any computation, a run that would keep more than `limit` nodes (its rows are kept
-- in memory: the states in C buffers, the measured rows as Lua tables): n nodes of `what`, set by
-- `keys` (text naming the parameters).
function M.check_nodes(sc, n, limit, keys, what)
  if n > limit then
    sc:fail(string.format("%s: %.3g %s would be kept in memory (at most %.3g): reduce them", keys, n, what, limit))
  end
end

--- The node limits of the scenarios: 2e6 macro nodes where every node becomes a Lua row (energies,
-- angular momentum), 1e7 stored states (about 1 GB for the spring ring) elsewhere.
M.max_rows, M.max_states = 2e6, 1e7

--- Gradient evaluations of runs with every p of ps and every dT of dTs to T: about 6 per micro
-- step (two potentials, about two Newton iterations), the `work` estimate of the scenarios.
function M.work_runs(ps, T, dTs)
  local n = 0
  for _, p in ipairs(ps) do
    for _, dT in ipairs(type(dTs) == "table" and dTs or { dTs }) do n = n + 6 * p * math.ceil(T / dT) end
  end
  return n
end

---------------------------------------------------------------------------------------------------
-- Convergence (Sec. 6.2, Figs. 6.10-6.17, Table 2)
---------------------------------------------------------------------------------------------------

--- Convergence study (Sec. 6.2, (6.1)-(6.2)) of `model` (or a problem name, "FPU" or "SR", built
-- with the keys in o): for each p and dT, run to T and measure the errors against a reference on
-- the grid href. ref = "rk4" (RK4 with `sub` steps per grid interval) or "vi" (the paper's choice:
-- the same scheme with p = 1 and step href/sub). Returns rows {p, dT, q_mac, p_mac, q_mic, p_mic,
-- qs, qf, ps, pf, newton}.
function M.convergence(model, scheme, o)
  if type(model) == "string" then model = M.model(model, o) end
  local n = math.floor(o.T / o.href + 0.5)
  local ref
  if o.ref == "vi" then
    ref = M.reference_vi(model, scheme, o.href, n, o.sub, o.tol)
  else
    ref = M.reference(model, o.href, n, o.sub)
  end
  local rows = {}
  for _, p in ipairs(o.p) do
    for _, dT in ipairs(o.dT) do
      local res = M.run(model, scheme, { p = p, dT = dT, T = o.T, tol = o.tol, micro = true, reuse = true })
      local e = M.errors(model, res, ref, o.href, n + 1)
      e.p, e.dT, e.newton = p, dT, res.counts.newton_iters
      rows[#rows + 1] = e
      if o.progress then o.progress() end
    end
  end
  return rows
end

-- The rows of one p, from the largest dT to the smallest.
local function rows_of(rows, p)
  local sel = {}
  for _, r in ipairs(rows) do if r.p == p then sel[#sel + 1] = r end end
  table.sort(sel, function(a, b) return a.dT > b.dT end)
  return sel
end

--- Fitted order of column col for one p over the `count` smallest dT (which = "smallest", the
-- default) or the `count` largest (which = "largest").
function M.fit_order(rows, p, col, count, which)
  which = which or "smallest"
  if which ~= "smallest" and which ~= "largest" then
    error("vmi.fit_order: which must be 'smallest' or 'largest' (got " .. tostring(which) .. ")", 2)
  end
  local sel = rows_of(rows, p)
  local from, to = math.max(1, #sel - count + 1), #sel
  if which == "largest" then from, to = 1, math.min(count, #sel) end
  local xs, ys = {}, {}
  for i = from, to do xs[#xs + 1] = sel[i].dT; ys[#ys + 1] = sel[i][col] end
  return E.slope(xs, ys)
end

--- The local slopes of column col for one p, between consecutive dT from the largest to the
-- smallest (experiment.local_slopes), and the dT (largest first).
function M.local_slopes(rows, p, col)
  local xs, ys = {}, {}
  for i, r in ipairs(rows_of(rows, p)) do xs[i], ys[i] = r.dT, r[col] end
  return E.local_slopes(xs, ys), xs
end

M.error_columns = { "q_mac", "p_mac", "q_mic", "p_mic", "qs", "qf", "ps", "pf" }

--- Tolerances of the convergence claims (slopes): a fitted order within `order` of the claimed
-- integer (the correct code is within 0.05 of it at every p of Figs. 6.10-6.17); a transition
-- "from a to b": the largest local slope over the larger-dT half of the range within `start` of a,
-- the last one within `finish` of b; "between" additionally asks for two consecutive local slopes
-- strictly inside (b + mid, a - mid), which neither a first- nor a second-order curve has.
M.tol = { order = 0.1, start = 0.25, finish = 0.15, mid = 0.2 }

--- An n/a verdict for a claim that compares the runs of several p ("decreases as p grows") when
-- the run has only one p; nil otherwise.
function M.one_p(P)
  if #P.p < 2 then return E.na(string.format("one p (%d): nothing to compare", P.p[1])) end
end

--- Decide one convergence claim c (see convergence_scenario) for one p: holds (or
-- experiment.na(reason) when the run has too few dT for it: an order needs two, a transition
-- three, i.e. two local slopes), the measured value (text) and the rule (text). fit: the number
-- of smallest dT of the fitted orders (at most the dT given).
function M.decide(rows, p, c, fit)
  local ndT = #rows_of(rows, p)
  fit = math.min(fit, ndT)
  if c.kind == "order" then
    local rule = string.format("least-squares slope over the %d smallest ΔT within %g ± %g", fit, c.order, M.tol.order)
    if fit < 2 then return E.na("one ΔT: no slope"), "—", rule end
    local s = M.fit_order(rows, p, c.col, fit)
    return math.abs(s - c.order) <= M.tol.order, string.format("%.3f", s), rule
  end
  if c.kind == "ratio" then
    local sel, lo, hi = rows_of(rows, p), math.huge, -math.huge
    for i = math.max(1, #sel - fit + 1), #sel do
      local x = sel[i][c.col] / sel[i][c.over]
      lo, hi = math.min(lo, x), math.max(hi, x)
    end
    return lo >= c.lo and hi <= c.hi, string.format("%.3f–%.3f", lo, hi),
           string.format("%s/%s over the %d smallest ΔT within [%g, %g]", c.col, c.over, fit, c.lo, c.hi)
  end
  local sl = M.local_slopes(rows, p, c.col)
  local txt = {}
  for i, v in ipairs(sl) do txt[i] = string.format("%.2f", v) end
  local rule = string.format("local slopes: the largest over the larger-ΔT half within %g ± %g, the last within %g ± %g",
                             c.from, M.tol.start, c.to, M.tol.finish)
  if c.kind == "between" then
    rule = rule .. string.format(", and two consecutive ones in (%g, %g)", c.to + M.tol.mid, c.from - M.tol.mid)
  elseif c.kind ~= "transition" then
    error("vmi.decide: unknown claim kind '" .. tostring(c.kind) .. "'", 2)
  end
  if #sl < 2 then
    return E.na(string.format("%d ΔT give %d local slope%s: a transition needs two", ndT, #sl, #sl == 1 and "" or "s")),
           #txt > 0 and table.concat(txt, " ") or "—", rule
  end
  local start = -math.huge
  for i = 1, math.max(1, math.floor(#sl / 2)) do start = math.max(start, sl[i]) end
  local ok = math.abs(start - c.from) <= M.tol.start and math.abs(sl[#sl] - c.to) <= M.tol.finish
  if c.kind == "between" then
    local run, best = 0, 0
    for _, v in ipairs(sl) do
      if v > c.to + M.tol.mid and v < c.from - M.tol.mid then run = run + 1 else run = 0 end
      best = math.max(best, run)
    end
    ok = ok and best >= 2
  end
  return ok, table.concat(txt, " "), rule
end

--- The keys every convergence scenario (Figs. 6.10-6.17, Table 2) shares, then those of the
-- model(s) ("FPU", "SR" or "both") and `extra`.
function M.convergence_params(problem, extra)
  local t = {
    { "p", { 5, 10 }, "", "micro steps per macro step (list; one column of panels each)", integer = true, min = 1, max = 1000 },
    { "dT", { 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001, 0.00005 }, "", "macro steps (list; every micro node on the reference grid)",
      positive = true, max = 0.5 },
    { "T", 0.5, "", "final time t_N (as the paper's reference runs)", positive = true, max = 10 },
    { "tol", 1e-12, "", "Newton tolerance (max-norm residual)", positive = true, max = 1e-3 },
    { "ref", "rk4", "", "reference: RK4 on (2.4), or the paper's tiny-step single-rate VI", choices = { "rk4", "vi" } },
    { "href", 5e-6, "", "spacing of the stored reference grid (every micro node lies on it)", positive = true, min = 1e-8, max = 1e-2 },
    { "sub", 1, "", "reference steps per grid spacing (RK4: 1 -> h = 5e-6; vi: 10 / 5 -> the paper's 5e-7 (FPU) / 1e-6 (SR))",
      integer = true, min = 1, max = 1000 },
    { "fit", 4, "", "number of smallest dT used for the fitted orders", integer = true, min = 2, max = 100 },
  }
  local models = problem == "FPU" and M.fpu_params() or problem == "SR" and M.ring_params() or M.keys(M.fpu_params(), M.ring_params())
  return M.keys(t, models, extra or {})
end

--- The work of a convergence scenario: its runs and the reference (RK4: 4 evaluations per step).
function M.convergence_work(P, problems)
  local n = M.work_runs(P.p, P.T, P.dT) + 4 * P.sub * P.T / P.href
  return n * (problems or 1), "force evaluations"
end

--- Check the grid of a convergence scenario before running: every dT must divide T and put every
-- micro node on the reference grid.
function M.convergence_check(sc, P)
  for _, dT in ipairs(P.dT) do
    if tonumber(C.kz_steps_in(P.T, dT)) < 1 then
      sc:fail(string.format("parameters 'dT', 'T': T = %g is not a whole number of macro steps dT = %g", P.T, dT))
    end
    for _, p in ipairs(P.p) do
      if tonumber(C.kz_steps_in(dT / p, P.href)) < 1 then
        sc:fail(string.format("parameters 'dT', 'p', 'href': the micro step dT/p = %g/%d is not a whole number of reference spacings href = %g",
                              dT, p, P.href))
      end
    end
  end
  E.no_repeats(sc, P, { "dT", "p" })
  local dmin, pmax = math.huge, 0
  for _, dT in ipairs(P.dT) do dmin = math.min(dmin, dT) end
  for _, p in ipairs(P.p) do pmax = math.max(pmax, p) end
  M.check_nodes(sc, P.T / P.href * 36, M.max_states * 36, "parameters 'T', 'href'", "reference numbers (T/href rows of up to 36)")
  M.check_nodes(sc, P.T / dmin * pmax, M.max_states, "parameters 'T', 'dT', 'p'", "micro nodes T p/dT")
end

--- Run a convergence scenario: problem ("FPU", "SR"), scheme, claims and the figure's kind
-- ("errors": q and p on macro and micro nodes; "split": macro-node errors split slow/fast). Writes
-- data/<id>.tsv (the errors), data/<id>-slopes.tsv (the local slopes of every error between
-- consecutive dT), tables/<id>.tsv (per p and error: the fitted order over the `fit` smallest dT,
-- the largest local slope over the larger-dT half, the last local slope), tables/<id>-claims.{tsv,md}
-- and figures/<id>.svg. claims: list of {key, text, col, kind, ...}: kind "order" (order = k),
-- "transition" or "between" (from = a, to = b), "ratio" (over = column, lo, hi); each is decided at
-- every p of the run (M.decide).
function M.convergence_scenario(sc, P, problem, scheme, claims, figkind)
  local model = M.model(problem, P)
  sc:progress_start(#P.p * #P.dT)
  local rows = M.convergence(model, scheme, { p = P.p, dT = P.dT, T = P.T, tol = P.tol, ref = P.ref,
                                              href = P.href, sub = P.sub, progress = function() sc:progress() end })
  local cols = { "p", "dT", "q_mac", "p_mac", "q_mic", "p_mic", "qs", "qf", "ps", "pf", "newton" }
  sc:write_tsv("data/" .. sc.id .. ".tsv", cols, rows,
    { string.format("%s, scheme %s, t_N = %g, Newton tol %g, reference %s (grid %g, %d steps per grid interval)",
                    M.describe(model), scheme, P.T, P.tol, P.ref, P.href, P.sub),
      "errors (6.1)-(6.2): sup over nodes of the Euclidean norm; q_mac, p_mac on macro nodes (q = (q^s, q^f)),",
      "q_mic, p_mic on the inner micro nodes (fast variables); qs, qf, ps, pf: macro-node errors split slow/fast" })
  local slopes, fits = {}, {}
  for _, p in ipairs(P.p) do
    local sel = rows_of(rows, p)
    for i = 2, #sel do slopes[#slopes + 1] = { p = p, dT_hi = sel[i - 1].dT, dT_lo = sel[i].dT } end
    local base = #slopes - (#sel - 1)
    local fit = math.min(P.fit, #sel) -- the fitted order over at most the dT given; none from one dT
    for _, c in ipairs(M.error_columns) do
      local sl = M.local_slopes(rows, p, c)
      for i, v in ipairs(sl) do slopes[base + i][c] = v end
      local start = #sl > 0 and -math.huge or "—"
      for i = 1, #sl > 0 and math.max(1, math.floor(#sl / 2)) or 0 do start = math.max(start, sl[i]) end
      fits[#fits + 1] = { p = p, column = c, order = fit >= 2 and M.fit_order(rows, p, c, fit) or "—", start = start,
                          last = sl[#sl] or "—" }
    end
  end
  local scols = { "p", "dT_hi", "dT_lo" }
  for _, c in ipairs(M.error_columns) do scols[#scols + 1] = c end
  sc:write_tsv("data/" .. sc.id .. "-slopes.tsv", scols, slopes,
               { "local slopes log(e(dT_hi)/e(dT_lo)) / log(dT_hi/dT_lo) of every error between consecutive dT" })
  sc:write_tsv("tables/" .. sc.id .. ".tsv", { "p", "column", "order", "start", "last" }, fits,
               { string.format("order: least-squares slope of log(error) against log(dT) over the %d smallest dT;", math.min(P.fit, #P.dT)),
                 "start: largest local slope over the larger-dT half of the range; last: the local slope at the smallest dT" })

  local cl = E.claims(sc)
  for _, c in ipairs(claims) do
    local ok, cells, rule, na = true, {}, nil, nil
    for _, p in ipairs(P.p) do
      local h, txt, r = M.decide(rows, p, c, P.fit)
      if E.is_na(h) then na = na or h else ok = ok and h end
      rule = r
      cells[#cells + 1] = string.format("p = %d: %s", p, txt)
    end
    ok = na or ok
    cl:add(c[1], c[2], c.published or (c.kind == "order" and ("order " .. c.order) or
           c.kind == "ratio" and "equal" or string.format("%g → %g", c.from, c.to)),
           table.concat(cells, "; ") .. " (" .. rule .. ")", ok)
  end
  cl:write(nil, sc.id .. "-claims")
  local lo, hi = math.huge, -math.huge
  local series = figkind == "split" and { "qs", "qf", "ps", "pf" } or { "q_mac", "q_mic", "p_mac", "p_mic" }
  for _, r in ipairs(rows) do
    for _, c in ipairs(series) do
      if r[c] > 0 then lo, hi = math.min(lo, r[c]), math.max(hi, r[c]) end
    end
  end
  local dTs = {}
  for i, v in ipairs(P.dT) do dTs[i] = v end
  table.sort(dTs)
  sc:figure(sc.id, { id = sc.id, ps = P.p, kind = figkind or "errors", ymin = lo, ymax = hi, dTmin = dTs[1], dTmax = dTs[#dTs],
                     title = string.format("%s, %s: errors versus ΔT", M.describe(model), M.scheme_names[scheme] or scheme) })
  return rows
end

--- The --quick run every convergence scenario shares.
M.convergence_quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 }

--- A convergence figure of one problem (Figs. 6.10-6.17), in two calls around the scenario's own
-- sc:parse(arg) (the runner protects the script that parses): fig = { id, title, problem ("FPU",
-- "SR"), scheme, kind, claims } as M.convergence_scenario takes them. The keys, the --quick run,
-- the work estimate and the grid check are the shared ones. The figures that differ only in what
-- they show of the same runs (6.12 and 6.13: "errors" and "split"; 6.14 and 6.15) differ only in
-- their fig.
--   local sc = V.convergence_new(fig)
--   V.convergence_run(sc, sc:parse(arg), fig)
function M.convergence_new(fig)
  return S.new { id = fig.id, title = fig.title, params = M.convergence_params(fig.problem), quick = M.convergence_quick,
                 work = M.convergence_work }
end

function M.convergence_run(sc, P, fig)
  M.convergence_check(sc, P)
  return M.convergence_scenario(sc, P, fig.problem, fig.scheme, fig.claims, fig.kind)
end

---------------------------------------------------------------------------------------------------
-- Computing time (Sec. 6.3, Figs. 6.18, 6.19): work counts here; the times are measured by
-- scripts/bench-vmi-timing.lua (make bench), never by a scenario
---------------------------------------------------------------------------------------------------

--- The keys of the computing-time study: FPU, micro step dt fixed, dT = p dt, to T.
function M.study_params(extra)
  return M.keys({
    { "p", { 1, 5, 10, 20, 50, 100, 200, 500, 1000 }, "", "micro steps per macro step (list)", integer = true, min = 1, max = 100000 },
    { "dt", 0.001, "s", "micro step (fixed; the single-rate step of p = 1)", positive = true, max = 1 },
    { "T", 10, "s", "final time t_N (N = T/(p dt) macro steps)", positive = true, max = 1e4 },
    { "schemes", { "MM", "TM", "TT" }, "", "Q1, Q2, Q3 (list)", choices = M.scheme_choices },
    { "tol", 1e-9, "", "Newton tolerance (max-norm residual)", positive = true, max = 1 },
  }, extra or {}, M.fpu_params())
end

--- Check the study's runs before any computation: at most max_states macro nodes per run.
function M.study_check(sc, P, T, key)
  local pmin = math.huge
  for _, p in ipairs(P.p) do pmin = math.min(pmin, p) end
  M.check_nodes(sc, T / (pmin * P.dt), M.max_states, string.format("parameters '%s', 'dt', 'p'", key or "T"),
                "macro nodes T/(p dt)")
end

--- The work of a whole run of the study at every p and scheme.
function M.study_work(P)
  local n = 0
  for _, p in ipairs(P.p) do n = n + 6 * p * math.ceil(P.T / (p * P.dt)) * 3 end -- ~3 Newton iterations per step
  return n * #P.schemes, "force evaluations"
end

--- One run of the computing-time study: the FPU `model` with micro step o.dt and dT = p dt to o.T
-- (N = T/dT macro steps), Newton tolerance o.tol, o.predictor, structured solver; the work counts
-- of kz_vmi_run and the Hessians the Jacobian passes evaluate ((n_V + n_W) p per assembly, quad_points;
-- the few of the Verlet predictor are not included). Returns {scheme, predictor, p, N, unknowns,
-- newton, jac_evals, force_evals, hess_evals}.
function M.study_run(model, scheme, p, o)
  local dT = p * o.dt
  local N = M.steps(o.T, dT)
  local res = M.run(model, scheme, { p = p, dT = dT, N = N, tol = o.tol, predictor = o.predictor, reuse = true })
  local c = res.counts
  return { scheme = scheme, predictor = o.predictor or "verlet", p = p, N = N, unknowns = p * model.nf + model.ns,
           newton = c.newton_iters, jac_evals = c.jac_evals, force_evals = c.force_evals,
           hess_evals = c.jac_evals * M.quad_points(scheme) * p }
end

--- A long run at a large macro step (the stability statement of Sec. 7): `model`, scheme, p micro
-- steps of dt (dT = p dt) to T, Newton tolerance tol, predictor. Returns {ok, t_end, t_fail,
-- message, rows = {t, H, relerr} at every macro node reached, max_relerr (over them), t_10 (first
-- time |H - H0|/H0 > 0.1, or -1)}.
function M.long_run(model, scheme, p, o)
  local dT = p * o.dt
  local res = M.run_until(model, scheme, { p = p, dT = dT, N = M.steps(o.T, dT), tol = o.tol, predictor = o.predictor,
                                          reuse = true })
  local H = M.total_energy(model, res.out, res.steps + 1)
  local rows, mx, t10 = {}, 0, -1
  for k = 0, res.steps do
    local e = (H[k + 1] - H[1]) / H[1]
    rows[k + 1] = { t = k * dT, H = H[k + 1], relerr = e }
    mx = math.max(mx, math.abs(e))
    if t10 < 0 and math.abs(e) > 0.1 then t10 = k * dT end
  end
  return { ok = res.ok, t_end = res.steps * dT, t_fail = res.t_fail, message = res.message, rows = rows,
           max_relerr = mx, t_10 = t10, dT = dT, newton = res.counts.newton_iters }
end

--- Timing of one run for the benchmarks (scripts/bench-vmi*.lua): FPU, micro step o.dt, dT = p dt,
-- o.steps macro steps (default all N = T/dT), solver, o.predictor, with the library's timers of the
-- parts (enum kz_vmi_timing). Returns the counts and the times of the run: {N, steps, newton, jac,
-- force_evals, t_cpu, t_jac, t_dx, t_grad, t_predict} (seconds over the run).
function M.timing(scheme, solver, p, o)
  local fpu = o.model or M.fpu()
  local dT = p * o.dt
  local N = M.steps(o.T, dT)
  local steps = math.min(N, o.max_steps or N)
  local r = M.run(fpu, scheme, { p = p, dT = dT, N = steps, tol = o.tol or 1e-9, timing = true, solver = solver,
                                 predictor = o.predictor, reuse = true })
  return { N = N, steps = steps, newton = r.counts.newton_iters, jac = r.counts.jac_evals, force_evals = r.counts.force_evals,
           t_cpu = r.timing.total, t_jac = r.timing.jac, t_dx = r.timing.solve, t_grad = r.timing.grad,
           t_predict = r.timing.predict,
           -- per macro step and per Newton iteration (as the earlier scenarios reported them)
           t_dx_step = r.timing.solve / steps, t_jac_step = r.timing.jac / steps,
           t_dx_iter = r.timing.solve / math.max(1, r.counts.newton_iters),
           t_jac_iter = r.timing.jac / math.max(1, r.counts.jac_evals) }
end

return M
