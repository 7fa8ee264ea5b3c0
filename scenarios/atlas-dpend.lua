-- ### Atlas: the vibrated double pendulum (Calvo & Sanz-Serna (4.3), Calvo et al. Sec. 6.2)
--
-- **Question.** The double pendulum with rigid rods and a vertically vibrated pivot is a
-- constrained (index-2) system. Its library methods are the constrained HMMs of Calvo & Sanz-Serna
-- (SHAKE-SHAKE, RATTLE-SHAKE), SAM for DAEs with HERK3 (Calvo et al.), and the constrained
-- steppers; the same motion can also be integrated in the two angles as an ODE. Which is cheapest
-- for a given error in q₁(T) as ω grows?
--
-- **Method.** m₁ = 0.01, m₂ = 0.005 kg, l₁ = 0.2, l₂ = 0.1 m, g = 9.8, v_max = 4, at rest from
-- q₁ = 0.5, q₂ = 0 (Sec. 4.2), on [0, T], T = K·2π/ω with K the multiple of 32 periods nearest
-- to 1 s. Error: |q₁(T) − q₁,ref(T)|, the reference from the Lagrangian angle ODE by RK4 with 64
-- and 128 steps per period, Richardson. The methods: the two constrained HMMs (simple filtering
-- over half a period, H = T/N, h = 2π/(ωN), Newton to 10⁻¹⁵ l²); SAM for DAEs (HERK3 macro and
-- micro, central differences (25)) on a grid N × n; SHAKE, RATTLE and HERK3 on the Cartesian DAE,
-- n steps per period; every registry stepper on the angle ODE. Work: force evaluations as each
-- counts them (the Newton iterations of the constraint solves are in the data, not in the work).
-- ω = 10³, 10⁴, 10⁵ s⁻¹; targets 10⁻², 10⁻⁴ rad.
--
-- **Readings.** The HMMs compute the ω → ∞ averaged motion, which for this pendulum is far from
-- the true one at moderate ω (0.09 rad at ω = 10⁴, cs-fig4.1), and they converge only at first
-- order in H. CPU seconds and peers (on the angle ODE): `make bench` (below).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. root .. "/lib/experiment/?.lua;" .. package.path
local S = require "scenario"
local A = require "atlas"
local AC = require "atlas_claims"
local AW = require "atlas_write"
local prob = require("atlas_problems").dpend

local sc = S.new { id = prob.id, title = prob.title, params = A.params(prob, A.names(prob)), quick = prob.quick,
                   work = prob.est }
local P = sc:parse(arg)
local rows, ctxs, methods, na = A.sweep(sc, prob, P)
AW.write(sc, prob, P, rows, ctxs, methods, na)

-- What the atlas states, each measured
local cl, e1, last = AC.claims(sc), P.target[1], #P.omega
AC.claim_exponent(cl, "direct_work_grows", "a direct integration (DP5 on the angle ODE) needs work growing at least " ..
                 "like ω for a given error", prob, P, rows, "dp5(angles)", P.target[#P.target], 0.8, math.huge)
AC.claim_cheapest(cl, "averaging_cheapest", "at the largest ω an averaging method (HMM or SAM) is the cheapest for the " ..
                 "first target, ten times cheaper than any direct stepper", prob, P, rows, methods, e1, last, { "HMM", "SAM" }, 10)
AC.claim_unreached(cl, "hmm_floor", "at the smallest ω no constrained HMM reaches the first target: the averaged motion " ..
                  "is too far from the true one", prob, P, rows, methods, e1, 1, { "HMM" })
AC.claim_unreached(cl, "averaging_second_target", "at the largest ω no averaging method reaches the second target " ..
                  "(first-order convergence in H, O(1/ω) floor)", prob, P, rows, methods, P.target[#P.target], last,
                  { "HMM", "SAM" })
cl:write("Work = force evaluations read from the curves (interpolated); exponents fitted against ω over the values " ..
         "where the method reaches the target.", sc.id .. "-claims")
