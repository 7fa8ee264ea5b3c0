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
-- within 20 time units of t = 150 (`paper/reference/vmi-fig6.4.tsv`) with E₂ < 0.05. A window's
-- start is off the return by up to a window, so `window` must be at most half of that distance.
--
-- **Readings.** §6 says that its "trapezoidal" schemes use the left rectangle rule
-- ({α_V, γ_V} ∈ {0, 1}, γ_V = α_V): the caption's "trapezoidal-midpoint" is that variant (errata
-- register); `scheme=TMh` runs the α = ½ trapezoid.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
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
  -- the printed return times are the figure's, at the paper's parameters; the return is an event
  -- that the run must contain (its time and the window after it inside [0, T])
  local pub, latest = {}, 0
  for _, r in ipairs(sc:reference()) do pub[r.p] = r.t_return; latest = math.max(latest, r.t_return) end
  local at, near = E.paper_at(sc, { "omega", "l", "dT", "scheme", "tol" }), 20 -- "around t = 150": within 20
  cl:claim { key = "I2_zero_at_150", text = "the energy of the second spring is zero always around t = 150, for every p", published = "t ≈ 150",
    at = at, premises = { V.return_window(P, near), E.inside(latest + P.window, P.T, "the printed return and the window after it") },
    judge = function()
      local items = {}
      for _, s in ipairs(summary) do
        if pub[s.p] then
          items[#items + 1] = { ok = math.abs(s.t_I2_return - pub[s.p]) <= near and s.E2_return < 0.05 and s.E2_return >= 0, label = "p = " .. s.p }
        end
      end
      return { measured = V.plist(P.p) .. cells(function(s) return E.T("t = %v (%.3f)", s.t_I2_return, s.E2_return) end) ..
                 E.T(" (start of the window of smallest E₂ after its first peak, and E₂ there; accept: within %v of the printed t, E₂ < %v)", near, 0.05),
               items = items, what = "printed p" }
    end }
  V.amplitude_decreases(cl, summary, cells, P)
end)
