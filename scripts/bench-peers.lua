-- bench-peers.lua -- the library's methods against real peers (issue 12, item 1): GSL (rk8pd,
-- msadams, rk4imp) and SUNDIALS (CVODE Adams and BDF, ARKODE explicit order 8, ARKODE MRIStep)
-- integrate the same problems directly, each at a ladder of tolerances, and report the error they
-- actually reached against the same reference as the library's HMM and SAM.
--  * Vibrated pendulum of Calvo & Sanz-Serna (2.2), time form, l = 0.2, g = 9.8, vmax = 4,
--    q(0) = 0.5, v(0) = 0, T = 1, omega = 1e4, 1e5, 1e6. Reference q(T): RK4 with m and 2m steps
--    (m = 256 per period), Richardson (lib/lua/kapitza/experiment.lua). Error |q(T) - q_ref(T)|. HMM:
--    Algorithm 2 (preset cs2, uniform kernel over one period, h = period H), H = 1/10 .. 1/80, its
--    Q(T) against the same q_ref(T) (the averaging error O(vmax/(l omega)) is below 2e-4 here).
--    MRIStep is not run: the fast forcing is fast in time, not a fast subsystem to split off.
--  * Perturbed Kepler (19) of Calvo, Chartier, Murua & Sanz-Serna, tau_end = (pi/8)/eps,
--    eps = 2^-10 .. 2^-16, reference of lib/lua/kapitza/sam.lua (RK4, 1024 and 2048 steps per period,
--    Richardson), Euclidean error of y(tau_end). SAM: Strang micro-steps (n = 16, 32, 64 per
--    period), N = 16 RK4 macro-steps. MRIStep: fast = the unperturbed Kepler field (eps = 0), slow =
--    the perturbation, slow step H = 2 pi / (8 2^k) at the k-th tolerance.
-- Tolerances rtol = atol = 1e-2 .. 1e-10; a peer's ladder stops after the first run over `budget`
-- CPU seconds. Timing in one process, the runs of one problem interleaved over 3 repetitions,
-- medians (runs over 0.5 s once). Headline ratios: the best peer's CPU seconds at the error the
-- library's method reached (log-log interpolation along the peer's ladder, never extrapolated)
-- over the method's own seconds. Peers not built are listed as skipped with the package to install.
--   luajit scripts/bench-peers.lua [--out DIR] [--quick]   -> DIR/bench/peers.{tsv,md}
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
package.path = root .. "/lib/lua/?.lua;" .. package.path
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local models = require "kapitza.models"
local hmm = require "kapitza.hmm"
local sam = require "kapitza.sam"
local SX = require "kapitza.papers.sam"
local peers = require "kapitza.peers"

local cli = S.bench_args("bench-peers", arg, root, { quick = true })
local out, quick = cli.out, cli.quick

