-- sweep.lua -- a sweep as independent commands, one per point: emit them, run them here (GNU
-- parallel, or xargs -P without it), on a Slurm cluster or over ssh, then merge the shards into the
-- files a single run writes.
--
--   luajit scripts/sweep.lua emit ID DIR --over key=v1,v2,... [--over key2=...] [key=value ...]
--       one command per point of the product of the --over lists (the first --over outermost),
--       each `luajit scenarios/ID.lua --out DIR/shards/NNNN key=v ... key=value ...` with absolute
--       paths; printed, and written to DIR/commands.txt with a manifest DIR/sweep.txt
--   luajit scripts/sweep.lua run DIR [-j N]
--       runs DIR/commands.txt here, N at a time (default: the number of cores): GNU parallel when
--       it is installed (`parallel --halt now,fail=1 -j N :::: DIR/commands.txt`), otherwise
--       `xargs -P N` (KZ_SWEEP_RUNNER=xargs forces the latter); fails if any command fails
--   luajit scripts/sweep.lua merge DIR
--       every data/*.tsv and tables/*.tsv of the shards into DIR/data, DIR/tables: the comment and
--       header lines must agree across shards, the rows are concatenated in point order (the order
--       a single run with the --over lists writes them in, when its loops nest like the --over
--       keys, outermost first); any other file is copied when every shard wrote the same bytes,
--       and otherwise listed as not merged (Markdown tables and figures that combine the points:
--       rerun the scenario, or write such a summary from the merged TSV files)
--
-- The same commands.txt, unchanged, runs
--   * as a Slurm job array (one task per line; DIR on a file system the nodes share):
--       n=$(wc -l < DIR/commands.txt)
--       sbatch --array=1-$n --wrap 'sed -n "${SLURM_ARRAY_TASK_ID}p" DIR/commands.txt | sh'
--     then, when the array is done: luajit scripts/sweep.lua merge DIR
--   * over ssh hosts with GNU parallel (the repository, built, at the same path on every host, and
--     DIR shared, e.g. NFS):
--       parallel --sshlogin 8/host1,8/host2 --halt now,fail=1 :::: DIR/commands.txt
--     without a shared DIR, add --return and --cleanup per shard, or rsync DIR/shards back.
local root = arg[0]:match("^(.*)/scripts/[^/]*$") or "."
if root:sub(1, 1) ~= "/" then root = (os.getenv("PWD") or ".") .. "/" .. root end
root = root:gsub("/%./", "/"):gsub("/%.$", "")
package.path = root .. "/lib/?.lua;" .. package.path
local S = require "scenario"

local function die(msg) io.stderr:write("sweep: " .. msg .. "\n"); os.exit(2) end
local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end
local function abs(p)
  if p:sub(1, 1) == "/" then return p end
  return (os.getenv("PWD") or ".") .. "/" .. p
end
local function lines(cmd)
  local t, p = {}, io.popen(cmd)
  for l in p:lines() do t[#t + 1] = l end
  p:close()
  return t
end
local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end
local function ok(st) return st == 0 or st == true end

local verb = arg[1]
if verb == "emit" then
  local id, dir = arg[2], arg[3]
  if not id or not dir then die("usage: sweep.lua emit ID DIR --over key=v1,v2 ... [key=value ...]") end
  if not io.open(root .. "/scenarios/" .. id .. ".lua") then die("no scenario '" .. id .. "'") end
  dir = abs(dir)
  local over, fixed = {}, {}
  local i = 4
  while arg[i] do
    if arg[i] == "--over" and arg[i + 1] then
      local k, v = arg[i + 1]:match("^([%w_]+)=(.+)$")
      if not k then die("--over needs key=v1,v2,...") end
      local vals = {}
      for x in (v .. ","):gmatch("([^,]*),") do
        if x == "" then die("empty value in --over " .. k) end
        vals[#vals + 1] = x
      end
      over[#over + 1] = { key = k, values = vals }
      i = i + 2
    elseif arg[i]:match("^[%w_]+=") or arg[i] == "--quick" then
      fixed[#fixed + 1] = arg[i]
      i = i + 1
    else
      die("unknown argument '" .. arg[i] .. "'")
    end
  end
  if #over == 0 then die("nothing to sweep: give at least one --over key=v1,v2,...") end
  -- the product, first key outermost
  local points = { {} }
  for _, o in ipairs(over) do
    local nxt = {}
    for _, p in ipairs(points) do
      for _, v in ipairs(o.values) do
        local c = {}
        for k, x in ipairs(p) do c[k] = x end
        c[#c + 1] = o.key .. "=" .. v
        nxt[#nxt + 1] = c
      end
    end
    points = nxt
  end
  local cmds = {}
  for n, p in ipairs(points) do
    local args = {}
    for _, a in ipairs(p) do args[#args + 1] = q(a) end
    for _, a in ipairs(fixed) do args[#args + 1] = q(a) end
    cmds[n] = string.format("cd %s && KZ_QUIET=1 luajit scenarios/%s.lua --out %s %s", q(root), id,
                            q(string.format("%s/shards/%04d", dir, n)), table.concat(args, " "))
  end
  local man = { "id " .. id, "shards " .. #cmds }
  for _, o in ipairs(over) do man[#man + 1] = "over " .. o.key .. " " .. table.concat(o.values, ",") end
  S.write_atomic(dir .. "/commands.txt", table.concat(cmds, "\n") .. "\n")
  S.write_atomic(dir .. "/sweep.txt", table.concat(man, "\n") .. "\n")
  io.stdout:write(table.concat(cmds, "\n"), "\n")
elseif verb == "run" then
  local dir = arg[2] and abs(arg[2])
  if not dir or not io.open(dir .. "/commands.txt") then die("usage: sweep.lua run DIR [-j N] (DIR/commands.txt from emit)") end
  local jobs = tonumber(arg[3] == "-j" and arg[4] or nil) or tonumber(lines("nproc 2>/dev/null")[1]) or 2
  local has_parallel = os.getenv("KZ_SWEEP_RUNNER") ~= "xargs" and ok(os.execute("command -v parallel >/dev/null 2>&1"))
  local cmd
  if has_parallel then
    cmd = string.format("parallel --will-cite --halt now,fail=1 -j %d :::: %s", jobs, q(dir .. "/commands.txt"))
  else -- one shell per line; xargs exits 123 if any command failed
    cmd = string.format("tr '\\n' '\\0' < %s | xargs -0 -P %d -n 1 sh -c", q(dir .. "/commands.txt"), jobs)
  end
  io.stderr:write(string.format("sweep: %s, %d at a time\n", has_parallel and "GNU parallel" or "xargs -P", jobs))
  if not ok(os.execute(cmd)) then die("a command of the sweep failed") end
elseif verb == "merge" then
  local dir = arg[2] and abs(arg[2])
  local man = dir and slurp(dir .. "/sweep.txt")
  if not man then die("usage: sweep.lua merge DIR (DIR/sweep.txt from emit)") end
  local n = tonumber(man:match("shards (%d+)"))
  local shards = {}
  for k = 1, n do
    shards[k] = string.format("%s/shards/%04d", dir, k)
    if not io.open(shards[k] .. "/data") and not io.open(shards[k] .. "/tables") then
      die(string.format("shard %04d has no outputs (not run, or failed)", k))
    end
  end
  local files, seen = {}, {}
  for _, s in ipairs(shards) do
    for _, f in ipairs(lines(string.format("cd %s && find data tables -type f 2>/dev/null | sort", q(s)))) do
      if not seen[f] then seen[f] = true; files[#files + 1] = f end
    end
  end
  local skipped = {}
  for _, f in ipairs(files) do
    local texts = {}
    for k, s in ipairs(shards) do
      texts[k] = slurp(s .. "/" .. f)
      if not texts[k] then die(string.format("%s missing in shard %04d", f, k)) end
    end
    local merged
    if f:match("%.tsv$") then
      local head, body = nil, {}
      for k, t in ipairs(texts) do
        local pre, rows, in_rows = {}, {}, false
        for line in t:gmatch("([^\n]*)\n") do
          if in_rows then rows[#rows + 1] = line
          else
            pre[#pre + 1] = line
            if not line:match("^#") then in_rows = true end -- the header line ends the preamble
          end
        end
        local p = table.concat(pre, "\n")
        if head and p ~= head then die(string.format("%s: shard %04d has other comment or header lines (not mergeable)", f, k)) end
        head = p
        for _, r in ipairs(rows) do body[#body + 1] = r end
      end
      merged = head .. "\n" .. (#body > 0 and (table.concat(body, "\n") .. "\n") or "")
    else
      local same = true
      for k = 2, #texts do same = same and texts[k] == texts[1] end
      if same then merged = texts[1] else skipped[#skipped + 1] = f end
    end
    if merged then S.write_atomic(dir .. "/" .. f, merged) end
  end
  io.stderr:write(string.format("sweep: merged %d shards into %s/data, %s/tables\n", n, dir, dir))
  if #skipped > 0 then
    io.stderr:write("sweep: not merged (they combine the points; rerun or write from the merged TSV): " ..
                    table.concat(skipped, ", ") .. "\n")
  end
else
  die("usage: sweep.lua emit|run|merge ... (see the comment at the top of scripts/sweep.lua)")
end
