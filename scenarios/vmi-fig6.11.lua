-- ### Figure 6.11: spring ring, midpoint-midpoint, errors versus ΔT
--
-- **Question.** Is the midpoint-midpoint scheme of order 2 in q and p on macro and micro nodes for
-- the spring ring too?
--
-- **Method.** The convergence study above on the spring ring with the midpoint-midpoint scheme.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-fig6.11",
  title = "Ober-Bloebaum et al. Fig. 6.11: spring ring, midpoint-midpoint, errors versus dT",
  params = V.convergence_params("SR"),
  quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 },
  work = V.convergence_work,
}
local P = sc:parse(arg)
V.convergence_check(sc, P)

-- What the text claims: order 2 in q and p on macro and micro nodes.
V.convergence_scenario(sc, P, "SR", "MM", {
  { "order2_q_mac", "q on macro nodes: order 2", col = "q_mac", kind = "order", order = 2 },
  { "order2_p_mac", "p on macro nodes: order 2", col = "p_mac", kind = "order", order = 2 },
  { "order2_q_mic", "q^f on micro nodes: order 2", col = "q_mic", kind = "order", order = 2 },
  { "order2_p_mic", "p^f on micro nodes: order 2", col = "p_mic", kind = "order", order = 2 },
}, "errors")
