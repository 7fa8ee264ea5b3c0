-- ### Figure 6.3: FPU, stiff-spring energies, midpoint-midpoint, ΔT = 0.3
--
-- **Question.** Does the midpoint-midpoint integrator (Theorem 3.3) keep I = I₁ + I₂ + I₃ an
-- adiabatic invariant while the energy moves from the first stiff spring to the others, with an
-- amplitude of I that does "not change with p" and an exchange that speeds up as p grows with ΔT
-- fixed (as single-rate midpoint does when its step is decreased)?
--
-- **Method.** The FPU experiments above with the midpoint rule for V and W ((3.21)–(3.22),
-- γ_V = γ_W = ½ in (4.8)), ΔT = 0.3. The amplitude is the range of I over the run (its ratio to
-- p = 1 within [0.5, 2]); the speed of the exchange is measured by the mean of I₁ over the last 5 %
-- of the run (it must fall as p grows) and, for the table, the first time I₂ exceeds 0.3.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-fig6.3",
  title = "Ober-Bloebaum et al. Fig. 6.3: FPU stiff-spring energies, midpoint-midpoint, dT = 0.3",
  params = V.keys({
    V.scheme_param("MM"),
    { "dT", 0.3, "", "macro step (time units of the FPU model)", positive = true, max = 10 },
    { "p", { 1, 5, 10 }, "", "micro steps per macro step (list; one column of panels each)", integer = true, min = 1, max = 10000 },
    { "T", 200, "", "final time (N = ceil(T/dT) steps)", positive = true, max = 1e5 },
    { "tol", 1e-9, "", "Newton tolerance (max-norm residual, momentum units)", positive = true, max = 1 },
  }, V.fpu_params()),
  quick = { T = 50 },
  work = function(P) return V.work_runs(P.p, P.T, P.dT) * P.l / 3, "force evaluations" end,
}
local P = sc:parse(arg)

-- Sweep over p, data, table, the claims of Sec. 6.1 for Figs. 6.3-6.5 and the figure (lib/lua/kapitza/vmi.lua);
-- then what the text says of this figure.
V.fpu_exchange(sc, P, "exchange", function(cl, summary, cells)
  local faster, same = true, true
  for i, s in ipairs(summary) do
    if i > 1 then
      faster = faster and s.I1_mean_end < summary[i - 1].I1_mean_end
      local r = s.I_spread / summary[1].I_spread
      same = same and r >= 0.5 and r <= 2
    end
  end
  cl:add("amplitude_same", "for midpoint-midpoint the amplitude of the oscillations of I is not changing with p",
         "not changing", V.plist(P.p) .. cells(function(s) return string.format("%.3f", s.I_spread) end) ..
         " (range of I; accept: ratio to the first p within [0.5, 2])", V.one_p(P) or same)
  cl:add("exchange_faster", "the rate of the energy exchange increases with p (as single-rate midpoint with a smaller step)",
         "increasing", V.plist(P.p) .. cells(function(s) return string.format("%.3f", s.I1_mean_end) end) ..
         "; first time I₂ > 0.3: " .. cells(function(s) return s.t_I2_first < 0 and "never" or string.format("%.1f", s.t_I2_first) end) ..
         " (mean of I₁ over the last 5 % of the run; accept: strictly decreasing in p)", V.one_p(P) or faster)
end)
