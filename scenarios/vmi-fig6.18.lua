-- ### Figure 6.18: Newton iterations and work versus p; large macro steps over a long run
--
-- **Question.** §6.3: with Δt fixed and ΔT = pΔt, larger p means fewer but larger nonlinear systems.
-- Does the total number of Newton iterations fall with p, "resulting in the seen computing time
-- savings"? And §7: "a high number of micro steps and therefore large macro time steps, around 1
-- sec, can be chosen … without loosing stability" — does ΔT = 1 (p = 1000) stay stable beyond the
-- study's t_N = 10?
--
-- **Method.** The computing-time study above: per scheme and p the total Newton iterations (the
-- paper's right panel), gradient and Hessian evaluations of the whole run (left: iterations; centre:
-- evaluations). The paper's left panel, t_cpu, is measured by `make bench`. For §7 the FPU is run
-- with Δt = 0.001 and p ∈ `stab_p` = {1000, 500} (ΔT = 1 and 0.5) to t = `stab_T` = 200 with each
-- scheme, Newton from the Verlet predictor (the library's default, which gives Newton its best
-- start; the drift guess fails at the same steps); stable means reaching t = 200 with the total
-- energy H within 10 % of H(0) (right panel: the relative energy error until the run ends).
--
-- **Readings.** Per macro step the Newton iterations grow with p (1 at p = 1, 2 for p = 20–100,
-- 4.5 at p = 1000 from the drift guess; Figure 6.19), so the total falls less than the number of
-- macro steps, and the total evaluations (p gradients and Hessians per iteration) do not fall at
-- all: the paper's savings must come from per-step overheads that a compiled code does not have
-- (measured in `paper/bench/vmi-timing.md`).
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local V = require "kapitza.papers.vmi_convergence"

local sc = S.new {
  id = "vmi-fig6.18",
  title = "Ober-Bloebaum et al. Fig. 6.18: FPU Newton iterations and work versus p; macro steps near 1 over a long run",
  params = V.study_params {
    { "predictor", "drift", "", "Newton's initial guess of the study (lib/methods/kz_vmi.c)", choices = { "drift", "verlet" } },
    { "stab_p", { 1000, 500 }, "", "micro steps per macro step of the long runs (dT = p dt; list)", integer = true, min = 1, max = 100000 },
    { "stab_T", 200, "s", "final time of the long runs", positive = true, max = 1e4 },
    { "stab_predictor", "verlet", "", "Newton's initial guess of the long runs", choices = { "drift", "verlet" } },
  },
  quick = { p = { 1, 5, 10, 50 }, T = 1, stab_T = 20 },
  work = function(P)
    local n = V.study_work(P)
    for _, p in ipairs(P.stab_p) do n = n + 6 * p * math.ceil(P.stab_T / (p * P.dt)) * 3 * #P.schemes end
    return n, "force evaluations"
  end,
}
local P = sc:parse(arg)
V.study_check(sc, P, P.T)
V.study_check(sc, { p = P.stab_p, dt = P.dt }, P.stab_T, "stab_T")
local model = V.model("FPU", P)

