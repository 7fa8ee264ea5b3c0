-- ### Figure 6.17: spring ring, trapezoidal-trapezoidal, errors versus ΔT
--
-- **Question.** Do the errors of the trapezoidal-trapezoidal scheme converge with order one for the
-- spring ring too?
--
-- **Method.** The convergence study above on the spring ring with the trapezoidal-trapezoidal scheme.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-fig6.17",
  title = "Ober-Bloebaum et al. Fig. 6.17: spring ring, trapezoidal-trapezoidal, errors versus dT",
  params = V.convergence_params("SR"),
  quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 },
  work = V.convergence_work,
}
local P = sc:parse(arg)
V.convergence_check(sc, P)

-- What the text claims: order 1 in q and p on macro and micro nodes.
V.convergence_scenario(sc, P, "SR", "TT", {
  { "order1_q_mac", "q on macro nodes: order 1", col = "q_mac", kind = "order", order = 1 },
  { "order1_p_mac", "p on macro nodes: order 1", col = "p_mac", kind = "order", order = 1 },
  { "order1_q_mic", "q^f on micro nodes: order 1", col = "q_mic", kind = "order", order = 1 },
  { "order1_p_mic", "p^f on micro nodes: order 1", col = "p_mic", kind = "order", order = 1 },
}, "errors")
