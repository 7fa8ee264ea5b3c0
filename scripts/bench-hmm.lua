-- bench-hmm.lua -- `make bench`: the whole HMM run of the library against a plain C loop doing the
-- same force evaluations (scripts/bench_hmm_loop.c, the practical limit), for
--   (a) Calvo & Sanz-Serna Table 2.3 (Algorithm 2, simple filtering), H = 1/80, omega = 1e6, T = 1;
--   (b) Sharp, Tsai & Engquist HMM-V-v, Table 1 row 2 (eta = 50 eps, h = eps/50), H = 0.1, T = 12.
-- Both are timed in this one process, interleaved (library, loop, library, loop, ...), each
-- sample long enough to be stable (>= `sample` seconds of repeated runs); the medians of the
-- per-sample times and of the per-sample ratios are written to DIR/bench/hmm.{tsv,md}, with
-- the spread (min-max). The two computations are checked to be the same: equal force-evaluation
-- counts and final states equal to round-off.
--   luajit scripts/bench-hmm.lua [--out DIR] [--quick] [samples=N] [sample=SECONDS]
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local Ti = require "kapitza.timing"
local kz = require "kapitza"
local hmm = require "kapitza.hmm"
local models = require "kapitza.models"
local ffi, C = kz.ffi, kz.C

local sc = S.new { id = "bench-hmm", title = "kapitza benchmark: the HMM against a plain C loop",
  params = { { "samples", 11, "", "interleaved timing samples per side", integer = true, min = 3 },
             { "sample", 0.05, "s", "minimum length of one sample", positive = true } },
  quick = { samples = 3, sample = 0.01 } }
local P = sc:parse(arg)

ffi.cdef [[
  double cs_alg2(long long N, double H, double omega, long long n, const double *w, double l,
                 double g, double vmax, double Q0, double P0, long long *evals);
  double ste_v(long long N, double H, double eps, double g, double l, long long n, double h,
               const double *w, double Th0, double Om0, long long *evals);
  double cs_alg2_fp(kz_phase_accel_fn f, void *par, long long N, double H, double omega, long long n,
                    const double *w, double Q0, double P0, long long *evals);
  double ste_v_fp(kz_phase_accel_fn f, void *par, long long N, double H, double eps, double l,
                  long long n, double h, const double *w, double Th0, double Om0, long long *evals);
]]
local now = Ti.now

local so = root .. "/build/bench_hmm_loop.so"
assert(os.execute(string.format("mkdir -p '%s/build' && ${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -shared -fPIC -o '%s' '%s/scripts/bench_hmm_loop.c' -lm",
                                root, so, root)) == 0, "cannot compile scripts/bench_hmm_loop.c")
local L = ffi.load(so)

local function per_call(f) return Ti.per_call(f, P.sample) end

local median = Ti.median

local minmax = Ti.minmax

-- Time the library call `lib` and the loop `plain` interleaved; check they compute the same.
local function compare(name, lib, plain)
  local ql, el = lib()
  local qp, ep = plain()
  assert(el == ep, string.format("%s: %d evaluations in the library, %d in the loop", name, el, ep))
  assert(math.abs(ql - qp) <= 1e-12 * math.max(1, math.abs(qp)), string.format("%s: Q_N %.17g vs %.17g", name, ql, qp))
  local tl, tp, ratio = {}, {}, {}
  for k = 1, P.samples do
    tl[k] = per_call(lib)
    tp[k] = per_call(plain)
    ratio[k] = tl[k] / tp[k]
  end
  local lo, hi = minmax(ratio)
  io.stderr:write(string.format("bench-hmm: %s: library %.3g s, loop %.3g s, ratio %.3f (%.3f-%.3f)\n",
                                name, median(tl), median(tp), median(ratio), lo, hi))
  return { run = name, evals = el, lib_seconds = median(tl), loop_seconds = median(tp),
           ratio = median(ratio), ratio_min = lo, ratio_max = hi, ns_per_eval = median(tl) / el * 1e9,
           loop_ns_per_eval = median(tp) / ep * 1e9 }
end

local rows = {}

