-- ### Figure 14: the error in ξ₃ against the window η = αh
--
-- **Question.** How long should the micro-simulation be? Figure 14 plots the error in ξ₃ of
-- HMM-LF-rk4 against η = αh at ω = 10³, H = T/160, for h = 10⁻⁵, 10⁻⁶, 10⁻⁷; the text finds an
-- optimum η = 16h, "almost independent of H", and better results from longer windows as h shrinks.
--
-- **Method.** `kz_slow_run` (set (32), LF-rk4, K^exp(2) normalised, minimum norm, FE start) for
-- α = 2 … 100 (even: the window is centred on t_n, α/2 steps each side) and each h; the error is
-- max_n |ξ₃ⁿ − ξ₃(t_n)| over the macro nodes against RK4 with steps ≤ 10⁻⁴/ω. The H-independence
-- of the optimum is checked at h = 10⁻⁵ with H = T/80 and T/320.
--
-- **Readings.** (A11) The α range is not given: 2, 4, …, 100. With h = 10⁻⁵ and α = 100 the window
-- (10⁻³ s) is 6H and a fifth of a nutation period: the bias of the kernel average of the
-- nutation-periodic d/dt ξ (addendum 7) dominates, which is why long windows are harmful there.
-- The acceptance rules are the notes' (§5 TOP-F14).
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
  { "N", 160, "", "macro steps: H = T/N", integer = true, min = 2 },
  { "N_alt", { 80, 320 }, "", "other macro step counts for the H-independence of the optimum (list)", integer = true, min = 2 },
  { "h", { 1e-5, 1e-6, 1e-7 }, "s", "micro steps (list; the first is used for the optimum)", positive = true },
  { "alpha", { 2, 4, 6, 8, 10, 12, 16, 20, 30, 50, 100 }, "", "windows eta = alpha h (list, even)", integer = true, min = 2 },
  { "ref_h", 1e-4, "", "reference RK4 steps <= ref_h / omega", positive = true },
} do params[#params + 1] = p end
for _, p in ipairs(top.method_params()) do params[#params + 1] = p end
local sc = S.new { id = "top-fig14", title = "Fredbo Figure 14: error in xi3 against eta = alpha h (HMM-LF-rk4)",
                   params = params, quick = { h = { 1e-5 }, N_alt = { 80 } },
                   work = function(P)
                     local W = require "kapitza.scenario.work"
                     local grid = P.N -- the reference grid: the least common multiple of the N
                     for _, n in ipairs(P.N_alt) do
                       local a, b = grid, n
                       while b ~= 0 do a, b = b, a % b end
                       grid = grid * n / a
                     end
                     local function runs(N) return W.sum(P.alpha, function(a) return W.top_hmm(P.T, P.T / N, a, P.micro) end) end
                     return W.top_reference(P.T, P.T / grid, P.ref_h / P.omega) + #P.h * runs(P.N)
                       + W.sum(P.N_alt, runs), "force evaluations"
                   end }
local P = sc:parse(arg)
for _, a in ipairs(P.alpha) do
  if a % 2 ~= 0 then io.stderr:write("top-fig14: parameter 'alpha': the window is centred, alpha must be even\n"); os.exit(2) end
end
local model = top.model(P)
local x0 = model.x0(P.omega, P.Pi1w / P.omega, P.theta0)
local grid = P.N
for _, n in ipairs(P.N_alt) do
  local a, b = grid, n
  while b ~= 0 do a, b = b, a % b end
  grid = grid * n / a
end
top.check_points(sc, grid + 1, "parameters 'N', 'N_alt': the reference grid lcm(N, N_alt)")
local rxi -- (made when a run needs it: a sweep's merge replays the runs)

-- each run a compute cell (lib/lua/kapitza/scenario/cells.lua); grid: the reference's, from N and N_alt
local function err(N, h, a)
  return sc:cell("run", { N = N, h = h, alpha = a, grid = grid }, function()
    if not rxi then rxi = select(2, top.reference(model, "32", P.T, P.T / grid, x0, P.ref_h / P.omega)) end
    local _, xi = top.run(model, P, { set = "32", H = P.T / N, T = P.T, eta = a * h, h = h, x0 = x0 })
    return top.maxerr(xi[2], rxi[2], grid / N)
  end, { ignore = { "N_alt" } })
end
local rows, curves = {}, {}
sc:progress_start(#P.h + #P.N_alt, "top-fig14")
for _, h in ipairs(P.h) do
  local c = {}
  for i, a in ipairs(P.alpha) do
    c[i] = err(P.N, h, a)
    rows[#rows + 1] = { N = P.N, h = h, alpha = a, eta = a * h, error = c[i] }
  end
  curves[#curves + 1] = c
  sc:progress()
end
local function argmin(c)
  local j = 1
  for i = 2, #c do if c[i] < c[j] then j = i end end
  return j
end
local alt = {}
for _, N in ipairs(P.N_alt) do
  local c = {}
  for i, a in ipairs(P.alpha) do
    c[i] = err(N, P.h[1], a)
    rows[#rows + 1] = { N = N, h = P.h[1], alpha = a, eta = a * P.h[1], error = c[i] }
  end
  alt[#alt + 1] = { N = N, best = P.alpha[argmin(c)] }
  sc:progress()
end
sc:write_tsv("data/top-fig14.tsv", { "N", "h", "alpha", "eta", "error" }, rows,
  { string.format("top-fig14: max over t_n of abs(xi3_n - xi3(t_n)), HMM-%s-%s, omega = %g, T = %g", P.macro, P.micro, P.omega, P.T) })

local cl = E.claims(sc)
local pub = cl.pub
local c1 = curves[1]
local j1 = argmin(c1)
local best = P.alpha[j1]
local off = top.off_print(sc, P, nil, { "N_alt", "alpha", "ref_h" })
if off then
  cl:add("optimal_eta", string.format("the optimal window is η = 16h (h = %g)", P.h[1]), pub.optimal_eta,
         E.na(string.format("%s; here the minimum %.2e is at η = %dh", off, c1[j1], best)))
else
  cl:add("optimal_eta", string.format("the optimal window is η = 16h (h = %g)", P.h[1]), pub.optimal_eta,
         string.format("minimum %.2e at η = %dh (accept 12h–24h)", c1[j1], best), best >= 12 and best <= 24)
end
-- the window claims compare windows: one alpha leaves nothing to compare
local one_alpha = #P.alpha < 2 and E.na(string.format("one window (alpha = %d) in this run: nothing to compare", P.alpha[1]))
local a100 = c1[#c1]
if one_alpha then
  cl:add("long_window_harmful", string.format("long windows are worse (h = %g)", P.h[1]), "— (figure)", one_alpha)
else
  cl:add("long_window_harmful", string.format("long windows are worse (h = %g)", P.h[1]), "— (figure)",
         string.format("error(η = %dh) = %.2e = %.0f × the minimum (notes: ≥ 10×)", P.alpha[#P.alpha], a100, a100 / c1[j1]),
         a100 >= 10 * c1[j1])
end
local bests = {}
for i, r in ipairs(alt) do bests[i] = string.format("H = T/%d: %dh", r.N, r.best) end
local same = true
for _, r in ipairs(alt) do
  local i0, i1
  for i, a in ipairs(P.alpha) do if a == best then i0 = i end; if a == r.best then i1 = i end end
  same = same and math.abs(i0 - i1) <= 1
end
if #alt > 0 and not one_alpha then
  cl:add("optimum_independent_of_H", "the optimal η is almost independent of H", pub.optimum_independent_of_H,
         string.format("optimum at H = T/%d: %dh; %s (accept: the same or the neighbouring α)", P.N, best, table.concat(bests, ", ")), same)
else
  cl:add("optimum_independent_of_H", "the optimal η is almost independent of H", pub.optimum_independent_of_H,
         one_alpha or E.na("no other H (N_alt): nothing to compare"))
end
if #P.h >= 2 and not one_alpha then
  local flat, parts = true, {}
  for k = 2, #P.h do
    local lo, hi = math.huge, 0
    for i, a in ipairs(P.alpha) do
      if a <= 50 then lo, hi = math.min(lo, curves[k][i]), math.max(hi, curves[k][i]) end
    end
    parts[#parts + 1] = string.format("h = %g: max/min %.2f up to 50h, minimum at %dh", P.h[k], hi / lo, P.alpha[argmin(curves[k])])
    flat = flat and hi / lo <= 1.5
  end
  local longer = P.alpha[argmin(curves[2])] >= best
  cl:add("smaller_h_longer_eta", "as h decreases, longer windows give better results", pub.smaller_h_longer_eta,
         table.concat(parts, "; ") .. " (notes: flat within ×1.5 up to 50h for h ≤ 1e-6; the optimum moves to longer η)", flat and longer)
else
  cl:add("smaller_h_longer_eta", "as h decreases, longer windows give better results", pub.smaller_h_longer_eta,
         one_alpha or E.na("one micro step h in this run: nothing to compare"))
end
local head, body = { "h \\ α" }, {}
for _, a in ipairs(P.alpha) do head[#head + 1] = tostring(a) end
for k, h in ipairs(P.h) do
  local r = { string.format("%g", h) }
  for _, e in ipairs(curves[k]) do r[#r + 1] = string.format("%.2e", e) end
  body[#body + 1] = r
end
top.write_claims(sc, cl, string.format("**Errors in ξ₃** at H = T/%d (max over t_n = nH):\n\n", P.N) .. S.md_table(head, body), nil)
local hs = {}
for i, h in ipairs(P.h) do hs[i] = h end
sc:figure("top-fig14", { omega = P.omega, N = P.N, hs = hs })
