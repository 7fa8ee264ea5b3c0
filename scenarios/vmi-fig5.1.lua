-- ### Figure 5.1: linear stability regions
--
-- **Question.** Lemma 5.1: for a non-split variable interpolated linearly between macro nodes, with
-- its potential integrated on the micro grid, the harmonic oscillator is stable for
-- ω_s²ΔT² < 12p²/(p² + 2) with the trapezoidal rule (4 for p = 1, growing to 12) and for
-- ω_s²ΔT² < 12p²/(p² − 1) with the midpoint rule (unconditional for p = 1, decreasing to 12). Do the
-- implemented schemes have exactly these bounds, do the bounds the text states follow, and is the
-- choice of rule of "negligible impact on the linear stability" for p ≳ 10?
--
-- **Method.** L = ½q̇² − ½ω_s²q² (5.1), a single slow variable, no fast one. The trapezoidal scheme
-- is (3.34)–(3.35) with α_V = ½ (the bound does not depend on α_V; the specs check α_V ∈ {0, ½, 1}),
-- the midpoint scheme (3.23)–(3.24). For p = 1..10 the propagation matrix P of (5.2) is assembled
-- from one step of the C integrator applied to (1, 0) and (0, 1), and the stability bound is located
-- by bisection on the spectral radius ρ(P) (unstable when ρ > 1 + 10⁻⁹), then compared with Lemma
-- 5.1; ρ is also reported at 0.99 and 1.01 times each bound. "Negligible impact" is read as the two
-- rules' bounds on ω_sΔT differing by at most 2 % for every p ≥ 10, against more than 5 % for p ≤ 5.
-- The map colours the level sets f_trap = ω_s²ΔT²/12 + ω_s²Δt²/6 (left) and
-- f_mid = (ω_s²ΔT² − ω_s²Δt²)/12 (right) below 1 over the plane (ω_sΔT, ω_sΔt), Δt ≤ ΔT, as bands
-- between level curves sampled finely enough to be smooth; the level-1 curve (black) is the
-- stability boundary; each ratio line ω_sΔt = ω_sΔT/p (p of `lines`) runs to it, and the vertical
-- line there is that p's bound. The bounds the text states are overlaid (open circles).
--
-- **Readings.** (5.1) lacks the ½ on the potential; the printed matrices of (5.2) correspond to
-- ½ω_s²q² (checked entry by entry in the specs). "ω_s²ΔT² − ω_s²Δt < 12" should read Δt². The text's
-- "for p ≥ 3, ω_sΔT can be at most √12" is loose (errata register): the midpoint bound at p = 3 is
-- √13.5 ≈ 3.674 and only tends to √12 ≈ 3.464; √12 holds as a bound valid for every p ≥ 3. The
-- axes and colour map of the figure are not given; the layout follows the caption.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local V = require "kapitza.vmi"

local sc = S.new {
  id = "vmi-fig5.1",
  title = "Ober-Bloebaum et al. Fig. 5.1 and Lemma 5.1: linear stability of the multirate schemes",
  params = {
    { "pmax", 10, "", "bounds tabulated for p = 1..pmax", integer = true, min = 1, max = 1000 },
    { "xmax", 4.5, "", "extent of the map in omega_s dT (and omega_s dt)", positive = true, min = 0.5, max = 20 },
    { "n", 200, "", "map resolution: samples of omega_s dT (plus refinements at the level curves' ends)", integer = true, min = 10, max = 5000 },
    { "levels", 10, "", "number of coloured level sets (values k/levels, k = 1..levels)", integer = true, min = 1, max = 50 },
    { "lines", { 1, 2, 3, 5, 10 }, "", "p of the ratio lines and bound lines drawn (list)", integer = true, min = 1, max = 1000 },
  },
  quick = { pmax = 3, n = 40 },
  -- the bisections for p = 1..pmax (about 3e3 p^2 evaluations in all, measured) and the fixed checks
  -- of the text at p up to 50 (about 9e6)
  work = function(P) return 9e6 + 3e3 * P.pmax * P.pmax, "force evaluations" end,
}
local P = sc:parse(arg)
local schemes = { trap = "TMh", mid = "MM" }
local sqrt12 = math.sqrt(12)

