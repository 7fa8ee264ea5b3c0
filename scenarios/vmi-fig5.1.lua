-- ### Figure 5.1: linear stability regions
--
-- **Question.** Lemma 5.1: for a non-split variable interpolated linearly between macro nodes, with its
-- potential integrated on the micro grid, the harmonic oscillator is stable for
-- ω_s²ΔT² < 12p²/(p² + 2) with the trapezoidal rule (4 for p = 1, growing to 12) and for
-- ω_s²ΔT² < 12p²/(p² − 1) with the midpoint rule (unconditional for p = 1, decreasing to 12). Do the
-- implemented schemes have exactly these bounds?
--
-- **Method.** L = ½q̇² − ½ω_s²q² (5.1), a single slow variable, no fast one. The trapezoidal scheme is
-- (3.34)–(3.35) with α_V = ½ (the bound does not depend on α_V; the specs check α_V ∈ {0, ½, 1}), the
-- midpoint scheme (3.23)–(3.24). For p = 1..10 the propagation matrix P of (5.2) is assembled from one
-- step of the C integrator applied to (1, 0) and (0, 1), and the stability bound is located by
-- bisection on the spectral radius ρ(P) (unstable when ρ > 1 + 10⁻⁹), then compared with Lemma 5.1;
-- ρ is also reported at 0.99 and 1.01 times each bound. The map shows the level sets
-- f_trap = ω_s²ΔT²/12 + ω_s²Δt²/6 (left) and f_mid = (ω_s²ΔT² − ω_s²Δt²)/12 (right) below 1 over the
-- plane (ω_sΔT, ω_sΔt), Δt ≤ ΔT, with the ratio lines ω_sΔt = ω_sΔT/p and the vertical bound lines for
-- p ∈ {1, 2, 3, 5, 10}.
--
-- **Readings.** (5.1) lacks the ½ on the potential; the printed matrices of (5.2) correspond to
-- ½ω_s²q² (checked entry by entry in the specs). "ω_s²ΔT² − ω_s²Δt < 12" should read Δt². The text's
-- "for p ≥ 3, ω_sΔT can be at most √12" is loose: the midpoint bound at p = 3 is √13.5 ≈ 3.674 and
-- only tends to √12 ≈ 3.464. The axes and colour map of the figure are not given; the layout follows
-- the caption.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local V = require "vmi"

local sc = S.new {
  id = "vmi-fig5.1",
  title = "Ober-Bloebaum et al. Fig. 5.1 and Lemma 5.1: linear stability of the multirate schemes",
  params = {
    { "pmax", 10, "", "bounds tabulated for p = 1..pmax", integer = true, min = 1, max = 1000 },
    { "xmax", 4.5, "", "extent of the map in omega_s dT", positive = true },
    { "n", 60, "", "map resolution (n x n cells)", integer = true, min = 4, max = 1000 },
  },
  quick = { pmax = 3, n = 20 },
}
local P = sc:parse(arg)
local schemes = { trap = "TMh", mid = "MM" }

local function rho(kind, x, p) return V.spectral_radius(V.propagation(schemes[kind], 1, x, p)) end
local function numeric_bound(kind, p) -- smallest omega_s dT with rho > 1 + 1e-9 (scan, then bisect)
  local lo, hi = 0, nil
  for x = 0.01, 20, 0.01 do
    if rho(kind, x, p) > 1 + 1e-9 then hi = x break end
    lo = x
  end
  if not hi then return math.huge end
  for _ = 1, 60 do
    local m = 0.5 * (lo + hi)
    if rho(kind, m, p) > 1 + 1e-9 then hi = m else lo = m end
  end
  return 0.5 * (lo + hi)
end

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
  string.format("\n√12 = %.6f: the supremum of the trapezoidal bound and the infimum of the midpoint bound. " ..
                "The text's \"for p ≥ 3, ω_sΔT can be at most √12\" (midpoint) is loose: the bound at p = 3 is %.4f.\n",
                math.sqrt(12), math.sqrt(V.bound_mid(3))))

-- The bounds stated in the text (paper/reference/vmi-fig5.1.tsv) beside the implemented scheme.
local stated = {}
for _, r in ipairs(sc:reference()) do
  local kind = r.rule == "trapezoidal" and "trap" or "mid"
  local impl = r.p == 0 and numeric_bound(kind, 1000) or numeric_bound(kind, r.p)
  local lemma = r.p == 0 and math.sqrt(12) or math.sqrt(kind == "trap" and V.bound_trap(r.p) or V.bound_mid(r.p))
  local ok = math.abs(impl - r.bound) <= 1e-3 * r.bound
  stated[#stated + 1] = { r.rule, r.p == 0 and "p → ∞ (p = 1000)" or tostring(r.p), string.format("%.4f", r.bound),
                          string.format("%.4f", lemma), string.format("%.4f", impl),
                          ok and "yes" or "**no** (the statement is loose; Lemma 5.1 holds)" }
end
sc:write_text("tables/" .. sc.id .. "-stated.md", "Bounds on ω_sΔT stated in the text of §5, beside Lemma 5.1 and the implemented schemes:\n\n" ..
  S.md_table({ "rule", "p", "stated", "Lemma 5.1", "implemented", "agrees (0.1 %)" }, stated))

-- The level-set map and the guide lines for the figure.
local map = {}
for i = 0, P.n do
  for j = 0, P.n do
    local x, y = P.xmax * i / P.n, P.xmax * j / P.n
    map[#map + 1] = { x = x, y = y, f_trap = x * x / 12 + y * y / 6, f_mid = (x * x - y * y) / 12 }
  end
  map[#map + 1] = {} -- blank line between scans (gnuplot grid format)
end
local text = { S.tsv({ "x", "y", "f_trap", "f_mid" }, {}, { "x = omega_s dT, y = omega_s dt; level-set functions of Sec. 5" }) }
for _, r in ipairs(map) do
  text[#text + 1] = r.x and string.format("%s\t%s\t%s\t%s\n", S.fmt(r.x), S.fmt(r.y), S.fmt(r.f_trap), S.fmt(r.f_mid)) or "\n"
end
sc:write_text("data/" .. sc.id .. "-map.tsv", table.concat(text))
local lines = {}
for _, p in ipairs { 1, 2, 3, 5, 10 } do
  lines[#lines + 1] = { p = p, x_trap = math.sqrt(V.bound_trap(p)), y_trap = math.sqrt(V.bound_trap(p)) / p,
                        x_mid = p == 1 and P.xmax or math.min(P.xmax, math.sqrt(V.bound_mid(p))),
                        y_mid = (p == 1 and P.xmax or math.min(P.xmax, math.sqrt(V.bound_mid(p)))) / p }
end
sc:write_tsv("data/" .. sc.id .. "-lines.tsv", { "p", "x_trap", "y_trap", "x_mid", "y_mid" }, lines,
             { "end points of the ratio lines omega_s dt = omega_s dT / p at the stability bound (vertical lines)" })
