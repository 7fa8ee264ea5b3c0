-- ### Figure 6.18: computing time and Newton iterations versus p
--
-- **Question.** §6.3: with the micro step Δt fixed and ΔT = pΔt, larger p means fewer but larger
-- nonlinear systems. Does the total number of Newton iterations fall with p, does the multirate
-- integrator save computing time against the single-rate one (p = 1), and do the savings stop for
-- large p? The paper also finds trapezoidal-trapezoidal (Q3) slightly faster than trapezoidal-midpoint
-- (Q2).
--
-- **Method.** FPU (Figure 6.3 data), Δt = 0.001, p ∈ {1, 5, 10, 20, 50, 100, 200, 500, 1000},
-- t_N = 10 (so p = 1000 still takes 10 macro steps), schemes Q1 = midpoint-midpoint, Q2 =
-- trapezoidal-midpoint, Q3 = trapezoidal-trapezoidal (left rectangle, §6), Newton tolerance 10⁻⁹, one
-- Newton solve of all p n_f + n_s = 3p + 3 unknowns per macro step with the analytic Jacobian, solved
-- (a) by the structured elimination of the arrowhead Jacobian (cost linear in p) and (b) by a dense LU
-- of the whole Jacobian (cubic in p), as the paper's Matlab code presumably did. Newton iterations
-- are deterministic and written to `paper/data/vmi-fig6.18.tsv`; the times (monotonic clock, fastest
-- of `reps` runs) go to `paper/data/vmi-fig6.18-timing.tsv` and are machine-dependent.
--
-- **Readings.** t_N and the list of p are not given; the caption's "p ∈ {1, 5, …, 1000}" is filled in
-- as above. The dense solver is run only up to p = `dense_pmax` = 100 here (one dense factorisation
-- costs ≈ 0.05 s at p = 200 and ≈ 10 s at p = 1000 on this machine, so a whole run would break the
-- time budget); Figure 6.19 and `make bench` measure its per-step cost at larger p. Absolute times
-- are not comparable with the paper's (Matlab 2011a on a 2011 iMac); only the trends are. Newton
-- converges quadratically (the Jacobian is exact), so every scheme takes one iteration per step at
-- p = 1 (for the left-rectangle schemes the p = 1 step is even linear in the unknowns for FPU),
-- ≈ 1.04–1.15 per macro step at p = 5, ≈ 1.85 at p = 10, 2 for p = 20–100 and ≈ 2.8 / 3.4 / 4.5
-- at p = 200 / 500 / 1000 (table of Figure 6.19). The total therefore falls with p, but each
-- iteration costs p evaluations of the force and of the Hessian: per micro step a macro step costs
-- (iterations + 1) gradient and (iterations) Hessian evaluations of V and W. In compiled C these
-- dominate, not the per-step overhead of the Newton loop that Matlab pays, so the multirate
-- integrator saves time only where the iterations per macro step stay near one: at p = 5 (t_cpu
-- ≈ 0.83–0.93 of its p = 1 value for all three schemes over repeated runs on this machine), while
-- for p ≥ 10 t_cpu is above its p = 1 value, flat for p = 20–100 and growing with the iterations
-- per macro step beyond.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local V = require "vmi"

local sc = S.new {
  id = "vmi-fig6.18",
  title = "Ober-Bloebaum et al. Fig. 6.18: FPU computing time and Newton iterations versus p",
  params = {
    { "p", { 1, 5, 10, 20, 50, 100, 200, 500, 1000 }, "", "micro steps per macro step (list)", integer = true, min = 1 },
    { "dt", 0.001, "s", "micro step (fixed)", positive = true },
    { "T", 10, "s", "final time", positive = true },
    { "schemes", { "MM", "TM", "TT" }, "", "Q1, Q2, Q3 (list)", choices = { "MM", "TM", "TT", "TMh", "TTh" } },
    { "dense_pmax", 100, "", "largest p run with the dense solver", integer = true, min = 0 },
    { "reps", 3, "", "repetitions per timing (the fastest is kept)", integer = true, min = 1 },
    { "tol", 1e-9, "", "Newton tolerance", positive = true },
    V.timing_predictor_param,
  },
  quick = { p = { 1, 5, 10, 50 }, T = 1, dense_pmax = 10, reps = 1 },
}
local P = sc:parse(arg)

-- Every scheme and p with the structured and the dense solver (lib/vmi.lua).
local runs = V.timing_sweep(sc, P)
sc:write_tsv("data/" .. sc.id .. ".tsv", { "scheme", "solver", "p", "N", "newton", "jac_evals" }, runs,
             { string.format("FPU, dt = %g, T = %g, Newton tol %g: total Newton iterations over the run", P.dt, P.T, P.tol) })
sc:write_tsv("data/" .. sc.id .. "-timing.tsv", { "scheme", "solver", "p", "N", "t_cpu" }, runs,
             { "machine-dependent: total computing time [s] of the run (fastest of reps)" })

-- Claims of Sec. 6.3 beside the measurements.
local function get(sch, solver, p, col)
  for _, r in ipairs(runs) do if r.scheme == sch and r.solver == solver and r.p == p then return r[col] end end
end
local md, mdt = {}, {}
for _, sch in ipairs(P.schemes) do
  local mono, cells, tc = true, {}, {}
  for i, p in ipairs(P.p) do
    local n = get(sch, "structured", p, "newton")
    if i > 1 then mono = mono and n < get(sch, "structured", P.p[i - 1], "newton") end
    cells[#cells + 1] = tostring(n)
    tc[#tc + 1] = string.format("%.3g", get(sch, "structured", p, "t_cpu"))
  end
  md[#md + 1] = { sch, "Newton iterations fall with p", table.concat(cells, " / "), mono and "yes" or "**no**" }
  mdt[#mdt + 1] = { sch, "t_cpu [s], structured", table.concat(tc, " / "), "" }
  local t1, best = get(sch, "structured", P.p[1], "t_cpu"), math.huge
  for i = 2, #P.p do best = math.min(best, get(sch, "structured", P.p[i], "t_cpu") / t1) end
  mdt[#mdt + 1] = { sch, "multirate saves time: min over p > 1 of t_cpu(p)/t_cpu(1), structured",
                  string.format("%.2f", best), best < 1 and "yes" or "**no**" }
  local dc = {}
  for _, p in ipairs(P.p) do
    local t = get(sch, "dense", p, "t_cpu")
    if t then dc[#dc + 1] = string.format("%.3g", t) end
  end
  mdt[#mdt + 1] = { sch, "t_cpu [s], dense (p ≤ " .. P.dense_pmax .. ")", table.concat(dc, " / "), "" }
end
local q2, q3 = 0, 0
for _, p in ipairs(P.p) do
  q2 = q2 + (get("TM", "structured", p, "t_cpu") or 0)
  q3 = q3 + (get("TT", "structured", p, "t_cpu") or 0)
end
if q2 > 0 and q3 > 0 then
  mdt[#mdt + 1] = { "TT vs TM", "Q3 needs less time than Q2 (sum of t_cpu over p, structured)",
                  string.format("%.3g vs %.3g s", q3, q2), q3 <= q2 and "yes" or "**no**" }
end
sc:write_text("tables/" .. sc.id .. ".md", S.md_table({ "scheme", "quantity", "p = " .. table.concat(P.p, " / "), "holds" }, md))
sc:write_text("tables/" .. sc.id .. "-timing.md", S.md_table({ "scheme", "quantity", "p = " .. table.concat(P.p, " / "), "holds" }, mdt) ..
  V.timing_note)
