-- sweep.lua -- a sweep as independent commands, one per point: emit them, run them here (the
-- built-in runner, or GNU parallel), on a Slurm cluster or over ssh, then merge the shards into
-- the files a single run writes.
--
--   luajit scripts/sweep.lua emit ID DIR --over key=v1,v2,... [--over key2=...] [key=value ...] [--quick] [--force]
--       one command per point of the product of the --over lists (the first --over outermost),
--       each `cd ROOT && KZ_QUIET=1 luajit scenarios/ID.lua --out DIR/shards/NNNN key=v ...` with
--       absolute paths and every argument single-quoted; printed, and written to DIR/commands.txt
--       with a manifest DIR/sweep.txt. ID is the id of a scenario (scenarios/ID.lua) or a path to
--       an existing .lua scenario file. Every point is checked before anything is written, by the
--       scenario's own parser (keys, values, ranges, the work estimate): a bad key or value, a key
--       or value given twice, or a DIR that holds an earlier sweep's shards is one line on stderr,
--       exit status 2, nothing written.
--   luajit scripts/sweep.lua run DIR [-j N]
--       runs DIR/commands.txt here, N at a time (default: the number of cores): with GNU parallel
--       when it is installed (`parallel -j N --joblog ... :::: DIR/commands.txt`, no --halt),
--       otherwise with the built-in runner (lib/experiment/pool.lua); KZ_SWEEP_RUNNER=builtin or =parallel
--       chooses. A point that fails does not stop the others: every point runs, the failed ones
--       are listed at the end, and the exit status is 1 if any failed. SIGTERM, SIGINT or SIGHUP
--       stops the sweep: the running points get the signal (their process groups), no new point
--       starts, the exit status is 128 + the signal number.
--   luajit scripts/sweep.lua merge DIR
--       every data/*.tsv and tables/*.tsv of the shards into DIR/data, DIR/tables: the comment and
--       header lines must agree across shards, the rows are concatenated in point order (the order
--       a single run with the --over lists writes them in, when its loops nest like the --over
--       keys, outermost first); any other file is copied when every shard wrote the same bytes,
--       and otherwise listed as not merged (Markdown tables and figures that combine the points:
--       rerun the scenario, or write such a summary from the merged TSV files). A shard that
--       holds files of another scenario, a staging folder or a partial write, a shard directory
--       that is not part of this sweep, or a damaged sweep.txt is refused in one line.
--   luajit scripts/sweep.lua ensemble MODEL.lua DIR --over key=v1,v2,... [--over key2=...] [method=NAME]
--                                 [knobs] [observers] [key=value ...] [plot=NAME|none] [--lua] [--threads N] [--force]
--       not a scenario but a model file (lib/experiment/modelfile.lua): the product of the --over
--       lists (the first outermost, the point order of emit) over its parameters and initial state
--       (q0, v0 for one degree of freedom; q0_<i>, v0_<i>, y0_<i> one component for more) runs as
--       ONE ensemble call (lib/lua/ensemble.lua), vectorised over the points and split over N
--       threads (default: the cores), into DIR/data/sweep-<model>.tsv: per point the swept values,
--       the state at T, a status (ok, failed:start, failed:bound) and the evaluations per member;
--       comments say the model, method, knobs, vector width and threads. method=rk4 (default) or
--       another explicit stepper with n=steps to T or h=step; method=hmm (HMM-V, omega not swept)
--       or method=sam with N macro steps and n micro-steps per fast period. The other key=value
--       are the model's overrides, except the observers recorded in the call per point, a column
--       each (max=q1,v2; cross=q1:LEVEL[:abs][:down][:stop]; final=INVARIANT; samples=all|q1,...
--       into DIR/data/sweep-<model>-samples.tsv; every=K steps between checks; the C path only;
--       plot=max_q1 draws one). A model run with its Lua functions (--lua, or no C source)
--       cannot be vectorised: its points run one by one in this process through the scalar API
--       (said on stderr), into the same file. Then, from that file, gnuplot draws
--       DIR/figures/sweep-<model>.svg (lib/experiment/sweep_figure.lua): for one swept key the
--       state at T against it (figures/sweep-line.gp), for two a heat map of one component
--       (figures/sweep-grid.gp; plot=NAME chooses the state column, default q, q1 or y1), for
--       three or more none (said on stderr); plot=none draws none. Without gnuplot the figure is
--       skipped (said); a gnuplot that fails is one line and exit status 1, the data kept.
--       Bad input: one line on stderr, exit 2, nothing
--       written; so is a grid of more than 1e6 points, or a run whose estimated work (points x
--       each member's force evaluations, plus reading each point) is beyond KZ_MAX_WORK (the
--       scenarios' limit, default 2e10) unless --force. lib/experiment/sweep_ensemble.lua has the details. Measured on 2 cores: a 20 x 20
--       grid of a 1-dof vibrated pendulum, RK4 with 4000 steps each: ensemble 0.04 s wall (the
--       call itself 0.011 s; the first point's model is built, the others' data read without
--       building one), emit + run -j 2 + merge 8.1-8.6 s (one luajit process per point); a
--       200 x 200 grid as one call 3.0 s (1.3 s in the call; 110 s when every point built its
--       model with its trial calls in a child process).
--   emit, given a model file, refuses in one line and names `ensemble`. A scenario that takes a
--   list for a key may already run it as one ensemble: scenarios/ex-kapitza-map.lua takes its
--   grid as n_amp x n_freq (a_max, w_min, w_max) and runs every frequency as one ensemble call over
--   the amplitudes, split over threads=N; give it the whole grid in one run rather than sweeping
--   shards over its keys.
--
-- The same commands.txt, unchanged, runs
--   * as a Slurm job array (one task per line; DIR on a file system the nodes share):
--       n=$(wc -l < DIR/commands.txt)
--       sbatch --array=1-$n --wrap 'sed -n "${SLURM_ARRAY_TASK_ID}p" DIR/commands.txt | sh'
--     then, when the array is done: luajit scripts/sweep.lua merge DIR
--   * over ssh hosts with GNU parallel (the repository, built, at the same path on every host, and
--     DIR shared, e.g. NFS):
--       parallel --sshlogin 8/host1,8/host2 :::: DIR/commands.txt
--     without a shared DIR, add --return and --cleanup per shard, or rsync DIR/shards back.
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
if root:sub(1, 1) ~= "/" then root = (os.getenv("PWD") or ".") .. "/" .. root end
root = root:gsub("/%./", "/"):gsub("/%.$", "")
package.path = root .. "/lib/lua/?.lua;" .. root .. "/lib/experiment/?.lua;" .. package.path
local S = require "scenario"
local F = require "files"
local Cmp = require "compare"
local Pool = require "pool"
local SE = require "sweep_ensemble"

local function oneline(s) return (tostring(s):gsub("%c", "?")) end
local function die(msg) io.stderr:write("sweep: " .. oneline(msg) .. "\n"); os.exit(2) end
local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end
local function abs(p)
  if p:sub(1, 1) == "/" then return p end
  return (os.getenv("PWD") or ".") .. "/" .. p
end
local function is_file(p)
  local f = io.open(p, "rb")
  if not f then return false end
  f:close()
  return not F.is_dir(p)
end
local function shard_name(k) return string.format("%04d", k) end

---------------------------------------------------------------------------------------------------
-- emit
---------------------------------------------------------------------------------------------------

-- The scenario file for ID: scenarios/ID.lua of this repository (ID: letters, digits, . _ -), or
-- an existing .lua file at the path ID. Returns its absolute path and the path the commands use.
local function resolve(id)
  if id:match("^[%w][%w%._%-]*$") and not id:find("..", 1, true) then
    local rel = "scenarios/" .. id .. ".lua"
    if is_file(root .. "/" .. rel) then return root .. "/" .. rel, rel end
  end
  if id:match("%.lua$") and is_file(abs(id)) then return abs(id), abs(id) end
  die(string.format("no scenario '%s' (the id of a file scenarios/<id>.lua, or the path to a .lua scenario file)", id))
end

-- Check one point with the scenario's own parser, in this process and without running anything:
-- the scenario file is loaded (its own chunk name, so that its parse does not start a protected
-- run) and its parse runs on argv; S.open_stage, the first thing parse does after accepting the
-- arguments, is replaced by a function that stops there, os.exit by one that raises, and what the
-- parser writes on stderr is kept. Returns the scenario (its id and parameters), or nil and the
-- parser's one-line message. (scenario.lua has no listing of its own to ask instead.)
local function check_point(script, argv)
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

local function emit()
  local id, dir = arg[2], arg[3]
  if not id or not dir or id:match("^%-%-") or dir:match("^%-%-") then
    die("usage: sweep.lua emit ID DIR --over key=v1,v2 ... [key=value ...] [--quick] [--force]")
  end
  local script, cmdscript = resolve(id)
  dir = abs(dir)
  local over, fixed, flags = {}, {}, {}
  local key_once, read_over = SE.readers(die)
  local i = 4
  while arg[i] do
    local a = arg[i]
    if a == "--over" then
      over[#over + 1] = read_over(arg, i)
      i = i + 2
    elseif a == "--quick" or a == "--force" then
      if flags[a] then die(a .. " is given twice") end
      flags[a] = true
      i = i + 1
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
    local sc, err, model = check_point(script, argv)
    if model then die(id .. " " .. err) end
    if not sc then die(string.format("point %s (%s): %s", shard_name(n), table.concat(p, " "), err)) end
    sid = sid or sc.id
  end
  if not tostring(sid):match("^[%w][%w%._%-]*$") then die("the scenario's id '" .. tostring(sid) .. "' is not usable") end
  local old = F.is_dir(dir .. "/shards") and F.entries(dir .. "/shards") or {}
  if #old > 0 then
    die(string.format("%s/shards holds the shards of an earlier sweep: emit into a fresh directory, or remove them", dir))
  end
  local cmds, man = {}, { "id " .. sid, "script " .. cmdscript, "shards " .. #points }
  for _, o in ipairs(over) do man[#man + 1] = "over " .. o.key .. " " .. table.concat(o.values, ",") end
  if #fixed > 0 then man[#man + 1] = "fixed " .. table.concat(fixed, " ") end
  for n, p in ipairs(points) do
    local args = {}
    for _, a in ipairs(p) do args[#args + 1] = q(a) end
    for _, a in ipairs(fixed) do args[#args + 1] = q(a) end
    cmds[n] = string.format("cd %s && KZ_QUIET=1 luajit %s --out %s %s", q(root), q(cmdscript),
                            q(dir .. "/shards/" .. shard_name(n)), table.concat(args, " "))
    man[#man + 1] = "point " .. shard_name(n) .. " " .. table.concat(p, " ")
  end
  local existed = F.is_dir(dir)
  local ok, err = F.write_atomic(dir .. "/commands.txt", table.concat(cmds, "\n") .. "\n")
  if ok then
    ok, err = F.write_atomic(dir .. "/sweep.txt", table.concat(man, "\n") .. "\n")
    if not ok then os.remove(dir .. "/commands.txt") end
  end
  if not ok then
    if not existed then os.remove(dir) end -- (only when empty)
    die(err)
  end
  io.stdout:write(table.concat(cmds, "\n"), "\n")
end

---------------------------------------------------------------------------------------------------
-- the manifest
---------------------------------------------------------------------------------------------------

-- DIR/sweep.txt read strictly: { id, script, shards, points = { [k] = "key=v ..." } }; a damaged
-- one is one line naming the line.
local function manifest(dir, required)
  local path = dir .. "/sweep.txt"
  local text = F.read(path)
  if not text then
    if required then die("usage: sweep.lua merge DIR (no " .. path .. ": DIR is not a sweep emitted by sweep.lua emit)") end
    return nil
  end
  local m, n = { points = {} }, 0
  local function damaged(what) die(string.format("%s is damaged (%s): emit the sweep again", path, what)) end
  for line in text:gmatch("([^\n]*)\n?") do
    n = n + 1
    if line ~= "" then
      local k, v = line:match("^(%a+) (.+)$")
      if k == "id" and not m.id and v:match("^[%w][%w%._%-]*$") then m.id = v
      elseif k == "script" and not m.script then m.script = v
      elseif k == "shards" and not m.shards and v:match("^%d+$") and tonumber(v) >= 1 then m.shards = tonumber(v)
      elseif k == "over" and v:match("^[%w_]+ .+$") then -- (for reading)
      elseif k == "fixed" then
      elseif k == "point" and v:match("^%d%d%d%d+") then m.points[tonumber(v:match("^%d+"))] = v:match("^%d+ ?(.*)$")
      else damaged(string.format("line %d: '%s'", n, line:sub(1, 60))) end
    end
  end
  if not m.id then damaged("no 'id' line") end
  if not m.shards then damaged("no 'shards' line") end
  for k in pairs(m.points) do if k > m.shards then damaged("point " .. k .. " beyond the " .. m.shards .. " shards") end end
  return m
end

---------------------------------------------------------------------------------------------------
-- run
---------------------------------------------------------------------------------------------------

local function run()
  local dir = arg[2] and not arg[2]:match("^%-") and abs(arg[2])
  local jobs = Pool.cores()
  local i = 3
  while arg[i] do
    if arg[i] == "-j" and arg[i + 1] and arg[i + 1]:match("^%d+$") and tonumber(arg[i + 1]) >= 1 then
      jobs = tonumber(arg[i + 1])
      i = i + 2
    else
      die("usage: sweep.lua run DIR [-j N] (N a whole number >= 1; unknown argument '" .. arg[i] .. "')")
    end
  end
  local text = dir and F.read(dir .. "/commands.txt")
  if not text then die("usage: sweep.lua run DIR [-j N] (DIR/commands.txt from emit)") end
  local lines = {}
  for l in text:gmatch("[^\n]+") do lines[#lines + 1] = l end
  if #lines == 0 then die(dir .. "/commands.txt holds no commands") end
  local m = manifest(dir, false)
  local function label(k)
    local p = m and m.points[k]
    return string.format("point %s%s", shard_name(k), p and p ~= "" and (" (" .. p .. ")") or "")
  end
  local runner = os.getenv("KZ_SWEEP_RUNNER") or ""
  if runner == "xargs" then runner = "builtin" end -- (the former name of the fallback)
  if runner == "" then runner = Pool.in_path("parallel") and "parallel" or "builtin" end
  if runner ~= "builtin" and runner ~= "parallel" then die("KZ_SWEEP_RUNNER='" .. runner .. "': use builtin or parallel") end
  io.stderr:write(string.format("sweep: %d points, %d at a time (%s)\n", #lines, jobs,
                                runner == "parallel" and "GNU parallel" or "built-in runner"))
  local function on_done(k, r)
    if not (r.status == 0) then io.stderr:write(string.format("sweep: %s failed: %s\n", label(k), Pool.describe(r))) end
  end
  local results, stop
  if runner == "builtin" then
    local cmds = {}
    for k, l in ipairs(lines) do cmds[k] = { "sh", "-c", l } end
    results, stop = Pool.run(cmds, jobs, on_done)
  else
    -- no --halt: a failing point does not stop the others; the job log says which failed; a
    -- signal gives the running points 2 s to clean up (their staging folders) before SIGKILL
    local log = string.format("%s/.sweep-joblog-%d", dir, Pool.pid())
    os.remove(log)
    local r
    r, stop = Pool.run({ { "parallel", "--will-cite", "-j", tostring(jobs), "--termseq", "TERM,2000,KILL,25",
                          "--joblog", log, "::::", dir .. "/commands.txt" } }, 1)
    results = {}
    local jl = F.read(log)
    os.remove(log)
    if not jl then die("GNU parallel did not run (" .. Pool.describe(r[1]) .. "); KZ_SWEEP_RUNNER=builtin avoids it") end
    for line in jl:gmatch("[^\n]+") do
      local c = {}
      for x in (line .. "\t"):gmatch("([^\t]*)\t") do c[#c + 1] = x end
      local seq, ev, sig = tonumber(c[1]), tonumber(c[7]), tonumber(c[8])
      if seq and ev and sig then
        results[seq] = sig ~= 0 and { signal = sig } or { status = ev }
        on_done(seq, results[seq])
      end
    end
    for k = 1, #lines do results[k] = results[k] or { not_run = true } end
  end
  local done, failed, notrun = 0, {}, 0
  for k, r in ipairs(results) do
    if r.status == 0 then done = done + 1
    elseif r.not_run then notrun = notrun + 1
    else failed[#failed + 1] = shard_name(k) end
  end
  io.stderr:write(string.format("sweep: %d points: %d done, %d failed%s, %d %s%s\n", #lines, done, #failed,
                                #failed > 0 and (" (" .. table.concat(failed, ", ") .. ")") or "", notrun,
                                (stop and runner == "parallel") and "stopped or not run" or "not run",
                                stop and string.format(" (stopped by signal %d)", stop) or ""))
  if stop then os.exit(128 + stop) end
  os.exit(#failed > 0 and 1 or 0)
end

---------------------------------------------------------------------------------------------------
-- merge
---------------------------------------------------------------------------------------------------

-- The lines of a text: a last line without a newline counts.
local function text_lines(t)
  local out = {}
  for l in (t:sub(-1) == "\n" and t or (t .. "\n")):gmatch("([^\n]*)\n") do out[#out + 1] = l end
  return out
end

local function merge()
  local dir = arg[2] and abs(arg[2])
  if not dir or arg[3] then die("usage: sweep.lua merge DIR (DIR/sweep.txt from emit)") end
  local m = manifest(dir, true)
  local n, id = m.shards, m.id
  local want = {}
  for k = 1, n do want[shard_name(k)] = true end
  for _, e in ipairs(F.is_dir(dir .. "/shards") and F.entries(dir .. "/shards") or {}) do
    if not want[e.name] then
      die(string.format("%s/shards/%s is not a shard of this sweep (%d shards of %s): left from another sweep? remove it",
                        dir, e.name, n, id))
    end
  end
  local shards, files, seen = {}, {}, {}
  for k = 1, n do
    local s = dir .. "/shards/" .. shard_name(k)
    shards[k] = s
    if not F.is_dir(s .. "/data") and not F.is_dir(s .. "/tables") then
      die(string.format("shard %s has no outputs (not run, or failed)", shard_name(k)))
    end
    local list, err = F.tree(s)
    if not list then die(err) end
    for _, f in ipairs(list) do
      local why
      if f:match("^%.kz%-stage") then why = "the staging folder of an unfinished run"
      elseif f:match("%.tmp$") then why = "a partial write"
      elseif not Cmp.owned(id, f) then why = "not an output of " .. id .. " (a shard of another sweep?)" end
      if why then die(string.format("shard %s holds %s: %s; rerun that point", shard_name(k), f, why)) end
      if not seen[f] then seen[f] = true; files[#files + 1] = f end
    end
  end
  table.sort(files)
  local out, skipped = {}, {}
  for _, f in ipairs(files) do
    local texts = {}
    for k, s in ipairs(shards) do
      texts[k] = F.read(s .. "/" .. f)
      if not texts[k] then die(string.format("%s missing in shard %s", f, shard_name(k))) end
    end
    local mergeable = f:match("^data/") or f:match("^tables/")
    if mergeable and f:match("%.tsv$") then
      local head, body = nil, {}
      for k, t in ipairs(texts) do
        local pre, rows, in_rows = {}, {}, false
        for _, line in ipairs(text_lines(t)) do
          if in_rows then rows[#rows + 1] = line
          else
            pre[#pre + 1] = line
            if not line:match("^#") then in_rows = true end -- the header line ends the preamble
          end
        end
        local p = table.concat(pre, "\n")
        if head and p ~= head then die(string.format("%s: shard %s has other comment or header lines (not mergeable)", f, shard_name(k))) end
        head = p
        for _, r in ipairs(rows) do body[#body + 1] = r end
      end
      out[#out + 1] = { f, head .. "\n" .. (#body > 0 and (table.concat(body, "\n") .. "\n") or "") }
    else
      local same = true
      for k = 2, #texts do same = same and texts[k] == texts[1] end
      if same and mergeable then out[#out + 1] = { f, texts[1] } else skipped[#skipped + 1] = f end
    end
  end
  for _, o in ipairs(out) do
    local ok, err = F.write_atomic(dir .. "/" .. o[1], o[2])
    if not ok then die(err) end
  end
  io.stderr:write(string.format("sweep: merged %d shards of %s into %s/data, %s/tables (%d files)\n", n, id, dir, dir, #out))
  if #skipped > 0 then
    io.stderr:write("sweep: not merged (they combine the points; rerun or write from the merged TSV): " ..
                    table.concat(skipped, ", ") .. "\n")
  end
end

local verb = arg[1]
if verb == "emit" then emit()
elseif verb == "run" then run()
elseif verb == "merge" then merge()
elseif verb == "ensemble" then SE.main({ select(2, unpack(arg)) }, die, abs)
else die("usage: sweep.lua emit|run|merge|ensemble ... (see the comment at the top of scripts/sweep.lua)") end
