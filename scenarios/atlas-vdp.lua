-- ### Atlas: van der Pol (Calvo, Chartier, Murua & Sanz-Serna (17))
--
-- **Question.** The weakly damped van der Pol oscillator q̇ = p, ṗ = −q + ε(1 − q²)p over
-- τ ∈ [0, 4π/ε] (2/ε periods: the amplitude grows from 0.7 to the limit cycle near 2): which
-- method reaches a given error most cheaply as ε → 0?
--
-- **Method.** (17) in τ from q(0) = p(0) = 0.5 (as in Figure 5) to τ_end = 2ε⁻¹ periods 2π.
-- Error: Euclidean norm of the error in (q, p) at τ_end against RK4 with 256 and 512 steps per
-- period, Richardson. The methods as for perturbed Kepler: SAM with RK4, DP5 and ode45 macro-solvers
-- and RK4 or Strang micro-steps (rotation and damping both exact), LISP and multirevolution with
-- each micro-solver, grids N × n; every registry stepper that takes the system, n steps per
-- period. ε = 2⁻⁶, 2⁻⁸, 2⁻¹⁰; targets 10⁻³, 10⁻⁵.
--
-- **Readings.** As for perturbed Kepler. The interval grows like 1/ε, so the conventional
-- integrations run over 2/ε periods while SAM's macro grid does not depend on ε.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
require("kapitza.atlas.run").scenario("vdp", arg) -- lib/lua/kapitza/atlas/run.lua: the sweep, its outputs and claims
