-- atlas_user.lua -- the atlas on a model of one's own (`kapitza atlas MODEL.lua`): every method
-- family the model's parts allow (lib/lua/kapitza/capability.lua decides: the HMM on a fast-forced model, the
-- SAM family with RK4 micro-steps and, given flows, with Strang's; with constraints SHAKE,
-- RATTLE, HERK3, the constrained HMM and SAM on the DAE; with slow sets the slow-variable HMM;
-- with a multirate split the variational multirate integrators; the direct steppers the system
-- takes), the others listed with capability's reason; each over ladders of its accuracy parameters cut from the
-- model's two time scales (the fast period 2 pi/omega, or the model's `period`; the slow scale
-- tau from the reference run, lib/lua/kapitza/modelfile.lua), the peers when built (lib/lua/kapitza/peers.lua), against
-- a reference whose own accuracy is estimated and stated; error against force evaluations and
-- against CPU seconds (measured here: lib/lua/kapitza/atlas.lua's A.campaign, lib/lua/kapitza/timing.lua's clock), the
-- figure, and the cheapest configuration meeting each target tolerance as `key=value`, ready to
-- paste after `kapitza solve MODEL.lua`.
--
-- The driver is lib/lua/kapitza/atlas/run.lua (R.user), the one that runs the eight atlas-<problem>
-- scenarios, and so is the sweep engine (lib/lua/kapitza/atlas.lua): a method is { name, family,
-- knob, label, ladder, run(ctx, x, x2) -> error, counts }, its curve the envelope of its ladder
-- (A.mark_fronts), its runs made by A.run_one; M.setup sets up the papers' model files for those
-- problems too. What differs: the catalogue is built from the model file's parts
-- (lib/lua/kapitza/atlas/catalogue.lua) rather than curated in lib/lua/kapitza/atlas/problems.lua, at
-- the model's own parameters (a list of values of one of them: lib/lua/kapitza/atlas/user_sweep.lua,
-- the atlas at each value and the work's growth with it), and the runs are timed. Seconds depend on the machine: they appear only in the outputs of this command,
-- never in the reproducible paper/ outputs (the scenarios write evaluations only). The catalogue of
-- methods for a model is lib/lua/kapitza/atlas/catalogue.lua.
local kz = require "kapitza"
local S = require "kapitza.scenario"
local E = require "kapitza.experiment"
local A = require "kapitza.atlas"
local AW = require "kapitza.atlas.write"
local AM = require "kapitza.atlas.methods"
local MF = require "kapitza.modelfile"
local cap = require "kapitza.capability"

local M = {}

M.default_tol = { 1e-2, 1e-4, 1e-6 }

local function finite(x) return type(x) == "number" and x == x and x < math.huge and x > -math.huge end

