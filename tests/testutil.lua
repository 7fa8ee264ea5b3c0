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
M.slope = require("scenario").loglog_slope

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

--- The ids of the paper's scenarios: scenarios/<id>.lua at the top of scenarios/ only (the
-- Makefile's non-recursive wildcard; scenarios/examples/ holds a user's model and scenario).
function M.scenarios()
  local t = {}
  for _, f in ipairs(M.files(M.root .. "/scenarios")) do
    if f:match("^[^/]+%.lua$") then t[#t + 1] = f:gsub("%.lua$", "") end
  end
  return t
end

return M
