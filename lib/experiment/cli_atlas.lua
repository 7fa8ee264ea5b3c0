-- cli_atlas.lua -- `kapitza atlas MODEL.lua --out DIR`: the efficiency atlas of a model file
-- (lib/experiment/cli.lua, lib/experiment/atlas_user.lua).
local U = require "cli_common"
local out, die, help_wanted, split_args, take, load_model = U.out, U.die, U.help_wanted, U.split_args, U.take, U.load_model

return function(argv)
  if help_wanted(argv, 2) then out(U.usage.atlas); os.exit(0) end
  local path = argv[2]
  if not path or path:match("^%-") or path:match("=") then die("atlas", "give a model file (kapitza atlas --help)") end
  local o = split_args("atlas", argv, 3, { ["--lua"] = true, ["--quick"] = true }, true)
  if not o.out then die("atlas", "give --out DIR") end
  local own = { tol = true, methods = true, refmax = true, reps = true, budget = true }
  local mine, rest = take("atlas", o.kv, own)
  local S = require "scenario"
  local function nums(k, s, whole, lo, hi)
    local t = {}
    for item in (s .. ","):gmatch("([^,]*),") do
      local v = S.number(item)
      if not v then die("atlas", string.format("%s: cannot read '%s' as a number", k, item)) end
      if whole and v ~= math.floor(v) then die("atlas", string.format("%s: '%s' is not a whole number", k, item)) end
      if v < lo or v > hi then die("atlas", string.format("%s: %s is outside [%g, %g]", k, item, lo, hi)) end
      t[#t + 1] = v
    end
    return t
  end
  local quick = o.flags["--quick"]
  local tol = mine.tol and nums("tol", mine.tol, false, 1e-14, 1) or nil
  local refmax = mine.refmax and nums("refmax", mine.refmax, true, 8, 65536)[1] or (quick and 256 or 1024)
  local reps = mine.reps and nums("reps", mine.reps, true, 1, 20)[1] or (quick and 1 or 3)
  local budget = mine.budget and nums("budget", mine.budget, false, 0.01, 600)[1] or 3
  local mf = load_model("atlas", path, rest, o.flags["--lua"], own)
  local kz = require "kapitza"
  local AU = require "atlas_user"
  local AC = require "atlas_catalogue"
  local AP = require "atlas_problems"
  -- refuse to write over the repository's own atlas outputs
  local function real(p)
    local h = io.popen("cd '" .. p:gsub("'", "'\\''") .. "' 2>/dev/null && pwd -P")
    local r = h:read("*l")
    h:close()
    return r
  end
  if AP[mf.name] and real(o.out) and real(o.out) == real(kz.root .. "/paper") then
    die("atlas", string.format("atlas-%s is a built-in atlas of paper/: rename the model or choose another --out", mf.name))
  end
  -- the method names, checked before anything runs (the catalogue's names do not depend on the
  -- reference: a context without one lists them)
  local keep
  if mine.methods then
    keep = {}
    for n in (mine.methods .. ","):gmatch("([^,]*),") do
      if n == "" then die("atlas", "methods: empty name in '" .. mine.methods .. "'") end
      keep[n] = true
    end
    local okc, c0 = pcall(AU.setup, mf, { reference = false })
    if not okc then die("atlas", c0, 1) end
    local have, all = {}, {}
    for _, m in ipairs(AC.catalogue(c0, { quick = quick })) do have[m.name] = true; all[#all + 1] = m.name end
    local names = {}
    for n in pairs(keep) do names[#names + 1] = n end
    table.sort(names)
    for _, n in ipairs(names) do
      if not have[n] then die("atlas", string.format("methods: no method '%s' for this model (it has %s)", n, table.concat(all, ", "))) end
    end
  end
  local sc = S.new { id = "atlas-" .. mf.name, title = "kapitza atlas " .. mf.path, params = {} }
  sc.P = { out = o.out }
  sc:open_stage()
  local ok, err = pcall(function()
    sc:progress_start(1, sc.id)
    local ctx = AU.setup(mf, { tol = tol, refm = quick and 32 or 64, refmax = refmax })
    local methods, na = AC.catalogue(ctx, { quick = quick, methods = keep })
    local total = 1
    for _, m in ipairs(methods) do total = total + #m.ladder end
    sc:progress_start(total, sc.id)
    sc:progress(string.format("reference (%d steps per period), tau = %.3g", ctx.refm, ctx.tau))
    local rows = AU.sweep(ctx, methods, { reps = reps, budget = budget, progress = function(w) sc:progress(w) end })
    local best = AU.write(sc, ctx, rows, methods, na)
    sc:commit()
    io.stderr:write(string.format("kapitza atlas: %d runs of %d methods; wrote %s/data/%s.tsv, %s/tables/%s-best.{tsv,md}, %s/figures/%s.svg\n",
                                  #rows, #methods, o.out, sc.id, o.out, sc.id, o.out, sc.id))
    for _, b in ipairs(best) do
      if b.by == "evaluations" then
        out(string.format("tol %-8.3g %s", b.tol, b.params ~= "-" and string.format("%s  (error %.2g, %d evaluations, %.3g s)",
            b.params, b.error, b.evaluations, b.seconds) or "none of the runs reaches it"))
      end
    end
  end)
  if not ok then
    sc:discard()
    die("atlas", err, 1)
  end
end
