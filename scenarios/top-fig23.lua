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
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local top = require "top"

local params = top.vertical_params { omega = 1e3, plot_dt = 5e-4 }
params[#params + 1] = { "omega_low", 1e2, "s^-1", "the lower frequency of the O(1/omega) rate", positive = true }
local sc = S.new { id = "top-fig23", title = "Fredbo Figure 23: the vertically vibrated top (41) against its averaged equation (48), omega = 1e3",
                   params = params, quick = { T = 0.5, l_alt = { 0.74 } } }
local P = sc:parse(arg)
top.vertical_check(sc, P)
local r = top.vertical(P, P.omega, P.l, P.fine_dt, P.check_dt)
local rl = top.vertical(P, P.omega_low, P.l, P.fine_dt, P.check_dt)
local cl = top.vertical_output(sc, P, r, { 3e-3, 1e-2, 0.3 })
local pub = cl.pub
local c, cL = r.err.corrected, rl.err.corrected
local rate = math.min(cL.G1 / c.G1, cL.G3 / c.G3)
cl:add("first_order", string.format("(48) is an O(1/ω) approximation: errors from ω = %g to %g", P.omega_low, P.omega), pub.first_order,
       string.format("ΔΓ₃ %.4f → %.5f (×%.1f), ΔΓ₁ %.4f → %.5f (×%.1f) (notes: ≥ 5 each)", cL.G3, c.G3, cL.G3 / c.G3, cL.G1, c.G1, cL.G1 / c.G1),
       rate >= 5)
cl:add("reconstruction", "π = Π + MAl sin(ωt)(Γ₂, −Γ₁, 0) + O(1/ω) ((45), (47))", "(45), (47)",
       string.format("max abs error in π₁, π₂ on the %g s grid: %.3f at ω = %g, %.2f at ω = %g (notes: ≤ 0.5 at 10³; [H] 0.218, 3.37)",
                     P.check_dt, r.recon, P.omega, rl.recon, P.omega_low), r.recon <= 0.5)
local body = {}
local function add(rr)
  for _, a in ipairs { "corrected", "printed", "none" } do
    local e = rr.err[a]
    body[#body + 1] = { string.format("%g", rr.nu), string.format("%g", rr.l), a, string.format("%.3f", rr.coef[a]), string.format("%.5f", e.G3),
                        string.format("%.5f", e.G1), string.format("%.5f", e.G3_fine), string.format("%.5f", e.G1_fine) }
  end
end
add(r)
for _, l in ipairs(P.l_alt) do add(top.vertical(P, P.omega, l, P.fine_dt, P.check_dt)) end
add(rl)
top.write_claims(sc, cl, string.format("**Errors of (48)** against (41), A = %g (max over t = k·%g and over t = k·%g):\n\n", P.A, P.check_dt, P.fine_dt) ..
  S.md_table({ "ω", "l", "coefficient", "value", "ΔΓ₃", "ΔΓ₁", "ΔΓ₃ (fine)", "ΔΓ₁ (fine)" }, body), nil)
sc:figure("top-fig23", { omega = P.omega, A = P.A, l = P.l, avg = P.avg })
