-- bench-ensemble.lua -- `make bench`: ensembles (lib/methods/kz_ens.c) against the same members run one
-- scalar library call each, in one process, interleaved (scalar, ensemble, scalar, ...), medians of
-- the per-sample times and ratios:
--   (a) RK4 on the vibrated pendulum (2.2), 1,024 members (amplitude and initial angle varied);
--   (a') the same as a user C model (tests/usermodel_pendulum.lua; ensemble.lua's ens.user);
--   (b) the HMM of Calvo & Sanz-Serna Table 2.3 (Algorithm 2, H = 1/80, omega = 1e6), 1,024 members;
--   (c) Sharp, Tsai & Engquist's HMM-V-v, Table 1 row 2 (eta = 50 eps, h = eps/50), 1,024 members;
--   (d) scaling (issue 28): threads 1, 2, ... up to the machine's cores, through the worker pool, for
--       one large call (262,144 members), many short calls (200 members x 32 steps: the time per
--       call) and the map (scenarios/ex-kapitza-map.lua at its defaults, run as a child process:
--       the seconds in its ensemble calls, which it reports, and the whole run); every thread
--       count in turn within each sample, the ratios to 1 thread per sample, their medians.
-- Before timing, every member is checked against its scalar run (the largest relative difference
-- is reported). Targets (issue 20): ensemble cost per member <= 1/8 of the scalar run's for
-- (a)-(c), <= 3 ns per member and force evaluation for the pendulum models; (issue 28) on 2 cores
-- the map >= 1.8x and the short call >= 1.6x faster on 2 threads than on 1, at least 0.75 per core
-- on more cores. The machine's core count and load average go with every row.
--   luajit scripts/bench-ensemble.lua [--out DIR] [--quick] [samples=N] [sample=SECONDS]
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local Ti = require "kapitza.timing"
local kz = require "kapitza"
local hmm = require "kapitza.hmm"
local models = require "kapitza.models"
local ens = require "kapitza.ensemble"
local ffi, C = kz.ffi, kz.C

local sc = S.new { id = "bench-ensemble", title = "kapitza benchmark: ensembles against scalar runs",
  params = { { "samples", 7, "", "interleaved timing samples per side", integer = true, min = 3 },
             { "sample", 0.1, "s", "minimum length of one sample", positive = true },
             { "members", 1024, "", "members of runs (a)-(c)", integer = true, min = 8 },
             { "big", 262144, "", "members of the large call of the scaling table", integer = true, min = 64 },
             { "big_steps", 50, "", "RK4 steps of the large call", integer = true, min = 1 },
             { "map_samples", 5, "", "runs of the map per thread count (0: no map rows)", integer = true, min = 0 },
             { "threads", 0, "", "largest thread count of the scaling table (0: the machine's cores)", integer = true, min = 0, max = 256 } },
  quick = { samples = 3, sample = 0.01, members = 64, big = 4096, big_steps = 10, map_samples = 0 } }
local P = sc:parse(arg)
local Mn = P.members

local function per_call(f) return Ti.per_call(f, P.sample) end

-- time the two sides interleaved; returns medians and the ratio's median and range
local function race(a, b)
  local ta, tb, ratio = {}, {}, {}
  for k = 1, P.samples do
    ta[k] = per_call(a)
    tb[k] = per_call(b)
    ratio[k] = ta[k] / tb[k]
  end
  local lo, hi = Ti.minmax(ratio)
  return Ti.median(ta), Ti.median(tb), Ti.median(ratio), lo, hi
end

local rows = {}
local function record(run, members, evals, scalar, ensemble, ratio, lo, hi, maxdiff, width)
  rows[#rows + 1] = { run = run, members = members, scalar_s_per_member = scalar / members,
                      ensemble_s_per_member = ensemble / members, ratio = ratio, ratio_min = lo, ratio_max = hi,
                      ns_per_member_eval = ensemble / members / evals * 1e9, evals_per_member = evals,
                      max_rel_diff = maxdiff, width = width }
  io.stderr:write(string.format("bench-ensemble: %s: scalar %.3g s/member, ensemble %.3g s/member, ratio %.2f (%.2f-%.2f), %.2f ns per member-eval, max rel diff %.1e\n",
                                run, scalar / members, ensemble / members, ratio, lo, hi, ensemble / members / evals * 1e9, maxdiff))
end

local function rel(a, b) return math.abs(a - b) / math.max(1, math.abs(b)) end

