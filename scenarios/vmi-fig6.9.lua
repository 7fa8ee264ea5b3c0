-- ### Figure 6.9: spring ring, angular momentum, midpoint-midpoint, ΔT = 0.01
--
-- **Question.** Gravity (along −e₃) is the only external force on the spring ring, so the Lagrangian
-- is invariant under rotations about e₃ and, by the discrete Noether theorem (Theorem 3.2), the
-- discrete angular momentum L₃ should be "preserved up to the tolerance set in the Newton-Raphson
-- iteration", while L₁ and L₂ are not conserved.
--
-- **Method.** The spring-ring experiments above with the midpoint-midpoint scheme, p ∈ {5, 10}. The
-- figure draws L₁, L₂, L₃ (top), L₃(t) − L₃(0) at the plotted tolerance 10⁻⁸ (middle: the
-- conservation made visible) and the largest |L₃(t) − L₃(0)| against the Newton tolerance (bottom:
-- the runs repeated with the tolerances of `tol_study`, to show that the drift is the Newton
-- solve's and not the method's). Accepted: a drift at most 100 times the plotted tolerance, a
-- drift at the smallest tolerance of the study at least ten times smaller than at the plotted one
-- and at most 1000 times that tolerance (judged at the p whose residual can reach that tolerance:
-- at least its round-off floor m·ulp(q)/Δt, from the initial state), and ranges of L₁ and L₂ above 10.
--
-- **Readings.** The Newton iteration stops on the max-norm of the residual of (3.11) in momentum
-- units; at very small tolerances it also stops when the update reaches round-off, since the
-- residual has a round-off floor of order m·ulp(q)/Δt. Newton converges quadratically: at
-- tolerances 10⁻⁶ and 10⁻⁸ every step takes two iterations, the second already below 10⁻⁸, so these
-- two runs give the same iterates and the same drift; the drift follows the residual actually
-- reached (at most the tolerance) and falls with it at 10⁻¹⁰ and 10⁻¹².
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local V = require "kapitza.papers.vmi_claims"

