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
local a1, a2 = math.min(unpack(P.eta_h)), math.max(unpack(P.eta_h)) -- the smallest and the largest window
local Nlast = P.N[#P.N] -- N increases (checked)
local nfit = 0
for _, N in ipairs(P.N) do if N >= P.fit_from then nfit = nfit + 1 end end
local fe = {}
for _, s in ipairs(P.schemes) do if s:match("^FE") then fe[#fe + 1] = s end end
local why = "the behaviour of the HMM's error in H, at any parameters"
-- an order is read where the curve is in its asymptotic range: three N in the fit (a slope and
-- whether it is settled) and the last two local orders within the half-width of the notes' band
-- 0.9-1.4, 0.25 (FE's local orders at the defaults: 3.67, 2.00, 1.34, 1.16, 1.08, 1.04: a fit from
-- N = 60 over two N reads the pre-asymptotic 2.00)
local settle = 0.25
local function locals(s, a) return E.local_slopes(c(s, a).invH, c(s, a).err) end
local unsettled = {}
if nfit >= 3 then
  for _, s in ipairs(fe) do
    for _, a in ipairs(P.eta_h) do
      local t = locals(s, a)
      local d = math.abs(t[#t] - t[#t - 1])
      if d > settle then unsettled[#unsettled + 1] = E.T("%s η = %vh: %.2f, %.2f", s, a, -t[#t - 1], -t[#t]) end
    end
  end
end
cl:claim { key = "fe_order", text = "HMM-FE-* is first order (fitted slope of error against 1/H)", published = pub.fe_order, any = "an order of convergence, a property of the method",
  premises = { E.at_least(nfit, 3, E.T("values of N at least fit_from = %d (a slope, and whether it has settled)", P.fit_from)), E.at_least(#fe, 1, "HMM-FE-* schemes"),
               E.premise(#unsettled == 0, "the asymptotic range reached: the last two local orders of each curve within %v%s", settle,
                         #unsettled > 0 and (" (not: " .. E.join(unsettled, "; ") .. ")") or "") },
  judge = function()
    local orders, items = {}, {}
    for _, s in ipairs(fe) do
      for _, a in ipairs(P.eta_h) do
        local sl = -E.slope_in(c(s, a).invH, c(s, a).err, P.fit_from / P.T, math.huge) -- the order: error ∝ (1/H)^-order
        orders[#orders + 1] = E.T("%s η = %vh %.2f", s, a, sl)
        items[#items + 1] = { ok = sl >= 0.9 and sl <= 1.4, label = string.format("%s η = %sh", s, E.show(a)) }
      end
    end
    return { measured = E.join(orders, ", ") .. E.T(" over N ≥ %d (notes: %v–%v)", P.fit_from, 0.9, 1.4), items = items, what = "curves" }
  end }
local lf_pairs = {}
for _, s in ipairs(P.schemes) do
  local lf = s:match("^LF%-(%w+)$")
  if lf and curve["FE-" .. lf .. "/" .. a1] then lf_pairs[#lf_pairs + 1] = { s, "FE-" .. lf } end
end
cl:claim { key = "lf_better", text = "HMM-LF-* is more accurate than HMM-FE-*", published = pub.lf_better, any = why,
  premises = { E.at_least(#lf_pairs, 1, "HMM-LF-* schemes with their HMM-FE-* counterpart (same micro-solver)") },
  judge = function()
    local items = {}
    for _, pr in ipairs(lf_pairs) do
      for _, a in ipairs(P.eta_h) do
        local f, l = c(pr[2], a), c(pr[1], a)
        for i = 1, #f.err do items[#items + 1] = { ok = l.err[i] <= f.err[i], label = string.format("%s η = %sh N = %d", pr[1], E.show(a), P.N[i]) } end
      end
    end
    local k, n = E.count(items)
    return { measured = E.T("LF error ≤ FE error at %d of %d (N, micro, η) points", k, n), items = items, what = "points" }
  end }
local function last(s, a) local e = c(s, a).err; return e[#e] end
-- local orders (minus the log-log slopes against 1/H) between the last two and the first two N
local function lastslope(s, a) local e, x = c(s, a).err, c(s, a).invH; return -E.slope({ x[#x - 1], x[#x] }, { e[#e - 1], e[#e] }) end
local function firstslope(s, a) local e, x = c(s, a).err, c(s, a).invH; return -E.slope({ x[1], x[2] }, { e[1], e[2] }) end
-- the plateau claims compare LF-ve with LF-rk4 through local orders (two N or more); the growth
-- with eta needs two windows; a stagnation is a change of the local order: three N or more
local both = E.premise(c("LF-ve", a1) ~= nil and c("LF-rk4", a1) ~= nil, "the schemes LF-ve and LF-rk4 both in the run")
-- a curve has stagnated where its last local order is at most 0.5; it does not stagnate where its
-- local order has settled (the last two within 0.25, as for fe_order) above that; a local order
-- still falling by more than 0.25 at the list's end says only that the list stops before the curve
-- flattens or settles: not counted, named (and n/a where no curve is decided)
local function stagnates(a)
  local t = locals("LF-ve", a)
  local l, p = -t[#t], -t[#t - 1]
  if l <= 0.5 then return true, l, p end
  if math.abs(l - p) <= settle then return false, l, p end
  return nil, l, p
end
local windows = a2 == a1 and { a1 } or { a1, a2 }
local open, decided = {}, 0
if c("LF-ve", a1) and #P.N >= 3 then
  for _, a in ipairs(windows) do
    local st, l, p = stagnates(a)
    if st == nil then open[#open + 1] = E.T("η = %vh: %.2f, %.2f", a, p, l) else decided = decided + 1 end
  end
end
cl:claim { key = "stagnation", text = "the O(H) behaviour stagnates as H gets small (LF-ve)", published = pub.stagnation, any = why,
  premises = { E.premise(c("LF-ve", a1) ~= nil, "the scheme LF-ve in the run"), E.at_least(#P.N, 3, "values of N (a change of the local order)"),
               E.premise(decided > 0, "the N list reaches where a curve's last local order is at most %v or has settled (the last two within %v)%s", 0.5, settle,
                         #open > 0 and (" (not: " .. E.join(open, "; ") .. ")") or "") },
  judge = function()
    local f1 = firstslope("LF-ve", a1)
    local items, parts, skipped = { { ok = f1 >= 1.5, label = "first at the smallest η" } }, {}, {}
    for k, a in ipairs(windows) do
      local st, l, p = stagnates(a)
      local f = k == 1 and f1 or firstslope("LF-ve", a)
      parts[#parts + 1] = E.T("first %.2f, last two %.2f, %.2f (η = %vh)", f, p, l, a)
      if st == nil then skipped[#skipped + 1] = E.T("η = %vh", a)
      else items[#items + 1] = { ok = st, label = k == 1 and "last at the smallest η" or "last at the largest η" } end
    end
    return { measured = E.T("LF-ve local orders: ") .. E.join(parts, "; ") .. (a2 == a1 and " (the run's only window)" or "") ..
                        E.T(" (accept first ≥ %v, last ≤ %v)", 1.5, 0.5) ..
                        (#skipped > 0 and ("; not counted, the local order still falling: " .. E.join(skipped, ", ")) or ""),
             items = items, what = "local orders" }
  end }
cl:claim { key = "rk4_delays_plateau", text = "with RK4 the flattening is delayed, especially for η = 10h", published = pub.rk4_delays_plateau, any = why,
  premises = { both, E.at_least(#P.N, 2, "values of N (a local order)") },
  judge = function()
    local items = { { ok = last("LF-rk4", a1) < last("LF-ve", a1), label = "below LF-ve at the smallest η" },
                    { ok = lastslope("LF-rk4", a1) >= 1, label = "still falling at the smallest η" } }
    if a2 == a1 then -- one window: the smallest is the largest, counted once
      return { measured = E.T("at N = %d: LF-rk4 %.2e (last local order %.2f) against LF-ve %.2e (η = %vh, the run's only window)",
                              Nlast, last("LF-rk4", a1), lastslope("LF-rk4", a1), last("LF-ve", a1), a1), items = items, what = "checks" }
    end
    table.insert(items, 2, { ok = last("LF-rk4", a2) < last("LF-ve", a2), label = "below LF-ve at the largest η" })
    return { measured = E.T("at N = %d: LF-rk4 %.2e (last local order %.2f) against LF-ve %.2e (η = %vh); LF-rk4 %.2e against LF-ve %.2e (η = %vh)",
                            Nlast, last("LF-rk4", a1), lastslope("LF-rk4", a1), last("LF-ve", a1), a1, last("LF-rk4", a2), last("LF-ve", a2), a2),
             items = items, what = "checks" }
  end }
cl:claim { key = "error_grows_with_eta", text = "the error increases with η (LF plateaus, the largest η against the smallest)", published = pub.error_grows_with_eta,
  any = why, premises = { both, E.at_least(#P.eta_h, 2, "windows η (a comparison)") },
  judge = function()
    local function cmp(s) return last(s, a2) > last(s, a1) and ">" or "≤" end -- the relation the run measured
    return { measured = E.T("at N = %d: LF-ve %.2e %s %.2e, LF-rk4 %.2e %s %.2e (η = %vh against %vh)", Nlast, last("LF-ve", a2), cmp("LF-ve"),
                            last("LF-ve", a1), last("LF-rk4", a2), cmp("LF-rk4"), last("LF-rk4", a1), a2, a1),
             items = { { ok = last("LF-ve", a2) > last("LF-ve", a1), label = "LF-ve" }, { ok = last("LF-rk4", a2) > last("LF-rk4", a1), label = "LF-rk4" } },
             what = "schemes" }
  end }

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
