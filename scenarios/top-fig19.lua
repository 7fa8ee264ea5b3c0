-- ### Figure 19: the top under a transverse vibrational torque (38)
--
-- **Question.** Section 6 adds a torque a(t) perpendicular to the top's axis, (38):
-- Π̇₁ = ((I₂ − I₃)/(I₂I₃))Π₂Π₃ + MglΓ₂ + a(t), the rest as (31). A small a(t) leaves the motion of
-- Figure 11 nearly unchanged; a(t) = ω cos ωt (39) at ω = 10³ changes it: Π₁, Π₂, Γ₁, Γ₂ oscillate
-- fast, and Π₂ shows "slowly varying constituents" (Figure 19, by ODE45).
--
-- **Method.** `kz_top_sys` with the transverse forcing (amplitude amp, frequency ν; (39):
-- amp = ν = ω), Π⁰ = (1/ω, 0, ωΠ̂₃), Γ⁰ = (0, sin 0.2, cos 0.2), RK4 with h = 10⁻⁷ (the step the
-- thesis uses for its reference in Figure 20); maxima over every tenth RK4 step (the check grid,
-- 10⁻⁶ s); plotted data every hundredth. The forced response is measured by least squares of Π₁
-- and Π₂ on {1, cos ωt, sin ωt} over [0, T]; the effect of the forcing by the largest difference
-- to the unforced top from the same state, for a(t) = ω cos ωt and for a small a(t) = cos ωt.
--
-- **Readings.** (A11) The time span is not given: T = 0.02 (as Figure 20). The thesis's
-- "slowly varying constituents" of Π₂ are read as its response at the forcing frequency ω, which
-- is slow against the body rotation Λ = 16.16ω: [D] Π₂ ≈ −Λω/(Λ² − ω²) cos ωt ≈ −0.062 cos ωt and
-- Π₁ ≈ −ω²/(Λ² − ω²) sin ωt ≈ −0.0038 sin ωt, on top of the free rotation at Λ of amplitude ≈ 0.06.
-- Check values: the notes' [H] (§5 VIB-F19).
local root = arg[0]:match("^(.*)/scenarios/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local top = require "kapitza.papers.top"

local params = top.model_params()
for _, p in ipairs {
  { "omega", 1e3, "", "spin multiplier: Pi3 = omega Pi3^", positive = true },
  { "amp_w", 1, "", "forcing amplitude amp = amp_w omega (39: 1)" },
  { "nu_w", 1, "", "forcing frequency nu = nu_w omega (39: 1)", positive = true },
  { "small_amp", 1, "kg m^2 s^-2", "amplitude of the 'small' forcing compared" },
  { "Pi1w", 1, "", "initial Pi1 = Pi1w / omega" },
  { "T", 0.02, "s", "span", positive = true },
  { "h", 1e-7, "s", "RK4 step", positive = true },
  { "check_every", 10, "", "check grid: every k-th RK4 step", integer = true, min = 1 },
  { "plot_every", 100, "", "data file: every k-th RK4 step", integer = true, min = 1 },
} do params[#params + 1] = p end
local sc = S.new { id = "top-fig19", title = "Fredbo Figure 19: the top (38) under the transverse torque a(t) = omega cos(omega t)",
                   params = params, quick = { T = 0.005 },
                   work = function(P) return 3 * require("kapitza.scenario.work").grid(P.T, P.h * P.check_every, P.h), "force evaluations" end }
local P = sc:parse(arg)
local nu = P.nu_w * P.omega
local forced = top.model(P, { forcing = "transverse", amp = P.amp_w * P.omega, nu = nu })
local small = top.model(P, { forcing = "transverse", amp = P.small_amp, nu = nu })
local free = top.model(P)
local x0 = forced.x0(P.omega, P.Pi1w / P.omega, P.theta0)
local dt = P.h * P.check_every
E.check_grid(sc, P.T, dt, "parameters 'T', 'h', 'check_every'")
local c = E.grid(forced.sys, P.T, dt, x0, P.h)
local cs = E.grid(small.sys, P.T, dt, x0, P.h)
local cf = E.grid(free.sys, P.T, dt, x0, P.h)

local names = { "Pi1", "Pi2", "Pi3", "Gamma1", "Gamma2", "Gamma3" }
local rows, xlo, xhi, tlo, thi = {}, math.huge, -math.huge, math.huge, -math.huge
local dlarge, dsmall = 0, 0
local dPi, ampPi = 0, 0 -- the forced change of Pi1, Pi2 and the unforced top's own amplitude in them
for n = 1, #c[1] do
  for i = 1, 2 do
    dPi = math.max(dPi, math.abs(c[i][n] - cf[i][n]))
    ampPi = math.max(ampPi, math.abs(cf[i][n]))
  end
  local x4 = c[4][n] * c[4][n] + c[5][n] * c[5][n]
  local th = math.acos(c[6][n])
  xlo, xhi, tlo, thi = math.min(xlo, x4), math.max(xhi, x4), math.min(tlo, th), math.max(thi, th)
  for i = 1, 6 do
    dlarge = math.max(dlarge, math.abs(c[i][n] - cf[i][n]))
    dsmall = math.max(dsmall, math.abs(cs[i][n] - cf[i][n]))
  end
  if ((n - 1) * P.check_every) % P.plot_every == 0 then
    local r = { t = (n - 1) * dt }
    for i = 1, 6 do r[names[i]] = (c[i][n]) end
    rows[#rows + 1] = r
  end
end
sc:write_tsv("data/top-fig19.tsv", { "t", "Pi1", "Pi2", "Pi3", "Gamma1", "Gamma2", "Gamma3" }, rows,
  { string.format("top-fig19: the top (38), a(t) = %g cos(%g t), omega = %g, RK4 h = %g", P.amp_w * P.omega, nu, P.omega, P.h) })

-- least squares of a column on {1, cos nu t, sin nu t}
local function fit(col)
  local A = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 } }
  local b = { 0, 0, 0 }
  for n = 1, #col do
    local t = (n - 1) * dt
    local f = { 1, math.cos(nu * t), math.sin(nu * t) }
    for i = 1, 3 do
      b[i] = b[i] + f[i] * col[n]
      for j = 1, 3 do A[i][j] = A[i][j] + f[i] * f[j] end
    end
  end
  for i = 1, 3 do -- Gaussian elimination (the 3 x 3 normal equations are well conditioned here)
    for k = i + 1, 3 do
      local m = A[k][i] / A[i][i]
      for j = i, 3 do A[k][j] = A[k][j] - m * A[i][j] end
      b[k] = b[k] - m * b[i]
    end
  end
  local x = { 0, 0, 0 }
  for i = 3, 1, -1 do
    local s = b[i]
    for j = i + 1, 3 do s = s - A[i][j] * x[j] end
    x[i] = s / A[i][i]
  end
  return x
end
local f1, f2 = fit(c[1]), fit(c[2])
local lam = forced.constants.lambda * P.omega
local a2 = -lam * nu / (lam * lam - nu * nu) * P.amp_w * P.omega / nu
local a1 = -nu * nu / (lam * lam - nu * nu) * P.amp_w * P.omega / nu
-- fast oscillation: mean frequency of Gamma1's sign changes
local crossings = 0
for n = 2, #c[4] do if (c[4][n - 1] < 0) ~= (c[4][n] < 0) then crossings = crossings + 1 end end
local fG = crossings / 2 / P.T * 2 * math.pi

local cl = E.claims(sc)
local pub = cl.pub
local why = "the response of the forced top (38), at any parameters"
-- the forcing as run (a(t) = amp_w ω cos(nu_w ω t)); the printed case reads "ω cos ωt"
local arg_t = P.nu_w == 1 and E.T("ωt") or E.T("%vωt", P.nu_w)
local amp_t = P.amp_w == 1 and E.T("ω") or E.T("%vω", P.amp_w)
-- a forcing of amplitude 0 is the unforced top itself: the comparisons with it are empty
local forced_p = E.premise(P.amp_w ~= 0, "the forcing acts (amp_w = %v; at 0, a(t) = 0 is the unforced top itself, the baseline)", P.amp_w)
local small_p = E.premise(P.small_amp ~= 0, "the small forcing acts (small_amp = %v; at 0 it is no forcing)", P.small_amp)
cl:claim { key = "small_force", text = "a small a(t) (= small_amp cos ωt) leaves the solution almost as without forcing", published = pub.small_force, any = why,
  premises = { forced_p, small_p },
  judge = function()
    return { measured = E.T("a(t) = %v cos %s: max abs difference to the unforced top %.2e (a(t) = %s cos %s: %.2e; accept ≤ %v %% of it)", P.small_amp, arg_t, dsmall,
                            amp_t, arg_t, dlarge, 1),
             items = { dsmall <= 1e-2 * dlarge }, what = "difference" }
  end }
-- "significant": the forced Pi1, Pi2 differ from the unforced ones by more than the unforced top's
-- own amplitude in Pi1, Pi2 (the change exceeds the motion it changes)
cl:claim { key = "large_force", text = "a(t) = ω cos ωt changes the solution significantly", published = pub.large_force, any = why,
  premises = { forced_p },
  judge = function()
    return { measured = E.T("max abs difference to the unforced top in Π₁, Π₂ %.3f (all components %.3f) against the unforced amplitude " ..
                            "max abs Π₁, Π₂ = %.3g: ×%.1f (accept > %v: the change exceeds the motion)", dPi, dlarge, ampPi, dPi / ampPi, 1),
             items = { dPi > ampPi }, what = "difference" }
  end }
cl:claim { key = "fast_components", text = "Π₁, Π₂, Γ₁, Γ₂ oscillate fast", published = pub.fast_components, any = why,
  judge = function()
    return { measured = E.T("Γ₁ changes sign at a mean rate of %.2fω rad/s (Π₃/I₃ = %.2fω; accept ≥ %vω)", fG / P.omega, forced.constants.spin, 10),
             items = { fG >= 10 * P.omega }, what = "rate" }
  end }
cl:claim { key = "pi2_slow_part", text = "Π₂ has slowly varying constituents besides the fast oscillation", published = tostring(pub.pi2_slow_part) .. " (notes [H]: −0.06207)",
  any = why, premises = { forced_p },
  judge = function()
    return { measured = E.T("least squares on [%v, T]: Π₂ ∋ %.5f cos νt (estimate [D] −Λν/(Λ² − ν²)·amp/ν = %.5f; accept ±%v %% of the estimate), " ..
                            "Π₁ ∋ %.5f sin νt (estimate %.5f)", 0, f2[2], a2, 10, f1[3], a1),
             items = { top.within(f2[2], a2, 0.10) }, what = "amplitude" }
  end }
cl:claim { key = "ranges", text = "(notes [H]) ξ₄ = Γ₁² + Γ₂² and θ stay nearly constant", published = "— [H] ([0.039459, 0.039470], [0.19997, 0.20000])",
  at = top.print_at(sc, nil, { "plot_every" }),
  judge = function()
    return { measured = E.T("ξ₄ ∈ [%.6f, %.6f] (accept ± %v), θ ∈ [%.6f, %.6f] (printed to %v decimals: accept ± %v) on the grid %v s", xlo, xhi, 2e-6, tlo, thi, 5, 5e-6, dt),
             items = { math.abs(xlo - 0.039459) <= 2e-6, math.abs(xhi - 0.039470) <= 2e-6, math.abs(tlo - 0.19997) <= 5e-6, math.abs(thi - 0.2) <= 5e-6 },
             what = "bounds" }
  end }
top.write_claims(sc, cl, nil, string.format("Maxima over every %d-th RK4 step (grid %g s).", P.check_every, dt))
sc:figure("top-fig19", { omega = P.omega, amp = P.amp_w * P.omega, nu = nu })