local sc = S.new {
  id = "vmi-fig6.9",
  title = "Ober-Bloebaum et al. Fig. 6.9: spring-ring angular momentum, midpoint-midpoint, dT = 0.01",
  params = V.keys({
    V.scheme_param("MM"),
    { "dT", 0.01, "", "macro step", positive = true, max = 1 },
    { "p", { 5, 10 }, "", "micro steps per macro step (list; one column of panels each)", integer = true, min = 1, max = 10000 },
    { "T", 50, "", "final time", positive = true, max = 1e4 },
    { "tol", 1e-8, "", "Newton tolerance of the plotted runs", positive = true, max = 1 },
    { "tol_study", { 1e-6, 1e-8, 1e-10, 1e-12 }, "", "Newton tolerances of the drift study (list)", positive = true, min = 1e-15, max = 1 },
    { "stride", 2, "", "write every stride-th macro node", integer = true, min = 1, max = 1e6 },
  }, V.ring_params()),
  quick = { T = 5, tol_study = { 1e-8, 1e-12 } },
  work = function(P) return V.work_runs(P.p, P.T, P.dT) * 3 * (1 + #P.tol_study), "force evaluations" end,
}
local P = sc:parse(arg)
V.check_nodes(sc, math.ceil(P.T / P.dT), V.max_rows, "parameters 'T', 'dT'", "macro nodes T/dT")
local model = V.model("SR", P)

-- The plotted runs and the tolerance study.
local study, plotted = {}, {}
sc:progress_start(#P.p * #P.tol_study)
for _, p in ipairs(P.p) do
  -- the runs are compute cells (lib/lua/kapitza/scenario/cells.lua: a sweep's merge replays them)
  local L = sc:cell("run", { p = p }, function()
    local _, L = V.ring_energies(model, P.scheme, { p = p, dT = P.dT, T = P.T, tol = P.tol })
    return L
  end, { ignore = { "tol_study" } })
  local kept = {}
  for i = 1, #L, P.stride do kept[#kept + 1] = L[i] end
  sc:write_tsv(string.format("data/%s-p%d.tsv", sc.id, p), { "t", "L1", "L2", "L3", "dL3" }, kept,
               { string.format("%s, %s, dT = %g, p = %d, Newton tol %g, every %d-th node; dL3 = L3(t) - L3(0)",
                               V.describe(model), P.scheme, P.dT, p, P.tol, P.stride) })
  plotted[p] = { V.L_drift(L) } -- drift of L3, ranges of L1 and L2
  for _, tol in ipairs(P.tol_study) do
    local row = sc:cell("study", { p = p, tol_study = tol }, function()
      local _, Lt, res = V.ring_energies(model, P.scheme, { p = p, dT = P.dT, T = P.T, tol = tol })
      local d3, w1, w2 = V.L_drift(Lt)
      return { p = p, tol = tol, L3_0 = Lt[1].L3, L3_drift = d3, L1_range = w1, L2_range = w2, newton = res.counts.newton_iters }
    end)
    study[#study + 1] = row
    sc:progress(string.format("p = %d, tol = %g", p, tol))
  end
end
sc:write_tsv("tables/" .. sc.id .. ".tsv", { "p", "tol", "L3_0", "L3_drift", "L1_range", "L2_range", "newton" },
             study, { "L3_drift = max_t |L3(t) - L3(0)|; L1_range, L2_range = max - min over t" })

-- The claims of Sec. 6.1 beside the measurements.
local cl = E.claims(sc)
local tmin = math.huge
for _, t in ipairs(P.tol_study) do tmin = math.min(tmin, t) end
local function studied(p) for _, s in ipairs(study) do if s.p == p and s.tol == tmin then return s end end end
local why = "the momentum map of a symmetry of the discrete Lagrangian (Thm 3.2), at any parameters, up to the Newton solve"
cl:claim { key = "L3_conserved", text = "the angular momentum L₃ about the gravity axis is preserved up to the Newton tolerance",
  published = "up to the tolerance", any = why,
  judge = function()
    local parts, items = {}, {}
    for _, p in ipairs(P.p) do
      local d = plotted[p][1]
      parts[#parts + 1] = E.T("p = %d: %.2e", p, d)
      items[#items + 1] = { ok = d <= 100 * P.tol, label = "p = " .. p }
    end
    return { measured = E.join(parts, "; ") .. E.T(" (max abs(L₃(t) − L₃(0)) at tolerance %v; accept ≤ %v × the tolerance)", P.tol, 100),
             items = items, what = "values of p" }
  end }
-- the drift can follow the tolerance only where the Newton solve stops near it: at a p whose drift at
-- the plotted tolerance is far below it (the iteration converged much further, e.g. an explicit
-- slow part), the drift is round-off already and a smaller tolerance cannot lower it
-- and a tolerance below the residual's round-off floor m ulp(q)/Δt (V.residual_floor; Δt = ΔT/p for
-- the fast bodies) is never reached: the drift there follows the floor, not the tolerance
local governed, floors, reachable = {}, {}, {}
for _, p in ipairs(P.p) do
  floors[p] = V.residual_floor(model, P.dT, p)
  if plotted[p][1] >= 1e-2 * P.tol then governed[#governed + 1] = p end
  if tmin >= floors[p] then reachable[#reachable + 1] = p end
end
local judged = {}
for _, p in ipairs(governed) do if tmin >= floors[p] then judged[#judged + 1] = p end end
local gov_list, floor_list = {}, {}
for i, p in ipairs(P.p) do gov_list[i], floor_list[i] = E.T("%.2e", plotted[p][1]), E.T("%.2e", floors[p]) end
cl:claim { key = "L3_follows_tolerance", text = "... the drift is the Newton solve's: it falls with the tolerance", published = "up to the tolerance",
  any = why, premises = { E.premise(tmin < P.tol, "a study tolerance below the plotted one (%v < %v)", tmin, P.tol),
                          E.premise(#governed > 0, "a drift at the plotted tolerance set by the Newton solve (at least %v × the tolerance %v) at some p: %s",
                                    1e-2, P.tol, V.plist(P.p) .. E.join(gov_list, " / ")),
                          E.premise(#reachable > 0, "the smallest study tolerance %v reachable: at least the residual's round-off floor m ulp(q)/Δt at some p: %s",
                                    tmin, V.plist(P.p) .. E.join(floor_list, " / ")),
                          E.premise(#judged > 0, "both at the same p (a drift set by the Newton solve, a reachable tolerance)") },
  judge = function()
    local parts, items = {}, {}
    for _, p in ipairs(judged) do
      local s, d = studied(p), plotted[p][1]
      parts[#parts + 1] = E.T("p = %d: %.2e", p, s.L3_drift)
      items[#items + 1] = { ok = s.L3_drift < d / 10 and s.L3_drift <= 1000 * tmin, label = "p = " .. p }
    end
    local skipped, below = {}, {}
    for _, p in ipairs(P.p) do
      if plotted[p][1] < 1e-2 * P.tol then skipped[#skipped + 1] = E.T("p = %d (%.2e)", p, plotted[p][1])
      elseif tmin < floors[p] then below[#below + 1] = E.T("p = %d (%.2e)", p, floors[p]) end
    end
    return { measured = E.join(parts, "; ") .. E.T(" at tolerance %v (accept: ten times below the drift at %v and ≤ %v × %v)", tmin, P.tol, 1000, tmin) ..
               (#skipped > 0 and (E.T("; not judged where the drift at %v is below %v of it: ", P.tol, 1e-2) .. E.join(skipped, ", ")) or "") ..
               (#below > 0 and (E.T("; not judged where %v is below the round-off floor: ", tmin) .. E.join(below, ", ")) or ""),
             items = items, what = "values of p" }
  end }
cl:claim { key = "L1_L2_vary", text = "L₁ and L₂ are not conserved", published = "not conserved",
  -- without gravity the ring's Lagrangian is invariant under every rotation about the origin (its
  -- springs are central or internal), and L₁, L₂ are momentum maps too (Thm 3.2)
  premises = { E.premise(P.g > 0, "gravity breaks the symmetry about the horizontal axes: g = %v > %v", P.g, 0) },
  judge = function()
    local parts, items = {}, {}
    for _, p in ipairs(P.p) do
      local d, w1, w2 = unpack(plotted[p])
      local floor = math.max(d, P.tol)
      parts[#parts + 1] = E.T("p = %d: %.3g, %.3g", p, w1, w2)
      items[#items + 1] = { ok = w1 > 1e3 * floor and w2 > 1e3 * floor, label = "p = " .. p }
    end
    return { measured = E.join(parts, "; ") .. E.T(" (ranges of L₁, L₂ over the run; accept > %v × the L₃ drift or the tolerance: far beyond the numerical error)", 1e3),
             items = items, what = "values of p" }
  end }
cl:write(nil, sc.id .. "-claims")
sc:figure(sc.id, { id = sc.id, ps = P.p, tmax = P.T, tol = P.tol,
                   title = string.format("%s, %s, ΔT = %g: angular momentum", V.describe(model), V.scheme_names[P.scheme] or P.scheme, P.dT) })
