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
package.path = root .. "/lib/lua/?.lua;" .. root .. "/lib/experiment/?.lua;" .. package.path
local S = require "scenario"
local A = require "atlas"
local AC = require "atlas_claims"
local AW = require "atlas_write"
local prob = require("atlas_problems").kepler

local sc = S.new { id = prob.id, title = prob.title, params = A.params(prob, A.names(prob)), quick = prob.quick,
                   work = prob.est }
local P = sc:parse(arg)
local rows, ctxs, methods, na = A.sweep(sc, prob, P)
AW.write(sc, prob, P, rows, ctxs, methods, na)

-- What the atlas states, each measured
local cl, e1, last = AC.claims(sc), P.target[1], #P.eps
AC.claim_exponent(cl, "sam_work_flat", "SAM's work for a given error does not grow as ε decreases (RK4 macro, Strang micro)",
                 prob, P, rows, "SAM-rk4/strang", e1, -1, 0.25)
AC.claim_exponent(cl, "conventional_work_1_over_eps", "a conventional integration (Strang) needs work ∝ 1/ε for a given " ..
                 "error, as it does at a given step", prob, P, rows, "strang", e1, 0.85, 1.15)
AC.claim_exponent(cl, "conventional_work_sqrt", "a conventional Strang integration needs work ∝ ε^(-1/2) for a given error " ..
                 "(its error at a given step is O(ε Δτ²) over τ_end ∝ 1/ε)", prob, P, rows, "strang", e1, 0.35, 0.65)
for si = 1, last do
  AC.claim_cheapest(cl, "averaging_cheapest_" .. si, "an averaging method (SAM, LISP, MR) is the cheapest for the first " ..
                   "target", prob, P, rows, methods, e1, si, { "SAM", "LISP", "MR" })
end
AC.claim_cheapest(cl, "averaging_ratio", "at the smallest ε the saving against the cheapest direct stepper is at least " ..
                 "tenfold", prob, P, rows, methods, e1, last, { "SAM", "LISP", "MR" }, 10)
cl:write("Work = force evaluations read from the curves (interpolated); exponents fitted against 1/ε over the values " ..
         "where the method reaches the target.", sc.id .. "-claims")
