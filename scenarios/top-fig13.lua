-- ### Figure 13: the error in ξ₃ against 1/H for HMM-FE-* and HMM-LF-*
--
-- **Question.** How does the error of the slow-variable HMM behave as the macro step shrinks?
-- Figure 13 plots the error in ξ₃ = Π₁² + Π₂² against 1/H at ω = 10³ for forward Euler (left) and
-- leapfrog (right) macro steps, with RK4 or the explicit "Störmer–Verlet like" scheme (35) as
-- micro-solver, h = 10⁻⁶ and η = 10h or 50h: the errors fall (FE at first order) and then
-- stagnate at a level ε_HMM that depends on the micro-solver and grows with η.
--
-- **Method.** `kz_slow_run` with set (32), T = 0.01, N = T/H = 30 … 1920, each scheme and window;
-- the error is max_n |ξ₃ⁿ − ξ₃(t_n)| over the macro nodes against an RK4 reference (steps
-- ≤ 10⁻⁴/ω) on the finest macro grid. 've' is the registry stepper `kz_step_ve`, (35) with its
-- third line read as Π^{n+1} = Π^{n+1/2} + (h/2) f(Π^{n+1/2}, Γ^{n+1}) (A5): explicit and only
-- first order for the top (the Π-rotation part of a step is (I + hA/2)²), which is why its
-- plateau is higher. Fitted orders: least squares in log-log over N ≥ 120.
--
-- **Readings.** (A11) The range of 1/H is not given: N = 30 … 1920 (powers of two times 30).
-- A3/A4/A7/A17 as in Figure 12 (no predictor, FE start, minimum norm, normalised weights). The
-- addendum's structural remark explains the plateaus: every d/dt ξ is proportional to
-- c = Π₁Γ₂ − Π₂Γ₁, and c² = ξ₃ξ₄ − ξ₅², so the slow variables form a closed system up to the sign
-- of c and the kernel average only adds a bias, which grows with η.
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local top = require "kapitza.papers.top"

