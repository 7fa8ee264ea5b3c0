-- ### Figure 23: the vertically vibrated top (41) and its averaged equation (48), ω = 10³
--
-- **Question.** As Figure 22 with ω = 10³: is the averaged equation (48) an O(1/ω) approximation
-- of the slow motion, and does the leading-order reconstruction π ≈ Π + MAl sin(ωt)(Γ₂, −Γ₁, 0) of
-- (45)/(47) hold?
--
-- **Method.** As Figure 22 (RK4 on (41) with steps ≤ 2·10⁻³/ω, on (48) with steps ≤ 10⁻⁴, T = 2),
-- at ω = 10³ and again at ω = 10² for the rate: errors in Γ₁, Γ₃ as maxima over t = 0, 0.01, …, 2
-- (and over the 10⁻⁴ grid); the reconstruction error max|π₁,₂ − [Π + MAl sin(ωt)(Γ₂, −Γ₁, 0)]₁,₂|
-- on the 0.01 grid (Π, Γ from the corrected (48)).
--
-- **Errata and readings.** Those of Figure 22 (A14): the corrected coefficient M²A²l²/2 by default
-- (`avg=printed` for the printed MA/2), Π × I⁻¹Π for the printed Γ × I⁻¹Π, l = 0.75 (0.74 beside).
-- Addendum 3: the notes' numbers are maxima over samples every 0.01 s; over the 10⁻⁴ grid the
-- ΔΓ₁ error at ω = 10³ is 4.7·10⁻³ instead of 4.4·10⁻³ — both grids are reported.
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local top = require "kapitza.papers.top"

local params = top.vertical_params { omega = 1e3, plot_dt = 5e-4 }
params[#params + 1] = { "omega_low", 1e2, "s^-1", "the lower frequency of the O(1/omega) rate", positive = true }
local sc = S.new { id = "top-fig23", title = "Fredbo Figure 23: the vertically vibrated top (41) against its averaged equation (48), omega = 1e3",
                   params = params, quick = { T = 0.5, l_alt = { 0.74 } },
                   work = function(P)
                     local W = require "kapitza.scenario.work"
                     return (1 + #P.l_alt) * W.top_vertical(P, P.omega) + W.top_vertical(P, P.omega_low), "force evaluations"
                   end }
local P = sc:parse(arg)
top.vertical_check(sc, P)
-- every run a compute cell (lib/lua/kapitza/scenario/cells.lua: a sweep's merge replays it)
local function vertical(nu, l)
  return sc:cell("vertical", { nu = nu, l_run = l }, function() return top.vertical(P, nu, l, P.fine_dt, P.check_dt) end,
                 { ignore = { "l_alt" } })
end
local r = vertical(P.omega, P.l)
local rl = vertical(P.omega_low, P.l)
local off = top.off_print(sc, P, nil, { "l_alt", "avg", "plot_dt", "fine_dt", "full_h", "avg_h" })
local cl = top.vertical_output(sc, P, r, { 3e-3, 1e-2 }, off)
local pub = cl.pub
local c, cL = r.err.corrected, rl.err.corrected
-- O(1/omega): the errors must fall at least half as fast as omega_low/omega
local want = 0.5 * P.omega / P.omega_low
local two = E.premise(P.omega_low < P.omega, "omega_low = %v below omega = %v (an O(1/ω) rate)", P.omega_low, P.omega)
local vib = E.premise(P.A > 0 and c.G3 > 0 and cL.G3 > 0 and c.G1 > 0 and cL.G1 > 0 and r.recon > 0,
                      "the vibration changes the motion (A = %v; errors to measure at both ω)", P.A)
cl:claim { key = "first_order", text = "(48) is an O(1/ω) approximation: errors from omega_low to omega", published = pub.first_order,
  any = "an asymptotic order in 1/ω of the averaging", premises = { two, vib },
  judge = function()
    return { measured = E.T("ω = %v → %v: ΔΓ₃ %.3e → %.3e (×%.3g), ΔΓ₁ %.3e → %.3e (×%.3g) (O(1/ω): ×%v; accept ≥ ×%v each)", P.omega_low, P.omega,
                            cL.G3, c.G3, cL.G3 / c.G3, cL.G1, c.G1, cL.G1 / c.G1, P.omega / P.omega_low, want),
             items = { { ok = cL.G3 / c.G3 >= want, label = "Γ₃" }, { ok = cL.G1 / c.G1 >= want, label = "Γ₁" } }, what = "components" }
  end }
cl:claim { key = "reconstruction", text = "π = Π + MAl sin(ωt)(Γ₂, −Γ₁, 0) + O(1/ω) ((45), (47))", published = "(45), (47)",
  any = "an asymptotic order in 1/ω of the averaging", premises = { two, vib },
  judge = function()
    return { measured = E.T("max abs error in π₁, π₂ on the %v s grid: %.3g at ω = %v, %.3g at ω = %v (×%.3g; accept ≥ ×%v)", P.check_dt, r.recon,
                            P.omega, rl.recon, P.omega_low, rl.recon / r.recon, want),
             items = { rl.recon / r.recon >= want }, what = "ratio" }
  end }
cl:claim { key = "reconstruction_notes", text = "the reconstruction error within the notes' bound", published = "— (notes: ≤ 0.5 at 10³; [H] 0.218, 3.37)",
  at = top.print_at(sc, nil, { "l_alt", "avg", "plot_dt", "fine_dt", "full_h", "avg_h" }),
  judge = function() return { measured = E.T("%.3g", r.recon), items = { r.recon <= 0.5 }, what = "error" } end }
local runs = { r }
for _, l in ipairs(P.l_alt) do runs[#runs + 1] = vertical(P.omega, l) end
runs[#runs + 1] = rl
top.write_claims(sc, cl, string.format("**Errors of (48)** against (41), A = %g (max over t = k·%g and over t = k·%g; all digits in " ..
                                       "tables/%s-errors.tsv):\n\n", P.A, P.check_dt, P.fine_dt, sc.id) .. top.vertical_errors(sc, runs), nil)
sc:figure("top-fig23", { omega = P.omega, A = P.A, l = P.l, avg = P.avg })
