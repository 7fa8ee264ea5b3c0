-- ### Figure 5: the inverted pendulum at ω = 200 and its averaged solution
--
-- **Question.** Section 2.4 introduces the vibrated inverted pendulum (11)–(12),
-- l q̈ = (g + v_max ω cos ωt) sin q, and Sanz-Serna's averaged equation (13),
-- Ṗ = (g/l − v_max²/(2l²) cos Q) sin Q, Q̇ = P, with the relation (14) p ≈ P + l⁻¹v_max sin(ωt) sin Q,
-- q ≈ Q. Figure 5 shows q, p = q̇ and the averaged Q, P "with ε⁻¹ = 200": the pendulum oscillates
-- slowly about the upward vertical, p carries an O(1) oscillation of frequency ω, q an O(1/ω) one.
--
-- **Method.** (12) and (13) integrated by classical RK4 with steps of at most 2π/(200ω) (the full
-- model) on [0, T], sampled every dt = 10⁻⁴ s — the grid of every max-over-time check below; the
-- plotted data are every fifth sample. Parameters l = 0.2 m, g = 9.81 m s⁻², v_max = 4 m s⁻¹ and
-- q(0) = 0, p(0) = −5 (so P(0) = −5 by (14)).
--
-- **Readings.** (A16) Figure 5's settings are not given: we reuse Figure 6's (l, g, v_max, initial
-- values) with ω = 200 and take t ∈ [0, 2] (notes A11). The thesis's ε⁻¹ = 200 is ω. The check
-- values max|q − Q| = 0.163 and max|p − P − l⁻¹v_max sin(ωt) sin Q| = 3.74 are the notes' prototype
-- numbers [H] (±5 %), not the thesis's. Derived [D]: Q = 0 is stable since v_max²/(2l²) = 200 >
-- g/l = 49.05; the linearised slow period is 2π/√150.95 = 0.511 s.
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local models = require "kapitza.models"
local top = require "kapitza.papers.top"

local sc = S.new {
  id = "top-fig5",
  title = "Fredbo Figure 5: the vibrated inverted pendulum (12) at omega = 200 with its averaged solution (13)",
  params = {
    { "omega", 200, "s^-1", "vibration angular frequency (the thesis's eps^-1)", positive = true },
    { "l", 0.2, "m", "rod length", positive = true },
    { "g", 9.81, "m s^-2", "acceleration of gravity" },
    { "vmax", 4, "m s^-1", "amplitude of the pivot velocity" },
    { "q0", 0, "rad", "initial angle from the upward vertical" },
    { "p0", -5, "rad s^-1", "initial angular velocity (= P(0) by (14))" },
    { "T", 2, "s", "span", positive = true },
    { "dt", 1e-4, "s", "sampling grid of the checks", positive = true },
    { "plot_every", 5, "", "write every k-th sample to the data file", integer = true, min = 1 },
    { "steps_per_period", 200, "", "RK4 steps per vibration period", integer = true, min = 4 },
  },
  quick = { T = 0.5 },
  work = function(P) -- (12) and (13) by RK4 on the grid dt, steps <= one period / steps_per_period
    return 2 * require("kapitza.scenario.work").grid(P.T, P.dt, 2 * math.pi / P.omega / P.steps_per_period), "force evaluations"
  end,
}
local P = sc:parse(arg)
E.check_grid(sc, P.T, P.dt, "parameters 'T', 'dt'") -- the checks sample every dt: T/dt whole

