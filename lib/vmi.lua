-- vmi.lua -- Lua side of the variational multirate integrators (Ober-Bloebaum, Wenger, Gail &
-- Leyendecker): the schemes of Sec. 6 as (alpha, gamma) choices of (4.8), the FPU and spring-ring
-- models with the paper's initial data, runs, RK4 references and the measured quantities
-- (stiff-spring energies, total energy, angular momentum, errors on macro/micro nodes, fitted
-- orders). All stepping happens in C (lib/kz_vmi*.c); this module configures and collects.
local kz = require "kapitza"
local S = require "scenario"
local E = require "experiment"
local ffi, C = kz.ffi, kz.C

local M = {}

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
M.scheme_names = { MM = "midpoint-midpoint (Thm 3.3)", TM = "trapezoidal-midpoint, left rectangle in V",
                   TT = "trapezoidal-trapezoidal, left rectangle in V and W" }
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
-- p^s = p^f = (1,0,0).
function M.fpu(t)
  t = t or {}
  local o = { kind = "fpu", par = ffi.new("kz_vmi_fpu"), model = ffi.new("kz_vmi_model") }
  o.par.l = t.l or 3
  o.par.omega = t.omega or 50
  kz.call("kz_vmi_fpu_model", o.model, o.par, kz.report())
  local l = o.par.l
  o.ns, o.nf, o.d = l, l, 4 * l
  o.omega = o.par.omega
  local y0 = {}
  for i = 1, 4 * l do y0[i] = 0 end
  y0[1], y0[l + 1], y0[2 * l + 1], y0[3 * l + 1] = 1, 1 / o.omega, 1, 1
  o.y0 = y0
  return shape(o)
end

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
-- ("unperturbed", default) or the repositioned positions ("repositioned").
function M.ring(t)
  t = t or {}
  local o = { kind = "ring", par = ffi.new("kz_vmi_ring"), model = ffi.new("kz_vmi_model") }
  local P = o.par
  P.l, P.mass, P.eps, P.omega1, P.omega2, P.g = 3, t.mass or 2, t.eps or 5, t.omega1 or 2,
      t.omega2 or 4000, t.g or 9.81
  local gr = t.gravity or "physical"
  if gr ~= "physical" and gr ~= "printed" then error("vmi.ring: gravity must be 'physical' or 'printed'", 2) end
  P.g_sign = gr == "physical" and 1 or -1
  kz.call("kz_vmi_ring_model", o.model, P, kz.report())
  o.ns, o.nf, o.d = 9, 9, 36
  local r, h = t.r or 2, t.h or 2
  local q = {}
  for i = 1, 6 do q[i] = { r * math.sin((i - 1) * math.pi / 3), -r * math.cos((i - 1) * math.pi / 3), -h } end
  local shift = { [3] = { 0.3, 0.3, 0 }, [5] = { 0.2, -0.3, -0.3 }, [2] = { 0.2, -0.2, 0 }, [4] = { -0.3, 0.4, 0 } }
  local q0 = {}
  for i = 1, 6 do
    local s = shift[i] or { 0, 0, 0 }
    q0[i] = { q[i][1] + s[1], q[i][2] + s[2], q[i][3] + s[3] }
  end
  local base = (t.directions or "unperturbed") == "unperturbed" and q or q0
  local function unit(a, b)
    local d = { a[1] - b[1], a[2] - b[2], a[3] - b[3] }
    local n = math.sqrt(d[1] * d[1] + d[2] * d[2] + d[3] * d[3])
    return { d[1] / n, d[2] / n, d[3] / n }
  end
  local u12, u36 = unit(base[1], base[2]), unit(base[3], base[6])
  local v = { { 5 * u12[1], 5 * u12[2], 5 * u12[3] }, { -30 * u12[1], -30 * u12[2], -30 * u12[3] },
              { -5 * u36[1], -5 * u36[2], -5 * u36[3] }, { 50, 40, -10 }, { 0, 0, 0 }, { 50, 40, 10 } }
  local y0 = {}
  for i = 1, 6 do -- odd masses slow (offset 0), even fast (offset 9); momenta after 18
    local off = (i % 2 == 1) and 3 * ((i - 1) / 2) or 9 + 3 * (i / 2 - 1)
    for c = 1, 3 do
      y0[off + c] = q0[i][c]
      y0[18 + off + c] = P.mass * v[i][c]
    end
  end
  o.y0 = y0
  return shape(o)
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
-- counts, timing {jac, solve, total} (seconds), N, d and a row accessor row(k) (cdata pointer).
function M.run(model, scheme, o)
  local P = M.params(scheme, o)
  local N = o.N or M.steps(o.T, o.dT)
  local d = model.d
  local y0 = kz.vec(d)
  if type(o.y0) == "cdata" then ffi.copy(y0, o.y0, d * 8) else
    for i = 1, d do y0[i - 1] = (o.y0 or model.y0)[i] end
  end
  local out = buffer("out", (N + 1) * d, o.reuse)
  local micro = o.micro and buffer("micro", (N * o.p + 1) * 2 * model.nf, o.reuse) or nil
  local tim = o.timing and kz.vec(C.KZ_VMI_T_N) or nil
  local r = kz.report()
  kz.call("kz_vmi_run", model.model, P, N, y0, out, N + 1, micro, micro and (N * o.p + 1) or 0, tim, r)
  local res = { out = out, micro = micro, counts = kz.counts(r), N = N, d = d, p = o.p, dT = o.dT,
                y0 = y0 }
  if tim then res.timing = { jac = tim[0], solve = tim[1], total = tim[2] } end
  function res.row(k) return out + k * d end
  return res
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
-- Experiments shared by the scenarios and the specs
---------------------------------------------------------------------------------------------------

