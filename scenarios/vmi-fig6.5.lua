-- ### Figure 6.5: FPU, stiff-spring energies, trapezoidal-trapezoidal, ΔT = 0.03
--
-- **Question.** With both potentials integrated by the "trapezoidal" rule (Theorem 3.5), does the
-- time at which I₂ returns to zero change "enormously with p from t = 100 for p = 1 to
-- approximately t = 170 for p = 10", does the amplitude of the oscillations of I decrease with p,
-- and is ΔT = 0.03 "near the instability region of the single rate integrator p = 1 as linear
-- stability requires ΔTω < 2, thus ΔT < 0.04"?
--
-- **Method.** The FPU experiments above with V and W by the left rectangle rule (α = γ = 1 in (4.8)
-- for both; (3.49)–(3.53) with α_V = α_W = 1): the fast part is a symplectic Euler scheme
-- (3.51)–(3.53) with the interpolated slow positions as parameters. ΔT = 0.03, ten times smaller
-- than in Figs. 6.3–6.4, as in the caption. The return of I₂ to zero is located as for Figure 6.4;
-- the check asks for the printed times (`paper/reference/vmi-fig6.5.tsv`: 100 for p = 1, 170 for
-- p = 10) within ±15 and a later return for larger p. The stability bound is located on the
-- implemented scheme: its one-step map for a fast harmonic oscillator of frequency ω at p = 1
-- (the fast block of the propagation matrix, as in Figure 5.1) is unstable when its spectral
-- radius exceeds 1 + 10⁻⁹ (scan and bisection on ωΔT); the FPU itself is then run with p = 1 at
-- (1 ∓ `margin`) times that bound to t_N.
--
-- **Readings.** As in §6, "trapezoidal" is the left rectangle rule (first order); `scheme=TTh` runs
-- the α = ½ trapezoids. For p = 1 the nodal I is not centred on 1: the symplectic-Euler nodal values
-- of a harmonic oscillator carry an O(ωΔt) offset from its energy (a registered deviation of the
-- "oscillating around I(0) = 1" claim; the mean of I over the run is constant, so I is still an
-- adiabatic invariant). The data files keep every `stride`-th macro node (Δ = 0.06); the checks use
-- every node.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-fig6.5",
  title = "Ober-Bloebaum et al. Fig. 6.5: FPU stiff-spring energies, trapezoidal-trapezoidal (left rectangle), dT = 0.03",
  params = V.keys({
    V.scheme_param("TT"),
    { "dT", 0.03, "", "macro step", positive = true, max = 10 },
    { "p", { 1, 5, 10 }, "", "micro steps per macro step (list; one column of panels each)", integer = true, min = 1, max = 10000 },
    { "T", 200, "", "final time (N = ceil(T/dT) steps)", positive = true, max = 1e5 },
    { "tol", 1e-9, "", "Newton tolerance (max-norm residual, momentum units)", positive = true, max = 1 },
    { "window", 5, "", "window length of the I2 envelope", positive = true, max = 1e4 },
    { "stride", 2, "", "write every stride-th macro node", integer = true, min = 1, max = 1e6 },
    { "margin", 0.05, "", "the FPU stability runs at (1 - margin) and (1 + margin) times the linear bound (p = 1)",
      positive = true, max = 0.5 },
  }, V.fpu_params()),
  quick = { T = 50 },
  work = function(P) return (V.work_runs(P.p, P.T, P.dT) + V.work_runs({ 1, 1 }, P.T, 1 / P.omega)) * P.l / 3, "force evaluations" end,
}
local P = sc:parse(arg)

