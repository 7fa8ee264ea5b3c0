-- ### Sharp, Tsai & Engquist, Figure 3.1: HMM-FE-v and HMM-IFE-v over a long time
--
-- **Question.** With the coarse microscale of Table 1, row 1 (η = 10ε, h = ε/10: "about 10 grid
-- points per oscillation, and the convolution with K is a domain containing about 10 cycles"),
-- how well do the first-order schemes HMM-FE-v and HMM-IFE-v follow the averaged motion (3.2) up
-- to T = 50 (13.7 slow periods), and what does it cost against a direct integration?
--
-- **Method.** (1.1), ε = 10⁻⁶, g = 0.1, l = 0.05, (Θ₀, Ω₀) = (0, −0.4), H = 0.01 (5000 macro
-- steps); micro-solver v (velocity Verlet) over the symmetric window, 100 micro-steps per
-- estimate; kernel (3.5) normalised; reconstruction (3.4); exact phase (t_n is a multiple of ε).
-- The averaged solution of (3.2) by RK4 (steps ≤ 5·10⁻⁴). Written every `stride`-th macro node.
--
-- **Readings.** As Figure 3.2 (A1–A5, A8, A11, A13). A12: the text's "computational savings …
-- on the order of 10⁹" cannot be a savings factor: a first-order method with the micro-step h
-- needs T/h = 5·10⁸ force evaluations, the HMM 5000 × 100 = 5·10⁵ micro-steps, a ratio of 10³,
-- which is the Conclusion's "about 10³ (O(η/H))"; the 10⁹ is the order of the direct count.
-- A16: Verlet at 10 points per period over-resolves the forced oscillation by (2π/10)²/12 ≈ 3.3 %,
-- a bias in the ⟨v²⟩ term that is intrinsic to row 1; by t = 50 FE-v visibly spirals out and
-- IFE-v leads in phase. We report this rather than change parameters; the paper's plot (an image)
-- cannot be checked for it. The checks use the tolerances of notes §7 (the addendum agrees with the
-- notes' values to 2–3 digits).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local E = require "experiment"
local ste = require "ste"

local sc = S.new {
  id = "ste-fig3.1",
  title = "Sharp, Tsai & Engquist Figure 3.1: HMM-FE-v and HMM-IFE-v on [0, 50]",
  params = ste.params {
    { "T", 50, "s", "end of the run (Table 1, row 1)", positive = true, max = 1e4 },
    { "H", 0.01, "s", "macro step (row 1)", positive = true, max = 1 },
    { "eta_eps", 10, "", "window width eta in units of eps (row 1: 10)", positive = true, max = 1e4 },
    { "h_per_eps", 10, "", "micro-steps per forcing period, h = eps/h_per_eps (row 1: 10)", positive = true, max = 1e5 },
    { "micro", "v", "", "micro-solver of both runs", choices = ste.micros.names },
    { "stride", 5, "", "write every stride-th macro node", integer = true, min = 1, max = 1e6 },
  },
  quick = { T = 10 },
}
local P = sc:parse(arg)

ste.check_grid(sc, P, { P.H })
local model = ste.model(P)
local o = { H = P.H, T = P.T, eta = P.eta_eps * P.eps, h = P.eps / P.h_per_eps, micro = P.micro }
sc:progress_start(3)
local ref = ste.reference(model, P, P.T, P.H)
sc:progress("reference (3.2)")
local runs = {}
for _, macro in ipairs { "FE", "IFE" } do
  o.macro = macro
  local Th, Om, w = ste.run(model, P, o)
  runs[macro] = { Th = Th, Om = Om, work = w }
  sc:progress("HMM-" .. macro .. "-" .. P.micro)
end

local rows = {}
for n = 1, #ref[1], P.stride do
  rows[#rows + 1] = { t = (n - 1) * P.H, Theta_FE = runs.FE.Th[n], Omega_FE = runs.FE.Om[n],
                      Theta_IFE = runs.IFE.Th[n], Omega_IFE = runs.IFE.Om[n], Theta_ref = ref[1][n], Omega_ref = ref[2][n] }
end
sc:write_tsv("data/ste-fig3.1.tsv", { "t", "Theta_FE", "Omega_FE", "Theta_IFE", "Omega_IFE", "Theta_ref", "Omega_ref" }, rows,
  { string.format("ste-fig3.1: HMM-FE-%s and HMM-IFE-%s, H = %g, eta = %g eps, h = eps/%g, eps = %g; every %d-th macro node",
                  P.micro, P.micro, P.H, P.eta_eps, P.h_per_eps, P.eps, P.stride),
    "Theta_ref, Omega_ref: the averaged equation (3.2) by RK4" })
sc:figure("ste-fig3.1", { micro = P.micro, caption = string.format("ε = %s, H = %g, η = %gε, h = ε/%g",
          ste.pow10_str(P.eps), P.H, P.eta_eps, P.h_per_eps) })

-- The claims of notes §7 F3.1 and A12 -------------------------------------------------------------
local cl = E.claims(sc)
local function running_max(run, t)
  local n = math.floor(t / P.H + 0.5) + 1
  return E.max_norm({ run.Th, run.Om }, ref, 1, math.min(n, #ref[1]))
end
local ok, cells = true, {}
for _, m in ipairs { "FE", "IFE" } do
  local e2, e5 = running_max(runs[m], 2), running_max(runs[m], 5)
  cells[#cells + 1] = string.format("%s: %.3f, %.3f", m, e2, e5)
  ok = ok and e2 <= 0.04 and e5 <= 0.12
end
cl:add("early_tracking", "the HMM curves follow the averaged solution (running max of (3.6) at t = 2 and 5)",
       "close", table.concat(cells, "; ") .. " (accept ≤ 0.04 and ≤ 0.12; grid: every macro node)", ok and P.T >= 5)
local T1 = math.min(5, P.T)
local A0fe, A1fe = ste.amplitude(runs.FE.Th, P.H, 0, T1), ste.amplitude(runs.FE.Th, P.H, P.T - 5, P.T)
cl:add("fe_grows", "HMM-FE-v spirals out (A16): max abs(Θ) on the last 5 s over the first 5 s", "visible deviation",
       string.format("%.4f / %.4f = %.2f (accept > 1.5)", A1fe, A0fe, A1fe / A0fe), A1fe / A0fe > 1.5)
local A1ife = ste.amplitude(runs.IFE.Th, P.H, P.T - 5, P.T)
cl:add("ife_bounded", "HMM-IFE-v stays bounded: max abs(Θ) on the last 5 s", "bounded",
       string.format("%.4f (accept 0.19–0.25; reference amplitude 0.2315)", A1ife), A1ife >= 0.19 and A1ife <= 0.25)
local pref = ste.period(ref[1], P.H)
local pcell, pok = {}, true
for _, m in ipairs { "FE", "IFE" } do
  local pm = ste.period(runs[m].Th, P.H)
  pcell[#pcell + 1] = string.format("%s %.4f", m, pm or 0 / 0)
  pok = pok and pm ~= nil and math.abs(pm / pref - 1) <= 0.04
end
cl:add("periods", "the slow period of both runs (mean over upward zero crossings)", string.format("%.4f (reference)", pref or 0 / 0),
       table.concat(pcell, ", ") .. " (accept within 4 %)", pok)
local est = runs.FE.work.macro_steps
local per = runs.FE.work.micro_steps / est
local direct = ste.direct_evals(P.T, o.h)
cl:add("resolution", "about 10 grid points per oscillation and about 10 cycles in the window (row 1)", "10, 10",
       string.format("ε/h = %g, η/ε = %g", P.h_per_eps, P.eta_eps), P.h_per_eps == 10 and P.eta_eps == 10)
cl:add("cost", "HMM work: T/H force estimates of η/h micro-steps each", "O(T/H · η/ε)",
       string.format("%d estimates × %d micro-steps = %.3g (per scheme)", est, per, runs.FE.work.micro_steps),
       runs.FE.work.micro_steps == est * per)
local ratio = direct / runs.FE.work.micro_steps
cl:add("savings_conclusion", "Conclusion: savings O(η/H) or about 10³ against a standard method with step h", "about 10³",
       string.format("direct %.3g force evaluations (T/h) / HMM %.3g = %.3g", direct, runs.FE.work.micro_steps, ratio),
       math.abs(math.log10(ratio) - 3) <= 0.5)
cl:add("savings_sec3", "Sec. 3: 'computational savings … on the order of 10⁹'", "10⁹",
       string.format("savings %.3g; 10⁹ is the order of the direct count (%.3g), not of the savings (A12)", ratio, direct),
       math.abs(math.log10(ratio) - 9) <= 0.5)
local periods_ratio = pref and pref / P.eps
cl:add("six_orders", "six orders of magnitude separate the slow period from the fast one", "10⁶",
       string.format("slow period / ε = %.3g", periods_ratio or 0 / 0), periods_ratio ~= nil and math.abs(math.log10(periods_ratio) - 6) < 1)
local cA = ste.crossings(runs.IFE.Th, P.H)
local cR = ste.crossings(ref[1], P.H)
local crossing = (cA[#cA] and cR[#cR]) and
  string.format("IFE-%s's last upward crossing at t = %.3f against the reference's %.3f (phase lead %.2f s).",
                P.micro, cA[#cA], cR[#cR], cR[#cR] - cA[#cA])
  or string.format("Upward zero crossings: IFE-%s %d, the reference %d (no phase lead to measure).", P.micro, #cA, #cR)
cl:write(string.format("At t = %g: HMM-FE-%s (Θ, Ω) = (%.4f, %.4f), HMM-IFE-%s (%.4f, %.4f), reference (%.6f, %.6f). %s",
  P.T, P.micro, runs.FE.Th[#ref[1]], runs.FE.Om[#ref[1]], P.micro, runs.IFE.Th[#ref[1]], runs.IFE.Om[#ref[1]],
  ref[1][#ref[1]], ref[2][#ref[2]], crossing))
