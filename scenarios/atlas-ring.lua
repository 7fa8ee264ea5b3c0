-- ### Atlas: the spring ring (Ober-Blöbaum, Wenger, Gail & Leyendecker, Sec. 6)
--
-- **Question.** The three-dimensional spring ring: six masses joined by quartic springs, the odd
-- ones tied to the origin softly (ω₁ = 2), the even ones stiffly (ω₂). As ω₂ grows, do the
-- variational multirate schemes become cheaper than single-rate integrators for a given error?
--
-- **Method.** The ring of Figs. 6.6–6.8 (masses 2, ε = 5, physical gravity, the paper's initial
-- positions and velocities), on [0, 0.5]. Error: ‖y(T) − y_ref(T)‖/‖y_ref(T)‖ over every position
-- and momentum, against RK4 with 256 and 512 steps per fast period 2π/√(ω₂/m), Richardson. The
-- methods: the multirate schemes MM, TM, TT of Sec. 6 (Newton to 10⁻¹², structured solver) on a
-- grid ΔT × p; every registry stepper that takes the Hamiltonian equations, n steps per fast
-- period. ω₂ = 4·10³ (the paper's), 6.4·10⁴, 1.024·10⁶ (fast frequencies 45, 179, 716 s⁻¹);
-- targets 10⁻³, 10⁻⁵.
--
-- **Readings.** The ring's initial velocities (up to 50) stretch the quartic springs hard, so its
-- *slow* part is itself stiff over [0, 0.5]; the fast period used for the references and the
-- direct steppers' ladders is that of the stiff springs alone. CPU seconds: `make bench` (below).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. root .. "/lib/experiment/?.lua;" .. package.path
local S = require "scenario"
local A = require "atlas"
local AC = require "atlas_claims"
local AW = require "atlas_write"
local prob = require("atlas_problems").ring

local sc = S.new { id = prob.id, title = prob.title, params = A.params(prob, A.names(prob)), quick = prob.quick,
                   work = prob.est }
local P = sc:parse(arg)
local rows, ctxs, methods, na = A.sweep(sc, prob, P)
AW.write(sc, prob, P, rows, ctxs, methods, na)

-- What the atlas states, each measured
local cl, e1 = AC.claims(sc), P.target[1]
AC.claim_exponent(cl, "direct_work_grows", "a direct integration (DP5) needs work growing at least like the fast " ..
                 "frequency √(ω₂/m) for a given error", prob, P, rows, "dp5", P.target[#P.target], 0.8, math.huge)
AC.claim_costlier(cl, "vmi_costlier", "the variational multirate schemes need more force evaluations than an explicit " ..
                 "Runge–Kutta method for a given error", prob, P, rows, methods, e1, { "VMI" }, 1)
AC.claim_cheapest(cl, "vmi_cheapest_stiffest", "at the largest ω₂ a variational multirate scheme is the cheapest method",
                 prob, P, rows, methods, e1, #P.omega2, { "VMI" })
cl:write("Work = force evaluations read from the curves (interpolated); exponents fitted against √(ω₂/m) over the " ..
         "values where the method reaches the target.", sc.id .. "-claims")
