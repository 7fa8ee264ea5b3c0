-- bench-cs.lua -- `make bench`, first part (Calvo & Sanz-Serna): what a library micro-step costs
-- against a plain C loop of the same arithmetic, what an FFI call costs, and how the HMM's cost
-- stays flat in omega while a direct Verlet integration of (2.2) grows like omega.
-- Writes paper/bench/cs.tsv and paper/bench/cs.md. Ratios are measured within this one run.
local root = (arg[0]:match("^(.*)/[^/]*$") or ".") .. "/.." -- the repository, from this file's path
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local Ti = require "kapitza.timing"
local kz = require "kapitza"
local hmm = require "kapitza.hmm"
local models = require "kapitza.models"
local E = require "kapitza.experiment"
local ffi, C = kz.ffi, kz.C

local sc = S.new { id = "bench-cs", title = "kapitza benchmark: Verlet micro-steps, FFI calls, HMM vs direct",
  params = { { "steps", 2e7, "", "Verlet steps timed in the loop comparison", integer = true },
             { "omegas", { 1e2, 1e3, 1e4, 1e5, 1e6 }, "s^-1", "frequencies of the cost-vs-omega study" },
             { "H", 1 / 80, "s", "macro step of the HMM (Table 2.3 setting)" } },
  quick = { steps = 2e6, omegas = { 1e2, 1e3 } } }
local P = sc:parse(arg)

local now = Ti.now
local function best_of(k, f)
  local best = math.huge
  for _ = 1, k do
    local t0 = now()
    f()
    best = math.min(best, now() - t0)
  end
  return best
end

-- 1. library Verlet micro-step vs the plain C loop (same omega, h)
local omega, h = 1e4, 2 * math.pi / 1e4 / 80
local exe = root .. "/build/bench_loop"
assert(os.execute(string.format("mkdir -p '%s/build' && ${CC:-cc} -O2 -std=c11 -D_DEFAULT_SOURCE -o '%s' '%s/scripts/bench_loop.c' -lm",
                                root, exe, root)) == 0, "cannot compile scripts/bench_loop.c")
local loop_ns = math.huge
for _ = 1, 3 do
  local p = io.popen(string.format("'%s' %d %.17g %.17g", exe, P.steps, omega, h))
  loop_ns = math.min(loop_ns, tonumber(p:read("*l"):match("^(%S+)")))
  p:close()
end
local pend = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = omega }
local VERLET = kz.stepper("verlet")
local y, r = kz.vec(2), kz.report()
local lib_s = best_of(3, function()
  y[0], y[1] = 0.5, 0
  kz.call("kz_run", VERLET, pend.sys, 0, h, P.steps, y, r)
end)
local lib_ns = lib_s / P.steps * 1e9

-- 2. FFI call overhead: a trivial C call, and one Verlet step per call from Lua
local ncall = math.floor(P.steps / 4)
local rr = kz.report()
local empty_s = best_of(3, function() for _ = 1, ncall do rr.micro_steps = 0 end end)
local call_s = best_of(3, function() for _ = 1, ncall do C.kz_report_init(rr) end end)
local f, g, work = kz.vec(2), kz.vec(2), kz.vec(tonumber(C.kz_step_work(VERLET, 2)))
local apply = VERLET.apply
local step_s = best_of(3, function()
  y[0], y[1] = 0.5, 0
  C.kz_sys_eval(pend.sys, 0, y, f, rr)
  for k = 0, ncall - 1 do
    apply(pend.sys, k * h, h, y, f, g, work, rr)
    f, g = g, f
  end
end)
local call_ns = (call_s - empty_s) / ncall * 1e9
local step_ns = step_s / ncall * 1e9

