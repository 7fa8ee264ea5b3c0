-- atlas.lua -- the efficiency atlas (issue 12): every applicable method of the library on one
-- problem, error against work (force evaluations) over a sweep of the problem's stiffness
-- parameter, the cheapest method at target errors, and the figure. The problems and their
-- method catalogues are in lib/lua/kapitza/atlas/problems.lua; lib/lua/kapitza/atlas/run.lua runs them
-- (deterministic: errors and work counts only) for the scenarios scenarios/atlas-<problem>.lua and
-- for `kapitza atlas lib/models/<problem>.lua` alike, and scripts/bench-atlas.lua times the same
-- runs beside the peers (lib/lua/kapitza/peers.lua) in CPU seconds.
--
-- A problem (atlas_problems.lua) is a table
--   { key, id, title, stiff = { key, label, unit, help, default, quick, min, max, show(s) },
--     params = { extra scenario parameters }, quick = { ... }, targets = { ... },
--     setup(P, s) -> ctx,          -- one stiffness: ctx.T, ctx.err(y), ctx.sys, ctx.y0, the
--                                  -- reference, and ctx.peer (what bench-atlas needs)
--     catalogue(P) -> methods, n/a entries ({name, family, reason}), est(P) -> force evaluations,
--     check(sc, P) (optional: refuses parameters before any computation),
--     claims(cl, prob, P, rows, methods) -- what the problem states about its sweep }
-- and a method is { name, family, label, knob, ladder = {...}, run(ctx, x, x2) -> error, counts
-- (or nil: this ladder point does not exist at this stiffness) }. A ladder point is a number x
-- (one knob) or a pair {x, x2} (two knobs, knob = "N,n"): a method with two knobs is run on a
-- small grid and its curve is the lower envelope (the Pareto front: no cheaper run is as
-- accurate), the best the method can do at each work with the knobs as given.
-- Everything that steps runs in C (the methods' bindings); this module sweeps and compares.
-- `kapitza atlas` on a model of one's own (lib/lua/kapitza/atlas/user.lua, through the same driver)
-- runs its methods through the same engine (A.entries, A.campaign, A.run_one, A.mark_fronts,
-- A.order), timed. The kinds of claim an atlas makes are in lib/lua/kapitza/atlas/claims.lua, each
-- problem's in lib/lua/kapitza/atlas/problem_claims.lua, its outputs (data, tables, figure) in
-- lib/lua/kapitza/atlas/write.lua.
local kz = require "kapitza"
local S = require "kapitza.scenario"
local Ti = require "kapitza.timing"
local E = require "kapitza.experiment"
local C = kz.C

local A = {}

---------------------------------------------------------------------------------------------------
-- Direct integration with the registry's steppers
---------------------------------------------------------------------------------------------------

-- What a system lacks for a stepper that needs `bits` (enum kz_step_needs), in words.
local function missing(T, s)
  local need, t = tonumber(T.needs), {}
  local has_flows = s.flow_a ~= nil and s.flow_b ~= nil
  if bit.band(need, C.KZ_NEEDS_ACCEL) ~= 0 and not (s.nq > 0 and s.accel ~= nil) then
    t[#t + 1] = "the second-order form q'' = a(t, q)"
  end
  if bit.band(need, C.KZ_NEEDS_FLOWS) ~= 0 and not has_flows then t[#t + 1] = "a splitting into two exact flows" end
  if bit.band(need, C.KZ_NEEDS_CONSTRAINTS) ~= 0 and s.con == nil then t[#t + 1] = "holonomic constraints g(q) = 0" end
  if #t == 0 then t[1] = "a form this system does not offer" end
  return "needs " .. table.concat(t, " and ")
end

--- Ladders of steps per fast period for a stepper of classical order `order`.
A.direct_ladders = { [1] = { 8, 32 }, [2] = { 16, 32, 64, 128 }, default = { 8, 16, 32, 64 } }

--- The registry's steppers on the system ctx.sys (sample: a system of the problem's shape, to
-- decide which apply before any stiffness is set up). Each applicable stepper is a method
-- integrating ctx.sys from ctx.y0 over [0, ctx.T] with N = n ceil(T/period) constant steps
-- (n per fast period ctx.period: the ladder), error ctx.err(y(T)). o.skip = {name = reason} marks
-- steppers that run but do not solve this problem (n/a with that reason); o.ladders overrides
-- A.direct_ladders; o.label (a suffix) and o.sysname select another system of ctx (e.g. the angle
-- form of a constrained model). Returns the methods and the n/a entries.
function A.direct(sample, o)
  o = o or {}
  local methods, na = {}, {}
  local ladders = o.ladders or A.direct_ladders
  for _, name in ipairs(kz.steppers.names) do
    local T = kz.steppers[name]
    local r = kz.report()
    local label = name .. (o.label or "")
    if o.skip and o.skip[name] then
      na[#na + 1] = { name = label, family = "direct", reason = o.skip[name] }
    elseif C.kz_step_check(T, sample, r) ~= 0 then
      na[#na + 1] = { name = label, family = "direct", reason = missing(T, sample) }
    elseif not (o.only and not o.only[name]) then
      local order = tonumber(T.order)
      methods[#methods + 1] = {
        name = label, family = "direct", knob = "n", order = order,
        label = string.format("%s (registry, order %d), n steps per fast period", name, order),
        ladder = ladders[order] or ladders.default,
        run = function(ctx, n)
          local sys = o.sysname and ctx[o.sysname] or ctx.sys
          local N = n * math.ceil(ctx.T / ctx.period - 1e-9)
          local y, c = kz.run(sys, T, 0, ctx.T / N, N, o.sysname and ctx[o.sysname .. "_y0"] or ctx.y0)
          return (o.err and ctx[o.err] or ctx.err)(y), c
        end,
        est = function(ctx, n) return n * math.ceil(ctx.T / ctx.period) * (order >= 4 and 6 or 3) end,
      }
    end
  end
  return methods, na
end

---------------------------------------------------------------------------------------------------
-- Scenario parameters
---------------------------------------------------------------------------------------------------

--- The scenario parameters of a problem: its stiffness list, the target errors, the methods run
-- (all by default), then the problem's own.
function A.params(prob, names)
  local st = prob.stiff
  local p = {
    { st.key, st.default, st.unit, st.help, positive = true, min = st.min, max = st.max },
    { "target", prob.targets, prob.error_unit or "", "target errors of the summary table (list)", positive = true, min = 1e-14, max = 1 },
    { "methods", names, "", "the methods run (list; default: every applicable one)", choices = names },
  }
  for _, q in ipairs(prob.params or {}) do p[#p + 1] = q end
  return p
end

--- The catalogue of a problem at its parameters: the methods (in catalogue order, only those in
-- P.methods when given) and the n/a entries.
function A.catalogue(prob, P)
  local all, na = prob.catalogue(P)
  local keep = {}
  for _, n in ipairs(P and P.methods or {}) do keep[n] = true end
  local out = {}
  for _, m in ipairs(all) do if not P or not P.methods or keep[m.name] then out[#out + 1] = m end end
  return out, na
end

--- The names of every method of a problem (its `methods` key's choices), at default parameters.
function A.names(prob, defaults)
  local t = {}
  for i, m in ipairs((prob.catalogue(defaults))) do t[i] = m.name end
  return t
end

---------------------------------------------------------------------------------------------------
-- The sweep
---------------------------------------------------------------------------------------------------

A.columns = { "si", "stiffness", "method", "family", "knob", "x", "x2", "status", "error", "force_evals", "micro_steps",
              "newton_iters", "front", "env" }

local function finite(x) return type(x) == "number" and x == x and x < math.huge and x > -math.huge end

--- One run of method m at ladder point x: a row (status "ok", "diverged": non-finite error, or
-- "failed": the method stopped with an error, its message in row.msg), or nil when the point does
-- not exist at this stiffness.
function A.run_one(ctx, m, x)
  local x1, x2 = x, 0
  if type(x) == "table" then x1, x2 = x[1], x[2] end
  local ok, err, c = pcall(m.run, ctx, x1, x2)
  if ok and err == nil then return nil end
  local row = { method = m.name, family = m.family, knob = m.knob, x = x1, x2 = x2 }
  if not ok then
    row.status, row.error, row.msg = "failed", 0 / 0, tostring(err):gsub("^[^:]*:%d+: ", "")
    c = {}
  elseif not finite(err) then
    row.status, row.error = "diverged", 0 / 0
  else
    row.status, row.error = "ok", err
  end
  row.force_evals, row.micro_steps, row.newton_iters = c.force_evals or 0, c.micro_steps or 0, c.newton_iters or 0
  return row
end

--- Run every method over its ladder at every stiffness of P. Returns the rows (stiffness by
-- stiffness, methods in catalogue order), the contexts (one per stiffness) and the n/a entries.
function A.sweep(sc, prob, P)
  if sc and prob.check then prob.check(sc, P) end
  local methods, na = A.catalogue(prob, P)
  local stiffs = P[prob.stiff.key]
  local total = 0
  for _, m in ipairs(methods) do total = total + #m.ladder end
  if sc then sc:progress_start(total * #stiffs + #stiffs, sc.id) end
  local rows, ctxs = {}, {}
  -- each stiffness's reference and each run are compute cells (lib/lua/kapitza/scenario/cells.lua):
  -- a sweep's shard records them, its merge judges them as one run; the reference is set up only
  -- when a run needs it (a merge needs none, only its note)
  local cell = sc and function(...) return sc:cell(...) end or function(_, _, f) return f() end -- (sc:cell's o.ignore:
  -- the reference does not depend on which methods run, no run on the targets: they are the summary's)
  for si, s in ipairs(stiffs) do
    local ctx
    local function context()
      ctx = ctx or prob.setup(P, s)
      return ctx
    end
    local note = cell("reference", { [prob.stiff.key] = s }, function() return context().note end, { ignore = { "methods", "target" } })
    ctxs[si] = { note = note }
    if sc then sc:progress(string.format("%s = %g: reference", prob.stiff.key, s)) end
    for _, m in ipairs(methods) do
      for _, x in ipairs(m.ladder) do
        local row = cell("run", { [prob.stiff.key] = s, methods = m.name, x = x }, function() return A.run_one(context(), m, x) end,
                         { ignore = { "target" } })
        if row then
          row.si, row.stiffness = si, s
          rows[#rows + 1] = row
        end
        if sc then sc:progress(string.format("%s = %g: %s", prob.stiff.key, s, m.name)) end
      end
    end
  end
  A.mark_fronts(rows)
  return A.order(rows, methods), ctxs, methods, na
end

--- The rows in file order: by stiffness, methods in catalogue order, each method's curve first
-- (a ladder in its order, a grid's envelope by work) and then its other runs in run order (so
-- that a figure's lines join the curve's points).
function A.order(rows, methods)
  local rank = {}
  for i, m in ipairs(methods) do rank[m.name] = i end
  for i, r in ipairs(rows) do r._i = i end
  table.sort(rows, function(a, b)
    if a.si ~= b.si then return a.si < b.si end
    if a.method ~= b.method then return (rank[a.method] or 0) < (rank[b.method] or 0) end
    if a.front ~= b.front then return a.front > b.front end
    if a.front == 1 and a.knob:find(",") and a.force_evals ~= b.force_evals then return a.force_evals < b.force_evals end
    return a._i < b._i
  end)
  for _, r in ipairs(rows) do r._i = nil end
  return rows
end

--- Mark the runs each method's curve is made of and the error the summary reads from them.
-- Along a ladder (one knob, or the first knob at a fixed second one) the envelope error env of a
-- run is the largest error of the runs of that ladder with at least as much work, so that a lucky
-- coarse run (an error that happens to cancel) does not count as reaching a target that finer
-- runs miss. One knob: every run with a finite error is on the curve (front = 1). Two knobs (a
-- grid): the curve is the lower envelope of env over the grid, the runs whose env is below that
-- of every cheaper run (front = 1): the best the method does with its second knob chosen knowing
-- the answer. Others get front = 0.
function A.mark_fronts(rows, key)
  key = key or "force_evals"
  local function by_work(a, b)
    if a[key] ~= b[key] then return a[key] < b[key] end
    return a.error < b.error
  end
  local ladders, grids = {}, {}
  for _, r in ipairs(rows) do
    r.front, r.env = 0, 0 / 0
    if r.status == "ok" then
      local two = r.knob:find(",") ~= nil
      local g = r.si .. "|" .. r.method .. (two and ("|" .. S.fmt(r.x2)) or "")
      ladders[g] = ladders[g] or {}
      table.insert(ladders[g], r)
      if two then
        local h = r.si .. "|" .. r.method
        grids[h] = grids[h] or {}
        table.insert(grids[h], r)
      end
    end
  end
  for _, g in pairs(ladders) do
    table.sort(g, by_work)
    local worst = 0
    for i = #g, 1, -1 do
      worst = math.max(worst, g[i].error)
      g[i].env = worst
      if not g[i].knob:find(",") then g[i].front = 1 end
    end
  end
  for _, g in pairs(grids) do
    table.sort(g, function(a, b)
      if a[key] ~= b[key] then return a[key] < b[key] end
      return a.env < b.env
    end)
    local best = math.huge
    for _, r in ipairs(g) do
      if r.env < best then r.front, best = 1, r.env end
    end
  end
end

---------------------------------------------------------------------------------------------------
-- Reading the sweep
---------------------------------------------------------------------------------------------------

--- The curve of one method at stiffness index si as cost_at points {error = env, work...}.
function A.curve(rows, si, method)
  local t = {}
  for _, r in ipairs(rows) do
    if r.si == si and r.method == method and r.status == "ok" and r.front == 1 then
      t[#t + 1] = { error = r.env, force_evals = r.force_evals, seconds = r.seconds, x = r.x, x2 = r.x2 }
    end
  end
  return t
end

--- The work (force evaluations) method needs at stiffness index si for error e: the value and
-- `bound` (experiment.cost_at), or nil when it never gets there.
function A.work_at(rows, si, method, e, key)
  return E.cost_at(A.curve(rows, si, method), e, key or "force_evals")
end

--- The smallest error a method reached at si (nil if none).
function A.best_error(rows, si, method)
  local b
  for _, r in ipairs(rows) do
    if r.si == si and r.method == method and r.status == "ok" and (not b or r.error < b) then b = r.error end
  end
  return b
end

--- The methods ranked by the work to reach e at si: list of {method, family, work, bound}
-- (cheapest first; ties by name); those that never reach e are left out.
function A.ranking(rows, si, e, methods, key)
  local t = {}
  for _, m in ipairs(methods) do
    local w, b = A.work_at(rows, si, m.name, e, key)
    if w then t[#t + 1] = { method = m.name, family = m.family, work = w, bound = b } end
  end
  table.sort(t, function(a, b) if a.work ~= b.work then return a.work < b.work end return a.method < b.method end)
  return t
end

--- The least-squares exponent of the work to reach e against the stiffness, for one method,
-- over the stiffness values where it reaches e by interpolation (not a bound); nil with fewer
-- than two. Also returns the list of {stiffness, work}.
function A.work_exponent(rows, stiffs, method, e, key)
  local xs, ys, pts = {}, {}, {}
  for si, s in ipairs(stiffs) do
    local w, b = A.work_at(rows, si, method, e, key)
    if w and not b then xs[#xs + 1], ys[#ys + 1] = s, w end
    pts[#pts + 1] = { s, w, b }
  end
  if #xs < 2 then return nil, pts end
  return E.slope(xs, ys), pts
end

--- The rates of the stiffness values (what the work is fitted against: omega, 1/eps, the fast
-- frequency), from the problem's stiff.rate (default: the value itself).
function A.rates(prob, P)
  local t = {}
  for i, s in ipairs(P[prob.stiff.key]) do t[i] = (prob.stiff.rate or function(x) return x end)(s) end
  return t
end

--- "1.2e+04" or "≤ 1.2e+04" for a cost and its bound flag; "–" for nil.
function A.cost_str(w, bound)
  if not w then return "–" end
  return (bound and "≤ " or "") .. string.format("%.3g", w)
end

---------------------------------------------------------------------------------------------------
-- Timing (scripts/bench-atlas.lua, scripts/bench-headline.lua): the benchmark rules
---------------------------------------------------------------------------------------------------

local median = Ti.median
A.median = median

--- The envelope of a ladder of runs {error, [key]} (a peer's tolerances): copies ordered by
-- `key` whose error is the largest error of the runs with at least as much `key`, so that a
-- run whose error happens to be small does not count for a target its costlier runs miss.
function A.envelope(pts, key)
  local t = {}
  for i, p in ipairs(pts) do
    local q = {}
    for k, v in pairs(p) do q[k] = v end
    t[i] = q
  end
  table.sort(t, function(a, b) return a[key] < b[key] end)
  local worst = 0
  for i = #t, 1, -1 do
    worst = math.max(worst, t[i].error)
    t[i].error = worst
  end
  return t
end

--- CPU seconds per call of f (os.clock, the process's CPU time): one call, or, when it takes less
-- than `min` seconds (default 2e-3), batches of calls until `min` has passed, the time per call.
-- Returns f's first result (and message) and the seconds.
function A.clock(f, min)
  min = min or 2e-3
  local t0 = os.clock()
  local r, msg = f()
  local dt = os.clock() - t0
  if r == nil or dt >= min then return r, msg, dt end
  local n, t1 = 0, os.clock()
  repeat f(); n = n + 1 until os.clock() - t1 >= min
  return r, msg, (os.clock() - t1) / n
end

--- The runs of `methods` over their ladders on ctx as A.campaign entries (one group per method):
-- each returns A.run_one's row, or nil and a message when the run stopped without a finite
-- error (o.keep_failed: the row itself, status "failed" or "diverged", so that it is written too).
function A.entries(ctx, methods, o)
  o = o or {}
  local t = {}
  for _, m in ipairs(methods) do
    for _, x in ipairs(m.ladder) do
      t[#t + 1] = { group = m.name, run = function()
        local r = A.run_one(ctx, m, x)
        if not r then return nil, nil end
        if r.status ~= "ok" and not o.keep_failed then
          return nil, string.format("%s %s = %s: %s%s", m.name, m.knob, type(x) == "table" and (S.fmt(x[1]) .. "," .. S.fmt(x[2])) or S.fmt(x),
                                    r.status, r.msg and (" (" .. r.msg .. ")") or "")
        end
        return r
      end }
    end
  end
  return t
end

--- Time entries {group, run = function() -> row or nil, message} in one process, interleaved
-- over o.reps repetitions (default 3); each measurement is A.clock's (short runs batched) and the
-- result is the median. A run over o.once seconds (default 0.5) is not repeated; the first run of
-- a group (a method's ladder) over o.budget seconds (default 3) ends that group (its later
-- entries are not run). o.progress(e, rep, measured), when given, is called for every entry in
-- every repetition (#entries x reps calls in all), before it is measured or as it is passed
-- over, so that progress goes on through the repetitions. Returns the rows (each with `seconds`
-- and `times`) in entry order and the messages of the runs that failed.
function A.campaign(entries, o)
  o = o or {}
  local reps, once, budget = o.reps or 3, o.once or 0.5, o.budget or 3
  local res, dead, failed = {}, {}, {}
  for rep = 1, reps do
    for k, e in ipairs(entries) do
      local r = res[k]
      local go = (rep == 1 and not dead[e.group]) or (rep > 1 and r and r.times[1] <= once)
      if o.progress then o.progress(e, rep, go) end
      if go then
        local row, msg, dt = A.clock(e.run)
        if not row then
          if rep == 1 and msg then failed[#failed + 1] = msg end
        else
          if not r then r = row; r.times = {}; res[k] = r end
          r.times[#r.times + 1] = dt
          if rep == 1 and dt > budget then dead[e.group] = true end
        end
      end
    end
  end
  local list = {}
  for k = 1, #entries do
    local r = res[k]
    if r then r.seconds = median(r.times); list[#list + 1] = r end
  end
  return list, failed
end

return A
