-- ### Atlas: the fast spinning top (Fredbo (31))
--
-- **Question.** The heavy Lagrange top spun fast, Π₃ = ωΠ̂₃: does the slow-variable HMM of
-- Algorithms 3–4 reach a given error in the slow variable ξ₃ = Π₁² + Π₂² more cheaply than a
-- direct integration as ω grows, as the thesis expects ("large savings against RK4")?
--
-- **Method.** The cone of Sec. 4.3 (M = 5, g = 9.81, l = 0.75, I = (3.12, 3.12, 0.24)) from
-- Π⁰ = (1/ω, 0, ωΠ̂₃), Γ⁰ = (0, sin 0.2, cos 0.2), on [0, 0.01] (Table 1). Error:
-- |ξ₃(T) − ξ₃,ref(T)| / max_t ξ₃,ref against RK4 with 256 and 512 steps per spin period 2πI₃/Π₃,
-- Richardson (the maximum over the reference's grid). The methods: the slow-variable HMM (set
-- (32), kernel K^exp(2), minimum-norm least squares) with the leapfrog and forward Euler macro
-- schemes and RK4 or VE micro-steps, h = 10/ω², η = 10h, N = x·ω/10³ macro steps for x = 40 … 320
-- (Table 1's scaling); every registry stepper that takes the top, n steps per spin period. Work:
-- field evaluations (the HMM's micro-steps' stages). ω = 10³, 10⁴, 10⁵; targets 10⁻², 10⁻⁴.
--
-- **Readings.** The slow variables nutate at Π₃/I₁ = 1.35ω rad/s, only twelve times slower than
-- the spin, so the HMM's macro step must shrink like 1/ω too (Table 1 does so); the scale
-- separation an HMM needs is not there (top-table1). CPU seconds: `make bench` (below).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
require("kapitza.atlas.run").scenario("top", arg) -- lib/lua/kapitza/atlas/run.lua: the sweep, its outputs and claims
