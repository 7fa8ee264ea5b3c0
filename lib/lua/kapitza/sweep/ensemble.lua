-- sweep_ensemble.lua -- `sweep.lua ensemble MODEL.lua DIR --over ...` (scripts/sweep.lua): the product
-- grid of the --over lists over a model file's parameters and initial state, run as ONE ensemble
-- call (lib/lua/kapitza/ensemble.lua: ens.user, then ens.run, ens.hmm or ens.sam) instead of one process
-- per point; one TSV row per point. Also the --over lists and their product, which `emit` shares.
--
-- Swept keys: the model's parameters (not a derived one); q0 and v0 for one degree of freedom
-- (y0 for a first-order model of dimension 1); one component of the initial state as q0_<i>,
-- v0_<i> (i = 1..nq) or y0_<i> (i = 1..dim) for more. Each point is the model file loaded with the
-- fixed key=value overrides and the point's (lib/lua/kapitza/modelfile.lua), so a derived parameter,
-- an initial state or an end time that the file computes from the parameters follows the point;
-- every point must end at the same T (one call runs every member to one end time).
-- Methods and their knobs (every other key=value is a model override):
--   method=<stepper>   a direct run with an explicit registry stepper (default rk4): n=steps to T
--                      (h = T/n), or h=step (n = T/h rounded, at least 1; then h = T/n)
--   method=hmm         the atlas's HMM-V (velocity Verlet macro, exact phase, the model's
--                      reconstruction, RK4 micro-steps, a uniform kernel over one fast period):
--                      N macro steps (H = T/N; whole fast periods when T/N is one), n micro-steps
--                      per fast period (h = period/n); the row holds the macro state (Q, P) at T.
--                      Every member shares one fast phase: omega and theta0 cannot be swept.
--   method=sam         SAM with RK4 macro steps (H = T/N) and RK4 micro-steps, n per fast period,
--                      to the state at T; every member has the same fast period.
-- A model run with its Lua functions (--lua, or a file without C source) cannot be vectorised (its
-- functions are FFI callbacks): its points run one by one through the scalar API (kz_run, hmm.run,
-- sam.sam) in this process, said on stderr, into the same file.
-- Observers (lib/lua/kapitza/ensemble.lua's observe, recorded in C inside the call; the ensemble path only):
--   max=q[,v]          a column max_<c> per component: the largest |c| over the checks
--   cross=c:LEVEL[:abs][:down][:stop]   a column cross_<c>: the time of the first check at which c
--                      (|c| with abs) is >= LEVEL (<= with down), nan if none; stop: the point
--                      stops there (status stopped, its state the one at the crossing; direct
--                      runs only)
--   final=NAME[,...]   a column final_<NAME>: the model's invariant NAME at the last state
--   samples=all|c[,..] DIR/data/sweep-<model>-samples.tsv: point, t and the components at every check
--   every=K            the checks: the start and every K-th step (default 1); with method=hmm every
--                      K-th macro node, with method=sam every K-th macro step (SAM then writes
--                      the state at every macro node)
-- plot=NAME may name an observer column (plot=max_q: the stability map of a two-key sweep).
local kz = require "kapitza"
local S = require "kapitza.scenario"
local F = require "kapitza.files"
local MF = require "kapitza.modelfile"
local SF = require "kapitza.sweep.figure"
local EK = require "kapitza.sweep.ensemble_keys"

local M = {}

local function num(x)
  if x ~= x then return "nan" end
  return string.format("%.17g", x)
end
-- the shortest of %.15g .. %.17g that reads back as x (the swept values, T, the knobs)
local function short(x)
  for d = 15, 16 do
    local t = string.format("%." .. d .. "g", x)
    if tonumber(t) == x then return t end
  end
  return num(x)
end

--- A value of key k on the command line: not empty, no control character; die(msg) otherwise.
function M.value_ok(k, v, die)
  if v == "" then die(string.format("key '%s': empty value", k)) end
  if v:find("%c") then die(string.format("key '%s': a control character in the value", k)) end
end

--- The values of `--over key=v1,v2,...` (strings): each M.value_ok, none given twice
-- (numerically, when they are numbers); die(msg) otherwise.
function M.over_values(k, v, die)
  local vals, seen = {}, {}
  for x in (v .. ","):gmatch("([^,]*),") do
    M.value_ok(k, x, die)
    local n = S.number(x)
    local norm = n and ("n" .. num(n)) or ("s" .. x)
    if seen[norm] then die(string.format("--over %s: the value '%s' is given twice (as '%s')", k, x, seen[norm])) end
    seen[norm] = x
    vals[#vals + 1] = x
  end
  return vals
end

--- What emit and ensemble share in reading their arguments: once(k) (a key given twice dies)
-- and over(args, i), the `--over key=v1,v2,...` at args[i], args[i + 1] as { key, values }.
function M.readers(die)
  local given = {}
  local function once(k)
    if given[k] then die(string.format("key '%s' is given twice", k)) end
    given[k] = true
  end
  local function over(args, i)
    local k, v = (args[i + 1] or ""):match("^([%w_]+)=(.*)$")
    if not k then die("--over needs key=v1,v2,... (got '" .. tostring(args[i + 1]) .. "')") end
    once(k)
    return { key = k, values = M.over_values(k, v, die) }
  end
  return once, over
end

--- The product of the --over lists ({ key, values }), the first outermost: a list of points, each
-- the list of its values in --over order.
function M.product(over)
  local points = { {} }
  for _, o in ipairs(over) do
    local nxt = {}
    for _, p in ipairs(points) do
      for _, v in ipairs(o.values) do
        local c = { unpack(p) }
        c[#c + 1] = v
        nxt[#nxt + 1] = c
      end
    end
    points = nxt
  end
  return points
end

local KNOBS = { n = true, h = true, N = true }
local OBS = { max = true, cross = true, final = true, samples = true, every = true }
local METHOD_KNOBS = { hmm = { N = true, n = true }, sam = { N = true, n = true } }
local function knobs_of(method) return METHOD_KNOBS[method] or { n = true, h = true } end
local function knob_list(method) return METHOD_KNOBS[method] and "N and n" or "n or h" end

local key_kind, state_keys = EK.kind, EK.state_keys

-- The command line: { model, dir, over, fixed (model key=value), comps (fixed components),
-- method, knobs, lua, threads }.
local function parse(args, die)
  local usage = "usage: sweep.lua ensemble MODEL.lua DIR --over key=v1,v2 ... [method=NAME] [knobs] [observers] [plot=NAME|none] [key=value ...] [--lua] [--threads N] [--force]"
  local path, dir = args[1], args[2]
  if not path or not dir or path:match("^%-") or dir:match("^%-") or path:match("=") or dir:match("=") then die(usage) end
  local chk, why = F.check_out(dir, "DIR")
  if not chk then die(why) end
  local c = { path = path, dir = dir, over = {}, fixed = {}, knobs = {}, lua = false, obs = {} }
  local once, over = M.readers(die)
  local i = 3
  while args[i] do
    local a = args[i]
    if a == "--over" then
      c.over[#c.over + 1] = over(args, i)
      i = i + 2
    elseif a == "--lua" then
      if c.lua then die("--lua is given twice") end
      c.lua, i = true, i + 1
    elseif a == "--force" then
      if c.force then die("--force is given twice") end
      c.force, i = true, i + 1
    elseif a == "--shards" or a == "--part" or a == "--max-array" then -- (lib/lua/kapitza/sweep/ensemble_shards.lua)
      local f = a:sub(3):gsub("%-", "_")
      if c[f] then die(a .. " is given twice") end
      if a == "--part" then c.part, c.nparts = require("kapitza.sweep.ensemble_shards").part_arg(args[i + 1], die)
      elseif a == "--max-array" then c.max_array = require("kapitza.sweep.emit").max_array_arg(args, i, die)
      else
        c.shards = args[i + 1] and args[i + 1]:match("^%d+$") and tonumber(args[i + 1])
        if not c.shards or c.shards < 1 or c.shards > 1e7 then die("--shards needs a whole number in 1..1e7") end
      end
      i = i + 2
    elseif a == "--threads" then
      local t = args[i + 1] and args[i + 1]:match("^%d+$") and tonumber(args[i + 1])
      if not t or t < 1 or t > 256 then die("--threads needs a whole number in 1..256") end
      if c.threads then die("--threads is given twice") end
      c.threads, i = t, i + 2
    elseif a:match("^[%a_][%w_]*=") then
      local k, v = a:match("^([%a_][%w_]*)=(.*)$")
      once(k)
      M.value_ok(k, v, die)
      if k == "method" then c.method = v
      elseif k == "plot" then c.plot = v
      elseif KNOBS[k] then c.knobs[k] = v
      elseif OBS[k] then c.obs[k] = v
      else c.fixed[#c.fixed + 1] = { key = k, value = v } end
      i = i + 1
    else
      die("unknown argument '" .. a .. "' (" .. usage .. ")")
    end
  end
  if #c.over == 0 then die("nothing to sweep: give at least one --over key=v1,v2,...") end
  if c.shards and c.part then die("--shards writes the commands of a sweep in shards; --part runs one of them: give one") end
  if c.max_array and not c.shards then die("--max-array goes with --shards (the cluster's MaxArraySize for its job arrays)") end
  c.method = c.method or "rk4"
  if not METHOD_KNOBS[c.method] then
    local T, ok = kz.steppers[c.method], {}
    for _, name in ipairs(kz.steppers.names) do
      local n = kz.steppers[name].needs
      if n == kz.C.KZ_NEEDS_RHS or n == kz.C.KZ_NEEDS_ACCEL then ok[#ok + 1] = name end
    end
    if not T or c.method == "names" or not (T.needs == kz.C.KZ_NEEDS_RHS or T.needs == kz.C.KZ_NEEDS_ACCEL) then
      die(string.format("method '%s': an ensemble runs hmm, sam or an explicit stepper on the force alone (%s)",
                        c.method, table.concat(ok, ", ")))
    end
    c.accel_only = T.needs == kz.C.KZ_NEEDS_ACCEL
  end
  local mine = knobs_of(c.method)
  for k in pairs(c.knobs) do
    if not mine[k] then die(string.format("method %s has no knob '%s' (its knobs: %s)", c.method, k, knob_list(c.method))) end
  end
  for _, o in ipairs(c.over) do
    if o.key == "plot" then die("'plot' chooses the component the figure shows: give one plot=NAME, not a list") end
    if o.key == "method" or KNOBS[o.key] or OBS[o.key] then
      die(string.format("'%s' cannot be swept: one ensemble call runs one method configuration (sweep the model's keys)", o.key))
    end
    if o.key == "T" then
      die("T cannot be swept in one ensemble call (every member runs to the same end time): give T=... fixed, one sweep per T")
    end
  end
  return c
end

-- The knobs as numbers: whole numbers >= 1 (n, N) or a step > 0 (h).
local function knob_values(c, T, die)
  local x = {}
  for k, v in pairs(c.knobs) do
    local n = S.number(v)
    if not n or not (n > 0) or n == math.huge then die(string.format("%s: '%s' is not a number > 0", k, v)) end
    if k ~= "h" and n ~= math.floor(n) then die(string.format("%s: '%s' is not a whole number", k, v)) end
    x[k] = n
  end
  if METHOD_KNOBS[c.method] then
    for _, k in ipairs { "N", "n" } do
      if not x[k] then die(string.format("method %s needs %s=... (its knobs: N macro steps to T, n micro-steps per fast period)", c.method, k)) end
    end
  else
    if x.n and x.h then die("give n=steps or h=step, not both") end
    if not x.n and not x.h then die(string.format("method %s needs n=steps to T or h=step", c.method)) end
    if x.h then x.n = math.max(1, math.floor(T / x.h + 0.5)) end
    x.h = T / x.n
  end
  return x
end

-- Every point loaded as a model file: { mf, y0 } per point, the kinds of the swept keys.
local function load_points(c, points, die, first)
  local okspec, spec = pcall(MF.spec, c.path)
  if not okspec then die(spec) end
  if type(spec.params) ~= "table" then die("model " .. c.path .. ": params must list the parameter names") end
  if not (type(spec.name) == "string" and spec.name:match("^[%w][%w%._%-]*$")) then
    die(string.format("the model's name '%s' is not usable in a file name", tostring(spec.name)))
  end
  for _, p in ipairs(spec.params) do
    if KNOBS[p] or OBS[p] or p == "method" or p == "plot" then
      die(string.format("the model's parameter '%s' has the name of one of this command's keys; rename it", p))
    end
  end
  local nq = type(spec.nq) == "number" and spec.nq or 0
  local dim = nq > 0 and 2 * nq or spec.dim
  if type(dim) ~= "number" then
    die("model " .. c.path .. ": sweeps need nq or dim (a vmi model does not form an ensemble): run its points one at a " ..
        "time, kapitza solve " .. c.path .. " method=VMI-MM N=... p=... key=value")
  end
  local kinds = {}
  local function classify(k)
    local kind, why = key_kind(spec, nq, dim, k)
    if not kind then
      die(why or string.format("unknown key '%s' (the model '%s' sweeps %s, %s)", k, spec.name,
                               table.concat(spec.params, ", "), state_keys(nq, dim)))
    end
    return kind, why
  end
  for _, o in ipairs(c.over) do
    o.kind, o.comp = classify(o.key)
    for _, v in ipairs(o.values) do
      if not S.number(v) then die(string.format("--over %s: cannot read '%s' as a number", o.key, v)) end
    end
  end
  local comps = {}
  local base = {}
  for _, f in ipairs(c.fixed) do
    local kind, comp = key_kind(spec, nq, dim, f.key)
    if kind == "comp" then
      local x = S.number(f.value)
      if not x or x ~= x or math.abs(x) == math.huge then die(string.format("%s: cannot read '%s' as a number", f.key, f.value)) end
      comps[#comps + 1] = { comp, x }
    else
      base[#base + 1] = f.key .. "=" .. f.value -- (the model file judges it)
    end
  end
  EK.check_aliases(c, spec, nq, dim, die)
  local how = c.lua and "lua" or (spec.c == nil and "lua" or "c")
  local out = {}
  for n, p in ipairs(points) do
    local ov = { unpack(base) }
    local cs = { unpack(comps) }
    for j, v in ipairs(p) do
      local o = c.over[j]
      if o.kind == "comp" then cs[#cs + 1] = { o.comp, S.number(v) } else ov[#ov + 1] = o.key .. "=" .. v end
    end
    -- the C path builds the first point's model (trial calls included) and reads the data of the
    -- others without building one (usermodel.data: 0.56 -> under 0.1 ms a point); the Lua path
    -- runs every point's own model
    local lo = { how = how }
    if n > 1 and how ~= "lua" then lo.build = false end
    local ok, mf = pcall(MF.load, c.path, ov, lo)
    if not ok then
      local what = {}
      for j, v in ipairs(p) do what[j] = c.over[j].key .. "=" .. v end
      die(string.format("point %d (%s): %s", n, table.concat(what, " "), tostring(mf)))
    end
    local y0 = { unpack(mf.y0) }
    for _, x in ipairs(cs) do
      if x[2] ~= x[2] or math.abs(x[2]) == math.huge then die("an initial state component is not finite") end
      y0[x[1]] = x[2]
    end
    -- the first point keeps its model; the others only what the runs read (values, T, period),
    -- unless they run their own models (the Lua path)
    if n == 1 or how == "lua" then out[n] = { mf = mf, y0 = y0 }
    else out[n] = { mf = { values = mf.values, T = mf.T, period = mf.period }, y0 = y0 } end
    if n == 1 and first then first(mf, nq, dim) end
    if out[1].mf.T ~= mf.T then
      die(string.format("the end time T differs between points (%s, %s: the model computes it from the swept keys): give T=... fixed",
                        num(out[1].mf.T), num(mf.T)))
    end
  end
  return out, spec, nq, dim, how
end

-- The column names of the final state.
local function state_names(nq, dim)
  local t = {}
  if nq == 1 then return { "q", "v" } end
  if nq > 1 then
    for i = 1, nq do t[i], t[nq + i] = "q" .. i, "v" .. i end
    return t
  end
  for i = 1, dim do t[i] = "y" .. i end
  return t
end

local ER = require "kapitza.sweep.ensemble_run"
local observers, run_ensemble, run_scalar = ER.observers, ER.run_ensemble, ER.run_scalar

-- The shared period of the points for the HMM and SAM.
local function shared_period(c, pts, die)
  local P = pts[1].mf.period
  if not P then die(string.format("method=%s needs the model's fast period (a parameter omega, or the spec's period)", c.method)) end
  for _, p in ipairs(pts) do
    if p.mf.period ~= P then
      die(string.format("method=%s: the fast period differs between points (%s, %s): every member of one call shares it",
                        c.method, num(P), num(p.mf.period)))
    end
  end
  return P
end

--- `sweep.lua ensemble MODEL.lua DIR --over ...` with args = the words after `ensemble`; die(msg)
-- says one line and exits 2. Writes DIR/data/sweep-<model>.tsv; returns its path.
--- The largest grid of one call: the points' data stay in memory (about 1 kB each).
M.max_points = 1e6

-- Force evaluations of one member: a stepper's evaluations per step times n; the HMM-V two force
-- estimates per macro step, each n RK4 micro-steps over one fast period; SAM four field
-- evaluations per RK4 macro step, each two micro-integrations of n RK4 steps (forward, backward).
local function member_work(c, x)
  if c.method == "hmm" then return 8 * x.n * x.N end
  if c.method == "sam" then return 32 * x.n * x.N end
  local T = kz.steppers[c.method]
  return x.n * tonumber(T.evals) + (tonumber(T.fsal) ~= 0 and 1 or 0)
end

-- Refuse (one line, exit 2, before anything runs) a grid beyond M.max_points, and, with the
-- knobs read, a run beyond the work limit (KZ_MAX_WORK, scenario.lua's default) unless --force:
-- every member's evaluations plus the reading of every point's data (about 40 us, counted as
-- 2000 evaluations).
local function work_limit(die)
  local limit, err = S.work_limit()
  if not limit then die(err) end
  return limit
end

function M.main(args, die, abs, root, join)
  local c = parse(args, die)
  local ES = require "kapitza.sweep.ensemble_shards"
  local count = 1
  for _, o in ipairs(c.over) do count = count * #o.values end
  -- the points this call runs: all, one shard's (--part), or only the first (--shards, the join:
  -- nothing runs, the first point's model file is read for what the checks and the header need)
  local first, last = 1, count
  if c.part then first, last = ES.part(count, c.nparts, c.part) end
  if c.shards or join then last = 1 end
  local per = c.shards and math.ceil(count / c.shards) or (last - first + 1)
  if per > M.max_points and not join then
    die(string.format("the grid has %.4g points (at most %.4g in one call, about 1 kB each in memory): give --shards %d " ..
                      "(or more) to write it as commands for a cluster or GNU parallel, merged into one file",
                      count, M.max_points, math.ceil(count / M.max_points)))
  end
  local limit = work_limit(die)
  local points = ES.points(c.over, first, last)
  c.first = first
  local x
  local pts, spec, nq, dim, how = load_points(c, points, die, function(mf, nq1, dim1)
    local plotnames = { unpack(state_names(nq1, dim1)) }
    if c.obs.max then for x in (c.obs.max .. ","):gmatch("([^,]*),") do plotnames[#plotnames + 1] = "max_" .. x end end
    if c.obs.cross then plotnames[#plotnames + 1] = "cross_" .. c.obs.cross:match("^([^:]*)") end
    if c.obs.final then for x in (c.obs.final .. ","):gmatch("([^,]*),") do plotnames[#plotnames + 1] = "final_" .. x end end
    SF.check(c.plot, plotnames, die)
    x = knob_values(c, mf.T, die)
    local w = per * (member_work(c, x) + 2000)
    if not (w <= limit) and not c.force then
      die(string.format("the sweep would take about %.2g force evaluations (%d points x %.3g each; limit %.2g, KZ_MAX_WORK; " ..
                        "about %.2g min at 2 ns each vectorised, %.2g min at 20 ns scalar): reduce the grid or the knobs, %sor pass --force",
                        w, per, member_work(c, x), limit, w * 2e-9 / 60, w * 20e-9 / 60, c.shards and "give more --shards, " or ""))
    end
  end)
  local T = pts[1].mf.T
  if c.accel_only and nq == 0 then die(string.format("method %s needs the second-order form (nq, accel); the model is first-order", c.method)) end
  -- what the model's parts allow (lib/lua/kapitza/capability.lua): e.g. an unconstrained stepper on a
  -- model with constraints would drop the constraint forces
  local okc, why = require("kapitza.capability").check(pts[1].mf.model, c.method)
  if not okc then
    if why:find("the model has constraints", 1, true) then -- no constrained method runs as an ensemble: say what does
      why = "the model has constraints, and an ensemble runs only methods without them (hmm, sam, the explicit steppers): " ..
            "run its points one at a time, kapitza solve " .. c.path .. " method=rattle n=... key=value (or SAM-herk3/herk3)"
    end
    die(string.format("method %s on model %s: %s", c.method, spec.name, why))
  end
  if c.method == "hmm" then
    local vib = pts[1].mf.model.vib
    if not vib or nq == 0 then die("method=hmm needs a fast-forced model in second-order form (a parameter omega, nq, accel)") end
    for _, o in ipairs(c.over) do
      if o.key == "omega" or o.key == "theta0" then
        die(string.format("method=hmm: '%s' cannot be swept: every member of one call shares the fast phase omega t + theta0", o.key))
      end
    end
  end
  if c.method == "hmm" or c.method == "sam" then x.period = shared_period(c, pts, die) end
  -- observers run in C inside the call: their columns (named from the command line alone, the
  -- same for one call, each shard and their join) come before the status
  local snames = state_names(nq, dim)
  if next(c.obs) ~= nil and how ~= "c" then
    die("observers (max, cross, final, samples, every) run in C inside the ensemble call: the model needs its C source (and no --lua)")
  end
  if c.obs.samples and (c.shards or c.part or join) then
    die("samples= writes every point's checks beside the call's table and is not joined across shards: sample in one call, " ..
        "or give max=, cross= or final= (one column per point) with --shards")
  end
  local _, ocols = observers(c, snames, "unchecked", die) -- (the invariants are checked with the model, in the call)
  if c.shards then return ES.emit(root, c, args, count, spec.name, die, abs) end
  local threads = c.threads or require("kapitza.sweep.pool").cores()
  local t0 = require("kapitza.timing").now()
  local kv = {}
  for _, k in ipairs { "N", "n", "h" } do if x[k] then kv[#kv + 1] = k .. "=" .. short(x[k]) end end
  -- the table's header (the same for one call, each of its shards, and their join)
  local L = {}
  local fixed = {}
  for _, f in ipairs(c.fixed) do fixed[#fixed + 1] = f.key .. "=" .. f.value end
  local grid = {}
  for _, o in ipairs(c.over) do grid[#grid + 1] = string.format("%s (%d)", o.key, #o.values) end
  L[1] = string.format("# sweep ensemble: model %s (%s), T = %s%s", spec.name, c.path, short(T),
                       #fixed > 0 and (", fixed " .. table.concat(fixed, " ")) or "")
  L[2] = string.format("# method %s, %s%s; %d points: %s, the first outermost", c.method, table.concat(kv, " "),
                       c.method == "hmm" and " (HMM-V: velocity Verlet macro, RK4 micro, uniform kernel over one fast period; the macro state at T)"
                         or c.method == "sam" and " (SAM: RK4 macro and micro steps)" or "", count, table.concat(grid, " x "))
  L[4] = "# status: ok, failed:start (initial state not finite or beyond 1e100), failed:bound (left that range: state nan), " ..
         "failed:crash (its model code crashed the process), stopped (by cross=...:stop: the state where it crossed); " ..
         "evaluations: force evaluations per member (of the points that ran to T)"
  if #ocols > 0 then
    local what = {}
    for k, v in pairs(c.obs) do what[#what + 1] = k .. "=" .. v end
    table.sort(what)
    L[4] = L[4] .. "; observers, checked in the call at the start and every " .. (c.obs.every or "1") .. " " ..
           (c.method == "hmm" and "macro node(s)" or c.method == "sam" and "macro step(s)" or "step(s)") .. ": " ..
           table.concat(what, " ") .. " (max_c: the largest |c|, cross_c: the time of the first check beyond the level, nan: none; " ..
           "final_I: the invariant I at the last state)"
  end
  local head = {}
  for _, o in ipairs(c.over) do head[#head + 1] = o.key end
  for _, sn in ipairs(snames) do head[#head + 1] = sn end
  for _, oc in ipairs(ocols) do head[#head + 1] = oc.name end
  head[#head + 1], head[#head + 2] = "status", "evaluations"
  L[5] = table.concat(head, "\t")
  local path = abs(c.dir) .. "/data/sweep-" .. spec.name .. ".tsv"
  local what = string.format("%s, %s %s, T = %.4g", spec.name, c.method, table.concat(kv, " "), T)
  if join then -- merge: the shards' rows under this header, then the figure
    return ES.join_call(c, join, L, count, path, function(status) return SF.draw(c, spec, snames, status, what, abs(c.dir)) end,
                        function(v) return short(S.number(v)) end, die)
  end
  local rows, status, evals, width, samples
  if how == "c" then
    -- in a child process, halved down to the points whose model code crashes it (kapitza.sweep.isolate)
    rows, status, evals, width, samples = require("kapitza.sweep.isolate").ensemble(c, pts, points, first, dim + #ocols, function(sub)
      return run_ensemble(c, sub, spec, nq, dim, x, threads, die, snames)
    end)
    io.stderr:write(string.format("sweep: one ensemble call, %d members, method %s (%s), vector width %d, %d thread%s\n", #pts,
                                  c.method, table.concat(kv, " "), width, threads, threads == 1 and "" or "s"))
  else
    io.stderr:write(string.format("sweep: the model runs its Lua functions (%s), which do not vectorise: its %d points run one by one through the scalar API\n",
                                  c.lua and "--lua" or "no C source", #pts))
    rows, status, evals = run_scalar(c, pts, nq, dim, x, die)
  end
  local secs = require("kapitza.timing").now() - t0
  L[3] = how == "c" and string.format("# one ensemble call: vector width %d doubles, %d thread%s", width, threads, threads == 1 and "" or "s")
           or "# member by member (the model's Lua functions do not vectorise): vector width 1, 1 thread"
  local nbad = 0
  for m, p in ipairs(points) do
    local r = {}
    for j, v in ipairs(p) do r[j] = short(S.number(v)) end
    for i = 1, dim + #ocols do r[#r + 1] = num(rows[m][i]) end
    r[#r + 1], r[#r + 2] = status[m], tostring(evals[m])
    if status[m] ~= "ok" and status[m] ~= "stopped" then nbad = nbad + 1 end
    L[#L + 1] = table.concat(r, "\t")
  end
  local ok, err = F.write_atomic(path, table.concat(L, "\n") .. "\n")
  if not ok then die(err) end
  if samples then -- (one call only: refused with shards above)
    local SL = { string.format("# sweep ensemble samples: model %s, method %s; point: its row in sweep-%s.tsv (1 = the first); t: the check's time",
                               spec.name, c.method, spec.name) }
    local hd = { "point", "t" }
    for _, n in ipairs(samples.names) do hd[#hd + 1] = n end
    SL[2] = table.concat(hd, "\t")
    for m = 1, #points do
      local pm = samples.points[m] -- nil for a point whose model code crashed
      for j, t in ipairs(samples.t) do
        local r = { tostring(m), num(t) }
        for k = 1, #samples.names do r[#r + 1] = num(pm and pm[j][k] or 0 / 0) end
        SL[#SL + 1] = table.concat(r, "\t")
      end
    end
    local okS, errS = F.write_atomic(abs(c.dir) .. "/data/sweep-" .. spec.name .. "-samples.tsv", table.concat(SL, "\n") .. "\n")
    if not okS then die(errS) end
  end
  -- the figure after the data (which stay written if gnuplot fails: exit 1, one line); none for
  -- a shard (--part): merge draws it from the joined file
  local fig = not c.part and SF.draw(c, spec, snames, status, what, abs(c.dir))
  io.stderr:write(string.format("sweep: %d points in %.3g s (%d failed): wrote %s%s\n", #pts, secs, nbad, path,
                                fig and (" and " .. fig) or ""))
  return path
end

return M
