-- ### Table 2.2: asynchronous HMM, exponential kernel
--
-- **Question.** Does the asynchronous Algorithm 2, which starts every micro-integration from
-- p = 0, q = Q_n, θ = 0 (2.14) and so needs no relation between micro and macro velocities,
-- integrate the averaged pendulum (2.5)–(2.6) as accurately as the synchronous Algorithm 1
-- (Table 2.1), at half its cost?
--
-- **Method.** Inverted pendulum (2.2) with ℓ = 0.2 m, g = 9.8 m s⁻², v_max = 4 m s⁻¹, Q(0) = 0.5,
-- P(0) = 0, T = 1 s. Macro step: Verlet/leap-frog with step H. Force estimate (2.15): velocity
-- Verlet micro-steps of h = (2π/ω)(H/T_macro), T_macro = 1 s, over the window of η = 40·2π/ω;
-- since f(q, θ) is even in θ only 0 ≤ t ≤ η/2 is integrated, and F_n = 2∫₀^{η/2} K_η f dt with
-- the exponential kernel (2.13), C found numerically (C ≈ 211.08 on (−1, 1)). The integral is the
-- trapezoidal rule on the micro grid (end points weighted ½), the weights scaled to sum to 1.
-- Error: max over 0 ≤ t_n ≤ T of |Q_n − Q(t_n)|, with Q the solution of (2.5) by RK4 with
-- steps ≤ 1/20480 s (its own error is below 1e-12).
--
-- **Readings.** *Microsteps* is the total number of micro-steps of the run: T/H force estimates
-- (F_0 … F_{N−1}; the last macro step needs no F_N), each of (η/2)/h = 20/H steps, hence
-- 2,000 at H = 1/10. *Averaged* is Verlet with step H applied to the averaged equation (2.5):
-- the paper says "(2.9) integrated directly with the Verlet scheme with step-length H", which
-- cannot be meant literally (with H ≫ 2π/ω Verlet on (2.9) is unstable); this reading reproduces
-- the column to every printed digit.
--
-- **Agreement.** The counts under the table are computed on every run. The cell that rounds
-- differently from the print lies within one unit of its third digit (4.815e-3 against 4.81e-3,
-- a rounding boundary). A second, independent implementation gives the same errors to six digits,
-- and the reference solution is not the cause (RK4 with steps of 1/20480 s and of 1/163840 s
-- agree to 2·10⁻¹⁴); see Table 2.3 for the readings we ruled out.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local cs = require "kapitza.papers.cs"

local sc = S.new {
  id = "cs-table2.2",
  title = "Calvo & Sanz-Serna Table 2.2: asynchronous HMM (Algorithm 2), exponential kernel",
  params = cs.params {
    { "omega", { 1e4, 1e6, 1e8 }, "s^-1", "vibration angular frequencies (list)", positive = true },
    { "H", { 1 / 10, 1 / 20, 1 / 40, 1 / 80 }, "s", "macro step sizes (list)", positive = true },
    { "periods", 40, "", "window eta in vibration periods 2 pi/omega", positive = true },
  },
  quick = { H = { 1 / 10, 1 / 20 } },
  work = require("kapitza.scenario.work").cs_table(cs.work(function(P) return P.periods end)),
}
local P = sc:parse(arg)

local rows = cs.run(sc, P, { preset = "cs2", kernel = "exponential", periods = P.periods,
                             half_window = true })
cs.write(sc, P, rows, { caption = "Table 2.2 (asynchronous algorithm, exponential weight function)", notes_three_digits = true })
