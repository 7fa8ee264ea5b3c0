-- bench-vmi.lua -- structured vs dense linear solve inside the variational multirate integrator
-- (Ober-Bloebaum et al., Sec. 6.3): solve time per macro step for p in {1, 10, 100, 1000} (FPU,
-- dt = 0.001, midpoint-midpoint, Newton tolerance 1e-9), measured in one run, their ratio, and the
-- fitted growth exponent of each (log-log slope over p). Writes OUT/bench/vmi.tsv and vmi.md.
--   luajit scripts/bench-vmi.lua [--out DIR] [--quick]
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"
local E = require "experiment"
local V = require "vmi"

local out, quick = root .. "/paper", false
local i = 1
while arg[i] do
  if arg[i] == "--out" and arg[i + 1] then out = arg[i + 1]; i = i + 1
  elseif arg[i] == "--quick" then quick = true
  else io.stderr:write("bench-vmi: unknown argument '" .. arg[i] .. "'\n"); os.exit(2) end
  i = i + 1
end

local ps = quick and { 1, 10, 100 } or { 1, 10, 100, 1000 }
local rows = {}
for _, p in ipairs(ps) do
  local s = V.timing("MM", "structured", p, { dt = 0.001, T = 10, reps = 3, max_steps = 20 })
  local d = V.timing("MM", "dense", p, { dt = 0.001, T = 10, reps = 1, max_steps = p >= 1000 and 1 or (p >= 100 and 3 or 20) })
  rows[#rows + 1] = { p = p, n = 3 * p + 3, structured_dx = s.t_dx, dense_dx = d.t_dx, ratio = d.t_dx / s.t_dx,
                      structured_iter = s.t_dx_iter, dense_iter = d.t_dx_iter, ratio_iter = d.t_dx_iter / s.t_dx_iter }
  io.stderr:write(string.format("bench-vmi: p = %d: structured %.3g s, dense %.3g s per macro step\n", p, s.t_dx, d.t_dx))
end
local function expo(col, from)
  local xs, ys = {}, {}
  for _, r in ipairs(rows) do if r.p >= from then xs[#xs + 1] = r.p; ys[#ys + 1] = r[col] end end
  return E.slope(xs, ys)
end
local e = { structured = expo("structured_iter", 10), dense = expo("dense_iter", 10) }
S.write_atomic(out .. "/bench/vmi.tsv", S.tsv({ "p", "n", "structured_dx", "dense_dx", "ratio", "structured_iter",
  "dense_iter", "ratio_iter" }, rows, { "linear-solve time per macro step (_dx) and per Newton iteration (_iter) [s];",
  "FPU, MM, dt = 0.001, tol 1e-9; ratio = dense / structured; machine-dependent",
  string.format("growth exponents (p >= 10, per iteration): structured %.3f, dense %.3f", e.structured, e.dense) }))
local md = {}
for _, r in ipairs(rows) do
  md[#md + 1] = { tostring(r.p), tostring(r.n), S.sci(r.structured_dx), S.sci(r.dense_dx), string.format("%.3g", r.ratio) }
end
S.write_atomic(out .. "/bench/vmi.md", "#### Variational multirate integrators: structured vs dense Newton solve\n\n" ..
  S.md_table({ "p", "unknowns", "structured [s/macro step]", "dense LU [s/macro step]", "dense / structured" }, md) ..
  string.format("\nGrowth exponent of the solve time per Newton iteration over p ≥ 10: structured %.2f, dense %.2f " ..
                "(FPU, midpoint-midpoint, Δt = 0.001, one run on this machine).\n", e.structured, e.dense))