--- FPU stiff-spring energies (Figs. 6.3-6.5): rows {t, I1, I2, I3, I} at every macro node.
-- o: p, dT, T, tol. Returns rows and the run (its out buffer is reused by the next such run).
function M.fpu_energies(scheme, o)
  local fpu = M.fpu()
  local res = M.run(fpu, scheme, { p = o.p, dT = o.dT, T = o.T, tol = o.tol or 1e-9, reuse = true })
  local rows = {}
  for k = 0, res.N do
    local I, s = M.fpu_I(fpu, res.row(k))
    rows[k + 1] = { t = k * o.dT, I1 = I[1], I2 = I[2], I3 = I[3], I = s }
  end
  return rows, res
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

--- First time at which column col exceeds level.
function M.first_above(rows, col, level)
  for _, r in ipairs(rows) do if r[col] > level then return r.t end end
  return nil
end

--- Spring-ring energies (Figs. 6.6-6.8): rows {t, kinetic, potential, total, relerr} and the
-- angular momentum rows {t, L1, L2, L3} at every macro node. o: p, dT, T, tol, gravity.
function M.ring_energies(scheme, o)
  local ring = M.ring { gravity = o.gravity, directions = o.directions }
  local res = M.run(ring, scheme, { p = o.p, dT = o.dT, T = o.T, tol = o.tol or 1e-8, reuse = true })
  local rows, Lrows, E0 = {}, {}, nil
  local en = kz.vec(3 * (res.N + 1))
  kz.call("kz_vmi_energies", ring.model, res.N + 1, res.out, en, kz.report())
  for k = 0, res.N do
    local y = res.row(k)
    local K, V, W = en[3 * k], en[3 * k + 1], en[3 * k + 2]
    local E = K + V + W
    E0 = E0 or E
    rows[k + 1] = { t = k * o.dT, kinetic = K, potential = V + W, total = E, relerr = (E - E0) / E0 }
    local L1, L2, L3 = M.ring_L(y)
    Lrows[k + 1] = { t = k * o.dT, L1 = L1, L2 = L2, L3 = L3 }
  end
  return rows, Lrows, res
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

--- The problems of the convergence study (Sec. 6.2).
function M.problem(name, o)
  if name == "FPU" then return M.fpu() end
  if name == "SR" then return M.ring { gravity = o and o.gravity } end
  error("vmi.problem: unknown problem '" .. tostring(name) .. "' (FPU, SR)", 2)