-- (a) RK4 on the pendulum, and (a') the same runs on the pendulum written as a user C model
-- (tests/usermodel_pendulum.lua: ens.user's generated wrappers against the user model's scalar
-- wrapper). make(values, m) builds the ensemble (m = nil, values by member) or member m's scalar
-- model; the runs, the check against the scalar runs and the race are the same for both.
local function rk4_row(label, make)
  local omega, h, n = 100, 1e-4, 2000
  local amps, q0 = {}, {}
  for m = 1, Mn do amps[m], q0[m] = 0.5 + 3 * (m - 1) / Mn, 0.05 + 0.3 * (m - 1) / Mn end
  local e = make({ l = 0.2, g = 9.8, vmax = amps, omega = omega })
  local scal, T = {}, kz.stepper("rk4")
  for m = 1, Mn do scal[m] = make({ l = 0.2, g = 9.8, vmax = amps[m], omega = omega }, m) end
  local y, r, f = kz.vec(2), kz.report(), ffi.new("int[?]", Mn)
  local Y = kz.vec(2 * Mn)
  local function scalar()
    for m = 1, Mn do
      y[0], y[1] = q0[m], 0
      C.kz_run(T, scal[m].sys, 0, h, n, y, r)
    end
  end
  local function ensemble()
    for m = 0, Mn - 1 do Y[m], Y[Mn + m] = q0[m + 1], 0 end
    assert(C.kz_ens_run(T, e.c, 0, h, n, Y, f, nil, 0, nil, r) == 0)
  end
  local md = 0
  ensemble()
  for m = 1, Mn do
    y[0], y[1] = q0[m], 0
    C.kz_run(T, scal[m].sys, 0, h, n, y, r)
    md = math.max(md, rel(Y[m - 1], y[0]), rel(Y[Mn + m - 1], y[1]))
  end
  local ts, te, ratio, lo, hi = race(scalar, ensemble)
  record(label, Mn, 4 * n, ts, te, ratio, lo, hi, md, e.width)
end

rk4_row("RK4 pendulum omega=100, 2000 steps", function(v, m)
  if m then return models.pendulum(v) end
  return ens.pendulum(v)
end)
do
  local um = require "kapitza.usermodel"
  local spec = dofile(root .. "/tests/usermodel_pendulum.lua")
  rk4_row("RK4 user C pendulum omega=100, 2000 steps", function(v, m)
    if m then return um.model(spec, v, "c", { probe = m == 1 }) end
    return ens.user(spec, v)
  end)
end

-- (b) Table 2.3, H = 1/80, omega = 1e6 -----------------------------------------------------------
do
  local omega, H = 1e6, 1 / 80
  local period = 2 * math.pi / omega
  local p = hmm.params { preset = "cs2", kernel = "uniform", H = H, T = 1, eta = period, h = period * H }
  local N = 80
  local amps, q0 = {}, {}
  for m = 1, Mn do amps[m], q0[m] = 2 + 4 * (m - 1) / Mn, 0.1 + 0.5 * (m - 1) / Mn end
  local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = omega }
  local scal = {}
  for m = 1, Mn do scal[m] = models.pendulum { l = 0.2, g = 9.8, vmax = amps[m], omega = omega } end
  local Y0, Ys, r = kz.vec(2), kz.vec(2 * (N + 1)), kz.report()
  local E0, Ey, f = kz.vec(2 * Mn), kz.vec(2 * Mn * (N + 1)), ffi.new("int[?]", Mn)
  for m = 0, Mn - 1 do E0[m], E0[Mn + m] = q0[m + 1], 0 end
  local evals
  local function scalar()
    for m = 1, Mn do
      Y0[0], Y0[1] = q0[m], 0
      C.kz_report_init(r)
      C.kz_hmm_run(scal[m].vib, p, Y0, Ys, N + 1, r)
    end
    evals = tonumber(r.force_evals)
  end
  local function ensemble() assert(C.kz_ens_hmm_run(e.c, p, E0, Ey, N + 1, f, nil, 0, nil, r) == 0) end
  ensemble()
  local md = 0
  for m = 1, Mn do
    Y0[0], Y0[1] = q0[m], 0
    C.kz_hmm_run(scal[m].vib, p, Y0, Ys, N + 1, r)
    md = math.max(md, rel(Ey[N * 2 * Mn + m - 1], Ys[2 * N]), rel(Ey[N * 2 * Mn + Mn + m - 1], Ys[2 * N + 1]))
  end
  local ts, te, ratio, lo, hi = race(scalar, ensemble)
  record("cs-table2.3 HMM H=1/80 omega=1e6", Mn, evals, ts, te, ratio, lo, hi, md, e.width)
end

