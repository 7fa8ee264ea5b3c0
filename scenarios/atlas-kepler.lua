-- ### Atlas: perturbed Kepler (Calvo, Chartier, Murua & Sanz-Serna (19))
--
-- **Question.** For the perturbed Kepler problem over τ ∈ [0, (π/8)ε⁻¹], which method reaches a
-- given error most cheaply as ε → 0? SAM's cost is independent of ε; a conventional integration
-- takes ε⁻¹ times more steps at a fixed step. How large is the saving at equal *error*, and which
-- macro/micro pair of SAM (and LISP, multirevolution) is cheapest?
--
-- **Method.** (19) in τ, x(0) = (1, 0), v(0) = (0, 1), τ_end = (π/8)/ε = ε⁻¹/16 periods 2π.
-- Error: Euclidean norm of the error in (x₁, x₂, v₁, v₂) at τ_end against RK4 with 1024 and 2048
-- steps per period, Richardson. The methods: SAM (25) with the RK4, DP5 and ode45 macro-solvers
-- and RK4 or Strang micro-steps (the perturbation by implicit midpoint, the Kepler flow exact),
-- LISP (29) and the multirevolution RK4 (32) with each micro-solver, each on a grid N × n (N macro
-- steps, n micro-steps per period; MR: N divides the periods, at least 4 periods per step); every
-- registry stepper that takes the system (RK4, DP5, Strang, Euler, VE), n steps per period. Work:
-- force evaluations as counted by each method (for the Strang micro-solver: the two partial flows,
-- the exact Kepler flow costing a Kepler-equation solve). ε = 2⁻⁸, 2⁻¹⁰, 2⁻¹²; targets 10⁻⁴, 10⁻⁶.
--
-- **Readings.** As for the vibrated pendulum (curves, envelopes, interpolation). A Strang step
-- evaluates two exact partial flows, not the field, so its "force evaluations" are not the same
-- unit as RK4's; the CPU seconds of `make bench` (below) weigh them fairly.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
require("kapitza.atlas.run").scenario("kepler", arg) -- lib/lua/kapitza/atlas/run.lua: the sweep, its outputs and claims