end

--- Convergence study (Sec. 6.2, (6.1)-(6.2)): for each p and dT, run to T and measure the
-- errors against a reference on the grid href. ref = "rk4" (RK4 with `sub` steps per grid
-- interval) or "vi" (the paper's choice: the same scheme with p = 1 and step href/sub).
-- Returns rows {p, dT, q_mac, p_mac, q_mic, p_mic, qs, qf, ps, pf, newton}.
function M.convergence(problem, scheme, o)
  local model = M.problem(problem, o)
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

--- Fitted order of column col for one p over the `count` smallest dT (which = "smallest", the
-- default) or the `count` largest (which = "largest").
function M.fit_order(rows, p, col, count, which)
  which = which or "smallest"
  if which ~= "smallest" and which ~= "largest" then
    error("vmi.fit_order: which must be 'smallest' or 'largest' (got " .. tostring(which) .. ")", 2)
  end
  local sel = {}
  for _, r in ipairs(rows) do if r.p == p then sel[#sel + 1] = r end end
  table.sort(sel, function(a, b) return a.dT > b.dT end)
  local from, to = math.max(1, #sel - count + 1), #sel
  if which == "largest" then from, to = 1, math.min(count, #sel) end
  local xs, ys = {}, {}
  for i = from, to do xs[#xs + 1] = sel[i].dT; ys[#ys + 1] = sel[i][col] end
  return E.slope(xs, ys)
end

--- The parameters of the spring-ring energy scenarios (Figs. 6.6-6.8), scheme as given.
function M.spring_ring_params(scheme)
  return {
    { "scheme", scheme, "", "quadrature (see lib/vmi.lua)", choices = { "MM", "TM", "TT", "TMh", "TTh" } },
    { "dT", 0.01, "", "macro step", positive = true },
    { "p", { 1, 5, 10 }, "", "micro steps per macro step (list)", integer = true, min = 1 },
    { "T", 50, "", "final time", positive = true },
    { "tol", 1e-8, "", "Newton tolerance (max-norm residual)", positive = true },
    { "gravity", "physical", "", "sign of the gravity potential", choices = { "physical", "printed" } },
    { "directions", "unperturbed", "", "positions defining v1, v2, v3", choices = { "unperturbed", "repositioned" } },
    { "stride", 2, "", "write every stride-th macro node", integer = true, min = 1 },
  }
end

--- The parameters every convergence scenario (Figs. 6.10-6.17) shares.
function M.convergence_params(extra)
  local t = {
    { "p", { 5, 10 }, "", "micro steps per macro step (list; left and right panel)", integer = true, min = 1 },
    { "dT", { 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001, 0.00005 }, "", "macro steps (list)", positive = true },
    { "T", 0.5, "", "final time t_N (as the paper's reference runs)", positive = true },
    { "tol", 1e-12, "", "Newton tolerance (max-norm residual)", positive = true },
    { "ref", "rk4", "", "reference: RK4 on (2.4), or the paper's tiny-step single-rate VI", choices = { "rk4", "vi" } },
    { "href", 5e-6, "", "spacing of the stored reference grid (every micro node lies on it)", positive = true },
    { "sub", 1, "", "reference steps per grid spacing (RK4: 1 -> h = 5e-6; vi: 10 / 5 -> the paper's 5e-7 (FPU) / 1e-6 (SR))", integer = true, min = 1 },
    { "fit", 4, "", "number of smallest dT used for the fitted orders", integer = true, min = 2 },
  }
  for _, e in ipairs(extra or {}) do t[#t + 1] = e end
  return t
end

--- Run a convergence scenario: problem, scheme, columns to fit; writes data/<id>.tsv,
-- tables/<id>.tsv (fitted slopes) and tables/<id>.md (claims beside slopes). claims: list of
-- {text, column, which ("small"|"large"), lo, hi}: the fitted slope of `column` over the `fit`
-- smallest dT ("small") or the 3 largest ("large") must lie in [lo, hi] for every p.
function M.convergence_scenario(sc, P, problem, scheme, claims)
  sc:progress_start(#P.p * #P.dT)
  local rows = M.convergence(problem, scheme, { p = P.p, dT = P.dT, T = P.T, tol = P.tol, ref = P.ref,
                                                href = P.href, sub = P.sub, progress = function() sc:progress() end })
  local cols = { "p", "dT", "q_mac", "p_mac", "q_mic", "p_mic", "qs", "qf", "ps", "pf", "newton" }
  sc:write_tsv("data/" .. sc.id .. ".tsv", cols, rows,
    { string.format("%s, scheme %s, t_N = %g, Newton tol %g, reference %s (grid %g, %d steps per grid interval)",
                    problem, scheme, P.T, P.tol, P.ref, P.href, P.sub),
      "errors (6.1)-(6.2): sup over nodes of the Euclidean norm; q_mac, p_mac on macro nodes (q = (q^s, q^f)),",
      "q_mic, p_mic on the inner micro nodes (fast variables); qs, qf, ps, pf: macro-node errors split slow/fast" })
  local fits, md = {}, {}
  local all = true
  for _, c in ipairs(claims) do
    local cells, ok = {}, true
    for _, p in ipairs(P.p) do
      local v = c[3] == "large" and M.fit_order(rows, p, c[2], 3, "largest") or M.fit_order(rows, p, c[2], P.fit)
      fits[#fits + 1] = { column = c[2], range = c[3], p = p, slope = v }
      ok = ok and v >= c[4] and v <= c[5]
      cells[#cells + 1] = string.format("%.2f", v)
    end
    all = all and ok
    md[#md + 1] = { c[1], c[2], c[3] == "large" and "3 largest ΔT" or (P.fit .. " smallest ΔT"),
                    string.format("[%g, %g]", c[4], c[5]), table.concat(cells, " / "), ok and "yes" or "**no**" }
  end
  sc:write_tsv("tables/" .. sc.id .. ".tsv", { "column", "range", "p", "slope" }, fits,
               { "least-squares slopes of log(error) against log(dT)" })
  -- For a claim that fails, the local slopes between consecutive dT show where the error stands.
  local notes = {}
  for i, c in ipairs(claims) do
    if md[i][6] ~= "yes" then
      for _, p in ipairs(P.p) do
        local sel = {}
        for _, r in ipairs(rows) do if r.p == p then sel[#sel + 1] = r end end
        table.sort(sel, function(a, b) return a.dT > b.dT end)
        local xs, ys, loc = {}, {}, {}
        for j, r in ipairs(sel) do xs[j], ys[j] = r.dT, r[c[2]] end
        for j, v in ipairs(E.local_slopes(xs, ys)) do loc[j] = string.format("%.2f", v) end
        notes[#notes + 1] = string.format("- %s, p = %d: local slopes from the largest to the smallest ΔT: %s.",
                                          c[2], p, table.concat(loc, ", "))
      end
    end
  end
  local tail = #notes == 0 and "" or ("\nNot as claimed over the ΔT range run here; the local slopes show how far " ..
                                      "the transition has come:\n\n" .. table.concat(notes, "\n") .. "\n")
  sc:write_text("tables/" .. sc.id .. ".md", S.md_table(
    { "claim (§6.2)", "error", "fitted over", "accepted slope", "slope, p = " .. table.concat(P.p, " / "), "holds" }, md) .. tail)
  return rows, all
end

--- The claims "order `order` in q and p on macro and micro nodes", slope over the smallest dT
-- accepted in [lo, hi] (Figs. 6.10, 6.11, 6.16, 6.17), in the form convergence_scenario takes.
function M.order_claims(order, lo, hi)
  local t = {}
  for _, c in ipairs { { "q, macro", "q_mac" }, { "p, macro", "p_mac" }, { "q, micro", "q_mic" }, { "p, micro", "p_mic" } } do
    t[#t + 1] = { string.format("order %d (%s)", order, c[1]), c[2], "small", lo, hi }
  end
  return t
end

--- The claims on the macro-node errors split slow/fast for trapezoidal-midpoint (Figs. 6.13, 6.15):
-- slow errors of order one; fast errors of order two at large dT, one at small dT (the slow error
-- reaching the fast variables through the coupling potential).
function M.slow_fast_claims()
  return {
    { "slow q^s: order 1", "qs", "small", 0.8, 1.2 },
    { "slow p^s: order 1", "ps", "small", 0.8, 1.2 },
    { "fast q^f: order 2 at large ΔT", "qf", "large", 1.7, 2.3 },
    { "fast q^f: order 1 at small ΔT", "qf", "small", 0.8, 1.2 },
    { "fast p^f: order 2 at large ΔT", "pf", "large", 1.7, 2.3 },
    { "fast p^f: order 1 at small ΔT", "pf", "small", 0.8, 1.2 },
  }
end

--- Computing-time study (Sec. 6.3): FPU with micro step dt fixed and dT = p dt, run for `steps`
-- macro steps (default: all N = T/dT). The fastest of `reps` repetitions is kept (machines are
-- noisy); o.predictor as in M.params. Returns {N, steps, newton, jac, t_cpu, t_dx, t_jac}: t_cpu the whole run, t_dx and
-- t_jac the linear-solve and Jacobian-assembly times per macro step (summed over its iterations),
-- t_dx_iter and t_jac_iter the same per Newton iteration.
function M.timing(scheme, solver, p, o)
  local fpu = M.fpu()
  local dT = p * o.dt
  local N = M.steps(o.T, dT)
  local steps = math.min(N, o.max_steps or N)
  local best
  for _ = 1, o.reps or 1 do
    local r = M.run(fpu, scheme, { p = p, dT = dT, N = steps, tol = o.tol or 1e-9, timing = true, solver = solver,
                                   predictor = o.predictor })
    local t = { N = N, steps = steps, newton = r.counts.newton_iters, jac = r.counts.jac_evals,
                t_cpu = r.timing.total, t_dx = r.timing.solve / steps, t_jac = r.timing.jac / steps,
                t_dx_iter = r.timing.solve / r.counts.newton_iters, t_jac_iter = r.timing.jac / r.counts.jac_evals }
    if not best or t.t_cpu < best.t_cpu then best = t end
  end
  return best
end

---------------------------------------------------------------------------------------------------
-- Scenario drivers: the sweeps and outputs several figure scenarios share
---------------------------------------------------------------------------------------------------

--- "yes" or "**no**" for the "holds" column of a claims table.
function M.yes(b) return b and "yes" or "**no**" end

-- cells(f): f applied to every summary row (one per p), joined by " / ".
local function cells_of(summary)
  return function(f)
    local t = {}
    for i, s in ipairs(summary) do t[i] = f(s) end
    return table.concat(t, " / ")
  end
end

-- tables/<id>.md of a Sec. 6.1 figure: the claim rows {claim, measured, holds}, then the Newton total.
local function write_claims(sc, P, summary, rows)
  rows[#rows + 1] = { "Newton iterations (total)", cells_of(summary)(function(s) return tostring(s.newton) end), "" }
  sc:write_text("tables/" .. sc.id .. ".md", S.md_table(
    { "claim (§6.1)", "measured, p = " .. table.concat(P.p, " / "), "holds" }, rows))
end

-- Every stride-th row (all rows when stride is nil).
local function every(rows, stride)
  if not stride then return rows end
  local kept = {}
  for i = 1, #rows, stride do kept[#kept + 1] = rows[i] end
  return kept
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

--- FPU energy exchange (Figs. 6.3-6.5). For each p in P.p: the stiff-spring energies of P.scheme
-- (P.dT, P.T, P.tol) -> data/<id>-p<p>.tsv (every P.stride-th node when P has a stride). Per p: N,
-- the range of I, the Newton total and the quantities of `measure` ("exchange": mean of I over
-- [0.75 T, T], of I1 over [0.95 T, T], first time I2 > 0.3; "return": the return of I2 to zero on
-- its envelope) -> tables/<id>.tsv. claims(summary, cells) returns the claim rows {claim, measured,
-- holds} of tables/<id>.md (cells(f): f of every summary row, " / "). Returns the summary.
function M.fpu_exchange(sc, P, measure, claims)
  local m = fpu_measures[measure]
  if not m then error("vmi.fpu_exchange: measure must be 'exchange' or 'return' (got " .. tostring(measure) .. ")", 2) end
  local summary = {}
  sc:progress_start(#P.p)
  for _, p in ipairs(P.p) do
    local rows, res = M.fpu_energies(P.scheme, { p = p, dT = P.dT, T = P.T, tol = P.tol })
    sc:write_tsv(string.format("data/%s-p%d.tsv", sc.id, p), { "t", "I1", "I2", "I3", "I" }, every(rows, P.stride),
                 { string.format("FPU, %s, dT = %g, p = %d, %d macro steps (t_N = %.17g), Newton tol %g",
                                 P.scheme, P.dT, p, res.N, res.N * P.dT, P.tol) ..
                   (P.stride and string.format(", every %d-th node", P.stride) or "") })
    local lo, hi = M.stats(rows, "I", 0, math.huge)
    local s = { p = p, N = res.N, I_min = lo, I_max = hi, I_spread = hi - lo, newton = res.counts.newton_iters }
    m.measure(s, rows, P)
    summary[#summary + 1] = s
    sc:progress(string.format("p = %d", p))
  end
  local columns = { "p", "N", "I_min", "I_max", "I_spread" }
  for _, c in ipairs(m.columns) do columns[#columns + 1] = c end
  columns[#columns + 1] = "newton"
  sc:write_tsv("tables/" .. sc.id .. ".tsv", columns, summary, m.comments)
  write_claims(sc, P, summary, claims(summary, cells_of(summary)))
  return summary
end

--- Spring-ring energy (Figs. 6.6-6.8). For each p in P.p: the energies of P.scheme (P.dT, P.T,
-- P.tol, P.gravity, P.directions) -> data/<id>-p<p>.tsv (every P.stride-th node); E0, K0, the max
-- relative energy error over the first and the second half of [0, T] and the Newton total ->
-- tables/<id>.tsv; the claims of Sec. 6.1 (bounded without drift, amplitude decreasing with p, and
-- for MM below 1e-2) -> tables/<id>.md. compare (optional list of schemes): also run them at each p
-- and check that the max error grows along compare..., P.scheme (Fig. 6.8: MM < TM < TT).
function M.spring_ring_energy(sc, P, compare)
  local summary = {}
  sc:progress_start(#P.p)
  for _, p in ipairs(P.p) do
    local rows, _, res = M.ring_energies(P.scheme, { p = p, dT = P.dT, T = P.T, tol = P.tol,
                                                     gravity = P.gravity, directions = P.directions })
    sc:write_tsv(string.format("data/%s-p%d.tsv", sc.id, p), { "t", "kinetic", "potential", "total", "relerr" },
                 every(rows, P.stride), { string.format("spring ring, %s, dT = %g, p = %d, %s gravity, Newton tol %g, every %d-th node",
                                                        P.scheme, P.dT, p, P.gravity, P.tol, P.stride) })
    local a, b = M.relerr_halves(rows, P.T / 2)
    summary[#summary + 1] = { p = p, E0 = rows[1].total, K0 = rows[1].kinetic, relerr_first = a,
                              relerr_second = b, newton = res.counts.newton_iters }
    sc:progress(string.format("p = %d", p))
  end
  sc:write_tsv("tables/" .. sc.id .. ".tsv", { "p", "E0", "K0", "relerr_first", "relerr_second", "newton" },
               summary, { "max |E - E0|/|E0| over the first and the second half of [0, T]" })

  local cells = cells_of(summary)
  local nodrift, decreasing = true, true
  for i, s in ipairs(summary) do
    nodrift = nodrift and s.relerr_second <= 1.5 * s.relerr_first
    if i > 1 then decreasing = decreasing and s.relerr_first < summary[i - 1].relerr_first end
  end
  local md = {
    { "E₀ (K₀ = 9350)", cells(function(s) return string.format("%.2f", s.E0) end), "" },
    { "energy error bounded, no drift (max over 2nd half ≤ 1.5 × 1st half)",
      cells(function(s) return S.sci(s.relerr_first) .. ", " .. S.sci(s.relerr_second) end), M.yes(nodrift) },
  }
  if P.scheme == "MM" then
    md[#md + 1] = { "oscillations several orders of magnitude below E (max relative error < 1e-2)",
      cells(function(s) return S.sci(math.max(s.relerr_first, s.relerr_second)) end),
      M.yes(summary[1].relerr_first < 1e-2 and summary[1].relerr_second < 1e-2) }
  end
  md[#md + 1] = { "amplitude decreases with p", cells(function(s) return S.sci(s.relerr_first) end), M.yes(decreasing) }
  if compare then
    local schemes = {}
    for j, sch in ipairs(compare) do schemes[j] = sch end
    schemes[#schemes + 1] = P.scheme
    local order_cells, ordered = {}, true
    for i, s in ipairs(summary) do
      local e, f = {}, {}
      for j, sch in ipairs(compare) do
        local rows = M.ring_energies(sch, { p = s.p, dT = P.dT, T = P.T, tol = P.tol, gravity = P.gravity, directions = P.directions })
        e[j] = 0
        for _, r in ipairs(rows) do e[j] = math.max(e[j], math.abs(r.relerr)) end
      end
      e[#schemes] = math.max(s.relerr_first, s.relerr_second)
      for j = 1, #e do
        if j > 1 then ordered = ordered and e[j - 1] < e[j] end
        f[j] = S.sci(e[j], 2)
      end
      order_cells[i] = string.format("p=%d: %s", s.p, table.concat(f, " / "))
    end
    md[#md + 1] = { "error ordering " .. table.concat(schemes, " < ") .. " at each p (max \\|E − E₀\\|/\\|E₀\\|, " ..
                    table.concat(schemes, " / ") .. ")", table.concat(order_cells, " ; "), M.yes(ordered) }
  end
  write_claims(sc, P, summary, md)
  return summary
end

--- The runs of the computing-time study (Figs. 6.18, 6.19): for each scheme in P.schemes, the
-- structured solver at every p in P.p (fastest of P.reps) and then the dense solver at every
-- p <= P.dense_pmax (one run), micro step P.dt, to P.T, Newton tol P.tol, P.predictor; with dense_steps_from,
-- the dense runs with p >= dense_steps_from stop after P.dense_steps macro steps. Returns the
-- M.timing results in run order, each with scheme, solver, p and jac_evals (= jac).
function M.timing_sweep(sc, P, dense_steps_from)
  local runs, total = {}, 0
  for _, p in ipairs(P.p) do total = total + (p <= P.dense_pmax and 2 or 1) end
  sc:progress_start(total * #P.schemes)
  for _, sch in ipairs(P.schemes) do
    for _, solver in ipairs { "structured", "dense" } do
      for _, p in ipairs(P.p) do
        if solver == "structured" or p <= P.dense_pmax then
          local cut = solver == "dense" and dense_steps_from and p >= dense_steps_from
          local t = M.timing(sch, solver, p, { dt = P.dt, T = P.T, tol = P.tol, reps = solver == "dense" and 1 or P.reps,
                                               max_steps = cut and P.dense_steps or nil, predictor = P.predictor })
          t.scheme, t.solver, t.p, t.jac_evals = sch, solver, p, t.jac
          runs[#runs + 1] = t
          sc:progress(string.format("%s %s p = %d", sch, solver, p))
        end
      end
    end
  end
  return runs
end

--- The `predictor` parameter of the computing-time scenarios (Figs. 6.18, 6.19): their Newton
-- iterations start from the drift guess, the usual one and the one these outputs were first made
-- with (the paper does not say which it used); `predictor=verlet` runs the library's default.
M.timing_predictor_param = { "predictor", "drift", "", "Newton's initial guess (lib/kz_vmi.c)", choices = { "drift", "verlet" } }

--- Footer of the machine-dependent timing tables.
M.timing_note = "\nTimes are from the machine that last ran the scenario (machine-dependent, not part of the regression check).\n"

return M