-- the distinct values of a list, in order
local function uniq(t)
  local seen, out = {}, {}
  for _, v in ipairs(t) do if not seen[v] then seen[v] = true; out[#out + 1] = v end end
  return out
end

local function min_of(t)
  local m = math.huge
  for _, v in ipairs(t) do m = math.min(m, v) end
  return m
end

---------------------------------------------------------------------------------------------------
-- The run: time grid, reference, time scales
---------------------------------------------------------------------------------------------------

--- Does the model carry holonomic constraints (lib/lua/kapitza/capability.lua's part: model.con, the
-- kz_constraints the constrained methods take, as lib/lua/kapitza/models.lua's dpend and a user model's
-- constraints part)? Its reference is then HERK3, which keeps them.
function M.constrained(model) return cap.parts(model).constraints end

--- Reference states by a registry stepper of order p with m and 2m steps per output interval L,
-- Richardson-extrapolated: experiment.richardson (the constrained models' reference is HERK3,
-- which keeps the constraints). Returns the states at L, 2L, ..., nout L, the largest estimate
-- |y_2m - y_m|/(2^p - 1) at the end and the estimates by component.
function M.richardson(s, stepper, p, y0, L, nout, m, coarse)
  return E.richardson(s, y0, L, nout, m, stepper, p, coarse)
end

--- T/period, the number of fast periods of a run, checked: a positive finite period (psrc: where it
-- comes from), a count that a double holds exactly (at most 2^53), and, unless keep_T (a run
-- on its own grid of T, not T rounded up to whole periods), at least half a period; a one-line
-- error otherwise.
function M.periods(T, period, psrc, keep_T)
  if not (period > 0 and period < math.huge) then
    error(string.format("the fast period %.3g (%s) is not a positive finite number", period, psrc or "the model's"), 0)
  end
  local K0 = T / period
  if K0 < 0.5 and not keep_T then -- rounded up to one whole period, T would grow more than twofold: said, not done
    error(string.format("T = %.6g is less than half a fast period (%.6g, %s): the methods run over whole periods, and " ..
                        "one would stretch T to %.6g; give T of at least one period, or a faster oscillation", T, period,
                        psrc or "the model's", period), 0)
  end
  if not (K0 <= 2 ^ 53) then
    error(string.format("T/period = %.3g/%.3g = %.3g fast periods: more than can be counted (at most 2^53); " ..
                        "shorten T or lower the fast frequency", T, period, K0), 0)
  end
  return K0
end

--- The context of the atlas on the loaded model file mf (lib/lua/kapitza/modelfile.lua): the end time
-- rounded to K whole fast periods (a multiple of 32 when there are at least 64, so that the
-- macro grids of SAM and the multirevolution method divide it), the reference at T (RK4 with m
-- and 2m steps per period, Richardson extrapolation; m doubled from o.refm until its estimated
-- error is below min(tol)/100, or m = o.refmax), the slow scale tau from the reference's states
-- at whole periods, and the error: the Euclidean norm of the positions' error at T (the whole
-- state for a first-order model). A problem of the atlas scenarios (lib/lua/kapitza/atlas/problems.lua) sets
-- up its model file the same way, with o.period (its own fast period, e.g. eps), o.multiple (K a
-- multiple of it) or o.K and o.T (its own grid), o.refm = o.refmax (a fixed reference) or
-- o.reference = false (its own, set by the problem), and o.note(ctx) (its words for the data
-- files' headers); ctx.ref_est_state is the reference's estimate over the whole state.
function M.setup(mf, o)
  o = o or {}
  local tol = o.tol or M.default_tol
  local period, psrc = mf.period, mf.period_source
  if o.period then period, psrc = o.period, o.period_source or "given" end -- a problem's own (lib/lua/kapitza/atlas/problems.lua)
  if not period then
    period = MF.estimate_period(mf)
    psrc = "estimated: 2 pi / (fastest natural frequency at y0, from the Jacobian of the force)"
    if not period then period, psrc = mf.T / 100, "none found (the force does not vary with the state at y0): T/100" end
  end
  local K0 = M.periods(mf.T, period, psrc, o.K ~= nil or o.T ~= nil) -- (a problem with its own grid keeps its T)
  local K = o.K or AM.whole_periods(mf.T, period, o.multiple or (K0 >= 64 and 32 or 1))
  local T = o.T or K * period
  local model, y0 = mf.model, mf.y0
  local n = MF.measured(mf)
  local refm, refmax = o.refm or 64, o.refmax or 1024
  local st, est, ests
  local goal = min_of(tol) / 100
  local evals = 0
  local constrained = M.constrained(model)
  local fine -- the run with 2m steps of a pass: the next pass's run with m (computed once)
  while o.reference ~= false do
    local again = fine ~= nil
    if constrained then st, est, ests, fine = M.richardson(model.sys, "herk3", 3, y0, period, K, refm, fine)
    else st, est, ests, fine = E.richardson(model.sys, y0, period, K, refm, nil, nil, fine) end
    evals = evals + K * (again and 2 or 3) * refm * 4
    ests.all = est -- the largest over the whole state (E.richardson's)
    local s = 0
    for i = 1, n do s = s + ests[i] * ests[i] end
    est = math.sqrt(s)
    if est <= goal or refm >= refmax then break end
    refm = 2 * refm
    if o.progress then o.progress(string.format("reference: %d steps per period", refm)) end
  end
  local ref, tau = st and st[K], nil
  if st then
    local states = { y0 }
    for k = 1, K do states[k + 1] = st[k] end
    tau = MF.slow_scale(mf, states, period)
  end
  local tau_bound = tau == nil or tau > T
  if tau_bound then tau = T end
  local qref = ref and MF.slow_part(mf, ref) or MF.slow_part(mf, y0)
  local ctx = { mf = mf, model = model, sys = model.sys, y0 = y0, T = T, K = K, period = period, period_source = psrc,
                ref = ref, ref_est = est, refm = refm, tau = tau, tau_bound = tau_bound, tol = tol, ref_evals = evals,
                ref_est_state = ests and ests.all }
  function ctx.err(y) return E.dist(MF.slow_part(mf, y), qref) end
  function ctx.err_slow(Q)
    if type(Q) == "number" then Q = { Q } end
    return E.dist(Q, qref)
  end
  -- the HMM's macro start (Q0, P0): Q0 = q0, and P0 = v0 less the velocity the model's
  -- reconstruction adds at the initial phase (its lift at P = 0); without a reconstruction P0 = v0
  if model.vib and mf.nq > 0 then
    local nq, Y0 = mf.nq, {}
    for i = 1, 2 * nq do Y0[i] = y0[i] end
    local theta0 = mf.values.theta0 or 0
    local fn = mf.how == "lua" and mf.spec.lua and mf.spec.lua.reconstruct or nil
    local has = fn ~= nil or (mf.how == "c" and mf.spec.c and mf.spec.c.reconstruct ~= nil)
    if has then
      local Y, y = kz.vec(2 * nq), kz.vec(2 * nq)
      for i = 1, nq do Y[i - 1] = y0[i] end
      local st2 = fn and fn(model.par, theta0, Y, y) or model.vib.reconstruct(model.par, theta0, Y, y)
      if st2 ~= nil and st2 ~= 0 then
        error(string.format("usermodel '%s': reconstruct refused the initial state (status %s)", mf.name, tostring(st2)), 0)
      end
      for i = 1, nq do Y0[nq + i] = y0[nq + i] - y[nq + i - 1] end
    end
    ctx.Y0 = Y0
  end
  if not ref then est, refm = 0 / 0, 0 end
  ctx.constrained = constrained
  ctx.ref_what = constrained and "HERK3 (the constraints kept)" or "RK4"
  ctx.note = string.format("T = %d fast periods = %.17g (the model's T = %.17g rounded to whole periods); period %.6g (%s); " ..
    "slow scale tau = %.6g%s; reference y(T): %s with %d and %d steps per period, Richardson, its error in the measured " ..
    "components estimated at %.1e (|y_2m - y_m|/(2^p - 1), a bound on the extrapolated value's)",
    K, T, mf.T, period, psrc, tau, tau_bound and " (nothing moved: the run's length)" or "", ctx.ref_what, refm, 2 * refm, est)
  if o.note then ctx.note = o.note(ctx) end -- a problem's own words
  return ctx
end

---------------------------------------------------------------------------------------------------
-- Running and reading
---------------------------------------------------------------------------------------------------

--- "method=NAME N=16 n=32": a run's configuration as key=value (the method's knobs).
function M.params_of(m, x, x2)
  local keys = {}
  for k in (m.knob .. ","):gmatch("([^,]+),") do keys[#keys + 1] = k end
  local vals = { x, x2 }
  local t = { "method=" .. m.name }
  for i, k in ipairs(keys) do
    local v = vals[i]
    t[#t + 1] = k .. "=" .. (v == math.floor(v) and string.format("%d", v) or string.format("%.6g", v))
  end
  return table.concat(t, " ")
end

--- Run every method over its ladder on ctx, timed (A.campaign: o.reps interleaved repetitions,
-- medians; a run under 2 ms timed in batches; a ladder stops after a run over o.budget
-- seconds). Returns the rows (each with params, evaluations, seconds, and the curve marks
-- front_evals/env_evals, front_seconds/env_seconds) in file order.
function M.sweep(ctx, methods, o)
  o = o or {}
  local entries = A.entries(ctx, methods, { keep_failed = true })
  local byname = {}
  for _, m in ipairs(methods) do byname[m.name] = m end
  local reps = o.reps or 3
  -- progress once per entry and repetition (#entries x reps in all: M.progress_total), the
  -- timed repetitions included (A.clock may call a short run many times: one tick)
  local function progress(e, rep, measured)
    if not o.progress then return end
    if rep == 1 then o.progress(e.group)
    else o.progress(string.format("%s, timing %d/%d%s", e.group, rep, reps, measured and "" or " (not repeated)")) end
  end
  local rows = A.campaign(entries, { reps = reps, budget = o.budget or 3, progress = progress })
  for _, r in ipairs(rows) do
    r.si, r.stiffness = 1, 0
    r.params = M.params_of(byname[r.method], r.x, r.x2)
    r.evaluations = r.force_evals
  end
  A.mark_fronts(rows, "force_evals")
  for _, r in ipairs(rows) do r.front_evals, r.env_evals = r.front, r.env end
  rows = A.order(rows, methods)
  A.mark_fronts(rows, "seconds")
  for _, r in ipairs(rows) do r.front_seconds, r.env_seconds = r.front, r.env end
  return rows
end

--- The cheapest run meeting tolerance tol by `key` ("evaluations" or "seconds"): among the
-- finished runs whose error and the errors of every costlier run of the same ladder are within
-- tol (the envelope: a coarse run that is accurate by luck does not count), the one with the
-- least cost. nil when none.
function M.best(rows, tol, key)
  local env = key == "seconds" and "env_seconds" or "env_evals"
  local b
  for _, r in ipairs(rows) do
    if r.status == "ok" and finite(r[env]) and r[env] <= tol then
      if not b or r[key] < b[key] or (r[key] == b[key] and r.error < b.error) then b = r end
    end
  end
  return b
end

---------------------------------------------------------------------------------------------------
-- Outputs
---------------------------------------------------------------------------------------------------

M.columns = { "method", "family", "params", "status", "error", "evaluations", "micro_steps", "newton_iters", "seconds",
              "front_evals", "front_seconds" }
M.best_columns = { "tol", "by", "method", "params", "error", "evaluations", "seconds" }

local function g(x) return string.format("%.3g", x) end

--- The words the outputs use for the model file mf: its parameter values ("l=0.2", ...), its
-- initial state (strings) and what the error measures.
function M.words(mf)
  local vals = {}
  for _, p in ipairs(mf.spec.params) do vals[#vals + 1] = string.format("%s=%.10g", p, mf.values[p] or 0) end
  local y0 = {}
  for i, v in ipairs(mf.y0) do y0[i] = string.format("%.10g", v) end
  local what = mf.vmi and "the Euclidean norm of the positions' error (q_s, q_f)(T) - (q_s, q_f)_ref(T)" or
               mf.nq > 0 and "the Euclidean norm of the positions' error q(T) - q_ref(T)" or
               "the Euclidean norm of the state's error y(T) - y_ref(T)"
  return vals, y0, what
end

--- The header lines of the data file after the model's and the context's: what the columns mean.
M.data_head = { "error: %s; evaluations: force/field evaluations as each method counts them; " ..
                "seconds: CPU seconds of this run on this machine (median of interleaved repetitions)",
                "status: ok, diverged (non-finite error) or failed; front_evals/front_seconds: on the method's curve by that cost" }

--- The rows as written: a run without a finite error has '-' in its error (its status says
-- why), so that a nan is a real one.
function M.cells(rows)
  local out = {}
  for i, r in ipairs(rows) do
    if r.status ~= "ok" then
      local c = {}
      for k, v in pairs(r) do c[k] = v end
      c.error = "-"
      r = c
    end
    out[i] = r
  end
  return out
end

--- The cheapest configuration at each tolerance of tols, by evaluations and by seconds: the rows
-- of the best table and the cells of its Markdown table.
function M.best_rows(rows, tols)
  local best, body = {}, {}
  for _, tol in ipairs(tols) do
    for _, key in ipairs { "evaluations", "seconds" } do
      local b = M.best(rows, tol, key)
      best[#best + 1] = { tol = tol, by = key, method = b and b.method or "-", params = b and b.params or "-",
                          error = b and b.error or 0 / 0, evaluations = b and b.evaluations or 0, seconds = b and b.seconds or 0 / 0 }
      body[#body + 1] = { g(tol), key, b and ("**" .. b.method .. "**") or "none reaches it", b and ("`" .. b.params .. "`") or "–",
                          b and g(b.error) or "–", b and string.format("%d", b.evaluations) or "–", b and g(b.seconds) or "–" }
    end
  end
  return best, body
end

--- The tolerances of ctx.tol the reference of ctx is not accurate enough for (as strings).
function M.low_tols(ctx)
  local low = {}
  for _, tol in ipairs(ctx.tol) do if tol < 10 * ctx.ref_est then low[#low + 1] = g(tol) end end
  return low
end

--- A method's ladder in words: "N,n = (40, 16), (40, 32)".
function M.ladder_words(m)
  local lad = {}
  for i, x in ipairs(m.ladder) do lad[i] = type(x) == "table" and ("(" .. g(x[1]) .. ", " .. g(x[2]) .. ")") or g(x) end
  return m.knob .. " = " .. table.concat(lad, ", ")
end

--- The Markdown of the methods not run (na: {name, family, reason}): a heading and a table; nil when none.
function M.na_md(na)
  if #na == 0 then return nil end
  local t = {}
  for _, n in ipairs(na) do t[#t + 1] = { n.name, n.family, n.reason } end
  return "\nNot run on this model:\n", S.md_table({ "method", "family", "why" }, t)
end

--- The runs without a finite error, in words (where(r): a prefix naming the run's point, or nil).
function M.failed_words(rows, where)
  local failed = {}
  for _, r in ipairs(rows) do
    if r.status ~= "ok" then
      failed[#failed + 1] = string.format("%s%s (%s%s)", where and where(r) or "", r.params, r.status, r.msg and (": " .. r.msg) or "")
    end
  end
  if #failed == 0 then return nil end
  return "\nRuns without a finite error (left out of the curves): " .. table.concat(failed, "; ") .. ".\n"
end

--- The methods with a finite run in rows (the figure's curves), in catalogue order, and their names.
function M.plotted(methods, rows)
  local plotted, keep, names = {}, {}, {}
  for _, r in ipairs(rows) do if r.status == "ok" then plotted[r.method] = true end end
  for _, m in ipairs(methods) do if plotted[m.name] then keep[#keep + 1] = m; names[#names + 1] = m.name end end
  return keep, names
end

--- Write data/atlas-<name>.tsv, tables/atlas-<name>-best.{tsv,md} and figures/atlas-<name>.svg
-- through the scenario object sc (staged, atomic). Returns the best rows.
function M.write(sc, ctx, rows, methods, na)
  local mf = ctx.mf
  local id = "atlas-" .. mf.name
  local vals, y0, what = M.words(mf)
  local head = { string.format("kapitza atlas %s: model '%s' (%s functions), %s; y0 = (%s)", mf.path, mf.name, mf.how,
                               table.concat(vals, " "), table.concat(y0, ", ")),
                 ctx.note, string.format(M.data_head[1], what), M.data_head[2] }
  sc:write_tsv("data/" .. id .. ".tsv", M.columns, M.cells(rows), head)
  -- the best configuration at each tolerance, by evaluations and by seconds
  local best, body = M.best_rows(rows, ctx.tol)
  local paste = "kapitza solve " .. mf.path .. (#mf.overrides > 0 and (" " .. table.concat(mf.overrides, " ")) or "")
  sc:write_tsv("tables/" .. id .. "-best.tsv", M.best_columns, best,
               { id .. ": the cheapest configuration meeting each tolerance (by evaluations, by CPU seconds of this run)",
                 "paste its params after: " .. paste })
  local md = { string.format("#### The atlas of %s (`%s`)\n", mf.name, mf.path),
    string.format("Model: %s; y0 = (%s). Error: %s, against the reference. %s.\n", table.concat(vals, ", "),
                  table.concat(y0, ", "), what, ctx.note),
    M.best_intro .. paste .. "`:\n",
    S.md_table(M.best_columns, body) }
  local low = M.low_tols(ctx)
  if #low > 0 then
    md[#md + 1] = string.format("\n**The reference is not accurate enough for tolerance %s** (its estimated error %.1e; " ..
                                "raise refmax=).\n", table.concat(low, ", "), ctx.ref_est)
  end
  local mt = {}
  for _, m in ipairs(methods) do mt[#mt + 1] = { m.name, m.family, m.label, M.ladder_words(m) } end
  md[#md + 1] = M.methods_intro
  md[#md + 1] = S.md_table({ "method", "family", "what", "ladder" }, mt)
  local nh, nt = M.na_md(na)
  if nh then md[#md + 1] = nh; md[#md + 1] = nt end
  md[#md + 1] = M.failed_words(rows)
  md[#md + 1] = string.format("\nEvery run: `data/%s.tsv`; the figure: `figures/%s.svg`.\n", id, id)
  sc:write_text("tables/" .. id .. "-best.md", table.concat(md, "\n"))
  -- the figure
  local keep, names = M.plotted(methods, rows)
  local cols, pts, dts = AW.styles(keep)
  local x1lo, x1hi = AW.range(rows, "evaluations")
  local x2lo, x2hi = AW.range(rows, "seconds")
  local ylo, yhi = AW.error_range(rows, ctx.tol)
  local vars = { datafile = sc:path("data/" .. id .. ".tsv"), methods = names, colours = table.concat(cols, " "),
                 pts = pts, dts = dts, ntargets = #ctx.tol, title = "Atlas: " .. mf.name:gsub("_", "\\_"),
                 ylabel = (mf.nq > 0 or mf.vmi) and "error in q(T)" or "error in y(T)",
                 xmin1 = x1lo, xmax1 = x1hi, xmin2 = x2lo, xmax2 = x2hi, ymin = ylo, ymax = yhi }
  for k, e in ipairs(ctx.tol) do vars["target" .. k] = e end
  if #names > 0 then sc:figure(id, vars, kz.root .. "/figures/atlas-model.gp") end
  return best
end

M.best_intro = "The cheapest configuration whose error, and that of every costlier run of its ladder, is within the tolerance " ..
               "(by force evaluations, and by CPU seconds measured in this run on this machine). Paste its parameters after `"
M.methods_intro = "\nThe methods run (ladders from the fast period and the slow scale tau):\n"

return M
