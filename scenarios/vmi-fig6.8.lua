-- ### Figure 6.8: spring ring, energy, trapezoidal-trapezoidal, ΔT = 0.01
--
-- **Question.** With V and W by the "trapezoidal" rule (Theorem 3.5), are the energy oscillations
-- visible but decreasing with p, around a constant value, and do the three schemes order as the
-- paper's figures show them, the error growing from Figure 6.6 (MM) to 6.7 (TM) to 6.8 (TT)?
--
-- **Method.** The spring-ring experiments above with V and W by the left rectangle rule (α = γ = 1,
-- the "trapezoidal" rule of §6), p ∈ {1, 5, 10}; the claims are decided as for Figure 6.6, and MM and
-- TM are run again at each p to compare the largest |E − E₀|/E₀ of the three schemes.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local V = require "kapitza.papers.vmi_claims"

local sc = S.new {
  id = "vmi-fig6.8",
  title = "Ober-Bloebaum et al. Fig. 6.8: spring-ring energy, trapezoidal-trapezoidal, dT = 0.01",
  params = V.spring_ring_params("TT"),
  quick = { T = 5 },
  work = function(P) return V.work_runs(P.p, P.T, P.dT) * 9, "force evaluations" end,
}
local P = sc:parse(arg)

-- Sweep over p, data, energy-error table, the claims of Sec. 6.1 and the figure (lib/lua/kapitza/vmi.lua), with
-- MM and TM run at the same p for the ordering MM < TM < TT.
V.spring_ring_energy(sc, P, { "MM", "TM" })
