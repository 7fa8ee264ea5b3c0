-- bench-usermodel.lua -- `make bench`: what a user's model costs (lib/lua/kapitza/usermodel.lua). Calvo &
-- Sanz-Serna's pendulum is run three ways -- the built-in model (lib/models/kz_pendulum.c), the same
-- model as C source compiled by usermodel.lua, and as Lua functions called through FFI callbacks
-- (tests/usermodel_pendulum.lua) -- in
--   (a) a whole HMM run, Algorithm 1 (leapfrog macro, Verlet micro, the model's lift, exponential
--       kernel over 10 periods, 50 micro-steps per period), omega = 1e4, H = 1/100, T = 1;
--   (b) a direct integration by RK4 (kz_run), 10^5 steps.
-- All three are timed in this one process, interleaved (built-in, C source, Lua, built-in, ...),
-- each sample at least `sample` seconds of repeated runs; the medians of the per-sample ratios to
-- the built-in model are written to DIR/bench/usermodel.{tsv,md} with their spread. The three are
-- checked to compute the same thing first: equal force-evaluation counts, the C source's result
-- bit-identical to the built-in one, the Lua functions' equal to round-off.
--   luajit scripts/bench-usermodel.lua [--out DIR] [--quick] [samples=N] [sample=SECONDS]
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local Ti = require "kapitza.timing"
local kz = require "kapitza"
local hmm = require "kapitza.hmm"
local models = require "kapitza.models"
local um = require "kapitza.usermodel"
local ffi, C = kz.ffi, kz.C

local sc = S.new { id = "bench-usermodel", title = "kapitza benchmark: a user's model as C source and as Lua functions",
  params = { { "samples", 11, "", "interleaved timing samples per way", integer = true, min = 3 },
             { "sample", 0.05, "s", "minimum length of one sample", positive = true } },
  quick = { samples = 3, sample = 0.01 } }
local P = sc:parse(arg)


local function per_call(f) return Ti.per_call(f, P.sample) end

local median = Ti.median

local minmax = Ti.minmax

local omega = 1e4
local values = { l = 0.2, g = 9.8, vmax = 4, omega = omega, theta0 = 0 }
local spec = dofile(root .. "/tests/usermodel_pendulum.lua")
local ways = { { name = "built-in", model = models.pendulum(values) },
               { name = "C source", model = um.model(spec, values, "c") },
               { name = "Lua functions", model = um.model(spec, values, "lua") } }

-- Time run(model) for the three ways, interleaved; check first that they compute the same.
local function compare(name, run)
  local res = {}
  for i, w in ipairs(ways) do res[i] = { run(w.model) } end
  for i = 2, 3 do
    assert(res[i][2] == res[1][2], string.format("%s: %s does %d evaluations, the built-in model %d", name, ways[i].name, res[i][2], res[1][2]))
  end
  assert(res[2][1] == res[1][1], string.format("%s: C source %.17g, built-in %.17g", name, res[2][1], res[1][1]))
  assert(math.abs(res[3][1] - res[1][1]) <= 1e-12 * math.max(1, math.abs(res[1][1])),
         string.format("%s: Lua functions %.17g, built-in %.17g", name, res[3][1], res[1][1]))
  local t = { {}, {}, {} }
  local ratio = { {}, {}, {} }
  for k = 1, P.samples do
    for i, w in ipairs(ways) do t[i][k] = per_call(function() run(w.model) end) end
    for i = 1, 3 do ratio[i][k] = t[i][k] / t[1][k] end
  end
  local rows = {}
  for i, w in ipairs(ways) do
    local lo, hi = minmax(ratio[i])
    rows[i] = { run = name, way = w.name, evals = res[i][2], seconds = median(t[i]), ratio = median(ratio[i]),
                ratio_min = lo, ratio_max = hi, ns_per_eval = median(t[i]) / res[i][2] * 1e9 }
    io.stderr:write(string.format("bench-usermodel: %s, %s: %.3g s, ratio to built-in %.3f (%.3f-%.3f)\n",
                                  name, w.name, rows[i].seconds, rows[i].ratio, lo, hi))
  end
  return rows
end

local rows = {}
local period = 2 * math.pi / omega
local o = { preset = "cs1", kernel = "exponential", H = 1 / 100, T = 1, eta = 10 * period, h = period / 50, Q0 = 0.5, P0 = 0 }
for _, r in ipairs(compare("HMM run (Algorithm 1, omega = 1e4, H = 1/100, T = 1)", function(m)
  local Q, _, c = hmm.run(m, o)
  return Q[#Q], c.force_evals
end)) do rows[#rows + 1] = r end

local RK4, y, rep = kz.stepper("rk4"), kz.vec(2), kz.report()
local nsteps = 100000
for _, r in ipairs(compare("direct RK4 (kz_run, 1e5 steps of period/100)", function(m)
  y[0], y[1] = 0.5, 0
  C.kz_report_init(rep)
  kz.call("kz_run", RK4, m.sys, 0, period / 100, nsteps, y, rep)
  return y[0], tonumber(rep.force_evals)
end)) do rows[#rows + 1] = r end

local cols = { "run", "way", "evals", "seconds", "ratio", "ratio_min", "ratio_max", "ns_per_eval" }
sc:write_tsv("bench/usermodel.tsv", cols, rows,
  { string.format("bench-usermodel: the built-in pendulum, the same model as C source and as Lua functions; medians of %d interleaved samples of >= %g s",
                  P.samples, P.sample) })
local body = {}
for _, r in ipairs(rows) do
  body[#body + 1] = { r.run, r.way, tostring(r.evals), string.format("%.3g", r.seconds), string.format("**%.2f**", r.ratio),
                      string.format("%.2f–%.2f", r.ratio_min, r.ratio_max), string.format("%.1f", r.ns_per_eval) }
end
sc:write_text("bench/usermodel.md", "### A user's model: C source and Lua functions against the built-in model\n\n" ..
  "Calvo & Sanz-Serna's pendulum as the built-in model, as C source compiled by `lib/lua/kapitza/usermodel.lua` " ..
  "(`tests/usermodel_pendulum.lua`), and as Lua functions called through FFI callbacks; the three checked " ..
  "first to do the same force evaluations with the same result (C source bit-identical, Lua functions to round-off); " ..
  string.format("medians of %d interleaved samples of at least %g s each, and the spread of the ratio.\n\n", P.samples, P.sample) ..
  S.md_table({ "run", "model written as", "force evaluations", "time [s]", "time / built-in", "spread", "ns per evaluation" }, body) ..
  "\nThe C source is the fast path (the same machine code as a built-in model: ratio ≈ 1); Lua functions are the " ..
  "slow path, each force evaluation a call from C into Lua (a callback that catches errors).\n")
