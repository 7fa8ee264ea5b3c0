-- sweep_emit.lua -- `sweep.lua emit ID DIR --over ...` (scripts/sweep.lua documents it): every point
-- checked by the scenario's own parser, then one command per point in DIR/commands.txt, the
-- manifest DIR/sweep.txt and the Slurm files DIR/slurm.sh and DIR/submit.sh (kapitza.sweep.batch).
local S = require "kapitza.scenario"
local F = require "kapitza.files"
local SE = require "kapitza.sweep.ensemble"
local MAN = require "kapitza.sweep.manifest"
local B = require "kapitza.sweep.batch"

local M = {}
local q = B.q

local function is_file(p)
  local f = io.open(p, "rb")
  if not f then return false end
  f:close()
  return not F.is_dir(p)
end

-- The scenario file for ID: scenarios/ID.lua of this repository (ID: letters, digits, . _ -), or
-- an existing .lua file at the path ID. Returns its absolute path and the path the commands use.
local function resolve(root, id, abs, die)
  if id:match("^[%w][%w%._%-]*$") and not id:find("..", 1, true) then
    local rel = "scenarios/" .. id .. ".lua"
    if is_file(root .. "/" .. rel) then return root .. "/" .. rel, rel end
  end
  if id:match("%.lua$") and is_file(abs(id)) then return abs(id), abs(id) end
  die(string.format("no scenario '%s' (the id of a file scenarios/<id>.lua, or the path to a .lua scenario file)", id))
end

