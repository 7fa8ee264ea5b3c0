-- bench-vmi.lua -- the Newton solve inside the variational multirate integrator (Ober-Bloebaum et
-- al., Sec. 6.3), FPU, dt = 0.001, midpoint-midpoint, Newton tolerance 1e-9, measured in one run:
--  * the structured solver's cost per macro step against p, from the drift guess and from the
--    Verlet predictor (the library's default): time per macro step (the whole kz_vmi_run / steps)
--    and its linear-solve part, Newton iterations per step, and the growth exponents over
--    p = 10..1000 (target of issue 12: <= 1.15 with the predictor). 20 macro steps per p (fewer
--    when T = 10 has fewer); the two predictors interleaved, median of 5 repetitions;
--  * the dense baseline (LAPACK dgetrf/dgetrs since issue 12) per Newton iteration, beside the
--    hand-written unblocked LU it replaced (the times checked in with commit b59d120 on this
--    machine type, kept below as constants).
-- Writes OUT/bench/vmi.tsv and vmi.md.
--   luajit scripts/bench-vmi.lua [--out DIR] [--quick]
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local Ti = require "kapitza.timing"
local E = require "kapitza.experiment"
local V = require "kapitza.papers.vmi_convergence"

local cli = S.bench_args("bench-vmi", arg, root, { quick = true })
local out, quick = cli.out, cli.quick

-- The hand-written LU's dense solve per Newton iteration [s] (paper/bench/vmi.tsv of b59d120).
local handwritten = { [1] = 3.5455e-07, [10] = 1.6172e-05, [100] = 9.8751e-03, [1000] = 9.9415 }

local median = Ti.median

-- Warm-up (untimed): the first dense solve binds and pages in LAPACK, the first runs the library.
V.timing("MM", "dense", 2, { dt = 0.001, T = 10, reps = 1, max_steps = 5 })
V.timing("MM", "structured", 2, { dt = 0.001, T = 10, reps = 1, max_steps = 5 })

local ps = quick and { 1, 10, 100 } or { 1, 10, 20, 50, 100, 200, 500, 1000 }
local reps = quick and 1 or 5
local rows = {}
for _, p in ipairs(ps) do
  local row = { p = p, n = 3 * p + 3 }
  local acc = { drift = { t = {}, dx = {} }, verlet = { t = {}, dx = {} } }
  for _ = 1, reps do
    for _, pr in ipairs { "drift", "verlet" } do
      local s = V.timing("MM", "structured", p, { dt = 0.001, T = 10, reps = 1, max_steps = 20, predictor = pr })
      acc[pr].t[#acc[pr].t + 1] = s.t_cpu / s.steps
      acc[pr].dx[#acc[pr].dx + 1] = s.t_dx_step
      acc[pr].it = s.newton / s.steps
    end
  end
  for _, pr in ipairs { "drift", "verlet" } do
    row["step_" .. pr], row["dx_" .. pr], row["iters_" .. pr] = median(acc[pr].t), median(acc[pr].dx), acc[pr].it
  end
  if handwritten[p] then
    local d = V.timing("MM", "dense", p, { dt = 0.001, T = 10, reps = 1, max_steps = p >= 1000 and 1 or (p >= 100 and 3 or 20) })
    row.dense_iter, row.dense_iters, row.handwritten_iter = d.t_dx_iter, d.newton / d.steps, handwritten[p]
    row.lapack_speedup = handwritten[p] / d.t_dx_iter
  end
  rows[#rows + 1] = row
  io.stderr:write(string.format("bench-vmi: p = %4d: structured %.3g s/step (drift, %.2f it) %.3g s/step (Verlet, %.2f it)%s\n",
    p, row.step_drift, row.iters_drift, row.step_verlet, row.iters_verlet,
    row.dense_iter and string.format("; dense LAPACK %.3g s/iteration", row.dense_iter) or ""))
end

local function expo(col, from)
  local xs, ys = {}, {}
  for _, r in ipairs(rows) do if r.p >= from and r[col] then xs[#xs + 1] = r.p; ys[#ys + 1] = r[col] end end
  return E.slope(xs, ys)
end
local e = { step_drift = expo("step_drift", 10), step_verlet = expo("step_verlet", 10), dx_drift = expo("dx_drift", 10),
            dx_verlet = expo("dx_verlet", 10), dense = expo("dense_iter", 10) }
local cols = { "p", "n", "step_drift", "step_verlet", "dx_drift", "dx_verlet", "iters_drift", "iters_verlet", "dense_iter",
               "dense_iters", "handwritten_iter", "lapack_speedup" }
local tsvrows = {}
for k, r in ipairs(rows) do
  local t = {}
  for _, c in ipairs(cols) do t[c] = r[c] or "-" end
  tsvrows[k] = t
end
S.write_atomic(out .. "/bench/vmi.tsv", S.tsv(cols, tsvrows, {
  "FPU, MM, dt = 0.001, tol 1e-9; structured solver: time per macro step [s] (step_: whole step, dx_: linear solves)",
  "and Newton iterations per step, from the drift guess and the Verlet predictor (median of " .. reps .. ", interleaved);",
  "dense_iter: LAPACK dgetrf/dgetrs per Newton iteration [s]; handwritten_iter: the unblocked LU it replaced (b59d120)",
  string.format("growth exponents over p >= 10: step drift %.3f, step Verlet %.3f, solve drift %.3f, solve Verlet %.3f, dense %.3f",
                e.step_drift, e.step_verlet, e.dx_drift, e.dx_verlet, e.dense) }))

local md = {}
for _, r in ipairs(rows) do
  md[#md + 1] = { tostring(r.p), S.sci(r.step_drift), string.format("%.2f", r.iters_drift), S.sci(r.step_verlet),
                  string.format("%.2f", r.iters_verlet), r.dense_iter and S.sci(r.dense_iter) or "–",
                  r.handwritten_iter and S.sci(r.handwritten_iter) or "–",
                  r.lapack_speedup and string.format("%.2f", r.lapack_speedup) or "–" }
end
S.write_atomic(out .. "/bench/vmi.md", "#### Variational multirate integrators: the Newton solve\n\n" ..
  "FPU, midpoint-midpoint, Δt = 0.001, Newton tolerance 10⁻⁹, one run on this machine. Structured solver: time per " ..
  "macro step (whole step) and Newton iterations per step from the drift guess and from the Verlet predictor (median of " ..
  reps .. ", interleaved); dense baseline: LAPACK's dgetrf/dgetrs per Newton iteration beside the hand-written unblocked " ..
  "LU it replaced (checked in with b59d120).\n\n" ..
  S.md_table({ "p", "structured, drift [s/step]", "iterations", "structured, Verlet [s/step]", "iterations",
               "dense LAPACK [s/iteration]", "hand-written LU [s/iteration]", "LAPACK speed-up" }, md) ..
  string.format("\nGrowth exponents over p = 10…%d of the structured solver's cost per macro step: %.2f from the drift guess, " ..
                "**%.2f with the Verlet predictor** (target ≤ 1.15); of its linear solves per step: %.2f and %.2f. " ..
                "Dense solve per iteration: exponent %.2f.\n", ps[#ps], e.step_drift, e.step_verlet, e.dx_drift, e.dx_verlet, e.dense))
