-- ### Atlas: the vibrated pendulum (Calvo & Sanz-Serna (2.2))
--
-- **Question.** Which of the library's methods reaches a given error in the angle of Kapitza's
-- pendulum with the fewest force evaluations, and how does the answer change as the vibration
-- frequency ω grows? The HMM and the stroboscopic methods (SAM, LISP, multirevolution) promise a
-- cost that does not grow with ω; a direct integration must resolve every period, so its cost
-- grows like ω. The HMM, though, computes the *averaged* motion, which is O(1/ω) away from the
-- true one; the stroboscopic methods approximate the true solution at whole periods.
--
-- **Method.** (2.2) with ℓ = 0.2 m, g = 9.8 m s⁻², v_max = 4 m s⁻¹, q(0) = 0.5, q̇(0) = 0, on
-- [0, T], T = K·2π/ω with K the multiple of 32 periods nearest to 1 s (a stroboscopic time, the
-- output time of SAM and the multirevolution method). Error |q(T) − q_ref(T)| against the true
-- solution (RK4 with 64 and 128 steps per period, Richardson). Work: force evaluations as each
-- method counts them (the HMM's micro-steps, SAM's micro-integrations, a stepper's stages). The
-- methods: the HMM of Algorithms 1 and 2 (window 40 periods, exponential kernel) and Algorithm 2
-- with simple filtering (one period, uniform kernel) with the leapfrog, velocity Verlet and
-- symplectic Euler macro schemes, macro step H = T/N and micro step h = 2π/(ωN) as in Tables
-- 2.1–2.3; SAM (25) with the RK4, DP5 and adaptive ode45 macro-solvers, LISP (29) and the
-- multirevolution RK4 method (32), all with RK4 micro-steps, each on a grid of N macro steps (or
-- tolerances) × n micro-steps per period; and every registry stepper that takes the pendulum's
-- second-order form, with n constant steps per period. ω = 10³, 10⁴, 10⁵ s⁻¹; targets 10⁻³ and
-- 10⁻⁵ rad.
--
-- **Readings.** A method's curve is its ladder of runs; the summary reads the work at a target
-- from it by log–log interpolation, never beyond its runs, and only where every finer run of the
-- ladder is as accurate (a coarse run whose error happens to cancel does not count). A method
-- with two knobs is drawn as its lower envelope over the grid, i.e. with the second knob chosen
-- knowing the answer. Peers (GSL, SUNDIALS) and CPU seconds are not part of this scenario: they
-- depend on the machine and on optional libraries. `make bench` measures them on the same runs
-- (`scripts/bench-atlas.lua`, the second table and figure below).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. root .. "/lib/experiment/?.lua;" .. package.path
local S = require "scenario"
local A = require "atlas"
local AC = require "atlas_claims"
local AW = require "atlas_write"
local prob = require("atlas_problems").pendulum

local sc = S.new { id = prob.id, title = prob.title, params = A.params(prob, A.names(prob)), quick = prob.quick,
                   work = prob.est }
local P = sc:parse(arg)
-- the averaging premise of the fast-forced pendulum (Calvo & Sanz-Serna (2.4)): a fast oscillation
-- vmax/(l omega) of less than a radian; beyond it no averaged method applies (and the ladders of
-- the direct steppers grow without bound)
for _, om in ipairs(P.omega) do
  if P.vmax / (P.l * om) >= 1 then
    sc:fail(string.format("parameters 'vmax', 'l', 'omega': the fast oscillation vmax/(l omega) = %.3g rad at omega = %g is not small (averaging needs < 1)",
                          P.vmax / (P.l * om), om))
  end
end
local rows, ctxs, methods, na = A.sweep(sc, prob, P)
AW.write(sc, prob, P, rows, ctxs, methods, na)

-- What the atlas states, each measured
local cl, e1, last = AC.claims(sc), P.target[1], #P.omega
AC.claim_exponent(cl, "direct_work_grows", "a direct integration (RK4) needs work ∝ ω for a given error", prob, P, rows,
                 "rk4", e1, 0.9, 1.1)
AC.claim_exponent(cl, "hmm_work_flat", "the HMM's work for a given error does not grow with ω (Algorithm 2, simple filtering)",
                 prob, P, rows, "HMM-A2s", e1, -0.25, 0.25)
AC.claim_exponent(cl, "mr_work_flat", "the multirevolution method's work for a given error does not grow with ω", prob, P,
                 rows, "MR-rk4", e1, -0.25, 0.25)
AC.claim_unreached(cl, "hmm_floor", "at the smallest ω no HMM variant reaches the first target: the averaged motion is " ..
                  "O(1/ω) away from the true one", prob, P, rows, methods, e1, 1, { "HMM" })
for k, e in ipairs(P.target) do
  AC.claim_cheapest(cl, "averaging_cheapest_" .. k, "at the largest ω an averaging method (HMM, SAM, LISP, MR) is the " ..
                   "cheapest, ten times cheaper than any direct stepper", prob, P, rows, methods, e, last,
                   { "HMM", "SAM", "LISP", "MR" }, 10)
end
cl:write("Work = force evaluations read from the curves (interpolated); exponents fitted against " .. prob.stiff.label ..
         " over the values where the method reaches the target.", sc.id .. "-claims")
