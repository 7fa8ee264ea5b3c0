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
local E = require "kapitza.experiment"
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
  local first = V.by_p(summary)[1]
  cl:claim { key = "amplitude_same", text = "for midpoint-midpoint the amplitude of the oscillations of I is not changing with p",
    published = "not changing", any = "a property of the midpoint rule at any step in its stability region", premises = { V.two_p(P), V.scheme_in(P, { "MM" }, "the midpoint-midpoint scheme") },
    judge = function()
      local items = {}
      for _, s in ipairs(V.by_p(summary)) do
        if s ~= first then
          local r = s.I_spread / first.I_spread
          items[#items + 1] = { ok = r >= 0.5 and r <= 2, label = "p = " .. s.p }
        end
      end
      return { measured = V.plist(P.p) .. cells(function(s) return E.T("%.3f", s.I_spread) end) ..
                 E.T(" (range of I; accept: ratio to the smallest p, %d, within [%v, %v])", first.p, 0.5, 2), items = items, what = "values of p" }
    end }
  cl:claim { key = "exchange_faster", text = "the rate of the energy exchange increases with p (as single-rate midpoint with a smaller step)",
    published = "increasing", any = "the FPU chain's energy exchange, on the time scale ω, at any ω ≫ 1",
    premises = { V.two_p(P), V.scheme_in(P, { "MM" }, "the midpoint-midpoint scheme"), V.stiff(P), V.spans_exchange(P) },
    judge = function()
      return { measured = V.plist(P.p) .. cells(function(s) return E.T("%.3f", s.I1_mean_end) end) ..
                 "; first time I₂ > " .. E.T("%v: ", 0.3) .. cells(function(s) return s.t_I2_first < 0 and "never" or E.T("%.1f", s.t_I2_first) end) ..
                 E.T(" (mean of I₁ over the last %v %% of the run; accept: strictly decreasing in p)", 5),
               items = V.pair_items(summary, function(a, b) return b.I1_mean_end < a.I1_mean_end end), what = "steps in p" }
    end }
end)