local pend = models.pendulum { l = P.l, g = P.g, vmax = P.vmax, omega = P.omega }
local hmax = 2 * math.pi / P.omega / P.steps_per_period
local full, avg = E.grid(pend.sys, P.T, P.dt, { P.q0, P.p0 }, hmax), E.grid(pend.avg, P.T, P.dt, { P.q0, P.p0 }, hmax)
local q, p, Q, Pa = full[1], full[2], avg[1], avg[2]
local dq, dlift, dp, rows, Qmin, Qmax, crossings = 0, 0, 0, {}, math.huge, -math.huge, {}
for n = 1, #q do
  local t = (n - 1) * P.dt
  local lift = P.vmax * math.sin(P.omega * t) * math.sin(Q[n]) / P.l
  dq = math.max(dq, math.abs(q[n] - Q[n]))
  dlift = math.max(dlift, math.abs(p[n] - Pa[n] - lift))
  dp = math.max(dp, math.abs(p[n] - Pa[n]))
  Qmin, Qmax = math.min(Qmin, Q[n]), math.max(Qmax, Q[n])
  if n > 1 and (Q[n - 1] < 0) ~= (Q[n] < 0) and Q[n] ~= 0 then crossings[#crossings + 1] = t end
  if (n - 1) % P.plot_every == 0 then
    rows[#rows + 1] = { t = t, q = (q[n]), p = (p[n]), Q = (Q[n]), P = (Pa[n]),
                        p_recon = (Pa[n] + lift) }
  end
end
sc:write_tsv("data/top-fig5.tsv", { "t", "q", "p", "Q", "P", "p_recon" }, rows,
  { string.format("top-fig5: pendulum (12), omega = %g, l = %g, g = %g, vmax = %g, q(0) = %g, p(0) = %g; Q, P: averaged (13); p_recon = P + vmax/l sin(omega t) sin Q (14)",
                  P.omega, P.l, P.g, P.vmax, P.q0, P.p0) })

local cl = E.claims(sc)
local pub = cl.pub
local stable = P.vmax * P.vmax / (2 * P.l * P.l) > P.g / P.l
-- the linearised slow period of (13) about Q = 0: 2 pi / sqrt(vmax^2/(2 l^2) - g/l) [D]
local lin = stable and 2 * math.pi / math.sqrt(P.vmax * P.vmax / (2 * P.l * P.l) - P.g / P.l)
cl:claim { key = "slow_oscillation", text = "the pendulum oscillates slowly around the stable equilibrium q = 0", published = pub.slow_oscillation,
  any = "Kapitza's stability of the inverted pendulum wherever vmax²/(2l²) > g/l",
  -- the statement is about a stable q = 0: without Kapitza's condition there is no equilibrium to
  -- oscillate about (n/a, not "no"); with it, the run must span a linearised slow period
  premises = { stable and E.premise(P.T >= lin, "the run spans a linearised slow period (T = %v, period %.3g s)", P.T, lin)
               or E.premise(false, "q = 0 is stable: Kapitza's condition vmax²/(%vl²) > g/l fails (%.6g ≤ %.6g)", 2,
                            P.vmax * P.vmax / (2 * P.l * P.l), P.g / P.l) },
  judge = function()
    -- the period from the sign changes: three or more (two give half a period at best)
    local per = #crossings >= 3 and E.T("period %.3f s", 2 * (crossings[#crossings] - crossings[1]) / (#crossings - 1)) or E.T("no period (it needs %d sign changes)", 3)
    return { measured = E.T("Q ∈ [%.4f, %.4f], %d sign changes, ", Qmin, Qmax, #crossings) .. per ..
               (stable and E.T(" (linearised [D]: %.3f s)", lin) or " (linearised [D]: none, not stable)") ..
               E.T("; vmax²/(%vl²) = %.6g %s g/l = %.6g", 2, P.vmax * P.vmax / (2 * P.l * P.l), stable and ">" or "≤", P.g / P.l),
             items = { { ok = stable, label = "stable" }, { ok = #crossings >= 2, label = "oscillates" }, { ok = math.max(-Qmin, Qmax) < 0.5, label = "slowly near 0" } },
             what = "checks" }
  end }
-- the notes' check values and the reading of the caption are the printed case's
local at = top.print_at(sc, nil, { "plot_every", "steps_per_period" })
cl:claim { key = "q_wiggle", text = "q = Q + small oscillations of frequency O(ω) and amplitude O(ω⁻¹) (14)", published = tostring(pub.q_wiggle) .. " (notes [H]: 0.163)",
  at = at,
  judge = function()
    return { measured = E.T("max abs(q − Q) = %.4f rad = %.1f/ω on the grid dt = %v s (accept ±%v %%)", dq, dq * P.omega, P.dt, 5),
             items = { top.within(dq, 0.163, 0.05) }, what = "value" }
  end }
cl:claim { key = "p_relation", text = "p = P + l⁻¹v_max sin(ωt) sin Q + O(ω⁻¹) (14)", published = tostring(pub.p_relation) .. " (notes [H]: 3.74)", at = at,
  judge = function()
    return { measured = E.T("max abs(p − P − l⁻¹v_max sin(ωt) sin Q) = %.3f against max abs(p − P) = %.3f on the grid dt = %v s (accept ±%v %%)", dlift, dp, P.dt, 5),
             items = { top.within(dlift, 3.74, 0.05), dlift < dp }, what = "checks" }
  end }
cl:claim { key = "omega", text = "ε⁻¹ = ω", published = tostring(pub.omega), at = at,
  judge = function() return { measured = E.T("%v", P.omega), items = { P.omega == tonumber(pub.omega) }, what = "value" } end }
top.write_claims(sc, cl, nil,
  "Every maximum is over the samples t = k·dt of the check grid. The O(1/ω) terms of (14) are not small at ω = 200: " ..
  "the phase of the averaged solution drifts by O(t/ω), which max abs(q − Q) accumulates.")
sc:figure("top-fig5", { omega = P.omega, q0 = P.q0, p0 = P.p0 })
