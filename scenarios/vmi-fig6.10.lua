-- ### Figure 6.10: FPU, midpoint-midpoint, errors versus ΔT
--
-- **Question.** Is the midpoint-midpoint scheme (midpoint rule for V and W, Theorem 3.3) of order 2
-- in q and p on macro and micro nodes, with the micro-node errors equal to the macro-node ones
-- ("only solid lines are visible")?
--
-- **Method.** The convergence study above on the FPU with the midpoint-midpoint scheme. "Equal" is
-- e^mic/e^mac within [0.9, 1.1] over the 4 smallest ΔT, for q and for p.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-fig6.10",
  title = "Ober-Bloebaum et al. Fig. 6.10: FPU, midpoint-midpoint, errors versus dT",
  params = V.convergence_params("FPU"),
  quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 },
  work = V.convergence_work,
}
local P = sc:parse(arg)
V.convergence_check(sc, P)

-- What the text claims: order 2 in q and p on macro and micro nodes; micro errors equal to macro ones.
V.convergence_scenario(sc, P, "FPU", "MM", {
  { "order2_q_mac", "q on macro nodes: order 2", col = "q_mac", kind = "order", order = 2 },
  { "order2_p_mac", "p on macro nodes: order 2", col = "p_mac", kind = "order", order = 2 },
  { "order2_q_mic", "q^f on micro nodes: order 2", col = "q_mic", kind = "order", order = 2 },
  { "order2_p_mic", "p^f on micro nodes: order 2", col = "p_mic", kind = "order", order = 2 },
  { "micro_equals_macro_q", "only solid lines are visible: the micro-node error in q equals the macro-node error",
    col = "q_mic", over = "q_mac", kind = "ratio", lo = 0.9, hi = 1.1 },
  { "micro_equals_macro_p", "... and in p", col = "p_mic", over = "p_mac", kind = "ratio", lo = 0.9, hi = 1.1 },
}, "errors")