-- Sweep over p, data, table, the claims of Sec. 6.1 for Figs. 6.3-6.5 and the figure (lib/lua/kapitza/vmi.lua);
-- then what the text says of this figure.
V.fpu_exchange(sc, P, "return", function(cl, summary, cells)
  local pub = {}
  for _, r in ipairs(sc:reference()) do pub[r.p] = r.t_return end -- t = 100 (p = 1), 170 (p = 10)
  local at, near = E.paper_at(sc, { "omega", "l", "dT", "scheme", "tol" }), 15 -- "approximately t = ...": within 15
  for _, s in ipairs(summary) do
    if pub[s.p] then
      cl:claim { key = "I2_zero_p" .. s.p, text = string.format("the energy of the second spring is zero at t ≈ %g for p = %d", pub[s.p], s.p),
        published = string.format("t ≈ %g", pub[s.p]), at = at,
        premises = { V.return_window(P, near), E.inside(pub[s.p] + P.window, P.T, "the printed return and the window after it") },
        judge = function()
          return { measured = E.T("t = %v (E₂ = %.3f; accept: window start within %v of %v)", s.t_I2_return, s.E2_return, near, pub[s.p]),
                   items = { math.abs(s.t_I2_return - pub[s.p]) <= near }, what = "return time" }
        end }
    end
  end
  cl:claim { key = "I2_zero_later", text = "the time at which I₂ is zero changes enormously with p: later for larger p", published = "later with p",
    any = "a smaller micro step Δt = ΔT/p, at any parameters",
    premises = { V.two_p(P), V.scheme_in(P, { "TT", "TTh" }, "the trapezoidal-trapezoidal scheme (for trapezoidal-midpoint the paper says the opposite)"),
                 V.stiff(P), V.spans_exchange(P) },
    judge = function()
      local items = V.pair_items(summary, function(a, b) return b.t_I2_return >= a.t_I2_return and b.t_I2_return >= 0 and a.t_I2_return >= 0 end)
      return { measured = V.plist(P.p) .. cells(function(s) return s.t_I2_return < 0 and "none" or E.T("%v", s.t_I2_return) end) ..
                 " (accept: a return at every p, non-decreasing in p)", items = items, what = "steps in p" }
    end }
  V.amplitude_decreases(cl, summary, cells, P)

  -- "linear stability requires dT omega < 2, thus dT < 0.04": the implemented scheme at p = 1.
  if P.scheme == "TT" then
    local model = V.model("FPU", P)
    local bound = V.fast_bound(P.scheme, P.omega, 1)
    local runs = {}
    for i, f in ipairs { 1 - P.margin, 1 + P.margin } do
      local r = V.run_until(model, P.scheme, { p = 1, dT = f * bound, T = P.T, tol = P.tol, reuse = true })
      local top = 0
      for k = 0, r.steps do local _, s = V.fpu_I(model, r.row(k)); top = math.max(top, s) end
      runs[i] = { ok = r.ok, t = r.steps * f * bound, top = top, msg = r.message }
    end
    local function say(r) return r.ok and E.T("reaches t = %.2f, max I = %.3g", r.t, r.top)
                                      or E.T("fails at t = %.2f (%s; max I before the failure: %.3g)", r.t, E.quote(r.msg), r.top) end
    cl:claim { key = "single_rate_stability", text = "ΔT = 0.03 is near the instability of the single-rate (p = 1) integrator: linear stability needs ωΔT < 2, ΔT < 0.04",
      published = "ΔT < 0.04", at = E.paper_at(sc, { "omega", "dT" }), -- "ΔT = 0.03 is near": printed at ΔT = 0.03
      judge = function()
        return { measured = E.T("implemented, single rate: ΔT* = %.7f (ωΔT* = %.7f), ΔT/ΔT* = %.2f; FPU at %.2fΔT*: ", bound, P.omega * bound, P.dT / bound, 1 - P.margin) ..
                   say(runs[1]) .. E.T("; at %.2fΔT*: ", 1 + P.margin) .. say(runs[2]) ..
                   E.T(" (accept: ωΔT* = %v to %v, ΔT < ΔT*, bounded below (max I < %v), unbounded or failing above (max I > %v))", 2, 1e-6, 2, 10),
                 items = { { ok = math.abs(P.omega * bound - 2) <= 1e-6, label = "the bound" }, { ok = P.dT < bound, label = "ΔT below it" },
                           { ok = runs[1].ok and runs[1].top < 2, label = "bounded below" }, { ok = not runs[2].ok or runs[2].top > 10, label = "unbounded above" } },
                 what = "checks" }
      end }
  end
end)
