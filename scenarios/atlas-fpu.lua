-- ### Atlas: the Fermi–Pasta–Ulam chain (Ober-Blöbaum, Wenger, Gail & Leyendecker, Sec. 6)
--
-- **Question.** FPU couples soft nonlinear springs to stiff linear ones of frequency ω. The
-- variational multirate integrators take p micro-steps of the fast potential per macro step of
-- the slow one. Does that make them cheaper than a single-rate integration for a given error as
-- ω grows, counted in force evaluations?
--
-- **Method.** FPU with three stiff springs (HLW I.5.1): q^s(0) = (1, 0, 0), q^f(0) = (1/ω, 0, 0),
-- p^s(0) = p^f(0) = (1, 0, 0), on [0, 1]. Error: ‖y(T) − y_ref(T)‖/‖y_ref(T)‖ over every position
-- and momentum, against RK4 with 128 and 256 steps per fast period 2π/ω, Richardson. The methods:
-- the variational multirate schemes MM, TM, TT of Sec. 6 and the second-order variants TMh, TTh
-- (α = ½ in the trapezoid), Newton to 10⁻¹² with the structured solver, on a grid of macro steps
-- ΔT × micro-steps p; every registry stepper that takes the Hamiltonian equations (RK4, DP5,
-- Euler, VE), n steps per fast period. Work: gradient evaluations of V and W as the schemes count
-- them (every quadrature point, every Newton iteration, the Verlet predictor), force evaluations
-- of the steppers. ω = 50, 200, 800; targets 10⁻³, 10⁻⁵.
--
-- **Readings.** The multirate schemes resolve the fast oscillation with their micro-steps, so their
-- cost grows with ω like a direct integration's; what they save is the size of the Newton systems
-- (the structured solver), which force evaluations do not show. CPU seconds, which do, are in
-- `make bench` (below).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
require("kapitza.atlas.run").scenario("fpu", arg) -- lib/lua/kapitza/atlas/run.lua: the sweep, its outputs and claims
