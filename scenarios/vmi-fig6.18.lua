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
local falls, cells = true, {}
for _, sch in ipairs(P.schemes) do
  local c, last = {}, math.huge
  for _, r in ipairs(runs) do
    if r.scheme == sch then
      falls = falls and r.newton < last
      last = r.newton
      c[#c + 1] = tostring(r.newton)
    end
  end
  cells[#cells + 1] = sch .. ": " .. table.concat(c, " / ")
end
cl:add("newton_total_falls", "the total number of Newton iterations decreases with p (fewer macro steps)", "decreasing",
       V.plist(P.p) .. table.concat(cells, "; ") .. " (accept: strictly decreasing in p for every scheme)", V.one_p(P) or falls)
local top = P.stab_p[1]
local stable, said, others = true, {}, {}
for _, s in ipairs(summary) do
  local ok = s.failed == 0 and s.max_relerr <= 0.1
  local txt = string.format("%s: %s, abs(H − H₀)/H₀ > 0.1 from t = %s, max %s", s.scheme,
    s.failed == 1 and string.format("Newton fails at t = %g (%s)", s.t_end, s.msg) or string.format("reaches t = %g", s.t_end),
    s.t_10 < 0 and "never" or string.format("%g", s.t_10), S.sci(s.max_relerr, 2))
  if s.p == top then stable = stable and ok; said[#said + 1] = txt else others[#others + 1] = string.format("ΔT = %g, %s", s.dT, ok and string.format("%s: reaches t = %g, max %s", s.scheme, s.t_end, S.sci(s.max_relerr, 2)) or txt) end
end
cl:add("dT1_stable", "§7: large macro steps, around 1 s (p = 1000), can be chosen without losing stability", "ΔT ≈ 1 stable",
       string.format("ΔT = %g (p = %d) to t = %g, %s predictor: %s; H(0) = %.4f%s (accept: every scheme reaches t = %g with abs(H − H₀)/H₀ ≤ 0.1)",
                     top * P.dt, top, P.stab_T, P.stab_predictor, table.concat(said, "; "), long[1] and long[1].H or 0,
                     #others > 0 and ("; " .. table.concat(others, "; ")) or "", P.stab_T), stable)
cl:write(nil, sc.id .. "-claims")
sc:figure(sc.id, { id = sc.id, schemes = P.schemes, stab_p = P.stab_p, stab_T = P.stab_T, dt = P.dt, T = P.T,
                   title = string.format("%s, Δt = %g: work of the study (t_N = %g, %s guess) and long runs", V.describe(model), P.dt, P.T, P.predictor) })
