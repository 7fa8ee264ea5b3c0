-- ### Figure 6.13: FPU, trapezoidal-midpoint, errors split slow/fast versus ΔT
--
-- **Question.** Split on the macro nodes into slow and fast parts: are the slow errors (q^s, p^s) of
-- order one, and do the fast errors (q^f, p^f) first fall quadratically until the slow error reaches
-- them through the coupling potential V and then linearly?
--
-- **Method.** The convergence study above on the FPU with the trapezoidal-midpoint scheme, the
-- macro-node errors of the slow part (q_kˢ, p_kˢ) and of the fast part (q_kᶠ,⁰, p_kᶠ,⁰) apart.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local V = require "kapitza.papers.vmi_convergence"

-- What the text claims: slow errors of order one, fast errors of order two and then one.
local fig = {
  id = "vmi-fig6.13",
  title = "Ober-Bloebaum et al. Fig. 6.13: FPU, trapezoidal-midpoint, slow/fast, errors versus dT",
  problem = "FPU", scheme = "TM", kind = "split",
  claims = {
    { "slow_q_order1", "slow q^s: order 1", col = "qs", kind = "order", order = 1 },
    { "slow_p_order1", "slow p^s: order 1", col = "ps", kind = "order", order = 1 },
    { "fast_q_2_to_1", "fast q^f: order 2, then 1 (the slow error through V)", col = "qf", kind = "transition", from = 2, to = 1 },
    { "fast_momentum_2_to_1", "fast p^f: order 2, then 1", col = "pf", kind = "transition", from = 2, to = 1 },
  },
}
local sc = V.convergence_new(fig)
V.convergence_run(sc, sc:parse(arg), fig)
