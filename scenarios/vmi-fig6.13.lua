-- ### Figure 6.13: FPU, trapezoidal-midpoint, errors split slow/fast versus ΔT
--
-- **Question.** Split on the macro nodes into slow and fast parts: are the slow errors (q^s, p^s) of
-- order one, and do the fast errors (q^f, p^f) first fall quadratically until the slow error reaches
-- them through the coupling potential V and then linearly?
--
-- **Method.** The convergence study above on the FPU with the trapezoidal-midpoint scheme, the
-- macro-node errors of the slow part (q_kˢ, p_kˢ) and of the fast part (q_kᶠ,⁰, p_kᶠ,⁰) apart.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local V = require "vmi"

local sc = S.new {
  id = "vmi-fig6.13",
  title = "Ober-Bloebaum et al. Fig. 6.13: FPU, trapezoidal-midpoint, slow/fast, errors versus dT",
  params = V.convergence_params("FPU"),
  quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 },
  work = V.convergence_work,
}
local P = sc:parse(arg)
V.convergence_check(sc, P)

-- What the text claims: slow errors of order one, fast errors of order two and then one.
V.convergence_scenario(sc, P, "FPU", "TM", {
  { "slow_q_order1", "slow q^s: order 1", col = "qs", kind = "order", order = 1 },
  { "slow_p_order1", "slow p^s: order 1", col = "ps", kind = "order", order = 1 },
  { "fast_q_2_to_1", "fast q^f: order 2, then 1 (the slow error through V)", col = "qf", kind = "transition", from = 2, to = 1 },
  { "fast_p_2_to_1", "fast p^f: order 2, then 1", col = "pf", kind = "transition", from = 2, to = 1 },
}, "split")
