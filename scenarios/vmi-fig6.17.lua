-- ### Figure 6.17: spring ring, trapezoidal-trapezoidal, errors versus ΔT
--
-- **Question.** spring ring, trapezoidal-trapezoidal (left rectangle rule for V and W (α = γ = 1, the
-- "trapezoidal" of §6; Theorem 3.5)): do the errors in the configuration and the momenta of the spring
-- ring converge with order one?
--
-- **Method.** Convergence study of §6.2: spring ring (initial data and physical gravity of Figure 6.6). The multirate run and its reference start from
-- the same initial data and run to t_N = 0.5 (the paper's reference horizon) for p ∈ {5, 10} (left and
-- right panel) and ΔT ∈ {0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001, 0.00005}
-- (p fixed, so both grids are refined together), Newton tolerance 10⁻¹². Errors (6.1)–(6.2): e_q^mac = sup_k ‖q_k − q_ref(t_k)‖ with
-- q_k = (q_kˢ, q_kᶠ,⁰), e_q^mic = sup over the inner micro nodes of ‖q_kᶠ,ᵐ − q_refᶠ(t_kᵐ)‖, and the same
-- for the momenta (p_kᶠ,ᵐ = −D L_dᵐ, (3.8)); ‖·‖ is the Euclidean norm. Orders are least-squares slopes
-- of log e against log ΔT over the 4 smallest ΔT (and, where the paper says a slope changes, over the
-- 3 largest).
--
-- **Readings.** The paper gives neither the ΔT values nor the horizon of the multirate runs; t_N = 0.5
-- and the ΔT above keep every micro node on the reference grid (5·10⁻⁶) and t_N/ΔT an integer. The
-- range reaches ΔT = 5·10⁻⁵ because with ΔT ≥ 5·10⁻⁴ the first-order slow error of the
-- trapezoidal-midpoint scheme has not yet overtaken the second-order fast error (see 6.13–6.15). The
-- paper's reference is the same scheme with p = 1 and ΔT = 5·10⁻⁷ (FPU) or 10⁻⁶ (SR); for the
-- first-order schemes that leaves an O(10⁻⁷) floor, so the default reference is RK4 on (2.4) with
-- h = 5·10⁻⁶ (`ref=vi sub=10` (FPU) or `ref=vi sub=5` (SR) runs the paper's choice). The norm is not stated;
-- the Euclidean norm of the whole vector is used.
-- The "trapezoidal" rule of the caption is the left rectangle rule that §6 says was run (first order).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local V = require "vmi"

local sc = S.new {
  id = "vmi-fig6.17",
  title = "Ober-Bloebaum et al. Fig. 6.17: spring ring, trapezoidal-trapezoidal, errors versus dT",
  params = V.convergence_params(),
  quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 },
}
local P = sc:parse(arg)

-- What the text claims: order 1 in q and p on macro and micro nodes, fitted slopes accepted in
-- [0.8, 1.2].
local claims = V.order_claims(1, 0.8, 1.2)
V.convergence_scenario(sc, P, "SR", "TT", claims)