-- 3. cost versus omega: HMM (Algorithm 2, simple filtering, Table 2.3 setting) and direct Verlet
--    on (2.2) with the HMM's micro-step h = 2 pi H/omega (the paper's comparison in Sec. 2.2)
local rows = {}
sc:progress_start(#P.omegas)
for _, om in ipairs(P.omegas) do
  local pd = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = om }
  local period = 2 * math.pi / om
  local o = { preset = "cs2", kernel = "uniform", H = P.H, T = 1, eta = period, h = period * P.H, Q0 = 0.5, P0 = 0 }
  local work, Q
  local t_hmm = best_of(3, function() Q, _, work = hmm.run(pd, o) end)
  local exact = E.grid(pd.avg, 1, P.H, { 0.5, 0 }, 1 / 20480)[1]
  local hmm_err = math.abs(Q[#Q] - exact[#exact])
  local ndirect = math.floor(1 / (period * P.H) + 0.5)
  local hd = 1 / ndirect
  local t_dir = best_of(1, function()
    y[0], y[1] = 0.5, 0
    kz.call("kz_run", VERLET, pd.sys, 0, hd, ndirect, y, kz.report())
  end)
  local qh = y[0]
  y[0], y[1] = 0.5, 0 -- Richardson: Verlet with h/4 gives error(h) ~ (16/15)|q_h - q_{h/4}|
  kz.call("kz_run", VERLET, pd.sys, 0, hd / 4, 4 * ndirect, y, kz.report())
  local dir_err = 16 / 15 * math.abs(qh - y[0])
  rows[#rows + 1] = { omega = om, hmm_microsteps = work.micro_steps, hmm_seconds = t_hmm, hmm_error = hmm_err,
                      direct_steps = ndirect, direct_seconds = t_dir, direct_error = dir_err, ratio = t_dir / t_hmm }
  sc:progress(string.format("omega=%g", om))
end

sc:write_tsv("bench/cs.tsv", { "omega", "hmm_microsteps", "hmm_seconds", "hmm_error", "direct_steps",
                              "direct_seconds", "direct_error", "ratio" },
             rows, { string.format("verlet_lib_ns=%.3f verlet_loop_ns=%.3f ratio=%.3f ffi_call_ns=%.3f step_per_call_ns=%.3f",
                                   lib_ns, loop_ns, lib_ns / loop_ns, call_ns, step_ns) })
local body = {}
for _, row in ipairs(rows) do
  body[#body + 1] = { string.format("%g", row.omega), tostring(row.hmm_microsteps), string.format("%.2e", row.hmm_seconds),
                      string.format("%.1e", row.hmm_error), tostring(row.direct_steps),
                      string.format("%.2e", row.direct_seconds), string.format("%.1e", row.direct_error),
                      string.format("%.1f", row.ratio) }
end
local function slope(key)
  local xs, ys = {}, {}
  for _, row in ipairs(rows) do xs[#xs + 1], ys[#ys + 1] = row.omega, row[key] end
  return S.loglog_slope(xs, ys)
end
sc:write_text("bench/cs.md", table.concat({
  "### Calvo & Sanz-Serna: micro-step cost, FFI overhead, HMM versus direct integration\n",
  S.md_table({ "measure", "value" }, {
    { "Verlet micro-step in the library (kz_run with kz_step_verlet, force through kz_sys)", string.format("%.2f ns", lib_ns) },
    { "the same arithmetic as one plain C loop (scripts/bench_loop.c)", string.format("%.2f ns", loop_ns) },
    { "library / plain loop", string.format("**%.2f**", lib_ns / loop_ns) },
    { "one trivial FFI call (kz_report_init) from LuaJIT", string.format("%.2f ns", call_ns) },
    { "one Verlet step per FFI call (the step type's apply from a Lua loop)", string.format("%.2f ns", step_ns) },
  }),
  string.format("\nCost versus ω at H = %s (HMM: Algorithm 2 with simple filtering, error in Q(T) against the "
                .. "averaged solution; direct: Verlet on (2.2) with the HMM's micro-step h = 2πH/ω, the paper's "
                .. "comparison in Sec. 2.2, error in q(T) estimated by Richardson against h/4):\n", "1/" .. math.floor(1 / P.H + 0.5)),
  S.md_table({ "ω [s⁻¹]", "HMM micro-steps", "HMM time [s]", "HMM error", "direct steps", "direct time [s]",
               "direct error", "direct / HMM time" }, body),
  string.format("\nFitted log–log slope of time against ω: HMM %.2f (flat), direct %.2f (grows like ω).\n",
                slope("hmm_seconds"), slope("direct_seconds")),
}, "\n"))
