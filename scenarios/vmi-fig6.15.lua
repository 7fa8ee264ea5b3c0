-- ### Figure 6.15: spring ring, trapezoidal-midpoint, errors split slow/fast versus ΔT
--
-- **Question.** Split on the macro nodes into slow and fast parts: do the slow errors converge with
-- order one, and do the fast errors start with order two and change to one (the coupling potential),
-- so that the macro-node order of q and p is one?
--
-- **Method.** The convergence study above on the spring ring with the trapezoidal-midpoint scheme,
-- the macro-node errors of the slow and the fast part apart.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local V = require "kapitza.papers.vmi_convergence"

-- What the text claims: slow errors of order one, fast errors of order two and then one.
local fig = {
  id = "vmi-fig6.15",
  title = "Ober-Bloebaum et al. Fig. 6.15: spring ring, trapezoidal-midpoint, slow/fast, errors versus dT",
  problem = "SR", scheme = "TM", kind = "split",
  claims = {
    { "slow_q_order1", "slow q^s: order 1", col = "qs", kind = "order", order = 1 },
    { "slow_p_order1", "slow p^s: order 1", col = "ps", kind = "order", order = 1 },
    { "fast_q_2_to_1", "fast q^f: order 2, changing to 1", col = "qf", kind = "transition", from = 2, to = 1 },
    { "fast_momentum_2_to_1", "fast p^f: order 2, changing to 1", col = "pf", kind = "transition", from = 2, to = 1 },
  },
}
local sc = V.convergence_new(fig)
V.convergence_run(sc, sc:parse(arg), fig)
