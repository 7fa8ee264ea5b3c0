-- ### Figure 6.13: FPU, trapezoidal-midpoint, errors split slow/fast versus ΔT
--
-- **Question.** FPU, trapezoidal-midpoint (left rectangle rule for V (α_V = γ_V = 1, the "trapezoidal"
-- of §6), midpoint for W (Theorem 3.4)): split on the macro nodes into slow and fast parts: are the
-- slow errors (q^s, p^s) of order one, and do the fast errors first decrease quadratically and then,
-- once the slow error dominates through the coupling potential V, linearly?
--
-- **Method.** Convergence study of §6.2: FPU (ω = 50, initial data of Figure 6.3). The multirate run and its reference start from
-- the same initial data and run to t_N = 0.5 (the paper's reference horizon) for p ∈ {5, 10} (left and
-- right panel) and ΔT ∈ {0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001, 0.00005}
-- (p fixed, so both grids are refined together), Newton tolerance 10⁻¹². Errors (6.1)–(6.2): e_q^mac = sup_k ‖q_k − q_ref(t_k)‖ with
-- q_k = (q_kˢ, q_kᶠ,⁰), e_q^mic = sup over the inner micro nodes of ‖q_kᶠ,ᵐ − q_refᶠ(t_kᵐ)‖, and the same
-- for the momenta (p_kᶠ,ᵐ = −D L_dᵐ, (3.8)); ‖·‖ is the Euclidean norm. Orders are least-squares slopes
-- of log e against log ΔT over the 4 smallest ΔT (and, where the paper says a slope changes, over the
-- 3 largest).
-- The macro-node errors are split into the slow part (q_kˢ, p_kˢ) and the fast part (q_kᶠ,⁰, p_kᶠ,⁰).
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
  id = "vmi-fig6.13",
  title = "Ober-Bloebaum et al. Fig. 6.13: FPU, trapezoidal-midpoint, errors versus dT",
  params = V.convergence_params(),
  quick = { dT = { 0.01, 0.005, 0.002, 0.001 }, p = { 5 }, href = 5e-5, sub = 5 },
}
local P = sc:parse(arg)

-- What the text claims: slow errors of order one, fast errors of order two at large ΔT and one at
-- small ΔT (slopes accepted in [0.8, 1.2] and [1.7, 2.3]).
local claims = V.slow_fast_claims()
V.convergence_scenario(sc, P, "FPU", "TM", claims)
