-- ### Sharp, Tsai & Engquist, Figure 3.2: first-order HMM schemes with fixed η and h
--
-- **Question.** With the microscale window and step fixed (Table 1, row 2: η = 50ε, h = ε/50,
-- ε = 10⁻⁶), do the first-order schemes HMM-FE-y and HMM-IFE-y converge like O(H) on [0, 12], and
-- where does the force-estimation error ℰ_HMM take over from the macro error ℰ_H? The paper:
-- "In all cases η and h are fixed with respect to H, and O(H) convergence is achieved. In the
-- HMM-IFE-v method however, approximation error associated with the microscale calculation and
-- convolution dominates … for small H"; "some of the curves … eventually flatten out".
--
-- **Method.** (1.1) with g = 0.1, l = 0.05 from (Θ₀, Ω₀) = (0, −0.4). Macro schemes FE (Alg. 3.1)
-- and IFE (Alg. 3.2, symplectic Euler: kick, then drift with the new Ω); micro-solvers v (velocity
-- Verlet, kick–drift–kick) and rk4, forward and backward from t_n over the symmetric window
-- [t_n − η/2, t_n + η/2] (2500 micro-steps per force estimate); the micro data from the
-- ω-reconstruction (3.4); the kernel (3.5) as trapezoidal weights on the micro grid, normalised
-- to sum 1; F̃₍₂₎ the kernel average of the micro force θ̈. Error (3.6) against the averaged
-- equation (3.2) (RK4, steps ≤ 5·10⁻⁴) at every t_n of [0, 12]. H from the 1-2-5 sequence
-- 1 … 0.001 (every H divides 12 and is a multiple of ε).
--
-- **Readings** (notes §8, with the addendum): A1 the 1/l on the micro force (the printed
-- (3.3)–(3.4) omit it); A2 normalised weights (422.11 as printed is `kernel_constant=422.11`);
-- A3 trapezoidal quadrature on the micro grid; A4 forward and backward micro legs; A5 'v' =
-- kick–drift–kick with the force at the grid points; A8 FE drifts with Ω_n ("done in practice",
-- `drift=Komega` for K*ω); A9 the H grid; A11 the reference; A13 the exact phase 2π·frac(t_n/ε).
-- The paper prints no error values (its plots are images): beside each cell we show the value
-- of the notes' independent prototype.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local ste = require "kapitza.papers.ste"

local sc = S.new {
  id = "ste-fig3.2",
  title = "Sharp, Tsai & Engquist Figure 3.2: HMM-FE-y and HMM-IFE-y, fixed eta and h",
  params = ste.curve_params(nil, { curves = { "HMM-FE-v", "HMM-FE-rk4", "HMM-IFE-v", "HMM-IFE-rk4" } }),
  quick = { H = { 0.5, 0.1, 0.02 } },
  work = require("kapitza.scenario.work").ste_curves,
}
local P = sc:parse(arg)

local curves = ste.curves(sc, P.curves)
local rows = ste.sweep(sc, P, curves)
ste.write_curves(sc, P, rows, curves, 1)

-- The claims of notes §7 F3.2 -------------------------------------------------------------------
local cl = E.claims(sc)
local function slope_claim(key, name, lo, hi, alo, ahi, text, settle)
  ste.order_claim(cl, rows, { key = key, name = name, lo = lo, hi = hi, alo = alo, ahi = ahi, text = text, settle = settle or 0.3, P = P })
end
slope_claim("fe_rk4_order1", "HMM-FE-rk4", 0.001, 0.02, 0.9, 1.15, "HMM-FE-rk4 converges at first order")
slope_claim("ife_rk4_order1", "HMM-IFE-rk4", 0.001, 0.1, 0.9, 1.15, "HMM-IFE-rk4 converges at first order")
slope_claim("ife_v_order1_large_H", "HMM-IFE-v", 0.05, 0.5, 0.9, 1.15, "HMM-IFE-v converges at first order while ℰ_H dominates")
slope_claim("fe_v_order1", "HMM-FE-v", 0.002, 0.05, 0.85, 1.3, "HMM-FE-v converges at (roughly) first order", 0.6)
local a, b = ste.at(rows, "HMM-IFE-v", 0.001), ste.at(rows, "HMM-IFE-v", 0.01)
cl:claim { key = "ife_v_flattens", text = "HMM-IFE-v: the micro and convolution error dominates for small H (the curve flattens)", published = "flattens",
  any = "the micro-solver's error, fixed by h/ε and η/ε, bounds the error from below at any ε",
  -- the floor is the Verlet bias of h = eps/50 (row 2): with a finer h it is not reached at these H
  premises = { E.premise(a ~= nil and b ~= nil, "HMM-IFE-v run at both of H %s and %s", ste.Hs(0.001), ste.Hs(0.01)), ste.floor_premise(P) },
  judge = function()
    return { measured = E.T("E(%s)/E(%s) = %.3f (accept > %v; first order would give %v)", ste.Hs(0.001), ste.Hs(0.01), a / b, 0.5, 0.1),
             items = { a / b > 0.5 }, what = "ratio" }
  end }
local md = ste.prototype_claim(cl, sc, P, rows, curves, 0.005)
local est = 0
for _, r in ipairs(rows) do est = est + r.micro_steps end
cl:write(string.format("Each force estimate takes %d micro-steps (η/h, forward and backward from t_n); the sweep made %d in all. " ..
  "FE is unstable for the slow oscillator (growth √(1 + ω²H²) per step, ω ≈ 1.75 s⁻¹), hence E > 1 for H ≥ 0.1.",
  rows[1].micro_steps / rows[1].estimates, est))
sc:write_text("tables/" .. sc.id .. "-errors.md", "Error (3.6) on [0, " .. P.T .. "] (in parentheses: the notes' prototype).\n\n" .. md)