-- (c) Sharp, Tsai & Engquist HMM-V-v, row 2 -----------------------------------------------------
do
  local eps, H, T = 1e-6, 0.1, 12
  local p = hmm.params { preset = "ste", kernel = "exponential", H = H, T = T, eta = 50 * eps, h = eps / 50 }
  local N = 120
  local ls, om0 = {}, {}
  for m = 1, Mn do ls[m], om0[m] = 0.05 * (1 + (m - 1) / Mn), -0.4 + 0.2 * (m - 1) / Mn end
  local e = ens.ste { eps = eps, g = 0.1, l = ls }
  local scal = {}
  for m = 1, Mn do scal[m] = models.ste { eps = eps, g = 0.1, l = ls[m] } end
  local Y0, Ys, r = kz.vec(2), kz.vec(2 * (N + 1)), kz.report()
  local E0, Ey, f = kz.vec(2 * Mn), kz.vec(2 * Mn * (N + 1)), ffi.new("int[?]", Mn)
  for m = 0, Mn - 1 do E0[m], E0[Mn + m] = 0, om0[m + 1] end
  local evals
  -- the scalar side is long (about 15 ms per member): time a sample of the members and scale
  local sampleM = math.min(Mn, 64)
  local function scalar()
    for m = 1, sampleM do
      Y0[0], Y0[1] = 0, om0[m]
      C.kz_report_init(r)
      C.kz_hmm_run(scal[m].vib, p, Y0, Ys, N + 1, r)
    end
    evals = tonumber(r.force_evals)
  end
  local function ensemble() assert(C.kz_ens_hmm_run(e.c, p, E0, Ey, N + 1, f, nil, 0, nil, r) == 0) end
  ensemble()
  local md = 0
  for m = 1, Mn, math.max(1, math.floor(Mn / 16)) do
    Y0[0], Y0[1] = 0, om0[m]
    C.kz_hmm_run(scal[m].vib, p, Y0, Ys, N + 1, r)
    md = math.max(md, rel(Ey[N * 2 * Mn + m - 1], Ys[2 * N]), rel(Ey[N * 2 * Mn + Mn + m - 1], Ys[2 * N + 1]))
  end
  local ta, tb, ratio = {}, {}, {}
  for k = 1, P.samples do
    ta[k] = per_call(scalar) / sampleM * Mn
    tb[k] = per_call(ensemble)
    ratio[k] = ta[k] / tb[k]
  end
  local lo, hi = Ti.minmax(ratio)
  record("ste HMM-V-v H=0.1 row 2", Mn, evals, Ti.median(ta), Ti.median(tb), Ti.median(ratio), lo, hi, md, e.width)
end

-- (d) scaling through the worker pool ------------------------------------------------------------
local cores = require("kapitza.sweep.pool").cores()
local maxth = P.threads > 0 and P.threads or cores
local function loadavg()
  local f = io.open("/proc/loadavg", "rb")
  local s = f and f:read("*l") or ""
  if f then f:close() end
  return s:match("^(%S+)") or "?"
end
local function cpu_model()
  local f = io.open("/proc/cpuinfo", "rb")
  local s = f and f:read("*a") or ""
  if f then f:close() end
  return (s:match("model name%s*:%s*([^\n]+)") or "unknown CPU"):gsub("%s+", " ")
end
local load0 = loadavg()
local scale = {}
-- time f(th) for th = 1 .. maxth within each sample; per thread count the median time and the
-- median (and range) of the per-sample ratio to 1 thread
local function scaling(label, members, work, f, nsamples)
  local t = {}
  for th = 1, maxth do t[th] = {} end
  for k = 1, nsamples do
    for th = 1, maxth do t[th][k] = f(th) end
  end
  for th = 1, maxth do
    local ratio = {}
    for k = 1, nsamples do ratio[k] = t[1][k] / t[th][k] end
    local lo, hi = Ti.minmax(ratio)
    local med = Ti.median(ratio)
    scale[#scale + 1] = { run = label, members = members, work = work, threads = th, cores = cores,
                          seconds = Ti.median(t[th]), speedup = med, speedup_min = lo, speedup_max = hi,
                          per_core = med / th }
    io.stderr:write(string.format("bench-ensemble: %s, %d thread%s: %.4g s, %.2fx (%.2f-%.2f) against 1 thread\n", label, th,
                                  th == 1 and "" or "s", Ti.median(t[th]), med, lo, hi))
  end
