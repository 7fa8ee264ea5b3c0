-- ### Sharp, Tsai & Engquist, Figure 3.5: HMM-V-rk4 with fixed and with scaled η and h
--
-- **Question.** HMM-V-rk4 keeps second order with the fixed row-2 microscale (Figure 3.3). Does
-- the scaling of row 3 "match the second order performance of the fixed method"?
--
-- **Method.** As Figure 3.4 with the rk4 micro-solver (r = 4, s = 2): η stays 50ε (q = ∞) and
-- h = ε/50·(H/H_a)^{1/2} from the anchors H_a = 1 and 0.1, rounded so that η/2 is a whole number
-- of micro-steps. The default H list stops at 0.005 for both curves (the full fixed curve down
-- to 0.001 is Figure 3.3; the scaled one there needs h ≈ ε/500, 2.4·10⁹ evaluations).
--
-- **Readings** as in Figure 3.4. The notes' check "scaled E ≤ 1.1 × fixed E at every H" does not
-- hold and is replaced, following the addendum (item 4): below H ≈ 0.01 the fixed run lies
-- *below* the pure macro error because the RK4 force bias (+2.6·10⁻⁷) partly cancels the Verlet
-- macro error, while the scaled run, with a smaller bias, equals the macro error. The addendum's
-- replacement band 0.8 ≤ scaled/fixed ≤ 2.5 is set around its own measured 2.06, not from the
-- paper; the paper's words are "match the second order performance", so the check is the scaled
-- slope in [1.9, 2.1] and, at every step where the fixed curve is second order (local slope within
-- 2 ± 0.5, an integer order's precision), the scaled one too; the ratio is shown.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local ste = require "kapitza.papers.ste"

local sc = S.new {
  id = "ste-fig3.5",
  title = "Sharp, Tsai & Engquist Figure 3.5: HMM-V-rk4, fixed and scaled eta and h",
  params = ste.scaled_params("HMM-V-rk4"),
  quick = { H = { 0.5, 0.1, 0.02 } },
  work = require("kapitza.scenario.work").ste_curves,
}
local P = sc:parse(arg)
local rows, curves = ste.scaled_sweep(sc, P)

local cl = E.claims(sc)
-- the order of the scaled curve and the anchors (lib/lua/kapitza/papers/ste.lua), then this figure's own claim
ste.scaled_claims(cl, P, rows, "HMM-V-rk4", { text = "with η and h scaled, HMM-V-rk4 matches the second order of the fixed method",
                                      accept = "1.9–2.1", lo = 1.9, hi = 2.1 })
-- "able to match the second order performance of the fixed method" (the paper; no value printed):
-- an order is an integer, so a local slope is second order within 2 ± 0.5; at every step between
-- consecutive common H where the fixed curve is second order, the scaled one must be too. The
-- ratio scaled/fixed is shown, not judged (the notes' band 0.8-2.5 was set around their own 2.06)
local hs, fe, se, ratios = {}, {}, {}, {}
for _, r in ipairs(ste.curve(rows, "HMM-V-rk4-scaled")) do
  local f = ste.at(rows, "HMM-V-rk4", r.H)
  if f then hs[#hs + 1], fe[#fe + 1], se[#se + 1], ratios[#ratios + 1] = r.H, f, r.error, r.error / f end
end
local fs = #hs >= 2 and E.local_slopes(hs, fe) or {}
local ss = #hs >= 2 and E.local_slopes(hs, se) or {}
local second = {}
for i, v in ipairs(fs) do if math.abs(v - 2) < 0.5 then second[#second + 1] = i end end
cl:claim { key = "scaled_vs_fixed", text = "the scaled run matches the second order performance of the fixed one (local slopes between consecutive common H)",
  published = "matches", any = "both are second order with the same macro scheme, at any ε",
  premises = { ste.both_premise(rows, "HMM-V-rk4", "HMM-V-rk4-scaled"),
               E.at_least(#second, 1, E.T("step between consecutive common H where the fixed curve is second order (local slope within %v ± %v)", 2, 0.5)) },
  judge = function()
    local ftxt, stxt, items = {}, {}, {}
    for i = 1, #fs do ftxt[i], stxt[i] = E.T("%.2f", fs[i]), E.T("%.2f", ss[i]) end
    for _, i in ipairs(second) do
      items[#items + 1] = { ok = math.abs(ss[i] - 2) < 0.5, label = string.format("H = %s → %s", ste.frac(hs[i]), ste.frac(hs[i + 1])) }
    end
    local _, lo, hi = E.range(ratios)
    return { measured = E.T("local slopes fixed ") .. E.join(ftxt, " ") .. E.T(", scaled ") .. E.join(stxt, " ") ..
               E.T(" over the %d common H (accept: the scaled within %v ± %v at each of the %d steps where the fixed is; scaled/fixed %.3f–%.3f, shown)",
                   #hs, 2, 0.5, #second, lo, hi),
             items = items, what = "second-order steps of the fixed curve" }
  end }
ste.scaled_finish(cl, sc, P, rows, curves, "HMM-V-rk4")