-- The study: whole runs at every scheme and p (work counts only).
local runs = {}
sc:progress_start(#P.schemes * (#P.p + #P.stab_p))
for _, sch in ipairs(P.schemes) do
  for _, p in ipairs(P.p) do
    -- each run a compute cell (lib/lua/kapitza/scenario/cells.lua: a sweep's merge replays it)
    runs[#runs + 1] = sc:cell("study", { schemes = sch, p = p }, function()
      return V.study_run(model, sch, p, { dt = P.dt, T = P.T, tol = P.tol, predictor = P.predictor })
    end, { ignore = { "stab_p" } })
    sc:progress(string.format("%s p = %d", sch, p))
  end
end
local cols = { "scheme", "p", "N", "unknowns", "newton", "jac_evals", "force_evals", "hess_evals" }
sc:write_tsv("data/" .. sc.id .. ".tsv", cols, runs,
             { string.format("%s, dt = %g, T = %g, Newton tol %g, %s guess, structured solver: totals over the run", V.describe(model),
                             P.dt, P.T, P.tol, P.predictor),
               "newton = Jacobian assemblies = linear solves; force_evals: gradients of V and W; hess_evals: Hessians of the Jacobian passes" })

-- Sec. 7: large macro steps over a long run.
local long, summary = {}, {}
for _, sch in ipairs(P.schemes) do
  for _, p in ipairs(P.stab_p) do
    local r = sc:cell("long", { schemes = sch, stab_p = p }, function()
      return V.long_run(model, sch, p, { dt = P.dt, T = P.stab_T, tol = P.tol, predictor = P.stab_predictor })
    end, { ignore = { "p" } })
    local Hmax = 0
    for _, row in ipairs(r.rows) do
      long[#long + 1] = { scheme = sch, p = p, t = row.t, H = row.H, relerr = row.relerr }
      Hmax = math.max(Hmax, math.abs(row.H))
    end
    summary[#summary + 1] = { scheme = sch, p = p, dT = r.dT, t_end = r.t_end, failed = r.ok and 0 or 1,
                              max_relerr = r.max_relerr, t_10 = r.t_10, H_max = Hmax, newton = r.newton, msg = r.message }
    sc:progress(string.format("%s long run p = %d", sch, p))
  end
end
sc:write_tsv("data/" .. sc.id .. "-stability.tsv", { "scheme", "p", "t", "H", "relerr" }, long,
             { string.format("%s, dt = %g, long runs to t = %g (%s predictor, Newton tol %g): total energy H and (H - H0)/H0 at every",
                             V.describe(model), P.dt, P.stab_T, P.stab_predictor, P.tol), "macro node reached (a run stops where Newton fails)" })
sc:write_tsv("tables/" .. sc.id .. ".tsv", { "scheme", "p", "dT", "t_end", "failed", "max_relerr", "t_10", "H_max", "newton" }, summary,
             { string.format("long runs to t = %g: the time reached, whether Newton failed, max |H - H0|/H0, the first time it", P.stab_T),
               "exceeds 0.1 (-1: never), the largest |H| and the Newton iterations" })

-- The claims.
local cl = E.claims(sc)
cl:claim { key = "newton_total_falls", text = "the total number of Newton iterations decreases with p (fewer macro steps)", published = "decreasing",
  any = "fewer macro steps T/(p Δt) as p grows, at any parameters", premises = { V.two_p(P) },
  judge = function()
    -- the counts sorted by p (the list may be given in any order); a scheme whose guess already
    -- meets the tolerance at every p (no Newton iteration at all) has no count to fall
    local cells, items, sorted, none = {}, {}, {}, {}
    for i, p in ipairs(P.p) do sorted[i] = p end
    table.sort(sorted)
    for _, sch in ipairs(P.schemes) do
      local mine, total = {}, 0
      for _, r in ipairs(runs) do if r.scheme == sch then mine[#mine + 1] = r; total = total + r.newton end end
      table.sort(mine, function(a, b) return a.p < b.p end)
      local c = {}
      for i, r in ipairs(mine) do
        c[#c + 1] = E.T("%d", r.newton)
        if i > 1 and total > 0 then items[#items + 1] = { ok = r.newton < mine[i - 1].newton, label = string.format("%s p = %d → %d", sch, mine[i - 1].p, r.p) } end
      end
      cells[#cells + 1] = sch .. ": " .. E.join(c, " / ")
      if total == 0 then none[#none + 1] = sch end
    end
    return { measured = V.plist(sorted) .. E.join(cells, "; ") .. " (accept: strictly decreasing in p for every scheme)" ..
               (#none > 0 and ("; not judged: " .. table.concat(none, ", ") .. E.T(" (%d iterations at every p: the %s guess solves the steps)", 0, P.predictor)) or ""),
             items = items, what = "steps in p" }
  end }
-- §7: "macro time steps around 1 sec" (p = 1000 at dt = 0.001), over a run as long as the
-- paper's FPU runs (T = 200 of Figs. 6.3-6.5): instability shows late (Newton fails at t = 62 and later)
local one
for _, p in ipairs(P.stab_p) do if math.abs(p * P.dt - 1) < 1e-9 then one = p end end
cl:claim { key = "dT1_stable", text = "§7: large macro steps, around 1 s (p = 1000), can be chosen without losing stability", published = "ΔT ≈ 1 stable",
  any = "a statement about the scheme at ΔT = 1 on the FPU problem",
  premises = { E.premise(one ~= nil, "a long run at ΔT = p Δt = %v (stab_p, dt)", 1),
               E.premise(P.stab_T >= 200, "the long runs span the paper's FPU runs: stab_T = %v at least %v", P.stab_T, 200) },
  judge = function()
    local said, others, items = {}, {}, {}
    for _, s in ipairs(summary) do
      local ok = s.failed == 0 and s.max_relerr <= 0.1
      local txt = E.T("%s: ", s.scheme) .. (s.failed == 1 and E.T("Newton fails at t = %v (%s)", s.t_end, E.quote(s.msg)) or E.T("reaches t = %v", s.t_end)) ..
                  E.T(", abs(H − H₀)/H₀ > %v from t = ", 0.1) .. (s.t_10 < 0 and "never" or E.T("%v", s.t_10)) .. E.T(", max %.2e", s.max_relerr)
      if s.p == one then said[#said + 1] = txt; items[#items + 1] = { ok = ok, label = s.scheme }
      else others[#others + 1] = E.T("ΔT = %v, ", s.dT) .. txt end
    end
    return { measured = E.T("ΔT = %v (p = %d) to t = %v, %s predictor: ", one * P.dt, one, P.stab_T, P.stab_predictor) .. E.join(said, "; ") ..
               E.T("; H(0) = %.4f", long[1] and long[1].H or 0) .. (#others > 0 and ("; " .. E.join(others, "; ")) or "") ..
               E.T(" (accept: every scheme reaches t = %v with abs(H − H₀)/H₀ ≤ %v)", P.stab_T, 0.1),
             items = items, what = "schemes" }
  end }
cl:write(nil, sc.id .. "-claims")
sc:figure(sc.id, { id = sc.id, schemes = P.schemes, stab_p = P.stab_p, stab_T = P.stab_T, dt = P.dt, T = P.T,
                   title = string.format("%s, Δt = %g: work of the study (t_N = %g, %s guess) and long runs", V.describe(model), P.dt, P.T, P.predictor) })
