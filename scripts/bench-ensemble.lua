-- bench-ensemble.lua -- `make bench`: ensembles (lib/methods/kz_ens.c) against the same members run one
-- scalar library call each, in one process, interleaved (scalar, ensemble, scalar, ...), medians of
-- the per-sample times and ratios:
--   (a) RK4 on the vibrated pendulum (2.2), 1,024 members (amplitude and initial angle varied);
--   (a') the same as a user C model (tests/usermodel_pendulum.lua; ensemble.lua's ens.user);
--   (b) the HMM of Calvo & Sanz-Serna Table 2.3 (Algorithm 2, H = 1/80, omega = 1e6), 1,024 members;
--   (c) Sharp, Tsai & Engquist's HMM-V-v, Table 1 row 2 (eta = 50 eps, h = eps/50), 1,024 members;
--   (d) both cores: a 16,384-member RK4 ensemble on 2 threads against 1.
-- Before timing, every member is checked against its scalar run (the largest relative difference
-- is reported). Targets (issue 20): ensemble cost per member <= 1/8 of the scalar run's for
-- (a)-(c), <= 3 ns per member and force evaluation for the pendulum models, >= 1.8x on 2 threads.
--   luajit scripts/bench-ensemble.lua [--out DIR] [--quick] [samples=N] [sample=SECONDS]
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. root .. "/lib/experiment/?.lua;" .. package.path
local S = require "scenario"
local Ti = require "timing"
local kz = require "kapitza"
local hmm = require "hmm"
local models = require "models"
local ens = require "ensemble"
local ffi, C = kz.ffi, kz.C

local sc = S.new { id = "bench-ensemble", title = "kapitza benchmark: ensembles against scalar runs",
  params = { { "samples", 7, "", "interleaved timing samples per side", integer = true, min = 3 },
             { "sample", 0.1, "s", "minimum length of one sample", positive = true },
             { "members", 1024, "", "members of runs (a)-(c)", integer = true, min = 8 } },
  quick = { samples = 3, sample = 0.01, members = 64 } }
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
  local um = require "usermodel"
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

-- (d) both cores ---------------------------------------------------------------------------------
local threads
do
  local big = 16 * Mn
  local amps = {}
  for m = 1, big do amps[m] = 0.5 + 3 * (m - 1) / big end
  local e = ens.pendulum { l = 0.2, g = 9.8, vmax = amps, omega = 100 }
  local Y, f, r = kz.vec(2 * big), ffi.new("int[?]", big), kz.report()
  local function go(th)
    return function()
      for m = 0, big - 1 do Y[m], Y[big + m] = 0.1, 0 end
      assert(C.kz_ens_run(kz.stepper("rk4"), e.c, 0, 1e-4, 200, Y, f, nil, 0, ens.pool(th), r) == 0)
    end
  end
  local t1, t2, ratio, lo, hi = race(go(1), go(2))
  threads = { members = big, one = t1, two = t2, ratio = ratio, lo = lo, hi = hi }
  io.stderr:write(string.format("bench-ensemble: %d members on 2 threads: %.2fx faster than on 1 (%.2f-%.2f)\n", big, ratio, lo, hi))
  rows[#rows + 1] = { run = "RK4 pendulum, 2 threads against 1", members = big, scalar_s_per_member = t1 / big,
                      ensemble_s_per_member = t2 / big, ratio = ratio, ratio_min = lo, ratio_max = hi,
                      ns_per_member_eval = t2 / big / 800 * 1e9, evals_per_member = 800, max_rel_diff = 0,
                      width = e.width }
end

local cols = { "run", "members", "scalar_s_per_member", "ensemble_s_per_member", "ratio", "ratio_min", "ratio_max",
               "ns_per_member_eval", "evals_per_member", "max_rel_diff", "width" }
sc:write_tsv("bench/ensemble.tsv", cols, rows,
  { string.format("bench-ensemble: scalar library runs (one call per member) against one ensemble call; medians of %d interleaved samples of >= %g s; the last row: 2 threads (ensemble column) against 1 (scalar column)",
                  P.samples, P.sample) })
local body = {}
for i, r in ipairs(rows) do
  body[#body + 1] = { r.run, tostring(r.members), string.format("%.3g", r.scalar_s_per_member),
                      string.format("%.3g", r.ensemble_s_per_member), string.format("**%.2f**", r.ratio),
                      string.format("%.2f–%.2f", r.ratio_min, r.ratio_max),
                      i < #rows and string.format("%.2f", r.ns_per_member_eval) or "–",
                      i < #rows and string.format("%.1e", r.max_rel_diff) or "–" }
end
sc:write_text("bench/ensemble.md", "### Ensembles against scalar runs\n\n" ..
  "One ensemble call (lib/methods/kz_ens.c: the members as one structure-of-arrays system, the vectorised " ..
  "model of lib/models/kz_ens_models.c, " .. rows[1].width .. " doubles per vector here) against one scalar " ..
  "library call per member, in one process, interleaved; medians of " .. P.samples .. " samples. " ..
  "Every member was checked against its scalar run first (largest relative difference in the last column: " ..
  "the vector math library's rounding of sin and cos, propagated).\n\n" ..
  S.md_table({ "run", "members", "scalar [s/member]", "ensemble [s/member]", "scalar / ensemble", "spread",
               "ns per member-evaluation", "max rel. diff." }, body) ..
  "\nTargets (issue 20): scalar / ensemble ≥ 8 for the first three rows; ≤ 3 ns per member and force " ..
  "evaluation for the pendulum models; the last row (2 threads against 1 on one ensemble) ≥ 1.8.\n")