end
do -- what the machine gives now: k independent single-thread processes at once, each timing the
  -- same call from one shared start, against one alone: k t_alone / max t (k on an idle machine)
  local prog = os.tmpname()
  local f = assert(io.open(prog, "wb"))
  f:write(string.format([=[
    package.path = %q
    local ens, Ti = require "kapitza.ensemble", require "kapitza.timing"
    local n, start, steps = tonumber(arg[1]), tonumber(arg[2]), tonumber(arg[3])
    local amps = {}
    for m = 1, n do amps[m] = 0.5 + 3 * (m - 1) / n end
    local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = 100 }
    while Ti.now() < start do end
    local t0 = Ti.now()
    ens.run(e, { h = 1e-4, n = steps, q0 = 0.1 })
    io.write(string.format("%%.17g", Ti.now() - t0))
  ]=], package.path))
  f:close()
  local function at_once(k)
    local start = Ti.now() + 1.5
    local ps, worst = {}, 0
    for j = 1, k do ps[j] = io.popen(string.format("luajit %s %d %.17g %d", prog, P.big / 4, start, P.big_steps)) end
    for j = 1, k do
      local t = tonumber(ps[j]:read("*a"))
      ps[j]:close()
      assert(t, "bench-ensemble: a process of the machine row failed")
      worst = math.max(worst, t)
    end
    return worst
  end
  local t = {}
  for th = 1, maxth do t[th] = {} end
  for k = 1, math.max(3, math.floor(P.samples / 2)) do
    for th = 1, maxth do t[th][k] = at_once(th) end
  end
  for th = 1, maxth do
    local cap = {}
    for k = 1, #t[1] do cap[k] = th * t[1][k] / t[th][k] end
    local lo, hi = Ti.minmax(cap)
    local med = Ti.median(cap)
    scale[#scale + 1] = { run = "the machine: single-thread processes at once (k x alone / slowest)", members = P.big / 4,
                          work = "s per call (slowest)", threads = th, cores = cores, seconds = Ti.median(t[th]),
                          speedup = med, speedup_min = lo, speedup_max = hi, per_core = med / th }
    io.stderr:write(string.format("bench-ensemble: the machine gives %.2f of %d cores now (%.2f-%.2f)\n", med, th, lo, hi))
  end
  os.remove(prog)
end
do -- one large call
  local big = P.big
  local amps = {}
  for m = 1, big do amps[m] = 0.5 + 3 * (m - 1) / big end
  local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = 100 }
  local Y, f, r = kz.vec(2 * big), ffi.new("int[?]", big), kz.report()
  local T = kz.stepper("rk4")
  local function call(th)
    for m = 0, big - 1 do Y[m], Y[big + m] = 0.1, 0 end
    assert(C.kz_ens_run(T, e.c, 0, 1e-4, P.big_steps, Y, f, nil, 0, ens.pool(th), r) == 0)
  end
  call(1)
  scaling(string.format("one large call: RK4, %d steps", P.big_steps), big, "s per call",
          function(th) return per_call(function() call(th) end) end, P.samples)
end
do -- many short calls
  local amps = {}
  for m = 1, 200 do amps[m] = 0.5 + 3 * (m - 1) / 200 end
  local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = 100 }
  local Y, f, r = kz.vec(400), ffi.new("int[200]"), kz.report()
  local T = kz.stepper("rk4")
  local function call(th)
    for m = 0, 199 do Y[m], Y[200 + m] = 0.1, 0 end
    assert(C.kz_ens_run(T, e.c, 0, 1e-4, 32, Y, f, nil, 0, ens.pool(th), r) == 0)
  end
  scaling("many short calls: RK4, 32 steps", 200, "s per call",
          function(th) return per_call(function() call(th) end) end, P.samples)
