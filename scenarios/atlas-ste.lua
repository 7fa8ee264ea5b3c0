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
package.path = root .. "/lib/lua/?.lua;" .. root .. "/lib/experiment/?.lua;" .. package.path
local S = require "scenario"
local A = require "atlas"
local AC = require "atlas_claims"
local AW = require "atlas_write"
local prob = require("atlas_problems").ste

local sc = S.new { id = prob.id, title = prob.title, params = A.params(prob, A.names(prob)), quick = prob.quick,
                   work = prob.est }
local P = sc:parse(arg)
local rows, ctxs, methods, na = A.sweep(sc, prob, P)
AW.write(sc, prob, P, rows, ctxs, methods, na)

-- What the atlas states, each measured
local cl, e1, last = AC.claims(sc), P.target[1], #P.eps
AC.claim_exponent(cl, "direct_work_grows", "a direct integration (RK4) needs work ∝ 1/ε for a given error", prob, P, rows,
                 "rk4", P.target[#P.target], 0.9, 1.1)
-- Sharp, Tsai & Engquist Sec. 1: the Jacobian's eigenvalues are O(eps^-1/2), so an explicit method's stable step is
-- O(eps^1/2) and it "would require O(eps^-1/2) operations": the paper's exponent against the measured one
AC.claim_exponent(cl, "explicit_work_paper", "Sec. 1 (the paper): an explicit method 'would require O(ε^-1/2) operations' " ..
                 "(its stable step ∝ ε^1/2); RK4's work for a given error", prob, P, rows, "rk4", P.target[#P.target], 0.4, 0.6)
AC.claim_exponent(cl, "hmm_work_flat", "HMM-V-rk4's work for a given error does not grow as ε decreases (η and h fixed " ..
                 "multiples of ε)", prob, P, rows, "HMM-V-rk4", e1, -1, 0.25)
AC.claim_exponent(cl, "sam_work_flat", "SAM's work for a given error does not grow as ε decreases", prob, P, rows,
                 "SAM-rk4/rk4", P.target[#P.target], -1, 0.25)
for k, e in ipairs(P.target) do
  AC.claim_cheapest(cl, "averaging_cheapest_" .. k, "at the smallest ε an averaging method (HMM, SAM, LISP, MR) is the " ..
                   "cheapest, ten times cheaper than any direct stepper", prob, P, rows, methods, e, last,
                   { "HMM", "SAM", "LISP", "MR" }, 10)
end
AC.claim_costlier(cl, "hmm_behind_sam", "the HMM-X-y schemes need more work than the stroboscopic methods for the first " ..
                 "target (their windows of 50 periods cost 2500 micro-steps per force)", prob, P, rows, methods, e1, { "HMM" }, 1, { "SAM", "LISP", "MR" })
cl:write("Work = force evaluations read from the curves (interpolated); exponents fitted against 1/ε over the values " ..
         "where the method reaches the target.", sc.id .. "-claims")
