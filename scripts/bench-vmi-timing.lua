-- bench-vmi-timing.lua -- the computing-time study of Ober-Bloebaum et al., Sec. 6.3 (Figs. 6.18,
-- 6.19), timed (make bench); the scenarios vmi-fig6.18 and vmi-fig6.19 write only its work counts.
-- FPU (omega = 50, l = 3), micro step dt = 0.001, dT = p dt, t_N = 10, Q1 = MM, Q2 = TM, Q3 = TT,
-- Newton tolerance 1e-9 from the drift guess (the scenarios' study), one process:
--  * t_cpu, the whole run, structured solver, for every scheme and p, without the library's part
--    timers (a monotonic clock around kz_vmi_run);
--  * the same runs with the part timers (enum kz_vmi_timing): per macro step the predictor, the
--    residual passes (the gradient = force evaluations), the Jacobian passes (Hessian evaluations
--    and assembly: t_Jacobi), the linear solves (t_dx) and the rest; with the counts, the time per
--    gradient, per Hessian and per unknown of a solve;
--  * t_dx and t_Jacobi with a dense LU (LAPACK) of the whole Jacobian, p <= 200 for every scheme
--    (the first macro steps), p = 500 for MM (one macro step).
-- Every measurement is one sample: the run repeated until it has taken at least `min_sample`
-- seconds, the time per run the total over the repetitions. The configurations are interleaved
-- (round r measures every configuration once) and `rounds` rounds are taken: medians with their
-- spread (smallest and largest sample). Growth exponents in p are fitted per round (least squares
-- over p >= 50) per macro step and per Newton iteration: median and range over the rounds. Ratios
-- and comparisons say "yes"/"no" only where the spreads do not overlap, "undecided" otherwise.
-- Writes OUT/bench/vmi-timing.tsv and vmi-timing.md; figures/bench-vmi-timing.gp draws them.
--   luajit scripts/bench-vmi-timing.lua [--out DIR] [--quick]
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local Ti = require "kapitza.timing"
local E = require "kapitza.experiment"
local V = require "kapitza.papers.vmi_convergence"
local kz = require "kapitza"
local ffi = kz.ffi

local cli = S.bench_args("bench-vmi-timing", arg, root, { quick = true })
local out, quick = cli.out, cli.quick

local now = Ti.now
local function loadavg()
  local f = io.open("/proc/loadavg")
  local s = f and f:read("*l") or "?"
  if f then f:close() end
  return s:match("^(%S+ %S+ %S+)") or s
end

local schemes = { "MM", "TM", "TT" }
local ps = quick and { 1, 10, 100 } or { 1, 5, 10, 20, 50, 100, 200, 500, 1000 }
local dense_ps = quick and { 1, 10 } or { 1, 5, 10, 20, 50, 100, 200 }
local rounds, min_sample = quick and 2 or 5, quick and 0.02 or 0.2
local study = { dt = 0.001, T = 10, tol = 1e-9, predictor = "drift" }
local fpu = V.fpu()
local load0 = loadavg()
local started = now()

-- One sample of f: repeated until min_sample seconds have passed; returns the time per call and
-- the result of the last call, whose fields named in `sum` are replaced by their means over the calls
-- (the part times; the counts are the same in every call).
local function sample(f, sum)
  local n, t0, res, acc = 0, now(), nil, {}
  repeat
    res = f()
    n = n + 1
    for _, k in ipairs(sum or {}) do acc[k] = (acc[k] or 0) + res[k] end
  until now() - t0 >= min_sample
  local t = (now() - t0) / n
  for _, k in ipairs(sum or {}) do res[k] = acc[k] / n end
  return t, res
end

local function run_plain(sch, p) -- the whole run, no part timers
  local dT = p * study.dt
  local N = V.steps(study.T, dT)
  return V.run(fpu, sch, { p = p, dT = dT, N = N, tol = study.tol, predictor = study.predictor, reuse = true })
end

-- The configurations, in the order each round measures them.
local configs = {}
for _, sch in ipairs(schemes) do
  for _, p in ipairs(ps) do configs[#configs + 1] = { kind = "total", scheme = sch, solver = "structured", p = p } end
  for _, p in ipairs(ps) do configs[#configs + 1] = { kind = "parts", scheme = sch, solver = "structured", p = p } end
  for _, p in ipairs(dense_ps) do configs[#configs + 1] = { kind = "parts", scheme = sch, solver = "dense", p = p } end
end
if not quick then configs[#configs + 1] = { kind = "parts", scheme = "MM", solver = "dense", p = 500 } end
local function dense_steps(p) return p >= 500 and 1 or p >= 200 and 3 or p >= 50 and 10 or 50 end

-- Warm-up (untimed): binds LAPACK, pages in the library.
V.timing("MM", "dense", 10, { dt = study.dt, T = study.T, max_steps = 5, predictor = study.predictor })
run_plain("MM", 10)

for r = 1, rounds do
  for _, c in ipairs(configs) do
    c.samples = c.samples or {}
    local s = {}
    if c.kind == "total" then
      local t, res = sample(function() return run_plain(c.scheme, c.p) end)
      s.t_run, s.steps, s.newton = t, res.N, res.counts.newton_iters
    else
      local t, res = sample(function()
        return V.timing(c.scheme, c.solver, c.p, { dt = study.dt, T = study.T, tol = study.tol, predictor = study.predictor,
                                                  max_steps = c.solver == "dense" and dense_steps(c.p) or nil, model = fpu })
      end, { "t_cpu", "t_dx", "t_jac", "t_grad", "t_predict" })
      s.t_run, s.steps, s.newton, s.force_evals = t, res.steps, res.newton, res.force_evals
      s.t_timed, s.t_dx, s.t_jac, s.t_grad, s.t_predict = res.t_cpu, res.t_dx, res.t_jac, res.t_grad, res.t_predict
      s.hess_evals = res.jac * V.quad_points(c.scheme) * c.p
    end
    c.samples[r] = s
  end
  io.stderr:write(string.format("bench-vmi-timing: round %d of %d done (%.0f s)\n", r, rounds, now() - started))
end
local load1 = loadavg()

-- Medians and spreads.
local median = Ti.median
local function stat(c, f) -- median, min, max of f(sample) over the rounds
  local v = {}
  for r, s in ipairs(c.samples) do v[r] = f(s) end
  local lo, hi = math.huge, -math.huge
  for _, x in ipairs(v) do lo, hi = math.min(lo, x), math.max(hi, x) end
  return median(v), lo, hi, v
end
local function find(kind, sch, solver, p)
  for _, c in ipairs(configs) do
    if c.kind == kind and c.scheme == sch and c.solver == solver and c.p == p then return c end
  end
end

-- The quantities per configuration (long format: one row per quantity).
local rows = {}
local function put(q, c, f, unit)
  local m, lo, hi, v = stat(c, f)
  local s1 = c.samples[1]
  rows[#rows + 1] = { quantity = q, scheme = c.scheme, solver = c.solver, p = c.p, steps = s1.steps,
                      iters_per_step = s1.newton / s1.steps, median = m, min = lo, max = hi, unit = unit, v = v }
  return rows[#rows]
end
for _, c in ipairs(configs) do
  if c.kind == "total" then
    put("t_cpu", c, function(s) return s.t_run end, "s")
    put("t_step", c, function(s) return s.t_run / s.steps end, "s")
  else
    local pre = c.solver == "dense" and "dense_" or ""
    put(pre .. "t_dx_step", c, function(s) return s.t_dx / s.steps end, "s")
    put(pre .. "t_jac_step", c, function(s) return s.t_jac / s.steps end, "s")
    put(pre .. "t_dx_iter", c, function(s) return s.t_dx / math.max(1, s.newton) end, "s")
    put(pre .. "t_jac_iter", c, function(s) return s.t_jac / math.max(1, s.newton) end, "s")
    if c.solver == "structured" then
      put("t_grad_step", c, function(s) return s.t_grad / s.steps end, "s")
      put("t_predict_step", c, function(s) return s.t_predict / s.steps end, "s")
      put("t_rest_step", c, function(s) return (s.t_timed - s.t_dx - s.t_jac - s.t_grad - s.t_predict) / s.steps end, "s")
      put("t_timed_step", c, function(s) return s.t_timed / s.steps end, "s")
      put("t_per_gradient", c, function(s) return s.t_grad / s.force_evals end, "s")
      put("t_per_hessian", c, function(s) return s.t_jac / math.max(1, s.hess_evals) end, "s")
      put("t_per_unknown_solve", c, function(s) return s.t_dx / math.max(1, s.newton) / (3 * c.p + 3) end, "s")
    end
  end
end
-- t_cpu(p)/t_cpu(1) per round, for the figure
for _, sch in ipairs(schemes) do
  local c1 = find("total", sch, "structured", ps[1])
  for _, p in ipairs(ps) do
    local c = find("total", sch, "structured", p)
    local v = {}
    for r = 1, rounds do v[r] = c.samples[r].t_run / c1.samples[r].t_run end
    put("t_cpu_ratio", c, function() return 0 end, "")
    local row = rows[#rows]
    local m, lo, hi = median(v), math.huge, -math.huge
    for _, x in ipairs(v) do lo, hi = math.min(lo, x), math.max(hi, x) end
    row.median, row.min, row.max, row.v = m, lo, hi, v
  end
end
local function get(q, sch, solver, p)
  for _, r in ipairs(rows) do
    if r.quantity == q and r.scheme == sch and r.solver == solver and r.p == p then return r end
  end
end

-- Growth exponents over p >= 50, fitted per round: median and range.
local function exponent(q, sch, solver)
  local per = {}
  for r = 1, rounds do
    local xs, ys = {}, {}
    for _, row in ipairs(rows) do
      if row.quantity == q and row.scheme == sch and row.solver == solver and row.p >= 50 and row.v[r] > 0 then
        xs[#xs + 1], ys[#ys + 1] = row.p, row.v[r]
      end
    end
    if #xs < 2 then return nil end
    per[r] = E.slope(xs, ys)
  end
  local lo, hi = math.huge, -math.huge
  for _, e in ipairs(per) do lo, hi = math.min(lo, e), math.max(hi, e) end
  return { median = median(per), min = lo, max = hi }
end
local expo = {}
for _, sch in ipairs(schemes) do
  for _, q in ipairs { { "t_step", "structured" }, { "t_dx_step", "structured" }, { "t_dx_iter", "structured" },
                       { "t_jac_step", "structured" }, { "t_jac_iter", "structured" }, { "dense_t_dx_step", "dense" },
                       { "dense_t_dx_iter", "dense" }, { "dense_t_jac_step", "dense" }, { "dense_t_jac_iter", "dense" } } do
    local e = exponent(q[1], sch, q[2])
    if e then expo[#expo + 1] = { scheme = sch, quantity = q[1], e = e } end
  end
end
local function ex(sch, q)
  for _, e in ipairs(expo) do if e.scheme == sch and e.quantity == q then return e.e end end
end
local function fe(e) return e and string.format("%.2f (%.2f–%.2f)", e.median, e.min, e.max) or "–" end

-- The verdicts of Sec. 6.3 on these times: yes / no only outside the spread.
local function ratio(a, b) -- median ratio a/b and its range from the extreme samples
  return a.median / b.median, a.min / b.max, a.max / b.min
end
local function verdict(lo, hi, want_below) -- is the ratio below 1 (want_below) or above 1?
  if want_below then return hi < 1 and "yes" or lo > 1 and "no" or "undecided (within the spread)" end
  return lo > 1 and "yes" or hi < 1 and "no" or "undecided (within the spread)"
end
local claims = {}
for _, sch in ipairs(schemes) do
  local t1 = get("t_cpu", sch, "structured", ps[1])
  local best, bp, blo, bhi = math.huge, nil, nil, nil
  for k = 2, #ps do
    local m, lo, hi = ratio(get("t_cpu", sch, "structured", ps[k]), t1)
    if m < best then best, bp, blo, bhi = m, ps[k], lo, hi end
  end
  claims[#claims + 1] = { string.format("%s: the multirate integrator saves time against p = 1", sch),
    string.format("best t_cpu(p)/t_cpu(1) = %.2f (%.2f–%.2f) at p = %d", best, blo, bhi, bp), verdict(blo, bhi, true) }
  if bp == ps[#ps] then
    claims[#claims + 1] = { string.format("%s: with higher p there are no more savings", sch),
      string.format("the largest p, %d, is the fastest", bp), "no" }
  else
    local m, lo, hi = ratio(get("t_cpu", sch, "structured", ps[#ps]), get("t_cpu", sch, "structured", bp))
    claims[#claims + 1] = { string.format("%s: with higher p there are no more savings", sch),
      string.format("t_cpu(%d)/t_cpu(%d) = %.2f (%.2f–%.2f)", ps[#ps], bp, m, lo, hi), verdict(lo, hi, false) }
  end
end
do
  local a, b = { median = 0, min = 0, max = 0 }, { median = 0, min = 0, max = 0 }
  for _, p in ipairs(ps) do
    local x, y = get("t_cpu", "TT", "structured", p), get("t_cpu", "TM", "structured", p)
    a.median, a.min, a.max = a.median + x.median, a.min + x.min, a.max + x.max
    b.median, b.min, b.max = b.median + y.median, b.min + y.min, b.max + y.max
  end
  local m, lo, hi = ratio(a, b)
  claims[#claims + 1] = { "Q3 (TT) needs the least time, Q2 (TM) slightly more",
    string.format("Σ_p t_cpu: TT/TM = %.3f (%.3f–%.3f)", m, lo, hi), verdict(lo, hi, true) }
  local jt, jm = { median = 0, min = 0, max = 0 }, { median = 0, min = 0, max = 0 }
  for _, p in ipairs(ps) do
    local x, y = get("t_jac_iter", "TT", "structured", p), get("t_jac_iter", "TM", "structured", p)
    jt.median, jt.min, jt.max = jt.median + x.median, jt.min + x.min, jt.max + x.max
    jm.median, jm.min, jm.max = jm.median + y.median, jm.min + y.min, jm.max + y.max
  end
  m, lo, hi = ratio(jt, jm)
  claims[#claims + 1] = { "the Q2–Q3 difference lies in t_Jacobi (Q3's Jacobian slightly cheaper)",
    string.format("Σ_p t_Jacobi per iteration: TT/TM = %.3f (%.3f–%.3f)", m, lo, hi), verdict(lo, hi, true) }
end
for _, sch in ipairs(schemes) do
  local d, s = ex(sch, "dense_t_dx_step"), ex(sch, "t_dx_step")
  claims[#claims + 1] = { string.format("%s: t_Δx per macro step increases super-linearly", sch),
    string.format("exponent dense %s, structured %s (per iteration: dense %s, structured %s)", fe(d), fe(s),
                  fe(ex(sch, "dense_t_dx_iter")), fe(ex(sch, "t_dx_iter"))),
    d and (d.min > 1.2 and "yes with a dense solve" or d.max < 1.2 and "no" or "undecided") .. (s and (s.max < 1.2 and "; no with the structured solve" or s.min > 1.2 and "; also with the structured solve" or "") or "") or "–" }
  local j = ex(sch, "t_jac_step")
  claims[#claims + 1] = { string.format("%s: t_Jacobi per macro step increases linearly", sch),
    string.format("exponent %s (per iteration %s)", fe(j), fe(ex(sch, "t_jac_iter"))),
    j and ((j.min >= 0.85 and j.max <= 1.15) and "yes" or (j.min > 1.15 or j.max < 0.85) and "no" or "undecided") or "–" }
end

-- Files: one row per quantity, scheme, solver and p, each series contiguous (for gnuplot's lines).
local order = {}
for k, r in ipairs(rows) do order[r] = k end
table.sort(rows, function(a, b)
  if a.quantity ~= b.quantity then return a.quantity < b.quantity end
  if a.scheme ~= b.scheme then return a.scheme < b.scheme end
  if a.solver ~= b.solver then return a.solver < b.solver end
  if a.p ~= b.p then return a.p < b.p end
  return order[a] < order[b]
end)
local cols = { "quantity", "scheme", "solver", "p", "steps", "iters_per_step", "median", "min", "max", "unit" }
local ecols = { "scheme", "quantity", "exponent", "exponent_min", "exponent_max" }
local erows = {}
for _, e in ipairs(expo) do erows[#erows + 1] = { scheme = e.scheme, quantity = e.quantity, exponent = e.e.median, exponent_min = e.e.min, exponent_max = e.e.max } end
S.write_atomic(out .. "/bench/vmi-timing.tsv", S.tsv(cols, rows, {
  string.format("FPU, dt = %g, t_N = %g, Newton tol %g, %s guess; %d rounds, each sample >= %g s; load average %s before, %s after",
                study.dt, study.T, study.tol, study.predictor, rounds, min_sample, load0, load1),
  "t_cpu: the whole run (no part timers); *_step: per macro step; *_iter: per Newton iteration; t_dx: linear solves; t_jac:",
  "Jacobian passes (Hessians and assembly); t_grad: residual passes (gradients); dense_*: dense LU over the first macro steps" }))
S.write_atomic(out .. "/bench/vmi-timing-exponents.tsv", S.tsv(ecols, erows,
  { "growth exponents in p over p >= 50, fitted per round: median, smallest, largest" }))

local md = {}
md[#md + 1] = "#### Variational multirate integrators: the computing-time study (§6.3, Figs. 6.18–6.19)\n"
md[#md + 1] = string.format("FPU (ω = 50), Δt = %g, t_N = %g, Newton tolerance 10⁻⁹ from the drift guess (the study of " ..
  "`vmi-fig6.18`/`vmi-fig6.19`), structured solver unless stated. One process; every sample repeats its run for at least %g s; " ..
  "the %d rounds interleave all configurations; medians with the smallest and largest sample in brackets. Load average %s " ..
  "before, %s after; %.0f s in all. Verdicts are *yes*/*no* only where the spreads do not overlap.\n",
  study.dt, study.T, min_sample, rounds, load0, load1, now() - started)
local h = { "p" }
for _, sch in ipairs(schemes) do h[#h + 1] = sch .. ": t_cpu [s]" end
for _, sch in ipairs(schemes) do h[#h + 1] = sch .. ": t_cpu(p)/t_cpu(1)" end
local body = {}
for _, p in ipairs(ps) do
  local row = { tostring(p) }
  for _, sch in ipairs(schemes) do
    local t = get("t_cpu", sch, "structured", p)
    row[#row + 1] = string.format("%s (%s–%s)", S.sci(t.median), S.sci(t.min, 2), S.sci(t.max, 2))
  end
  for _, sch in ipairs(schemes) do
    local m, lo, hi = ratio(get("t_cpu", sch, "structured", p), get("t_cpu", sch, "structured", ps[1]))
    row[#row + 1] = string.format("%.2f (%.2f–%.2f)", m, lo, hi)
  end
  body[#body + 1] = row
end
md[#md + 1] = "\nTotal computing time (Fig. 6.18, left):\n\n" .. S.md_table(h, body)
local bh = { "p", "iterations per step", "t_step [s]", "predictor", "gradients (residuals)", "Jacobian (Hessians + assembly)",
             "linear solves", "rest", "timers' overhead" }
local bb = {}
for _, p in ipairs(ps) do
  local tot = get("t_timed_step", "MM", "structured", p)
  local function share(q) return string.format("%.0f %%", 100 * get(q, "MM", "structured", p).median / tot.median) end
  bb[#bb + 1] = { tostring(p), string.format("%.2f", tot.iters_per_step), S.sci(get("t_step", "MM", "structured", p).median),
                  share("t_predict_step"), share("t_grad_step"), share("t_jac_step"), share("t_dx_step"), share("t_rest_step"),
                  string.format("%+.0f %%", 100 * (tot.median / get("t_step", "MM", "structured", p).median - 1)) }
end
md[#md + 1] = "\nWhere the time of a macro step goes (MM; shares of the run with the library's part timers, whose own cost is " ..
  "the last column; TM and TT in the tsv):\n\n" .. S.md_table(bh, bb)
local ph = { "p", "per gradient [s]", "per Hessian with its assembly [s]", "per unknown of a structured solve [s]" }
local pb = {}
for _, p in ipairs(ps) do
  pb[#pb + 1] = { tostring(p), S.sci(get("t_per_gradient", "MM", "structured", p).median),
                  S.sci(get("t_per_hessian", "MM", "structured", p).median),
                  S.sci(get("t_per_unknown_solve", "MM", "structured", p).median) }
end
md[#md + 1] = "\nUnit costs (MM): a macro step from the drift guess costs (iterations + 1) · 2p gradients, iterations · 2p " ..
  "Hessians and iterations solves of 3p + 3 unknowns:\n\n" .. S.md_table(ph, pb)
local xh = { "scheme", "t_step", "t_Δx per step", "t_Δx per iteration", "t_Jacobi per step", "t_Jacobi per iteration",
             "dense t_Δx per step", "dense t_Δx per iteration" }
local xb = {}
for _, sch in ipairs(schemes) do
  xb[#xb + 1] = { sch, fe(ex(sch, "t_step")), fe(ex(sch, "t_dx_step")), fe(ex(sch, "t_dx_iter")), fe(ex(sch, "t_jac_step")),
                  fe(ex(sch, "t_jac_iter")), fe(ex(sch, "dense_t_dx_step")), fe(ex(sch, "dense_t_dx_iter")) }
end
md[#md + 1] = "\nGrowth exponents in p over p ≥ 50 (Fig. 6.19; per macro step, the paper's quantity, and per Newton iteration; " ..
  "median and range over the rounds; the dense solve up to p = " .. (quick and dense_ps[#dense_ps] or 500) .. "):\n\n" .. S.md_table(xh, xb)
local cb = {}
for _, c in ipairs(claims) do cb[#cb + 1] = { c[1], c[2], c[3] } end
md[#md + 1] = "\nThe statements of §6.3 on these times:\n\n" .. S.md_table({ "claim (§6.3)", "measured", "holds" }, cb)
S.write_atomic(out .. "/bench/vmi-timing.md", table.concat(md, "\n"))
io.stderr:write(string.format("bench-vmi-timing: wrote %s/bench/vmi-timing.{tsv,md} in %.0f s\n", out, now() - started))
