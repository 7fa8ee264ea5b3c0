-- atlas_problem_claims.lua -- what each atlas problem (lib/lua/kapitza/atlas/problems.lua) states about
-- its sweep, each statement measured with its acceptance rule (lib/lua/kapitza/atlas/claims.lua). One
-- function per problem, claims(cl, prob, P, rows, methods): cl the claims table the driver
-- (lib/lua/kapitza/atlas/run.lua) opens and writes, P the run's parameters, rows the sweep's runs, methods
-- the catalogue run. lib/lua/kapitza/atlas/problems.lua attaches each as prob.claims.
local AC = require "kapitza.atlas.claims"
local exponent, cheapest, unreached, costlier = AC.claim_exponent, AC.claim_cheapest, AC.claim_unreached, AC.claim_costlier

local whole_periods = require("kapitza.atlas.methods").whole_periods

local M = {}

-- The span [0, T] a problem that rounds T to whole multiples of 32 fast periods integrates at
-- stiffness s (lib/lua/kapitza/atlas/problems.lua's setups: multiple = 32), period(s) its period.
local function spans(P, period)
  return function(s) local p = period(s); return whole_periods(P.T, p, 32) * p end
end
local function two_pi_over(s) return 2 * math.pi / s end
local function itself(s) return s end

local AVERAGING = { "HMM", "SAM", "LISP", "MR" }
local STROBOSCOPIC = { "SAM", "LISP", "MR" }

function M.pendulum(cl, prob, P, rows, methods)
  local e1, last, T = P.target[1], #P.omega, spans(P, two_pi_over)
  exponent(cl, "direct_work_grows", "a direct integration (RK4) needs work ∝ ω for a given error", prob, P, rows,
           "rk4", e1, 0.9, 1.1, T)
  exponent(cl, "hmm_work_flat", "the HMM's work for a given error does not grow with ω (Algorithm 2, simple filtering)",
           prob, P, rows, "HMM-A2s", e1, -0.25, 0.25, T)
  exponent(cl, "mr_work_flat", "the multirevolution method's work for a given error does not grow with ω", prob, P,
           rows, "MR-rk4", e1, -0.25, 0.25, T)
  unreached(cl, "hmm_floor", "at the smallest ω no HMM variant reaches the first target: the averaged motion is " ..
            "O(1/ω) away from the true one", prob, P, rows, methods, e1, 1, { "HMM" })
  for k, e in ipairs(P.target) do
    cheapest(cl, "averaging_cheapest_" .. k, "at the largest ω an averaging method (HMM, SAM, LISP, MR) is the " ..
             "cheapest, ten times cheaper than any direct stepper", prob, P, rows, methods, e, last, AVERAGING, 10)
  end
end

function M.ste(cl, prob, P, rows, methods)
  local e1, en, last, T = P.target[1], P.target[#P.target], #P.eps, spans(P, itself)
  exponent(cl, "direct_work_grows", "a direct integration (RK4) needs work ∝ 1/ε for a given error", prob, P, rows,
           "rk4", en, 0.9, 1.1, T)
  -- Sharp, Tsai & Engquist Sec. 1: the Jacobian's eigenvalues are O(eps^-1/2), so an explicit method's stable step
  -- is O(eps^1/2) and it "would require O(eps^-1/2) operations": the paper's exponent against the measured one
  exponent(cl, "explicit_work_paper", "Sec. 1 (the paper): an explicit method 'would require O(ε^-1/2) operations' " ..
           "(its stable step ∝ ε^1/2); RK4's work for a given error", prob, P, rows, "rk4", en, 0.4, 0.6, T)
  exponent(cl, "hmm_work_flat", "HMM-V-rk4's work for a given error does not grow as ε decreases (η and h fixed " ..
           "multiples of ε)", prob, P, rows, "HMM-V-rk4", e1, -1, 0.25, T)
  exponent(cl, "sam_work_flat", "SAM's work for a given error does not grow as ε decreases", prob, P, rows,
           "SAM-rk4/rk4", en, -1, 0.25, T)
  for k, e in ipairs(P.target) do
    cheapest(cl, "averaging_cheapest_" .. k, "at the smallest ε an averaging method (HMM, SAM, LISP, MR) is the " ..
             "cheapest, ten times cheaper than any direct stepper", prob, P, rows, methods, e, last, AVERAGING, 10)
  end
  costlier(cl, "hmm_behind_sam", "the HMM-X-y schemes need more work than the stroboscopic methods for the first " ..
           "target (their windows of 50 periods cost 2500 micro-steps per force)", prob, P, rows, methods, e1, { "HMM" }, 1,
           STROBOSCOPIC)
end

-- perturbed Kepler and van der Pol share their statements but for the bounds of the conventional
-- method's exponent's reason and the ratio's target (Kepler: the first, van der Pol: the last)
local function sam_claims(o)
  return function(cl, prob, P, rows, methods)
    local e1, last = P.target[1], #P.eps
    exponent(cl, "sam_work_flat", "SAM's work for a given error does not grow as ε decreases (RK4 macro, Strang micro)",
             prob, P, rows, "SAM-rk4/strang", e1, -1, 0.25)
    if o.mr then
      exponent(cl, "mr_work_flat", "the multirevolution method's work for a given error does not grow as ε decreases",
               prob, P, rows, "MR-strang", e1, -1, 0.25)
    end
    exponent(cl, "conventional_work_1_over_eps", "a conventional integration (Strang) needs work ∝ 1/ε for a given " ..
             "error, as it does at a given step", prob, P, rows, "strang", e1, 0.85, 1.15)
    exponent(cl, "conventional_work_sqrt", "a conventional Strang integration needs work ∝ ε^(-1/2) for a given error " ..
             o.sqrt_why, prob, P, rows, "strang", e1, 0.35, 0.65)
    for si = 1, last do
      cheapest(cl, "averaging_cheapest_" .. si, "an averaging method (SAM, LISP, MR) is the cheapest for the first " ..
               "target", prob, P, rows, methods, e1, si, STROBOSCOPIC)
    end
    cheapest(cl, "averaging_ratio", "at the smallest ε the saving against the cheapest direct stepper is at least " ..
             o.ratio_what, prob, P, rows, methods, o.ratio_last and P.target[#P.target] or e1, last, STROBOSCOPIC, 10)
  end
end

M.kepler = sam_claims { sqrt_why = "(its error at a given step is O(ε Δτ²) over τ_end ∝ 1/ε)", ratio_what = "tenfold" }
M.vdp = sam_claims { mr = true, sqrt_why = "(its error at a given step is O(ε Δτ²)-small per period)",
                     ratio_what = "tenfold, for the last target of the list", ratio_last = true }

-- FPU and the ring: the variational multirate schemes against the direct steppers
local function vmi_claims(rate_what, largest, why)
  return function(cl, prob, P, rows, methods)
    local e1 = P.target[1]
    exponent(cl, "direct_work_grows", "a direct integration (DP5) needs work growing at least like " .. rate_what ..
             " for a given error", prob, P, rows, "dp5", P.target[#P.target], 0.8, math.huge)
    costlier(cl, "vmi_costlier", "the variational multirate schemes need more force evaluations than an explicit " ..
             "Runge–Kutta method for a given error" .. why,
             prob, P, rows, methods, e1, { "VMI" }, 1)
    cheapest(cl, "vmi_cheapest_stiffest", "at the largest " .. largest .. " a variational multirate scheme is the cheapest method",
             prob, P, rows, methods, e1, #P[prob.stiff.key], { "VMI" })
  end
end

M.fpu = vmi_claims("ω", "ω", " (they resolve the fast scale and are implicit)")
M.ring = vmi_claims("the fast frequency √(ω₂/m)", "ω₂", "")

function M.top(cl, prob, P, rows, methods)
  local e1 = P.target[1]
  exponent(cl, "direct_work_grows", "a direct integration (DP5) needs work ∝ ω^1.25 for a given error " ..
           "(top-fig11: the step must resolve the spin 16ω while the run spans more periods)", prob, P, rows, "dp5",
           P.target[#P.target], 1.05, 1.45)
  cheapest(cl, "hmm_cheaper_than_rk4", "the slow-variable HMM is cheaper than a direct integration at the largest ω " ..
           "(the thesis's 'large savings against RK4')", prob, P, rows, methods, e1, #P.omega, { "HMM" })
  costlier(cl, "hmm_costlier", "the slow-variable HMM needs more force evaluations than the cheapest direct " ..
           "stepper wherever both reach the first target", prob, P, rows, methods, e1, { "HMM" }, 1)
end

function M.dpend(cl, prob, P, rows, methods)
  local e1, en, last, T = P.target[1], P.target[#P.target], #P.omega, spans(P, two_pi_over)
  exponent(cl, "direct_work_grows", "a direct integration (DP5 on the angle ODE) needs work growing at least " ..
           "like ω for a given error", prob, P, rows, "dp5(angles)", en, 0.8, math.huge, T)
  -- the comparison the conclusion draws: the constrained (Cartesian) form's methods; the steppers of the
  -- two-angle ODE integrate another formulation of the problem (direct_work_grows)
  local constrained = {}
  for _, m in ipairs(methods) do if not m.name:find("(angles)", 1, true) then constrained[#constrained + 1] = m end end
  cheapest(cl, "averaging_cheapest", "at the largest ω an averaging method (HMM or SAM) is the cheapest method on the " ..
           "constrained form for the first target, ten times cheaper than any of its direct steppers (SHAKE, RATTLE, HERK3; " ..
           "the two-angle ODE's steppers are another formulation)", prob, P, rows, constrained, e1, last, { "HMM", "SAM" }, 10)
  unreached(cl, "hmm_floor", "at the smallest ω no constrained HMM reaches the first target: the averaged motion " ..
            "is too far from the true one", prob, P, rows, methods, e1, 1, { "HMM" })
  unreached(cl, "averaging_second_target", "at the largest ω no averaging method reaches the second target " ..
            "(the O(1/ω) distance of the averaged motion from the true one)", prob, P, rows, methods, en, last, { "HMM", "SAM" })
end

return M
