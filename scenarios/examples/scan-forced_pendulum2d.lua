-- scan-forced_pendulum2d.lua -- a scenario of your own, kept beside your model: the two coupled
-- vibrated pendulums of scenarios/examples/forced_pendulum2d.lua at several frequencies omega, integrated
-- directly (RK4, 64 steps per period) and by the HMM (Algorithm 2, RK4 micro-solver), both to
-- T = K whole periods; the HMM's macro positions against the direct solution's, and its work.
-- Run it with `kapitza run` from anywhere (the library's modules are put on the path; its figure
-- script scan-forced_pendulum2d.gp is found beside it); sweep it with `kapitza sweep`:
--   kapitza run scenarios/examples/scan-forced_pendulum2d.lua --out /tmp/scan omega=1e3,1e4,1e5
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../../lib/lua/?.lua;" .. package.path -- in the source tree; kapitza run sets it anyway
local S = require "kapitza.scenario"
local MF = require "kapitza.modelfile"
local kz = require "kapitza"
local hmm = require "kapitza.hmm"

local sc = S.new { id = "scan-forced_pendulum2d", title = "Two coupled vibrated pendulums: the HMM against RK4 over omega",
  params = {
    { "omega", { 1e3, 1e4 }, "s^-1", "vibration frequencies (list)", positive = true, min = 10, max = 1e6 },
    { "T", 1, "s", "end time (rounded to a whole multiple of N periods, at least N periods)", positive = true, max = 100 },
    { "N", 100, "", "HMM macro steps", integer = true, min = 1, max = 1e5 },
    { "n", 16, "", "HMM micro steps per period (RK4)", integer = true, min = 2, max = 1024 },
  }, quick = { omega = { 1e3 } } }
local P = sc:parse(arg)

local rows = {}
sc:progress_start(#P.omega)
for _, om in ipairs(P.omega) do
  local mf = sc:try(MF.load, here .. "/forced_pendulum2d.lua", { omega = om, T = P.T })
  local period = mf.period
  local K = math.max(P.N, P.N * math.floor(P.T / period / P.N + 0.5)) -- whole periods, N divides K
  local T = K * period
  -- the HMM's N macro-steps are whole periods: T moves to K = a multiple of N periods (at least N);
  -- say so where that is more than the rounding to whole periods
  if math.abs(T - P.T) > 0.5 * period then
    io.stderr:write(string.format("%s: omega = %g: T = %g s is %.4g periods; run to %d periods (T = %.6g s): the N = %d macro-steps are whole periods\n",
                                  sc.id, om, P.T, P.T / period, K, T, P.N))
  end
  local y, c = kz.run(mf.model.sys, "rk4", 0, period / 64, 64 * K, mf.y0)
  local Q, _, w = hmm.run(mf.model, { preset = "cs2", micro = "rk4", kernel = "uniform", eta = period, h = period / P.n,
                                      H = T / P.N, T = T, Y0 = mf.y0 })
  local q = Q[#Q]
  rows[#rows + 1] = { omega = om, T = T, q1 = y[1], q2 = y[2], Q1 = q[1], Q2 = q[2],
                      diff = math.sqrt((q[1] - y[1]) ^ 2 + (q[2] - y[2]) ^ 2), rk4_evals = c.force_evals,
                      hmm_evals = w.force_evals }
  sc:progress(string.format("omega = %g", om))
end
sc:write_tsv("data/" .. sc.id .. ".tsv", { "omega", "T", "q1", "q2", "Q1", "Q2", "diff", "rk4_evals", "hmm_evals" }, rows,
             { sc.id .. ": q(T) by RK4 (64 steps per period) and the HMM's Q(T) (Algorithm 2, N = " .. P.N .. ", n = " .. P.n .. ")" })
sc:figure(sc.id, { omega = P.omega })
