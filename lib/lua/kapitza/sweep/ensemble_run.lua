-- ensemble_run.lua -- the runs of an ensemble sweep (lib/lua/kapitza/sweep/ensemble.lua): the one
-- ensemble call over the points, with the observers of the command line recorded inside it
-- (lib/lua/kapitza/ensemble.lua's observe), or, for a model run with its Lua functions, the points
-- one by one through the scalar API.
local kz = require "kapitza"
local S = require "kapitza.scenario"

local M = {}

local BOUND = 1e100 -- kz_ens's default bound on |state| and |force|
local STATUS = { [0] = "ok", [1] = "failed:start", [2] = "failed:bound", [3] = "stopped" }

-- The observers of the command line (c.obs: strings) for a model with these state columns and
-- invariants: the observe table of ens.run/hmm/sam, the extra columns ({ name, kind, key }) and
-- the sampled components (or nil); die(msg) on a bad value.
local function observers(c, names, invariants, die)
  local o = c.obs
  if next(o) == nil then return nil, {}, nil end
  local known = {}
  for _, n in ipairs(names) do known[n] = true end
  local function comp(x, key)
    if not known[x] then die(string.format("%s: '%s' is not a state column (%s)", key, x, table.concat(names, ", "))) end
    return x
  end
  local function list(v, key)
    local t = {}
    for x in (v .. ","):gmatch("([^,]*),") do
      if x == "" then die(key .. ": an empty name in the list") end
      t[#t + 1] = x
    end
    return t
  end
  local ob, cols = {}, {}
  if o.every then
    local k = S.number(o.every)
    if not k or k < 1 or k ~= math.floor(k) or k > 2 ^ 53 then die(string.format("every: '%s' is not a whole number >= 1", o.every)) end
    ob.every = k
  end
  if o.max then
    ob.max = {}
    for _, x in ipairs(list(o.max, "max")) do
      ob.max[#ob.max + 1] = comp(x, "max")
      cols[#cols + 1] = { name = "max_" .. x, kind = "max", key = x }
    end
  end
  if o.cross then
    local parts = list((o.cross:gsub(":", ",")), "cross")
    local x = { comp(parts[1], "cross") }
    x.level = S.number(parts[2] or "")
    if not x.level or x.level ~= x.level or math.abs(x.level) == math.huge then
      die("cross: give cross=COMP:LEVEL[:abs][:down][:stop] with a finite LEVEL")
    end
    for i = 3, #parts do
      local f = parts[i]
      if f == "abs" then x.abs = true elseif f == "down" then x.dir = "down" elseif f == "stop" then x.stop = true
      else die(string.format("cross: unknown flag '%s' (abs, down, stop)", f)) end
    end
    if x.stop and (c.method == "hmm" or c.method == "sam") then die("cross: stop is for a direct run (method=<stepper>), not " .. c.method) end
    ob.cross = x
    cols[#cols + 1] = { name = "cross_" .. parts[1], kind = "cross", key = parts[1] }
  end
  if o.final then
    ob.final = {}
    for _, x in ipairs(list(o.final, "final")) do
      if invariants ~= "unchecked" and not (invariants and invariants[x]) then
        local have = {}
        for k in pairs(invariants or {}) do have[#have + 1] = k end
        table.sort(have)
        die(string.format("final: the model has no invariant '%s' (%s)", x, #have > 0 and table.concat(have, ", ") or "it gives none: c.invariants"))
      end
      ob.final[#ob.final + 1] = x
      cols[#cols + 1] = { name = "final_" .. x, kind = "final", key = x }
    end
  end
  local sampled
  if o.samples then
    sampled = {}
    if o.samples == "all" then for i, n in ipairs(names) do sampled[i] = n end
    else for _, x in ipairs(list(o.samples, "samples")) do sampled[#sampled + 1] = comp(x, "samples") end end
    ob.sample = sampled
  end
  if not (ob.max or ob.cross or ob.final or ob.sample) then die("every= alone observes nothing: give max=, cross=, final= or samples=") end
  return ob, cols, sampled
end

-- The ensemble path: one call. Returns rows of final states (lists), statuses, evaluations, width.
local function run_ensemble(c, pts, spec, nq, dim, x, threads, die, names)
  local ens = require "kapitza.ensemble"
  local Mn = #pts
  local derived = type(spec.derived) == "table" and spec.derived or {}
  local values = {}
  for _, p in ipairs(spec.params) do
    if derived[p] == nil and pts[1].mf.values[p] ~= nil then
      local col, same = {}, true
      for m, pt in ipairs(pts) do
        col[m] = pt.mf.values[p]
        same = same and col[m] == col[1]
      end
      values[p] = same and col[1] or col
    end
  end
  local ok, e = pcall(ens.user, spec, values, Mn) -- (Mn: also when only the initial states differ)
  if not ok then die((tostring(e):gsub("^[^:\n]*%.lua:%d+: ", ""))) end
  -- the initial states, component by component: a number when shared, else a list over members
  local comp = {}
  for i = 1, dim do
    local col, same = {}, true
    for m, pt in ipairs(pts) do
      col[m] = pt.y0[i]
      same = same and col[m] == col[1]
    end
    comp[i] = same and col[1] or col
  end
  local init = {}
  if nq == 1 then init.q0, init.v0 = comp[1], comp[2]
  elseif nq > 1 then
    init.q0, init.v0 = {}, {}
    for i = 1, nq do init.q0[i], init.v0[i] = comp[i], comp[nq + i] end
  else init.y0 = comp end
  local T = pts[1].mf.T
  local observe, ocols, sampled = observers(c, names, e.invariants, die)
  local cols, failed, counts, ob
  local okr, err = pcall(function()
    if c.method == "hmm" then
      if not e.phase then
        error("method=hmm needs one fast phase shared by every member (a fast-forced model, and omega and theta0 not swept)", 0)
      end
      local period = x.period
      local o = { preset = "ste", macro = "V", micro = "rk4", kernel = "uniform", eta = period, h = period / x.n,
                  H = T / x.N, T = T, Q0 = init.q0, P0 = init.v0, threads = threads, observe = observe }
      local Q, P
      Q, P, failed, counts, ob = ens.hmm(e, o)
      cols = nq == 1 and { Q[#Q], P[#P] } or Q[#Q]
    elseif c.method == "sam" then
      local period = x.period
      local ys
      -- with observers, the state at every macro node (the same fixed steps: the state at T is the same)
      local tout = { T }
      if observe then for k = 1, x.N do tout[k] = k < x.N and k * (T / x.N) or T end end
      ys, failed, counts, ob = ens.sam(e, { micro = "rk4", macro = "rk4", n = x.n, period = period, H = T / x.N,
                                            tout = tout, q0 = init.q0, v0 = init.v0, y0 = init.y0, threads = threads,
                                            observe = observe })
      cols = ys[#ys]
    else
      local a, b
      a, b, failed, counts, ob = ens.run(e, { stepper = c.method, h = x.h, n = x.n, q0 = init.q0, v0 = init.v0,
                                              y0 = init.y0, threads = threads, observe = observe })
      cols = nq == 1 and { a, b } or a
    end
  end)
  if not okr then die((tostring(err):gsub("^[^:\n]*%.lua:%d+: ", ""))) end
  local rows, status, evals = {}, {}, {}
  for m = 1, Mn do
    local r = {}
    for i = 1, dim do r[i] = cols[i][m] end
    for j, oc in ipairs(ocols) do r[dim + j] = ob[oc.kind][oc.key][m] end
    rows[m], status[m], evals[m] = r, STATUS[failed[m]] or ("failed:" .. tostring(failed[m])), counts.force_evals
  end
  -- the samples per point (so that kapitza.sweep.isolate carries them with its rows): samples[m][j][k]
  -- is component sampled[k] of member m at check j
  local samples
  if sampled then
    samples = { names = sampled, t = ob.sample.t, points = {} }
    for m = 1, Mn do
      local pm = {}
      for j = 1, #ob.sample.t do
        local v = {}
        for k, n in ipairs(sampled) do v[k] = ob.sample[n][j][m] end
        pm[j] = v
      end
      samples.points[m] = pm
    end
  end
  return rows, status, evals, e.width, samples
end

-- The scalar path (Lua functions): every point its own run of the scalar API, in point order.
local function run_scalar(c, pts, nq, dim, x, die)
  local hmm, sam = require "kapitza.hmm", require "kapitza.sam"
  local period = x.period
  local rows, status, evals = {}, {}, {}
  for m, pt in ipairs(pts) do
    local mf, y0, T = pt.mf, pt.y0, pt.mf.T
    kz.last_failure = nil
    local ok, y, cnt = pcall(function()
      if c.method == "hmm" then
        local Q, P, cn = hmm.run(mf.model, { preset = "ste", macro = "V", micro = "rk4", kernel = "uniform", eta = period,
                                             h = period / x.n, H = T / x.N, T = T, Y0 = y0, check_micro = false })
        local q, p = Q[#Q], P[#P]
        if nq == 1 then return { q, p }, cn end
        local r = {}
        for i = 1, nq do r[i], r[nq + i] = q[i], p[i] end
        return r, cn
      elseif c.method == "sam" then
        local ys, cn = sam.sam(sam.micro(mf.model, "rk4"), { n = x.n, period = period, y0 = y0, tout = { T },
                                                             macro = "rk4", H = T / x.N })
        return ys[1], cn
      end
      return kz.run(mf.model.sys, c.method, 0, x.h, x.n, y0)
    end)
    local start = true
    for i = 1, dim do start = start and math.abs(y0[i]) <= BOUND end
    if ok then
      -- the ensemble's statuses: a state beyond its bound (or not finite) at the start or the end
      local fine = true
      for i = 1, dim do fine = fine and math.abs(y[i]) <= BOUND end
      if not (fine and start) then
        y = {}
        for i = 1, dim do y[i] = 0 / 0 end
      end
      rows[m], status[m], evals[m] = y, not start and "failed:start" or fine and "ok" or "failed:bound", cnt.force_evals
    else
      -- a run that left the finite range is this point's failure (as an ensemble member's); any
      -- other (a grid that does not divide, a model function's error) stops the sweep
      local lf = kz.last_failure
      local code = lf and lf.status
      if not (code == kz.C.KZ_ENONFINITE or code == kz.C.KZ_EDIVERGED) then
        die(string.format("point %d: %s", m, (tostring(y):gsub("^[^:\n]*%.lua:%d+: ", ""))))
      end
      local r = {}
      for i = 1, dim do r[i] = 0 / 0 end
      rows[m], status[m], evals[m] = r, "failed:bound", cnt and cnt.force_evals or 0
    end
    if m % 50 == 0 or m == #pts then io.stderr:write(string.format("sweep: %d of %d points\n", m, #pts)) end
  end
  return rows, status, evals
end

M.observers, M.run_ensemble, M.run_scalar = observers, run_ensemble, run_scalar

return M
