-- testutil.lua -- small helpers shared by the specs.
local kz = require "kapitza"
local M = {}

-- the repository as an absolute path (the specs change directories in subprocesses)
M.root = (function()
  local p = io.popen(string.format("cd '%s' && pwd", kz.root))
  local d = p:read("*l")
  p:close()
  return d
end)()

--- Least-squares slope of log(y) against log(x).
M.slope = require("kapitza.scenario").loglog_slope

--- A fresh temporary directory.
function M.tmpdir()
  local p = io.popen("mktemp -d")
  local d = p:read("*l")
  p:close()
  return d
end

function M.rmdir(d)
  if d and d:match("^/tmp/") then os.execute("rm -rf '" .. d .. "'") end
end

--- Run a shell command; returns exit status, stdout, stderr.
function M.run(cmd)
  local d = M.tmpdir()
  local ok = os.execute(string.format("cd '%s' && %s >'%s/out' 2>'%s/err'", M.root, cmd, d, d))
  local function slurp(f)
    local h = io.open(d .. "/" .. f)
    local s = h:read("*a")
    h:close()
    return s
  end
  local out, err = slurp("out"), slurp("err")
  M.rmdir(d)
  -- LuaJIT's os.execute returns the raw wait status (exit code * 256)
  local status = (ok == true or ok == 0) and 0 or (type(ok) == "number" and (ok >= 256 and math.floor(ok / 256) or ok) or 1)
  return status, out, err
end

--- Files below a directory (relative paths), sorted.
function M.files(dir)
  local p = io.popen(string.format("cd '%s' 2>/dev/null && find . -type f | sort", dir))
  local t = {}
  for l in p:lines() do t[#t + 1] = l:gsub("^%./", "") end
  p:close()
  return t
end

--- The parameters of scenarios/<id>.lua from its --params listing (lib/lua/kapitza/scenario.lua): a list, in
-- its order, of {key, list, optional, integer (booleans), min, max, default, quick (the fields
-- as printed: strings, values comma-separated; "" when empty)}.
function M.params(id)
  local st, out, err = M.run("luajit scenarios/" .. id .. ".lua --params")
  assert(st == 0, id .. " --params: " .. err)
  local function split(line)
    local f = {}
    for x in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = x end
    return f
  end
  local t, head = {}, nil
  for line in out:gmatch("[^\n]+") do
    local f = split(line)
    if not head then
      head = {}
      for j, c in ipairs(f) do head[c] = j end
    else
      local p = {}
      for c, j in pairs(head) do p[c] = f[j] or "" end
      for _, c in ipairs { "list", "optional", "integer" } do p[c] = p[c] == "1" end
      t[#t + 1] = p
    end
  end
  return t
end

--- The claims tables under dir/tables (a .tsv with the columns claim and holds): a list of
-- {file = "tables/<name>.tsv", id = the scenario's id (<id>.tsv or <id>-claims.tsv), rows, cols}.
function M.claims_tables(dir)
  local S = require "kapitza.scenario"
  local t = {}
  for _, f in ipairs(M.files(dir .. "/tables")) do
    if f:match("%.tsv$") then
      local rows, cols = S.read_table(dir .. "/tables/" .. f)
      local has = {}
      for _, c in ipairs(cols or {}) do has[c] = true end
      if has.claim and has.holds then
        t[#t + 1] = { file = "tables/" .. f, id = (f:gsub("%.tsv$", ""):gsub("%-claims$", "")), rows = rows, cols = cols }
      end
    end
  end
  return t
end

--- The ids of the paper's scenarios: scenarios/<id>.lua at the top of scenarios/ only (the
-- Makefile's non-recursive wildcard; scenarios/examples/ holds a user's model and scenario).
function M.scenarios()
  local t = {}
  for _, f in ipairs(M.files(M.root .. "/scenarios")) do
    if f:match("^[^/]+%.lua$") then t[#t + 1] = f:gsub("%.lua$", "") end
  end
  return t
end

--- Run scenarios/<id>.lua with the arguments args (a string of key=value words, --quick) into a
-- fresh directory; asserts exit 0 (the run's stderr in the message). Returns the directory (the
-- caller removes it).
function M.run_scenario(id, args)
  local dir = M.tmpdir()
  local st, _, err = M.run(string.format("KZ_QUIET=1 luajit scenarios/%s.lua --out '%s' %s", id, dir, args or ""))
  assert(st == 0, string.format("%s %s: exit %d: %s", id, args or "", st, err))
  return dir
end

--- The claims table tables/<name>.tsv of a run in dir: claim key -> its row (the columns claim,
-- published, reproduced, evidence, premises, at, values, holds; `text` is the row's reproduced
-- column), and the rows in order.
function M.claims_table(dir, name)
  local S = require "kapitza.scenario"
  local rows = assert(S.read_table(dir .. "/tables/" .. name .. ".tsv"))
  local t = {}
  for _, r in ipairs(rows) do
    if r.claim then
      r.text = r.text or (r.reproduced ~= nil and tostring(r.reproduced) or nil)
      t[r.claim] = r
    end
  end
  return t, rows
end

--- Run a scenario (M.run_scenario) and read its claims table tables/<name or id>.tsv; the run's
-- directory is removed. Returns claim key -> row (M.claims_table).
function M.scenario_claims(id, args, name)
  local dir = M.run_scenario(id, args)
  local t, rows = M.claims_table(dir, name or id)
  M.rmdir(dir)
  return t, rows
end

--- s single-quoted for the shell (every ' written as '\'').
function M.q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

--- Write text to path (binary, replacing it).
function M.write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

--- The non-empty lines of s.
function M.lines(s)
  local t = {}
  for l in s:gmatch("[^\n]+") do t[#t + 1] = l end
  return t
end

return M