local function rho(kind, x, p) return V.spectral_radius(V.propagation(schemes[kind], 1, x, p)) end
local function numeric_bound(kind, p) -- smallest omega_s dT with rho > 1 + 1e-9 (scan to 20, then bisect)
  return V.first_unstable(function(x) return rho(kind, x, p) > 1 + 1e-9 end, 0.01, 20)
end

-- The bounds for p = 1..pmax: Lemma 5.1 beside the implemented schemes.
local rows, md = {}, {}
sc:progress_start(P.pmax)
for p = 1, P.pmax do
  local r = { p = p, bound_trap = math.sqrt(V.bound_trap(p)), bound_mid = math.sqrt(V.bound_mid(p)) }
  r.numeric_trap, r.numeric_mid = numeric_bound("trap", p), numeric_bound("mid", p)
  r.rho_trap_below, r.rho_trap_above = rho("trap", 0.99 * r.bound_trap, p), rho("trap", 1.01 * r.bound_trap, p)
  if p > 1 then
    r.rho_mid_below, r.rho_mid_above = rho("mid", 0.99 * r.bound_mid, p), rho("mid", 1.01 * r.bound_mid, p)
  else
    r.bound_mid, r.rho_mid_below, r.rho_mid_above = 1e300, rho("mid", 100, 1), rho("mid", 100, 1)
    if r.numeric_mid == math.huge then r.numeric_mid = 1e300 end
  end
  rows[#rows + 1] = r
  local function agree(a, b) return (a == b or math.abs(a - b) < 1e-8 * a) and "" or " **✗**" end
  md[#md + 1] = { tostring(p), string.format("%.6f", r.bound_trap), string.format("%.6f%s", r.numeric_trap, agree(r.numeric_trap, r.bound_trap)),
    string.format("%.12f / %.4f", r.rho_trap_below, r.rho_trap_above),
    p == 1 and "∞" or string.format("%.6f", r.bound_mid),
    p == 1 and (r.numeric_mid >= 1e300 and "∞ (stable up to ω_sΔT = 20)" or string.format("%.6f **✗**", r.numeric_mid))
      or string.format("%.6f%s", r.numeric_mid, agree(r.numeric_mid, r.bound_mid)),
    p == 1 and string.format("%.12f at ω_sΔT = 100", r.rho_mid_below) or string.format("%.12f / %.4f", r.rho_mid_below, r.rho_mid_above) }
  sc:progress("p = " .. p)
end
sc:write_tsv("tables/" .. sc.id .. ".tsv", { "p", "bound_trap", "numeric_trap", "rho_trap_below", "rho_trap_above",
  "bound_mid", "numeric_mid", "rho_mid_below", "rho_mid_above" }, rows,
  { "bounds on omega_s dT: Lemma 5.1 (bound_*) and located by bisection on the implemented scheme (numeric_*);",
    "rho_*_below/above: spectral radius of the propagation matrix at 0.99 / 1.01 x bound; 1e300 = unbounded" })
sc:write_text("tables/" .. sc.id .. ".md", S.md_table(
  { "p", "trap.: √(12p²/(p²+2))", "trap.: implemented", "trap.: ρ at 0.99 / 1.01 × bound",
    "mid.: √(12p²/(p²−1))", "mid.: implemented", "mid.: ρ at 0.99 / 1.01 × bound" }, md) ..
  string.format("\n√12 = %.6f: the supremum of the trapezoidal bound and the infimum of the midpoint bound.\n", sqrt12))

-- The claims: Lemma 5.1 on the implemented schemes, the bounds stated in the text
-- (paper/reference/vmi-fig5.1.tsv), and "p >~ 10: the rule hardly matters". A bound of the linear
-- test equation holds at any parameters of a problem: no premise but the p it is tabulated at.
local cl = E.claims(sc)
local why = "a bound of the linear test equation (Lemma 5.1), a property of the scheme at every p"
local function lemma_t(r) return math.abs(r.numeric_trap - r.bound_trap) < 1e-8 * r.bound_trap and r.rho_trap_below <= 1 + 1e-9 and r.rho_trap_above > 1 + 1e-9 end
local function lemma_m(r)
  if r.p == 1 then return r.numeric_mid >= 1e300 and r.rho_mid_below <= 1 + 1e-9 end
  return math.abs(r.numeric_mid - r.bound_mid) < 1e-8 * r.bound_mid and r.rho_mid_below <= 1 + 1e-9 and r.rho_mid_above > 1 + 1e-9
end
local function items(f, from)
  local t = {}
  for _, r in ipairs(rows) do if r.p >= (from or 1) then t[#t + 1] = { ok = f(r), label = "p = " .. r.p } end end
  return t
end
cl:claim { key = "lemma51_trap", text = "Lemma 5.1, trapezoidal rule: stable iff ω_s²ΔT² < 12p²/(p² + 2)", published = "12p²/(p² + 2)", any = why,
  judge = function()
    return { measured = E.T("implemented bound = Lemma 5.1 to %v for p = %d..%d; ρ ≤ %v + %v at %v ×, > %v + %v at %v × the bound", 1e-8, 1, P.pmax, 1, 1e-9, 0.99, 1, 1e-9, 1.01),
             items = items(lemma_t), what = "values of p" }
  end }
cl:claim { key = "lemma51_mid", text = "Lemma 5.1, midpoint rule: stable iff ω_s²ΔT² < 12p²/(p² − 1), unconditionally for p = 1", published = "12p²/(p² − 1)", any = why,
  judge = function()
    -- (p = 2..pmax only where pmax >= 2: a run with pmax = 1 has the unconditional p = 1 alone)
    local head = P.pmax >= 2 and E.T("implemented bound = Lemma 5.1 to %v for p = %d..%d, ", 1e-8, 2, P.pmax) or E.T("")
    return { measured = head .. E.T("p = %d stable up to ω_sΔT = %v (ρ = %.12f at %v)", 1, 20, rows[1].rho_mid_below, 100) ..
                        (P.pmax >= 2 and E.T("; ρ at %v / %v × as above", 0.99, 1.01) or E.T("")),
             items = items(lemma_m), what = "values of p" }
  end }
local last = rows[#rows]
cl:claim { key = "trap_grows", text = "trapezoidal: the stability region increases with p until the supremum √12", published = "increases to √12", any = why,
  premises = { E.at_least(P.pmax, 2, "values of p (pmax)") },
  judge = function()
    local it = {}
    for i = 2, #rows do it[#it + 1] = { ok = rows[i].numeric_trap > rows[i - 1].numeric_trap and rows[i].numeric_trap < sqrt12, label = "p = " .. rows[i].p } end
    return { measured = E.T("ω_sΔT bound %.4f (p = %d) … %.4f (p = %d), below √12 = %.4f", rows[1].numeric_trap, 1, last.numeric_trap, last.p, sqrt12),
             items = it, what = "steps in p" }
  end }
cl:claim { key = "mid_shrinks", text = "midpoint: the stability region decreases with p (for p ≥ 2) until the infimum √12", published = "decreases to √12", any = why,
  premises = { E.at_least(P.pmax, 3, "values of p (pmax; two from p = 2)") },
  judge = function()
    local it = {}
    for i = 3, #rows do it[#it + 1] = { ok = rows[i].numeric_mid < rows[i - 1].numeric_mid and rows[i].numeric_mid > sqrt12, label = "p = " .. rows[i].p } end
    return { measured = E.T("ω_sΔT bound %.4f (p = %d) … %.4f (p = %d), above √12 = %.4f", rows[2].numeric_mid, 2, last.numeric_mid, last.p, sqrt12),
             items = it, what = "steps in p" }
  end }
for _, r in ipairs(sc:reference()) do
  local kind = r.rule == "trapezoidal" and "trap" or "mid"
  local pp = r.p == 0 and 1000 or r.p
  -- a midpoint value below Lemma 5.1's own bound at its p is the text's "for p ≥ 3" (a bound meant for
  -- every larger p); one equal to it is that p's bound ("p = 2 ... at most 4")
  local every = kind == "mid" and r.p > 0 and r.bound < math.sqrt(V.bound_mid(r.p)) * (1 - 1e-9)
  cl:claim { key = string.format("stated_%s_p%d", kind, r.p), text = string.format("§5: %s rule, %s: ω_sΔT at most %.4f", r.rule,
               r.p == 0 and "p → ∞" or (every and "p ≥ " or "p = ") .. r.p, r.bound), published = string.format("%.4f", r.bound), any = why,
    judge = function()
      local impl = numeric_bound(kind, pp)
      local it = { { ok = math.abs(impl - r.bound) <= 1e-3 * r.bound, label = E.show(pp) } }
      local m = E.T("implemented %.4f at p = %d (accept within %v %%)", impl, pp, 0.1)
      if every then -- stated for every p >= r.p: does it bound them all (the bound falls with p to its infimum)?
        local inf = numeric_bound(kind, 1000)
        it[1].label = "the value at p = " .. r.p
        it[#it + 1] = { ok = inf > r.bound * (1 - 1e-3), label = "a bound for every p ≥ " .. r.p }
        m = m .. E.T("; at p = %d it is %.4f: the printed value is the infimum over p ≥ %d, a bound valid for all of them", 1000, inf, r.p)
      end
      return { measured = m, items = it, what = "checks" }
    end }
end
cl:claim { key = "rule_negligible_p10", text = "for p ≳ 10 the choice of the trapezoidal or the midpoint rule has negligible impact on the linear stability",
  published = "negligible for p ≳ 10", any = why,
  judge = function()
    local it, cells = {}, {}
    for _, p in ipairs { 2, 3, 5, 10, 20, 50 } do
      local d = (numeric_bound("mid", p) - numeric_bound("trap", p)) / numeric_bound("trap", p)
      it[#it + 1] = { ok = p >= 10 and d <= 0.02 or (p < 10 and d > 0.05), label = "p = " .. p }
      cells[#cells + 1] = E.T("p = %d: %.2f %%", p, 100 * d)
    end
    return { measured = E.join(cells, ", ") .. E.T(" (relative difference of the two bounds on ω_sΔT; accept ≤ %v %% for p ≥ %v, > %v %% for p ≤ %v)", 2, 10, 5, 5),
             items = it, what = "values of p" }
  end }
cl:write(nil, sc.id .. "-claims")

-- The map: for each level c = k/levels the band below it, as the curve bounding {f < c} inside the
-- wedge dt <= dT: trapezoidal, omega_s dt from 0 to min(x, sqrt(6 (c - x^2/12))); midpoint, from
-- sqrt(max(0, x^2 - 12 c)) to x. x is sampled uniformly and refined towards the ends sqrt(12 c) of
-- the curves, where their slope is infinite.
local xs, seen = {}, {}
local function addx(x) if x >= 0 and x <= P.xmax and not seen[x] then seen[x] = true; xs[#xs + 1] = x end end
for i = 0, P.n do addx(P.xmax * i / P.n) end
for k = 1, P.levels do
  local x0 = math.sqrt(12 * k / P.levels)
  addx(x0)
  for j = 1, 12 do addx(x0 * (1 - S.pow10(-j / 2))); addx(x0 * (1 + S.pow10(-j / 2))) end
end
table.sort(xs)
local cols, map = { "x" }, {}
for k = 1, P.levels do cols[#cols + 1] = "trap" .. k end
for k = 1, P.levels do cols[#cols + 1] = "mid" .. k end
for i, x in ipairs(xs) do
  local r = { x = x }
  for k = 1, P.levels do
    local c = k / P.levels
    r["trap" .. k] = math.min(x, math.sqrt(math.max(0, 6 * (c - x * x / 12))))
    r["mid" .. k] = math.min(x, math.sqrt(math.max(0, x * x - 12 * c)))
  end
  map[i] = r
end
sc:write_tsv("data/" .. sc.id .. "-levels.tsv", cols, map,
             { "x = omega_s dT; trapK, midK: omega_s dt on the curve bounding {f < K/levels} inside dt <= dT",
               "(trapezoidal: the band is 0 <= y <= trapK; midpoint: midK <= y <= x); level 1 is the stability boundary" })
local lines = {}
for _, p in ipairs(P.lines) do
  local xm = p == 1 and P.xmax or math.min(P.xmax, math.sqrt(V.bound_mid(p)))
  lines[#lines + 1] = { p = p, x_trap = math.sqrt(V.bound_trap(p)), y_trap = math.sqrt(V.bound_trap(p)) / p,
                        x_mid = xm, y_mid = xm / p }
end
sc:write_tsv("data/" .. sc.id .. "-lines.tsv", { "p", "x_trap", "y_trap", "x_mid", "y_mid" }, lines,
             { "end points of the ratio lines omega_s dt = omega_s dT / p at the stability bound (vertical lines)" })
sc:figure(sc.id, { id = sc.id, xmax = P.xmax, levels = P.levels, lines = P.lines })
