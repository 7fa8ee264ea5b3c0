-- vmi.lua -- the Lua binding of the variational multirate integrators (Ober-Bloebaum, Wenger, Gail
-- & Leyendecker): the schemes of Sec. 6 as (alpha, gamma) choices of (4.8), the FPU, spring-ring
-- and harmonic models with the paper's initial data and their scenario keys, runs, RK4 and
-- single-rate VI references, errors on macro/micro nodes, propagation matrices and the stability
-- bounds of Lemma 5.1. All stepping happens in C (lib/methods/kz_vmi*.c); this module configures
-- and collects. The experiments built on it (measured quantities, the scenario drivers, claims)
-- are lib/lua/kapitza/papers/vmi_claims.lua and lib/lua/kapitza/papers/vmi_convergence.lua.
local kz = require "kapitza"
local O = require "kapitza.options"
local cap = require "kapitza.capability"
local models = require "kapitza.models"
local ffi, C = kz.ffi, kz.C

local M = {}

-- The options of params, run and run_until (lib/lua/kapitza/options.lua: unknown keys and wrong kinds are errors).
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
-- Models with the paper's initial data, in the shape of lib/lua/kapitza/models.lua: name, dim, par, sys (the
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
-- p^s = p^f = (1,0,0): the model file lib/models/fpu.lua (lib/lua/kapitza/models.lua's models.fpu).
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
-- lib/models/ring.lua (lib/lua/kapitza/models.lua's models.ring).
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
-- Linear stability (why Newton fails beyond a bound)
---------------------------------------------------------------------------------------------------

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

return M