-- (a) Table 2.3, H = 1/80: eta = 2 pi/omega, h = (2 pi/omega) H, half window of n = 40 steps
do
  local omega, H = 1e6, 1 / 80
  local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = omega }
  local period = 2 * math.pi / omega
  local p = hmm.params { preset = "cs2", kernel = "uniform", H = H, T = 1, eta = period, h = period * H }
  local N, n = 80, 40
  local w = kz.vec(n + 1)
  kz.call("kz_kernel_weights", C.KZ_KERNEL_UNIFORM, n, 1, 0, w, kz.report())
  local Y0, Y, r = kz.vec(2, { 0.5, 0 }), kz.vec(2 * (N + 1)), kz.report()
  local ev = ffi.new("long long[1]")
  rows[#rows + 1] = compare("cs-table2.3 H=1/80 omega=1e6",
    function()
      C.kz_report_init(r)
      assert(C.kz_hmm_run(pend.vib, p, Y0, Y, N + 1, r) == 0)
      return Y[2 * N], tonumber(r.force_evals)
    end,
    function()
      local q = L.cs_alg2(N, H, omega, n, w, 0.2, 9.8, 4, 0.5, 0, ev)
      return q, tonumber(ev[0])
    end)
  rows[#rows + 1] = compare("cs: plain loop calling the model by pointer vs inlined",
    function()
      local q = L.cs_alg2_fp(pend.vib.accel, pend.vib.par, N, H, omega, n, w, 0.5, 0, ev)
      return q, tonumber(ev[0])
    end,
    function()
      local q = L.cs_alg2(N, H, omega, n, w, 0.2, 9.8, 4, 0.5, 0, ev)
      return q, tonumber(ev[0])
    end)
end

-- (b) Sharp, Tsai & Engquist HMM-V-v, row 2: eps = 1e-6, eta = 50 eps, h = eps/50, H = 0.1, T = 12
do
  local eps, H, T = 1e-6, 0.1, 12
  local ste = models.ste { eps = eps, g = 0.1, l = 0.05 }
  local p = hmm.params { preset = "ste", kernel = "exponential", H = H, T = T, eta = 50 * eps, h = eps / 50 }
  local N, n = 120, 1250
  local w = kz.vec(2 * n + 1)
  kz.call("kz_kernel_weights", C.KZ_KERNEL_EXPONENTIAL, n, 0, 0, w, kz.report())
  local Y0, Y, r = kz.vec(2, { 0, -0.4 }), kz.vec(2 * (N + 1)), kz.report()
  local ev = ffi.new("long long[1]")
  rows[#rows + 1] = compare("ste HMM-V-v H=0.1 row 2",
    function()
      C.kz_report_init(r)
      assert(C.kz_hmm_run(ste.vib, p, Y0, Y, N + 1, r) == 0)
      return Y[2 * N], tonumber(r.force_evals)
    end,
    function()
      local q = L.ste_v(N, H, eps, 0.1, 0.05, n, eps / 50, w + n, 0, -0.4, ev)
      return q, tonumber(ev[0])
    end)
  -- the floor of a library with pluggable models: the plain loop calling the model's own force
  -- function through a pointer, against the plain loop with the force inlined
  local floor = compare("ste: plain loop calling the model by pointer vs inlined",
    function()
      local q = L.ste_v_fp(ste.vib.accel, ste.vib.par, N, H, eps, 0.05, n, eps / 50, w + n, 0, -0.4, ev)
      return q, tonumber(ev[0])
    end,
    function()
      local q = L.ste_v(N, H, eps, 0.1, 0.05, n, eps / 50, w + n, 0, -0.4, ev)
      return q, tonumber(ev[0])
    end)
  rows[#rows + 1] = floor
end

local cols = { "run", "evals", "lib_seconds", "loop_seconds", "ratio", "ratio_min", "ratio_max",
               "ns_per_eval", "loop_ns_per_eval" }
sc:write_tsv("bench/hmm.tsv", cols, rows,
  { string.format("bench-hmm: library kz_hmm_run vs the plain loop of scripts/bench_hmm_loop.c; medians of %d interleaved samples of >= %g s",
                  P.samples, P.sample) })
local body = {}
for _, r in ipairs(rows) do
  body[#body + 1] = { r.run, tostring(r.evals), string.format("%.3g", r.lib_seconds), string.format("%.3g", r.loop_seconds),
                      string.format("**%.3f**", r.ratio), string.format("%.3f–%.3f", r.ratio_min, r.ratio_max),
                      string.format("%.1f / %.1f", r.ns_per_eval, r.loop_ns_per_eval) }
end
sc:write_text("bench/hmm.md", "### The whole HMM run against a plain C loop\n\n" ..
  "The library's general HMM (any registry micro-stepper, model reconstruction, kernel average, " ..
  "macro scheme table) against the same computation written as one plain C loop with the force " ..
  "inlined (`scripts/bench_hmm_loop.c`): equal force-evaluation counts and final states checked " ..
  string.format("before timing; medians of %d interleaved samples of at least %g s each.\n\n", P.samples, P.sample) ..
  S.md_table({ "run", "force evaluations", "library [s]", "plain loop [s]", "library / loop", "spread", "ns per evaluation (library / loop)" }, body) ..
  "\nTarget (issue 7): within 1.1× of the plain loop. The last row is the floor of any design " ..
  "whose models are separate functions: the same plain loop, calling the model's force through a " ..
  "pointer instead of inlining it.\n")