--- Check one point with the scenario's own parser, in this process and without running anything:
-- the scenario file is loaded (its own chunk name, so that its parse does not start a protected
-- run) and its parse runs on argv; S.open_stage, the first thing parse does after accepting the
-- arguments, is replaced by a function that stops there, os.exit by one that raises, and what the
-- parser writes on stderr is kept. Returns the scenario (its id and parameters), or nil and the
-- parser's one-line message (and true when the file is a model file, not a scenario).
function M.check_point(script, argv)
  local src = F.read(script)
  if not src then return nil, "cannot read " .. script end
  local chunk, lerr = loadstring(src, "=" .. script)
  if not chunk then return nil, tostring(lerr) end
  local said = {}
  local sink = { write = function(self, ...)
    for _, s in ipairs { ... } do said[#said + 1] = tostring(s) end
    return self
  end }
  local saved = { arg = arg, exit = os.exit, stderr = io.stderr, open_stage = S.open_stage, path = package.path }
  -- an --out no one can create: should parse ever go past the arguments another way than
  -- open_stage, it stops there without a file written or anything computed
  argv = { "--out", "/dev/null/kz-sweep-check", unpack(argv) }
  arg = { [0] = script }
  for i, a in ipairs(argv) do arg[i] = a end
  os.exit = function(code) error({ exit = code or 0 }, 0) end
  io.stderr = sink
  S.open_stage = function(self) error({ parsed = self }, 0) end
  local ok, e = pcall(chunk, unpack(argv))
  arg, os.exit, io.stderr, S.open_stage, package.path = saved.arg, saved.exit, saved.stderr, saved.open_stage, saved.path
  if not ok and type(e) == "table" and e.parsed then return e.parsed end
  if ok and type(e) == "table" and type(e.name) == "string" and (e.c ~= nil or e.lua ~= nil) then
    return nil, "is a model file, not a scenario: sweep it with `sweep.lua ensemble " .. script ..
                " DIR --over key=v1,v2 ...` (one ensemble call)", true
  end
  local msg = table.concat(said):match("^[^\n]*")
  if msg == "" then
    if ok then msg = "the scenario did not read its parameters (no sc:parse)"
    elseif type(e) == "table" then msg = "stopped with exit status " .. tostring(e.exit)
    else msg = tostring(e):match("^[^\n]*") end
  end
  return nil, msg
end

--- The environment and command prefix every command of a sweep starts with: the repository as
-- the working directory and its Lua modules first on LUA_PATH (a scenario file kept elsewhere
-- finds the library too), quiet progress. at: another working directory than the repository.
function M.prefix(root, at)
  return string.format("cd %s && LUA_PATH=%s\"${LUA_PATH:-;}\" KZ_QUIET=1", q(at or root), q(root .. "/lib/lua/?.lua;"))
end

--- Read --max-array N at args[i] (a whole number >= 2); die otherwise.
function M.max_array_arg(args, i, die)
  local v = args[i + 1] and args[i + 1]:match("^%d+$") and tonumber(args[i + 1])
  if not v or v < 2 or v > 1e9 then die("--max-array needs a whole number >= 2 (the cluster's MaxArraySize)") end
  return v
end

--- Write the sweep's files into dir (made if missing; refused when it holds shards already):
-- commands.txt, sweep.txt, slurm.sh, submit.sh, logs/. Dies (removing what it made) on failure.
function M.write(root, dir, m, cmds, max_array, from, die)
  local old = F.is_dir(dir .. "/shards") and F.entries(dir .. "/shards") or {}
  if #old > 0 then
    die(string.format("%s/shards holds the shards of an earlier sweep: emit into a fresh directory, or remove them", dir))
  end
  local made, merr = F.make_dirs(dir)
  if not made then die(merr) end
  local written = {}
  local function put(name, text)
    local ok, err = F.write_atomic(dir .. "/" .. name, text)
    if ok then written[#written + 1] = dir .. "/" .. name end
    return ok, err
  end
  local ok, err = put("commands.txt", table.concat(cmds, "\n") .. "\n")
  if ok then ok, err = put("sweep.txt", MAN.text(m)) end
  if ok then ok, err = put("slurm.sh", B.script(root, dir, m, max_array, from)) end
  if ok then ok, err = put("submit.sh", B.submit(root, dir, m, max_array)) end
  local logs = ok and F.mkdir(dir .. "/logs")
  if ok and not F.is_dir(dir .. "/logs") then ok, err = nil, "cannot create directory " .. dir .. "/logs" end
  if not ok then
    for _, p in ipairs(written) do os.remove(p) end
    if logs then os.remove(dir .. "/logs") end
    F.unmake(made) -- the folders this call made, if still those and empty
    die(err)
  end
end

--- `sweep.lua emit ID DIR ...` with args = the words after `emit`.
function M.main(root, args, die, abs)
  local id, dir = args[1], args[2]
  if not id or not dir or id:match("^%-%-") or dir:match("^%-%-") then
    die("usage: sweep.lua emit ID DIR --over key=v1,v2 ... [key=value ...] [--quick] [--force] [--max-array N]")
  end
  local script, cmdscript = resolve(root, id, abs, die)
  dir = abs(dir)
  local chk, why = F.check_out(dir, "DIR")
  if not chk then die(why) end
  local over, fixed, flags = {}, {}, {}
  local key_once, read_over = SE.readers(die)
  local max_array
  local i = 3
  while args[i] do
    local a = args[i]
    if a == "--over" then
      over[#over + 1] = read_over(args, i)
      i = i + 2
    elseif a == "--quick" or a == "--force" then
      if flags[a] then die(a .. " is given twice") end
      flags[a] = true
      i = i + 1
    elseif a == "--max-array" then
      if max_array then die("--max-array is given twice") end
      max_array = M.max_array_arg(args, i, die)
      i = i + 2
    elseif a:match("^[%w_]+=") then
      local k, v = a:match("^([%w_]+)=(.*)$")
      key_once(k)
      SE.value_ok(k, v, die)
      fixed[#fixed + 1] = a
      i = i + 1
    else
      die("unknown argument '" .. a .. "'")
    end
  end
  if #over == 0 then die("nothing to sweep: give at least one --over key=v1,v2,...") end
  for _, f in ipairs { "--quick", "--force" } do if flags[f] then fixed[#fixed + 1] = f end end
  -- the product, first key outermost
  local points = SE.product(over)
  for _, p in ipairs(points) do
    for j, v in ipairs(p) do p[j] = over[j].key .. "=" .. v end
  end
  -- every point through the scenario's parser before anything is written
  local sid
  for n, p in ipairs(points) do
    local argv = {}
    for _, a in ipairs(p) do argv[#argv + 1] = a end
    for _, a in ipairs(fixed) do argv[#argv + 1] = a end
    local sc, err, model = M.check_point(script, argv)
    if model then die(id .. " " .. err) end
    if not sc then die(string.format("point %s (%s): %s", MAN.shard_name(n), table.concat(p, " "), err)) end
    sid = sid or sc.id
  end
  if not tostring(sid):match("^[%w][%w%._%-]*$") then die("the scenario's id '" .. tostring(sid) .. "' is not usable") end
  local cmds, pts = {}, {}
  for n, p in ipairs(points) do
    local a = {}
    for _, x in ipairs(p) do a[#a + 1] = q(x) end
    for _, x in ipairs(fixed) do a[#a + 1] = q(x) end
    -- KZ_CELLS_RECORD: the shard also records its compute cells, which merge replays
    cmds[n] = string.format("%s KZ_CELLS_RECORD=1 luajit %s --out %s %s", M.prefix(root), q(cmdscript),
                            q(dir .. "/shards/" .. MAN.shard_name(n)), table.concat(a, " "))
    pts[n] = table.concat(p, " ")
  end
  local m = { id = sid, kind = "scenario", script = cmdscript, root = root, shards = #points, over = over, args = fixed, points = pts }
  local size, from = B.max_array(max_array)
  M.write(root, dir, m, cmds, size, from, die)
  io.stdout:write(table.concat(cmds, "\n"), "\n")
  io.stderr:write(string.format("sweep: %d points of %s in %s: run them here (sweep.lua run DIR), with GNU parallel " ..
                                "(parallel :::: DIR/commands.txt), or on Slurm (sh DIR/submit.sh: arrays of at most %d, " ..
                                "MaxArraySize %d from %s); then sweep.lua status DIR, merge DIR\n", #points, sid, dir, size - 1, size, from))
end

return M
