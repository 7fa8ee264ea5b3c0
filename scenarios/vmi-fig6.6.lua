-- ### Figure 6.6: spring ring, energy, midpoint-midpoint, ΔT = 0.01
--
-- **Question.** Does the midpoint-midpoint integrator (Theorem 3.3) keep the spring ring's total
-- energy a "straight line", its oscillations "several magnitudes smaller than the value of the
-- total energy" and smaller for larger p, with the error "oscillating around a constant value for
-- the whole simulation time" (no energy gained or lost)?
--
-- **Method.** The spring-ring experiments above with the midpoint rule for V and W, p ∈ {1, 5, 10}.
-- "Several orders of magnitude" is taken as a relative error below 10⁻²; no drift as means of
-- (E − E₀)/E₀ over the first and the last quarter of the run within a quarter of its range over
-- the run (a drift is a trend: one linear in t moves the mean by three quarters of the range).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local V = require "kapitza.papers.vmi_claims"

local sc = S.new {
  id = "vmi-fig6.6",
  title = "Ober-Bloebaum et al. Fig. 6.6: spring-ring energy, midpoint-midpoint, dT = 0.01",
  params = V.spring_ring_params("MM"),
  quick = { T = 5 },
  work = function(P) return V.work_runs(P.p, P.T, P.dT) * 3, "force evaluations" end,
}
local P = sc:parse(arg)

-- Sweep over p, data, energy-error table, the claims of Sec. 6.1 and the figure (lib/lua/kapitza/vmi.lua).
V.spring_ring_energy(sc, P)
