-- ### Atlas: the inverted pendulum of Sharp, Tsai & Engquist (1.1)
--
-- **Question.** The same question as for Kapitza's pendulum, on the scaling of Sharp, Tsai and
-- Engquist: l θ̈ = (g + ε⁻¹ sin(2πt/ε)) sin θ, whose forcing grows like 1/ε while its period ε
-- shrinks. Which method reaches a given error in θ(T) most cheaply as ε → 0, and do the paper's
-- HMM-X-y schemes (with η and h fixed multiples of ε, Table 1 row 2) keep their cost flat?
--
-- **Method.** (1.1) with g = 0.1, l = 0.05 (Table 1), θ(0) = 0, θ̇(0) = −0.4 (the reconstruction
-- (3.4) adds nothing at θ = 0), on [0, T], T = Kε with K the multiple of 32 periods nearest to 1 s
-- (a quarter of the slow oscillation). Error |θ(T) − θ_ref(T)| against the true solution (RK4
-- with 64 and 128 steps per period, Richardson). The methods: HMM-FE-v, HMM-IFE-v, HMM-V-v and
-- HMM-V-rk4 (exact phase, reconstruction (3.4), kernel (3.5) normalised, η = 50ε, h = ε/50, macro
-- step H = T/N); SAM with the RK4, DP5 and ode45 macro-solvers, LISP and the multirevolution
-- method with RK4 micro-steps (grids N × n); every registry stepper that takes the second-order
-- form, n steps per period. ε = 10⁻², 10⁻³, 10⁻⁴ s; targets 10⁻³ and 10⁻⁵ rad.
--
-- **Readings.** As for the vibrated pendulum (curves, envelopes, interpolation). The HMM-X-y
-- schemes approximate the averaged equation (3.2), whose solution is O(ε) away from the true
-- one; their error here is measured against the true solution, not against (3.2) as in the
-- paper's figures. Peers and CPU seconds: `make bench` (below). The paper's Sec. 1 says an explicit
-- method "would require O(ε^-1/2) operations" (its stable step ∝ ε^1/2); the claims table compares
-- that exponent with RK4's measured one (≈ 1: the step must resolve the forcing period ε).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
require("kapitza.atlas.run").scenario("ste", arg) -- lib/lua/kapitza/atlas/run.lua: the sweep, its outputs and claims
