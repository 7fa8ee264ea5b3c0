-- ### Figure 6.7: spring ring, energy, trapezoidal-midpoint, ΔT = 0.01
--
-- **Question.** With V by the "trapezoidal" rule and W by the midpoint rule (Theorem 3.4), are the
-- oscillations of the total energy visible (unlike Figure 6.6) but decreasing "with an increase in
-- p", around a constant value (no energy gained or lost)?
--
-- **Method.** The spring-ring experiments above with V by the left rectangle rule (α_V = γ_V = 1,
-- the "trapezoidal" rule of §6) and W by the midpoint rule, p ∈ {1, 5, 10}; the claims are decided as
-- for Figure 6.6.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local V = require "kapitza.papers.vmi_claims"

local sc = S.new {
  id = "vmi-fig6.7",
  title = "Ober-Bloebaum et al. Fig. 6.7: spring-ring energy, trapezoidal-midpoint, dT = 0.01",
  params = V.spring_ring_params("TM"),
  quick = { T = 5 },
  work = function(P) return V.work_runs(P.p, P.T, P.dT) * 3, "force evaluations" end,
}
local P = sc:parse(arg)

-- Sweep over p, data, energy-error table, the claims of Sec. 6.1 and the figure (lib/lua/kapitza/vmi.lua).
V.spring_ring_energy(sc, P)
