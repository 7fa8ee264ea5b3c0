-- ### Figure 6.15: spring ring, trapezoidal-midpoint, errors split slow/fast versus ΔT
--
-- **Question.** Split on the macro nodes into slow and fast parts: do the slow errors converge with
-- order one, and do the fast errors start with order two and change to one (the coupling potential),
-- so that the macro-node order of q and p is one?
--
-- **Method.** The convergence study above on the spring ring with the trapezoidal-midpoint scheme,
-- the macro-node errors of the slow and the fast part apart.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local V = require "vmi"

local sc = S.new {
  id = "vmi-fig6.15",
  title = "Ober-Bloebaum et al. Fig. 6.15: spring ring, trapezoidal-midpoint, slow/fast, errors versus dT",
  params = V.convergence_params("SR"),
  quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 },
  work = V.convergence_work,
}
local P = sc:parse(arg)
V.convergence_check(sc, P)

-- What the text claims: slow errors of order one, fast errors of order two and then one.
V.convergence_scenario(sc, P, "SR", "TM", {
  { "slow_q_order1", "slow q^s: order 1", col = "qs", kind = "order", order = 1 },
  { "slow_p_order1", "slow p^s: order 1", col = "ps", kind = "order", order = 1 },
  { "fast_q_2_to_1", "fast q^f: order 2, changing to 1", col = "qf", kind = "transition", from = 2, to = 1 },
  { "fast_p_2_to_1", "fast p^f: order 2, changing to 1", col = "pf", kind = "transition", from = 2, to = 1 },
}, "split")
