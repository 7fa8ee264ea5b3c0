-- cli_atlas.lua -- `kapitza atlas MODEL.lua --out DIR`: the efficiency atlas of a model file
-- (lib/lua/kapitza/cli.lua). The run is lib/lua/kapitza/atlas/run.lua's: for a papers' model file that
-- names its problem (lib/models/<name>.lua, `atlas = "<problem>"`) the paper's atlas, exactly what
-- scenarios/atlas-<problem>.lua writes (its keys, its claims); for any other model file the
-- generic atlas (lib/lua/kapitza/atlas/user.lua), whose arguments are read here.
local U = require "kapitza.cli.common"
local out, die, help_wanted, split_args, take, load_model = U.out, U.die, U.help_wanted, U.split_args, U.take, U.load_model

return function(argv)
  local path = argv[2]
  local R = require "kapitza.atlas.run"
  local note -- why a model file's `atlas` field is not honoured (said once its arguments are accepted)
  if path and not path:match("^%-") and not path:match("=") then
    local okk, key, why = pcall(R.curated_key, path)
    if not okk then die("atlas", key) end
    if key then -- the paper's atlas: the scenario's command line (its --help lists its keys)
      local rest, given = {}, {}
      for k = 3, #argv do
        rest[#rest + 1] = argv[k]
        given[argv[k] == "-h" and "--help" or argv[k]:match("^(%-%-[%w]+)") or ""] = true
      end
      if not (given["--out"] or given["--help"] or given["--params"]) then
        die("atlas", "give --out DIR (the paper's atlas of " .. path .. ": kapitza atlas " .. path .. " --help)")
      end
      R.scenario(key, rest, { main = true, command = "kapitza atlas " .. path })
      return
    end
    note = why
  end
  if help_wanted(argv, 2) then out(U.usage.atlas); os.exit(0) end
  if not path or path:match("^%-") or path:match("=") then die("atlas", "give a model file (kapitza atlas --help)") end
  local o = split_args("atlas", argv, 3, { ["--lua"] = true, ["--quick"] = true, ["--force"] = true }, true)
  if not o.out then die("atlas", "give --out DIR") end
  o.kv = U.timeout("atlas", o.kv)
  local own = { tol = true, methods = true, refmax = true, reps = true, budget = true, timeout = true }
  local mine, rest = take("atlas", o.kv, own)
  local S = require "kapitza.scenario"
  local function nums(k, s, whole, lo, hi)
    local t, seen = {}, {}
    for item in (s .. ","):gmatch("([^,]*),") do
      local v = S.number(item)
      if not v then die("atlas", string.format("%s: cannot read '%s' as a number", k, item)) end
      if whole and v ~= math.floor(v) then die("atlas", string.format("%s: '%s' is not a whole number", k, item)) end
      if v < lo or v > hi then die("atlas", string.format("%s: %s is outside [%g, %g]", k, item, lo, hi)) end
      if seen[v] then die("atlas", string.format("%s: the value %s is given twice in the list", k, item)) end
      seen[v] = true
      t[#t + 1] = v
    end
    return t
  end
  -- one number (not a list, whose first value would be taken silently)
  local function num(k, s, whole, lo, hi)
    if s:find(",", 1, true) then die("atlas", string.format("%s: one number, not a list ('%s')", k, s)) end
    return nums(k, s, whole, lo, hi)[1]
  end
  local quick = o.flags["--quick"]
  local tol = mine.tol and nums("tol", mine.tol, false, 1e-14, 1) or nil
  local refmax = mine.refmax and num("refmax", mine.refmax, true, 8, 65536) or (quick and 256 or 1024)
  local reps = mine.reps and num("reps", mine.reps, true, 1, 20) or (quick and 1 or 3)
  local budget = mine.budget and num("budget", mine.budget, false, 0.01, 600) or 3
  -- a comma list for one of the model's parameters (not a derived one): the stiffness sweep, the
  -- atlas at each value (lib/lua/kapitza/atlas/user_sweep.lua); one list at a time, its values
  -- numbers, none repeated. Every value's model is loaded (and so checked) before anything runs.
  local sweep
  local oks, spec = pcall(require("kapitza.modelfile").spec, path)
  if oks and type(spec.params) == "table" then
    local derived, isp = type(spec.derived) == "table" and spec.derived or {}, {}
    for _, p in ipairs(spec.params) do if derived[p] == nil then isp[p] = true end end
    for i, a in ipairs(rest) do
      local k, v = a:match("^([%a_][%w_]*)=(.*)$")
      if k and isp[k] and v:find(",", 1, true) then
        if sweep then die("atlas", string.format("%s and %s are both lists: the sweep runs over one parameter at a time", sweep.key, k)) end
        sweep = { key = k, at = i, values = nums(k, v, false, -math.huge, math.huge), items = {} }
        local seen = {}
        for item in (v .. ","):gmatch("([^,]*),") do
          local x = S.number(item)
          if seen[x] then die("atlas", string.format("%s: the value %s is given twice in the list", k, item)) end
          seen[x] = true
          sweep.items[#sweep.items + 1] = item
        end
      end
    end
  end
  local mfs = {}
  for i, item in ipairs(sweep and sweep.items or { false }) do
    if item then rest[sweep.at] = sweep.key .. "=" .. item end
    mfs[i] = load_model("atlas", path, rest, o.flags["--lua"], own)
  end
  local mf = mfs[1]
  local AU = require "kapitza.atlas.user"
  local AC = require "kapitza.atlas.catalogue"
  local AP = require "kapitza.atlas.problems"
  local F = require "kapitza.files"
  -- refuse to write a model of one's own over the repository's own atlas outputs
  if AP[mf.name] and F.real(o.out) and F.real(o.out) == F.real(require("kapitza").root .. "/paper") then
    die("atlas", string.format("atlas-%s is a built-in atlas of paper/: rename the model or choose another --out", mf.name))
  end
  -- the method names, checked before anything runs (the catalogue's names do not depend on the
  -- reference: a context without one lists them)
  local keep
  if mine.methods then
    keep = {}
    for n in (mine.methods .. ","):gmatch("([^,]*),") do
      if n == "" then die("atlas", "methods: empty name in '" .. mine.methods .. "'") end
      if keep[n] then die("atlas", string.format("methods: %s is given twice in the list", n)) end
      keep[n] = true
    end
    local okc, c0 = pcall(AU.setup, mf, { reference = false })
    if not okc then U.fail("atlas", c0) end
    local have, all = {}, {}
    for _, m in ipairs(AC.catalogue(c0, { quick = quick })) do have[m.name] = true; all[#all + 1] = m.name end
    local names = {}
    for n in pairs(keep) do names[#names + 1] = n end
    table.sort(names)
    for _, n in ipairs(names) do
      if not have[n] then die("atlas", string.format("methods: no method '%s' for this model (it has %s)", n, table.concat(all, ", "))) end
    end
  end
  -- the work, before anything runs: the reference (RK4 with m and 2m steps per fast period, 12 m
  -- evaluations a period) and the direct steppers' ladders (about 1e4 a period) grow like the
  -- number of fast periods T/period; the averaging methods' do not
  local MF, w, Kmax = require "kapitza.modelfile", 0, 0
  for _, m in ipairs(mfs) do
    local period = m.period or MF.estimate_period(m) or m.T / 100
    local okp, K0 = pcall(AU.periods, m.T, period, m.period_source)
    if not okp then die("atlas", K0) end
    local K = math.max(1, K0)
    Kmax = math.max(Kmax, K)
    w = w + K * (12 * (quick and 32 or 64) + 1e4)
  end
  U.check_work("atlas", w, string.format("the reference and the direct steppers, about 1e4 evaluations per fast period; %.3g periods%s",
                                         Kmax, #mfs > 1 and " at the largest value" or ""), o.flags["--force"])
  if note then io.stderr:write("kapitza atlas: note: ", note, "\n") end
  local ro = { out = o.out, quick = quick, tol = tol, refmax = refmax, reps = reps, budget = budget, keep = keep, say = out }
  if sweep then
    ro.key, ro.values = sweep.key, sweep.values
    R.user_sweep(mfs, ro)
  else
    R.user(mf, ro)
  end
end
