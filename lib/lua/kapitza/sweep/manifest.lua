-- sweep_manifest.lua -- a sweep's folder (scripts/sweep.lua): its manifest DIR/sweep.txt, read
-- strictly, and the state of each of its points (done, failed, missing, unfinished, unreadable)
-- from DIR/shards/NNNN and DIR/logs/NNNN.log, for `status`, `merge` and `task`.
--
-- sweep.txt, one entry a line:
--   id ID                  the scenario's id (a scenario sweep), or sweep-<model> (an ensemble's)
--   kind scenario|ensemble (absent: scenario, a sweep emitted before kinds)
--   script PATH            the scenario file as the commands name it (relative to root, or absolute)
--   model PATH             an ensemble sweep's model file (as given)
--   root PATH              the repository the commands run from
--   cwd PATH               where an ensemble sweep's commands run (its model path is relative)
--   shards N               the number of commands (points of a scenario sweep, parts of an ensemble's)
--   count N                an ensemble sweep's number of grid points
--   over KEY V1,V2,...     a swept key and its values (in order: the first outermost)
--   arg WORD               one further argument of every command (key=value, --quick, ...), in order
--   fixed WORDS            (an older sweep: the further arguments, space-separated)
--   point NNNN KEY=V ...   a scenario sweep's point
--   part NNNN A-B          an ensemble sweep's shard: the grid's points A..B
local F = require "kapitza.files"

local M = {}

M.MAX_SHARDS = 10000000 -- commands of one sweep (a sweep.txt that claims more is damaged)

function M.shard_name(k) return string.format("%04d", k) end

--- The text of sweep.txt for the manifest m (the fields above).
function M.text(m)
  local t = { "id " .. m.id, "kind " .. (m.kind or "scenario") }
  if m.script then t[#t + 1] = "script " .. m.script end
  if m.model then t[#t + 1] = "model " .. m.model end
  if m.root then t[#t + 1] = "root " .. m.root end
  if m.cwd then t[#t + 1] = "cwd " .. m.cwd end
  t[#t + 1] = "shards " .. m.shards
  if m.count then t[#t + 1] = "count " .. m.count end
  for _, o in ipairs(m.over) do t[#t + 1] = "over " .. o.key .. " " .. table.concat(o.values, ",") end
  for _, a in ipairs(m.args or {}) do t[#t + 1] = "arg " .. a end
  for k, p in ipairs(m.points or {}) do t[#t + 1] = "point " .. M.shard_name(k) .. " " .. p end
  for k, r in ipairs(m.parts or {}) do t[#t + 1] = string.format("part %s %d-%d", M.shard_name(k), r[1], r[2]) end
  return table.concat(t, "\n") .. "\n"
end

--- DIR/sweep.txt read strictly: the manifest, or nil when there is none (die when `required`);
-- a damaged one dies naming the line or what does not add up.
function M.read(dir, die, required, verb)
  local path = dir .. "/sweep.txt"
  local st = F.stat(path, true)
  if st and st.kind ~= "file" then die(string.format("%s is %s, not a sweep's manifest", path, F.kind_words(st.kind))) end
  local text = st and F.read(path)
  if st and not text then die(string.format("cannot read %s (permission denied?)", path)) end
  if not text then
    if required then
      die(string.format("usage: sweep.lua %s DIR (no %s: DIR is not a sweep emitted by sweep.lua emit or ensemble --shards)", verb or "merge", path))
    end
    return nil
  end
  local m, n = { points = {}, parts = {}, over = {}, args = {}, npoints = 0, nparts = 0 }, 0
  local function damaged(what) die(string.format("%s is damaged (%s): emit the sweep again", path, what)) end
  for line in text:gmatch("([^\n]*)\n?") do
    n = n + 1
    if line ~= "" then
      local k, v = line:match("^(%a+) (.+)$")
      if k == "id" and not m.id and v:match("^[%w][%w%._%-]*$") then m.id = v
      elseif k == "kind" and not m.kind and (v == "scenario" or v == "ensemble") then m.kind = v
      elseif k == "script" and not m.script then m.script = v
      elseif k == "model" and not m.model then m.model = v
      elseif k == "root" and not m.root and v:sub(1, 1) == "/" then m.root = v
      elseif k == "cwd" and not m.cwd and v:sub(1, 1) == "/" then m.cwd = v
      elseif k == "shards" and not m.shards and v:match("^%d+$") and #v <= 9 and tonumber(v) >= 1 then m.shards = tonumber(v)
      elseif k == "count" and not m.count and v:match("^%d+$") and #v <= 15 and tonumber(v) >= 1 then m.count = tonumber(v)
      elseif k == "over" and v:match("^[%w_]+ [^,]") then
        local key, vals = v:match("^([%w_]+) (.+)$")
        local o = { key = key, values = {} }
        for x in (vals .. ","):gmatch("([^,]*),") do
          if x == "" then damaged(string.format("line %d: an empty value", n)) end
          o.values[#o.values + 1] = x
        end
        m.over[#m.over + 1] = o
      elseif k == "arg" then m.args[#m.args + 1] = v
      elseif k == "fixed" then for w in v:gmatch("%S+") do m.args[#m.args + 1] = w end
      elseif k == "point" and v:match("^%d%d%d%d+") then
        local i = tonumber(v:match("^%d+"))
        if m.points[i] or i < 1 then damaged(string.format("line %d: point %s twice", n, v:match("^%d+"))) end
        m.points[i] = v:match("^%d+ ?(.*)$")
        m.npoints = m.npoints + 1
      elseif k == "part" and v:match("^%d%d%d%d+ %d+%-%d+$") then
        local i, a, b = v:match("^(%d+) (%d+)%-(%d+)$")
        i, a, b = tonumber(i), tonumber(a), tonumber(b)
        if m.parts[i] or i < 1 or a > b then damaged(string.format("line %d: '%s'", n, line:sub(1, 60))) end
        m.parts[i] = { a, b }
        m.nparts = m.nparts + 1
      else damaged(string.format("line %d: '%s'", n, line:sub(1, 60))) end
    end
  end
  if not m.id then damaged("no 'id' line") end
  if not m.shards then damaged("no 'shards' line") end
  m.kind = m.kind or "scenario"
  if m.shards > M.MAX_SHARDS then damaged(string.format("%d shards, more than a sweep has (%d)", m.shards, M.MAX_SHARDS)) end
  if m.kind == "ensemble" then
    if not m.model or not m.count then damaged("an ensemble sweep without its 'model' or 'count' line") end
    if m.nparts ~= m.shards then damaged(string.format("'shards %d' but %d part lines", m.shards, m.nparts)) end
    local nxt = 1
    for i = 1, m.shards do
      local r = m.parts[i]
      if not r or r[1] ~= nxt then damaged("the parts do not cover the grid's points in order") end
      nxt = r[2] + 1
    end
    if nxt ~= m.count + 1 then damaged(string.format("the parts cover %d points, 'count' says %d", nxt - 1, m.count)) end
  else
    if m.npoints > 0 and m.npoints ~= m.shards then damaged(string.format("'shards %d' but %d point lines", m.shards, m.npoints)) end
    for k in pairs(m.points) do if k > m.shards then damaged("point " .. k .. " beyond the " .. m.shards .. " shards") end end
    if m.npoints == 0 and m.shards > 1e5 then damaged(string.format("'shards %d' and no point lines", m.shards)) end
  end
  return m
end

--- "point 0002 (omega=1e6)" or "shard 0002 (points 41-80)".
function M.label(m, k)
  if m.kind == "ensemble" then
    local r = m.parts[k]
    return string.format("shard %s%s", M.shard_name(k), r and string.format(" (points %d-%d)", r[1], r[2]) or "")
  end
  local p = m.points[k]
  return string.format("point %s%s", M.shard_name(k), p and p ~= "" and (" (" .. p .. ")") or "")
end

-- The end line a task writes into its log (M.log_end) and how it is read back.
function M.log_end(k, status) return string.format("# sweep task: %s ended with exit status %d\n", M.shard_name(k), status) end
local function log_state(dir, k)
  local path = dir .. "/logs/" .. M.shard_name(k) .. ".log"
  local text = F.read(path)
  if not text then return nil end
  local s = text:match("# sweep task: %d+ ended with exit status (%d+)\n$")
  return { ended = s and tonumber(s), path = path }
end

--- The state of point (or shard) k: "done", "failed", "unfinished", "missing" or "unreadable",
-- and the reason in words. A scenario's point is done when its shard holds a finished run's
-- outputs (data/ or tables/, no staging folder, no partial write); an ensemble's shard when it
-- holds its TSV file. nolog: from the shard alone (a task judging its own point).
function M.state(dir, m, k, nolog)
  local s = dir .. "/shards/" .. M.shard_name(k)
  local st = F.stat(s, false)
  local log = not nolog and log_state(dir, k)
  local logged = log and (" (" .. log.path .. ")") or ""
  if not st then
    if log and log.ended and log.ended ~= 0 then return "failed", "exit status " .. log.ended .. ", no outputs" .. logged end
    if log and not log.ended then
      return "unfinished", "started, no end recorded: still running, or killed (cancelled, out of time, node lost)" .. logged
    end
    if log then return "failed", "exit status 0 but no outputs" .. logged end
    return "missing", "not run"
  end
  if st.kind ~= "dir" then return "failed", string.format("%s is %s, not the point's output folder", s, F.kind_words(st.kind)) end
  local es, err = F.entries(s)
  if not es then return "unreadable", "cannot read " .. tostring(err) end
  local subs = {}
  for _, e in ipairs(es) do
    if e.name:match("^%.kz%-stage") then
      return "unfinished", "a run's staging folder is there: still running, or killed" .. logged
    end
    subs[e.name] = e.kind
  end
  if m.kind == "ensemble" then
    local f = s .. "/data/" .. m.id .. ".tsv"
    local fs = F.stat(f, false)
    if fs and fs.kind == "file" then
      local fh = io.open(f, "rb")
      if not fh then return "unreadable", "cannot read " .. f end
      fh:close()
      return "done"
    end
    if log and log.ended and log.ended ~= 0 then return "failed", "exit status " .. log.ended .. logged end
    return "failed", "no " .. m.id .. ".tsv in it" .. logged
  end
  if subs.data ~= "dir" and subs.tables ~= "dir" then
    if log and log.ended and log.ended ~= 0 then return "failed", "exit status " .. log.ended .. logged end
    return "failed", "no outputs" .. logged
  end
  local files, terr = F.tree(s)
  if not files then return "unreadable", "cannot read " .. tostring(terr) end
  for _, f in ipairs(files) do
    if f:match("%.tmp$") then return "unfinished", "a partial write " .. f .. " is there" .. logged end
    local fh = io.open(s .. "/" .. f, "rb")
    if not fh then return "unreadable", "cannot read " .. s .. "/" .. f end
    fh:close()
  end
  return "done"
end

--- Every point's state: { done = {k...}, failed = {...}, unfinished = {...}, missing = {...},
-- unreadable = {...}, why = { [k] = reason } }.
function M.states(dir, m)
  local r = { done = {}, failed = {}, unfinished = {}, missing = {}, unreadable = {}, why = {} }
  for k = 1, m.shards do
    local s, why = M.state(dir, m, k)
    table.insert(r[s], k)
    r.why[k] = why
  end
  return r
end

--- "2,5,7-9" for a sorted list of whole numbers.
function M.ranges(list)
  local t, i = {}, 1
  while i <= #list do
    local j = i
    while j < #list and list[j + 1] == list[j] + 1 do j = j + 1 end
    t[#t + 1] = j == i and tostring(list[i]) or string.format("%d-%d", list[i], list[j])
    i = j + 1
  end
  return table.concat(t, ",")
end

--- The points of a "2,5,7-9" list within 1..n (sorted, each once), or nil and why not.
function M.parse_ranges(s, n)
  local seen, out = {}, {}
  for part in (s .. ","):gmatch("([^,]*),") do
    local a, b = part:match("^(%d+)%-(%d+)$")
    if not a then a = part:match("^(%d+)$"); b = a end
    a, b = tonumber(a), tonumber(b)
    if not a or a < 1 or b > n or a > b then return nil, string.format("'%s' is not a point or range of points within 1-%d", part, n) end
    for k = a, b do if not seen[k] then seen[k] = true; out[#out + 1] = k end end
  end
  table.sort(out)
  return out
end

return M
