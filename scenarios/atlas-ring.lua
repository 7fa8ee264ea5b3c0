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
package.path = root .. "/lib/lua/?.lua;" .. package.path
require("kapitza.atlas.run").scenario("ring", arg) -- lib/lua/kapitza/atlas/run.lua: the sweep, its outputs and claims
