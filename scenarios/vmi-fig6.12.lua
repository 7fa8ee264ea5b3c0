-- ### Figure 6.12: FPU, trapezoidal-midpoint, errors versus ΔT
--
-- **Question.** With V by the left rectangle rule (α_V = γ_V = 1, the "trapezoidal" of §6) and W by
-- the midpoint rule (Theorem 3.4): is e_q^mac of order one; do e_q^mic and e_p^mic start with order
-- two and reduce to one for tiny steps; and does e_p^mac converge "with rates greater than one but
-- lower than two" (first the p^f error with slope two, then the p^s error with slope one)?
--
-- **Method.** The convergence study above on the FPU with the trapezoidal-midpoint scheme; the
-- changes of order and the rates between one and two are decided on the local slopes.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local V = require "kapitza.papers.vmi_convergence"

-- What the text claims.
local fig = {
  id = "vmi-fig6.12",
  title = "Ober-Bloebaum et al. Fig. 6.12: FPU, trapezoidal-midpoint, errors versus dT",
  problem = "FPU", scheme = "TM", kind = "errors",
  claims = {
    { "order1_q_mac", "q on macro nodes: order 1", col = "q_mac", kind = "order", order = 1 },
    { "q_mic_2_to_1", "q^f on micro nodes: starts with order 2, reduces to 1 for tiny steps", col = "q_mic",
      kind = "transition", from = 2, to = 1 },
    { "p_mic_2_to_1", "p^f on micro nodes: starts with order 2, reduces to 1", col = "p_mic", kind = "transition", from = 2, to = 1 },
    { "p_mac_between", "p on macro nodes: rates greater than one but lower than two (the p^f error's 2, then the p^s error's 1)",
      col = "p_mac", kind = "between", from = 2, to = 1, published = "between 1 and 2" },
  },
}
local sc = V.convergence_new(fig)
V.convergence_run(sc, sc:parse(arg), fig)
