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
package.path = root .. "/lib/lua/?.lua;" .. package.path
require("kapitza.atlas.run").scenario("dpend", arg) -- lib/lua/kapitza/atlas/run.lua: the sweep, its outputs and claims