local tols = quick and { 1e-4, 1e-6, 1e-8 } or { 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10 }
local budget, reps = quick and 0.5 or 3, quick and 1 or 3
local available, skipped = {}, {}
for _, n in ipairs(peers.names) do
  if peers.available(n) then available[#available + 1] = n else skipped[#skipped + 1] = n .. ": " .. peers.why(n) end
end
for _, s in ipairs(skipped) do io.stderr:write("bench-peers: skipped " .. s .. "\n") end

local median = require("kapitza.timing").median

-- Run the entries (closures returning {error, work, seconds?}) interleaved over reps, medians of
-- the seconds; an entry whose first run exceeds `budget` stops its ladder (later tolerances of
-- the same method are dropped).
local failed = {}
local function campaign(entries)
  local res, dead = {}, {}
  for rep = 1, reps do
    for k, e in ipairs(entries) do
      if (not dead[e.method] or (res[k] and rep > 1)) and not (rep > 1 and not res[k]) then
        local r = res[k]
        if rep == 1 or (r and r.times[1] <= 0.5) then
          local t0 = os.clock() -- CPU seconds, the peers' own clock (CLOCK_PROCESS_CPUTIME_ID)
          local x, msg = e.run()
          local dt = os.clock() - t0
          if not x then -- a failed point (the peer gave up at this tolerance) is left out, the ladder goes on
            io.stderr:write("bench-peers: " .. tostring(msg) .. "\n")
            failed[#failed + 1] = string.format("%s at tol %g (%s)", e.method, e.tol, e.problem or "")
          else
            if not r then
              r = { method = e.method, tol = e.tol, error = x.error, work = x.work, steps = x.steps, times = {} }
              res[k] = r
            end
            r.times[#r.times + 1] = x.seconds or dt
            if rep == 1 and dt > budget then dead[e.method] = true end
          end
        end
      end
    end
  end
  local list = {}
  for k = 1, #entries do
    local r = res[k]
    if r then r.seconds = median(r.times); list[#list + 1] = r end
  end
  return list
end

-- CPU seconds a method needs for error e along its ladder (experiment.cost_at: log-log
-- interpolation between two runs that bracket e, or the cheapest run already at least as
-- accurate, then an upper bound, flagged; nil if every run is less accurate than e).
local function seconds_at(runs, method, e)
  local pts = {}
  for _, r in ipairs(runs) do if r.method == method then pts[#pts + 1] = r end end
  return E.cost_at(pts, e, "seconds")
end

local rows, heads = {}, {}
local function record(problem, param, list)
  for _, r in ipairs(list) do
    rows[#rows + 1] = { problem = problem, param = param, method = r.method, tol = r.tol or 0, steps = r.steps or 0,
                        work = r.work, seconds = r.seconds, error = r.error }
  end
end

-- Headline: the best peer (and rk8pd) against the library's method at its chosen point.
local function headline(problem, param, list, lib, point)
  local mine
  for _, r in ipairs(list) do if r.method == lib and r.tol == point then mine = r end end
  if not mine then return end
  local best, bestname, bestbound, rk8, rk8bound
  for _, n in ipairs(available) do
    local s, b = seconds_at(list, n, mine.error)
    if s and (not best or s < best) then best, bestname, bestbound = s, n, b end
    if n == "gsl-rk8pd" then rk8, rk8bound = s, b end
  end
  heads[#heads + 1] = { problem = problem, param = param, method = lib, point = point, error = mine.error,
                        seconds = mine.seconds, best = bestname or "–", best_seconds = best, best_bound = bestbound,
                        ratio = best and best / mine.seconds, rk8pd_ratio = rk8 and rk8 / mine.seconds, rk8pd_bound = rk8bound }
end

-- The vibrated pendulum.
local omegas = quick and { 1e4 } or { 1e4, 1e5, 1e6 }
for _, om in ipairs(omegas) do
  local pd = models.pendulum { l = 0.2, g = 9.8, vmax = 4, omega = om }
  local period = 2 * math.pi / om
  local y0 = { 0.5, 0 }
  local ref, est = E.richardson(pd.sys, y0, 1, 1, math.ceil(256 / period))
  ref = ref[1]
  io.stderr:write(string.format("bench-peers: pendulum omega = %g: reference q(1) = %.15g (Richardson estimate %.1e)\n", om, ref[1], est))
  local entries = {}
  for _, n in ipairs(available) do
    if n ~= "arkode-mri" then
      for _, tol in ipairs(tols) do
        entries[#entries + 1] = { method = n, tol = tol, problem = "pendulum omega = " .. om, run = function()
          local r, msg = peers.integrate(n, pd.sys, 0, y0, 1, tol, { ref = ref, nerr = 1 })
          if not r then return nil, msg end
          return { error = r.error, work = r.rhs_evals, steps = r.steps, seconds = r.seconds }
        end }
      end
    end
  end
  for _, H in ipairs { 1 / 10, 1 / 20, 1 / 40, 1 / 80 } do
    entries[#entries + 1] = { method = "HMM", tol = H, run = function()
      local Q, _, w = hmm.run(pd, { preset = "cs2", kernel = "uniform", H = H, T = 1, eta = period, h = period * H,
                                    Q0 = 0.5, P0 = 0 })
      return { error = math.abs(Q[#Q] - ref[1]), work = w.force_evals, steps = w.micro_steps }
    end }
  end
  local list = campaign(entries)
  record("pendulum", om, list)
  headline("pendulum", om, list, "HMM", 1 / 80)
end

-- Perturbed Kepler.
local epss = quick and { 2 ^ -10 } or { 2 ^ -10, 2 ^ -12, 2 ^ -14, 2 ^ -16 }
local fast = models.kepler(0)
for _, eps in ipairs(epss) do
  local ks = SX.kepler_setup(eps, quick and 256 or 1024)
  io.stderr:write(string.format("bench-peers: kepler eps = %s: reference (Richardson estimate %.1e)\n", SX.eps_str(eps), ks.ref_est))
  local entries = {}
  for _, n in ipairs(available) do
    for k, tol in ipairs(tols) do
      local H = 2 * math.pi / (8 * 2 ^ (k - 1))
      entries[#entries + 1] = { method = n, tol = tol, problem = "kepler eps = " .. SX.eps_str(eps), run = function()
        local r, msg = peers.integrate(n, ks.mod.sys, 0, sam.kepler_y0, ks.tau_end, tol,
                                       { ref = ks.ref, fast = fast.sys, H = H })
        if not r then return nil, msg end
        return { error = r.error, work = r.rhs_evals, steps = r.steps, seconds = r.seconds }
      end }
    end
  end
  for _, n in ipairs { 16, 32, 64 } do
    entries[#entries + 1] = { method = "SAM", tol = n, run = function()
      local r = SX.kepler_run(ks, "strang", "SAM", 16, n)
      return { error = r.error, work = r.work, steps = r.work }
    end }
  end
  local list = campaign(entries)
  record("kepler", eps, list)
  headline("kepler", eps, list, "SAM", 32)
end

S.write_atomic(out .. "/bench/peers.tsv", S.tsv({ "problem", "param", "method", "tol", "steps", "work", "seconds", "error" }, rows,
  { "bench-peers: error reached vs work and CPU seconds (median of " .. reps .. " interleaved; one run when over 0.5 s)",
    "param: omega (pendulum) or eps (kepler); tol: rtol = atol for the peers, H for HMM, micro-steps per period n for SAM;",
    "work: field evaluations (peers, HMM: force evaluations) or Strang micro-steps (SAM); steps: accepted steps (MRI: slow)" }))

local md = { "#### Peers: GSL and SUNDIALS on the same problems\n",
  "Each peer integrates the problem directly at rtol = atol = " .. S.sci(tols[1], 1) .. " … " .. S.sci(tols[#tols], 1) ..
  " (a ladder stops after a run over " .. budget .. " CPU s); error against the same reference as the library's method " ..
  "(RK4 with Richardson extrapolation). CPU seconds: median of " .. reps .. " interleaved runs in one process. " ..
  "The full ladders are in `bench/peers.tsv`.\n" }
if #skipped > 0 then
  md[#md + 1] = "Skipped: " .. table.concat(skipped, "; ") .. ".\n"
end
if #failed > 0 then
  md[#md + 1] = "Points where the peer stopped with an error (left out): " .. table.concat(failed, "; ") .. ".\n"
end
local hm = {}
for _, h in ipairs(heads) do
  hm[#hm + 1] = { h.problem, h.problem == "kepler" and SX.eps_str(h.param) or string.format("%g", h.param),
                  h.method .. (h.problem == "kepler" and " (n = 32)" or " (H = 1/80)"), S.sci(h.error, 2),
                  string.format("%.3g", h.seconds), h.best, h.best_seconds and string.format("%.3g", h.best_seconds) or "–",
                  h.ratio and ((h.best_bound and "≤ " or "") .. string.format("%.3g", h.ratio)) or "–",
                  h.rk8pd_ratio and ((h.rk8pd_bound and "≤ " or "") .. string.format("%.3g", h.rk8pd_ratio)) or "–" }
end
md[#md + 1] = "Cost of the best peer at the error the library's method reached, over the method's own cost " ..
  "(interpolated along the peer's ladder; ≤ : the peer's cheapest run was already more accurate, an upper bound; " ..
  "– : no run of the peer reached that error):\n"
md[#md + 1] = S.md_table({ "problem", "ω or ε", "method", "its error", "its CPU s", "best peer", "peer CPU s", "ratio",
                           "rk8pd ratio" }, hm)
-- the best run of each peer per problem point (the tightest tolerance it finished)
local per = {}
for _, r in ipairs(rows) do
  local key = r.problem .. "|" .. r.param .. "|" .. r.method
  if not per[key] or r.error < per[key].error then per[key] = r end
end
local keys = {}
for k in pairs(per) do keys[#keys + 1] = k end
table.sort(keys)
local bm = {}
for _, k in ipairs(keys) do
  local r = per[k]
  bm[#bm + 1] = { r.problem, r.problem == "kepler" and SX.eps_str(r.param) or string.format("%g", r.param), r.method,
                  tostring(r.tol), S.sci(r.error, 2), tostring(r.work), string.format("%.3g", r.seconds) }
end
md[#md + 1] = "\nThe smallest error each method reached (at its tightest finished tolerance / finest point):\n"
md[#md + 1] = S.md_table({ "problem", "ω or ε", "method", "tol / H / n", "error", "work", "CPU s" }, bm)
S.write_atomic(out .. "/bench/peers.md", table.concat(md, "\n"))
