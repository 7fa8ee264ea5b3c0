-- ### Figure 6.4: FPU, stiff-spring energies, trapezoidal-midpoint, ΔT = 0.3
--
-- **Question.** With V integrated by the "trapezoidal" rule and W by the midpoint rule
-- (Theorem 3.4), is the time at which the second spring's energy I₂ returns to zero "always around
-- t = 150 for all three values of p", and does the amplitude of the oscillations of I decrease as p
-- grows (smaller Δt)?
--
-- **Method.** The FPU experiments above with V by the left rectangle rule (α_V = γ_V = 1 in (4.8);
-- (3.34)–(3.39) with α_V = 1) and W by the midpoint rule (γ_W = ½), ΔT = 0.3. The fast part is then
-- the kick–oscillate scheme (3.36)–(3.38) and the step is first order (Lemma 4.5). "Zero around
-- t = 150" is tested on the envelope of I₂ (its nodal values oscillate quickly): E₂(t₀) = max of I₂
-- over [t₀, t₀ + 5); after the first window with E₂ > 0.3, the window with the smallest E₂ must start
-- within 20 time units of t = 150 (`paper/reference/vmi-fig6.4.tsv`) with E₂ < 0.05.
--
-- **Readings.** §6 says that its "trapezoidal" schemes use the left rectangle rule
-- ({α_V, γ_V} ∈ {0, 1}, γ_V = α_V): the caption's "trapezoidal-midpoint" is that variant (errata
-- register); `scheme=TMh` runs the α = ½ trapezoid.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-fig6.4",
  title = "Ober-Bloebaum et al. Fig. 6.4: FPU stiff-spring energies, trapezoidal-midpoint, dT = 0.3",
  params = V.keys({
    V.scheme_param("TM"),
    { "dT", 0.3, "", "macro step", positive = true, max = 10 },
    { "p", { 1, 5, 10 }, "", "micro steps per macro step (list; one column of panels each)", integer = true, min = 1, max = 10000 },
    { "T", 200, "", "final time (N = ceil(T/dT) steps)", positive = true, max = 1e5 },
    { "tol", 1e-9, "", "Newton tolerance (max-norm residual, momentum units)", positive = true, max = 1 },
    { "window", 5, "", "window length of the I2 envelope", positive = true, max = 1e4 },
  }, V.fpu_params()),
  quick = { T = 50 },
  work = function(P) return V.work_runs(P.p, P.T, P.dT) * P.l / 3, "force evaluations" end,
}
local P = sc:parse(arg)

-- Sweep over p, data, table, the claims of Sec. 6.1 for Figs. 6.3-6.5 and the figure (lib/lua/kapitza/vmi.lua);
-- then what the text says of this figure.
V.fpu_exchange(sc, P, "return", function(cl, summary, cells)
  local pub = {}
  for _, r in ipairs(sc:reference()) do pub[r.p] = r.t_return end
  local near150, shrinks = true, true
  for i, s in ipairs(summary) do
    local t0 = pub[s.p] or 150 -- the text: "always around t = 150"
    near150 = near150 and math.abs(s.t_I2_return - t0) <= 20 and s.E2_return < 0.05
    if i > 1 then shrinks = shrinks and s.I_spread < summary[i - 1].I_spread end
  end
  cl:add("I2_zero_at_150", "the energy of the second spring is zero always around t = 150, for every p", "t ≈ 150",
         V.plist(P.p) .. cells(function(s) return string.format("t = %g (%.3f)", s.t_I2_return, s.E2_return) end) ..
         " (start of the window of smallest E₂ after its first peak, and E₂ there; accept: within 20 of 150, E₂ < 0.05)", near150)
  cl:add("amplitude_decreases", "the amplitude of the oscillations of I decreases as p grows (smaller Δt)", "decreases",
         V.plist(P.p) .. cells(function(s) return string.format("[%.3f, %.3f]", s.I_min, s.I_max) end) ..
         " (range of I; accept: strictly shrinking in p)", V.one_p(P) or shrinks)
end)
