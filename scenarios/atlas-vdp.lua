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
package.path = root .. "/lib/lua/?.lua;" .. root .. "/lib/experiment/?.lua;" .. package.path
local S = require "scenario"
local A = require "atlas"
local AC = require "atlas_claims"
local AW = require "atlas_write"
local prob = require("atlas_problems").vdp

local sc = S.new { id = prob.id, title = prob.title, params = A.params(prob, A.names(prob)), quick = prob.quick,
                   work = prob.est }
local P = sc:parse(arg)
local rows, ctxs, methods, na = A.sweep(sc, prob, P)
AW.write(sc, prob, P, rows, ctxs, methods, na)

-- What the atlas states, each measured
local cl, e1, last = AC.claims(sc), P.target[1], #P.eps
AC.claim_exponent(cl, "sam_work_flat", "SAM's work for a given error does not grow as ε decreases (RK4 macro, Strang micro)",
                 prob, P, rows, "SAM-rk4/strang", e1, -1, 0.25)
AC.claim_exponent(cl, "mr_work_flat", "the multirevolution method's work for a given error does not grow as ε decreases",
                 prob, P, rows, "MR-strang", e1, -1, 0.25)
AC.claim_exponent(cl, "conventional_work_1_over_eps", "a conventional integration (Strang) needs work ∝ 1/ε for a given " ..
                 "error, as it does at a given step", prob, P, rows, "strang", e1, 0.85, 1.15)
AC.claim_exponent(cl, "conventional_work_sqrt", "a conventional Strang integration needs work ∝ ε^(-1/2) for a given error " ..
                 "(its error at a given step is O(ε Δτ²)-small per period)", prob, P, rows, "strang", e1, 0.35, 0.65)
for si = 1, last do
  AC.claim_cheapest(cl, "averaging_cheapest_" .. si, "an averaging method (SAM, LISP, MR) is the cheapest for the first " ..
                   "target", prob, P, rows, methods, e1, si, { "SAM", "LISP", "MR" })
end
AC.claim_cheapest(cl, "averaging_ratio", "at the smallest ε the saving against the cheapest direct stepper is at least " ..
                 "tenfold, for both targets", prob, P, rows, methods, P.target[#P.target], last, { "SAM", "LISP", "MR" }, 10)
cl:write("Work = force evaluations read from the curves (interpolated); exponents fitted against 1/ε over the values " ..
         "where the method reaches the target.", sc.id .. "-claims")