end
if P.map_samples > 0 then -- the map at its defaults, as a user runs it
  local tmp = os.tmpname()
  os.remove(tmp)
  local out = {}
  local function map(th)
    local t0 = Ti.now()
    local p = io.popen(string.format("luajit %s/scenarios/ex-kapitza-map.lua --out %s threads=%d 2>&1", root, tmp, th))
    local log = p:read("*a")
    p:close()
    local wall = Ti.now() - t0
    local calls = tonumber(log:match("runs in %d+ ensemble calls, ([%d%.e%+%-]+) s in the calls"))
    assert(calls, "bench-ensemble: the map did not report its time in the calls:\n" .. log)
    out[th] = out[th] or {}
    out[th][#out[th] + 1] = wall
    return calls
  end
  scaling("the map at its defaults: its ensemble calls", 40000, "s in the calls", map, P.map_samples)
  -- the whole runs (the same runs: start-up, writing and the figure included)
  local t = out
  for th = 1, maxth do
    local ratio = {}
    for k = 1, #t[1] do ratio[k] = t[1][k] / t[th][k] end
    local lo, hi = Ti.minmax(ratio)
    local med = Ti.median(ratio)
    scale[#scale + 1] = { run = "the map at its defaults: the whole run", members = 40000, work = "s per run", threads = th,
                          cores = cores, seconds = Ti.median(t[th]), speedup = med, speedup_min = lo, speedup_max = hi,
                          per_core = med / th }
  end
  os.execute("rm -rf '" .. tmp .. "'")
end
local load1 = loadavg()

local cols = { "run", "members", "scalar_s_per_member", "ensemble_s_per_member", "ratio", "ratio_min", "ratio_max",
               "ns_per_member_eval", "evals_per_member", "max_rel_diff", "width" }
sc:write_tsv("bench/ensemble.tsv", cols, rows,
  { string.format("bench-ensemble: scalar library runs (one call per member) against one ensemble call; medians of %d interleaved samples of >= %g s",
                  P.samples, P.sample) })
local scols = { "run", "members", "threads", "cores", "seconds", "speedup", "speedup_min", "speedup_max", "per_core" }
sc:write_tsv("bench/ensemble-scaling.tsv", scols, scale,
  { string.format("bench-ensemble scaling: %s, %d cores; load average %s at the start, %s at the end; seconds: the median time (work column of the .md); speedup: the median over the samples of the ratio to 1 thread",
                  cpu_model(), cores, load0, load1) })
local body = {}
for _, r in ipairs(rows) do
  body[#body + 1] = { r.run, tostring(r.members), string.format("%.3g", r.scalar_s_per_member),
                      string.format("%.3g", r.ensemble_s_per_member), string.format("**%.2f**", r.ratio),
                      string.format("%.2f–%.2f", r.ratio_min, r.ratio_max), string.format("%.2f", r.ns_per_member_eval),
                      string.format("%.1e", r.max_rel_diff) }
end
local sbody = {}
for _, r in ipairs(scale) do
  sbody[#sbody + 1] = { r.run, tostring(r.members), tostring(r.threads), tostring(r.cores), string.format("%.4g %s", r.seconds, r.work),
                        string.format("**%.2f**", r.speedup), string.format("%.2f–%.2f", r.speedup_min, r.speedup_max),
                        string.format("%.2f", r.per_core) }
end
sc:write_text("bench/ensemble.md", "### Ensembles against scalar runs\n\n" ..
  "One ensemble call (lib/methods/kz_ens.c: the members as one structure-of-arrays system, the vectorised " ..
  "model of lib/models/kz_pendulum_ens.c, " .. rows[1].width .. " doubles per vector here) against one scalar " ..
  "library call per member, in one process, interleaved; medians of " .. P.samples .. " samples. " ..
  "Every member was checked against its scalar run first (largest relative difference in the last column: " ..
  "the vector math library's rounding of sin and cos, propagated).\n\n" ..
  S.md_table({ "run", "members", "scalar [s/member]", "ensemble [s/member]", "scalar / ensemble", "spread",
               "ns per member-evaluation", "max rel. diff." }, body) ..
  "\nTargets (issue 20): scalar / ensemble ≥ 8 for the three rows; ≤ 3 ns per member and force " ..
  "evaluation for the pendulum models.\n\n" ..
  "### Scaling over threads\n\n" ..
  string.format("The worker pool (lib/methods/kz_pool.c: made once, woken per call) on %s, **%d cores**; " ..
                "load average %s when the table started and %s when it ended (other jobs on the machine take cores " ..
                "from the higher thread counts). Every thread count in turn within each sample, %d samples " ..
                "(%d of the map); speedup: the median of the per-sample ratio to 1 thread, its range beside it; per core: " ..
                "speedup / threads. The first rows measure the machine itself: k independent single-thread processes doing " ..
                "the same call at once, k × the time alone / the slowest one's (k on an idle machine): read the pool's " ..
                "speedups against them. The map (scenarios/ex-kapitza-map.lua at its defaults, 200 × 200, a child process): the seconds " ..
                "it reports in its 200 ensemble calls, and its whole run (start-up, the 40,000-row table and the figure " ..
                "included).\n\n", cpu_model(), cores, load0, load1, P.samples, P.map_samples) ..
  S.md_table({ "run", "members", "threads", "cores", "time (median)", "speedup", "spread", "per core" }, sbody) ..
  "\nTargets (issue 28): on 2 cores the map's calls ≥ 1.8× and the short call ≥ 1.6× faster on 2 threads than on 1; " ..
  "at least 0.75 per core on machines with more cores.\n")