local params = top.model_params()
for _, p in ipairs {
  { "omega", 1e3, "", "spin multiplier: Pi3 = omega Pi3^ (31)", positive = true },
  { "Pi1w", 1, "", "initial Pi1 = Pi1w / omega (A18)" },
  { "T", 0.01, "s", "final time", positive = true },
  { "N", { 30, 60, 120, 240, 480, 960, 1920 }, "", "macro steps N = T/H (list; each divides the last)", integer = true, min = 2 },
  { "h", 1e-6, "s", "micro step", positive = true },
  { "eta_h", { 10, 50 }, "", "windows eta = eta_h h (list, even)", integer = true, min = 2 },
  { "schemes", { "FE-rk4", "FE-ve", "LF-rk4", "LF-ve" }, "", "HMM-<macro>-<micro> schemes (list)", choices = top.schemes },
  { "fit_from", 120, "", "fit the orders over N >= fit_from", integer = true, min = 1 },
  { "ref_h", 1e-4, "", "reference RK4 steps <= ref_h / omega", positive = true },
} do params[#params + 1] = p end
for _, p in ipairs(top.method_params()) do
  if p[1] ~= "macro" and p[1] ~= "micro" then params[#params + 1] = p end
end
local sc = S.new { id = "top-fig13", title = "Fredbo Figure 13: error in xi3 against 1/H for HMM-FE-* and HMM-LF-*",
                   params = params, quick = { N = { 30, 60, 120, 240 } },
                   work = function(P)
                     local W = require "kapitza.scenario.work"
                     local n = W.top_reference(P.T, P.T / P.N[#P.N], P.ref_h / P.omega)
                     for _, scheme in ipairs(P.schemes) do
                       local micro = tostring(scheme):match("%-(%w+)$")
                       n = n + W.sum(P.eta_h, function(a) return W.sum(P.N, function(N) return W.top_hmm(P.T, P.T / N, a, micro) end) end)
                     end
                     return n, "force evaluations"
                   end }
local P = sc:parse(arg)
top.check_list(sc, P, "N", { increasing = true })
top.check_list(sc, P, "eta_h", { even = true })
top.check_list(sc, P, "schemes")
local Nmax = P.N[#P.N]
for _, N in ipairs(P.N) do
  if Nmax % N ~= 0 then sc:fail(string.format("parameter 'N': %d does not divide the last, %d", N, Nmax)) end
end
local model = top.model(P)
local x0 = model.x0(P.omega, P.Pi1w / P.omega, P.theta0)
local rxi -- (made when a run needs it: a sweep's merge replays the runs)
local function ref()
  if not rxi then rxi = select(2, top.reference(model, "32", P.T, P.T / Nmax, x0, P.ref_h / P.omega)) end
  return rxi
end

local rows, curve = {}, {}
sc:progress_start(#P.schemes * #P.eta_h, "top-fig13")
for _, scheme in ipairs(P.schemes) do
  local macro, micro = scheme:match("^(%w+)%-(%w+)$") -- one of top.schemes (checked by the parser)
  for _, a in ipairs(P.eta_h) do
    local key = scheme .. "/" .. a
    curve[key] = { invH = {}, err = {} }
    for _, N in ipairs(P.N) do
      -- each run a compute cell (lib/lua/kapitza/scenario/cells.lua)
      local e = sc:cell("run", { schemes = scheme, eta_h = a, N = N, Nmax = Nmax }, function() -- (Nmax: the reference's grid)
        local q = {}
        for k, v in pairs(P) do q[k] = v end
        q.macro, q.micro = macro, micro
        local _, xi = top.run(model, q, { set = "32", H = P.T / N, T = P.T, eta = a * P.h, h = P.h, x0 = x0 })
        return top.maxerr(xi[2], ref()[2], Nmax / N)
      end)
      rows[#rows + 1] = { scheme = scheme, eta_h = a, N = N, invH = N / P.T, error = e }
      table.insert(curve[key].invH, N / P.T)
      table.insert(curve[key].err, e)
    end
    sc:progress()
  end
end
sc:write_tsv("data/top-fig13.tsv", { "scheme", "eta_h", "N", "invH", "error" }, rows,
  { string.format("top-fig13: max over t_n of abs(xi3_n - xi3(t_n)), omega = %g, T = %g, h = %g", P.omega, P.T, P.h) })

-- Claims -----------------------------------------------------------------------------------------
local cl = E.claims(sc)
local pub = cl.pub
local function c(s, a) return curve[s .. "/" .. a] end
local a1, a2 = P.eta_h[1], P.eta_h[#P.eta_h]
local orders, ok_order, nfit = {}, true, 0
for _, N in ipairs(P.N) do if N >= P.fit_from then nfit = nfit + 1 end end
for _, s in ipairs(P.schemes) do
  if s:match("^FE") and nfit >= 2 then
    for _, a in ipairs(P.eta_h) do
      local sl = -E.slope_in(c(s, a).invH, c(s, a).err, P.fit_from / P.T, math.huge) -- the order: error ∝ (1/H)^-order
      orders[#orders + 1] = string.format("%s η=%dh %.2f", s, a, sl)
      ok_order = ok_order and sl >= 0.9 and sl <= 1.4
    end
  end
end
-- an order needs an FE scheme and two N at or beyond fit_from
local fe_na = nfit < 2 and E.na(string.format("a fitted order needs two N ≥ fit_from = %d (this run has %d)", P.fit_from, nfit))
              or #orders == 0 and E.na("no HMM-FE-* scheme in this run")
if fe_na then
  cl:add("fe_order", "HMM-FE-* is first order (fitted slope of error against 1/H)", pub.fe_order, fe_na)
else
  cl:add("fe_order", "HMM-FE-* is first order (fitted slope of error against 1/H)", pub.fe_order,
         table.concat(orders, ", ") .. string.format(" over N ≥ %d (notes: 0.9–1.4)", P.fit_from), ok_order)
end
local worse, pairs_ = {}, 0
for _, s in ipairs(P.schemes) do
  local lf = s:match("^LF%-(%w+)$")
  if lf and curve["FE-" .. lf .. "/" .. a1] then
    for _, a in ipairs(P.eta_h) do
      local f, l = c("FE-" .. lf, a), c(s, a)
      for i = 1, #f.err do
        pairs_ = pairs_ + 1
        if l.err[i] > f.err[i] then worse[#worse + 1] = string.format("%s η=%dh N=%d", s, a, P.N[i]) end
      end
    end
  end
end
if pairs_ == 0 then
  cl:add("lf_better", "HMM-LF-* is more accurate than HMM-FE-*", pub.lf_better,
         E.na("no HMM-LF-* scheme with its HMM-FE-* counterpart (same micro-solver) in this run"))
else
  cl:add("lf_better", "HMM-LF-* is more accurate than HMM-FE-*", pub.lf_better,
         #worse == 0 and string.format("LF error ≤ FE error at all %d (N, micro, η) points", pairs_)
         or ("LF worse at " .. table.concat(worse, ", ")), #worse == 0)
end
local function last(s, a) local e = c(s, a).err; return e[#e] end
-- local orders (minus the log-log slopes against 1/H) between the last two and the first two N
local function lastslope(s, a) local e, x = c(s, a).err, c(s, a).invH; return -E.slope({ x[#x - 1], x[#x] }, { e[#e - 1], e[#e] }) end
local function firstslope(s, a) local e, x = c(s, a).err, c(s, a).invH; return -E.slope({ x[1], x[2] }, { e[1], e[2] }) end
-- the plateau claims compare LF-ve with LF-rk4 through local orders (two N or more); the growth
-- with eta needs two windows
local lf_na = not (c("LF-ve", a1) and c("LF-rk4", a1)) and E.na("the schemes LF-ve and LF-rk4 are not both in this run")
              or #P.N < 2 and E.na("local orders need two N or more (this run has one)")
-- a stagnation is a change of the local order: three N or more
local stag_na = lf_na or #P.N < 3 and E.na("a change of the local order needs three N or more (this run has two)")
if stag_na then
  cl:add("stagnation", "the O(H) behaviour stagnates as H gets small (LF-ve)", pub.stagnation, stag_na)
else
  cl:add("stagnation", "the O(H) behaviour stagnates as H gets small (LF-ve)", pub.stagnation,
         string.format("LF-ve local orders: first %.2f, last %.2f (η=%dh); %.2f, %.2f (η=%dh) (accept first ≥ 1.5, last ≤ 0.5)",
                       firstslope("LF-ve", a1), lastslope("LF-ve", a1), a1, firstslope("LF-ve", a2), lastslope("LF-ve", a2), a2),
         firstslope("LF-ve", a1) >= 1.5 and lastslope("LF-ve", a1) <= 0.5 and lastslope("LF-ve", a2) <= 0.5)
end
if lf_na then
  cl:add("rk4_delays_plateau", "with RK4 the flattening is delayed, especially for η = 10h", pub.rk4_delays_plateau, lf_na)
else
  cl:add("rk4_delays_plateau", "with RK4 the flattening is delayed, especially for η = 10h", pub.rk4_delays_plateau,
         string.format("at N = %d: LF-rk4 %.2e (still falling, last local order %.2f) against LF-ve %.2e (η=%dh); LF-rk4 %.2e against LF-ve %.2e (η=%dh)",
                       P.N[#P.N], last("LF-rk4", a1), lastslope("LF-rk4", a1), last("LF-ve", a1), a1, last("LF-rk4", a2), last("LF-ve", a2), a2),
         last("LF-rk4", a1) < last("LF-ve", a1) and last("LF-rk4", a2) < last("LF-ve", a2) and lastslope("LF-rk4", a1) >= 1)
end
if lf_na or #P.eta_h < 2 then
  cl:add("error_grows_with_eta", "the error increases with η (LF plateaus)", pub.error_grows_with_eta,
         lf_na or E.na(string.format("one window η = %dh in this run: nothing to compare", a1)))
else
  cl:add("error_grows_with_eta", string.format("the error increases with η (LF plateaus, η = %dh against %dh)", a2, a1), pub.error_grows_with_eta,
         string.format("at N = %d: LF-ve %.2e > %.2e, LF-rk4 %.2e > %.2e", P.N[#P.N], last("LF-ve", a2), last("LF-ve", a1),
                       last("LF-rk4", a2), last("LF-rk4", a1)),
         last("LF-ve", a2) > last("LF-ve", a1) and last("LF-rk4", a2) > last("LF-rk4", a1))
end

local head, body = { "scheme", "η/h" }, {}
for _, N in ipairs(P.N) do head[#head + 1] = "N=" .. N end
for _, s in ipairs(P.schemes) do
  for _, a in ipairs(P.eta_h) do
    local r = { s, tostring(a) }
    for _, e in ipairs(c(s, a).err) do r[#r + 1] = string.format("%.2e", e) end
    body[#body + 1] = r
  end
end
top.write_claims(sc, cl, "**Errors in ξ₃** (max over t_n = nH):\n\n" .. S.md_table(head, body),
  "The thesis prints no values for Figure 13; the claims are its qualitative statements.")
local etas, macros = {}, {}
for i, a in ipairs(P.eta_h) do etas[i] = a end
for _, m in ipairs { "FE", "LF" } do -- a panel for each macro-solver of the run
  for _, s in ipairs(P.schemes) do if s:match("^" .. m .. "%-") then macros[#macros + 1] = m break end end
end
sc:figure("top-fig13", { omega = P.omega, h = P.h, etas = etas, schemes = P.schemes, macros = macros })
